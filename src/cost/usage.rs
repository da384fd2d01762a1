//! What a run used, as the bill needs it: per table and GSI, the request units consumed while
//! on-demand, the provisioned units in force minute by minute, and the bytes stored.

use super::metered::MeteredUsage;
use crate::engine::RunResult;
use crate::model::Dim;
use crate::scenario::{BackupSpec, DaxNodeType, InsightsMode, Scenario, StreamsSpec, TableClass};
use crate::units::MILLI;
use serde::Serialize;

/// Recorded usage of one table or GSI.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ResourceUsage {
    /// Table or index name.
    pub name: String,
    /// On-demand for at least part of the window (on-demand lines are billed).
    pub on_demand: bool,
    /// Provisioned for at least part of the window (provisioned lines are billed).
    pub provisioned: bool,
    /// Hours of the window the resource was provisioned.
    pub provisioned_hours: f64,
    /// Read request units consumed while on-demand (what on-demand bills).
    pub on_demand_read_units: f64,
    /// Write request units consumed while on-demand.
    pub on_demand_write_units: f64,
    /// Read and write request units consumed while on-demand, per minute (empty: spread
    /// evenly over the window, as the screen of `recommend` records only totals).
    pub on_demand_units_by_minute: Vec<[f64; 2]>,
    /// Provisioned RCU per minute (time-weighted average of the minute, 0 while on-demand).
    pub provisioned_rcu_by_minute: Vec<f64>,
    /// Provisioned WCU per minute.
    pub provisioned_wcu_by_minute: Vec<f64>,
    /// Stored GB (10^9 bytes, as billed) per minute, weighted by the share of a minute simulated.
    pub storage_gb_by_minute: Vec<f64>,
    /// A replica (global tables): its region, whose prices bill it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Global tables: GB this region's own writes sent to the other regions (at most 1 KB per
    /// write unit, an estimate).
    pub transfer_gb: f64,
}

/// Backups, restores and exports of the table over the window (`[table.backups]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BackupUsage {
    /// GB-months of point-in-time recovery: the table's size (items and LSI entries) while on.
    pub pitr_gb_months: f64,
    /// PITR's recovery period, days (no effect on the price).
    pub pitr_recovery_days: u32,
    /// GB-months of on-demand backups stored: each backup's size, for the part of the window
    /// it was kept.
    pub backup_gb_months: f64,
    /// Mean number of on-demand backups stored.
    pub backups_stored: f64,
    /// (seconds from the start, GB) of each restore.
    pub restores: Vec<(u64, f64)>,
    /// (seconds from the start, GB) of each full export to S3.
    pub exports: Vec<(u64, f64)>,
}

impl BackupUsage {
    /// What `spec` bills, given the table's stored GB (10^9 bytes) in each minute and the seconds
    /// each minute lasted. A scheduled backup is taken every `every` seconds from the start, and
    /// the schedule is taken to have run before the window (steady state: `retain` backups are
    /// stored from the first minute; those taken before the start are the size the table had
    /// then, its size at the start). A one-off backup is kept from its minute to the end.
    #[must_use]
    pub fn of(spec: &BackupSpec, gb: &[f64], secs: &[u64]) -> Self {
        let at = |t: u64| gb.get((t / 60) as usize).or_else(|| gb.last()).copied().unwrap_or(0.0);
        let minutes_in_months = |gb_minutes: f64| gb_minutes / 60.0 / super::HOURS_PER_MONTH;
        let mut u = BackupUsage::default();
        let weight = |m: usize| secs[m] as f64 / 60.0;
        if spec.pitr {
            u.pitr_recovery_days = spec.recovery_days;
            u.pitr_gb_months = minutes_in_months(gb.iter().enumerate().map(|(m, g)| g * weight(m)).sum());
        }
        let mut stored_minutes = 0.0;
        let mut stored_count = 0.0;
        let mut count_weight = 0.0;
        for (m, w) in (0..gb.len()).map(|m| (m, weight(m))) {
            let t = m as u64 * 60;
            let mut stored = 0.0;
            let mut n = 0.0;
            if let Some((every, retain)) = spec.schedule {
                // The newest `retain` backups at t: k = t / every down to k - retain + 1.
                let newest = (t / every) as i64;
                for k in (newest - i64::from(retain) + 1)..=newest {
                    stored += if k <= 0 { at(0) } else { at(k as u64 * every) };
                    n += 1.0;
                }
            }
            for &b in spec.backup_at.iter().filter(|&&b| b <= t) {
                stored += at(b);
                n += 1.0;
            }
            stored_minutes += stored * w;
            stored_count += n * w;
            count_weight += w;
        }
        u.backup_gb_months = minutes_in_months(stored_minutes);
        u.backups_stored = if count_weight > 0.0 { stored_count / count_weight } else { 0.0 };
        u.restores = spec.restore_at.iter().map(|&t| (t, at(t))).collect();
        u.exports = spec.export_at.iter().map(|&t| (t, at(t))).collect();
        u
    }
}

