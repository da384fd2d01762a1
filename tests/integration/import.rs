//! `ddbsim import` on definitions and metrics in the formats the AWS CLI, CloudFormation, CDK
//! and Terraform write (tests/fixtures/import/, each written from the format's documented
//! shape): the table, indexes, capacities and auto scaling come out as the source states them,
//! and traffic rebuilt from CloudWatch matches numbers worked out by hand.

use super::{ddbsim, load_imported as load};
use ddbsim::cost::BillComponent;
use ddbsim::import::{import, ProjectionDef, ScalingDef};
use ddbsim::scenario::CapacitySpec;
use ddbsim::Dim;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fx(name: &str) -> PathBuf {
    Path::new("tests/fixtures/import").join(name)
}

fn scaling(min: u64, max: u64, target: f64) -> ScalingDef {
    ScalingDef { min: Some(min), max: Some(max), target: Some(target), cooldowns: [None, None] }
}

/// describe-table plus describe-scalable-targets and describe-scaling-policies: Orders,
/// provisioned 400/150, a GSI of 50/150 with an INCLUDE of 2 attributes, a keys-only LSI,
/// 52.4288 GB in 25,600,000 items (2,048 bytes each), write auto scaling on the table
/// (100-2,000 at 70 %) and on the index (100-2,000 at 60 %); the index holds 6,400,000 of the
/// 25,600,000 items, so its coverage is 0.25.
#[test]
fn describe_table_with_auto_scaling_round_trips() {
    let i = import(&[fx("describe-table.json"), fx("scalable-targets.json"), fx("scaling-policies.json")], &[], None, "orders").unwrap();
    let t = &i.table;
    assert_eq!((t.name.as_str(), t.hash_key.as_str(), t.range_key.as_deref()), ("Orders", "customer_id", Some("order_date")));
    assert_eq!(t.provisioned, Some([400, 150]));
    assert_eq!((t.size_bytes, t.item_count), (Some(52_428_800_000), Some(25_600_000)));
    assert_eq!(t.stream.as_deref(), Some("NEW_AND_OLD_IMAGES"));
    assert_eq!(t.gsis.len(), 1);
    assert_eq!(t.gsis[0].projection, ProjectionDef::Include(2));
    assert_eq!(t.gsis[0].provisioned, Some([50, 150]));
    assert_eq!(t.lsis[0].projection, ProjectionDef::KeysOnly);
    assert_eq!(t.scaling.get(&(None, Dim::Write)), Some(&scaling(100, 2_000, 70.0)));
    assert_eq!(t.scaling.get(&(Some("ByStatus".into()), Dim::Write)), Some(&scaling(100, 2_000, 60.0)));
    assert!(!t.scaling.contains_key(&(None, Dim::Read)));

    let (_d, sc) = load(&i);
    assert_eq!(sc.table.name, "Orders");
    assert!(matches!(sc.table.capacity, CapacitySpec::Provisioned { read: 400, write: 150 }), "{:?}", sc.table.capacity);
    let a = sc.table.autoscaling.as_ref().expect("table auto scaling");
    let w = a.write.as_ref().expect("write target");
    assert_eq!((w.min, w.max, w.target), (100, 2_000, 0.7));
    assert!(a.read.is_none());
    assert_eq!(sc.table.storage_bytes, 52_428_800_000);
    assert_eq!(sc.gsis[0].name, "ByStatus");
    assert!(matches!(sc.gsis[0].capacity, CapacitySpec::Provisioned { read: 50, write: 150 }));
    let gw = sc.gsis[0].autoscaling.as_ref().and_then(|a| a.write.as_ref()).expect("index write target");
    assert_eq!((gw.min, gw.max, gw.target), (100, 2_000, 0.6));
    assert!((sc.gsis[0].coverage - 0.25).abs() < 1e-9);
    assert_eq!(sc.lsis.len(), 1);
    // No metrics: reads and writes at half the provisioned units, 2,048-byte items:
    // 200 RCU / 1 unit = 200 reads/s, 75 WCU / (2 units + 1 for the keys-only LSI) = 25 writes/s.
    assert!(i.scenario.contains("rate = { constant = 200 }"), "{}", i.scenario);
    assert!(i.scenario.contains("ASSUMPTION"));
}

/// A YAML template with two tables, short-form tags and parameters: without --table the
/// error names both; events-prod takes its read capacity from the parameter default (25),
/// its class, its index, and the auto scaling its targets and policies set by !Ref / !Sub.
#[test]
fn cloudformation_yaml_with_short_tags_and_two_tables() {
    let err = import(&[fx("template.yaml")], &[], None, "t").unwrap_err().to_string();
    assert!(err.contains("events-prod") && err.contains("sessions-prod") && err.contains("--table"), "{err}");
    let i = import(&[fx("template.yaml")], &[], Some("events-prod"), "t").unwrap();
    let t = &i.table;
    assert_eq!(t.provisioned, Some([25, 10]));
    assert!(t.infrequent_access);
    assert_eq!(t.gsis[0].name, "GSI1");
    assert_eq!(t.gsis[0].projection, ProjectionDef::KeysOnly);
    // Its policy's 60 s cooldowns come with it.
    assert_eq!(t.scaling.get(&(None, Dim::Write)), Some(&ScalingDef { cooldowns: [Some(60), Some(60)], ..scaling(10, 500, 50.0) }));
    assert_eq!(t.scaling.get(&(Some("GSI1".into()), Dim::Write)), Some(&scaling(10, 400, 70.0)));
    assert!(i.notes.iter().any(|n| n.contains("AWS::IAM::Role") && n.contains("skipped")), "{:?}", i.notes);
    load(&i);
    let s = import(&[fx("template.yaml")], &[], Some("sessions-prod"), "t").unwrap();
    assert_eq!(s.table.provisioned, None);
    assert_eq!(s.table.max, [Some(2_000), Some(800)]);
    let (_d, sc) = load(&s);
    assert!(
        matches!(sc.table.capacity, CapacitySpec::OnDemand { max_read: Some(2_000), max_write: Some(800), .. }),
        "{:?}",
        sc.table.capacity
    );
}

