//! The simulation loop: one scenario, one seed, one replication, single-threaded.
//!
//! Time advances a second at a time, because DynamoDB enforces throughput per second: each
//! second opens fresh admission windows ([`crate::model::resource`]). Within a second:
//!
//! * **exact** fidelity draws every request — a Poisson number per pattern, each with a uniform
//!   arrival time, a key from the key space's popularity and an item size — merges them with the
//!   retries due in the second (a `(time, seq)` queue) and admits them one by one in time order.
//! * **fast** fidelity (the default) first draws only how many requests each pattern sends to
//!   each partition. When the second's whole demand fits every partition cap and the table-level
//!   budget, the outcome does not depend on the order of arrival: the second is admitted in bulk.
//!   Otherwise the same counts are given uniform arrival times and replayed request by request.
//!   A Poisson process is a Poisson count with uniform times, split by partition, so both paths
//!   have the distribution of the exact model; only the random draws differ.
//!
//! Requests that touch several items or indexes (batches, transactions, writes to GSIs) are
//! always drawn one by one.

mod control;
mod indexes;
pub mod queue;

pub use indexes::{CollectionInfo, COLLECTION_LIMIT_BYTES};

use crate::metrics::{PartitionMinute, PatternTotals, Recorder, ResourceMinute};
use crate::model::client::{AfterThrottle, Client};
use crate::model::resource::{Mode, Resource};
use crate::model::{CapacityMode, Dim, Reason};
use crate::rng::{RngStreams, Stream};
use crate::scenario::{Fidelity, IndexRef, Op, PatternSpec, Projection, Scenario, Shards, SizeSpec};
use crate::time::{SimDuration, MICROS_PER_SEC};
use crate::traffic::keys::{key_hash, KeyDist, HEAD_KEYS};
use crate::traffic::poisson::poisson;
use crate::traffic::rate::rate_at;
use crate::units::{self, Consistency, MAX_ITEM_BYTES, MILLI};
use queue::{EventQueue, Keyed};
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Exp1, LogNormal};

/// Bytes of keys in an index entry (base-table key plus index key), before projected attributes.
pub const INDEX_KEY_BYTES: u64 = 100;
/// Most shards whose partitions the fast path tracks one by one; more are spread evenly.
const MAX_TRACKED_SHARDS: u64 = 64;

/// Options of one run that override the scenario.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Master seed instead of the scenario's.
    pub seed: Option<u64>,
    /// Fidelity instead of the scenario's.
    pub fidelity: Option<Fidelity>,
    /// Duration instead of the scenario's.
    pub duration: Option<SimDuration>,
    /// Replication number (0 for a single run).
    pub replication: u64,
    /// Record per-partition minutes (large for big tables).
    pub record_partitions: bool,
    /// Simulated seconds done, updated every minute (for a progress bar in another thread).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Seed used.
    pub seed: u64,
    /// Fidelity used.
    pub fidelity: Fidelity,
    /// Simulated seconds.
    pub duration_s: u64,
    /// Resource names, table first.
    pub resource_names: Vec<String>,
    /// Which resources are GSIs.
    pub resource_is_index: Vec<bool>,
    /// Capacity mode of each resource at the end ("provisioned" or "on_demand").
    pub resource_modes: Vec<&'static str>,
    /// Bytes stored in each resource at the end.
    pub resource_bytes: Vec<u64>,
    /// The recorded series and totals.
    pub rec: Recorder,
    /// Capacity changes, splits and refused actions, in time order.
    pub events: Vec<CapacityEvent>,
    /// Seconds admitted in bulk (fast mode) and replayed request by request.
    pub bulk_seconds: u64,
    /// Seconds replayed request by request.
    pub replayed_seconds: u64,
    /// The busiest keys by requests per second, busiest first.
    pub hot_keys: Vec<HotKey>,
    /// Per resource: GSI propagation delay of the index writes applied, ms (p50, p99, max).
    pub index_lag_ms: Vec<Option<[f64; 3]>>,
    /// Per pattern with `after_write`: share of its index reads that miss the item.
    pub stale_read_share: Vec<Option<f64>>,
    /// Item collections above 1 GB or with refused writes (LSI tables).
    pub item_collections: Vec<CollectionInfo>,
}

/// A busy key: where it lives and how much traffic it draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HotKey {
    /// Table or index name.
    pub resource: String,
    /// Key label: `space#rank` (1 = most popular) or the explicit value's name.
    pub key: String,
    /// Partition holding it (its first shard) at the end of the run.
    pub partition: usize,
    /// Requests per second it received on average (all shards).
    pub requests_per_s: f64,
}

/// A change of capacity or partitions during a run (for `summary.json` and the charts).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CapacityEvent {
    /// Simulated second.
    pub time_s: u64,
    /// Table or index name.
    pub resource: String,
    /// `scale_out`, `scale_in`, `set_capacity`, `refused_decrease`, `switch_mode`, `prewarm`,
    /// `split_for_size`, `split_for_heat`, `heat_split_skipped`, `partitions_added`.
    pub action: &'static str,
    /// `read`, `write` or empty.
    pub dimension: &'static str,
    /// Value before (units per second, or partitions).
    pub old: f64,
    /// Value after.
    pub new: f64,
    /// A word of explanation.
    pub detail: String,
}

#[derive(Clone, Copy, Debug)]
struct Charge {
    res: u16,
    dim: Dim,
    part: u32,
    units: u64,
}

#[derive(Clone, Debug)]
enum Charges {
    One(Charge),
    Many(Box<[Charge]>),
}

impl Charges {
    fn as_slice(&self) -> &[Charge] {
        match self {
            Charges::One(c) => std::slice::from_ref(c),
            Charges::Many(v) => v,
        }
    }
}

#[derive(Clone, Debug)]
struct Attempt {
    time: u64,
    seq: u64,
    first: u64,
    pat: u32,
    n: u32,
    /// Rank of the partition-key value (item collections of LSI tables).
    key: u64,
    charges: Charges,
}

