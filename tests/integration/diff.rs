//! `ddbsim diff`: two bundled designs that differ by a GSI's projection (scenarios/diff/),
//! their cost and throttling deltas against the figures worked by hand in their comments, the
//! pull-request comment pinned, and the cost guardrail's exit code.

use super::ddbsim;

const BASE: &str = "scenarios/diff/keys-only.toml";
const HEAD: &str = "scenarios/diff/all.toml";
/// On-demand write request units, us-east-1, USD each.
const WRU_USD: f64 = 0.625e-6;

fn json(args: &[&str]) -> serde_json::Value {
    let o = ddbsim(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn line(d: &serde_json::Value, resource: &str, item: &str, side: &str) -> f64 {
    d["lines"].as_array().unwrap().iter().find(|l| l["resource"] == resource && l["item"] == item).unwrap()[side].as_f64().unwrap()
}

/// Base: each of ~60,000 puts (100 a second for 10 minutes, Poisson) costs 3 WRU on the table
/// (2,500 bytes) and 1 on the keys-only index: $0.1500 for 60,000, and the table's writes are
/// exactly three times the index's. Head: the index entry is the whole item (3 WRU) and the
/// index's maximum of 150 WRU a second admits 50 puts a second, so 30,000 are written — the
/// table's and the index's writes equal, $0.1125 in all — and the rest (half) fail, each one
/// index throttle event. Both runs see the same arrivals: head's written plus failed is
/// base's written. Cheaper by ~$0.0375, and no longer holds.
#[test]
fn a_projection_change_is_cheaper_and_no_longer_holds() {
    let d = json(&["diff", BASE, HEAD, "--json"]);
    let (b_table, b_index) = (line(&d, "Orders", "writes", "base_usd"), line(&d, "ByStatus", "writes", "base_usd"));
    let (h_table, h_index) = (line(&d, "Orders", "writes", "head_usd"), line(&d, "ByStatus", "writes", "head_usd"));
    assert!((b_table / b_index - 3.0).abs() < 1e-9 && (h_table / h_index - 1.0).abs() < 1e-9, "{b_table} {b_index} {h_table} {h_index}");
    let base_puts = b_table / (3.0 * WRU_USD);
    let head_puts = h_table / (3.0 * WRU_USD);
    let failed = d["head"]["failed"].as_f64().unwrap();
    assert!((head_puts + failed - base_puts).abs() < 0.5, "{head_puts} + {failed} vs {base_puts}");
    assert_eq!(d["base"]["failed"], 0);
    let index_events = d["head"]["resources"].as_array().unwrap().iter().find(|r| r["resource"] == "ByStatus").unwrap()["throttle_events"]
        .as_f64()
        .unwrap();
    assert_eq!(index_events, failed);
    let (bw, hw) = (d["base"]["window_usd"].as_f64().unwrap(), d["head"]["window_usd"].as_f64().unwrap());
    assert!((bw / 0.15 - 1.0).abs() < 0.015 && (hw / 0.1125 - 1.0).abs() < 0.01, "{bw} {hw}");
    let delta = d["window_delta_usd"].as_f64().unwrap();
    assert!((delta / -0.0375 - 1.0).abs() < 0.05 && (delta - (hw - bw)).abs() < 1e-12, "{delta}");
    let share = d["head"]["throttled_share"].as_f64().unwrap();
    assert!((share - 0.5).abs() < 0.01, "{share}");
    assert_eq!((d["cost"].as_str(), d["holds"].as_str()), (Some("cheaper"), Some("no_longer_holds")));
    assert!(d["guardrail"].is_null() && d["monthly_delta_usd"].is_null());
    let o = ddbsim(&["diff", BASE, HEAD]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && text.contains("\nCHEAPER by $0.03") && text.contains("NO LONGER HOLDS: 49."), "{text}");
}

/// The comment a bot posts, whole: verdict, table, line items, how it was made.
#[test]
fn the_pull_request_comment_is_pinned() {
    let o = ddbsim(&["diff", BASE, HEAD, "--markdown"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = "### ddbsim diff: `scenarios/diff/keys-only.toml` → `scenarios/diff/all.toml`

**CHEAPER by $0.0366 over the 10 min window (-24.5 %) · NO LONGER HOLDS: 49.7 % of attempts throttled and 29,661 requests failed, over the 0.10 % limit**

| | base | head | change |
|---|---:|---:|---:|
| window cost | $0.1493 | $0.1127 | -$0.0366 |
| throttled attempts | 0.0 % | 49.7 % | +49.68 pp |
| failed requests | 0 | 29,661 | +29,661 |
| Orders partitions | 4 | 4 | 0 |
| Orders throttle events | 0 | 0 | 0 |
| ByStatus partitions | 4 | 4 | 0 |
| ByStatus throttle events | 0 | 29,661 | +29,661 |
| busiest key | ByStatus status#1 0.100/s | ByStatus status#1 0.100/s |  |

<details><summary>Line items that changed (over the window)</summary>

| resource | item | base | head | change |
|---|---|---:|---:|---:|
| Orders | writes | $0.1120 | $0.0563 | -$0.0556 |
| ByStatus | writes | $0.0373 | $0.0563 | +$0.0190 |

</details>

_Estimates: both designs simulated by ddbsim 0.1.0 with seed 5 over 10 min; costs at the catalog's prices, throttling judged against 0.10 %._
".replace("0.1.0", env!("CARGO_PKG_VERSION"));
    assert_eq!(String::from_utf8_lossy(&o.stdout), want);
}

/// Undoing the change (head keys-only, base all) makes it dearer by the same ~$0.0366 over the
/// window: 32 % of all.toml's $0.1127, over a 10 % guardrail ($0.0113) and under a $0.05 one.
/// The guardrail comes from the flag or from head's `[check] max_cost_increase`.
#[test]
fn a_cost_guardrail_fails_the_diff_with_its_figure() {
    let o = ddbsim(&["diff", HEAD, BASE, "--max-cost-increase", "10%"]);
    assert_eq!(o.status.code(), Some(3));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("OVER THE COST GUARDRAIL: $0.03") && out.contains("$0.0113 allowed (max_cost_increase)"), "{out}");
    let o = ddbsim(&["diff", HEAD, BASE, "--max-cost-increase", "0.05"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let dir = tempfile::tempdir().unwrap();
    let head = dir.path().join("keys-only.toml");
    let text = std::fs::read_to_string(BASE).unwrap();
    std::fs::write(&head, format!("{text}\n[check]\nmax_cost_increase = \"10%\"\n")).unwrap();
    let o = ddbsim(&["diff", HEAD, head.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(d["guardrail"]["exceeded"], true);
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, format!("{text}\n[check]\nmax_cost_increase = \"ten percent\"\n")).unwrap();
    let o = ddbsim(&["diff", HEAD, bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("check.max_cost_increase") && err.contains("\"10%\""), "{err}");
}