/// A CDK-synthesised AWS::DynamoDB::GlobalTable: write capacity from its auto-scaling settings
/// (starting at min 50; 50-1,000 at 65 %), read capacity from the first replica (200), the
/// index's from its own settings (write 20-300 at 70 %, read 40); two replicas noted.
#[test]
fn cdk_global_table() {
    let i = import(&[fx("cdk.template.json")], &[], None, "t").unwrap();
    let t = &i.table;
    assert_eq!(t.name, "carts");
    assert_eq!(t.provisioned, Some([200, 50]));
    assert_eq!(t.scaling.get(&(None, Dim::Write)), Some(&scaling(50, 1_000, 65.0)));
    assert_eq!(t.gsis[0].provisioned, Some([40, 20]));
    assert_eq!(t.scaling.get(&(Some("ByUser".into()), Dim::Write)), Some(&scaling(20, 300, 70.0)));
    assert!(i.notes.iter().any(|n| n.contains("2 replicas")), "{:?}", i.notes);
    // The first replica's region is the table's; Dublin is a replica with its own 100 RCU.
    assert_eq!(t.region.as_deref(), Some("us-east-1"));
    assert_eq!(t.replicas, [("eu-west-1".to_string(), Some(100))]);
    let (_d, sc) = load(&i);
    assert_eq!(sc.replicas.len(), 1);
    assert_eq!((sc.replicas[0].region.as_str(), sc.replicas[0].read_capacity), ("eu-west-1", Some(100)));
}

