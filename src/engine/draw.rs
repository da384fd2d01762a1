//! Drawing the traffic: arrivals, keys and item sizes of each access pattern, each from its
//! own seeded stream ([`crate::rng`]).
//!
//! * **exact** fidelity draws every request: a Poisson process per pattern by exponential
//!   gaps, each arrival with its key and item size (or, for a single-item request on one
//!   value of a plain key space, directly its partition: [`PartitionDraw`], the same law).
//! * **fast** fidelity draws only how many requests each single-item pattern sends to each
//!   partition in the second (a Poisson count per partition from the pattern's per-partition
//!   weights); other patterns (several items or indexes) are drawn one by one. When the second
//!   must be replayed, [`Traffic::spread`] gives the counts uniform arrival times.

use super::attempt::{Attempt, SimpleCount};
use crate::model::dax::Dax;
use crate::model::indexes::REPORTED_COLLECTION_BYTES;
use crate::model::request::{collection_bound, Charge, Charges, CompiledPattern, Kind, Paced};
use crate::model::resource::{block_shift, Resource, MANY_PARTITIONS};
use crate::model::{control, Dim};
use crate::rng::{RngStreams, SimRng, Stream};
use crate::scenario::{ClosedLoop, Op, RateFactors, RateShape, Scenario, Shards, SizeSpec, SortKeys};
use crate::time::{SimTime, MICROS_PER_SEC};
use crate::traffic::alias::AliasTable;
use crate::traffic::keys::{collection_base, item_position, items_before, key_hash, KeyDist, COLLECTION_WIDTH, HEAD_KEYS};
use crate::traffic::poisson::{poisson, PoissonTables};
use rand::{Rng, RngCore};
use rand_distr::{Distribution, Exp1};

mod points;

mod arrivals;

mod legs;
pub(crate) use legs::Leg;

mod indexed;

/// Most shards whose partitions the fast path tracks one by one; more are spread evenly.
const MAX_TRACKED_SHARDS: u64 = 64;
/// Hot keys reported.
const HOT_KEYS: usize = 5;
/// A partition's traffic as (hash position, requests/s) points, and the part of it on items of
/// collections with a sort key.
type PartitionPoints = (Vec<(u64, f64)>, f64);

/// Points a collection's share of a partition is cut into when choosing where to split.
const COLLECTION_POINTS: u64 = 16;
/// Fast fidelity: the alias slots all patterns' Poisson tables may hold (8 MiB, and 16 MiB
/// of tables at most; `guard` counts the bound). The headline's thousand partitions take
/// about 130,000; past the bound, partitions are drawn directly.
pub(crate) const TABLE_SLOTS: usize = 1 << 20;

/// What changes about a pattern during the run.
#[derive(Clone, Debug)]
struct PatternState {
    /// `scale_rate` factors over the run.
    factors: RateFactors,
    /// Expected attempts per request on each partition of the pattern's resource.
    weights: Vec<f64>,
    /// (sequential period, partitions) the weights were computed for.
    weights_key: (u64, usize),
    /// Running sums of `weights`.
    cumulative: Vec<f64>,
    /// Per partition: this second's count (reused).
    counts: Vec<u64>,
    /// Fast fidelity: per partition, Poisson draws of its weight's share of `tables_rate`
    /// attempts, tabulated (see `Traffic::draw_counts`).
    tables: PoissonTables,
    /// The `weights_key` and the rate the tables were built for, and the second they were.
    tables_key: (u64, usize),
    tables_rate: f64,
    tables_built: u64,
    /// Exact fidelity: the partition of each request, drawn without its key.
    part_draw: Option<PartitionDraw>,
}

/// Splits `count` requests over partitions with weights `weights` (running sums `cum`, total
/// above 0) into `counts`: exactly a multinomial (see `Traffic::draw_counts`). The first
/// counts are independent Poisson draws of means proportional to the weights: from `tables`
/// when given (the shares of a recent rate, the untabulated means the weights times the
/// scale given), else of means summing to `count`.
fn split_counts(rng: &mut SimRng, weights: &[f64], cum: &[f64], count: u64, counts: &mut Vec<u64>, tables: Option<(&PoissonTables, f64)>) {
    let mass = cum[cum.len() - 1];
    counts.clear();
    let mut total = 0;
    match tables {
        Some((t, scale)) => total = t.draw_all(rng, counts, |i| weights[i] * scale),
        None => {
            let scale = count as f64 / mass;
            for &w in weights {
                let x = if w > 0.0 { poisson(rng, w * scale) } else { 0 };
                counts.push(x);
                total += x;
            }
        }
    }
    if total < count {
        for _ in total..count {
            let u = rng.random::<f64>() * mass;
            let p = cum.partition_point(|&c| c <= u).min(cum.len() - 1);
            counts[p] += 1;
        }
    } else if total > count {
        let mut tree = Fenwick::new(counts);
        for left in (count + 1..=total).rev() {
            let p = tree.find(rng.random_range(0..left));
            counts[p] -= 1;
            tree.remove_one(p);
        }
    }
}

