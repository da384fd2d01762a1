//! Every file in scenarios/ loads and runs briefly, in both fidelities.

use ddbsim::scenario::{load, Fidelity};
use ddbsim::SimDuration;
use ddbsim::{simulate, RunOptions};

#[test]
fn every_bundled_scenario_loads_and_runs() {
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir("scenarios").unwrap().map(|e| e.unwrap().path()).collect();
    entries.extend(std::fs::read_dir("scenarios/imported").unwrap().map(|e| e.unwrap().path()));
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let sc = load(&path).unwrap_or_else(|e| panic!("{e}"));
        for f in [Fidelity::Fast, Fidelity::Exact] {
            let d = sc.duration.min(SimDuration::from_secs(120));
            let r = simulate(&sc, &RunOptions { fidelity: Some(f), duration: Some(d), record_partitions: true, ..RunOptions::default() });
            let offered: u64 = r.patterns.iter().map(|p| p.offered).sum();
            let settled: u64 = r.patterns.iter().map(|p| p.served + p.failed() + p.pending_at_end).sum();
            assert_eq!(offered, settled, "{}: every request is served, failed or pending", path.display());
        }
        n += 1;
    }
    assert!(n >= 5, "found {n} scenarios");
}
