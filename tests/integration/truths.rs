//! Truths: tables whose parameters are known, simulated, their CloudWatch history exported as
//! `get-metric-data` writes it (the per-reason throttle metrics where the case says CloudWatch
//! had them), imported from the definition and that history only — as a user's table would be
//! — and fitted with `backtest --calibrate`. Each calibrated model must reproduce the record
//! (consumed units and throttle events within 15 %), each fitted parameter's interval must
//! hold the truth, and a fix priced on the calibrated model must cure the truth too. The truth's
//! parameters are read only to compare.

use super::{ddbsim, scenario};
use ddbsim::{RunOptions, RunResult, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// 2026-11-01T00:00:00Z, the truths' start.
const START: i64 = 1_793_491_200;

/// What CloudWatch publishes of run `r` of `sc`, as get-metric-data JSON (the library's
/// exporter, which the calibration bench uses too).
fn history(sc: &Scenario, r: &RunResult, reasons: bool) -> Vec<u8> {
    ddbsim::bench_support::history::get_metric_data(sc, r, START, reasons)
}

/// One truth: its scenario, its definition as describe-table writes it, and whether its
/// history has the per-reason throttle metrics.
struct Truth<'a> {
    text: &'a str,
    definition: &'a str,
    reasons: bool,
}

/// The fitted parameter `p`'s interval holds the truth.
fn interval_holds(p: &Value, truth: f64) {
    assert!(p["low"].as_f64().unwrap() <= truth && truth <= p["high"].as_f64().unwrap(), "{p}");
}

/// A calibrated truth: the folder, the imported scenario, the truth, and `backtest.json`.
struct Calibrated {
    dir: tempfile::TempDir,
    truth_text: String,
    doc: Value,
}

impl Calibrated {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The fitted parameter at `path`.
    fn parameter(&self, path: &str) -> &Value {
        let ps = self.doc["calibration"]["parameters"].as_array().unwrap();
        ps.iter().find(|p| p["path"] == path).unwrap_or_else(|| panic!("no {path} in {}", self.doc["calibration"]))
    }

    /// Every consumed-units and throttle-events series of the calibrated backtest within 15 %
    /// of the record (two quiet event series agree), and the verdict FITS.
    fn reproduces_the_record(&self) {
        for f in self.doc["series"].as_array().unwrap() {
            let metric = f["metric"].as_str().unwrap();
            if metric.starts_with("Provisioned") {
                continue;
            }
            let (sim, rec) = (f["simulated"].as_f64().unwrap(), f["recorded"].as_f64().unwrap());
            let minutes = f["minutes"].as_f64().unwrap();
            let quiet = metric.contains("Throttle") && sim < minutes && rec < minutes;
            assert!(
                quiet || (rec == 0.0 && sim == 0.0) || (rec > 0.0 && (sim / rec - 1.0).abs() <= 0.15),
                "{} {metric}: {sim} of {rec}\n{}",
                f["resource"],
                self.doc
            );
        }
        assert_eq!(self.doc["verdict"]["fits"], true, "{}", self.doc["verdict"]);
    }
}

