//! `aws dynamodb describe-table` and Application Auto Scaling's `describe-scalable-targets` /
//! `describe-scaling-policies` output.

use super::scaling::{scaling_entry, API_KEYS};
use super::{
    key_schema, key_schema_parts, max_throughput, opt_num, projection, text, throughput, unmodelled, warm, Definitions, Doc, ImportError,
    IndexDef, TableDef,
};
use crate::scenario::InsightsMode;
use serde_json::Value;

/// A `ContributorInsightsSpecification` (CloudFormation): the mode when enabled.
pub(super) fn insights(v: Option<&Value>) -> Option<InsightsMode> {
    let v = v?;
    if v.get("Enabled").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    Some(match v.get("Mode").and_then(Value::as_str) {
        Some("THROTTLED_KEYS") => InsightsMode::ThrottledKeys,
        _ => InsightsMode::AccessedAndThrottledKeys,
    })
}

/// The region of a table ARN (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`).
pub(super) fn arn_region(arn: Option<&Value>) -> Option<String> {
    let parts: Vec<&str> = arn?.as_str()?.split(':').collect();
    (parts.len() >= 6 && parts[2] == "dynamodb" && !parts[3].is_empty()).then(|| parts[3].to_string())
}

/// The account of a table ARN.
pub(super) fn arn_account(arn: Option<&Value>) -> Option<String> {
    let parts: Vec<&str> = arn?.as_str()?.split(':').collect();
    (parts.len() >= 6 && parts[2] == "dynamodb" && !parts[4].is_empty()).then(|| parts[4].to_string())
}

/// The fields of describe-table's `Table` ddbsim reads.
const DESCRIBE_READ: [&str; 14] = [
    "TableName",
    "KeySchema",
    "BillingModeSummary",
    "ProvisionedThroughput",
    "OnDemandThroughput",
    "WarmThroughput",
    "TableClassSummary",
    "TableSizeBytes",
    "ItemCount",
    "StreamSpecification",
    "TableArn",
    "Replicas",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
];

/// Its bookkeeping fields: neither read nor worth a note.
const DESCRIBE_QUIET: [&str; 8] = [
    "AttributeDefinitions",
    "TableStatus",
    "CreationDateTime",
    "TableId",
    "LatestStreamLabel",
    "LatestStreamArn",
    "GlobalTableVersion",
    "TableStatusReason",
];

pub(super) fn describe_table(doc: &Doc, t: &Value) -> Result<TableDef, ImportError> {
    let at = "/Table";
    let (hash_key, range_key) = key_schema(doc, t.get("KeySchema"), &format!("{at}/KeySchema"))?;
    let on_demand = t.pointer("/BillingModeSummary/BillingMode").and_then(Value::as_str) == Some("PAY_PER_REQUEST");
    let provisioned =
        if on_demand { None } else { throughput(doc, t.get("ProvisionedThroughput"), &format!("{at}/ProvisionedThroughput"))? };
    let mut def = TableDef {
        name: text(doc, t.get("TableName"), &format!("{at}/TableName"))?,
        hash_key,
        range_key,
        provisioned,
        max: on_demand_opt(doc, t, at, on_demand)?,
        warm: warm(doc, t.get("WarmThroughput"), &format!("{at}/WarmThroughput"))?,
        infrequent_access: t.pointer("/TableClassSummary/TableClass").and_then(Value::as_str) == Some("STANDARD_INFREQUENT_ACCESS"),
        size_bytes: opt_num(doc, t.get("TableSizeBytes"), &format!("{at}/TableSizeBytes"))?,
        item_count: opt_num(doc, t.get("ItemCount"), &format!("{at}/ItemCount"))?,
        stream: stream(t.get("StreamSpecification")),
        region: arn_region(t.get("TableArn")),
        account: arn_account(t.get("TableArn")),
        unmodelled: unmodelled(t, at, &DESCRIBE_READ, &DESCRIBE_QUIET),
        ..TableDef::default()
    };
    if !on_demand && def.provisioned.is_none() {
        return Err(doc.error(&format!("{at}/ProvisionedThroughput"), "a provisioned table needs ReadCapacityUnits and WriteCapacityUnits"));
    }
    // Global tables (version 2019.11.21): `Replicas` lists the other regions' replicas.
    for (i, r) in t.get("Replicas").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let rat = format!("{at}/Replicas/{i}");
        let region = text(doc, r.get("RegionName"), &format!("{rat}/RegionName"))?;
        let read =
            opt_num(doc, r.pointer("/ProvisionedThroughputOverride/ReadCapacityUnits"), &format!("{rat}/ProvisionedThroughputOverride"))?;
        if def.region.as_deref() != Some(region.as_str()) {
            def.replicas.push((region, read));
        }
    }
    for (i, g) in t.get("GlobalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let gat = format!("{at}/GlobalSecondaryIndexes/{i}");
        let mut idx = index_def(doc, g, &gat)?;
        if on_demand {
            idx.max = max_throughput(doc, g.get("OnDemandThroughput"), &format!("{gat}/OnDemandThroughput"))?;
        } else {
            idx.provisioned = throughput(doc, g.get("ProvisionedThroughput"), &format!("{gat}/ProvisionedThroughput"))?;
        }
        def.gsis.push(idx);
    }
    for (i, l) in t.get("LocalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
        def.lsis.push(index_def(doc, l, &format!("{at}/LocalSecondaryIndexes/{i}"))?);
    }
    Ok(def)
}

