//! A table or a GSI: partitions, admission by token buckets, and burst credit.
//!
//! Admission follows spec §2–§5. Capacity is a **token bucket refilled continuously** (the
//! docs' "per second" is the refill rate; DynamoDB's partitions are token buckets, ATC'22),
//! holding at most one second of its rate, so a request is admitted when its bucket holds its
//! units at the moment it arrives, and throttles spread over the second instead of bunching
//! at its end:
//!
//! * Every partition's bucket refills at 3,000 read units and 1,000 write units a second
//!   (or one bucket for `r/3000 + w/1000 ≤ 1` with the linear model). A single key never
//!   exceeds it.
//! * A **provisioned** resource has a table-level bucket refilled at its provisioned units
//!   a second (global admission control: any partition may use it, up to its cap). When it
//!   is empty, a request may draw on its partition's **burst credit**: the table's unused
//!   provisioned capacity, banked second by second and shared among partitions by their
//!   allocation, up to 300 s of each partition's allocation.
//! * An **on-demand** resource has a table-level limit of its instant (warm) capacity, its
//!   optional maximum throughput and the per-table quota, whichever is lowest; no burst bucket.
//!
//! Units are milli-units (see [`crate::units`]). A bucket is kept as its *debt* (capacity
//! minus tokens) in milli-unit-microseconds, so that a refill of `rate × Δt` is exact in
//! integers. Fast fidelity's bulk path admits a second whose demand is within the tokens at
//! its start (so it fits in any order) and leaves the debt `max(0, debt + demand − rate)`.

use super::{CapacityMode, Dim, Reason};
use crate::limits::{BURST_SECONDS, PARTITION_BYTES, PARTITION_READ_CAP, PARTITION_WRITE_CAP, SEED_PARTITION_BYTES};
use crate::scenario::CapacitySpec;
use crate::units::MILLI;

mod layout;

mod admit;

/// Per-partition caps in milli-units per second, indexed by [`Dim`].
pub(crate) const PARTITION_CAP_MILLI: [u64; 2] = [PARTITION_READ_CAP * MILLI, PARTITION_WRITE_CAP * MILLI];

/// Microseconds in a second: a bucket's capacity is one second of its rate, and its debt is
/// counted in milli-unit-microseconds.
const US: u64 = 1_000_000;

/// Capacity mode state of a resource.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Mode {
    /// Provisioned units per second, by [`Dim`].
    Provisioned {
        /// RCU, WCU.
        units: [u64; 2],
    },
    /// On-demand.
    OnDemand {
        /// Instant (warm) capacity, units per second.
        warm: [u64; 2],
        /// Maximum throughput, units per second.
        max: [Option<u64>; 2],
        /// The table-level quota, units per second, by dimension.
        quota: [u64; 2],
    },
}

impl Mode {
    /// The mode's kind.
    pub(crate) fn kind(&self) -> CapacityMode {
        match self {
            Mode::Provisioned { .. } => CapacityMode::Provisioned,
            Mode::OnDemand { .. } => CapacityMode::OnDemand,
        }
    }

    /// The mode a validated capacity setting starts in.
    pub(crate) fn of(capacity: &CapacitySpec) -> Self {
        match *capacity {
            CapacitySpec::Provisioned { read, write } => Mode::Provisioned { units: [read, write] },
            CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota } => {
                Mode::OnDemand { warm: [warm_read, warm_write], max: [max_read, max_write], quota: table_quota }
            }
        }
    }
}

/// What an admission of a partition reads and writes in one dimension, apart from the rest
/// of its state: that dimension's bucket and its consumption of the minute, 16 bytes, four
/// partitions a cache line, in an array a dimension. With many partitions a request lands on
/// a partition no recent request touched, and the line fetched for it is what its admission
/// costs; a pass that knows every take fits (exact mode's compact seconds) reads nothing
/// else, so its reads on 100,000 partitions reach 1.6 MB, not the 11.2 MB of their whole
/// state (nor the 3.2 MB of both dimensions' buckets side by side, as they were).
///
/// Each dimension's bucket is brought up to date on its own: taking one dimension leaves the
/// other's debt as of its last take, which is the debt refilled later in one step instead of
/// two. The two agree because a bucket never owes more than a second of its cap (admission
/// checks it), so refilling `x` then `y` µs pays what refilling `x + y` does, both clamped at
/// a second; and because a partition's takes come in time order (a second's are merged by
/// time). A take before the partition's last, should one come, would move only its own
/// dimension's time back, where one shared time moved both.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct Bucket {
    /// Debt (capacity minus tokens) at `at`, milli-unit-µs; the linear model uses the read
    /// bucket alone, in read units.
    debt: u64,
    /// When `debt` was last brought up to date: the low 32 bits of the µs. The time is within
    /// 2³¹ µs (35 minutes) of admission's ([`SWEEP_US`]), which its 32 bits then place.
    at: u32,
    /// Milli-units of this dimension consumed in the current minute. A partition's bucket
    /// holds a second of its cap and refills it in a second, so a minute is at most 61 s of
    /// 3,000 RCU (9,000 of eventually consistent reads at `ec_read_fanout` 3): 5.5·10⁸
    /// milli-units, within 32 bits.
    minute_consumed: u32,
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 16 && std::mem::size_of::<Partition>() == 80);

impl Bucket {
    /// Adds `u` milli-units to the minute's consumption. When nothing reads the partitions'
    /// minutes (no partition rows, no split for heat, no entity shares: for the whole run),
    /// their closes are skipped and the count runs on, unread: it wraps.
    #[inline]
    fn consume(&mut self, u: u64) {
        self.minute_consumed = self.minute_consumed.wrapping_add(u as u32);
    }
}

/// How often every bucket's time is brought within reach of its 32 bits: every ten simulated
/// minutes, a bucket not brought up to date for a second or more has its time moved up to a
/// second ago. Its debt is unchanged: a second's refill pays it either way. Between two
/// sweeps no bucket's time falls more than ten minutes and a second behind admission's.
const SWEEP_US: u64 = 600 * US;

/// How long before `now_us` a bucket's time `at` (its low 32 bits) lies, µs; negative when
/// after it. The two are within 2³¹ µs of each other ([`SWEEP_US`]).
#[inline]
fn ago(now_us: u64, at: u32) -> i64 {
    i64::from((now_us as u32).wrapping_sub(at) as i32)
}

