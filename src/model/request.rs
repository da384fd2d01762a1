//! What one request of an access pattern charges, and where (spec §1, §1.3, §8).
//!
//! [`CompiledPattern`] is a [`PatternSpec`] resolved once, before the run: the resource it
//! reads or writes, the capacity units an attempt costs (fixed sizes are priced once), the GSI
//! writes that follow each item, the LSI entries charged to the table, and the bytes an
//! admitted item adds to storage. The engine draws attempts from it and never reads the
//! scenario's patterns again.

use super::Dim;
use crate::limits::{ITEM_OVERHEAD_BYTES, PAGE_BYTES};
use crate::scenario::{
    EntitySpec, IndexRef, IndexWrite, LsiSpec, Op, PatternSpec, Projection, RateFactors, RateShape, ResourceId, Scenario, Shards, SizeSpec,
    VectorIndexSpec,
};
use crate::traffic::keys::KeyDist;
use crate::units::{self, Consistency};
use rand_distr::LogNormal;

/// Units on one partition of one resource.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Charge {
    /// Resource: 0 the table, `g + 1` GSI `g`.
    pub(crate) res: u16,
    /// Read or write.
    pub(crate) dim: Dim,
    /// Partition.
    pub(crate) part: u32,
    /// Milli-units.
    pub(crate) units: u64,
}

/// The charges of one attempt: one, or several admitted together or one by one.
#[derive(Clone, Debug)]
pub(crate) enum Charges {
    /// A single item on a single partition.
    One(Charge),
    /// Several items, or an item and its index writes.
    Many(Box<[Charge]>),
}

impl Charges {
    /// The charges as a slice.
    pub(crate) fn as_slice(&self) -> &[Charge] {
        match self {
            Charges::One(c) => std::slice::from_ref(c),
            Charges::Many(v) => v,
        }
    }

    /// From a list (one charge is kept inline).
    pub(crate) fn from_vec(v: Vec<Charge>) -> Self {
        if v.len() == 1 {
            Charges::One(v[0])
        } else {
            Charges::Many(v.into_boxed_slice())
        }
    }
}

/// How the charges of an attempt are admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One item on one partition: eligible for per-partition counts.
    Simple,
    /// Several charges, all admitted or none (transactions, writes with GSIs or LSIs).
    AllOrNothing,
    /// Several items admitted one by one (BatchGetItem, BatchWriteItem).
    Batch,
}

/// The writes a pattern's item causes on one GSI.
#[derive(Clone, Debug)]
pub(crate) struct GsiWrite {
    /// Bytes a successful write adds to the index (entry + 100 bytes for an insert).
    pub(crate) delta: i64,
    /// The index's resource number.
    pub(crate) res: usize,
    /// Key space of the index partition key.
    pub(crate) key_space: usize,
    /// Index writes per item (2 when the key changes: delete + put).
    pub(crate) writes: u64,
    /// Share of items that carry the index key.
    pub(crate) coverage: f64,
    /// Projection, which sizes the entry.
    pub(crate) projection: Projection,
    /// The entry's bytes where sized from the item's attributes (otherwise the projection's
    /// rule on the item's bytes).
    pub(crate) entry_bytes: Option<u64>,
    /// Entries written under fixed values of the index key (ranks) rather than drawn ones:
    /// an entry that moves (a delete on the first's partition, a put on the second's), or a
    /// new entry under one value (`(None, value)`).
    pub(crate) fixed: Option<(Option<u64>, u64)>,
}

impl GsiWrite {
    /// The fixed values written, one index write each (none when the value is drawn).
    pub(crate) fn fixed_ranks(&self) -> impl Iterator<Item = u64> {
        self.fixed.into_iter().flat_map(|(from, to)| from.into_iter().chain(std::iter::once(to)))
    }
}

