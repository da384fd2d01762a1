//! Fast fidelity's single-item writes with GSIs, drawn as counts: how many of the second's
//! requests land on each table partition and how many index writes on each partition of each
//! GSI, without drawing the requests one by one.
//!
//! An item's index key is drawn independently of its table key, and an index write is kept
//! with the index's coverage independently of the rest ([`Traffic::draw_request`]). So the
//! second's table partitions are a multinomial of its requests, each GSI's number of writes a
//! binomial of them, and its partitions a multinomial of that number, all independent; and
//! given those counts, which request carries which index write is a uniform random pairing.
//! A second that surely fits needs only the counts; one that must be replayed draws the
//! pairing ([`Traffic::spread`]), and every request is then decided with all its charges, as
//! exact fidelity decides it.

use super::*;
use rand::seq::SliceRandom;
use rand_distr::Binomial;

test_switch!(
    /// Index writes are drawn as counts on this thread (off: one request at a time).
    COUNTED,
    counted_on
);

/// One GSI's partition weights for a pattern's index writes (as [`PatternState`]'s for its
/// table partitions).
#[derive(Clone, Debug, Default)]
pub(super) struct IndexWeights {
    weights: Vec<f64>,
    cumulative: Vec<f64>,
    /// (sequential period, partitions) the weights were computed for.
    key: (u64, usize),
    counts: Vec<u64>,
}

impl Traffic {
    /// Are pattern `j`'s requests drawn as counts with their index writes: single-item puts,
    /// updates and deletes of fixed size whose GSI keys are drawn (not moved between fixed
    /// values), with no failed condition, capped collection or item in another table, which
    /// are each decided one by one.
    pub(super) fn counted_with_indexes(&self, j: usize) -> bool {
        let p = &self.pats[j];
        counted_on()
            && p.kind == Kind::AllOrNothing
            && matches!(p.op, Op::PutItem | Op::UpdateItem | Op::DeleteItem)
            && p.items_per_attempt == 1
            && p.fanout == 1
            && p.fixed_units.is_some()
            && p.collection_growth.is_none()
            && p.condition_fails <= 0.0
            && !(p.closed_loop || p.paged || p.chained)
            && !p.gsi.is_empty()
            && p.gsi.iter().all(|g| g.fixed.is_none())
            && self.legs.get(j).is_none_or(Vec::is_empty)
    }

