//! The bill of recorded usage, line by line, each line with its arithmetic (spec §10).
//!
//! One small function per kind of line: provisioned unit-hours, reserved capacity, on-demand
//! request units, storage. Each part of the window is billed in the capacity mode it had.

use super::catalog::Catalog;
use super::component::BillComponent;
use super::metered::MeteredUsage;
use super::usage::{BackupUsage, DaxUsage, InsightsUsage, ResourceUsage, StreamsUsage, Usage};
use crate::engine::RunResult;
use crate::format::fmt_num;
pub use crate::limits::{HOURS_PER_MONTH, HOURS_PER_YEAR, RESERVED_BLOCK, STREAMS_FREE_PER_MONTH};
use crate::scenario::Scenario;
use crate::scenario::{PriceItem, SavingsPlan};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Reserved capacity bought.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Reserved capacity, applied to the provisioned capacity of the table and its GSIs (Standard
    /// class), the table first.
    pub reservation: Option<Reservation>,
    /// The window is representative: the bill states monthly and yearly extrapolations
    /// (`[pricing] extrapolate = "repeat"`). Otherwise it states the window's cost only.
    pub extrapolate: bool,
    /// A Savings Plan applied to eligible usage.
    pub savings_plan: Option<SavingsPlan>,
}

impl BillOptions {
    /// The options a scenario's `[pricing]` states (no reservation).
    #[must_use]
    pub fn of(p: &crate::scenario::PricingSpec) -> Self {
        Self { free_tier: p.free_tier, reservation: None, extrapolate: p.extrapolate, savings_plan: p.savings_plan }
    }
}

/// One line of a bill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BillLine {
    /// Table or index.
    pub resource: String,
    /// What it charges for.
    pub component: BillComponent,
    /// Quantity in `unit`.
    pub quantity: f64,
    /// Unit of the quantity.
    pub unit: String,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Bill {
    /// Hours billed (the simulated window).
    pub window_hours: f64,
    /// Lines.
    pub lines: Vec<BillLine>,
    /// Total over the window, USD: the headline figure.
    pub total_usd: f64,
    /// The window's traffic is taken as representative (`[pricing] extrapolate = "repeat"`), so
    /// the monthly and yearly extrapolations are stated.
    pub extrapolated: bool,
    /// Extrapolated to a 730-hour month, USD, if the window repeats (labelled as extrapolated
    /// in reports); `None` for an event window.
    pub monthly_usd: Option<f64>,
    /// Extrapolated to a year (8,760 hours), USD, if the window repeats.
    pub yearly_usd: Option<f64>,
    /// Reserved-capacity upfront paid at purchase, USD (not in the totals, which amortise it).
    pub upfront_usd: f64,
    /// The table is of the Standard-IA class (reserved capacity does not apply to it).
    #[serde(default)]
    pub standard_ia: bool,
    /// Price items used that are unverified, by name.
    pub unverified_items: Vec<PriceItem>,
    /// Of the reserved capacity in force (owned and bought), the share of its unit-hours no
    /// provisioned capacity used: [RCU, WCU], `None` where none was reserved.
    #[serde(default)]
    pub reserved_unused_share: [Option<f64>; 2],
}

impl Bill {
    /// The window's cost at a 730-hour month's rate, USD, whether or not the bill states it:
    /// what searches rank settings by (the same order as the window's cost, in the unit their
    /// reports use). Reports of a single run state [`Bill::monthly_usd`] instead.
    #[must_use]
    pub fn monthly_rate_usd(&self) -> f64 {
        if self.window_hours > 0.0 {
            self.total_usd * HOURS_PER_MONTH / self.window_hours
        } else {
            0.0
        }
    }
}

/// A bill being written.
struct Biller<'a> {
    /// The catalog of the resource being billed (a replica's region's, else the table's).
    catalog: &'a Catalog,
    hours: f64,
    lines: Vec<BillLine>,
    unverified: BTreeSet<&'static str>,
    free_rcu_hours: f64,
    free_wcu_hours: f64,
    free_gb_months: f64,
    upfront: f64,
    /// List price of usage a Savings Plan may cover, per minute of the window, USD.
    eligible: Vec<f64>,
}

