//! Single-table designs (`[[entity]]`): entity types sharing item collections, overloaded and
//! sparse GSIs, LSIs that project some types and not others. Numbers worked by hand from the
//! behaviour spec (§1.2 write units, §1.3 index entries, §8 item collections).

use super::{run, scenario};
use ddbsim::report::tables::partition_rows;
use ddbsim::scenario::{parse_str, ScenarioError};
use std::path::Path;

/// One table, two entity types on `user` (a profile and 20 orders per user), one on `product`
/// (a review). Storage at the start is each type's items at their size plus 100 bytes:
/// 1,000,000 x (1,000 + 100) + 1,000,000 x 20 x (400 + 100) + 10,000 x (700 + 100) =
/// 1.1e9 + 1.0e10 + 8.0e6 = 11,108,000,000 bytes. Each user's item collection holds 21 items,
/// the profile first. The sparse `ByStatus` GSI (keys only: 100 bytes of keys + 100 of
/// overhead) holds 10 % of the orders: 2e7 x 0.1 x 200 = 400,000,000 bytes; the overloaded
/// `GSI1` holds every review (keys only, 200 bytes each: 2,000,000) and every profile (200 each:
/// 200,000,000): 202,000,000 bytes. Nothing writes in the run, so the first minute's stored
/// bytes are the start's.
#[test]
fn entity_types_size_the_table_its_collections_and_indexes() {
    let sc = scenario(
        r#"
[scenario]
duration = "1m"
[table]
name = "Shop"
partition_key = "user"
capacity = { mode = "on_demand" }
[keys.user]
cardinality = 1000000
[keys.product]
cardinality = 10000
[keys.status]
values = { PENDING = 0.7, SHIPPED = 0.3 }
[keys.email]
cardinality = 1000000
[[gsi]]
name = "ByStatus"
partition_key = "status"
projection = "keys_only"
[[gsi]]
name = "GSI1"
partition_key = "email"
projection = "keys_only"
[[entity]]
name = "User"
item_bytes = 1000
gsi = { GSI1 = "email" }
[[entity]]
name = "Order"
item_bytes = 400
sort_keys = { items = 20, spread = "newest" }
gsi = { ByStatus = { key = "status", share = 0.1 } }
[[entity]]
name = "Review"
partition_key = "product"
item_bytes = 700
gsi = { GSI1 = "user" }
[[pattern]]
name = "get-profile"
entity = "User"
op = "get_item"
rate = { constant = 10 }
"#,
    );
    assert_eq!(sc.table.storage_bytes, 11_108_000_000);
    let user = &sc.key_spaces[sc.entities[0].key_space];
    assert_eq!(user.sort_keys.map(|s| s.items), Some(21), "a profile and 20 orders per user");
    assert_eq!((sc.entities[0].offset, sc.entities[1].offset), (0, 1), "orders sort after the profile");
    assert_eq!(sc.patterns[0].size, ddbsim::scenario::SizeSpec::Fixed(1000), "the pattern takes the entity's item size");
    let r = run(&sc);
    let at_start = |name: &str| r.resources.iter().find(|x| x.name == name).expect("resource").minutes[0].stored_bytes;
    assert_eq!(at_start("ByStatus"), 400_000_000);
    assert_eq!(at_start("GSI1"), 202_000_000);
}

