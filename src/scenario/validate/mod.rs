//! From [`RawScenario`] to [`Scenario`]: every range check, every cross-reference, every problem
//! collected with its key path and located in the text.

mod account;
mod actions;
mod also;
mod bulk;
mod client;
mod entity;
mod entries;
mod index_writes;
mod keys;
mod names;
mod pattern;
mod pricing;
mod replicas;
mod sample;
mod table;
mod unused;
pub(crate) use index_writes::default_index_write;
use names::did_you_mean;
pub(crate) use names::{is_unprintable, shown};

use super::locate::{line_col, KeyPath, Locator};
use super::raw::{RawCheck, RawCostIncrease, RawFidelity, RawMeta, RawScenario, RawWindow};
use super::{
    defaults, AccountSpec, Action, CapacitySpec, CheckSpec, CostIncrease, Fidelity, IndexRef, LsiSpec, Note, NoteKind, Op, Problem,
    RateShape, Scenario, ScenarioError, SimDuration, Window,
};
use crate::limits::{MAX_CAPACITY_UNITS, MAX_DURATION_S, MAX_NAME_CHARS, MAX_REQUEST_RATE, MAX_SCENARIO_BYTES};
use crate::time::{parse_duration, parse_rfc3339};
use std::collections::BTreeMap;
use std::path::Path;

/// Regions the built-in price catalogs cover (`crate::cost::BUILTIN`, checked by a test).
pub const KNOWN_REGIONS: &[&str] =
    &["us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-northeast-1"];

pub use crate::limits::AWS_REGIONS;

/// Reads and validates a scenario file.
///
/// # Errors
/// [`ScenarioError::Io`] when the file cannot be read, else [`ScenarioError::Invalid`] with every problem found.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    load_with(path, &LoadOptions::default())
}

/// [`load`] with options.
///
/// # Errors
/// As [`load`].
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<Scenario, ScenarioError> {
    let io = |source| ScenarioError::Io { path: path.to_path_buf(), source };
    // Read one byte over the cap, so a file over it is told apart from one at it.
    let bytes = crate::input::read_capped(path, MAX_SCENARIO_BYTES + 1, "scenario file").map_err(io)?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        let message = format!(
            "the scenario file is larger than {} MiB, the most ddbsim reads; put long series in a trace file",
            MAX_SCENARIO_BYTES >> 20
        );
        return Err(ScenarioError::Invalid {
            path: path.to_path_buf(),
            problems: vec![Problem { line: 1, column: 1, key: "(document)".into(), message }],
        });
    }
    let text = String::from_utf8(bytes).map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())))?;
    parse_str_with(&text, path, options)
}

/// Validates scenario text as if read from `path` (relative trace files resolve against it).
///
/// # Errors
/// [`ScenarioError::Invalid`] with every problem found.
pub fn parse_str(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    parse_str_with(text, path, &LoadOptions::default())
}

