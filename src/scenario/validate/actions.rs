//! `[[at]]`: operational changes, and the rules that span them (the switch limit, the mode a
//! `set_capacity` finds).

use super::{Names, Validator};
use crate::limits::{MAX_REQUEST_RATE, MAX_SWITCHES_TO_ON_DEMAND_PER_DAY, MAX_TARGET_PERCENT, MIN_TARGET_PERCENT};
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawAt, RawScalingChange, RawSetAutoscaling, RawSwitchMode};
use crate::scenario::{
    Action, ActionSpec, AutoscalingSpec, CapacitySpec, GsiSpec, IndexRef, PatternSpec, RateFactor, RateShape, ScalingChange,
    ScalingTargetSpec, TableSpec,
};
use crate::time::SimDuration;

impl Validator<'_, '_> {
    /// `[[at]]`: every action, sorted by time (stable: equal times keep the file's order), with
    /// the rules that span several of them.
    pub(super) fn actions(
        &mut self,
        raw: &[RawAt],
        duration: SimDuration,
        table: &TableSpec,
        names: &Names,
        gsis: &mut [GsiSpec],
        patterns: &[PatternSpec],
    ) -> Vec<ActionSpec> {
        let root = KeyPath::root();
        let mut actions: Vec<(usize, ActionSpec)> = Vec::new();
        for (i, a) in raw.iter().enumerate() {
            if let Some(act) = self.action(&root.key("at").index(i), a, duration, names, gsis) {
                if matches!(act.action, Action::SwitchMode { on_demand: false, .. }) && !table.vector_indexes.is_empty() {
                    self.err(
                        &root.key("at").index(i).key("switch_mode"),
                        "the table has vector indexes, which are supported only in on-demand capacity mode",
                    );
                }
                if let Action::ScaleRate { pattern, .. } = act.action {
                    if patterns.get(pattern).is_some_and(|p| matches!(p.rate, RateShape::ClosedLoop(_))) {
                        self.err(
                            &root.key("at").index(i).key("scale_rate").key("pattern"),
                            "a closed loop has no rate to scale: its threads send as answers come back",
                        );
                    }
                }
                if let (Action::ScaleRate { pattern, .. }, Some(factor)) = (&act.action, a.scale_rate.as_ref().map(|s| s.factor)) {
                    let peak = patterns.get(*pattern).map_or(0.0, |p| p.rate.peak()) * factor;
                    if peak > MAX_REQUEST_RATE {
                        self.err(
                            &root.key("at").index(i).key("scale_rate").key("factor"),
                            format!("the pattern's peak rate times {factor} is {peak:.3e} requests per second, above ddbsim's ceiling of {MAX_REQUEST_RATE:e}"),
                        );
                    }
                }
                actions.push((i, act));
            }
        }
        actions.sort_by_key(|a| a.1.time);
        self.check_scaling_ranges(&actions, table.autoscaling.as_ref(), gsis);
        self.check_switch_limit(&actions);
        self.check_modes(&actions, &table.capacity);
        for (i, p) in patterns.iter().enumerate() {
            if let Some(IndexRef::Gsi(g)) = p.index {
                if gsis[g].added_during_run && matches!(p.rate, RateShape::ClosedLoop(_)) {
                    self.err(
                        &root.key("pattern").index(i).key("index"),
                        format!(
                            "\"{}\" is created during the run by add_gsi; a closed loop cannot read it before its backfill completes (an open-loop pattern's reads fail until then)",
                            gsis[g].name
                        ),
                    );
                }
            }
        }
        actions.into_iter().map(|a| a.1).collect()
    }

