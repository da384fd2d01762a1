//! The scenario an import writes: the table as defined, traffic rebuilt from its history as
//! trace files, and every assumption spelled out where the user will edit it.

use super::def::{ProjectionDef, TableDef};
use super::metrics::{Grid, Metric, OPERATIONS};
use crate::model::Dim;
use std::fmt::Write as _;

/// Share of throttle events that can be retries: the `sdk-2026` client makes up to 4 attempts,
/// so at most 3 of every 4 events of a request are retries.
const RETRY_SHARE: f64 = 0.75;
/// Retries the SDK's retry quota funds in a minute of sustained throttling, beyond one per
/// five successful first attempts: a full 500-token bucket at 5 tokens a retry.
const QUOTA_RETRIES: f64 = 100.0;
/// Item size assumed when the definition has no `TableSizeBytes` / `ItemCount`.
const DEFAULT_ITEM_BYTES: u64 = 1_024;
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
fn q(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises").replace('\u{7f}', "\\u007F")
}

/// Text from the inputs made safe for a `#` comment: no control characters (a newline would
/// end the comment and leave the rest as broken TOML).
fn clean(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A TOML key: bare when it can be.
fn key(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        s.to_string()
    } else {
        q(s)
    }
}

fn scenario_op(op: &str) -> &'static str {
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

fn is_read(op: &str) -> bool {
    matches!(op, "GetItem" | "Query" | "Scan" | "BatchGetItem" | "TransactGetItems")
}

/// Units one request costs, and how the pattern charges it: (units, item bytes, eventual).
/// Reads of `u` read units: strongly consistent reads of `ceil(u)` x 4 KB, or eventually
/// consistent 4 KB reads when `u` is about a half; writes of `ceil(u)` x 1 KB.
/// An item is at most 400 KB: a request of more units (a Query page, a batch) is charged as
/// several requests of the largest item, so the units are kept.
fn charge(dim: Dim, u: f64) -> (f64, u64, bool) {
    match dim {
        Dim::Read if u < 0.75 => (0.5, 4_096, true),
        Dim::Read => {
            let k = u.round().clamp(1.0, (MAX_ITEM / 4_096) as f64);
            (k, k as u64 * 4_096, false)
        }
        Dim::Write => {
            let k = u.round().clamp(1.0, (MAX_ITEM / 1_024) as f64);
            (k, k as u64 * 1_024, false)
        }
    }
}

/// Is `u` units a request more than a request of one item of `k` units (plus its LSI entries)
/// can be?
fn measured_over(u: f64, k: f64, lsi_all: f64, lsi_fixed: f64) -> bool {
    u > k * (1.0 + lsi_all) + lsi_fixed + 0.5
}

/// The largest item, bytes (400 KB).
const MAX_ITEM: u64 = 400 * 1_024;

/// What each write spends on the table's LSIs: (how many LSIs project ALL, so their entry
/// costs what the item does; write units of the other LSIs' entries).
fn lsi_charges(t: &TableDef) -> (f64, f64) {
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

/// Write units of one index entry of an item of `item` bytes.
fn entry_units(p: ProjectionDef, item: u64) -> f64 {
    let bytes = match p {
        ProjectionDef::All => item,
        ProjectionDef::KeysOnly => 100,
        ProjectionDef::Include(n) => 100 + n as u64 * INCLUDE_ATTRIBUTE_BYTES,
    };
    bytes.div_ceil(1_024).max(1) as f64
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
            Some(format!("{} = {{ min = {min}, max = {max}, target = {target} }}", if d == Dim::Read { "read" } else { "write" }))
        })
        .collect();
    (!dims.is_empty()).then(|| format!("{{ {} }}", dims.join(", ")))
}

