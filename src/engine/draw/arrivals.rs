//! Drawing a second's requests: sizes and units, keys and their partitions, shards and sort-key positions, arrivals one by one, by partition blocks, compact and fast, and the key weights partitions are drawn by.

use super::*;

impl Traffic {
    pub(super) fn draw_size(&mut self, j: usize) -> u64 {
        self.pats[j].draw_bytes(&mut self.rng_sizes[j])
    }

    /// Milli-units of the first attempt of a single-item pattern, and for a paged Query or Scan
    /// the bytes left for the pages after it.
    pub(super) fn simple_charge(&mut self, j: usize) -> (u64, u64) {
        if !self.pats[j].paged {
            return (self.simple_units(j), 0);
        }
        let bytes = self.query_bytes(j);
        let first = bytes.min(self.pats[j].page_bytes);
        (self.pats[j].units_of(first), bytes - first)
    }

    /// Milli-units of one attempt of a single-item pattern.
    pub(super) fn simple_units(&mut self, j: usize) -> u64 {
        if let Some(u) = self.pats[j].fixed_units {
            return u;
        }
        let bytes = match self.pats[j].op {
            Op::Query | Op::Scan => self.query_bytes(j),
            _ => self.draw_size(j),
        };
        self.pats[j].units_of(bytes)
    }

    /// Bytes one attempt of Query or Scan pattern `j` reads: its items' sizes drawn one by one,
    /// or their mean above 32 items of a law.
    pub(super) fn query_bytes(&mut self, j: usize) -> u64 {
        let items = self.pats[j].items_per_attempt;
        match self.pats[j].size {
            SizeSpec::Fixed(b) => b * items,
            s @ (SizeSpec::LogNormal { .. } | SizeSpec::Uniform { .. }) if items > 32 => (s.mean() * items as f64) as u64,
            SizeSpec::LogNormal { .. } | SizeSpec::Uniform { .. } => (0..items).map(|_| self.draw_size(j)).sum(),
        }
    }

    pub(super) fn key_partition(&mut self, j: usize, res: &Resource, ks: usize, s: u64, shard_draw: bool) -> (u64, usize) {
        let r1 = self.rng_keys[j].next_u64();
        let r2 = self.rng_keys[j].next_u64();
        let rank = self.dists[ks].sample(r1, r2, s);
        let shard = if shard_draw { self.draw_shard(j, ks) } else { 0 };
        let h = key_hash(self.salt, ks as u64, rank, shard);
        (rank, res.partition_of(self.position(j, ks, h, res)))
    }

    /// The write shard (suffix) of a value of key space `ks` that pattern `j` touches: one drawn
    /// at random, or 0 when the key space is not sharded.
    #[inline]
    pub(super) fn draw_shard(&mut self, j: usize, ks: usize) -> u64 {
        match self.shards[ks] {
            Some(sh) if sh.count > 1 => self.rng_keys[j].random_range(0..sh.count),
            _ => 0,
        }
    }

    /// The sort keys of key space `ks` as `res` stores them: `None` when each value is one
    /// point (no sort key, or the table's collections, which an LSI keeps whole).
    #[inline]
    pub(super) fn layout(&self, ks: usize, is_index: bool) -> Option<SortKeys> {
        self.sort_keys[ks].filter(|_| is_index || !self.table_lsi)
    }

    /// Where a request of pattern `j` to the value hashing to `h` lands: on one of its items
    /// (drawn from the pattern's key stream) when the value has a sort key.
    #[inline]
    pub(super) fn position(&mut self, j: usize, ks: usize, h: u64, res: &Resource) -> u64 {
        match self.span(j, ks, res.is_index()) {
            None => h,
            Some(sp) => sp.land(h, &mut self.rng_keys[j]),
        }
    }

    /// The items of each value's collection that pattern `j`'s requests on key space `ks` of
    /// a table (or of an index, `is_index`) land on: the whole collection, or an entity's
    /// items in it.
    #[inline]
    pub(super) fn span(&self, j: usize, ks: usize, is_index: bool) -> Option<Span> {
        self.layout(ks, is_index).map(|sk| Span::of(sk, self.pats[j].segment.filter(|_| !is_index && self.pats[j].key_space == Some(ks))))
    }

