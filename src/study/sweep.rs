//! Sweeps: any scenario key set to a list or range of values, the Cartesian product of several
//! keys, each point with replications; `--shard I/N` runs a share of the points and `merge`
//! puts the shares back together, byte for byte what one run writes.
//!
//! A point is made by setting keys in the scenario's TOML document and validating the result,
//! so every key of the format can be swept and every point gets the validator's checks.

use super::runner::{run_jobs, Headline, HeadlineStats};
use crate::cost::Catalog;
use crate::engine::RunOptions;
use crate::scenario::{parse_str_with, LoadOptions, Scenario, Window};
use serde::{Deserialize, Serialize};
use std::path::Path;
use toml::Value;

/// Most values one `--set` may take.
pub const MAX_VALUES: usize = 10_000;
/// Most points one invocation builds and runs: a whole sweep, or one share of a sharded one.
pub const MAX_POINTS: usize = 10_000;
/// Most points of a whole sweep (the product of the axes), run in shares of at most
/// [`MAX_POINTS`] each: 100 shares of 10,000.
pub const MAX_SWEEP_POINTS: usize = 1_000_000;
/// Most runs one invocation makes (its points times the replications).
pub const MAX_RUNS: u64 = 100_000;

/// A sweep or merge that cannot go on: bad input. Fatal.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SweepError(pub String);

/// One `--set PATH=VALUES`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetAxis {
    /// Dotted key path; array entries by name (`pattern.feed.rate.constant`) or index.
    pub path: String,
    /// The values, as TOML literals.
    pub values: Vec<String>,
}

fn literal(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn scalar(text: &str) -> Value {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        Value::Integer(i)
    } else if let Ok(f) = t.parse::<f64>() {
        Value::Float(f)
    } else if t == "true" || t == "false" {
        Value::Boolean(t == "true")
    } else {
        Value::String(t.trim_matches('"').to_string())
    }
}

/// Parses `PATH=VALUES`: `1,2,4`, `50..90:10` (step), `100..5000:x2` (factor), or words.
///
/// # Errors
/// A message naming the argument: no `=`, an empty path, an empty or endless range.
pub fn parse_set(arg: &str) -> Result<(String, Vec<Value>), SweepError> {
    let bad = |m: String| SweepError(format!("--set {arg}: {m}"));
    let (path, values) = arg.split_once('=').ok_or_else(|| bad("expected PATH=VALUES".into()))?;
    let path = path.trim();
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(bad("the key path is empty or has an empty part".into()));
    }
    let values = values.trim();
    let out: Vec<Value> =
        if let Some(((a, b), step)) = values.split_once("..").and_then(|(a, rest)| rest.split_once(':').map(|(b, s)| ((a, b), s))) {
            let (a, b): (f64, f64) = (
                a.trim().parse().map_err(|_| bad(format!("\"{a}\" is not a number")))?,
                b.trim().parse().map_err(|_| bad(format!("\"{b}\" is not a number")))?,
            );
            let ints = [a, b].iter().all(|x| x.fract() == 0.0);
            let mut v = Vec::new();
            if let Some(f) = step.trim().strip_prefix('x') {
                let f: f64 = f.parse().map_err(|_| bad(format!("\"x{f}\" is not a factor")))?;
                if !(f > 1.0 && f.is_finite()) || a <= 0.0 {
                    return Err(bad("a geometric range needs a factor above 1 and a start above 0".into()));
                }
                let count = ((b / a).ln() / f.ln() + 1e-9).floor() + 1.0;
                if count > MAX_VALUES as f64 {
                    return Err(bad(format!("{count:.0} values: at most {MAX_VALUES}")));
                }
                let mut x = a;
                while x <= b * (1.0 + 1e-12) {
                    v.push(x);
                    x *= f;
                }
            } else {
                let s: f64 = step.trim().parse().map_err(|_| bad(format!("\"{step}\" is not a step")))?;
                if !(s > 0.0 && s.is_finite()) {
                    return Err(bad("the step must be above 0".into()));
                }
                let n = ((b - a) / s + 1e-9).floor();
                if n + 1.0 > MAX_VALUES as f64 {
                    return Err(bad(format!("{:.0} values: at most {MAX_VALUES}", n + 1.0)));
                }
                if n >= 0.0 {
                    for k in 0..=(n as u64) {
                        v.push(a + k as f64 * s);
                    }
                }
            }
            if v.is_empty() {
                return Err(bad(format!("the range {a}..{b} is empty")));
            }
            v.into_iter().map(|x| if ints && x.fract() == 0.0 { Value::Integer(x as i64) } else { Value::Float(x) }).collect()
        } else {
            let list: Vec<&str> = values.split(',').filter(|s| !s.trim().is_empty()).collect();
            if list.len() > MAX_VALUES {
                return Err(bad(format!("{} values: at most {MAX_VALUES}", list.len())));
            }
            list.into_iter().map(scalar).collect()
        };
    if out.is_empty() {
        return Err(bad("no values".into()));
    }
    Ok((path.to_string(), out))
}