    fn action(&mut self, at: &KeyPath, a: &RawAt, duration: SimDuration, names: &Names, gsis: &mut [GsiSpec]) -> Option<ActionSpec> {
        let time = self.duration(&at.key("time"), &a.time)?;
        if time >= duration {
            self.err(&at.key("time"), format!("{time} is not before the end of the run ({duration})"));
        }
        let count = [
            a.set_capacity.is_some(),
            a.switch_mode.is_some(),
            a.prewarm.is_some(),
            a.add_gsi.is_some(),
            a.scale_rate.is_some(),
            a.set_autoscaling.is_some(),
            a.bulk_put.is_some(),
        ]
        .iter()
        .filter(|x| **x)
        .count();
        if count != 1 {
            self.err(
                at,
                format!(
                    "each [[at]] takes exactly one action (set_capacity, switch_mode, prewarm, add_gsi, scale_rate, set_autoscaling, bulk_put); found {count}"
                ),
            );
            return None;
        }
        let index = match &a.index {
            None => None,
            Some(name) => match names.indexes.get(name) {
                Some(IndexRef::Gsi(g)) => Some(*g),
                Some(IndexRef::Lsi(_)) => {
                    self.err(&at.key("index"), format!("\"{name}\" is an LSI: it has no capacity of its own"));
                    None
                }
                None => {
                    self.err(&at.key("index"), format!("no GSI named \"{name}\""));
                    None
                }
            },
        };
        if a.index.is_some() && a.set_capacity.is_none() && a.prewarm.is_none() && a.set_autoscaling.is_none() {
            self.err(&at.key("index"), "`index` goes with set_capacity, prewarm or set_autoscaling");
        }
        let opt_units = |v: &mut Self, p: &KeyPath, x: Option<i64>, what: &str| x.map(|x| v.units(p, x, what));
        let action = if let Some(c) = &a.set_capacity {
            let cp = at.key("set_capacity");
            if c.read.is_none() && c.write.is_none() {
                self.err(&cp, "set_capacity needs `read` or `write`");
            }
            Action::SetCapacity {
                index,
                read: opt_units(self, &cp.key("read"), c.read, "read capacity"),
                write: opt_units(self, &cp.key("write"), c.write, "write capacity"),
            }
        } else if let Some(m) = &a.switch_mode {
            self.switch_mode(&at.key("switch_mode"), m)?
        } else if let Some(c) = &a.prewarm {
            let cp = at.key("prewarm");
            if c.read.is_none() && c.write.is_none() {
                self.err(&cp, "prewarm needs `read` or `write`");
            }
            Action::Prewarm {
                index,
                read: opt_units(self, &cp.key("read"), c.read, "warm read throughput"),
                write: opt_units(self, &cp.key("write"), c.write, "warm write throughput"),
            }
        } else if let Some(c) = &a.set_autoscaling {
            self.set_autoscaling(&at.key("set_autoscaling"), c, index)
        } else if let Some(g) = &a.add_gsi {
            self.add_gsi(&at.key("add_gsi"), g, names, gsis)?
        } else if let Some(s) = &a.scale_rate {
            let sp = at.key("scale_rate");
            let pattern = names.patterns.get(&s.pattern).copied().unwrap_or_else(|| {
                self.err(&sp.key("pattern"), format!("no pattern named \"{}\"", s.pattern));
                0
            });
            if !(s.factor.is_finite() && s.factor >= 0.0) {
                self.err(&sp.key("factor"), format!("the factor must be a finite number >= 0, not {}", s.factor));
            }
            Action::ScaleRate { pattern, factor: RateFactor::new(s.factor) }
        } else {
            return None;
        };
        Some(ActionSpec { time, action })
    }

    /// `switch_mode`: to on-demand, or to provisioned with or without its capacity.
    fn switch_mode(&mut self, sp: &KeyPath, m: &RawSwitchMode) -> Option<Action> {
        let on_demand = match m.target() {
            "on_demand" => true,
            "provisioned" => false,
            other => {
                let p = if matches!(m, RawSwitchMode::To(_)) { sp.key("to") } else { sp.clone() };
                self.err(&p, format!("switch_mode is \"on_demand\" or \"provisioned\", not \"{other}\""));
                return None;
            }
        };
        let units = match m {
            RawSwitchMode::Mode(_) => None,
            RawSwitchMode::To(t) if on_demand => {
                if t.read.is_some() || t.write.is_some() {
                    self.err(sp, "read and write are provisioned capacity; a switch to on-demand takes none");
                }
                None
            }
            RawSwitchMode::To(t) => match (t.read, t.write) {
                (Some(r), Some(w)) => Some([
                    self.units(&sp.key("read"), r, "provisioned read capacity"),
                    self.units(&sp.key("write"), w, "provisioned write capacity"),
                ]),
                _ => {
                    self.err(sp, "a switch to provisioned with capacity needs both `read` and `write` (UpdateTable takes both)");
                    None
                }
            },
        };
        Some(Action::SwitchMode { on_demand, units })
    }

    /// `set_autoscaling`: new settings of the read and write scalable targets.
    fn set_autoscaling(&mut self, cp: &KeyPath, c: &RawSetAutoscaling, index: Option<usize>) -> Action {
        if c.read.is_none() && c.write.is_none() {
            self.err(cp, "set_autoscaling needs `read` or `write`");
        }
        let change = |v: &mut Self, name: &str, ch: Option<&RawScalingChange>| {
            ch.map(|ch| {
                let p = cp.key(name);
                if ch.min.is_none() && ch.max.is_none() && ch.target.is_none() {
                    v.err(&p, "a scaling change needs `min`, `max` or `target`");
                }
                if let Some(t) = ch.target {
                    if !(MIN_TARGET_PERCENT..=MAX_TARGET_PERCENT).contains(&t) {
                        v.err(&p.key("target"), format!("target utilization must be between 20 and 90 percent, not {t}"));
                    }
                }
                ScalingChange {
                    min: ch.min.map(|x| v.units(&p.key("min"), x, "minimum capacity")),
                    max: ch.max.map(|x| v.units(&p.key("max"), x, "maximum capacity")),
                    target: ch.target.map(|t| t / 100.0),
                }
            })
        };
        let read = change(self, "read", c.read.as_ref());
        let write = change(self, "write", c.write.as_ref());
        Action::SetAutoscaling { index, changes: [read, write] }
    }

