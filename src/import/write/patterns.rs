//! The `[[pattern]]`s an import writes: the traffic rebuilt from the history as traces, or
//! assumed from the definition, and each GSI's share of the writes.

use super::{entry_units, key, q, MAX_ITEM};
use crate::import::def::{IndexDef, ProjectionDef, TableDef};
use crate::import::metrics::{Grid, Metric, OPERATIONS};
use crate::limits::{READ_BLOCK_BYTES, WRITE_BLOCK_BYTES};
use crate::model::Dim;
use std::fmt::Write as _;

/// The patterns of a history: per dimension and operation a trace of its requests, and each
/// GSI's reads; returns the writes the table served in all (what its indexes were written by).
pub(super) fn from_history(
    t: &TableDef,
    g: &Grid,
    item: u64,
    stem: &str,
    traces: &mut Vec<(String, String)>,
    patterns: &mut String,
) -> f64 {
    let mut written = 0.0;
    for d in Dim::ALL {
        let ops = requests_by_op(g, d);
        let consumed = g.get(&Metric::Consumed(d), None);
        let total_units: f64 = consumed.iter().flatten().sum();
        let total_requests: f64 = ops.iter().flat_map(|(_, v)| v.iter()).sum();
        // A write's consumed units include its LSI entries (LSIs share the table's
        // capacity): `k` units of item and, per LSI, an entry as large as the item
        // (ALL) or of its projected bytes.
        // A Cost and Usage Report's units are the table's and its GSIs' together: each write's
        // index entries are in them too.
        let (lsi_all, lsi_fixed) = if d == Dim::Write { lsi_charges(t) } else { (0.0, 0.0) };
        let lsi_fixed = lsi_fixed + if d == Dim::Write && g.units_include_indexes { gsi_units_per_write(t, item) } else { 0.0 };
        let assumed = if d == Dim::Read {
            item.div_ceil(READ_BLOCK_BYTES) as f64
        } else {
            item.div_ceil(WRITE_BLOCK_BYTES) as f64 * (1.0 + lsi_all) + lsi_fixed
        };
        let measured = total_requests > 0.0 && total_units > 0.0;
        let u = if measured { total_units / total_requests } else { assumed };
        // The recorded units a request, as one item size or a mix of two (a fractional
        // average), so that the replay keeps both the requests and the units.
        let u_item = ((u - lsi_fixed) / (1.0 + lsi_all)).max(0.5);
        let sizes = if measured { mix(d, u_item) } else { vec![Size::of(charge(d, u_item), 1.0)] };
        let per_request = |k: f64| if d == Dim::Write { k * (1.0 + lsi_all) + lsi_fixed } else { k };
        let mean_per_request: f64 = sizes.iter().map(|z| z.share * per_request(z.units)).sum();
        let Some(units) = demand(g, None, d, u) else { continue };
        if d == Dim::Write {
            // The writes the table served: only they reach its indexes (a throttled write
            // writes no index entry). CloudWatch counts them (SuccessfulRequestLatency's
            // SampleCount) where every request is one item; else its consumed units tell.
            let one_item = measured && ops.iter().all(|(op, _)| !matches!(*op, "BatchWriteItem" | "TransactWriteItems"));
            written += if one_item { total_requests * 60.0 } else { total_units * 60.0 / mean_per_request };
        }
        let ops: Vec<(&str, Vec<f64>)> =
            if ops.is_empty() { vec![(if d == Dim::Read { "GetItem" } else { "PutItem" }, vec![1.0; g.minutes])] } else { ops };
        let per_minute_total: Vec<f64> = (0..g.minutes).map(|m| ops.iter().map(|(_, v)| v[m]).sum()).collect();
        let overall: Vec<f64> = ops.iter().map(|(_, v)| v.iter().sum::<f64>()).collect();
        let overall_sum: f64 = overall.iter().sum();
        for (i, (op, req)) in ops.iter().enumerate() {
            let requests: Vec<f64> = (0..g.minutes)
                .map(|m| {
                    let share = if per_minute_total[m] > 0.0 {
                        req[m] / per_minute_total[m]
                    } else {
                        overall[i] / overall_sum.max(f64::MIN_POSITIVE)
                    };
                    units[m] * share / mean_per_request
                })
                .collect();
            let base = format!("{}-{}", if d == Dim::Read { "read" } else { "write" }, scenario_op(op).replace('_', "-"));
            for (n, z) in sizes.iter().enumerate() {
                let name = if n == 0 { base.clone() } else { format!("{base}-{}kb", z.bytes / 1_024) };
                let file = format!("{stem}-{name}.csv");
                traces.push((file.clone(), trace_csv(&requests.iter().map(|r| r * z.share).collect::<Vec<_>>())));
                let note = match (n, measured) {
                    (0, true) => {
                        let lsi = if lsi_all + lsi_fixed > 0.0 { ", its LSI entries included" } else { "" };
                        let how = if sizes.len() > 1 {
                            format!(
                                ": a mix of {} of {}-byte items and {} of {}-byte ones, so the replay keeps the recorded requests and units",
                                crate::format::percent(sizes[0].share),
                                sizes[0].bytes,
                                crate::format::percent(sizes[1].share),
                                sizes[1].bytes
                            )
                        } else {
                            String::new()
                        };
                        format!("{op}: {u:.2} units a request (consumed / SuccessfulRequestLatency SampleCount){lsi}{how}")
                    }
                    (0, false) => format!(
                        "ASSUMPTION: every {} is a {op} of {item}-byte items ({assumed} units)",
                        if d == Dim::Read { "read" } else { "write" }
                    ),
                    _ => format!("{op}: the larger items of the mix above"),
                };
                let note = if n == 0 && measured_over(u, z.units, lsi_all, lsi_fixed) {
                    format!("{note}; more than one 400 KB item, so charged as several requests of 400 KB (the units kept)")
                } else {
                    note
                };
                Pat {
                    note,
                    name: &name,
                    op: scenario_op(op),
                    index: None,
                    bytes: if measured { z.bytes } else { item },
                    eventual: z.eventual && measured,
                    rate: format!("{{ trace = {} }}", q(&file)),
                    writes: d == Dim::Write,
                }
                .write(patterns);
            }
        }
    }
    index_reads(t, g, stem, traces, patterns);
    written
}

