//! Secondary indexes beyond admission (spec §7, §8): the propagation delay of GSI writes, the
//! backfill of a GSI created during the run, and LSI item collections and their size limit.

use super::request::index_entry_bytes;
use super::resource::Resource;
use super::{Dim, Reason};
use crate::limits::{COLLECTION_LIMIT_BYTES, ITEM_OVERHEAD_BYTES, PARTITION_WRITE_CAP};
use crate::rng::SimRng;
use crate::scenario::Projection;
use crate::stats::Histogram;
use crate::units;
use rand_distr::{Distribution, LogNormal};
use std::collections::BTreeMap;

/// Smallest share of an index's write capacity a backfill takes each second, so that it
/// always progresses and competes with live writes (a model choice).
const BACKFILL_MIN_SHARE: f64 = 0.1;
/// z of the 99th percentile of a normal law.
const Z99: f64 = 2.326_347_874;
/// Collections reported: larger than this many bytes, or with refused writes.
pub(crate) const REPORTED_COLLECTION_BYTES: u64 = crate::limits::GIB;

/// Propagation of one GSI: its delay law, stream and the delays drawn.
#[derive(Clone, Debug)]
pub(crate) struct Propagation {
    law: LogNormal<f64>,
    rng: SimRng,
    /// Delays of the index writes applied, µs.
    pub(crate) delays: Histogram,
    /// The same, for the current minute.
    pub(crate) minute: Histogram,
}

impl Propagation {
    /// A log-normal delay with the given median and 99th percentile (µs).
    pub(crate) fn new(median_us: u64, p99_us: u64, rng: SimRng) -> Self {
        let mu = (median_us as f64).ln();
        let sigma = ((p99_us as f64).ln() - mu).max(1e-9) / Z99;
        Self {
            law: LogNormal::new(mu, sigma).unwrap_or_else(|_| LogNormal::new(mu, 1e-9).expect("valid")),
            rng,
            delays: Histogram::default(),
            minute: Histogram::default(),
        }
    }

    /// Draws the delays of `n` index writes applied.
    pub(crate) fn record(&mut self, n: u64) {
        self.record_after(n, 0);
    }

    /// Draws the delays of `n` index writes that wait `wait_us` in a buffer first.
    pub(crate) fn record_after(&mut self, n: u64, wait_us: u64) {
        for _ in 0..n {
            let d = self.law.sample(&mut self.rng).round() as u64 + wait_us;
            self.delays.record(d, 1);
            self.minute.record(d, 1);
        }
    }

    /// The 99th percentile of the minute's delays (µs), and a fresh minute.
    pub(crate) fn close_minute(&mut self) -> u64 {
        let p99 = self.minute.quantile(0.99);
        self.minute = Histogram::default();
        p99
    }
}

/// A GSI being built while the table takes traffic (spec §7: backfill reads are free, its
/// writes consume the index's write capacity, and live writes compete with it).
#[derive(Clone, Debug)]
pub(crate) struct Backfill {
    /// Milli write units still to write.
    remaining: u64,
    /// Milli write units in all.
    total: u64,
    /// Bytes each milli-unit of backfill adds to the index.
    bytes_per_milli: f64,
    /// Live index writes consumed last second, milli-units.
    live_last_second: u64,
}

/// Back-pressure of a GSI short of write capacity, per index partition, in one of two forms
/// (spec §7, §15, §16; the synchronous rule needs no state):
///
/// * **buffered**: index writes queue in a bounded buffer, drained each second at what the
///   index can take; each partition holds `bound_s` seconds of what it can drain (the index's
///   write capacity, at most the 1,000 WCU partition cap), a model choice.
/// * **absorbing**: index writes are applied at once, and reported as consumed, at most 1,000
///   write units a second a partition (more wait, and their propagation with them); what they
///   take beyond the index's capacity and burst credit is owed, and each second the index's
///   capacity pays the debt down. A partition owing `bound` milli-units is full. Fitted to
///   AWS's design-patterns workshop, where a 1 WCU index took 326 WU/s and back-pressure began
///   only after minutes.
///
/// Once a partition is full every base-table write is rejected, whether or not it writes the
/// index, until the drain makes room ("regardless of whether a new row is destined for a
/// GSI", the workshop).
#[derive(Clone, Debug)]
pub(crate) struct WriteBuffer {
    kind: BufferKind,
    /// Per index partition: queued (buffered) or owed (absorbing) milli write units.
    level: Vec<u64>,
    /// Absorbing: per partition, milli-units admitted but not yet applied (beyond the
    /// partition's 1,000 WU a second).
    backlog: Vec<u64>,
    /// Absorbing: per partition, milli-units applied this second.
    applied: Vec<u64>,
    /// Why the buffer is full, while it is.
    full: Option<(usize, Reason)>,
}

