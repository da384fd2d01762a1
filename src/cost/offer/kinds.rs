//! Which offer-file product prices which catalog item, and in what unit: the attribute values
//! of AWS's offer files (`group`, `operation`, `volumeType`, `instanceType`, `usagetype`) as
//! the Price List query API filters on them.

use crate::scenario::PriceItem;
use std::collections::BTreeMap;

/// An offer (service) ddbsim reads prices from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Service {
    /// `AmazonDynamoDB`: tables, indexes, backups, streams, global tables.
    DynamoDb,
    /// `AmazonDAX`: DAX node-hours.
    Dax,
    /// `AmazonCloudWatch`: Contributor Insights rules and events.
    CloudWatch,
}

impl Service {
    /// The offer code.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Service::DynamoDb => "AmazonDynamoDB",
            Service::Dax => "AmazonDAX",
            Service::CloudWatch => "AmazonCloudWatch",
        }
    }

    /// The service of an offer code.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        [Service::DynamoDb, Service::Dax, Service::CloudWatch].into_iter().find(|s| s.code() == code)
    }

    /// Every service ddbsim reads, in the order `prices update` fetches them.
    pub const ALL: [Service; 3] = [Service::DynamoDb, Service::Dax, Service::CloudWatch];

    /// The service whose offer file prices `item`: `None` for items no offer ddbsim reads
    /// holds (inter-Region transfer is in AWSDataTransfer's; vector search has no product
    /// ddbsim recognises).
    #[must_use]
    pub fn of(item: PriceItem) -> Option<Self> {
        use PriceItem as P;
        match item {
            P::CrossRegionTransferGb | P::VectorWriteGb | P::IaVectorWriteGb | P::VectorSearchGb | P::IaVectorSearchGb => None,
            P::ContributorInsightsRuleMonth | P::ContributorInsightsEventsPerMillion => Some(Service::CloudWatch),
            P::DaxR5LargeHour
            | P::DaxR5XlargeHour
            | P::DaxR5X2largeHour
            | P::DaxR5X4largeHour
            | P::DaxR5X8largeHour
            | P::DaxR5X12largeHour
            | P::DaxR5X16largeHour
            | P::DaxR5X24largeHour => Some(Service::Dax),
            _ => Some(Service::DynamoDb),
        }
    }

    /// Does this service's file price `item`?
    #[must_use]
    pub fn prices(self, item: PriceItem) -> bool {
        Self::of(item) == Some(self)
    }
}

