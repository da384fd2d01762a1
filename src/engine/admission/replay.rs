//! Admitting attempts one by one in (time, seq) order: each attempt taken or throttled, retried or given up, its pages, batch items and transactions, what it stores and what it settles.

use super::*;

impl Admission<'_> {
    /// Admits the second's attempts one by one in `(time, seq)` order, with the retries that
    /// come due before `t1`. Returns false, leaving the rest in `batch`, when a closed-loop
    /// request was answered: the engine draws the thread's next request and calls again.
    pub(crate) fn replay(&mut self, batch: &mut Vec<Attempt>, t1: SimTime, runs: bool) -> bool {
        /// How many attempts ahead a partition is fetched: enough to cover a memory access
        /// (about 100 ns) with the admissions in between, few enough to stay in cache.
        const PREFETCH_AHEAD: usize = 8;
        // Latest first, so the next is popped from the end. Exact fidelity's batch is sorted
        // runs (one per pattern), which the stable sort reverses in linear time. Fast
        // fidelity's replayed seconds are in random order: their keys are sorted rather than
        // the attempts (a sort moves each element about log n times; an attempt is ten
        // words), and each attempt is then moved once.
        if runs {
            batch.sort_by_key(|a| std::cmp::Reverse((a.time, a.seq)));
        } else {
            self.scratch.latest_first(batch);
        }
        let t1 = t1.as_micros();
        self.scratch.served_at_once.resize(self.pats.len(), 0);
        loop {
            if !self.scratch.tickets.is_empty() {
                self.settle_served_at_once();
                return false;
            }
            let next_new = batch.last().map(Keyed::key);
            let next_retry = self.retries.peek_key().filter(|k| k.0 < t1);
            let take_new = match (next_new, next_retry) {
                (None, None) => {
                    self.settle_served_at_once();
                    return true;
                }
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(a), Some(b)) => a <= b,
            };
            let a = if take_new { batch.pop() } else { self.retries.pop_before(t1) };
            // The partition of the attempt a few ahead in the batch, fetched while this one is
            // admitted: with many partitions each lands on one no recent attempt touched.
            if let Some(c) = batch.len().checked_sub(PREFETCH_AHEAD + 1).and_then(|k| batch[k].charges.as_slice().first()) {
                self.res[c.res as usize].prefetch(c.part as usize, c.dim);
            }
            if let Some(a) = a {
                self.process(a);
            }
        }
    }

    /// Settles the requests [`Self::process`] served at their first attempt, pattern by
    /// pattern: the same counts and histograms as one by one.
    pub(super) fn settle_served_at_once(&mut self) {
        for j in 0..self.scratch.served_at_once.len() {
            let n = std::mem::take(&mut self.scratch.served_at_once[j]);
            if n > 0 {
                self.settle(j, n, self.service(j));
            }
        }
    }

    /// The closed-loop tickets of answered requests: (pattern, time of the answer, failed).
    pub(crate) fn take_tickets(&mut self) -> Vec<(u32, u64, bool)> {
        std::mem::take(&mut self.scratch.tickets)
    }

    /// Request of pattern `j` answered at `t_us` (served or failed): a closed-loop thread
    /// sends its next one.
    #[inline]
    pub(super) fn answered(&mut self, j: usize, t_us: u64, failed: bool) {
        if self.pats[j].closed_loop {
            self.scratch.tickets.push((j as u32, t_us, failed));
        }
    }

    /// What an attempt asked for: `count` attempts of pattern `j`, each charging `charges`, at
    /// attempt number `n` of page `page` (first attempts are the demand; a request is offered
    /// once, with its first page).
    #[inline]
    pub(super) fn on_attempt(&mut self, j: usize, charges: &[Charge], n: u32, page: u32, count: u64) {
        for c in charges {
            let cur = &mut self.rec.cur[c.res as usize];
            cur.requested[c.dim as usize] += count * c.units;
            if n == 1 {
                cur.offered[c.dim as usize] += count * c.units;
            }
        }
        self.rec.minute_attempts[0] += count;
        let t = &mut self.rec.patterns[j];
        t.attempts += count;
        if n == 1 {
            t.pages_sent += count;
        }
        if n == 1 && page == 0 {
            self.rec.minute_attempts[3] += count;
            let t = &mut self.rec.patterns[j];
            t.offered += count;
        }
    }

    /// `count` requests of pattern `j` served with latency `latency_us`: the pattern's served
    /// count and the latency histograms. Every served request passes here, in bulk or not.
    #[inline]
    pub(super) fn settle(&mut self, j: usize, count: u64, latency_us: u64) {
        let t = &mut self.rec.patterns[j];
        t.served += count;
        t.latency.record(latency_us, count);
        self.rec.latency(latency_us, count);
        // CloudWatch's SuccessfulRequestLatency per operation counts successful requests (a
        // failed condition, an HTTP 400, takes its count back: `admitted_attempt` runs first,
        // in the same second, so the sum is right at the minute's end).
        let p = &self.pats[j];
        let c = &mut self.rec.cur[p.res].op_ok[p.op as usize];
        *c = c.wrapping_add(count);
    }

    /// The charges of pattern `j` admitted `count` times: what each one stores.
    #[inline]
    pub(super) fn admitted(&mut self, j: usize, charges: &[Charge], count: u64) {
        for c in charges {
            self.store(j, c, count);
            self.tally_entity(j, c.res as usize, c.part, c.units * count);
        }
    }

    /// `milli` units of pattern `j` admitted on partition `part` of resource `r`: its entity
    /// type's share of the partition (only when the scenario has entity types).
    #[inline]
    pub(super) fn tally_entity(&mut self, j: usize, r: usize, part: u32, milli: u64) {
        if let (true, Some(e)) = (self.rec.entity_use.on(), self.pats[j].entity) {
            // The entity types are the table's own: another table's resources are not shared.
            if r >= self.own {
                return;
            }
            self.rec.entity_use.add(r, part as usize, e, milli);
        }
    }

    /// An admitted attempt: what its charges store, or, when its condition failed, nothing
    /// but the failure's count (ConditionalCheckFailedRequests on its table).
    #[inline]
    pub(super) fn admitted_attempt(&mut self, a: &Attempt, charges: &[Charge]) {
        let j = a.pat as usize;
        if !a.cond_failed {
            self.admitted(j, charges, 1);
            return;
        }
        self.rec.patterns[j].condition_failed += 1;
        let cur = &mut self.rec.cur[self.pats[j].res];
        cur.conditional_check_failed += 1;
        // An HTTP 400, not a successful request.
        let c = &mut cur.op_ok[self.pats[j].op as usize];
        *c = c.wrapping_sub(1);
        for c in charges {
            self.tally_entity(j, c.res as usize, c.part, c.units);
        }
    }

    /// What an admitted charge of pattern `j` does beyond capacity, `count` times: the bytes it
    /// adds to (or removes from) its partition, and for an index write, its propagation delay.
    #[inline]
    pub(super) fn store(&mut self, j: usize, c: &Charge, count: u64) {
        let p = &self.pats[j];
        let r = c.res as usize;
        if r != p.res {
            if let Some(IndexState { buffer, propagation, .. }) = &mut self.indexes[r] {
                match buffer {
                    Some(b) if c.dim == Dim::Write => b.push(&mut self.res[r], c.part as usize, c.units * count, count, propagation),
                    _ => propagation.record(count),
                }
            }
        }
        let delta = p.delta_on(r);
        if delta != 0 {
            self.res[r].add_bytes(c.part as usize, delta * count as i64);
        }
    }

    pub(super) fn throttle_event(&mut self, c: &Charge, reason: Reason) {
        self.rec.throttle_event(c.res as usize, reason, c.dim);
        self.res[c.res as usize].count_throttle(c.part as usize, c.dim);
    }

    /// Admits one attempt; a throttled one is retried or given up, as the client decides.
    #[allow(clippy::needless_pass_by_value)] // the attempt is consumed: moved into a retry or dropped
    pub(super) fn process(&mut self, a: Attempt) {
        let j = a.pat as usize;
        let (kind, req_dim) = (self.pats[j].kind, self.pats[j].dim);
        // The buckets refill up to the attempt's arrival.
        let t = a.time.as_micros();
        for c in a.charges.as_slice() {
            self.res[c.res as usize].set_time(t);
        }
        self.on_attempt(j, a.charges.as_slice(), a.n, a.page, 1);
        let blocked = self.blocked_for(a.charges.as_slice());
        let throttled: Vec<Charge> = match kind {
            _ if blocked.is_some() => {
                // A GSI's buffer is full: DynamoDB rejects every write to the table until it
                // drains, "regardless of whether a new row is destined for a GSI" (workshop).
                let (r, part, reason) = blocked.expect("checked");
                self.throttle_event(&Charge { res: r as u16, dim: Dim::Write, part: part as u32, units: 0 }, reason);
                self.rec.cur[0].throttled_requests[req_dim as usize] += 1;
                a.charges.as_slice().to_vec()
            }
            Kind::Batch => {
                // Items are admitted one by one, each with its index writes or not at all (an
                // item whose GSI write is throttled is returned unprocessed, spec §7); the
                // unprocessed ones are retried.
                let mut left = Vec::new();
                let (mut items, mut unprocessed) = (0, 0);
                let base = self.pats[j].res as u16;
                for item in item_groups(a.charges.as_slice(), base) {
                    items += 1;
                    if self.take_all(item, self.pats[j].ec_read) {
                        self.admitted(j, item, 1);
                    } else {
                        unprocessed += 1;
                        left.extend_from_slice(item);
                    }
                }
                // ThrottledRequests counts a batch only when every item is throttled (M1).
                if unprocessed > 0 && unprocessed == items {
                    self.rec.cur[0].throttled_requests[req_dim as usize] += 1;
                }
                left
            }
            Kind::Simple => {
                let Charges::One(c) = &a.charges else { unreachable!("simple attempts carry one charge") };
                match self.res[c.res as usize].try_take_as(c.part as usize, c.dim, c.units, self.pats[j].ec_read) {
                    Ok(_) => Vec::new(),
                    Err(reason) => {
                        self.throttle_event(c, reason);
                        self.rec.cur[0].throttled_requests[req_dim as usize] += 1;
                        vec![*c]
                    }
                }
            }
            Kind::AllOrNothing => match self.all_or_nothing(j, &a) {
                Some(t) => t,
                None => {
                    self.answered(j, a.time.as_micros() + self.service(j), true);
                    return;
                }
            },
        };
        let instance = self.client.instance_of(a.seq);
        if throttled.is_empty() {
            self.client.on_success(instance, a.n);
            self.served(&a, kind);
            return;
        }
        self.rec.minute_attempts[1] += 1;
        let t = &mut self.rec.patterns[j];
        t.throttled_attempts += 1;
        if a.n == 1 && a.page == 0 {
            t.throttled_requests += 1;
        }
        let jitter: f64 = self.jitter.random();
        // A paced load's items are retried by the service until written, never failed.
        let after = if self.pats[j].paced { paced_retry(a.n, jitter) } else { self.client.after_throttle(instance, a.n, jitter) };
        match after {
            AfterThrottle::Retry(delay) => self.retries.push(Attempt {
                time: a.time.saturating_add(delay),
                seq: a.seq,
                first: a.first,
                pat: a.pat,
                n: a.n + 1,
                key: a.key,
                charges: Charges::from_vec(throttled),
                rest: a.rest,
                page: a.page,
                cond_failed: a.cond_failed,
            }),
            AfterThrottle::Exhausted => {
                self.rec.minute_attempts[2] += 1;
                self.rec.patterns[j].failed_exhausted += 1;
                self.answered(j, a.time.as_micros() + self.service(j), true);
            }
            AfterThrottle::QuotaEmpty => {
                self.rec.minute_attempts[2] += 1;
                self.rec.patterns[j].failed_quota += 1;
                self.answered(j, a.time.as_micros() + self.service(j), true);
            }
        }
    }

    /// Attempt `a` (of `kind`) was admitted: what it stores, then the next page, the write that
    /// follows, or the request's answer.
    fn served(&mut self, a: &Attempt, kind: Kind) {
        let j = a.pat as usize;
        if kind != Kind::Batch {
            // A batch's items were stored as each was admitted.
            self.admitted_attempt(a, a.charges.as_slice());
        }
        if a.rest > 0 {
            // The SDK's paginator sends the next page when this one is back.
            self.next_page(a);
            return;
        }
        if self.pats[j].chained && a.page != FOLLOW {
            // The application writes the other table when the read is back.
            self.follow_up(a);
            return;
        }
        let waited = a.time.since(a.first).as_micros();
        if waited == 0 {
            // Settled with the replay's others (the same latency, the service time).
            self.scratch.served_at_once[j] += 1;
        } else {
            self.settle(j, 1, waited + self.service(j));
        }
        self.answered(j, a.time.as_micros() + self.service(j), false);
    }

    /// The next page of a paged Query or Scan, sent when page `a` is served: up to 1 MB of what
    /// is left, on the same partition, charged on its own (spec §1: rounding per 1 MB page).
    pub(super) fn next_page(&mut self, a: &Attempt) {
        let p = &self.pats[a.pat as usize];
        let Charges::One(c) = a.charges else { unreachable!("a page carries one charge") };
        let bytes = a.rest.min(p.page_bytes);
        self.retries.push(Attempt {
            time: a.time.saturating_add(SimDuration::from_micros(self.service_us)),
            seq: a.seq,
            first: a.first,
            pat: a.pat,
            n: 1,
            key: a.key,
            charges: Charges::One(Charge { units: p.units_of(bytes), ..c }),
            rest: a.rest - bytes,
            page: a.page + 1,
            cond_failed: false,
        });
    }

    /// The write in another table that the answer of get `a` sends ([`FOLLOW`]), sent when
    /// the answer is back, retried on its own.
    fn follow_up(&mut self, a: &Attempt) {
        let j = a.pat as usize;
        let time = a.time.saturating_add(SimDuration::from_micros(self.service(j)));
        let mut charges = Vec::new();
        if let Some(leg) = self.follows[j].as_mut() {
            leg.draw(time.as_micros() / MICROS_PER_SEC, false, &mut charges, self.res, self.active);
        }
        self.retries.push(Attempt {
            time,
            seq: a.seq,
            first: a.first,
            pat: a.pat,
            n: 1,
            key: 0,
            charges: Charges::from_vec(charges),
            rest: 0,
            page: FOLLOW,
            cond_failed: false,
        });
    }

    /// A transaction, or a write with index writes: every charge admitted or none (spec §7: a
    /// base write needs the table and every affected GSI). Returns the charges to retry (none
    /// when admitted), or `None` when the item collection is full (the request fails).
    pub(super) fn all_or_nothing(&mut self, j: usize, a: &Attempt) -> Option<Vec<Charge>> {
        let charges = a.charges.as_slice();
        let mut taken = std::mem::take(&mut self.scratch.taken);
        let failed = !self.take_all_into(charges, self.pats[j].ec_read, &mut taken);
        let collection_full = !failed && !a.cond_failed && !self.collection_admits(j, a.key);
        if collection_full {
            for &(c, b) in &taken {
                self.res[c.res as usize].untake_as(c.part as usize, c.dim, c.units, b, self.pats[j].ec_read && c.dim == Dim::Read);
            }
        }
        taken.clear();
        self.scratch.taken = taken;
        if collection_full {
            // ItemCollectionSizeLimitExceededException: nothing written, not retried.
            self.rec.minute_attempts[2] += 1;
            self.rec.patterns[j].failed_collection += 1;
            // ItemCollectionSizeLimitExceededException is an HTTP 400: a user error.
            self.rec.cur[self.pats[j].res].user_errors += 1;
            return None;
        }
        if failed {
            self.rec.cur[0].throttled_requests[self.pats[j].dim as usize] += 1;
            return Some(charges.to_vec());
        }
        Some(Vec::new())
    }

    /// Takes every charge or none: true when all were taken. A throttled charge is a throttle
    /// event; the charges after it are checked (so each throttled one counts), not taken.
    pub(super) fn take_all(&mut self, charges: &[Charge], ec: bool) -> bool {
        let mut taken = std::mem::take(&mut self.scratch.taken);
        let ok = self.take_all_into(charges, ec, &mut taken);
        taken.clear();
        self.scratch.taken = taken;
        ok
    }

    /// [`Self::take_all`], leaving what was taken (and what it drew from burst credit) in
    /// `taken` when every charge was taken, so a caller can still give it back.
    /// `ec`: the reads among the charges are eventually consistent.
    pub(super) fn take_all_into(&mut self, charges: &[Charge], ec: bool, taken: &mut Vec<(Charge, u64)>) -> bool {
        taken.clear();
        let mut failed = false;
        for c in charges {
            if self.is_buffered(c) {
                // Queued when the write is admitted (`store`), not taken from the index now.
                continue;
            }
            let ec = ec && c.dim == Dim::Read;
            let r = if failed {
                self.res[c.res as usize].check_as(c.part as usize, c.dim, c.units, ec).map(|()| 0)
            } else {
                self.res[c.res as usize].try_take_as(c.part as usize, c.dim, c.units, ec)
            };
            match r {
                Ok(b) if !failed => taken.push((*c, b)),
                Ok(_) => {}
                Err(reason) => {
                    failed = true;
                    self.throttle_event(c, reason);
                }
            }
        }
        if failed {
            for &(c, b) in taken.iter() {
                self.res[c.res as usize].untake_as(c.part as usize, c.dim, c.units, b, ec && c.dim == Dim::Read);
            }
            taken.clear();
        }
        !failed
    }

    /// The service time of pattern `j`'s requests, µs: the client's, and what multi-region
    /// strong consistency adds to a write.
    #[inline]
    pub(super) fn service(&self, j: usize) -> u64 {
        self.service_us + self.pats[j].mrsc_us
    }

    /// Does resource `r` buffer its index writes (buffered back-pressure)?
    #[inline]
    pub(super) fn buffered(&self, r: usize) -> bool {
        self.indexes[r].as_ref().is_some_and(|i| i.buffer.is_some())
    }

    /// Is charge `c` an index write that goes into a buffer?
    #[inline]
    pub(super) fn is_buffered(&self, c: &Charge) -> bool {
        c.dim == Dim::Write && c.res != 0 && self.buffered(c.res as usize)
    }

    /// A GSI whose buffer is full, if any: (resource, partition, reason).
    pub(super) fn blocked(&self) -> Option<(usize, usize, Reason)> {
        self.full_buffer(0..self.indexes.len())
    }

    /// A GSI among `range` whose buffer is full, if any: (resource, partition, reason).
    fn full_buffer(&self, range: std::ops::Range<usize>) -> Option<(usize, usize, Reason)> {
        self.indexes[range.clone()].iter().zip(range).find_map(|(i, r)| i.as_ref()?.buffer.as_ref()?.full().map(|(p, why)| (r, p, why)))
    }

    /// The full GSI buffer that rejects an attempt of `charges`, if any: one of the GSIs of a
    /// table it writes (the table's own, or another's it writes in a transaction).
    pub(super) fn blocked_for(&self, charges: &[Charge]) -> Option<(usize, usize, Reason)> {
        let writes = |base: usize| charges.iter().any(|c| c.res as usize == base && c.dim == Dim::Write);
        if writes(0) {
            if let Some(b) = self.full_buffer(0..self.own) {
                return Some(b);
            }
        }
        self.lent.iter().filter(|t| writes(t.0)).find_map(|t| self.full_buffer(t.0..t.1))
    }

    /// Whether a write of pattern `j` to key `key` fits its item collection (tables without
    /// LSIs have no limit).
    pub(super) fn collection_admits(&mut self, j: usize, key: u64) -> bool {
        match (self.pats[j].collection_growth, self.pats[j].key_space) {
            (Some(growth), Some(ks)) => self.collections.admits(ks, key, growth),
            _ => true,
        }
    }
}

/// The service's retry of a paced load's throttled item.
fn paced_retry(attempt: u32, jitter: f64) -> AfterThrottle {
    AfterThrottle::Retry(SimDuration::from_micros(Paced::retry_delay_us(attempt, jitter)))
}