/// [`parse_str`] with options.
///
/// # Errors
/// As [`parse_str`].
pub fn parse_str_with(text: &str, path: &Path, options: &LoadOptions) -> Result<Scenario, ScenarioError> {
    let problem_of = |e: &toml::de::Error, doc: &str| {
        let (line, column, key) = match e.span() {
            Some(span) => {
                let (l, c) = line_col(doc, span.start);
                (l, c, Locator::new(doc).path_at(&span).to_string())
            }
            None => (1, 1, "(document)".to_string()),
        };
        Problem { line, column, key, message: did_you_mean(&e.message().trim().replace('\n', " ")) }
    };
    // TOML syntax first: one error, nothing after it can be trusted.
    if let Err(e) = text.parse::<toml::Table>() {
        return Err(ScenarioError::Invalid { path: path.to_path_buf(), problems: vec![problem_of(&e, text)] });
    }
    // A value of the wrong type or an unknown key stops serde at the first. To report every
    // problem in one pass, blank the offending line (spaces, so offsets, lines and columns stay
    // those of the file) and read again; then validate what is left. A problem that blanking
    // may have caused (a missing field of the table a blanked key was in, problems of that
    // table as a whole) is not reported.
    let mut work = text.to_string();
    let mut problems: Vec<Problem> = Vec::new();
    let mut blanked: Vec<String> = Vec::new();
    // A key is the blanked one, inside it, or a table that held it (`pattern` and `pattern[0]`
    // hold `pattern[0].op`; the document holds everything).
    let caused = |key: &str, blanked: &[String]| {
        blanked.iter().any(|b| {
            key.is_empty()
                || key == "(document)"
                || key == b
                || key.starts_with(&format!("{b}."))
                || (b.starts_with(key) && matches!(b.as_bytes().get(key.len()), Some(b'.' | b'[')))
        })
    };
    for _ in 0..MAX_STRUCTURAL_PROBLEMS {
        match toml::from_str::<RawScenario>(&work) {
            Ok(raw) => {
                if problems.is_empty() {
                    return check(raw, text, &Locator::new(text), path, options);
                }
                let locator = Locator::new(&work);
                if let Err(ScenarioError::Invalid { problems: more, .. }) = check(raw, &work, &locator, path, options) {
                    problems.extend(more.into_iter().filter(|p| !caused(&p.key, &blanked)));
                }
                break;
            }
            Err(e) => {
                let p = problem_of(&e, &work);
                if !problems.is_empty() && caused(&p.key, &blanked) {
                    break;
                }
                let span = e.span();
                problems.push(p.clone());
                let Some(span) = span else { break };
                // An unknown variant of a required value (an `op`, a `mode`) becomes the first
                // variant expected, so that the rest of its table is read; its problem stands.
                let expected = p
                    .message
                    .split("expected one of `")
                    .nth(1)
                    .or_else(|| p.message.split("expected `").nth(1))
                    .and_then(|r| r.split('`').next());
                if let (true, Some(v)) = (p.message.starts_with("unknown variant"), expected) {
                    let quoted = format!("\"{v}\"");
                    let width = span.end - span.start;
                    let replacement = if quoted.len() < width { format!("{quoted}{}", " ".repeat(width - quoted.len())) } else { quoted };
                    work.replace_range(span.clone(), &replacement);
                    if work.parse::<toml::Table>().is_err() {
                        break;
                    }
                    blanked.push(p.key);
                    continue;
                }
                let (first, last) = (line_col(&work, span.start).0, line_col(&work, span.end.saturating_sub(1).max(span.start)).0);
                let start = work[..span.start].rfind('\n').map_or(0, |i| i + 1);
                let end = work[span.start..].find('\n').map_or(work.len(), |i| span.start + i);
                if first != last || work[start..end].trim_start().starts_with('[') {
                    break;
                }
                // Keep byte offsets: a multi-byte character becomes as many spaces as it has bytes.
                let blank: String = work[start..end].bytes().map(|_| ' ').collect();
                work.replace_range(start..end, &blank);
                if work.parse::<toml::Table>().is_err() {
                    break;
                }
                blanked.push(p.key);
            }
        }
    }
    problems.sort_by_key(|p| (p.line, p.column));
    problems.dedup();
    Err(ScenarioError::Invalid { path: path.to_path_buf(), problems })
}

/// Most problems of types and unknown keys read in one pass.
const MAX_STRUCTURAL_PROBLEMS: usize = 64;

