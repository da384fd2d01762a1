//! Cost by capacity mode (spec §10): the bill of a run and `compare`'s pick, against dollars
//! worked out by hand in the scenario files' comments.

use ddbsim::compare::{compare, CompareOptions};
use ddbsim::cost::Catalog;
use ddbsim::engine::{simulate, RunOptions};
use ddbsim::report::Summary;
use ddbsim::scenario::load;
use std::path::Path;

fn pick(file: &str) -> ddbsim::compare::Comparison {
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
    assert!((s.cost.monthly_usd - 974.00).abs() < 0.005, "{}", s.cost.monthly_usd);
    let c = pick("scenarios/steady-provisioned.toml");
    let od = c.rows.iter().find(|r| r.mode == "on_demand").unwrap();
    // Poisson traffic over an hour: within 0.2 % of the expected request count.
    assert!((od.monthly_usd / 2_324.50 - 1.0).abs() < 0.002, "{}", od.monthly_usd);
    let fixed = c.rows.iter().find(|r| r.mode == "provisioned_fixed").unwrap();
    assert!((974.0..1_000.0).contains(&fixed.monthly_usd), "{}", fixed.monthly_usd);
    assert_eq!(c.pick.as_deref(), Some("reserved_1y"));
}

#[test]
fn spiky_batch_picks_on_demand() {
    let c = pick("scenarios/spiky-batch.toml");
    assert_eq!(c.pick.as_deref(), Some("on_demand"));
    // Auto scaling is cheaper but throttles most of each batch.
    let aws = c.rows.iter().find(|r| r.mode == "autoscaling_aws").unwrap();
    assert!(aws.throttled_attempt_share > 0.5);
}

#[test]
fn flat_heavy_picks_reserved_capacity() {
    let c = pick("scenarios/flat-heavy.toml");
    assert_eq!(c.pick.as_deref(), Some("reserved_1y"));
    let reserved = c.rows.iter().find(|r| r.mode == "reserved_1y").unwrap();
    // 142 blocks of 100 RCU x $30 + 42 blocks of 100 WCU x $150.
    assert!((reserved.upfront_usd - (142.0 * 30.0 + 42.0 * 150.0)).abs() < 1e-9, "{}", reserved.upfront_usd);
}

/// Cold archive: 2,000 GB of storage is $500 a month on Standard and $200 on Standard-IA, so
/// the cheapest mode with the IA class wins.
#[test]
fn cold_archive_picks_standard_ia() {
    let c = pick("scenarios/cold-archive.toml");
    let p = c.pick.clone().unwrap();
    assert!(p.ends_with("+standard_ia"), "{p}");
    let ia = c.rows.iter().find(|r| r.mode == p).unwrap();
    let storage: f64 = ia.bill.lines.iter().filter(|l| l.component == "storage").map(|l| l.cost_usd).sum();
    assert!((storage * 730.0 - 200.0).abs() < 0.01, "{}", storage * 730.0);
}

#[test]
fn the_report_flags_unverified_prices() {
    let c = pick("scenarios/cold-archive.toml");
    assert!(c.unverified_prices.contains(&"ia_storage_gb_month".to_string()));
    assert!(c.to_table().contains("unverified prices"));
    assert!(!c.unverified_prices.contains(&"storage_gb_month".to_string()), "Standard storage is a documented price");
}