impl Biller<'_> {
    fn line(&mut self, resource: &str, component: BillComponent, quantity: f64, unit: &str, item: PriceItem, arithmetic: String) {
        let price = self.catalog.price(item);
        if !price.verified {
            self.unverified.insert(item.name());
        }
        self.lines.push(BillLine {
            resource: resource.to_string(),
            component,
            quantity,
            unit: unit.to_string(),
            unit_price_usd: price.usd,
            cost_usd: quantity * price.usd,
            unverified: !price.verified,
            arithmetic,
        });
    }

    /// Provisioned unit-hours of one dimension, less what a reservation and the free tier cover.
    /// `cover` is, per minute, the reserved units not yet used by the resources billed before
    /// this one; this resource uses what it can of them.
    fn provisioned(&mut self, r: &ResourceUsage, write: bool, ia: bool, cover: Option<&mut Vec<f64>>) {
        let series = if write { &r.provisioned_wcu_by_minute } else { &r.provisioned_rcu_by_minute };
        let label = if write { "WCU" } else { "RCU" };
        let excess_by_minute: std::borrow::Cow<'_, [f64]> = match cover {
            Some(cover) => {
                if cover.len() < series.len() {
                    let fill = cover.first().copied().unwrap_or(0.0);
                    cover.resize(series.len(), fill);
                }
                series
                    .iter()
                    .zip(cover.iter_mut())
                    .map(|(x, c)| {
                        let used = x.min(*c);
                        *c -= used;
                        x - used
                    })
                    .collect()
            }
            None => std::borrow::Cow::Borrowed(series),
        };
        let unit_hours = excess_by_minute.iter().sum::<f64>() / 60.0;
        // The free tier is the table's region's (a replica's region has its own, left out).
        let mut no_free = 0.0;
        let free = match (r.region.is_some(), write) {
            (true, _) => &mut no_free,
            (false, true) => &mut self.free_wcu_hours,
            (false, false) => &mut self.free_rcu_hours,
        };
        let deducted = unit_hours.min(*free);
        *free -= deducted;
        let billed = unit_hours - deducted;
        // A replica's writes are replicated writes (rWCU-hours; Standard-IA at its WCU price,
        // spec §10.1's assumption).
        let replicated = write && r.region.is_some() && !ia;
        let item = if replicated { PriceItem::ReplicatedWcuHour } else { PriceItem::provisioned(write, ia) };
        let label = if write && r.region.is_some() { "rWCU" } else { label };
        let price = self.catalog.price(item).usd;
        // What each minute bills at list, for a Savings Plan: its units above the reservation,
        // less its share of the free tier.
        let paid_share = if unit_hours > 0.0 { billed / unit_hours } else { 0.0 };
        for (m, units) in excess_by_minute.iter().enumerate() {
            if let Some(e) = self.eligible.get_mut(m) {
                *e += units / 60.0 * price * paid_share;
            }
        }
        let hours = r.provisioned_hours;
        let avg = billed / hours.max(1e-12);
        let free_note = if deducted > 0.0 { format!(" (after {} free {label}-h)", fmt_num(deducted)) } else { String::new() };
        let component = if write { BillComponent::Writes } else { BillComponent::Reads };
        let arithmetic = format!("{} {label} x {hours:.3} h x ${price}{free_note}", fmt_num((avg * 1000.0).round() / 1000.0));
        self.line(&r.name, component, billed, &format!("{label}-hours"), item, arithmetic);
    }

    /// Reserved capacity of `units` for `years`: the upfront fee's share of the term, and the
    /// hourly fee (spec §10.1; capacity above the reservation is billed at list price).
    fn reserved(&mut self, r: &str, write: bool, years: u32, units: u64) {
        let label = if write { "WCU" } else { "RCU" };
        let blocks = (units / RESERVED_BLOCK) as f64;
        let term_hours = f64::from(years) * HOURS_PER_YEAR;
        let (up_item, hr_item) = PriceItem::reserved(years, write);
        let up = self.catalog.price(up_item).usd;
        let hr = self.catalog.price(hr_item).usd;
        self.upfront += blocks * up;
        let share = self.hours / term_hours;
        let arithmetic =
            format!("{} blocks of 100 {label} x ${up} x {:.3} h / {} h term", fmt_num(blocks), self.hours, fmt_num(term_hours));
        self.line(r, BillComponent::ReservedUpfront, blocks * share, "blocks x term share", up_item, arithmetic);
        let arithmetic = format!("{} blocks x {:.3} h x ${hr}", fmt_num(blocks), self.hours);
        self.line(r, BillComponent::ReservedHourly, blocks * self.hours, "block-hours", hr_item, arithmetic);
    }

    /// A reservation already owned: its upfront fee (paid at purchase) spread over the term,
    /// and its hourly fee, for the hours of the window its term covers; both owed whether
    /// provisioned capacity uses it or not.
    fn owned(&mut self, r: &str, o: &crate::cost::OwnedCover) {
        if self.catalog.sells_reserved(o.years).is_err() {
            // The region sells no such term: nothing to price it at (the CLI refuses it first).
            return;
        }
        let term_hours = f64::from(o.years) * HOURS_PER_YEAR;
        for (write, units) in [(false, o.rcu), (true, o.wcu)] {
            if units == 0 || o.hours <= 0.0 {
                continue;
            }
            let label = if write { "WCU" } else { "RCU" };
            let blocks = (units / RESERVED_BLOCK) as f64;
            let (up_item, hr_item) = PriceItem::reserved(o.years, write);
            let up = self.catalog.price(up_item).usd;
            let hr = self.catalog.price(hr_item).usd;
            let arithmetic = format!(
                "owned: {} blocks of 100 {label} x ${up} (paid) x {:.3} h / {} h term",
                fmt_num(blocks),
                o.hours,
                fmt_num(term_hours)
            );
            self.line(r, BillComponent::ReservedUpfront, blocks * o.hours / term_hours, "blocks x term share", up_item, arithmetic);
            let arithmetic = format!("owned: {} blocks x {:.3} h x ${hr}", fmt_num(blocks), o.hours);
            self.line(r, BillComponent::ReservedHourly, blocks * o.hours, "block-hours", hr_item, arithmetic);
        }
    }

    /// On-demand request units consumed while on-demand.
    fn on_demand(&mut self, r: &ResourceUsage, ia: bool) {
        let replica = r.region.is_some();
        for (write, units, label) in
            [(false, r.on_demand_read_units, "RRU"), (true, r.on_demand_write_units, if replica { "rWRU" } else { "WRU" })]
        {
            let item = if write && replica && !ia { PriceItem::ReplicatedWritePerMillion } else { PriceItem::on_demand(write, ia) };
            let per_unit = self.catalog.price(item).usd / 1e6;
            let n = self.eligible.len();
            if r.on_demand_units_by_minute.is_empty() {
                for e in &mut self.eligible {
                    *e += units * per_unit / n as f64;
                }
            } else {
                for (e, u) in self.eligible.iter_mut().zip(&r.on_demand_units_by_minute) {
                    *e += u[usize::from(write)] * per_unit;
                }
            }
            let millions = units / 1e6;
            let arithmetic = format!("{} M {label} x ${}", fmt_num(millions), self.catalog.price(item).usd);
            let component = if write { BillComponent::Writes } else { BillComponent::Reads };
            self.line(&r.name, component, millions, &format!("million {label}"), item, arithmetic);
        }
    }

    /// Backups, restores and exports of the table (no free tier; the same price for either
    /// table class: AWS prices them per GB, not per class).
    fn backups(&mut self, table: &str, b: &BackupUsage) {
        if b.pitr_gb_months > 0.0 {
            let price = self.catalog.price(PriceItem::PitrGbMonth).usd;
            let arithmetic = format!(
                "{:.3} GB-months of the table's size x ${price} (a {}-day recovery period: it does not change the price)",
                b.pitr_gb_months, b.pitr_recovery_days
            );
            self.line(table, BillComponent::Pitr, b.pitr_gb_months, "GB-months", PriceItem::PitrGbMonth, arithmetic);
        }
        if b.backup_gb_months > 0.0 {
            let price = self.catalog.price(PriceItem::BackupGbMonth).usd;
            let arithmetic = format!("{:.3} GB-months in {:.1} backups stored on average x ${price}", b.backup_gb_months, b.backups_stored);
            self.line(table, BillComponent::Backups, b.backup_gb_months, "GB-months", PriceItem::BackupGbMonth, arithmetic);
        }
        for (list, component, item, what) in [
            (&b.restores, BillComponent::Restores, PriceItem::RestoreGb, "restored"),
            (&b.exports, BillComponent::Exports, PriceItem::ExportGb, "exported"),
        ] {
            if list.is_empty() {
                continue;
            }
            let gb: f64 = list.iter().map(|x| x.1).sum();
            let price = self.catalog.price(item).usd;
            let arithmetic = format!("{} x {:.3} GB {what} x ${price}", list.len(), gb / list.len() as f64);
            self.line(table, component, gb, "GB", item, arithmetic);
        }
    }

    /// DynamoDB Streams: the pollers' GetRecords calls, less the free tier's 2.5 M a month
    /// (pro rata over the window).
    fn streams(&mut self, table: &str, s: &StreamsUsage, free_tier: bool) {
        let free = if free_tier { STREAMS_FREE_PER_MONTH * self.hours / HOURS_PER_MONTH } else { 0.0 };
        let deducted = s.read_units.min(free);
        let billed = s.read_units - deducted;
        let price = self.catalog.price(PriceItem::StreamsReadPer100k).usd;
        let free_note = if deducted > 0.0 { format!(" (after {} free)", fmt_num(deducted.round())) } else { String::new() };
        let lambda = if s.free_consumers > 0 { format!("; {} free consumer(s) not billed", s.free_consumers) } else { String::new() };
        let arithmetic = format!(
            "{} GetRecords calls over {:.1} shard-hours / 100,000 x ${price}{free_note}{lambda}",
            fmt_num(s.read_units.round()),
            s.shard_minutes / 60.0
        );
        self.line(table, BillComponent::Streams, billed / 1e5, "100,000 stream reads", PriceItem::StreamsReadPer100k, arithmetic);
    }

    /// A DAX cluster: node-hours at its node type's price (DAX is not covered by DynamoDB's
    /// Savings Plans or reserved capacity here).
    fn dax(&mut self, table: &str, d: &DaxUsage) {
        let item = d.node_type.price_item();
        let price = self.catalog.price(item).usd;
        let arithmetic = format!("{} x {} node-hours (a partial hour billed whole) x ${price}", d.node_type, fmt_num(d.node_hours));
        self.line(table, BillComponent::Dax, d.node_hours, "node-hours", item, arithmetic);
    }

    /// A Savings Plan over the eligible usage, hour by hour: the commitment for each hour (its
    /// part, for a partial last hour), and a credit of the list price it covered — at most the
    /// hour's eligible usage, and at most the commitment grossed up by the discount.
    fn savings_plan(&mut self, table: &str, sp: SavingsPlan) {
        let minutes = self.eligible.len();
        let (mut committed, mut covered, mut eligible) = (0.0, 0.0, 0.0);
        for hour in self.eligible.chunks(60) {
            let commit = sp.commitment_per_hour * hour.len() as f64 / 60.0;
            let list: f64 = hour.iter().sum();
            committed += commit;
            covered += list.min(commit / (1.0 - sp.discount));
            eligible += list;
        }
        let hours = minutes as f64 / 60.0;
        self.lines.push(BillLine {
            resource: table.to_string(),
            component: BillComponent::SavingsPlanCommitment,
            quantity: hours,
            unit: "hours".into(),
            unit_price_usd: sp.commitment_per_hour,
            cost_usd: committed,
            unverified: true,
            arithmetic: format!("${} an hour x {hours:.3} h at {:.1} % off list", sp.commitment_per_hour, sp.discount * 100.0),
        });
        self.lines.push(BillLine {
            resource: table.to_string(),
            component: BillComponent::SavingsPlanCovered,
            quantity: covered,
            unit: "USD at list".into(),
            unit_price_usd: -1.0,
            cost_usd: -covered,
            unverified: true,
            arithmetic: format!(
                "-${covered:.4} of ${eligible:.4} eligible at list: each hour at most the commitment / (1 - {})",
                sp.discount
            ),
        });
    }

    /// CloudWatch Contributor Insights on a table or index: its rules for the window (a month's
    /// fee pro rata) and its events.
    fn insights(&mut self, u: &InsightsUsage) {
        let rule = self.catalog.price(PriceItem::ContributorInsightsRuleMonth).usd;
        let months = self.hours / HOURS_PER_MONTH;
        let arithmetic = format!("{} rules ({}) x {:.3} h / 730 h x ${rule}", u.rules, u.mode.name(), self.hours);
        self.line(
            &u.resource,
            BillComponent::ContributorInsights,
            f64::from(u.rules) * months,
            "rule-months",
            PriceItem::ContributorInsightsRuleMonth,
            arithmetic,
        );
        let per_m = self.catalog.price(PriceItem::ContributorInsightsEventsPerMillion).usd;
        let arithmetic = format!("{} M events x ${per_m}", fmt_num((u.events / 1e3).round() / 1e3));
        self.line(
            &u.resource,
            BillComponent::ContributorInsights,
            u.events / 1e6,
            "million events",
            PriceItem::ContributorInsightsEventsPerMillion,
            arithmetic,
        );
    }

    /// A unit metered per request: its quantity in billed units at its item's price.
    fn metered(&mut self, m: &MeteredUsage, ia: bool) {
        let item = m.meter.price_item(ia);
        let (per, unit) = m.meter.billed_unit();
        let price = self.catalog.price(item).usd;
        let bytes = format!("{} bytes / {} x ${price}", fmt_num(m.quantity.round()), fmt_num(per));
        let arithmetic = match &m.basis {
            Some(b) => format!("{b} = {bytes}"),
            None => bytes,
        };
        self.line(&m.resource, BillComponent::Metered(m.meter), m.quantity / per, unit, item, arithmetic);
    }

    /// Global tables: the data a region's own writes send to the other regions, priced as
    /// transfer out of that region.
    fn transfer(&mut self, r: &ResourceUsage) {
        if r.transfer_gb <= 0.0 {
            return;
        }
        let price = self.catalog.price(PriceItem::CrossRegionTransferGb).usd;
        let arithmetic =
            format!("{:.3} GB sent to the other regions (at most 1 KB per write unit replicated, an estimate) x ${price}", r.transfer_gb);
        self.line(&r.name, BillComponent::ReplicationTransfer, r.transfer_gb, "GB", PriceItem::CrossRegionTransferGb, arithmetic);
    }

    /// Storage: GB-months of items plus their overhead, less the free tier.
    fn storage(&mut self, r: &ResourceUsage, ia: bool) {
        let gb_months = r.storage_gb_by_minute.iter().sum::<f64>() / 60.0 / HOURS_PER_MONTH;
        let deducted = if r.region.is_some() { 0.0 } else { gb_months.min(self.free_gb_months) };
        self.free_gb_months -= deducted;
        let item = PriceItem::storage(ia);
        let price = self.catalog.price(item).usd;
        let avg_gb = r.storage_gb_by_minute.iter().sum::<f64>() / r.storage_gb_by_minute.len().max(1) as f64;
        let arithmetic = format!("{avg_gb:.3} GB x {:.3} h / 730 h x ${price}", self.hours);
        self.line(&r.name, BillComponent::Storage, gb_months - deducted, "GB-months", item, arithmetic);
    }
}

