//! Secondary indexes (spec §1.3, §7, §8) against hand-worked numbers.

use super::{run, run_summary, scenario};
use ddbsim::scenario::load;
use ddbsim::Dim;
use std::path::Path;

/// The cascade: a 100 WCU index under 500 writes/s, absorbing (the default, spec §16). The
/// index applies all 500 a second; its full bucket's 100, 100 a second and 30,000 units of
/// burst credit pay the debt, which grows by 400 a second once the credit is gone (75 s) and
/// reaches the 60,000-unit bound at 75 + 150 = 225 s, in minute 3. From then on, each second's
/// drain of 100 lets 100 writes through: 6,000 a minute served, 80 % throttled, every event on
/// the index. Served: 100 + 600 x 100 + 30,000 = 90,100 paid, plus the 59,900 still owed after
/// the last drain (the bound less that drain's 100) = 150,000.
#[test]
fn gsi_cascade_absorbs_then_holds_back() {
    let sc = load(Path::new("scenarios/gsi-cascade.toml")).unwrap();
    let r = run(&sc);
    let served: u64 = r.patterns[0].served;
    assert!((149_997..=150_001).contains(&served), "{served}");
    for (m, t) in r.resources[1].minutes[..3].iter().zip(&r.resources[0].minutes) {
        assert_eq!(m.events(Dim::Write), 0, "the bound holds for 225 s");
        assert_eq!(m.consumed[1], t.consumed[1], "every write applied at once (1 WCU on each)");
        assert!(m.consumed[1] > 29_000 * 1_000, "500 a second, Poisson");
    }
    assert!(r.resources[1].minutes[3].events(Dim::Write) > 0);
    for m in &r.resources[1].minutes[4..] {
        assert_eq!(m.consumed[1], 6_000 * 1_000, "6,000 index write units a minute");
        let share = m.events(Dim::Write) as f64 / (m.requested[1] as f64 / 1_000.0);
        assert!((share - 0.8).abs() < 0.01, "throttled share {share}");
    }
    assert!(r.resources[0].minutes.iter().all(|m| m.events(Dim::Write) == 0));
}

/// The same cascade under the Developer Guide's synchronous rule (`gsi_backpressure =
/// "sync"`). Burst credit of 100 x 300 = 30,000 units and the full bucket's 100 are spent
/// first; after that exactly 100 writes a second get through. Over 600 s: 100 x 600 + 30,000 +
/// 100 = 90,100 served, less the fraction of a unit left at the end, and in every minute
/// after the credit is gone 6,000 writes are served, so the throttled share is 1 - 100/500 =
/// 80 %.
#[test]
fn gsi_cascade_synchronous_steady_state_throttle_share() {
    let mut sc = load(Path::new("scenarios/gsi-cascade.toml")).unwrap();
    sc.table.gsi_backpressure = ddbsim::scenario::GsiBackpressure::Sync;
    let r = run(&sc);
    let served: u64 = r.patterns[0].served;
    assert!((90_097..=90_100).contains(&served), "{served}");
    for m in &r.resources[1].minutes[2..] {
        assert_eq!(m.consumed[1], 6_000 * 1_000, "6,000 index write units a minute");
        let offered = m.requested[1] as f64 / 1_000.0;
        let share = m.events(Dim::Write) as f64 / offered;
        assert!((share - 0.8).abs() < 0.01, "throttled share {share}");
    }
    // The table itself throttles nothing: the events are the index's.
    assert!(r.resources[0].minutes.iter().all(|m| m.events(Dim::Write) == 0));
}