/// An access pattern resolved for the run.
#[derive(Clone, Debug)]
pub(crate) struct CompiledPattern {
    /// Operation.
    pub(crate) op: Op,
    /// How its charges are admitted.
    pub(crate) kind: Kind,
    /// Resource read or written: 0 the table, `g + 1` GSI `g`, then the replicas.
    pub(crate) res: usize,
    /// Read or write.
    pub(crate) dim: Dim,
    /// What multi-region strong consistency adds to each request's latency, µs (writes).
    pub(crate) mrsc_us: u64,
    /// Key space of the partition-key values touched (none for a scan).
    pub(crate) key_space: Option<usize>,
    /// The entity type it reads or writes.
    pub(crate) entity: Option<usize>,
    /// The entity's items in each value's item collection (on the table, its LSIs and
    /// replicas): `(first, count, newest)`; `None`: the whole collection.
    pub(crate) segment: Option<(u64, u64, bool)>,
    /// Write sharding of that key space (more than one shard).
    pub(crate) shards: Option<Shards>,
    /// Requests a logical read sends (every shard under random suffixes).
    pub(crate) fanout: u64,
    /// Item sizes.
    pub(crate) size: SizeSpec,
    /// The log-normal law of item sizes, if any.
    pub(crate) lognormal: Option<LogNormal<f64>>,
    /// Items each attempt reads or writes (a query's items are split over its fan-out).
    pub(crate) items_per_attempt: u64,
    /// Read consistency.
    pub(crate) consistency: Consistency,
    /// An eventually consistent read: its partition serves `ec_read_fanout` times its cap.
    pub(crate) ec_read: bool,
    /// Milli-units of an attempt when item sizes are fixed (none when paged).
    pub(crate) fixed_units: Option<u64>,
    /// Sent by closed-loop threads: each answer (served or failed) sends the next request.
    pub(crate) closed_loop: bool,
    /// A Query or Scan that may read more than 1 MB: its attempts are pages, each charged and
    /// admitted on its own, sent one after another (spec §1).
    pub(crate) paged: bool,
    /// The most bytes a page reads: 1 MB, or `limit` items.
    pub(crate) page_bytes: u64,
    /// The LSIs every write charges: each one's projection, and its entry's bytes where sized
    /// from the item's attributes.
    pub(crate) lsi_entries: Vec<(Projection, Option<u64>)>,
    /// GSI writes of each item.
    pub(crate) gsi: Vec<GsiWrite>,
    /// Bytes a write adds to its item collection, or a delete removes (LSI tables: put_item
    /// and delete_item).
    pub(crate) collection_growth: Option<i64>,
    /// Bytes each admitted item adds to (or removes from) the table.
    pub(crate) base_delta: i64,
    /// Requests per second over time.
    pub(crate) rate: RateShape,
    /// Share of its writes whose condition fails.
    pub(crate) condition_fails: f64,
    /// A bulk put from S3: the service paces it ([`Paced`]: exactly its items, evenly, each
    /// throttled one retried until written). A flag here (the hot loops read this struct);
    /// the load's figures are [`Paced::of`]'s.
    pub(crate) paced: bool,
    /// Bytes an admitted charge on another table's resource stores (a transaction's items
    /// there and their index entries): (resource, bytes).
    pub(crate) foreign_deltas: Vec<(usize, i64)>,
    /// A get whose answer sends a write to another table (`[pattern.then]`): its requests
    /// are decided one by one.
    pub(crate) chained: bool,
}

/// A load the service paces (`[[at]] bulk_put`, spec §17): exactly `items` items sent evenly
/// over `seconds` from second `start_s` (at most `max_write_units` a second), each throttled
/// item retried by the service until it is written, never failed for throughput.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Paced {
    /// Second the load starts.
    pub(crate) start_s: u64,
    /// Items it sends.
    pub(crate) items: u64,
    /// Seconds it sends them over (at the load's cap).
    pub(crate) seconds: u64,
}

impl Paced {
    /// The pacing of pattern `p`, if it is a bulk load.
    pub(crate) fn of(p: &PatternSpec) -> Option<Self> {
        p.bulk.map(|b| Paced { start_s: b.at.as_secs(), items: b.items, seconds: b.seconds })
    }

    /// Items sent before second `k` of the load (from its start).
    fn sent_before(&self, k: u64) -> u64 {
        (u128::from(k.min(self.seconds)) * u128::from(self.items) / u128::from(self.seconds.max(1))) as u64
    }

    /// Items sent in second `s` of the run.
    pub(crate) fn count(&self, s: u64) -> u64 {
        match s.checked_sub(self.start_s) {
            Some(k) => self.sent_before(k + 1) - self.sent_before(k),
            None => 0,
        }
    }

