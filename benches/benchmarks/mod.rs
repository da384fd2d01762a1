//! Benchmark groups.
pub mod micro;
pub mod scenario_run;