/// DynamoDB Streams reads over the window (`[table.streams]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StreamsUsage {
    /// Shard-minutes: one shard per partition of the table, minute by minute.
    pub shard_minutes: f64,
    /// GetRecords calls of the pollers: the streams read request units billed.
    pub read_units: f64,
    /// Consumers whose reads are free (Lambda triggers, global tables replication).
    pub free_consumers: u32,
}

impl StreamsUsage {
    /// What the pollers of `spec` call, given the table's partitions and the write units it
    /// consumed in each minute and the seconds each minute lasted. Each poller calls every
    /// shard once per interval, or as often as a call's 1,000 records or 1 MB needs to carry
    /// what the shard wrote: one record per write unit (an item of up to 1 KB; larger items
    /// make fewer records, so this errs towards more calls), of 1 KB times the view's images.
    #[must_use]
    pub fn of(spec: &StreamsSpec, partitions: &[u64], write_units: &[f64], secs: &[u64]) -> Self {
        let mut u = StreamsUsage { free_consumers: spec.free_consumers, ..StreamsUsage::default() };
        for (m, &shards) in partitions.iter().enumerate() {
            let shards = shards.max(1) as f64;
            u.shard_minutes += shards * secs[m] as f64 / 60.0;
            let per_shard = write_units[m] / shards;
            let needed = (per_shard / 1_000.0).ceil().max((per_shard * spec.image_factor / 1_024.0).ceil());
            for &ms in &spec.pollers_ms {
                let polls = secs[m] as f64 * 1_000.0 / ms as f64;
                u.read_units += shards * polls.max(needed);
            }
        }
        u
    }
}

/// Recorded usage of a table and its GSIs over a window.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Usage {
    /// Hours simulated.
    pub hours: f64,
    /// Standard-IA (else Standard) table class.
    pub standard_ia: bool,
    /// Table first, then GSIs.
    pub resources: Vec<ResourceUsage>,
    /// The table's backups, restores and exports.
    pub backups: BackupUsage,
    /// The table's stream, if on.
    pub streams: Option<StreamsUsage>,
    /// The DAX cluster in front of the table, if any.
    pub dax: Option<DaxUsage>,
    /// CloudWatch Contributor Insights on the table and its GSIs.
    pub insights: Vec<InsightsUsage>,
    /// Units metered per request beside read and write units, per resource.
    pub metered: Vec<MeteredUsage>,
    /// Reserved capacity already owned (`[pricing] reserved`), over the window.
    pub owned: Vec<OwnedCover>,
}

/// A reservation owned, over the window: its units, and the minutes its term covers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OwnedCover {
    /// Reserved RCU.
    pub rcu: u64,
    /// Reserved WCU.
    pub wcu: u64,
    /// Term, years.
    pub years: u32,
    /// The window's minutes in its term: from the first, to the one after the last.
    pub minutes: (usize, usize),
    /// Hours of the window in its term.
    pub hours: f64,
}

impl OwnedCover {
    /// The part of `o`'s term in the window that starts at `start_unix_s` and whose minutes
    /// last `minute_secs` seconds each.
    #[must_use]
    pub fn of(o: &crate::scenario::OwnedReservation, start_unix_s: i64, minute_secs: &[u64]) -> Self {
        let n = minute_secs.len();
        // A minute is in the term when it begins in it.
        let minute = |t: i64| (((t - start_unix_s).max(0) + 59) / 60).min(n as i64) as usize;
        let (from, to) = (minute(o.start_unix_s), minute(o.end_unix_s()));
        let hours = minute_secs[from..to.max(from)].iter().sum::<u64>() as f64 / 3_600.0;
        OwnedCover { rcu: o.rcu, wcu: o.wcu, years: o.years, minutes: (from, to.max(from)), hours }
    }
}

