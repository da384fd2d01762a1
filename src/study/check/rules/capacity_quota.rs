//! `autoscaling-past-quota`: a table whose GSIs and itself may together be raised (by auto
//! scaling, or by `set_capacity`) past the Region's quota on provisioned capacity, where each
//! raise past it fails (LimitExceededException) and the capacity stays.

use super::{numbers, Context, Evidence, Finding, Rule, Severity};
use crate::model::CapacityAction;
use crate::scenario::{Action, CapacitySpec, ResourceId, Scenario};

/// Auto-scaling maxima (and `set_capacity` raises) that together pass the quota.
pub(super) struct CapacityQuota;

impl Rule for CapacityQuota {
    fn ids(&self) -> &'static [&'static str] {
        &["autoscaling-past-quota"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::Steady]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        let refused = cx.runs.steady.events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).count();
        past_quota(cx.runs.sc, refused)
    }
}

/// The most each provisioned resource of the table may be given in dimension `d` over the
/// run: its capacity, its auto-scaling maximum, and every `set_capacity` of it.
fn most(sc: &Scenario, id: ResourceId, d: usize) -> u64 {
    let CapacitySpec::Provisioned { read, write } = *sc.capacity_of(id) else { return 0 };
    let mut m = [read, write][d];
    if let Some(t) = sc.autoscaling_of(id).and_then(|a| [a.read, a.write][d]) {
        m = m.max(t.max);
    }
    for a in &sc.actions {
        if let Action::SetCapacity { read, write, .. } = a.action {
            if a.action.target() == Some(id) {
                m = m.max([read, write][d].unwrap_or(0));
            }
        }
    }
    m
}

/// One finding per dimension whose maxima pass the quota; an error when the steady run had
/// `refused` raises, else a warning.
fn past_quota(sc: &Scenario, refused: usize) -> Vec<Finding> {
    let mut out = Vec::new();
    for (d, (unit, key)) in [("RCU", "read"), ("WCU", "write")].into_iter().enumerate() {
        let each: Vec<(String, u64)> =
            sc.layout().table_and_gsis().map(|id| (sc.resource_name(id), most(sc, id, d))).filter(|x| x.1 > 0).collect();
        let total: u64 = each.iter().map(|x| x.1).sum();
        let quota = sc.account.limit(d);
        if total <= quota {
            continue;
        }
        let scope = if quota == sc.account.table_max[d] { "table-level" } else { "account-level" };
        let severity = if refused > 0 { Severity::Error } else { Severity::Warn };
        let mut evidence = vec![format!(
            "the most each may be given: {}",
            each.iter().map(|(n, u)| format!("{n} {u} {unit}")).collect::<Vec<_>>().join(", ")
        )];
        if refused > 0 {
            evidence.push(format!("the steady hour had {refused} raise(s) refused by the quota (refused_quota in the timeline)"));
        }
        out.push(Finding {
            id: "autoscaling-past-quota".into(),
            severity,
            resource: Some(sc.table.name.clone()),
            title: format!(
                "{} and its GSIs may be raised to {total} {unit}, past the {scope} quota of {quota} {unit}: a raise past it fails and the capacity stays",
                sc.table.name
            ),
            evidence,
            numbers: numbers(&[("most_units", total as f64), ("quota_units", quota as f64), ("refused_raises", refused as f64)]),
            source: "Developer Guide, ServiceQuotas (table-level and account-level quotas; LimitExceededException); docs/dynamodb-behaviour.md §17".into(),
            fix: format!(
                "request a quota increase (Service Quotas) and state it in [account] ({scope} {key}: {}), or lower the auto-scaling maxima to fit {quota} {unit}",
                if scope == "table-level" { format!("table_max_{key}_capacity_units") } else { format!("max_{key}_capacity_units") }
            ),
            assumptions: Vec::new(),
            effect: None,
        });
    }
    out
}

/// `autoscaling-past-quota` across an account (several tables, a folder): the tables of a
/// Region whose maxima together pass its account-level quota, each table's finding naming the
/// others. The quota is the most any of them states (one quota per Region). A warning: which
/// raise fails depends on which table peaks first.
#[must_use]
pub fn account_past_quota(tables: &[Scenario]) -> Vec<(usize, Finding)> {
    let mut out = Vec::new();
    let mut regions: Vec<&str> = tables.iter().map(|t| t.pricing.region.as_str()).collect();
    regions.sort_unstable();
    regions.dedup();
    for region in regions {
        let members: Vec<usize> = (0..tables.len()).filter(|&i| tables[i].pricing.region == region).collect();
        if members.len() < 2 {
            continue;
        }
        for (d, (unit, key)) in [("RCU", "read"), ("WCU", "write")].into_iter().enumerate() {
            let each: Vec<(usize, u64)> =
                members.iter().map(|&i| (i, tables[i].layout().table_and_gsis().map(|id| most(&tables[i], id, d)).sum::<u64>())).collect();
            let total: u64 = each.iter().map(|x| x.1).sum();
            let quota = members.iter().map(|&i| tables[i].account.max[d]).max().unwrap_or(0);
            if total <= quota {
                continue;
            }
            let listed = each
                .iter()
                .filter(|x| x.1 > 0)
                .map(|&(i, u)| format!("{} {u} {unit}", tables[i].table.name))
                .collect::<Vec<_>>()
                .join(", ");
            for &(i, part) in each.iter().filter(|x| x.1 > 0) {
                out.push((
                    i,
                    Finding {
                        id: "autoscaling-past-quota".into(),
                        severity: Severity::Warn,
                        resource: Some(tables[i].table.name.clone()),
                        title: format!(
                            "the {} tables of {region} may be raised to {total} {unit} together, past the account-level quota of {quota} {unit}: a raise past it fails and the capacity stays",
                            members.len()
                        ),
                        evidence: vec![format!("the most each table and its GSIs may be given: {listed}")],
                        numbers: numbers(&[("most_units", total as f64), ("quota_units", quota as f64), ("table_units", part as f64)]),
                        source: "Developer Guide, ServiceQuotas (account-level quota per Region; LimitExceededException); docs/dynamodb-behaviour.md §17"
                            .into(),
                        fix: format!(
                            "request an account-level quota increase (Service Quotas) and state it in [account] max_{key}_capacity_units, or lower the tables' auto-scaling maxima to fit {quota} {unit} together"
                        ),
                        assumptions: Vec::new(),
                        effect: None,
                    },
                ));
            }
        }
    }
    out
}
