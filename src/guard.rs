//! Resource guards: before a command runs, estimate its work and its peak memory, and refuse one
//! that would take too long or too much memory — with the estimate and what to change — instead
//! of an out-of-memory kill.
//!
//! The memory model counts what a run holds, with sizes measured on this build (a test runs a
//! set of scenarios in a subprocess and checks the estimate against the peak RSS the kernel
//! reports, within a factor of 2):
//!
//! * the process: code, the chart font, buffers (a constant);
//! * per partition of every table and GSI, at the most partitions the run can reach (capacity
//!   changes, auto scaling's maximum, on-demand growth, pre-warming, the data written): its
//!   state and buffers, and each pattern's share of it;
//! * per minute and table or GSI: the one-minute record (CloudWatch's series);
//! * per partition and minute, when recorded: a `partitions.csv` row (partitions counted on
//!   average over the run when data grows them);
//! * the busiest second's requests, held while it is replayed one by one;
//! * the scenario's text and rate series (trace files, steps), once and once per sweep point;
//!   or, when more, the tree its text is parsed into before the run (at most 4 MiB of text);
//! * the charts: at most 1,000 time buckets and 1,000 partition rows each;
//! * studies: the runs that run at once (one per thread) and the results kept.

use crate::engine::RunOptions;
use crate::limits::{ITEM_OVERHEAD_BYTES, PARTITION_BYTES, PARTITION_READ_CAP, PARTITION_WRITE_CAP};
use crate::limits::{READ_BLOCK_BYTES, WRITE_BLOCK_BYTES};
use crate::model::request::mean_bytes;
use crate::model::resource::{initial_partitions, Mode};
use crate::scenario::{Action, CapacitySpec, Fidelity, Op, PatternSpec, RateFactors, RateShape, ResourceId, Scenario};

/// Most requests an exact-mode run may simulate (about 52 s at the 58 M requests/s
/// `ddbsim bench` measures on the project's machine for the headline; slower where seconds
/// are replayed request by request).
pub const MAX_EXACT_REQUESTS: f64 = 3e9;
/// Most requests in one simulated second (held in memory when it is replayed one by one).
pub const MAX_REQUESTS_PER_SECOND: f64 = 10e6;
/// Most per-partition minute rows (partitions.csv and the heatmap).
pub const MAX_PARTITION_ROWS: f64 = 20e6;
/// Most partition-seconds a run may close (each second of each partition costs a little).
pub const MAX_PARTITION_SECONDS: f64 = 5e10;
/// Most estimated memory.
pub const MAX_MEMORY_BYTES: f64 = 1_073_741_824.0;

/// The process: code, the font, the allocator's arenas, output buffers (measured: 11 MB for a
/// one-minute run of the smallest scenario).
const PROCESS_BYTES: f64 = 11.0 * 1_048_576.0;
/// One partition's state held at the end of a run: the 120-byte state, its bounds, demand
/// buffers, hot-minute counters and per-pattern weights (measured: 133k partitions add 18 MB,
/// 150 bytes each, with the 96-byte state before its token buckets added 24 bytes).
const PARTITION_STATE_BYTES: f64 = 174.0;
/// One minute of one table or GSI: the record and Vec growth (measured: 256 bytes for the
/// 200-byte record).
const MINUTE_BYTES: f64 = std::mem::size_of::<crate::metrics::MinuteRecord>() as f64 * 1.28;
/// One minute of the latency series (kept once per run).
const LATENCY_MINUTE_BYTES: f64 = 24.0;
/// One `partitions.csv` row held: the row and Vec growth (measured: 32 bytes for 28).
const PARTITION_ROW_BYTES: f64 = std::mem::size_of::<crate::metrics::PartitionMinute>() as f64 * 32.0 / 28.0;
/// One request held in a replayed second: a 64-byte attempt and its batch.
const ATTEMPT_BYTES: f64 = 100.0;
/// A histogram (latency, propagation delay): 33,792 counters.
const HISTOGRAM_BYTES: f64 = 270_336.0;
/// A heatmap cell: its map entry, its SVG rectangle (the chart, the artifact, report.html),
/// its share of the bitmap (measured: 160 to 300 bytes).
const HEAT_CELL_BYTES: f64 = 250.0;
/// The line charts of one table or GSI at 1,000 buckets: their SVG and bitmaps.
const CHARTS_PER_RESOURCE_BYTES: f64 = 2.0 * 1_048_576.0;
/// A scenario kept per sweep point (its text and structures), besides its rate series.
const POINT_BYTES: f64 = 24_000.0;
/// One step of a rate series (a trace line): the (second, rate) pair and Vec growth.
const STEP_BYTES: f64 = 24.0;
/// Parsing a scenario's text, per byte (measured: a 3.9 MB file of inline steps peaks at 174 MB).
const PARSE_BYTES_PER_BYTE: f64 = 45.0;
/// One pattern's weight for one partition.
const WEIGHT_BYTES: f64 = 8.0;
/// An LSI table's item collection written during the run: a map entry (key space and rank,
/// bytes and refused writes: 32 B) and its share of the B-tree's nodes.
const COLLECTION_ENTRY_BYTES: f64 = 48.0;

