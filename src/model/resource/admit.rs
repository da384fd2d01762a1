//! Admission against a resource's buckets: refill to an arrival's time, the partition's and the table's debts, takes one by one, in runs and in bulk, the sure checks, and the end of a second.

use super::*;

impl Resource {
    /// Admission is at `t_us` from now on (clamped to the current second).
    #[inline]
    pub(crate) fn set_time(&mut self, t_us: u64) {
        debug_assert!(t_us <= self.second_us + US, "admission at {t_us} µs, past the second's end");
        self.now_us = t_us.max(self.second_us);
    }

    /// Partition `p`'s debt in bucket `b` now, milli-unit-µs.
    #[inline]
    pub(super) fn part_debt(&self, b: usize, p: usize) -> u64 {
        let bucket = &self.buckets[b][p];
        let refill = PARTITION_CAP_MILLI[b].saturating_mul(self.since(bucket.at));
        bucket.debt.saturating_sub(refill)
    }

    /// µs from `at` (a bucket's time) to admission's, at most a second (none when `at` is
    /// later: a take earlier in the same second).
    #[inline]
    pub(super) fn since(&self, at: u32) -> u64 {
        (ago(self.now_us, at).max(0) as u64).min(US)
    }

    /// Brings bucket `b` of partition `p` up to now.
    #[inline]
    pub(super) fn settle_bucket(&mut self, b: usize, p: usize) {
        let debt = self.part_debt(b, p);
        let bucket = &mut self.buckets[b][p];
        bucket.debt = debt;
        bucket.at = self.now_us as u32;
    }

    /// The partition bucket `u` milli-units of `d` draw from, and how much (the linear model
    /// charges a write unit as three read units of its one bucket).
    #[inline]
    pub(super) fn part_cost(&self, d: Dim, u: u64, ec: bool) -> (usize, u64) {
        // An eventually consistent read may be served by any of the partition's replicas.
        let u = if ec && d == Dim::Read { u * MILLI / self.ec_fanout_milli } else { u };
        match (self.linear, d) {
            (true, Dim::Write) => (0, 3 * u),
            (true, Dim::Read) => (0, u),
            _ => (d as usize, u),
        }
    }

    /// What an eventually consistent read of `u` milli-units costs its partition's read
    /// bucket (the per-partition cap is `ec_read_fanout` times higher for such reads).
    #[must_use]
    pub(crate) fn ec_partition_units(&self, u: u64) -> u64 {
        u * MILLI / self.ec_fanout_milli
    }

    /// Sets the read-replica fan-out of eventually consistent reads, in thousandths (1,000:
    /// none).
    pub(crate) fn set_ec_fanout_milli(&mut self, f: u64) {
        self.ec_fanout_milli = f.max(MILLI);
    }

    /// Table-level bucket debt of dimension `i` now, milli-unit-µs.
    #[inline]
    pub(super) fn table_debt(&self, i: usize) -> u128 {
        let refill = u128::from(self.limit[i]) * u128::from(self.now_us.saturating_sub(self.at_us));
        self.debt[i].saturating_sub(refill)
    }

    /// Table-level tokens of dimension `i` now, milli-units.
    #[inline]
    pub(super) fn table_tokens(&self, i: usize) -> u64 {
        let cap = u128::from(self.limit[i]) * u128::from(US);
        (cap.saturating_sub(self.table_debt(i)) / u128::from(US)) as u64
    }

    /// Brings partition `p`'s bucket `b` and the table's buckets up to now.
    #[inline]
    pub(super) fn settle_now(&mut self, b: usize, p: usize) {
        self.settle_bucket(b, p);
        self.settle_table();
    }

    /// Brings the table-level buckets up to now; what they could not hold overflows.
    #[inline]
    pub(super) fn settle_table(&mut self) {
        let dt = u128::from(self.now_us.saturating_sub(self.at_us));
        if dt == 0 {
            return;
        }
        for i in 0..2 {
            let refill = u128::from(self.limit[i]) * dt;
            let paid = refill.min(self.debt[i]);
            self.overflow[i] += refill - paid;
            self.debt[i] -= paid;
        }
        self.at_us = self.now_us;
    }

