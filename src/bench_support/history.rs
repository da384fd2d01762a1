//! Histories with known parameters, for the calibration bench and the truths: a run exported
//! as CloudWatch's `get-metric-data` writes it, and a day of one table with two GSIs whose
//! hot key throttles.

use crate::engine::RunResult;
use crate::metrics::MinuteRecord;
use crate::model::{Dim, Reason};
use crate::scenario::{CapacitySpec, Op, Scenario};
use serde_json::{json, Value};

/// One `MetricDataResults` entry: `f` of each minute of `minutes` from `start` (Unix seconds),
/// newest first, as get-metric-data lists them.
#[must_use]
pub fn metric_data_result(label: &str, minutes: &[MinuteRecord], start: i64, f: &dyn Fn(&MinuteRecord) -> f64) -> Value {
    let stamp = |m: usize| {
        let t = time::OffsetDateTime::from_unix_timestamp(start + m as i64 * 60).expect("a time within range");
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:00+00:00", t.year(), u8::from(t.month()), t.day(), t.hour(), t.minute())
    };
    let idx: Vec<usize> = (0..minutes.len()).rev().collect();
    json!({
        "Id": label.to_ascii_lowercase(),
        "Label": label,
        "Timestamps": idx.iter().map(|&m| stamp(m)).collect::<Vec<_>>(),
        "Values": idx.iter().map(|&m| f(&minutes[m])).collect::<Vec<_>>(),
        "StatusCode": "Complete",
    })
}

/// What CloudWatch publishes per resource of run `r` of `sc` (started at `start`), as
/// get-metric-data JSON: consumed units, throttle events, provisioned capacity (of a provisioned
/// resource), the per-reason throttle events with `reasons`, and the table's requests per
/// operation (`SuccessfulRequestLatency` sample counts).
#[must_use]
pub fn get_metric_data(sc: &Scenario, r: &RunResult, start: i64, reasons: bool) -> Vec<u8> {
    let mut results = Vec::new();
    let provisioned = matches!(sc.table.capacity, CapacitySpec::Provisioned { .. });
    for (i, res) in r.resources.iter().enumerate() {
        let suffix = if i == 0 { String::new() } else { format!(" {}", res.name) };
        let mut series = |metric: &str, f: &dyn Fn(&MinuteRecord) -> f64| {
            results.push(metric_data_result(&format!("{metric}{suffix}"), &res.minutes, start, f));
        };
        for (d, name) in [(Dim::Read, "Read"), (Dim::Write, "Write")] {
            series(&format!("Consumed{name}CapacityUnits"), &|m| m.consumed[d as usize] as f64 / 1_000.0);
            series(&format!("{name}ThrottleEvents"), &|m| m.events(d) as f64);
            if provisioned {
                series(&format!("Provisioned{name}CapacityUnits"), &|m| m.provisioned_unit_seconds[d as usize] as f64 / 60.0);
            }
            if reasons {
                for (why, label) in [(Reason::KeyRange, "KeyRange"), (Reason::Provisioned, "Provisioned")] {
                    series(&format!("{name}{label}ThroughputThrottleEvents"), &|m| m.throttle_events[why as usize][d as usize] as f64);
                }
            }
        }
        if i == 0 {
            for op in Op::ALL {
                if res.minutes.iter().any(|m| m.op_ok[op as usize] > 0) {
                    results.push(metric_data_result(&format!("SuccessfulRequestLatency {}", op.api_name()), &res.minutes, start, &|m| {
                        m.op_ok[op as usize] as f64
                    }));
                }
            }
        }
    }
    serde_json::to_vec(&json!({ "MetricDataResults": results })).expect("JSON values serialise")
}

/// 2026-11-01T00:00:00Z: where [`calibration_day`] starts.
pub const DAY_START: i64 = 1_793_491_200;

/// A day of one table with two GSIs for the calibration bench: `Orders`, provisioned 4,000 WCU
/// (four partitions) and 3,000 RCU, 150 puts a second of 10 KB items (10 units each) of which
/// one customer's key takes 60 % (900 units a second, plus a quarter of the rest, on a
/// partition that serves 1,000: some 5 puts throttled a second) and 100 eventually consistent
/// reads; its GSIs, keys only, on `status` (100 values) and `region` (20). Returns the truth's scenario and its definition as describe-table
/// writes it; the import knows neither the hot key nor the indexes' keys.
#[must_use]
pub fn calibration_day() -> (String, String) {
    let truth = r#"[scenario]
duration = "24h"
seed = 11
start = "2026-11-01T00:00:00Z"
[table]
name = "Orders"
partition_key = "customer"
capacity = { mode = "provisioned", read = 3000, write = 4000 }
[keys.customer]
cardinality = 1000000
popularity = { hot = { keys = 1, share = 0.6 } }
[keys.status]
cardinality = 100
popularity = "uniform"
[keys.region]
cardinality = 20
popularity = "uniform"
[[gsi]]
name = "ByStatus"
partition_key = "status"
projection = "keys_only"
capacity = { read = 500, write = 4000 }
[[gsi]]
name = "ByRegion"
partition_key = "region"
projection = "keys_only"
capacity = { read = 500, write = 4000 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 10000
rate = { constant = 150 }
[[pattern]]
name = "get"
op = "get_item"
item_bytes = 10000
rate = { constant = 100 }
"#;
    let gsi = |name: &str, key: &str| {
        format!(
            r#"{{"IndexName": "{name}", "KeySchema": [{{"AttributeName": "{key}", "KeyType": "HASH"}}],
                "Projection": {{"ProjectionType": "KEYS_ONLY"}}, "IndexStatus": "ACTIVE",
                "ProvisionedThroughput": {{"ReadCapacityUnits": 500, "WriteCapacityUnits": 4000}}, "ItemCount": 1000000}}"#
        )
    };
    let definition = format!(
        r#"{{"Table": {{"TableName": "Orders", "KeySchema": [{{"AttributeName": "customer", "KeyType": "HASH"}}],
            "BillingModeSummary": {{"BillingMode": "PROVISIONED"}},
            "ProvisionedThroughput": {{"ReadCapacityUnits": 3000, "WriteCapacityUnits": 4000}},
            "GlobalSecondaryIndexes": [{}, {}],
            "TableSizeBytes": 10000000000, "ItemCount": 1000000}}}}"#,
        gsi("ByStatus", "status"),
        gsi("ByRegion", "region")
    );
    (truth.to_string(), definition)
}
