//! What the engine fuzz target checks of a scenario text: it validates or is refused with
//! located problems; a valid one is estimated and guarded; one the guard accepts runs (cut to a
//! small budget of requests and partition-seconds) and its result keeps the model's invariants,
//! bills to finite non-negative dollars, renders, and replays to the same result.
//!
//! Shared by the fuzz target `engine` and by `tests/integration/fuzz_corpus.rs`.

use ddbsim::report::{Render, RunReport};
use ddbsim::scenario::{parse_str, Fidelity, RateFactors, RateShape, Scenario};
use ddbsim::study::check;
use ddbsim::{bill_of, guard, simulate, Catalog, RunOptions, RunResult, ScenarioError, SimDuration};
use std::path::Path;

/// What became of one input.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The validator refused it.
    Invalid,
    /// The guard refused it.
    Refused,
    /// It ran; every invariant held.
    Ran,
}

/// Most requests a fuzzed run simulates (the duration is cut to keep under it).
const BUDGET_REQUESTS: f64 = 5e4;
/// Most partition-seconds a fuzzed run simulates.
const BUDGET_PARTITION_SECONDS: f64 = 5e5;

/// Checks one scenario text; panics (with the text) when an invariant breaks.
pub fn exercise(text: &str) -> Outcome {
    let sc = match parse_str(text, Path::new("fuzz/fuzz.toml")) {
        Ok(sc) => sc,
        Err(ScenarioError::Invalid { problems, .. }) => {
            assert!(!problems.is_empty(), "refused without a problem:\n{text}");
            for p in &problems {
                assert!(p.line >= 1 && p.column >= 1 && !p.message.is_empty(), "an unlocated problem {p:?}:\n{text}");
            }
            return Outcome::Invalid;
        }
        Err(e) => panic!("unexpected error {e}:\n{text}"),
    };
    let mut opts = RunOptions { record_partitions: true, ..RunOptions::default() };
    let e = match guard::check(&sc, &opts) {
        Ok(e) => e,
        Err(_) => return Outcome::Refused,
    };
    assert!(e.memory_bytes.is_finite() && e.memory_bytes > 0.0, "estimate {e:?}:\n{text}");
    let cut = (BUDGET_REQUESTS / e.requests.max(1.0)).min(BUDGET_PARTITION_SECONDS / e.partition_seconds.max(1.0));
    if cut < 1.0 {
        let secs = ((sc.duration.as_secs() as f64 * cut) as u64).max(1);
        opts.duration = Some(SimDuration::from_secs(secs));
    }
    let r = simulate(&sc, &opts);
    invariants(&r, text);
    same_rates(&sc, &r, text);
    let again = simulate(&sc, &opts);
    assert_eq!(format!("{:?}", r.patterns), format!("{:?}", again.patterns), "not deterministic:\n{text}");
    assert_eq!(
        r.resources.iter().map(|x| &x.minutes).collect::<Vec<_>>(),
        again.resources.iter().map(|x| &x.minutes).collect::<Vec<_>>(),
        "not deterministic:\n{text}"
    );
    assert_eq!(r.partitions, again.partitions, "not deterministic:\n{text}");
    let catalog = Catalog::builtin().with_overrides(&sc.pricing.overrides);
    let b = bill_of(&sc, &r, &catalog);
    assert!(b.total_usd.is_finite() && b.total_usd >= 0.0, "bill {}:\n{text}", b.total_usd);
    for l in &b.lines {
        assert!(l.cost_usd.is_finite() && l.cost_usd >= 0.0, "bill line {l:?}:\n{text}");
    }
    let report = RunReport::new(&sc, &r, &catalog, false);
    assert!(!report.text().is_empty());
    Outcome::Ran
}

/// `run` and `check` offer the same rates: each open-loop pattern's requests are its shape
/// times its `scale_rate` timeline, second by second, within Poisson noise; and `check`'s plan
/// puts each pattern at least at the highest rate the run offers it.
fn same_rates(sc: &Scenario, r: &RunResult, text: &str) {
    let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
    let peaks = check::peaks(sc);
    for (j, p) in sc.patterns.iter().enumerate() {
        if matches!(p.rate, RateShape::ClosedLoop(_)) {
            continue;
        }
        let factors = RateFactors::of(sc, j);
        let rate = |s: u64| factors.rate(&p.rate, s, sod);
        // Each request drawn becomes `fanout` requests: a Poisson count times the fan-out.
        let fanout = p.fanout(&sc.key_spaces) as f64;
        let expected: f64 = (0..r.duration_s).map(rate).sum::<f64>() * fanout;
        let offered = r.patterns[j].offered as f64;
        assert!(
            (offered - expected).abs() <= 8.0 * (expected * fanout).sqrt() + 20.0 * fanout,
            "pattern {} offered {offered} requests, its shape and scale_rate timeline {expected:.1}:\n{text}",
            p.name
        );
        if sc.check.peak.is_none() {
            let most = (0..sc.duration.as_secs()).map(rate).fold(0.0, f64::max);
            let plan = peaks[j].expect("an open-loop pattern has a peak");
            assert!(plan >= most * (1.0 - 1e-9), "check plans pattern {} at {plan}/s, the run offers up to {most}/s:\n{text}", p.name);
        }
    }
}

/// The model's invariants over one run.
fn invariants(r: &RunResult, text: &str) {
    for p in &r.patterns {
        assert_eq!(p.served + p.failed() + p.pending_at_end, p.offered, "requests lost {p:?}:\n{text}");
        assert!(p.throttled_attempts <= p.attempts, "{p:?}:\n{text}");
        assert!(p.throttled_requests <= p.offered + p.pending_at_end, "{p:?}:\n{text}");
        assert!(p.attempts >= p.served + p.failed_exhausted, "{p:?}:\n{text}");
    }
    let minutes = r.duration_s.div_ceil(60) as usize;
    for res in &r.resources {
        assert!(res.minutes.len() <= minutes, "{} has {} minutes of {minutes}:\n{text}", res.name, res.minutes.len());
        for w in res.minutes.windows(2) {
            assert!(w[1].partitions >= w[0].partitions, "partitions merged in {}:\n{text}", res.name);
            assert!(w[1].warm[0] >= w[0].warm[0] && w[1].warm[1] >= w[0].warm[1], "warm throughput fell in {}:\n{text}", res.name);
        }
        for m in &res.minutes {
            assert!(m.consumed[0] <= m.requested[0] && m.consumed[1] <= m.requested[1], "consumed more than requested {m:?}:\n{text}");
            assert!(m.provisioned_seconds <= 60, "{m:?}:\n{text}");
        }
    }
    for p in &r.partitions {
        // A partition's bucket holds a second of its cap and refills at the cap: a minute admits
        // at most 61 seconds' worth; eventually consistent reads cost it 2/3 (ec_read_fanout
        // 1.5, 333 of 500 milli-units).
        assert!(p.consumed[0] <= 3_000_000 * 61 / 100 * 151 && p.consumed[1] <= 1_000_000 * 61, "a partition over its cap {p:?}:\n{text}");
    }
    for w in r.events.windows(2) {
        assert!(w[1].time_s >= w[0].time_s, "events out of order:\n{text}");
    }
    let exact = r.fidelity == Fidelity::Exact;
    assert!(exact || r.bulk_seconds + r.replayed_seconds == r.duration_s, "seconds lost:\n{text}");
}
