//! Cost by capacity mode (spec §10): the bill of a run and `compare`'s pick, against dollars
//! worked out by hand in the scenario files' comments.

use ddbsim::cost::{BillComponent, Catalog};
use ddbsim::report::Summary;
use ddbsim::scenario::load;
use ddbsim::study::{compare, CompareOptions};
use ddbsim::{simulate, RunOptions};
use std::path::Path;

fn pick(file: &str) -> ddbsim::study::Comparison {
    let sc = load(Path::new(file)).unwrap();
    compare(&sc, &Catalog::builtin(), &CompareOptions::default())
}

/// Steady table: 5,000 x 730 x 0.00013 + 1,000 x 730 x 0.00065 + 100 x 0.25 = $974.00 a month
/// in its own (provisioned) mode; on-demand for 3,500 reads/s of 1 RRU and 700 writes/s of
/// 1 WRU: 3,500 x 3,600 x 730 x 0.125e-6 + 700 x 3,600 x 730 x 0.625e-6 + 25 = $2,324.50.
#[test]
fn steady_table_bills_as_worked_by_hand() {
    let sc = load(Path::new("scenarios/steady-provisioned.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    let s = Summary::new(&sc, &r, &Catalog::builtin());
    let monthly = s.cost.monthly_usd.expect("the scenario says extrapolate = \"repeat\"");
    assert!((monthly - 974.00).abs() < 0.005, "{monthly}");
    // The window's own cost leads: an hour of it, 974 / 730.
    assert!((s.cost.total_usd - 974.00 / 730.0).abs() < 1e-4, "{}", s.cost.total_usd);
    let c = pick("scenarios/steady-provisioned.toml");
    let od = c.rows.iter().find(|r| r.mode.to_string() == "on_demand").unwrap();
    // Poisson traffic over an hour: within 0.2 % of the expected request count.
    let od_monthly = od.monthly_usd.unwrap();
    assert!((od_monthly / 2_324.50 - 1.0).abs() < 0.002, "{od_monthly}");
    let fixed = c.rows.iter().find(|r| r.mode.to_string() == "provisioned_fixed").unwrap();
    let fixed_monthly = fixed.monthly_usd.unwrap();
    assert!((974.0..1_000.0).contains(&fixed_monthly), "{fixed_monthly}");
    assert_eq!(c.pick.as_ref().map(ToString::to_string).as_deref(), Some("reserved_1y"));
}

#[test]
fn spiky_batch_picks_on_demand() {
    let c = pick("scenarios/spiky-batch.toml");
    assert_eq!(c.pick.as_ref().map(ToString::to_string).as_deref(), Some("on_demand"));
    // Auto scaling is cheaper but throttles most of each batch.
    let aws = c.rows.iter().find(|r| r.mode.to_string() == "autoscaling_aws").unwrap();
    assert!(aws.throttled_attempt_share > 0.5);
}

#[test]
fn flat_heavy_picks_reserved_capacity() {
    let c = pick("scenarios/flat-heavy.toml");
    assert_eq!(c.pick.as_ref().map(ToString::to_string).as_deref(), Some("reserved_1y"));
    let reserved = c.rows.iter().find(|r| r.mode.to_string() == "reserved_1y").unwrap();
    // 142 blocks of 100 RCU x $30 + 42 blocks of 100 WCU x $150.
    assert!((reserved.upfront_usd - (142.0 * 30.0 + 42.0 * 150.0)).abs() < 1e-9, "{}", reserved.upfront_usd);
}

/// Cold archive: 2,000 GB of storage is $500 a month on Standard and $200 on Standard-IA, so
/// the cheapest mode with the IA class wins.
#[test]
fn cold_archive_picks_standard_ia() {
    let c = pick("scenarios/cold-archive.toml");
    let p = c.pick.clone().unwrap();
    assert!(p.to_string().ends_with("+standard_ia"), "{p}");
    let ia = c.rows.iter().find(|r| r.mode == p).unwrap();
    let storage: f64 = ia.bill.lines.iter().filter(|l| l.component == ddbsim::cost::BillComponent::Storage).map(|l| l.cost_usd).sum();
    assert!((storage * 730.0 - 200.0).abs() < 0.01, "{}", storage * 730.0);
}

/// In eu-central-1 Standard storage ($0.306) is confirmed by two Price List readings and
/// Standard-IA storage ($0.1224) by one (docs/prices-verified.md): the report lists the second.
#[test]
fn the_report_flags_unverified_prices() {
    let sc = load(Path::new("scenarios/cold-archive.toml")).unwrap();
    let c = compare(&sc, &Catalog::for_region("eu-central-1").unwrap(), &CompareOptions::default());
    assert!(c.unverified_prices.contains(&"ia_storage_gb_month".to_string()), "{:?}", c.unverified_prices);
    assert!(ddbsim::Render::text(&c).contains("unverified prices"));
    assert!(!c.unverified_prices.contains(&"storage_gb_month".to_string()), "{:?}", c.unverified_prices);
}

/// A table serving 500 strongly consistent 4 KB reads/s (1 RCU each) and 500 updates/s of
/// 1 KB (1 WCU each) for an hour, switching capacity mode at `at` (instantly: these bills are
/// worked for a switch that takes no time; `a_switch_bills_the_old_mode_until_it_is_done`
/// checks `switch_duration`).
fn switching(start: &str, switch: &str, at: &str) -> String {
    switching_in(start, switch, at, "0s")
}

fn switching_in(start: &str, switch: &str, at: &str, duration: &str) -> String {
    format!(
        r#"
[scenario]
duration = "1h"
seed = 3
[table]
partition_key = "k"
capacity = {start}
switch_duration = "{duration}"
[keys.k]
cardinality = 1000000
[[pattern]]
name = "r"
op = "get_item"
item_bytes = 4096
consistency = "strong"
rate = {{ constant = 500 }}
[[pattern]]
name = "w"
op = "update_item"
item_bytes = 1024
rate = {{ constant = 500 }}
[[at]]
time = "{at}"
switch_mode = {switch}
[client]
retry = "none"
"#
    )
}

fn bill_of(text: &str) -> (ddbsim::cost::Bill, Vec<ddbsim::report::tables::SeriesRow>) {
    let sc = super::scenario(text);
    let r = simulate(&sc, &RunOptions::default());
    (Summary::new(&sc, &r, &Catalog::builtin()).cost, ddbsim::report::tables::timeseries_rows(&r))
}

fn within(got: f64, want: f64, share: f64) {
    assert!((got / want - 1.0).abs() < share, "billed ${got:.6}, worked by hand ${want:.6}");
}

/// Provisioned 1,000 RCU / 1,000 WCU for 30 minutes, then on-demand. By hand:
///   provisioned  1,000 RCU x 0.5 h x $0.00013 = $0.0650; 1,000 WCU x 0.5 h x $0.00065 = $0.3250
///   on-demand    500/s x 1,800 s = 900,000 RRU x $0.125/M = $0.1125; 900,000 WRU x $0.625/M = $0.5625
///   total $1.0650 for the hour (billing the whole hour on-demand would say $1.35).
/// timeseries.csv carries the provisioned series for minutes 0-29 only.
#[test]
fn a_switch_to_on_demand_at_half_time_bills_each_half_in_its_mode() {
    let (b, rows) = bill_of(&switching(r#"{ mode = "provisioned", read = 1000, write = 1000 }"#, r#""on_demand""#, "30m"));
    within(b.total_usd, 1.065, 0.005);
    let prov: f64 = b.lines.iter().filter(|l| l.unit.ends_with("-hours")).map(|l| l.cost_usd).sum();
    assert!((prov - 0.39).abs() < 1e-9, "provisioned part ${prov}");
    let minutes: Vec<u64> =
        rows.iter().filter(|r| r.metric.to_string() == "ProvisionedWriteCapacityUnits").map(|r| r.time_s / 60).collect();
    assert_eq!(minutes, (0..30).collect::<Vec<_>>());
    assert!(rows.iter().filter(|r| r.metric.to_string() == "ProvisionedReadCapacityUnits").all(|r| r.value == 1000.0));
}

/// On-demand for 30 minutes, then provisioned at 1,000 / 1,000: the same $1.0650 by hand, the
/// halves the other way round (billing the whole hour provisioned would say $0.78).
#[test]
fn a_switch_to_provisioned_at_half_time_bills_each_half_in_its_mode() {
    let (b, rows) = bill_of(&switching(r#"{ mode = "on_demand" }"#, r#"{ to = "provisioned", read = 1000, write = 1000 }"#, "30m"));
    within(b.total_usd, 1.065, 0.005);
    let od: f64 = b.lines.iter().filter(|l| l.unit.starts_with("million")).map(|l| l.cost_usd).sum();
    within(od, 0.675, 0.005);
    let minutes: Vec<u64> = rows.iter().filter(|r| r.metric.to_string() == "ProvisionedReadCapacityUnits").map(|r| r.time_s / 60).collect();
    assert_eq!(minutes, (30..60).collect::<Vec<_>>());
}

/// A switch inside a minute and inside the hour, at 20 m 30 s: provisioned for 1,230 s.
///   provisioned  1,000 x 1,230 / 3,600 h x ($0.00013 + $0.00065) = $0.266500
///   on-demand    500/s x 2,370 s = 1,185,000 RRU = $0.148125 and 1,185,000 WRU = $0.740625
///   total $1.155250. Minute 20 was provisioned for 30 s: it keeps its provisioned series.
#[test]
fn a_switch_inside_a_minute_splits_that_minute() {
    let (b, rows) = bill_of(&switching(r#"{ mode = "provisioned", read = 1000, write = 1000 }"#, r#""on_demand""#, "20m30s"));
    within(b.total_usd, 1.15525, 0.005);
    let prov: f64 = b.lines.iter().filter(|l| l.unit.ends_with("-hours")).map(|l| l.cost_usd).sum();
    assert!((prov - 0.2665).abs() < 1e-9, "provisioned part ${prov}");
    let minutes: Vec<u64> = rows.iter().filter(|r| r.metric.to_string() == "ProvisionedReadCapacityUnits").map(|r| r.time_s / 60).collect();
    assert_eq!(minutes, (0..=20).collect::<Vec<_>>());
}

/// A switch takes `switch_duration` (default 5 minutes), during which the table keeps its old
/// mode's limits and bill (spec §5: "throughput stays consistent with the previous provisioned
/// amounts"). 1,000 RCU / 1,000 WCU provisioned, switched to on-demand at 30 minutes: the
/// provisioned bill runs to 35 minutes, (1,000 x $0.00013 + 1,000 x $0.00065) x 35/60 =
/// $0.455, and on-demand bills the last 25 minutes' 500 RRU + 500 WRU a second: 750,000 x
/// ($0.125 + $0.625) / 10^6 = $0.5625 (Poisson counts, within 0.5 %): $1.0175.
#[test]
fn a_switch_bills_the_old_mode_until_it_is_done() {
    let (b, rows) = bill_of(&switching_in(r#"{ mode = "provisioned", read = 1000, write = 1000 }"#, r#""on_demand""#, "30m", "5m"));
    let prov: f64 = b.lines.iter().filter(|l| l.unit.ends_with("-hours")).map(|l| l.cost_usd).sum();
    assert!((prov - 0.455).abs() < 1e-9, "provisioned part ${prov}");
    within(b.total_usd, 1.0175, 0.005);
    let minutes: Vec<u64> = rows.iter().filter(|r| r.metric.to_string() == "ProvisionedReadCapacityUnits").map(|r| r.time_s / 60).collect();
    assert_eq!(minutes, (0..35).collect::<Vec<_>>());
}

/// Without capacity, a switch to provisioned takes the console's estimate: the peak minute of
/// the last 30 at 70 % utilization. At 500 units/s (Poisson, a minute's average within about
/// 1 % of 500) that is ceil(500 / 0.7) = 715 to ceil(510 / 0.7) = 729 units, billed for 0.5 h.
#[test]
fn a_switch_to_provisioned_without_capacity_takes_the_console_estimate() {
    let text = switching(r#"{ mode = "on_demand" }"#, r#""provisioned""#, "30m");
    let sc = super::scenario(&text);
    let r = simulate(&sc, &RunOptions::default());
    let est = r.resources[0].minutes[45].provisioned;
    assert!((715..=729).contains(&est[0]) && (715..=729).contains(&est[1]), "{est:?}");
    let b = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let prov: f64 = b.lines.iter().filter(|l| l.unit.ends_with("-hours")).map(|l| l.cost_usd).sum();
    let want = 0.5 * (est[0] as f64 * 0.00013 + est[1] as f64 * 0.00065);
    assert!((prov - want).abs() < 1e-9, "{prov} vs {want}");
}

/// Spec §7: the backfill's writes into a new GSI are charged. An on-demand table of 1.1 GB of
/// 1,000-byte items holds 1,000,000 items (1,100 bytes with the 100-byte overhead); a keys-only
/// GSI added at 60 s writes 1,000,000 entries of one WRU each (at up to the new index's 4,000
/// WRU/s warm throughput, done in 250 s), and nothing else writes: the GSI's write line is
/// 1,000,000 WRU x $0.625/M = $0.625. (Before the fix: $0.)
#[test]
fn an_on_demand_backfill_is_billed() {
    let (b, _) = bill_of(
        r#"
[scenario]
duration = "10m"
[table]
partition_key = "k"
storage_gb = 1.1
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 1000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
[[pattern]]
name = "w"
op = "update_item"
item_bytes = 1000
rate = { constant = 0 }
[[at]]
time = "60s"
add_gsi = "G"
"#,
    );
    let line = b.lines.iter().find(|l| l.resource == "G" && l.component == ddbsim::cost::BillComponent::Writes).expect("a GSI write line");
    assert_eq!((line.quantity, line.unit.as_str()), (1.0, "million WRU"));
    within(line.cost_usd, 0.625, 1e-9);
}

/// `compare` runs "the same traffic" under each mode: the requests each pattern offers are
/// drawn from a stream nothing else touches, so every mode sees the same count, whatever its
/// partitions, throttling and retries (the reviewer saw counts differ by up to 0.14 %).
#[test]
fn compare_offers_every_mode_the_same_requests() {
    for file in ["scenarios/hot-key.toml", "scenarios/steady-provisioned.toml", "scenarios/launch-day-ramp.toml"] {
        let sc = load(Path::new(file)).unwrap();
        let o = CompareOptions {
            run: RunOptions { duration: Some(ddbsim::SimDuration::from_secs(1_200)), ..RunOptions::default() },
            ..CompareOptions::default()
        };
        let c = compare(&sc, &Catalog::builtin(), &o);
        let offered: Vec<u64> = c.rows.iter().map(|r| r.offered_requests).collect();
        assert!(offered.windows(2).all(|w| w[0] == w[1]), "{file}: {offered:?}");
        assert!(c.rows.iter().any(|r| r.throttled_attempts > 0) || file.contains("steady"), "{file}: nothing throttled, a weak test");
    }
}

/// The event window first: a two-hour launch (`launch-day-ramp`, 75 minutes, no `[pricing]`
/// section, so below a day the default is "none") is priced as itself. No row states a month,
/// reserved capacity (a year's commitment) is not compared, and the pick is the cheapest
/// window. The same scenario with `extrapolate = "repeat"` states each row's month as its
/// window x 730 h / 1.25 h, and compares reserved capacity again.
#[test]
fn an_event_window_is_priced_as_itself() {
    let sc = load(Path::new("scenarios/launch-day-ramp.toml")).unwrap();
    assert!(!sc.pricing.extrapolate);
    let c = compare(&sc, &Catalog::builtin(), &CompareOptions::default());
    assert!(!c.extrapolated);
    assert!(c.rows.iter().all(|r| r.monthly_usd.is_none() && r.bill.monthly_usd.is_none()));
    assert!(c.rows.iter().all(|r| !r.mode.to_string().starts_with("reserved")), "no reservation is priced from an event");
    let text = ddbsim::report::Render::text(&c);
    assert!(text.contains("window $") && !text.contains("$/month"), "{text}");
    assert!(text.contains("extrapolate = \"none\""), "{text}");
    let mut repeat = sc.clone();
    repeat.pricing.extrapolate = true;
    let r = compare(&repeat, &Catalog::builtin(), &CompareOptions::default());
    assert!(r.rows.iter().any(|r| r.mode.to_string() == "reserved_1y"));
    for row in &r.rows {
        let m = row.monthly_usd.unwrap();
        assert!((m - row.window_usd * 730.0 / 1.25).abs() < 1e-6 * m.max(1.0), "{}: {m} vs {}", row.mode, row.window_usd);
    }
    // The same traffic and bills: the event's windows are the repeating run's windows.
    for a in &c.rows {
        let b = r.rows.iter().find(|b| b.mode == a.mode).unwrap();
        assert!((a.window_usd - b.window_usd).abs() < 1e-9, "{}: {} vs {}", a.mode, a.window_usd, b.window_usd);
    }
}

/// `[table.backups]` end to end: a table of 100 GB read for an hour (reads store nothing, so it
/// stays 100 GB) with PITR, 7 daily backups kept and an export at 30 minutes. By hand: PITR
/// 100 GB x 1 h / 730 h x $0.20 = $0.027397; backups 7 x 100 GB x 1 / 730 x $0.10 = $0.095890;
/// export 100 GB x $0.10 = $10.00; and storage, the reads, and nothing else changes: the same
/// run without backups bills exactly those three lines less.
#[test]
fn backups_and_exports_bill_per_gb_of_the_table() {
    let text = |backups: &str| {
        format!(
            "[scenario]\nduration = \"1h\"\n[table]\npartition_key = \"k\"\nstorage_gb = 100\ncapacity = {{ mode = \"on_demand\" }}\n{backups}\
             [keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"read\"\nop = \"get_item\"\nrate = {{ constant = 10 }}\n"
        )
    };
    let with = super::scenario(&text("[table.backups]\npitr = true\non_demand = { every = \"24h\", retain = 7 }\nexport_at = [\"30m\"]\n"));
    let without = super::scenario(&text(""));
    let s = super::run_summary(&with);
    let plain = super::run_summary(&without);
    let line = |c: ddbsim::cost::BillComponent| s.cost.lines.iter().find(|l| l.component == c).map(|l| l.cost_usd).unwrap();
    use ddbsim::cost::BillComponent::{Backups, Exports, Pitr};
    assert!((line(Pitr) - 100.0 / 730.0 * 0.20).abs() < 1e-6, "{:?}", s.cost.lines);
    assert!((line(Backups) - 700.0 / 730.0 * 0.10).abs() < 1e-6, "{:?}", s.cost.lines);
    assert!((line(Exports) - 10.0).abs() < 1e-6, "{:?}", s.cost.lines);
    let extra = line(Pitr) + line(Backups) + line(Exports);
    assert!((s.cost.total_usd - plain.cost.total_usd - extra).abs() < 1e-9, "{} vs {}", s.cost.total_usd, plain.cost.total_usd);
    let text = s.to_table();
    assert!(text.contains("pitr:") && text.contains("exports: 1 x 100.000 GB exported x $0.1"), "{text}");
}

/// Bad `[table.backups]` settings name the key.
#[test]
fn bad_backup_settings_are_refused_with_their_key() {
    let bad = |backups: &str| {
        let text = format!(
            "[scenario]\nduration = \"1h\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n[table.backups]\n{backups}\n\
             [keys.k]\ncardinality = 10\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
        );
        ddbsim::scenario::parse_str(&text, Path::new("b.toml")).unwrap_err().to_string()
    };
    let e = bad("restore_at = [\"2h\"]");
    assert!(e.contains("b.toml:7") && e.contains("table.backups.restore_at[0]") && e.contains("after the end"), "{e}");
    let e = bad("on_demand = { every = \"24h\", retain = 0 }");
    assert!(e.contains("table.backups.on_demand.retain") && e.contains("at least 1"), "{e}");
    let e = bad("on_demand = { every = \"10s\", retain = 3 }");
    assert!(e.contains("table.backups.on_demand.every") && e.contains("1m"), "{e}");
    let e = bad("pitr = \"yes\"");
    assert!(e.contains("b.toml:7") && e.contains("pitr"), "{e}");
    let e = bad("snapshots = 3");
    assert!(e.contains("snapshots"), "{e}");
}

/// `[pricing] savings_plan` end to end: a table provisioned at 1 RCU / 1,000 WCU for an hour
/// has $0.65013 of eligible list usage; a $0.40/h plan at 12 % covers $0.40 / 0.88 = $0.454545
/// of it, so the bill is $0.054545 less than without the plan, and both plan lines print.
/// A commitment or discount out of range names its key.
#[test]
fn a_savings_plan_in_the_scenario_changes_the_bill_by_its_arithmetic() {
    let text = |sp: &str| {
        format!(
            "[scenario]\nduration = \"1h\"\n[pricing]\n{sp}\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 1, write = 1000 }}\n\
             [keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nrate = {{ constant = 100 }}\n"
        )
    };
    let with = super::run_summary(&super::scenario(&text("savings_plan = { commitment_per_hour = 0.40, discount = 0.12 }")));
    let plain = super::run_summary(&super::scenario(&text("")));
    assert!(
        (plain.cost.total_usd - with.cost.total_usd - (0.40 / 0.88 - 0.40)).abs() < 1e-9,
        "{} vs {}",
        with.cost.total_usd,
        plain.cost.total_usd
    );
    let table = with.to_table();
    assert!(table.contains("savings_plan_commitment: $0.4 an hour x 1.000 h at 12.0 % off list = $0.4000 (discount assumed)"), "{table}");
    assert!(table.contains("savings_plan_covered: -$0.4545 of $0.6501 eligible at list"), "{table}");
    let bad = |sp: &str| ddbsim::scenario::parse_str(&text(sp), Path::new("s.toml")).unwrap_err().to_string();
    let e = bad("savings_plan = { commitment_per_hour = 0.40, discount = 12 }");
    assert!(e.contains("s.toml:4") && e.contains("pricing.savings_plan.discount") && e.contains("between 0 and 1"), "{e}");
    let e = bad("savings_plan = { commitment_per_hour = -1, discount = 0.1 }");
    assert!(e.contains("pricing.savings_plan.commitment_per_hour"), "{e}");
    let e = bad("savings_plan = { discount = 0.1 }");
    assert!(e.contains("commitment_per_hour"), "{e}");
}

/// Streams shards follow partitions: a table at 1 RCU / 999 WCU has ceil(1/3,000 + 999/1,000)
/// = 1 partition; raised to 1,999 WCU at 10 minutes it needs ceil(1/3,000 + 1,999/1,000) = 2,
/// which the partitions make by splitting in two. A KCL poller calling each shard every second
/// makes 60 calls a shard a minute, so its calls are 60 x the shard-minutes: between 3,600 (one
/// shard all hour) and 7,200 (two). A Lambda trigger adds
/// nothing; the bill's line is calls / 100,000 x $0.02.
#[test]
fn stream_shards_follow_partitions_and_pollers_pay_per_call() {
    let text = |consumers: &str| {
        format!(
            "[scenario]\nduration = \"1h\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 1, write = 999 }}\n\
             [table.streams]\nconsumers = [{consumers}]\n[keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nrate = {{ constant = 10 }}\n\
             [[at]]\ntime = \"10m\"\nset_capacity = {{ write = 1999 }}\n"
        )
    };
    let sc = super::scenario(&text("{ kind = \"poller\" }, { kind = \"lambda\" }"));
    let r = super::run(&sc);
    let parts: Vec<u64> = r.resources[0].minutes.iter().map(|m| m.partitions).collect();
    assert_eq!((parts[0], *parts.last().unwrap()), (1, 2), "{parts:?}");
    let u = ddbsim::Usage::of(&r, &sc);
    let s = u.streams.as_ref().unwrap();
    let shard_minutes: u64 = parts.iter().sum();
    assert!((s.shard_minutes - shard_minutes as f64).abs() < 1e-9);
    assert!((s.read_units - 60.0 * shard_minutes as f64).abs() < 1e-9, "{s:?}");
    assert!(s.read_units > 3_600.0 && s.read_units < 7_200.0, "{s:?}");
    let b = ddbsim::bill(&u, &Catalog::builtin(), &ddbsim::BillOptions::default());
    let line = b.lines.iter().find(|l| l.component == ddbsim::cost::BillComponent::Streams).unwrap();
    assert!((line.cost_usd - s.read_units / 1e5 * 0.02).abs() < 1e-12);
    assert!(line.arithmetic.contains("1 free consumer(s) not billed"), "{}", line.arithmetic);
    let lambda = super::scenario(&text("{ kind = \"lambda\" }"));
    let u = ddbsim::Usage::of(&super::run(&lambda), &lambda);
    assert_eq!(u.streams.unwrap().read_units, 0.0, "a Lambda trigger's reads are free");
    let bad = ddbsim::scenario::parse_str(&text("{ kind = \"poller\", poll_interval = \"100ms\" }"), Path::new("s.toml"))
        .unwrap_err()
        .to_string();
    assert!(bad.contains("table.streams.consumers[0].poll_interval") && bad.contains("200ms"), "{bad}");
}

/// scenarios/production-bill.toml: the whole bill of an hour, worked by hand in its comments:
/// $0.26 + $0.325 + $0.068493 (storage) + $0.054795 (PITR) + $0.191781 (7 backups) + $0.018
/// (90,000 GetRecords calls) + $0.50 - $0.568182 (the Savings Plan) = $0.849887, $620.42 a
/// month. Nothing throttles and no line depends on the draws, so it is exact.
#[test]
fn the_whole_bill_of_a_production_table_as_worked_by_hand() {
    let sc = load(Path::new("scenarios/production-bill.toml")).unwrap();
    let s = Summary::new(&sc, &simulate(&sc, &RunOptions::default()), &Catalog::builtin());
    let want = 0.26 + 0.325 + 200.0 / 730.0 * (0.25 + 0.20 + 0.7) + 0.018 + 0.50 - 0.50 / 0.88;
    assert!((s.cost.total_usd - want).abs() < 1e-9, "{} vs {want}", s.cost.total_usd);
    assert!((want - 0.849_887).abs() < 1e-6);
    assert!((s.cost.monthly_usd.unwrap() - 620.42).abs() < 0.005);
    assert_eq!(s.cost.lines.len(), 8, "{:?}", s.cost.lines);
}

/// A table behind DAX: eventually consistent 4 KB reads at 1,000/s (0.5 RRU each) and
/// strongly consistent ones at 100/s (1 RRU), on-demand, for `duration`.
fn dax_table(dax: &str, duration: &str) -> String {
    format!(
        r#"
[scenario]
duration = "{duration}"
seed = 17
[table]
name = "Catalog"
partition_key = "sku"
capacity = {{ mode = "on_demand" }}
[keys.sku]
cardinality = 1000000
[[pattern]]
name = "browse"
op = "get_item"
item_bytes = 4000
rate = {{ constant = 1000 }}
[[pattern]]
name = "checkout"
op = "get_item"
item_bytes = 4000
consistency = "strong"
rate = {{ constant = 100 }}
{dax}
"#
    )
}

/// DAX with a 0.9 hit ratio: the eventually consistent reads that reach the table fall by
/// 90 % (3,600,000 an hour to 360,000, a Poisson count: within 1 %), the strongly
/// consistent ones pass through (360,000 either way). Three dax.r5.large nodes bill 3
/// node-hours x $0.255 = $0.765 for the hour, and 6 for 90 minutes (a partial hour is billed
/// whole): $1.53.
#[test]
fn dax_hits_never_reach_the_table_and_nodes_bill_by_the_hour() {
    let with = super::scenario(&dax_table("[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\nhit_ratio = 0.9", "1h"));
    let r = super::run(&with);
    let browse = r.patterns[0].offered as f64;
    assert!((browse / 360_000.0 - 1.0).abs() < 0.01, "browse reached the table {browse} times");
    let checkout = r.patterns[1].offered as f64;
    assert!((checkout / 360_000.0 - 1.0).abs() < 0.01, "checkout {checkout}");
    let d = r.dax.as_ref().unwrap();
    let hits: f64 = d.minutes.iter().map(|m| m.hits).sum();
    assert!((hits - 3_240_000.0).abs() < 1e-3, "expected hits {hits}");
    assert!((d.hit_ratio() - 0.9).abs() < 1e-12);
    // Ceiling: 900 hits x 4 KB + 100 misses x 4 KB x 10 = 7,600 of 3 x 75,000.
    assert!((d.peak_load_share() - 7_600.0 / 225_000.0).abs() < 1e-9, "{}", d.peak_load_share());
    let bill = Summary::new(&with, &r, &Catalog::builtin()).cost;
    let line = bill.lines.iter().find(|l| l.component == ddbsim::cost::BillComponent::Dax).unwrap();
    assert!((line.cost_usd - 0.765).abs() < 1e-9, "{}", line.arithmetic);
    let longer = super::scenario(&dax_table("[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\nhit_ratio = 0.9", "90m"));
    let b = Summary::new(&longer, &super::run(&longer), &Catalog::builtin()).cost;
    let line = b.lines.iter().find(|l| l.component == ddbsim::cost::BillComponent::Dax).unwrap();
    assert!((line.cost_usd - 1.53).abs() < 1e-9, "{}", line.arithmetic);
}

/// Without a fixed ratio, a TTL cache over 1,000,000 equally likely keys: each key is asked
/// 0.001 times a second, 0.3 times per 300 s TTL, so 0.3 / 1.3 = 23.08 % of the eventually
/// consistent reads hit and 2,769,231 of 3,600,000 reach the table.
#[test]
fn the_hit_ratio_of_a_ttl_cache_follows_the_key_popularity() {
    let sc = super::scenario(&dax_table("[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3", "1h"));
    let r = super::run(&sc);
    let d = r.dax.as_ref().unwrap();
    assert!((d.hit_ratio() - 0.3 / 1.3).abs() < 1e-9, "{}", d.hit_ratio());
    let browse = r.patterns[0].offered as f64;
    assert!((browse / (3_600_000.0 / 1.3) - 1.0).abs() < 0.01, "{browse}");
}

/// A bad `[dax]` names its key and the choices.
#[test]
fn a_bad_dax_cluster_is_refused_with_its_key() {
    let bad = ddbsim::scenario::parse_str(&dax_table("[dax]\nnode_type = \"dax.t2.small\"\nnodes = 12", "1h"), Path::new("d.toml"))
        .unwrap_err()
        .to_string();
    assert!(bad.contains("dax.node_type") && bad.contains("dax.r5.large"), "{bad}");
    assert!(bad.contains("dax.nodes") && bad.contains("1 to 11"), "{bad}");
}

/// scenarios/dax-catalog.toml: whatever the computed hit ratio h, the table sees (1 - h) of
/// the 20,000 reads a second (72 M an hour, a Poisson count: within 1 %), each 0.5 RRU; the
/// cluster's busiest second is (20,000 h x 4 KB + 20,000 (1 - h) x 4 KB x 10 + 200 writes x
/// 25 x 4 KB x 3 nodes) / (3 x 75,000) of its ceiling; and the three nodes bill $0.765 for the
/// hour. Zipf keys over a 5-minute TTL hit most reads.
#[test]
fn the_dax_catalog_scenario_reads_through_its_cache() {
    let sc = load(Path::new("scenarios/dax-catalog.toml")).unwrap();
    let r = super::run(&sc);
    let d = r.dax.as_ref().unwrap();
    let h = d.hit_ratio();
    assert!(h > 0.8 && h < 0.99, "hit ratio {h}");
    let reached = r.patterns[0].offered as f64;
    assert!((reached / (72_000_000.0 * (1.0 - h)) - 1.0).abs() < 0.01, "{reached} with h = {h}");
    let load = (20_000.0 * h * 4.0 + 20_000.0 * (1.0 - h) * 40.0 + 200.0 * 25.0 * 4.0 * 3.0) / 225_000.0;
    assert!((d.peak_load_share() - load).abs() < 1e-6, "{} vs {load}", d.peak_load_share());
    let bill = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let line = bill.lines.iter().find(|l| l.component == ddbsim::cost::BillComponent::Dax).unwrap();
    assert!((line.cost_usd - 0.765).abs() < 1e-9);
    let reads = bill.lines.iter().find(|l| l.component == ddbsim::cost::BillComponent::Reads).unwrap();
    assert!(reads.cost_usd < 4.50 * (1.0 - h) * 1.01, "{}", reads.arithmetic);
}

/// CloudWatch Contributor Insights: a table (no sort key) in the accessed-and-throttled-keys
/// mode has 2 rules (most accessed and most throttled partition keys), its GSI too. For an hour,
/// each rule bills $0.50 x 1 / 730 = $0.000685; each event $0.03 per million. The table's events
/// are its attempts' items: about 360,000 GetItems, 36,000 BatchGetItems of 10 and 180,000 puts
/// (900,000: $0.027); the index's, the puts' index entries (180,000: $0.0054).
#[test]
fn contributor_insights_bills_rules_and_events() {
    let sc = super::scenario(
        r#"
[scenario]
duration = "1h"
seed = 12
[table]
name = "T"
partition_key = "k"
capacity = { mode = "on_demand" }
contributor_insights = "accessed_and_throttled_keys"
[keys.k]
cardinality = 1000000
[keys.s]
cardinality = 1000
[[gsi]]
name = "ByS"
partition_key = "s"
contributor_insights = "accessed_and_throttled_keys"
[[pattern]]
name = "get"
op = "get_item"
rate = { constant = 100 }
[[pattern]]
name = "batch"
op = "batch_get"
items = 10
rate = { constant = 10 }
[[pattern]]
name = "put"
op = "put_item"
rate = { constant = 50 }
index_writes = { ByS = "insert" }
"#,
    );
    let r = super::run(&sc);
    let b = ddbsim::cost::bill_of(&sc, &r, &ddbsim::Catalog::builtin());
    let lines: Vec<_> = b.lines.iter().filter(|l| l.component == BillComponent::ContributorInsights).collect();
    assert_eq!(lines.len(), 4);
    let a = |j: usize| r.patterns[j].attempts as f64;
    let table_events = a(0) + 10.0 * a(1) + a(2);
    let index_events = (a(2) - r.patterns[2].throttled_attempts as f64) * 1.0;
    for (res, events) in [("T", table_events), ("ByS", index_events)] {
        let rules = lines.iter().find(|l| l.resource == res && l.unit == "rule-months").unwrap();
        assert!((rules.cost_usd - 2.0 * 0.5 / 730.0).abs() < 1e-12, "{}", rules.cost_usd);
        let ev = lines.iter().find(|l| l.resource == res && l.unit == "million events").unwrap();
        assert!((ev.cost_usd - events / 1e6 * 0.03).abs() < 1e-12, "{res}: {} vs {}", ev.cost_usd, events / 1e6 * 0.03);
    }
    assert!((table_events - 900_000.0).abs() < 5_000.0, "{table_events}");
    assert!((index_events - 180_000.0).abs() < 2_000.0, "{index_events}");
}

/// The throttled-keys mode: one rule (no sort key), and its events are the throttle events
/// only. A 10 WCU table with an empty burst bucket taking 50 writes a second throttles about
/// 40 a second, plus the retries'.
#[test]
fn contributor_insights_throttled_keys_counts_throttles_only() {
    let sc = super::scenario(
        r#"
[scenario]
duration = "10m"
seed = 12
[table]
name = "T"
partition_key = "k"
capacity = { mode = "provisioned", read = 10, write = 10 }
initial_burst = "empty"
contributor_insights = "throttled_keys"
[keys.k]
cardinality = 1000000
[[pattern]]
name = "put"
op = "put_item"
rate = { constant = 50 }
"#,
    );
    let r = super::run(&sc);
    let throttles: u64 = r.resources[0].minutes.iter().map(|m| m.events(ddbsim::Dim::Write)).sum();
    assert!(throttles > 24_000, "{throttles}");
    let b = ddbsim::cost::bill_of(&sc, &r, &ddbsim::Catalog::builtin());
    let ev = b.lines.iter().find(|l| l.component == BillComponent::ContributorInsights && l.unit == "million events").unwrap();
    assert!((ev.cost_usd - throttles as f64 / 1e6 * 0.03).abs() < 1e-12);
    let rules = b.lines.iter().find(|l| l.component == BillComponent::ContributorInsights && l.unit == "rule-months").unwrap();
    // 1 rule x (10 / 60) h / 730 h x $0.50.
    assert!((rules.cost_usd - 0.5 * (10.0 / 60.0) / 730.0).abs() < 1e-12);
}

/// guide-cost-example.toml, the architect's guide's example priced by hand (its comments):
/// 1,000 WCU + 5,000 RCU provisioned for 730 hours is $949.00 a month, and the same requests
/// on-demand (2.628e9 WRU x $0.625/M + 1.314e10 RRU x $0.125/M) $3,285.00: not the guide's
/// $570 and $2,880.
#[test]
fn the_guides_cost_example_is_949_provisioned_and_3285_on_demand() {
    let sc = load(Path::new("scenarios/guide-cost-example.toml")).unwrap();
    let s = Summary::new(&sc, &simulate(&sc, &RunOptions::default()), &Catalog::builtin());
    let monthly = s.cost.monthly_usd.expect("extrapolated");
    assert!((monthly - 949.00).abs() < 0.005, "{monthly}");
    let c = pick("scenarios/guide-cost-example.toml");
    let od = c.rows.iter().find(|r| r.mode.to_string() == "on_demand").unwrap().monthly_usd.unwrap();
    assert!((od / 3_285.00 - 1.0).abs() < 0.002, "{od}");
}

/// A DAX cluster's node-hours always reach the bill, at its node type's price. Before node types
/// were typed through to the bill, a usage naming a type the catalog could not price (say
/// "dax.r6g.large") was silently dropped from the bill (this test, written with that name,
/// failed then); now a node type is a `DaxNodeType` from the scenario to the bill line, and an
/// unknown one is refused where the scenario names it.
#[test]
fn a_dax_cluster_always_reaches_the_bill() {
    use ddbsim::cost::{bill, BillOptions, DaxUsage, PriceItem, ResourceUsage, Usage};
    use ddbsim::scenario::DaxNodeType;
    let catalog = Catalog::builtin();
    for t in DaxNodeType::ALL {
        // 3 nodes for 2 hours: 6 node-hours at the type's price.
        let table = ResourceUsage { name: "t".into(), ..ResourceUsage::default() };
        let usage = Usage { hours: 2.0, resources: vec![table], dax: Some(DaxUsage::of(t, 3, 2.0)), ..Usage::default() };
        let b = bill(&usage, &catalog, &BillOptions::default());
        let line = b.lines.iter().find(|l| l.component == BillComponent::Dax).unwrap_or_else(|| panic!("no DAX line for {t}"));
        let price = catalog.price(t.price_item()).usd;
        assert!((line.cost_usd - 6.0 * price).abs() < 1e-9, "{t}: {} vs 6 x {price}", line.cost_usd);
    }
    assert_eq!(DaxNodeType::R5Large.price_item(), PriceItem::DaxR5LargeHour);
    let e = ddbsim::scenario::parse_str(
        "[scenario]\nduration = \"1m\"\n[table]\nname = \"t\"\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 10\n\
         [dax]\nnode_type = \"dax.r6g.large\"\nnodes = 3\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nrate = { constant = 1 }\n",
        Path::new("dax.toml"),
    )
    .expect_err("an unknown node type is refused");
    assert!(e.to_string().contains("dax.node_type"), "{e}");
}

const VECTOR_TABLE: &str = "[scenario]\nduration = \"10m\"\n\n[table]\nname = \"Products\"\npartition_key = \"id\"\n\
capacity = { mode = \"on_demand\" }\n\n[[table.vector_index]]\nname = \"Embeddings\"\ndimensions = 1024\n\n\
[[table.vector_index]]\nname = \"Thumbs\"\ndimensions = 200\nprojection = \"all\"\ncoverage = 0.5\n\n[keys.id]\ncardinality = 100000\n\n\
[[pattern]]\nname = \"puts\"\nop = \"put_item\"\nrate = { constant = 10 }\n\n\
[[pattern]]\nname = \"deletes\"\nop = \"delete_item\"\nrate = { constant = 2 }\n\n\
[[pattern]]\nname = \"updates\"\nop = \"update_item\"\nrate = { constant = 5 }\n\n\
[[pattern]]\nname = \"reads\"\nop = \"get_item\"\nrate = { constant = 20 }\n";

/// A vector index meters what writes replicate into it (§16, §17): a put on "Embeddings"
/// (keys only) replicates its 1,024 float32 dimensions, 4,096 bytes, and the keys it projects
/// (ddbsim's 100-byte key allowance): 4,196 bytes; "Thumbs" projects the whole 1,024-byte item
/// with its 200 dimensions (800 bytes): 1,824 bytes, on the half of the items that carry a
/// vector; a delete meters the 1 KB minimum (on Thumbs, for half the items); updates (taken to
/// leave the vector alone) and reads meter nothing. At $0.52 per GB (10^9 bytes) of vector
/// writes, us-east-1 Standard.
#[test]
fn a_vector_index_meters_its_writes() {
    let sc = super::scenario(VECTOR_TABLE);
    let r = simulate(&sc, &RunOptions::default());
    let served = |name: &str| r.patterns[sc.patterns.iter().position(|p| p.name == name).unwrap()].served as f64;
    let (puts, deletes) = (served("puts"), served("deletes"));
    // 10 puts and 2 deletes a second for 600 s, every one served on a new on-demand table:
    // 6,000 and 1,200 give or take Poisson noise (5 standard deviations: 387 and 173).
    assert!((puts - 6_000.0).abs() < 387.0 && (deletes - 1_200.0).abs() < 173.0, "{puts} {deletes}");
    let bill = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let line = |index: &str| {
        bill.lines.iter().find(|l| l.resource == index && l.component.name() == "vector_writes").unwrap_or_else(|| panic!("{index}"))
    };
    let embeddings = puts * 4_196.0 + deletes * 1_024.0;
    let thumbs = 0.5 * (puts * 1_824.0 + deletes * 1_024.0);
    assert!((line("Embeddings").quantity - embeddings / 1e9).abs() < 1e-12);
    assert!((line("Embeddings").cost_usd - embeddings / 1e9 * 0.52).abs() < 1e-12);
    assert!((line("Thumbs").cost_usd - thumbs / 1e9 * 0.52).abs() < 1e-12);
    // The lines are the indexes' on compare's chart.
    assert_eq!(ddbsim::cost::CostGroup::of_line(line("Embeddings"), "Products"), ddbsim::cost::CostGroup::Indexes);
}

/// A vector index "consumes storage separately from its base table" (§17): a 10 GB table of
/// 1,024-byte items (1,124 bytes each with their overhead) holds 10e9 / 1,124 items; each has
/// an entry in "Embeddings" of 4,096 bytes of vector, 100 of keys and 100 of overhead, 4,296
/// bytes: 38.2206 GB; "Thumbs" holds half the items at 800 + 1,024 + 100 = 1,924 bytes:
/// 8.5587 GB. Ten minutes of each at $0.25 per GB-month (730 h): 38.2206 x (1/6) / 730 x 0.25
/// = $0.0021815 and $0.00048851. The table's puts over those ten minutes add at most 6.7 MB to
/// its 10 GB (0.07 %).
#[test]
fn a_vector_index_bills_its_storage() {
    let sc = super::scenario(
        &VECTOR_TABLE.replace("capacity = { mode = \"on_demand\" }", "capacity = { mode = \"on_demand\" }\nstorage_gb = 10"),
    );
    let r = simulate(&sc, &RunOptions::default());
    let bill = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let storage = |index: &str| {
        bill.lines.iter().find(|l| l.resource == index && l.component.name() == "storage").unwrap_or_else(|| panic!("{index}"))
    };
    for (index, gb) in [("Embeddings", 38.2206), ("Thumbs", 8.5587)] {
        let want = gb / 6.0 / 730.0 * 0.25;
        assert!((storage(index).cost_usd / want - 1.0).abs() < 0.002, "{index}: {} against {want}", storage(index).cost_usd);
    }
}

/// vector-search.toml: a day of 20 searches a second at TopK 10 on a 1,024-dimension index is
/// 1,728,000 searches of ddbsim's default 60,560 + 565.5 x 10 = 66,215 bytes: 114.41952 GB at
/// $0.002 = $0.22883904 (exact: searches never throttle, so their count is the rate's), the
/// line saying the bytes are an estimate; 10 puts a second of 4,096 bytes of vector and 100 of
/// keys are 3.625344 GB, $1.8852 a day, within the Poisson noise of the puts (0.5 %). Stated bytes
/// replace the estimate: 20,000 bytes a search is 34.56 GB, $0.06912.
#[test]
fn a_vector_index_meters_its_searches() {
    let sc = load(Path::new("scenarios/vector-search.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    let bill = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let line = |c: &str| bill.lines.iter().find(|l| l.resource == "Embeddings" && l.component.name() == c).unwrap();
    let search = line("vector_searches");
    assert!((search.quantity - 114.419_52).abs() < 1e-9, "{}", search.quantity);
    assert!((search.cost_usd - 0.228_839_04).abs() < 1e-9, "{}", search.cost_usd);
    assert!(search.arithmetic.contains("1728000 searches x 66215 bytes (estimate"), "{}", search.arithmetic);
    let write = line("vector_writes");
    assert!((write.cost_usd / (3.625_344 * 0.52) - 1.0).abs() < 0.005, "{}", write.cost_usd);

    let text =
        std::fs::read_to_string("scenarios/vector-search.toml").unwrap().replace("top_k = 10 }", "top_k = 10, search_bytes = 20000 }");
    let stated = super::scenario(&text);
    let r = simulate(&stated, &RunOptions::default());
    let bill = Summary::new(&stated, &r, &Catalog::builtin()).cost;
    let search = bill.lines.iter().find(|l| l.component.name() == "vector_searches").unwrap();
    assert!((search.cost_usd - 0.069_12).abs() < 1e-9, "{}", search.cost_usd);
    assert!(!search.arithmetic.contains("estimate"), "{}", search.arithmetic);
}

/// Vector indexes are refused where AWS refuses them: on a provisioned table, or one that
/// switches to provisioned; more than five; more than 4,096 dimensions.
#[test]
fn vector_indexes_are_refused_where_aws_refuses_them() {
    let err = |text: String| ddbsim::scenario::parse_str(&text, Path::new("v.toml")).expect_err("refused").to_string();
    let provisioned =
        VECTOR_TABLE.replace("capacity = { mode = \"on_demand\" }", "capacity = { mode = \"provisioned\", read = 100, write = 100 }");
    assert!(err(provisioned).contains("table.vector_index: vector indexes are supported only on tables in on-demand capacity mode"));
    let switch = format!("{VECTOR_TABLE}\n[[at]]\ntime = \"5m\"\nswitch_mode = \"provisioned\"\n");
    assert!(err(switch).contains("at[0].switch_mode"));
    assert!(err(VECTOR_TABLE.replace("dimensions = 1024", "dimensions = 5000")).contains("table.vector_index[0].dimensions"));
    let six = (0..6).map(|i| format!("\n[[table.vector_index]]\nname = \"V{i}\"\ndimensions = 8\n")).collect::<String>();
    let many = VECTOR_TABLE.replace("\n[keys.id]", &format!("{six}\n[keys.id]"));
    assert!(err(many).contains("a table has at most 5"));
    let search = |s: &str| {
        VECTOR_TABLE.replace("dimensions = 1024\n", &format!("dimensions = 1024\nsearches = {{ rate = {{ constant = 1 }}, {s} }}\n"))
    };
    assert!(err(search("top_k = 101")).contains("table.vector_index[0].searches.top_k"));
    assert!(err(search("search_bytes = 1000")).contains("at least 1024 bytes"));
    assert!(err(VECTOR_TABLE.replace("coverage = 0.5", "coverage = 1.5")).contains("table.vector_index[1].coverage"));
}

/// Issue 46: `compare` picked `autoscaling_instant`, a policy no AWS user can configure, and
/// showed spiky-batch's `reserved_1y` row reserving nothing (equal to `autoscaling_aws` with
/// $0 upfront). Instant scaling is a reference row, never the pick, and a reservation of
/// nothing is no row.
#[test]
fn compare_picks_only_what_can_be_configured_and_reserves_something() {
    let c = pick("scenarios/spiky-batch.toml");
    for r in c.rows.iter().filter(|r| r.mode.to_string().starts_with("reserved")) {
        assert!(r.bill.upfront_usd > 0.0, "{} reserves nothing: {}", r.mode, r.description);
    }
    for file in ["scenarios/spiky-batch.toml", "scenarios/autoscaling-spike.toml", "scenarios/diurnal-staircase.toml"] {
        let sc = load(Path::new(file)).unwrap();
        let o = CompareOptions {
            run: RunOptions { duration: Some(ddbsim::SimDuration::from_secs(3 * 3_600)), ..RunOptions::default() },
            max_throttle: 0.5,
            ..CompareOptions::default()
        };
        let c = compare(&sc, &Catalog::builtin(), &o);
        let p = c.pick.expect("a pick within 50 %");
        assert!(p.configurable() && !p.to_string().contains("instant"), "{file}: picked {p}");
        assert!(c.rows.iter().any(|r| r.mode.to_string() == "autoscaling_instant"), "{file}: the reference row stays");
    }
}

/// scenarios/reserved-owned.toml, worked in its comment: 400 WCU owned for a year, 200
/// provisioned. The hour bills the reservation's upfront share 4 x $150 / 8,760 = $0.068493
/// and its hourly fee 4 x $0.0128 = $0.0512, nothing for the covered WCU, $0.013 for 100 RCU
/// at list; half the reserved WCU-hours are unused, and `check` says so.
#[test]
fn an_owned_reservation_half_used_bills_its_fees_and_says_what_is_unused() {
    let sc = load(Path::new("scenarios/reserved-owned.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    let b = Summary::new(&sc, &r, &Catalog::builtin()).cost;
    let sum = |c: BillComponent| b.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>();
    assert!((sum(BillComponent::ReservedUpfront) - 4.0 * 150.0 / 8_760.0).abs() < 1e-9, "{:#?}", b.lines);
    assert!((sum(BillComponent::ReservedHourly) - 4.0 * 0.0128).abs() < 1e-9);
    assert!(sum(BillComponent::Writes).abs() < 1e-12, "the 200 WCU are covered");
    assert!((sum(BillComponent::Reads) - 0.013).abs() < 1e-9);
    assert_eq!(b.reserved_unused_share, [None, Some(0.5)]);
    assert_eq!(b.upfront_usd, 0.0, "an owned reservation's upfront was paid before");
    let o = super::ddbsim(&["check", "scenarios/reserved-owned.toml", "--phases", "steady", "--json"]);
    let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = c["checks"][0]["findings"].as_array().unwrap().iter().find(|f| f["id"] == "owned-reservation-unused").expect("the finding");
    assert_eq!(f["numbers"]["unused_wcu_share"], 0.5);
}

/// A reservation whose term ends half-way through the window covers and bills the first half
/// only; one that starts after the window bills nothing. 200 WCU provisioned for an hour, 200
/// owned until 00:30: 100 WCU-hours at list ($0.065), fees for half an hour (2 x $150 x 0.5 /
/// 8,760 and 2 x $0.0128 x 0.5).
#[test]
fn an_owned_reservation_covers_only_its_term() {
    let text = |start: &str| {
        std::fs::read_to_string("scenarios/reserved-owned.toml").unwrap().replace(
            "reserved = [{ wcu = 400, term = \"1y\", start = \"2026-01-01\" }]",
            &format!("reserved = [{{ wcu = 200, term = \"1y\", start = \"{start}\" }}]"),
        )
    };
    let bill = |start: &str| {
        let sc = ddbsim::scenario::parse_str(&text(start), Path::new("scenarios/r.toml")).unwrap();
        Summary::new(&sc, &simulate(&sc, &RunOptions::default()), &Catalog::builtin()).cost
    };
    let sum = |b: &ddbsim::cost::Bill, c: BillComponent| b.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>();
    // 2025-06-01T00:30:00Z + 365 days = 2026-06-01T00:30:00Z.
    let half = bill("2025-06-01T00:30:00Z");
    assert!((sum(&half, BillComponent::Writes) - 100.0 * 0.00065).abs() < 1e-9, "{:#?}", half.lines);
    assert!((sum(&half, BillComponent::ReservedUpfront) - 2.0 * 150.0 * 0.5 / 8_760.0).abs() < 1e-9);
    assert!((sum(&half, BillComponent::ReservedHourly) - 2.0 * 0.0128 * 0.5).abs() < 1e-9);
    assert_eq!(half.reserved_unused_share, [None, Some(0.0)]);
    let later = bill("2026-07-01");
    assert!((sum(&later, BillComponent::Writes) - 200.0 * 0.00065).abs() < 1e-9 && sum(&later, BillComponent::ReservedHourly) == 0.0);
}

/// Owned reservations are checked like any key, and against the region's catalog.
#[test]
fn a_bad_owned_reservation_is_refused_with_its_key() {
    let base = std::fs::read_to_string("scenarios/reserved-owned.toml").unwrap();
    let owned = "reserved = [{ wcu = 400, term = \"1y\", start = \"2026-01-01\" }]";
    let bad = |r: &str| ddbsim::scenario::parse_str(&base.replace(owned, r), Path::new("r.toml")).unwrap_err().to_string();
    let e = bad("reserved = [{ wcu = 150, term = \"2y\", start = \"soon\" }]");
    assert!(e.contains("pricing.reserved[0].wcu") && e.contains("blocks of 100"), "{e}");
    assert!(e.contains("pricing.reserved[0].term") && e.contains("\"1y\" or \"3y\""), "{e}");
    assert!(e.contains("pricing.reserved[0].start"), "{e}");
    assert!(bad("reserved = [{ term = \"1y\", start = \"2026-01-01\" }]").contains("0 RCU and 0 WCU"));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("east2.toml");
    let east2 = base.replace(owned, "region = \"us-east-2\"\nreserved = [{ wcu = 400, term = \"3y\", start = \"2026-01-01\" }]");
    std::fs::write(&p, east2).unwrap();
    let o = super::ddbsim(&["run", p.to_str().unwrap(), "--out", dir.path().join("o").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code() == Some(1) && err.contains("pricing.reserved[0].term: AWS sells no 3-year reserved capacity in us-east-2"),
        "{err}"
    );
}

/// PITR's recovery period (1 to 35 days since January 2025) does not change its price: a
/// 100 GB table with a 7-day period bills, an hour, 100 / 730 x $0.20 = $0.0274 as with the
/// default 35, and the line says so. Out of range, or without PITR, it is refused.
#[test]
fn pitrs_recovery_period_is_accepted_and_does_not_change_the_price() {
    let text = |backups: &str| {
        format!(
            "[scenario]\nduration = \"1h\"\n[table]\nname = \"T\"\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\nstorage_gb = 100\n\
             [table.backups]\n{backups}\n[keys.k]\ncardinality = 10\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
        )
    };
    let pitr_line = |backups: &str| {
        let sc = ddbsim::scenario::parse_str(&text(backups), Path::new("p.toml")).unwrap();
        let b = Summary::new(&sc, &simulate(&sc, &RunOptions::default()), &Catalog::builtin()).cost;
        b.lines.into_iter().find(|l| l.component == BillComponent::Pitr).unwrap()
    };
    let (week, default) = (pitr_line("pitr = true\nrecovery_days = 7"), pitr_line("pitr = true"));
    assert!(
        (week.cost_usd - 100.0 / 730.0 * 0.20).abs() < 1e-4 && week.cost_usd == default.cost_usd,
        "{} {}",
        week.arithmetic,
        default.arithmetic
    );
    assert!(week.arithmetic.contains("a 7-day recovery period: it does not change the price"), "{}", week.arithmetic);
    assert!(default.arithmetic.contains("a 35-day recovery period"), "{}", default.arithmetic);
    let bad = |b: &str| ddbsim::scenario::parse_str(&text(b), Path::new("p.toml")).unwrap_err().to_string();
    assert!(bad("pitr = true\nrecovery_days = 36").contains("table.backups.recovery_days"));
    assert!(bad("recovery_days = 7").contains("set pitr = true"));
}
