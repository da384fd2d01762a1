//! Credit is not capacity (issue 62): a setting that holds a window only on burst credit or GSI
//! absorption says so, and a sustained window's pick holds without them. Every figure is
//! worked by hand from spec §3 (300 s of provisioned capacity banked) and the gsi-cascade
//! scenario: 500 puts/s of 800 bytes (1 WCU each), each writing one keys-only entry (1 WCU)
//! to ByCategory, for 10 minutes.

use ddbsim::cost::Catalog;
use ddbsim::report::Summary;
use ddbsim::study::recommend::{recommend, Modes, RecommendOptions, Settings};
use ddbsim::study::sustain::ReserveKind;
use ddbsim::{simulate, RunOptions};
use std::path::Path;

fn cascade(window: &str) -> ddbsim::Scenario {
    let text = std::fs::read_to_string("scenarios/gsi-cascade.toml").unwrap();
    let text = text.replace("seed = 61\n", &format!("seed = 61\nwindow = \"{window}\"\n"));
    ddbsim::scenario::parse_str(&text, Path::new("scenarios/gsi-cascade.toml")).unwrap()
}

fn provisioned_only() -> RecommendOptions {
    RecommendOptions {
        modes: Modes { on_demand: false, provisioned: true, autoscaling: false, reserved: false },
        ..RecommendOptions::default()
    }
}

fn units(s: &Settings) -> Vec<[u64; 2]> {
    match s {
        Settings::Provisioned { units } => units.clone(),
        other => panic!("not provisioned: {other:?}"),
    }
}

/// The fixed-capacity bisection over k in [0.25, 2] of the 500 WCU/s peak (6 steps, `2`
/// first): 1.125 (563 WCU) holds sustained; 0.6875 (344) holds the window only on credit
/// (it spends 156 WCU/s of its 103,200 units); 0.90625 (454: 46/s, 27,600 units, 20 % of its
/// credit) and 0.9609375 (481) and 0.98828125 (495: 3,000 units, over 1 % of 148,500) spend
/// it too; 1.015625 holds: ceil(500 x 1.015625) = 508 WCU on the table and the GSI, the
/// sustained pick (8 WCU above the load is the engine's Poisson margin: the credit stays within
/// 1 % of full). The cheaper credit-only candidate shown beside it is 344 WCU.
#[test]
fn a_sustained_window_picks_the_load_and_shows_the_credit_only_setting_beside_it() {
    let sc = cascade("sustained");
    let rec = recommend(&sc, &Catalog::builtin(), &provisioned_only());
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert_eq!(units(&pick.settings), vec![[1, 508], [1, 508]], "{}", pick.description);
    assert!(pick.sustained && pick.on_credit.is_none() && !pick.screened);
    let alt = &rec.candidates[rec.on_credit_alternative.expect("a cheaper credit-only candidate")];
    assert_eq!(units(&alt.settings), vec![[1, 344], [1, 344]], "{}", alt.description);
    assert!(!alt.screened && !alt.within_limit && alt.throttled_share <= 0.001 && alt.monthly_usd < pick.monthly_usd);
    // 344 WCU under 500 writes/s: 156 units a second over 600 s = 93,600 of 103,200 units of
    // credit (90.7 %), 9,600 left: 62 s more at that rate, on the table first (the GSI absorbs
    // 60,000 units more after its credit).
    let c = alt.on_credit.as_ref().unwrap();
    let table = c.spent.iter().find(|s| s.resource == "Products").expect("the table's credit spent");
    assert_eq!(table.reserve, ReserveKind::WriteCredit);
    assert!((0.88..0.94).contains(&table.share), "{}", table.share);
    assert!((45.0..75.0).contains(&c.lasts_s), "{}", c.lasts_s);
    let gsi = c.spent.iter().find(|s| s.resource == "ByCategory").expect("the index's credit spent");
    // (9,600 + 60,000) / 156 = 446 s.
    assert!((400.0..500.0).contains(&gsi.lasts_s), "{}", gsi.lasts_s);
    assert!(alt.why_not.as_deref().unwrap().contains("only on credit"), "{:?}", alt.why_not);
}

