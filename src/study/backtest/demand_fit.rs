//! `backtest --calibrate` of the demand itself: per minute, the first attempts that reproduce
//! what the history recorded. CloudWatch records consumed units and throttle events, and a
//! throttle event is one throttled *attempt*: a request throttled and retried three times is
//! three events and, if the fourth attempt succeeds, one request's units consumed. The import
//! can only estimate the demand from those totals (its formula assumes a client); here it is
//! fitted through the scenario's own client (its retries, backoff, retry quota and fleet) by a
//! per-minute fixed point: each minute's attempted units — consumed plus throttled, the same
//! sum on both sides — are simulated and the minute's first attempts scaled by recorded over
//! simulated, until the two agree. Retries are then the client's, simulated, never demand.
//!
//! A group is the patterns one recorded series pair judges: the table's reads, the table's
//! writes, a GSI's reads. Their rates become per-minute traces (each pattern keeps its share of
//! the group); a pattern whose rate is not a per-minute trace or a constant keeps its shape.

use super::edit::{quoted, Edit, Section};
use super::{overlap, tell, BacktestError};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::import::{trace_csv, Recorded, RecordedKind};
use crate::model::Dim;
use crate::scenario::{IndexRef, RateShape, ResourceId, Scenario};
use serde::Serialize;

/// Fixed-point iterations at most.
const MAX_ITERATIONS: usize = 8;
/// Stop when the attempted units of every group are within this share of the record, overall.
const CONVERGED: f64 = 0.01;
/// The most one iteration scales a minute's demand by (and the least, its inverse).
const MAX_STEP: f64 = 4.0;

/// One group's fitted demand: `demand` in `calibration` of `backtest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct DemandLine {
    /// Table or GSI name.
    pub resource: String,
    /// `read` or `write`.
    pub dimension: &'static str,
    /// The patterns whose rates were fitted.
    pub patterns: Vec<String>,
    /// First attempts, requests a second on average over the minutes compared, before the fit
    /// (the scenario's, as imported).
    pub before: f64,
    /// The same after the fit.
    pub after: f64,
    /// Recorded attempted units (consumed plus throttle events times units an attempt) over
    /// the minutes compared.
    pub recorded_attempts: f64,
    /// Simulated attempted units after the fit.
    pub simulated_attempts: f64,
    /// Fixed-point iterations run.
    pub iterations: usize,
}

/// The patterns of one group and the recorded series that judge them.
struct Group {
    res: ResourceId,
    dim: Dim,
    patterns: Vec<usize>,
    /// Recorded consumed and throttle events a second, per compared minute (`None`: no
    /// datapoint).
    consumed: Vec<Option<f64>>,
    events: Vec<Option<f64>>,
    /// Other resources whose throttle events are this group's requests throttled: the GSIs,
    /// for the table's writes (a write an index throttles is rejected, its event the index's).
    also: Vec<ResourceId>,
}

/// The fitted demand: the scenario with it, the lines, the edits and trace files that write it.
pub(super) struct DemandFit {
    pub(super) scenario: Scenario,
    pub(super) lines: Vec<DemandLine>,
    pub(super) edits: Vec<Edit>,
    /// (file name beside the scenario, CSV).
    pub(super) traces: Vec<(String, String)>,
}

/// The per-minute base rate of pattern `j` (requests a second), when its shape is one: a
/// constant, or steps on whole minutes (an imported trace).
fn per_minute(sc: &Scenario, j: usize, minutes: usize) -> Option<Vec<f64>> {
    let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
    match &sc.patterns[j].rate {
        RateShape::Constant(r) => Some(vec![*r; minutes]),
        RateShape::Steps(s) if s.iter().all(|(t, _)| t % 60 == 0) => {
            Some((0..minutes).map(|m| sc.patterns[j].rate.at(m as u64 * 60, sod)).collect())
        }
        _ => None,
    }
}

