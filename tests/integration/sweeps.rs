//! Sweeps, replications, sharded sweeps and the write-sharding explorer.

use std::path::Path;
use std::process::Command;

fn ddbsim(args: &[&str], threads: Option<&str>) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
    c.args(args);
    if let Some(t) = threads {
        c.env("RAYON_NUM_THREADS", t);
    }
    c.output().expect("the binary runs")
}

/// The small sweep of these tests (3 x 2 points, 3 replications, a minute each) into `dir`.
fn sweep_args<'a>(dir: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.shards.count=1,2,4",
        "--set",
        "keys.device.shards.by=random,hash",
        "--replications",
        "3",
        "--duration",
        "1m",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

fn sweep_into(dir: &Path, threads: &str, extra: &[&str]) {
    let o = ddbsim(&sweep_args(dir, extra), Some(threads));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn read(dir: &Path) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let f = |n: &str| std::fs::read(dir.join(n)).unwrap();
    (f("sweep.csv"), f("sweep.json"), f("sweep-summary.csv"))
}

#[test]
fn sweep_is_byte_identical_whatever_the_thread_count() {
    let d = tempfile::tempdir().unwrap();
    sweep_into(&d.path().join("one"), "1", &[]);
    sweep_into(&d.path().join("two"), "2", &[]);
    assert_eq!(read(&d.path().join("one")), read(&d.path().join("two")));
    let (csv, _, summary) = read(&d.path().join("one"));
    let csv = String::from_utf8(csv).unwrap();
    // Long form: 6 points x (3 replications x 7 metrics — the six figures and `spent_credit`
    // — + 7 statistics x the six figures) + header.
    assert_eq!(csv.lines().count(), 1 + 6 * (3 * 7 + 7 * 6));
    assert_eq!(csv.lines().next().unwrap(), "point,keys.device.shards.count,keys.device.shards.by,replication,stat,metric,value");
    // Each point's mean is the mean of its three runs, read back from the tidy rows.
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect();
    for point in 0..6 {
        let of = |stat: &str| -> Vec<f64> {
            rows.iter()
                .filter(|r| r[0] == point.to_string() && r[4] == stat && r[5] == "throttled_share")
                .map(|r| r[6].parse().unwrap())
                .collect()
        };
        let runs = of("run");
        assert_eq!(runs.len(), 3);
        let mean = of("mean")[0];
        assert!((mean - runs.iter().sum::<f64>() / 3.0).abs() < 1e-12, "point {point}: mean {mean} of {runs:?}");
    }
    // The wide summary: a row per point, its values and each metric's mean and bounds.
    let summary = String::from_utf8(summary).unwrap();
    assert_eq!(summary.lines().count(), 1 + 6);
    assert!(summary.starts_with("point,keys.device.shards.count,keys.device.shards.by,throttled_share_mean,throttled_share_ci95_low,"));
    assert!(summary.lines().nth(1).unwrap().starts_with("0,1,random,"), "the first --set varies slowest");
}