    /// Draws one request of pattern `j` arriving at `time` into `out` (several attempts when a
    /// read fans out over random shards). `active` says which GSIs exist.
    pub(crate) fn draw_request(&mut self, j: usize, s: u64, time: SimTime, out: &mut Vec<Attempt>, res: &[Resource], active: &[bool]) {
        let (kind, r, dim, ks, fanout, items, op) = {
            let p = &self.pats[j];
            (p.kind, p.res, p.dim, p.key_space, p.fanout, p.items_per_attempt, p.op)
        };
        let attempt = |seq: u64, key: u64, charges: Charges, rest: u64, cond_failed: bool| Attempt {
            cond_failed,
            ..Attempt::first_of(time, seq, j as u32, key, charges, rest)
        };
        match kind {
            Kind::Simple => {
                let mut push = |t: &mut Self, part: usize| {
                    let (units, rest) = t.simple_charge(j);
                    let seq = t.next_seq();
                    out.push(attempt(seq, 0, Charges::One(Charge { res: r as u16, dim, part: part as u32, units }), rest, false));
                };
                match ks {
                    None if fanout > 1 => {
                        // A parallel scan: segment k of n reads within the k-th n-th of the
                        // hash range.
                        let width = (1u128 << 64) / u128::from(fanout);
                        for k in 0..u128::from(fanout) {
                            let h = (k * width + u128::from(self.rng_keys[j].next_u64()) % width) as u64;
                            push(self, res[r].partition_of(h));
                        }
                    }
                    None => {
                        let part = self.rng_keys[j].random_range(0..res[r].partition_count());
                        push(self, part);
                    }
                    Some(ks) if fanout > 1 => {
                        let r1 = self.rng_keys[j].next_u64();
                        let r2 = self.rng_keys[j].next_u64();
                        let rank = self.dists[ks].sample(r1, r2, s);
                        for sh in 0..fanout {
                            let h = key_hash(self.salt, ks as u64, rank, sh);
                            let pos = self.position(j, ks, h, &res[r]);
                            push(self, res[r].partition_of(pos));
                        }
                    }
                    Some(ks) => {
                        let part = self.key_partition(j, &res[r], ks, s, true).1;
                        push(self, part);
                    }
                }
            }
            Kind::AllOrNothing | Kind::Batch => {
                let mut charges = Vec::with_capacity(items as usize * (1 + self.pats[j].gsi.len()));
                let mut key = 0;
                // A conditional write whose condition fails writes nothing: the table's units
                // for its items, no index writes.
                let share = self.pats[j].condition_fails;
                let cond_failed = share > 0.0 && self.rng_cond[j].random::<f64>() < share;
                for _ in 0..items {
                    let part = match ks {
                        Some(ks) => {
                            let (rank, part) = self.key_partition(j, &res[r], ks, s, op.is_write());
                            key = rank;
                            part
                        }
                        None => self.rng_keys[j].random_range(0..res[r].partition_count()),
                    };
                    let bytes = self.draw_size(j);
                    if cond_failed {
                        let units = self.pats[j].failed_condition_units(bytes);
                        charges.push(Charge { res: r as u16, dim, part: part as u32, units });
                        continue;
                    }
                    let units = self.pats[j].units_of(bytes);
                    charges.push(Charge { res: r as u16, dim, part: part as u32, units });
                    for g in 0..self.pats[j].gsi.len() {
                        let (gres, gks, coverage, fixed, writes) = {
                            let w = &self.pats[j].gsi[g];
                            (w.res, w.key_space, w.coverage, w.fixed.is_some(), w.writes)
                        };
                        if !active[gres] || (coverage < 1.0 && self.rng_keys[j].random::<f64>() >= coverage) {
                            continue;
                        }
                        if fixed {
                            // Under fixed values: an entry that moves (the delete on the old
                            // value's partition, the put on the new one's), or a new entry
                            // under one value.
                            let each = CompiledPattern::index_write_units(&self.pats[j].gsi[g], bytes) / writes.max(1);
                            let ranks = self.pats[j].gsi[g].fixed;
                            for rank in ranks.into_iter().flat_map(|(from, to)| from.into_iter().chain(std::iter::once(to))) {
                                let shard = self.draw_shard(j, gks);
                                let part = res[gres].partition_of(key_hash(self.salt, gks as u64, rank, shard));
                                charges.push(Charge { res: gres as u16, dim: Dim::Write, part: part as u32, units: each });
                            }
                            continue;
                        }
                        let (_, gpart) = self.key_partition(j, &res[gres], gks, s, true);
                        let units = CompiledPattern::index_write_units(&self.pats[j].gsi[g], bytes);
                        charges.push(Charge { res: gres as u16, dim: Dim::Write, part: gpart as u32, units });
                    }
                }
                if self.legs.get(j).is_some_and(|l| !l.is_empty()) {
                    self.draw_legs(j, s, cond_failed, &mut charges, res, active);
                }
                let seq = self.next_seq();
                out.push(attempt(seq, key, Charges::from_vec(charges), 0, cond_failed));
            }
        }
    }

