//! `ddbsim diff BASE HEAD`: two designs simulated with one seed, side by side — what a change
//! does to the bill, line by line, to throttling and failed requests, to partitions and to the
//! busiest key — with a verdict first: cheaper or dearer, and whether the design still holds.
//! The review a pull request needs (infracost's pattern, for capacity as well as price).

use crate::cost::{bill_of, Bill, Catalog};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::scenario::{CostIncrease, Scenario};
use serde::Serialize;

pub mod set;

/// A change in cost smaller than this, USD over the window, is no change.
pub const SAME_COST_USD: f64 = 0.005;

/// One side of the diff: the figures of one design's run.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// The scenario's name.
    pub scenario: String,
    /// Cost of the window simulated, USD.
    pub window_usd: f64,
    /// Extrapolated to a 730-hour month, USD, when the scenario's window repeats
    /// (`[pricing] extrapolate = "repeat"`).
    pub monthly_usd: Option<f64>,
    /// Throttled attempts over attempts.
    pub throttled_share: f64,
    /// Requests that failed.
    pub failed: u64,
    /// Failed requests over requests offered.
    pub failed_share: f64,
    /// Both shares within the limit.
    pub holds: bool,
    /// Per resource (table, then GSIs): partitions at the end and throttle events.
    pub resources: Vec<ResourceFigures>,
    /// The busiest key, if any was recorded.
    pub busiest_key: Option<BusiestKey>,
}

/// A resource's figures on one side.
#[derive(Clone, Debug, Serialize)]
pub struct ResourceFigures {
    /// Table or index name.
    pub resource: String,
    /// Partitions at the end of the run.
    pub partitions: u64,
    /// Throttle events, reads and writes.
    pub throttle_events: u64,
}

/// The busiest key of a run.
#[derive(Clone, Debug, Serialize)]
pub struct BusiestKey {
    /// Table or index name.
    pub resource: String,
    /// Key label (`space#rank`).
    pub key: String,
    /// Requests a second it received on average.
    pub requests_per_s: f64,
}

/// One line of the bill on both sides.
#[derive(Clone, Debug, Serialize)]
pub struct LineDelta {
    /// Table or index.
    pub resource: String,
    /// What it charges for (`reads`, `writes`, `storage`, ...).
    pub item: &'static str,
    /// Base cost over the window, USD (0 when the base has no such line).
    pub base_usd: f64,
    /// Head cost over the window, USD.
    pub head_usd: f64,
    /// Head minus base.
    pub delta_usd: f64,
}

/// Whether the change costs more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostChange {
    /// Head costs less.
    Cheaper,
    /// Head costs more.
    Dearer,
    /// Within half a cent over the window.
    Same,
}

/// Whether the design holds before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HoldChange {
    /// Both hold.
    StillHolds,
    /// Base held; head does not.
    NoLongerHolds,
    /// Base did not hold; head does.
    NowHolds,
    /// Neither holds.
    StillFails,
}

/// The cost guardrail (`[check] max_cost_increase`, or `--max-cost-increase`) and how the change
/// stands against it.
#[derive(Clone, Debug, Serialize)]
pub struct CostGuardrail {
    /// The increase allowed, USD (a share already applied to the base's cost).
    pub allowed_usd: f64,
    /// The increase, USD (negative when cheaper).
    pub increase_usd: f64,
    /// The costs compared are a month's (both windows repeat), else the window's.
    pub monthly: bool,
    /// The increase is over the allowance: `ddbsim diff` exits 3.
    pub exceeded: bool,
}

/// The diff: `diff.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// The seed both were run with.
    pub seed: u64,
    /// Seconds simulated (the base's window).
    pub duration_s: u64,
    /// The throttle limit both were judged against.
    pub max_throttle: f64,
    /// The base design.
    pub base: Side,
    /// The head design.
    pub head: Side,
    /// Head minus base over the window, USD.
    pub window_delta_usd: f64,
    /// Head minus base a month, USD, when both windows repeat.
    pub monthly_delta_usd: Option<f64>,
    /// Every line of either bill.
    pub lines: Vec<LineDelta>,
    /// Cheaper, dearer or the same.
    pub cost: CostChange,
    /// Whether it holds, before and after.
    pub holds: HoldChange,
    /// The cost guardrail, when one is set.
    pub guardrail: Option<CostGuardrail>,
    /// What the sides rest on, by side: where an imported revision's capacity came from.
    pub notes: Vec<String>,
}

impl Diff {
    /// Head's change in cost as a share of base's (`None` when base costs nothing).
    #[must_use]
    pub fn cost_change_share(&self) -> Option<f64> {
        (self.base.window_usd > 0.0).then(|| self.window_delta_usd / self.base.window_usd)
    }
}

