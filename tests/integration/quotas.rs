//! The Region's provisioned-capacity quotas (`[account]`): a raise past the table-level or the
//! account-level quota fails and the capacity stays; a quota below what is provisioned is
//! refused; a table provisioned past a default rests on a raised quota. Every figure is worked
//! by hand from the quotas (Developer Guide, ServiceQuotas; DescribeLimits).

use crate::{run, run_summary, scenario};
use ddbsim::scenario::parse_str;
use ddbsim::{CapacityAction, Dim};
use std::path::Path;

/// A table of 100 RCU and 30,000 WCU with a GSI of 10 RCU and 8,000 WCU (38,000 WCU in all,
/// within AWS's 40,000), a trickle of reads, and `set_capacity` of the table's write to 35,000
/// at one minute; `account` is the `[account]` section.
fn raise_to_35k(account: &str) -> String {
    format!(
        r#"
[scenario]
duration = "30m"
[table]
name = "T"
partition_key = "k"
capacity = {{ mode = "provisioned", read = 100, write = 30000 }}
[keys.k]
cardinality = 1000
[keys.g]
cardinality = 100
[[gsi]]
name = "G"
partition_key = "g"
capacity = {{ read = 10, write = 8000 }}
[[pattern]]
name = "r"
op = "get_item"
rate = {{ constant = 1 }}
[[at]]
time = "1m"
set_capacity = {{ write = 35000 }}
{account}
"#
    )
}

/// 35,000 + 8,000 = 43,000 WCU would pass the table-level 40,000: the UpdateTable fails at the
/// minute it is called, the table keeps its 30,000 WCU to the end, and the event names the
/// quota and what holds it.
#[test]
fn a_raise_past_the_table_quota_is_refused_and_the_capacity_stays() {
    let s = run_summary(&scenario(&raise_to_35k("")));
    let e: Vec<_> = s.capacity_events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).collect();
    assert_eq!(e.len(), 1, "{:?}", s.capacity_events);
    assert_eq!((e[0].time_s, e[0].resource.as_str(), e[0].dimension, e[0].old, e[0].new), (60, "T", Some(Dim::Write), 30_000.0, 35_000.0));
    assert!(e[0].detail.contains("table-level quota of 40000 WCU") && e[0].detail.contains("(43000)"), "{}", e[0].detail);
    assert!(e[0].detail.contains("held: T 30000, G 8000"), "{}", e[0].detail);
    assert!(!s.capacity_events.iter().any(|e| e.action == CapacityAction::SetCapacity));
    assert_eq!(s.resources[0].provisioned_wcu, 30_000);
}

/// A raised table-level quota (50,000) lets the same raise through: 35,000 WCU at the end.
/// An account-level quota of 40,000 under a table-level 60,000 refuses it, by that name.
#[test]
fn a_raised_quota_lets_it_through_and_the_account_quota_names_itself() {
    let s = run_summary(&scenario(&raise_to_35k("[account]\ntable_max_write_capacity_units = 50000\n")));
    assert!(!s.capacity_events.iter().any(|e| e.action == CapacityAction::RefusedQuota), "{:?}", s.capacity_events);
    assert_eq!(s.resources[0].provisioned_wcu, 35_000);
    let s = run_summary(&scenario(&raise_to_35k("[account]\nmax_write_capacity_units = 40000\ntable_max_write_capacity_units = 60000\n")));
    let e = s.capacity_events.iter().find(|e| e.action == CapacityAction::RefusedQuota).expect("refused");
    assert!(e.detail.contains("account-level quota of 40000 WCU"), "{}", e.detail);
    assert_eq!(s.resources[0].provisioned_wcu, 30_000);
}

/// A quota stated below what the table and its GSIs provision at the start (38,000 WCU) is
/// refused with the file, line and key; read quotas are untouched by it.
#[test]
fn a_quota_below_what_is_provisioned_is_refused_with_line_and_key() {
    let text = raise_to_35k("[account]\ntable_max_write_capacity_units = 20000\n");
    let line = text.lines().position(|l| l.starts_with("table_max_write")).unwrap() + 1;
    let e = parse_str(&text, Path::new("q.toml")).unwrap_err().to_string();
    assert!(e.contains(&format!("q.toml:{line}")) && e.contains("account.table_max_write_capacity_units"), "{e}");
    assert!(e.contains("20000 WCU is below the 38000 WCU"), "{e}");
}

