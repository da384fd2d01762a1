//! `[[pattern]]`: access patterns: the operation, keys, item sizes, index writes and rate.

use crate::time::SimDuration;
use crate::units::Consistency;

/// DynamoDB operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// GetItem.
    GetItem,
    /// Query.
    Query,
    /// Scan.
    Scan,
    /// PutItem.
    PutItem,
    /// UpdateItem.
    UpdateItem,
    /// DeleteItem.
    DeleteItem,
    /// BatchGetItem.
    BatchGet,
    /// BatchWriteItem.
    BatchWrite,
    /// TransactGetItems.
    TransactGet,
    /// TransactWriteItems.
    TransactWrite,
}

impl Op {
    /// Every operation, in declaration order (`op as usize` indexes it).
    pub const ALL: [Op; 10] = [
        Op::GetItem,
        Op::Query,
        Op::Scan,
        Op::PutItem,
        Op::UpdateItem,
        Op::DeleteItem,
        Op::BatchGet,
        Op::BatchWrite,
        Op::TransactGet,
        Op::TransactWrite,
    ];

    /// Does it consume write capacity?
    #[must_use]
    pub const fn is_write(self) -> bool {
        matches!(self, Op::PutItem | Op::UpdateItem | Op::DeleteItem | Op::BatchWrite | Op::TransactWrite)
    }

    /// The API name.
    #[must_use]
    pub const fn api_name(self) -> &'static str {
        match self {
            Op::GetItem => "GetItem",
            Op::Query => "Query",
            Op::Scan => "Scan",
            Op::PutItem => "PutItem",
            Op::UpdateItem => "UpdateItem",
            Op::DeleteItem => "DeleteItem",
            Op::BatchGet => "BatchGetItem",
            Op::BatchWrite => "BatchWriteItem",
            Op::TransactGet => "TransactGetItems",
            Op::TransactWrite => "TransactWriteItems",
        }
    }
}

/// Which resource a pattern reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexRef {
    /// A GSI, by position.
    Gsi(usize),
    /// An LSI, by position (charged to the table).
    Lsi(usize),
}

/// The attributes of an item given by a sample item or a schema: each one's bytes (its name's
/// with its value's; the mean where the schema's sizes vary), by name. Sizes the entries of
/// the indexes that project only some of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ItemShape {
    /// (name, bytes).
    pub attributes: Vec<(String, u64)>,
}

impl ItemShape {
    /// Does the item carry attribute `name`?
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.attributes.iter().any(|(n, _)| n == name)
    }

    /// Bytes of the attributes named `names` that the item carries, each counted once.
    #[must_use]
    pub fn bytes_of<'a>(&self, names: impl IntoIterator<Item = &'a String>) -> u64 {
        let mut seen: Vec<&str> = Vec::new();
        names
            .into_iter()
            .filter(|n| {
                let new = !seen.contains(&n.as_str());
                seen.push(n);
                new
            })
            .filter_map(|n| self.attributes.iter().find(|(a, _)| a == n).map(|(_, b)| *b))
            .sum()
    }
}

/// Item sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeSpec {
    /// Every item this many bytes.
    Fixed(u64),
    /// Log-normal with this mean (bytes) and sigma, clamped to 1..=400 KB.
    LogNormal {
        /// Mean bytes.
        mean: f64,
        /// Sigma of the underlying normal.
        sigma: f64,
    },
    /// Uniform between `lo` and `hi` bytes (an item given by its attributes' schema, with
    /// sizes that vary).
    Uniform {
        /// Fewest bytes.
        lo: u64,
        /// Most bytes.
        hi: u64,
    },
}

impl SizeSpec {
    /// Mean bytes.
    #[must_use]
    pub fn mean(&self) -> f64 {
        match *self {
            SizeSpec::Fixed(b) => b as f64,
            SizeSpec::LogNormal { mean, .. } => mean,
            SizeSpec::Uniform { lo, hi } => (lo + hi) as f64 / 2.0,
        }
    }
}

/// Index write kind (spec §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexWrite {
    /// 1 write.
    Insert,
    /// 2 writes.
    KeyChange,
    /// 1 write.
    Update,
    /// 1 write: the item loses the index key, and its entry leaves the index.
    Remove,
    /// 1 write: a new entry under value `value` (rank in the index key space).
    InsertAt {
        /// Rank of the value.
        value: u64,
    },
    /// 2 writes: the entry leaves value `from` (a delete on its partition) for value `to` (a
    /// put on its), by rank in the index key space.
    Move {
        /// Rank of the value left.
        from: u64,
        /// Rank of the value reached.
        to: u64,
    },
}

impl IndexWrite {
    /// Index writes per base write.
    #[must_use]
    pub const fn writes(self) -> u64 {
        match self {
            IndexWrite::Insert | IndexWrite::InsertAt { .. } | IndexWrite::Update | IndexWrite::Remove => 1,
            IndexWrite::KeyChange | IndexWrite::Move { .. } => 2,
        }
    }
}

