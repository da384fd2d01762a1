//! Reserved capacity pooled across a region's tables: AWS applies a reservation to the
//! region's provisioned capacity as a whole, not table by table, so `recommend DIR` sizes one
//! reservation on the sum of the tables' provisioned series (each at its recommended setting)
//! and says what that saves against reserving for each table alone.

use crate::cost::{bill, BillOptions, Catalog, OwnedCover, Reservation, ResourceUsage, Usage, RESERVED_BLOCK};
use serde::{Deserialize, Serialize};

/// One table's part: its name and region, its window, and the usage of its recommended setting
/// (the provisioned capacity of the table and its GSIs, minute by minute).
#[derive(Clone, Debug)]
pub struct PoolInput {
    /// Table name.
    pub table: String,
    /// Its region.
    pub region: String,
    /// Start of its window, Unix seconds, and its length, seconds.
    pub window: (i64, u64),
    /// Why reserved capacity is not priced on it (`cost::no_reservation`: Standard-IA, or a
    /// window that does not repeat or is shorter than a day), if it is not.
    pub not_reservable: Option<String>,
    /// The usage of its pick (`None`: nothing was recommended).
    pub usage: Option<Usage>,
}

/// One reservation for a region's tables together, against one per table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// The region.
    pub region: String,
    /// Term, years.
    pub years: u32,
    /// The tables pooled.
    pub tables: Vec<String>,
    /// Reserved RCU and WCU for the region, sized on the tables' summed provisioned series.
    pub rcu: u64,
    /// See `rcu`.
    pub wcu: u64,
    /// What the pooled reservation saves a month against none (an estimate: the window
    /// repeated).
    pub pooled_saving_monthly_usd: f64,
    /// What each table's own best reservation saves a month, summed.
    pub separate_saving_monthly_usd: f64,
    /// What pooling saves a month over reserving table by table.
    pub pooling_saves_monthly_usd: f64,
}

/// The provisioned series of `usages` summed minute by minute into one resource (replicas
/// left out: a reservation covers its own region), with their owned reservations.
fn summed(usages: &[&Usage]) -> Usage {
    let n = usages.iter().flat_map(|u| u.resources.iter().map(|r| r.provisioned_rcu_by_minute.len())).max().unwrap_or(0);
    let mut rcu = vec![0.0; n];
    let mut wcu = vec![0.0; n];
    for r in usages.iter().flat_map(|u| u.resources.iter()).filter(|r| r.provisioned && r.region.is_none()) {
        for (m, x) in r.provisioned_rcu_by_minute.iter().enumerate() {
            rcu[m] += x;
        }
        for (m, x) in r.provisioned_wcu_by_minute.iter().enumerate() {
            wcu[m] += x;
        }
    }
    let hours = usages.iter().map(|u| u.hours).fold(0.0, f64::max);
    let owned: Vec<OwnedCover> = usages.iter().flat_map(|u| u.owned.iter().cloned()).collect();
    Usage {
        hours,
        resources: vec![ResourceUsage {
            name: "region".into(),
            provisioned: true,
            provisioned_hours: hours,
            provisioned_rcu_by_minute: rcu,
            provisioned_wcu_by_minute: wcu,
            storage_gb_by_minute: vec![0.0; n],
            ..ResourceUsage::default()
        }],
        owned,
        ..Usage::default()
    }
}

/// The best reservation on `usage`'s provisioned capacity: (RCU, WCU, monthly saving against
/// none). Reads and writes are billed apart, so each dimension's block count is found alone.
fn best(usage: &Usage, catalog: &Catalog, years: u32) -> (u64, u64, f64) {
    let cost = |rcu: u64, wcu: u64| {
        let reservation = (rcu + wcu > 0).then_some(Reservation { rcu, wcu, years });
        bill(usage, catalog, &BillOptions { reservation, ..BillOptions::default() }).monthly_rate_usd()
    };
    // Up to the block that covers the peak: a block used more than about 46 % of the time pays.
    let top = |series: &[f64]| (series.iter().copied().fold(0.0, f64::max).ceil() as u64).div_ceil(RESERVED_BLOCK);
    let r = &usage.resources[0];
    let (rmax, wmax) = (top(&r.provisioned_rcu_by_minute), top(&r.provisioned_wcu_by_minute));
    let best_r = (0..=rmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(*a, 0).total_cmp(&cost(*b, 0))).unwrap_or(0);
    let best_w = (0..=wmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(0, *a).total_cmp(&cost(0, *b))).unwrap_or(0);
    (best_r, best_w, cost(0, 0) - cost(best_r, best_w))
}

