//! `ddbsim import`: a scenario from the table a team already runs — its definition
//! (`describe-table`, CloudFormation or CDK, `terraform show -json`, Application Auto Scaling)
//! and its CloudWatch history (`get-metric-data`, `get-metric-statistics`, the console's CSV).
//!
//! Formats are recognised from content, not file names. What the inputs cannot say (key
//! cardinality and skew, item sizes without `TableSizeBytes`) is written as a commented
//! `ASSUMPTION` for the user to edit; demand rebuilt from throttled history is labelled an
//! estimate.

mod cur;
pub mod def;
mod metrics;
pub mod queries;
mod write;

pub use def::{IndexDef, ProjectionDef, ScalingDef, TableDef};
pub(crate) use write::trace_csv;

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Largest input file read, bytes.
const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// An input that cannot be imported: the file, where in it (a JSON pointer, which also
/// addresses YAML, or a line), and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {}{message}", file.display(), if at.is_empty() { String::new() } else { format!("at {at}: ") })]
pub struct ImportError {
    /// The file.
    pub file: PathBuf,
    /// JSON pointer or line.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

/// A parsed input document.
pub(crate) struct Doc {
    pub(crate) path: PathBuf,
    pub(crate) value: Value,
}

impl Doc {
    pub(crate) fn error(&self, at: &str, message: impl Into<String>) -> ImportError {
        ImportError { file: self.path.clone(), at: at.to_string(), message: message.into() }
    }
}

/// What an import produced.
#[derive(Debug)]
pub struct Imported {
    /// The scenario's TOML.
    pub scenario: String,
    /// Trace files to write beside it: (file name, CSV).
    pub traces: Vec<(String, String)>,
    /// The table as read (for tests and `--json`).
    pub table: TableDef,
    /// What was skipped, unresolved or odd in the inputs.
    pub notes: Vec<String>,
    /// Where each provisioned resource's simulated capacity comes from, when a revision's
    /// definition is imported with a history (`own_capacity`): its definition or the history.
    pub capacity_notes: Vec<String>,
}

/// An input file's text, as JSON, YAML (CloudFormation) or CSV (the console's metrics, or a
/// Cost and Usage Report).
enum Input {
    Json(Doc),
    Csv(PathBuf, String),
    Cur(cur::Cur),
}

/// A file's text; gzip (a Cost and Usage Report's delivery) is inflated, every member of it (files
/// joined with `cat` are several), to the same cap.
fn read_text(path: &Path) -> Result<String, ImportError> {
    let err = |m: String| ImportError { file: path.to_path_buf(), at: String::new(), message: m };
    let bytes = crate::input::read_capped(path, MAX_INPUT_BYTES, "input file").map_err(|e| err(format!("cannot read: {e}")))?;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut out)
            .map_err(|e| err(format!("not valid gzip: {e}")))?;
        if out.len() as u64 > MAX_INPUT_BYTES {
            return Err(err(format!("inflates to more than {} MiB; ddbsim reads at most that of one file", MAX_INPUT_BYTES >> 20)));
        }
        out
    } else {
        bytes
    };
    String::from_utf8(bytes).map_err(|e| err(format!("cannot read: the input file is not UTF-8 text: {}", e.utf8_error())))
}

fn read_input(path: &Path) -> Result<Input, ImportError> {
    let err = |m: String| ImportError { file: path.to_path_buf(), at: String::new(), message: m };
    let text = read_text(path)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if cur::is_cur(text) {
        return Ok(Input::Cur(cur::parse(path, text)?));
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value: Value = serde_json::from_str(text).map_err(|e| ImportError {
            file: path.to_path_buf(),
            at: format!("line {}, column {}", e.line(), e.column()),
            message: format!("not valid JSON: {e}"),
        })?;
        return Ok(Input::Json(Doc { path: path.to_path_buf(), value }));
    }
    let looks_yaml = text.lines().any(|l| l.starts_with("Resources:") || l.starts_with("AWSTemplateFormatVersion"));
    if looks_yaml {
        let y: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).map_err(|e| {
            let at = e.location().map(|l| format!("line {}, column {}", l.line(), l.column())).unwrap_or_default();
            ImportError { file: path.to_path_buf(), at, message: format!("not valid YAML: {e}") }
        })?;
        return Ok(Input::Json(Doc { path: path.to_path_buf(), value: yaml_to_json(y) }));
    }
    if text.lines().next().is_some_and(|l| l.contains(',')) {
        return Ok(Input::Csv(path.to_path_buf(), text.to_string()));
    }
    Err(err("not a table definition or metrics file ddbsim reads (JSON from the AWS CLI or Terraform, a CloudFormation template, or CloudWatch CSV)".into()))
}

