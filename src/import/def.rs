//! Table definitions: what `aws dynamodb describe-table`, a CloudFormation (or CDK) template,
//! `terraform show -json` and Application Auto Scaling's `describe-scalable-targets` /
//! `describe-scaling-policies` say about a table, read into one [`TableDef`].
//!
//! Every field is taken from the documented shape of those outputs (AWS CLI reference for
//! `describe-table` and Application Auto Scaling; the CloudFormation resource references for
//! `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable`, `AWS::ApplicationAutoScaling::*`; the
//! Terraform AWS provider's `aws_dynamodb_table` and `aws_appautoscaling_*` attributes).

use super::{Doc, ImportError};
use crate::model::Dim;
use serde_json::Value;
use std::collections::BTreeMap;

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
    pub insights: Option<String>,
}

/// A `ContributorInsightsSpecification` (CloudFormation): the mode when enabled.
fn insights(v: Option<&Value>) -> Option<String> {
    let v = v?;
    if v.get("Enabled").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    Some(match v.get("Mode").and_then(Value::as_str) {
        Some("THROTTLED_KEYS") => "throttled_keys".to_string(),
        _ => "accessed_and_throttled_keys".to_string(),
    })
}

/// The region of a table ARN (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`).
fn arn_region(arn: Option<&Value>) -> Option<String> {
    let parts: Vec<&str> = arn?.as_str()?.split(':').collect();
    (parts.len() >= 6 && parts[2] == "dynamodb" && !parts[3].is_empty()).then(|| parts[3].to_string())
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
    pub insights: Option<String>,
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

/// The index-or-table and dimension of an Application Auto Scaling target:
/// `table/NAME` or `table/NAME/index/INDEX`, `dynamodb:table:ReadCapacityUnits`.
fn scalable(resource_id: &str, dimension: &str) -> Option<(String, Option<String>, Dim)> {
    let rest = resource_id.strip_prefix("table/")?;
    let (table, index) = match rest.split_once("/index/") {
        Some((t, i)) => (t.to_string(), Some(i.to_string())),
        None => (rest.to_string(), None),
    };
    let dim = if dimension.ends_with("ReadCapacityUnits") {
        Dim::Read
    } else if dimension.ends_with("WriteCapacityUnits") {
        Dim::Write
    } else {
        return None;
    };
    Some((table, index, dim))
}

/// Auto-scaling settings for (table name, index name, dimension).
pub(crate) type ScalingFor = (String, Option<String>, Dim, ScalingDef);

/// The field names of a scalable target and a scaling policy in one format: Application Auto
/// Scaling's own (`ResourceId`, …) or Terraform's (`resource_id`, …).
struct TargetKeys {
    namespace: &'static str,
    resource: &'static str,
    dimension: &'static str,
    min: &'static str,
    max: &'static str,
    /// JSON pointer of a target-tracking policy's target value.
    target: &'static str,
}

const API_KEYS: TargetKeys = TargetKeys {
    namespace: "ServiceNamespace",
    resource: "ResourceId",
    dimension: "ScalableDimension",
    min: "MinCapacity",
    max: "MaxCapacity",
    target: "/TargetTrackingScalingPolicyConfiguration/TargetValue",
};

const TERRAFORM_KEYS: TargetKeys = TargetKeys {
    namespace: "service_namespace",
    resource: "resource_id",
    dimension: "scalable_dimension",
    min: "min_capacity",
    max: "max_capacity",
    target: "/target_tracking_scaling_policy_configuration/0/target_value",
};

/// A scalable target of DynamoDB (min and max), or a target-tracking policy (its target), at
/// `at`; `None` for another service or dimension, or a policy of another kind.
fn scaling_entry(doc: &Doc, v: &Value, k: &TargetKeys, at: &str, policy: bool) -> Result<Option<ScalingFor>, ImportError> {
    if !policy && v.get(k.namespace).and_then(Value::as_str) != Some("dynamodb") {
        return Ok(None);
    }
    let rid = v.get(k.resource).and_then(Value::as_str).unwrap_or_default();
    let dim = v.get(k.dimension).and_then(Value::as_str).unwrap_or_default();
    let Some((table, index, d)) = scalable(rid, dim) else { return Ok(None) };
    let s = if policy {
        let Some(t) = v.pointer(k.target).and_then(Value::as_f64) else { return Ok(None) };
        ScalingDef { target: Some(t), ..ScalingDef::default() }
    } else {
        ScalingDef {
            min: opt_num(doc, v.get(k.min), &format!("{at}/{}", k.min))?,
            max: opt_num(doc, v.get(k.max), &format!("{at}/{}", k.max))?,
            target: None,
        }
    };
    Ok(Some((table, index, d, s)))
}

// ------------------------------------------------------------------------- describe-table

fn describe_table(doc: &Doc, t: &Value) -> Result<TableDef, ImportError> {
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

fn on_demand_opt(doc: &Doc, t: &Value, at: &str, on: bool) -> Result<[Option<u64>; 2], ImportError> {
    if on {
        max_throughput(doc, t.get("OnDemandThroughput"), &format!("{at}/OnDemandThroughput"))
    } else {
        Ok([None, None])
    }
}

fn stream(v: Option<&Value>) -> Option<String> {
    let s = v?;
    if s.get("StreamEnabled").and_then(Value::as_bool) == Some(false) {
        return None;
    }
    s.get("StreamViewType").and_then(Value::as_str).map(str::to_string)
}

/// An index as describe-table and CloudFormation write it (the same field names): name, keys,
/// projection, warm throughput, and the sizes describe-table adds; capacity is the caller's.
fn index_def(doc: &Doc, v: &Value, at: &str) -> Result<IndexDef, ImportError> {
    let (hash_key, range_key) = key_schema(doc, v.get("KeySchema"), &format!("{at}/KeySchema"))?;
    Ok(IndexDef {
        name: text(doc, v.get("IndexName"), &format!("{at}/IndexName"))?,
        hash_key,
        range_key,
        projection: projection(v.get("Projection")),
        warm: warm(doc, v.get("WarmThroughput"), &format!("{at}/WarmThroughput"))?,
        size_bytes: opt_num(doc, v.get("IndexSizeBytes"), &format!("{at}/IndexSizeBytes"))?,
        item_count: opt_num(doc, v.get("ItemCount"), &format!("{at}/ItemCount"))?,
        insights: insights(v.get("ContributorInsightsSpecification")),
        ..IndexDef::default()
    })
}

// --------------------------------------------------------------------------- CloudFormation

/// Properties `ddbsim import` reads: an unresolved intrinsic under one of them is reported.
const READ_KEYS: [&str; 19] = [
    "TableName",
    "KeySchema",
    "BillingMode",
    "ProvisionedThroughput",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "OnDemandThroughput",
    "WarmThroughput",
    "TableClass",
    "Replicas",
    "WriteProvisionedThroughputSettings",
    "WriteOnDemandThroughputSettings",
    "MinCapacity",
    "MaxCapacity",
    "ResourceId",
    "ScalableDimension",
    "ServiceNamespace",
    "ScalingTargetId",
    "TargetTrackingScalingPolicyConfiguration",
];

/// Resolves the intrinsics a template's table properties use: `Ref` to a parameter with a
/// default, `Fn::Sub` over such parameters, `Fn::Join`; anything else is reported with its
/// path and left as it is.
struct Resolver<'a> {
    params: BTreeMap<String, Value>,
    resources: &'a serde_json::Map<String, Value>,
    notes: Vec<String>,
}

impl Resolver<'_> {
    fn resolve(&mut self, v: &Value, at: &str) -> Value {
        match v {
            Value::Object(m) if m.len() == 1 => {
                let (k, arg) = m.iter().next().expect("one entry");
                match k.as_str() {
                    "Ref" => {
                        let name = arg.as_str().unwrap_or_default();
                        if let Some(p) = self.params.get(name) {
                            return p.clone();
                        }
                        if self.resources.contains_key(name) {
                            // A resource's Ref: a table's physical name, unknown before deploy.
                            return Value::String(format!("Ref:{name}"));
                        }
                        self.notes.push(format!("{at}: Ref {name} is not a parameter with a default; left as \"{name}\""));
                        Value::String(name.to_string())
                    }
                    "Fn::Sub" => {
                        let template = match arg {
                            Value::String(s) => s.clone(),
                            Value::Array(a) => a.first().and_then(Value::as_str).unwrap_or_default().to_string(),
                            _ => String::new(),
                        };
                        Value::String(self.substitute(&template, at))
                    }
                    "Fn::Join" => {
                        let (sep, parts) = match arg.as_array().map(Vec::as_slice) {
                            Some([Value::String(sep), Value::Array(parts)]) => (sep.clone(), parts.clone()),
                            _ => return v.clone(),
                        };
                        let parts: Vec<String> = parts
                            .iter()
                            .enumerate()
                            .map(|(i, p)| match self.resolve(p, &format!("{at}/Fn::Join/1/{i}")) {
                                Value::String(s) => s,
                                other => other.to_string(),
                            })
                            .collect();
                        Value::String(parts.join(&sep))
                    }
                    _ if k.starts_with("Fn::") => {
                        // Only where ddbsim reads the value (an ARN or a role does not matter).
                        if READ_KEYS.iter().any(|r| at.split('/').any(|s| s == *r)) {
                            self.notes.push(format!("{at}: {k} is not resolved by ddbsim import; edit the value it stands for"));
                        }
                        v.clone()
                    }
                    _ => Value::Object(m.iter().map(|(k, x)| (k.clone(), self.resolve(x, &format!("{at}/{}", seg(k))))).collect()),
                }
            }
            Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), self.resolve(x, &format!("{at}/{}", seg(k))))).collect()),
            Value::Array(a) => Value::Array(a.iter().enumerate().map(|(i, x)| self.resolve(x, &format!("{at}/{i}"))).collect()),
            _ => v.clone(),
        }
    }

    fn substitute(&mut self, template: &str, at: &str) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let Some(j) = rest[i..].find('}') else {
                out.push_str(&rest[i..]);
                return out;
            };
            let name = &rest[i + 2..i + j];
            match self.params.get(name) {
                Some(Value::String(s)) => out.push_str(s),
                Some(other) => out.push_str(&other.to_string()),
                None if self.resources.contains_key(name) => out.push_str(&format!("Ref:{name}")),
                None => {
                    self.notes.push(format!("{at}: ${{{name}}} has no default; left in the name"));
                    out.push_str(&rest[i..=i + j]);
                }
            }
            rest = &rest[i + j + 1..];
        }
        out.push_str(rest);
        out
    }
}

