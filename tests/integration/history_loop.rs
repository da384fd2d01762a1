//! The loop a user runs on a table's history: `import` names the history in the scenario,
//! `backtest SCENARIO` finds it, and Ctrl-C during a calibration writes nothing. (The live
//! import keeping what it fetched, and `backtest aws:TABLE`, are in live.rs.)

use std::path::Path;
use std::process::{Command, Output};

fn ddbsim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ddbsim")).current_dir(dir).args(args).output().unwrap()
}

/// A file import writes `# ddbsim-history: PATH` for its metrics file (relative: it is in the
/// scenario's folder), and `backtest` without `--metrics` compares with it: the same document
/// as naming it. The file moved away is an error naming the scenario's line; a scenario that
/// names no history asks for `--metrics`.
#[test]
fn backtest_finds_the_history_its_import_named() {
    let dir = tempfile::tempdir().unwrap();
    let here = std::env::current_dir().unwrap();
    let fixture = |n: &str| here.join("tests/fixtures/import").join(n);
    std::fs::copy(fixture("metric-data-5m.json"), dir.path().join("metrics.json")).unwrap();
    let def = fixture("describe-table.json");
    let o = ddbsim(dir.path(), &["import", def.to_str().unwrap(), "--metrics", "metrics.json", "--out", "orders.toml"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.path().join("orders.toml")).unwrap();
    assert_eq!(text.lines().nth(1), Some("# ddbsim-history: metrics.json"), "{text}");
    let found = ddbsim(dir.path(), &["backtest", "orders.toml", "--json"]);
    let named = ddbsim(dir.path(), &["backtest", "orders.toml", "--json", "--metrics", "metrics.json"]);
    assert!(matches!(found.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&found.stderr));
    assert!(found.stdout == named.stdout, "backtest.json differs with the history found and named");
    let doc: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(doc["minutes"], serde_json::json!(120), "the fixture's two hours of five-minute datapoints");

    std::fs::rename(dir.path().join("metrics.json"), dir.path().join("elsewhere.json")).unwrap();
    let o = ddbsim(dir.path(), &["backtest", "orders.toml"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("orders.toml:2: ddbsim-history names") && e.contains("metrics.json, which is not there"), "{e}");

    let plain = here.join("scenarios/headline.toml");
    let o = ddbsim(dir.path(), &["backtest", plain.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("headline.toml: no history to compare with: give the table's CloudWatch metrics with --metrics"), "{e}");
    // The bundled backtest scenario names its history: `--metrics` may be left out.
    let bundled = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
        c.args(["backtest", "scenarios/backtest/hot-key-guess.toml", "--json"]).args(extra).output().unwrap()
    };
    let (found, named) = (bundled(&[]), bundled(&["--metrics", "scenarios/backtest/metrics.json"]));
    assert_eq!(found.status.code(), Some(3), "{}", String::from_utf8_lossy(&found.stderr));
    assert!(found.stdout == named.stdout, "the bundled scenario's named history is its metrics.json");
    // A name AWS would not allow names no file.
    let o = ddbsim(dir.path(), &["backtest", "aws:../x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("\"../x\": not a DynamoDB table name"), "{e}");
    // --days and the other live options go with aws:TABLE only.
    let o = ddbsim(dir.path(), &["backtest", plain.to_str().unwrap(), "--days", "3"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--region, --days and --end go with aws:TABLE"));
}

/// Ctrl-C (or SIGTERM) during `--calibrate` stops the simulation under way: exit 2, no
/// calibrated scenario, no fitted trace, no staging folder left.
#[test]
fn an_interrupted_calibration_writes_nothing() {
    let here = std::env::current_dir().unwrap();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        for f in ["hot-key-guess.toml", "metrics.json"] {
            std::fs::copy(here.join("scenarios/backtest").join(f), dir.path().join(f)).unwrap();
        }
        let child = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
            .current_dir(dir.path())
            .args(["backtest", "hot-key-guess.toml", "--metrics", "metrics.json", "--calibrate"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Into the fit: the first comparison takes a simulation of the window.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let t = std::time::Instant::now();
        // SAFETY: a signal to the child this test started.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let o = child.wait_with_output().unwrap();
        assert!(t.elapsed() < std::time::Duration::from_secs(10), "signal {signal}: the calibration ran on");
        assert_eq!(o.status.code(), Some(2), "signal {signal}: {}", String::from_utf8_lossy(&o.stderr));
        let left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        let mut left = left;
        left.sort();
        assert_eq!(left, ["hot-key-guess.toml", "metrics.json"], "signal {signal}");
    }
}

/// Where an import goes is checked before the first AWS call (issue 60): an existing scenario
/// without --force, a missing folder, or a file where a Region's folder goes is refused with
/// no call made (the `aws` on PATH here records each call); a Region's folder that does not
/// exist yet is made when its scenarios are written.
#[test]
fn the_destination_is_checked_before_any_call() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let calls = d.path().join("calls");
    let aws = bin.join("aws");
    std::fs::write(&aws, format!("#!/bin/sh\necho \"$*\" >> {}\nexit 1\n", calls.display())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&aws, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let import = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).current_dir(d.path()).env("PATH", &path).arg("import").args(args).output().unwrap()
    };
    std::fs::write(d.path().join("orders.toml"), "# mine\n").unwrap();
    for (args, says) in [
        (&["aws:Orders", "--out", "orders.toml"][..], "orders.toml: exists: pass --force"),
        (&["aws:Orders", "--out", "no/such/orders.toml"][..], "the folder does not exist"),
        (&["aws:*", "--out", "orders.toml"][..], "orders.toml: several tables go into a folder, and this is a file"),
        (&["aws:*"][..], "several tables: give --out DIR"),
    ] {
        let o = import(args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!calls.exists(), "{args:?}: an AWS call was made");
    }
    // A folder to come: the call is made (and fails here), the folder is not made for nothing.
    let o = import(&["aws:*", "--out", "region"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(calls.exists() && !d.path().join("region").exists());
}
