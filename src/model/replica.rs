//! Global tables (version 2019.11.21): a replica of the table in another region.
//!
//! DynamoDB replicates every write made to a replica table to each of the others, in the
//! background, as a replicated write that the receiving replica's own partitions must admit
//! (docs: each replica consumes replicated write capacity for every write of every region; a
//! replica that cannot keep up falls behind, and `ReplicationLatency` grows). The table's writes
//! of each second are mapped onto the replica's partitions by their hash ranges (a replica
//! starts with the table's partitions and splits on its own), queue there, and drain at what
//! the replica's buckets and burst credit hold at the end of the second. The queue is unbounded:
//! replication never rejects or slows the table's writes, it only lags.
//!
//! Model choices: within a partition, writes spread over the overlapping partitions of the
//! receiving region by hash-range length; each partition applies its queue oldest first; the
//! lag reported is the delay the queue adds, in whole seconds, beyond DynamoDB's normal
//! replication latency (about a second, not modelled): the longest of the minute's replicated
//! writes, or the age of the oldest still waiting.

use super::resource::Resource;
use super::Dim;
use crate::time::MICROS_PER_SEC;
use std::collections::VecDeque;

/// The replication queue of one region's table: per partition, what waits, oldest first.
#[derive(Clone, Debug)]
pub(crate) struct Replication {
    /// Resource index of the region's table.
    pub(crate) res: usize,
    /// Per partition: (second queued, milli write units) in arrival order.
    queue: Vec<VecDeque<(u64, u64)>>,
    /// Scratch: what each partition received this second.
    incoming: Vec<u64>,
    /// The longest replication delay of the units applied this minute, seconds.
    minute_lag_s: u64,
}

/// What the minute saw, for the region's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReplicationMinute {
    /// Queued milli-units at the end of the minute.
    pub(crate) backlog_milli: u64,
    /// The longest delay of the writes replicated in the minute, µs (whole seconds).
    pub(crate) lag_us: u64,
}

/// Spreads `per_source[i]` (an amount on partition `i` of `from`) onto the partitions of `to`
/// by the overlap of their hash ranges; adds to `out` (one entry per partition of `to`).
pub(crate) fn map_ranges(from: &Resource, to: &Resource, per_source: impl Fn(usize) -> u64, out: &mut [u64]) {
    let mut j = 0;
    for i in 0..from.partition_count() {
        let v = per_source(i);
        if v == 0 {
            continue;
        }
        let (lo, hi) = from.range(i);
        while to.range(j).1 <= u128::from(lo) {
            j += 1;
        }
        let width = hi - u128::from(lo);
        let mut k = j;
        let mut left = v;
        loop {
            let (tlo, thi) = to.range(k);
            let overlap = hi.min(thi) - u128::from(lo).max(u128::from(tlo));
            // The last overlapping partition takes the remainder, so the sum is exact.
            if thi >= hi || k + 1 == to.partition_count() {
                out[k] += left;
                break;
            }
            let share = (u128::from(v) * overlap / width) as u64;
            let share = share.min(left);
            out[k] += share;
            left -= share;
            k += 1;
        }
    }
}

impl Replication {
    /// An empty queue for resource `res` of `partitions` partitions.
    pub(crate) fn new(res: usize, partitions: usize) -> Self {
        Self { res, queue: vec![VecDeque::new(); partitions], incoming: vec![0; partitions], minute_lag_s: 0 }
    }

    /// Partition `i` split in two, the lower child taking `frac` of each queued entry.
    pub(crate) fn split(&mut self, i: usize, frac: f64) {
        let mut upper = VecDeque::with_capacity(self.queue[i].len());
        for e in &mut self.queue[i] {
            let lower = (e.1 as f64 * frac).round() as u64;
            upper.push_back((e.0, e.1 - lower));
            e.1 = lower;
        }
        self.queue[i].retain(|e| e.1 > 0);
        upper.retain(|e| e.1 > 0);
        self.queue.insert(i + 1, upper);
        self.incoming.push(0);
    }