impl Calibrated {
    /// The write sharding `ddbsim shards` picks on the calibrated model for key space `key`,
    /// applied to the truth (after its `section` header): the truth no longer throttles (at
    /// most 0.1 % of its attempts, the explorer's own bar).
    fn shards_cure_the_truth(&self, key: &str, section: &str) {
        let out = self.path("shards");
        let o = ddbsim(&[
            "shards",
            s(&self.path("table.calibrated.toml")),
            "--key",
            key,
            "--by",
            "hash",
            "--replications",
            "3",
            "--max",
            "16",
            "--json",
            "--quiet",
            "--out",
            s(&out),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
        let n = doc["recommended"].as_u64().unwrap_or_else(|| panic!("no shard count cures the calibrated model: {doc}"));
        assert!(n > 1, "the calibrated model throttles, so it needs shards: {doc}");
        let fixed = scenario(&self.truth_text.replace(section, &format!("{section}\nshards = {{ count = {n}, by = \"hash\" }}")));
        let t = ddbsim::simulate(&fixed, &RunOptions::default()).totals();
        let share = t.throttled_share();
        assert!(share <= 0.001, "{n} shards leave the truth throttling {share}");
    }
}

/// Runs `t`, exports its history, imports the definition and history, and calibrates.
fn calibrate(t: &Truth) -> Calibrated {
    let truth = scenario(t.text);
    let r = ddbsim::simulate(&truth, &RunOptions::default());
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("metrics.json");
    std::fs::write(&m, history(&truth, &r, t.reasons)).unwrap();
    let def = dir.path().join("table.json");
    std::fs::write(&def, t.definition).unwrap();
    let sc = dir.path().join("table.toml");
    let o = ddbsim(&["import", s(&def), "--metrics", s(&m), "--out", s(&sc)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = ddbsim(&["backtest", s(&sc), "--metrics", s(&m), "--calibrate", "--json"]);
    assert!(o.status.code().is_some_and(|c| c == 0 || c == 3), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    if let Ok(keep) = std::env::var("TRUTHS_KEEP") {
        let _ = std::process::Command::new("cp").args(["-r", s(dir.path()), &keep]).status();
    }
    Calibrated { dir, truth_text: t.text.to_string(), doc }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// One hot key takes 35 % of 3,000 writes a second (1,050 a second on a partition that serves
/// 1,000) on a table with room (6,000 WCU); the client retries (sdk-2026). The history records
/// every throttled attempt, retries included, so the import's demand overstated the writes,
/// and the table's capacity seemed to throttle. Fitted through the client, the first attempts
/// come back to 3,000 a second (within 5 %) and the record is reproduced. The totals cannot
/// tell one hot key from a Zipf: the Zipf is written (the reading a fix must cure) and the hot
/// key's share is stated beside it as also fitting, its interval holding 0.35; the write
/// sharding priced on the calibrated model cures the truth.
#[test]
fn a_hot_key_behind_retries() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "12m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Orders"
partition_key = "customer"
capacity = { mode = "provisioned", read = 1000, write = 6000 }
[keys.customer]
cardinality = 1000000
popularity = { hot = { keys = 1, share = 0.35 } }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 1000
rate = { constant = 3000 }
"#,
        definition: r#"{"Table": {"TableName": "Orders", "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 1000, "WriteCapacityUnits": 6000},
            "TableSizeBytes": 1000000000, "ItemCount": 1000000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]).unwrap());
    c.reproduces_the_record();
    let d = &c.doc["calibration"]["demand"][0];
    assert!((d["after"].as_f64().unwrap() / 3_000.0 - 1.0).abs() <= 0.05, "{d}");
    let p = c.parameter("keys.customer.popularity.hot.share");
    interval_holds(p, 0.35);
    c.shards_cure_the_truth("customer", "[keys.customer]");
}

/// A client buffers its writes and flushes them every 30 seconds for 2 (15 times the
/// mean of 1,000 a second, 15,000 a second over four partitions that serve 1,000 each), on a
/// table with room (4,000 WCU). CloudWatch's minutes flatten the flushes: imported, the table
/// never throttles. Calibrated, the flushes come back as a peak over the mean whose interval
/// holds 15 (flushes of 4 s every minute or 2 s every 30 throttle alike, minute by minute).
#[test]
fn flushes_of_a_buffering_fleet() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "12m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Ingest"
partition_key = "device"
capacity = { mode = "provisioned", read = 100, write = 4000 }
[keys.device]
cardinality = 1000000
popularity = "uniform"
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 1000
rate = { constant = 1000 }
[client]
flush = { every = "30s", for = "2s" }
"#,
        definition: r#"{"Table": {"TableName": "Ingest", "KeySchema": [{"AttributeName": "device", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 4000},
            "TableSizeBytes": 1000000000, "ItemCount": 1000000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]["parameters"]).unwrap());
    c.reproduces_the_record();
    let p = c.parameter("client.flush");
    interval_holds(p, 15.0);
}

