//! `ddbsim bench`: the figures of README's performance table, measured in one run.

use super::stopped;
use crate::cli::args::{catalog_arg, duration_flag};
use crate::cli::CliError;
use crate::engine::{simulate, RunOptions, StopToken};
use crate::report::Render;
use crate::report::{Output, RunReport};
use crate::scenario;
use crate::scenario::{Fidelity, Scenario};
use crate::time::SimDuration;
use std::path::Path;
use std::time::Instant;

/// One timed run of `ddbsim bench`.
struct Timed {
    simulated_s: u64,
    wall_s: f64,
    requests: u64,
}

impl Timed {
    fn requests_per_s(&self) -> f64 {
        self.requests as f64 / self.wall_s
    }

    fn json(&self, label: &str) -> serde_json::Value {
        serde_json::json!({
            "fidelity": label,
            "simulated_s": self.simulated_s,
            "wall_s": self.wall_s,
            "requests": self.requests,
            "requests_per_s": self.requests_per_s(),
        })
    }
}

/// Times `sc` in `fidelity` for `d` simulated.
fn timed(sc: &Scenario, fidelity: Fidelity, d: crate::time::SimDuration, stop: &StopToken) -> Result<Timed, CliError> {
    let started = Instant::now();
    let opts = RunOptions { fidelity: Some(fidelity), duration: Some(d), stop: Some(stop.clone()), ..RunOptions::default() };
    let r = simulate(sc, &opts);
    let wall_s = started.elapsed().as_secs_f64();
    stopped(stop)?;
    Ok(Timed { simulated_s: d.as_secs(), wall_s, requests: r.totals().attempts })
}

/// The process's peak resident memory so far, bytes (Linux's `VmHWM`; `None` elsewhere).
fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches("kB").trim().parse::<u64>().ok()?;
    Some(kb * 1024)
}