/// Validates a scenario built in code (no TOML text: problems carry their key path, at line 1,
/// column 1). `path` names it in messages and anchors relative trace files.
///
/// ```
/// use ddbsim::scenario::raw::{RawCapacity, RawKeySpace, RawMeta, RawPattern, RawRate, RawScenario, RawTable};
/// use ddbsim::scenario::{validate, ScenarioError};
/// use std::path::Path;
///
/// let raw = |read: i64| RawScenario {
///     scenario: RawMeta { duration: "10m".into(), ..RawMeta::default() },
///     table: RawTable {
///         partition_key: "user".into(),
///         capacity: RawCapacity::Provisioned { read, write: 100 },
///         ..RawTable::default()
///     },
///     keys: [("user".to_string(), RawKeySpace { cardinality: Some(1_000), ..RawKeySpace::default() })].into(),
///     pattern: vec![RawPattern { name: "get".into(), rate: RawRate::Constant(50.0), ..RawPattern::default() }],
///     ..RawScenario::default()
/// };
/// let sc = validate(raw(100), Path::new("in-code")).unwrap();
/// assert_eq!(sc.patterns[0].name, "get");
/// let Err(ScenarioError::Invalid { problems, .. }) = validate(raw(0), Path::new("in-code")) else { panic!() };
/// assert_eq!(problems[0].key, "table.capacity.read");
/// ```
///
/// # Errors
/// [`ScenarioError::Invalid`] with every problem found.
pub fn validate(raw: RawScenario, path: &Path) -> Result<Scenario, ScenarioError> {
    check(raw, "", &Locator::new(""), path, &LoadOptions::default())
}

fn check(mut raw: RawScenario, text: &str, locator: &Locator<'_>, path: &Path, options: &LoadOptions) -> Result<Scenario, ScenarioError> {
    let mut v = Validator { problems: Vec::new(), notes: Vec::new(), locator, path, options, table_keys: Vec::new(), lsis: Vec::new() };
    let account = std::mem::take(&mut raw.account);
    let mut scenario = v.scenario(raw, text);
    scenario.account = v.account(&account, &mut scenario);
    if v.problems.is_empty() {
        v.unused_indexes(&scenario);
        v.reservations_outside(&scenario);
        v.notes.sort_by_key(|n| (n.kind, n.at.line, n.at.column));
        v.notes.dedup();
        scenario.notes = v.notes;
        return Ok(scenario);
    }
    let mut problems = v.problems;
    problems.sort_by_key(|p| (p.line, p.column));
    problems.dedup();
    Err(ScenarioError::Invalid { path: path.to_path_buf(), problems })
}

/// The names a scenario defines, for cross-references.
#[derive(Default)]
struct Names {
    /// Key spaces by name.
    keys: BTreeMap<String, usize>,
    /// GSIs and LSIs by name.
    indexes: BTreeMap<String, IndexRef>,
    /// Patterns by name.
    patterns: BTreeMap<String, usize>,
}

pub(super) struct Validator<'a, 't> {
    problems: Vec<Problem>,
    notes: Vec<Note>,
    locator: &'a Locator<'t>,
    path: &'a Path,
    options: &'a LoadOptions,
    /// The table's key attribute names, once read (`[table] key_attributes`).
    table_keys: Vec<String>,
    /// The table's LSIs, once read (they size the entries every write pattern makes).
    lsis: Vec<LsiSpec>,
}

/// How a scenario may be read.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// Allow `rate = { trace = ... }` files outside the scenario's folder.
    pub allow_outside: bool,
    /// The scenario is read as one table of an account (`ddbsim run DIR`): its transactions
    /// may span the account's other tables (`[[pattern.also]]`).
    pub in_account: bool,
}

impl Validator<'_, '_> {
    fn err(&mut self, at: &KeyPath, message: impl Into<String>) {
        let (line, column) = self.locator.line_col_of(at);
        self.problems.push(Problem { line, column, key: at.to_string(), message: message.into() });
    }

    fn note(&mut self, kind: NoteKind, at: &KeyPath, message: impl Into<String>) {
        let (line, column) = self.locator.line_col_of(at);
        self.notes.push(Note { kind, at: Problem { line, column, key: at.to_string(), message: message.into() } });
    }

    fn duration(&mut self, at: &KeyPath, text: &str) -> Option<SimDuration> {
        match parse_duration(text) {
            Ok(d) => Some(d),
            Err(m) => {
                self.err(at, m);
                None
            }
        }
    }

    fn opt_duration(&mut self, at: &KeyPath, text: Option<&String>, default: SimDuration) -> SimDuration {
        text.map_or(Some(default), |t| self.duration(at, t)).unwrap_or(default)
    }

