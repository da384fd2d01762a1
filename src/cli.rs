//! The command line: `ddbsim run`, `ddbsim validate`, `ddbsim schema`.
//!
//! Exit codes: 0 success, 1 bad input (a scenario, an argument, a missing file), 2 a failure
//! while running or writing outputs.

use crate::compare::{compare, CompareOptions};
use crate::cost::Catalog;
use crate::engine::RunOptions;
use crate::report::{self, Summary};
use crate::scenario::{self, Fidelity, ScenarioError};
use crate::sweep;
use crate::time::parse_duration;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// A discrete-event capacity and cost simulator for Amazon DynamoDB.
#[derive(Debug, Parser)]
#[command(name = "ddbsim", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate a scenario and write summary.json, timeseries.csv and partitions.csv.
    Run(RunArgs),
    /// Run the scenario's traffic under every capacity mode and compare cost and throttling.
    Compare(CompareArgs),
    /// Sweep scenario keys over values (Cartesian product), with replications per point.
    Sweep(SweepArgs),
    /// Combine the outputs of a sharded sweep (`--shard I/N`) into the files one run writes.
    Merge {
        /// Output folders of the shares.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Where to write the merged files [default: the first folder's parent / merged].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Explore write sharding of a key: shard counts 1, 2, 4, ... with replications.
    Shards(ShardsArgs),
    /// Redraw the charts and report.html of an earlier run from the files in its folder.
    Plot {
        /// The output folder of `ddbsim run`.
        dir: PathBuf,
    },
    /// Time the headline scenario (24 h x 50,000 req/s x 1,000 partitions) in both fidelities.
    Bench {
        /// Simulated duration of the fast-mode run.
        #[arg(long, default_value = "24h")]
        fast: String,
        /// Simulated duration of the exact-mode run (the 24-hour figure scales linearly).
        #[arg(long, default_value = "10m")]
        exact: String,
    },
    /// Check scenario files and print every problem (exit 1 if any).
    Validate {
        /// Scenario files.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
}

/// Arguments every simulating command takes.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// Output folder [default: output/<scenario name>, with /sweep or /shards for those commands].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Master seed, instead of the scenario's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated duration, instead of the scenario's ("90s", "15m", "24h").
    #[arg(long)]
    pub duration: Option<String>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `ddbsim run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub common: Common,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub fidelity: Option<FidelityArg>,
    /// A price catalog (TOML) instead of the built-in us-east-1 prices.
    #[arg(long)]
    pub prices: Option<PathBuf>,
    /// Skip the charts and report.html.
    #[arg(long)]
    pub no_charts: bool,
    /// Do not record per-partition minutes (no partitions.csv rows, no heatmap).
    #[arg(long)]
    pub no_partitions: bool,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub force: bool,
    /// Independent replications from the master seed (key placement, traffic and jitter all
    /// vary); the outputs are replication 0's, plus replications.csv and replications.json.
    #[arg(long, default_value_t = 1)]
    pub replications: u64,
}

/// `ddbsim sweep`.
#[derive(Debug, clap::Args)]
pub struct SweepArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub common: Common,
    /// PATH=VALUES: a dotted key path (array entries by name: pattern.feed.rate.constant) and
    /// values "1,2,4", "50..90:10" or "100..5000:x2". Several make a Cartesian product.
    #[arg(long = "set", required = true)]
    pub sets: Vec<String>,
    /// Replications per point.
    #[arg(long, default_value_t = 1)]
    pub replications: u64,
    /// Run only share I of N of the points (1-based), e.g. 2/4; combine with `ddbsim merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub fidelity: Option<FidelityArg>,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub force: bool,
}

/// `ddbsim shards`.
#[derive(Debug, clap::Args)]
pub struct ShardsArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub common: Common,
    /// The key space to shard.
    #[arg(long)]
    pub key: String,
    /// Largest shard count (counts double from 1).
    #[arg(long, default_value_t = 64)]
    pub max: u64,
    /// Suffix: "random" (reads query every shard) or "hash" (a point read hits one).
    #[arg(long, default_value = "random")]
    pub by: String,
    /// Replications per count (placement of shards on partitions varies).
    #[arg(long, default_value_t = 10)]
    pub replications: u64,
    /// Percentile of the throttled share to judge: 50, 95 or 99.
    #[arg(long, default_value_t = 95.0)]
    pub percentile: f64,
    /// Largest throttled share accepted, e.g. "0.1%".
    #[arg(long, default_value = "0.1%")]
    pub max_throttle: String,
}

