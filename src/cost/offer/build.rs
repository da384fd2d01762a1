//! From offer files to ddbsim's catalogs: each item's price with its SKU, usage type and the
//! file's publication date, the free tier from the files' $0 bands, and every price the files
//! lack named as a gap with the reason.

use super::kinds::{reservation_of, unit_of, Service};
use super::read::{Dimension, Offer, Product};
use crate::scenario::PriceItem;
use std::fmt::Write as _;

/// Hours in the month the offer files' free bands are stated for (18,600 unit-hours = 25
/// units x 744 hours, a 31-day month).
const FREE_BAND_HOURS: f64 = 744.0;

/// One catalog built from offer files.
#[derive(Clone, Debug)]
pub struct BuiltCatalog {
    /// Its region.
    pub region: String,
    /// The catalog file's text (TOML, as `Catalog::parse` reads it).
    pub text: String,
    /// Items priced from the files.
    pub priced: usize,
    /// Items the files do not price, with the reason.
    pub gaps: Vec<(PriceItem, String)>,
}

/// A price found in a file.
struct Found {
    usd: f64,
    sku: String,
    usage_type: String,
    unit: String,
    service: Service,
    note: String,
}

/// The catalogs of every region the AmazonDynamoDB offers among `offers` price, one each.
///
/// # Errors
/// No AmazonDynamoDB offer among them, or two files of one service published on different
/// dates (a catalog has one date per service).
pub fn build_catalogs(offers: &[Offer]) -> Result<Vec<BuiltCatalog>, String> {
    let ddb: Vec<&Offer> = offers.iter().filter(|o| o.service == Service::DynamoDb).collect();
    if ddb.is_empty() {
        return Err("no AmazonDynamoDB offer file among the inputs: a catalog's throughput and storage prices come from it".into());
    }
    let regions: std::collections::BTreeSet<&str> = ddb.iter().flat_map(|o| o.products.iter().map(|p| p.region.as_str())).collect();
    if regions.is_empty() {
        return Err(format!("{}: the offer file prices no DynamoDB table in any Region", ddb[0].origin));
    }
    for region in &regions {
        for s in Service::ALL {
            let of: Vec<&Offer> = offers.iter().filter(|o| o.service == s && o.products.iter().any(|p| p.region == *region)).collect();
            if let Some(o) = of.iter().find(|o| o.version != of[0].version) {
                return Err(format!(
                    "{} and {} are two versions of the {} offer for {region} ({} and {}): give one",
                    of[0].origin,
                    o.origin,
                    s.code(),
                    of[0].version,
                    o.version
                ));
            }
        }
    }
    Ok(regions.into_iter().map(|r| build_one(offers, r)).collect())
}

/// The offer of `service` that prices `region`, else any offer of `service`.
fn offer_for<'a>(offers: &'a [Offer], service: Service, region: &str) -> Option<&'a Offer> {
    let mut of = offers.iter().filter(|o| o.service == service);
    of.clone().find(|o| o.products.iter().any(|p| p.region == region)).or_else(|| of.next())
}

/// A publication date: its day.
fn day(o: &Offer) -> &str {
    o.published.get(..10).unwrap_or(&o.published)
}

