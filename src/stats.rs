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
}
