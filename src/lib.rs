//! # ddbsim — a capacity and cost simulator for Amazon DynamoDB
//!
//! ## Overview
//!
//! A run goes **scenario → model → engine → report**:
//!
//! 1. [`scenario`] reads a TOML scenario file into raw serde structs and validates them into a
//!    typed [`scenario::Scenario`]; problems name file, line, column and key path.
//! 2. [`traffic`] turns rate shapes and key popularity into request counts, arrival times, keys
//!    and item sizes, each from its own seeded stream ([`rng`]).
//! 3. [`model`] is DynamoDB: per-second admission of tables and GSIs, partitions and their
//!    3,000 RU / 1,000 WU caps, burst credit, throttle reasons, and the client's retries;
//!    [`units`] prices each request in capacity units.
//! 4. [`engine`] runs the model second by second, in `exact` or `fast` fidelity, and fills a
//!    [`metrics::Recorder`].
//! 5. [`report`] writes `summary.json`, `timeseries.csv` and `partitions.csv` ([`output`] makes
//!    every write atomic) and the terminal summary.
//!
//! The behavioural rules and their sources are in `docs/dynamodb-behaviour.md` of the project's
//! shared folder; each module's docs name the rules it implements.

pub mod billing;
pub mod cli;
pub mod compare;
pub mod cost;
pub mod engine;
pub mod guard;
pub mod limits;
pub mod metrics;
pub mod model;
pub mod output;
pub mod report;
pub mod rng;
pub mod runner;
pub mod scenario;
pub mod stats;
pub mod sweep;
pub mod time;
pub mod traffic;
pub mod units;
