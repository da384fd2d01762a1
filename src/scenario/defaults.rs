//! Every scenario default, in one place: the validator applies these constants, the JSON Schema
//! (the doc comments of [`super::raw`]) and README's reference tables state them, and a test
//! checks that all three agree with [`DOCUMENTED`].
//!
//! Defaults are model choices where DynamoDB's documentation leaves a number open (latencies,
//! split-for-heat thresholds, propagation delay); DynamoDB's own numbers are in
//! [`crate::limits`].

use crate::limits::{DEFAULT_ACCOUNT_QUOTA, DEFAULT_TABLE_QUOTA, ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE};
use crate::time::SimDuration;

/// `scenario.start`: 2026-01-01T00:00:00Z (a Thursday; UTC midnight), as Unix seconds.
pub const START_UNIX_S: i64 = 1_767_225_600;
/// `scenario.seed`.
pub const SEED: u64 = 1;
/// `pricing.region`.
pub const REGION: &str = "us-east-1";

/// `table.vector_index.searches.top_k`: results a vector search returns (a model choice: a
/// common page of results; AWS sets no default).
pub const VECTOR_TOP_K: u64 = 10;
/// `table.backups.recovery_days`: PITR's recovery period, AWS's default and longest.
pub const PITR_RECOVERY_DAYS: u32 = 35;
/// `table.update_latency`: an UpdateTable within the partitions' throughput (§6.1; observed
/// 5-10 s).
pub const UPDATE_LATENCY: SimDuration = SimDuration::from_secs(10);
/// `table.switch_duration`: a capacity-mode switch "takes several minutes" and the table keeps
/// its previous throughput meanwhile (spec §5, DG23 switching.capacitymode); 5 minutes is a
/// model choice.
pub const SWITCH_DURATION: SimDuration = SimDuration::from_secs(300);
/// `table.partition_add_latency`: an UpdateTable that must add partitions (§6.1: 5-30 min).
pub const PARTITION_ADD_LATENCY: SimDuration = SimDuration::from_secs(600);
/// `table.prewarm_delay` (§5.1).
pub const PREWARM_DELAY: SimDuration = SimDuration::from_secs(600);
/// `table.on_demand_doubling`: time for on-demand capacity to double (§5: "within 30 minutes").
pub const ON_DEMAND_DOUBLING: SimDuration = SimDuration::from_secs(1_800);
/// `table.ec_read_fanout`: AWS measured 9,000 eventually consistent queries a second (4,500
/// RCU) from one partition key, 1.5 times the 3,000 RCU partition cap, as eventually
/// consistent reads are served by any of three replicas (model choice from that measurement).
pub const EC_READ_FANOUT: f64 = 1.5;
/// `table.gsi_buffer`: with buffered back-pressure, each index partition buffers 5 minutes of
/// its write capacity. AWS publishes no size; the workshop saw a 1 WCU index throttle its
/// table "after a few minutes" of a parallel load, and 5 minutes matches the burst-credit
/// horizon (a model choice).
pub const GSI_BUFFER: SimDuration = SimDuration::from_secs(300);
/// `table.gsi_absorb_bound`: write units an index partition may owe beyond its capacity before
/// back-pressure. Fitted to AWS's design-patterns workshop (spec §16): a 1 WCU index took 326
/// WU/s and throttled its table "after a few minutes" (any bound from 29,250 to 97,500 units
/// puts the onset between 90 s and 5 minutes; 60,000 puts it at about 3 minutes), and a 5 WCU
/// index took 117 WU/s for 17 s without throttling (at least 1,904 units less its burst credit).
pub const GSI_ABSORB_BOUND: u64 = 60_000;
/// `table.split_for_heat.threshold`: share of a partition cap that counts as hot (§2, §13).
pub const HEAT_THRESHOLD: f64 = 0.8;
/// `table.split_for_heat.window`.
pub const HEAT_WINDOW: SimDuration = SimDuration::from_secs(300);
/// `table.split_for_heat.delay`.
pub const HEAT_DELAY: SimDuration = SimDuration::from_secs(300);
/// `capacity.warm_read` of an on-demand table or GSI.
pub const WARM_READ: u64 = ON_DEMAND_DEFAULT_WARM_READ;
/// `capacity.warm_write` of an on-demand table or GSI.
pub const WARM_WRITE: u64 = ON_DEMAND_DEFAULT_WARM_WRITE;
/// `capacity.table_quota` of an on-demand table.
pub const TABLE_QUOTA: u64 = DEFAULT_TABLE_QUOTA;
/// `account.max_{read,write}_capacity_units`: the account-level quota on provisioned capacity.
pub const ACCOUNT_MAX_UNITS: u64 = DEFAULT_ACCOUNT_QUOTA;
/// `account.table_max_{read,write}_capacity_units`: the table-level quota, GSIs included.
pub const TABLE_MAX_UNITS: u64 = DEFAULT_TABLE_QUOTA;
/// `account.max_tables`: tables per account and Region (ServiceQuotas, "Maximum number of
/// tables"; soft).
pub const ACCOUNT_MAX_TABLES: u64 = 2_500;
/// `account.max_table_operations`: table operations (CreateTable, UpdateTable, DeleteTable,
/// UpdateTimeToLive, restores) in flight at once per account and Region (ServiceQuotas).
pub const ACCOUNT_MAX_TABLE_OPERATIONS: u64 = 500;
/// `autoscaling.alarm_delay`: from an alarm's last datapoint to the scaling action (§6.2).
pub const ALARM_DELAY: SimDuration = SimDuration::from_secs(90);
/// `autoscaling.*.scale_in_cooldown` and `scale_out_cooldown`.
pub const COOLDOWN: SimDuration = SimDuration::ZERO;
/// `gsi.coverage`.
pub const COVERAGE: f64 = 1.0;
/// `gsi.propagation.median` (§7: "a fraction of a second").
pub const PROPAGATION_MEDIAN: SimDuration = SimDuration::from_millis(100);
/// `gsi.propagation.p99`.
pub const PROPAGATION_P99: SimDuration = SimDuration::from_secs(1);
/// `pattern.item_bytes`.
pub const ITEM_BYTES: u64 = 1_024;
/// `pattern.consistency` of a read: DynamoDB's default (and the SDKs') is eventually consistent.
pub const CONSISTENCY: crate::units::Consistency = crate::units::Consistency::Eventual;
/// `pattern.items`.
pub const ITEMS: u64 = 1;
/// `pattern.rate.diurnal.peak`: 14:00 UTC, seconds of the day.
pub const DIURNAL_PEAK_S_OF_DAY: u64 = 14 * 3_600;
/// `client.service_time`: latency of a successful attempt.
pub const SERVICE_TIME: SimDuration = SimDuration::from_millis(5);
/// `client.instances`.
pub const INSTANCES: u64 = 1;
/// `client.retry`.
pub const RETRY_PRESET: &str = "sdk-2026";
/// `client.retry.base` of explicit settings: DynamoDB's 25 ms (§9.3).
pub const RETRY_BASE: SimDuration = SimDuration::from_millis(25);
/// `client.retry.cap`: the SDKs' 20 s (§9.3).
pub const RETRY_CAP: SimDuration = SimDuration::from_secs(20);
/// `client.retry.quota`: the SDKs' 500-token retry quota (§9.3).
pub const RETRY_QUOTA: u64 = 500;
/// `client.retry.throttle_cost`: tokens a throttling retry costs (§9.3).
pub const RETRY_THROTTLE_COST: u64 = 5;