    /// Splits the `count` requests of pattern `j` (see [`Self::counted_with_indexes`]), sent
    /// at about `expected` a second, over its table's partitions and each existing GSI's, into
    /// `out`: the table's counts as [`Self::draw_counts`] draws them, then each index's.
    pub(super) fn draw_indexed_counts(
        &mut self,
        j: usize,
        s: u64,
        (count, expected): (u64, f64),
        out: &mut Vec<SimpleCount>,
        res: &[Resource],
        active: &[bool],
    ) {
        self.draw_counts(j, s, count, expected, out, &res[self.pats[j].res]);
        let bytes = match self.pats[j].size {
            SizeSpec::Fixed(b) => b,
            SizeSpec::LogNormal { .. } | SizeSpec::Uniform { .. } => unreachable!("counted writes are of fixed size"),
        };
        if self.index_weights.len() <= j {
            self.index_weights.resize_with(j + 1, Vec::new);
        }
        if self.index_weights[j].len() < self.pats[j].gsi.len() {
            self.index_weights[j].resize_with(self.pats[j].gsi.len(), IndexWeights::default);
        }
        for g in 0..self.pats[j].gsi.len() {
            let (gres, coverage, units) = {
                let w = &self.pats[j].gsi[g];
                (w.res, w.coverage, CompiledPattern::index_write_units(w, bytes))
            };
            if !active[gres] {
                continue;
            }
            let written = if coverage >= 1.0 {
                count
            } else {
                Binomial::new(count, coverage.max(0.0)).map_or(0, |b| b.sample(&mut self.rng_keys[j]))
            };
            if written == 0 {
                continue;
            }
            self.refresh_index_weights(j, g, s, &res[gres]);
            let st = &mut self.index_weights[j][g];
            let mut counts = std::mem::take(&mut st.counts);
            split_counts(&mut self.rng_keys[j], &st.weights, &st.cumulative, written, &mut counts, None);
            for (part, &c) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
                out.push(SimpleCount { pat: j as u32, part: part as u32, count: c, units, gsi: Some(g as u16) });
            }
            self.index_weights[j][g].counts = counts;
        }
    }

    /// Expected index writes on each partition of GSI `g` of pattern `j` per write that
    /// carries its key (the index key drawn by its key space's law, on a random shard).
    fn refresh_index_weights(&mut self, j: usize, g: usize, s: u64, res: &Resource) {
        let ks = self.pats[j].gsi[g].key_space;
        let n = res.partition_count();
        let key = (self.dists[ks].sequential_key(s).unwrap_or(0), n);
        if self.index_weights[j][g].key == key && self.index_weights[j][g].weights.len() == n {
            return;
        }
        let count = self.shards[ks].filter(|sh| sh.count > 1).map_or(1, |sh| sh.count);
        let w = self.key_weights(ks, count, 1.0 / count as f64, self.span(j, ks, true), res, s);
        let st = &mut self.index_weights[j][g];
        st.cumulative = w
            .iter()
            .scan(0.0, |acc, &x| {
                *acc += x;
                Some(*acc)
            })
            .collect();
        st.weights = w;
        st.key = key;
    }

    /// The requests of one pattern's counts `group` (its table partitions, then its index
    /// writes by GSI) as attempts at uniform times in the second from `t0`: each index write
    /// given to a request drawn uniformly among those without one of that index.
    pub(super) fn spread_indexed(&mut self, group: &[SimpleCount], t0: u64, batch: &mut Vec<Attempt>) {
        let j = group[0].pat as usize;
        let (r, dim) = (self.pats[j].res, self.pats[j].dim);
        let rng = &mut self.rng_spread[j];
        let base: Vec<(u32, u64)> =
            group.iter().filter(|c| c.gsi.is_none()).flat_map(|c| std::iter::repeat_n((c.part, c.units), c.count as usize)).collect();
        let mut charges: Vec<Vec<Charge>> = base.iter().map(|&(part, units)| vec![Charge { res: r as u16, dim, part, units }]).collect();
        let mut slots: Vec<Option<Charge>> = Vec::with_capacity(base.len());
        for g in 0..self.pats[j].gsi.len() {
            let gres = self.pats[j].gsi[g].res as u16;
            slots.clear();
            for c in group.iter().filter(|c| c.gsi == Some(g as u16)) {
                let charge = Charge { res: gres, dim: Dim::Write, part: c.part, units: c.units };
                slots.extend(std::iter::repeat_n(Some(charge), c.count as usize));
            }
            if slots.is_empty() {
                continue;
            }
            slots.resize(base.len(), None);
            slots.shuffle(rng);
            for (item, slot) in charges.iter_mut().zip(&slots) {
                item.extend(*slot);
            }
        }
        for item in charges {
            let time = SimTime::from_micros(t0 + rng.random_range(0..MICROS_PER_SEC));
            batch.push(Attempt::first_of(time, 0, j as u32, 0, Charges::from_vec(item), 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::COUNTED;
    use crate::engine::{simulate, RunOptions, RunResult};
    use crate::scenario::Scenario;
    use std::path::Path;

    fn scenario(text: &str) -> Scenario {
        crate::scenario::parse_str(text, Path::new("test.toml")).unwrap_or_else(|e| panic!("test scenario invalid:\n{e}"))
    }

    /// `sc` simulated with its index writes counted (`counted`) or drawn request by request.
    fn run(sc: &Scenario, counted: bool) -> RunResult {
        COUNTED.with(|c| c.set(counted));
        let r = simulate(sc, &RunOptions::default());
        COUNTED.with(|c| c.set(true));
        r
    }

    /// Write units resource `i` consumed over the run.
    fn wcu(r: &RunResult, i: usize) -> f64 {
        r.resources[i].minutes.iter().map(|m| m.consumed[1]).sum::<u64>() as f64 / 1000.0
    }

    /// A sparse index written by a quarter of 400 puts a second, with room everywhere: each
    /// second surely fits, so the table consumes exactly 1 WCU per put in both draws (the
    /// arrivals are the same stream), and the index 1 WCU per put that carries its key: a
    /// binomial of the puts, 400 x 0.25 x 600 s = 60,000 expected, standard deviation
    /// sqrt(240,000 x 0.25 x 0.75) = 212; both draws within 5 deviations of it.
    #[test]
    fn a_sparse_index_is_written_by_its_share_of_the_puts() {
        let sc = scenario(
            r#"
[scenario]
duration = "10m"
seed = 4
[table]
name = "T"
partition_key = "k"
capacity = { mode = "provisioned", read = 100, write = 2000 }
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 1000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
coverage = 0.25
capacity = { read = 100, write = 2000 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 900
rate = { constant = 400 }
index_writes = { G = "insert" }
"#,
        );
        let (counted, one_by_one) = (run(&sc, true), run(&sc, false));
        assert_eq!(counted.replayed_seconds, 0, "every second fits");
        let puts = counted.patterns[0].served;
        assert_eq!(puts, one_by_one.patterns[0].served, "the same arrivals");
        assert!((puts as f64 - 240_000.0).abs() < 5.0 * 490.0, "{puts} puts");
        for r in [&counted, &one_by_one] {
            assert_eq!(wcu(r, 0), puts as f64, "1 WCU a put");
            let index = wcu(r, 1);
            assert!((index - 60_000.0).abs() < 5.0 * 212.0, "index writes {index}");
        }
    }

    /// A three-valued index key whose hot value takes 90 % of 1,500 updates a second: 1,350
    /// index writes a second on one index partition, above its 1,000 WU/s: the index absorbs
    /// the excess until its 60,000-unit bound fills (about 170 s), then seconds are replayed
    /// and the updates throttled with the SDK's retries (the bundled
    /// status-gsi.toml). Counted and drawn one by one, the draws are the same law: over four
    /// seeds, the throttled shares of attempts agree within 1 % of each other (measured: 0.4 %),
    /// and the shares of updates failed after the retries within 2 % (0.4 %).
    #[test]
    fn counted_index_writes_throttle_as_requests_drawn_one_by_one() {
        let mut sc = scenario(&std::fs::read_to_string("scenarios/status-gsi.toml").expect("bundled scenario"));
        sc.duration = crate::time::SimDuration::from_secs(300);
        let (mut counted, mut one_by_one, mut failed) = (0.0, 0.0, [0.0; 2]);
        for seed in 1..=4 {
            sc.seed = seed;
            let share = |r: &RunResult| r.totals().throttled_attempts as f64 / r.totals().attempts as f64;
            let (a, b) = (run(&sc, true), run(&sc, false));
            assert!(a.replayed_seconds > 60, "the hot index partition throttles: {} replayed of {}", a.replayed_seconds, a.duration_s);
            counted += share(&a) / 4.0;
            one_by_one += share(&b) / 4.0;
            failed[0] += a.totals().failed as f64 / a.totals().offered as f64 / 4.0;
            failed[1] += b.totals().failed as f64 / b.totals().offered as f64 / 4.0;
        }
        assert!(counted > 0.1, "throttled share {counted}");
        assert!((counted / one_by_one - 1.0).abs() < 0.01, "counted {counted}, one by one {one_by_one}");
        assert!((failed[0] / failed[1] - 1.0).abs() < 0.02, "failed shares {failed:?}");
    }
}
