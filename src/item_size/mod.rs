//! The size of an item in DynamoDB JSON, by the service's rules (spec §1.1, corrected by §17):
//! an attribute is its name's UTF-8 bytes plus its value's size; a string its UTF-8 bytes, a
//! binary its bytes (decoded from base64), a number 1 byte plus 1 per two significant digits
//! on each side of the decimal point (plus 1 if negative: measured, §17), a boolean or null 1
//! byte, a set the sum of its elements, a list or map 3 bytes plus 1 per element plus its
//! elements (a map's element with its name). Items above 409,600 bytes are refused, as the
//! service refuses them (§17).

mod schema;

pub use schema::{schema_size, SchemaSize, UNSIZED_NUMBER_BYTES};

use crate::limits::MAX_ITEM_BYTES;
use serde_json::{Map, Value};

/// Bytes an item file may take (an item is at most 400 KB; its JSON, with names, type tags
/// and base64, a few times that).
pub const ITEM_FILE_BYTES: u64 = 16 << 20;

/// The item in the file at `path`, shown as `shown` in a message: read (at most
/// [`ITEM_FILE_BYTES`]), parsed as JSON (a message with its line and column) and as DynamoDB
/// JSON (a message with the attribute's path).
///
/// # Errors
/// The message, starting with `shown`.
pub fn read_item(path: &std::path::Path, shown: &str) -> Result<Item, String> {
    let text =
        crate::input::read_text_capped(path, ITEM_FILE_BYTES, "an item").map_err(|e| format!("{shown}: cannot read the item: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{shown}:{}:{}: not JSON: {e}", e.line(), e.column()))?;
    Item::from_json(&doc).map_err(|e| format!("{shown}: {e}"))
}

/// An item's attributes: (name, value in DynamoDB JSON), by name.
pub struct Item {
    attributes: Vec<(String, Value)>,
}

/// Why a document is not an item: where (a JSON pointer into the item) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemError {
    /// The attribute path, e.g. `/tags/SS/2`.
    pub at: String,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for ItemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.at, self.message)
        }
    }
}

fn err(at: &str, message: impl Into<String>) -> ItemError {
    ItemError { at: at.to_string(), message: message.into() }
}

impl Item {
    /// The item of a DynamoDB JSON document: its attributes (`{"id": {"S": "a"}, …}`), or an
    /// object holding them under `Item` (what `aws dynamodb get-item` prints).
    ///
    /// # Errors
    /// [`ItemError`] when the document is not an item: not an object, or a value that is not
    /// one of DynamoDB's types.
    pub fn from_json(doc: &Value) -> Result<Self, ItemError> {
        let obj = doc.as_object().ok_or_else(|| err("", "an item is a JSON object of attributes, like {\"id\": {\"S\": \"a\"}}"))?;
        // get-item's wrapper, unless "Item" is the item's one attribute (a typed value).
        let obj = match obj.get("Item").and_then(Value::as_object) {
            Some(inner) if obj.len() == 1 && value_size("", &obj["Item"]).is_err() => inner,
            _ => obj,
        };
        let mut attributes = Vec::with_capacity(obj.len());
        for (name, value) in obj {
            value_size(&format!("/{name}"), value)?;
            attributes.push((name.clone(), value.clone()));
        }
        Ok(Self { attributes })
    }

    /// Bytes of the whole item: every attribute's name and value.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.attributes.iter().map(|(n, v)| attribute_bytes(n, v)).sum()
    }

    /// Bytes of the attributes named `names` that the item has (an index entry's keys and
    /// projected attributes), each counted once.
    #[must_use]
    pub fn bytes_of<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> u64 {
        let mut seen: Vec<&str> = Vec::new();
        let mut total = 0;
        for name in names {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            if let Some((n, v)) = self.attributes.iter().find(|(n, _)| n == name) {
                total += attribute_bytes(n, v);
            }
        }
        total
    }

    /// Each attribute's bytes, its name's with its value's, by name.
    #[must_use]
    pub fn attribute_bytes(&self) -> Vec<(String, u64)> {
        self.attributes.iter().map(|(n, v)| (n.clone(), attribute_bytes(n, v))).collect()
    }

    /// Does the item have attribute `name`?
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.attributes.iter().any(|(n, _)| n == name)
    }

    /// The attributes' names, by name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.attributes.iter().map(|(n, _)| n.as_str())
    }

    /// The item's bytes, or why the service refuses it: above 409,600 bytes, or no attribute
    /// at all (an item has its keys).
    ///
    /// # Errors
    /// [`ItemError`] naming the size and the limit.
    pub fn checked_bytes(&self) -> Result<u64, ItemError> {
        if self.attributes.is_empty() {
            return Err(err("", "the item has no attributes: an item holds at least its table's key attributes"));
        }
        let b = self.bytes();
        if b > MAX_ITEM_BYTES {
            return Err(err("", format!("the item is {b} bytes: DynamoDB refuses items over {MAX_ITEM_BYTES} bytes (400 KB)")));
        }
        Ok(b)
    }
}

