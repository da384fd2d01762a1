//! The setting in force: the scenario's own capacity, simulated on the same traffic as the
//! candidates, so a recommendation reads "today $1,007.72 a month, 0 failed → recommended …".

use super::search::eval;
use super::RecommendOptions;
use crate::cost::Catalog;
use crate::model::Dim;
use crate::scenario::Scenario;
use crate::study::sustain::OnCredit;
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
    /// Throttle events of the table and its indexes, as CloudWatch counts them.
    pub throttle_events: u64,
    /// The throttle events of the history the scenario was imported from, when it says.
    pub recorded_throttle_events: Option<u64>,
    /// Requests that failed.
    pub failed_requests: u64,
    /// Failed requests over requests.
    pub failed_share: f64,
    /// Within both limits (and, in a sustained window, without spending burst credit or GSI
    /// absorption on net).
    pub holds: bool,
    /// Within both limits only on the burst credit and GSI absorption it spent (none otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_credit: Option<OnCredit>,
}

/// Simulates `sc` as it is (its capacity, auto scaling and actions) with the search's options,
/// once and to the window's end, whatever the search screens or gives up: what a user is told
/// of the setting in force is what `ddbsim run` would say of it.
pub(super) fn today(sc: &Scenario, o: &RecommendOptions, catalog: &Catalog) -> Today {
    let (e, r) = eval(sc, o, catalog, None);
    let throttle_events = r.resources.iter().flat_map(|x| &x.minutes).map(|m| m.events(Dim::Read) + m.events(Dim::Write)).sum();
    Today {
        description: current_setting(sc),
        monthly_usd: e.monthly,
        by_dimension: e.by_dimension,
        throttled_share: e.throttled,
        throttle_events,
        recorded_throttle_events: sc.recorded_throttle_events,
        failed_requests: e.failed,
        failed_share: e.failed_share,
        holds: o.holds(&e),
        on_credit: if o.within(&e) { e.on_credit } else { None },
    }
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