/// The form of a [`WriteBuffer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BufferKind {
    /// A queue of `bound_s` seconds of the partition's drain rate.
    Queue { bound_s: u64 },
    /// A debt of at most `bound` milli-units.
    Absorb { bound: u64 },
}

/// Milli write units a partition applies in a second: its physical cap (§2).
const APPLY_MILLI: u64 = PARTITION_WRITE_CAP * crate::units::MILLI;

impl WriteBuffer {
    /// Empty buffered queues of `bound_s` seconds for `partitions` index partitions.
    pub(crate) fn new(bound_s: u64, partitions: usize) -> Self {
        Self::of(BufferKind::Queue { bound_s }, partitions)
    }

    /// Absorbing debts of at most `bound_units` write units for `partitions` index partitions.
    pub(crate) fn absorbing(bound_units: u64, partitions: usize) -> Self {
        Self::of(BufferKind::Absorb { bound: bound_units.saturating_mul(crate::units::MILLI) }, partitions)
    }

    fn of(kind: BufferKind, partitions: usize) -> Self {
        Self { kind, level: vec![0; partitions], backlog: vec![0; partitions], applied: vec![0; partitions], full: None }
    }

    /// The partition and reason of a full buffer: base-table writes are rejected meanwhile.
    #[inline]
    pub(crate) fn full(&self) -> Option<(usize, Reason)> {
        self.full
    }

    /// The most milli-units partition `p` may hold.
    fn bound(&self, res: &Resource) -> u64 {
        match self.kind {
            BufferKind::Queue { bound_s } => bound_s * res.partition_rate_milli(Dim::Write),
            BufferKind::Absorb { bound } => bound,
        }
    }

    /// Takes `units` milli write units of `n` index writes on partition `p` of `res`:
    /// queued (they propagate after the queue ahead of them drains at the partition's rate),
    /// or applied now as far as the partition's 1,000 WU a second allows (the rest wait their
    /// turn) and owed.
    pub(crate) fn push(&mut self, res: &mut Resource, p: usize, units: u64, n: u64, propagation: &mut Propagation) {
        match self.kind {
            BufferKind::Queue { .. } => {
                let rate = res.partition_rate_milli(Dim::Write).max(1);
                let wait_us = (u128::from(self.level[p]) * 1_000_000 / u128::from(rate)) as u64;
                propagation.record_after(n, wait_us);
            }
            BufferKind::Absorb { .. } => {
                let now = if self.backlog[p] == 0 { units.min(APPLY_MILLI.saturating_sub(self.applied[p])) } else { 0 };
                let wait_us = (u128::from(self.backlog[p] + units - now) * 1_000_000 / u128::from(APPLY_MILLI)) as u64;
                res.record_applied(p, Dim::Write, now);
                self.applied[p] += now;
                self.backlog[p] += units - now;
                propagation.record_after(n, if now == units { 0 } else { wait_us });
            }
        }
        self.level[p] += units;
        if self.level[p] >= self.bound(res) {
            self.full = Some((p, res.rate_reason(Dim::Write)));
        }
    }

    /// The fullest partition's level and the bound it may reach.
    pub(crate) fn fullest(&self, res: &Resource) -> crate::model::reserve::IndexLevel {
        crate::model::reserve::IndexLevel {
            level: self.level.iter().copied().max().unwrap_or(0),
            bound: self.bound(res),
            absorbing: matches!(self.kind, BufferKind::Absorb { .. }),
        }
    }