/// Sets `path` in a TOML document to `value`, creating missing tables; array entries are
/// chosen by their `name` (or a number).
///
/// # Errors
/// A message when the path goes through a value that is not a table, or names no entry.
pub fn set_path(doc: &mut toml::Table, path: &str, value: Value) -> Result<(), SweepError> {
    let segs: Vec<&str> = path.split('.').collect();
    let mut cur: &mut toml::Table = doc;
    let mut i = 0;
    while i < segs.len() - 1 {
        let seg = segs[i];
        let entry = cur.entry(seg.to_string()).or_insert_with(|| Value::Table(toml::Table::new()));
        cur = match entry {
            Value::Table(t) => t,
            Value::Array(a) => {
                let sel = segs[i + 1];
                i += 1;
                let found = match sel.parse::<usize>() {
                    Ok(n) => a.get_mut(n),
                    Err(_) => a.iter_mut().find(|e| e.get("name").and_then(Value::as_str) == Some(sel)),
                };
                match found {
                    Some(Value::Table(t)) => t,
                    _ => return Err(SweepError(format!("{path}: no [[{seg}]] entry named or numbered \"{sel}\""))),
                }
            }
            _ => return Err(SweepError(format!("{path}: \"{seg}\" is a value, not a table"))),
        };
        i += 1;
    }
    if i != segs.len() - 1 {
        return Err(SweepError(format!("{path}: the path ends at an array entry; name a key inside it")));
    }
    cur.insert(segs[segs.len() - 1].to_string(), value);
    Ok(())
}

/// A sweep point: its index and parameter values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PointOut {
    /// Index in the Cartesian product (first `--set` varies slowest).
    pub index: usize,
    /// `(path, value)` pairs.
    pub params: Vec<(String, String)>,
    /// One headline per replication.
    pub runs: Vec<Headline>,
    /// Statistics over the replications.
    pub stats: HeadlineStats,
}

/// Everything a sweep (or a share of one) produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SweepOutput {
    /// Scenario name.
    pub scenario: String,
    /// Master seed.
    pub seed: u64,
    /// Replications per point.
    pub replications: u64,
    /// The axes.
    pub sets: Vec<SetAxis>,
    /// Points in the whole sweep.
    pub total_points: usize,
    /// Simulated seconds of every run.
    pub duration_s: u64,
    /// Fidelity of every run.
    pub fidelity: String,
    /// FNV-1a hash of the scenario file's text: shares of one sweep ran the same file.
    pub scenario_hash: String,
    /// `I/N` when this is one share of a sharded sweep.
    pub shard: Option<String>,
    /// What the window stands for (`[scenario] window`): in a sustained one, a point that
    /// spent burst credit or GSI absorption on net is not the chart's pick.
    #[serde(default)]
    pub window: Window,
    /// The points run, by index.
    pub points: Vec<PointOut>,
}

/// A prepared sweep: validated scenarios for the points of one share (every point when the
/// sweep is not sharded).
pub struct Sweep {
    /// The axes.
    pub sets: Vec<SetAxis>,
    /// Hash of the scenario text the points were made from.
    pub scenario_hash: String,
    /// Points in the whole sweep.
    pub total: usize,
    /// The index in the whole sweep of each point built.
    pub indices: Vec<usize>,
    /// Scenario of each point built.
    pub scenarios: Vec<Scenario>,
    /// Parameters of each point built.
    pub params: Vec<Vec<(String, String)>>,
}

/// The points of share `shard` of a sweep of `total` (`(I, N)`: points `I-1, I-1+N, …`; all
/// when `None`).
#[must_use]
pub fn points_of(total: usize, shard: Option<(usize, usize)>) -> Vec<usize> {
    match shard {
        None => (0..total).collect(),
        Some((k, n)) => (k - 1..total).step_by(n).collect(),
    }
}

