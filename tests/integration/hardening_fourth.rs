//! The fourth adversarial review (issue 59): each finding reproduced, by a test that failed
//! before its fix.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A stand-in `aws` in `dir` that answers `list-tables` with `listing` and fails every other
/// call as a missing table does.
fn fake_aws(dir: &Path, listing: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nif [ \"$2\" = list-tables ]; then cat <<'JSON'\n{listing}\nJSON\nexit 0; fi\necho 'An error occurred (ResourceNotFoundException) when calling the DescribeTable operation: Requested resource not found' >&2\nexit 254\n"
    );
    let aws = bin.join("aws");
    std::fs::write(&aws, script).unwrap();
    std::fs::set_permissions(&aws, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Item 1: a name `list-tables` returns is checked against AWS's pattern before it names a
/// folder. `../../../pwn`, listed, once made `TMPDIR/../../../pwn`; now the import is refused
/// with the name escaped, and nothing is created outside the temporary folder.
#[test]
fn item_1_a_listed_name_that_is_a_path_names_no_folder() {
    let d = tempfile::tempdir().unwrap();
    let tmp = d.path().join("tmp/a/b");
    std::fs::create_dir_all(&tmp).unwrap();
    let bin = fake_aws(d.path(), r#"{"TableNames": ["../../../pwn", "Orders"]}"#);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = d.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["import", "aws:*", "--days", "1", "--out", out.to_str().unwrap()])
        .env("PATH", path)
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("\"../../../pwn\": not a DynamoDB table name"), "{stderr}");
    assert!(!d.path().join("tmp/pwn").exists(), "a folder outside the temporary one");
    assert!(!out.exists(), "nothing written to --out");
}

/// Item 9: a folder's tables are its scenarios. `NAME.calibrated.toml` beside `NAME.toml` was
/// read as a second table (the pooled reservation doubled); it is skipped and named.
#[test]
fn item_9_a_calibration_beside_its_scenario_is_not_a_second_table() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("scenarios/hot-key.toml").unwrap();
    std::fs::write(d.path().join("hot-key.toml"), &text).unwrap();
    std::fs::write(d.path().join("hot-key.calibrated.toml"), &text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["recommend", d.path().to_str().unwrap(), "--budget", "2", "--duration", "1m", "--json"])
        .current_dir(d.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["tables"].as_u64(), Some(1), "{doc}");
    assert!(stderr.contains("hot-key.calibrated.toml skipped"), "{stderr}");
}

/// Item 13: every number the format takes has a ceiling. A vector search of 10^15 bytes was
/// billed; a search returns at most 100 items of 400 KB, 40,960,000 bytes.
#[test]
fn item_13_a_vector_search_meters_at_most_what_it_can_return() {
    let text = std::fs::read_to_string("scenarios/vector-search.toml").unwrap();
    let at = |bytes: u64| text.replace("top_k = 10 }", &format!("top_k = 10, search_bytes = {bytes} }}"));
    let e = ddbsim::scenario::parse_str(&at(1_000_000_000_000_000), Path::new("v.toml")).unwrap_err().to_string();
    assert!(e.contains("search_bytes") && e.contains("at most 40960000 bytes"), "{e}");
    assert!(ddbsim::scenario::parse_str(&at(40_960_000), Path::new("v.toml")).is_ok());
}

/// Item 11: `diff --markdown` escapes every name. A HEAD file named with a newline and
/// `# LGTM` put a heading in the bot's comment; a `|` added a column; U+202E passed.
#[test]
fn item_11_file_names_cannot_shape_the_pull_request_comment() {
    let d = tempfile::tempdir().unwrap();
    let name = "x\n# LGTM | y\u{202E}`z.toml";
    let head = d.path().join(name);
    let text = std::fs::read_to_string("scenarios/diff/all.toml").unwrap();
    std::fs::write(&head, text.replacen("[scenario]\n", "[scenario]\nname = \"head\"\n", 1)).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["diff", "scenarios/diff/keys-only.toml", head.to_str().unwrap(), "--markdown", "--duration", "1m"])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.code() == Some(0) || o.status.code() == Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!md.lines().any(|l| l.starts_with("# LGTM")), "{md}");
    assert!(!md.contains('\u{202E}'), "{md}");
    let heading = md.lines().next().unwrap();
    assert!(heading.starts_with("### ddbsim diff: `scenarios/diff/keys-only.toml` → `` "), "{heading}");
    assert!(heading.contains("x # LGTM | y `z.toml ``"), "{heading}");
}

