//! The scenario an import writes: the table as defined, traffic rebuilt from its history as
//! trace files, and every assumption spelled out where the user will edit it.

use super::def::{ProjectionDef, TableDef};
use super::metrics::{Grid, Metric};
use crate::model::Dim;
use std::fmt::Write as _;

mod actions;
mod definition;
mod patterns;

pub(crate) use patterns::trace_csv;

/// Item size assumed when the definition has no `TableSizeBytes` / `ItemCount`.
const DEFAULT_ITEM_BYTES: u64 = crate::scenario::defaults::ITEM_BYTES;
/// Bytes of one non-key attribute of an `INCLUDE` projection (an assumption).
const INCLUDE_ATTRIBUTE_BYTES: u64 = 100;
/// Key cardinality assumed when the definition does not say.
const DEFAULT_CARDINALITY: u64 = 1_000_000;
/// Cardinality assumed for a GSI's partition key.
const DEFAULT_INDEX_CARDINALITY: u64 = 10_000;
/// Key popularity assumed: a moderate skew (the busiest of 1,000,000 keys takes 1.3 %).
const DEFAULT_ZIPF: f64 = 0.8;

/// What the writer produces.
pub(crate) struct Written {
    pub(crate) scenario: String,
    /// (file name, CSV text) of each trace.
    pub(crate) traces: Vec<(String, String)>,
}

/// A TOML string (JSON's escapes are TOML's, but TOML also refuses a raw DEL).
/// A TOML string. Control and invisible format characters (which a scenario refuses in names:
/// they change what a reader sees) become U+FFFD, the same in every place a name is written,
/// so references still match.
fn q(s: &str) -> String {
    let visible: String = s.chars().map(|c| if crate::scenario::validate::is_unprintable(c) { '\u{fffd}' } else { c }).collect();
    serde_json::to_string(&visible).expect("a string serialises")
}

/// Text from the inputs made safe for a `#` comment: no control characters (a newline would
/// end the comment and leave the rest as broken TOML).
fn clean(s: &str) -> String {
    crate::scenario::validate::shown(s, usize::MAX)
}

/// A TOML key: bare when it can be.
fn key(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        s.to_string()
    } else {
        q(s)
    }
}

/// The largest item, bytes (400 KB).
const MAX_ITEM: u64 = crate::limits::MAX_ITEM_BYTES;

/// Write units of one index entry of an item of `item` bytes.
fn entry_units(p: ProjectionDef, item: u64) -> f64 {
    let bytes = match p {
        ProjectionDef::All => item,
        ProjectionDef::KeysOnly => 100,
        ProjectionDef::Include(n) => 100 + n as u64 * INCLUDE_ATTRIBUTE_BYTES,
    };
    bytes.div_ceil(crate::limits::WRITE_BLOCK_BYTES).max(1) as f64
}

fn projection(p: ProjectionDef) -> String {
    match p {
        ProjectionDef::All => "\"all\"".into(),
        ProjectionDef::KeysOnly => "\"keys_only\"".into(),
        ProjectionDef::Include(n) => format!("{{ include_bytes = {} }}", 100 + n as u64 * INCLUDE_ATTRIBUTE_BYTES),
    }
}

fn scaling_text(t: &TableDef, index: Option<&str>, base: Option<[u64; 2]>) -> Option<String> {
    let dims: Vec<String> = Dim::ALL
        .iter()
        .filter_map(|&d| {
            let s = t.scaling.get(&(index.map(str::to_string), d))?;
            let cur = base.map_or(1, |b| b[d as usize]);
            let min = s.min.unwrap_or(cur).max(1);
            let max = s.max.unwrap_or(min.max(cur)).max(min);
            let target = s.target.unwrap_or(70.0).clamp(20.0, 90.0);
            let cooldowns: String = ["scale_in_cooldown", "scale_out_cooldown"]
                .iter()
                .zip(s.cooldowns)
                .filter_map(|(k, c)| c.map(|c| format!(", {k} = \"{c}s\"")))
                .collect();
            Some(format!(
                "{} = {{ min = {min}, max = {max}, target = {target}{cooldowns} }}",
                if d == Dim::Read { "read" } else { "write" }
            ))
        })
        .collect();
    (!dims.is_empty()).then(|| format!("{{ {} }}", dims.join(", ")))
}

/// Key skew read from a Contributor Insights report: its top `keys` took `share` of the
/// traffic of key attribute `key`.
pub(crate) struct Skew {
    pub(crate) key: String,
    pub(crate) keys: u64,
    pub(crate) share: f64,
    pub(crate) source: String,
}

