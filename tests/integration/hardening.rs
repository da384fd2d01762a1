//! Regression tests of the adversarial review (issue 'Hardening'): each numbered item of the
//! review reproduced as it was found, and what ddbsim does now.

use ddbsim::scenario::{parse_str, ScenarioError};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn ddbsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A small valid scenario; `extra` is appended.
fn base(extra: &str) -> String {
    format!(
        "[scenario]\nduration = \"2m\"\n[table]\npartition_key = \"k\"\ncapacity = {{ mode = \"provisioned\", read = 100, write = 100 }}\n\
         [keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\nrate = {{ constant = 100 }}\n{extra}"
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn problems(text: &str) -> Vec<(String, String)> {
    match parse_str(text, Path::new("h.toml")) {
        Err(ScenarioError::Invalid { problems, .. }) => problems.into_iter().map(|p| (p.key, p.message)).collect(),
        Err(e) => panic!("{e}"),
        Ok(_) => Vec::new(),
    }
}

/// 1. `scale_rate` was invisible to the guard: x100,000 passed 4 GB of memory in 33 s. The peak
///    now includes the actions (100 requests/s x 2 x 10^5 = 2 x 10^7 in the busiest second, over
///    the limit of 10^7), and a factor that makes no sense is a validation error.
#[test]
fn item_1_the_guard_sees_scale_rate() {
    let sc = parse_str(&base("[[at]]\ntime = \"1m\"\nscale_rate = { pattern = \"p\", factor = 2e5 }\n"), Path::new("h.toml")).unwrap();
    let e = ddbsim::guard::estimate(&sc, &ddbsim::RunOptions::default());
    assert_eq!(e.peak_requests_per_second, 2e7);
    assert!(ddbsim::guard::check(&sc, &ddbsim::RunOptions::default()).unwrap_err().to_string().contains("busiest second"));
    let p = problems(&base("[[at]]\ntime = \"1m\"\nscale_rate = { pattern = \"p\", factor = 1e300 }\n"));
    assert!(p.iter().any(|(k, m)| k == "at[0].scale_rate.factor" && m.contains("ceiling")), "{p:?}");
}

/// 3. `--duration` had no 366-day cap; a sweep built its points before counting them; points x
///    replications had no cap. Each is refused at once (these took gigabytes before).
#[test]
fn item_3_sizes_are_checked_before_anything_is_allocated() {
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "367d"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("366 days"), "{}", stderr(&o));
    let started = Instant::now();
    let o = ddbsim(&["sweep", "scenarios/hot-key.toml", "--set", "keys.device.cardinality=1..1000000000:1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at most 10000"), "{}", stderr(&o));
    assert!(started.elapsed() < Duration::from_secs(5), "counted, not built");
    let o = ddbsim(&[
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.cardinality=1000..100000:1000",
        "--set",
        "pattern.w.item_bytes=100..1000:10",
        "--replications",
        "20",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("runs (points x replications)"), "{}", stderr(&o));
}

/// 4. Growing partitions was quadratic: 65,536 partitions took 36 s. An UpdateTable to
///    65,000,000 WCU needs ceil((100 + 3 x 65,000,000) / 3,000) = 65,001 partitions: doubling
///    from 1 gives 2^16 = 65,536, in a run that finishes in seconds (under quotas raised to
///    it: AWS's defaults would refuse the UpdateTable).
#[test]
fn item_4_partition_growth_is_fast() {
    let d = tempfile::tempdir().unwrap();
    let quota = "[account]\nmax_write_capacity_units = 65000000\ntable_max_write_capacity_units = 65000000\n";
    let p = write(
        d.path(),
        "grow.toml",
        &base(&format!("[[at]]\ntime = \"1m\"\nset_capacity = {{ write = 65000000 }}\n{quota}"))
            .replace("duration = \"2m\"", "duration = \"3m\"")
            .replace("partition_key = \"k\"", "partition_key = \"k\"\npartition_add_latency = \"30s\""),
    );
    let started = Instant::now();
    let out = d.path().join("o");
    let o = ddbsim(&["run", p.to_str().unwrap(), "--no-partitions", "--no-charts", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["resources"][0]["partitions"], 65_536);
}

/// 5. A write capacity of 6,148,914,691,236,517,206 overflowed partition sizing (one partition
///    and exit 0 in release, a panic in debug). Capacities above ddbsim's ceiling are refused.
#[test]
fn item_5_capacities_above_the_ceiling_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "big.toml", &base("").replace("write = 100", "write = 6148914691236517206"));
    let o = ddbsim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("table.capacity.write") && e.contains("ceiling"), "{e}");
    assert!(!e.contains("panicked"));
}

