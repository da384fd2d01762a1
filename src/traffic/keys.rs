//! Key popularity: drawing keys and spreading a key space's traffic over partitions.
//!
//! A key space of any cardinality is represented by an explicit **head** (up to [`HEAD_KEYS`]
//! most popular values, each with its probability, sampled through an alias table) and a
//! **tail** of equally likely values (the rest of a uniform space, or the far tail of a Zipf
//! law, whose per-key weights differ by less than the head's last). Keys are identified by their
//! rank (`0` = most popular); where a key lands is decided by hashing it with a placement salt.

use super::alias::AliasTable;
use crate::rng::mix64;
pub(crate) use crate::scenario::HEAD_KEYS;
use crate::scenario::{head_tail, HeadTail, KeySpaceSpec, Popularity};

/// The popularity of one key space, ready to sample.
#[derive(Clone, Debug)]
pub(crate) struct KeyDist {
    /// Probability of each head key (ranks `0..head.len()`).
    pub head: Vec<f64>,
    /// Probability of the tail as a whole.
    pub tail_prob: f64,
    /// Tail ranks: `tail_lo..tail_hi`, equally likely.
    pub tail_lo: u64,
    /// End of the tail (the cardinality).
    pub tail_hi: u64,
    /// Alias table over the head plus one slot for the tail.
    alias: AliasTable,
    /// Sequential keys: the period, in seconds (all traffic on the current period's key).
    pub sequential_period_s: Option<u64>,
    /// Seconds from the start of the UTC period holding the run's start to the run's start:
    /// periods roll over at UTC boundaries (a date key changes at midnight UTC).
    sequential_offset_s: u64,
}

impl KeyDist {
    /// The distribution of a validated key space.
    #[must_use]
    pub(crate) fn new(ks: &KeySpaceSpec, start_unix_s: i64) -> Self {
        let card = ks.cardinality.max(1);
        let seq = match &ks.popularity {
            Popularity::Sequential(p) => Some(p.as_secs().max(1)),
            _ => None,
        };
        let HeadTail { head, tail_prob, tail_lo } = head_tail(&ks.popularity, card);
        let mut slots = head.clone();
        slots.push(tail_prob);
        let alias = AliasTable::new(&slots);
        let sequential_offset_s = seq.map_or(0, |p| start_unix_s.rem_euclid(p as i64) as u64);
        Self { head, tail_prob, tail_lo, tail_hi: card, alias, sequential_period_s: seq, sequential_offset_s }
    }

    /// The largest share of the key space's requests one key receives, as [`Self::sample`]
    /// draws them (a sequential key space's current key: all of them, for one period).
    #[must_use]
    pub(crate) fn max_share(&self) -> f64 {
        let head = self.head.iter().copied().fold(0.0, f64::max);
        let span = self.tail_hi.saturating_sub(self.tail_lo);
        let tail = if span > 0 { self.tail_prob / span as f64 } else { 0.0 };
        head.max(tail)
    }

    /// All requests on one key.
    #[must_use]
    pub(crate) fn single() -> Self {
        Self::from_parts(vec![1.0], 0.0, 1, 1)
    }

    /// `n` equally likely keys, above the head as a tail.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn uniform(n: u64) -> Self {
        Self::from_parts(Vec::new(), 1.0, 0, n)
    }

    fn from_parts(head: Vec<f64>, tail_prob: f64, tail_lo: u64, tail_hi: u64) -> Self {
        let mut slots = head.clone();
        slots.push(tail_prob);
        let alias = AliasTable::new(&slots);
        Self { head, tail_prob, tail_lo, tail_hi, alias, sequential_period_s: None, sequential_offset_s: 0 }
    }

    /// Sequential keys: the rank of the key of second `s` of the run, 0 for the UTC period that
    /// holds the start, 1 for the next, …
    #[inline]
    #[must_use]
    pub(crate) fn sequential_key(&self, s: u64) -> Option<u64> {
        self.sequential_period_s.map(|p| (s + self.sequential_offset_s) / p)
    }

    /// Draws a key rank from two uniform 64-bit values, for a request at second `s`.
    #[inline]
    #[must_use]
    pub(crate) fn sample(&self, r1: u64, r2: u64, s: u64) -> u64 {
        if let Some(k) = self.sequential_key(s) {
            return k;
        }
        let i = self.alias.sample(r1);
        if i < self.head.len() {
            i as u64
        } else {
            let span = self.tail_hi - self.tail_lo;
            self.tail_lo + ((u128::from(r2) * u128::from(span)) >> 64) as u64
        }
    }
}

/// The 64-bit hash of a physical key (a key rank with its shard suffix) in a key space.
#[inline]
#[must_use]
pub(crate) fn key_hash(salt: u64, key_space: u64, rank: u64, shard: u64) -> u64 {
    mix64(salt ^ mix64(key_space.wrapping_mul(0x9E37_79B9) ^ mix64(rank.wrapping_mul(0x1_0000_0001).wrapping_add(shard))))
}

