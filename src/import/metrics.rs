//! CloudWatch history: the JSON of `aws cloudwatch get-metric-data` and
//! `get-metric-statistics`, and the CSV the CloudWatch console downloads, read into series per
//! metric and resource, then onto one-minute grids.
//!
//! CloudWatch names a result by its `Label` (and a query by its `Id`), not by its metric and
//! dimensions, so a series is recognised by the metric name in its label, id, or (for
//! `get-metric-statistics`, whose label is the bare metric name) file name, and belongs to the
//! GSI whose name appears there too, else to the table. README's "Start from your own table"
//! gives a query file that labels every series that way.

use super::{Doc, ImportError};
use crate::model::{Dim, Reason};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What a series measures.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Metric {
    /// `ConsumedRead/WriteCapacityUnits` (Sum per period).
    Consumed(Dim),
    /// `ProvisionedRead/WriteCapacityUnits` (Average).
    Provisioned(Dim),
    /// `Read/WriteThrottleEvents` (Sum).
    ThrottleEvents(Dim),
    /// The throttle events of one reason (Sum, since August 2025):
    /// `{Read,Write}{KeyRange,Provisioned,MaxOnDemand}ThroughputThrottleEvents` and
    /// `{Read,Write}AccountLimitThrottleEvents`.
    ReasonEvents(Dim, Reason),
    /// `SuccessfulRequestLatency` `SampleCount` for one `Operation`: requests served.
    Requests(String),
}

/// Operations DynamoDB reports `SuccessfulRequestLatency` for, longest names first so that
/// `BatchGetItem` is not read as `GetItem`.
pub(crate) const OPERATIONS: [&str; 10] = [
    "TransactWriteItems",
    "TransactGetItems",
    "BatchWriteItem",
    "BatchGetItem",
    "UpdateItem",
    "DeleteItem",
    "GetItem",
    "PutItem",
    "Query",
    "Scan",
];

/// One series: (Unix seconds, value), with its period.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    pub(crate) metric: Metric,
    /// GSI name, `None` for the table.
    pub(crate) index: Option<String>,
    pub(crate) points: Vec<(i64, f64)>,
    /// The file it came from, for messages.
    pub(crate) file: PathBuf,
    /// Where in the file: a JSON pointer or a CSV column, `at` it (empty for the whole file).
    pub(crate) at: String,
    /// Seconds each datapoint covers, when the source states it (a Cost and Usage Report's
    /// hourly line items); otherwise it is told from the datapoints' spacing.
    pub(crate) period: Option<i64>,
}

impl Series {
    /// Where it came from, for a note: `file: at /MetricDataResults/0`.
    pub(crate) fn origin(&self) -> String {
        if self.at.is_empty() {
            self.file.display().to_string()
        } else {
            format!("{}: at {}", self.file.display(), self.at)
        }
    }
}

/// A history that cannot be put on minutes: the file and place when one series is at fault.
#[derive(Debug)]
pub(crate) struct BuildError {
    pub(crate) file: Option<PathBuf>,
    pub(crate) at: String,
    pub(crate) message: String,
}

/// What the metric files hold, and what was odd about them.
#[derive(Debug, Default)]
pub(crate) struct History {
    pub(crate) series: Vec<Series>,
    pub(crate) notes: Vec<String>,
    /// The table's consumed units are the table's and its GSIs' together (a Cost and Usage
    /// Report bills a table's indexes under the table).
    pub(crate) units_include_indexes: bool,
}