/// Item 3: `--calibrate` replaced a hand-edited `NAME.calibrated.toml` silently, created it
/// 0600, and wrote a metrics path's line breaks into it as TOML. It now writes 0644, stamps
/// what it wrote, refuses a file edited since (before fitting) unless `--force`, and escapes
/// the path in its comment.
#[test]
fn item_3_a_calibration_keeps_what_a_person_wrote() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let sc = d.path().join("events.toml");
    std::fs::copy("scenarios/backtest/hot-key-guess.toml", &sc).unwrap();
    let metrics = d.path().join("m\n[table]\nname = \"pwn\"\n.json");
    std::fs::copy("scenarios/backtest/metrics.json", &metrics).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["backtest", sc.to_str().unwrap(), "--metrics", metrics.to_str().unwrap(), "--calibrate", "-q"];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).output().unwrap()
    };
    let o = run(&[]);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&o.stderr));
    let cal = d.path().join("events.calibrated.toml");
    let text = std::fs::read_to_string(&cal).unwrap();
    assert_eq!(std::fs::metadata(&cal).unwrap().permissions().mode() & 0o777, 0o644);
    assert!(text.lines().nth(1).unwrap().contains("m\\n[table]\\nname = \"pwn\"\\n.json"), "{text}");
    assert_ne!(ddbsim::scenario::load(&cal).unwrap().table.name, "pwn");
    // Edited by hand: refused at once, the file kept.
    let edited = format!("{text}# my note\n");
    std::fs::write(&cal, &edited).unwrap();
    let o = run(&[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("events.calibrated.toml: not as backtest --calibrate wrote it") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read_to_string(&cal).unwrap(), edited);
    // --force replaces it (and a later run would, the file unchanged since).
    assert!(matches!(run(&["--force"]).status.code(), Some(0 | 3)));
    assert_eq!(std::fs::read_to_string(&cal).unwrap(), text);
}

/// Item 7: a gzip file of several members (files joined with `cat`, valid and common) was read
/// to its first member only. The hourly Cost and Usage Report split in two members imports as
/// the whole file does.
#[test]
fn item_7_every_member_of_a_gzip_file_is_read() {
    use ddbsim::import::import;
    let d = tempfile::tempdir().unwrap();
    let whole = Path::new("tests/fixtures/import/cur-hourly.csv");
    let text = std::fs::read_to_string(whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = lines.len() / 2;
    let member = |part: &[&str]| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, format!("{}\n", part.join("\n")).as_bytes()).unwrap();
        enc.finish().unwrap()
    };
    let gz = d.path().join("cur.csv.gz");
    std::fs::write(&gz, [member(&lines[..half]), member(&lines[half..])].concat()).unwrap();
    let a = import(&[], &[whole.to_path_buf()], Some("Orders"), "orders").unwrap();
    let b = import(&[], &[gz], Some("Orders"), "orders").unwrap();
    assert_eq!(a.traces, b.traces);
}

/// Item 14: an entity gave a subset or a reordering of a multi-attribute index key and was
/// simulated as another key; it is refused, naming the index's attributes.
#[test]
fn item_14_an_entity_writes_a_multi_attribute_key_whole_and_in_order() {
    let text = std::fs::read_to_string("scenarios/multi-attribute-gsi.toml").unwrap();
    let with =
        |key: &str| text.replace("gsi = { ByTenantStatus = [\"tenant\", \"status\"] }", &format!("gsi = {{ ByTenantStatus = {key} }}"));
    for key in ["[\"status\", \"tenant\"]", "[\"tenant\"]", "\"tenant\""] {
        let e = ddbsim::scenario::parse_str(&with(key), Path::new("m.toml")).unwrap_err().to_string();
        assert!(e.contains("entity[0].gsi.ByTenantStatus") && e.contains("partition key is (tenant, status)"), "{key}: {e}");
    }
    assert!(ddbsim::scenario::parse_str(&with("[\"tenant\", \"status\"]"), Path::new("m.toml")).is_ok());
}