fn cloudformation(doc: &Doc) -> Result<Definitions, ImportError> {
    let resources = doc.value["Resources"].as_object().expect("checked by read");
    let params = doc
        .value
        .get("Parameters")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, p)| p.get("Default").map(|d| (k.clone(), d.clone()))).collect())
        .unwrap_or_default();
    let mut r = Resolver { params, resources, notes: Vec::new() };
    let mut defs = Definitions::default();
    // Logical id of each table, to attach scalable targets that Ref it.
    let mut logical: BTreeMap<String, usize> = BTreeMap::new();
    let mut targets: BTreeMap<String, (String, Option<String>, Dim, ScalingDef)> = BTreeMap::new();
    let mut by_target: Vec<(String, f64)> = Vec::new();
    for (id, res) in resources {
        let at = format!("/Resources/{}", seg(id));
        let kind = res.get("Type").and_then(Value::as_str).unwrap_or_default();
        let props = r.resolve(res.get("Properties").unwrap_or(&Value::Null), &format!("{at}/Properties"));
        let pat = format!("{at}/Properties");
        match kind {
            "AWS::DynamoDB::Table" | "AWS::DynamoDB::GlobalTable" => {
                let mut t = cfn_table(doc, &props, &pat, id, kind == "AWS::DynamoDB::GlobalTable", &mut defs.notes)?;
                if t.name.starts_with("Ref:") || t.name.is_empty() {
                    t.name = id.clone();
                }
                logical.insert(id.clone(), defs.tables.len());
                defs.tables.push(t);
            }
            "AWS::ApplicationAutoScaling::ScalableTarget" => {
                if props.get("ServiceNamespace").and_then(Value::as_str) != Some("dynamodb") {
                    continue;
                }
                let rid = props.get("ResourceId").map(resource_id_text).unwrap_or_default();
                let dim = props.get("ScalableDimension").and_then(Value::as_str).unwrap_or_default();
                let Some((table, index, d)) = scalable(&rid, dim) else {
                    defs.notes.push(format!("{at}: ResourceId {rid} / {dim} is not a DynamoDB table or index; skipped"));
                    continue;
                };
                let s = ScalingDef {
                    min: opt_num(doc, props.get("MinCapacity"), &format!("{pat}/MinCapacity"))?,
                    max: opt_num(doc, props.get("MaxCapacity"), &format!("{pat}/MaxCapacity"))?,
                    target: None,
                };
                targets.insert(id.clone(), (table, index, d, s));
            }
            "AWS::ApplicationAutoScaling::ScalingPolicy" => {
                let target_value = props.pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue").and_then(Value::as_f64);
                let by_ref = props.get("ScalingTargetId").and_then(|v| v.as_str()).and_then(|s| s.strip_prefix("Ref:"));
                match (by_ref, target_value) {
                    (Some(tid), Some(v)) => {
                        by_target.push((tid.to_string(), v));
                    }
                    (None, Some(v)) => {
                        let rid = props.get("ResourceId").map(resource_id_text).unwrap_or_default();
                        let dim = props.get("ScalableDimension").and_then(Value::as_str).unwrap_or_default();
                        if let Some((table, index, d)) = scalable(&rid, dim) {
                            defs.scaling.push((table, index, d, ScalingDef { target: Some(v), ..ScalingDef::default() }));
                        }
                    }
                    _ => defs.notes.push(format!("{at}: not a target-tracking policy; skipped")),
                }
            }
            _ => defs.notes.push(format!("{at}: {kind} is not a table or auto-scaling resource; skipped")),
        }
    }
    // Policies that point at their target by Ref (resources come in any order).
    for (tid, v) in by_target {
        match targets.get_mut(&tid) {
            Some(t) => t.3.target = Some(v),
            None => defs.notes.push(format!("a scaling policy points at {tid}, which is not a DynamoDB scalable target; skipped")),
        }
    }
    for (table, index, d, s) in targets.into_values() {
        // A ResourceId built from a Ref to the table names its logical id.
        let table = table.strip_prefix("Ref:").map_or(table.clone(), str::to_string);
        let name = logical.get(&table).map_or(table, |&i| defs.tables[i].name.clone());
        defs.scaling.push((name, index, d, s));
    }
    defs.notes.append(&mut r.notes);
    Ok(defs)
}