/// What a run is expected to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Estimate {
    /// Requests (first attempts, fan-out included) at the peak rates for the whole duration:
    /// an upper bound.
    pub requests: f64,
    /// Requests in the busiest second.
    pub peak_requests_per_second: f64,
    /// Partition-minute rows recorded.
    pub partition_rows: f64,
    /// Partition-seconds of work: each partition's second is admitted, and drawn over once
    /// for each pattern on its table or GSI.
    pub partition_seconds: f64,
    /// Most partitions of every table and GSI together.
    pub partitions: f64,
    /// Peak memory of the whole command, bytes.
    pub memory_bytes: f64,
}

/// An option of a command that lowers its work: a refusal names those the command has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    /// `--no-partitions`.
    NoPartitions,
    /// `--duration`.
    Duration,
    /// `--fidelity fast`.
    FidelityFast,
    /// `--replications`.
    Replications,
    /// `--shard I/N`.
    Shard,
}

impl Knob {
    /// `run`'s options.
    pub const RUN: &'static [Knob] = &[Knob::NoPartitions, Knob::Duration, Knob::FidelityFast, Knob::Replications];

    fn advice(self) -> &'static str {
        match self {
            Knob::NoPartitions => "--no-partitions",
            Knob::Duration => "a shorter --duration",
            Knob::FidelityFast => "--fidelity fast",
            Knob::Replications => "fewer --replications",
            Knob::Shard => "--shard I/N",
        }
    }
}

/// The advice of a problem that `helps` lower, in the options the command has.
fn advice(helps: &[Knob], has: &[Knob]) -> String {
    let named: Vec<&str> = helps.iter().filter(|k| has.contains(k)).map(|k| k.advice()).collect();
    match named.as_slice() {
        [] => "shorten the scenario's [scenario] duration".to_string(),
        [one] => format!("use {one}"),
        [rest @ .., last] => format!("use {}, or {last}", rest.join(", ")),
    }
}

/// How many runs a command makes and holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Runs at the same time (one per thread of a study).
    pub concurrent: u64,
    /// Full results kept until the end (the runs of one comparison).
    pub held: u64,
    /// Sweep points prepared.
    pub points: u64,
    /// The run's charts and report are drawn.
    pub charts: bool,
    /// The options of the command that lower its work (a refusal names them).
    pub knobs: &'static [Knob],
}

impl Work {
    /// A single run, with its charts.
    pub const ONE: Work = Work { concurrent: 1, held: 1, points: 0, charts: true, knobs: Knob::RUN };

    /// The same work, for a command whose options are `knobs`.
    #[must_use]
    pub fn with_knobs(self, knobs: &'static [Knob]) -> Self {
        Work { knobs, ..self }
    }

    /// The same work without charts.
    #[must_use]
    pub fn without_charts(self) -> Self {
        Work { charts: false, ..self }
    }

