//! DynamoDB Accelerator (DAX) in front of the table (issue 15).
//!
//! * **What goes through it** (AWS developer guide, DAX): eventually consistent GetItem and
//!   BatchGetItem (the item cache) and Query and Scan (the query cache) on the table; a hit
//!   never reaches the table, a miss is read from the table and cached. Strongly consistent
//!   and transactional reads pass through. Writes are write-through: the table write as
//!   without DAX, plus the cache's update. [DOC]
//! * **Hit ratio** [model choice, an estimate]: fixed (`hit_ratio`), or that of a TTL cache
//!   under Poisson requests: an item enters on a miss and leaves `ttl` later, every request
//!   meanwhile hits, so a key requested `r` times a second hits `r·ttl / (1 + r·ttl)` of its
//!   requests (a renewal cycle is one miss and `r·ttl` hits on average). The pattern's hit
//!   ratio is that weighted by the key space's popularity (head keys one by one, the tail's
//!   equally likely keys together) at the second's request rate. It ignores eviction for
//!   memory (the cache is taken to hold every live entry, so a node smaller than the live
//!   entries hits less than this) and the refresh a write-through gives an item. Closed-loop
//!   patterns are not thinned (their requests follow the answers).
//! * **Ceiling** [estimate]: the normalized requests a second of AWS's DAX sizing calculator
//!   (awslabs/amazon-dynamodb-tools `tools/dax_calculator`): a hit costs its size in KB, a
//!   miss ten times that, a write 25 times that on every node; the cluster serves the node
//!   type's per-node capacity times its nodes. Load above it is reported, not throttled.

use crate::limits::{DAX_HIT_COST, DAX_MISS_COST, DAX_WRITE_COST};
use crate::scenario::{DaxSpec, Op, Scenario};
use crate::traffic::keys::KeyDist;

/// Grid of the hit-ratio curve: log10 of requests a second from `LOG_LO`, `STEPS` points
/// `LOG_STEP` apart.
const LOG_LO: f64 = -3.0;
const LOG_STEP: f64 = 0.125;
const STEPS: usize = 81;

/// A cached pattern's hit ratio as a function of its request rate.
#[derive(Clone, Debug)]
pub(crate) enum HitCurve {
    /// The same at every rate.
    Fixed(f64),
    /// Tabulated on a log grid of rates (interpolated; 0 at a rate of 0).
    Grid(Vec<f64>),
}

impl HitCurve {
    /// The hit ratio at `lambda` requests a second.
    #[must_use]
    pub(crate) fn at(&self, lambda: f64) -> f64 {
        match self {
            HitCurve::Fixed(h) => *h,
            HitCurve::Grid(g) => {
                if lambda <= 0.0 {
                    return 0.0;
                }
                let x = (lambda.log10() - LOG_LO) / LOG_STEP;
                if x <= 0.0 {
                    // Below the grid the ratio falls in proportion to the rate.
                    return g[0] * lambda / 10f64.powf(LOG_LO);
                }
                let i = x.floor() as usize;
                if i + 1 >= g.len() {
                    return g[g.len() - 1];
                }
                let f = x - i as f64;
                g[i] * (1.0 - f) + g[i + 1] * f
            }
        }
    }
}

/// The hit ratio of a TTL cache of `ttl_s` seconds over keys of popularity `dist` at
/// `lambda` requests a second.
#[must_use]
pub(crate) fn ttl_hit_ratio(dist: &KeyDist, lambda: f64, ttl_s: f64) -> f64 {
    let h = |p: f64| {
        let x = lambda * p * ttl_s;
        x / (1.0 + x)
    };
    let mut hits: f64 = dist.head.iter().map(|&p| p * h(p)).sum();
    let tail_keys = dist.tail_hi.saturating_sub(dist.tail_lo);
    if dist.tail_prob > 0.0 && tail_keys > 0 {
        hits += dist.tail_prob * h(dist.tail_prob / tail_keys as f64);
    }
    hits
}

/// What one pattern is to DAX.
#[derive(Clone, Debug)]
pub(crate) enum Role {
    /// Not through DAX (a read that passes through, or a GSI's).
    None,
    /// A cached read: its hit ratio and KB per item.
    Cached(HitCurve, f64),
    /// A write to the table: KB per item.
    Write(f64),
}

/// The DAX cluster of a run: each pattern's role, and per minute the hits, the misses and
/// the busiest second's load over the ceiling.
#[derive(Clone, Debug)]
pub(crate) struct Dax {
    pub(crate) spec: DaxSpec,
    pub(crate) roles: Vec<Role>,
    /// Normalized requests a second the cluster serves.
    ceiling: f64,
    /// The minute being recorded: hits, misses, busiest second's load share.
    cur: [f64; 3],
    /// Closed minutes.
    pub(crate) minutes: Vec<[f64; 3]>,
}

