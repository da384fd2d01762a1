//! The load on the busiest value of each key space, worked from the scenario the way a person
//! would by hand (the evidence of the key rules).

use super::numbers;
use crate::limits::{PARTITION_READ_CAP, PARTITION_WRITE_CAP};
use crate::model::request::{mean_bytes, CompiledPattern};
use crate::model::Dim;
use crate::scenario::{KeySpaceSpec, Op, Popularity, ResourceId, Scenario};
use crate::units::MILLI;
use std::collections::BTreeMap;

/// Share of a key space's traffic on its busiest value (spec §2: one value lives on one
/// partition).
#[must_use]
pub fn top_share(ks: &KeySpaceSpec) -> f64 {
    match &ks.popularity {
        // The busiest is a hot key, or a cold one when the hot keys share less each.
        Popularity::Hot { keys, .. } => rank_share(ks, 0).max(rank_share(ks, (*keys).min(ks.cardinality.max(1)))),
        Popularity::Weights(w) => (0..w.len() as u64).map(|r| rank_share(ks, r)).fold(0.0, f64::max),
        _ => rank_share(ks, 0),
    }
}

/// Share of a key space's traffic on its value of popularity rank `rank` (0 the busiest).
pub(super) fn rank_share(ks: &KeySpaceSpec, rank: u64) -> f64 {
    let n = ks.cardinality.max(1);
    match &ks.popularity {
        Popularity::Uniform => 1.0 / n as f64,
        Popularity::Hot { keys, share } => {
            let hot = (*keys).min(n).max(1);
            if hot == n {
                1.0 / n as f64
            } else if rank < hot {
                share / hot as f64
            } else {
                (1.0 - share) / (n - hot) as f64
            }
        }
        Popularity::Zipf(s) => ((rank + 1) as f64).powf(-s) / harmonic(n, *s),
        Popularity::Sequential(_) => f64::from(u8::from(rank == 0)),
        Popularity::Weights(w) => {
            let sum: f64 = w.iter().sum();
            w.get(rank as usize).copied().unwrap_or(0.0) / sum
        }
        Popularity::Joint { head, tail, .. } => match head.get(rank as usize) {
            Some(p) => *p,
            None => tail / n.saturating_sub(head.len() as u64).max(1) as f64,
        },
    }
}

/// H(n, s) = sum of k^-s for k = 1..n: exact to a million terms, then the integral of the tail.
pub(super) fn harmonic(n: u64, s: f64) -> f64 {
    const EXACT: u64 = 1_000_000;
    let head: f64 = (1..=n.min(EXACT)).map(|k| (k as f64).powf(-s)).sum();
    if n <= EXACT {
        return head;
    }
    let (a, b) = (EXACT as f64 + 0.5, n as f64 + 0.5);
    head + if (s - 1.0).abs() < 1e-12 { (b / a).ln() } else { (b.powf(1.0 - s) - a.powf(1.0 - s)) / (1.0 - s) }
}

/// The busiest value's label, as reports name it.
pub(super) fn top_label(ks: &KeySpaceSpec) -> String {
    ks.value_names.first().cloned().unwrap_or_else(|| format!("{}#1", ks.name))
}

/// The load on the busiest value of one key space on one resource and dimension, at the peak.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyLoad {
    /// 0 the table, `g + 1` GSI `g`.
    pub res: usize,
    /// The key space.
    pub key_space: usize,
    /// Read or write.
    pub dim: Dim,
    /// Units per second on one partition (one shard of the value).
    pub units_per_s: f64,
    /// Requests per second whose writes put it there (base-table writes for an index key).
    pub base_rate: f64,
    /// The busiest value's rank when writes under fixed values (`insert_at`, `move`) decide
    /// it; otherwise the most popular value is the busiest.
    pub busiest: Option<u64>,
}

impl KeyLoad {
    /// The partition cap of its dimension (spec §2).
    #[must_use]
    pub fn cap(&self) -> f64 {
        match self.dim {
            Dim::Read => PARTITION_READ_CAP as f64,
            Dim::Write => PARTITION_WRITE_CAP as f64,
        }
    }
}