    /// `n` replications of a run, on the study's threads.
    #[must_use]
    pub fn replications(n: u64) -> Self {
        let threads = rayon::current_num_threads() as u64;
        Work { concurrent: n.min(threads).max(1), held: 1, points: 0, charts: true, knobs: Knob::RUN }
    }

    /// `n` replications of a comparison (five runs each, kept until the comparison ends).
    #[must_use]
    pub fn compare(n: u64) -> Self {
        let threads = rayon::current_num_threads() as u64;
        Work { concurrent: n.min(threads).max(1), held: 5, points: 0, charts: false, knobs: Knob::RUN }
    }

    /// A sweep of `points` points, `runs` runs in all.
    #[must_use]
    pub fn sweep(points: u64, runs: u64) -> Self {
        let threads = rayon::current_num_threads() as u64;
        Work { concurrent: runs.min(threads).max(1), held: 1, points, charts: false, knobs: Knob::RUN }
    }
}

/// Partitions of resource `capacity` at the end of the run (partitions never merge): its start
/// doubled until it serves the most capacity it may be given (set_capacity, pre-warm, auto
/// scaling's maximum, a switch) and on-demand growth to twice the peak demand; or, when more,
/// what `data_bytes` of data fill at two-thirds of 10 GB each.
fn end_partitions(capacity: &CapacitySpec, start: u64, max_units: [u64; 2], demand_units: [f64; 2], data_bytes: f64) -> f64 {
    let provisioned = initial_partitions(&Mode::Provisioned { units: max_units }, 0);
    let on_demand = match capacity {
        CapacitySpec::OnDemand { .. } => {
            (2.0 * demand_units[0] / PARTITION_READ_CAP as f64).max(2.0 * demand_units[1] / PARTITION_WRITE_CAP as f64).ceil() as u64
        }
        CapacitySpec::Provisioned { .. } => 0,
    };
    let needed = provisioned.max(on_demand);
    let mut n = start.max(1);
    while n < needed {
        n *= 2;
    }
    (n as f64).max(1.5 * data_bytes / PARTITION_BYTES as f64)
}

/// Estimates one run of `sc` with `opts`.
#[must_use]
pub fn estimate(sc: &Scenario, opts: &RunOptions) -> Estimate {
    estimate_work(sc, opts, Work::ONE)
}

