//! A table as one value: its resources (the table, its GSIs, its replicas), their capacity
//! controllers, its indexes' state, its item collections, replication and time to live, and
//! the rules that change them — capacity commands applied, partitions grown and split, the
//! end of each second and minute. The [`super::Simulation`] drives time and traffic; what a
//! table does with them is here, written once.

use super::account::Peer;
use super::admission::Scratch;
use super::result::CapacityEvent;
use super::schedule::{Schedule, Scheduled};
use super::ttl::Ttl;
use crate::metrics::{MinuteRecord, PartitionMinute, Recorder};
use crate::model::control::{CapacityCommand, CapacityController, Completion, ControlSettings};
use crate::model::indexes::{IndexState, ItemCollections, Propagation, WriteBuffer};
use crate::model::replica::Replication;
use crate::model::request::{initial_collection_bytes, initial_index_bytes, initial_large_collections, mean_written_item};
use crate::model::resource::Resource;
use crate::model::{CapacityAction, CapacityMode, Dim};
use crate::rng::{RngStreams, Stream};
use crate::scenario::{Action, CapacitySpec, GsiBackpressure, Layout, ResourceId, ResourceKind, Scenario};
use crate::time::MICROS_PER_SEC;
use crate::units::MILLI;

use super::draw::Traffic;

/// What a table's rules change outside the table: the schedule of completions, the timeline
/// of capacity events, and the run's record.
pub(super) struct Effects<'e> {
    pub(super) schedule: &'e mut Schedule,
    pub(super) events: &'e mut Vec<CapacityEvent>,
    pub(super) rec: &'e mut Recorder,
}

impl Effects<'_> {
    /// Records an event of resource `r` of `table`.
    #[allow(clippy::too_many_arguments)]
    fn event(
        &mut self,
        table: &Table<'_>,
        s: u64,
        r: usize,
        action: CapacityAction,
        dimension: Option<Dim>,
        old: f64,
        new: f64,
        detail: String,
    ) {
        let (resource, id) = (table.res[r].name().to_string(), table.layout.id(r));
        self.events.push(CapacityEvent { time_s: s, resource, id, action, dimension, old, new, detail });
    }
}

/// One table and everything it owns.
pub(super) struct Table<'a> {
    pub(super) sc: &'a Scenario,
    /// Where each resource sits in the slices below.
    pub(super) layout: Layout,
    /// The table, then its GSIs, then its replicas in other regions.
    pub(super) res: Vec<Resource>,
    /// Per resource: its capacity controller.
    ctl: Vec<CapacityController>,
    /// Per resource: GSI state (none for the table and replicas).
    pub(super) indexes: Vec<Option<IndexState>>,
    /// Per resource: it exists (a GSI created during the run does not until then).
    pub(super) active: Vec<bool>,
    pub(super) collections: ItemCollections,
    /// Global tables: the replication queue of each region's table (the table's, then each
    /// replica's); empty without replicas.
    replication: Vec<Replication>,
    /// Scratch for [`Self::replicate`]: each region's own writes of the second, per partition.
    replication_local: Vec<Vec<u64>>,
    /// Time to live's background deletes, if on.
    ttl: Option<Ttl>,
    /// The entity types' names (for partition shares).
    entity_names: Vec<String>,
    /// The admission's per-resource scratch, sized by partitions.
    pub(super) scratch: Scratch,
    /// Resources of its own: `res` holds only these, but for the second another table lends
    /// its own after them.
    pub(super) own: usize,
    /// The other tables' resources lent for the second: (first, end) of each, in `res`.
    pub(super) lent: Vec<(usize, usize)>,
    /// Per resource: the units of a raise in flight (an UpdateTable called, not yet done), by
    /// dimension; 0 when none. A raise holds its quota from the call.
    raising: Vec<[u64; 2]>,
    /// The other tables of the account in the same Region (an account run keeps them
    /// current; empty for a table alone).
    pub(super) others: Vec<Peer>,
    /// Its table operations in flight (UpdateTable and pre-warms called, not yet done).
    in_flight: u64,
}

