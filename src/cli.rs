//! The command line: `ddbsim run`, `ddbsim validate`, `ddbsim schema`.
//!
//! Exit codes: 0 success, 1 bad input (a scenario, an argument, a missing file), 2 a failure
//! while running or writing outputs.

use crate::compare::{compare, CompareOptions};
use crate::cost::Catalog;
use crate::engine::{simulate, RunOptions};
use crate::report::{self, Summary};
use crate::scenario::{self, Fidelity, ScenarioError};
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
    /// Check scenario files and print every problem (exit 1 if any).
    Validate {
        /// Scenario files.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
}

/// `ddbsim run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// Output folder [default: output/<scenario name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Master seed, instead of the scenario's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub fidelity: Option<FidelityArg>,
    /// Simulated duration, instead of the scenario's ("90s", "15m", "24h").
    #[arg(long)]
    pub duration: Option<String>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// A price catalog (TOML) instead of the built-in us-east-1 prices.
    #[arg(long)]
    pub prices: Option<PathBuf>,
}

/// `ddbsim compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// Output folder [default: output/<scenario name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Master seed, instead of the scenario's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub fidelity: Option<FidelityArg>,
    /// Simulated duration, instead of the scenario's.
    #[arg(long)]
    pub duration: Option<String>,
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
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
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
        Command::Validate { scenarios } => validate_cmd(&scenarios),
        Command::Schema => {
            let schema = schemars::schema_for!(scenario::raw::RawScenario);
            let text = serde_json::to_string_pretty(&schema)
                .map_err(|e| CliError::Runtime(e.to_string()))?;
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
            let d =
                parse_duration(d).map_err(|m| CliError::BadInput(format!("--duration: {m}")))?;
            if d.as_secs() == 0 || d.as_micros() % 1_000_000 != 0 {
                return Err(CliError::BadInput(
                    "--duration: a whole number of seconds, at least 1s".into(),
                ));
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
        _ => Err(CliError::BadInput(format!(
            "--max-throttle: \"{s}\" is not a share such as \"0.1%\" or 0.001"
        ))),
    }
}

fn compare_cmd(a: &CompareArgs) -> Result<(), CliError> {
    let sc = load(&a.scenario)?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    if !(20.0..=90.0).contains(&a.target) {
        return Err(CliError::BadInput(format!(
            "--target: between 20 and 90 percent, not {}",
            a.target
        )));
    }
    if a.reserved_term != 1 && a.reserved_term != 3 {
        return Err(CliError::BadInput(format!(
            "--reserved-term: 1 or 3 years, not {}",
            a.reserved_term
        )));
    }
    if !(0.0..=100.0).contains(&a.reserved_percentile) {
        return Err(CliError::BadInput(format!(
            "--reserved-percentile: 0 to 100, not {}",
            a.reserved_percentile
        )));
    }
    let o = CompareOptions {
        seed: a.seed,
        fidelity: fidelity_arg(a.fidelity),
        duration: duration_arg(a.duration.as_ref())?,
        max_throttle: share_arg(&a.max_throttle)?,
        reserved_percentile: a.reserved_percentile,
        reserved_years: a.reserved_term,
        target: a.target / 100.0,
    };
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("output").join(&sc.name));
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let c = compare(&sc, &catalog, &o);
    let mut written = Vec::new();
    for (name, bytes) in [
        ("compare.csv", c.to_csv()),
        ("compare.json", c.to_json().into_bytes()),
    ] {
        let p = out.join(name);
        crate::output::write_atomic(&p, &bytes).map_err(|e| CliError::Runtime(e.to_string()))?;
        written.push(p.display().to_string());
    }
    if !a.quiet {
        print!("{}", c.to_table());
        println!("wrote {}", written.join(", "));
    }
    Ok(())
}

fn run_cmd(a: &RunArgs) -> Result<(), CliError> {
    let sc = load(&a.scenario)?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    let opts = RunOptions {
        seed: a.seed,
        fidelity: fidelity_arg(a.fidelity),
        duration: duration_arg(a.duration.as_ref())?,
        replication: 0,
        record_partitions: true,
    };
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("output").join(&sc.name));
    // Fail on an unwritable folder before spending time on the run.
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let started = Instant::now();
    let result = simulate(&sc, &opts);
    let elapsed = started.elapsed();
    let summary = Summary::new(&sc, &result, &catalog);
    let files =
        report::write_run(&out, &result, &summary).map_err(|e| CliError::Runtime(e.to_string()))?;
    if !a.quiet {
        let mut o = std::io::stdout().lock();
        let _ = write!(o, "{}", summary.to_table());
        let _ = writeln!(
            o,
            "simulated in {:.2} s; wrote {}",
            elapsed.as_secs_f64(),
            files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
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
        Err(CliError::BadInput(format!(
            "{bad} of {} scenario files have problems",
            paths.len()
        )))
    } else {
        Ok(())
    }
}
