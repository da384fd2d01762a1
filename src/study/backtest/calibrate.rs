//! `ddbsim backtest --calibrate`: what the history constrains but does not state, fitted in
//! turn — each GSI's coverage to its write units and the GSI absorption bound to the indexes'
//! write throttle events ([`super::index_fit`]), then the skew of the table's partition key
//! to the table's recorded throttle events — or, where the per-reason throttle metrics say the
//! table's capacity throttled rather than a partition's cap, or no skew explains the events,
//! the SDK fleet ([`super::client_fit`]). CloudWatch records how often the table throttled but not which keys were
//! hot; with the traffic's volume fixed by the record, the skew is what moves the throttle
//! events, so it is fitted by bisection on simulations with the same seed (common random
//! numbers), in the scenario's own family: a Zipf exponent over the key space, or a hot
//! set's share (a key space with neither tries both, and keeps the closer fit: the totals
//! cannot tell the families apart, a Contributor Insights report can). The interval is the values whose simulated
//! events stay within the events' tolerance; a history that never throttled constrains the
//! skew only from above, and says so instead of inventing a value.

use super::edit::{self, Edit};
use super::{
    cause_fit, client_fit, compare, demand_fit, index_fit, Backtest, BacktestError, Parameter, SeriesFit, QUIET_EVENTS_PER_MINUTE,
};
use crate::engine::{simulate, RunOptions};
use crate::import::{Recorded, RecordedKind};
use crate::model::{Dim, Reason};
use crate::scenario::{ResourceId, Scenario};
use serde::Serialize;

/// The calibration: `calibration` in `backtest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    /// The fitted parameters (none when the history cannot be fitted by them).
    pub parameters: Vec<Parameter>,
    /// The demand fitted per group of patterns (first attempts, through the client).
    pub demand: Vec<demand_fit::DemandLine>,
    /// The series before calibration.
    pub before: Vec<SeriesFit>,
    /// The series after.
    pub after: Vec<SeriesFit>,
    /// The popularity line written into the calibrated scenario, if any.
    pub popularity: Option<String>,
    /// What was not fitted, and why.
    pub notes: Vec<String>,
    /// The edits that write the fitted values into the scenario's text.
    #[serde(skip)]
    pub edits: Vec<Edit>,
    /// The fitted demand's trace files, written beside the calibrated scenario: (file name,
    /// CSV).
    #[serde(skip)]
    pub traces: Vec<(String, String)>,
}

/// The recorded throttle events of the table over the minutes a backtest compares, and the
/// minutes compared.
fn recorded_events(sc: &Scenario, rec: &Recorded, b: &Backtest) -> Result<f64, BacktestError> {
    let table: Vec<&SeriesFit> = b.series.iter().filter(|f| f.id == ResourceId::Table && f.kind == RecordedKind::ThrottleEvents).collect();
    if table.is_empty() || !rec.series.iter().any(|s| s.index.is_none() && s.kind == RecordedKind::ThrottleEvents) {
        return Err(BacktestError(format!(
            "--calibrate fits the key skew to the table's throttle events: the metrics have no ReadThrottleEvents or WriteThrottleEvents series of {}",
            sc.table.name
        )));
    }
    Ok(table.iter().map(|f| f.recorded).sum())
}

/// The share of the table's recorded throttle events that the per-reason metrics put on
/// `KeyRange` (a partition's cap: where a hot key throttles), when the record has them.
fn key_range_share(b: &Backtest) -> Option<f64> {
    let of = |key_range: bool| -> f64 {
        b.series
            .iter()
            .filter(|f| f.id == ResourceId::Table)
            .filter(|f| match f.kind {
                RecordedKind::ReasonEvents(r) => !key_range || r == Reason::KeyRange,
                _ => false,
            })
            .map(|f| f.recorded)
            .sum()
    };
    let all = of(false);
    (all > 0.0).then(|| of(true) / all)
}

