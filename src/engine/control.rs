//! Capacity that moves during a run: `[[at]]` actions, UpdateTable latency, auto scaling,
//! on-demand growth, pre-warming, mode switches, and partition splits for size and heat.
//!
//! Control runs at second boundaries (actions and pending updates) and minute boundaries (the
//! one-minute datapoints CloudWatch alarms and on-demand peaks are made of).

use super::{CapacityEvent, Sim};
use crate::model::resource::{initial_partitions, Mode, Resource, PARTITION_BYTES};
use crate::model::scaling::{Autoscaler, Decision, DecreaseQuota, OnDemandGrowth};
use crate::model::Dim;
use crate::scenario::{
    Action, AutoscalingSpec, DEFAULT_TABLE_QUOTA, ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE, PARTITION_READ_CAP,
    PARTITION_WRITE_CAP,
};
use crate::traffic::keys::key_hash;
use crate::units::MILLI;
use std::collections::{BTreeSet, VecDeque};

/// Minutes of consumption kept to size a switch to provisioned (the console looks at 30).
const SWITCH_ESTIMATE_MINUTES: usize = 30;
/// Target utilization the console assumes when estimating provisioned capacity.
const SWITCH_ESTIMATE_TARGET: f64 = 0.7;
/// Smallest capacity the console proposes after a switch to provisioned.
const SWITCH_ESTIMATE_MIN: u64 = 5;
/// Pseudo-points that stand for the uniform tail when locating a heat split.
const TAIL_POINTS: u64 = 64;

/// Control state of one table or GSI.
pub(super) struct Control {
    /// Warm throughput: what the resource serves (or can be raised to) at once, units/s.
    warm: [u64; 2],
    /// On-demand growth per dimension (on-demand resources only).
    od: Option<[OnDemandGrowth; 2]>,
    /// Auto scaling targets per dimension.
    scalers: [Option<Autoscaler>; 2],
    /// Auto scaling settings.
    scaling: Option<AutoscalingSpec>,
    /// Daily decrease quota.
    decreases: DecreaseQuota,
    /// An UpdateTable is in flight for the dimension.
    updating: [bool; 2],
    /// Consecutive hot minutes per partition.
    hot_minutes: Vec<u32>,
    /// Partitions (by range start) whose heat split is scheduled or was ruled out.
    heat_handled: BTreeSet<u64>,
    /// Last minutes' consumption, units/s.
    history: VecDeque<[f64; 2]>,
    doubling_minutes: f64,
}

impl Control {
    /// Warm throughput of a dimension, units/s.
    pub(super) fn warm_of(&self, d: Dim) -> u64 {
        self.warm[d as usize]
    }

    pub(super) fn new(r: &Resource, scaling: Option<&AutoscalingSpec>, doubling_minutes: f64) -> Self {
        let warm = match r.mode {
            Mode::Provisioned { units } => units,
            Mode::OnDemand { warm, .. } => warm,
        };
        let od = match r.mode {
            Mode::OnDemand { warm, .. } => {
                Some([OnDemandGrowth::new(warm[0], doubling_minutes), OnDemandGrowth::new(warm[1], doubling_minutes)])
            }
            Mode::Provisioned { .. } => None,
        };
        let scalers = match scaling {
            Some(a) if od.is_none() => [a.read.map(Autoscaler::new), a.write.map(Autoscaler::new)],
            _ => [None, None],
        };
        Self {
            warm,
            od,
            scalers,
            scaling: scaling.cloned(),
            decreases: DecreaseQuota::default(),
            updating: [false; 2],
            hot_minutes: vec![0; r.partition_count()],
            heat_handled: BTreeSet::new(),
            history: VecDeque::new(),
            doubling_minutes,
        }
    }
}

/// Something that happens later.
#[derive(Clone, Debug)]
pub(super) enum Pending {
    /// An UpdateTable completes: new provisioned units.
    Update { res: usize, units: [Option<u64>; 2], action: &'static str },
    /// A pre-warm completes.
    Prewarm { res: usize, units: [Option<u64>; 2] },
    /// A split for heat completes at this hash.
    HeatSplit { res: usize, at: u64 },
}

impl Sim<'_> {
    fn now_unix(&self, s: u64) -> i64 {
        self.sc.start_unix_s + s as i64
    }

