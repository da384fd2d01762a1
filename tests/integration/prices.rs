//! A bill per built-in region against a figure its source worked (docs/prices-verified.md,
//! whose source IDs S1–S19 each catalog cites): a month of provisioned capacity, storage and
//! point-in-time recovery, priced by `ddbsim`'s own bill on the region's catalog.

use ddbsim::cost::{BillComponent, Catalog};
use ddbsim::report::Summary;
use ddbsim::{simulate, RunOptions};
use std::path::Path;

/// A month's cost of each line: an hour simulated with `extrapolate = "repeat"`, so the bill
/// is the hour's times 730.
fn monthly(region: &str, read: u64, write: u64, storage_gb: u64, extra: &str) -> Vec<(BillComponent, f64)> {
    let text = format!(
        "[scenario]\nduration = \"1h\"\nseed = 1\n\n[pricing]\nregion = \"{region}\"\nextrapolate = \"repeat\"\n\n\
         [table]\nname = \"T\"\npartition_key = \"id\"\ncapacity = {{ mode = \"provisioned\", read = {read}, write = {write} }}\n\
         storage_gb = {storage_gb}\n{extra}\n[keys.id]\ncardinality = 1000\n\n\
         [[pattern]]\nname = \"read\"\nop = \"get_item\"\nrate = {{ constant = 1 }}\n"
    );
    let sc = ddbsim::scenario::parse_str(&text, Path::new("prices.toml")).unwrap();
    let r = simulate(&sc, &RunOptions::default());
    let s = Summary::new(&sc, &r, &Catalog::for_region(region).unwrap());
    s.cost.lines.iter().map(|l| (l.component, l.cost_usd * 730.0 / s.cost.window_hours)).collect()
}

fn line(lines: &[(BillComponent, f64)], c: BillComponent) -> f64 {
    lines.iter().filter(|(x, _)| *x == c).map(|(_, usd)| usd).sum()
}

/// us-east-2, S1 (Infracost's golden file, priced from the Price List): 20 WCU $9.49 a month,
/// 30 RCU $2.85, 230 GB $57.50.
#[test]
fn us_east_2_bills_as_infracosts_golden_file() {
    let m = monthly("us-east-2", 30, 20, 230, "");
    assert!((line(&m, BillComponent::Writes) - 9.49).abs() < 0.005, "{m:?}");
    assert!((line(&m, BillComponent::Reads) - 2.85).abs() < 0.005, "{m:?}");
    assert!((line(&m, BillComponent::Storage) - 57.50).abs() < 1e-6, "{m:?}");
}

/// us-east-1 and us-west-2: S3/S8 and S19b give the same rates — 100 WCU x 730 h x $0.00065 =
/// $47.45, 100 RCU x 730 x $0.00013 = $9.49, 100 GB x $0.25 = $25.00, PITR 100 GB x $0.20
/// (S4, S11) = $20.00.
#[test]
fn us_east_1_and_us_west_2_bill_at_the_us_rates() {
    for region in ["us-east-1", "us-west-2"] {
        let m = monthly(region, 100, 100, 100, "[table.backups]\npitr = true\n");
        for (c, want) in
            [(BillComponent::Writes, 47.45), (BillComponent::Reads, 9.49), (BillComponent::Storage, 25.0), (BillComponent::Pitr, 20.0)]
        {
            assert!((line(&m, c) - want).abs() < 0.005, "{region} {c:?}: {m:?}");
        }
    }
}

/// eu-west-1: S10a's Price List SKUs, $0.000735 a WCU-hour and $0.000147 an RCU-hour (100 of
/// each: $53.655 and $10.731 a month); S4 and S10b's storage $0.283 and PITR $0.22 a GB-month
/// (100 GB: $28.30 and $22.00 — the ratio gave $28.27 and $22.62).
#[test]
fn eu_west_1_bills_at_its_price_list_readings() {
    let m = monthly("eu-west-1", 100, 100, 100, "[table.backups]\npitr = true\n");
    for (c, want) in
        [(BillComponent::Writes, 53.655), (BillComponent::Reads, 10.731), (BillComponent::Storage, 28.30), (BillComponent::Pitr, 22.0)]
    {
        assert!((line(&m, c) - want).abs() < 0.0005, "{c:?}: {m:?}");
    }
}