/// Recognises a series from its label, id or file name.
pub(crate) fn identify(names: &[&str], gsis: &[String]) -> Option<(Metric, Option<String>)> {
    let hay: Vec<String> = names.iter().map(|s| s.to_ascii_lowercase()).collect();
    let has = |needle: &str| hay.iter().any(|h| h.contains(&needle.to_ascii_lowercase()));
    if has("ThrottledRequests") {
        // Requests, not units or events: the per-dimension throttle events are read instead.
        return None;
    }
    let metric = if has("ConsumedReadCapacityUnits") {
        Metric::Consumed(Dim::Read)
    } else if has("ConsumedWriteCapacityUnits") {
        Metric::Consumed(Dim::Write)
    } else if has("ProvisionedReadCapacityUnits") {
        Metric::Provisioned(Dim::Read)
    } else if has("ProvisionedWriteCapacityUnits") {
        Metric::Provisioned(Dim::Write)
    } else if let Some((d, r)) = Dim::ALL.iter().flat_map(|&d| Reason::ALL.map(|r| (d, r))).find(|&(d, r)| has(r.events_metric(d))) {
        Metric::ReasonEvents(d, r)
    } else if has("ReadThrottleEvents") {
        Metric::ThrottleEvents(Dim::Read)
    } else if has("WriteThrottleEvents") {
        Metric::ThrottleEvents(Dim::Write)
    } else if has("SuccessfulRequestLatency") || has("SampleCount") || has("Requests") {
        let op = OPERATIONS.iter().find(|op| has(op))?;
        Metric::Requests((*op).to_string())
    } else {
        return None;
    };
    // The longest GSI name that appears wins (an index "ByDate" inside "ByDateAndUser").
    let mut by_len: Vec<&String> = gsis.iter().collect();
    by_len.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let index = by_len.into_iter().find(|g| has(g)).cloned();
    Some((metric, index))
}

/// Parses a timestamp as CloudWatch writes it: RFC 3339 (`2026-11-20T10:05:00Z`,
/// `+00:00`, fractional seconds) or the console's `2026-11-20 10:05:00` (UTC).
pub(crate) fn timestamp(s: &str) -> Option<i64> {
    use time::format_description::well_known::Rfc3339;
    let s = s.trim().trim_matches('"');
    if let Ok(t) = time::OffsetDateTime::parse(s, &Rfc3339) {
        return Some(t.unix_timestamp());
    }
    let t = s.replace(' ', "T");
    let t = if t.len() == 19 { format!("{t}Z") } else { t };
    time::OffsetDateTime::parse(&t, &Rfc3339).ok().map(|t| t.unix_timestamp())
}

/// A timestamp in JSON: an ISO 8601 string (the AWS CLI v2, `cli_timestamp_format = iso8601`)
/// or Unix seconds (the wire format, which the AWS CLI v1 prints as it comes).
fn json_time(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => timestamp(s),
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite() && x.abs() < 1e11).map(|x| x.floor() as i64),
        _ => None,
    }
}

