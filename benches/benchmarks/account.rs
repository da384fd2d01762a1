//! An account of ten tables (issue 57): the headline's load ten times over, 4 simulated hours
//! each, run as one account (`simulate_account`: one clock, each table's second in turn, the
//! Region's quota shared) against the same ten tables run one after another. The target: the
//! account within 1.2 times the ten runs.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::{parse_str, simulate, simulate_account, RunOptions, Scenario, SimDuration};
use std::hint::black_box;
use std::path::Path;

fn ten() -> Vec<Scenario> {
    (0..10)
        .map(|i| {
            let text = super::scenario_run::HEADLINE.replacen("name = \"headline\"", &format!("name = \"headline{i}\""), 2);
            parse_str(&text, Path::new("headline.toml")).expect("valid")
        })
        .collect()
}

fn bench_account(c: &mut Criterion) {
    let mut tables = ten();
    ddbsim::scenario::join_account(&mut tables).expect("ten tables of distinct names");
    let opts = RunOptions { duration: Some(SimDuration::from_secs(4 * 3_600)), ..RunOptions::default() };
    let mut g = c.benchmark_group("account");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("ten_tables_as_one_account_4h", |b| b.iter(|| black_box(simulate_account(&tables, &opts).len())));
    g.bench_function("ten_tables_one_by_one_4h", |b| {
        b.iter(|| black_box(tables.iter().map(|t| simulate(t, &opts).duration_s).sum::<u64>()))
    });
    g.finish();
}

criterion_group!(benches, bench_account);