    /// The wait before the service retries a throttled item, µs, after `attempt` attempts:
    /// 50 ms doubling to at most 1 s, with equal jitter (`jitter` in [0, 1)). The service's
    /// own retry is not published: a model choice.
    pub(crate) fn retry_delay_us(attempt: u32, jitter: f64) -> u64 {
        let cap = (50_000u64 << attempt.saturating_sub(1).min(10)).min(1_000_000);
        cap / 2 + (jitter * (cap / 2) as f64) as u64
    }
}

/// Mean bytes of an item size law.
pub(crate) fn mean_bytes(s: SizeSpec) -> u64 {
    s.mean() as u64
}

/// Bytes of an index entry of an item of `item_bytes` under projection `p` (spec §1.3): the
/// keys, plus the projected attributes (all of the item for `ALL`). Storage adds
/// [`ITEM_OVERHEAD_BYTES`].
pub(crate) fn index_entry_bytes(p: Projection, item_bytes: u64) -> u64 {
    p.entry_bytes(item_bytes)
}

/// An index entry's bytes: `sized` where the item's attributes size it, else the projection's
/// rule on an item of `item_bytes` ([`index_entry_bytes`]).
fn entry_or(p: Projection, sized: Option<u64>, item_bytes: u64) -> u64 {
    sized.unwrap_or_else(|| index_entry_bytes(p, item_bytes))
}

/// Vector write request bytes one item written to the table meters on vector index `v` (§16,
/// §17): its vector's 32-bit floats and what the index projects ([`index_entry_bytes`]: the
/// keys, at ddbsim's index key allowance, and the projected attributes of an item of
/// `item_bytes`), at least 1 KB. A delete meters the minimum (a model choice: the guide
/// states none).
pub(crate) fn vector_write_bytes(v: &VectorIndexSpec, item_bytes: u64, delete: bool) -> u64 {
    let replicated = if delete { 0 } else { vector_entry_bytes(v, item_bytes) };
    replicated.max(crate::limits::MIN_VECTOR_WRITE_BYTES)
}

/// Bytes of vector index `v`'s entry of an item of `item_bytes`: its vector's 32-bit floats and
/// the projected data (the vector index's storage adds [`ITEM_OVERHEAD_BYTES`], as a GSI's).
pub(crate) fn vector_entry_bytes(v: &VectorIndexSpec, item_bytes: u64) -> u64 {
    v.dimensions * crate::limits::VECTOR_BYTES_PER_DIMENSION + index_entry_bytes(v.projection, item_bytes)
}

/// What vector index `v` holds while the table holds `table` (bytes, or GB: the same unit
/// back): `coverage` of the table's items, each an entry sized by [`vector_entry_bytes`] plus 100
/// bytes, relative to the mean item written (as a GSI's, [`initial_index_bytes`]).
pub(crate) fn vector_index_bytes(sc: &Scenario, v: &VectorIndexSpec, table: f64) -> f64 {
    let item = mean_written_item(sc);
    let entry = (vector_entry_bytes(v, item) + ITEM_OVERHEAD_BYTES) as f64;
    table * v.coverage * entry / (item + ITEM_OVERHEAD_BYTES) as f64
}

/// Mean bytes of the items the scenario writes (its first write pattern; 1 KB without one):
/// sizes the entries of indexes built over the data already in the table.
pub(crate) fn mean_written_item(sc: &Scenario) -> u64 {
    sc.patterns.iter().find(|p| p.op.is_write()).map_or(crate::scenario::defaults::ITEM_BYTES, |p| mean_bytes(p.size))
}

/// Bytes GSI `g` holds at the start: `coverage` of the table's items, each an entry sized by
/// the projection plus 100 bytes, relative to the mean item written (spec §1.3).
pub(crate) fn initial_index_bytes(sc: &Scenario, g: usize) -> u64 {
    let spec = &sc.gsis[g];
    if let Some(b) = spec.storage_bytes {
        return b;
    }
    // With entity types, the index holds the entries of those whose items carry its key.
    if !sc.entities.is_empty() {
        return sc
            .entities
            .iter()
            .filter_map(|e| e.in_gsi(g).map(|w| (e, w.share)))
            .map(|(e, share)| {
                let entry = entry_or(spec.projection, e.gsi_entry(g), mean_bytes(e.size)) + ITEM_OVERHEAD_BYTES;
                e.count(&sc.key_spaces) as f64 * share * entry as f64
            })
            .sum::<f64>() as u64;
    }
    let mean_item = mean_written_item(sc) as f64;
    // The first write pattern's entry, where sized from its item's attributes.
    let sized = sc.patterns.iter().find(|p| p.op.is_write()).and_then(|p| p.gsi_entry(g));
    let entry = entry_or(spec.projection, sized, mean_item as u64) as f64;
    (sc.table.storage_bytes as f64 * spec.coverage * (entry + ITEM_OVERHEAD_BYTES as f64) / (mean_item + ITEM_OVERHEAD_BYTES as f64)) as u64
}

