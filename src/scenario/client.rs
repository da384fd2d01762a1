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
    /// Preset name, for reports.
    pub preset: &'static str,
}