/// A stand-in `aws` running `body` (sh) for every call.
fn aws_doing(dir: &Path, body: &str) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let aws = bin.join("aws");
    std::fs::write(&aws, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&aws, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// `ddbsim import aws:Orders` with the stand-in on PATH and TMPDIR in `d`.
fn live_import(d: &Path, path: &str) -> Command {
    let tmp = d.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
    c.args(["import", "aws:Orders", "--days", "1", "--out", d.join("o.toml").to_str().unwrap()])
        .env("PATH", path)
        .env("TMPDIR", &tmp)
        .env_remove("AWS_REGION")
        .env_remove("AWS_DEFAULT_REGION");
    c
}

/// The live import's temporary folders left in `d/tmp`.
fn left(d: &Path) -> Vec<String> {
    std::fs::read_dir(d.join("tmp")).unwrap().filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect()
}

/// Items 4 and 5: a hung `aws` blocked forever and ignored Ctrl-C; SIGTERM left the fetch
/// folder (world-readable). Now the folder is 0700, Ctrl-C and SIGTERM kill the call and exit
/// 2 with the folder removed, and a call past `DDBSIM_AWS_TIMEOUT` is an error naming it.
#[test]
fn items_4_and_5_a_hung_call_is_interrupted_or_timed_out() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let d = tempfile::tempdir().unwrap();
        let path = aws_doing(d.path(), "sleep 60");
        let child = live_import(d.path(), &path).stderr(std::process::Stdio::piped()).spawn().unwrap();
        let t = std::time::Instant::now();
        while left(d.path()).is_empty() && t.elapsed() < std::time::Duration::from_secs(20) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let fetch = d.path().join("tmp").join(&left(d.path())[0]);
        assert_eq!(std::fs::metadata(&fetch).unwrap().permissions().mode() & 0o777, 0o700);
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: a signal to the child this test started.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let o = child.wait_with_output().unwrap();
        assert!(t.elapsed() < std::time::Duration::from_secs(30), "the call was waited out");
        assert_eq!(o.status.code(), Some(2), "signal {signal}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(left(d.path()).is_empty(), "signal {signal}: {:?}", left(d.path()));
    }
    let d = tempfile::tempdir().unwrap();
    let path = aws_doing(d.path(), "sleep 60");
    let o = live_import(d.path(), &path).env("DDBSIM_AWS_TIMEOUT", "1").output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("aws dynamodb describe-table: no answer within 1 s"), "{e}");
    assert!(left(d.path()).is_empty());
}

/// Item 5: an endless answer aborted at 1.1 GB with a backtrace; it is cut at 256 MiB and
/// refused, naming the call. Item 15: the CLI's last stderr line was echoed whole (2 MB, with
/// terminal escapes), and `AWS_REGION` alone was not passed to the AWS CLI v1.
#[test]
fn items_5_and_15_an_endless_answer_and_a_long_error_are_cut() {
    let d = tempfile::tempdir().unwrap();
    let path = aws_doing(d.path(), "yes");
    let o = live_import(d.path(), &path).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("aws dynamodb describe-table: answered more than 256 MiB"), "{e}");
    let d = tempfile::tempdir().unwrap();
    let args = d.path().join("args");
    let body = format!("echo \"$@\" >> {}\nprintf '\\033[31m%06000d\\n' 0 >&2\nexit 255", args.display());
    let path = aws_doing(d.path(), &body);
    let o = live_import(d.path(), &path).env("AWS_REGION", "eu-west-1").output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.len() < 1_000 && !e.contains('\u{1b}') && e.contains('…'), "{e}");
    assert!(std::fs::read_to_string(&args).unwrap().contains("--region eu-west-1"));
}

