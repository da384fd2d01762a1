//! From [`RawScenario`] to [`Scenario`]: every range check, every cross-reference, every problem
//! collected with its key path and located in the text.

use super::locate::{line_col, KeyPath, Locator};
use super::raw::*;
use super::*;
use crate::time::parse_duration;
use crate::units::MAX_ITEM_BYTES;
use std::collections::BTreeMap;

/// Regions the built-in price catalog covers.
pub const KNOWN_REGIONS: &[&str] = &["us-east-1"];

/// Price items that `[pricing.overrides]` may set.
pub const PRICE_ITEMS: &[&str] = &[
    "on_demand_read_per_million",
    "on_demand_write_per_million",
    "provisioned_rcu_hour",
    "provisioned_wcu_hour",
    "storage_gb_month",
    "ia_on_demand_read_per_million",
    "ia_on_demand_write_per_million",
    "ia_provisioned_rcu_hour",
    "ia_provisioned_wcu_hour",
    "ia_storage_gb_month",
];

/// Reads and validates a scenario file.
///
/// # Errors
/// [`ScenarioError::Io`] when the file cannot be read, [`ScenarioError::Invalid`] with every
/// problem found otherwise.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Io { path: path.to_path_buf(), source })?;
    parse_str(&text, path)
}

/// Validates scenario text as if read from `path` (relative trace files resolve against it).
///
/// # Errors
/// [`ScenarioError::Invalid`] with every problem found.
pub fn parse_str(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let locator = Locator::new(text);
    let raw: RawScenario = match toml::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            let (line, column, key) = match e.span() {
                Some(span) => {
                    let (l, c) = line_col(text, span.start);
                    (l, c, locator.path_at(&span).to_string())
                }
                None => (1, 1, "(document)".to_string()),
            };
            let message = e.message().trim().replace('\n', " ");
            return Err(ScenarioError::Invalid { path: path.to_path_buf(), problems: vec![Problem { line, column, key, message }] });
        }
    };
    let mut v = Validator { problems: Vec::new(), locator: &locator, path };
    let scenario = v.scenario(raw, text);
    if v.problems.is_empty() {
        if let Some(s) = scenario {
            return Ok(s);
        }
    }
    let mut problems = v.problems;
    problems.sort_by_key(|p| (p.line, p.column));
    problems.dedup();
    Err(ScenarioError::Invalid { path: path.to_path_buf(), problems })
}

struct Validator<'a> {
    problems: Vec<Problem>,
    locator: &'a Locator<'a>,
    path: &'a Path,
}

