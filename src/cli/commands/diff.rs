//! `ddbsim diff BASE HEAD`: two designs on one seed, side by side — two scenarios, two folders
//! of them, or two revisions of a table definition on one traffic model; exit 3 when the change
//! costs more than its cost guardrail allows.

use super::super::args::{catalog_arg, duration_arg, share_arg, DiffArgs};
use super::super::CliError;
use crate::engine::RunOptions;
use crate::guard;
use crate::import::TableDef;
use crate::scenario::{CostIncrease, LoadOptions, Scenario};
use crate::study::diff::set::Design;
use crate::study::diff::HoldChange;
use std::io::Write as _;
use std::path::Path;

/// One side as read: its designs, the definitions it imported (their traffic is the head's
/// when there is no history), and whether it is a set (a folder, or a definition of several
/// tables) rather than one design.
struct SideInput {
    designs: Vec<Design>,
    defs: Vec<TableDef>,
    set: bool,
    /// Where an imported revision's capacity came from (with a history).
    notes: Vec<String>,
}

/// The scenarios of folder `dir`, by file name.
fn folder(dir: &Path, a: &DiffArgs, load: &LoadOptions) -> Result<Vec<Design>, CliError> {
    super::scenario_files(dir)?.iter().map(|f| scenario_design(f, a, load)).collect()
}

fn scenario_design(path: &Path, a: &DiffArgs, load: &LoadOptions) -> Result<Design, CliError> {
    let scenario = crate::scenario::load_with(path, load)?;
    design(path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned()), scenario, a)
}

fn design(name: String, scenario: Scenario, a: &DiffArgs) -> Result<Design, CliError> {
    let catalog = catalog_arg(a.prices.as_ref(), &scenario)?;
    Ok(Design { name, scenario, catalog })
}

