//! Reading an AWS Price List offer file as a stream: `products` and `terms` are visited entry
//! by entry and only the entries ddbsim prices are kept, so a file of hundreds of megabytes is
//! read in a few megabytes of memory (never as one JSON document).
//!
//! The format is AWS's documented one (Billing User Guide, "Reading the service price list
//! file"): `offerCode`, `version`, `publicationDate`, `products` keyed by SKU (`productFamily`,
//! `attributes`), and `terms.OnDemand` / `terms.Reserved` keyed by SKU then offer-term code,
//! each with `priceDimensions` (`unit`, `pricePerUnit.USD`, `beginRange`, `endRange`) and
//! `termAttributes` (`LeaseContractLength`, `PurchaseOption`).

use super::kinds::{classify, Service};
use crate::scenario::PriceItem;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io::Read;

/// One product ddbsim prices, as the file lists it.
#[derive(Clone, Debug)]
pub struct Product {
    /// The SKU.
    pub sku: String,
    /// The catalog item it prices.
    pub item: PriceItem,
    /// `regionCode`.
    pub region: String,
    /// `usagetype`.
    pub usage_type: String,
}

/// One price dimension of a term.
#[derive(Clone, Debug)]
pub struct Dimension {
    /// `unit`.
    pub unit: String,
    /// `pricePerUnit.USD`.
    pub usd: f64,
    /// `beginRange` (0 when absent).
    pub begin: f64,
    /// `endRange`; `None` for "Inf" or absent.
    pub end: Option<f64>,
}

/// One term of a product: on-demand, or a reservation of `years`.
#[derive(Clone, Debug)]
pub struct Term {
    /// The product's SKU.
    pub sku: String,
    /// `None`: the OnDemand term; `Some(years)`: a Reserved term (`LeaseContractLength`).
    pub reserved_years: Option<u32>,
    /// Its price dimensions.
    pub dimensions: Vec<Dimension>,
}

/// What ddbsim keeps of one offer file.
#[derive(Clone, Debug)]
pub struct Offer {
    /// `offerCode`.
    pub service: Service,
    /// `version`.
    pub version: String,
    /// `publicationDate` (RFC 3339).
    pub published: String,
    /// Where it was read from (a file name or a URL).
    pub origin: String,
    /// The products ddbsim prices.
    pub products: Vec<Product>,
    /// Their terms.
    pub terms: Vec<Term>,
}

#[derive(Default)]
struct Acc {
    offer_code: Option<String>,
    version: Option<String>,
    published: Option<String>,
    format: Option<String>,
    products: Vec<Product>,
    products_seen: bool,
    terms: Vec<Term>,
    kept: BTreeSet<String>,
}

/// Reads an offer file from `reader`; `origin` names it in messages.
///
/// # Errors
/// A message naming the line and column of malformed or truncated JSON, a file without
/// `offerCode` or `publicationDate`, or an offer of a service ddbsim does not price.
pub fn read_offer<R: Read>(reader: R, origin: &str) -> Result<Offer, String> {
    let mut acc = Acc::default();
    let mut de = serde_json::Deserializer::from_reader(reader);
    let at = |e: &serde_json::Error| {
        let why = match e.classify() {
            serde_json::error::Category::Eof => "the file ends early (truncated?)".to_string(),
            serde_json::error::Category::Io => format!("cannot read it: {e}"),
            _ => format!("not an AWS Price List offer file ({e})"),
        };
        format!("{origin}: {why}")
    };
    serde::Deserializer::deserialize_map(&mut de, Top(&mut acc)).map_err(|e| at(&e))?;
    de.end().map_err(|e| at(&e))?;
    let code = acc.offer_code.ok_or_else(|| format!("{origin}: no `offerCode`: not an AWS Price List offer file"))?;
    let service = Service::from_code(&code).ok_or_else(|| {
        format!(
            "{origin}: offer \"{code}\" is not one ddbsim prices from (AmazonDynamoDB, AmazonDAX, AmazonCloudWatch); \
             a DynamoDB catalog is built from AmazonDynamoDB's offer file"
        )
    })?;
    if acc.format.as_deref().is_some_and(|f| f != "v1.0") {
        return Err(format!("{origin}: formatVersion \"{}\": ddbsim reads offer files of format v1.0", acc.format.unwrap_or_default()));
    }
    let published = acc.published.ok_or_else(|| format!("{origin}: no `publicationDate`: not an AWS Price List offer file"))?;
    if crate::time::parse_rfc3339(&published).is_none() {
        return Err(format!("{origin}: publicationDate \"{published}\" is not a date and time (RFC 3339)"));
    }
    let products: Vec<Product> = acc.products.into_iter().filter(|p| service.prices(p.item)).collect();
    let skus: BTreeSet<&str> = products.iter().map(|p| p.sku.as_str()).collect();
    let terms = acc.terms.into_iter().filter(|t| skus.contains(t.sku.as_str())).collect();
    Ok(Offer { service, version: acc.version.unwrap_or_default(), published, origin: origin.to_string(), products, terms })
}

struct Top<'a>(&'a mut Acc);

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an offer file: a JSON object with offerCode, publicationDate, products and terms")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "offerCode" => self.0.offer_code = Some(map.next_value()?),
                "version" => self.0.version = Some(map.next_value()?),
                "publicationDate" => self.0.published = Some(map.next_value()?),
                "formatVersion" => self.0.format = Some(map.next_value()?),
                "products" => map.next_value_seed(Products(self.0))?,
                "terms" => map.next_value_seed(Terms(self.0))?,
                // `aws pricing get-products` output: each entry a product and its terms, as text.
                "PriceList" => map.next_value_seed(PriceList(self.0))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl Acc {
    /// Keeps a product when ddbsim prices it.
    fn keep(&mut self, p: RawProduct) {
        let Some(region) = p.attributes.get("regionCode") else { return };
        if p.attributes.get("locationType").is_some_and(|l| l != "AWS Region") {
            return;
        }
        if let Some(item) = classify(&p.attributes) {
            self.kept.insert(p.sku.clone());
            let usage_type = p.attributes.get("usagetype").cloned().unwrap_or_default();
            let region = region.clone();
            self.products.push(Product { sku: p.sku, item, region, usage_type });
        }
    }
}