/// The scenario, and its trace files named `{stem}-{pattern}.csv`: the definition's sections,
/// then the traffic rebuilt from the history (or assumed from `traffic`'s capacity, else the
/// table's), then the recorded capacity changes.
pub(crate) fn scenario(
    t: &TableDef,
    grid: Option<&Grid>,
    sources: &[String],
    notes: &[String],
    stem: &str,
    skews: &[Skew],
    traffic: Option<&TableDef>,
) -> Written {
    let mut s = header(grid, sources, notes);
    let (item, item_assumed) = item_bytes(t);
    definition::scenario_section(&mut s, t, grid, stem);
    let home = definition::pricing_section(&mut s, t);
    definition::table_section(&mut s, t, grid);
    definition::replica_sections(&mut s, t, &home);
    definition::key_sections(&mut s, t, skews);
    definition::index_sections(&mut s, t, grid);
    let mut traces = Vec::new();
    let mut patterns = String::new();
    let written = match grid {
        Some(g) => patterns::from_history(t, g, item, stem, &mut traces, &mut patterns),
        None => {
            patterns::assumed(traffic.unwrap_or(t), traffic.is_some(), item, &mut patterns);
            0.0
        }
    };
    let index_writes = patterns::index_coverage(&mut s, t, grid, item, written);
    let iw = if index_writes.is_empty() { String::new() } else { format!("index_writes = {{ {} }}", index_writes.join(", ")) };
    if item_assumed {
        let _ = writeln!(s, "\n# ASSUMPTION: items of {DEFAULT_ITEM_BYTES} bytes (the definition has no TableSizeBytes and ItemCount).");
    }
    let _ = writeln!(
        s,
        "\n# Item sizes are {}.\n# To size a pattern's items to the byte, and its index entries with them, give it item_bytes =\n# {{ item = \"item.json\" }} (`aws dynamodb get-item` output beside this file) or\n# {{ attributes = {{ PK = \"S:24\", total = \"N:6\" }} }}.",
        if item_assumed { format!("assumed, {item} bytes") } else { format!("the table's mean, {item} bytes (TableSizeBytes / ItemCount)") }
    );
    s.push_str(&patterns.replace("@INDEX_WRITES@\n", &if iw.is_empty() { String::new() } else { format!("{iw}\n") }));
    if let Some(g) = grid {
        s.push_str(&actions::capacity_actions(t, g));
    }
    Written { scenario: s, traces }
}

/// The mean item's bytes (TableSizeBytes / ItemCount), and whether that is assumed instead.
fn item_bytes(t: &TableDef) -> (u64, bool) {
    match (t.size_bytes, t.item_count) {
        (Some(b), Some(n)) if n > 0 && b > 0 => ((b / n).clamp(1, MAX_ITEM), false),
        _ => (DEFAULT_ITEM_BYTES, true),
    }
}

/// What an import says of a history whose table units are the table's and its GSIs' together
/// (a Cost and Usage Report): how each write's units are split, so the replay bills them once.
pub(crate) fn index_split_note(t: &TableDef) -> String {
    let (item, _) = item_bytes(t);
    let table = item.div_ceil(crate::limits::WRITE_BLOCK_BYTES).max(1);
    if t.gsis.is_empty() {
        return format!(
            "the Cost and Usage Report bills a table's GSIs under the table; {} has none, so its units are the table's",
            t.name
        );
    }
    let index = patterns::gsi_units_per_write(t, item);
    format!(
        "the Cost and Usage Report bills a table's GSIs under the table: {}'s write units are the table's and its indexes' together, \
         split by the definition: each write is {table} unit(s) of item and {index:.2} of index entries (each GSI's share of items times its entry's units), \
         so the replay bills the report's units once (an estimate where the GSIs' item counts are not given)",
        t.name
    )
}

/// The GSIs whose reads the history `grid` has no consumed series for: the scenario cannot
/// rebuild them, and says so. (An index's writes follow the table's writes and its coverage,
/// which the import rebuilds or states as an assumption.)
pub(crate) fn unrecorded_reads(t: &TableDef, grid: &Grid) -> Vec<String> {
    t.gsis.iter().filter(|g| grid.get(&Metric::Consumed(Dim::Read), Some(&g.name)).is_none()).map(|g| g.name.clone()).collect()
}

/// The comments that open the scenario: where it came from, what is estimated, the notes.
fn header(grid: Option<&Grid>, sources: &[String], notes: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Imported by `ddbsim import` from {}.", sources.join(", "));
    s.push_str("# Lines marked ASSUMPTION say what the definition and metrics cannot: edit them to match your data.\n");
    if grid.is_some() {
        s.push_str(
            "# Traffic is rebuilt from CloudWatch: consumed units plus an ESTIMATE of the throttled demand:\n\
             # the requests the SDK dropped, each minute's throttle events less the retries among them (at\n\
             # most 3 in 4 events, and at most what the retry quota funds: 100 plus one per 5 successful\n\
             # requests, for one SDK client), times the units a request. Requests retried into success are\n\
             # already in the consumed units. Every figure that depends on it is an estimate.\n",
        );
    }
    for n in notes {
        let _ = writeln!(s, "# NOTE: {}", clean(n));
    }
    s
}