#[test]
fn sharded_sweep_merges_into_the_same_bytes() {
    let d = tempfile::tempdir().unwrap();
    sweep_into(&d.path().join("all"), "2", &[]);
    let mut dirs = Vec::new();
    for i in 1..=3 {
        let p = d.path().join(format!("part{i}"));
        sweep_into(&p, "2", &["--shard", &format!("{i}/3")]);
        dirs.push(p);
    }
    let merged = d.path().join("merged");
    let mut args = vec!["merge"];
    let ds: Vec<String> = dirs.iter().map(|p| p.display().to_string()).collect();
    args.extend(ds.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap(), "--json"]);
    let o = ddbsim(&args, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&merged), read(&d.path().join("all")));
    assert_eq!(o.stdout, read(&merged).1, "merge --json prints the merged sweep.json and nothing else");
    // The chart an unsharded sweep draws, byte for byte; `plot` redraws it from sweep.json.
    let svg = |dir: &Path| std::fs::read(dir.join("sweep.svg")).unwrap();
    assert_eq!(svg(&merged), svg(&d.path().join("all")));
    std::fs::remove_file(merged.join("sweep.svg")).unwrap();
    let o = ddbsim(&["plot", merged.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(svg(&merged), svg(&d.path().join("all")));
    // A share left out is named; a part of another sweep names the field that differs.
    let o = ddbsim(&["merge", &ds[0], &ds[1], "--out", d.path().join("m2").to_str().unwrap()], None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2 of 6 points are missing (2, 5); share 3/3 not given"), "{err}");
    let other = d.path().join("other");
    sweep_into(&other, "2", &["--seed", "7", "--shard", "3/3"]);
    let o = ddbsim(&["merge", &ds[0], &ds[1], other.to_str().unwrap(), "--out", d.path().join("m3").to_str().unwrap()], None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not shares of one sweep: seed 1 in one, 7 in another"), "{err}");
}

/// The hot-date scenario writes 3,000 WU/s on one key against a 1,000 WU/s partition cap:
/// ceil(3000 / 1000) = 3 shards is the floor, so the smallest power of two that serves it is 4
/// (750 WU/s a shard). At the median placement of 4 shards over 40 partitions no two share a
/// partition (probability 39 x 38 x 37 / 40^3 = 86 %), so at P50 the explorer must recommend 4;
/// and 1 shard serves, over the minute, its bucket's 1,000 WU and 1,000 WU a second: it
/// throttles 1 - 61,000 / 180,000 = 0.661 of the writes.
#[test]
fn shards_explorer_agrees_with_the_hand_calculation() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("s");
    let o = ddbsim(
        &[
            "shards",
            "scenarios/hot-date-sharding.toml",
            "--key",
            "day",
            "--max",
            "16",
            "--replications",
            "9",
            "--percentile",
            "50",
            "--duration",
            "1m",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("shards.json")).unwrap()).unwrap();
    assert_eq!(v["recommended"], 4);
    let one = v["rows"][0]["throttled_share"]["p50"].as_f64().unwrap();
    assert!((one - (1.0 - 61.0 / 180.0)).abs() < 0.005, "{one}");
    assert_eq!(v["rows"][2]["read_fan_out"], 4);
}

#[test]
fn replications_vary_the_placement() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("r");
    let o = ddbsim(
        &["run", "scenarios/cortex-placement.toml", "--replications", "8", "--duration", "1m", "--quiet", "--out", out.to_str().unwrap()],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("replications.json")).unwrap()).unwrap();
    assert!(v["stats"]["throttled_share"]["sd"].as_f64().unwrap() > 0.0);
    assert_eq!(std::fs::read_to_string(out.join("replications.csv")).unwrap().lines().count(), 9);
}