/// `check.steady`.
pub const CHECK_STEADY: SimDuration = SimDuration::from_secs(3_600);
/// `check.warmup`.
pub const CHECK_WARMUP: SimDuration = SimDuration::from_secs(1_800);
/// `check.burst`.
pub const CHECK_BURST: SimDuration = SimDuration::from_secs(900);
/// `check.burst_factor`.
pub const CHECK_BURST_FACTOR: f64 = 2.0;
/// `check.soak`.
pub const CHECK_SOAK: SimDuration = SimDuration::from_secs(4 * 3_600);
/// `check.max_throttle`.
pub const CHECK_MAX_THROTTLE: f64 = 0.001;
/// `check.max_p99_latency`.
pub const CHECK_MAX_P99: SimDuration = SimDuration::from_millis(100);
/// `check.max_partition_skew`.
pub const CHECK_MAX_SKEW: f64 = 0.2;

/// `table.streams.consumers[].poll_interval`: the KCL's idle time between reads.
pub const STREAMS_POLL_INTERVAL: SimDuration = SimDuration::from_secs(1);

/// `table.ttl.within`: DynamoDB "typically deletes expired items within two days".
pub const TTL_WITHIN: SimDuration = SimDuration::from_secs(48 * 3_600);

/// `dax.item_ttl` and `dax.query_ttl`: DAX's default TTL of both caches.
pub const DAX_TTL: SimDuration = SimDuration::from_secs(300);