/// Reads one metrics file into `history`; `false` when it is not a metrics file.
pub(crate) fn read(doc: &Doc, gsis: &[String], history: &mut History) -> Result<bool, ImportError> {
    let file = doc.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(results) = doc.value.get("MetricDataResults").and_then(Value::as_array) {
        for (i, r) in results.iter().enumerate() {
            let at = format!("/MetricDataResults/{i}");
            let label = r.get("Label").and_then(Value::as_str).unwrap_or_default();
            let id = r.get("Id").and_then(Value::as_str).unwrap_or_default();
            let Some((metric, index)) = identify(&[label, id], gsis) else {
                history.notes.push(format!("{}: at {at}: \"{label}\" ({id}) is not a metric ddbsim reads; skipped", doc.path.display()));
                continue;
            };
            if r.get("StatusCode").and_then(Value::as_str) == Some("PartialData") {
                history.notes.push(format!(
                    "{}: at {at}: \"{label}\" is PartialData (CloudWatch had more datapoints than it returned; fetch the next page with NextToken)",
                    doc.path.display()
                ));
            }
            let (Some(ts), Some(vs)) = (r.get("Timestamps").and_then(Value::as_array), r.get("Values").and_then(Value::as_array)) else {
                return Err(doc.error(&at, "a MetricDataResults entry needs Timestamps and Values"));
            };
            if ts.len() != vs.len() {
                return Err(doc.error(&at, format!("{} Timestamps but {} Values", ts.len(), vs.len())));
            }
            let mut points = Vec::with_capacity(ts.len());
            for (j, (t, v)) in ts.iter().zip(vs).enumerate() {
                let t = json_time(t).ok_or_else(|| doc.error(&format!("{at}/Timestamps/{j}"), "not an ISO 8601 time or Unix seconds"))?;
                match v.as_f64() {
                    Some(x) if x.is_finite() => points.push((t, x)),
                    _ => history.notes.push(format!("{}: at {at}/Values/{j}: not a number; skipped", doc.path.display())),
                }
            }
            history.series.push(Series { metric, index, points, file: doc.path.clone(), at: at.to_string(), period: None });
        }
        return Ok(true);
    }
    if let Some(dps) = doc.value.get("Datapoints").and_then(Value::as_array) {
        let label = doc.value.get("Label").and_then(Value::as_str).unwrap_or_default();
        let Some((metric, index)) = identify(&[label, &file], gsis) else {
            return Err(doc.error("/Label", format!("\"{label}\" is not a metric ddbsim reads")));
        };
        let stat = match metric {
            Metric::Provisioned(_) => ["Average", "Maximum", "Sum"],
            Metric::Requests(_) => ["SampleCount", "Sum", "Average"],
            _ => ["Sum", "Average", "Maximum"],
        };
        let mut points = Vec::with_capacity(dps.len());
        for (j, d) in dps.iter().enumerate() {
            let at = format!("/Datapoints/{j}");
            let t = d
                .get("Timestamp")
                .and_then(json_time)
                .ok_or_else(|| doc.error(&format!("{at}/Timestamp"), "not an ISO 8601 time or Unix seconds"))?;
            let Some(x) = stat.iter().find_map(|s| d.get(*s).and_then(Value::as_f64)) else {
                return Err(doc.error(&at, format!("no {} statistic", stat[0])));
            };
            if x.is_finite() {
                points.push((t, x));
            }
        }
        history.series.push(Series { metric, index, points, file: doc.path.clone(), at: String::new(), period: None });
        return Ok(true);
    }
    Ok(false)
}

/// Reads the CloudWatch console's CSV download: a header row (a time column, then one column
/// per series, named by its label), then one row per period.
pub(crate) fn read_csv(path: &std::path::Path, text: &str, gsis: &[String], history: &mut History) -> Result<(), ImportError> {
    let err = |line: usize, m: String| ImportError { file: path.to_path_buf(), at: format!("line {line}"), message: m };
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else { return Err(err(1, "the CSV is empty".into())) };
    let cols: Vec<String> = split_csv(header);
    let mut series: Vec<Option<Series>> = cols
        .iter()
        .skip(1)
        .map(|c| {
            identify(&[c], gsis).map(|(metric, index)| Series {
                metric,
                index,
                points: Vec::new(),
                file: path.to_path_buf(),
                at: format!("column \"{c}\""),
                period: None,
            })
        })
        .collect();
    for (k, c) in cols.iter().skip(1).enumerate() {
        if series[k].is_none() {
            history.notes.push(format!("{}: column \"{c}\" is not a metric ddbsim reads; skipped", path.display()));
        }
    }
    for (n, line) in lines {
        let f = split_csv(line);
        let t = f
            .first()
            .and_then(|t| timestamp(t))
            .ok_or_else(|| err(n + 1, format!("\"{}\" is not a time", f.first().cloned().unwrap_or_default())))?;
        for (k, s) in series.iter_mut().enumerate() {
            let Some(s) = s else { continue };
            if let Some(v) = f.get(k + 1).map(|v| v.trim()).filter(|v| !v.is_empty()) {
                match v.parse::<f64>() {
                    Ok(x) if x.is_finite() => s.points.push((t, x)),
                    _ => return Err(err(n + 1, format!("\"{v}\" in column {} is not a number", k + 2))),
                }
            }
        }
    }
    history.series.extend(series.into_iter().flatten());
    Ok(())
}

fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

/// The longest history replayed: a scenario runs at most 366 days.
const MAX_SPAN_S: i64 = 366 * 86_400;

