//! `ddbsim diff` on sets of designs — two folders of scenarios, or two revisions of a
//! definition that holds several tables — paired by name: each pair diffed on one seed as
//! [`super::diff`] does, a design only in the head priced as added, one only in the base as
//! removed, and the verdict on the whole: what the change does to the region's bill and
//! whether every design still holds.

use super::{cost_change, diff, guardrail, hold_change, side, CostChange, CostGuardrail, Diff, HoldChange, Side};
use crate::cost::{bill_of, Catalog};
use crate::engine::{simulate, RunOptions};
use crate::scenario::{CostIncrease, Scenario};
use serde::Serialize;

/// One design of a set: its name (the file's, or the table's), the scenario and its prices.
#[derive(Clone, Debug)]
pub struct Design {
    /// What pairs it with its counterpart: a scenario's file name, or an imported table's name.
    pub name: String,
    /// The design.
    pub scenario: Scenario,
    /// Its prices.
    pub catalog: Catalog,
}

/// What the change does to one design.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Change {
    /// In both: the pair's diff.
    Changed {
        /// The design's name.
        name: String,
        /// Base against head.
        diff: Box<Diff>,
    },
    /// Only in the head: its whole cost is the change.
    Added {
        /// The design's name.
        name: String,
        /// Its run.
        head: Box<Side>,
    },
    /// Only in the base: its whole cost is saved.
    Removed {
        /// The design's name.
        name: String,
        /// Its run.
        base: Box<Side>,
    },
}

impl Change {
    /// The design's name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Change::Changed { name, .. } | Change::Added { name, .. } | Change::Removed { name, .. } => name,
        }
    }

    /// Base's and head's cost over their windows, USD (0 on the side without the design).
    #[must_use]
    pub fn window_usd(&self) -> (f64, f64) {
        match self {
            Change::Changed { diff, .. } => (diff.base.window_usd, diff.head.window_usd),
            Change::Added { head, .. } => (0.0, head.window_usd),
            Change::Removed { base, .. } => (base.window_usd, 0.0),
        }
    }

    /// Base's monthly cost and the monthly change, when the design's windows repeat.
    fn monthly(&self) -> Option<(f64, f64)> {
        match self {
            Change::Changed { diff, .. } => diff.base.monthly_usd.zip(diff.monthly_delta_usd),
            Change::Added { head, .. } => head.monthly_usd.map(|m| (0.0, m)),
            Change::Removed { base, .. } => base.monthly_usd.map(|m| (m, -m)),
        }
    }

    /// Whether the design held in the base and holds in the head (`None` on the side
    /// without it).
    #[must_use]
    pub fn holds(&self) -> (Option<bool>, Option<bool>) {
        match self {
            Change::Changed { diff, .. } => (Some(diff.base.holds), Some(diff.head.holds)),
            Change::Added { head, .. } => (None, Some(head.holds)),
            Change::Removed { base, .. } => (Some(base.holds), None),
        }
    }

    /// The pair's own guardrail (its scenarios' `[check] max_cost_increase`) was exceeded.
    fn over_its_guardrail(&self) -> bool {
        matches!(self, Change::Changed { diff, .. } if diff.guardrail.as_ref().is_some_and(|g| g.exceeded))
    }
}

/// The diff of two sets: `diff.json` when a side is a folder or a definition of several tables.
#[derive(Clone, Debug, Serialize)]
pub struct SetDiff {
    /// The seed every run used, when one was given; else each pair ran on its base's seed.
    pub seed: Option<u64>,
    /// The throttle limit every design was judged against.
    pub max_throttle: f64,
    /// Every design, by name.
    pub designs: Vec<Change>,
    /// The base set's cost over its windows, USD.
    pub base_window_usd: f64,
    /// The head set's cost over its windows, USD.
    pub head_window_usd: f64,
    /// Head minus base, USD.
    pub window_delta_usd: f64,
    /// Head minus base a month, USD, when every design's window repeats.
    pub monthly_delta_usd: Option<f64>,
    /// Cheaper, dearer or the same, on the whole.
    pub cost: CostChange,
    /// Whether every design holds, before and after.
    pub holds: HoldChange,
    /// `--max-cost-increase`, on the whole.
    pub guardrail: Option<CostGuardrail>,
    /// A guardrail was exceeded: the whole's, or a pair's own `[check] max_cost_increase`.
    pub over_guardrail: bool,
}

impl SetDiff {
    /// The change in cost as a share of the base set's (`None` when it costs nothing).
    #[must_use]
    pub fn cost_change_share(&self) -> Option<f64> {
        (self.base_window_usd > 0.0).then(|| self.window_delta_usd / self.base_window_usd)
    }
}

/// One design's run alone, priced and judged.
fn alone(d: &Design, opts: &RunOptions, max_throttle: f64) -> Side {
    let r = simulate(&d.scenario, opts);
    side(&d.scenario, &r, &bill_of(&d.scenario, &r, &d.catalog), max_throttle)
}

/// Pairs `base` and `head` by name and diffs each pair (on `opts.seed`, else the base's seed,
/// over the base's window); prices a design only in the head as added and one only in the
/// base as removed (each on its own seed and window unless `opts` sets them); judges the
/// whole's change against `max_cost_increase` and each pair's against its scenarios' own.
/// Designs come out sorted by name.
#[must_use]
pub fn diff_sets(
    base: &[Design],
    head: &[Design],
    opts: &RunOptions,
    max_throttle: f64,
    max_cost_increase: Option<CostIncrease>,
) -> SetDiff {
    let mut names: Vec<&str> = base.iter().chain(head).map(|d| d.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let find = |set: &'_ [Design], n: &str| set.iter().position(|d| d.name == n);
    let designs = crate::study::par_indexed(names.len() as u64, |i| {
        let i = i as usize;
        let name = names[i].to_string();
        match (find(base, names[i]), find(head, names[i])) {
            (Some(b), Some(h)) => {
                let (b, h) = (&base[b], &head[h]);
                Change::Changed { name, diff: Box::new(diff(&b.scenario, &h.scenario, opts, [&b.catalog, &h.catalog], max_throttle, None)) }
            }
            (None, Some(h)) => Change::Added { name, head: Box::new(alone(&head[h], opts, max_throttle)) },
            (Some(b), None) => Change::Removed { name, base: Box::new(alone(&base[b], opts, max_throttle)) },
            (None, None) => unreachable!("every name comes from one of the sets"),
        }
    });
    let (base_window_usd, head_window_usd) = designs.iter().map(Change::window_usd).fold((0.0, 0.0), |(b, h), (x, y)| (b + x, h + y));
    let window_delta_usd = head_window_usd - base_window_usd;
    let monthly: Option<Vec<(f64, f64)>> = designs.iter().map(Change::monthly).collect();
    let monthly = monthly.map(|m| m.iter().fold((0.0, 0.0), |(b, d), (x, y)| (b + x, d + y)));
    let holds = hold_change(designs.iter().all(|c| c.holds().0.unwrap_or(true)), designs.iter().all(|c| c.holds().1.unwrap_or(true)));
    let guardrail = max_cost_increase.map(|limit| guardrail(limit, (base_window_usd, window_delta_usd), monthly));
    let over_guardrail = guardrail.as_ref().is_some_and(|g| g.exceeded) || designs.iter().any(Change::over_its_guardrail);
    SetDiff {
        seed: opts.seed,
        max_throttle,
        base_window_usd,
        head_window_usd,
        window_delta_usd,
        monthly_delta_usd: monthly.map(|m| m.1),
        cost: cost_change(window_delta_usd),
        holds,
        guardrail,
        over_guardrail,
        designs,
    }
}
