//! `[[pattern]]`: operations, keys, sizes, consistency, rate shapes and index writes.

use super::{Names, Validator};
use crate::limits::{MAX_BATCH_GET_ITEMS, MAX_BATCH_WRITE_ITEMS, MAX_PATTERN_BYTES_PER_SECOND, MAX_TRANSACT_ITEMS};
use crate::scenario::defaults;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawConsistency, RawFanout, RawOp, RawPattern, RawRate};
use crate::scenario::{ClosedLoop, EntitySpec, GsiSpec, IndexRef, KeySpaceSpec, Op, PatternSpec, RateShape};
use crate::time::SimDuration;
use crate::units::Consistency;
use std::path::Path;

impl Validator<'_, '_> {
    /// Patterns sent to a replica's region (`region`): the replica's position, and what a
    /// replica's table cannot take (its indexes, its item collections).
    pub(super) fn pattern_regions(
        &mut self,
        patterns: &mut [PatternSpec],
        raw: &[RawPattern],
        table_region: &str,
        replicas: &[crate::scenario::ReplicaSpec],
        lsis: bool,
    ) {
        for (i, (p, raw_p)) in patterns.iter_mut().zip(raw).enumerate() {
            let Some(region) = &raw_p.region else { continue };
            let at = KeyPath::root().key("pattern").index(i).key("region");
            if region == table_region {
                continue;
            }
            let Some(k) = replicas.iter().position(|r| &r.region == region) else {
                let known: Vec<&str> = std::iter::once(table_region).chain(replicas.iter().map(|r| r.region.as_str())).collect();
                self.err(&at, format!("no replica in \"{region}\"; the table is in {}", known.join(", ")));
                continue;
            };
            // A replica's own indexes are not simulated: its writes write none by default.
            if p.index.is_some() || !raw_p.index_writes.is_empty() || p.after_write.is_some() {
                self.err(&at, "a pattern in a replica's region reads and writes the replica's table only (its indexes are not simulated)");
            } else if lsis && p.op.is_write() {
                self.err(&at, "writes in a replica's region with LSIs: item collections are tracked in the table's region only");
            }
            p.replica = Some(k);
            p.index_writes.clear();
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn pattern(
        &mut self,
        at: &KeyPath,
        p: &RawPattern,
        names: &Names,
        gsis: &[GsiSpec],
        entities: &[EntitySpec],
        key_spaces: &[KeySpaceSpec],
        table_pk: usize,
        duration: SimDuration,
    ) -> PatternSpec {
        self.shown_name(&at.key("name"), &p.name);
        let op = op_of(p.op);
        let index = self.pattern_index(at, p, names, op);
        let entity_at = self.pattern_entity(at, p, entities);
        let entity = entity_at.map(|e| &entities[e]);
        let default_pk = self.default_key_space(at, index, entity, gsis, table_pk);
        let key_space = self.pattern_key_space(at, p, op, names, entity, default_pk);
        let (size, shape) = match (entity, &p.item_bytes) {
            (Some(e), None) => (e.size, e.shape.clone()),
            _ => self.item_size(&at.key("item_bytes"), p.item_bytes.as_ref()),
        };
        let table_keys = self.table_keys.clone();
        if p.item_bytes.is_some() && op.is_write() {
            self.item_has_table_keys(&at.key("item_bytes"), shape.as_ref(), &table_keys);
        }
        let items = self.pattern_items(at, p, op);
        let consistency = self.consistency(at, p, op, index);
        let rate = self.rate_shape(&at.key("rate"), &p.rate, duration);
        let mean_item = size.mean();
        let demand = rate.peak() * items as f64 * mean_item;
        if demand > MAX_PATTERN_BYTES_PER_SECOND {
            self.err(
                &at.key("rate"),
                format!("at its peak this pattern moves {demand:.3e} bytes a second (rate x items x item bytes), above ddbsim's ceiling of 1e15"),
            );
        }
        let mut index_writes = self.index_writes(at, p, op, names, entity, gsis, key_spaces);
        if entity.is_none() {
            self.sparse_by_shape(&at.key("item_bytes"), shape.as_ref(), gsis, |g| p.index_writes.contains_key(g), &mut index_writes);
        }
        let gsi_entry_bytes =
            self.index_entries(&at.key("item_bytes"), shape.as_ref(), &table_keys, gsis, index_writes.iter().map(|w| w.0));
        let lsi_entries = match (entity, &p.item_bytes) {
            _ if !op.is_write() => None,
            (Some(e), None) => e.shape.as_ref().map(|_| e.lsi.iter().map(|&l| (l, e.lsi_entry(l))).collect()),
            _ => {
                let lsis = std::mem::take(&mut self.lsis);
                let candidates: Vec<usize> = entity.map_or_else(|| (0..lsis.len()).collect(), |e| e.lsi.clone());
                let out = self.lsi_entries(&at.key("item_bytes"), shape.as_ref(), &table_keys, &lsis, candidates);
                self.lsis = lsis;
                out
            }
        };
        let after_write = self.after_write(at, p, op, index);
        index_writes.sort_by_key(|w| w.0);
        let (limit, segments) = self.paging(at, p, op, items);
        let (fanout_all, condition_fails) = self.fanout_and_condition(at, p, op);
        PatternSpec {
            name: p.name.clone(),
            op,
            entity: entity_at,
            key_space,
            index,
            replica: None,
            size,
            items,
            consistency,
            rate,
            index_writes,
            gsi_entry_bytes,
            lsi_entries,
            after_write,
            condition_fails,
            limit,
            segments,
            fanout_all,
            bulk: None,
            also: self.also(at, p, op, items),
            then: self.then(at, p, op),
        }
    }

    /// The index a query or scan reads, by name.
    fn pattern_index(&mut self, at: &KeyPath, p: &RawPattern, names: &Names, op: Op) -> Option<IndexRef> {
        p.index.as_ref().and_then(|name| {
            let found = names.indexes.get(name).copied();
            if found.is_none() {
                self.err(&at.key("index"), format!("no index named \"{name}\" in [[gsi]] or [[lsi]]"));
            } else if !matches!(op, Op::Query | Op::Scan) {
                self.err(&at.key("index"), format!("{} cannot read an index; only query and scan can", op.api_name()));
            }
            found
        })
    }

    /// The entity type a pattern reads or writes, by name.
    fn pattern_entity(&mut self, at: &KeyPath, p: &RawPattern, entities: &[EntitySpec]) -> Option<usize> {
        p.entity.as_ref().and_then(|name| {
            let found = entities.iter().position(|e| &e.name == name);
            if found.is_none() {
                let known: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
                let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                self.err(&at.key("entity"), format!("no entity named \"{name}\" in [[entity]]; defined: {known}"));
            }
            found
        })
    }

    /// The key space a pattern's keys come from unless it names one: its entity's (in the
    /// index it reads), the GSI's, or the table's.
    fn default_key_space(
        &mut self,
        at: &KeyPath,
        index: Option<IndexRef>,
        entity: Option<&EntitySpec>,
        gsis: &[GsiSpec],
        table_pk: usize,
    ) -> usize {
        match (index, entity) {
            (Some(IndexRef::Gsi(g)), Some(e)) => match e.in_gsi(g) {
                Some(w) => w.key_space,
                None => {
                    let gname = gsis.get(g).map_or("", |g| g.name.as_str());
                    self.err(
                        &at.key("index"),
                        format!("entity \"{}\" writes no key into GSI \"{gname}\" (its `gsi` does not list it), so the index holds none of its items", e.name),
                    );
                    e.key_space
                }
            },
            (Some(IndexRef::Lsi(l)), Some(e)) => {
                if !e.lsi.contains(&l) {
                    self.err(
                        &at.key("index"),
                        format!("entity \"{}\" carries no sort key of this LSI (its `lsi` does not list it)", e.name),
                    );
                }
                e.key_space
            }
            (Some(IndexRef::Gsi(g)), None) => gsis.get(g).map_or(table_pk, |g| g.partition_key),
            (_, Some(e)) => e.key_space,
            (_, None) => table_pk,
        }
    }

    /// The key space of the partition-key values touched (`None` for a scan).
    fn pattern_key_space(
        &mut self,
        at: &KeyPath,
        p: &RawPattern,
        op: Op,
        names: &Names,
        entity: Option<&EntitySpec>,
        default_pk: usize,
    ) -> Option<usize> {
        match (&p.key, op) {
            (Some(_), Op::Scan) => {
                self.err(&at.key("key"), "a scan reads every partition; it takes no `key`");
                None
            }
            (_, Op::Scan) => None,
            (Some(k), _) => {
                let ks = self.key_ref(names, &at.key("key"), k).unwrap_or(default_pk);
                if let (Some(e), true) = (entity, ks != default_pk) {
                    self.err(
                        &at.key("key"),
                        format!("entity \"{}\" keys this read or write by another key space; remove `key` (the entity gives it)", e.name),
                    );
                }
                Some(ks)
            }
            (None, _) => Some(default_pk),
        }
    }

    /// Items per request, within the operation's limit.
    fn pattern_items(&mut self, at: &KeyPath, p: &RawPattern, op: Op) -> u64 {
        let items = p.items.unwrap_or(defaults::ITEMS);
        let max_items = match op {
            Op::GetItem | Op::PutItem | Op::UpdateItem | Op::DeleteItem => 1,
            Op::BatchGet => MAX_BATCH_GET_ITEMS,
            Op::TransactGet | Op::TransactWrite => MAX_TRANSACT_ITEMS,
            Op::BatchWrite => MAX_BATCH_WRITE_ITEMS,
            Op::Query | Op::Scan => 1_000_000,
        };
        if items == 0 || items > max_items {
            self.err(&at.key("items"), format!("{} takes 1 to {max_items} items per request, not {items}", op.api_name()));
        }
        items
    }

    /// Read consistency, checked against the operation and the index.
    fn consistency(&mut self, at: &KeyPath, p: &RawPattern, op: Op, index: Option<IndexRef>) -> Consistency {
        match (p.consistency, op) {
            (Some(_), o) if o.is_write() => {
                self.err(&at.key("consistency"), format!("{} is a write; consistency applies to reads", op.api_name()));
                Consistency::Strong
            }
            (Some(RawConsistency::Transactional), Op::TransactGet) | (None, Op::TransactGet) => Consistency::Transactional,
            (Some(_), Op::TransactGet) => {
                self.err(&at.key("consistency"), "TransactGetItems reads are always transactional");
                Consistency::Transactional
            }
            (Some(RawConsistency::Transactional), _) => {
                self.err(&at.key("consistency"), "transactional reads are made with op = \"transact_get\"");
                Consistency::Strong
            }
            (Some(RawConsistency::Strong), _) if matches!(index, Some(IndexRef::Gsi(_))) => {
                self.err(&at.key("consistency"), "GSI reads are always eventually consistent");
                Consistency::Eventual
            }
            (Some(RawConsistency::Eventual), _) => Consistency::Eventual,
            (Some(RawConsistency::Strong), _) => Consistency::Strong,
            (None, _) => defaults::CONSISTENCY,
        }
    }

    /// The read-after-write delay of a GSI read.
    fn after_write(&mut self, at: &KeyPath, p: &RawPattern, op: Op, index: Option<IndexRef>) -> Option<SimDuration> {
        p.after_write.as_ref().and_then(|d| {
            let ap = at.key("after_write");
            if !matches!(index, Some(IndexRef::Gsi(_))) || op.is_write() {
                self.err(&ap, "after_write applies to reads of a GSI (query or scan with `index`)");
            }
            self.duration(&ap, d)
        })
    }

    /// A query's or scan's page limit and a scan's segments.
    fn paging(&mut self, at: &KeyPath, p: &RawPattern, op: Op, items: u64) -> (Option<u64>, u64) {
        let limit = p.limit.map(|l| {
            if !matches!(op, Op::Query | Op::Scan) {
                self.err(&at.key("limit"), format!("{} returns no pages; `limit` applies to query and scan", op.api_name()));
            }
            if l == 0 {
                self.err(&at.key("limit"), "a page returns at least 1 item");
            }
            l.max(1)
        });
        let segments = p.segments.map_or(1, |n| {
            if op != Op::Scan {
                self.err(&at.key("segments"), format!("{} is not a scan; `segments` is a parallel scan's", op.api_name()));
            }
            if !(1..=1_000_000).contains(&n) {
                self.err(&at.key("segments"), format!("a parallel scan has 1 to 1,000,000 segments (TotalSegments), not {n}"));
            } else if n > items {
                self.err(
                    &at.key("segments"),
                    format!("{n} segments for {items} items: each segment reads its share of `items`; give at least one item a segment"),
                );
            }
            n.clamp(1, 1_000_000)
        });
        (limit, segments)
    }

    /// Which shards a read of a sharded key touches, and the share of writes whose condition
    /// fails.
    fn fanout_and_condition(&mut self, at: &KeyPath, p: &RawPattern, op: Op) -> (Option<bool>, f64) {
        let fanout_all = p.fanout.map(|f| {
            if !matches!(op, Op::GetItem | Op::Query) {
                self.err(
                    &at.key("fanout"),
                    format!("`fanout` says which shards a read touches; {} is not a get or a query", op.api_name()),
                );
            }
            f == RawFanout::All
        });
        let condition_fails = match p.condition_fails {
            None => 0.0,
            Some(x) => {
                let cp = at.key("condition_fails");
                if !matches!(op, Op::PutItem | Op::UpdateItem | Op::DeleteItem | Op::TransactWrite) {
                    self.err(
                        &cp,
                        format!(
                            "{} takes no condition expression; put_item, update_item, delete_item and transact_write do",
                            op.api_name()
                        ),
                    );
                }
                if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
                    self.err(&cp, format!("a share of the writes between 0 and 1 (0.05 is 5 %), not {x}"));
                }
                x.clamp(0.0, 1.0)
            }
        };
        (fanout_all, condition_fails)
    }

    pub(super) fn rate_shape(&mut self, at: &KeyPath, r: &RawRate, duration: SimDuration) -> RateShape {
        match r {
            RawRate::Constant(x) => RateShape::Constant(self.rate(&at.key("constant"), *x)),
            RawRate::Diurnal(d) => {
                let dp = at.key("diurnal");
                let min = self.rate(&dp.key("min"), d.min);
                let max = self.rate(&dp.key("max"), d.max);
                if min > max {
                    self.err(&dp.key("min"), format!("min ({min}) is above max ({max})"));
                }
                let peak_s_of_day = match &d.peak {
                    None => defaults::DIURNAL_PEAK_S_OF_DAY,
                    Some(t) => parse_hh_mm(t).unwrap_or_else(|| {
                        self.err(&dp.key("peak"), format!("\"{t}\" is not a UTC time of day \"HH:MM\""));
                        0
                    }),
                };
                RateShape::Diurnal { min, max, peak_s_of_day }
            }
            RawRate::Spike(s) => {
                let sp = at.key("spike");
                let base = self.rate(&sp.key("base"), s.base);
                let peak = self.rate(&sp.key("peak"), s.peak);
                let at_s = self.duration(&sp.key("at"), &s.at).map_or(0, SimDuration::as_secs);
                let len_s = self.duration(&sp.key("for"), &s.length).map_or(1, SimDuration::as_secs);
                if len_s == 0 {
                    self.err(&sp.key("for"), "a spike lasts at least 1s");
                }
                if at_s >= duration.as_secs() {
                    self.err(&sp.key("at"), format!("the spike starts at {at_s}s, after the run ends ({duration})"));
                }
                RateShape::Spike { base, peak, at_s, len_s }
            }
            RawRate::Ramp(r) => {
                let rp = at.key("ramp");
                let from = self.rate(&rp.key("from"), r.from);
                let to = self.rate(&rp.key("to"), r.to);
                let over_s = self.duration(&rp.key("over"), &r.over).map_or(1, SimDuration::as_secs);
                if over_s == 0 {
                    self.err(&rp.key("over"), "a ramp lasts at least 1s");
                }
                let start_s = r.start.as_ref().and_then(|s| self.duration(&rp.key("start"), s)).map_or(0, SimDuration::as_secs);
                RateShape::Ramp { from, to, start_s, over_s: over_s.max(1) }
            }
            RawRate::ClosedLoop(c) => {
                let cp = at.key("closed_loop");
                if c.threads == 0 || c.threads > 100_000 {
                    self.err(&cp.key("threads"), format!("threads must be 1 to 100000, not {}", c.threads));
                }
                if c.total == 0 || c.total > 1_000_000_000_000 {
                    self.err(&cp.key("total"), format!("total must be 1 to 10^12 requests, not {}", c.total));
                }
                let think = c.think.as_ref().and_then(|t| self.duration(&cp.key("think"), t)).unwrap_or(SimDuration::ZERO);
                RateShape::ClosedLoop(ClosedLoop {
                    threads: c.threads.clamp(1, 100_000),
                    total: c.total.max(1),
                    think_us: think.as_micros(),
                    stop_on_failure: c.stop_on_failure.unwrap_or(false),
                })
            }
            RawRate::Steps(steps) => {
                let sp = at.key("steps");
                let mut out = Vec::new();
                for (i, (t, x)) in steps.iter().enumerate() {
                    let ip = sp.index(i);
                    let t = self.duration(&ip, t).map_or(0, SimDuration::as_secs);
                    let x = self.rate(&ip, *x);
                    if let Some(&(prev, _)) = out.last() {
                        if t <= prev {
                            self.err(&ip, format!("step times must increase; {t}s follows {prev}s"));
                        }
                    } else if t != 0 {
                        self.err(&ip, "the first step must start at \"0s\"");
                    }
                    out.push((t, x));
                }
                if out.is_empty() {
                    self.err(&sp, "steps needs at least one [time, rate] pair");
                    out.push((0, 0.0));
                }
                RateShape::Steps(out)
            }
            RawRate::Trace(file) => {
                let tp = at.key("trace");
                let full = self.path.parent().unwrap_or(Path::new(".")).join(file);
                match read_trace(self.path, file, self.options.allow_outside) {
                    Ok(steps) => RateShape::Steps(steps),
                    Err(m) => {
                        self.err(&tp, format!("{}: {m}", full.display()));
                        RateShape::Constant(0.0)
                    }
                }
            }
        }
    }
}

fn parse_hh_mm(s: &str) -> Option<u64> {
    let (h, m) = s.split_once(':')?;
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    (h < 24 && m < 60).then(|| h * 3_600 + m * 60)
}

/// Largest trace file read, bytes.
const MAX_TRACE_BYTES: u64 = 64 << 20;

/// At most this many characters of a field are quoted in a message.
fn quoted(field: &str) -> String {
    let f: String = field.chars().take(32).filter(|c| !c.is_control()).collect();
    if field.chars().count() > 32 {
        format!("\"{f}…\"")
    } else {
        format!("\"{f}\"")
    }
}

/// Whether a first-row field is a column's name (`second`, "time_s", `requests per second`):
/// it starts with a letter and holds letters, digits, spaces and `_ - / ( ) .` only. A field
/// such as `0x10` or `1_000` is not a name: its row is a malformed row, not a header.
fn is_column_name(field: &str) -> bool {
    let f = field.trim_matches('"');
    f.chars().next().is_some_and(char::is_alphabetic)
        && f.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ' ' | '-' | '/' | '(' | ')' | '.'))
}

