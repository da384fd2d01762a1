//! Capacity decisions of one table or GSI (spec §2, §5, §6): `[[at]]` actions, UpdateTable
//! latency, auto scaling, on-demand growth, pre-warming, mode switches and splits for heat.
//!
//! A [`CapacityController`] reads the [`Resource`] it controls and returns
//! [`CapacityCommand`]s; it never changes the resource or reaches into the engine, which applies
//! the commands in order. So every rule here is testable with a resource and a clock.

use super::resource::{initial_partitions, Mode, Resource};
use super::scaling::{Autoscaler, Decision, DecreaseQuota, OnDemandGrowth};
use super::{CapacityAction, Dim};
use crate::limits::{
    ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE, PARTITION_READ_CAP, PARTITION_WRITE_CAP, SWITCH_ESTIMATE_MIN,
    SWITCH_ESTIMATE_MINUTES, SWITCH_ESTIMATE_TARGET,
};
use crate::scenario::{AutoscalingSpec, HeatSpec, ScalingChange};
use std::collections::{BTreeSet, VecDeque};

/// Pseudo-points that stand for a key space's uniform tail when locating a heat split.
pub(crate) const TAIL_POINTS: u64 = 64;

/// The scenario settings a controller follows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ControlSettings {
    /// UTC instant of the run's start, Unix seconds (decreases are counted per UTC day).
    pub(crate) start_unix_s: i64,
    /// Minutes for on-demand capacity to double.
    pub(crate) doubling_minutes: f64,
    /// UpdateTable latency within what the partitions serve, s.
    pub(crate) update_latency_s: u64,
    /// UpdateTable latency when partitions must be added, s.
    pub(crate) partition_add_latency_s: u64,
    /// Time a pre-warm takes, s.
    pub(crate) prewarm_delay_s: u64,
    /// Split for heat, if on.
    pub(crate) heat: Option<HeatSpec>,
    /// The table-level quota a switch to on-demand leaves the resource under, [read, write].
    pub(crate) on_demand_quota: [u64; 2],
}

/// Something that completes later.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Completion {
    /// An UpdateTable completes with these provisioned units.
    Update {
        /// New RCU and WCU (`None`: unchanged).
        units: [Option<u64>; 2],
        /// Why: `set_capacity`, `scale_out` or `scale_in`.
        action: CapacityAction,
    },
    /// A pre-warm completes.
    Prewarm {
        /// New warm read and write throughput (`None`: unchanged).
        units: [Option<u64>; 2],
    },
    /// A capacity-mode switch completes (the old mode applied until now).
    Switch {
        /// To on-demand (else to provisioned).
        on_demand: bool,
        /// Provisioned capacity given with a switch to provisioned.
        units: Option<[u64; 2]>,
    },
    /// A split for heat completes at this hash.
    HeatSplit {
        /// Split point.
        at: u64,
    },
}

/// What the engine must do to the resource, in order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CapacityCommand {
    /// Put the resource in this mode.
    SetMode(Mode),
    /// Double partitions until there are at least this many.
    Grow {
        /// Partitions.
        partitions: usize,
        /// Why, for the capacity event.
        why: &'static str,
    },
    /// Split partition `index` at hash `at`; the lower child takes `frac` of its data.
    Split {
        /// Partition.
        index: usize,
        /// Hash.
        at: u64,
        /// Share of the data below `at`.
        frac: f64,
    },
    /// Run `what` at second `at_s`.
    Schedule {
        /// Simulated second.
        at_s: u64,
        /// What completes.
        what: Completion,
    },
    /// Register the scalable targets again once the commands before this one are applied
    /// (capacity outside [min, max] moves into it): see [`CapacityController::register`].
    Register,
    /// Record a capacity event.
    Event {
        /// What happened.
        action: CapacityAction,
        /// Read or write, if it concerns one.
        dim: Option<Dim>,
        /// Before.
        old: f64,
        /// After.
        new: f64,
        /// Explanation.
        detail: String,
    },
}

type Commands = Vec<CapacityCommand>;

fn event(action: CapacityAction, dim: Option<Dim>, old: f64, new: f64, detail: String) -> CapacityCommand {
    CapacityCommand::Event { action, dim, old, new, detail }
}

/// Control state of one table or GSI.
#[derive(Clone, Debug)]
pub(crate) struct CapacityController {
    settings: ControlSettings,
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
}

