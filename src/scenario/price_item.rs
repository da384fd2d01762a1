//! The price items a catalog lists. It imports nothing, so the scenario (whose
//! `[pricing.overrides]` name items) and the cost model (which prices them) share one list, and a
//! misspelt item is a compile error.

use std::fmt;

/// One priced item of a catalog (`prices/us-east-1.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PriceItem {
    /// On-demand write request units, per million (Standard).
    OnDemandWritePerMillion,
    /// On-demand read request units, per million (Standard).
    OnDemandReadPerMillion,
    /// Provisioned WCU-hour (Standard).
    ProvisionedWcuHour,
    /// Provisioned RCU-hour (Standard).
    ProvisionedRcuHour,
    /// Storage, per GB-month (Standard).
    StorageGbMonth,
    /// On-demand write request units, per million (Standard-IA).
    IaOnDemandWritePerMillion,
    /// On-demand read request units, per million (Standard-IA).
    IaOnDemandReadPerMillion,
    /// Provisioned WCU-hour (Standard-IA).
    IaProvisionedWcuHour,
    /// Provisioned RCU-hour (Standard-IA).
    IaProvisionedRcuHour,
    /// Storage, per GB-month (Standard-IA).
    IaStorageGbMonth,
    /// Reserved capacity, 1 year, 100 WCU: upfront.
    Reserved1yWcu100Upfront,
    /// Reserved capacity, 1 year, 100 WCU: per hour.
    Reserved1yWcu100Hour,
    /// Reserved capacity, 1 year, 100 RCU: upfront.
    Reserved1yRcu100Upfront,
    /// Reserved capacity, 1 year, 100 RCU: per hour.
    Reserved1yRcu100Hour,
    /// Reserved capacity, 3 years, 100 WCU: upfront.
    Reserved3yWcu100Upfront,
    /// Reserved capacity, 3 years, 100 WCU: per hour.
    Reserved3yWcu100Hour,
    /// Reserved capacity, 3 years, 100 RCU: upfront.
    Reserved3yRcu100Upfront,
    /// Reserved capacity, 3 years, 100 RCU: per hour.
    Reserved3yRcu100Hour,
    /// DynamoDB Streams read request units, per 100,000.
    StreamsReadPer100k,
    /// Global tables replicated write request units, per million.
    ReplicatedWritePerMillion,
    /// Global tables replicated WCU-hour.
    ReplicatedWcuHour,
    /// Data transfer out of the region to another AWS region (global tables replication), per GB.
    CrossRegionTransferGb,
    /// A CloudWatch Contributor Insights rule, per month.
    ContributorInsightsRuleMonth,
    /// CloudWatch Contributor Insights events matched, per million.
    ContributorInsightsEventsPerMillion,
    /// Point-in-time recovery (continuous backups), per GB-month of the table's size.
    PitrGbMonth,
    /// On-demand backup storage, per GB-month of each backup.
    BackupGbMonth,
    /// Restoring a table from a backup or a point in time, per GB restored.
    RestoreGb,
    /// Full export to Amazon S3, per GB of the table's size.
    ExportGb,
    /// A dax.r5.large DAX node-hour.
    DaxR5LargeHour,
    /// A dax.r5.xlarge DAX node-hour.
    DaxR5XlargeHour,
    /// A dax.r5.2xlarge DAX node-hour.
    DaxR5X2largeHour,
    /// A dax.r5.4xlarge DAX node-hour.
    DaxR5X4largeHour,
    /// A dax.r5.8xlarge DAX node-hour.
    DaxR5X8largeHour,
    /// A dax.r5.12xlarge DAX node-hour.
    DaxR5X12largeHour,
    /// A dax.r5.16xlarge DAX node-hour.
    DaxR5X16largeHour,
    /// A dax.r5.24xlarge DAX node-hour.
    DaxR5X24largeHour,
    /// Vector index write request bytes, per GB (Standard).
    VectorWriteGb,
    /// Vector index write request bytes, per GB (Standard-IA).
    IaVectorWriteGb,
    /// Vector search request bytes, per GB (Standard).
    VectorSearchGb,
    /// Vector search request bytes, per GB (Standard-IA).
    IaVectorSearchGb,
}