impl Keyed for Attempt {
    fn key(&self) -> (u64, u64) {
        (self.time, self.seq)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// One item on one partition: eligible for per-partition counts.
    Simple,
    /// Several charges, all admitted or none (transactions, writes with GSIs).
    AllOrNothing,
    /// Several items admitted one by one (BatchGetItem, BatchWriteItem).
    Batch,
}

struct GsiWrite {
    /// Bytes a successful write adds to the index (entry + 100 bytes for an insert).
    delta: i64,
    res: usize,
    key_space: usize,
    writes: u64,
    coverage: f64,
    projection: Projection,
}

struct Pat {
    op: Op,
    kind: Kind,
    res: usize,
    dim: Dim,
    key_space: Option<usize>,
    shards: Option<Shards>,
    fanout: u64,
    size: SizeSpec,
    lognormal: Option<LogNormal<f64>>,
    items_per_attempt: u64,
    consistency: Consistency,
    fixed_units: Option<u64>,
    lsi_projections: Vec<Projection>,
    gsi: Vec<GsiWrite>,
    factor: f64,
    /// Bytes a write adds to its item collection (LSI tables, put_item only).
    collection_growth: Option<u64>,
    /// Bytes each admitted item adds to (or removes from) the table.
    base_delta: i64,
    weights: Vec<f64>,
    weights_key: (u64, usize),
}

/// Set (by the command line's Ctrl-C handler) to stop every run at its next simulated minute.
pub static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Has a stop been asked for?
#[must_use]
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Runs a scenario.
#[must_use]
pub fn simulate(sc: &Scenario, opts: &RunOptions) -> RunResult {
    let mut sim = Sim::new(sc, opts);
    sim.run();
    sim.finish()
}

struct Sim<'a> {
    sc: &'a Scenario,
    progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    seed: u64,
    fidelity: Fidelity,
    duration_s: u64,
    start_s_of_day: u64,
    res: Vec<Resource>,
    pats: Vec<Pat>,
    dists: Vec<KeyDist>,
    salt: u64,
    rng_arr: Vec<ChaCha8Rng>,
    rng_keys: Vec<ChaCha8Rng>,
    rng_sizes: Vec<ChaCha8Rng>,
    rng_jitter: ChaCha8Rng,
    queue: EventQueue<Attempt>,
    seq: u64,
    client: Client,
    rec: Recorder,
    cur: Vec<ResourceMinute>,
    minute_latency: crate::metrics::Histogram,
    record_partitions: bool,
    next_action: usize,
    ctl: Vec<control::Control>,
    pending: Vec<(u64, control::Pending)>,
    events: Vec<CapacityEvent>,
    /// Per resource: the GSI exists (the table always does).
    gsi_active: Vec<bool>,
    /// Per resource: propagation of a GSI.
    propagation: Vec<Option<indexes::Propagation>>,
    /// Per resource: a backfill in progress.
    backfill: Vec<Option<indexes::Backfill>>,
    /// Per resource: backfill milli-units this second.
    backfill_second: Vec<u64>,
    /// Per resource: a backfill completed.
    online_done: Vec<bool>,
    /// Item collections of LSI tables: (key space, rank) -> (bytes, refused writes).
    collections: std::collections::BTreeMap<(usize, u64), (u64, u64)>,
    /// Bytes every collection holds at the start.
    collection_start: u64,
    bulk_seconds: u64,
    replayed_seconds: u64,
    // Scratch buffers, reused every second.
    batch: Vec<Attempt>,
    simple: Vec<(u32, u32, u64, u64)>,
    demand: Vec<[Vec<u64>; 2]>,
    touched: Vec<(u16, u8, u32)>,
}