/// Bills `usage` at `catalog` prices.
#[must_use]
pub fn bill(usage: &Usage, catalog: &Catalog, opts: &BillOptions) -> Bill {
    let ia = usage.standard_ia;
    let mut b = Biller {
        catalog,
        hours: usage.hours,
        lines: Vec::new(),
        unverified: BTreeSet::new(),
        free_rcu_hours: if opts.free_tier { catalog.free_rcu as f64 * usage.hours } else { 0.0 },
        free_wcu_hours: if opts.free_tier { catalog.free_wcu as f64 * usage.hours } else { 0.0 },
        free_gb_months: if opts.free_tier && !ia { catalog.free_storage_gb * usage.hours / HOURS_PER_MONTH } else { 0.0 },
        upfront: 0.0,
        // Only a Savings Plan reads it: without one it stays empty and costs nothing.
        eligible: if opts.savings_plan.is_some() { vec![0.0; (usage.hours * 60.0).ceil() as usize] } else { Vec::new() },
    };
    // Reserved capacity covers the provisioned capacity of the Standard-class table and its
    // GSIs alike (spec §10.1: a regional commitment): each minute it is used by the table
    // first, then by each index in turn, and only the capacity above it is billed at list.
    // Reservations already owned bill their fees whatever the table does, and cover like one
    // bought; one bought here (`opts.reservation`) is on top of them.
    let reservation = opts.reservation.filter(|_| !ia && usage.resources.first().is_some_and(|t| t.provisioned));
    let minutes = usage.resources.iter().map(|r| r.provisioned_rcu_by_minute.len()).max().unwrap_or(0);
    let mut cover: [Option<Vec<f64>>; 2] = [None, None];
    let table = usage.resources.first().map(|t| t.name.clone()).unwrap_or_default();
    for o in &usage.owned {
        b.owned(&table, o);
        for (d, units) in [o.rcu, o.wcu].into_iter().enumerate() {
            if units > 0 {
                let c = cover[d].get_or_insert_with(|| vec![0.0; minutes]);
                for x in &mut c[o.minutes.0.min(minutes)..o.minutes.1.min(minutes)] {
                    *x += units as f64;
                }
            }
        }
    }
    if let Some(res) = reservation {
        for (d, units) in [res.rcu, res.wcu].into_iter().enumerate() {
            if units > 0 {
                b.reserved(&table, d == 1, res.years, units);
                for x in cover[d].get_or_insert_with(|| vec![0.0; minutes]).iter_mut() {
                    *x += units as f64;
                }
            }
        }
    }
    let reserved_unit_minutes = cover.each_ref().map(|c| c.as_ref().map(|c| c.iter().sum::<f64>()));
    for r in &usage.resources {
        // A replica is billed at its region's prices (the scenario's overrides are the table's).
        b.catalog = r.region.as_deref().and_then(Catalog::builtin_ref).unwrap_or(catalog);
        if r.provisioned {
            // Reserved capacity is regional and Standard-class: the table's region's covers no
            // replica, and no Standard-IA table (whose reservations owned are all unused).
            let [read_cover, write_cover] = &mut cover;
            let (rc, wc) = if r.region.is_some() || ia { (None, None) } else { (read_cover.as_mut(), write_cover.as_mut()) };
            b.provisioned(r, false, ia, rc);
            b.provisioned(r, true, ia, wc);
        }
        if r.on_demand {
            b.on_demand(r, ia);
        }
        b.storage(r, ia);
        b.transfer(r);
    }
    b.catalog = catalog;
    for u in &usage.insights {
        b.insights(u);
    }
    for m in &usage.metered {
        b.metered(m, ia);
    }
    if let Some(table) = usage.resources.first() {
        let name = table.name.clone();
        b.backups(&name, &usage.backups);
        if let Some(s) = &usage.streams {
            b.streams(&name, s, opts.free_tier);
        }
        if let Some(d) = &usage.dax {
            b.dax(&name, d);
        }
        if let Some(sp) = opts.savings_plan {
            b.savings_plan(&name, sp);
        }
    }
    let total: f64 = b.lines.iter().map(|l| l.cost_usd).sum();
    let scale = if usage.hours > 0.0 { HOURS_PER_MONTH / usage.hours } else { 0.0 };
    Bill {
        window_hours: usage.hours,
        total_usd: total,
        extrapolated: opts.extrapolate,
        monthly_usd: opts.extrapolate.then_some(total * scale),
        yearly_usd: opts.extrapolate.then_some(total * scale * 12.0),
        upfront_usd: b.upfront,
        standard_ia: usage.standard_ia,
        unverified_items: b.unverified.into_iter().filter_map(PriceItem::from_name).collect(),
        lines: b.lines,
        reserved_unused_share: std::array::from_fn(|d| match (reserved_unit_minutes[d], &cover[d]) {
            (Some(total), Some(left)) if total > 0.0 => Some(left.iter().sum::<f64>() / total),
            _ => None,
        }),
    }
}

