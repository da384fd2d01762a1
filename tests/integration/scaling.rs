//! Capacity that moves (spec §5, §6, §2): auto scaling, on-demand growth, mode switches,
//! decreases, and splits for heat and size, against hand-worked numbers.

use super::{run, run_summary, scenario};
use ddbsim::{simulate, RunOptions};
use ddbsim::{CapacityAction, Dim};

fn spike(policy: &str) -> String {
    format!(
        r#"
[scenario]
duration = "10m"
[table]
partition_key = "k"
capacity = {{ mode = "provisioned", read = 5, write = 5 }}
initial_burst = "empty"
autoscaling = {{ policy = "{policy}", write = {{ min = 5, max = 1000, target = 70 }} }}
[keys.k]
cardinality = 1000000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 900
rate = {{ constant = 400 }}
[client]
retry = "none"
"#
    )
}

/// A 400 writes/s spike on a table at 5 WCU, target 70 %. Demand always exceeds capacity and
/// there is no burst credit, so each minute consumes exactly the provisioned capacity; auto
/// scaling sees only that.
///
/// instant: the alarm needs 2 datapoints above 0.7 x provisioned at the current capacity;
/// after a step the older datapoint (at the old capacity c) is below 0.7 x ceil(c / 0.7), so
/// each step takes 2 minutes: 5, 5 | 8, 8 | ceil(8/0.7) = 12, 12 | 18, 18 | 26, 26.
///
/// aws: the alarm fires at the end of minute 1 (s = 120), the action comes 90 s later and the
/// UpdateTable 10 s after that (s = 220, inside minute 3). Minute 3 consumes 40 s x 5 + 20 s
/// x 8 = 360 units, 6/s; the next alarm needs minutes 3 and 4 above 5.6 and sizes from the
/// smaller, ceil(6 / 0.7) = 9, applied at 300 + 100 = 400 s; minute 6 averages
/// (40 x 8 + 20 x 9) / 60 = 8.33, so the next step is ceil(8 / 0.7) = 12 at 520 s.
/// So the delays cost more than the 100 s they add: by minute 9 instant provisions 26 WCU and
/// aws 12, less than half.
#[test]
fn aws_and_instant_policies_differ_on_a_spike() {
    let series =
        |policy: &str| -> Vec<u64> { run(&scenario(&spike(policy))).resources[0].minutes.iter().map(|m| m.provisioned[1]).collect() };
    assert_eq!(series("instant"), vec![5, 5, 8, 8, 12, 12, 18, 18, 26, 26]);
    assert_eq!(series("aws"), vec![5, 5, 5, 8, 8, 8, 9, 9, 12, 12]);
    let s = run_summary(&scenario(&spike("aws")));
    let outs: Vec<(u64, f64)> =
        s.capacity_events.iter().filter(|e| e.action == ddbsim::CapacityAction::ScaleOut).map(|e| (e.time_s, e.new)).collect();
    assert_eq!(outs, vec![(220, 8.0), (400, 9.0), (520, 12.0)]);
}

fn on_demand_steps(steps: &str, minutes: u64) -> String {
    format!(
        r#"
[scenario]
duration = "{minutes}m"
[table]
partition_key = "k"
capacity = {{ mode = "on_demand", table_quota = 100000 }}
split_for_heat = false
[keys.k]
cardinality = 10000000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 10240
rate = {{ steps = {steps} }}
[client]
retry = "none"
"#
    )
}

