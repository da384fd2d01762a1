//! Progress on stderr with indicatif: a bar for a run that lasts more than a second, and for
//! the runs of a study, when stderr is a terminal (or with `--progress`); otherwise, for long
//! runs, a line per simulated hour or per tenth of a study's runs, which reads well in CI logs.
//! Nothing with `--quiet`.

use crate::engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How progress shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Nothing (`--quiet`, or a JSON document on stdout with nothing asked for).
    Quiet,
    /// A bar on a terminal, progress lines otherwise.
    Auto,
    /// A bar even when stderr is not a terminal (`--progress`).
    Forced,
}

impl Mode {
    /// The mode of `--quiet` and `--progress`: `--progress` wins.
    pub(crate) fn of(quiet: bool, progress: bool) -> Self {
        if progress {
            Mode::Forced
        } else if quiet {
            Mode::Quiet
        } else {
            Mode::Auto
        }
    }
}

/// A lazily drawn progress bar, or progress lines.
pub(crate) struct Bar {
    mode: Mode,
    what: &'static str,
    started: Instant,
    bar: Mutex<Option<ProgressBar>>,
    /// The last simulated hour or tenth of runs a line was printed for.
    last_line: Mutex<u64>,
    /// The parameter of the last calibration line, and when it was printed.
    last_fit: Mutex<(String, Instant)>,
}

/// stderr as indicatif's terminal, for a bar drawn whatever stderr is (`--progress`).
#[derive(Debug)]
struct Stderr;

impl TermLike for Stderr {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}A"))
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}B"))
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}C"))
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}D"))
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        writeln!(std::io::stderr(), "{s}")
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        write!(std::io::stderr(), "{s}")
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.write_str("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

impl Bar {
    /// Progress labelled `what`.
    pub(crate) fn new(mode: Mode, what: &'static str) -> Self {
        Self {
            mode,
            what,
            started: Instant::now(),
            bar: Mutex::new(None),
            last_line: Mutex::new(0),
            last_fit: Mutex::new((String::new(), Instant::now())),
        }
    }

    fn show(&self, done: u64, total: u64, template: &str, delay: Duration) {
        if self.mode == Mode::Quiet || self.started.elapsed() < delay {
            return;
        }
        let terminal = std::io::stderr().is_terminal();
        if !terminal && self.mode == Mode::Auto {
            return;
        }
        let Ok(mut bar) = self.bar.lock() else { return };
        let pb = bar.get_or_insert_with(|| {
            let target = if terminal { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::term_like(Box::new(Stderr)) };
            let pb = ProgressBar::with_draw_target(Some(total), target);
            pb.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()).progress_chars("=> "));
            pb.set_message(self.what);
            pb
        });
        pb.set_position(done);
    }

    /// A progress line when stderr is not a terminal (and no bar was forced): once `step` (a
    /// simulated hour, a tenth of the runs) is passed, after the first second.
    fn line(&self, step: u64, text: impl FnOnce() -> String) {
        if self.mode != Mode::Auto || std::io::stderr().is_terminal() || self.started.elapsed() < Duration::from_secs(1) {
            return;
        }
        let Ok(mut last) = self.last_line.lock() else { return };
        if step > *last {
            *last = step;
            eprintln!("{}", text());
        }
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        if let Ok(mut bar) = self.bar.lock() {
            if let Some(pb) = bar.take() {
                pb.finish_and_clear();
            }
        }
    }
}

impl Progress for Bar {
    fn simulated(&self, done_s: u64, total_s: u64) {
        self.show(done_s, total_s, "{msg} [{bar:30}] {pos}/{len} s simulated, ETA {eta}", Duration::from_secs(1));
        self.line(done_s / 3_600, || {
            format!(
                "{}: {} h of {:.1} h simulated ({:.0} %), {:.0} s elapsed",
                self.what,
                done_s / 3_600,
                total_s as f64 / 3_600.0,
                done_s as f64 / total_s.max(1) as f64 * 100.0,
                self.started.elapsed().as_secs_f64()
            )
        });
    }

    fn fitting(&self, step: &str) {
        if self.mode == Mode::Quiet {
            return;
        }
        if std::io::stderr().is_terminal() || self.mode == Mode::Forced {
            let Ok(mut bar) = self.bar.lock() else { return };
            let pb = bar.get_or_insert_with(|| {
                let pb = ProgressBar::new_spinner();
                pb.set_draw_target(ProgressDrawTarget::stderr());
                pb.enable_steady_tick(Duration::from_millis(200));
                pb
            });
            pb.set_message(format!("{}: {step}", self.what));
        } else if let Ok(mut last) = self.last_fit.lock() {
            // A line a second at most, and each new parameter's first step.
            let what = step.split([' ', ':']).next().unwrap_or("").to_string();
            if last.0 != what || last.1.elapsed() >= Duration::from_secs(1) {
                *last = (what, Instant::now());
                eprintln!("{}: {step}", self.what);
            }
        }
    }

    fn runs(&self, done: u64, total: u64) {
        self.show(done, total, "{msg} [{bar:30}] {pos}/{len} runs, {elapsed} elapsed, ETA {eta}", Duration::ZERO);
        self.line(done * 10 / total.max(1), || {
            format!(
                "{}: {done} of {total} runs ({:.0} %), {:.0} s elapsed",
                self.what,
                done as f64 / total.max(1) as f64 * 100.0,
                self.started.elapsed().as_secs_f64()
            )
        });
    }
}