impl<'a> Sim<'a> {
    fn new(sc: &'a Scenario, opts: &RunOptions) -> Self {
        let seed = opts.seed.unwrap_or(sc.seed);
        let streams = RngStreams::new(seed, opts.replication);
        let fidelity = opts.fidelity.unwrap_or(sc.fidelity);
        let duration_s = opts.duration.unwrap_or(sc.duration).as_secs().max(1);
        let mut res = vec![Resource::new(
            sc.table.name.clone(),
            false,
            &sc.table.capacity,
            sc.table.storage_bytes,
            sc.table.initial_burst_full,
            sc.table.linear_partition_limit,
        )];
        // Index entries of the items already in the table: a GSI holds `coverage` of them, each
        // sized by its projection plus 100 bytes (spec §1.3), relative to the mean item written.
        let mean_item = sc.patterns.iter().find(|p| p.op.is_write()).map_or(1_024, |p| mean_bytes(p.size)) as f64;
        for g in &sc.gsis {
            let entry = index_entry_bytes(g.projection, mean_item as u64) as f64;
            let bytes = sc.table.storage_bytes as f64 * g.coverage * (entry + ITEM_OVERHEAD_BYTES as f64)
                / (mean_item + ITEM_OVERHEAD_BYTES as f64);
            res.push(Resource::new(
                g.name.clone(),
                true,
                &g.capacity,
                bytes as u64,
                sc.table.initial_burst_full,
                sc.table.linear_partition_limit,
            ));
        }
        let dists: Vec<KeyDist> = sc.key_spaces.iter().map(KeyDist::new).collect();
        let pats = sc.patterns.iter().map(|p| compile_pattern(sc, p)).collect();
        let n = sc.patterns.len() as u64;
        let demand = res.iter().map(|r| [vec![0; r.partition_count()], vec![0; r.partition_count()]]).collect();
        let cur = vec![ResourceMinute::default(); res.len()];
        let ctl = res
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let scaling = if i == 0 { sc.table.autoscaling.as_ref() } else { sc.gsis[i - 1].autoscaling.as_ref() };
                control::Control::new(r, scaling, sc.table.on_demand_doubling_minutes)
            })
            .collect();
        Self {
            sc,
            progress: opts.progress.clone(),
            seed,
            fidelity,
            duration_s,
            start_s_of_day: sc.start_unix_s.rem_euclid(86_400) as u64,
            pats,
            dists,
            salt: streams.placement_salt(),
            rng_arr: (0..n).map(|i| streams.rng(Stream::Arrivals, i)).collect(),
            rng_keys: (0..n).map(|i| streams.rng(Stream::Keys, i)).collect(),
            rng_sizes: (0..n).map(|i| streams.rng(Stream::Sizes, i)).collect(),
            rng_jitter: streams.rng(Stream::Jitter, 0),
            queue: EventQueue::default(),
            seq: 0,
            client: Client::new(sc.client),
            rec: Recorder {
                resources: vec![Vec::new(); res.len()],
                patterns: vec![PatternTotals::default(); sc.patterns.len()],
                ..Recorder::default()
            },
            res,
            cur,
            minute_latency: crate::metrics::Histogram::default(),
            record_partitions: opts.record_partitions,
            next_action: 0,
            ctl,
            gsi_active: std::iter::once(true).chain(sc.gsis.iter().map(|g| !g.added_during_run)).collect(),
            propagation: std::iter::once(None)
                .chain(sc.gsis.iter().enumerate().map(|(i, g)| {
                    Some(indexes::Propagation::new(
                        g.propagation_median_us,
                        g.propagation_p99_us,
                        streams.rng(Stream::Propagation, i as u64),
                    ))
                }))
                .collect(),
            backfill: (0..=sc.gsis.len()).map(|_| None).collect(),
            backfill_second: vec![0; sc.gsis.len() + 1],
            online_done: vec![false; sc.gsis.len() + 1],
            collections: std::collections::BTreeMap::new(),
            collection_start: sc.table.storage_bytes / sc.key_spaces.get(sc.table.partition_key).map_or(1, |k| k.cardinality.max(1)),
            pending: Vec::new(),
            events: Vec::new(),
            bulk_seconds: 0,
            replayed_seconds: 0,
            batch: Vec::new(),
            simple: Vec::new(),
            demand,
            touched: Vec::new(),
        }
    }

    fn run(&mut self) {
        for s in 0..self.duration_s {
            self.apply_actions(s);
            self.apply_pending(s);
            self.run_backfills(s);
            self.second(s);
            for (r, res) in self.res.iter_mut().enumerate() {
                let backfill = std::mem::take(&mut self.backfill_second[r]);
                if let Some(b) = &mut self.backfill[r] {
                    b.live_last_second = res.second_consumed[1].saturating_sub(backfill);
                }
                let on_demand = matches!(res.mode, Mode::OnDemand { .. });
                let cur = &mut self.cur[r];
                for d in Dim::ALL {
                    let i = d as usize;
                    let online = if d == Dim::Write { backfill } else { 0 };
                    let consumed = res.second_consumed[i] - online;
                    cur.consumed[i] += consumed;
                    if on_demand {
                        cur.on_demand_consumed[i] += consumed;
                    } else {
                        cur.provisioned_unit_seconds[i] += res.provisioned(d);
                        cur.provisioned[i] = res.provisioned(d);
                    }
                }
                if !on_demand {
                    cur.provisioned_seconds += 1;
                }
                res.end_second();
            }
            if (s + 1) % 60 == 0 {
                self.end_minute(s / 60);
                self.control_minute(s + 1);
                if let Some(p) = &self.progress {
                    p.store(s + 1, std::sync::atomic::Ordering::Relaxed);
                }
                if interrupted() {
                    return;
                }
            }
        }
        if self.duration_s % 60 != 0 {
            self.end_minute(self.duration_s / 60);
        }
        let pending: Vec<Attempt> = self.queue.drain().collect();
        for a in pending {
            self.rec.patterns[a.pat as usize].pending_at_end += 1;
        }
    }

    fn hot_keys(&self) -> Vec<HotKey> {
        let mut acc: std::collections::BTreeMap<(usize, usize, u64), f64> = std::collections::BTreeMap::new();
        for (j, p) in self.pats.iter().enumerate() {
            let Some(ks) = p.key_space else { continue };
            let dist = &self.dists[ks];
            let rate = self.rec.patterns[j].offered as f64 / self.duration_s as f64;
            if dist.sequential_period_s.is_some() {
                *acc.entry((p.res, ks, (self.duration_s - 1) / dist.sequential_period_s.unwrap_or(1))).or_default() += rate;
                continue;
            }
            let mut ranked: Vec<(usize, f64)> = dist.head.iter().copied().enumerate().collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (rank, pr) in ranked.into_iter().take(5) {
                *acc.entry((p.res, ks, rank as u64)).or_default() += rate * pr;
            }
        }
        let mut v: Vec<((usize, usize, u64), f64)> = acc.into_iter().collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v.into_iter()
            .take(5)
            .map(|((res, ks, rank), rate)| {
                let space = &self.sc.key_spaces[ks];
                let key = space.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", space.name, rank + 1));
                HotKey {
                    resource: self.res[res].name.clone(),
                    key,
                    partition: self.res[res].partition_of(key_hash(self.salt, ks as u64, rank, 0)),
                    requests_per_s: (rate * 100.0).round() / 100.0,
                }
            })
            .collect()
    }

    fn finish(self) -> RunResult {
        let index_lag_ms = self
            .propagation
            .iter()
            .map(|p| {
                p.as_ref()
                    .filter(|p| p.delays.count() > 0)
                    .map(|p| [p.delays.quantile(0.5), p.delays.quantile(0.99), p.delays.max()].map(|us| us as f64 / 1_000.0))
            })
            .collect();
        let stale_read_share = self
            .sc
            .patterns
            .iter()
            .map(|p| match (p.after_write, p.index) {
                (Some(d), Some(IndexRef::Gsi(g))) => self.propagation[g + 1].as_ref().map(|pr| pr.delays.share_above(d.as_micros())),
                _ => None,
            })
            .collect();
        RunResult {
            index_lag_ms,
            stale_read_share,
            item_collections: self.collection_report(),
            hot_keys: self.hot_keys(),
            seed: self.seed,
            fidelity: self.fidelity,
            duration_s: self.duration_s,
            resource_names: self.res.iter().map(|r| r.name.clone()).collect(),
            resource_is_index: self.res.iter().map(|r| r.is_index).collect(),
            resource_modes: self
                .res
                .iter()
                .map(|r| if matches!(r.mode, Mode::OnDemand { .. }) { "on_demand" } else { "provisioned" })
                .collect(),
            resource_bytes: self.res.iter().map(|r| r.parts.iter().map(|p| p.bytes).sum()).collect(),
            rec: self.rec,
            events: self.events,
            bulk_seconds: self.bulk_seconds,
            replayed_seconds: self.replayed_seconds,
        }
    }

    fn end_minute(&mut self, minute: u64) {
        let secs = (self.duration_s - minute * 60).min(60);
        for r in 0..self.res.len() {
            let mut m = std::mem::take(&mut self.cur[r]);
            let res = &self.res[r];
            m.mode = if matches!(res.mode, Mode::OnDemand { .. }) { CapacityMode::OnDemand } else { CapacityMode::Provisioned };
            for d in Dim::ALL {
                m.capacity[d as usize] = res.limit_milli(d) / MILLI;
                m.warm[d as usize] = self.ctl[r].warm_of(d);
            }
            m.partitions = res.partition_count() as u64;
            m.stored_bytes = res.parts.iter().map(|p| p.bytes).sum();
            m.online_progress_bp = self.backfill_progress_bp(r);
            if let Some(p) = &mut self.propagation[r] {
                m.lag_p99_us = p.minute.quantile(0.99);
                p.minute = crate::metrics::Histogram::default();
            }
            self.rec.resources[r].push(m);
            let caps = [crate::scenario::PARTITION_READ_CAP * MILLI * secs, crate::scenario::PARTITION_WRITE_CAP * MILLI * secs];
            let mut util = Vec::with_capacity(res.partition_count());
            for (p, part) in self.res[r].parts.iter_mut().enumerate() {
                if self.record_partitions {
                    self.rec.partitions.push(PartitionMinute {
                        minute: minute as u32,
                        resource: r as u16,
                        partition: p as u32,
                        consumed: part.minute_consumed,
                        throttles: part.minute_throttles,
                    });
                }
                util.push((part.minute_consumed[0] as f64 / caps[0] as f64).max(part.minute_consumed[1] as f64 / caps[1] as f64));
                part.minute_consumed = [0; 2];
                part.minute_throttles = [0; 2];
            }
            if secs == 60 {
                self.track_heat((minute + 1) * 60, r, &util);
            }
        }
        let h = &self.minute_latency;
        self.rec.latency_by_minute.push([h.quantile(0.5), h.quantile(0.99), h.max()]);
        self.minute_latency = crate::metrics::Histogram::default();
    }

    fn lambda(&self, j: usize, s: u64) -> f64 {
        rate_at(&self.sc.patterns[j].rate, s, self.start_s_of_day) * self.pats[j].factor
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    // ---------------------------------------------------------------- drawing requests

    fn draw_size(&mut self, j: usize) -> u64 {
        let p = &self.pats[j];
        match (p.size, &p.lognormal) {
            (SizeSpec::Fixed(b), _) => b,
            (_, Some(ln)) => (ln.sample(&mut self.rng_sizes[j]).round() as u64).clamp(1, MAX_ITEM_BYTES),
            (SizeSpec::LogNormal { mean, .. }, None) => mean as u64,
        }
    }

    /// Units of one attempt of a single-item pattern.
    fn simple_units(&mut self, j: usize) -> u64 {
        if let Some(u) = self.pats[j].fixed_units {
            return u;
        }
        let items = self.pats[j].items_per_attempt;
        let bytes = match self.pats[j].op {
            Op::Query | Op::Scan => {
                if items <= 32 {
                    (0..items).map(|_| self.draw_size(j)).sum()
                } else if let SizeSpec::LogNormal { mean, .. } = self.pats[j].size {
                    (mean * items as f64) as u64
                } else {
                    0
                }
            }
            _ => self.draw_size(j),
        };
        units_of(&self.pats[j], bytes)
    }

    fn key_partition(&mut self, j: usize, res: usize, ks: usize, s: u64, shard_draw: bool) -> (u64, usize) {
        let r1 = self.rng_keys[j].next_u64();
        let r2 = self.rng_keys[j].next_u64();
        let rank = self.dists[ks].sample(r1, r2, s);
        let shards = self.sc.key_spaces[ks].shards;
        let shard = match shards {
            Some(sh) if shard_draw && sh.count > 1 => self.rng_keys[j].random_range(0..sh.count),
            _ => 0,
        };
        let h = key_hash(self.salt, ks as u64, rank, shard);
        (rank, self.res[res].partition_of(h))
    }

    /// Draws one request of pattern `j` arriving at `time` into `out` (several attempts when a
    /// read fans out over random shards).
    fn draw_request(&mut self, j: usize, s: u64, time: u64, out: &mut Vec<Attempt>) {
        let (kind, res, dim, ks, fanout, items, op) = {
            let p = &self.pats[j];
            (p.kind, p.res, p.dim, p.key_space, p.fanout, p.items_per_attempt, p.op)
        };
        match kind {
            Kind::Simple => {
                let push = |sim: &mut Self, out: &mut Vec<Attempt>, part: usize| {
                    let units = sim.simple_units(j);
                    let seq = sim.next_seq();
                    out.push(Attempt {
                        time,
                        seq,
                        first: time,
                        pat: j as u32,
                        n: 1,
                        key: 0,
                        charges: Charges::One(Charge { res: res as u16, dim, part: part as u32, units }),
                    });
                };
                match ks {
                    None => {
                        let part = self.rng_keys[j].random_range(0..self.res[res].partition_count());
                        push(self, out, part);
                    }
                    Some(ks) if fanout > 1 => {
                        let r1 = self.rng_keys[j].next_u64();
                        let r2 = self.rng_keys[j].next_u64();
                        let rank = self.dists[ks].sample(r1, r2, s);
                        for sh in 0..fanout {
                            let part = self.res[res].partition_of(key_hash(self.salt, ks as u64, rank, sh));
                            push(self, out, part);
                        }
                    }
                    Some(ks) => {
                        let part = self.key_partition(j, res, ks, s, true).1;
                        push(self, out, part);
                    }
                }
            }
            Kind::AllOrNothing | Kind::Batch => {
                let mut charges = Vec::with_capacity(items as usize * (1 + self.pats[j].gsi.len()));
                let mut key = 0;
                for _ in 0..items {
                    let part = match ks {
                        Some(ks) => {
                            let (rank, part) = self.key_partition(j, res, ks, s, op.is_write());
                            key = rank;
                            part
                        }
                        None => self.rng_keys[j].random_range(0..self.res[res].partition_count()),
                    };
                    let bytes = self.draw_size(j);
                    let units = units_of(&self.pats[j], bytes);
                    charges.push(Charge { res: res as u16, dim, part: part as u32, units });
                    for g in 0..self.pats[j].gsi.len() {
                        let (gres, gks, writes, coverage, projection) = {
                            let w = &self.pats[j].gsi[g];
                            (w.res, w.key_space, w.writes, w.coverage, w.projection)
                        };
                        if !self.gsi_active[gres] || (coverage < 1.0 && self.rng_keys[j].random::<f64>() >= coverage) {
                            continue;
                        }
                        let (_, gpart) = self.key_partition(j, gres, gks, s, true);
                        let entry = index_entry_bytes(projection, bytes);
                        charges.push(Charge {
                            res: gres as u16,
                            dim: Dim::Write,
                            part: gpart as u32,
                            units: writes * units::write_milli(entry),
                        });
                    }
                }
                let seq = self.next_seq();
                let charges = if charges.len() == 1 { Charges::One(charges[0]) } else { Charges::Many(charges.into_boxed_slice()) };
                out.push(Attempt { time, seq, first: time, pat: j as u32, n: 1, key, charges });
            }
        }
    }

    // ---------------------------------------------------------------- one second

    fn second(&mut self, s: u64) {
        let t0 = s * MICROS_PER_SEC;
        let t1 = t0 + MICROS_PER_SEC;
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        match self.fidelity {
            Fidelity::Exact => {
                // A Poisson process by exponential gaps: each pattern's arrivals come out sorted,
                // and the rate is constant within the second (memorylessness lets each second
                // start afresh at t0).
                for j in 0..self.pats.len() {
                    let lambda = self.lambda(j, s);
                    if lambda <= 0.0 {
                        continue;
                    }
                    let mean_gap_us = MICROS_PER_SEC as f64 / lambda;
                    let mut t = t0 as f64;
                    loop {
                        let e: f64 = Exp1.sample(&mut self.rng_arr[j]);
                        t += e * mean_gap_us;
                        if t >= t1 as f64 {
                            break;
                        }
                        self.draw_request(j, s, t as u64, &mut batch);
                    }
                }
                self.replayed_seconds += 1;
                self.replay(&mut batch, t1);
            }
            Fidelity::Fast => {
                let mut simple = std::mem::take(&mut self.simple);
                simple.clear();
                for j in 0..self.pats.len() {
                    let lambda = self.lambda(j, s);
                    if lambda <= 0.0 {
                        continue;
                    }
                    if self.pats[j].kind == Kind::Simple
                        && lambda * self.pats[j].fanout as f64 >= 0.25 * self.res[self.pats[j].res].partition_count() as f64
                    {
                        self.draw_counts(j, s, lambda, &mut simple);
                    } else {
                        let c = poisson(&mut self.rng_arr[j], lambda);
                        for _ in 0..c {
                            let time = t0 + self.rng_arr[j].random_range(0..MICROS_PER_SEC);
                            self.draw_request(j, s, time, &mut batch);
                        }
                    }
                }
                while let Some(a) = self.queue.pop_before(t1) {
                    batch.push(a);
                }
                if self.fits(&simple, &batch) {
                    self.bulk_seconds += 1;
                    self.admit_bulk(&simple, &batch);
                    batch.clear();
                } else {
                    self.replayed_seconds += 1;
                    for &(j, part, count, units) in &simple {
                        let (res, dim) = (self.pats[j as usize].res, self.pats[j as usize].dim);
                        for _ in 0..count {
                            let time = t0 + self.rng_arr[j as usize].random_range(0..MICROS_PER_SEC);
                            let seq = self.next_seq();
                            batch.push(Attempt {
                                time,
                                seq,
                                first: time,
                                pat: j,
                                n: 1,
                                key: 0,
                                charges: Charges::One(Charge { res: res as u16, dim, part, units }),
                            });
                        }
                    }
                    self.replay(&mut batch, t1);
                }
                self.simple = simple;
            }
        }
        self.batch = batch;
    }

    /// Per-partition Poisson counts of a simple pattern: `(pattern, partition, count, units)`.
    fn draw_counts(&mut self, j: usize, s: u64, lambda: f64, out: &mut Vec<(u32, u32, u64, u64)>) {
        self.refresh_weights(j, s);
        let fixed = self.pats[j].fixed_units;
        let weights = std::mem::take(&mut self.pats[j].weights);
        for (p, &w) in weights.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            let c = poisson(&mut self.rng_arr[j], lambda * w);
            if c == 0 {
                continue;
            }
            match fixed {
                Some(u) => out.push((j as u32, p as u32, c, u)),
                None => {
                    for _ in 0..c {
                        let u = self.simple_units(j);
                        out.push((j as u32, p as u32, 1, u));
                    }
                }
            }
        }
        self.pats[j].weights = weights;
    }

    /// Expected attempts per request on each partition of the pattern's resource.
    fn refresh_weights(&mut self, j: usize, s: u64) {
        let res = self.pats[j].res;
        let n = self.res[res].partition_count();
        let period_key = match self.pats[j].key_space {
            Some(ks) => self.dists[ks].sequential_period_s.map_or(0, |p| s / p),
            None => 0,
        };
        if self.pats[j].weights.len() == n && self.pats[j].weights_key == (period_key, n) {
            return;
        }
        let mut w = vec![0.0; n];
        let p = &self.pats[j];
        match p.key_space {
            None => w.iter_mut().for_each(|x| *x = 1.0 / n as f64),
            Some(ks) => {
                let dist = &self.dists[ks];
                let count = p.shards.map_or(1, |s| s.count);
                // Mass each shard of a key receives per request touching that key.
                let per_shard = if p.fanout > 1 { 1.0 } else { 1.0 / count as f64 };
                let spread = |w: &mut [f64], rank: u64, mass: f64| {
                    if count > MAX_TRACKED_SHARDS {
                        let each = mass * per_shard * count as f64 / n as f64;
                        w.iter_mut().for_each(|x| *x += each);
                    } else {
                        for sh in 0..count {
                            let h = key_hash(self.salt, ks as u64, rank, sh);
                            w[self.res[res].partition_of(h)] += mass * per_shard;
                        }
                    }
                };
                if let Some(period) = dist.sequential_period_s {
                    spread(&mut w, s / period, 1.0);
                } else {
                    for (rank, &pr) in dist.head.iter().enumerate().take(HEAD_KEYS as usize) {
                        if pr > 0.0 {
                            spread(&mut w, rank as u64, pr);
                        }
                    }
                    if dist.tail_prob > 0.0 {
                        let each = dist.tail_prob * per_shard * count as f64 / n as f64;
                        w.iter_mut().for_each(|x| *x += each);
                    }
                }
            }
        }
        let p = &mut self.pats[j];
        p.weights = w;
        p.weights_key = (period_key, n);
    }

    /// Would the whole second's demand fit, whatever its order?
    fn fits(&mut self, simple: &[(u32, u32, u64, u64)], batch: &[Attempt]) -> bool {
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        let mut add = |demand: &mut Vec<[Vec<u64>; 2]>, res: u16, dim: Dim, part: u32, u: u64| {
            let slot = &mut demand[res as usize][dim as usize][part as usize];
            if *slot == 0 {
                touched.push((res, dim as u8, part));
            }
            *slot += u;
        };
        let mut totals = vec![[0u64; 2]; self.res.len()];
        for &(j, part, count, units) in simple {
            let p = &self.pats[j as usize];
            add(&mut self.demand, p.res as u16, p.dim, part, count * units);
            totals[p.res][p.dim as usize] += count * units;
        }
        // Writes into size-capped item collections are decided one by one.
        let mut ok = !batch.iter().any(|a| self.pats[a.pat as usize].collection_growth.is_some());
        for a in batch {
            for c in a.charges.as_slice() {
                add(&mut self.demand, c.res, c.dim, c.part, c.units);
                totals[c.res as usize][c.dim as usize] += c.units;
            }
        }
        ok = ok
            && totals
                .iter()
                .enumerate()
                .all(|(r, t)| t[0] <= self.res[r].limit_milli(Dim::Read) && t[1] <= self.res[r].limit_milli(Dim::Write));
        if ok {
            for &(r, d, p) in &touched {
                let dim = if d == 0 { Dim::Read } else { Dim::Write };
                let u = self.demand[r as usize][d as usize][p as usize];
                let other = self.demand[r as usize][1 - d as usize][p as usize];
                if !self.res[r as usize].partition_fits_fresh(dim, u, other) {
                    ok = false;
                    break;
                }
            }
        }
        for &(r, d, p) in &touched {
            self.demand[r as usize][d as usize][p as usize] = 0;
        }
        self.touched = touched;
        ok
    }

    fn admit_bulk(&mut self, simple: &[(u32, u32, u64, u64)], batch: &[Attempt]) {
        let service = self.sc.client.service_time.as_micros();
        let mut first_successes = 0;
        for &(j, part, count, units) in simple {
            let (res, dim) = (self.pats[j as usize].res, self.pats[j as usize].dim);
            self.res[res].take_bulk(part as usize, dim, count * units);
            self.cur[res].requested[dim as usize] += count * units;
            self.cur[res].offered[dim as usize] += count * units;
            if self.pats[j as usize].base_delta != 0 {
                self.store(j as usize, &Charge { res: res as u16, dim, part, units }, count);
            }
            let t = &mut self.rec.patterns[j as usize];
            t.offered += count;
            t.attempts += count;
            t.served += count;
            self.rec.latency.record(service, count);
            self.minute_latency.record(service, count);
            first_successes += count;
        }
        for a in batch {
            for c in a.charges.as_slice() {
                self.res[c.res as usize].take_bulk(c.part as usize, c.dim, c.units);
                self.cur[c.res as usize].requested[c.dim as usize] += c.units;
                if a.n == 1 {
                    self.cur[c.res as usize].offered[c.dim as usize] += c.units;
                }
                self.store(a.pat as usize, c, 1);
            }
            let t = &mut self.rec.patterns[a.pat as usize];
            if a.n == 1 {
                t.offered += 1;
                first_successes += 1;
            } else {
                let inst = self.client.instance_of(a.seq);
                self.client.on_success(inst, a.n);
            }
            t.attempts += 1;
            t.served += 1;
            let lat = a.time - a.first + service;
            self.rec.latency.record(lat, 1);
            self.minute_latency.record(lat, 1);
        }
        self.client.on_bulk_success(first_successes);
    }

    /// Admits the second's attempts one by one in `(time, seq)` order, with the retries that
    /// come due before `t1`.
    fn replay(&mut self, batch: &mut Vec<Attempt>, t1: u64) {
        // Stable sort: it merges the already sorted runs (one per pattern) in linear time.
        batch.sort_by_key(|a| (a.time, a.seq));
        let mut it = batch.drain(..).peekable();
        loop {
            let next_new = it.peek().map(|a| (a.time, a.seq));
            let next_retry = self.queue.peek_key().filter(|k| k.0 < t1);
            let take_new = match (next_new, next_retry) {
                (None, None) => break,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(a), Some(b)) => a <= b,
            };
            let a = if take_new { it.next() } else { self.queue.pop_before(t1) };
            if let Some(a) = a {
                self.process(a);
            }
        }
    }

    #[allow(clippy::needless_pass_by_value)] // the attempt is consumed: moved into a retry or dropped
    fn process(&mut self, a: Attempt) {
        let j = a.pat as usize;
        let kind = self.pats[j].kind;
        let req_dim = self.pats[j].dim;
        {
            let t = &mut self.rec.patterns[j];
            t.attempts += 1;
            if a.n == 1 {
                t.offered += 1;
            }
        }
        for c in a.charges.as_slice() {
            self.cur[c.res as usize].requested[c.dim as usize] += c.units;
            if a.n == 1 {
                self.cur[c.res as usize].offered[c.dim as usize] += c.units;
            }
        }
        let throttled: Vec<Charge> = match kind {
            Kind::Batch => {
                let mut left = Vec::new();
                for c in a.charges.as_slice() {
                    match self.res[c.res as usize].try_take(c.part as usize, c.dim, c.units) {
                        Ok(_) => self.store(j, c, 1),
                        Err(reason) => {
                            self.throttle_event(c, reason);
                            left.push(*c);
                        }
                    }
                }
                if !left.is_empty() && left.len() == a.charges.as_slice().len() {
                    self.cur[0].throttled_requests[req_dim as usize] += 1;
                }
                left
            }
            Kind::Simple => {
                let Charges::One(c) = &a.charges else { unreachable!("simple attempts carry one charge") };
                match self.res[c.res as usize].try_take(c.part as usize, c.dim, c.units) {
                    Ok(_) => {
                        self.store(j, c, 1);
                        Vec::new()
                    }
                    Err(reason) => {
                        self.throttle_event(c, reason);
                        self.cur[0].throttled_requests[req_dim as usize] += 1;
                        vec![*c]
                    }
                }
            }
            Kind::AllOrNothing => {
                let charges = a.charges.as_slice();
                let mut taken: Vec<(Charge, u64)> = Vec::new();
                let mut failed = false;
                for c in charges {
                    let r = if failed {
                        self.res[c.res as usize].check(c.part as usize, c.dim, c.units).map(|()| 0)
                    } else {
                        self.res[c.res as usize].try_take(c.part as usize, c.dim, c.units)
                    };
                    match r {
                        Ok(b) => {
                            if !failed {
                                taken.push((*c, b));
                            }
                        }
                        Err(reason) => {
                            failed = true;
                            self.throttle_event(c, reason);
                        }
                    }
                }
                if failed {
                    for (c, b) in taken {
                        self.res[c.res as usize].untake(c.part as usize, c.dim, c.units, b);
                    }
                    self.cur[0].throttled_requests[req_dim as usize] += 1;
                    charges.to_vec()
                } else if !self.collection_admits(j, a.key) {
                    // ItemCollectionSizeLimitExceededException: nothing written, not retried.
                    for (c, b) in taken {
                        self.res[c.res as usize].untake(c.part as usize, c.dim, c.units, b);
                    }
                    self.rec.patterns[j].failed_collection += 1;
                    return;
                } else {
                    for (c, _) in &taken {
                        self.store(j, c, 1);
                    }
                    Vec::new()
                }
            }
        };
        let instance = self.client.instance_of(a.seq);
        if throttled.is_empty() {
            self.client.on_success(instance, a.n);
            let lat = a.time - a.first + self.sc.client.service_time.as_micros();
            self.rec.latency.record(lat, 1);
            self.minute_latency.record(lat, 1);
            self.rec.patterns[j].served += 1;
            return;
        }
        {
            let t = &mut self.rec.patterns[j];
            t.throttled_attempts += 1;
            if a.n == 1 {
                t.throttled_requests += 1;
            }
        }
        let jitter: f64 = self.rng_jitter.random();
        match self.client.after_throttle(instance, a.n, jitter) {
            AfterThrottle::Retry(delay) => {
                let charges = if throttled.len() == 1 { Charges::One(throttled[0]) } else { Charges::Many(throttled.into_boxed_slice()) };
                self.queue.push(Attempt {
                    time: a.time + delay.as_micros(),
                    seq: a.seq,
                    first: a.first,
                    pat: a.pat,
                    n: a.n + 1,
                    key: a.key,
                    charges,
                });
            }
            AfterThrottle::Exhausted => self.rec.patterns[j].failed_exhausted += 1,
            AfterThrottle::QuotaEmpty => self.rec.patterns[j].failed_quota += 1,
        }
    }

    /// Applies the storage change of an admitted charge of pattern `j` (and, for an index
    /// write, draws its propagation delay).
    fn store(&mut self, j: usize, c: &Charge, count: u64) {
        if c.res as usize != self.pats[j].res {
            if let Some(p) = &mut self.propagation[c.res as usize] {
                p.record(count);
            }
        }
        let p = &self.pats[j];
        let delta =
            if c.res as usize == p.res { p.base_delta } else { p.gsi.iter().find(|g| g.res == c.res as usize).map_or(0, |g| g.delta) };
        if delta != 0 {
            let b = &mut self.res[c.res as usize].parts[c.part as usize].bytes;
            *b = b.saturating_add_signed(delta * count as i64);
        }
    }

    fn throttle_event(&mut self, c: &Charge, reason: Reason) {
        Recorder::throttle_event(&mut self.cur[c.res as usize], reason, c.dim);
        self.res[c.res as usize].count_throttle(c.part as usize, c.dim);
    }
}

