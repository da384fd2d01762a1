//! The design review of `ddbsim check`: the design guides' pitfalls and smells, each turned
//! into a rule with numbers from the scenario and the check's runs, and a fix whose effect is
//! simulated where ddbsim can simulate it.
//!
//! Key loads are worked from the scenario the way a person would by hand: a pattern's rate at
//! the plan's peak, times the share of its traffic on the busiest key value (1/n uniform,
//! `share/keys` for hot keys, 1/H(n,s) for Zipf, all of it for a time-ordered key), times the
//! units of one request at the mean item size (spec §1), divided over write shards.
//!
//! Each rule is a file behind the [`Rule`] trait: the ids of the findings it makes, the worst
//! severity it gives, the evidence it reads and the fix it re-simulates; [`RULES`] lists them in
//! the order their findings are reported (errors first, then warnings, then the rest, each in
//! this order).

mod all_projection;
mod autoscaling_lag;
mod bulk_sorted;
mod capacity_below_peak;
mod capacity_quota;
pub use capacity_quota::account_past_quota;
mod dax_pays;
mod fixed_provisioned;
mod gsi_back_pressure;
mod hot_key;
mod item_limit;
mod key_load;
mod low_cardinality;
mod lsi_collections;
mod on_demand_burst;
mod reserved_unused;
mod retry_storm;
mod scans;
mod sequential;
pub(super) mod shards;
mod stream_pollers;
mod too_many_gsis;
mod unwritten_index;

use super::{burst_scenario, steady_scenario, window, Phase, Runs};
use crate::engine::RunResult;
use crate::format::{grouped, percent};
use crate::model::Dim;
use crate::scenario::{AutoscalingSpec, CapacitySpec, KeyFact, ResourceId, Scenario, Window};
use crate::study::sustain::OnCredit;
use crate::units::MILLI;
use serde::Serialize;
use std::collections::BTreeMap;

pub use fixed_provisioned::SPIKY_PEAK_OVER_MEAN;
pub use hot_key::NEAR_CAP;
pub use key_load::{key_loads, top_share, KeyLoad};
pub use low_cardinality::LOW_CARDINALITY;
pub use retry_storm::RETRY_STORM_ATTEMPTS;
pub use too_many_gsis::MAX_GSIS;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// A smell, or a limit within reach.
    Warn,
    /// The design fails its traffic, or will.
    Error,
}

impl Severity {
    /// `error`, `warn` or `info`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Error => "error",
        }
    }
}

/// One finding of the review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Stable identifier, e.g. `hot-key`.
    pub id: String,
    /// How serious.
    pub severity: Severity,
    /// The table or index it concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// One line.
    pub title: String,
    /// The numbers behind it, in words.
    pub evidence: Vec<String>,
    /// The same numbers by name, for machines.
    pub numbers: BTreeMap<String, f64>,
    /// The rule's source: the design guide's pitfall or smell, and the behaviour it rests on.
    pub source: String,
    /// What to do.
    pub fix: String,
    /// The fix's simulated effect, when ddbsim could simulate it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The assumptions of `ddbsim import` the finding rests on, each with how to settle it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
}

/// What a rule reads to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The scenario, worked by hand (key loads, index units, growth).
    Scenario,
    /// The steady phase's run.
    Steady,
    /// The burst phase's run.
    Burst,
    /// The soak phase's run.
    Soak,
    /// A run of the scenario's own traffic shape for its own duration.
    OwnShape,
}

impl Evidence {
    /// `scenario`, `steady`, `burst`, `soak` or `own_shape`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Evidence::Scenario => "scenario",
            Evidence::Steady => "steady",
            Evidence::Burst => "burst",
            Evidence::Soak => "soak",
            Evidence::OwnShape => "own_shape",
        }
    }
}

/// One rule of the design review: a pitfall or smell of the design guides, with numbers.
pub trait Rule: Sync {
    /// The ids of the findings it makes (`hot-key`).
    fn ids(&self) -> &'static [&'static str];
    /// The most serious severity it gives.
    fn worst(&self) -> Severity;
    /// What it reads to decide.
    fn reads(&self) -> &'static [Evidence];
    /// The fix it simulates to state the fix's effect, if it simulates one (none unless it
    /// says).
    fn resimulates(&self) -> Option<&'static str> {
        None
    }
    /// Its findings on the check's runs.
    fn review(&self, cx: &Context<'_>) -> Vec<Finding>;
    /// What of the key spaces of a finding's resource its numbers rest on: a finding says so
    /// when `ddbsim import` assumed it.
    fn rests_on(&self) -> &'static [KeyFact] {
        &[]
    }
}

/// What every rule may read: the check's runs and the key loads worked from the scenario.
pub struct Context<'a> {
    /// The check's runs.
    pub runs: &'a Runs<'a>,
    /// The busiest value's load of each resource, key space and dimension at the peak.
    pub loads: Vec<KeyLoad>,
    /// The (GSI, key space) pairs whose index key has fewer than [`LOW_CARDINALITY`] values:
    /// `low-cardinality-index-key` judges them, the key rules leave them alone.
    pub low_index_keys: Vec<(usize, usize)>,
}

