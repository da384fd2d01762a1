//! The price items a scenario's runs may bill, so that a catalog with gaps (a Price List file
//! that lacks a price) is refused before a simulation, naming each price it lacks, instead of
//! billing a line at a price it does not have.
//!
//! Reserved capacity is not listed: every use of it asks [`super::Catalog::sells_reserved`],
//! which answers with the gap.

use crate::scenario::{PriceItem, Scenario};

/// Every item a run, `compare`, `recommend` or `check` of `sc` may price: throughput and
/// storage of both table classes (the class is compared), and each feature's items when the
/// scenario has the feature.
#[must_use]
pub fn items_used(sc: &Scenario) -> Vec<PriceItem> {
    use PriceItem as P;
    let mut items = vec![
        P::OnDemandWritePerMillion,
        P::OnDemandReadPerMillion,
        P::ProvisionedWcuHour,
        P::ProvisionedRcuHour,
        P::StorageGbMonth,
        P::IaOnDemandWritePerMillion,
        P::IaOnDemandReadPerMillion,
        P::IaProvisionedWcuHour,
        P::IaProvisionedRcuHour,
        P::IaStorageGbMonth,
    ];
    let t = &sc.table;
    if t.streams.is_some() {
        items.push(P::StreamsReadPer100k);
    }
    if !sc.replicas.is_empty() {
        items.extend([P::ReplicatedWritePerMillion, P::ReplicatedWcuHour, P::CrossRegionTransferGb]);
    }
    if t.contributor_insights.is_some() || sc.gsis.iter().any(|g| g.contributor_insights.is_some()) {
        items.extend([P::ContributorInsightsRuleMonth, P::ContributorInsightsEventsPerMillion]);
    }
    let b = &t.backups;
    if b.pitr {
        items.push(P::PitrGbMonth);
    }
    if b.schedule.is_some() || !b.backup_at.is_empty() {
        items.push(P::BackupGbMonth);
    }
    if !b.restore_at.is_empty() {
        items.push(P::RestoreGb);
    }
    if !b.export_at.is_empty() {
        items.push(P::ExportGb);
    }
    if let Some(d) = &sc.dax {
        items.push(d.node_type.price_item());
    }
    if !t.vector_indexes.is_empty() {
        items.extend([P::VectorWriteGb, P::IaVectorWriteGb]);
        if t.vector_indexes.iter().any(|v| v.searches.is_some()) {
            items.extend([P::VectorSearchGb, P::IaVectorSearchGb]);
        }
    }
    items
}