/// Splits each of two counts in halves, the first taking the odd one.
fn pair(x: [u64; 2]) -> ([u64; 2], [u64; 2]) {
    let split = |x: u64| {
        let a = x / 2 + x % 2;
        (a, x - a)
    };
    let (a0, b0) = split(x[0]);
    let (a1, b1) = split(x[1]);
    ([a0, a1], [b0, b1])
}

/// The rest of one partition's state (its buckets are a [`Bucket`] a dimension, in arrays of
/// their own).
#[derive(Clone, Debug, Default)]
pub(crate) struct Partition {
    /// Milli-units consumed in the current second.
    used: [u64; 2],
    /// Throttle events in the current minute (saturating: the partition rows keep 32 bits).
    minute_throttles: [u32; 2],
    /// Banked burst credit, milli-units.
    burst: [u64; 2],
    /// Share of the table's provisioned capacity allocated to this partition (the legacy
    /// allocation that sizes burst credit): `1/n` at creation, halved by a split.
    share: f64,
    /// Bytes of data stored.
    bytes: u64,
    /// Largest burst credit, milli-units (300 s of the allocation; kept up to date by the
    /// resource when capacity or shares change).
    burst_cap: [u64; 2],
    /// In the resource's list of partitions whose burst credit is filling.
    filling: bool,
}

impl Partition {
    fn with_share(share: f64, bytes: u64) -> Self {
        Self { share, bytes, ..Self::default() }
    }

    /// The two children of a split, the first taking `frac` of the data.
    fn halves(&self, frac: f64) -> (Partition, Partition) {
        let (u1, u2) = pair(self.used);
        let (b1, b2) = pair(self.burst);
        let (t1, t2) = pair(self.minute_throttles.map(u64::from));
        let (t1, t2) = (t1.map(|t| t as u32), t2.map(|t| t as u32));
        let bytes1 = (self.bytes as f64 * frac.clamp(0.0, 1.0)) as u64;
        (
            Partition {
                used: u1,
                burst: b1,
                minute_throttles: t1,
                share: self.share / 2.0,
                bytes: bytes1,
                burst_cap: [0; 2],
                filling: false,
            },
            Partition {
                used: u2,
                burst: b2,
                minute_throttles: t2,
                share: self.share / 2.0,
                bytes: self.bytes - bytes1,
                burst_cap: [0; 2],
                filling: false,
            },
        )
    }
}

/// A table or GSI.
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    /// Table or index name.
    name: String,
    /// A GSI rather than the base table.
    is_index: bool,
    /// Capacity mode.
    mode: Mode,
    /// Start of each partition's hash range (sorted, first 0); change with [`Self::set_ranges`].
    bounds: Vec<u64>,
    /// Partitions, in hash order.
    parts: Vec<Partition>,
    /// Their buckets, by dimension (the linear model: the read bucket, and the write
    /// array's minute counts), each in the same order.
    buckets: [Vec<Bucket>; 2],
    /// Table-level milli-units used this second (from the budget, not burst).
    used: [u64; 2],
    /// Debt of the table-level buckets at `at_us`, milli-unit-µs.
    debt: [u128; 2],
    /// When `debt` was last brought up to date, µs.
    at_us: u64,
    /// Refill the table-level buckets could not hold this second (they were full),
    /// milli-unit-µs: a provisioned table's unused capacity, banked as burst credit.
    overflow: [u128; 2],
    /// The time admission is at, µs (never before the current second's start).
    now_us: u64,
    /// Start of the current second, µs.
    second_us: u64,
    /// Table-level milli-units consumed this second (budget and burst).
    second_consumed: [u64; 2],
    /// Table-level budget, milli-units per second.
    limit: [u64; 2],
    /// The reason reported when the table-level budget throttles.
    limit_reason: [Reason; 2],
    /// Linear coupling of a partition's read and write caps.
    linear: bool,
    /// Replicas an eventually consistent read may be served by, as a multiple of the
    /// partition's read cap, in thousandths (`ec_read_fanout`).
    ec_fanout_milli: u64,
    /// The hash ranges are `n` equal ranges (partition lookup is a multiplication).
    equal_ranges: bool,
    /// Bytes writes added this minute (what TTL later expires a share of).
    added_minute: u64,
    /// Bytes stored, all partitions' (kept as they change: a minute's close reads it, and
    /// summing 100,000 partitions' second lines was most of that close).
    bytes_total: u64,
    /// Some partition may hold more than [`PARTITION_BYTES`] (set where a partition's bytes
    /// are set past it, cleared once [`Self::split_for_size`] has split every such one): else
    /// that search visits no partition.
    oversized: bool,
    /// Partitions that consumed this second (each one with a use, perhaps some without):
    /// the second's close visits these, not every partition.
    touched: Vec<u32>,
    /// Partitions whose burst credit is below its cap in a dimension (each such one, perhaps
    /// some full): the only ones banking unused capacity.
    filling: Vec<u32>,
    /// Per partition bucket: the most debt a take left a partition with this second,
    /// milli-unit-µs.
    debt_hi: [u64; 2],
    /// Per partition bucket: no partition's debt exceeds this during the current second
    /// (`u64::MAX`: unknown). A bucket holds at most a second of its cap, and refills it in
    /// a second, so a debt left before the previous second is paid, and the previous
    /// second's `debt_hi` bounds the rest ([`Self::end_second`]).
    debt_bound: [u64; 2],
    /// Each partition's use of the second is read before the second closes (a global table
    /// replicates it): [`Self::take_run_sure`] keeps it apart from the minute's.
    second_use: bool,
}

/// Partitions from which their state (112 bytes each with its buckets: 4,096 are 448 KB)
/// outgrows the nearest caches: a pass over them fetches each one ahead, and exact mode's
/// one-pattern seconds are checked and taken partition by partition (below, from counts taken
/// as they are drawn).
pub(crate) const MANY_PARTITIONS: usize = 4096;

/// Bits of the blocks of adjacent partitions exact mode counts a second's requests by on many
/// partitions: a partition's block is its top 11 bits, `part >> block_shift(n)`.
pub(crate) const BLOCK_BITS: u32 = 11;