impl Validator<'_> {
    fn err(&mut self, at: &KeyPath, message: impl Into<String>) {
        let (line, column) = self.locator.line_col_of(at);
        self.problems.push(Problem { line, column, key: at.to_string(), message: message.into() });
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
        x
    }

    fn units(&mut self, at: &KeyPath, x: i64, what: &str) -> u64 {
        if x < 1 {
            self.err(at, format!("{what} must be at least 1 unit, not {x}"));
            return 1;
        }
        x.unsigned_abs()
    }

    #[allow(clippy::too_many_lines)]
    fn scenario(&mut self, raw: RawScenario, text: &str) -> Option<Scenario> {
        let root = KeyPath::root();
        // [scenario]
        let sp = root.key("scenario");
        let duration = self.duration(&sp.key("duration"), &raw.scenario.duration).unwrap_or(SimDuration::from_secs(1));
        if duration == SimDuration::ZERO {
            self.err(&sp.key("duration"), "the duration must be longer than zero");
        } else if duration.as_micros() % 1_000_000 != 0 {
            self.err(&sp.key("duration"), "the duration must be a whole number of seconds");
        } else if duration > SimDuration::from_secs(366 * 86_400) {
            self.err(&sp.key("duration"), "the duration must be at most 366 days");
        }
        let start_unix_s = match &raw.scenario.start {
            None => DEFAULT_START_UNIX_S,
            Some(s) => parse_rfc3339(s).unwrap_or_else(|| {
                self.err(&sp.key("start"), format!("\"{s}\" is not an RFC 3339 UTC instant such as \"2026-03-02T00:00:00Z\""));
                DEFAULT_START_UNIX_S
            }),
        };
        let name = match raw.scenario.name {
            Some(n) => {
                if n.is_empty() || n.contains(['/', '\\']) || n == "." || n == ".." {
                    self.err(&sp.key("name"), "the name is used as a folder name: it must be non-empty and contain no slashes");
                }
                n
            }
            None => self.path.file_stem().map_or_else(|| "scenario".to_string(), |s| s.to_string_lossy().into_owned()),
        };
        let fidelity = match raw.scenario.fidelity {
            Some(RawFidelity::Exact) => Fidelity::Exact,
            _ => Fidelity::Fast,
        };

        // [pricing]
        let pp = root.key("pricing");
        let region = raw.pricing.region.unwrap_or_else(|| "us-east-1".to_string());
        if !KNOWN_REGIONS.contains(&region.as_str()) {
            self.err(&pp.key("region"), format!("no price catalog for region \"{region}\"; known: {}", KNOWN_REGIONS.join(", ")));
        }
        let mut overrides = Vec::new();
        for (k, v) in raw.pricing.overrides {
            let at = pp.key("overrides").key(&k);
            if !PRICE_ITEMS.contains(&k.as_str()) {
                self.err(&at, format!("unknown price item \"{k}\"; known: {}", PRICE_ITEMS.join(", ")));
            } else if !v.is_finite() || v < 0.0 {
                self.err(&at, format!("a price must be a finite number >= 0 USD, not {v}"));
            }
            overrides.push((k, v));
        }
        let pricing = PricingSpec { region, free_tier: raw.pricing.free_tier, overrides };

        // [keys.*]
        let mut key_spaces = Vec::new();
        let mut key_index = BTreeMap::new();
        for (name, k) in raw.keys {
            let at = root.key("keys").key(&name);
            key_index.insert(name.clone(), key_spaces.len());
            key_spaces.push(self.key_space(&at, name, &k, duration));
        }
        let key_ref = |v: &mut Self, at: &KeyPath, name: &str| -> Option<usize> {
            let found = key_index.get(name).copied();
            if found.is_none() {
                let known: Vec<&str> = key_index.keys().map(String::as_str).collect();
                v.err(
                    at,
                    format!(
                        "no key space \"{name}\" in [keys]; defined: {}",
                        if known.is_empty() { "none".to_string() } else { known.join(", ") }
                    ),
                );
            }
            found
        };

        // [table]
        let tp = root.key("table");
        let partition_key = key_ref(self, &tp.key("partition_key"), &raw.table.partition_key).unwrap_or(0);
        let storage_gb = raw.table.storage_gb.unwrap_or(0.0);
        if !storage_gb.is_finite() || storage_gb < 0.0 {
            self.err(&tp.key("storage_gb"), format!("storage must be a finite number >= 0 GB, not {storage_gb}"));
        }
        let capacity = self.table_capacity(&tp.key("capacity"), &raw.table.capacity);
        let on_demand = matches!(capacity, CapacitySpec::OnDemand { .. });
        let autoscaling = raw.table.autoscaling.as_ref().map(|a| {
            if on_demand {
                self.err(&tp.key("autoscaling"), "auto scaling applies to provisioned capacity; this table is on-demand");
            }
            self.autoscaling(&tp.key("autoscaling"), a)
        });
        let table = TableSpec {
            name: raw.table.name.unwrap_or_else(|| name.clone()),
            partition_key,
            table_class: match raw.table.table_class {
                Some(RawTableClass::StandardIa) => TableClass::StandardIa,
                _ => TableClass::Standard,
            },
            storage_bytes: (storage_gb.clamp(0.0, 1e15) * 1e9) as u64,
            capacity,
            autoscaling,
            initial_burst_full: raw.table.initial_burst != Some(RawInitialBurst::Empty),
            linear_partition_limit: raw.table.partition_limit_model == Some(RawPartitionLimitModel::Linear),
            update_latency: self.opt_duration(&tp.key("update_latency"), raw.table.update_latency.as_ref(), SimDuration::from_secs(10)),
            partition_add_latency: self.opt_duration(
                &tp.key("partition_add_latency"),
                raw.table.partition_add_latency.as_ref(),
                SimDuration::from_secs(600),
            ),
            prewarm_delay: self.opt_duration(&tp.key("prewarm_delay"), raw.table.prewarm_delay.as_ref(), SimDuration::from_secs(600)),
            on_demand_doubling_minutes: {
                let d =
                    self.opt_duration(&tp.key("on_demand_doubling"), raw.table.on_demand_doubling.as_ref(), SimDuration::from_secs(1_800));
                if d < SimDuration::from_secs(60) {
                    self.err(&tp.key("on_demand_doubling"), "the on-demand doubling time must be at least 1m");
                }
                (d.as_secs() as f64 / 60.0).max(1.0)
            },
            split_for_heat: self.heat(&tp.key("split_for_heat"), raw.table.split_for_heat.as_ref()),
        };

        // [[gsi]], [[lsi]]
        if raw.gsi.len() > MAX_GSIS {
            self.err(&root.key("gsi"), format!("{} GSIs: a table may have at most {MAX_GSIS}", raw.gsi.len()));
        }
        if raw.lsi.len() > MAX_LSIS {
            self.err(&root.key("lsi"), format!("{} LSIs: a table may have at most {MAX_LSIS}", raw.lsi.len()));
        }
        let mut index_names: BTreeMap<String, IndexRef> = BTreeMap::new();
        let mut gsis = Vec::new();
        for (i, g) in raw.gsi.iter().enumerate() {
            let at = root.key("gsi").index(i);
            if index_names.insert(g.name.clone(), IndexRef::Gsi(i)).is_some() {
                self.err(&at.key("name"), format!("a second index named \"{}\"", g.name));
            }
            let pk = key_ref(self, &at.key("partition_key"), &g.partition_key).unwrap_or(0);
            let coverage = g.coverage.unwrap_or(1.0);
            if !(coverage > 0.0 && coverage <= 1.0) {
                self.err(
                    &at.key("coverage"),
                    format!("coverage is the share of items in the index: more than 0 and at most 1, not {coverage}"),
                );
            }
            let capacity = self.gsi_capacity(&at.key("capacity"), g.capacity.as_ref(), &capacity);
            let autoscaling = g.autoscaling.as_ref().map(|a| {
                if on_demand {
                    self.err(&at.key("autoscaling"), "auto scaling applies to provisioned capacity; this table is on-demand");
                }
                self.autoscaling(&at.key("autoscaling"), a)
            });
            let projection = self.projection(&at.key("projection"), g.projection.as_ref());
            let pp = at.key("propagation");
            let median =
                self.opt_duration(&pp.key("median"), g.propagation.as_ref().and_then(|p| p.median.as_ref()), SimDuration::from_millis(100));
            let p99 = self.opt_duration(&pp.key("p99"), g.propagation.as_ref().and_then(|p| p.p99.as_ref()), SimDuration::from_secs(1));
            if median == SimDuration::ZERO || p99 < median {
                self.err(&pp, format!("propagation needs 0 < median <= p99, not median {median} and p99 {p99}"));
            }
            gsis.push(GsiSpec {
                name: g.name.clone(),
                partition_key: pk,
                projection,
                coverage,
                capacity,
                autoscaling,
                added_during_run: false,
                propagation_median_us: median.as_micros().max(1),
                propagation_p99_us: p99.as_micros().max(median.as_micros().max(1)),
            });
        }
        let mut lsis = Vec::new();
        for (i, l) in raw.lsi.iter().enumerate() {
            let at = root.key("lsi").index(i);
            if index_names.insert(l.name.clone(), IndexRef::Lsi(i)).is_some() {
                self.err(&at.key("name"), format!("a second index named \"{}\"", l.name));
            }
            let projection = self.projection(&at.key("projection"), l.projection.as_ref());
            lsis.push(LsiSpec { name: l.name.clone(), projection });
        }

        // [[pattern]]
        if raw.pattern.is_empty() {
            self.err(&root, "no [[pattern]]: a scenario needs at least one access pattern");
        }
        let mut patterns = Vec::new();
        let mut pattern_names = BTreeMap::new();
        for (i, p) in raw.pattern.iter().enumerate() {
            let at = root.key("pattern").index(i);
            if pattern_names.insert(p.name.clone(), i).is_some() {
                self.err(&at.key("name"), format!("a second pattern named \"{}\"", p.name));
            }
            patterns.push(self.pattern(&at, p, &key_ref, &index_names, &gsis, partition_key, duration));
        }

        // [client]
        let client = self.client(&root.key("client"), &raw.client);

        // [[at]]
        let mut actions = Vec::new();
        for (i, a) in raw.at.iter().enumerate() {
            let at = root.key("at").index(i);
            if let Some(act) = self.action(&at, a, duration, &capacity, &index_names, &pattern_names, &mut gsis) {
                actions.push(act);
            }
        }
        actions.sort_by_key(|a| a.time);
        self.check_switch_limit(&actions, &raw.at);
        for (i, p) in patterns.iter().enumerate() {
            if let Some(IndexRef::Gsi(g)) = p.index {
                if gsis[g].added_during_run {
                    self.err(
                        &root.key("pattern").index(i).key("index"),
                        format!("\"{}\" is created during the run by add_gsi; a pattern cannot read it from the start", gsis[g].name),
                    );
                }
            }
        }

        Some(Scenario {
            name,
            description: raw.scenario.description.unwrap_or_default(),
            source_path: self.path.to_path_buf(),
            source_text: text.to_string(),
            duration,
            start_unix_s,
            seed: raw.scenario.seed.unwrap_or(1),
            fidelity,
            pricing,
            table,
            key_spaces,
            gsis,
            lsis,
            patterns,
            client,
            actions,
        })
    }

    fn key_space(&mut self, at: &KeyPath, name: String, k: &RawKeySpace, duration: SimDuration) -> KeySpaceSpec {
        let mut value_names = Vec::new();
        let (cardinality, popularity) = match (&k.values, k.cardinality) {
            (Some(_), Some(_)) => {
                self.err(&at.key("values"), "give either `values` or `cardinality`, not both");
                (1, Popularity::Uniform)
            }
            (Some(values), None) => {
                if k.popularity.is_some() {
                    self.err(&at.key("popularity"), "explicit `values` carry their own weights; remove `popularity`");
                }
                let mut w = Vec::new();
                for (vn, &x) in values {
                    if !x.is_finite() || x < 0.0 {
                        self.err(&at.key("values").key(vn), format!("a weight must be a finite number >= 0, not {x}"));
                    }
                    value_names.push(vn.clone());
                    w.push(x.max(0.0));
                }
                let sum: f64 = w.iter().sum();
                if values.is_empty() || sum <= 0.0 || !sum.is_finite() {
                    self.err(&at.key("values"), "`values` needs at least one value with a weight above 0");
                    w = vec![1.0];
                }
                (w.len() as u64, Popularity::Weights(w))
            }
            (None, card) => {
                let card = match card {
                    None => {
                        self.err(at, "a key space needs `cardinality` (distinct values) or explicit `values`");
                        1
                    }
                    Some(0) => {
                        self.err(&at.key("cardinality"), "cardinality must be at least 1");
                        1
                    }
                    Some(c) => c,
                };
                let pop = match &k.popularity {
                    None | Some(RawPopularity::Uniform) => Popularity::Uniform,
                    Some(RawPopularity::Zipf(s)) => {
                        if !(s.is_finite() && *s > 0.0 && *s <= 10.0) {
                            self.err(
                                &at.key("popularity").key("zipf"),
                                format!("the zipf exponent must be above 0 (and at most 10), not {s}"),
                            );
                        }
                        Popularity::Zipf(*s)
                    }
                    Some(RawPopularity::Hot(h)) => {
                        let hp = at.key("popularity").key("hot");
                        if h.keys == 0 || h.keys > card {
                            self.err(&hp.key("keys"), format!("hot keys must be between 1 and the cardinality ({card}), not {}", h.keys));
                        }
                        if !(h.share > 0.0 && h.share <= 1.0) {
                            self.err(
                                &hp.key("share"),
                                format!("share is the hot keys' part of the traffic: above 0 and at most 1, not {}", h.share),
                            );
                        }
                        if h.share < 1.0 && h.keys == card {
                            self.err(&hp.key("share"), "every key is hot, so the share must be 1");
                        }
                        Popularity::Hot { keys: h.keys, share: h.share }
                    }
                    Some(RawPopularity::Sequential(p)) => {
                        let sp = at.key("popularity").key("sequential");
                        let d = self.duration(&sp, p).unwrap_or(SimDuration::from_secs(86_400));
                        if d < SimDuration::from_secs(1) {
                            self.err(&sp, "the period of a sequential key must be at least 1s");
                        }
                        let periods = duration.as_micros().div_ceil(d.as_micros().max(1));
                        if periods > card {
                            self.err(
                                &at.key("cardinality"),
                                format!("a sequential key with period {d} needs {periods} values over the run; the cardinality is {card}"),
                            );
                        }
                        Popularity::Sequential(d)
                    }
                };
                (card, pop)
            }
        };
        let shards = k.shards.as_ref().map(|s| {
            if s.count == 0 || s.count > 10_000 {
                self.err(&at.key("shards").key("count"), format!("shard count must be between 1 and 10000, not {}", s.count));
            }
            Shards { count: s.count.clamp(1, 10_000), random: s.by == RawShardBy::Random }
        });
        KeySpaceSpec { name, cardinality, popularity, value_names, shards }
    }

    fn table_capacity(&mut self, at: &KeyPath, c: &RawCapacity) -> CapacitySpec {
        match c {
            RawCapacity::Provisioned { read, write } => {
                let read = self.units(&at.key("read"), *read, "provisioned read capacity");
                let write = self.units(&at.key("write"), *write, "provisioned write capacity");
                CapacitySpec::Provisioned { read, write }
            }
            RawCapacity::OnDemand { warm_read, warm_write, max_read, max_write, table_quota } => {
                let table_quota = table_quota.map_or(DEFAULT_TABLE_QUOTA, |q| self.units(&at.key("table_quota"), q, "the table quota"));
                let warm_read =
                    warm_read.map_or(ON_DEMAND_DEFAULT_WARM_READ, |w| self.units(&at.key("warm_read"), w, "warm read throughput"));
                let warm_write =
                    warm_write.map_or(ON_DEMAND_DEFAULT_WARM_WRITE, |w| self.units(&at.key("warm_write"), w, "warm write throughput"));
                if warm_read < ON_DEMAND_DEFAULT_WARM_READ {
                    self.err(
                        &at.key("warm_read"),
                        format!("warm throughput never goes below the new-table default of {ON_DEMAND_DEFAULT_WARM_READ} RRU/s"),
                    );
                }
                if warm_write < ON_DEMAND_DEFAULT_WARM_WRITE {
                    self.err(
                        &at.key("warm_write"),
                        format!("warm throughput never goes below the new-table default of {ON_DEMAND_DEFAULT_WARM_WRITE} WRU/s"),
                    );
                }
                let max_read = max_read.map(|m| self.units(&at.key("max_read"), m, "max_read"));
                let max_write = max_write.map(|m| self.units(&at.key("max_write"), m, "max_write"));
                CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota }
            }
        }
    }

    fn gsi_capacity(&mut self, at: &KeyPath, c: Option<&RawGsiCapacity>, table: &CapacitySpec) -> CapacitySpec {
        match table {
            CapacitySpec::Provisioned { .. } => {
                let Some(c) = c else {
                    self.err(at, "a GSI of a provisioned table needs `capacity = { read = .., write = .. }`");
                    return CapacitySpec::Provisioned { read: 1, write: 1 };
                };
                for (k, v) in
                    [("warm_read", c.warm_read), ("warm_write", c.warm_write), ("max_read", c.max_read), ("max_write", c.max_write)]
                {
                    if v.is_some() {
                        self.err(&at.key(k), format!("`{k}` is an on-demand setting; this table is provisioned"));
                    }
                }
                let read = match c.read {
                    Some(r) => self.units(&at.key("read"), r, "GSI read capacity"),
                    None => {
                        self.err(at, "missing `read` capacity units");
                        1
                    }
                };
                let write = match c.write {
                    Some(w) => self.units(&at.key("write"), w, "GSI write capacity"),
                    None => {
                        self.err(at, "missing `write` capacity units");
                        1
                    }
                };
                CapacitySpec::Provisioned { read, write }
            }
            CapacitySpec::OnDemand { table_quota, .. } => {
                let mut warm_read = ON_DEMAND_DEFAULT_WARM_READ;
                let mut warm_write = ON_DEMAND_DEFAULT_WARM_WRITE;
                let (mut max_read, mut max_write) = (None, None);
                if let Some(c) = c {
                    for (k, v) in [("read", c.read), ("write", c.write)] {
                        if v.is_some() {
                            self.err(
                                &at.key(k),
                                format!("`{k}` is a provisioned setting; this table is on-demand (use warm_{k} or max_{k})"),
                            );
                        }
                    }
                    if let Some(w) = c.warm_read {
                        warm_read = self.units(&at.key("warm_read"), w, "warm read throughput").max(ON_DEMAND_DEFAULT_WARM_READ);
                    }
                    if let Some(w) = c.warm_write {
                        warm_write = self.units(&at.key("warm_write"), w, "warm write throughput").max(ON_DEMAND_DEFAULT_WARM_WRITE);
                    }
                    max_read = c.max_read.map(|m| self.units(&at.key("max_read"), m, "max_read"));
                    max_write = c.max_write.map(|m| self.units(&at.key("max_write"), m, "max_write"));
                }
                CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota: *table_quota }
            }
        }
    }

    fn autoscaling(&mut self, at: &KeyPath, a: &RawAutoscaling) -> AutoscalingSpec {
        if a.read.is_none() && a.write.is_none() {
            self.err(at, "auto scaling needs a `read` or a `write` target");
        }
        let target = |v: &mut Self, name: &str, t: Option<&RawScalingTarget>| {
            t.map(|t| {
                let tp = at.key(name);
                if !(20.0..=90.0).contains(&t.target) {
                    v.err(&tp.key("target"), format!("target utilization must be between 20 and 90 percent, not {}", t.target));
                }
                let min = v.units(&tp.key("min"), t.min, "minimum capacity");
                let max = v.units(&tp.key("max"), t.max, "maximum capacity");
                if min > max {
                    v.err(&tp.key("min"), format!("min ({min}) is above max ({max})"));
                }
                ScalingTargetSpec {
                    min,
                    max,
                    target: t.target / 100.0,
                    scale_in_cooldown: v.opt_duration(&tp.key("scale_in_cooldown"), t.scale_in_cooldown.as_ref(), SimDuration::ZERO),
                    scale_out_cooldown: v.opt_duration(&tp.key("scale_out_cooldown"), t.scale_out_cooldown.as_ref(), SimDuration::ZERO),
                }
            })
        };
        let read = target(self, "read", a.read.as_ref());
        let write = target(self, "write", a.write.as_ref());
        AutoscalingSpec {
            instant: a.policy == Some(RawScalingPolicy::Instant),
            read,
            write,
            alarm_delay: self.opt_duration(&at.key("alarm_delay"), a.alarm_delay.as_ref(), SimDuration::from_secs(90)),
        }
    }

    fn heat(&mut self, at: &KeyPath, h: Option<&RawHeat>) -> Option<HeatSpec> {
        match h {
            None | Some(RawHeat::Switch(true)) => Some(HeatSpec::default()),
            Some(RawHeat::Switch(false)) => None,
            Some(RawHeat::Settings(s)) => {
                let d = HeatSpec::default();
                let threshold = s.threshold.unwrap_or(d.threshold);
                if !(threshold > 0.0 && threshold <= 1.0) {
                    self.err(
                        &at.key("threshold"),
                        format!("the heat threshold is a share of the partition cap: above 0 and at most 1, not {threshold}"),
                    );
                }
                let window = self.opt_duration(&at.key("window"), s.window.as_ref(), SimDuration::from_secs(300));
                if window.as_secs() < 60 || window.as_secs() % 60 != 0 {
                    self.err(&at.key("window"), "the heat window is whole minutes, at least 1m");
                }
                let delay = self.opt_duration(&at.key("delay"), s.delay.as_ref(), SimDuration::from_secs(300));
                Some(HeatSpec { threshold, window_minutes: (window.as_secs() / 60).max(1), delay_s: delay.as_secs() })
            }
        }
    }

    fn projection(&mut self, at: &KeyPath, p: Option<&RawProjection>) -> Projection {
        match p {
            None | Some(RawProjection::All) => Projection::All,
            Some(RawProjection::KeysOnly) => Projection::KeysOnly,
            Some(RawProjection::IncludeBytes(b)) => {
                if *b > MAX_ITEM_BYTES {
                    self.err(&at.key("include_bytes"), format!("projected bytes cannot exceed the 400 KB item limit, not {b}"));
                }
                Projection::IncludeBytes(*b)
            }
        }
    }

    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn pattern(
        &mut self,
        at: &KeyPath,
        p: &RawPattern,
        key_ref: &dyn Fn(&mut Self, &KeyPath, &str) -> Option<usize>,
        index_names: &BTreeMap<String, IndexRef>,
        gsis: &[GsiSpec],
        table_pk: usize,
        duration: SimDuration,
    ) -> PatternSpec {
        let op = match p.op {
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
        };
        let index = p.index.as_ref().and_then(|name| {
            let found = index_names.get(name).copied();
            if found.is_none() {
                self.err(&at.key("index"), format!("no index named \"{name}\" in [[gsi]] or [[lsi]]"));
            } else if !matches!(op, Op::Query | Op::Scan) {
                self.err(&at.key("index"), format!("{} cannot read an index; only query and scan can", op.api_name()));
            }
            found
        });
        let default_pk = match index {
            Some(IndexRef::Gsi(g)) => gsis.get(g).map_or(table_pk, |g| g.partition_key),
            _ => table_pk,
        };
        let key_space = match (&p.key, op) {
            (Some(_), Op::Scan) => {
                self.err(&at.key("key"), "a scan reads every partition; it takes no `key`");
                None
            }
            (_, Op::Scan) => None,
            (Some(k), _) => Some(key_ref(self, &at.key("key"), k).unwrap_or(default_pk)),
            (None, _) => Some(default_pk),
        };
        let size = match &p.item_bytes {
            None => SizeSpec::Fixed(1_024),
            Some(RawSize::Fixed(b)) => {
                if *b < 1 || b.unsigned_abs() > MAX_ITEM_BYTES {
                    self.err(&at.key("item_bytes"), format!("an item is 1 to {MAX_ITEM_BYTES} bytes (400 KB), not {b}"));
                }
                SizeSpec::Fixed(b.unsigned_abs().clamp(1, MAX_ITEM_BYTES))
            }
            Some(RawSize::LogNormal { mean, sigma }) => {
                if !(mean.is_finite() && *mean >= 1.0 && *mean <= MAX_ITEM_BYTES as f64) {
                    self.err(&at.key("item_bytes").key("mean"), format!("the mean item size is 1 to {MAX_ITEM_BYTES} bytes, not {mean}"));
                }
                if !(sigma.is_finite() && *sigma > 0.0 && *sigma <= 4.0) {
                    self.err(&at.key("item_bytes").key("sigma"), format!("sigma must be above 0 and at most 4, not {sigma}"));
                }
                SizeSpec::LogNormal { mean: *mean, sigma: *sigma }
            }
        };
        let items = p.items.unwrap_or(1);
        let max_items = match op {
            Op::GetItem | Op::PutItem | Op::UpdateItem | Op::DeleteItem => 1,
            Op::BatchGet | Op::TransactGet | Op::TransactWrite => 100,
            Op::BatchWrite => 25,
            Op::Query | Op::Scan => 1_000_000,
        };
        if items == 0 || items > max_items {
            self.err(&at.key("items"), format!("{} takes 1 to {max_items} items per request, not {items}", op.api_name()));
        }
        let consistency = match (p.consistency, op) {
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
            (None, _) if matches!(index, Some(IndexRef::Gsi(_))) => Consistency::Eventual,
            (Some(RawConsistency::Eventual), _) => Consistency::Eventual,
            _ => Consistency::Strong,
        };
        let rate = self.rate_shape(&at.key("rate"), &p.rate, duration);
        let mut index_writes = Vec::new();
        for (name, kind) in &p.index_writes {
            let ip = at.key("index_writes").key(name);
            if !op.is_write() {
                self.err(&ip, format!("{} is a read; only writes cause index writes", op.api_name()));
            }
            match index_names.get(name) {
                Some(IndexRef::Gsi(g)) => {
                    let k = match kind {
                        RawIndexWrite::Insert => Some(IndexWrite::Insert),
                        RawIndexWrite::KeyChange => Some(IndexWrite::KeyChange),
                        RawIndexWrite::Update => Some(IndexWrite::Update),
                        RawIndexWrite::None => None,
                    };
                    if let Some(k) = k {
                        index_writes.push((*g, k));
                    }
                }
                Some(IndexRef::Lsi(_)) => {
                    self.err(&ip, "LSI writes are charged to the base table and follow every write; list only GSIs here")
                }
                None => self.err(&ip, format!("no GSI named \"{name}\"")),
            }
        }
        let after_write = p.after_write.as_ref().and_then(|d| {
            let ap = at.key("after_write");
            if !matches!(index, Some(IndexRef::Gsi(_))) || op.is_write() {
                self.err(&ap, "after_write applies to reads of a GSI (query or scan with `index`)");
            }
            self.duration(&ap, d)
        });
        PatternSpec { name: p.name.clone(), op, key_space, index, size, items, consistency, rate, index_writes, after_write }
    }

    fn rate_shape(&mut self, at: &KeyPath, r: &RawRate, duration: SimDuration) -> RateShape {
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
                    None => 14 * 3_600,
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
                match read_trace(&full) {
                    Ok(steps) => RateShape::Steps(steps),
                    Err(m) => {
                        self.err(&tp, format!("{}: {m}", full.display()));
                        RateShape::Constant(0.0)
                    }
                }
            }
        }
    }

    fn client(&mut self, at: &KeyPath, c: &RawClient) -> ClientSpec {
        let service_time = self.opt_duration(&at.key("service_time"), c.service_time.as_ref(), SimDuration::from_millis(5));
        let instances = c.instances.unwrap_or(1);
        if instances == 0 || instances > 1_000_000 {
            self.err(&at.key("instances"), format!("instances must be between 1 and 1000000, not {instances}"));
        }
        let mut spec = ClientSpec {
            attempts: 4,
            throttle_base: SimDuration::from_secs(1),
            cap: SimDuration::from_secs(20),
            quota: 500,
            throttle_cost: 5,
            service_time,
            instances: instances.max(1),
            preset: "sdk-2026",
        };
        match &c.retry {
            None => {}
            Some(RawRetry::Preset(p)) => match p.as_str() {
                "sdk-2026" => {}
                "legacy" => {
                    // Pre-2026 DynamoDB defaults of most SDKs: 10 retries, 25 ms base, no quota.
                    spec.attempts = 11;
                    spec.throttle_base = SimDuration::from_millis(25);
                    spec.quota = 0;
                    spec.preset = "legacy";
                }
                "none" => {
                    spec.attempts = 1;
                    spec.preset = "none";
                }
                other => self.err(
                    &at.key("retry"),
                    format!("unknown retry preset \"{other}\"; use \"sdk-2026\", \"legacy\", \"none\" or {{ attempts = .., base = .. }}"),
                ),
            },
            Some(RawRetry::Explicit(e)) => {
                let rp = at.key("retry");
                if e.attempts == 0 || e.attempts > 100 {
                    self.err(&rp.key("attempts"), format!("attempts (the first included) must be 1 to 100, not {}", e.attempts));
                }
                spec.attempts = e.attempts.clamp(1, 100) as u32;
                let base = self.opt_duration(&rp.key("base"), e.base.as_ref(), SimDuration::from_millis(25));
                spec.throttle_base = self.opt_duration(&rp.key("throttle_base"), e.throttle_base.as_ref(), base);
                spec.cap = self.opt_duration(&rp.key("cap"), e.cap.as_ref(), SimDuration::from_secs(20));
                if spec.cap == SimDuration::ZERO {
                    self.err(&rp.key("cap"), "the backoff cap must be longer than zero");
                }
                spec.quota = e.quota.unwrap_or(500);
                spec.throttle_cost = e.throttle_cost.unwrap_or(5);
                spec.preset = "explicit";
            }
        }
        spec
    }

    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    fn action(
        &mut self,
        at: &KeyPath,
        a: &RawAt,
        duration: SimDuration,
        capacity: &CapacitySpec,
        index_names: &BTreeMap<String, IndexRef>,
        pattern_names: &BTreeMap<String, usize>,
        gsis: &mut [GsiSpec],
    ) -> Option<ActionSpec> {
        let time = self.duration(&at.key("time"), &a.time)?;
        if time >= duration {
            self.err(&at.key("time"), format!("{time} is not before the end of the run ({duration})"));
        }
        let count = [a.set_capacity.is_some(), a.switch_mode.is_some(), a.prewarm.is_some(), a.add_gsi.is_some(), a.scale_rate.is_some()]
            .iter()
            .filter(|x| **x)
            .count();
        if count != 1 {
            self.err(
                at,
                format!("each [[at]] takes exactly one action (set_capacity, switch_mode, prewarm, add_gsi, scale_rate); found {count}"),
            );
            return None;
        }
        let index = match &a.index {
            None => None,
            Some(name) => match index_names.get(name) {
                Some(IndexRef::Gsi(g)) => Some(*g),
                Some(IndexRef::Lsi(_)) => {
                    self.err(&at.key("index"), format!("\"{name}\" is an LSI: it has no capacity of its own"));
                    None
                }
                None => {
                    self.err(&at.key("index"), format!("no GSI named \"{name}\""));
                    None
                }
            },
        };
        if a.index.is_some() && a.set_capacity.is_none() && a.prewarm.is_none() {
            self.err(&at.key("index"), "`index` goes with set_capacity or prewarm");
        }
        let opt_units = |v: &mut Self, p: &KeyPath, x: Option<i64>, what: &str| x.map(|x| v.units(p, x, what));
        let action = if let Some(c) = &a.set_capacity {
            let cp = at.key("set_capacity");
            if matches!(capacity, CapacitySpec::OnDemand { .. }) && !self.switches_before(time) {
                self.err(&cp, "set_capacity sets provisioned capacity; this table is on-demand (switch_mode first)");
            }
            if c.read.is_none() && c.write.is_none() {
                self.err(&cp, "set_capacity needs `read` or `write`");
            }
            Action::SetCapacity {
                index,
                read: opt_units(self, &cp.key("read"), c.read, "read capacity"),
                write: opt_units(self, &cp.key("write"), c.write, "write capacity"),
            }
        } else if let Some(m) = &a.switch_mode {
            let sp = at.key("switch_mode");
            let on_demand = match m.target() {
                "on_demand" => true,
                "provisioned" => false,
                other => {
                    let p = if matches!(m, RawSwitchMode::To(_)) { sp.key("to") } else { sp };
                    self.err(&p, format!("switch_mode is \"on_demand\" or \"provisioned\", not \"{other}\""));
                    return None;
                }
            };
            let units = match m {
                RawSwitchMode::Mode(_) => None,
                RawSwitchMode::To(t) if on_demand => {
                    if t.read.is_some() || t.write.is_some() {
                        self.err(&sp, "read and write are provisioned capacity; a switch to on-demand takes none");
                    }
                    None
                }
                RawSwitchMode::To(t) => match (t.read, t.write) {
                    (Some(r), Some(w)) => Some([
                        self.units(&sp.key("read"), r, "provisioned read capacity"),
                        self.units(&sp.key("write"), w, "provisioned write capacity"),
                    ]),
                    _ => {
                        self.err(&sp, "a switch to provisioned with capacity needs both `read` and `write` (UpdateTable takes both)");
                        None
                    }
                },
            };
            Action::SwitchMode { on_demand, units }
        } else if let Some(c) = &a.prewarm {
            let cp = at.key("prewarm");
            if c.read.is_none() && c.write.is_none() {
                self.err(&cp, "prewarm needs `read` or `write`");
            }
            Action::Prewarm {
                index,
                read: opt_units(self, &cp.key("read"), c.read, "warm read throughput"),
                write: opt_units(self, &cp.key("write"), c.write, "warm write throughput"),
            }
        } else if let Some(g) = &a.add_gsi {
            match index_names.get(g) {
                Some(IndexRef::Gsi(i)) => {
                    if gsis[*i].added_during_run {
                        self.err(&at.key("add_gsi"), format!("\"{g}\" is already added by another [[at]]"));
                    }
                    gsis[*i].added_during_run = true;
                    Action::AddGsi(*i)
                }
                Some(IndexRef::Lsi(_)) => {
                    self.err(
                        &at.key("add_gsi"),
                        format!("\"{g}\" is an LSI: LSIs are defined when the table is created and cannot be added later"),
                    );
                    return None;
                }
                None => {
                    self.err(&at.key("add_gsi"), format!("no GSI named \"{g}\" in [[gsi]]"));
                    return None;
                }
            }
        } else if let Some(s) = &a.scale_rate {
            let sp = at.key("scale_rate");
            let pattern = pattern_names.get(&s.pattern).copied().unwrap_or_else(|| {
                self.err(&sp.key("pattern"), format!("no pattern named \"{}\"", s.pattern));
                0
            });
            if !(s.factor.is_finite() && s.factor >= 0.0) {
                self.err(&sp.key("factor"), format!("the factor must be a finite number >= 0, not {}", s.factor));
            }
            Action::ScaleRate { pattern, factor: s.factor }
        } else {
            return None;
        };
        Some(ActionSpec { time, action })
    }

    /// Set capacity on an on-demand table is legal once it has been switched to provisioned;
    /// the switch ordering is checked in [`Self::check_switch_limit`], so accept it here.
    fn switches_before(&self, _time: SimDuration) -> bool {
        true
    }

    /// Provisioned -> on-demand switches: at most 4 in any rolling 24 hours (spec §5).
    fn check_switch_limit(&mut self, actions: &[ActionSpec], raw: &[RawAt]) {
        let switches: Vec<SimDuration> =
            actions.iter().filter(|a| matches!(a.action, Action::SwitchMode { on_demand: true, .. })).map(|a| a.time).collect();
        for (i, t) in switches.iter().enumerate() {
            let in_window = switches[..=i].iter().filter(|s| t.as_micros() - s.as_micros() < 86_400_000_000).count();
            if in_window > 4 {
                let idx = raw
                    .iter()
                    .position(|r| {
                        r.switch_mode.as_ref().map(RawSwitchMode::target) == Some("on_demand") && parse_duration(&r.time).ok() == Some(*t)
                    })
                    .unwrap_or(0);
                self.err(
                    &KeyPath::root().key("at").index(idx).key("switch_mode"),
                    format!("a fifth switch to on-demand within 24 hours (at {t}): DynamoDB allows 4 per rolling 24 hours"),
                );
                return;
            }
        }
    }
}

