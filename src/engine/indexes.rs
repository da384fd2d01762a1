//! Secondary indexes beyond admission (spec §7, §8): GSI propagation delay, the backfill of a
//! GSI added during the run, and LSI item collections capped at 10 GB.

use super::{CapacityEvent, Sim, INDEX_KEY_BYTES, ITEM_OVERHEAD_BYTES};
use crate::metrics::Histogram;
use crate::model::Dim;
use crate::scenario::Projection;
use crate::units::{self, MILLI};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, LogNormal};

/// Largest item collection (all items and LSI entries of one partition-key value), bytes.
pub const COLLECTION_LIMIT_BYTES: u64 = 10 * 1_000_000_000;
/// Smallest share of an index's write capacity a backfill takes each second, so that it
/// always progresses and competes with live writes.
const BACKFILL_MIN_SHARE: f64 = 0.1;
/// z of the 99th percentile of a normal law.
const Z99: f64 = 2.326_347_874;

/// Propagation of one GSI: its delay law, stream and the delays drawn.
pub(super) struct Propagation {
    law: LogNormal<f64>,
    rng: ChaCha8Rng,
    /// Delays of the index writes applied, µs.
    pub(super) delays: Histogram,
    /// The same, for the current minute.
    pub(super) minute: Histogram,
}

impl Propagation {
    /// A log-normal delay with the given median and 99th percentile (µs).
    pub(super) fn new(median_us: u64, p99_us: u64, rng: ChaCha8Rng) -> Self {
        let mu = (median_us as f64).ln();
        let sigma = ((p99_us as f64).ln() - mu).max(1e-9) / Z99;
        Self {
            law: LogNormal::new(mu, sigma).unwrap_or_else(|_| LogNormal::new(mu, 1e-9).expect("valid")),
            rng,
            delays: Histogram::default(),
            minute: Histogram::default(),
        }
    }

    pub(super) fn record(&mut self, n: u64) {
        for _ in 0..n {
            let d = self.law.sample(&mut self.rng).round() as u64;
            self.delays.record(d, 1);
            self.minute.record(d, 1);
        }
    }
}

/// A GSI being built while the table takes traffic.
pub(super) struct Backfill {
    /// Milli write units still to write.
    pub(super) remaining: u64,
    /// Milli write units in all.
    pub(super) total: u64,
    /// Bytes each milli-unit of backfill adds to the index.
    pub(super) bytes_per_milli: f64,
    /// Live index writes consumed last second, milli-units.
    pub(super) live_last_second: u64,
    /// Backfill this second, milli-units.
    pub(super) this_second: u64,
}

/// An item collection that passed a size of interest or refused writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CollectionInfo {
    /// Key label.
    pub key: String,
    /// Bytes at the end.
    pub bytes: u64,
    /// Writes refused with ItemCollectionSizeLimitExceededException.
    pub failed_writes: u64,
}

fn entry_bytes(p: Projection, item: u64) -> u64 {
    match p {
        Projection::KeysOnly => INDEX_KEY_BYTES,
        Projection::All => item,
        Projection::IncludeBytes(b) => INDEX_KEY_BYTES + b,
    }
}

