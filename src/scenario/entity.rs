//! `[[entity]]`: the entity types of a single-table design.

use super::keys::KeySpaceSpec;
use super::pattern::SizeSpec;

/// An entity type of a single-table design.
#[derive(Clone, Debug, PartialEq)]
pub struct EntitySpec {
    /// Name.
    pub name: String,
    /// Key space of its partition-key values.
    pub key_space: usize,
    /// Items under each partition-key value.
    pub items: u64,
    /// Where its items start in each value's item collection: the items of the entity types
    /// declared before it on the same key space come first (their sort-key prefixes sort
    /// first: a model choice, declaration order).
    pub offset: u64,
    /// Traffic goes to the newest of its items rather than a uniform one.
    pub newest: bool,
    /// Item sizes.
    pub size: SizeSpec,
    /// The item's attributes, when it is given by them.
    pub shape: Option<super::ItemShape>,
    /// The GSIs its items write: (GSI position, key space written, share of items carrying it).
    pub gsi: Vec<EntityIndex>,
    /// (GSI, bytes) of the entries its items hold where sized from its attributes (spec §1.3);
    /// the others follow the projection's rule.
    pub gsi_entry_bytes: Vec<(usize, u64)>,
    /// (LSI, bytes) of the entries its items hold where sized from its attributes.
    pub lsi_entry_bytes: Vec<(usize, u64)>,
    /// The LSIs (positions) its items carry the sort key of.
    pub lsi: Vec<usize>,
    /// Partition-key values (ranks) that start with another number of its items, in rank order.
    pub start_items: Vec<(u64, u64)>,
}

/// What an entity's items write into one GSI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntityIndex {
    /// GSI position.
    pub gsi: usize,
    /// Key space of the values written into the index partition key.
    pub key_space: usize,
    /// Share of the entity's items that carry the index key.
    pub share: f64,
}

impl EntitySpec {
    /// Bytes of its items' entry in GSI `g` where sized from its attributes.
    #[must_use]
    pub fn gsi_entry(&self, g: usize) -> Option<u64> {
        self.gsi_entry_bytes.iter().find(|x| x.0 == g).map(|x| x.1)
    }

    /// Bytes of its items' entry in LSI `l` where sized from its attributes.
    #[must_use]
    pub fn lsi_entry(&self, l: usize) -> Option<u64> {
        self.lsi_entry_bytes.iter().find(|x| x.0 == l).map(|x| x.1)
    }

    /// Bytes one of its items' LSI entries take in the table (`lsis`: the table's), each with
    /// its 100 bytes of overhead (spec §1.3).
    #[must_use]
    pub fn lsi_stored_bytes(&self, lsis: &[super::LsiSpec]) -> u64 {
        let item = self.size.mean() as u64;
        self.lsi
            .iter()
            .map(|&l| self.lsi_entry(l).unwrap_or_else(|| lsis[l].projection.entry_bytes(item)) + crate::limits::ITEM_OVERHEAD_BYTES)
            .sum()
    }

    /// Items of this type in the table: one set per partition-key value.
    #[must_use]
    pub fn count(&self, key_spaces: &[KeySpaceSpec]) -> u64 {
        let mut n = key_spaces[self.key_space].cardinality.saturating_mul(self.items);
        for &(_, items) in &self.start_items {
            n = n.saturating_sub(self.items).saturating_add(items);
        }
        n
    }

    /// Items of this type under partition-key value `rank` at the start.
    #[must_use]
    pub fn items_at(&self, rank: u64) -> u64 {
        self.start_items.iter().find(|&&(r, _)| r == rank).map_or(self.items, |&(_, n)| n)
    }

    /// What it writes into GSI `g`, if its items carry that index's key.
    #[must_use]
    pub fn in_gsi(&self, g: usize) -> Option<EntityIndex> {
        self.gsi.iter().copied().find(|e| e.gsi == g)
    }
}