/// CloudWatch Contributor Insights on one table or GSI over the window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InsightsUsage {
    /// Table or index.
    pub resource: String,
    /// The mode.
    pub mode: InsightsMode,
    /// Rules DynamoDB creates for it.
    pub rules: u32,
    /// Events: every item a request (throttled or not) touches there, or only the throttled
    /// ones in the throttled-keys mode.
    pub events: f64,
}

impl InsightsUsage {
    /// The Contributor Insights of `sc`'s table and GSIs over run `r`. An accessed-keys event
    /// is an item a request touches: each attempt's items on its table or index, and each
    /// admitted write's index entries on a GSI; a throttled-keys event is a throttle event.
    #[must_use]
    pub fn of(sc: &Scenario, r: &RunResult) -> Vec<Self> {
        let n = 1 + sc.gsis.len();
        let mut accessed = vec![0.0f64; n];
        for (p, t) in sc.patterns.iter().zip(&r.patterns) {
            let cp = crate::model::request::CompiledPattern::new(sc, p);
            let items = p.items.max(1) as f64;
            if cp.res < n {
                accessed[cp.res] += t.attempts as f64 * items;
            }
            for w in &cp.gsi {
                accessed[w.res] += (t.attempts - t.throttled_attempts) as f64 * items * w.coverage * w.writes as f64;
            }
        }
        let modes = std::iter::once((&sc.table.name, sc.table.partition_key, sc.table.contributor_insights))
            .chain(sc.gsis.iter().map(|g| (&g.name, g.partition_key, g.contributor_insights)));
        modes
            .enumerate()
            .filter_map(|(i, (name, ks, mode))| {
                let mode = mode?;
                let sort_key = sc.key_spaces.get(ks).is_some_and(|k| k.sort_keys.is_some());
                let throttled: u64 =
                    r.resources.get(i).map_or(0, |x| x.minutes.iter().map(|m| m.events(Dim::Read) + m.events(Dim::Write)).sum());
                Some(InsightsUsage {
                    resource: name.clone(),
                    mode,
                    rules: mode.rules(sort_key),
                    events: match mode {
                        InsightsMode::AccessedAndThrottledKeys => accessed[i],
                        InsightsMode::ThrottledKeys => throttled as f64,
                    },
                })
            })
            .collect()
    }
}

/// A DAX cluster's node-hours over the window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DaxUsage {
    /// Node type.
    pub node_type: DaxNodeType,
    /// Nodes.
    pub nodes: u32,
    /// Node-hours billed: each node's hours, a partial hour billed as a whole one.
    pub node_hours: f64,
}

impl DaxUsage {
    /// `nodes` nodes of `node_type` running for `hours`.
    #[must_use]
    pub fn of(node_type: DaxNodeType, nodes: u32, hours: f64) -> Self {
        // A partial node-hour is billed as a full hour (DAX pricing, [3P]); the 1e-9 keeps a
        // whole number of hours whole.
        Self { node_type, nodes, node_hours: f64::from(nodes) * (hours - 1e-9).ceil().max(0.0) }
    }
}

/// The table's series minute by minute, as the table-level lines bill them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableSeries {
    /// Seconds each minute lasted.
    pub minute_secs: Vec<u64>,
    /// Stored GB (10^9 bytes) in each minute.
    pub stored_gb: Vec<f64>,
    /// Partitions (the stream's shards) in each minute.
    pub partitions: Vec<u64>,
    /// Stream records written in each minute (a record per KB written or deleted by TTL).
    pub stream_records: Vec<f64>,
}

