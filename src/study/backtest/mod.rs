//! `ddbsim backtest`: a table's own CloudWatch history as the judge of its scenario. The
//! scenario is simulated over its window and compared, minute by minute, with every recorded
//! series of the table and its GSIs (consumed units, throttle events, provisioned capacity):
//! per series the totals, their ratio and the mean absolute error per minute; for throttling,
//! the minutes throttled in the record, in the simulation and in both; and a verdict, **fits**
//! or **does not fit**, naming the series and the hour that differ most.
//!
//! `--calibrate` ([`calibrate`]) fits what the history constrains but does not state: each
//! GSI's coverage, the GSI absorption bound and the skew of the table's partition key.

pub mod calibrate;
mod cause_fit;
mod client_fit;
pub mod demand_fit;
pub mod edit;
mod index_fit;

use crate::engine::{simulate, RunOptions, RunResult};
use crate::format::{clock, fmt_num, grouped};
use crate::import::{Recorded, RecordedKind, RecordedSeries};
use crate::model::Dim;
use crate::scenario::{ResourceId, Scenario};
use serde::Serialize;

/// Tolerance of consumed units and provisioned capacity: simulated total within 10 % of the
/// recorded one (model choice).
pub const UNITS_TOLERANCE: f64 = 0.10;
/// Tolerance of consumed units per minute: mean absolute error within 25 % of the recorded mean.
pub const MAE_TOLERANCE: f64 = 0.25;
/// Tolerance of throttle events: simulated total within 25 % of the recorded one, and at least
/// half the minutes throttled in either throttled in both.
pub const EVENTS_TOLERANCE: f64 = 0.25;
/// Throttle events a minute below which a series is quiet: two quiet series agree.
pub const QUIET_EVENTS_PER_MINUTE: f64 = 1.0;

/// The comparison of one recorded series with its simulation.
#[derive(Clone, Debug, Serialize)]
pub struct SeriesFit {
    /// Table or GSI name.
    pub resource: String,
    /// Which of the table's resources.
    #[serde(skip)]
    pub id: ResourceId,
    /// CloudWatch's metric name.
    pub metric: &'static str,
    /// What it measures.
    #[serde(skip)]
    pub kind: RecordedKind,
    /// Its dimension.
    #[serde(skip)]
    pub dim: Dim,
    /// Recorded total over the minutes compared (units or events; for provisioned capacity,
    /// the mean level).
    pub recorded: f64,
    /// Simulated total over the same minutes.
    pub simulated: f64,
    /// Simulated over recorded (`None` when nothing was recorded).
    pub ratio: Option<f64>,
    /// Mean absolute error per minute (units or events a minute; a level for provisioned).
    pub mae: f64,
    /// The error over the recorded mean per minute (`None` when nothing was recorded).
    pub mae_share: Option<f64>,
    /// Within the tolerances.
    pub fits: bool,
    /// The UTC hour where recorded and simulated differ most, if they differ.
    pub worst_hour: Option<String>,
    /// Minutes compared (those with a recorded datapoint).
    pub minutes: usize,
    /// Per minute compared: (minute from the comparison's start, recorded, simulated), a
    /// minute's units or events (a level for provisioned), for `backtest.csv` and the chart.
    #[serde(skip)]
    pub per_minute: Vec<(u32, f64, f64)>,
}

/// Minutes with throttle events on any resource.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ThrottledMinutes {
    /// In the record.
    pub recorded: u64,
    /// In the simulation.
    pub simulated: u64,
    /// In both.
    pub both: u64,
}

/// The verdict: fits or not, and where.
#[derive(Clone, Debug, Serialize)]
pub struct BacktestVerdict {
    /// Every series within its tolerance.
    pub fits: bool,
    /// `FITS — ...` or `DOES NOT FIT — ...`.
    pub headline: String,
    /// The series outside their tolerances, worst first, each with its worst hour.
    pub lines: Vec<String>,
}

/// A backtest: `backtest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Backtest {
    /// Scenario name.
    pub scenario: String,
    /// UTC start of the minutes compared.
    pub start: String,
    /// The same, Unix seconds.
    #[serde(skip)]
    pub start_unix_s: i64,
    /// Minutes compared.
    pub minutes: usize,
    /// Every recorded series against its simulation.
    pub series: Vec<SeriesFit>,
    /// Minutes throttled.
    pub throttled_minutes: ThrottledMinutes,
    /// The verdict.
    pub verdict: BacktestVerdict,
    /// The calibration, with `--calibrate`.
    pub calibration: Option<calibrate::Calibration>,
    /// What was odd about the history.
    pub notes: Vec<String>,
}

