//! `recommend` against the baseline it must beat: a random search of 256 auto-scaling
//! settings (target, floor and ceiling drawn at random, each simulated), the method of the
//! community scaling simulator.

use ddbsim::cost::Catalog;
use ddbsim::study::recommend::{apply, random_search, recommend, Mode, Modes, RecommendOptions, Settings};
use ddbsim::{RunOptions, SimDuration};
use std::path::Path;

fn options() -> RecommendOptions {
    RecommendOptions {
        run: RunOptions { duration: Some(SimDuration::from_secs(6 * 3_600)), ..RunOptions::default() },
        ..RecommendOptions::default()
    }
}

/// On six hours of diurnal-staircase: the search finds an auto-scaling setting at least as
/// cheap as the best of 256 random ones within the same 0.1 % limit, with at most a quarter
/// of the simulations (64), and its pick (reservations included) is no dearer; the same seed
/// gives the same recommendation.
#[test]
fn recommend_beats_256_random_candidates_with_a_quarter_of_the_runs() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/diurnal-staircase.toml")).unwrap();
    let catalog = Catalog::builtin();
    let o = options();
    let rec = recommend(&sc, &catalog, &o);
    assert!(rec.simulations <= 64, "{} simulations", rec.simulations);
    let random = random_search(&sc, &catalog, &o, 256, 7).expect("some random setting is within the limit");
    let auto =
        rec.best_by_mode.iter().find(|(m, _)| *m == Mode::Autoscaling).map(|(_, i)| &rec.candidates[*i]).expect("an auto-scaling setting");
    assert!(matches!(auto.settings, Settings::Autoscaling { .. }));
    eprintln!("search: ${:.2} a month in {} simulations; random: ${random:.2} in 256", auto.monthly_usd, rec.simulations);
    assert!(auto.monthly_usd <= random * 1.0001, "search ${:.2} vs random ${random:.2}", auto.monthly_usd);
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert!(pick.monthly_usd <= auto.monthly_usd && pick.throttled_share <= 0.001);
    let again = recommend(&sc, &catalog, &o);
    assert_eq!(serde_json::to_string(&rec).unwrap(), serde_json::to_string(&again).unwrap());
}

/// The fixed-capacity search: on a constant load, the cheapest fixed capacity within the
/// limit is at least the load's units (a table below its demand throttles far more than
/// 0.1 %) and within one bisection step (1/64 of the range 0.25-2 of the peak) above it.
/// quickstart-like: 500 writes/s of 1 KB on a table that starts empty of burst credit.
#[test]
fn fixed_capacity_is_found_at_the_demand() {
    let sc = ddbsim::scenario::parse_str(
        r#"
[scenario]
duration = "30m"
[table]
partition_key = "k"
capacity = { mode = "provisioned", read = 10, write = 10 }
initial_burst = "empty"
[keys.k]
cardinality = 1000000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = { constant = 500 }
"#,
        Path::new("t.toml"),
    )
    .unwrap();
    let rec = recommend(&sc, &Catalog::builtin(), &RecommendOptions::default());
    let best = rec.best_by_mode.iter().find(|(m, _)| *m == Mode::Provisioned).map(|(_, i)| &rec.candidates[*i]).unwrap();
    let Settings::Provisioned { units } = &best.settings else { panic!() };
    // The peak minute's demand of a Poisson 500/s is a little above 500 (about 500 + 3 sigma
    // of a minute's mean); one step of the bisection is (2 - 0.25) / 64 of it, about 14 WCU.
    assert!((500..=540).contains(&units[0][1]), "{units:?}");
}

