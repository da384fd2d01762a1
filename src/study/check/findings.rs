//! The design review of `ddbsim check`: the design guides' pitfalls and smells, each turned
//! into a rule with numbers from the scenario and the check's runs, and a fix whose effect is
//! simulated where ddbsim can simulate it.
//!
//! Key loads are worked from the scenario the way a person would by hand: a pattern's rate at
//! the plan's peak, times the share of its traffic on the busiest key value (1/n uniform,
//! `share/keys` for hot keys, 1/H(n,s) for Zipf, all of it for a time-ordered key), times the
//! units of one request at the mean item size (spec §1), divided over write shards.

use super::{steady_scenario, window, Phase, Runs};
use crate::cost::{bill, BillComponent, BillOptions, Usage, HOURS_PER_MONTH};
use crate::engine::{RunOptions, RunResult};
use crate::limits::{COLLECTION_LIMIT_BYTES, GB, ITEM_OVERHEAD_BYTES, PARTITION_READ_CAP, PARTITION_WRITE_CAP};
use crate::model::request::{index_entry_bytes, mean_bytes, CompiledPattern};
use crate::model::{Dim, Reason};
use crate::report::verdict::{grouped, percent, usd};
use crate::scenario::{
    AutoscalingSpec, CapacitySpec, IndexRef, KeySpaceSpec, Op, Popularity, Projection, ScalingTargetSpec, Scenario, Shards, StreamsSpec,
};
use crate::time::SimDuration;
use crate::traffic::rate::rate_at;
use crate::units::MILLI;
use serde::Serialize;
use std::collections::BTreeMap;

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
}

/// GSI partition keys with fewer values than this are low-cardinality (the design skill's
/// "GSI partition key has < 100 unique values").
pub const LOW_CARDINALITY: u64 = 100;
/// More GSIs than this on one table is over-indexing (the design skill's "more than 5").
pub const MAX_GSIS: usize = 5;
/// A provisioned table without auto scaling whose demand peaks above this many times its mean.
pub const SPIKY_PEAK_OVER_MEAN: f64 = 4.0;
/// Attempts per request from which retries are a storm.
pub const RETRY_STORM_ATTEMPTS: f64 = 1.5;
/// A key at this share of a partition's cap is a warning.
pub const NEAR_CAP: f64 = 0.8;
/// Minutes of each run of the write-sharding search.
const SHARD_SEARCH: SimDuration = SimDuration::from_secs(15 * 60);
/// Replications of each shard count.
const SHARD_REPLICATIONS: u64 = 3;
/// Largest shard count searched.
const MAX_SHARDS: u64 = 64;

const SKILL: &str = "AWS dynamodb-design skill (seeds/004)";

/// Share of a key space's traffic on its busiest value (spec §2: one value lives on one
/// partition).
#[must_use]
pub fn top_share(ks: &KeySpaceSpec) -> f64 {
    match &ks.popularity {
        // The busiest is a hot key, or a cold one when the hot keys share less each.
        Popularity::Hot { keys, .. } => rank_share(ks, 0).max(rank_share(ks, (*keys).min(ks.cardinality.max(1)))),
        Popularity::Weights(w) => (0..w.len() as u64).map(|r| rank_share(ks, r)).fold(0.0, f64::max),
        _ => rank_share(ks, 0),
    }
}

/// Share of a key space's traffic on its value of popularity rank `rank` (0 the busiest).
fn rank_share(ks: &KeySpaceSpec, rank: u64) -> f64 {
    let n = ks.cardinality.max(1);
    match &ks.popularity {
        Popularity::Uniform => 1.0 / n as f64,
        Popularity::Hot { keys, share } => {
            let hot = (*keys).min(n).max(1);
            if hot == n {
                1.0 / n as f64
            } else if rank < hot {
                share / hot as f64
            } else {
                (1.0 - share) / (n - hot) as f64
            }
        }
        Popularity::Zipf(s) => ((rank + 1) as f64).powf(-s) / harmonic(n, *s),
        Popularity::Sequential(_) => f64::from(u8::from(rank == 0)),
        Popularity::Weights(w) => {
            let sum: f64 = w.iter().sum();
            w.get(rank as usize).copied().unwrap_or(0.0) / sum
        }
    }
}

/// H(n, s) = sum of k^-s for k = 1..n: exact to a million terms, then the integral of the tail.
fn harmonic(n: u64, s: f64) -> f64 {
    const EXACT: u64 = 1_000_000;
    let head: f64 = (1..=n.min(EXACT)).map(|k| (k as f64).powf(-s)).sum();
    if n <= EXACT {
        return head;
    }
    let (a, b) = (EXACT as f64 + 0.5, n as f64 + 0.5);
    head + if (s - 1.0).abs() < 1e-12 { (b / a).ln() } else { (b.powf(1.0 - s) - a.powf(1.0 - s)) / (1.0 - s) }
}

/// The busiest value's label, as reports name it.
fn top_label(ks: &KeySpaceSpec) -> String {
    ks.value_names.first().cloned().unwrap_or_else(|| format!("{}#1", ks.name))
}

/// The load on the busiest value of one key space on one resource and dimension, at the peak.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyLoad {
    /// 0 the table, `g + 1` GSI `g`.
    pub res: usize,
    /// The key space.
    pub key_space: usize,
    /// Read or write.
    pub dim: Dim,
    /// Units per second on one partition (one shard of the value).
    pub units_per_s: f64,
    /// Requests per second whose writes put it there (base-table writes for an index key).
    pub base_rate: f64,
    /// The busiest value's rank when writes under fixed values (`insert_at`, `move`) decide
    /// it; otherwise the most popular value is the busiest.
    pub busiest: Option<u64>,
}

impl KeyLoad {
    /// The partition cap of its dimension (spec §2).
    #[must_use]
    pub fn cap(&self) -> f64 {
        match self.dim {
            Dim::Read => PARTITION_READ_CAP as f64,
            Dim::Write => PARTITION_WRITE_CAP as f64,
        }
    }
}

/// The busiest value's load per resource, key space and dimension, at the plan's peaks.
#[must_use]
pub fn key_loads(sc: &Scenario, peaks: &[Option<f64>]) -> Vec<KeyLoad> {
    /// Units drawn over the key space by its popularity, units written under fixed values
    /// (by rank), and the requests behind them.
    #[derive(Default)]
    struct Acc {
        drawn: f64,
        fixed: BTreeMap<u64, f64>,
        rate: f64,
    }
    let mut acc: BTreeMap<(usize, usize, Dim), Acc> = BTreeMap::new();
    for (p, peak) in sc.patterns.iter().zip(peaks) {
        let (Some(rate), Some(ks)) = (*peak, p.key_space) else { continue };
        let cp = CompiledPattern::new(sc, p);
        // A batch touches `items` values; a query or get one (its fan-out sends one attempt to
        // every shard, each with its share of the items).
        let touches = if matches!(p.op, Op::BatchGet | Op::BatchWrite) { p.items as f64 } else { 1.0 };
        let shards = cp.shards.map_or(1.0, |s| if cp.fanout > 1 { 1.0 } else { s.count as f64 });
        let e = acc.entry((cp.res, ks, cp.dim)).or_default();
        e.drawn += rate * touches * cp.mean_milli() as f64 / MILLI as f64 / shards;
        e.rate += rate;
        // Its writes on each GSI: on values drawn by the index key's popularity, or on fixed
        // values (an entry that moves writes its old and its new value once each; a new entry
        // under one value writes that one).
        for w in &cp.gsi {
            let ishards = sc.key_spaces[w.key_space].shards.map_or(1.0, |s| s.count as f64);
            let per = CompiledPattern::index_write_units(w, mean_bytes(p.size)) as f64 / MILLI as f64;
            let units = rate * p.items as f64 * w.coverage * per / ishards;
            let e = acc.entry((w.res, w.key_space, Dim::Write)).or_default();
            e.rate += rate;
            if w.fixed.is_some() {
                for rank in w.fixed_ranks() {
                    *e.fixed.entry(rank).or_default() += units / w.writes.max(1) as f64;
                }
            } else {
                e.drawn += units;
            }
        }
    }
    acc.into_iter()
        .map(|((res, key_space, dim), a)| {
            let ks = &sc.key_spaces[key_space];
            // The busiest value: with fixed values, each explicit value's drawn share and fixed
            // writes; otherwise the most popular value's share.
            let (units_per_s, busiest) = if a.fixed.is_empty() {
                (a.drawn * top_share(ks), None)
            } else {
                (0..ks.value_names.len().max(1) as u64)
                    .map(|r| (a.drawn * rank_share(ks, r) + a.fixed.get(&r).copied().unwrap_or(0.0), Some(r)))
                    .fold((0.0, None), |best, x| if x.0 > best.0 { x } else { best })
            };
            KeyLoad { res, key_space, dim, units_per_s, base_rate: a.rate, busiest }
        })
        .collect()
}