/// Three entity types write one overloaded GSI: `Order` its constant status (600 writes/s on
/// one index value), `Review` a user id (300/s over 50,000 values), `Customer` a product id
/// from half its items (200/s x 0.5 = 100/s over 1,000 values). Every write is 1 WCU on the
/// index (keys only). Over the run the index serves 600 : 300 : 100 units, so the shares in
/// `partitions.csv`, weighted by each row's units, are 0.6, 0.3 and 0.1 (Poisson noise on
/// ~600,000 writes: well under 1 %); away from the constant key, Review : Customer is 3 : 1
/// (0.75 / 0.25); on the partition holding it, Order serves at least 600 / (600 + 400) of
/// the units. The hot-key list names the entity of each key.
#[test]
fn an_overloaded_gsi_shows_each_entity_share_of_its_partitions() {
    let sc = scenario(
        r#"
[scenario]
duration = "10m"
seed = 7
[table]
name = "Shop"
partition_key = "pk"
capacity = { mode = "provisioned", read = 20000, write = 20000 }
[keys.pk]
cardinality = 100000
[keys.status]
values = { PENDING = 1.0 }
[keys.product]
cardinality = 1000
[keys.user]
cardinality = 50000
[[gsi]]
name = "GSI1"
partition_key = "status"
projection = "keys_only"
capacity = { read = 10000, write = 10000 }
[[entity]]
name = "Order"
item_bytes = 900
sort_keys = { items = 10 }
gsi = { GSI1 = "status" }
[[entity]]
name = "Review"
partition_key = "product"
item_bytes = 700
gsi = { GSI1 = "user" }
[[entity]]
name = "Customer"
partition_key = "user"
gsi = { GSI1 = { key = "product", share = 0.5 } }
[[pattern]]
name = "place-order"
entity = "Order"
op = "put_item"
rate = { constant = 600 }
[[pattern]]
name = "review"
entity = "Review"
op = "put_item"
rate = { constant = 300 }
[[pattern]]
name = "customer"
entity = "Customer"
op = "put_item"
rate = { constant = 200 }
"#,
    );
    let r = run(&sc);
    let rows: Vec<_> = partition_rows(&r).into_iter().filter(|p| p.resource == "GSI1").collect();
    let share = |cell: &str, name: &str| {
        cell.split(';').find_map(|kv| kv.strip_prefix(&format!("{name}="))).map_or(0.0, |x| x.parse::<f64>().expect("a share"))
    };
    let total: f64 = rows.iter().map(|p| p.consumed_wcu).sum();
    for (name, want) in [("Order", 0.6), ("Review", 0.3), ("Customer", 0.1)] {
        let got = rows.iter().map(|p| share(&p.entities, name) * p.consumed_wcu).sum::<f64>() / total;
        assert!((got - want).abs() < 0.005, "{name}: {got} of the index's units, want {want}");
    }
    let hot = r.hot_keys.iter().find(|k| k.resource == "GSI1").expect("a hot index key");
    assert_eq!((hot.key.as_str(), hot.entities.as_slice()), ("PENDING", &["Order".to_string()][..]));
    let constant = rows.iter().filter(|p| p.partition as usize == hot.partition).collect::<Vec<_>>();
    assert!(constant.iter().all(|p| share(&p.entities, "Order") >= 0.6), "the constant key's partition is Order's");
    let (rev, cus): (f64, f64) = rows.iter().filter(|p| p.partition as usize != hot.partition).fold((0.0, 0.0), |a, p| {
        (a.0 + share(&p.entities, "Review") * p.consumed_wcu, a.1 + share(&p.entities, "Customer") * p.consumed_wcu)
    });
    assert!((rev / (rev + cus) - 0.75).abs() < 0.01, "Review's share away from the constant key: {}", rev / (rev + cus));
    // The table's rows name the types too; a scenario without entity types leaves the column empty.
    assert!(partition_rows(&r).iter().filter(|p| p.resource == "Shop").all(|p| !p.entities.is_empty()));
}

/// An LSI maintained for some entity types and not others (spec §8): a 1 KB put of a type the
/// `ALL`-projected LSI holds costs 1 WCU for the item and 1 for its LSI entry, 2 WCU; a type
/// without the LSI's sort key costs 1.
#[test]
fn an_lsi_costs_only_the_entity_types_it_holds() {
    let sc = scenario(
        r#"
[scenario]
duration = "2m"
[table]
partition_key = "user"
capacity = { mode = "on_demand" }
[keys.user]
cardinality = 100000
[[lsi]]
name = "ByDate"
projection = "all"
[[entity]]
name = "Activity"
item_bytes = 1000
sort_keys = { items = 100 }
[[entity]]
name = "Profile"
item_bytes = 1000
lsi = []
[[pattern]]
name = "activity"
entity = "Activity"
op = "put_item"
rate = { constant = 50 }
"#,
    );
    let r = run(&sc);
    let wcu: u64 = r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum();
    assert_eq!(wcu, r.patterns[0].served * 2_000, "2 WCU (2,000 milli-units) a put");
    let profile =
        scenario(&sc.source_text.replace("name = \"activity\"\nentity = \"Activity\"", "name = \"activity\"\nentity = \"Profile\""));
    let r = run(&profile);
    let wcu: u64 = r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum();
    assert_eq!(wcu, r.patterns[0].served * 1_000, "1 WCU a put: no LSI entry");
}

