//! No silent wrong answers: what a scenario, an import or a diff falls back on is what DynamoDB
//! would do, or it says it cannot. Each figure is worked by hand from the behaviour spec
//! (§1.3 index writes, §17 the Cost and Usage Report) and AWS's prices.

use super::{ddbsim, load_imported as import_load, run, run_summary, scenario};
use ddbsim::cost::BillComponent;
use ddbsim::import::import;
use ddbsim::Dim;
use std::path::{Path, PathBuf};

/// The issue's table: a GSI keyed on `status` (5 values, 100 WCU) and puts at 1,500 a second
/// that say nothing of it. DynamoDB writes an index entry for every item with the index's key
/// (spec §1.3; coverage defaults to 1): each 1,000-byte put is 1 WCU on the table and a
/// keys-only entry (100 bytes) is 1 WCU on the index, so the index is asked for 1,500 WCU a
/// second, 15 times its capacity. The table admits every put (its 3,000 WCU over three
/// partitions carry 500 a second each), and the index, whose five values share its one
/// partition, applies at most that partition's 1,000 WCU a second (spec §2): in the first
/// minute 60,000 units exactly, the other ~30,000 owed (absorbed, spec §16). Its debt grows
/// by 1,400 a second past its 100 WCU, so the 60,000-unit bound is soon reached and the
/// index throttles the table's puts: the run does not hold, and the events are the index's.
#[test]
fn a_put_writes_every_gsi_by_default() {
    let text = r#"
[scenario]
duration = "5m"
[table]
partition_key = "order"
capacity = { mode = "provisioned", read = 100, write = 3000 }
[keys.order]
cardinality = 100000
[keys.status]
cardinality = 5
[[gsi]]
name = "ByStatus"
partition_key = "status"
projection = "keys_only"
capacity = { read = 100, write = 100 }
[[pattern]]
name = "put-order"
op = "put_item"
item_bytes = 1000
rate = { constant = 1500 }
"#;
    let sc = scenario(text);
    assert_eq!(sc.patterns[0].index_writes, vec![(0, ddbsim::scenario::IndexWrite::Insert)]);
    let r = run(&sc);
    let (table, index) = (&r.resources[0].minutes[0], &r.resources[1].minutes[0]);
    assert!((table.consumed[1] as f64 / 1_000.0 / 90_000.0 - 1.0).abs() < 0.02, "{}", table.consumed[1]);
    assert_eq!(index.consumed[1], 60_000 * 1_000, "the index partition's 1,000 WCU a second");
    assert!(r.resources[1].minutes.iter().map(|m| m.events(Dim::Write)).sum::<u64>() > 0);
    let s = run_summary(&sc);
    assert!(!s.verdict.held, "{}", s.verdict.headline);
    assert_eq!(s.resources[0].write_throttle_events, 0, "the events are the index's");
    // Saying "none" leaves the index alone, and validate says no pattern writes it.
    let none = text.replace("rate = { constant = 1500 }", "rate = { constant = 1500 }\nindex_writes = { ByStatus = \"none\" }");
    let quiet = scenario(&none);
    assert!(quiet.patterns[0].index_writes.is_empty());
    let note = quiet.notes.iter().find(|n| n.kind == ddbsim::scenario::NoteKind::Warning).expect("a warning");
    assert!(note.at.message.contains("GSI \"ByStatus\" is neither written nor read"), "{}", note.at.message);
    assert_eq!((note.at.key.as_str(), note.at.line), ("gsi[0].name", 12));
}