/// A ticket table's index on `status`, three values of which "open" carries 80 % of 1,500
/// writes a second: 1,200 a second on one index partition that serves 1,000, whose throttling
/// holds back the table's writes. The import knows the index's key only by name; calibrated, the
/// index key's skew comes back (its busiest value's share within its interval), before any bound
/// on what the index may owe, and sharding the status as the calibrated model says cures the
/// truth.
#[test]
fn an_overloaded_index_value() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "20m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Tickets"
partition_key = "ticket"
capacity = { mode = "provisioned", read = 100, write = 4000 }
[keys.ticket]
cardinality = 1000000
popularity = "uniform"
[keys.status]
cardinality = 3
popularity = { hot = { keys = 1, share = 0.8 } }
[[gsi]]
name = "ByStatus"
partition_key = "status"
projection = "keys_only"
capacity = { read = 100, write = 4000 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 500
rate = { constant = 1500 }
index_writes = { ByStatus = "insert" }
"#,
        definition: r#"{"Table": {"TableName": "Tickets", "KeySchema": [{"AttributeName": "ticket", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "ticket", "AttributeType": "S"}, {"AttributeName": "status", "AttributeType": "S"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 4000},
            "GlobalSecondaryIndexes": [{"IndexName": "ByStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}, "IndexStatus": "ACTIVE",
                "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 4000}, "ItemCount": 1000000}],
            "TableSizeBytes": 500000000, "ItemCount": 1000000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]["parameters"]).unwrap());
    c.reproduces_the_record();
    let p = c.parameter("keys.status.popularity.hot.share");
    interval_holds(p, 0.8);
    assert!(c.doc["calibration"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["path"] != "table.gsi_absorb_bound" || p["identified"] == false));
    c.shards_cure_the_truth("status", "[keys.status]");
}

/// Zipf 1.1 over 50,000 keys: the busiest of 5,000 writes a second of 2 KB items takes about
/// 14 % of them (1 / the harmonic number H(50,000, 1.1) ≈ 7.2), some 1,390 units a second on a
/// partition that serves 1,000, on a table with room (20,000 WCU). Calibrated through import, the
/// key's skew (either family: the totals cannot tell a Zipf from a hot key, so whichever fits
/// is kept) reproduces the record; a Zipf exponent's interval holds 1.1.
#[test]
fn a_zipf_key_space() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "10m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Clicks"
partition_key = "page"
capacity = { mode = "provisioned", read = 100, write = 20000 }
[keys.page]
cardinality = 50000
popularity = { zipf = 1.1 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 2000
rate = { constant = 5000 }
"#,
        definition: r#"{"Table": {"TableName": "Clicks", "KeySchema": [{"AttributeName": "page", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 20000},
            "TableSizeBytes": 100000000, "ItemCount": 50000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]["parameters"]).unwrap());
    c.reproduces_the_record();
    let ps = c.doc["calibration"]["parameters"].as_array().unwrap();
    if let Some(p) = ps.iter().find(|p| p["path"] == "keys.page.popularity.zipf") {
        interval_holds(p, 1.1);
    } else {
        assert!(ps.iter().any(|p| p["path"] == "keys.page.popularity.hot.share" && p["identified"] == true), "{ps:?}");
    }
    c.shards_cure_the_truth("page", "[keys.page]");
}

/// An on-demand table whose writes step from 1,500 to 6,000 a second five minutes in: its warm
/// throughput at the window's start was 4,000 units (a new table's), so the step throttles
/// until the capacity doubles toward twice the new peak. describe-table, read after the window,
/// says 12,000 (today's warm throughput, not the window's): imported, the table never throttles.
/// Calibrated, the warm throughput at the start comes back (its interval holds 4,000) — not a
/// hot key the table never had.
#[test]
fn on_demand_growth_past_the_previous_peak() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "16m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Signups"
partition_key = "user"
capacity = { mode = "on_demand", warm_read = 12000, warm_write = 4000 }
[keys.user]
cardinality = 1000000
popularity = "uniform"
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 1000
rate = { steps = [["0s", 1500], ["5m", 6000]] }
"#,
        definition: r#"{"Table": {"TableName": "Signups", "KeySchema": [{"AttributeName": "user", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
            "WarmThroughput": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 12000, "Status": "ACTIVE"},
            "TableSizeBytes": 1000000000, "ItemCount": 1000000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]["parameters"]).unwrap());
    c.reproduces_the_record();
    let p = c.parameter("table.capacity.warm_write");
    interval_holds(p, 4_000.0);
    let ps = c.doc["calibration"]["parameters"].as_array().unwrap();
    assert!(!ps.iter().any(|p| p["path"].as_str().unwrap().contains("popularity") && p["identified"] == true), "{ps:?}");
}

