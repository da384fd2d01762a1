//! Statistics: across replications, mean, standard deviation, a t-based 95 % confidence
//! interval and quantiles; within a run, a log-linear [`Histogram`] of microsecond values.
//!
//! One percentile definition: a quantile of a set of numbers is the R-7 (linear interpolation)
//! quantile of [`quantile_sorted`], used for replications, sweeps and capacity series. A
//! [`Histogram`] keeps values only to 0.2 % buckets; its quantile is the same order statistic
//! read at bucket resolution (the lower edge of the bucket holding rank `ceil(q n)`).

use serde::{Deserialize, Serialize};

/// Summary of one metric over replications.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Replications.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (0 for one replication).
    pub sd: f64,
    /// Lower end of the 95 % confidence interval of the mean.
    pub ci95_low: f64,
    /// Upper end.
    pub ci95_high: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// Two-sided 97.5 % quantile of Student's t with `df` degrees of freedom.
#[must_use]
pub(crate) fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        31..=60 => 2.042 - (df - 30) as f64 * (2.042 - 2.000) / 30.0,
        61..=120 => 2.000 - (df - 60) as f64 * (2.000 - 1.980) / 60.0,
        _ => 1.960,
    }
}

/// The share of a standard normal law above `z` (Abramowitz and Stegun 7.1.26 for erfc:
/// absolute error below 1.5e-7).
#[must_use]
pub(crate) fn normal_upper_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// The R-7 quantile (linear interpolation between order statistics) of sorted values.
#[must_use]
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

impl Stat {
    /// Summarises values of a quantity bounded to `[lo, hi]` (a share to [0, 1], a count or a
    /// cost to [0, ∞)): the t interval when it stays within the bounds, else the bootstrap
    /// percentile interval of the mean, which never leaves the range of the values (with few
    /// replications of a skewed share the t interval went below 0: `-36.599–58.761 %`).
    #[must_use]
    pub fn bounded(xs: &[f64], lo: f64, hi: f64) -> Self {
        let mut s = Self::of(xs);
        if s.n > 1 && (s.ci95_low < lo || s.ci95_high > hi) {
            let (a, b) = bootstrap_interval(xs);
            s.ci95_low = a.max(lo);
            s.ci95_high = b.min(hi);
        }
        s
    }

    /// Summarises values (in replication order; the result does not depend on the order).
    #[must_use]
    pub fn of(xs: &[f64]) -> Self {
        let n = xs.len();
        if n == 0 {
            return Self { n: 0, mean: 0.0, sd: 0.0, ci95_low: 0.0, ci95_high: 0.0, p50: 0.0, p95: 0.0, p99: 0.0 };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 { (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt() } else { 0.0 };
        let half = if n > 1 { t975(n - 1) * sd / (n as f64).sqrt() } else { 0.0 };
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        Self {
            n,
            mean,
            sd,
            ci95_low: mean - half,
            ci95_high: mean + half,
            p50: quantile_sorted(&sorted, 0.5),
            p95: quantile_sorted(&sorted, 0.95),
            p99: quantile_sorted(&sorted, 0.99),
        }
    }
}

/// The 2.5 % and 97.5 % points of the bootstrap distribution of the mean of `xs`: every
/// resample enumerated when there are at most a million (7 values or fewer), else 20,000
/// resamples from a fixed seed (the interval is part of the output: it must not vary).
fn bootstrap_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len();
    let mut means: Vec<f64> = Vec::new();
    if (n as f64).powi(n as i32) <= 1e6 {
        let total = n.pow(n as u32);
        means.reserve(total);
        for mut code in 0..total {
            let mut sum = 0.0;
            for _ in 0..n {
                sum += xs[code % n];
                code /= n;
            }
            means.push(sum / n as f64);
        }
    } else {
        use rand::{Rng, SeedableRng};
        let mut rng = crate::rng::SimRng::seed_from_u64(0x0b00_7570);
        for _ in 0..20_000 {
            means.push((0..n).map(|_| xs[rng.random_range(0..n)]).sum::<f64>() / n as f64);
        }
    }
    means.sort_by(f64::total_cmp);
    (quantile_sorted(&means, 0.025), quantile_sorted(&means, 0.975))
}

/// A log-linear histogram of microsecond values (about 0.2 % resolution).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    max: u64,
}

const SUB_BITS: u32 = 9;
const LINEAR: u64 = 1 << (SUB_BITS + 1);

impl Default for Histogram {
    fn default() -> Self {
        Self { counts: vec![0; (LINEAR as usize) + 64 * (1 << SUB_BITS)], total: 0, max: 0 }
    }
}

