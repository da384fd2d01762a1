//! Global tables (`[[replica]]`): every write of every region is a write in each region, a
//! replica that cannot take them falls behind and catches up, and each region bills at its own
//! prices. Numbers worked by hand from the behaviour spec (§10.3 GT1, §12.4 $9).

use super::{run, scenario};
use ddbsim::cost::{bill_of, BillComponent, Catalog};
use ddbsim::scenario::parse_str;
use ddbsim::ResourceKind;
use std::path::Path;

/// Spec GT1 / $9: a global table in three regions, 5 + 10 + 5 writes a second of 1 KB, on-demand.
/// Each region consumes every region's writes, 20 WRU/rWRU a second (60 in all); a month of it
/// is 20 x 3,600 x 730 = 52.56 M units per region, $32.85 at $0.625 per million, $98.55 for
/// the three (us-east-2 and us-west-2 price as us-east-1).
#[test]
fn every_region_consumes_every_write_gt1() {
    let sc = scenario(
        r#"
[scenario]
duration = "1h"
seed = 3
[pricing]
extrapolate = "repeat"
[table]
name = "Game"
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[[replica]]
region = "us-east-2"
[[replica]]
region = "us-west-2"
[[pattern]]
name = "virginia"
op = "put_item"
item_bytes = 1000
rate = { constant = 5 }
[[pattern]]
name = "ohio"
op = "put_item"
item_bytes = 1000
rate = { constant = 10 }
region = "us-east-2"
[[pattern]]
name = "oregon"
op = "put_item"
item_bytes = 1000
rate = { constant = 5 }
region = "us-west-2"
"#,
    );
    let r = run(&sc);
    let served: Vec<u64> = r.patterns.iter().map(|p| p.served).collect();
    let all: u64 = served.iter().sum();
    assert!(r.patterns.iter().all(|p| p.throttled_attempts == 0));
    // The regions: the table, then its replicas in order; each wrote its own pattern.
    let kinds: Vec<ResourceKind> = r.resources.iter().map(|x| x.kind()).collect();
    assert_eq!(kinds, [ResourceKind::Table, ResourceKind::Replica, ResourceKind::Replica]);
    assert_eq!(r.resources[1].name, "Game@us-east-2");
    for (i, res) in r.resources.iter().enumerate() {
        let consumed: u64 = res.minutes.iter().map(|m| m.consumed[1]).sum();
        let replicated: u64 = res.minutes.iter().map(|m| m.replicated_writes).sum();
        // 1 KB items: one unit a write, every write of every region.
        assert_eq!(consumed, all * 1_000, "{}", res.name);
        assert_eq!(replicated, (all - served[i]) * 1_000, "{}", res.name);
        assert_eq!(res.minutes.last().unwrap().replication_backlog, 0);
    }
    // About 20 a second in each region: 72,000 in the hour, within Poisson noise (sd 268).
    assert!((all as f64 - 72_000.0).abs() < 1_500.0, "{all}");
    let b = bill_of(&sc, &r, &Catalog::builtin());
    let writes: f64 = b.lines.iter().filter(|l| l.component == BillComponent::Writes).map(|l| l.cost_usd).sum();
    let monthly = writes * 730.0;
    assert!((monthly - 98.55).abs() < 98.55 * 0.02, "write lines extrapolated to a month: ${monthly:.2}");
    // The replicas' lines are replicated writes, each at its region's $0.625 per million.
    let ohio = b.lines.iter().find(|l| l.resource == "Game@us-east-2" && l.component == BillComponent::Writes).unwrap();
    assert!(ohio.unit.contains("rWRU"), "{}", ohio.unit);
    assert!((ohio.cost_usd - all as f64 * 0.625 / 1e6).abs() < 1e-9);
    // Transfer out of each region: its own writes to the 2 others, at most 1 KB a unit, $0.02
    // per GB.
    let t = b.lines.iter().find(|l| l.resource == "Game@us-west-2" && l.component == BillComponent::ReplicationTransfer).unwrap();
    let gb = served[2] as f64 * 2.0 * 1_024.0 / 1e9;
    assert!((t.cost_usd - gb * 0.02).abs() < 1e-12, "{} vs {}", t.cost_usd, gb * 0.02);
}

