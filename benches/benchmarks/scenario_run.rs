//! Whole-scenario benchmarks: the headline scenario of docs/performance.md (50,000 requests/s,
//! Zipf keys, 1,000 partitions) in both fidelities. Throughput is in simulated requests.

use criterion::{criterion_group, Criterion, SamplingMode, Throughput};
use ddbsim::{parse_str, simulate, Fidelity, RunOptions, Scenario, SimDuration};
use std::hint::black_box;
use std::path::Path;

/// The headline scenario of docs/performance.md, as bundled.
pub(crate) const HEADLINE: &str = include_str!("../../scenarios/headline.toml");

fn headline() -> Scenario {
    parse_str(HEADLINE, Path::new("headline.toml")).expect("headline scenario")
}

fn run(sc: &Scenario, f: Fidelity, secs: u64) -> u64 {
    let r = simulate(sc, &RunOptions { fidelity: Some(f), duration: Some(SimDuration::from_secs(secs)), ..RunOptions::default() });
    r.totals().attempts
}

fn bench_headline(c: &mut Criterion) {
    let sc = headline();
    let mut g = c.benchmark_group("headline");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    // Fast: the whole 24 h (4.32 G requests).
    g.throughput(Throughput::Elements(50_000 * 86_400));
    g.bench_function("fast_24h", |b| b.iter(|| black_box(run(&sc, Fidelity::Fast, 86_400))));
    // Exact: 10 simulated minutes (30 M requests); the 24 h figure scales linearly.
    g.throughput(Throughput::Elements(50_000 * 600));
    g.bench_function("exact_10m", |b| b.iter(|| black_box(run(&sc, Fidelity::Exact, 600))));
    g.finish();
}

fn variant(text: &str) -> Scenario {
    parse_str(text, Path::new("variant.toml")).expect("variant scenario")
}

/// The headline with a write pattern maintaining a GSI and auto scaling on the table.
fn bench_variants(c: &mut Criterion) {
    let with = HEADLINE.replace("split_for_heat = false", "split_for_heat = false\nautoscaling = { policy = \"aws\", read = { min = 100000, max = 4000000, target = 70 } }")
        + "\n[keys.g]\ncardinality = 100000\n[[gsi]]\nname = \"G\"\npartition_key = \"g\"\nprojection = \"keys_only\"\ncapacity = { read = 100, write = 20000 }\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 900\nrate = { constant = 5000 }\nindex_writes = { G = \"insert\" }\n";
    let sc = variant(&with.replace("write = 1 }", "write = 20000 }"));
    let mut g = c.benchmark_group("variants");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.throughput(Throughput::Elements(55_000 * 3_600));
    g.bench_function("fast_1h_gsi_autoscaling", |b| b.iter(|| black_box(run(&sc, Fidelity::Fast, 3_600))));
    g.finish();
}

/// Growth: fast mode against simulated duration; exact mode against the partition count.
fn bench_growth(c: &mut Criterion) {
    let sc = headline();
    let mut g = c.benchmark_group("growth");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    for hours in [1u64, 2] {
        g.throughput(Throughput::Elements(50_000 * 3_600 * hours));
        g.bench_function(format!("fast_{hours}h"), |b| b.iter(|| black_box(run(&sc, Fidelity::Fast, 3_600 * hours))));
    }
    // One minute shows the set-up of 100,000 partitions; ten, the cost of a second.
    for minutes in [1u64, 10] {
        for (label, rcu) in [("100", 300_000u64), ("100k", 300_000_000)] {
            let s = variant(&HEADLINE.replace("read = 3000000", &format!("read = {rcu}")));
            g.throughput(Throughput::Elements(50_000 * 60 * minutes));
            g.bench_function(format!("exact_{minutes}m_{label}_partitions"), |b| {
                b.iter(|| black_box(run(&s, Fidelity::Exact, 60 * minutes)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench_headline, bench_variants, bench_growth);
