//! Cost: a price catalog and the bill of recorded usage. Pure: no engine types, no files
//! beyond reading a catalog; every figure comes with the arithmetic that produced it.
//!
//! Billing rules (spec §10): on-demand bills request units consumed (throttled attempts are not
//! billed); provisioned bills provisioned unit-hours, time-weighted (a change mid-hour is billed
//! for the part of the hour it was in force); reserved capacity bills its upfront fee amortised
//! over the term, its hourly fee, and provisioned capacity above the reservation at list
//! price (Standard class only); storage bills GB-months (10^9 bytes, 730 hours a month). The
//! always-free tier (25 RCU, 25 WCU, 25 GB) applies to provisioned capacity and Standard storage.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Hours in a billing month, as AWS's calculator counts them.
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Hours in a year.
pub const HOURS_PER_YEAR: f64 = 8_760.0;
/// Units in a reserved-capacity block.
pub const RESERVED_BLOCK: u64 = 100;

/// The built-in catalog of us-east-1.
pub const BUILTIN_US_EAST_1: &str = include_str!("../prices/us-east-1.toml");

/// Every item a catalog must price.
pub const REQUIRED_ITEMS: &[&str] = &[
    "on_demand_write_per_million",
    "on_demand_read_per_million",
    "provisioned_wcu_hour",
    "provisioned_rcu_hour",
    "storage_gb_month",
    "ia_on_demand_write_per_million",
    "ia_on_demand_read_per_million",
    "ia_provisioned_wcu_hour",
    "ia_provisioned_rcu_hour",
    "ia_storage_gb_month",
    "reserved_1y_wcu_100_upfront",
    "reserved_1y_wcu_100_hour",
    "reserved_1y_rcu_100_upfront",
    "reserved_1y_rcu_100_hour",
    "reserved_3y_wcu_100_upfront",
    "reserved_3y_wcu_100_hour",
    "reserved_3y_rcu_100_upfront",
    "reserved_3y_rcu_100_hour",
    "streams_read_per_100k",
    "replicated_write_per_million",
    "replicated_wcu_hour",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalog {
    region: String,
    currency: String,
    prices_read_on: String,
    items: BTreeMap<String, RawItem>,
    free_tier: RawFreeTier,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    usd: f64,
    verified: bool,
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFreeTier {
    rcu: u64,
    wcu: u64,
    storage_gb: f64,
}

/// One price.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Price {
    /// USD.
    pub usd: f64,
    /// Read off AWS's own pages (false: third-party or tooling, flagged in reports).
    pub verified: bool,
    /// Where it comes from.
    pub source: String,
}

/// A validated price catalog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Catalog {
    /// Region.
    pub region: String,
    /// Date the prices were read.
    pub prices_read_on: String,
    /// Prices by item.
    pub items: BTreeMap<String, Price>,
    /// Always-free provisioned RCU.
    pub free_rcu: u64,
    /// Always-free provisioned WCU.
    pub free_wcu: u64,
    /// Always-free storage, GB.
    pub free_storage_gb: f64,
}

