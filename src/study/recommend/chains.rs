//! The bisection chains of a search: fixed capacity and auto scaling per target (and with
//! daily floors), each a bisection of screened or simulated candidates.

use super::super::compare::provisioned;
use super::super::screen::Demand;
use super::daily::{daily_floors, peak_outside};
use super::kept::{keep, Kept};
use super::search::{autoscaled, bisect, eval, scale, screened, Chain, Eval};
use super::{DailyFloor, RecommendOptions, Settings};
use crate::cost::Catalog;
use crate::engine::GiveUp;
use crate::scenario::Scenario;

/// The bisection chains of one search: what every chain shares.
pub(super) struct Chains<'a> {
    pub(super) sc: &'a Scenario,
    pub(super) o: &'a RecommendOptions,
    pub(super) catalog: &'a Catalog,
    /// The per-minute screen's demand, when screening.
    pub(super) screen: Option<&'a Demand>,
    /// When a simulated candidate may give up.
    pub(super) give_up: Option<GiveUp>,
    /// The scenario with its capacity settings stripped.
    pub(super) base: Scenario,
    /// Demand per resource and minute, units a second.
    pub(super) units: &'a [Vec<[f64; 2]>],
    /// Peak demand per resource.
    pub(super) peak: Vec<[f64; 2]>,
    /// The daily blocks whose load jumps.
    pub(super) blocks: Vec<(u32, u32, Vec<[f64; 2]>)>,
    /// Bisection steps of each chain.
    pub(super) steps: usize,
    /// Simulations planned, for the progress bar (a chain may stop early).
    pub(super) planned: u64,
    /// Simulations done.
    pub(super) done: std::sync::atomic::AtomicU64,
    /// Capacities no candidate goes below (dimensions without history).
    pub(super) kept: Vec<Kept>,
}

impl Chains<'_> {
    /// A candidate's figures: screened, or simulated.
    fn evaluate(&self, s: &Scenario) -> Eval {
        let e = match self.screen {
            Some(d) => screened(s, d, self.catalog),
            None => eval(s, self.o, self.catalog, self.give_up).0,
        };
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(p) = &self.o.run.progress {
            p.runs(n.min(self.planned), self.planned);
        }
        e
    }

    /// The candidates of one chain, in the order tried.
    pub(super) fn run(&self, chain: Chain) -> Vec<(Settings, Eval)> {
        let evals = match chain {
            Chain::Fixed => bisect(0.25, 2.0, self.steps, |k| {
                let mut units = scale(&self.peak, k);
                keep(&mut units, &self.kept);
                let e = self.evaluate(&provisioned(&self.base, &units));
                (self.o.holds(&e), (Settings::Provisioned { units }, e))
            }),
            Chain::Target(target) | Chain::Daily(target) => {
                let at = |p: &[f64; 2]| [p[0] * 100.0 / target, p[1] * 100.0 / target];
                let mut max = scale(&self.peak.iter().map(at).collect::<Vec<_>>(), 4.0);
                keep(&mut max, &self.kept);
                within_quota(&mut max, [self.sc.account.limit(0), self.sc.account.limit(1)]);
                // With daily floors, the base floor carries the load outside them.
                let (need, daily): (Vec<[f64; 2]>, Vec<DailyFloor>) = if matches!(chain, Chain::Daily(_)) {
                    (
                        peak_outside(self.units, self.sc.start_unix_s, &self.blocks).iter().map(at).collect(),
                        daily_floors(&self.blocks, target),
                    )
                } else {
                    (self.peak.iter().map(at).collect(), Vec::new())
                };
                bisect(0.0, 1.0, self.steps, |f| {
                    let mut min = scale(&need, f);
                    keep(&mut min, &self.kept);
                    let e = self.evaluate(&autoscaled(&self.base, target, &min, &max, &daily));
                    (self.o.holds(&e), (Settings::Autoscaling { target, min, max: max.clone(), daily: daily.clone() }, e))
                })
            }
        };
        evals.into_iter().map(|(_, _, x)| x).collect()
    }
}

/// Auto-scaling maxima `max` (per resource, [read, write]) within the table's quota `limit`:
/// a raise past it fails, so a maximum past it is never reached. Where they sum past it, each
/// is cut in proportion.
fn within_quota(max: &mut [[u64; 2]], limit: [u64; 2]) {
    for d in 0..2 {
        let sum: u64 = max.iter().map(|m| m[d]).sum();
        if sum > limit[d] {
            for m in max.iter_mut() {
                m[d] = ((u128::from(m[d]) * u128::from(limit[d]) / u128::from(sum)) as u64).max(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// 30,000 + 20,000 WCU of maxima under a 40,000 quota: 24,000 + 16,000; reads within it
    /// are untouched.
    #[test]
    fn maxima_past_the_quota_are_cut_in_proportion() {
        let mut max = vec![[100, 30_000], [50, 20_000]];
        super::within_quota(&mut max, [40_000, 40_000]);
        assert_eq!(max, vec![[100, 24_000], [50, 16_000]]);
    }
}