/// Giving up candidates once their throttled share is sure to end above the limit changes
/// nothing the recommendation says (every candidate simulated, no screen): on six hours of
/// diurnal-staircase, with and without it,
/// the same candidates are tried (the bisections take the same turns), every complete one has
/// the same figures, the pick, the best of each mode and the front are the same, and every
/// candidate given up ends, simulated in full, above the limit with at least the share it had
/// reached.
#[test]
fn giving_up_over_limit_candidates_changes_no_decision() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/diurnal-staircase.toml")).unwrap();
    let catalog = Catalog::builtin();
    let engine = RecommendOptions { screen: false, ..options() };
    let quick = recommend(&sc, &catalog, &engine);
    let full = recommend(&sc, &catalog, &RecommendOptions { give_up: false, ..engine });
    let given_up: Vec<usize> = (0..quick.candidates.len()).filter(|&i| !quick.candidates[i].complete).collect();
    assert!(!given_up.is_empty(), "the search tries candidates over the limit");
    assert!(full.candidates.iter().all(|c| c.complete));
    assert_eq!(quick.candidates.len(), full.candidates.len());
    for (q, f) in quick.candidates.iter().zip(&full.candidates) {
        assert_eq!(q.settings, f.settings);
        assert_eq!(q.within_limit, f.within_limit);
        if q.complete {
            assert_eq!((q.monthly_usd, q.throttled_share, q.failed_requests), (f.monthly_usd, f.throttled_share, f.failed_requests));
        } else {
            assert!(!f.within_limit && f.throttled_share >= q.throttled_share, "{} vs {}", q.throttled_share, f.throttled_share);
        }
    }
    assert_eq!((quick.pick, &quick.best_by_mode), (full.pick, &full.best_by_mode));
    let complete_front: Vec<usize> = full.front.iter().copied().filter(|i| quick.candidates[*i].complete).collect();
    assert_eq!(quick.front, complete_front);
}

/// A nightly batch on a quiet table: 50 writes/s all day and 1,000 more from 02:00 to 02:30
/// UTC, three days. Target tracking cannot follow a jump of 20x within a minute (it waits for
/// two alarm datapoints), so without a schedule the floor must carry the batch all day; the
/// search sees the jump recur each day and schedules a floor for the hour 02:00-03:00 at the
/// batch's peak minute at the target: about 1,050 WCU (1,050 writes/s of 1 KB) / target,
/// raised at 01:45 and set back at 03:00 every day; the base floor then carries only the 50
/// writes/s. It is the cheapest auto-scaling setting, and the budget and modes hold.
#[test]
fn a_daily_batch_gets_a_scheduled_floor() {
    let sc = ddbsim::scenario::parse_str(
        r#"
[scenario]
duration = "3d"
start = "2026-11-01T00:00:00Z"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[[pattern]]
name = "steady"
op = "put_item"
item_bytes = 1000
rate = { constant = 50 }
[[pattern]]
name = "batch"
op = "put_item"
item_bytes = 1000
rate = { steps = [["0s", 0], ["2h", 1000], ["150m", 0], ["26h", 1000], ["1590m", 0], ["50h", 1000], ["3030m", 0]] }
"#,
        Path::new("t.toml"),
    )
    .unwrap();
    let modes = Modes { on_demand: false, provisioned: false, autoscaling: true, reserved: false };
    let o = RecommendOptions { modes, budget: Some(24), ..RecommendOptions::default() };
    let rec = recommend(&sc, &Catalog::builtin(), &o);
    assert!(rec.simulations <= 24, "{} simulations", rec.simulations);
    assert_eq!(rec.best_by_mode.iter().map(|(m, _)| *m).collect::<Vec<_>>(), [Mode::Autoscaling]);
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    let Settings::Autoscaling { target, daily, .. } = &pick.settings else { panic!("{:?}", pick.settings) };
    assert_eq!(daily.len(), 1, "{}", pick.description);
    let f = &daily[0];
    assert_eq!((f.from_min, f.to_min), (120, 180));
    // A minute's rate has a standard deviation of sqrt(1,050 x 60) / 60 = 4.2 writes/s; the
    // peak of 90 minutes is within 4 of them above the mean.
    let want = 1_050.0 * 100.0 / target;
    let within = want..=want + 4.0 * 4.2 * 100.0 / target + 1.0;
    assert!(within.contains(&(f.min[0][1] as f64)), "floor {} for {want}", f.min[0][1]);
    assert_eq!(f.min[0][0], 0, "reads do not jump");
    let mut undaily =
        rec.candidates.iter().filter(|c| c.within_limit && matches!(&c.settings, Settings::Autoscaling { daily, .. } if daily.is_empty()));
    assert!(undaily.clone().count() > 0 && undaily.all(|c| c.monthly_usd > pick.monthly_usd));
    // The scenario it describes: the raise at 01:45 and the floor set back at 03:00, each day.
    let applied = apply(&sc, &pick.settings).unwrap();
    let times: Vec<u64> = applied.actions.iter().map(|a| a.time.as_secs()).collect();
    let day = 86_400;
    assert_eq!(times, [6_300, 10_800, day + 6_300, day + 10_800, 2 * day + 6_300, 2 * day + 10_800]);
    // `--emit cli` (issue 60): the same floor as Application Auto Scaling's daily scheduled
    // actions, raised at 01:45 UTC and set back at 03:00 to the base floor, on the writes only.
    let Settings::Autoscaling { min, .. } = &pick.settings else { unreachable!() };
    let script = ddbsim::report::emit::aws_cli(&rec, &sc).unwrap();
    let t = &sc.table.name;
    for (name, cron, floor) in [("raise-0145", "cron(45 1 * * ? *)", f.min[0][1]), ("lower-0300", "cron(0 3 * * ? *)", min[0][1])] {
        let want = format!(
            "--scalable-dimension dynamodb:table:WriteCapacityUnits --scheduled-action-name {t}-write-{name} --schedule '{cron}' \
             --scalable-target-action MinCapacity={floor} --region us-east-1"
        );
        assert!(script.contains(&want), "{want}\n{script}");
    }
    assert_eq!(script.matches("put-scheduled-action").count(), 2, "{script}");
    assert!(script.contains(&format!("--policy-name {t}-write-target-tracking --policy-type TargetTrackingScaling")));
    aws_accepts(&script);
}