/// The bill of a run of `sc` in the mode(s) it ran, at `catalog` prices with the scenario's
/// overrides and free-tier choice.
#[must_use]
pub fn bill_of(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Bill {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    bill(&Usage::of(r, sc), &catalog, &BillOptions::of(&sc.pricing))
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
            backups: BackupUsage::default(),
            streams: None,
            dax: None,
            insights: Vec::new(),
            metered: Vec::new(),
            owned: Vec::new(),
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
            backups: BackupUsage::default(),
            streams: None,
            dax: None,
            insights: Vec::new(),
            metered: Vec::new(),
            owned: Vec::new(),
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 0.005, "{a} vs {b}");
    }

    /// 500 WCU provisioned for an hour, 200 owned (a year's term, all of it in force) and 300
    /// bought on top: every WCU is covered, nothing bills at list, and both reservations bill
    /// their fees — the owned one's upfront share in the total but not in `upfront_usd`
    /// (paid before), the bought one's in both.
    #[test]
    fn a_reservation_bought_stacks_on_one_owned() {
        let mut u = prov(0.0, 500.0, 1.0);
        u.owned = vec![crate::cost::OwnedCover { rcu: 0, wcu: 200, years: 1, minutes: (0, 60), hours: 1.0 }];
        let opts = BillOptions { reservation: Some(Reservation { rcu: 0, wcu: 300, years: 1 }), ..BillOptions::default() };
        let b = bill(&u, &Catalog::builtin(), &opts);
        let sum = |c: BillComponent| b.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>();
        assert!(sum(BillComponent::Writes).abs() < 1e-12, "{:#?}", b.lines);
        assert!((sum(BillComponent::ReservedHourly) - 5.0 * 0.0128).abs() < 1e-12);
        assert!((sum(BillComponent::ReservedUpfront) - 5.0 * 150.0 / 8_760.0).abs() < 1e-12);
        assert!((b.upfront_usd - 3.0 * 150.0).abs() < 1e-12);
        assert_eq!(b.reserved_unused_share, [None, Some(0.0)]);
        // The owned one alone leaves 300 WCU at list: 300 x $0.00065.
        let alone = bill(&u, &Catalog::builtin(), &BillOptions::default());
        assert!(
            (alone.lines.iter().filter(|l| l.component == BillComponent::Writes).map(|l| l.cost_usd).sum::<f64>() - 0.195).abs() < 1e-12
        );
    }

    #[test]
    fn dollar_4_provisioned_100_100_for_a_month() {
        // 100 x 0.00013 x 730 = 9.49; 100 x 0.00065 x 730 = 47.45.
        let b = bill(&prov(100.0, 100.0, 730.0), &Catalog::builtin(), &BillOptions::default());
        close(b.lines[0].cost_usd, 9.49);
        close(b.lines[1].cost_usd, 47.45);
        close(b.total_usd, 56.94);
        assert_eq!(b.monthly_usd, None, "not stated unless the window repeats");
        close(b.monthly_rate_usd(), 56.94);
    }

    /// The same month in each built-in region, at the prices docs/prices-verified.md found
    /// (ap-southeast-1's on-demand by the ratio, found nowhere): provisioned
    /// 100 RCU + 100 WCU for 730 h, and 50 M on-demand writes + 10 M reads.
    #[test]
    fn each_region_bills_at_its_own_prices() {
        // (region, RCU-hour, WCU-hour, on-demand write and read per million)
        let rows = [
            ("us-east-1", 0.00013, 0.00065, 0.625, 0.125),
            ("us-east-2", 0.00013, 0.00065, 0.625, 0.125),
            ("us-west-2", 0.00013, 0.00065, 0.625, 0.125),
            ("eu-west-1", 0.000147, 0.000735, 0.705, 0.1415),
            ("eu-central-1", 0.0001586, 0.000793, 0.7625, 0.1525),
            ("ap-southeast-1", 0.000148, 0.00074, 0.711538, 0.142308),
            ("ap-northeast-1", 0.0001484, 0.000742, 0.715, 0.1425),
        ];
        for (r, rcu_h, wcu_h, w_m, r_m) in rows {
            let c = Catalog::for_region(r).unwrap();
            let b = bill(&prov(100.0, 100.0, 730.0), &c, &BillOptions::default());
            // eu-west-1: 100 x 0.000147 x 730 = $10.731 and 100 x 0.000735 x 730 = $53.655.
            close(b.lines[0].cost_usd, 100.0 * rcu_h * 730.0);
            close(b.lines[1].cost_usd, 100.0 * wcu_h * 730.0);
            // eu-west-1: 50 x $0.705 = $35.25 and 10 x $0.1415 = $1.415.
            let b = bill(&od(10e6, 50e6, false), &c, &BillOptions::default());
            close(b.total_usd, 50.0 * w_m + 10.0 * r_m);
        }
    }

    /// A two-hour launch of 1,000 WCU: $1.30 for the window (1,000 x 2 h x $0.00065). Taken as
    /// representative it is $474.50 a month (x 730 / 2) and $5,694 a year; as an event it states
    /// the window only.
    #[test]
    fn an_event_window_states_its_own_cost_and_a_repeating_one_its_extrapolation() {
        let u = prov(0.0, 1_000.0, 2.0);
        let event = bill(&u, &Catalog::builtin(), &BillOptions::default());
        close(event.total_usd, 1.30);
        assert!(!event.extrapolated && event.monthly_usd.is_none() && event.yearly_usd.is_none());
        let repeat = bill(&u, &Catalog::builtin(), &BillOptions { extrapolate: true, ..BillOptions::default() });
        close(repeat.total_usd, 1.30);
        close(repeat.monthly_usd.unwrap(), 474.50);
        close(repeat.yearly_usd.unwrap(), 5_694.0);
        assert!(repeat.extrapolated);
    }

    #[test]
    fn dollar_5_with_the_free_tier() {
        // 75 x (0.00013 + 0.00065) x 730 = 42.705.
        let b = bill(&prov(100.0, 100.0, 730.0), &Catalog::builtin(), &BillOptions { free_tier: true, ..BillOptions::default() });
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
        let r = bill(
            &u,
            &Catalog::builtin(),
            &BillOptions { reservation: Some(Reservation { rcu: 0, wcu: 100, years: 1 }), ..BillOptions::default() },
        );
        close(r.total_usd, 262.128);
        close(r.upfront_usd, 150.0);
        let list = bill(&u, &Catalog::builtin(), &BillOptions::default());
        close(list.total_usd, 569.40);
    }

    #[test]
    fn reserved_three_years_and_excess_at_list() {
        // 3-year: a year bills 180 / 3 = 60 of the upfront + 0.0081 x 8,760 = 70.956 -> 130.956.
        let u = prov(0.0, 100.0, 8_760.0);
        let r = bill(
            &u,
            &Catalog::builtin(),
            &BillOptions { reservation: Some(Reservation { rcu: 0, wcu: 100, years: 3 }), ..BillOptions::default() },
        );
        close(r.total_usd, 130.956);
        // 150 WCU provisioned with 100 reserved for 730 h: 100/8760 x 150 ... = 12.5 upfront
        // share + 0.0128 x 730 = 9.344 + 50 x 0.00065 x 730 = 23.725 at list: 45.569.
        let u = prov(0.0, 150.0, 730.0);
        let r = bill(
            &u,
            &Catalog::builtin(),
            &BillOptions { reservation: Some(Reservation { rcu: 0, wcu: 100, years: 1 }), ..BillOptions::default() },
        );
        close(r.total_usd, 12.5 + 9.344 + 23.725);
    }

    /// Reserved capacity is a regional pool: it covers a GSI's provisioned capacity as well as
    /// the table's. 150 WCU on the table and 50 on a GSI for 730 h, 200 WCU reserved for a
    /// year: 2 blocks x $150 x 730 / 8,760 = $25 upfront share + 2 x 0.0128 x 730 = $18.688
    /// hourly, and nothing at list: $43.688. With 100 reserved the table uses it all and the
    /// index's 50 WCU and the table's other 50 are at list: 12.5 + 9.344 + 100 x 0.00065 x 730
    /// = $69.294.
    #[test]
    fn reserved_capacity_covers_gsis() {
        let mut u = prov(0.0, 150.0, 730.0);
        let mut g = u.resources[0].clone();
        g.name = "g".into();
        g.provisioned_wcu_by_minute = vec![50.0; (730 * 60) as usize];
        u.resources.push(g);
        let opts = |wcu| BillOptions { reservation: Some(Reservation { rcu: 0, wcu, years: 1 }), ..BillOptions::default() };
        let full = bill(&u, &Catalog::builtin(), &opts(200));
        close(full.total_usd, 25.0 + 18.688);
        let part = bill(&u, &Catalog::builtin(), &opts(100));
        close(part.total_usd, 12.5 + 9.344 + 47.45);
        let index_list: f64 = part.lines.iter().filter(|l| l.resource == "g").map(|l| l.cost_usd).sum();
        close(index_list, 50.0 * 0.00065 * 730.0);
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

    /// A resource provisioned for part of the window and on-demand for the rest gets both kinds
    /// of line: 1,000 WCU for 0.5 h = $0.325, and 900,000 WRU = $0.5625.
    #[test]
    fn a_mixed_window_bills_both_modes() {
        let mut u = prov(0.0, 1_000.0, 1.0);
        let r = &mut u.resources[0];
        r.provisioned_hours = 0.5;
        for m in 30..60 {
            r.provisioned_wcu_by_minute[m] = 0.0;
        }
        r.on_demand = true;
        r.on_demand_write_units = 900_000.0;
        let b = bill(&u, &Catalog::builtin(), &BillOptions::default());
        let writes: Vec<(String, f64)> =
            b.lines.iter().filter(|l| l.component == BillComponent::Writes).map(|l| (l.unit.clone(), l.cost_usd)).collect();
        assert_eq!(writes.len(), 2);
        close(writes[0].1, 0.325);
        close(writes[1].1, 0.5625);
        assert!(b.lines[1].arithmetic.starts_with("1000 WCU x 0.500 h"), "{}", b.lines[1].arithmetic);
    }

    fn sp(commitment_per_hour: f64, discount: f64) -> BillOptions {
        BillOptions { savings_plan: Some(SavingsPlan { commitment_per_hour, discount }), ..BillOptions::default() }
    }

    /// 1,000 WCU for an hour list at $0.65. A $0.40/h plan at 12 % off pays for $0.40 / 0.88 =
    /// $0.454545 of list: the bill is 0.65 + 0.40 - 0.454545 = $0.595455. A $1.00/h plan
    /// covers all $0.65 and still costs its $1.00: the bill is $1.00.
    #[test]
    fn a_savings_plan_pays_for_usage_at_its_discount_up_to_its_commitment() {
        let u = prov(0.0, 1_000.0, 1.0);
        let b = bill(&u, &Catalog::builtin(), &sp(0.40, 0.12));
        assert!((b.total_usd - (0.65 + 0.40 - 0.40 / 0.88)).abs() < 1e-9, "{}", b.total_usd);
        let covered = b.lines.iter().find(|l| l.component == BillComponent::SavingsPlanCovered).unwrap();
        assert!((covered.cost_usd + 0.40 / 0.88).abs() < 1e-9);
        let over = bill(&u, &Catalog::builtin(), &sp(1.00, 0.12));
        assert!((over.total_usd - 1.00).abs() < 1e-9, "{}", over.total_usd);
    }

    /// The commitment is hourly and does not carry over: 1,000 WCU in the first hour and none
    /// in the second, a $0.40/h plan at 12 %: 0.65 + 2 x 0.40 - 0.454545 = $0.995455.
    #[test]
    fn an_idle_hour_still_pays_its_commitment() {
        let mut u = prov(0.0, 1_000.0, 2.0);
        for m in 60..120 {
            u.resources[0].provisioned_wcu_by_minute[m] = 0.0;
        }
        let b = bill(&u, &Catalog::builtin(), &sp(0.40, 0.12));
        assert!((b.total_usd - (0.65 + 0.80 - 0.40 / 0.88)).abs() < 1e-9, "{}", b.total_usd);
    }

    /// Capacity a reservation covers is not eligible: 150 WCU with 100 reserved leaves 50 WCU
    /// x $0.00065 = $0.0325 an hour at list; a $0.01/h plan at 20 % covers $0.0125 of it, a
    /// saving of $0.0025 an hour, $1.825 over 730 h.
    #[test]
    fn reserved_capacity_is_not_eligible() {
        let u = prov(0.0, 150.0, 730.0);
        let res = Some(Reservation { rcu: 0, wcu: 100, years: 1 });
        let without = bill(&u, &Catalog::builtin(), &BillOptions { reservation: res, ..BillOptions::default() });
        let with = bill(&u, &Catalog::builtin(), &BillOptions { reservation: res, ..sp(0.01, 0.20) });
        assert!((with.total_usd - without.total_usd + 1.825).abs() < 1e-6, "{} vs {}", with.total_usd, without.total_usd);
    }

    /// On-demand units are eligible: 10 M WRU over 730 h ($6.25, $0.0085616 an hour) with a
    /// $0.005/h plan at 20 % ($0.00625 of list an hour): 6.25 + 3.65 - 4.5625 = $5.3375.
    #[test]
    fn on_demand_units_are_eligible() {
        let b = bill(&od(0.0, 10e6, false), &Catalog::builtin(), &sp(0.005, 0.20));
        assert!((b.total_usd - 5.3375).abs() < 1e-6, "{}", b.total_usd);
    }
}
