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
