//! The fuzz targets' committed corpora, replayed on every test run: each input of
//! `fuzz/corpus/engine` becomes a scenario through the target's own generator and is checked as
//! the target checks it (validation, guard, invariants, bill, report, determinism); each input
//! of `fuzz/corpus/scenario` goes through the loader. And every finding of the fuzzers, as the
//! scenario text that reproduced it.

#[path = "../../fuzz/common/check.rs"]
#[allow(dead_code, unreachable_pub)]
mod check;
#[path = "../../fuzz/common/gen.rs"]
#[allow(dead_code, unreachable_pub)]
mod gen;

use check::{exercise, Outcome};
use std::path::Path;

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn the_engine_corpus_keeps_every_invariant() {
    let inputs = corpus("engine");
    assert!(inputs.len() >= 100, "the engine corpus has {} inputs", inputs.len());
    let (mut ran, mut invalid, mut refused) = (0, 0, 0);
    for data in &inputs {
        if let Ok(doc) = gen::Doc::from_bytes(data) {
            match exercise(&doc.text()) {
                Outcome::Ran => ran += 1,
                Outcome::Invalid => invalid += 1,
                Outcome::Refused => refused += 1,
            }
        }
    }
    // The generator is meant to reach the engine: most of its documents are valid and run.
    assert!(ran * 2 > inputs.len(), "{ran} ran, {invalid} invalid, {refused} refused of {}", inputs.len());
}

#[test]
fn the_loader_corpus_never_panics() {
    let inputs = corpus("scenario");
    assert!(inputs.len() >= 100);
    for data in &inputs {
        if let Ok(text) = std::str::from_utf8(data) {
            if let Ok(sc) = ddbsim::scenario::parse_str(text, Path::new("fuzz.toml")) {
                let _ = ddbsim::guard::estimate(&sc, &ddbsim::RunOptions::default());
            }
        }
    }
}

/// Finding of the `scenario` target (after 5.4 M executions): a diurnal peak whose minutes are
/// a 19-digit number overflowed `h * 3600 + m * 60` before the range check looked at it (a
/// panic with overflow checks, a silent wrap without). Now it is a located problem.
#[test]
fn finding_a_diurnal_peak_with_a_huge_minute_is_a_problem() {
    let text = "[scenario]\nduration = \"1h\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n\
                [keys.k]\ncardinality = 10\n[[pattern]]\nname = \"p\"\nop = \"put_item\"\n\
                rate = { diurnal = { min = 1, max = 2, peak = \"20:7751640039368425473\" } }\n";
    let err = ddbsim::scenario::parse_str(text, Path::new("f.toml")).unwrap_err().to_string();
    assert!(err.contains("pattern[0].rate.diurnal.peak"), "{err}");
}

/// The `import` target's corpus (seeded from tests/fixtures/import): definition and metric
/// bytes never panic, and whatever imports loads as a scenario with its traces.
#[test]
fn the_import_corpus_imports_or_explains() {
    let inputs = corpus("import");
    assert!(inputs.len() >= 8, "the import corpus has {} inputs", inputs.len());
    let dir = tempfile::tempdir().unwrap();
    let mut imported = 0;
    for data in &inputs {
        let (def, met) = match data.iter().position(|&b| b == 0) {
            Some(i) => (&data[..i], &data[i + 1..]),
            None => (&data[..], &[][..]),
        };
        let (def_path, met_path) = (dir.path().join("def.in"), dir.path().join("met.in"));
        std::fs::write(&def_path, def).unwrap();
        std::fs::write(&met_path, met).unwrap();
        let metrics = if met.is_empty() { vec![] } else { vec![met_path] };
        if let Ok(i) = ddbsim::import::import(&[def_path], &metrics, None, "f") {
            for (name, text) in &i.traces {
                std::fs::write(dir.path().join(name), text).unwrap();
            }
            let sc = dir.path().join("f.toml");
            std::fs::write(&sc, &i.scenario).unwrap();
            ddbsim::scenario::load(&sc).unwrap_or_else(|e| panic!("an import that does not load:\n{e}\n{}", i.scenario));
            imported += 1;
        }
    }
    assert!(imported >= 5, "{imported} of {} imported", inputs.len());
}