impl CapacityController {
    /// A controller for `r`, scaled by `scaling` when the resource is provisioned.
    pub(crate) fn new(r: &Resource, scaling: Option<&AutoscalingSpec>, settings: ControlSettings) -> Self {
        let (warm, od) = match r.mode() {
            Mode::Provisioned { units } => (units, None),
            Mode::OnDemand { warm, .. } => (
                warm,
                Some([OnDemandGrowth::new(warm[0], settings.doubling_minutes), OnDemandGrowth::new(warm[1], settings.doubling_minutes)]),
            ),
        };
        let scalers = match scaling {
            Some(a) if od.is_none() => [a.read.map(Autoscaler::new), a.write.map(Autoscaler::new)],
            _ => [None, None],
        };
        Self {
            settings,
            warm,
            od,
            scalers,
            scaling: scaling.cloned(),
            decreases: DecreaseQuota::default(),
            updating: [false; 2],
            hot_minutes: vec![0; r.partition_count()],
            heat_handled: BTreeSet::new(),
            history: VecDeque::new(),
        }
    }

    /// Warm throughput of a dimension, units/s.
    pub(crate) fn warm_of(&self, d: Dim) -> u64 {
        self.warm[d as usize]
    }

    /// The resource now has `n` partitions.
    pub(crate) fn partitions_changed(&mut self, n: usize) {
        self.hot_minutes.resize(n, 0);
    }

    fn unix(&self, s: u64) -> i64 {
        self.settings.start_unix_s + s as i64
    }

    /// Latency of an UpdateTable to `units`: fast when the partitions the resource has serve the
    /// new capacity, slow when partitions must be added (spec §6.1).
    fn update_latency(&self, r: &Resource, units: [Option<u64>; 2]) -> u64 {
        let cur = match r.mode() {
            Mode::Provisioned { units } => units,
            Mode::OnDemand { warm, .. } => warm,
        };
        let new = [units[0].unwrap_or(cur[0]), units[1].unwrap_or(cur[1])];
        let needed = initial_partitions(&Mode::Provisioned { units: new }, 0) as usize;
        if needed <= r.partition_count() {
            self.settings.update_latency_s
        } else {
            self.settings.partition_add_latency_s
        }
    }

    /// `set_capacity` at second `s`: an UpdateTable of a provisioned resource, refused when the
    /// resource is on-demand or a decrease is over the daily quota (spec §6.1).
    pub(crate) fn set_capacity(&mut self, s: u64, r: &Resource, units: [Option<u64>; 2]) -> Commands {
        let Mode::Provisioned { units: cur } = r.mode() else {
            return vec![event(CapacityAction::RefusedSetCapacity, None, 0.0, 0.0, "the table is on-demand at this time".into())];
        };
        let lowers = Dim::ALL.iter().any(|&d| units[d as usize].is_some_and(|u| u < cur[d as usize]));
        if lowers {
            let now = self.unix(s);
            if !self.decreases.allowed(now) {
                let n = self.decreases.count_on(now);
                let detail = format!("{n} decreases today and one within the last hour (DynamoDB allows 4 a day, then 1 an hour)");
                return vec![event(CapacityAction::RefusedDecrease, None, 0.0, 0.0, detail)];
            }
            self.decreases.record(now);
        }
        let at_s = s + self.update_latency(r, units);
        vec![CapacityCommand::Schedule { at_s, what: Completion::Update { units, action: CapacityAction::SetCapacity } }]
    }

    /// Registers the scalable targets at second `s` (at the start, after a switch to
    /// provisioned, after a scheduled action): capacity below the minimum or above the maximum
    /// moves into the range at once, by an UpdateTable (Application Auto Scaling: "if current
    /// capacity is less than the specified minimum capacity, Application Auto Scaling scales
    /// out to the specified minimum capacity"). A decrease is subject to the daily quota.
    pub(crate) fn register(&mut self, s: u64, r: &Resource) -> Commands {
        let Mode::Provisioned { units } = r.mode() else { return Vec::new() };
        let mut out = Vec::new();
        for d in Dim::ALL {
            let i = d as usize;
            let Some(scaler) = &self.scalers[i] else { continue };
            let (min, max) = (scaler.spec.min, scaler.spec.max);
            let (new, action) = if units[i] < min {
                (min, CapacityAction::ScaleOut)
            } else if units[i] > max {
                (max, CapacityAction::ScaleIn)
            } else {
                continue;
            };
            if action == CapacityAction::ScaleIn {
                let now = self.unix(s);
                if !self.decreases.allowed(now) {
                    let n = self.decreases.count_on(now);
                    let detail = format!("lowering to the new maximum {max}: {n} decreases today and one within the last hour");
                    out.push(event(CapacityAction::RefusedDecrease, Some(d), units[i] as f64, max as f64, detail));
                    continue;
                }
                self.decreases.record(now);
            }
            let mut u = [None, None];
            u[i] = Some(new);
            self.updating[i] = true;
            out.push(CapacityCommand::Schedule { at_s: s + self.update_latency(r, u), what: Completion::Update { units: u, action } });
        }
        out
    }

