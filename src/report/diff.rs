//! `ddbsim diff`'s words: the verdict and the side-by-side table for a terminal, and the
//! Markdown comment a bot posts on a pull request (GitHub's limit is 65,536 characters: the
//! line items are cut to fit, and say so).

use crate::format::{fmt_num, grouped, percent, usd, usd_window, window};
use crate::study::diff::{CostChange, CostGuardrail, Diff, HoldChange, Side};
use std::fmt::Write as _;

/// GitHub's largest comment, characters, less room for a bot's own footer.
pub const MARKDOWN_LIMIT: usize = 60_000;

/// Text safe inside a Markdown paragraph that starts with a word of ddbsim's: Markdown's
/// inline punctuation escaped, line breaks and other control or invisible characters made
/// spaces (a name from a definition can neither start a heading nor add a table column).
pub(super) fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if crate::scenario::validate::is_unprintable(c) {
            out.push(' ');
        } else {
            if "\\`*_[]<>#|~".contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// A file name as a Markdown code span on one line: control and invisible characters made
/// spaces, fenced by more backticks than any run inside it (CommonMark), so no name can end the
/// span, start a line or add a table column.
pub(super) fn code_span(s: &str) -> String {
    let clean = crate::scenario::validate::shown(s, usize::MAX);
    let longest = clean.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if clean.starts_with('`') || clean.ends_with('`') || longest > 0 { " " } else { "" };
    format!("{fence}{pad}{clean}{pad}{fence}")
}

/// Text safe inside an HTML element of the comment (`<summary>`, where Markdown is not
/// read): `&`, `<`, `>` as entities, line breaks and other control or invisible characters
/// made spaces.
pub(super) fn html_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if crate::scenario::validate::is_unprintable(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A signed window cost: `+$0.0375`, `-$12.40`.
pub(super) fn signed_usd(x: f64) -> String {
    if x >= 0.0 {
        format!("+{}", usd_window(x))
    } else {
        usd_window(x)
    }
}

/// A signed count: `+29,661`, `-12`, `0`.
fn signed_count(n: i64) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{}", grouped(n.unsigned_abs())),
        n => format!("-{}", grouped(n.unsigned_abs())),
    }
}

/// Cheaper, dearer or the same, by how much (a month when the windows repeat, with the
/// window's change, `over` it: "over the 10 min window") and by what share of the base's cost.
pub(super) fn cost_words(
    cost: CostChange,
    window_delta_usd: f64,
    monthly_delta_usd: Option<f64>,
    share: Option<f64>,
    over: &str,
) -> String {
    let share = share.map(|s| format!(" ({}{})", if s >= 0.0 { "+" } else { "-" }, percent(s.abs()))).unwrap_or_default();
    let span = match monthly_delta_usd {
        Some(m) => format!("{} a month (extrapolated; {} {over})", usd(m.abs()), usd_window(window_delta_usd.abs())),
        None => format!("{} {over}", usd_window(window_delta_usd.abs())),
    };
    match cost {
        CostChange::Cheaper => format!("CHEAPER by {span}{share}"),
        CostChange::Dearer => format!("DEARER by {span}{share}"),
        CostChange::Same => format!("SAME COST ({} {over})", signed_usd(window_delta_usd)),
    }
}

/// The cost guardrail's words when it was exceeded (`over`: " over the window"; `key`: the
/// setting's name), else nothing.
pub(super) fn guard_words(g: Option<&CostGuardrail>, over: &str, key: &str) -> String {
    match g {
        Some(g) if g.exceeded => format!(
            " · OVER THE COST GUARDRAIL: {} more{}, {} allowed ({key})",
            if g.monthly { usd(g.increase_usd) } else { usd_window(g.increase_usd) },
            if g.monthly { " a month" } else { over },
            if g.monthly { usd(g.allowed_usd) } else { usd_window(g.allowed_usd) }
        ),
        _ => String::new(),
    }
}

/// The verdict: cheaper or dearer (with the month when both windows repeat), and whether the
/// design still holds, in one line.
#[must_use]
pub fn headline(d: &Diff) -> String {
    let over = format!("over the {} window", window(d.duration_s));
    let cost = cost_words(d.cost, d.window_delta_usd, d.monthly_delta_usd, d.cost_change_share(), &over);
    let failing = |s: &Side| {
        format!(
            "{} of attempts throttled and {} requests failed, over the {} limit",
            percent(s.throttled_share),
            grouped(s.failed),
            percent(d.max_throttle)
        )
    };
    let holds = match d.holds {
        HoldChange::StillHolds => "STILL HOLDS".to_string(),
        HoldChange::NoLongerHolds => format!("NO LONGER HOLDS: {}", failing(&d.head)),
        HoldChange::NowHolds => format!("NOW HOLDS (base: {})", failing(&d.base)),
        HoldChange::StillFails => format!("STILL FAILS: {}", failing(&d.head)),
    };
    let guard = guard_words(d.guardrail.as_ref(), " over the window", "max_cost_increase");
    format!("{cost} · {holds}{guard}")
}

