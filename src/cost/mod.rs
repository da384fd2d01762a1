//! Cost: a price catalog and the bill of recorded usage. Pure: no engine state, no files beyond
//! reading a catalog; every figure comes with the arithmetic that produced it.
//!
//! Billing rules (spec §10): on-demand bills request units consumed (throttled attempts are not
//! billed); provisioned bills provisioned unit-hours, time-weighted (a change mid-hour is billed
//! for the part of the hour it was in force); a resource that switches mode bills each part of
//! the window in the mode it had; reserved capacity bills its upfront fee amortised over the
//! term, its hourly fee, and provisioned capacity above the reservation at list price (Standard
//! class only); storage bills GB-months (10^9 bytes, 730 hours a month). The always-free tier
//! (25 RCU, 25 WCU, 25 GB) applies to provisioned capacity and Standard storage.
//!
//! A new line kind is a [`PriceItem`], a function in `bill.rs`, and the usage it bills.

mod bill;
mod catalog;
mod component;
mod metered;
mod needs;
pub mod offer;
mod reservable;
mod usage;

pub use crate::scenario::{PriceItem, SavingsPlan};
pub use bill::{
    bill, bill_of, Bill, BillLine, BillOptions, Reservation, HOURS_PER_MONTH, HOURS_PER_YEAR, RESERVED_BLOCK, STREAMS_FREE_PER_MONTH,
};
pub use catalog::{known_regions, Catalog, CatalogError, Price, BUILTIN, BUILTIN_US_EAST_1};
pub use component::{BillComponent, CostGroup};
pub use metered::MeteredUsage;
pub use needs::items_used;
pub use reservable::no_reservation;
pub use usage::{BackupUsage, DaxUsage, InsightsUsage, OwnedCover, ResourceUsage, StreamsUsage, TableSeries, Usage};