/// Every `aws` line of `script` passes the AWS CLI's own parameter validation: run against a
/// closed local endpoint, each fails only to connect. The same check fails a broken call.
fn aws_accepts(script: &str) {
    if !crate::have("aws") {
        return;
    }
    let run = crate::aws_offline;
    let lines: Vec<&str> = script.lines().filter(|l| l.starts_with("aws ")).collect();
    assert!(!lines.is_empty(), "{script}");
    for line in &lines {
        let err = run(line);
        assert!(err.contains("Could not connect to the endpoint URL"), "{line}\n{err}");
    }
    let broken = run(&lines[0].replace(" --region", " --no-such-option 1 --region"));
    assert!(!broken.contains("Could not connect"), "{broken}");
}

/// `--emit cli` of a provisioned pick for a table and its GSI: one update-table with the
/// index's throughput; of an on-demand pick on a table that auto-scales: the scalable targets
/// deregistered, then PAY_PER_REQUEST.
#[test]
fn emit_cli_gives_the_update_table_of_each_mode() {
    let text = |capacity: &str, extra: &str, gsi: &str| {
        format!(
            "[scenario]\nduration = \"1h\"\n[table]\nname = \"Orders\"\npartition_key = \"k\"\ncapacity = {capacity}\n{extra}\n\
             [keys.k]\ncardinality = 1000000\n[keys.s]\ncardinality = 1000\n[[gsi]]\nname = \"ByStatus\"\npartition_key = \"s\"\n{gsi}\n\
             [[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = {{ constant = 100 }}\n"
        )
    };
    let sc = ddbsim::scenario::parse_str(&text("{ mode = \"on_demand\" }", "", ""), Path::new("t.toml")).unwrap();
    let modes = Modes { on_demand: false, provisioned: true, autoscaling: false, reserved: false };
    let rec = recommend(&sc, &Catalog::builtin(), &RecommendOptions { modes, budget: Some(6), ..RecommendOptions::default() });
    let Settings::Provisioned { units } = &rec.candidates[rec.pick.unwrap()].settings else { panic!() };
    let script = ddbsim::report::emit::aws_cli(&rec, &sc).unwrap();
    let want = format!(
        "aws dynamodb update-table --table-name Orders --billing-mode PROVISIONED --provisioned-throughput ReadCapacityUnits={},\
         WriteCapacityUnits={} --global-secondary-index-updates '[{{\"Update\":{{\"IndexName\":\"ByStatus\",\"ProvisionedThroughput\":\
         {{\"ReadCapacityUnits\":{},\"WriteCapacityUnits\":{}}}}}}}]' --region us-east-1",
        units[0][0], units[0][1], units[1][0], units[1][1]
    );
    assert!(script.contains(&want), "{want}\n{script}");
    aws_accepts(&script);
    let scaled = "autoscaling = { read = { min = 5, max = 100, target = 70 }, write = { min = 5, max = 500, target = 70 } }";
    let provisioned = "{ mode = \"provisioned\", read = 5, write = 200 }";
    let sc = ddbsim::scenario::parse_str(&text(provisioned, scaled, "capacity = { read = 5, write = 200 }"), Path::new("t.toml")).unwrap();
    let modes = Modes { on_demand: true, provisioned: false, autoscaling: false, reserved: false };
    let rec = recommend(&sc, &Catalog::builtin(), &RecommendOptions { modes, budget: Some(4), ..RecommendOptions::default() });
    let script = ddbsim::report::emit::aws_cli(&rec, &sc).unwrap();
    assert!(script.contains("deregister-scalable-target --service-namespace dynamodb --resource-id table/Orders --scalable-dimension dynamodb:table:ReadCapacityUnits"), "{script}");
    assert!(script.contains("aws dynamodb update-table --table-name Orders --billing-mode PAY_PER_REQUEST --region us-east-1"), "{script}");
    aws_accepts(&script);
}

