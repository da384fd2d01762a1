//! What a run used, as the bill needs it: per table and GSI, the request units consumed while
//! on-demand, the provisioned units in force minute by minute, and the bytes stored.

use super::bill::{bill, Bill, BillOptions};
use super::catalog::Catalog;
use crate::engine::RunResult;
use crate::scenario::{Scenario, TableClass};
use crate::units::MILLI;
use serde::Serialize;

/// Recorded usage of one table or GSI.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ResourceUsage {
    /// Table or index name.
    pub name: String,
    /// On-demand for at least part of the window (on-demand lines are billed).
    pub on_demand: bool,
    /// Provisioned for at least part of the window (provisioned lines are billed).
    pub provisioned: bool,
    /// Hours of the window the resource was provisioned.
    pub provisioned_hours: f64,
    /// Read request units consumed while on-demand (what on-demand bills).
    pub on_demand_read_units: f64,
    /// Write request units consumed while on-demand.
    pub on_demand_write_units: f64,
    /// Provisioned RCU per minute (time-weighted average of the minute, 0 while on-demand).
    pub provisioned_rcu_by_minute: Vec<f64>,
    /// Provisioned WCU per minute.
    pub provisioned_wcu_by_minute: Vec<f64>,
    /// Stored GB (10^9 bytes, as billed) per minute, weighted by the share of a minute simulated.
    pub storage_gb_by_minute: Vec<f64>,
}

/// Recorded usage of a table and its GSIs over a window.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Usage {
    /// Hours simulated.
    pub hours: f64,
    /// Standard-IA (else Standard) table class.
    pub standard_ia: bool,
    /// Table first, then GSIs.
    pub resources: Vec<ResourceUsage>,
}

impl Usage {
    /// The usage a run recorded, for a table of class `class`. Each minute counts in the mode
    /// it had: its provisioned seconds as provisioned unit-seconds, the rest as request units
    /// consumed while on-demand.
    #[must_use]
    pub fn of(r: &RunResult, class: TableClass) -> Self {
        let secs = |m: usize| r.minute_seconds(m);
        let resources = r
            .resources
            .iter()
            .map(|res| {
                let series = &res.minutes;
                let provisioned_s: u64 = series.iter().map(|m| u64::from(m.provisioned_seconds)).sum();
                ResourceUsage {
                    name: res.name.clone(),
                    on_demand: series.iter().enumerate().any(|(m, x)| u64::from(x.provisioned_seconds) < secs(m)),
                    provisioned: provisioned_s > 0,
                    provisioned_hours: provisioned_s as f64 / 3_600.0,
                    on_demand_read_units: series.iter().map(|m| m.on_demand_consumed[0]).sum::<u64>() as f64 / MILLI as f64,
                    on_demand_write_units: series.iter().map(|m| m.on_demand_consumed[1]).sum::<u64>() as f64 / MILLI as f64,
                    // Unit-seconds / 60: a full minute's average units; a partial last minute
                    // weighs only the seconds it lasted.
                    provisioned_rcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[0] as f64 / 60.0).collect(),
                    provisioned_wcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[1] as f64 / 60.0).collect(),
                    storage_gb_by_minute: series
                        .iter()
                        .enumerate()
                        .map(|(m, x)| x.stored_bytes as f64 / crate::limits::GB as f64 * secs(m) as f64 / 60.0)
                        .collect(),
                }
            })
            .collect();
        Usage { hours: r.duration_s as f64 / 3_600.0, standard_ia: class == TableClass::StandardIa, resources }
    }
}

/// The bill of a run of `sc` in the mode(s) it ran, at `catalog` prices with the scenario's
/// overrides and free-tier choice.
#[must_use]
pub fn bill_of(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Bill {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    bill(
        &Usage::of(r, sc.table.table_class),
        &catalog,
        &BillOptions { free_tier: sc.pricing.free_tier, reservation: None, extrapolate: sc.pricing.extrapolate },
    )
}