/// One fitted parameter.
#[derive(Clone, Debug, Serialize)]
pub struct Parameter {
    /// Where it is in the scenario: `keys.<name>.popularity.zipf` or `...hot.share`.
    pub path: String,
    /// The fitted value.
    pub value: f64,
    /// The lowest value that fits.
    pub low: f64,
    /// The highest value that fits.
    pub high: f64,
    /// How it was fitted, or why it is not identifiable.
    pub note: String,
    /// The record pins the value down; else it only bounds it, and `value` is the scenario's.
    pub identified: bool,
}

/// Why a history cannot judge a scenario.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BacktestError(pub String);

/// The minutes of the record and of the simulation that coincide: (first recorded minute,
/// first simulated minute, count).
fn overlap(sc: &Scenario, rec: &Recorded) -> Result<(usize, usize, usize), BacktestError> {
    let sim_start = sc.start_unix_s;
    let sim_end = sim_start + sc.duration.as_secs() as i64;
    let rec_end = rec.start_unix_s + 60 * rec.minutes as i64;
    let from = sim_start.max(rec.start_unix_s);
    let to = sim_end.min(rec_end);
    if to - from < 60 {
        return Err(BacktestError(format!(
            "the metrics cover {} to {} and the scenario {} to {}: not a minute in common (set [scenario] start and duration to the history's window)",
            clock(rec.start_unix_s, 0),
            clock(rec_end, 0),
            clock(sim_start, 0),
            clock(sim_end, 0)
        )));
    }
    if (from - sim_start) % 60 != 0 {
        return Err(BacktestError(format!(
            "the scenario starts at {} and the metrics' minutes at {}: start the scenario on a whole minute",
            clock(sim_start, 0),
            clock(rec.start_unix_s, 0)
        )));
    }
    Ok((((from - rec.start_unix_s) / 60) as usize, ((from - sim_start) / 60) as usize, ((to - from) / 60) as usize))
}

/// A simulated minute's value of a recorded series: units or events a second (sums), or the
/// provisioned level.
fn simulated_value(r: &RunResult, res: usize, s: &RecordedSeries, m: usize) -> f64 {
    let Some(x) = r.resources[res].minutes.get(m) else { return 0.0 };
    let i = s.dim as usize;
    match s.kind {
        RecordedKind::Consumed => x.consumed[i] as f64 / 1_000.0 / 60.0,
        RecordedKind::Provisioned => x.provisioned[i] as f64,
        RecordedKind::ThrottleEvents => x.events(Dim::ALL[i]) as f64 / 60.0,
        RecordedKind::ReasonEvents(why) => x.throttle_events[why as usize][i] as f64 / 60.0,
    }
}

/// The resource a recorded series belongs to: the recorded GSI name (CloudWatch's
/// `GlobalSecondaryIndexName`) becomes the index's identity here, at the boundary.
fn resource_of(sc: &Scenario, s: &RecordedSeries) -> Result<ResourceId, BacktestError> {
    match &s.index {
        None => Ok(ResourceId::Table),
        Some(g) => sc.gsis.iter().position(|x| &x.name == g).map(ResourceId::gsi).ok_or_else(|| {
            BacktestError(format!(
                "the metrics have a {} series of the GSI {g}, which {} does not have (its GSIs: {}): a history of another table?",
                s.metric,
                sc.table.name,
                if sc.gsis.is_empty() { "none".into() } else { sc.gsis.iter().map(|g| g.name.as_str()).collect::<Vec<_>>().join(", ") }
            ))
        }),
    }
}