    /// Exact fidelity: every request of second `s`, pattern by pattern (each pattern's arrivals
    /// come out in time order; the rate is constant within the second, and memorylessness lets
    /// each second start afresh).
    pub(crate) fn draw_exact(&mut self, s: u64, out: &mut Vec<Attempt>, res: &[Resource], active: &[bool]) {
        let t0 = s * MICROS_PER_SEC;
        let t1 = t0 + MICROS_PER_SEC;
        for j in 0..self.pats.len() {
            let lambda = self.lambda(j, s);
            if lambda <= 0.0 {
                continue;
            }
            let mean_gap_us = MICROS_PER_SEC as f64 / lambda;
            let mut t = t0 as f64;
            let refused = self.unreadable[self.pats[j].res];
            // A paced load's items come evenly over the second, the rest as a Poisson process.
            let paced = self.paced[j].map(|l| l.count(s));
            if paced.is_none() && !refused && block_path() && self.draws_partition(j, res) {
                self.draw_exact_block(j, s, mean_gap_us, out, res);
                continue;
            }
            let mut i = 0;
            loop {
                let time = match paced {
                    Some(n) if i < n => t0 + (2 * i + 1) * MICROS_PER_SEC / (2 * n),
                    Some(_) => break,
                    None => {
                        let e: f64 = Exp1.sample(&mut self.rng_arr[j]);
                        t += e * mean_gap_us;
                        if t >= t1 as f64 {
                            break;
                        }
                        t as u64
                    }
                };
                i += 1;
                if refused {
                    self.refused[j] += 1;
                    continue;
                }
                self.draw_request(j, s, SimTime::from_micros(time), out, res, active);
            }
        }
    }

    /// Whether a request of pattern `j` can have its partition drawn without its key
    /// ([`PartitionDraw`]): a single-item request on one value of a key space without write
    /// shards or sort-key positions.
    pub(super) fn draws_partition(&self, j: usize, res: &[Resource]) -> bool {
        let p = &self.pats[j];
        let Some(ks) = p.key_space else { return false };
        p.kind == Kind::Simple
            && p.fanout == 1
            && self.shards[ks].is_none_or(|sh| sh.count <= 1)
            && self.span(j, ks, res[p.res].is_index()).is_none()
    }

    /// [`Self::draw_exact`] of one pattern whose requests take two key words each: its
    /// requests, as [`Self::block_arrivals`] draws them.
    pub(super) fn draw_exact_block(&mut self, j: usize, s: u64, mean_gap_us: f64, out: &mut Vec<Attempt>, res: &[Resource]) {
        let (r, dim) = (self.pats[j].res, self.pats[j].dim);
        let t0 = s * MICROS_PER_SEC;
        self.block_arrivals(j, s, mean_gap_us, res, |t, offset, part| {
            let (units, rest) = t.simple_charge(j);
            let seq = t.next_seq();
            let charge = Charges::One(Charge { res: r as u16, dim, part: part as u32, units });
            out.push(Attempt::first_of(SimTime::from_micros(t0 + u64::from(offset)), seq, j as u32, 0, charge, rest));
        });
    }