/// The figures of run `r` of `sc`, and its bill.
fn side(sc: &Scenario, r: &RunResult, bill: &Bill, max_throttle: f64) -> Side {
    let t = r.totals();
    let (throttled_share, failed_share) = (t.throttled_share(), t.failed_share());
    let resources = r
        .resources
        .iter()
        .map(|res| ResourceFigures {
            resource: res.name.clone(),
            partitions: res.minutes.last().map_or(0, |m| m.partitions),
            throttle_events: res.minutes.iter().map(|m| m.events(crate::model::Dim::Read) + m.events(crate::model::Dim::Write)).sum(),
        })
        .collect();
    let busiest_key =
        r.hot_keys.first().map(|k| BusiestKey { resource: k.resource.clone(), key: k.key.clone(), requests_per_s: k.requests_per_s });
    Side {
        scenario: sc.name.clone(),
        window_usd: bill.total_usd,
        monthly_usd: bill.monthly_usd,
        throttled_share,
        failed: t.failed,
        failed_share,
        holds: throttled_share <= max_throttle && failed_share <= max_throttle,
        resources,
        busiest_key,
    }
}

/// Every line of either bill, base's order first, costs summed by resource and item.
fn line_deltas(base: &Bill, head: &Bill) -> Vec<LineDelta> {
    let mut out: Vec<LineDelta> = Vec::new();
    let mut add = |resource: &str, item: &'static str, b: f64, h: f64| {
        if let Some(l) = out.iter_mut().find(|l| l.resource == resource && l.item == item) {
            l.base_usd += b;
            l.head_usd += h;
        } else {
            out.push(LineDelta { resource: resource.to_string(), item, base_usd: b, head_usd: h, delta_usd: 0.0 });
        }
    };
    for l in &base.lines {
        add(&l.resource, l.component.name(), l.cost_usd, 0.0);
    }
    for l in &head.lines {
        add(&l.resource, l.component.name(), 0.0, l.cost_usd);
    }
    for l in &mut out {
        l.delta_usd = l.head_usd - l.base_usd;
    }
    out
}

/// Cheaper, dearer or the same, by the change over the window.
fn cost_change(window_delta_usd: f64) -> CostChange {
    if window_delta_usd.abs() < SAME_COST_USD {
        CostChange::Same
    } else if window_delta_usd < 0.0 {
        CostChange::Cheaper
    } else {
        CostChange::Dearer
    }
}

/// Whether the design holds before and after.
fn hold_change(base: bool, head: bool) -> HoldChange {
    match (base, head) {
        (true, true) => HoldChange::StillHolds,
        (true, false) => HoldChange::NoLongerHolds,
        (false, true) => HoldChange::NowHolds,
        (false, false) => HoldChange::StillFails,
    }
}

/// The change against `limit`: a month's (`monthly`: base's monthly cost and the monthly
/// change) when both sides repeat their window, else the window's (`window`: base's cost and
/// the change).
fn guardrail(limit: CostIncrease, window: (f64, f64), monthly: Option<(f64, f64)>) -> CostGuardrail {
    let ((b, delta), is_monthly) = monthly.map_or((window, false), |m| (m, true));
    let allowed_usd = limit.allowed_usd(b);
    CostGuardrail { allowed_usd, increase_usd: delta, monthly: is_monthly, exceeded: delta > allowed_usd + 1e-9 }
}

/// Simulates `base` and `head` with `opts` (one seed: `opts.seed`, else base's) over base's
/// window, prices each with its catalog (`catalogs`: base's, head's; a change of region
/// changes prices), and judges both against `max_throttle` and the change against
/// `max_cost_increase` (else head's `[check] max_cost_increase`, else base's).
#[must_use]
pub fn diff(
    base: &Scenario,
    head: &Scenario,
    opts: &RunOptions,
    catalogs: [&Catalog; 2],
    max_throttle: f64,
    max_cost_increase: Option<CostIncrease>,
) -> Diff {
    let seed = opts.seed.unwrap_or(base.seed);
    let duration = opts.duration.unwrap_or(base.duration);
    let run = RunOptions { seed: Some(seed), duration: Some(duration), ..opts.clone() };
    let mut runs = super::par_indexed(2, |i| simulate(if i == 0 { base } else { head }, &run));
    let rh = runs.pop().expect("two runs");
    let rb = runs.pop().expect("two runs");
    let (bb, bh) = (bill_of(base, &rb, catalogs[0]), bill_of(head, &rh, catalogs[1]));
    let (sb, sh) = (side(base, &rb, &bb, max_throttle), side(head, &rh, &bh, max_throttle));
    let window_delta_usd = sh.window_usd - sb.window_usd;
    let monthly_delta_usd = sb.monthly_usd.zip(sh.monthly_usd).map(|(b, h)| h - b);
    let cost = cost_change(window_delta_usd);
    let holds = hold_change(sb.holds, sh.holds);
    let guardrail = max_cost_increase
        .or(head.check.max_cost_increase)
        .or(base.check.max_cost_increase)
        .map(|limit| guardrail(limit, (sb.window_usd, window_delta_usd), sb.monthly_usd.zip(monthly_delta_usd)));
    Diff {
        notes: Vec::new(),
        guardrail,
        seed,
        duration_s: duration.as_secs(),
        max_throttle,
        lines: line_deltas(&bb, &bh),
        base: sb,
        head: sh,
        window_delta_usd,
        monthly_delta_usd,
        cost,
        holds,
    }
}