/// An item collection counts every entity type under the value (spec §8, the limit
/// 10,737,418,240 bytes). The power user holds 2,400,000 activity items of 4,000 bytes, each
/// with a keys-only LSI entry (200 bytes with its overhead): 2.4e6 x 4,300 = 10,320,000,000
/// bytes; and a profile of 1,000 bytes that the LSI does not hold, 1,100 more: 10,320,001,100.
/// 417,417,140 bytes are left: floor(417,417,140 / 4,300) = 97,073 more activities; every later
/// put fails with ItemCollectionSizeLimitExceededException. (Without the profile it would be
/// 97,074: the test fails if the profile is left out.)
#[test]
fn an_item_collection_holds_every_entity_type_under_its_value() {
    let sc = scenario(
        r#"
[scenario]
duration = "15m"
seed = 5
[table]
partition_key = "user"
capacity = { mode = "provisioned", read = 100, write = 2000 }
[keys.user]
values = { power_user = 1.0 }
[[lsi]]
name = "ByAmount"
projection = "keys_only"
[[entity]]
name = "Profile"
item_bytes = 1000
lsi = []
[[entity]]
name = "Activity"
item_bytes = 4000
sort_keys = { items = 2400000 }
[[pattern]]
name = "record-activity"
entity = "Activity"
op = "put_item"
rate = { constant = 150 }
"#,
    );
    let r = run(&sc);
    let p = &r.patterns[0];
    assert_eq!(p.served, 97_073);
    assert_eq!(p.failed_collection + p.served + p.pending_at_end, p.offered);
    assert!(p.failed_collection > 30_000, "{} refused", p.failed_collection);
    assert_eq!(r.item_collections[0].key, "power_user");
}

/// A collection that starts large (`start_items`) among ordinary ones: `power_user` holds
/// 2,400,000 activities of 4,300 bytes (4,000 + 100 + a 200-byte keys-only LSI entry), so
/// 10,737,418,240 - 10,320,000,000 = 417,418,240 bytes are left: floor(/ 4,300) = 97,074 more
/// puts, ending at 10,737,418,200 bytes. `alice` and `bob` hold the ordinary 20 items (86,000
/// bytes) and none of their puts fail. The table starts with 2,400,000 + 2 x 20 items of 4,300
/// bytes with their LSI entries (the table stores them): 10,320,172,000, one partition (under
/// 10 GiB).
#[test]
fn one_collection_can_start_large() {
    let sc = scenario(
        r#"
[scenario]
duration = "30m"
seed = 9
[table]
partition_key = "user"
capacity = { mode = "on_demand" }
[keys.user]
values = { power_user = 0.5, alice = 0.3, bob = 0.2 }
[[lsi]]
name = "ByAmount"
projection = "keys_only"
[[entity]]
name = "Activity"
item_bytes = 4000
sort_keys = { items = 20 }
start_items = { power_user = 2400000 }
[[pattern]]
name = "record-activity"
entity = "Activity"
op = "put_item"
rate = { constant = 150 }
"#,
    );
    assert_eq!(sc.table.storage_bytes, 10_320_172_000);
    let r = run(&sc);
    let c = &r.item_collections;
    assert_eq!(c.len(), 1, "only the power user's collection passes 1 GB: {c:?}");
    assert_eq!((c[0].key.as_str(), c[0].bytes), ("power_user", 10_737_418_200));
    assert_eq!(c[0].failed_writes, r.patterns[0].failed_collection);
    let p = &r.patterns[0];
    assert_eq!(p.throttled_attempts, 0, "150 puts/s of 5 WCU fit the one partition's 1,000 WCU");
    assert!(p.failed_collection > 30_000, "75 puts/s for 1,800 s reach the power user: {} refused", p.failed_collection);
}