/// Counts per partition with O(log n) removal and lookup by rank (a Fenwick tree).
struct Fenwick {
    tree: Vec<u64>,
}

impl Fenwick {
    fn new(counts: &[u64]) -> Self {
        let n = counts.len();
        let mut tree = vec![0; n + 1];
        for i in 1..=n {
            tree[i] += counts[i - 1];
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                let v = tree[i];
                tree[parent] += v;
            }
        }
        Self { tree }
    }

    /// The partition holding the request of rank `r` (0-based) in partition order.
    fn find(&self, mut r: u64) -> usize {
        let n = self.tree.len() - 1;
        let mut pos = 0;
        let mut step = n.next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= n && self.tree[next] <= r {
                pos = next;
                r -= self.tree[next];
            }
            step /= 2;
        }
        pos
    }

    fn remove_one(&mut self, p: usize) {
        let mut k = p + 1;
        while k < self.tree.len() {
            self.tree[k] -= 1;
            k += k & k.wrapping_neg();
        }
    }
}

test_switch!(
    /// Exact fidelity draws eligible patterns' seconds in blocks (on by default).
    BLOCK_PATH,
    block_path
);

/// One request of exact fidelity's compact second: when it arrives in the second, and on
/// which partition of its pattern's resource.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arrival {
    /// µs after the second's start.
    pub(crate) offset_us: u32,
    /// Partition.
    pub(crate) part: u32,
}

/// One pattern's requests in a [`CompactSecond`]: `arrivals[start..end]`, in time order,
/// request numbers from `seq0`, each charging `charge` on its own partition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub(crate) pat: u32,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) seq0: u64,
    /// The charge of every request (its partition aside).
    pub(crate) charge: Charge,
}

/// A second of exact fidelity whose requests are all single-item requests of fixed units
/// ([`Traffic::compact_second`]): their times and partitions, with no attempt built, so that
/// a second that surely fits is admitted from them directly.
#[derive(Debug, Default)]
pub(crate) struct CompactSecond {
    pub(crate) second_us: u64,
    pub(crate) arrivals: Vec<Arrival>,
    pub(crate) runs: Vec<Run>,
    /// Requests a partition (`count_shift` 0), counted as they are drawn, when every
    /// pattern's resource has fewer than [`MANY_PARTITIONS`] partitions, else requests a
    /// block of adjacent partitions (`part >> count_shift`, [`block_shift`]): a second of one
    /// run is checked from them without a pass over its requests. Several runs' counts mix.
    pub(crate) counts: Vec<u32>,
    pub(crate) count_shift: u32,
}

/// The traffic of a run: compiled patterns, key distributions and random streams.
pub(crate) struct Traffic {
    /// The patterns, compiled.
    pub(crate) pats: Vec<CompiledPattern>,
    state: Vec<PatternState>,
    dists: Vec<KeyDist>,
    /// The DAX cluster in front of the table, if any.
    pub(crate) dax: Option<Dax>,
    shards: Vec<Option<Shards>>,
    /// Per key space: its sort keys (item collections a split may divide).
    sort_keys: Vec<Option<SortKeys>>,
    /// The table has an LSI: its item collections are never split (spec §2).
    table_lsi: bool,
    salt: u64,
    /// Where the table's resources sit: the table and its replicas hold the same keys, and
    /// each one's splits follow the traffic of all of them.
    layout: crate::scenario::Layout,
    start_s_of_day: u64,
    rng_arr: Vec<SimRng>,
    rng_keys: Vec<SimRng>,
    rng_sizes: Vec<SimRng>,
    rng_spread: Vec<SimRng>,
    /// Per pattern: whether a conditional write's condition fails.
    rng_cond: Vec<SimRng>,
    /// Per resource: a GSI that exists but cannot be read yet (its backfill is running), or
    /// not yet created: reads of it fail.
    pub(crate) unreadable: Vec<bool>,
    /// Per pattern: requests of this second refused because their index is not readable.
    pub(crate) refused: Vec<u64>,
    seq: u64,
    /// Per pattern: its closed loop's progress (none for open-loop patterns).
    closed: Vec<Option<ClosedState>>,
    /// Per pattern: the pacing of a load the service paces (a bulk put). Apart from
    /// `PatternState`, whose size the per-request loops index by.
    paced: Vec<Option<Paced>>,
    /// Exact fidelity's block of a second: arrival times and key words (kept between seconds).
    block_times: Vec<u32>,
    block_words: Vec<u64>,
    /// Per pattern: its transaction's items in other tables of the account (empty when no
    /// pattern has any).
    legs: Vec<Vec<Leg>>,
    /// Per pattern: the write its answered gets send to another table (empty when no pattern
    /// has one).
    pub(crate) follows: Vec<Option<Leg>>,
    /// Per pattern written as counts with its index writes: each GSI's partition weights
    /// (empty until one is).
    index_weights: Vec<Vec<indexed::IndexWeights>>,
}

