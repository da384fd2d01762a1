//! The index entries a write pattern writes (spec §1.3, §8).
//!
//! DynamoDB writes an index entry for every item that carries the index's key attributes, so a
//! write pattern writes its table's GSIs unless it says otherwise:
//!
//! - a put (`put_item`, a `batch_write` put, a `transact_write` put, a bulk load) inserts an
//!   entry in every GSI, for the share of items that carry its key (`[[gsi]] coverage`);
//! - a delete removes those entries (one index write each);
//! - an update that says nothing is taken to change attributes that are not keys: it rewrites
//!   the entry of an `ALL` index (every attribute is projected) and of an `INCLUDE` index (ddbsim
//!   cannot tell whether the changed attribute is one it projects, so it counts the write, and
//!   says so), and leaves a `KEYS_ONLY` index alone (its entry holds keys only).
//!
//! An entity's `gsi` narrows the indexes to those its items carry keys of (with its own rule: one
//! write for an update or a delete, an insert for a put); `index_writes` overrides any index one
//! by one (`"none"` to leave it alone, `"key_change"` for a change of the index key).

use super::{Names, NoteKind, Validator};
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawIndexWrite, RawPattern};
use crate::scenario::{EntitySpec, GsiSpec, IndexRef, IndexWrite, KeySpaceSpec, Op, Projection};

/// What a write of `op` that names no index write does to a GSI of `projection`, by default.
pub(crate) const fn default_index_write(op: Op, projection: Projection) -> Option<IndexWrite> {
    match op {
        Op::PutItem | Op::BatchWrite | Op::TransactWrite => Some(IndexWrite::Insert),
        Op::DeleteItem => Some(IndexWrite::Update),
        Op::UpdateItem => match projection {
            Projection::KeysOnly => None,
            Projection::All | Projection::IncludeBytes(_) => Some(IndexWrite::Update),
        },
        Op::GetItem | Op::BatchGet | Op::TransactGet | Op::Query | Op::Scan => None,
    }
}

impl Validator<'_, '_> {
    /// Index writes per request: the default above (or an entity's), then `index_writes` index
    /// by index.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn index_writes(
        &mut self,
        at: &KeyPath,
        p: &RawPattern,
        op: Op,
        names: &Names,
        entity: Option<&EntitySpec>,
        gsis: &[GsiSpec],
        key_spaces: &[KeySpaceSpec],
    ) -> Vec<(usize, IndexWrite)> {
        let listed = |g: &GsiSpec| p.index_writes.contains_key(&g.name);
        let mut index_writes: Vec<(usize, IndexWrite)> = match entity {
            // An entity's writes write the GSIs its items carry keys of: an insert for a new
            // item, one index write for an update or a delete.
            Some(e) if op.is_write() => {
                let kind = if matches!(op, Op::UpdateItem | Op::DeleteItem) { IndexWrite::Update } else { IndexWrite::Insert };
                e.gsi.iter().filter(|w| !listed(&gsis[w.gsi])).map(|w| (w.gsi, kind)).collect()
            }
            None if op.is_write() => gsis
                .iter()
                .enumerate()
                .filter(|(_, g)| !listed(g))
                .filter_map(|(i, g)| default_index_write(op, g.projection).map(|k| (i, k)))
                .collect(),
            _ => Vec::new(),
        };
        if entity.is_none() && op == Op::UpdateItem {
            self.assumed_update_writes(at, &index_writes, gsis);
        }
        for (name, kind) in &p.index_writes {
            let ip = at.key("index_writes").key(name);
            if !op.is_write() {
                self.err(&ip, format!("{} is a read; only writes cause index writes", op.api_name()));
            }
            match names.indexes.get(name) {
                Some(IndexRef::Gsi(g)) => {
                    if let Some(k) = self.index_write(&ip, kind, *g, op, entity, gsis, key_spaces) {
                        index_writes.push((*g, k));
                    }
                }
                Some(IndexRef::Lsi(_)) => {
                    self.err(&ip, "LSI writes are charged to the base table and follow every write; list only GSIs here")
                }
                None => self.err(&ip, format!("no GSI named \"{name}\"")),
            }
        }
        index_writes
    }

    /// An update that says nothing of an `ALL` or `INCLUDE` index is counted as rewriting its
    /// entry: a guess, stated where the scenario is read.
    fn assumed_update_writes(&mut self, at: &KeyPath, writes: &[(usize, IndexWrite)], gsis: &[GsiSpec]) {
        for &(g, _) in writes {
            let gsi = &gsis[g];
            let what = match gsi.projection {
                Projection::All => "it projects every attribute",
                Projection::IncludeBytes(_) => "it projects some attributes, taken to include the ones changed",
                Projection::KeysOnly => continue,
            };
            self.note(
                NoteKind::Assumption,
                &at.key("index_writes"),
                format!(
                    "this update rewrites GSI \"{}\"'s entry (1 index write per item with its key: {what}); say {} = \"none\" if it changes only attributes the index does not project, or \"key_change\" if it changes the index key",
                    gsi.name, gsi.name
                ),
            );
        }
    }

    /// One `index_writes` entry for GSI `g`.
    #[allow(clippy::too_many_arguments)]
    fn index_write(
        &mut self,
        ip: &KeyPath,
        kind: &RawIndexWrite,
        g: usize,
        op: Op,
        entity: Option<&EntitySpec>,
        gsis: &[GsiSpec],
        key_spaces: &[KeySpaceSpec],
    ) -> Option<IndexWrite> {
        if let Some(e) = entity.filter(|e| e.in_gsi(g).is_none()) {
            if kind != &RawIndexWrite::None {
                self.err(
                    ip,
                    format!(
                        "entity \"{}\" writes no key into GSI \"{}\"; add it to the entity's `gsi` with the key it writes",
                        e.name, gsis[g].name
                    ),
                );
            }
        }
        match kind {
            RawIndexWrite::Insert => Some(IndexWrite::Insert),
            RawIndexWrite::KeyChange => Some(IndexWrite::KeyChange),
            RawIndexWrite::Update => Some(IndexWrite::Update),
            RawIndexWrite::RemoveKey => Some(IndexWrite::Remove),
            RawIndexWrite::None => None,
            RawIndexWrite::Move(m) => {
                let mp = ip.key("move");
                let from = self.index_value(&mp.key("from"), &m.from, g, entity, gsis, key_spaces);
                let to = self.index_value(&mp.key("to"), &m.to, g, entity, gsis, key_spaces);
                if m.from == m.to {
                    self.err(&mp.key("to"), "an entry that moves reaches another value");
                }
                if !matches!(op, Op::UpdateItem | Op::TransactWrite | Op::PutItem) {
                    self.err(&mp, format!("an entry moves when an item is updated or replaced; {} does not", op.api_name()));
                }
                Some(IndexWrite::Move { from, to })
            }
            RawIndexWrite::InsertAt(v) => {
                let vp = ip.key("insert_at");
                let value = self.index_value(&vp, v, g, entity, gsis, key_spaces);
                if !matches!(op, Op::PutItem | Op::TransactWrite | Op::BatchWrite) {
                    self.err(&vp, format!("a new entry comes with a new item (a put); {} writes none", op.api_name()));
                }
                Some(IndexWrite::InsertAt { value })
            }
        }
    }
}
