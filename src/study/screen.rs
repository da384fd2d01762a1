//! A coarse per-minute model of a table's capacity, to screen `recommend`'s candidates before
//! the engine confirms the best (issue 13: 14 days of one table in seconds, not minutes).
//!
//! The demand is worked from the scenario's rate shapes: each pattern's rate every second (with
//! its `scale_rate` factors) times the units of one request at the mean item size, on the table
//! and on each GSI its writes maintain (spec §1), summed per minute. Against it, per table or
//! GSI and dimension, the model keeps the provisioned capacity in force, a burst bank of up to
//! 300 seconds of it (spec §3), and Application Auto Scaling's target tracking with the
//! engine's own [`Autoscaler`] and [`DecreaseQuota`] (spec §6.2): a decision at each minute's
//! end on the minute's consumed units, applied after the alarm delay and the UpdateTable
//! latency (longer when partitions are added), with the scenario's `set_autoscaling` actions
//! (scheduled floors). On-demand resources follow [`OnDemandGrowth`] (spec §5). An absorbing
//! GSI (the default back-pressure, spec §16) owes what its capacity and credit do not cover,
//! up to its partitions' bound, and pays it back from spare capacity.
//!
//! What it leaves out, and the engine confirms: arrivals within a minute (Poisson seconds,
//! per-second buckets), partitions and hot keys, retries. Its throttled share is of demanded
//! units, where the engine's is of attempts. It is a screen, labelled as such.

use crate::cost::{ResourceUsage, TableSeries, Usage};
use crate::limits::{BURST_SECONDS, GB, ITEM_OVERHEAD_BYTES};
use crate::model::request::{initial_index_bytes, mean_bytes, CompiledPattern};
use crate::model::reserve::{CreditLevel, IndexLevel, Reserve};
use crate::model::resource::{initial_partitions, Mode};
use crate::model::scaling::{Autoscaler, Decision, DecreaseQuota, OnDemandGrowth};
use crate::model::Dim;
use crate::scenario::{Action, AutoscalingSpec, CapacitySpec, Op, RateFactors, RateShape, ResourceId, Scenario};
use crate::study::sustain::{milli, OnCredit};
use crate::units::MILLI;

/// Demand per minute, worked from the rate shapes.
#[derive(Clone, Debug)]
pub struct Demand {
    /// Seconds.
    pub duration_s: u64,
    /// Per resource (table, then GSIs), per minute: [read, write] units a second.
    pub units: Vec<Vec<[f64; 2]>>,
    /// Per resource, per minute: bytes stored at the minute's end.
    pub bytes: Vec<Vec<f64>>,
}

impl Demand {
    /// The demand of `sc` over `duration_s`, or `None` when a pattern is a closed loop (its
    /// rate depends on the answers).
    #[must_use]
    pub fn of(sc: &Scenario, duration_s: u64) -> Option<Self> {
        if sc.patterns.iter().any(|p| matches!(p.rate, RateShape::ClosedLoop(_))) {
            return None;
        }
        let minutes = duration_s.div_ceil(60) as usize;
        let nres = sc.layout().table_and_gsis().count();
        let mut units = vec![vec![[0.0f64; 2]; minutes]; nres];
        let mut growth = vec![vec![0.0f64; minutes]; nres];
        let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
        // A DAX cluster's hits never reach the table.
        let dax = crate::model::dax::Dax::of_scenario(sc);
        for (j, p) in sc.patterns.iter().enumerate() {
            let cp = CompiledPattern::new(sc, p);
            let attempts = if matches!(p.op, Op::BatchGet | Op::BatchWrite) { p.items as f64 } else { cp.fanout as f64 };
            let own = cp.mean_milli() as f64 / MILLI as f64 * attempts;
            let index: Vec<(usize, f64)> = cp
                .gsi
                .iter()
                .map(|w| {
                    (w.res, p.items as f64 * w.coverage * CompiledPattern::index_write_units(w, mean_bytes(p.size)) as f64 / MILLI as f64)
                })
                .collect();
            let item = mean_bytes(p.size);
            let table_bytes = cp.base_delta as f64
                + cp.collection_growth.map_or(0.0, |g| (g - (item + ITEM_OVERHEAD_BYTES) as i64) as f64)
                    * if cp.base_delta > 0 { 1.0 } else { 0.0 };
            let index_bytes: Vec<(usize, f64)> = cp.gsi.iter().map(|w| (w.res, w.delta as f64 * w.coverage)).collect();
            let factors = RateFactors::of(sc, j);
            for m in 0..minutes {
                let from = m as u64 * 60;
                let to = (from + 60).min(duration_s);
                let mut sum = 0.0;
                for s in from..to {
                    let l = factors.rate(&p.rate, s, sod);
                    sum += dax.as_ref().map_or(l, |d| l * d.miss_share(j, l));
                }
                let per_s = sum / (to - from) as f64;
                // Global tables: every region's writes replicate to the table (its capacity
                // is the one screened); reads in a replica's region load that replica only.
                match (cp.res < nres, cp.dim) {
                    (true, _) => units[cp.res][m][cp.dim as usize] += per_s * own,
                    (false, Dim::Write) => units[0][m][Dim::Write as usize] += per_s * own,
                    (false, Dim::Read) => {}
                }
                for &(res, u) in &index {
                    units[res][m][Dim::Write as usize] += per_s * u;
                }
                growth[0][m] += sum * table_bytes;
                for &(res, b) in &index_bytes {
                    growth[res][m] += sum * b;
                }
            }
        }
        let start: Vec<f64> =
            std::iter::once(sc.table.storage_bytes as f64).chain((0..sc.gsis.len()).map(|g| initial_index_bytes(sc, g) as f64)).collect();
        let bytes = growth
            .iter()
            .zip(start)
            .map(|(g, s0)| {
                g.iter()
                    .scan(s0, |b, x| {
                        *b = (*b + x).max(0.0);
                        Some(*b)
                    })
                    .collect()
            })
            .collect();
        Some(Self { duration_s, units, bytes })
    }