    /// Would `u` milli-units on partition `p` be admitted now, an eventually consistent read
    /// (`ec`) or not? Consumes nothing.
    ///
    /// # Errors
    /// The reason it would be throttled.
    #[inline]
    pub(crate) fn check_as(&self, p: usize, d: Dim, u: u64, ec: bool) -> Result<(), Reason> {
        let (b, cost) = self.part_cost(d, u, ec);
        if !bucket_holds(b, self.part_debt(b, p), cost) {
            return Err(Reason::KeyRange);
        }
        let i = d as usize;
        if self.table_holds(i, u) {
            return Ok(());
        }
        let room = self.table_tokens(i);
        if self.bursts(i) && self.parts[p].burst[i] >= u - room {
            Ok(())
        } else {
            Err(self.limit_reason[i])
        }
    }

    /// Does the table-level bucket of dimension `i` hold `u` milli-units now? (No division:
    /// this is the common case of every admission.)
    #[inline]
    pub(super) fn table_holds(&self, i: usize, u: u64) -> bool {
        let cap = u128::from(self.limit[i]) * u128::from(US);
        self.table_debt(i) + u128::from(u) * u128::from(US) <= cap
    }

    /// Admits `u` milli-units on partition `p`, returning how much came from burst credit (to
    /// undo with [`Self::untake`]).
    ///
    /// # Errors
    /// The reason it is throttled; nothing is consumed then.
    #[inline]
    pub(crate) fn try_take(&mut self, p: usize, d: Dim, u: u64) -> Result<u64, Reason> {
        self.try_take_as(p, d, u, false)
    }

    /// [`Self::try_take`] of an eventually consistent read (`ec`) or not.
    ///
    /// # Errors
    /// The reason it is throttled; nothing is consumed then.
    #[inline]
    pub(crate) fn try_take_as(&mut self, p: usize, d: Dim, u: u64, ec: bool) -> Result<u64, Reason> {
        self.check_as(p, d, u, ec)?;
        Ok(self.take_sure(p, d, u, ec))
    }

    /// [`Self::try_take_as`] of an admission known to pass [`Self::check_as`]: what came
    /// from burst credit.
    #[inline]
    pub(crate) fn take_sure(&mut self, p: usize, d: Dim, u: u64, ec: bool) -> u64 {
        debug_assert!(self.check_as(p, d, u, ec).is_ok(), "take_sure of an admission that throttles");
        let (b, cost) = self.part_cost(d, u, ec);
        self.settle_now(b, p);
        let i = d as usize;
        let from_table = if self.table_holds(i, u) { u } else { u.min(self.table_tokens(i)) };
        let from_burst = u - from_table;
        self.used[i] += from_table;
        self.debt[i] += u128::from(from_table) * u128::from(US);
        self.second_consumed[i] += u;
        let bucket = &mut self.buckets[b][p];
        bucket.debt += cost * US;
        self.debt_hi[b] = self.debt_hi[b].max(bucket.debt);
        let part = &mut self.parts[p];
        if part.used == [0; 2] {
            self.touched.push(p as u32);
        }
        if from_burst > 0 && !part.filling {
            part.filling = true;
            self.filling.push(p as u32);
        }
        part.burst[i] -= from_burst;
        part.used[i] += u;
        from_burst
    }

