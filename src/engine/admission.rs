//! Admitting a second's attempts: in bulk when the whole second surely fits (fast fidelity),
//! otherwise one by one in `(time, seq)` order with the retries that come due.
//!
//! Every attempt is counted as sent (what it asked for), every admitted charge passes through
//! `Admission::admitted` (what it stores: bytes, an index write's propagation delay), and every
//! served request through `Admission::settle` (its latency, the pattern's served count). The
//! bulk path and the replay path share them, so a behaviour that stores or charges something
//! on an admitted request is added in one place.

use super::attempt::{Attempt, SimpleCount, FOLLOW};
use super::draw::{Arrival, CompactSecond, Run};
use super::queue::{EventQueue, Keyed};
use crate::metrics::Recorder;
use crate::model::client::{AfterThrottle, Client};
use crate::model::indexes::{IndexState, ItemCollections};
use crate::model::request::{Charge, Charges, CompiledPattern, Kind, Paced};
use crate::model::resource::{block_shift, Resource, BLOCK_BITS, MANY_PARTITIONS};
use crate::model::{Dim, Reason};
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime, MICROS_PER_SEC};
use rand::Rng;
use std::collections::BTreeMap;

mod replay;

mod scratch;

/// Partitions from which a one-pattern compact second is checked and taken partition by
/// partition ([`Admission::admits_by_partition`]): [`MANY_PARTITIONS`].
#[cfg(not(test))]
#[inline]
fn by_partition_from() -> usize {
    MANY_PARTITIONS
}

#[cfg(test)]
thread_local! {
    /// [`by_partition_from`] on this thread (a test sets it to 1 to compare the path with the
    /// replay on a small table).
    pub(crate) static BY_PARTITION_FROM: std::cell::Cell<usize> = const { std::cell::Cell::new(MANY_PARTITIONS) };
}

#[cfg(test)]
fn by_partition_from() -> usize {
    BY_PARTITION_FROM.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    /// How [`Admission::admits_by_partition`] decided on this thread: every partition surely
    /// fitting by the busiest block, by each partition, or some partition not surely.
    pub(crate) static BY_PARTITION_DECIDED: std::cell::Cell<[u64; 3]> = const { std::cell::Cell::new([0; 3]) };
}

/// Counts a decision of [`Admission::admits_by_partition`] (tests only).
#[inline]
fn decided(_how: usize) {
    #[cfg(test)]
    BY_PARTITION_DECIDED.with(|c| {
        let mut v = c.get();
        v[_how] += 1;
        c.set(v);
    });
}

/// Buffers reused every second.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Per resource and dimension: demand on each partition this second.
    demand: Vec<[Vec<u64>; 2]>,
    /// (resource, dimension, partition) with demand.
    touched: Vec<(u16, u8, u32)>,
    /// Per pattern: first attempts admitted in bulk this second, and their milli-units.
    per_pattern: Vec<(u64, u64)>,
    /// Charges taken so far by an all-or-nothing admission, with the burst credit each drew.
    taken: Vec<(Charge, u64)>,
    /// Closed-loop requests answered: (pattern, µs, failed).
    tickets: Vec<(u32, u64, bool)>,
    /// A replayed batch's order: (time, request number, place in the batch).
    order: Vec<(u64, u64, u32)>,
    /// The same order packed: (time and request number in one word, place in the batch).
    packed: Vec<(u64, u32)>,
    /// Bucket starts and fill positions of the packed sort.
    starts: Vec<u32>,
    fill: Vec<u32>,
    /// The packed keys in batch order.
    keys: Vec<u64>,
    /// Per resource and dimension: the milli-units each partition's attempts ask for this
    /// second, before the eventually consistent reads' replica spread (what burst credit pays).
    asked: Vec<[Vec<u64>; 2]>,
    /// Per resource: the milli-units of each dimension asked for this second.
    totals: Vec<[u64; 2]>,
    /// A replayed batch's attempts while they are put in order.
    slots: Vec<Option<Attempt>>,
    /// Per pattern: requests served at their first attempt in this replay, not yet settled
    /// (each waited only the service time, so they are settled once, together).
    served_at_once: Vec<u64>,
    /// A one-pattern compact second's requests by partition (each partition's in time
    /// order), when [`Self::sort_by_partition`] sorted them this second (`sorted`), with its
    /// groups when listed: (partition, start, end) in `by_part`.
    by_part: Vec<Arrival>,
    sorted: bool,
    by_part_tmp: Vec<Arrival>,
    groups: Vec<(u32, u32, u32)>,
    /// Radix counts of the sort.
    radix: Vec<u32>,
}