/// The GSIs' reads of a history: a query pattern per index with a read series.
fn index_reads(t: &TableDef, g: &Grid, stem: &str, traces: &mut Vec<(String, String)>, patterns: &mut String) {
    for gi in &t.gsis {
        // Index reads of 0.5 units each (eventually consistent 4 KB pages): twice the
        // units in requests.
        let Some(units) = demand(g, Some(&gi.name), Dim::Read, 0.5) else { continue };
        if units.iter().all(|x| *x == 0.0) {
            continue;
        }
        let name = format!("query-{}", gi.name);
        let file = format!("{stem}-{}.csv", name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"));
        traces.push((file.clone(), trace_csv(&units.iter().map(|u| u * 2.0).collect::<Vec<_>>())));
        Pat {
            note: "ASSUMPTION: index reads are eventually consistent Query pages of 4 KB (0.5 units each)".into(),
            name: &name,
            op: "query",
            index: Some(&gi.name),
            bytes: READ_BLOCK_BYTES,
            eventual: true,
            rate: format!("{{ trace = {} }}", q(&file)),
            writes: false,
        }
        .write(patterns);
    }
}

/// The patterns of a definition without history: reads and writes at half the provisioned
/// capacity (or 100 a second) of `t`, the table's own definition or, with `base`, the base
/// revision's (`ddbsim diff`: one traffic model for both).
pub(super) fn assumed(t: &TableDef, base: bool, item: u64, patterns: &mut String) {
    let (r, w) = match t.provisioned {
        Some([r, w]) => ((r as f64 * 0.5).max(1.0), (w as f64 * 0.5).max(1.0)),
        None => (100.0, 100.0),
    };
    let why = match (t.provisioned.is_some(), base) {
        (true, false) => "half the provisioned capacity",
        (true, true) => "half the base definition's provisioned capacity",
        (false, _) => "100 requests a second",
    };
    let rk = item.div_ceil(READ_BLOCK_BYTES) as f64;
    let wk = item.div_ceil(WRITE_BLOCK_BYTES) as f64;
    let note = format!("ASSUMPTION: no metrics given: reads and writes at {why}; give --metrics to replay your history");
    let rate = format!("{{ constant = {} }}", (r / rk).max(1.0).round());
    Pat { note, name: "read", op: "get_item", index: None, bytes: item, eventual: false, rate, writes: false }.write(patterns);
    let rate = format!("{{ constant = {} }}", (w / wk).max(1.0).round());
    Pat { note: String::new(), name: "write", op: "put_item", index: None, bytes: item, eventual: false, rate, writes: true }
        .write(patterns);
}

/// The least coverage import writes (a scenario's is above 0; four decimals are written).
const MIN_COVERAGE: f64 = 0.0001;

/// Every write maintains every GSI; the share of items carrying its key comes from the
/// history (index write units / the table's served writes, `written`), else from item counts.
/// Returns the patterns' `index_writes` entries.
pub(super) fn index_coverage(s: &mut String, t: &TableDef, grid: Option<&Grid>, item: u64, written: f64) -> Vec<String> {
    let mut index_writes: Vec<String> = Vec::new();
    for gi in &t.gsis {
        let per = entry_units(gi.projection, item);
        let from_history = grid.and_then(|g| g.get(&Metric::Consumed(Dim::Write), Some(&gi.name))).map(|v| v.iter().sum::<f64>() * 60.0);
        let coverage = match (from_history, written) {
            (Some(units), w) if w > 0.0 => Some((units / (w * per)).clamp(0.0, 1.0)),
            _ => count_coverage(gi, t),
        };
        index_writes.push(format!("{} = \"insert\"", key(&gi.name)));
        if let Some(c) = coverage {
            // The coverage lives on the index; a scenario's is above 0, so an index the history
            // shows (next to) no writes to gets the least the four decimals write.
            let marker = format!("[[gsi]]\nname = {}\n", q(&gi.name));
            let line = if c < MIN_COVERAGE {
                format!("coverage = {MIN_COVERAGE}  # the history shows (next to) no items with its key: the least ddbsim writes\n")
            } else {
                format!("coverage = {c:.4}  # share of items with its key (from the history or item counts)\n")
            };
            *s = s.replacen(&marker, &format!("{marker}{line}"), 1);
        } else {
            let marker = format!("[[gsi]]\nname = {}\n", q(&gi.name));
            *s = s.replacen(&marker, &format!("{marker}# ASSUMPTION: every item carries this index's key (coverage = 1)\n"), 1);
        }
    }
    index_writes
}
/// The share of a table's items in GSI `gi`, from their item counts.
fn count_coverage(gi: &IndexDef, t: &TableDef) -> Option<f64> {
    match (gi.item_count, t.item_count) {
        (Some(a), Some(b)) if b > 0 => Some((a as f64 / b as f64).clamp(0.0, 1.0)),
        _ => None,
    }
}

/// Write units each write of an `item`-byte item spends on the table's GSIs: per GSI, the
/// share of items with its key (from the item counts, else all) times its entry's units.
pub(crate) fn gsi_units_per_write(t: &TableDef, item: u64) -> f64 {
    t.gsis.iter().map(|gi| count_coverage(gi, t).unwrap_or(1.0) * entry_units(gi.projection, item)).sum()
}

/// Share of throttle events that can be retries: the `sdk-2026` client makes up to 4 attempts,
/// so at most 3 of every 4 events of a request are retries.
const RETRY_SHARE: f64 = 0.75;

/// Retries the SDK's retry quota funds in a minute of sustained throttling, beyond one per
/// five successful first attempts: a full 500-token bucket at 5 tokens a retry.
const QUOTA_RETRIES: f64 = 100.0;

pub(super) fn scenario_op(op: &str) -> &'static str {
    match op {
        "GetItem" => "get_item",
        "Query" => "query",
        "Scan" => "scan",
        "PutItem" => "put_item",
        "UpdateItem" => "update_item",
        "DeleteItem" => "delete_item",
        "BatchGetItem" => "batch_get",
        "BatchWriteItem" => "batch_write",
        "TransactGetItems" => "transact_get",
        _ => "transact_write",
    }
}