#[test]
fn bad_sweep_arguments_exit_1_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["--set", "pattern.nope.rate.constant=1,2"], "no [[pattern]] entry named"),
        (&["--set", "keys.device.cardinality=10..5:1"], "empty"),
        (&["--set", "keys.device.shards.count=many"], "point 0"),
        (&["--set", "keys.device.cardinality=1,2", "--shard", "4/3"], "--shard 4/3"),
        (&["--set", "keys.device.cardinality"], "PATH=VALUES"),
        (&["--set", "keys.device.cardinality=0,5"], "cardinality must be at least 1"),
    ];
    for (extra, words) in cases {
        let mut args = vec!["sweep", "scenarios/hot-key.toml", "--quiet"];
        args.extend_from_slice(extra);
        let o = ddbsim(&args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {err}");
        assert!(err.contains(words), "{extra:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// `--progress` draws the bar on a stderr that is not a terminal (here a pipe); stdout keeps
/// only the summary.
#[test]
fn progress_forces_the_bar_when_stderr_is_not_a_terminal() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("s");
    let args = [
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.shards.count=1,2",
        "--duration",
        "1m",
        "--progress",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = ddbsim(&args, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("runs") && err.contains("sweep"), "no bar on stderr: {err:?}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("\x1b["), "stdout has no escape codes");
}

/// The window-first rule of `run` holds for the studies (#46): on hot-key's 10-minute window,
/// which does not extrapolate, `sweep`, `shards` and `run --replications` lead with the
/// window's cost; told to extrapolate, with a month. A month is the window x 730 h / window
/// hours: with 1/6 h simulated, 4,380 times the window.
#[test]
fn studies_lead_with_the_window_unless_the_scenario_extrapolates() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("scenarios/hot-key.toml").unwrap();
    assert!(!text.contains("extrapolate"), "hot-key states no extrapolation: a 10-minute window defaults to none");
    let repeat = d.path().join("repeat.toml");
    std::fs::write(&repeat, text.replacen("[table]", "[pricing]\nextrapolate = \"repeat\"\n\n[table]", 1)).unwrap();
    for (sc, window) in [("scenarios/hot-key.toml", true), (repeat.to_str().unwrap(), false)] {
        let tag = if window { "w" } else { "m" };
        let o = ddbsim(
            &[
                "shards",
                sc,
                "--key",
                "device",
                "--max",
                "2",
                "--replications",
                "2",
                "--out",
                d.path().join(format!("s{tag}")).to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(out.contains("$/window"), window, "{out}");
        assert_eq!(out.contains("$/month"), !window, "{out}");
        let o = ddbsim(
            &[
                "sweep",
                sc,
                "--set",
                "keys.device.shards.count=1,2",
                "--replications",
                "2",
                "--out",
                d.path().join(format!("w{tag}")).to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(out.contains("for the window"), window, "{out}");
        assert_eq!(out.contains("/month (extrapolated)"), !window, "{out}");
        let out = d.path().join(format!("r{tag}"));
        let o = ddbsim(&["run", sc, "--replications", "2", "--out", out.to_str().unwrap()], None);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(text.contains("for the window"), window, "{text}");
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("replications.json")).unwrap()).unwrap();
        let (m, w) = (v["stats"]["monthly_usd"]["mean"].as_f64().unwrap(), v["stats"]["window_usd"]["mean"].as_f64().unwrap());
        assert!((m / w - 4_380.0).abs() < 1e-6 * 4_380.0, "month {m} is the window {w} x 730 / (1/6)");
        assert_eq!(v["stats"]["extrapolated"].as_bool(), Some(!window));
    }
}

/// The 10,000-point cap is one invocation's: a 12,000-point sweep (120 x 100) is refused whole,
/// saying how many shares it needs, and runs 100 ways, 120 points a share; two shares merge
/// (partial) into the points they ran, at their places in the whole sweep.
#[test]
fn the_point_cap_applies_to_a_share() {
    let d = tempfile::tempdir().unwrap();
    let sets = ["--set", "keys.device.cardinality=1..120:1", "--set", "pattern.hot-device-writes.item_bytes=100..1090:10"];
    let mut whole = vec!["sweep", "scenarios/hot-key.toml", "--quiet", "--duration", "1s"];
    whole.extend_from_slice(&sets);
    let o = ddbsim(&whole, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("12000 points in the sweep: at most 10000 in one invocation; run it in at least 2 shares"), "{err}");
    let mut dirs = Vec::new();
    for share in ["1/100", "100/100"] {
        let out = d.path().join(share.replace('/', "-"));
        let mut args = whole.clone();
        args.extend_from_slice(&["--shard", share, "--out", out.to_str().unwrap(), "--json"]);
        let o = ddbsim(&args, None);
        assert!(o.status.success(), "{share}: {}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["total_points"], 12_000);
        let points = v["points"].as_array().unwrap();
        assert_eq!(points.len(), 120, "{share}");
        // Share I of N runs points I-1, I-1+N, ...: share 100/100's last is 11,999, whose
        // parameters are the last of each axis (120, 1,090 bytes).
        if share == "100/100" {
            let last = &points[119];
            assert_eq!(last["index"], 11_999);
            assert_eq!(
                last["params"],
                serde_json::json!([["keys.device.cardinality", "120"], ["pattern.hot-device-writes.item_bytes", "1090"]])
            );
        }
        dirs.push(out);
    }
    let merged = d.path().join("merged");
    let o = ddbsim(
        &["merge", dirs[0].to_str().unwrap(), dirs[1].to_str().unwrap(), "--allow-partial", "--out", merged.to_str().unwrap(), "--json"],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["points"].as_array().unwrap().len(), v["total_points"].as_u64()), (240, Some(12_000)));
}

/// `--shard auto` takes the share from the scheduler's variables: a Slurm array task 2 of
/// `--array=1-3` runs what `--shard 2/3` runs, byte for byte; with none set it names them.
#[test]
fn shard_auto_reads_the_schedulers_task_index() {
    let d = tempfile::tempdir().unwrap();
    let (given, auto) = (d.path().join("given"), d.path().join("auto"));
    sweep_into(&given, "2", &["--shard", "2/3"]);
    // Not quiet: the share's source is printed.
    let args: Vec<&str> = sweep_args(&auto, &["--shard", "auto"]).into_iter().filter(|a| *a != "--quiet").collect();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
    c.args(&args).env("RAYON_NUM_THREADS", "2");
    c.env("SLURM_ARRAY_TASK_ID", "2").env("SLURM_ARRAY_TASK_MIN", "1").env("SLURM_ARRAY_TASK_COUNT", "3");
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("share 2/3 from Slurm job array (SLURM_ARRAY_TASK_ID=2)"));
    assert_eq!(read(&given), read(&auto));
    let mut bare = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
    bare.args(&args);
    for v in ["AWS_BATCH_JOB_ARRAY_INDEX", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "CLOUD_RUN_TASK_INDEX", "DDBSIM_SHARD_INDEX"] {
        bare.env_remove(v);
    }
    let o = bare.output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no scheduler's task index is set (looked for AWS_BATCH_JOB_ARRAY_INDEX"));
}
