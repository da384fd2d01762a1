//! `[[at]] bulk_put`: bulk put items from S3 into the existing table (`StartBulkPutItems`,
//! 2026; §16).
//!
//! A load becomes a put pattern of its own, running from its time until its items are written
//! at `max_write_units` a second (whole seconds: the rate is the items over the seconds that
//! hold them), through the table's partitions and its GSIs as any put. Sorted input writes
//! each partition-key value's items together: when a value's items take a second or more at
//! the load's rate, the load's key space is time-ordered, one value after another, so one
//! partition at a time takes the whole load (the rolling hot partition AWS warns of). Whether
//! the load consumes the table's write capacity and what it costs AWS does not say: ddbsim
//! sends it through the table's capacity and bills its writes as the table's, and the
//! pattern's name says so.

use super::{Names, Validator};
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawAt, RawBulkOrder, RawBulkTier, RawOp, RawPattern};
use crate::scenario::{BulkLoad, EntitySpec, GsiSpec, KeySpaceSpec, PatternSpec, Popularity, RateShape};
use crate::time::{parse_duration, SimDuration};

/// The most write units a second a load may ask for (the table quota's 40,000 write units, at
/// which a table's account-default quota stops it anyway).
const MAX_BULK_WRITE_UNITS: i64 = 40_000;

impl Validator<'_, '_> {
    /// Every `bulk_put` of `[[at]]`, as the put patterns that load it (the times and the one
    /// action of each `[[at]]` are checked with the other actions).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bulk_puts(
        &mut self,
        raw: &[RawAt],
        names: &Names,
        gsis: &[GsiSpec],
        entities: &[EntitySpec],
        key_spaces: &mut Vec<KeySpaceSpec>,
        table_pk: usize,
        duration: SimDuration,
        replicas: bool,
    ) -> Vec<PatternSpec> {
        let mut out = Vec::new();
        let builds_index = raw.iter().any(|a| a.add_gsi.is_some());
        for (i, a) in raw.iter().enumerate() {
            let Some(b) = &a.bulk_put else { continue };
            let bp = KeyPath::root().key("at").index(i).key("bulk_put");
            let Ok(time) = parse_duration(&a.time) else { continue };
            if replicas {
                self.err(&bp, "DynamoDB does not bulk put into a global table (a table with replicas)");
            }
            if builds_index {
                self.err(
                    &bp,
                    "DynamoDB refuses a bulk put while a GSI is being built, and an add_gsi's backfill ends when the run says: load before adding the index, in another scenario",
                );
            }
            if b.items == 0 {
                self.err(&bp.key("items"), "a load writes at least one item");
            }
            if !(1..=MAX_BULK_WRITE_UNITS).contains(&b.max_write_units) {
                self.err(&bp.key("max_write_units"), format!("max_write_units is 1 to {MAX_BULK_WRITE_UNITS}, not {}", b.max_write_units));
            }
            if let Some(p) = self.bulk_put(&bp, b, a, time, names, gsis, entities, key_spaces, table_pk) {
                if time.as_secs() + p.bulk.map_or(0, |l| l.seconds) > duration.as_secs() {
                    self.err(&bp.key("items"), format!("the load ends after the run ({duration}): lengthen the run or load fewer items"));
                }
                out.push(p);
            }
        }
        out
    }

    /// One load: its pattern, and its key space when sorted input makes it time-ordered.
    #[allow(clippy::too_many_arguments)]
    fn bulk_put(
        &mut self,
        bp: &KeyPath,
        b: &crate::scenario::raw::RawBulkPut,
        a: &RawAt,
        time: SimDuration,
        names: &Names,
        gsis: &[GsiSpec],
        entities: &[EntitySpec],
        key_spaces: &mut Vec<KeySpaceSpec>,
        table_pk: usize,
    ) -> Option<PatternSpec> {
        let name = format!("bulk_put@{} (price unknown: billed as table writes)", a.time);
        let entity = b.entity.as_ref().and_then(|e| entities.iter().find(|x| &x.name == e));
        let raw = RawPattern {
            name,
            op: RawOp::PutItem,
            entity: b.entity.clone(),
            key: b.key.clone(),
            item_bytes: b.item_bytes.clone(),
            // Its index writes are a put's (the default): every GSI its items carry keys of.
            ..RawPattern::default()
        };
        // The pattern's own validation, at the load's place, gives the size and key space; the
        // rate follows from them.
        let mut p = self.pattern(bp, &raw, names, gsis, entities, key_spaces, table_pk, SimDuration::from_secs(1));
        let mean = p.size.mean();
        let item_units = (mean / 1024.0).ceil().max(1.0) as u64;
        let max_units = b.max_write_units.clamp(1, MAX_BULK_WRITE_UNITS) as u64;
        let per_s = (max_units / item_units).max(1);
        let seconds = b.items.max(1).div_ceil(per_s);
        p.rate = RateShape::Spike { base: 0.0, peak: b.items.max(1) as f64 / seconds as f64, at_s: time.as_secs(), len_s: seconds };
        let ks = p.key_space.unwrap_or(entity.map_or(table_pk, |e| e.key_space));
        let values = key_spaces[ks].cardinality.max(1);
        let items_per_key = b.items.max(1).div_ceil(values);
        let sorted = b.order == Some(RawBulkOrder::Sorted);
        // A value's items at the load's rate, in whole seconds of the engine's clock.
        let seconds_per_key = items_per_key * item_units / max_units;
        if sorted && seconds_per_key >= 1 {
            let mut rolling = key_spaces[ks].clone();
            rolling.name = format!("{} (sorted load at {})", rolling.name, a.time);
            rolling.popularity = Popularity::Sequential(SimDuration::from_secs(seconds_per_key));
            rolling.shards = None;
            // The value of second s is the (s + phase) / period-th: room for every one the load reaches.
            rolling.cardinality = rolling.cardinality.max((time.as_secs() + seconds) / seconds_per_key + 2);
            key_spaces.push(rolling);
            p.key_space = Some(key_spaces.len() - 1);
        }
        p.bulk = Some(BulkLoad {
            sorted,
            accelerated: b.tier == Some(RawBulkTier::Accelerated),
            items: b.items,
            items_per_key,
            item_units,
            max_write_units: max_units,
            seconds,
            seconds_per_key,
            key_space: ks,
            at: time,
        });
        Some(p)
    }
}
