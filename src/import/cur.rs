//! The AWS Cost and Usage Report as a source of a table's usage hour by hour (`import --cur`):
//! the legacy CUR (`lineItem/UsageType`, ...) or CUR 2.0 from Data Exports
//! (`line_item_usage_type`, ...), as CSV (gzip or not).
//!
//! DynamoDB's usage line items name the table by its ARN (`lineItem/ResourceId`) and what was
//! used by the usage type, after an optional region prefix (`USE2-`, `EU-`; us-east-1 has none)
//! and a Standard-IA `IA-`:
//!
//! - `ReadRequestUnits` / `WriteRequestUnits`: on-demand request units consumed, read as
//!   CloudWatch's `ConsumedRead/WriteCapacityUnits` summed over the hour;
//! - `ReadCapacityUnit-Hrs` / `WriteCapacityUnit-Hrs`: provisioned capacity, unit-hours in an
//!   hour, read as `ProvisionedRead/WriteCapacityUnits`;
//! - `TimedStorage-ByteHrs`: bytes stored (byte-hours in an hour), the table's size.
//!
//! Every other DynamoDB usage (backups, streams, replication, transfer) and every other
//! service is skipped and counted in a note. The CUR bills a table's GSIs under the table's
//! ARN, so its series are the table's and its indexes' together; and it bills a provisioned
//! table's capacity, not what it consumed. A daily or monthly report cannot size hourly
//! reservations: it is refused.

use super::metrics::{timestamp, History, Metric, Series};
use super::{ImportError, TableDef};
use crate::model::Dim;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The columns read, in the legacy CUR's and CUR 2.0's spellings.
const COLUMNS: [(&str, &str); 6] = [
    ("lineItem/UsageStartDate", "line_item_usage_start_date"),
    ("lineItem/UsageEndDate", "line_item_usage_end_date"),
    ("lineItem/ProductCode", "line_item_product_code"),
    ("lineItem/UsageType", "line_item_usage_type"),
    ("lineItem/ResourceId", "line_item_resource_id"),
    ("lineItem/UsageAmount", "line_item_usage_amount"),
];

/// Does this CSV's header look like a Cost and Usage Report's?
pub(crate) fn is_cur(text: &str) -> bool {
    text.lines().next().is_some_and(|h| h.contains("lineItem/UsageType") || h.contains("line_item_usage_type"))
}

/// What one DynamoDB usage line item measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Request units consumed (on-demand).
    Requests(Dim),
    /// Provisioned capacity, unit-hours.
    Capacity(Dim),
    /// Bytes stored, byte-hours.
    Storage,
}

/// The DynamoDB usage of a report, summed by table, kind and hour.
#[derive(Debug)]
pub(crate) struct Cur {
    path: PathBuf,
    /// (table, kind, hour start) -> amount.
    usage: BTreeMap<(String, Kind, i64), f64>,
    /// Table -> (region, Standard-IA).
    tables: BTreeMap<String, (Option<String>, bool)>,
    /// Usage types skipped, with their line counts.
    skipped: BTreeMap<String, u64>,
}

/// The kind of a usage type, and whether it is Standard-IA's.
fn kind(usage_type: &str) -> Option<(Kind, bool)> {
    let ia = usage_type.contains("IA-");
    let is = |suffix: &str| usage_type == suffix || usage_type.ends_with(&format!("-{suffix}"));
    let k = if is("ReadRequestUnits") {
        Kind::Requests(Dim::Read)
    } else if is("WriteRequestUnits") {
        Kind::Requests(Dim::Write)
    } else if is("ReadCapacityUnit-Hrs") {
        Kind::Capacity(Dim::Read)
    } else if is("WriteCapacityUnit-Hrs") {
        Kind::Capacity(Dim::Write)
    } else if is("TimedStorage-ByteHrs") {
        Kind::Storage
    } else {
        return None;
    };
    Some((k, ia))
}

