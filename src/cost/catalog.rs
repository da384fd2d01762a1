//! Price catalogs: the built-in ones of seven regions (`prices/<region>.toml`) or a file of the
//! user's, each price with its source and whether it was read off AWS's own pages.

use crate::scenario::PriceItem;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The built-in catalog of us-east-1.
pub const BUILTIN_US_EAST_1: &str = include_str!("../../prices/us-east-1.toml");

/// The built-in catalogs by region: us-east-1's from the behavioural specification, the others
/// generated from it and AWS's reserved-capacity tool by `tools/regional_prices.py`.
pub const BUILTIN: [(&str, &str); 7] = [
    ("us-east-1", BUILTIN_US_EAST_1),
    ("us-east-2", include_str!("../../prices/us-east-2.toml")),
    ("us-west-2", include_str!("../../prices/us-west-2.toml")),
    ("eu-west-1", include_str!("../../prices/eu-west-1.toml")),
    ("eu-central-1", include_str!("../../prices/eu-central-1.toml")),
    ("ap-southeast-1", include_str!("../../prices/ap-southeast-1.toml")),
    ("ap-northeast-1", include_str!("../../prices/ap-northeast-1.toml")),
];

/// The regions with a built-in catalog.
#[must_use]
pub fn known_regions() -> Vec<&'static str> {
    BUILTIN.iter().map(|(r, _)| *r).collect()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalog {
    region: String,
    currency: String,
    prices_read_on: String,
    /// The Price List offers the catalog was read from (`ddbsim prices`).
    price_list: Option<String>,
    items: BTreeMap<String, RawItem>,
    free_tier: RawFreeTier,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    usd: Option<f64>,
    verified: bool,
    source: String,
    /// `false`: AWS does not sell this in the region (only the 3-year reservation may say so).
    offered: Option<bool>,
    /// A price the Price List files did not hold, and why (`ddbsim prices`): no `usd`.
    gap: Option<String>,
    /// The Price List SKU the price was read from.
    sku: Option<String>,
    /// The Price List usage type the price was read from.
    usage_type: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFreeTier {
    rcu: u64,
    wcu: u64,
    storage_gb: f64,
    /// Where the free tier comes from (`ddbsim prices`: the offer files' $0 bands).
    #[serde(rename = "source")]
    _source: Option<String>,
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
    /// Date the prices were read (a Price List catalog: its offer file's publication date).
    pub prices_read_on: String,
    /// The Price List offers a catalog written by `ddbsim prices` was read from.
    pub price_list: Option<String>,
    /// Prices by item: every item the region sells.
    pub items: BTreeMap<PriceItem, Price>,
    /// What the region does not sell (the 3-year reservation in us-east-2), with the source
    /// that says so.
    pub not_offered: BTreeMap<PriceItem, String>,
    /// Prices the catalog lacks (a Price List file that does not hold them), with the reason:
    /// a run that needs one is refused until `[pricing.overrides]` or the file gives it.
    pub gaps: BTreeMap<PriceItem, String>,
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
        Self::builtin_ref("us-east-1").expect("us-east-1 is built in").clone()
    }

    /// The built-in catalog of `region`, if there is one.
    #[must_use]
    pub fn for_region(region: &str) -> Option<Self> {
        Self::builtin_ref(region).cloned()
    }

    /// The built-in catalog of `region`, parsed once for the process.
    ///
    /// # Panics
    /// Never: every built-in catalog is checked by a test.
    #[must_use]
    pub fn builtin_ref(region: &str) -> Option<&'static Self> {
        static PARSED: std::sync::OnceLock<Vec<Catalog>> = std::sync::OnceLock::new();
        PARSED
            .get_or_init(|| {
                BUILTIN
                    .iter()
                    .map(|(r, text)| Self::parse(text, Path::new(&format!("prices/{r}.toml"))).expect("the built-in catalogs are valid"))
                    .collect()
            })
            .iter()
            .find(|c| c.region == region)
    }

    /// Reads a catalog file.
    ///
    /// # Errors
    /// [`CatalogError`] naming the file and the problem.
    pub fn load(path: &Path) -> Result<Self, CatalogError> {
        let text = crate::input::read_text_capped(path, crate::input::PRICES_BYTES, "price catalog")
            .map_err(|source| CatalogError::Io { path: path.to_path_buf(), source })?;
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
        let all: Vec<&str> = PriceItem::ALL.iter().map(|i| i.name()).collect();
        for item in PriceItem::ALL {
            if !raw.items.contains_key(item.name()) {
                return Err(bad(format!("items.{item}: missing; a catalog prices every item ({})", all.join(", "))));
            }
        }
        let mut items = BTreeMap::new();
        let mut not_offered = BTreeMap::new();
        let mut gaps = BTreeMap::new();
        for (name, it) in raw.items {
            let Some(item) = PriceItem::from_name(&name) else {
                return Err(bad(format!("items.{name}: unknown price item")));
            };
            if let Some(why) = it.gap {
                if it.usd.is_some() {
                    return Err(bad(format!("items.{name}: a gap has no `usd`; remove one of them")));
                }
                gaps.insert(item, why);
                continue;
            }
            if it.offered == Some(false) {
                if PriceItem::RESERVED_3Y.contains(&item) && it.usd.is_none() {
                    not_offered.insert(item, it.source);
                    continue;
                }
                return Err(bad(format!(
                    "items.{name}.offered: only the 3-year reservation's items may be `offered = false`, and then without a price"
                )));
            }
            let usd = it.usd.ok_or_else(|| bad(format!("items.{name}.usd: missing; give the price, or `offered = false`")))?;
            if !usd.is_finite() || usd < 0.0 {
                return Err(bad(format!("items.{name}.usd: a price must be a finite number >= 0, not {usd}")));
            }
            let source = match (it.sku, it.usage_type) {
                (Some(sku), Some(usage)) if !it.source.contains(&sku) => format!("{} (SKU {sku}, usage type {usage})", it.source),
                _ => it.source,
            };
            items.insert(item, Price { usd, verified: it.verified, source });
        }
        if !not_offered.is_empty() && not_offered.len() != PriceItem::RESERVED_3Y.len() {
            return Err(bad(
                "items.reserved_3y_*: a region sells the 3-year reservation or not; mark all four `offered = false`, or none".into()
            ));
        }
        if !raw.free_tier.storage_gb.is_finite() || raw.free_tier.storage_gb < 0.0 {
            return Err(bad("free_tier.storage_gb: must be a finite number >= 0".into()));
        }
        Ok(Self {
            region: raw.region,
            prices_read_on: raw.prices_read_on,
            price_list: raw.price_list,
            items,
            not_offered,
            gaps,
            free_rcu: raw.free_tier.rcu,
            free_wcu: raw.free_tier.wcu,
            free_storage_gb: raw.free_tier.storage_gb,
        })
    }

    /// The catalog with scenario overrides applied (marked unverified: they are the user's).
    #[must_use]
    pub fn with_overrides(mut self, overrides: &[(PriceItem, f64)]) -> Self {
        for &(k, v) in overrides {
            self.not_offered.remove(&k);
            self.gaps.remove(&k);
            self.items.insert(k, Price { usd: v, verified: false, source: "[pricing.overrides] in the scenario".into() });
        }
        if !self.not_offered.is_empty() {
            // Part of an offering the region does not sell was priced: it stays unsold.
            for i in PriceItem::RESERVED_3Y {
                if self.items.remove(&i).is_some() {
                    self.not_offered.insert(i, "not sold in the region; overriding some of its prices does not make it sold".into());
                }
            }
        }
        self
    }

    /// Whether the region sells reserved capacity of `years`: `Err` with the reason (the
    /// catalog's source) when it does not.
    ///
    /// # Errors
    /// The reason, naming the region, when the term is not sold there.
    pub fn sells_reserved(&self, years: u32) -> Result<(), String> {
        let (upfront, _) = PriceItem::reserved(years, true);
        if let Some(source) = self.not_offered.get(&upfront) {
            return Err(format!("AWS sells no {years}-year reserved capacity in {}: {source}", self.region));
        }
        let (up_r, hr_r) = PriceItem::reserved(years, false);
        let (up_w, hr_w) = PriceItem::reserved(years, true);
        match [up_r, hr_r, up_w, hr_w].iter().find_map(|i| self.gaps.get(i).map(|why| (i, why))) {
            Some((item, why)) => {
                Err(format!("the catalog has no price for {years}-year reserved capacity in {} ({item}: {why})", self.region))
            }
            None => Ok(()),
        }
    }

    /// What a report says priced it: the region, the date the prices were read and, for a
    /// catalog from AWS's Price List, so; a note when the prices are more than a year older than
    /// the window simulated (`start_unix_s`), the same note whatever day the run is made.
    #[must_use]
    pub fn label(&self, start_unix_s: i64) -> String {
        let from = if self.price_list.is_some() { " from AWS's Price List" } else { "" };
        let read = crate::time::parse_rfc3339(&format!("{}T00:00:00Z", self.prices_read_on));
        let stale = read.is_some_and(|t| start_unix_s - t > 365 * 86_400);
        let note = if stale {
            "; more than a year older than the window simulated: `ddbsim prices update` reads AWS's current prices"
        } else {
            ""
        };
        format!("{} prices{from} read on {}{note}", self.region, self.prices_read_on)
    }

    /// The gaps among `items`: each item the catalog has no price for, with the reason.
    #[must_use]
    pub fn unpriced(&self, items: &[PriceItem]) -> Vec<(PriceItem, &str)> {
        items.iter().filter_map(|i| self.gaps.get(i).map(|why| (*i, why.as_str()))).collect()
    }

    /// A price.
    ///
    /// # Panics
    /// On an item the region does not sell (see [`Catalog::sells_reserved`]): a catalog prices
    /// every other item (checked when it is parsed).
    #[must_use]
    pub fn price(&self, item: PriceItem) -> &Price {
        &self.items[&item]
    }

    /// Break-even utilization between on-demand and provisioned for a dimension: provisioned is
    /// cheaper when average consumption exceeds this share of provisioned capacity.
    #[must_use]
    pub fn break_even(&self, write: bool, ia: bool) -> f64 {
        self.price(PriceItem::provisioned(write, ia)).usd / (3_600.0 * self.price(PriceItem::on_demand(write, ia)).usd / 1e6)
    }
}

