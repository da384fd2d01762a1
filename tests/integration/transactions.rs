//! Transactions over the tables of an account (`[[pattern.also]]`): each item charged on its
//! own table, a throttle on any item cancelling the whole transaction, and what the service
//! would refuse refused with file, line and key. Every figure follows from the units by hand:
//! a transactional write of an item up to 1 KB is 2 WCU (Developer Guide, transactions), an
//! index write of a 600-byte entry 1 WCU.

use ddbsim::scenario::{join_account, load_with, LoadOptions};
use ddbsim::{Crossing, Dim, ResourceId, RunOptions, RunResult, Scenario};
use std::path::Path;

/// The tables of `dir`, in file order, read and joined as one account.
fn account(dir: &Path) -> Result<Vec<Scenario>, String> {
    let mut files: Vec<_> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    let options = LoadOptions { in_account: true, ..LoadOptions::default() };
    let mut tables = files.iter().map(|f| load_with(f, &options).map_err(|e| e.to_string())).collect::<Result<Vec<_>, _>>()?;
    join_account(&mut tables)?;
    Ok(tables)
}

/// Units consumed by `id` of run `r` over the run, by dimension, in milli-units.
fn consumed(r: &RunResult, id: ResourceId, d: Dim) -> u64 {
    r.resource(id).minutes.iter().map(|m| m.consumed[d as usize]).sum()
}

fn write_events(r: &RunResult, id: ResourceId) -> u64 {
    r.resource(id).minutes.iter().map(|m| m.events(Dim::Write)).sum()
}

/// The bundled checkout (`scenarios/checkout/`): 250 checkouts a second, each the order (900
/// bytes: 2 WCU) in orders and the payment (600 bytes: 2 WCU) in payments, in one
/// TransactWriteItems. Orders has 1,000 WCU, payments 400 and no burst credit at the start.
/// Every admitted checkout takes 2 WCU on each table and a throttled one takes none, so orders
/// consumes exactly what payments consumes for checkouts: exactly 2 WCU per checkout served;
/// payments asks 500 WCU a second of its 400, so it runs at its 400 (600 s: 240,000 WCU, with
/// at most the credit a quieter second banks), and every throttle event is a payment's:
/// orders has room and meets none, and those payments' events are the checkouts' crossings.
#[test]
fn a_transaction_is_charged_on_each_table_and_cancelled_by_either() {
    let tables = account(Path::new("scenarios/checkout")).unwrap();
    assert_eq!((tables[0].table.name.as_str(), tables[1].table.name.as_str()), ("orders", "payments"));
    let r = ddbsim::simulate_account(&tables, &RunOptions::default());
    let (orders, payments) = (consumed(&r[0], ResourceId::Table, Dim::Write), consumed(&r[1], ResourceId::Table, Dim::Write));
    assert_eq!(orders, payments, "every admitted checkout charges both tables, a throttled one neither");
    let checkout = &r[0].patterns[0];
    assert_eq!(orders, checkout.served * 2_000, "2 WCU per checkout served");
    let want = 400.0 * 600.0 * 1_000.0;
    assert!(payments as f64 <= want * 1.01 && payments as f64 >= want * 0.97, "payments consumed {payments} milli-WCU against {want}");
    assert_eq!(write_events(&r[0], ResourceId::Table), 0, "orders has room");
    let events = write_events(&r[1], ResourceId::Table);
    assert!(events > 0);
    assert_eq!(r[0].crossings, vec![Crossing { table: 1, resource: ResourceId::Table, events: [0, events] }]);
    assert!(r[1].crossings.is_empty());
    assert!(checkout.throttled_requests > 0 && checkout.served < checkout.offered);
    // Without the payments, orders would have taken 250 x 2 x 600 = 300,000 WCU.
    assert!((orders as f64) < 300_000_000.0 * 0.85);
    // Exact fidelity, request by request: the same accounts balance.
    let opts = RunOptions {
        fidelity: Some(ddbsim::Fidelity::Exact),
        duration: Some(ddbsim::SimDuration::from_secs(120)),
        ..RunOptions::default()
    };
    let r = ddbsim::simulate_account(&tables, &opts);
    let orders = consumed(&r[0], ResourceId::Table, Dim::Write);
    assert_eq!(orders, consumed(&r[1], ResourceId::Table, Dim::Write));
    assert_eq!(orders, r[0].patterns[0].served * 2_000);
    assert!(write_events(&r[1], ResourceId::Table) > 0 && write_events(&r[0], ResourceId::Table) == 0);
}

