//! Which requests reach each secondary index: what `validate` warns of and `check` finds when no
//! pattern writes an index (spec §1.3: every write of an item carrying the index's key writes it).

use super::{IndexRef, Scenario};

/// An index no pattern writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnwrittenIndex<'a> {
    /// The index.
    pub index: IndexRef,
    /// Its name.
    pub name: &'a str,
    /// A pattern that reads it, if any.
    pub reader: Option<&'a str>,
}

impl UnwrittenIndex<'_> {
    /// `GSI` or `LSI`.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self.index {
            IndexRef::Gsi(_) => "GSI",
            IndexRef::Lsi(_) => "LSI",
        }
    }

    /// The finding in words: what it means and how a write would reach the index.
    #[must_use]
    pub fn message(&self) -> String {
        let (kind, name) = (self.kind(), self.name);
        match self.reader {
            None => format!(
                "{kind} \"{name}\" is neither written nor read by any pattern: it bills storage (and capacity) but no request reaches it; remove it, or add the patterns that use it"
            ),
            Some(r) => {
                let how = match self.index {
                    IndexRef::Gsi(_) => "unless its entity's `gsi` leaves it out or its `index_writes` says \"none\"",
                    IndexRef::Lsi(_) => "unless its entity's `lsi` leaves it out",
                };
                format!(
                    "no pattern writes {kind} \"{name}\" (pattern \"{r}\" reads it): its entries never change, so its write capacity is never tested; a write of the table reaches it {how}"
                )
            }
        }
    }
}

impl Scenario {
    /// Where the table's resources sit: the table, its GSIs, its replicas.
    #[must_use]
    pub fn layout(&self) -> super::Layout {
        super::Layout::new(self.gsis.len(), self.replicas.len())
    }

    /// The GSIs and LSIs no pattern writes, GSIs first, each in its order.
    #[must_use]
    pub fn unwritten_indexes(&self) -> Vec<UnwrittenIndex<'_>> {
        let reader = |r: IndexRef| self.patterns.iter().find(|p| p.index == Some(r)).map(|p| p.name.as_str());
        let gsis = self
            .gsis
            .iter()
            .enumerate()
            .filter(|(g, _)| !self.patterns.iter().any(|p| p.index_writes.iter().any(|w| w.0 == *g)))
            .map(|(g, gsi)| UnwrittenIndex { index: IndexRef::Gsi(g), name: &gsi.name, reader: reader(IndexRef::Gsi(g)) });
        // An LSI's entries follow every write of the table's items whose entity carries its
        // sort key (every write without entities).
        let lsi_written = |l: usize| {
            self.patterns
                .iter()
                .any(|p| p.op.is_write() && p.replica.is_none() && p.entity.is_none_or(|e| self.entities[e].lsi.contains(&l)))
        };
        let lsis = self.lsis.iter().enumerate().filter(|(l, _)| !lsi_written(*l)).map(|(l, lsi)| UnwrittenIndex {
            index: IndexRef::Lsi(l),
            name: &lsi.name,
            reader: reader(IndexRef::Lsi(l)),
        });
        gsis.chain(lsis).collect()
    }
}