/// Index write units by projection and kind for 3,000-byte items (1 KB rounding):
/// ALL: entry 3,000 B -> 3 WCU; KEYS_ONLY: 100 B -> 1; include 2,000: 2,100 B -> 3;
/// key_change doubles (delete + put): ALL -> 6; update -> 3; none -> 0.
#[test]
fn index_write_units_by_projection_and_kind() {
    let sc = scenario(
        r#"
[scenario]
duration = "1m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 100000
[keys.g]
cardinality = 100000
[[gsi]]
name = "All"
partition_key = "g"
projection = "all"
[[gsi]]
name = "Keys"
partition_key = "g"
projection = "keys_only"
[[gsi]]
name = "Include"
partition_key = "g"
projection = { include_bytes = 2000 }
[[gsi]]
name = "Changed"
partition_key = "g"
projection = "all"
[[gsi]]
name = "Updated"
partition_key = "g"
projection = "all"
[[gsi]]
name = "Untouched"
partition_key = "g"
[[pattern]]
name = "w"
op = "update_item"
item_bytes = 3000
rate = { constant = 50 }
index_writes = { All = "insert", Keys = "insert", Include = "insert", Changed = "key_change", Updated = "update", Untouched = "none" }
[client]
retry = "none"
"#,
    );
    let s = run_summary(&sc);
    let writes = s.patterns[0].requests.served as f64;
    assert_eq!(s.patterns[0].requests.served, s.patterns[0].requests.offered);
    let per_write: Vec<f64> = s.resources.iter().map(|r| r.consumed_wcu / writes).collect();
    assert_eq!(per_write, vec![3.0, 3.0, 1.0, 3.0, 6.0, 3.0, 0.0]);
}

/// Two minutes of an on-demand table keyed on `k` (100,000 values), with a key space `g` of
/// `g_values` values for its indexes.
fn two_minutes_on_demand(g_values: u64) -> String {
    format!(
        "\n[scenario]\nduration = \"2m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n\
         [keys.k]\ncardinality = 100000\n[keys.g]\ncardinality = {g_values}"
    )
}

