//! Table definitions: what `aws dynamodb describe-table`, a CloudFormation (or CDK) template,
//! `terraform show -json` and Application Auto Scaling's `describe-scalable-targets` /
//! `describe-scaling-policies` say about a table, read into one [`TableDef`].
//!
//! Every field is taken from the documented shape of those outputs (AWS CLI reference for
//! `describe-table` and Application Auto Scaling; the CloudFormation resource references for
//! `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable`, `AWS::ApplicationAutoScaling::*`; the
//! Terraform AWS provider's `aws_dynamodb_table` and `aws_appautoscaling_*` attributes).

mod cloudformation;
mod describe;
mod scaling;
mod terraform;

use super::{Doc, ImportError};
use crate::model::Dim;
use crate::scenario::InsightsMode;
use serde_json::Value;
use std::collections::BTreeMap;

use cloudformation::cloudformation;
use describe::{autoscaling_api, describe_table};
pub(crate) use scaling::{attach_scaling, ScalingFor};
use terraform::terraform;

/// A table as its definition states it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableDef {
    /// Table name.
    pub name: String,
    /// Partition-key attribute.
    pub hash_key: String,
    /// Sort-key attribute.
    pub range_key: Option<String>,
    /// Provisioned RCU/WCU (`None`: on-demand).
    pub provisioned: Option<[u64; 2]>,
    /// On-demand maximum read/write request units.
    pub max: [Option<u64>; 2],
    /// Warm throughput, read/write units a second.
    pub warm: Option<[u64; 2]>,
    /// Standard-IA table class.
    pub infrequent_access: bool,
    /// Bytes stored.
    pub size_bytes: Option<u64>,
    /// Items stored.
    pub item_count: Option<u64>,
    /// Stream view type, when streams are on.
    pub stream: Option<String>,
    /// Global secondary indexes.
    pub gsis: Vec<IndexDef>,
    /// Local secondary indexes.
    pub lsis: Vec<IndexDef>,
    /// Auto scaling by (index name or `None` for the table, dimension).
    pub scaling: BTreeMap<(Option<String>, Dim), ScalingDef>,
    /// The table's region, when the definition says (a table ARN; a global table template's
    /// first replica).
    pub region: Option<String>,
    /// Global tables: the other replicas' regions, with a provisioned read capacity of their
    /// own when set.
    pub replicas: Vec<(String, Option<u64>)>,
    /// CloudWatch Contributor Insights mode, when enabled (`accessed_and_throttled_keys`,
    /// `throttled_keys`).
    pub insights: Option<InsightsMode>,
}

/// A secondary index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexDef {
    /// Index name.
    pub name: String,
    /// Partition-key attribute (an LSI's is the table's).
    pub hash_key: String,
    /// Sort-key attribute.
    pub range_key: Option<String>,
    /// Projection.
    pub projection: ProjectionDef,
    /// Provisioned RCU/WCU of a GSI.
    pub provisioned: Option<[u64; 2]>,
    /// On-demand maximum read/write request units of a GSI.
    pub max: [Option<u64>; 2],
    /// Warm throughput of a GSI.
    pub warm: Option<[u64; 2]>,
    /// Bytes in the index.
    pub size_bytes: Option<u64>,
    /// Items in the index.
    pub item_count: Option<u64>,
    /// CloudWatch Contributor Insights mode, when enabled.
    pub insights: Option<InsightsMode>,
}

/// An index projection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProjectionDef {
    /// Every attribute.
    #[default]
    All,
    /// The keys.
    KeysOnly,
    /// The keys and this many other attributes.
    Include(usize),
}

/// One scalable target with its target-tracking policy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScalingDef {
    /// Minimum capacity.
    pub min: Option<u64>,
    /// Maximum capacity.
    pub max: Option<u64>,
    /// Target utilisation, percent.
    pub target: Option<f64>,
}

/// What a definition file holds: tables (each with what it says about auto scaling) and
/// auto-scaling settings that name their table by its resource id.
#[derive(Debug, Default)]
pub(crate) struct Definitions {
    /// Tables, in file order.
    pub(crate) tables: Vec<TableDef>,
    /// Auto scaling by (table name, index name, dimension), from Application Auto Scaling's
    /// own outputs or resources not nested in a table.
    pub(crate) scaling: Vec<ScalingFor>,
    /// What was skipped or not resolved, for the scenario's comments.
    pub(crate) notes: Vec<String>,
}

/// Reads every definition format; `None` when `doc` is none of them.
pub(crate) fn read(doc: &Doc) -> Option<Result<Definitions, ImportError>> {
    let v = &doc.value;
    if v.get("Table").is_some_and(|t| t.get("TableName").is_some()) {
        return Some(describe_table(doc, &v["Table"]).map(|t| Definitions { tables: vec![t], ..Definitions::default() }));
    }
    if v.get("Resources").is_some_and(Value::is_object) {
        return Some(cloudformation(doc));
    }
    if v.get("format_version").is_some() && (v.get("values").is_some() || v.get("planned_values").is_some()) {
        return Some(terraform(doc));
    }
    if v.get("ScalableTargets").is_some() || v.get("ScalingPolicies").is_some() {
        return Some(autoscaling_api(doc));
    }
    None
}