    fn rate(&mut self, at: &KeyPath, x: f64) -> f64 {
        if !x.is_finite() || x < 0.0 {
            self.err(at, format!("a rate must be a finite number >= 0 requests per second, not {x}"));
            return 0.0;
        }
        if x > MAX_REQUEST_RATE {
            self.err(at, format!("{x} requests per second is more than ddbsim simulates ({MAX_REQUEST_RATE:e})"));
            return MAX_REQUEST_RATE;
        }
        x
    }

    fn units(&mut self, at: &KeyPath, x: i64, what: &str) -> u64 {
        if x < 1 {
            self.err(at, format!("{what} must be at least 1 unit, not {x}"));
            return 1;
        }
        if x.unsigned_abs() > MAX_CAPACITY_UNITS {
            self.err(
                at,
                format!(
                    "{what} of {x} units is above ddbsim's ceiling of {MAX_CAPACITY_UNITS} (25,000 times DynamoDB's default table quota)"
                ),
            );
            return MAX_CAPACITY_UNITS;
        }
        x.unsigned_abs()
    }

    /// A name shown in reports and file names (a pattern's, a key space's, an index's): no
    /// control character and no invisible format character (a bidirectional override such as
    /// U+202E reverses the text a reader sees; a zero-width space makes two names look alike).
    pub(super) fn shown_name(&mut self, at: &KeyPath, name: &str) {
        if let Some(c) = name.chars().find(|&c| is_unprintable(c)) {
            self.err(
                at,
                format!("the name holds the invisible character U+{:04X}; names are shown in reports and used in file names", u32::from(c)),
            );
        }
    }

    /// A name used as a folder name: non-empty, at most 100 characters, no separators or
    /// control characters, not made of dots only.
    fn folder_name(&mut self, at: &KeyPath, name: &str, from_file: bool) {
        let problem = if name.is_empty() {
            Some("it is empty")
        } else if name.chars().count() > MAX_NAME_CHARS {
            Some("it is longer than 100 characters")
        } else if name.contains(['/', '\\']) {
            Some("it contains a path separator")
        } else if name.chars().any(char::is_control) {
            Some("it contains a control character")
        } else if name.chars().any(is_unprintable) {
            Some("it contains an invisible or unprintable character (such as U+202E, U+200B, U+2028 or a private-use one)")
        } else if name.chars().all(|c| c == '.') {
            Some("it is made of dots only")
        } else {
            None
        };
        if let Some(p) = problem {
            let shown: String = name.chars().take(40).filter(|&c| !is_unprintable(c)).collect();
            if from_file {
                self.err(at, format!("the file name \"{shown}\" gives no usable output folder name ({p}): set [scenario] name"));
            } else {
                self.err(at, format!("the name is used as a folder name and \"{shown}\" cannot be one: {p}"));
            }
        }
    }

    /// The key space named `name`, or a problem listing the defined ones.
    fn key_ref(&mut self, names: &Names, at: &KeyPath, name: &str) -> Option<usize> {
        let found = names.keys.get(name).copied();
        if found.is_none() {
            let known: Vec<&str> = names.keys.keys().map(String::as_str).collect();
            let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            self.err(at, format!("no key space \"{name}\" in [keys]; defined: {known}"));
        }
        found
    }