impl PriceItem {
    /// Every item, in catalog order.
    pub const ALL: [PriceItem; 40] = [
        PriceItem::OnDemandWritePerMillion,
        PriceItem::OnDemandReadPerMillion,
        PriceItem::ProvisionedWcuHour,
        PriceItem::ProvisionedRcuHour,
        PriceItem::StorageGbMonth,
        PriceItem::IaOnDemandWritePerMillion,
        PriceItem::IaOnDemandReadPerMillion,
        PriceItem::IaProvisionedWcuHour,
        PriceItem::IaProvisionedRcuHour,
        PriceItem::IaStorageGbMonth,
        PriceItem::Reserved1yWcu100Upfront,
        PriceItem::Reserved1yWcu100Hour,
        PriceItem::Reserved1yRcu100Upfront,
        PriceItem::Reserved1yRcu100Hour,
        PriceItem::Reserved3yWcu100Upfront,
        PriceItem::Reserved3yWcu100Hour,
        PriceItem::Reserved3yRcu100Upfront,
        PriceItem::Reserved3yRcu100Hour,
        PriceItem::StreamsReadPer100k,
        PriceItem::ReplicatedWritePerMillion,
        PriceItem::ReplicatedWcuHour,
        PriceItem::CrossRegionTransferGb,
        PriceItem::ContributorInsightsRuleMonth,
        PriceItem::ContributorInsightsEventsPerMillion,
        PriceItem::PitrGbMonth,
        PriceItem::BackupGbMonth,
        PriceItem::RestoreGb,
        PriceItem::ExportGb,
        PriceItem::DaxR5LargeHour,
        PriceItem::DaxR5XlargeHour,
        PriceItem::DaxR5X2largeHour,
        PriceItem::DaxR5X4largeHour,
        PriceItem::DaxR5X8largeHour,
        PriceItem::DaxR5X12largeHour,
        PriceItem::DaxR5X16largeHour,
        PriceItem::DaxR5X24largeHour,
        PriceItem::VectorWriteGb,
        PriceItem::IaVectorWriteGb,
        PriceItem::VectorSearchGb,
        PriceItem::IaVectorSearchGb,
    ];