/// The screen, by hand: 500 writes/s of 1 KB (1 WCU) for 30 minutes is 500 WCU/s a minute.
/// On 400 WCU with no burst credit 100 of every 500 units are throttled: 20 %. With the credit
/// full (300 s x 400 = 120,000 units) the 100 a second of deficit drain it in 1,200 s, so
/// 600 s x 100 = 60,000 of 900,000 units are throttled: 1/15.
#[test]
fn the_screen_throttles_what_capacity_and_burst_credit_cannot_carry() {
    use ddbsim::study::screen::{screen, Demand};
    let text = |burst: &str| {
        format!(
            "[scenario]\nduration = \"30m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 10, write = 400 }}\n\
             initial_burst = \"{burst}\"\n[keys.k]\ncardinality = 1000000\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = {{ constant = 500 }}\n"
        )
    };
    let sc = crate::scenario(&text("empty"));
    let d = Demand::of(&sc, 1_800).unwrap();
    assert_eq!(d.units[0].len(), 30);
    assert!(d.units[0].iter().all(|m| (m[1] - 500.0).abs() < 1e-9 && m[0] == 0.0));
    assert!((screen(&sc, &d).throttled_share - 0.2).abs() < 1e-12);
    let sc = crate::scenario(&text("full"));
    assert!((screen(&sc, &d).throttled_share - 1.0 / 15.0).abs() < 1e-12);
}

/// Screened, the engine simulates on-demand and the pick only; the pick is a simulated
/// candidate within the limit, and the screen's on-demand bill (units x price, no throttling)
/// is the simulation's within 1 % (Poisson arrivals around the same rates).
#[test]
fn a_screened_search_simulates_its_pick() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/diurnal-staircase.toml")).unwrap();
    let catalog = Catalog::builtin();
    let rec = recommend(&sc, &catalog, &options());
    assert!(rec.simulations <= 1 + 4, "{}", rec.simulations);
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert!(!pick.screened && pick.within_limit && pick.complete);
    assert!(rec.candidates.iter().filter(|c| c.screened).count() >= 20);
    let od = &rec.candidates[0];
    assert!(!od.screened);
    let screened_od = ddbsim::study::screen::screen(
        &ddbsim::study::recommend::apply(&sc, &Settings::OnDemand).unwrap(),
        &ddbsim::study::screen::Demand::of(&sc, 6 * 3_600).unwrap(),
    );
    let b = ddbsim::bill(&screened_od.usage, &catalog, &ddbsim::BillOptions::default());
    assert!((b.monthly_rate_usd() / od.monthly_usd - 1.0).abs() < 0.01, "{} vs {}", b.monthly_rate_usd(), od.monthly_usd);
}