/// A CloudFormation YAML document as the JSON form of the template: short-form tags become
/// their long forms (`!Ref X` is `{"Ref": "X"}`, `!GetAtt A.B` is `{"Fn::GetAtt": ["A", "B"]}`,
/// `!Sub` is `{"Fn::Sub": ...}`, and so on).
fn yaml_to_json(y: serde_yaml_ng::Value) -> Value {
    use serde_yaml_ng::Value as Y;
    match y {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => n
            .as_u64()
            .map(Value::from)
            .or_else(|| n.as_i64().map(Value::from))
            .or_else(|| n.as_f64().map(Value::from))
            .unwrap_or(Value::Null),
        Y::String(s) => Value::String(s),
        Y::Sequence(a) => Value::Array(a.into_iter().map(yaml_to_json).collect()),
        Y::Mapping(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let k = match k {
                        Y::String(s) => s,
                        other => serde_yaml_ng::to_string(&other).unwrap_or_default().trim().to_string(),
                    };
                    (k, yaml_to_json(v))
                })
                .collect(),
        ),
        Y::Tagged(t) => {
            let tag = t.tag.to_string();
            let name = tag.trim_start_matches('!');
            let inner = yaml_to_json(t.value);
            let key = match name {
                "Ref" | "Condition" => name.to_string(),
                _ => format!("Fn::{name}"),
            };
            let inner = match (name, inner) {
                ("GetAtt", Value::String(s)) => {
                    let (a, b) = s.split_once('.').unwrap_or((&s, ""));
                    Value::Array(vec![Value::String(a.to_string()), Value::String(b.to_string())])
                }
                (_, v) => v,
            };
            Value::Object(std::iter::once((key, inner)).collect())
        }
    }
}

/// Applies the settings that name no table to `chosen`, and notes them, every attribute of
/// its definition ddbsim does not model, and a TTL whose lifetime the definition cannot state.
fn definition_notes(chosen: &mut TableDef, unnamed: &[(PathBuf, def::Unnamed)], notes: &mut Vec<String>) {
    for (path, u) in unnamed {
        u.apply(chosen);
        notes.push(format!("{}: names no table; applied to {}", path.display(), chosen.name));
    }
    for (at, why) in &chosen.unmodelled {
        notes.push(format!("{} {at}: {why}", chosen.name));
    }
    if let Some(attr) = &chosen.ttl_attribute {
        notes.push(format!(
            "{}: Time to Live is on (attribute {attr}), but the definition does not say how long items live: TTL deletes are free and use no capacity, \
             but they shrink storage and write to GSIs and streams; set [table.ttl] after = ... (commented in the scenario) to model them",
            chosen.name
        ));
    }
}

/// Files of `--metrics`: a file, or every file of a folder (sorted by name).
fn metric_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ImportError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| ImportError { file: p.clone(), at: String::new(), message: format!("cannot read the folder: {e}") })?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// What the inputs hold, read: the tables they define (scaling attached) and the other
/// documents (metrics, Contributor Insights reports) among them.
struct Sources {
    tables: Vec<TableDef>,
    notes: Vec<String>,
    metric_inputs: Vec<Input>,
    top_keys: Vec<TopKeys>,
    unnamed: Vec<(PathBuf, def::Unnamed)>,
}