/// The groups of `sc` the record has consumed units of.
fn groups(sc: &Scenario, rec: &Recorded, rec0: usize, n: usize) -> Vec<Group> {
    let mut out = Vec::new();
    let series = |kind: RecordedKind, dim: Dim, index: Option<&str>| {
        rec.series
            .iter()
            .find(|s| s.kind == kind && s.dim == dim && s.index.as_deref() == index)
            .map(|s| (0..n).map(|k| s.values.get(rec0 + k).copied().flatten()).collect::<Vec<_>>())
    };
    let mut add = |res: ResourceId, dim: Dim, patterns: Vec<usize>| {
        let index = match res {
            ResourceId::Table => None,
            r => sc.gsis.get(r.gsi_number()?).map(|g| g.name.as_str()),
        };
        let consumed = series(RecordedKind::Consumed, dim, index)?;
        let mut events = series(RecordedKind::ThrottleEvents, dim, index).unwrap_or_else(|| vec![Some(0.0); n]);
        let mut also = Vec::new();
        if res == ResourceId::Table && dim == Dim::Write {
            for (g, gsi) in sc.gsis.iter().enumerate() {
                let Some(more) = series(RecordedKind::ThrottleEvents, Dim::Write, Some(&gsi.name)) else { continue };
                also.push(ResourceId::gsi(g));
                for (e, m) in events.iter_mut().zip(more) {
                    *e = Some(e.unwrap_or(0.0) + m.unwrap_or(0.0));
                }
            }
        }
        (!patterns.is_empty()).then(|| out.push(Group { res, dim, patterns, consumed, events, also }))
    };
    let of = |want: &dyn Fn(&crate::scenario::PatternSpec) -> bool| -> Vec<usize> {
        sc.patterns.iter().enumerate().filter(|(_, p)| p.replica.is_none() && p.bulk.is_none() && want(p)).map(|(j, _)| j).collect()
    };
    add(ResourceId::Table, Dim::Read, of(&|p| !p.op.is_write() && p.index.is_none()));
    add(ResourceId::Table, Dim::Write, of(&|p| p.op.is_write()));
    for g in 0..sc.gsis.len() {
        add(ResourceId::gsi(g), Dim::Read, of(&|p| !p.op.is_write() && p.index == Some(IndexRef::Gsi(g))));
    }
    out
}

/// A group's simulated minute `m`: (consumed, throttle events, attempted units), its other
/// resources' throttle events included.
fn simulated(r: &RunResult, g: &Group, m: usize) -> (f64, f64, f64) {
    let (c, mut e, a) = one(r, g.res, g.dim, m);
    for &res in &g.also {
        e += one(r, res, g.dim, m).1;
    }
    (c, e, a)
}

/// A resource's simulated minute `m`: (consumed, throttle events, attempted units).
fn one(r: &RunResult, res: ResourceId, dim: Dim, m: usize) -> (f64, f64, f64) {
    let Some(x) = r.resources.iter().find(|x| x.id == res).and_then(|x| x.minutes.get(m)) else { return (0.0, 0.0, 0.0) };
    let i = dim as usize;
    (x.consumed[i] as f64 / 1_000.0, x.events(dim) as f64, x.requested[i] as f64 / 1_000.0)
}

/// Units one throttled attempt of the group asks for in run `r`: what its attempts asked for
/// beyond what they consumed, over its events; without events, what a success consumed.
fn units_per_attempt(r: &RunResult, g: &Group, sim0: usize, n: usize) -> f64 {
    let (mut c, mut e, mut a) = (0.0, 0.0, 0.0);
    for k in 0..n {
        let (ck, ek, ak) = simulated(r, g, sim0 + k);
        c += ck;
        e += ek;
        a += ak;
    }
    if e > 0.0 && a > c {
        return (a - c) / e;
    }
    let ok: u64 = r.resources.iter().find(|x| x.id == g.res).map_or(0, |x| {
        x.minutes
            .iter()
            .map(|m| {
                crate::scenario::Op::ALL.iter().filter(|o| o.is_write() == (g.dim == Dim::Write)).map(|o| m.op_ok[*o as usize]).sum::<u64>()
            })
            .sum()
    });
    if ok > 0 && c > 0.0 {
        c / ok as f64
    } else {
        1.0
    }
}