impl<'a> Context<'a> {
    /// The context of `runs`.
    #[must_use]
    pub fn of(runs: &'a Runs<'a>) -> Self {
        let sc = runs.sc;
        let low_index_keys = (0..sc.gsis.len())
            .flat_map(|g| index_key_spaces(sc, g).into_iter().map(move |ks| (g, ks)))
            .filter(|&(_, ks)| sc.key_spaces[ks].cardinality < LOW_CARDINALITY)
            .collect();
        Self { runs, loads: key_loads(sc, &runs.peaks), low_index_keys }
    }

    /// `l` is the load of a low-cardinality index key.
    fn is_low_index_key(&self, l: &KeyLoad) -> bool {
        l.res > 0 && self.low_index_keys.contains(&(l.res - 1, l.key_space))
    }
}

/// Every rule, in the order its findings are reported within a severity.
pub static RULES: [&dyn Rule; 20] = [
    &low_cardinality::LowCardinality,
    &sequential::Sequential,
    &hot_key::HotKey,
    &capacity_below_peak::CapacityBelowPeak,
    &autoscaling_lag::AutoscalingLag,
    &capacity_quota::CapacityQuota,
    &gsi_back_pressure::GsiBackPressure,
    &too_many_gsis::TooManyGsis,
    &unwritten_index::UnwrittenIndex,
    &all_projection::AllProjection,
    &lsi_collections::LsiCollections,
    &fixed_provisioned::FixedProvisioned,
    &on_demand_burst::OnDemandBurst,
    &retry_storm::RetryStorm,
    &scans::Scans,
    &stream_pollers::StreamPollers,
    &dax_pays::DaxPays,
    &reserved_unused::ReservedUnused,
    &bulk_sorted::BulkSorted,
    &item_limit::ItemLimit,
];

