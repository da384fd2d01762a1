//! The guard's memory estimate against the peak memory the kernel measures: a set of commands
//! that vary duration, partitions, patterns, GSIs, replications and sweep points, each run in a
//! subprocess; its peak resident set (the kernel's high-water mark `VmHWM`, which the binary
//! reports) must be within a factor of 2 of the estimate. And scenarios
//! built to exhaust memory: whatever the guard accepts stays under 1.5 GiB.

use ddbsim::guard::{estimate_work, Work};
use ddbsim::scenario::parse_str;
use ddbsim::{RunOptions, SimDuration};
use std::path::Path;
use std::process::Command;

/// Runs the binary with `args`; returns (exit code, peak memory in bytes): the `VmHWM` the
/// binary reports on its last line. (A child's `ru_maxrss` from `wait4` would not do: it
/// counts the pages of the test harness inherited at the fork, and the harness holds other
/// tests' data.)
fn peak_rss(args: &[&str]) -> (i32, f64) {
    let out = Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(args).output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let peak = stdout
        .rsplit("peak memory ")
        .next()
        .and_then(|rest| rest.split(' ').next())
        .and_then(|mb| mb.parse::<f64>().ok())
        .map_or(f64::NAN, |mb| mb * 1e6);
    assert!(!out.status.success() || peak.is_finite(), "no peak memory reported: {stdout}");
    (out.status.code().unwrap_or(-1), peak)
}

struct Case {
    what: &'static str,
    text: String,
    args: Vec<&'static str>,
    duration_s: u64,
    partitions: bool,
    work: Work,
}

fn scenario(capacity: &str, extra: &str, rate: &str, duration: &str) -> String {
    format!(
        "[scenario]\nduration = \"{duration}\"\n[table]\npartition_key = \"k\"\ncapacity = {capacity}\nsplit_for_heat = false\n\
         [keys.k]\ncardinality = 100000\npopularity = {{ zipf = 1.0 }}\n[keys.g]\ncardinality = 1000\n{extra}\n\
         [[pattern]]\nname = \"r\"\nop = \"get_item\"\nrate = {{ constant = {rate} }}\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nitem_bytes = 900\nrate = {{ constant = {rate} }}\n"
    )
}

fn gsis(n: usize) -> String {
    (0..n).map(|i| format!("[[gsi]]\nname = \"G{i}\"\npartition_key = \"g\"\nprojection = \"keys_only\"\n")).collect()
}

fn cases() -> Vec<Case> {
    let od = "{ mode = \"on_demand\" }";
    let prov = |r: u64| format!("{{ mode = \"provisioned\", read = {r}, write = {r} }}");
    let threads = Work::replications(6);
    vec![
        Case { what: "small", text: scenario(od, "", "100", "15m"), args: vec![], duration_s: 900, partitions: true, work: Work::ONE },
        Case {
            what: "long, data growing",
            text: scenario(&prov(20_000), "", "2000", "3d"),
            args: vec![],
            duration_s: 259_200,
            partitions: true,
            work: Work::ONE,
        },
        Case {
            what: "many partitions",
            text: scenario(&prov(100_000_000), "", "1000", "3m"),
            args: vec![],
            duration_s: 180,
            partitions: true,
            work: Work::ONE,
        },
        Case {
            what: "ten GSIs, a day",
            text: scenario(od, &gsis(10), "500", "1d"),
            args: vec!["--no-charts"],
            duration_s: 86_400,
            partitions: true,
            work: Work::ONE.without_charts(),
        },
        Case {
            what: "very long, no partition rows",
            text: scenario(&prov(100), "", "1", "120d"),
            args: vec!["--no-partitions"],
            duration_s: 120 * 86_400,
            partitions: false,
            work: Work::ONE,
        },
        Case {
            what: "replications",
            text: scenario(&prov(1_000_000), "", "5000", "1h"),
            args: vec!["--replications", "6"],
            duration_s: 3_600,
            partitions: true,
            work: threads,
        },
        Case {
            what: "exact, a busy second",
            text: scenario(od, "", "150000", "20s").replace("[scenario]", "[scenario]\nfidelity = \"exact\""),
            args: vec!["--no-charts"],
            duration_s: 20,
            partitions: true,
            work: Work::ONE.without_charts(),
        },
    ]
}