    /// Per resource: the peak minute's [read, write] units a second.
    #[must_use]
    pub fn peaks(&self) -> Vec<[f64; 2]> {
        self.peaks_in(|_| true)
    }

    /// Per resource: the peak of the minutes `keep` keeps.
    #[must_use]
    pub fn peaks_in(&self, keep: impl Fn(usize) -> bool) -> Vec<[f64; 2]> {
        self.units
            .iter()
            .map(|r| r.iter().enumerate().filter(|(m, _)| keep(*m)).fold([0.0f64; 2], |a, (_, x)| [a[0].max(x[0]), a[1].max(x[1])]))
            .collect()
    }

    /// Seconds in minute `m`.
    fn secs(&self, m: usize) -> f64 {
        (self.duration_s - m as u64 * 60).min(60) as f64
    }
}

/// What the screen found for one candidate.
#[derive(Clone, Debug)]
pub struct Screened {
    /// Throttled units over demanded units (a write throttled on a GSI fails on the table too).
    pub throttled_share: f64,
    /// The usage to bill.
    pub usage: Usage,
    /// The burst credit and GSI absorption the window spent on net (none: it holds sustained).
    pub on_credit: Option<OnCredit>,
}

/// One scalable dimension of one resource, minute by minute.
struct Track {
    /// Units a second in force.
    units: f64,
    /// Burst credit, units.
    bank: f64,
    /// An absorbing GSI's write debt, units (spec §16), and the most it may owe: its
    /// partitions' bound (0 elsewhere).
    debt: f64,
    debt_max: f64,
    /// A change waiting: (second it applies, new units).
    pending: Option<(u64, u64)>,
    scaler: Option<Autoscaler>,
    growth: Option<OnDemandGrowth>,
}

/// Screens candidate `sc` (its capacity settings) against `demand`.
#[must_use]
pub fn screen(sc: &Scenario, demand: &Demand) -> Screened {
    let minutes = demand.units.first().map_or(0, Vec::len);
    let mut st = Screen::new(sc, demand, minutes);
    for m in 0..minutes {
        st.scheduled(m);
        let consumed = st.serve(m);
        st.end_minute(m, &consumed);
    }
    st.finish()
}

/// A screen under way: each resource's capacity tracks and what they served.
struct Screen<'a> {
    sc: &'a Scenario,
    demand: &'a Demand,
    /// Resources: the table, then its GSIs.
    nres: usize,
    /// Each resource's capacity and auto scaling.
    specs: Vec<(CapacitySpec, Option<&'a AutoscalingSpec>)>,
    /// Per resource, read and write.
    tracks: Vec<[Track; 2]>,
    partitions: Vec<u64>,
    quota: Vec<DecreaseQuota>,
    /// The scenario's `set_autoscaling` actions: (second, GSI, read and write changes).
    actions: Vec<(u64, Option<usize>, [Option<crate::scenario::ScalingChange>; 2])>,
    next_action: usize,
    /// Write units the table served (what replicates to each replica).
    table_writes: f64,
    throttled: f64,
    demanded: f64,
    /// Per resource, read and write: provisioned units per minute (0 while on-demand).
    prov: Vec<[Vec<f64>; 2]>,
    /// Per resource, read and write: units served on-demand.
    od_units: Vec<[f64; 2]>,
    /// Per resource: its reserves before the first minute.
    reserves_at_start: Vec<Reserve>,
}