/// `ddbsim compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub common: Common,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub fidelity: Option<FidelityArg>,
    /// Largest share of throttled attempts the picked mode may have, e.g. "0.1%".
    #[arg(long, default_value = "0.1%")]
    pub max_throttle: String,
    /// Percentile of the auto-scaled capacity series that reserved capacity covers.
    #[arg(long, default_value_t = 10.0)]
    pub reserved_percentile: f64,
    /// Reserved-capacity term in years: 1 or 3.
    #[arg(long, default_value_t = 1)]
    pub reserved_term: u32,
    /// Target utilization (percent) for fixed and auto-scaled provisioned capacity.
    #[arg(long, default_value_t = 70.0)]
    pub target: f64,
    /// A price catalog (TOML) instead of the built-in us-east-1 prices.
    #[arg(long)]
    pub prices: Option<PathBuf>,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub force: bool,
    /// Independent replications; adds compare-replications.json with statistics per mode.
    #[arg(long, default_value_t = 1)]
    pub replications: u64,
}

/// `--fidelity`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FidelityArg {
    /// Hybrid: bulk seconds that surely fit, replay the others request by request.
    Fast,
    /// Every request is an event.
    Exact,
}

/// A failed command: bad input (exit 1) or a failure while running (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input is wrong: fix it and run again.
    #[error("{0}")]
    BadInput(String),
    /// Running or writing failed.
    #[error("{0}")]
    Runtime(String),
}

impl CliError {
    /// The process exit code.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::BadInput(_) => 1,
            CliError::Runtime(_) => 2,
        }
    }
}

/// Parses `std::env::args`, runs, prints errors; returns the exit code.
#[must_use]
pub fn main() -> i32 {
    // Ctrl-C asks runs to stop at their next simulated minute; nothing is written then.
    let _ = ctrlc::set_handler(|| crate::engine::INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// [`CliError`] with the message to print.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Run(a) => run_cmd(&a),
        Command::Compare(a) => compare_cmd(&a),
        Command::Sweep(a) => sweep_cmd(&a),
        Command::Merge { dirs, out } => merge_cmd(&dirs, out.as_ref()),
        Command::Shards(a) => shards_cmd(&a),
        Command::Bench { fast, exact } => bench_cmd(&fast, &exact),
        Command::Plot { dir } => {
            let files = report::replot(&dir).map_err(report_err)?;
            println!("wrote {}", files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
            Ok(())
        }
        Command::Validate { scenarios } => validate_cmd(&scenarios),
        Command::Schema => {
            let schema = schemars::schema_for!(scenario::raw::RawScenario);
            let text = serde_json::to_string_pretty(&schema).map_err(|e| CliError::Runtime(e.to_string()))?;
            println!("{text}");
            Ok(())
        }
    }
}

fn load(path: &std::path::Path) -> Result<scenario::Scenario, CliError> {
    scenario::load(path).map_err(|e| match e {
        ScenarioError::Io { .. } => CliError::BadInput(e.to_string()),
        ScenarioError::Invalid { .. } => CliError::BadInput(format!("invalid scenario\n{e}")),
    })
}

fn duration_arg(d: Option<&String>) -> Result<Option<crate::time::SimDuration>, CliError> {
    match d {
        None => Ok(None),
        Some(d) => {
            let d = parse_duration(d).map_err(|m| CliError::BadInput(format!("--duration: {m}")))?;
            if d.as_secs() == 0 || d.as_micros() % 1_000_000 != 0 {
                return Err(CliError::BadInput("--duration: a whole number of seconds, at least 1s".into()));
            }
            Ok(Some(d))
        }
    }
}

fn fidelity_arg(f: Option<FidelityArg>) -> Option<Fidelity> {
    f.map(|f| match f {
        FidelityArg::Fast => Fidelity::Fast,
        FidelityArg::Exact => Fidelity::Exact,
    })
}

fn catalog_arg(p: Option<&PathBuf>, sc: &scenario::Scenario) -> Result<Catalog, CliError> {
    let c = match p {
        Some(p) => Catalog::load(p).map_err(|e| CliError::BadInput(e.to_string()))?,
        None => Catalog::builtin(),
    };
    if c.region != sc.pricing.region {
        return Err(CliError::BadInput(format!(
            "{}: the scenario prices region \"{}\" but the catalog is for \"{}\"",
            sc.source_path.display(),
            sc.pricing.region,
            c.region
        )));
    }
    Ok(c)
}

/// Parses a share such as "0.1%" or "0.001".
fn share_arg(s: &str) -> Result<f64, CliError> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(CliError::BadInput(format!("--max-throttle: \"{s}\" is not a share such as \"0.1%\" or 0.001"))),
    }
}

