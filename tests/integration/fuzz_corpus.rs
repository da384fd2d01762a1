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
#[path = "../../fuzz/common/responses.rs"]
#[allow(dead_code, unreachable_pub)]
mod responses;

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
        if responses::loads(ddbsim::import::import(&[def_path], &metrics, None, "f"), dir.path()) {
            imported += 1;
        }
    }
    assert!(imported >= 5, "{imported} of {} imported", inputs.len());
}

/// The `live` target's corpus (the live import's saved responses, seeded from
/// tests/fixtures/import) and the `cur` target's (an hourly Cost and Usage Report, plain, gzip
/// and cut short): never a panic, and whatever imports loads; the whole seeds import.
#[test]
fn the_live_and_cur_corpora_import_or_explain() {
    for (target, f) in [("live", responses::live as fn(&[u8], &Path) -> bool), ("cur", responses::cur)] {
        let inputs = corpus(target);
        assert!(inputs.len() >= 3, "the {target} corpus has {} inputs", inputs.len());
        let dir = tempfile::tempdir().unwrap();
        let imported = inputs.iter().filter(|data| f(data, dir.path())).count();
        assert!(imported >= 2, "{target}: {imported} of {} imported", inputs.len());
    }
}

/// Finding of the `live` target (issue 59): a `describe-continuous-backups` answer with a
/// recovery period of 36 days imported into a scenario that does not load. AWS allows 1 to 35;
/// the import refuses it, naming the file and the pointer.
#[test]
fn finding_a_recovery_period_of_36_days_is_refused_by_the_import() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("continuous-backups.json");
    let text = std::fs::read_to_string("tests/fixtures/import/continuous-backups.json").unwrap();
    let days = text.find("\"RecoveryPeriodInDays\"").expect("the fixture states its period");
    let end = days + text[days..].find(',').or_else(|| text[days..].find('\n')).unwrap();
    std::fs::write(&f, format!("{}\"RecoveryPeriodInDays\": 36{}", &text[..days], &text[end..])).unwrap();
    let e = ddbsim::import::import(&[Path::new("tests/fixtures/import/describe-table.json").to_path_buf(), f], &[], None, "f")
        .unwrap_err()
        .to_string();
    assert!(e.contains("continuous-backups.json") && e.contains("RecoveryPeriodInDays") && e.contains("1 to 35 days, not 36"), "{e}");
}

/// Finding of the `cur` target (issue 59): a report billing 73 million GB-months of storage
/// imported into a scenario that does not load (`storage_gb` above the ceiling of 1e7 GB). The
/// import refuses it, naming the table and the ceiling.
#[test]
fn finding_a_bill_above_the_storage_ceiling_is_refused_by_the_import() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("cur.csv");
    std::fs::copy("fuzz/corpus/cur/finding-storage-above-the-ceiling", &f).unwrap();
    let e = ddbsim::import::import(&[], &[f], Some("Orders"), "f").unwrap_err().to_string();
    assert!(e.contains("cur.csv") && e.contains("above ddbsim's ceiling of 1e7 GB"), "{e}");
}
