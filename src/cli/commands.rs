//! One function per command: parse the arguments, call the library, write the artifacts, print.

use super::args::{catalog_arg, duration_arg, duration_flag, replications_arg, share_arg, CompareArgs, RunArgs, ShardsArgs, SweepArgs};
use super::progress::{Bar, Mode};
use super::CliError;
use crate::engine::{simulate, RunOptions, StopToken};
use crate::guard;
use crate::report::replications::Replications;
use crate::report::{Output, Render, RunReport};
use crate::scenario::{self, Fidelity, Scenario};
use crate::study::{self, CompareOptions, ReplicatedComparison, ShardsOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The output folder: `--out`, or `output/<scenario name>` (with `-sweep` or `-shards`).
fn out_dir(out: Option<&PathBuf>, sc: &Scenario, suffix: &str) -> PathBuf {
    out.cloned().unwrap_or_else(|| PathBuf::from("output").join(format!("{}{suffix}", sc.name)))
}

/// Prints the artifact `name` (a JSON document) on stdout, for `--json`.
fn print_json(artifacts: &[crate::report::Artifact<'_>], name: &str) {
    let mut out = std::io::stdout().lock();
    if let Some(a) = artifacts.iter().find(|a| a.name == name) {
        let _ = a.write_to(&mut out);
    }
}

/// The verdict's headline in bold green (held) or red (not) when stdout is a terminal and
/// `NO_COLOR` is unset or empty (<https://no-color.org>); the text unchanged otherwise.
fn colour_verdict(text: String, headline: &str, held: bool) -> String {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if no_color || !std::io::stdout().is_terminal() {
        return text;
    }
    let code = if held { "1;32" } else { "1;31" };
    text.replacen(headline, &format!("\x1b[{code}m{headline}\x1b[0m"), 1)
}

fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Scenario(scenario::ScenarioError::Io { path: path.to_path_buf(), source }))
}

fn stopped(stop: &StopToken) -> Result<(), CliError> {
    if stop.is_stopped() {
        Err(CliError::Interrupted)
    } else {
        Ok(())
    }
}

/// The process's peak resident memory (`VmHWM`, Linux), beside the guard's estimate: the user
/// sees how close the estimate came, and tests read it (a child's `ru_maxrss` would count the
/// test harness's pages inherited at the fork).
fn memory(estimate: &guard::Estimate) -> String {
    let peak = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        s.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
    });
    match peak {
        Some(kb) => format!("peak memory {:.0} MB (estimated {:.0} MB)", kb * 1024.0 / 1e6, estimate.memory_bytes / 1e6),
        None => format!("estimated peak memory {:.0} MB", estimate.memory_bytes / 1e6),
    }
}

