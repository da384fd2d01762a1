//! Vose's alias method: O(1) draws from a fixed discrete distribution.

/// An alias table over `0..n`.
#[derive(Clone, Debug)]
pub(crate) struct AliasTable {
    /// Per slot: the threshold (scaled to 2^32) and the other outcome, side by side so that a
    /// draw touches one cache line.
    slots: Vec<[u32; 2]>,
}

impl AliasTable {
    /// Builds a table from non-negative weights (at least one positive).
    ///
    /// # Panics
    /// If `weights` is empty or has more than `u32::MAX` entries (validation prevents both).
    #[must_use]
    pub(crate) fn new(weights: &[f64]) -> Self {
        let mut slots = Vec::with_capacity(weights.len());
        push_slots(weights, &mut slots);
        Self { slots }
    }

    /// Hints the processor to fetch the slot [`Self::sample`] of `r` reads. Changes nothing.
    #[inline]
    pub(crate) fn prefetch(&self, r: u64) {
        prefetch_slot(&self.slots, r);
    }

    /// One draw from a uniform 64-bit value.
    #[must_use]
    #[inline]
    pub(crate) fn sample(&self, r: u64) -> usize {
        sample_slots(&self.slots, r)
    }
}

/// Appends the alias slots of `weights` (non-negative, at least one positive) to `out`: per
/// outcome, the threshold (scaled to 2^32) and the other outcome (relative to the first
/// slot), side by side so that a draw touches one cache line. Many tables can so share one
/// vector, each drawn by [`sample_slots`] over its own range.
///
/// # Panics
/// If `weights` is empty or has more than `u32::MAX` entries.
pub(crate) fn push_slots(weights: &[f64], out: &mut Vec<[u32; 2]>) {
    let n = weights.len();
    assert!(n > 0 && n < u32::MAX as usize, "alias table over 1..2^32 outcomes");
    let sum: f64 = weights.iter().sum();
    let mut p: Vec<f64> = weights.iter().map(|w| w * n as f64 / sum).collect();
    // Written in place (100,000 partitions' table is built with no other copy of it).
    let base = out.len();
    out.extend((0..n as u32).map(|i| [0, i]));
    let slots = &mut out[base..];
    let mut small: Vec<u32> = Vec::new();
    let mut large: Vec<u32> = Vec::new();
    for (i, &x) in p.iter().enumerate() {
        if x < 1.0 {
            small.push(i as u32);
        } else {
            large.push(i as u32);
        }
    }
    while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
        let (s, lu) = (s as usize, l as usize);
        slots[s] = [to_threshold(p[s]), l];
        p[lu] = (p[lu] + p[s]) - 1.0;
        if p[lu] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    for i in large.into_iter().chain(small) {
        slots[i as usize] = [u32::MAX, i];
    }
}

/// The slot a draw from `r` reads in a table of `n` slots: its high 32 bits scaled to the
/// table.
#[inline]
fn slot_of(n: usize, r: u64) -> usize {
    (((r >> 32) * n as u64) >> 32) as usize
}

/// Hints the processor to fetch the slot [`sample_slots`] of `r` reads. Changes nothing.
#[inline]
pub(crate) fn prefetch_slot(slots: &[[u32; 2]], r: u64) {
    if let Some(slot) = slots.get(slot_of(slots.len(), r)) {
        crate::hint::prefetch(slot);
    }
}

/// One draw from a uniform 64-bit value, from the slots [`push_slots`] appended for one
/// table.
#[must_use]
#[inline]
pub(crate) fn sample_slots(slots: &[[u32; 2]], r: u64) -> usize {
    let i = slot_of(slots.len(), r);
    let [p, a] = slots[i];
    if (r as u32) < p || p == u32::MAX {
        i
    } else {
        a as usize
    }
}

fn to_threshold(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 4_294_967_296.0).min(4_294_967_295.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};

    #[test]
    fn frequencies_match_weights() {
        let t = AliasTable::new(&[1.0, 2.0, 3.0, 4.0]);
        let mut rng = crate::rng::SimRng::seed_from_u64(3);
        let mut counts = [0u64; 4];
        let n = 400_000;
        for _ in 0..n {
            counts[t.sample(rng.next_u64())] += 1;
        }
        for (i, c) in counts.iter().enumerate() {
            let expect = n as f64 * (i as f64 + 1.0) / 10.0;
            let sd = (expect * (1.0 - (i as f64 + 1.0) / 10.0)).sqrt();
            assert!((*c as f64 - expect).abs() < 5.0 * sd, "outcome {i}: {c} vs {expect}");
        }
    }

    #[test]
    fn zero_weights_never_drawn() {
        let t = AliasTable::new(&[0.0, 1.0, 0.0]);
        let mut rng = crate::rng::SimRng::seed_from_u64(5);
        for _ in 0..10_000 {
            assert_eq!(t.sample(rng.next_u64()), 1);
        }
    }
}
