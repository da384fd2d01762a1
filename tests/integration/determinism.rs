//! The same scenario and seed give byte-identical outputs.

use ddbsim::report::{tables, Summary};
use ddbsim::scenario::{load, Fidelity};
use ddbsim::SimDuration;
use ddbsim::{simulate, RunOptions};
use std::path::Path;

fn outputs(seed: u64, fidelity: Fidelity) -> (String, Vec<u8>, Vec<u8>) {
    let sc = load(Path::new("scenarios/quickstart.toml")).unwrap();
    let opts = RunOptions {
        seed: Some(seed),
        fidelity: Some(fidelity),
        duration: Some(SimDuration::from_secs(420)),
        record_partitions: true,
        ..RunOptions::default()
    };
    let r = simulate(&sc, &opts);
    (
        Summary::new(&sc, &r, &ddbsim::cost::Catalog::builtin()).to_json(),
        tables::timeseries_csv(&tables::timeseries_rows(&r)),
        tables::partitions_csv(&tables::partition_rows(&r)),
    )
}

#[test]
fn same_seed_same_bytes() {
    for f in [Fidelity::Fast, Fidelity::Exact] {
        assert_eq!(outputs(5, f), outputs(5, f), "{f} fidelity");
    }
}

#[test]
fn another_seed_other_draws() {
    assert_ne!(outputs(5, Fidelity::Fast).0, outputs(6, Fidelity::Fast).0);
}
