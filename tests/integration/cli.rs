//! The binary as a user runs it.

use std::path::Path;

use crate::ddbsim;

#[test]
fn run_writes_outputs_and_prints_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q");
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "2m", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("record-activity") && stdout.contains("latency"), "{stdout}");
    for f in ["summary.json", "timeseries.csv", "partitions.csv"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["duration_s"], 120);
    // The data, the charts and the report, ddbsim's marker, and no temporary file left behind.
    let mut names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".ddbsim-output",
            "capacity.png",
            "capacity.svg",
            "hot-partitions.png",
            "hot-partitions.svg",
            "latency.png",
            "latency.svg",
            "load-duration.png",
            "load-duration.svg",
            "partitions.csv",
            "report.html",
            "summary.json",
            "timeseries.csv"
        ]
    );
}

#[test]
fn an_unwritable_output_folder_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = blocker.join("sub");
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "1m", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(out.to_str().unwrap()));
}

#[test]
fn a_missing_scenario_exits_1() {
    let o = ddbsim(&["run", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/file.toml"));
}

#[test]
fn a_malformed_scenario_exits_1_with_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.toml");
    std::fs::write(&p, "[scenario]\nduration = \"5m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 1, write = -4 }\n[keys.k]\ncardinality = 3\n[[pattern]]\nname = \"p\"\nop = \"put_item\"\nrate = { constant = 1 }\n").unwrap();
    for cmd in ["run", "validate"] {
        let o = ddbsim(&[cmd, p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("bad.toml:5:") && err.contains("table.capacity.write"), "{cmd}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn bad_arguments_exit_1() {
    assert_eq!(ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "soon"]).status.code(), Some(1));
    assert_eq!(ddbsim(&["run", "scenarios/quickstart.toml", "--fidelity", "perfect"]).status.code(), Some(1));
    assert_eq!(ddbsim(&["frobnicate"]).status.code(), Some(1));
    assert_eq!(ddbsim(&["--help"]).status.code(), Some(0));
}

#[test]
fn validate_accepts_every_bundled_scenario() {
    let mut files: Vec<String> =
        std::fs::read_dir("scenarios").unwrap().map(|e| e.unwrap().path().display().to_string()).filter(|p| p.ends_with(".toml")).collect();
    files.sort();
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let o = ddbsim(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn schema_is_json_schema_of_the_format() {
    let o = ddbsim(&["schema"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["properties"]["scenario"].is_object(), "{v}");
    assert!(v["properties"]["pattern"].is_object());
    assert!(Path::new("scenarios/quickstart.toml").exists());
}

#[test]
fn compare_writes_its_files_and_picks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let o = ddbsim(&["compare", "scenarios/spiky-batch.toml", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("pick: on_demand"));
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    // The window's cost leads; spiky-batch repeats, so its month is stated too.
    assert!(csv.starts_with("mode,window_usd,monthly_usd,upfront_usd,"), "{csv}");
    assert!(csv.lines().nth(1).unwrap().split(',').nth(2).is_some_and(|m| m.parse::<f64>().is_ok()), "{csv}");
    assert!(out.join("compare.json").is_file());
}

#[test]
fn a_bad_price_catalog_exits_1_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("prices.toml");
    std::fs::write(&p, ddbsim::cost::BUILTIN_US_EAST_1.replace("usd = 0.00065\n", "usd = -1\n")).unwrap();
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "1m", "--prices", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("prices.toml") && err.contains("provisioned_wcu_hour"), "{err}");
    std::fs::write(&p, ddbsim::cost::BUILTIN_US_EAST_1.replace("region = \"us-east-1\"", "region = \"eu-west-1\"")).unwrap();
    let o = ddbsim(&["compare", "scenarios/quickstart.toml", "--duration", "1m", "--prices", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("eu-west-1"));
    assert_eq!(ddbsim(&["compare", "scenarios/quickstart.toml", "--max-throttle", "lots"]).status.code(), Some(1));
}

/// Guards: 10 million requests a second for a day in exact mode is 8.6e11 requests and 10^7
/// requests in a second; refused with the estimate and the options, exit 1, nothing written.
#[test]
fn runs_above_the_guards_are_refused_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("huge.toml");
    std::fs::write(
        &p,
        "[scenario]\nduration = \"24h\"\nfidelity = \"exact\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = { constant = 20000000 }\n",
    )
    .unwrap();
    let out = dir.path().join("o");
    let o = ddbsim(&["run", p.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("refusing to run") && err.contains("--fidelity fast") && err.contains("--force"), "{err}");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().count() == 0, "nothing is written");
    // Many partitions for a long time: the partition rows guard suggests --no-partitions.
    std::fs::write(
        &p,
        "[scenario]\nduration = \"30d\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 30000000, write = 1 }\n[keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = { constant = 1 }\n",
    )
    .unwrap();
    let o = ddbsim(&["run", p.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--no-partitions"));
}

#[test]
fn the_guards_agree_with_a_hand_estimate() {
    let sc = ddbsim::scenario::load(Path::new("scenarios/hot-key.toml")).unwrap();
    let e = ddbsim::guard::estimate(&sc, &ddbsim::RunOptions { record_partitions: true, ..Default::default() });
    // 1,500 writes/s for 600 s; 6 partitions x 10 minutes of rows.
    assert_eq!(e.requests, 900_000.0);
    assert_eq!(e.peak_requests_per_second, 1_500.0);
    assert_eq!(e.partition_rows, 60.0);
}

/// README's sweep example sets `keys.device.shards.count` on a key space that has no
/// `shards` table: `by` takes its documented default (random), so it runs (here on two
/// counts and a minute of traffic).
#[test]
fn readme_sweep_example_sets_shards_without_by() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = ddbsim(&[
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.shards.count=1..2:x2",
        "--duration",
        "1m",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("sweep.csv").is_file());
}

/// `recommend` with a budget and two modes: at most 4 simulations (the on-demand run and one
/// fixed-capacity chain of 3), the reservation billed on top without simulating; only those
/// modes in the best-of-mode table and the pick; its four files written. A budget below 2
/// and an unknown mode are refused with the flag's name.
#[test]
fn recommend_keeps_to_its_budget_and_modes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = ddbsim(&[
        "recommend",
        "scenarios/quickstart.toml",
        "--duration",
        "10m",
        "--budget",
        "4",
        "--modes",
        "provisioned,reserved",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sims: usize = text.split(" simulations").next().and_then(|t| t.rsplit(char::is_whitespace).next()).unwrap().parse().unwrap();
    assert!((1..=4).contains(&sims), "{text}");
    assert!(!text.contains("\non_demand ") && !text.contains("\nautoscaling "), "{text}");
    let csv = std::fs::read_to_string(out.join("recommend.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(rows.len() <= 5, "{csv}");
    let column = csv.lines().next().unwrap().split(',').position(|c| c == "picked").expect("a picked column");
    let picked: Vec<&&str> = rows.iter().filter(|r| r.split(',').nth(column) == Some("true")).collect();
    assert_eq!(picked.len(), 1, "{csv}");
    assert!(picked[0].contains(",provisioned,") || picked[0].contains(",reserved,"), "{csv}");
    for f in ["recommend.json", "recommend.svg", "recommend.png"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert!(std::fs::read_to_string(out.join("recommend.svg")).unwrap().contains("monthly cost against throttling"));
    let o = ddbsim(&["recommend", "scenarios/quickstart.toml", "--budget", "1", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--budget"));
    let o = ddbsim(&["recommend", "scenarios/quickstart.toml", "--modes", "spot", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--modes"));
}

/// `recommend` on a folder of tables: a row per table and dimension, in file order; the
/// current cost of a fixed table worked by hand (steady-provisioned: 5,000 RCU x $0.00013 x
/// 730 h = $474.50 and 1,000 WCU x $0.00065 x 730 h = $474.50 a month); and two shares
/// merged give the same file as one run.
#[test]
fn recommend_on_many_tables_shards_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    for f in ["quickstart.toml", "steady-provisioned.toml"] {
        std::fs::copy(Path::new("scenarios").join(f), tables.join(f)).unwrap();
    }
    let t = tables.to_str().unwrap();
    let run = |extra: &[&str], out: &str| {
        let out = dir.path().join(out);
        let mut args = vec!["recommend", t, "--duration", "5m", "--budget", "6", "-q", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = ddbsim(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let whole = run(&[], "whole");
    let csv = std::fs::read_to_string(whole.join("recommend-tables.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows.iter().map(|r| (r[0], r[2], r[3])).collect::<Vec<_>>(),
        [("0", "UserActivity", "read"), ("0", "UserActivity", "write"), ("1", "Steady", "read"), ("1", "Steady", "write")]
    );
    for r in &rows[2..] {
        let now: f64 = r[5].parse().unwrap();
        assert!((now - 474.5).abs() < 1e-6, "{csv}");
    }
    let a = run(&["--shard", "1/2"], "a");
    let b = run(&["--shard", "2/2"], "b");
    let merged = dir.path().join("merged");
    let o = ddbsim(&["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(merged.join("recommend-tables.csv")).unwrap(), csv);
    let o = ddbsim(&["merge", a.to_str().unwrap(), "--out", dir.path().join("m2").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tables 2 of 2 are in no share"));
}

/// Shell completions for the four shells clap_complete knows and the man page are generated,
/// and name the subcommands.
#[test]
fn completions_and_the_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = ddbsim(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(
            text.contains("recommend") && text.contains("import") && text.contains("check") && text.contains("max-throttle"),
            "{shell}"
        );
    }
    let o = ddbsim(&["man"]);
    assert!(o.status.success());
    let roff = String::from_utf8(o.stdout).unwrap();
    assert!(roff.contains(".TH ddbsim") && roff.contains("recommend") && roff.contains("completions"));
    let o = ddbsim(&["completions", "tcsh"]);
    assert!(!o.status.success());
}

/// `--json` on run, compare, sweep and shards prints one JSON document on stdout, the same as
/// the file the command writes, and nothing else there.
#[test]
fn json_prints_one_document_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["run", "scenarios/quickstart.toml", "--duration", "2m", "--no-charts"], "summary.json"),
        (&["compare", "scenarios/quickstart.toml", "--duration", "2m"], "compare.json"),
        (&["sweep", "scenarios/quickstart.toml", "--duration", "1m", "--set", "table.capacity.write=500,1000"], "sweep.json"),
        (&["shards", "scenarios/hot-key.toml", "--key", "device", "--max", "2", "--replications", "1", "--duration", "1m"], "shards.json"),
    ];
    for (i, (args, file)) in cases.iter().enumerate() {
        let out = dir.path().join(i.to_string());
        let mut all = args.to_vec();
        all.extend(["--json", "--out", out.to_str().unwrap()]);
        let o = ddbsim(&all);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let written: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join(file)).unwrap()).unwrap();
        assert_eq!(doc, written, "{args:?}");
    }
}

/// `validate --json`: one document listing every file, valid or not, with each problem as
/// `{file, line, column, key, message}` (issue 46); the exit code still says whether all are
/// valid. An unknown key suggests the nearest known one.
#[test]
fn validate_json_lists_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 0\n\
         [[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = { constant = -1 }\n",
    )
    .unwrap();
    let o = ddbsim(&["validate", "scenarios/quickstart.toml", bad.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["valid"], true);
    assert_eq!(files[1]["valid"], false);
    let problems = files[1]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0]["file"].as_str().unwrap().ends_with("bad.toml"));
    assert_eq!((problems[0]["line"].as_u64(), problems[0]["key"].as_str()), (Some(7), Some("keys.k.cardinality")));
    assert_eq!(problems[0]["column"].as_u64(), Some(1));
    assert_eq!((problems[1]["line"].as_u64(), problems[1]["key"].as_str()), (Some(11), Some("pattern[0].rate.constant")));
    assert!(!problems[1]["message"].as_str().unwrap().is_empty());
    // A misspelt key: did you mean the nearest?
    std::fs::write(
        &bad,
        "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n[keys.k]\ncardinality = 10\n\
         [[pattern]]\nname = \"p\"\nop = \"put_item\"\nitm_bytes = 900\nrate = { constant = 1 }\n",
    )
    .unwrap();
    let o = ddbsim(&["validate", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown field `itm_bytes`") && err.contains("did you mean `item_bytes`?"), "{err}");
}

/// `ddbsim bench` measures README's performance table in one run: its JSON figures agree with
/// each other (requests a second are requests over wall time, the partition ratio is the two
/// walls' ratio, the SimPy ratio is the two speeds'), the SimPy model is run with python3
/// (here a stand-in printing 50,000 requests in 2 s: 25,000 a second), and the Markdown rows
/// are the table's. A missing model, or a duration that is not one, is an error naming its flag.
#[test]
fn bench_prints_the_performance_table_from_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.py");
    std::fs::write(
        &model,
        "import json, sys\nprint('warming up')\nprint(json.dumps({'simulated_s': int(sys.argv[1]), 'requests': 50000, 'wall_s': 2.0}))\n",
    )
    .unwrap();
    let model = model.to_str().unwrap();
    let args = ["bench", "--fast", "2m", "--exact", "5s", "--growth", "2s,3s", "--simpy", model, "--simpy-duration", "3s"];
    let o = ddbsim(&[&args[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rps = |r: &serde_json::Value| r["requests"].as_f64().unwrap() / r["wall_s"].as_f64().unwrap();
    let exact = &doc["runs"][1];
    assert_eq!((doc["runs"][0]["simulated_s"].as_u64(), exact["simulated_s"].as_u64()), (Some(120), Some(5)));
    assert!((exact["requests_per_s"].as_f64().unwrap() - rps(exact)).abs() < 1e-6 * rps(exact));
    // 50,000 requests a second for 5 s: a Poisson count within 5 standard deviations.
    assert!((exact["requests"].as_f64().unwrap() - 250_000.0).abs() < 5.0 * 500.0, "{exact}");
    let growth = doc["growth"].as_array().unwrap();
    assert_eq!(growth.iter().map(|g| g["simulated_s"].as_u64()).collect::<Vec<_>>(), [Some(2), Some(3)]);
    for g in growth {
        let walls = g["partitions_100000"]["wall_s"].as_f64().unwrap() / g["partitions_100"]["wall_s"].as_f64().unwrap();
        assert!((g["ratio"].as_f64().unwrap() - walls).abs() < 1e-9);
        assert_eq!(g["partitions_100000"]["simulated_s"], g["simulated_s"]);
    }
    let s = &doc["simpy"];
    assert_eq!(s["run"]["requests_per_s"].as_f64(), Some(25_000.0));
    assert_eq!(s["run"]["simulated_s"].as_u64(), Some(3));
    assert!((s["exact_ratio"].as_f64().unwrap() - rps(exact) / 25_000.0).abs() < 1e-6 * s["exact_ratio"].as_f64().unwrap());
    assert!(doc["peak_memory_bytes"].as_u64().unwrap() > 1_000_000);
    let o = ddbsim(&[&args[..], &["--markdown"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8_lossy(&o.stdout);
    let rows: Vec<&str> = md.lines().collect();
    assert_eq!(rows.len(), 8, "{md}");
    assert!(rows.iter().all(|r| r.starts_with("| ") && r.ends_with(" |")), "{md}");
    assert!(rows[4].starts_with("| exact mode, 2s at 100 vs 100,000 partitions") && rows[5].starts_with("| exact mode, 3s at"), "{md}");
    assert!(rows[6].contains("0.025 M requests/s: exact mode"), "{md}");
    // A bad duration names its flag.
    let o = ddbsim(&["bench", "--exact", "nonsense"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--exact: \"nonsense\" is not a duration"), "{err}");
    let o = ddbsim(&["bench", "--growth", "1m,soon"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--growth: \"soon\" is not a duration"), "{err}");
    let o = ddbsim(&["bench", "--fast", "1s", "--exact", "1s", "--growth", "1s", "--simpy", "no-such-model.py"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--simpy no-such-model.py"), "{err}");
}

/// A reader that closes early (`ddbsim schema | head -1`) ends ddbsim quietly, as it ends
/// other Unix tools (SIGPIPE), instead of a panic "failed printing to stdout: Broken pipe"
/// (issue 44): every command that prints, its stdout closed before it writes a byte.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_command_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let d = tempfile::tempdir().unwrap();
    let out = |n: &str| d.path().join(n).display().to_string();
    let q = "scenarios/quickstart.toml";
    let commands: Vec<Vec<String>> = [
        vec!["schema"],
        vec!["man"],
        vec!["completions", "bash"],
        vec!["validate", q],
        vec!["check", "--rules"],
        vec!["import", "tests/fixtures/import/describe-table.json"],
        vec!["run", q, "--duration", "1m", "--no-charts", "--out", &out("run")],
        vec!["run", q, "--duration", "1m", "--no-charts", "--json", "--out", &out("json")],
        vec!["compare", q, "--duration", "1m", "--out", &out("compare")],
        vec!["sweep", q, "--set", "scenario.seed=1,2", "--duration", "1m", "--out", &out("sweep")],
        vec!["recommend", q, "--duration", "10m", "--budget", "2", "--out", &out("recommend")],
        vec!["check", q, "--phases", "steady"],
        vec!["backtest", "scenarios/backtest/hot-key-guess.toml", "--metrics", "scenarios/backtest/metrics.json", "--json"],
        vec!["plot", &out("run")],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(String::from).collect())
    .collect();
    for args in commands {
        let mut child =
            Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
        // Success, SIGPIPE, or the command's own verdict (check and backtest exit 3).
        assert!(o.status.success() || o.status.signal() == Some(13) || o.status.code() == Some(3), "{args:?}: {:?} {err}", o.status);
    }
}

/// The conventions a CLI user expects (#46): `--color auto|always|never` with `NO_COLOR`
/// honoured by `auto` (a flag on the command line wins), a manual page per command, and
/// `--threads` (results the same whatever the count; 0 refused).
#[test]
fn color_man_pages_and_threads_follow_the_conventions() {
    let d = tempfile::tempdir().unwrap();
    let run = |args: &[&str], no_color: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ddbsim"));
        c.args(args).env_remove("NO_COLOR");
        if let Some(v) = no_color {
            c.env("NO_COLOR", v);
        }
        c.output().unwrap()
    };
    let out = d.path().join("o");
    let base = ["run", "scenarios/hot-key.toml", "--duration", "2m", "--no-charts", "--out", out.to_str().unwrap()];
    let with = |extra: &[&str], no_color| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        let o = run(&a, no_color);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    // Into a pipe, auto is plain; always colours (even with NO_COLOR); never does not.
    assert!(!with(&[], None).contains('\x1b'));
    assert!(with(&["--color", "always"], None).contains("\x1b[1;31m"), "hot-key does not hold: red");
    assert!(with(&["--color", "always"], Some("1")).contains('\x1b'), "the flag wins over NO_COLOR");
    assert!(!with(&["--color", "never"], None).contains('\x1b'));
    let o = run(&["run", "scenarios/hot-key.toml", "--color", "sometimes"], None);
    assert_eq!(o.status.code(), Some(1), "an unknown choice is refused");
    assert!(String::from_utf8_lossy(&o.stderr).contains("always"));

    // A page per command, with its own options and the global ones.
    let o = run(&["man", "check"], None);
    assert!(o.status.success());
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(page.contains(".TH ddbsim-check 1"), "{}", &page[..200.min(page.len())]);
    assert!(page.contains("\\-\\-junit") && page.contains("\\-\\-threads") && page.contains("\\-\\-color"));
    let o = run(&["man", "nope"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("commands: run, compare"));
    assert!(run(&["man"], None).status.success());

    // --threads: the same replications on one thread and two, byte for byte; 0 refused.
    let reps = |threads: &str, dir: &str| {
        let o = run(
            &[
                "run",
                "scenarios/hot-key.toml",
                "--duration",
                "2m",
                "--replications",
                "3",
                "--no-charts",
                "--threads",
                threads,
                "--quiet",
                "--out",
                d.path().join(dir).to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(d.path().join(dir).join("replications.json")).unwrap()
    };
    assert_eq!(reps("1", "t1"), reps("2", "t2"));
    let o = run(&["run", "scenarios/hot-key.toml", "--threads", "0"], None);
    assert_eq!(o.status.code(), Some(1));
}