    /// [`Self::take_sure`] of each take of a run of `u` milli-units of `d` (an eventually
    /// consistent read's, `ec`, or not), in time order, `at` giving each one's µs and
    /// partition, every one known to pass [`Self::check_as`]: the state taking them one by one
    /// leaves. When the table-level bucket holds the whole run at its first take (its debt only
    /// falls between takes), every take comes from it: the table's bucket then follows the
    /// takes' times in a pass of its own, and the partitions' buckets in a pass that reads
    /// nothing else, over `by_part`: the same takes, each partition's in time order (`run`
    /// itself, or sorted by partition), each partition fetched 32 takes ahead.
    pub(crate) fn take_run_sure<A>(&mut self, run: &[A], by_part: &[A], at: impl Fn(&A) -> (u64, usize), d: Dim, u: u64, ec: bool) {
        /// Takes ahead whose partition is fetched.
        const AHEAD: usize = 32;
        let Some(first) = run.first() else { return };
        let i = d as usize;
        let total = u * run.len() as u64;
        self.set_time(at(first).0);
        self.settle_table();
        // The table's pass runs in 64 bits, which nothing can overflow below 4.6 billion units
        // a second (validation allows one billion): the takes lie within one second, so the
        // refill and the overflow are at most a second of the limit, and the debt at most
        // that, which the bucket holds with the run.
        let fits64 = self.limit[i].checked_mul(4 * US).is_some() && u.checked_mul(4 * US).is_some();
        let debt64 = u64::try_from(self.debt[i]).ok().filter(|_| fits64 && self.table_holds(i, total));
        let Some(mut debt) = debt64 else {
            for (k, a) in run.iter().enumerate() {
                if let Some(ahead) = run.get(k + AHEAD) {
                    self.prefetch(at(ahead).1, d);
                }
                let (t, p) = at(a);
                self.set_time(t);
                self.take_sure(p, d, u, ec);
            }
            return;
        };
        // The table's bucket of `d` through the takes (settled at each, as taking them one
        // by one does); the other dimension's only refills, which settling once at the last
        // take leaves as settling at each does.
        let take = u * US;
        let limit = self.limit[i];
        let (mut overflow, mut last) = (0u64, self.now_us);
        for a in run {
            let t = at(a).0.max(self.second_us);
            let refill = limit * t.saturating_sub(last);
            let paid = refill.min(debt);
            overflow += refill - paid;
            debt = debt - paid + take;
            last = last.max(t);
        }
        self.debt[i] = u128::from(debt);
        self.overflow[i] += u128::from(overflow);
        self.now_us = last;
        let o = 1 - i;
        // The other dimension's bucket refills up to the run's last request. (An account's
        // table may have been charged later in this second by another table's transactions:
        // then it does not refill backwards.)
        let refill = u128::from(self.limit[o]) * u128::from(last.saturating_sub(self.at_us));
        let paid = refill.min(self.debt[o]);
        self.overflow[o] += refill - paid;
        self.debt[o] -= paid;
        self.at_us = last.max(self.at_us);
        self.used[i] += total;
        self.second_consumed[i] += total;
        let (b, cost) = self.part_cost(d, u, ec);
        // Fetching ahead pays only where the partitions outgrow the nearest caches.
        let fetch = self.parts.len() >= MANY_PARTITIONS;
        let mut hi = self.debt_hi[b];
        // Nothing reads the partitions' use of the second before it closes (no replication):
        // it goes to their minute at once, and the close need not visit them.
        let to_minute = !self.second_use;
        for (k, a) in by_part.iter().enumerate() {
            if let Some(ahead) = by_part.get(k + AHEAD).filter(|_| fetch) {
                self.prefetch_bucket(at(ahead).1, d);
            }
            let (t, p) = at(a);
            self.set_time(t);
            let debt = self.part_debt(b, p) + cost * US;
            let bucket = &mut self.buckets[b][p];
            bucket.debt = debt;
            bucket.at = self.now_us as u32;
            hi = hi.max(debt);
            if to_minute {
                if b == i {
                    bucket.consume(u);
                } else {
                    self.buckets[i][p].consume(u);
                }
            } else {
                let part = &mut self.parts[p];
                if part.used == [0; 2] {
                    self.touched.push(p as u32);
                }
                part.used[i] += u;
            }
        }
        self.debt_hi[b] = hi;
        self.now_us = last;
    }

