//! `ddbsim backtest --calibrate`: the skew of the table's partition key fitted to the recorded
//! throttle events. CloudWatch records how often the table throttled but not which keys were
//! hot; with the traffic's volume fixed by the record, the skew is what moves the throttle
//! events, so it is fitted by bisection on simulations with the same seed (common random
//! numbers), in the scenario's own family: a Zipf exponent over the key space, or a hot
//! set's share (a key space with neither tries both, and keeps the closer fit: the totals
//! cannot tell the families apart, a Contributor Insights report can). The interval is the values whose simulated
//! events stay within the events' tolerance; a history that never throttled constrains the
//! skew only from above, and says so instead of inventing a value.

use super::{compare, Backtest, BacktestError, SeriesFit, EVENTS_TOLERANCE, QUIET_EVENTS_PER_MINUTE};
use crate::engine::{simulate, RunOptions};
use crate::import::{Recorded, RecordedKind};
use crate::scenario::{Popularity, Scenario};
use serde::Serialize;

/// Bisection steps to the fit, and to each edge of its interval.
const STEPS: u32 = 10;
const EDGE_STEPS: u32 = 6;

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

/// The calibration: `calibration` in `backtest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    /// The fitted parameters (none when the history cannot be fitted by them).
    pub parameters: Vec<Parameter>,
    /// The series before calibration.
    pub before: Vec<SeriesFit>,
    /// The series after.
    pub after: Vec<SeriesFit>,
    /// The popularity line written into the calibrated scenario, if any.
    pub popularity: Option<String>,
}

/// A family of skews: its parameter's path suffix, range, and the popularity of a value.
#[derive(Clone, Copy)]
enum Family {
    Zipf,
    /// A hot set of this many keys.
    HotKey(u64),
}

impl Family {
    fn range(self) -> (f64, f64) {
        match self {
            Family::Zipf => (0.0, 2.5),
            Family::HotKey(_) => (0.0, 1.0),
        }
    }
    fn popularity(self, x: f64) -> Popularity {
        match self {
            Family::Zipf => Popularity::Zipf(x),
            Family::HotKey(keys) => Popularity::Hot { keys, share: x },
        }
    }
    fn toml(self, x: f64) -> String {
        match self {
            Family::Zipf => format!("{{ zipf = {x:.3} }}"),
            Family::HotKey(keys) => format!("{{ hot = {{ keys = {keys}, share = {x:.3} }} }}"),
        }
    }
    fn path(self, key: &str) -> String {
        match self {
            Family::Zipf => format!("keys.{key}.popularity.zipf"),
            Family::HotKey(_) => format!("keys.{key}.popularity.hot.share"),
        }
    }
}

/// The recorded throttle events of the table over the minutes a backtest compares, and the
/// minutes compared.
fn recorded_events(sc: &Scenario, rec: &Recorded, b: &Backtest) -> Result<f64, BacktestError> {
    let table: Vec<&SeriesFit> = b.series.iter().filter(|f| f.resource == sc.table.name && f.metric.ends_with("ThrottleEvents")).collect();
    if table.is_empty() || !rec.series.iter().any(|s| s.index.is_none() && s.kind == RecordedKind::ThrottleEvents) {
        return Err(BacktestError(format!(
            "--calibrate fits the key skew to the table's throttle events: the metrics have no ReadThrottleEvents or WriteThrottleEvents series of {}",
            sc.table.name
        )));
    }
    Ok(table.iter().map(|f| f.recorded).sum())
}

/// Simulated throttle events of the table with popularity `p`, over the compared minutes.
fn events_with(sc: &Scenario, ks: usize, p: &Popularity, rec: &Recorded, opts: &RunOptions) -> Result<f64, BacktestError> {
    let mut s = sc.clone();
    s.key_spaces[ks].popularity = p.clone();
    let r = simulate(&s, opts);
    let b = compare(&s, &r, rec)?;
    Ok(b.series.iter().filter(|f| f.resource == sc.table.name && f.metric.ends_with("ThrottleEvents")).map(|f| f.simulated).sum())
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

/// One family's fit.
struct FamilyFit {
    value: f64,
    low: f64,
    high: f64,
    /// |simulated - recorded| / recorded events at the value.
    error: f64,
    note: String,
    /// The record pins the value down (else it only bounds it, and the scenario's own value
    /// is kept).
    identified: bool,
}

/// One family's fit, or `None` when even its most skewed value throttles less than the record.
fn fit_family(
    fam: Family,
    sc: &Scenario,
    ks: usize,
    rec: &Recorded,
    opts: &RunOptions,
    target: f64,
    quiet: f64,
) -> Result<Option<FamilyFit>, BacktestError> {
    let (lo, hi) = fam.range();
    let mut f = |x: f64| events_with(sc, ks, &fam.popularity(x), rec, opts);
    if target < quiet {
        // Never throttled: any skew up to the one that starts throttling fits.
        if f(hi)? < quiet {
            let note = "not identifiable: the history never throttled, and no value in the range throttles".into();
            return Ok(Some(FamilyFit { value: lo, low: lo, high: hi, error: 0.0, note, identified: false }));
        }
        let edge = bisect(lo, hi, STEPS, quiet, &mut f)?;
        let note =
            format!("not identifiable: the history never throttled, so any value up to {edge:.3} fits; the scenario's own value is kept");
        return Ok(Some(FamilyFit { value: lo, low: lo, high: edge, error: 0.0, note, identified: false }));
    }
    let top = f(hi)?;
    if top < target * (1.0 - EVENTS_TOLERANCE) {
        return Ok(None);
    }
    let bottom = f(lo)?;
    if bottom >= target * (1.0 - EVENTS_TOLERANCE) {
        // No skew at all throttles as much: the events come from the table's capacity, not
        // from a hot key, and any skew up to the one that throttles too much fits.
        let high = if top <= target * (1.0 + EVENTS_TOLERANCE) {
            hi
        } else {
            bisect(lo, hi, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE), &mut f)?
        };
        let note = format!(
            "not identifiable: without any skew the table already throttles {bottom:.0} times against {target:.0} recorded (its capacity, not a hot key, throttles it), so any value up to {high:.3} fits; the scenario's own value is kept"
        );
        return Ok(Some(FamilyFit { value: lo, low: lo, high, error: (bottom - target).abs() / target, note, identified: false }));
    }
    let x = bisect(lo, hi, STEPS, target, &mut f)?;
    let got = f(x)?;
    let low = bisect(lo, x, EDGE_STEPS, target * (1.0 - EVENTS_TOLERANCE), &mut f)?;
    let high =
        if top <= target * (1.0 + EVENTS_TOLERANCE) { hi } else { bisect(x, hi, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE), &mut f)? };
    let note = format!("bisection on the table's throttle events: {got:.0} simulated against {target:.0} recorded");
    Ok(Some(FamilyFit { value: x, low, high, error: (got - target).abs() / target, note, identified: true }))
}