/// Rows of the side-by-side table: (what, base, head, change).
pub(super) fn rows(d: &Diff) -> Vec<[String; 4]> {
    let (b, h) = (&d.base, &d.head);
    let mut rows = vec![["window cost".to_string(), usd_window(b.window_usd), usd_window(h.window_usd), signed_usd(d.window_delta_usd)]];
    if let (Some(bm), Some(hm), Some(dm)) = (b.monthly_usd, h.monthly_usd, d.monthly_delta_usd) {
        rows.push(["monthly cost (extrapolated)".into(), usd(bm), usd(hm), if dm >= 0.0 { format!("+{}", usd(dm)) } else { usd(dm) }]);
    }
    let points = |x: f64| format!("{:+.2} pp", 100.0 * x);
    rows.push([
        "throttled attempts".into(),
        percent(b.throttled_share),
        percent(h.throttled_share),
        points(h.throttled_share - b.throttled_share),
    ]);
    rows.push(["failed requests".into(), grouped(b.failed), grouped(h.failed), signed_count(h.failed as i64 - b.failed as i64)]);
    for r in &h.resources {
        let before = b.resources.iter().find(|x| x.resource == r.resource);
        let (bp, be) = before.map_or(("-".to_string(), "-".to_string()), |x| (grouped(x.partitions), grouped(x.throttle_events)));
        let change = |n: u64, was: Option<u64>| was.map_or("new".to_string(), |w| signed_count(n as i64 - w as i64));
        rows.push([format!("{} partitions", r.resource), bp, grouped(r.partitions), change(r.partitions, before.map(|x| x.partitions))]);
        rows.push([
            format!("{} throttle events", r.resource),
            be,
            grouped(r.throttle_events),
            change(r.throttle_events, before.map(|x| x.throttle_events)),
        ]);
    }
    for r in b.resources.iter().filter(|r| !h.resources.iter().any(|x| x.resource == r.resource)) {
        rows.push([format!("{} partitions", r.resource), grouped(r.partitions), "-".into(), "removed".into()]);
    }
    let key =
        |s: &Side| s.busiest_key.as_ref().map_or("-".to_string(), |k| format!("{} {} {}/s", k.resource, k.key, fmt_num(k.requests_per_s)));
    rows.push(["busiest key".into(), key(b), key(h), String::new()]);
    rows
}

/// `table` in columns, the first left-aligned and the rest right-aligned.
pub(super) fn aligned<const N: usize>(out: &mut String, table: &[[String; N]]) {
    let width: Vec<usize> = (0..N).map(|c| table.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in table {
        let mut line = format!("{:<w$}", r[0], w = width[0]);
        for c in 1..N {
            let _ = write!(line, "  {:>w$}", r[c], w = width[c]);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The terminal text: the verdict, then the table, then the line items that changed.
#[must_use]
pub fn text(d: &Diff, base: &str, head: &str) -> String {
    let mut out = format!("ddbsim diff · {base} → {head} · {} window · seed {}\n\n{}\n\n", window(d.duration_s), d.seed, headline(d));
    let mut table = vec![["".to_string(), "base".into(), "head".into(), "change".into()]];
    table.extend(rows(d));
    aligned(&mut out, &table);
    let changed: Vec<_> = d.lines.iter().filter(|l| l.delta_usd.abs() >= 0.000_05).collect();
    if !changed.is_empty() {
        out.push_str("\nline items that changed (over the window):\n");
        for l in changed {
            let _ = writeln!(
                out,
                "  {} {}: {} → {} ({})",
                l.resource,
                l.item,
                usd_window(l.base_usd),
                usd_window(l.head_usd),
                signed_usd(l.delta_usd)
            );
        }
    }
    for n in &d.notes {
        let _ = writeln!(out, "\nnote: {n}");
    }
    out.push_str("\nCosts are estimates from simulated usage at the catalog's prices.\n");
    out
}

/// The pull-request comment: the verdict, the table, the line items (cut to fit GitHub's
/// limit), and how the figures were made; no links.
#[must_use]
pub fn markdown(d: &Diff, base: &str, head: &str) -> String {
    let mut out = format!(
        "### ddbsim diff: {} → {}\n\n**{}**\n\n| | base | head | change |\n|---|---:|---:|---:|\n",
        code_span(base),
        code_span(head),
        headline(d)
    );
    for r in rows(d) {
        let _ = writeln!(out, "| {} | {} | {} | {} |", r[0], r[1], r[2], r[3]);
    }
    let footer = format!(
        "\n_Estimates: both designs simulated by ddbsim {} with seed {} over {}; costs at the catalog's prices, throttling judged against {}._\n",
        env!("CARGO_PKG_VERSION"),
        d.seed,
        window(d.duration_s),
        percent(d.max_throttle)
    );
    let changed: Vec<_> = d.lines.iter().filter(|l| l.delta_usd.abs() >= 0.000_05).collect();
    if !changed.is_empty() {
        out.push_str("\n<details><summary>Line items that changed (over the window)</summary>\n\n| resource | item | base | head | change |\n|---|---|---:|---:|---:|\n");
        for (i, l) in changed.iter().enumerate() {
            let row = format!(
                "| {} | {} | {} | {} | {} |\n",
                l.resource,
                l.item,
                usd_window(l.base_usd),
                usd_window(l.head_usd),
                signed_usd(l.delta_usd)
            );
            if out.len() + row.len() + footer.len() + 200 > MARKDOWN_LIMIT {
                let _ = writeln!(out, "| … | {} more line items cut to fit the comment | | | |", changed.len() - i);
                break;
            }
            out.push_str(&row);
        }
        out.push_str("\n</details>\n");
    }
    for n in &d.notes {
        let _ = writeln!(out, "\n> {}", markdown_text(n));
    }
    out + &footer
}