/// Items 12 and 15: a definition's raw U+202E was echoed in import's notes, and a 5,000-
/// character label quoted whole. Notes show neither; a scenario name with U+2028 or a
/// private-use character is refused as a folder name.
#[test]
fn items_12_and_15_notes_and_names_are_printable() {
    use ddbsim::import::import;
    let d = tempfile::tempdir().unwrap();
    let long = "L".repeat(900); // YAML keys stop at 1,024 characters; notes at 600
    let f = d.path().join("t.yaml");
    let text = format!(
        "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: T\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{{ AttributeName: pk, AttributeType: S }}]\n      KeySchema: [{{ AttributeName: pk, KeyType: HASH }}]\n  \"X\u{202E}{long}\":\n    Type: AWS::SNS::Topic\n"
    );
    std::fs::write(&f, text).unwrap();
    let i = import(&[f], &[], None, "t").unwrap();
    assert!(!i.notes.is_empty(), "the SNS topic is noted as skipped");
    for n in &i.notes {
        assert!(!n.contains('\u{202E}') && n.chars().count() <= 601, "{n}");
    }
    assert!(!i.scenario.contains('\u{202E}'));
    for bad in ["a\u{2028}b", "a\u{E000}b", "a\u{3164}b"] {
        let sc = format!("[scenario]\nname = \"{bad}\"\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n[keys.k]\ncardinality = 10\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nrate = {{ constant = 1 }}\n");
        let e = ddbsim::scenario::parse_str(&sc, Path::new("n.toml")).unwrap_err().to_string();
        assert!(e.contains("scenario.name") && e.contains("unprintable"), "{bad:?}: {e}");
    }
}

/// Item 8: of several datapoints within one minute, all but one were dropped without a note.
/// Two 30-second Sums of 60 units in each minute are 120 units, 2 a second, and the history
/// says so.
#[test]
fn item_8_datapoints_within_a_minute_add_up_and_are_noted() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("m.json");
    let t = |s: &str| format!("\"2026-11-01T00:{s}+00:00\"");
    let stamps = ["00:00", "00:30", "01:00", "01:30", "02:00", "02:30"].map(t).join(",");
    std::fs::write(
        &f,
        format!(
            "{{\"MetricDataResults\": [{{\"Id\": \"m0\", \"Label\": \"ConsumedWriteCapacityUnits\", \"StatusCode\": \"Complete\", \"Timestamps\": [{stamps}], \"Values\": [60, 60, 30, 30, 0, 6]}}]}}"
        ),
    )
    .unwrap();
    let r = ddbsim::import::read_history(&[f], &[]).unwrap();
    let s = &r.series[0];
    assert_eq!(s.values[..3], [Some(2.0), Some(1.0), Some(0.1)], "{:?}", s.values);
    assert!(r.notes.iter().any(|n| n.contains("3 datapoints less than a minute after another: added")), "{:?}", r.notes);
    // A GSI's series whose index the scenario lacks read silently as the table's.
    let g = d.path().join("g.json");
    let one = |id: &str, label: &str| {
        format!(
            "{{\"Id\": \"{id}\", \"Label\": \"{label}\", \"StatusCode\": \"Complete\", \"Timestamps\": [{}], \"Values\": [60, 60]}}",
            [t("00:00"), t("01:00")].join(",")
        )
    };
    let results = [one("m0", "ConsumedWriteCapacityUnits"), one("m1", "ConsumedWriteCapacityUnits OldIndex")].join(",");
    std::fs::write(&g, format!("{{\"MetricDataResults\": [{results}]}}")).unwrap();
    let r = ddbsim::import::read_history(&[g], &[]).unwrap();
    assert!(r.notes.iter().any(|n| n.contains("does it name an index the scenario lacks?")), "{:?}", r.notes);
}