    /// Every partition split in halves until there are at least `n`.
    pub(crate) fn grow_to(&mut self, n: usize) {
        while self.queue.len() < n {
            let mut next = Vec::with_capacity(self.queue.len() * 2);
            for q in self.queue.drain(..) {
                let lower: VecDeque<(u64, u64)> = q.iter().map(|e| (e.0, e.1 / 2)).filter(|e| e.1 > 0).collect();
                let upper: VecDeque<(u64, u64)> = q.iter().map(|e| (e.0, e.1 - e.1 / 2)).filter(|e| e.1 > 0).collect();
                next.push(lower);
                next.push(upper);
            }
            self.queue = next;
        }
        self.incoming.resize(self.queue.len(), 0);
    }

    /// Milli-units queued.
    pub(crate) fn backlog(&self) -> u64 {
        self.queue.iter().flatten().map(|e| e.1).sum()
    }

    /// Queues `milli` write units in second `s`, spread over the partitions by the bytes each
    /// stores (TTL's deletes, which leave partitions in proportion to their bytes).
    pub(crate) fn push_by_bytes(&mut self, s: u64, to: &Resource, milli: u64) {
        for (p, share) in by_bytes(to, milli).into_iter().enumerate() {
            if share > 0 {
                self.queue[p].push_back((s, share));
            }
        }
    }

    /// The writes `from` admitted in second `s` (`used`, per partition of `from`) join the
    /// queue of this region's table `to`.
    pub(crate) fn push(&mut self, s: u64, from: &Resource, to: &Resource, used: &[u64]) {
        self.incoming.iter_mut().for_each(|x| *x = 0);
        map_ranges(from, to, |p| used[p], &mut self.incoming);
        for (q, &u) in self.queue.iter_mut().zip(&self.incoming) {
            if u > 0 {
                match q.back_mut() {
                    Some(last) if last.0 == s => last.1 += u,
                    _ => q.push_back((s, u)),
                }
            }
        }
    }

    /// The end of second `s`: each partition of this region's table applies what its buckets
    /// and burst credit hold of its queue, oldest first. The table-level capacity left is
    /// shared in proportion to the queues (no partition drains ahead of another), then each
    /// partition takes what its burst credit and any capacity still left allow. Returns the
    /// milli-units applied.
    pub(crate) fn drain(&mut self, s: u64, to: &mut Resource) -> u64 {
        if self.queue.iter().all(VecDeque::is_empty) {
            return 0;
        }
        to.set_time((s + 1) * MICROS_PER_SEC);
        let levels: Vec<u64> = self.queue.iter().map(|q| q.iter().map(|e| e.1).sum()).collect();
        let total: u64 = levels.iter().sum();
        let room = to.table_room(Dim::Write);
        let mut took = vec![0u64; levels.len()];
        for pass in 0..2 {
            for (p, &level) in levels.iter().enumerate() {
                let want = if pass == 0 { (u128::from(level) * u128::from(room) / u128::from(total)) as u64 } else { level - took[p] };
                if want > 0 {
                    took[p] += to.take_up_to(p, Dim::Write, want.min(level - took[p])).0;
                }
            }
        }
        for (p, q) in self.queue.iter_mut().enumerate() {
            let mut left = took[p];
            while left > 0 {
                let front = q.front_mut().expect("took no more than queued");
                let n = front.1.min(left);
                front.1 -= n;
                left -= n;
                self.minute_lag_s = self.minute_lag_s.max(s - front.0);
                if front.1 == 0 {
                    q.pop_front();
                }
            }
        }
        took.iter().sum()
    }

    /// Closes the minute: its backlog at the end and the longest delay of what it replicated
    /// (or, while the backlog waits, the age of its oldest write if longer).
    pub(crate) fn close_minute(&mut self, s_end: u64) -> ReplicationMinute {
        let oldest = self.queue.iter().filter_map(|q| q.front()).map(|e| s_end.saturating_sub(e.0)).max().unwrap_or(0);
        let m = ReplicationMinute { backlog_milli: self.backlog(), lag_us: self.minute_lag_s.max(oldest) * MICROS_PER_SEC };
        self.minute_lag_s = 0;
        m
    }