    /// The item's name in catalogs and `[pricing.overrides]`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PriceItem::OnDemandWritePerMillion => "on_demand_write_per_million",
            PriceItem::OnDemandReadPerMillion => "on_demand_read_per_million",
            PriceItem::ProvisionedWcuHour => "provisioned_wcu_hour",
            PriceItem::ProvisionedRcuHour => "provisioned_rcu_hour",
            PriceItem::StorageGbMonth => "storage_gb_month",
            PriceItem::IaOnDemandWritePerMillion => "ia_on_demand_write_per_million",
            PriceItem::IaOnDemandReadPerMillion => "ia_on_demand_read_per_million",
            PriceItem::IaProvisionedWcuHour => "ia_provisioned_wcu_hour",
            PriceItem::IaProvisionedRcuHour => "ia_provisioned_rcu_hour",
            PriceItem::IaStorageGbMonth => "ia_storage_gb_month",
            PriceItem::Reserved1yWcu100Upfront => "reserved_1y_wcu_100_upfront",
            PriceItem::Reserved1yWcu100Hour => "reserved_1y_wcu_100_hour",
            PriceItem::Reserved1yRcu100Upfront => "reserved_1y_rcu_100_upfront",
            PriceItem::Reserved1yRcu100Hour => "reserved_1y_rcu_100_hour",
            PriceItem::Reserved3yWcu100Upfront => "reserved_3y_wcu_100_upfront",
            PriceItem::Reserved3yWcu100Hour => "reserved_3y_wcu_100_hour",
            PriceItem::Reserved3yRcu100Upfront => "reserved_3y_rcu_100_upfront",
            PriceItem::Reserved3yRcu100Hour => "reserved_3y_rcu_100_hour",
            PriceItem::StreamsReadPer100k => "streams_read_per_100k",
            PriceItem::ReplicatedWritePerMillion => "replicated_write_per_million",
            PriceItem::ReplicatedWcuHour => "replicated_wcu_hour",
            PriceItem::CrossRegionTransferGb => "cross_region_transfer_gb",
            PriceItem::ContributorInsightsRuleMonth => "contributor_insights_rule_month",
            PriceItem::ContributorInsightsEventsPerMillion => "contributor_insights_events_per_million",
            PriceItem::PitrGbMonth => "pitr_gb_month",
            PriceItem::BackupGbMonth => "backup_gb_month",
            PriceItem::RestoreGb => "restore_gb",
            PriceItem::ExportGb => "export_gb",
            PriceItem::DaxR5LargeHour => "dax_r5_large_hour",
            PriceItem::DaxR5XlargeHour => "dax_r5_xlarge_hour",
            PriceItem::DaxR5X2largeHour => "dax_r5_2xlarge_hour",
            PriceItem::DaxR5X4largeHour => "dax_r5_4xlarge_hour",
            PriceItem::DaxR5X8largeHour => "dax_r5_8xlarge_hour",
            PriceItem::DaxR5X12largeHour => "dax_r5_12xlarge_hour",
            PriceItem::DaxR5X16largeHour => "dax_r5_16xlarge_hour",
            PriceItem::DaxR5X24largeHour => "dax_r5_24xlarge_hour",
            PriceItem::VectorWriteGb => "vector_write_gb",
            PriceItem::IaVectorWriteGb => "ia_vector_write_gb",
            PriceItem::VectorSearchGb => "vector_search_gb",
            PriceItem::IaVectorSearchGb => "ia_vector_search_gb",
        }
    }

    /// The item called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|i| i.name() == name)
    }

    /// May a scenario's `[pricing.overrides]` set it (the throughput, storage and backup prices)?
    #[must_use]
    pub const fn overridable(self) -> bool {
        matches!(
            self,
            PriceItem::OnDemandWritePerMillion
                | PriceItem::OnDemandReadPerMillion
                | PriceItem::ProvisionedWcuHour
                | PriceItem::ProvisionedRcuHour
                | PriceItem::StorageGbMonth
                | PriceItem::IaOnDemandWritePerMillion
                | PriceItem::IaOnDemandReadPerMillion
                | PriceItem::IaProvisionedWcuHour
                | PriceItem::IaProvisionedRcuHour
                | PriceItem::IaStorageGbMonth
                | PriceItem::PitrGbMonth
                | PriceItem::BackupGbMonth
                | PriceItem::RestoreGb
                | PriceItem::ExportGb
                | PriceItem::CrossRegionTransferGb
                | PriceItem::ContributorInsightsRuleMonth
                | PriceItem::ContributorInsightsEventsPerMillion
                | PriceItem::DaxR5LargeHour
                | PriceItem::DaxR5XlargeHour
                | PriceItem::DaxR5X2largeHour
                | PriceItem::DaxR5X4largeHour
                | PriceItem::DaxR5X8largeHour
                | PriceItem::DaxR5X12largeHour
                | PriceItem::DaxR5X16largeHour
                | PriceItem::DaxR5X24largeHour
        )
    }

    /// On-demand request units of a dimension (`write`) and table class (`ia`).
    #[must_use]
    pub const fn on_demand(write: bool, ia: bool) -> Self {
        match (write, ia) {
            (true, false) => PriceItem::OnDemandWritePerMillion,
            (false, false) => PriceItem::OnDemandReadPerMillion,
            (true, true) => PriceItem::IaOnDemandWritePerMillion,
            (false, true) => PriceItem::IaOnDemandReadPerMillion,
        }
    }

    /// Provisioned unit-hours of a dimension and table class.
    #[must_use]
    pub const fn provisioned(write: bool, ia: bool) -> Self {
        match (write, ia) {
            (true, false) => PriceItem::ProvisionedWcuHour,
            (false, false) => PriceItem::ProvisionedRcuHour,
            (true, true) => PriceItem::IaProvisionedWcuHour,
            (false, true) => PriceItem::IaProvisionedRcuHour,
        }
    }

    /// Storage of a table class.
    #[must_use]
    pub const fn storage(ia: bool) -> Self {
        if ia {
            PriceItem::IaStorageGbMonth
        } else {
            PriceItem::StorageGbMonth
        }
    }

    /// The 3-year reservation's items: a region may not sell it (us-east-2).
    pub const RESERVED_3Y: [PriceItem; 4] = [
        PriceItem::Reserved3yWcu100Upfront,
        PriceItem::Reserved3yWcu100Hour,
        PriceItem::Reserved3yRcu100Upfront,
        PriceItem::Reserved3yRcu100Hour,
    ];

    /// Reserved capacity of `years` (1, else 3) for a dimension: (upfront, hourly), per 100 units.
    #[must_use]
    pub const fn reserved(years: u32, write: bool) -> (Self, Self) {
        match (years == 1, write) {
            (true, true) => (PriceItem::Reserved1yWcu100Upfront, PriceItem::Reserved1yWcu100Hour),
            (true, false) => (PriceItem::Reserved1yRcu100Upfront, PriceItem::Reserved1yRcu100Hour),
            (false, true) => (PriceItem::Reserved3yWcu100Upfront, PriceItem::Reserved3yWcu100Hour),
            (false, false) => (PriceItem::Reserved3yRcu100Upfront, PriceItem::Reserved3yRcu100Hour),
        }
    }
}