    /// A scheduled scaling action at second `s`: new min, max or target of the scalable
    /// targets, then capacity moves into the new range.
    pub(crate) fn set_autoscaling(&mut self, s: u64, r: &Resource, changes: [Option<ScalingChange>; 2]) -> Commands {
        let mut out = Vec::new();
        let Some(scaling) = &mut self.scaling else { return out };
        for d in Dim::ALL {
            let i = d as usize;
            let Some(c) = &changes[i] else { continue };
            let slot = if d == Dim::Read { &mut scaling.read } else { &mut scaling.write };
            let Some(spec) = slot else { continue };
            let new = spec.with(c);
            let detail = format!(
                "min {} -> {}, max {} -> {}, target {:.0}% -> {:.0}%",
                spec.min,
                new.min,
                spec.max,
                new.max,
                spec.target * 100.0,
                new.target * 100.0
            );
            *spec = new;
            if let Some(a) = &mut self.scalers[i] {
                a.spec = new;
            }
            out.push(event(CapacityAction::SetAutoscaling, Some(d), 0.0, 0.0, detail));
        }
        out.extend(self.register(s, r));
        out
    }

    /// `prewarm` at second `s`: completes after the pre-warm delay.
    pub(crate) fn prewarm(&self, s: u64, units: [Option<u64>; 2]) -> Commands {
        vec![CapacityCommand::Schedule { at_s: s + self.settings.prewarm_delay_s, what: Completion::Prewarm { units } }]
    }

    /// A capacity-mode switch (spec §5). To on-demand: the previous peak is half the highest
    /// provisioned throughput, so the resource serves at least that at once, never below the
    /// new-table defaults (O5). To provisioned: `units` when given, else the console's estimate
    /// (the peak minute of the last 30 at 70 %, at least 5); auto scaling resumes.
    pub(crate) fn switch_mode(&mut self, r: &Resource, to_on_demand: bool, units: Option<[u64; 2]>) -> Commands {
        match (r.mode(), to_on_demand) {
            (Mode::Provisioned { units: prov }, true) => {
                let warm = [
                    self.warm[0].max(prov[0]).max(ON_DEMAND_DEFAULT_WARM_READ),
                    self.warm[1].max(prov[1]).max(ON_DEMAND_DEFAULT_WARM_WRITE),
                ];
                let d = self.settings.doubling_minutes;
                let mut od = [OnDemandGrowth::new(warm[0], d), OnDemandGrowth::new(warm[1], d)];
                for (g, w) in od.iter_mut().zip(warm) {
                    g.raise(w as f64);
                }
                self.od = Some(od);
                self.warm = warm;
                let mode = Mode::OnDemand { warm, max: [None, None], quota: self.settings.on_demand_quota };
                let detail = format!("provisioned {}/{} -> on-demand, warm {}/{}", prov[0], prov[1], warm[0], warm[1]);
                vec![
                    CapacityCommand::SetMode(mode),
                    CapacityCommand::Grow { partitions: initial_partitions(&mode, 0) as usize, why: "switch to on-demand" },
                    event(CapacityAction::SwitchMode, None, 0.0, 1.0, detail),
                ]
            }
            (Mode::OnDemand { .. }, false) => {
                let mut est = [SWITCH_ESTIMATE_MIN; 2];
                for (d, e) in est.iter_mut().enumerate() {
                    let peak = self.history.iter().map(|h| h[d]).fold(0.0, f64::max);
                    *e = ((peak / SWITCH_ESTIMATE_TARGET).ceil() as u64).max(SWITCH_ESTIMATE_MIN);
                }
                let new = units.unwrap_or(est);
                self.od = None;
                if let Some(a) = &self.scaling {
                    self.scalers = [a.read.map(Autoscaler::new), a.write.map(Autoscaler::new)];
                }
                let mode = Mode::Provisioned { units: new };
                let detail = if units.is_some() {
                    format!("on-demand -> provisioned {}/{}", new[0], new[1])
                } else {
                    format!("on-demand -> provisioned {}/{} (peak of the last 30 minutes at 70 %)", new[0], new[1])
                };
                vec![
                    CapacityCommand::SetMode(mode),
                    CapacityCommand::Grow { partitions: initial_partitions(&mode, 0) as usize, why: "switch to provisioned" },
                    event(CapacityAction::SwitchMode, None, 1.0, 0.0, detail),
                    CapacityCommand::Register,
                ]
            }
            _ => Vec::new(),
        }
    }