    /// The arrivals of second `s` of pattern `j` (a single-item request on one value of a key
    /// space without shards or sort-key positions, [`Self::draws_partition`]) to `emit`, in time
    /// order, as (µs, partition): exponential gaps from the arrivals stream, and each request's
    /// partition drawn directly from the pattern's [`PartitionDraw`] with a word of its key
    /// stream (a time-ordered key: the current value's partition, drawing nothing). In blocks
    /// of 1,024 requests: their times, their words, then their partitions, fetching the table
    /// slot of the request eight ahead (a table over 100,000 partitions is 800 KB).
    pub(super) fn block_arrivals(
        &mut self,
        j: usize,
        s: u64,
        mean_gap_us: f64,
        res: &[Resource],
        mut emit: impl FnMut(&mut Self, u32, usize),
    ) {
        /// Requests ahead whose slot is fetched.
        const AHEAD: usize = 8;
        /// Requests a block: its buffers stay in the nearest cache.
        const BLOCK: usize = 1024;
        let r = self.pats[j].res;
        let ks = self.pats[j].key_space.expect("draws_partition: a key space");
        /// Where the second's requests land.
        enum Source {
            /// All on one partition: the current value's of a time-ordered key.
            One(usize),
            /// Each drawn.
            Drawn(PartitionDraw),
        }
        let source = match self.dists[ks].sequential_key(s) {
            Some(k) => Source::One(res[r].partition_of(key_hash(self.salt, ks as u64, k, 0))),
            None => Source::Drawn(self.partition_draw(j, &res[r])),
        };
        let mut times = std::mem::take(&mut self.block_times);
        let mut words = std::mem::take(&mut self.block_words);
        // µs into the second (below 10^6: a conversion through i64 is one instruction).
        let mut t = 0.0;
        let mut more = true;
        while more {
            times.clear();
            words.clear();
            while times.len() < BLOCK {
                let e: f64 = Exp1.sample(&mut self.rng_arr[j]);
                t += e * mean_gap_us;
                if t >= MICROS_PER_SEC as f64 {
                    more = false;
                    break;
                }
                times.push(t as i64 as u32);
            }
            match &source {
                Source::One(part) => times.iter().for_each(|&time| emit(self, time, *part)),
                Source::Drawn(d) => {
                    words.extend((0..times.len()).map(|_| self.rng_keys[j].next_u64()));
                    for (i, &time) in times.iter().enumerate() {
                        if let Some(&ahead) = words.get(i + AHEAD) {
                            d.prefetch(ahead);
                        }
                        let part = d.sample(words[i], &mut self.rng_keys[j], &res[r], &self.dists[ks], self.salt, ks);
                        emit(self, time, part);
                    }
                }
            }
        }
        self.block_times = times;
        self.block_words = words;
        if let Source::Drawn(d) = source {
            self.state[j].part_draw = Some(d);
        }
    }

    /// Pattern `j`'s [`PartitionDraw`] over the partitions `res` has now (taken out of its
    /// state; put it back): rebuilt when the partitions changed (they only ever split, so
    /// their count says).
    pub(super) fn partition_draw(&mut self, j: usize, res: &Resource) -> PartitionDraw {
        match self.state[j].part_draw.take() {
            Some(d) if d.partitions == res.partition_count() => d,
            _ => {
                let ks = self.pats[j].key_space.expect("draws_partition: a key space");
                PartitionDraw::new(&self.dists[ks], res, self.salt, ks)
            }
        }
    }

