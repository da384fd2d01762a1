//! What throttled the history, fitted to a resource's recorded throttle events: the skew of a
//! key (a Zipf exponent, or a hot set's share) or the client's flushes (the sub-minute shape
//! the per-minute record flattens: a peak over the mean). CloudWatch records how often a
//! resource throttled but not which keys were hot nor how the minute's requests were spread,
//! so each cause is a family of values fitted by bisection on simulations with the same seed
//! (common random numbers); the families are told apart by what else they move (the consumed
//! units at their fit), and the chosen one's value is fitted again at other seeds, because where
//! hot keys land on partitions differs by seed: the interval holds every seed's fit.

use super::edit::{Edit, Section};
use super::{bisect, compare, tell, Backtest, BacktestError, Parameter, EVENTS_TOLERANCE, QUIET_EVENTS_PER_MINUTE};
use crate::engine::{simulate, RunOptions};
use crate::import::{Recorded, RecordedKind};
use crate::model::Dim;
use crate::scenario::{CapacitySpec, Flush, Popularity, PopularityFrom, RateShape, ResourceId, Scenario};

/// Bisection steps to the fit, and to each edge of its interval.
const STEPS: u32 = 9;
const EDGE_STEPS: u32 = 5;
/// Bisection steps at the other seeds (over the whole range: 1/64 of it).
const SEED_STEPS: u32 = 6;
/// Seeds past the run's own at which the chosen value is fitted again.
const OTHER_SEEDS: u64 = 2;
/// Warm throughput tried, units a second: from a new table's (which it never goes below) to
/// this.
const WARM_LEAST: [u64; 2] = [crate::limits::ON_DEMAND_DEFAULT_WARM_READ, crate::limits::ON_DEMAND_DEFAULT_WARM_WRITE];
const WARM_MOST: f64 = 400_000.0;
/// Seconds between flushes tried when the scenario states none: CloudWatch's minute, and half.
const FLUSH_EVERY: [u64; 2] = [60, 30];

/// A cause of throttle events: its parameter's path, range, and the scenario at a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Cause {
    /// A Zipf exponent over the key space.
    Zipf,
    /// A hot set of this many keys.
    HotKey(u64),
    /// Flushes every so many seconds, the value their peak over the mean.
    Flush(u64),
    /// An on-demand table's warm throughput at the window's start in one dimension (its
    /// previous peak, doubled), fitted as minus its logarithm: the events rise as it falls.
    Warm(Dim),
}

impl Cause {
    fn range(self) -> (f64, f64) {
        match self {
            Cause::Zipf => (0.0, 2.5),
            Cause::HotKey(_) => (0.0, 1.0),
            Cause::Flush(every) => (1.0, every as f64),
            Cause::Warm(d) => (-WARM_MOST.ln(), -(WARM_LEAST[d as usize] as f64).ln()),
        }
    }

    /// The value as a person reads it (warm throughput in units a second).
    fn shown(self, x: f64) -> f64 {
        match self {
            Cause::Warm(_) => (-x).exp().round(),
            _ => x,
        }
    }

    /// The flushes of peak `x` over the mean, every `every` seconds (none at 1).
    fn flush(every: u64, x: f64) -> Option<Flush> {
        let for_s = (every as f64 / x.max(1.0)).round().clamp(1.0, every as f64) as u64;
        (for_s < every).then_some(Flush { every_s: every, for_s })
    }

    /// The value as the scenario can hold it (a flush lasts whole seconds).
    fn held(self, x: f64) -> f64 {
        match self {
            Cause::Flush(every) => Self::flush(every, x).map_or(1.0, Flush::peak),
            Cause::Warm(d) => -self.shown(x).max(WARM_LEAST[d as usize] as f64).ln(),
            _ => x,
        }
    }

    fn apply(self, sc: &mut Scenario, ks: usize, x: f64) {
        match self {
            Cause::Zipf => sc.key_spaces[ks].popularity = Popularity::Zipf(x),
            Cause::HotKey(keys) => sc.key_spaces[ks].popularity = Popularity::Hot { keys, share: x },
            Cause::Flush(every) => sc.client.flush = Self::flush(every, x),
            Cause::Warm(d) => {
                if let CapacitySpec::OnDemand { warm_read, warm_write, .. } = &mut sc.table.capacity {
                    *[warm_read, warm_write][d as usize] = self.shown(x) as u64;
                }
            }
        }
    }