/// Calibrates `sc` against the record: the GSIs' coverage, the absorption bound, then the
/// skew of the partition key. Returns the calibrated scenario and its backtest (when a
/// parameter is pinned down) and the calibration, with `before` from `before`.
///
/// # Errors
/// [`BacktestError`] when the record has nothing to fit: no throttle events of the table and
/// no GSI series that moves a parameter.
pub fn calibrate(
    sc: &Scenario,
    rec: &Recorded,
    opts: &RunOptions,
    before: &Backtest,
) -> Result<(Option<(Scenario, Backtest)>, Calibration), BacktestError> {
    // The demand first: retried throttle events are the client's, not first attempts.
    let mut demand = Demand::default();
    let mut cur = sc.clone();
    let mut judged = before.clone();
    if demand.refit(&mut cur, rec, opts)? {
        judged = compare(&cur, &simulate(&cur, opts), rec)?;
    }
    let mut fitted = Fitted::default();
    // An index's own key throttles its partitions: fitted before what the index covers (its
    // throttled writes are no missing items) and before any bound on what it owes.
    let mut index_causes = vec![None; cur.gsis.len()];
    index_keys(&mut cur, rec, opts, &mut judged, &mut index_causes, &mut fitted, true)?;
    cover(&mut cur, rec, opts, &mut judged, &mut fitted)?;
    if let Some(fit) = index_fit::absorb_bound(&cur, rec, opts, &judged)? {
        if let Some((s, e)) = fit.apply {
            judged = compare(&s, &simulate(&s, opts), rec)?;
            cur = s;
            fitted.edits.push(e);
        }
        fitted.parameters.push(fit.param);
    }
    let target = recorded_events(&cur, rec, &judged);
    if let Err(e) = &target {
        if fitted.parameters.is_empty() && demand.lines.is_empty() {
            return Err(BacktestError(e.0.clone()));
        }
    }
    // What throttles, then the demand through it (the retries changed), then what throttles
    // again at that demand (the cause each found first, refitted), until the record fits.
    let mut table_cause = None;
    for round in 0..ROUNDS {
        let edits_before = fitted.edits.len();
        if round > 0 {
            index_keys(&mut cur, rec, opts, &mut judged, &mut index_causes, &mut fitted, false)?;
        }
        if round > 0 {
            cover(&mut cur, rec, opts, &mut judged, &mut fitted)?;
        }
        if let Ok(t) = target {
            let mut again = Fitted::default();
            fit_throttling(&mut cur, rec, opts, &judged, t, &mut again, (sc.client.flush, &mut table_cause))?;
            fitted.merge(again);
        }
        if fitted.edits.len() == edits_before || !demand.refit(&mut cur, rec, opts)? {
            break;
        }
        judged = compare(&cur, &simulate(&cur, opts), rec)?;
        // The first round's cause was fitted at the first demand: once again at the fitted one.
        if round > 0 && judged.series.iter().all(|f| f.fits) {
            break;
        }
    }
    let Fitted { parameters, mut edits, notes, popularity } = fitted;
    edits.extend(demand.edits);
    let mut notes = notes;
    let mut identified = (parameters.iter().any(|p| p.identified) || !demand.lines.is_empty()) && !edits.is_empty();
    let mut after = if identified { compare(&cur, &simulate(&cur, opts), rec)? } else { before.clone() };
    // A calibration that does not bring the record closer writes nothing.
    if identified && misfit(&after) >= misfit(before) {
        notes.push(format!(
            "nothing written: the calibrated model is no closer to the record ({:.2} against {:.2}, the summed distance of the series from their recorded totals); still off: {}",
            misfit(&after),
            misfit(before),
            after.series.iter().filter(|f| !f.fits).map(|f| format!("{} {}", f.resource, f.metric)).collect::<Vec<_>>().join(", ")
        ));
        identified = false;
        after = before.clone();
    }
    let calibration = Calibration {
        parameters,
        demand: demand.lines,
        before: before.series.clone(),
        after: after.series.clone(),
        popularity,
        notes,
        edits,
        traces: demand.traces,
    };
    Ok((identified.then_some((cur, after)), calibration))
}

/// How far a backtest is from its record: over its consumed-units and throttle-events series,
/// each total's relative distance (at most 1; two quiet event series agree), summed.
fn misfit(b: &Backtest) -> f64 {
    b.series
        .iter()
        .filter(|f| matches!(f.kind, RecordedKind::Consumed | RecordedKind::ThrottleEvents))
        .map(|f| {
            let quiet = f.kind.is_events()
                && f.recorded / (f.minutes.max(1) as f64) < QUIET_EVENTS_PER_MINUTE
                && f.simulated / (f.minutes.max(1) as f64) < QUIET_EVENTS_PER_MINUTE;
            if quiet || (f.recorded == 0.0 && f.simulated == 0.0) {
                0.0
            } else {
                f.ratio.map_or(1.0, |q| (q - 1.0).abs().min(1.0))
            }
        })
        .sum()
}

/// The demand fitted so far: its lines (the first fit's `before` kept), edits and traces.
#[derive(Default)]
struct Demand {
    lines: Vec<demand_fit::DemandLine>,
    edits: Vec<Edit>,
    traces: Vec<(String, String)>,
}