    /// An UpdateTable failed (LimitExceededException): nothing is in flight for its dimensions.
    pub(crate) fn update_refused(&mut self, units: [Option<u64>; 2]) {
        for d in Dim::ALL {
            if units[d as usize].is_some() {
                self.updating[d as usize] = false;
            }
        }
    }

    /// An UpdateTable completes: new provisioned units, warm throughput follows, partitions
    /// double when they no longer serve the capacity (spec §2, P4).
    pub(crate) fn update_done(&mut self, r: &Resource, units: [Option<u64>; 2], action: CapacityAction) -> Commands {
        for d in Dim::ALL {
            if units[d as usize].is_some() {
                self.updating[d as usize] = false;
            }
        }
        let Mode::Provisioned { units: old } = r.mode() else {
            return Vec::new();
        };
        let new = [units[0].unwrap_or(old[0]), units[1].unwrap_or(old[1])];
        let mode = Mode::Provisioned { units: new };
        let mut out = vec![CapacityCommand::SetMode(mode)];
        for d in Dim::ALL {
            let i = d as usize;
            self.warm[i] = self.warm[i].max(new[i]);
            if new[i] != old[i] {
                out.push(event(action, Some(d), old[i] as f64, new[i] as f64, String::new()));
            }
        }
        out.push(CapacityCommand::Grow {
            partitions: initial_partitions(&mode, 0) as usize,
            why: "provisioned capacity above what the partitions serve",
        });
        out
    }

    /// A pre-warm completes: warm throughput rises (never falls), on-demand capacity with it,
    /// and partitions are added to serve it (spec §5.1).
    pub(crate) fn prewarm_done(&mut self, r: &Resource, units: [Option<u64>; 2]) -> Commands {
        let mut out = Vec::new();
        for d in Dim::ALL {
            let i = d as usize;
            if let Some(u) = units[i] {
                let old = self.warm[i];
                self.warm[i] = old.max(u);
                if let Some(od) = &mut self.od {
                    od[i].raise(u as f64);
                }
                out.push(event(CapacityAction::Prewarm, Some(d), old as f64, self.warm[i] as f64, String::new()));
            }
        }
        out.extend(self.sync_on_demand(r));
        let n = self.warm[0].div_ceil(PARTITION_READ_CAP).max(self.warm[1].div_ceil(PARTITION_WRITE_CAP)) as usize;
        out.push(CapacityCommand::Grow { partitions: n, why: "pre-warm" });
        out
    }

    /// An on-demand resource's limits from its growth state.
    fn sync_on_demand(&mut self, r: &Resource) -> Commands {
        let (Some(od), Mode::OnDemand { max, quota, .. }) = (&self.od, r.mode()) else { return Vec::new() };
        let instant = [od[0].instant as u64, od[1].instant as u64];
        self.warm = [self.warm[0].max(instant[0]), self.warm[1].max(instant[1])];
        let mode = Mode::OnDemand { warm: self.warm, max, quota };
        vec![
            CapacityCommand::SetMode(mode),
            CapacityCommand::Grow { partitions: initial_partitions(&mode, 0) as usize, why: "on-demand capacity grew" },
        ]
    }

    /// After minute `s / 60 - 1`, whose average consumption was `rate` units/s: on-demand
    /// growth, and auto scaling when `managed` (an index being built is not).
    pub(crate) fn on_minute(&mut self, s: u64, r: &Resource, rate: [f64; 2], managed: bool) -> Commands {
        self.history.push_back(rate);
        while self.history.len() > SWITCH_ESTIMATE_MINUTES {
            self.history.pop_front();
        }
        let mut out = Vec::new();
        if let Some(od) = &mut self.od {
            od[0].minute(rate[0]);
            od[1].minute(rate[1]);
            out.extend(self.sync_on_demand(r));
        }
        if managed {
            out.extend(self.autoscale(s, r, rate));
        }
        out
    }