impl Sim<'_> {
    /// Starts building GSI `g` (resource `g + 1`): from now on writes maintain it, and the
    /// existing items are written to it in the background (spec §7: backfill reads are free,
    /// its writes consume the index's write capacity).
    pub(super) fn add_gsi(&mut self, s: u64, g: usize) {
        let r = g + 1;
        if self.gsi_active[r] {
            return;
        }
        self.gsi_active[r] = true;
        let spec = &self.sc.gsis[g];
        let mean_item = self.sc.patterns.iter().find(|p| p.op.is_write()).map_or(1_024, |p| super::mean_bytes(p.size));
        let table_bytes: u64 = self.res[0].parts.iter().map(|p| p.bytes).sum();
        let items = table_bytes as f64 / (mean_item + ITEM_OVERHEAD_BYTES) as f64 * spec.coverage;
        let entry = entry_bytes(spec.projection, mean_item);
        let total = (items * units::write_milli(entry) as f64) as u64;
        let bytes_per_milli = (entry + ITEM_OVERHEAD_BYTES) as f64 / units::write_milli(entry) as f64;
        self.events.push(CapacityEvent {
            time_s: s,
            resource: self.res[r].name.clone(),
            action: "add_gsi",
            dimension: "",
            old: 0.0,
            new: total as f64 / MILLI as f64,
            detail: format!("backfill of {items:.0} existing items, {} write units", total / MILLI),
        });
        if total == 0 {
            return;
        }
        self.backfill[r] = Some(Backfill { remaining: total, total, bytes_per_milli, live_last_second: 0, this_second: 0 });
    }

    /// Each second, before traffic: the backfills take their share of their index's write
    /// capacity, spread over its partitions.
    pub(super) fn run_backfills(&mut self, s: u64) {
        for r in 1..self.res.len() {
            let Some(b) = &mut self.backfill[r] else { continue };
            let limit = self.res[r].limit_milli(Dim::Write);
            let spare = limit.saturating_sub(b.live_last_second).max((limit as f64 * BACKFILL_MIN_SHARE) as u64);
            let want = spare.min(b.remaining).min(limit);
            let n = self.res[r].partition_count() as u64;
            let mut done = 0;
            for p in 0..n as usize {
                let share = want / n + u64::from((p as u64) < want % n);
                let room = crate::model::resource::PARTITION_CAP_MILLI[1].saturating_sub(self.res[r].parts[p].used[1]);
                let take = share.min(room);
                if take > 0 {
                    self.res[r].take_bulk(p, Dim::Write, take);
                    self.res[r].parts[p].bytes += (take as f64 * b.bytes_per_milli) as u64;
                    done += take;
                }
            }
            b.remaining -= done;
            b.this_second = done;
            if b.remaining == 0 {
                self.backfill[r] = None;
                self.events.push(CapacityEvent {
                    time_s: s,
                    resource: self.res[r].name.clone(),
                    action: "gsi_active",
                    dimension: "",
                    old: 0.0,
                    new: 100.0,
                    detail: "backfill complete".into(),
                });
                self.online_done[r] = true;
                // Backfill seconds are reported apart from live consumption (CloudWatch).
                self.cur[r].online_consumed += done;
                self.backfill_second[r] = done;
            } else {
                self.cur[r].online_consumed += done;
                self.backfill_second[r] = done;
            }
        }
    }

    /// Backfill progress of resource `r`, basis points.
    pub(super) fn backfill_progress_bp(&self, r: usize) -> u32 {
        match &self.backfill[r] {
            Some(b) => (((b.total - b.remaining) as f64 / b.total as f64) * 10_000.0) as u32,
            None if self.online_done[r] => 10_000,
            None => 0,
        }
    }

    /// Whether a write of pattern `j` to key `key` fits its item collection; records the
    /// growth when it does. Tables without LSIs have no limit.
    pub(super) fn collection_admits(&mut self, j: usize, key: u64) -> bool {
        let Some(growth) = self.pats[j].collection_growth else { return true };
        let Some(ks) = self.pats[j].key_space else { return true };
        let start = self.collection_start;
        let e = self.collections.entry((ks, key)).or_insert((start, 0));
        if e.0 + growth > COLLECTION_LIMIT_BYTES {
            e.1 += 1;
            return false;
        }
        e.0 += growth;
        true
    }

    /// Collections above 1 GB or with refused writes, largest first (at most 20).
    pub(super) fn collection_report(&self) -> Vec<CollectionInfo> {
        let mut v: Vec<CollectionInfo> = self
            .collections
            .iter()
            .filter(|(_, &(bytes, failed))| bytes > 1_000_000_000 || failed > 0)
            .map(|(&(ks, rank), &(bytes, failed))| {
                let space = &self.sc.key_spaces[ks];
                let key = space.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", space.name, rank + 1));
                CollectionInfo { key, bytes, failed_writes: failed }
            })
            .collect();
        v.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.key.cmp(&b.key)));
        v.truncate(20);
        v
    }
}