/// The shift of [`BLOCK_BITS`]' blocks among `n` partitions (0: a block a partition).
#[must_use]
pub(crate) fn block_shift(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).saturating_sub(BLOCK_BITS)
}

impl Resource {
    /// A resource created with `capacity` and `storage_bytes` of data.
    ///
    /// Initial partitions (spec §2): provisioned `ceil(RCU/3000 + WCU/1000)`, on-demand the warm
    /// throughput's `max(ceil(R/3000), ceil(W/1000))` (a new table: 4), and for storage enough
    /// partitions to hold it at 7.5 GB each ([`SEED_PARTITION_BYTES`]); the largest of these.
    #[must_use]
    pub(crate) fn new(name: String, is_index: bool, capacity: &CapacitySpec, storage_bytes: u64, burst_full: bool, linear: bool) -> Self {
        let mode = Mode::of(capacity);
        let n = initial_partitions(&mode, storage_bytes);
        let mut r = Self {
            name,
            is_index,
            mode,
            bounds: equal_bounds(n),
            parts: Vec::new(),
            buckets: [Vec::new(), Vec::new()],
            used: [0; 2],
            debt: [0; 2],
            at_us: 0,
            overflow: [0; 2],
            now_us: 0,
            second_us: 0,
            second_consumed: [0; 2],
            limit: [0; 2],
            limit_reason: [Reason::Provisioned; 2],
            linear,
            ec_fanout_milli: MILLI,
            equal_ranges: true,
            added_minute: 0,
            bytes_total: storage_bytes,
            oversized: true,
            touched: Vec::new(),
            filling: Vec::new(),
            debt_hi: [0; 2],
            debt_bound: [0; 2],
            second_use: false,
        };
        r.set_limits();
        // The partitions in one pass, each complete (100,000 partitions are 11.2 MB, and
        // their set-up counts in a short run): an equal share each, so one burst cap, and
        // their credit full or empty (empty credit fills).
        let share = 1.0 / n as f64;
        let burst_cap = r.burst_cap()(share);
        let burst = if burst_full { burst_cap } else { [0; 2] };
        let filling = burst != burst_cap;
        r.parts = (0..n)
            .map(|i| Partition {
                burst_cap,
                burst,
                filling,
                ..Partition::with_share(share, storage_bytes / n + u64::from(i < storage_bytes % n))
            })
            .collect();
        r.buckets = [vec![Bucket::default(); n as usize], vec![Bucket::default(); n as usize]];
        if filling {
            r.filling = (0..n as u32).collect();
        }
        r
    }

    /// The burst cap of a partition by its share of the capacity it banks, milli-units (300 s
    /// of its allocation).
    fn burst_cap(&self) -> impl Fn(f64) -> [u64; 2] {
        let basis = Dim::ALL.map(|d| self.burst_basis(d) as f64 * MILLI as f64);
        move |share| basis.map(|x| BURST_SECONDS * (x * share).round() as u64)
    }

    /// The units a second whose unused part is banked as burst credit: a provisioned
    /// resource's capacity (spec §3); an on-demand one's maximum throughput where that maximum
    /// is what limits it, since AWS applies the maximum on a best-effort basis and burst
    /// capacity may serve requests above it for a while (spec §16; the note is in the
    /// Japanese and Chinese pages on maximum throughput); otherwise none.
    pub(crate) fn burst_basis(&self, d: Dim) -> u64 {
        let i = d as usize;
        match self.mode {
            Mode::Provisioned { units } => units[i],
            Mode::OnDemand { warm, max, quota } => max[i].filter(|&m| m <= warm[i].min(quota[i])).unwrap_or(0),
        }
    }

    /// Does dimension `i` bank and spend burst credit?
    #[inline]
    fn bursts(&self, i: usize) -> bool {
        match self.mode {
            Mode::Provisioned { .. } => true,
            Mode::OnDemand { .. } => self.burst_basis(Dim::ALL[i]) > 0,
        }
    }

    #[allow(clippy::needless_range_loop)] // i indexes several per-dimension arrays
    fn refresh_caps(&mut self) {
        let cap_of = self.burst_cap();
        for p in &mut self.parts {
            let cap = cap_of(p.share);
            for i in 0..2 {
                p.burst_cap[i] = cap[i];
                p.burst[i] = p.burst[i].min(cap[i]);
            }
        }
        self.refresh_lists();
    }

    /// Do the lists of partitions that consumed and that are filling hold every such
    /// partition, and the filling list each one once?
    #[cfg(test)]
    fn lists_hold(&self) -> bool {
        let mut seen = vec![false; self.parts.len()];
        for &i in &self.filling {
            if std::mem::replace(&mut seen[i as usize], true) || !self.parts[i as usize].filling {
                return false;
            }
        }
        self.parts
            .iter()
            .enumerate()
            .all(|(i, p)| (p.burst == p.burst_cap || seen[i]) && (p.used == [0; 2] || self.touched.contains(&(i as u32))))
    }

    /// Rebuilds the lists of partitions that consumed this second and of those whose burst
    /// credit is filling, after the partitions or their caps changed.
    fn refresh_lists(&mut self) {
        self.touched.clear();
        self.filling.clear();
        for (i, p) in self.parts.iter_mut().enumerate() {
            if p.used != [0; 2] {
                self.touched.push(i as u32);
            }
            p.filling = p.burst != p.burst_cap;
            if p.filling {
                self.filling.push(i as u32);
            }
        }
    }

    /// Table or index name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// A GSI rather than the base table.
    pub(crate) fn is_index(&self) -> bool {
        self.is_index
    }

    /// The capacity mode and its settings.
    pub(crate) fn mode(&self) -> Mode {
        self.mode
    }

