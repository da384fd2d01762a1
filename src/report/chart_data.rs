//! What the charts plot, built row by row from `timeseries.csv` and `partitions.csv` rows (of a
//! run in memory, or of the files `ddbsim plot` reads) into bounded buckets: at most 1,000 time
//! buckets and 1,000 partition rows a chart, whatever the duration and the partition count.
//! A run of 1,000 minutes or fewer is plotted minute by minute.

use super::metric::Metric;
use super::tables::{PartitionRow, SeriesRow};
use crate::model::Dim;
use std::collections::BTreeMap;

/// Most time buckets of a chart.
pub const MAX_TIME_BUCKETS: u64 = 1_000;
/// Most partition rows of a heatmap.
pub const MAX_PARTITION_ROWS: u64 = 1_000;

/// Minutes a bucket spans so that `minutes` fit in [`MAX_TIME_BUCKETS`].
#[must_use]
pub fn bucket_of(minutes: u64) -> u64 {
    minutes.div_ceil(MAX_TIME_BUCKETS).max(1)
}

/// One time bucket of one series: the sum of its values and how many minutes it holds.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    sum: f64,
    max: f64,
    n: u32,
}

impl Cell {
    fn add(&mut self, v: f64) {
        self.sum += v;
        self.max = if self.n == 0 { v } else { self.max.max(v) };
        self.n += 1;
    }

    fn mean(self) -> f64 {
        self.sum / f64::from(self.n.max(1))
    }
}

/// The per-minute series the capacity and latency charts need, bucketed.
#[derive(Debug)]
pub struct SeriesCharts {
    bucket: u64,
    order: Vec<String>,
    cells: BTreeMap<(String, Metric), BTreeMap<u64, Cell>>,
    latency: BTreeMap<u64, [Cell; 3]>,
    /// Per resource and dimension (0 read, 1 write): provisioned and consumed units per second
    /// of every minute, for the load-duration curves.
    minutes: BTreeMap<(String, usize), [Vec<f64>; 2]>,
}

/// A load-duration curve: a resource's capacity per second, minute by minute, sorted from the
/// highest; the share of time at or above each level reads off the x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct DurationCurve {
    /// Resource name.
    pub resource: String,
    /// Reads or writes.
    pub dim: Dim,
    /// Provisioned units per second, highest first (empty when never provisioned).
    pub provisioned: Vec<f64>,
    /// Consumed units per second, highest first.
    pub consumed: Vec<f64>,
}

impl SeriesCharts {
    /// A builder for a run of `minutes` minutes.
    #[must_use]
    pub fn new(minutes: u64) -> Self {
        Self { bucket: bucket_of(minutes), order: Vec::new(), cells: BTreeMap::new(), latency: BTreeMap::new(), minutes: BTreeMap::new() }
    }

    /// Adds one row of `timeseries.csv`.
    pub fn add(&mut self, r: &SeriesRow) {
        let b = r.time_s / 60 / self.bucket;
        if r.metric.is_client() {
            let i = match r.metric {
                Metric::LatencyP50Ms => 0,
                Metric::LatencyP99Ms => 1,
                Metric::LatencyMaxMs => 2,
                _ => return,
            };
            self.latency.entry(b).or_default()[i].add(r.value);
            return;
        }
        let wanted = matches!(
            r.metric,
            Metric::Requested(_) | Metric::Consumed(_) | Metric::Provisioned(_) | Metric::CapacityLimit(_) | Metric::ThrottleEvents(_)
        );
        if !wanted {
            return;
        }
        if !self.order.contains(&r.resource) {
            self.order.push(r.resource.clone());
        }
        match r.metric {
            Metric::Provisioned(d) => self.minutes.entry((r.resource.clone(), d as usize)).or_default()[0].push(r.value),
            Metric::Consumed(d) => self.minutes.entry((r.resource.clone(), d as usize)).or_default()[1].push(r.value / 60.0),
            _ => {}
        }
        self.cells.entry((r.resource.clone(), r.metric)).or_default().entry(b).or_default().add(r.value);
    }

