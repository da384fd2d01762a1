//! The setting in force: the scenario's own capacity, simulated on the same traffic as the
//! candidates, so a recommendation reads "today $1,007.72 a month, 0 failed → recommended …".

use super::search::{eval, screened};
use super::RecommendOptions;
use crate::cost::Catalog;
use crate::engine::GiveUp;
use crate::scenario::{RateFactors, RateShape, Scenario};
use crate::study::screen::Demand;
use serde::Serialize;
use std::fmt::Write;

/// The scenario's own settings, simulated and billed.
#[derive(Clone, Debug, Default, Serialize)]
#[non_exhaustive]
pub struct Today {
    /// The settings in words.
    pub description: String,
    /// Monthly cost (730 h) at the window's rate, USD, estimated.
    pub monthly_usd: f64,
    /// Monthly cost of read and of write capacity, USD.
    pub by_dimension: [f64; 2],
    /// Throttled attempts over attempts.
    pub throttled_share: f64,
    /// Requests that failed.
    pub failed_requests: u64,
    /// Failed requests over requests.
    pub failed_share: f64,
    /// Within both limits.
    pub holds: bool,
    /// The simulation ran to the window's end. A setting sure to throttle more than the limit
    /// is not simulated further (as the search's candidates are not): its throttled share and
    /// failed requests are then the least it could have ended with, and its cost is the
    /// per-minute screen's estimate of the whole window.
    pub complete: bool,
    /// Seconds simulated (the window's, when complete).
    pub simulated_s: u64,
    /// Its figures are the per-minute screen's estimate (the default search screens its
    /// candidates; `--simulate-all` simulates the setting in force too): no failed requests.
    pub screened: bool,
}

/// Simulates `sc` as it is (its capacity, auto scaling and actions) with the search's options,
/// giving up once sure to throttle more than the limit (as the search does).
pub(super) fn today(sc: &Scenario, o: &RecommendOptions, catalog: &Catalog) -> Today {
    let duration_s = o.run.duration.unwrap_or(sc.duration).as_secs();
    // A screened search screens the setting in force too: one more simulation of the window
    // would double the time of a search that simulates two.
    if let Some(d) = o.screen.then(|| Demand::of(sc, duration_s)).flatten() {
        let e = screened(sc, &d, catalog);
        return Today {
            description: current_setting(sc),
            monthly_usd: e.monthly,
            by_dimension: e.by_dimension,
            throttled_share: e.throttled,
            failed_requests: 0,
            failed_share: 0.0,
            holds: o.holds(&e),
            complete: true,
            simulated_s: 0,
            screened: true,
        };
    }
    let give_up = o.give_up.then(|| pages_bound(sc, duration_s)).flatten().map(|pages| GiveUp {
        max_share: o.max_throttle,
        pages,
        attempts: u64::from(sc.client.attempts),
    });
    let (e, r) = eval(sc, o, catalog, give_up);
    let complete = r.given_up.is_none();
    let (monthly_usd, by_dimension) = match (complete, Demand::of(sc, duration_s)) {
        (false, Some(d)) => {
            let s = screened(sc, &d, catalog);
            (s.monthly, s.by_dimension)
        }
        _ => (e.monthly, e.by_dimension),
    };
    Today {
        description: current_setting(sc),
        monthly_usd,
        by_dimension,
        throttled_share: e.throttled,
        failed_requests: e.failed,
        failed_share: e.failed_share,
        holds: complete && o.holds(&e),
        complete,
        simulated_s: r.duration_s,
        screened: false,
    }
}

/// An upper bound of the pages (first attempts) the whole window sends: each open-loop
/// pattern's expected requests (its shape times its `scale_rate` timeline, times its fan-out)
/// plus six standard deviations and ten. `None` when a pattern is a closed loop or paged (its
/// pages are not known in advance): the run is then not given up.
fn pages_bound(sc: &Scenario, duration_s: u64) -> Option<u64> {
    let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
    let mut total = 0.0;
    for (j, p) in sc.patterns.iter().enumerate() {
        let cp = crate::model::request::CompiledPattern::new(sc, p);
        if matches!(p.rate, RateShape::ClosedLoop(_)) || cp.paged {
            return None;
        }
        let factors = RateFactors::of(sc, j);
        let mean: f64 = (0..duration_s).map(|s| factors.rate(&p.rate, s, sod)).sum::<f64>();
        total += (mean + 6.0 * mean.sqrt() + 10.0) * p.fanout(&sc.key_spaces) as f64;
    }
    Some(total.ceil() as u64)
}

/// The table's own capacity settings in words.
fn current_setting(sc: &Scenario) -> String {
    use crate::scenario::CapacitySpec;
    let mut s = match sc.table.capacity {
        CapacitySpec::OnDemand { .. } => "on-demand".to_string(),
        CapacitySpec::Provisioned { read, write } => format!("provisioned {read} RCU / {write} WCU"),
    };
    if let Some(a) = &sc.table.autoscaling {
        for (d, t) in [("read", &a.read), ("write", &a.write)] {
            if let Some(t) = t {
                let _ = write!(s, ", {d} auto-scaled {}-{} at {:.0} %", t.min, t.max, t.target * 100.0);
            }
        }
    }
    if !sc.gsis.is_empty() {
        let _ = write!(s, " ({} GSI(s) as defined)", sc.gsis.len());
    }
    s
}