/// Storage overhead DynamoDB adds to every item and index entry (spec §1.1).
pub const ITEM_OVERHEAD_BYTES: u64 = 100;

fn mean_bytes(s: SizeSpec) -> u64 {
    match s {
        SizeSpec::Fixed(b) => b,
        SizeSpec::LogNormal { mean, .. } => mean as u64,
    }
}

fn index_entry_bytes(p: Projection, item_bytes: u64) -> u64 {
    match p {
        Projection::KeysOnly => INDEX_KEY_BYTES,
        Projection::All => item_bytes,
        Projection::IncludeBytes(b) => INDEX_KEY_BYTES + b,
    }
}

/// Units of one attempt of pattern `p` reading or writing `bytes` (the sum of its items for a
/// query or scan, one item otherwise), LSI writes included.
fn units_of(p: &Pat, bytes: u64) -> u64 {
    match p.op {
        Op::GetItem | Op::BatchGet => units::get_item_milli(bytes, p.consistency),
        Op::TransactGet => units::get_item_milli(bytes, Consistency::Transactional),
        Op::Query | Op::Scan => units::query_milli(bytes, p.consistency),
        Op::PutItem | Op::UpdateItem | Op::DeleteItem | Op::BatchWrite => {
            units::write_milli(bytes) + p.lsi_projections.iter().map(|&pr| units::write_milli(index_entry_bytes(pr, bytes))).sum::<u64>()
        }
        Op::TransactWrite => {
            units::transact_write_item_milli(bytes)
                + p.lsi_projections.iter().map(|&pr| units::transact_write_item_milli(index_entry_bytes(pr, bytes))).sum::<u64>()
        }
    }
}