    /// The edits that write value `x`, and the popularity line if it is a skew.
    fn edits(self, sc: &Scenario, key: &str, x: f64) -> (Vec<Edit>, Option<String>) {
        let pop = match self {
            Cause::Warm(_) => {
                let mut s = sc.clone();
                self.apply(&mut s, 0, x);
                let CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, .. } = s.table.capacity else {
                    return (Vec::new(), None);
                };
                let mut value = format!("{{ mode = \"on_demand\", warm_read = {warm_read}, warm_write = {warm_write}");
                for (k, m) in [("max_read", max_read), ("max_write", max_write)] {
                    if let Some(m) = m {
                        value.push_str(&format!(", {k} = {m}"));
                    }
                }
                value.push_str(" }");
                return (vec![Edit { section: Section::Table, key: "capacity", value }], None);
            }
            Cause::Zipf => format!("{{ zipf = {x:.3} }}"),
            Cause::HotKey(keys) => format!("{{ hot = {{ keys = {keys}, share = {x:.3} }} }}"),
            Cause::Flush(every) => {
                let value =
                    Self::flush(every, x).map_or_else(String::new, |f| format!("{{ every = \"{}s\", for = \"{}s\" }}", f.every_s, f.for_s));
                return (vec![Edit { section: Section::Client, key: "flush", value }], None);
            }
        };
        let edits = vec![
            Edit { section: Section::Key(key.to_string()), key: "popularity", value: pop.clone() },
            Edit { section: Section::Key(key.to_string()), key: "popularity_from", value: "\"calibration\"".into() },
        ];
        (edits, Some(pop))
    }

    pub(super) fn path(self, key: &str) -> String {
        match self {
            Cause::Zipf => format!("keys.{key}.popularity.zipf"),
            Cause::HotKey(_) => format!("keys.{key}.popularity.hot.share"),
            Cause::Flush(_) => "client.flush".into(),
            Cause::Warm(d) => format!("table.capacity.warm_{}", if d == Dim::Read { "read" } else { "write" }),
        }
    }

    /// The parameter of value, low and high `x` (as fitted: a warm throughput's are minus
    /// logarithms), as a person reads it.
    fn parameter(self, key: &str, (value, low, high): (f64, f64, f64), note: String, identified: bool) -> Parameter {
        let (a, b) = (self.shown(low), self.shown(high));
        Parameter { path: self.path(key), value: self.shown(value), low: a.min(b), high: a.max(b), note, identified }
    }

    /// The scenario's own value of this cause, if it has one.
    fn own(self, sc: &Scenario, ks: usize) -> Option<f64> {
        match (self, &sc.key_spaces[ks].popularity) {
            (Cause::Zipf, Popularity::Zipf(s)) => Some(*s),
            (Cause::HotKey(_), Popularity::Hot { share, .. }) => Some(*share),
            (Cause::Flush(_), _) => sc.client.flush.map(Flush::peak),
            (Cause::Warm(d), _) => match sc.table.capacity {
                CapacitySpec::OnDemand { warm_read, warm_write, .. } => Some([warm_read, warm_write][d as usize] as f64),
                CapacitySpec::Provisioned { .. } => None,
            },
            _ => None,
        }
    }
}

/// Whether and how the record throttled a dimension of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Throttled {
    /// Not.
    No,
    /// From a minute whose attempted units were half again the most consumed before it: a
    /// new peak.
    AfterGrowth,
    /// Otherwise.
    Yes,
}

impl Throttled {
    /// Dimension `d` of the table in the record, over the minutes `b` compares.
    pub(super) fn of(b: &Backtest, d: Dim) -> Self {
        let of = |k: RecordedKind| b.series.iter().find(|f| f.id == ResourceId::Table && f.kind == k && f.dim == d);
        let (Some(c), Some(e)) = (of(RecordedKind::Consumed), of(RecordedKind::ThrottleEvents)) else { return Throttled::No };
        let Some(first) = e.per_minute.iter().find(|(_, x, _)| *x >= 60.0 * QUIET_EVENTS_PER_MINUTE) else { return Throttled::No };
        let at = |m: u32| c.per_minute.iter().find(|(k, _, _)| *k == m).map_or(0.0, |x| x.1);
        let before = c.per_minute.iter().filter(|(k, _, _)| *k < first.0).map(|x| x.1).fold(0.0, f64::max);
        if first.0 > 0 && at(first.0) + first.1 > 1.5 * before {
            Throttled::AfterGrowth
        } else {
            Throttled::Yes
        }
    }
}