/// The mix: a hot key (30 % of 2,000 writes a second) behind a client that flushes every
/// minute for 20 seconds (3 times the mean), on a table of 8,000 WCU with an index on a
/// 100-value kind. Only in the flushes does the hot key pass its partition's 1,000 units; the
/// minutes CloudWatch keeps cannot say whether a hotter key or burstier flushes did it.
/// Calibrated, the record is reproduced, the index's coverage is 1 (every item has a kind: the
/// import divides the index's write units by the writes the table served, not by a demand that
/// includes writes the table throttled first, which never reached the index), and what the
/// history could not separate is said: a skew of the device key also fits, not written.
#[test]
fn a_hot_key_behind_a_buffering_client_with_an_index() {
    let c = calibrate(&Truth {
        text: r#"
[scenario]
duration = "12m"
seed = 7
start = "2026-11-01T00:00:00Z"
[table]
name = "Events"
partition_key = "device"
capacity = { mode = "provisioned", read = 100, write = 8000 }
[keys.device]
cardinality = 1000000
popularity = { hot = { keys = 1, share = 0.3 } }
[keys.kind]
cardinality = 100
popularity = "uniform"
[[gsi]]
name = "ByKind"
partition_key = "kind"
projection = "keys_only"
capacity = { read = 100, write = 8000 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 800
rate = { constant = 2000 }
index_writes = { ByKind = "insert" }
[client]
flush = { every = "60s", for = "20s" }
"#,
        definition: r#"{"Table": {"TableName": "Events", "KeySchema": [{"AttributeName": "device", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 8000},
            "GlobalSecondaryIndexes": [{"IndexName": "ByKind", "KeySchema": [{"AttributeName": "kind", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}, "IndexStatus": "ACTIVE",
                "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 8000}, "ItemCount": 1000000}],
            "TableSizeBytes": 800000000, "ItemCount": 1000000}}"#,
        reasons: true,
    });
    eprintln!("{}", serde_json::to_string_pretty(&c.doc["calibration"]["parameters"]).unwrap());
    c.reproduces_the_record();
    // The import reads the coverage off the table's served writes, so it starts at 1; a
    // coverage the calibration fits holds 1 in its interval.
    let calibrated = ddbsim::scenario::load(&c.path("table.calibrated.toml")).expect("calibrated");
    assert!((calibrated.gsis[0].coverage - 1.0).abs() <= 0.02, "coverage {}", calibrated.gsis[0].coverage);
    let ps = c.doc["calibration"]["parameters"].as_array().unwrap();
    if let Some(p) = ps.iter().find(|p| p["path"] == "gsi.ByKind.coverage") {
        interval_holds(p, 1.0);
    }
    let ps = c.doc["calibration"]["parameters"].as_array().unwrap();
    let written: Vec<&str> = ps.iter().filter(|p| p["identified"] == true).map(|p| p["path"].as_str().unwrap()).collect();
    let also: Vec<&str> =
        ps.iter().filter(|p| p["note"].as_str().unwrap().starts_with("also fits")).map(|p| p["path"].as_str().unwrap()).collect();
    assert!(written.iter().any(|p| p.starts_with("client.flush") || p.starts_with("keys.device")), "{ps:?}");
    assert!(!also.is_empty() && also.iter().all(|p| !written.contains(p)), "{ps:?}");
}
