//! `[keys.NAME]`: key spaces, their popularity, write sharding and sort keys.

use crate::time::SimDuration;

/// A key space.
#[derive(Clone, Debug)]
pub struct KeySpaceSpec {
    /// Name.
    pub name: String,
    /// Number of distinct values.
    pub cardinality: u64,
    /// Popularity.
    pub popularity: Popularity,
    /// Names of explicit values, in weight order (for reports).
    pub value_names: Vec<String>,
    /// Write sharding.
    pub shards: Option<Shards>,
    /// A sort key: items per value and how traffic spreads over them.
    pub sort_keys: Option<SortKeys>,
    /// Where the popularity comes from.
    pub popularity_from: PopularityFrom,
    /// Where the cardinality comes from.
    pub cardinality_from: CardinalityFrom,
}

/// Where a key space's cardinality comes from (`cardinality_from`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardinalityFrom {
    /// Stated by whoever wrote the scenario (the default).
    #[default]
    Stated,
    /// An assumption `ddbsim import` made (no definition states an attribute's distinct values).
    Assumption,
    /// The table's `ItemCount`, taken as one item per value by `ddbsim import`.
    ItemCount,
}

/// What of a key space a finding can rest on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFact {
    /// Its popularity (the skew).
    Popularity,
    /// Its number of values.
    Cardinality,
}

impl Popularity {
    /// As a scenario writes it, shortly: `zipf 0.8`, `hot 1 key at 0.6`, `uniform`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Popularity::Uniform => "uniform".into(),
            Popularity::Zipf(s) => format!("zipf {s}"),
            Popularity::Hot { keys, share } => format!("hot {keys} key(s) at {share}"),
            Popularity::Sequential(d) => format!("sequential, {d} a period"),
            Popularity::Weights(w) => format!("{} weighted values", w.len()),
            Popularity::Joint { parts, head, .. } => {
                format!("joint of {}, hottest tuple {:.4} %", parts.join(" × "), head.first().copied().unwrap_or(0.0) * 100.0)
            }
        }
    }
}

impl KeySpaceSpec {
    /// When `fact` of this key space is an assumption of `ddbsim import`: which, and how to
    /// settle it.
    #[must_use]
    pub fn assumed(&self, fact: KeyFact) -> Option<String> {
        match fact {
            KeyFact::Popularity => (self.popularity_from == PopularityFrom::Assumption).then(|| {
                format!(
                    "keys.{}.popularity ({}) is import's ASSUMPTION: `ddbsim backtest --calibrate` fits it to the recorded throttle events, and a Contributor Insights top-keys report given to import measures it",
                    self.name,
                    self.popularity.describe()
                )
            }),
            KeyFact::Cardinality => match self.cardinality_from {
                CardinalityFrom::Stated => None,
                CardinalityFrom::Assumption => Some(format!(
                    "keys.{}.cardinality ({}) is import's ASSUMPTION: no definition states an attribute's distinct values; state the real count",
                    self.name, self.cardinality
                )),
                CardinalityFrom::ItemCount => Some(format!(
                    "keys.{}.cardinality ({}) is the table's ItemCount, import's ASSUMPTION of one item per value: fewer values if they hold item collections",
                    self.name, self.cardinality
                )),
            },
        }
    }
}

/// Where a key space's popularity comes from (`popularity_from`): `ddbsim recommend` warns
/// when an assumed skew prices a table whose history throttled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PopularityFrom {
    /// Stated by whoever wrote the scenario (the default).
    #[default]
    Stated,
    /// An assumption `ddbsim import` made (the table's metrics do not show the skew).
    Assumption,
    /// A Contributor Insights report of the table's most accessed keys.
    ContributorInsights,
    /// Fitted by `ddbsim backtest --calibrate` to the table's recorded throttle events.
    Calibration,
}

/// The sort keys of each partition-key value: its item collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortKeys {
    /// Items per partition-key value.
    pub items: u64,
    /// Every request goes to the newest item (an increasing sort key) rather than a uniform one.
    pub newest: bool,
}

/// Key popularity.
#[derive(Clone, Debug, PartialEq)]
pub enum Popularity {
    /// Equal weights.
    Uniform,
    /// Zipf exponent.
    Zipf(f64),
    /// `keys` hot values sharing `share` of the traffic.
    Hot {
        /// Hot values.
        keys: u64,
        /// Their share, 0-1.
        share: f64,
    },
    /// Time-ordered keys: all traffic on the current period's key.
    Sequential(SimDuration),
    /// Explicit weights, one per value (normalised).
    Weights(Vec<f64>),
    /// A multi-attribute GSI key's independent attributes: the most probable tuples one by one
    /// and the rest equally likely ([`super::joint`]).
    Joint {
        /// The attributes' key spaces, in key-schema order.
        parts: Vec<String>,
        /// Probability of each head tuple, most probable first.
        head: std::sync::Arc<[f64]>,
        /// Probability of the other tuples together.
        tail: f64,
    },
}

/// Write sharding of a key space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// Suffixes.
    pub count: u64,
    /// Reads must query every shard (random suffix) rather than one (calculated suffix).
    pub random: bool,
}