/// What each operation costs each GSI, as the Developer Guide meters it (GSI.html, "Provisioned
/// throughput considerations", writes; README's behaviour table): items of 1,500 bytes are 2 WCU
/// on the table; an entry of index "All" (projection ALL) is the item, 2 WCU a write; an entry of
/// "Keys" (KEYS_ONLY) is the keys, 100 bytes, 1 WCU. Per request served, [table, All, Keys]:
///
/// - a put of a new item with both keys: 1 write each, [2, 2, 1];
/// - an overwrite with identical values: no index changes, [2, 0, 0] (inferred: the guide
///   charges an index for a change of its key or projected attributes);
/// - an update of an attribute that is not a key: ALL projects it, KEYS_ONLY does not, [2, 2, 0];
/// - an update that adds the index keys: a put on each index, [2, 2, 1];
/// - an update that changes both index keys: a delete and a put on each, [2, 4, 2];
/// - an update that removes the key attributes: a delete on each, [2, 2, 1];
/// - a delete of an item that had the keys: a delete on each, [2, 2, 1];
/// - a delete where only 40 % of the items carry the index keys (a sparse index): the others
///   were never in it, [2, 0.8, 0.4] on average;
/// - a batch of 25 puts mixing indexed items (40 %) and sparse ones: each item on its own,
///   [50, 20, 10] on average.
#[test]
fn index_writes_per_operation_as_the_service_meters_them() {
    let case = |op: &str, extra: &str, coverage: f64| {
        let sc = scenario(&format!(
            r#"{}
[[gsi]]
name = "All"
partition_key = "g"
projection = "all"
coverage = {coverage}
[[gsi]]
name = "Keys"
partition_key = "g"
projection = "keys_only"
coverage = {coverage}
[[pattern]]
name = "w"
op = "{op}"
item_bytes = 1500
rate = {{ constant = 20 }}
{extra}
[client]
retry = "none"
"#,
            two_minutes_on_demand(100_000)
        ));
        let s = run_summary(&sc);
        let p = &s.patterns[0].requests;
        assert_eq!(p.served, p.offered, "{op} {extra}");
        s.resources.iter().map(|r| r.consumed_wcu / p.served as f64).collect::<Vec<f64>>()
    };
    let exact = |got: Vec<f64>, want: [f64; 3], what: &str| assert_eq!(got, want.to_vec(), "{what}");
    exact(case("put_item", "", 1.0), [2.0, 2.0, 1.0], "a new item");
    exact(case("put_item", r#"index_writes = { All = "none", Keys = "none" }"#, 1.0), [2.0, 0.0, 0.0], "identical overwrite");
    exact(case("update_item", "", 1.0), [2.0, 2.0, 0.0], "a non-key attribute");
    exact(case("update_item", r#"index_writes = { All = "insert", Keys = "insert" }"#, 1.0), [2.0, 2.0, 1.0], "keys added");
    exact(case("update_item", r#"index_writes = { All = "key_change", Keys = "key_change" }"#, 1.0), [2.0, 4.0, 2.0], "keys changed");
    exact(case("update_item", r#"index_writes = { All = "remove_key", Keys = "remove_key" }"#, 1.0), [2.0, 2.0, 1.0], "keys removed");
    exact(case("delete_item", "", 1.0), [2.0, 2.0, 1.0], "a delete");
    // Sparse: 2,400 deletes of which ~40 % had an entry in each index (binomial: 5 standard
    // deviations are 12.5 % of the mean); 2,400 batches of 25 items, 60,000 items (5 sd 2.5 %).
    // Each index's key is carried independently (two attributes).
    let near = |got: f64, want: f64, tol: f64, what: &str| assert!((got / want - 1.0).abs() < tol, "{what}: {got} against {want}");
    let d = case("delete_item", "", 0.4);
    assert_eq!(d[0], 2.0);
    near(d[1], 0.8, 0.125, "sparse delete, All");
    near(d[2], 0.4, 0.125, "sparse delete, Keys");
    let b = case("batch_write", "items = 25", 0.4);
    assert_eq!(b[0], 50.0);
    near(b[1], 20.0, 0.025, "mixed batch, All");
    near(b[2], 10.0, 0.025, "mixed batch, Keys");
}

/// lsi-power-user.toml (the design skill's pitfall #4): user#1 starts with 2,200,000 orders of
/// 4,000 bytes, each 4,300 bytes in its item collection (item + 100 overhead + a 200-byte
/// keys-only LSI entry), and a profile the LSI does not hold (1,100 bytes): 9,460,001,100
/// bytes. The limit is 10 x 2^30 = 10,737,418,240 bytes (spec §8, §15): 1,277,417,140 bytes are
/// left, floor(/ 4,300) = 297,073 more orders, and the collection ends at 10,737,415,000
/// bytes; every later order of that user fails with ItemCollectionSizeLimitExceededException,
/// and no other user's does. At 100 orders/s and Zipf 1.0 over 10^6 users (user#1's share
/// 1 / H = 6.95 %) that is about 42,756 s in: the run is 13 hours.
#[test]
fn lsi_collection_fails_at_the_byte_it_passes_10_gb() {
    let mut sc = load(Path::new("scenarios/lsi-power-user.toml")).unwrap();
    sc.duration = ddbsim::SimDuration::from_secs(13 * 3_600);
    let s = run_summary(&sc);
    let p = &s.patterns[0];
    assert!(p.failed_item_collection_limit > 0);
    let c = &s.item_collections[0];
    assert_eq!(c.key, "user#1");
    assert_eq!(c.bytes, 9_460_001_100 + 297_073 * 4_300);
    assert_eq!(c.bytes, 10_737_415_000);
    assert_eq!(c.failed_writes, p.failed_item_collection_limit, "only the power user's orders fail");
    assert!(s.item_collections[1..].iter().all(|c| c.failed_writes == 0));
    // The table starts with every type's items and their LSI entries: 10^6 profiles of 1,100
    // bytes (the LSI holds none) and (10^6 - 1) x 20 + 2,200,000 = 22,199,980 orders of 4,300.
    assert_eq!(sc.table.storage_bytes, 1_100_000_000 + 22_199_980 * 4_300);
}

/// Propagation: with a median delay of 100 ms, a read 100 ms after the write misses the item
/// half the time; a read 1 s after (the p99) misses it about 1 % of the time.
#[test]
fn stale_index_reads_follow_the_propagation_delay() {
    let text = |after: &str| {
        format!(
            r#"{}
[[gsi]]
name = "G"
partition_key = "g"
propagation = {{ median = "100ms", p99 = "1s" }}
[[pattern]]
name = "w"
op = "put_item"
rate = {{ constant = 100 }}
index_writes = {{ G = "insert" }}
[[pattern]]
name = "r"
op = "query"
index = "G"
rate = {{ constant = 10 }}
after_write = "{after}"
"#,
            two_minutes_on_demand(1_000)
        )
    };
    let s = run_summary(&scenario(&text("100ms")));
    let stale = s.patterns[1].stale_read_share.unwrap();
    assert!((stale - 0.5).abs() < 0.04, "{stale}");
    let lag = s.resources[1].replication_lag_ms.as_ref().unwrap();
    assert!((lag.p50 - 100.0).abs() < 10.0 && (lag.p99 - 1_000.0).abs() < 250.0, "{} {}", lag.p50, lag.p99);
    let s = run_summary(&scenario(&text("1s")));
    let stale = s.patterns[1].stale_read_share.unwrap();
    assert!(stale < 0.03, "{stale}");
    // Per minute, timeseries.csv carries the index's p99 delay: about 1 s.
    let r = run(&scenario(&text("1s")));
    let rows = ddbsim::report::tables::timeseries_rows(&r);
    let p99: Vec<f64> =
        rows.iter().filter(|x| x.resource == "G" && x.metric.to_string() == "ReplicationLatencyP99Ms").map(|x| x.value).collect();
    assert_eq!(p99.len(), 2);
    assert!(p99.iter().all(|v| (600.0..1_600.0).contains(v)), "{p99:?}");
}

/// Backfill: 1.1 GB of 1,000-byte items is 1,000,000 items (1,100 bytes with overhead); a
/// keys-only GSI of 1,000 WCU added at 60 s with no live index writes backfills 1,000,000
/// write units at 1,000 a second, seconds 60 to 1,059. Backfill consumption is
/// reported as OnlineIndexConsumedWriteCapacity, not as consumed capacity.
#[test]
fn a_gsi_added_during_the_run_backfills_at_its_write_capacity() {
    let sc = scenario(
        r#"
[scenario]
duration = "20m"
[table]
partition_key = "k"
storage_gb = 1.1
capacity = { mode = "provisioned", read = 10, write = 100 }
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 1000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
capacity = { read = 10, write = 1000 }
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
    let r = run(&sc);
    let done: Vec<u64> = r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::GsiActive).map(|e| e.time_s).collect();
    assert_eq!(done, vec![1_059]);
    let online: u64 = r.resources[1].minutes.iter().map(|m| m.online_consumed).sum();
    assert_eq!(online, 1_000_000 * 1_000);
    assert!(r.resources[1].minutes.iter().all(|m| m.consumed[1] == 0));
    // At the end of minute 10 (second 659) the backfill has run seconds 60..659: 60 %.
    assert_eq!(r.resources[1].minutes[10].online_progress_bp, 6_000);
}

/// #17 item 6: a GSI added during the run can be read once its backfill completes. The same
/// backfill as above (seconds 60 to 1,059: the idle update pattern sets the items' size); a query of the index at 5 a second from the start
/// fails with a ValidationException (a user error, not retried) until the index is active, then
/// is served: before second 1,059 about 5 x 1,059 = 5,295 requests fail (Poisson: sd 73), none
/// after; every one of them is in `UserErrors`; the index serves reads only from minute 18 on.
#[test]
fn a_gsi_added_during_the_run_is_read_once_its_backfill_completes() {
    let sc = scenario(
        r#"
[scenario]
duration = "20m"
seed = 3
[table]
name = "T"
partition_key = "k"
storage_gb = 1.1
capacity = { mode = "provisioned", read = 10, write = 100 }
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 1000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
capacity = { read = 100, write = 1000 }
[[pattern]]
name = "by-g"
op = "query"
index = "G"
items = 2
item_bytes = 100
rate = { constant = 5 }
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
    let r = run(&sc);
    let done: Vec<u64> = r.events.iter().filter(|e| e.action == ddbsim::CapacityAction::GsiActive).map(|e| e.time_s).collect();
    assert_eq!(done, vec![1_059]);
    let p = &r.patterns[0];
    assert!((5_295.0 - p.failed_index_not_ready as f64).abs() < 300.0, "{} failed", p.failed_index_not_ready);
    assert_eq!(p.failed(), p.failed_index_not_ready);
    assert_eq!(p.served + p.failed_index_not_ready, p.offered);
    assert!((p.served as f64 - 5.0 * 141.0).abs() < 120.0, "{} served", p.served);
    let errors: u64 = r.resources[0].minutes.iter().map(|m| m.user_errors).sum();
    assert_eq!(errors, p.failed_index_not_ready);
    let reads: Vec<u64> = r.resources[1].minutes.iter().map(|m| m.consumed[0]).collect();
    assert!(reads[..17].iter().all(|&x| x == 0) && reads[18..].iter().all(|&x| x > 0), "{reads:?}");
}

/// The cascade through BatchWriteItem and TransactWriteItems (spec §7): an item whose index
/// write is throttled is not written to the table either. A 100 WCU index with no burst credit
/// under 40 batches of 25 one-KB items a second (1,000 items/s, each 1 WCU on the table and 1
/// on the KEYS_ONLY index): the index admits 100 writes a second, so over 300 s the table is
/// written 100 x 300 = 30,000 WCU, exactly what the index consumed, not 300,000. Without
/// retries, the index's bucket refills continuously at 100 units a second and each batch takes
/// what has come in since the one before (less than a unit is left behind, uniformly): a batch
/// is throttled whole (and counts in ThrottledRequests, M1) when the refill since the last,
/// gap x 100/s, plus the fraction f left is below one unit. Gaps are exponential at 40 a
/// second, so P = E[1 - exp(-40 x (1 - f) / 100)] = 1 - (1 - e^-0.4) / 0.4 = 0.176, and about
/// 0.176 x 40 x 300 = 2,110 batches are throttled whole.
/// A transaction of 25 items is all or nothing: each item is 2 WCU on the table (prepare and
/// commit) and a standard 1 WCU index write (ddbsim's model: the index is written once), so 4
/// transactions a second get through: 4 x 25 x 2 x 300 = 60,000 table WCU, 30,000 index WCU,
/// and the other 36 a second are ThrottledRequests: about 10,800.
/// (The Developer Guide's synchronous rule, `gsi_backpressure = "sync"`.)
#[test]
fn batch_and_transactional_writes_wait_for_their_index() {
    for (op, per_item) in [("batch_write", 1), ("transact_write", 2)] {
        let sc = scenario(&format!(
            r#"
[scenario]
duration = "5m"
[table]
partition_key = "k"
capacity = {{ mode = "provisioned", read = 100, write = 40000 }}
gsi_backpressure = "sync"
initial_burst = "empty"
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 1000000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
capacity = {{ read = 100, write = 100 }}
[[pattern]]
name = "w"
op = "{op}"
items = 25
item_bytes = 1000
rate = {{ constant = 40 }}
index_writes = {{ G = "insert" }}
[client]
retry = "none"
"#
        ));
        let s = run_summary(&sc);
        let (table, gsi) = (&s.resources[0], &s.resources[1]);
        let table_wcu = 30_000.0 * f64::from(per_item);
        assert!((table.consumed_wcu - table_wcu).abs() <= 0.01 * table_wcu, "{op}: table consumed {} WCU", table.consumed_wcu);
        assert!((gsi.consumed_wcu - 30_000.0).abs() <= 300.0, "{op}: index consumed {} WCU", gsi.consumed_wcu);
        let expected = if op == "batch_write" { 2_110.0 } else { 10_800.0 };
        assert!(
            (table.throttled_requests as f64 - expected).abs() < 0.08 * expected,
            "{op}: {} ThrottledRequests, about {expected}",
            table.throttled_requests
        );
    }
}

/// Buffered back-pressure (AWS's design-patterns workshop, spec §15): a 1 WCU keys-only index
/// behind a 1,000 WCU table, 10 writes/s that write it (1 index unit each) and 10 writes/s that
/// do not, no retries, burst credit empty, a buffer of 300 s x 1 WCU = 300 units.
///
/// The index applies its queue at the end of each second: 1 unit a second, and 2 in second 1
/// (second 0's refill overflowed the full bucket and was banked as burst credit, spec §3):
/// 61 units over 60 s. The buffer admits while it holds fewer than 300 units, so it peaks at
/// 300 and ends at 299 after the last drain: the index writes admitted are 61 + 299 = 360,
/// whatever the arrival times. It fills after about 300 / (10 - 1) = 33 s; from then on every
/// table write is rejected except those that arrive after a drain and before the next index
/// write (about 1 a second), so the writes that never touch the index are served
/// 10 x 33 + 27 = ~360 times, not 600 (the fill time moves with the arrivals: 260 to 460
/// over seeds). A write queued behind 299 units waits 299 s.
/// Synchronous back-pressure never throttles the writes that do not touch the index.
#[test]
fn a_full_gsi_buffer_rejects_every_table_write() {
    let text = |mode: &str, fidelity: &str| {
        format!(
            r#"
[scenario]
duration = "1m"
fidelity = "{fidelity}"
[table]
partition_key = "k"
capacity = {{ mode = "provisioned", read = 10, write = 1000 }}
initial_burst = "empty"
gsi_backpressure = "{mode}"
[keys.k]
cardinality = 1000000
[keys.host]
cardinality = 1000
[[gsi]]
name = "ByHost"
partition_key = "host"
projection = "keys_only"
capacity = {{ read = 1, write = 1 }}
[[pattern]]
name = "indexed"
op = "put_item"
item_bytes = 800
rate = {{ constant = 10 }}
index_writes = {{ ByHost = "insert" }}
[[pattern]]
name = "unindexed"
op = "put_item"
item_bytes = 800
rate = {{ constant = 10 }}
index_writes = {{ ByHost = "none" }}
[client]
retry = "none"
"#
        )
    };
    for fidelity in ["fast", "exact"] {
        let r = run(&scenario(&text("buffered", fidelity)));
        let (a, b) = (&r.patterns[0], &r.patterns[1]);
        assert_eq!(a.served, 360, "{fidelity}: index writes admitted = drained 61 + queued 299");
        let gsi_units: u64 = r.resources[1].minutes.iter().map(|m| m.consumed[1]).sum();
        assert_eq!(gsi_units, 61_000, "{fidelity}: the index applied 61 units");
        assert!((260..=460).contains(&b.served), "{fidelity}: unindexed writes served {}", b.served);
        let rejected = a.offered - a.served + b.offered - b.served;
        let events: u64 = r.resources[1].minutes.iter().map(|m| m.events(Dim::Write)).sum();
        assert_eq!(events, rejected, "{fidelity}: every rejection is a throttle event on the index");
        let table_events: u64 = r.resources[0].minutes.iter().map(|m| m.events(Dim::Write)).sum();
        assert_eq!(table_events, 0);
        let requests: u64 = r.resources[0].minutes.iter().map(|m| m.throttled_requests[1]).sum();
        assert_eq!(requests, rejected, "{fidelity}: ThrottledRequests on the table");
        let lag = r.resources[1].lag_ms.unwrap();
        assert!((290_000.0..=310_000.0).contains(&lag[2]), "{fidelity}: longest wait {} ms", lag[2]);
    }
    let s = run_summary(&scenario(&text("buffered", "fast")));
    let reasons = &s.resources[1].throttle_events_by_reason;
    assert!(reasons.contains_key("IndexWriteProvisionedThroughputExceeded") && reasons.len() == 1, "{reasons:?}");
    let r = run(&scenario(&text("sync", "fast")));
    assert_eq!(r.patterns[1].served, r.patterns[1].offered, "sync: writes that skip the index are never held back");
    assert!((59..=61).contains(&r.patterns[0].served), "sync: about 1 a second, {}", r.patterns[0].served);
}

/// "Only an imbalance over an extended period of time on a GSI will cause the buffer to fill"
/// (the workshop). A 100 WCU keys-only index with full burst credit (100 x 300 = 30,000 units)
/// under 200 index writes/s: synchronous back-pressure throttles once the credit is spent at
/// 100 a second, at 300 s; buffered back-pressure drains 200 a second from the same credit
/// until 300 s, then queues 100 a second into a buffer of 300 s x 100 WCU = 30,000 units, full
/// at 600 s. From then on the index applies exactly 100 units a second (6,000 a minute), about
/// 100 writes a second are admitted, and each waits about 300 s in the buffer.
#[test]
fn a_gsi_buffer_delays_throttling_by_its_size() {
    let text = |mode: &str| {
        format!(
            r#"
[scenario]
duration = "15m"
[table]
partition_key = "k"
capacity = {{ mode = "provisioned", read = 10, write = 1000 }}
gsi_backpressure = "{mode}"
gsi_buffer = "5m"
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 100000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
capacity = {{ read = 1, write = 100 }}
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 800
rate = {{ constant = 200 }}
index_writes = {{ G = "insert" }}
[client]
retry = "none"
"#
        )
    };
    let r = run(&scenario(&text("buffered")));
    let gsi = &r.resources[1].minutes;
    for m in &gsi[..9] {
        assert_eq!(m.events(Dim::Write), 0, "no throttling for the first 9 minutes");
    }
    for m in &gsi[11..] {
        assert!(m.events(Dim::Write) > 5_000, "{}", m.events(Dim::Write));
        assert_eq!(m.consumed[1], 6_000_000, "the index applies 100 units a second");
        let wait_s = m.lag_p99_us as f64 / 1e6;
        assert!((290.0..=310.0).contains(&wait_s), "{wait_s}");
    }
    let served_late: u64 = r.resources[0].minutes[11..].iter().map(|m| m.consumed[1]).sum::<u64>() / 1_000;
    assert!((23_500..=24_500).contains(&served_late), "about 100 writes a second admitted: {served_late}");
    let sync = run(&scenario(&text("sync").replace("gsi_buffer = \"5m\"\n", "")));
    assert!(sync.resources[1].minutes[5].events(Dim::Write) > 1_000, "sync throttles from 300 s");
}

/// The bundled scenarios/gsi-buffered.toml, as its comments work it out: nothing throttled for
/// the first two minutes (the buffer fills at 150 s), then 80 % of the writes, and 90,100
/// applied + 29,900 queued = 120,000 writes served (gsi-cascade, synchronous, serves 90,100).
#[test]
fn bundled_gsi_buffered_serves_what_the_index_applies_plus_its_buffer() {
    let sc = load(Path::new("scenarios/gsi-buffered.toml")).unwrap();
    let r = run(&sc);
    assert_eq!(r.patterns[0].served, 120_000);
    let gsi = &r.resources[1].minutes;
    assert_eq!(gsi[0].events(Dim::Write) + gsi[1].events(Dim::Write), 0);
    assert!(gsi[2].events(Dim::Write) > 0, "full at 150 s");
    for m in &gsi[3..] {
        let offered = r.resources[0].minutes[0].requested[1] as f64 / 1_000.0 / 60.0;
        let share = m.events(Dim::Write) as f64 / 60.0 / offered;
        assert!((share - 0.8).abs() < 0.02, "throttled share {share}");
    }
    let lag = r.resources[1].lag_ms.unwrap();
    assert!((295_000.0..=310_000.0).contains(&lag[1]), "p99 wait {}", lag[1]);
}

/// Multi-attribute keys in the engine (§16). 2,000 updates/s, each 1 WCU on a keys-only index
/// of 11 partitions (10,000 WCU, 1,000 RCU): keyed on `status` alone, `open` takes 0.9 x 2,000
/// = 1,800 WCU/s on one partition. The index first owes what it cannot apply (the absorbing
/// model, §16), then that partition applies at most 1,000 a second: from then on at least
/// 108,000 - 60,000 = 48,000 of each minute's 120,000 updates, 40 %, are throttled (retries
/// off), as minutes 3 and 4 show. Keyed on (tenant, status) with the enterprise tenant at
/// 40 %, the hottest tuple takes 0.36 x 2,000 = 720 WCU/s and the other 1,280 spread over the
/// partitions (about 116 each): no partition reaches 1,000 and nothing is throttled.
#[test]
fn a_tuple_key_spreads_what_one_attribute_concentrates() {
    let text = |key: &str| {
        std::fs::read_to_string("scenarios/multi-attribute-gsi.toml")
            .unwrap()
            .replace("share = 0.6", "share = 0.4")
            .replace("duration = \"10m\"", "duration = \"5m\"")
            .replace("partition_key = [\"tenant\", \"status\"]", &format!("partition_key = {key}"))
            .replace("gsi = { ByTenantStatus = [\"tenant\", \"status\"] }", &format!("gsi = {{ ByTenantStatus = {key} }}"))
            + "\n[client]\nretry = \"none\"\n"
    };
    let tuple = run_summary(&scenario(&text("[\"tenant\", \"status\"]")));
    assert_eq!(tuple.patterns[0].requests.throttled_attempts, 0, "{:?}", tuple.patterns[0].requests);
    let status = run(&scenario(&text("\"status\"")));
    let index = status.resources.iter().find(|x| x.name == "ByTenantStatus").unwrap();
    for m in &index.minutes[3..5] {
        let throttled: u64 = m.throttle_events.iter().map(|r| r[1]).sum();
        assert!(throttled as f64 >= 0.39 * 120_000.0, "{throttled}");
    }
}

/// The sparse rule of a multi-attribute key: an item is in the index only when it carries
/// every key attribute. `coverage = [0.5, 0.8]`: half the items carry `region`, 80 % `kind`,
/// independently, so 0.4 of 1,000 puts/s of 1 KB (1 WCU) write the index: 400 WCU/s, 24,000 a
/// minute (binomial noise on 60,000 puts: 0.5 %).
#[test]
fn a_multi_attribute_index_holds_the_items_carrying_every_attribute() {
    let sc = scenario(
        r#"
[scenario]
duration = "2m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 100000
[keys.region]
cardinality = 20
[keys.kind]
cardinality = 50
[[gsi]]
name = "ByRegionKind"
partition_key = ["region", "kind"]
coverage = [0.5, 0.8]
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 900
rate = { constant = 1000 }
index_writes = { ByRegionKind = "insert" }
[client]
retry = "none"
"#,
    );
    assert!((sc.gsis[0].coverage - 0.4).abs() < 1e-12);
    assert_eq!(sc.key_spaces[sc.gsis[0].partition_key].cardinality, 1_000);
    let r = run(&sc);
    let g = r.resources.iter().find(|x| x.name == "ByRegionKind").unwrap();
    let per_minute = g.minutes[1].consumed[1] as f64 / 1_000.0;
    assert!((per_minute / 24_000.0 - 1.0).abs() < 0.02, "{per_minute}");
}

/// A time-ordered attribute cannot join a multi-attribute key: the error names it.
#[test]
fn a_sequential_attribute_of_a_tuple_key_is_refused() {
    let e = ddbsim::scenario::parse_str(
        "[scenario]\nduration = \"1h\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 10\n\
         [keys.day]\ncardinality = 10\npopularity = { sequential = \"1d\" }\n[[gsi]]\nname = \"G\"\npartition_key = [\"k\", \"day\"]\n\
         [[pattern]]\nname = \"p\"\nop = \"put_item\"\nrate = { constant = 1 }\n",
        Path::new("x.toml"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("gsi[0].partition_key[1]") && e.contains("keys.day is sequential"), "{e}");
}