/// The payments table given a GSI (all attributes, 600-byte entries: 1 WCU an index write,
/// not transactional): each checkout's payment writes it once, so the GSI consumes half of
/// what the payments table does (1 of 2 WCU). The same account, run twice, gives the same
/// result to the byte.
#[test]
fn a_transactions_item_writes_its_tables_indexes_and_runs_the_same_twice() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("scenarios/checkout/orders.toml", dir.path().join("orders.toml")).unwrap();
    let payments = std::fs::read_to_string("scenarios/checkout/payments.toml").unwrap()
        + "\n[keys.customer]\ncardinality = 1000\n\n[[gsi]]\nname = \"by-customer\"\npartition_key = \"customer\"\ncapacity = { read = 10, write = 1000 }\n";
    std::fs::write(dir.path().join("payments.toml"), payments).unwrap();
    let tables = account(dir.path()).unwrap();
    let r = ddbsim::simulate_account(&tables, &RunOptions::default());
    let table = consumed(&r[1], ResourceId::Table, Dim::Write);
    let gsi = consumed(&r[1], ResourceId::gsi(0), Dim::Write);
    assert!(table > 0);
    assert_eq!(gsi * 2, table, "one 1-WCU index write per 2-WCU payment");
    assert_eq!(consumed(&r[0], ResourceId::Table, Dim::Write), table);
    let again = ddbsim::simulate_account(&tables, &RunOptions::default());
    assert_eq!(format!("{r:?}"), format!("{again:?}"));
}

