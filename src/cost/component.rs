//! What a bill line charges for, and the group it is drawn and tabled in. Every cost chart and
//! table reads a line's name and group from here, so a new kind of line is named and grouped
//! where it is declared: a line the charts cannot place does not compile.

use crate::scenario::Meter;
use serde::{Deserialize, Serialize};

/// What a bill line charges for (serialised by its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BillComponent {
    /// Read capacity: provisioned RCU-hours or on-demand read request units.
    Reads,
    /// Write capacity: provisioned WCU-hours or on-demand write request units.
    Writes,
    /// Storage, GB-months.
    Storage,
    /// Reserved capacity's upfront fee, amortised over the term.
    ReservedUpfront,
    /// Reserved capacity's hourly fee.
    ReservedHourly,
    /// Point-in-time recovery, GB-months of the table's size.
    Pitr,
    /// On-demand backups stored, GB-months.
    Backups,
    /// Restores, per GB.
    Restores,
    /// Exports to S3, per GB.
    Exports,
    /// DynamoDB Streams read request units (pollers' GetRecords calls).
    Streams,
    /// DAX node-hours.
    Dax,
    /// Global tables: data a region's own writes send to the other regions, per GB.
    ReplicationTransfer,
    /// CloudWatch Contributor Insights: rules and events.
    ContributorInsights,
    /// A Savings Plan's commitment, every hour of the window.
    SavingsPlanCommitment,
    /// The list price of the eligible usage the commitment paid for, credited (negative), as
    /// AWS's "Savings Plan negation" lines are.
    SavingsPlanCovered,
    /// A unit metered per request beside read and write units (a vector index's write bytes).
    Metered(Meter),
}
impl BillComponent {
    /// Every component but the metered units, in declaration order.
    pub const FIXED: [BillComponent; 15] = [
        BillComponent::Reads,
        BillComponent::Writes,
        BillComponent::Storage,
        BillComponent::ReservedUpfront,
        BillComponent::ReservedHourly,
        BillComponent::Pitr,
        BillComponent::Backups,
        BillComponent::Restores,
        BillComponent::Exports,
        BillComponent::Streams,
        BillComponent::Dax,
        BillComponent::ReplicationTransfer,
        BillComponent::ContributorInsights,
        BillComponent::SavingsPlanCommitment,
        BillComponent::SavingsPlanCovered,
    ];

    /// Every component: the fixed ones, then one per metered unit.
    pub fn all() -> impl Iterator<Item = BillComponent> {
        Self::FIXED.into_iter().chain(Meter::ALL.into_iter().map(BillComponent::Metered))
    }

    /// The component named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().find(|c| c.name() == name)
    }

    /// The name the bill's tables print (`reads`, `reserved_upfront`, ...), as serialised.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BillComponent::Reads => "reads",
            BillComponent::Writes => "writes",
            BillComponent::Storage => "storage",
            BillComponent::ReservedUpfront => "reserved_upfront",
            BillComponent::ReservedHourly => "reserved_hourly",
            BillComponent::Pitr => "pitr",
            BillComponent::Backups => "backups",
            BillComponent::Restores => "restores",
            BillComponent::Exports => "exports",
            BillComponent::Streams => "streams",
            BillComponent::Dax => "dax",
            BillComponent::ReplicationTransfer => "replication_transfer",
            BillComponent::ContributorInsights => "contributor_insights",
            BillComponent::SavingsPlanCommitment => "savings_plan_commitment",
            BillComponent::SavingsPlanCovered => "savings_plan_covered",
            BillComponent::Metered(m) => m.name(),
        }
    }

    /// The group of a line of the table itself (a GSI's lines are [`CostGroup::Indexes`], a
    /// replica's [`CostGroup::Replicas`]: see [`CostGroup::of_line`]).
    #[must_use]
    pub const fn group(self) -> CostGroup {
        match self {
            BillComponent::Reads => CostGroup::Reads,
            BillComponent::Writes => CostGroup::Writes,
            BillComponent::Storage => CostGroup::Storage,
            BillComponent::ReservedUpfront | BillComponent::ReservedHourly => CostGroup::Reserved,
            BillComponent::Pitr | BillComponent::Backups | BillComponent::Restores | BillComponent::Exports => CostGroup::Backups,
            BillComponent::Streams => CostGroup::Streams,
            BillComponent::Dax => CostGroup::Dax,
            BillComponent::ReplicationTransfer => CostGroup::Replicas,
            BillComponent::ContributorInsights => CostGroup::Monitoring,
            BillComponent::SavingsPlanCommitment | BillComponent::SavingsPlanCovered => CostGroup::SavingsPlan,
            // Metered units are billed to the index that meters them.
            BillComponent::Metered(_) => CostGroup::Indexes,
        }
    }
}

