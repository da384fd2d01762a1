//! The arguments of the commands that read a table's history: `backtest` and `diff`.

use super::FidelityArg;
use std::path::PathBuf;

/// `ddbsim backtest`.
#[derive(Debug, clap::Args)]
pub(crate) struct BacktestArgs {
    /// The scenario (its [scenario] start and duration set to the history's window); or
    /// `aws:TABLE`, imported live first (as `import aws:TABLE --out TABLE.toml` does, into the
    /// current folder) and then backtested.
    pub(crate) scenario: PathBuf,
    /// CloudWatch metrics of the table and its GSIs (as `import --metrics`): get-metric-data
    /// or get-metric-statistics JSON, or the console's CSV; a folder reads every file in it
    /// [default: the history `import` kept beside the scenario, named on its
    /// `# ddbsim-history:` lines].
    #[arg(long)]
    pub(crate) metrics: Vec<PathBuf>,
    /// With `aws:TABLE`: the Region [default: the AWS CLI's, from AWS_REGION or the profile].
    #[arg(long)]
    pub(crate) region: Option<String>,
    /// With `aws:TABLE`: days of CloudWatch history to import and compare, 1 to 63.
    #[arg(long, default_value_t = 1)]
    pub(crate) days: u32,
    /// With `aws:TABLE`: the end of the history window, RFC 3339 [default: the current minute].
    #[arg(long)]
    pub(crate) end: Option<String>,
    /// Fit the partition key's skew to the recorded throttle events and write the calibrated
    /// scenario beside the input (`NAME.calibrated.toml`).
    #[arg(long)]
    pub(crate) calibrate: bool,
    /// Print backtest.json on stdout, nothing else.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write backtest.json to this folder.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Master seed, instead of the scenario's.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Fidelity, instead of the scenario's.
    #[arg(long, value_enum)]
    pub(crate) fidelity: Option<FidelityArg>,
    /// Read `rate = { trace = ... }` files outside the scenario's folder.
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Replace a `NAME.calibrated.toml` that `--calibrate` did not write, or that was edited;
    /// with `aws:TABLE`, replace `TABLE.toml` and its traces and history.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `ddbsim diff`.
#[derive(Debug, clap::Args)]
pub(crate) struct DiffArgs {
    /// The design before the change: a scenario (.toml), a folder of scenarios (paired with
    /// HEAD's by file name), or a table definition as `import` reads it (CloudFormation, CDK,
    /// Terraform, describe-table; its tables paired with HEAD's by name).
    pub(crate) base: PathBuf,
    /// The design after it, in the same forms.
    pub(crate) head: PathBuf,
    /// CloudWatch history of the table, for definitions: both revisions are imported with it,
    /// so it is the traffic of both (without it, both take the traffic `import` assumes from
    /// BASE's definition).
    #[arg(long, value_name = "FILE|DIR")]
    pub(crate) metrics: Vec<PathBuf>,
    /// Only this table of each definition.
    #[arg(long)]
    pub(crate) table: Option<String>,
    /// Print diff.json on stdout, nothing else.
    #[arg(long, conflicts_with = "markdown")]
    pub(crate) json: bool,
    /// Print the Markdown comment for a pull request on stdout, nothing else.
    #[arg(long)]
    pub(crate) markdown: bool,
    /// Master seed of both runs, instead of BASE's.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Simulated duration of both runs, instead of BASE's (e.g. "1h").
    #[arg(long)]
    pub(crate) duration: Option<String>,
    /// Largest share of throttled attempts (and of failed requests) a design may have and hold.
    #[arg(long, default_value = "0.1%")]
    pub(crate) max_throttle: String,
    /// Fail (exit 3) when HEAD costs more than BASE by this: "10%" of BASE's cost or US
    /// dollars ("25"); a month when both extrapolate, else over the window [default: HEAD's
    /// `[check] max_cost_increase`, else BASE's].
    #[arg(long)]
    pub(crate) max_cost_increase: Option<String>,
    /// A price catalog (TOML) for both, or a folder of them (`REGION.toml`, as `ddbsim prices`
    /// writes), instead of each scenario's region's built-in prices.
    #[arg(long)]
    pub(crate) prices: Option<PathBuf>,
    /// Read `rate = { trace = ... }` files outside the scenarios' folders.
    #[arg(long)]
    pub(crate) allow_outside: bool,
}
