//! Many tables: what each table's settings cost now and what `recommend` picks for it, and a
//! random search for comparison.

use super::daily::peaks_in;
use super::search::{autoscaled, eval, give_up, minute_demand, scale};
use super::{recommend, RecommendOptions, Recommendation};
use crate::cost::Catalog;
use crate::scenario::Scenario;
use crate::study::compare::{on_demand, traffic_only};
use crate::study::runner::par_indexed;
use rand::Rng;
use rand::SeedableRng;
use serde::Serialize;

/// One table and dimension of a many-table recommendation: what its settings cost now, what
/// `recommend` picks, and the saving.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TableRow {
    /// Position of the table among all the tables (shards keep it).
    pub index: usize,
    /// Scenario file.
    pub scenario: String,
    /// Table name.
    pub table: String,
    /// `read` or `write`.
    pub dimension: String,
    /// The table's own settings, in words.
    pub current_setting: String,
    /// What they cost a month for this dimension (table and GSIs), USD, estimated.
    pub current_monthly_usd: f64,
    /// Throttled share of attempts under them (whole table).
    pub current_throttled_share: f64,
    /// They hold the traffic (simulated: within the throttle and failure limits).
    pub current_holds: bool,
    /// Mode of the pick (`none`: nothing within the limit).
    pub recommended_mode: String,
    /// The pick, in words.
    pub recommended_setting: String,
    /// What the pick costs a month for this dimension, USD, estimated.
    pub recommended_monthly_usd: Option<f64>,
    /// Current less recommended, USD a month.
    pub saving_usd: Option<f64>,
    /// The saving as a share of the current cost.
    pub saving_share: Option<f64>,
    /// Throttled share of attempts under the pick (whole table).
    pub throttled_share: Option<f64>,
}

/// Recommends for table `index` (scenario file `file`): its own settings simulated and
/// billed, then [`recommend`]; a row per dimension.
#[must_use]
pub fn table_rows(index: usize, file: &str, sc: &Scenario, catalog: &Catalog, o: &RecommendOptions) -> (Recommendation, Vec<TableRow>) {
    let rec = recommend(sc, catalog, o);
    let rows = rows_for(index, file, sc, &rec, rec.pick);
    (rec, rows)
}

/// The rows of table `index` (scenario file `file`) with candidate `pick` of `rec` as its
/// pick (an account's fit may move it from `rec`'s own).
#[must_use]
pub fn rows_for(index: usize, file: &str, sc: &Scenario, rec: &Recommendation, pick: Option<usize>) -> Vec<TableRow> {
    let now = &rec.today;
    let pick = pick.map(|i| &rec.candidates[i]);
    ["read", "write"]
        .iter()
        .enumerate()
        .map(|(d, dim)| {
            let cost = pick.map(|c| c.by_dimension[d]);
            let current = now.by_dimension[d];
            TableRow {
                index,
                scenario: file.to_string(),
                table: sc.table.name.clone(),
                dimension: (*dim).to_string(),
                current_setting: now.description.clone(),
                current_monthly_usd: current,
                current_throttled_share: now.throttled_share,
                current_holds: now.holds,
                recommended_mode: pick.map_or("none", |c| c.settings.mode().name()).to_string(),
                recommended_setting: pick.map_or_else(|| "nothing within the limit".to_string(), |c| c.description.clone()),
                recommended_monthly_usd: cost,
                saving_usd: cost.map(|c| current - c),
                saving_share: cost.filter(|_| current > 0.0).map(|c| (current - c) / current),
                throttled_share: pick.map(|c| c.throttled_share),
            }
        })
        .collect()
}

/// The baseline `recommend` is measured against: `n` auto-scaling settings drawn at random
/// (target 20-90 %, floor 0-1 and ceiling 1-4 times the peak's need, as the community
/// simulator searches), each simulated; the cheapest monthly cost within the limit, if any.
#[must_use]
pub fn random_search(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions, n: u64, seed: u64) -> Option<f64> {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let (_, r_od) = eval(&on_demand(sc), o, &catalog, None);
    let peak = peaks_in(&minute_demand(&r_od), |_| true);
    let give_up = give_up(sc, o, &r_od);
    let base = traffic_only(sc);
    let mut rng = crate::rng::SimRng::seed_from_u64(seed);
    let draws: Vec<(f64, f64, f64)> =
        (0..n).map(|_| (rng.random_range(20.0..=90.0), rng.random_range(0.0..=1.0), rng.random_range(1.0..=4.0))).collect();
    let costs = par_indexed(n, |i| {
        let (target, f, m) = draws[i as usize];
        let need: Vec<[f64; 2]> = peak.iter().map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target]).collect();
        let (e, _) = eval(&autoscaled(&base, target, &scale(&need, f), &scale(&need, m), &[]), o, &catalog, give_up);
        o.holds(&e).then_some(e.monthly)
    });
    costs.into_iter().flatten().min_by(f64::total_cmp)
}
