//! The admission's scratch space: attempts sorted by partition and by time, and each second's demand per partition, summed and checked against what surely fits.

use super::*;

impl Scratch {
    /// The most of `run`'s requests on one block of adjacent partitions (the top 11 bits of
    /// the partition, [`block_shift`]): at least the most on one partition.
    pub(super) fn busiest_block(&mut self, run: &[Arrival], partitions: usize) -> u32 {
        let shift = block_shift(partitions);
        let radix = &mut self.radix;
        radix.clear();
        radix.resize(1 << BLOCK_BITS, 0);
        for a in run {
            radix[(a.part >> shift) as usize] += 1;
        }
        radix.iter().copied().max().unwrap_or(0)
    }

    /// Sorts `run` by partition (stably: each partition's requests stay in time order) into
    /// `by_part`: a radix sort of at most 11 bits a pass over partitions `0..partitions`. Every
    /// pass's counts are taken in one read, the first pass reads `run` itself, and the buffers
    /// are sized without clearing (every slot is written).
    pub(super) fn sort_by_partition(&mut self, run: &[Arrival], partitions: usize) {
        /// Bits a pass.
        const BITS: u32 = BLOCK_BITS;
        let Self { by_part, by_part_tmp, radix, sorted, .. } = self;
        *sorted = true;
        let n = run.len();
        for v in [&mut *by_part, &mut *by_part_tmp] {
            v.resize(n, Arrival { offset_us: 0, part: 0 });
        }
        let bits = usize::BITS - partitions.saturating_sub(1).leading_zeros();
        let passes = bits.div_ceil(BITS).max(1);
        let width = bits.div_ceil(passes);
        let mask = (1u32 << width) - 1;
        let size = 1usize << width;
        radix.clear();
        radix.resize(passes as usize * size, 0);
        for a in run {
            for pass in 0..passes {
                radix[pass as usize * size + ((a.part >> (pass * width)) & mask) as usize] += 1;
            }
        }
        for starts in radix.chunks_exact_mut(size) {
            let mut at = 0;
            for c in starts {
                let k = *c;
                *c = at;
                at += k;
            }
        }
        // The last pass writes `by_part`.
        let odd = passes % 2 == 1;
        for (pass, starts) in (0..passes).zip(radix.chunks_exact_mut(size)) {
            let into_by_part = (pass % 2 == 0) == odd;
            let (src, dst): (&[Arrival], &mut [Arrival]) = match (pass, into_by_part) {
                (0, true) => (run, by_part),
                (0, false) => (run, by_part_tmp),
                (_, true) => (by_part_tmp, by_part),
                (_, false) => (by_part, by_part_tmp),
            };
            let shift = pass * width;
            for a in src {
                let b = &mut starts[((a.part >> shift) & mask) as usize];
                dst[*b as usize] = *a;
                *b += 1;
            }
        }
    }

    /// Lists each partition's requests of `by_part` in `groups`: (partition, start, end).
    pub(super) fn group_by_partition(&mut self) {
        let Self { by_part, groups, .. } = self;
        groups.clear();
        let mut start = 0;
        for i in 1..=by_part.len() {
            if i == by_part.len() || by_part[i].part != by_part[start].part {
                groups.push((by_part[start].part, start as u32, i as u32));
                start = i;
            }
        }
    }

    /// Puts `batch` latest first by (time, request number), sorting keys and moving each
    /// attempt once. Request numbers are unique, so the order is the only one.
    pub(super) fn latest_first(&mut self, batch: &mut Vec<Attempt>) {
        self.sort_keys(batch);
        let slots = &mut self.slots;
        slots.clear();
        slots.extend(batch.drain(..).map(Some));
        batch.extend(self.packed.iter().rev().map(|&(_, i)| slots[i as usize].take().expect("each place is taken once")));
    }