    /// Can second `s` be drawn as a [`CompactSecond`]: is every pattern with arrivals in it
    /// a single-item request of fixed units on one value of a readable key space, drawn in
    /// blocks ([`Self::draws_partition`]), neither paged, nor a closed loop, nor growing a
    /// size-capped item collection? Draws nothing.
    pub(crate) fn compact_second(&self, s: u64, res: &[Resource]) -> bool {
        block_path()
            && (0..self.pats.len()).all(|j| {
                let p = &self.pats[j];
                !p.closed_loop
                    && (self.lambda(j, s) <= 0.0
                        || (!p.paced
                            && !self.unreadable[p.res]
                            && p.fixed_units.is_some()
                            && !p.paged
                            && p.collection_growth.is_none()
                            && self.draws_partition(j, res)))
            })
    }

    /// Exact fidelity's second `s` when [`Self::compact_second`] allows it: the same requests
    /// as [`Self::draw_exact`] (the same words of the same streams), each kept as its time and
    /// partition, pattern by pattern.
    pub(crate) fn draw_compact(&mut self, s: u64, out: &mut CompactSecond, res: &[Resource]) {
        out.arrivals.clear();
        out.runs.clear();
        out.second_us = s * MICROS_PER_SEC;
        let most = self.pats.iter().map(|p| res[p.res].partition_count()).max().unwrap_or(0);
        out.counts.clear();
        // A table of 16 KB at most (8 KB of blocks), cleared every second.
        out.count_shift = if most < MANY_PARTITIONS { 0 } else { block_shift(most) };
        out.counts.resize(most.div_ceil(1 << out.count_shift), 0);
        for j in 0..self.pats.len() {
            let lambda = self.lambda(j, s);
            if lambda <= 0.0 {
                continue;
            }
            let start = out.arrivals.len();
            let (arrivals, counts, shift) = (&mut out.arrivals, &mut out.counts, out.count_shift);
            self.block_arrivals(j, s, MICROS_PER_SEC as f64 / lambda, res, |_, offset_us, part| {
                arrivals.push(Arrival { offset_us, part: part as u32 });
                counts[part >> shift] += 1;
            });
            let end = out.arrivals.len();
            if end > start {
                let p = &self.pats[j];
                let units = p.fixed_units.expect("compact_second: fixed units");
                let charge = Charge { res: p.res as u16, dim: p.dim, part: 0, units };
                out.runs.push(Run { pat: j as u32, start, end, seq0: self.seq + 1, charge });
                self.seq += (end - start) as u64;
            }
        }
    }

    /// The attempts of a [`CompactSecond`], as [`Self::draw_exact`] would have drawn them.
    pub(crate) fn expand(out: &CompactSecond, batch: &mut Vec<Attempt>) {
        for run in &out.runs {
            for (i, a) in out.arrivals[run.start..run.end].iter().enumerate() {
                let time = SimTime::from_micros(out.second_us + u64::from(a.offset_us));
                let charge = Charges::One(Charge { part: a.part, ..run.charge });
                batch.push(Attempt::first_of(time, run.seq0 + i as u64, run.pat, 0, charge, 0));
            }
        }
    }

    /// Fast fidelity: per-partition counts of busy single-item patterns into `simple`, every
    /// other request drawn one by one into `batch`. Each pattern's count of the second comes
    /// first, from its arrivals stream alone: it cannot depend on the partitions, the capacity
    /// mode or anything admission did, so the modes of a comparison see the same requests.
    pub(crate) fn draw_fast(&mut self, s: u64, simple: &mut Vec<SimpleCount>, batch: &mut Vec<Attempt>, res: &[Resource], active: &[bool]) {
        let t0 = s * MICROS_PER_SEC;
        for j in 0..self.pats.len() {
            let lambda = self.lambda(j, s);
            if lambda <= 0.0 {
                continue;
            }
            let c = match self.paced[j] {
                Some(paced) => paced.count(s),
                None => poisson(&mut self.rng_arr[j], lambda),
            };
            if c == 0 {
                continue;
            }
            let p = &self.pats[j];
            if self.unreadable[p.res] {
                self.refused[j] += c;
                continue;
            }
            // A parallel scan's segments each read their own part of the hash range: drawn one
            // by one (the per-partition counts would spread them at random).
            let segmented = p.key_space.is_none() && p.fanout > 1;
            let busy = lambda * p.fanout as f64 >= 0.25 * res[p.res].partition_count() as f64;
            if p.kind == Kind::Simple && !p.paged && !segmented && busy {
                // A read that fans out over random shards sends an attempt to each.
                let attempts = c * p.fanout;
                self.draw_counts(j, s, attempts, lambda * p.fanout as f64, simple, &res[p.res]);
            } else if busy && self.counted_with_indexes(j) {
                self.draw_indexed_counts(j, s, (c, lambda), simple, res, active);
            } else {
                // Drawn in time order, so that request numbers follow arrival times as in exact
                // mode (see `spread`).
                let mut times: Vec<u64> = (0..c).map(|_| self.rng_spread[j].random_range(0..MICROS_PER_SEC)).collect();
                times.sort_unstable();
                for offset in times {
                    self.draw_request(j, s, SimTime::from_micros(t0 + offset), batch, res, active);
                }
            }
        }
    }