/// describe-table of a global table in eu-west-1 (its ARN says so) with replicas in us-east-1
/// (a read override of 50 RCU) and sa-east-1 (no built-in catalog: left out, with a comment).
#[test]
fn describe_table_of_a_global_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gt.json");
    std::fs::write(
        &path,
        r#"{"Table": {"TableName": "Carts", "TableArn": "arn:aws:dynamodb:eu-west-1:123456789012:table/Carts",
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "ProvisionedThroughput": {"ReadCapacityUnits": 300, "WriteCapacityUnits": 100},
        "Replicas": [{"RegionName": "eu-west-1"},
                     {"RegionName": "us-east-1", "ProvisionedThroughputOverride": {"ReadCapacityUnits": 50}},
                     {"RegionName": "sa-east-1"}]}}"#,
    )
    .unwrap();
    let i = import(&[path], &[], None, "t").unwrap();
    assert_eq!(i.table.region.as_deref(), Some("eu-west-1"));
    assert!(i.scenario.contains("region = \"eu-west-1\""), "{}", i.scenario);
    assert!(i.scenario.contains("sa-east-1 is not modelled"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    assert_eq!(sc.pricing.region, "eu-west-1");
    assert_eq!(sc.replicas.len(), 1);
    assert_eq!((sc.replicas[0].region.as_str(), sc.replicas[0].read_capacity), ("us-east-1", Some(50)));
}

/// `terraform show -json`: GameScores 20/20, an INCLUDE index of 10/10, and read auto scaling
/// 5-100 at 70 % from aws_appautoscaling_target and _policy; the SNS topic is skipped.
#[test]
fn terraform_show_json() {
    let i = import(&[fx("terraform-show.json")], &[], None, "t").unwrap();
    let t = &i.table;
    assert_eq!((t.name.as_str(), t.hash_key.as_str(), t.range_key.as_deref()), ("GameScores", "UserId", Some("GameTitle")));
    assert_eq!(t.provisioned, Some([20, 20]));
    assert_eq!(t.gsis[0].projection, ProjectionDef::Include(1));
    assert_eq!(t.gsis[0].provisioned, Some([10, 10]));
    assert_eq!(t.scaling.get(&(None, Dim::Read)), Some(&scaling(5, 100, 70.0)));
    assert!(i.notes.iter().any(|n| n.contains("aws_sns_topic")));
    load(&i);
}

/// get-metric-data at a 5-minute period, newest first, over 2 hours (24 periods):
/// * reads: 300,000 RCU a period = 1,000 a second; GetItem and Query 150,000 requests a period
///   each, so 1 unit a request: 500 GetItem/s and 500 Query/s, strongly consistent 4 KB;
/// * writes: 60,000 WCU a period = 200 a second, with period 20 missing (a gap: no traffic in
///   minutes 100-104) and 12,000 throttle events in period 6 (40 a second, minutes 30-34);
///   PutItem 30,000 a period: 23 x 60,000 / (24 x 30,000) = 23/12 units a request, of which
///   1 is the keys-only LSI's entry, so an item of round(11/12) = 1 unit and 2 units a
///   request: 100 puts/s. In minutes 30-34, each minute's 2,400 events include at most
///   min(0.75 x 2,400, 100 + 12,000 / (23/12) / 5) = 1,352.17 retries, so 1,047.83 dropped
///   requests of 23/12 units: 33.472 units/s more, 233.472 units/s, 116.736 puts/s;
/// * the table's capacity is the history's first ProvisionedRead/Write value, 1,200 / 300;
/// * the index takes 15,000 write units a period (50/s), 360,000 in all, of a unit each (a
///   300-byte entry), from the puts the table served: 24 x 30,000 = 720,000 successful
///   PutItems (the throttled ones wrote no entry): coverage 360,000 / 720,000 = 0.5000;
/// * its 3,000 read units a period (10/s) are 20 eventually consistent 4 KB queries a second.
#[test]
fn get_metric_data_rebuilds_the_traffic() {
    let i = import(&[fx("describe-table.json")], &[fx("metric-data-5m.json")], None, "orders").unwrap();
    let trace = |name: &str| i.traces.iter().find(|t| t.0 == name).unwrap_or_else(|| panic!("{name}: {:?}", i.traces)).1.clone();
    assert_eq!(trace("orders-read-get-item.csv"), "time_s,rate\n0,500\n");
    assert_eq!(trace("orders-read-query.csv"), "time_s,rate\n0,500\n");
    assert_eq!(trace("orders-write-put-item.csv"), "time_s,rate\n0,100\n1800,116.736\n2100,100\n6000,0\n6300,100\n");
    assert_eq!(trace("orders-query-ByStatus.csv"), "time_s,rate\n0,20\n");
    assert!(i.scenario.contains("coverage = 0.5000"), "{}", i.scenario);
    assert!(i.notes.iter().any(|n| n.contains("PartialData")), "{:?}", i.notes);
    assert!(i.notes.iter().any(|n| n.contains("1 missing periods of 300 s")), "{:?}", i.notes);
    assert!(i.notes.iter().any(|n| n.contains("ReturnedItemCount") && n.contains("skipped")), "{:?}", i.notes);
    assert!(i.scenario.contains("ESTIMATE"));
    let (_d, sc) = load(&i);
    assert!(matches!(sc.table.capacity, CapacitySpec::Provisioned { read: 1_200, write: 300 }));
    assert_eq!(sc.duration.as_secs(), 7_200);
    assert_eq!(sc.start_unix_s, 1_795_168_800, "2026-11-20T10:00:00Z");
    // Replayed, the table consumes what CloudWatch recorded: 1,000 RCU/s, and 200 WCU/s but
    // for the gap, plus the estimated throttled demand (5 min x 33.472 units/s).
    let r = ddbsim::simulate(&sc, &ddbsim::RunOptions::default());
    let consumed = |d: Dim| r.resources[0].minutes.iter().map(|m| m.consumed[d as usize]).sum::<u64>() as f64 / 1_000.0;
    assert!((consumed(Dim::Read) / 7_200_000.0 - 1.0).abs() < 0.005, "{}", consumed(Dim::Read));
    let writes = 23.0 * 60_000.0 + 300.0 * (2_400.0 - 1_352.173_913) * (23.0 / 12.0) / 60.0;
    assert!((consumed(Dim::Write) / writes - 1.0).abs() < 0.005, "{} vs {writes}", consumed(Dim::Write));
}

/// get-metric-statistics (out of order, bare metric name) and the console's CSV (a header of
/// labels, empty cells for missing datapoints).
#[test]
fn metric_statistics_and_console_csv() {
    let i = import(&[fx("terraform-show.json")], &[fx("metric-statistics.json")], None, "gs").unwrap();
    // Sums of 6,000, 6,000 and 12,000 a minute: 100, 100, 200 units a second; no request
    // counts, so 1-unit writes (1,024-byte items assumed).
    let w = &i.traces.iter().find(|t| t.0 == "gs-write-put-item.csv").unwrap().1;
    assert_eq!(w, "time_s,rate\n0,100\n120,200\n");
    let i = import(&[fx("terraform-show.json")], &[fx("console.csv")], None, "gs").unwrap();
    // Reads: 500, 500, 600 units a second; the last minute's 1,200 throttle events hold at most
    // min(0.75 x 1,200, 100 + 36,000 / 5) = 900 retries, so 300 dropped 1-unit reads: 605.
    let r = &i.traces.iter().find(|t| t.0 == "gs-read-get-item.csv").unwrap().1;
    assert_eq!(r, "time_s,rate\n0,500\n120,605\n");
    let w = &i.traces.iter().find(|t| t.0 == "gs-write-put-item.csv").unwrap().1;
    assert_eq!(w, "time_s,rate\n0,0\n60,10\n");
}

/// Bad inputs name the file and where in it.
#[test]
fn bad_inputs_name_file_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let e = import(&[write("a.json", "{\"Table\": {\"TableName\": \"x\",}}")], &[], None, "t").unwrap_err().to_string();
    assert!(e.contains("a.json") && e.contains("line 1"), "{e}");
    let e = import(
        &[write("b.json", r#"{"Table": {"TableName": "x", "KeySchema": [{"AttributeName": "k", "KeyType": "SORT"}]}}"#)],
        &[],
        None,
        "t",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("b.json") && e.contains("/Table/KeySchema/0/KeyType"), "{e}");
    let e = import(&[write("c.json", r#"{"hello": 1}"#)], &[], None, "t").unwrap_err().to_string();
    assert!(e.contains("c.json") && e.contains("not a table definition"), "{e}");
    let e = import(&[fx("template.yaml")], &[], Some("nope"), "t").unwrap_err().to_string();
    assert!(e.contains("no table named nope") && e.contains("events-prod"), "{e}");
    let m = write(
        "m.json",
        r#"{"MetricDataResults": [{"Id": "a", "Label": "ConsumedReadCapacityUnits", "Timestamps": ["yesterday"], "Values": [1]}]}"#,
    );
    let e = import(&[fx("terraform-show.json")], &[m], None, "t").unwrap_err().to_string();
    assert!(e.contains("m.json") && e.contains("/MetricDataResults/0/Timestamps/0"), "{e}");
    let e = import(&[write("d.yaml", "Resources:\n  T:\n    Type: [unclosed\n")], &[], None, "t").unwrap_err().to_string();
    assert!(e.contains("d.yaml") && e.contains("line"), "{e}");
}

/// The command: with --out it writes the scenario and its traces (and `run` takes them);
/// metrics without --out is an error that writes nothing.
#[test]
fn the_import_command_writes_files_that_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("orders.toml");
    let bin = env!("CARGO_BIN_EXE_ddbsim");
    let o = Command::new(bin)
        .args(["import", "tests/fixtures/import/describe-table.json", "--metrics", "tests/fixtures/import/metric-data-5m.json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        ["orders-query-ByStatus.csv", "orders-read-get-item.csv", "orders-read-query.csv", "orders-write-put-item.csv", "orders.toml"]
    );
    let o = Command::new(bin).args(["run", "--duration", "10m", "-q", "--out"]).arg(dir.path().join("run")).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let empty = tempfile::tempdir().unwrap();
    let o = Command::new(bin)
        .current_dir(empty.path())
        .arg("import")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/describe-table.json"))
        .arg("--metrics")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/metric-data-5m.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
    // A definition alone prints a scenario that validates.
    let o = Command::new(bin).args(["import", "tests/fixtures/import/terraform-show.json"]).output().unwrap();
    assert!(o.status.success());
    ddbsim::scenario::parse_str(&String::from_utf8(o.stdout).unwrap(), Path::new("gs.toml")).unwrap();
}

/// Fourteen days of one-minute history of a diurnal table with a daily batch of writes, as
/// `get-metric-data` returns it. The history is recorded from a run of ddbsim itself (the
/// table auto-scaled, reads 100-800 and writes 40-250 a second over the day, a 30-minute batch
/// at 1,500 writes a second every night at 02:00 that throttles while auto scaling catches
/// up), then imported with a definition without auto scaling, so the replay follows the
/// recorded provisioned capacity as UpdateTables. Replayed, every hour's consumed read and
/// write units are within 2 % of the recorded ones, the hours with write throttle events are
/// the same, and their events within 10 % (the demand estimate brings the dropped requests
/// back). On-demand, it bills the request units worked by hand from the recorded minutes.
#[test]
fn a_fourteen_day_history_replays_within_2_percent_an_hour() {
    let days = 14;
    let source = ddbsim::bench_support::fourteen_day_table(true);
    let sc = ddbsim::scenario::parse_str(&source, Path::new("history.toml")).unwrap();
    let recorded = ddbsim::simulate(&sc, &ddbsim::RunOptions::default());
    let minutes = &recorded.resources[0].minutes;
    assert_eq!(minutes.len(), days * 1_440);
    // The history as get-metric-data writes it: one result per metric, newest first.
    let start = 1_793_491_200i64; // 2026-11-01T00:00:00Z, the start of the recorded run
    let series = |label: &str, f: &dyn Fn(&ddbsim::MinuteRecord) -> f64| super::metric_data_result(label, minutes, start, f);
    let doc = serde_json::json!({ "MetricDataResults": [
        series("ConsumedReadCapacityUnits", &|m| m.consumed[0] as f64 / 1_000.0),
        series("ConsumedWriteCapacityUnits", &|m| m.consumed[1] as f64 / 1_000.0),
        series("ReadThrottleEvents", &|m| m.events(Dim::Read) as f64),
        series("WriteThrottleEvents", &|m| m.events(Dim::Write) as f64),
        // The Average over each minute, as CloudWatch's Average statistic gives it.
        series("ProvisionedReadCapacityUnits", &|m| m.provisioned_unit_seconds[0] as f64 / 60.0),
        series("ProvisionedWriteCapacityUnits", &|m| m.provisioned_unit_seconds[1] as f64 / 60.0),
    ], "Messages": [] });
    // The committed fixture (tests/fixtures/import/metric-data-14d.json, read by README's
    // 14-day worked example) is this history: DDBSIM_WRITE_FIXTURES=1 rewrites it after a
    // change of the engine's draws.
    let bytes = serde_json::to_vec(&doc).unwrap();
    let fixture = fx("metric-data-14d.json");
    if std::env::var_os("DDBSIM_WRITE_FIXTURES").is_some() {
        std::fs::write(&fixture, &bytes).unwrap();
    }
    assert!(
        std::fs::read(&fixture).unwrap() == bytes,
        "{} is not this run's history: DDBSIM_WRITE_FIXTURES=1 rewrites it",
        fixture.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("metrics.json");
    std::fs::write(&metrics, &bytes).unwrap();
    let def = dir.path().join("table.json");
    std::fs::write(
        &def,
        r#"{"Table": {"TableName": "Orders", "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 800, "WriteCapacityUnits": 300},
            "TableSizeBytes": 1024000000, "ItemCount": 1000000}}"#,
    )
    .unwrap();
    let i = import(&[def], &[metrics], None, "orders").unwrap();
    assert!(i.scenario.contains("set_capacity"), "the recorded capacity is replayed");
    let (_d, replay_sc) = load(&i);
    let replay = ddbsim::simulate(&replay_sc, &ddbsim::RunOptions::default());
    let hourly = |r: &ddbsim::RunResult, f: &dyn Fn(&ddbsim::MinuteRecord) -> f64| -> Vec<f64> {
        r.resources[0].minutes.chunks(60).map(|h| h.iter().map(f).sum()).collect()
    };
    for d in Dim::ALL {
        let a = hourly(&recorded, &|m| m.consumed[d as usize] as f64);
        let b = hourly(&replay, &|m| m.consumed[d as usize] as f64);
        assert_eq!(a.len(), days * 24);
        for (h, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!((y / x - 1.0).abs() < 0.02, "{d:?} hour {h}: recorded {x}, replayed {y}");
        }
    }
    let a = hourly(&recorded, &|m| m.events(Dim::Write) as f64);
    let b = hourly(&replay, &|m| m.events(Dim::Write) as f64);
    let throttled = |v: &[f64]| v.iter().enumerate().filter(|(_, x)| **x > 0.0).map(|(h, _)| h).collect::<Vec<_>>();
    assert!(!throttled(&a).is_empty(), "the batch throttles");
    assert_eq!(throttled(&a), throttled(&b));
    // The rebuilt demand throttles about as much: the dropped requests come back.
    for h in throttled(&a) {
        assert!((b[h] / a[h] - 1.0).abs() < 0.1, "hour {h}: {} recorded, {} replayed throttle events", a[h], b[h]);
    }
    // On-demand, as `compare` runs it (the recorded UpdateTables dropped, warm throughput at
    // least the provisioned capacity): every request of the rebuilt demand is served, so the
    // request units billed are the recorded consumed units plus the estimated dropped ones.
    // Worked by hand from the recorded minutes: E throttle events and S consumed units (1 KB
    // items, 1 unit a request) drop E - min(0.75 E, 100 + S / 5) requests of 1 unit. Reads
    // never throttled: 450 reads/s on average (100-800 over the day) x 1,209,600 s =
    // 544,320,000 RRU. Writes: 145/s on average (40-250) x 1,209,600 s + 14 nights x 1,800 s x
    // 1,500/s = 213,192,000 WRU of demand, of which the history consumed only what auto
    // scaling let through. Prices (us-east-1): $0.125 a million RRU, $0.625 a million WRU; the
    // bill counts millions.
    let mut od = replay_sc.clone();
    od.actions.clear();
    od.table.capacity =
        CapacitySpec::OnDemand { warm_read: 12_000, warm_write: 4_000, max_read: None, max_write: None, table_quota: [40_000; 2] };
    let run = ddbsim::simulate(&od, &ddbsim::RunOptions::default());
    let bill = ddbsim::bill(&ddbsim::Usage::of(&run, &od), &ddbsim::Catalog::builtin(), &ddbsim::BillOptions::default());
    let rebuilt = |d: Dim| -> f64 {
        minutes
            .iter()
            .map(|m| {
                let (s, e) = (m.consumed[d as usize] as f64 / 1_000.0, m.events(d) as f64);
                s + e - (0.75 * e).min(100.0 + s / 5.0)
            })
            .sum()
    };
    for (d, component, price, demand) in
        [(Dim::Read, BillComponent::Reads, 0.125, 544_320_000.0), (Dim::Write, BillComponent::Writes, 0.625, 213_192_000.0)]
    {
        let line = bill.lines.iter().find(|l| l.component == component).expect("a request line");
        let billed = line.quantity * 1e6;
        // The replay draws its requests afresh (Poisson about the traces): 0.1 % allowed.
        assert!((billed / rebuilt(d) - 1.0).abs() < 0.001, "{d:?}: {billed} billed, {} by hand", rebuilt(d));
        // The estimate of the dropped demand brings back the traffic's own within 1 %.
        assert!((billed / demand - 1.0).abs() < 0.01, "{d:?}: {billed} billed, {demand} offered");
        assert!((line.cost_usd - line.quantity * price).abs() < 1e-6, "{d:?}: {}", line.arithmetic);
    }
}

/// A Contributor Insights report of the most accessed keys (`aws cloudwatch
/// get-insight-rule-report`, keyed by `customer_id`, the table's partition key) shapes the
/// skew instead of the assumed Zipf 0.8: its 5 contributors took 4,000 + 2,500 + 1,500 +
/// 1,000 + 1,000 = 10,000 of 50,000, so 5 hot keys share 0.2 of the traffic. A report keyed
/// by something else goes to the partition key with a note; one whose contributors add up to
/// more than the total is an error naming the file and pointer.
#[test]
fn a_contributor_insights_report_shapes_the_skew() {
    let i = import(&[fx("describe-table.json"), fx("insight-rule-report.json")], &[], None, "orders").unwrap();
    assert!(i.scenario.contains("popularity = { hot = { keys = 5, share = 0.2 } }"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    let space = sc.key_spaces.iter().find(|k| k.name == "customer_id").unwrap();
    assert_eq!(space.popularity, ddbsim::scenario::Popularity::Hot { keys: 5, share: 0.2 });
    // Other key spaces keep the stated assumption.
    assert!(i.scenario.contains("popularity = { zipf = 0.8 }  # ASSUMPTION"));

    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fx("insight-rule-report.json")).unwrap();
    let other = dir.path().join("other.json");
    std::fs::write(&other, text.replace("\"customer_id\"", "\"sk\"")).unwrap();
    let i = import(&[fx("describe-table.json"), other], &[], None, "orders").unwrap();
    assert!(i.scenario.contains("hot = { keys = 5, share = 0.2 }"));
    assert!(i.notes.iter().any(|n| n.contains("(sk) is no key attribute of Orders")), "{:?}", i.notes);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, text.replace("\"AggregateValue\": 50000.0", "\"AggregateValue\": 5000.0")).unwrap();
    let e = import(&[fx("describe-table.json"), bad.clone()], &[], None, "orders").unwrap_err().to_string();
    assert!(e.contains("bad.json") && e.contains("/Contributors") && e.contains("more than the AggregateValue"), "{e}");
}

/// Finding of the `import` fuzz target: a provisioned table whose GSI states no
/// ProvisionedThroughput (but a WarmThroughput) was written with on-demand settings on a
/// provisioned index, a scenario that does not load. The index now takes the table's capacity,
/// as an assumption.
#[test]
fn finding_a_provisioned_index_without_capacity_takes_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("t.json");
    std::fs::write(
        &def,
        r#"{"Table": {"TableName": "T", "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 30, "WriteCapacityUnits": 20},
            "GlobalSecondaryIndexes": [{"IndexName": "G", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
              "Projection": {"ProjectionType": "ALL"}, "WarmThroughput": {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000}}]}}"#,
    )
    .unwrap();
    let i = import(&[def], &[], None, "t").unwrap();
    assert!(i.scenario.contains("takes the table's (30 RCU / 20 WCU)"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    assert!(matches!(sc.gsis[0].capacity, CapacitySpec::Provisioned { read: 30, write: 20 }));
}

/// Finding of the `import` fuzz target: a name with a control character (here a CSV column
/// with a vertical tab, and a table name with a newline and a DEL) ended a `#` comment or a
/// string early and left TOML that does not parse. Comments now blank control characters, and
/// names carry U+FFFD in their place (a scenario refuses invisible characters in names).
#[test]
fn finding_control_characters_in_names_stay_inside_comments_and_strings() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("t.json");
    std::fs::write(
        &def,
        r#"{"Table": {"TableName": "Ord\ners\u007f", "KeySchema": [{"AttributeName": "k\u000bey", "KeyType": "HASH"}, {"AttributeName": "s\nk", "KeyType": "RANGE"}],
            "BillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 30, "WriteCapacityUnits": 20},
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS\nONLY"}}}"#,
    )
    .unwrap();
    let csv = dir.path().join("m.csv");
    std::fs::write(
        &csv,
        "Timestamp,ConsumedReadCapacityUnits,ReadThrottle\u{b}Events\n2026-11-20 10:00:00,600,0\n2026-11-20 10:01:00,600,0\n",
    )
    .unwrap();
    let i = import(&[def], &[csv], None, "t").unwrap();
    let (_d, sc) = load(&i);
    // A scenario refuses control characters in names: they become U+FFFD, everywhere alike.
    assert_eq!(sc.table.name, "Ord\u{fffd}ers\u{fffd}");
    assert_eq!(sc.key_spaces[0].name, "k\u{fffd}ey");
}

/// scenarios/imported/ is what `ddbsim import` writes from the fixtures (README's worked
/// example): importing them again gives the same files, byte for byte.
#[test]
fn the_bundled_imported_example_is_what_import_writes() {
    let i = import(
        &[fx("describe-table.json"), fx("scalable-targets.json"), fx("scaling-policies.json")],
        &[fx("metric-data-5m.json")],
        None,
        "orders",
    )
    .unwrap();
    let dir = Path::new("scenarios/imported");
    if std::env::var_os("DDBSIM_WRITE_FIXTURES").is_some() {
        std::fs::write(dir.join("orders.toml"), &i.scenario).unwrap();
    }
    assert_eq!(std::fs::read_to_string(dir.join("orders.toml")).unwrap(), i.scenario, "re-run the import of README's example");
    for (name, text) in &i.traces {
        assert_eq!(&std::fs::read_to_string(dir.join(name)).unwrap(), text, "{name}");
    }
}

/// scenarios/imported/orders-14d.toml (README's 14-day example) is what `ddbsim import` writes
/// from the CloudFormation template and the 14-day history, byte for byte.
#[test]
fn the_fourteen_day_example_is_what_import_writes() {
    let i = import(&[fx("orders-cfn.yaml")], &[fx("metric-data-14d.json")], None, "orders-14d").unwrap();
    let dir = Path::new("scenarios/imported");
    if std::env::var_os("DDBSIM_WRITE_FIXTURES").is_some() {
        std::fs::write(dir.join("orders-14d.toml"), &i.scenario).unwrap();
        for (name, text) in &i.traces {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    assert_eq!(std::fs::read_to_string(dir.join("orders-14d.toml")).unwrap(), i.scenario, "re-run the import of README's example");
    for (name, text) in &i.traces {
        assert_eq!(&std::fs::read_to_string(dir.join(name)).unwrap(), text, "{name}");
    }
}

/// Finding of the `import` fuzz target: a history whose requests consume more units than one
/// 400 KB item can (a Query page, a batch) was written as an item of 400 MB. It is now
/// charged as requests of the largest item, keeping the units: 600,000 read units a minute
/// in 60 GetItem requests are 10,000 units a second, 100 units (400 KB, strongly consistent)
/// a request, so 100 requests a second.
#[test]
fn finding_requests_larger_than_an_item_keep_their_units() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.json");
    std::fs::write(
        &m,
        r#"{"MetricDataResults": [
          {"Id": "r", "Label": "ConsumedReadCapacityUnits", "Timestamps": ["2026-11-20T10:01:00Z", "2026-11-20T10:00:00Z"], "Values": [600000, 600000]},
          {"Id": "g", "Label": "SuccessfulRequestLatency GetItem", "Timestamps": ["2026-11-20T10:01:00Z", "2026-11-20T10:00:00Z"], "Values": [60, 60]}]}"#,
    )
    .unwrap();
    let i = import(&[fx("terraform-show.json")], &[m], None, "t").unwrap();
    assert_eq!(i.traces.iter().find(|t| t.0 == "t-read-get-item.csv").unwrap().1, "time_s,rate\n0,100\n");
    assert!(i.scenario.contains("item_bytes = 409600"), "{}", i.scenario);
    load(&i);
}

/// Finding of the `import` fuzz target: a datapoint of 1e46 units became a trace rate above
/// ddbsim's ceiling of 1e9 requests a second, a scenario that does not load. It is an error
/// that names the series; so is a negative one.
#[test]
fn finding_metric_values_beyond_the_ceiling_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for v in ["6e46", "-60"] {
        let m = dir.path().join("m.json");
        std::fs::write(
            &m,
            format!(r#"{{"MetricDataResults": [{{"Id": "r", "Label": "ConsumedReadCapacityUnits", "Timestamps": ["2026-11-20T10:00:00Z", "2026-11-20T10:01:00Z"], "Values": [{v}, {v}]}}]}}"#),
        )
        .unwrap();
        let e = import(&[fx("terraform-show.json")], &[m], None, "t").unwrap_err().to_string();
        assert!(e.contains("m.json") && e.contains("/MetricDataResults/0") && e.contains("1e9"), "{e}");
    }
}

/// Finding of the `import` fuzz target: metrics without the table's consumed units (here only
/// its provisioned capacity) gave a scenario with no pattern. It is an error saying what to add.
#[test]
fn finding_metrics_without_consumed_units_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.json");
    std::fs::write(&m, r#"{"MetricDataResults": [{"Id": "p", "Label": "ProvisionedReadCapacityUnits", "Timestamps": ["2026-11-20T10:00:00Z", "2026-11-20T10:01:00Z"], "Values": [20, 20]}]}"#).unwrap();
    let e = import(&[fx("terraform-show.json")], &[m], None, "t").unwrap_err().to_string();
    assert!(e.contains("m.json") && e.contains("ConsumedReadCapacityUnits"), "{e}");
}

/// A CloudFormation table with Contributor Insights in the throttled-keys mode on the table and
/// the default (accessed and throttled keys) on its index: both come out in the scenario.
#[test]
fn cloudformation_contributor_insights() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(
        &path,
        r#"{"Resources": {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {
  "TableName": "Events", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
  "ContributorInsightsSpecification": {"Enabled": true, "Mode": "THROTTLED_KEYS"},
  "GlobalSecondaryIndexes": [{"IndexName": "ByDay", "KeySchema": [{"AttributeName": "day", "KeyType": "HASH"}],
     "Projection": {"ProjectionType": "KEYS_ONLY"}, "ContributorInsightsSpecification": {"Enabled": true}}]}}}}"#,
    )
    .unwrap();
    let i = import(&[path], &[], None, "t").unwrap();
    assert_eq!(i.table.insights.map(|m| m.name()), Some("throttled_keys"));
    assert_eq!(i.table.gsis[0].insights.map(|m| m.name()), Some("accessed_and_throttled_keys"));
    let (_d, sc) = load(&i);
    assert_eq!(sc.table.contributor_insights, Some(ddbsim::scenario::InsightsMode::ThrottledKeys));
    assert_eq!(sc.gsis[0].contributor_insights, Some(ddbsim::scenario::InsightsMode::AccessedAndThrottledKeys));
}

