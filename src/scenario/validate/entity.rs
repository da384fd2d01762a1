//! `[[entity]]`: the entity types of a single-table design, their item collections and the
//! indexes they write.

use super::{Names, Validator};
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawEntity, RawEntityIndex, RawSortSpread};
use crate::scenario::{EntityIndex, EntitySpec, GsiSpec, IndexRef, KeySpaceSpec, LsiSpec, SortKeys};
use std::collections::BTreeMap;

/// Most entity types in one scenario.
const MAX_ENTITIES: usize = 64;
/// Most items of one entity type under one partition-key value.
const MAX_ENTITY_ITEMS: u64 = 1_000_000_000_000;

impl Validator<'_, '_> {
    /// Validates the entity types, and gives each key space they share its item collection:
    /// the items of every entity type on it, in declaration order.
    pub(super) fn entities(
        &mut self,
        raw: &[RawEntity],
        names: &Names,
        table_pk: usize,
        gsis: &[GsiSpec],
        lsis: &[LsiSpec],
        key_spaces: &mut Vec<KeySpaceSpec>,
    ) -> Vec<EntitySpec> {
        let root = KeyPath::root();
        if raw.len() > MAX_ENTITIES {
            self.err(&root.key("entity"), format!("{} entity types: ddbsim models at most {MAX_ENTITIES} in one table", raw.len()));
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut out: Vec<EntitySpec> = Vec::new();
        for (i, e) in raw.iter().enumerate() {
            let at = root.key("entity").index(i);
            if e.name.is_empty() {
                self.err(&at.key("name"), "an entity type needs a name");
            } else if e.name.contains([';', '=', ',', '[', ']']) || e.name.chars().any(super::is_unprintable) {
                self.err(
                    &at.key("name"),
                    format!(
                        "\"{}\": an entity name has no `;`, `=`, `,`, brackets, control or invisible format characters (reports list them)",
                        e.name
                    ),
                );
            } else if seen.insert(&e.name, i).is_some() {
                self.err(&at.key("name"), format!("a second entity named \"{}\"", e.name));
            }
            let key_space = match &e.partition_key {
                Some(k) => self.key_ref(names, &at.key("partition_key"), k).unwrap_or(table_pk),
                None => table_pk,
            };
            let (items, newest) = match &e.sort_keys {
                None => (1, false),
                Some(sk) => {
                    if sk.items == 0 || sk.items > MAX_ENTITY_ITEMS {
                        self.err(
                            &at.key("sort_keys").key("items"),
                            format!("items per partition-key value must be between 1 and {MAX_ENTITY_ITEMS:e}, not {}", sk.items),
                        );
                    }
                    (sk.items.clamp(1, MAX_ENTITY_ITEMS), sk.spread == Some(RawSortSpread::Newest))
                }
            };
            let (size, shape) = self.item_size(&at.key("item_bytes"), e.item_bytes.as_ref());
            let gsi = self.entity_gsis(&at, e, names, gsis, key_spaces);
            let table_keys = self.table_keys.clone();
            self.item_has_table_keys(&at.key("item_bytes"), shape.as_ref(), &table_keys);
            if let Some(sh) = &shape {
                for w in &gsi {
                    let missing: Vec<&String> = gsis[w.gsi].key_attributes.iter().filter(|a| !sh.has(a)).collect();
                    if let Some(a) = missing.first() {
                        self.err(
                            &at.key("gsi").key(&gsis[w.gsi].name),
                            format!("the entity's item has no \"{a}\", a key attribute of GSI \"{}\"; add it to the item or leave the index out of `gsi`", gsis[w.gsi].name),
                        );
                    }
                }
            }
            let gsi_entry_bytes = self.index_entries(&at.key("item_bytes"), shape.as_ref(), &table_keys, gsis, gsi.iter().map(|w| w.gsi));
            let mut lsi = self.entity_lsis(&at, e, names, lsis.len());
            let mut lsi_entry_bytes = Vec::new();
            if let Some(list) = self.lsi_entries(&at.key("item_bytes"), shape.as_ref(), &table_keys, lsis, lsi.clone()) {
                lsi = list.iter().map(|x| x.0).collect();
                lsi_entry_bytes = list.into_iter().filter_map(|(l, b)| b.map(|b| (l, b))).collect();
            }
            let start_items = self.start_items(&at, e, &key_spaces[key_space]);
            let offset = out.iter().filter(|o| o.key_space == key_space).map(|o| o.items).fold(0u64, u64::saturating_add);
            out.push(EntitySpec {
                name: e.name.clone(),
                key_space,
                items,
                offset,
                newest,
                size,
                shape,
                gsi,
                gsi_entry_bytes,
                lsi_entry_bytes,
                lsi,
                start_items,
            });
        }
        self.collections(&out, key_spaces);
        out
    }

    /// The GSIs an entity type's items write, with the key space written and the share of
    /// items carrying it.
    fn entity_gsis(
        &mut self,
        at: &KeyPath,
        e: &RawEntity,
        names: &Names,
        gsis: &[GsiSpec],
        key_spaces: &mut Vec<KeySpaceSpec>,
    ) -> Vec<EntityIndex> {
        let mut gsi = Vec::new();
        for (name, w) in &e.gsi {
            let ip = at.key("gsi").key(name);
            let g = match names.indexes.get(name) {
                Some(IndexRef::Gsi(g)) => *g,
                Some(IndexRef::Lsi(_)) => {
                    self.err(&ip, format!("\"{name}\" is an LSI; list it under `lsi`"));
                    continue;
                }
                None => {
                    let known: Vec<&str> = gsis.iter().map(|g| g.name.as_str()).collect();
                    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                    self.err(&ip, format!("no GSI named \"{name}\"; defined: {known}"));
                    continue;
                }
            };
            let (key, share, correlated, kp) = match w {
                RawEntityIndex::Key(k) => (k, None, None, ip.clone()),
                RawEntityIndex::Sparse(s) => (&s.key, s.share, s.correlated, ip.key("key")),
            };
            let share = share.unwrap_or(1.0);
            if !(share > 0.0 && share <= 1.0) {
                self.err(
                    &ip.key("share"),
                    format!("share is the part of the entity's items that carry the index key: above 0 and at most 1, not {share}"),
                );
            }
            let correlated = correlated.unwrap_or(gsis[g].correlated);
            let Some(ks) = self.index_key(names, &kp, key, correlated, key_spaces) else { continue };
            // A multi-attribute key is written whole and in its order: a subset or another
            // order would be simulated as another key.
            let attrs = |k: usize| key_spaces[k].name.trim_end_matches(" correlated").to_string();
            let want = attrs(gsis[g].partition_key);
            if want.starts_with('(') && attrs(ks) != want {
                self.err(
                    &kp,
                    format!("{name}'s partition key is {want}: an entity writes every attribute of it, in that order, not {}", attrs(ks)),
                );
                continue;
            }
            gsi.push(EntityIndex { gsi: g, key_space: ks, share: share.clamp(f64::MIN_POSITIVE, 1.0) });
        }
        gsi
    }

    /// The LSIs an entity type's items carry the sort key of (every LSI unless it lists them).
    fn entity_lsis(&mut self, at: &KeyPath, e: &RawEntity, names: &Names, lsis: usize) -> Vec<usize> {
        match &e.lsi {
            None => (0..lsis).collect(),
            Some(list) => {
                let mut v = Vec::new();
                for (k, name) in list.iter().enumerate() {
                    match names.indexes.get(name) {
                        Some(IndexRef::Lsi(l)) if !v.contains(l) => v.push(*l),
                        Some(IndexRef::Lsi(_)) => self.err(&at.key("lsi").index(k), format!("\"{name}\" is listed twice")),
                        Some(IndexRef::Gsi(_)) => {
                            self.err(&at.key("lsi").index(k), format!("\"{name}\" is a GSI; list it under `gsi` with the key it writes"));
                        }
                        None => self.err(&at.key("lsi").index(k), format!("no LSI named \"{name}\"")),
                    }
                }
                v
            }
        }
    }

    /// Partition-key values (ranks) of key space `space` that start with another number of an
    /// entity type's items, in rank order.
    fn start_items(&mut self, at: &KeyPath, e: &RawEntity, space: &KeySpaceSpec) -> Vec<(u64, u64)> {
        let mut start_items = Vec::new();
        for (value, &n) in &e.start_items {
            let vp = at.key("start_items").key(value);
            if n > MAX_ENTITY_ITEMS {
                self.err(&vp, format!("items under one value must be at most {MAX_ENTITY_ITEMS:e}, not {n}"));
            }
            match value_rank(space, value) {
                Some(rank) => start_items.push((rank, n.min(MAX_ENTITY_ITEMS))),
                None => {
                    let known = if space.value_names.is_empty() {
                        format!("`{}#1` to `{}#{}` (by popularity rank)", space.name, space.name, space.cardinality)
                    } else {
                        space.value_names.join(", ")
                    };
                    self.err(&vp, format!("\"{value}\" is not a value of key space `{}`: {known}", space.name));
                }
            }
        }
        start_items.sort_unstable();
        start_items
    }

    /// Each key space the entity types share holds their items as one collection per value.
    fn collections(&mut self, out: &[EntitySpec], key_spaces: &mut [KeySpaceSpec]) {
        let root = KeyPath::root();
        // Each key space the entity types share holds their items as one collection per value.
        for (ks, space) in key_spaces.iter_mut().enumerate() {
            let on: Vec<&EntitySpec> = out.iter().filter(|e| e.key_space == ks).collect();
            if on.is_empty() {
                continue;
            }
            if space.sort_keys.is_some() {
                let first = out.iter().position(|e| e.key_space == ks).unwrap_or(0);
                self.err(
                    &root.key("keys").key(&space.name).key("sort_keys"),
                    format!(
                        "entity \"{}\" stores its items under this key space: give the items per value on each [[entity]] (`sort_keys`), not here",
                        out[first].name
                    ),
                );
                continue;
            }
            let total = on.iter().map(|e| e.items).fold(0u64, u64::saturating_add);
            if total > MAX_ENTITY_ITEMS {
                self.err(
                    &root.key("keys").key(&space.name),
                    format!("the entity types on this key space hold {total} items per value, above {MAX_ENTITY_ITEMS:e}"),
                );
            }
            if total > 1 {
                space.sort_keys = Some(SortKeys { items: total.min(MAX_ENTITY_ITEMS), newest: false });
            }
        }
    }
}

/// The popularity rank of value `label` of key space `space`: a named value, or `name#N` for
/// the N-th most popular (as reports label them).
fn value_rank(space: &KeySpaceSpec, label: &str) -> Option<u64> {
    if let Some(r) = space.value_names.iter().position(|v| v == label) {
        return Some(r as u64);
    }
    if !space.value_names.is_empty() {
        return None;
    }
    let n: u64 = label.strip_prefix(space.name.as_str())?.strip_prefix('#')?.parse().ok()?;
    (1..=space.cardinality).contains(&n).then(|| n - 1)
}