/// `pricing.extrapolate` defaults to "repeat" for a window at least this long, "none" below.
pub const EXTRAPOLATE_FROM: SimDuration = SimDuration::from_secs(86_400);

/// Every documented default as `(key path, value as written in a scenario)`. README's reference
/// tables and the JSON Schema's descriptions must state the same value (a test reads both).
pub const DOCUMENTED: &[(&str, &str)] = &[
    ("scenario.start", "\"2026-01-01T00:00:00Z\""),
    ("scenario.seed", "1"),
    ("scenario.fidelity", "\"fast\""),
    ("scenario.window", "\"sustained\""),
    ("pricing.region", "\"us-east-1\""),
    ("pricing.free_tier", "false"),
    ("table.streams.view", "\"new_and_old_images\""),
    ("table.streams.consumers.poll_interval", "\"1s\""),
    ("table.ttl.within", "\"48h\""),
    ("table.ttl.share", "1"),
    ("dax.item_ttl", "\"5m\""),
    ("dax.query_ttl", "\"5m\""),
    ("dax.hit_ratio", "computed from the key popularity and the TTL"),
    ("pricing.extrapolate", "\"repeat\" for a window of 24 h or more, \"none\" below"),
    ("table.table_class", "\"standard\""),
    ("table.storage_gb", "0"),
    ("table.initial_burst", "\"full\""),
    ("table.partition_limit_model", "\"independent\""),
    ("table.update_latency", "\"10s\""),
    ("table.switch_duration", "\"5m\""),
    ("table.partition_add_latency", "\"10m\""),
    ("table.prewarm_delay", "\"10m\""),
    ("table.on_demand_doubling", "\"30m\""),
    ("table.split_for_heat", "true"),
    ("table.ec_read_fanout", "1.5"),
    ("table.gsi_backpressure", "\"absorb\""),
    ("table.gsi_buffer", "\"5m\""),
    ("table.gsi_absorb_bound", "60000"),
    ("table.capacity.warm_read", "12000"),
    ("table.capacity.warm_write", "4000"),
    ("table.capacity.table_quota", "40000"),
    ("account.max_read_capacity_units", "80000"),
    ("account.max_write_capacity_units", "80000"),
    ("account.table_max_read_capacity_units", "40000"),
    ("account.table_max_write_capacity_units", "40000"),
    ("account.max_tables", "2500"),
    ("account.max_table_operations", "500"),
    ("gsi.projection", "\"all\""),
    ("gsi.coverage", "1"),
    ("gsi.correlated", "false"),
    ("table.vector_index.searches.top_k", "10"),
    ("at.bulk_put.order", "\"shuffled\""),
    ("at.bulk_put.tier", "\"standard\""),
    ("gsi.storage_gb", "the table's storage_gb x coverage, by projection"),
    ("pattern.index_writes", "by the operation"),
    ("pattern.item_bytes", "1024"),
    ("pattern.items", "1"),
    ("pattern.consistency", "\"eventual\""),
    ("pattern.also.op", "\"put_item\""),
    ("pattern.also.key", "that table's partition key"),
    ("pattern.also.item_bytes", "1024"),
    ("pattern.also.items", "1"),
    ("client.retry", "\"sdk-2026\""),
    ("client.service_time", "\"5ms\""),
    ("client.instances", "1"),
    ("check.steady", "\"1h\""),
    ("check.warmup", "\"30m\""),
    ("check.burst", "\"15m\""),
    ("check.burst_factor", "2"),
    ("check.soak", "\"4h\""),
    ("check.max_throttle", "0.001"),
    ("check.max_p99_latency", "\"100ms\""),
    ("check.max_partition_skew", "0.2"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse_str, CapacitySpec, Fidelity, Projection, SizeSpec, TableClass};
    use std::path::Path;

    /// `start` as a string, as a TOML datetime with an offset, and as a local TOML datetime
    /// (UTC) give the same instant, 2026-03-02T06:00:00Z = 1,767,225,600 (2026-01-01) + 60
    /// days + 6 h; a date alone, or a number, is an error naming the key and the forms.
    #[test]
    fn start_takes_strings_and_toml_datetimes() {
        let with = |start: &str| {
            let text = format!(
                "[scenario]\nduration = \"1m\"\nstart = {start}\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n\
                 [keys.k]\ncardinality = 10\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
            );
            parse_str(&text, Path::new("s.toml")).map(|sc| sc.start_unix_s).map_err(|e| e.to_string())
        };
        let want = 1_767_225_600 + 60 * 86_400 + 6 * 3_600;
        assert_eq!(with("\"2026-03-02T06:00:00Z\""), Ok(want));
        assert_eq!(with("2026-03-02T06:00:00Z"), Ok(want));
        assert_eq!(with("2026-03-02T07:00:00+01:00"), Ok(want));
        assert_eq!(with("2026-03-02T06:00:00"), Ok(want));
        let e = with("2026-03-02").unwrap_err();
        assert!(e.contains("s.toml") && e.contains("start") && e.contains("RFC 3339"), "{e}");
        let e = with("5").unwrap_err();
        assert!(e.contains("s.toml:3") && e.contains("start") && e.contains("TOML datetime"), "{e}");
    }

    /// The validator applies the constants: a scenario that sets nothing optional.
    #[test]
    fn the_validator_applies_the_defaults() {
        let text = "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n\
                    [keys.k]\ncardinality = 10\n[keys.g]\ncardinality = 10\n[[gsi]]\nname = \"G\"\npartition_key = \"g\"\n\
                    [[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = { constant = 1 }\n";
        let sc = parse_str(text, Path::new("d.toml")).unwrap();
        assert_eq!(sc.start_unix_s, START_UNIX_S);
        assert_eq!(sc.seed, SEED);
        assert_eq!(sc.fidelity, Fidelity::Fast);
        assert_eq!(sc.pricing.region, REGION);
        assert!(!sc.pricing.free_tier);
        assert!(!sc.pricing.extrapolate, "a 1-minute window is an event, not a month");
        assert_eq!(sc.table.table_class, TableClass::Standard);
        assert_eq!(sc.table.storage_bytes, 0);
        assert!(sc.table.initial_burst_full && !sc.table.linear_partition_limit);
        assert!((sc.table.ec_read_fanout - EC_READ_FANOUT).abs() < 1e-12);
        assert_eq!(sc.table.update_latency, UPDATE_LATENCY);
        assert_eq!(sc.table.switch_duration, SWITCH_DURATION);
        assert_eq!(sc.table.gsi_backpressure, crate::scenario::GsiBackpressure::Absorb { bound_units: GSI_ABSORB_BOUND });
        assert_eq!(sc.table.partition_add_latency, PARTITION_ADD_LATENCY);
        assert_eq!(sc.table.prewarm_delay, PREWARM_DELAY);
        assert!((sc.table.on_demand_doubling_minutes - 30.0).abs() < 1e-12);
        let heat = sc.table.split_for_heat.unwrap();
        assert_eq!((heat.threshold, heat.window_minutes * 60, heat.delay_s), (HEAT_THRESHOLD, HEAT_WINDOW.as_secs(), HEAT_DELAY.as_secs()));
        assert_eq!(
            sc.table.capacity,
            CapacitySpec::OnDemand {
                warm_read: WARM_READ,
                warm_write: WARM_WRITE,
                max_read: None,
                max_write: None,
                table_quota: [TABLE_QUOTA; 2]
            }
        );
        assert_eq!(sc.gsis[0].projection, Projection::All);
        assert!((sc.gsis[0].coverage - COVERAGE).abs() < 1e-12);
        assert_eq!(sc.gsis[0].propagation_median_us, PROPAGATION_MEDIAN.as_micros());
        assert_eq!(sc.gsis[0].propagation_p99_us, PROPAGATION_P99.as_micros());
        assert_eq!(sc.patterns[0].size, SizeSpec::Fixed(ITEM_BYTES));
        assert_eq!(sc.patterns[0].items, ITEMS);
        assert_eq!(sc.patterns[0].consistency, CONSISTENCY);
        assert_eq!(sc.client.preset, RETRY_PRESET);
        assert_eq!(sc.client.service_time, SERVICE_TIME);
        assert_eq!(sc.client.instances, INSTANCES);
        assert_eq!((sc.client.cap, sc.client.quota, sc.client.throttle_cost), (RETRY_CAP, RETRY_QUOTA, RETRY_THROTTLE_COST));
    }

    /// `[pricing] extrapolate` defaults to "repeat" from a window of a day (24 h = 86,400 s)
    /// and to "none" one second below it; a stated value wins either way.
    #[test]
    fn extrapolation_defaults_by_window_length() {
        let with = |duration: &str, pricing: &str| {
            let text = format!(
                "[scenario]\nduration = \"{duration}\"\n{pricing}[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n\
                 [keys.k]\ncardinality = 10\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
            );
            parse_str(&text, Path::new("x.toml")).map(|sc| sc.pricing.extrapolate).map_err(|e| e.to_string())
        };
        assert_eq!(with("24h", ""), Ok(true));
        assert_eq!(with("86399s", ""), Ok(false));
        assert_eq!(with("2h", "[pricing]\nextrapolate = \"repeat\"\n"), Ok(true));
        assert_eq!(with("2d", "[pricing]\nextrapolate = \"none\"\n"), Ok(false));
        let e = with("2h", "[pricing]\nextrapolate = \"monthly\"\n").unwrap_err();
        assert!(e.contains("x.toml:4") && e.contains("extrapolate"), "{e}");
    }

    /// README's reference tables and the JSON Schema state the same defaults.
    #[test]
    fn readme_and_schema_state_the_same_defaults() {
        let readme = include_str!("../../README.md");
        let schema = serde_json::to_string(&schemars::schema_for!(crate::scenario::raw::RawScenario)).unwrap();
        let schema: serde_json::Value = serde_json::from_str(&schema).unwrap();
        let mut wrong = Vec::new();
        for (path, value) in DOCUMENTED {
            let key = path.rsplit('.').next().unwrap();
            let row = format!("| `{key}` |");
            let stated = readme.lines().filter(|l| l.starts_with(&row)).any(|l| l.rsplit('|').nth(1).is_some_and(|c| c.contains(value)));
            if !stated {
                wrong.push(format!("README: no row `{key}` with default {value}"));
            }
            if !schema_states(&schema, key, value) {
                wrong.push(format!("schema: the description of `{key}` does not say default {value}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// Some property named `key` anywhere in the schema says `default VALUE` in its description.
    fn schema_states(v: &serde_json::Value, key: &str, value: &str) -> bool {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::Object(props)) = m.get("properties") {
                    if let Some(p) = props.get(key) {
                        let d = p.get("description").and_then(serde_json::Value::as_str).unwrap_or("");
                        if d.contains(&format!("default {value}")) {
                            return true;
                        }
                    }
                }
                m.values().any(|x| schema_states(x, key, value))
            }
            serde_json::Value::Array(a) => a.iter().any(|x| schema_states(x, key, value)),
            _ => false,
        }
    }
}