/// Bytes each item collection of each key space holds at the start: with entity types, the
/// items of those on it and their LSI entries; otherwise the table's bytes over its
/// partition-key values.
pub(crate) fn initial_collection_bytes(sc: &Scenario) -> Vec<u64> {
    let cardinality = sc.key_spaces.get(sc.table.partition_key).map_or(1, |k| k.cardinality.max(1));
    let even = sc.table.storage_bytes / cardinality;
    if sc.entities.is_empty() {
        return vec![even; sc.key_spaces.len()];
    }
    (0..sc.key_spaces.len()).map(|ks| entity_collection_bytes(sc, ks, |e| e.items)).collect()
}

/// The collections some entity type starts with another number of items (`start_items`):
/// ((key space, rank), bytes), in order.
pub(crate) fn initial_large_collections(sc: &Scenario) -> Vec<((usize, u64), u64)> {
    let mut keys: Vec<(usize, u64)> =
        sc.entities.iter().flat_map(|e| e.start_items.iter().map(move |&(rank, _)| (e.key_space, rank))).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter().map(|(ks, rank)| ((ks, rank), entity_collection_bytes(sc, ks, |e| e.items_at(rank)))).collect()
}

/// The most bytes any item collection of key space `ks` can hold within `duration_s`: the
/// largest it starts with, plus the size-capped writes of the run on its busiest key — each
/// writing pattern at its peak rate times its highest `scale_rate` factor for the whole run (a
/// sequential key space's key: for one period), deletes ignored, the busiest key's expected
/// count raised by six standard deviations of its Poisson noise and ten writes. An upper bound:
/// no collection the run writes passes it (short of a six-sigma draw).
pub(crate) fn collection_bound(sc: &Scenario, ks: usize, dist: &KeyDist, duration_s: u64) -> f64 {
    let start = initial_collection_bytes(sc).get(ks).copied().unwrap_or(0);
    let largest = initial_large_collections(sc).iter().filter(|c| c.0 .0 == ks).map(|c| c.1).max().unwrap_or(0).max(start);
    let seconds = dist.sequential_period_s.map_or(duration_s, |p| p.min(duration_s)) as f64;
    let written: f64 = sc
        .patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.key_space == Some(ks))
        .filter_map(|(j, p)| {
            let growth = CompiledPattern::new(sc, p).collection_growth.filter(|g| *g > 0)?;
            let rate = p.rate.peak() * RateFactors::of(sc, j).peak(duration_s);
            let mean = rate * p.items.max(1) as f64 * seconds * dist.max_share();
            Some((mean + 6.0 * mean.sqrt() + 10.0) * growth as f64)
        })
        .sum();
    largest as f64 + written
}

/// Bytes of one collection of key space `ks` whose entity types hold `items(entity)` items:
/// each item and its LSI entries, with their 100-byte overheads.
fn entity_collection_bytes(sc: &Scenario, ks: usize, items: impl Fn(&EntitySpec) -> u64) -> u64 {
    sc.entities
        .iter()
        .filter(|e| e.key_space == ks)
        .map(|e| items(e).saturating_mul(mean_bytes(e.size) + ITEM_OVERHEAD_BYTES + e.lsi_stored_bytes(&sc.lsis)))
        .fold(0u64, u64::saturating_add)
}

