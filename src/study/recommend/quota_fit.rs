//! `recommend` on an account's tables (a folder): the picks of a Region's tables must fit its
//! account-level quota together, as AWS refuses the UpdateTable that would pass it. Each
//! table's own pick is kept while they fit; otherwise the table whose next-cheapest holding
//! candidate frees the quota at the least added cost a unit moves to it (on-demand frees all
//! of a table's: it takes none of the provisioned quota), until they fit, or until no move
//! frees more (then none does, and the output says so). A table's part is what its pick may
//! provision: its capacity, or its auto-scaling maxima up to the table's own quota.

use super::{Candidate, Recommendation, Settings};
use serde::{Deserialize, Serialize};

/// The most candidate `c` (of `all`) may provision, table and GSIs together, per dimension:
/// nothing on-demand; its capacity provisioned; its maxima with auto scaling; a reservation's
/// the candidate it reserves for.
#[must_use]
pub fn most_units(c: &Candidate, all: &[Candidate]) -> [u64; 2] {
    let sum = |v: &[[u64; 2]]| v.iter().fold([0, 0], |a, x| [a[0] + x[0], a[1] + x[1]]);
    match &c.settings {
        Settings::OnDemand => [0, 0],
        Settings::Provisioned { units } => sum(units),
        Settings::Autoscaling { max, .. } => sum(max),
        Settings::Reserved { of, .. } => all.get(*of).map_or([0, 0], |o| most_units(o, all)),
    }
}

/// A table whose pick moved to fit the quota.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuotaChange {
    /// Table name.
    pub table: String,
    /// Its own pick, in words.
    pub from: String,
    /// The pick that fits, in words.
    pub to: String,
    /// What the move adds a month, USD (estimate).
    pub added_monthly_usd: f64,
}

/// One Region's tables against its account-level quota.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuotaFit {
    /// The Region.
    pub region: String,
    /// Its account-level quota, [RCU, WCU].
    pub quota: [u64; 2],
    /// What the tables' own picks may provision together.
    pub picked_units: [u64; 2],
    /// What the picks after the fit may provision together.
    pub fitted_units: [u64; 2],
    /// The picks after the fit are within the quota.
    pub fits: bool,
    /// The tables whose pick moved.
    pub changes: Vec<QuotaChange>,
}

/// One table of the account: its Region, its name, its Region's quota and its
/// recommendation.
pub struct FitInput<'a> {
    /// Region.
    pub region: &'a str,
    /// Table name.
    pub table: &'a str,
    /// The account-level quota, [RCU, WCU].
    pub quota: [u64; 2],
    /// The most the table may be given alone, [RCU, WCU]: an auto-scaling maximum past it is
    /// never reached (each raise past it fails).
    pub limit: [u64; 2],
    /// The table's recommendation.
    pub rec: &'a Recommendation,
}

/// Can candidate `c` be picked: simulated, within the limits (and the table's own quotas)?
fn pickable(c: &Candidate) -> bool {
    c.within_limit && !c.screened && c.complete
}

/// Fits each Region's picks of `tables` into its quota: per Region with more than one table,
/// the fit; per table, its pick after it.
#[must_use]
pub fn fit(tables: &[FitInput<'_>]) -> (Vec<QuotaFit>, Vec<Option<usize>>) {
    let mut picks: Vec<Option<usize>> = tables.iter().map(|t| t.rec.pick).collect();
    let mut fits = Vec::new();
    let mut regions: Vec<&str> = tables.iter().map(|t| t.region).collect();
    regions.sort_unstable();
    regions.dedup();
    for region in regions {
        let members: Vec<usize> = (0..tables.len()).filter(|&i| tables[i].region == region).collect();
        if members.len() < 2 {
            continue;
        }
        let quota = members.iter().map(|&i| tables[i].quota).fold([0, 0], |a, q| [a[0].max(q[0]), a[1].max(q[1])]);
        let usage = |i: usize, k: Option<usize>| {
            let u = k.map_or([0, 0], |k| most_units(&tables[i].rec.candidates[k], &tables[i].rec.candidates));
            [u[0].min(tables[i].limit[0]), u[1].min(tables[i].limit[1])]
        };
        let total = |picks: &[Option<usize>]| {
            members.iter().fold([0, 0], |a, &i| {
                let u = usage(i, picks[i]);
                [a[0] + u[0], a[1] + u[1]]
            })
        };
        let picked_units = total(&picks);
        loop {
            let t = total(&picks);
            let over = [t[0].saturating_sub(quota[0]), t[1].saturating_sub(quota[1])];
            if over == [0, 0] {
                break;
            }
            // The move that frees the most of what is over, per dollar added.
            let mut best: Option<(f64, usize, usize)> = None;
            for &i in &members {
                let Some(cur) = picks[i] else { continue };
                let cands = &tables[i].rec.candidates;
                let now = usage(i, Some(cur));
                for (k, c) in cands.iter().enumerate().filter(|(k, c)| *k != cur && pickable(c)) {
                    let u = usage(i, Some(k));
                    if u[0] > now[0] || u[1] > now[1] {
                        continue;
                    }
                    let freed: u64 = (0..2).map(|d| (now[d] - u[d]).min(over[d])).sum();
                    if freed == 0 {
                        continue;
                    }
                    let added = (c.monthly_usd - cands[cur].monthly_usd).max(0.0);
                    let score = added / freed as f64;
                    if best.is_none_or(|b| score < b.0) {
                        best = Some((score, i, k));
                    }
                }
            }
            let Some((_, i, k)) = best else { break };
            picks[i] = Some(k);
        }
        let fitted_units = total(&picks);
        let changes = members
            .iter()
            .filter(|&&i| picks[i] != tables[i].rec.pick)
            .filter_map(|&i| {
                let (from, to) = (tables[i].rec.pick?, picks[i]?);
                let c = &tables[i].rec.candidates;
                Some(QuotaChange {
                    table: tables[i].table.to_string(),
                    from: c[from].description.clone(),
                    to: c[to].description.clone(),
                    added_monthly_usd: c[to].monthly_usd - c[from].monthly_usd,
                })
            })
            .collect();
        fits.push(QuotaFit {
            region: region.to_string(),
            quota,
            picked_units,
            fitted_units,
            fits: fitted_units[0] <= quota[0] && fitted_units[1] <= quota[1],
            changes,
        });
    }
    (fits, picks)
}