fn read_sources(sources: &[PathBuf]) -> Result<Sources, ImportError> {
    let mut tables: Vec<TableDef> = Vec::new();
    let mut scaling = Vec::new();
    let mut notes = Vec::new();
    let mut metric_inputs = Vec::new();
    let mut top_keys: Vec<TopKeys> = Vec::new();
    let mut unnamed: Vec<(PathBuf, def::Unnamed)> = Vec::new();
    for path in sources {
        match read_input(path)? {
            Input::Json(doc) => match def::read(&doc) {
                Some(defs) => {
                    let defs = defs?;
                    tables.extend(defs.tables);
                    scaling.extend(defs.scaling);
                    if defs.unnamed.pitr.is_some() || defs.unnamed.ttl.is_some() {
                        unnamed.push((path.clone(), defs.unnamed));
                    }
                    notes.extend(defs.notes.into_iter().map(|n| format!("{}: {n}", path.display())));
                }
                None if doc.value.get("MetricDataResults").is_some() || doc.value.get("Datapoints").is_some() => {
                    metric_inputs.push(Input::Json(doc));
                }
                None if doc.value.get("Contributors").is_some() && doc.value.get("KeyLabels").is_some() => {
                    top_keys.push(TopKeys::read(&doc)?);
                }
                None => return Err(doc.error(
                    "",
                    "not a table definition: expected describe-table output ({\"Table\": ...}), a CloudFormation template (Resources), \
                         `terraform show -json` output, Application Auto Scaling output, or a Contributor Insights report \
                         (`aws cloudwatch get-insight-rule-report`)",
                )),
            },
            other => metric_inputs.push(other),
        }
    }
    def::attach_scaling(&mut tables, &scaling, &mut notes);
    Ok(Sources { tables, notes, metric_inputs, top_keys, unnamed })
}

/// The names of the DynamoDB tables `sources` define (a template's in the order of their logical IDs).
///
/// # Errors
/// [`ImportError`] naming the file, where in it, and why.
pub fn table_names(sources: &[PathBuf]) -> Result<Vec<String>, ImportError> {
    Ok(tables(sources)?.into_iter().map(|t| t.name).collect())
}

/// The DynamoDB tables `sources` define, as read (their GSIs, capacity, scaling).
///
/// # Errors
/// [`ImportError`] naming the file, where in it, and why.
pub fn tables(sources: &[PathBuf]) -> Result<Vec<TableDef>, ImportError> {
    Ok(read_sources(sources)?.tables)
}

/// Imports the table of `sources` (named `table` when they define several) with the history
/// in `metrics`; trace files are named after `stem`.
///
/// # Errors
/// [`ImportError`] naming the file, where in it, and why.
pub fn import(sources: &[PathBuf], metrics: &[PathBuf], table: Option<&str>, stem: &str) -> Result<Imported, ImportError> {
    import_with_traffic(sources, metrics, table, stem, None, false)
}