/// Updates and deletes by projection, 3,000-byte items (3 WCU; 1 KB rounding), on-demand with
/// no retries so every request is served once. Per update that says nothing: an ALL index
/// rewrites its 3,000-byte entry (3 WCU), an INCLUDE index of 200 bytes its 300-byte entry
/// (1 WCU), a KEYS_ONLY index nothing. Per delete: each index loses its entry, one write of
/// the entry's size (ALL 3, INCLUDE 1, KEYS_ONLY 1 WCU), and on the half-covered index half the
/// deletes find an entry (coverage 0.5: within 3 %).
#[test]
fn updates_and_deletes_write_the_indexes_their_items_belong_to() {
    let sc = scenario(
        r#"
[scenario]
duration = "2m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 100000
[keys.g]
cardinality = 100000
[[gsi]]
name = "All"
partition_key = "g"
projection = "all"
[[gsi]]
name = "Include"
partition_key = "g"
projection = { include_bytes = 200 }
[[gsi]]
name = "Keys"
partition_key = "g"
projection = "keys_only"
[[gsi]]
name = "HalfKeys"
partition_key = "g"
projection = "keys_only"
coverage = 0.5
[[pattern]]
name = "update"
op = "update_item"
item_bytes = 3000
rate = { constant = 40 }
[[pattern]]
name = "delete"
op = "delete_item"
item_bytes = 3000
rate = { constant = 20 }
[client]
retry = "none"
"#,
    );
    let assumed: Vec<&str> = sc.notes.iter().map(|n| n.at.message.as_str()).collect();
    assert_eq!(assumed.len(), 2, "{assumed:?}");
    assert!(assumed[0].contains("GSI \"All\"") && assumed[1].contains("GSI \"Include\""), "{assumed:?}");
    let s = run_summary(&sc);
    let (updates, deletes) = (s.patterns[0].requests.served as f64, s.patterns[1].requests.served as f64);
    assert_eq!(s.patterns[0].requests.served, s.patterns[0].requests.offered);
    let wcu: Vec<f64> = s.resources.iter().map(|r| r.consumed_wcu).collect();
    assert_eq!(wcu[0], 3.0 * (updates + deletes), "the table: 3 WCU each");
    assert_eq!(wcu[1], 3.0 * updates + 3.0 * deletes, "ALL");
    assert_eq!(wcu[2], updates + deletes, "INCLUDE");
    assert_eq!(wcu[3], deletes, "KEYS_ONLY: deletes only");
    assert!((wcu[4] / (0.5 * deletes) - 1.0).abs() < 0.03, "half the deletes: {} of {deletes}", wcu[4]);
}

/// `validate` and `check` name an index no pattern writes: a query reads ByStatus, but the only
/// write is an entity's whose items carry no status (its `gsi` leaves the index out).
#[test]
fn an_index_nothing_writes_is_a_warning_and_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unwritten.toml");
    std::fs::write(
        &path,
        r#"[scenario]
duration = "2m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000
[keys.status]
cardinality = 5
[[gsi]]
name = "ByStatus"
partition_key = "status"
[[entity]]
name = "Order"
partition_key = "k"
item_bytes = 500
[[pattern]]
name = "put"
entity = "Order"
op = "put_item"
rate = { constant = 10 }
[[pattern]]
name = "by-status"
op = "query"
index = "ByStatus"
rate = { constant = 5 }
"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let o = ddbsim(&["validate", p]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains(&format!("{p}:11:1: gsi[0].name: warning: no pattern writes GSI \"ByStatus\" (pattern \"by-status\" reads it)")),
        "{out}"
    );
    let o = ddbsim(&["validate", "--json", p]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["files"][0]["notes"][0]["kind"], "warning");
    let out_dir = dir.path().join("out");
    let o = ddbsim(&["check", p, "--phases", "steady", "--json", "--out", out_dir.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    let findings = v["checks"][0]["findings"].as_array().unwrap();
    let f = findings.iter().find(|f| f["id"] == "unwritten-index").unwrap_or_else(|| panic!("{findings:?}"));
    assert_eq!((f["resource"].as_str(), f["severity"].as_str()), (Some("ByStatus"), Some("warn")));
}

/// A describe-table of Orders in us-east-1 (account 111122223333), on-demand: 100,000,000 items
/// in 200 GB (2,000-byte items, 2 WCU a write), and a GSI on status holding a quarter of them
/// (25,000,000 items, 10 GB; INCLUDE of two attributes, 300-byte entries, 1 WCU).
fn orders_definition(dir: &Path) -> PathBuf {
    let def = serde_json::json!({"Table": {
        "TableName": "Orders",
        "TableArn": "arn:aws:dynamodb:us-east-1:111122223333:table/Orders",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "status", "AttributeType": "S"}],
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "TableSizeBytes": 200_000_000_000u64, "ItemCount": 100_000_000u64,
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByStatus",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total", "currency"]},
            "IndexSizeBytes": 10_000_000_000u64, "ItemCount": 25_000_000u64
        }]
    }});
    let path = dir.join("orders.json");
    std::fs::write(&path, def.to_string()).unwrap();
    path
}

