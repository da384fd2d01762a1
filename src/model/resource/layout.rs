//! A resource's partitions as hash ranges: the minute's close, splits for size and heat, doubling, lookups and the limits each partition takes from the table.

use super::*;

impl Resource {
    /// The burst credit banked now, by dimension (zero where the resource banks none).
    pub(crate) fn credit(&self) -> [crate::model::reserve::CreditLevel; 2] {
        [0, 1].map(|i| {
            let mut c = crate::model::reserve::CreditLevel::default();
            if self.bursts(i) {
                for p in &self.parts {
                    c.banked += p.burst[i];
                    c.cap += p.burst_cap[i];
                    if p.burst[i] < p.burst_cap[i] {
                        c.on_spending += p.burst[i];
                    }
                }
            }
            c
        })
    }

    /// Closes the minute of every partition: `f(partition, consumed, throttle events)`, both
    /// by [`Dim`], then zeroes the minute's counts.
    pub(crate) fn close_minute(&mut self, mut f: impl FnMut(usize, [u64; 2], [u64; 2])) {
        let [reads, writes] = &mut self.buckets;
        for (i, ((p, r), w)) in self.parts.iter_mut().zip(reads).zip(writes).enumerate() {
            f(i, [r.minute_consumed, w.minute_consumed].map(u64::from), p.minute_throttles.map(u64::from));
            (r.minute_consumed, w.minute_consumed) = (0, 0);
            p.minute_throttles = [0; 2];
        }
    }

    /// Splits every partition holding more than 10 GB in two halves of its data (spec §2),
    /// until none does, at `point(range start, range end)` when that lies inside the range (a
    /// split inside an item collection), else at the middle of its range; returns
    /// `(partition, count before)` of each split.
    pub(crate) fn split_for_size(&mut self, point: impl Fn(u64, u128) -> Option<u64>) -> Vec<(usize, usize)> {
        let mut done = Vec::new();
        if !self.oversized {
            return done;
        }
        while let Some(i) = self.parts.iter().position(|p| p.bytes > PARTITION_BYTES) {
            let (lo, hi) = self.range(i);
            let old = self.partition_count();
            let at = point(lo, hi).filter(|&a| a > lo && u128::from(a) < hi).unwrap_or(((u128::from(lo) + hi) / 2) as u64);
            self.split(i, at, 0.5);
            done.push((i, old));
        }
        self.oversized = false;
        done
    }

    /// Recomputes the table-level budgets and burst caps from the mode (after a capacity change).
    pub(super) fn refresh_limits(&mut self) {
        // The buckets refilled at the old rate up to now.
        self.settle_table();
        self.refresh_caps();
        self.set_limits();
    }

    /// The table-level budgets of the capacity mode.
    pub(super) fn set_limits(&mut self) {
        for d in Dim::ALL {
            let i = d as usize;
            let (limit, reason) = match self.mode {
                Mode::Provisioned { units } => (units[i], Reason::Provisioned),
                Mode::OnDemand { warm, max, quota } => {
                    let mut best = (warm[i], Reason::KeyRange);
                    if quota[i] < best.0 {
                        best = (quota[i], Reason::AccountLimit);
                    }
                    if let Some(m) = max[i] {
                        if m <= best.0 {
                            best = (m, Reason::MaxOnDemand);
                        }
                    }
                    best
                }
            };
            self.limit[i] = limit * MILLI;
            self.limit_reason[i] = reason;
        }
    }

    #[cfg(test)]
    /// Start of each partition's hash range.
    #[must_use]
    pub(crate) fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    /// Number of partitions.
    #[must_use]
    pub(crate) fn partition_count(&self) -> usize {
        self.parts.len()
    }

    /// The partitions are `n` equal hash ranges ([`equal_bounds`]): [`Self::partition_of`] is
    /// `floor(h × n / 2⁶⁴)`.
    #[must_use]
    pub(crate) fn has_equal_ranges(&self) -> bool {
        self.equal_ranges
    }

    /// The partition holding hash `h`.
    #[inline]
    #[must_use]
    pub(crate) fn partition_of(&self, h: u64) -> usize {
        if self.equal_ranges {
            // Equal hash ranges: the bounds are floor(i * 2^64 / n), so the partition is
            // floor(h * n / 2^64), without a search.
            ((u128::from(h) * self.parts.len() as u128) >> 64) as usize
        } else {
            self.bounds.partition_point(|&b| b <= h) - 1
        }
    }

    #[cfg(test)]
    /// Replaces the hash ranges (after splits); `equal` says whether they are the `n` equal
    /// ranges of [`equal_bounds`].
    pub(crate) fn set_ranges(&mut self, bounds: Vec<u64>, parts: Vec<Partition>, buckets: [Vec<Bucket>; 2]) {
        debug_assert!(bounds.len() == parts.len() && buckets.iter().all(|b| b.len() == parts.len()));
        self.equal_ranges = bounds == equal_bounds(bounds.len() as u64);
        self.bounds = bounds;
        self.parts = parts;
        self.buckets = buckets;
        self.bytes_total = self.parts.iter().map(|p| p.bytes).sum();
        self.oversized = true;
        // Partitions from elsewhere: their debts are not known to be bounded.
        self.debt_bound = [u64::MAX; 2];
        self.refresh_caps();
    }

