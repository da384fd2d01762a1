//! What drawing hands to admission: one attempt of a request, and fast fidelity's count of
//! first attempts on a partition. Both the draw (which makes them) and admission (which takes
//! them) import this file; neither imports the other for it.

use super::queue::Keyed;
use crate::model::request::Charges;
use crate::time::SimTime;

/// One attempt of a request: when, which try, and what it charges.
#[derive(Clone, Debug)]
pub(crate) struct Attempt {
    /// When it is sent.
    pub(crate) time: SimTime,
    /// Request number (FIFO tie-break; picks the client instance).
    pub(crate) seq: u64,
    /// When the request's first attempt was sent.
    pub(crate) first: SimTime,
    /// Pattern.
    pub(crate) pat: u32,
    /// Attempt number, 1 for the first.
    pub(crate) n: u32,
    /// Rank of the partition-key value (item collections of LSI tables).
    pub(crate) key: u64,
    /// What it charges.
    pub(crate) charges: Charges,
    /// A paged Query or Scan: bytes still to read after this page (0: the last page, or not
    /// paged), and which page this is (0 the first).
    pub(crate) rest: u64,
    /// Page number, 0 for the first (or only) one; [`FOLLOW`] for the write that follows a
    /// read in another table.
    pub(crate) page: u32,
    /// A conditional write whose condition fails: admitted, it consumes its units and writes
    /// nothing (ConditionalCheckFailedException, not retried).
    pub(crate) cond_failed: bool,
}

/// The `page` of the write that follows an answered read in another table
/// (`[pattern.then]`).
pub(crate) const FOLLOW: u32 = 1 << 31;

impl Attempt {
    /// The first attempt of a request of pattern `pat` sent at `time`: request number `seq`,
    /// on key rank `key`, charging `charges`, with `rest` bytes of a paged read after its
    /// first page.
    pub(crate) fn first_of(time: SimTime, seq: u64, pat: u32, key: u64, charges: Charges, rest: u64) -> Self {
        Self { time, seq, first: time, pat, n: 1, key, charges, rest, page: 0, cond_failed: false }
    }
}

impl Keyed for Attempt {
    fn key(&self) -> (u64, u64) {
        (self.time.as_micros(), self.seq)
    }
}

/// Fast fidelity's per-partition count: `count` first attempts of pattern `pat` on partition
/// `part`, `units` milli-units each; or, for a single-item write with GSIs, the `count` index
/// writes of its `gsi`-th index on that index's partition `part` (the item's own charges are
/// the pattern's counts with `gsi` `None`; which request carries which is drawn when the
/// second is replayed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SimpleCount {
    /// Pattern.
    pub(crate) pat: u32,
    /// Partition of the pattern's resource.
    pub(crate) part: u32,
    /// Requests.
    pub(crate) count: u64,
    /// Milli-units each.
    pub(crate) units: u64,
    /// The pattern's GSI these are index writes of (`None`: the item's own charge).
    pub(crate) gsi: Option<u16>,
}
