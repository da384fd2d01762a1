//! The size of an item given as a schema: each attribute's type and size, where sizes may vary
//! (`item_bytes = { attributes = { PK = "S:24", price = "N:6", payload = "B:1000..3000" } }`),
//! sized by the same rules as a sample item ([`super::Item`]).
//!
//! A value is one of:
//!
//! - `"S:24"`, `"B:1800"`: a string or binary of that many bytes (UTF-8 bytes for a string);
//! - `"N:6"`, `"N:4.2"`, `"N:-6"`: a number of that many significant digits (integer digits,
//!   then fraction digits after a point; `-` for a negative number), sized by the measured
//!   rule (§17); `"N"` alone is a number at its largest, 38 digits: 21 bytes;
//! - `"BOOL"`, `"NULL"`: 1 byte;
//! - `"SS:5x12"`, `"NS:5x6"`, `"BS:3x100"`: a set of 5 elements of 12 bytes (6 digits for a
//!   number set);
//! - `{ M = { name = value, … } }`: a map; `{ L = [value, …] }` a list of those elements, or
//!   `{ L = value, count = 20 }` a list of 20 elements alike.
//!
//! Any size or count may be a range `lo..hi`, taken as uniform between them: the item's size
//! is then a law, whose least, greatest and mean bytes and variance [`SchemaSize`] gives (the
//! attributes vary independently).

use super::{number_bytes, ItemError};
use serde_json::{Map, Value};

/// The digits of the largest number DynamoDB stores (38 significant digits).
const MAX_NUMBER_DIGITS: u64 = 38;

/// The bytes of a number `"N"` with no digits given: 38 digits split 37 and 1 about the point,
/// 1 + 19 + 1 = 21 (§17's rule at its largest for a non-negative number).
pub const UNSIZED_NUMBER_BYTES: u64 = 21;

/// The size law of an item given by its schema.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaSize {
    /// Fewest bytes.
    pub min: u64,
    /// Most bytes.
    pub max: u64,
    /// Mean bytes.
    pub mean: f64,
    /// Variance of the bytes.
    pub variance: f64,
    /// Attributes sized by an assumption (a number with no digits given), by path.
    pub assumed: Vec<String>,
    /// Each attribute's mean bytes, its name's with its value's, by name (what an index entry
    /// that projects it holds).
    pub attributes: Vec<(String, f64)>,
}

/// One value's bytes: least, greatest, mean, variance.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Law {
    min: u64,
    max: u64,
    mean: f64,
    var: f64,
}

impl Law {
    const fn fixed(b: u64) -> Self {
        Law { min: b, max: b, mean: b as f64, var: 0.0 }
    }

    /// Uniform over `lo..=hi` (continuous: the law ddbsim draws).
    fn uniform(lo: u64, hi: u64) -> Self {
        let w = (hi - lo) as f64;
        Law { min: lo, max: hi, mean: (lo + hi) as f64 / 2.0, var: w * w / 12.0 }
    }

    /// The sum of independent laws.
    fn plus(self, o: Law) -> Self {
        Law { min: self.min + o.min, max: self.max + o.max, mean: self.mean + o.mean, var: self.var + o.var }
    }

    /// `count` (a law) copies of `each`, independently: bytes `count x each`.
    fn times(count: Law, each: Law) -> Self {
        Law {
            min: count.min * each.min,
            max: count.max * each.max,
            mean: count.mean * each.mean,
            var: count.mean * each.var + count.var * each.mean * each.mean,
        }
    }
}

/// The size law of the item whose attributes' schema is `attributes`.
///
/// # Errors
/// [`ItemError`] at the attribute's path when a value is not a schema type, a size does not
/// parse, or the item has no attributes.
pub fn schema_size(attributes: &Map<String, Value>) -> Result<SchemaSize, ItemError> {
    if attributes.is_empty() {
        return Err(ItemError { at: String::new(), message: "the schema has no attributes: an item holds at least its keys".into() });
    }
    let mut assumed = Vec::new();
    let mut total = Law::fixed(0);
    let mut each = Vec::with_capacity(attributes.len());
    for (name, v) in attributes {
        let at = format!("/{name}");
        let one = Law::fixed(name.len() as u64).plus(value(&at, v, &mut assumed)?);
        each.push((name.clone(), one.mean));
        total = total.plus(one);
    }
    Ok(SchemaSize { min: total.min, max: total.max, mean: total.mean, variance: total.var, assumed, attributes: each })
}

fn err(at: &str, message: impl Into<String>) -> ItemError {
    ItemError { at: at.to_string(), message: message.into() }
}

const TYPES: &str = "S:24, N:6, B:1800, BOOL, NULL, SS:5x12, NS:5x6, BS:3x100, { M = {...} } or { L = [...] }";

