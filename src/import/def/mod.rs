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
    /// The account that owns it, when the source says (a table ARN, a Cost and Usage Report).
    pub account: Option<String>,
    /// Global tables: the other replicas' regions, with a provisioned read capacity of their
    /// own when set.
    pub replicas: Vec<(String, Option<u64>)>,
    /// CloudWatch Contributor Insights mode, when enabled (`accessed_and_throttled_keys`,
    /// `throttled_keys`).
    pub insights: Option<InsightsMode>,
    /// Point-in-time recovery on, and its recovery period in days when stated.
    pub pitr: Option<Option<u64>>,
    /// The Time to Live attribute, when TTL is on.
    pub ttl_attribute: Option<String>,
    /// Attributes of the definition ddbsim does not model: (where, why), for the notes.
    pub unmodelled: Vec<(String, String)>,
}

/// A secondary index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexDef {
    /// Index name.
    pub name: String,
    /// Partition-key attribute (an LSI's is the table's); a multi-attribute key's first.
    pub hash_key: String,
    /// A multi-attribute partition key's other attributes, in key-schema order.
    pub more_hash_keys: Vec<String>,
    /// Sort-key attribute (a multi-attribute sort key's first).
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
    /// Scale-in and scale-out cooldowns of the target-tracking policy, seconds.
    pub cooldowns: [Option<u64>; 2],
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
    /// Settings of a table that name no table (`describe-continuous-backups`,
    /// `describe-time-to-live`): they apply to the table imported.
    pub(crate) unnamed: Unnamed,
}

/// What `describe-continuous-backups` and `describe-time-to-live` say, without naming a table.
#[derive(Debug, Default)]
pub(crate) struct Unnamed {
    /// Point-in-time recovery: on or off, and its period in days.
    pub(crate) pitr: Option<Option<Option<u64>>>,
    /// Time to Live: its attribute when on, `None` when off.
    pub(crate) ttl: Option<Option<String>>,
}

impl Unnamed {
    /// Applies these settings to `t`.
    pub(crate) fn apply(&self, t: &mut TableDef) {
        if let Some(p) = self.pitr {
            t.pitr = p;
        }
        if let Some(a) = &self.ttl {
            t.ttl_attribute.clone_from(a);
        }
    }
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
    if let Some(c) = v.get("ContinuousBackupsDescription") {
        let on = c.pointer("/PointInTimeRecoveryDescription/PointInTimeRecoveryStatus").and_then(Value::as_str) == Some("ENABLED");
        let days = match recovery_days(
            doc,
            c.pointer("/PointInTimeRecoveryDescription"),
            "/ContinuousBackupsDescription/PointInTimeRecoveryDescription",
        ) {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let unnamed = Unnamed { pitr: Some(on.then_some(days)), ttl: None };
        return Some(Ok(Definitions { unnamed, ..Definitions::default() }));
    }
    if let Some(t) = v.get("TimeToLiveDescription") {
        let on = matches!(t.get("TimeToLiveStatus").and_then(Value::as_str), Some("ENABLED" | "ENABLING"));
        let attr = t.get("AttributeName").and_then(Value::as_str).map(str::to_string);
        let unnamed = Unnamed { pitr: None, ttl: Some(attr.filter(|_| on)) };
        return Some(Ok(Definitions { unnamed, ..Definitions::default() }));
    }
    None
}

/// Why ddbsim leaves a definition attribute out, by its name in CloudFormation,
/// describe-table or Terraform.
fn why_unmodelled(key: &str) -> &'static str {
    match key {
        "SSESpecification" | "SSEDescription" | "server_side_encryption" => {
            "encryption at rest: a KMS key (AWS managed or customer managed) bills KMS requests, which ddbsim does not price"
        }
        "KinesisStreamSpecification" | "kinesis_streaming_destination" => {
            "Kinesis Data Streams for DynamoDB: its change data capture units and the stream are billed, and ddbsim does not price them"
        }
        "ImportSourceSpecification" | "import_table" => {
            "import from S3 at creation: billed once per GB imported, before any window ddbsim simulates"
        }
        "DeletionProtectionEnabled" | "deletion_protection_enabled" | "Tags" | "tags" | "tags_all" | "ResourcePolicy" | "timeouts" => {
            "no effect on capacity or cost"
        }
        "RestoreSummary" | "restore_source_name" | "restore_source_table_arn" | "restore_to_latest_time" | "restore_date_time" => {
            "the table was restored: the restore was billed when it ran"
        }
        "ArchivalSummary" => "the table is archived: it serves no traffic",
        "MultiRegionConsistency" => "the replicas' consistency mode: not read from the definition; set [table.multi_region_strong] by hand",
        "GlobalTableWitnesses" => "a witness region of a multi-Region strongly consistent table: not modelled",
        _ => "not modelled by ddbsim",
    }
}