/// One pool per region of two or more Standard-class tables whose windows match (the same
/// start and length: their minutes are summed as one), with `catalog_of` the region's prices.
/// Returns the pools and, for the tables left out, why.
#[must_use]
pub fn pools(inputs: &[PoolInput], years: u32, catalog_of: impl Fn(&str) -> Option<Catalog>) -> (Vec<Pool>, Vec<String>) {
    let mut regions: Vec<&str> = inputs.iter().map(|i| i.region.as_str()).collect();
    regions.sort_unstable();
    regions.dedup();
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    for region in regions {
        let mine: Vec<&PoolInput> = inputs.iter().filter(|i| i.region == region).collect();
        let window = mine[0].window;
        let mut members: Vec<(&str, &Usage)> = Vec::new();
        for i in &mine {
            match &i.usage {
                _ if i.not_reservable.is_some() => notes.push(format!("{}: {}", i.table, i.not_reservable.as_deref().unwrap_or_default())),
                _ if i.window != window => notes.push(format!(
                    "{}: its window differs from {}'s (pooling sums the tables' minutes: give them the same start and duration)",
                    i.table, mine[0].table
                )),
                None => {
                    notes.push(format!("{}: nothing to reserve in its recommended setting (on-demand, or none within the limit)", i.table))
                }
                Some(u) => members.push((&i.table, u)),
            }
        }
        if members.len() < 2 {
            continue;
        }
        let Some(catalog) = catalog_of(region) else { continue };
        if let Err(why) = catalog.sells_reserved(years) {
            notes.push(why);
            continue;
        }
        let usages: Vec<&Usage> = members.iter().map(|(_, u)| *u).collect();
        let (rcu, wcu, pooled) = best(&summed(&usages), &catalog, years);
        let separate: f64 = usages.iter().map(|u| best(&summed(&[u]), &catalog, years).2).sum();
        out.push(Pool {
            region: region.to_string(),
            years,
            tables: members.iter().map(|(t, _)| (*t).to_string()).collect(),
            rcu,
            wcu,
            pooled_saving_monthly_usd: pooled,
            separate_saving_monthly_usd: separate,
            pooling_saves_monthly_usd: pooled - separate,
        });
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(wcu: f64) -> Usage {
        summed(&[&Usage {
            hours: 1.0,
            resources: vec![ResourceUsage {
                name: "t".into(),
                provisioned: true,
                provisioned_hours: 1.0,
                provisioned_rcu_by_minute: vec![0.0; 60],
                provisioned_wcu_by_minute: vec![wcu; 60],
                storage_gb_by_minute: vec![0.0; 60],
                ..ResourceUsage::default()
            }],
            ..Usage::default()
        }])
    }

    /// Three tables of 130 WCU each, a year's term in us-east-1. A block of 100 WCU costs
    /// $150 / 8,760 + $0.0128 = $0.029923 an hour against $0.065 at list, so it pays when used
    /// more than 46 % of the time. Alone, each table reserves 1 block (a second would be used
    /// 30 %): it saves $0.065 - $0.029923 = $0.035077 an hour. Together, 390 WCU reserve 4
    /// blocks (the fourth used 90 %): $0.2535 at list against 4 x $0.029923 = $0.119692, a
    /// saving of $0.133808 an hour; separately, 3 x $0.035077 = $0.105231. Pooling saves
    /// $0.028577 an hour, $20.86 a month.
    #[test]
    fn three_tables_pool_one_reservation_and_say_what_it_saves() {
        let block = 150.0 / 8_760.0 + 0.0128;
        let inputs: Vec<PoolInput> = ["A", "B", "C"]
            .iter()
            .map(|t| PoolInput {
                table: (*t).into(),
                region: "us-east-1".into(),
                window: (0, 3_600),
                not_reservable: None,
                usage: Some(table(130.0)),
            })
            .collect();
        let (pooled, notes) = pools(&inputs, 1, Catalog::for_region);
        assert!(notes.is_empty(), "{notes:?}");
        let p = &pooled[0];
        assert_eq!((p.rcu, p.wcu, p.tables.len()), (0, 400, 3));
        let hour = |x: f64| x * 730.0;
        assert!((p.pooled_saving_monthly_usd - hour(390.0 * 0.00065 - 4.0 * block)).abs() < 1e-9, "{p:?}");
        assert!((p.separate_saving_monthly_usd - hour(3.0 * (0.065 - block))).abs() < 1e-9, "{p:?}");
        assert!((p.pooling_saves_monthly_usd - 20.861).abs() < 0.001, "{p:?}");
        // A table whose window differs is left out, and says why.
        let mut odd = inputs.clone();
        odd[2].window = (0, 7_200);
        let (pooled, notes) = pools(&odd, 1, Catalog::for_region);
        assert_eq!(pooled[0].tables, ["A", "B"]);
        assert!(notes[0].starts_with("C: its window differs"), "{notes:?}");
        // us-east-2 sells no 3-year term.
        let east2: Vec<PoolInput> = inputs.iter().cloned().map(|i| PoolInput { region: "us-east-2".into(), ..i }).collect();
        let (pooled, notes) = pools(&east2, 3, Catalog::for_region);
        assert!(pooled.is_empty() && notes[0].contains("AWS sells no 3-year reserved capacity in us-east-2"), "{notes:?}");
    }
}