/// `recommend` judges as `run` judges: a candidate holds only if both its throttled attempts
/// and its failed requests are within their limits. One SDK client (a 500-token retry quota,
/// 5 tokens a throttled retry: 100 retries, then every throttled request fails at once) on
/// 1,000 writes/s of 1 KB; the throttle limit is raised to 20 % so that throttling alone would
/// accept a table at 0.9 x its demand (the window is an event, so a table below its demand may
/// spend burst credit: a sustained window would refuse it for that first). Such candidates are rejected for their failed requests
/// alone, most of them lost to the empty quota, and the pick fails at most 0.1 % of requests.
#[test]
fn a_candidate_that_fails_requests_does_not_hold() {
    let sc = ddbsim::scenario::parse_str(
        r#"
[scenario]
duration = "20m"
window = "event"
[table]
partition_key = "k"
capacity = { mode = "on_demand" }
[keys.k]
cardinality = 1000000
[[pattern]]
name = "w"
op = "put_item"
item_bytes = 1000
rate = { constant = 1000 }
[client]
retry = "sdk-2026"
instances = 1
"#,
        Path::new("quota.toml"),
    )
    .unwrap();
    let o = RecommendOptions {
        max_throttle: 0.2,
        max_failed: 0.001,
        modes: Modes { on_demand: true, provisioned: true, autoscaling: false, reserved: false },
        screen: false,
        give_up: false,
        ..RecommendOptions::default()
    };
    let rec = recommend(&sc, &Catalog::builtin(), &o);
    let alone: Vec<_> = rec.candidates.iter().filter(|c| c.throttled_share <= 0.2 && c.failed_share > 0.001).collect();
    assert!(!alone.is_empty(), "some candidate throttles within 20 % but fails requests: {:#?}", rec.candidates);
    for c in &alone {
        assert!(!c.within_limit, "{c:?}");
        assert!(c.failed_by_retry_quota > 0, "the quota is what fails them: {c:?}");
    }
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert!(pick.failed_share <= 0.001 && pick.throttled_share <= 0.2, "{pick:?}");
    let text = ddbsim::Render::text(&rec);
    assert!(text.contains("rejected for failed requests alone") && text.contains("retry quota"), "{text}");
}

/// Issue 44's table: 42 million items, two GSIs and an LSI, a day at ~1,300 RCU/s and
/// ~1,000 WCU/s. Its item collections cannot come near 1 GB in a day (the busiest of 41.9
/// million Zipf 0.8 values takes ~0.6 % of the writes), so none is tracked: the guard accepts a
/// day's `recommend` without `--force` (it refused 1.69 GiB), the run draws every second in
/// bulk as it does without the LSI, and the pick fails at most 0.1 % of requests.
#[test]
fn an_imported_lsi_table_is_recommended_without_force() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/imported-lsi-day.toml")).unwrap();
    let e = ddbsim::guard::check_work(&sc, &RunOptions::default(), ddbsim::guard::Work::compare(10)).expect("no --force needed");
    assert!(e.memory_bytes < 256e6, "{} bytes estimated", e.memory_bytes);
    let two_hours = RunOptions { duration: Some(SimDuration::from_secs(2 * 3_600)), ..RunOptions::default() };
    let with = ddbsim::simulate(&sc, &two_hours);
    let mut bare = sc.clone();
    bare.lsis.clear();
    let without = ddbsim::simulate(&bare, &two_hours);
    assert_eq!(with.bulk_seconds, without.bulk_seconds, "the LSI forces no second to be replayed");
    assert_eq!(with.bulk_seconds, 7_200);
    let o = RecommendOptions { run: two_hours, ..RecommendOptions::default() };
    let rec = recommend(&sc, &Catalog::builtin(), &o);
    let pick = &rec.candidates[rec.pick.expect("a pick")];
    assert!(pick.failed_share <= 0.001 && pick.throttled_share <= 0.001, "{pick:?}");
}

