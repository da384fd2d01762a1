//! The command line's arguments (clap derive) and their conversion into library options.
//! clap types stop here: the library never sees them.

use super::CliError;
use crate::scenario::{Fidelity, Scenario};
use crate::time::{parse_duration, SimDuration};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

mod history;
mod prices;
mod shard;
pub(crate) use history::{BacktestArgs, DiffArgs};
pub(crate) use prices::{catalog_arg, PricesAction};
pub(crate) use shard::shard_flag;

/// A discrete-event capacity and cost simulator for Amazon DynamoDB.
#[derive(Debug, Parser)]
#[command(name = "ddbsim", version, about, long_about = None)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Colour the verdict: "auto" (when stdout is a terminal and NO_COLOR is unset or empty),
    /// "always" or "never".
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// Worker threads for replications, sweeps and studies [default: RAYON_NUM_THREADS, else
    /// one per core]; results are the same whatever the count.
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) threads: Option<u16>,
}

/// When to colour output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// When stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always, even into a file or pipe (and whatever `NO_COLOR` says).
    Always,
    /// Never.
    Never,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
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
        /// Merge even when points are missing (the result says it is partial).
        #[arg(long)]
        allow_partial: bool,
        /// Print the merged sweep.json (or recommend-tables.json) on stdout, nothing else.
        #[arg(long)]
        json: bool,
    },
    /// Explore write sharding of a key: shard counts 1, 2, 4, ... with replications.
    Shards(ShardsArgs),
    /// Redraw the charts and report.html of an earlier run from the files in its folder.
    Plot {
        /// The output folder of `ddbsim run`.
        dir: PathBuf,
        /// Print `{"dir", "written"}` (the files redrawn) on stdout, nothing else.
        #[arg(long)]
        json: bool,
    },
    /// Time the headline scenario (50,000 req/s, Zipf keys, 1,000 partitions) in both
    /// fidelities, exact mode against the partition count, the 24 h run's peak memory with
    /// its outputs, and, given the SimPy model, exact mode against SimPy: the performance
    /// table of the README.
    Bench(BenchArgs),
    /// Check scenario files and print every problem (exit 1 if any).
    Validate {
        /// Scenario files.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        /// Read `rate = { trace = ... }` files outside the scenarios' folders.
        #[arg(long)]
        allow_outside: bool,
        /// Print `{"files": [{"path", "valid", "problems": [...]}]}` on stdout instead of text.
        #[arg(long)]
        json: bool,
        /// The price catalog (or folder of them) the scenarios will be run with: each must
        /// price everything its scenario bills [default: the region's built-in one].
        #[arg(long)]
        prices: Option<PathBuf>,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
    /// Print an item's size by DynamoDB's rules (a DynamoDB JSON file, or get-item's output),
    /// its read and write units, and each index entry's bytes and write units.
    Size(SizeArgs),
    /// Search capacity settings (on-demand, fixed, auto scaling, reserved) for the cheapest
    /// within a throttle limit, on the scenario's traffic.
    Recommend(RecommendArgs),
    /// Load-test a design before launch (steady peak, 2x burst, 4-hour soak, partition spread)
    /// and review it against the design guides' pitfalls; exit 3 when it fails.
    Check(CheckArgs),
    /// Compare a scenario's simulation with the table's own CloudWatch history, minute by
    /// minute, and (`--calibrate`) fit the partition key's skew to its throttle events.
    Backtest(BacktestArgs),
    /// Simulate two designs (BASE and HEAD) on one seed and print what the change does to the
    /// bill, throttling, failed requests, partitions and the busiest key: cheaper or dearer,
    /// and whether the design still holds (`--markdown` for a pull-request comment).
    Diff(DiffArgs),
    /// Write a scenario from a table's definition (describe-table, CloudFormation/CDK,
    /// terraform show -json, Application Auto Scaling) and its CloudWatch history.
    Import {
        /// Definition files (and metric files, recognised by their content); or, fetched live
        /// with the AWS CLI, `aws:NAME` (a table), `'aws:*'` (every table of the Region) or
        /// `'aws:PREFIX*'`.
        #[arg(required_unless_present = "cur")]
        sources: Vec<PathBuf>,
        /// Live (`aws:`): the Region [default: the AWS CLI's, from AWS_REGION or the profile].
        #[arg(long)]
        region: Option<String>,
        /// Live (`aws:`): days of CloudWatch history, 1 to 63 (one-minute datapoints up to 15,
        /// five-minute ones beyond).
        #[arg(long, default_value_t = 14)]
        days: u32,
        /// Live (`aws:`): the end of the history window, RFC 3339 (`2026-12-01T00:00:00Z`)
        /// [default: the current minute].
        #[arg(long)]
        end: Option<String>,
        /// The table to import, when the definitions hold several.
        #[arg(long)]
        table: Option<String>,
        /// CloudWatch metrics: get-metric-data or get-metric-statistics JSON, or the console's
        /// CSV; a folder reads every file in it.
        #[arg(long)]
        metrics: Vec<PathBuf>,
        /// An AWS Cost and Usage Report (legacy CUR or CUR 2.0, hourly, CSV or .csv.gz): the
        /// table's on-demand request units hour by hour, when no CloudWatch history is at hand
        /// (alone, it names the tables it bills: --table picks one).
        #[arg(long, conflicts_with = "print_queries")]
        cur: Vec<PathBuf>,
        /// The scenario file to write (its traces go beside it) [default: print to stdout].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print `{"scenario", "path", "traces", "notes"}` on stdout, nothing else.
        #[arg(long)]
        json: bool,
        /// Replace an existing scenario file and trace files of the same names.
        #[arg(long)]
        force: bool,
        /// Print the `queries.json` for `aws cloudwatch get-metric-data` that fetches every
        /// series import reads, instead of importing: each SOURCE is a table name (its GSIs
        /// with --gsi) or a definition (its tables and their GSIs); several tables need --out
        /// DIR, one `TABLE.queries.json` each.
        #[arg(long, conflicts_with_all = ["metrics", "json"])]
        print_queries: bool,
        /// With --print-queries and a table name: one of its GSIs (repeat for each).
        #[arg(long, requires = "print_queries")]
        gsi: Vec<String>,
        /// With --print-queries: the period in seconds, 60 (CloudWatch keeps one-minute data
        /// for 15 days) or 300 (63 days).
        #[arg(long, requires = "print_queries", default_value_t = 60)]
        period: u32,
    },
    /// Price catalogs from AWS's Price List: `update` downloads the offer files of Regions,
    /// `import` reads offer files you downloaded; one catalog (TOML) per Region for `--prices`.
    Prices {
        /// What to do.
        #[command(subcommand)]
        action: PricesAction,
    },
    /// Print a shell completion script, e.g. `ddbsim completions bash > ~/.local/share/bash-completion/completions/ddbsim`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): the whole tool's, or one command's with its options, e.g.
    /// `ddbsim man run > ddbsim-run.1 && man ./ddbsim-run.1`.
    Man {
        /// The command whose page to print (run, compare, check, ...); none: the tool's.
        command: Option<String>,
    },
}