/// The causes to try for key space `ks` of `sc`: its skews ([`skews`]), an on-demand table's
/// warm throughput in each dimension `throttled`, and the client's flushes (at the period the user's scenario states, `stated`); with `skew = false` (the
/// per-reason metrics put the events on capacity, which no skew moves), the flushes alone.
pub(super) fn causes(sc: &Scenario, ks: usize, skew: bool, stated: Option<Flush>, throttled: [Throttled; 2]) -> Vec<Cause> {
    let mut out = if skew { skews(sc, ks) } else { Vec::new() };
    // An on-demand table throttles where its traffic grows past twice its previous peak: where
    // the record's throttling starts with a new peak, that is the cause, not a key.
    if matches!(sc.table.capacity, CapacitySpec::OnDemand { .. }) {
        let warm: Vec<Cause> = Dim::ALL.into_iter().filter(|d| throttled[*d as usize] != Throttled::No).map(Cause::Warm).collect();
        if Dim::ALL.iter().any(|d| throttled[*d as usize] == Throttled::AfterGrowth) {
            return warm;
        }
        out.extend(warm);
    }
    // The record's minutes cannot tell flushes of 4 s a minute from 2 s every 30: both are
    // tried (the interval spans them), unless the scenario says how often its client flushes.
    // A scenario whose rates already change within the minute states its own shape there.
    match stated {
        Some(f) => out.push(Cause::Flush(f.every_s)),
        None if !sub_minute_shape(sc) => out.extend(FLUSH_EVERY.map(Cause::Flush)),
        None => {}
    }
    out
}

/// Does a pattern of `sc` change its rate within a minute (steps or a spike off the minute)?
fn sub_minute_shape(sc: &Scenario) -> bool {
    sc.patterns.iter().any(|p| match &p.rate {
        RateShape::Steps(steps) => steps.iter().any(|(t, _)| t % 60 != 0),
        RateShape::Spike { at_s, len_s, .. } => at_s % 60 != 0 || len_s % 60 != 0,
        _ => false,
    })
}

/// The skews to try for key space `ks` of `sc`: its own family, or both when it has neither or
/// its family is `import`'s assumption (CloudWatch's totals cannot tell them apart).
pub(super) fn skews(sc: &Scenario, ks: usize) -> Vec<Cause> {
    let assumed = sc.key_spaces[ks].popularity_from == PopularityFrom::Assumption;
    match &sc.key_spaces[ks].popularity {
        Popularity::Zipf(_) if !assumed => vec![Cause::Zipf],
        Popularity::Hot { keys, .. } if !assumed => vec![Cause::HotKey(*keys)],
        _ => vec![Cause::Zipf, Cause::HotKey(1)],
    }
}

/// Where the events are judged: a resource of the table (the table, or a GSI whose key is
/// fitted). A cause is fitted to the resource's throttle events per consumed unit, which the
/// demand's level moves little: the demand is fitted around it, in rounds.
#[derive(Clone, Copy)]
pub(super) struct Judge<'a> {
    pub(super) rec: &'a Recorded,
    pub(super) res: ResourceId,
    /// Recorded throttle events per consumed unit of the resource.
    pub(super) target: f64,
    /// Recorded throttle events a minute below which the resource is quiet, per consumed unit.
    pub(super) quiet: f64,
}

impl<'a> Judge<'a> {
    /// The judge of resource `res` in backtest `b` of `rec`; `None` when it consumed nothing.
    pub(super) fn of(rec: &'a Recorded, res: ResourceId, b: &Backtest) -> Option<Self> {
        let (events, consumed) = totals(b, res, |f| f.recorded);
        (consumed > 0.0).then(|| Judge {
            rec,
            res,
            target: events / consumed,
            quiet: QUIET_EVENTS_PER_MINUTE * b.minutes as f64 / consumed,
        })
    }
}

/// Resource `res`'s throttle events and consumed units in backtest `b`, recorded or simulated.
fn totals(b: &Backtest, res: ResourceId, v: impl Fn(&super::SeriesFit) -> f64) -> (f64, f64) {
    let of = |k: fn(RecordedKind) -> bool| b.series.iter().filter(|f| f.id == res && k(f.kind)).map(&v).sum::<f64>();
    (of(|k| k == RecordedKind::ThrottleEvents), of(|k| k == RecordedKind::Consumed))
}

