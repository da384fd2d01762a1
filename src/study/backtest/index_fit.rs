//! What the history says of a scenario's GSIs: their coverage, from the write units each
//! consumed, and the absorption bound of `gsi_backpressure = "absorb"`, from the write throttle
//! events of the indexes that throttled.
//!
//! Coverage is linear: an index's write units are the table's writes that carry its key
//! times the units of an entry, so the fitted coverage is the scenario's times recorded over
//! simulated units, within `[0, 1]`; its interval is the coverages whose units stay within the
//! units' tolerance. The bound is fitted by bisection (on a log scale, with the same seed) on
//! the indexes' recorded write throttle events: a larger bound holds the table back later, so
//! fewer events.

use super::edit::{Edit, Section};
use super::{compare, Backtest, BacktestError, Parameter, EVENTS_TOLERANCE, QUIET_EVENTS_PER_MINUTE, UNITS_TOLERANCE};
use crate::engine::{simulate, RunOptions};
use crate::import::{Recorded, RecordedKind};
use crate::limits::MAX_CAPACITY_UNITS;
use crate::model::Dim;
use crate::scenario::{GsiBackpressure, ResourceId, ResourceKind, Scenario};

/// Bisection steps of the bound (on its logarithm), and of each edge of its interval.
const STEPS: u32 = 10;
const EDGE_STEPS: u32 = 6;
/// The bound's search range, write units an index partition may owe.
const BOUND_RANGE: (f64, f64) = (100.0, 10_000_000.0);

/// The coverage of each GSI whose recorded write units, relative to the table's, differ from
/// the simulation's beyond the units' tolerance: the scenario with them, the parameters and
/// the edits.
pub(super) fn coverage(sc: &Scenario, before: &Backtest) -> (Scenario, Vec<Parameter>, Vec<Edit>) {
    let mut out = sc.clone();
    let (mut params, mut edits) = (Vec::new(), Vec::new());
    let table_writes = before
        .series
        .iter()
        .find(|f| f.id == ResourceId::Table && f.kind == RecordedKind::Consumed && f.dim == Dim::Write)
        .filter(|f| f.recorded > 0.0 && f.simulated > 0.0)
        .map_or(1.0, |f| f.recorded / f.simulated);
    for (g, gsi) in sc.gsis.iter().enumerate() {
        let Some(f) = before.series.iter().find(|f| f.id == ResourceId::gsi(g) && f.kind == RecordedKind::Consumed && f.dim == Dim::Write)
        else {
            continue;
        };
        let path = format!("gsi.{}.coverage", gsi.name);
        if f.simulated <= 0.0 {
            if f.recorded > 0.0 {
                params.push(Parameter {
                    path,
                    value: gsi.coverage,
                    low: 0.0,
                    high: 1.0,
                    note: "not identifiable: no pattern of the scenario writes this index, so no coverage moves its write units".into(),
                    identified: false,
                });
            }
            continue;
        }
        // What the index was asked to write: its consumed units and its throttled attempts
        // (an entry of a unit each), so an index whose writes throttle is not taken for a
        // sparse one.
        let events =
            before.series.iter().find(|e| e.id == ResourceId::gsi(g) && e.kind == RecordedKind::ThrottleEvents && e.dim == Dim::Write);
        let (rec_e, sim_e) = events.map_or((0.0, 0.0), |e| (e.recorded, e.simulated));
        // Relative to the table's own writes: what reaches an index is what the table wrote,
        // so a table that throttles less in the simulation than it did (a skew not yet
        // fitted) is not taken for an index that covers fewer items.
        let q = (f.recorded + rec_e) / (f.simulated + sim_e) / table_writes;
        if (q - 1.0).abs() <= UNITS_TOLERANCE {
            continue;
        }
        let c = |x: f64| (gsi.coverage * x).clamp(1e-4, 1.0);
        let value = (c(q) * 1e4).round() / 1e4;
        let note = format!(
            "the index's write units and throttled attempts scale with it: {:.0} recorded against {:.0} simulated at {}, with the table's write units {:.3}x the simulation's",
            f.recorded + rec_e,
            f.simulated + sim_e,
            gsi.coverage,
            table_writes
        );
        params.push(Parameter {
            path,
            value,
            low: c(q / (1.0 + UNITS_TOLERANCE)),
            high: c(q / (1.0 - UNITS_TOLERANCE)),
            note,
            identified: true,
        });
        out.gsis[g].coverage = value;
        edits.push(Edit { section: Section::Gsi(gsi.name.clone()), key: "coverage", value: format!("{value}") });
    }
    (out, params, edits)
}