/// [`import`], with the traffic assumed when there is no history (`metrics` empty) taken from
/// the definition `traffic` instead of the table's own: two revisions of a definition, one
/// traffic model (`ddbsim diff`). With a history, the history is the traffic of both; with
/// `own_capacity`, each revision's provisioned capacity is its definition's wherever that
/// differs from what the history recorded (the history's is replayed where they agree), and a
/// note says which.
///
/// # Errors
/// [`ImportError`] naming the file, where in it, and why.
pub fn import_with_traffic(
    sources: &[PathBuf],
    metrics: &[PathBuf],
    table: Option<&str>,
    stem: &str,
    traffic: Option<&TableDef>,
    own_capacity: bool,
) -> Result<Imported, ImportError> {
    let Sources { mut tables, mut notes, mut metric_inputs, top_keys, unnamed } = read_sources(sources)?;
    for path in metric_files(metrics)? {
        metric_inputs.push(read_input(&path)?);
    }
    if tables.is_empty() {
        // A Cost and Usage Report alone: the tables it bills, without their key schemas.
        for input in &metric_inputs {
            if let Input::Cur(c) = input {
                let same = |a: &TableDef, b: &TableDef| (&a.name, &a.region, &a.account) == (&b.name, &b.region, &b.account);
                tables.extend(c.tables().into_iter().filter(|t| !tables.iter().any(|x| same(x, t))).collect::<Vec<_>>());
            }
        }
        if !tables.is_empty() {
            notes.push(
                "the Cost and Usage Report states no key schema: the partition key `pk`, its values and their skew are ASSUMPTIONS; import the table's definition beside the report for its keys and indexes"
                    .into(),
            );
        }
    }
    let mut chosen = match (table, tables.len()) {
        (_, 0) => {
            return Err(ImportError {
                file: sources.first().or(metrics.first()).cloned().unwrap_or_default(),
                at: String::new(),
                message: "no DynamoDB table in the inputs".into(),
            })
        }
        (Some(name), _) => choose(&tables, name).map_err(|message| ImportError {
            file: sources.first().or(metrics.first()).cloned().unwrap_or_default(),
            at: String::new(),
            message,
        })?,
        (None, 1) => tables[0].clone(),
        (None, _) => {
            return Err(ImportError {
                file: sources.first().or(metrics.first()).cloned().unwrap_or_default(),
                at: String::new(),
                message: format!("the inputs define {} tables ({}); choose one with --table", tables.len(), names(&tables)),
            })
        }
    };
    definition_notes(&mut chosen, &unnamed, &mut notes);
    let gsis: Vec<String> = chosen.gsis.iter().map(|g| g.name.clone()).collect();
    let mut history = metrics::History::default();
    for input in metric_inputs {
        match input {
            Input::Json(doc) => {
                if !metrics::read(&doc, &gsis, &mut history)? {
                    return Err(doc.error("", "not a metrics file: expected `aws cloudwatch get-metric-data` (MetricDataResults) or `get-metric-statistics` (Datapoints) output"));
                }
            }
            Input::Csv(path, text) => metrics::read_csv(&path, &text, &gsis, &mut history)?,
            Input::Cur(c) => c.series(&mut chosen, &mut history)?,
        }
    }
    stored_within(&chosen, metrics.iter().chain(sources).next())?;
    let has_metrics = !history.series.is_empty();
    let mut grid = if has_metrics {
        metrics::Grid::build(&mut history).map_err(|e| ImportError {
            file: e.file.unwrap_or_else(|| metrics.first().or(sources.first()).cloned().unwrap_or_default()),
            at: e.at,
            message: e.message,
        })?
    } else {
        None
    };
    if has_metrics
        && !history.series.iter().any(|s| matches!(s.metric, metrics::Metric::Consumed(_)) && s.index.is_none() && !s.points.is_empty())
    {
        return Err(ImportError {
            file: metrics.first().or(sources.first()).cloned().unwrap_or_default(),
            at: String::new(),
            message: "the metrics have no ConsumedReadCapacityUnits or ConsumedWriteCapacityUnits datapoints of the table, so its traffic \
                      cannot be rebuilt: add them (README: Start from your own table), or import without --metrics"
                .into(),
        });
    }
    notes.extend(history.notes);
    let capacity_notes = match (grid.as_mut(), own_capacity) {
        (Some(g), true) => defined_capacity(&chosen, g),
        _ => Vec::new(),
    };
    notes.extend(capacity_notes.iter().cloned());
    if grid.as_ref().is_some_and(|g| g.units_include_indexes) {
        notes.push(write::index_split_note(&chosen));
    }
    let sources_text: Vec<String> = sources.iter().chain(metrics).map(|p| p.display().to_string()).collect();
    let skews = skews_of(top_keys, &chosen, &mut notes);
    if let Some(g) = &grid {
        for gsi in write::unrecorded_reads(&chosen, g) {
            notes.push(format!(
                "GSI {gsi}: the metrics have no ConsumedReadCapacityUnits series for it, so the scenario sends it no reads (ASSUMPTION); recommend keeps its read capacity (no_history): add its series, or the query patterns that read it"
            ));
        }
    }
    let notes: Vec<String> = notes.iter().map(|n| shown_note(n)).collect();
    let w = write::scenario(&chosen, grid.as_ref(), &sources_text, &notes, stem, &skews, traffic);
    Ok(Imported { scenario: w.scenario, traces: w.traces, table: chosen, notes, capacity_notes })
}