/// The simulated throttle events per consumed unit of the judged resource, and how far the
/// consumed units of the table and that resource are from the record (|simulated − recorded|
/// over recorded).
fn judged(sc: &Scenario, j: &Judge, opts: &RunOptions) -> Result<(f64, f64), BacktestError> {
    let b: Backtest = compare(sc, &simulate(sc, opts), j.rec)?;
    let (events, consumed) = totals(&b, j.res, |f| f.simulated);
    let (sim, rec) = b
        .series
        .iter()
        .filter(|f| (f.id == ResourceId::Table || f.id == j.res) && f.kind == RecordedKind::Consumed)
        .fold((0.0, 0.0), |(a, b), f| (a + f.simulated, b + f.recorded));
    let ratio = if consumed > 0.0 {
        events / consumed
    } else if events > 0.0 {
        f64::MAX
    } else {
        0.0
    };
    // When the events fall matters too: growth throttles after a step, a hot key throughout.
    let (mut off, mut all) = (0.0, 0.0);
    for f in b.series.iter().filter(|f| f.id == j.res && f.kind == RecordedKind::ThrottleEvents) {
        for &(_, x, y) in &f.per_minute {
            off += (x - y).abs();
            all += x;
        }
    }
    let timing = if all > 0.0 { 0.5 * off / all } else { 0.0 };
    Ok((ratio, if rec > 0.0 { (sim - rec).abs() / rec } else { 0.0 } + timing))
}

/// One cause's fit.
struct CauseFit {
    value: f64,
    low: f64,
    high: f64,
    /// Events' and consumed units' relative errors at the value, summed.
    error: f64,
    note: String,
    /// The record pins the value down (else it only bounds it, and the scenario's own value
    /// is kept).
    identified: bool,
}

/// Value `x` of `cause` in key space `ks` of `sc`: the judged events and consumed error.
fn at(cause: Cause, sc: &Scenario, ks: usize, x: f64, j: &Judge, opts: &RunOptions) -> Result<(f64, f64), BacktestError> {
    let mut s = sc.clone();
    cause.apply(&mut s, ks, x);
    let e = judged(&s, j, opts)?;
    tell(opts, || {
        let value = match cause {
            Cause::Flush(every) => Cause::flush(every, x).map_or_else(|| "none".into(), |f| format!("{}s every {}s", f.for_s, f.every_s)),
            _ => format!("{x:.4}"),
        };
        format!(
            "{} = {value}: {:.4} throttle events a consumed unit against {:.4} recorded",
            cause.path(&sc.key_spaces[ks].name),
            e.0,
            j.target
        )
    });
    Ok(e)
}

/// Two fitted values as a person reads them, the lower first, with three decimals.
fn fmt(cause: Cause, a: f64, b: f64) -> (String, String) {
    let (a, b) = (cause.shown(a), cause.shown(b));
    (format!("{:.3}", a.min(b)), format!("{:.3}", a.max(b)))
}

