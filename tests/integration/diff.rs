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

/// Provisioned capacity over a window is billed time-weighted: units x hours x the hourly price.
const RCU_HOUR: f64 = 0.00013;
const WCU_HOUR: f64 = 0.00065;

fn provisioned(name: &str, read: u64, write: u64) -> String {
    format!(
        "[scenario]\nduration = \"10m\"\nseed = 3\n\n[table]\nname = \"{name}\"\npartition_key = \"id\"\n\
         capacity = {{ mode = \"provisioned\", read = {read}, write = {write} }}\n\n[keys.id]\ncardinality = 1000\n\n\
         [[pattern]]\nname = \"read\"\nop = \"get_item\"\nitem_bytes = 1000\nrate = {{ constant = 2 }}\n"
    )
}

fn design<'a>(d: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    d["designs"].as_array().unwrap().iter().find(|x| x["name"] == name).unwrap_or_else(|| panic!("no design {name}: {d}"))
}

/// Two folders, paired by file name: orders.toml changes its index's projection (the pair
/// above: ~-$0.0375), ledger.toml is removed (100 RCU and 50 WCU for 10 minutes:
/// (100 x 0.00013 + 50 x 0.00065) / 6 = $0.0075833 saved) and audit.toml added (20 and 20:
/// 20 x 0.00078 / 6 = $0.0026 more). The whole is the sum, and no longer holds because
/// orders.toml does not.
#[test]
fn two_folders_pair_by_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = (dir.path().join("base"), dir.path().join("head"));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::create_dir_all(&head).unwrap();
    std::fs::copy(BASE, base.join("orders.toml")).unwrap();
    std::fs::copy(HEAD, head.join("orders.toml")).unwrap();
    std::fs::write(base.join("ledger.toml"), provisioned("Ledger", 100, 50)).unwrap();
    std::fs::write(head.join("audit.toml"), provisioned("Audit", 20, 20)).unwrap();
    let (b, h) = (base.to_str().unwrap(), head.to_str().unwrap());
    let d = json(&["diff", b, h, "--json"]);
    let names: Vec<&str> = d["designs"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["audit.toml", "ledger.toml", "orders.toml"]);
    let (audit, ledger, orders) = (design(&d, "audit.toml"), design(&d, "ledger.toml"), design(&d, "orders.toml"));
    assert_eq!(
        (audit["status"].as_str(), ledger["status"].as_str(), orders["status"].as_str()),
        (Some("added"), Some("removed"), Some("changed"))
    );
    let ledger_usd = ledger["base"]["window_usd"].as_f64().unwrap();
    let audit_usd = audit["head"]["window_usd"].as_f64().unwrap();
    assert!((ledger_usd - (100.0 * RCU_HOUR + 50.0 * WCU_HOUR) / 6.0).abs() < 1e-9, "{ledger_usd}");
    assert!((audit_usd - 20.0 * (RCU_HOUR + WCU_HOUR) / 6.0).abs() < 1e-9, "{audit_usd}");
    let orders_delta = orders["diff"]["window_delta_usd"].as_f64().unwrap();
    assert!((orders_delta / -0.0375 - 1.0).abs() < 0.05, "{orders_delta}");
    let total = d["window_delta_usd"].as_f64().unwrap();
    assert!((total - (orders_delta - ledger_usd + audit_usd)).abs() < 1e-12, "{total}");
    assert_eq!((d["cost"].as_str(), d["holds"].as_str()), (Some("cheaper"), Some("no_longer_holds")));
    let o = ddbsim(&["diff", b, h, "--markdown"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(md.contains("3 designs: 1 changed, 1 added, 1 removed · NO LONGER HOLDS: orders.toml**"), "{md}");
    assert!(md.contains("| ledger.toml | removed | $0.0076 | - | -$0.0076 | holds → - |"), "{md}");
    assert!(md.contains("| audit.toml | added | - | $0.0026 | +$0.0026 | - → holds |"), "{md}");
    assert!(md.contains("<details><summary>orders.toml: CHEAPER by $0.03"), "{md}");
    // Swapped, the whole is dearer by as much: over a guardrail of a cent, exit 3.
    let o = ddbsim(&["diff", h, b, "--max-cost-increase", "0.01"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{text}");
    assert!(
        text.contains("DEARER by $0.04") && text.contains("OVER THE COST GUARDRAIL") && text.contains("\norders.toml · seed 5\n"),
        "{text}"
    );
}

/// Two revisions of a CloudFormation template (tests/fixtures/diff/): Orders moves from 800
/// RCU / 300 WCU provisioned to on-demand, Ledger (10/10) goes, Audit (20/20) comes. With no
/// history, import assumes traffic at half the provisioned capacity, and both revisions of
/// Orders take the base's: 400 strongly consistent reads and 150 writes a second of 1 KB
/// items for the hour import assumes. Base Orders' capacity: 800 x 0.00013 + 300 x 0.00065 =
/// $0.299; head Orders' requests: 1,440,000 RRU x $0.125 + 540,000 WRU x $0.625 a million = $0.5175 (Poisson
/// arrivals: within 1 %). Ledger: $0.0078 saved; Audit: $0.0156 more.
#[test]
fn two_revisions_of_a_template_share_one_traffic_model() {
    let (b, h) = ("tests/fixtures/diff/base.yaml", "tests/fixtures/diff/head.yaml");
    let d = json(&["diff", b, h, "--json"]);
    let orders = &design(&d, "Orders")["diff"];
    // Capacity and request lines (the items the hour's writes add bill a little storage too).
    let capacity = |side: &str| line(orders, "Orders", "reads", side) + line(orders, "Orders", "writes", side);
    assert!((capacity("base_usd") - 0.299).abs() < 1e-9, "{}", capacity("base_usd"));
    assert!((capacity("head_usd") / 0.5175 - 1.0).abs() < 0.01, "{}", capacity("head_usd"));
    let reads = line(orders, "Orders", "reads", "head_usd");
    assert!((reads / 0.18 - 1.0).abs() < 0.01, "head's reads are base's traffic, 400 a second: {reads}");
    let ledger = design(&d, "Ledger")["base"]["window_usd"].as_f64().unwrap();
    let audit = design(&d, "Audit")["head"]["window_usd"].as_f64().unwrap();
    assert!(
        (ledger - 10.0 * (RCU_HOUR + WCU_HOUR)).abs() < 1e-4 && (audit - 20.0 * (RCU_HOUR + WCU_HOUR)).abs() < 1e-4,
        "{ledger} {audit}"
    );
    assert_eq!((d["cost"].as_str(), d["holds"].as_str()), (Some("dearer"), Some("still_holds")));
    // One table of each: the single diff, its traffic still the base's.
    let one = json(&["diff", b, h, "--table", "Orders", "--json"]);
    assert!((one["window_delta_usd"].as_f64().unwrap() - orders["window_delta_usd"].as_f64().unwrap()).abs() < 1e-12);
    // A history is one table's: several tables need --table.
    let o = ddbsim(&["diff", b, h, "--metrics", "tests/fixtures/import/metric-data-5m.json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("--metrics") && err.contains("choose one with --table"), "{err}");
    let o = ddbsim(&["diff", b, h, "--table", "Nope"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("no table named Nope") && err.contains("Orders") && err.contains("Ledger"), "{err}");
}

/// With a history, both revisions replay it: the bundled describe-table (400 RCU / 150 WCU
/// provisioned) against the same table on-demand, over metric-data-5m.json's two hours. The
/// history records 7,200,000 consumed read units of the table and no read throttling, so
/// on-demand reads cost 7.2 M x $0.125 a million = $0.90 (within 2 %: the replay draws its
/// requests). The provisioned base bills its own definition's capacity.
#[test]
fn two_revisions_replay_one_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut def: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/fixtures/import/describe-table.json").unwrap()).unwrap();
    def["Table"]["BillingModeSummary"]["BillingMode"] = "PAY_PER_REQUEST".into();
    def["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"] = 0.into();
    def["Table"]["ProvisionedThroughput"]["WriteCapacityUnits"] = 0.into();
    let head = dir.path().join("on-demand.json");
    std::fs::write(&head, def.to_string()).unwrap();
    let d = json(&[
        "diff",
        "tests/fixtures/import/describe-table.json",
        head.to_str().unwrap(),
        "--metrics",
        "tests/fixtures/import/metric-data-5m.json",
        "--json",
    ]);
    assert_eq!(d["duration_s"], 7_200);
    let reads = line(&d, "Orders", "reads", "head_usd");
    assert!((reads / 0.90 - 1.0).abs() < 0.02, "{reads}");
    // Base is simulated at its own definition's 400 RCU, not the 1,200 the history records
    // (each side's capacity is its definition's; the demand is the history's): 400 RCU for 2
    // hours at $0.00013 = $0.104, and a note says so.
    let base_reads = line(&d, "Orders", "reads", "base_usd");
    assert!((base_reads - 400.0 * 2.0 * RCU_HOUR).abs() < 1e-6, "{base_reads}");
    let note = d["notes"][0].as_str().unwrap();
    assert!(note.contains("capacity from this definition (400 RCU / 150 WCU), not the history's recorded 1,200 / 300"), "{note}");
    let o = ddbsim(&["diff", BASE, HEAD, "--metrics", "tests/fixtures/import/metric-data-5m.json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("--metrics: the history is for table definitions"), "{err}");
}
