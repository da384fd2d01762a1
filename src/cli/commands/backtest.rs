//! `ddbsim backtest`: the scenario against the table's recorded history, and the calibrated
//! scenario written beside it.

use super::super::args::BacktestArgs;
use super::super::CliError;
use crate::engine::{RunOptions, StopToken};
use crate::guard;
use crate::report::{json_bytes, Artifact, Output};
use crate::scenario::LoadOptions;
use crate::study::backtest::{self, calibrate};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Runs the backtest; exit 3 when the scenario does not fit its history.
pub(in crate::cli) fn backtest(a: &BacktestArgs, stop: &StopToken) -> Result<(), CliError> {
    let scenario = match live_table(a)? {
        Some(table) => import_table(a, &table, stop)?,
        None => a.scenario.clone(),
    };
    let sc = crate::scenario::load_with(&scenario, &LoadOptions { allow_outside: a.allow_outside, ..Default::default() })?;
    let metrics = if a.metrics.is_empty() { super::history::recorded(&scenario, &sc.source_text)? } else { a.metrics.clone() };
    if metrics.is_empty() {
        return Err(CliError::Argument(format!(
            "{}: no history to compare with: give the table's CloudWatch metrics with --metrics FILE|DIR, or import it with `ddbsim import aws:TABLE --out FILE.toml` (which keeps its history beside the scenario)",
            scenario.display()
        )));
    }
    let gsis: Vec<String> = sc.gsis.iter().map(|g| g.name.clone()).collect();
    let rec = crate::import::read_history(&metrics, &gsis)?;
    let opts = RunOptions { seed: a.seed, fidelity: a.fidelity.map(|f| f.fidelity()), stop: Some(stop.clone()), ..RunOptions::default() };
    // Each calibration step is a simulation of the whole window: up to about 35 for the
    // skew (two families), 25 for the absorption bound, 21 for the fleet, and the calibrated
    // run.
    if a.calibrate {
        // Before the fit: a file it may not replace is refused at once.
        ours_to_replace(&calibrated_path(&scenario), a.force)?;
    }
    let work = if a.calibrate { guard::Work::replications(110) } else { guard::Work::ONE }.with_knobs(&[guard::Knob::FidelityFast]);
    guard::check_work(&sc, &opts, work)?;
    let out = a.out.as_ref().map(|d| Output::claim(d)).transpose()?;
    // Ctrl-C stops the simulation under way; nothing is written then.
    let fail = |e: backtest::BacktestError| {
        if stop.is_stopped() {
            CliError::Interrupted
        } else {
            CliError::Argument(format!("{}: {e}", scenario.display()))
        }
    };
    let mut b = backtest::backtest(&sc, &rec, &opts).map_err(fail)?;
    let mut written = Vec::new();
    if a.calibrate {
        let bar = std::sync::Arc::new(crate::cli::progress::Bar::new(
            crate::cli::progress::Mode::of(a.quiet || a.json, false),
            "backtest --calibrate",
        ));
        let fit_opts = RunOptions { progress: Some(std::sync::Arc::new(Fitting(bar.clone()))), ..opts.clone() };
        let fitted = calibrate::calibrate(&sc, &rec, &fit_opts, &b);
        bar.finish();
        let (calibrated, c) = fitted.map_err(fail)?;
        super::stopped(stop)?;
        if let Some((_, after)) = calibrated {
            let history = metrics.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
            let window = format!("{} minutes from {}", b.minutes, b.start);
            let text = stamped(&calibrate::calibrated_text(&sc.source_text, &c, &history, &window));
            written.extend(write_calibration(&calibrated_path(&scenario), &text, &c.traces)?);
            b.verdict = after.verdict;
            b.series = after.series;
            b.throttled_minutes = after.throttled_minutes;
        }
        b.calibration = Some(c);
    }
    let doc = json_bytes(&b);
    if let Some(out) = &out {
        use crate::report::plot::{backtest as chart, render, PANEL_HEIGHT};
        let height = PANEL_HEIGHT * b.series.len().max(1) as u32;
        let (svg, png) =
            render(height, "backtest", &|root| chart(root, &b.series, b.start_unix_s), &|root| chart(root, &b.series, b.start_unix_s))
                .map_err(crate::report::ReportError::from)?;
        written.extend(out.write_all(&[
            Artifact::new("backtest.json", doc.clone()),
            Artifact::new("backtest.csv", backtest::csv(&b)),
            Artifact::new("backtest.svg", svg),
            Artifact::new("backtest.png", png),
            Artifact::new("report.html", crate::report::backtest::html(&b).into_bytes()),
        ])?);
    }
    if a.json {
        let _ = std::io::stdout().lock().write_all(&doc);
    } else {
        print!("{}", super::colour_verdict(backtest::text(&b, opts.seed.unwrap_or(sc.seed)), &b.verdict.headline, b.verdict.fits));
        if !written.is_empty() {
            println!("wrote {}", super::wrote(&written));
        }
    }
    if b.verdict.fits {
        Ok(())
    } else {
        Err(CliError::CheckFailed(format!("backtest: {} does not fit its history", sc.name)))
    }
}

