//! Where the traffic falls on a partition: the points a heat or size split divides, the hottest keys' rates, and the partition of a key.

use super::*;

impl Traffic {
    /// Where to split partition `i` of resource `r` for heat, from the patterns' key
    /// popularity at second `s` (spec §2): the traffic-weighted median of its keys (and of the
    /// items of a collection with a sort key, and of the current value's shards of a
    /// time-ordered key); refused when one key carries most of it.
    pub(crate) fn heat_split_point(&self, r: usize, res: &Resource, i: usize, s: u64) -> Result<u64, &'static str> {
        let (lo, hi) = res.range(i);
        let (points, _) = self.partition_points(r, res.is_index(), lo, hi, s);
        control::median_split(points, lo, hi)
    }

    /// Where to split a partition `[lo, hi)` of resource `r` that outgrew 10 GB, when one
    /// value's item collection (with a sort key) carries most of its traffic: the median of
    /// its items there, so the split divides the collection (a range midpoint would leave it
    /// whole). `None`: split at the range's middle.
    pub(crate) fn size_split_point(&self, r: usize, is_index: bool, lo: u64, hi: u128, s: u64) -> Option<u64> {
        let (points, in_collections) = self.partition_points(r, is_index, lo, hi, s);
        let total: f64 = points.iter().map(|p| p.1).sum();
        if in_collections <= 0.5 * total {
            return None;
        }
        control::median_split(points, lo, hi).ok()
    }

    /// The traffic on partition `[lo, hi)` of resource `r` at second `s`, as points (hash
    /// position, requests/s), and how much of it falls on items of collections with a sort key.
    pub(super) fn partition_points(&self, r: usize, is_index: bool, lo: u64, hi: u128, s: u64) -> PartitionPoints {
        let mut points: Vec<(u64, f64)> = Vec::new();
        let mut tail = 0.0;
        let mut in_collections = 0.0;
        for (j, p) in self.pats.iter().enumerate() {
            let lambda = self.lambda(j, s.saturating_sub(1));
            let mut touched: Vec<(usize, f64)> = Vec::new();
            let same_items = |a: usize, b: usize| a == b || self.layout.id(a).holds_items() && self.layout.id(b).holds_items();
            if same_items(p.res, r) {
                if let Some(ks) = p.key_space {
                    touched.push((ks, lambda * p.fanout as f64));
                }
            }
            for g in &p.gsi {
                if g.res != r {
                    continue;
                }
                let weight = lambda * g.coverage * p.items_per_attempt as f64;
                match g.fixed {
                    Some(_) => {
                        let count = self.shards[g.key_space].map_or(1, |sh| sh.count).min(MAX_TRACKED_SHARDS);
                        for rank in g.fixed_ranks() {
                            for sh in 0..count {
                                push_points(
                                    &mut points,
                                    None,
                                    key_hash(self.salt, g.key_space as u64, rank, sh),
                                    weight / count as f64,
                                    lo,
                                    hi,
                                );
                            }
                        }
                    }
                    None => touched.push((g.key_space, weight)),
                }
            }
            for (ks, weight) in touched {
                let dist = &self.dists[ks];
                let layout = self.span(j, ks, is_index);
                let count = self.shards[ks].map_or(1, |sh| sh.count).min(MAX_TRACKED_SHARDS);
                // A time-ordered key (a date) carries all its traffic on the current value.
                // Its hash is no more sequential than any other, so a partition holding
                // several of its shards splits between them (spec §2: DynamoDB does not split
                // for one hot item, or for sequential access within a key range, which a
                // `newest` sort key is: one point).
                if let Some(key) = dist.sequential_key(s) {
                    for sh in 0..count {
                        let before = points.len();
                        push_points(&mut points, layout, key_hash(self.salt, ks as u64, key, sh), weight / count as f64, lo, hi);
                        if layout.is_some() {
                            in_collections += points[before..].iter().map(|p| p.1).sum::<f64>();
                        }
                    }
                    continue;
                }
                for (rank, &pr) in dist.head.iter().enumerate() {
                    for sh in 0..count {
                        let h = key_hash(self.salt, ks as u64, rank as u64, sh);
                        let mass = weight * pr / count as f64;
                        let before = points.len();
                        push_points(&mut points, layout, h, mass, lo, hi);
                        if layout.is_some() {
                            in_collections += points[before..].iter().map(|p| p.1).sum::<f64>();
                        }
                    }
                }
                tail += weight * dist.tail_prob * ((hi - u128::from(lo)) as f64 / 18_446_744_073_709_551_616.0);
            }
        }
        if tail > 0.0 {
            let step = (hi - u128::from(lo)) / u128::from(control::TAIL_POINTS);
            for k in 0..control::TAIL_POINTS {
                points.push(((u128::from(lo) + step * u128::from(k) + step / 2) as u64, tail / control::TAIL_POINTS as f64));
            }
        }
        (points, in_collections)
    }

    /// The busiest keys over the run: `(resource, key space, rank, requests/s)`, busiest first,
    /// from `offered` requests per pattern over `duration_s` seconds; on a GSI, the index
    /// writes per second its base-table writes put on each index key.
    pub(crate) fn hot_keys(&self, offered: &[u64], duration_s: u64) -> Vec<HotKeyRate> {
        let mut acc: std::collections::BTreeMap<(usize, usize, u64), (f64, u64)> = std::collections::BTreeMap::new();
        for (j, p) in self.pats.iter().enumerate() {
            let rate = offered[j] as f64 / duration_s as f64;
            // The entity types whose traffic lands on the key (bit e for entity e).
            let mask = p.entity.map_or(0, |e| 1u64 << e.min(63));
            let mut add = |key: (usize, usize, u64), rate: f64| {
                let e: &mut (f64, u64) = acc.entry(key).or_default();
                e.0 += rate;
                e.1 |= mask;
            };
            // The pattern's own key space, and the index keys its writes put on each GSI (the
            // share of items that carry the index key).
            let own = p.key_space.map(|ks| (p.res, ks, rate));
            let index =
                p.gsi.iter().filter(|g| g.fixed.is_none()).map(|g| (g.res, g.key_space, rate * g.coverage * p.items_per_attempt as f64));
            // An entry under fixed values writes each once (a move: its old value and its new).
            for g in p.gsi.iter() {
                for rank in g.fixed_ranks() {
                    add((g.res, g.key_space, rank), rate * g.coverage * p.items_per_attempt as f64);
                }
            }
            for (res, ks, rate) in own.into_iter().chain(index) {
                let dist = &self.dists[ks];
                if let Some(key) = dist.sequential_key(duration_s - 1) {
                    add((res, ks, key), rate);
                    continue;
                }
                let mut ranked: Vec<(usize, f64)> = dist.head.iter().copied().enumerate().collect();
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                for (rank, pr) in ranked.into_iter().take(HOT_KEYS) {
                    add((res, ks, rank as u64), rate * pr);
                }
            }
        }
        let mut v: Vec<_> = acc.into_iter().collect();
        v.sort_by(|a, b| b.1 .0.total_cmp(&a.1 .0).then(a.0.cmp(&b.0)));
        v.into_iter().take(HOT_KEYS).map(|((res, ks, rank), (rate, entities))| HotKeyRate { res, ks, rank, rate, entities }).collect()
    }

    /// The partition of resource `res` holding key `rank` of key space `ks` (its first shard).
    pub(crate) fn partition_of_key(&self, res: &Resource, ks: usize, rank: u64) -> usize {
        res.partition_of(key_hash(self.salt, ks as u64, rank, 0))
    }
}