impl Serialize for BillComponent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BillComponent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown bill component \"{name}\"")))
    }
}

/// A group of bill lines as the cost charts stack them, in stacking order, each with its label
/// and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostGroup {
    /// The table's read capacity.
    Reads,
    /// The table's write capacity.
    Writes,
    /// The table's storage.
    Storage,
    /// Reserved capacity's fees.
    Reserved,
    /// Everything billed to the GSIs.
    Indexes,
    /// Everything billed to the replicas, and the data the table's writes send them.
    Replicas,
    /// DynamoDB Streams reads.
    Streams,
    /// DAX node-hours.
    Dax,
    /// PITR, backups, restores and exports.
    Backups,
    /// CloudWatch Contributor Insights.
    Monitoring,
    /// A Savings Plan's commitment and the list price it covered.
    SavingsPlan,
}

impl CostGroup {
    /// Every group, in stacking order.
    pub const ALL: [CostGroup; 11] = [
        CostGroup::Reads,
        CostGroup::Writes,
        CostGroup::Storage,
        CostGroup::Reserved,
        CostGroup::Indexes,
        CostGroup::Replicas,
        CostGroup::Streams,
        CostGroup::Dax,
        CostGroup::Backups,
        CostGroup::Monitoring,
        CostGroup::SavingsPlan,
    ];

    /// The label of the charts' legends.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            CostGroup::Reads => "reads",
            CostGroup::Writes => "writes",
            CostGroup::Storage => "storage",
            CostGroup::Reserved => "reserved",
            CostGroup::Indexes => "indexes",
            CostGroup::Replicas => "replicas",
            CostGroup::Streams => "streams",
            CostGroup::Dax => "dax",
            CostGroup::Backups => "backups",
            CostGroup::Monitoring => "monitoring",
            CostGroup::SavingsPlan => "savings plan",
        }
    }

    /// Its colour, red, green and blue.
    #[must_use]
    pub const fn rgb(self) -> (u8, u8, u8) {
        match self {
            CostGroup::Reads => (31, 119, 180),
            CostGroup::Writes => (255, 127, 14),
            CostGroup::Storage => (44, 160, 44),
            CostGroup::Reserved => (148, 103, 189),
            CostGroup::Indexes => (140, 86, 75),
            CostGroup::Replicas => (255, 187, 120),
            CostGroup::Streams => (23, 190, 207),
            CostGroup::Dax => (227, 119, 194),
            CostGroup::Backups => (127, 127, 127),
            CostGroup::Monitoring => (199, 199, 199),
            CostGroup::SavingsPlan => (188, 189, 34),
        }
    }

    /// The group of a line of the bill of table `table`: a replica's (`table@region`; `@` is
    /// not allowed in a table name) is [`CostGroup::Replicas`], a GSI's
    /// [`CostGroup::Indexes`], the table's its component's.
    #[must_use]
    pub fn of_line(line: &super::BillLine, table: &str) -> Self {
        if line.resource.contains('@') {
            CostGroup::Replicas
        } else if line.resource != table {
            CostGroup::Indexes
        } else {
            line.component.group()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every component has a group, every group a label and a colour of its own.
    #[test]
    fn every_component_is_grouped_and_every_group_drawn_apart() {
        for c in BillComponent::all() {
            assert!(CostGroup::ALL.contains(&c.group()), "{c:?}");
        }
        for (i, a) in CostGroup::ALL.iter().enumerate() {
            for b in &CostGroup::ALL[i + 1..] {
                assert_ne!(a.rgb(), b.rgb(), "{a:?} and {b:?} share a colour");
                assert_ne!(a.label(), b.label());
            }
        }
    }
}
