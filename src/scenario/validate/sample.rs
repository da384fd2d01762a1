//! Files a scenario names beside itself: where they may be; and item sizes, among them the
//! sample item an `item_bytes = { item = "order.json" }` sizes and the schema of
//! `item_bytes = { attributes = { … } }`.

use super::{NoteKind, Validator};
use crate::item_size::{read_item, schema_size, Item, UNSIZED_NUMBER_BYTES};
use crate::limits::MAX_ITEM_BYTES;
use crate::scenario::defaults;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawSampleItem, RawSize};
use crate::scenario::{ItemShape, SizeSpec};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

impl Validator<'_, '_> {
    /// An item size: fixed bytes, a log-normal law, a sample item's bytes or a schema's law;
    /// with the item's attributes when it is given by them.
    pub(super) fn item_size(&mut self, at: &KeyPath, raw: Option<&RawSize>) -> (SizeSpec, Option<ItemShape>) {
        let size = match raw {
            None => SizeSpec::Fixed(defaults::ITEM_BYTES),
            Some(RawSize::Fixed(b)) => {
                if *b < 1 || b.unsigned_abs() > MAX_ITEM_BYTES {
                    self.err(at, format!("an item is 1 to {MAX_ITEM_BYTES} bytes (400 KB), not {b}"));
                }
                SizeSpec::Fixed(b.unsigned_abs().clamp(1, MAX_ITEM_BYTES))
            }
            Some(RawSize::LogNormal { mean, sigma }) => {
                if !(mean.is_finite() && *mean >= 1.0 && *mean <= MAX_ITEM_BYTES as f64) {
                    self.err(&at.key("mean"), format!("the mean item size is 1 to {MAX_ITEM_BYTES} bytes, not {mean}"));
                }
                if !(sigma.is_finite() && *sigma > 0.0 && *sigma <= 4.0) {
                    self.err(&at.key("sigma"), format!("sigma must be above 0 and at most 4, not {sigma}"));
                }
                SizeSpec::LogNormal { mean: *mean, sigma: *sigma }
            }
            Some(RawSize::Item { item }) => {
                let read = match item {
                    RawSampleItem::File(file) => sample_item(self.path, file, self.options.allow_outside),
                    RawSampleItem::Inline(attributes) => inline_item(attributes),
                };
                return match read {
                    Ok((b, item)) => (SizeSpec::Fixed(b), Some(ItemShape { attributes: item.attribute_bytes() })),
                    Err(m) => {
                        self.err(&at.key("item"), m);
                        (SizeSpec::Fixed(defaults::ITEM_BYTES), None)
                    }
                };
            }
            Some(RawSize::Attributes { attributes }) => return self.schema(&at.key("attributes"), attributes),
        };
        (size, None)
    }

    /// The size law of an item given by its attributes' schema: fixed when nothing varies;
    /// otherwise uniform with the mean and variance of the attributes' sum (its least and most
    /// bytes when one attribute varies; a narrower law than those when several do, the sum of
    /// independent sizes being less spread than its extremes).
    fn schema(&mut self, at: &KeyPath, attributes: &Map<String, Value>) -> (SizeSpec, Option<ItemShape>) {
        let s = match schema_size(attributes) {
            Ok(s) => s,
            Err(e) => {
                self.err(&under(at, &e.at), e.message);
                return (SizeSpec::Fixed(defaults::ITEM_BYTES), None);
            }
        };
        let shape = ItemShape { attributes: s.attributes.iter().map(|(n, b)| (n.clone(), b.round() as u64)).collect() };
        (self.schema_law(at, &s), Some(shape))
    }

    /// The law of a schema's sizes: see [`Self::schema`].
    fn schema_law(&mut self, at: &KeyPath, s: &crate::item_size::SchemaSize) -> SizeSpec {
        for path in &s.assumed {
            self.note(
                NoteKind::Assumption,
                &under(at, path),
                format!("a number with no digits given is sized at its largest, {UNSIZED_NUMBER_BYTES} bytes; say \"N:6\" for six significant digits or \"N:4.2\" for 4 and 2 about the point"),
            );
        }
        if s.max > MAX_ITEM_BYTES {
            self.err(at, format!("these attributes reach {} bytes: DynamoDB refuses items over {MAX_ITEM_BYTES} bytes (400 KB)", s.max));
            return SizeSpec::Fixed(s.min.clamp(1, MAX_ITEM_BYTES));
        }
        if s.min == s.max {
            return SizeSpec::Fixed(s.min.max(1));
        }
        let half = (3.0 * s.variance).sqrt();
        let lo = ((s.mean - half).round() as u64).clamp(s.min, s.max);
        let hi = ((s.mean + half).round() as u64).clamp(lo, s.max);
        SizeSpec::Uniform { lo: lo.max(1), hi: hi.max(1) }
    }
}

/// The key of the attribute at `path` (`/settings/M/theme`) of the item at `at`.
fn under(at: &KeyPath, path: &str) -> KeyPath {
    path.trim_start_matches('/').split('/').fold(at.clone(), |k, part| k.key(part))
}

/// The file `file` names, relative to the folder of the scenario at `scenario`: it must be in
/// that folder or below unless `allow_outside`. `what` names it in a message ("the trace file").
pub(super) fn beside(scenario: &Path, file: &str, allow_outside: bool, what: &str) -> Result<PathBuf, String> {
    let dir = scenario.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let full = dir.join(file);
    let real = full.canonicalize().map_err(|e| format!("cannot read {what}: {e}"))?;
    if !allow_outside {
        let home = dir.canonicalize().map_err(|e| format!("cannot read the scenario's folder: {e}"))?;
        if !real.starts_with(&home) {
            return Err(format!("{what} is outside the scenario's folder; move it there or pass --allow-outside"));
        }
    }
    Ok(real)
}

/// The sample item `file` (DynamoDB JSON, or get-item's output) beside the scenario at
/// `scenario` and its bytes by the service's rules; a message naming the file, and the line or
/// the attribute, when it cannot be read or is not an item.
fn sample_item(scenario: &Path, file: &str, allow_outside: bool) -> Result<(u64, Item), String> {
    let dir = scenario.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let shown = dir.join(file).display().to_string();
    let real = beside(scenario, file, allow_outside, "the sample item").map_err(|m| format!("{shown}: {m}"))?;
    let item = read_item(&real, &shown)?;
    Ok((item.checked_bytes().map_err(|e| format!("{shown}: {e}"))?, item))
}

/// A sample item given inline in DynamoDB JSON, and its bytes.
fn inline_item(attributes: &Map<String, Value>) -> Result<(u64, Item), String> {
    let item = Item::from_json(&Value::Object(attributes.clone())).map_err(|e| e.to_string())?;
    Ok((item.checked_bytes().map_err(|e| e.to_string())?, item))
}