/// One cause's fit, or `None` when even its largest value throttles less than the record.
fn fit_one(cause: Cause, sc: &Scenario, ks: usize, j: &Judge, opts: &RunOptions) -> Result<Option<CauseFit>, BacktestError> {
    let (lo, hi) = cause.range();
    let (target, quiet) = (j.target, j.quiet);
    // A flush's values are whole seconds: a value tried before is not simulated again.
    let seen: std::cell::RefCell<Vec<(f64, (f64, f64))>> = std::cell::RefCell::new(Vec::new());
    let mut f = |x: f64| {
        let x = cause.held(x);
        let known = seen.borrow().iter().find(|(v, _)| *v == x).map(|(_, e)| *e);
        let e = match known {
            Some(e) => e,
            None => {
                let e = at(cause, sc, ks, x, j, opts)?;
                seen.borrow_mut().push((x, e));
                e
            }
        };
        Ok(e.0)
    };
    if target < quiet {
        // Never throttled: any value up to the one that starts throttling fits.
        if f(hi)? < quiet {
            let note = "not identifiable: the history never throttled, and no value in the range throttles".into();
            return Ok(Some(CauseFit { value: lo, low: lo, high: hi, error: 0.0, note, identified: false }));
        }
        let edge = bisect(lo, hi, STEPS, quiet, &mut f)?;
        let note = format!(
            "not identifiable: the history never throttled, so any value from {} to {} fits; the scenario's own value is kept",
            fmt(cause, lo, edge).0,
            fmt(cause, lo, edge).1
        );
        return Ok(Some(CauseFit { value: lo, low: lo, high: edge, error: 0.0, note, identified: false }));
    }
    let top = f(hi)?;
    if top < target * (1.0 - EVENTS_TOLERANCE) {
        return Ok(None);
    }
    let bottom = f(lo)?;
    if bottom >= target * (1.0 - EVENTS_TOLERANCE) {
        // No value at all throttles as much: the events come from the capacity, and any value
        // up to the one that throttles too much fits.
        let high = if top <= target * (1.0 + EVENTS_TOLERANCE) {
            hi
        } else {
            bisect(lo, hi, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE), &mut f)?
        };
        let note = format!(
            "not identifiable: at its least the resource already throttles {bottom:.4} times a consumed unit against {target:.4} recorded (its capacity throttles it), so any value from {} to {} fits; the scenario's own value is kept",
            fmt(cause, lo, high).0,
            fmt(cause, lo, high).1
        );
        return Ok(Some(CauseFit { value: lo, low: lo, high, error: (bottom - target).abs() / target, note, identified: false }));
    }
    let (x, got) = nearest(cause, bisect(lo, hi, STEPS, target, &mut f)?, target, &mut f)?;
    // The consumed error at the value chosen (a flush's nearest tries two lengths: the last
    // simulated is not always the one kept).
    let at_x = seen.borrow().iter().find(|(v, _)| *v == cause.held(x)).map_or(0.0, |(_, e)| e.1);
    let low = cause.held(bisect(lo, x, EDGE_STEPS, target * (1.0 - EVENTS_TOLERANCE), &mut f)?);
    let high = if top <= target * (1.0 + EVENTS_TOLERANCE) {
        hi
    } else {
        cause.held(bisect(x, hi, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE), &mut f)?)
    };
    let events_error = (got - target).abs() / target;
    // The causes are told apart by what else they move: the consumed units at the fit.
    let error = events_error + at_x;
    if events_error > EVENTS_TOLERANCE {
        // The events jump past the record (a split for heat that a hotter key no longer gets,
        // say): no value of this cause throttles as the resource did.
        return Ok(None);
    }
    let note = format!("bisection on the throttle events a consumed unit: {got:.4} simulated against {target:.4} recorded");
    Ok(Some(CauseFit { value: x, low: low.min(x), high: high.max(x), error, note, identified: true }))
}

/// The value the scenario can hold nearest bisection's `x` whose events are closest to
/// `target`: a flush lasts whole seconds, so the two lengths around `x` are tried.
fn nearest(cause: Cause, x: f64, target: f64, f: &mut impl FnMut(f64) -> Result<f64, BacktestError>) -> Result<(f64, f64), BacktestError> {
    let Cause::Flush(every) = cause else { return Ok((x, f(x)?)) };
    let exact = every as f64 / x.max(1.0);
    let mut best: Option<(f64, f64)> = None;
    for for_s in [exact.floor(), exact.ceil()] {
        let v = cause.held(every as f64 / for_s.clamp(1.0, every as f64));
        if best.is_some_and(|b| b.0 == v) {
            continue;
        }
        let got = f(v)?;
        if best.is_none_or(|b| (got - target).abs() < (b.1 - target).abs()) {
            best = Some((v, got));
        }
    }
    Ok(best.expect("two lengths tried"))
}

/// A cause's fit: the parameter, and when it is pinned down the scenario with it, its
/// popularity line (a skew's) and the edits that write it.
pub(super) type Fit = (Parameter, Option<(Scenario, Option<String>, Vec<Edit>)>);

/// How close two skews' fits must be (their summed relative errors) for the record to count
/// as not telling them apart.
const SKEW_TIE: f64 = 0.15;