/// Issue 46: `recommend` reserved capacity for a year from a 15-minute launch (quickstart) and
/// from one day of an event, while `compare` on the same window priced none. A reservation is
/// offered only on a window that repeats and covers a day's shape; otherwise the output says why.
#[test]
fn reservations_need_a_repeating_day() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/quickstart.toml")).unwrap();
    let rec = recommend(&sc, &Catalog::builtin(), &RecommendOptions::default());
    assert!(rec.candidates.iter().all(|c| !matches!(c.settings, Settings::Reserved { .. })), "{:#?}", rec.candidates);
    let why = rec.reservation_note.as_deref().expect("the output says why");
    assert!(why.contains("not offered"), "{why}");
    // The same traffic stated as repeating, over a day: a reservation may be priced.
    let mut day = sc.clone();
    day.pricing.extrapolate = true;
    day.duration = SimDuration::from_secs(86_400);
    let o = RecommendOptions { budget: Some(4), ..RecommendOptions::default() };
    let rec = recommend(&day, &Catalog::builtin(), &o);
    assert!(rec.reservation_note.is_none(), "{:?}", rec.reservation_note);
    // A steady day: the pick is the reservation, and it says what it was sized on (issue 60).
    let pick = rec.pick.expect("a pick");
    assert!(matches!(rec.candidates[pick].settings, Settings::Reserved { .. }), "{:?}", rec.candidates[pick]);
    let basis = "warning: the 1-year reservation is sized on 24 h of history; a commitment wants a week or more \
                 (`ddbsim import --days 14`) to show the traffic repeats";
    assert_eq!(rec.reservation_basis.as_deref(), Some(basis));
    assert!(ddbsim::Render::text(&rec).contains(basis));
    assert_eq!(ddbsim::study::recommend::reservation_basis(14 * 86_400, 3), "the 3-year reservation is sized on 14 days of history");
}

/// Issue 46: `recommend` for one table shows the setting in force beside the pick, on the same
/// traffic. steady-provisioned's own 5,000 RCU / 1,000 WCU bill by hand at 5,000 x 730 x
/// $0.00013 + 1,000 x 730 x $0.00065 + 100 GB x $0.25 = $974.00 a month.
#[test]
fn the_setting_in_force_is_shown_beside_the_pick() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/steady-provisioned.toml")).unwrap();
    // Simulated whether the search screens its candidates (the default) or simulates them all.
    for screen in [true, false] {
        let o = RecommendOptions { budget: Some(4), screen, give_up: screen, ..RecommendOptions::default() };
        let rec = recommend(&sc, &Catalog::builtin(), &o);
        assert!(rec.today.description.starts_with("provisioned 5000 RCU / 1000 WCU"), "{}", rec.today.description);
        assert!((rec.today.monthly_usd - 974.00).abs() < 0.01, "{}", rec.today.monthly_usd);
        assert!(rec.today.holds && rec.today.failed_requests == 0 && rec.today.throttle_events == 0);
        let text = ddbsim::Render::text(&rec);
        assert!(text.contains("provisioned 5000 RCU / 1000 WCU") && text.contains("$974.00 a month"), "{text}");
        assert!(text.contains("against today: saves") || text.contains("against today: costs"), "{text}");
    }
}

/// The setting in force that cannot hold says so: 500 writes/s of 1 KB on 250 WCU, simulated
/// to the window's end whatever the search gives up (what `run` would say of it): about half
/// the requests fail, most to the one client's empty retry quota.
#[test]
fn a_setting_in_force_that_cannot_hold_says_so() {
    let sc = ddbsim::scenario::parse_str(
        "[scenario]\nduration = \"2h\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 10, write = 250 }\n\
         initial_burst = \"empty\"\n[keys.k]\ncardinality = 1000000\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 1000\nrate = { constant = 500 }\n",
        Path::new("half.toml"),
    )
    .unwrap();
    let o = RecommendOptions { budget: Some(3), ..RecommendOptions::default() };
    let rec = recommend(&sc, &Catalog::builtin(), &o);
    let t = &rec.today;
    assert!(!t.holds && t.failed_share > 0.3 && t.throttle_events > 0, "{t:?}");
    let r = ddbsim::simulate(&sc, &ddbsim::RunOptions::default());
    assert_eq!(t.failed_requests, r.totals().failed, "today is the run's own figure");
    let text = ddbsim::Render::text(&rec);
    assert!(text.contains("today: provisioned 10 RCU / 250 WCU") && text.contains("does not hold"), "{text}");
}