impl Usage {
    /// The usage a run recorded of `table` (its class and backups). Each minute counts in the
    /// mode it had: its provisioned seconds as provisioned unit-seconds, the rest as request
    /// units consumed while on-demand.
    #[must_use]
    pub fn of(r: &RunResult, sc: &Scenario) -> Self {
        let secs = |m: usize| r.minute_seconds(m);
        // Global tables: the regions a region's own writes replicate to.
        let regions = r.resources.iter().filter(|x| x.kind() == crate::engine::ResourceKind::Replica).count();
        let mut resources = r
            .resources
            .iter()
            .map(|res| {
                let series = &res.minutes;
                let provisioned_s: u64 = series.iter().map(|m| u64::from(m.provisioned_seconds)).sum();
                ResourceUsage {
                    name: res.name.clone(),
                    on_demand: series.iter().enumerate().any(|(m, x)| u64::from(x.provisioned_seconds) < secs(m)),
                    provisioned: provisioned_s > 0,
                    provisioned_hours: provisioned_s as f64 / 3_600.0,
                    on_demand_read_units: series.iter().map(|m| m.on_demand_consumed[0]).sum::<u64>() as f64 / MILLI as f64,
                    on_demand_write_units: series.iter().map(|m| m.on_demand_consumed[1]).sum::<u64>() as f64 / MILLI as f64,
                    on_demand_units_by_minute: series
                        .iter()
                        .map(|m| [m.on_demand_consumed[0] as f64 / MILLI as f64, m.on_demand_consumed[1] as f64 / MILLI as f64])
                        .collect(),
                    // Unit-seconds / 60: a full minute's average units; a partial last minute
                    // weighs only the seconds it lasted.
                    provisioned_rcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[0] as f64 / 60.0).collect(),
                    provisioned_wcu_by_minute: series.iter().map(|x| x.provisioned_unit_seconds[1] as f64 / 60.0).collect(),
                    storage_gb_by_minute: series
                        .iter()
                        .enumerate()
                        .map(|(m, x)| x.stored_bytes as f64 / crate::limits::GB as f64 * secs(m) as f64 / 60.0)
                        .collect(),
                    region: res.region.clone(),
                    // Own writes (all writes less those replicated in) go to each other region.
                    transfer_gb: if res.kind() == crate::engine::ResourceKind::Gsi {
                        0.0
                    } else {
                        (series.iter().map(|m| m.consumed[1] - m.replicated_writes).sum::<u64>() as f64 / MILLI as f64)
                            * regions as f64
                            * crate::limits::WRITE_BLOCK_BYTES as f64
                            / crate::limits::GB as f64
                    },
                }
            })
            .collect::<Vec<_>>();
        let table_gb = resources.first().map_or(&[][..], |t| &t.storage_gb_by_minute[..]);
        let vectors = vector_storage(sc, table_gb);
        resources.extend(vectors);
        // The table's series: each minute's length, bytes, partitions (stream shards) and
        // stream records (writes, and TTL's deletes: a record per KB deleted, as a write's).
        let table_minutes = r.resources.first().map_or(&[][..], |t| &t.minutes[..]);
        let series = TableSeries {
            minute_secs: (0..table_minutes.len()).map(secs).collect(),
            stored_gb: table_minutes.iter().map(|x| x.stored_bytes as f64 / crate::limits::GB as f64).collect(),
            partitions: table_minutes.iter().map(|x| x.partitions).collect(),
            stream_records: table_minutes
                .iter()
                .map(|x| x.consumed[1] as f64 / MILLI as f64 + x.ttl_deleted_bytes as f64 / 1_024.0)
                .collect(),
        };
        Usage::assemble(sc, r.duration_s as f64 / 3_600.0, resources, &series, InsightsUsage::of(sc, r), MeteredUsage::of(sc, r))
    }

    /// The one way a usage is put together, from a run or from `recommend`'s screen: the
    /// resources' usage as recorded, and the table-level lines (backups, the stream, the DAX
    /// cluster) from the table's series and the scenario.
    #[must_use]
    pub fn assemble(
        sc: &Scenario,
        hours: f64,
        resources: Vec<ResourceUsage>,
        table: &TableSeries,
        insights: Vec<InsightsUsage>,
        metered: Vec<MeteredUsage>,
    ) -> Self {
        let spec = &sc.table;
        let backups = if spec.backups.is_empty() {
            BackupUsage::default()
        } else {
            BackupUsage::of(&spec.backups, &table.stored_gb, &table.minute_secs)
        };
        let streams = spec.streams.as_ref().map(|s| StreamsUsage::of(s, &table.partitions, &table.stream_records, &table.minute_secs));
        let dax = sc.dax.as_ref().map(|d| DaxUsage::of(d.node_type, d.nodes, hours));
        let owned = sc.pricing.reserved.iter().map(|o| OwnedCover::of(o, sc.start_unix_s, &table.minute_secs)).collect();
        Usage { hours, standard_ia: spec.table_class == TableClass::StandardIa, resources, backups, streams, dax, insights, metered, owned }
    }
}