/// Reviews the design: every rule, in [`RULES`] order; errors first in the result. A finding
/// whose numbers rest on what `ddbsim import` assumed says which assumption.
#[must_use]
pub fn review(runs: &Runs<'_>) -> Vec<Finding> {
    let cx = Context::of(runs);
    let sc = runs.sc;
    let mut out: Vec<Finding> = RULES
        .iter()
        .flat_map(|r| {
            let mut found = r.review(&cx);
            for f in &mut found {
                f.assumptions = resource_key_spaces(sc, f.resource.as_deref())
                    .into_iter()
                    .flat_map(|ks| r.rests_on().iter().filter_map(move |fact| sc.key_spaces[ks].assumed(*fact)))
                    .collect();
            }
            found
        })
        .collect();
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

/// The assumptions of `ddbsim import` the distribution phase's failures rest on: the
/// popularity and cardinality of the key spaces of each resource over the skew limit.
#[must_use]
pub fn failure_assumptions(sc: &Scenario, d: &super::PhaseResult) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in d.spread.iter().filter(|s| s.judged && s.max_over_mean - 1.0 > sc.check.max_partition_skew + 1e-12) {
        for ks in resource_key_spaces(sc, Some(&s.resource)) {
            for fact in [KeyFact::Popularity, KeyFact::Cardinality] {
                if let Some(a) = sc.key_spaces[ks].assumed(fact) {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
    }
    out
}

/// The key spaces of a resource named `name`: the table's partition key (and, with an LSI, it
/// is also the collections' key), a GSI's index keys; every key space when no resource is named.
fn resource_key_spaces(sc: &Scenario, name: Option<&str>) -> Vec<usize> {
    match name {
        None => (0..sc.key_spaces.len()).collect(),
        Some(n) if n == sc.table.name => vec![sc.table.partition_key],
        Some(n) => sc.gsis.iter().position(|g| g.name == n).map_or_else(Vec::new, |g| index_key_spaces(sc, g)),
    }
}

const SKILL: &str = "AWS dynamodb-design skill (seeds/004)";

fn numbers(v: &[(&str, f64)]) -> BTreeMap<String, f64> {
    v.iter().map(|(k, x)| ((*k).to_string(), *x)).collect()
}

fn units(x: f64) -> String {
    if x >= 100.0 {
        grouped(x.round() as u64)
    } else {
        format!("{x:.1}")
    }
}

/// A fix's simulated effect `what` ("at 3,303 WCU the burst throttles 11.8 %"), judged against
/// the check's limit: when the re-simulated phase (`rerun` from minute `from`) still throttles
/// `after` of its attempts, above the limit, the fix is *not enough*, and the effect says what
/// remains and why (the re-run's largest share of throttle events, by resource and reason).
fn judged_effect(sc: &Scenario, what: String, after: f64, rerun: &RunResult, from: usize) -> String {
    let limit = sc.check.max_throttle;
    if after <= limit {
        return match OnCredit::of_run(rerun) {
            Some(c) if sc.window == Window::Sustained => format!("{what}, but only on credit: {}", c.describe()),
            _ => what,
        };
    }
    format!("not enough: {what}, above the {} limit; {}", percent(limit), remains(rerun, from))
}

/// What throttles in `r` from minute `from`: the resource and reason of most of its events.
fn remains(r: &RunResult, from: usize) -> String {
    use crate::model::Reason;
    let mut total = 0u64;
    let mut best: Option<(u64, &str, Reason)> = None;
    for res in &r.resources {
        for reason in Reason::ALL {
            let n: u64 =
                res.minutes[from.min(res.minutes.len())..].iter().map(|m| m.throttle_events[reason as usize].iter().sum::<u64>()).sum();
            total += n;
            if n > 0 && best.is_none_or(|b| n > b.0) {
                best = Some((n, res.name.as_str(), reason));
            }
        }
    }
    let Some((n, name, reason)) = best else {
        return "the attempts left throttled are retries of earlier ones".into();
    };
    let share = percent(n as f64 / total.max(1) as f64);
    match reason {
        Reason::KeyRange => format!(
            "{share} of the throttle events left are {name}'s per-partition limits (3,000 RCU / 1,000 WCU a second a partition), which more capacity does not lift: spread the hot key (write sharding) or split the load"
        ),
        Reason::Provisioned => format!("{share} of the throttle events left are {name}'s provisioned capacity, still short (burst credit spent)"),
        Reason::MaxOnDemand => format!("{share} of the throttle events left are {name}'s on-demand maximum throughput: raise it"),
        Reason::AccountLimit => format!("{share} of the throttle events left are {name}'s table-level throughput quota: ask AWS to raise it"),
    }
}

/// Throttled share of attempts of a run (all of it).
fn throttled_share(r: &RunResult) -> f64 {
    r.totals().throttled_share()
}

fn steady_throttle_evidence(runs: &Runs<'_>, res: usize, dim: Dim) -> (String, f64) {
    let r = &runs.steady;
    let events: u64 = r.resources.get(res).map_or(0, |x| x.minutes.iter().map(|m| m.events(dim)).sum());
    let (a, t, _) = window(r, 0, usize::MAX);
    let share = if a == 0 { 0.0 } else { t as f64 / a as f64 };
    (format!("the steady hour throttled {} of attempts ({} {} throttle events here)", percent(share), grouped(events), dim.name()), share)
}

/// The key spaces GSI `g`'s partition key takes: those the entity types write into it (an
/// overloaded index has several), and its declared one when a pattern without an entity
/// writes it or no entity type does.
fn index_key_spaces(sc: &Scenario, g: usize) -> Vec<usize> {
    let mut v: Vec<usize> = sc.entities.iter().filter_map(|e| e.in_gsi(g)).map(|w| w.key_space).collect();
    let plain = sc.patterns.iter().any(|p| p.entity.is_none() && p.index_writes.iter().any(|w| w.0 == g));
    if v.is_empty() || plain {
        v.push(sc.gsis[g].partition_key);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The entity types whose items put key space `ks` on resource `res` (0 the table, `g + 1`
/// GSI `g`), as a phrase: ` (entity Order)`, ` (entities Order, Review)`, or empty.
fn entities_phrase(sc: &Scenario, res: usize, ks: usize) -> String {
    let names: Vec<&str> = sc
        .entities
        .iter()
        .filter(|e| if res == 0 { e.key_space == ks } else { e.in_gsi(res - 1).is_some_and(|w| w.key_space == ks) })
        .map(|e| e.name.as_str())
        .collect();
    match names.len() {
        0 => String::new(),
        1 => format!(" (entity {})", names[0]),
        _ => format!(" (entities {})", names.join(", ")),
    }
}

/// Demand of a run per resource, [read, write]: first attempts' units a second over the
/// minutes from `from`.
fn offered_per_s(r: &RunResult, from: usize) -> Vec<[f64; 2]> {
    r.resources
        .iter()
        .map(|res| {
            let ms = &res.minutes[from.min(res.minutes.len())..];
            let secs: u64 = (from..from + ms.len()).map(|m| r.minute_seconds(m)).sum::<u64>().max(1);
            [0, 1].map(|d| ms.iter().map(|m| m.offered[d]).sum::<u64>() as f64 / MILLI as f64 / secs as f64)
        })
        .collect()
}

/// The capacity settings of the table or GSI `id`.
fn capacity_of(sc: &Scenario, id: ResourceId) -> (CapacitySpec, Option<&AutoscalingSpec>) {
    (*sc.capacity_of(id), sc.autoscaling_of(id))
}

/// Sets the table's or GSI `id`'s provisioned units of dimension `d` in `s`.
fn set_units(s: &mut Scenario, id: ResourceId, d: usize, units: u64) {
    if let CapacitySpec::Provisioned { read, write } = s.capacity_mut(id) {
        if d == 0 {
            *read = units;
        } else {
            *write = units;
        }
    }
}