/// A provisioned global table of 1,000 WCU in two regions, 800 writes a second in each for ten
/// minutes: each region must take 1,600 a second. Its own writes come first; replicated ones
/// get the 200 left and the burst credit (300 s x 1,000 WCU = 300,000 units), which the 600 a
/// second beyond capacity use up in 500 s. The queue then grows 600 a second: 60,000 units at
/// ten minutes, its oldest write 75 s behind (drained 200 a second out of each second's 800).
/// When Dublin's writes stop, each region drains its queue at 200 a second, caught up 300 s
/// later: Dublin's queue keeps receiving Virginia's writes, so its lag falls back from 75 s,
/// while Virginia's last replicated write, queued at 600 s, applies at about 900 s: 300 s.
/// Replication leaves each second's bucket empty, so a region's own writes throttle on the
/// peaks early in the next second while it is saturated, and only then.
#[test]
fn a_region_without_room_falls_behind_then_catches_up() {
    let sc = scenario(
        r#"
[scenario]
duration = "20m"
seed = 5
[table]
name = "Orders"
partition_key = "k"
capacity = { mode = "provisioned", read = 100, write = 1000 }
[keys.k]
cardinality = 1000000
[[replica]]
region = "eu-west-1"
[[pattern]]
name = "home"
op = "put_item"
item_bytes = 1000
rate = { constant = 800 }
[[pattern]]
name = "dublin"
op = "put_item"
item_bytes = 1000
rate = { steps = [["0s", 800], ["10m", 0]] }
region = "eu-west-1"
"#,
    );
    let r = run(&sc);
    for (res, lag_range) in r.resources.iter().zip([(250.0, 330.0), (50.0, 100.0)]) {
        let at_10 = res.minutes[9].replication_backlog as f64 / 1_000.0;
        assert!((at_10 - 60_000.0).abs() < 10_000.0, "{}: {at_10} units behind at 10 min", res.name);
        let lag = res.minutes.iter().map(|m| m.replication_lag_us).max().unwrap() as f64 / 1e6;
        assert!((lag_range.0..=lag_range.1).contains(&lag), "{}: {lag} s", res.name);
        assert_eq!(res.minutes.last().unwrap().replication_backlog, 0, "{} caught up", res.name);
        assert!(res.minutes[16..].iter().all(|m| m.replication_lag_us == 0), "{}", res.name);
        // Throttling only while saturated (from about 500 s to the catch-up), and little.
        assert!(res.minutes[..7].iter().chain(&res.minutes[16..]).all(|m| m.events(ddbsim::Dim::Write) == 0), "{}", res.name);
    }
    let attempts: u64 = r.patterns.iter().map(|p| p.attempts).sum();
    let throttled: u64 = r.patterns.iter().map(|p| p.throttled_attempts).sum();
    assert!((throttled as f64) < 0.005 * attempts as f64, "{throttled} of {attempts}");
    // Dublin bills 1,000 rWCU and 100 RCU for a third of an hour at eu-west-1's prices:
    // 1,000 x 0.3333 h x $0.000735 = $0.245 and 100 x 0.3333 x $0.000147 = $0.0049.
    let b = bill_of(&sc, &r, &Catalog::builtin());
    let line = |c: BillComponent| b.lines.iter().find(|l| l.resource == "Orders@eu-west-1" && l.component == c).unwrap();
    assert!((line(BillComponent::Writes).cost_usd - 0.245).abs() < 1e-6);
    assert!(line(BillComponent::Writes).unit.starts_with("rWCU"));
    assert!((line(BillComponent::Reads).cost_usd - 0.0049).abs() < 1e-6);
    let s = ddbsim::report::Summary::new(&sc, &r, &Catalog::builtin());
    let rep = s.resources[1].replica.as_ref().unwrap();
    assert_eq!(rep.region, "eu-west-1");
    assert_eq!(rep.backlog_at_end_units, 0.0);
    assert!(rep.max_lag_s >= 50.0);
}

#[test]
fn replicas_in_unknown_or_repeated_regions_are_refused_with_their_keys() {
    let text = r#"
[scenario]
duration = "1m"
[table]
name = "T"
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 10
[[replica]]
region = "mars-north-1"
[[replica]]
region = "us-east-1"
[[replica]]
region = "eu-west-1"
read_capacity = 5
[[replica]]
region = "eu-west-1"
[[pattern]]
name = "p"
op = "get_item"
rate = { constant = 1 }
region = "ap-southeast-1"
"#;
    let e = parse_str(text, Path::new("gt.toml")).unwrap_err().to_string();
    for want in [
        "replica[0].region",
        "no price catalog for region \"mars-north-1\"",
        "replica[1].region",
        "the table's own region",
        "replica[2].read_capacity",
        "this table is on-demand",
        "replica[3].region",
        "one replica per region",
        "pattern[0].region",
        "no replica in \"ap-southeast-1\"",
    ] {
        assert!(e.contains(want), "missing {want:?} in:\n{e}");
    }
}