/// 6. `start` accepted impossible instants.
#[test]
fn item_6_start_is_parsed_by_a_maintained_crate() {
    for bad in ["2026-01-01T-05:-30:-10Z", "2026-02-31T00:00:00Z", "-9223372036854775808-01-01T00:00:00Z"] {
        let p = problems(&base("").replace("duration = \"2m\"", &format!("duration = \"2m\"\nstart = \"{bad}\"")));
        assert!(p.iter().any(|(k, _)| k == "scenario.start"), "{bad}: {p:?}");
    }
}

/// 7. Validation time was quadratic in the number of problems (50,000 took over 30 s).
#[test]
fn item_7_many_problems_are_reported_in_linear_time() {
    let mut text = base("");
    for i in 0..50_000 {
        text.push_str(&format!("[[pattern]]\nname = \"n{i}\"\nop = \"get_item\"\nrate = {{ constant = -1 }}\n"));
    }
    let started = Instant::now();
    let p = problems(&text);
    assert_eq!(p.len(), 50_000);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// 8. Output folders were atomic only file by file: a `--no-charts` rerun kept the old
///    report.html; a failed write left a mix. Now the folder is replaced whole or not at all.
#[test]
fn item_8_an_output_folder_is_replaced_whole_or_not_at_all() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("q");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "scenarios/quickstart.toml", "--duration", "2m", "--quiet", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        ddbsim(&args)
    };
    assert!(run(&[]).status.success());
    assert!(out.join("report.html").exists());
    assert!(run(&["--no-charts"]).status.success());
    assert!(!out.join("report.html").exists(), "a rerun without charts leaves no old report behind");
    let before: Vec<(String, Vec<u8>)> = names(&out).into_iter().map(|n| (n.clone(), std::fs::read(out.join(&n)).unwrap())).collect();
    // A write that fails part-way (a 64 KB file-size limit: timeseries.csv is larger) leaves
    // the previous output exactly as it was, and nothing beside it.
    let o = {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
        c.args(["run", "scenarios/quickstart.toml", "--duration", "3m", "--seed", "9", "--quiet", "--out", out.to_str().unwrap()]);
        // SAFETY: setrlimit in the child between fork and exec touches no shared state.
        unsafe {
            c.pre_exec(|| {
                let lim = libc::rlimit { rlim_cur: 64 * 1024, rlim_max: 64 * 1024 };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        c.output().unwrap()
    };
    assert_eq!(o.status.code(), Some(2), "a failed write is exit 2, not a signal: {}", stderr(&o));
    let after: Vec<(String, Vec<u8>)> = names(&out).into_iter().map(|n| (n.clone(), std::fs::read(out.join(&n)).unwrap())).collect();
    assert!(before == after, "the previous output is untouched");
    assert_eq!(names(d.path()), vec!["q"], "no staging folder, temporary file or lock file is left");
}

/// 8. Two runs into one folder mixed their files. Now one holds the folder; the other is
///    refused or writes after it, and the folder is one run's output, whole.
#[test]
fn item_8_concurrent_runs_do_not_mix() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("q");
    let spawn = |seed: &str| {
        Command::new(env!("CARGO_BIN_EXE_ddbsim"))
            .args([
                "run",
                "scenarios/quickstart.toml",
                "--duration",
                "4m",
                "--seed",
                seed,
                "--quiet",
                "--no-charts",
                "--out",
                out.to_str().unwrap(),
            ])
            .spawn()
            .unwrap()
    };
    let (mut a, mut b) = (spawn("1"), spawn("2"));
    let (ra, rb) = (a.wait().unwrap(), b.wait().unwrap());
    assert!(ra.success() || rb.success());
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let seed = summary["seed"].to_string();
    let alone = d.path().join("alone");
    let o = ddbsim(&[
        "run",
        "scenarios/quickstart.toml",
        "--duration",
        "4m",
        "--seed",
        &seed,
        "--quiet",
        "--no-charts",
        "--out",
        alone.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for f in ["summary.json", "timeseries.csv", "partitions.csv"] {
        assert!(std::fs::read(out.join(f)).unwrap() == std::fs::read(alone.join(f)).unwrap(), "{f} is from the run of seed {seed}");
    }
}

/// 9. Temporary and probe files had predictable names and followed symlinks: a planted link
///    truncated a victim file. Names are now unpredictable and files are created exclusively.
#[test]
fn item_9_planted_links_are_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("q");
    std::fs::create_dir(&out).unwrap();
    let victim = write(d.path(), "victim.txt", "precious");
    let me = std::process::id();
    for pid in me..me + 400 {
        for name in [format!(".summary.json.tmp-{pid}"), format!(".ddbsim-probe-{pid}")] {
            let _ = std::os::unix::fs::symlink(&victim, out.join(name));
        }
    }
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "1m", "--quiet", "--no-charts", "--out", out.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // The folder holds links ddbsim did not write: it refuses to replace it.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("did not write"), "{}", stderr(&o));
}

/// 10. A scenario file named `...toml` without a name wrote into the working folder; a NUL or
///     a 300-character name exited 2. Names are checked like any other input (exit 1).
#[test]
fn item_10_names_are_checked() {
    let d = tempfile::tempdir().unwrap();
    let dots = write(d.path(), "...toml", &base(""));
    let o = ddbsim(&["run", dots.to_str().unwrap(), "--duration", "1m"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("set [scenario] name"), "{}", stderr(&o));
    for name in ["a\\u0000b".to_string(), "n".repeat(300), "../up".to_string()] {
        let p = write(d.path(), "n.toml", &base("").replace("[scenario]", &format!("[scenario]\nname = \"{name}\"")));
        let o = ddbsim(&["run", p.to_str().unwrap(), "--duration", "1m"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("scenario.name"), "{}", stderr(&o));
    }
}

/// 11. `rate.trace` read any path (`/dev/zero` to 2.1 GB; a FIFO blocked forever) and echoed
///     whole lines. Traces are confined to the scenario's folder, regular files, capped, and a
///     message quotes at most the field that failed.
#[test]
fn item_11_traces_are_confined_and_bounded() {
    let d = tempfile::tempdir().unwrap();
    let inner = d.path().join("scn");
    std::fs::create_dir(&inner).unwrap();
    write(d.path(), "outside.csv", "0,10\n");
    let traced = |file: &str| base("").replace("rate = { constant = 100 }", &format!("rate = {{ trace = \"{file}\" }}"));
    let p = write(&inner, "t.toml", &traced("../outside.csv"));
    let o = ddbsim(&["validate", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("outside the scenario's folder") && stderr(&o).contains("--allow-outside"), "{}", stderr(&o));
    assert!(ddbsim(&["validate", p.to_str().unwrap(), "--allow-outside"]).status.success());
    let p = write(&inner, "z.toml", &traced("/dev/zero"));
    let o = ddbsim(&["validate", p.to_str().unwrap(), "--allow-outside"]);
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let fifo = inner.join("fifo.csv");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path in a temporary folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = write(&inner, "f.toml", &traced("fifo.csv"));
    let started = Instant::now();
    let o = ddbsim(&["validate", p.to_str().unwrap()]);
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert!(started.elapsed() < Duration::from_secs(10));
    let secret = "s".repeat(500);
    write(&inner, "bad.csv", &format!("0,10\n5,{secret}\n"));
    let p = write(&inner, "b.toml", &traced("bad.csv"));
    let o = ddbsim(&["validate", p.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(e.contains("line 2: rate") && !e.contains(&"s".repeat(40)), "{e}");
    // A UTF-8 byte-order mark and no header: the first row is kept.
    write(&inner, "bom.csv", "\u{feff}0,7\n60,8\n");
    let sc = ddbsim::scenario::load(&write(&inner, "bom.toml", &traced("bom.csv"))).unwrap();
    assert_eq!(sc.patterns[0].rate, ddbsim::scenario::RateShape::Steps(vec![(0, 7.0), (60, 8.0)]));
}

/// 12. `ddbsim shards` ignored Ctrl-C and wrote the truncated runs' results with exit 0.
#[test]
fn item_12_shards_stops_on_ctrl_c() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("s");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddbsim"))
        .args(["shards", "scenarios/hot-date-sharding.toml", "--key", "day", "--max", "64", "--replications", "50", "--quiet"])
        .args(["--duration", "6h", "--out", out.to_str().unwrap()])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: signalling our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    assert!(!out.join("shards.json").exists(), "nothing is written");
}

/// 12. `ddbsim plot` looped forever on `inf` in timeseries.csv.
#[test]
fn item_12_plot_refuses_non_finite_values() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("q");
    assert!(ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "2m", "--quiet", "--out", out.to_str().unwrap()]).status.success());
    let ts = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let mut lines: Vec<String> = ts.lines().map(String::from).collect();
    let v = lines[5].rsplit_once(',').unwrap().0.to_string();
    lines[5] = format!("{v},inf");
    std::fs::write(out.join("timeseries.csv"), lines.join("\n") + "\n").unwrap();
    let started = Instant::now();
    let o = ddbsim(&["plot", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("timeseries.csv") && stderr(&o).contains("line 6"), "{}", stderr(&o));
    assert!(started.elapsed() < Duration::from_secs(20));
}

fn sweep_share(dir: &Path, shard: &str, duration: &str) {
    let o = ddbsim(&[
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.shards.count=1,2,4",
        "--set",
        "keys.device.shards.by=random",
        "--duration",
        duration,
        "--quiet",
        "--shard",
        shard,
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// 12. `merge` accepted shares of different runs, a tampered point and missing shares (exit
///     0); an empty share wrote a 0-byte sweep.csv.
#[test]
fn item_12_merge_checks_its_parts() {
    let d = tempfile::tempdir().unwrap();
    let (a, b, c, e) = (d.path().join("a"), d.path().join("b"), d.path().join("c"), d.path().join("e"));
    sweep_share(&a, "1/2", "1m");
    sweep_share(&b, "2/2", "1m");
    sweep_share(&c, "2/2", "2m");
    sweep_share(&e, "5/5", "1m");
    assert_eq!(std::fs::read_to_string(e.join("sweep.csv")).unwrap().lines().count(), 1, "an empty share has its header");
    let merge = |dirs: &[&Path], extra: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(dirs.iter().map(|p| p.display().to_string()));
        args.extend(["--out".to_string(), d.path().join("m").display().to_string()]);
        args.extend(extra.iter().map(ToString::to_string));
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).output().unwrap()
    };
    assert!(merge(&[&a, &b], &[]).status.success());
    let o = merge(&[&a, &c], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not shares of one sweep"), "{}", stderr(&o));
    let o = merge(&[&a], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
    assert!(merge(&[&a], &["--allow-partial"]).status.success());
    let json = std::fs::read_to_string(b.join("sweep.json")).unwrap();
    std::fs::write(b.join("sweep.json"), json.replacen("\"index\": 1", "\"index\": 2", 1)).unwrap();
    let o = merge(&[&a, &b], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("does not match") || stderr(&o).contains("two parts"), "{}", stderr(&o));
}
