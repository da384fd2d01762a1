//! Capacity over time: scheduled actions, the control plane's commands applied (splits, scaling, mode switches), the partitions that follow them, and the end of each minute.

use super::*;

impl Simulation<'_> {
    /// Runs every scheduled item due at second `s`.
    pub(super) fn scheduled(&mut self, s: u64) {
        while let Some(item) = self.schedule.pop_due(s) {
            match item {
                Scheduled::Action(i) => self.action(s, i),
                Scheduled::Completion { res: r, what } => {
                    let cmds = match what {
                        Completion::Update { units, action } => self.ctl[r].update_done(&self.res[r], units, action),
                        Completion::Prewarm { units } => self.ctl[r].prewarm_done(&self.res[r], units),
                        Completion::HeatSplit { at } => self.ctl[r].heat_split_done(&self.res[r], at),
                        Completion::Switch { on_demand, units } => self.ctl[r].switch_mode(&self.res[r], on_demand, units),
                    };
                    self.apply(s, r, cmds);
                }
            }
        }
    }

    /// The scenario's action number `i`, at second `s`.
    pub(super) fn action(&mut self, s: u64, i: usize) {
        match self.sc.actions[i].action.clone() {
            // The arrivals read the pattern's `scale_rate` timeline (`RateFactors`) second by second.
            Action::ScaleRate { .. } => {}
            Action::SetCapacity { index, read, write } => {
                let r = index.map_or(0, |g| g + 1);
                let cmds = self.ctl[r].set_capacity(s, &self.res[r], [read, write]);
                self.apply(s, r, cmds);
                if index.is_none() {
                    // A global table's write capacity is the same in every replica.
                    for r in self.replica_range() {
                        let cmds = self.ctl[r].set_capacity(s, &self.res[r], [None, write]);
                        self.apply(s, r, cmds);
                    }
                }
            }
            Action::Prewarm { index, read, write } => {
                let r = index.map_or(0, |g| g + 1);
                let cmds = self.ctl[r].prewarm(s, [read, write]);
                self.apply(s, r, cmds);
            }
            Action::SwitchMode { on_demand, units } => {
                let d = self.sc.table.switch_duration.as_secs();
                for r in 0..self.res.len() {
                    // Explicit capacity is the table's and its replicas'; GSIs take the
                    // console's estimate.
                    let units = if r == 0 || r > self.sc.gsis.len() { units } else { None };
                    if d == 0 {
                        let cmds = self.ctl[r].switch_mode(&self.res[r], on_demand, units);
                        self.apply(s, r, cmds);
                    } else {
                        // The table stays ACTIVE and keeps its old limits until the switch is done.
                        self.schedule.push(s + d, Scheduled::Completion { res: r, what: Completion::Switch { on_demand, units } });
                    }
                }
            }
            Action::SetAutoscaling { index, changes } => {
                let r = index.map_or(0, |g| g + 1);
                let rs: Vec<usize> = if index.is_none() { std::iter::once(0).chain(self.replica_range()).collect() } else { vec![r] };
                for r in rs {
                    let cmds = self.ctl[r].set_autoscaling(s, &self.res[r], changes);
                    self.apply(s, r, cmds);
                }
            }
            Action::AddGsi(g) => self.add_gsi(s, g),
        }
    }

    /// Creates GSI `g`: from now on writes maintain it, and its backfill starts (spec §7).
    pub(super) fn add_gsi(&mut self, s: u64, g: usize) {
        let r = g + 1;
        let Some(idx) = &mut self.indexes[r] else { return };
        if idx.active {
            return;
        }
        self.active[r] = true;
        let spec = &self.sc.gsis[g];
        let plan = idx.start(self.res[0].bytes(), mean_written_item(self.sc), spec.coverage, spec.projection);
        // Readable once the backfill is done (at once when there is nothing to copy).
        self.traffic.unreadable[r] = idx.building();
        let detail = format!("backfill of {:.0} existing items, {} write units", plan.items, plan.milli_units / MILLI);
        self.event(s, r, CapacityAction::AddGsi, None, 0.0, plan.milli_units as f64 / MILLI as f64, detail);
    }

    /// Applies a controller's commands to resource `r`, in order.
    pub(super) fn apply(&mut self, s: u64, r: usize, cmds: Vec<CapacityCommand>) {
        for cmd in cmds {
            match cmd {
                CapacityCommand::SetMode(mode) => self.res[r].set_mode(mode),
                CapacityCommand::Grow { partitions, why } => {
                    let old = self.res[r].partition_count();
                    if partitions > old {
                        self.res[r].grow_to(partitions);
                        self.rec.entity_use.grow(r, old, self.res[r].partition_count());
                        if let Some(b) = self.buffer_mut(r) {
                            b.grow_to(partitions);
                        }
                        if let Some(q) = self.replication_mut(r) {
                            q.grow_to(partitions);
                        }
                        self.partitions_changed(r);
                        let new = self.res[r].partition_count();
                        self.event(s, r, CapacityAction::PartitionsAdded, None, old as f64, new as f64, why.to_string());
                    }
                }
                CapacityCommand::Split { index, at, frac } => {
                    self.res[r].split(index, at, frac);
                    self.rec.entity_use.split(r, index, frac);
                    if let Some(b) = self.buffer_mut(r) {
                        b.split(index, frac);
                    }
                    if let Some(q) = self.replication_mut(r) {
                        q.split(index, frac);
                    }
                    self.partitions_changed(r);
                }
                CapacityCommand::Schedule { at_s, what } => self.schedule.push(at_s, Scheduled::Completion { res: r, what }),
                CapacityCommand::Event { action, dim, old, new, detail } => self.event(s, r, action, dim, old, new, detail),
                CapacityCommand::Register => {
                    let more = self.ctl[r].register(s, &self.res[r]);
                    self.apply(s, r, more);
                }
            }
        }
    }

    pub(super) fn partitions_changed(&mut self, r: usize) {
        let n = self.res[r].partition_count();
        self.scratch.resize(r, n);
        self.ctl[r].partitions_changed(n);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn event(&mut self, s: u64, r: usize, action: CapacityAction, dimension: Option<Dim>, old: f64, new: f64, detail: String) {
        self.events.push(CapacityEvent { time_s: s, resource: self.res[r].name().to_string(), action, dimension, old, new, detail });
    }

    // ---------------------------------------------------------------- every minute

    /// Closes minute `minute`: each resource's record, its partitions' rows, the heat each
    /// partition saw, and the latency of the minute.
    pub(super) fn end_minute(&mut self, minute: u64) {
        let secs = (self.duration_s - minute * 60).min(60);
        if let Some(ttl) = &mut self.ttl {
            let fraction = ttl.minute(minute as usize, &mut self.res, &mut self.rec.cur);
            self.collections.expire(fraction);
        }
        if let Some(d) = &mut self.traffic.dax {
            d.end_minute();
        }
        // Replicas hold the table's items, and replicate its TTL deletes as writes (free in
        // the table's region, a replicated write in each replica's: spec §10.3), a write unit
        // per KB deleted.
        // Items written in a replica's region are stored in every region: they join the
        // table's partitions, and each replica mirrors the table.
        if !self.replication.is_empty() {
            let ttl_milli = self.rec.cur[0].ttl_deleted_bytes * MILLI / 1_024;
            let local: u64 = self.replica_range().map(|r| self.res[r].take_added()).sum();
            if local > 0 {
                Replication::spread_bytes(&mut self.res[0], local);
            }
            let (table, rest) = self.res.split_at_mut(1);
            for q in &mut self.replication {
                if q.res > 0 {
                    let replica = &mut rest[q.res - 1];
                    Replication::mirror_bytes(&table[0], replica);
                    q.push_by_bytes(minute * 60 + secs, replica, ttl_milli);
                }
                let m = q.close_minute(minute * 60 + secs);
                let cur = &mut self.rec.cur[q.res];
                cur.replication_backlog = m.backlog_milli;
                cur.replication_lag_us = m.lag_us;
            }
        }
        for r in 0..self.res.len() {
            let mut m = std::mem::take(&mut self.rec.cur[r]);
            let res = &mut self.res[r];
            m.mode = res.mode().kind();
            for d in Dim::ALL {
                m.capacity[d as usize] = res.limit_milli(d) / MILLI;
                m.warm[d as usize] = self.ctl[r].warm_of(d);
            }
            m.partitions = res.partition_count() as u64;
            m.stored_bytes = res.bytes();
            if let Some(idx) = &mut self.indexes[r] {
                m.online_progress_bp = idx.progress_bp();
                m.lag_p99_us = idx.propagation.close_minute();
            }
            self.rec.resources[r].push(m);
            let record = self.opts.record_partitions;
            let heat = self.ctl[r].splits_for_heat();
            if !record && !heat && !self.rec.entity_use.on() {
                // Nothing reads the partitions' minute: their counts run on, sparing a pass
                // over every partition (with many, most of a minute's close).
                continue;
            }
            let caps = [crate::limits::PARTITION_READ_CAP * MILLI * secs, crate::limits::PARTITION_WRITE_CAP * MILLI * secs];
            let mut util = Vec::with_capacity(if heat { res.partition_count() } else { 0 });
            let crate::metrics::Recorder { partitions: rows, entity_use, entity_shares, .. } = &mut self.rec;
            let names = &self.entity_names;
            res.close_minute(|p, consumed, throttles| {
                let shares = if entity_use.on() { entity_use.take_shares(r, p, names) } else { String::new() };
                if record {
                    let narrow = |x: [u64; 2]| x.map(|v| u32::try_from(v).unwrap_or(u32::MAX));
                    let entities = if shares.is_empty() {
                        u32::MAX
                    } else {
                        entity_shares.push(shares);
                        (entity_shares.len() - 1) as u32
                    };
                    rows.push(PartitionMinute {
                        minute: minute as u32,
                        resource: r as u16,
                        partition: p as u32,
                        consumed: narrow(consumed),
                        throttles: narrow(throttles),
                        entities,
                    });
                }
                if heat {
                    util.push((consumed[0] as f64 / caps[0] as f64).max(consumed[1] as f64 / caps[1] as f64));
                }
            });
            if secs == 60 && heat {
                let s = (minute + 1) * 60;
                let traffic = &self.traffic;
                let cmds = self.ctl[r].on_heat(s, &self.res[r], &util, |i| traffic.heat_split_point(r, &self.res[r], i, s));
                self.apply(s, r, cmds);
            }
        }
        self.rec.close_minute();
    }

    /// Runs after minute `s / 60 - 1` has been recorded; `s` is the second that starts next.
    pub(super) fn control_minute(&mut self, s: u64) {
        for r in 0..self.res.len() {
            let m = self.rec.resources[r].last().cloned().unwrap_or_default();
            let rate = [m.consumed[0] as f64 / MILLI as f64 / 60.0, m.consumed[1] as f64 / MILLI as f64 / 60.0];
            // Application Auto Scaling does not manage an index while it is being created.
            let managed = self.active[r] && !self.indexes[r].as_ref().is_some_and(IndexState::building);
            let cmds = self.ctl[r].on_minute(s, &self.res[r], rate, managed);
            self.apply(s, r, cmds);
            let traffic = &self.traffic;
            let is_index = self.res[r].is_index();
            for (i, old) in self.res[r].split_for_size(|lo, hi| traffic.size_split_point(r, is_index, lo, hi, s)) {
                self.rec.entity_use.split(r, i, 0.5);
                if let Some(b) = self.buffer_mut(r) {
                    b.split(i, 0.5);
                }
                if let Some(q) = self.replication_mut(r) {
                    q.split(i, 0.5);
                }
                self.partitions_changed(r);
                self.event(s, r, CapacityAction::SplitForSize, None, old as f64, (old + 1) as f64, format!("partition {i} reached 10 GB"));
            }
        }
    }
}