/// Per-minute values on a common grid.
#[derive(Debug, Default)]
pub(crate) struct Grid {
    /// Unix seconds of the first minute.
    pub(crate) start: i64,
    /// Minutes.
    pub(crate) minutes: usize,
    /// By (metric, index): per minute, a rate a second (Sum metrics) or a level (Provisioned);
    /// `None` where the history has no datapoint.
    pub(crate) values: BTreeMap<(Metric, Option<String>), Vec<Option<f64>>>,
    /// The table's consumed units are the table's and its GSIs' together.
    pub(crate) units_include_indexes: bool,
}

impl History {
    /// Sorts each series by time, keeps the first of duplicate timestamps (pages or files that
    /// overlap), and notes them; notes two series of one file that read as one (a GSI's series
    /// whose index the scenario lacks reads as the table's: the first is kept).
    fn sort_and_note(&mut self) {
        for s in &mut self.series {
            s.points.sort_by_key(|p| p.0);
            let before = s.points.len();
            s.points.dedup_by_key(|p| p.0);
            if s.points.len() < before {
                self.notes.push(format!("{}: {} duplicate timestamps; the first kept", s.origin(), before - s.points.len()));
            }
        }
        let mut first_of: BTreeMap<(Metric, Option<String>), &Series> = BTreeMap::new();
        for s in &self.series {
            match first_of.get(&(s.metric.clone(), s.index.clone())) {
                Some(f) if f.file == s.file => self.notes.push(format!(
                    "{}: read as the same series as {} (the first kept): does it name an index the scenario lacks?",
                    s.origin(),
                    f.origin()
                )),
                Some(_) => {}
                None => {
                    first_of.insert((s.metric.clone(), s.index.clone()), s);
                }
            }
        }
    }
}

impl Grid {
    /// The series on one-minute steps from the earliest to the last datapoint's period. A Sum
    /// over a period of P seconds is a rate of Sum / P in each of its minutes; a Provisioned
    /// average holds for the period. Duplicates (pages or files that overlap) keep the first.
    pub(crate) fn build(history: &mut History) -> Result<Option<Grid>, BuildError> {
        let mut start = i64::MAX;
        let mut end = i64::MIN;
        let mut periods = Vec::new();
        history.sort_and_note();
        // A series' period is what its source states, else its datapoints' spacing; a single
        // datapoint takes the period of the other series of its file (one query, one period).
        let spacing = |s: &Series| s.period.or_else(|| s.points.windows(2).map(|w| w[1].0 - w[0].0).filter(|d| *d > 0).min());
        for s in &history.series {
            let own = spacing(s).or_else(|| history.series.iter().filter(|o| o.file == s.file).filter_map(spacing).min());
            let period = match own {
                Some(p) => p.clamp(60, 3_600),
                None if s.points.len() == 1 => {
                    return Err(BuildError {
                        file: Some(s.file.clone()),
                        at: s.at.clone(),
                        message: "a single datapoint, and nothing says how long a period it sums (a minute, five, an hour): \
                                  give the series at least two datapoints"
                            .into(),
                    })
                }
                None => 60,
            };
            let period = if period >= 300 { period - period % 60 } else { 60 };
            periods.push(period);
            if let (Some(a), Some(b)) = (s.points.first(), s.points.last()) {
                start = start.min(a.0 - a.0.rem_euclid(60));
                end = end.max(b.0 + period);
            }
        }
        if start >= end {
            return Ok(None);
        }
        if end - start > MAX_SPAN_S {
            return Err(BuildError {
                file: None,
                at: String::new(),
                message: format!(
                    "the metrics span {} days (from {} to {} Unix seconds); ddbsim replays at most 366 days: give a shorter history",
                    (end - start) / 86_400,
                    start,
                    end
                ),
            });
        }
        let minutes = ((end - start) / 60) as usize;
        let mut values: BTreeMap<(Metric, Option<String>), Vec<Option<f64>>> = BTreeMap::new();
        for (s, &period) in history.series.iter().zip(&periods) {
            let per = (period / 60) as usize;
            let row = values.entry((s.metric.clone(), s.index.clone())).or_insert_with(|| vec![None; minutes]);
            let mut gaps = 0;
            // Datapoints less than a minute apart (sub-minute Sums, or a period not on the
            // minute) share a minute: their sums add, a provisioned level keeps its largest.
            let mut shared = 0;
            let mut last_minute = None;
            for (k, &(t, v)) in s.points.iter().enumerate() {
                let m0 = ((t - start) / 60) as usize;
                if last_minute == Some(m0) {
                    shared += 1;
                    let x = match s.metric {
                        Metric::Provisioned(_) => v,
                        _ => v / 60.0,
                    };
                    if let Some(cell) = row.get_mut(m0) {
                        *cell = Some(match (s.metric.clone(), *cell) {
                            (Metric::Provisioned(_), Some(c)) => c.max(x),
                            (_, Some(c)) => c + x,
                            (_, None) => x,
                        });
                    }
                    continue;
                }
                last_minute = Some(m0);
                let x = match s.metric {
                    Metric::Provisioned(_) => v,
                    _ => v / period as f64,
                };
                if !(0.0..=crate::limits::MAX_REQUEST_RATE).contains(&x) {
                    return Err(BuildError {
                        file: Some(s.file.clone()),
                        at: s.at.clone(),
                        message: format!(
                            "a value of {} over {period} s is {} a second; ddbsim takes 0 to 1e9 units or requests a second",
                            short_number(v),
                            short_number(x)
                        ),
                    });
                }
                for cell in row.iter_mut().take((m0 + per).min(minutes)).skip(m0) {
                    if cell.is_none() {
                        *cell = Some(x);
                    }
                }
                if let Some(&(next, _)) = s.points.get(k + 1) {
                    gaps += ((next - t) / period - 1).max(0);
                }
            }
            if gaps > 0 {
                history.notes.push(format!("{}: {gaps} missing periods of {period} s (read as no traffic)", s.origin()));
            }
            if shared > 0 {
                history.notes.push(format!(
                    "{}: {shared} datapoints less than a minute after another: added into their minute (a provisioned level: the largest kept)",
                    s.origin()
                ));
            }
        }
        Ok(Some(Grid { start, minutes, values, units_include_indexes: history.units_include_indexes }))
    }