    /// The capacity chart's panels (resources and dimensions with traffic, and those in
    /// `no_history`: an imported history without their series, drawn empty saying so): units
    /// per second averaged over each bucket, throttle events summed over it.
    #[must_use]
    pub fn panels(&self, no_history: &[(String, Dim)]) -> Vec<CapacityPanel> {
        let mut panels = Vec::new();
        let width = self.bucket as f64;
        for res in &self.order {
            for d in Dim::ALL {
                let get = |m: Metric| self.cells.get(&(res.clone(), m));
                let empty = BTreeMap::new();
                let requested = get(Metric::Requested(d)).unwrap_or(&empty);
                let consumed = get(Metric::Consumed(d)).unwrap_or(&empty);
                let unrecorded = no_history.iter().any(|(r, nd)| r == res && *nd == d);
                if !unrecorded && requested.values().all(|c| c.sum == 0.0) && consumed.values().all(|c| c.sum == 0.0) {
                    continue;
                }
                let x = |b: u64| (b * self.bucket) as f64;
                // Units in a minute over its 60 seconds, averaged over the bucket's minutes.
                let per_s = |m: &BTreeMap<u64, Cell>| m.values().map(|c| c.mean() / 60.0).collect::<Vec<f64>>();
                let provisioned = get(Metric::Provisioned(d)).map_or_else(Vec::new, |m| m.iter().map(|(&b, c)| (x(b), c.mean())).collect());
                let limit = get(Metric::CapacityLimit(d)).map_or_else(Vec::new, |m| m.iter().map(|(&b, c)| (x(b), c.mean())).collect());
                panels.push(CapacityPanel {
                    resource: res.clone(),
                    dim: d,
                    bucket_minutes: width,
                    minutes: requested.keys().map(|&b| x(b)).collect(),
                    requested: per_s(requested),
                    consumed: per_s(consumed),
                    provisioned,
                    limit,
                    throttle_events: get(Metric::ThrottleEvents(d)).map_or_else(Vec::new, |m| m.values().map(|c| c.sum).collect()),
                    no_history: unrecorded,
                });
            }
        }
        panels
    }

    /// The load-duration curves of the resources and dimensions with consumption.
    #[must_use]
    pub fn duration_curves(&self) -> Vec<DurationCurve> {
        let mut out = Vec::new();
        for res in &self.order {
            for dim in Dim::ALL {
                let Some([prov, cons]) = self.minutes.get(&(res.clone(), dim as usize)) else { continue };
                if cons.iter().all(|c| *c == 0.0) {
                    continue;
                }
                let desc = |v: &[f64]| {
                    let mut v = v.to_vec();
                    v.sort_by(|a, b| b.total_cmp(a));
                    v
                };
                out.push(DurationCurve { resource: res.clone(), dim, provisioned: desc(prov), consumed: desc(cons) });
            }
        }
        out
    }

    /// The latency chart's points: (minute, p50, p99, max) ms — the mean p50, and the largest
    /// p99 and max, of each bucket.
    #[must_use]
    pub fn latency(&self) -> Vec<(f64, f64, f64, f64)> {
        self.latency.iter().map(|(&b, c)| ((b * self.bucket) as f64, c[0].mean(), c[1].max, c[2].max)).collect()
    }
}

/// One resource's heatmaps being built.
#[derive(Debug)]
struct HeatMapBuilder {
    resource: String,
    /// Partitions per row.
    partition_bucket: u32,
    /// The largest read and write utilization by (time bucket, partition bucket).
    cells: BTreeMap<(u64, u32), [f64; 2]>,
    minutes: u64,
    partitions: u32,
}

/// The hot-partition heatmaps, built from `partitions.csv` rows: per resource and dimension
/// with traffic, the largest utilization of any partition of a bucket in any minute of it.
#[derive(Debug)]
pub struct HeatCharts {
    time_bucket: u64,
    maps: Vec<HeatMapBuilder>,
    partitions: BTreeMap<String, u64>,
}

impl HeatCharts {
    /// A builder for a run of `minutes` minutes whose resources end with these partition
    /// counts (partitions never merge: the end is the most).
    #[must_use]
    pub fn new(minutes: u64, partitions: impl IntoIterator<Item = (String, u64)>) -> Self {
        Self { time_bucket: bucket_of(minutes), maps: Vec::new(), partitions: partitions.into_iter().collect() }
    }