    #[allow(clippy::too_many_arguments)]
    fn event(&mut self, s: u64, res: usize, action: &'static str, dim: Option<Dim>, old: f64, new: f64, detail: String) {
        self.events.push(CapacityEvent {
            time_s: s,
            resource: self.res[res].name.clone(),
            action,
            dimension: dim.map_or("", Dim::name),
            old,
            new,
            detail,
        });
    }

    fn schedule(&mut self, at_s: u64, p: Pending) {
        // Stable: equal times keep their scheduling order.
        let i = self.pending.partition_point(|(t, _)| *t <= at_s);
        self.pending.insert(i, (at_s, p));
    }

    /// After partitions change: resize the per-partition buffers.
    fn partitions_changed(&mut self, r: usize) {
        let n = self.res[r].partition_count();
        self.demand[r] = [vec![0; n], vec![0; n]];
        self.ctl[r].hot_minutes.resize(n, 0);
    }

    /// Grows partitions to `n` (doubling), recording the change.
    fn grow(&mut self, s: u64, r: usize, n: usize, why: &str) {
        let old = self.res[r].partition_count();
        if n > old {
            self.res[r].grow_to(n);
            self.partitions_changed(r);
            let new = self.res[r].partition_count();
            self.event(s, r, "partitions_added", None, old as f64, new as f64, why.to_string());
        }
    }

    /// Latency of an UpdateTable to `units`: fast when the partitions the table has (its warm
    /// throughput) serve the new capacity, slow when partitions must be added.
    fn update_latency(&self, r: usize, units: [Option<u64>; 2]) -> u64 {
        let cur = match self.res[r].mode {
            Mode::Provisioned { units } => units,
            Mode::OnDemand { warm, .. } => warm,
        };
        let new = [units[0].unwrap_or(cur[0]), units[1].unwrap_or(cur[1])];
        let needed = initial_partitions(&Mode::Provisioned { units: new }, 0) as usize;
        if needed <= self.res[r].partition_count() {
            self.sc.table.update_latency.as_secs()
        } else {
            self.sc.table.partition_add_latency.as_secs()
        }
    }

    // ------------------------------------------------------------------ [[at]] actions

    pub(super) fn apply_actions(&mut self, s: u64) {
        while let Some(a) = self.sc.actions.get(self.next_action) {
            if a.time.as_secs() > s {
                break;
            }
            self.next_action += 1;
            match a.action.clone() {
                Action::ScaleRate { pattern, factor } => self.pats[pattern].factor = factor,
                Action::SetCapacity { index, read, write } => {
                    let r = index.map_or(0, |g| g + 1);
                    let Mode::Provisioned { units } = self.res[r].mode else {
                        self.event(s, r, "refused_set_capacity", None, 0.0, 0.0, "the table is on-demand at this time".into());
                        continue;
                    };
                    let new = [read, write];
                    let lowers = Dim::ALL.iter().any(|&d| new[d as usize].is_some_and(|u| u < units[d as usize]));
                    if lowers {
                        let now = self.now_unix(s);
                        if !self.ctl[r].decreases.allowed(now) {
                            let n = self.ctl[r].decreases.count_on(now);
                            self.event(
                                s,
                                r,
                                "refused_decrease",
                                None,
                                0.0,
                                0.0,
                                format!("{n} decreases today and one within the last hour (DynamoDB allows 4 a day, then 1 an hour)"),
                            );
                            continue;
                        }
                        self.ctl[r].decreases.record(now);
                    }
                    let at = s + self.update_latency(r, new);
                    self.schedule(at, Pending::Update { res: r, units: new, action: "set_capacity" });
                }
                Action::Prewarm { index, read, write } => {
                    let r = index.map_or(0, |g| g + 1);
                    self.schedule(s + self.sc.table.prewarm_delay.as_secs(), Pending::Prewarm { res: r, units: [read, write] });
                }
                Action::SwitchMode { on_demand, units } => {
                    for r in 0..self.res.len() {
                        // Explicit capacity is the table's; GSIs take the console's estimate.
                        self.switch_mode(s, r, on_demand, if r == 0 { units } else { None });
                    }
                }
                Action::AddGsi(g) => self.add_gsi(s, g),
            }
        }
    }