    fn scenario(&mut self, raw: RawScenario, text: &str) -> Scenario {
        let root = KeyPath::root();
        let mut names = Names::default();
        let (name, duration, start_unix_s) = self.meta(&raw.scenario);
        let pricing = self.pricing(&root.key("pricing"), raw.pricing, duration);
        let mut key_spaces = Vec::new();
        for (key_name, k) in raw.keys {
            let at = root.key("keys").key(&key_name);
            names.keys.insert(key_name.clone(), key_spaces.len());
            key_spaces.push(self.key_space(&at, key_name, &k, duration));
        }
        let raw_storage_gb = raw.table.storage_gb;
        let table = self.table(&root.key("table"), raw.table, &names, &name, duration);
        self.table_keys.clone_from(&table.key_attributes);
        let (mut gsis, lsis) = self.indexes(&raw.gsi, &raw.lsi, &table.capacity, &mut names, &mut key_spaces);
        self.lsis.clone_from(&lsis);
        let entities = self.entities(&raw.entity, &names, table.partition_key, &gsis, &lsis, &mut key_spaces);
        let mut table = table;
        if raw_storage_gb.is_none() && !entities.is_empty() {
            // The table holds every entity type's items at the start, and their LSI entries.
            let overhead = crate::limits::ITEM_OVERHEAD_BYTES;
            table.storage_bytes = entities
                .iter()
                .map(|e| e.count(&key_spaces) as f64 * (e.size.mean() + (overhead + e.lsi_stored_bytes(&lsis)) as f64))
                .sum::<f64>()
                .min(crate::limits::MAX_STORAGE_GB * crate::limits::GB as f64) as u64;
        }
        if raw.pattern.is_empty() {
            self.err(&root, "no [[pattern]]: a scenario needs at least one access pattern");
        }
        let mut patterns = Vec::new();
        for (i, p) in raw.pattern.iter().enumerate() {
            let at = root.key("pattern").index(i);
            if names.patterns.insert(p.name.clone(), i).is_some() {
                self.err(&at.key("name"), format!("a second pattern named \"{}\"", p.name));
            }
            patterns.push(self.pattern(&at, p, &names, &gsis, &entities, &key_spaces, table.partition_key, duration));
            let last = &patterns[patterns.len() - 1];
            let fans_out = last.segments > 1
                || (last
                    .key_space
                    .and_then(|k| key_spaces.get(k))
                    .and_then(|k| k.shards)
                    .is_some_and(|s| last.fanout_all.unwrap_or(s.random) && s.count > 1)
                    && matches!(last.op, Op::GetItem | Op::Query));
            if let (Some(_), None) = (last.fanout_all, last.key_space.and_then(|k| key_spaces.get(k)).and_then(|k| k.shards)) {
                self.err(&at.key("fanout"), "`fanout` applies to a write-sharded key; this pattern's key space has no `shards`");
            }
            if fans_out && matches!(last.rate, RateShape::ClosedLoop(_)) {
                self.err(
                    &at.key("rate"),
                    "a closed loop waits for one answer per request; a read of every shard, or a parallel scan, sends several",
                );
            }
        }
        let client = self.client(&root.key("client"), &raw.client);
        let actions = self.actions(&raw.at, duration, &table, &names, &mut gsis, &patterns);
        let loads =
            self.bulk_puts(&raw.at, &names, &gsis, &entities, &mut key_spaces, table.partition_key, duration, !raw.replica.is_empty());
        patterns.extend(loads);
        // Auto scaling on an on-demand table applies once it switches to provisioned (the
        // scalable targets register then); without such a switch it never applies.
        let to_provisioned = actions.iter().any(|a| matches!(a.action, Action::SwitchMode { on_demand: false, .. }));
        if matches!(table.capacity, CapacitySpec::OnDemand { .. }) && !to_provisioned {
            if table.autoscaling.is_some() {
                self.err(
                    &root.key("table").key("autoscaling"),
                    "auto scaling applies to provisioned capacity; this table is on-demand and never switches to provisioned",
                );
            }
            for (i, g) in gsis.iter().enumerate() {
                if g.autoscaling.is_some() {
                    self.err(
                        &root.key("gsi").index(i).key("autoscaling"),
                        "auto scaling applies to provisioned capacity; this table is on-demand and never switches to provisioned",
                    );
                }
            }
        }
        let check = self.check_plan(&root.key("check"), &raw.check);
        let dax = raw.dax.as_ref().map(|d| self.dax(&root.key("dax"), d));
        let replicas = self.replicas(&root, &raw.replica, &table, &pricing.region);
        self.pattern_regions(&mut patterns, &raw.pattern, &pricing.region, &replicas, !lsis.is_empty());
        Scenario {
            name,
            description: raw.scenario.description.unwrap_or_default(),
            source_path: self.path.to_path_buf(),
            source_text: text.to_string(),
            duration,
            start_unix_s,
            recorded_throttle_events: raw.scenario.recorded_throttle_events,
            seed: raw.scenario.seed.unwrap_or(defaults::SEED),
            fidelity: if raw.scenario.fidelity == Some(RawFidelity::Exact) { Fidelity::Exact } else { Fidelity::Fast },
            window: if raw.scenario.window == Some(RawWindow::Event) { Window::Event } else { Window::Sustained },
            pricing,
            table,
            key_spaces,
            gsis,
            lsis,
            entities,
            patterns,
            client_fleet: raw.client.fleet.clone(),
            client,
            actions,
            check,
            dax,
            replicas,
            notes: Vec::new(),
            account: AccountSpec::default(),
        }
    }