/// The tables of definition `path`, each imported with `--metrics` into `staging` and loaded;
/// without a history, a table's traffic is the one `import` assumes from `traffic`'s
/// definition of the same name (the base's), where there is one.
fn definition(path: &Path, a: &DiffArgs, staging: &Path, traffic: &[TableDef]) -> Result<SideInput, CliError> {
    let mut names = crate::import::table_names(&[path.to_path_buf()])?;
    if let Some(t) = &a.table {
        if !names.contains(t) {
            return Err(CliError::Argument(format!("{}: no table named {t}; it defines {}", path.display(), names.join(", "))));
        }
        names = vec![t.clone()];
    }
    if names.is_empty() {
        return Err(CliError::Argument(format!("{}: no DynamoDB table in this definition", path.display())));
    }
    if !a.metrics.is_empty() && names.len() > 1 {
        return Err(CliError::Argument(format!(
            "--metrics: a history is one table's, and {} defines {} tables ({}): choose one with --table",
            path.display(),
            names.len(),
            names.join(", ")
        )));
    }
    let (mut designs, mut defs, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    for name in &names {
        let stem: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
        let base = traffic.iter().find(|t| &t.name == name);
        let imported = crate::import::import_with_traffic(&[path.to_path_buf()], &a.metrics, Some(name), &stem, base, true)?;
        notes.extend(imported.capacity_notes.iter().map(|n| format!("{}: {n}", path.display())));
        let dir = staging.join(&stem);
        let fail = |p: &Path, e: std::io::Error| CliError::Output(crate::OutputError { path: p.to_path_buf(), source: e });
        std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
        for (n, text) in
            imported.traces.iter().map(|(n, t)| (n.as_str(), t.as_str())).chain([("scenario.toml", imported.scenario.as_str())])
        {
            let p = dir.join(n);
            std::fs::write(&p, text).map_err(|e| fail(&p, e))?;
        }
        let scenario = crate::scenario::load(&dir.join("scenario.toml"))?;
        designs.push(design(name.clone(), scenario, a)?);
        defs.push(imported.table);
    }
    Ok(SideInput { set: designs.len() > 1, designs, defs, notes })
}

/// Reads one side: a folder, a scenario, or a definition.
fn side(path: &Path, a: &DiffArgs, load: &LoadOptions, staging: &Path, traffic: &[TableDef]) -> Result<SideInput, CliError> {
    if path.is_dir() {
        return Ok(SideInput { designs: folder(path, a, load)?, defs: Vec::new(), set: true, notes: Vec::new() });
    }
    if path.extension().is_some_and(|x| x == "toml") {
        return Ok(SideInput { designs: vec![scenario_design(path, a, load)?], defs: Vec::new(), set: false, notes: Vec::new() });
    }
    definition(path, a, staging, traffic)
}

/// Prints a diff as `--json` (the document), `--markdown` (the pull-request comment) or text
/// (with its headline coloured by whether the head holds).
fn print<D: serde::Serialize>(
    a: &DiffArgs,
    d: &D,
    holds: HoldChange,
    markdown: impl FnOnce() -> String,
    text: impl FnOnce() -> (String, String),
) {
    let mut out = std::io::stdout().lock();
    let bytes = if a.json {
        crate::report::json_bytes(d)
    } else if a.markdown {
        markdown().into_bytes()
    } else {
        let (text, headline) = text();
        let holds = !matches!(holds, HoldChange::NoLongerHolds | HoldChange::StillFails);
        super::colour_verdict(text, &headline, holds).into_bytes()
    };
    let _ = out.write_all(&bytes);
}

/// Runs the diff: the text, `--json` (diff.json) or `--markdown` (the pull-request comment).
pub(in crate::cli) fn diff(a: &DiffArgs) -> Result<(), CliError> {
    let load = LoadOptions { allow_outside: a.allow_outside, ..Default::default() };
    let staging = tempfile::Builder::new()
        .prefix("ddbsim-diff-")
        .tempdir()
        .map_err(|e| CliError::Output(crate::OutputError { path: std::env::temp_dir(), source: e }))?;
    let base = side(&a.base, a, &load, &staging.path().join("base"), &[])?;
    let head = side(&a.head, a, &load, &staging.path().join("head"), &base.defs)?;
    if !a.metrics.is_empty() && base.defs.is_empty() && head.defs.is_empty() {
        return Err(CliError::Argument("--metrics: the history is for table definitions; BASE and HEAD are scenarios".into()));
    }
    let max_throttle = share_arg(&a.max_throttle)?;
    let opts = RunOptions { seed: a.seed, duration: duration_arg(a.duration.as_ref())?, ..RunOptions::default() };
    let base_duration = base.designs.first().map(|d| d.scenario.duration);
    for d in base.designs.iter().chain(&head.designs) {
        let mut o = opts.clone();
        o.duration = o.duration.or(base_duration);
        guard::check_work(&d.scenario, &o, guard::Work::ONE.without_charts())?;
    }
    let limit = a
        .max_cost_increase
        .as_deref()
        .map(CostIncrease::parse)
        .transpose()
        .map_err(|e| CliError::Argument(format!("--max-cost-increase: {e}")))?;
    let (b, h) = (a.base.display().to_string(), a.head.display().to_string());
    let over = if base.set || head.set {
        let d = crate::study::diff::set::diff_sets(&base.designs, &head.designs, &opts, max_throttle, limit);
        use crate::report::diff_set::{headline_set, markdown_set, text_set};
        print(a, &d, d.holds, || markdown_set(&d, &b, &h), || (text_set(&d, &b, &h), headline_set(&d)));
        d.over_guardrail
    } else {
        let (bd, hd) = (&base.designs[0], &head.designs[0]);
        let mut d = crate::study::diff::diff(&bd.scenario, &hd.scenario, &opts, [&bd.catalog, &hd.catalog], max_throttle, limit);
        d.notes = base.notes.iter().map(|n| format!("base {n}")).chain(head.notes.iter().map(|n| format!("head {n}"))).collect();
        use crate::report::diff::{headline, markdown, text};
        print(a, &d, d.holds, || markdown(&d, &b, &h), || (text(&d, &b, &h), headline(&d)));
        d.guardrail.is_some_and(|g| g.exceeded)
    };
    if over {
        return Err(CliError::CheckFailed(format!("diff: {h} costs more than max_cost_increase allows over {b}")));
    }
    Ok(())
}
