//! The seed documents' designs, bundled as scenarios, hold what their comments say: each
//! figure a comment quotes is bounded here by the arithmetic of the rule behind it (the
//! comments give ddbsim's own figures; these tests give the hand-worked reason for them).

use super::run_summary;
use ddbsim::cost::Catalog;
use ddbsim::scenario::load;
use ddbsim::study::check::{check, CheckOptions, Phase};
use ddbsim::CapacityAction;
use ddbsim::RunOptions;
use std::path::Path;

fn within(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= want.abs() * rel
}

/// capacity-template.toml, the design skill's formula at 2x: a resource can serve at most its
/// provisioned units for the hour plus the 300 seconds of burst credit it starts with.
/// EmailIndex: 3 RCU x (3,600 + 300) = 11,700 RCU, each keys-only lookup 0.5 RCU (rounded up to
/// 4 KB, eventually consistent): 23,400 of about 360,000 lookups, so 93.5 % fail. Its 1 WCU
/// and 300 units of credit take 3,900 entries in the hour; the other ~3,300 of the 7,200
/// sign-ups (2/s) are absorbed (spec §16: a debt far under the 60,000-unit bound), so every
/// sign-up is served and the index consumes one unit for each. The table's
/// 390 RCU serve 390 x 3,900 = 1,521,000 RCU. The formula would have said 1.25 RCU for the
/// lookups; DynamoDB's rounding needs 50.
#[test]
fn the_capacity_template_at_twice_its_formula_fails_the_email_lookups() {
    let sc = load(Path::new("scenarios/capacity-template.toml")).unwrap();
    // The items are sized from their schemas (worked in the file's comments): 1,536 and 300.
    let size = |name: &str| sc.entities.iter().find(|e| e.name == name).unwrap().size;
    assert_eq!((size("User"), size("OrgMember")), (ddbsim::scenario::SizeSpec::Fixed(1_536), ddbsim::scenario::SizeSpec::Fixed(300)));
    let s = run_summary(&sc);
    let p = |name: &str| s.patterns.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no pattern {name}"));
    let r = |name: &str| s.resources.iter().find(|r| r.name == name).unwrap();
    assert!(within(r("EmailIndex").consumed_rcu, 11_700.0, 0.002), "{}", r("EmailIndex").consumed_rcu);
    let email = &p("user-by-email").requests;
    assert!(within(email.served as f64, 23_400.0, 0.002), "{}", email.served);
    let failed = email.failed as f64 / email.offered as f64;
    assert!((0.93..0.94).contains(&failed), "{failed}");
    let signup = &p("sign-up").requests;
    assert!(signup.served == signup.offered && signup.served > 7_000, "{} of {}", signup.served, signup.offered);
    assert!(within(r("EmailIndex").consumed_wcu, signup.served as f64, 1e-12), "one 1-WCU entry a sign-up");
    assert!(within(r("Users").consumed_rcu, 1_521_000.0, 0.002), "{}", r("Users").consumed_rcu);
    // The formula's rounding is on the side of the TimeIndex reads (20 RCU needed, 38 given).
    assert_eq!(p("recent-users").requests.failed, 0);
    // Table-level throttling over even keys: no value of a million is "the hottest key" (the
    // busiest takes a thousandth of a request a second), so the verdict names none.
    let w = s.verdict.lines.iter().find(|l| l.topic.name() == "where").expect("a where line");
    assert!(w.text.starts_with("Users (table) reads: partition 0 took 100.0 % of the throttle events"), "{}", w.text);
    assert!(!w.text.contains("hottest key"), "{}", w.text);
    // The throttle events are mostly the table's, the failures worst on the email lookups:
    // the verdict names the pattern that failed most.
    let f = s.verdict.lines.iter().find(|l| l.text.starts_with("failed: ")).expect("a failed line");
    assert!(f.text.ends_with(&format!("the most failed: user-by-email, {} of its requests", "93.5 %")), "{}", f.text);
}