/// eu-central-1: S4 and S5, storage $0.306 and PITR $0.2448 a GB-month (100 GB: $30.60 and
/// $24.48); ap-northeast-1: S6, $0.285 and $0.228 ($28.50 and $22.80); ap-southeast-1: AWS's
/// tool (S7), $0.00074 a WCU-hour and $0.000148 an RCU-hour (100 of each: $54.02 and $10.804).
#[test]
fn europe_and_asia_bill_at_their_sources_rates() {
    let m = monthly("eu-central-1", 100, 100, 100, "[table.backups]\npitr = true\n");
    assert!((line(&m, BillComponent::Storage) - 30.60).abs() < 1e-6 && (line(&m, BillComponent::Pitr) - 24.48).abs() < 1e-6, "{m:?}");
    let m = monthly("ap-northeast-1", 100, 100, 100, "[table.backups]\npitr = true\n");
    assert!((line(&m, BillComponent::Storage) - 28.50).abs() < 1e-6 && (line(&m, BillComponent::Pitr) - 22.80).abs() < 1e-6, "{m:?}");
    let m = monthly("ap-southeast-1", 100, 100, 0, "");
    assert!((line(&m, BillComponent::Writes) - 54.02).abs() < 0.0005 && (line(&m, BillComponent::Reads) - 10.804).abs() < 0.0005, "{m:?}");
}

/// DAX: three dax.r5.large nodes for a 730-hour month at $0.255 = $558.45, the AWS Pricing
/// Calculator capture S2 reconciled (us-east-2); us-east-1's node price is the same (S8, S9).
#[test]
fn a_dax_cluster_bills_at_the_corrected_node_price() {
    for region in ["us-east-1", "us-east-2"] {
        let m = monthly(region, 100, 100, 0, "\n[dax]\nnode_type = \"dax.r5.large\"\nnodes = 3\n");
        let dax = line(&m, BillComponent::Dax);
        assert!((dax - 558.45).abs() < 0.005, "{region}: {m:?}");
    }
}

/// us-east-2 sells no 3-year reserved capacity (S7's CHANGELOG, S2): `compare` refuses the
/// term with the reason, and `recommend` prices no reservation and says why.
#[test]
fn a_us_east_2_three_year_reservation_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("scenarios/steady-provisioned.toml").unwrap();
    let path = dir.path().join("east2.toml");
    std::fs::write(&path, text.replace("[pricing]\n", "[pricing]\nregion = \"us-east-2\"\n")).unwrap();
    let p = path.to_str().unwrap();
    let o = super::ddbsim(&["compare", p, "--reserved-term", "3", "--out", dir.path().join("c").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("AWS sells no 3-year reserved capacity in us-east-2"), "{err}");
    // A day, so that a reservation would otherwise be priced.
    let out = dir.path().join("r");
    let o = super::ddbsim(&[
        "recommend",
        p,
        "--reserved-term",
        "3",
        "--budget",
        "4",
        "--duration",
        "24h",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        r["reservation_note"].as_str().is_some_and(|n| n.contains("AWS sells no 3-year reserved capacity in us-east-2")),
        "{}",
        r["reservation_note"]
    );
    let reserving = |r: &serde_json::Value| {
        r["candidates"].as_array().unwrap().iter().filter(|c| c["description"].as_str().unwrap().contains("reserved")).count()
    };
    assert_eq!(reserving(&r), 0);
    // The same table in us-east-1, where the 3-year term is sold, gets a reservation priced.
    let o = super::ddbsim(&[
        "recommend",
        "scenarios/steady-provisioned.toml",
        "--reserved-term",
        "3",
        "--budget",
        "4",
        "--duration",
        "24h",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(r["reservation_note"].is_null() && reserving(&r) > 0, "{r}");
}