/// Compares run `r` of `sc` with the record.
///
/// # Errors
/// [`BacktestError`] when the windows do not overlap, a series names a GSI the scenario
/// does not have, or the run was stopped.
pub fn compare(sc: &Scenario, r: &RunResult, rec: &Recorded) -> Result<Backtest, BacktestError> {
    stopped(r)?;
    let (rec0, sim0, n) = overlap(sc, rec)?;
    let mut series = Vec::new();
    let mut throttled_rec = vec![false; n];
    let mut throttled_sim = vec![false; n];
    let mut notes = rec.notes.clone();
    for s in &rec.series {
        let id = resource_of(sc, s)?;
        let res = r.resources.iter().position(|x| x.id == id).expect("every GSI of the scenario is in its run");
        let mut pairs = Vec::with_capacity(n);
        for k in 0..n {
            let Some(x) = s.values.get(rec0 + k).copied().flatten() else { continue };
            let y = simulated_value(r, res, s, sim0 + k);
            if s.kind == RecordedKind::ThrottleEvents {
                throttled_rec[k] |= x * 60.0 >= 0.5;
                throttled_sim[k] |= y * 60.0 >= 0.5;
            }
            pairs.push((k, x, y));
        }
        if pairs.is_empty() {
            notes.push(format!("{} {}: no datapoint in the minutes compared; not judged", r.resources[res].name, s.metric));
            continue;
        }
        series.push(fit((&r.resources[res].name, id), s, &pairs, sc.start_unix_s + 60 * sim0 as i64));
    }
    let both = throttled_rec.iter().zip(&throttled_sim).filter(|(a, b)| **a && **b).count() as u64;
    let tm = ThrottledMinutes {
        recorded: throttled_rec.iter().filter(|x| **x).count() as u64,
        simulated: throttled_sim.iter().filter(|x| **x).count() as u64,
        both,
    };
    // Throttling must agree in time, not only in total.
    let union = tm.recorded + tm.simulated - tm.both;
    let timing_ok = union == 0 || tm.both as f64 / union as f64 >= 0.5;
    for f in series.iter_mut().filter(|f| f.kind.is_events() && f.recorded > 0.0) {
        f.fits &= timing_ok;
    }
    let verdict = verdict(&series, tm);
    Ok(Backtest {
        scenario: sc.name.clone(),
        start: clock(sc.start_unix_s + 60 * sim0 as i64, 0),
        start_unix_s: sc.start_unix_s + 60 * sim0 as i64,
        minutes: n,
        series,
        throttled_minutes: tm,
        verdict,
        calibration: None,
        notes,
    })
}

/// Tells the run's progress what a calibration step tried.
fn tell(opts: &RunOptions, step: impl FnOnce() -> String) {
    if let Some(p) = &opts.progress {
        p.fitting(&step());
    }
}