/// A rate shape: requests per second as a function of time.
#[derive(Clone, Debug, PartialEq)]
pub enum RateShape {
    /// Constant.
    Constant(f64),
    /// Daily sine.
    Diurnal {
        /// Lowest.
        min: f64,
        /// Highest.
        max: f64,
        /// Second of the UTC day of the highest rate.
        peak_s_of_day: u64,
    },
    /// A spike.
    Spike {
        /// Outside.
        base: f64,
        /// During.
        peak: f64,
        /// Start, s.
        at_s: u64,
        /// Length, s.
        len_s: u64,
    },
    /// A ramp.
    Ramp {
        /// Rate before and at the start.
        from: f64,
        /// Rate at the end and after.
        to: f64,
        /// Start, s.
        start_s: u64,
        /// Length, s.
        over_s: u64,
    },
    /// Piecewise constant steps (start second, rate), sorted, first at 0.
    Steps(Vec<(u64, f64)>),
    /// A closed loop of client threads (no open-loop arrivals).
    ClosedLoop(ClosedLoop),
}

impl RateShape {
    /// The rate during second `s` of the run (evaluated at its midpoint), for a run that starts
    /// `start_s_of_day` seconds into a UTC day.
    #[must_use]
    pub fn at(&self, s: u64, start_s_of_day: u64) -> f64 {
        let t = s as f64 + 0.5;
        match self {
            RateShape::Constant(r) => *r,
            RateShape::Diurnal { min, max, peak_s_of_day } => {
                let tod = (start_s_of_day as f64 + t) % 86_400.0;
                let phase = (tod - *peak_s_of_day as f64) / 86_400.0 * std::f64::consts::TAU;
                min + (max - min) * (1.0 + phase.cos()) / 2.0
            }
            RateShape::Spike { base, peak, at_s, len_s } => {
                if s >= *at_s && s < at_s + len_s {
                    *peak
                } else {
                    *base
                }
            }
            RateShape::Ramp { from, to, start_s, over_s } => {
                if s < *start_s {
                    *from
                } else if s >= start_s + over_s {
                    *to
                } else {
                    from + (to - from) * ((t - *start_s as f64) / *over_s as f64)
                }
            }
            RateShape::Steps(steps) => {
                let i = steps.partition_point(|&(start, _)| start <= s);
                steps[i.saturating_sub(1)].1
            }
            // Threads send their requests as answers come back, not as arrivals.
            RateShape::ClosedLoop(_) => 0.0,
        }
    }

    /// The highest rate of the shape (for work estimates and the validator's limits).
    #[must_use]
    pub fn peak(&self) -> f64 {
        match self {
            RateShape::Constant(r) => *r,
            RateShape::Diurnal { max, .. } => *max,
            RateShape::Spike { base, peak, .. } => base.max(*peak),
            RateShape::Ramp { from, to, .. } => from.max(*to),
            RateShape::Steps(s) => s.iter().map(|x| x.1).fold(0.0, f64::max),
            // At most a request per thread per cycle of think time and a 1 ms answer.
            RateShape::ClosedLoop(c) => c.threads as f64 * 1e6 / (c.think_us as f64 + 1_000.0),
        }
    }
}

/// Client threads that each wait for an answer before sending the next request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosedLoop {
    /// Threads.
    pub threads: u64,
    /// Requests in all.
    pub total: u64,
    /// Pause after an answer, µs.
    pub think_us: u64,
    /// Stop at the first failed request.
    pub stop_on_failure: bool,
}

/// An access pattern.
#[derive(Clone, Debug)]
pub struct PatternSpec {
    /// Name.
    pub name: String,
    /// Operation.
    pub op: Op,
    /// The entity type it reads or writes (a position in `Scenario::entities`).
    pub entity: Option<usize>,
    /// Key space of the partition-key values touched (`None` for a scan).
    pub key_space: Option<usize>,
    /// Index read instead of the table.
    pub index: Option<IndexRef>,
    /// Global tables: the replica (number in `Scenario::replicas`) the requests are sent to;
    /// `None`: the table in its own region.
    pub replica: Option<usize>,
    /// Item sizes.
    pub size: SizeSpec,
    /// Items per request.
    pub items: u64,
    /// Read consistency (reads only).
    pub consistency: Consistency,
    /// Rate shape.
    pub rate: RateShape,
    /// Index writes per request: (GSI position, kind).
    pub index_writes: Vec<(usize, IndexWrite)>,
    /// (GSI, bytes) of the entries its writes hold where sized from the item's attributes
    /// (spec §1.3); the others follow the projection's rule.
    pub gsi_entry_bytes: Vec<(usize, u64)>,
    /// When its item is given by attributes: the LSIs its items are in (those carrying their
    /// sort key), each with its entry's bytes where sized from the item. `None`: every LSI (or
    /// its entity's), by the projection's rule.
    pub lsi_entries: Option<Vec<(usize, Option<u64>)>>,
    /// Read-after-write delay for stale-read reporting (GSI queries only).
    pub after_write: Option<SimDuration>,
    /// Share of its writes whose condition fails (0 without a condition).
    pub condition_fails: f64,
    /// Query or scan: the most items a page returns (`Limit`).
    pub limit: Option<u64>,
    /// Scan: parallel scan segments (1: a plain scan).
    pub segments: u64,
    /// A read of a write-sharded key: every shard (`Some(true)`), one (`Some(false)`), or as
    /// the key space's `shards.by` says (`None`).
    pub fanout_all: Option<bool>,
    /// The bulk put from S3 this pattern loads (`[[at]] bulk_put`), if it is one.
    pub bulk: Option<BulkLoad>,
    /// A transaction's items in other tables of the account (`[[pattern.also]]`).
    pub also: Vec<AlsoSpec>,
    /// A get's follow-up write in another table of the account (`[pattern.then]`).
    pub then: Option<AlsoSpec>,
}