/// The storage of each of the table's vector indexes ("a vector index consumes storage
/// separately from its base table", §17), minute by minute: the entries of the share of the
/// table's items that carry a vector, each its vector, its projected data and 100 bytes, as the
/// table grows and shrinks (`table_gb`: the table's stored GB in each minute, weighted as the
/// table's own line is). Billed at the table class's storage price.
#[must_use]
fn vector_storage(sc: &Scenario, table_gb: &[f64]) -> Vec<ResourceUsage> {
    sc.table
        .vector_indexes
        .iter()
        .map(|v| ResourceUsage {
            name: v.name.clone(),
            storage_gb_by_minute: table_gb.iter().map(|&gb| crate::model::request::vector_index_bytes(sc, v, gb)).collect(),
            ..ResourceUsage::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! Backups, restores and exports, worked by hand from the us-east-1 catalog ($0.20 per
    //! GB-month of PITR, $0.10 per GB-month of backup, $0.15 per GB restored, $0.10 per GB
    //! exported).
    use super::*;
    use crate::cost::{bill, BillComponent, BillOptions, Catalog};

    fn hour(gb: impl Fn(usize) -> f64) -> (Vec<f64>, Vec<u64>) {
        ((0..60).map(gb).collect(), vec![60; 60])
    }

    fn billed(spec: &BackupSpec, gb: &[f64], secs: &[u64]) -> Vec<(BillComponent, f64)> {
        let usage = Usage {
            hours: secs.iter().sum::<u64>() as f64 / 3_600.0,
            standard_ia: false,
            resources: vec![ResourceUsage { name: "t".into(), storage_gb_by_minute: vec![0.0; gb.len()], ..ResourceUsage::default() }],
            backups: BackupUsage::of(spec, gb, secs),
            streams: None,
            dax: None,
            insights: Vec::new(),
            metered: Vec::new(),
            owned: Vec::new(),
        };
        let b = bill(&usage, &Catalog::builtin(), &BillOptions::default());
        b.lines.iter().filter(|l| l.component != BillComponent::Storage).map(|l| (l.component, l.cost_usd)).collect()
    }

    /// 100 GB for an hour: PITR is 100 GB x 1 h / 730 h x $0.20 = $0.027397; 30 daily backups
    /// kept (steady state, each of the table's 100 GB) are 3,000 GB x 1 / 730 x $0.10 =
    /// $0.410959.
    #[test]
    fn pitr_and_thirty_daily_backups_of_a_steady_table() {
        let (gb, secs) = hour(|_| 100.0);
        let spec = BackupSpec { pitr: true, schedule: Some((86_400, 30)), ..BackupSpec::default() };
        let lines = billed(&spec, &gb, &secs);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].0, BillComponent::Pitr);
        assert!((lines[0].1 - 100.0 / 730.0 * 0.20).abs() < 1e-9, "{lines:?}");
        assert_eq!(lines[1].0, BillComponent::Backups);
        assert!((lines[1].1 - 3_000.0 / 730.0 * 0.10).abs() < 1e-9, "{lines:?}");
        assert!((BackupUsage::of(&spec, &gb, &secs).backups_stored - 30.0).abs() < 1e-12);
    }

    /// A table of 100 GB that grows to 200 GB at minute 30, backed up every 30 minutes with 2
    /// kept: minutes 0-29 store the backups of t = -30 min and 0 (100 + 100 GB), minutes 30-59
    /// those of 0 and 30 min (100 + 200 GB): 30 x 200 + 30 x 300 = 15,000 GB-minutes = 0.342466
    /// GB-months, $0.0342466. A one-off backup at 45 min adds 15 minutes of 200 GB: 3,000
    /// GB-minutes, $0.0068493. An export at 10 min is of 100 GB ($10.00); a restore at the end
    /// of 200 GB ($30.00).
    #[test]
    fn a_growing_table_backed_up_exported_and_restored() {
        let (gb, secs) = hour(|m| if m < 30 { 100.0 } else { 200.0 });
        let spec = BackupSpec {
            pitr: false,
            recovery_days: 35,
            schedule: Some((1_800, 2)),
            backup_at: vec![45 * 60],
            export_at: vec![600],
            restore_at: vec![3_600],
        };
        let u = BackupUsage::of(&spec, &gb, &secs);
        assert!((u.backup_gb_months - 18_000.0 / 60.0 / 730.0).abs() < 1e-12, "{u:?}");
        assert!((u.backups_stored - (2.0 + 15.0 / 60.0)).abs() < 1e-12, "{u:?}");
        let lines = billed(&spec, &gb, &secs);
        let cost = |c| lines.iter().find(|l| l.0 == c).map(|l| l.1).unwrap();
        assert!((cost(BillComponent::Backups) - (0.0342466 + 0.0068493)).abs() < 1e-6, "{lines:?}");
        assert!((cost(BillComponent::Exports) - 10.0).abs() < 1e-9);
        assert!((cost(BillComponent::Restores) - 30.0).abs() < 1e-9);
        assert!(lines.iter().all(|l| l.0 != BillComponent::Pitr), "PITR is off");
    }

    fn streams(view: f64, pollers_ms: Vec<u64>) -> StreamsSpec {
        StreamsSpec { image_factor: view, pollers_ms, free_consumers: 1 }
    }

    /// 4 partitions for an hour, 100 writes a second, one poller every second: each shard gets
    /// 60 calls a minute, 4 x 60 x 60 = 14,400 calls, $0.00288 at $0.02 per 100,000; a second
    /// poller every 250 ms adds 4 x 240 x 60 = 57,600. With the free tier, 2.5 M x 1 / 730 =
    /// 3,424.66 calls are free: (14,400 - 3,424.66) / 10^5 x 0.02 = $0.0021951.
    #[test]
    fn pollers_call_every_shard_every_interval() {
        let (secs, parts, writes) = (vec![60u64; 60], vec![4u64; 60], vec![6_000.0; 60]);
        let one = StreamsUsage::of(&streams(2.0, vec![1_000]), &parts, &writes, &secs);
        assert!((one.read_units - 14_400.0).abs() < 1e-9 && (one.shard_minutes - 240.0).abs() < 1e-9, "{one:?}");
        let two = StreamsUsage::of(&streams(2.0, vec![1_000, 250]), &parts, &writes, &secs);
        assert!((two.read_units - 72_000.0).abs() < 1e-9, "{two:?}");
        let lambda_only = StreamsUsage::of(&streams(2.0, vec![]), &parts, &writes, &secs);
        assert!(lambda_only.read_units == 0.0);
        let usage = |s: StreamsUsage| Usage {
            hours: 1.0,
            standard_ia: false,
            resources: vec![ResourceUsage { name: "t".into(), storage_gb_by_minute: vec![0.0; 60], ..ResourceUsage::default() }],
            backups: BackupUsage::default(),
            streams: Some(s),
            dax: None,
            insights: Vec::new(),
            metered: Vec::new(),
            owned: Vec::new(),
        };
        let cost = |s: StreamsUsage, free_tier: bool| {
            let b = bill(&usage(s), &Catalog::builtin(), &BillOptions { free_tier, ..BillOptions::default() });
            b.lines.iter().find(|l| l.component == BillComponent::Streams).unwrap().cost_usd
        };
        assert!((cost(one.clone(), false) - 0.00288).abs() < 1e-12);
        assert!((cost(one, true) - (14_400.0 - 2.5e6 / 730.0) / 1e5 * 0.02).abs() < 1e-12);
    }

    /// A shard that writes more than a call carries needs more calls: 2 partitions taking
    /// 300,000 write units in a minute (2,500 a second) are 150,000 records a shard a minute;
    /// with both images, 150,000 x 2 KB / 1,024 KB = 293 calls (more than the 150 the 1,000
    /// records allow, and the 60 polls), so one poller makes 2 x 293 = 586 calls that minute.
    /// Keys only: 150 calls a shard, 300.
    #[test]
    fn a_busy_shard_needs_more_calls_than_polls() {
        let u = StreamsUsage::of(&streams(2.0, vec![1_000]), &[2], &[300_000.0], &[60]);
        assert!((u.read_units - 586.0).abs() < 1e-9, "{u:?}");
        let keys = StreamsUsage::of(&streams(0.0, vec![1_000]), &[2], &[300_000.0], &[60]);
        assert!((keys.read_units - 300.0).abs() < 1e-9, "{keys:?}");
    }
}