pub(super) fn is_read(op: &str) -> bool {
    matches!(op, "GetItem" | "Query" | "Scan" | "BatchGetItem" | "TransactGetItems")
}

/// Units one request costs, and how the pattern charges it: (units, item bytes, eventual).
/// Reads of `u` read units: strongly consistent reads of `ceil(u)` x 4 KB, or eventually
/// consistent 4 KB reads when `u` is about a half; writes of `ceil(u)` x 1 KB.
/// An item is at most 400 KB: a request of more units (a Query page, a batch) is charged as
/// several requests of the largest item, so the units are kept.
pub(super) fn charge(dim: Dim, u: f64) -> (f64, u64, bool) {
    match dim {
        Dim::Read if u < 0.75 => (0.5, READ_BLOCK_BYTES, true),
        Dim::Read => {
            let k = u.round().clamp(1.0, (MAX_ITEM / READ_BLOCK_BYTES) as f64);
            (k, k as u64 * READ_BLOCK_BYTES, false)
        }
        Dim::Write => {
            let k = u.round().clamp(1.0, (MAX_ITEM / WRITE_BLOCK_BYTES) as f64);
            (k, k as u64 * WRITE_BLOCK_BYTES, false)
        }
    }
}

/// One item size of an operation's requests: its units, bytes and consistency, and the share
/// of the requests of that size.
struct Size {
    units: f64,
    bytes: u64,
    eventual: bool,
    share: f64,
}