/// A closed loop's progress.
#[derive(Clone, Copy, Debug)]
struct ClosedState {
    spec: ClosedLoop,
    /// Requests sent (first attempts).
    issued: u64,
    /// Requests sent and not yet answered.
    in_flight: u64,
    /// A request failed and the loop stops on failure.
    stopped: bool,
}

/// What an answered closed-loop request leads to.
pub(crate) enum ClosedNext {
    /// The thread sends its next request at this µs.
    Send(u64),
    /// The loop is done: its last request was answered at this µs.
    Finished(u64),
    /// The thread stops; others are still waiting for answers.
    Idle,
}

impl Traffic {
    /// The traffic of `sc`, drawn from `streams`.
    pub(crate) fn new(sc: &Scenario, streams: &RngStreams) -> Self {
        let n = sc.patterns.len() as u64;
        let dists: Vec<KeyDist> = sc.key_spaces.iter().map(|k| KeyDist::new(k, sc.start_unix_s)).collect();
        Self {
            dax: Dax::of(sc, &dists),
            pats: sc.patterns.iter().map(|p| CompiledPattern::new(sc, p)).collect(),
            state: (0..sc.patterns.len())
                .map(|j| PatternState {
                    factors: RateFactors::of(sc, j),
                    weights: Vec::new(),
                    weights_key: (u64::MAX, 0),
                    cumulative: Vec::new(),
                    counts: Vec::new(),
                    tables: PoissonTables::default(),
                    tables_key: (u64::MAX, 0),
                    tables_rate: 0.0,
                    tables_built: 0,
                    part_draw: None,
                })
                .collect(),
            dists,
            shards: sc.key_spaces.iter().map(|k| k.shards).collect(),
            sort_keys: sc.key_spaces.iter().map(|k| k.sort_keys).collect(),
            table_lsi: !sc.lsis.is_empty(),
            salt: streams.placement_salt(),
            layout: sc.layout(),
            start_s_of_day: sc.start_unix_s.rem_euclid(86_400) as u64,
            rng_arr: (0..n).map(|i| streams.rng(Stream::Arrivals, i)).collect(),
            rng_keys: (0..n).map(|i| streams.rng(Stream::Keys, i)).collect(),
            rng_sizes: (0..n).map(|i| streams.rng(Stream::Sizes, i)).collect(),
            rng_spread: (0..n).map(|i| streams.rng(Stream::Spread, i)).collect(),
            rng_cond: (0..n).map(|i| streams.rng(Stream::Conditions, i)).collect(),
            unreadable: std::iter::once(false)
                .chain(sc.gsis.iter().map(|g| g.added_during_run))
                .chain(sc.replicas.iter().map(|_| false))
                .collect(),
            refused: vec![0; sc.patterns.len()],
            seq: 0,
            block_times: Vec::new(),
            block_words: Vec::new(),
            legs: Vec::new(),
            follows: Vec::new(),
            index_weights: Vec::new(),
            paced: sc.patterns.iter().map(Paced::of).collect(),
            closed: sc
                .patterns
                .iter()
                .map(|p| match p.rate {
                    RateShape::ClosedLoop(spec) => Some(ClosedState { spec, issued: 0, in_flight: 0, stopped: false }),
                    _ => None,
                })
                .collect(),
        }
    }

    /// At the start: every closed loop's threads send their first requests, at time 0.
    pub(crate) fn closed_start(&mut self, out: &mut Vec<Attempt>, res: &[Resource], active: &[bool]) {
        for j in 0..self.pats.len() {
            let Some(st) = &mut self.closed[j] else { continue };
            let n = st.spec.threads.min(st.spec.total);
            st.issued = n;
            st.in_flight = n;
            for _ in 0..n {
                self.draw_request(j, 0, SimTime::ZERO, out, res, active);
            }
        }
    }