impl CompiledPattern {
    /// Resolves pattern `p` of `sc`.
    pub(crate) fn new(sc: &Scenario, p: &PatternSpec) -> Self {
        let res = sc.layout().slot(p.resource());
        let dim = if p.op.is_write() { Dim::Write } else { Dim::Read };
        let shards = p.key_space.and_then(|k| sc.key_spaces[k].shards).filter(|s| s.count > 1);
        let fanout = p.fanout(&sc.key_spaces);
        let entity = p.entity.map(|e| &sc.entities[e]);
        let gsi = gsi_writes(sc, p, entity);
        // The LSIs a write maintains: all of them, or those whose sort key the entity's (or the
        // pattern's) item carries, each entry sized by the item where it is known.
        let lsis: Vec<(&LsiSpec, Option<u64>)> = match &p.lsi_entries {
            Some(list) => list.iter().map(|&(l, b)| (&sc.lsis[l], b)).collect(),
            None => sc
                .lsis
                .iter()
                .enumerate()
                .filter(|(l, _)| entity.is_none_or(|e| e.lsi.contains(l)))
                .map(|(l, x)| (x, entity.and_then(|e| e.lsi_entry(l))))
                .collect(),
        };
        // With LSIs, an item collection (the items and LSI entries of one partition-key value)
        // is capped (spec §8): inserts are drawn with their key to track it.
        let collection_growth = collection_growth(sc, p, &lsis);
        let kind = match p.op {
            Op::BatchGet | Op::BatchWrite => Kind::Batch,
            Op::TransactGet | Op::TransactWrite => Kind::AllOrNothing,
            _ if !gsi.is_empty() || collection_growth.is_some() || p.condition_fails > 0.0 => Kind::AllOrNothing,
            _ => Kind::Simple,
        };
        let items_per_attempt = match p.op {
            Op::Query | Op::Scan if fanout > 1 => p.items.div_ceil(fanout),
            _ => p.items,
        };
        let lognormal = match p.size {
            // The mean of a log-normal law is exp(mu + sigma^2 / 2).
            SizeSpec::LogNormal { mean, sigma } => LogNormal::new(mean.ln() - sigma * sigma / 2.0, sigma).ok(),
            SizeSpec::Fixed(_) | SizeSpec::Uniform { .. } => None,
        };
        let item = (mean_bytes(p.size) + ITEM_OVERHEAD_BYTES) as i64;
        let lsi_bytes = lsis.iter().map(|(l, b)| entry_or(l.projection, *b, mean_bytes(p.size)) + ITEM_OVERHEAD_BYTES).sum::<u64>() as i64;
        let (paged, page_bytes) = paging(p, items_per_attempt);
        let mut pat = Self {
            op: p.op,
            kind,
            res,
            dim,
            mrsc_us: if dim == Dim::Write { sc.table.mrsc_write_latency.map_or(0, |d| d.as_micros()) } else { 0 },
            key_space: p.key_space,
            entity: p.entity,
            segment: entity
                .filter(|e| p.index.is_none_or(|i| matches!(i, IndexRef::Lsi(_))) && Some(e.key_space) == p.key_space)
                .map(|e| (e.offset, e.items, e.newest)),
            shards,
            fanout,
            size: p.size,
            lognormal,
            items_per_attempt,
            consistency: p.consistency,
            ec_read: dim == Dim::Read && p.consistency == Consistency::Eventual && p.op != Op::TransactGet,
            fixed_units: None,
            closed_loop: matches!(p.rate, RateShape::ClosedLoop(_)),
            paged,
            page_bytes,
            // An update rewrites the entry of an LSI that projects what it changes (ALL, INCLUDE:
            // taken to include it), and leaves a KEYS_ONLY one alone (its sort key unchanged),
            // as a GSI's default (spec §1.3).
            lsi_entries: lsis
                .iter()
                .filter(|(l, _)| p.op.is_write() && !(p.op == Op::UpdateItem && l.projection == Projection::KeysOnly))
                .map(|(l, b)| (l.projection, *b))
                .collect(),
            gsi,
            collection_growth,
            // The table stores its items and their LSI entries (spec §1.3), 100 bytes each more.
            base_delta: match p.op {
                Op::PutItem | Op::BatchWrite | Op::TransactWrite => item + lsi_bytes,
                Op::DeleteItem => -(item + lsi_bytes),
                _ => 0,
            },
            rate: p.rate.clone(),
            condition_fails: p.condition_fails,
            paced: p.bulk.is_some(),
            foreign_deltas: Vec::new(),
            chained: false,
        };
        if let (SizeSpec::Fixed(b), false) = (p.size, paged) {
            let bytes = if matches!(p.op, Op::Query | Op::Scan) { b * items_per_attempt } else { b };
            pat.fixed_units = Some(pat.units_of(bytes));
        }
        pat
    }