/// A Cost and Usage Report written from AWS's documented line-item columns: six hours of three
/// tables named Orders (us-east-1 in two accounts, us-west-2), each hour's usage in its pricing
/// unit and its cost at us-east-1's rates. Ours (us-east-1, 111122223333): 20 writes a second of
/// 2.25 WRU (2 of item, 0.25 x 1 of index entry: the report bills the GSI under the table),
/// 162,000 WRU an hour; 200 reads a second, 720,000 RRU; 210 GB stored (table and index) as
/// 210 / 730 GB-months an hour; PITR on the table's 200 GB, 200 / 730 GB-months.
fn cur_csv(v2: bool) -> String {
    let header = if v2 {
        "identity_line_item_id,line_item_usage_account_id,line_item_usage_start_date,line_item_usage_end_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_unblended_cost"
    } else {
        "identity/LineItemId,lineItem/UsageAccountId,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/ProductCode,lineItem/UsageType,lineItem/ResourceId,lineItem/UsageAmount,lineItem/UnblendedCost"
    };
    let mut rows = vec![header.to_string()];
    let tables =
        [("111122223333", "us-east-1", "", 1.0), ("444455556666", "us-east-1", "", 3.0), ("111122223333", "us-west-2", "USW2-", 5.0)];
    for h in 0..6 {
        let (start, end) = (format!("2026-11-02T{h:02}:00:00Z"), format!("2026-11-02T{:02}:00:00Z", h + 1));
        for (account, region, prefix, scale) in tables {
            let arn = format!("arn:aws:dynamodb:{region}:{account}:table/Orders");
            for (usage, amount, rate) in [
                ("WriteRequestUnits", 162_000.0 * scale, 0.625e-6),
                ("ReadRequestUnits", 720_000.0 * scale, 0.125e-6),
                ("TimedStorage-ByteHrs", 210.0 / 730.0 * scale, 0.25),
                ("TimedPITRStorage-ByteHrs", 200.0 / 730.0 * scale, 0.20),
            ] {
                let id = rows.len();
                rows.push(format!("li{id},{account},{start},{end},AmazonDynamoDB,{prefix}{usage},{arn},{amount},{}", amount * rate));
            }
        }
    }
    rows.join("\n") + "\n"
}

/// The report's own cost of our table by usage type, summed over its lines.
fn reported_cost(csv: &str, usage: &str) -> f64 {
    csv.lines()
        .filter(|l| l.contains("us-east-1:111122223333:table/Orders") && l.split(',').nth(5) == Some(usage))
        .map(|l| l.rsplit(',').next().unwrap().parse::<f64>().unwrap())
        .sum()
}