// ------------------------------------------------------------------------------- helpers

/// A JSON pointer segment (RFC 6901 escaping).
fn seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// A whole number from a JSON number or numeric string.
fn num(doc: &Doc, v: &Value, at: &str) -> Result<u64, ImportError> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x.round() as u64),
        _ => Err(doc.error(at, format!("expected a number, found {}", short(v)))),
    }
}

/// A number that may be absent; `-1` (DynamoDB's "no maximum") and `0` count as absent.
fn opt_num(doc: &Doc, v: Option<&Value>, at: &str) -> Result<Option<u64>, ImportError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_i64().is_some_and(|x| x <= 0) => Ok(None),
        Some(x) => num(doc, x, at).map(|n| (n > 0).then_some(n)),
    }
}

/// A value, shortened for a message.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}…", &s[..s.char_indices().nth(57).map_or(s.len(), |(i, _)| i)])
    } else {
        s
    }
}

fn text(doc: &Doc, v: Option<&Value>, at: &str) -> Result<String, ImportError> {
    match v {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(doc.error(at, format!("expected a string, found {}", short(other)))),
        None => Err(doc.error(at, "missing")),
    }
}

/// `KeySchema`: (HASH attribute, RANGE attribute).
fn key_schema(doc: &Doc, v: Option<&Value>, at: &str) -> Result<(String, Option<String>), ImportError> {
    let Some(Value::Array(items)) = v else { return Err(doc.error(at, "KeySchema is missing or not a list")) };
    let (mut hash, mut range) = (None, None);
    for (i, k) in items.iter().enumerate() {
        let name = text(doc, k.get("AttributeName"), &format!("{at}/{i}/AttributeName"))?;
        match k.get("KeyType").and_then(Value::as_str) {
            Some("HASH") => hash = Some(name),
            Some("RANGE") => range = Some(name),
            _ => return Err(doc.error(&format!("{at}/{i}/KeyType"), "KeyType is HASH or RANGE")),
        }
    }
    Ok((hash.ok_or_else(|| doc.error(at, "no HASH key"))?, range))
}

/// `Projection`: { ProjectionType, NonKeyAttributes }.
fn projection(v: Option<&Value>) -> ProjectionDef {
    let Some(p) = v else { return ProjectionDef::All };
    match p.get("ProjectionType").and_then(Value::as_str) {
        Some("KEYS_ONLY") => ProjectionDef::KeysOnly,
        Some("INCLUDE") => ProjectionDef::Include(p.get("NonKeyAttributes").and_then(Value::as_array).map_or(0, Vec::len)),
        _ => ProjectionDef::All,
    }
}

/// `ProvisionedThroughput`: RCU/WCU, `None` when absent or zero (on-demand tables show 0).
fn throughput(doc: &Doc, v: Option<&Value>, at: &str) -> Result<Option<[u64; 2]>, ImportError> {
    let Some(p) = v.filter(|p| p.is_object()) else { return Ok(None) };
    let r = opt_num(doc, p.get("ReadCapacityUnits"), &format!("{at}/ReadCapacityUnits"))?;
    let w = opt_num(doc, p.get("WriteCapacityUnits"), &format!("{at}/WriteCapacityUnits"))?;
    Ok(match (r, w) {
        (Some(r), Some(w)) => Some([r, w]),
        _ => None,
    })
}

/// `OnDemandThroughput`: max read/write request units.
fn max_throughput(doc: &Doc, v: Option<&Value>, at: &str) -> Result<[Option<u64>; 2], ImportError> {
    let Some(p) = v.filter(|p| p.is_object()) else { return Ok([None, None]) };
    Ok([
        opt_num(doc, p.get("MaxReadRequestUnits"), &format!("{at}/MaxReadRequestUnits"))?,
        opt_num(doc, p.get("MaxWriteRequestUnits"), &format!("{at}/MaxWriteRequestUnits"))?,
    ])
}

/// `WarmThroughput`: read/write units per second.
fn warm(doc: &Doc, v: Option<&Value>, at: &str) -> Result<Option<[u64; 2]>, ImportError> {
    let Some(p) = v.filter(|p| p.is_object()) else { return Ok(None) };
    let r = opt_num(doc, p.get("ReadUnitsPerSecond"), &format!("{at}/ReadUnitsPerSecond"))?;
    let w = opt_num(doc, p.get("WriteUnitsPerSecond"), &format!("{at}/WriteUnitsPerSecond"))?;
    Ok((r.is_some() || w.is_some()).then(|| [r.unwrap_or(0), w.unwrap_or(0)]))
}

// ------------------------------------------------------------------------- describe-table

// --------------------------------------------------------------------------- CloudFormation

// -------------------------------------------------------------------------------- Terraform

// ---------------------------------------------------------------- Application Auto Scaling
