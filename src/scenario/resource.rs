//! A table's resources by what they are: the table, one of its GSIs, one of its replicas.
//!
//! The engine keeps a table's resources in one slice (the table, then its GSIs in the order
//! the scenario declares them, then its replicas); [`Layout`] is the only place that turns an
//! identity into a position and back, so no other code computes `g + 1`.

use super::{Action, AutoscalingSpec, CapacitySpec, IndexRef, PatternSpec, Scenario};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// What a resource is, without which one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    /// The base table.
    Table,
    /// A global secondary index.
    Gsi,
    /// A replica of the table in another region (global tables).
    Replica,
}

impl ResourceKind {
    /// `table`, `gsi` or `replica`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            ResourceKind::Table => "table",
            ResourceKind::Gsi => "gsi",
            ResourceKind::Replica => "replica",
        }
    }
}

/// One resource of a table: the table itself, its GSI number `n` (the scenario's `[[gsi]]`
/// order) or its replica number `n` (the `[[replica]]` order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceId {
    /// The base table.
    #[default]
    Table,
    /// A global secondary index.
    Gsi(u16),
    /// A replica in another region.
    Replica(u16),
}

impl ResourceId {
    /// The table (`None`) or GSI `g`: how `[[at]]` actions name their target.
    #[must_use]
    pub fn table_or_gsi(index: Option<usize>) -> Self {
        index.map_or(Self::Table, Self::gsi)
    }

    /// GSI number `g`.
    #[must_use]
    pub fn gsi(g: usize) -> Self {
        Self::Gsi(u16::try_from(g).expect("a table has at most 20 GSIs"))
    }

    /// What it is.
    #[must_use]
    pub const fn kind(self) -> ResourceKind {
        match self {
            Self::Table => ResourceKind::Table,
            Self::Gsi(_) => ResourceKind::Gsi,
            Self::Replica(_) => ResourceKind::Replica,
        }
    }

    /// The GSI's number, if it is one.
    #[must_use]
    pub const fn gsi_number(self) -> Option<usize> {
        match self {
            Self::Gsi(g) => Some(g as usize),
            _ => None,
        }
    }

    /// The replica's number, if it is one.
    #[must_use]
    pub const fn replica_number(self) -> Option<usize> {
        match self {
            Self::Replica(n) => Some(n as usize),
            _ => None,
        }
    }

    /// Does it hold the table's items (the table or a replica, not an index)?
    #[must_use]
    pub const fn holds_items(self) -> bool {
        !matches!(self, Self::Gsi(_))
    }
}

/// Where each of a table's resources sits in the engine's slice: the table, its `gsis`
/// indexes, then its `replicas`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    gsis: usize,
    replicas: usize,
}

impl Layout {
    /// A table with `gsis` GSIs and `replicas` replicas.
    #[must_use]
    pub const fn new(gsis: usize, replicas: usize) -> Self {
        Self { gsis, replicas }
    }

    /// How many resources.
    #[must_use]
    pub const fn len(self) -> usize {
        1 + self.gsis + self.replicas
    }

    /// Never: a table is always there.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        false
    }

    /// How many GSIs.
    #[must_use]
    pub const fn gsis(self) -> usize {
        self.gsis
    }

    /// The position of `id`.
    #[must_use]
    pub const fn slot(self, id: ResourceId) -> usize {
        match id {
            ResourceId::Table => 0,
            ResourceId::Gsi(g) => 1 + g as usize,
            ResourceId::Replica(n) => 1 + self.gsis + n as usize,
        }
    }

    /// What sits at `slot`.
    #[must_use]
    pub fn id(self, slot: usize) -> ResourceId {
        debug_assert!(slot < self.len(), "slot {slot} of {} resources", self.len());
        match slot {
            0 => ResourceId::Table,
            s if s <= self.gsis => ResourceId::gsi(s - 1),
            s => ResourceId::Replica((s - 1 - self.gsis) as u16),
        }
    }

    /// Every resource, in slot order.
    pub fn ids(self) -> impl Iterator<Item = ResourceId> {
        (0..self.len()).map(move |s| self.id(s))
    }

    /// The table and its GSIs (what a region's own capacity settings cover), in slot order.
    pub fn table_and_gsis(self) -> impl Iterator<Item = ResourceId> {
        std::iter::once(ResourceId::Table).chain((0..self.gsis).map(ResourceId::gsi))
    }

    /// The slots of the replicas.
    #[must_use]
    pub const fn replica_slots(self) -> Range<usize> {
        1 + self.gsis..self.len()
    }

    /// The slots of the GSIs.
    #[must_use]
    pub const fn gsi_slots(self) -> Range<usize> {
        1..1 + self.gsis
    }
}

impl Scenario {
    /// The capacity settings `id` starts with: a GSI's own, else the table's (a replica's
    /// write capacity is the table's; its read capacity may differ, [`super::ReplicaSpec`]).
    #[must_use]
    pub fn capacity_of(&self, id: ResourceId) -> &CapacitySpec {
        id.gsi_number().map_or(&self.table.capacity, |g| &self.gsis[g].capacity)
    }