/// A `ResourceId` as text: `table/NAME` after resolution (`table/Ref:ID` when it is built from
/// a table's Ref, whose physical name is only known once deployed).
fn resource_id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn cfn_table(doc: &Doc, p: &Value, at: &str, id: &str, global: bool, notes: &mut Vec<String>) -> Result<TableDef, ImportError> {
    let (hash_key, range_key) = key_schema(doc, p.get("KeySchema"), &format!("{at}/KeySchema"))?;
    let name = match p.get("TableName") {
        Some(Value::String(s)) => s.clone(),
        Some(_) | None => id.to_string(),
    };
    let on_demand = p.get("BillingMode").and_then(Value::as_str) == Some("PAY_PER_REQUEST");
    let mut def = TableDef {
        name,
        hash_key,
        range_key,
        infrequent_access: p.get("TableClass").and_then(Value::as_str) == Some("STANDARD_INFREQUENT_ACCESS"),
        warm: warm(doc, p.get("WarmThroughput"), &format!("{at}/WarmThroughput"))?,
        stream: stream(p.get("StreamSpecification")),
        insights: insights(p.get("ContributorInsightsSpecification")),
        ..TableDef::default()
    };
    if global {
        // A global table sets Contributor Insights per replica: the first one's.
        let first = p.get("Replicas").and_then(Value::as_array).and_then(|r| r.first());
        def.insights = insights(first.and_then(|r| r.get("ContributorInsightsSpecification")));
        // The template does not say which region its stack deploys to: the first replica's
        // is taken as the table's, the others become `[[replica]]`s.
        for (i, r) in p.get("Replicas").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let Some(region) = r.get("Region").and_then(Value::as_str) else { continue };
            if i == 0 {
                def.region = Some(region.to_string());
            } else {
                let read = r.pointer("/ReadProvisionedThroughputSettings/ReadCapacityUnits").and_then(Value::as_u64);
                def.replicas.push((region.to_string(), read));
            }
        }
        // AWS::DynamoDB::GlobalTable: write capacity is auto-scaled (or on-demand), read
        // capacity is set per replica; the first replica is the one modelled.
        let replica = p.get("Replicas").and_then(Value::as_array).and_then(|r| r.first());
        if p.get("Replicas").and_then(Value::as_array).is_some_and(|r| r.len() > 1) {
            notes.push(format!(
                "{at}/Replicas: {} replicas; the first one's region is taken as the table's (the template does not say where its stack deploys), its settings model the table, the others are [[replica]]s",
                p["Replicas"].as_array().map_or(0, Vec::len)
            ));
        }
        if replica.and_then(|r| r.get("TableClass")).and_then(Value::as_str) == Some("STANDARD_INFREQUENT_ACCESS") {
            def.infrequent_access = true;
        }
        if on_demand {
            def.max = on_demand_pair(
                doc,
                p.get("WriteOnDemandThroughputSettings"),
                replica.and_then(|r| r.get("ReadOnDemandThroughputSettings")),
                at,
            )?;
        } else {
            let w = global_write(
                doc,
                p.get("WriteProvisionedThroughputSettings"),
                &format!("{at}/WriteProvisionedThroughputSettings"),
                &mut def.scaling,
                None,
            )?;
            let r = global_read(
                doc,
                replica.and_then(|r| r.get("ReadProvisionedThroughputSettings")),
                &format!("{at}/Replicas/0/ReadProvisionedThroughputSettings"),
                &mut def.scaling,
                None,
            )?;
            def.provisioned = Some([r, w]);
        }
        for (i, g) in p.get("GlobalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let gat = format!("{at}/GlobalSecondaryIndexes/{i}");
            let mut idx = index_def(doc, g, &gat)?;
            if !on_demand {
                let w = global_write(
                    doc,
                    g.get("WriteProvisionedThroughputSettings"),
                    &format!("{gat}/WriteProvisionedThroughputSettings"),
                    &mut def.scaling,
                    Some(&idx.name),
                )?;
                let rg = replica
                    .and_then(|r| r.get("GlobalSecondaryIndexes"))
                    .and_then(Value::as_array)
                    .and_then(|a| a.iter().find(|x| x.get("IndexName").and_then(Value::as_str) == Some(idx.name.as_str())))
                    .and_then(|x| x.get("ReadProvisionedThroughputSettings"));
                let r = global_read(doc, rg, &format!("{at}/Replicas/0/GlobalSecondaryIndexes"), &mut def.scaling, Some(&idx.name))?;
                idx.provisioned = Some([r, w]);
            }
            def.gsis.push(idx);
        }
    } else {
        if on_demand {
            def.max = max_throughput(doc, p.get("OnDemandThroughput"), &format!("{at}/OnDemandThroughput"))?;
        } else {
            def.provisioned = throughput(doc, p.get("ProvisionedThroughput"), &format!("{at}/ProvisionedThroughput"))?;
            if def.provisioned.is_none() {
                return Err(
                    doc.error(&format!("{at}/ProvisionedThroughput"), "BillingMode PROVISIONED (the default) needs ProvisionedThroughput")
                );
            }
        }
        for (i, g) in p.get("GlobalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let gat = format!("{at}/GlobalSecondaryIndexes/{i}");
            let mut idx = index_def(doc, g, &gat)?;
            if on_demand {
                idx.max = max_throughput(doc, g.get("OnDemandThroughput"), &format!("{gat}/OnDemandThroughput"))?;
            } else {
                idx.provisioned = throughput(doc, g.get("ProvisionedThroughput"), &format!("{gat}/ProvisionedThroughput"))?;
                if idx.provisioned.is_none() {
                    return Err(
                        doc.error(&format!("{gat}/ProvisionedThroughput"), "a GSI of a provisioned table needs ProvisionedThroughput")
                    );
                }
            }
            def.gsis.push(idx);
        }
    }
    for (i, l) in p.get("LocalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
        def.lsis.push(index_def(doc, l, &format!("{at}/LocalSecondaryIndexes/{i}"))?);
    }
    Ok(def)
}