    /// Puts the resource in `mode` and recomputes its limits and burst caps.
    pub(crate) fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.refresh_limits();
    }

    /// Milli-units consumed in the current second.
    pub(crate) fn second_consumed(&self, d: Dim) -> u64 {
        self.second_consumed[d as usize]
    }

    /// Milli-units of `d` partition `p` consumed this second so far (kept only after
    /// [`Self::keep_second_use`]).
    #[inline]
    pub(crate) fn part_second_used(&self, p: usize, d: Dim) -> u64 {
        debug_assert!(self.second_use, "a partition's use of the second, not kept");
        self.parts[p].used[d as usize]
    }

    /// Keeps each partition's use of the second apart until the second closes, for
    /// [`Self::part_second_used`].
    pub(crate) fn keep_second_use(&mut self) {
        self.second_use = true;
    }

    /// Bytes stored on partition `p`.
    #[inline]
    pub(crate) fn part_bytes(&self, p: usize) -> u64 {
        self.parts[p].bytes
    }

    /// Sets partition `p`'s bytes (a replica mirroring the table: not a write).
    pub(crate) fn set_part_bytes(&mut self, p: usize, bytes: u64) {
        self.set_bytes(p, bytes);
    }

    /// Partition `p` holds `bytes` now: the total and the size flag follow.
    #[inline]
    fn set_bytes(&mut self, p: usize, bytes: u64) {
        let b = &mut self.parts[p].bytes;
        self.bytes_total = self.bytes_total - *b + bytes;
        *b = bytes;
        self.oversized |= bytes > PARTITION_BYTES;
    }

    /// Bytes stored.
    pub(crate) fn bytes(&self) -> u64 {
        debug_assert_eq!(self.bytes_total, self.parts.iter().map(|p| p.bytes).sum::<u64>());
        self.bytes_total
    }

    /// Adds (or removes, when negative) `delta` bytes on partition `p`.
    #[inline]
    pub(crate) fn add_bytes(&mut self, p: usize, delta: i64) {
        self.set_bytes(p, self.parts[p].bytes.saturating_add_signed(delta));
        self.added_minute += delta.max(0).unsigned_abs();
    }

    /// The bytes writes added since the last call.
    pub(crate) fn take_added(&mut self) -> u64 {
        std::mem::take(&mut self.added_minute)
    }

    /// Removes `bytes` (at most what is stored) from the partitions in proportion to what each
    /// stores (TTL's background deletes: expired items leave where they are, and they were
    /// written where the bytes are, a model choice); returns the bytes removed.
    pub(crate) fn expire_bytes(&mut self, bytes: u64) -> u64 {
        let total = self.bytes();
        let bytes = bytes.min(total);
        if bytes == 0 {
            return 0;
        }
        let mut left = bytes;
        let n = self.parts.len();
        for (i, p) in self.parts.iter_mut().enumerate() {
            let take = if i + 1 == n { left.min(p.bytes) } else { ((u128::from(bytes) * u128::from(p.bytes)) / u128::from(total)) as u64 };
            let take = take.min(p.bytes).min(left);
            p.bytes -= take;
            left -= take;
        }
        self.bytes_total -= bytes - left;
        bytes - left
    }

    /// Write milli-units partition `p`'s bucket holds now.
    pub(crate) fn write_room(&self, p: usize) -> u64 {
        if self.linear {
            (PARTITION_CAP_MILLI[0] - self.part_debt(0, p).div_ceil(US).min(PARTITION_CAP_MILLI[0])) / 3
        } else {
            PARTITION_CAP_MILLI[1] - self.part_debt(1, p).div_ceil(US).min(PARTITION_CAP_MILLI[1])
        }
    }
}

/// Does a partition's bucket `b`, with `debt` milli-unit-µs owed, hold `cost` milli-units
/// more (its cap is a second of [`PARTITION_CAP_MILLI`])?
#[inline]
fn bucket_holds(b: usize, debt: u64, cost: u64) -> bool {
    u128::from(debt) + u128::from(cost) * u128::from(US) <= u128::from(PARTITION_CAP_MILLI[b]) * u128::from(US)
}

/// Initial partition count (spec §2, P1–P3).
#[must_use]
pub(crate) fn initial_partitions(mode: &Mode, storage_bytes: u64) -> u64 {
    let by_throughput = match *mode {
        Mode::Provisioned { units } => {
            // ceil(R/3000 + W/1000) = ceil((R + 3W) / 3000), in integers.
            (units[0] + 3 * units[1]).div_ceil(PARTITION_READ_CAP)
        }
        Mode::OnDemand { warm, .. } => warm[0].div_ceil(PARTITION_READ_CAP).max(warm[1].div_ceil(PARTITION_WRITE_CAP)),
    };
    by_throughput.max(storage_bytes.div_ceil(SEED_PARTITION_BYTES)).max(1)
}