/// Estimates a command that makes `work` runs of `sc` with `opts`.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn estimate_work(sc: &Scenario, opts: &RunOptions, work: Work) -> Estimate {
    let secs = opts.duration.unwrap_or(sc.duration).as_secs() as f64;
    let minutes = (secs / 60.0).ceil().max(1.0);
    // The peak over the whole timeline: the highest `scale_rate` factor in force.
    let factor = |j: usize| RateFactors::of(sc, j).peak(secs as u64);
    let fanout = |p: &PatternSpec| fanout(sc, p);
    let rates: Vec<f64> = sc.patterns.iter().enumerate().map(|(j, p)| p.rate.peak() * factor(j)).collect();
    let peak: f64 = sc.patterns.iter().zip(&rates).map(|(p, r)| r * fanout(p) * p.items.max(1) as f64).sum();
    // Demand in units a second and data written, per resource (table first).
    let (demand, written) = demand(sc, &rates);
    let data = sc.table.storage_bytes as f64 + written * secs;
    // The table and its GSIs, in slot order.
    let ids: Vec<ResourceId> = sc.layout().table_and_gsis().collect();
    let resources = ids.len();
    let max_units = max_units(sc, &ids);
    let start: Vec<u64> = ids
        .iter()
        .map(|&id| initial_partitions(&Mode::of(sc.capacity_of(id)), if id == ResourceId::Table { sc.table.storage_bytes } else { 0 }))
        .collect();
    let end: Vec<f64> = ids
        .iter()
        .enumerate()
        .map(|(r, &id)| {
            let data = if id == ResourceId::Table { data } else { 0.0 };
            end_partitions(sc.capacity_of(id), start[r], max_units[r], demand[r], data)
        })
        .collect();
    // Each replica (global tables) has the table's partitions, about.
    let replicas = sc.replicas.len() as f64;
    let partitions: f64 = end.iter().sum::<f64>() + end[0] * replicas;
    // Rows count partitions on average over the run: between the start and the end.
    let average: f64 =
        start.iter().zip(&end).map(|(&s, e)| (s as f64 + e) / 2.0).sum::<f64>() + (start[0] as f64 + end[0]) / 2.0 * replicas;
    let partition_rows = if opts.record_partitions { average * minutes } else { 0.0 };
    let key_spaces: f64 = sc.key_spaces.iter().map(|k| k.cardinality.min(65_536) as f64 * 24.0).sum();
    // The run's latency, each GSI's propagation, and each pattern's latency.
    let histograms = (2 + 2 * sc.gsis.len() + sc.patterns.len()) as f64 * HISTOGRAM_BYTES;
    // A single-item pattern busy enough (a request a second for every four partitions) is drawn
    // as a count per partition: it keeps its share of every partition of its table or GSI.
    // (Its partitions, and its attempts a second.)
    let weighted: Vec<(f64, f64)> = sc
        .patterns
        .iter()
        .zip(&rates)
        .filter_map(|(p, &rate)| {
            let n = match p.index {
                Some(crate::scenario::IndexRef::Gsi(g)) => end[sc.layout().slot(ResourceId::gsi(g))],
                _ => end[0],
            };
            (p.items <= 1 && 4.0 * rate * fanout(p) >= n).then_some((n, rate * fanout(p)))
        })
        .collect();
    let weights: f64 = weighted.iter().map(|w| w.0).sum::<f64>() * WEIGHT_BYTES;
    // Rate series (traces, steps) are held with the scenario.
    let steps: f64 = sc.patterns.iter().map(|p| if let RateShape::Steps(v) = &p.rate { v.len() as f64 } else { 0.0 }).sum();
    let scenario_bytes = POINT_BYTES + sc.source_text.len() as f64 + steps * STEP_BYTES;
    // Reading the scenario parses its text into a tree first, freed before the run starts.
    let parse = sc.source_text.len() as f64 * PARSE_BYTES_PER_BYTE;
    let collections = collections(sc, &rates, secs);
    // Fast mode's Poisson tables of the patterns with weights: a partition of mean m holds
    // about 17 √m + 16 slots, at most 17 √(n × rate) + 16 n over n partitions (the most when
    // the rate is even), all patterns' at most `TABLE_SLOTS`.
    let table_slots: f64 = if sc.fidelity == crate::scenario::Fidelity::Fast {
        weighted.iter().map(|&(n, rate)| 17.0 * (n * rate).sqrt() + 16.0 * n).sum::<f64>().min(crate::engine::draw::TABLE_SLOTS as f64)
    } else {
        0.0
    };
    let tables = crate::traffic::poisson::PoissonTables::BYTES_PER_SLOT * table_slots;
    let per_run = partitions * PARTITION_STATE_BYTES
        + weights
        + tables
        + key_spaces
        + histograms
        + collections
        + peak.min(MAX_REQUESTS_PER_SECOND) * ATTEMPT_BYTES;
    let records = minutes * ((resources as f64 + replicas) * MINUTE_BYTES + LATENCY_MINUTE_BYTES);
    let rows = partition_rows * PARTITION_ROW_BYTES;
    // Charts: one run's, at most 1,000 x 1,000 cells a heatmap.
    let heat_cells: f64 = if opts.record_partitions { end.iter().map(|p| minutes.min(1_000.0) * p.min(1_000.0)).sum() } else { 0.0 };
    let charts = if work.charts { heat_cells * HEAT_CELL_BYTES + resources as f64 * CHARTS_PER_RESOURCE_BYTES } else { 0.0 };
    // A study keeps every concurrent run's records, the held results', and one run's rows.
    let run = work.concurrent as f64 * per_run
        + (work.concurrent + work.held - 1) as f64 * records
        + rows
        + charts
        + (work.points + 1) as f64 * scenario_bytes;
    let memory_bytes = PROCESS_BYTES + run.max(parse);
    Estimate {
        requests: peak * secs,
        peak_requests_per_second: peak,
        partition_rows,
        partition_seconds: (partitions + weights / WEIGHT_BYTES) * secs,
        partitions,
        memory_bytes,
    }
}