impl<'a> Screen<'a> {
    fn new(sc: &'a Scenario, demand: &'a Demand, minutes: usize) -> Self {
        let nres = demand.units.len();
        let specs: Vec<(CapacitySpec, Option<&AutoscalingSpec>)> = std::iter::once((sc.table.capacity, sc.table.autoscaling.as_ref()))
            .chain(sc.gsis.iter().map(|g| (g.capacity, g.autoscaling.as_ref())))
            .collect();
        let tracks: Vec<[Track; 2]> = specs
            .iter()
            .map(|(cap, auto)| {
                let mk = |d: usize| {
                    let (units, growth) = match *cap {
                        CapacitySpec::Provisioned { read, write } => ([read, write][d] as f64, None),
                        CapacitySpec::OnDemand { warm_read, warm_write, .. } => {
                            let warm = [warm_read, warm_write][d];
                            (warm as f64, Some(OnDemandGrowth::new(warm, sc.table.on_demand_doubling_minutes)))
                        }
                    };
                    let target = auto.and_then(|a| if d == 0 { a.read } else { a.write });
                    let bank = if sc.table.initial_burst_full && growth.is_none() { units * BURST_SECONDS as f64 } else { 0.0 };
                    Track { units, bank, debt: 0.0, debt_max: 0.0, pending: None, scaler: target.map(Autoscaler::new), growth }
                };
                [mk(0), mk(1)]
            })
            .collect();
        let partitions: Vec<u64> = specs
            .iter()
            .enumerate()
            .map(|(r, (cap, _))| {
                let units = match *cap {
                    CapacitySpec::Provisioned { read, write } => [read, write],
                    CapacitySpec::OnDemand { warm_read, warm_write, .. } => [warm_read, warm_write],
                };
                initial_partitions(&Mode::Provisioned { units }, demand.bytes[r].first().copied().unwrap_or(0.0) as u64)
            })
            .collect();
        let mut actions: Vec<(u64, Option<usize>, [Option<crate::scenario::ScalingChange>; 2])> = sc
            .actions
            .iter()
            .filter_map(|a| match &a.action {
                Action::SetAutoscaling { index, changes } => Some((a.time.as_secs(), *index, *changes)),
                _ => None,
            })
            .collect();
        actions.sort_by_key(|a| a.0);
        let mut tracks = tracks;
        if let crate::scenario::GsiBackpressure::Absorb { bound_units } = sc.table.gsi_backpressure {
            // An absorbing GSI owes what it cannot take, up to each partition's bound.
            for (t, &n) in tracks.iter_mut().zip(&partitions).skip(1) {
                t[1].debt_max = bound_units as f64 * n as f64;
            }
        }
        let reserves_at_start = tracks.iter().map(reserve).collect();
        Self {
            sc,
            demand,
            nres,
            specs,
            reserves_at_start,
            tracks,
            partitions,
            quota: vec![DecreaseQuota::default(); nres],
            actions,
            next_action: 0,
            table_writes: 0.0,
            throttled: 0.0,
            demanded: 0.0,
            prov: vec![[Vec::with_capacity(minutes), Vec::with_capacity(minutes)]; nres],
            od_units: vec![[0.0f64; 2]; nres],
        }
    }

    /// Scheduled changes of the scalable targets due in minute `m`.
    fn scheduled(&mut self, m: usize) {
        let sc = self.sc;
        let from = m as u64 * 60;
        // Scheduled changes of the scalable targets due in this minute.
        while self.next_action < self.actions.len() && self.actions[self.next_action].0 < from + 60 {
            let (at, index, changes) = self.actions[self.next_action];
            let r = sc.layout().slot(ResourceId::table_or_gsi(index));
            for (d, change) in changes.into_iter().enumerate() {
                let units = self.tracks[r][d].units as u64;
                if let (Some(c), Some(s)) = (change, self.tracks[r][d].scaler.as_mut()) {
                    s.spec = s.spec.with(&c);
                    let clamp = units.clamp(s.spec.min, s.spec.max.max(s.spec.min));
                    if clamp != units {
                        let latency = latency(sc, &mut self.partitions[r], &self.tracks[r], d, clamp);
                        self.tracks[r][d].pending = Some((at + latency, clamp));
                    }
                }
            }
            self.next_action += 1;
        }
    }