/// Index writes per second a GSI takes at the peak, units (all its key values).
fn index_write_units(sc: &Scenario, peaks: &[Option<f64>], g: usize) -> f64 {
    let mut u = 0.0;
    for (p, peak) in sc.patterns.iter().zip(peaks) {
        let Some(rate) = *peak else { continue };
        let cp = CompiledPattern::new(sc, p);
        for w in cp.gsi.iter().filter(|w| w.res == g + 1) {
            u += rate * p.items as f64 * w.coverage * CompiledPattern::index_write_units(w, mean_bytes(p.size)) as f64 / MILLI as f64;
        }
    }
    u
}

fn resource_name(sc: &Scenario, res: usize) -> String {
    if res == 0 {
        sc.table.name.clone()
    } else {
        sc.gsis[res - 1].name.clone()
    }
}

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

/// Reviews the design: every rule, in a fixed order; errors first in the result.
#[must_use]
pub fn review(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let loads = key_loads(sc, &runs.peaks);
    let mut out = Vec::new();
    let low: Vec<(usize, usize)> = (0..sc.gsis.len())
        .flat_map(|g| index_key_spaces(sc, g).into_iter().map(move |ks| (g, ks)))
        .filter(|&(_, ks)| sc.key_spaces[ks].cardinality < LOW_CARDINALITY)
        .collect();
    for &(g, ks) in &low {
        out.extend(low_cardinality(runs, &loads, g, ks));
    }
    for l in &loads {
        let ks = &sc.key_spaces[l.key_space];
        let low_index_key = l.res > 0 && low.contains(&(l.res - 1, l.key_space));
        if matches!(ks.popularity, Popularity::Sequential(_)) {
            if !low_index_key {
                out.extend(sequential(runs, l));
            }
        } else if !low_index_key {
            out.extend(hot_key(runs, l));
        }
    }
    out.extend(capacity_below_peak(runs));
    out.extend(autoscaling_lag(runs));
    out.extend(gsi_back_pressure(runs));
    out.extend(too_many_gsis(runs));
    out.extend(all_projection(runs));
    out.extend(lsi_collections(runs));
    out.extend(fixed_provisioned(runs));
    out.extend(on_demand_burst(runs));
    out.extend(retry_storm(runs));
    out.extend(scans(runs));
    out.extend(stream_pollers(runs));
    out.extend(dax_pays(runs));
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

/// Throttled share of attempts of a run (all of it).
fn throttled_share(r: &RunResult) -> f64 {
    r.totals().throttled_share()
}

/// The smallest shard count of key space `ks` (1, 2, 4, ... 64) whose worst throttled share
/// over three 15-minute runs at the peak is within the limit, and that share.
fn shard_search(runs: &Runs<'_>, ks: usize) -> Option<(u64, f64)> {
    let sc = runs.sc;
    let counts: Vec<u64> = std::iter::successors(Some(1u64), |&c| (c * 2 <= MAX_SHARDS).then_some(c * 2)).collect();
    let random = sc.key_spaces[ks].shards.is_none_or(|s| s.random);
    let mut base = steady_scenario(sc, &runs.peaks);
    base.duration = SHARD_SEARCH;
    let jobs: Vec<(u64, u64)> = counts.iter().flat_map(|&c| (0..SHARD_REPLICATIONS).map(move |r| (c, r))).collect();
    let shares = super::super::par_indexed(jobs.len() as u64, |i| {
        let (count, rep) = jobs[i as usize];
        let mut s = base.clone();
        s.key_spaces[ks].shards = (count > 1).then_some(Shards { count, random });
        throttled_share(&crate::engine::simulate(
            &s,
            &RunOptions { replication: rep, record_partitions: false, give_up: None, ..runs.base.clone() },
        ))
    });
    counts.iter().enumerate().find_map(|(i, &c)| {
        let worst = shares[i * SHARD_REPLICATIONS as usize..(i + 1) * SHARD_REPLICATIONS as usize].iter().copied().fold(0.0, f64::max);
        (worst <= runs.sc.check.max_throttle).then_some((c, worst))
    })
}

fn shard_effect(runs: &Runs<'_>, ks: usize) -> (String, Option<String>, Option<u64>) {
    let name = &runs.sc.key_spaces[ks].name;
    match shard_search(runs, ks) {
        Some((1, _)) => (
            format!("keep an eye on `{name}`: at the peak it still holds without sharding (burst credit and spread carry it)"),
            Some(format!("1 shard: throttled at most {} over {SHARD_REPLICATIONS} 15-minute runs at the peak", percent(0.0))),
            Some(1),
        ),
        Some((c, worst)) => (
            format!(
                "write-shard `{name}` {c} ways (`shards = {{ count = {c}, by = \"random\" }}` under [keys.{name}]; `ddbsim shards {} --key {name}` explores further)",
                runs.sc.source_path.display()
            ),
            Some(format!(
                "with {c} shards the worst of {SHARD_REPLICATIONS} 15-minute runs at the peak throttles {} (limit {})",
                percent(worst),
                percent(runs.sc.check.max_throttle)
            )),
            Some(c),
        ),
        None => (
            format!("`{name}` needs more than {MAX_SHARDS} shards or a different key: spread the load with a higher-cardinality key"),
            Some(format!("even {MAX_SHARDS} shards throttle above {} in 15 minutes at the peak", percent(runs.sc.check.max_throttle))),
            None,
        ),
    }
}

fn steady_throttle_evidence(runs: &Runs<'_>, res: usize, dim: Dim) -> (String, f64) {
    let r = &runs.steady;
    let events: u64 = r.resources.get(res).map_or(0, |x| x.minutes.iter().map(|m| m.events(dim)).sum());
    let (a, t, _) = window(r, 0, usize::MAX);
    let share = if a == 0 { 0.0 } else { t as f64 / a as f64 };
    (format!("the steady hour throttled {} of attempts ({} {} throttle events here)", percent(share), grouped(events), dim.name()), share)
}

/// The numbers of a key-load finding: its units, the cap, their ratio, the steady phase's
/// throttled share and the shard count found.
fn load_numbers(l: &KeyLoad, steady_share: f64, shards: Option<u64>) -> BTreeMap<String, f64> {
    let mut n = numbers(&[
        ("units_per_s", l.units_per_s),
        ("cap", l.cap()),
        ("share_of_cap", l.units_per_s / l.cap()),
        ("steady_throttled_share", steady_share),
    ]);
    if let Some(c) = shards {
        n.insert("shards".into(), c as f64);
    }
    n
}

/// A key value past (or near) its partition's cap.
fn hot_key(runs: &Runs<'_>, l: &KeyLoad) -> Option<Finding> {
    let sc = runs.sc;
    let ratio = l.units_per_s / l.cap();
    // Near the cap at the peak, or past it in the burst.
    if ratio < NEAR_CAP && ratio * sc.check.burst_factor <= 1.0 {
        return None;
    }
    let ks = &sc.key_spaces[l.key_space];
    let res = resource_name(sc, l.res);
    let severity = if ratio > 1.0 { Severity::Error } else { Severity::Warn };
    let unit = if l.dim == Dim::Write { "WCU" } else { "RCU" };
    let (throttle, share) = steady_throttle_evidence(runs, l.res, l.dim);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, l.key_space)
    } else {
        (
            format!(
                "shard `{}` before the traffic grows {} (the {}x burst takes it to {} of the cap)",
                ks.name,
                percent(1.0 / ratio - 1.0),
                sc.check.burst_factor,
                percent(ratio * sc.check.burst_factor)
            ),
            None,
            None,
        )
    };
    let n = load_numbers(l, share, count);
    Some(Finding {
        id: "hot-key".into(),
        severity,
        resource: Some(res.clone()),
        title: format!(
            "key {} of `{}`{} takes {} {unit}/s on one {res} partition: {} of its {} {unit} cap",
            top_label(ks),
            ks.name,
            entities_phrase(sc, l.res, l.key_space),
            units(l.units_per_s),
            percent(ratio),
            grouped(l.cap() as u64)
        ),
        evidence: vec![
            format!("{} of `{}`'s traffic is on {} at the peak ({} requests/s)", percent(top_share(ks)), ks.name, top_label(ks), units(l.base_rate)),
            throttle,
        ],
        numbers: n,
        source: format!(
            "{SKILL}, capacity smells; a partition serves at most 3,000 RCU and 1,000 WCU whatever the table's capacity (docs/dynamodb-behaviour.md §2)"
        ),
        fix,
        effect,
    })
}