fn compare_cmd(a: &CompareArgs) -> Result<(), CliError> {
    let sc = load(&a.common.scenario)?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    if !(20.0..=90.0).contains(&a.target) {
        return Err(CliError::BadInput(format!("--target: between 20 and 90 percent, not {}", a.target)));
    }
    if a.reserved_term != 1 && a.reserved_term != 3 {
        return Err(CliError::BadInput(format!("--reserved-term: 1 or 3 years, not {}", a.reserved_term)));
    }
    if !(0.0..=100.0).contains(&a.reserved_percentile) {
        return Err(CliError::BadInput(format!("--reserved-percentile: 0 to 100, not {}", a.reserved_percentile)));
    }
    let o = CompareOptions {
        seed: a.common.seed,
        fidelity: fidelity_arg(a.fidelity),
        duration: duration_arg(a.common.duration.as_ref())?,
        max_throttle: share_arg(&a.max_throttle)?,
        reserved_percentile: a.reserved_percentile,
        reserved_years: a.reserved_term,
        target: a.target / 100.0,
        replication: 0,
    };
    if !a.force {
        crate::guard::check(&sc, &RunOptions { fidelity: o.fidelity, duration: o.duration, ..RunOptions::default() })
            .map_err(CliError::BadInput)?;
    }
    let out = a.common.out.clone().unwrap_or_else(|| PathBuf::from("output").join(&sc.name));
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let reps = replications_arg(a.replications)?;
    let cs: Vec<crate::compare::Comparison> =
        crate::runner::par_indexed(reps, |rep| compare(&sc, &catalog, &CompareOptions { replication: rep, ..o.clone() }));
    stop_if_interrupted()?;
    let c = &cs[0];
    let bars = c.cost_bars();
    let (svg, png) = crate::draw_chart!(crate::report::plot::PANEL_HEIGHT + 200, "cost", |root| crate::report::plot::cost(root, &bars))
        .map_err(|e| CliError::Runtime(e.to_string()))?;
    let mut files =
        vec![("compare.csv", c.to_csv()), ("compare.json", c.to_json().into_bytes()), ("cost.svg", svg.into_bytes()), ("cost.png", png)];
    let replicated = (reps > 1).then(|| crate::compare::ReplicatedComparison::of(&cs));
    if let Some(rc) = &replicated {
        let json = serde_json::to_string_pretty(rc).map_err(|e| CliError::Runtime(e.to_string()))? + "\n";
        files.push(("compare-replications.json", json.into_bytes()));
    }
    let written = write_files(&out, files)?;
    if !a.common.quiet {
        print!("{}", c.to_table());
        if let Some(rc) = &replicated {
            print!("{}", rc.to_table());
        }
        println!("wrote {}", written.join(", "));
    }
    Ok(())
}

fn bench_cmd(fast: &str, exact: &str) -> Result<(), CliError> {
    let sc = scenario::parse_str(include_str!("../scenarios/headline.toml"), std::path::Path::new("scenarios/headline.toml"))
        .map_err(|e| CliError::Runtime(e.to_string()))?;
    println!("headline scenario: 50,000 requests/s, 1,000 partitions, Zipf keys; release build recommended (cargo run --release -- bench)");
    for (label, fidelity, d, target) in [
        ("fast", Fidelity::Fast, fast, "target: 24 h in <= 10 s on 1 core"),
        ("exact", Fidelity::Exact, exact, "target: >= 50 M requests/s per core"),
    ] {
        let dur = duration_arg(Some(&d.to_string()))?.unwrap_or(sc.duration);
        let started = Instant::now();
        let r = crate::engine::simulate(&sc, &RunOptions { fidelity: Some(fidelity), duration: Some(dur), ..RunOptions::default() });
        let secs = started.elapsed().as_secs_f64();
        stop_if_interrupted()?;
        let reqs: u64 = r.rec.patterns.iter().map(|p| p.attempts).sum();
        println!(
            "{label:>5}: {} simulated in {secs:.2} s: {:.1} M requests, {:.1} M requests/s ({target})",
            dur,
            reqs as f64 / 1e6,
            reqs as f64 / secs / 1e6
        );
    }
    Ok(())
}

