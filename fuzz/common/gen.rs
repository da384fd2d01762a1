//! A structure-aware scenario generator: fuzz bytes become a scenario document that is valid
//! most of the time (so the engine runs), with values drawn from the ranges a DynamoDB engineer
//! uses and, now and then, from the edges (zero, one, the ceilings, beyond them) where the
//! validator must answer instead.
//!
//! Shared by the fuzz target `engine` and by `tests/integration/fuzz_corpus.rs`, which replays
//! the committed corpus through it.

use arbitrary::{Arbitrary, Result, Unstructured};
use std::fmt::Write;

/// A number of capacity units: mostly 1 to a million, one time in 32 an edge (zero, the
/// ceiling, one past it, `u64::MAX`).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Units {
    kind: u8,
    x: u32,
}

impl Units {
    fn value(self) -> u64 {
        match self.kind % 32 {
            0 => match self.x % 4 {
                0 => 0,
                1 => 1_000_000_000,
                2 => 1_000_000_001,
                _ => u64::MAX,
            },
            1..=15 => 1 + u64::from(self.x) % 256,
            16..=27 => 1 + u64::from(self.x) % 65_536,
            _ => 1 + u64::from(self.x) % 1_000_000,
        }
    }
}

/// A duration, rendered as text.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Dur {
    /// Seconds.
    S(u16),
    /// Minutes.
    M(u8),
    /// Milliseconds.
    Ms(u16),
}

impl Dur {
    fn minutes(self) -> u64 {
        match self {
            Dur::S(x) | Dur::Ms(x) => u64::from(x),
            Dur::M(x) => u64::from(x),
        }
    }

    fn text(self) -> String {
        match self {
            Dur::S(x) => format!("{x}s"),
            Dur::M(x) => format!("{x}m"),
            Dur::Ms(x) => format!("{x}ms"),
        }
    }
}

/// A key space.
#[derive(Arbitrary, Debug)]
pub struct Key {
    cardinality: u32,
    popularity: u8,
    zipf: u8,
    hot_keys: u16,
    share: u8,
    sequential: Dur,
    values: u8,
    shards: u8,
    by_hash: bool,
}

/// An index.
#[derive(Arbitrary, Debug)]
pub struct Index {
    key: u8,
    projection: u8,
    include: u16,
    coverage: u8,
    read: Units,
    write: Units,
    scaling: Option<Scaling>,
    median_ms: u16,
    p99_ms: u16,
}

/// Auto scaling of one dimension.
#[derive(Arbitrary, Debug)]
pub struct Target {
    min: Units,
    max: Units,
    target: u8,
}

/// Auto scaling.
#[derive(Arbitrary, Debug)]
pub struct Scaling {
    instant: bool,
    read: Option<Target>,
    write: Option<Target>,
}

/// An access pattern.
#[derive(Arbitrary, Debug)]
pub struct Pattern {
    op: u8,
    key: Option<u8>,
    index: Option<u8>,
    bytes: u16,
    sigma: Option<u8>,
    items: u8,
    consistency: u8,
    rate: Rate,
    index_writes: Vec<u8>,
    after_write: Option<Dur>,
}

/// A rate shape.
#[derive(Arbitrary, Debug)]
pub enum Rate {
    /// Constant.
    Constant(u16),
    /// Daily sine.
    Diurnal(u16, u16, u8),
    /// A spike.
    Spike(u16, u32, u16, u16),
    /// A ramp.
    Ramp(u16, u16, u16, u16),
    /// Steps.
    Steps(Vec<(u16, u16)>),
}

/// An operational change.
#[derive(Arbitrary, Debug)]
pub struct At {
    time: u16,
    action: Action,
}

/// An action.
#[derive(Arbitrary, Debug)]
pub enum Action {
    /// UpdateTable.
    SetCapacity(Option<u8>, Units, Units),
    /// Pre-warm.
    Prewarm(Units, Units),
    /// To on-demand.
    OnDemand,
    /// To provisioned at the console's estimate.
    Provisioned,
    /// To provisioned at the capacity given.
    ProvisionedAt(Units, Units),
    /// Rate factor.
    ScaleRate(u8, u8),
    /// Create an index.
    AddGsi(u8),
}

/// A whole scenario.
#[derive(Arbitrary, Debug)]
pub struct Doc {
    seed: u16,
    secs: u16,
    exact: bool,
    start_day: u16,
    on_demand: bool,
    read: Units,
    write: Units,
    warm: Option<(Units, Units)>,
    max: Option<(Units, Units)>,
    ia: bool,
    storage_gb: u16,
    scaling: Option<Scaling>,
    empty_burst: bool,
    linear: bool,
    split: u8,
    latencies: (Dur, Dur, Dur, Dur),
    keys: Vec<Key>,
    gsis: Vec<Index>,
    lsis: Vec<u8>,
    patterns: Vec<Pattern>,
    retry: u8,
    instances: u8,
    ats: Vec<At>,
    /// A `scale_rate` timeline of one pattern: up to eight (time, factor) lines.
    timeline: Option<(u8, Vec<(u16, u8)>)>,
}