    /// A request of closed-loop pattern `j` was answered at `t_us` (`failed` or served).
    pub(crate) fn closed_answer(&mut self, j: usize, t_us: u64, failed: bool) -> ClosedNext {
        let Some(st) = &mut self.closed[j] else { return ClosedNext::Idle };
        st.in_flight -= 1;
        if failed && st.spec.stop_on_failure {
            st.stopped = true;
        }
        if !st.stopped && st.issued < st.spec.total {
            st.issued += 1;
            st.in_flight += 1;
            return ClosedNext::Send(t_us + st.spec.think_us);
        }
        if st.in_flight == 0 {
            ClosedNext::Finished(t_us)
        } else {
            ClosedNext::Idle
        }
    }

    /// Item collections at the cost of what can reach the limit: a key space whose
    /// collections the run cannot bring to the reported 1 GB ([`collection_bound`], an upper
    /// bound from its busiest key) is not tracked, and its writes draw in bulk; the named
    /// large collections and the head of a popularity that the writes can bring within reach
    /// are tracked exactly, write by write.
    pub(crate) fn with_collection_bounds(mut self, sc: &Scenario, duration_s: u64) -> Self {
        for p in &mut self.pats {
            let Some(ks) = p.key_space.filter(|_| p.collection_growth.is_some()) else { continue };
            if collection_bound(sc, ks, &self.dists[ks], duration_s) < REPORTED_COLLECTION_BYTES as f64 {
                p.uncap_collections();
            }
        }
        self
    }

    /// Pattern `j`'s pacing, when it is a load the service paces.
    pub(crate) fn paced(&self, j: usize) -> Option<Paced> {
        self.paced[j]
    }

    /// Pattern `j`'s rate in second `s`, requests per second.
    pub(crate) fn lambda(&self, j: usize, s: u64) -> f64 {
        let l = self.base_lambda(j, s);
        match &self.dax {
            // A DAX cache hit never reaches the table: the table sees the misses, a Poisson
            // process thinned by the hit ratio.
            Some(d) => l * d.miss_share(j, l),
            None => l,
        }
    }

    /// Pattern `j`'s requests a second at second `s`, before any DAX cache.
    pub(crate) fn base_lambda(&self, j: usize, s: u64) -> f64 {
        self.state[j].factors.rate(&self.pats[j].rate, s, self.start_s_of_day)
    }

    /// Records second `s` at the DAX cluster, if any.
    pub(crate) fn dax_second(&mut self, s: u64) {
        if let Some(mut d) = self.dax.take() {
            d.second(|j| self.base_lambda(j, s));
            self.dax = Some(d);
        }
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }
}

/// Tail keys counted one by one into a [`PartitionDraw`]'s weights (each hashed, when the
/// partitions change: in blocks, about 1.6 ns a key, 16 ms for the headline's 10 million); a
/// larger tail keeps one slot of its own, its key drawn and hashed per request.
const COUNTED_TAIL: u64 = 1 << 24;

/// Exact fidelity's draw of a request's partition without its key: an alias table over the
/// partitions of a resource, each weighted by the probability of the keys it holds (the head's
/// keys hashed one by one, the tail's counted one by one up to [`COUNTED_TAIL`] keys), plus a
/// slot for a tail too large to count, whose key is then drawn and hashed. A key's partition
/// is a function of the key, so this is the law of drawing the key and hashing it; it takes one
/// word a request (two in the uncounted tail) from a table the size of the partition count, where
/// the key draw read a table of up to 65,537 slots at random and hashed every key.
#[derive(Clone, Debug)]
pub(crate) struct PartitionDraw {
    /// Partitions of the resource when built (they only split: a new count is a new layout).
    partitions: usize,
    /// Slots `0..partitions`: the partitions; slot `partitions`: the uncounted tail.
    alias: AliasTable,
}

impl PartitionDraw {
    /// The draw for key space `ks` (popularity `dist`) over the partitions of `res`.
    fn new(dist: &KeyDist, res: &Resource, salt: u64, ks: usize) -> Self {
        let n = res.partition_count();
        let mut w = vec![0.0; n + 1];
        for (rank, &pr) in dist.head.iter().enumerate() {
            if pr > 0.0 {
                w[res.partition_of(key_hash(salt, ks as u64, rank as u64, 0))] += pr;
            }
        }
        let span = dist.tail_hi.saturating_sub(dist.tail_lo);
        if dist.tail_prob > 0.0 && span > 0 {
            if span <= COUNTED_TAIL {
                let mut counts = vec![0u32; n];
                if res.has_equal_ranges() {
                    count_keys_equal(salt, ks as u64, dist.tail_lo..dist.tail_hi, &mut counts);
                } else {
                    for rank in dist.tail_lo..dist.tail_hi {
                        counts[res.partition_of(key_hash(salt, ks as u64, rank, 0))] += 1;
                    }
                }
                let each = dist.tail_prob / span as f64;
                for (x, &c) in w.iter_mut().zip(&counts) {
                    *x += each * f64::from(c);
                }
            } else {
                w[n] = dist.tail_prob;
            }
        }
        Self { partitions: n, alias: AliasTable::new(&w) }
    }