    /// Adds one row of `partitions.csv`.
    pub fn add(&mut self, r: &PartitionRow) {
        let i = match self.maps.iter().position(|m| m.resource == r.resource) {
            Some(i) => i,
            None => {
                let n = self.partitions.get(&r.resource).copied().unwrap_or(1);
                let pb = n.div_ceil(MAX_PARTITION_ROWS).max(1) as u32;
                self.maps.push(HeatMapBuilder {
                    resource: r.resource.clone(),
                    partition_bucket: pb,
                    cells: BTreeMap::new(),
                    minutes: 0,
                    partitions: 0,
                });
                self.maps.len() - 1
            }
        };
        let map = &mut self.maps[i];
        let m = r.time_s / 60;
        let u = [r.read_utilization, r.write_utilization];
        let slot = map.cells.entry((m / self.time_bucket, r.partition / map.partition_bucket)).or_insert(u);
        for (s, u) in slot.iter_mut().zip(u) {
            *s = s.max(u);
        }
        map.minutes = map.minutes.max(m + 1);
        map.partitions = map.partitions.max(r.partition + 1);
    }

    /// The heatmaps: per resource in order of appearance, reads then writes, those with any
    /// consumption.
    #[must_use]
    pub fn heatmaps(&self) -> Vec<Heatmap> {
        let mut out = Vec::new();
        for m in &self.maps {
            for (d, dim) in [(0, Dim::Read), (1, Dim::Write)] {
                let max = m.cells.values().map(|c| c[d]).fold(0.0, f64::max);
                if max == 0.0 {
                    continue;
                }
                out.push(Heatmap {
                    resource: m.resource.clone(),
                    dim,
                    cells: m.cells.iter().map(|(&(t, p), c)| (t * self.time_bucket, p * m.partition_bucket, c[d])).collect(),
                    max,
                    minutes: m.minutes,
                    partitions: m.partitions,
                    time_bucket: self.time_bucket,
                    partition_bucket: m.partition_bucket,
                });
            }
        }
        out
    }
}

/// A capacity event or `[[at]]` action to mark on the capacity chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Minute since the start.
    pub minute: f64,
    /// Table or index name.
    pub resource: String,
    /// The dimension it concerns; `None` marks both panels of the resource.
    pub dim: Option<Dim>,
    /// What happened.
    pub label: String,
}

impl CapacityPanel {
    /// The on-demand capacity (minute, units/s) where the resource was not provisioned.
    #[must_use]
    pub fn on_demand(&self) -> Vec<(f64, f64)> {
        self.limit.iter().copied().filter(|(m, _)| !self.provisioned.iter().any(|q| q.0 == *m)).collect()
    }
}

impl Marker {
    /// The marker belongs on `p`: same resource, and its dimension or none.
    #[must_use]
    pub fn on(&self, p: &CapacityPanel) -> bool {
        self.resource == p.resource && self.dim.is_none_or(|d| d == p.dim)
    }
}

/// What the capacity chart draws for one resource and dimension, in units per second.
#[derive(Clone, Debug, PartialEq)]
pub struct CapacityPanel {
    /// Resource name.
    pub resource: String,
    /// Reads or writes.
    pub dim: Dim,
    /// Minutes each point stands for (1 up to 1,000 minutes of run).
    pub bucket_minutes: f64,
    /// First minute of each bucket.
    pub minutes: Vec<f64>,
    /// Requested units per second (every attempt).
    pub requested: Vec<f64>,
    /// Consumed units per second.
    pub consumed: Vec<f64>,
    /// Provisioned units at the buckets the resource was provisioned: (minute, units).
    pub provisioned: Vec<(f64, f64)>,
    /// Table-level limit, units per second: (minute, units).
    pub limit: Vec<(f64, f64)>,
    /// Throttle events per bucket.
    pub throttle_events: Vec<f64>,
    /// The history the scenario was imported from has no series of this resource and
    /// dimension: the panel says so.
    pub no_history: bool,
}

/// The heatmap of one resource and dimension: utilization of the partition cap per partition
/// and time bucket, the largest of each bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    /// Resource name.
    pub resource: String,
    /// Reads or writes.
    pub dim: crate::model::Dim,
    /// (first minute, first partition, utilization 0-1+) of each bucket.
    pub cells: Vec<(u64, u32, f64)>,
    /// The largest utilization of any cell: the top of the colour scale.
    pub max: f64,
    /// Minutes.
    pub minutes: u64,
    /// Most partitions at any minute.
    pub partitions: u32,
    /// Minutes a cell spans.
    pub time_bucket: u64,
    /// Partitions a cell spans.
    pub partition_bucket: u32,
}