/// The recorded and simulated write throttle events of the GSIs, over the minutes compared.
fn index_events(b: &Backtest) -> (f64, f64) {
    b.series
        .iter()
        .filter(|f| f.kind == RecordedKind::ThrottleEvents && f.dim == Dim::Write && f.id.kind() == ResourceKind::Gsi)
        .fold((0.0, 0.0), |(r, s), f| (r + f.recorded, s + f.simulated))
}

/// The scenario with absorption bound `b`.
fn with_bound(sc: &Scenario, b: f64) -> Scenario {
    let mut s = sc.clone();
    s.table.gsi_backpressure = GsiBackpressure::Absorb { bound_units: (b.round() as u64).clamp(1, MAX_CAPACITY_UNITS) };
    s
}

/// A fitted absorption bound: the parameter, and the scenario and edit that set it (none when
/// the history does not move it).
pub(super) struct BoundFit {
    pub(super) param: Parameter,
    pub(super) apply: Option<(Scenario, Edit)>,
}

/// The absorption bound, when the scenario absorbs, the history records its GSIs' write
/// throttle events, and the simulation's differ from them beyond the events' tolerance.
///
/// # Errors
/// As [`compare`].
pub(super) fn absorb_bound(sc: &Scenario, rec: &Recorded, opts: &RunOptions, before: &Backtest) -> Result<Option<BoundFit>, BacktestError> {
    let GsiBackpressure::Absorb { bound_units } = sc.table.gsi_backpressure else { return Ok(None) };
    let has_series = rec.series.iter().any(|s| s.index.is_some() && s.kind == RecordedKind::ThrottleEvents && s.dim == Dim::Write);
    if !has_series || sc.gsis.is_empty() {
        return Ok(None);
    }
    let (target, now) = index_events(before);
    let quiet = QUIET_EVENTS_PER_MINUTE * before.minutes as f64;
    let fits = |x: f64| (x < quiet && target < quiet) || (target > 0.0 && (x / target - 1.0).abs() <= EVENTS_TOLERANCE);
    if fits(now) {
        return Ok(None);
    }
    // Events at bound `b` (decreasing in it), by simulation with the same seed.
    let events = |b: f64| -> Result<f64, BacktestError> {
        let s = with_bound(sc, b);
        Ok(index_events(&compare(&s, &simulate(&s, opts), rec)?).1)
    };
    let (lo, hi) = (BOUND_RANGE.0.ln(), BOUND_RANGE.1.ln());
    // The log-bound where the events fall to `goal`.
    let bisect = |mut a: f64, mut z: f64, steps: u32, goal: f64| -> Result<f64, BacktestError> {
        for _ in 0..steps {
            let mid = 0.5 * (a + z);
            if events(mid.exp())? > goal {
                a = mid;
            } else {
                z = mid;
            }
        }
        Ok(0.5 * (a + z))
    };
    let param = |value: f64, low: f64, high: f64, note: String, identified: bool| Parameter {
        path: "table.gsi_absorb_bound".into(),
        value,
        low,
        high,
        note,
        identified,
    };
    let set = |v: f64| Some((with_bound(sc, v), Edit { section: Section::Table, key: "gsi_absorb_bound", value: format!("{v:.0}") }));
    if target < quiet {
        // The indexes never throttled: any bound at least the one that keeps them quiet fits.
        let at_least = bisect(lo, hi, STEPS, quiet)?.exp().round();
        let value = at_least.max(bound_units as f64);
        let note = format!(
            "not identifiable from above: the indexes never throttled, and a bound of at least {at_least:.0} write units keeps them quiet; {value:.0} is written"
        );
        return Ok(Some(BoundFit { param: param(value, at_least, BOUND_RANGE.1, note, false), apply: set(value) }));
    }
    let (top, bottom) = (events(BOUND_RANGE.0)?, events(BOUND_RANGE.1)?);
    if top < target * (1.0 - EVENTS_TOLERANCE) || bottom > target * (1.0 + EVENTS_TOLERANCE) {
        let note = format!(
            "not identifiable: bounds from {:.0} to {:.0} give {top:.0} to {bottom:.0} index write throttle events against {target:.0} recorded (a cause the bound does not move); the scenario's bound is kept",
            BOUND_RANGE.0, BOUND_RANGE.1
        );
        return Ok(Some(BoundFit { param: param(bound_units as f64, BOUND_RANGE.0, BOUND_RANGE.1, note, false), apply: None }));
    }
    let x = bisect(lo, hi, STEPS, target)?;
    let value = x.exp().round();
    let got = events(value)?;
    let low = bisect(lo, x, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE))?.exp().round();
    let high = bisect(x, hi, EDGE_STEPS, target * (1.0 - EVENTS_TOLERANCE))?.exp().round();
    let note = format!("bisection on the GSIs' write throttle events: {got:.0} simulated against {target:.0} recorded");
    Ok(Some(BoundFit { param: param(value, low, high, note, true), apply: set(value) }))
}