    /// The run cannot bring any item collection this pattern writes near a size of interest
    /// ([`collection_bound`] below the reported 1 GB, so far below the 10 GB limit): its
    /// writes are not checked one by one (they cannot be refused), and they draw in bulk.
    pub(crate) fn uncap_collections(&mut self) {
        self.collection_growth = None;
        let transaction = matches!(self.op, Op::TransactGet | Op::TransactWrite);
        if self.kind == Kind::AllOrNothing && !transaction && self.gsi.is_empty() && self.condition_fails <= 0.0 {
            self.kind = Kind::Simple;
        }
    }

    /// Bytes of one item: the fixed size, or a draw from `rng` of the log-normal law (within 1
    /// byte and 400 KB) or of the uniform one.
    #[inline]
    pub(crate) fn draw_bytes(&self, rng: &mut crate::rng::SimRng) -> u64 {
        use rand_distr::Distribution;
        match (self.size, &self.lognormal) {
            (SizeSpec::Fixed(b), _) => b,
            (SizeSpec::Uniform { lo, hi }, _) => rand::Rng::random_range(rng, lo..=hi),
            (_, Some(ln)) => (ln.sample(rng).round() as u64).clamp(1, crate::units::MAX_ITEM_BYTES),
            (SizeSpec::LogNormal { mean, .. }, None) => mean as u64,
        }
    }

    /// Milli-units of one attempt reading or writing `bytes` (the sum of its items for a query
    /// or scan, one item otherwise), LSI entries included (spec §1.2, §8).
    pub(crate) fn units_of(&self, bytes: u64) -> u64 {
        match self.op {
            Op::GetItem | Op::BatchGet => units::get_item_milli(bytes, self.consistency),
            Op::TransactGet => units::get_item_milli(bytes, Consistency::Transactional),
            Op::Query | Op::Scan => units::query_milli(bytes, self.consistency),
            Op::PutItem | Op::UpdateItem | Op::DeleteItem | Op::BatchWrite => {
                units::write_milli(bytes) + self.lsi_entries.iter().map(|&(pr, b)| units::write_milli(entry_or(pr, b, bytes))).sum::<u64>()
            }
            Op::TransactWrite => {
                units::transact_write_item_milli(bytes)
                    + self.lsi_entries.iter().map(|&(pr, b)| units::transact_write_item_milli(entry_or(pr, b, bytes))).sum::<u64>()
            }
        }
    }

    /// Milli-units of one attempt at the mean item size (a query's or scan's items summed).
    pub(crate) fn mean_milli(&self) -> u64 {
        if let Some(u) = self.fixed_units {
            return u;
        }
        let item = mean_bytes(self.size);
        let bytes = if matches!(self.op, Op::Query | Op::Scan) { item * self.items_per_attempt } else { item };
        self.units_of(bytes)
    }

    /// Milli-units a write of an item of `bytes` whose condition fails consumes: the table's
    /// units for the item (spec §1.2: a failed conditional write still consumes them), none
    /// for its LSI or GSI entries, which are not written; a cancelled transaction's item its
    /// transactional units (a model choice: the spec leaves it open).
    pub(crate) fn failed_condition_units(&self, bytes: u64) -> u64 {
        match self.op {
            Op::TransactWrite => units::transact_write_item_milli(bytes),
            _ => units::write_milli(bytes),
        }
    }

    /// Milli-units of one index write of an item of `bytes` on `w`'s index.
    pub(crate) fn index_write_units(w: &GsiWrite, bytes: u64) -> u64 {
        w.writes * units::write_milli(entry_or(w.projection, w.entry_bytes, bytes))
    }

    /// Does the pattern write the table (a full GSI buffer rejects it)?
    pub(crate) fn writes_table(&self) -> bool {
        self.res == 0 && self.dim == Dim::Write
    }

    /// Bytes an admitted charge on resource `res` adds to (or removes from) it.
    pub(crate) fn delta_on(&self, res: usize) -> i64 {
        if res == self.res {
            self.base_delta
        } else {
            self.gsi
                .iter()
                .find(|g| g.res == res)
                .map(|g| g.delta)
                .or_else(|| self.foreign_deltas.iter().find(|f| f.0 == res).map(|f| f.1))
                .unwrap_or(0)
        }
    }
}