/// O1/O3 with 10 KB writes (10 WRU each). A new table serves 4,000 WRU/s; at a demand of
/// 10,000 its capacity is used up every minute, so the previous peak follows it and the
/// capacity grows at the doubling limit, 4,000 x 2^(n/30) after n minutes, until it reaches
/// twice the peak: 4,000 x 2^(69/30) = 19,698 after 69 minutes; after 70 the limit would allow
/// 20,159, and twice the peak minute (10,000 plus Poisson noise of about 40 per minute, so
/// within 10,000-10,150) caps it. At 75 minutes demand jumps to 30,000, 1.5x the capacity: it
/// is throttled while capacity grows by 2^(1/30) a minute, so 17 minutes later it is
/// cap x 2^(17/30) < 30,000 and 18 minutes later cap x 2^(18/30) > 30,000.
#[test]
fn o1_o3_on_demand_grows_to_twice_the_peak_within_the_doubling_limit() {
    let r = run(&scenario(&on_demand_steps(r#"[["0s", 1000], ["75m", 3000]]"#, 95)));
    let cap: Vec<u64> = r.resources[0].minutes.iter().map(|m| m.capacity[1]).collect();
    assert_eq!(cap[0], 4_000);
    assert_eq!(cap[30], 8_000);
    assert_eq!(cap[69], 19_698);
    assert!((20_000..=20_300).contains(&cap[70]), "{}", cap[70]);
    let grown = |n: f64| (cap[75] as f64 * 2f64.powf(n / 30.0)) as u64;
    assert!(cap[92].abs_diff(grown(17.0)) <= 1 && cap[92] < 30_000, "{} vs {}", cap[92], grown(17.0));
    assert!(cap[93].abs_diff(grown(18.0)) <= 1 && cap[93] > 30_000, "{} vs {}", cap[93], grown(18.0));
    let t = &r.resources[0].minutes;
    assert!(t[76].events(Dim::Write) > 30_000, "a 1.5x jump is throttled at first");
    assert!(t[94].events(Dim::Write) < t[76].events(Dim::Write) / 10, "and much less once capacity has grown");
}

/// O4: a new on-demand table takes 4,000 WRU/s over 4 partitions at once: 400 writes/s of
/// 10 KB, 100 a second per partition, which is exactly its 1,000 WU/s cap on average. Each
/// partition's bucket starts full with 100 writes' worth and its deficit is a random walk with
/// no drift: after 60 s its standard deviation is sqrt(100 x 60) = 77 writes, so it reaches the
/// 100-write bottom in the first minute with probability 2 P(Z > 1.29) = 0.2 and then only
/// briefly. Under 1 % of the first minute's writes are throttled (per-second windows threw
/// away E[(N - 100)+] = 3.99 of every 100, 4 %).
#[test]
fn o4_new_on_demand_table_serves_4000_wru() {
    let text = on_demand_steps(r#"[["0s", 400]]"#, 5);
    let r = run(&scenario(&text));
    assert_eq!(r.resources[0].minutes[0].partitions, 4);
    let first = &r.resources[0].minutes[0];
    let share = first.events(Dim::Write) as f64 / (first.requested[1] as f64 / 10_000.0);
    assert!(share < 0.01, "throttled share in the first minute {share}");
}

/// O5: switching a table provisioned at 24,000 RCU / 8,000 WCU to on-demand keeps at least
/// that much capacity at once, when the switch is done (5 minutes after the request; the
/// provisioned limits apply meanwhile).
#[test]
fn o5_switch_to_on_demand_keeps_provisioned_throughput() {
    let sc = scenario(
        r#"
[scenario]
duration = "10m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 24000, write = 8000 }
[keys.k]
cardinality = 1000
[[pattern]]
name = "r"
op = "get_item"
rate = { constant = 10 }
[[at]]
time = "2m"
switch_mode = "on_demand"
"#,
    );
    let r = run(&sc);
    let t = &r.resources[0].minutes;
    assert_eq!(t[6].provisioned, [24_000, 8_000]);
    assert_eq!(t[7].provisioned, [0, 0]);
    assert!(t[7].capacity[0] >= 24_000 && t[7].capacity[1] >= 8_000, "{:?}", t[7].capacity);
    assert_eq!(r.resources[0].final_mode, ddbsim::CapacityMode::OnDemand);
    // Partitions never merge: ceil((24000 + 3 x 8000) / 3000) = 16 stay.
    assert!(t.iter().all(|m| m.partitions == 16));
}

/// The launch-day ramp: over 60 minutes capacity can reach at most 4,000 x 2^2 = 16,000 WU/s
/// against 40,000 asked at the top, so most of the last minute is throttled; over 150 minutes
/// the capacity keeps pace except around 30-60 minutes, and the run throttles far less.
#[test]
fn a_slower_launch_ramp_throttles_far_less() {
    let ramp = |over: u64| {
        let text = on_demand_steps("[[\"0s\", 0]]", over)
            .replace("rate = { steps = [[\"0s\", 0]] }", &format!("rate = {{ ramp = {{ from = 0, to = 4000, over = \"{over}m\" }} }}"));
        let sc = scenario(&text);
        let r = simulate(&sc, &RunOptions::default());
        let p = &r.patterns[0];
        let last = r.resources[0].minutes.last().unwrap().clone();
        (p.throttled_attempts as f64 / p.attempts as f64, last)
    };
    let (fast_share, last) = ramp(60);
    assert!(last.capacity[1] <= 16_000);
    let asked = last.requested[1] as f64 / 1000.0 / 60.0;
    let served = last.consumed[1] as f64 / 1000.0 / 60.0;
    assert!(served / asked < 0.45, "last minute served {served:.0} of {asked:.0} WU/s");
    let (slow_share, _) = ramp(150);
    assert!(slow_share < fast_share / 3.0, "150 min {slow_share:.3} vs 60 min {fast_share:.3}");
}

/// Decreases: a fifth set_capacity decrease within the first hour of a UTC day is refused.
#[test]
fn a_fifth_decrease_in_an_hour_is_refused() {
    let mut text = String::from(
        r#"
[scenario]
duration = "30m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 100, write = 100 }
[keys.k]
cardinality = 1000
[[pattern]]
name = "r"
op = "get_item"
rate = { constant = 1 }
"#,
    );
    for (i, w) in [90, 80, 70, 60, 50].iter().enumerate() {
        text.push_str(&format!("[[at]]\ntime = \"{}m\"\nset_capacity = {{ write = {w} }}\n", i + 1));
    }
    let s = run_summary(&scenario(&text));
    let actions: Vec<&str> = s.capacity_events.iter().map(|e| e.action.name()).collect();
    assert_eq!(actions, vec!["set_capacity", "set_capacity", "set_capacity", "set_capacity", "refused_decrease"]);
    assert_eq!(s.resources[0].provisioned_wcu, 60);
}

fn two_hot_keys(seed: u64, heat: &str) -> String {
    format!(
        r#"
[scenario]
duration = "20m"
seed = {seed}
[table]
partition_key = "k"
capacity = {{ mode = "on_demand" }}
split_for_heat = {heat}
[keys.k]
values = {{ a = 1.0, b = 1.0 }}
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = {{ constant = 1400 }}
[client]
retry = "none"
"#
    )
}

/// Split for heat: two keys of 700 WU/s each on one partition throttle (1,400 > 1,000). The
/// partition is above 80 % of its cap for 5 minutes, the split is decided at the end of
/// minute 5 and done 5 minutes later, at the weighted median, between the two keys: from
/// minute 10 on each half carries one key at 700 WU/s and nothing is throttled.
#[test]
fn split_for_heat_removes_throttling_once_done() {
    // A seed whose placement puts both keys on the same one of the 4 partitions.
    let seed = (1..64)
        .find(|&seed| {
            let sc = scenario(&two_hot_keys(seed, "false"));
            let r = simulate(&sc, &RunOptions { duration: Some(ddbsim::SimDuration::from_secs(60)), ..RunOptions::default() });
            r.resources[0].minutes[0].events(Dim::Write) > 10_000
        })
        .expect("some seed places both keys together");
    let r = run(&scenario(&two_hot_keys(seed, "true")));
    let t = &r.resources[0].minutes;
    assert!(t[..10].iter().all(|m| m.events(Dim::Write) > 10_000), "throttled before the split");
    assert!(t[10..].iter().all(|m| m.events(Dim::Write) == 0), "nothing after the split");
    let splits: Vec<u64> = r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::SplitForHeat).map(|e| e.time_s).collect();
    assert_eq!(splits, vec![600]);
    assert_eq!(t[10].partitions, 5);
}

/// No split for heat for a single hot key: the hot-key scenario keeps throttling.
#[test]
fn no_split_for_a_single_hot_key() {
    let sc = ddbsim::scenario::load(std::path::Path::new("scenarios/hot-key.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    assert!(r.events.iter().any(|e| e.action == ddbsim::CapacityAction::HeatSplitSkipped && e.detail.contains("one key")));
    assert!(!r.events.iter().any(|e| e.action == ddbsim::CapacityAction::SplitForHeat));
    assert!(r.resources[0].minutes.last().unwrap().events(Dim::Write) > 20_000);
}

fn one_key_collection(extra_table: &str, spread: &str) -> String {
    format!(
        r#"
[scenario]
duration = "15m"
[table]
partition_key = "k"
capacity = {{ mode = "on_demand" }}
{extra_table}
[keys.k]
values = {{ hot = 1.0 }}
sort_keys = {{ items = 10000, spread = "{spread}" }}
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = {{ constant = 1400 }}
[client]
retry = "none"
"#
    )
}

/// Split for heat divides one value's item collection by sort key (spec §2, §15: a load test
/// on one partition key plateaued, split, then served more). One key with 10,000 items takes
/// 1,400 writes/s spread evenly over its items: its partition serves its 1,000 WU cap, stays
/// above 80 % of it for 5 minutes, and the split decided at the end of minute 5 is done at
/// 600 s, at the weighted median of its items: each half takes 700 writes/s and from minute 10
/// nothing is throttled (one more partition: 5). The same collection is never split on a table
/// with an LSI, nor when every write goes to the newest item (an increasing sort key).
#[test]
fn split_for_heat_divides_one_keys_collection() {
    let r = run(&scenario(&one_key_collection("", "uniform")));
    let t = &r.resources[0].minutes;
    assert!(t[1..10].iter().all(|m| m.events(Dim::Write) > 20_000), "throttled before the split");
    assert!(t[10..].iter().all(|m| m.events(Dim::Write) == 0), "nothing after the split");
    let splits: Vec<u64> = r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::SplitForHeat).map(|e| e.time_s).collect();
    assert_eq!(splits, vec![600]);
    assert_eq!(t[10].partitions, 5);
    let rows: Vec<_> = r.partitions.iter().filter(|p| p.minute == 12 && p.consumed[1] > 0).collect();
    assert_eq!(rows.len(), 2, "the collection's writes land on both halves");
    for p in rows {
        let share = f64::from(p.consumed[1]) / (1_400.0 * 60.0 * 1_000.0);
        assert!((share - 0.5).abs() < 0.02, "{share}");
    }
    for (extra, spread) in [("[[lsi]]\nname = \"L\"", "uniform"), ("", "newest")] {
        let text = one_key_collection(extra, spread);
        let r = run(&scenario(&text));
        assert!(!r.events.iter().any(|e| e.action == ddbsim::CapacityAction::SplitForHeat), "{extra} {spread}");
        assert!(r.events.iter().any(|e| e.action == ddbsim::CapacityAction::HeatSplitSkipped), "{extra} {spread}");
        assert!(r.resources[0].minutes[14].events(Dim::Write) > 20_000, "{extra} {spread}");
    }
}

/// P5: 8 partitions (100 RCU + 7,900 WCU: ceil((100 + 3 x 7,900) / 3,000) = 8), seeded with
/// 64.424509440 GB = 60 GiB, 7.5 GiB each (the seeding fill). One key receives 9 puts a
/// second of 102,400 bytes (100 WCU each, 900 WCU under its partition's 1,000): 9 x 102,500 =
/// 922,500 bytes a second with the item overhead, so its partition passes 10 GiB after
/// 2.5 GiB / 922,500 = 2,909.9 s, in minute 48 (Poisson arrivals: give or take 20 s). At the
/// end of that minute it splits for size: the table has 9 partitions, once.
#[test]
fn p5_a_partition_that_fills_10_gb_splits() {
    let sc = scenario(
        r#"
[scenario]
duration = "52m"
[table]
partition_key = "k"
storage_gb = 64.42450944
capacity = { mode = "provisioned", read = 100, write = 7900 }
[keys.k]
values = { hot = 1.0 }
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 102400
rate = { constant = 9 }
"#,
    );
    let r = run(&sc);
    let parts: Vec<u64> = r.resources[0].minutes.iter().map(|m| m.partitions).collect();
    assert_eq!(parts[0], 8);
    let first_nine = parts.iter().position(|&p| p == 9).expect("a split");
    assert!((48..=50).contains(&first_nine), "{parts:?}");
    assert!(parts[first_nine..].iter().all(|&p| p == 9), "{parts:?}");
    assert_eq!(r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::SplitForSize).count(), 1);
}

/// The bundled scenarios/one-key-split.toml, as its comments work it: throttled until 600 s,
/// then nothing; 600 s x 1,000 + 300 s x 1,400 = 1,020,000 served, plus the 1,000 its full
/// bucket held at the start (Poisson arrivals over the last 5 minutes: give or take 650).
#[test]
fn bundled_one_key_split() {
    let sc = ddbsim::scenario::load(std::path::Path::new("scenarios/one-key-split.toml")).unwrap();
    let r = run(&sc);
    let served = r.patterns[0].served as f64;
    assert!((served - 1_021_000.0).abs() < 3_000.0, "{served}");
    let t = &r.resources[0].minutes;
    assert!(t[9].events(Dim::Write) > 20_000 && t[10..].iter().all(|m| m.events(Dim::Write) == 0));
    assert_eq!(t.last().unwrap().partitions, 5);
}

/// P5 with a sort key: the key's 1,000,000 items take its puts evenly, so when its partition
/// passes 10 GiB (minute 48, as above) the split for size falls at the median of the key's
/// items and divides its collection: from then on each half takes half its writes,
/// 9 x 100 WCU x 60 s / 2 = 27,000 WCU a minute. Without a sort key the whole key stays on one
/// child. (Split for heat is off: at 900 of 1,000 WU the partition is hot, and with a sort key
/// a heat split would divide the collection at 600 s, long before it fills.)
#[test]
fn split_for_size_divides_one_keys_collection() {
    let text = |sort: &str| {
        format!(
            r#"
[scenario]
duration = "55m"
[table]
partition_key = "k"
storage_gb = 64.42450944
capacity = {{ mode = "provisioned", read = 100, write = 7900 }}
split_for_heat = false
[keys.k]
values = {{ hot = 1.0 }}
{sort}
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 102400
rate = {{ constant = 9 }}
"#
        )
    };
    let writers = |r: &ddbsim::RunResult| -> Vec<f64> {
        r.partitions.iter().filter(|p| p.minute == 53 && p.consumed[1] > 0).map(|p| f64::from(p.consumed[1]) / 1_000.0).collect()
    };
    let r = run(&scenario(&text("sort_keys = { items = 1000000 }")));
    assert_eq!(r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::SplitForSize).count(), 1);
    let w = writers(&r);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().all(|u| (u - 27_000.0).abs() < 0.15 * 27_000.0), "{w:?}");
    let r = run(&scenario(&text("")));
    assert_eq!(writers(&r).len(), 1);
}

/// Spec §2 and the seeding model choice: a table that starts with 200 GB (10^9 bytes) holds
/// it at 7.5 GB of 2^30 bytes a partition, 200e9 / 8,053,063,680 = 24.8, so 25 partitions,
/// none near 10 GB: nothing splits for size (seeded full, all 20 split in the first minute).
#[test]
fn storage_is_seeded_below_the_split_size() {
    let sc = scenario(
        r#"
[scenario]
duration = "5m"
[table]
partition_key = "k"
storage_gb = 200
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[[pattern]]
name = "w"
op = "put_item"
rate = { constant = 100 }
"#,
    );
    let r = run(&sc);
    assert!(
        r.resources[0].minutes.iter().all(|m| m.partitions == 25),
        "{:?}",
        r.resources[0].minutes.iter().map(|m| m.partitions).collect::<Vec<_>>()
    );
    assert!(!r.events.iter().any(|e| e.action == ddbsim::CapacityAction::SplitForSize));
}

/// Registering a scalable target moves capacity into [min, max] at once (Application Auto
/// Scaling): a table created at 5 WCU with a write target of min 600 is raised to 600 by an
/// UpdateTable issued at the start, complete after the 10 s update latency (600 WCU fit the
/// one partition 5 WCU had), not by the scale-out alarm two minutes and 90 s later.
#[test]
fn registering_auto_scaling_applies_min_at_once() {
    let sc = scenario(
        r#"
[scenario]
duration = "5m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 5, write = 5 }
autoscaling = { write = { min = 600, max = 4000, target = 70 } }
[keys.k]
cardinality = 100000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = { constant = 400 }
[client]
retry = "none"
"#,
    );
    let r = run(&sc);
    let first = r.events.iter().find(|e| e.action == CapacityAction::ScaleOut).expect("a scale-out");
    assert_eq!((first.time_s, first.old, first.new), (10, 5.0, 600.0));
    // From minute 1 on, about 400 writes a second are all served.
    for m in &r.resources[0].minutes[1..] {
        assert_eq!(m.provisioned[1], 600);
        assert_eq!((m.events(Dim::Write), m.consumed[1]), (0, m.requested[1]));
    }
}

/// A scheduled scaling action raises the floor before a launch and lowers it after. 100 WCU,
/// auto-scaled between 100 and 10,000 at 70 %, 40 writes a second: the scale-in alarm would
/// want ceil(40 / 0.7) = 58, clamped to min 100, so nothing moves. At 10 min min = 2,000:
/// 2,000 WCU need two partitions, so the UpdateTable takes partition_add_latency (10 min) and
/// completes at 1,200 s. The scale-in alarm then wants 58, clamped to 2,000: it holds (a
/// set_capacity pre-scale would be scaled back in). At 40 min min = 100: the alarm, whose 15
/// datapoints are all below (70 - 20) % x 2,000, fires at the end of minute 40 (2,460 s),
/// acts after the 90 s alarm delay and the 10 s update: 100 WCU at 2,560 s.
#[test]
fn scheduled_scaling_raises_and_lowers_the_floor() {
    let sc = scenario(
        r#"
[scenario]
duration = "50m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 5, write = 100 }
autoscaling = { write = { min = 100, max = 10000, target = 70 } }
[keys.k]
cardinality = 100000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = { constant = 40 }
[[at]]
time = "10m"
set_autoscaling = { write = { min = 2000 } }
[[at]]
time = "40m"
set_autoscaling = { write = { min = 100 } }
"#,
    );
    let r = run(&sc);
    let moves: Vec<(u64, CapacityAction, f64)> = r
        .events
        .iter()
        .filter(|e| matches!(e.action, CapacityAction::ScaleOut | CapacityAction::ScaleIn))
        .map(|e| (e.time_s, e.action, e.new))
        .collect();
    assert_eq!(moves, vec![(1_200, CapacityAction::ScaleOut, 2_000.0), (2_560, CapacityAction::ScaleIn, 100.0)]);
    let t = &r.resources[0].minutes;
    assert!(t[20..42].iter().all(|m| m.provisioned[1] == 2_000));
    assert_eq!(t[45].provisioned[1], 100);
    assert_eq!(r.events.iter().filter(|e| e.action == CapacityAction::SetAutoscaling).count(), 2);
}

/// Warm throughput per GSI rises with its own peaks (spec §5): an on-demand table whose index
/// takes 6,000 write units a second (6,000 1 KB writes, keys-only entries) starts the index at
/// the new-table 4,000 WRU/s. Its instant capacity doubles within 30 minutes to 8,000, which
/// serves the 6,000; the previous peak is then 6,000, so capacity grows on, at 2^(1/30) a
/// minute, to twice that: 12,000 after 30 x log2(1.5) = 17.5 more minutes. After an hour the
/// index's warm write throughput is 12,000 (the reindex ratchet users see), never falling.
#[test]
fn a_gsi_warm_throughput_rises_with_its_peaks() {
    let sc = scenario(
        r#"
[scenario]
duration = "60m"
[table]
partition_key = "k"
capacity = { mode = "on_demand", table_quota = 100000 }
split_for_heat = false
[keys.k]
cardinality = 10000000
[keys.g]
cardinality = 10000000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = { constant = 6000 }
index_writes = { G = "insert" }
[client]
retry = "none"
"#,
    );
    let r = run(&sc);
    let g = &r.resources[1].minutes;
    assert_eq!(g[0].warm[1], 4_000);
    assert!(g.windows(2).all(|w| w[1].warm[1] >= w[0].warm[1]), "warm throughput never falls");
    assert!((7_900..=8_100).contains(&g[30].warm[1]), "{}", g[30].warm[1]);
    assert!((11_900..=12_100).contains(&g[59].warm[1]), "{}", g[59].warm[1]);
}

/// `scenarios/launch-scheduled-floor.toml`, as its comments work it: the raised minimum scales
/// out to 10,000 WCU at 40 minutes (an UpdateTable adding partitions, 1 -> 16), the launch of
/// 6,000 writes/s never throttles, and the lowered minimum lets the scale-in alarm bring the
/// table back to 100 WCU at 6,400 s.
#[test]
fn the_bundled_launch_floor_works_as_its_comments_say() {
    let sc = ddbsim::scenario::load(std::path::Path::new("scenarios/launch-scheduled-floor.toml")).unwrap();
    let r = run(&sc);
    let moves: Vec<(u64, CapacityAction, f64)> = r
        .events
        .iter()
        .filter(|e| matches!(e.action, CapacityAction::ScaleOut | CapacityAction::ScaleIn))
        .map(|e| (e.time_s, e.action, e.new))
        .collect();
    assert_eq!(moves, vec![(2_400, CapacityAction::ScaleOut, 10_000.0), (6_400, CapacityAction::ScaleIn, 100.0)]);
    assert!(r.resources[0].minutes.iter().all(|m| m.events(Dim::Write) == 0));
    assert_eq!(r.resources[0].minutes.last().unwrap().partitions, 16);
}

/// A table that starts on-demand with auto scaling configured and switches to provisioned
/// (50 WCU given) at 10 minutes: the switch takes `switch_duration` (5 minutes), then the
/// scalable target registers and moves capacity up to its minimum of 100 at once; 300 writes a
/// second of 1 KB keep consumption above 70 % of 100, so the scale-out alarm raises it to
/// 300 / 0.7 = 429 WCU (within the arrivals' noise). Without a switch to provisioned, auto
/// scaling on an on-demand table is refused at its key.
#[test]
fn an_on_demand_table_that_switches_to_provisioned_resumes_its_auto_scaling() {
    let text = |at: &str| {
        format!(
            r#"
[scenario]
duration = "40m"
seed = 12
[table]
partition_key = "k"
capacity = {{ mode = "on_demand" }}
autoscaling = {{ write = {{ min = 100, max = 2000, target = 70 }} }}
[keys.k]
cardinality = 100000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = {{ constant = 300 }}
{at}
"#
        )
    };
    let sc = scenario(&text("[[at]]\ntime = \"10m\"\nswitch_mode = { to = \"provisioned\", read = 50, write = 50 }"));
    let r = run(&sc);
    let outs: Vec<(u64, f64, f64)> =
        r.events.iter().filter(|e| e.action == CapacityAction::ScaleOut).map(|e| (e.time_s, e.old, e.new)).collect();
    assert_eq!(outs.first().map(|o| (o.1, o.2)), Some((50.0, 100.0)), "{:?}", r.events);
    assert!(outs[0].0 >= 900, "after the switch: {outs:?}");
    let last = outs.last().unwrap();
    assert!((last.2 - 429.0).abs() <= 10.0, "scaled to {} ({outs:?})", last.2);
    assert!(r.resources[0].minutes.last().unwrap().provisioned[1] as f64 >= 419.0);
    let refused = ddbsim::scenario::parse_str(&text(""), std::path::Path::new("a.toml")).unwrap_err().to_string();
    assert!(refused.contains("table.autoscaling") && refused.contains("never switches to provisioned"), "{refused}");
}

/// #17 item 9: a write-sharded date key splits for heat as DynamoDB would (spec §2: split for
/// heat is refused for one hot item and for sequential access within a key range, not for a
/// time-ordered partition key, whose values hash like any other). Today's date under 4 random
/// suffixes, 1,800 writes/s of 1 KB: 450 WU/s a shard on a table of 2 partitions
/// (ceil(1/3000 + 1999/1000)). Whatever the placement, a partition holds at least two shards,
/// at least 900 WU/s: above 80 % of its 1,000 for the 5-minute window, so it splits between
/// its shards 5 minutes later, about 11 minutes in. The same traffic on the unsharded date is
/// one key on one partition: never split.
#[test]
fn a_write_sharded_date_key_splits_for_heat_and_one_date_does_not() {
    let text = |shards: &str| {
        format!(
            r#"
[scenario]
duration = "20m"
seed = 9
[table]
partition_key = "day"
capacity = {{ mode = "provisioned", read = 1, write = 1999 }}
[keys.day]
cardinality = 30
popularity = {{ sequential = "1d" }}
{shards}
[[pattern]]
name = "record-event"
op = "put_item"
item_bytes = 1000
rate = {{ constant = 1800 }}
"#
        )
    };
    let splits = |text: &str| {
        let r = run(&scenario(text));
        assert_eq!(r.resources[0].minutes[0].partitions, 2);
        r.events.iter().filter(|e| e.action == CapacityAction::SplitForHeat).map(|e| e.time_s).collect::<Vec<_>>()
    };
    let sharded = splits(&text("shards = { count = 4, by = \"random\" }"));
    assert!(!sharded.is_empty(), "the sharded date never split");
    assert!((600..=720).contains(&sharded[0]), "first split at {} s", sharded[0]);
    assert!(splits(&text("")).is_empty(), "one date is one key: no split");
}