/// A date or other time-ordered partition key: all of a period's traffic on one value.
fn sequential(runs: &Runs<'_>, l: &KeyLoad) -> Option<Finding> {
    let sc = runs.sc;
    let ks = &sc.key_spaces[l.key_space];
    let Popularity::Sequential(period) = ks.popularity else { return None };
    let res = resource_name(sc, l.res);
    let ratio = l.units_per_s / l.cap();
    // Writes on a time-ordered key are the smell (all of them go to the current period);
    // reads of the current period only when they near the cap.
    if l.dim == Dim::Read && ratio < NEAR_CAP {
        return None;
    }
    let severity = if ratio > 1.0 { Severity::Error } else { Severity::Warn };
    let (throttle, share) = steady_throttle_evidence(runs, l.res, l.dim);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, l.key_space)
    } else {
        (
            format!(
                "the current {period} key holds only while its traffic stays under {} units/s; shard `{}` before then",
                grouped(l.cap() as u64),
                ks.name
            ),
            None,
            None,
        )
    };
    let n = load_numbers(l, share, count);
    Some(Finding {
        id: "sequential-partition-key".into(),
        severity,
        resource: Some(res.clone()),
        title: format!(
            "`{}` is time-ordered (one value per {period}): every {} of the period lands on one {res} partition, {} units/s of its {}",
            ks.name,
            l.dim.name(),
            units(l.units_per_s),
            grouped(l.cap() as u64)
        ),
        evidence: vec![format!("{} requests/s at the peak use the current value", units(l.base_rate)), throttle],
        numbers: n,
        source: format!("{SKILL}, partition key smells: \"partition key is timestamp or date (all writes go to current time)\"; docs/dynamodb-behaviour.md §2"),
        fix,
        effect,
    })
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

/// A GSI keyed on a value with few distinct values (a constant one at worst).
fn low_cardinality(runs: &Runs<'_>, loads: &[KeyLoad], g: usize, key_space: usize) -> Option<Finding> {
    let sc = runs.sc;
    let gsi = &sc.gsis[g];
    let ks = &sc.key_spaces[key_space];
    let who = entities_phrase(sc, g + 1, key_space);
    let l = loads.iter().find(|l| l.res == g + 1 && l.key_space == key_space && l.dim == Dim::Write);
    let (load, base) = l.map_or((0.0, 0.0), |l| (l.units_per_s, l.base_rate));
    let cap = PARTITION_WRITE_CAP as f64;
    let at_rate = if load > 0.0 { base * cap / load } else { f64::INFINITY };
    let severity = if load > cap { Severity::Error } else { Severity::Warn };
    let (throttle, share) = steady_throttle_evidence(runs, g + 1, Dim::Write);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, key_space)
    } else {
        (
            format!(
                "give {}{who} a partition key with thousands of values (e.g. userId, with `{}` in the sort key), or shard `{}`",
                gsi.name, ks.name, ks.name
            ),
            None,
            None,
        )
    };
    let mut evidence = vec![match l.and_then(|l| l.busiest) {
        // Entries written under fixed values: the busiest is where they go, not the most
        // common value among the stored entries.
        Some(rank) => format!(
            "{} takes the most index writes{who}, new entries and entries moving from or to it: {} index WCU/s on one partition at the peak ({} base writes/s)",
            ks.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", ks.name, rank + 1)),
            units(load),
            units(base)
        ),
        None => format!(
            "{} of the index entries{who} carry {}: {} index WCU/s on one partition at the peak ({} base writes/s)",
            percent(top_share(ks)),
            top_label(ks),
            units(load),
            units(base)
        ),
    }];
    evidence.push(if at_rate.is_finite() {
        format!("the 1,000 WCU partition cap is reached at {} base writes/s", units(at_rate))
    } else {
        "nothing writes the index in this scenario".into()
    });
    evidence.push(throttle);
    let mut n = numbers(&[
        ("cardinality", ks.cardinality as f64),
        ("top_share", top_share(ks)),
        ("index_units_per_s", load),
        ("cap", cap),
        ("cap_at_base_writes_per_s", if at_rate.is_finite() { at_rate } else { -1.0 }),
        ("steady_throttled_share", share),
    ]);
    if let Some(c) = count {
        n.insert("shards".into(), c as f64);
    }
    Some(Finding {
        id: "low-cardinality-index-key".into(),
        severity,
        resource: Some(gsi.name.clone()),
        title: if ks.cardinality == 1 {
            format!("{} is keyed on `{}`{who}, a constant: every entry is on one partition, {} index WCU/s of its 1,000", gsi.name, ks.name, units(load))
        } else {
            format!(
                "{} is keyed on `{}`{who}, {} values: the busiest takes {} index WCU/s of one partition's 1,000",
                gsi.name,
                ks.name,
                ks.cardinality,
                units(load)
            )
        },
        evidence,
        numbers: n,
        source: format!("{SKILL}, CRITICAL PITFALL #2 \"Low Cardinality GSI Partition Key\" and index smells (< {LOW_CARDINALITY} unique values); docs/dynamodb-behaviour.md §2, §7"),
        fix,
        effect,
    })
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

/// The capacity settings of resource `res` (0 the table, `g + 1` GSI `g`).
fn capacity_of(sc: &Scenario, res: usize) -> (CapacitySpec, Option<&AutoscalingSpec>) {
    if res == 0 {
        (sc.table.capacity, sc.table.autoscaling.as_ref())
    } else {
        (sc.gsis[res - 1].capacity, sc.gsis[res - 1].autoscaling.as_ref())
    }
}

/// Sets resource `res`'s provisioned units of dimension `d` in `s`.
fn set_units(s: &mut Scenario, res: usize, d: usize, units: u64) {
    let cap = if res == 0 { &mut s.table.capacity } else { &mut s.gsis[res - 1].capacity };
    if let CapacitySpec::Provisioned { read, write } = cap {
        if d == 0 {
            *read = units;
        } else {
            *write = units;
        }
    }
}

