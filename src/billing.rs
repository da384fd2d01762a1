//! From a run's records to the plain [`Usage`] the cost model bills, and the bill of a
//! scenario's own capacity mode.

use crate::cost::{bill, Bill, BillOptions, Catalog, ResourceUsage, Usage};
use crate::engine::RunResult;
use crate::scenario::{Scenario, TableClass};
use crate::units::MILLI;

/// The usage recorded by a run of `sc`.
#[must_use]
pub fn usage_of(sc: &Scenario, r: &RunResult) -> Usage {
    let resources = r
        .rec
        .resources
        .iter()
        .enumerate()
        .map(|(i, series)| {
            let secs = |m: usize| (r.duration_s - m as u64 * 60).min(60) as f64;
            let provisioned_s: u64 = series.iter().map(|m| u64::from(m.provisioned_seconds)).sum();
            ResourceUsage {
                name: r.resource_names[i].clone(),
                // Each minute is billed in the mode it had (a switch mid-minute splits it).
                on_demand: series.iter().enumerate().any(|(m, x)| u64::from(x.provisioned_seconds) < secs(m) as u64),
                provisioned: provisioned_s > 0,
                provisioned_hours: provisioned_s as f64 / 3_600.0,
                on_demand_read_units: series.iter().map(|m| m.on_demand_consumed[0]).sum::<u64>() as f64 / MILLI as f64,
                on_demand_write_units: series.iter().map(|m| m.on_demand_consumed[1]).sum::<u64>() as f64 / MILLI as f64,
                // Unit-seconds / 60: a full minute's average units; a partial last minute weighs
                // only the seconds it lasted.
                provisioned_rcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[0] as f64 / 60.0).collect(),
                provisioned_wcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[1] as f64 / 60.0).collect(),
                storage_gb_by_minute: series.iter().enumerate().map(|(m, x)| x.stored_bytes as f64 / 1e9 * secs(m) / 60.0).collect(),
            }
        })
        .collect();
    Usage { hours: r.duration_s as f64 / 3_600.0, standard_ia: sc.table.table_class == TableClass::StandardIa, resources }
}

/// The bill of a run in the scenario's own mode, at `catalog` prices with the scenario's
/// overrides and free-tier choice.
#[must_use]
pub fn bill_of(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Bill {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    bill(&usage_of(sc, r), &catalog, &BillOptions { free_tier: sc.pricing.free_tier, reservation: None })
}