    /// Gives back an admission made by [`Self::try_take`] at the same instant.
    #[cfg(test)]
    pub(crate) fn untake(&mut self, p: usize, d: Dim, u: u64, from_burst: u64) {
        self.untake_as(p, d, u, from_burst, false);
    }

    /// [`Self::untake`] of an admission by [`Self::try_take_as`].
    pub(crate) fn untake_as(&mut self, p: usize, d: Dim, u: u64, from_burst: u64, ec: bool) {
        let i = d as usize;
        self.used[i] -= u - from_burst;
        self.debt[i] -= u128::from(u - from_burst) * u128::from(US);
        self.second_consumed[i] -= u;
        let (b, cost) = self.part_cost(d, u, ec);
        self.buckets[b][p].debt -= cost * US;
        let part = &mut self.parts[p];
        part.burst[i] += from_burst;
        part.used[i] -= u;
    }

    /// Admits demand known to fit (fast mode's bulk path): `u` milli-units on partition `p`,
    /// all from the table-level bucket, counted at the second's start (the second's refill is
    /// credited as time moves on).
    #[inline]
    pub(crate) fn take_bulk(&mut self, p: usize, d: Dim, u: u64, ec: bool) {
        self.now_us = self.second_us;
        let (b, cost) = self.part_cost(d, u, ec);
        self.settle_now(b, p);
        let i = d as usize;
        self.used[i] += u;
        self.debt[i] += u128::from(u) * u128::from(US);
        self.second_consumed[i] += u;
        let bucket = &mut self.buckets[b][p];
        bucket.debt += cost * US;
        self.debt_hi[b] = self.debt_hi[b].max(bucket.debt);
        let part = &mut self.parts[p];
        if part.used == [0; 2] {
            self.touched.push(p as u32);
        }
        part.used[i] += u;
    }

    /// The sure path's rule for partition `p` (exact mode's and the replay's seconds that
    /// cannot throttle): its bucket holds its whole demand of `d` at the second's start, `u`
    /// milli-units with `other` of the other dimension ([`Self::partition_fits_now`]), and
    /// where the resource's demand is beyond its table-level room (`over_table`), its burst
    /// credit holds what its attempts ask for, `asks`.
    #[must_use]
    pub(crate) fn surely_fits(&self, p: usize, d: Dim, u: u64, other: u64, asks: u64, over_table: bool) -> bool {
        self.partition_fits_now(p, d, u, other) && (!over_table || self.burst_covers(p, d, asks))
    }

    /// Does partition `p`'s burst credit of `d` hold `u` milli-units (provisioned capacity,
    /// or an on-demand maximum: [`Self::burst_basis`])?
    #[must_use]
    pub(crate) fn burst_covers(&self, p: usize, d: Dim, u: u64) -> bool {
        self.bursts(d as usize) && self.parts[p].burst[d as usize] >= u
    }

    /// Do reads and writes share one bucket (the linear partition model)?
    #[must_use]
    pub(crate) fn linear(&self) -> bool {
        self.linear
    }

    /// [`Self::partition_fits_now`] of every partition at once, with no other demand: does
    /// demand of `u` milli-units of `d` fit any partition's bucket now, whatever its debt
    /// (at most [`Self::debt_bound`])?
    #[must_use]
    pub(crate) fn every_partition_fits(&self, d: Dim, u: u64) -> bool {
        let (b, cost) = self.part_cost(d, u, false);
        bucket_holds(b, self.debt_bound[b].max(self.debt_hi[b]), cost)
    }

    /// Does demand of `u` milli-units of `d` on partition `p`, with `other` milli-units of the
    /// other dimension (read only by the linear model), fit the partition's bucket at the
    /// second's start, whatever its order?
    #[must_use]
    pub(crate) fn partition_fits_now(&self, p: usize, d: Dim, u: u64, other: u64) -> bool {
        if self.linear {
            let (r, w) = if d == Dim::Read { (u, other) } else { (other, u) };
            bucket_holds(0, self.part_debt(0, p), r + 3 * w)
        } else {
            let b = d as usize;
            bucket_holds(b, self.part_debt(b, p), u)
        }
    }