/// A provisioned table or GSI without auto scaling whose fixed capacity is below the peak (an
/// error: burst credit carries it for minutes at most) or below the burst (a warning). The fix
/// is simulated with every such capacity raised at once (the phase's demand and 10 % for the
/// seconds above its mean), so one dimension's fix is not hidden by another's shortfall.
fn capacity_below_peak(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let demand = offered_per_s(&runs.steady, 0);
    let factor = sc.check.burst_factor;
    // (resource, dimension, capacity, peak) of every fixed capacity below the burst.
    let mut short = Vec::new();
    // The table and its GSIs (a replica's capacity is the table's).
    for (res, want) in demand.iter().enumerate().take(1 + sc.gsis.len()) {
        let (CapacitySpec::Provisioned { read, write }, None) = capacity_of(sc, res) else { continue };
        for d in [Dim::Read, Dim::Write] {
            let (cap, peak) = ([read, write][d as usize] as f64, want[d as usize]);
            if peak > 0.0 && peak * factor > cap {
                short.push((res, d, cap, peak));
            }
        }
    }
    let fix_of = |peak: f64, below: bool| ((if below { peak } else { peak * factor }) * 1.1).ceil() as u64;
    let below: Vec<_> = short.iter().copied().filter(|x| x.3 > x.2).collect();
    let steady = (!below.is_empty()).then(|| {
        let mut s = steady_scenario(sc, &runs.peaks);
        for &(res, d, _, peak) in &below {
            set_units(&mut s, res, d as usize, fix_of(peak, true));
        }
        (throttled_share(&runs.steady), throttled_share(&runs.simulate(&s, false)))
    });
    let burst = runs.burst.as_ref().map(|b| {
        let from = (sc.check.warmup.as_secs() / 60) as usize;
        let mut s = super::burst_scenario(sc, &runs.peaks);
        for &(res, d, _, peak) in &short {
            set_units(&mut s, res, d as usize, fix_of(peak, false));
        }
        let r = runs.simulate(&s, false);
        let share = |x: &RunResult| {
            let (a, t, _) = window(x, from, usize::MAX);
            if a == 0 {
                0.0
            } else {
                t as f64 / a as f64
            }
        };
        (share(b), share(&r))
    });
    let mut out = Vec::new();
    // A GSI's write capacity is `gsi-back-pressure`'s.
    for &(res, d, cap, peak) in short.iter().filter(|x| !(x.0 > 0 && x.1 == Dim::Write)) {
        let is_below = peak > cap;
        let Some((phase_share, after)) = (if is_below { steady } else { burst }) else { continue };
        let fixed = fix_of(peak, is_below);
        let name = resource_name(sc, res);
        let unit = if d == Dim::Read { "RCU" } else { "WCU" };
        let phase = if is_below { "steady phase" } else { "burst" };
        let others = if is_below { below.len() } else { short.len() };
        let credit = if is_below {
            format!(
                "; burst credit (300 s of {} {unit}) carries the difference for {:.0} s at most",
                grouped(cap as u64),
                300.0 * cap / (peak - cap)
            )
        } else {
            String::new()
        };
        out.push(Finding {
            id: "capacity-below-peak".into(),
            severity: if is_below { Severity::Error } else { Severity::Warn },
            resource: Some(name.clone()),
            title: if is_below {
                format!("{name} is provisioned at {} {unit} without auto scaling, below the peak's {} {unit}/s", grouped(cap as u64), units(peak))
            } else {
                format!(
                    "{name}'s {} {unit} (no auto scaling) hold the peak's {} {unit}/s but not the {factor}x burst's {}",
                    grouped(cap as u64),
                    units(peak),
                    units(peak * factor)
                )
            },
            evidence: vec![format!("the {phase} throttled {} of attempts{credit}", percent(phase_share))],
            numbers: numbers(&[
                ("capacity", cap),
                ("peak_units_per_s", peak),
                ("burst_units_per_s", peak * factor),
                ("phase_throttled_share", phase_share),
                ("fixed_capacity", fixed as f64),
                ("fixed_throttled_share", after),
            ]),
            source: "docs/dynamodb-behaviour.md §3 (burst credit: 300 s of unused capacity), §6.1; the design skill's capacity smell \"relying on burst capacity for normal traffic\"".into(),
            fix: format!(
                "provision {name} at {} {unit} (the {phase}'s demand and 10 %), auto scale it, or go on-demand; `ddbsim recommend` prices each",
                grouped(fixed)
            ),
            effect: Some(format!(
                "at {} {unit}{} the {phase} throttles {}",
                grouped(fixed),
                if others > 1 { format!(" (and the {} other short capacities raised alike)", others - 1) } else { String::new() },
                percent(after)
            )),
        });
    }
    out
}

/// An auto-scaled table or GSI that throttles while target tracking catches up with a step:
/// scale-out waits for two one-minute datapoints above the target, the alarm delay and the
/// UpdateTable (spec §6.2).
fn autoscaling_lag(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = Vec::new();
    let limit = sc.check.max_throttle;
    let from = (sc.check.warmup.as_secs() / 60) as usize;
    let phases = [(Phase::Steady, Some(&runs.steady), 0usize), (Phase::Burst, runs.burst.as_ref(), from)];
    for res in 0..=sc.gsis.len() {
        let (CapacitySpec::Provisioned { .. }, Some(auto)) = capacity_of(sc, res) else { continue };
        for d in [Dim::Read, Dim::Write] {
            let Some(t) = (if d == Dim::Read { auto.read } else { auto.write }) else { continue };
            for (ph, r, start) in phases {
                let Some(r) = r else { continue };
                let (a, th, _) = window(r, start, usize::MAX);
                let share = if a == 0 { 0.0 } else { th as f64 / a as f64 };
                let events: u64 = r.resources[res].minutes[start.min(r.resources[res].minutes.len())..]
                    .iter()
                    .map(|m| m.throttle_events[Reason::Provisioned as usize][d as usize])
                    .sum();
                if share <= limit || events == 0 {
                    continue;
                }
                let peak = offered_per_s(r, start)[res][d as usize];
                let need = (peak / t.target).ceil() as u64;
                let name = resource_name(sc, res);
                let unit = if d == Dim::Read { "RCU" } else { "WCU" };
                let mut s = if ph == Phase::Steady { steady_scenario(sc, &runs.peaks) } else { super::burst_scenario(sc, &runs.peaks) };
                let over_max = need > t.max;
                {
                    let a = if res == 0 { s.table.autoscaling.as_mut() } else { s.gsis[res - 1].autoscaling.as_mut() };
                    if let Some(tt) = a.and_then(|a| if d == Dim::Read { a.read.as_mut() } else { a.write.as_mut() }) {
                        tt.max = tt.max.max(need);
                        tt.min = need;
                    }
                }
                set_units(&mut s, res, d as usize, need);
                let rerun = runs.simulate(&s, false);
                let (a2, t2, _) = window(&rerun, start, usize::MAX);
                let after = if a2 == 0 { 0.0 } else { t2 as f64 / a2 as f64 };
                out.push(Finding {
                    id: "autoscaling-lag".into(),
                    severity: Severity::Error,
                    resource: Some(name.clone()),
                    title: if over_max {
                        format!("{name}'s auto-scaling maximum of {} {unit} is below the {} phase's {} {unit}/s at {:.0} %", grouped(t.max), ph.name(), units(peak), t.target * 100.0)
                    } else {
                        format!("{name}'s auto scaling (min {}, target {:.0} %) lags the {} phase's step to {} {unit}/s", grouped(t.min), t.target * 100.0, ph.name(), units(peak))
                    },
                    evidence: vec![format!(
                        "{} of the phase's attempts throttled ({} provisioned-capacity events): scale-out waits for two minutes above the target, the {} s alarm delay and the UpdateTable",
                        percent(share),
                        grouped(events),
                        auto.alarm_delay.as_secs()
                    )],
                    numbers: numbers(&[
                        ("min", t.min as f64),
                        ("max", t.max as f64),
                        ("target", t.target),
                        ("peak_units_per_s", peak),
                        ("phase_throttled_share", share),
                        ("needed_min", need as f64),
                        ("raised_throttled_share", after),
                    ]),
                    source: "docs/dynamodb-behaviour.md §6.2 (target tracking: 2 datapoints, alarm delay, UpdateTable latency)".into(),
                    fix: format!(
                        "raise {name}'s {} minimum to {} {unit} (the peak at the target){} before the traffic arrives — a scheduled action (`[[at]] set_autoscaling`) for a known launch — or go on-demand",
                        d.name(),
                        grouped(need),
                        if over_max { " and its maximum with it" } else { "" }
                    ),
                    effect: Some(format!("with a minimum of {} {unit} the {} phase throttles {}", grouped(need), ph.name(), percent(after))),
                });
                break;
            }
        }
    }
    out
}