/// The busiest value's load per resource, key space and dimension, at the plan's peaks.
#[must_use]
pub fn key_loads(sc: &Scenario, peaks: &[Option<f64>]) -> Vec<KeyLoad> {
    /// Units drawn over the key space by its popularity, units written under fixed values
    /// (by rank), and the requests behind them.
    #[derive(Default)]
    struct Acc {
        drawn: f64,
        fixed: BTreeMap<u64, f64>,
        rate: f64,
    }
    let mut acc: BTreeMap<(usize, usize, Dim), Acc> = BTreeMap::new();
    for (p, peak) in sc.patterns.iter().zip(peaks) {
        let (Some(rate), Some(ks)) = (*peak, p.key_space) else { continue };
        let cp = CompiledPattern::new(sc, p);
        // A batch touches `items` values; a query or get one (its fan-out sends one attempt to
        // every shard, each with its share of the items).
        let touches = if matches!(p.op, Op::BatchGet | Op::BatchWrite) { p.items as f64 } else { 1.0 };
        let shards = cp.shards.map_or(1.0, |s| if cp.fanout > 1 { 1.0 } else { s.count as f64 });
        let e = acc.entry((cp.res, ks, cp.dim)).or_default();
        e.drawn += rate * touches * cp.mean_milli() as f64 / MILLI as f64 / shards;
        e.rate += rate;
        // Its writes on each GSI: on values drawn by the index key's popularity, or on fixed
        // values (an entry that moves writes its old and its new value once each; a new entry
        // under one value writes that one).
        for w in &cp.gsi {
            let ishards = sc.key_spaces[w.key_space].shards.map_or(1.0, |s| s.count as f64);
            let per = CompiledPattern::index_write_units(w, mean_bytes(p.size)) as f64 / MILLI as f64;
            let units = rate * p.items as f64 * w.coverage * per / ishards;
            let e = acc.entry((w.res, w.key_space, Dim::Write)).or_default();
            e.rate += rate;
            if w.fixed.is_some() {
                for rank in w.fixed_ranks() {
                    *e.fixed.entry(rank).or_default() += units / w.writes.max(1) as f64;
                }
            } else {
                e.drawn += units;
            }
        }
    }
    acc.into_iter()
        .map(|((res, key_space, dim), a)| {
            let ks = &sc.key_spaces[key_space];
            // The busiest value: with fixed values, each explicit value's drawn share and fixed
            // writes; otherwise the most popular value's share.
            let (units_per_s, busiest) = if a.fixed.is_empty() {
                (a.drawn * top_share(ks), None)
            } else {
                (0..ks.value_names.len().max(1) as u64)
                    .map(|r| (a.drawn * rank_share(ks, r) + a.fixed.get(&r).copied().unwrap_or(0.0), Some(r)))
                    .fold((0.0, None), |best, x| if x.0 > best.0 { x } else { best })
            };
            KeyLoad { res, key_space, dim, units_per_s, base_rate: a.rate, busiest }
        })
        .collect()
}

/// Index writes per second a GSI takes at the peak, units (all its key values).
pub(super) fn index_write_units(sc: &Scenario, peaks: &[Option<f64>], g: usize) -> f64 {
    let mut u = 0.0;
    for (p, peak) in sc.patterns.iter().zip(peaks) {
        let Some(rate) = *peak else { continue };
        let cp = CompiledPattern::new(sc, p);
        for w in cp.gsi.iter().filter(|w| w.res == sc.layout().slot(ResourceId::gsi(g))) {
            u += rate * p.items as f64 * w.coverage * CompiledPattern::index_write_units(w, mean_bytes(p.size)) as f64 / MILLI as f64;
        }
    }
    u
}

/// The numbers of a key-load finding: its units, the cap, their ratio, the steady phase's
/// throttled share and the shard count found.
pub(super) fn load_numbers(l: &KeyLoad, steady_share: f64, shards: Option<u64>) -> BTreeMap<String, f64> {
    let mut n = numbers(&[
        ("units_per_s", l.units_per_s),
        ("cap", l.cap()),
        ("share_of_cap", l.units_per_s / l.cap()),
        ("steady_throttled_share", steady_share),
    ]);
    if let Some(c) = shards {
        n.insert("shards".into(), c as f64);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn space(cardinality: u64, popularity: Popularity) -> KeySpaceSpec {
        KeySpaceSpec {
            name: "k".into(),
            cardinality,
            popularity,
            value_names: Vec::new(),
            shards: None,
            sort_keys: None,
            popularity_from: crate::scenario::PopularityFrom::Stated,
            cardinality_from: crate::scenario::CardinalityFrom::Stated,
        }
    }

    /// The busiest value's share, by hand: 1/n uniform; share/keys for hot keys; 1/H(10, 1) =
    /// 1/2.928968 for Zipf over ten values; all of it for a time-ordered key; the heaviest of
    /// explicit weights over their sum.
    #[test]
    fn top_shares_by_hand() {
        assert!((top_share(&space(4, Popularity::Uniform)) - 0.25).abs() < 1e-12);
        assert!((top_share(&space(1_000, Popularity::Hot { keys: 2, share: 0.5 })) - 0.25).abs() < 1e-12);
        assert!((top_share(&space(10, Popularity::Zipf(1.0))) - 1.0 / 2.928_968_253_968_254).abs() < 1e-12);
        assert_eq!(top_share(&space(3_650, Popularity::Sequential(SimDuration::from_secs(86_400)))), 1.0);
        assert!((top_share(&space(3, Popularity::Weights(vec![0.9, 0.08, 0.02]))) - 0.9).abs() < 1e-12);
    }

    /// Past a million terms the tail of H(n, 1) is the integral ln((n + 0.5) / (10^6 + 0.5)):
    /// H(10^7, 1) = ln(10^7) + 0.5772157 + 1/(2 x 10^7) to 10^-6.
    #[test]
    fn the_harmonic_tail_is_integrated() {
        let h = harmonic(10_000_000, 1.0);
        let want = (1e7f64).ln() + 0.577_215_664_901_532_9 + 0.5e-7;
        assert!((h - want).abs() < 1e-6, "{h} vs {want}");
    }
}
