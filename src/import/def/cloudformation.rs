//! CloudFormation (and CDK) templates: `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable` and
//! `AWS::ApplicationAutoScaling::*` resources, with intrinsic functions resolved where they can be.

use super::describe::{index_def, insights, stream};
use super::scaling::{cooldown, scalable};
use super::{
    key_schema, max_throughput, opt_num, pitr_spec, seg, throughput, ttl_spec, unmodelled, warm, Definitions, Doc, ImportError, ScalingDef,
    TableDef,
};
use crate::model::Dim;
use serde_json::Value;
use std::collections::BTreeMap;

/// Properties `ddbsim import` reads: an unresolved intrinsic under one of them is reported.
pub(super) const READ_KEYS: [&str; 19] = [
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

/// The properties of a table resource ddbsim reads: any other that is set is listed in the
/// import's notes as not modelled.
const TABLE_READ: [&str; 16] = [
    "TableName",
    "KeySchema",
    "BillingMode",
    "ProvisionedThroughput",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "OnDemandThroughput",
    "WarmThroughput",
    "TableClass",
    "StreamSpecification",
    "ContributorInsightsSpecification",
    "PointInTimeRecoverySpecification",
    "TimeToLiveSpecification",
    "Replicas",
    "WriteProvisionedThroughputSettings",
    "WriteOnDemandThroughputSettings",
];

/// The properties of a global table's (first) replica ddbsim reads.
const REPLICA_READ: [&str; 7] = [
    "Region",
    "ReadProvisionedThroughputSettings",
    "ReadOnDemandThroughputSettings",
    "TableClass",
    "ContributorInsightsSpecification",
    "GlobalSecondaryIndexes",
    "PointInTimeRecoverySpecification",
];

/// Resolves the intrinsics a template's table properties use: `Ref` to a parameter with a
/// default, `Fn::Sub` over such parameters, `Fn::Join`; anything else is reported with its
/// path and left as it is.
pub(super) struct Resolver<'a> {
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

pub(super) fn cloudformation(doc: &Doc) -> Result<Definitions, ImportError> {
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
    let mut by_target: Vec<(String, f64, [Option<u64>; 2])> = Vec::new();
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
                    ..ScalingDef::default()
                };
                targets.insert(id.clone(), (table, index, d, s));
            }
            "AWS::ApplicationAutoScaling::ScalingPolicy" => {
                let target_value = props.pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue").and_then(Value::as_f64);
                let cooldowns = COOLDOWNS.map(|c| cooldown(&props, c));
                let by_ref = props.get("ScalingTargetId").and_then(|v| v.as_str()).and_then(|s| s.strip_prefix("Ref:"));
                match (by_ref, target_value) {
                    (Some(tid), Some(v)) => {
                        by_target.push((tid.to_string(), v, cooldowns));
                    }
                    (None, Some(v)) => {
                        let rid = props.get("ResourceId").map(resource_id_text).unwrap_or_default();
                        let dim = props.get("ScalableDimension").and_then(Value::as_str).unwrap_or_default();
                        if let Some((table, index, d)) = scalable(&rid, dim) {
                            defs.scaling.push((table, index, d, ScalingDef { target: Some(v), cooldowns, ..ScalingDef::default() }));
                        }
                    }
                    _ => defs.notes.push(format!("{at}: not a target-tracking policy; skipped")),
                }
            }
            _ => defs.notes.push(format!("{at}: {kind} is not a table or auto-scaling resource; skipped")),
        }
    }
    // Policies that point at their target by Ref (resources come in any order).
    for (tid, v, cooldowns) in by_target {
        match targets.get_mut(&tid) {
            Some(t) => {
                t.3.target = Some(v);
                t.3.cooldowns = cooldowns;
            }
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
pub(super) fn resource_id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn cfn_table(doc: &Doc, p: &Value, at: &str, id: &str, global: bool, notes: &mut Vec<String>) -> Result<TableDef, ImportError> {
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
    def.ttl_attribute = ttl_spec(p.get("TimeToLiveSpecification"));
    def.unmodelled = unmodelled(p, at, &TABLE_READ, &["AttributeDefinitions"]);
    if global {
        global_table(doc, p, at, on_demand, &mut def, notes)?;
        let first = p.get("Replicas").and_then(Value::as_array).and_then(|r| r.first());
        def.pitr = pitr_spec(
            doc,
            first.and_then(|r| r.get("PointInTimeRecoverySpecification")),
            &format!("{at}/Replicas/0/PointInTimeRecoverySpecification"),
        )?;
        if let Some(r) = first {
            def.unmodelled.extend(unmodelled(r, &format!("{at}/Replicas/0"), &REPLICA_READ, &[]));
        }
    } else {
        def.pitr = pitr_spec(doc, p.get("PointInTimeRecoverySpecification"), &format!("{at}/PointInTimeRecoverySpecification"))?;
        table_capacity(doc, p, at, on_demand, &mut def)?;
    }
    for (i, l) in p.get("LocalSecondaryIndexes").and_then(Value::as_array).into_iter().flatten().enumerate() {
        def.lsis.push(index_def(doc, l, &format!("{at}/LocalSecondaryIndexes/{i}"))?);
    }
    Ok(def)
}

/// An `AWS::DynamoDB::GlobalTable`'s replicas, capacity and GSIs: the first replica models the
/// table, the others become `[[replica]]`s.
fn global_table(doc: &Doc, p: &Value, at: &str, on_demand: bool, def: &mut TableDef, notes: &mut Vec<String>) -> Result<(), ImportError> {
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
    Ok(())
}

/// An `AWS::DynamoDB::Table`'s capacity and its GSIs'.
fn table_capacity(doc: &Doc, p: &Value, at: &str, on_demand: bool, def: &mut TableDef) -> Result<(), ImportError> {
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
                return Err(doc.error(&format!("{gat}/ProvisionedThroughput"), "a GSI of a provisioned table needs ProvisionedThroughput"));
            }
        }
        def.gsis.push(idx);
    }
    Ok(())
}

pub(super) fn on_demand_pair(doc: &Doc, write: Option<&Value>, read: Option<&Value>, at: &str) -> Result<[Option<u64>; 2], ImportError> {
    Ok([
        opt_num(doc, read.and_then(|r| r.get("MaxReadRequestUnits")), &format!("{at}/Replicas/0/ReadOnDemandThroughputSettings"))?,
        opt_num(doc, write.and_then(|w| w.get("MaxWriteRequestUnits")), &format!("{at}/WriteOnDemandThroughputSettings"))?,
    ])
}

/// A GlobalTable's write settings: `WriteCapacityAutoScalingSettings` (min, max, target):
/// the capacity starts at min.
pub(super) fn global_write(
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
pub(super) fn global_read(
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

pub(super) fn autoscaling_settings(doc: &Doc, a: &Value, at: &str) -> Result<ScalingDef, ImportError> {
    Ok(ScalingDef {
        min: opt_num(doc, a.get("MinCapacity"), &format!("{at}/MinCapacity"))?,
        max: opt_num(doc, a.get("MaxCapacity"), &format!("{at}/MaxCapacity"))?,
        target: a.pointer("/TargetTrackingScalingPolicyConfiguration/TargetValue").and_then(Value::as_f64),
        cooldowns: COOLDOWNS.map(|c| cooldown(a, c)),
    })
}

/// Where a target-tracking configuration keeps its scale-in and scale-out cooldowns.
const COOLDOWNS: [&str; 2] =
    ["/TargetTrackingScalingPolicyConfiguration/ScaleInCooldown", "/TargetTrackingScalingPolicyConfiguration/ScaleOutCooldown"];
