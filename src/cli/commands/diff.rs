//! `ddbsim diff BASE HEAD`: two designs on one seed, side by side; exit 3 when the change
//! costs more than its cost guardrail allows.

use super::super::args::{catalog_arg, duration_arg, share_arg, DiffArgs};
use super::super::CliError;
use crate::engine::RunOptions;
use crate::guard;
use crate::scenario::{CostIncrease, LoadOptions};
use crate::study::diff::HoldChange;
use std::io::Write as _;

/// Runs the diff: the text, `--json` (diff.json) or `--markdown` (the pull-request comment).
pub(in crate::cli) fn diff(a: &DiffArgs) -> Result<(), CliError> {
    let load = LoadOptions { allow_outside: a.allow_outside };
    let base = crate::scenario::load_with(&a.base, &load)?;
    let head = crate::scenario::load_with(&a.head, &load)?;
    let catalogs = [catalog_arg(a.prices.as_ref(), &base)?, catalog_arg(a.prices.as_ref(), &head)?];
    let max_throttle = share_arg(&a.max_throttle)?;
    let opts = RunOptions { seed: a.seed, duration: duration_arg(a.duration.as_ref())?, ..RunOptions::default() };
    for sc in [&base, &head] {
        let mut o = opts.clone();
        o.duration = o.duration.or(Some(base.duration));
        guard::check_work(sc, &o, guard::Work::ONE.without_charts())?;
    }
    let limit = a
        .max_cost_increase
        .as_deref()
        .map(CostIncrease::parse)
        .transpose()
        .map_err(|e| CliError::Argument(format!("--max-cost-increase: {e}")))?;
    let d = crate::study::diff::diff(&base, &head, &opts, [&catalogs[0], &catalogs[1]], max_throttle, limit);
    let (b, h) = (a.base.display().to_string(), a.head.display().to_string());
    let mut out = std::io::stdout().lock();
    if a.json {
        let _ = out.write_all(&crate::report::json_bytes(&d));
    } else if a.markdown {
        let _ = out.write_all(crate::report::diff::markdown(&d, &b, &h).as_bytes());
    } else {
        let holds = !matches!(d.holds, HoldChange::NoLongerHolds | HoldChange::StillFails);
        let _ = out
            .write_all(super::colour_verdict(crate::report::diff::text(&d, &b, &h), &crate::report::diff::headline(&d), holds).as_bytes());
    }
    match &d.guardrail {
        Some(g) if g.exceeded => Err(CliError::CheckFailed(format!(
            "diff: {} costs more than max_cost_increase allows over {}",
            a.head.display(),
            a.base.display()
        ))),
        _ => Ok(()),
    }
}
