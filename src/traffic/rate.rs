//! Rate shapes: requests per second at a given second of the run.

use crate::scenario::RateShape;

/// The rate of `shape` during second `s` of the run (evaluated at its midpoint), for a run that
/// starts `start_s_of_day` seconds into a UTC day.
#[must_use]
pub(crate) fn rate_at(shape: &RateShape, s: u64, start_s_of_day: u64) -> f64 {
    let t = s as f64 + 0.5;
    match shape {
        RateShape::Constant(r) => *r,
        RateShape::Diurnal { min, max, peak_s_of_day } => {
            let tod = (start_s_of_day as f64 + t) % 86_400.0;
            let phase = (tod - *peak_s_of_day as f64) / 86_400.0 * std::f64::consts::TAU;
            min + (max - min) * (1.0 + phase.cos()) / 2.0
        }
        RateShape::Spike { base, peak, at_s, len_s } => {
            if s >= *at_s && s < at_s + len_s {
                *peak
            } else {
                *base
            }
        }
        RateShape::Ramp { from, to, start_s, over_s } => {
            if s < *start_s {
                *from
            } else if s >= start_s + over_s {
                *to
            } else {
                from + (to - from) * ((t - *start_s as f64) / *over_s as f64)
            }
        }
        RateShape::Steps(steps) => {
            let i = steps.partition_point(|&(start, _)| start <= s);
            steps[i.saturating_sub(1)].1
        }
        // Threads send their requests as answers come back, not as arrivals.
        RateShape::ClosedLoop(_) => 0.0,
    }
}

/// The highest rate of `shape` over a run of `duration_s` seconds (for work estimates).
#[must_use]
pub(crate) fn peak_rate(shape: &RateShape) -> f64 {
    match shape {
        RateShape::Constant(r) => *r,
        RateShape::Diurnal { max, .. } => *max,
        RateShape::Spike { base, peak, .. } => base.max(*peak),
        RateShape::Ramp { from, to, .. } => from.max(*to),
        RateShape::Steps(s) => s.iter().map(|x| x.1).fold(0.0, f64::max),
        // At most a request per thread per cycle of think time and a 1 ms answer.
        RateShape::ClosedLoop(c) => c.threads as f64 * 1e6 / (c.think_us as f64 + 1_000.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let spike = RateShape::Spike { base: 10.0, peak: 100.0, at_s: 60, len_s: 30 };
        assert_eq!(rate_at(&spike, 59, 0), 10.0);
        assert_eq!(rate_at(&spike, 60, 0), 100.0);
        assert_eq!(rate_at(&spike, 89, 0), 100.0);
        assert_eq!(rate_at(&spike, 90, 0), 10.0);
        let ramp = RateShape::Ramp { from: 0.0, to: 100.0, start_s: 0, over_s: 100 };
        assert!((rate_at(&ramp, 49, 0) - 49.5).abs() < 1e-9);
        assert_eq!(rate_at(&ramp, 100, 0), 100.0);
        let steps = RateShape::Steps(vec![(0, 1.0), (10, 5.0)]);
        assert_eq!(rate_at(&steps, 9, 0), 1.0);
        assert_eq!(rate_at(&steps, 10, 0), 5.0);
        let d = RateShape::Diurnal { min: 100.0, max: 300.0, peak_s_of_day: 14 * 3600 };
        assert!((rate_at(&d, 14 * 3600, 0) - 300.0).abs() < 1e-3);
        assert!((rate_at(&d, 2 * 3600, 0) - 100.0).abs() < 1e-3);
        // A run starting at 12:00 reaches the peak two hours in.
        assert!((rate_at(&d, 2 * 3600, 12 * 3600) - 300.0).abs() < 1e-3);
    }
}