fn on_demand_pair(doc: &Doc, write: Option<&Value>, read: Option<&Value>, at: &str) -> Result<[Option<u64>; 2], ImportError> {
    Ok([
        opt_num(doc, read.and_then(|r| r.get("MaxReadRequestUnits")), &format!("{at}/Replicas/0/ReadOnDemandThroughputSettings"))?,
        opt_num(doc, write.and_then(|w| w.get("MaxWriteRequestUnits")), &format!("{at}/WriteOnDemandThroughputSettings"))?,
    ])
}

/// A GlobalTable's write settings: `WriteCapacityAutoScalingSettings` (min, max, target):
/// the capacity starts at min.
fn global_write(
    doc: &Doc,
    v: Option<&Value>,
    at: &str,
    scaling: &mut BTreeMap<(Option<String>, Dim), ScalingDef>,
    index: Option<&str>,
) -> Result<u64, ImportError> {
    let Some(a) = v.and_then(|v| v.get("WriteCapacityAutoScalingSettings")) else {
        return Err(doc.error(at, "a provisioned global table sets WriteCapacityAutoScalingSettings"));
    };
    let s = autoscaling_settings(doc, a, &format!("{at}/WriteCapacityAutoScalingSettings"))?;
    scaling.insert((index.map(str::to_string), Dim::Write), s);
    Ok(s.min.unwrap_or(1))
}