    /// Room on partition `p` before the buffer is full, milli-units.
    pub(crate) fn room(&self, res: &Resource, p: usize) -> u64 {
        self.bound(res).saturating_sub(self.level[p])
    }

    /// At the end of a second: every partition applies what its buckets hold of its queue, or
    /// applies its backlog (at most its 1,000 WU a second) and pays down its debt with what
    /// its buckets hold. Returns the milli-units taken from the buckets.
    pub(crate) fn drain(&mut self, res: &mut Resource, end_us: u64) -> u64 {
        res.set_time(end_us);
        let bound = self.bound(res);
        self.full = None;
        let mut done = 0;
        for p in 0..self.level.len() {
            if let BufferKind::Absorb { .. } = self.kind {
                // What the second has left of the partition's 1,000 WU applies the backlog.
                let now = self.backlog[p].min(APPLY_MILLI.saturating_sub(self.applied[p]));
                res.record_applied(p, Dim::Write, now);
                self.backlog[p] -= now;
                self.applied[p] = 0;
            }
            let owed = self.level[p] - self.backlog[p];
            if owed == 0 {
                continue;
            }
            let (took, why) = match self.kind {
                BufferKind::Queue { .. } => res.take_up_to(p, Dim::Write, owed),
                BufferKind::Absorb { .. } => res.pay_up_to(p, Dim::Write, owed),
            };
            self.level[p] -= took;
            done += took;
            if self.level[p] >= bound && self.full.is_none() {
                self.full = Some((p, why.unwrap_or_else(|| res.rate_reason(Dim::Write))));
            }
        }
        done
    }

    /// Partition `i` split in two, the lower child taking `frac` of its queue or debt.
    pub(crate) fn split(&mut self, i: usize, frac: f64) {
        for v in [&mut self.level, &mut self.backlog, &mut self.applied] {
            let lower = (v[i] as f64 * frac).round() as u64;
            let upper = v[i] - lower;
            v[i] = lower;
            v.insert(i + 1, upper);
        }
    }

    /// Every partition split in halves until there are at least `n` (as [`Resource::grow_to`]).
    pub(crate) fn grow_to(&mut self, n: usize) {
        for v in [&mut self.level, &mut self.backlog, &mut self.applied] {
            while v.len() < n {
                *v = v.iter().flat_map(|&l| [l / 2, l - l / 2]).collect();
            }
        }
    }
}

/// State of one GSI.
#[derive(Clone, Debug)]
pub(crate) struct IndexState {
    /// The index exists (a GSI added by `add_gsi` exists from its action on).
    pub(crate) active: bool,
    /// Propagation delays.
    pub(crate) propagation: Propagation,
    /// Buffered back-pressure's queue (`None`: synchronous back-pressure).
    pub(crate) buffer: Option<WriteBuffer>,
    /// A backfill in progress.
    backfill: Option<Backfill>,
    /// Backfill milli-units of the current second.
    backfill_second: u64,
    /// A backfill has completed.
    online_done: bool,
}

/// What starting a backfill means: items to copy and write units to spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BackfillPlan {
    /// Items that carry the index key.
    pub(crate) items: f64,
    /// Milli write units.
    pub(crate) milli_units: u64,
}

impl IndexState {
    /// An index that exists from the start (`active`) or is added later.
    pub(crate) fn new(active: bool, propagation: Propagation) -> Self {
        Self { active, propagation, buffer: None, backfill: None, backfill_second: 0, online_done: false }
    }

    /// Creates the index: from now on writes maintain it, and the existing items are written
    /// to it in the background. `table_bytes` of items of `mean_item` bytes (plus overhead),
    /// `coverage` of them carrying the index key, each an entry sized by `projection`.
    pub(crate) fn start(&mut self, table_bytes: u64, mean_item: u64, coverage: f64, projection: Projection) -> BackfillPlan {
        self.active = true;
        let items = table_bytes as f64 / (mean_item + ITEM_OVERHEAD_BYTES) as f64 * coverage;
        let entry = index_entry_bytes(projection, mean_item);
        let per_entry = units::write_milli(entry);
        let total = (items * per_entry as f64) as u64;
        if total > 0 {
            let bytes_per_milli = (entry + ITEM_OVERHEAD_BYTES) as f64 / per_entry as f64;
            self.backfill = Some(Backfill { remaining: total, total, bytes_per_milli, live_last_second: 0 });
        }
        BackfillPlan { items, milli_units: total }
    }