/// A provisioned GSI with less write capacity than its base-table writes need: back-pressure
/// throttles the table's writes (spec §7).
fn gsi_back_pressure(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = Vec::new();
    for (g, gsi) in sc.gsis.iter().enumerate() {
        let CapacitySpec::Provisioned { read, write } = gsi.capacity else { continue };
        let ceiling = gsi.autoscaling.as_ref().and_then(|a| a.write).map_or(write, |t| t.max.max(write));
        let need = index_write_units(sc, &runs.peaks, g);
        let events: u64 =
            runs.steady.resources[g + 1].minutes.iter().map(|m| m.throttle_events[Reason::Provisioned as usize][Dim::Write as usize]).sum();
        if need <= ceiling as f64 && events == 0 {
            continue;
        }
        // The capacity that holds: the peak's index units, then 25 % more each try.
        let before = throttled_share(&runs.steady);
        let mut found = None;
        for step in 0..4 {
            let w = (need * (1.0 + 0.25 * f64::from(step))).ceil().max(1.0) as u64;
            let mut s = steady_scenario(sc, &runs.peaks);
            s.gsis[g].capacity = CapacitySpec::Provisioned { read, write: w };
            if let Some(a) = s.gsis[g].autoscaling.as_mut() {
                if let Some(t) = a.write.as_mut() {
                    t.min = w;
                    t.max = t.max.max(w);
                }
            }
            let after = throttled_share(&runs.simulate(&s, false));
            if after <= sc.check.max_throttle {
                found = Some((w, after));
                break;
            }
        }
        let (fix, effect) = match found {
            Some((w, after)) => (
                format!("provision {} with at least {} WCU (or auto scale it with that minimum)", gsi.name, grouped(w)),
                Some(format!("with {} WCU the steady hour throttles {} instead of {}", grouped(w), percent(after), percent(before))),
            ),
            None => {
                (format!("raise {}'s write capacity to at least {} WCU and look at its key", gsi.name, grouped(need.ceil() as u64)), None)
            }
        };
        out.push(Finding {
            id: "gsi-back-pressure".into(),
            severity: Severity::Error,
            resource: Some(gsi.name.clone()),
            title: format!(
                "{} has {} WCU{} but the table's writes need {} index WCU/s at the peak: its back-pressure throttles the table",
                gsi.name,
                grouped(write),
                if ceiling > write { format!(" (auto scaling to {})", grouped(ceiling)) } else { String::new() },
                units(need)
            ),
            evidence: vec![format!(
                "the steady hour: {} IndexWriteProvisionedThroughputExceeded events, {} of all attempts throttled",
                grouped(events),
                percent(before)
            )],
            numbers: numbers(&[
                ("write_capacity", write as f64),
                ("needed_units_per_s", need),
                ("throttle_events", events as f64),
                ("steady_throttled_share", before),
                ("fixed_write_capacity", found.map_or(-1.0, |f| f.0 as f64)),
            ]),
            source: format!("{SKILL}, CRITICAL PITFALL #1 \"GSI Throttling Cascade\", capacity smell \"GSI capacity < base table write capacity\"; docs/dynamodb-behaviour.md §7"),
            fix,
            effect,
        });
    }
    out
}

/// More than five GSIs.
fn too_many_gsis(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.gsis.len() <= MAX_GSIS {
        return None;
    }
    let r = &runs.steady;
    let sum = |res: usize| r.resources.get(res).map_or(0, |x| x.minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>());
    let table = sum(0);
    let index: u64 = (1..=sc.gsis.len()).map(sum).sum();
    let ratio = if table == 0 { 0.0 } else { index as f64 / table as f64 };
    let unqueried: Vec<&str> = sc
        .gsis
        .iter()
        .enumerate()
        .filter(|(g, _)| !sc.patterns.iter().any(|p| p.index == Some(IndexRef::Gsi(*g))))
        .map(|(_, g)| g.name.as_str())
        .collect();
    let mut evidence = vec![format!("the steady hour consumed {ratio:.2} index WCU for every table WCU")];
    if !unqueried.is_empty() {
        evidence.push(format!("no pattern queries {}", unqueried.join(", ")));
    }
    Some(Finding {
        id: "too-many-gsis".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!("{} GSIs on {} (more than {MAX_GSIS}): every write is written {} times", sc.gsis.len(), sc.table.name, sc.gsis.len() + 1),
        evidence,
        numbers: numbers(&[("gsis", sc.gsis.len() as f64), ("index_wcu_per_table_wcu", ratio), ("unqueried", unqueried.len() as f64)]),
        source: format!("{SKILL}, CRITICAL PITFALL #5 \"Over-Indexing\" and index smell \"more than 5 GSIs on single table\"; docs/dynamodb-behaviour.md §1.3"),
        fix: "overload one GSI with several entity types' keys (generic GSI1PK/GSI1SK attributes) and drop indexes no access pattern queries".into(),
        effect: None,
    })
}

/// `ALL` projections on a write-heavy table, priced against `KEYS_ONLY` over the scenario.
fn all_projection(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let written: Vec<usize> = (0..sc.gsis.len())
        .filter(|&g| sc.gsis[g].projection == Projection::All && sc.patterns.iter().any(|p| p.index_writes.iter().any(|w| w.0 == g)))
        .collect();
    if written.is_empty() {
        return None;
    }
    let total: f64 = runs.peaks.iter().flatten().sum();
    let writes: f64 = sc.patterns.iter().zip(&runs.peaks).filter(|(p, _)| p.op.is_write()).filter_map(|(_, x)| *x).sum();
    let write_share = if total > 0.0 { writes / total } else { 0.0 };
    if write_share < 0.5 {
        return None;
    }
    let base = runs.simulate(sc, false);
    let mut keys_only = sc.clone();
    for &g in &written {
        keys_only.gsis[g].projection = Projection::KeysOnly;
    }
    let lean = runs.simulate(&keys_only, false);
    let (before, after) = (runs.monthly(sc, &base), runs.monthly(&keys_only, &lean));
    let wcu = |r: &RunResult| {
        written.iter().map(|&g| r.resources[g + 1].minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>()).sum::<u64>() as f64
            / MILLI as f64
            / r.duration_s.max(1) as f64
    };
    let item = sc.patterns.iter().find(|p| p.op.is_write()).map_or(1_024, |p| mean_bytes(p.size));
    let names: Vec<&str> = written.iter().map(|&g| sc.gsis[g].name.as_str()).collect();
    Some(Finding {
        id: "all-projection".into(),
        severity: Severity::Warn,
        resource: Some(names.join(", ")),
        title: format!(
            "{} project ALL on a write-heavy table ({} of requests are writes): each index entry is the whole {}-byte item",
            names.join(", "),
            percent(write_share),
            grouped(item)
        ),
        evidence: vec![
            format!(
                "over the scenario's {} these indexes consume {} WCU/s; KEYS_ONLY entries ({} bytes) would consume {}",
                crate::report::verdict::elapsed(sc.duration.as_secs()),
                units(wcu(&base)),
                index_entry_bytes(Projection::KeysOnly, item) + ITEM_OVERHEAD_BYTES,
                units(wcu(&lean))
            ),
            format!("monthly bill (estimate, extrapolated): {} with ALL, {} with KEYS_ONLY", usd(before), usd(after)),
        ],
        numbers: numbers(&[
            ("write_share", write_share),
            ("index_wcu_per_s", wcu(&base)),
            ("keys_only_index_wcu_per_s", wcu(&lean)),
            ("monthly_usd", before),
            ("keys_only_monthly_usd", after),
            ("monthly_saving_usd", before - after),
        ]),
        source: format!("{SKILL}, CRITICAL PITFALL #6 \"GSI Projection Mistakes\" and index smell \"all indexes use ALL projection\"; docs/dynamodb-behaviour.md §1.3"),
        fix: "project KEYS_ONLY, or INCLUDE only the attributes the index's queries read (a query needing others then reads the table)".into(),
        effect: Some(format!("KEYS_ONLY saves {} a month (estimate) on this traffic", usd(before - after))),
    })
}

/// Mean rate of a pattern over the scenario's own duration (one sample a minute).
fn mean_rate(sc: &Scenario, j: usize) -> f64 {
    let mins = sc.duration.as_secs().div_ceil(60).max(1);
    let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
    (0..mins).map(|m| rate_at(&sc.patterns[j].rate, m * 60 + 30, sod)).sum::<f64>() / mins as f64
}