/// Replayed from the report, the bill matches the report line by line within 1 %: the writes
/// once (the report's units split between the table and its index, not billed on both), the
/// reads, the storage read as GB-months (210 GB, of which the index's 10), PITR found on. In the
/// legacy report and in CUR 2.0 alike; the other two tables named Orders are not summed in.
#[test]
fn a_bill_rebuilt_from_a_cost_and_usage_report_matches_it() {
    let dir = tempfile::tempdir().unwrap();
    let def = orders_definition(dir.path());
    for v2 in [false, true] {
        let csv = cur_csv(v2);
        let cur = dir.path().join(if v2 { "cur2.csv" } else { "cur.csv" });
        std::fs::write(&cur, &csv).unwrap();
        let i = import(std::slice::from_ref(&def), std::slice::from_ref(&cur), None, "orders").unwrap();
        assert_eq!(i.table.pitr, Some(None), "the report bills PITR storage");
        let notes = i.notes.join("\n");
        assert!(notes.contains("2 unit(s) of item and 0.25 of index entries"), "{notes}");
        let (_d, sc) = import_load(&i);
        assert_eq!(sc.duration.as_secs(), 6 * 3_600);
        let s = run_summary(&sc);
        let billed = |c: BillComponent| s.cost.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>();
        for (c, usage) in [
            (BillComponent::Writes, "WriteRequestUnits"),
            (BillComponent::Reads, "ReadRequestUnits"),
            (BillComponent::Storage, "TimedStorage-ByteHrs"),
            (BillComponent::Pitr, "TimedPITRStorage-ByteHrs"),
        ] {
            let (b, r) = (billed(c), reported_cost(&csv, usage));
            assert!((b / r - 1.0).abs() < 0.01, "{usage} (v2 {v2}): billed {b}, reported {r}");
        }
    }
    // Alone, the report names three tables called Orders: --table must say which, by ARN.
    let cur = dir.path().join("cur.csv");
    let e = import(&[], std::slice::from_ref(&cur), Some("Orders"), "o").unwrap_err().to_string();
    assert!(e.contains("3 tables are named Orders") && e.contains("arn:aws:dynamodb:us-west-2:111122223333:table/Orders"), "{e}");
    let west = import(&[], &[cur], Some("arn:aws:dynamodb:us-west-2:111122223333:table/Orders"), "o").unwrap();
    assert_eq!((west.table.region.as_deref(), west.table.size_bytes), (Some("us-west-2"), Some(1_050_000_000_000)));
    let trace = &west.traces.iter().find(|t| t.0 == "o-write-put-item.csv").unwrap().1;
    // 810,000 WRU an hour, 1 unit a write without a definition's item size: 225 a second.
    assert_eq!(trace, "time_s,rate\n0,225\n");
}

/// A history of one period is imported over that period: a one-hour report is an hour at the
/// hour's rate (not a minute at sixty times it); a lone CloudWatch datapoint, whose period
/// nothing states, is refused with the reason.
#[test]
fn a_single_period_is_imported_over_its_period_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let one_hour: String = cur_csv(false).lines().take(5).map(|l| format!("{l}\n")).collect();
    let cur = dir.path().join("hour.csv");
    std::fs::write(&cur, one_hour).unwrap();
    let i = import(&[orders_definition(dir.path())], &[cur], None, "o").unwrap();
    let (_d, sc) = import_load(&i);
    assert_eq!(sc.duration.as_secs(), 3_600);
    // 162,000 WRU in the hour at 2.25 a write: 20 writes a second.
    assert_eq!(i.traces.iter().find(|t| t.0 == "o-write-put-item.csv").unwrap().1, "time_s,rate\n0,20\n");
    let m = dir.path().join("one.json");
    std::fs::write(
        &m,
        r#"{"MetricDataResults": [{"Id": "w", "Label": "ConsumedWriteCapacityUnits", "Timestamps": ["2026-11-20T10:00:00Z"], "Values": [30000]}]}"#,
    )
    .unwrap();
    let e = import(&[orders_definition(dir.path())], &[m], None, "o").unwrap_err().to_string();
    assert!(e.contains("one.json") && e.contains("a single datapoint") && e.contains("at least two"), "{e}");
}