impl Size {
    fn of((units, bytes, eventual): (f64, u64, bool), share: f64) -> Self {
        Self { units, bytes, eventual, share }
    }
}

/// The item sizes whose mix costs `u` units a request of dimension `d` (LSI entries aside):
/// one size when `u` is a whole number of blocks (1 KB written; 4 KB read, half a unit
/// eventually consistent, below 0.75 a read), else the two around it, their shares such that
/// the mean is `u` (`1.5` is half 1 KB, half 2 KB). Outside one block to 400 KB, one size,
/// [`charge`]'s.
fn mix(d: Dim, u: f64) -> Vec<Size> {
    let (k, bytes, eventual) = charge(d, u);
    let block = if eventual { 0.5 } else { 1.0 };
    let blocks = u / block;
    let (lo, frac) = (blocks.floor(), blocks - blocks.floor());
    let most = (MAX_ITEM / if d == Dim::Read { READ_BLOCK_BYTES } else { WRITE_BLOCK_BYTES }) as f64;
    if lo < 1.0 || lo + 1.0 > most || !(0.005..=0.995).contains(&frac) {
        return vec![Size::of((k, bytes, eventual), 1.0)];
    }
    let size = |b: f64| {
        let unit_bytes = if d == Dim::Read { READ_BLOCK_BYTES } else { WRITE_BLOCK_BYTES };
        (b * block, b as u64 * unit_bytes, eventual)
    };
    vec![Size::of(size(lo), 1.0 - frac), Size::of(size(lo + 1.0), frac)]
}

/// Is `u` units a request more than a request of one item of `k` units (plus its LSI entries)
/// can be?
pub(super) fn measured_over(u: f64, k: f64, lsi_all: f64, lsi_fixed: f64) -> bool {
    u > k * (1.0 + lsi_all) + lsi_fixed + 0.5
}