/// Multi-region strong consistency adds its cross-region acknowledgement to every write and
/// changes nothing else: with a 5 ms service time and `write_latency = "40ms"`, each put is
/// answered in 45 ms, each read in 5 ms, and the units consumed are the same as without it.
#[test]
fn multi_region_strong_consistency_adds_write_latency_only() {
    let text = |mrsc: &str| {
        format!(
            r#"
[scenario]
duration = "5m"
seed = 8
[table]
name = "Ledger"
partition_key = "k"
capacity = {{ mode = "on_demand" }}
{mrsc}
[keys.k]
cardinality = 100000
[[replica]]
region = "us-east-2"
[[replica]]
region = "us-west-2"
[[pattern]]
name = "post"
op = "put_item"
item_bytes = 500
rate = {{ constant = 50 }}
[[pattern]]
name = "read"
op = "get_item"
consistency = "strong"
rate = {{ constant = 50 }}
"#
        )
    };
    let strong = run(&scenario(&text("[table.multi_region_strong]\nwrite_latency = \"40ms\"")));
    let plain = run(&scenario(&text("")));
    let ms = |r: &ddbsim::RunResult, q: f64| r.latency.quantile(q) as f64 / 1_000.0;
    // Half the requests are reads (5 ms), half writes (45 ms with MRSC, 5 ms without).
    assert!((ms(&strong, 0.25) - 5.0).abs() < 0.1, "{}", ms(&strong, 0.25));
    assert!((ms(&strong, 0.75) - 45.0).abs() < 0.5, "{}", ms(&strong, 0.75));
    assert!((ms(&plain, 0.75) - 5.0).abs() < 0.1, "{}", ms(&plain, 0.75));
    // Per pattern (the summary's latency_ms): the puts 45 ms, every one; the reads 5 ms.
    let sc = scenario(&text("[table.multi_region_strong]\nwrite_latency = \"40ms\""));
    let s = ddbsim::report::Summary::new(&sc, &strong, &Catalog::builtin());
    let (put, read) = (s.patterns[0].latency_ms.as_ref().unwrap(), s.patterns[1].latency_ms.as_ref().unwrap());
    assert!((put.p50 - 45.0).abs() < 0.1 && (put.max - 45.0).abs() < 0.1, "{put:?}");
    assert!((read.p99 - 5.0).abs() < 0.02, "{read:?}");
    for (a, b) in strong.resources.iter().zip(&plain.resources) {
        let sum = |x: &ddbsim::ResourceOutcome| x.minutes.iter().map(|m| m.consumed).fold([0, 0], |s, c| [s[0] + c[0], s[1] + c[1]]);
        assert_eq!(sum(a), sum(b), "{}", a.name);
    }
    // Three regions: one replica (and a witness) or two; not three.
    let four = text("[table.multi_region_strong]\nwrite_latency = \"40ms\"")
        .replace("[[pattern]]\nname = \"post\"", "[[replica]]\nregion = \"eu-west-1\"\n[[pattern]]\nname = \"post\"");
    let e = parse_str(&four, Path::new("m.toml")).unwrap_err().to_string();
    assert!(e.contains("table.multi_region_strong") && e.contains("three regions"), "{e}");
    // One region set (US: us-east-1, us-east-2, us-west-2): Ireland is in the EU set, and
    // Singapore in none.
    let mixed = text("[table.multi_region_strong]\nwrite_latency = \"40ms\"").replace("region = \"us-west-2\"", "region = \"eu-west-1\"");
    let e = parse_str(&mixed, Path::new("m.toml")).unwrap_err().to_string();
    assert!(e.contains("us-east-1 is in the US set, eu-west-1 is not"), "{e}");
    let singapore = format!("[pricing]\nregion = \"ap-southeast-1\"\n{}", text("[table.multi_region_strong]\nwrite_latency = \"40ms\""));
    let e = parse_str(&singapore, Path::new("m.toml")).unwrap_err().to_string();
    assert!(e.contains("not offered in ap-southeast-1"), "{e}");
}

/// TTL deletes are free where TTL deletes them and a replicated write in every replica (spec
/// §10.3): the replica applies the table's writes plus a write unit per KB the table's TTL
/// deleted (1,100 bytes an item: 1,000 and the 100 of overhead), exactly, counting what still
/// waits at the end; and its storage follows the table's.
#[test]
fn ttl_deletes_replicate_as_writes() {
    let sc = scenario(
        r#"
[scenario]
duration = "10m"
seed = 4
[table]
name = "Sessions"
partition_key = "k"
capacity = { mode = "on_demand" }
[table.ttl]
after = "2m"
within = "1m"
[keys.k]
cardinality = 1000000
[[replica]]
region = "us-west-2"
[[pattern]]
name = "login"
op = "put_item"
item_bytes = 1000
rate = { constant = 20 }
"#,
    );
    let r = run(&sc);
    let (t, rep) = (&r.resources[0], &r.resources[1]);
    let writes: u64 = t.minutes.iter().map(|m| m.consumed[1]).sum();
    let ttl: u64 = t.minutes.iter().map(|m| m.ttl_deleted_bytes * 1_000 / 1_024).sum();
    assert!(ttl > 0, "TTL deleted nothing");
    let applied: u64 = rep.minutes.iter().map(|m| m.replicated_writes).sum();
    let waiting = rep.minutes.last().unwrap().replication_backlog;
    assert_eq!(applied + waiting, writes + ttl);
    // The table's TTL deletes use no write units of its own.
    assert_eq!(writes, r.patterns[0].served * 1_000);
    assert_eq!(rep.stored_bytes, t.stored_bytes);
}