/// A catalog that could not be used. Fatal for the command.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Not readable.
    #[error("{path}: cannot read the price catalog: {source}")]
    Io {
        /// File.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Malformed or incomplete.
    #[error("{path}: {message}")]
    Invalid {
        /// File.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Catalog {
    /// The built-in us-east-1 catalog.
    ///
    /// # Panics
    /// Never: the built-in catalog is checked by a test.
    #[must_use]
    pub fn builtin() -> Self {
        Self::parse(BUILTIN_US_EAST_1, Path::new("prices/us-east-1.toml")).expect("the built-in catalog is valid")
    }

    /// Reads a catalog file.
    ///
    /// # Errors
    /// [`CatalogError`] naming the file and the problem.
    pub fn load(path: &Path) -> Result<Self, CatalogError> {
        let text = std::fs::read_to_string(path).map_err(|source| CatalogError::Io { path: path.to_path_buf(), source })?;
        Self::parse(&text, path)
    }

    /// Parses and validates catalog text.
    ///
    /// # Errors
    /// [`CatalogError::Invalid`]: a TOML error (with line and column), a missing item, a
    /// negative or non-finite price, an unknown item, a currency other than USD.
    pub fn parse(text: &str, path: &Path) -> Result<Self, CatalogError> {
        let bad = |message: String| CatalogError::Invalid { path: path.to_path_buf(), message };
        let raw: RawCatalog = toml::from_str(text).map_err(|e| {
            let at = e.span().map(|s| crate::scenario::locate::line_col(text, s.start));
            bad(match at {
                Some((l, c)) => format!("line {l}, column {c}: {}", e.message().trim()),
                None => e.message().trim().to_string(),
            })
        })?;
        if raw.currency != "USD" {
            return Err(bad(format!("currency \"{}\": only USD catalogs are supported", raw.currency)));
        }
        for name in REQUIRED_ITEMS {
            if !raw.items.contains_key(*name) {
                return Err(bad(format!("items.{name}: missing; a catalog prices every item ({})", REQUIRED_ITEMS.join(", "))));
            }
        }
        let mut items = BTreeMap::new();
        for (name, it) in raw.items {
            if !REQUIRED_ITEMS.contains(&name.as_str()) {
                return Err(bad(format!("items.{name}: unknown price item")));
            }
            if !it.usd.is_finite() || it.usd < 0.0 {
                return Err(bad(format!("items.{name}.usd: a price must be a finite number >= 0, not {}", it.usd)));
            }
            items.insert(name, Price { usd: it.usd, verified: it.verified, source: it.source });
        }
        if !raw.free_tier.storage_gb.is_finite() || raw.free_tier.storage_gb < 0.0 {
            return Err(bad("free_tier.storage_gb: must be a finite number >= 0".into()));
        }
        Ok(Self {
            region: raw.region,
            prices_read_on: raw.prices_read_on,
            items,
            free_rcu: raw.free_tier.rcu,
            free_wcu: raw.free_tier.wcu,
            free_storage_gb: raw.free_tier.storage_gb,
        })
    }

    /// The catalog with scenario overrides applied (marked unverified: they are the user's).
    #[must_use]
    pub fn with_overrides(mut self, overrides: &[(String, f64)]) -> Self {
        for (k, v) in overrides {
            self.items.insert(k.clone(), Price { usd: *v, verified: false, source: "[pricing.overrides] in the scenario".into() });
        }
        self
    }

    /// A price by item name.
    #[must_use]
    pub fn price(&self, item: &str) -> &Price {
        &self.items[item]
    }

    /// Break-even utilization between on-demand and provisioned for a dimension: provisioned is
    /// cheaper when average consumption exceeds this share of provisioned capacity.
    #[must_use]
    pub fn break_even(&self, write: bool, ia: bool) -> f64 {
        let (hour, per_m) = self.names(write, ia);
        self.price(hour).usd / (3_600.0 * self.price(per_m).usd / 1e6)
    }

    fn names(&self, write: bool, ia: bool) -> (&'static str, &'static str) {
        match (write, ia) {
            (true, false) => ("provisioned_wcu_hour", "on_demand_write_per_million"),
            (false, false) => ("provisioned_rcu_hour", "on_demand_read_per_million"),
            (true, true) => ("ia_provisioned_wcu_hour", "ia_on_demand_write_per_million"),
            (false, true) => ("ia_provisioned_rcu_hour", "ia_on_demand_read_per_million"),
        }
    }
}

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
    /// Provisioned RCU per minute (time-weighted average of the minute).
    pub provisioned_rcu_by_minute: Vec<f64>,
    /// Provisioned WCU per minute.
    pub provisioned_wcu_by_minute: Vec<f64>,
    /// Stored GB (10^9 bytes) per minute.
    pub storage_gb_by_minute: Vec<f64>,
}