    /// Sets each replica partition's bytes to what the table stores over its hash range (the
    /// replica holds the same items; its partitions split on their own).
    pub(crate) fn mirror_bytes(table: &Resource, replica: &mut Resource) {
        let mut target = vec![0u64; replica.partition_count()];
        map_ranges(table, replica, |p| table.part_bytes(p), &mut target);
        for (p, t) in target.into_iter().enumerate() {
            replica.set_part_bytes(p, t);
        }
    }

    /// Adds `bytes` to `res`'s partitions in proportion to what each stores (items written in
    /// a replica's region, stored in the table's too).
    pub(crate) fn spread_bytes(res: &mut Resource, bytes: u64) {
        for (p, share) in by_bytes(res, bytes).into_iter().enumerate() {
            res.add_bytes(p, share as i64);
        }
    }
}

/// `amount` split over `res`'s partitions in proportion to the bytes each stores (evenly when
/// it stores none), the last taking the remainder so the parts sum to `amount`.
fn by_bytes(res: &Resource, amount: u64) -> Vec<u64> {
    let total = res.bytes();
    let n = res.partition_count();
    let mut left = amount;
    (0..n)
        .map(|p| {
            let share = if p + 1 == n {
                left
            } else if total == 0 {
                amount / n as u64
            } else {
                (u128::from(amount) * u128::from(res.part_bytes(p)) / u128::from(total)) as u64
            };
            let share = share.min(left);
            left -= share;
            share
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::CapacitySpec;
    use crate::units::MILLI;

    fn table(write: u64) -> Resource {
        Resource::new("T".into(), false, &CapacitySpec::Provisioned { read: 0, write }, 0, false, false)
    }

    /// Two partitions (halves of the hash space) onto four (the upper half split at 3/4 and
    /// the lower at 1/4): each source partition's amount splits by the overlap, exactly.
    #[test]
    fn amounts_follow_hash_range_overlap() {
        let from = table(2_000); // 2 partitions
        let mut to = table(2_000);
        to.split(1, 3u64 << 62, 0.5);
        to.split(0, 1u64 << 62, 0.5);
        assert_eq!(to.partition_count(), 4);
        let mut out = vec![0; 4];
        map_ranges(&from, &to, |p| [1_001, 600][p], &mut out);
        // 1,001 over two quarters: 500 and the remainder 501; 600: 300 and 300.
        assert_eq!(out, [500, 501, 300, 300]);
        // And back: four onto two.
        let mut back = vec![0; 2];
        map_ranges(&to, &from, |p| [1, 2, 3, 4][p], &mut back);
        assert_eq!(back, [3, 7]);
    }

    /// A 100 WCU table (one partition, no burst credit at the start) receiving 250 units a
    /// second for four seconds, applied at each second's end, oldest first. Second 0: its
    /// bucket was full the whole second, so the second's refill overflowed into burst credit
    /// (100 units, the engine's rule for unused capacity); it applies 100 then, 200 in second 1
    /// (100 + the 100 of credit), 100 in seconds 2 and 3: second 0's writes are done in second
    /// 1 (lag 1 s), second 1's in second 3 (2 s). 500 wait after second 3, the oldest queued in
    /// second 2; at 100 a second they are done in second 8, second 3's last (5 s).
    #[test]
    fn the_queue_drains_oldest_first_at_the_capacity_left() {
        let src = table(1_000);
        let mut dst = table(100);
        let mut q = Replication::new(1, 1);
        for (s, want) in [(0, 100), (1, 200), (2, 100), (3, 100)] {
            q.push(s, &src, &dst, &[250 * MILLI]);
            assert_eq!(q.drain(s, &mut dst), want * MILLI, "second {s}");
            dst.end_second();
        }
        let m = q.close_minute(4);
        assert_eq!(m.backlog_milli, 500 * MILLI);
        assert_eq!(m.lag_us, 2 * MICROS_PER_SEC);
        for s in 4..10 {
            q.drain(s, &mut dst);
            dst.end_second();
        }
        let m = q.close_minute(10);
        assert_eq!(m.backlog_milli, 0);
        assert_eq!(m.lag_us, 5 * MICROS_PER_SEC);
    }
}
