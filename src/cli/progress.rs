//! Progress on stderr with indicatif: a bar for a run that lasts more than a second, and for
//! the runs of a study. Hidden when stderr is not a terminal or with `--quiet`.

use crate::engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A lazily drawn progress bar.
pub(crate) struct Bar {
    quiet: bool,
    what: &'static str,
    started: Instant,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    /// A bar labelled `what` (not drawn when `quiet`).
    pub(crate) fn new(quiet: bool, what: &'static str) -> Self {
        Self { quiet, what, started: Instant::now(), bar: Mutex::new(None) }
    }

    fn show(&self, done: u64, total: u64, template: &str, delay: Duration) {
        if self.quiet || self.started.elapsed() < delay {
            return;
        }
        let Ok(mut bar) = self.bar.lock() else { return };
        let pb = bar.get_or_insert_with(|| {
            let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            pb.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()).progress_chars("=> "));
            pb.set_message(self.what);
            pb
        });
        pb.set_position(done);
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
    }

    fn runs(&self, done: u64, total: u64) {
        self.show(done, total, "{msg} [{bar:30}] {pos}/{len} runs, {elapsed} elapsed, ETA {eta}", Duration::ZERO);
    }
}
