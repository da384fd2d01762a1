//! Regression tests of the third adversarial review (issue 'Hardening, third round'): each
//! numbered item reproduced as it was found, and what ddbsim does now.

use super::{run, scenario};
use ddbsim::scenario::RateFactors;
use ddbsim::study::check;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ddbsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A small valid scenario: one pattern `p` of `rate` gets a second on a 2-minute run; `extra`
/// is appended.
fn base(rate: u64, extra: &str) -> String {
    format!(
        "[scenario]\nduration = \"2m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"on_demand\" }}\n\
         [keys.k]\ncardinality = 100000\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = {{ constant = {rate} }}\n{extra}"
    )
}

fn scale_rates(factor: f64, times_s: impl IntoIterator<Item = u64>) -> String {
    times_s.into_iter().map(|t| format!("[[at]]\ntime = \"{t}s\"\nscale_rate = {{ pattern = \"p\", factor = {factor} }}\n")).collect()
}

/// 2. Several `scale_rate` actions on one pattern replaced each other in the engine but
///    multiplied in `check` and in the guard (eight factors of 2: ~1,000 requests/s in `run`,
///    128,000/s in `check`). One meaning now — a later factor replaces the one before, each
///    relative to the pattern's own shape — read through `RateFactors` by all four.
///    By hand: 100/s for 10 s, then 200/s for 110 s = 23,000 requests (Poisson sd 152);
///    the peak every consumer sees is 200/s, never 100 x 2^8 = 25,600/s.
#[test]
fn item_2_scale_rate_has_one_meaning() {
    let sc = scenario(&base(100, &scale_rates(2.0, (1..=8).map(|i| i * 10))));
    assert_eq!(RateFactors::of(&sc, 0).at(5), 1.0);
    assert_eq!(RateFactors::of(&sc, 0).at(115), 2.0);
    let r = run(&sc);
    let offered = r.totals().offered as f64;
    assert!((offered - 23_000.0).abs() < 5.0 * 152.0, "run offered {offered}");
    assert_eq!(check::peaks(&sc), vec![Some(200.0)], "check's plan");
    let e = ddbsim::guard::estimate(&sc, &ddbsim::RunOptions::default());
    assert_eq!(e.peak_requests_per_second, 200.0, "the guard's peak");

    // Factors of 10: `run` passed while `check` refused "5.00e10 requests". Both now see
    // 100 x 10 = 1,000/s at the peak: check plans its steady phase at 1,000/s.
    let sc = scenario(&base(100, &scale_rates(10.0, [10, 20, 30, 40, 50])));
    assert_eq!(check::peaks(&sc), vec![Some(1_000.0)]);
    let steady = check::steady_scenario(&sc, &check::peaks(&sc));
    assert!(steady.actions.is_empty() && steady.patterns[0].rate == ddbsim::scenario::RateShape::Constant(1_000.0));
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "s.toml",
        &base(100, &scale_rates(10.0, [10, 20, 30, 40, 50]))
            .replace("duration = \"2m\"", "duration = \"2m\"\n[check]\nsteady = \"1m\"\nburst = \"1m\"\nramp = \"1m\"\nsoak = \"1m\""),
    );
    let o = ddbsim(&["check", p.to_str().unwrap(), "--quiet"]);
    assert!(!stderr(&o).contains("requests"), "check refused what run accepts: {}", stderr(&o));
}