/// A GlobalTable replica's read settings: `ReadCapacityUnits`, or auto scaling.
fn global_read(
    doc: &Doc,
    v: Option<&Value>,
    at: &str,
    scaling: &mut BTreeMap<(Option<String>, Dim), ScalingDef>,
    index: Option<&str>,
) -> Result<u64, ImportError> {
    let Some(v) = v else { return Err(doc.error(at, "a provisioned global table's replica sets ReadProvisionedThroughputSettings")) };
    if let Some(n) = opt_num(doc, v.get("ReadCapacityUnits"), &format!("{at}/ReadCapacityUnits"))? {
        return Ok(n);
    }
    let Some(a) = v.get("ReadCapacityAutoScalingSettings") else {
        return Err(doc.error(at, "ReadCapacityUnits or ReadCapacityAutoScalingSettings"));
    };
    let s = autoscaling_settings(doc, a, &format!("{at}/ReadCapacityAutoScalingSettings"))?;
    scaling.insert((index.map(str::to_string), Dim::Read), s);
    Ok(s.min.unwrap_or(1))
}

fn autoscaling_settings(doc: &Doc, a: &Value, at: &str) -> Result<ScalingDef, ImportError> {
    Ok(ScalingDef {
        min: opt_num(doc, a.get("MinCapacity"), &format!("{at}/MinCapacity"))?,
        max: opt_num(doc, a.get("MaxCapacity"), &format!("{at}/MaxCapacity"))?,
        target: a.pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue").and_then(Value::as_f64),
    })
}