/// Issue 46: a history without an index's read series made a scenario that never reads the
/// index, silently, and `recommend` then cut the index to 1 RCU (every query throttles once
/// deployed). The import now says so (a note and an ASSUMPTION line, `no_history = ["read"]`),
/// and `recommend` keeps the index's read capacity (ByStatus: 50 RCU) and says why.
#[test]
fn an_index_without_read_history_is_stated_and_kept() {
    let text = std::fs::read_to_string(fx("metric-data-5m.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["MetricDataResults"].as_array_mut().unwrap().retain(|r| r["Id"] != "gsi_consumed_read");
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.json");
    std::fs::write(&m, doc.to_string()).unwrap();
    let i = import(&[fx("describe-table.json")], &[m], None, "t").unwrap();
    assert!(i.notes.iter().any(|n| n.contains("ByStatus") && n.contains("no ConsumedReadCapacityUnits")), "{:?}", i.notes);
    assert!(i.scenario.contains("no_history = [\"read\"]  # ASSUMPTION"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    assert_eq!(sc.gsis[0].no_history, [true, false]);
    assert!(!sc.patterns.iter().any(|p| p.index.is_some()), "no reads of the index");
    let o = ddbsim::study::recommend::RecommendOptions {
        run: ddbsim::RunOptions { duration: Some(ddbsim::SimDuration::from_secs(1_800)), ..ddbsim::RunOptions::default() },
        ..ddbsim::study::recommend::RecommendOptions::default()
    };
    let rec = ddbsim::study::recommend::recommend(&sc, &ddbsim::Catalog::builtin(), &o);
    for c in &rec.candidates {
        if let ddbsim::study::recommend::Settings::Provisioned { units } = &c.settings {
            assert!(units[1][0] >= 50, "a provisioned candidate lowers ByStatus reads: {}", c.description);
        }
        if let ddbsim::study::recommend::Settings::Autoscaling { min, .. } = &c.settings {
            assert!(min[1][0] >= 50, "an auto-scaled candidate lowers ByStatus reads: {}", c.description);
        }
    }
    assert!(rec.kept.iter().any(|k| k.starts_with("ByStatus read kept at 50 RCU")), "{:?}", rec.kept);
}

/// What a definition sets is imported when ddbsim models it, and listed in the notes when it
/// does not (#46): the template's PITR (7-day period), TTL and 300 s / 60 s cooldowns reach
/// the scenario; its KMS key, Kinesis stream, tags and deletion protection are each a note.
#[test]
fn the_import_carries_what_it_models_and_lists_what_it_drops() {
    let i = import(&[fx("dropped.yaml")], &[], None, "t").unwrap();
    let t = &i.table;
    assert_eq!(t.pitr, Some(Some(7)));
    assert_eq!(t.ttl_attribute.as_deref(), Some("expires_at"));
    assert_eq!(t.scaling.get(&(None, Dim::Read)).map(|s| s.cooldowns), Some([Some(300), Some(60)]));
    for attr in ["SSESpecification", "KinesisStreamSpecification", "Tags", "DeletionProtectionEnabled"] {
        assert!(i.notes.iter().any(|n| n.contains(attr)), "no note on {attr}: {:?}", i.notes);
        assert!(i.scenario.contains(&format!("NOTE: ledger /Resources/Ledger/Properties/{attr}")), "{}", i.scenario);
    }
    assert!(i.notes.iter().any(|n| n.contains("Time to Live") && n.contains("expires_at")), "{:?}", i.notes);
    assert!(i.scenario.contains("# [table.ttl]"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    assert!(sc.table.backups.pitr, "PITR reaches the scenario");
    let r = sc.table.autoscaling.as_ref().and_then(|a| a.read.as_ref()).expect("read target");
    assert_eq!((r.scale_in_cooldown.as_secs(), r.scale_out_cooldown.as_secs()), (300, 60));
    // Nothing the definition does not set is listed.
    assert!(!i.notes.iter().any(|n| n.contains("AttributeDefinitions")), "{:?}", i.notes);
}

/// describe-table says nothing of PITR or TTL: `describe-continuous-backups` and
/// `describe-time-to-live` output, which name no table, apply to the table imported. The
/// index's size comes from its IndexSizeBytes (1.28 GB), not from the table's size, coverage
/// and projection (52.43 GB x 0.25 x 400 / 2,148 bytes = 2.44 GB): the index starts the run
/// holding 1.28 GB.
#[test]
fn api_outputs_without_a_table_name_and_index_sizes_from_the_definition() {
    let i = import(&[fx("describe-table.json"), fx("continuous-backups.json"), fx("time-to-live.json")], &[], None, "t").unwrap();
    assert_eq!(i.table.pitr, Some(Some(35)));
    assert_eq!(i.table.ttl_attribute.as_deref(), Some("purge_at"));
    assert!(i.notes.iter().any(|n| n.contains("continuous-backups.json") && n.contains("applied to Orders")), "{:?}", i.notes);
    assert!(i.notes.iter().any(|n| n.contains("DeletionProtectionEnabled")), "{:?}", i.notes);
    let (_d, sc) = load(&i);
    assert!(sc.table.backups.pitr);
    assert_eq!(sc.gsis[0].storage_bytes, Some(1_280_000_000));
    let mut short = sc.clone();
    short.duration = ddbsim::SimDuration::from_secs(60);
    let r = ddbsim::simulate(&short, &ddbsim::RunOptions::default());
    let index = r.resources.iter().find(|x| x.name == "ByStatus").expect("index");
    let held = index.minutes[0].stored_bytes as f64;
    assert!((1.28e9..1.29e9).contains(&held), "the index holds {held} bytes");
}

/// `import --print-queries` writes the queries README used to ask users to write: fetched, they
/// give the same scenario as the hand-written ones. The bundled 5-minute history's labels are
/// what the printed queries ask for; answered with those series (and empty ones for the series
/// the history lacks), the import is the same, byte for byte, as the history's own.
#[test]
fn printed_queries_fetch_what_import_reads() {
    let def = "tests/fixtures/import/describe-table.json";
    let o = ddbsim(&["import", "--print-queries", def]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("aws cloudwatch get-metric-data --metric-data-queries file://queries.json"));
    let queries: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    // The table's 14 capacity and throttle series, 10 operations, 14 per GSI (ByStatus).
    assert_eq!(queries.len(), 14 + 10 + 14, "{queries:#?}");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/fixtures/import/metric-data-5m.json").unwrap()).unwrap();
    let results = recorded["MetricDataResults"].as_array().unwrap();
    let mut answered = 0;
    let fetched: Vec<serde_json::Value> = queries
        .iter()
        .map(|q| match results.iter().find(|r| r["Label"] == q["Label"]) {
            Some(r) => {
                answered += 1;
                serde_json::json!({"Id": q["Id"], "Label": q["Label"], "Timestamps": r["Timestamps"], "Values": r["Values"], "StatusCode": r["StatusCode"]})
            }
            None => serde_json::json!({"Id": q["Id"], "Label": q["Label"], "Timestamps": [], "Values": [], "StatusCode": "Complete"}),
        })
        .collect();
    // Every series of the history but ReturnedItemCount (not one import reads) was asked for.
    assert_eq!(answered, results.len() - 1);
    let dir = tempfile::tempdir().unwrap();
    let fetched_path = dir.path().join("fetched.json");
    std::fs::write(&fetched_path, serde_json::json!({"MetricDataResults": fetched, "Messages": []}).to_string()).unwrap();
    let import_one = |metrics: &str, out: &str| {
        let out = dir.path().join(out);
        let o = ddbsim(&["import", def, "--metrics", metrics, "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let by_hand = import_one("tests/fixtures/import/metric-data-5m.json", "hand.toml");
    let printed = import_one(fetched_path.to_str().unwrap(), "printed.toml");
    // The same but for where each series sat in its file (notes name the file and the index).
    let at_file = |l: &str| l.starts_with("# NOTE: ") && l.contains(".json: at /MetricDataResults/");
    // Each names its own history file (`# ddbsim-history:`).
    let body = |s: &str| {
        s.lines()
            .skip(1)
            .filter(|l| !at_file(l) && !l.starts_with("# ddbsim-history: "))
            .map(|l| l.replace("printed", "hand"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&printed), body(&by_hand));
    // ReturnedItemCount, which import does not read, was not asked for.
    let notes = |s: &str| {
        s.lines()
            .filter(|l| at_file(l) && !l.contains("ReturnedItemCount"))
            .map(|l| l.split(": at ").nth(1).unwrap().split_once(": ").unwrap().1.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(notes(&printed), notes(&by_hand));
    for trace in ["read-get-item", "read-query", "write-put-item", "query-ByStatus"] {
        let read = |stem: &str| std::fs::read_to_string(dir.path().join(format!("{stem}-{trace}.csv"))).unwrap();
        assert_eq!(read("printed"), read("hand"), "{trace}");
    }
    // Several tables go to a folder, one file each; a name needs --gsi for its indexes.
    let o = ddbsim(&["import", "--print-queries", "Orders", "Users"]);
    assert!(o.status.code() == Some(1) && String::from_utf8_lossy(&o.stderr).contains("give --out DIR"));
    let o = ddbsim(&["import", "--print-queries", "Orders", "Users", "--out", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let users: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("Users.queries.json")).unwrap()).unwrap();
    assert_eq!(users.len(), 24);
    let o = ddbsim(&["import", "--print-queries", "Orders", "--gsi", "ByStatus", "--period", "300"]);
    let q: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((q.len(), q[0]["MetricStat"]["Period"].as_u64()), (38, Some(300)));
    let o = ddbsim(&["import", "--print-queries", "Orders", "--period", "120"]);
    assert!(o.status.code() == Some(1) && String::from_utf8_lossy(&o.stderr).contains("--period: 60 or 300"));
}

/// A GSI with a multi-attribute key (Nov 2025: up to four HASH attributes in its KeySchema),
/// in describe-table and in Terraform's `key_schema` blocks: the scenario keys the index on
/// the tuple, each attribute a key space of import's assumed 10,000 values, so the tuple has
/// 10,000 x 10,000 = 10^8 values.
#[test]
fn a_multi_attribute_index_key_is_imported_as_a_tuple() {
    let dir = tempfile::tempdir().unwrap();
    let mut d: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fx("describe-table.json")).unwrap()).unwrap();
    d["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"] = serde_json::json!([
        { "AttributeName": "region", "KeyType": "HASH" },
        { "AttributeName": "status", "KeyType": "HASH" },
        { "AttributeName": "order_date", "KeyType": "RANGE" }
    ]);
    let path = dir.path().join("describe-table.json");
    std::fs::write(&path, d.to_string()).unwrap();
    let i = import(&[path], &[], None, "orders").unwrap();
    assert_eq!(i.table.gsis[0].hash_key, "region");
    assert_eq!(i.table.gsis[0].more_hash_keys, vec!["status".to_string()]);
    assert!(i.scenario.contains("partition_key = [\"region\", \"status\"]"), "{}", i.scenario);
    let (_d, sc) = load(&i);
    let ks = &sc.key_spaces[sc.gsis[0].partition_key];
    assert_eq!((ks.name.as_str(), ks.cardinality), ("(region, status)", 100_000_000));

    let mut t: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fx("terraform-show.json")).unwrap()).unwrap();
    let g = &mut t["values"]["root_module"]["resources"][0]["values"]["global_secondary_index"][0];
    g["hash_key"] = serde_json::Value::Null;
    g["key_schema"] = serde_json::json!([
        { "attribute_name": "GameTitle", "key_type": "HASH" },
        { "attribute_name": "Season", "key_type": "HASH" },
        { "attribute_name": "TopScore", "key_type": "RANGE" }
    ]);
    let path = dir.path().join("terraform-show.json");
    std::fs::write(&path, t.to_string()).unwrap();
    let i = import(std::slice::from_ref(&path), &[], None, "t").unwrap();
    assert_eq!((i.table.gsis[0].hash_key.as_str(), i.table.gsis[0].more_hash_keys.as_slice()), ("GameTitle", &["Season".to_string()][..]));
    assert_eq!(i.table.gsis[0].range_key.as_deref(), Some("TopScore"));
    load(&i);

    // A fifth HASH attribute is refused, naming the block.
    t["values"]["root_module"]["resources"][0]["values"]["global_secondary_index"][0]["key_schema"] =
        serde_json::json!(["a", "b", "c", "d", "e"].map(|a| serde_json::json!({ "attribute_name": a, "key_type": "HASH" })));
    std::fs::write(&path, t.to_string()).unwrap();
    let e = import(&[path], &[], None, "t").unwrap_err().to_string();
    assert!(e.contains("global_secondary_index/0/key_schema") && e.contains("1 to 4 HASH"), "{e}");
}

/// An hourly Cost and Usage Report alone (tests/fixtures/import/cur-hourly.csv, written from
/// the report's documented line-item columns): a day of Orders, on-demand in us-east-2, its
/// writes billed in two line items an hour (summed): 720,000 WRU an hour (200 a second), but
/// 3,600,000 (1,000 a second) from 08:00 to 20:00 UTC, and reads twice that; 5 GB stored.
/// Without request counts, each unit is a 1-unit request. Ledger is billed provisioned
/// capacity-hours, not its use; backups and S3 are skipped. The same report as CUR 2.0
/// (snake-case columns), gzipped, gives the same traces; a daily one is refused.
#[test]
fn a_cost_and_usage_report_rebuilds_an_on_demand_tables_hours() {
    let i = import(&[], &[fx("cur-hourly.csv")], Some("Orders"), "orders").unwrap();
    assert_eq!((i.table.region.as_deref(), i.table.provisioned, i.table.size_bytes), (Some("us-east-2"), None, Some(5_000_000_000)));
    let trace = |name: &str| i.traces.iter().find(|t| t.0 == name).unwrap_or_else(|| panic!("{name}: {:?}", i.traces)).1.clone();
    assert_eq!(trace("orders-write-put-item.csv"), "time_s,rate\n0,200\n28800,1000\n72000,200\n");
    assert_eq!(trace("orders-read-get-item.csv"), "time_s,rate\n0,400\n28800,2000\n72000,400\n");
    let notes = i.notes.join("\n");
    assert!(notes.contains("no key schema") && notes.contains("USE2-TimedBackupStorage-ByteHrs (24)"), "{notes}");
    assert!(notes.contains("GSIs under the table"), "{notes}");
    let (_d, sc) = load(&i);
    assert_eq!((sc.duration.as_secs(), sc.pricing.region.as_str()), (86_400, "us-east-2"));
    // Replayed and billed on-demand at us-east-2's prices: 51.84 M WRU x $0.625 + 103.68 M RRU
    // x $0.125 a million = $45.36, and 5 GB x $0.25 x 24 / 730 h = $0.0411 of storage: $45.40
    // for the day (the simulated requests are Poisson: within 1 %).
    let r = ddbsim::simulate(&sc, &ddbsim::RunOptions::default());
    let bill = ddbsim::report::Summary::new(&sc, &r, &ddbsim::cost::Catalog::builtin()).cost;
    assert!((bill.total_usd / 45.401 - 1.0).abs() < 0.01, "{}", bill.total_usd);

    let e = import(&[], &[fx("cur-hourly.csv")], Some("Ledger"), "l").unwrap_err().to_string();
    assert!(e.contains("cur-hourly.csv") && e.contains("not what it consumed") && e.contains("--metrics"), "{e}");
    let e = import(&[], &[fx("cur-hourly.csv")], None, "x").unwrap_err().to_string();
    assert!(e.contains("Ledger") && e.contains("Orders") && e.contains("--table"), "{e}");

    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fx("cur-hourly.csv")).unwrap();
    let (header, body) = text.split_once('\n').unwrap();
    let v2 = header
        .replace("lineItem/", "line_item_")
        .replace("UsageStartDate", "usage_start_date")
        .replace("UsageEndDate", "usage_end_date")
        .replace("ProductCode", "product_code")
        .replace("UsageType", "usage_type")
        .replace("ResourceId", "resource_id")
        .replace("UsageAmount", "usage_amount");
    let gz = dir.path().join("cur2.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, format!("{v2}\n{body}").as_bytes()).unwrap();
    enc.finish().unwrap();
    let again = import(&[], &[gz], Some("Orders"), "orders").unwrap();
    assert_eq!(again.traces, i.traces);

    let daily = dir.path().join("daily.csv");
    std::fs::write(&daily, text.replace("2026-11-02T01:00:00Z,AmazonDynamoDB", "2026-11-03T00:00:00Z,AmazonDynamoDB")).unwrap();
    let e = import(&[], &[daily], Some("Orders"), "orders").unwrap_err().to_string();
    assert!(e.contains("daily.csv") && e.contains("line 2") && e.contains("hourly granularity"), "{e}");
    let cut = dir.path().join("cut.csv");
    std::fs::write(&cut, "lineItem/UsageType,lineItem/UsageAmount\nUSE2-ReadRequestUnits,5\n").unwrap();
    let e = import(&[], &[cut], None, "x").unwrap_err().to_string();
    assert!(e.contains("cut.csv") && e.contains("line 1") && e.contains("lineItem/UsageStartDate"), "{e}");
}
