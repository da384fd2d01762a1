//! Capacity that moves: provisioned auto scaling, the daily decrease quota, and on-demand
//! growth (spec §5, §6).
//!
//! * [`Autoscaler`]: Application Auto Scaling target tracking on consumed ÷ provisioned. The
//!   scale-out alarm needs 2 consecutive one-minute datapoints above the target, the scale-in
//!   alarm 15 consecutive datapoints below the target minus 20 points. New capacity is
//!   `ceil(consumed / target)`, from the smaller of the last 2 datapoints (scale-out) or the
//!   largest of the last 15 (scale-in), clamped to [min, max]. Alarms with Auto Scaling actions
//!   invoke the policy again every minute they stay in ALARM.
//! * [`DecreaseQuota`]: 4 decreases any time in a UTC day, then one more whenever there was none
//!   in the preceding hour: 27 a day at most.
//! * [`OnDemandGrowth`]: an on-demand table serves up to twice its previous peak; capacity
//!   beyond its current instant capacity grows by at most a factor 2 per doubling period (30
//!   minutes by default), and never shrinks.

use crate::limits::{DECREASE_INTERVAL_S, FREE_DECREASES_PER_DAY, SCALE_IN_DATAPOINTS, SCALE_IN_MARGIN, SCALE_OUT_DATAPOINTS};
use crate::scenario::ScalingTargetSpec;
use std::collections::VecDeque;

/// The per-table (and per-GSI) limit on capacity decreases.
#[derive(Clone, Debug, Default)]
pub(crate) struct DecreaseQuota {
    day: i64,
    count_today: u32,
    last_unix_s: Option<i64>,
}

impl DecreaseQuota {
    /// May a decrease happen at `now_unix_s`?
    #[must_use]
    pub(crate) fn allowed(&self, now_unix_s: i64) -> bool {
        let today = if now_unix_s.div_euclid(86_400) == self.day { self.count_today } else { 0 };
        today < FREE_DECREASES_PER_DAY || self.last_unix_s.is_none_or(|l| now_unix_s - l >= DECREASE_INTERVAL_S)
    }

    /// Records a decrease at `now_unix_s`.
    pub(crate) fn record(&mut self, now_unix_s: i64) {
        let day = now_unix_s.div_euclid(86_400);
        if day != self.day {
            self.day = day;
            self.count_today = 0;
        }
        self.count_today += 1;
        self.last_unix_s = Some(now_unix_s);
    }

    /// Decreases made on the UTC day of `now_unix_s`.
    #[must_use]
    pub(crate) fn count_on(&self, now_unix_s: i64) -> u32 {
        if now_unix_s.div_euclid(86_400) == self.day {
            self.count_today
        } else {
            0
        }
    }
}

/// What an auto scaling evaluation decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Nothing to do.
    Hold,
    /// Raise provisioned capacity to this many units.
    ScaleOut(u64),
    /// Lower provisioned capacity to this many units.
    ScaleIn(u64),
}

/// One scalable target (table or GSI, read or write).
#[derive(Clone, Debug)]
pub(crate) struct Autoscaler {
    /// Settings.
    pub(crate) spec: ScalingTargetSpec,
    history: VecDeque<f64>,
    last_out_s: Option<u64>,
    last_in_s: Option<u64>,
}

impl Autoscaler {
    /// A scaler with no datapoints yet.
    #[must_use]
    pub(crate) fn new(spec: ScalingTargetSpec) -> Self {
        Self { spec, history: VecDeque::with_capacity(SCALE_IN_DATAPOINTS + 1), last_out_s: None, last_in_s: None }
    }

    fn size(&self, consumed_per_s: f64) -> u64 {
        ((consumed_per_s / self.spec.target - 1e-9).ceil().max(0.0) as u64).clamp(self.spec.min, self.spec.max)
    }

    /// Adds the datapoint of the minute just ended (consumed units per second, its average) and
    /// evaluates both alarms against `provisioned`, at simulated second `now_s`.
    pub(crate) fn evaluate(&mut self, consumed_per_s: f64, provisioned: u64, now_s: u64) -> Decision {
        self.history.push_back(consumed_per_s);
        while self.history.len() > SCALE_IN_DATAPOINTS {
            self.history.pop_front();
        }
        let prov = provisioned as f64;
        let n = self.history.len();
        if provisioned < self.spec.min {
            return Decision::ScaleOut(self.spec.min);
        }
        if n >= SCALE_OUT_DATAPOINTS {
            let last = self.history.range(n - SCALE_OUT_DATAPOINTS..);
            let high = self.spec.target * prov;
            if last.clone().all(|&x| x > high) {
                let new = self.size(last.fold(f64::INFINITY, |a, &b| a.min(b)));
                let cooled = self.last_out_s.is_none_or(|t| now_s >= t + self.spec.scale_out_cooldown.as_secs());
                if new > provisioned && cooled {
                    return Decision::ScaleOut(new);
                }
            }
        }
        if n >= SCALE_IN_DATAPOINTS {
            let low = (self.spec.target - SCALE_IN_MARGIN) * prov;
            if self.history.iter().all(|&x| x < low) {
                let new = self.size(self.history.iter().fold(0.0, |a, &b| a.max(b)));
                let cooled = self.last_in_s.is_none_or(|t| now_s >= t + self.spec.scale_in_cooldown.as_secs());
                if new < provisioned && cooled {
                    return Decision::ScaleIn(new);
                }
            }
        }
        Decision::Hold
    }

    /// Records that a decision was carried out at `now_s` (for the cooldowns).
    pub(crate) fn acted(&mut self, d: Decision, now_s: u64) {
        match d {
            Decision::ScaleOut(_) => self.last_out_s = Some(now_s),
            Decision::ScaleIn(_) => self.last_in_s = Some(now_s),
            Decision::Hold => {}
        }
    }
}

