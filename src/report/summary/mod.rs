//! `summary.json`: what a run did, typed. The charts, `report.html` and `ddbsim plot` read it
//! back as this struct.

mod requests;
mod resources;
pub mod verdict;

use crate::cost::{bill_of, Bill, Catalog};
use crate::engine::{CapacityEvent, CollectionInfo, HotKey, RunResult};
use crate::scenario::{Action, Scenario, Window};
use crate::study::sustain::OnCredit;
use serde::{Deserialize, Serialize};
use verdict::{Verdict, DEFAULT_MAX_THROTTLE};

use requests::patterns_of;
pub use requests::{
    describe_dax, BulkPutSummary, ClientSummary, ClosedLoopSummary, EngineSummary, LagSummary, LatencySummary, PatternSummary,
    RequestSummary,
};
use resources::resources_of;
pub use resources::{PartitionShare, ReplicaSummary, ResourceSummary, ThrottleSpan};

/// The whole summary.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Summary {
    /// ddbsim version.
    pub ddbsim_version: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario description.
    pub description: String,
    /// Master seed.
    pub seed: u64,
    /// "fast" or "exact".
    pub fidelity: String,
    /// Simulated seconds.
    pub duration_s: u64,
    /// The SDK clients assumed: retries and the retry quota depend on them.
    pub client: ClientSummary,
    /// All patterns together.
    pub requests: RequestSummary,
    /// Per pattern.
    pub patterns: Vec<PatternSummary>,
    /// Table and GSIs.
    pub resources: Vec<ResourceSummary>,
    /// Client-observed latency of successful requests (service time plus backoff), ms.
    pub latency_ms: LatencySummary,
    /// How the engine spent its seconds (fast mode: bulk vs replayed).
    pub engine: EngineSummary,
    /// The bill of the scenario's own capacity mode over the simulated window, extrapolated.
    pub cost: Bill,
    /// Region and date of the price catalog.
    pub prices: String,
    /// Capacity changes, partition splits and refused actions, in time order.
    pub capacity_events: Vec<CapacityEvent>,
    /// The scenario's `[[at]]` timeline: (second, action).
    pub timeline: Vec<(u64, String)>,
    /// The busiest keys.
    pub hot_keys: Vec<HotKey>,
    /// Item collections above 1 GB or with refused writes (LSI tables).
    pub item_collections: Vec<CollectionInfo>,
    /// The DAX cluster in front of the table, if any (its hits never reach the table: the
    /// patterns' offered requests are the misses).
    #[serde(default)]
    pub dax: Option<crate::engine::DaxOutcome>,
    /// The scenario file's text.
    pub scenario_text: String,
    /// The scenario file, as given on the command line (for the commands the verdict suggests).
    #[serde(default)]
    pub scenario_path: String,
    /// UTC instant of the scenario's `start`, seconds since the Unix epoch.
    #[serde(default = "default_start")]
    pub start_unix_s: i64,
    /// Did the design hold, where, when, why, what it cost, what to try next.
    #[serde(default)]
    pub verdict: Verdict,
    /// What validation noted of the scenario the figures rest on: the defaults that are guesses
    /// (an update's index writes) and the warnings (an index no pattern writes), each with its
    /// line and key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenario_notes: Vec<String>,
    /// The share of hours [read, write] a provisioned unit must be held for 1-year reserved
    /// capacity to cost less (at this run's prices): the load-duration chart's line.
    #[serde(default = "default_break_even")]
    pub reserved_break_even: [f64; 2],
    /// What the window stands for (`[scenario] window`).
    #[serde(default)]
    pub window: Window,
    /// The burst credit and GSI absorption the window spent on net: what a held run held on
    /// beyond its capacity (none when it would hold the load sustained).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_credit: Option<OnCredit>,
}

fn default_break_even() -> [f64; 2] {
    let c = crate::cost::Catalog::builtin();
    [c.reserved_break_even(false, 1), c.reserved_break_even(true, 1)]
}

fn default_start() -> i64 {
    crate::scenario::defaults::START_UNIX_S
}