/// A table of 49,999 RCU and a GSI of 1 (50,000 in all: past the default 40,000 table-level
/// quota, within the 80,000 account-level) rests on a raised table-level quota of 50,000: one
/// assumption note; a raise of the table to 50,001 (50,002 in all) is refused.
#[test]
fn a_table_provisioned_past_the_default_rests_on_a_raised_quota() {
    let text = raise_to_35k("")
        .replace("read = 100, write = 30000", "read = 49999, write = 100")
        .replace("read = 10, write = 8000", "read = 1, write = 10")
        .replace("set_capacity = { write = 35000 }", "set_capacity = { read = 50001 }");
    let sc = scenario(&text);
    let notes: Vec<String> = sc.notes.iter().map(|n| n.display(Path::new("t.toml"))).collect();
    let quota: Vec<&String> = notes.iter().filter(|n| n.contains("quota")).collect();
    assert_eq!(quota.len(), 1, "{notes:?}");
    assert!(quota[0].contains("[account] table_max_read_capacity_units") && quota[0].contains("raised to 50000 RCU"), "{}", quota[0]);
    let r = run(&sc);
    let e = r.events.iter().find(|e| e.action == CapacityAction::RefusedQuota).expect("refused");
    assert!(e.detail.contains("table-level quota of 50000 RCU") && e.detail.contains("(50002)"), "{}", e.detail);
}

/// Auto scaling at 70 % of a table that needs 35,000 WCU (8,750 4 KB puts a second) from
/// 20,000 WCU: target tracking asks for more than 40,000 (35,000 / 0.7 = 50,000 once the
/// consumption reaches 28,000), which the table-level quota refuses; provisioned capacity
/// never passes 40,000, and the run throttles. With the quota raised to 60,000 it passes
/// 40,000.
#[test]
fn auto_scaling_stops_at_the_quota() {
    let text = |account: &str| {
        format!(
            r#"
[scenario]
duration = "40m"
[table]
name = "T"
partition_key = "k"
capacity = {{ mode = "provisioned", read = 10, write = 20000 }}
autoscaling = {{ write = {{ min = 20000, max = 60000, target = 70 }} }}
[keys.k]
cardinality = 1000000
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 4000
rate = {{ constant = 8750 }}
{account}
"#
        )
    };
    let r = run(&scenario(&text("")));
    let most = r.resources[0].minutes.iter().map(|m| m.provisioned[1]).max().unwrap();
    assert!(most <= 40_000, "provisioned {most} WCU");
    let refused: Vec<_> = r.events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).collect();
    assert!(!refused.is_empty() && refused.iter().all(|e| e.new > 40_000.0 && e.old <= 40_000.0), "{refused:?}");
    assert!(r.patterns[0].throttled_attempts > 0);
    let raised = run(&scenario(&text("[account]\ntable_max_write_capacity_units = 60000\n")));
    let most = raised.resources[0].minutes.iter().map(|m| m.provisioned[1]).max().unwrap();
    assert!(most > 40_000, "provisioned {most} WCU under a 60,000 quota");
    assert!(!raised.events.iter().any(|e| e.action == CapacityAction::RefusedQuota));
}

/// `check`: a table auto scaled to at most 30,000 WCU with a GSI auto scaled to at most
/// 20,000 may be raised to 50,000 WCU together, past the table-level 40,000: a warning (a
/// trickle of traffic raises nothing) naming both maxima and the quota; its reads (10 + 10
/// RCU) pass nothing. With the quota raised to 50,000 in `[account]`, no finding.
#[test]
fn check_finds_maxima_past_the_quota() {
    use ddbsim::cost::Catalog;
    use ddbsim::study::check::{check, CheckOptions, Phase, Severity};
    let text = |account: &str| {
        format!(
            r#"
[scenario]
duration = "10m"
[table]
name = "T"
partition_key = "k"
capacity = {{ mode = "provisioned", read = 10, write = 1000 }}
autoscaling = {{ write = {{ min = 1000, max = 30000, target = 70 }} }}
[keys.k]
cardinality = 1000
[keys.g]
cardinality = 100
[[gsi]]
name = "G"
partition_key = "g"
capacity = {{ read = 10, write = 1000 }}
autoscaling = {{ write = {{ min = 1000, max = 20000, target = 70 }} }}
[[pattern]]
name = "put"
op = "put_item"
rate = {{ constant = 1 }}
[check]
steady = "5m"
{account}
"#
        )
    };
    let o = CheckOptions { phases: vec![Phase::Steady], base: ddbsim::RunOptions::default() };
    let out = check(&scenario(&text("")), &o, &Catalog::builtin()).0;
    let f: Vec<_> = out.findings.iter().filter(|f| f.id == "autoscaling-past-quota").collect();
    assert_eq!(f.len(), 1, "{:#?}", out.findings);
    assert_eq!(f[0].severity, Severity::Warn);
    assert!(f[0].title.contains("raised to 50000 WCU, past the table-level quota of 40000 WCU"), "{}", f[0].title);
    assert!(f[0].evidence[0].contains("T 30000 WCU, G 20000 WCU"), "{:?}", f[0].evidence);
    assert_eq!((f[0].numbers["most_units"], f[0].numbers["quota_units"]), (50_000.0, 40_000.0));
    let out = check(&scenario(&text("[account]\ntable_max_write_capacity_units = 50000\n")), &o, &Catalog::builtin()).0;
    assert!(!out.findings.iter().any(|f| f.id == "autoscaling-past-quota"), "{:#?}", out.findings);
}