    fn switch_mode(&mut self, s: u64, r: usize, to_on_demand: bool, units: Option<[u64; 2]>) {
        match (self.res[r].mode, to_on_demand) {
            (Mode::Provisioned { units }, true) => {
                // Previous peak: half the highest provisioned throughput, so the table serves at
                // least that at once; never below the new-table defaults (spec §5, O5).
                let warm = [
                    self.ctl[r].warm[0].max(units[0]).max(ON_DEMAND_DEFAULT_WARM_READ),
                    self.ctl[r].warm[1].max(units[1]).max(ON_DEMAND_DEFAULT_WARM_WRITE),
                ];
                let d = self.ctl[r].doubling_minutes;
                let mut od = [OnDemandGrowth::new(warm[0], d), OnDemandGrowth::new(warm[1], d)];
                for (g, w) in od.iter_mut().zip(warm) {
                    g.raise(w as f64);
                }
                self.ctl[r].od = Some(od);
                self.ctl[r].warm = warm;
                self.res[r].mode = Mode::OnDemand { warm, max: [None, None], quota: DEFAULT_TABLE_QUOTA };
                self.res[r].refresh_limits();
                let n = initial_partitions(&self.res[r].mode, 0) as usize;
                self.grow(s, r, n, "switch to on-demand");
                self.event(
                    s,
                    r,
                    "switch_mode",
                    None,
                    0.0,
                    1.0,
                    format!("provisioned {}/{} -> on-demand, warm {}/{}", units[0], units[1], warm[0], warm[1]),
                );
            }
            (Mode::OnDemand { .. }, false) => {
                // The console proposes capacity from the last 30 minutes at 70 % utilization.
                let mut est = [SWITCH_ESTIMATE_MIN; 2];
                for d in 0..2 {
                    let peak = self.ctl[r].history.iter().map(|h| h[d]).fold(0.0, f64::max);
                    est[d] = ((peak / SWITCH_ESTIMATE_TARGET).ceil() as u64).max(SWITCH_ESTIMATE_MIN);
                }
                let given = units.is_some();
                let est = units.unwrap_or(est);
                self.ctl[r].od = None;
                self.res[r].mode = Mode::Provisioned { units: est };
                self.res[r].refresh_limits();
                if let Some(a) = self.ctl[r].scaling.clone() {
                    self.ctl[r].scalers = [a.read.map(Autoscaler::new), a.write.map(Autoscaler::new)];
                }
                self.event(
                    s,
                    r,
                    "switch_mode",
                    None,
                    1.0,
                    0.0,
                    if given {
                        format!("on-demand -> provisioned {}/{}", est[0], est[1])
                    } else {
                        format!("on-demand -> provisioned {}/{} (peak of the last 30 minutes at 70 %)", est[0], est[1])
                    },
                );
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------------ pending completions

    pub(super) fn apply_pending(&mut self, s: u64) {
        while self.pending.first().is_some_and(|(t, _)| *t <= s) {
            let (_, p) = self.pending.remove(0);
            match p {
                Pending::Update { res: r, units, action } => {
                    for d in Dim::ALL {
                        if units[d as usize].is_some() {
                            self.ctl[r].updating[d as usize] = false;
                        }
                    }
                    let Mode::Provisioned { units: old } = self.res[r].mode else {
                        continue;
                    };
                    let new = [units[0].unwrap_or(old[0]), units[1].unwrap_or(old[1])];
                    self.res[r].mode = Mode::Provisioned { units: new };
                    self.res[r].refresh_limits();
                    for d in Dim::ALL {
                        let i = d as usize;
                        self.ctl[r].warm[i] = self.ctl[r].warm[i].max(new[i]);
                        if new[i] != old[i] {
                            self.event(s, r, action, Some(d), old[i] as f64, new[i] as f64, String::new());
                        }
                    }
                    let n = initial_partitions(&self.res[r].mode, 0) as usize;
                    self.grow(s, r, n, "provisioned capacity above what the partitions serve");
                }
                Pending::Prewarm { res: r, units } => {
                    for d in Dim::ALL {
                        let i = d as usize;
                        if let Some(u) = units[i] {
                            let old = self.ctl[r].warm[i];
                            self.ctl[r].warm[i] = old.max(u);
                            if let Some(od) = &mut self.ctl[r].od {
                                od[i].raise(u as f64);
                            }
                            self.event(s, r, "prewarm", Some(d), old as f64, self.ctl[r].warm[i] as f64, String::new());
                        }
                    }
                    self.sync_on_demand(s, r);
                    let w = self.ctl[r].warm;
                    let n = w[0].div_ceil(PARTITION_READ_CAP).max(w[1].div_ceil(PARTITION_WRITE_CAP)) as usize;
                    self.grow(s, r, n, "pre-warm");
                }
                Pending::HeatSplit { res: r, at } => {
                    let i = self.res[r].partition_of(at);
                    let (lo, hi) = self.res[r].range(i);
                    if at > lo {
                        let frac = (u128::from(at - lo)) as f64 / (hi - u128::from(lo)) as f64;
                        let old = self.res[r].partition_count();
                        self.res[r].split(i, at, frac);
                        self.partitions_changed(r);
                        self.event(
                            s,
                            r,
                            "split_for_heat",
                            None,
                            old as f64,
                            (old + 1) as f64,
                            format!("partition {i} split at its traffic-weighted median"),
                        );
                    }
                    self.ctl[r].heat_handled.remove(&lo);
                }
            }
        }
    }

    /// Sets an on-demand resource's limits from its growth state.
    fn sync_on_demand(&mut self, s: u64, r: usize) {
        let Some(od) = &self.ctl[r].od else { return };
        let instant = [od[0].instant as u64, od[1].instant as u64];
        if let Mode::OnDemand { max, quota, .. } = self.res[r].mode {
            self.ctl[r].warm = [self.ctl[r].warm[0].max(instant[0]), self.ctl[r].warm[1].max(instant[1])];
            self.res[r].mode = Mode::OnDemand { warm: self.ctl[r].warm, max, quota };
            self.res[r].refresh_limits();
            let n = initial_partitions(&self.res[r].mode, 0) as usize;
            self.grow(s, r, n, "on-demand capacity grew");
        }
    }

    // ------------------------------------------------------------------ every minute

    /// Runs after minute `s / 60 - 1` has been recorded; `s` is the second that starts next.
    pub(super) fn control_minute(&mut self, s: u64) {
        for r in 0..self.res.len() {
            let m = self.rec.resources[r].last().cloned().unwrap_or_default();
            let rate = [m.consumed[0] as f64 / MILLI as f64 / 60.0, m.consumed[1] as f64 / MILLI as f64 / 60.0];
            let c = &mut self.ctl[r];
            c.history.push_back(rate);
            while c.history.len() > SWITCH_ESTIMATE_MINUTES {
                c.history.pop_front();
            }
            if let Some(od) = &mut c.od {
                od[0].minute(rate[0]);
                od[1].minute(rate[1]);
                self.sync_on_demand(s, r);
            }
            self.autoscale(s, r, rate);
            self.split_for_size(s, r);
        }
    }

    fn autoscale(&mut self, s: u64, r: usize, rate: [f64; 2]) {
        // Application Auto Scaling does not manage an index while it is being created.
        if !self.gsi_active[r] || self.backfill[r].is_some() {
            return;
        }
        let Mode::Provisioned { units } = self.res[r].mode else {
            return;
        };
        let Some(scaling) = self.ctl[r].scaling.clone() else {
            return;
        };
        for d in Dim::ALL {
            let i = d as usize;
            let Some(scaler) = &mut self.ctl[r].scalers[i] else {
                continue;
            };
            let decision = scaler.evaluate(rate[i], units[i], s);
            if decision == Decision::Hold || self.ctl[r].updating[i] {
                continue;
            }
            let (new, action) = match decision {
                Decision::ScaleOut(n) => (n, "scale_out"),
                Decision::ScaleIn(n) => (n, "scale_in"),
                Decision::Hold => continue,
            };
            let delay = if scaling.instant { 0 } else { scaling.alarm_delay.as_secs() };
            let call_at = s + delay;
            if action == "scale_in" {
                let now = self.now_unix(call_at);
                if !self.ctl[r].decreases.allowed(now) {
                    continue;
                }
                self.ctl[r].decreases.record(now);
            }
            let mut u = [None, None];
            u[i] = Some(new);
            let latency = if scaling.instant { 0 } else { self.update_latency(r, u) };
            if let Some(sc) = &mut self.ctl[r].scalers[i] {
                sc.acted(decision, call_at);
            }
            self.ctl[r].updating[i] = true;
            self.schedule(call_at + latency, Pending::Update { res: r, units: u, action });
        }
    }

    fn split_for_size(&mut self, s: u64, r: usize) {
        while let Some(i) = self.res[r].parts.iter().position(|p| p.bytes > PARTITION_BYTES) {
            let (lo, hi) = self.res[r].range(i);
            let old = self.res[r].partition_count();
            self.res[r].split(i, ((u128::from(lo) + hi) / 2) as u64, 0.5);
            self.partitions_changed(r);
            self.event(s, r, "split_for_size", None, old as f64, (old + 1) as f64, format!("partition {i} reached 10 GB"));
        }
    }

    /// Called by `end_minute` with each partition's utilization of its cap (the larger of read
    /// and write) for the minute just ended.
    pub(super) fn track_heat(&mut self, s: u64, r: usize, utilization: &[f64]) {
        let Some(heat) = self.sc.table.split_for_heat else {
            return;
        };
        for (i, &u) in utilization.iter().enumerate() {
            let hm = &mut self.ctl[r].hot_minutes[i];
            *hm = if u >= heat.threshold { *hm + 1 } else { 0 };
            if u64::from(*hm) < heat.window_minutes {
                continue;
            }
            let (lo, _) = self.res[r].range(i);
            if self.ctl[r].heat_handled.contains(&lo) {
                continue;
            }
            self.ctl[r].heat_handled.insert(lo);
            match self.heat_split_point(r, i, s) {
                Ok(at) => self.schedule(s + heat.delay_s, Pending::HeatSplit { res: r, at }),
                Err(why) => self.event(s, r, "heat_split_skipped", None, 0.0, 0.0, format!("partition {i}: {why}")),
            }
        }
    }

    /// The traffic-weighted median of the keys in partition `i` of resource `r`, from the
    /// patterns' key popularity; refuses when one key carries more than half the traffic or the
    /// keys are sequential (spec §2).
    fn heat_split_point(&self, r: usize, i: usize, s: u64) -> Result<u64, &'static str> {
        let (lo, hi) = self.res[r].range(i);
        let mut points: Vec<(u64, f64)> = Vec::new();
        let mut tail = 0.0;
        for (j, p) in self.pats.iter().enumerate() {
            let lambda = self.lambda(j, s.saturating_sub(1));
            let mut spaces: Vec<(usize, f64)> = Vec::new();
            if p.res == r {
                if let Some(ks) = p.key_space {
                    spaces.push((ks, lambda * p.fanout as f64));
                }
            }
            for g in &p.gsi {
                if g.res == r {
                    spaces.push((g.key_space, lambda * g.coverage * p.items_per_attempt as f64));
                }
            }
            for (ks, weight) in spaces {
                let dist = &self.dists[ks];
                if dist.sequential_period_s.is_some() {
                    return Err("sequential keys (DynamoDB does not split for heat on them)");
                }
                let count = self.sc.key_spaces[ks].shards.map_or(1, |sh| sh.count).min(64);
                for (rank, &pr) in dist.head.iter().enumerate() {
                    for sh in 0..count {
                        let h = key_hash(self.salt, ks as u64, rank as u64, sh);
                        if h >= lo && u128::from(h) < hi {
                            points.push((h, weight * pr / count as f64));
                        }
                    }
                }
                tail += weight * dist.tail_prob * ((hi - u128::from(lo)) as f64 / 18_446_744_073_709_551_616.0);
            }
        }
        if tail > 0.0 {
            let step = (hi - u128::from(lo)) / u128::from(TAIL_POINTS);
            for k in 0..TAIL_POINTS {
                points.push(((u128::from(lo) + step * u128::from(k) + step / 2) as u64, tail / TAIL_POINTS as f64));
            }
        }
        let total: f64 = points.iter().map(|p| p.1).sum();
        if points.len() < 2 || total <= 0.0 {
            return Err("one key or no traffic");
        }
        // Merge shards of the same hash (none in practice) and find the crossing of one half.
        points.sort_by_key(|p| p.0);
        if points.iter().any(|p| p.1 > 0.5 * total) {
            return Err("one key carries more than half of the partition's traffic");
        }
        let mut cum = 0.0;
        for w in points.windows(2) {
            cum += w[0].1;
            if cum >= 0.5 * total {
                let at = ((u128::from(w[0].0) + u128::from(w[1].0)) / 2 + 1) as u64;
                return if at > lo && u128::from(at) < hi { Ok(at) } else { Err("no split point inside the range") };
            }
        }
        Err("no split point inside the range")
    }
}