/// The table name and region of a DynamoDB resource id (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`,
/// or a bare name).
fn table_of(resource: &str) -> Option<(String, Option<String>)> {
    let name = resource.split("table/").nth(1).map_or(resource, |rest| rest.split('/').next().unwrap_or(rest));
    let region = resource.strip_prefix("arn:").and_then(|r| r.split(':').nth(2)).filter(|r| !r.is_empty()).map(str::to_string);
    (!name.is_empty()).then(|| (name.to_string(), region))
}

/// Parses a report: its DynamoDB usage by table and hour.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Cur, ImportError> {
    let err = |at: String, m: String| ImportError { file: path.to_path_buf(), at, message: m };
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| err("line 1".into(), format!("not CSV: {e}")))?.clone();
    let mut col = [0usize; 6];
    for (i, (legacy, v2)) in COLUMNS.iter().enumerate() {
        col[i] = header
            .iter()
            .position(|h| h == *legacy || h == *v2)
            .ok_or_else(|| err("line 1".into(), format!("no column {legacy} (or {v2}): export the report with its line-item columns")))?;
    }
    let mut cur = Cur { path: path.to_path_buf(), usage: BTreeMap::new(), tables: BTreeMap::new(), skipped: BTreeMap::new() };
    for (n, row) in reader.records().enumerate() {
        let line = n + 2;
        let row = row.map_err(|e| err(format!("line {line}"), format!("not CSV: {e}")))?;
        let field = |c: usize| row.get(col[c]).unwrap_or("").trim();
        if field(2) != "AmazonDynamoDB" {
            continue;
        }
        let Some((k, ia)) = kind(field(3)) else {
            *cur.skipped.entry(field(3).to_string()).or_default() += 1;
            continue;
        };
        let Some((table, region)) = table_of(field(4)) else {
            *cur.skipped.entry(format!("{} (no resource id)", field(3))).or_default() += 1;
            continue;
        };
        let time = |c: usize, name: &str| {
            timestamp(field(c)).ok_or_else(|| err(format!("line {line}, {name}"), format!("\"{}\" is not a time", field(c))))
        };
        let (start, end) = (time(0, COLUMNS[0].0)?, time(1, COLUMNS[1].0)?);
        if end - start > 3_600 {
            return Err(err(
                format!("line {line}"),
                format!(
                    "a line item of {} hours: the report is not hourly; export it at hourly granularity (reservations are sized hour by hour)",
                    (end - start) / 3_600
                ),
            ));
        }
        let amount: f64 = field(5)
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| err(format!("line {line}, {}", COLUMNS[5].0), format!("\"{}\" is not a usage amount", field(5))))?;
        *cur.usage.entry((table.clone(), k, start - start.rem_euclid(3_600))).or_default() += amount;
        let entry = cur.tables.entry(table).or_insert((region, ia));
        entry.1 |= ia;
    }
    Ok(cur)
}

impl Cur {
    /// The tables the report bills, as far as it can say: name, region, on-demand or the
    /// provisioned capacity of its last hour, Standard-IA, the bytes of its last stored hour.
    /// It states no key schema: the partition key is `pk`, an assumption the notes give.
    pub(crate) fn tables(&self) -> Vec<TableDef> {
        self.tables
            .iter()
            .map(|(name, (region, ia))| {
                let last =
                    |k: Kind| self.usage.range((name.clone(), k, i64::MIN)..=(name.clone(), k, i64::MAX)).next_back().map(|(_, v)| *v);
                let requests = self.usage.keys().any(|(t, k, _)| t == name && matches!(k, Kind::Requests(_)));
                let provisioned = match (last(Kind::Capacity(Dim::Read)), last(Kind::Capacity(Dim::Write))) {
                    (r, w) if !requests && (r.is_some() || w.is_some()) => {
                        Some([r.unwrap_or(0.0).round() as u64, w.unwrap_or(0.0).round() as u64])
                    }
                    _ => None,
                };
                TableDef {
                    name: name.clone(),
                    hash_key: "pk".into(),
                    provisioned,
                    infrequent_access: *ia,
                    size_bytes: last(Kind::Storage).map(|b| b.round() as u64),
                    region: region.clone(),
                    ..TableDef::default()
                }
            })
            .collect()
    }