/// A provisioned Orders at `rcu` / `wcu`: 1,000,000 items of 2,000 bytes (1 RCU, 2 WCU each).
fn provisioned_orders(dir: &Path, file: &str, rcu: u64, wcu: u64) -> PathBuf {
    let def = serde_json::json!({"Table": {
        "TableName": "Orders",
        "TableArn": "arn:aws:dynamodb:us-east-1:111122223333:table/Orders",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "BillingModeSummary": {"BillingMode": "PROVISIONED"},
        "ProvisionedThroughput": {"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu},
        "TableSizeBytes": 2_000_000_000u64, "ItemCount": 1_000_000u64
    }});
    let path = dir.join(file);
    std::fs::write(&path, def.to_string()).unwrap();
    path
}

/// An hour of one-minute history of Orders at 600 RCU / 300 WCU: reads at the cap (600 units,
/// 36,000 GetItems a minute) with 30,000 read throttle events a minute, writes of 300 units
/// (9,000 PutItems a minute), no write throttling.
fn throttled_history(dir: &Path) -> PathBuf {
    let start = 1_795_000_000i64 - 1_795_000_000i64 % 3_600;
    let ts: Vec<i64> = (0..60).map(|m| start + 60 * m).collect();
    let series = |id: &str, label: &str, v: f64| serde_json::json!({"Id": id, "Label": label, "Timestamps": ts, "Values": vec![v; 60], "StatusCode": "Complete"});
    let doc = serde_json::json!({"MetricDataResults": [
        series("cr", "ConsumedReadCapacityUnits", 36_000.0),
        series("cw", "ConsumedWriteCapacityUnits", 18_000.0),
        series("pr", "ProvisionedReadCapacityUnits", 600.0),
        series("pw", "ProvisionedWriteCapacityUnits", 300.0),
        series("re", "ReadThrottleEvents", 30_000.0),
        series("we", "WriteThrottleEvents", 0.0),
        series("g", "SuccessfulRequestLatency GetItem", 36_000.0),
        series("p", "SuccessfulRequestLatency PutItem", 9_000.0),
    ]});
    let path = dir.join("history.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// `diff` with a history simulates the change it is shown: the demand is the history's, each
/// side's capacity its own definition's. Base (600 / 300, what the history recorded) keeps the
/// recorded capacity; head raises it to 2,000 / 1,500. Dearer by 1,400 RCU x $0.00013 + 1,200
/// WCU x $0.00065 for the hour = $0.182 + $0.78 = $0.962, and head throttles less. The
/// history's reads were throttled at 600: a minute's demand is its 36,000 consumed units plus
/// the requests dropped, 30,000 events less the retries among them (at most 100 + 36,000 / 5 =
/// 7,300), 22,700 of 1 unit: 58,700 units, 978 a second. Base's 600 RCU and 180,000 units of
/// burst credit (300 s x 600) carry the excess 378 a second for 476 s, then throttle; head's
/// 2,000 serve it.
#[test]
fn diff_with_a_history_simulates_each_sides_capacity() {
    let dir = tempfile::tempdir().unwrap();
    let base = provisioned_orders(dir.path(), "base.json", 600, 300);
    let head = provisioned_orders(dir.path(), "head.json", 2_000, 1_500);
    let history = throttled_history(dir.path());
    let args = ["diff", base.to_str().unwrap(), head.to_str().unwrap(), "--metrics", history.to_str().unwrap()];
    let o = ddbsim(&[&args[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(d["cost"], "dearer");
    let delta = d["window_delta_usd"].as_f64().unwrap();
    assert!((delta - 0.962).abs() < 0.001, "{delta}");
    let (b, h) = (d["base"]["throttled_share"].as_f64().unwrap(), d["head"]["throttled_share"].as_f64().unwrap());
    assert!(b > 0.01 && h < b / 10.0, "base {b}, head {h}");
    let notes: Vec<&str> = d["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes[0].starts_with("base ") && notes[0].contains("keeps the capacity the history recorded (600 RCU / 300 WCU"), "{notes:?}");
    assert!(
        notes[1].starts_with("head ")
            && notes[1].contains("capacity from this definition (2,000 RCU / 1,500 WCU), not the history's recorded 600 / 300"),
        "{notes:?}"
    );
    let text = String::from_utf8_lossy(&ddbsim(&args).stdout).into_owned();
    assert!(text.contains("DEARER") && text.contains("note: head"), "{text}");
}

/// A fix `check` simulates and finds still failing says so. Orders is provisioned at 2,000 WCU
/// under 3,000 writes a second of 1 KB, half of them on one customer: the capacity is below the
/// peak (capacity-below-peak), and its fix, about 3,000 x 1.1 = 3,300 WCU, cannot cure the hot key:
/// one key's 1,500 WCU a second sit on one partition, whose limit is 1,000 (spec §2), so a
/// third of that key's writes (about 1/6 of all) are throttled whatever the capacity. The
/// effect is labelled *not enough*, and says the rest is the per-partition limit.
#[test]
fn a_fix_that_does_not_cure_is_not_enough() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hot.toml");
    std::fs::write(
        &path,
        r#"[scenario]
duration = "10m"
[table]
name = "Orders"
partition_key = "customer"
capacity = { mode = "provisioned", read = 100, write = 2000 }
[keys.customer]
cardinality = 100000
popularity = { hot = { keys = 1, share = 0.5 } }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 1000
rate = { constant = 3000 }
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = ddbsim(&["check", path.to_str().unwrap(), "--phases", "steady", "--json", "--out", out.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    let findings = v["checks"][0]["findings"].as_array().unwrap();
    let f = findings.iter().find(|f| f["id"] == "capacity-below-peak").unwrap_or_else(|| panic!("{findings:?}"));
    let effect = f["effect"].as_str().unwrap();
    // The fix is the measured peak (3,000 a second, Poisson) and 10 %: about 3,300 WCU.
    assert!(effect.starts_with("not enough: at 3,3") && effect.contains(" WCU the steady phase throttles"), "{effect}");
    assert!(effect.contains("Orders's per-partition limits"), "{effect}");
}

/// `validate` runs every check that needs no simulation: AWS sells no 3-year reserved capacity
/// in us-east-2, which `run` refuses, so `validate` refuses it too, at its line and key; a
/// reservation whose term starts after the window covers nothing in it, and says so.
#[test]
fn validate_refuses_what_run_refuses_and_says_what_a_reservation_covers() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("scenarios/reserved-owned.toml").unwrap();
    let east2 = dir.path().join("east2.toml");
    std::fs::write(
        &east2,
        text.replace("extrapolate = \"repeat\"", "extrapolate = \"repeat\"\nregion = \"us-east-2\"")
            .replace("term = \"1y\"", "term = \"3y\""),
    )
    .unwrap();
    let o = ddbsim(&["validate", east2.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("east2.toml:") && err.contains(": pricing.reserved[0].term: AWS sells no 3-year reserved capacity in us-east-2"),
        "{err}"
    );
    let later = dir.path().join("later.toml");
    std::fs::write(&later, text.replace("start = \"2026-01-01\"", "start = \"2026-07-01\"")).unwrap();
    let o = ddbsim(&["validate", later.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("pricing.reserved[0].start: warning: this reservation's term starts after the window ends: it covers nothing"),
        "{out}"
    );
}

/// The import keeps what the history recorded, requests and units both. Orders (on-demand, a
/// keys-only LSI and a keys-only GSI) recorded, every minute of an hour, 6,000 PutItems that
/// consumed 15,000 write units (2.5 a request: 1 of LSI entry and 1.5 of item, a mix of half
/// 1 KB items and half 2 KB ones), 3,000 GetItems of 3,900 read units (1.3 a request: 70 %
/// strongly consistent reads of 4 KB, 30 % of 8 KB), and 3,000 write units on the GSI (one
/// 1-unit entry for half the puts: coverage 0.5). Replayed, each is within 1 % of the record:
/// 360,000 puts and 900,000 WCU on the table, 180,000 gets and 234,000 RCU, 180,000 WCU on
/// the index.
#[test]
fn the_import_keeps_the_recorded_requests_and_units() {
    let dir = tempfile::tempdir().unwrap();
    let def = serde_json::json!({"Table": {
        "TableName": "Orders",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [],
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "TableSizeBytes": 1_500_000_000u64, "ItemCount": 1_000_000u64,
        "LocalSecondaryIndexes": [{"IndexName": "ByTotal", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "total", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        "GlobalSecondaryIndexes": [{"IndexName": "ByStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}]
    }});
    let def_path = dir.path().join("orders.json");
    std::fs::write(&def_path, def.to_string()).unwrap();
    let start = 1_795_000_000i64 - 1_795_000_000i64 % 3_600;
    let ts: Vec<i64> = (0..60).map(|m| start + 60 * m).collect();
    let series = |id: &str, label: &str, v: f64| serde_json::json!({"Id": id, "Label": label, "Timestamps": ts, "Values": vec![v; 60]});
    let doc = serde_json::json!({"MetricDataResults": [
        series("cw", "ConsumedWriteCapacityUnits", 15_000.0),
        series("cr", "ConsumedReadCapacityUnits", 3_900.0),
        series("p", "SuccessfulRequestLatency PutItem", 6_000.0),
        series("g", "SuccessfulRequestLatency GetItem", 3_000.0),
        series("gw", "ConsumedWriteCapacityUnits ByStatus", 3_000.0),
    ]});
    let m = dir.path().join("history.json");
    std::fs::write(&m, doc.to_string()).unwrap();
    let i = import(&[def_path], &[m], None, "orders").unwrap();
    assert!(i.scenario.contains("a mix of 50.0 % of 1024-byte items and 50.0 % of 2048-byte ones"), "{}", i.scenario);
    let (_d, sc) = import_load(&i);
    let s = run_summary(&sc);
    let served = |op: &str| s.patterns.iter().filter(|p| p.name.starts_with(op)).map(|p| p.requests.served as f64).sum::<f64>();
    let near = |got: f64, want: f64, what: &str| assert!((got / want - 1.0).abs() < 0.01, "{what}: {got} against {want}");
    near(served("write-put-item"), 360_000.0, "puts");
    near(served("read-get-item"), 180_000.0, "gets");
    near(s.resources[0].consumed_wcu, 900_000.0, "table WCU");
    near(s.resources[0].consumed_rcu, 234_000.0, "table RCU");
    near(s.resources[1].consumed_wcu, 180_000.0, "index WCU");
}

/// An output that rests on a guess says so: the update's assumed index write is in the run's
/// summary.json (`scenario_notes`) and its text, at the pattern (line 12) that says nothing of it.
#[test]
fn a_runs_outputs_carry_the_scenarios_assumptions() {
    let sc = scenario(
        "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 100\n\
         [[gsi]]\nname = \"G\"\npartition_key = \"k\"\nprojection = \"all\"\n[[pattern]]\nname = \"u\"\nop = \"update_item\"\nrate = { constant = 5 }\n",
    );
    let s = run_summary(&sc);
    assert_eq!(s.scenario_notes.len(), 1, "{:?}", s.scenario_notes);
    assert!(
        s.scenario_notes[0].starts_with("test.toml:12:1: pattern[0].index_writes: assumption: this update rewrites GSI \"G\""),
        "{:?}",
        s.scenario_notes
    );
    assert!(s.to_table().contains("rests on: test.toml:12:1"), "{}", s.to_table());
    assert!(s.to_json().contains("\"scenario_notes\""));
}