/// On-demand capacity of one resource and dimension.
#[derive(Clone, Debug)]
pub(crate) struct OnDemandGrowth {
    /// Highest one-minute average consumption, units per second.
    pub(crate) prev_peak: f64,
    /// Capacity served instantly (warm throughput), units per second.
    pub(crate) instant: f64,
    /// Minutes for the instant capacity to double while demand asks for more.
    pub(crate) doubling_minutes: f64,
}

impl OnDemandGrowth {
    /// A table that can serve `warm` units per second instantly.
    #[must_use]
    pub(crate) fn new(warm: u64, doubling_minutes: f64) -> Self {
        Self { prev_peak: warm as f64 / 2.0, instant: warm as f64, doubling_minutes }
    }

    /// Adds a minute whose average consumption was `consumed_per_s`; returns the new instant
    /// capacity. The target is twice the previous peak; the instant capacity moves toward it by
    /// at most `2^(1/doubling_minutes)` a minute and never goes down.
    pub(crate) fn minute(&mut self, consumed_per_s: f64) -> f64 {
        self.prev_peak = self.prev_peak.max(consumed_per_s);
        let target = 2.0 * self.prev_peak;
        if target > self.instant {
            let step = 2f64.powf(1.0 / self.doubling_minutes.max(1e-9));
            self.instant = target.min(self.instant * step);
        }
        self.instant
    }

    /// Raises the instant capacity (pre-warming, a switch from provisioned).
    pub(crate) fn raise(&mut self, units: f64) {
        self.instant = self.instant.max(units);
        self.prev_peak = self.prev_peak.max(units / 2.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn spec(min: u64, max: u64, target: f64) -> ScalingTargetSpec {
        ScalingTargetSpec { min, max, target, scale_in_cooldown: SimDuration::ZERO, scale_out_cooldown: SimDuration::ZERO }
    }

    /// AS1: trying to decrease every minute of a UTC day succeeds at 00:00, 00:01, 00:02, 00:03,
    /// then at 01:03, 02:03, ..., 23:03: 4 + 23 = 27 decreases.
    #[test]
    fn as1_decrease_schedule_over_a_utc_day() {
        let day0 = 1_767_225_600; // 2026-01-01T00:00:00Z
        let mut q = DecreaseQuota::default();
        let mut at = Vec::new();
        for minute in 0..1_440 {
            let now = day0 + minute * 60;
            if q.allowed(now) {
                q.record(now);
                at.push(minute);
            }
        }
        let mut expected = vec![0, 1, 2, 3];
        expected.extend((1..=23).map(|h| h * 60 + 3));
        assert_eq!(at, expected);
        assert_eq!(at.len(), 27);
        // A new UTC day starts with four free decreases again.
        assert!(q.allowed(day0 + 86_400));
        assert_eq!(q.count_on(day0 + 86_400), 0);
    }

    /// AS2: 12 RCU, target 70 %, 5 RCU/s consumed: the scale-in threshold is
    /// (70 - 20) % x 12 = 6 RCU/s; after 15 datapoints below it, capacity goes to
    /// ceil(5 / 0.7) = 8.
    #[test]
    fn as2_scale_in_after_15_datapoints() {
        let mut a = Autoscaler::new(spec(1, 100, 0.7));
        for m in 1..15 {
            assert_eq!(a.evaluate(5.0, 12, m * 60), Decision::Hold, "minute {m}");
        }
        assert_eq!(a.evaluate(5.0, 12, 900), Decision::ScaleIn(8));
        // At 6.1 RCU/s (above 6) it would hold.
        let mut b = Autoscaler::new(spec(1, 100, 0.7));
        for m in 1..=20 {
            assert_eq!(b.evaluate(6.1, 12, m * 60), Decision::Hold);
        }
    }

    /// AS3: 100 WCU, target 70 %, consumption steps to 140 WCU/s: the second datapoint above
    /// 70 fires the alarm and capacity goes to ceil(140 / 0.7) = 200.
    #[test]
    fn as3_scale_out_after_two_datapoints() {
        let mut a = Autoscaler::new(spec(5, 40_000, 0.7));
        assert_eq!(a.evaluate(50.0, 100, 60), Decision::Hold);
        assert_eq!(a.evaluate(140.0, 100, 120), Decision::Hold);
        assert_eq!(a.evaluate(140.0, 100, 180), Decision::ScaleOut(200));
    }

    #[test]
    fn clamps_to_min_and_max() {
        let mut a = Autoscaler::new(spec(5, 150, 0.7));
        a.evaluate(500.0, 100, 60);
        assert_eq!(a.evaluate(500.0, 100, 120), Decision::ScaleOut(150));
        let mut b = Autoscaler::new(spec(5, 150, 0.7));
        assert_eq!(b.evaluate(0.0, 1, 60), Decision::ScaleOut(5));
    }

    /// O1/O2: after a sustained peak of 50,000, the instant capacity reaches 100,000; O3: a jump
    /// to 150,000 must wait for growth.
    #[test]
    fn on_demand_doubles_the_previous_peak_over_30_minutes() {
        let mut g = OnDemandGrowth::new(12_000, 30.0);
        for _ in 0..120 {
            g.minute(50_000.0);
        }
        assert!((g.instant - 100_000.0).abs() < 1e-6);
        // Growth is bounded: from 12,000 it takes 30 minutes to double.
        let mut h = OnDemandGrowth::new(12_000, 30.0);
        for _ in 0..30 {
            h.minute(50_000.0);
        }
        assert!((h.instant - 24_000.0).abs() < 1.0, "{}", h.instant);
    }
}