impl Scratch {
    /// Buffers for resources of these partition counts.
    pub(crate) fn new(partitions: impl Iterator<Item = usize>) -> Self {
        // Zeroed allocations (not clones): large ones are mapped lazily, and a path that never
        // counts demand never touches them.
        let demand: Vec<[Vec<u64>; 2]> = partitions.map(|n| [vec![0; n], vec![0; n]]).collect();
        Self {
            asked: demand.iter().map(|d| [vec![0; d[0].len()], vec![0; d[1].len()]]).collect(),
            totals: vec![[0; 2]; demand.len()],
            packed: Vec::new(),
            starts: Vec::new(),
            fill: Vec::new(),
            keys: Vec::new(),
            demand,
            touched: Vec::new(),
            per_pattern: Vec::new(),
            taken: Vec::new(),
            tickets: Vec::new(),
            order: Vec::new(),
            slots: Vec::new(),
            served_at_once: Vec::new(),
            by_part: Vec::new(),
            sorted: false,
            by_part_tmp: Vec::new(),
            groups: Vec::new(),
            radix: Vec::new(),
        }
    }
}

/// The state one second's admission works on, borrowed from the simulation.
pub(crate) struct Admission<'a> {
    pub(crate) res: &'a mut [Resource],
    pub(crate) pats: &'a [CompiledPattern],
    pub(crate) rec: &'a mut Recorder,
    pub(crate) client: &'a mut Client,
    pub(crate) retries: &'a mut EventQueue<Attempt>,
    pub(crate) jitter: &'a mut SimRng,
    pub(crate) indexes: &'a mut [Option<IndexState>],
    pub(crate) collections: &'a mut ItemCollections,
    pub(crate) scratch: &'a mut Scratch,
    /// The table's own resources (those from here are other tables', lent for the second).
    pub(crate) own: usize,
    /// Other tables' resources lent for the second: (first, end) of each table.
    pub(crate) lent: &'a [(usize, usize)],
    /// Per resource: it exists (the lent ones' too).
    pub(crate) active: &'a [bool],
    /// Per pattern: the write its answered gets send to another table, if any.
    pub(crate) follows: &'a mut [Option<super::draw::Leg>],
    /// Latency of a successful attempt, µs.
    pub(crate) service_us: u64,
}