/// LSI item collections growing towards 10 GB.
fn lsi_collections(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.lsis.is_empty() {
        return None;
    }
    let pk = sc.table.partition_key;
    let ks = &sc.key_spaces[pk];
    // Bytes a day the whole key space's collections grow: the puts, each the item, its LSI
    // entries and their 100-byte overheads (spec §8), less the deletes.
    let mut growth = 0.0;
    for (j, p) in sc.patterns.iter().enumerate() {
        if !matches!(p.op, Op::PutItem | Op::DeleteItem) || p.key_space != Some(pk) || p.index.is_some() {
            continue;
        }
        let Some(g) = CompiledPattern::new(sc, p).collection_growth else { continue };
        growth += mean_rate(sc, j) * p.items as f64 * g as f64 * 86_400.0;
    }
    // The collection nearest the limit: the busiest value's, or one that starts large.
    let typical = crate::model::request::initial_collection_bytes(sc)[pk];
    let large = crate::model::request::initial_large_collections(sc);
    let candidates = std::iter::once((0, large.iter().find(|&&(k, _)| k == (pk, 0)).map_or(typical, |&(_, b)| b)))
        .chain(large.iter().filter(|&&((k, r), _)| k == pk && r > 0).map(|&((_, r), b)| (r, b)));
    let days_of = |rank: u64, start: u64| {
        let per_day = growth * rank_share(ks, rank);
        let left = COLLECTION_LIMIT_BYTES.saturating_sub(start) as f64;
        if per_day > 0.0 {
            left / per_day
        } else if left > 0.0 {
            f64::INFINITY
        } else {
            0.0
        }
    };
    let (rank, start) = candidates.min_by(|a, b| days_of(a.0, a.1).total_cmp(&days_of(b.0, b.1))).unwrap_or((0, typical));
    let per_day = growth * rank_share(ks, rank);
    let days = days_of(rank, start);
    let label = ks.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", ks.name, rank + 1));
    let refused: u64 = [Some(&runs.steady), runs.soak.as_ref()]
        .into_iter()
        .flatten()
        .flat_map(|r| r.item_collections.iter().map(|c| c.failed_writes))
        .max()
        .unwrap_or(0);
    let severity = if refused > 0 || days <= 30.0 {
        Severity::Error
    } else if days <= 365.0 {
        Severity::Warn
    } else {
        Severity::Info
    };
    let when = if days.is_finite() { format!("in {}", days_text(days)) } else { "never at this traffic".into() };
    let mut evidence = vec![format!(
        "{label} starts at {:.3} GB and grows {:.3} GB a day ({} of the puts, at the scenario's mean rate): it reaches 10 GiB (10,737,418,240 bytes) {when}",
        start as f64 / GB as f64,
        per_day / GB as f64,
        percent(rank_share(ks, rank))
    )];
    if refused > 0 {
        evidence.push(format!("the runs refused {} writes with ItemCollectionSizeLimitExceededException", grouped(refused)));
    }
    Some(Finding {
        id: "lsi-collection-limit".into(),
        severity,
        resource: Some(sc.table.name.clone()),
        title: format!("{} has an LSI: the item collection of {label} reaches the 10 GB limit {when}", sc.table.name),
        evidence,
        numbers: numbers(&[
            ("start_bytes", start as f64),
            ("growth_bytes_per_day", per_day),
            ("days_to_limit", if days.is_finite() { days } else { -1.0 }),
            ("refused_writes", refused as f64),
        ]),
        source: format!("{SKILL}, CRITICAL PITFALL #4 \"Exceeding 10GB LSI Partition Limit\"; docs/dynamodb-behaviour.md §8, §15 (GB is 2^30 bytes)"),
        fix: "use a GSI instead of the LSI (no collection limit), or bound the collection: archive old items, or put a period in the partition key (user#2026-12)".into(),
        effect: None,
    })
}

fn days_text(days: f64) -> String {
    if days < 1.0 / 24.0 {
        format!("{:.0} seconds", days * 86_400.0)
    } else if days < 1.0 {
        format!("{:.1} hours", days * 24.0)
    } else {
        format!("{days:.0} days")
    }
}

/// A provisioned table or GSI without auto scaling whose demand peaks far above its mean.
fn fixed_provisioned(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let fixed = |res: usize| {
        let (cap, auto) = if res == 0 {
            (&sc.table.capacity, &sc.table.autoscaling)
        } else {
            (&sc.gsis[res - 1].capacity, &sc.gsis[res - 1].autoscaling)
        };
        matches!(cap, CapacitySpec::Provisioned { .. }) && auto.is_none()
    };
    if !(0..=sc.gsis.len()).any(fixed) || sc.actions.iter().any(|a| matches!(a.action, crate::scenario::Action::SetCapacity { .. })) {
        return Vec::new();
    }
    // Demand per minute from a run of the scenario's own shape (first attempts' units).
    let base = runs.simulate(sc, false);
    let mut spiky = Vec::new();
    for res in (0..=sc.gsis.len()).filter(|&r| fixed(r)) {
        for d in [Dim::Read, Dim::Write] {
            let m = &base.resources[res].minutes;
            let per: Vec<f64> = m.iter().enumerate().map(|(i, x)| x.offered[d as usize] as f64 / base.minute_seconds(i) as f64).collect();
            let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
            let peak = per.iter().copied().fold(0.0, f64::max);
            if mean > 0.0 && peak / mean > SPIKY_PEAK_OVER_MEAN {
                spiky.push((res, d, peak / MILLI as f64, mean / MILLI as f64));
            }
        }
    }
    if spiky.is_empty() {
        return Vec::new();
    }
    // The same traffic with auto scaling at 70 % on every fixed dimension.
    let mut auto = sc.clone();
    let target = |min: f64, prov: u64, peak: f64| ScalingTargetSpec {
        min: (min.ceil() as u64).max(1),
        max: prov.max((peak / 0.7).ceil() as u64),
        target: 0.7,
        scale_in_cooldown: crate::scenario::defaults::COOLDOWN,
        scale_out_cooldown: crate::scenario::defaults::COOLDOWN,
    };
    let mut unused = Vec::new();
    for res in (0..=sc.gsis.len()).filter(|&r| fixed(r)) {
        let m = &base.resources[res].minutes;
        let mut t = [None, None];
        for d in [Dim::Read, Dim::Write] {
            let prov: u64 = m.iter().map(|x| x.provisioned_unit_seconds[d as usize]).sum();
            let used: u64 = m.iter().map(|x| x.consumed[d as usize]).sum::<u64>() / MILLI;
            unused.push(if prov == 0 { 0.0 } else { 1.0 - used as f64 / prov as f64 });
            let per: Vec<f64> =
                m.iter().enumerate().map(|(i, x)| x.offered[d as usize] as f64 / MILLI as f64 / base.minute_seconds(i) as f64).collect();
            let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
            let peak = per.iter().copied().fold(0.0, f64::max);
            let cap = if res == 0 { sc.table.capacity } else { sc.gsis[res - 1].capacity };
            let CapacitySpec::Provisioned { read, write } = cap else { continue };
            t[d as usize] = Some(target(mean, if d == Dim::Read { read } else { write }, peak));
        }
        let spec = AutoscalingSpec { instant: false, read: t[0], write: t[1], alarm_delay: crate::scenario::defaults::ALARM_DELAY };
        if res == 0 {
            auto.table.autoscaling = Some(spec);
        } else {
            auto.gsis[res - 1].autoscaling = Some(spec);
        }
    }
    let scaled = runs.simulate(&auto, false);
    let od = crate::study::compare::on_demand(sc);
    let on_demand = runs.simulate(&od, false);
    let (before, after, od_usd) = (runs.monthly(sc, &base), runs.monthly(&auto, &scaled), runs.monthly(&od, &on_demand));
    let (as_share, od_share) = (throttled_share(&scaled), throttled_share(&on_demand));
    let unused_share = unused.iter().copied().fold(0.0, f64::max);
    let (res, d, peak, mean) = spiky[0];
    let name = resource_name(sc, res);
    let limit = sc.check.max_throttle;
    let fix = match (as_share <= limit, od_share <= limit) {
        (true, true) if after <= od_usd => "auto scale it (target 70 %, minimum the mean, maximum at least the peak over 0.7)",
        (true, false) => "auto scale it (target 70 %, minimum the mean, maximum at least the peak over 0.7)",
        (_, true) => "switch it to on-demand: auto scaling cannot follow demand this spiky",
        (false, false) => {
            "schedule capacity ahead of the peaks (`[[at]] set_autoscaling` floors) or pre-warm on-demand: neither plain mode holds"
        }
    };
    vec![Finding {
        id: "fixed-provisioned-spiky".into(),
        severity: Severity::Warn,
        resource: Some(name.clone()),
        title: format!(
            "{name} is provisioned without auto scaling and its {} demand peaks at {:.1} times its mean ({} vs {} units/s)",
            d.name(),
            peak / mean,
            units(peak),
            units(mean)
        ),
        evidence: vec![
            format!(
                "over the scenario's {}, {} of the provisioned unit-hours went unused",
                crate::report::verdict::elapsed(sc.duration.as_secs()),
                percent(unused_share)
            ),
            format!("monthly bill (estimate, extrapolated): {} fixed", usd(before)),
        ],
        numbers: numbers(&[
            ("peak_units_per_s", peak),
            ("mean_units_per_s", mean),
            ("peak_over_mean", peak / mean),
            ("unused_share", unused_share),
            ("monthly_usd", before),
            ("autoscaled_monthly_usd", after),
            ("autoscaled_throttled_share", as_share),
            ("on_demand_monthly_usd", od_usd),
            ("on_demand_throttled_share", od_share),
        ]),
        source: format!("{SKILL}, capacity smells (\"relying on burst capacity\", no right-sizing); docs/dynamodb-behaviour.md §5, §6.2"),
        fix: format!("{fix}; `ddbsim recommend` searches every mode"),
        effect: Some(format!(
            "fixed {}; auto scaled at 70 %: {}, {} of attempts throttled; on-demand: {}, {} throttled (monthly, estimates)",
            usd(before),
            usd(after),
            percent(as_share),
            usd(od_usd),
            percent(od_share)
        )),
    }]
}