/// A trace: one row a minute, a change only where the rate changes.
fn trace_csv(rates: &[f64]) -> String {
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
fn demand(grid: &Grid, index: Option<&str>, d: Dim, units_per_request: f64) -> Option<Vec<f64>> {
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
fn requests_by_op(grid: &Grid, d: Dim) -> Vec<(&'static str, Vec<f64>)> {
    OPERATIONS
        .iter()
        .filter(|op| is_read(op) == (d == Dim::Read))
        .filter_map(|op| grid.get(&Metric::Requests((*op).to_string()), None).map(|v| (*op, v)))
        .filter(|(_, v)| v.iter().any(|x| *x > 0.0))
        .collect()
}

/// The recorded provisioned capacity's changes, as the UpdateTables that made them, for each
/// provisioned resource without auto scaling (with auto scaling, the simulation scales it).
///
/// A change shows in the minute it completes. When a minute's average lies between the levels
/// before and after it, the change completed within that minute, at the share of the minute the
/// average says; otherwise at the minute's start. Each UpdateTable is issued its latency
/// earlier: `update_latency`, or `partition_add_latency` when the new capacity needs more
/// partitions (`ceil(RCU/3000 + WCU/1000)`, doubling) than the resource had.
fn capacity_actions(t: &TableDef, g: &Grid) -> String {
    use crate::scenario::defaults::{PARTITION_ADD_LATENCY, UPDATE_LATENCY};
    let mut out = String::new();
    let resources = std::iter::once((None, t.provisioned.is_some(), t.size_bytes))
        .chain(t.gsis.iter().map(|x| (Some(x.name.as_str()), x.provisioned.is_some(), x.size_bytes)));
    for (index, provisioned, bytes) in resources {
        let scaled = Dim::ALL.iter().any(|&d| t.scaling.contains_key(&(index.map(str::to_string), d)));
        if !provisioned || scaled {
            continue;
        }
        let (Some(r), Some(w)) = (g.get(&Metric::Provisioned(Dim::Read), index), g.get(&Metric::Provisioned(Dim::Write), index)) else {
            continue;
        };
        // (second the change completes, dimension, new units)
        let mut changes: Vec<(u64, Dim, u64)> = Vec::new();
        for (d, v) in [(Dim::Read, &r), (Dim::Write, &w)] {
            let mut level = v[0].round();
            let mut m = 1;
            while m < v.len() {
                let x = v[m];
                if x <= 0.0 || (x - level).abs() < 0.5 {
                    m += 1;
                    continue;
                }
                let next = v.get(m + 1).copied().filter(|n| *n > 0.0 && (n - x).abs() >= 0.5);
                match next {
                    Some(n) if (x - level) * (n - x) > 0.0 => {
                        // Part of minute m at the old level, the rest at the new one.
                        let f = (x - level) / (n - level);
                        changes.push(((m as u64 + 1) * 60 - (f * 60.0).round() as u64, d, n.round() as u64));
                        level = n.round();
                        m += 2;
                    }
                    _ => {
                        changes.push((m as u64 * 60, d, x.round() as u64));
                        level = x.round();
                        m += 1;
                    }
                }
            }
        }
        changes.sort_by_key(|c| (c.0, c.1 as u8));
        let seed_parts = bytes.map_or(1, |b| b.div_ceil(crate::limits::SEED_PARTITION_BYTES)).max(1);
        let needed = |rcu: u64, wcu: u64| (rcu + 3 * wcu).div_ceil(3_000).max(1);
        let (mut rcu, mut wcu) = (r[0].round() as u64, w[0].round() as u64);
        let mut parts = needed(rcu, wcu).max(seed_parts);
        if !changes.is_empty() {
            let _ = writeln!(
                out,
                "\n# The recorded provisioned capacity of {}, as the UpdateTables that set it:",
                clean(index.unwrap_or(&t.name))
            );
        }
        for (at, d, units) in changes {
            if d == Dim::Read {
                rcu = units;
            } else {
                wcu = units;
            }
            let mut latency = UPDATE_LATENCY.as_secs();
            if needed(rcu, wcu) > parts {
                latency = PARTITION_ADD_LATENCY.as_secs();
                while parts < needed(rcu, wcu) {
                    parts *= 2;
                }
            }
            let issue = at.saturating_sub(latency);
            let _ = write!(
                out,
                "[[at]]\ntime = \"{issue}s\"\nset_capacity = {{ {} = {units} }}\n",
                if d == Dim::Read { "read" } else { "write" }
            );
            if let Some(i) = index {
                let _ = writeln!(out, "index = {}", q(i));
            }
        }
    }
    out
}

/// One `[[pattern]]` to write.
struct Pat<'a> {
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

/// The scenario, and its trace files named `{stem}-{pattern}.csv`.
#[allow(clippy::too_many_lines)] // one document, written top to bottom
/// Key skew read from a Contributor Insights report: its top `keys` took `share` of the
/// traffic of key attribute `key`.
pub(crate) struct Skew {
    pub(crate) key: String,
    pub(crate) keys: u64,
    pub(crate) share: f64,
    pub(crate) source: String,
}

pub(crate) fn scenario(t: &TableDef, grid: Option<&Grid>, sources: &[String], notes: &[String], stem: &str, skews: &[Skew]) -> Written {
    let mut s = String::new();
    let mut traces = Vec::new();
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
    let item = match (t.size_bytes, t.item_count) {
        (Some(b), Some(n)) if n > 0 && b > 0 => (b / n).clamp(1, MAX_ITEM),
        _ => DEFAULT_ITEM_BYTES,
    };
    let item_assumed = !matches!((t.size_bytes, t.item_count), (Some(b), Some(n)) if n > 0 && b > 0);

    // ------------------------------------------------------------------ [scenario]
    s.push_str("\n[scenario]\n");
    let _ = writeln!(s, "name = {}", q(stem));
    match grid {
        Some(g) => {
            let _ = writeln!(s, "description = {}", q(&format!("{} replayed from {} minutes of CloudWatch history", t.name, g.minutes)));
            let _ = writeln!(s, "duration = \"{}m\"", g.minutes);
            let start = time::OffsetDateTime::from_unix_timestamp(g.start).map_or_else(
                |_| "2026-01-01T00:00:00Z".into(),
                |d| format!("{:04}-{:02}-{:02}T{:02}:{:02}:00Z", d.year(), u8::from(d.month()), d.day(), d.hour(), d.minute()),
            );
            let _ = writeln!(s, "start = \"{start}\"");
        }
        None => {
            let _ = writeln!(s, "description = {}", q(&format!("{} from its definition", t.name)));
            s.push_str("duration = \"1h\"  # ASSUMPTION: no metrics given; an hour of the traffic below\n");
        }
    }

    // ------------------------------------------------------------------ [pricing]
    // A running table's history is its ordinary traffic: its bill is stated for the window and,
    // labelled, for a month (the default below a day would state the window only).
    s.push_str("\n[pricing]\n");
    s.push_str("extrapolate = \"repeat\"  # ASSUMPTION: this history is the table's usual traffic; \"none\" prices the window alone\n");
    let known = crate::scenario::validate::KNOWN_REGIONS;
    let home = match &t.region {
        Some(r) if known.contains(&r.as_str()) => {
            let _ = writeln!(s, "region = {}", q(r));
            r.clone()
        }
        Some(r) => {
            let _ = writeln!(
                s,
                "# The table is in {}, which has no built-in price catalog: priced at us-east-1's; give `--prices FILE` for its own.",
                clean(r)
            );
            "us-east-1".to_string()
        }
        None => "us-east-1".to_string(),
    };

    // ------------------------------------------------------------------ [table]
    s.push_str("\n[table]\n");
    let _ = writeln!(s, "name = {}", q(&t.name));
    let _ = writeln!(s, "partition_key = {}", q(&t.hash_key));
    // Capacity: the history's first provisioned value when there is one, else the definition's.
    let first_provisioned =
        |d: Dim| grid.and_then(|g| g.get(&Metric::Provisioned(d), None)).and_then(|v| v.first().copied()).filter(|x| *x >= 1.0);
    let base = t
        .provisioned
        .map(|p| [first_provisioned(Dim::Read).map_or(p[0], |x| x as u64), first_provisioned(Dim::Write).map_or(p[1], |x| x as u64)]);
    match base {
        Some([r, w]) => {
            let _ = writeln!(s, "capacity = {{ mode = \"provisioned\", read = {r}, write = {w} }}");
        }
        None => {
            let mut parts = vec!["mode = \"on_demand\"".to_string()];
            if let Some([r, w]) = t.warm {
                parts.push(format!("warm_read = {}, warm_write = {}", r.max(12_000), w.max(4_000)));
            }
            if let Some(m) = t.max[0] {
                parts.push(format!("max_read = {m}"));
            }
            if let Some(m) = t.max[1] {
                parts.push(format!("max_write = {m}"));
            }
            let _ = writeln!(s, "capacity = {{ {} }}", parts.join(", "));
        }
    }
    if let Some(a) = scaling_text(t, None, base) {
        let _ = writeln!(s, "autoscaling = {a}");
        if grid.is_some_and(|g| {
            g.get(&Metric::Provisioned(Dim::Read), None).is_some() || g.get(&Metric::Provisioned(Dim::Write), None).is_some()
        }) {
            s.push_str(
                "# The history's provisioned capacity is not replayed for this table: its auto scaling sets capacity in the simulation.\n",
            );
        }
    }
    if t.infrequent_access {
        s.push_str("table_class = \"standard_ia\"\n");
    }
    if let Some(m) = &t.insights {
        let _ = writeln!(s, "contributor_insights = {}", q(m));
    }
    if let Some(b) = t.size_bytes {
        let _ = writeln!(s, "storage_gb = {}", b as f64 / 1e9);
    }
    if let Some(v) = &t.stream {
        match v.as_str() {
            "KEYS_ONLY" | "NEW_IMAGE" | "OLD_IMAGE" | "NEW_AND_OLD_IMAGES" => {
                let _ = writeln!(s, "\n[table.streams]\nview = \"{}\"", v.to_ascii_lowercase());
                s.push_str(
                    "consumers = []  # ASSUMPTION: the definition does not name the stream's readers; add { kind = \"lambda\" } (free) \
                     or { kind = \"poller\", poll_interval = \"1s\" } (each GetRecords call billed)\n",
                );
            }
            other => {
                let _ = writeln!(s, "# Streams ({}) are on, with a view type ddbsim does not know: not modelled.", clean(other));
            }
        }
    }

    // ------------------------------------------------------------------ [[replica]]
    for (region, read) in &t.replicas {
        if *region == home {
            continue;
        }
        if !known.contains(&region.as_str()) {
            let _ = writeln!(s, "\n# A replica in {} is not modelled: ddbsim has no price catalog for that region.", clean(region));
            continue;
        }
        let _ = writeln!(s, "\n[[replica]]\nregion = {}", q(region));
        if let (Some(r), Some(_)) = (read, t.provisioned) {
            let _ = writeln!(s, "read_capacity = {r}");
        }
    }

    // ------------------------------------------------------------------ [keys]
    let mut spaces: Vec<(String, bool)> = vec![(t.hash_key.clone(), true)];
    for g in &t.gsis {
        if !spaces.iter().any(|(k, _)| k == &g.hash_key) {
            spaces.push((g.hash_key.clone(), false));
        }
    }
    for (k, is_table) in &spaces {
        let _ = writeln!(s, "\n[keys.{}]", key(k));
        let card = if *is_table { t.item_count.filter(|n| *n > 0).unwrap_or(DEFAULT_CARDINALITY) } else { DEFAULT_INDEX_CARDINALITY };
        let _ = writeln!(
            s,
            "cardinality = {card}  # ASSUMPTION: {}",
            if *is_table && t.item_count.is_some() {
                "one item per value (ItemCount); fewer values if they hold collections"
            } else {
                "distinct values of this attribute"
            }
        );
        match skews.iter().find(|x| &x.key == k) {
            Some(x) if x.share < 1e-4 || x.keys >= card => {
                let _ = writeln!(
                    s,
                    "popularity = \"uniform\"  # from Contributor Insights ({}): its top {} keys took {:.4} % of the traffic",
                    clean(&x.source),
                    x.keys,
                    x.share * 100.0
                );
            }
            Some(x) => {
                let share = (x.share * 1e4).round() / 1e4;
                let _ = writeln!(
                    s,
                    "popularity = {{ hot = {{ keys = {}, share = {share} }} }}  # from Contributor Insights ({}): its top {} keys took {:.2} % of the traffic; the rest spread evenly",
                    x.keys,
                    clean(&x.source),
                    x.keys,
                    share * 100.0
                );
            }
            None => {
                let _ = writeln!(s, "popularity = {{ zipf = {DEFAULT_ZIPF} }}  # ASSUMPTION: a moderate skew; a Contributor Insights top-keys report tells the real one");
            }
        }
        if *is_table {
            if let Some(rk) = &t.range_key {
                let _ =
                    writeln!(s, "# The table has a sort key ({}): if values hold many items, add sort_keys = {{ items = N }}.", clean(rk));
            }
        }
    }

    // ------------------------------------------------------------------ indexes
    for g in &t.gsis {
        let _ =
            writeln!(s, "\n[[gsi]]\nname = {}\npartition_key = {}\nprojection = {}", q(&g.name), q(&g.hash_key), projection(g.projection));
        if let ProjectionDef::Include(n) = g.projection {
            let _ = writeln!(s, "# ASSUMPTION: the {n} included attributes take {INCLUDE_ATTRIBUTE_BYTES} bytes each");
        }
        if let Some(m) = &g.insights {
            let _ = writeln!(s, "contributor_insights = {}", q(m));
        }
        // A provisioned table's index is provisioned too; a definition that leaves its capacity
        // out gets the table's (stated as an assumption).
        let own = g.provisioned.or_else(|| {
            let p = t.provisioned?;
            let _ = writeln!(
                s,
                "# ASSUMPTION: the definition gives this index no capacity; it takes the table's ({} RCU / {} WCU)",
                p[0], p[1]
            );
            Some(p)
        });
        let gbase = own.map(|p| {
            let f = |d: Dim| {
                grid.and_then(|gr| gr.get(&Metric::Provisioned(d), Some(&g.name))).and_then(|v| v.first().copied()).filter(|x| *x >= 1.0)
            };
            [f(Dim::Read).map_or(p[0], |x| x as u64), f(Dim::Write).map_or(p[1], |x| x as u64)]
        });
        match gbase {
            Some([r, w]) => {
                let _ = writeln!(s, "capacity = {{ read = {r}, write = {w} }}");
            }
            None => {
                let mut parts = Vec::new();
                if let Some([r, w]) = g.warm {
                    parts.push(format!("warm_read = {}, warm_write = {}", r.max(12_000), w.max(4_000)));
                }
                if let Some(m) = g.max[0] {
                    parts.push(format!("max_read = {m}"));
                }
                if let Some(m) = g.max[1] {
                    parts.push(format!("max_write = {m}"));
                }
                if !parts.is_empty() {
                    let _ = writeln!(s, "capacity = {{ {} }}", parts.join(", "));
                }
            }
        }
        if let Some(a) = scaling_text(t, Some(&g.name), gbase) {
            let _ = writeln!(s, "autoscaling = {a}");
        }
    }
    for l in &t.lsis {
        let _ = writeln!(s, "\n[[lsi]]\nname = {}\nprojection = {}", q(&l.name), projection(l.projection));
    }

    // ------------------------------------------------------------------ patterns
    let mut index_writes: Vec<String> = Vec::new();
    let mut write_requests_total = 0.0;
    let mut patterns = String::new();
    match grid {
        Some(g) => {
            for d in Dim::ALL {
                let ops = requests_by_op(g, d);
                let consumed = g.get(&Metric::Consumed(d), None);
                let total_units: f64 = consumed.iter().flatten().sum();
                let total_requests: f64 = ops.iter().flat_map(|(_, v)| v.iter()).sum();
                // A write's consumed units include its LSI entries (LSIs share the table's
                // capacity): `k` units of item and, per LSI, an entry as large as the item
                // (ALL) or of its projected bytes.
                let (lsi_all, lsi_fixed) = if d == Dim::Write { lsi_charges(t) } else { (0.0, 0.0) };
                let assumed =
                    if d == Dim::Read { item.div_ceil(4_096) as f64 } else { item.div_ceil(1_024) as f64 * (1.0 + lsi_all) + lsi_fixed };
                let u = if total_requests > 0.0 && total_units > 0.0 { total_units / total_requests } else { assumed };
                let (k, bytes, eventual) = charge(d, ((u - lsi_fixed) / (1.0 + lsi_all)).max(0.5));
                let per_request = if d == Dim::Write { k * (1.0 + lsi_all) + lsi_fixed } else { k };
                let Some(units) = demand(g, None, d, u) else { continue };
                let ops: Vec<(&str, Vec<f64>)> =
                    if ops.is_empty() { vec![(if d == Dim::Read { "GetItem" } else { "PutItem" }, vec![1.0; g.minutes])] } else { ops };
                let per_minute_total: Vec<f64> = (0..g.minutes).map(|m| ops.iter().map(|(_, v)| v[m]).sum()).collect();
                let overall: Vec<f64> = ops.iter().map(|(_, v)| v.iter().sum::<f64>()).collect();
                let overall_sum: f64 = overall.iter().sum();
                for (i, (op, req)) in ops.iter().enumerate() {
                    let rates: Vec<f64> = (0..g.minutes)
                        .map(|m| {
                            let share = if per_minute_total[m] > 0.0 {
                                req[m] / per_minute_total[m]
                            } else {
                                overall[i] / overall_sum.max(f64::MIN_POSITIVE)
                            };
                            units[m] * share / per_request
                        })
                        .collect();
                    if d == Dim::Write {
                        write_requests_total += rates.iter().sum::<f64>() * 60.0;
                    }
                    let name = format!("{}-{}", if d == Dim::Read { "read" } else { "write" }, scenario_op(op).replace('_', "-"));
                    let file = format!("{stem}-{name}.csv");
                    traces.push((file.clone(), trace_csv(&rates)));
                    let note = if total_requests > 0.0 {
                        if lsi_all + lsi_fixed > 0.0 {
                            format!(
                                "{op}: {u:.2} units a request (consumed / SuccessfulRequestLatency SampleCount), its LSI entries included"
                            )
                        } else {
                            format!("{op}: {u:.2} units a request (consumed / SuccessfulRequestLatency SampleCount)")
                        }
                    } else {
                        format!(
                            "ASSUMPTION: every {} is a {op} of {item}-byte items ({assumed} units)",
                            if d == Dim::Read { "read" } else { "write" }
                        )
                    };
                    let note = if measured_over(u, k, lsi_all, lsi_fixed) {
                        format!("{note}; more than one 400 KB item, so charged as several requests of 400 KB (the units kept)")
                    } else {
                        note
                    };
                    let measured = total_requests > 0.0;
                    Pat {
                        note,
                        name: &name,
                        op: scenario_op(op),
                        index: None,
                        bytes: if measured { bytes } else { item },
                        eventual: eventual && measured,
                        rate: format!("{{ trace = {} }}", q(&file)),
                        writes: d == Dim::Write,
                    }
                    .write(&mut patterns);
                }
            }
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
                    bytes: 4_096,
                    eventual: true,
                    rate: format!("{{ trace = {} }}", q(&file)),
                    writes: false,
                }
                .write(&mut patterns);
            }
        }
        None => {
            let (r, w) = match t.provisioned {
                Some([r, w]) => ((r as f64 * 0.5).max(1.0), (w as f64 * 0.5).max(1.0)),
                None => (100.0, 100.0),
            };
            let why = if t.provisioned.is_some() { "half the provisioned capacity" } else { "100 requests a second" };
            let rk = item.div_ceil(4_096) as f64;
            let wk = item.div_ceil(1_024) as f64;
            let note = format!("ASSUMPTION: no metrics given: reads and writes at {why}; give --metrics to replay your history");
            let rate = format!("{{ constant = {} }}", (r / rk).max(1.0).round());
            Pat { note, name: "read", op: "get_item", index: None, bytes: item, eventual: false, rate, writes: false }.write(&mut patterns);
            let rate = format!("{{ constant = {} }}", (w / wk).max(1.0).round());
            Pat { note: String::new(), name: "write", op: "put_item", index: None, bytes: item, eventual: false, rate, writes: true }
                .write(&mut patterns);
        }
    }
    // Every write maintains every GSI; the share of items carrying its key comes from the
    // history (index write units / table writes), else from item counts.
    for gi in &t.gsis {
        let per = entry_units(gi.projection, item);
        let from_history = grid.and_then(|g| g.get(&Metric::Consumed(Dim::Write), Some(&gi.name))).map(|v| v.iter().sum::<f64>() * 60.0);
        let coverage = match (from_history, write_requests_total) {
            (Some(units), w) if w > 0.0 => Some((units / (w * per)).clamp(0.0, 1.0)),
            _ => match (gi.item_count, t.item_count) {
                (Some(a), Some(b)) if b > 0 => Some((a as f64 / b as f64).clamp(0.0, 1.0)),
                _ => None,
            },
        };
        index_writes.push(format!("{} = \"insert\"", key(&gi.name)));
        if let Some(c) = coverage {
            // The coverage lives on the index.
            let marker = format!("[[gsi]]\nname = {}\n", q(&gi.name));
            s = s.replacen(
                &marker,
                &format!("{marker}coverage = {:.4}  # share of items with its key (from the history or item counts)\n", c),
                1,
            );
        } else {
            let marker = format!("[[gsi]]\nname = {}\n", q(&gi.name));
            s = s.replacen(&marker, &format!("{marker}# ASSUMPTION: every item carries this index's key (coverage = 1)\n"), 1);
        }
    }
    let iw = if index_writes.is_empty() { String::new() } else { format!("index_writes = {{ {} }}", index_writes.join(", ")) };
    if item_assumed {
        let _ = writeln!(s, "\n# ASSUMPTION: items of {DEFAULT_ITEM_BYTES} bytes (the definition has no TableSizeBytes and ItemCount).");
    }
    s.push_str(&patterns.replace("@INDEX_WRITES@\n", &if iw.is_empty() { String::new() } else { format!("{iw}\n") }));
    if let Some(g) = grid {
        s.push_str(&capacity_actions(t, g));
    }
    Written { scenario: s, traces }
}