/// Reads the trace `file` of the scenario at `scenario`: `time_s,rate` rows (a first line of
/// column names is a header), times increasing from 0. The file must be a regular file of at most 64 MiB in the
/// scenario's folder (or below it) unless `allow_outside`; a message quotes at most the field
/// that failed.
fn read_trace(scenario: &Path, file: &str, allow_outside: bool) -> Result<Vec<(u64, f64)>, String> {
    let real = super::sample::beside(scenario, file, allow_outside, "the trace file")?;
    let bytes = crate::input::read_capped(&real, MAX_TRACE_BYTES, "trace file").map_err(|e| format!("cannot read the trace file: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| "the trace file is not UTF-8 text".to_string())?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out: Vec<(u64, f64)> = Vec::new();
    let mut first = true;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let header = std::mem::replace(&mut first, false);
        let mut f = line.split(',');
        let (Some(t), Some(r)) = (f.next(), f.next()) else {
            return Err(format!("line {}: expected `time_s,rate`", n + 1));
        };
        let (t, r) = (t.trim(), r.trim());
        let (Ok(tv), Ok(rv)) = (t.parse::<f64>(), r.parse::<f64>()) else {
            if header && is_column_name(t) && is_column_name(r) {
                continue;
            }
            let (field, which) = if t.parse::<f64>().is_err() { (t, "time_s") } else { (r, "rate") };
            return Err(format!("line {}: {which} {} is not a number", n + 1, quoted(field)));
        };
        if !(tv.is_finite() && tv >= 0.0 && rv.is_finite() && rv >= 0.0) {
            return Err(format!("line {}: time and rate must be finite and >= 0", n + 1));
        }
        if rv > crate::limits::MAX_REQUEST_RATE {
            return Err(format!("line {}: a rate of {rv:e} is above ddbsim's ceiling of 1e9 requests per second", n + 1));
        }
        let tv = tv as u64;
        if out.last().is_some_and(|&(p, _)| tv <= p) {
            return Err(format!("line {}: times must increase", n + 1));
        }
        if out.is_empty() && tv != 0 {
            out.push((0, 0.0));
        }
        out.push((tv, rv));
    }
    if out.is_empty() {
        return Err("the trace has no rows".into());
    }
    Ok(out)
}

impl Validator<'_, '_> {
    /// The rank of value `name` of the key space a pattern (of `entity`, if any) writes into
    /// GSI `g`: one of its explicit `values`.
    pub(super) fn index_value(
        &mut self,
        at: &KeyPath,
        name: &str,
        g: usize,
        entity: Option<&EntitySpec>,
        gsis: &[GsiSpec],
        key_spaces: &[KeySpaceSpec],
    ) -> u64 {
        let ks = entity.and_then(|e| e.in_gsi(g)).map_or(gsis[g].partition_key, |w| w.key_space);
        let values = &key_spaces[ks].value_names;
        let r = values.iter().position(|x| x == name);
        if r.is_none() {
            let known = if values.is_empty() { "it has no explicit `values`".to_string() } else { values.join(", ") };
            self.err(at, format!("\"{name}\" is not a value of key space `{}`: {known}", key_spaces[ks].name));
        }
        r.unwrap_or(0) as u64
    }
}

/// The operation of a raw `op`.
fn op_of(op: RawOp) -> Op {
    match op {
        RawOp::GetItem => Op::GetItem,
        RawOp::Query => Op::Query,
        RawOp::Scan => Op::Scan,
        RawOp::PutItem => Op::PutItem,
        RawOp::UpdateItem => Op::UpdateItem,
        RawOp::DeleteItem => Op::DeleteItem,
        RawOp::BatchGet => Op::BatchGet,
        RawOp::BatchWrite => Op::BatchWrite,
        RawOp::TransactGet => Op::TransactGet,
        RawOp::TransactWrite => Op::TransactWrite,
    }
}