// -------------------------------------------------------------------------------- Terraform

fn terraform(doc: &Doc) -> Result<Definitions, ImportError> {
    let (root, base) = match doc.value.get("values") {
        Some(v) => (v.get("root_module"), "/values/root_module"),
        None => (doc.value.pointer("/planned_values/root_module"), "/planned_values/root_module"),
    };
    let mut defs = Definitions::default();
    let mut resources = Vec::new();
    if let Some(m) = root {
        collect_modules(m, base, &mut resources);
    }
    let mut policies = Vec::new();
    for (at, r) in resources {
        let kind = r.get("type").and_then(Value::as_str).unwrap_or_default();
        let v = r.get("values").cloned().unwrap_or(Value::Null);
        let vat = format!("{at}/values");
        match kind {
            "aws_dynamodb_table" => defs.tables.push(tf_table(doc, &v, &vat)?),
            "aws_appautoscaling_target" => defs.scaling.extend(scaling_entry(doc, &v, &TERRAFORM_KEYS, &vat, false)?),
            "aws_appautoscaling_policy" => policies.extend(scaling_entry(doc, &v, &TERRAFORM_KEYS, &vat, true)?),
            "" => {}
            other => defs.notes.push(format!("{at}: {other} is not a table or auto-scaling resource; skipped")),
        }
    }
    defs.scaling.extend(policies);
    Ok(defs)
}