fn build_one(offers: &[Offer], region: &str) -> BuiltCatalog {
    let ddb = offer_for(offers, Service::DynamoDb, region).expect("checked by the caller");
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# DynamoDB list prices, {region}, read from AWS's Price List offer files by `ddbsim prices`.\n\
         # Every price names its SKU, usage type and the file's publication date; `gap` names a price\n\
         # the files do not hold (give it with `[pricing.overrides]` or by editing this file)."
    );
    let _ = writeln!(text, "region = {}", quote(region));
    let _ = writeln!(text, "currency = \"USD\"");
    let _ = writeln!(text, "prices_read_on = {}", quote(day(ddb)));
    let lists: Vec<String> = Service::ALL
        .iter()
        .filter_map(|s| offer_for(offers, *s, region))
        .filter(|o| o.products.iter().any(|p| p.region == region))
        .map(|o| format!("{} version {} published {} ({})", o.service.code(), o.version, o.published, o.origin))
        .collect();
    let _ = writeln!(text, "price_list = {}", quote(&lists.join("; ")));
    let mut gaps = Vec::new();
    let mut priced = 0;
    for item in PriceItem::ALL {
        let _ = writeln!(text, "\n[items.{item}]");
        match find(offers, region, item) {
            Ok(f) => {
                priced += 1;
                let o = offer_for(offers, f.service, region).expect("found in one");
                let source = format!(
                    "AWS Price List: {} offer published {}, SKU {}, usage type {}: ${} per {}{}",
                    f.service.code(),
                    day(o),
                    f.sku,
                    f.usage_type,
                    f.usd,
                    f.unit,
                    f.note
                );
                let _ = writeln!(
                    text,
                    "usd = {}\nverified = true\nsku = {}\nusage_type = {}",
                    num(f.usd * scale(item)),
                    quote(&f.sku),
                    quote(&f.usage_type)
                );
                let _ = writeln!(text, "source = {}", quote(&source));
            }
            Err(why) => {
                let _ = writeln!(text, "verified = false\ngap = {}\nsource = \"no price: see gap\"", quote(&why));
                gaps.push((item, why));
            }
        }
    }
    let (rcu, wcu, storage, note) = free_tier(offers, region);
    let _ = writeln!(text, "\n[free_tier]\nrcu = {rcu}\nwcu = {wcu}\nstorage_gb = {}\nsource = {}", num(storage), quote(&note));
    BuiltCatalog { region: region.to_string(), text, priced, gaps }
}

/// What one catalog unit is in the file's unit (a reservation is priced per 100 units).
fn scale(item: PriceItem) -> f64 {
    if reservation_of(item).is_some() {
        100.0
    } else {
        unit_of(item).1
    }
}

fn products<'a>(offers: &'a [Offer], region: &'a str, item: PriceItem) -> impl Iterator<Item = (&'a Offer, &'a Product)> + 'a {
    offers.iter().flat_map(move |o| o.products.iter().filter(move |p| p.item == item && p.region == region).map(move |p| (o, p)))
}

fn find(offers: &[Offer], region: &str, item: PriceItem) -> Result<Found, String> {
    let base = reservation_of(item).map_or(item, |(b, _, _)| b);
    let Some(service) = Service::of(base) else {
        return Err(match item {
            PriceItem::CrossRegionTransferGb => {
                "inter-Region data transfer is priced in the AWSDataTransfer offer, which ddbsim does not read".to_string()
            }
            _ => "the offer files hold no vector search product ddbsim recognises".to_string(),
        });
    };
    let Some(offer) = offer_for(offers, service, region) else {
        return Err(format!(
            "priced in the {} offer file, which was not read (`ddbsim prices update` fetches it; `prices import` takes its file)",
            service.code()
        ));
    };
    let published = day(offer);
    let mut found: Vec<Found> = Vec::new();
    for (o, p) in products(offers, region, base) {
        found.push(match reservation_of(item) {
            Some((_, years, upfront)) => reserved_price(o, p, years, upfront)?,
            None => on_demand_price(o, p, item)?,
        });
    }
    let what = match reservation_of(item) {
        Some((_, years, _)) => format!("no {years}-year reservation"),
        None => "no product for it".to_string(),
    };
    let Some(first) = found.first() else {
        return Err(format!("the {} offer file published {published} lists {what} in {region}", service.code()));
    };
    if let Some(other) = found.iter().find(|f| f.usd != first.usd) {
        return Err(format!("SKUs {} (${}) and {} (${}) both price it: ambiguous", first.sku, first.usd, other.sku, other.usd));
    }
    Ok(found.swap_remove(0))
}

/// The paid rate of a product's on-demand term, in the item's unit.
fn on_demand_price(o: &Offer, p: &Product, item: PriceItem) -> Result<Found, String> {
    let (units, _) = unit_of(item);
    let term = o.terms.iter().find(|t| t.sku == p.sku && t.reserved_years.is_none());
    let Some(term) = term else {
        return Err(format!("SKU {} ({}) has no on-demand term", p.sku, p.usage_type));
    };
    let dims: Vec<&Dimension> = term.dimensions.iter().filter(|d| units.contains(&d.unit.as_str())).collect();
    if dims.is_empty() {
        let quoted: Vec<&str> = term.dimensions.iter().map(|d| d.unit.as_str()).collect();
        return Err(format!("SKU {} quotes it in {}, not {}", p.sku, quoted.join(", "), units.join(" or ")));
    }
    let paid: Vec<&&Dimension> = dims.iter().filter(|d| d.usd > 0.0).collect();
    let (rate, note) = match paid.first() {
        None => (dims[dims.len() - 1], String::new()),
        Some(first) if paid.iter().any(|d| d.usd != first.usd) => (**first, " (the first paid tier of a tiered price)".to_string()),
        Some(first) => (**first, String::new()),
    };
    let free = dims.iter().find(|d| d.usd == 0.0 && d.begin == 0.0 && d.end.is_some() && !paid.is_empty());
    let note = match free {
        Some(f) => format!("{note}; the first {} {} a month at $0", f.end.unwrap_or(0.0), f.unit),
        None => note,
    };
    Ok(Found { usd: rate.usd, sku: p.sku.clone(), usage_type: p.usage_type.clone(), unit: rate.unit.clone(), service: o.service, note })
}