    /// The capacity settings of the table or GSI `id`, to change (a replica's are the
    /// table's).
    pub fn capacity_mut(&mut self, id: ResourceId) -> &mut CapacitySpec {
        match id.gsi_number() {
            Some(g) => &mut self.gsis[g].capacity,
            None => &mut self.table.capacity,
        }
    }

    /// The auto-scaling settings of the table or GSI `id`, to change.
    pub fn autoscaling_mut(&mut self, id: ResourceId) -> &mut Option<AutoscalingSpec> {
        match id.gsi_number() {
            Some(g) => &mut self.gsis[g].autoscaling,
            None => &mut self.table.autoscaling,
        }
    }

    /// The name of the table or GSI `id` (a replica's table is named by its region:
    /// [`super::ReplicaSpec::name`]).
    #[must_use]
    pub fn resource_name(&self, id: ResourceId) -> String {
        match id {
            ResourceId::Table => self.table.name.clone(),
            ResourceId::Gsi(g) => self.gsis[g as usize].name.clone(),
            ResourceId::Replica(n) => self.replicas[n as usize].name(&self.table.name),
        }
    }

    /// The provisioned units of the table and its GSIs at the start, read and write (on-demand
    /// resources hold none; GSIs created during the run count, as they will hold theirs).
    #[must_use]
    pub fn provisioned_at_start(&self) -> [u64; 2] {
        let mut sum = [0u64; 2];
        for id in self.layout().table_and_gsis() {
            if let CapacitySpec::Provisioned { read, write } = *self.capacity_of(id) {
                sum = [sum[0].saturating_add(read), sum[1].saturating_add(write)];
            }
        }
        sum
    }

    /// Does the table with its GSIs provision more at the start than `[account]`'s quotas
    /// allow (a setting built by a study, not read from a file, which validation refuses)? The
    /// words: what it provisions and the quota it passes.
    #[must_use]
    pub fn past_quota_at_start(&self) -> Option<String> {
        let have = self.provisioned_at_start();
        (0..2).find(|&d| have[d] > self.account.limit(d)).map(|d| {
            let (unit, key) = [("RCU", "read"), ("WCU", "write")][d];
            let (scope, quota, field) = if have[d] > self.account.table_max[d] {
                ("table-level", self.account.table_max[d], format!("table_max_{key}_capacity_units"))
            } else {
                ("account-level", self.account.max[d], format!("max_{key}_capacity_units"))
            };
            format!("{} {unit} provisioned, past the {scope} quota of {quota} {unit} ([account] {field})", have[d])
        })
    }

    /// The auto-scaling settings of `id`: a GSI's own, else the table's (its replicas share
    /// them).
    #[must_use]
    pub fn autoscaling_of(&self, id: ResourceId) -> Option<&AutoscalingSpec> {
        id.gsi_number().map_or(self.table.autoscaling.as_ref(), |g| self.gsis[g].autoscaling.as_ref())
    }
}

impl PatternSpec {
    /// The resource the pattern reads or writes: a replica's table, the GSI it queries, or
    /// the table (an LSI's reads are the table's).
    #[must_use]
    pub fn resource(&self) -> ResourceId {
        match (self.replica, self.index) {
            (Some(k), _) => ResourceId::Replica(k as u16),
            (None, Some(IndexRef::Gsi(g))) => ResourceId::gsi(g),
            _ => ResourceId::Table,
        }
    }
}

impl Action {
    /// The table or GSI a capacity action is aimed at (`None` for one that is not: a mode
    /// switch covers them all, a new GSI or a rate is not capacity).
    #[must_use]
    pub fn target(&self) -> Option<ResourceId> {
        match *self {
            Action::SetCapacity { index, .. } | Action::Prewarm { index, .. } | Action::SetAutoscaling { index, .. } => {
                Some(ResourceId::table_or_gsi(index))
            }
            Action::SwitchMode { .. } | Action::AddGsi(_) | Action::ScaleRate { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots and identities are each other's inverse: the table at 0, GSIs from 1, replicas
    /// after them.
    #[test]
    fn slots_and_identities_round_trip() {
        let l = Layout::new(2, 2);
        let ids: Vec<_> = l.ids().collect();
        assert_eq!(ids, [ResourceId::Table, ResourceId::Gsi(0), ResourceId::Gsi(1), ResourceId::Replica(0), ResourceId::Replica(1)]);
        for (s, id) in ids.iter().enumerate() {
            assert_eq!(l.slot(*id), s);
        }
        assert_eq!(l.replica_slots(), 3..5);
        assert_eq!(l.gsi_slots(), 1..3);
        assert_eq!(l.table_and_gsis().count(), 3);
        assert_eq!(ResourceId::table_or_gsi(Some(1)), ResourceId::Gsi(1));
        assert!(!ResourceId::Gsi(0).holds_items() && ResourceId::Replica(0).holds_items());
    }
}