fn collect_modules(m: &Value, at: &str, out: &mut Vec<(String, Value)>) {
    for (i, r) in m.get("resources").and_then(Value::as_array).into_iter().flatten().enumerate() {
        out.push((format!("{at}/resources/{i}"), r.clone()));
    }
    for (i, c) in m.get("child_modules").and_then(Value::as_array).into_iter().flatten().enumerate() {
        collect_modules(c, &format!("{at}/child_modules/{i}"), out);
    }
}

/// A Terraform nested block (a list of one object).
fn block<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.get(key).and_then(Value::as_array).and_then(|a| a.first())
}

fn tf_table(doc: &Doc, v: &Value, at: &str) -> Result<TableDef, ImportError> {
    let on_demand = v.get("billing_mode").and_then(Value::as_str) == Some("PAY_PER_REQUEST");
    let pair = |doc: &Doc, x: &Value, at: &str| -> Result<Option<[u64; 2]>, ImportError> {
        Ok(
            match (
                opt_num(doc, x.get("read_capacity"), &format!("{at}/read_capacity"))?,
                opt_num(doc, x.get("write_capacity"), &format!("{at}/write_capacity"))?,
            ) {
                (Some(r), Some(w)) => Some([r, w]),
                _ => None,
            },
        )
    };
    let tf_max = |doc: &Doc, x: &Value, at: &str| -> Result<[Option<u64>; 2], ImportError> {
        let Some(b) = block(x, "on_demand_throughput") else { return Ok([None, None]) };
        Ok([
            opt_num(doc, b.get("max_read_request_units"), &format!("{at}/on_demand_throughput/0/max_read_request_units"))?,
            opt_num(doc, b.get("max_write_request_units"), &format!("{at}/on_demand_throughput/0/max_write_request_units"))?,
        ])
    };
    let tf_warm = |doc: &Doc, x: &Value, at: &str| -> Result<Option<[u64; 2]>, ImportError> {
        let Some(b) = block(x, "warm_throughput") else { return Ok(None) };
        let r = opt_num(doc, b.get("read_units_per_second"), &format!("{at}/warm_throughput/0/read_units_per_second"))?;
        let w = opt_num(doc, b.get("write_units_per_second"), &format!("{at}/warm_throughput/0/write_units_per_second"))?;
        Ok((r.is_some() || w.is_some()).then(|| [r.unwrap_or(0), w.unwrap_or(0)]))
    };
    let tf_projection = |x: &Value| match x.get("projection_type").and_then(Value::as_str) {
        Some("KEYS_ONLY") => ProjectionDef::KeysOnly,
        Some("INCLUDE") => ProjectionDef::Include(x.get("non_key_attributes").and_then(Value::as_array).map_or(0, Vec::len)),
        _ => ProjectionDef::All,
    };
    let mut def = TableDef {
        name: text(doc, v.get("name"), &format!("{at}/name"))?,
        hash_key: text(doc, v.get("hash_key"), &format!("{at}/hash_key"))?,
        range_key: v.get("range_key").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string),
        provisioned: if on_demand { None } else { pair(doc, v, at)? },
        max: if on_demand { tf_max(doc, v, at)? } else { [None, None] },
        warm: tf_warm(doc, v, at)?,
        infrequent_access: v.get("table_class").and_then(Value::as_str) == Some("STANDARD_INFREQUENT_ACCESS"),
        stream: if v.get("stream_enabled").and_then(Value::as_bool) == Some(true) {
            v.get("stream_view_type").and_then(Value::as_str).map(str::to_string)
        } else {
            None
        },
        region: arn_region(v.get("arn")),
        replicas: v
            .get("replica")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|r| r.get("region_name").and_then(Value::as_str))
            .map(|r| (r.to_string(), None))
            .collect(),
        ..TableDef::default()
    };
    if !on_demand && def.provisioned.is_none() {
        return Err(doc.error(at, "billing_mode PROVISIONED needs read_capacity and write_capacity"));
    }
    for (i, g) in v.get("global_secondary_index").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let gat = format!("{at}/global_secondary_index/{i}");
        def.gsis.push(IndexDef {
            name: text(doc, g.get("name"), &format!("{gat}/name"))?,
            hash_key: text(doc, g.get("hash_key"), &format!("{gat}/hash_key"))?,
            range_key: g.get("range_key").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string),
            projection: tf_projection(g),
            provisioned: if on_demand { None } else { pair(doc, g, &gat)?.or(def.provisioned) },
            max: if on_demand { tf_max(doc, g, &gat)? } else { [None, None] },
            warm: tf_warm(doc, g, &gat)?,
            ..IndexDef::default()
        });
    }
    for (i, l) in v.get("local_secondary_index").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let lat = format!("{at}/local_secondary_index/{i}");
        def.lsis.push(IndexDef {
            name: text(doc, l.get("name"), &format!("{lat}/name"))?,
            hash_key: def.hash_key.clone(),
            range_key: l.get("range_key").and_then(Value::as_str).map(str::to_string),
            projection: tf_projection(l),
            ..IndexDef::default()
        });
    }
    Ok(def)
}