    /// `packed`: the places of `batch`'s attempts in `(time, request number)` order, earliest
    /// first.
    ///
    /// Most batches span under 2^21 µs and 2^43 request numbers: one word then holds the key
    /// (the time's offset above the request number's), and since a replayed second's arrival
    /// times are spread over it, the keys are counted into about one bucket per attempt by
    /// time and each bucket's few are put in order by insertion: linear time, where a
    /// comparison sort of a second's thousands of attempts was most of a replayed second's
    /// cost. Other batches take a comparison sort of the same keys.
    pub(super) fn sort_keys(&mut self, batch: &[Attempt]) {
        let packed = &mut self.packed;
        packed.clear();
        let (mut t0, mut t1, mut s0, mut s1) = (u64::MAX, 0, u64::MAX, 0);
        for a in batch {
            let t = a.time.as_micros();
            (t0, t1, s0, s1) = (t0.min(t), t1.max(t), s0.min(a.seq), s1.max(a.seq));
        }
        if batch.is_empty() {
            return;
        }
        if t1 - t0 >= 1 << 21 || s1 - s0 >= 1 << 43 {
            let order = &mut self.order;
            order.clear();
            order.extend(batch.iter().enumerate().map(|(i, a)| (a.time.as_micros(), a.seq, i as u32)));
            order.sort_unstable();
            packed.extend(order.iter().map(|&(_, _, i)| (0, i)));
            return;
        }
        const SEQ_BITS: u32 = 43;
        let key = |a: &Attempt| ((a.time.as_micros() - t0) << SEQ_BITS) | (a.seq - s0);
        if batch.len() < 64 {
            packed.extend(batch.iter().enumerate().map(|(i, a)| (key(a), i as u32)));
            packed.sort_unstable_by_key(|k| k.0);
            return;
        }
        let buckets = batch.len().next_power_of_two().min(1 << 16) as u64;
        // A bucket by time: multiplying by a fixed point reciprocal (no division per key) is
        // monotonic in the time and stays below `buckets`, which is all the order needs.
        let span = t1 - t0 + 1;
        let scale = (buckets << 32) / span;
        let bucket = |k: u64| (((k >> SEQ_BITS) * scale) >> 32) as usize;
        let keys = &mut self.keys;
        keys.clear();
        keys.extend(batch.iter().map(key));
        let starts = &mut self.starts;
        starts.clear();
        starts.resize(buckets as usize + 1, 0);
        for &k in keys.iter() {
            starts[bucket(k) + 1] += 1;
        }
        for b in 0..buckets as usize {
            starts[b + 1] += starts[b];
        }
        packed.resize(batch.len(), (0, 0));
        let fill = &mut self.fill;
        fill.clear();
        fill.extend_from_slice(&starts[..buckets as usize]);
        for (i, &k) in keys.iter().enumerate() {
            let b = bucket(k);
            packed[fill[b] as usize] = (k, i as u32);
            fill[b] += 1;
        }
        for b in 0..buckets as usize {
            let run = &mut packed[starts[b] as usize..starts[b + 1] as usize];
            if run.len() > 16 {
                // Arrivals bunched in time (retries due together): a comparison sort.
                run.sort_unstable_by_key(|k| k.0);
                continue;
            }
            for x in 1..run.len() {
                let mut y = x;
                while y > 0 && run[y - 1].0 > run[y].0 {
                    run.swap(y - 1, y);
                    y -= 1;
                }
            }
        }
    }

    /// Starts counting a second's demand over `resources` ([`Self::add_demand`]).
    pub(super) fn start_demand(&mut self, resources: usize) {
        self.touched.clear();
        self.totals.clear();
        self.totals.resize(resources, [0; 2]);
    }

    /// Hints the processor to fetch the demand slot of charge `c`. Changes nothing.
    #[inline]
    pub(super) fn prefetch_demand(&self, c: &Charge) {
        if let Some(slot) = self.demand.get(c.res as usize).and_then(|d| d[c.dim as usize].get(c.part as usize)) {
            crate::hint::prefetch(slot);
        }
    }