/// Where a revision's definition provisions a resource otherwise than the history's first
/// recorded capacity, the definition's is simulated: the recorded series (and the changes it
/// would replay) are dropped from `grid`. One note a resource, either way.
fn defined_capacity(t: &TableDef, grid: &mut metrics::Grid) -> Vec<String> {
    use crate::format::grouped;
    use crate::model::Dim;
    let mut notes = Vec::new();
    let resources = std::iter::once((None, t.provisioned)).chain(t.gsis.iter().map(|g| (Some(g.name.clone()), g.provisioned)));
    for (index, defined) in resources {
        let first =
            |d: Dim| grid.get(&metrics::Metric::Provisioned(d), index.as_deref()).and_then(|v| v.first().copied()).filter(|x| *x >= 1.0);
        let (Some(p), Some(r), Some(w)) = (defined, first(Dim::Read), first(Dim::Write)) else { continue };
        let name = index.as_deref().unwrap_or(&t.name);
        let recorded = [r.round() as u64, w.round() as u64];
        if recorded == p {
            notes.push(format!(
                "{name}: keeps the capacity the history recorded ({} RCU / {} WCU, and its changes)",
                grouped(p[0]),
                grouped(p[1])
            ));
        } else {
            for d in Dim::ALL {
                grid.values.remove(&(metrics::Metric::Provisioned(d), index.clone()));
            }
            notes.push(format!(
                "{name}: capacity from this definition ({} RCU / {} WCU), not the history's recorded {} / {}; the demand is the history's",
                grouped(p[0]),
                grouped(p[1]),
                grouped(recorded[0]),
                grouped(recorded[1])
            ));
        }
    }
    notes
}

/// The table `--table` names: by name, or by its ARN (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`)
/// where tables of one name are billed in several Regions or accounts.
fn choose(tables: &[TableDef], wanted: &str) -> Result<TableDef, String> {
    let arn = wanted.strip_prefix("arn:").map(|r| r.split(':').collect::<Vec<_>>()).filter(|p| p.len() >= 5 && p[1] == "dynamodb");
    let (name, region, account) = match &arn {
        Some(p) => (p[4].strip_prefix("table/").unwrap_or(p[4]).split('/').next().unwrap_or(""), Some(p[2]), Some(p[3])),
        None => (wanted, None, None),
    };
    let fits = |want: Option<&str>, have: &Option<String>| want.is_none_or(|w| have.as_deref().is_none_or(|h| h == w));
    let found: Vec<&TableDef> = tables.iter().filter(|t| t.name == name && fits(region, &t.region) && fits(account, &t.account)).collect();
    match found.as_slice() {
        [] => Err(format!("no table named {wanted}; the inputs define {}", names(tables))),
        [t] => {
            let mut t = (*t).clone();
            // The ARN states what the definition may not: the report's series are matched on it.
            t.region = t.region.or(region.map(str::to_string));
            t.account = t.account.or(account.map(str::to_string));
            Ok(t)
        }
        several => {
            let list: Vec<String> = several
                .iter()
                .map(|t| {
                    format!(
                        "arn:aws:dynamodb:{}:{}:table/{}",
                        t.region.as_deref().unwrap_or("?"),
                        t.account.as_deref().unwrap_or("?"),
                        t.name
                    )
                })
                .collect();
            Err(format!("{} tables are named {name} in the inputs: {}; give --table one of these ARNs", several.len(), list.join(", ")))
        }
    }
}

/// The skew each Contributor Insights report measures, given to the key space its key label
/// names (the partition key, with a note, when the label names none).
fn skews_of(top_keys: Vec<TopKeys>, chosen: &TableDef, notes: &mut Vec<String>) -> Vec<write::Skew> {
    let mut skews = Vec::new();
    for k in top_keys {
        let spaces: Vec<&str> = std::iter::once(chosen.hash_key.as_str())
            .chain(chosen.gsis.iter().flat_map(|g| std::iter::once(&g.hash_key).chain(&g.more_hash_keys)).map(String::as_str))
            .collect();
        let key = match k.label.as_deref().filter(|l| spaces.contains(l)) {
            Some(l) => l.to_string(),
            None => {
                notes.push(format!(
                    "{}: the report's key label ({}) is no key attribute of {}; its skew is given to the partition key {}",
                    k.file.display(),
                    k.label.as_deref().unwrap_or("none"),
                    chosen.name,
                    chosen.hash_key
                ));
                chosen.hash_key.clone()
            }
        };
        skews.push(write::Skew { key, keys: k.keys, share: k.share, source: k.file.display().to_string() });
    }
    skews
}