    /// The per-minute values of a metric, zeros where absent (`None`: the metric is absent).
    pub(crate) fn get(&self, metric: &Metric, index: Option<&str>) -> Option<Vec<f64>> {
        self.values.get(&(metric.clone(), index.map(str::to_string))).map(|v| v.iter().map(|x| x.unwrap_or(0.0)).collect())
    }
}

/// A number short enough to quote: plain up to a billion, else in scientific notation
/// (`1e300`, never its 301 digits).
fn short_number(x: f64) -> String {
    if x.is_finite() && x.abs() < 1e9 && (x == 0.0 || x.abs() >= 1e-3) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-reason metrics by AWS's names (the account-limit one has no "Throughput"), an
    /// index's by its name, and none of them read as the all-reason `WriteThrottleEvents`.
    #[test]
    fn per_reason_throttle_metrics_are_recognised() {
        let gsis = ["ByStatus".to_string()];
        assert_eq!(
            identify(&["WriteAccountLimitThrottleEvents"], &gsis),
            Some((Metric::ReasonEvents(Dim::Write, Reason::AccountLimit), None))
        );
        assert_eq!(
            identify(&["ReadKeyRangeThroughputThrottleEvents ByStatus"], &gsis),
            Some((Metric::ReasonEvents(Dim::Read, Reason::KeyRange), Some("ByStatus".into())))
        );
        assert_eq!(identify(&["", "wprov"], &gsis), None);
        assert_eq!(
            identify(&["WriteProvisionedThroughputThrottleEvents"], &gsis),
            Some((Metric::ReasonEvents(Dim::Write, Reason::Provisioned), None))
        );
        assert_eq!(identify(&["WriteThrottleEvents"], &gsis), Some((Metric::ThrottleEvents(Dim::Write), None)));
    }
}