/// A run the guards refuse: what is too large, by how much, and the options. Bad input.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GuardError(pub String);

/// Refuses a single run over the limits, with the estimate and what to change.
///
/// # Errors
/// [`GuardError`]: what is too large, by how much, and the options.
pub fn check(sc: &Scenario, opts: &RunOptions) -> Result<Estimate, GuardError> {
    check_work(sc, opts, Work::ONE)
}

/// Refuses a command of `work` runs over the limits.
///
/// # Errors
/// [`GuardError`]: what is too large, by how much, and the options.
pub fn check_work(sc: &Scenario, opts: &RunOptions, work: Work) -> Result<Estimate, GuardError> {
    let e = estimate_work(sc, opts, work);
    let fidelity = opts.fidelity.unwrap_or(sc.fidelity);
    let mut problems = Vec::new();
    if fidelity == Fidelity::Exact && e.requests > MAX_EXACT_REQUESTS {
        problems.push(format!(
            "exact fidelity would simulate up to {:.2e} requests (limit {:.0e}): {}",
            e.requests,
            MAX_EXACT_REQUESTS,
            advice(&[Knob::FidelityFast, Knob::Duration], work.knobs)
        ));
    }
    if e.peak_requests_per_second > MAX_REQUESTS_PER_SECOND {
        problems.push(format!(
            "the busiest second has up to {:.2e} requests (limit {:.0e}); a second replayed request by request holds them all in memory",
            e.peak_requests_per_second, MAX_REQUESTS_PER_SECOND
        ));
    }
    if e.partition_rows > MAX_PARTITION_ROWS {
        problems.push(format!(
            "{:.2e} partition-minute rows (limit {:.0e}): {}",
            e.partition_rows,
            MAX_PARTITION_ROWS,
            advice(&[Knob::NoPartitions, Knob::Duration], work.knobs)
        ));
    }
    if e.partition_seconds > MAX_PARTITION_SECONDS {
        problems.push(format!(
            "up to {:.0} partitions for {} s, each admitted and drawn over by {} patterns every second, is {:.2e} partition-seconds (limit {:.0e}): {}",
            e.partitions,
            sc.patterns.len(),
            opts.duration.unwrap_or(sc.duration).as_secs(),
            e.partition_seconds,
            MAX_PARTITION_SECONDS,
            advice(&[Knob::Duration], work.knobs)
        ));
    }
    if e.memory_bytes > MAX_MEMORY_BYTES {
        problems.push(format!(
            "an estimated {:.2} GiB of memory (limit 1 GiB): {}",
            e.memory_bytes / MAX_MEMORY_BYTES,
            advice(&[Knob::NoPartitions, Knob::Duration, Knob::Replications, Knob::Shard], work.knobs)
        ));
    }
    if problems.is_empty() {
        Ok(e)
    } else {
        Err(GuardError(format!("{}: refusing to run: {}. Add --force to run anyway.", sc.source_path.display(), problems.join("; "))))
    }
}

/// Requests each request becomes (segments, shards read).
fn fanout(sc: &Scenario, p: &PatternSpec) -> f64 {
    p.fanout(&sc.key_spaces) as f64
}