fn stop_if_interrupted() -> Result<(), CliError> {
    if crate::engine::interrupted() {
        Err(CliError::Runtime("interrupted (Ctrl-C): the run was stopped and nothing was written".into()))
    } else {
        Ok(())
    }
}

fn report_err(e: report::ReportError) -> CliError {
    match e {
        report::ReportError::Input(m) => CliError::BadInput(m),
        other => CliError::Runtime(other.to_string()),
    }
}

fn write_files(out: &std::path::Path, files: Vec<(&str, Vec<u8>)>) -> Result<Vec<String>, CliError> {
    crate::output::prepare_dir(out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let mut written = Vec::new();
    for (name, bytes) in files {
        let p = out.join(name);
        crate::output::write_atomic(&p, &bytes).map_err(|e| CliError::Runtime(e.to_string()))?;
        written.push(p.display().to_string());
    }
    Ok(written)
}

fn replications_arg(n: u64) -> Result<u64, CliError> {
    if n == 0 || n > 100_000 {
        return Err(CliError::BadInput(format!("--replications: 1 to 100000, not {n}")));
    }
    Ok(n)
}

fn sweep_cmd(a: &SweepArgs) -> Result<(), CliError> {
    let sc = load(&a.common.scenario)?;
    let text =
        std::fs::read_to_string(&a.common.scenario).map_err(|e| CliError::BadInput(format!("{}: {e}", a.common.scenario.display())))?;
    let sets = a.sets.iter().map(|s| sweep::parse_set(s)).collect::<Result<Vec<_>, _>>().map_err(|e| CliError::BadInput(e.0))?;
    let shard = a.shard.as_deref().map(sweep::parse_shard).transpose().map_err(|e| CliError::BadInput(e.0))?;
    let reps = replications_arg(a.replications)?;
    let prepared = sweep::prepare(&text, &a.common.scenario, &sets).map_err(|e| CliError::BadInput(e.0))?;
    let base = RunOptions {
        seed: a.common.seed,
        fidelity: fidelity_arg(a.fidelity),
        duration: duration_arg(a.common.duration.as_ref())?,
        ..RunOptions::default()
    };
    if !a.force {
        for point in &prepared.scenarios {
            crate::guard::check(point, &base).map_err(CliError::BadInput)?;
        }
    }
    let out = a.common.out.clone().unwrap_or_else(|| PathBuf::from("output").join(&sc.name).join("sweep"));
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let result = sweep::run(
        &prepared,
        &sc.name,
        a.common.seed.unwrap_or(sc.seed),
        reps,
        shard,
        &base,
        &Catalog::builtin().with_overrides(&sc.pricing.overrides),
        a.common.quiet,
    );
    stop_if_interrupted()?;
    let lines = result.chart_lines();
    let x = sets.first().map_or("point", |s| s.0.as_str());
    let (svg, png) = crate::draw_chart!(crate::report::plot::PANEL_HEIGHT + 200, "sweep", |root| crate::report::plot::sweep(
        root,
        x,
        "throttled % of attempts",
        &lines
    ))
    .map_err(|e| CliError::Runtime(e.to_string()))?;
    let written = write_files(
        &out,
        vec![
            ("sweep.csv", result.to_csv()),
            ("sweep.json", result.to_json().into_bytes()),
            ("sweep.svg", svg.into_bytes()),
            ("sweep.png", png),
        ],
    )?;
    if !a.common.quiet {
        print!("{}", result.to_table());
        println!("wrote {}", written.join(", "));
    }
    Ok(())
}

fn merge_cmd(dirs: &[PathBuf], out: Option<&PathBuf>) -> Result<(), CliError> {
    let mut parts = Vec::new();
    for d in dirs {
        let p = d.join("sweep.json");
        let text = std::fs::read_to_string(&p).map_err(|e| CliError::BadInput(format!("{}: {e}", p.display())))?;
        let part: sweep::SweepOutput =
            serde_json::from_str(&text).map_err(|e| CliError::BadInput(format!("{}: not a sweep.json of ddbsim: {e}", p.display())))?;
        parts.push(part);
    }
    let merged = sweep::merge(parts).map_err(|e| CliError::BadInput(e.0))?;
    let out = out.cloned().unwrap_or_else(|| dirs[0].parent().unwrap_or(std::path::Path::new(".")).join("merged"));
    let written = write_files(&out, vec![("sweep.csv", merged.to_csv()), ("sweep.json", merged.to_json().into_bytes())])?;
    println!("merged {} points of {}; wrote {}", merged.points.len(), merged.total_points, written.join(", "));
    Ok(())
}

fn shards_cmd(a: &ShardsArgs) -> Result<(), CliError> {
    let sc = load(&a.common.scenario)?;
    let Some(ks) = sc.key_spaces.iter().position(|k| k.name == a.key) else {
        return Err(CliError::BadInput(format!("--key {}: no key space of that name in {}", a.key, a.common.scenario.display())));
    };
    if a.by != "random" && a.by != "hash" {
        return Err(CliError::BadInput(format!("--by: \"random\" or \"hash\", not \"{}\"", a.by)));
    }
    if a.max == 0 || a.max > 10_000 {
        return Err(CliError::BadInput(format!("--max: 1 to 10000, not {}", a.max)));
    }
    if ![50.0, 95.0, 99.0].contains(&a.percentile) {
        return Err(CliError::BadInput(format!("--percentile: 50, 95 or 99, not {}", a.percentile)));
    }
    let reps = replications_arg(a.replications)?;
    let max_throttle = share_arg(&a.max_throttle)?;
    let text =
        std::fs::read_to_string(&a.common.scenario).map_err(|e| CliError::BadInput(format!("{}: {e}", a.common.scenario.display())))?;
    let counts = sweep::shard_counts(a.max);
    let sets = vec![
        (format!("keys.{}.shards.count", a.key), counts.iter().map(|&c| toml::Value::Integer(c as i64)).collect()),
        (format!("keys.{}.shards.by", a.key), vec![toml::Value::String(a.by.clone())]),
    ];
    let prepared = sweep::prepare(&text, &a.common.scenario, &sets).map_err(|e| CliError::BadInput(e.0))?;
    let base = RunOptions { seed: a.common.seed, duration: duration_arg(a.common.duration.as_ref())?, ..RunOptions::default() };
    let out = a.common.out.clone().unwrap_or_else(|| PathBuf::from("output").join(&sc.name).join("shards"));
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let result = sweep::run(
        &prepared,
        &sc.name,
        a.common.seed.unwrap_or(sc.seed),
        reps,
        None,
        &base,
        &Catalog::builtin().with_overrides(&sc.pricing.overrides),
        a.common.quiet,
    );
    let reads_fan_out =
        sc.patterns.iter().any(|p| p.key_space == Some(ks) && matches!(p.op, crate::scenario::Op::GetItem | crate::scenario::Op::Query));
    let rows: Vec<sweep::ShardRow> = result
        .points
        .iter()
        .zip(&counts)
        .map(|(p, &count)| sweep::ShardRow {
            count,
            throttled_share: p.stats.throttled_share.clone(),
            read_fan_out: if a.by == "random" && reads_fan_out { count } else { 1 },
            read_units_per_s: p.runs.iter().map(|h| h.read_units_per_s).sum::<f64>() / p.runs.len() as f64,
            monthly_usd: p.stats.monthly_usd.mean,
        })
        .collect();
    let recommended = sweep::recommend(&rows, a.percentile, max_throttle);
    let so = sweep::ShardsOutput {
        scenario: sc.name.clone(),
        key: a.key.clone(),
        by: a.by.clone(),
        replications: reps,
        percentile: a.percentile,
        max_throttle,
        rows,
        recommended,
    };
    let (svg, png) = so.chart().map_err(|e| CliError::Runtime(e.to_string()))?;
    let written = write_files(
        &out,
        vec![
            ("shards.csv", so.to_csv()),
            ("shards.json", so.to_json().into_bytes()),
            ("shards.svg", svg.into_bytes()),
            ("shards.png", png),
        ],
    )?;
    if !a.common.quiet {
        print!("{}", so.to_table());
        println!("wrote {}", written.join(", "));
    }
    Ok(())
}

fn run_cmd(a: &RunArgs) -> Result<(), CliError> {
    let sc = load(&a.common.scenario)?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    let opts = RunOptions {
        seed: a.common.seed,
        fidelity: fidelity_arg(a.fidelity),
        duration: duration_arg(a.common.duration.as_ref())?,
        replication: 0,
        record_partitions: !a.no_partitions,
        progress: None,
    };
    if !a.force {
        crate::guard::check(&sc, &opts).map_err(CliError::BadInput)?;
    }
    let out = a.common.out.clone().unwrap_or_else(|| PathBuf::from("output").join(&sc.name));
    // Fail on an unwritable folder before spending time on the run.
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let reps = replications_arg(a.replications)?;
    let started = Instant::now();
    let (result, headlines) = if reps > 1 {
        let (r, hs) = crate::runner::replicate(&sc, reps, &opts, &catalog, a.common.quiet);
        (r, Some(hs))
    } else {
        (crate::runner::simulate_with_progress(&sc, &opts, a.common.quiet), None)
    };
    let elapsed = started.elapsed();
    stop_if_interrupted()?;
    let summary = Summary::new(&sc, &result, &catalog);
    let mut files = report::write_run(&out, &result, &summary).map_err(|e| CliError::Runtime(e.to_string()))?;
    if !a.no_charts {
        let value = serde_json::to_value(&summary).map_err(|e| CliError::Runtime(e.to_string()))?;
        let charts =
            report::write_charts(&out, &report::tables::timeseries_rows(&result), &report::tables::partition_rows(&result), &value)
                .map_err(report_err)?;
        files.extend(charts);
    }
    if let Some(hs) = &headlines {
        let stats = crate::runner::HeadlineStats::of(hs);
        let json = serde_json::to_string_pretty(&serde_json::json!({ "replications": hs.len(), "stats": stats, "runs": hs }))
            .map_err(|e| CliError::Runtime(e.to_string()))?
            + "\n";
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        for (i, h) in hs.iter().enumerate() {
            w.serialize((i, h)).map_err(|e| CliError::Runtime(e.to_string()))?;
        }
        let csv_bytes = w.into_inner().map_err(|e| CliError::Runtime(e.to_string()))?;
        let mut csv_text =
            b"replication,offered,throttled_share,failed_share,failed,monthly_usd,p99_latency_ms,read_units_per_s,read_attempts\n".to_vec();
        csv_text.extend(csv_bytes);
        for (name, bytes) in [("replications.json", json.into_bytes()), ("replications.csv", csv_text)] {
            let p = out.join(name);
            crate::output::write_atomic(&p, &bytes).map_err(|e| CliError::Runtime(e.to_string()))?;
            files.push(p);
        }
        if !a.common.quiet {
            let t = &stats.throttled_share;
            println!(
                "{} replications: throttled share mean {:.4}% (95% CI {:.4}–{:.4}%), P50 {:.4}%, P95 {:.4}%, P99 {:.4}%; failed mean {:.1}; ${:.2}/month; p99 latency {:.1} ms",
                hs.len(),
                t.mean * 100.0,
                t.ci95_low * 100.0,
                t.ci95_high * 100.0,
                t.p50 * 100.0,
                t.p95 * 100.0,
                t.p99 * 100.0,
                stats.failed.mean,
                stats.monthly_usd.mean,
                stats.p99_latency_ms.mean
            );
        }
    }
    if !a.common.quiet {
        let mut o = std::io::stdout().lock();
        let _ = write!(o, "{}", summary.to_table());
        let _ = writeln!(
            o,
            "simulated in {:.2} s; wrote {}",
            elapsed.as_secs_f64(),
            files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

fn validate_cmd(paths: &[PathBuf]) -> Result<(), CliError> {
    let mut bad = 0;
    for p in paths {
        match scenario::load(p) {
            Ok(sc) => println!(
                "{}: ok ({} patterns, {} key spaces, {} GSIs, {} LSIs)",
                p.display(),
                sc.patterns.len(),
                sc.key_spaces.len(),
                sc.gsis.len(),
                sc.lsis.len()
            ),
            Err(e) => {
                bad += 1;
                eprintln!("{e}");
            }
        }
    }
    if bad > 0 {
        Err(CliError::BadInput(format!("{bad} of {} scenario files have problems", paths.len())))
    } else {
        Ok(())
    }
}