impl<'a> Table<'a> {
    /// The table of `sc`, at the start of a run of `duration_s` seconds.
    pub(super) fn new(sc: &'a Scenario, streams: &RngStreams, duration_s: u64) -> Self {
        let t = &sc.table;
        let layout = sc.layout();
        let res: Vec<Resource> = layout
            .ids()
            .map(|id| {
                let (name, capacity, bytes) = match id {
                    ResourceId::Table => (t.name.clone(), t.capacity, t.storage_bytes),
                    ResourceId::Gsi(g) => {
                        let spec = &sc.gsis[g as usize];
                        (spec.name.clone(), spec.capacity, initial_index_bytes(sc, g as usize))
                    }
                    ResourceId::Replica(n) => {
                        let rep = &sc.replicas[n as usize];
                        // Write capacity and auto scaling are the table's (AWS keeps them the
                        // same in every replica); read capacity may differ.
                        let capacity = match (&t.capacity, rep.read_capacity) {
                            (CapacitySpec::Provisioned { write, .. }, Some(read)) => CapacitySpec::Provisioned { read, write: *write },
                            (c, _) => *c,
                        };
                        (rep.name(&t.name), capacity, t.storage_bytes)
                    }
                };
                let mut r =
                    Resource::new(name, id.kind() == ResourceKind::Gsi, &capacity, bytes, t.initial_burst_full, t.linear_partition_limit);
                r.set_ec_fanout_milli((t.ec_read_fanout * 1_000.0).round() as u64);
                r
            })
            .collect();
        // Global tables: a replication queue for the table and each replica.
        let replication: Vec<Replication> = if sc.replicas.is_empty() {
            Vec::new()
        } else {
            std::iter::once(0).chain(layout.replica_slots()).map(|r| Replication::new(r, res[r].partition_count())).collect()
        };
        let mut res = res;
        for q in &replication {
            res[q.res].keep_second_use();
        }
        let settings = ControlSettings {
            start_unix_s: sc.start_unix_s,
            doubling_minutes: t.on_demand_doubling_minutes,
            update_latency_s: t.update_latency.as_secs(),
            partition_add_latency_s: t.partition_add_latency.as_secs(),
            prewarm_delay_s: t.prewarm_delay.as_secs(),
            heat: t.split_for_heat,
            on_demand_quota: sc.account.table_max,
        };
        let ctl = layout
            .ids()
            .zip(&res)
            .map(|(id, r)| {
                let autoscaling = id.gsi_number().map_or(t.autoscaling.as_ref(), |g| sc.gsis[g].autoscaling.as_ref());
                CapacityController::new(r, autoscaling, settings)
            })
            .collect();
        let indexes = layout
            .ids()
            .zip(&res)
            .map(|(id, r)| {
                let g = id.gsi_number()?;
                let spec = &sc.gsis[g];
                let prop =
                    Propagation::new(spec.propagation_median_us, spec.propagation_p99_us, streams.rng(Stream::Propagation, g as u64));
                let mut idx = IndexState::new(!spec.added_during_run, prop);
                idx.buffer = match t.gsi_backpressure {
                    GsiBackpressure::Sync => None,
                    GsiBackpressure::Buffered { seconds } => Some(WriteBuffer::new(seconds.as_secs(), r.partition_count())),
                    GsiBackpressure::Absorb { bound_units } => Some(WriteBuffer::absorbing(bound_units, r.partition_count())),
                };
                Some(idx)
            })
            .collect();
        Self {
            sc,
            layout,
            ctl,
            indexes,
            active: layout.ids().map(|id| id.gsi_number().is_none_or(|g| !sc.gsis[g].added_during_run)).collect(),
            collections: ItemCollections::new(initial_collection_bytes(sc), &initial_large_collections(sc), t.ttl.map_or(0.0, |t| t.share)),
            replication,
            replication_local: Vec::new(),
            ttl: t.ttl.map(|spec| Ttl::new(spec, 1 + sc.gsis.len(), duration_s.div_ceil(60) as usize)),
            entity_names: sc.entities.iter().map(|e| e.name.clone()).collect(),
            scratch: Scratch::new(res.iter().map(Resource::partition_count)),
            raising: vec![[0; 2]; res.len()],
            others: Vec::new(),
            in_flight: 0,
            own: res.len(),
            lent: Vec::new(),
            res,
        }
    }