/// The index writes of a pattern's requests: per GSI it writes, the key space written, the
/// share of items carrying it, the entry's bytes and any fixed values.
fn gsi_writes(sc: &Scenario, p: &PatternSpec, entity: Option<&EntitySpec>) -> Vec<GsiWrite> {
    p.index_writes
        .iter()
        .map(|&(g, k)| {
            // An entity writes its own key space into the index, from the share of its
            // items that carry the key; a deleted item's entry leaves the index.
            let (key_space, coverage) =
                entity.and_then(|e| e.in_gsi(g)).map_or((sc.gsis[g].partition_key, sc.gsis[g].coverage), |w| (w.key_space, w.share));
            let sized = p.gsi_entry(g);
            let entry = (entry_or(sc.gsis[g].projection, sized, mean_bytes(p.size)) + ITEM_OVERHEAD_BYTES) as i64;
            GsiWrite {
                delta: match (k, p.op) {
                    (IndexWrite::Insert | IndexWrite::InsertAt { .. }, _) => entry,
                    (IndexWrite::Remove, _) | (_, Op::DeleteItem) => -entry,
                    _ => 0,
                },
                res: sc.layout().slot(ResourceId::gsi(g)),
                key_space,
                writes: k.writes(),
                coverage,
                projection: sc.gsis[g].projection,
                entry_bytes: sized,
                fixed: match k {
                    IndexWrite::Move { from, to } => Some((Some(from), to)),
                    IndexWrite::InsertAt { value } => Some((None, value)),
                    _ => None,
                },
            }
        })
        .collect()
}

/// Bytes a put adds to (a delete takes from) its item collection, with its LSI entries, when
/// the table has an LSI.
fn collection_growth(sc: &Scenario, p: &PatternSpec, lsis: &[(&LsiSpec, Option<u64>)]) -> Option<i64> {
    (!sc.lsis.is_empty() && matches!(p.op, Op::PutItem | Op::DeleteItem) && p.key_space.is_some() && p.index.is_none()).then(|| {
        let item = mean_bytes(p.size);
        let bytes = (item
            + ITEM_OVERHEAD_BYTES
            + lsis.iter().map(|(l, b)| entry_or(l.projection, *b, item) + ITEM_OVERHEAD_BYTES).sum::<u64>()) as i64;
        if p.op == Op::DeleteItem {
            -bytes
        } else {
            bytes
        }
    })
}