    /// Is a backfill running (Application Auto Scaling leaves the index alone meanwhile)?
    pub(crate) fn building(&self) -> bool {
        self.backfill.is_some()
    }

    /// Before the second's traffic: the backfill takes the index's write capacity that live
    /// writes left last second (at least 10 % of it), spread over its partitions. Returns the
    /// milli-units written, and whether the backfill is now complete.
    pub(crate) fn backfill_step(&mut self, res: &mut Resource) -> Option<(u64, bool)> {
        let b = self.backfill.as_mut()?;
        let limit = res.limit_milli(Dim::Write);
        let spare = limit.saturating_sub(b.live_last_second).max((limit as f64 * BACKFILL_MIN_SHARE) as u64);
        let want = spare.min(b.remaining).min(limit);
        let n = res.partition_count() as u64;
        let mut done = 0;
        for p in 0..n as usize {
            let share = want / n + u64::from((p as u64) < want % n);
            let take = share.min(res.write_room(p));
            if take > 0 {
                res.take_bulk(p, Dim::Write, take, false);
                res.add_bytes(p, (take as f64 * b.bytes_per_milli) as i64);
                done += take;
            }
        }
        b.remaining -= done;
        self.backfill_second = done;
        let complete = b.remaining == 0;
        if complete {
            self.backfill = None;
            self.online_done = true;
        }
        Some((done, complete))
    }

    /// After the second: the backfill's share of `write_consumed` (milli-units the index
    /// consumed in the second), which CloudWatch reports apart from live consumption.
    pub(crate) fn end_second(&mut self, write_consumed: u64) -> u64 {
        let backfill = std::mem::take(&mut self.backfill_second);
        if let Some(b) = &mut self.backfill {
            b.live_last_second = write_consumed.saturating_sub(backfill);
        }
        backfill
    }

    /// Backfill progress, basis points (10,000 when done; 0 when there is none).
    pub(crate) fn progress_bp(&self) -> u32 {
        match &self.backfill {
            Some(b) => (((b.total - b.remaining) as f64 / b.total as f64) * 10_000.0) as u32,
            None if self.online_done => 10_000,
            None => 0,
        }
    }
}

/// An item collection that passed a size of interest or refused writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct CollectionInfo {
    /// Key label.
    pub key: String,
    /// Bytes at the end.
    pub bytes: u64,
    /// Writes refused with ItemCollectionSizeLimitExceededException.
    pub failed_writes: u64,
}

/// The item collections of a table with LSIs: bytes and refused writes per partition-key value.
#[derive(Clone, Debug, Default)]
pub(crate) struct ItemCollections {
    /// (key space, key rank) -> its state.
    map: BTreeMap<(usize, u64), Collection>,
    /// Bytes every collection of each key space holds at the start.
    start: Vec<u64>,
    /// Share of the bytes written that time to live expires (0 without `[table.ttl]`).
    ttl_share: f64,
}

/// One item collection.
#[derive(Clone, Copy, Debug, Default)]
struct Collection {
    bytes: u64,
    refused: u64,
    /// Bytes written in the run that time to live will expire.
    expirable: f64,
}

impl ItemCollections {
    /// Collections that start with `start_bytes[key space]` each, except the `large` ones
    /// ((key space, rank), bytes).
    pub(crate) fn new(start_bytes: Vec<u64>, large: &[((usize, u64), u64)], ttl_share: f64) -> Self {
        let map = large.iter().map(|&(k, bytes)| (k, Collection { bytes, ..Collection::default() })).collect();
        Self { map, start: start_bytes, ttl_share }
    }