/// Hash-range starts of `n` equal partitions: `floor(i × 2⁶⁴ / n)`, stepped rather than
/// divided (`2⁶⁴ = q·n + r`: each step adds `q`, and `r` carries), as 100,000 partitions'
/// set-up counts.
#[must_use]
pub(crate) fn equal_bounds(n: u64) -> Vec<u64> {
    let n128 = u128::from(n.max(1));
    let (q, r) = ((1u128 << 64) / n128, (1u128 << 64) % n128);
    let (mut start, mut carry) = (0u128, 0u128);
    (0..n)
        .map(|_| {
            let at = start as u64;
            start += q;
            carry += r;
            if carry >= n128 {
                carry -= n128;
                start += 1;
            }
            at
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bounds_are_the_quotients() {
        for n in [1u64, 2, 3, 7, 1000, 1001, 65_537, 100_003] {
            let direct: Vec<u64> = (0..n).map(|i| ((u128::from(i) << 64) / u128::from(n)) as u64).collect();
            assert_eq!(equal_bounds(n), direct, "{n} partitions");
        }
        assert!(equal_bounds(0).is_empty());
    }

    fn prov(read: u64, write: u64) -> CapacitySpec {
        CapacitySpec::Provisioned { read, write }
    }

    /// A partition's minute at the most it can serve — eventually consistent reads at the
    /// highest fan-out, 3 × 3,000 RCU a second, its bucket full at the start — is counted
    /// exactly in the bucket's 32-bit count: 9,000 units the first second (the full bucket)
    /// plus 9,000 a second refilled, 61 × 9,000 = 549,000 RCU if every refill is taken, in
    /// milli-units 5.49·10⁸ (the 32-bit count holds 4.29·10⁹; 16 bits would fail it).
    #[test]
    fn a_minute_at_the_partition_cap_is_counted_exactly() {
        // 2,000 RCU provisioned: one partition; the table's own 2,000 a second and its full
        // 600,000 units of burst credit cover the 549,000.
        let mut r = Resource::new("t".into(), false, &prov(2_000, 1), 0, true, false);
        assert_eq!(r.partition_count(), 1);
        r.set_ec_fanout_milli(3_000);
        let mut taken = 0u64;
        for s in 0..60u64 {
            // 1,000 reads of 10 RCU spread over the second: the bucket's full second of 9,000
            // EC units first, then its refill of 9 units a millisecond.
            for k in 0..1_000u64 {
                r.set_time(s * US + k * 1_000);
                while r.try_take_as(0, Dim::Read, 10 * MILLI, true).is_ok() {
                    taken += 10 * MILLI;
                }
            }
            r.end_second();
        }
        let mut counted = [0u64; 2];
        r.close_minute(|_, consumed, _| counted = consumed);
        assert_eq!(counted[0], taken);
        // 9,000 EC RCU a second for 60 s plus the full bucket at the start: 549,000, and a
        // little more since a read of 10 RCU costs its bucket 3.333 (rounded down) of 3,000;
        // less what the last millisecond of each second refills and no take reaches.
        assert!((535_000 * MILLI..=550_000 * MILLI).contains(&taken), "{taken}");
    }

    #[test]
    fn p1_p2_p3_initial_partitions() {
        // P1: 1,000 RCU + 500 WCU -> 1 partition.
        assert_eq!(Resource::new("t".into(), false, &prov(1_000, 500), 0, true, false).partition_count(), 1);
        // P2: 1,000 / 1,000 -> 2 partitions of 500 RCU + 500 WCU.
        let p2 = Resource::new("t".into(), false, &prov(1_000, 1_000), 0, true, false);
        assert_eq!(p2.partition_count(), 2);
        assert_eq!(p2.allocation_milli(0, Dim::Read), 500_000);
        assert_eq!(p2.allocation_milli(0, Dim::Write), 500_000);
        // P3: 5,000 / 2,000 -> 4 partitions of 1,250 RCU + 500 WCU.
        let p3 = Resource::new("t".into(), false, &prov(5_000, 2_000), 0, true, false);
        assert_eq!(p3.partition_count(), 4);
        assert_eq!(p3.allocation_milli(0, Dim::Read), 1_250_000);
        assert_eq!(p3.allocation_milli(0, Dim::Write), 500_000);
    }

    /// [`Resource::take_run_sure`] leaves every field as taking the run one by one does,
    /// through two seconds and their closes (each starting with 5 WCU taken of 10): 6,000 RCU
    /// (three partitions: 6,000 / 3,000 + 10 / 1,000 = 2.01) taking 300 reads of 4 RCU a
    /// second (the table's bucket holds the run), and 1,000 RCU (one partition, full burst
    /// credit) taking 1,500 RCU a second (the table's bucket holds 1,000 of it, burst credit
    /// the rest: the run taken one by one). The second second's partition pass runs sorted by
    /// partition (the partitions are first touched in the same order either way here, so
    /// even the list of touched partitions is the same). Where each partition's use of the
    /// second is kept apart ([`Resource::keep_second_use`]) the state is the same at every
    /// point; else the run's use goes to the minute at once, and the state is the same once
    /// the second closes.
    #[test]
    fn a_run_is_its_takes_one_by_one() {
        for (read, takes, keep) in [(6_000, 300u64, true), (1_000, 375, true), (6_000, 300, false), (1_000, 375, false)] {
            let mut run = Resource::new("t".into(), false, &prov(read, 10), 0, true, false);
            if keep {
                run.keep_second_use();
            }
            let mut one = run.clone();
            let parts = run.partition_count() as u64;
            assert_eq!(parts, if read == 6_000 { 3 } else { 1 });
            for second in 0..2u64 {
                let at = |k: &u64| (second * US + k * (US / takes) + k * 37 % 100, (k * 7 % parts) as usize);
                let ks: Vec<u64> = (0..takes).collect();
                // Write debt at the second's start: the table's write bucket refills through
                // the run.
                for r in [&mut run, &mut one] {
                    r.set_time(second * US);
                    r.take_sure(0, Dim::Write, 5_000, false);
                }
                // The partitions' pass in time order, and by partition.
                let mut sorted = ks.clone();
                sorted.sort_by_key(|k| at(k).1);
                run.take_run_sure(&ks, if second == 0 { &ks } else { &sorted }, at, Dim::Read, 4_000, false);
                for k in &ks {
                    let (t, p) = at(k);
                    one.set_time(t);
                    one.take_sure(p, Dim::Read, 4_000, false);
                }
                if keep {
                    assert_eq!(format!("{run:?}"), format!("{one:?}"), "{read} RCU, second {second}");
                }
                run.end_second();
                one.end_second();
                assert_eq!(format!("{run:?}"), format!("{one:?}"), "{read} RCU, second {second} closed, kept: {keep}");
            }
            let spent = one.parts.iter().map(|p| p.burst[0]).sum::<u64>() < one.parts.iter().map(|p| p.burst_cap[0]).sum::<u64>();
            assert_eq!(spent, read == 1_000, "{read} RCU: burst credit spent only beyond the table's bucket");
        }
    }

    #[test]
    fn p7_bulk_load_capacity_leaves_diluted_partitions() {
        // 11,000 WCU for a bulk load -> ceil(11000 / 1000) = 11 partitions; back at 200 WCU the
        // partitions stay, 200 / 11 = 18.2 WCU each ("about 20").
        assert_eq!(initial_partitions(&Mode::Provisioned { units: [0, 11_000] }, 0), 11);
        let mut r = Resource::new("t".into(), false, &prov(1, 11_000), 0, true, false);
        r.mode = Mode::Provisioned { units: [1, 200] };
        r.refresh_limits();
        // With the minimum 1 RCU the formula gives ceil(33,001 / 3,000) = 12 partitions.
        assert_eq!(r.partition_count(), 12);
        assert_eq!(r.allocation_milli(0, Dim::Write), 16_667);
    }

    #[test]
    fn storage_decides_when_larger() {
        // 95 GB (10^9 bytes) at 7.5 GB of 2^30 bytes (8,053,063,680 bytes) each: 11.8, so 12
        // partitions, more than 100 RCU/WCU would need.
        assert_eq!(Resource::new("t".into(), false, &prov(100, 100), 95_000_000_000, true, false).partition_count(), 12);
    }

    #[test]
    fn new_on_demand_table_has_four_partitions() {
        let od = CapacitySpec::OnDemand { warm_read: 12_000, warm_write: 4_000, max_read: None, max_write: None, table_quota: [40_000; 2] };
        assert_eq!(Resource::new("t".into(), false, &od, 0, true, false).partition_count(), 4);
    }

    #[test]
    fn partition_cap_binds_before_table_budget() {
        // B2: 10,000 RCU over 4 partitions with full burst; one partition asked for 4,000 RCU in
        // a second serves 3,000 and throttles the rest as KeyRange.
        let mut r = Resource::new("t".into(), false, &prov(10_000, 10), 0, true, false);
        let mut served = 0;
        let mut reasons = Vec::new();
        for _ in 0..4_000 {
            match r.try_take(0, Dim::Read, MILLI) {
                Ok(_) => served += 1,
                Err(e) => reasons.push(e),
            }
        }
        assert_eq!(served, 3_000);
        assert_eq!(reasons.len(), 1_000);
        assert!(reasons.iter().all(|&e| e == Reason::KeyRange));
    }

    #[test]
    fn b1_burst_absorbs_200_rcu_for_900_seconds() {
        // 150 RCU, one partition, idle for 300 s, then 200 RCU every second.
        let mut r = Resource::new("t".into(), false, &prov(150, 1), 0, false, false);
        for _ in 0..300 {
            r.end_second();
        }
        assert_eq!(r.parts[0].burst[0], 45_000 * MILLI);
        let mut first_throttle = None;
        for s in 0..1_200u64 {
            let mut ok = 0;
            for _ in 0..200 {
                if r.try_take(0, Dim::Read, MILLI).is_ok() {
                    ok += 1;
                }
            }
            if ok < 200 && first_throttle.is_none() {
                first_throttle = Some(s);
            }
            if s >= 900 {
                assert_eq!(ok, 150, "after the credit is spent, 150 RCU/s are served (second {s})");
            }
            r.end_second();
        }
        assert_eq!(first_throttle, Some(900));
    }

    #[test]
    fn a1_global_admission_lets_a_hot_partition_use_idle_capacity() {
        // 400 WCU over 4 partitions (100 each); loads 50/50/50/150 WCU/s: no throttling, even
        // with no burst credit at all.
        let mut r = Resource::new("t".into(), false, &prov(1, 400), 0, false, false);
        assert_eq!(r.partition_count(), 1);
        r.set_ranges(equal_bounds(4), vec![Partition::with_share(0.25, 0); 4], [vec![Bucket::default(); 4], vec![Bucket::default(); 4]]);
        for _ in 0..600 {
            for (p, n) in [(0, 50), (1, 50), (2, 50), (3, 150)] {
                for _ in 0..n {
                    assert!(r.try_take(p, Dim::Write, MILLI).is_ok());
                }
            }
            r.end_second();
        }
    }

    #[test]
    fn partition_lookup_agrees_with_the_ranges() {
        let mut r = Resource::new("t".into(), false, &prov(1, 7_000), 0, true, false);
        assert_eq!(r.partition_count(), 8);
        let hs = [0u64, 1, u64::MAX / 8 - 1, u64::MAX / 8, u64::MAX / 8 + 1, u64::MAX / 2, u64::MAX - 1, u64::MAX];
        let fast: Vec<usize> = hs.iter().map(|&h| r.partition_of(h)).collect();
        let bounds = r.bounds().to_vec();
        let (parts, buckets) = (r.parts.clone(), r.buckets.clone());
        r.set_ranges(bounds.clone(), parts, buckets);
        r.equal_ranges = false;
        let slow: Vec<usize> = hs.iter().map(|&h| r.partition_of(h)).collect();
        assert_eq!(fast, slow);
        // Bounds are i * 2^61: u64::MAX / 8 = 2^61 - 1 is still in partition 0, u64::MAX / 2 =
        // 2^63 - 1 in partition 3.
        assert_eq!(fast, vec![0, 0, 0, 0, 1, 3, 7, 7]);
    }

    #[test]
    fn p6_a_split_for_size_halves_one_allocation() {
        // P3 (4 x 1,250 RCU + 500 WCU), then one partition splits: 3 x (1,250/500) + 2 x (625/250).
        let mut r = Resource::new("t".into(), false, &prov(5_000, 2_000), 0, true, false);
        let (lo, hi) = r.range(2);
        r.split(2, ((u128::from(lo) + hi) / 2) as u64, 0.5);
        let allocs: Vec<(u64, u64)> =
            (0..5).map(|i| (r.allocation_milli(i, Dim::Read) / MILLI, r.allocation_milli(i, Dim::Write) / MILLI)).collect();
        assert_eq!(allocs, vec![(1_250, 500), (1_250, 500), (625, 250), (625, 250), (1_250, 500)]);
    }

    #[test]
    fn doubling_keeps_equal_ranges() {
        let mut r = Resource::new("t".into(), false, &prov(5_000, 2_000), 0, true, false);
        r.grow_to(8);
        assert_eq!(r.bounds(), equal_bounds(8).as_slice());
        assert!(r.equal_ranges);
    }

    #[test]
    fn untake_restores_state() {
        let mut r = Resource::new("t".into(), false, &prov(1, 1), 0, true, false);
        let b = r.try_take(0, Dim::Write, 2 * MILLI).unwrap();
        assert_eq!(b, MILLI);
        r.untake(0, Dim::Write, 2 * MILLI, b);
        assert_eq!(r.parts[0].burst[1], 300 * MILLI);
        assert_eq!(r.parts[0].used[1], 0);
    }

    #[test]
    fn linear_model_couples_reads_and_writes() {
        let mut r = Resource::new("t".into(), false, &prov(40_000, 40_000), 0, true, true);
        r.set_ranges(equal_bounds(1), vec![Partition::with_share(1.0, 0); 1], [vec![Bucket::default(); 1], vec![Bucket::default(); 1]]);
        for _ in 0..500 {
            r.try_take(0, Dim::Write, MILLI).unwrap();
        }
        // Half the write cap used: 1,500 read units remain.
        let mut reads = 0;
        while r.try_take(0, Dim::Read, MILLI).is_ok() {
            reads += 1;
        }
        assert_eq!(reads, 1_500);
    }

    /// An on-demand table with `max_read = 100` and no burst credit: partition 0 takes the
    /// table's 100 reads at 0 s, partition 1 none (MaxOnDemand), then 100 a second. With its
    /// credit full (spec §16: the maximum is best-effort, burst capacity serves above it) it
    /// banks 300 s of the maximum, 30,000 units over its 4 partitions, 7,500 on partition 1,
    /// which then serves at most its 3,000 RCU a second: 3,000 at 0 s (all credit), 100 + 2,900
    /// at 1 s, 100 + the last 1,600 at 2 s, then 100 a second. The write dimension, without a
    /// maximum, banks nothing.
    #[test]
    fn on_demand_reasons() {
        let od =
            CapacitySpec::OnDemand { warm_read: 12_000, warm_write: 4_000, max_read: Some(100), max_write: None, table_quota: [40_000; 2] };
        for (full, want) in [(false, [0, 100, 100, 100, 100]), (true, [3_000, 3_000, 1_700, 100, 100])] {
            let mut r = Resource::new("t".into(), false, &od, 0, full, false);
            for _ in 0..100 {
                r.try_take(0, Dim::Read, MILLI).unwrap();
            }
            let mut got = Vec::new();
            for s in 0..5u64 {
                if s > 0 {
                    r.end_second();
                    r.set_time(s * 1_000_000);
                }
                let mut n = 0;
                let why = loop {
                    match r.try_take(1, Dim::Read, MILLI) {
                        Ok(_) => n += 1,
                        Err(why) => break why,
                    }
                };
                assert_eq!(why, if n == 3_000 { Reason::KeyRange } else { Reason::MaxOnDemand }, "second {s}");
                got.push(n);
            }
            assert_eq!(got, want, "credit full: {full}");
            assert_eq!(r.burst_basis(Dim::Read), 100);
            assert_eq!(r.burst_basis(Dim::Write), 0);
        }
    }

    /// A bucket's time is kept in 32 bits of µs, which wrap every 4,294.967296 s. A partition
    /// emptied at 0.5 s (3,000 RCU taken) and idle since is read at 0.5 s + 2³² µs + 0.1 s:
    /// its bucket has refilled long ago and owes nothing, where the 32 bits alone would place
    /// the take 0.1 s before and leave 2,700 RCU owed.
    #[test]
    fn a_bucket_idle_for_longer_than_its_32_bit_time_reaches_is_full() {
        let mut r = Resource::new("t".into(), false, &prov(3_000, 1), 0, true, false);
        r.set_time(US / 2);
        r.take_sure(0, Dim::Read, 3_000_000, false);
        assert_eq!(r.part_debt(0, 0), 3_000_000 * US);
        let t = US / 2 + (1 << 32) + US / 10;
        for _ in 0..t / US {
            r.end_second();
        }
        r.set_time(t);
        assert_eq!((r.now_us as u32).wrapping_sub(US as u32 / 2), 100_000, "the 32 bits alone: 0.1 s since the take");
        assert_eq!(r.part_debt(0, 0), 0);
        assert!(r.check_as(0, Dim::Read, 3_000_000, false).is_ok());
    }

    /// A split halves each bucket's debt as of the partition's last take in either dimension.
    /// 3,000 RCU read at 0.2 s (3·10¹² milli-unit-µs owed), 500 WCU written at 0.6 s (5·10¹¹);
    /// by 0.6 s the read bucket has refilled 0.4 s × 3,000 RCU and owes 1.8·10¹². Split at
    /// 0.7 s: each child owes 9·10¹¹ of reads and 2.5·10¹¹ of writes as of 0.6 s, so at 0.7 s
    /// 9·10¹¹ − 0.1 s × 3,000 RCU = 6·10¹¹ and 2.5·10¹¹ − 0.1 s × 1,000 WCU = 1.5·10¹¹.
    /// (Halved as of the read's own time, 0.2 s, each child would owe no reads by 0.7 s;
    /// halved at 0.7 s, 7.5·10¹¹.)
    #[test]
    fn a_split_halves_both_debts_as_of_the_last_take() {
        let mut r = Resource::new("t".into(), false, &prov(3_000, 1_000), 0, true, false);
        assert_eq!(r.partition_count(), 2);
        r.set_time(US / 5);
        r.take_sure(0, Dim::Read, 3_000_000, false);
        r.set_time(3 * US / 5);
        r.take_sure(0, Dim::Write, 500_000, false);
        r.set_time(7 * US / 10);
        r.split(0, 1 << 62, 0.5);
        assert_eq!(r.partition_count(), 3);
        for child in 0..2 {
            assert_eq!(r.part_debt(0, child), 600_000 * US, "child {child}'s reads");
            assert_eq!(r.part_debt(1, child), 150_000 * US, "child {child}'s writes");
        }
        assert_eq!(r.part_debt(0, 2), 0);
    }

    /// [`Resource::every_partition_fits`] from the previous second's fullest bucket: a 6,000
    /// RCU, 10 WCU table (three partitions, full burst credit) takes 2,000 RCU on partition 0
    /// at 0.5 s. In second 1 every partition surely holds 1,000 RCU more (2,000 + 1,000 = the
    /// 3,000 cap), not 1,000.001 (partition 0 itself has refilled 1,500 of its 2,000 by then: the
    /// bound is an upper one). A take in second 1 of 2,500 RCU at 1.9 s counts at once: then no
    /// 501 RCU more fit anywhere (2,500 + 501 > 3,000), 500 do. After a quiet second 2, the
    /// 2,500 are paid by second 3, and any partition holds its whole cap. In the linear model a
    /// write unit is three read units of the one bucket.
    #[test]
    fn every_partition_fits_by_the_last_seconds_fullest_bucket() {
        let mut r = Resource::new("t".into(), false, &prov(6_000, 10), 0, true, false);
        assert_eq!(r.partition_count(), 3);
        r.set_time(US / 2);
        r.take_sure(0, Dim::Read, 2_000_000, false);
        r.end_second();
        assert!(r.every_partition_fits(Dim::Read, 1_000_000));
        assert!(!r.every_partition_fits(Dim::Read, 1_000_001));
        assert_eq!(r.part_debt(0, 0), 500_000 * US);
        r.set_time(US + 9 * US / 10);
        r.take_sure(1, Dim::Read, 2_500_000, false);
        assert!(r.every_partition_fits(Dim::Read, 500_000));
        assert!(!r.every_partition_fits(Dim::Read, 501_000));
        r.end_second();
        assert!(!r.every_partition_fits(Dim::Read, 501_000), "second 2: the 2,500 RCU taken at 1.9 s are not yet paid");
        r.end_second();
        assert!(r.every_partition_fits(Dim::Read, 3_000_000));
        assert!(!r.every_partition_fits(Dim::Read, 3_000_001));
        // Linear: 300 WCU written leave 900 read units of debt; 2,100 read units more fit, or 700
        // write units.
        let mut r = Resource::new("t".into(), false, &prov(6_000, 10), 0, true, true);
        r.take_sure(0, Dim::Write, 300_000, false);
        r.end_second();
        assert!(r.every_partition_fits(Dim::Read, 2_100_000) && !r.every_partition_fits(Dim::Read, 2_100_001));
        assert!(r.every_partition_fits(Dim::Write, 700_000) && !r.every_partition_fits(Dim::Write, 700_001));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, failure_persistence: None, ..proptest::prelude::ProptestConfig::default() })]

    /// Admission of a provisioned resource: no partition above its cap in any second, burst
    /// credit within 300 s of allocation, and consumption within provisioned x seconds plus
    /// the credit it could have banked.
    #[test]
    fn admission_invariants(read in 1u64..20_000, write in 1u64..8_000, asks in proptest::collection::vec((0usize..64, proptest::prelude::any::<bool>(), 1u64..5_000, 0u8..3), 1..400)) {
        let mut r = Resource::new("t".into(), false, &prov(read, write), 0, true, false);
        let n = r.partition_count();
        let mut consumed = [0u64; 2];
        let mut seconds = 1u64;
        for (p, is_write, units, tick) in asks {
            let d = if is_write { Dim::Write } else { Dim::Read };
            if let Ok(from_burst) = r.try_take(p % n, d, units) {
                consumed[d as usize] += units;
                if tick == 1 && units % 7 == 0 {
                    // Given back (a transaction's undo): its burst credit returns.
                    r.untake(p % n, d, units, from_burst);
                    consumed[d as usize] -= units;
                }
            }
            proptest::prop_assert!(r.lists_hold(), "the close's lists miss a partition");
            for part in &r.parts {
                proptest::prop_assert!(part.used[0] <= PARTITION_CAP_MILLI[0] && part.used[1] <= PARTITION_CAP_MILLI[1]);
            }
            if tick == 0 {
                r.end_second();
                seconds += 1;
                for (i, part) in r.parts.iter().enumerate() {
                    for d in Dim::ALL {
                        proptest::prop_assert!(part.burst[d as usize] <= BURST_SECONDS * r.allocation_milli(i, d) + 1);
                    }
                }
            }
        }
        for d in Dim::ALL {
            let prov = r.provisioned(d) * 1_000;
            proptest::prop_assert!(consumed[d as usize] <= prov * (seconds + BURST_SECONDS) + n as u64);
        }
    }

    /// No partition's debt is ever above what [`Resource::every_partition_fits`] assumes: takes
    /// (reads and writes, some given back) at times moving through the seconds, some seconds
    /// quiet, both partition models.
    #[test]
    fn the_debt_bound_holds(read in 1u64..20_000, write in 1u64..8_000, linear in proptest::prelude::any::<bool>(), asks in proptest::collection::vec((0usize..64, proptest::prelude::any::<bool>(), 1u64..3_000_000, 0u64..400_000, 0u8..8), 1..300)) {
        let mut r = Resource::new("t".into(), false, &prov(read, write), 0, true, linear);
        let n = r.partition_count();
        let mut now = 0;
        for (p, is_write, units, advance, tick) in asks {
            let d = if is_write { Dim::Write } else { Dim::Read };
            now = (now + advance).min(r.second_us + US);
            r.set_time(now);
            if let Ok(from_burst) = r.try_take(p % n, d, units) {
                if tick == 1 {
                    r.untake(p % n, d, units, from_burst);
                }
            }
            if tick >= 6 {
                for _ in 0..tick - 5 {
                    r.end_second();
                }
                now = r.second_us;
            }
            for b in 0..2 {
                let bound = r.debt_bound[b].max(r.debt_hi[b]);
                for i in 0..r.partition_count() {
                    proptest::prop_assert!(r.part_debt(b, i) <= bound, "partition {i} bucket {b}: {} above {bound}", r.part_debt(b, i));
                }
            }
        }
    }

    }

    /// Admission is a bucket refilled continuously, not a fresh window each second: a
    /// partition at 1,000 WU/s (a 1,000 WCU table, no burst credit) offered one 1 WU write
    /// every 500 µs (2,000 a second). The bucket starts full, so the first second admits the
    /// 1,000 it holds and the 999.5 refilled by the last write, at 999.5 ms: 1,999. From then
    /// on it is empty and each write finds
    /// 0.5 WU more than the one before: every other write is admitted, 500 in each half of the
    /// second. A per-second window would admit the first 1,000 of the second (all in its first
    /// half) and throttle all of the second half.
    #[test]
    fn admission_is_a_continuously_refilled_bucket() {
        let mut r = Resource::new("t".into(), false, &prov(1, 1_000), 0, false, false);
        assert_eq!(r.partition_count(), 2);
        let p = 0;
        // Both partitions share the 1,000 WU/s table bucket; all writes go to one.
        let mut admitted = [0u32; 4];
        for second in 0..2u64 {
            for k in 0..2_000u64 {
                let t = second * 1_000_000 + k * 500;
                r.set_time(t);
                if r.try_take(p, Dim::Write, MILLI).is_ok() {
                    admitted[(second * 2 + u64::from(k >= 1_000)) as usize] += 1;
                }
            }
            r.end_second();
        }
        assert_eq!(admitted[0] + admitted[1], 1_999, "{admitted:?}");
        assert!(admitted[2].abs_diff(500) <= 1 && admitted[3].abs_diff(500) <= 1, "{admitted:?}");
    }
}