/// An attribute's bytes: its name's and its value's (already checked).
fn attribute_bytes(name: &str, value: &Value) -> u64 {
    name.len() as u64 + value_size("", value).unwrap_or(0)
}

/// Bytes of a value in DynamoDB JSON at `at`.
fn value_size(at: &str, value: &Value) -> Result<u64, ItemError> {
    let obj = value
        .as_object()
        .filter(|o| o.len() == 1)
        .ok_or_else(|| err(at, "a value is an object of one type, like {\"S\": \"text\"}, {\"N\": \"42\"} or {\"L\": [...]}"))?;
    let (ty, v) = obj.iter().next().expect("one entry");
    let at = format!("{at}/{ty}");
    let text = |v: &Value| v.as_str().map(str::to_owned).ok_or_else(|| err(&at, format!("a {ty} value is a JSON string")));
    let list = |v: &Value| v.as_array().cloned().ok_or_else(|| err(&at, format!("a {ty} value is a JSON array")));
    Ok(match ty.as_str() {
        "S" => text(v)?.len() as u64,
        "N" => number_bytes(&text(v)?).ok_or_else(|| err(&at, format!("{v} is not a number")))?,
        "B" => binary_bytes(&text(v)?).ok_or_else(|| err(&at, "a B value is base64"))?,
        "BOOL" => {
            v.as_bool().ok_or_else(|| err(&at, "a BOOL value is true or false"))?;
            1
        }
        "NULL" => 1,
        "SS" | "NS" | "BS" => {
            let items = list(v)?;
            if items.is_empty() {
                return Err(err(&at, "a set has at least one element"));
            }
            let mut total = 0;
            for (i, x) in items.iter().enumerate() {
                let one = x.as_str().ok_or_else(|| err(&format!("{at}/{i}"), "a set's element is a JSON string"))?;
                total += match ty.as_str() {
                    "SS" => Some(one.len() as u64),
                    "NS" => number_bytes(one),
                    _ => binary_bytes(one),
                }
                .ok_or_else(|| err(&format!("{at}/{i}"), format!("{one:?} is not a valid element of a {ty}")))?;
            }
            total
        }
        "L" => {
            let items = list(v)?;
            let mut total = 3;
            for (i, x) in items.iter().enumerate() {
                total += 1 + value_size(&format!("{at}/{i}"), x)?;
            }
            total
        }
        "M" => {
            let map: &Map<String, Value> = v.as_object().ok_or_else(|| err(&at, "an M value is a JSON object"))?;
            let mut total = 3;
            for (k, x) in map {
                total += 1 + k.len() as u64 + value_size(&format!("{at}/{k}"), x)?;
            }
            total
        }
        other => return Err(err(&at, format!("{other:?} is not a DynamoDB type (S, N, B, BOOL, NULL, SS, NS, BS, L, M)"))),
    })
}

/// Bytes of a number written as `s` (decimal, optionally signed, with an exponent): 1, plus
/// half its significant integer digits and half its significant fraction digits, each
/// rounded up, plus 1 if negative, after trimming leading and trailing zeros (§17: `3.14159`
/// is 5 bytes, `123456` is 4). `None` when `s` is not a number.
#[must_use]
pub fn number_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let (negative, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The digits, and where the decimal point falls in them once the exponent moves it.
    let digits: String = format!("{int}{frac}");
    let point = int.len() as i64 + exp;
    let lead = digits.len() - digits.trim_start_matches('0').len();
    let digits = digits.trim_matches('0');
    if digits.is_empty() {
        return Some(1);
    }
    let start = lead as i64;
    let end = start + digits.len() as i64;
    let int_digits = (point.min(end) - start).max(0) as u64;
    let frac_digits = (end - point.max(start)).max(0) as u64;
    Some(1 + int_digits.div_ceil(2) + frac_digits.div_ceil(2) + u64::from(negative && !digits.is_empty()))
}