/// Every candidate that lost says why, one of each kind on spiky-batch: a simulated one over
/// the limit names the minute, resource and `ThrottlingReasons` reason with the most events
/// (its `worst`), with its shares; a screened one over the limit says the figure is the
/// screen's; one that holds names the dollars a month by which the pick beat it, its cost
/// less the pick's. The pick has none. The CSV carries the same text.
#[test]
fn every_losing_candidate_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let o = super::ddbsim(&["recommend", "scenarios/spiky-batch.toml", "--json", "--out", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pick = d["pick"].as_u64().expect("a pick") as usize;
    let cands = d["candidates"].as_array().unwrap();
    let pick_usd = cands[pick]["monthly_usd"].as_f64().unwrap();
    assert!(cands[pick]["why_not"].is_null());
    let usd = |x: f64| {
        let cents = (x * 100.0).round() as u64;
        let whole = cents / 100;
        let grouped = if whole >= 1000 { format!("{},{:03}", whole / 1000, whole % 1000) } else { whole.to_string() };
        format!("${grouped}.{:02}", cents % 100)
    };
    let (mut over, mut screened, mut dearer) = (0, 0, 0);
    for (i, c) in cands.iter().enumerate().filter(|(i, _)| *i != pick) {
        let why = c["why_not"].as_str().unwrap_or_else(|| panic!("candidate {i} has no why_not"));
        if c["within_limit"] == false && c["screened"] == false {
            let w = &c["worst"];
            let reason = w["reason"].as_str().unwrap();
            assert!(reason.ends_with("ThroughputExceeded") || reason.ends_with("LimitExceeded"), "{reason}");
            let minute = ddbsim::format::clock(1_767_225_600, w["second"].as_u64().unwrap());
            assert!(
                why.starts_with("over the limit: ")
                    && why.contains(&format!("most in the minute from {minute} on {}", w["resource"].as_str().unwrap()))
                    && why.contains(reason),
                "{why}"
            );
            over += 1;
        } else if c["within_limit"] == false {
            assert!(why.starts_with("over the limit by the per-minute screen's estimate: "), "{why}");
            screened += 1;
        } else if c["monthly_usd"].as_f64().unwrap() - pick_usd >= 0.005 {
            let m = c["monthly_usd"].as_f64().unwrap();
            assert!(
                why.starts_with(&format!("holds, but {} a month dearer than the pick", usd(m - pick_usd))),
                "{why} ({m} vs {pick_usd})"
            );
            dearer += 1;
        }
    }
    assert!(over > 0 && screened > 0 && dearer > 0, "{over} {screened} {dearer}");
    let csv = std::fs::read_to_string(dir.path().join("recommend.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",why_not") && csv.contains("holds, but $"), "{}", &csv[..300]);
}

/// `recommend DIR` pools reserved capacity across a region's tables (the hand-worked figures
/// are `pool::tests`'): three copies of a steady provisioned table, a day each, get one
/// reservation whose saving is at least the three separate ones', and the text says by how
/// much; a table whose window differs is named and left out.
#[test]
fn a_region_of_tables_pools_its_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("scenarios/steady-provisioned.toml").unwrap();
    for t in ["a", "b", "c"] {
        std::fs::write(dir.path().join(format!("{t}.toml")), text.replace("name = \"Steady\"", &format!("name = \"Steady-{t}\""))).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let out = dir.path().join("out");
    let o = super::ddbsim(&["recommend", d, "--budget", "4", "--duration", "24h", "--json", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = &r["pools"][0];
    assert_eq!(p["tables"].as_array().unwrap().len(), 3, "{r}");
    let (pooled, separate, saves) = (
        p["pooled_saving_monthly_usd"].as_f64().unwrap(),
        p["separate_saving_monthly_usd"].as_f64().unwrap(),
        p["pooling_saves_monthly_usd"].as_f64().unwrap(),
    );
    assert!(separate > 0.0 && pooled >= separate - 1e-9 && (saves - (pooled - separate)).abs() < 1e-9, "{p}");
    let o = super::ddbsim(&["recommend", d, "--budget", "4", "--duration", "24h", "--out", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("reserving table by table saves"), "{text}");
    // Each table's setting today, whether it holds, the pick and whether it holds (issue 60); the
    // pooled reservation says it replaces the tables' own.
    assert!(text.contains("today's setting") && text.contains("provisioned 5000 RCU / 1000 WCU"), "{text}");
    assert_eq!(text.matches("holds (0.000 % throttled)").count(), 6, "{text}");
    assert!(text.contains("It replaces the reservations of these tables in the rows above: buy this one instead of theirs"), "{text}");
}
