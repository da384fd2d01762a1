//! Property tests of the model's invariants, over generated scenarios (bounded case counts so
//! the suite stays fast). The admission and queue invariants are unit tests beside their code.

use ddbsim::cost::{bill, BillOptions, Catalog, ResourceUsage, Usage};
use ddbsim::scenario::{parse_str, Fidelity};
use ddbsim::{simulate, RunOptions};
use proptest::prelude::*;
use std::path::Path;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

#[allow(clippy::too_many_arguments)]
fn doc(
    read: u32,
    write: u32,
    on_demand: bool,
    op: &str,
    bytes: u32,
    rate: u32,
    pop: &str,
    shards: u32,
    secs: u32,
    retry: &str,
    exact: bool,
) -> String {
    let cap = if on_demand {
        "{ mode = \"on_demand\" }".to_string()
    } else {
        format!("{{ mode = \"provisioned\", read = {read}, write = {write} }}")
    };
    let shards = if shards > 1 { format!("shards = {{ count = {shards}, by = \"random\" }}\n") } else { String::new() };
    let items = if op == "query" { "items = 7\n" } else { "" };
    format!(
        "[scenario]\nduration = \"{secs}s\"\nfidelity = \"{}\"\n[table]\npartition_key = \"k\"\ncapacity = {cap}\ninitial_burst = \"empty\"\n[keys.k]\ncardinality = 5000\npopularity = {pop}\n{shards}[[pattern]]\nname = \"p\"\nop = \"{op}\"\n{items}item_bytes = {bytes}\nrate = {{ spike = {{ base = {}, peak = {rate}, at = \"30s\", for = \"40s\" }} }}\n[client]\nretry = \"{retry}\"\n",
        if exact { "exact" } else { "fast" },
        rate / 3
    )
}

fn scenarios() -> impl Strategy<Value = String> {
    (
        1u32..3000,
        1u32..1500,
        any::<bool>(),
        prop::sample::select(vec!["get_item", "put_item", "update_item", "query"]),
        1u32..12_000,
        0u32..2500,
        prop::sample::select(vec!["\"uniform\"", "{ zipf = 1.2 }", "{ hot = { keys = 1, share = 0.7 } }", "{ sequential = \"1h\" }"]),
        1u32..6,
        60u32..240,
        prop::sample::select(vec!["none", "sdk-2026", "legacy"]),
        any::<bool>(),
    )
        .prop_map(|(r, w, od, op, b, rate, pop, sh, secs, retry, exact)| doc(r, w, od, op, b, rate, pop, sh, secs, retry, exact))
}

proptest! {
    #![proptest_config(config(24))]

    /// Every request is served, failed or still waiting; the partition count and warm
    /// throughput never go down; no partition serves more than its cap in a minute; capacity
    /// events come in time order.
    #[test]
    fn run_invariants(text in scenarios()) {
        let sc = parse_str(&text, Path::new("prop.toml")).expect("generated scenarios are valid");
        let r = simulate(&sc, &RunOptions { record_partitions: true, ..RunOptions::default() });
        for p in &r.patterns {
            prop_assert_eq!(p.served + p.failed() + p.pending_at_end, p.offered);
            prop_assert!(p.throttled_attempts <= p.attempts);
        }
        for series in r.resources.iter().map(|x| &x.minutes) {
            for w in series.windows(2) {
                prop_assert!(w[1].partitions >= w[0].partitions);
                prop_assert!(w[1].warm[0] >= w[0].warm[0] && w[1].warm[1] >= w[0].warm[1]);
            }
            for m in series {
                prop_assert!(m.consumed[0] <= m.requested[0] && m.consumed[1] <= m.requested[1]);
            }
        }
        for p in &r.partitions {
            // A bucket holds a second of its cap and refills at the cap: 61 seconds' worth a
            // minute; eventually consistent reads cost a partition 2/3 (ec_read_fanout 1.5,
            // rounded down to 333 of 500 milli-units).
            prop_assert!(p.consumed[0] <= 3_000_000 * 61 / 100 * 151 && p.consumed[1] <= 1_000_000 * 61);
        }
        for w in r.events.windows(2) {
            prop_assert!(w[1].time_s >= w[0].time_s);
        }
        let exact = sc.fidelity == Fidelity::Exact;
        prop_assert!(exact || r.bulk_seconds + r.replayed_seconds == r.duration_s);
    }

    /// Costs are non-negative and never fall when provisioned capacity rises.
    #[test]
    fn costs_are_monotone_in_provisioned_capacity(a in 0.0f64..50_000.0, extra in 0.0f64..50_000.0, hours in 1usize..50, free in any::<bool>()) {
        let usage = |units: f64| Usage {
            hours: hours as f64,
            standard_ia: false,
            resources: vec![ResourceUsage {
                name: "t".into(),
                provisioned: true,
                provisioned_hours: hours as f64,
                provisioned_rcu_by_minute: vec![units; hours * 60],
                provisioned_wcu_by_minute: vec![units; hours * 60],
                storage_gb_by_minute: vec![1.0; hours * 60],
                ..ResourceUsage::default()
            }],
            backups: ddbsim::cost::BackupUsage::default(),
            streams: None,
            dax: None,
            insights: Vec::new(),
            metered: Vec::new(),
            owned: Vec::new(),
        };
        let c = Catalog::builtin();
        let o = BillOptions { free_tier: free, ..BillOptions::default() };
        let lo = bill(&usage(a), &c, &o);
        let hi = bill(&usage(a + extra), &c, &o);
        prop_assert!(lo.total_usd >= 0.0 && lo.lines.iter().all(|l| l.cost_usd >= 0.0));
        prop_assert!(hi.total_usd + 1e-9 >= lo.total_usd);
    }

    /// The scenario loader never panics, whatever the text: arbitrary bytes, and valid
    /// documents with a line cut, doubled or replaced.
    #[test]
    fn the_loader_never_panics(text in scenarios(), cut in 0usize..400, junk in "[ -~\\n]{0,40}", raw in "\\PC{0,200}") {
        let _ = parse_str(&raw, Path::new("raw.toml"));
        let mut lines: Vec<&str> = text.lines().collect();
        if !lines.is_empty() {
            let i = cut % lines.len();
            lines[i] = &junk;
        }
        let _ = parse_str(&lines.join("\n"), Path::new("mutated.toml"));
        let doubled = format!("{text}\n{text}");
        let _ = parse_str(&doubled, Path::new("doubled.toml"));
        let _ = parse_str(&text[..cut.min(text.len())], Path::new("cut.toml"));
    }
}
