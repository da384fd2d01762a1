//! `ddbsim backtest`: the scenario against the table's recorded history, and the calibrated
//! scenario written beside it.

use super::super::args::BacktestArgs;
use super::super::CliError;
use crate::engine::RunOptions;
use crate::guard;
use crate::report::{json_bytes, Artifact, Output};
use crate::scenario::LoadOptions;
use crate::study::backtest::{self, calibrate};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Runs the backtest; exit 3 when the scenario does not fit its history.
pub(in crate::cli) fn backtest(a: &BacktestArgs) -> Result<(), CliError> {
    let sc = crate::scenario::load_with(&a.scenario, &LoadOptions { allow_outside: a.allow_outside, ..Default::default() })?;
    let gsis: Vec<String> = sc.gsis.iter().map(|g| g.name.clone()).collect();
    let rec = crate::import::read_history(&a.metrics, &gsis)?;
    let opts = RunOptions { seed: a.seed, fidelity: a.fidelity.map(|f| f.fidelity()), ..RunOptions::default() };
    // Each calibration step is a simulation of the whole window: up to about 35 for the
    // skew (two families), 25 for the absorption bound, 21 for the fleet, and the calibrated
    // run.
    if a.calibrate {
        // Before the fit: a file it may not replace is refused at once.
        ours_to_replace(&calibrated_path(&a.scenario), a.force)?;
    }
    let work = if a.calibrate { guard::Work::replications(110) } else { guard::Work::ONE }.with_knobs(&[guard::Knob::FidelityFast]);
    guard::check_work(&sc, &opts, work)?;
    let out = a.out.as_ref().map(|d| Output::claim(d)).transpose()?;
    let fail = |e: backtest::BacktestError| CliError::Argument(format!("{}: {e}", a.scenario.display()));
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
        if let Some((_, after)) = calibrated {
            let history = a.metrics.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
            let window = format!("{} minutes from {}", b.minutes, b.start);
            let text = stamped(&calibrate::calibrated_text(&sc.source_text, &c, &history, &window));
            let path = calibrated_path(&a.scenario);
            // The fitted demand's traces first: the scenario that names them comes last.
            for (file, csv) in &c.traces {
                let trace = path.with_file_name(file);
                write_atomic(&trace, csv)?;
                written.push(trace);
            }
            write_atomic(&path, &text)?;
            crate::scenario::load_with(&path, &LoadOptions { allow_outside: true, ..Default::default() })?;
            written.push(path);
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

/// Writes `text` to `path` whole or not at all, readable by all as every output is (0644).
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::Output(crate::OutputError { path: path.to_path_buf(), source: e });
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut f = tempfile::Builder::new().prefix(".ddbsim-calibrated-").tempfile_in(&dir).map_err(fail)?;
    use std::os::unix::fs::PermissionsExt;
    f.write_all(text.as_bytes())
        .and_then(|()| f.as_file().set_permissions(std::fs::Permissions::from_mode(0o644)))
        .and_then(|()| f.as_file().sync_all())
        .map_err(fail)?;
    f.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