/// online-index-backfill.toml (pitfall #3): 5,000,000 entries at the 1,000 WCU the live
/// updates (400/s, one index write each) leave, 600/s: 8,333 s after the index is added at
/// 600 s, so active near 8,933 s (Poisson arrivals move it by a few seconds). Every query of
/// the index before then fails: 50/s x 8,933 s.
#[test]
fn the_backfilled_index_is_readable_when_its_backfill_ends() {
    let sc = load(Path::new("scenarios/online-index-backfill.toml")).unwrap();
    let s = run_summary(&sc);
    let active = s.capacity_events.iter().find(|e| e.action == CapacityAction::GsiActive).expect("the index becomes active");
    assert!(within(active.time_s as f64, 600.0 + 5_000_000.0 / 600.0, 0.002), "{}", active.time_s);
    let q = s.patterns.iter().find(|p| p.name == "documents-by-owner").unwrap();
    assert!(within(q.failed_index_not_ready as f64, 50.0 * active.time_s as f64, 0.01), "{}", q.failed_index_not_ready);
    assert_eq!(q.requests.failed, q.failed_index_not_ready);
}

/// over-indexed.toml (pitfall #5): every put writes the table and each of the eight ALL GSIs
/// with the same units (the entry is the whole item), so each index consumes exactly the
/// table's write units, and stores as much: 9x.
#[test]
fn eight_all_projection_indexes_cost_nine_times_the_writes() {
    let sc = load(Path::new("scenarios/over-indexed.toml")).unwrap();
    let s = run_summary(&sc);
    let table = s.resources[0].consumed_wcu;
    assert!(table > 0.0);
    assert_eq!(s.resources.len(), 9);
    for g in &s.resources[1..] {
        assert_eq!(g.consumed_wcu, table, "{}", g.name);
    }
    // 2,048-byte items: 2 WCU a put.
    assert_eq!(table, 2.0 * s.patterns[0].requests.served as f64);
}

/// load-test-plan.toml: the skill's plan finds its own pitfall #2. The TimeIndex is keyed on
/// status (active 90 %, inactive 7 %, suspended 3 %) over 5 partitions: the partition holding
/// `active` (and, by the hash, `inactive`) serves 97 % of its units, 0.97 x 5 = 4.85 times the
/// mean, beyond the plan's 20 %; the base table's 5 partitions share 20 million even keys
/// within 1 %. Steady and soak pass; the 2x burst takes the TimeIndex above its 292 WCU while
/// its auto scaling lags, and the index absorbs it (spec §16: at most ~117 units a second for
/// 5 minutes, ~35,000 units, under its partitions' 60,000-unit bound): the burst passes, with
/// a gsi-back-pressure warning that says so.
#[test]
fn the_load_test_plan_finds_the_status_index() {
    let sc = load(Path::new("scenarios/load-test-plan.toml")).unwrap();
    let o = CheckOptions { phases: Phase::ALL.to_vec(), base: RunOptions::default() };
    let c = check(&sc, &o, &Catalog::builtin()).0;
    let phase = |ph: Phase| c.phases.iter().find(|p| p.phase == ph).unwrap();
    assert!(phase(Phase::Steady).passed && phase(Phase::Soak).passed);
    assert!(phase(Phase::Burst).passed);
    assert!(c.findings.iter().any(|f| f.id == "gsi-back-pressure"
        && f.resource.as_deref() == Some("TimeIndex")
        && f.severity == ddbsim::study::check::Severity::Warn));
    let d = phase(Phase::Distribution);
    assert!(!d.passed);
    let spread = |res: &str, dim: &str| d.spread.iter().find(|s| s.resource == res && s.dimension.name() == dim).unwrap();
    let t = spread("TimeIndex", "write");
    assert_eq!(t.partitions, 5);
    assert!(within(t.max_over_mean, 0.97 * 5.0, 0.01), "{}", t.max_over_mean);
    assert!(spread("Users", "read").max_over_mean < 1.01 && spread("Users", "write").max_over_mean < 1.02);
}
