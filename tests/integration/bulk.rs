//! `[[at]] bulk_put`: bulk put items from S3 into the existing table (§16), against
//! hand-worked numbers: a sorted load's rolling hot partition, a shuffled load that spreads,
//! the load's index writes, and the cases DynamoDB refuses.

use super::{run, run_summary, scenario};
use ddbsim::scenario::parse_str;
use std::path::Path;

fn bundled(order: &str) -> String {
    std::fs::read_to_string("scenarios/bulk-load-sorted.toml").unwrap().replace("order = \"sorted\"", &format!("order = \"{order}\""))
}

/// bulk-load-sorted.toml: 1,200,000 items at 4,000 a second, 12,000 a customer. Sorted, a
/// customer's 3 s of the load sit on one partition, which serves at most its one-second
/// bucket and three seconds of refill, 4,000 of the 12,000: at least two thirds of the
/// load's puts are throttled on their first attempt, and as the customers roll by, the
/// throttling moves from partition to partition (100 customers hashed over 9 partitions:
/// more than half of them throttle). The service paces the load (spec §17): every item is
/// written, none fails, and the last customer's 12,000 items, arriving in the load's last 3 s
/// on one partition (at most 4,000 written then, 1,000 a second after), keep it going 8 s
/// more at least: 308 s or longer, against 300 s at the cap. Shuffled, 4,000 a second over 9
/// partitions is about 444 each, under every cap: nothing is throttled and the load takes its
/// 300 s. Either way the load sends exactly its 1,200,000 items, and the summary says what is
/// unknown.
#[test]
fn a_sorted_load_rolls_a_hot_partition_and_a_shuffled_one_spreads() {
    let sorted = scenario(&bundled("sorted"));
    let r = run(&sorted);
    let load = r.patterns.last().unwrap();
    assert_eq!((load.offered, load.served, load.failed()), (1_200_000, 1_200_000, 0));
    assert!(load.throttled_requests as f64 >= 0.65 * load.offered as f64, "{} of {}", load.throttled_requests, load.offered);
    let s = run_summary(&sorted);
    let b = s.patterns.last().unwrap().bulk_put.as_ref().unwrap();
    assert_eq!((b.written, b.planned_s), (1_200_000, 300));
    assert!(b.duration_s.is_some_and(|d| d >= 308), "{:?}", b.duration_s);
    let mut throttling: Vec<u32> = r.partitions.iter().filter(|p| p.resource == 0 && p.throttles[1] > 0).map(|p| p.partition).collect();
    throttling.sort_unstable();
    throttling.dedup();
    assert!(throttling.len() >= 5, "{throttling:?}");

    let s = run_summary(&scenario(&bundled("shuffled")));
    let p = s.patterns.last().unwrap();
    assert_eq!(p.requests.throttled_attempts, 0, "{:?}", p.requests);
    let b = p.bulk_put.as_ref().unwrap();
    assert_eq!((b.order.as_str(), b.items, b.items_per_value, b.max_write_units), ("shuffled", 1_200_000, 12_000, 4_000));
    assert_eq!((b.written, b.duration_s, b.planned_s), (1_200_000, Some(300), 300));
    assert!(b.unknown.contains("no bulk-put price"), "{}", b.unknown);
    assert!(p.name.contains("price unknown"), "{}", p.name);
}

/// A load writes through the table's GSIs as any put: 60,000 items of 900 bytes at 1,000
/// WU/s (60 s), shuffled, into a table with a keys-only GSI: exactly 60,000 index writes of 1
/// WCU (the load sends exactly its items), and the load runs from its time (minute 1) for 60 s.
#[test]
fn a_load_writes_the_tables_indexes() {
    let sc = scenario(
        r#"
[scenario]
duration = "3m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 100000
[keys.g]
cardinality = 100000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
[[pattern]]
name = "idle"
op = "get_item"
rate = { constant = 0 }
[[at]]
time = "1m"
bulk_put = { items = 60000, item_bytes = 900, max_write_units = 1000 }
"#,
    );
    let r = run(&sc);
    let g = r.resources.iter().find(|x| x.name == "G").unwrap();
    let by_minute: Vec<f64> = g.minutes.iter().map(|m| m.consumed[1] as f64 / 1_000.0).collect();
    assert_eq!(by_minute[0], 0.0);
    assert_eq!(by_minute[1], 60_000.0, "{by_minute:?}");
    assert_eq!(by_minute[2], 0.0);
}

/// What DynamoDB refuses, and what cannot be: each named at its key.
#[test]
fn impossible_loads_are_refused() {
    let base =
        "[scenario]\nduration = \"10m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 10\n\
                [[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = { constant = 1 }\n";
    let err = |extra: &str| parse_str(&format!("{base}{extra}"), Path::new("x.toml")).unwrap_err().to_string();
    let load = "[[at]]\ntime = \"1m\"\nbulk_put = { items = 1000, max_write_units = 100 }\n";
    let e = err(&format!("[[replica]]\nregion = \"us-west-2\"\n{load}"));
    assert!(e.contains("at[0].bulk_put") && e.contains("global table"), "{e}");
    let e = err(&format!("[[gsi]]\nname = \"G\"\npartition_key = \"k\"\n[[at]]\ntime = \"30s\"\nadd_gsi = \"G\"\n{load}"));
    assert!(e.contains("at[1].bulk_put") && e.contains("being built"), "{e}");
    let e = err("[[at]]\ntime = \"1m\"\nbulk_put = { items = 1000, max_write_units = 0 }\n");
    assert!(e.contains("at[0].bulk_put.max_write_units"), "{e}");
    // 1,000,000 items at 100 a second take 10,000 s: past the 10-minute run.
    let e = err("[[at]]\ntime = \"1m\"\nbulk_put = { items = 1000000, max_write_units = 100 }\n");
    assert!(e.contains("at[0].bulk_put.items") && e.contains("ends after the run"), "{e}");
    let e = err("[[at]]\ntime = \"1m\"\nbulk_put = { items = 10, max_write_units = 100, order = \"random\" }\n");
    assert!(e.contains("at[0].bulk_put.order") || e.contains("unknown variant"), "{e}");
}