#[derive(Deserialize)]
struct RawProduct {
    sku: String,
    #[serde(default)]
    attributes: BTreeMap<String, String>,
}

struct Products<'a>(&'a mut Acc);

impl<'de> DeserializeSeed<'de> for Products<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Products<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("products: an object keyed by SKU")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some((_, p)) = map.next_entry::<IgnoredAny, RawProduct>()? {
            self.0.keep(p);
        }
        self.0.products_seen = true;
        // Terms read before their products were kept whole: keep only those now known.
        let kept = &self.0.kept;
        self.0.terms.retain(|t| kept.contains(&t.sku));
        Ok(())
    }
}

#[derive(Deserialize)]
struct RawTerm {
    sku: String,
    #[serde(rename = "priceDimensions", default)]
    dimensions: BTreeMap<String, RawDimension>,
    #[serde(rename = "termAttributes", default)]
    attributes: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct RawDimension {
    #[serde(default)]
    unit: String,
    #[serde(rename = "pricePerUnit", default)]
    price: BTreeMap<String, String>,
    #[serde(rename = "beginRange", default)]
    begin: Option<String>,
    #[serde(rename = "endRange", default)]
    end: Option<String>,
}

/// One entry of `aws pricing get-products`'s `PriceList`.
#[derive(Deserialize)]
struct RawEntry {
    product: RawProduct,
    #[serde(rename = "serviceCode")]
    service: String,
    #[serde(default)]
    terms: BTreeMap<String, BTreeMap<String, RawTerm>>,
    #[serde(default)]
    version: Option<String>,
    #[serde(rename = "publicationDate", default)]
    published: Option<String>,
}

struct PriceList<'a>(&'a mut Acc);

impl<'de> DeserializeSeed<'de> for PriceList<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PriceList<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PriceList: a list of products as JSON text (aws pricing get-products)")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        use serde::de::Error;
        while let Some(text) = seq.next_element::<String>()? {
            let e: RawEntry = serde_json::from_str(&text).map_err(|e| A::Error::custom(format!("a PriceList entry: {e}")))?;
            let acc = &mut *self.0;
            acc.offer_code.get_or_insert(e.service);
            if let Some(v) = e.version {
                acc.version.get_or_insert(v);
            }
            if let Some(p) = e.published {
                acc.published = Some(acc.published.take().map_or(p.clone(), |q| q.max(p)));
            }
            let sku = e.product.sku.clone();
            acc.keep(e.product);
            if acc.kept.contains(&sku) {
                for t in e.terms.into_values().flat_map(BTreeMap::into_values) {
                    acc.terms.push(convert(t).map_err(A::Error::custom)?);
                }
            }
        }
        self.0.products_seen = true;
        Ok(())
    }
}

struct Terms<'a>(&'a mut Acc);

impl<'de> DeserializeSeed<'de> for Terms<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Terms<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("terms: an object of OnDemand and Reserved")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(kind) = map.next_key::<String>()? {
            match kind.as_str() {
                "OnDemand" | "Reserved" => map.next_value_seed(TermsBySku(self.0))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

struct TermsBySku<'a>(&'a mut Acc);

impl<'de> DeserializeSeed<'de> for TermsBySku<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TermsBySku<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("terms keyed by SKU, then by offer-term code")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(sku) = map.next_key::<String>()? {
            if self.0.products_seen && !self.0.kept.contains(&sku) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let by_code: BTreeMap<String, RawTerm> = map.next_value()?;
            for t in by_code.into_values() {
                let term = convert(t).map_err(serde::de::Error::custom)?;
                self.0.terms.push(term);
            }
        }
        Ok(())
    }
}

fn convert(t: RawTerm) -> Result<Term, String> {
    let lease = t.attributes.get("LeaseContractLength").and_then(|v| v.as_str());
    let reserved_years = match lease {
        None => None,
        Some(l) => {
            let years = l.trim().trim_end_matches("yr").trim_end_matches(" year").trim_end_matches(" years").trim();
            Some(years.parse::<u32>().map_err(|_| format!("SKU {}: LeaseContractLength \"{l}\" is not a number of years", t.sku))?)
        }
    };
    let num = |s: &str, what: &str| -> Result<f64, String> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| format!("SKU {}: {what} \"{s}\" is not a number >= 0", t.sku))
    };
    let mut dimensions = Vec::with_capacity(t.dimensions.len());
    for d in t.dimensions.into_values() {
        let usd = d.price.get("USD").ok_or_else(|| format!("SKU {}: a price dimension has no pricePerUnit.USD", t.sku))?;
        let usd = num(usd, "pricePerUnit.USD")?;
        let begin = match &d.begin {
            Some(b) => num(b, "beginRange")?,
            None => 0.0,
        };
        let end = match d.end.as_deref() {
            None | Some("Inf") => None,
            Some(e) => Some(num(e, "endRange")?),
        };
        dimensions.push(Dimension { unit: d.unit, usd, begin, end });
    }
    dimensions.sort_by(|a, b| a.begin.total_cmp(&b.begin).then(a.unit.cmp(&b.unit)));
    Ok(Term { sku: t.sku, reserved_years, dimensions })
}
