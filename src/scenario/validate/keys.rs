//! `[keys.NAME]`: key spaces, their popularity and write sharding.

use super::Names;
use super::Validator;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawCoverage, RawKeyRef, RawKeySpace, RawPopularity, RawShardBy, RawSortSpread};
use crate::scenario::{joint_key_space, KeySpaceSpec, Popularity, Shards, SortKeys};

use crate::time::SimDuration;

/// Most items per partition-key value a key space may declare.
const MAX_SORT_KEYS: u64 = 1_000_000_000_000;

/// Most attributes of a multi-attribute GSI key (Developer Guide, GSI.DesignPattern.MultiAttributeKeys).
const MAX_KEY_ATTRIBUTES: usize = 4;

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

    /// The key space of an index key: one key space, or the tuple of a multi-attribute key
    /// (1 to 4 distinct attributes, none time-ordered or write-sharded), added to `key_spaces`
    /// once (§16).
    pub(super) fn index_key(
        &mut self,
        names: &Names,
        at: &KeyPath,
        key: &RawKeyRef,
        correlated: bool,
        key_spaces: &mut Vec<KeySpaceSpec>,
    ) -> Option<usize> {
        let list = match key {
            RawKeyRef::One(k) => return self.key_ref(names, at, k),
            RawKeyRef::Tuple(v) => v,
        };
        if list.is_empty() || list.len() > MAX_KEY_ATTRIBUTES {
            self.err(at, format!("a multi-attribute key has 1 to {MAX_KEY_ATTRIBUTES} attributes, not {}", list.len()));
            return None;
        }
        let mut parts = Vec::new();
        let mut ok = true;
        for (i, k) in list.iter().enumerate() {
            let kp = at.index(i);
            let Some(ks) = self.key_ref(names, &kp, k) else {
                ok = false;
                continue;
            };
            if parts.contains(&ks) {
                self.err(&kp, format!("\"{k}\" is named twice: each attribute of a key appears once"));
                ok = false;
            }
            if list.len() > 1 && matches!(key_spaces[ks].popularity, Popularity::Sequential(_)) {
                self.err(
                    &kp,
                    format!("keys.{k} is sequential (time-ordered): ddbsim forms a multi-attribute key from key spaces whose popularity does not move with time; give the current bucket's weight with `values` or a `hot` popularity"),
                );
                ok = false;
            }
            if list.len() > 1 && key_spaces[ks].shards.is_some() {
                self.err(
                    &kp,
                    format!("keys.{k} is write-sharded: in a multi-attribute key the shard suffix is an attribute of its own (a key space of `count` uniform values)"),
                );
                ok = false;
            }
            parts.push(ks);
        }
        if !ok {
            return None;
        }
        if let [one] = parts[..] {
            return Some(one);
        }
        let specs: Vec<&KeySpaceSpec> = parts.iter().map(|&i| &key_spaces[i]).collect();
        let Some(joint) = joint_key_space(&specs, correlated) else {
            self.err(at, "the tuple of these attributes has more than 2^64 values: lower their cardinalities");
            return None;
        };
        let found = key_spaces.iter().enumerate().position(|(i, k)| k.name == joint.name && !names.keys.values().any(|&n| n == i));
        Some(found.unwrap_or_else(|| {
            key_spaces.push(joint);
            key_spaces.len() - 1
        }))
    }

    /// A GSI's `coverage`: one share, or each key attribute's share multiplied (an item is in
    /// the index only when it carries every key attribute: the sparse rule, inferred).
    pub(super) fn coverage(&mut self, at: &KeyPath, raw: Option<&RawCoverage>, key: &RawKeyRef, default: f64) -> f64 {
        let shares: Vec<(KeyPath, f64)> = match raw {
            None => vec![(at.clone(), default)],
            Some(RawCoverage::One(c)) => vec![(at.clone(), *c)],
            Some(RawCoverage::Each(v)) => {
                let n = match key {
                    RawKeyRef::One(_) => 1,
                    RawKeyRef::Tuple(t) => t.len(),
                };
                if v.len() != n {
                    self.err(at, format!("a coverage list gives one share per key attribute: {n}, not {}", v.len()));
                }
                v.iter().enumerate().map(|(i, c)| (at.index(i), *c)).collect()
            }
        };
        let mut product = 1.0;
        for (p, c) in shares {
            if !(c > 0.0 && c <= 1.0) {
                self.err(&p, format!("coverage is the share of items in the index: more than 0 and at most 1, not {c}"));
            }
            product *= c.clamp(f64::MIN_POSITIVE, 1.0);
        }
        product
    }
}