const OPS: [&str; 10] =
    ["get_item", "query", "scan", "put_item", "update_item", "delete_item", "batch_get", "batch_write", "transact_get", "transact_write"];

fn units_table(name: &str, t: &Target) -> String {
    // Mostly a valid range; one time in 16 the maximum as drawn (perhaps below the minimum).
    let (min, max) = (t.min.value(), t.max.value());
    let max = if t.target.is_multiple_of(16) { max } else { min.saturating_add(max) };
    format!("{name} = {{ min = {min}, max = {max}, target = {} }}", 18 + t.target % 75)
}

fn scaling(s: &Scaling) -> String {
    if s.read.is_none() && s.write.is_none() {
        return "{ write = { min = 5, max = 4000, target = 70 } }".to_string();
    }
    let mut parts = vec![format!("policy = \"{}\"", if s.instant { "instant" } else { "aws" })];
    if let Some(t) = &s.read {
        parts.push(units_table("read", t));
    }
    if let Some(t) = &s.write {
        parts.push(units_table("write", t));
    }
    format!("{{ {} }}", parts.join(", "))
}

impl Doc {
    /// The document from fuzz bytes.
    ///
    /// # Errors
    /// Not enough bytes.
    pub fn from_bytes(data: &[u8]) -> Result<Self> {
        Doc::arbitrary_take_rest(Unstructured::new(data))
    }