/// Width of one partition-key value's item collection in hash space: with a sort key, its items
/// sit in sort-key order at evenly spaced points of `[base, base + COLLECTION_WIDTH)`, so a split
/// can fall between two of them (2^24 of 2^64: collections of different values do not meet).
pub(crate) const COLLECTION_WIDTH: u64 = 1 << 24;

/// Start of the item collection of a value hashing to `h` (kept clear of the end of the space).
#[inline]
#[must_use]
pub(crate) fn collection_base(h: u64) -> u64 {
    h.min(u64::MAX - (COLLECTION_WIDTH - 1))
}

/// Hash position of item `s` (0-based, in sort-key order) of a collection of `items` at `base`.
#[inline]
#[must_use]
pub(crate) fn item_position(base: u64, s: u64, items: u64) -> u64 {
    base + ((u128::from(s) * u128::from(COLLECTION_WIDTH)) / u128::from(items.max(1))) as u64
}

/// How many items of a collection of `items` at `base` lie before position `x`:
/// `base + floor(s W / items) < x` exactly when `s < ceil((x - base) items / W)`.
#[must_use]
pub(crate) fn items_before(base: u64, items: u64, x: u128) -> u64 {
    let Some(d) = x.checked_sub(u128::from(base)).filter(|d| *d > 0) else { return 0 };
    let n = (d * u128::from(items)).div_ceil(u128::from(COLLECTION_WIDTH));
    n.min(u128::from(items)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn ks(card: u64, pop: Popularity) -> KeySpaceSpec {
        KeySpaceSpec {
            name: "k".into(),
            cardinality: card,
            popularity: pop,
            value_names: vec![],
            shards: None,
            sort_keys: None,
            popularity_from: crate::scenario::PopularityFrom::Stated,
            cardinality_from: crate::scenario::CardinalityFrom::Stated,
        }
    }

    /// 3 items over W: at 0, floor(W/3) and floor(2W/3); before floor(W/3) lies one item,
    /// before floor(W/3) + 1 two, before the end all three.
    #[test]
    fn items_sit_in_sort_key_order() {
        let w = COLLECTION_WIDTH;
        let b = 1_000;
        assert_eq!([0, 1, 2].map(|s| item_position(b, s, 3)), [b, b + w / 3, b + 2 * w / 3]);
        assert_eq!(items_before(b, 3, u128::from(b)), 0);
        assert_eq!(items_before(b, 3, u128::from(b + 1)), 1);
        assert_eq!(items_before(b, 3, u128::from(b + w / 3)), 1);
        assert_eq!(items_before(b, 3, u128::from(b + w / 3 + 1)), 2);
        assert_eq!(items_before(b, 3, u128::from(b + w)), 3);
        assert_eq!(collection_base(u64::MAX), u64::MAX - (w - 1));
        assert_eq!(item_position(collection_base(u64::MAX), 2, 3), u64::MAX - (w - 1) + 2 * w / 3);
    }

    #[test]
    fn zipf_head_and_tail_sum_to_one() {
        let d = KeyDist::new(&ks(1_000_000, Popularity::Zipf(1.1)), 0);
        let total: f64 = d.head.iter().sum::<f64>() + d.tail_prob;
        assert!((total - 1.0).abs() < 1e-9);
        // Rank 1 vs rank 2: 2^1.1 times more popular.
        assert!((d.head[0] / d.head[1] - 2f64.powf(1.1)).abs() < 1e-9);
        // Exact tail for a small space equals the explicit sum.
        let small = KeyDist::new(&ks(100, Popularity::Zipf(1.0)), 0);
        assert_eq!(small.tail_prob, 0.0);
        let h: f64 = (1..=100).map(|r| 1.0 / r as f64).sum();
        assert!((small.head[0] - 1.0 / h).abs() < 1e-12);
    }

    #[test]
    fn hot_keys_carry_their_share() {
        let d = KeyDist::new(&ks(10_000_000, Popularity::Hot { keys: 3, share: 0.4 }), 0);
        assert_eq!(d.head.len(), 3);
        assert!((d.head[0] - 0.4 / 3.0).abs() < 1e-12);
        assert!((d.tail_prob - 0.6).abs() < 1e-12);
        assert_eq!(d.tail_lo, 3);
    }

    #[test]
    fn sequential_keys_follow_time() {
        let d = KeyDist::new(&ks(400, Popularity::Sequential(SimDuration::from_secs(86_400))), 0);
        assert_eq!(d.sample(1, 2, 86_399), 0);
        assert_eq!(d.sample(1, 2, 86_400), 1);
    }

    /// A date key rolls over at midnight UTC, not a day after the run starts: a run starting at
    /// 2026-03-02T18:00:00Z (1,772,474,400 s, 64,800 s into its UTC day) moves to the next key
    /// after 21,600 s.
    #[test]
    fn sequential_keys_roll_over_at_utc_boundaries() {
        let d = KeyDist::new(&ks(400, Popularity::Sequential(SimDuration::from_secs(86_400))), 1_772_474_400);
        assert_eq!(d.sample(1, 2, 21_599), 0);
        assert_eq!(d.sample(1, 2, 21_600), 1);
        assert_eq!(d.sample(1, 2, 21_600 + 86_400), 2);
    }
}