/// Checks, before any point is built, that the sweep over `sets` stays within
/// [`MAX_SWEEP_POINTS`], that share `shard` of it (the whole sweep when `None`) stays within
/// [`MAX_POINTS`], and that the share with `replications` each stays within [`MAX_RUNS`].
///
/// # Errors
/// [`SweepError`] saying how many points or runs that is, and how many shares would do.
pub fn check_size(sets: &[(String, Vec<Value>)], shard: Option<(usize, usize)>, replications: u64) -> Result<(), SweepError> {
    let total = sets.iter().try_fold(1usize, |acc, s| acc.checked_mul(s.1.len())).unwrap_or(usize::MAX);
    if total > MAX_SWEEP_POINTS {
        return Err(SweepError(format!(
            "{total} points: at most {MAX_SWEEP_POINTS} in a sweep, even sharded (the product of every --set's values)"
        )));
    }
    let mine = shard.map_or(total, |(k, n)| total / n + usize::from(k - 1 < total % n));
    if mine > MAX_POINTS {
        let shares = total.div_ceil(MAX_POINTS);
        let what = shard.map_or_else(|| "the sweep".to_string(), |(k, n)| format!("share {k}/{n}"));
        return Err(SweepError(format!(
            "{mine} points in {what}: at most {MAX_POINTS} in one invocation; run it in at least {shares} shares (--shard I/{shares})"
        )));
    }
    let runs = (mine as u64).saturating_mul(replications);
    if runs > MAX_RUNS {
        return Err(SweepError(format!(
            "{runs} runs (points x replications): at most {MAX_RUNS} in one invocation; split the sweep with --shard I/N"
        )));
    }
    Ok(())
}

/// Builds the points of share `shard` of the Cartesian product (every point when `None`) and
/// validates their scenarios.
///
/// # Errors
/// [`SweepError`] naming the point, the key path and the problem (a bad path, a value of the
/// wrong type, a value the scenario rules reject).
pub fn prepare(
    text: &str,
    path: &Path,
    sets: &[(String, Vec<Value>)],
    options: &LoadOptions,
    shard: Option<(usize, usize)>,
) -> Result<Sweep, SweepError> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| SweepError(format!("{}: {}", path.display(), e.message())))?;
    check_size(sets, shard, 1)?;
    let total: usize = sets.iter().map(|s| s.1.len()).product();
    let indices = points_of(total, shard);
    let mut scenarios = Vec::with_capacity(indices.len());
    let mut params = Vec::with_capacity(indices.len());
    for &index in &indices {
        let mut rem = index;
        let mut choice = vec![0; sets.len()];
        for (k, s) in sets.iter().enumerate().rev() {
            choice[k] = rem % s.1.len();
            rem /= s.1.len();
        }
        let mut d = doc.clone();
        let mut ps = Vec::new();
        for (k, (p, vals)) in sets.iter().enumerate() {
            let v = vals[choice[k]].clone();
            ps.push((p.clone(), literal(&v)));
            set_path(&mut d, p, v)?;
        }
        let label = ps.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>().join(" ");
        let new_text = toml::to_string(&d).map_err(|e| SweepError(format!("point {index} ({label}): {e}")))?;
        let sc = parse_str_with(&new_text, path, options).map_err(|e| {
            let msg = match &e {
                crate::scenario::ScenarioError::Invalid { problems, .. } => {
                    problems.iter().map(|p| format!("{}: {}", p.key, p.message)).collect::<Vec<_>>().join("; ")
                }
                other => other.to_string(),
            };
            SweepError(format!("{}: point {index} ({label}): {msg}", path.display()))
        })?;
        scenarios.push(sc);
        params.push(ps);
    }
    Ok(Sweep {
        sets: sets.iter().map(|(p, v)| SetAxis { path: p.clone(), values: v.iter().map(literal).collect() }).collect(),
        scenario_hash: fnv1a(text),
        total,
        indices,
        scenarios,
        params,
    })
}