pub(super) fn on_demand_opt(doc: &Doc, t: &Value, at: &str, on: bool) -> Result<[Option<u64>; 2], ImportError> {
    if on {
        max_throughput(doc, t.get("OnDemandThroughput"), &format!("{at}/OnDemandThroughput"))
    } else {
        Ok([None, None])
    }
}

pub(super) fn stream(v: Option<&Value>) -> Option<String> {
    let s = v?;
    if s.get("StreamEnabled").and_then(Value::as_bool) == Some(false) {
        return None;
    }
    s.get("StreamViewType").and_then(Value::as_str).map(str::to_string)
}

/// An index as describe-table and CloudFormation write it (the same field names): name, keys,
/// projection, warm throughput, and the sizes describe-table adds; capacity is the caller's.
pub(super) fn index_def(doc: &Doc, v: &Value, at: &str) -> Result<IndexDef, ImportError> {
    let (mut hash, range) = key_schema_parts(doc, v.get("KeySchema"), &format!("{at}/KeySchema"))?;
    let more_hash_keys = hash.split_off(1);
    Ok(IndexDef {
        name: text(doc, v.get("IndexName"), &format!("{at}/IndexName"))?,
        hash_key: hash.remove(0),
        more_hash_keys,
        range_key: range.into_iter().next(),
        projection: projection(v.get("Projection")),
        warm: warm(doc, v.get("WarmThroughput"), &format!("{at}/WarmThroughput"))?,
        size_bytes: opt_num(doc, v.get("IndexSizeBytes"), &format!("{at}/IndexSizeBytes"))?,
        item_count: opt_num(doc, v.get("ItemCount"), &format!("{at}/ItemCount"))?,
        insights: insights(v.get("ContributorInsightsSpecification")),
        ..IndexDef::default()
    })
}

pub(super) fn autoscaling_api(doc: &Doc) -> Result<Definitions, ImportError> {
    let mut defs = Definitions::default();
    for (i, t) in doc.value.get("ScalableTargets").and_then(Value::as_array).into_iter().flatten().enumerate() {
        defs.scaling.extend(scaling_entry(doc, t, &API_KEYS, &format!("/ScalableTargets/{i}"), false)?);
    }
    for (i, p) in doc.value.get("ScalingPolicies").and_then(Value::as_array).into_iter().flatten().enumerate() {
        defs.scaling.extend(scaling_entry(doc, p, &API_KEYS, &format!("/ScalingPolicies/{i}"), true)?);
    }
    Ok(defs)
}
