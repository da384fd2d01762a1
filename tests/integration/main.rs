//! Integration tests, one binary. Numbers are worked out by hand from the behaviour spec
//! (docs/dynamodb-behaviour.md of the shared folder), never copied from the program's output.

mod backtest; // ddbsim backtest and --calibrate on histories with hidden parameters
mod behaviour; // engine behaviour against hand-worked expectations (§2, §3, §7, §11, §12)
mod bulk; // bulk put from S3: a sorted load's rolling hot partition, a shuffled one, its index writes, what DynamoDB refuses
mod calibration; // --calibrate of the GSIs (coverage, absorption bound), hidden behind get-metric-data and import
mod check; // ddbsim check: findings worked by hand, phases, exit codes, JUnit
mod cli; // the binary as a user runs it: exit codes, files, messages
mod cost; // bills and compare picks against hand-worked dollars
mod credit; // credit is not capacity: sustained picks, credit-only candidates, the verdict that says what a run held on
mod defaults; // no silent wrong answers: index writes by default, a bill rebuilt from a bill, a diff that simulates its change
mod determinism; // same seed, same bytes
mod diff; // ddbsim diff: two designs' deltas worked by hand, the pull-request comment, the cost guardrail
mod entities; // single-table designs: entity types, collections, overloaded and sparse indexes
mod fidelity; // fast within Monte Carlo noise of exact
mod fuzz_corpus; // the fuzz targets' committed corpora and findings, replayed
mod global_tables; // replicas: every write in every region, lag, regional bills
mod hardening; // the adversarial review's findings, each reproduced
mod hardening_fourth; // the fourth adversarial review: what a live account, a hostile CLI, a bill and a pull request can feed
mod hardening_third; // the third adversarial review: one guard, one scale_rate meaning, files that cannot be hijacked or lost
mod history_loop; // import names its history, backtest finds it, Ctrl-C during a calibration writes nothing
mod house; // the house rules of src/: file and function lengths, no import cycles, layers that point one way
mod import; // table definitions and CloudWatch history in the formats AWS tools write
mod indexes; // GSI cascade, index write units, LSI collections, propagation, backfill
mod live; // ddbsim import aws:... against moto's server on 127.0.0.1, through the AWS CLI
mod malformed; // a battery of bad scenarios, each with a clear error
mod measured; // the real service's published measurements, reproduced by the default model
mod memory; // the guard's memory estimate against the measured peak
mod price_list; // AWS's Price List offer files into catalogs: prices, gaps, bad files, update from a local server, bounded memory
mod prices; // a bill per region against the figure its price source worked
mod properties; // invariants over generated scenarios (proptest)
mod quotas; // the Region's provisioned-capacity quotas: raises refused, quotas stated below what is provisioned refused
mod readme; // every command README shows runs
mod recommend; // the capacity search against a random search of 256 candidates
mod release; // the release path here: workflows and action parse, the install script checks a build, the action's step on a local binary
mod report; // charts: data equal to the CSV, plot, report.html in Chromium
mod scaling; // capacity that moves: auto scaling, on-demand growth, splits
mod scenarios; // every bundled scenario loads and runs
mod seeds; // the seed documents' designs hold what their comments say
mod size; // ddbsim size: an item's bytes, units and index entries worked by hand
mod sweeps; // sweeps, replications, sharded sweeps, the shards explorer
mod transactions;
mod truths; // histories with known parameters, imported and calibrated: the record reproduced, the truth in each interval, a fix that cures it // transactions over the tables of an account: each item charged on its table, either cancelling
mod verdict; // the verdict that opens the summary and the report, against hand-worked runs

use ddbsim::report::Summary;
use ddbsim::scenario::{parse_str, Scenario};
use ddbsim::{simulate, RunOptions, RunResult};
use std::path::Path;

/// Parses scenario text (panics with the problems if it is invalid).
pub fn scenario(text: &str) -> Scenario {
    match parse_str(text, Path::new("test.toml")) {
        Ok(s) => s,
        Err(e) => panic!("test scenario invalid:\n{e}"),
    }
}

/// Writes an import's files into a fresh folder and loads the scenario.
pub fn load_imported(imported: &ddbsim::import::Imported) -> (tempfile::TempDir, Scenario) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &imported.traces {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let path = dir.path().join("t.toml");
    std::fs::write(&path, &imported.scenario).unwrap();
    let sc = ddbsim::scenario::load(&path).unwrap_or_else(|e| panic!("{e}\n{}", imported.scenario));
    (dir, sc)
}

/// Runs the binary with `args`.
pub fn ddbsim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(args).output().expect("the binary runs")
}

/// Fails under CI when `tool` is missing (.ci/run installs it); elsewhere says so and returns
/// false for the caller to stop.
pub fn have(tool: &str) -> bool {
    let found = std::process::Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found || std::env::var_os("CI").is_none(), "{tool} is not installed: .ci/run installs it");
    if !found {
        eprintln!("skipped outside CI: {tool} is not installed (.ci/run's pip install)");
    }
    found
}

/// Runs the AWS CLI command line `line` (a shell line) against a closed local endpoint with
/// test credentials and returns its stderr: a call that passes the CLI's own parameter
/// validation fails only with "Could not connect to the endpoint URL".
pub fn aws_offline(line: &str) -> String {
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{line} --endpoint-url http://127.0.0.1:9"))
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_MAX_ATTEMPTS", "1")
        .env("AWS_CONFIG_FILE", "/dev/null")
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Runs with partition recording on.
pub fn run(sc: &Scenario) -> RunResult {
    simulate(sc, &RunOptions { record_partitions: true, ..RunOptions::default() })
}

/// Runs and summarises.
pub fn run_summary(sc: &Scenario) -> Summary {
    Summary::new(sc, &run(sc), &ddbsim::cost::Catalog::builtin())
}

/// One get-metric-data result of a run's minutes (the library's exporter).
pub use ddbsim::bench_support::history::metric_data_result;