/// Bad entity references are named with their keys.
#[test]
fn bad_entities_are_refused_with_their_keys() {
    let text = r#"
[scenario]
duration = "1m"
[table]
partition_key = "user"
capacity = { mode = "on_demand" }
[keys.user]
cardinality = 1000
sort_keys = { items = 5 }
[keys.status]
values = { A = 1.0 }
[[gsi]]
name = "ByStatus"
partition_key = "status"
[[entity]]
name = "Order"
gsi = { ByStatus = { key = "status", share = 1.5 }, Nope = "status" }
lsi = ["Missing"]
start_items = { "user#1001" = 5, bob = 2 }
[[entity]]
name = "Order"
[[pattern]]
name = "a"
entity = "Ghost"
op = "get_item"
rate = { constant = 1 }
[[pattern]]
name = "b"
entity = "Order"
op = "query"
index = "ByStatus"
key = "user"
rate = { constant = 1 }
"#;
    let Err(ScenarioError::Invalid { problems, .. }) = parse_str(text, Path::new("e.toml")) else { panic!("accepted") };
    let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
    for want in [
        "keys.user.sort_keys",
        "entity[0].gsi.ByStatus.share",
        "entity[0].gsi.Nope",
        "entity[0].lsi[0]",
        "entity[0].start_items.user#1001",
        "entity[0].start_items.bob",
        "entity[1].name",
        "pattern[0].entity",
        "pattern[1].key",
    ] {
        assert!(keys.contains(&want), "no problem at {want}: {problems:#?}");
    }
    assert!(problems.iter().all(|p| p.line > 1), "every problem is located in the file");
}

/// #17 item 3, conditional writes (spec §1.2, DG ProvisionedThroughput: a failed conditional
/// write still consumes write units; CloudWatch counts it in `ConditionalCheckFailedRequests`,
/// not in `UserErrors`). A put of 1,500 bytes (2 WCU) with a GSI (keys only: 1 WCU) and a
/// keys-only LSI (1 WCU): 3 WCU on the table and 1 on the index when it succeeds; when its
/// condition fails, 2 on the table (the item's units only: no LSI entry is written) and
/// nothing on the index, and the table's bytes do not grow. 20 % of 200 puts/s fail.
/// Per request: table units = 3 x ok + 2 x failed, index units = ok, exactly; the failed
/// share is 0.2 within Poisson noise (24,000 puts: sd 0.26 %).
#[test]
fn a_failed_condition_consumes_the_items_units_and_writes_nothing_else() {
    let sc = scenario(
        r#"
[scenario]
duration = "2m"
seed = 11
[table]
name = "T"
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[keys.g]
cardinality = 100000
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
[[lsi]]
name = "L"
projection = "keys_only"
[[pattern]]
name = "create-if-absent"
op = "put_item"
item_bytes = 1500
index_writes = { G = "insert" }
condition_fails = 0.2
rate = { constant = 200 }
"#,
    );
    let r = run(&sc);
    let p = &r.patterns[0];
    let failed = p.condition_failed;
    let ok = p.served - failed;
    let share = failed as f64 / p.served as f64;
    assert!((share - 0.2).abs() < 0.01, "{share}");
    let units = |i: usize| r.resources[i].minutes.iter().map(|m| m.consumed[1]).sum::<u64>();
    assert_eq!(units(0), (3 * ok + 2 * failed) * 1_000);
    assert_eq!(units(1), ok * 1_000);
    let counted: u64 = r.resources[0].minutes.iter().map(|m| m.conditional_check_failed).sum();
    assert_eq!(counted, failed);
    assert_eq!(r.resources[0].minutes.iter().map(|m| m.user_errors).sum::<u64>(), 0, "not a user error");
    let rows = ddbsim::report::tables::timeseries_rows(&r);
    let series: f64 =
        rows.iter().filter(|x| x.resource == "T" && x.metric.to_string() == "ConditionalCheckFailedRequests").map(|x| x.value).sum();
    assert_eq!(series, failed as f64);
    // SuccessfulRequestLatency per operation: its SampleCount counts the successful puts only
    // (a failed condition is an HTTP 400), its Average the service time, 5 ms by default.
    let of = |name: &str| rows.iter().filter(|x| x.resource == "T" && x.metric.to_string() == name).map(|x| x.value).collect::<Vec<f64>>();
    assert_eq!(of("SuccessfulRequestLatency.PutItem.SampleCount").iter().sum::<f64>(), ok as f64);
    assert!(of("SuccessfulRequestLatency.PutItem.AverageMs").iter().all(|&ms| (ms - 5.0).abs() < 1e-9));
    assert!(of("SuccessfulRequestLatency.GetItem.SampleCount").is_empty(), "no GetItem pattern, no GetItem series");
    // Every admitted item adds 1,500 + 100 bytes to the table and its keys-only LSI entry
    // 100 + 100 (the table stores its LSIs' entries): the failed ones add none.
    let start = sc.table.storage_bytes;
    assert_eq!(r.resources[0].stored_bytes, start + ok * 1_800);
}