    /// Adds `table`'s hourly series to `history`, with notes of what was skipped and what the
    /// report cannot say; an error when it bills the table's capacity but no request units
    /// (a provisioned table: the report does not say what it consumed).
    pub(crate) fn series(&self, table: &str, history: &mut History) -> Result<(), ImportError> {
        let mut by_kind: BTreeMap<Kind, Vec<(i64, f64)>> = BTreeMap::new();
        for ((t, k, hour), v) in &self.usage {
            if t == table && *k != Kind::Storage {
                by_kind.entry(*k).or_default().push((*hour, *v));
            }
        }
        let billed: Vec<&String> = self.tables.keys().collect();
        if by_kind.is_empty() {
            return Err(ImportError {
                file: self.path.clone(),
                at: String::new(),
                message: format!("no DynamoDB usage of table {table} in the report; it bills {}", names(&billed)),
            });
        }
        if !by_kind.keys().any(|k| matches!(k, Kind::Requests(_))) {
            return Err(ImportError {
                file: self.path.clone(),
                at: String::new(),
                message: format!(
                    "the report bills {table}'s provisioned capacity (ReadCapacityUnit-Hrs, WriteCapacityUnit-Hrs) but not what it consumed: give its CloudWatch history with --metrics (ConsumedReadCapacityUnits, ConsumedWriteCapacityUnits)"
                ),
            });
        }
        for (k, points) in by_kind {
            let (metric, label) = match k {
                Kind::Requests(d) => (Metric::Consumed(d), if d == Dim::Read { "ReadRequestUnits" } else { "WriteRequestUnits" }),
                Kind::Capacity(d) => {
                    (Metric::Provisioned(d), if d == Dim::Read { "ReadCapacityUnit-Hrs" } else { "WriteCapacityUnit-Hrs" })
                }
                Kind::Storage => continue,
            };
            history.series.push(Series {
                metric,
                index: None,
                points,
                file: self.path.clone(),
                at: format!("usage type {label} of {table}"),
            });
        }
        history.notes.push(format!(
            "{}: the Cost and Usage Report bills a table's GSIs under the table: {table}'s hourly units are the table's and its indexes' together, read as the table's (ASSUMPTION: no index writes)",
            self.path.display()
        ));
        if !self.skipped.is_empty() {
            let list: Vec<String> = self.skipped.iter().map(|(t, n)| format!("{t} ({n})")).collect();
            history.notes.push(format!("{}: DynamoDB usage ddbsim does not replay, skipped: {}", self.path.display(), list.join(", ")));
        }
        Ok(())
    }
}

fn names(v: &[&String]) -> String {
    if v.is_empty() {
        "no table".into()
    } else {
        v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_types_and_resources_are_read() {
        assert_eq!(kind("ReadRequestUnits"), Some((Kind::Requests(Dim::Read), false)));
        assert_eq!(kind("USE2-WriteRequestUnits"), Some((Kind::Requests(Dim::Write), false)));
        assert_eq!(kind("EU-IA-ReadCapacityUnit-Hrs"), Some((Kind::Capacity(Dim::Read), true)));
        assert_eq!(kind("APN1-TimedStorage-ByteHrs"), Some((Kind::Storage, false)));
        assert_eq!(kind("USE1-ReplWriteRequestUnits"), None);
        assert_eq!(kind("TimedBackupStorage-ByteHrs"), None);
        assert_eq!(table_of("arn:aws:dynamodb:eu-west-1:123456789012:table/Orders"), Some(("Orders".into(), Some("eu-west-1".into()))));
        assert_eq!(table_of("Orders"), Some(("Orders".into(), None)));
    }
}
