//! The command line: parse, call the library, write the artifacts, print.
//!
//! Exit codes: 0 success, 1 bad input (a scenario, an argument, a missing file, a run refused
//! by the guards), 2 a failure while running or writing outputs (an unwritable folder, an
//! interrupted run).

mod args;
mod check;
mod commands;
mod progress;

use crate::cost::CatalogError;
use crate::engine::StopToken;
use crate::guard::GuardError;
use crate::output::OutputError;
use crate::report::ReportError;
use crate::scenario::ScenarioError;
use crate::study::SweepError;
use args::{Cli, Command};
use clap::Parser;

/// A failed command. The variant decides the exit code.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// A scenario that cannot be read or does not validate (exit 1).
    #[error("{}", scenario_message(.0))]
    Scenario(#[from] ScenarioError),
    /// A price catalog that cannot be used (exit 1).
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A bad argument (exit 1).
    #[error("{0}")]
    Argument(String),
    /// A sweep that cannot be built or merged (exit 1).
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// A run the guards refuse (exit 1).
    #[error(transparent)]
    Refused(#[from] GuardError),
    /// Writing outputs failed (exit 2).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Drawing or reading a report failed (exit 1 for bad input files, else 2).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// Table definitions or metrics that cannot be imported (exit 1).
    #[error(transparent)]
    Import(#[from] crate::import::ImportError),
    /// `check` ran and the design failed it (exit 3).
    #[error("{0}")]
    CheckFailed(String),
    /// Ctrl-C stopped the run (exit 2).
    #[error("interrupted (Ctrl-C): the run was stopped and nothing was written")]
    Interrupted,
}

fn scenario_message(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Io { .. } => e.to_string(),
        ScenarioError::Invalid { .. } => format!("invalid scenario\n{e}"),
    }
}

impl CliError {
    /// The process exit code.
    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            CliError::Scenario(_)
            | CliError::Catalog(_)
            | CliError::Argument(_)
            | CliError::Sweep(_)
            | CliError::Refused(_)
            | CliError::Import(_) => 1,
            CliError::Report(ReportError::Input(_)) => 1,
            CliError::Output(_) | CliError::Report(_) | CliError::Interrupted => 2,
            CliError::CheckFailed(_) => 3,
        }
    }
}

/// Parses `std::env::args`, runs, prints errors; returns the exit code.
#[must_use]
pub fn main() -> i32 {
    // A file-size limit (`ulimit -f`) makes writes fail with an error we report, instead of a
    // signal that kills the process mid-write.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // Ctrl-C (and SIGTERM, SIGHUP) asks runs to stop at their next simulated minute; nothing is
    // written then.
    let stop = StopToken::new();
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.stop());
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = i32::from(e.use_stderr());
            let _ = e.print();
            return code;
        }
    };
    commands::set_color(cli.color);
    if let Some(n) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(usize::from(n)).build_global() {
            eprintln!("error: --threads {n}: {e}");
            return 1;
        }
    }
    match run(cli.command, &stop) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn run(command: Command, stop: &StopToken) -> Result<(), CliError> {
    match command {
        Command::Run(a) => commands::run(&a, stop),
        Command::Compare(a) => commands::compare(&a, stop),
        Command::Sweep(a) => commands::sweep(&a, stop),
        Command::Merge { dirs, out, allow_partial, json } => commands::merge(&dirs, out.as_ref(), allow_partial, json),
        Command::Shards(a) => commands::shards(&a, stop),
        Command::Bench(a) => commands::bench(&a, stop),
        Command::Plot { dir, json } => commands::plot(&dir, json),
        Command::Validate { scenarios, allow_outside, json, prices } => {
            commands::validate(&scenarios, allow_outside, json, prices.as_ref())
        }
        Command::Schema => commands::schema(),
        Command::Size(a) => commands::size(&a),
        Command::Recommend(a) => commands::recommend(&a, stop),
        Command::Check(a) => check::check(&a, stop),
        Command::Backtest(a) => commands::backtest(&a, stop),
        Command::Diff(a) => commands::diff(&a),
        Command::Import { sources, region, days, end, table, metrics, cur, out, json, force, print_queries, gsi, period } => {
            if commands::is_live(&sources) {
                if print_queries || !metrics.is_empty() || !cur.is_empty() || table.is_some() {
                    return Err(CliError::Argument(
                        "aws: sources fetch the definition and the history themselves: no --metrics, --cur, --table or --print-queries"
                            .into(),
                    ));
                }
                let end = commands::parse_end(end.as_deref())?;
                let say = if json { commands::Say::Json } else { commands::Say::Stdout };
                let l = commands::Live { sources: &sources, region: region.as_deref(), days, end, out: out.as_deref(), say, force, stop };
                return commands::import_live(&l);
            }
            if region.is_some() || end.is_some() {
                return Err(CliError::Argument("--region and --end go with aws: sources (a live import)".into()));
            }
            if print_queries {
                commands::print_queries(&sources, table.as_deref(), &gsi, period, out.as_deref(), force)
            } else {
                commands::import(&sources, table.as_deref(), &metrics, &cur, out.as_deref(), json, force)
            }
        }
        Command::Prices { action } => match action {
            args::PricesAction::Update { region, all: _, out, endpoint, force, json } => {
                commands::prices_update(&region, &endpoint, &commands::PricesOut { dir: &out, force, json })
            }
            args::PricesAction::Import { files, out, force, json } => {
                commands::prices_import(&files, &commands::PricesOut { dir: &out, force, json })
            }
        },
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut <args::Cli as clap::CommandFactory>::command(), "ddbsim", &mut std::io::stdout());
            Ok(())
        }
        Command::Man { command } => man(command.as_deref()),
    }
}

/// `ddbsim man [COMMAND]`: the tool's manual page, or one command's (`ddbsim-run(1)`), in roff.
fn man(command: Option<&str>) -> Result<(), CliError> {
    let mut top = <args::Cli as clap::CommandFactory>::command();
    // Building propagates the global options (--color, --threads) to every command's page.
    top.build();
    let page = match command {
        None => top,
        Some(name) => {
            let Some(sub) = top.find_subcommand(name) else {
                let names: Vec<String> = top.get_subcommands().map(|c| c.get_name().to_string()).collect();
                return Err(CliError::Argument(format!("no command \"{name}\"; commands: {}", names.join(", "))));
            };
            // The page's name is the command's as a user types it: ddbsim-run.
            sub.clone()
                .name(format!("ddbsim-{}", sub.get_name()))
                .bin_name(format!("ddbsim {}", sub.get_name()))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out).map_err(|e| CliError::Argument(format!("writing the manual page: {e}")))?;
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(&out);
    Ok(())
}
