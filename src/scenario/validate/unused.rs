//! What a scenario holds that its run cannot use, each a warning by name: an index no request
//! reaches ([`Scenario::unwritten_indexes`]), a reservation owned whose term misses the window.

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

    /// Warns of each reservation owned (`[pricing] reserved`) whose term does not meet the
    /// window: it covers nothing in it and bills nothing here.
    pub(super) fn reservations_outside(&mut self, sc: &Scenario) {
        let (start, end) = (sc.start_unix_s, sc.start_unix_s + sc.duration.as_secs() as i64);
        for (i, o) in sc.pricing.reserved.iter().enumerate() {
            let when = if o.start_unix_s >= end {
                "starts after the window ends"
            } else if o.end_unix_s() <= start {
                "ended before the window starts"
            } else {
                continue;
            };
            let at = KeyPath::root().key("pricing").key("reserved").index(i).key("start");
            self.note(
                NoteKind::Warning,
                &at,
                format!("this reservation's term {when}: it covers nothing in this window and is billed nothing here (set [scenario] start within its term to price it)"),
            );
        }
    }
}
