//! The one time-ordered schedule of everything that happens at a second boundary: the
//! scenario's `[[at]]` actions and the completions the model asks for (UpdateTable, pre-warm,
//! split for heat).
//!
//! Order, a determinism guarantee: by second; within a second, `[[at]]` actions before
//! completions; within each, in the order they were scheduled (FIFO). A completion scheduled
//! for the current second (an UpdateTable of zero latency) runs in that same second.

use super::queue::{EventQueue, Keyed};
use crate::model::control::Completion;

/// Something the schedule holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Scheduled {
    /// The scenario's action number `i` (in time order).
    Action(usize),
    /// A completion on resource `res`.
    Completion {
        /// Table (0) or GSI (`g + 1`).
        res: usize,
        /// What completes.
        what: Completion,
    },
}

struct Entry {
    key: (u64, u64),
    item: Scheduled,
}

impl Keyed for Entry {
    fn key(&self) -> (u64, u64) {
        self.key
    }
}

/// The schedule.
#[derive(Default)]
pub(crate) struct Schedule {
    queue: EventQueue<Entry>,
    seq: u64,
}

impl Schedule {
    /// Adds `item` at second `at_s`.
    pub(crate) fn push(&mut self, at_s: u64, item: Scheduled) {
        let rank = u64::from(!matches!(item, Scheduled::Action(_)));
        self.seq += 1;
        self.queue.push(Entry { key: (at_s.saturating_mul(2).saturating_add(rank), self.seq), item });
    }

    /// The next item due at or before second `s`.
    pub(crate) fn pop_due(&mut self, s: u64) -> Option<Scheduled> {
        self.queue.pop_before(s.saturating_mul(2) + 2).map(|e| e.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_before_completions_then_fifo() {
        let mut q = Schedule::default();
        q.push(5, Scheduled::Completion { res: 1, what: Completion::HeatSplit { at: 1 } });
        q.push(5, Scheduled::Action(3));
        q.push(5, Scheduled::Completion { res: 2, what: Completion::HeatSplit { at: 2 } });
        q.push(4, Scheduled::Action(1));
        q.push(6, Scheduled::Action(9));
        let due: Vec<Scheduled> = std::iter::from_fn(|| q.pop_due(5)).collect();
        assert_eq!(
            due,
            vec![
                Scheduled::Action(1),
                Scheduled::Action(3),
                Scheduled::Completion { res: 1, what: Completion::HeatSplit { at: 1 } },
                Scheduled::Completion { res: 2, what: Completion::HeatSplit { at: 2 } },
            ]
        );
        assert_eq!(q.pop_due(6), Some(Scheduled::Action(9)));
    }
}