    /// Table-level budget, milli-units per second.
    #[must_use]
    pub(crate) fn limit_milli(&self, d: Dim) -> u64 {
        self.limit[d as usize]
    }

    /// Provisioned units (0 for on-demand).
    #[must_use]
    pub(crate) fn provisioned(&self, d: Dim) -> u64 {
        match self.mode {
            Mode::Provisioned { units } => units[d as usize],
            Mode::OnDemand { .. } => 0,
        }
    }

    #[cfg(test)]
    /// Partition `i`'s allocation of provisioned capacity, milli-units per second.
    #[must_use]
    pub(crate) fn allocation_milli(&self, i: usize, d: Dim) -> u64 {
        (self.provisioned(d) as f64 * MILLI as f64 * self.parts[i].share).round() as u64
    }

    /// Splits partition `i` at hash `at` (which must lie inside its range); the lower child
    /// takes `frac` of its data. Each child gets half the parent's allocation (spec §2, P6).
    pub(crate) fn split(&mut self, i: usize, at: u64, frac: f64) {
        let ([p1, p2], halves) = self.children(i, frac);
        self.parts[i] = p1;
        self.parts.insert(i + 1, p2);
        for (buckets, [b1, b2]) in self.buckets.iter_mut().zip(halves) {
            buckets[i] = b1;
            buckets.insert(i + 1, b2);
        }
        self.bounds.insert(i + 1, at);
        self.equal_ranges = self.bounds == equal_bounds(self.bounds.len() as u64);
        self.refresh_caps();
    }

    /// The two children of partition `i`, the first taking `frac` of its data: their state and
    /// their buckets by dimension (the one place both halves are made, so the arrays stay in
    /// step). Each child owes half the debt and has half the minute's consumption. The debts
    /// are halved as of the partition's last take in either dimension (the time both buckets
    /// were last brought up to date when they were kept together), the other dimension's
    /// brought up to it first.
    pub(super) fn children(&self, i: usize, frac: f64) -> ([Partition; 2], [[Bucket; 2]; 2]) {
        let (p1, p2) = self.parts[i].halves(frac);
        let b = [self.buckets[0][i], self.buckets[1][i]];
        // How long before admission's time each was brought up to date (negative: later).
        let behind = b.map(|b| ago(self.now_us, b.at));
        let last = behind[0].min(behind[1]);
        let debt = [0, 1].map(|d| {
            let refill = PARTITION_CAP_MILLI[d].saturating_mul(((behind[d] - last) as u64).min(US));
            b[d].debt.saturating_sub(refill)
        });
        let at = (self.now_us as u32).wrapping_sub(last as u32);
        let (d1, d2) = pair(debt);
        let (c1, c2) = pair(b.map(|b| u64::from(b.minute_consumed)));
        let half = |d: usize| {
            [Bucket { debt: d1[d], at, minute_consumed: c1[d] as u32 }, Bucket { debt: d2[d], at, minute_consumed: c2[d] as u32 }]
        };
        ([p1, p2], [half(0), half(1)])
    }

    /// The hash range of partition `i`: `(start, end)` with `end` exclusive (2^64 for the last).
    #[must_use]
    pub(crate) fn range(&self, i: usize) -> (u64, u128) {
        (self.bounds[i], self.bounds.get(i + 1).map_or(1u128 << 64, |&b| u128::from(b)))
    }

    /// Splits every partition in two at the middle of its range until there are at least `n`
    /// (DynamoDB doubles partitions when throughput outgrows them; they never merge). Each
    /// doubling is one pass: growing to `n` partitions costs O(n).
    pub(crate) fn grow_to(&mut self, n: usize) {
        while self.parts.len() < n {
            let len = self.parts.len();
            let mut bounds = Vec::with_capacity(2 * len);
            let mut parts = Vec::with_capacity(2 * len);
            let mut buckets = [Vec::with_capacity(2 * len), Vec::with_capacity(2 * len)];
            for i in 0..len {
                let (lo, hi) = self.range(i);
                let (two, their_buckets) = self.children(i, 0.5);
                bounds.extend([lo, ((u128::from(lo) + hi) / 2) as u64]);
                parts.extend(two);
                for (buckets, two) in buckets.iter_mut().zip(their_buckets) {
                    buckets.extend(two);
                }
            }
            self.equal_ranges = bounds == equal_bounds(bounds.len() as u64);
            self.bounds = bounds;
            self.parts = parts;
            self.buckets = buckets;
        }
        self.refresh_caps();
    }
}