/// Calibrates the skew of `sc`'s partition key against the record; returns the calibrated
/// scenario and its backtest (when a family pins the skew down) and the calibration, with
/// `before` from `before`.
///
/// # Errors
/// [`BacktestError`] when the record has no throttle events of the table.
pub fn calibrate(
    sc: &Scenario,
    rec: &Recorded,
    opts: &RunOptions,
    before: &Backtest,
) -> Result<(Option<(Scenario, Backtest)>, Calibration), BacktestError> {
    let ks = sc.table.partition_key;
    let key = sc.key_spaces[ks].name.clone();
    let target = recorded_events(sc, rec, before)?;
    let quiet = QUIET_EVENTS_PER_MINUTE * before.minutes as f64;
    let mut best: Option<(Family, FamilyFit)> = None;
    // CloudWatch's totals cannot tell a Zipf exponent from a hot key's share that throttle
    // alike: the scenario's own family is kept, and both are tried only when it has neither.
    let families: Vec<Family> = match sc.key_spaces[ks].popularity {
        Popularity::Zipf(_) => vec![Family::Zipf],
        Popularity::Hot { keys, .. } => vec![Family::HotKey(keys)],
        _ => vec![Family::Zipf, Family::HotKey(1)],
    };
    for fam in families {
        if let Some(fit) = fit_family(fam, sc, ks, rec, opts, target, quiet)? {
            // A fit that pins the value beats one that only bounds it, then the closer.
            if best.as_ref().is_none_or(|(_, b)| (fit.identified, -fit.error) > (b.identified, -b.error)) {
                best = Some((fam, fit));
            }
        }
    }
    let Some((fam, FamilyFit { value, low, high, note, identified, .. })) = best else {
        let calibration =
            Calibration { parameters: Vec::new(), before: before.series.clone(), after: before.series.clone(), popularity: None };
        return Ok((None, calibration));
    };
    if !identified {
        let p = Parameter { path: fam.path(&key), value: sc_value(sc, ks).unwrap_or(value), low, high, note, identified: false };
        return Ok((
            None,
            Calibration { parameters: vec![p], before: before.series.clone(), after: before.series.clone(), popularity: None },
        ));
    }
    let mut out = sc.clone();
    out.key_spaces[ks].popularity = fam.popularity(value);
    let after = compare(&out, &simulate(&out, opts), rec)?;
    let calibration = Calibration {
        parameters: vec![Parameter { path: fam.path(&key), value, low, high, note, identified: true }],
        before: before.series.clone(),
        after: after.series.clone(),
        popularity: Some(fam.toml(value)),
    };
    Ok((Some((out, after)), calibration))
}

/// The scenario's own Zipf exponent or hot share of key space `ks`, if it has one.
fn sc_value(sc: &Scenario, ks: usize) -> Option<f64> {
    match sc.key_spaces[ks].popularity {
        Popularity::Zipf(s) => Some(s),
        Popularity::Hot { share, .. } => Some(share),
        _ => None,
    }
}

/// The calibrated scenario's text: `source` with the key space's popularity replaced (or
/// added) and the calibration stated in comments at the top.
#[must_use]
pub fn calibrated_text(source: &str, key: &str, c: &Calibration, history: &str, window: &str) -> String {
    let Some(pop) = &c.popularity else { return source.to_string() };
    let mut head = format!("# CALIBRATED from {history} on {window} by `ddbsim backtest --calibrate`\n");
    for p in &c.parameters {
        head.push_str(&format!(
            "# {} = {:.3} (values from {:.3} to {:.3} fit the recorded throttle events within {:.0} %; {})\n",
            p.path,
            p.value,
            p.low,
            p.high,
            100.0 * EVENTS_TOLERANCE,
            p.note
        ));
    }
    let header = format!("[keys.{key}]");
    let mut out = String::new();
    let mut in_section = false;
    let mut done = false;
    for line in source.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            if in_section && !done {
                out.push_str(&format!("popularity = {pop}\npopularity_from = \"calibration\"\n"));
                done = true;
            }
            in_section = t.trim_end() == header;
        }
        if in_section && t.starts_with("popularity_from") {
            continue;
        }
        if in_section && t.starts_with("popularity") {
            out.push_str(&format!("popularity = {pop}\npopularity_from = \"calibration\"\n"));
            done = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if in_section && !done {
        out.push_str(&format!("popularity = {pop}\npopularity_from = \"calibration\"\n"));
    }
    head + &out
}