    /// `[dax]`.
    fn dax(&mut self, at: &KeyPath, raw: &crate::scenario::raw::RawDax) -> crate::scenario::DaxSpec {
        use crate::scenario::DaxNodeType;
        let node_type = DaxNodeType::from_name(&raw.node_type).unwrap_or_else(|| {
            let known: Vec<&str> = DaxNodeType::ALL.iter().map(|t| t.name()).collect();
            self.err(&at.key("node_type"), format!("unknown DAX node type \"{}\"; known: {}", raw.node_type, known.join(", ")));
            DaxNodeType::R5Large
        });
        if !(1..=11).contains(&raw.nodes) {
            self.err(&at.key("nodes"), format!("a DAX cluster has 1 to 11 nodes (a primary and up to 10 replicas), not {}", raw.nodes));
        }
        let ttl = |v: &mut Self, key: &str, text: Option<&String>| {
            let d = v.opt_duration(&at.key(key), text, defaults::DAX_TTL);
            if d.as_micros() < 1_000_000 {
                v.err(&at.key(key), format!("a cache TTL of at least \"1s\", not {d}"));
            }
            d
        };
        let item_ttl = ttl(self, "item_ttl", raw.item_ttl.as_ref());
        let query_ttl = ttl(self, "query_ttl", raw.query_ttl.as_ref());
        if let Some(h) = raw.hit_ratio {
            if !(h.is_finite() && (0.0..=1.0).contains(&h)) {
                self.err(&at.key("hit_ratio"), format!("a hit ratio is a share between 0 and 1 (0.9 is 90 %), not {h}"));
            }
        }
        crate::scenario::DaxSpec {
            node_type,
            nodes: raw.nodes.clamp(1, 11),
            item_ttl,
            query_ttl,
            hit_ratio: raw.hit_ratio.map(|h| h.clamp(0.0, 1.0)),
        }
    }