/// Item 2: `import --out` was not all-or-none under SIGKILL: a kill between two links left a
/// trace without its scenario, and a kill between two renames left `FILE.toml` absent. A run
/// killed mid-placement leaves its staging folder with a journal; the next import into that
/// folder takes back what the dead run placed and restores what it replaced. Here is the
/// state a kill leaves (a trace placed, the scenario replaced, a second trace not yet), built
/// by hand, and what the next run makes of it.
#[test]
fn item_2_the_next_import_rolls_back_a_killed_one() {
    use std::os::unix::fs::MetadataExt;
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("orders.toml"), "old scenario\n").unwrap();
    std::fs::write(dir.join("orders-b.csv"), "old trace b\n").unwrap();
    let staging = dir.join(".ddbsim-import-dead");
    std::fs::create_dir_all(staging.join(".replaced")).unwrap();
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    std::fs::write(staging.join(".pid"), gone.id().to_string()).unwrap();
    std::fs::write(staging.join(".journal"), "orders-a.csv\norders.toml\norders-b.csv").unwrap();
    for (n, text) in [("orders-a.csv", "new trace a\n"), ("orders.toml", "new scenario\n"), ("orders-b.csv", "new trace b\n")] {
        std::fs::write(staging.join(n), text).unwrap();
    }
    // Placed before the kill: trace a (new), the scenario (replaced, the old one kept).
    std::fs::hard_link(staging.join("orders-a.csv"), dir.join("orders-a.csv")).unwrap();
    std::fs::hard_link(dir.join("orders.toml"), staging.join(".replaced/orders.toml")).unwrap();
    std::fs::rename(staging.join("orders.toml"), dir.join(".tmp")).unwrap();
    std::fs::hard_link(dir.join(".tmp"), staging.join("orders.toml")).unwrap();
    std::fs::rename(dir.join(".tmp"), dir.join("orders.toml")).unwrap();
    assert_eq!(std::fs::metadata(dir.join("orders.toml")).unwrap().ino(), std::fs::metadata(staging.join("orders.toml")).unwrap().ino());
    // The next import into the folder.
    let out = dir.join("next.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["import", "tests/fixtures/import/describe-table.json", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("orders.toml")).unwrap(), "old scenario\n");
    assert_eq!(std::fs::read_to_string(dir.join("orders-b.csv")).unwrap(), "old trace b\n");
    assert!(!dir.join("orders-a.csv").exists(), "the dead run's placed trace is taken back");
    assert!(!staging.exists(), "its staging folder is removed");
    assert!(out.is_file());
    let left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 2, with `--force`: the file replaced is never absent (it is renamed over, not moved
/// away first), and the set is committed whole.
#[test]
fn item_2_force_replaces_without_a_gap() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o.toml");
    let run = |force: bool| {
        let mut args = vec!["import", "tests/fixtures/import/describe-table.json", "--out", out.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).output().unwrap()
    };
    assert!(run(false).status.success());
    let first = std::fs::read_to_string(&out).unwrap();
    let o = run(false);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    // A reader polling the file while --force replaces it never finds it absent.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (s, p) = (stop.clone(), out.clone());
    let watcher = std::thread::spawn(move || {
        let mut missing = 0;
        while !s.load(std::sync::atomic::Ordering::Relaxed) {
            if std::fs::metadata(&p).is_err() {
                missing += 1;
            }
        }
        missing
    });
    for _ in 0..5 {
        assert!(run(true).status.success());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(watcher.join().unwrap(), 0, "the scenario was absent while replaced");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
}

/// Item 10: `plot` read `timeseries.csv` whole (2.1 GB into 4.2 GB). It streams rows, and a
/// file larger than any run writes (4 GiB) is refused before a byte is read: here a sparse
/// 4 GiB + 1 byte file, refused at once.
#[test]
fn item_10_plot_refuses_a_rows_file_larger_than_a_run_writes() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["run", "scenarios/quickstart.toml", "--duration", "1m", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::OpenOptions::new().write(true).open(out.join("timeseries.csv")).unwrap().set_len((4 << 30) + 1).unwrap();
    let t = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(["plot", out.to_str().unwrap()]).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("timeseries.csv") && e.contains("ddbsim plots at most 4 GiB of one"), "{e}");
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
}
