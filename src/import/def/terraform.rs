//! `terraform show -json`: `aws_dynamodb_table` and `aws_appautoscaling_*` resources, modules included.

use super::describe::arn_region;
use super::scaling::{scaling_entry, TERRAFORM_KEYS};
use super::{opt_num, text, unmodelled, Definitions, Doc, ImportError, IndexDef, ProjectionDef, TableDef};
use serde_json::Value;

pub(super) fn terraform(doc: &Doc) -> Result<Definitions, ImportError> {
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

pub(super) fn collect_modules(m: &Value, at: &str, out: &mut Vec<(String, Value)>) {
    for (i, r) in m.get("resources").and_then(Value::as_array).into_iter().flatten().enumerate() {
        out.push((format!("{at}/resources/{i}"), r.clone()));
    }
    for (i, c) in m.get("child_modules").and_then(Value::as_array).into_iter().flatten().enumerate() {
        collect_modules(c, &format!("{at}/child_modules/{i}"), out);
    }
}

/// A Terraform nested block (a list of one object).
pub(super) fn block<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.get(key).and_then(Value::as_array).and_then(|a| a.first())
}

/// The attributes of `aws_dynamodb_table` ddbsim reads.
const TF_READ: [&str; 18] = [
    "name",
    "hash_key",
    "range_key",
    "billing_mode",
    "read_capacity",
    "write_capacity",
    "global_secondary_index",
    "local_secondary_index",
    "on_demand_throughput",
    "warm_throughput",
    "table_class",
    "stream_enabled",
    "stream_view_type",
    "replica",
    "point_in_time_recovery",
    "ttl",
    "arn",
    "region",
];

/// Its bookkeeping attributes: neither read nor worth a note.
const TF_QUIET: [&str; 4] = ["attribute", "id", "stream_arn", "stream_label"];

pub(super) fn tf_table(doc: &Doc, v: &Value, at: &str) -> Result<TableDef, ImportError> {
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
    if let Some(p) = block(v, "point_in_time_recovery").filter(|p| p.get("enabled").and_then(Value::as_bool) == Some(true)) {
        def.pitr = Some(match p.get("recovery_period_in_days") {
            None | Some(Value::Null) => None,
            Some(d) => Some(d.as_u64().filter(|n| (1..=35).contains(n)).ok_or_else(|| {
                doc.error(
                    &format!("{at}/point_in_time_recovery/recovery_period_in_days"),
                    format!("a point-in-time recovery period is 1 to 35 days, not {d}"),
                )
            })?),
        });
    }
    if let Some(t) = block(v, "ttl").filter(|t| t.get("enabled").and_then(Value::as_bool) == Some(true)) {
        def.ttl_attribute = Some(t.get("attribute_name").and_then(Value::as_str).unwrap_or("").to_string());
    }
    def.unmodelled = unmodelled(v, at, &TF_READ, &TF_QUIET);
    for (i, g) in v.get("global_secondary_index").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let gat = format!("{at}/global_secondary_index/{i}");
        let (mut hash, range) = tf_key_schema(doc, g, &gat)?;
        let more_hash_keys = hash.split_off(1);
        def.gsis.push(IndexDef {
            name: text(doc, g.get("name"), &format!("{gat}/name"))?,
            hash_key: hash.remove(0),
            more_hash_keys,
            range_key: range,
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

/// A GSI's keys: `hash_key` and `range_key`, or (multi-attribute keys) `key_schema` blocks of
/// `{ attribute_name, key_type }`, up to four of each type, in order.
fn tf_key_schema(doc: &Doc, g: &Value, gat: &str) -> Result<(Vec<String>, Option<String>), ImportError> {
    let blocks = g.get("key_schema").and_then(Value::as_array).filter(|a| !a.is_empty());
    let Some(blocks) = blocks else {
        let range = g.get("range_key").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
        return Ok((vec![text(doc, g.get("hash_key"), &format!("{gat}/hash_key"))?], range));
    };
    let (mut hash, mut range) = (Vec::new(), Vec::new());
    for (i, k) in blocks.iter().enumerate() {
        let name = text(doc, k.get("attribute_name"), &format!("{gat}/key_schema/{i}/attribute_name"))?;
        match k.get("key_type").and_then(Value::as_str) {
            Some("HASH") => hash.push(name),
            Some("RANGE") => range.push(name),
            _ => return Err(doc.error(&format!("{gat}/key_schema/{i}/key_type"), "key_type is HASH or RANGE")),
        }
    }
    if hash.is_empty() || hash.len() > 4 || range.len() > 4 {
        return Err(doc.error(&format!("{gat}/key_schema"), "a GSI key has 1 to 4 HASH and at most 4 RANGE attributes"));
    }
    Ok((hash, range.into_iter().next()))
}
