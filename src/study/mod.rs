//! Studies: many runs of a scenario, and what they say together. Library code that never
//! prints: progress goes to the [`crate::Progress`] of the run options, cancellation through
//! their [`crate::StopToken`].
//!
//! * [`runner`]: replications and parallel jobs, reduced serially into [`Headline`] statistics.
//! * [`compare`]: the same traffic under each capacity mode, billed and judged.
//! * [`sweep`]: any scenario key over values, a Cartesian product, sharded over machines.
//! * [`shards`]: the write-sharding explorer.
//! * [`recommend`]: the cheapest capacity settings within a throttle limit, screened by
//!   [`screen`]'s per-minute model and confirmed by the engine.
//! * [`check`]: the design guides' load-test plan and design review, for CI.
//! * [`diff`]: two designs on one seed, side by side, for a pull request's review.
//! * [`sustain`]: whether a setting holds its load sustained or only on burst credit and GSI
//!   absorption.

pub mod backtest;
pub mod check;
pub mod compare;
pub mod diff;
pub mod recommend;
pub mod runner;
pub mod screen;
pub mod shards;
pub mod sustain;
pub mod sweep;

pub use compare::{compare, compare_replications, CompareMode, CompareOptions, Comparison, ModeRow, ModeStats, ReplicatedComparison};
pub use runner::{par_indexed, replicate, run_jobs, CostBasis, Headline, HeadlineStats};
pub use shards::{explore, recommend, shard_counts, ShardRow, ShardsOptions, ShardsOutput};
pub use sweep::{merge, parse_set, parse_shard, prepare, set_path, PointOut, SetAxis, Sweep, SweepError, SweepOutput};
