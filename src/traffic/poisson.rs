//! Poisson counts: the number of arrivals of a Poisson process in an interval.

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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn mean_and_variance() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
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
}
