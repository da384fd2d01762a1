//! One function per command: parse the arguments, call the library, write the artifacts, print.

mod account;
mod backtest;
mod bench;
mod bounded;
mod compare;
mod diff;
mod files;
mod history;
mod live;
mod prices;
mod publish;
mod queries;
mod recommend;
mod run;
mod size;
mod sweep;

use super::args::ColorChoice;
use super::CliError;
use crate::engine::StopToken;
use crate::guard;
use crate::scenario::{self, Scenario};
use std::path::{Path, PathBuf};

pub(in crate::cli) use backtest::backtest;
pub(in crate::cli) use bench::bench;
pub(in crate::cli) use compare::compare;
pub(in crate::cli) use diff::diff;
pub(in crate::cli) use files::{import, schema, validate, Say};
pub(in crate::cli) use live::{import_live, is_live, parse_end, Live};
pub(in crate::cli) use prices::{prices_import, prices_update, Out as PricesOut};
pub(in crate::cli) use queries::print_queries;
pub(in crate::cli) use recommend::recommend;
pub(in crate::cli) use run::{plot, run};
pub(in crate::cli) use size::size;
pub(in crate::cli) use sweep::{merge, shards, sweep};

/// The output folder: `--out`, or `output/<scenario name>` (with `-sweep` or `-shards`).
pub(super) fn out_dir(out: Option<&PathBuf>, sc: &Scenario, suffix: &str) -> PathBuf {
    out.cloned().unwrap_or_else(|| PathBuf::from("output").join(format!("{}{suffix}", sc.name)))
}

/// Prints the artifact `name` (a JSON document) on stdout, for `--json`.
pub(super) fn print_json(artifacts: &[crate::report::Artifact<'_>], name: &str) {
    let mut out = std::io::stdout().lock();
    if let Some(a) = artifacts.iter().find(|a| a.name == name) {
        let _ = a.write_to(&mut out);
    }
}

/// `--color`, set once at start-up.
static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// Records `--color` for the commands' output.
pub(crate) fn set_color(c: ColorChoice) {
    let _ = COLOR.set(c);
}

/// Output is coloured: `--color always`, or `auto` (the default) with stdout a terminal and
/// `NO_COLOR` unset or empty (<https://no-color.org>; a flag given on the command line wins).
fn colored() -> bool {
    use std::io::IsTerminal;
    match COLOR.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal(),
    }
}

/// The verdict's headline in bold green (held) or red (not) when output is [`colored`]; the
/// text unchanged otherwise.
pub(super) fn colour_verdict(text: String, headline: &str, held: bool) -> String {
    if !colored() {
        return text;
    }
    let code = if held { "1;32" } else { "1;31" };
    text.replacen(headline, &format!("\x1b[{code}m{headline}\x1b[0m"), 1)
}

pub(super) fn read_text(path: &Path) -> Result<String, CliError> {
    crate::input::read_text_capped(path, crate::limits::MAX_SCENARIO_BYTES, "scenario file")
        .map_err(|source| CliError::Scenario(scenario::ScenarioError::Io { path: path.to_path_buf(), source }))
}

pub(super) fn stopped(stop: &StopToken) -> Result<(), CliError> {
    if stop.is_stopped() {
        Err(CliError::Interrupted)
    } else {
        Ok(())
    }
}

/// The process's peak resident memory (`VmHWM`, Linux), beside the guard's estimate: the user
/// sees how close the estimate came, and tests read it (a child's `ru_maxrss` would count the
/// test harness's pages inherited at the fork).
pub(super) fn memory(estimate: &guard::Estimate) -> String {
    match peak_memory_bytes() {
        Some(b) => format!("peak memory {:.0} MB (estimated {:.0} MB)", b as f64 / 1e6, estimate.memory_bytes / 1e6),
        None => format!("estimated peak memory {:.0} MB", estimate.memory_bytes / 1e6),
    }
}

/// The process's peak resident memory in bytes (`VmHWM`), where the kernel reports it.
pub(super) fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches("kB").trim().parse::<u64>().ok()?;
    Some(kb * 1024)
}

pub(super) fn wrote(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// The scenarios (`.toml`) of folder `dir`, sorted by name; an error when it holds none. A
/// folder's tables are its scenarios: `NAME.calibrated.toml`, what `backtest --calibrate`
/// writes beside `NAME.toml`, is the same table again and is skipped, with a note on stderr.
pub(super) fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let (calibrations, mut found): (Vec<PathBuf>, Vec<PathBuf>) = std::fs::read_dir(dir)
        .map_err(|e| CliError::Argument(format!("{}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|f| f.extension().is_some_and(|x| x == "toml"))
        .partition(|f| f.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".calibrated.toml")));
    let mut calibrations = calibrations;
    calibrations.sort();
    for c in &calibrations {
        eprintln!(
            "note: {} skipped: a calibration `backtest --calibrate` wrote of a table in the folder, not a table of its own (name the file to use it)",
            c.display()
        );
    }
    if found.is_empty() {
        return Err(CliError::Argument(format!("{}: no scenario (.toml) in this folder", dir.display())));
    }
    found.sort();
    Ok(found)
}

/// The run options of `ddbsim run`'s arguments, reporting progress to `bar`.
pub(super) fn run_options(
    a: &crate::cli::args::RunArgs,
    stop: &crate::engine::StopToken,
    bar: &std::sync::Arc<crate::cli::progress::Bar>,
) -> Result<crate::engine::RunOptions, CliError> {
    Ok(crate::engine::RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: crate::cli::args::duration_arg(a.common.duration.as_ref())?,
        replication: 0,
        record_partitions: !a.no_partitions,
        stop: Some(stop.clone()),
        give_up: None,
        progress: Some(bar.clone()),
    })
}
