//! Capacity-unit arithmetic (behaviour spec §1): what one request costs in read or write units.
//!
//! Units are carried as **milli-units** (`u64`, 1 RCU = 1,000) so that an eventually consistent
//! read of 0.5 RCU is exact and admission never rounds. KB means 1,024 bytes. These functions are
//! pure: the engine calls them once per pattern (or per drawn item size), never per token.

/// Milli-units in one read or write unit.
pub const MILLI: u64 = 1_000;
pub use crate::limits::{MAX_ITEM_BYTES, PAGE_BYTES, READ_BLOCK_BYTES, WRITE_BLOCK_BYTES};

/// How a read is served, and so what it costs per 4 KB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consistency {
    /// 0.5 unit per 4 KB.
    Eventual,
    /// 1 unit per 4 KB.
    Strong,
    /// 2 units per 4 KB (TransactGetItems).
    Transactional,
}

impl Consistency {
    /// Milli-units per 4 KB block.
    #[must_use]
    pub const fn milli_per_block(self) -> u64 {
        match self {
            Consistency::Eventual => 500,
            Consistency::Strong => 1_000,
            Consistency::Transactional => 2_000,
        }
    }
}

/// Blocks of `block` bytes needed for `bytes`, at least one (a missing item still costs a read).
#[inline]
const fn blocks(bytes: u64, block: u64) -> u64 {
    if bytes == 0 {
        1
    } else {
        bytes.div_ceil(block)
    }
}

/// GetItem (or one item of a BatchGetItem): the item size rounded up to 4 KB, times the
/// consistency factor. A missing item (`bytes == 0`) still costs one block.
#[must_use]
#[inline]
pub const fn get_item_milli(bytes: u64, c: Consistency) -> u64 {
    blocks(bytes, READ_BLOCK_BYTES) * c.milli_per_block()
}

/// Query or Scan: the bytes of all items read (before any filter) summed, then rounded **once** up
/// to 4 KB per page of at most 1 MB. A query that reads nothing still costs one block.
#[must_use]
pub const fn query_milli(total_bytes: u64, c: Consistency) -> u64 {
    let full_pages = total_bytes / PAGE_BYTES;
    let rest = total_bytes % PAGE_BYTES;
    let mut b = full_pages * (PAGE_BYTES / READ_BLOCK_BYTES);
    if rest > 0 || full_pages == 0 {
        b += blocks(rest, READ_BLOCK_BYTES);
    }
    b * c.milli_per_block()
}

/// BatchGetItem: every item rounded to 4 KB on its own, then summed.
#[must_use]
pub fn batch_get_milli(item_bytes: &[u64], c: Consistency) -> u64 {
    item_bytes.iter().map(|&b| get_item_milli(b, c)).sum()
}

/// PutItem, UpdateItem or DeleteItem of an item of `bytes` (for a replacing put or an update,
/// pass the larger of the before and after images): rounded up to 1 KB.
#[must_use]
#[inline]
pub const fn write_milli(bytes: u64) -> u64 {
    blocks(bytes, WRITE_BLOCK_BYTES) * MILLI
}

/// PutItem that replaces an item: the larger of the old and new item.
#[must_use]
pub fn put_replacing_milli(old_bytes: u64, new_bytes: u64) -> u64 {
    write_milli(old_bytes.max(new_bytes))
}

/// A conditional write whose condition failed: the new item's size when an item existed, one
/// write unit when it did not.
#[must_use]
pub const fn failed_conditional_write_milli(existing: bool, new_bytes: u64) -> u64 {
    if existing {
        write_milli(new_bytes)
    } else {
        MILLI
    }
}

/// A write inside TransactWriteItems: twice the standard write (prepare and commit).
#[must_use]
#[inline]
pub const fn transact_write_item_milli(bytes: u64) -> u64 {
    2 * write_milli(bytes)
}

/// BatchWriteItem: every put or delete rounded to 1 KB on its own, then summed.
#[must_use]
pub fn batch_write_milli(item_bytes: &[u64]) -> u64 {
    item_bytes.iter().map(|&b| write_milli(b)).sum()
}

/// TransactWriteItems of the given items.
#[must_use]
pub fn transact_write_milli(item_bytes: &[u64]) -> u64 {
    item_bytes.iter().map(|&b| transact_write_item_milli(b)).sum()
}

/// Bytes a second that `units` read units serve at consistency `c`.
#[must_use]
pub const fn read_bytes_per_sec(units: u64, c: Consistency) -> u64 {
    units * MILLI * READ_BLOCK_BYTES / c.milli_per_block()
}

/// Bytes a second that `units` write units serve (`transactional` halves it).
#[must_use]
pub const fn write_bytes_per_sec(units: u64, transactional: bool) -> u64 {
    if transactional {
        units * WRITE_BLOCK_BYTES / 2
    } else {
        units * WRITE_BLOCK_BYTES
    }
}