/// The SimPy model of the headline, run with `python3` for `secs` simulated seconds: its
/// requests and wall time.
fn simpy(script: &Path, secs: u64) -> Result<Timed, CliError> {
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(secs.to_string())
        .arg("--json")
        .output()
        .map_err(|e| CliError::Argument(format!("--simpy {}: cannot run python3: {e}", script.display())))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(CliError::Argument(format!(
            "--simpy {}: python3 failed ({}): {} (the model needs SimPy: pip install simpy)",
            script.display(),
            out.status,
            err.lines().last().unwrap_or("").trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let doc: serde_json::Value = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| CliError::Argument(format!("--simpy {}: no JSON line in its output: {}", script.display(), text.trim())))?;
    let (Some(requests), Some(wall_s)) = (doc["requests"].as_u64(), doc["wall_s"].as_f64()) else {
        return Err(CliError::Argument(format!("--simpy {}: its JSON lacks requests or wall_s: {doc}", script.display())));
    };
    if wall_s <= 0.0 {
        return Err(CliError::Argument(format!("--simpy {}: a wall time of {wall_s} s", script.display())));
    }
    Ok(Timed { simulated_s: secs, wall_s, requests })
}

/// The headline with `rcu` read capacity: ceil(rcu / 3,000) partitions, the same requests.
fn headline_with(rcu: u64) -> Result<Scenario, CliError> {
    let text = include_str!("../../../scenarios/headline.toml").replace("read = 3000000", &format!("read = {rcu}"));
    Ok(scenario::parse_str(&text, Path::new("scenarios/headline.toml"))?)
}

/// `ddbsim bench`: the figures of README's performance table, measured in one run.
pub(in crate::cli) fn bench(a: &crate::cli::args::BenchArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = headline_with(3_000_000)?;
    let (fast_d, exact_d, simpy_d) =
        (duration_flag("fast", &a.fast)?, duration_flag("exact", &a.exact)?, duration_flag("simpy-duration", &a.simpy_duration)?);
    let growth_ds = a.growth.split(',').map(|d| duration_flag("growth", d.trim())).collect::<Result<Vec<_>, _>>()?;
    if let Some(script) = a.simpy.as_ref().filter(|p| !p.is_file()) {
        return Err(CliError::Argument(format!("--simpy {}: no such file (the SimPy model is tools/simpy_baseline.py)", script.display())));
    }
    let chatty = !a.json && !a.markdown;
    if chatty {
        println!(
            "headline scenario: 50,000 requests/s, 1,000 partitions, Zipf keys; release build recommended (cargo run --release -- bench)"
        );
    }
    let say = |line: String| {
        if chatty {
            println!("{line}");
        }
    };
    let fast = timed(&sc, Fidelity::Fast, fast_d, stop)?;
    say(format!("fast: {fast_d} simulated in {:.2} s, {:.3} G requests/s", fast.wall_s, fast.requests_per_s() / 1e9));
    let exact = timed(&sc, Fidelity::Exact, exact_d, stop)?;
    let day_s = exact.wall_s * 86_400.0 / exact_d.as_secs() as f64;
    say(format!(
        "exact: {exact_d} simulated in {:.2} s, {:.1} M requests/s (24 h: about {day_s:.0} s)",
        exact.wall_s,
        exact.requests_per_s() / 1e6
    ));
    let simpy = match &a.simpy {
        Some(script) => {
            let t = simpy(script, simpy_d.as_secs())?;
            say(format!(
                "SimPy: {simpy_d} simulated in {:.2} s, {:.3} M requests/s: exact mode {:.0}x faster",
                t.wall_s,
                t.requests_per_s() / 1e6,
                exact.requests_per_s() / t.requests_per_s()
            ));
            Some(t)
        }
        None => None,
    };
    let (few_sc, many_sc) = (headline_with(300_000)?, headline_with(300_000_000)?);
    let mut growths = Vec::new();
    for &d in &growth_ds {
        // Three runs of each, alternating (this machine's speed drifts by 10-20 % within
        // minutes, and memory-bound runs of many partitions most): the median of each.
        let (mut fews, mut manys) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            fews.push(timed(&few_sc, Fidelity::Exact, d, stop)?);
            manys.push(timed(&many_sc, Fidelity::Exact, d, stop)?);
        }
        let median = |mut v: Vec<Timed>| {
            v.sort_by(|a, b| a.wall_s.total_cmp(&b.wall_s));
            v.swap_remove(1)
        };
        let (few, many) = (median(fews), median(manys));
        let growth = many.wall_s / few.wall_s;
        say(format!("exact, {d} at 100 vs 100,000 partitions: {:.0} ms vs {:.0} ms, {growth:.2}x", few.wall_s * 1e3, many.wall_s * 1e3));
        growths.push((d, few, many, growth));
    }
    // The fast run again as `ddbsim run` makes it, with its partitions recorded, its report,
    // charts and files written (to a folder removed after): the peak of this process.
    let mem_dir = std::env::temp_dir().join(format!("ddbsim-bench-{}", std::process::id()));
    let peak = {
        let opts = RunOptions {
            fidelity: Some(Fidelity::Fast),
            duration: Some(fast_d),
            record_partitions: true,
            stop: Some(stop.clone()),
            ..RunOptions::default()
        };
        let r = simulate(&sc, &opts);
        stopped(stop)?;
        let catalog = catalog_arg(None, &sc)?;
        let report = RunReport::new(&sc, &r, &catalog, true);
        let out = Output::claim(&mem_dir)?;
        let written = out.write_all(&report.artifacts()?);
        let _ = std::fs::remove_dir_all(&mem_dir);
        written?;
        peak_memory_bytes()
    };
    if let Some(b) = peak {
        say(format!("peak memory with the {fast_d} run's outputs: {:.0} MB", b as f64 / 1e6));
    }
    let f = Figures { fast_d, exact_d, simpy_d, fast, exact, day_s, simpy, growths, peak };
    if a.json {
        f.print_json();
    } else if a.markdown {
        f.print_markdown();
    }
    Ok(())
}

/// What `bench` measured.
struct Figures {
    fast_d: SimDuration,
    exact_d: SimDuration,
    simpy_d: SimDuration,
    fast: Timed,
    exact: Timed,
    /// Seconds exact mode would take for a day.
    day_s: f64,
    simpy: Option<Timed>,
    /// Per `--growth` duration: 100 partitions, 100,000 partitions, their ratio.
    growths: Vec<(SimDuration, Timed, Timed, f64)>,
    peak: Option<u64>,
}

impl Figures {
    /// `bench --json`.
    fn print_json(&self) {
        let Figures { fast, exact, day_s, simpy, growths, peak, .. } = self;
        let doc = serde_json::json!({
            "runs": [fast.json("fast"), exact.json("exact")],
            "exact_day_s": day_s,
            "growth": growths.iter().map(|(d, few, many, growth)| serde_json::json!({
                "simulated_s": d.as_secs(),
                "partitions_100": few.json("exact"),
                "partitions_100000": many.json("exact"),
                "ratio": growth,
            })).collect::<Vec<_>>(),
            "peak_memory_bytes": peak,
            "simpy": simpy.as_ref().map(|t| serde_json::json!({
                "run": t.json("simpy"),
                "exact_ratio": exact.requests_per_s() / t.requests_per_s(),
                "fast_ratio": fast.requests_per_s() / t.requests_per_s(),
            })),
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("plain data"));
    }

    /// `bench --markdown`: README's performance table.
    fn print_markdown(&self) {
        let Figures { fast_d, exact_d, simpy_d, fast, exact, day_s, simpy, growths, peak } = self;
        println!("| measure | measured | target |");
        println!("| --- | --- | --- |");
        println!(
            "| fast mode, {fast_d} simulated ({:.0} M requests) | {:.2} s, {:.2} G requests/s | 24 h ≤ 5.5 s; ≥ 1 G/s |",
            fast.requests as f64 / 1e6,
            fast.wall_s,
            fast.requests_per_s() / 1e9
        );
        println!(
        "| exact mode, {exact_d} simulated ({:.0} M requests) | {:.2} s, {:.1} M requests/s (24 h ≈ {day_s:.0} s) | ≥ 50 M/s; 24 h ≤ 90 s |",
        exact.requests as f64 / 1e6,
        exact.wall_s,
        exact.requests_per_s() / 1e6
    );
        for (d, few, many, growth) in growths {
            println!(
                "| exact mode, {d} at 100 vs 100,000 partitions | {:.0} ms vs {:.0} ms: {growth:.2}× | within 1.5× |",
                few.wall_s * 1e3,
                many.wall_s * 1e3
            );
        }
        match &simpy {
        Some(t) => println!(
            "| against SimPy (the same model, `tools/simpy_baseline.py`, {simpy_d} simulated) | {:.3} M requests/s: exact mode {:.0}×, fast {:.0}× | exact ≥ 300× |",
            t.requests_per_s() / 1e6,
            exact.requests_per_s() / t.requests_per_s(),
            fast.requests_per_s() / t.requests_per_s()
        ),
        None => println!("| against SimPy | not measured (`--simpy tools/simpy_baseline.py`) | exact ≥ 300× |"),
    }
        match peak {
            Some(b) => println!("| peak memory, the {fast_d} fast run with its outputs and charts | {:.0} MB | ≤ 1 GiB |", *b as f64 / 1e6),
            None => println!("| peak memory | not measured (no /proc/self/status) | ≤ 1 GiB |"),
        }
    }
}