fn wrote(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// `ddbsim run`.
pub(super) fn run(a: &RunArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    let reps = replications_arg(a.replications)?;
    let max_throttle = share_arg(&a.max_throttle)?;
    let bar = Arc::new(Bar::new(
        Mode::of(a.common.quiet || a.common.json, a.common.progress),
        if reps > 1 { "replications" } else { "simulating" },
    ));
    let opts = RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: duration_arg(a.common.duration.as_ref())?,
        replication: 0,
        record_partitions: !a.no_partitions,
        stop: Some(stop.clone()),
        give_up: None,
        progress: Some(bar.clone()),
    };
    let work = if reps > 1 { guard::Work::replications(reps) } else { guard::Work::ONE };
    let work = if a.no_charts { work.without_charts() } else { work };
    let estimate = if a.force { guard::estimate_work(&sc, &opts, work) } else { guard::check_work(&sc, &opts, work)? };
    // Fail on an unwritable or busy folder before spending time on the run.
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, ""))?;
    let started = Instant::now();
    let (result, replications) = if reps > 1 {
        let (r, hs) = study::replicate(&sc, reps, &opts, &catalog);
        (r, Some(Replications::new(hs)))
    } else {
        (simulate(&sc, &opts), None)
    };
    let elapsed = started.elapsed();
    bar.finish();
    stopped(stop)?;
    let mut report = RunReport::new(&sc, &result, &catalog, !a.no_charts);
    report.summary.judge(max_throttle);
    let mut artifacts = report.artifacts()?;
    if let Some(r) = &replications {
        artifacts.extend(r.artifacts()?);
    }
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "summary.json");
    } else if !a.common.quiet {
        if let Some(r) = &replications {
            print!("{}", r.text());
        }
        print!("{}", colour_verdict(report.text(), &report.summary.verdict.headline, report.summary.verdict.held));
        println!("simulated in {:.2} s, {}; wrote {}", elapsed.as_secs_f64(), memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim compare`.
pub(super) fn compare(a: &CompareArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    if !(20.0..=90.0).contains(&a.target) {
        return Err(CliError::Argument(format!("--target: between 20 and 90 percent, not {}", a.target)));
    }
    if a.reserved_term != 1 && a.reserved_term != 3 {
        return Err(CliError::Argument(format!("--reserved-term: 1 or 3 years, not {}", a.reserved_term)));
    }
    if !(0.0..=100.0).contains(&a.reserved_percentile) {
        return Err(CliError::Argument(format!("--reserved-percentile: 0 to 100, not {}", a.reserved_percentile)));
    }
    let run = RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        ..RunOptions::default()
    };
    let o = CompareOptions {
        run,
        max_throttle: share_arg(&a.max_throttle)?,
        reserved_percentile: a.reserved_percentile,
        reserved_years: a.reserved_term,
        target: a.target / 100.0,
    };
    let reps = replications_arg(a.replications)?;
    let work = guard::Work::compare(reps);
    let estimate = if a.force { guard::estimate_work(&sc, &o.run, work) } else { guard::check_work(&sc, &o.run, work)? };
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-compare"))?;
    let cs = study::compare_replications(&sc, &catalog, &o, reps);
    stopped(stop)?;
    let c = &cs[0];
    let replicated = (reps > 1).then(|| ReplicatedComparison::of(&cs));
    let mut artifacts = c.artifacts()?;
    if let Some(rc) = &replicated {
        artifacts.extend(rc.artifacts()?);
    }
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "compare.json");
    } else if !a.common.quiet {
        print!("{}", c.text());
        if let Some(rc) = &replicated {
            print!("{}", rc.text());
        }
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim sweep`.
pub(super) fn sweep(a: &SweepArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    let text = read_text(&a.common.scenario)?;
    let sets = a.sets.iter().map(|s| study::parse_set(s)).collect::<Result<Vec<_>, _>>()?;
    let shard = a.shard.as_deref().map(study::parse_shard).transpose()?;
    let reps = replications_arg(a.replications)?;
    study::sweep::check_size(&sets, shard, reps)?;
    let prepared = study::prepare(&text, &a.common.scenario, &sets, &a.common.load_options())?;
    let bar = Arc::new(Bar::new(Mode::of(a.common.quiet || a.common.json, a.common.progress), "sweep"));
    let base = RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        progress: Some(bar.clone()),
        ..RunOptions::default()
    };
    let runs = prepared.points_of(shard).len() as u64 * reps;
    let work = guard::Work::sweep(prepared.scenarios.len() as u64, runs);
    let mut estimate = guard::estimate_work(&sc, &base, work);
    for point in &prepared.scenarios {
        let e = if a.force { guard::estimate_work(point, &base, work) } else { guard::check_work(point, &base, work)? };
        if e.memory_bytes > estimate.memory_bytes {
            estimate = e;
        }
    }
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-sweep"))?;
    let catalog = catalog_arg(None, &sc)?.with_overrides(&sc.pricing.overrides);
    let result = study::sweep::run(&prepared, &sc.name, a.common.seed.unwrap_or(sc.seed), reps, shard, &base, &catalog);
    bar.finish();
    stopped(stop)?;
    let artifacts = result.artifacts()?;
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "sweep.json");
    } else if !a.common.quiet {
        print!("{}", result.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim merge`.
pub(super) fn merge(dirs: &[PathBuf], out: Option<&PathBuf>, allow_partial: bool, as_json: bool) -> Result<(), CliError> {
    let out = out.cloned().unwrap_or_else(|| dirs[0].parent().unwrap_or(Path::new(".")).join("merged"));
    if dirs[0].join("recommend-tables.json").is_file() {
        let mut parts = Vec::new();
        for d in dirs {
            let p = d.join("recommend-tables.json");
            let text = std::fs::read_to_string(&p).map_err(|e| CliError::Argument(format!("{}: {e}", p.display())))?;
            parts.push(
                serde_json::from_str(&text)
                    .map_err(|e| CliError::Argument(format!("{}: not a recommend-tables.json of ddbsim: {e}", p.display())))?,
            );
        }
        let merged = crate::report::recommend::Tables::merge(parts, allow_partial).map_err(CliError::Argument)?;
        let artifacts = merged.artifacts()?;
        let written = Output::claim(&out)?.write_all(&artifacts)?;
        if as_json {
            print_json(&artifacts, "recommend-tables.json");
        } else {
            println!("merged {} rows of {} tables; wrote {}", merged.rows.len(), merged.tables, wrote(&written));
        }
        return Ok(());
    }
    let mut parts = Vec::new();
    for d in dirs {
        let p = d.join("sweep.json");
        let text = std::fs::read_to_string(&p).map_err(|e| CliError::Argument(format!("{}: {e}", p.display())))?;
        let part: study::SweepOutput =
            serde_json::from_str(&text).map_err(|e| CliError::Argument(format!("{}: not a sweep.json of ddbsim: {e}", p.display())))?;
        parts.push(part);
    }
    let merged = study::merge(parts, allow_partial)?;
    let artifacts = merged.data();
    let written = Output::claim(&out)?.write_all(&artifacts)?;
    if as_json {
        print_json(&artifacts, "sweep.json");
    } else {
        println!("merged {} points of {}; wrote {}", merged.points.len(), merged.total_points, wrote(&written));
    }
    Ok(())
}

/// `ddbsim shards`.
pub(super) fn shards(a: &ShardsArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    if a.by != "random" && a.by != "hash" {
        return Err(CliError::Argument(format!("--by: \"random\" or \"hash\", not \"{}\"", a.by)));
    }
    if a.max == 0 || a.max > 10_000 {
        return Err(CliError::Argument(format!("--max: 1 to 10000, not {}", a.max)));
    }
    if ![50.0, 95.0, 99.0].contains(&a.percentile) {
        return Err(CliError::Argument(format!("--percentile: 50, 95 or 99, not {}", a.percentile)));
    }
    let o = ShardsOptions {
        key: a.key.clone(),
        max: a.max,
        random: a.by == "random",
        replications: replications_arg(a.replications)?,
        percentile: a.percentile,
        max_throttle: share_arg(&a.max_throttle)?,
    };
    let text = read_text(&a.common.scenario)?;
    let bar = Arc::new(Bar::new(Mode::of(a.common.quiet || a.common.json, a.common.progress), "shards"));
    let base = RunOptions {
        seed: a.common.seed,
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        progress: Some(bar.clone()),
        ..RunOptions::default()
    };
    let counts = study::shard_counts(o.max).len() as u64;
    let work = guard::Work::sweep(counts, counts * o.replications);
    let estimate = if a.force { guard::estimate_work(&sc, &base, work) } else { guard::check_work(&sc, &base, work)? };
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-shards"))?;
    let catalog = catalog_arg(None, &sc)?.with_overrides(&sc.pricing.overrides);
    let result = study::explore(&sc, &text, &a.common.scenario, &o, &base, &catalog, &a.common.load_options())?;
    bar.finish();
    stopped(stop)?;
    let artifacts = result.artifacts()?;
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "shards.json");
    } else if !a.common.quiet {
        print!("{}", result.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim plot`.
pub(super) fn plot(dir: &Path, as_json: bool) -> Result<(), CliError> {
    let out = Output::claim(dir)?;
    let report = RunReport::read(dir)?;
    let written = out.update(&report.chart_artifacts()?)?;
    if as_json {
        let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        let doc = serde_json::json!({ "dir": dir.display().to_string(), "written": files });
        println!("{}", serde_json::to_string_pretty(&doc).expect("plain data"));
    } else {
        println!("wrote {}", wrote(&written));
    }
    Ok(())
}

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
    let text = include_str!("../../scenarios/headline.toml").replace("read = 3000000", &format!("read = {rcu}"));
    Ok(scenario::parse_str(&text, Path::new("scenarios/headline.toml"))?)
}

/// `ddbsim bench`: the figures of README's performance table, measured in one run.
pub(super) fn bench(a: &super::args::BenchArgs, stop: &StopToken) -> Result<(), CliError> {
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
    if a.json {
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
    } else if a.markdown {
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
        for (d, few, many, growth) in &growths {
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
            Some(b) => println!("| peak memory, the {fast_d} fast run with its outputs and charts | {:.0} MB | ≤ 1 GiB |", b as f64 / 1e6),
            None => println!("| peak memory | not measured (no /proc/self/status) | ≤ 1 GiB |"),
        }
    }
    Ok(())
}

/// `ddbsim validate`.
pub(super) fn validate(paths: &[PathBuf], allow_outside: bool, as_json: bool) -> Result<(), CliError> {
    let mut bad = 0;
    let mut files = Vec::new();
    for p in paths {
        match scenario::load_with(p, &scenario::LoadOptions { allow_outside }) {
            Ok(sc) => {
                files.push(serde_json::json!({ "path": p.display().to_string(), "valid": true, "problems": [] }));
                if !as_json {
                    println!(
                        "{}: ok ({} patterns, {} key spaces, {} GSIs, {} LSIs)",
                        p.display(),
                        sc.patterns.len(),
                        sc.key_spaces.len(),
                        sc.gsis.len(),
                        sc.lsis.len()
                    );
                }
            }
            Err(e) => {
                bad += 1;
                let text = e.to_string();
                let problems: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                files.push(serde_json::json!({ "path": p.display().to_string(), "valid": false, "problems": problems }));
                if !as_json {
                    eprintln!("{e}");
                }
            }
        }
    }
    if as_json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&serde_json::json!({ "files": files }))).expect("JSON is UTF-8"));
    }
    if bad > 0 {
        return Err(CliError::Argument(format!("{bad} of {} scenario files have problems", paths.len())));
    }
    Ok(())
}