/// A reservation's upfront fee (`Quantity`, per unit) or hourly fee from the product's
/// Reserved term of `years`.
fn reserved_price(o: &Offer, p: &Product, years: u32, upfront: bool) -> Result<Found, String> {
    let terms: Vec<_> = o.terms.iter().filter(|t| t.sku == p.sku && t.reserved_years == Some(years)).collect();
    let mut rates = terms
        .iter()
        .flat_map(|t| t.dimensions.iter())
        .filter(|d| (d.unit == "Quantity") == upfront && (upfront || d.unit.ends_with("CapacityUnit-Hrs")));
    let Some(first) = rates.next() else {
        return Err(format!("the {} offer file lists no {years}-year reservation of SKU {} ({})", o.service.code(), p.sku, p.usage_type));
    };
    if let Some(other) = rates.find(|d| d.usd != first.usd) {
        return Err(format!("SKU {}'s {years}-year terms price it at both ${} and ${}: ambiguous", p.sku, first.usd, other.usd));
    }
    let what = if upfront { "upfront, per unit" } else { "per unit-hour" };
    Ok(Found {
        usd: first.usd,
        sku: p.sku.clone(),
        usage_type: p.usage_type.clone(),
        unit: format!("{} ({what}; the catalog prices 100 units)", first.unit),
        service: o.service,
        note: format!("; Reserved term, {years} year(s)"),
    })
}

/// The always-free tier from the $0 bands of provisioned RCU and WCU (unit-hours a month) and
/// Standard storage (GB-months); a band the files lack is 0, said in the note.
fn free_tier(offers: &[Offer], region: &str) -> (u64, u64, f64, String) {
    let band = |item: PriceItem| -> Option<f64> {
        let (units, _) = unit_of(item);
        let (o, p) = products(offers, region, item).next()?;
        let t = o.terms.iter().find(|t| t.sku == p.sku && t.reserved_years.is_none())?;
        let has_paid = t.dimensions.iter().any(|d| d.usd > 0.0);
        t.dimensions.iter().find(|d| units.contains(&d.unit.as_str()) && d.usd == 0.0 && d.begin == 0.0 && has_paid).and_then(|d| d.end)
    };
    let mut notes = Vec::new();
    let mut units = |item: PriceItem, what: &str| -> u64 {
        match band(item) {
            Some(h) => {
                notes.push(format!("{what} {h} unit-hours a month at $0 = {} units", (h / FREE_BAND_HOURS).floor()));
                (h / FREE_BAND_HOURS).floor() as u64
            }
            None => {
                notes.push(format!("no $0 band for {what}: none free"));
                0
            }
        }
    };
    let rcu = units(PriceItem::ProvisionedRcuHour, "provisioned RCU");
    let wcu = units(PriceItem::ProvisionedWcuHour, "provisioned WCU");
    let storage = match band(PriceItem::StorageGbMonth) {
        Some(gb) => {
            notes.push(format!("Standard storage {gb} GB-months at $0"));
            gb
        }
        None => {
            notes.push("no $0 band for Standard storage: none free".into());
            0.0
        }
    };
    (rcu, wcu, storage, format!("AWS Price List bands: {}", notes.join("; ")))
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A price as TOML writes a float: the shortest text that reads back as the same number, with
/// rounding of the unit scaling removed (0.000000625 x 10^6 is 0.625, not 0.6250000000000001).
fn num(x: f64) -> String {
    let rounded: f64 = format!("{x:.12}").parse().unwrap_or(x);
    toml::Value::Float(rounded).to_string()
}