/// The catalog item an offer-file product prices (its on-demand term; a provisioned product's
/// reserved terms price the reservation items), or `None` for a product ddbsim does not use.
#[must_use]
pub fn classify(a: &BTreeMap<String, String>) -> Option<PriceItem> {
    use PriceItem as P;
    let get = |k: &str| a.get(k).map(String::as_str).unwrap_or_default();
    match get("servicecode") {
        "AmazonDynamoDB" => {
            let per_request = match get("operation") {
                "PayPerRequestThroughput" => true,
                "CommittedThroughput" => false,
                _ => {
                    return volume(get("volumeType"))
                        .or_else(|| (get("group") == "DDB-StreamsReadRequests").then_some(P::StreamsReadPer100k))
                }
            };
            Some(match (get("group"), per_request) {
                ("DDB-WriteUnits", true) => P::OnDemandWritePerMillion,
                ("DDB-ReadUnits", true) => P::OnDemandReadPerMillion,
                ("DDB-WriteUnitsIA", true) => P::IaOnDemandWritePerMillion,
                ("DDB-ReadUnitsIA", true) => P::IaOnDemandReadPerMillion,
                ("DDB-ReplicatedWriteUnits", true) => P::ReplicatedWritePerMillion,
                ("DDB-WriteUnits", false) => P::ProvisionedWcuHour,
                ("DDB-ReadUnits", false) => P::ProvisionedRcuHour,
                ("DDB-WriteUnitsIA", false) => P::IaProvisionedWcuHour,
                ("DDB-ReadUnitsIA", false) => P::IaProvisionedRcuHour,
                ("DDB-ReplicatedWriteUnits", false) => P::ReplicatedWcuHour,
                _ => return None,
            })
        }
        "AmazonDAX" => {
            let t = get("instanceType");
            let t = t.strip_prefix("dax.").unwrap_or(t);
            Some(match t {
                "r5.large" => P::DaxR5LargeHour,
                "r5.xlarge" => P::DaxR5XlargeHour,
                "r5.2xlarge" => P::DaxR5X2largeHour,
                "r5.4xlarge" => P::DaxR5X4largeHour,
                "r5.8xlarge" => P::DaxR5X8largeHour,
                "r5.12xlarge" => P::DaxR5X12largeHour,
                "r5.16xlarge" => P::DaxR5X16largeHour,
                "r5.24xlarge" => P::DaxR5X24largeHour,
                _ => return None,
            })
        }
        "AmazonCloudWatch" => {
            let u = get("usagetype");
            if u.ends_with("CW:ContributorRulesManaged") {
                Some(P::ContributorInsightsRuleMonth)
            } else if u.ends_with("CW:ContributorEventsManaged") {
                Some(P::ContributorInsightsEventsPerMillion)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn volume(v: &str) -> Option<PriceItem> {
    use PriceItem as P;
    Some(match v {
        "Amazon DynamoDB - Indexed DataStore" => P::StorageGbMonth,
        "Amazon DynamoDB - Indexed DataStore - IA" => P::IaStorageGbMonth,
        "Amazon DynamoDB - Point-In-Time-Restore (PITR) Backup Storage" => P::PitrGbMonth,
        "Amazon DynamoDB - On-Demand Backup Storage" => P::BackupGbMonth,
        "Amazon DynamoDB - Backup Restore Size" => P::RestoreGb,
        "Amazon DynamoDB - Export Size" => P::ExportGb,
        _ => return None,
    })
}

/// The units an item's price may be quoted in, and what one catalog unit is in them (a
/// catalog prices a million request units; the file, one).
#[must_use]
pub(super) fn unit_of(item: PriceItem) -> (&'static [&'static str], f64) {
    use PriceItem as P;
    match item {
        P::OnDemandWritePerMillion | P::IaOnDemandWritePerMillion => (&["WriteRequestUnits"], 1e6),
        P::OnDemandReadPerMillion | P::IaOnDemandReadPerMillion => (&["ReadRequestUnits"], 1e6),
        P::ReplicatedWritePerMillion => (&["ReplicatedWriteRequestUnits", "WriteRequestUnits"], 1e6),
        P::ProvisionedWcuHour | P::IaProvisionedWcuHour => (&["WriteCapacityUnit-Hrs"], 1.0),
        P::ProvisionedRcuHour | P::IaProvisionedRcuHour => (&["ReadCapacityUnit-Hrs"], 1.0),
        P::ReplicatedWcuHour => (&["ReplicatedWriteCapacityUnit-Hrs", "WriteCapacityUnit-Hrs"], 1.0),
        P::StorageGbMonth | P::IaStorageGbMonth | P::PitrGbMonth | P::BackupGbMonth => (&["GB-Mo", "GB-Month"], 1.0),
        P::RestoreGb | P::ExportGb => (&["GB"], 1.0),
        P::StreamsReadPer100k => (&["Requests"], 1e5),
        P::ContributorInsightsRuleMonth => (&["Rules", "Rule-Month", "Rule-Mo"], 1.0),
        P::ContributorInsightsEventsPerMillion => (&["Events", "Event"], 1e6),
        _ => (&["Hrs", "Hours", "NodeHours"], 1.0),
    }
}

/// The on-demand item whose product's reserved terms price a reservation item, and whether it
/// is the upfront fee (`Quantity`, per unit) or the hourly one.
#[must_use]
pub(super) fn reservation_of(item: PriceItem) -> Option<(PriceItem, u32, bool)> {
    use PriceItem as P;
    Some(match item {
        P::Reserved1yWcu100Upfront => (P::ProvisionedWcuHour, 1, true),
        P::Reserved1yWcu100Hour => (P::ProvisionedWcuHour, 1, false),
        P::Reserved1yRcu100Upfront => (P::ProvisionedRcuHour, 1, true),
        P::Reserved1yRcu100Hour => (P::ProvisionedRcuHour, 1, false),
        P::Reserved3yWcu100Upfront => (P::ProvisionedWcuHour, 3, true),
        P::Reserved3yWcu100Hour => (P::ProvisionedWcuHour, 3, false),
        P::Reserved3yRcu100Upfront => (P::ProvisionedRcuHour, 3, true),
        P::Reserved3yRcu100Hour => (P::ProvisionedRcuHour, 3, false),
        _ => return None,
    })
}