/// Fits the first attempts of every group of `sc` to the record: `None` when there is nothing
/// to fit (no group, or no pattern with a per-minute rate) or the fit does not improve on the
/// scenario's own demand.
///
/// # Errors
/// [`BacktestError`] when the windows do not overlap.
pub(super) fn fit(sc: &Scenario, rec: &Recorded, opts: &RunOptions) -> Result<Option<DemandFit>, BacktestError> {
    let (rec0, sim0, n) = overlap(sc, rec)?;
    let minutes = (sc.duration.as_secs() / 60) as usize;
    let mut gs = groups(sc, rec, rec0, n);
    gs.retain_mut(|g| {
        g.patterns.retain(|&j| per_minute(sc, j, minutes).is_some());
        !g.patterns.is_empty()
    });
    if gs.is_empty() {
        return Ok(None);
    }
    let base: Vec<Vec<Vec<f64>>> =
        gs.iter().map(|g| g.patterns.iter().map(|&j| per_minute(sc, j, minutes).expect("kept above")).collect()).collect();
    let mut factors = vec![vec![1.0f64; minutes]; gs.len()];
    let mut cur = sc.clone();
    let mut r = simulate(&cur, opts);
    super::stopped(&r)?;
    let first_error = error(&r, &gs, sim0, n);
    let mut iterations = 0;
    let mut best = (first_error.0, factors.clone(), r.clone());
    let mut brackets = vec![vec![(None::<f64>, None::<f64>); minutes]; gs.len()];
    while iterations < MAX_ITERATIONS && best.0 > CONVERGED {
        iterations += 1;
        for (gi, g) in gs.iter().enumerate() {
            let u = units_per_attempt(&r, g, sim0, n);
            for k in 0..n {
                let Some((target, got)) = pair(&r, g, k, sim0, u) else { continue };
                if target == got {
                    continue;
                }
                let m = sim0 + k;
                let f = &mut factors[gi][m];
                let (lo, hi) = &mut brackets[gi][m];
                if got < target {
                    *lo = Some(*f);
                } else {
                    *hi = Some(*f);
                }
                *f = match (*lo, *hi) {
                    // Bracketed: halve it (geometrically), so a minute whose attempts jump at
                    // a threshold settles at it instead of stepping over it back and forth.
                    (Some(a), Some(b)) => (a * b).sqrt(),
                    _ if got > 0.0 => *f * (target / got).clamp(1.0 / MAX_STEP, MAX_STEP),
                    _ => (*f).max(1.0) * MAX_STEP,
                };
            }
        }
        cur = with_factors(sc, &gs, &base, &factors);
        r = simulate(&cur, opts);
        super::stopped(&r)?;
        let e = error(&r, &gs, sim0, n).0;
        tell(opts, || format!("the demand, iteration {iterations}: attempted units {:.1} % from the record", 100.0 * e));
        if e < best.0 {
            best = (e, factors.clone(), r.clone());
        }
    }
    if best.0 >= first_error.0 {
        return Ok(None);
    }
    let (_, factors, r) = best;
    let cur = with_factors(sc, &gs, &base, &factors);
    let stem = sc.source_path.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    let mut out = DemandFit { scenario: cur, lines: Vec::new(), edits: Vec::new(), traces: Vec::new() };
    for (gi, g) in gs.iter().enumerate() {
        if factors[gi].iter().all(|f| *f == 1.0) {
            continue;
        }
        let u = units_per_attempt(&r, g, sim0, n);
        let unit_rate = |rates: &dyn Fn(usize, usize) -> f64| -> f64 {
            let total: f64 = (0..n).map(|k| g.patterns.iter().enumerate().map(|(pi, _)| rates(pi, sim0 + k)).sum::<f64>()).sum();
            total / n as f64
        };
        let before = unit_rate(&|pi, m| base[gi][pi][m]);
        let after = unit_rate(&|pi, m| base[gi][pi][m] * factors[gi][m]);
        let recorded_attempts: f64 = (0..n).filter_map(|k| Some((g.consumed[k]? + g.events[k].unwrap_or(0.0) * u) * 60.0)).sum();
        let simulated_attempts: f64 = (0..n)
            .filter(|&k| g.consumed[k].is_some())
            .map(|k| {
                let (c, e, _) = simulated(&r, g, sim0 + k);
                c + e * u
            })
            .sum();
        let name = |res: ResourceId| res.gsi_number().map_or_else(|| sc.table.name.clone(), |i| sc.gsis[i].name.clone());
        out.lines.push(DemandLine {
            resource: name(g.res),
            dimension: if g.dim == Dim::Read { "read" } else { "write" },
            patterns: g.patterns.iter().map(|&j| sc.patterns[j].name.clone()).collect(),
            before,
            after,
            recorded_attempts,
            simulated_attempts,
            iterations,
        });
        for (pi, &j) in g.patterns.iter().enumerate() {
            let pname = &sc.patterns[j].name;
            let safe: String = pname.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
            let file = format!("{stem}.calibrated-{safe}.csv");
            let rates: Vec<f64> = (0..minutes).map(|m| base[gi][pi][m] * factors[gi][m]).collect();
            out.traces.push((file.clone(), trace_csv(&rates)));
            out.edits.push(Edit {
                section: Section::Pattern(pname.clone()),
                key: "rate",
                value: format!("{{ trace = {} }}", quoted(&file)),
            });
        }
    }
    Ok(Some(out))
}