/// One bar of the cost chart: mode, monthly USD by component, throttled share.
#[derive(Clone, Debug, PartialEq)]
pub struct CostBar {
    /// Mode.
    pub mode: String,
    /// (group, USD), stacked in the groups' order.
    pub parts: Vec<(crate::cost::CostGroup, f64)>,
    /// Throttled share of attempts.
    pub throttled_share: f64,
    /// Picked.
    pub picked: bool,
}

/// One candidate of `recommend` on the front chart.
#[derive(Clone, Debug)]
pub struct FrontPoint {
    /// Mode: `on_demand`, `provisioned`, `autoscaling`, `reserved`.
    pub mode: crate::study::recommend::Mode,
    /// Throttled share of attempts (a least value when not complete).
    pub throttled_share: f64,
    /// Monthly cost, USD.
    pub monthly_usd: f64,
    /// Simulated to its end.
    pub complete: bool,
    /// On the cost-vs-throttling front.
    pub on_front: bool,
    /// The recommendation.
    pub picked: bool,
}

/// One line of the sweep chart: label, points (x, mean, ci low, ci high).
pub type SweepLine = (String, Vec<(f64, f64, f64, f64)>);

/// The x axis of a sweep: where each swept value sits and how it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAxis {
    /// The swept key.
    pub name: String,
    /// (position, label) of each value, in order.
    pub ticks: Vec<(f64, String)>,
    /// Positions are log2 of the values (a geometric range such as 1, 2, 4, ... 64).
    pub log: bool,
}

impl SweepAxis {
    /// The axis of `values` (as the sweep wrote them): log2 for positive numbers spanning at
    /// least 8x whose consecutive ratios are at least 1.5 (doubling sweeps), linear for other
    /// numbers, and one slot per value, in order, for anything else.
    #[must_use]
    pub fn of(name: &str, values: &[String]) -> Self {
        let mut distinct: Vec<&String> = Vec::new();
        for v in values {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        let nums: Option<Vec<f64>> = distinct.iter().map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite())).collect();
        let ticks = |pos: &dyn Fn(usize, f64) -> f64| -> Vec<(f64, String)> {
            distinct.iter().enumerate().map(|(i, v)| (pos(i, v.parse::<f64>().unwrap_or(0.0)), (*v).clone())).collect()
        };
        match nums {
            Some(mut n) if !n.is_empty() => {
                n.sort_by(f64::total_cmp);
                let geometric = n[0] > 0.0 && n[n.len() - 1] / n[0] >= 8.0 && n.windows(2).all(|w| w[1] / w[0] >= 1.5);
                if geometric {
                    Self { name: name.to_string(), ticks: ticks(&|_, x| x.log2()), log: true }
                } else {
                    Self { name: name.to_string(), ticks: ticks(&|_, x| x), log: false }
                }
            }
            _ => Self { name: name.to_string(), ticks: ticks(&|i, _| i as f64), log: false },
        }
    }

    /// The position of `value`.
    #[must_use]
    pub fn position(&self, value: &str) -> f64 {
        self.ticks.iter().find(|t| t.1 == value).map_or(0.0, |t| t.0)
    }
}

#[cfg(test)]
mod sweep_axis_tests {
    use super::SweepAxis;

    fn of(v: &[&str]) -> SweepAxis {
        SweepAxis::of("k", &v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn doubling_ranges_are_log_numbers_linear_and_words_in_order() {
        let a = of(&["1", "2", "4", "8", "16", "2"]);
        assert!(a.log);
        assert_eq!(a.ticks.iter().map(|t| t.0).collect::<Vec<_>>(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(a.position("8"), 3.0);
        let b = of(&["100", "200", "300"]);
        assert!(!b.log);
        assert_eq!(b.position("200"), 200.0);
        let c = of(&["sdk-2026", "none", "legacy"]);
        assert!(!c.log);
        assert_eq!(c.ticks, vec![(0.0, "sdk-2026".to_string()), (1.0, "none".to_string()), (2.0, "legacy".to_string())]);
    }
}