/// What the service and ddbsim refuse, each with file, line and key: a table with a
/// transaction over another run alone (it would be simulated without the other's
/// throttling); an account without the table named; a transaction over its own table.
#[test]
fn a_transaction_over_a_table_not_in_the_account_is_refused() {
    let o =
        crate::ddbsim(&["run", "scenarios/checkout/orders.toml", "--out", tempfile::tempdir().unwrap().path().join("o").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    let line =
        std::fs::read_to_string("scenarios/checkout/orders.toml").unwrap().lines().position(|l| l == "table = \"payments\"").unwrap() + 1;
    assert!(e.contains(&format!("orders.toml:{line}:1: pattern[0].also[0].table")) && e.contains("ddbsim run FOLDER"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("scenarios/checkout/orders.toml", dir.path().join("orders.toml")).unwrap();
    let billing = std::fs::read_to_string("scenarios/checkout/payments.toml").unwrap().replace("name = \"payments\"", "name = \"billing\"");
    std::fs::write(dir.path().join("payments.toml"), billing).unwrap();
    let e = account(dir.path()).unwrap_err();
    assert!(
        e.contains(&format!("orders.toml:{line}:1: pattern[0].also[0].table: no table \"payments\" in this account's us-east-1")),
        "{e}"
    );
    assert!(e.contains("\"billing\""), "{e}");
    let own = std::fs::read_to_string("scenarios/checkout/orders.toml").unwrap().replace("table = \"payments\"", "table = \"orders\"");
    std::fs::write(dir.path().join("orders.toml"), own).unwrap();
    let e = account(dir.path()).unwrap_err();
    assert!(e.contains("is this pattern's own table"), "{e}");
    let o = crate::ddbsim(&["run", dir.path().to_str().unwrap(), "--out", dir.path().join("o").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!dir.path().join("o").exists());
}

/// `run DIR` on the checkout: the account did not hold, and payments did not either although
/// its own lookups all held, naming the transactions that met its throttling.
#[test]
fn the_table_that_throttles_anothers_transactions_did_not_hold() {
    let out = tempfile::tempdir().unwrap();
    let o = crate::ddbsim(&["run", "scenarios/checkout", "--json", "--out", out.path().join("a").to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["held"], false);
    assert_eq!(v["tables"][1]["held"], false);
    let h = v["tables"][1]["headline"].as_str().unwrap();
    assert!(h.contains("write throttle events on payments (table) from the checkout transactions of table orders"), "{h}");
    assert!(h.contains("its own requests: 0.0 % of attempts throttled"), "{h}");
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("a/orders-summary.json")).unwrap()).unwrap();
    let lines = s["verdict"]["lines"].to_string();
    assert!(lines.contains("payments (table) of table payments") && lines.contains("cancels the whole transaction"), "{lines}");
}

/// Tables `carts` (a get of each cart, `rate` a second, followed by a write of 1,500 bytes in
/// `audit`: 2 WCU at standard rates) and `audit` at `audit_wcu` WCU, new (no burst credit),
/// for `minutes`; run as one account.
fn read_then_write(rate: u32, audit_wcu: u32, minutes: u32) -> Vec<RunResult> {
    let dir = tempfile::tempdir().unwrap();
    let carts = format!(
        "[scenario]\nname = \"carts\"\nduration = \"{minutes}m\"\n[table]\nname = \"carts\"\npartition_key = \"cart\"\n\
         capacity = {{ mode = \"provisioned\", read = 1000, write = 10 }}\n[keys.cart]\ncardinality = 100000\n\
         [[pattern]]\nname = \"archive\"\nop = \"get_item\"\nitem_bytes = 1000\nrate = {{ constant = {rate} }}\n\
         [pattern.then]\ntable = \"audit\"\nkey = \"event\"\nitem_bytes = 1500\n"
    );
    let audit = format!(
        "[scenario]\nname = \"audit\"\nduration = \"{minutes}m\"\n[table]\nname = \"audit\"\npartition_key = \"event\"\n\
         capacity = {{ mode = \"provisioned\", read = 10, write = {audit_wcu} }}\ninitial_burst = \"empty\"\n[keys.event]\ncardinality = 1000000\n\
         [[pattern]]\nname = \"scan-day\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
    );
    std::fs::write(dir.path().join("audit.toml"), audit).unwrap();
    std::fs::write(dir.path().join("carts.toml"), carts).unwrap();
    let tables = account(dir.path()).unwrap();
    assert_eq!(tables[1].table.name, "carts");
    ddbsim::simulate_account(&tables, &RunOptions::default())
}

/// A get followed by a write in another table: with room, every read of 1,000 bytes takes
/// 0.5 RCU (eventually consistent) on carts and every write 2 WCU (1,500 bytes, standard rates)
/// on audit; a request is served when its write is, after two service times (5 ms each).
/// With audit at 40 WCU for 100 writes a second (200 WCU), the reads all pass and the writes
/// are throttled on their own: audit consumes at most its 40 WCU a second, each served request
/// exactly one write, and requests fail when their write runs out of attempts.
#[test]
fn a_read_followed_by_a_write_in_another_table() {
    let r = read_then_write(100, 1000, 2);
    let (audit, carts) = (&r[0], &r[1]);
    let p = &carts.patterns[0];
    assert_eq!(p.served, p.offered - p.pending_at_end, "with room every request is served");
    assert_eq!(consumed(audit, ResourceId::Table, Dim::Write), p.served * 2_000);
    let reads = consumed(carts, ResourceId::Table, Dim::Read);
    assert!(reads >= p.served * 500 && reads <= p.offered * 500, "{reads} for {} reads", p.offered);
    let p50 = p.latency.quantile(0.5) as f64;
    assert!((p50 - 10_000.0).abs() <= 200.0, "p50 {p50} µs: a read and then a write, 5 ms each");
    let r = read_then_write(100, 40, 4);
    let (audit, carts) = (&r[0], &r[1]);
    let p = &carts.patterns[0];
    let writes = consumed(audit, ResourceId::Table, Dim::Write);
    assert_eq!(writes, p.served * 2_000, "each served request wrote once");
    assert!(writes as f64 <= 40.0 * 240.0 * 1_000.0 * 1.01, "{writes}");
    assert!(p.failed() > 0 && write_events(audit, ResourceId::Table) > 0);
    assert_eq!(write_events(carts, ResourceId::Table), 0);
    let reads = consumed(carts, ResourceId::Table, Dim::Read);
    assert!(reads as f64 >= (p.offered - p.pending_at_end) as f64 * 500.0, "the reads all pass: {reads}");
    assert_eq!(carts.crossings.len(), 1);
}

/// Two tables of 100 WCU (new: no burst credit): `hot` asked 300 writes a second, `calm` 100.
/// Each throttled retry takes 5 of a client's 500 retry tokens. With a client each, calm's
/// throttled writes empty its quota now and then; named into one client fleet
/// (`[client] fleet`), hot's retries (three times calm's demand over the same capacity) drain
/// the quota they share, and more of calm's throttled writes fail at once (66 alone, 106
/// sharing, on the default seed). A fleet over
/// two Regions is refused.
#[test]
fn one_client_fleet_shares_its_retry_quota_over_tables() {
    let write = |dir: &Path, fleet: &str| {
        for (t, rate) in [("calm", 100), ("hot", 300)] {
            let text = format!(
                "[scenario]\nname = \"{t}\"\nduration = \"5m\"\n[table]\nname = \"{t}\"\npartition_key = \"k\"\n\
                 capacity = {{ mode = \"provisioned\", read = 10, write = 100 }}\ninitial_burst = \"empty\"\n[keys.k]\ncardinality = 100000\n\
                 [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = {{ constant = {rate} }}\n[client]\n{fleet}"
            );
            std::fs::write(dir.join(format!("{t}.toml")), text).unwrap();
        }
    };
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "");
    let r = ddbsim::simulate_account(&account(dir.path()).unwrap(), &RunOptions::default());
    let alone = r[0].patterns[0].failed_quota;
    assert!(r[1].patterns[0].failed_quota > 0, "hot empties its own");
    write(dir.path(), "fleet = \"web\"\n");
    let mut tables = {
        let options = LoadOptions { in_account: true, ..LoadOptions::default() };
        vec![load_with(&dir.path().join("calm.toml"), &options).unwrap(), load_with(&dir.path().join("hot.toml"), &options).unwrap()]
    };
    let notes = join_account(&mut tables).unwrap();
    assert!(notes.iter().any(|n| n.contains("client fleet \"web\": tables calm, hot share one client")), "{notes:?}");
    let r = ddbsim::simulate_account(&tables, &RunOptions::default());
    let shared = r[0].patterns[0].failed_quota;
    eprintln!("calm's writes failed for an empty quota: {alone} alone, {shared} sharing");
    // Unshared, calm's run would be the same to the request: any sharing changes it, and
    // hot's retries can only leave calm fewer tokens.
    assert!(shared > alone, "hot's retries drain the quota calm shares: {shared} against {alone}");
    let again = ddbsim::simulate_account(&tables, &RunOptions::default());
    assert_eq!(format!("{r:?}"), format!("{again:?}"));
    let calm =
        std::fs::read_to_string(dir.path().join("calm.toml")).unwrap().replace("[table]", "[pricing]\nregion = \"eu-west-1\"\n[table]");
    std::fs::write(dir.path().join("calm.toml"), calm).unwrap();
    let e = account(dir.path()).unwrap_err();
    assert!(e.contains("client.fleet: client fleet \"web\" is in") && e.contains("an SDK client calls one Region"), "{e}");
}