/// Parses `I/N` (1-based).
///
/// # Errors
/// When it is not two whole numbers with 1 <= I <= N.
pub fn parse_shard(s: &str) -> Result<(usize, usize), SweepError> {
    let bad = || SweepError(format!("--shard {s}: expected I/N with 1 <= I <= N, e.g. 2/4"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Runs the points `sweep` was prepared with (share `shard` of the sweep, all when `None`).
#[must_use]
pub fn run(
    sweep: &Sweep,
    name: &str,
    seed: u64,
    replications: u64,
    shard: Option<(usize, usize)>,
    base: &RunOptions,
    catalog: &Catalog,
) -> SweepOutput {
    let jobs: Vec<(usize, u64)> = (0..sweep.scenarios.len()).flat_map(|k| (0..replications).map(move |r| (k, r))).collect();
    let hs = run_jobs(&sweep.scenarios, &jobs, base, catalog);
    let points = sweep
        .indices
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let runs = hs[k * replications as usize..(k + 1) * replications as usize].to_vec();
            PointOut { index: i, params: sweep.params[k].clone(), stats: HeadlineStats::of(&runs), runs }
        })
        .collect();
    let first = sweep.scenarios.first();
    SweepOutput {
        scenario: name.to_string(),
        seed,
        replications,
        sets: sweep.sets.clone(),
        total_points: sweep.total,
        duration_s: base.duration.or(first.map(|s| s.duration)).map_or(0, |d| d.as_secs()),
        fidelity: base.fidelity.or(first.map(|s| s.fidelity)).map_or_else(String::new, |f| f.to_string()),
        scenario_hash: sweep.scenario_hash.clone(),
        shard: shard.map(|(i, n)| format!("{i}/{n}")),
        window: first.map_or(Window::Sustained, |s| s.window),
        points,
    }
}

/// FNV-1a of `text`, as 16 hex digits.
fn fnv1a(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{h:016x}")
}

/// The parameters of point `index` of a sweep over `sets` (the first axis varies slowest).
fn params_of(sets: &[SetAxis], mut index: usize) -> Vec<(String, String)> {
    let mut out = vec![(String::new(), String::new()); sets.len()];
    for (k, s) in sets.iter().enumerate().rev() {
        let n = s.values.len().max(1);
        out[k] = (s.path.clone(), s.values.get(index % n).cloned().unwrap_or_default());
        index /= n;
    }
    out
}

/// Checks a part's own figures before anything is allocated from them: its `total_points`
/// is the product of its axes' values and within [`MAX_SWEEP_POINTS`], it holds at most
/// [`MAX_POINTS`], its replications are within [`MAX_RUNS`], and its shard label a valid `I/N`.
fn check_part(p: &SweepOutput) -> Result<(), SweepError> {
    let product = p.sets.iter().try_fold(1usize, |acc, s| acc.checked_mul(s.values.len()));
    if p.total_points > MAX_SWEEP_POINTS || product != Some(p.total_points) {
        return Err(SweepError(format!(
            "a part says the sweep has {} points, but its axes make {} (at most {MAX_SWEEP_POINTS}): a part was edited",
            p.total_points,
            product.map_or_else(|| "too many".to_string(), |n| n.to_string())
        )));
    }
    if p.replications == 0 || p.replications > MAX_RUNS || p.points.len() > p.total_points.min(MAX_POINTS) {
        return Err(SweepError(format!(
            "a part holds {} points of {} with {} replications each: a part was edited",
            p.points.len(),
            p.total_points,
            p.replications
        )));
    }
    if let Some(label) = p.shard.as_deref().filter(|l| !l.starts_with("partial")) {
        parse_shard(label)
            .map_err(|_| SweepError(format!("a part's shard is \"{label}\", not I/N with 1 <= I <= N: a part was edited")))?;
    }
    Ok(())
}

/// Combines shares of one sweep. Every part must come from the same scenario text, seed,
/// replications, axes, duration and fidelity; every point must be where its index says; a
/// missing point is an error unless `allow_partial` (the result then says it is partial).
///
/// # Errors
/// When the parts are of different sweeps, a point is tampered with or in two parts, or points
/// are missing.
pub fn merge(parts: Vec<SweepOutput>, allow_partial: bool) -> Result<SweepOutput, SweepError> {
    for p in &parts {
        check_part(p)?;
    }
    let labels: Vec<Option<(usize, usize)>> = parts.iter().map(|p| p.shard.as_deref().and_then(|l| parse_shard(l).ok())).collect();
    let mut it = parts.into_iter();
    let mut out = it.next().ok_or_else(|| SweepError("merge needs at least one folder".into()))?;
    for p in it {
        if let Some(field) = differs(&out, &p) {
            return Err(SweepError(format!("the parts are not shares of one sweep: {field}")));
        }
        out.points.extend(p.points);
    }
    out.points.sort_by_key(|p| p.index);
    if let Some(w) = out.points.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(SweepError(format!("point {} appears in two parts", w[0].index)));
    }
    for p in &out.points {
        if p.index >= out.total_points || p.params != params_of(&out.sets, p.index) || p.runs.len() as u64 != out.replications {
            return Err(SweepError(format!("point {} does not match the sweep's axes: a part was edited", p.index)));
        }
    }
    let missing: Vec<usize> = {
        let have: std::collections::BTreeSet<usize> = out.points.iter().map(|p| p.index).collect();
        (0..out.total_points).filter(|i| !have.contains(i)).collect()
    };
    if !missing.is_empty() && !allow_partial {
        let shown: Vec<String> = missing.iter().take(10).map(ToString::to_string).collect();
        return Err(SweepError(format!(
            "{} of {} points are missing ({}{}){}: merge every share, or pass --allow-partial",
            missing.len(),
            out.total_points,
            shown.join(", "),
            if missing.len() > 10 { ", …" } else { "" },
            missing_shares(&labels)
        )));
    }
    out.shard = missing
        .is_empty()
        .then_some(())
        .map_or_else(|| Some(format!("partial: {} of {} points", out.points.len(), out.total_points)), |()| None);
    Ok(out)
}