    /// Gives the counts of a second that must be replayed uniform arrival times in `s`, and
    /// each pattern's requests their numbers in the order of those times, as exact mode
    /// numbers its requests: at a microsecond shared by a new request and the retry of one
    /// that came earlier in the second, the earlier request goes first in both modes (numbered
    /// in draw order, partition by partition, fast mode served the new one first about half
    /// the time, and counted 0.06 % fewer throttled attempts on a hot key with retries).
    pub(crate) fn spread(&mut self, s: u64, simple: &[SimpleCount], batch: &mut Vec<Attempt>) {
        let t0 = s * MICROS_PER_SEC;
        let mut k = 0;
        while k < simple.len() {
            let pat = simple[k].pat;
            let (res, dim) = (self.pats[pat as usize].res, self.pats[pat as usize].dim);
            let start = batch.len();
            let end = k + simple[k..].iter().take_while(|c| c.pat == pat).count();
            if simple[k..end].iter().any(|c| c.gsi.is_some()) {
                self.spread_indexed(&simple[k..end], t0, batch);
                k = end;
            }
            while let Some(&SimpleCount { part, count, units, .. }) = simple.get(k).filter(|c| c.pat == pat) {
                for _ in 0..count {
                    let time = SimTime::from_micros(t0 + self.rng_spread[pat as usize].random_range(0..MICROS_PER_SEC));
                    batch.push(Attempt::first_of(time, 0, pat, 0, Charges::One(Charge { res: res as u16, dim, part, units }), 0));
                }
                k += 1;
            }
            let new = &mut batch[start..];
            new.sort_by_key(|a| a.time);
            for a in new {
                a.seq = self.next_seq();
            }
        }
    }

