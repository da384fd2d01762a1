//! Poisson counts: the number of arrivals of a Poisson process in an interval.

use super::alias;
use rand::Rng;
use rand_distr::{Distribution, Poisson};

/// A Poisson draw with mean `lambda` (0 for a mean of 0 or less).
#[inline]
pub(crate) fn poisson<R: Rng + ?Sized>(rng: &mut R, lambda: f64) -> u64 {
    if lambda <= 0.0 {
        return 0;
    }
    if lambda < 12.0 {
        // Inversion by sequential search: exact, fast for small means.
        let u: f64 = rng.random();
        let mut p = (-lambda).exp();
        let mut k = 0u64;
        let mut cdf = p;
        while u > cdf {
            k += 1;
            p *= lambda / k as f64;
            cdf += p;
            if p < 1e-300 {
                break;
            }
        }
        return k;
    }
    match Poisson::new(lambda) {
        Ok(d) => d.sample(rng) as u64,
        Err(_) => lambda.round() as u64,
    }
}

/// ln(k!) for an integer `k ≥ 0`, to about 1e-15 relative: Stirling's series with ten terms,
/// from 7 up (below, shifted up to 7 and the logarithms taken back off).
fn ln_factorial(k: f64) -> f64 {
    const A: [f64; 10] = [
        8.333333333333333e-02,
        -2.777777777777778e-03,
        7.936507936507937e-04,
        -5.952380952380952e-04,
        8.417508417508418e-04,
        -1.917526917526918e-03,
        6.41025641025641e-03,
        -2.955065359477124e-02,
        1.796443723688307e-01,
        -1.39243221690590e+00,
    ];
    // ln Γ(x) with x = k + 1.
    let x = k + 1.0;
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let n = if x < 7.0 { (7.0 - x) as u32 } else { 0 };
    let mut x0 = x + f64::from(n);
    let x2 = (1.0 / x0) * (1.0 / x0);
    let mut series = A[9];
    for &c in A[..9].iter().rev() {
        series = series * x2 + c;
    }
    let ln_2pi = 1.837_877_066_409_345_3;
    let mut gl = series / x0 + 0.5 * ln_2pi + (x0 - 0.5) * x0.ln() - x0;
    for _ in 0..n {
        gl -= (x0 - 1.0).ln();
        x0 -= 1.0;
    }
    gl
}

/// Poisson draws of fixed means, each from an alias table over the counts of its mean with
/// probability above 1e-20 (the tails left out hold less than 1e-17): one 64-bit word a
/// draw and one table slot read, with no search, against a rejection method's two to five
/// words and its square roots and logarithms. An alias table draws each count to 2⁻³² of its
/// probability. A mean above [`Self::MAX_MEAN`], or past the slots the caller allows, is
/// drawn by [`poisson`] at each draw instead.
#[derive(Clone, Debug, Default)]
pub(crate) struct PoissonTables {
    /// The number of means.
    n: usize,
    /// The tabulated means, in order: which mean (its index), where its slots start, how
    /// many, and the count of the first.
    tables: Vec<Table>,
    /// Every table's alias slots, one after another.
    slots: Vec<[u32; 2]>,
}

#[derive(Clone, Copy, Debug)]
struct Table {
    which: u32,
    start: u32,
    len: u32,
    least: u32,
}

impl PoissonTables {
    /// Means above this are drawn directly (a table would hold about 17 √mean counts).
    pub(crate) const MAX_MEAN: f64 = 1e6;
    /// Bytes a slot: 8, and 16 for a table (at most one a slot).
    pub(crate) const BYTES_PER_SLOT: f64 = 24.0;

    /// Tables for `means` (each finite and at least 0), replacing any before, while their
    /// slots number at most `max_slots`; the means after are drawn directly.
    pub(crate) fn build(&mut self, means: impl Iterator<Item = f64>, max_slots: usize) {
        self.n = 0;
        self.tables.clear();
        self.slots.clear();
        let mut probs = Vec::new();
        for mean in means {
            let i = self.n as u32;
            self.n += 1;
            if mean <= 0.0 || mean > Self::MAX_MEAN || self.slots.len() >= max_slots {
                continue;
            }
            // The probabilities outward from the mode, by the ratio of neighbours.
            let mode = mean.floor();
            let at_mode = (-mean + mode * mean.ln() - ln_factorial(mode)).exp();
            probs.clear();
            let (mut p, mut k) = (at_mode, mode);
            while k > 0.0 && p > 1e-20 {
                p *= k / mean;
                k -= 1.0;
                probs.push(p);
            }
            let least = k as u32;
            probs.reverse();
            probs.push(at_mode);
            let (mut p, mut k) = (at_mode, mode);
            loop {
                k += 1.0;
                p *= mean / k;
                if p <= 1e-20 {
                    break;
                }
                probs.push(p);
            }
            if self.slots.len() + probs.len() > max_slots {
                continue;
            }
            let start = self.slots.len() as u32;
            alias::push_slots(&probs, &mut self.slots);
            self.tables.push(Table { which: i, start, len: probs.len() as u32, least });
        }
    }

