//! Auto scaling as the definitions state it: scalable targets and their target-tracking policies,
//! by table, index and dimension.

use super::{opt_num, Doc, ImportError, ScalingDef, TableDef};
use crate::model::Dim;
use serde_json::Value;

/// The index-or-table and dimension of an Application Auto Scaling target:
/// `table/NAME` or `table/NAME/index/INDEX`, `dynamodb:table:ReadCapacityUnits`.
pub(super) fn scalable(resource_id: &str, dimension: &str) -> Option<(String, Option<String>, Dim)> {
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
pub(super) struct TargetKeys {
    namespace: &'static str,
    resource: &'static str,
    dimension: &'static str,
    min: &'static str,
    max: &'static str,
    /// JSON pointer of a target-tracking policy's target value.
    target: &'static str,
    /// JSON pointers of its scale-in and scale-out cooldowns (seconds).
    cooldowns: [&'static str; 2],
}

pub(super) const API_KEYS: TargetKeys = TargetKeys {
    namespace: "ServiceNamespace",
    resource: "ResourceId",
    dimension: "ScalableDimension",
    min: "MinCapacity",
    max: "MaxCapacity",
    target: "/TargetTrackingScalingPolicyConfiguration/TargetValue",
    cooldowns: ["/TargetTrackingScalingPolicyConfiguration/ScaleInCooldown", "/TargetTrackingScalingPolicyConfiguration/ScaleOutCooldown"],
};

pub(super) const TERRAFORM_KEYS: TargetKeys = TargetKeys {
    namespace: "service_namespace",
    resource: "resource_id",
    dimension: "scalable_dimension",
    min: "min_capacity",
    max: "max_capacity",
    target: "/target_tracking_scaling_policy_configuration/0/target_value",
    cooldowns: [
        "/target_tracking_scaling_policy_configuration/0/scale_in_cooldown",
        "/target_tracking_scaling_policy_configuration/0/scale_out_cooldown",
    ],
};

/// A cooldown in seconds at `pointer` of `v`, when set above 0, the default (a number or a
/// numeric string).
pub(super) fn cooldown(v: &Value, pointer: &str) -> Option<u64> {
    match v.pointer(pointer)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|x: &f64| x.is_finite() && *x > 0.0)
    .map(|x| x.round() as u64)
}

/// A scalable target of DynamoDB (min and max), or a target-tracking policy (its target), at
/// `at`; `None` for another service or dimension, or a policy of another kind.
pub(super) fn scaling_entry(doc: &Doc, v: &Value, k: &TargetKeys, at: &str, policy: bool) -> Result<Option<ScalingFor>, ImportError> {
    if !policy && v.get(k.namespace).and_then(Value::as_str) != Some("dynamodb") {
        return Ok(None);
    }
    let rid = v.get(k.resource).and_then(Value::as_str).unwrap_or_default();
    let dim = v.get(k.dimension).and_then(Value::as_str).unwrap_or_default();
    let Some((table, index, d)) = scalable(rid, dim) else { return Ok(None) };
    let s = if policy {
        let Some(t) = v.pointer(k.target).and_then(Value::as_f64) else { return Ok(None) };
        ScalingDef { target: Some(t), cooldowns: k.cooldowns.map(|c| cooldown(v, c)), ..ScalingDef::default() }
    } else {
        ScalingDef {
            min: opt_num(doc, v.get(k.min), &format!("{at}/{}", k.min))?,
            max: opt_num(doc, v.get(k.max), &format!("{at}/{}", k.max))?,
            ..ScalingDef::default()
        }
    };
    Ok(Some((table, index, d, s)))
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
        for i in 0..2 {
            e.cooldowns[i] = s.cooldowns[i].or(e.cooldowns[i]);
        }
    }
}
