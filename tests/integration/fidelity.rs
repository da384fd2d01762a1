//! The accuracy gate of docs/performance.md: fast-mode throttle counts within Monte Carlo noise
//! of exact mode (|z| < 2 over 30 seeds) on a hot key at 1.5x the partition cap, a partition at
//! 1.05x its capacity with no burst credit at the start, and a short spike. (The gate's first
//! form, 0.9x, no longer throttles at all: a continuously refilled bucket holding a second of
//! capacity absorbs a Poisson load 10 % below its rate.)

use super::scenario;
use ddbsim::scenario::{Fidelity, Scenario};
use ddbsim::{simulate, RunOptions};

const SEEDS: u64 = 30;

fn throttled(sc: &Scenario, f: Fidelity, seed: u64) -> f64 {
    let r = simulate(sc, &RunOptions { seed: Some(seed), fidelity: Some(f), ..RunOptions::default() });
    r.patterns.iter().map(|p| p.throttled_attempts as f64).sum()
}

fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    (m, xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0))
}

fn z(sc: &Scenario) -> (f64, f64, f64) {
    let fast: Vec<f64> = (0..SEEDS).map(|s| throttled(sc, Fidelity::Fast, 1_000 + s)).collect();
    let exact: Vec<f64> = (0..SEEDS).map(|s| throttled(sc, Fidelity::Exact, 2_000 + s)).collect();
    let (mf, vf) = mean_var(&fast);
    let (me, ve) = mean_var(&exact);
    let se = (vf / SEEDS as f64 + ve / SEEDS as f64).sqrt().max(1e-9);
    ((mf - me) / se, mf, me)
}

fn check(name: &str, text: &str) {
    let (z, mf, me) = z(&scenario(text));
    assert!(me > 0.0, "{name}: the scenario must throttle");
    assert!(z.abs() < 2.0, "{name}: fast {mf:.1} vs exact {me:.1} throttled attempts, z = {z:.2}");
}

#[test]
fn hot_key_at_one_and_a_half_times_the_cap() {
    check("hot key", include_str!("../fixtures/agreement/hot-key.toml"));
}

#[test]
fn partition_just_above_capacity_without_burst() {
    check("1.05x", include_str!("../fixtures/agreement/just-above.toml"));
}

#[test]
fn short_spike() {
    check("spike", include_str!("../fixtures/agreement/spike.toml"));
}