    /// The number of means.
    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// The slots in all.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// A draw of every mean into `counts`, in order; their sum. The tabulated means first,
    /// each from one word of `rng` drawn eight tables ahead and its slot fetched then (the
    /// slots of a thousand means are about a megabyte: a read from memory each), then the
    /// others, mean `i` being `direct(i)`, by [`poisson`].
    pub(crate) fn draw_all<R: Rng + ?Sized>(&self, rng: &mut R, counts: &mut Vec<u64>, direct: impl Fn(usize) -> f64) -> u64 {
        const AHEAD: usize = 8;
        const UNDRAWN: u64 = u64::MAX;
        counts.clear();
        counts.resize(self.n, UNDRAWN);
        let slots_of = |t: &Table| &self.slots[t.start as usize..(t.start + t.len) as usize];
        let tables = &self.tables;
        let mut words = [0u64; AHEAD];
        for (w, t) in words.iter_mut().zip(tables) {
            *w = rng.next_u64();
            alias::prefetch_slot(slots_of(t), *w);
        }
        let mut total = 0;
        for (k, t) in tables.iter().enumerate() {
            let r = words[k % AHEAD];
            if let Some(ahead) = tables.get(k + AHEAD) {
                let w = rng.next_u64();
                words[k % AHEAD] = w;
                alias::prefetch_slot(slots_of(ahead), w);
            }
            let x = u64::from(t.least) + alias::sample_slots(slots_of(t), r) as u64;
            counts[t.which as usize] = x;
            total += x;
        }
        if tables.len() < self.n {
            for (i, c) in counts.iter_mut().enumerate().filter(|(_, c)| **c == UNDRAWN) {
                *c = poisson(rng, direct(i));
                total += *c;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn mean_and_variance() {
        let mut rng = crate::rng::SimRng::seed_from_u64(11);
        for lambda in [0.3, 5.0, 50.0, 3_000.0] {
            let n = 20_000;
            let xs: Vec<f64> = (0..n).map(|_| poisson(&mut rng, lambda) as f64).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let se = (lambda / n as f64).sqrt();
            assert!((mean - lambda).abs() < 5.0 * se, "lambda {lambda}: mean {mean}");
            assert!((var / lambda - 1.0).abs() < 0.1, "lambda {lambda}: variance {var}");
        }
    }

    /// ln(k!) against the product summed in logarithms, and against Γ at large k (known
    /// values).
    #[test]
    fn ln_factorial_is_accurate() {
        let mut exact = 0.0_f64;
        for k in 0..=170u32 {
            if k > 0 {
                exact += f64::from(k).ln();
            }
            let got = ln_factorial(f64::from(k));
            assert!((got - exact).abs() <= 1e-12 * exact.max(1.0), "ln {k}! = {exact}, got {got}");
        }
        // ln(10⁶!) = 12,815,518.384658169...
        assert!((ln_factorial(1e6) / 12_815_518.384_658_17 - 1.0).abs() < 1e-14);
    }

    /// Tabulated draws have Poisson's law: every count with expected frequency above 50 within
    /// 5 σ of it over 400,000 draws, for means from tiny to large, seven tables drawn ahead in
    /// one vector (each found by its own start), and means past the tables (too large, or past
    /// the slots allowed) drawn directly.
    #[test]
    fn tabulated_draws_are_poisson() {
        let mut rng = crate::rng::SimRng::seed_from_u64(5);
        let means = [0.0, 0.0003, 0.7, 5.0, 50.0, 1_234.5, 3e6];
        let mut tables = PoissonTables::default();
        // All the tables hold more than 400 slots; the last one that fits in 400 is 50's.
        tables.build(means.iter().copied(), usize::MAX);
        assert!(tables.slot_count() > 400);
        tables.build(means.iter().copied(), 400);
        assert!(tables.slot_count() < 400 && tables.slot_count() > 100, "{}", tables.slot_count());
        assert_eq!(tables.len(), means.len());
        let n = 400_000;
        let mut all = vec![std::collections::HashMap::<u64, u64>::new(); means.len()];
        let mut drawn = Vec::new();
        let mut sums = vec![0.0; means.len()];
        for _ in 0..n {
            let total = tables.draw_all(&mut rng, &mut drawn, |i| means[i]);
            assert_eq!(total, drawn.iter().sum::<u64>());
            for (i, &k) in drawn.iter().enumerate() {
                sums[i] += k as f64;
                *all[i].entry(k).or_default() += 1;
            }
        }
        for (i, &mean) in means.iter().enumerate() {
            let (counts, sum) = (&all[i], sums[i]);
            if mean == 0.0 {
                assert_eq!(counts.get(&0), Some(&n));
                continue;
            }
            assert!((sum / n as f64 - mean).abs() < 5.0 * (mean / n as f64).sqrt(), "mean {mean}: {}", sum / n as f64);
            let lo = (mean - 8.0 * mean.sqrt()).max(0.0) as u64;
            let hi = (mean + 8.0 * mean.sqrt()) as u64 + 3;
            let mut checked = 0;
            for k in lo..=hi {
                let p = (-mean + k as f64 * mean.ln() - ln_factorial(k as f64)).exp();
                let expected = p * n as f64;
                if expected < 50.0 {
                    continue;
                }
                let got = counts.get(&k).copied().unwrap_or(0) as f64;
                let sigma = (expected * (1.0 - p)).sqrt();
                assert!((got - expected).abs() < 5.0 * sigma, "mean {mean}, k {k}: {got} vs {expected:.0}");
                checked += 1;
            }
            assert!(checked >= 2, "mean {mean}: {checked} counts checked");
        }
    }
}
