//! # ddbsim — a capacity and cost simulator for Amazon DynamoDB
//!
//! ## Overview
//!
//! A run goes **scenario → model → engine → report**:
//!
//! 1. [`scenario`] reads a TOML scenario file into raw serde structs and validates them into a
//!    typed [`Scenario`]; problems name file, line, column and key path. A scenario can also be
//!    built in code ([`scenario::raw`]) and checked with [`scenario::validate`].
//! 2. The traffic of each access pattern is drawn from its own seeded stream: request counts,
//!    arrival times, keys and item sizes.
//! 3. The model is DynamoDB: what a request charges (spec §1), per-second admission of tables
//!    and GSIs with their partitions' 3,000 RU / 1,000 WU caps and burst credit, throttle
//!    reasons, the client's retries, and capacity that moves (auto scaling, on-demand growth,
//!    splits, mode switches). [`limits`] holds every DynamoDB number.
//! 4. [`simulate`] runs the model second by second, in `exact` or `fast` fidelity, and returns a
//!    [`RunResult`]: per table and GSI a per-minute record with the capacity mode in force.
//! 5. [`cost`] bills the recorded usage; [`study`] runs many simulations (replications,
//!    `compare`, sweeps, the shard explorer); [`report`] renders results as text and files.
//!
//! The behavioural rules and their sources are in `docs/dynamodb-behaviour.md` of the project's
//! shared folder; each module's docs name the rules it implements.
//!
//! ## From code
//!
//! Run a bundled scenario and read its bill:
//!
//! ```
//! use ddbsim::{bill_of, load, simulate, Catalog, RunOptions, SimDuration};
//!
//! let sc = load(std::path::Path::new("scenarios/steady-provisioned.toml")).unwrap();
//! let r = simulate(&sc, &RunOptions { duration: Some(SimDuration::from_secs(600)), ..RunOptions::default() });
//! let bill = bill_of(&sc, &r, &Catalog::builtin());
//! // 5,000 RCU and 1,000 WCU provisioned for 10 minutes, and 100 GB stored, at us-east-1 prices:
//! // (5,000 x $0.00013 + 1,000 x $0.00065) / 6 + 100 GB x $0.25 x (1/6 h / 730 h).
//! let by_hand = (5_000.0 * 0.00013 + 1_000.0 * 0.00065) / 6.0 + 100.0 * 0.25 / 6.0 / 730.0;
//! assert!((bill.total_usd - by_hand).abs() < 1e-9);
//! assert_eq!(r.totals().failed, 0);
//! ```

pub mod alloc;
#[doc(hidden)]
pub mod bench_support;
mod cli;
pub mod cost;
mod engine;
pub mod format;
pub mod guard;
mod hint;
pub mod import;
pub mod input;
pub mod item_size;
pub mod limits;
mod metrics;
mod model;
mod output;
pub mod report;
mod rng;
pub mod scenario;
mod stats;
pub mod study;
mod time;
mod traffic;
pub mod units;

pub use cli::main as cli_main;
pub use cost::{bill, bill_of, Bill, BillOptions, Catalog, Usage};
pub use engine::{
    simulate, simulate_account, CapacityEvent, CollectionInfo, CreditLevel, Crossing, DaxMinute, DaxOutcome, GiveUp, GivenUp, HotKey,
    IndexLevel, Progress, Reserve, ResourceId, ResourceKind, ResourceOutcome, RunOptions, RunResult, StopToken,
};
pub use metrics::{MinuteRecord, PartitionMinute, PatternTotals, Totals};
pub use model::{CapacityAction, CapacityMode, Dim, Reason, ThrottlingReason};
pub use output::OutputError;
pub use report::{Render, Summary};
pub use scenario::{load, parse_str, Fidelity, Scenario, ScenarioError};
pub use stats::{Histogram, Stat};
pub use study::{compare, CompareOptions, Comparison};
pub use time::{parse_duration, SimDuration, SimTime};