/// `ddbsim recommend`.
#[derive(Debug, clap::Args)]
pub(crate) struct RecommendArgs {
    /// Scenario files (TOML), or folders of them (as `ddbsim import` writes one scenario per
    /// table); more than one table gives one row per table and dimension.
    #[arg(required = true)]
    pub(crate) scenarios: Vec<PathBuf>,
    /// Output folder, seed, duration, quiet, JSON.
    #[command(flatten)]
    pub(crate) shared: Shared,
    /// Many tables: run only share I of N of them (1-based), e.g. 2/4, or `auto` (`auto/N`)
    /// from the scheduler's task index (AWS Batch, Kubernetes, Slurm, Cloud Run,
    /// DDBSIM_SHARD_INDEX); combine with `ddbsim merge`.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Largest share of attempts throttled, e.g. 0.1% or 0.001.
    #[arg(long, default_value = "0.1%")]
    pub(crate) max_throttle: String,
    /// Largest share of requests failed (retries exhausted, the SDK's retry quota empty, ...)
    /// [default: the same as --max-throttle, as `run`'s verdict judges].
    #[arg(long)]
    pub(crate) max_failed: Option<String>,
    /// Reserved-capacity term, years (1 or 3).
    #[arg(long, default_value_t = 1)]
    pub(crate) reserved_term: u32,
    /// Capacity modes to search and recommend, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "on-demand,provisioned,autoscaling,reserved")]
    pub(crate) modes: Vec<ModeArg>,
    /// At most this many simulations (at least 2); fewer bisection steps and auto-scaling
    /// targets when it is small [default: as many as the search takes, about 50].
    #[arg(long)]
    pub(crate) budget: Option<usize>,
    /// Simulate every candidate to its end, for full figures in recommend.csv (by default the
    /// candidates are screened by a per-minute model and only on-demand and the best are
    /// simulated).
    #[arg(long)]
    pub(crate) simulate_all: bool,
    /// A price catalog (TOML), or a folder of them (`REGION.toml`, as `ddbsim prices` writes),
    /// instead of each scenario's region's built-in prices.
    #[arg(long)]
    pub(crate) prices: Option<PathBuf>,
    /// Print the pick as the change that applies it instead of the summary (the files are
    /// written as ever): `cli`, the AWS CLI calls (printed, never run). One scenario.
    #[arg(long, value_enum)]
    pub(crate) emit: Option<EmitArg>,
    /// Run even if the guards estimate too much time or memory.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `recommend --emit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EmitArg {
    /// The AWS CLI calls: `dynamodb update-table`, Application Auto Scaling's
    /// `register-scalable-target`, `put-scaling-policy` and `put-scheduled-action`.
    Cli,
}

