//! `ddbsim import --print-queries`: the `queries.json` of `aws cloudwatch get-metric-data`
//! that fetches every series `import` reads for a table and its GSIs — consumed and
//! provisioned capacity, throttle events in all and by reason, and the requests served per
//! operation — each labelled as `import` recognises it, so that no one writes it by hand.

use super::metrics::OPERATIONS;
use crate::model::{Dim, Reason};
use serde_json::{json, Value};

/// Most queries one `get-metric-data` call takes.
pub const MAX_QUERIES: usize = 500;

/// CloudWatch keeps one-minute datapoints for 15 days, five-minute ones for 63.
pub const PERIODS_S: [u32; 2] = [60, 300];

/// The series of one resource: (metric name, statistic).
fn capacity_metrics() -> Vec<(String, &'static str)> {
    let mut m = Vec::new();
    for d in Dim::ALL {
        let (cap, events) = match d {
            Dim::Read => ("Read", "ReadThrottleEvents"),
            Dim::Write => ("Write", "WriteThrottleEvents"),
        };
        m.push((format!("Consumed{cap}CapacityUnits"), "Sum"));
        m.push((format!("Provisioned{cap}CapacityUnits"), "Average"));
        m.push((events.to_string(), "Sum"));
        for r in Reason::ALL {
            m.push((r.events_metric(d).to_string(), "Sum"));
        }
    }
    m
}

fn query(n: usize, label: &str, metric: &str, dims: &[(&str, &str)], stat: &str, period_s: u32) -> Value {
    let dims: Vec<Value> = dims.iter().map(|(k, v)| json!({"Name": k, "Value": v})).collect();
    json!({
        "Id": format!("m{n}"),
        "Label": label,
        "MetricStat": {
            "Metric": {"Namespace": "AWS/DynamoDB", "MetricName": metric, "Dimensions": dims},
            "Period": period_s,
            "Stat": stat
        },
        "ReturnData": true
    })
}

/// The queries for `table` and its `gsis` at `period_s` (60 or 300 seconds): the table's
/// capacity and throttle series and `SuccessfulRequestLatency`'s `SampleCount` per operation,
/// then each GSI's capacity and throttle series. Labels name the metric, then the GSI or the
/// operation, never the table (a table's name could contain an index's).
#[must_use]
pub fn queries(table: &str, gsis: &[String], period_s: u32) -> Vec<Value> {
    let mut out = Vec::new();
    for (metric, stat) in capacity_metrics() {
        out.push(query(out.len(), &metric, &metric, &[("TableName", table)], stat, period_s));
    }
    for op in OPERATIONS.iter().rev() {
        let label = format!("SuccessfulRequestLatency {op}");
        out.push(query(out.len(), &label, "SuccessfulRequestLatency", &[("TableName", table), ("Operation", op)], "SampleCount", period_s));
    }
    for g in gsis {
        for (metric, stat) in capacity_metrics() {
            let label = format!("{metric} {g}");
            out.push(query(out.len(), &label, &metric, &[("TableName", table), ("GlobalSecondaryIndexName", g)], stat, period_s));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every query is read back as the series it asks for: its label identifies its metric and
    /// resource as `import` identifies a result's.
    #[test]
    fn every_label_is_recognised_as_its_own_series() {
        let gsis = vec!["ByStatus".to_string(), "ByStatusAndDate".to_string()];
        let q = queries("Orders", &gsis, 60);
        // 6 + 8 per-reason for the table, 10 operations, 14 per index.
        assert_eq!(q.len(), 14 + 10 + 2 * 14);
        for v in &q {
            let label = v["Label"].as_str().unwrap();
            let (metric, index) = super::super::metrics::identify(&[label], &gsis).unwrap_or_else(|| panic!("{label}"));
            let dims = v["MetricStat"]["Metric"]["Dimensions"].as_array().unwrap();
            let named = |k: &str| dims.iter().find(|d| d["Name"] == k).map(|d| d["Value"].as_str().unwrap().to_string());
            assert_eq!(index, named("GlobalSecondaryIndexName"), "{label}");
            assert_eq!(named("TableName").as_deref(), Some("Orders"));
            use super::super::metrics::Metric;
            let name = match &metric {
                Metric::Consumed(Dim::Read) => "ConsumedReadCapacityUnits",
                Metric::Consumed(Dim::Write) => "ConsumedWriteCapacityUnits",
                Metric::Provisioned(Dim::Read) => "ProvisionedReadCapacityUnits",
                Metric::Provisioned(Dim::Write) => "ProvisionedWriteCapacityUnits",
                Metric::ThrottleEvents(Dim::Read) => "ReadThrottleEvents",
                Metric::ThrottleEvents(Dim::Write) => "WriteThrottleEvents",
                Metric::ReasonEvents(d, r) => r.events_metric(*d),
                Metric::Requests(_) => "SuccessfulRequestLatency",
            };
            assert_eq!(v["MetricStat"]["Metric"]["MetricName"], name, "{label}");
            if let Metric::Requests(op) = metric {
                assert_eq!(named("Operation"), Some(op), "{label}");
            }
        }
        let ids: std::collections::BTreeSet<&str> = q.iter().map(|v| v["Id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), q.len());
    }
}