#[test]
fn the_memory_estimate_is_within_2x_of_the_peak_rss() {
    let d = tempfile::tempdir().unwrap();
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for (i, c) in cases().into_iter().enumerate() {
        let path = d.path().join(format!("m{i}.toml"));
        std::fs::write(&path, &c.text).unwrap();
        let sc = parse_str(&c.text, &path).unwrap();
        let opts =
            RunOptions { duration: Some(SimDuration::from_secs(c.duration_s)), record_partitions: c.partitions, ..RunOptions::default() };
        let est = estimate_work(&sc, &opts, c.work).memory_bytes;
        let out = d.path().join(format!("o{i}"));
        let mut args = vec!["run", path.to_str().unwrap(), "--force", "--out", out.to_str().unwrap()];
        args.extend(c.args.iter().copied());
        let (code, rss) = peak_rss(&args);
        assert_eq!(code, 0, "{}", c.what);
        let ratio = est / rss;
        report.push(format!("{:<30} estimate {:>8.1} MB  peak RSS {:>8.1} MB  ratio {ratio:.2}", c.what, est / 1e6, rss / 1e6));
        if !(0.5..=2.0).contains(&ratio) {
            bad.push(c.what);
        }
    }
    // A sweep: 40 points x 2 replications.
    let (code, rss) = peak_rss(&[
        "sweep",
        "scenarios/hot-key.toml",
        "--set",
        "keys.device.cardinality=1000..40000:1000",
        "--replications",
        "2",
        "--duration",
        "10m",
        "--out",
        d.path().join("sw").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let sc = ddbsim::load(Path::new("scenarios/hot-key.toml")).unwrap();
    let est = estimate_work(&sc, &RunOptions { duration: Some(SimDuration::from_secs(600)), ..RunOptions::default() }, Work::sweep(40, 80))
        .memory_bytes;
    report.push(format!("{:<30} estimate {:>8.1} MB  peak RSS {:>8.1} MB  ratio {:.2}", "sweep", est / 1e6, rss / 1e6, est / rss));
    if !(0.5..=2.0).contains(&(est / rss)) {
        bad.push("sweep");
    }
    eprintln!("{}", report.join("\n"));
    assert!(bad.is_empty(), "estimates off by more than 2x: {bad:?}\n{}", report.join("\n"));
}

fn adversarial(capacity: &str, extra: &str, patterns: usize, rate: &str, duration: &str) -> String {
    let pats: String =
        (0..patterns).map(|i| format!("[[pattern]]\nname = \"p{i}\"\nop = \"get_item\"\nkey = \"k\"\nrate = {rate}\n")).collect();
    format!(
        "[scenario]\nduration = \"{duration}\"\n{extra}\n[table]\npartition_key = \"k\"\ncapacity = {capacity}\nsplit_for_heat = false\n\
         [keys.k]\ncardinality = 1000000\n{pats}"
    )
}

/// Scenarios built to exhaust memory along each dimension the guard counts, each sized just
/// under its limits: the guard accepts them, and each run stays under 1.5 GiB and within 2x
/// above the estimate.
#[test]
fn what_the_guard_accepts_stays_under_one_and_a_half_gib() {
    let d = tempfile::tempdir().unwrap();
    // A 60 MiB trace of one-second steps (the trace cap is 64 MiB).
    let mut trace = String::from("second,rate\n");
    let mut i = 0u64;
    while trace.len() < 60 << 20 {
        trace.push_str(&format!("{i},{}\n", i % 7 + 1));
        i += 1;
    }
    std::fs::write(d.path().join("trace.csv"), trace).unwrap();
    let inline: Vec<String> = (0..250_000).map(|i| format!("[\"{i}s\", {}]", i % 9 + 1)).collect();
    let huge = "{ mode = \"provisioned\", read = 1000000000, write = 1000 }";
    let od = "{ mode = \"on_demand\" }";
    let cases = [
        // 333,334 partitions, 50 patterns each busy enough to keep a weight per partition.
        ("busy patterns on many partitions", adversarial(huge, "", 50, "{ constant = 100000 }", "10s")),
        // Just under 2e7 partition-minute rows.
        ("partition rows", adversarial(huge, "", 1, "{ constant = 100 }", "59m")),
        // A heatmap of 1,000 partitions by 1,000 minutes.
        ("heatmap", adversarial("{ mode = \"provisioned\", read = 3000000, write = 1000 }", "", 1, "{ constant = 1000 }", "1000m")),
        // Five million requests a second, each drawn and replayed.
        ("exact, five million a second", adversarial(od, "fidelity = \"exact\"", 1, "{ constant = 5000000 }", "3s")),
        ("a 60 MiB trace", adversarial(od, "", 1, "{ trace = \"trace.csv\" }", "1h")),
        ("4 MiB of inline steps", adversarial(od, "", 1, &format!("{{ steps = [{}] }}", inline.join(",")), "1h")),
    ];
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for (i, (what, text)) in cases.iter().enumerate() {
        let path = d.path().join(format!("a{i}.toml"));
        std::fs::write(&path, text).unwrap();
        let sc = ddbsim::load(&path).unwrap_or_else(|e| panic!("{what}: {e}"));
        let est = ddbsim::guard::check(&sc, &RunOptions { record_partitions: true, ..RunOptions::default() })
            .unwrap_or_else(|e| panic!("{what}: the guard refuses it: {e}"));
        let out = d.path().join(format!("o{i}"));
        let (code, rss) = peak_rss(&["run", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{what}");
        report.push(format!("{what:<32} estimate {:>8.1} MB  peak RSS {:>8.1} MB", est.memory_bytes / 1e6, rss / 1e6));
        if rss > 1.5 * 1_073_741_824.0 || est.memory_bytes < rss / 2.0 {
            bad.push(*what);
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(bad.is_empty(), "over 1.5 GiB, or more than twice the estimate: {bad:?}\n{}", report.join("\n"));
}