impl Demand {
    /// Fits the demand of `cur` again and keeps it when it improves the fit; says whether it did.
    fn refit(&mut self, cur: &mut Scenario, rec: &Recorded, opts: &RunOptions) -> Result<bool, BacktestError> {
        let Some(f) = demand_fit::fit(cur, rec, opts)? else { return Ok(false) };
        let mut lines = f.lines;
        for l in &mut lines {
            if let Some(old) = self.lines.iter().find(|o| o.resource == l.resource && o.dimension == l.dimension) {
                l.before = old.before;
                l.iterations += old.iterations;
            }
        }
        self.lines = lines;
        self.edits = f.edits;
        self.traces = f.traces;
        *cur = f.scenario;
        Ok(true)
    }
}

/// Fits what explains the table's `target` recorded throttle events: the skew of its partition
/// key, unless the per-reason metrics say the table throttled at its capacity rather than at
/// a partition's cap; then, where the skew does not pin them down, the SDK fleet. Writes what
/// it fitted into `cur` and `out`, and what it did not into `out.notes`.
fn fit_throttling(
    cur: &mut Scenario,
    rec: &Recorded,
    opts: &RunOptions,
    judged: &Backtest,
    target: f64,
    out: &mut Fitted,
    (stated, chosen): (Option<crate::scenario::Flush>, &mut Option<cause_fit::Cause>),
) -> Result<(), BacktestError> {
    let ks = cur.table.partition_key;
    let key = cur.key_spaces[ks].name.clone();
    let Fitted { parameters, edits, notes, popularity } = out;
    let skew = match key_range_share(judged) {
        Some(share) if share < 0.5 => {
            notes.push(format!(
                "keys.{key}.popularity: the record's per-reason throttle metrics put {:.0} % of the table's throttle events on KeyRange (a partition's cap, where a hot key throttles) and the rest on the table's capacity, which the key's skew does not move; the scenario's own skew is kept",
                100.0 * share
            ));
            false
        }
        _ => true,
    };
    let mut pinned = None;
    let judge = cause_fit::Judge::of(rec, ResourceId::Table, judged);
    let found = match judge {
        Some(j) => {
            let throttled = Dim::ALL.map(|d| cause_fit::Throttled::of(judged, d));
            let tried = chosen.map_or_else(|| cause_fit::causes(cur, ks, skew, stated, throttled), |c| vec![c]);
            cause_fit::fit(cur, ks, &tried, &j, opts)?
        }
        None => None,
    };
    if found.is_none() && judge.is_some_and(|j| j.target >= j.quiet) {
        notes.push(format!(
            "keys.{key}.popularity, client.flush: no value of a skew or of flushes throttles the table as the record did (the events jump past it, or never reach it)"
        ));
    }
    if let Some((cause, (p, fitted), also)) = found {
        pinned = p.identified.then(|| p.path.clone());
        if p.identified {
            *chosen = Some(cause);
        }
        if let Some((s, pop, cause_edits)) = fitted {
            *cur = s;
            if pop.is_some() {
                *popularity = pop;
            }
            edits.extend(cause_edits);
        }
        parameters.push(p);
        parameters.extend(also);
    }
    let quiet = QUIET_EVENTS_PER_MINUTE * judged.minutes as f64;
    if let Some(path) = pinned {
        if cur.client.attempts > 1 && cur.client.quota > 0 {
            notes.push(format!(
                "client.instances: {path} was fitted to the same throttle events, and the two trade off in CloudWatch's totals; the per-reason throttle metrics (KeyRange against Provisioned) or a Contributor Insights report tell them apart"
            ));
        }
    } else if target >= quiet {
        match client_fit::instances(cur, rec, opts, target)? {
            client_fit::FleetFit::Fitted(p, s, e) => {
                *cur = *s;
                edits.push(e);
                parameters.push(p);
            }
            client_fit::FleetFit::Bounded(p) => parameters.push(p),
            client_fit::FleetFit::Unfitted(why) => notes.push(format!("client.instances: {why}")),
        }
    }
    Ok(())
}

/// Each GSI's coverage, scaled to its recorded write units and throttled attempts (again each
/// round: what reaches an index depends on what the table throttled first).
fn cover(cur: &mut Scenario, rec: &Recorded, opts: &RunOptions, judged: &mut Backtest, fitted: &mut Fitted) -> Result<(), BacktestError> {
    let (covered, parameters, edits) = index_fit::coverage(cur, judged);
    if !edits.is_empty() {
        *cur = covered;
        *judged = compare(cur, &simulate(cur, opts), rec)?;
    }
    fitted.merge(Fitted { parameters, edits, ..Fitted::default() });
    Ok(())
}

