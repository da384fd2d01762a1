//! Index entries sized from the items (spec §1.3): when a pattern's or an entity's item is given
//! by its attributes (a sample item or a schema), each GSI entry it writes holds the table's key
//! attributes, the index's and what the index projects (KEYS_ONLY: the keys; INCLUDE: those and
//! the attributes named; ALL: the whole item, as without a shape), so its write units and
//! storage follow the projection rather than the 100-byte key allowance. An item without an
//! index's key attributes is not in that index (a sparse index): its writes leave it alone.
//! An LSI's entries are sized the same way (its key: the table's partition key and its own sort
//! key attribute), charged to the table.

use super::{NoteKind, Validator};
use crate::limits::INDEX_KEY_BYTES;
use crate::scenario::locate::KeyPath;
use crate::scenario::{GsiSpec, IndexWrite, ItemShape, LsiSpec, Projection};

/// What sizes a secondary index's entries.
pub(super) struct EntryRule<'a> {
    /// The index's name.
    name: &'a str,
    /// Its projection.
    projection: Projection,
    /// Its key attributes (an LSI's: its sort key), if named.
    keys: &'a [String],
    /// The attributes an `INCLUDE` names, if it names them.
    projected: &'a [String],
}

impl<'a> From<&'a GsiSpec> for EntryRule<'a> {
    fn from(g: &'a GsiSpec) -> Self {
        EntryRule { name: &g.name, projection: g.projection, keys: &g.key_attributes, projected: &g.projected }
    }
}

impl<'a> From<&'a LsiSpec> for EntryRule<'a> {
    fn from(l: &'a LsiSpec) -> Self {
        EntryRule { name: &l.name, projection: l.projection, keys: &l.key_attributes, projected: &l.projected }
    }
}

impl Validator<'_, '_> {
    /// The bytes of an entry of index `rule` for items of `shape` (at `at`, the item's key),
    /// where the projection and the key attributes let the item size it; `None` otherwise (the
    /// projection's rule on the item's bytes applies). An index that projects named
    /// attributes needs a shape.
    fn entry_bytes(&mut self, at: &KeyPath, shape: Option<&ItemShape>, table_keys: &[String], rule: &EntryRule<'_>) -> Option<u64> {
        let Some(shape) = shape else {
            if !rule.projected.is_empty() {
                self.err(
                    at,
                    format!(
                        "index \"{}\" projects named attributes, sized from the items written: give this item as {{ attributes = {{ … }} }} or a sample item",
                        rule.name
                    ),
                );
            }
            return None;
        };
        let keys_known = !table_keys.is_empty() && !rule.keys.is_empty();
        let keys = if keys_known { shape.bytes_of(table_keys.iter().chain(rule.keys)) } else { INDEX_KEY_BYTES };
        match rule.projection {
            Projection::All => None,
            Projection::KeysOnly => keys_known.then_some(keys),
            Projection::IncludeBytes(b) if rule.projected.is_empty() => keys_known.then_some(keys + b),
            Projection::IncludeBytes(_) if keys_known => Some(shape.bytes_of(table_keys.iter().chain(rule.keys).chain(rule.projected))),
            Projection::IncludeBytes(_) => Some(keys + shape.bytes_of(rule.projected)),
        }
    }

    /// The entry bytes of each GSI in `written` for items of `shape`, where the item sizes them.
    pub(super) fn index_entries(
        &mut self,
        at: &KeyPath,
        shape: Option<&ItemShape>,
        table_keys: &[String],
        gsis: &[GsiSpec],
        written: impl IntoIterator<Item = usize>,
    ) -> Vec<(usize, u64)> {
        written.into_iter().filter_map(|g| self.entry_bytes(at, shape, table_keys, &(&gsis[g]).into()).map(|b| (g, b))).collect()
    }

    /// The LSIs of `candidates` that items of `shape` are in (those carrying their sort key),
    /// each with its entry's bytes where the item sizes it; `None` when nothing is known of the
    /// item (every candidate, by the projection's rule). Says which the item is not in.
    pub(super) fn lsi_entries(
        &mut self,
        at: &KeyPath,
        shape: Option<&ItemShape>,
        table_keys: &[String],
        lsis: &[LsiSpec],
        candidates: impl IntoIterator<Item = usize>,
    ) -> Option<Vec<(usize, Option<u64>)>> {
        let mut out = Vec::new();
        for l in candidates {
            let lsi = &lsis[l];
            if let Some(missing) = shape.and_then(|s| lsi.key_attributes.iter().find(|a| !s.has(a))) {
                self.note(
                    NoteKind::Warning,
                    at,
                    format!(
                        "the item has no \"{missing}\", the sort key of LSI \"{}\": it is not in that index (a sparse index)",
                        lsi.name
                    ),
                );
                continue;
            }
            out.push((l, self.entry_bytes(at, shape, table_keys, &lsi.into())));
        }
        shape.is_some().then_some(out)
    }

    /// Refuses an item without the table's key attributes (every item has them).
    pub(super) fn item_has_table_keys(&mut self, at: &KeyPath, shape: Option<&ItemShape>, table_keys: &[String]) {
        if let Some(shape) = shape {
            for k in table_keys.iter().filter(|k| !shape.has(k)) {
                self.err(
                    at,
                    format!("the item has no \"{k}\", a key attribute of the table ([table] key_attributes): every item has its keys"),
                );
            }
        }
    }

    /// Leaves alone the GSIs whose key attributes the item does not carry (a sparse index),
    /// unless `index_writes` names them; says so.
    pub(super) fn sparse_by_shape(
        &mut self,
        at: &KeyPath,
        shape: Option<&ItemShape>,
        gsis: &[GsiSpec],
        listed: impl Fn(&str) -> bool,
        writes: &mut Vec<(usize, IndexWrite)>,
    ) {
        let Some(shape) = shape else { return };
        let mut kept = Vec::with_capacity(writes.len());
        for &(g, k) in writes.iter() {
            let gsi = &gsis[g];
            let missing: Vec<&str> = gsi.key_attributes.iter().filter(|a| !shape.has(a)).map(String::as_str).collect();
            if missing.is_empty() || listed(&gsi.name) {
                kept.push((g, k));
                continue;
            }
            self.note(
                NoteKind::Warning,
                at,
                format!(
                    "the item has no \"{}\", a key attribute of GSI \"{}\": its writes leave that index alone (a sparse index); name it in index_writes if some of these items carry the key",
                    missing.join("\", \""),
                    gsi.name
                ),
            );
        }
        *writes = kept;
    }
}