    /// Splits the `count` requests of a single-item pattern over the partitions of its
    /// resource by their weights, a multinomial, drawn exactly and fast: independent Poisson
    /// counts of means proportional to the weights (a Poisson process split by weight: given
    /// their sum, the counts are a multinomial of that sum), then the difference to `count`
    /// corrected, by adding requests drawn by weight or removing drawn requests chosen
    /// uniformly (adding independent draws of the same law, or keeping a uniform subset of
    /// them, leaves a multinomial). The means need only be proportional to the weights, so they
    /// are the shares of a rate the pattern had recently (`expected`, its attempts a second,
    /// within 1/256), each partition's Poisson law tabulated once: one uniform a partition a
    /// second. The correction is about the square root of `count`. A rate that moves faster
    /// than a rebuild every 16 seconds draws means summing to `count` instead.
    pub(super) fn draw_counts(&mut self, j: usize, s: u64, count: u64, expected: f64, out: &mut Vec<SimpleCount>, res: &Resource) {
        self.refresh_weights(j, s, res);
        let fixed = self.pats[j].fixed_units;
        let st = &mut self.state[j];
        let weights = std::mem::take(&mut st.weights);
        let cum = std::mem::take(&mut st.cumulative);
        let mut counts = std::mem::take(&mut st.counts);
        let mass = cum.last().copied().unwrap_or(0.0);
        if mass > 0.0 {
            let built_for = st.tables_key == st.weights_key && st.tables.len() == weights.len();
            let near = |st: &PatternState| (expected - st.tables_rate).abs() <= st.tables_rate / 256.0;
            if !built_for || (!near(st) && s >= st.tables_built + 16) {
                // The slots all patterns' tables may hold (see `TABLE_SLOTS`).
                let others: usize = self.state.iter().enumerate().filter(|&(k, _)| k != j).map(|(_, o)| o.tables.slot_count()).sum();
                let st = &mut self.state[j];
                st.tables.build(weights.iter().map(|w| w * expected / mass), TABLE_SLOTS.saturating_sub(others));
                (st.tables_key, st.tables_rate, st.tables_built) = (st.weights_key, expected, s);
            }
            let st = &self.state[j];
            let tables = near(st).then(|| (&st.tables, st.tables_rate / mass));
            split_counts(&mut self.rng_spread[j], &weights, &cum, count, &mut counts, tables);
            for (p, &c) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
                match fixed {
                    Some(units) => out.push(SimpleCount { pat: j as u32, part: p as u32, count: c, units, gsi: None }),
                    None => {
                        for _ in 0..c {
                            let units = self.simple_units(j);
                            out.push(SimpleCount { pat: j as u32, part: p as u32, count: 1, units, gsi: None });
                        }
                    }
                }
            }
        }
        let st = &mut self.state[j];
        st.weights = weights;
        st.cumulative = cum;
        st.counts = counts;
    }

    /// Expected attempts per request on each partition of the pattern's resource.
    pub(super) fn refresh_weights(&mut self, j: usize, s: u64, res: &Resource) {
        let n = res.partition_count();
        let p = &self.pats[j];
        let period_key = p.key_space.and_then(|ks| self.dists[ks].sequential_key(s)).unwrap_or(0);
        let st = &self.state[j];
        if st.weights.len() == n && st.weights_key == (period_key, n) {
            return;
        }
        let w = match p.key_space {
            None => vec![1.0 / n as f64; n],
            Some(ks) => {
                let count = p.shards.map_or(1, |s| s.count);
                // Mass each shard of a key receives per request touching that key.
                let per_shard = if p.fanout > 1 { 1.0 } else { 1.0 / count as f64 };
                self.key_weights(ks, count, per_shard, self.span(j, ks, res.is_index()), res, s)
            }
        };
        let cumulative = w
            .iter()
            .scan(0.0, |acc, &x| {
                *acc += x;
                Some(*acc)
            })
            .collect();
        let st = &mut self.state[j];
        st.weights = w;
        st.cumulative = cumulative;
        st.weights_key = (period_key, n);
    }

    /// Expected requests on each partition of `res` per request to a value of key space `ks`
    /// drawn by its law at second `s`: each of its `count` shards receiving `per_shard`, on
    /// the items `layout` says (the tail spread by hash range).
    pub(super) fn key_weights(&self, ks: usize, count: u64, per_shard: f64, layout: Option<Span>, res: &Resource, s: u64) -> Vec<f64> {
        let mut w = vec![0.0; res.partition_count()];
        let dist = &self.dists[ks];
        let spread = |w: &mut [f64], rank: u64, mass: f64| {
            if count > MAX_TRACKED_SHARDS {
                add_by_range(w, res, mass * per_shard * count as f64);
            } else {
                for sh in 0..count {
                    add_mass(w, res, layout, key_hash(self.salt, ks as u64, rank, sh), mass * per_shard);
                }
            }
        };
        if let Some(key) = dist.sequential_key(s) {
            spread(&mut w, key, 1.0);
        } else {
            for (rank, &pr) in dist.head.iter().enumerate().take(HEAD_KEYS as usize) {
                if pr > 0.0 {
                    spread(&mut w, rank as u64, pr);
                }
            }
            if dist.tail_prob > 0.0 {
                add_by_range(&mut w, res, dist.tail_prob * per_shard * count as f64);
            }
        }
        w
    }
}