/// Formats milli-units as units: `5500` → `"5.5"`.
#[must_use]
pub fn fmt_milli(m: u64) -> String {
    if m.is_multiple_of(MILLI) {
        format!("{}", m / MILLI)
    } else {
        let s = format!("{}.{:03}", m / MILLI, m % MILLI);
        s.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    //! The examples of behaviour spec §12.1, worked by hand from §1.
    use super::Consistency::{Eventual, Strong, Transactional};
    use super::*;

    const KB: u64 = 1_024;

    #[test]
    fn c1_get_3500_bytes_strong_is_1_rcu() {
        assert_eq!(get_item_milli(3_500, Strong), 1_000);
    }

    #[test]
    fn c2_get_8kb_by_consistency() {
        assert_eq!(get_item_milli(8 * KB, Strong), 2_000);
        assert_eq!(get_item_milli(8 * KB, Eventual), 1_000);
        assert_eq!(get_item_milli(8 * KB, Transactional), 4_000);
    }

    #[test]
    fn c3_get_10kb_rounds_to_12kb() {
        assert_eq!(get_item_milli(10 * KB, Strong), 3_000);
    }

    #[test]
    fn c4_batch_get_rounds_each_item() {
        // 1.5 KB -> 4 KB, 6.5 KB -> 8 KB: 3 RCU, where summing first would give 2.
        assert_eq!(batch_get_milli(&[1_536, 6_656], Strong), 3_000);
    }

    #[test]
    fn c5_query_rounds_the_sum_once() {
        // 40.8 KB -> 44 KB -> 11 blocks.
        let bytes = (40.8 * 1024.0) as u64;
        assert_eq!(query_milli(bytes, Strong), 11_000);
        assert_eq!(query_milli(bytes, Eventual), 5_500);
    }

    #[test]
    fn c6_query_1500_items_of_64_bytes() {
        assert_eq!(query_milli(1_500 * 64, Strong), 24_000);
    }

    #[test]
    fn c7_eventual_read_of_80kb() {
        assert_eq!(query_milli(80 * KB, Eventual), 10_000);
    }

    #[test]
    fn c8_put_1_6kb_is_2_wcu() {
        let bytes = (1.6 * 1024.0) as u64;
        assert_eq!(write_milli(bytes), 2_000);
    }

    #[test]
    fn c9_batch_write_rounds_each_item() {
        assert_eq!(batch_write_milli(&[500, 3_584]), 5_000);
    }

    #[test]
    fn c10_transactional_write_of_3kb() {
        assert_eq!(transact_write_item_milli(3 * KB), 6_000);
    }

    #[test]
    fn c11_transaction_of_three_500_byte_items() {
        assert_eq!(transact_write_milli(&[500, 500, 500]), 6_000);
    }

    #[test]
    fn c12_gsi_query_is_eventual_and_summed() {
        // 8 entries x 2,000 bytes = 16,000 bytes -> 16 KB -> 4 blocks x 0.5.
        assert_eq!(query_milli(8 * 2_000, Eventual), 2_000);
    }

    #[test]
    fn c13_bytes_per_second_of_6_units() {
        assert_eq!(read_bytes_per_sec(6, Strong), 24 * KB);
        assert_eq!(read_bytes_per_sec(6, Eventual), 48 * KB);
        assert_eq!(read_bytes_per_sec(6, Transactional), 12 * KB);
        assert_eq!(write_bytes_per_sec(6, false), 6 * KB);
        assert_eq!(write_bytes_per_sec(6, true), 3 * KB);
    }

    #[test]
    fn c14_steady_rates() {
        assert_eq!(80 * get_item_milli(3 * KB, Strong), 80_000);
        assert_eq!(100 * write_milli(512), 100_000);
    }

    #[test]
    fn c15_20kb_item_allows_600_reads_per_partition() {
        let per_read = get_item_milli(20 * KB, Strong);
        assert_eq!(per_read, 5_000);
        assert_eq!(3_000 * MILLI / per_read, 600);
    }

    #[test]
    fn c16_failed_conditional_put_of_new_item() {
        assert_eq!(failed_conditional_write_milli(false, 10 * KB), 1_000);
        assert_eq!(failed_conditional_write_milli(true, 10 * KB), 10_000);
    }

    #[test]
    fn missing_item_still_costs_a_read() {
        assert_eq!(get_item_milli(0, Strong), 1_000);
        assert_eq!(get_item_milli(0, Eventual), 500);
        assert_eq!(query_milli(0, Strong), 1_000);
    }

    #[test]
    fn replacing_put_charges_the_larger_image() {
        assert_eq!(put_replacing_milli(3 * KB, 1_000), 3_000);
    }

    #[test]
    fn query_over_one_page_rounds_per_page() {
        // 1 MB + 1 byte: one full page (256 blocks) and one block.
        assert_eq!(query_milli(PAGE_BYTES + 1, Strong), 257_000);
    }

    #[test]
    fn formats_milli() {
        assert_eq!(fmt_milli(5_500), "5.5");
        assert_eq!(fmt_milli(3_000), "3");
    }
}