/// A transaction cancelled on its condition consumes its items' transactional units (2 per KB:
/// a model choice, the spec leaves it open) and writes no index entry; batch writes take no
/// condition.
#[test]
fn a_cancelled_transaction_is_charged_and_batch_writes_take_no_condition() {
    let text = |op: &str| {
        format!(
            r#"
[scenario]
duration = "1m"
[table]
partition_key = "k"
capacity = {{ mode = "on_demand" }}
[keys.k]
cardinality = 1000000
[[pattern]]
name = "w"
op = "{op}"
items = 4
item_bytes = 1000
condition_fails = 1.0
rate = {{ constant = 50 }}
"#
        )
    };
    let r = run(&scenario(&text("transact_write")));
    let p = &r.patterns[0];
    assert_eq!(p.condition_failed, p.served);
    assert_eq!(r.resources[0].minutes.iter().map(|m| m.consumed[1]).sum::<u64>(), p.served * 4 * 2_000);
    let Err(ScenarioError::Invalid { problems, .. }) = parse_str(&text("batch_write"), Path::new("b.toml")) else { panic!("accepted") };
    assert_eq!(problems[0].key, "pattern[0].condition_fails");
}

/// #17 item 5: deletes shrink item collections (spec §8). The power user's collection is
/// 10^7 bytes short of the limit; each put of a 4,000-byte activity adds 4,300 bytes (item,
/// its 100 bytes, a keys-only LSI entry and its 100), each delete of one removes as much. Puts
/// fit while puts - deletes <= floor(10^7 / 4,300) = 2,325; at 100 puts and 50 deletes a
/// second the collection fills after about 47 s, and from then on each delete makes room for
/// one put: at the end puts - deletes is 2,325 (or 2,324 when a delete came last), and the
/// collection holds its start plus 4,300 bytes for each.
#[test]
fn deletes_make_room_in_an_item_collection() {
    let sc = scenario(
        r#"
[scenario]
duration = "3m"
seed = 2
[table]
partition_key = "user"
storage_gb = 10.72741824
capacity = { mode = "provisioned", read = 100, write = 2000 }
[keys.user]
values = { power_user = 1.0 }
[[lsi]]
name = "ByAmount"
projection = "keys_only"
[[pattern]]
name = "record"
op = "put_item"
item_bytes = 4000
rate = { constant = 100 }
[[pattern]]
name = "forget"
op = "delete_item"
item_bytes = 4000
rate = { constant = 50 }
"#,
    );
    let r = run(&sc);
    let (puts, deletes) = (&r.patterns[0], &r.patterns[1]);
    let net = puts.served - deletes.served;
    assert!((2_324..=2_325).contains(&net), "net {net}");
    assert!(puts.failed_collection > 5_000, "{} refused", puts.failed_collection);
    let c = &r.item_collections[0];
    assert_eq!(c.bytes, 10_727_418_240 + net * 4_300);
}

/// Time to live shrinks item collections as it shrinks the table: each minute a collection
/// loses the share of its expirable bytes that the table's expirable bytes lose. 10 puts a
/// second of 1,000-byte items (1,300 bytes each with its overhead and its keys-only LSI entry,
/// in the table as in the collection: the table stores its LSIs' entries), all expiring 1
/// minute after their write and deleted over the minute after (minute m's writes go in minute
/// m + 2): over 10 minutes, the collection grows by what the table grows by, far below the
/// 10 x 600 x 1,300 = 7,800,000 bytes written: the last two minutes' writes are still there,
/// 120 x 10 x 1,300 = 1,560,000 bytes (Poisson noise on 1,200 puts: 3 %).
#[test]
fn time_to_live_shrinks_item_collections_with_the_table() {
    let sc = scenario(
        r#"
[scenario]
duration = "10m"
seed = 4
[table]
partition_key = "user"
capacity = { mode = "on_demand" }
[table.ttl]
after = "1m"
within = "1m"
[keys.user]
values = { power_user = 1.0 }
[[lsi]]
name = "ByDate"
projection = "keys_only"
[[entity]]
name = "Activity"
item_bytes = 1000
sort_keys = { items = 2000000 }
[[pattern]]
name = "record"
entity = "Activity"
op = "put_item"
rate = { constant = 10 }
"#,
    );
    // The collection and the table start at 2e6 x (1,000 + 100 + 100 + 100) = 2.6e9 bytes.
    assert_eq!(sc.table.storage_bytes, 2_600_000_000);
    let r = run(&sc);
    let table_growth = (r.resources[0].stored_bytes - 2_600_000_000) as f64;
    let collection_growth = (r.item_collections[0].bytes - 2_600_000_000) as f64;
    assert!((collection_growth / table_growth - 1.0).abs() < 0.01, "{collection_growth} vs {table_growth}");
    assert!((1_400_000.0..1_720_000.0).contains(&collection_growth), "{collection_growth}");
}