    /// Takes as much of `want` milli-units of `d` on partition `p` as its buckets (and burst
    /// credit) hold now: what was taken, and why not all of it, if not.
    pub(crate) fn take_up_to(&mut self, p: usize, d: Dim, want: u64) -> (u64, Option<Reason>) {
        let (b, per_unit) = self.part_cost(d, MILLI, false);
        let part_tokens =
            (u128::from(PARTITION_CAP_MILLI[b]) * u128::from(US)).saturating_sub(u128::from(self.part_debt(b, p))) / u128::from(US);
        let part_room = (part_tokens * u128::from(MILLI) / u128::from(per_unit)) as u64;
        let i = d as usize;
        let burst = if self.bursts(i) { self.parts[p].burst[i] } else { 0 };
        let table_room = self.table_tokens(i).saturating_add(burst);
        let u = want.min(part_room).min(table_room);
        if u > 0 {
            self.try_take_as(p, d, u, false).expect("within the partition's and the table's tokens");
        }
        let why = (u < want).then(|| if part_room <= table_room { Reason::KeyRange } else { self.limit_reason[i] });
        (u, why)
    }

    /// Records `u` milli-units of `d` applied on partition `p` outside the buckets (an
    /// absorbing GSI's writes): consumed this second and this minute, nothing taken.
    pub(crate) fn record_applied(&mut self, p: usize, d: Dim, u: u64) {
        if u == 0 {
            return;
        }
        let i = d as usize;
        self.second_consumed[i] += u;
        let part = &mut self.parts[p];
        if part.used == [0; 2] {
            self.touched.push(p as u32);
        }
        part.used[i] += u;
    }

    /// [`Self::take_up_to`] of units already counted as consumed ([`Self::record_applied`]):
    /// the buckets pay a debt, and the second's consumption is not counted again.
    pub(crate) fn pay_up_to(&mut self, p: usize, d: Dim, want: u64) -> (u64, Option<Reason>) {
        let (took, why) = self.take_up_to(p, d, want);
        let i = d as usize;
        self.second_consumed[i] -= took;
        self.parts[p].used[i] -= took;
        (took, why)
    }

    /// What one partition can drain in a second, milli-units of `d`: the resource's
    /// table-level rate, at most the partition cap.
    #[must_use]
    pub(crate) fn partition_rate_milli(&self, d: Dim) -> u64 {
        self.limit[d as usize].min(PARTITION_CAP_MILLI[d as usize])
    }

    /// Why a write of `d` throttles when it is the resource's rate that runs out: the
    /// partition cap when the rate is above it, the table-level limit's reason otherwise.
    #[must_use]
    pub(crate) fn rate_reason(&self, d: Dim) -> Reason {
        if self.limit[d as usize] >= PARTITION_CAP_MILLI[d as usize] {
            Reason::KeyRange
        } else {
            self.limit_reason[d as usize]
        }
    }

    /// Table-level milli-units of `d` available now without burst credit.
    #[must_use]
    pub(crate) fn table_room(&self, d: Dim) -> u64 {
        self.table_tokens(d as usize)
    }