/// The first field in which part `b` is not a share of the sweep `a` is, with both values.
fn differs(a: &SweepOutput, b: &SweepOutput) -> Option<String> {
    let fields: [(&str, String, String); 8] = [
        ("scenario", a.scenario.clone(), b.scenario.clone()),
        ("scenario text (hash)", a.scenario_hash.clone(), b.scenario_hash.clone()),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("replications", a.replications.to_string(), b.replications.to_string()),
        ("duration", format!("{} s", a.duration_s), format!("{} s", b.duration_s)),
        ("fidelity", a.fidelity.clone(), b.fidelity.clone()),
        ("total points", a.total_points.to_string(), b.total_points.to_string()),
        ("axes", axes(&a.sets), axes(&b.sets)),
    ];
    fields.into_iter().find(|(_, x, y)| x != y).map(|(name, x, y)| format!("{name} {x} in one, {y} in another"))
}

fn axes(sets: &[SetAxis]) -> String {
    sets.iter().map(|s| format!("{}={}", s.path, s.values.join(","))).collect::<Vec<_>>().join(" ")
}

/// The shares no part is, when the parts are shares `I/N` of one `N`: " (share 4/4 not
/// given)".
fn missing_shares(labels: &[Option<(usize, usize)>]) -> String {
    let Some(Some((_, n))) = labels.first() else { return String::new() };
    if labels.iter().any(|l| l.is_none_or(|(_, m)| m != *n)) {
        return String::new();
    }
    let absent: Vec<String> =
        (1..=*n).filter(|k| !labels.iter().any(|l| l.is_some_and(|(i, _)| i == *k))).map(|k| format!("share {k}/{n}")).collect();
    if absent.is_empty() {
        return String::new();
    }
    let shown: Vec<&str> = absent.iter().take(10).map(String::as_str).collect();
    format!("; {} not given{}", shown.join(", "), if absent.len() > 10 { ", …" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists() {
        let v = |s: &str| parse_set(s).unwrap().1.iter().map(literal).collect::<Vec<_>>();
        assert_eq!(v("a.b=1,2,4"), vec!["1", "2", "4"]);
        assert_eq!(v("a.b=50..90:10"), vec!["50", "60", "70", "80", "90"]);
        assert_eq!(v("a.b=100..5000:x2"), vec!["100", "200", "400", "800", "1600", "3200"]);
        assert_eq!(v("a.b=0.5..1.0:0.25"), vec!["0.5", "0.75", "1.0"]);
        assert_eq!(v("a.policy=aws,instant"), vec!["aws", "instant"]);
        assert!(parse_set("a.b=10..5:1").unwrap_err().0.contains("empty"));
        assert!(parse_set("a.b").unwrap_err().0.contains("PATH=VALUES"));
        assert!(parse_set("a..b=1").is_err());
        assert!(parse_set("a.b=1..5:x1").is_err());
        assert!(parse_set("a.b=1..5:0").is_err());
    }

    #[test]
    fn shard_arguments() {
        assert_eq!(parse_shard("2/3").unwrap(), (2, 3));
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("x").is_err());
    }

    #[test]
    fn paths_through_named_array_entries() {
        let mut d: toml::Table = toml::from_str("[[pattern]]\nname = \"feed\"\nrate = { constant = 1 }\n").unwrap();
        set_path(&mut d, "pattern.feed.rate.constant", Value::Integer(5)).unwrap();
        assert_eq!(d["pattern"][0]["rate"]["constant"].as_integer(), Some(5));
        set_path(&mut d, "keys.user.shards.count", Value::Integer(8)).unwrap();
        assert_eq!(d["keys"]["user"]["shards"]["count"].as_integer(), Some(8));
        assert!(set_path(&mut d, "pattern.nope.rate", Value::Integer(1)).is_err());
        assert!(set_path(&mut d, "pattern.feed.name.x", Value::Integer(1)).is_err());
    }
}
