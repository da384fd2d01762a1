//! A child process run within bounds: at most so many bytes of its stdout kept (a larger
//! answer kills it), a deadline, and Ctrl-C honoured while it runs. The live import's calls of
//! the AWS CLI go through it, so neither an endless answer nor a hung call can exhaust memory
//! or hold the terminal.

use crate::engine::StopToken;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most of a child's stderr kept (its last line is what messages quote).
const STDERR_KEPT: u64 = 64 * 1024;

/// How a bounded run ended, when it did not end by itself.
#[derive(Debug)]
pub(super) enum Bounded {
    /// It could not be started.
    Spawn(std::io::Error),
    /// Its stdout passed the cap: killed.
    TooLarge(u64),
    /// It passed the deadline: killed.
    TimedOut(Duration),
    /// Ctrl-C: killed.
    Interrupted,
}

/// What a child that ended printed.
pub(super) struct Ended {
    pub(super) success: bool,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
}

/// Runs `cmd`, keeping at most `cap` bytes of its stdout, for at most `timeout`, stopping when
/// `stop` is.
pub(super) fn run(mut cmd: Command, cap: u64, timeout: Duration, stop: &StopToken) -> Result<Ended, Bounded> {
    // Its own process group: a kill reaches whatever it started too (a shell's children hold
    // its pipes open).
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(Bounded::Spawn)?;
    let over = Arc::new(AtomicBool::new(false));
    let (mut out, mut err) = (child.stdout.take().expect("piped"), child.stderr.take().expect("piped"));
    let flag = over.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut out).take(cap + 1).read_to_end(&mut buf);
        if buf.len() as u64 > cap {
            flag.store(true, Ordering::Relaxed);
            buf.clear();
        }
        buf
    });
    let errs = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut err).take(STDERR_KEPT).read_to_end(&mut buf);
        let _ = std::io::copy(&mut err, &mut std::io::sink());
        buf
    });
    let start = Instant::now();
    let why = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let stdout = reader.join().unwrap_or_default();
                let stderr = errs.join().unwrap_or_default();
                if over.load(Ordering::Relaxed) {
                    return Err(Bounded::TooLarge(cap));
                }
                return Ok(Ended { success: status.success(), stdout, stderr });
            }
            Ok(None) => {}
            Err(e) => break Bounded::Spawn(e),
        }
        if over.load(Ordering::Relaxed) {
            break Bounded::TooLarge(cap);
        }
        if stop.is_stopped() {
            break Bounded::Interrupted;
        }
        if start.elapsed() > timeout {
            break Bounded::TimedOut(timeout);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: a signal to the process group this function created.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = (reader.join(), errs.join());
    Err(why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    /// An answer within the cap is kept whole; an endless one is cut at the cap and killed; a
    /// hung child is killed at the deadline; a stop kills it at once.
    #[test]
    fn children_are_kept_within_bounds() {
        let stop = StopToken::new();
        let e = run(sh("printf hello; echo oops >&2; exit 3"), 10, Duration::from_secs(10), &stop).unwrap();
        assert_eq!((e.success, e.stdout.as_slice(), e.stderr.as_slice()), (false, &b"hello"[..], &b"oops\n"[..]));
        assert!(matches!(run(sh("yes"), 1 << 20, Duration::from_secs(30), &stop), Err(Bounded::TooLarge(_))));
        let t = Instant::now();
        assert!(matches!(run(sh("sleep 30"), 10, Duration::from_millis(200), &stop), Err(Bounded::TimedOut(_))));
        assert!(t.elapsed() < Duration::from_secs(10));
        stop.stop();
        assert!(matches!(run(sh("sleep 30"), 10, Duration::from_secs(30), &stop), Err(Bounded::Interrupted)));
    }
}