/// Fits the best of `causes` in key space `ks` of `sc` to the judged resource's recorded
/// throttle events.
pub(super) fn fit(
    sc: &Scenario,
    ks: usize,
    causes: &[Cause],
    j: &Judge,
    opts: &RunOptions,
) -> Result<Option<(Cause, Fit, Vec<Parameter>)>, BacktestError> {
    let key = sc.key_spaces[ks].name.clone();
    // Each cause's bisection is its own simulations: side by side on the cores, gathered in
    // the causes' order (the same fits whatever the thread count).
    use rayon::prelude::*;
    let each: Vec<Option<CauseFit>> = causes.par_iter().map(|&cause| fit_one(cause, sc, ks, j, opts)).collect::<Result<_, _>>()?;
    let mut fits: Vec<(Cause, CauseFit)> = causes.iter().zip(each).filter_map(|(&c, f)| f.map(|f| (c, f))).collect();
    // A fit that pins the value beats one that only bounds it, then the scenario's own cause
    // (whose value is kept when none pins it), then the closer.
    let rank = |f: &CauseFit, c: Cause| (f.identified, !f.identified && c.own(sc, ks).is_some(), -f.error);
    let mut best_at = (0..fits.len()).reduce(|a, b| if rank(&fits[b].1, fits[b].0) > rank(&fits[a].1, fits[a].0) { b } else { a });
    // A hot key and a Zipf exponent that fit alike: CloudWatch's totals cannot tell them
    // apart, and the Zipf is kept, whose heat spreads over many keys that a fix must cure too.
    if let Some(b) = best_at.filter(|&b| matches!(fits[b].0, Cause::HotKey(_)) && fits[b].1.identified) {
        let tie = fits.iter().position(|(c, f)| *c == Cause::Zipf && f.identified && f.error <= fits[b].1.error + SKEW_TIE);
        best_at = tie.or(best_at);
    }
    let also: Vec<Parameter> = fits
        .iter()
        .enumerate()
        .filter(|(i, (c, f))| Some(*i) != best_at && f.identified && !matches!(c, Cause::Flush(_)))
        .map(|(_, (c, f))| {
            let note = format!("also fits, not written: the record does not tell it from the value written; {}", f.note);
            c.parameter(&key, (f.value, f.low, f.high), note, false)
        })
        .collect();
    let best = best_at.map(|i| {
        let (cause, mut fit) = fits.swap_remove(i);
        // The same setting at another period that fits too: the interval spans it.
        for (c, other) in fits.iter().filter(|(c, f)| f.identified && fit.identified && c.path(&key) == cause.path(&key)) {
            fit.low = fit.low.min(other.low);
            fit.high = fit.high.max(other.high);
            if let Cause::Flush(every) = c {
                fit.note.push_str(&format!("; flushes every {every} s fit too, at {:.3}", other.value));
            }
        }
        (cause, fit)
    });
    let Some((cause, CauseFit { value, mut low, mut high, mut note, identified, .. })) = best else { return Ok(None) };
    if !identified {
        let mut p = cause.parameter(&key, (value, low, high), note, false);
        p.value = cause.own(sc, ks).unwrap_or(p.value);
        return Ok(Some((cause, (p, None), also)));
    }
    // Where the hot keys land, and so what throttles, differs by seed: the value again at
    // other seeds, the interval over them all.
    let seed = opts.seed.unwrap_or(sc.seed);
    let (lo, hi) = cause.range();
    // The seeds' bisections side by side, gathered in seed order.
    let others: Vec<f64> = (1..=OTHER_SEEDS)
        .into_par_iter()
        .map(|k| {
            let other = RunOptions { seed: Some(seed.wrapping_add(k)), ..opts.clone() };
            Ok(cause.held(bisect(lo, hi, SEED_STEPS, j.target, &mut |x: f64| Ok(at(cause, sc, ks, x, j, &other)?.0))?))
        })
        .collect::<Result<_, BacktestError>>()?;
    let mut fits = vec![value];
    for x in others {
        fits.push(x);
        low = low.min(x);
        high = high.max(x);
    }
    note.push_str(&format!(
        "; at seeds {seed} to {}: {}",
        seed.wrapping_add(OTHER_SEEDS),
        fits.iter().map(|x| format!("{:.3}", cause.shown(*x))).collect::<Vec<_>>().join(", ")
    ));
    let mut out = sc.clone();
    cause.apply(&mut out, ks, value);
    let (edits, pop) = cause.edits(sc, &key, value);
    Ok(Some((cause, (cause.parameter(&key, (value, low, high), note, true), Some((out, pop, edits))), also)))
}