    /// Hints the processor to fetch the slot [`Self::sample`] of `word` reads. Changes nothing.
    #[inline]
    fn prefetch(&self, word: u64) {
        self.alias.prefetch(word);
    }

    /// One request's partition of `res` from `word`, and in an uncounted tail a second word of
    /// `rng` for its key (its rank drawn as [`KeyDist::sample`] draws it).
    #[inline]
    fn sample(&self, word: u64, rng: &mut SimRng, res: &Resource, dist: &KeyDist, salt: u64, ks: usize) -> usize {
        let slot = self.alias.sample(word);
        if slot < self.partitions {
            return slot;
        }
        let span = dist.tail_hi - dist.tail_lo;
        let rank = dist.tail_lo + ((u128::from(rng.next_u64()) * u128::from(span)) >> 64) as u64;
        res.partition_of(key_hash(salt, ks as u64, rank, 0))
    }
}

/// Counts the keys `ranks` of key space `ks` into `counts`, one slot a partition of equal hash
/// ranges: [`Resource::partition_of`]'s `floor(h × n / 2⁶⁴)`, written in 32-bit halves (no
/// 128-bit product), so that the hashes of a block of keys are computed as vectors, with
/// AVX-512 or AVX2 where the processor has them (the headline's 10 million keys are most of
/// an exact run's set-up).
fn count_keys_equal(salt: u64, ks: u64, ranks: std::ops::Range<u64>, counts: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512dq") {
            // SAFETY: the processor has the features the function is compiled for.
            unsafe { count_keys_avx512(salt, ks, ranks, counts) };
            return;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            unsafe { count_keys_avx2(salt, ks, ranks, counts) };
            return;
        }
    }
    count_keys_blocks(salt, ks, ranks, counts);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn count_keys_avx512(salt: u64, ks: u64, ranks: std::ops::Range<u64>, counts: &mut [u32]) {
    count_keys_blocks(salt, ks, ranks, counts);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_keys_avx2(salt: u64, ks: u64, ranks: std::ops::Range<u64>, counts: &mut [u32]) {
    count_keys_blocks(salt, ks, ranks, counts);
}

/// [`count_keys_equal`] in blocks: the partitions of 1,024 keys (vectorisable), then their
/// counts.
#[inline(always)]
fn count_keys_blocks(salt: u64, ks: u64, ranks: std::ops::Range<u64>, counts: &mut [u32]) {
    const BLOCK: u64 = 1024;
    let n = counts.len() as u64;
    debug_assert!(n < 1 << 32);
    let mut parts = [0u32; BLOCK as usize];
    let mut lo = ranks.start;
    while lo < ranks.end {
        let len = (ranks.end - lo).min(BLOCK);
        for (k, slot) in parts[..len as usize].iter_mut().enumerate() {
            let h = key_hash(salt, ks, lo + k as u64, 0);
            // floor(h × n / 2⁶⁴) = floor((hi·n + floor(lo·n / 2³²)) / 2³²), hi and lo h's halves.
            let (hi, low) = ((h >> 32) * n, (h & 0xFFFF_FFFF) * n);
            *slot = ((hi + (low >> 32)) >> 32) as u32;
        }
        for &p in &parts[..len as usize] {
            counts[p as usize] += 1;
        }
        lo += len;
    }
}

/// A busy key: resource, key space, rank, requests per second, and the entity types whose
/// traffic lands on it (bit `e` for entity `e`).
pub(crate) struct HotKeyRate {
    pub(crate) res: usize,
    pub(crate) ks: usize,
    pub(crate) rank: u64,
    pub(crate) rate: f64,
    pub(crate) entities: u64,
}

/// Adds `mass` requests spread over many values (a tail of equally likely keys, or a key's
/// many shards) to the partitions of `res`, each by its share of the hash space: where
/// uniformly hashed values land. (Equal shares, `1/n`, would give the two halves of a split
/// partition a whole share each.)
fn add_by_range(w: &mut [f64], res: &Resource, mass: f64) {
    for (p, x) in w.iter_mut().enumerate() {
        let (lo, hi) = res.range(p);
        *x += mass * (hi - u128::from(lo)) as f64 / (1u128 << 64) as f64;
    }
}

/// Adds `mass` requests on the value hashing to `h` to the partitions of `res` that hold it: one
/// partition, or, for a collection spread uniformly over its sort keys, each partition holding
/// some of its items in proportion to how many.
fn add_mass(w: &mut [f64], res: &Resource, layout: Option<Span>, h: u64, mass: f64) {
    let Some(sp) = layout else {
        w[res.partition_of(h)] += mass;
        return;
    };
    let base = collection_base(h);
    if sp.newest {
        w[res.partition_of(item_position(base, sp.first + sp.len - 1, sp.items))] += mass;
        return;
    }
    let (first, last) = if sp.whole() {
        (res.partition_of(base), res.partition_of(base + (COLLECTION_WIDTH - 1)))
    } else {
        (res.partition_of(item_position(base, sp.first, sp.items)), res.partition_of(item_position(base, sp.first + sp.len - 1, sp.items)))
    };
    if first == last {
        w[first] += mass;
        return;
    }
    for (p, x) in w.iter_mut().enumerate().take(last + 1).skip(first) {
        let (lo, hi) = res.range(p);
        let n = sp.before(base, hi) - sp.before(base, u128::from(lo));
        *x += mass * n as f64 / sp.len as f64;
    }
}

/// The items of a collection that a pattern's requests land on: `len` of its `items` from
/// the `first`, uniformly or on the newest.
#[derive(Clone, Copy, Debug)]
struct Span {
    items: u64,
    first: u64,
    len: u64,
    newest: bool,
}

impl Span {
    fn of(sk: SortKeys, segment: Option<(u64, u64, bool)>) -> Self {
        match segment {
            // Validation places each entity's items inside its key space's collection.
            Some((first, len, newest)) => Span { items: sk.items, first, len, newest },
            None => Span { items: sk.items, first: 0, len: sk.items, newest: sk.newest },
        }
    }

    /// Where a request to the value hashing to `h` lands: the newest item, or one of the span
    /// drawn from `rng`.
    #[inline]
    fn land(&self, h: u64, rng: &mut SimRng) -> u64 {
        let s = if self.newest { self.first + self.len - 1 } else { self.first + rng.random_range(0..self.len) };
        item_position(collection_base(h), s, self.items)
    }

    fn whole(&self) -> bool {
        self.first == 0 && self.len == self.items
    }

    /// The span's items of the collection at `base` placed before position `x`.
    fn before(&self, base: u64, x: u128) -> u64 {
        items_before(base, self.items, x).saturating_sub(self.first).min(self.len)
    }
}

/// The points (position, requests/s) `mass` requests on the value hashing to `h` put inside
/// `[lo, hi)`: the value itself, or its items there, grouped into at most 16 points.
fn push_points(points: &mut Vec<(u64, f64)>, layout: Option<Span>, h: u64, mass: f64, lo: u64, hi: u128) {
    let inside = |x: u64| x >= lo && u128::from(x) < hi;
    let Some(sp) = layout else {
        if inside(h) {
            points.push((h, mass));
        }
        return;
    };
    let base = collection_base(h);
    if sp.newest {
        let x = item_position(base, sp.first + sp.len - 1, sp.items);
        if inside(x) {
            points.push((x, mass));
        }
        return;
    }
    let a = sp.before(base, u128::from(lo));
    let k = sp.before(base, hi) - a;
    let n = k.min(COLLECTION_POINTS);
    for c in 0..n {
        let (s0, s1) = (a + c * k / n, a + (c + 1) * k / n);
        points.push((item_position(base, sp.first + (s0 + s1 - 1) / 2, sp.items), mass * (s1 - s0) as f64 / sp.len as f64));
    }
}

#[cfg(test)]
mod split_tests {
    use super::*;
    use rand::SeedableRng;

    /// The split is a multinomial: the total is exact, and each partition's count has mean
    /// n p and variance n p (1 - p). 1,000 requests over weights 5 : 3 : 2 : 0, 4,000 times:
    /// means 500, 300, 200, 0 and variances 250, 210, 160 (the standard error of a variance
    /// estimate from 4,000 draws is about 2.2 %). So whatever the first draws' means: summing
    /// to the count, or tabulated for 1,000, 700 (requests added) or 1,300 (removed) requests,
    /// or for 1,300 with no room for tables (drawn one by one from the same means).
    #[test]
    fn the_split_is_a_multinomial() {
        let w = [0.5, 0.3, 0.2, 0.0];
        let cum = [0.5, 0.8, 1.0, 1.0];
        for rate in [None, Some((1_000.0, usize::MAX)), Some((700.0, usize::MAX)), Some((1_300.0, usize::MAX)), Some((1_300.0, 0))] {
            let tables = rate.map(|(r, slots)| {
                let mut t = PoissonTables::default();
                t.build(w.iter().map(|w| w * r), slots);
                (t, r)
            });
            let mut rng = SimRng::seed_from_u64(7);
            let mut counts = Vec::new();
            let (mut sum, mut sq) = ([0.0f64; 4], [0.0f64; 4]);
            let reps = 4_000;
            for _ in 0..reps {
                split_counts(&mut rng, &w, &cum, 1_000, &mut counts, tables.as_ref().map(|(t, r)| (t, *r)));
                assert_eq!(counts.iter().sum::<u64>(), 1_000);
                assert_eq!(counts[3], 0);
                for (i, &c) in counts.iter().enumerate() {
                    sum[i] += c as f64;
                    sq[i] += (c as f64) * (c as f64);
                }
            }
            for (i, p) in [0.5, 0.3, 0.2].into_iter().enumerate() {
                let mean = sum[i] / reps as f64;
                let var = sq[i] / reps as f64 - mean * mean;
                assert!((mean - 1_000.0 * p).abs() < 1.0, "tables for {rate:?}, partition {i}: mean {mean}");
                let want = 1_000.0 * p * (1.0 - p);
                assert!((var / want - 1.0).abs() < 0.09, "tables for {rate:?}, partition {i}: variance {var}, want {want}");
            }
        }
    }

    #[test]
    fn fenwick_finds_by_rank() {
        let mut t = Fenwick::new(&[2, 0, 3, 1]);
        let found: Vec<usize> = (0..6).map(|r| t.find(r)).collect();
        assert_eq!(found, vec![0, 0, 2, 2, 2, 3]);
        t.remove_one(2);
        let found: Vec<usize> = (0..5).map(|r| t.find(r)).collect();
        assert_eq!(found, vec![0, 0, 2, 2, 3]);
    }
}

#[cfg(test)]
mod partition_draw_tests {
    use super::*;
    use crate::scenario::{CapacitySpec, KeySpaceSpec, Popularity};
    use rand::SeedableRng;

    /// The block count of keys on equal ranges (vectorised where the processor allows) is the
    /// partition of each key's hash, one by one, for 1, 7, 1,001 and 100,000 partitions and a
    /// range of keys not a multiple of the block.
    #[test]
    fn keys_counted_in_blocks_are_keys_counted_one_by_one() {
        for n in [1u64, 7, 1_001, 100_000] {
            let res = Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000 * n - 3, write: 1 }, 0, true, false);
            assert_eq!(res.partition_count() as u64, n);
            assert!(res.has_equal_ranges());
            let (salt, ks, ranks) = (0x5EED_u64.wrapping_mul(n), 3, 65_536..65_536 + 300_007);
            let mut blocks = vec![0u32; n as usize];
            count_keys_equal(salt, ks, ranks.clone(), &mut blocks);
            let mut one = vec![0u32; n as usize];
            for rank in ranks {
                one[res.partition_of(key_hash(salt, ks, rank, 0))] += 1;
            }
            assert_eq!(blocks, one, "{n} partitions");
            let mut plain = vec![0u32; n as usize];
            count_keys_blocks(salt, ks, 65_536..65_536 + 300_007, &mut plain);
            assert_eq!(plain, one, "{n} partitions, without vectors");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut avx2 = vec![0u32; n as usize];
                // SAFETY: the processor has AVX2.
                unsafe { count_keys_avx2(salt, ks, 65_536..65_536 + 300_007, &mut avx2) };
                assert_eq!(avx2, one, "{n} partitions, AVX2");
            }
        }
    }

    /// A replayed second's requests are numbered in arrival order, pattern by pattern, as exact
    /// mode numbers them (ties at a microsecond go to the lower number): two patterns' counts
    /// over three partitions, spread, give each pattern's requests consecutive numbers rising
    /// with their times, the first pattern's all below the second's.
    #[test]
    fn a_replayed_seconds_requests_are_numbered_by_arrival() {
        let sc = crate::scenario::parse_str(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 9000, write = 1 }\n\
             [keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"a\"\nop = \"get_item\"\nitem_bytes = 100\nrate = { constant = 10 }\n\
             [[pattern]]\nname = \"b\"\nop = \"get_item\"\nitem_bytes = 100\nrate = { constant = 10 }\n",
            std::path::Path::new("t.toml"),
        )
        .expect("valid");
        let mut t = Traffic::new(&sc, &RngStreams::new(1, 0));
        let counts = |pat: u32| (0..3).map(move |part| SimpleCount { pat, part, count: 400, units: 500, gsi: None });
        let simple: Vec<SimpleCount> = counts(0).chain(counts(1)).collect();
        let mut batch = Vec::new();
        t.spread(7, &simple, &mut batch);
        assert_eq!(batch.len(), 2_400);
        for (pat, run) in batch.chunks(1_200).enumerate() {
            assert!(run.iter().all(|a| a.pat == pat as u32), "pattern {pat}'s requests together");
            assert!(run.windows(2).all(|w| w[1].seq == w[0].seq + 1 && w[0].time <= w[1].time), "pattern {pat}: numbers follow times");
            assert!(run.iter().all(|a| (7_000_000..8_000_000).contains(&a.time.as_micros())));
        }
        assert_eq!(batch[1_199].seq + 1, batch[1_200].seq);
        // The draw order was partition by partition: sorted, the partitions interleave.
        assert!(batch[..1_200].windows(2).any(|w| w[0].charges.as_slice()[0].part > w[1].charges.as_slice()[0].part));
    }

    /// Fast mode's weights of a tail spread over partitions of unequal ranges: five equal
    /// partitions (a uniform space of 10^6 keys: all tail) with the second split at a quarter
    /// of its range hold 1/5, 1/20, 3/20, 1/5, 1/5 and 1/5 of the requests (equal shares would
    /// be 1/6 each: the split halves 1/3 where they hold 1/5).
    #[test]
    fn fast_mode_spreads_a_tail_by_range() {
        let sc = crate::scenario::parse_str(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 12000, write = 1 }\n\
             [keys.k]\ncardinality = 1000000\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nitem_bytes = 100\nrate = { constant = 10 }\n",
            std::path::Path::new("t.toml"),
        )
        .expect("valid");
        let mut t = Traffic::new(&sc, &RngStreams::new(1, 0));
        let mut res = Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 12_000, write: 1 }, 0, true, false);
        assert_eq!(res.partition_count(), 5, "ceil(12,000 / 3,000 + 1 / 1,000) partitions");
        let (lo, hi) = res.range(1);
        res.split(1, (u128::from(lo) + (hi - u128::from(lo)) / 4) as u64, 0.25);
        t.refresh_weights(0, 0, &res);
        let want = [0.2, 0.05, 0.15, 0.2, 0.2, 0.2];
        for (p, (&got, want)) in t.state[0].weights.iter().zip(want).enumerate() {
            assert!((got - want).abs() < 1e-9, "partition {p}: {got}, want {want}");
        }
    }

    /// 400,000 partitions drawn by [`PartitionDraw`] and 400,000 by drawing the key and hashing
    /// it, over nine partitions of unequal ranges (one of eight split at a quarter of its
    /// range): each partition's two counts within five standard deviations of their
    /// difference. A Zipf(0.9) space of 200,000 keys (65,536 in the head, the rest a counted
    /// tail) and a uniform space of 2^24 + 2^20 keys (a tail too large to count: its key drawn).
    #[test]
    fn the_partition_draw_is_the_key_draws_law() {
        let mut res = Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 21_000, write: 1_000 }, 0, true, false);
        assert_eq!(res.partition_count(), 8);
        let (lo, hi) = res.range(3);
        res.split(3, (u128::from(lo) + (hi - u128::from(lo)) / 4) as u64, 0.25);
        let spaces = [(200_000, Popularity::Zipf(0.9)), ((1 << 24) + (1 << 20), Popularity::Uniform)];
        for (card, popularity) in spaces {
            let spec = KeySpaceSpec {
                name: "k".into(),
                cardinality: card,
                popularity,
                value_names: vec![],
                shards: None,
                sort_keys: None,
                popularity_from: crate::scenario::PopularityFrom::Stated,
                cardinality_from: crate::scenario::CardinalityFrom::Stated,
            };
            let dist = KeyDist::new(&spec, 0);
            let (salt, ks) = (0x5eed, 2);
            let draw = PartitionDraw::new(&dist, &res, salt, ks);
            let n = 400_000;
            let mut by_part = [0u64; 9];
            let mut rng = SimRng::seed_from_u64(1);
            for _ in 0..n {
                let word = rng.next_u64();
                by_part[draw.sample(word, &mut rng, &res, &dist, salt, ks)] += 1;
            }
            let mut by_key = [0u64; 9];
            let mut rng = SimRng::seed_from_u64(2);
            for _ in 0..n {
                let rank = dist.sample(rng.next_u64(), rng.next_u64(), 0);
                by_key[res.partition_of(key_hash(salt, ks as u64, rank, 0))] += 1;
            }
            for p in 0..9 {
                let (a, b) = (by_part[p] as f64, by_key[p] as f64);
                assert!((a - b).abs() < 5.0 * (a + b).sqrt(), "{card} keys, partition {p}: {a} by partition vs {b} by key");
            }
            // The quarter-range partition holds about a quarter of its parent's traffic.
            assert!(by_key[3] * 2 < by_key[4], "{card} keys: the split partitions {} and {}", by_key[3], by_key[4]);
        }
    }
}