/// The table's and its indexes' stored bytes within what a scenario takes (a definition or a
/// bill can state more: an import writes nothing a scenario would refuse).
fn stored_within(t: &TableDef, file: Option<&PathBuf>) -> Result<(), ImportError> {
    let most = crate::limits::MAX_STORAGE_GB * 1e9;
    let sizes = std::iter::once((t.name.as_str(), t.size_bytes)).chain(t.gsis.iter().map(|g| (g.name.as_str(), g.size_bytes)));
    for (name, b) in sizes {
        if let Some(b) = b.filter(|&b| b as f64 > most) {
            return Err(ImportError {
                file: file.cloned().unwrap_or_default(),
                at: String::new(),
                message: format!("{name} stores {:.0} GB, above ddbsim's ceiling of 1e7 GB (a million partitions)", b as f64 / 1e9),
            });
        }
    }
    Ok(())
}

/// The most characters of a note shown: a 5,000-character label quoted whole helps no one.
const NOTE_CHARS: usize = 600;

/// A note as it is shown (stderr, `import --json`, `# NOTE:` lines): what a definition put in
/// it that a reader cannot see (U+202E, line breaks) made spaces, cut to [`NOTE_CHARS`].
fn shown_note(n: &str) -> String {
    crate::scenario::validate::shown(n, NOTE_CHARS)
}

/// A table's recorded CloudWatch history on a one-minute grid, for `ddbsim backtest`.
#[derive(Debug)]
pub struct Recorded {
    /// Unix seconds of the first minute.
    pub start_unix_s: i64,
    /// Minutes on the grid.
    pub minutes: usize,
    /// The series.
    pub series: Vec<RecordedSeries>,
    /// What was odd about the files (gaps, duplicates, skipped series).
    pub notes: Vec<String>,
}

/// One recorded series: per minute a rate a second (sums) or a level (provisioned capacity),
/// `None` where the history has no datapoint.
#[derive(Debug)]
pub struct RecordedSeries {
    /// The GSI, `None` for the table.
    pub index: Option<String>,
    /// CloudWatch's metric name (`ConsumedWriteCapacityUnits`, `WriteThrottleEvents`, ...).
    pub metric: &'static str,
    /// The dimension it measures.
    pub dim: crate::model::Dim,
    /// What kind of series: consumed units, provisioned units or throttle events.
    pub kind: RecordedKind,
    /// Per minute.
    pub values: Vec<Option<f64>>,
}

/// What a [`RecordedSeries`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedKind {
    /// Consumed capacity units (a Sum, as a rate a second).
    Consumed,
    /// Provisioned capacity units (a level).
    Provisioned,
    /// Throttle events (a Sum, as a rate a second).
    ThrottleEvents,
    /// Throttle events of one reason (a Sum, as a rate a second): the per-reason metrics
    /// DynamoDB has published since August 2025, a part of [`RecordedKind::ThrottleEvents`].
    ReasonEvents(crate::model::Reason),
}

impl RecordedKind {
    /// Throttle events, of every reason or of one.
    #[must_use]
    pub const fn is_events(self) -> bool {
        matches!(self, RecordedKind::ThrottleEvents | RecordedKind::ReasonEvents(_))
    }
}

