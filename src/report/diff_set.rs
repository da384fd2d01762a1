//! `ddbsim diff`'s words for sets of designs (two folders, or two revisions of a definition
//! with several tables): the verdict on the whole, a row per design, then each changed
//! design's own table — for a terminal, and as the pull-request comment (cut to fit
//! GitHub's limit, and saying so).

use super::diff::{aligned, code_span, cost_words, guard_words, headline, html_text, markdown_text, rows, signed_usd, MARKDOWN_LIMIT};
use crate::format::{percent, usd_window};
use crate::study::diff::set::{Change, SetDiff};
use crate::study::diff::{CostChange, HoldChange};
use std::fmt::Write as _;

/// The names of the designs for which `pick` says true, joined.
fn named(d: &SetDiff, pick: impl Fn(&Change) -> bool) -> String {
    d.designs.iter().filter(|c| pick(c)).map(Change::name).collect::<Vec<_>>().join(", ")
}

/// The verdict on the whole: cheaper or dearer (a month when every window repeats), how many
/// designs changed, were added and removed, and whether every design still holds.
#[must_use]
pub fn headline_set(d: &SetDiff) -> String {
    let cost = cost_words(d.cost, d.window_delta_usd, d.monthly_delta_usd, d.cost_change_share(), "over the windows");
    let count = |f: fn(&Change) -> bool| d.designs.iter().filter(|c| f(c)).count();
    let counts = format!(
        "{} designs: {} changed, {} added, {} removed",
        d.designs.len(),
        count(|c| matches!(c, Change::Changed { .. })),
        count(|c| matches!(c, Change::Added { .. })),
        count(|c| matches!(c, Change::Removed { .. }))
    );
    let failing = named(d, |c| c.holds().1 == Some(false));
    let failed = named(d, |c| c.holds().0 == Some(false));
    let holds = match d.holds {
        HoldChange::StillHolds => "EVERY DESIGN STILL HOLDS".to_string(),
        HoldChange::NoLongerHolds => format!("NO LONGER HOLDS: {failing}"),
        HoldChange::NowHolds => format!("NOW HOLDS (base failed: {failed})"),
        HoldChange::StillFails => format!("STILL FAILS: {failing}"),
    };
    let guard = guard_words(d.guardrail.as_ref(), " over the windows", "--max-cost-increase");
    let own = named(d, |c| matches!(c, Change::Changed { diff, .. } if diff.guardrail.as_ref().is_some_and(|g| g.exceeded)));
    let own = if own.is_empty() { String::new() } else { format!(" · OVER ITS OWN max_cost_increase: {own}") };
    format!("{cost} · {counts} · {holds}{guard}{own}")
}

/// A row per design: (design, change, base, head, cost change, holds).
fn summary(d: &SetDiff) -> Vec<[String; 6]> {
    let held = |h: Option<bool>| match h {
        Some(true) => "holds",
        Some(false) => "fails",
        None => "-",
    };
    d.designs
        .iter()
        .map(|c| {
            let (b, h) = c.window_usd();
            let (hb, hh) = c.holds();
            let status = match c {
                Change::Changed { diff, .. } => match diff.cost {
                    CostChange::Cheaper => "cheaper",
                    CostChange::Dearer => "dearer",
                    CostChange::Same => "same",
                },
                Change::Added { .. } => "added",
                Change::Removed { .. } => "removed",
            };
            let side = |present: bool, x: f64| if present { usd_window(x) } else { "-".into() };
            [
                c.name().to_string(),
                status.into(),
                side(hb.is_some(), b),
                side(hh.is_some(), h),
                signed_usd(h - b),
                format!("{} → {}", held(hb), held(hh)),
            ]
        })
        .collect()
}

/// The terminal text: the verdict, a row per design, then each changed design's table.
#[must_use]
pub fn text_set(d: &SetDiff, base: &str, head: &str) -> String {
    let seed = d.seed.map_or("each base's seed".to_string(), |s| format!("seed {s}"));
    let mut out = format!("ddbsim diff · {base} → {head} · {seed}\n\n{}\n\n", headline_set(d));
    let mut table = vec![["design", "change", "base", "head", "cost change", "holds"].map(String::from)];
    table.extend(summary(d));
    aligned(&mut out, &table);
    for c in &d.designs {
        if let Change::Changed { name, diff } = c {
            let _ = write!(out, "\n{name} · seed {}\n{}\n", diff.seed, headline(diff));
            let mut t = vec![["".to_string(), "base".into(), "head".into(), "change".into()]];
            t.extend(rows(diff));
            aligned(&mut out, &t);
        }
    }
    out.push_str("\nCosts are estimates from simulated usage at the catalog's prices.\n");
    out
}

/// The pull-request comment for sets: the verdict, a row per design, and each changed design's
/// table folded under it, cut to fit GitHub's limit.
#[must_use]
pub fn markdown_set(d: &SetDiff, base: &str, head: &str) -> String {
    let mut out = format!(
        "### ddbsim diff: {} → {}\n\n**{}**\n\n| design | change | base | head | cost change | holds |\n|---|---|---:|---:|---:|---|\n",
        code_span(base),
        code_span(head),
        headline_set(d)
    );
    for mut r in summary(d) {
        r[0] = markdown_text(&r[0]);
        let _ = writeln!(out, "| {} |", r.join(" | "));
    }
    let footer = format!(
        "\n_Estimates: each pair simulated by ddbsim {} on one seed ({}); costs at the catalog's prices, throttling judged against {}._\n",
        env!("CARGO_PKG_VERSION"),
        d.seed.map_or("the base's".to_string(), |s| s.to_string()),
        percent(d.max_throttle)
    );
    let changed: Vec<_> =
        d.designs.iter().filter_map(|c| if let Change::Changed { name, diff } = c { Some((name, diff)) } else { None }).collect();
    for (i, (name, diff)) in changed.iter().enumerate() {
        let mut block = format!(
            "\n<details><summary>{}: {}</summary>\n\n| | base | head | change |\n|---|---:|---:|---:|\n",
            html_text(name),
            headline(diff)
        );
        for r in rows(diff) {
            let _ = writeln!(block, "| {} | {} | {} | {} |", r[0], r[1], r[2], r[3]);
        }
        block.push_str("\n</details>\n");
        if out.len() + block.len() + footer.len() + 200 > MARKDOWN_LIMIT {
            let _ = writeln!(out, "\n_{} more designs' tables cut to fit the comment._", changed.len() - i);
            break;
        }
        out.push_str(&block);
    }
    out + &footer
}