    /// Counts charge `c` (of an eventually consistent read, `ec`, or not) in its partition's
    /// demand and its resource's total. Without eventually consistent reads in the second
    /// (`any_ec` false) what a partition's attempts ask for is its demand: only the demand is
    /// counted.
    #[inline]
    pub(super) fn add_demand(&mut self, res: &[Resource], c: &Charge, ec: bool, any_ec: bool) {
        let (r, d, p) = (c.res as usize, c.dim as usize, c.part as usize);
        let Self { demand, asked, touched, totals, .. } = self;
        if !any_ec {
            if demand[r][d][p] == 0 {
                touched.push((c.res, d as u8, c.part));
            }
            demand[r][d][p] += c.units;
            totals[r][d] += c.units;
            return;
        }
        let part_units = if ec && c.dim == Dim::Read { res[r].ec_partition_units(c.units) } else { c.units };
        if demand[r][d][p] == 0 && asked[r][d][p] == 0 {
            touched.push((c.res, d as u8, c.part));
        }
        demand[r][d][p] += part_units;
        asked[r][d][p] += c.units;
        totals[r][d] += c.units;
    }

    /// [`Self::add_demand`] of a run of requests charging `c` each on its own partition, none
    /// an eventually consistent read's (only the demand is counted), each request's demand
    /// slot fetched sixteen ahead.
    pub(super) fn add_run_demand(&mut self, c: &Charge, run: &[Arrival]) {
        /// Requests ahead whose demand slot is fetched.
        const AHEAD: usize = 16;
        let (r, d) = (c.res as usize, c.dim as usize);
        let Self { demand, touched, totals, .. } = self;
        let slots = &mut demand[r][d];
        for (i, a) in run.iter().enumerate() {
            if let Some(slot) = run.get(i + AHEAD).and_then(|ahead| slots.get(ahead.part as usize)) {
                crate::hint::prefetch(slot);
            }
            let slot = &mut slots[a.part as usize];
            if *slot == 0 {
                touched.push((c.res, d as u8, a.part));
            }
            *slot += c.units;
        }
        totals[r][d] += c.units * run.len() as u64;
    }

    /// Does the demand counted since [`Self::start_demand`] surely fit (the rule of
    /// [`Admission::admits_all`])? Clears it.
    pub(super) fn demand_fits(&mut self, res: &[Resource], any_ec: bool) -> bool {
        let Self { demand, asked, touched, totals, .. } = self;
        // Which resources' demand is above their table-level room (burst credit pays the rest).
        let over: Vec<[bool; 2]> =
            totals.iter().zip(res.iter()).map(|(t, res)| [t[0] > res.table_room(Dim::Read), t[1] > res.table_room(Dim::Write)]).collect();
        let mut ok = true;
        for (k, &(r, d, p)) in touched.iter().enumerate() {
            // With many partitions each touched one is far from the last: fetch the one
            // sixteen ahead while this one is checked.
            // Its demand slot too (an array of a slot a partition).
            if let Some(&(r, d, p)) = touched.get(k + 16) {
                res[r as usize].prefetch_bucket(p as usize, Dim::ALL[d as usize]);
                crate::hint::prefetch(&demand[r as usize][d as usize][p as usize]);
            }
            let (r, d, p) = (r as usize, d as usize, p as usize);
            let dim = if d == 0 { Dim::Read } else { Dim::Write };
            let asks = if any_ec { asked[r][d][p] } else { demand[r][d][p] };
            // The other dimension's demand only matters where reads and writes share a bucket.
            let other = if res[r].linear() { demand[r][1 - d][p] } else { 0 };
            if !res[r].surely_fits(p, dim, demand[r][d][p], other, asks, over[r][d]) {
                ok = false;
                break;
            }
        }
        for &(r, d, p) in touched.iter() {
            demand[r as usize][d as usize][p as usize] = 0;
            asked[r as usize][d as usize][p as usize] = 0;
        }
        ok
    }

    /// Resource `r` now has `n` partitions.
    pub(crate) fn resize(&mut self, r: usize, n: usize) {
        self.demand[r] = [vec![0; n], vec![0; n]];
        self.asked[r] = [vec![0; n], vec![0; n]];
    }

    /// Buffers for every resource of `res`, sized by its partitions (the resources another
    /// table lends for a second follow the table's own, and may have split since).
    pub(crate) fn cover(&mut self, res: &[Resource]) {
        for (r, x) in res.iter().enumerate() {
            let n = x.partition_count();
            if r >= self.demand.len() {
                self.demand.push([vec![0; n], vec![0; n]]);
                self.asked.push([vec![0; n], vec![0; n]]);
            } else if self.demand[r][0].len() != n {
                self.resize(r, n);
            }
        }
    }
}
