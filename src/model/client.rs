//! The SDK client: retries with exponential backoff, full jitter and a retry quota (spec §9.3).
//!
//! Presets: `sdk-2026` (the 2026 standard mode with DynamoDB's override: 4 attempts, 1 s
//! throttling base, 20 s cap, 500-token quota, 5 tokens a throttling retry, 1 token back on a
//! success at the first attempt and the retry's cost back on a success after retries), `legacy`
//! (11 attempts, 25 ms base, no quota), `legacy-no-jitter` (the same, waiting the whole
//! backoff, as older SDKs did) and `none` (a throttled request fails at once).

use crate::scenario::ClientSpec;
use crate::time::SimDuration;

/// Per-instance retry-quota state.
#[derive(Clone, Debug)]
pub(crate) struct Client {
    spec: ClientSpec,
    tokens: Vec<u64>,
}

/// What the client does after a throttled attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterThrottle {
    /// Try again after this delay.
    Retry(SimDuration),
    /// Give up: attempts exhausted.
    Exhausted,
    /// Give up: the retry quota is empty.
    QuotaEmpty,
}

impl Client {
    /// A client fleet as the scenario describes it.
    #[must_use]
    pub(crate) fn new(spec: ClientSpec) -> Self {
        Self { spec, tokens: vec![spec.quota; spec.instances as usize] }
    }

    /// The instance that sends request number `seq`.
    #[inline]
    #[must_use]
    pub(crate) fn instance_of(&self, seq: u64) -> u32 {
        (seq % self.spec.instances) as u32
    }

    /// Largest backoff before retry number `attempt` (1 for the first retry).
    #[must_use]
    pub(crate) fn max_backoff(&self, attempt: u32) -> SimDuration {
        let base = self.spec.throttle_base.as_micros();
        let shift = attempt.saturating_sub(1).min(40);
        SimDuration::from_micros(base.saturating_mul(1u64 << shift).min(self.spec.cap.as_micros()))
    }

    /// Decides what follows a throttled attempt number `attempt` (1-based) of `instance`;
    /// `jitter` is a uniform draw in [0, 1) for full jitter.
    pub(crate) fn after_throttle(&mut self, instance: u32, attempt: u32, jitter: f64) -> AfterThrottle {
        if attempt >= self.spec.attempts {
            return AfterThrottle::Exhausted;
        }
        if self.spec.quota > 0 {
            let t = &mut self.tokens[instance as usize];
            if *t < self.spec.throttle_cost {
                return AfterThrottle::QuotaEmpty;
            }
            *t -= self.spec.throttle_cost;
        }
        let max = self.max_backoff(attempt).as_micros();
        if !self.spec.jitter {
            return AfterThrottle::Retry(SimDuration::from_micros(max));
        }
        AfterThrottle::Retry(SimDuration::from_micros((jitter * max as f64) as u64))
    }

    /// Records a success at attempt number `attempt` of `instance`.
    #[inline]
    pub(crate) fn on_success(&mut self, instance: u32, attempt: u32) {
        if self.spec.quota == 0 {
            return;
        }
        let back = if attempt <= 1 { 1 } else { self.spec.throttle_cost };
        let t = &mut self.tokens[instance as usize];
        *t = (*t + back).min(self.spec.quota);
    }

    /// Records the first-attempt successes of requests `seq0 .. seq0 + n`, each on its own
    /// instance ([`Self::instance_of`]): what [`Self::on_success`] of each would leave.
    pub(crate) fn on_first_successes(&mut self, seq0: u64, n: u64) {
        if self.spec.quota == 0 || n == 0 {
            return;
        }
        let k = self.spec.instances;
        for off in 0..k.min(n) {
            let count = n / k + u64::from(off < n % k);
            let t = &mut self.tokens[((seq0 + off) % k) as usize];
            *t = (*t + count).min(self.spec.quota);
        }
    }