    /// The scenario text.
    #[must_use]
    #[allow(clippy::too_many_lines)]
    pub fn text(&self) -> String {
        let mut s = String::new();
        let secs = 1 + u64::from(self.secs) % 900;
        let _ = writeln!(s, "[scenario]\nname = \"fuzz\"\nduration = \"{secs}s\"\nseed = {}", self.seed);
        let _ = writeln!(s, "fidelity = \"{}\"", if self.exact { "exact" } else { "fast" });
        let _ =
            writeln!(s, "start = \"2026-{:02}-{:02}T{:02}:00:00Z\"", 1 + self.start_day % 12, 1 + self.start_day % 28, self.start_day % 24);
        let keys = self.keys.len().clamp(1, 3);
        let key_name = |i: u8| format!("k{}", usize::from(i) % keys);
        let _ = writeln!(s, "[table]\npartition_key = \"k0\"");
        if self.on_demand {
            let mut parts = vec!["mode = \"on_demand\"".to_string()];
            if let Some((r, w)) = self.warm {
                parts.push(format!("warm_read = {}, warm_write = {}", 12_000 + r.value() % 100_000, 4_000 + w.value() % 40_000));
            }
            if let Some((r, w)) = self.max {
                parts.push(format!("max_read = {}, max_write = {}", r.value(), w.value()));
            }
            let _ = writeln!(s, "capacity = {{ {} }}", parts.join(", "));
        } else {
            let _ = writeln!(s, "capacity = {{ mode = \"provisioned\", read = {}, write = {} }}", self.read.value(), self.write.value());
            if let Some(a) = &self.scaling {
                let _ = writeln!(s, "autoscaling = {}", scaling(a));
            }
        }
        let _ = writeln!(s, "table_class = \"{}\"", if self.ia { "standard_ia" } else { "standard" });
        let _ = writeln!(s, "storage_gb = {}", self.storage_gb % 200);
        let _ = writeln!(s, "initial_burst = \"{}\"", if self.empty_burst { "empty" } else { "full" });
        let _ = writeln!(s, "partition_limit_model = \"{}\"", if self.linear { "linear" } else { "independent" });
        let (a, b, c, d) = self.latencies;
        let _ = writeln!(
            s,
            "update_latency = \"{}\"\npartition_add_latency = \"{}\"\nprewarm_delay = \"{}\"\non_demand_doubling = \"{}m\"",
            a.text(),
            b.text(),
            c.text(),
            1 + d.minutes() % 60
        );
        match self.split % 3 {
            0 => s.push_str("split_for_heat = false\n"),
            1 => s.push_str("split_for_heat = true\n"),
            _ => s.push_str("split_for_heat = { threshold = 0.5, window = \"1m\", delay = \"20s\" }\n"),
        }
        // Buffered GSI back-pressure, from the split byte's high bit (no new field, so the
        // committed corpora keep their meaning).
        if self.split >= 128 {
            let _ = writeln!(s, "gsi_backpressure = \"buffered\"\ngsi_buffer = \"{}s\"", 1 + self.split % 64);
        }
        for i in 0..keys {
            let k = self.keys.get(i);
            let _ = writeln!(s, "[keys.k{i}]");
            let Some(k) = k else {
                s.push_str("cardinality = 1000\n");
                continue;
            };
            if k.values % 8 == 7 {
                s.push_str("values = { a = 0.7, b = 0.2, c = 0.1 }\n");
            } else {
                let _ = writeln!(s, "cardinality = {}", 1 + k.cardinality % 2_000_000);
                match k.popularity % 4 {
                    0 => s.push_str("popularity = \"uniform\"\n"),
                    1 => {
                        let _ = writeln!(s, "popularity = {{ zipf = {} }}", 0.1 + f64::from(k.zipf) / 64.0);
                    }
                    2 => {
                        let _ = writeln!(
                            s,
                            "popularity = {{ hot = {{ keys = {}, share = {} }} }}",
                            1 + k.hot_keys % 100,
                            f64::from(k.share % 100) / 100.0
                        );
                    }
                    _ => {
                        let _ = writeln!(s, "popularity = {{ sequential = \"{}\" }}", k.sequential.text());
                    }
                }
            }
            if k.popularity / 4 % 3 == 1 {
                let spread = if k.zipf % 4 == 0 { "newest" } else { "uniform" };
                let _ = writeln!(s, "sort_keys = {{ items = {}, spread = \"{spread}\" }}", 1 + u64::from(k.hot_keys) * 7);
            }
            if k.shards % 4 == 3 {
                let _ =
                    writeln!(s, "shards = {{ count = {}, by = \"{}\" }}", 1 + k.shards % 100, if k.by_hash { "hash" } else { "random" });
            }
        }
        let gsis = self.gsis.len().min(3);
        for (i, g) in self.gsis.iter().take(gsis).enumerate() {
            let _ = writeln!(s, "[[gsi]]\nname = \"G{i}\"\npartition_key = \"{}\"", key_name(g.key));
            match g.projection % 3 {
                0 => s.push_str("projection = \"keys_only\"\n"),
                1 => s.push_str("projection = \"all\"\n"),
                _ => {
                    let _ = writeln!(s, "projection = {{ include_bytes = {} }}", g.include);
                }
            }
            let _ = writeln!(s, "coverage = {}", f64::from(g.coverage % 101) / 100.0);
            if self.on_demand {
                let _ = writeln!(s, "capacity = {{ max_read = {}, max_write = {} }}", g.read.value(), g.write.value());
            } else {
                let _ = writeln!(s, "capacity = {{ read = {}, write = {} }}", g.read.value(), g.write.value());
                if let Some(a) = &g.scaling {
                    let _ = writeln!(s, "autoscaling = {}", scaling(a));
                }
            }
            let _ = writeln!(s, "propagation = {{ median = \"{}ms\", p99 = \"{}ms\" }}", g.median_ms % 1000, g.p99_ms);
        }
        let lsis = self.lsis.len().min(2);
        for (i, l) in self.lsis.iter().take(lsis).enumerate() {
            let _ = writeln!(s, "[[lsi]]\nname = \"L{i}\"\nprojection = \"{}\"", if l % 2 == 0 { "keys_only" } else { "all" });
        }
        let patterns = self.patterns.len().clamp(1, 5);
        for i in 0..patterns {
            let _ = writeln!(s, "[[pattern]]\nname = \"p{i}\"");
            let Some(p) = self.patterns.get(i) else {
                s.push_str("op = \"get_item\"\nrate = { constant = 10 }\n");
                continue;
            };
            let op = OPS[usize::from(p.op) % OPS.len()];
            let _ = writeln!(s, "op = \"{op}\"");
            if let (Some(k), false) = (p.key, op == "scan") {
                let _ = writeln!(s, "key = \"{}\"", key_name(k));
            }
            let reads = matches!(op, "query" | "scan");
            if let (Some(x), true) = (p.index, reads) {
                let n = gsis + lsis;
                if n > 0 {
                    let j = usize::from(x) % n;
                    let name = if j < gsis { format!("G{j}") } else { format!("L{}", j - gsis) };
                    let _ = writeln!(s, "index = \"{name}\"");
                    if let (Some(d), true) = (p.after_write, j < gsis) {
                        let _ = writeln!(s, "after_write = \"{}\"", d.text());
                    }
                }
            }
            match p.sigma {
                Some(sg) => {
                    let _ = writeln!(s, "item_bytes = {{ mean = {}, sigma = {} }}", 1 + p.bytes % 20_000, f64::from(sg % 20) / 10.0);
                }
                None => {
                    let _ = writeln!(s, "item_bytes = {}", 1 + u64::from(p.bytes) * 7 % 409_600);
                }
            }
            let max_items = match op {
                "batch_get" | "transact_get" | "transact_write" => 100,
                "batch_write" => 25,
                "query" | "scan" => 200,
                _ => 1,
            };
            let _ = writeln!(s, "items = {}", 1 + u32::from(p.items) % max_items);
            if matches!(op, "get_item" | "query" | "scan" | "batch_get") {
                let _ = writeln!(s, "consistency = \"{}\"", if p.consistency % 2 == 0 { "eventual" } else { "strong" });
            }
            let rate = match &p.rate {
                Rate::Constant(r) => format!("{{ constant = {} }}", r % 5_000),
                Rate::Diurnal(a, b, h) => {
                    format!("{{ diurnal = {{ min = {}, max = {}, peak = \"{:02}:00\" }} }}", a % 2_000, 2_000 + b % 3_000, h % 24)
                }
                Rate::Spike(base, peak, at, len) => format!(
                    "{{ spike = {{ base = {}, peak = {}, at = \"{}s\", for = \"{}s\" }} }}",
                    base % 2_000,
                    peak % 50_000,
                    u64::from(*at) % secs,
                    1 + len % 300
                ),
                Rate::Ramp(a, b, over, start) => {
                    format!(
                        "{{ ramp = {{ from = {}, to = {}, over = \"{}s\", start = \"{}s\" }} }}",
                        a % 5_000,
                        b % 5_000,
                        1 + over % 600,
                        start % 600
                    )
                }
                Rate::Steps(steps) => {
                    let mut v: Vec<String> = vec![format!("[\"0s\", {}]", steps.first().map_or(10, |x| x.1 % 5_000))];
                    let mut t = 0u64;
                    for (dt, r) in steps.iter().skip(1).take(20) {
                        t += 1 + u64::from(*dt) % 120;
                        v.push(format!("[\"{t}s\", {}]", r % 5_000));
                    }
                    format!("{{ steps = [{}] }}", v.join(", "))
                }
            };
            let _ = writeln!(s, "rate = {rate}");
            if matches!(op, "put_item" | "update_item" | "delete_item" | "batch_write" | "transact_write")
                && gsis > 0
                && !p.index_writes.is_empty()
            {
                let kinds = ["insert", "key_change", "update", "none"];
                let entries: Vec<String> = p
                    .index_writes
                    .iter()
                    .take(gsis)
                    .enumerate()
                    .map(|(g, k)| format!("G{g} = \"{}\"", kinds[usize::from(*k) % 4]))
                    .collect();
                let _ = writeln!(s, "index_writes = {{ {} }}", entries.join(", "));
            }
        }
        let retry = ["none", "sdk-2026", "legacy"][usize::from(self.retry) % 3];
        let _ = writeln!(s, "[client]\nretry = \"{retry}\"\ninstances = {}", 1 + self.instances % 8);
        for at in self.ats.iter().take(4) {
            let t = u64::from(at.time) % secs;
            let action = match &at.action {
                Action::SetCapacity(g, r, w) => match g.filter(|_| gsis > 0) {
                    Some(g) => {
                        format!("index = \"G{}\"\nset_capacity = {{ read = {}, write = {} }}", usize::from(g) % gsis, r.value(), w.value())
                    }
                    None => format!("set_capacity = {{ read = {}, write = {} }}", r.value(), w.value()),
                },
                Action::Prewarm(r, w) => format!("prewarm = {{ read = {}, write = {} }}", r.value(), w.value()),
                Action::OnDemand => "switch_mode = \"on_demand\"".to_string(),
                Action::Provisioned => "switch_mode = \"provisioned\"".to_string(),
                Action::ProvisionedAt(r, w) => {
                    format!("switch_mode = {{ to = \"provisioned\", read = {}, write = {} }}", r.value(), w.value())
                }
                Action::ScaleRate(p, f) => {
                    format!("scale_rate = {{ pattern = \"p{}\", factor = {} }}", usize::from(*p) % patterns, f64::from(*f) / 16.0)
                }
                Action::AddGsi(g) => match gsis {
                    0 => continue,
                    n => format!("add_gsi = \"G{}\"", usize::from(*g) % n),
                },
            };
            let _ = writeln!(s, "[[at]]\ntime = \"{t}s\"\n{action}");
        }
        if let Some((p, steps)) = &self.timeline {
            for (t, f) in steps.iter().take(8) {
                let t = u64::from(*t) % secs;
                let _ = writeln!(
                    s,
                    "[[at]]\ntime = \"{t}s\"\nscale_rate = {{ pattern = \"p{}\", factor = {} }}",
                    usize::from(*p) % patterns,
                    f64::from(*f) / 32.0
                );
            }
        }
        s
    }
}