/// An on-demand table or GSI that throttles at the steady peak or in the burst: the warm
/// throughput it needs.
fn on_demand_burst(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = on_demand_phase(runs, Phase::Steady, &runs.steady, 0);
    if let Some(b) = &runs.burst {
        out.extend(on_demand_phase(runs, Phase::Burst, b, (sc.check.warmup.as_secs() / 60) as usize));
    }
    out
}

/// The on-demand finding of one phase's run `run`, judged from minute `from`.
fn on_demand_phase(runs: &Runs<'_>, phase: Phase, run: &RunResult, from: usize) -> Vec<Finding> {
    let sc = runs.sc;
    let (a, t, _) = window(run, from, usize::MAX);
    let share = if a == 0 { 0.0 } else { t as f64 / a as f64 };
    if share <= sc.check.max_throttle {
        return Vec::new();
    }
    let (id, what) = if phase == Phase::Burst {
        ("on-demand-burst", format!("the {}x burst", sc.check.burst_factor))
    } else {
        ("on-demand-steady", "the steady peak from the first second".to_string())
    };
    let mut out = Vec::new();
    for (res, r) in run.resources.iter().enumerate().take(1 + sc.gsis.len()) {
        let cap = if res == 0 { sc.table.capacity } else { sc.gsis[res - 1].capacity };
        let CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota } = cap else { continue };
        let events: u64 = r.minutes[from.min(r.minutes.len())..].iter().map(|m| m.events(Dim::Read) + m.events(Dim::Write)).sum();
        if events == 0 {
            continue;
        }
        // The phase's peak units per second, per dimension, with 10 % headroom for the
        // seconds above the minute's mean, rounded up to a thousand.
        let peak = |d: Dim| {
            r.minutes[from.min(r.minutes.len())..]
                .iter()
                .enumerate()
                .map(|(i, m)| m.offered[d as usize] as f64 / MILLI as f64 / run.minute_seconds(from + i) as f64)
                .fold(0.0, f64::max)
        };
        let want = |d: Dim, warm: u64| ((peak(d) * 1.1 / 1_000.0).ceil() as u64 * 1_000).max(warm);
        let (wr, ww) = (want(Dim::Read, warm_read), want(Dim::Write, warm_write));
        let mut s = if phase == Phase::Burst { super::burst_scenario(sc, &runs.peaks) } else { steady_scenario(sc, &runs.peaks) };
        // Warm from the start: a pre-warm finished before the traffic arrives.
        s.actions.retain(|x| !matches!(x.action, crate::scenario::Action::Prewarm { index, .. } if index.map_or(0, |g| g + 1) == res));
        let warmed = CapacitySpec::OnDemand { warm_read: wr, warm_write: ww, max_read, max_write, table_quota };
        if res == 0 {
            s.table.capacity = warmed;
        } else {
            s.gsis[res - 1].capacity = warmed;
        }
        let rerun = runs.simulate(&s, false);
        let (a2, t2, _) = window(&rerun, from, usize::MAX);
        let after = if a2 == 0 { 0.0 } else { t2 as f64 / a2 as f64 };
        let name = resource_name(sc, res);
        out.push(Finding {
            id: id.into(),
            severity: Severity::Error,
            resource: Some(name.clone()),
            title: format!(
                "on-demand {name} throttles at {what}: {} of the phase's attempts, warm throughput {} RRU/s / {} WRU/s",
                percent(share),
                grouped(warm_read),
                grouped(warm_write)
            ),
            evidence: vec![format!(
                "the phase asks for up to {} RRU/s and {} WRU/s; on-demand serves up to twice the previous peak at once and doubles at most every 30 minutes; a pre-warm takes effect after `prewarm_delay`",
                units(peak(Dim::Read)),
                units(peak(Dim::Write))
            )],
            numbers: numbers(&[
                ("phase_throttled_share", share),
                ("warm_read", warm_read as f64),
                ("warm_write", warm_write as f64),
                ("prewarm_read", wr as f64),
                ("prewarm_write", ww as f64),
                ("prewarmed_throttled_share", after),
            ]),
            source: "docs/dynamodb-behaviour.md §5, §5.1 (on-demand doubling, warm throughput); the design skill's steady and burst tests (100 % and 200 % of peak)".into(),
            fix: format!(
                "pre-warm {name} to {} RRU/s and {} WRU/s, finished before the traffic arrives (UpdateTable --warm-throughput, or `[[at]] prewarm` at least `prewarm_delay` ahead)",
                grouped(wr),
                grouped(ww)
            ),
            effect: Some(format!("warm from the start, the phase throttles {} of its attempts", percent(after))),
        });
    }
    out
}

