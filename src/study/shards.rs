//! The write-sharding explorer: a sweep preset over a key space's shard counts 1, 2, 4, …,
//! with replications (placement of shards on partitions varies), judged at a percentile of
//! the throttled share.

use super::sweep::{prepare, run, SweepError};
use crate::cost::Catalog;
use crate::engine::RunOptions;
use crate::scenario::{LoadOptions, Op, Scenario, Window};
use crate::stats::Stat;
use serde::Serialize;
use std::path::Path;

/// One shard count of the write-sharding explorer.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ShardRow {
    /// Shards.
    pub count: u64,
    /// Throttled share of attempts over replications.
    pub throttled_share: Stat,
    /// Requests a logical read of the key sends (N under random suffixes, 1 under hash).
    pub read_fan_out: u64,
    /// Read units consumed per second, mean over replications.
    pub read_units_per_s: f64,
    /// Monthly cost of the scenario's mode, mean, USD.
    pub monthly_usd: f64,
    /// Cost of the window simulated, mean, USD.
    pub window_usd: f64,
    /// The scenario extrapolates its window to a month.
    #[serde(skip)]
    pub extrapolated: bool,
    /// The share of replications that ended with less burst credit or more GSI debt than they
    /// began with: in a sustained window, a count held only so is not recommended.
    pub spent_credit_share: f64,
}

impl ShardRow {
    /// The cost to lead with: the month when the scenario extrapolates, else the window.
    #[must_use]
    pub fn cost(&self) -> f64 {
        if self.extrapolated {
            self.monthly_usd
        } else {
            self.window_usd
        }
    }
}

/// The explorer's result.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ShardsOutput {
    /// Scenario.
    pub scenario: String,
    /// Key space sharded.
    pub key: String,
    /// "random" or "hash".
    pub by: String,
    /// Replications per count.
    pub replications: u64,
    /// Percentile of the throttled share judged.
    pub percentile: f64,
    /// Largest throttled share accepted.
    pub max_throttle: f64,
    /// One row per shard count.
    pub rows: Vec<ShardRow>,
    /// Smallest count whose throttled share at the percentile is within the limit (and, in a
    /// sustained window, that held it without spending burst credit or GSI absorption).
    pub recommended: Option<u64>,
    /// What the window stands for (`[scenario] window`).
    pub window: Window,
    /// Costs are a month extrapolated from the window (`[pricing] extrapolate = "repeat"`);
    /// otherwise the window's own.
    pub extrapolated: bool,
}

/// The shard counts 1, 2, 4, ... up to `max`.
#[must_use]
pub fn shard_counts(max: u64) -> Vec<u64> {
    std::iter::successors(Some(1u64), |&c| (c * 2 <= max).then_some(c * 2)).collect()
}

/// Recommends the smallest count whose throttled share at `percentile` is at most `max_throttle`
/// and, in a sustained `window`, that spent no burst credit or GSI absorption on net in any
/// replication.
#[must_use]
pub fn recommend(rows: &[ShardRow], percentile: f64, max_throttle: f64, window: Window) -> Option<u64> {
    rows.iter()
        .filter(|r| window == Window::Event || r.spent_credit_share == 0.0)
        .find(|r| {
            let hs: Vec<f64> = vec![r.throttled_share.p50, r.throttled_share.p95, r.throttled_share.p99];
            let v = if percentile <= 50.0 {
                hs[0]
            } else if percentile <= 95.0 {
                hs[1]
            } else {
                hs[2]
            };
            v <= max_throttle
        })
        .map(|r| r.count)
}

/// What to explore.
#[derive(Clone, Debug)]
pub struct ShardsOptions {
    /// The key space to shard.
    pub key: String,
    /// Largest shard count.
    pub max: u64,
    /// Suffix: random (reads query every shard) or calculated from the item (a read hits one).
    pub random: bool,
    /// Replications per count.
    pub replications: u64,
    /// Percentile of the throttled share judged: 50, 95 or 99.
    pub percentile: f64,
    /// Largest throttled share accepted.
    pub max_throttle: f64,
}

/// Explores shard counts of key space `o.key` of `sc` (whose TOML text is `text`, read from
/// `path`).
///
/// # Errors
/// [`SweepError`] when a point does not validate.
#[allow(clippy::too_many_arguments)]
pub fn explore(
    sc: &Scenario,
    text: &str,
    path: &Path,
    o: &ShardsOptions,
    base: &RunOptions,
    catalog: &Catalog,
    options: &LoadOptions,
) -> Result<ShardsOutput, SweepError> {
    let Some(ks) = sc.key_spaces.iter().position(|k| k.name == o.key) else {
        return Err(SweepError(format!("--key {}: no key space of that name in {}", o.key, path.display())));
    };
    let counts = shard_counts(o.max);
    let by = if o.random { "random" } else { "hash" };
    let sets = vec![
        (format!("keys.{}.shards.count", o.key), counts.iter().map(|&c| toml::Value::Integer(c as i64)).collect()),
        (format!("keys.{}.shards.by", o.key), vec![toml::Value::String(by.to_string())]),
    ];
    super::sweep::check_size(&sets, None, o.replications)?;
    let prepared = prepare(text, path, &sets, options, None)?;
    let result = run(&prepared, &sc.name, base.seed.unwrap_or(sc.seed), o.replications, None, base, catalog);
    let reads_fan_out = sc.patterns.iter().any(|p| p.key_space == Some(ks) && matches!(p.op, Op::GetItem | Op::Query));
    let rows: Vec<ShardRow> = result
        .points
        .iter()
        .zip(&counts)
        .map(|(p, &count)| ShardRow {
            count,
            throttled_share: p.stats.throttled_share.clone(),
            read_fan_out: if o.random && reads_fan_out { count } else { 1 },
            read_units_per_s: p.runs.iter().map(|h| h.read_units_per_s).sum::<f64>() / p.runs.len() as f64,
            monthly_usd: p.stats.monthly_usd.mean,
            window_usd: p.stats.window_usd.mean,
            extrapolated: p.stats.extrapolated,
            spent_credit_share: p.stats.spent_credit_share,
        })
        .collect();
    let recommended = recommend(&rows, o.percentile, o.max_throttle, sc.window);
    Ok(ShardsOutput {
        scenario: sc.name.clone(),
        key: o.key.clone(),
        by: by.to_string(),
        replications: o.replications,
        percentile: o.percentile,
        max_throttle: o.max_throttle,
        extrapolated: rows.first().is_some_and(|r| r.extrapolated),
        rows,
        recommended,
        window: sc.window,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_double_to_the_max() {
        assert_eq!(shard_counts(64), vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(shard_counts(10), vec![1, 2, 4, 8]);
    }
}
