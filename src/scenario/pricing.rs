//! `[pricing]`: the catalog's region, the free tier, price overrides, extrapolation and a Savings
//! Plan's terms. The cost model reads them; the catalog itself is the cost model's.

use super::price_item::PriceItem;
use serde::{Deserialize, Serialize};

/// Pricing options (the catalog itself belongs to the cost model).
#[derive(Clone, Debug)]
pub struct PricingSpec {
    /// Region of the catalog.
    pub region: String,
    /// Deduct the always-free tier.
    pub free_tier: bool,
    /// Price overrides, by catalog item, USD.
    pub overrides: Vec<(PriceItem, f64)>,
    /// The window's traffic is taken as representative: bills show it extrapolated to a month
    /// and a year (`[pricing] extrapolate = "repeat"`); otherwise only the window's cost.
    pub extrapolate: bool,
    /// A Savings Plan on eligible usage.
    pub savings_plan: Option<SavingsPlan>,
    /// Reserved capacity already owned (`[pricing] reserved`).
    pub reserved: Vec<OwnedReservation>,
}

/// Reserved capacity the team already owns: billed whether used or not, covering provisioned
/// capacity (the table's and its GSIs', Standard class, the table's region) while its term runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnedReservation {
    /// Reserved RCU, a multiple of 100.
    pub rcu: u64,
    /// Reserved WCU, a multiple of 100.
    pub wcu: u64,
    /// Term, years: 1 or 3.
    pub years: u32,
    /// Start of the term, seconds since the Unix epoch.
    pub start_unix_s: i64,
}

impl OwnedReservation {
    /// End of the term, seconds since the Unix epoch (365-day years, as AWS's terms run).
    #[must_use]
    pub fn end_unix_s(&self) -> i64 {
        self.start_unix_s + i64::from(self.years) * 365 * 86_400
    }
}
/// A Savings Plan (`[pricing] savings_plan`): an hourly commitment, in dollars after the
/// discount, that pays for eligible usage (on-demand and provisioned units not covered by
/// reserved capacity) at `discount` off list; eligible usage above it is billed at list, and
/// an hour that uses less still pays the whole commitment. AWS publishes the rate per
/// offering, not a DynamoDB discount: `discount` is the user's assumption.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavingsPlan {
    /// USD an hour.
    pub commitment_per_hour: f64,
    /// Share off list price, 0-1.
    pub discount: f64,
}