// ---------------------------------------------------------------- Application Auto Scaling

fn autoscaling_api(doc: &Doc) -> Result<Definitions, ImportError> {
    let mut defs = Definitions::default();
    for (i, t) in doc.value.get("ScalableTargets").and_then(Value::as_array).into_iter().flatten().enumerate() {
        defs.scaling.extend(scaling_entry(doc, t, &API_KEYS, &format!("/ScalableTargets/{i}"), false)?);
    }
    for (i, p) in doc.value.get("ScalingPolicies").and_then(Value::as_array).into_iter().flatten().enumerate() {
        defs.scaling.extend(scaling_entry(doc, p, &API_KEYS, &format!("/ScalingPolicies/{i}"), true)?);
    }
    Ok(defs)
}

/// Merges auto-scaling settings found apart from the tables into them (min/max from a
/// target, the target value from a policy).
pub(crate) fn attach_scaling(tables: &mut [TableDef], scaling: &[ScalingFor], notes: &mut Vec<String>) {
    for (table, index, d, s) in scaling {
        let Some(t) = tables.iter_mut().find(|t| &t.name == table) else {
            notes.push(format!(
                "auto scaling of {table}{}: no such table among the definitions; skipped",
                index.as_ref().map(|i| format!("/index/{i}")).unwrap_or_default()
            ));
            continue;
        };
        let e = t.scaling.entry((index.clone(), *d)).or_default();
        e.min = s.min.or(e.min);
        e.max = s.max.or(e.max);
        e.target = s.target.or(e.target);
    }
}
