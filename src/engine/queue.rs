//! The retry queue: attempts waiting for their backoff to end, ordered by `(time, seq)`.
//!
//! The key `(time_us, seq)` is the determinism guarantee: attempts due at the same microsecond
//! leave in the order they were scheduled (FIFO), whatever the heap's internal layout.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Something with a time and a sequence number.
pub(crate) trait Keyed {
    /// `(time_us, seq)`.
    fn key(&self) -> (u64, u64);
}

struct Entry<T>(T);

impl<T: Keyed> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.key() == other.0.key()
    }
}
impl<T: Keyed> Eq for Entry<T> {}
impl<T: Keyed> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T: Keyed> Ord for Entry<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we want the earliest first.
        other.0.key().cmp(&self.0.key())
    }
}

/// A min-queue on `(time, seq)`.
pub(crate) struct EventQueue<T: Keyed> {
    heap: BinaryHeap<Entry<T>>,
}

impl<T: Keyed> Default for EventQueue<T> {
    fn default() -> Self {
        Self { heap: BinaryHeap::new() }
    }
}

impl<T: Keyed> EventQueue<T> {
    /// Adds an item.
    pub(crate) fn push(&mut self, item: T) {
        self.heap.push(Entry(item));
    }

    /// The earliest key, if any.
    #[must_use]
    pub(crate) fn peek_key(&self) -> Option<(u64, u64)> {
        self.heap.peek().map(|e| e.0.key())
    }

    /// Removes the earliest item if it is due before `until_us`.
    pub(crate) fn pop_before(&mut self, until_us: u64) -> Option<T> {
        if self.peek_key()?.0 < until_us {
            self.heap.pop().map(|e| e.0)
        } else {
            None
        }
    }

    /// Items waiting.
    pub(crate) fn len(&self) -> usize {
        self.heap.len()
    }

    /// Takes every remaining item, in no particular order.
    pub(crate) fn drain(&mut self) -> impl Iterator<Item = T> + '_ {
        self.heap.drain().map(|e| e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct E(u64, u64);
    impl Keyed for E {
        fn key(&self) -> (u64, u64) {
            (self.0, self.1)
        }
    }

    #[test]
    fn fifo_at_equal_times() {
        let mut q = EventQueue::default();
        for seq in [5, 1, 9, 3] {
            q.push(E(100, seq));
        }
        q.push(E(50, 99));
        let order: Vec<u64> = std::iter::from_fn(|| q.pop_before(1_000).map(|e| e.1)).collect();
        assert_eq!(order, vec![99, 1, 3, 5, 9]);
    }

    #[test]
    fn respects_the_horizon() {
        let mut q = EventQueue::default();
        q.push(E(10, 0));
        assert!(q.pop_before(10).is_none());
        assert!(q.pop_before(11).is_some());
    }

    proptest::proptest! {
    /// The event queue gives items back in (time, seq) order: simulated time never goes back.
    #[test]
    fn queue_times_never_go_backwards(items in proptest::collection::vec((0u64..1_000, 0u64..1_000_000), 0..300)) {
        struct E(u64, u64);
        impl Keyed for E {
            fn key(&self) -> (u64, u64) {
                (self.0, self.1)
            }
        }
        let mut q = EventQueue::default();
        for (i, (t, _)) in items.iter().enumerate() {
            q.push(E(*t, i as u64));
        }
        let mut last = (0, 0);
        while let Some(e) = q.pop_before(u64::MAX) {
            proptest::prop_assert!(e.key() >= last);
            last = e.key();
        }
    }

    }
}