/// Whether a query or scan is paged, and the bytes of a page.
fn paging(p: &PatternSpec, items_per_attempt: u64) -> (bool, u64) {
    // A log-normal query is paged when its mean reaches a quarter of a page: its draws above
    // a page are then split too (below that, a page's worth is rare and charged whole).
    // A page holds at most 1 MB, and at most `limit` items (their mean size).
    let page_bytes = p.limit.map_or(PAGE_BYTES, |l| l.saturating_mul(mean_bytes(p.size)).clamp(1, PAGE_BYTES));
    let paged = matches!(p.op, Op::Query | Op::Scan)
        && match p.size {
            SizeSpec::Fixed(b) => b.saturating_mul(items_per_attempt) > page_bytes,
            SizeSpec::LogNormal { .. } | SizeSpec::Uniform { .. } => {
                p.size.mean() * items_per_attempt as f64 > page_bytes as f64 / if p.limit.is_some() { 1.0 } else { 4.0 }
            }
        };
    (paged, page_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_str;
    use std::path::Path;

    fn compile(extra_keys: &str, pattern: &str) -> CompiledPattern {
        let text = format!(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n[keys.k]\ncardinality = 10\n{extra_keys}\n[[pattern]]\nname = \"p\"\n{pattern}\n"
        );
        let sc = parse_str(&text, Path::new("t.toml")).unwrap();
        CompiledPattern::new(&sc, &sc.patterns[0])
    }

    /// An LSI with `ALL` projection doubles a write: 1.6 KB rounds to 2 WCU on the table and
    /// 2 more for the LSI entry (spec §8: LSI writes are the base table's).
    #[test]
    fn lsi_entries_are_charged_to_the_table() {
        let p = compile("[[lsi]]\nname = \"L\"\nprojection = \"all\"", "op = \"put_item\"\nitem_bytes = 1638\nrate = { constant = 1 }");
        assert_eq!(p.fixed_units, Some(4_000));
        assert_eq!(p.kind, Kind::AllOrNothing, "LSI writes track item collections");
        // 1,638 bytes + 100 of overhead, twice (the item and its LSI entry).
        assert_eq!(p.collection_growth, Some(2 * 1_738));
    }

    /// Random shards make a point read a read of every shard; a query's items are split
    /// between them (spec §2 write sharding).
    #[test]
    fn random_shards_fan_reads_out() {
        let p = compile("", "op = \"query\"\nitems = 20\nitem_bytes = 100\nrate = { constant = 1 }").clone();
        assert_eq!((p.fanout, p.items_per_attempt), (1, 20));
        let text = "[keys.s]\ncardinality = 5\nshards = { count = 8, by = \"random\" }";
        let q = compile(text, "op = \"query\"\nkey = \"s\"\nitems = 20\nitem_bytes = 100\nrate = { constant = 1 }");
        assert_eq!((q.fanout, q.items_per_attempt), (8, 3));
        let h = compile(&text.replace("random", "hash"), "op = \"get_item\"\nkey = \"s\"\nrate = { constant = 1 }");
        assert_eq!(h.fanout, 1);
    }

    /// A paced load sends exactly its items, evenly: 10 items over 3 s from second 5 are 3, 3
    /// and 4 (floor(10 k / 3) before second k of the load), none before or after; the service's
    /// retry waits half to all of 50 ms doubling to 1 s.
    #[test]
    fn a_paced_load_sends_exactly_its_items() {
        let load = Paced { start_s: 5, items: 10, seconds: 3 };
        let counts: Vec<u64> = (0..10).map(|s| load.count(s)).collect();
        assert_eq!(counts, vec![0, 0, 0, 0, 0, 3, 3, 4, 0, 0]);
        let big = Paced { start_s: 0, items: 1_200_000, seconds: 7 };
        assert_eq!((0..20).map(|s| big.count(s)).sum::<u64>(), 1_200_000);
        assert_eq!((Paced::retry_delay_us(1, 0.0), Paced::retry_delay_us(1, 0.999_999)), (25_000, 49_999));
        assert_eq!((Paced::retry_delay_us(6, 0.0), Paced::retry_delay_us(30, 0.5)), (500_000, 750_000));
    }

    #[test]
    fn index_entries_by_projection() {
        assert_eq!(index_entry_bytes(Projection::KeysOnly, 3_000), 100);
        assert_eq!(index_entry_bytes(Projection::All, 3_000), 3_000);
        assert_eq!(index_entry_bytes(Projection::IncludeBytes(2_000), 3_000), 2_100);
    }

    /// The bound of the collections a run leaves untracked is conservative: writes drawn key by
    /// key, as the engine draws them, never pile more bytes on one collection than the bound
    /// (a Zipf head, a hot set, a uniform space, explicit weights; 20 seeds each).
    #[test]
    fn the_collection_bound_is_never_below_the_exact_per_key_result() {
        use rand::{RngCore, SeedableRng};
        let base = |popularity: &str| {
            format!(
                "[scenario]\nduration = \"10m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n\
                 [keys.k]\ncardinality = 2000\npopularity = {popularity}\n[[lsi]]\nname = \"L\"\nprojection = \"keys_only\"\n\
                 [[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 2000\nrate = {{ constant = 50 }}\n"
            )
        };
        for popularity in ["{ zipf = 1.2 }", "{ zipf = 0.5 }", "{ hot = { keys = 3, share = 0.6 } }", "\"uniform\"", "weights"] {
            let text = base(popularity).replace("cardinality = 2000\npopularity = weights", "values = { a = 5, b = 1, c = 1, d = 1 }");
            let sc = parse_str(&text, Path::new("c.toml")).unwrap_or_else(|e| panic!("{popularity}: {e}"));
            let dist = KeyDist::new(&sc.key_spaces[0], sc.start_unix_s);
            let growth = CompiledPattern::new(&sc, &sc.patterns[0]).collection_growth.unwrap() as f64;
            let bound = collection_bound(&sc, 0, &dist, 600);
            let start = initial_collection_bytes(&sc)[0] as f64;
            for seed in 0..20 {
                let mut rng = crate::rng::SimRng::seed_from_u64(seed);
                let mut per_key = std::collections::HashMap::new();
                for _ in 0..50 * 600 {
                    *per_key.entry(dist.sample(rng.next_u64(), rng.next_u64(), 0)).or_insert(0.0) += growth;
                }
                let most = start + per_key.values().copied().fold(0.0, f64::max);
                assert!(most <= bound, "{popularity}, seed {seed}: a collection of {most} bytes above the bound {bound}");
            }
        }
    }
}
