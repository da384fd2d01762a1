//! The verdict that opens the terminal summary and report.html: held or not, where, when, why,
//! cost and the next thing to try, on bundled scenarios whose numbers their comments work out
//! by hand.

use super::run_summary;
use ddbsim::scenario::load;
use std::path::Path;

fn line<'a>(v: &'a ddbsim::report::verdict::Verdict, topic: &str) -> Vec<&'a str> {
    v.lines.iter().filter(|l| l.topic.name() == topic).map(|l| l.text.as_str()).collect()
}

/// hot-key: one device at 1,500 writes/s on a 6-partition table (1,000 RCU / 5,000 WCU:
/// ceil(1000/3000 + 5000/1000) = 6), no retries. The partition cap of 1,000 WU/s throttles a
/// third of the writes on one partition from the first second, every minute of the 10.
#[test]
fn a_hot_key_does_not_hold_on_its_partition_and_the_next_step_is_sharding() {
    let sc = load(Path::new("scenarios/hot-key.toml")).unwrap();
    let s = run_summary(&sc);
    let v = &s.verdict;
    assert!(!v.held);
    assert!((v.throttled_share - 1.0 / 3.0).abs() < 0.01, "{}", v.headline);
    assert!(v.headline.starts_with("DID NOT HOLD — 33."), "{}", v.headline);
    let w = line(v, "where")[0];
    assert!(w.starts_with("Telemetry (table) writes: partition "), "{w}");
    assert!(w.contains("took 100.0 % of the throttle events (1 partition of 6 throttled)"), "{w}");
    let rate: f64 = w
        .split("hottest key device#1 (")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{w}"));
    assert!((rate - 1_500.0).abs() < 15.0, "Poisson arrivals at 1,500/s over 600 s: {rate}");
    let when = line(v, "when")[0];
    assert!(when.starts_with("from 2026-01-01 00:00 UTC (+0 s) to 2026-01-01 00:10 UTC (+10 min), 10 minutes with throttling"), "{when}");
    let why = line(v, "why");
    assert!(
        why[0].starts_with("TableWriteKeyRangeThroughputExceeded × ") && why[0].contains("a partition's 1,000 WCU a second"),
        "{why:?}"
    );
    assert!(!why[0].contains("Provisioned"), "only the partition cap throttles: {why:?}");
    // Provisioned 1,000 RCU x $0.00013 + 5,000 WCU x $0.00065 = $3.38 an hour; a sixth of an
    // hour is $0.5633 (plus a fraction of a cent of storage). Ten minutes are an event, not a
    // month: no extrapolation is stated.
    let cost = &line(v, "cost")[0];
    let (dollars, rest) = cost.split_once(' ').unwrap();
    let dollars: f64 = dollars.trim_start_matches('$').parse().unwrap();
    assert!((0.5633..0.5643).contains(&dollars), "{cost}");
    assert_eq!(rest, "for the 10 min simulated (not extrapolated to a month: [pricing] extrapolate = \"none\", the default below a day)");
    assert_eq!(
        line(v, "next")[0],
        "write-shard the hot key device#1: `ddbsim shards scenarios/hot-key.toml --key device` finds the shard count that holds"
    );
}

/// status-gsi: 1,500 updates/s each write one ByStatus entry; 90 % carry `active`: 1,350 index
/// writes/s on one index partition, above its 1,000 WU/s cap. The GSI throttles, its base table
/// feels it (back-pressure), and the hottest key is the index key.
#[test]
fn a_low_cardinality_index_key_names_the_index_its_key_and_the_back_pressure() {
    let sc = load(Path::new("scenarios/status-gsi.toml")).unwrap();
    let s = run_summary(&sc);
    let v = &s.verdict;
    assert!(!v.held);
    let w = line(v, "where")[0];
    assert!(w.starts_with("ByStatus (GSI) writes: partition "), "{w}");
    assert!(w.contains("(1 partition of "), "{w}");
    assert!(w.contains("hottest key active [Account] (13"), "{w}");
    let hot: Vec<(&str, f64)> = s.hot_keys.iter().map(|k| (k.key.as_str(), k.requests_per_s)).collect();
    for (key, rate) in [("active", 1_350.0), ("suspended", 120.0), ("deleted", 30.0)] {
        let got = hot.iter().find(|h| h.0 == key).unwrap_or_else(|| panic!("{key} missing from {hot:?}")).1;
        assert!((got - rate).abs() < rate * 0.01, "{key}: {got}/s, by hand {rate}/s");
    }
    assert!(line(v, "why")[0].starts_with("IndexWriteKeyRangeThroughputExceeded × ") && line(v, "why")[0].contains("back-pressure"));
    assert!(line(v, "next")[0].contains("--key status"), "{:?}", line(v, "next"));
}

/// A table with room to spare holds; the next step is the cheapest setting that still holds.
#[test]
fn a_design_with_room_holds_and_points_at_recommend() {
    let sc = super::scenario(
        "[scenario]\nduration = \"5m\"\n[table]\nname = \"T\"\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 1000, write = 1000 }\n[keys.k]\ncardinality = 100000\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nitem_bytes = 1000\nrate = { constant = 100 }\n",
    );
    let s = run_summary(&sc);
    let v = &s.verdict;
    assert!(v.held);
    assert_eq!(v.headline, "HELD — 0.0 % of attempts throttled (limit 0.10 %), no request failed");
    assert!(line(v, "where").is_empty() && line(v, "when").is_empty());
    // 1,000 RCU x $0.00013 + 1,000 WCU x $0.00065 = $0.78 an hour, $569.40 for 730 hours.
    // 5 minutes are $0.065; with extrapolate = "repeat" the month is stated as an estimate.
    assert!(line(v, "cost")[0].starts_with("$0.0650 for the 5 min simulated (not extrapolated"), "{:?}", line(v, "cost"));
    let mut repeat = sc.clone();
    repeat.pricing.extrapolate = true;
    let s = run_summary(&repeat);
    assert_eq!(line(&s.verdict, "cost")[0], "$0.0650 for the 5 min simulated (estimate: $569.40 a month if the window repeated for 730 h)");
    assert!(line(v, "next")[0].starts_with("`ddbsim recommend test.toml`"));
}