/// `ddbsim recommend`.
pub(super) fn recommend(a: &super::args::RecommendArgs, stop: &StopToken) -> Result<(), CliError> {
    let mut files = Vec::new();
    for p in &a.scenarios {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| CliError::Argument(format!("{}: {e}", p.display())))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "toml"))
                .collect();
            if found.is_empty() {
                return Err(CliError::Argument(format!("{}: no scenario (.toml) in this folder", p.display())));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    let many = files.len() > 1 || a.scenarios.iter().any(|p| p.is_dir());
    if a.shard.is_some() && !many {
        return Err(CliError::Argument("--shard: shares tables among runs; give several scenarios or a folder".into()));
    }
    let common = |scenario: PathBuf| super::args::Common { scenario, shared: a.shared.clone() };
    let o = recommend_options(a, stop)?;
    if many {
        return recommend_tables(a, &files.into_iter().map(common).collect::<Vec<_>>(), &o, stop);
    }
    let c = &common(files.remove(0));
    let sc = c.load()?;
    let catalog = catalog_arg(None, &sc)?;
    let as_json = a.shared.json;
    let force = a.force;
    // About 50 simulations: as a compare of 10 replications (5 runs each).
    let work = guard::Work::compare(10);
    let estimate = if force { guard::estimate_work(&sc, &o.run, work) } else { guard::check_work(&sc, &o.run, work)? };
    let out = Output::claim(&out_dir(c.out.as_ref(), &sc, "-recommend"))?;
    let bar = Arc::new(Bar::new(Mode::of(c.quiet || as_json, c.progress), "recommend"));
    let o = study::recommend::RecommendOptions { run: RunOptions { progress: Some(bar.clone()), ..o.run.clone() }, ..o.clone() };
    let rec = study::recommend::recommend(&sc, &catalog, &o);
    bar.finish();
    stopped(stop)?;
    let written = out.write_all(&rec.artifacts()?)?;
    if as_json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&rec)).expect("JSON is UTF-8"));
    } else if !c.quiet {
        print!("{}", rec.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim recommend` on many tables: each table's own settings and its recommendation, a row
/// per table and dimension, tables in parallel; `--shard I/N` runs tables `I-1, I-1+N, …`.
fn recommend_tables(
    a: &super::args::RecommendArgs,
    tables: &[super::args::Common],
    o: &study::recommend::RecommendOptions,
    stop: &StopToken,
) -> Result<(), CliError> {
    let shard = a.shard.as_deref().map(study::parse_shard).transpose()?;
    let mine: Vec<usize> = (0..tables.len()).filter(|i| shard.is_none_or(|(k, n)| i % n == k - 1)).collect();
    let mut loaded = Vec::new();
    for &i in &mine {
        let sc = tables[i].load()?;
        let catalog = catalog_arg(None, &sc)?;
        let work = guard::Work::compare(10);
        if !a.force {
            guard::check_work(&sc, &o.run, work)?;
        }
        loaded.push((i, sc, catalog));
    }
    let out = Output::claim(&a.shared.out.clone().unwrap_or_else(|| PathBuf::from("output").join("recommend-tables")))?;
    let per = study::par_indexed(loaded.len() as u64, |j| {
        let (i, sc, catalog) = &loaded[j as usize];
        study::recommend::table_rows(*i, &tables[*i].scenario.display().to_string(), sc, catalog, o).1
    });
    stopped(stop)?;
    let result = crate::report::recommend::Tables {
        shard: a.shard.clone(),
        tables: tables.len(),
        max_throttle: o.max_throttle,
        rows: per.into_iter().flatten().collect(),
    };
    let written = out.write_all(&result.artifacts()?)?;
    if a.shared.json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&result)).expect("JSON is UTF-8"));
    } else if !a.shared.quiet {
        print!("{}", result.text());
        println!("wrote {}", wrote(&written));
    }
    Ok(())
}

/// The library options of `ddbsim recommend`'s arguments.
fn recommend_options(a: &super::args::RecommendArgs, stop: &StopToken) -> Result<study::recommend::RecommendOptions, CliError> {
    let years = a.reserved_term;
    if years != 1 && years != 3 {
        return Err(CliError::Argument(format!("--reserved-term: 1 or 3 years, not {years}")));
    }
    if a.budget.is_some_and(|b| b < 2) {
        return Err(CliError::Argument("--budget: at least 2 simulations (the on-demand run and one candidate)".into()));
    }
    let modes = a.modes();
    if modes == (study::recommend::Modes { on_demand: false, provisioned: false, autoscaling: false, reserved: false }) {
        return Err(CliError::Argument("--modes: name at least one of on-demand, provisioned, autoscaling, reserved".into()));
    }
    let run = RunOptions {
        seed: a.shared.seed,
        duration: duration_arg(a.shared.duration.as_ref())?,
        stop: Some(stop.clone()),
        ..RunOptions::default()
    };
    Ok(study::recommend::RecommendOptions {
        run,
        max_throttle: share_arg(&a.max_throttle)?,
        reserved_years: years,
        give_up: !a.simulate_all,
        modes,
        budget: a.budget,
        screen: !a.simulate_all,
    })
}

/// `ddbsim import`: the scenario to stdout, or to `out` with its trace files beside it. The
/// files are staged in a temporary folder beside `out`, the scenario is validated there, and
/// only then are they moved into place (a failed import leaves nothing behind).
pub(super) fn import(
    sources: &[PathBuf],
    table: Option<&str>,
    metrics: &[PathBuf],
    out: Option<&Path>,
    as_json: bool,
) -> Result<(), CliError> {
    let stem = out.and_then(|o| o.file_stem()).map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "imported".into());
    let imported = crate::import::import(sources, metrics, table, &stem)?;
    for n in &imported.notes {
        eprintln!("note: {n}");
    }
    let Some(out) = out else {
        if !imported.traces.is_empty() {
            return Err(CliError::Argument("the metrics become trace files written beside the scenario: give --out FILE.toml".into()));
        }
        crate::scenario::parse_str(&imported.scenario, Path::new(&format!("{stem}.toml")))?;
        if as_json {
            print_import_json(&imported, None);
        } else {
            print!("{}", imported.scenario);
        }
        return Ok(());
    };
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let fail = |path: &Path, e: std::io::Error| CliError::Output(crate::OutputError { path: path.to_path_buf(), source: e });
    if !dir.is_dir() {
        return Err(fail(&dir, std::io::Error::new(std::io::ErrorKind::NotFound, "the folder does not exist")));
    }
    let staging = tempfile::Builder::new().prefix(".ddbsim-import-").tempdir_in(&dir).map_err(|e| fail(&dir, e))?;
    let name = out.file_name().map_or_else(|| "imported.toml".into(), |n| n.to_string_lossy().into_owned());
    let mut files: Vec<(String, &str)> = imported.traces.iter().map(|(n, t)| (n.clone(), t.as_str())).collect();
    files.push((name.clone(), &imported.scenario));
    for (n, text) in &files {
        let p = staging.path().join(n);
        std::fs::write(&p, text).map_err(|e| fail(&p, e))?;
    }
    // The scenario must load as written, traces included.
    crate::scenario::load(&staging.path().join(&name))?;
    for (n, _) in &files {
        let target = dir.join(n);
        std::fs::rename(staging.path().join(n), &target).map_err(|e| fail(&target, e))?;
    }
    if as_json {
        print_import_json(&imported, Some(out));
    } else {
        println!("wrote {} and {} trace file{}", out.display(), imported.traces.len(), if imported.traces.len() == 1 { "" } else { "s" });
    }
    Ok(())
}

/// `import --json`: the scenario's text, where it was written, its trace files and the notes.
fn print_import_json(imported: &crate::import::Imported, out: Option<&Path>) {
    let doc = serde_json::json!({
        "scenario": imported.scenario,
        "path": out.map(|p| p.display().to_string()),
        "traces": imported.traces.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        "notes": imported.notes,
    });
    println!("{}", serde_json::to_string_pretty(&doc).expect("plain data"));
}

/// `ddbsim schema`.
pub(super) fn schema() -> Result<(), CliError> {
    let schema = schemars::schema_for!(scenario::raw::RawScenario);
    println!("{}", serde_json::to_string_pretty(&schema).expect("a schema serialises"));
    Ok(())
}