/// Bisection on `[lo, hi]` for the value where `f` (increasing) reaches `target`.
fn bisect(
    mut lo: f64,
    mut hi: f64,
    steps: u32,
    target: f64,
    mut f: impl FnMut(f64) -> Result<f64, BacktestError>,
) -> Result<f64, BacktestError> {
    for _ in 0..steps {
        let mid = 0.5 * (lo + hi);
        if f(mid)? < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

/// The table's simulated throttle events (all reasons) over the minutes compared with `rec`.
fn table_events(sc: &Scenario, rec: &Recorded, opts: &RunOptions) -> Result<f64, BacktestError> {
    Ok(table_fit(sc, rec, opts)?.0)
}

/// The table's simulated throttle events over the minutes compared with `rec`, and how far its
/// consumed units are from the record's (|simulated − recorded| over recorded, both
/// dimensions together).
fn table_fit(sc: &Scenario, rec: &Recorded, opts: &RunOptions) -> Result<(f64, f64), BacktestError> {
    let b = compare(sc, &simulate(sc, opts), rec)?;
    let table = || b.series.iter().filter(|f| f.id == ResourceId::Table);
    let events = table().filter(|f| f.kind == RecordedKind::ThrottleEvents).map(|f| f.simulated).sum();
    let (sim, recd) = table().filter(|f| f.kind == RecordedKind::Consumed).fold((0.0, 0.0), |(a, b), f| (a + f.simulated, b + f.recorded));
    Ok((events, if recd > 0.0 { (sim - recd).abs() / recd } else { 0.0 }))
}

/// Simulates `sc` with `opts` and compares it with the record.
///
/// # Errors
/// As [`compare`].
pub fn backtest(sc: &Scenario, rec: &Recorded, opts: &RunOptions) -> Result<Backtest, BacktestError> {
    overlap(sc, rec)?;
    let r = simulate(sc, opts);
    compare(sc, &r, rec)
}

/// A run stopped before its end (Ctrl-C) is no comparison: the backtest and its calibration
/// end there.
pub(super) fn stopped(r: &RunResult) -> Result<(), BacktestError> {
    if r.stopped {
        Err(BacktestError("stopped before the end of the window".into()))
    } else {
        Ok(())
    }
}

/// One series' fit from its (minute, recorded, simulated) values a second (or levels).
fn fit((resource, id): (&str, ResourceId), s: &RecordedSeries, pairs: &[(usize, f64, f64)], start_unix_s: i64) -> SeriesFit {
    let level = s.kind == RecordedKind::Provisioned;
    let per_min = if level { 1.0 } else { 60.0 };
    let k = pairs.len() as f64;
    let (mut rec, mut sim, mut abs) = (0.0, 0.0, 0.0);
    let mut by_hour: std::collections::BTreeMap<usize, f64> = std::collections::BTreeMap::new();
    for &(m, x, y) in pairs {
        rec += x * per_min;
        sim += y * per_min;
        abs += (x - y).abs() * per_min;
        *by_hour.entry(m / 60).or_default() += (x - y).abs() * per_min;
    }
    if level {
        rec /= k;
        sim /= k;
    }
    let mae = abs / k;
    let mean = if level { rec } else { rec / k };
    let ratio = (rec > 0.0).then(|| sim / rec);
    let mae_share = (mean > 0.0).then(|| mae / mean);
    let fits = match s.kind {
        RecordedKind::Consumed => {
            (rec == 0.0 && sim == 0.0)
                || ratio.is_some_and(|q| (q - 1.0).abs() <= UNITS_TOLERANCE) && mae_share.is_some_and(|e| e <= MAE_TOLERANCE)
        }
        RecordedKind::Provisioned => (rec == 0.0 && sim == 0.0) || ratio.is_some_and(|q| (q - 1.0).abs() <= UNITS_TOLERANCE),
        RecordedKind::ThrottleEvents | RecordedKind::ReasonEvents(_) => {
            let quiet = |total: f64| total / k < QUIET_EVENTS_PER_MINUTE;
            (quiet(rec) && quiet(sim)) || ratio.is_some_and(|q| (q - 1.0).abs() <= EVENTS_TOLERANCE)
        }
    };
    let worst_hour = by_hour
        .iter()
        .filter(|(_, e)| **e > 0.0)
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(h, _)| clock(start_unix_s + 3_600 * *h as i64, 0));
    SeriesFit {
        resource: resource.to_string(),
        id,
        metric: s.metric,
        kind: s.kind,
        dim: s.dim,
        recorded: rec,
        simulated: sim,
        ratio,
        mae,
        mae_share,
        fits,
        worst_hour,
        minutes: pairs.len(),
        per_minute: pairs.iter().map(|&(m, x, y)| (m as u32, x * per_min, y * per_min)).collect(),
    }
}

/// The verdict of a set of fits.
fn verdict(series: &[SeriesFit], tm: ThrottledMinutes) -> BacktestVerdict {
    let mut off: Vec<&SeriesFit> = series.iter().filter(|f| !f.fits).collect();
    // Worst first: by how far the ratio is from 1 (no ratio: simulated something from nothing).
    let dist = |f: &SeriesFit| f.ratio.map_or(f64::INFINITY, |q| (q.max(1e-9).ln()).abs());
    off.sort_by(|a, b| dist(b).total_cmp(&dist(a)));
    let lines: Vec<String> = off
        .iter()
        .map(|f| {
            format!(
                "{} {}: simulated {} of {} recorded{}{}",
                f.resource,
                f.metric,
                fmt_num(f.simulated),
                fmt_num(f.recorded),
                f.ratio.map(|q| format!(" ({q:.2}x)")).unwrap_or_default(),
                f.worst_hour.as_ref().map(|h| format!("; most different in the hour from {h}")).unwrap_or_default()
            )
        })
        .collect();
    let headline = if off.is_empty() {
        format!(
            "FITS — {} series within tolerance; throttled minutes: {} recorded, {} simulated, {} in both",
            series.len(),
            grouped(tm.recorded),
            grouped(tm.simulated),
            grouped(tm.both)
        )
    } else {
        format!("DOES NOT FIT — {} of {} series outside tolerance, worst {} {}", off.len(), series.len(), off[0].resource, off[0].metric)
    };
    BacktestVerdict { fits: off.is_empty(), headline, lines }
}

/// The backtest as text: the verdict, the table of series, the throttled minutes.
#[must_use]
pub fn text(b: &Backtest, seed: u64) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "ddbsim backtest · {} · {} minutes from {} · seed {seed}\n\n{}\n",
        b.scenario,
        grouped(b.minutes as u64),
        b.start,
        b.verdict.headline
    );
    for l in &b.verdict.lines {
        let _ = writeln!(out, "  where  {l}");
    }
    if let Some(c) = &b.calibration {
        for d in &c.demand {
            let _ = writeln!(
                out,
                "  fitted demand of {} {}s: {} first attempts a second (the scenario had {}); attempted units {} simulated against {} recorded, retries simulated through the client",
                d.resource,
                d.dimension,
                fmt_num(d.after),
                fmt_num(d.before),
                fmt_num(d.simulated_attempts),
                fmt_num(d.recorded_attempts)
            );
        }
        for p in &c.parameters {
            let verb = if p.identified { "fitted" } else { "kept  " };
            let _ = writeln!(
                out,
                "  {verb} {} = {} (values from {} to {} fit; {})",
                p.path,
                fmt_num(p.value),
                fmt_num(p.low),
                fmt_num(p.high),
                p.note
            );
        }
        for n in &c.notes {
            let _ = writeln!(out, "  not fitted  {n}");
        }
    }
    out.push('\n');
    let rows: Vec<[String; 8]> =
        std::iter::once(["resource", "metric", "recorded", "simulated", "ratio", "mae/min", "mae %", "fits"].map(str::to_string))
            .chain(b.series.iter().map(|f| {
                [
                    f.resource.clone(),
                    f.metric.to_string(),
                    fmt_num(f.recorded),
                    fmt_num(f.simulated),
                    f.ratio.map_or("-".into(), |q| format!("{q:.3}")),
                    fmt_num(f.mae),
                    f.mae_share.map_or("-".into(), |e| format!("{:.1}%", 100.0 * e)),
                    if f.fits { "yes" } else { "no" }.into(),
                ]
            }))
            .collect();
    let widths: Vec<usize> = (0..8).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, x)| if c < 2 { format!("{x:<w$}", w = widths[c]) } else { format!("{x:>w$}", w = widths[c]) })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    let _ = writeln!(
        out,
        "\nthrottled minutes: {} recorded, {} simulated, {} in both",
        grouped(b.throttled_minutes.recorded),
        grouped(b.throttled_minutes.simulated),
        grouped(b.throttled_minutes.both)
    );
    let _ = writeln!(
        out,
        "tolerances: units and provisioned within {:.0} %, units' mean absolute error within {:.0} % of the recorded mean, throttle events within {:.0} % and half the throttled minutes shared (model choices)",
        100.0 * UNITS_TOLERANCE,
        100.0 * MAE_TOLERANCE,
        100.0 * EVENTS_TOLERANCE
    );
    for n in &b.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// The warning `recommend` gives a scenario imported from a history that throttled, whose
/// partition key's skew is still `import`'s assumption: its recommendation is priced on a skew
/// the history contradicts or does not show (issue 40).
#[must_use]
pub fn uncalibrated_warning(sc: &Scenario) -> Option<String> {
    let events = sc.recorded_throttle_events.filter(|&e| e > 0)?;
    let ks = &sc.key_spaces[sc.table.partition_key];
    (ks.popularity_from == crate::scenario::PopularityFrom::Assumption).then(|| {
        format!(
            "{}'s history recorded {} throttle events, and the skew of its key {} is import's assumption, not calibrated: the recommendation is priced on that assumption; `ddbsim backtest {} --metrics ... --calibrate` fits it first",
            sc.table.name,
            grouped(events),
            ks.name,
            sc.source_path.display()
        )
    })
}

/// `backtest.csv`: a row per series and minute compared, `time_s` from the comparison's start.
#[must_use]
pub fn csv(b: &Backtest) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("time_s,resource,metric,recorded,simulated\n");
    for f in &b.series {
        for &(m, x, y) in &f.per_minute {
            let _ = writeln!(out, "{},{},{},{x},{y}", u64::from(m) * 60, f.resource, f.metric);
        }
    }
    out
}
