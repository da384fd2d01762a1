//! `backtest --calibrate` of the SDK fleet: how many client instances share the traffic
//! (`[client] instances`). Each instance has its own retry quota (500 tokens, 5 a throttled
//! retry, refilled by successes; spec §9.3), so a larger fleet retries more of a throttling
//! episode's requests before its quotas run dry, and CloudWatch records more throttle events.
//! Only an episode's first seconds depend on the fleet (after them the quotas refill from the
//! successes the instances share, whatever their number), so the record moves with the fleet
//! where the table throttles in short episodes; where it does not, the fleet is said to be not
//! identifiable, with how far the events moved between one instance and the most tried.

use super::edit::{Edit, Section};
use super::{bisect, table_events, BacktestError, Parameter, EVENTS_TOLERANCE};
use crate::engine::RunOptions;
use crate::import::Recorded;
use crate::scenario::Scenario;

/// The largest fleet tried: 2^10 instances.
const MAX_LOG2: f64 = 10.0;
/// Bisection steps on log2 of the fleet to the fit, and to each edge of its interval.
const STEPS: u32 = 8;
const EDGE_STEPS: u32 = 5;
/// Where the parameter is in the scenario.
const PATH: &str = "client.instances";

/// The fleet's fit.
pub(super) enum FleetFit {
    /// Pinned down: the parameter, the scenario with it and the edit that writes it.
    Fitted(Parameter, Box<Scenario>, Edit),
    /// Only bounded: the scenario's own value kept.
    Bounded(Parameter),
    /// Not fitted (the client does not retry, or no fleet throttles as the record did): why.
    Unfitted(String),
}

/// The instances at log2 value `x`.
fn fleet(x: f64) -> u64 {
    (2f64.powf(x).round() as u64).max(1)
}

/// `sc` with `k` client instances.
fn with(sc: &Scenario, k: u64) -> Scenario {
    let mut s = sc.clone();
    s.client.instances = k;
    s
}

/// A parameter the record does not pin down: the scenario's own value kept.
fn kept(sc: &Scenario, low: u64, high: u64, note: String) -> FleetFit {
    let param =
        Parameter { path: PATH.into(), value: sc.client.instances as f64, low: low as f64, high: high as f64, note, identified: false };
    FleetFit::Bounded(param)
}

/// Fits the fleet of `sc` to `target` recorded throttle events of the table.
///
/// # Errors
/// [`BacktestError`] when a simulation cannot be compared with the record.
pub(super) fn instances(sc: &Scenario, rec: &Recorded, opts: &RunOptions, target: f64) -> Result<FleetFit, BacktestError> {
    let top = fleet(MAX_LOG2);
    if sc.client.attempts <= 1 || sc.client.quota == 0 {
        let why = if sc.client.attempts <= 1 { "does not retry" } else { "has no retry quota" };
        return Ok(FleetFit::Unfitted(format!("the client {why}, so the fleet's size does not change what it sends")));
    }
    let mut f = |x: f64| {
        let e = table_events(&with(sc, fleet(x)), rec, opts)?;
        super::tell(opts, || format!("{PATH} = {}: {e:.0} throttle events against {target:.0} recorded", fleet(x)));
        Ok(e)
    };
    let (one, most) = (f(0.0)?, f(MAX_LOG2)?);
    if target < one * (1.0 - EVENTS_TOLERANCE) || target > most * (1.0 + EVENTS_TOLERANCE) {
        let (n, e) = if target < one { ("1 instance throttles", one) } else { ("1024 instances throttle", most) };
        return Ok(FleetFit::Unfitted(format!("no fleet from 1 to {top} instances fits: {n} {e:.0} times against {target:.0} recorded")));
    }
    if most - one < EVENTS_TOLERANCE * target {
        let note = format!(
            "not identifiable: the table's throttle events move only from {one:.0} with 1 instance to {most:.0} with {top} against {target:.0} recorded — each instance's retry quota refills from the successes the fleet shares, so the fleet shows only where the table throttles in short episodes; the scenario's own value is kept"
        );
        return Ok(kept(sc, 1, top, note));
    }
    let x = bisect(0.0, MAX_LOG2, STEPS, target, &mut f)?;
    let k = fleet(x);
    let got = f((k as f64).log2())?;
    let low = if one >= target * (1.0 - EVENTS_TOLERANCE) {
        1
    } else {
        fleet(bisect(0.0, x, EDGE_STEPS, target * (1.0 - EVENTS_TOLERANCE), &mut f)?)
    };
    let high = if most <= target * (1.0 + EVENTS_TOLERANCE) {
        top
    } else {
        fleet(bisect(x, MAX_LOG2, EDGE_STEPS, target * (1.0 + EVENTS_TOLERANCE), &mut f)?)
    };
    if (got - target).abs() > EVENTS_TOLERANCE * target {
        let note = format!(
            "no value fits: the throttle events jump past the record near {k} instances ({got:.0} simulated against {target:.0} recorded)"
        );
        let v = sc.client.instances;
        return Ok(kept(sc, v, v, note));
    }
    let note = format!(
        "bisection on the table's throttle events over 1 to {top} instances: {got:.0} simulated against {target:.0} recorded ({one:.0} with 1 instance, {most:.0} with {top})"
    );
    let param = Parameter { path: PATH.into(), value: k as f64, low: low.min(k) as f64, high: high.max(k) as f64, note, identified: true };
    let edit = Edit { section: Section::Client, key: "instances", value: k.to_string() };
    Ok(FleetFit::Fitted(param, Box::new(with(sc, k)), edit))
}