impl Admission<'_> {
    /// Would the whole second's demand fit, whatever its order? Every partition within its cap
    /// and every resource within its table-level budget, without burst credit.
    pub(crate) fn fits(&mut self, simple: &[SimpleCount], batch: &[Attempt]) -> bool {
        // A full GSI buffer rejects every base-table write: decided one by one.
        if self.blocked().is_some()
            && (!self.lent.is_empty()
                || simple.iter().any(|c| self.pats[c.pat as usize].writes_table())
                || batch.iter().any(|a| a.charges.as_slice().iter().any(|c| c.res == 0 && c.dim == Dim::Write)))
        {
            return false;
        }
        let indexes = &*self.indexes;
        let buffered = |r: usize| indexes[r].as_ref().is_some_and(|i| i.buffer.is_some());
        let Scratch { demand, touched, totals, .. } = &mut *self.scratch;
        touched.clear();
        let mut add = |res: u16, dim: Dim, part: u32, u: u64| {
            let slot = &mut demand[res as usize][dim as usize][part as usize];
            if *slot == 0 {
                touched.push((res, dim as u8, part));
            }
            *slot += u;
        };
        totals.clear();
        totals.resize(self.res.len(), [0; 2]);
        for c in simple {
            let p = &self.pats[c.pat as usize];
            let u = c.count * c.units;
            if let Some(g) = c.gsi {
                let r = p.gsi[g as usize].res;
                add(r as u16, Dim::Write, c.part, u);
                if !buffered(r) {
                    totals[r][Dim::Write as usize] += u;
                }
                continue;
            }
            // Partitions see an eventually consistent read at its replica-spread cost.
            add(p.res as u16, p.dim, c.part, if p.ec_read { self.res[p.res].ec_partition_units(u) } else { u });
            totals[p.res][p.dim as usize] += u;
        }
        // Writes into size-capped item collections are decided one by one, and so are the pages
        // of a paged Query or Scan (each page is sent when the one before it is served).
        let mut ok = !batch.iter().any(|a| one_by_one(self.pats, a));
        for a in batch {
            let ec = self.pats[a.pat as usize].ec_read;
            for c in a.charges.as_slice() {
                let part_units = if ec && c.dim == Dim::Read { self.res[c.res as usize].ec_partition_units(c.units) } else { c.units };
                add(c.res, c.dim, c.part, part_units);
                if !(c.dim == Dim::Write && buffered(c.res as usize)) {
                    totals[c.res as usize][c.dim as usize] += c.units;
                }
            }
        }
        ok = ok
            && totals
                .iter()
                .enumerate()
                .all(|(r, t)| t[0] <= self.res[r].table_room(Dim::Read) && t[1] <= self.res[r].table_room(Dim::Write));
        if ok {
            for &(r, d, p) in touched.iter() {
                let dim = if d == 0 { Dim::Read } else { Dim::Write };
                let u = demand[r as usize][d as usize][p as usize];
                let other = demand[r as usize][1 - d as usize][p as usize];
                if dim == Dim::Write && buffered(r as usize) {
                    // Index writes into a buffer: they fit while it does not fill.
                    let room = indexes[r as usize]
                        .as_ref()
                        .and_then(|i| i.buffer.as_ref())
                        .map_or(0, |b| b.room(&self.res[r as usize], p as usize));
                    if u > room {
                        ok = false;
                        break;
                    }
                } else if !self.res[r as usize].partition_fits_now(p as usize, dim, u, other) {
                    ok = false;
                    break;
                }
            }
        }
        for &(r, d, p) in touched.iter() {
            demand[r as usize][d as usize][p as usize] = 0;
        }
        ok
    }

    /// Admits a second known to fit, all from the table-level budgets. Per-partition counts are
    /// settled once per pattern: every such request was served at its first attempt.
    pub(crate) fn admit_bulk(&mut self, simple: &[SimpleCount], batch: &[Attempt]) {
        let service = self.service_us;
        let mut first_successes = 0;
        let mut per_pattern = std::mem::take(&mut self.scratch.per_pattern);
        per_pattern.clear();
        per_pattern.resize(self.pats.len(), (0, 0));
        for c in simple {
            let j = c.pat as usize;
            if let Some(g) = c.gsi {
                self.index_writes_bulk(j, g as usize, c);
                continue;
            }
            let p = &self.pats[j];
            self.res[p.res].take_bulk(c.part as usize, p.dim, c.count * c.units, p.ec_read);
            if p.base_delta != 0 {
                let charge = Charge { res: p.res as u16, dim: p.dim, part: c.part, units: c.units };
                self.store(j, &charge, c.count);
            }
            self.tally_entity(j, p.res, c.part, c.count * c.units);
            per_pattern[j].0 += c.count;
            per_pattern[j].1 += c.count * c.units;
        }
        for (j, &(count, units)) in per_pattern.iter().enumerate().filter(|(_, c)| c.0 > 0) {
            let p = &self.pats[j];
            let cur = &mut self.rec.cur[p.res];
            cur.requested[p.dim as usize] += units;
            cur.offered[p.dim as usize] += units;
            self.rec.minute_attempts[0] += count;
            self.rec.minute_attempts[3] += count;
            let t = &mut self.rec.patterns[j];
            t.attempts += count;
            t.offered += count;
            t.pages_sent += count;
            self.settle(j, count, service + self.pats[j].mrsc_us);
            first_successes += count;
        }
        self.scratch.per_pattern = per_pattern;
        for a in batch {
            let charges = a.charges.as_slice();
            let ec = self.pats[a.pat as usize].ec_read;
            for c in charges {
                if !self.is_buffered(c) {
                    self.res[c.res as usize].take_bulk(c.part as usize, c.dim, c.units, ec && c.dim == Dim::Read);
                }
            }
            self.on_attempt(a.pat as usize, charges, a.n, a.page, 1);
            if a.n == 1 {
                first_successes += 1;
            } else {
                let inst = self.client.instance_of(a.seq);
                self.client.on_success(inst, a.n);
            }
            self.admitted_attempt(a, charges);
            self.settle(a.pat as usize, 1, (a.time.since(a.first)).as_micros() + service + self.pats[a.pat as usize].mrsc_us);
        }
        self.client.on_bulk_success(first_successes);
    }

    /// `c`, index writes of GSI `g` of pattern `j`'s requests, admitted with them: what each
    /// charges and stores (as [`Self::on_attempt`] and [`Self::admitted`] for one request).
    fn index_writes_bulk(&mut self, j: usize, g: usize, c: &SimpleCount) {
        let charge = Charge { res: self.pats[j].gsi[g].res as u16, dim: Dim::Write, part: c.part, units: c.units };
        let (r, u) = (charge.res as usize, c.count * c.units);
        if !self.is_buffered(&charge) {
            self.res[r].take_bulk(c.part as usize, Dim::Write, u, false);
        }
        let cur = &mut self.rec.cur[r];
        cur.requested[Dim::Write as usize] += u;
        cur.offered[Dim::Write as usize] += u;
        self.admitted(j, &[charge], c.count);
    }

    /// Would every attempt of `batch` (a second that does not fit without burst credit, its
    /// arrivals drawn) be admitted, whatever its order? Each partition's buckets hold its
    /// whole demand at the second's start, and where a resource's demand is above its
    /// table-level room, each partition's burst credit covers all that partition asks for (an
    /// attempt draws from burst credit at most what it asks, so the credit never runs short).
    /// Closed loops, paged requests, size-capped item collections and index buffers are
    /// decided one by one, as in [`Self::fits`].
    pub(crate) fn admits_all(&mut self, batch: &[Attempt]) -> bool {
        if self.blocked().is_some() || batch.iter().any(|a| one_by_one(self.pats, a)) {
            return false;
        }
        let buffered: Vec<bool> = (0..self.res.len()).map(|r| self.buffered(r)).collect();
        let is_buffered = |c: &Charge| c.dim == Dim::Write && c.res != 0 && buffered[c.res as usize];
        if buffered.iter().any(|&b| b) && !self.buffers_hold(batch.iter().flat_map(|a| a.charges.as_slice()).filter(|c| is_buffered(c))) {
            return false;
        }
        let pats = self.pats;
        let ec = batch.iter().any(|a| pats[a.pat as usize].ec_read);
        self.admits_charges(
            batch.iter().flat_map(|a| {
                let ec = pats[a.pat as usize].ec_read;
                a.charges.as_slice().iter().filter(|c| !is_buffered(c)).map(move |c| (*c, ec))
            }),
            ec,
        )
    }

    /// Do the index writes `charges` (each into a buffer) leave every buffer short of full,
    /// whatever their order? A buffer that filled would reject the table's later writes.
    fn buffers_hold<'c>(&self, charges: impl Iterator<Item = &'c Charge>) -> bool {
        let mut demand: BTreeMap<(u16, u32), u64> = BTreeMap::new();
        for c in charges {
            *demand.entry((c.res, c.part)).or_default() += c.units;
        }
        demand.into_iter().all(|((r, p), u)| {
            let r = r as usize;
            self.indexes[r].as_ref().and_then(|i| i.buffer.as_ref()).is_some_and(|b| u < b.room(&self.res[r], p as usize))
        })
    }

    /// [`Self::admits_all`] of a compact second (its patterns are decided one by one by
    /// neither rule: [`super::draw::Traffic::compact_second`]).
    pub(crate) fn admits_compact(&mut self, second: &CompactSecond) -> bool {
        if self.blocked().is_some() || second.runs.iter().any(|run| self.is_buffered(&run.charge)) {
            return false;
        }
        /// Arrivals ahead whose demand slot is fetched (with many partitions each is far from
        /// the last).
        const AHEAD: usize = 16;
        let any_ec = second.runs.iter().any(|run| self.pats[run.pat as usize].ec_read);
        self.scratch.sorted = false;
        if let [run] = second.runs.as_slice() {
            let c = run.charge;
            let n = self.res[c.res as usize].partition_count();
            if n >= by_partition_from() {
                // The draw's counts, if by this resource's blocks.
                let counts = Some(&second.counts[..]).filter(|_| second.count_shift == block_shift(n));
                return self.admits_by_partition(&second.arrivals[run.start..run.end], run, counts);
            }
            if second.count_shift == 0 && second.counts.len() >= n {
                // Each partition's demand is its count of requests, counted as they were drawn.
                let fits = Self::partition_fits(self.res, self.pats, run, run.end - run.start);
                return second.counts[..n].iter().enumerate().all(|(p, &k)| k == 0 || fits(p, u64::from(k)));
            }
        }
        self.scratch.start_demand(self.res.len());
        for run in &second.runs {
            let ec = self.pats[run.pat as usize].ec_read;
            let arrivals = &second.arrivals[run.start..run.end];
            if !any_ec {
                self.scratch.add_run_demand(&run.charge, arrivals);
                continue;
            }
            for (i, a) in arrivals.iter().enumerate() {
                if let Some(ahead) = arrivals.get(i + AHEAD) {
                    self.scratch.prefetch_demand(&Charge { part: ahead.part, ..run.charge });
                }
                self.scratch.add_demand(self.res, &Charge { part: a.part, ..run.charge }, ec, any_ec);
            }
        }
        self.scratch.demand_fits(self.res, any_ec)
    }

    /// [`Self::admits_compact`] of one pattern's requests `arrivals` on a resource of many
    /// partitions. First by blocks of adjacent partitions (`counts`, when the draw counted them
    /// by this resource's blocks): if the busiest block fits on top of the most debt any
    /// partition can hold ([`Resource::every_partition_fits`]), every partition holds its
    /// requests, none visited, and the partitions' pass takes them in time order, each
    /// partition's bucket of the dimension fetched 32 takes ahead (a bucket is 16 bytes, apart
    /// from the rest of its partition's state: sorting the requests by block first, which kept
    /// a pass over 128-byte partitions within a few of them at a time, was slower once the
    /// buckets were 32 bytes, on 100,000 partitions and on 1.3 million). Else sorted by
    /// partition, so that each partition's demand is its count of requests and the partitions
    /// are checked (and then taken) in order, each fetched once (32 ahead), where counting
    /// demand request by request reached a random partition's slot and state for each.
    fn admits_by_partition(&mut self, arrivals: &[Arrival], run: &Run, counts: Option<&[u32]>) -> bool {
        let res = &self.res[run.charge.res as usize];
        let (dim, part_units, over) = Self::run_terms(self.res, self.pats, run, arrivals.len());
        if !over {
            // By blocks of adjacent partitions: no partition is asked for more than its block,
            // and if the busiest block fits the fullest partition, every partition holds its
            // requests.
            let most = match counts {
                Some(counts) => counts.iter().copied().max().unwrap_or(0),
                None => self.scratch.busiest_block(arrivals, res.partition_count()),
            };
            if res.every_partition_fits(dim, u64::from(most) * part_units) {
                decided(0);
                return true;
            }
        }
        self.scratch.sort_by_partition(arrivals, res.partition_count());
        self.scratch.group_by_partition();
        let fits = Self::partition_fits(self.res, self.pats, run, arrivals.len());
        let groups = &self.scratch.groups;
        let all = groups.iter().enumerate().all(|(k, &(p, start, end))| {
            if let Some(&(ahead, _, _)) = groups.get(k + 32) {
                res.prefetch_bucket(ahead as usize, dim);
            }
            fits(p as usize, u64::from(end - start))
        });
        self.scratch.sorted = all;
        decided(if all { 1 } else { 2 });
        all
    }

    /// The rule of [`Self::admits_all`] for a second of one run of `len` requests: does
    /// partition `p`, asked for `n` of them, surely hold them?
    fn partition_fits<'a>(res: &'a [Resource], pats: &[CompiledPattern], run: &Run, len: usize) -> impl Fn(usize, u64) -> bool + 'a {
        let (dim, part_units, over) = Self::run_terms(res, pats, run, len);
        let (units, res) = (run.charge.units, &res[run.charge.res as usize]);
        move |p, n| res.surely_fits(p, dim, n * part_units, 0, n * units, over)
    }

    /// The terms of [`Self::partition_fits`]: the run's dimension, what each request asks of
    /// its partition's bucket (an eventually consistent read less, spread over the replicas),
    /// and whether the run asks for more than the table-level room (its partitions' burst
    /// credit must then hold what they ask for).
    fn run_terms(res: &[Resource], pats: &[CompiledPattern], run: &Run, len: usize) -> (Dim, u64, bool) {
        let c = run.charge;
        let ec = pats[run.pat as usize].ec_read && c.dim == Dim::Read;
        let res = &res[c.res as usize];
        let part_units = if ec { res.ec_partition_units(c.units) } else { c.units };
        (c.dim, part_units, c.units * len as u64 > res.table_room(c.dim))
    }

    /// The rule of [`Self::admits_all`] over charges (each with whether it is an eventually
    /// consistent read's; `any_ec`: some is).
    fn admits_charges(&mut self, charges: impl Iterator<Item = (Charge, bool)>, any_ec: bool) -> bool {
        self.scratch.start_demand(self.res.len());
        for (c, ec) in charges {
            self.scratch.add_demand(self.res, &c, ec, any_ec);
        }
        self.scratch.demand_fits(self.res, any_ec)
    }

    /// Admits a compact second [`Self::admits_compact`] accepted, as [`Self::admit_sure`]
    /// admits its attempts: the buckets take each request in time order (the patterns' runs
    /// merged), and the counts, the latencies and the client's retry quota take each
    /// pattern's requests at once (each was served at its first attempt, after the service
    /// time).
    pub(crate) fn admit_compact(&mut self, second: &CompactSecond) {
        let t0 = second.second_us;
        // What each request stores (its bytes, its entity type's share) only where there is
        // something to store: a get stores nothing.
        let stores: Vec<bool> = second
            .runs
            .iter()
            .map(|run| {
                let p = &self.pats[run.pat as usize];
                p.res != run.charge.res as usize || p.delta_on(p.res) != 0 || (self.rec.entity_use.on() && p.entity.is_some())
            })
            .collect();
        let take = |adm: &mut Self, k: usize, run: &Run, a: &Arrival| {
            let j = run.pat as usize;
            let c = Charge { part: a.part, ..run.charge };
            let res = &mut adm.res[c.res as usize];
            res.set_time(t0 + u64::from(a.offset_us));
            res.take_sure(c.part as usize, c.dim, c.units, adm.pats[j].ec_read && c.dim == Dim::Read);
            if stores[k] {
                adm.admitted(j, &[c], 1);
            }
        };
        match second.runs.as_slice() {
            [] => {}
            [run] if !stores[0] => {
                // One pattern storing nothing (the common case: reads): the buckets take the
                // run on their own.
                let arrivals = &second.arrivals[run.start..run.end];
                let c = run.charge;
                let ec = self.pats[run.pat as usize].ec_read && c.dim == Dim::Read;
                // The partitions' pass by partition when the check sorted them.
                let by_part = if self.scratch.sorted { &self.scratch.by_part[..] } else { arrivals };
                debug_assert_eq!(by_part.len(), arrivals.len());
                self.res[c.res as usize].take_run_sure(
                    arrivals,
                    by_part,
                    |a| (t0 + u64::from(a.offset_us), a.part as usize),
                    c.dim,
                    c.units,
                    ec,
                );
            }
            [run] => {
                let arrivals = &second.arrivals[run.start..run.end];
                for (i, a) in arrivals.iter().enumerate() {
                    if let Some(ahead) = arrivals.get(i + 16) {
                        self.res[run.charge.res as usize].prefetch(ahead.part as usize, run.charge.dim);
                    }
                    take(self, 0, run, a);
                }
            }
            runs => {
                // The runs merged by (time, request number): each run is in time order and
                // the runs are in request-number order, so a tie goes to the earlier run.
                let mut next: Vec<usize> = runs.iter().map(|r| r.start).collect();
                loop {
                    let mut best: Option<(usize, u32)> = None;
                    for (k, run) in runs.iter().enumerate() {
                        if next[k] < run.end {
                            let t = second.arrivals[next[k]].offset_us;
                            if best.is_none_or(|(_, bt)| t < bt) {
                                best = Some((k, t));
                            }
                        }
                    }
                    let Some((k, _)) = best else { break };
                    take(self, k, &runs[k], &second.arrivals[next[k]]);
                    next[k] += 1;
                }
            }
        }
        for run in &second.runs {
            let j = run.pat as usize;
            let count = (run.end - run.start) as u64;
            self.on_attempt(j, &[run.charge], 1, 0, count);
            self.client.on_first_successes(run.seq0, count);
            self.settle(j, count, self.service(j));
        }
    }

    /// Admits a batch [`Self::admits_all`] accepted, in `(time, seq)` order as
    /// [`Self::replay`] would: every attempt is served, and what it leaves (the buckets, the
    /// burst credit each partition spent, the counts, the client's retry quota) is the
    /// replay's, without its throttling branches.
    pub(crate) fn admit_sure(&mut self, batch: &mut Vec<Attempt>) {
        self.scratch.served_at_once.resize(self.pats.len(), 0);
        self.scratch.sort_keys(batch);
        let order = std::mem::take(&mut self.scratch.packed);
        for &(_, i) in &order {
            let a = &batch[i as usize];
            let j = a.pat as usize;
            let charges = a.charges.as_slice();
            let t = a.time.as_micros();
            let ec = self.pats[j].ec_read;
            self.on_attempt(j, charges, a.n, a.page, 1);
            for c in charges {
                let buffered = self.is_buffered(c);
                let res = &mut self.res[c.res as usize];
                res.set_time(t);
                if !buffered {
                    // An index write into a buffer is pushed when the attempt is admitted.
                    res.take_sure(c.part as usize, c.dim, c.units, ec && c.dim == Dim::Read);
                }
            }
            let instance = self.client.instance_of(a.seq);
            self.client.on_success(instance, a.n);
            self.admitted_attempt(a, charges);
            let waited = a.time.since(a.first).as_micros();
            if waited == 0 {
                self.scratch.served_at_once[j] += 1;
            } else {
                self.settle(j, 1, waited + self.service(j));
            }
        }
        self.scratch.packed = order;
        self.settle_served_at_once();
        batch.clear();
    }
}