impl fmt::Display for PriceItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for PriceItem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for PriceItem {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::from_name(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown price item \"{s}\"")))
    }
}

/// A unit DynamoDB meters per request beside read and write units and bills per unit of its
/// own, that never throttles: a vector index's write bytes. What each request meters is worked
/// from the run's counts of served requests ([`crate::cost::MeteredUsage`]), and the bill has a
/// line per metered resource and unit; a new unit is a variant here, its price items, and its
/// arithmetic in `cost/metered.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Meter {
    /// Vector write request bytes: what writes replicate into a vector index (§16).
    VectorWriteBytes,
    /// Vector search request bytes: what `SearchVectors` calls examine and return (§16).
    VectorSearchBytes,
}

impl Meter {
    /// Every unit.
    pub const ALL: [Meter; 2] = [Meter::VectorWriteBytes, Meter::VectorSearchBytes];

    /// The name of its bill lines' component (`vector_writes`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Meter::VectorWriteBytes => "vector_writes",
            Meter::VectorSearchBytes => "vector_searches",
        }
    }

    /// The price item of its billed unit, for the Standard or the Standard-IA table class.
    #[must_use]
    pub const fn price_item(self, infrequent_access: bool) -> PriceItem {
        match (self, infrequent_access) {
            (Meter::VectorWriteBytes, false) => PriceItem::VectorWriteGb,
            (Meter::VectorWriteBytes, true) => PriceItem::IaVectorWriteGb,
            (Meter::VectorSearchBytes, false) => PriceItem::VectorSearchGb,
            (Meter::VectorSearchBytes, true) => PriceItem::IaVectorSearchGb,
        }
    }

    /// Metered units in a billed unit (bytes in a GB of 10^9, as storage is billed: an
    /// assumption, AWS's page does not say which GB), and the billed unit's name.
    #[must_use]
    pub const fn billed_unit(self) -> (f64, &'static str) {
        match self {
            Meter::VectorWriteBytes => (1e9, "GB of vector writes"),
            Meter::VectorSearchBytes => (1e9, "GB of vector searches"),
        }
    }
}

impl serde::Serialize for Meter {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in PriceItem::ALL {
            assert_eq!(PriceItem::from_name(i.name()), Some(i));
        }
        assert_eq!(PriceItem::ALL.iter().filter(|i| i.overridable()).count(), 25);
    }
}