/// What each write spends on the table's LSIs: (how many LSIs project ALL, so their entry
/// costs what the item does; write units of the other LSIs' entries).
pub(super) fn lsi_charges(t: &TableDef) -> (f64, f64) {
    let mut all = 0.0;
    let mut fixed = 0.0;
    for l in &t.lsis {
        match l.projection {
            ProjectionDef::All => all += 1.0,
            p => fixed += entry_units(p, 0),
        }
    }
    (all, fixed)
}

/// A trace: one row a minute, a change only where the rate changes.
pub(crate) fn trace_csv(rates: &[f64]) -> String {
    let mut s = String::from("time_s,rate\n");
    let mut last = f64::NAN;
    for (m, &r) in rates.iter().enumerate() {
        let r = (r * 1_000.0).round() / 1_000.0;
        if r != last {
            let _ = writeln!(s, "{},{}", m * 60, r);
            last = r;
        }
    }
    s
}

/// Per minute: demand rebuilt from the history of `index` (`None`: the table) in dimension
/// `d`, in units a second (an estimate). A throttle event is one throttled attempt, so the
/// minute's `E` events are requests throttled at least once plus their retries. Retries are at
/// most 3 in 4 events (4 attempts), and at most what the SDK's retry quota funds: 100 from a
/// full bucket plus one per five successful first attempts (`S`, consumed units / units a
/// request). The rest, `E - min(0.75 E, 100 + S / 5)`, are requests that were dropped, each
/// adding its units to the demand; a request retried into success is already in the consumed
/// units. A light throttle adds a quarter of its events; a sustained one, whose quota is
/// empty, nearly all of them.
pub(super) fn demand(grid: &Grid, index: Option<&str>, d: Dim, units_per_request: f64) -> Option<Vec<f64>> {
    let consumed = grid.get(&Metric::Consumed(d), index)?;
    let events = grid.get(&Metric::ThrottleEvents(d), index).unwrap_or_else(|| vec![0.0; grid.minutes]);
    let u = units_per_request.max(f64::MIN_POSITIVE);
    Some(
        consumed
            .iter()
            .zip(&events)
            .map(|(c, e)| {
                let (c_min, e_min) = (c * 60.0, e * 60.0);
                let retries = (RETRY_SHARE * e_min).min(QUOTA_RETRIES + c_min / u / 5.0);
                c + (e_min - retries) * u / 60.0
            })
            .collect(),
    )
}

/// Per operation of dimension `d` on the table: requests a second per minute.
pub(super) fn requests_by_op(grid: &Grid, d: Dim) -> Vec<(&'static str, Vec<f64>)> {
    OPERATIONS
        .iter()
        .filter(|op| is_read(op) == (d == Dim::Read))
        .filter_map(|op| grid.get(&Metric::Requests((*op).to_string()), None).map(|v| (*op, v)))
        .filter(|(_, v)| v.iter().any(|x| *x > 0.0))
        .collect()
}

/// One `[[pattern]]` to write.
pub(super) struct Pat<'a> {
    /// A comment above it.
    note: String,
    name: &'a str,
    op: &'a str,
    index: Option<&'a str>,
    bytes: u64,
    eventual: bool,
    rate: String,
    /// A write: it maintains the indexes (filled in once their coverage is known).
    writes: bool,
}

impl Pat<'_> {
    fn write(&self, out: &mut String) {
        out.push('\n');
        if !self.note.is_empty() {
            let _ = writeln!(out, "# {}", self.note);
        }
        let _ = writeln!(out, "[[pattern]]\nname = {}\nop = \"{}\"", q(self.name), self.op);
        if let Some(i) = self.index {
            let _ = writeln!(out, "index = {}", q(i));
        }
        let _ = writeln!(out, "item_bytes = {}", self.bytes);
        if !self.writes && self.op != "scan" {
            let _ = writeln!(out, "consistency = \"{}\"", if self.eventual { "eventual" } else { "strong" });
        }
        let _ = writeln!(out, "rate = {}", self.rate);
        if self.writes {
            out.push_str("@INDEX_WRITES@\n");
        }
    }
}
