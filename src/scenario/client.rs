//! `[client]`: the SDK's retries and the service time of an attempt.

use crate::time::SimDuration;

/// The client: retries and latency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientSpec {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// Backoff base for throttling errors.
    pub throttle_base: SimDuration,
    /// Largest backoff.
    pub cap: SimDuration,
    /// Retry quota tokens per client instance (0 = none).
    pub quota: u64,
    /// Tokens a throttling retry costs.
    pub throttle_cost: u64,
    /// Full jitter (a uniform draw up to the backoff) or none (the whole backoff, as older
    /// SDKs waited).
    pub jitter: bool,
    /// Service time of a successful attempt.
    pub service_time: SimDuration,
    /// SDK client instances.
    pub instances: u64,
    /// The client buffers its requests and sends them in flushes (`[client] flush`), if it does.
    pub flush: Option<Flush>,
    /// Preset name, for reports.
    pub preset: &'static str,
}

/// Flushes of a buffering client: the requests of every `every_s` seconds go out in the first
/// `for_s` of them (a batch writer, a log shipper, a queue drained on a timer). Every instance
/// flushes at once (model choice: the worst case, as clients started together are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flush {
    /// Seconds between flushes.
    pub every_s: u64,
    /// Seconds a flush lasts.
    pub for_s: u64,
}

impl Flush {
    /// The rate factor in second `s` of the run: `every / for` during a flush, 0 between.
    #[must_use]
    pub fn factor(self, s: u64) -> f64 {
        if s % self.every_s < self.for_s {
            self.every_s as f64 / self.for_s as f64
        } else {
            0.0
        }
    }

    /// The peak over the mean: `every / for`.
    #[must_use]
    pub fn peak(self) -> f64 {
        self.every_s as f64 / self.for_s as f64
    }
}
