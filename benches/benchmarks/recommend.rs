//! `recommend` on 14 days of one table: a diurnal table (reads 100-800/s, writes 40-250/s)
//! with a nightly 30-minute batch of 1,500 writes/s, the shape of the import round-trip test.
//! Target (issue 13): one recommendation in at most 10 s on 2 cores.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::study::recommend::{recommend, RecommendOptions};
use ddbsim::Catalog;
use std::path::Path;

fn fourteen_days() -> ddbsim::Scenario {
    let mut steps = String::new();
    for d in 0..14 {
        steps.push_str(&format!("[\"{}m\", 1500], [\"{}m\", 0], ", (d * 24 + 2) * 60, (d * 24 + 2) * 60 + 30));
    }
    let text = format!(
        r#"
[scenario]
duration = "14d"
start = "2026-11-01T00:00:00Z"
[table]
name = "Orders"
partition_key = "k"
capacity = {{ mode = "provisioned", read = 800, write = 300 }}
[keys.k]
cardinality = 10000000
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 1024
consistency = "strong"
rate = {{ diurnal = {{ min = 100, max = 800, peak = "15:00" }} }}
[[pattern]]
name = "write"
op = "put_item"
item_bytes = 1024
rate = {{ diurnal = {{ min = 40, max = 250, peak = "15:00" }} }}
[[pattern]]
name = "batch"
op = "put_item"
item_bytes = 1024
rate = {{ steps = [["0s", 0], {steps}] }}
"#
    );
    ddbsim::scenario::parse_str(&text, Path::new("fourteen-days.toml")).expect("valid")
}

fn bench_recommend(c: &mut Criterion) {
    let sc = fourteen_days();
    let catalog = Catalog::builtin();
    let mut g = c.benchmark_group("recommend");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("14_days_1_table", |b| b.iter(|| recommend(&sc, &catalog, &RecommendOptions::default())));
    g.finish();
}

criterion_group!(benches, bench_recommend);
