//! `dax-costs-more-than-it-saves`: a DAX cluster that costs more than the table reads it saves.

use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity};
use crate::cost::HOURS_PER_MONTH;
use crate::format::usd;

/// A DAX cluster that costs more than the table reads it saves.
pub(super) struct DaxPays;

impl Rule for DaxPays {
    fn ids(&self) -> &'static [&'static str] {
        &["dax-costs-more-than-it-saves"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::OwnShape]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the scenario's own traffic without the DAX cluster, billed for a month")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        dax_pays(cx.runs).into_iter().collect()
    }
}

/// A DAX cluster that costs more than the table reads it saves: the scenario billed with its
/// cluster and re-simulated and billed without it, both at a month's rate.
fn dax_pays(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let spec = sc.dax.as_ref()?;
    let with = runs.own_run();
    let mut bare = sc.clone();
    bare.dax = None;
    let without = runs.simulate(&bare, false);
    let (cost_with, cost_without) = (runs.monthly(sc, with), runs.monthly(&bare, &without));
    if cost_with <= cost_without {
        return None;
    }
    let d = with.dax.as_ref()?;
    let nodes_month = spec.node_type.price_item();
    let node_usd = runs.catalog.clone().with_overrides(&sc.pricing.overrides).price(nodes_month).usd;
    let cluster = node_usd * f64::from(spec.nodes) * HOURS_PER_MONTH;
    let saved = cluster - (cost_with - cost_without);
    Some(Finding {
        id: "dax-costs-more-than-it-saves".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!(
            "the DAX cluster ({} x {}) costs {} a month and saves {} of table reads: {} a month more than the table alone",
            spec.nodes,
            spec.node_type.name(),
            usd(cluster),
            usd(saved.max(0.0)),
            usd(cost_with - cost_without)
        ),
        evidence: vec![
            format!("{:.1} % of cached reads hit (estimate); the table bill without DAX is {} a month", d.hit_ratio() * 100.0, usd(cost_without)),
            "a node is billed every hour whether reads hit it or not; only eventually consistent reads are served from the cache".into(),
        ],
        numbers: numbers(&[
            ("dax_monthly_usd", cluster),
            ("reads_saved_monthly_usd", saved),
            ("monthly_with_usd", cost_with),
            ("monthly_without_usd", cost_without),
            ("hit_ratio", d.hit_ratio()),
        ]),
        source: "DynamoDB developer guide, DAX (hits do not consume the table's read capacity; nodes billed per node-hour); prices in prices/us-east-1.toml".into(),
        fix: "drop DAX unless microsecond reads are a requirement, or use fewer or smaller nodes".into(),
        assumptions: Vec::new(),
        effect: Some(format!("without DAX (re-simulated): {} a month", usd(cost_without))),
    })
}