/// The law of one value's bytes at `at`.
fn value(at: &str, v: &Value, assumed: &mut Vec<String>) -> Result<Law, ItemError> {
    match v {
        Value::String(s) => scalar(at, s, assumed),
        Value::Object(o) => {
            if let Some(m) = o.get("M").filter(|_| o.len() == 1) {
                let m = m.as_object().ok_or_else(|| err(&format!("{at}/M"), "a map's schema is a table of attributes"))?;
                let mut law = Law::fixed(3);
                for (k, x) in m {
                    law = law.plus(Law::fixed(1 + k.len() as u64)).plus(value(&format!("{at}/M/{k}"), x, assumed)?);
                }
                return Ok(law);
            }
            if let Some(l) = o.get("L") {
                let lat = format!("{at}/L");
                let elements = match (l, o.get("count")) {
                    (Value::Array(xs), None) if o.len() == 1 => {
                        let mut law = Law::fixed(0);
                        for (i, x) in xs.iter().enumerate() {
                            law = law.plus(Law::fixed(1)).plus(value(&format!("{lat}/{i}"), x, assumed)?);
                        }
                        law
                    }
                    (one, Some(count)) if o.len() == 2 && !one.is_array() => {
                        let cat = format!("{at}/count");
                        let count = match count {
                            Value::Number(n) => n.as_u64().map(Law::fixed).ok_or_else(|| err(&cat, "a count is a whole number"))?,
                            Value::String(s) => range(&cat, s, "a count")?,
                            _ => return Err(err(&cat, "a count is a whole number or a range \"lo..hi\"")),
                        };
                        Law::times(count, Law::fixed(1).plus(value(&lat, one, assumed)?))
                    }
                    _ => return Err(err(at, "a list is { L = [value, …] } or { L = value, count = N }")),
                };
                return Ok(Law::fixed(3).plus(elements));
            }
            Err(err(at, format!("a value is a type and size: {TYPES}")))
        }
        _ => Err(err(at, format!("a value is a type and size as a string: {TYPES}"))),
    }
}

/// A scalar or set type written as a string: `S:24`, `N:4.2`, `SS:5x12`, `BOOL`.
fn scalar(at: &str, s: &str, assumed: &mut Vec<String>) -> Result<Law, ItemError> {
    let (ty, size) = s.split_once(':').map_or((s, None), |(t, z)| (t, Some(z.trim())));
    let at = at.to_string();
    let need = |what: &str| size.ok_or_else(|| err(&at, format!("{ty} needs its {what}: \"{ty}:{}\"", example(ty))));
    match ty.trim() {
        "S" | "B" => range(&at, need("bytes")?, "a size"),
        "N" => match size {
            None => {
                assumed.push(at);
                Ok(Law::fixed(UNSIZED_NUMBER_BYTES))
            }
            Some(d) => number(&at, d),
        },
        "BOOL" | "NULL" if size.is_none() => Ok(Law::fixed(1)),
        "BOOL" | "NULL" => Err(err(&at, format!("{ty} is always 1 byte: write \"{ty}\""))),
        "SS" | "NS" | "BS" => {
            let z = need("elements and their size")?;
            let (count, each) =
                z.split_once('x').ok_or_else(|| err(&at, format!("a set is \"{ty}:COUNTxSIZE\", like \"{ty}:{}\"", example(ty))))?;
            let count = range(&at, count, "a set's count")?;
            if count.min == 0 {
                return Err(err(&at, "a set has at least one element"));
            }
            let each = if ty == "NS" { number(&at, each)? } else { range(&at, each, "an element's size")? };
            Ok(Law::times(count, each))
        }
        other => Err(err(&at, format!("\"{other}\" is not a DynamoDB type; a value is one of {TYPES}"))),
    }
}

fn example(ty: &str) -> &'static str {
    match ty {
        "N" => "6",
        "SS" => "5x12",
        "NS" => "5x6",
        "BS" => "3x100",
        _ => "24",
    }
}

/// A whole number or a range `lo..hi`, uniform between.
fn range(at: &str, s: &str, what: &str) -> Result<Law, ItemError> {
    let parse = |t: &str| t.trim().replace('_', "").parse::<u64>().ok();
    let bad = || err(at, format!("{what} is a whole number or a range \"lo..hi\", not {s:?}"));
    match s.split_once("..") {
        None => parse(s).map(Law::fixed).ok_or_else(bad),
        Some((lo, hi)) => match (parse(lo), parse(hi)) {
            (Some(lo), Some(hi)) if lo <= hi => Ok(Law::uniform(lo, hi)),
            (Some(lo), Some(hi)) => Err(err(at, format!("{what}'s range {lo}..{hi} runs backwards"))),
            _ => Err(bad()),
        },
    }
}