    /// Records `n` first-attempt successes spread over the instances (fast mode's bulk path).
    pub(crate) fn on_bulk_success(&mut self, n: u64) {
        if self.spec.quota == 0 || n == 0 {
            return;
        }
        let k = self.tokens.len() as u64;
        for (i, t) in self.tokens.iter_mut().enumerate() {
            let share = n / k + u64::from((i as u64) < n % k);
            *t = (*t + share).min(self.spec.quota);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> ClientSpec {
        ClientSpec {
            attempts: 4,
            throttle_base: SimDuration::from_secs(1),
            cap: SimDuration::from_secs(20),
            quota: 500,
            throttle_cost: 5,
            jitter: true,
            service_time: SimDuration::from_millis(5),
            instances: 1,
            flush: None,
            preset: "sdk-2026",
        }
    }

    #[test]
    fn backoff_doubles_to_the_cap() {
        let c = Client::new(spec());
        assert_eq!(c.max_backoff(1), SimDuration::from_secs(1));
        assert_eq!(c.max_backoff(2), SimDuration::from_secs(2));
        assert_eq!(c.max_backoff(5), SimDuration::from_secs(16));
        assert_eq!(c.max_backoff(6), SimDuration::from_secs(20));
    }

    #[test]
    fn four_attempts_then_give_up() {
        let mut c = Client::new(spec());
        assert_eq!(c.after_throttle(0, 1, 0.5), AfterThrottle::Retry(SimDuration::from_millis(500)));
        assert!(matches!(c.after_throttle(0, 3, 0.5), AfterThrottle::Retry(_)));
        assert_eq!(c.after_throttle(0, 4, 0.5), AfterThrottle::Exhausted);
    }

    /// Without jitter every throttled client waits the whole backoff: 25, 50, 100 ms (the
    /// legacy schedule), whatever the draw.
    #[test]
    fn no_jitter_waits_the_whole_backoff() {
        let mut c =
            Client::new(ClientSpec { attempts: 11, throttle_base: SimDuration::from_millis(25), quota: 0, jitter: false, ..spec() });
        for (attempt, ms) in [(1, 25), (2, 50), (3, 100)] {
            assert_eq!(c.after_throttle(0, attempt, 0.37), AfterThrottle::Retry(SimDuration::from_millis(ms)));
        }
    }

    #[test]
    fn quota_of_500_allows_100_throttling_retries() {
        let mut c = Client::new(spec());
        for _ in 0..100 {
            assert!(matches!(c.after_throttle(0, 1, 0.0), AfterThrottle::Retry(_)));
        }
        assert_eq!(c.after_throttle(0, 1, 0.0), AfterThrottle::QuotaEmpty);
        c.on_success(0, 2);
        assert!(matches!(c.after_throttle(0, 1, 0.0), AfterThrottle::Retry(_)));
    }

    /// Requests 1..=10 over three instances: instance 1 takes requests 1, 4, 7 and 10, the
    /// others three each; an emptied instance 0 then holds 3 tokens (fewer than a retry's 5),
    /// and a full instance stays at the quota. The same as one success at a time.
    #[test]
    fn first_successes_go_to_each_request_s_instance() {
        let mut c = Client::new(ClientSpec { instances: 3, ..spec() });
        for _ in 0..100 {
            assert!(matches!(c.after_throttle(0, 1, 0.0), AfterThrottle::Retry(_)));
        }
        for _ in 0..10 {
            assert!(matches!(c.after_throttle(2, 1, 0.0), AfterThrottle::Retry(_)));
        }
        let mut one_by_one = Client::new(c.spec);
        one_by_one.tokens.clone_from(&c.tokens);
        c.on_first_successes(1, 10);
        assert_eq!(c.tokens, vec![3, 500, 453]);
        for seq in 1..=10 {
            one_by_one.on_success(one_by_one.instance_of(seq), 1);
        }
        assert_eq!(one_by_one.tokens, c.tokens);
        assert_eq!(c.after_throttle(0, 1, 0.0), AfterThrottle::QuotaEmpty);
    }
}