    /// Whether a write changing collection `(key_space, key)` by `delta` bytes fits the 10 GB
    /// limit (spec §8); records the change when it does, the refusal when it does not. A
    /// delete (`delta` below 0) always fits and shrinks the collection.
    pub(crate) fn admits(&mut self, key_space: usize, key: u64, delta: i64) -> bool {
        let start = self.start.get(key_space).copied().unwrap_or(0);
        let e = self.map.entry((key_space, key)).or_insert(Collection { bytes: start, ..Collection::default() });
        if delta < 0 {
            e.bytes = e.bytes.saturating_sub(delta.unsigned_abs());
            e.expirable = e.expirable.min(e.bytes as f64);
            return true;
        }
        let growth = delta.unsigned_abs();
        if e.bytes + growth > COLLECTION_LIMIT_BYTES {
            e.refused += 1;
            return false;
        }
        e.bytes += growth;
        e.expirable += growth as f64 * self.ttl_share;
        true
    }

    /// Time to live deleted `fraction` of the table's expirable bytes this minute: each
    /// collection loses the same fraction of its own (a model choice: expiry is not tracked
    /// per key, and every collection's writes expire alike).
    pub(crate) fn expire(&mut self, fraction: f64) {
        if fraction <= 0.0 {
            return;
        }
        for c in self.map.values_mut() {
            let gone = c.expirable * fraction.min(1.0);
            c.expirable -= gone;
            c.bytes = c.bytes.saturating_sub(gone.round() as u64);
        }
    }