    /// Target tracking (spec §6.2): an alarm's decision becomes an UpdateTable after the alarm
    /// delay and the UpdateTable latency (none under the `instant` policy); decreases are
    /// subject to the daily quota.
    fn autoscale(&mut self, s: u64, r: &Resource, rate: [f64; 2]) -> Commands {
        let (Mode::Provisioned { units }, Some(scaling)) = (r.mode(), self.scaling.clone()) else { return Vec::new() };
        let mut out = Vec::new();
        for d in Dim::ALL {
            let i = d as usize;
            let Some(scaler) = &mut self.scalers[i] else { continue };
            let decision = scaler.evaluate(rate[i], units[i], s);
            let (new, action) = match decision {
                Decision::Hold => continue,
                _ if self.updating[i] => continue,
                Decision::ScaleOut(n) => (n, CapacityAction::ScaleOut),
                Decision::ScaleIn(n) => (n, CapacityAction::ScaleIn),
            };
            let call_at = s + if scaling.instant { 0 } else { scaling.alarm_delay.as_secs() };
            if action == CapacityAction::ScaleIn {
                let now = self.unix(call_at);
                if !self.decreases.allowed(now) {
                    continue;
                }
                self.decreases.record(now);
            }
            let mut u = [None, None];
            u[i] = Some(new);
            let latency = if scaling.instant { 0 } else { self.update_latency(r, u) };
            if let Some(sc) = &mut self.scalers[i] {
                sc.acted(decision, call_at);
            }
            self.updating[i] = true;
            out.push(CapacityCommand::Schedule { at_s: call_at + latency, what: Completion::Update { units: u, action } });
        }
        out
    }

    /// Does this resource split for heat (so [`Self::on_heat`] reads the partitions' use)?
    #[must_use]
    pub(crate) fn splits_for_heat(&self) -> bool {
        self.settings.heat.is_some()
    }

    /// After a full minute ending at second `s`: each partition's utilization of its cap (the
    /// larger of read and write). A partition above the heat threshold for the window gets a
    /// split at `split_point(partition)` after the delay, or a skipped event saying why.
    pub(crate) fn on_heat(
        &mut self,
        s: u64,
        r: &Resource,
        utilization: &[f64],
        mut split_point: impl FnMut(usize) -> Result<u64, &'static str>,
    ) -> Commands {
        let Some(heat) = self.settings.heat else { return Vec::new() };
        let mut out = Vec::new();
        for (i, &u) in utilization.iter().enumerate() {
            let hm = &mut self.hot_minutes[i];
            *hm = if u >= heat.threshold { *hm + 1 } else { 0 };
            if u64::from(*hm) < heat.window_minutes {
                continue;
            }
            let (lo, _) = r.range(i);
            if !self.heat_handled.insert(lo) {
                continue;
            }
            out.push(match split_point(i) {
                Ok(at) => CapacityCommand::Schedule { at_s: s + heat.delay_s, what: Completion::HeatSplit { at } },
                Err(why) => event(CapacityAction::HeatSplitSkipped, None, 0.0, 0.0, format!("partition {i}: {why}")),
            });
        }
        out
    }

    /// A split for heat completes at hash `at` (if the partition holding it still starts below).
    pub(crate) fn heat_split_done(&mut self, r: &Resource, at: u64) -> Commands {
        let i = r.partition_of(at);
        let (lo, hi) = r.range(i);
        self.heat_handled.remove(&lo);
        if at <= lo {
            return Vec::new();
        }
        let frac = (u128::from(at - lo)) as f64 / (hi - u128::from(lo)) as f64;
        let old = r.partition_count();
        vec![
            CapacityCommand::Split { index: i, at, frac },
            event(
                CapacityAction::SplitForHeat,
                None,
                old as f64,
                (old + 1) as f64,
                format!("partition {i} split at its traffic-weighted median"),
            ),
        ]
    }
}