    /// `add_gsi`: a GSI of `[[gsi]]` created during the run.
    fn add_gsi(&mut self, ap: &KeyPath, g: &str, names: &Names, gsis: &mut [GsiSpec]) -> Option<Action> {
        match names.indexes.get(g) {
            Some(IndexRef::Gsi(i)) => {
                if gsis[*i].added_during_run {
                    self.err(ap, format!("\"{g}\" is already added by another [[at]]"));
                }
                gsis[*i].added_during_run = true;
                Some(Action::AddGsi(*i))
            }
            Some(IndexRef::Lsi(_)) => {
                self.err(ap, format!("\"{g}\" is an LSI: LSIs are defined when the table is created and cannot be added later"));
                None
            }
            None => {
                self.err(ap, format!("no GSI named \"{g}\" in [[gsi]]"));
                None
            }
        }
    }

    /// `set_autoscaling` changes a scalable target that exists (the table's or the GSI's
    /// `autoscaling` sets it up), and leaves min at most max, applied in time order.
    fn check_scaling_ranges(&mut self, actions: &[(usize, ActionSpec)], table: Option<&AutoscalingSpec>, gsis: &[GsiSpec]) {
        let mut state: Vec<[Option<ScalingTargetSpec>; 2]> = std::iter::once(table)
            .chain(gsis.iter().map(|g| g.autoscaling.as_ref()))
            .map(|a| a.map_or([None, None], |a| [a.read, a.write]))
            .collect();
        for (raw_index, a) in actions {
            let Action::SetAutoscaling { index, changes } = &a.action else { continue };
            let r = crate::scenario::Layout::new(gsis.len(), 0).slot(crate::scenario::ResourceId::table_or_gsi(*index));
            let whose = index.map_or_else(|| "the table".to_string(), |g| format!("GSI \"{}\"", gsis[g].name));
            for (d, name) in ["read", "write"].into_iter().enumerate() {
                let Some(c) = &changes[d] else { continue };
                let p = KeyPath::root().key("at").index(*raw_index).key("set_autoscaling").key(name);
                match state[r][d] {
                    None => self.err(
                        &p,
                        format!(
                            "{whose} has no {name} auto scaling to change: give it `autoscaling = {{ {name} = {{ min, max, target }} }}`"
                        ),
                    ),
                    Some(spec) => {
                        let new = spec.with(c);
                        if new.min > new.max {
                            self.err(&p, format!("min ({}) would be above max ({}) from {}", new.min, new.max, a.time));
                        }
                        state[r][d] = Some(new);
                    }
                }
            }
        }
    }

    /// Provisioned -> on-demand switches: at most 4 in any rolling 24 hours (spec §5).
    fn check_switch_limit(&mut self, actions: &[(usize, ActionSpec)]) {
        let switches: Vec<(usize, SimDuration)> =
            actions.iter().filter(|a| matches!(a.1.action, Action::SwitchMode { on_demand: true, .. })).map(|a| (a.0, a.1.time)).collect();
        for (i, &(raw_index, t)) in switches.iter().enumerate() {
            let in_window = switches[..=i].iter().filter(|s| t.as_micros() - s.1.as_micros() < 86_400_000_000).count();
            if in_window > MAX_SWITCHES_TO_ON_DEMAND_PER_DAY {
                self.err(
                    &KeyPath::root().key("at").index(raw_index).key("switch_mode"),
                    format!(
                        "a fifth switch to on-demand within 24 hours (at {t}): DynamoDB allows {MAX_SWITCHES_TO_ON_DEMAND_PER_DAY} per rolling 24 hours"
                    ),
                );
                return;
            }
        }
    }

    /// `set_capacity` sets provisioned capacity: it needs the table to be provisioned at that
    /// time, from the start or after a `switch_mode` to provisioned.
    fn check_modes(&mut self, actions: &[(usize, ActionSpec)], capacity: &CapacitySpec) {
        let mut on_demand = matches!(capacity, CapacitySpec::OnDemand { .. });
        for (raw_index, a) in actions {
            match a.action {
                Action::SwitchMode { on_demand: to, .. } => on_demand = to,
                Action::SetCapacity { .. } if on_demand => self.err(
                    &KeyPath::root().key("at").index(*raw_index).key("set_capacity"),
                    format!(
                        "set_capacity sets provisioned capacity; the table is on-demand at {} (switch_mode to provisioned first)",
                        a.time
                    ),
                ),
                _ => {}
            }
        }
    }
}