/// `sc` with each group's patterns at their base rates times the group's factor a minute.
fn with_factors(sc: &Scenario, gs: &[Group], base: &[Vec<Vec<f64>>], factors: &[Vec<f64>]) -> Scenario {
    let mut out = sc.clone();
    for (gi, g) in gs.iter().enumerate() {
        for (pi, &j) in g.patterns.iter().enumerate() {
            let steps = base[gi][pi].iter().zip(&factors[gi]).enumerate().map(|(m, (b, f))| (m as u64 * 60, round3(b * f))).collect();
            out.patterns[j].rate = RateShape::Steps(steps);
        }
    }
    out
}

/// A rate as a trace file keeps it: three decimals.
fn round3(x: f64) -> f64 {
    (x * 1_000.0).round() / 1_000.0
}

/// The overall error of run `r` against the groups: |simulated − recorded| attempted units
/// over the recorded, the largest over the groups, and the groups' errors.
fn error(r: &RunResult, gs: &[Group], sim0: usize, n: usize) -> (f64, Vec<f64>) {
    let each: Vec<f64> = gs
        .iter()
        .map(|g| {
            let u = units_per_attempt(r, g, sim0, n);
            let (mut diff, mut total) = (0.0, 0.0);
            for k in 0..n {
                let Some((target, got)) = pair(r, g, k, sim0, u) else { continue };
                diff += (got - target).abs();
                total += target;
            }
            if total > 0.0 {
                diff / total
            } else {
                0.0
            }
        })
        .collect();
    (each.iter().copied().fold(0.0, f64::max), each)
}

/// Compared minute `k` of group `g` in run `r`: (recorded, simulated) units a minute, each
/// the attempted units (consumed plus throttle events times `u` units an attempt) where the
/// record throttled, else the consumed units (where the record did not throttle, its consumed
/// units are the demand). Where the record throttled and the model does not yet, its attempts
/// are all first attempts: the demand is then at most what the record attempted, until what
/// throttles is fitted and the rounds bring it down. `None` without a recorded datapoint.
fn pair(r: &RunResult, g: &Group, k: usize, sim0: usize, u: f64) -> Option<(f64, f64)> {
    let c = g.consumed[k]? * 60.0;
    let e = g.events[k].unwrap_or(0.0) * 60.0;
    let (sc_, se, _) = simulated(r, g, sim0 + k);
    Some(if e > 0.0 { (c + e * u, sc_ + se * u) } else { (c, sc_) })
}