/// A number's bytes from its digits: `6`, `4.2` (integer and fraction digits), `-6`, or a
/// range of integer digits `1..12`.
fn number(at: &str, s: &str) -> Result<Law, ItemError> {
    let (negative, body) = s.strip_prefix('-').map_or((false, s), |b| (true, b));
    let bytes = |int: u64, frac: u64| -> Result<u64, ItemError> {
        if int + frac == 0 || int + frac > MAX_NUMBER_DIGITS {
            return Err(err(at, format!("a number has 1 to {MAX_NUMBER_DIGITS} significant digits, not {}", int + frac)));
        }
        // The measured rule (§17) on a number of those digits: "9" repeated, about the point.
        let text = format!("{}{}{}", "9".repeat(int as usize), if frac > 0 { "." } else { "" }, "9".repeat(frac as usize));
        Ok(number_bytes(&text).expect("digits") + u64::from(negative))
    };
    let bad = || err(at, format!("a number's size is its significant digits: \"N:6\", \"N:4.2\" or \"N:1..12\", not {s:?}"));
    if let Some((lo, hi)) = body.split_once("..") {
        let (lo, hi) = (lo.trim().parse::<u64>().map_err(|_| bad())?, hi.trim().parse::<u64>().map_err(|_| bad())?);
        if lo > hi {
            return Err(bad());
        }
        return Ok(Law::uniform(bytes(lo, 0)?, bytes(hi, 0)?));
    }
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    let (int, frac) = (int.trim().parse::<u64>().map_err(|_| bad())?, frac.trim().parse::<u64>().map_err(|_| bad())?);
    Ok(Law::fixed(bytes(int, frac)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(toml_text: &str) -> Result<SchemaSize, String> {
        let v: toml::Table = toml::from_str(toml_text).unwrap();
        let json = serde_json::to_value(v).unwrap();
        schema_size(json.as_object().unwrap()).map_err(|e| e.to_string())
    }

    /// The issue's example by hand: names PK 2 + SK 2 + price 5 + tags 4 + payload 7 = 20;
    /// values S:24 24, S:40 40, N:6 (1 + 3) 4, SS:5x12 60, B:1800 1,800: 20 + 1,928 = 1,948.
    #[test]
    fn a_fixed_schema_is_its_names_and_values() {
        let s = size(
            r#"PK = "S:24"
SK = "S:40"
price = "N:6"
tags = "SS:5x12"
payload = "B:1800""#,
        )
        .unwrap();
        assert_eq!((s.min, s.max, s.mean, s.variance), (1_948, 1_948, 1_948.0, 0.0));
        assert!(s.assumed.is_empty());
        assert_eq!(s.attributes[0], ("PK".to_string(), 26.0));
    }

    /// Numbers by the measured rule: N:4.2 is 1 + 2 + 1 = 4, N:-6 1 + 3 + 1 = 5, N:5 1 + 3 =
    /// 4, "N" 21 (and named as assumed); BOOL and NULL 1; a map 3 + (1 + name + value) each; a
    /// list 3 + (1 + value) each: { L = "N:2", count = 10 } is 3 + 10 x (1 + 2) = 33.
    #[test]
    fn numbers_maps_and_lists() {
        let s = size(
            r#"a = "N:4.2"
b = "N:-6"
c = "N:5"
d = "N"
e = "BOOL"
f = "NULL"
g = { M = { x = "S:3", yy = "N:1" } }
h = { L = ["S:2", "BOOL"] }
i = { L = "N:2", count = 10 }"#,
        )
        .unwrap();
        // names 9; values 4 + 5 + 4 + 21 + 1 + 1 + (3 + 1 + 1 + 3 + 1 + 2 + 2) + (3 + 1 + 2 + 1 + 1) + 33
        let want = 9 + 4 + 5 + 4 + 21 + 1 + 1 + 13 + 8 + 33;
        assert_eq!(s.min, want);
        assert_eq!(s.assumed, vec!["/d".to_string()]);
    }

    /// Ranges are uniform: B:1000..3000 has mean 2,000 and variance 2000^2 / 12; a set of
    /// 1..5 strings of 10 bytes has mean 30, variance 10^2 x 4^2 / 12, least 10 and most 50.
    #[test]
    fn ranges_make_a_law() {
        let s = size(r#"payload = "B:1000..3000""#).unwrap();
        assert_eq!((s.min, s.max), (7 + 1_000, 7 + 3_000));
        assert!((s.mean - 2_007.0).abs() < 1e-9 && (s.variance - 2_000.0f64.powi(2) / 12.0).abs() < 1e-6);
        let t = size(r#"t = "SS:1..5x10""#).unwrap();
        assert_eq!((t.min, t.max), (11, 51));
        assert!((t.mean - 31.0).abs() < 1e-9 && (t.variance - 100.0 * 16.0 / 12.0).abs() < 1e-9);
    }

    /// What is not a schema is named by its path.
    #[test]
    fn bad_schemas_are_named_by_their_path() {
        assert!(size(r#"a = "Q:3""#).unwrap_err().starts_with("at /a: \"Q\" is not a DynamoDB type"));
        assert!(size(r#"a = "S""#).unwrap_err().contains("S needs its bytes"));
        assert!(size(r#"a = "S:abc""#).unwrap_err().contains("not \"abc\""));
        assert!(size(r#"a = "S:9..3""#).unwrap_err().contains("runs backwards"));
        assert!(size(r#"a = "N:40""#).unwrap_err().contains("1 to 38 significant digits"));
        assert!(size(r#"a = { M = { b = "X" } }"#).unwrap_err().starts_with("at /a/M/b: "));
        assert!(size(r#"a = "SS:0x3""#).unwrap_err().contains("at least one element"));
        assert!(size(r#"a = 3"#).unwrap_err().contains("as a string"));
        assert!(size("").unwrap_err().contains("no attributes"));
    }
}