    /// Serves minute `m`'s demand; returns each resource's consumed units a second.
    fn serve(&mut self, m: usize) -> Vec<[f64; 2]> {
        let demand = self.demand;
        let from = m as u64 * 60;
        let secs = demand.secs(m);
        // Per resource and dimension: the share of the minute's demand self.throttled.
        let mut failed_share = vec![[0.0f64; 2]; self.nres];
        let mut consumed = vec![[0.0f64; 2]; self.nres];
        for r in 0..self.nres {
            for d in 0..2 {
                let t = &mut self.tracks[r][d];
                // A change applying within the minute: the capacity is time-weighted.
                let mut avg = t.units;
                if let Some((at, new)) = t.pending {
                    if at < from + 60 {
                        let before = at.saturating_sub(from).min(60) as f64;
                        avg = (t.units * before + new as f64 * (60.0 - before)) / 60.0;
                        t.units = new as f64;
                        t.pending = None;
                    }
                }
                let want = demand.units[r][m][d] * secs;
                let cap = avg * secs;
                let served = if t.growth.is_some() {
                    want.min(cap)
                } else if want <= cap {
                    // Spare capacity pays an absorbing index's debt first, then banks.
                    let pay = t.debt.min(cap - want);
                    t.debt -= pay;
                    t.bank = (t.bank + cap - want - pay).min(t.units * BURST_SECONDS as f64);
                    want
                } else {
                    let draw = t.bank.min(want - cap);
                    t.bank -= draw;
                    let owe = (want - cap - draw).min(t.debt_max - t.debt).max(0.0);
                    t.debt += owe;
                    cap + draw + owe
                };
                consumed[r][d] = served / secs;
                if self.sc.layout().id(r) == ResourceId::Table && d == 1 {
                    self.table_writes += served;
                }
                if want > 0.0 {
                    failed_share[r][d] = (want - served) / want;
                }
                if t.growth.is_some() {
                    self.od_units[r][d] += served;
                    self.prov[r][d].push(0.0);
                } else {
                    self.prov[r][d].push(avg * secs / 60.0);
                }
            }
        }
        // A write throttled on any resource fails on the table (GSI back-pressure); reads fail
        // where they are read.
        let write_fail = failed_share.iter().map(|f| f[1]).fold(0.0, f64::max);
        for (r, (fail, want)) in failed_share.iter().zip(&demand.units).enumerate() {
            let w = if self.sc.layout().id(r) == ResourceId::Table { want[m][1] } else { 0.0 };
            self.throttled += (fail[0] * want[m][0] + write_fail * w) * secs;
            self.demanded += (want[m][0] + w) * secs;
        }
        consumed
    }

    /// The minute's end: on-demand growth and target tracking on what it consumed.
    fn end_minute(&mut self, m: usize, consumed: &[[f64; 2]]) {
        let sc = self.sc;
        let end = m as u64 * 60 + self.demand.secs(m) as u64;
        for (r, used) in consumed.iter().enumerate() {
            for (d, &used) in used.iter().enumerate() {
                let (units, pending) = (self.tracks[r][d].units, self.tracks[r][d].pending.is_some());
                if let Some(g) = self.tracks[r][d].growth.as_mut() {
                    self.tracks[r][d].units = g.minute(used);
                    continue;
                }
                let Some(s) = self.tracks[r][d].scaler.as_mut() else { continue };
                let decision = s.evaluate(used, units as u64, end);
                let new = match decision {
                    Decision::Hold => continue,
                    _ if pending => continue,
                    Decision::ScaleOut(n) | Decision::ScaleIn(n) => n,
                };
                let delay = self.specs[r].1.map_or(0, |a| if a.instant { 0 } else { a.alarm_delay.as_secs() });
                let call_at = end + delay;
                if matches!(decision, Decision::ScaleIn(_)) {
                    let now = sc.start_unix_s + call_at as i64;
                    if !self.quota[r].allowed(now) {
                        continue;
                    }
                    self.quota[r].record(now);
                }
                s.acted(decision, call_at);
                let instant = self.specs[r].1.is_some_and(|a| a.instant);
                let latency = if instant { 0 } else { latency(sc, &mut self.partitions[r], &self.tracks[r], d, new) };
                self.tracks[r][d].pending = Some((call_at + latency, new));
            }
        }
    }