/// 2026-01-01T00:00:00Z, the start when a scenario gives none (a Thursday; UTC midnight).
pub const DEFAULT_START_UNIX_S: i64 = 1_767_225_600;

/// Parses `YYYY-MM-DDTHH:MM:SSZ` (or with `+00:00`) into Unix seconds.
#[must_use]
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let s = s.trim();
    let (body, _) = s.strip_suffix('Z').map(|b| (b, 0)).or_else(|| s.strip_suffix("+00:00").map(|b| (b, 0)))?;
    let (date, time) = body.split_once(['T', ' '])?;
    let mut d = date.split('-');
    let y: i64 = d.next()?.parse().ok()?;
    let m: i64 = d.next()?.parse().ok()?;
    let day: i64 = d.next()?.parse().ok()?;
    let mut t = time.split(':');
    let hh: i64 = t.next()?.parse().ok()?;
    let mm: i64 = t.next()?.parse().ok()?;
    let ss: i64 = t.next()?.split('.').next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) || hh > 23 || mm > 59 || ss > 60 || !(1970..=9999).contains(&y) {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let yy = if m <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3_600 + mm * 60 + ss)
}

fn parse_hh_mm(s: &str) -> Option<u64> {
    let (h, m) = s.split_once(':')?;
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    (h < 24 && m < 60).then_some(h * 3_600 + m * 60)
}