/// Demand in units a second per resource (table first) at the patterns' peak `rates`, and the
/// bytes a second written.
fn demand(sc: &Scenario, rates: &[f64]) -> (Vec<[f64; 2]>, f64) {
    let layout = sc.layout();
    let mut demand = vec![[0.0f64; 2]; 1 + layout.gsis()];
    let mut written = 0.0;
    for (p, &rate) in sc.patterns.iter().zip(rates) {
        let item = mean_bytes(p.size) as f64;
        let items = p.items.max(1) as f64;
        // A replica's demand is the table's, about.
        let r = match p.index {
            Some(crate::scenario::IndexRef::Gsi(g)) => layout.slot(ResourceId::gsi(g)),
            _ => layout.slot(ResourceId::Table),
        };
        if p.op.is_write() {
            demand[r][1] += rate * items * (item / WRITE_BLOCK_BYTES as f64).ceil().max(1.0);
            for &(g, _) in &p.index_writes {
                demand[layout.slot(ResourceId::gsi(g))][1] += rate * items * 2.0;
            }
            if matches!(p.op, Op::PutItem | Op::BatchWrite | Op::TransactWrite) {
                written += rate * items * (item + ITEM_OVERHEAD_BYTES as f64);
            }
        } else {
            demand[r][0] += rate * fanout(sc, p) * (items * item / READ_BLOCK_BYTES as f64).ceil().max(1.0);
        }
    }
    (demand, written)
}

/// The most capacity each resource may be given during the run: its capacity, its auto-scaling
/// maximum, and every action's.
fn max_units(sc: &Scenario, ids: &[ResourceId]) -> Vec<[u64; 2]> {
    let layout = sc.layout();
    let mut max_units = vec![[0u64; 2]; ids.len()];
    for (r, &id) in ids.iter().enumerate() {
        max_units[r] = match sc.capacity_of(id) {
            CapacitySpec::Provisioned { read, write } => [*read, *write],
            CapacitySpec::OnDemand { warm_read, warm_write, .. } => [*warm_read, *warm_write],
        };
        if let Some(a) = sc.autoscaling_of(id) {
            for (d, t) in [a.read, a.write].into_iter().enumerate() {
                if let Some(t) = t {
                    max_units[r][d] = max_units[r][d].max(t.max);
                }
            }
        }
    }
    for a in &sc.actions {
        if let Action::SetCapacity { index, read, write } | Action::Prewarm { index, read, write } = a.action {
            let r = layout.slot(ResourceId::table_or_gsi(index));
            max_units[r] = [max_units[r][0].max(read.unwrap_or(0)), max_units[r][1].max(write.unwrap_or(0))];
        }
        if let Action::SwitchMode { units: Some(u), .. } = a.action {
            max_units[0] = [max_units[0][0].max(u[0]), max_units[0][1].max(u[1])];
        }
        if let Action::SetAutoscaling { index, changes } = a.action {
            let r = layout.slot(ResourceId::table_or_gsi(index));
            for (d, c) in changes.iter().enumerate() {
                if let Some(c) = c {
                    max_units[r][d] = max_units[r][d].max(c.min.unwrap_or(0)).max(c.max.unwrap_or(0));
                }
            }
        }
    }
    max_units
}

/// With an LSI, every partition-key value written is tracked (at most the key space's values,
/// at most one per write), unless no collection can reach the reported 1 GB in the run (the
/// engine's bound: then none is tracked).
fn collections(sc: &Scenario, rates: &[f64], secs: f64) -> f64 {
    let tracked = (0..sc.key_spaces.len()).any(|ks| {
        let dist = crate::traffic::keys::KeyDist::new(&sc.key_spaces[ks], sc.start_unix_s);
        crate::model::request::collection_bound(sc, ks, &dist, secs as u64) >= crate::model::indexes::REPORTED_COLLECTION_BYTES as f64
    });
    if sc.lsis.is_empty() || !tracked {
        0.0
    } else {
        let writes: f64 =
            sc.patterns.iter().zip(rates).filter(|(p, _)| p.op.is_write()).map(|(p, r)| r * p.items.max(1) as f64).sum::<f64>() * secs;
        let values =
            sc.key_spaces.get(sc.table.partition_key).map_or(1.0, |k| k.cardinality as f64 * k.shards.map_or(1.0, |s| s.count as f64));
        writes.min(values) * COLLECTION_ENTRY_BYTES
    }
}