/// Is a pattern of `op` with `consistency` read through DAX's caches? (The item cache for
/// GetItem and BatchGetItem, the query cache for Query and Scan; on the table only.)
fn cached(sc: &Scenario, j: usize) -> Option<bool> {
    let p = &sc.patterns[j];
    if p.index.is_some() || p.replica.is_some() || p.consistency != crate::units::Consistency::Eventual {
        return None;
    }
    match p.op {
        Op::GetItem | Op::BatchGet => Some(true),
        Op::Query | Op::Scan => Some(false),
        _ => None,
    }
}

impl Dax {
    /// The cluster of `sc`, if it has one.
    #[must_use]
    pub(crate) fn of(sc: &Scenario, dists: &[KeyDist]) -> Option<Self> {
        let spec = sc.dax.clone()?;
        let roles = (0..sc.patterns.len())
            .map(|j| {
                let p = &sc.patterns[j];
                let kb = (crate::model::request::mean_bytes(p.size) as f64 / 1_024.0).ceil().max(1.0);
                if p.op.is_write() {
                    return if p.index.is_none() { Role::Write(kb) } else { Role::None };
                }
                let Some(item) = cached(sc, j) else { return Role::None };
                let curve = match spec.hit_ratio {
                    Some(h) => HitCurve::Fixed(h),
                    None => {
                        let ttl = if item { spec.item_ttl } else { spec.query_ttl }.as_secs_f64();
                        let one = KeyDist::single();
                        let dist = if p.op == Op::Scan { &one } else { p.key_space.map_or(&one, |k| &dists[k]) };
                        HitCurve::Grid((0..STEPS).map(|i| ttl_hit_ratio(dist, 10f64.powf(LOG_LO + i as f64 * LOG_STEP), ttl)).collect())
                    }
                };
                Role::Cached(curve, kb)
            })
            .collect();
        let ceiling = (spec.node_type.ceiling_per_node() * u64::from(spec.nodes)) as f64;
        Some(Self { spec, roles, ceiling, cur: [0.0; 3], minutes: Vec::new() })
    }

    /// The cluster of `sc`, if it has one, with its key spaces' popularity built here (the
    /// engine passes the distributions it already holds to [`Self::of`]).
    #[must_use]
    pub(crate) fn of_scenario(sc: &Scenario) -> Option<Self> {
        sc.dax.as_ref()?;
        let dists: Vec<KeyDist> = sc.key_spaces.iter().map(|k| KeyDist::new(k, sc.start_unix_s)).collect();
        Self::of(sc, &dists)
    }

    /// The share of pattern `j`'s requests at `lambda` a second that reach the table.
    #[must_use]
    pub(crate) fn miss_share(&self, j: usize, lambda: f64) -> f64 {
        match &self.roles[j] {
            Role::Cached(c, _) => 1.0 - c.at(lambda),
            _ => 1.0,
        }
    }

    /// Records a second in which pattern `j` asks `lambda(j)` requests a second (before DAX).
    pub(crate) fn second(&mut self, lambda: impl Fn(usize) -> f64) {
        let nodes = f64::from(self.spec.nodes);
        let mut load = 0.0;
        for (j, role) in self.roles.iter().enumerate() {
            match role {
                Role::None => {}
                Role::Cached(c, kb) => {
                    let l = lambda(j);
                    let h = c.at(l);
                    self.cur[0] += l * h;
                    self.cur[1] += l * (1.0 - h);
                    load += l * h * kb * DAX_HIT_COST + l * (1.0 - h) * kb * DAX_MISS_COST;
                }
                Role::Write(kb) => load += lambda(j) * DAX_WRITE_COST * kb * nodes,
            }
        }
        self.cur[2] = self.cur[2].max(load / self.ceiling);
    }

    /// Closes the minute.
    pub(crate) fn end_minute(&mut self) {
        self.minutes.push(self.cur);
        self.cur = [0.0; 3];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One key requested 10 times a second with a 5-minute TTL: each cycle is one miss and
    /// 3,000 hits, a ratio of 3,000 / 3,001.
    #[test]
    fn one_hot_key_misses_once_a_ttl() {
        let h = ttl_hit_ratio(&KeyDist::single(), 10.0, 300.0);
        assert!((h - 3_000.0 / 3_001.0).abs() < 1e-12, "{h}");
    }

    /// Uniform keys: 1,000,000 keys at 1,000 requests a second and a 300 s TTL: each key is
    /// asked 0.001 times a second, x = 0.3, a hit ratio of 0.3 / 1.3 = 0.2308.
    #[test]
    fn uniform_keys_hit_by_their_own_rate() {
        let d = KeyDist::uniform(1_000_000);
        let h = ttl_hit_ratio(&d, 1_000.0, 300.0);
        assert!((h - 0.3 / 1.3).abs() < 1e-9, "{h}");
        let g = HitCurve::Grid((0..STEPS).map(|i| ttl_hit_ratio(&d, 10f64.powf(LOG_LO + i as f64 * LOG_STEP), 300.0)).collect());
        assert!((g.at(1_000.0) - 0.3 / 1.3).abs() < 1e-9, "1,000 is on the grid");
        let between = g.at(1_500.0);
        let exact = 0.45 / 1.45;
        assert!((between - exact).abs() < 0.01, "interpolated {between} vs {exact}");
    }
}