/// Items of a transaction in another table of the account, or the write that follows a read
/// there, as its owner's file states them;
/// [`crate::scenario::join_account`] resolves them against that table ([`Self::leg`]).
#[derive(Clone, Debug)]
pub struct AlsoSpec {
    /// The other table's name.
    pub table: String,
    /// What the transaction does to each item: [`Op::PutItem`], [`Op::UpdateItem`] or
    /// [`Op::DeleteItem`].
    pub op: Op,
    /// The key space named (of that table), if any.
    pub key: Option<String>,
    /// Item sizes.
    pub size: SizeSpec,
    /// Items in that table.
    pub items: u64,
    /// Index writes named, by that table's GSI names (`None`: "none", the index is left
    /// alone).
    pub index_writes: Vec<(String, Option<IndexWrite>)>,
    /// Resolved when the account is joined: the table's position in the account, and the
    /// items as a pattern of that table (its key space, sizes and index writes; `op` as
    /// above; a transaction's charged at transactional rates).
    pub leg: Option<(usize, Box<PatternSpec>)>,
}

/// A bulk put from S3 (`[[at]] bulk_put`, §16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkLoad {
    /// The input is sorted by partition key.
    pub sorted: bool,
    /// The ACCELERATED tier (its effect is not published: recorded, not modelled).
    pub accelerated: bool,
    /// Items loaded.
    pub items: u64,
    /// Items of each partition-key value (the items over the key space's values, rounded up).
    pub items_per_key: u64,
    /// Write units of one item.
    pub item_units: u64,
    /// The load's cap, write units a second (`MaxWriteRequestUnits`).
    pub max_write_units: u64,
    /// Seconds the load runs.
    pub seconds: u64,
    /// Whole seconds one value's items take at the cap (sorted input: how long one value's
    /// partition takes the whole load).
    pub seconds_per_key: u64,
    /// Key space of the loaded items' partition keys.
    pub key_space: usize,
    /// When the load starts, from the start of the run.
    pub at: SimDuration,
}

impl PatternSpec {
    /// Bytes of its items' entry in GSI `g` where sized from the item's attributes.
    #[must_use]
    pub fn gsi_entry(&self, g: usize) -> Option<u64> {
        self.gsi_entry_bytes.iter().find(|x| x.0 == g).map(|x| x.1)
    }

    /// Requests each request becomes: a parallel scan's segments, or every shard of a
    /// write-sharded key a read queries (a `GetItem` or `Query` of a randomly sharded key, or
    /// as `fanout_all` says); 1 otherwise. The engine, the guard and the screens all count
    /// fan-out by this.
    #[must_use]
    pub fn fanout(&self, key_spaces: &[super::KeySpaceSpec]) -> u64 {
        let shards = self.key_space.and_then(|k| key_spaces[k].shards).filter(|s| s.count > 1);
        match shards {
            _ if self.segments > 1 => self.segments,
            Some(s) if self.fanout_all.unwrap_or(s.random) && matches!(self.op, Op::GetItem | Op::Query) => s.count,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let spike = RateShape::Spike { base: 10.0, peak: 100.0, at_s: 60, len_s: 30 };
        assert_eq!(spike.at(59, 0), 10.0);
        assert_eq!(spike.at(60, 0), 100.0);
        assert_eq!(spike.at(89, 0), 100.0);
        assert_eq!(spike.at(90, 0), 10.0);
        let ramp = RateShape::Ramp { from: 0.0, to: 100.0, start_s: 0, over_s: 100 };
        assert!((ramp.at(49, 0) - 49.5).abs() < 1e-9);
        assert_eq!(ramp.at(100, 0), 100.0);
        let steps = RateShape::Steps(vec![(0, 1.0), (10, 5.0)]);
        assert_eq!(steps.at(9, 0), 1.0);
        assert_eq!(steps.at(10, 0), 5.0);
        let d = RateShape::Diurnal { min: 100.0, max: 300.0, peak_s_of_day: 14 * 3600 };
        assert!((d.at(14 * 3600, 0) - 300.0).abs() < 1e-3);
        assert!((d.at(2 * 3600, 0) - 100.0).abs() < 1e-3);
        // A run starting at 12:00 reaches the peak two hours in.
        assert!((d.at(2 * 3600, 12 * 3600) - 300.0).abs() < 1e-3);
    }
}