/// Runs the binary with `args` and watches it: its peak resident set (`VmHWM`, polled) and
/// whether it ended within `limit`. A command still running at the limit is killed.
fn watch(args: &[&str], limit: std::time::Duration) -> (Option<i32>, f64, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let status_path = format!("/proc/{}/status", child.id());
    let start = std::time::Instant::now();
    let mut peak_kb = 0.0f64;
    let code = loop {
        if let Ok(s) = std::fs::read_to_string(&status_path) {
            if let Some(kb) =
                s.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            {
                peak_kb = peak_kb.max(kb);
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    (code, peak_kb * 1024.0, err)
}

/// 1. `check` skipped the guard: a 361-day table started at once and passed 1.1 GB after 90 s
///    while `run` and `recommend` refused it. Every simulating command now asks the one guard
///    about every simulation it makes (`check`: its phases, the review's re-simulation of the
///    scenario's own traffic and the shard search). Over scenarios built to exhaust memory,
///    each that `run` refuses is refused by every command at once, none above 1.5 GiB.
#[test]
fn item_1_every_simulating_command_is_guarded() {
    let d = tempfile::tempdir().unwrap();
    let fixed = "{ mode = \"provisioned\", read = 2000, write = 2000 }";
    let table = |capacity: &str, duration: &str, rate: &str| {
        format!(
            "[scenario]\nduration = \"{duration}\"\n[table]\npartition_key = \"k\"\ncapacity = {capacity}\n\
             [keys.k]\ncardinality = 1000000\n[[pattern]]\nname = \"r\"\nop = \"get_item\"\nkey = \"k\"\nrate = {rate}\n\
             [[pattern]]\nname = \"w\"\nop = \"put_item\"\nkey = \"k\"\nitem_bytes = 900\nrate = {rate}\n"
        )
    };
    let cases = [
        // A year of one-minute history as `import` writes it: the check's phases are short,
        // but its review re-simulates the whole year.
        ("361 days", table(fixed, "361d", "{ diurnal = { min = 200, max = 1500, peak = \"14:00\" } }")),
        // Exact fidelity, a million requests a second per pattern for an hour.
        (
            "exact, 7.2e9 requests",
            table("{ mode = \"on_demand\" }", "1h", "{ constant = 1000000 }").replace("[table]", "fidelity = \"exact\"\n[table]"),
        ),
    ];
    let mut bad = Vec::new();
    for (i, (what, text)) in cases.iter().enumerate() {
        let p = write(d.path(), &format!("a{i}.toml"), text);
        let sc = ddbsim::load(&p).unwrap();
        assert!(
            ddbsim::guard::check(&sc, &ddbsim::RunOptions::default()).is_err(),
            "{what}: run must refuse it for the test to mean anything"
        );
        let path = p.to_str().unwrap();
        let out = d.path().join(format!("o{i}"));
        let out = out.to_str().unwrap();
        let commands: [Vec<&str>; 6] = [
            vec!["run", path, "--out", out],
            vec!["check", path, "--quiet"],
            vec!["compare", path, "--out", out],
            vec!["sweep", path, "--set", "scenario.seed=1,2", "--out", out],
            vec!["shards", path, "--key", "k", "--out", out],
            vec!["recommend", path, "--out", out],
        ];
        for args in commands {
            let (code, peak, err) = watch(&args, std::time::Duration::from_secs(30));
            let refused = code == Some(1) && err.contains("refusing to run");
            if !refused || peak > 1.5 * 1_073_741_824.0 {
                bad.push(format!("{what}: {} exit {code:?}, peak {:.0} MB: {}", args[0], peak / 1e6, err.lines().next().unwrap_or("")));
            }
        }
    }
    assert!(bad.is_empty(), "not refused, or over 1.5 GiB:\n{}", bad.join("\n"));
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path in a temporary folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn quick_run(out: &Path) -> Output {
    ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "1m", "--quiet", "--no-charts", "--out", out.to_str().unwrap()])
}

/// 3. The lock file followed a planted symlink: a run created an empty file at its target.
#[test]
fn item_3_a_planted_lock_link_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("created-by-ddbsim");
    std::os::unix::fs::symlink(&target, d.path().join(".q.ddbsim-lock")).unwrap();
    let o = quick_run(&d.path().join("q"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symlink"), "{}", stderr(&o));
    assert!(!target.exists(), "the link's target was created");
}

/// 4. A folder without ddbsim's marker was replaced when its files carried ddbsim's names: a
///    user's own `report.html` was deleted, exit 0. Now only a folder holding the marker is
///    replaced; the user's folder is refused with its path. And a killed run's staging folder
///    (18 MB, hidden) goes on the next run into that folder, whatever becomes of the run.
#[test]
fn item_4_only_a_marked_folder_is_replaced() {
    let d = tempfile::tempdir().unwrap();
    let mine = d.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    write(&mine, "report.html", "my own report");
    let stale = d.path().join(".mine.ddbsim-new-x1y2z3");
    std::fs::create_dir(&stale).unwrap();
    write(&stale, "partitions.csv", &"x".repeat(1 << 20));
    let o = quick_run(&mine);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(mine.to_str().unwrap()) && stderr(&o).contains("marker"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(mine.join("report.html")).unwrap(), "my own report");
    assert!(!stale.exists(), "the dead writer's staging folder is cleaned");
    // A folder ddbsim made is replaced, and an empty folder is used.
    let ours = d.path().join("ours");
    assert!(quick_run(&ours).status.success());
    assert!(quick_run(&ours).status.success(), "its own folder is replaced");
    let empty = d.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(quick_run(&empty).status.success(), "an empty folder is used");
    // --out naming a file (issue 46): the message names the path as given and what --out is.
    let file = write(d.path(), "notes.txt", "mine");
    let o = quick_run(&file);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(file.to_str().unwrap()) && stderr(&o).contains("--out names the folder"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

fn sweep_part(dir: &Path, shard: &str) {
    let o = ddbsim(&[
        "sweep",
        "scenarios/quickstart.toml",
        "--set",
        "scenario.seed=1,2",
        "--duration",
        "1m",
        "--quiet",
        "--shard",
        shard,
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// 5. `merge` trusted `total_points`: 10^19 aborted on a 2 GB allocation (exit 134), 10^8 with
///    `--allow-partial` said "merged 6 points of 100000000" after 1 GB. A part's figures are
///    checked against its axes and the sweep's limits first, and a shard label `2/1` is
///    refused.
#[test]
fn item_5_merge_checks_a_part_before_allocating() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    sweep_part(&a, "1/2");
    sweep_part(&b, "2/2");
    let json = std::fs::read_to_string(b.join("sweep.json")).unwrap();
    assert!(json.contains("\"total_points\": 2") && json.contains("\"shard\": \"2/2\""), "{json}");
    let merge = |extra: &[&str]| {
        let mut args = vec!["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out"];
        let out = d.path().join("m");
        let out = out.to_str().unwrap().to_string();
        args.push(&out);
        args.extend(extra);
        watch(&args, std::time::Duration::from_secs(20))
    };
    assert_eq!(merge(&[]).0, Some(0));
    for (edit, allow) in [("\"total_points\": 10000000000000000000", false), ("\"total_points\": 100000000", true)] {
        std::fs::write(b.join("sweep.json"), json.replacen("\"total_points\": 2", edit, 1)).unwrap();
        let (code, peak, err) = merge(if allow { &["--allow-partial"] } else { &[] });
        assert_eq!(code, Some(1), "{edit}: {err}");
        assert!(err.contains("a part was edited"), "{err}");
        assert!(peak < 200e6, "{edit}: {peak} bytes");
    }
    std::fs::write(b.join("sweep.json"), json.replacen("\"shard\": \"2/2\"", "\"shard\": \"2/1\"", 1)).unwrap();
    let (code, _, err) = merge(&[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("\"2/1\""), "{err}");
}

/// 6. A FIFO given as the scenario, as `--prices` or as a `merge` input blocked forever;
///    `--prices /dev/zero` or a `/dev/zero` `sweep.json` grew to 1 GB in 3 s. Every file ddbsim
///    reads is a regular file with a size cap.
#[test]
fn item_6_every_read_is_a_bounded_regular_file() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("fifo.toml");
    mkfifo(&fifo);
    let part = d.path().join("part");
    std::fs::create_dir(&part).unwrap();
    mkfifo(&part.join("sweep.json"));
    let zero = d.path().join("zero");
    std::fs::create_dir(&zero).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero.join("sweep.json")).unwrap();
    let big = write(d.path(), "big-prices.toml", &"# padding\n".repeat(500_000));
    let f = fifo.to_str().unwrap();
    let cases: [Vec<&str>; 7] = [
        vec!["run", f],
        vec!["validate", f],
        vec!["run", "scenarios/quickstart.toml", "--duration", "1m", "--prices", f],
        vec!["run", "scenarios/quickstart.toml", "--duration", "1m", "--prices", "/dev/zero"],
        vec!["run", "scenarios/quickstart.toml", "--duration", "1m", "--prices", big.to_str().unwrap()],
        vec!["merge", part.to_str().unwrap()],
        vec!["merge", zero.to_str().unwrap()],
    ];
    for args in cases {
        let (code, peak, err) = watch(&args, std::time::Duration::from_secs(20));
        assert!(matches!(code, Some(1 | 2)), "{args:?}: exit {code:?}: {err}");
        assert!(err.contains("not a regular file") || err.contains("at most"), "{args:?}: {err}");
        assert!(peak < 200e6, "{args:?}: {peak} bytes");
    }
}

/// 7. `import --out FILE.toml` silently replaced an existing scenario and the trace files
///    beside it. An existing file is refused unless `--force`; the scenario and its traces are
///    written as one unit.
#[test]
fn item_7_import_does_not_replace_without_force() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("orders.toml");
    let fx = "tests/fixtures/import";
    let import = |extra: &[&str]| {
        let mut args = vec![
            "import".to_string(),
            format!("{fx}/describe-table.json"),
            "--metrics".into(),
            format!("{fx}/metric-data-5m.json"),
            "--out".into(),
            out.display().to_string(),
        ];
        args.extend(extra.iter().map(ToString::to_string));
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).output().unwrap()
    };
    let o = import(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let traces: Vec<PathBuf> =
        std::fs::read_dir(d.path()).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "csv")).collect();
    assert!(!traces.is_empty(), "the history becomes trace files");
    // The user edits the scenario and a trace; a second import must not replace them.
    std::fs::write(&out, "# my edits\n").unwrap();
    std::fs::write(&traces[0], "second,rate\n0,1\n").unwrap();
    let o = import(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("--force") && stderr(&o).contains("orders.toml"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "# my edits\n");
    assert_eq!(std::fs::read_to_string(&traces[0]).unwrap(), "second,rate\n0,1\n");
    // A trace alone in the way is refused too, before anything is written.
    std::fs::remove_file(&out).unwrap();
    let o = import(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written: all or none");
    let o = import(&["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out).unwrap().contains("[table]"));
    assert_ne!(std::fs::read_to_string(&traces[0]).unwrap(), "second,rate\n0,1\n");
    let left: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "no staging left: {left:?}");
}

/// 8. An unparsable first trace row was taken for a header and dropped (`0x10,5` or
///    `0,1_000`: 3,009 offered, exit 0). A header is recognised by its names; any other first
///    row that is not a valid row is an error with its line.
#[test]
fn item_8_a_malformed_first_trace_row_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let traced = base(1, "").replace("rate = { constant = 1 }", "rate = { trace = \"t.csv\" }");
    let p = write(d.path(), "s.toml", &traced);
    for (rows, field) in [("0x10,5\n60,50\n", "time_s \"0x10\""), ("0,1_000\n60,50\n", "rate \"1_000\"")] {
        write(d.path(), "t.csv", rows);
        let o = ddbsim(&["validate", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{rows}");
        assert!(stderr(&o).contains("line 1") && stderr(&o).contains(field), "{rows}: {}", stderr(&o));
    }
    for header in ["second,rate", "time_s, requests_per_second", "\"time (s)\",\"rate\""] {
        write(d.path(), "t.csv", &format!("{header}\n0,5\n60,50\n"));
        let sc = ddbsim::load(&p).unwrap_or_else(|e| panic!("{header}: {e}"));
        assert_eq!(sc.patterns[0].rate, ddbsim::scenario::RateShape::Steps(vec![(0, 5.0), (60, 50.0)]), "{header}");
    }
}

/// 9. Bidirectional-override and zero-width characters (U+202E, U+200B) were accepted in
///    scenario and pattern names, which become folder names and report text.
#[test]
fn item_9_invisible_characters_in_names_are_refused() {
    for (name, key) in
        [("[scenario]\nname = \"evil\u{202e}lmth.exe\"", "scenario.name"), ("[scenario]\nname = \"a\u{200b}b\"", "scenario.name")]
    {
        let text = base(10, "").replace("[scenario]", name);
        let e = ddbsim::scenario::parse_str(&text, Path::new("n.toml")).unwrap_err().to_string();
        assert!(e.contains(key) && e.contains("invisible"), "{e}");
    }
    let text = base(10, "").replace("name = \"p\"", "name = \"p\u{202e}\"");
    let e = ddbsim::scenario::parse_str(&text, Path::new("n.toml")).unwrap_err().to_string();
    assert!(e.contains("pattern[0].name") && e.contains("U+202E"), "{e}");
    let text = base(10, "").replace("[keys.k]", "[keys.\"k\u{200b}\"]").replace("partition_key = \"k\"", "partition_key = \"k\u{200b}\"");
    let e = ddbsim::scenario::parse_str(&text, Path::new("n.toml")).unwrap_err().to_string();
    assert!(e.contains("U+200B"), "{e}");
}

/// 10. `import` printed a metric value of 1e300 as a 301-digit number and named the file twice.
#[test]
fn item_10_import_quotes_huge_values_shortly() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("tests/fixtures/import/metric-data-5m.json").unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["MetricDataResults"][0]["Values"][0] = serde_json::json!(1e300);
    let m = write(d.path(), "m.json", &doc.to_string());
    let o = ddbsim(&["import", "tests/fixtures/import/describe-table.json", "--metrics", m.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("a value of 1e300") && e.len() < 300, "{e}");
    assert_eq!(e.matches("m.json").count(), 1, "{e}");
    assert!(e.contains("/MetricDataResults/0"), "{e}");
}
