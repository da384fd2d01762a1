//! Indexes no request reaches: a warning by name ([`Scenario::unwritten_indexes`]).

use super::Validator;
use crate::scenario::locate::KeyPath;
use crate::scenario::{IndexRef, NoteKind, Scenario};

impl Validator<'_, '_> {
    /// Warns of each GSI and LSI that no pattern writes, or that nothing writes or reads.
    pub(super) fn unused_indexes(&mut self, sc: &Scenario) {
        for u in sc.unwritten_indexes() {
            let at = match u.index {
                IndexRef::Gsi(g) => KeyPath::root().key("gsi").index(g),
                IndexRef::Lsi(l) => KeyPath::root().key("lsi").index(l),
            };
            self.note(NoteKind::Warning, &at.key("name"), u.message());
        }
    }
}