impl Catalog {
    /// The share of hours a provisioned unit must be in use for reserved capacity of `years` to
    /// cost less than provisioning it by the hour: the reservation's upfront fee spread over its
    /// hours plus its hourly fee, over the provisioned (Standard class) unit-hour price.
    #[must_use]
    pub fn reserved_break_even(&self, write: bool, years: u32) -> f64 {
        let (upfront, hourly) = PriceItem::reserved(years, write);
        let per_100_hour = self.price(upfront).usd / (crate::limits::HOURS_PER_YEAR * f64::from(years)) + self.price(hourly).usd;
        per_100_hour / (100.0 * self.price(PriceItem::provisioned(write, false)).usd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_capacity_pays_for_units_held_more_than_about_46_percent_of_hours() {
        let c = Catalog::builtin();
        // 1 year, 100 WCU: $150 / 8,760 h + $0.0128 = $0.029923 an hour, against 100 x $0.00065
        // = $0.065 provisioned: 0.4603.
        assert!((c.reserved_break_even(true, 1) - 0.4603).abs() < 1e-4);
        // 100 RCU: $30 / 8,760 + $0.0025 = $0.0059247, against $0.013: 0.4557.
        assert!((c.reserved_break_even(false, 1) - 0.4557).abs() < 1e-4);
        // 3 years, 100 WCU: $180 / 26,280 + $0.0081 = $0.014949, against $0.065: 0.2300.
        assert!((c.reserved_break_even(true, 3) - 0.2300).abs() < 1e-4);
    }

    #[test]
    fn builtin_catalogs_are_complete_and_named_for_their_region() {
        let c = Catalog::builtin();
        assert_eq!(c.region, "us-east-1");
        assert_eq!(c.items.len(), PriceItem::ALL.len());
        for r in known_regions() {
            let c = Catalog::for_region(r).unwrap();
            assert_eq!(c.region, r);
            assert_eq!(c.items.len() + c.not_offered.len(), PriceItem::ALL.len());
        }
        assert!(Catalog::for_region("mars-north-1").is_none());
        assert_eq!(known_regions(), crate::scenario::validate::KNOWN_REGIONS);
    }

    /// Prices as docs/prices-verified.md found them in Price-List-derived sources, and the
    /// ratio rule of `tools/regional_prices.py` where it found none.
    #[test]
    fn regional_catalogs_price_as_their_sources_say() {
        let c = |r: &str| Catalog::for_region(r).unwrap();
        let p = |r: &str, i: PriceItem| c(r).price(i).usd;
        // eu-west-1 as its Price List readings give it (S4, S10): $0.705 a million writes, not the
        // ratio's 0.625 x 0.000735 / 0.00065 = 0.706731; PITR $0.22, not 0.8 x storage.
        assert_eq!(p("eu-west-1", PriceItem::OnDemandWritePerMillion), 0.705);
        assert_eq!(p("eu-west-1", PriceItem::PitrGbMonth), 0.22);
        assert_eq!(p("eu-west-1", PriceItem::ReplicatedWritePerMillion), 0.705);
        assert!(c("eu-west-1").price(PriceItem::OnDemandWritePerMillion).verified);
        // Backup was found nowhere for eu-west-1: the ratio, $0.10 x 1.130769, unverified.
        assert!((p("eu-west-1", PriceItem::BackupGbMonth) - 0.113077).abs() < 1e-6);
        assert!(!c("eu-west-1").price(PriceItem::BackupGbMonth).verified);
        // eu-central-1: storage $0.306 (S4, S5); provisioned from AWS's tool alone, unverified.
        assert_eq!(p("eu-central-1", PriceItem::StorageGbMonth), 0.306);
        assert_eq!(p("eu-central-1", PriceItem::ProvisionedRcuHour), 0.0001586);
        assert!(!c("eu-central-1").price(PriceItem::ProvisionedRcuHour).verified);
        // ap-northeast-1: $0.715 a million writes, $0.1425 reads (S6, S12); transfer $0.09/GB.
        assert_eq!(p("ap-northeast-1", PriceItem::OnDemandWritePerMillion), 0.715);
        assert_eq!(p("ap-northeast-1", PriceItem::OnDemandReadPerMillion), 0.1425);
        assert_eq!(p("ap-northeast-1", PriceItem::CrossRegionTransferGb), 0.09);
        // ap-southeast-1: rWCU-hour $0.00074 (S7).
        assert_eq!(p("ap-southeast-1", PriceItem::ReplicatedWcuHour), 0.00074);
        // DAX: dax.r5.large $0.255 an hour in us-east-1 (S8, S9, S2), not the $0.171 ladder;
        // eu-west-1's is inferred from it by the ratio: 0.255 x 1.130769 = $0.288346.
        assert_eq!(p("us-east-1", PriceItem::DaxR5LargeHour), 0.255);
        assert!((p("eu-west-1", PriceItem::DaxR5LargeHour) - 0.288346).abs() < 1e-6);
        // us-east-2 sells no 3-year reservation; us-west-2 does, at us-east-1's prices.
        assert!(c("us-east-2").sells_reserved(3).unwrap_err().contains("AWS sells no 3-year reserved capacity in us-east-2"));
        assert!(c("us-east-2").sells_reserved(1).is_ok() && !c("us-east-2").items.contains_key(&PriceItem::Reserved3yWcu100Upfront));
        assert_eq!(p("us-west-2", PriceItem::Reserved3yWcu100Upfront), 180.0);
        assert_eq!(p("us-east-2", PriceItem::OnDemandWritePerMillion), 0.625);
    }

    /// Only the 3-year reservation may be marked unsold, all four items together and without a
    /// price; overriding part of it does not make it sold.
    #[test]
    fn an_offering_the_region_does_not_sell_is_marked_whole() {
        let east2 = Catalog::for_region("us-east-2").unwrap();
        let text = BUILTIN[1].1;
        let bad = |t: &str| Catalog::parse(t, Path::new("p.toml")).unwrap_err().to_string();
        let one = text.replacen("[items.reserved_3y_wcu_100_hour]\noffered = false", "[items.reserved_3y_wcu_100_hour]\nusd = 0.0081", 1);
        assert!(bad(&one).contains("mark all four"), "{}", bad(&one));
        let storage = text.replace("[items.storage_gb_month]\nusd = 0.25", "[items.storage_gb_month]\noffered = false");
        assert!(bad(&storage).contains("items.storage_gb_month.offered"), "{}", bad(&storage));
        let part = east2.clone().with_overrides(&[(PriceItem::Reserved3yWcu100Upfront, 180.0)]);
        assert!(part.sells_reserved(3).is_err() && !part.items.contains_key(&PriceItem::Reserved3yWcu100Upfront));
        let all = east2.with_overrides(&PriceItem::RESERVED_3Y.map(|i| (i, 1.0)));
        assert!(all.sells_reserved(3).is_ok());
    }

    /// A gap has a reason and no price; an override fills it; a reservation with a gap is not
    /// sold; a catalog more than a year older than the window says so.
    #[test]
    fn gaps_are_named_and_filled_by_overrides() {
        let gap = BUILTIN_US_EAST_1
            .replace("[items.dax_r5_large_hour]\nusd = 0.255\n", "[items.dax_r5_large_hour]\ngap = \"not in the AmazonDAX file\"\n");
        let c = Catalog::parse(&gap, Path::new("g.toml")).unwrap();
        assert_eq!(
            c.unpriced(&[PriceItem::DaxR5LargeHour, PriceItem::StorageGbMonth]),
            vec![(PriceItem::DaxR5LargeHour, "not in the AmazonDAX file")]
        );
        assert!(c.clone().with_overrides(&[(PriceItem::DaxR5LargeHour, 0.3)]).unpriced(&[PriceItem::DaxR5LargeHour]).is_empty());
        let both =
            BUILTIN_US_EAST_1.replace("[items.dax_r5_large_hour]\nusd = 0.255\n", "[items.dax_r5_large_hour]\nusd = 0.255\ngap = \"x\"\n");
        let e = Catalog::parse(&both, Path::new("g.toml")).unwrap_err().to_string();
        assert!(e.contains("items.dax_r5_large_hour: a gap has no `usd`"), "{e}");
        let r3 = BUILTIN_US_EAST_1
            .replace("[items.reserved_3y_rcu_100_hour]\nusd = 0.0016\n", "[items.reserved_3y_rcu_100_hour]\ngap = \"none listed\"\n");
        let why = Catalog::parse(&r3, Path::new("g.toml")).unwrap().sells_reserved(3).unwrap_err();
        assert!(why.contains("no price for 3-year reserved capacity in us-east-1 (reserved_3y_rcu_100_hour: none listed)"), "{why}");
        // Read on 2026-11-01: a window from 2027-11-02 is more than 365 days later; 2027-11-01 is not.
        let b = Catalog::builtin();
        assert!(b.label(1_825_113_600).contains("more than a year older"), "{}", b.label(1_825_113_600));
        assert_eq!(b.label(1_825_027_200), "us-east-1 prices read on 2026-11-01");
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