/// The attributes of definition object `obj` (at `at`) that are set and that ddbsim does not
/// read (`read`) or know to be bookkeeping (`quiet`): (path, why).
fn unmodelled(obj: &Value, at: &str, read: &[&str], quiet: &[&str]) -> Vec<(String, String)> {
    let Some(m) = obj.as_object() else { return Vec::new() };
    m.iter()
        .filter(|(k, v)| !read.contains(&k.as_str()) && !quiet.contains(&k.as_str()) && is_set(v))
        .map(|(k, _)| (format!("{at}/{}", seg(k)), why_unmodelled(k).to_string()))
        .collect()
}

/// `PointInTimeRecoverySpecification` (CloudFormation, at `at`): `Some(days)` when on.
fn pitr_spec(doc: &Doc, v: Option<&Value>, at: &str) -> Result<Option<Option<u64>>, ImportError> {
    let Some(v) = v else { return Ok(None) };
    if v.get("PointInTimeRecoveryEnabled").and_then(Value::as_bool) != Some(true) {
        return Ok(None);
    }
    recovery_days(doc, Some(v), at).map(Some)
}

/// The `RecoveryPeriodInDays` of the object `v` at `at`: 1 to 35 days, as AWS allows (an
/// import writes nothing a scenario would refuse).
fn recovery_days(doc: &Doc, v: Option<&Value>, at: &str) -> Result<Option<u64>, ImportError> {
    let Some(d) = v.and_then(|v| v.get("RecoveryPeriodInDays")) else { return Ok(None) };
    match d.as_u64() {
        Some(n) if (1..=35).contains(&n) => Ok(Some(n)),
        _ => Err(ImportError {
            file: doc.path.clone(),
            at: format!("{at}/RecoveryPeriodInDays"),
            message: format!("a point-in-time recovery period is 1 to 35 days, not {d}"),
        }),
    }
}

/// `TimeToLiveSpecification` (CloudFormation): the attribute when on.
fn ttl_spec(v: Option<&Value>) -> Option<String> {
    let v = v?;
    (v.get("Enabled").and_then(Value::as_bool) == Some(true))
        .then(|| v.get("AttributeName").and_then(Value::as_str).unwrap_or("").to_string())
}

/// A value that says something: not null, false, empty or an object whose `Enabled` is false.
fn is_set(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => a.iter().any(is_set),
        Value::Object(o) => {
            !o.is_empty() && o.get("Enabled").or_else(|| o.get("enabled")).and_then(Value::as_bool) != Some(false) && o.values().any(is_set)
        }
        Value::Number(_) | Value::Bool(true) => true,
    }
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

/// `KeySchema`: (HASH attribute, RANGE attribute) of a table.
fn key_schema(doc: &Doc, v: Option<&Value>, at: &str) -> Result<(String, Option<String>), ImportError> {
    let (hash, range) = key_schema_parts(doc, v, at)?;
    if hash.len() > 1 || range.len() > 1 {
        return Err(doc.error(at, "a table's KeySchema has one HASH and at most one RANGE attribute (multi-attribute keys are for GSIs)"));
    }
    Ok((hash.into_iter().next().unwrap_or_default(), range.into_iter().next()))
}

/// `KeySchema`: the HASH attributes and the RANGE attributes, each in order (a GSI's
/// multi-attribute key has up to four of each).
fn key_schema_parts(doc: &Doc, v: Option<&Value>, at: &str) -> Result<(Vec<String>, Vec<String>), ImportError> {
    let Some(Value::Array(items)) = v else { return Err(doc.error(at, "KeySchema is missing or not a list")) };
    let (mut hash, mut range) = (Vec::new(), Vec::new());
    for (i, k) in items.iter().enumerate() {
        let name = text(doc, k.get("AttributeName"), &format!("{at}/{i}/AttributeName"))?;
        match k.get("KeyType").and_then(Value::as_str) {
            Some("HASH") => hash.push(name),
            Some("RANGE") => range.push(name),
            _ => return Err(doc.error(&format!("{at}/{i}/KeyType"), "KeyType is HASH or RANGE")),
        }
    }
    if hash.is_empty() {
        return Err(doc.error(at, "no HASH key"));
    }
    if hash.len() > MAX_KEY_ATTRIBUTES || range.len() > MAX_KEY_ATTRIBUTES {
        return Err(doc.error(at, format!("a key has at most {MAX_KEY_ATTRIBUTES} HASH and {MAX_KEY_ATTRIBUTES} RANGE attributes")));
    }
    Ok((hash, range))
}

/// Most attributes of each part of a multi-attribute GSI key.
const MAX_KEY_ATTRIBUTES: usize = 4;

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