/// The traffic-weighted median of the keys of a partition `[lo, hi)`, from `points`
/// (hash, requests/s); refuses when one key carries more than half the traffic (spec §2:
/// DynamoDB does not split for a single hot item).
pub(crate) fn median_split(mut points: Vec<(u64, f64)>, lo: u64, hi: u128) -> Result<u64, &'static str> {
    let total: f64 = points.iter().map(|p| p.1).sum();
    if points.len() < 2 || total <= 0.0 {
        return Err("one key or no traffic");
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{CapacitySpec, ScalingTargetSpec};
    use crate::time::SimDuration;

    fn settings() -> ControlSettings {
        ControlSettings {
            start_unix_s: 1_767_225_600,
            doubling_minutes: 30.0,
            update_latency_s: 10,
            partition_add_latency_s: 600,
            prewarm_delay_s: 600,
            heat: Some(HeatSpec::default()),
            on_demand_quota: [40_000; 2],
        }
    }

    fn provisioned(read: u64, write: u64) -> Resource {
        Resource::new("t".into(), false, &CapacitySpec::Provisioned { read, write }, 0, true, false)
    }

    /// P4 by hand: 5,000 / 2,000 over 4 partitions; raising reads to 8,000 needs
    /// ceil((8,000 + 3 x 2,000) / 3,000) = 5 partitions, so the UpdateTable takes the slow path,
    /// and its completion asks for them.
    #[test]
    fn an_increase_past_the_partitions_is_slow_and_grows_them() {
        let r = provisioned(5_000, 2_000);
        let mut c = CapacityController::new(&r, None, settings());
        let cmds = c.set_capacity(60, &r, [Some(8_000), None]);
        assert_eq!(
            cmds,
            vec![CapacityCommand::Schedule {
                at_s: 660,
                what: Completion::Update { units: [Some(8_000), None], action: CapacityAction::SetCapacity }
            }]
        );
        let done = c.update_done(&r, [Some(8_000), None], CapacityAction::SetCapacity);
        assert_eq!(done[0], CapacityCommand::SetMode(Mode::Provisioned { units: [8_000, 2_000] }));
        assert!(done.contains(&CapacityCommand::Grow { partitions: 5, why: "provisioned capacity above what the partitions serve" }));
        assert_eq!(c.warm_of(Dim::Read), 8_000);
    }

    /// AS1 through the controller: four decreases in the first hour, the fifth refused.
    #[test]
    fn the_fifth_decrease_of_the_hour_is_refused() {
        let r = provisioned(1_000, 1_000);
        let mut c = CapacityController::new(&r, None, settings());
        for k in 0..4 {
            assert!(matches!(c.set_capacity(k * 60, &r, [Some(900 - k * 10), None])[0], CapacityCommand::Schedule { .. }));
        }
        assert!(matches!(
            c.set_capacity(300, &r, [Some(500), None])[0],
            CapacityCommand::Event { action: CapacityAction::RefusedDecrease, .. }
        ));
    }

    /// O5: 24,000 RCU / 8,000 WCU switched to on-demand keeps 24,000 / 8,000 at once.
    #[test]
    fn a_switch_to_on_demand_keeps_the_provisioned_throughput() {
        let r = provisioned(24_000, 8_000);
        let mut c = CapacityController::new(&r, None, settings());
        let cmds = c.switch_mode(&r, true, None);
        assert_eq!(cmds[0], CapacityCommand::SetMode(Mode::OnDemand { warm: [24_000, 8_000], max: [None, None], quota: [40_000; 2] }));
        assert!(c.switch_mode(&r, false, None).is_empty() || matches!(r.mode(), Mode::OnDemand { .. }));
    }

    /// AS3 through the controller: 100 WCU at target 70 %, two minutes at 140 WCU/s: scale out
    /// to 200 WCU, 90 s after the alarm plus a 10 s UpdateTable.
    #[test]
    fn auto_scaling_schedules_the_update_after_its_delays() {
        let r = provisioned(10, 100);
        let spec = AutoscalingSpec {
            instant: false,
            read: None,
            write: Some(ScalingTargetSpec {
                min: 5,
                max: 40_000,
                target: 0.7,
                scale_in_cooldown: SimDuration::ZERO,
                scale_out_cooldown: SimDuration::ZERO,
            }),
            alarm_delay: SimDuration::from_secs(90),
        };
        let mut c = CapacityController::new(&r, Some(&spec), settings());
        assert!(c.on_minute(60, &r, [0.0, 140.0], true).is_empty());
        let cmds = c.on_minute(120, &r, [0.0, 140.0], true);
        assert_eq!(
            cmds,
            vec![CapacityCommand::Schedule {
                at_s: 220,
                what: Completion::Update { units: [None, Some(200)], action: CapacityAction::ScaleOut }
            }]
        );
        // While the update is in flight, no second decision.
        assert!(c.on_minute(180, &r, [0.0, 140.0], true).is_empty());
    }

    #[test]
    fn the_median_splits_between_two_equal_keys_and_refuses_one_hot_key() {
        assert_eq!(median_split(vec![(300, 1.0), (100, 1.0)], 0, 1_000), Ok(201));
        assert!(median_split(vec![(100, 3.0), (300, 1.0)], 0, 1_000).is_err());
        assert!(median_split(vec![(100, 1.0)], 0, 1_000).is_err());
    }
}