    /// Lends this table's resources (their index states, and which exist) to `to` for a
    /// second, after its own: `to`'s transactions write items here too.
    pub(super) fn lend_to(&mut self, to: &mut Table<'_>) {
        let first = to.res.len();
        to.res.append(&mut self.res);
        to.indexes.append(&mut self.indexes);
        to.active.extend_from_slice(&self.active);
        to.lent.push((first, to.res.len()));
        to.scratch.cover(&to.res);
    }

    /// Takes back what it lent `from` last ([`Self::lend_to`]).
    pub(super) fn take_back(&mut self, from: &mut Table<'_>) {
        let (first, _) = from.lent.pop().expect("lent");
        self.res = from.res.split_off(first);
        self.indexes = from.indexes.split_off(first);
        from.active.truncate(first);
    }

    /// Registering the scalable targets moves capacity into [min, max] (spec §6.2).
    pub(super) fn register(&mut self, fx: &mut Effects<'_>) {
        for r in 0..self.res.len() {
            if self.active[r] {
                let cmds = self.ctl[r].register(0, &self.res[r]);
                self.apply(0, r, cmds, fx);
            }
        }
    }

    /// What completes at second `s` on resource `r`.
    pub(super) fn complete(&mut self, s: u64, r: usize, what: Completion, fx: &mut Effects<'_>) {
        if matches!(what, Completion::Update { .. } | Completion::Prewarm { .. }) || (r == 0 && matches!(what, Completion::Switch { .. })) {
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        let cmds = match what {
            Completion::Update { units, action } => {
                for d in Dim::ALL {
                    if units[d as usize].is_some() {
                        self.raising[r][d as usize] = 0;
                    }
                }
                self.ctl[r].update_done(&self.res[r], units, action)
            }
            Completion::Prewarm { units } => self.ctl[r].prewarm_done(&self.res[r], units),
            Completion::HeatSplit { at } => self.ctl[r].heat_split_done(&self.res[r], at),
            Completion::Switch { on_demand, units } => self.ctl[r].switch_mode(&self.res[r], on_demand, units),
        };
        self.apply(s, r, cmds, fx);
    }

    /// The scenario's action number `i`, at second `s`.
    pub(super) fn action(&mut self, s: u64, i: usize, fx: &mut Effects<'_>, traffic: &mut Traffic) {
        match self.sc.actions[i].action.clone() {
            // The arrivals read the pattern's `scale_rate` timeline (`RateFactors`) second by second.
            Action::ScaleRate { .. } => {}
            Action::SetCapacity { index, read, write } => {
                let r = self.layout.slot(ResourceId::table_or_gsi(index));
                let cmds = self.ctl[r].set_capacity(s, &self.res[r], [read, write]);
                self.apply(s, r, cmds, fx);
                if index.is_none() {
                    // A global table's write capacity is the same in every replica.
                    for r in self.layout.replica_slots() {
                        let cmds = self.ctl[r].set_capacity(s, &self.res[r], [None, write]);
                        self.apply(s, r, cmds, fx);
                    }
                }
            }
            Action::Prewarm { index, read, write } => {
                let r = self.layout.slot(ResourceId::table_or_gsi(index));
                let cmds = self.ctl[r].prewarm(s, [read, write]);
                self.apply(s, r, cmds, fx);
            }
            Action::SwitchMode { on_demand, units } => {
                let d = self.sc.table.switch_duration.as_secs();
                // One UpdateTable, in flight until the table's switch completes.
                if d > 0 && !self.begin_operation(s, 0, fx) {
                    return;
                }
                for (r, id) in self.layout.ids().enumerate() {
                    // Explicit capacity is the table's and its replicas'; GSIs take the
                    // console's estimate.
                    let units = if id.holds_items() { units } else { None };
                    if d == 0 {
                        let cmds = self.ctl[r].switch_mode(&self.res[r], on_demand, units);
                        self.apply(s, r, cmds, fx);
                    } else {
                        // The table stays ACTIVE and keeps its old limits until the switch is done.
                        fx.schedule.push(s + d, Scheduled::Completion { res: r, what: Completion::Switch { on_demand, units } });
                    }
                }
            }
            Action::SetAutoscaling { index, changes } => {
                let target = ResourceId::table_or_gsi(index);
                // The table's settings are its replicas' too.
                let replicas = if target == ResourceId::Table { self.layout.replica_slots() } else { 0..0 };
                for r in std::iter::once(self.layout.slot(target)).chain(replicas) {
                    let cmds = self.ctl[r].set_autoscaling(s, &self.res[r], changes);
                    self.apply(s, r, cmds, fx);
                }
            }
            Action::AddGsi(g) => self.add_gsi(s, g, fx, traffic),
        }
    }

    /// Creates GSI `g`: from now on writes maintain it, and its backfill starts (spec §7).
    fn add_gsi(&mut self, s: u64, g: usize, fx: &mut Effects<'_>, traffic: &mut Traffic) {
        let r = self.layout.slot(ResourceId::gsi(g));
        if self.indexes[r].as_ref().is_none_or(|idx| idx.active) {
            return;
        }
        // An UpdateTable, in flight until the backfill completes.
        if !self.begin_operation(s, r, fx) {
            return;
        }
        let Some(idx) = &mut self.indexes[r] else { return };
        self.active[r] = true;
        let spec = &self.sc.gsis[g];
        let plan = idx.start(self.res[0].bytes(), mean_written_item(self.sc), spec.coverage, spec.projection);
        // Readable once the backfill is done (at once when there is nothing to copy).
        traffic.unreadable[r] = idx.building();
        if !idx.building() {
            self.in_flight -= 1;
        }
        let detail = format!("backfill of {:.0} existing items, {} write units", plan.items, plan.milli_units / MILLI);
        fx.event(self, s, r, CapacityAction::AddGsi, None, 0.0, plan.milli_units as f64 / MILLI as f64, detail);
    }

    /// Applies a controller's commands to resource `r`, in order.
    pub(super) fn apply(&mut self, s: u64, r: usize, cmds: Vec<CapacityCommand>, fx: &mut Effects<'_>) {
        for cmd in cmds {
            match cmd {
                CapacityCommand::SetMode(mode) => self.res[r].set_mode(mode),
                CapacityCommand::Grow { partitions, why } => {
                    let old = self.res[r].partition_count();
                    if partitions > old {
                        self.res[r].grow_to(partitions);
                        fx.rec.entity_use.grow(r, old, self.res[r].partition_count());
                        if let Some(b) = self.buffer_mut(r) {
                            b.grow_to(partitions);
                        }
                        if let Some(q) = self.replication_mut(r) {
                            q.grow_to(partitions);
                        }
                        self.partitions_changed(r);
                        let new = self.res[r].partition_count();
                        fx.event(self, s, r, CapacityAction::PartitionsAdded, None, old as f64, new as f64, why.to_string());
                    }
                }
                CapacityCommand::Split { index, at, frac } => {
                    self.res[r].split(index, at, frac);
                    self.split_followers(r, index, frac, fx);
                }
                CapacityCommand::Schedule { at_s, what } => {
                    let operation = matches!(what, Completion::Update { .. } | Completion::Prewarm { .. });
                    if let Completion::Update { units, .. } = what {
                        if let Some((d, old, new, detail)) = self.over_quota(r, units) {
                            self.ctl[r].update_refused(units);
                            fx.event(self, s, r, CapacityAction::RefusedQuota, Some(d), old as f64, new as f64, detail);
                            continue;
                        }
                    }
                    if operation && !self.begin_operation(s, r, fx) {
                        if let Completion::Update { units, .. } = what {
                            self.ctl[r].update_refused(units);
                        }
                        continue;
                    }
                    if let Completion::Update { units, .. } = what {
                        for d in Dim::ALL {
                            if let Some(u) = units[d as usize].filter(|&u| u > self.res[r].provisioned(d)) {
                                self.raising[r][d as usize] = u;
                            }
                        }
                    }
                    fx.schedule.push(at_s, Scheduled::Completion { res: r, what });
                }
                CapacityCommand::Event { action, dim, old, new, detail } => fx.event(self, s, r, action, dim, old, new, detail),
                CapacityCommand::Register => {
                    let more = self.ctl[r].register(s, &self.res[r]);
                    self.apply(s, r, more, fx);
                }
            }
        }
    }

    /// Would an UpdateTable of resource `r` to `units` take the table and its GSIs past a
    /// quota on provisioned capacity ([`crate::scenario::AccountSpec`])? Each resource holds
    /// its provisioned units or the raise it has in flight, whichever is more. Returns the
    /// dimension refused, the units held and asked, and the words naming the quota and what
    /// holds it. A replica is in another Region, under that Region's quotas: never refused.
    fn over_quota(&self, r: usize, units: [Option<u64>; 2]) -> Option<(Dim, u64, u64, String)> {
        if self.layout.id(r).kind() == ResourceKind::Replica {
            return None;
        }
        let account = self.sc.account;
        for d in Dim::ALL {
            let i = d as usize;
            let Some(new) = units[i] else { continue };
            let old = self.held(r, d);
            if new <= old {
                continue;
            }
            let holders: Vec<(usize, u64)> =
                self.layout.table_and_gsis().map(|id| self.layout.slot(id)).filter(|&q| q != r).map(|q| (q, self.held(q, d))).collect();
            let table_total = new + holders.iter().map(|h| h.1).sum::<u64>();
            let total = table_total + self.others.iter().map(|o| o.held[i]).sum::<u64>();
            // The table-level quota first; the account-level one names the other tables too.
            let account_level = table_total <= account.table_max[i];
            let (scope, quota, total) = if !account_level {
                ("table-level", account.table_max[i], table_total)
            } else if total > account.max[i] {
                ("account-level", account.max[i], total)
            } else {
                continue;
            };
            let unit = ["RCU", "WCU"][i];
            let mut held_by: Vec<String> =
                holders.iter().filter(|h| h.1 > 0).map(|&(q, u)| format!("{} {u}", self.res[q].name())).collect();
            held_by.insert(0, format!("{} {old}", self.res[r].name()));
            if account_level {
                held_by.extend(self.others.iter().filter(|o| o.held[i] > 0).map(|o| format!("table {} {}", o.name, o.held[i])));
            }
            let detail = format!(
                "UpdateTable to {new} {unit} failed (LimitExceededException): the {scope} quota of {quota} {unit} would be passed ({total}); held: {}",
                held_by.join(", ")
            );
            return Some((d, old, new, detail));
        }
        None
    }

    /// A table operation called on resource `r` at `s`: in flight, or refused when the
    /// account's limit on operations in flight is reached (an event says so).
    fn begin_operation(&mut self, s: u64, r: usize, fx: &mut Effects<'_>) -> bool {
        let limit = self.sc.account.operations;
        match super::account::past_operations(&self.sc.table.name, self.in_flight, &self.others, limit) {
            Some((held, detail)) => {
                fx.event(self, s, r, CapacityAction::RefusedQuota, None, held as f64, (held + 1) as f64, detail);
                false
            }
            None => {
                self.in_flight += 1;
                true
            }
        }
    }

    /// Its table operations in flight.
    pub(super) fn in_flight(&self) -> u64 {
        self.in_flight
    }

    /// The units resource `r` holds of the quota in `d`: its provisioned units, or a raise in
    /// flight if more; none for a GSI not yet created or an on-demand resource.
    fn held(&self, r: usize, d: Dim) -> u64 {
        if self.active[r] {
            self.res[r].provisioned(d).max(self.raising[r][d as usize])
        } else {
            0
        }
    }

    /// The units the table and its GSIs hold of the Region's quota, read and write.
    pub(super) fn held_units(&self) -> [u64; 2] {
        Dim::ALL.map(|d| self.layout.table_and_gsis().map(|id| self.held(self.layout.slot(id), d)).sum())
    }

    /// Partition `index` of resource `r` has split, `frac` of it going to the new one: what
    /// follows its partitions (entity tallies, an index's buffer, a replication queue) splits
    /// with it.
    fn split_followers(&mut self, r: usize, index: usize, frac: f64, fx: &mut Effects<'_>) {
        fx.rec.entity_use.split(r, index, frac);
        if let Some(b) = self.buffer_mut(r) {
            b.split(index, frac);
        }
        if let Some(q) = self.replication_mut(r) {
            q.split(index, frac);
        }
        self.partitions_changed(r);
    }

    fn partitions_changed(&mut self, r: usize) {
        let n = self.res[r].partition_count();
        self.scratch.resize(r, n);
        self.ctl[r].partitions_changed(n);
    }

    /// The replication queue of resource `r`, if it is a replica.
    fn replication_mut(&mut self, r: usize) -> Option<&mut Replication> {
        self.replication.iter_mut().find(|q| q.res == r)
    }

    /// The write buffer of resource `r`, if it has one.
    fn buffer_mut(&mut self, r: usize) -> Option<&mut WriteBuffer> {
        self.indexes[r].as_mut().and_then(|i| i.buffer.as_mut())
    }

    // ---------------------------------------------------------------- every second

    /// Each second, before traffic: indexes being built take their share of write capacity.
    pub(super) fn backfills(&mut self, s: u64, fx: &mut Effects<'_>, traffic: &mut Traffic) {
        for r in self.layout.gsi_slots() {
            let Some(idx) = &mut self.indexes[r] else { continue };
            let Some((done, complete)) = idx.backfill_step(&mut self.res[r]) else { continue };
            if complete {
                self.in_flight = self.in_flight.saturating_sub(1);
                traffic.unreadable[r] = false;
                fx.event(self, s, r, CapacityAction::GsiActive, None, 0.0, 100.0, "backfill complete".into());
                // Auto scaling takes the index over once it is active.
                let cmds = self.ctl[r].register(s, &self.res[r]);
                self.apply(s, r, cmds, fx);
            }
            fx.rec.cur[r].online_consumed += done;
        }
    }

    /// Closes the second: consumption (less any backfill, which CloudWatch reports apart),
    /// provisioned unit-seconds and the mode go into the minute's record.
    pub(super) fn close_second(&mut self, cur: &mut [MinuteRecord]) {
        for (r, res) in self.res.iter_mut().enumerate() {
            let backfill = self.indexes[r].as_mut().map_or(0, |i| i.end_second(res.second_consumed(Dim::Write)));
            let on_demand = res.mode().kind() == CapacityMode::OnDemand;
            let cur = &mut cur[r];
            for d in Dim::ALL {
                let i = d as usize;
                let consumed = res.second_consumed(d) - if d == Dim::Write { backfill } else { 0 };
                cur.consumed[i] += consumed;
                if on_demand {
                    // On-demand bills the backfill's index writes too (spec §7: "writes into
                    // the new GSI are charged"); CloudWatch only reports them apart.
                    cur.on_demand_consumed[i] += res.second_consumed(d);
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
    }

    /// At the end of second `s`: buffered index writes are applied at what each index
    /// partition can take (buffered back-pressure).
    pub(super) fn drain_buffers(&mut self, s: u64) {
        for (idx, res) in self.indexes.iter_mut().zip(&mut self.res) {
            if let Some(b) = idx.as_mut().and_then(|i| i.buffer.as_mut()) {
                b.drain(res, (s + 1) * MICROS_PER_SEC);
            }
        }
    }

    /// At the end of second `s`: the writes each region's table admitted replicate to the
    /// others (global tables).
    pub(super) fn replicate(&mut self, s: u64, cur: &mut [MinuteRecord]) {
        if self.replication.is_empty() {
            return;
        }
        // What each region admitted of its own traffic, before any replicated write applies
        // (buffers kept from second to second).
        let mut local = std::mem::take(&mut self.replication_local);
        local.resize_with(self.replication.len(), Vec::new);
        for (q, l) in self.replication.iter().zip(&mut local) {
            let r = &self.res[q.res];
            l.clear();
            l.extend((0..r.partition_count()).map(|p| r.part_second_used(p, Dim::Write)));
        }
        for qi in 0..self.replication.len() {
            for (j, l) in local.iter().enumerate() {
                let (to, from) = (self.replication[qi].res, self.replication[j].res);
                if from != to && l.iter().any(|&u| u > 0) {
                    self.replication[qi].push(s, &self.res[from], &self.res[to], l);
                }
            }
        }
        self.replication_local = local;
        for q in &mut self.replication {
            cur[q.res].replicated_writes += q.drain(s, &mut self.res[q.res]);
        }
    }

    // ---------------------------------------------------------------- every minute

    /// Closes minute `minute` of `secs` seconds: each resource's record, its partitions'
    /// rows (when `record_partitions`), the heat each partition saw.
    pub(super) fn end_minute(&mut self, minute: u64, secs: u64, record_partitions: bool, fx: &mut Effects<'_>, traffic: &Traffic) {
        if let Some(ttl) = &mut self.ttl {
            let fraction = ttl.minute(minute as usize, &mut self.res, &mut fx.rec.cur);
            self.collections.expire(fraction);
        }
        self.replicate_minute(minute, secs, &mut fx.rec.cur);
        for r in 0..self.res.len() {
            let heat = self.record_minute(r, minute, secs, record_partitions, fx.rec);
            if secs == 60 && !heat.is_empty() {
                let s = (minute + 1) * 60;
                let res = &self.res[r];
                let cmds = self.ctl[r].on_heat(s, res, &heat, |i| traffic.heat_split_point(r, res, i, s));
                self.apply(s, r, cmds, fx);
            }
        }
    }

    /// Replicas hold the table's items, and replicate its TTL deletes as writes (free in the
    /// table's region, a replicated write in each replica's: spec §10.3), a write unit per KB
    /// deleted. Items written in a replica's region are stored in every region: they join
    /// the table's partitions, and each replica mirrors the table.
    fn replicate_minute(&mut self, minute: u64, secs: u64, cur: &mut [MinuteRecord]) {
        if self.replication.is_empty() {
            return;
        }
        let ttl_milli = cur[0].ttl_deleted_bytes * MILLI / 1_024;
        let local: u64 = self.layout.replica_slots().map(|r| self.res[r].take_added()).sum();
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
            let cur = &mut cur[q.res];
            cur.replication_backlog = m.backlog_milli;
            cur.replication_lag_us = m.lag_us;
        }
    }

    /// Resource `r`'s record of the minute, and its partitions' rows; returns each
    /// partition's heat (its busier dimension's share of the partition caps) when the
    /// resource splits for heat, else nothing.
    fn record_minute(&mut self, r: usize, minute: u64, secs: u64, record: bool, rec: &mut Recorder) -> Vec<f64> {
        let mut m = std::mem::take(&mut rec.cur[r]);
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
        rec.resources[r].push(m);
        let heat = self.ctl[r].splits_for_heat();
        if !record && !heat && !rec.entity_use.on() {
            // Nothing reads the partitions' minute: their counts run on, sparing a pass over
            // every partition (with many, most of a minute's close).
            return Vec::new();
        }
        let caps = [crate::limits::PARTITION_READ_CAP * MILLI * secs, crate::limits::PARTITION_WRITE_CAP * MILLI * secs];
        let mut util = Vec::with_capacity(if heat { res.partition_count() } else { 0 });
        let Recorder { partitions: rows, entity_use, entity_shares, .. } = rec;
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
        util
    }

    /// Runs after each minute has been recorded; `s` is the second that starts next: the
    /// controllers see the minute (auto scaling, on-demand growth), and partitions past
    /// 10 GB split.
    pub(super) fn control_minute(&mut self, s: u64, fx: &mut Effects<'_>, traffic: &Traffic) {
        for r in 0..self.res.len() {
            let m = fx.rec.resources[r].last().cloned().unwrap_or_default();
            let rate = [m.consumed[0] as f64 / MILLI as f64 / 60.0, m.consumed[1] as f64 / MILLI as f64 / 60.0];
            // Application Auto Scaling does not manage an index while it is being created.
            let managed = self.active[r] && !self.indexes[r].as_ref().is_some_and(IndexState::building);
            let cmds = self.ctl[r].on_minute(s, &self.res[r], rate, managed);
            self.apply(s, r, cmds, fx);
            let is_index = self.res[r].is_index();
            for (i, old) in self.res[r].split_for_size(|lo, hi| traffic.size_split_point(r, is_index, lo, hi, s)) {
                self.split_followers(r, i, 0.5, fx);
                fx.event(
                    self,
                    s,
                    r,
                    CapacityAction::SplitForSize,
                    None,
                    old as f64,
                    (old + 1) as f64,
                    format!("partition {i} reached 10 GB"),
                );
            }
        }
    }
}