/// Retries that multiply the load: attempts per request in a phase.
fn retry_storm(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.client.attempts <= 1 {
        return None;
    }
    let phases = [(Phase::Steady, Some(&runs.steady)), (Phase::Burst, runs.burst.as_ref()), (Phase::Soak, runs.soak.as_ref())];
    let mut worst: Option<(Phase, f64, &RunResult)> = None;
    for (ph, r) in phases {
        let Some(r) = r else { continue };
        let pages: u64 = r.patterns.iter().map(|p| p.pages_sent).sum();
        let attempts: u64 = r.patterns.iter().map(|p| p.attempts).sum();
        let per = if pages == 0 { 1.0 } else { attempts as f64 / pages as f64 };
        if worst.is_none_or(|w| per > w.1) {
            worst = Some((ph, per, r));
        }
    }
    let (ph, per, r) = worst?;
    if per < RETRY_STORM_ATTEMPTS {
        return None;
    }
    // The throttling the retries answer: the reason with the most events.
    let mut cause: Option<(u64, String)> = None;
    for res in &r.resources {
        for reason in Reason::ALL {
            for d in [Dim::Read, Dim::Write] {
                let e: u64 = res.minutes.iter().map(|m| m.throttle_events[reason as usize][d as usize]).sum();
                if e > 0 && cause.as_ref().is_none_or(|c| e > c.0) {
                    cause = Some((e, format!("{} on {}", reason.api_reason(res.kind == crate::ResourceKind::Gsi, d), res.name)));
                }
            }
        }
    }
    let cause = cause.map_or_else(String::new, |c| format!("here mostly {}; ", c.1));
    let exhausted: u64 = r.patterns.iter().map(|p| p.failed_exhausted).sum();
    let quota: u64 = r.patterns.iter().map(|p| p.failed_quota).sum();
    Some(Finding {
        id: "retry-storm".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!("retries multiply the load: {per:.2} attempts per request in the {} phase (client `{}`, up to {} attempts)", ph.name(), sc.client.preset, sc.client.attempts),
        evidence: vec![format!(
            "{} of attempts throttled; {} requests failed after their last attempt, {} when the retry quota ran out",
            percent(r.totals().throttled_share()),
            grouped(exhausted),
            grouped(quota)
        )],
        numbers: numbers(&[("attempts_per_request", per), ("failed_exhausted", exhausted as f64), ("failed_quota", quota as f64)]),
        source: "docs/dynamodb-behaviour.md §9.3 (client retries, the retry quota); the design skill's query pattern smells (exponential backoff)".into(),
        fix: format!(
            "remove the throttling's cause ({cause}see the other findings, or `ddbsim recommend` for capacity); keep the SDK's standard retry mode with its retry quota, or adaptive mode, so retries stop adding load"
        ),
        effect: None,
    })
}

/// Scans on a hot path.
fn scans(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let total: f64 = runs.peaks.iter().flatten().sum();
    let mut out = Vec::new();
    for (p, peak) in sc.patterns.iter().zip(&runs.peaks) {
        let Some(rate) = *peak else { continue };
        if p.op != Op::Scan || rate <= 0.0 {
            continue;
        }
        let share = if total > 0.0 { rate / total } else { 0.0 };
        let severity = if share > 0.01 || rate > 10.0 { Severity::Error } else { Severity::Warn };
        let cp = CompiledPattern::new(sc, p);
        let per = cp.mean_milli() as f64 / MILLI as f64;
        out.push(Finding {
            id: "scan-on-hot-path".into(),
            severity,
            resource: Some(sc.table.name.clone()),
            title: format!("pattern `{}` scans {} times a second at the peak ({} of requests)", p.name, units(rate), percent(share)),
            evidence: vec![format!("each scan page reads about {} RCU; together {} RCU/s", units(per), units(per * rate))],
            numbers: numbers(&[("scans_per_s", rate), ("share_of_requests", share), ("rcu_per_s", per * rate)]),
            source: format!("{SKILL}, query pattern smells: \"Scan operations in production code (frequency > 1% of operations)\", \"frequency > 10/sec using Scan\""),
            fix: "add a GSI keyed for this access pattern and query it".into(),
            effect: None,
        });
    }
    out
}

/// Stream pollers whose GetRecords calls cost more than the writes whose records they read:
/// the steady hour's streams bill against the table's write bill, both at a month's rate.
fn stream_pollers(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let spec = sc.table.streams.as_ref().filter(|s| !s.pollers_ms.is_empty())?;
    let r = &runs.steady;
    // The steady hour's bill of `table`'s stream or writes, at a month's rate.
    let month = |s: &Scenario, c: BillComponent| -> (f64, Usage) {
        let table = &s.table;
        let usage = Usage::of(r, s);
        let b = bill(&usage, runs.catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
        let window: f64 = b.lines.iter().filter(|l| l.component == c && l.resource == table.name).map(|l| l.cost_usd).sum();
        (window * HOURS_PER_MONTH / b.window_hours.max(1e-9), usage)
    };
    let (streams, usage) = month(sc, BillComponent::Streams);
    let (writes, _) = month(sc, BillComponent::Writes);
    if streams <= writes || streams <= 0.0 {
        return None;
    }
    let calls = usage.streams.as_ref().map_or(0.0, |s| s.read_units);
    let t = &r.resources[0];
    let records = t.minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>() as f64 / MILLI as f64;
    let shards = t.minutes.last().map_or(1, |m| m.partitions);
    let mut slower = sc.clone();
    slower.table.streams = Some(StreamsSpec { pollers_ms: spec.pollers_ms.iter().map(|ms| ms * 10).collect(), ..spec.clone() });
    let (slower_month, _) = month(&slower, BillComponent::Streams);
    let intervals: Vec<String> = spec.pollers_ms.iter().map(|ms| format!("{ms} ms")).collect();
    Some(Finding {
        id: "stream-pollers-cost-more-than-writes".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!(
            "the stream's pollers cost {} a month, more than the {} of the writes they read",
            usd(streams),
            usd(writes)
        ),
        evidence: vec![
            format!(
                "{} poller(s) every {} over {shards} shard(s): {} GetRecords calls in the steady hour for at most {} records ({:.2} a call)",
                spec.pollers_ms.len(),
                intervals.join(", "),
                grouped(calls.round() as u64),
                grouped(records.round() as u64),
                records / calls.max(1.0)
            ),
            "a poller calls every shard every interval, empty or not, and each call is a billed streams read".into(),
        ],
        numbers: numbers(&[
            ("streams_monthly_usd", streams),
            ("writes_monthly_usd", writes),
            ("calls", calls),
            ("records", records),
            ("shards", shards as f64),
        ]),
        source: "DynamoDB developer guide, streams cost optimisation (every GetRecords call is a read request unit; Lambda and global tables reads are free); docs/dynamodb-behaviour.md §10.2".into(),
        fix: "read the stream with a Lambda trigger (free), or poll each shard less often".into(),
        effect: Some(format!(
            "with a Lambda trigger instead: $0.00 a month of stream reads; polling 10 times less often: {} a month",
            usd(slower_month)
        )),
    })
}

/// A DAX cluster that costs more than the table reads it saves: the scenario billed with its
/// cluster and re-simulated and billed without it, both at a month's rate.
fn dax_pays(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let spec = sc.dax.as_ref()?;
    let with = runs.simulate(sc, false);
    let mut bare = sc.clone();
    bare.dax = None;
    let without = runs.simulate(&bare, false);
    let (cost_with, cost_without) = (runs.monthly(sc, &with), runs.monthly(&bare, &without));
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
        effect: Some(format!("without DAX (re-simulated): {} a month", usd(cost_without))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(cardinality: u64, popularity: Popularity) -> KeySpaceSpec {
        KeySpaceSpec { name: "k".into(), cardinality, popularity, value_names: Vec::new(), shards: None, sort_keys: None }
    }

    /// The busiest value's share, by hand: 1/n uniform; share/keys for hot keys; 1/H(10, 1) =
    /// 1/2.928968 for Zipf over ten values; all of it for a time-ordered key; the heaviest of
    /// explicit weights over their sum.
    #[test]
    fn top_shares_by_hand() {
        assert!((top_share(&space(4, Popularity::Uniform)) - 0.25).abs() < 1e-12);
        assert!((top_share(&space(1_000, Popularity::Hot { keys: 2, share: 0.5 })) - 0.25).abs() < 1e-12);
        assert!((top_share(&space(10, Popularity::Zipf(1.0))) - 1.0 / 2.928_968_253_968_254).abs() < 1e-12);
        assert_eq!(top_share(&space(3_650, Popularity::Sequential(SimDuration::from_secs(86_400)))), 1.0);
        assert!((top_share(&space(3, Popularity::Weights(vec![0.9, 0.08, 0.02]))) - 0.9).abs() < 1e-12);
    }

    /// Past a million terms the tail of H(n, 1) is the integral ln((n + 0.5) / (10^6 + 0.5)):
    /// H(10^7, 1) = ln(10^7) + 0.5772157 + 1/(2 x 10^7) to 10^-6.
    #[test]
    fn the_harmonic_tail_is_integrated() {
        let h = harmonic(10_000_000, 1.0);
        let want = (1e7f64).ln() + 0.577_215_664_901_532_9 + 0.5e-7;
        assert!((h - want).abs() < 1e-6, "{h} vs {want}");
    }
}
