//! Resource guards: before a run, estimate its work and memory, and refuse a run that would
//! take too long or too much memory with the estimate and what to change, instead of an
//! out-of-memory kill.

use crate::engine::RunOptions;
use crate::model::resource::{initial_partitions, Mode};
use crate::scenario::{Fidelity, Scenario};
use crate::traffic::rate::peak_rate;

/// Most requests an exact-mode run may simulate (about three minutes at 16 M requests/s).
pub const MAX_EXACT_REQUESTS: f64 = 3e9;
/// Most requests in one simulated second (each second's requests are held in memory when it is
/// replayed request by request, 72 bytes each).
pub const MAX_REQUESTS_PER_SECOND: f64 = 10e6;
/// Most per-partition minute rows (partitions.csv and the heatmap).
pub const MAX_PARTITION_ROWS: f64 = 20e6;
/// Most estimated memory.
pub const MAX_MEMORY_BYTES: f64 = 1_073_741_824.0;

/// What a run is expected to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Requests (first attempts, fan-out included) at the peak rates for the whole duration:
    /// an upper bound.
    pub requests: f64,
    /// Requests in the busiest second.
    pub peak_requests_per_second: f64,
    /// Partition-minute rows recorded.
    pub partition_rows: f64,
    /// Memory, bytes.
    pub memory_bytes: f64,
}

/// Estimates a run of `sc` with `opts`.
#[must_use]
pub fn estimate(sc: &Scenario, opts: &RunOptions) -> Estimate {
    let secs = opts.duration.unwrap_or(sc.duration).as_secs() as f64;
    let fanout = |p: &crate::scenario::PatternSpec| {
        p.key_space.and_then(|k| sc.key_spaces[k].shards).filter(|s| s.random && !p.op.is_write()).map_or(1.0, |s| s.count as f64)
    };
    // The peak over the whole timeline: `scale_rate` actions multiply a pattern's rate.
    let factor = |j: usize| {
        sc.actions
            .iter()
            .filter_map(|a| match a.action {
                crate::scenario::Action::ScaleRate { pattern, factor } if pattern == j => Some(factor),
                _ => None,
            })
            .fold(1.0, f64::max)
    };
    let peak: f64 = sc.patterns.iter().enumerate().map(|(j, p)| peak_rate(&p.rate) * factor(j) * fanout(p) * p.items.max(1) as f64).sum();
    let mut partitions = initial_partitions(&Mode::of(&sc.table.capacity), sc.table.storage_bytes) as f64;
    for g in &sc.gsis {
        partitions += initial_partitions(&Mode::of(&g.capacity), 0) as f64;
    }
    let minutes = (secs / 60.0).ceil();
    let resources = 1.0 + sc.gsis.len() as f64;
    let partition_rows = if opts.record_partitions { partitions * minutes } else { 0.0 };
    let memory_bytes = resources * minutes * 400.0
        + partition_rows * 48.0
        + peak * 72.0 * 2.0
        + sc.key_spaces.len() as f64 * 65_536.0 * 24.0
        + partitions * 200.0
        + 64.0 * 1_048_576.0;
    Estimate { requests: peak * secs, peak_requests_per_second: peak, partition_rows, memory_bytes }
}

/// A run the guards refuse: what is too large, by how much, and the options. Bad input.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GuardError(pub String);

/// Refuses runs over the limits, with the estimate and what to change.
///
/// # Errors
/// [`GuardError`]: what is too large, by how much, and the options.
pub fn check(sc: &Scenario, opts: &RunOptions) -> Result<Estimate, GuardError> {
    let e = estimate(sc, opts);
    let fidelity = opts.fidelity.unwrap_or(sc.fidelity);
    let mut problems = Vec::new();
    if fidelity == Fidelity::Exact && e.requests > MAX_EXACT_REQUESTS {
        problems.push(format!(
            "exact fidelity would simulate up to {:.2e} requests (limit {:.0e}): use --fidelity fast, or a shorter --duration",
            e.requests, MAX_EXACT_REQUESTS
        ));
    }
    if e.peak_requests_per_second > MAX_REQUESTS_PER_SECOND {
        problems.push(format!(
            "the busiest second has up to {:.2e} requests (limit {:.0e}); a second replayed request by request holds them all in memory",
            e.peak_requests_per_second, MAX_REQUESTS_PER_SECOND
        ));
    }
    if e.partition_rows > MAX_PARTITION_ROWS {
        problems.push(format!(
            "{:.2e} partition-minute rows (limit {:.0e}): use --no-partitions, or a shorter --duration",
            e.partition_rows, MAX_PARTITION_ROWS
        ));
    }
    if e.memory_bytes > MAX_MEMORY_BYTES {
        problems.push(format!("an estimated {:.1} GiB of memory (limit 1 GiB)", e.memory_bytes / MAX_MEMORY_BYTES));
    }
    if problems.is_empty() {
        Ok(e)
    } else {
        Err(GuardError(format!("{}: refusing to run: {}. Add --force to run anyway.", sc.source_path.display(), problems.join("; "))))
    }
}
