//! Every simulation `check` makes, so the guard can refuse a check before it starts, as it
//! refuses `run` and `recommend`.

use super::rules::shards::{MAX_SHARDS, SHARD_REPLICATIONS, SHARD_SEARCH};
use super::{burst_scenario, peaks, soak_scenario, steady_scenario, Phase};
use crate::guard::{Knob, Work};

/// `check`'s option that lowers its work (its lengths are in `[check]`).
const KNOBS: &[Knob] = &[Knob::FidelityFast];
use crate::scenario::{Scenario, Shards};

/// One simulation of a check, what it is for and the work it is.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// What it is, for a message: "the steady phase (1 h)".
    pub label: String,
    /// The scenario simulated.
    pub scenario: Scenario,
    /// How many run at once and how many results are kept.
    pub work: Work,
}

/// The simulations `check` makes of `sc` with `phases`: the phases (run at once), the
/// scenario's own shape for its whole duration (the rules that price a fix re-simulate it and
/// keep up to three results: as it is, auto scaled and on-demand) and the shard search (every
/// shard count, replicated, on the study's threads).
#[must_use]
pub fn simulations(sc: &Scenario, phases: &[Phase]) -> Vec<Simulation> {
    let peaks = peaks(sc);
    let length = |s: &Scenario| crate::format::window(s.duration.as_secs());
    let mut phase_runs = vec![("steady phase", steady_scenario(sc, &peaks))];
    if phases.contains(&Phase::Burst) {
        phase_runs.push(("burst phase", burst_scenario(sc, &peaks)));
    }
    if phases.contains(&Phase::Soak) {
        phase_runs.push(("soak phase", soak_scenario(sc)));
    }
    let at_once = Work::replications(phase_runs.len() as u64).with_knobs(KNOBS);
    let mut out: Vec<Simulation> = phase_runs
        .into_iter()
        .map(|(what, s)| Simulation { label: format!("the {what} ({})", length(&s)), scenario: s, work: at_once })
        .collect();
    out.push(Simulation {
        label: format!("the review's re-simulation of the scenario's own traffic ({})", length(sc)),
        scenario: sc.clone(),
        work: Work { concurrent: 1, held: 3, points: 0, charts: false, knobs: KNOBS },
    });
    for ks in 0..sc.key_spaces.len() {
        let mut s = steady_scenario(sc, &peaks);
        s.duration = SHARD_SEARCH;
        let random = sc.key_spaces[ks].shards.is_none_or(|x| x.random);
        s.key_spaces[ks].shards = Some(Shards { count: MAX_SHARDS, random });
        let counts = u64::from(MAX_SHARDS.ilog2()) + 1;
        out.push(Simulation {
            label: format!("the shard search of key space {} ({})", sc.key_spaces[ks].name, length(&s)),
            scenario: s,
            work: Work::sweep(counts, counts * SHARD_REPLICATIONS).with_knobs(KNOBS),
        });
    }
    out
}