impl ResourceUsage {
    fn unit_hours(series: &[f64]) -> f64 {
        series.iter().sum::<f64>() / 60.0
    }
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

/// Reserved capacity bought.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Reservation {
    /// Reserved RCU (a multiple of 100).
    pub rcu: u64,
    /// Reserved WCU (a multiple of 100).
    pub wcu: u64,
    /// Term, years: 1 or 3.
    pub years: u32,
}

/// Billing options.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BillOptions {
    /// Deduct the always-free tier.
    pub free_tier: bool,
    /// Reserved capacity, applied to the table's provisioned capacity.
    pub reservation: Option<Reservation>,
}

/// One line of a bill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BillLine {
    /// Table or index.
    pub resource: String,
    /// `reads`, `writes`, `storage`, `reserved_upfront`, `reserved_hourly`, `free_tier`.
    pub component: &'static str,
    /// Quantity in `unit`.
    pub quantity: f64,
    /// Unit of the quantity.
    pub unit: &'static str,
    /// Price per unit, USD.
    pub unit_price_usd: f64,
    /// Cost over the simulated window, USD.
    pub cost_usd: f64,
    /// The price is unverified.
    pub unverified: bool,
    /// The arithmetic, e.g. `1000 WCU x 730 h x $0.00065`.
    pub arithmetic: String,
}

/// A bill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bill {
    /// Hours billed (the simulated window).
    pub window_hours: f64,
    /// Lines.
    pub lines: Vec<BillLine>,
    /// Total over the window, USD.
    pub total_usd: f64,
    /// Extrapolated to a 730-hour month, USD (labelled as extrapolated in reports).
    pub monthly_usd: f64,
    /// Extrapolated to a year (8,760 hours), USD.
    pub yearly_usd: f64,
    /// Reserved-capacity upfront paid at purchase, USD (not in the totals, which amortise it).
    pub upfront_usd: f64,
    /// Price items used that are unverified.
    pub unverified_items: Vec<String>,
}

fn fmt_num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.3}")
    }
}