/// The skew of each GSI's partition key, fitted to the index's recorded write throttle events
/// per consumed unit when the simulation's are outside their tolerance and the key is the
/// index's own (not the table's, whose skew the table's events fit). With `first`, every
/// index's skews are tried and `causes` records the one each pinned down; after, only those are
/// fitted again. `cur` and `judged` follow what is pinned down; `fitted` gets the parameters.
fn index_keys(
    cur: &mut Scenario,
    rec: &Recorded,
    opts: &RunOptions,
    judged: &mut Backtest,
    causes: &mut [Option<cause_fit::Cause>],
    fitted: &mut Fitted,
    first: bool,
) -> Result<(), BacktestError> {
    #[allow(clippy::needless_range_loop)] // `cur` changes inside: the index, not an iterator over it
    for g in 0..cur.gsis.len() {
        let ks = cur.gsis[g].partition_key;
        let res = ResourceId::gsi(g);
        let events: Vec<&SeriesFit> = judged.series.iter().filter(|f| f.id == res && f.kind == RecordedKind::ThrottleEvents).collect();
        if ks == cur.table.partition_key || events.is_empty() || events.iter().all(|f| f.fits) || (!first && causes[g].is_none()) {
            continue;
        }
        let Some(judge) = cause_fit::Judge::of(rec, res, judged) else { continue };
        let tried = causes[g].map_or_else(|| cause_fit::skews(cur, ks), |c| vec![c]);
        let Some((cause, (p, pinned), also)) = cause_fit::fit(cur, ks, &tried, &judge, opts)? else { continue };
        let mut round = Fitted::default();
        if let Some((s, _, e)) = pinned {
            *cur = s;
            *judged = compare(cur, &simulate(cur, opts), rec)?;
            causes[g] = Some(cause);
            round.edits = e;
        }
        round.parameters.push(p);
        round.parameters.extend(also);
        fitted.merge(round);
    }
    Ok(())
}

/// What a calibration has fitted so far, and what it has not.
#[derive(Default)]
struct Fitted {
    parameters: Vec<Parameter>,
    edits: Vec<Edit>,
    notes: Vec<String>,
    /// The calibrated popularity line, if any.
    popularity: Option<String>,
}

impl Fitted {
    /// A later round's fit over this one's: its parameters replace those of the same setting
    /// (any skew of the same key, which one family or the other writes), its edits apply after.
    fn merge(&mut self, newer: Fitted) {
        let setting = |p: &str| p.split_once(".popularity").map_or_else(|| p.to_string(), |(k, _)| k.to_string());
        // A setting pinned down again replaces what was pinned before (a skew of either
        // family); what only bounded it or also fitted stays unless fitted again.
        let pinned: Vec<String> = newer.parameters.iter().filter(|p| p.identified).map(|p| setting(&p.path)).collect();
        self.parameters
            .retain(|q| !(newer.parameters.iter().any(|p| p.path == q.path) || q.identified && pinned.contains(&setting(&q.path))));
        self.parameters.extend(newer.parameters);
        self.edits.extend(newer.edits);
        for n in newer.notes {
            if !self.notes.contains(&n) {
                self.notes.push(n);
            }
        }
        if newer.popularity.is_some() {
            self.popularity = newer.popularity;
        }
    }
}

/// Rounds of what throttles and the demand through it, at most.
const ROUNDS: usize = 3;

/// The calibrated scenario's text: `source` with the fitted values written where they belong
/// (comments and order kept) and the calibration stated in comments at the top.
#[must_use]
pub fn calibrated_text(source: &str, c: &Calibration, history: &str, window: &str) -> String {
    if c.edits.is_empty() {
        return source.to_string();
    }
    // A path may hold a line break: the comment shows it escaped, never as a TOML line.
    let safe = |s: &str| -> String {
        s.chars()
            .flat_map(|c| {
                let escape = crate::scenario::validate::is_unprintable(c);
                if escape {
                    c.escape_default().collect::<Vec<_>>()
                } else {
                    vec![c]
                }
            })
            .collect()
    };
    let mut head = format!("# CALIBRATED from {} on {} by `ddbsim backtest --calibrate`\n", safe(history), safe(window));
    for p in &c.parameters {
        head.push_str(&format!(
            "# {} = {} (values from {} to {} fit the history within its tolerances; {})\n",
            p.path,
            short(p.value),
            short(p.low),
            short(p.high),
            p.note
        ));
    }
    head + &edit::apply(source, &c.edits)
}

/// A fitted value as the comment gives it: three decimals below 10, whole above.
fn short(x: f64) -> String {
    if x.abs() < 10.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.0}")
    }
}