    /// The screen's throttled share and the usage to bill.
    fn finish(mut self) -> Screened {
        let (sc, demand) = (self.sc, self.demand);
        let names: Vec<String> = std::iter::once(sc.table.name.clone()).chain(sc.gsis.iter().map(|g| g.name.clone())).collect();
        let mut resources: Vec<ResourceUsage> = (0..self.nres)
            .map(|r| {
                let od = self.tracks[r][0].growth.is_some();
                let [pr, pw] = std::mem::take(&mut self.prov[r]);
                ResourceUsage {
                    name: names[r].clone(),
                    on_demand: od,
                    provisioned: !od,
                    provisioned_hours: if od { 0.0 } else { demand.duration_s as f64 / 3_600.0 },
                    on_demand_read_units: self.od_units[r][0],
                    on_demand_write_units: self.od_units[r][1],
                    on_demand_units_by_minute: Vec::new(),
                    provisioned_rcu_by_minute: pr,
                    provisioned_wcu_by_minute: pw,
                    storage_gb_by_minute: demand.bytes[r].iter().enumerate().map(|(m, b)| b / GB as f64 * demand.secs(m) / 60.0).collect(),
                    region: None,
                    transfer_gb: 0.0,
                }
            })
            .collect();
        // Global tables: each replica takes the table's writes and its write capacity (the same in
        // every replica), its own read capacity if set (else the table's), no reads, and the
        // table's items; the screen does not simulate replication lag.
        // The screen puts every region's writes on the table: they are sent to each other region.
        resources[0].transfer_gb = self.table_writes * sc.replicas.len() as f64 * crate::limits::WRITE_BLOCK_BYTES as f64 / GB as f64;
        for rep in &sc.replicas {
            let t = &resources[0];
            let mut u = t.clone();
            u.name = rep.name(&sc.table.name);
            u.on_demand_read_units = 0.0;
            if let Some(rcu) = rep.read_capacity {
                u.provisioned_rcu_by_minute = vec![rcu as f64; t.provisioned_rcu_by_minute.len()];
            }
            u.transfer_gb = 0.0;
            u.region = Some(rep.region.clone());
            resources.push(u);
        }
        // The table's series: the stream's shards at the screen's final partition count (it
        // never lowers it).
        let n = demand.units[0].len();
        let series = TableSeries {
            minute_secs: (0..n).map(|m| demand.secs(m) as u64).collect(),
            stored_gb: demand.bytes[0].iter().map(|b| b / GB as f64).collect(),
            partitions: vec![self.partitions[0]; n],
            stream_records: (0..n).map(|m| demand.units[0][m][1] * demand.secs(m)).collect(),
        };
        // Contributor Insights and metered units (vector writes) cost every candidate about alike
        // (their quantities are the requests; the throttled-keys mode's few events left out); the
        // final runs bill them.
        let usage = Usage::assemble(sc, demand.duration_s as f64 / 3_600.0, resources, &series, Vec::new(), Vec::new());
        let reserves: Vec<(&str, [Reserve; 2])> =
            names.iter().zip(&self.reserves_at_start).zip(&self.tracks).map(|((n, a), t)| (n.as_str(), [*a, reserve(t)])).collect();
        Screened {
            throttled_share: if self.demanded > 0.0 { self.throttled / self.demanded } else { 0.0 },
            usage,
            on_credit: OnCredit::of_reserves(&reserves, demand.duration_s),
        }
    }
}

/// A resource's reserves as the screen keeps them: its burst bank per dimension (table level)
/// and an absorbing GSI's write debt over its partitions' bound.
fn reserve(t: &[Track; 2]) -> Reserve {
    let credit = |t: &Track| {
        let cap = if t.growth.is_some() { 0 } else { milli(t.units * BURST_SECONDS as f64) };
        let banked = milli(t.bank).min(cap);
        CreditLevel { banked, cap, on_spending: if banked < cap { banked } else { 0 } }
    };
    let index = (t[1].debt_max > 0.0).then(|| IndexLevel { level: milli(t[1].debt), bound: milli(t[1].debt_max), absorbing: true });
    Reserve { credit: [credit(&t[0]), credit(&t[1])], index }
}

/// Seconds an UpdateTable to `new` units of dimension `d` takes: the update latency, or the
/// partition-add latency when the partitions must double to serve it (they then do).
fn latency(sc: &Scenario, partitions: &mut u64, t: &[Track; 2], d: usize, new: u64) -> u64 {
    let mut units = [t[0].units as u64, t[1].units as u64];
    units[d] = new;
    let needed = initial_partitions(&Mode::Provisioned { units }, 0);
    if needed <= *partitions {
        return sc.table.update_latency.as_secs();
    }
    while *partitions < needed {
        *partitions *= 2;
    }
    sc.table.partition_add_latency.as_secs()
}
