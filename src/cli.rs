//! The command line: `ddbsim run`, `ddbsim validate`, `ddbsim schema`.
//!
//! Exit codes: 0 success, 1 bad input (a scenario, an argument, a missing file), 2 a failure
//! while running or writing outputs.

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

fn run_cmd(a: &RunArgs) -> Result<(), CliError> {
    let sc = load(&a.scenario)?;
    let duration = match &a.duration {
        None => None,
        Some(d) => {
            let d = parse_duration(d).map_err(|m| CliError::BadInput(format!("--duration: {m}")))?;
            if d.as_secs() == 0 || d.as_micros() % 1_000_000 != 0 {
                return Err(CliError::BadInput("--duration: a whole number of seconds, at least 1s".into()));
            }
            Some(d)
        }
    };
    let opts = RunOptions {
        seed: a.seed,
        fidelity: a.fidelity.map(|f| match f {
            FidelityArg::Fast => Fidelity::Fast,
            FidelityArg::Exact => Fidelity::Exact,
        }),
        duration,
        replication: 0,
        record_partitions: true,
    };
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("output").join(&sc.name));
    // Fail on an unwritable folder before spending time on the run.
    crate::output::prepare_dir(&out).map_err(|e| CliError::Runtime(e.to_string()))?;
    let started = Instant::now();
    let result = simulate(&sc, &opts);
    let elapsed = started.elapsed();
    let files = report::write_run(&out, &sc, &result).map_err(|e| CliError::Runtime(e.to_string()))?;
    if !a.quiet {
        let summary = Summary::new(&sc, &result);
        let mut o = std::io::stdout().lock();
        let _ = write!(o, "{}", summary.to_table());
        let _ = writeln!(o, "simulated in {:.2} s; wrote {}", elapsed.as_secs_f64(), files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
    }
    Ok(())
}

fn validate_cmd(paths: &[PathBuf]) -> Result<(), CliError> {
    let mut bad = 0;
    for p in paths {
        match scenario::load(p) {
            Ok(sc) => println!("{}: ok ({} patterns, {} key spaces, {} GSIs, {} LSIs)", p.display(), sc.patterns.len(), sc.key_spaces.len(), sc.gsis.len(), sc.lsis.len()),
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