/// Reads a trace CSV: `time_s,rate` rows (a header line is allowed), times increasing from 0.
fn read_trace(path: &Path) -> Result<Vec<(u64, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the trace file: {e}"))?;
    let mut out: Vec<(u64, f64)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split(',');
        let (Some(t), Some(r)) = (f.next(), f.next()) else {
            return Err(format!("line {}: expected `time_s,rate`", n + 1));
        };
        let (Ok(t), Ok(r)) = (t.trim().parse::<f64>(), r.trim().parse::<f64>()) else {
            if out.is_empty() && n == 0 {
                continue; // header
            }
            return Err(format!("line {}: `{line}` is not two numbers", n + 1));
        };
        if !(t.is_finite() && t >= 0.0 && r.is_finite() && r >= 0.0) {
            return Err(format!("line {}: time and rate must be finite and >= 0", n + 1));
        }
        let t = t as u64;
        if out.last().is_some_and(|&(p, _)| t <= p) {
            return Err(format!("line {}: times must increase", n + 1));
        }
        if out.is_empty() && t != 0 {
            out.push((0, 0.0));
        }
        out.push((t, r));
    }
    if out.is_empty() {
        return Err("the trace has no rows".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00Z"), Some(DEFAULT_START_UNIX_S));
        assert_eq!(parse_rfc3339("2026-03-02T14:30:00Z"), Some(DEFAULT_START_UNIX_S + 60 * 86_400 + 14 * 3_600 + 1_800));
        assert_eq!(parse_rfc3339("2026-13-02T00:00:00Z"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
    }
}