/// Reads the CloudWatch files of `metrics` (files or folders, as `import --metrics`) of a table
/// whose GSIs are `gsis` onto a one-minute grid.
///
/// # Errors
/// [`ImportError`] naming the file, where in it, and why; also when no series is recognised.
pub fn read_history(metrics: &[PathBuf], gsis: &[String]) -> Result<Recorded, ImportError> {
    let first = || metrics.first().cloned().unwrap_or_default();
    let mut history = metrics::History::default();
    for path in metric_files(metrics)? {
        match read_input(&path)? {
            Input::Json(doc) => {
                if !metrics::read(&doc, gsis, &mut history)? {
                    return Err(doc.error("", "not a metrics file: expected `aws cloudwatch get-metric-data` (MetricDataResults) or `get-metric-statistics` (Datapoints) output"));
                }
            }
            Input::Csv(path, text) => metrics::read_csv(&path, &text, gsis, &mut history)?,
            Input::Cur(_) => {
                return Err(ImportError {
                    file: path,
                    at: String::new(),
                    message: "a Cost and Usage Report holds hours, and backtest compares minutes: give the table's CloudWatch history (README: Start from your own table)".into(),
                })
            }
        }
    }
    let grid = metrics::Grid::build(&mut history)
        .map_err(|e| ImportError { file: e.file.unwrap_or_else(first), at: e.at, message: e.message })?
        .ok_or_else(|| ImportError { file: first(), at: String::new(), message: "the metrics hold no datapoint".into() })?;
    let mut series = Vec::new();
    for ((metric, index), values) in grid.values {
        let (kind, dim) = match metric {
            metrics::Metric::Consumed(d) => (RecordedKind::Consumed, d),
            metrics::Metric::Provisioned(d) => (RecordedKind::Provisioned, d),
            metrics::Metric::ThrottleEvents(d) => (RecordedKind::ThrottleEvents, d),
            metrics::Metric::ReasonEvents(d, r) => (RecordedKind::ReasonEvents(r), d),
            metrics::Metric::Requests(_) => continue,
        };
        let name = match (kind, dim) {
            (RecordedKind::Consumed, crate::model::Dim::Read) => "ConsumedReadCapacityUnits",
            (RecordedKind::Consumed, crate::model::Dim::Write) => "ConsumedWriteCapacityUnits",
            (RecordedKind::Provisioned, crate::model::Dim::Read) => "ProvisionedReadCapacityUnits",
            (RecordedKind::Provisioned, crate::model::Dim::Write) => "ProvisionedWriteCapacityUnits",
            (RecordedKind::ThrottleEvents, crate::model::Dim::Read) => "ReadThrottleEvents",
            (RecordedKind::ThrottleEvents, crate::model::Dim::Write) => "WriteThrottleEvents",
            (RecordedKind::ReasonEvents(r), d) => r.events_metric(d),
        };
        series.push(RecordedSeries { index, metric: name, dim, kind, values });
    }
    if series.is_empty() {
        return Err(ImportError {
            file: first(),
            at: String::new(),
            message: "no consumed, provisioned or throttle-event series in the metrics (README: Start from your own table labels them)"
                .into(),
        });
    }
    Ok(Recorded { start_unix_s: grid.start, minutes: grid.minutes, series, notes: history.notes })
}

/// A Contributor Insights report (`aws cloudwatch get-insight-rule-report`, the most
/// accessed keys rule of a table): its top contributors and their share of the total.
struct TopKeys {
    file: PathBuf,
    /// The first key label (the key attribute's name).
    label: Option<String>,
    /// Contributors listed.
    keys: u64,
    /// Their summed values over the report's aggregate value.
    share: f64,
}

impl TopKeys {
    fn read(doc: &Doc) -> Result<Self, ImportError> {
        let v = &doc.value;
        let label = v["KeyLabels"].as_array().and_then(|l| l.first()).and_then(Value::as_str).map(str::to_string);
        let total = v["AggregateValue"].as_f64().filter(|x| x.is_finite() && *x > 0.0).ok_or_else(|| {
            doc.error("/AggregateValue", "a Contributor Insights report needs the rule's positive AggregateValue (its total)")
        })?;
        let list = v["Contributors"].as_array().ok_or_else(|| doc.error("/Contributors", "expected a list of contributors"))?;
        if list.is_empty() {
            return Err(doc.error("/Contributors", "the report lists no contributors: ask for a window with traffic"));
        }
        let mut sum = 0.0;
        for (i, c) in list.iter().enumerate() {
            let x = c["ApproximateAggregateValue"]
                .as_f64()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| doc.error(&format!("/Contributors/{i}/ApproximateAggregateValue"), "expected a number of at least 0"))?;
            sum += x;
        }
        if sum > total * 1.000_001 {
            return Err(doc.error("/Contributors", format!("the contributors sum to {sum}, more than the AggregateValue {total}")));
        }
        Ok(TopKeys { file: doc.path.clone(), label, keys: list.len() as u64, share: (sum / total).min(1.0) })
    }
}

fn names(tables: &[TableDef]) -> String {
    tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
}