impl Histogram {
    #[inline]
    fn index(v: u64) -> usize {
        if v < LINEAR {
            v as usize
        } else {
            let e = 63 - v.leading_zeros();
            let sub = (v >> (e - SUB_BITS)) & ((1 << SUB_BITS) - 1);
            (LINEAR + u64::from(e - SUB_BITS - 1) * (1 << SUB_BITS) + sub) as usize
        }
    }

    fn lower(i: usize) -> u64 {
        let i = i as u64;
        if i < LINEAR {
            i
        } else {
            let k = i - LINEAR;
            let e = k / (1 << SUB_BITS) + u64::from(SUB_BITS) + 1;
            let sub = k % (1 << SUB_BITS);
            (1 << e) | (sub << (e - u64::from(SUB_BITS)))
        }
    }

    /// Records `n` values of `v`.
    #[inline]
    pub fn record(&mut self, v: u64, n: u64) {
        if n == 0 {
            return;
        }
        self.counts[Self::index(v)] += n;
        self.total += n;
        self.max = self.max.max(v);
    }

    /// Values recorded.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.total
    }

    /// Largest value recorded.
    #[must_use]
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The `q` quantile (0-1): the lower edge of the bucket holding it (0 when empty).
    #[must_use]
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Self::lower(i);
            }
        }
        self.max
    }

    /// Share of the values above `v` (to the histogram's resolution; 0 when empty).
    #[must_use]
    pub fn share_above(&self, v: u64) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let i = Self::index(v);
        let above: u64 = self.counts[i + 1..].iter().sum();
        above as f64 / self.total as f64
    }

    /// Adds another histogram.
    pub fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
        self.max = self.max.max(other.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normal tail against tabulated values: 0.5 at 0, 0.025 at 1.959964, 0.158655 at 1
    /// and its complement at −1, 1.35e-3 at 3 (within the approximation's 1.5e-7).
    #[test]
    fn the_normal_tail_matches_the_tables() {
        for (z, want) in [(0.0, 0.5), (1.959_964, 0.025), (1.0, 0.158_655_25), (-1.0, 0.841_344_75), (3.0, 0.001_349_898)] {
            assert!((normal_upper_tail(z) - want).abs() < 2e-7, "z {z}: {} against {want}", normal_upper_tail(z));
        }
    }

    #[test]
    fn hand_worked_summary() {
        // 1..=5: mean 3, sd sqrt(2.5) = 1.5811, t(4) = 2.776: half-width 2.776 x 1.5811 / sqrt 5.
        let s = Stat::of(&[5.0, 1.0, 4.0, 2.0, 3.0]);
        assert!((s.mean - 3.0).abs() < 1e-12);
        assert!((s.sd - 2.5f64.sqrt()).abs() < 1e-12);
        let half = 2.776 * 2.5f64.sqrt() / 5f64.sqrt();
        assert!((s.ci95_high - 3.0 - half).abs() < 1e-9);
        assert_eq!(s.p50, 3.0);
        // h = 4 x 0.95 = 3.8 -> 4 + 0.8 x (5 - 4) = 4.8.
        assert!((s.p95 - 4.8).abs() < 1e-12);
    }

    /// Issue 46: three replications of a skewed share (0.1 %, 0.2 % and 95 %) gave a t interval
    /// of -36.6 %-58.8 %. A bounded quantity keeps its interval within its bounds and within the
    /// values: the bootstrap of 27 resamples puts its 2.5 % and 97.5 % points at the all-low and
    /// all-high means, 0.1 % and 95 %.
    #[test]
    fn an_interval_of_a_share_stays_a_share() {
        let xs = [0.001, 0.002, 0.95];
        let t = Stat::of(&xs);
        assert!(t.ci95_low < 0.0, "the t interval leaves the bounds: {t:?}");
        let s = Stat::bounded(&xs, 0.0, 1.0);
        assert!((0.0..=1.0).contains(&s.ci95_low) && (0.0..=1.0).contains(&s.ci95_high), "{s:?}");
        assert!(s.ci95_low >= 0.001 - 1e-12 && s.ci95_high <= 0.95 + 1e-12, "{s:?}");
        assert!(s.ci95_low <= s.mean && s.mean <= s.ci95_high);
        // A t interval that fits is kept as it is.
        let ys = [0.4, 0.5, 0.6];
        assert_eq!(Stat::bounded(&ys, 0.0, 1.0), Stat::of(&ys));
    }
}