fn compile_pattern(sc: &Scenario, p: &PatternSpec) -> Pat {
    let res = match p.index {
        Some(IndexRef::Gsi(g)) => g + 1,
        _ => 0,
    };
    let dim = if p.op.is_write() { Dim::Write } else { Dim::Read };
    let shards = p.key_space.and_then(|k| sc.key_spaces[k].shards).filter(|s| s.count > 1);
    let fanout = match shards {
        Some(s) if s.random && !p.op.is_write() && matches!(p.op, Op::GetItem | Op::Query) => s.count,
        _ => 1,
    };
    let gsi: Vec<GsiWrite> = p
        .index_writes
        .iter()
        .map(|&(g, k)| GsiWrite {
            delta: if k == crate::scenario::IndexWrite::Insert {
                (index_entry_bytes(sc.gsis[g].projection, mean_bytes(p.size)) + ITEM_OVERHEAD_BYTES) as i64
            } else {
                0
            },
            res: g + 1,
            key_space: sc.gsis[g].partition_key,
            writes: k.writes(),
            coverage: sc.gsis[g].coverage,
            projection: sc.gsis[g].projection,
        })
        .collect();
    // With LSIs, an item collection (the items and LSI entries of one partition-key value)
    // is capped at 10 GB (spec §8): inserts are drawn with their key to track it.
    let collection_growth = (!sc.lsis.is_empty() && p.op == Op::PutItem && p.key_space.is_some()).then(|| {
        let item = mean_bytes(p.size);
        item + ITEM_OVERHEAD_BYTES + sc.lsis.iter().map(|l| index_entry_bytes(l.projection, item) + ITEM_OVERHEAD_BYTES).sum::<u64>()
    });
    let kind = match p.op {
        Op::BatchGet | Op::BatchWrite => Kind::Batch,
        Op::TransactGet | Op::TransactWrite => Kind::AllOrNothing,
        _ if !gsi.is_empty() || collection_growth.is_some() => Kind::AllOrNothing,
        _ => Kind::Simple,
    };
    let items_per_attempt = match p.op {
        Op::Query if fanout > 1 => p.items.div_ceil(fanout),
        _ => p.items,
    };
    let lsi_projections = if p.op.is_write() { sc.lsis.iter().map(|l| l.projection).collect() } else { Vec::new() };
    let lognormal = match p.size {
        SizeSpec::LogNormal { mean, sigma } => {
            // mean of the log-normal = exp(mu + sigma^2 / 2)
            let mu = mean.ln() - sigma * sigma / 2.0;
            LogNormal::new(mu, sigma).ok()
        }
        SizeSpec::Fixed(_) => None,
    };
    let mut pat = Pat {
        op: p.op,
        kind,
        res,
        dim,
        key_space: p.key_space,
        shards,
        fanout,
        size: p.size,
        lognormal,
        items_per_attempt,
        consistency: p.consistency,
        fixed_units: None,
        lsi_projections,
        gsi,
        factor: 1.0,
        collection_growth,
        base_delta: match p.op {
            Op::PutItem | Op::BatchWrite | Op::TransactWrite => (mean_bytes(p.size) + ITEM_OVERHEAD_BYTES) as i64,
            Op::DeleteItem => -((mean_bytes(p.size) + ITEM_OVERHEAD_BYTES) as i64),
            _ => 0,
        },
        weights: Vec::new(),
        weights_key: (u64::MAX, 0),
    };
    if let SizeSpec::Fixed(b) = p.size {
        let bytes = match p.op {
            Op::Query | Op::Scan => b * items_per_attempt,
            _ => b,
        };
        pat.fixed_units = Some(units_of(&pat, bytes));
    }
    pat
}
