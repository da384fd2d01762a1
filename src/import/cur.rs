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
//! - `TimedStorage-ByteHrs`: storage, its amount in the line's pricing unit, GB-months (cost =
//!   amount x the $/GB-month rate): an hourly line of a table of G GB says G / 730 (ddbsim's
//!   730-hour month, so that the replay bills the report's dollars);
//! - `TimedPITRStorage-ByteHrs`: point-in-time recovery's storage, so PITR is on.
//!
//! A table is its account, Region and name (from its ARN): two tables named Orders in two
//! Regions or two accounts are two tables. Every other DynamoDB usage (backups, streams,
//! replication, transfer) and every other service is skipped and counted in a note. The CUR
//! bills a table's GSIs under the table's ARN, so its request units are the table's and its
//! indexes' together: the import splits them by the definition's indexes, so the replay bills
//! them once. It bills a provisioned table's capacity, not what it consumed. A daily or monthly
//! report cannot size hourly reservations: it is refused.

use super::metrics::{timestamp, History, Metric, Series};
use super::{ImportError, TableDef};
use crate::limits::{GB, HOURS_PER_MONTH};
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
    /// Storage, GB-months.
    Storage,
    /// Point-in-time recovery's storage, GB-months.
    PitrStorage,
}

/// A table the report bills: its name, Region and account (from its ARN).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TableId {
    name: String,
    region: Option<String>,
    account: Option<String>,
}

impl TableId {
    /// `Orders (us-east-2, account 111122223333)`.
    fn shown(&self) -> String {
        let mut at: Vec<String> = Vec::new();
        at.extend(self.region.clone());
        at.extend(self.account.as_ref().map(|a| format!("account {a}")));
        if at.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, at.join(", "))
        }
    }

    /// Is this the table `t` names (its name, and its Region and account where `t` states them)?
    fn is(&self, t: &TableDef) -> bool {
        self.name == t.name
            && t.region.as_ref().is_none_or(|r| self.region.as_ref() == Some(r))
            && t.account.as_ref().is_none_or(|a| self.account.as_ref() == Some(a))
    }
}

/// The DynamoDB usage of a report, summed by table, kind and hour.
#[derive(Debug)]
pub(crate) struct Cur {
    path: PathBuf,
    /// (table, kind, hour start) -> amount.
    usage: BTreeMap<(TableId, Kind, i64), f64>,
    /// Table -> Standard-IA.
    tables: BTreeMap<TableId, bool>,
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
    } else if is("TimedPITRStorage-ByteHrs") {
        Kind::PitrStorage
    } else {
        return None;
    };
    Some((k, ia))
}

/// The table of a DynamoDB resource id (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`, or a
/// bare name, whose account is the line's usage account when the report has that column).
fn table_of(resource: &str, usage_account: Option<&str>) -> Option<TableId> {
    let name = resource.split("table/").nth(1).map_or(resource, |rest| rest.split('/').next().unwrap_or(rest));
    let arn = |i: usize| resource.strip_prefix("arn:").and_then(|r| r.split(':').nth(i)).filter(|r| !r.is_empty()).map(str::to_string);
    let account = arn(3).or_else(|| usage_account.filter(|a| !a.is_empty()).map(str::to_string));
    (!name.is_empty()).then(|| TableId { name: name.to_string(), region: arn(2), account })
}

/// The usage account column, in either spelling (optional).
const ACCOUNT_COLUMN: (&str, &str) = ("lineItem/UsageAccountId", "line_item_usage_account_id");

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
    let account_col = header.iter().position(|h| h == ACCOUNT_COLUMN.0 || h == ACCOUNT_COLUMN.1);
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
        let Some(table) = table_of(field(4), account_col.and_then(|c| row.get(c)).map(str::trim)) else {
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
        *cur.tables.entry(table).or_insert(ia) |= ia;
    }
    Ok(cur)
}

impl Cur {
    /// The amount of `table`'s last hour of usage `k`.
    fn last(&self, table: &TableId, k: Kind) -> Option<f64> {
        self.usage.range((table.clone(), k, i64::MIN)..=(table.clone(), k, i64::MAX)).next_back().map(|(_, v)| *v)
    }

    /// Bytes stored in `table`'s last billed hour: its GB-months times the month's hours.
    fn stored_bytes(&self, table: &TableId) -> Option<u64> {
        self.last(table, Kind::Storage).map(|gb_months| (gb_months * HOURS_PER_MONTH * GB as f64).round() as u64)
    }