/// #17 item 2, queries as users issue them (spec §1: a Query's items are summed and rounded up
/// to 4 KB per page). A query of 30 items of 1,500 bytes with `limit = 3` is 10 pages of 4,500
/// bytes, each 2 blocks of 4 KB: 1 RCU eventually consistent, 10 RCU a query; without `limit`
/// one page of 45,000 bytes, 11 blocks: 5.5 RCU. Each page is a request of its own.
#[test]
fn a_limit_pages_a_query_and_each_page_rounds_on_its_own() {
    let text = |limit: &str| {
        format!(
            r#"
[scenario]
duration = "1m"
[table]
partition_key = "k"
capacity = {{ mode = "on_demand" }}
[keys.k]
cardinality = 1000000
[[pattern]]
name = "q"
op = "query"
items = 30
item_bytes = 1500
{limit}
rate = {{ constant = 20 }}
"#
        )
    };
    let rcu = |r: &ddbsim::RunResult| r.resources[0].minutes.iter().map(|m| m.consumed[0]).sum::<u64>();
    let r = run(&scenario(&text("limit = 3")));
    let p = &r.patterns[0];
    assert!(p.served * 10 <= p.pages_sent && p.pages_sent <= p.offered * 10, "ten pages a query: {} for {}", p.pages_sent, p.served);
    assert!(p.served + 1 >= p.offered, "at most the last query is still paging");
    assert_eq!(rcu(&r), p.pages_sent * 1_000);
    let r = run(&scenario(&text("")));
    assert_eq!(rcu(&r), r.patterns[0].served * 5_500);
}

/// A parallel scan in 4 segments on a table of 4 equal partitions (ceil(9,000 / 3,000 +
/// 1 / 1,000)): segment k reads in the k-th quarter of the hash range, which is partition k,
/// so every partition serves exactly one request of each scan. 4,000 items of 100 bytes: 1,000
/// a segment, 100,000 bytes, 25 blocks of 4 KB: 12.5 RCU a segment, 50 a scan.
#[test]
fn a_parallel_scan_reads_each_segment_of_the_hash_range() {
    let sc = scenario(
        r#"
[scenario]
duration = "2m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 9000, write = 1 }
[keys.k]
cardinality = 1000000
[[pattern]]
name = "export"
op = "scan"
items = 4000
item_bytes = 100
segments = 4
rate = { constant = 10 }
"#,
    );
    let r = run(&sc);
    let p = &r.patterns[0];
    let scans = p.offered / 4;
    assert_eq!(p.offered % 4, 0, "four requests a scan");
    assert_eq!(r.resources[0].minutes.iter().map(|m| m.consumed[0]).sum::<u64>(), scans * 50_000);
    for part in 0..4 {
        let got: u64 = r.partitions.iter().filter(|x| x.resource == 0 && x.partition == part).map(|x| u64::from(x.consumed[0])).sum();
        assert_eq!(got, scans * 12_500, "partition {part}");
    }
}

/// `fanout` overrides the key space's rule: under random suffixes a point read of one shard
/// (`"one"`) sends one request; under calculated suffixes a date-wide query (`"all"`) sends
/// one to each of the 4 shards, each reading its quarter of the 40 items (10 x 400 bytes: 1
/// block, 0.5 RCU).
#[test]
fn fanout_one_or_all_shards() {
    let text = |by: &str, fanout: &str| {
        format!(
            r#"
[scenario]
duration = "1m"
[table]
partition_key = "day"
capacity = {{ mode = "on_demand" }}
[keys.day]
cardinality = 100
shards = {{ count = 4, by = "{by}" }}
[[pattern]]
name = "q"
op = "query"
items = 40
item_bytes = 400
fanout = "{fanout}"
rate = {{ constant = 10 }}
"#
        )
    };
    let rcu = |r: &ddbsim::RunResult| r.resources[0].minutes.iter().map(|m| m.consumed[0]).sum::<u64>();
    let all = run(&scenario(&text("hash", "all")));
    assert_eq!(all.patterns[0].offered % 4, 0);
    assert_eq!(rcu(&all), all.patterns[0].offered * 500);
    let one = run(&scenario(&text("random", "one")));
    // One request of 40 x 400 = 16,000 bytes: 4 blocks, 2 RCU.
    assert_eq!(rcu(&one), one.patterns[0].offered * 2_000);
    assert!(one.patterns[0].offered < all.patterns[0].offered / 2);
}