/// An event from a rested table may spend the credit: the pick is 344 WCU (the bisection's
/// first holding step below 563), with what it spent.
#[test]
fn an_event_window_keeps_the_credit_pick_with_its_note() {
    let sc = cascade("event");
    let rec = recommend(&sc, &Catalog::builtin(), &provisioned_only());
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert_eq!(units(&pick.settings), vec![[1, 344], [1, 344]], "{}", pick.description);
    assert!(!pick.sustained && pick.on_credit.is_some());
    assert_eq!(rec.on_credit_alternative, None);
    let text = ddbsim::report::Render::text(&rec);
    assert!(text.contains("the pick holds on credit"), "{text}");
}

/// `run` on the 344 WCU setting holds, and its verdict says on what: the table's write credit
/// about 91 % spent, about a minute left at the window's rate.
#[test]
fn a_held_run_says_it_held_on_credit() {
    let mut sc = cascade("sustained");
    sc.table.capacity = ddbsim::scenario::CapacitySpec::Provisioned { read: 100, write: 344 };
    sc.gsis[0].capacity = ddbsim::scenario::CapacitySpec::Provisioned { read: 100, write: 344 };
    let r = simulate(&sc, &RunOptions::default());
    let s = Summary::new(&sc, &r, &Catalog::builtin());
    assert!(s.verdict.held);
    let text = s.verdict.to_text();
    assert!(text.contains("held on credit, not capacity: Products' write burst credit 9"), "{text}");
    assert!(text.contains("finds the cheapest setting that holds it sustained"), "{text}");
    // 1,000 WCU on both (today's table, the GSI raised): nothing spent, nothing said.
    sc.table.capacity = ddbsim::scenario::CapacitySpec::Provisioned { read: 100, write: 1000 };
    sc.gsis[0].capacity = ddbsim::scenario::CapacitySpec::Provisioned { read: 100, write: 1000 };
    let r = simulate(&sc, &RunOptions::default());
    let s = Summary::new(&sc, &r, &Catalog::builtin());
    assert!(s.verdict.held && s.on_credit.is_none(), "{:?}", s.on_credit);
    assert!(!s.verdict.to_text().contains("on credit"));
}

/// The reserves a run records: a table that starts with full credit and takes nothing ends
/// with it (300 s x 100 RCU = 30,000 units, in milli-units); one that starts empty begins at 0
/// and, at 50 RCU/s of reads under 100 RCU, banks 50 a second.
#[test]
fn runs_record_the_credit_at_start_and_end() {
    let text = |burst: &str| {
        format!(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 100, write = 100 }}\ninitial_burst = \"{burst}\"\n[keys.k]\ncardinality = 100000\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nitem_bytes = 4000\nconsistency = \"strong\"\nrate = {{ constant = 50 }}\n"
        )
    };
    let full = simulate(&crate::scenario(&text("full")), &RunOptions::default());
    let [start, end] = full.table().reserves;
    assert_eq!(start.credit[0].banked, 30_000_000);
    assert_eq!(end.credit[0].banked, 30_000_000);
    assert_eq!(start.credit[1].cap, 30_000_000);
    let empty = simulate(&crate::scenario(&text("empty")), &RunOptions::default());
    let [start, end] = empty.table().reserves;
    assert_eq!(start.credit[0].banked, 0);
    // 60 s at about 50 unused RCU a second: about 3,000 units (Poisson arrivals).
    assert!((2_500_000..3_500_000).contains(&end.credit[0].banked), "{}", end.credit[0].banked);
    assert_eq!(end.credit[1].banked, 6_000_000, "no writes: 100 WCU banked for 60 s");
}