/// Bytes a base64 string decodes to; `None` when it is not base64.
fn binary_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let body = s.trim_end_matches('=');
    let padding = s.len() - body.len();
    let ok = body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    (ok && padding <= 2 && s.len().is_multiple_of(4)).then(|| (s.len() / 4 * 3 - padding) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str) -> Item {
        Item::from_json(&serde_json::from_str(text).unwrap()).unwrap()
    }

    /// §17's measured examples, and the rule on each side of the point: `3.14159` is 1 + 1
    /// (one integer digit) + 3 (five fraction digits) = 5; `123456` 1 + 3 = 4; zeros around
    /// the digits are free (`000123.4500` is `123.45`: 1 + 2 + 1 = 4); a negative adds 1; an
    /// exponent moves the point (`1.5E3` is 1500: 1 + 1 = 2 once trailing zeros go).
    #[test]
    fn numbers_are_sized_by_their_significant_digits() {
        assert_eq!(number_bytes("3.14159"), Some(5));
        assert_eq!(number_bytes("123456"), Some(4));
        assert_eq!(number_bytes("000123.4500"), Some(4));
        assert_eq!(number_bytes("-7"), Some(3));
        assert_eq!(number_bytes("0"), Some(1));
        assert_eq!(number_bytes("0.001"), Some(2));
        assert_eq!(number_bytes("1.5E3"), Some(2));
        assert_eq!(number_bytes("12.5e-1"), Some(3));
        assert_eq!(number_bytes("abc"), None);
        assert_eq!(number_bytes("1.2.3"), None);
        assert_eq!(number_bytes(""), None);
    }

    /// An order by hand: names `pk` (2) + `sk` (2) + `total` (5) + `paid` (4) + `tags` (4) +
    /// `lines` (5) + `blob` (4) = 26; values: "CUST#1" 6, "ORDER#2026" 10, 129.95 (1 + 2 + 1 =
    /// 4), true 1, {"SS": ["a", "bc"]} 3, a list of two maps each {"sku": "X1", "qty": 2}
    /// (map: 3 + (1 + 3 + 2) + (1 + 3 + 2) = 15; list: 3 + 2 x (1 + 15) = 35), and "AAEC" (3
    /// bytes): 26 + 6 + 10 + 4 + 1 + 3 + 35 + 3 = 88.
    #[test]
    fn an_item_is_its_names_and_values() {
        let it = item(
            r#"{"pk": {"S": "CUST#1"}, "sk": {"S": "ORDER#2026"}, "total": {"N": "129.95"}, "paid": {"BOOL": true},
                "tags": {"SS": ["a", "bc"]},
                "lines": {"L": [{"M": {"sku": {"S": "X1"}, "qty": {"N": "2"}}}, {"M": {"sku": {"S": "X2"}, "qty": {"N": "2"}}}]},
                "blob": {"B": "AAEC"}}"#,
        );
        assert_eq!(it.bytes(), 88);
        assert_eq!(it.bytes_of(["pk", "sk", "pk", "missing"]), 2 + 6 + 2 + 10);
        // get-item's output wraps the same attributes.
        let wrapped = item(r#"{"Item": {"pk": {"S": "CUST#1"}}}"#);
        assert_eq!(wrapped.bytes(), 8);
        // UTF-8 bytes, not characters: "é" is 2.
        assert_eq!(item(r#"{"n": {"S": "é"}}"#).bytes(), 3);
    }

    /// 409,600 bytes are accepted and 409,601 refused (§17): a name of 1 byte and a string of
    /// 409,599, then one more.
    #[test]
    fn the_item_limit_is_exact_to_the_byte() {
        let at = |n: usize| item(&format!(r#"{{"a": {{"S": "{}"}}}}"#, "x".repeat(n)));
        assert_eq!(at(409_599).checked_bytes(), Ok(409_600));
        let e = at(409_600).checked_bytes().unwrap_err();
        assert!(e.message.contains("409601 bytes") && e.message.contains("409600"), "{e}");
        assert!(item("{}").checked_bytes().unwrap_err().message.contains("no attributes"));
    }

    /// What is not DynamoDB JSON is named by its path.
    #[test]
    fn bad_values_are_named_by_their_path() {
        let bad = |t: &str| Item::from_json(&serde_json::from_str(t).unwrap()).err().unwrap().to_string();
        assert_eq!(bad(r#"{"a": {"X": "1"}}"#), "at /a/X: \"X\" is not a DynamoDB type (S, N, B, BOOL, NULL, SS, NS, BS, L, M)");
        assert_eq!(bad(r#"{"a": {"N": "4x"}}"#), "at /a/N: \"4x\" is not a number");
        assert!(bad(r#"{"a": {"L": [{"M": {"b": {"NS": ["1", "y"]}}}]}}"#).starts_with("at /a/L/0/M/b/NS/1: "));
        assert!(bad(r#"{"a": "plain"}"#).starts_with("at /a: a value is an object of one type"));
        assert!(bad(r#"[1]"#).starts_with("an item is a JSON object"));
        assert!(bad(r#"{"a": {"B": "**"}}"#).contains("base64"));
    }
}
