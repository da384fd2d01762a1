//! `[keys.NAME]`: key spaces, their popularity and write sharding.

use super::Validator;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawKeySpace, RawPopularity, RawShardBy, RawSortSpread};
use crate::scenario::{KeySpaceSpec, Popularity, Shards, SortKeys};

use crate::time::SimDuration;

/// Most items per partition-key value a key space may declare.
const MAX_SORT_KEYS: u64 = 1_000_000_000_000;

impl Validator<'_, '_> {
    pub(super) fn key_space(&mut self, at: &KeyPath, name: String, k: &RawKeySpace, duration: SimDuration) -> KeySpaceSpec {
        self.shown_name(at, &name);
        let mut value_names = Vec::new();
        let (cardinality, popularity) = match (&k.values, k.cardinality) {
            (Some(_), Some(_)) => {
                self.err(&at.key("values"), "give either `values` or `cardinality`, not both");
                (1, Popularity::Uniform)
            }
            (Some(values), None) => {
                if k.popularity.is_some() {
                    self.err(&at.key("popularity"), "explicit `values` carry their own weights; remove `popularity`");
                }
                let mut w = Vec::new();
                for (vn, &x) in values {
                    if !x.is_finite() || x < 0.0 {
                        self.err(&at.key("values").key(vn), format!("a weight must be a finite number >= 0, not {x}"));
                    }
                    value_names.push(vn.clone());
                    w.push(x.max(0.0));
                }
                let sum: f64 = w.iter().sum();
                if values.is_empty() || sum <= 0.0 || !sum.is_finite() {
                    self.err(&at.key("values"), "`values` needs at least one value with a weight above 0");
                    w = vec![1.0];
                }
                (w.len() as u64, Popularity::Weights(w))
            }
            (None, card) => {
                let card = match card {
                    None => {
                        self.err(at, "a key space needs `cardinality` (distinct values) or explicit `values`");
                        1
                    }
                    Some(0) => {
                        self.err(&at.key("cardinality"), "cardinality must be at least 1");
                        1
                    }
                    Some(c) => c,
                };
                let pop = match &k.popularity {
                    None | Some(RawPopularity::Uniform) => Popularity::Uniform,
                    Some(RawPopularity::Zipf(s)) => {
                        if !(s.is_finite() && *s > 0.0 && *s <= 10.0) {
                            self.err(
                                &at.key("popularity").key("zipf"),
                                format!("the zipf exponent must be above 0 (and at most 10), not {s}"),
                            );
                        }
                        Popularity::Zipf(*s)
                    }
                    Some(RawPopularity::Hot(h)) => {
                        let hp = at.key("popularity").key("hot");
                        if h.keys == 0 || h.keys > card {
                            self.err(&hp.key("keys"), format!("hot keys must be between 1 and the cardinality ({card}), not {}", h.keys));
                        }
                        if !(h.share > 0.0 && h.share <= 1.0) {
                            self.err(
                                &hp.key("share"),
                                format!("share is the hot keys' part of the traffic: above 0 and at most 1, not {}", h.share),
                            );
                        }
                        if h.share < 1.0 && h.keys == card {
                            self.err(&hp.key("share"), "every key is hot, so the share must be 1");
                        }
                        Popularity::Hot { keys: h.keys, share: h.share }
                    }
                    Some(RawPopularity::Sequential(p)) => {
                        let sp = at.key("popularity").key("sequential");
                        let d = self.duration(&sp, p).unwrap_or(SimDuration::from_secs(86_400));
                        if d < SimDuration::from_secs(1) {
                            self.err(&sp, "the period of a sequential key must be at least 1s");
                        }
                        let periods = duration.as_micros().div_ceil(d.as_micros().max(1));
                        if periods > card {
                            self.err(
                                &at.key("cardinality"),
                                format!("a sequential key with period {d} needs {periods} values over the run; the cardinality is {card}"),
                            );
                        }
                        Popularity::Sequential(d)
                    }
                };
                (card, pop)
            }
        };
        let shards = k.shards.as_ref().map(|s| {
            if s.count == 0 || s.count > 10_000 {
                self.err(&at.key("shards").key("count"), format!("shard count must be between 1 and 10000, not {}", s.count));
            }
            Shards { count: s.count.clamp(1, 10_000), random: s.by != Some(RawShardBy::Hash) }
        });
        let sort_keys = k.sort_keys.as_ref().map(|sk| {
            if sk.items == 0 || sk.items > MAX_SORT_KEYS {
                self.err(
                    &at.key("sort_keys").key("items"),
                    format!("items per partition-key value must be between 1 and {MAX_SORT_KEYS:e}, not {}", sk.items),
                );
            }
            SortKeys { items: sk.items.clamp(1, MAX_SORT_KEYS), newest: sk.spread == Some(RawSortSpread::Newest) }
        });
        KeySpaceSpec {
            name,
            cardinality,
            popularity,
            value_names,
            shards,
            sort_keys,
            popularity_from: k.popularity_from.unwrap_or_default(),
            cardinality_from: k.cardinality_from.unwrap_or_default(),
        }
    }
}
