//! Several tables as one account: one clock, each table's second in turn (in the order
//! given, so the run is deterministic), and the Region's account-level quota on provisioned
//! capacity shared by the tables of each Region ([`crate::scenario::AccountSpec`]).
//!
//! Before a table's second, it is told what every other table of its Region holds of the
//! quota: the tables before it as of this second, those after it as of the second before. A
//! table alone runs exactly as [`super::simulate`] runs it.

use super::{RunOptions, RunResult, Simulation};
use crate::scenario::Scenario;

/// Runs `tables` as one account with `opts` (each table its own seed, unless `opts` gives
/// one), to the longest table's duration; each table's result, in order.
#[must_use]
pub fn simulate_account(tables: &[Scenario], opts: &RunOptions) -> Vec<RunResult> {
    let mut sims: Vec<Simulation<'_>> = tables.iter().map(|sc| Simulation::new(sc, opts)).collect();
    let region = |i: usize| &tables[i].pricing.region;
    // Per table: the tables of its Region, by position.
    let peers: Vec<Vec<usize>> = (0..sims.len()).map(|i| (0..sims.len()).filter(|&j| j != i && region(j) == region(i)).collect()).collect();
    for (i, sim) in sims.iter_mut().enumerate() {
        sim.table.others = peers[i].iter().map(|&j| (tables[j].table.name.clone(), [0; 2])).collect();
    }
    let tell = |sims: &mut [Simulation<'_>], i: usize| {
        let held: Vec<[u64; 2]> = peers[i].iter().map(|&j| sims[j].table.held_units()).collect();
        for (o, h) in sims[i].table.others.iter_mut().zip(held) {
            o.1 = h;
        }
    };
    for i in 0..sims.len() {
        tell(&mut sims, i);
        sims[i].start();
    }
    let longest = sims.iter().map(|s| s.run.duration_s).max().unwrap_or(0);
    let mut live = vec![true; sims.len()];
    for s in 0..longest {
        for i in 0..sims.len() {
            if !live[i] || s >= sims[i].run.duration_s {
                continue;
            }
            tell(&mut sims, i);
            live[i] = sims[i].step(s);
            if live[i] && s + 1 == sims[i].run.duration_s {
                sims[i].end();
                live[i] = false;
            }
        }
    }
    sims.into_iter().map(Simulation::finish).collect()
}