    /// The tables the report bills, as far as it can say: name, Region, account, on-demand or
    /// the provisioned capacity of its last hour, Standard-IA, the bytes of its last stored
    /// hour, PITR. It states no key schema: the partition key is `pk`, an assumption the notes
    /// give.
    pub(crate) fn tables(&self) -> Vec<TableDef> {
        self.tables
            .iter()
            .map(|(id, ia)| {
                let last = |k: Kind| self.last(id, k);
                let requests = self.usage.keys().any(|(t, k, _)| t == id && matches!(k, Kind::Requests(_)));
                let provisioned = match (last(Kind::Capacity(Dim::Read)), last(Kind::Capacity(Dim::Write))) {
                    (r, w) if !requests && (r.is_some() || w.is_some()) => {
                        Some([r.unwrap_or(0.0).round() as u64, w.unwrap_or(0.0).round() as u64])
                    }
                    _ => None,
                };
                TableDef {
                    name: id.name.clone(),
                    hash_key: "pk".into(),
                    provisioned,
                    infrequent_access: *ia,
                    size_bytes: self.stored_bytes(id),
                    pitr: last(Kind::PitrStorage).map(|_| None),
                    region: id.region.clone(),
                    account: id.account.clone(),
                    ..TableDef::default()
                }
            })
            .collect()
    }

    /// Adds `table`'s hourly series to `history`, with notes of what was skipped and what the
    /// report cannot say; an error when it bills the table's capacity but no request units
    /// (a provisioned table: the report does not say what it consumed).
    /// Fills in what the report says of `chosen` that its definition does not: PITR on (the
    /// report bills its storage), and its size (the last hour's stored GB, its indexes'
    /// included, as the report bills them).
    pub(crate) fn series(&self, chosen: &mut TableDef, history: &mut History) -> Result<(), ImportError> {
        let table = chosen.name.clone();
        let table = table.as_str();
        let err = |message: String| ImportError { file: self.path.clone(), at: String::new(), message };
        let ids: Vec<&TableId> = self.tables.keys().filter(|id| id.is(chosen)).collect();
        if ids.len() > 1 {
            let list: Vec<String> = ids.iter().map(|id| id.shown()).collect();
            return Err(err(format!(
                "the report bills {} tables named {table}: {}; choose one with --table and its ARN (arn:aws:dynamodb:REGION:ACCOUNT:table/{table})",
                ids.len(),
                list.join(", ")
            )));
        }
        let mut by_kind: BTreeMap<Kind, Vec<(i64, f64)>> = BTreeMap::new();
        for ((t, k, hour), v) in &self.usage {
            if Some(&t) == ids.first() && matches!(k, Kind::Requests(_) | Kind::Capacity(_)) {
                by_kind.entry(*k).or_default().push((*hour, *v));
            }
        }
        if let Some(id) = ids.first() {
            if chosen.pitr.is_none() && self.last(id, Kind::PitrStorage).is_some() {
                chosen.pitr = Some(None);
                history
                    .notes
                    .push(format!("{}: the report bills {table}'s point-in-time recovery storage: PITR is on", self.path.display()));
            }
            if chosen.size_bytes.is_none() {
                chosen.size_bytes = self.stored_bytes(id);
            }
        }
        let billed: Vec<String> = self.tables.keys().map(TableId::shown).collect();
        if by_kind.is_empty() {
            return Err(err(format!("no DynamoDB usage of table {table} in the report; it bills {}", names(&billed))));
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
                Kind::Storage | Kind::PitrStorage => continue,
            };
            history.series.push(Series {
                metric,
                index: None,
                points,
                file: self.path.clone(),
                at: format!("usage type {label} of {table}"),
                period: Some(3_600),
            });
        }
        history.units_include_indexes = true;
        if !self.skipped.is_empty() {
            let list: Vec<String> = self.skipped.iter().map(|(t, n)| format!("{t} ({n})")).collect();
            history.notes.push(format!("{}: DynamoDB usage ddbsim does not replay, skipped: {}", self.path.display(), list.join(", ")));
        }
        Ok(())
    }
}

fn names(v: &[String]) -> String {
    if v.is_empty() {
        "no table".into()
    } else {
        v.join(", ")
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
        assert_eq!(kind("USE2-TimedPITRStorage-ByteHrs"), Some((Kind::PitrStorage, false)));
        let id = |region: Option<&str>, account: Option<&str>| TableId {
            name: "Orders".into(),
            region: region.map(str::to_string),
            account: account.map(str::to_string),
        };
        assert_eq!(
            table_of("arn:aws:dynamodb:eu-west-1:123456789012:table/Orders", Some("999")),
            Some(id(Some("eu-west-1"), Some("123456789012")))
        );
        assert_eq!(table_of("Orders", Some("999")), Some(id(None, Some("999"))));
        assert_eq!(table_of("Orders", None), Some(id(None, None)));
    }
}