/// Bills `usage` at `catalog` prices.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn bill(usage: &Usage, catalog: &Catalog, opts: &BillOptions) -> Bill {
    let ia = usage.standard_ia;
    let p = |s: &str| -> String {
        if ia {
            format!("ia_{s}")
        } else {
            s.to_string()
        }
    };
    let mut lines = Vec::new();
    let mut unverified = std::collections::BTreeSet::new();
    let mut add = |lines: &mut Vec<BillLine>,
                   resource: &str,
                   component: &'static str,
                   quantity: f64,
                   unit: &'static str,
                   item: &str,
                   divisor: f64,
                   arithmetic: String| {
        let price = catalog.price(item);
        if !price.verified {
            unverified.insert(item.to_string());
        }
        let cost = quantity * price.usd / divisor;
        lines.push(BillLine {
            resource: resource.to_string(),
            component,
            quantity,
            unit,
            unit_price_usd: price.usd / divisor,
            cost_usd: cost,
            unverified: !price.verified,
            arithmetic,
        });
    };
    let mut free_rcu_hours = if opts.free_tier { catalog.free_rcu as f64 * usage.hours } else { 0.0 };
    let mut free_wcu_hours = if opts.free_tier { catalog.free_wcu as f64 * usage.hours } else { 0.0 };
    let mut free_gb_months = if opts.free_tier && !ia { catalog.free_storage_gb * usage.hours / HOURS_PER_MONTH } else { 0.0 };
    let mut upfront = 0.0;
    for (i, r) in usage.resources.iter().enumerate() {
        // Each part of the window is billed in the mode it had: provisioned unit-hours for the
        // provisioned seconds, request units for what was consumed while on-demand.
        if r.provisioned {
            for (write, series) in [(false, &r.provisioned_rcu_by_minute), (true, &r.provisioned_wcu_by_minute)] {
                let mut unit_hours = ResourceUsage::unit_hours(series);
                let (label, item) = if write { ("WCU", p("provisioned_wcu_hour")) } else { ("RCU", p("provisioned_rcu_hour")) };
                let component = if write { "writes" } else { "reads" };
                // Reserved capacity covers the table (Standard class only).
                if let (Some(res), 0, false) = (opts.reservation, i, ia) {
                    let units = if write { res.wcu } else { res.rcu };
                    if units > 0 {
                        let blocks = (units / RESERVED_BLOCK) as f64;
                        let dim = if write { "wcu" } else { "rcu" };
                        let term_hours = f64::from(res.years) * HOURS_PER_YEAR;
                        let up_item = format!("reserved_{}y_{dim}_100_upfront", res.years);
                        let hr_item = format!("reserved_{}y_{dim}_100_hour", res.years);
                        let up = catalog.price(&up_item).usd;
                        let hr = catalog.price(&hr_item).usd;
                        upfront += blocks * up;
                        let share = usage.hours / term_hours;
                        add(
                            &mut lines,
                            &r.name,
                            "reserved_upfront",
                            blocks * share,
                            "blocks x term share",
                            &up_item,
                            1.0,
                            format!(
                                "{} blocks of 100 {label} x ${up} x {:.3} h / {} h term",
                                fmt_num(blocks),
                                usage.hours,
                                fmt_num(term_hours)
                            ),
                        );
                        add(
                            &mut lines,
                            &r.name,
                            "reserved_hourly",
                            blocks * usage.hours,
                            "block-hours",
                            &hr_item,
                            1.0,
                            format!("{} blocks x {:.3} h x ${hr}", fmt_num(blocks), usage.hours),
                        );
                        let excess: f64 = series.iter().map(|&x| (x - units as f64).max(0.0)).sum::<f64>() / 60.0;
                        unit_hours = excess;
                    }
                }
                let free = if write { &mut free_wcu_hours } else { &mut free_rcu_hours };
                let deducted = unit_hours.min(*free);
                *free -= deducted;
                let billed = unit_hours - deducted;
                let price = catalog.price(&item).usd;
                let hours = r.provisioned_hours;
                let avg = billed / hours.max(1e-12);
                let free_note = if deducted > 0.0 { format!(" (after {} free {label}-h)", fmt_num(deducted)) } else { String::new() };
                add(
                    &mut lines,
                    &r.name,
                    component,
                    billed,
                    if write { "WCU-hours" } else { "RCU-hours" },
                    &item,
                    1.0,
                    format!("{} {label} x {hours:.3} h x ${price}{free_note}", fmt_num((avg * 1000.0).round() / 1000.0)),
                );
            }
        }
        if r.on_demand {
            let rm = r.on_demand_read_units / 1e6;
            let wm = r.on_demand_write_units / 1e6;
            let ri = p("on_demand_read_per_million");
            let wi = p("on_demand_write_per_million");
            let (rp, wp) = (catalog.price(&ri).usd, catalog.price(&wi).usd);
            add(&mut lines, &r.name, "reads", rm, "million RRU", &ri, 1.0, format!("{} M RRU x ${rp}", fmt_num(rm)));
            add(&mut lines, &r.name, "writes", wm, "million WRU", &wi, 1.0, format!("{} M WRU x ${wp}", fmt_num(wm)));
        }
        let gb_months = r.storage_gb_by_minute.iter().sum::<f64>() / 60.0 / HOURS_PER_MONTH;
        let deducted = gb_months.min(free_gb_months);
        free_gb_months -= deducted;
        let item = p("storage_gb_month");
        let price = catalog.price(&item).usd;
        let avg_gb = r.storage_gb_by_minute.iter().sum::<f64>() / r.storage_gb_by_minute.len().max(1) as f64;
        add(
            &mut lines,
            &r.name,
            "storage",
            gb_months - deducted,
            "GB-months",
            &item,
            1.0,
            format!("{avg_gb:.3} GB x {:.3} h / 730 h x ${price}", usage.hours),
        );
    }
    let total: f64 = lines.iter().map(|l| l.cost_usd).sum();
    let scale = if usage.hours > 0.0 { HOURS_PER_MONTH / usage.hours } else { 0.0 };
    Bill {
        window_hours: usage.hours,
        lines,
        total_usd: total,
        monthly_usd: total * scale,
        yearly_usd: total * scale * 12.0,
        upfront_usd: upfront,
        unverified_items: unverified.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    //! Dollar tests of spec §12.4, worked by hand from the §10 prices.
    use super::*;

    fn prov(rcu: f64, wcu: f64, hours: f64) -> Usage {
        let minutes = (hours * 60.0) as usize;
        Usage {
            hours,
            standard_ia: false,
            resources: vec![ResourceUsage {
                name: "t".into(),
                provisioned: true,
                provisioned_hours: hours,
                provisioned_rcu_by_minute: vec![rcu; minutes],
                provisioned_wcu_by_minute: vec![wcu; minutes],
                storage_gb_by_minute: vec![0.0; minutes],
                ..ResourceUsage::default()
            }],
        }
    }

    fn od(rru: f64, wru: f64, ia: bool) -> Usage {
        Usage {
            hours: 730.0,
            standard_ia: ia,
            resources: vec![ResourceUsage {
                name: "t".into(),
                on_demand: true,
                on_demand_read_units: rru,
                on_demand_write_units: wru,
                storage_gb_by_minute: vec![0.0; 10],
                ..ResourceUsage::default()
            }],
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 0.005, "{a} vs {b}");
    }

    #[test]
    fn builtin_catalog_is_complete() {
        let c = Catalog::builtin();
        assert_eq!(c.region, "us-east-1");
        assert_eq!(c.items.len(), REQUIRED_ITEMS.len());
    }

    #[test]
    fn dollar_4_provisioned_100_100_for_a_month() {
        // 100 x 0.00013 x 730 = 9.49; 100 x 0.00065 x 730 = 47.45.
        let b = bill(&prov(100.0, 100.0, 730.0), &Catalog::builtin(), &BillOptions::default());
        close(b.lines[0].cost_usd, 9.49);
        close(b.lines[1].cost_usd, 47.45);
        close(b.total_usd, 56.94);
        close(b.monthly_usd, 56.94);
    }

    #[test]
    fn dollar_5_with_the_free_tier() {
        // 75 x (0.00013 + 0.00065) x 730 = 42.705.
        let b = bill(&prov(100.0, 100.0, 730.0), &Catalog::builtin(), &BillOptions { free_tier: true, reservation: None });
        close(b.total_usd, 42.705);
    }

    #[test]
    fn dollar_6_on_demand_units() {
        // 10 M WRU x 0.625 + 50 M RRU x 0.125 = 6.25 + 6.25.
        let b = bill(&od(50e6, 10e6, false), &Catalog::builtin(), &BillOptions::default());
        close(b.total_usd, 12.50);
    }

    #[test]
    fn dollar_7_eight_million_eventual_lookups() {
        // 8 M eventually consistent reads of <= 4 KB = 4 M RRU x 0.125 = 0.50.
        let b = bill(&od(8e6 * 0.5, 0.0, false), &Catalog::builtin(), &BillOptions::default());
        close(b.total_usd, 0.50);
    }

    #[test]
    fn dollar_8_standard_ia_on_demand() {
        // 1 M WRU x 0.78 + 1 M RRU x 0.155 = 0.935.
        let b = bill(&od(1e6, 1e6, true), &Catalog::builtin(), &BillOptions::default());
        close(b.total_usd, 0.935);
    }

    #[test]
    fn standard_ia_storage_and_throughput() {
        // 100 WCU for 730 h at the IA rate 0.00081 = 59.13; 100 GB for a month: $10 IA vs $25.
        let mut u = prov(0.0, 100.0, 730.0);
        u.resources[0].storage_gb_by_minute = vec![100.0; (730 * 60) as usize];
        let std = bill(&u, &Catalog::builtin(), &BillOptions::default());
        u.standard_ia = true;
        let ia = bill(&u, &Catalog::builtin(), &BillOptions::default());
        close(ia.lines[1].cost_usd, 59.13);
        close(ia.lines[2].cost_usd, 10.0);
        close(std.lines[2].cost_usd, 25.0);
    }

    #[test]
    fn dollar_10_reserved_one_year_100_wcu() {
        // $150 upfront + 0.0128 x 8,760 = 262.128, against 100 x 0.00065 x 8,760 = 569.40 list.
        let u = prov(0.0, 100.0, 8_760.0);
        let r =
            bill(&u, &Catalog::builtin(), &BillOptions { free_tier: false, reservation: Some(Reservation { rcu: 0, wcu: 100, years: 1 }) });
        close(r.total_usd, 262.128);
        close(r.upfront_usd, 150.0);
        let list = bill(&u, &Catalog::builtin(), &BillOptions::default());
        close(list.total_usd, 569.40);
    }

    #[test]
    fn reserved_three_years_and_excess_at_list() {
        // 3-year: a year bills 180 / 3 = 60 of the upfront + 0.0081 x 8,760 = 70.956 -> 130.956.
        let u = prov(0.0, 100.0, 8_760.0);
        let r =
            bill(&u, &Catalog::builtin(), &BillOptions { free_tier: false, reservation: Some(Reservation { rcu: 0, wcu: 100, years: 3 }) });
        close(r.total_usd, 130.956);
        // 150 WCU provisioned with 100 reserved for 730 h: 100/8760 x 150 ... = 12.5 upfront
        // share + 0.0128 x 730 = 9.344 + 50 x 0.00065 x 730 = 23.725 at list: 45.569.
        let u = prov(0.0, 150.0, 730.0);
        let r =
            bill(&u, &Catalog::builtin(), &BillOptions { free_tier: false, reservation: Some(Reservation { rcu: 0, wcu: 100, years: 1 }) });
        close(r.total_usd, 12.5 + 9.344 + 23.725);
    }

    #[test]
    fn provisioned_change_mid_hour_is_time_weighted() {
        // 100 WCU for 30 minutes then 200 WCU for 30 minutes: 150 WCU-hours x 0.00065 = 0.0975.
        let mut u = prov(0.0, 100.0, 1.0);
        for m in 30..60 {
            u.resources[0].provisioned_wcu_by_minute[m] = 200.0;
        }
        let b = bill(&u, &Catalog::builtin(), &BillOptions::default());
        close(b.lines[1].quantity, 150.0);
        assert!((b.total_usd - 0.0975).abs() < 1e-9);
    }

    #[test]
    fn break_even_utilization_is_28_9_percent() {
        // 0.00065 / (3,600 x 0.625 / 10^6) = 0.2889.
        let c = Catalog::builtin();
        assert!((c.break_even(true, false) - 0.2889).abs() < 1e-4);
        assert!((c.break_even(false, false) - 0.2889).abs() < 1e-4);
    }

    #[test]
    fn malformed_catalogs_are_refused() {
        let bad = |text: &str| Catalog::parse(text, Path::new("p.toml")).unwrap_err().to_string();
        assert!(bad(&BUILTIN_US_EAST_1.replace("usd = 0.625\n", "usd = -0.625\n")).contains("items.on_demand_write_per_million.usd"));
        assert!(bad(&BUILTIN_US_EAST_1.replace("[items.provisioned_rcu_hour]", "[items.provisioned_rcu_hourly]")).contains("missing"));
        assert!(bad(&BUILTIN_US_EAST_1.replace("currency = \"USD\"", "currency = \"EUR\"")).contains("only USD"));
        assert!(bad("region = 3").contains("p.toml: line 1"));
        assert!(Catalog::load(Path::new("no/such/prices.toml")).unwrap_err().to_string().contains("no/such/prices.toml"));
    }
}
