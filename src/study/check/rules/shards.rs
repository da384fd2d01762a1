//! The fix the key rules simulate: the smallest write-shard count that holds the peak.

use super::{steady_scenario, throttled_share, Runs};
use crate::engine::RunOptions;
use crate::format::percent;
use crate::scenario::{Popularity, Shards};
use crate::time::SimDuration;

/// Minutes of each run of the write-sharding search.
pub(in crate::study::check) const SHARD_SEARCH: SimDuration = SimDuration::from_secs(15 * 60);

/// Replications of each shard count.
pub(in crate::study::check) const SHARD_REPLICATIONS: u64 = 3;

/// Largest shard count searched.
pub(in crate::study::check) const MAX_SHARDS: u64 = 64;

/// The smallest shard count of key space `ks` (1, 2, 4, ... 64) whose worst throttled share
/// over three 15-minute runs at the peak is within the limit, and that share.
pub(super) fn shard_search(runs: &Runs<'_>, ks: usize) -> Option<(u64, f64)> {
    let sc = runs.sc;
    let counts: Vec<u64> = std::iter::successors(Some(1u64), |&c| (c * 2 <= MAX_SHARDS).then_some(c * 2)).collect();
    let random = sc.key_spaces[ks].shards.is_none_or(|s| s.random);
    let mut base = steady_scenario(sc, &runs.peaks);
    base.duration = SHARD_SEARCH;
    let jobs: Vec<(u64, u64)> = counts.iter().flat_map(|&c| (0..SHARD_REPLICATIONS).map(move |r| (c, r))).collect();
    let shares = crate::study::par_indexed(jobs.len() as u64, |i| {
        let (count, rep) = jobs[i as usize];
        let mut s = base.clone();
        s.key_spaces[ks].shards = (count > 1).then_some(Shards { count, random });
        throttled_share(&crate::engine::simulate(
            &s,
            &RunOptions { replication: rep, record_partitions: false, give_up: None, ..runs.base.clone() },
        ))
    });
    counts.iter().enumerate().find_map(|(i, &c)| {
        let worst = shares[i * SHARD_REPLICATIONS as usize..(i + 1) * SHARD_REPLICATIONS as usize].iter().copied().fold(0.0, f64::max);
        (worst <= runs.sc.check.max_throttle).then_some((c, worst))
    })
}

pub(super) fn shard_effect(runs: &Runs<'_>, ks: usize) -> (String, Option<String>, Option<u64>) {
    let name = &runs.sc.key_spaces[ks].name;
    match shard_search(runs, ks) {
        Some((1, _)) => (
            format!("keep an eye on `{name}`: at the peak it still holds without sharding (burst credit and spread carry it)"),
            Some(format!("1 shard: throttled at most {} over {SHARD_REPLICATIONS} 15-minute runs at the peak", percent(0.0))),
            Some(1),
        ),
        Some((c, worst)) => (
            match &runs.sc.key_spaces[ks].popularity {
                // A multi-attribute key is sharded by one more attribute: a suffix of `c`
                // equally likely values splits each tuple `c` ways, as a random suffix would.
                Popularity::Joint { parts, .. } if parts.len() < 4 => format!(
                    "write-shard the index key {c} ways: add an attribute of {c} random values to it (`[keys.shard]` with cardinality = {c}, and partition_key = [{}, \"shard\"]); reads of one tuple then query each of the {c}",
                    parts.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ")
                ),
                Popularity::Joint { .. } => format!(
                    "write-shard the index key {c} ways: it has four attributes already, so fold a suffix of {c} random values into one of them"
                ),
                _ => format!(
                    "write-shard `{name}` {c} ways (`shards = {{ count = {c}, by = \"random\" }}` under [keys.{name}]; `ddbsim shards {} --key {name}` explores further)",
                    runs.sc.source_path.display()
                ),
            },
            Some(format!(
                "with {c} shards the worst of {SHARD_REPLICATIONS} 15-minute runs at the peak throttles {} (limit {})",
                percent(worst),
                percent(runs.sc.check.max_throttle)
            )),
            Some(c),
        ),
        None => (
            format!("`{name}` needs more than {MAX_SHARDS} shards or a different key: spread the load with a higher-cardinality key"),
            Some(format!("even {MAX_SHARDS} shards throttle above {} in 15 minutes at the peak", percent(runs.sc.check.max_throttle))),
            None,
        ),
    }
}