    /// `[check]`: phase lengths in whole minutes, shares between 0 and 1.
    fn check_plan(&mut self, at: &KeyPath, raw: &RawCheck) -> CheckSpec {
        let d = CheckSpec::default();
        let minutes = |v: &mut Self, key: &str, text: Option<&String>, default: SimDuration| {
            let x = v.opt_duration(&at.key(key), text, default);
            if x.as_secs() < 60 || !x.as_micros().is_multiple_of(60_000_000) {
                v.err(&at.key(key), format!("a phase is judged minute by minute: a whole number of minutes, at least \"1m\", not {x}"));
                return default;
            }
            if x.as_secs() > MAX_DURATION_S {
                v.err(&at.key(key), "a phase must be at most 366 days");
                return default;
            }
            x
        };
        let steady = minutes(self, "steady", raw.steady.as_ref(), d.steady);
        let warmup = minutes(self, "warmup", raw.warmup.as_ref(), d.warmup);
        let burst = minutes(self, "burst", raw.burst.as_ref(), d.burst);
        let soak = minutes(self, "soak", raw.soak.as_ref(), d.soak);
        let share = |v: &mut Self, key: &str, x: Option<f64>, default: f64| match x {
            Some(x) if !(x.is_finite() && (0.0..=1.0).contains(&x)) => {
                v.err(&at.key(key), format!("a share between 0 and 1 (0.001 is 0.1 %), not {x}"));
                default
            }
            Some(x) => x,
            None => default,
        };
        let max_throttle = share(self, "max_throttle", raw.max_throttle, d.max_throttle);
        let max_partition_skew = match raw.max_partition_skew {
            Some(x) if !(x.is_finite() && x >= 0.0) => {
                self.err(&at.key("max_partition_skew"), format!("a share of the mean >= 0 (0.2: within 20 %), not {x}"));
                d.max_partition_skew
            }
            Some(x) => x,
            None => d.max_partition_skew,
        };
        let burst_factor = match raw.burst_factor {
            Some(x) if !(x.is_finite() && (1.0..=100.0).contains(&x)) => {
                self.err(&at.key("burst_factor"), format!("a multiple of the peak from 1 to 100, not {x}"));
                d.burst_factor
            }
            Some(x) => x,
            None => d.burst_factor,
        };
        let peak = raw.peak.map(|x| {
            let r = self.rate(&at.key("peak"), x);
            if r == 0.0 {
                self.err(&at.key("peak"), "the expected peak must be above 0 requests per second");
            }
            r
        });
        let max_p99_latency = self.opt_duration(&at.key("max_p99_latency"), raw.max_p99_latency.as_ref(), d.max_p99_latency);
        let dollars = |v: &mut Self, key: &str, x: Option<f64>| {
            x.filter(|x| {
                let ok = x.is_finite() && *x >= 0.0;
                if !ok {
                    v.err(&at.key(key), format!("a cost in US dollars, at least 0, not {x}"));
                }
                ok
            })
        };
        let max_window_cost = dollars(self, "max_window_cost", raw.max_window_cost);
        let max_monthly_cost = dollars(self, "max_monthly_cost", raw.max_monthly_cost);
        let max_cost_increase = raw.max_cost_increase.as_ref().and_then(|r| {
            let text = match r {
                RawCostIncrease::Usd(x) => x.to_string(),
                RawCostIncrease::Text(t) => t.clone(),
            };
            CostIncrease::parse(&text).map_err(|e| self.err(&at.key("max_cost_increase"), e)).ok()
        });
        CheckSpec {
            peak,
            steady,
            warmup,
            burst,
            burst_factor,
            soak,
            max_throttle,
            max_p99_latency,
            max_partition_skew,
            max_window_cost,
            max_monthly_cost,
            max_cost_increase,
        }
    }

    /// `[scenario]`: the name, duration and start.
    fn meta(&mut self, m: &RawMeta) -> (String, SimDuration, i64) {
        let sp = KeyPath::root().key("scenario");
        // A duration that does not parse is one problem: the checks of times against the end
        // of the run then take the longest run, so none reports a second, false one.
        let duration = self.duration(&sp.key("duration"), &m.duration).unwrap_or(SimDuration::from_secs(MAX_DURATION_S));
        if duration == SimDuration::ZERO {
            self.err(&sp.key("duration"), "the duration must be longer than zero");
        } else if !duration.as_micros().is_multiple_of(1_000_000) {
            self.err(&sp.key("duration"), "the duration must be a whole number of seconds");
        } else if duration > SimDuration::from_secs(MAX_DURATION_S) {
            self.err(&sp.key("duration"), "the duration must be at most 366 days");
        }
        let start_unix_s = match &m.start {
            None => defaults::START_UNIX_S,
            Some(s) => parse_rfc3339(s).unwrap_or_else(|| {
                self.err(&sp.key("start"), format!("\"{s}\" is not an RFC 3339 instant such as \"2026-03-02T00:00:00Z\""));
                defaults::START_UNIX_S
            }),
        };
        let name = match &m.name {
            Some(n) => {
                self.folder_name(&sp.key("name"), n, false);
                n.clone()
            }
            None => {
                let stem = self.path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                self.folder_name(&sp, &stem, true);
                stem
            }
        };
        (name, duration, start_unix_s)
    }
}