/// A calibration's progress: the steps it fits, not each simulation's seconds.
struct Fitting(std::sync::Arc<crate::cli::progress::Bar>);

impl crate::engine::Progress for Fitting {
    fn fitting(&self, step: &str) {
        self.0.fitting(step);
    }
}

/// `NAME.calibrated.toml` beside `scenario`.
fn calibrated_path(scenario: &Path) -> PathBuf {
    let stem = scenario.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    scenario.with_file_name(format!("{stem}.calibrated.toml"))
}

/// The first line of a calibrated scenario: the digest of what follows, as written.
const STAMP: &str = "# ddbsim-digest: ";

/// FNV-1a of `text`, as 16 hex digits.
fn digest(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{h:016x}")
}

/// `text` with its stamp: a later `--calibrate` replaces the file only while it is unchanged.
fn stamped(text: &str) -> String {
    format!("{STAMP}{} (of the lines below, as backtest --calibrate wrote them: an edit keeps it from replacing this file without --force)\n{text}", digest(text))
}

/// May `--calibrate` replace `path`? When it is absent, or is what an earlier `--calibrate`
/// wrote, unchanged; a file it did not write, or one edited since, only with `--force`.
fn ours_to_replace(path: &Path, force: bool) -> Result<(), CliError> {
    let Ok(old) = std::fs::read_to_string(path) else {
        return if path.exists() && !force {
            Err(CliError::Argument(format!("{}: exists and is not a calibration ddbsim wrote: pass --force to replace it", path.display())))
        } else {
            Ok(())
        };
    };
    let (first, rest) = old.split_once('\n').unwrap_or((old.as_str(), ""));
    let ours = first.strip_prefix(STAMP).and_then(|r| r.split(' ').next()).is_some_and(|d| d == digest(rest));
    if ours || force {
        return Ok(());
    }
    Err(CliError::Argument(format!(
        "{}: not as backtest --calibrate wrote it (edited by hand, or another file): pass --force to replace it, or move it away first",
        path.display()
    )))
}

/// Writes the calibrated scenario `text` to `path` with its fitted traces beside it, as one
/// set (all or none, even across a kill: the traces are never left without their scenario);
/// the scenario must then load where it lies. The paths written.
fn write_calibration(path: &Path, text: &str, traces: &[(String, String)]) -> Result<Vec<PathBuf>, CliError> {
    let dir = super::publish::folder_of(path);
    let name = path.file_name().map_or_else(|| "scenario.calibrated.toml".into(), |n| n.to_string_lossy().into_owned());
    let staging = super::publish::staging(&dir)?;
    let files: Vec<(&str, &str)> =
        traces.iter().map(|(n, t)| (n.as_str(), t.as_str())).chain(std::iter::once((name.as_str(), text))).collect();
    super::publish::stage(staging.path(), files.iter().copied())?;
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    // `ours_to_replace` has judged the scenario; the fitted traces are the calibration's own.
    super::publish::place_all(staging.path(), &dir, &names, true)?;
    // It names the import's traces beside it too: loaded where it lies.
    crate::scenario::load_with(path, &LoadOptions { allow_outside: true, ..Default::default() })?;
    Ok(names.iter().map(|n| dir.join(n)).collect())
}

/// `aws:TABLE` as the scenario: the table's name, its other arguments checked.
fn live_table(a: &BacktestArgs) -> Result<Option<String>, CliError> {
    let given = a.scenario.to_string_lossy();
    let Some(table) = given.strip_prefix("aws:") else {
        if a.region.is_some() || a.end.is_some() || a.days != 1 {
            return Err(CliError::Argument("--region, --days and --end go with aws:TABLE (a live import, then its backtest)".into()));
        }
        return Ok(None);
    };
    if !a.metrics.is_empty() {
        return Err(CliError::Argument("aws:TABLE fetches its own history: no --metrics".into()));
    }
    if table.contains('*') {
        return Err(CliError::Argument(format!("{given}: backtest takes one table (aws:NAME)")));
    }
    // The name becomes a file name: only one AWS allows.
    super::live::aws_name("table", table).map_err(CliError::Argument)?;
    Ok(Some(table.to_string()))
}

/// Imports `table` live into `TABLE.toml` in the current folder (its traces and history
/// beside it), as `import aws:TABLE --out TABLE.toml` does; the scenario's path. An existing
/// `TABLE.toml` is refused before any call unless `--force`.
fn import_table(a: &BacktestArgs, table: &str, stop: &StopToken) -> Result<PathBuf, CliError> {
    let out = PathBuf::from(format!("{table}.toml"));
    if out.symlink_metadata().is_ok() && !a.force {
        return Err(CliError::Argument(format!(
            "{}: exists: `ddbsim backtest {}` compares it with the history kept beside it, or pass --force to import the table again",
            out.display(),
            out.display()
        )));
    }
    let end = super::live::parse_end(a.end.as_deref())?;
    let sources = [a.scenario.clone()];
    let l = super::Live {
        sources: &sources,
        region: a.region.as_deref(),
        days: a.days,
        end,
        out: Some(&out),
        say: super::Say::Stderr,
        force: a.force,
        stop,
    };
    super::import_live(&l)?;
    Ok(out)
}