    /// Closes the second: banks unused allocation as burst credit (provisioned, or below an
    /// on-demand maximum), adds the
    /// second to the minute and opens a fresh window.
    #[allow(clippy::needless_range_loop)] // i indexes several per-dimension arrays
    pub(crate) fn end_second(&mut self) {
        let banks = self.bursts(0) || self.bursts(1);
        // Unused capacity is counted at the table (spec §3: the AWS example banks 150 RCU x 300 s
        // for a table): the refill its bucket could not hold this second, because it was full,
        // shared among the partitions by their allocation. A table that is fully used banks
        // nothing, even if some of its partitions were quiet.
        self.now_us = self.second_us + US;
        self.settle_table();
        let unused = [(self.overflow[0] / u128::from(US)) as f64, (self.overflow[1] / u128::from(US)) as f64];
        self.overflow = [0; 2];
        // Only the partitions that consumed, and those banking credit, change: the others'
        // second is closed by doing nothing (every partition's, with many partitions, was
        // most of a quiet second's cost).
        for (k, &i) in self.touched.iter().enumerate() {
            // With many partitions the touched ones are far apart: fetch the line of the one 32
            // ahead.
            if let Some(&ahead) = self.touched.get(k + 32) {
                let ahead = ahead as usize;
                crate::hint::prefetch(&self.parts[ahead]);
                self.buckets.iter().for_each(|b| crate::hint::prefetch(&b[ahead]));
            }
            let p = &mut self.parts[i as usize];
            for d in 0..2 {
                if p.used[d] > 0 {
                    self.buckets[d][i as usize].consume(p.used[d]);
                    p.used[d] = 0;
                }
            }
        }
        self.touched.clear();
        if banks && unused.iter().any(|&u| u > 0.0) {
            let parts = &mut self.parts;
            self.filling.retain(|&i| {
                let p = &mut parts[i as usize];
                for d in 0..2 {
                    if unused[d] > 0.0 && p.burst[d] < p.burst_cap[d] {
                        let refill = (unused[d] * p.share).round() as u64;
                        p.burst[d] = (p.burst[d] + refill).min(p.burst_cap[d]);
                    }
                }
                p.filling = p.burst != p.burst_cap;
                p.filling
            });
        }
        // Every take this second left its partition's debt at most `debt_hi`, no later than
        // the second's end (admission's time never passes it); a second later it is paid, and
        // debts left before this second are paid by then. A debt beyond the bucket (which
        // admission never leaves) would outlast a second: the bound is then unknown for good.
        for b in 0..2 {
            let full = PARTITION_CAP_MILLI[b] * US;
            self.debt_bound[b] = if self.debt_bound[b] == u64::MAX || self.debt_hi[b] > full { u64::MAX } else { self.debt_hi[b] };
        }
        self.debt_hi = [0; 2];
        self.used = [0; 2];
        self.second_consumed = [0; 2];
        self.second_us += US;
        self.now_us = self.second_us;
        if self.second_us.is_multiple_of(SWEEP_US) {
            self.sweep_buckets();
        }
    }

    /// [`SWEEP_US`]: every bucket not brought up to date for a second or more has its time
    /// moved up to a second ago (at a second's start, when no bucket's time is later).
    pub(super) fn sweep_buckets(&mut self) {
        let (now, second_ago) = (self.now_us as u32, (self.now_us - US) as u32);
        for buckets in &mut self.buckets {
            for b in buckets.iter_mut() {
                if u64::from(now.wrapping_sub(b.at)) >= US {
                    b.at = second_ago;
                }
            }
        }
    }

    /// Hints the processor to fetch partition `p`'s state and its bucket of `d` into cache: a
    /// request of `d` due soon lands on it. Changes nothing.
    #[inline]
    pub(crate) fn prefetch(&self, p: usize, d: Dim) {
        if let Some(part) = self.parts.get(p) {
            crate::hint::prefetch(part);
            self.prefetch_bucket(p, d);
        }
    }

    /// [`Self::prefetch`] of partition `p`'s bucket of `d` alone (what checking a take, or a
    /// take known to fit, reads).
    #[inline]
    pub(crate) fn prefetch_bucket(&self, p: usize, d: Dim) {
        let b = if self.linear { 0 } else { d as usize };
        if let Some(bucket) = self.buckets[b].get(p) {
            crate::hint::prefetch(bucket);
        }
    }

    /// Counts a throttle event on partition `p`.
    pub(crate) fn count_throttle(&mut self, p: usize, d: Dim) {
        let t = &mut self.parts[p].minute_throttles[d as usize];
        *t = t.saturating_add(1);
    }
}