/// `recommend` under a table-level quota of 2,000 WCU for 3,000 one-KB puts a second (3,000
/// WCU, more than the quota): every provisioned and auto-scaled candidate starts past the
/// quota (AWS refuses it) and says why, and on-demand, under the same table-level quota, is
/// throttled at 2,000 WRU/s (a third of the writes' first attempts): nothing holds. With the
/// quota raised to 10,000, provisioned settings are offered again.
#[test]
fn recommend_keeps_within_the_quota() {
    let dir = tempfile::tempdir().unwrap();
    let text = |quota: u64| {
        format!(
            "[scenario]\nduration = \"10m\"\n[table]\nname = \"T\"\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 10, write = 1000 }}\n[keys.k]\ncardinality = 10000\n[[pattern]]\nname = \"put\"\nop = \"put_item\"\nrate = {{ constant = 3000 }}\n[account]\ntable_max_write_capacity_units = {quota}\n"
        )
    };
    let pick = |quota: u64| {
        let path = dir.path().join(format!("q{quota}.toml"));
        std::fs::write(&path, text(quota)).unwrap();
        let out = crate::ddbsim(&[
            "recommend",
            path.to_str().unwrap(),
            "--json",
            "--out",
            dir.path().join(format!("o{quota}")).to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let cands = v["candidates"].as_array().unwrap().clone();
        let pick = v["pick"].as_u64().map(|i| cands[i as usize].clone());
        (pick, cands)
    };
    let (p, cands) = pick(2000);
    assert!(p.is_none(), "{p:?}");
    let od = cands.iter().find(|c| c["description"] == "on-demand, table and GSIs").unwrap();
    assert!(od["throttled_share"].as_f64().unwrap() > 0.2 && od["within_limit"] == false, "{od}");
    let provisioned: Vec<_> = cands.iter().filter(|c| !c["description"].as_str().unwrap().starts_with("on-demand")).collect();
    assert!(!provisioned.is_empty());
    for c in provisioned {
        let q = c["past_quota"].as_str().unwrap_or_else(|| panic!("{c}"));
        assert!(q.contains("past the table-level quota of 2000 WCU"), "{q}");
        assert_eq!(c["within_limit"], false);
    }
    let (_, cands) = pick(10_000);
    let within: Vec<_> = cands
        .iter()
        .filter(|c| c["description"].as_str().unwrap().starts_with("provisioned: T 1 RCU / ") && c["past_quota"].is_null())
        .collect();
    assert!(!within.is_empty(), "{cands:#?}");
}

/// The bundled account (`scenarios/account/`): three tables of 25,000 WCU (75,000 of the
/// Region's 80,000). At 60 s orders asks for 30,000: 80,000 in all, allowed; it completes after
/// the 10-minute partition-add latency (31 partitions needed, 26 held), at 660 s. At 120 s
/// payments asks for 30,000: orders' raise holds its 30,000 from the call, so 85,000 would
/// pass 80,000 and the UpdateTable fails. Orders' window: (25,000 × 660 + 30,000 × 540) / 3,600
/// WCU-hours at $0.00065 = $5.9042, plus 100 RCU for a third of an hour at $0.00013.
#[test]
fn the_bundled_account_shares_its_quota() {
    let mut tables: Vec<_> = ["orders", "payments", "sessions"]
        .iter()
        .map(|t| ddbsim::scenario::load(Path::new(&format!("scenarios/account/{t}.toml"))).unwrap())
        .collect();
    assert!(ddbsim::scenario::join_account(&mut tables).unwrap().is_empty());
    let r = ddbsim::simulate_account(&tables, &ddbsim::RunOptions::default());
    let refused = |i: usize| r[i].events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).collect::<Vec<_>>();
    assert!(refused(0).is_empty() && refused(2).is_empty());
    let e = refused(1);
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].time_s, e[0].old, e[0].new), (120, 25_000.0, 30_000.0));
    assert!(
        e[0].detail.contains(
            "account-level quota of 80000 WCU would be passed (85000); held: payments 25000, table orders 30000, table sessions 25000"
        ),
        "{}",
        e[0].detail
    );
    let set: Vec<_> = r[0].events.iter().filter(|e| e.action == CapacityAction::SetCapacity).collect();
    assert_eq!(set.len(), 1);
    assert_eq!((set[0].time_s, set[0].new), (660, 30_000.0));
    let out = tempfile::tempdir().unwrap();
    let o = crate::ddbsim(&["run", "scenarios/account", "--json", "--out", out.path().join("a").to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let orders = v["tables"][0]["window_usd"].as_f64().unwrap();
    let want = (25_000.0 * 660.0 + 30_000.0 * 540.0) / 3_600.0 * 0.00065 + 100.0 / 3.0 * 0.00013;
    assert!((orders - want).abs() < 0.005, "orders {orders} vs {want}");
    assert_eq!(v["tables"][1]["refused_raises"], 1);
    for f in ["account.json", "orders-summary.json", "payments-timeseries.csv", "sessions-partitions.csv"] {
        assert!(out.path().join("a").join(f).is_file(), "{f}");
    }
}

/// A table alone runs as an account exactly as it runs by itself.
#[test]
fn a_table_alone_runs_as_an_account_as_by_itself() {
    let sc = scenario(&raise_to_35k(""));
    let alone = format!("{:?}", ddbsim::simulate(&sc, &ddbsim::RunOptions::default()));
    let account = ddbsim::simulate_account(std::slice::from_ref(&sc), &ddbsim::RunOptions::default());
    assert!(format!("{:?}", account[0]) == alone, "the account's run differs from the table's own");
}

/// Tables in different Regions do not share a quota: payments moved to us-west-2 gets its
/// raise. A table name twice in a Region, different clocks, and a stated account quota below
/// what the tables provision together are refused with file, line and key.
#[test]
fn an_account_is_per_region_and_refuses_what_aws_would() {
    let dir = tempfile::tempdir().unwrap();
    let read = |t: &str| std::fs::read_to_string(format!("scenarios/account/{t}.toml")).unwrap();
    let put = |t: &str, text: &str| std::fs::write(dir.path().join(format!("{t}.toml")), text).unwrap();
    put("orders", &read("orders"));
    put("payments", &read("payments").replace("[table]", "[pricing]\nregion = \"us-west-2\"\n\n[table]"));
    put("sessions", &read("sessions"));
    let load = || -> Vec<ddbsim::Scenario> {
        let mut files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files.iter().map(|f| ddbsim::scenario::load(f).unwrap()).collect()
    };
    let mut tables = load();
    ddbsim::scenario::join_account(&mut tables).unwrap();
    let r = ddbsim::simulate_account(&tables, &ddbsim::RunOptions::default());
    assert!(r.iter().all(|x| !x.events.iter().any(|e| e.action == CapacityAction::RefusedQuota)));
    // The same name twice in us-east-1.
    put("payments", &read("payments").replace("name = \"payments\"\npartition_key", "name = \"orders\"\npartition_key"));
    let e = ddbsim::scenario::join_account(&mut load()).unwrap_err();
    assert!(e.contains("payments.toml:10:1: table.name: a second table named \"orders\" in us-east-1"), "{e}");
    // Another clock.
    put("payments", &read("payments").replace("duration = \"20m\"", "duration = \"30m\""));
    let e = ddbsim::scenario::join_account(&mut load()).unwrap_err();
    assert!(e.contains("payments.toml") && e.contains("scenario.duration") && e.contains("share one clock"), "{e}");
    // A stated account quota below 75,000.
    put("payments", &format!("{}\n[account]\nmax_write_capacity_units = 70000\n", read("payments")));
    let e = ddbsim::scenario::join_account(&mut load()).unwrap_err();
    assert!(e.contains("account.max_write_capacity_units") && e.contains("70000 WCU is below the 75000 WCU"), "{e}");
    let o = crate::ddbsim(&["run", dir.path().to_str().unwrap(), "--out", dir.path().join("o").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The table count (`[account] max_tables`, AWS's 2,500 by default): three tables in one
/// Region past a stated quota of 2 are refused, naming the key; a folder validates as one
/// account.
#[test]
fn an_account_past_its_table_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for t in ["orders", "payments", "sessions"] {
        let mut text = std::fs::read_to_string(format!("scenarios/account/{t}.toml")).unwrap();
        if t == "sessions" {
            text.push_str("\n[account]\nmax_tables = 2\n");
        }
        std::fs::write(dir.path().join(format!("{t}.toml")), text).unwrap();
    }
    let mut tables: Vec<_> =
        ["orders", "payments", "sessions"].iter().map(|t| ddbsim::scenario::load(&dir.path().join(format!("{t}.toml"))).unwrap()).collect();
    let e = ddbsim::scenario::join_account(&mut tables).unwrap_err();
    assert!(
        e.contains("sessions.toml:") && e.contains("account.max_tables: 3 tables in us-east-1, past the account's quota of 2 tables"),
        "{e}"
    );
    let o = crate::ddbsim(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("past the account's quota of 2 tables"));
    let o = crate::ddbsim(&["validate", "scenarios/account"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("scenarios/account: ok, one account of 3 tables"));
}

/// `check` on the bundled account's folder: orders may be raised to 30,000 WCU, payments to
/// 30,000 and sessions holds 25,000: 85,000 WCU together, past the Region's 80,000. Each table
/// gets the account's warning with its own part; reads (100 RCU each) are far within.
#[test]
fn check_finds_an_accounts_maxima_past_its_quota() {
    let o = crate::ddbsim(&["check", "scenarios/account", "--phases", "steady", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&o.stderr)));
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3);
    for (c, part) in checks.iter().zip([30_000.0, 30_000.0, 25_000.0]) {
        let f: Vec<_> = c["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["id"] == "autoscaling-past-quota" && f["title"].as_str().unwrap().contains("tables of us-east-1"))
            .collect();
        assert_eq!(f.len(), 1, "{c:#}");
        assert_eq!(f[0]["severity"], "warn");
        assert_eq!(f[0]["numbers"]["most_units"], 85_000.0);
        assert_eq!(f[0]["numbers"]["quota_units"], 80_000.0);
        assert_eq!(f[0]["numbers"]["table_units"], part);
        assert!(f[0]["title"].as_str().unwrap().contains("85000 WCU together, past the account-level quota of 80000 WCU"));
    }
}

/// `recommend` on a folder whose Region's account-level quota is stated at 500 WCU: two tables
/// of 300 and 400 writes a second (1 KB: 1 WCU each) need more than 300 and 400 WCU
/// provisioned to hold, so their own picks (provisioned or auto scaling) pass 500 together.
/// No provisioned setting that holds either table provisions less than its writes a second, so
/// the fit moves a table to on-demand, which takes none of the provisioned quota: what is left
/// (at most the other table's pick) fits, and that table's row says on-demand.
#[test]
fn recommend_on_an_account_fits_its_quota() {
    let dir = tempfile::tempdir().unwrap();
    for (t, rate) in [("alpha", 300), ("beta", 400)] {
        let text = format!(
            "[scenario]\nname = \"{t}\"\nduration = \"10m\"\n[table]\nname = \"{t}\"\npartition_key = \"k\"\n\
             capacity = {{ mode = \"provisioned\", read = 10, write = 100 }}\n[keys.k]\ncardinality = 100000\n\
             [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = {{ constant = {rate} }}\n\
             [account]\nmax_write_capacity_units = 500\n"
        );
        std::fs::write(dir.path().join(format!("{t}.toml")), text).unwrap();
    }
    let out = dir.path().join("out");
    let o = crate::ddbsim(&[
        "recommend",
        dir.path().to_str().unwrap(),
        "--modes",
        "on-demand,provisioned,autoscaling",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let q = &v["quota"][0];
    assert_eq!(q["region"], "us-east-1");
    assert_eq!(q["quota"][1], 500);
    assert!(q["picked_units"][1].as_u64().unwrap() > 700, "{q:#}");
    assert!(q["fitted_units"][1].as_u64().unwrap() <= 500, "{q:#}");
    assert_eq!(q["fits"], true);
    let changes = q["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{q:#}");
    assert!(changes[0]["to"].as_str().unwrap().starts_with("on-demand"), "{q:#}");
    assert!(changes[0]["added_monthly_usd"].as_f64().unwrap() > 0.0);
    let moved = changes[0]["table"].as_str().unwrap();
    let row = v["rows"].as_array().unwrap().iter().find(|r| r["table"] == moved && r["dimension"] == "write").unwrap();
    assert_eq!(row["recommended_mode"], "on_demand", "{row:#}");
}

/// Table operations in flight (`[account] max_table_operations`): the bundled account with an
/// account-level quota raised to 100,000 WCU (85,000 together is then within it) and a limit of
/// one operation in flight. Orders' UpdateTable, called at 60 s, takes the 10-minute partition
/// add (to 660 s); payments' at 120 s finds it in flight and fails, naming the limit and who
/// holds it. Under AWS's 500, both raises go through.
#[test]
fn a_table_operation_past_the_limit_in_flight_is_refused() {
    let run = |extra: &str| {
        let dir = tempfile::tempdir().unwrap();
        for t in ["orders", "payments", "sessions"] {
            let mut text = std::fs::read_to_string(format!("scenarios/account/{t}.toml")).unwrap();
            if t == "sessions" {
                text.push_str(&format!("\n[account]\nmax_write_capacity_units = 100000\n{extra}"));
            }
            std::fs::write(dir.path().join(format!("{t}.toml")), text).unwrap();
        }
        let mut tables: Vec<_> = ["orders", "payments", "sessions"]
            .iter()
            .map(|t| ddbsim::scenario::load(&dir.path().join(format!("{t}.toml"))).unwrap())
            .collect();
        ddbsim::scenario::join_account(&mut tables).unwrap();
        ddbsim::simulate_account(&tables, &ddbsim::RunOptions::default())
    };
    let r = run("max_table_operations = 1\n");
    let refused: Vec<_> = r[1].events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).collect();
    assert_eq!(refused.len(), 1, "{:?}", r[1].events);
    assert_eq!((refused[0].time_s, refused[0].dimension), (120, None));
    assert!(
        refused[0].detail.contains("limit of 1 table operations in flight in the Region is reached (1: payments 0, table orders 1)"),
        "{}",
        refused[0].detail
    );
    assert!(r[0].events.iter().any(|e| e.action == CapacityAction::SetCapacity && e.time_s == 660));
    let r = run("");
    assert!(r.iter().all(|x| !x.events.iter().any(|e| e.action == CapacityAction::RefusedQuota)));
    assert!(r[1].events.iter().any(|e| e.action == CapacityAction::SetCapacity && e.new == 30_000.0));
}

/// The table-level quota holds on-demand too: an on-demand table pre-warmed to 60,000 WRU/s and
/// asked 50,000 writes a second of 1 KB. Under AWS's default 40,000, about 10,000 a second
/// are throttled by the quota (AccountLimit); with `[account] table_max_write_capacity_units =
/// 60000` none are; a `capacity.table_quota` stated (45,000) is the table's own and wins.
#[test]
fn the_table_level_quota_holds_on_demand() {
    let events = |account: &str, quota: &str| {
        let sc = scenario(&format!(
            "[scenario]\nduration = \"2m\"\n[table]\nname = \"T\"\npartition_key = \"k\"\n\
             capacity = {{ mode = \"on_demand\", warm_write = 60000{quota} }}\n[keys.k]\ncardinality = 1000000\n\
             [[pattern]]\nname = \"put\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = {{ constant = 50000 }}\n{account}"
        ));
        let r = run(&sc);
        let per = |reason: ddbsim::Reason| -> u64 { r.resources[0].minutes.iter().map(|m| m.throttle_events[reason as usize][1]).sum() };
        (per(ddbsim::Reason::AccountLimit), r.resources[0].minutes.iter().map(|m| m.events(Dim::Write)).sum::<u64>())
    };
    let (quota, _) = events("", "");
    // 10,000 over the quota a second for 120 s, first attempts alone; retries add more.
    assert!(quota >= 1_000_000, "{quota}");
    let (quota, all) = events("[account]\ntable_max_write_capacity_units = 60000\n", "");
    assert_eq!((quota, all), (0, 0));
    let (quota, _) = events("[account]\ntable_max_write_capacity_units = 60000\n", ", table_quota = 45000");
    assert!(quota >= 500_000, "{quota}");
}