/// #17 item 4: an index entry that moves between values of its key (spec §1.3: a key change is
/// a delete and a put) writes the value it leaves and the value it reaches. Orders are created
/// PENDING (300/s), shipped (250/s: PENDING -> SHIPPED) and delivered (200/s: SHIPPED ->
/// DELIVERED), keys-only entries of 1 WCU: PENDING takes 300 + 250 = 550 index writes a
/// second, SHIPPED 250 + 200 = 450, DELIVERED 200; the index consumes 300 + 2 x 250 + 2 x 200 =
/// 1,200 units a second. New orders' entries go under PENDING (`insert_at`), though the
/// values' weights (what the index holds: mostly DELIVERED) would draw 90 % of plain inserts
/// onto DELIVERED; a `key_change` would put both writes on one value drawn by weight. (The
/// three values share an index partition, 1,200 units a second on its 1,000: synchronous
/// back-pressure, so that the index's consumption is the served writes' units; an absorbing
/// index would still owe its backlog at the end.)
#[test]
fn a_status_entry_moves_from_value_to_value() {
    let sc = scenario(
        r#"
[scenario]
duration = "10m"
seed = 8
[table]
name = "Orders"
partition_key = "order"
capacity = { mode = "on_demand" }
gsi_backpressure = "sync"
[keys.order]
cardinality = 10000000
[keys.status]
values = { DELIVERED = 0.9, SHIPPED = 0.07, PENDING = 0.03 }
[[gsi]]
name = "ByStatus"
partition_key = "status"
projection = "keys_only"
[[pattern]]
name = "place"
op = "put_item"
item_bytes = 500
index_writes = { ByStatus = { insert_at = "PENDING" } }
rate = { constant = 300 }
[[pattern]]
name = "ship"
op = "update_item"
item_bytes = 500
index_writes = { ByStatus = { move = { from = "PENDING", to = "SHIPPED" } } }
rate = { constant = 250 }
[[pattern]]
name = "deliver"
op = "update_item"
item_bytes = 500
index_writes = { ByStatus = { move = { from = "SHIPPED", to = "DELIVERED" } } }
rate = { constant = 200 }
"#,
    );
    let r = run(&sc);
    let served: Vec<u64> = r.patterns.iter().map(|p| p.served).collect();
    let index_units: u64 = r.resources[1].minutes.iter().map(|m| m.consumed[1]).sum();
    assert_eq!(index_units, (served[0] + 2 * served[1] + 2 * served[2]) * 1_000);
    let rate = |key: &str| r.hot_keys.iter().find(|k| k.resource == "ByStatus" && k.key == key).map_or(0.0, |k| k.requests_per_s);
    for (key, want) in [("PENDING", 550.0), ("SHIPPED", 450.0), ("DELIVERED", 200.0)] {
        assert!((rate(key) / want - 1.0).abs() < 0.02, "{key}: {} a second", rate(key));
    }
    let bad = r#"
[scenario]
duration = "1m"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 10
[keys.status]
values = { A = 1.0, B = 1.0 }
[[gsi]]
name = "S"
partition_key = "status"
[[pattern]]
name = "p"
op = "update_item"
index_writes = { S = { move = { from = "A", to = "C" } } }
rate = { constant = 1 }
[[pattern]]
name = "q"
op = "update_item"
index_writes = { S = { insert_at = "A" } }
rate = { constant = 1 }
[[pattern]]
name = "r"
op = "put_item"
index_writes = { S = { insert_at = "D" } }
rate = { constant = 1 }
"#;
    let Err(ScenarioError::Invalid { problems, .. }) = parse_str(bad, Path::new("m.toml")) else { panic!("accepted") };
    assert_eq!(problems[0].key, "pattern[0].index_writes.S.move.to");
    assert!(problems[0].message.contains("A, B"), "{}", problems[0].message);
    let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(keys[1..], ["pattern[1].index_writes.S.insert_at", "pattern[2].index_writes.S.insert_at"], "{problems:#?}");
    assert!(problems[1].message.contains("UpdateItem writes none"), "{}", problems[1].message);
}