    /// Collections above 1 GB or with refused writes, largest first (at most 20), labelled by
    /// `label(key space, rank)`.
    pub(crate) fn report(&self, label: impl Fn(usize, u64) -> String) -> Vec<CollectionInfo> {
        let mut v: Vec<CollectionInfo> = self
            .map
            .iter()
            .filter(|(_, c)| c.bytes > REPORTED_COLLECTION_BYTES || c.refused > 0)
            .map(|(&(ks, rank), c)| CollectionInfo { key: label(ks, rank), bytes: c.bytes, failed_writes: c.refused })
            .collect();
        v.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.key.cmp(&b.key)));
        v.truncate(20);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit is 10 GB of 2^30 bytes, 10,737,418,240 bytes (spec §15). A collection 10^7
    /// bytes short of it takes floor(10^7 / 4,300) = 2,325 writes of 4,300 bytes, then refuses
    /// every further write of that key and no other.
    #[test]
    fn collections_stop_at_the_limit() {
        let mut c = ItemCollections::new(vec![10_727_418_240], &[], 0.0);
        let ok = (0..3_000).filter(|_| c.admits(0, 7, 4_300)).count();
        assert_eq!(ok, 2_325);
        assert!(c.admits(0, 8, 4_300));
        let r = c.report(|_, rank| format!("k#{rank}"));
        assert_eq!(r[0], CollectionInfo { key: "k#7".into(), bytes: 10_727_418_240 + 2_325 * 4_300, failed_writes: 675 });
    }

    /// 1.1 GB of 1,000-byte items is 1,000,000 items; a keys-only entry (100 bytes) is 1 WCU.
    #[test]
    fn a_backfill_plans_one_write_per_entry() {
        use rand::SeedableRng;
        let mut s = IndexState::new(false, Propagation::new(100_000, 1_000_000, SimRng::seed_from_u64(1)));
        let plan = s.start(1_100_000_000, 1_000, 1.0, Projection::KeysOnly);
        assert!((plan.items - 1e6).abs() < 1e-6);
        assert_eq!(plan.milli_units, 1_000_000 * 1_000);
        assert!(s.active && s.building());
    }

    /// A 10 s buffer on a 5 WCU index with no burst credit: full at 50 units. 48 units queue;
    /// the end-of-second drain applies the bucket's 5; a write queued behind 43 units waits
    /// 43 / 5 = 8.6 s; 7 more units fill it (50), and the next drain frees it: 5 units
    /// refilled plus the 5 that overflowed the full bucket in the first second, banked as burst
    /// credit (spec §3), leaving 40. A split gives the lower child `frac` of a queue; a doubling
    /// halves every queue.
    #[test]
    fn a_write_buffer_fills_drains_and_follows_splits() {
        use crate::scenario::CapacitySpec;
        use rand::SeedableRng;
        let mut res = Resource::new("G".into(), true, &CapacitySpec::Provisioned { read: 1, write: 5 }, 0, false, false);
        let mut prop = Propagation::new(1, 1, SimRng::seed_from_u64(1));
        let mut b = WriteBuffer::new(10, res.partition_count());
        b.push(&mut res, 0, 48_000, 48, &mut prop);
        assert_eq!(b.full(), None);
        assert_eq!(b.drain(&mut res, 1_000_000), 5_000, "the bucket held one second of 5 WCU");
        assert_eq!(b.room(&res, 0), 7_000);
        b.push(&mut res, 0, 7_000, 1, &mut prop);
        let waited = prop.delays.max();
        assert!((8_600_000..=8_600_002).contains(&waited), "{waited}");
        assert_eq!(b.full(), Some((0, Reason::Provisioned)));
        res.end_second();
        assert_eq!(b.drain(&mut res, 2_000_000), 10_000);
        assert_eq!(b.full(), None);
        b.split(0, 0.25);
        assert_eq!(b.level, vec![10_000, 30_000]);
        b.grow_to(4);
        assert_eq!(b.level, vec![5_000, 5_000, 15_000, 15_000]);
    }

    /// An absorbing 1 WCU index with a 1,000-unit bound and no burst credit, taking Step 7's
    /// 326 WU a second: each second's 326 units are applied and consumed at once; the drain
    /// pays what the bucket holds: 1 unit, then 2 (a refill plus the unit that overflowed the
    /// full bucket in the first second, banked as burst credit, spec §3), then 1. The debt is
    /// 325, 649, 974 after three seconds (room 26), and the fourth second's push reaches
    /// 1,300 ≥ 1,000: full. A partition applies at most 1,000 units a second: 1,500 more units apply 1,000
    /// now, and the other 500 wait half a second (500 / 1,000 per second) and apply in the
    /// next second.
    #[test]
    fn an_absorbing_index_applies_now_and_owes_the_rest() {
        use crate::scenario::CapacitySpec;
        use rand::SeedableRng;
        let mut res = Resource::new("G".into(), true, &CapacitySpec::Provisioned { read: 1, write: 1 }, 0, false, false);
        let mut prop = Propagation::new(1, 1, SimRng::seed_from_u64(1));
        let mut b = WriteBuffer::absorbing(1_000, res.partition_count());
        for s in 1..=3u64 {
            b.push(&mut res, 0, 326_000, 326, &mut prop);
            assert_eq!(res.second_consumed(Dim::Write), 326_000, "applied and consumed at once");
            assert_eq!(b.full(), None);
            assert_eq!(b.drain(&mut res, s * 1_000_000), if s == 2 { 2_000 } else { 1_000 }, "second {s}");
            assert_eq!(res.second_consumed(Dim::Write), 326_000, "the payment is not consumed again");
            res.end_second();
        }
        assert_eq!(b.level, vec![974_000]);
        assert_eq!(b.room(&res, 0), 26_000);
        b.push(&mut res, 0, 326_000, 326, &mut prop);
        assert_eq!(b.full(), Some((0, Reason::Provisioned)));
        let mut res = Resource::new("G".into(), true, &CapacitySpec::Provisioned { read: 1, write: 1 }, 0, false, false);
        let mut prop = Propagation::new(1, 1, SimRng::seed_from_u64(1));
        let mut b = WriteBuffer::absorbing(60_000, 1);
        b.push(&mut res, 0, 1_500_000, 1, &mut prop);
        assert_eq!(res.second_consumed(Dim::Write), 1_000_000, "a partition applies 1,000 WU a second");
        assert!((500_000..=500_002).contains(&prop.delays.max()), "{}", prop.delays.max());
        b.drain(&mut res, 1_000_000);
        assert_eq!(res.second_consumed(Dim::Write), 1_000_000, "the second had no room left for the backlog");
        res.end_second();
        b.drain(&mut res, 2_000_000);
        assert_eq!(res.second_consumed(Dim::Write), 500_000, "the next second applies it");
        assert_eq!(b.backlog, vec![0]);
    }
}