/// Is attempt `a` decided only in order: a write into a size-capped item collection, a page
/// of a paged Query or Scan (sent when the one before it is served), a closed loop's request
/// (the next follows its answer) or a get whose answer sends a write to another table?
fn one_by_one(pats: &[CompiledPattern], a: &Attempt) -> bool {
    let p = &pats[a.pat as usize];
    p.collection_growth.is_some() || p.paged || p.closed_loop || p.chained
}

/// The items of a batch: each starts with its charge on the pattern's resource `base`, followed
/// by the index writes it causes.
fn item_groups(charges: &[Charge], base: u16) -> impl Iterator<Item = &[Charge]> {
    charges.chunk_by(move |_, next| next.res != base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(time_us: u64, seq: u64) -> Attempt {
        let t = SimTime::from_micros(time_us);
        let charge = Charge { res: 0, dim: Dim::Read, part: 0, units: 1_000 };
        Attempt { time: t, seq, first: t, pat: 0, n: 1, key: 0, charges: Charges::One(charge), rest: 0, page: 0, cond_failed: false }
    }

    /// The order a comparison sort of (time, request number) gives, earliest first.
    fn by_comparison(batch: &[Attempt]) -> Vec<u32> {
        let mut order: Vec<(u64, u64, u32)> = batch.iter().enumerate().map(|(i, a)| (a.time.as_micros(), a.seq, i as u32)).collect();
        order.sort_unstable();
        order.into_iter().map(|x| x.2).collect()
    }

    proptest::proptest! {
        /// The bucket sort of a replayed second gives the comparison sort's order: times
        /// spread over the second, bunched on a few instants (ties broken by request number),
        /// request numbers far apart (old retries), and spans too wide to pack.
        #[test]
        fn packed_order_is_the_comparison_order(
            times in proptest::collection::vec(0u64..1_000_000, 0..400),
            bunched in 0usize..3,
            wide in proptest::prelude::any::<bool>(),
        ) {
            let base = 7_000_000;
            let batch: Vec<Attempt> = times
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    let t = match bunched { 0 => t, 1 => t % 5, _ => t % 40 * 25_000 };
                    let seq = if wide && i % 7 == 0 { i as u64 } else { 50_000_000 + (i as u64 * 7_919) % 1_000 * 1_000 + i as u64 };
                    attempt(base + t + if wide && i == 3 { 5_000_000 } else { 0 }, seq)
                })
                .collect();
            let mut s = Scratch::new(std::iter::once(1));
            s.sort_keys(&batch);
            let got: Vec<u32> = s.packed.iter().map(|k| k.1).collect();
            proptest::prop_assert_eq!(got, by_comparison(&batch));
            let mut latest = batch.clone();
            s.latest_first(&mut latest);
            let seqs: Vec<u64> = latest.iter().rev().map(|a| a.seq).collect();
            let want: Vec<u64> = by_comparison(&batch).iter().map(|&i| batch[i as usize].seq).collect();
            proptest::prop_assert_eq!(seqs, want);
        }
    }
}