fn action_label(a: &Action) -> String {
    let units = |r: Option<u64>, w: Option<u64>| {
        [r.map(|x| format!("read {x}")), w.map(|x| format!("write {x}"))].into_iter().flatten().collect::<Vec<_>>().join(", ")
    };
    match a {
        Action::SetCapacity { read, write, .. } => format!("set_capacity {}", units(*read, *write)),
        Action::Prewarm { read, write, .. } => format!("prewarm {}", units(*read, *write)),
        Action::SwitchMode { on_demand: true, .. } => "switch_mode on_demand".to_string(),
        Action::SwitchMode { on_demand: false, units: None } => "switch_mode provisioned".to_string(),
        Action::SwitchMode { on_demand: false, units: Some([r, w]) } => format!("switch_mode provisioned read {r}, write {w}"),
        Action::AddGsi(g) => format!("add_gsi #{g}"),
        Action::ScaleRate { factor, .. } => format!("scale_rate x{factor}"),
        Action::SetAutoscaling { changes, .. } => {
            let part = |name: &str, c: &Option<crate::scenario::ScalingChange>| {
                c.map(|c| {
                    let f = [
                        c.min.map(|x| format!("min {x}")),
                        c.max.map(|x| format!("max {x}")),
                        c.target.map(|t| format!("target {:.0}%", t * 100.0)),
                    ];
                    format!("{name} {}", f.into_iter().flatten().collect::<Vec<_>>().join(" "))
                })
            };
            let parts: Vec<String> = [part("read", &changes[0]), part("write", &changes[1])].into_iter().flatten().collect();
            format!("set_autoscaling {}", parts.join(", "))
        }
    }
}

fn share(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        (a as f64 / b as f64 * 1e6).round() / 1e6
    }
}

impl Summary {
    /// Summarises a run of `sc`.
    #[must_use]
    pub fn new(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Self {
        let t = r.totals();
        let patterns = patterns_of(sc, r);
        let total = RequestSummary::of(&t);
        let resources = resources_of(sc, r);
        let h = &r.latency;
        let mut s = Self {
            ddbsim_version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: sc.name.clone(),
            description: sc.description.clone(),
            seed: r.seed,
            fidelity: r.fidelity.to_string(),
            duration_s: r.duration_s,
            client: ClientSummary {
                retry: sc.client.preset.to_string(),
                instances: sc.client.instances,
                max_attempts: sc.client.attempts,
                retry_quota: sc.client.quota,
            },
            requests: total,
            patterns,
            resources,
            latency_ms: LatencySummary::of(h),
            engine: EngineSummary { bulk_seconds: r.bulk_seconds, replayed_seconds: r.replayed_seconds },
            cost: bill_of(sc, r, catalog),
            prices: catalog.label(sc.start_unix_s),
            capacity_events: r.events.clone(),
            timeline: sc
                .actions
                .iter()
                .filter(|a| a.time.as_secs() < r.duration_s)
                .map(|a| (a.time.as_secs(), action_label(&a.action)))
                .collect(),
            hot_keys: r.hot_keys.clone(),
            item_collections: r.item_collections.clone(),
            dax: r.dax.clone(),
            scenario_text: sc.source_text.clone(),
            scenario_path: sc.source_path.display().to_string(),
            start_unix_s: sc.start_unix_s,
            verdict: Verdict::default(),
            scenario_notes: sc.notes.iter().map(|n| n.display(&sc.source_path)).collect(),
            reserved_break_even: [catalog.reserved_break_even(false, 1), catalog.reserved_break_even(true, 1)],
            window: sc.window,
            on_credit: OnCredit::of_run(r),
        };
        s.judge(DEFAULT_MAX_THROTTLE);
        s
    }

    /// Judges the run against `max_throttle` (the throttled share of attempts, and of requests
    /// failed, the design may reach).
    pub fn judge(&mut self, max_throttle: f64) {
        self.verdict = Verdict::of(self, max_throttle);
    }

    /// Pretty JSON with a trailing newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("summary is plain data");
        s.push('\n');
        s
    }
}

/// Serde: leave a zero count out.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(x: &u64) -> bool {
    *x == 0
}

#[cfg(test)]
mod client_line_tests {
    use super::ClientSummary;

    /// The clients line warns about one shared quota only when there are retries and a quota.
    #[test]
    fn the_clients_line_says_what_was_assumed() {
        let one = ClientSummary { retry: "sdk-2026".into(), instances: 1, max_attempts: 4, retry_quota: 500 };
        assert_eq!(
            one.describe(),
            "1 SDK instance (sdk-2026 retries, up to 4 attempts, a 500-token retry quota each) — all traffic shares one quota; set client.instances to your fleet size"
        );
        let fleet = ClientSummary { instances: 40, ..one };
        assert_eq!(fleet.describe(), "40 SDK instances (sdk-2026 retries, up to 4 attempts, a 500-token retry quota each)");
        let none = ClientSummary { retry: "none".into(), instances: 1, max_attempts: 1, retry_quota: 500 };
        assert_eq!(none.describe(), "1 SDK instance (no retries)");
    }
}
