//! Benchmark groups.
pub(crate) mod backtest;
pub(crate) mod check;
pub(crate) mod lsi;
pub(crate) mod micro;
pub(crate) mod recommend;
pub(crate) mod scenario_run;
pub(crate) mod sweep_scaling;
