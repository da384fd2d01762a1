//! `[[at]] scale_rate`: one meaning, one function.
//!
//! A `scale_rate = { pattern, factor }` sets the pattern's rate to its shape's rate times
//! `factor` from that second on; a later `scale_rate` of the same pattern **replaces** it (it
//! does not multiply the one before). `[[at]]` is a timeline of states, as `set_capacity`,
//! `prewarm` and `set_autoscaling` are: each line says what holds from then on, so the rate at
//! any moment is read from one line, and removing or moving one line changes only its own
//! interval. Within one second, the last line in file order wins (actions keep file order
//! within a second).
//!
//! [`RateFactors`] is the only way to read a factor: the engine's arrivals, `check`'s peaks,
//! `recommend`'s screen and the memory guard all call it, and [`RateFactor`]'s value is private
//! to this module, so no caller can fold the factors another way.

use super::{Action, RateShape, Scenario};
use std::fmt;

/// One `scale_rate` factor (finite, ≥ 0); its value is read through [`RateFactors`] only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateFactor(f64);

impl RateFactor {
    /// A factor validated by the scenario loader.
    pub(super) fn new(f: f64) -> Self {
        Self(f)
    }
}

impl fmt::Display for RateFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A pattern's `scale_rate` timeline: the factor in force at each second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RateFactors {
    /// (second, factor) in force from that second, ascending; one per second (the last wins).
    steps: Vec<(u64, f64)>,
    /// The client's flushes, if it buffers its requests.
    flush: Option<super::Flush>,
}

impl RateFactors {
    /// Pattern `pattern`'s timeline in `sc` (1 throughout when it has no `scale_rate`).
    #[must_use]
    pub fn of(sc: &Scenario, pattern: usize) -> Self {
        let mut steps: Vec<(u64, f64)> = Vec::new();
        // `sc.actions` is sorted by time, stably: file order within a second.
        for a in &sc.actions {
            if let Action::ScaleRate { pattern: p, factor } = a.action {
                if p != pattern {
                    continue;
                }
                let s = a.time.as_secs();
                match steps.last_mut() {
                    Some(last) if last.0 == s => last.1 = factor.0,
                    _ => steps.push((s, factor.0)),
                }
            }
        }
        Self { steps, flush: sc.client.flush }
    }

    /// The factor in force at second `s`.
    #[must_use]
    pub fn at(&self, s: u64) -> f64 {
        match self.steps.partition_point(|st| st.0 <= s) {
            0 => 1.0,
            i => self.steps[i - 1].1,
        }
    }

    /// The pattern's requests a second at second `s`: its `shape` (whose day starts at
    /// `start_s_of_day`) times the factor in force. The offered rate every consumer uses.
    #[must_use]
    pub fn rate(&self, shape: &RateShape, s: u64, start_s_of_day: u64) -> f64 {
        let flushed = self.flush.map_or(1.0, |f| f.factor(s));
        shape.at(s, start_s_of_day) * self.at(s) * flushed
    }

    /// The highest factor in force at any second before `duration_s`.
    #[must_use]
    pub fn peak(&self, duration_s: u64) -> f64 {
        let before = if self.steps.first().is_some_and(|st| st.0 == 0) { 0.0 } else { 1.0 };
        let most = self.steps.iter().filter(|st| st.0 < duration_s.max(1)).map(|st| st.1).fold(before, f64::max);
        most * self.flush.map_or(1.0, super::Flush::peak)
    }

    /// Whether the pattern has no `scale_rate` and no flushes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.flush.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeline(steps: &[(u64, f64)]) -> RateFactors {
        let mut t = RateFactors::default();
        for &(s, f) in steps {
            match t.steps.last_mut() {
                Some(last) if last.0 == s => last.1 = f,
                _ => t.steps.push((s, f)),
            }
        }
        t
    }

    #[test]
    fn a_later_factor_replaces_the_one_before() {
        // Eight factors of 2: the rate is twice the shape's from the first on, never 256 times.
        let t = timeline(&(1..=8).map(|i| (i * 10, 2.0)).collect::<Vec<_>>());
        assert_eq!(t.at(0), 1.0);
        assert_eq!(t.at(9), 1.0);
        assert_eq!(t.at(10), 2.0);
        assert_eq!(t.at(1_000), 2.0);
        assert_eq!(t.peak(1_000), 2.0);
    }

    #[test]
    fn peak_counts_only_what_is_in_force_within_the_run() {
        // x0.5 from 0 s, x3 from 100 s: the shape's own rate (x1) never holds.
        let t = timeline(&[(0, 0.5), (100, 3.0)]);
        assert_eq!(t.peak(100), 0.5);
        assert_eq!(t.peak(101), 3.0);
        assert_eq!(timeline(&[(50, 0.5)]).peak(100), 1.0);
        // Two lines in one second: the last in file order wins.
        assert_eq!(timeline(&[(5, 4.0), (5, 0.25)]).at(5), 0.25);
    }
}
