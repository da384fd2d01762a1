//! `[pricing]` as written.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

/// `[pricing]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPricing {
    /// AWS Region of the price catalog; default "us-east-1".
    pub region: Option<String>,
    /// Deduct the always-free 25 RCU / 25 WCU / 25 GB; default false.
    #[serde(default)]
    pub free_tier: bool,
    /// Price overrides by catalog item name (USD), e.g. `on_demand_write_per_million = 0.5`.
    #[serde(default)]
    pub overrides: BTreeMap<String, f64>,
    /// Whether the window's traffic is representative: "repeat" shows the window's cost
    /// extrapolated to a 730-hour month and a year, labelled as such; "none" shows the window's
    /// cost only; default "repeat" for a window of 24 h or more, "none" below.
    pub extrapolate: Option<RawExtrapolate>,
    /// A Savings Plan, `{ commitment_per_hour = 1.5, discount = 0.12 }`: USD an hour committed
    /// (after the discount) and the share off list it buys for on-demand and provisioned units;
    /// the discount is your assumption (AWS publishes rates per offering); default none.
    pub savings_plan: Option<RawSavingsPlan>,
    /// Reserved capacity the team already owns in the table's region, `[{ rcu = 100, wcu =
    /// 200, term = "1y", start = "2026-03-01" }]`: billed in every run (its upfront already
    /// paid, spread over the term, and its hourly fee), covering the provisioned capacity of the
    /// table and its GSIs while its term runs; `compare` and `recommend` price only what to buy
    /// on top; default none.
    #[serde(default)]
    pub reserved: Vec<RawOwnedReservation>,
}

/// One reservation owned (`[pricing] reserved`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOwnedReservation {
    /// Reserved read capacity units, in blocks of 100; default 0.
    #[serde(default)]
    pub rcu: u64,
    /// Reserved write capacity units, in blocks of 100; default 0.
    #[serde(default)]
    pub wcu: u64,
    /// The term: "1y" or "3y".
    pub term: String,
    /// When the term began: a date ("2026-03-01") or an RFC 3339 instant, UTC.
    pub start: String,
}

/// `[pricing] savings_plan`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSavingsPlan {
    /// USD an hour, after the discount.
    pub commitment_per_hour: f64,
    /// Share off list price, between 0 and 1 (0.12 is 12 %).
    pub discount: f64,
}

/// `[pricing] extrapolate`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawExtrapolate {
    /// The window repeats: monthly and yearly figures are shown as extrapolations.
    Repeat,
    /// The window is an event: only its own cost is shown.
    None,
}