/// `ddbsim check`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// Scenario files (TOML).
    #[arg(required_unless_present = "rules")]
    pub(crate) scenarios: Vec<PathBuf>,
    /// List the design review's rules (each rule's finding ids, the worst severity it gives,
    /// what it reads and the fix it simulates) and exit.
    #[arg(long)]
    pub(crate) rules: bool,
    /// Phases to run and judge, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "steady,burst,soak,distribution")]
    pub(crate) phases: Vec<String>,
    /// Write JUnit XML (a test case per phase and per finding) to this file.
    #[arg(long)]
    pub(crate) junit: Option<PathBuf>,
    /// Write report.html (phases, their capacity charts, findings) and check.json to this folder.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// The least severity that fails the check (exit 3): error, or warn.
    #[arg(long, value_enum, default_value = "error")]
    pub(crate) fail_on: FailOn,
    /// Master seed, instead of each scenario's.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Fidelity, instead of each scenario's.
    #[arg(long, value_enum)]
    pub(crate) fidelity: Option<FidelityArg>,
    /// A price catalog (TOML), or a folder of them (`REGION.toml`, as `ddbsim prices` writes),
    /// instead of the scenario's region's built-in prices.
    #[arg(long)]
    pub(crate) prices: Option<PathBuf>,
    /// Print `{"passed", "checks": [...]}` on stdout, nothing else.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Read `rate = { trace = ... }` files outside the scenarios' folders.
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `--fail-on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOn {
    /// Errors fail the check.
    Error,
    /// Warnings fail it too.
    Warn,
}

/// A capacity mode `recommend` may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ModeArg {
    /// On-demand.
    OnDemand,
    /// Provisioned, fixed capacity.
    Provisioned,
    /// Provisioned with auto scaling (and daily scheduled floors).
    Autoscaling,
    /// Reserved capacity on a provisioned or auto-scaled setting.
    Reserved,
}

impl RecommendArgs {
    /// The modes as the library takes them.
    pub(crate) fn modes(&self) -> crate::study::recommend::Modes {
        let has = |m| self.modes.contains(&m);
        crate::study::recommend::Modes {
            on_demand: has(ModeArg::OnDemand),
            provisioned: has(ModeArg::Provisioned),
            autoscaling: has(ModeArg::Autoscaling),
            reserved: has(ModeArg::Reserved),
        }
    }
}

/// Arguments every simulating command takes: the scenario and [`Shared`] (read through
/// `Deref`, so `common.seed` works).
#[derive(Debug, clap::Args)]
pub(crate) struct Common {
    /// The scenario file (TOML).
    pub(crate) scenario: PathBuf,
    /// Output folder, seed, duration, quiet, JSON.
    #[command(flatten)]
    pub(crate) shared: Shared,
}

impl std::ops::Deref for Common {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.shared
    }
}

/// The options of every simulating command, whatever scenarios it takes.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct Shared {
    /// Output folder [default: output/<scenario name>, with -sweep, -shards or -recommend for
    /// those commands; output/recommend-tables for recommend on many tables].
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Master seed, instead of the scenario's.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Simulated duration, instead of the scenario's ("90s", "15m", "24h").
    #[arg(long)]
    pub(crate) duration: Option<String>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Draw the progress bar even when stderr is not a terminal (by default a terminal gets the
    /// bar, and anything else a line per simulated hour or tenth of the runs of a long command).
    #[arg(long)]
    pub(crate) progress: bool,
    /// Read `rate = { trace = ... }` files outside the scenario's folder.
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// Print the result on stdout as one JSON document (the summary.json, compare.json,
    /// sweep.json, shards.json, recommend.json or recommend-tables.json the command writes)
    /// and nothing else there.
    #[arg(long)]
    pub(crate) json: bool,
}

impl Common {
    /// Loads the scenario.
    pub(crate) fn load(&self) -> Result<Scenario, CliError> {
        self.load_as(self.load_options())
    }

    /// Loads the scenario as one table of an account (its transactions may span the others).
    pub(crate) fn load_in_account(&self) -> Result<Scenario, CliError> {
        self.load_as(crate::scenario::LoadOptions { in_account: true, ..self.load_options() })
    }

    fn load_as(&self, options: crate::scenario::LoadOptions) -> Result<Scenario, CliError> {
        let sc = crate::scenario::load_with(&self.scenario, &options)?;
        // What validation noted (an index nothing writes, a default that is a guess), once,
        // before the work.
        if !self.quiet {
            for n in &sc.notes {
                eprintln!("{}", n.display(&self.scenario));
            }
        }
        Ok(sc)
    }

    /// How scenarios are read.
    pub(crate) fn load_options(&self) -> crate::scenario::LoadOptions {
        crate::scenario::LoadOptions { allow_outside: self.allow_outside, in_account: false }
    }
}

/// `ddbsim run`.
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub(crate) common: Common,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub(crate) fidelity: Option<FidelityArg>,
    /// A price catalog (TOML), or a folder of them (`REGION.toml`, as `ddbsim prices` writes),
    /// instead of the scenario's region's built-in prices.
    #[arg(long)]
    pub(crate) prices: Option<PathBuf>,
    /// Skip the charts and report.html.
    #[arg(long)]
    pub(crate) no_charts: bool,
    /// Do not record per-partition minutes (no partitions.csv rows, no heatmap).
    #[arg(long)]
    pub(crate) no_partitions: bool,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub(crate) force: bool,
    /// Independent replications from the master seed (key placement, traffic and jitter all
    /// vary); the outputs are replication 0's, plus replications.csv and replications.json.
    #[arg(long, default_value_t = 1)]
    pub(crate) replications: u64,
    /// The verdict's limit: the design holds when at most this share of attempts is throttled
    /// (and of requests failed), e.g. 0.1% or 0.001.
    #[arg(long, default_value = "0.1%")]
    pub(crate) max_throttle: String,
}

/// `ddbsim sweep`.
#[derive(Debug, clap::Args)]
pub(crate) struct SweepArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub(crate) common: Common,
    /// PATH=VALUES: a dotted key path (array entries by name: pattern.feed.rate.constant) and
    /// values "1,2,4", "50..90:10" or "100..5000:x2". Several make a Cartesian product.
    #[arg(long = "set", required = true)]
    pub(crate) sets: Vec<String>,
    /// Replications per point.
    #[arg(long, default_value_t = 1)]
    pub(crate) replications: u64,
    /// Run only share I of N of the points (1-based), e.g. 2/4, or `auto` (`auto/N`) from the
    /// scheduler's task index: AWS_BATCH_JOB_ARRAY_INDEX, JOB_COMPLETION_INDEX (Kubernetes),
    /// SLURM_ARRAY_TASK_ID, CLOUD_RUN_TASK_INDEX or DDBSIM_SHARD_INDEX (0-based, with
    /// DDBSIM_SHARD_COUNT); combine with `ddbsim merge`.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub(crate) fidelity: Option<FidelityArg>,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `ddbsim shards`.
#[derive(Debug, clap::Args)]
pub(crate) struct ShardsArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub(crate) common: Common,
    /// The key space to shard.
    #[arg(long)]
    pub(crate) key: String,
    /// Largest shard count (counts double from 1).
    #[arg(long, default_value_t = 64)]
    pub(crate) max: u64,
    /// Suffix: "random" (reads query every shard) or "hash" (a point read hits one).
    #[arg(long, default_value = "random")]
    pub(crate) by: String,
    /// Replications per count (placement of shards on partitions varies).
    #[arg(long, default_value_t = 10)]
    pub(crate) replications: u64,
    /// Percentile of the throttled share to judge: 50, 95 or 99.
    #[arg(long, default_value_t = 95.0)]
    pub(crate) percentile: f64,
    /// Largest throttled share accepted, e.g. "0.1%".
    #[arg(long, default_value = "0.1%")]
    pub(crate) max_throttle: String,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `ddbsim compare`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompareArgs {
    /// Scenario, output folder, seed, duration, quiet.
    #[command(flatten)]
    pub(crate) common: Common,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub(crate) fidelity: Option<FidelityArg>,
    /// Largest share of throttled attempts the picked mode may have, e.g. "0.1%".
    #[arg(long, default_value = "0.1%")]
    pub(crate) max_throttle: String,
    /// Percentile of the auto-scaled capacity series that reserved capacity covers.
    #[arg(long, default_value_t = 10.0)]
    pub(crate) reserved_percentile: f64,
    /// Reserved-capacity term in years: 1 or 3.
    #[arg(long, default_value_t = 1)]
    pub(crate) reserved_term: u32,
    /// Target utilization (percent) for fixed and auto-scaled provisioned capacity.
    #[arg(long, default_value_t = 70.0)]
    pub(crate) target: f64,
    /// A price catalog (TOML), or a folder of them (`REGION.toml`, as `ddbsim prices` writes),
    /// instead of the scenario's region's built-in prices.
    #[arg(long)]
    pub(crate) prices: Option<PathBuf>,
    /// Run even when the estimated work or memory is above the guards.
    #[arg(long)]
    pub(crate) force: bool,
    /// Independent replications; adds compare-replications.json with statistics per mode.
    #[arg(long, default_value_t = 1)]
    pub(crate) replications: u64,
}

/// `--fidelity`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum FidelityArg {
    /// Hybrid: bulk seconds that surely fit, replay the others request by request.
    Fast,
    /// Every request is an event.
    Exact,
}

impl FidelityArg {
    /// The library's fidelity.
    pub(crate) fn fidelity(self) -> Fidelity {
        match self {
            FidelityArg::Fast => Fidelity::Fast,
            FidelityArg::Exact => Fidelity::Exact,
        }
    }
}

/// `--duration`: a whole number of seconds, at least one.
pub(crate) fn duration_arg(d: Option<&String>) -> Result<Option<SimDuration>, CliError> {
    d.map(|d| duration_flag("duration", d)).transpose()
}

/// A simulated duration given to flag `--{flag}`: whole seconds, at least one, at most 366 days;
/// an error names the flag.
pub(crate) fn duration_flag(flag: &str, d: &str) -> Result<SimDuration, CliError> {
    let d = parse_duration(d).map_err(|m| CliError::Argument(format!("--{flag}: {m}")))?;
    if d.as_secs() == 0 || d.as_micros() % 1_000_000 != 0 {
        return Err(CliError::Argument(format!("--{flag}: a whole number of seconds, at least 1s")));
    }
    if d.as_secs() > crate::limits::MAX_DURATION_S {
        return Err(CliError::Argument(format!("--{flag}: {d} is longer than ddbsim simulates (366 days)")));
    }
    Ok(d)
}

/// A share such as "0.1%" or "0.001", for `--max-throttle`.
pub(crate) fn share_arg(s: &str) -> Result<f64, CliError> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(CliError::Argument(format!("--max-throttle: \"{s}\" is not a share such as \"0.1%\" or 0.001"))),
    }
}

/// `--replications`: 1 to 100,000.
pub(crate) fn replications_arg(n: u64) -> Result<u64, CliError> {
    if n == 0 || n > 100_000 {
        return Err(CliError::Argument(format!("--replications: 1 to 100000, not {n}")));
    }
    Ok(n)
}

/// `ddbsim bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    /// Simulated duration of the fast-mode run (also the run whose peak memory with its
    /// outputs is measured).
    #[arg(long, default_value = "24h")]
    pub(crate) fast: String,
    /// Simulated duration of the exact-mode run (the 24-hour figure scales linearly).
    #[arg(long, default_value = "10m")]
    pub(crate) exact: String,
    /// Simulated durations of the exact-mode runs at 100 and at 100,000 partitions (the same
    /// 50,000 requests a second), comma-separated: a pair of runs each (a short one shows the
    /// set-up of 100,000 partitions, a long one the cost of a second).
    #[arg(long, default_value = "1m,10m")]
    pub(crate) growth: String,
    /// The SimPy model of the headline (`tools/simpy_baseline.py`): run with `python3` right
    /// after the exact run, and exact mode's speed set against it.
    #[arg(long, value_name = "SCRIPT")]
    pub(crate) simpy: Option<PathBuf>,
    /// Simulated duration of the SimPy run.
    #[arg(long, default_value = "10s")]
    pub(crate) simpy_duration: String,
    /// Print the figures as the rows of README's performance table (Markdown).
    #[arg(long, conflicts_with = "json")]
    pub(crate) markdown: bool,
    /// Print `{"runs": [...], "growth": [...], "peak_memory_bytes", "simpy": {...}}` on stdout,
    /// nothing else.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `ddbsim size`.
#[derive(Debug, clap::Args)]
pub(crate) struct SizeArgs {
    /// The item, in DynamoDB JSON: `{"id": {"S": "a"}, "total": {"N": "12.5"}, ...}`, or
    /// `aws dynamodb get-item`'s output.
    pub(crate) item: PathBuf,
    /// A key attribute of the table (the partition key, then the sort key): every index entry
    /// carries them.
    #[arg(long = "key", value_name = "ATTR")]
    pub(crate) keys: Vec<String>,
    /// An index: `NAME:KEY[,SORT][:keys_only|all|include=ATTR,...]` (keys only when no
    /// projection is given), e.g. `ByStatus:status,created:include=total`. Repeat for more.
    #[arg(long = "index", value_name = "NAME:KEYS[:PROJECTION]")]
    pub(crate) indexes: Vec<String>,
    /// Print `{"item", "bytes", "stored_bytes", "read_units", "write_units", "indexes"}` on
    /// stdout instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}
