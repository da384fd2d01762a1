//! `ddbsim import aws:NAME | 'aws:*' | 'aws:PREFIX*'`: a table, or every table of a region,
//! fetched live with the AWS CLI (`aws`), with its standard configuration: the credentials
//! chain, `AWS_PROFILE`, `AWS_REGION` or `--region`, and `AWS_ENDPOINT_URL` for any endpoint.
//!
//! The live path only fetches: it runs the calls a user would run for the file path —
//! `describe-table`, `describe-continuous-backups`, `describe-time-to-live`, the scalable
//! targets, scaling policies and scheduled actions of the table and its GSIs, and
//! `get-metric-data` with the queries of `--print-queries` (the CLI pages it) — saves what
//! they print, and imports those files as the file path would: the same scenario and traces.

use super::super::CliError;
use super::bounded::Bounded;
use crate::engine::StopToken;
use crate::import::queries::queries;
use crate::import::Imported;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// `--region`: one of AWS's Regions, China's too; a typo is refused with the nearest.
fn region_arg(region: Option<&str>) -> Result<(), CliError> {
    let regions: Vec<&str> = crate::limits::AWS_REGIONS.iter().chain(&crate::limits::CHINA_REGIONS).copied().collect();
    if let Some(r) = region.filter(|r| !regions.contains(r)) {
        let near =
            regions.iter().min_by_key(|k| k.chars().zip(r.chars()).filter(|(a, b)| a != b).count() + k.len().abs_diff(r.len())).copied();
        return Err(CliError::Argument(format!(
            "--region {r}: not an AWS Region{}",
            near.map_or(String::new(), |n| format!(" (did you mean {n}?)"))
        )));
    }
    Ok(())
}

/// `--end`: an RFC 3339 time as Unix seconds.
pub(in crate::cli) fn parse_end(end: Option<&str>) -> Result<Option<i64>, CliError> {
    end.map(|t| {
        crate::time::parse_rfc3339(t).ok_or_else(|| CliError::Argument(format!("--end {t}: not an RFC 3339 time (2026-12-01T00:00:00Z)")))
    })
    .transpose()
}

/// Does the command line name live sources?
pub(in crate::cli) fn is_live(sources: &[PathBuf]) -> bool {
    sources.iter().any(|s| s.to_string_lossy().starts_with("aws:"))
}

/// What went wrong in one call of the AWS CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::cli) enum Failure {
    /// No credentials in the chain.
    NoCredentials,
    /// The session token has expired.
    Expired,
    /// The credentials may not make this call.
    AccessDenied,
    /// The API throttled the call beyond the CLI's retries.
    Throttled,
    /// The table does not exist (in this Region).
    NotFound,
    /// The endpoint cannot be reached.
    Unreachable,
    /// Ctrl-C while the call ran.
    Interrupted,
    /// Anything else.
    Other,
}

/// The failure the AWS CLI's stderr reports.
pub(in crate::cli) fn classify(stderr: &str) -> Failure {
    let has = |s: &str| stderr.contains(s);
    if has("Unable to locate credentials") || has("NoCredentialsError") || has("could not be found") && has("credentials") {
        Failure::NoCredentials
    } else if has("ExpiredToken") || has("token included in the request is expired") || has("RequestExpired") {
        Failure::Expired
    } else if has("AccessDenied") || has("UnauthorizedOperation") || has("not authorized to perform") {
        Failure::AccessDenied
    } else if has("Throttling") || has("Rate exceeded") || has("LimitExceededException") || has("TooManyRequests") {
        Failure::Throttled
    } else if has("ResourceNotFoundException") {
        Failure::NotFound
    } else if has("Could not connect to the endpoint URL") || has("EndpointConnectionError") || has("Connect timeout") {
        Failure::Unreachable
    } else {
        Failure::Other
    }
}

/// What to do about a failure of `call`.
pub(in crate::cli) fn advice(call: &str, f: Failure, table: Option<&str>) -> String {
    match f {
        Failure::NoCredentials => format!("{call}: no AWS credentials: set AWS_PROFILE, or run `aws configure` / `aws sso login`, or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
        Failure::Expired => format!("{call}: the AWS session has expired: renew it (`aws sso login`, or new temporary credentials) and run again"),
        Failure::AccessDenied => format!("{call}: access denied: the credentials need this read-only action (README: Start from your own table gives the IAM policy)"),
        Failure::Throttled => format!("{call}: the API throttled the calls beyond the AWS CLI's retries: run again later, or raise retries with AWS_MAX_ATTEMPTS=10"),
        Failure::NotFound => format!("{call}: no table {} in this Region: check the name and --region (or AWS_REGION)", table.unwrap_or("")),
        Failure::Unreachable => format!("{call}: the endpoint cannot be reached: check --region (or AWS_REGION), AWS_ENDPOINT_URL and the network"),
        Failure::Interrupted => format!("{call}: interrupted"),
        Failure::Other => format!("{call}: the AWS CLI failed"),
    }
}

/// The AWS CLI with the options of this run.
struct Aws<'a> {
    /// `--region`, else `AWS_REGION`, else `AWS_DEFAULT_REGION`: passed to every call (the AWS
    /// CLI v1 reads only the last).
    region: Option<String>,
    /// Ctrl-C: the call under way is killed and the import ends with exit 2.
    stop: &'a StopToken,
}

/// The most of one call's output read: a get-metric-data of 63 days of five-minute data for
/// a table and 20 GSIs is about 60 MB; a larger answer is refused, not read.
const MAX_ANSWER_BYTES: u64 = 256 * 1024 * 1024;

/// How long one call may take (`DDBSIM_AWS_TIMEOUT`, seconds, overrides it).
const CALL_TIMEOUT: Duration = Duration::from_secs(300);

/// One failed call: what to say, and its kind (a region's import skips a table it may not read).
struct CallError {
    failure: Failure,
    message: String,
}

/// The last line of a call's stderr as a message quotes it: at most 300 characters, control
/// characters (terminal escapes among them) made spaces.
fn last_line(stderr: &str) -> String {
    crate::scenario::validate::shown(stderr.trim().lines().last().unwrap_or("").trim(), 300)
}

impl Aws<'_> {
    /// Runs `aws SERVICE OPERATION ARGS... --output json`, within [`MAX_ANSWER_BYTES`] and
    /// [`CALL_TIMEOUT`]; its stdout.
    fn call(&self, service: &str, op: &str, args: &[&str], table: Option<&str>) -> Result<String, CallError> {
        let mut cmd = Command::new("aws");
        cmd.args([service, op]).args(args).args(["--output", "json"]);
        if let Some(r) = &self.region {
            cmd.args(["--region", r]);
        }
        let name = format!("aws {service} {op}");
        let timeout = std::env::var("DDBSIM_AWS_TIMEOUT").ok().and_then(|t| t.parse().ok()).map_or(CALL_TIMEOUT, Duration::from_secs);
        let other = |message: String| CallError { failure: Failure::Other, message };
        let out = match super::bounded::run(cmd, MAX_ANSWER_BYTES, timeout, self.stop) {
            Ok(o) => o,
            Err(Bounded::Spawn(e)) => {
                return Err(other(format!(
                    "{name}: cannot run the AWS CLI ({e}): the live import runs `aws` (install the AWS CLI), or import from files (README: Start from your own table)"
                )))
            }
            Err(Bounded::TooLarge(cap)) => {
                return Err(other(format!("{name}: answered more than {} MiB, more than ddbsim reads of one call", cap >> 20)))
            }
            Err(Bounded::TimedOut(t)) => {
                return Err(other(format!(
                    "{name}: no answer within {} s (DDBSIM_AWS_TIMEOUT sets the limit, in seconds): check the network and AWS_ENDPOINT_URL",
                    t.as_secs()
                )))
            }
            Err(Bounded::Interrupted) => return Err(CallError { failure: Failure::Interrupted, message: format!("{name}: interrupted") }),
        };
        if out.success {
            return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let failure = classify(&stderr);
        Err(CallError { failure, message: format!("{} ({})", advice(&name, failure, table), last_line(&stderr)) })
    }
}

/// A table or index name as AWS allows it (3 to 255 characters of `A-Z a-z 0-9 _ . -`), before
/// it names a folder, a file or a call; any other is refused, quoted with every character
/// outside printable ASCII escaped.
pub(super) fn aws_name(kind: &str, name: &str) -> Result<(), String> {
    let ok = (3..=255).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    if ok {
        return Ok(());
    }
    let shown: String = name.chars().take(80).flat_map(char::escape_default).collect();
    let more = if name.chars().count() > 80 { "…" } else { "" };
    Err(format!(
        "\"{shown}{more}\": not a DynamoDB {kind} name (3 to 255 characters of A-Z, a-z, 0-9, _, . and -): refused before it names a file or a call"
    ))
}

/// `aws:NAME` → the table; `aws:*` and `aws:PREFIX*` → the Region's tables that match.
fn table_names(aws: &Aws<'_>, sources: &[PathBuf]) -> Result<Vec<String>, CliError> {
    let mut listed: Option<Vec<String>> = None;
    let mut out: Vec<String> = Vec::new();
    for s in sources {
        let s = s.to_string_lossy();
        let Some(spec) = s.strip_prefix("aws:") else { continue };
        let names: Vec<String> = match spec.strip_suffix('*') {
            Some(prefix) => {
                if listed.is_none() {
                    let text = aws.call("dynamodb", "list-tables", &[], None).map_err(|e| match e.failure {
                        Failure::Interrupted => CliError::Interrupted,
                        _ => CliError::Argument(e.message),
                    })?;
                    let v: serde_json::Value =
                        serde_json::from_str(&text).map_err(|e| CliError::Argument(format!("aws dynamodb list-tables: not JSON: {e}")))?;
                    listed =
                        Some(v["TableNames"].as_array().into_iter().flatten().filter_map(|n| n.as_str().map(str::to_string)).collect());
                }
                listed.iter().flatten().filter(|n| n.starts_with(prefix)).cloned().collect()
            }
            None => vec![spec.to_string()],
        };
        if names.is_empty() {
            return Err(CliError::Argument(format!("{s}: no table of the Region matches")));
        }
        for n in &names {
            aws_name("table", n).map_err(CliError::Argument)?;
        }
        for n in names {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    Ok(out)
}

/// The files of one table, fetched into `dir`: its definition files and its history.
fn fetch(aws: &Aws<'_>, table: &str, days: u32, end_unix_s: i64, dir: &Path, notes: &mut Vec<String>) -> Result<Fetched, CallError> {
    let save = |name: &str, text: &str| -> Result<PathBuf, CallError> {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| CallError { failure: Failure::Other, message: format!("{}: {e}", p.display()) })?;
        Ok(p)
    };
    let t = Some(table);
    let describe = save("describe-table.json", &aws.call("dynamodb", "describe-table", &["--table-name", table], t)?)?;
    let backups = save("continuous-backups.json", &aws.call("dynamodb", "describe-continuous-backups", &["--table-name", table], t)?)?;
    let ttl = save("time-to-live.json", &aws.call("dynamodb", "describe-time-to-live", &["--table-name", table], t)?)?;
    let def = crate::import::tables(std::slice::from_ref(&describe))
        .map_err(|e| CallError { failure: Failure::Other, message: e.to_string() })?
        .into_iter()
        .next()
        .ok_or_else(|| CallError {
            failure: Failure::Other,
            message: format!("aws dynamodb describe-table: no table {table} in its output"),
        })?;
    let gsis: Vec<String> = def.gsis.iter().map(|g| g.name.clone()).collect();
    for g in &gsis {
        aws_name("index", g).map_err(|message| CallError { failure: Failure::Other, message })?;
    }
    let resources: Vec<String> =
        std::iter::once(format!("table/{table}")).chain(gsis.iter().map(|g| format!("table/{table}/index/{g}"))).collect();
    let mut ids: Vec<&str> = vec!["--service-namespace", "dynamodb", "--resource-ids"];
    ids.extend(resources.iter().map(String::as_str));
    let targets = save("scalable-targets.json", &aws.call("application-autoscaling", "describe-scalable-targets", &ids, t)?)?;
    let mut policies = Vec::new();
    for r in &resources {
        let text =
            aws.call("application-autoscaling", "describe-scaling-policies", &["--service-namespace", "dynamodb", "--resource-id", r], t)?;
        policies.extend(listed(&text, "application-autoscaling describe-scaling-policies", "ScalingPolicies")?);
    }
    let policies = save("scaling-policies.json", &serde_json::json!({ "ScalingPolicies": policies }).to_string())?;
    let mut n = 0;
    for r in &resources {
        let text =
            aws.call("application-autoscaling", "describe-scheduled-actions", &["--service-namespace", "dynamodb", "--resource-id", r], t)?;
        n += listed(&text, "application-autoscaling describe-scheduled-actions", "ScheduledActions")?.len();
    }
    if n > 0 {
        notes.push(format!("{table}: {n} scheduled scaling action(s) are not imported: add each as an [[at]] set_autoscaling"));
    }
    let period = if days <= 15 { 60 } else { 300 };
    let q = save("queries.json", &serde_json::to_string(&queries(table, &gsis, period)).expect("JSON values serialise"))?;
    let start = end_unix_s - i64::from(days) * 86_400;
    let (s, e) = (start.to_string(), end_unix_s.to_string());
    let file = format!("file://{}", q.display());
    let metrics = aws.call("cloudwatch", "get-metric-data", &["--metric-data-queries", &file, "--start-time", &s, "--end-time", &e], t)?;
    let metrics = save("metrics.json", &metrics)?;
    let on_demand = def.provisioned.is_none();
    Ok(Fetched { defs: vec![describe, targets, policies, backups, ttl], metrics, queries: q, gsis, on_demand })
}

/// The array `key` of a call's JSON output; output cut short, or without it, is an error
/// naming the call (never an empty list read as "none").
fn listed(text: &str, call: &str, key: &str) -> Result<Vec<serde_json::Value>, CallError> {
    let bad =
        |why: String| CallError { failure: Failure::Other, message: format!("aws {call}: {why}: run it again, or import from files") };
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(format!("its output is not whole JSON ({e})")))?;
    v.get(key).and_then(serde_json::Value::as_array).cloned().ok_or_else(|| bad(format!("its output has no {key} list")))
}

/// One table's files: its definition files, its history, and its GSIs' names.
struct Fetched {
    defs: Vec<PathBuf>,
    metrics: PathBuf,
    /// The `get-metric-data` queries that fetched `metrics`.
    queries: PathBuf,
    gsis: Vec<String>,
    /// The table is on-demand: idle, it costs nothing but its storage.
    on_demand: bool,
}

/// One table imported: its name, its import, and the files kept beside it (its history and
/// the queries that fetched it: name, text).
type Done = (String, Imported, Vec<(String, String)>);

/// The options of a live import.
pub(in crate::cli) struct Live<'a> {
    /// `aws:` sources.
    pub sources: &'a [PathBuf],
    /// `--region`.
    pub region: Option<&'a str>,
    /// Days of history, 1 to 63.
    pub days: u32,
    /// End of the window (Unix seconds), the current minute when `None`.
    pub end: Option<i64>,
    /// `--out`: a file for one table, a folder for several.
    pub out: Option<&'a Path>,
    /// Where to say what was written.
    pub say: super::files::Say,
    /// `--force`.
    pub force: bool,
    /// Ctrl-C.
    pub stop: &'a StopToken,
}

/// Imports the tables `l.sources` name, live.
pub(in crate::cli) fn import_live(l: &Live<'_>) -> Result<(), CliError> {
    if !(1..=63).contains(&l.days) {
        return Err(CliError::Argument(format!(
            "--days: 1 to 63 (CloudWatch keeps one-minute datapoints for 15 days, five-minute ones for 63), not {}",
            l.days
        )));
    }
    region_arg(l.region)?;
    let region = l
        .region
        .map(str::to_string)
        .or_else(|| ["AWS_REGION", "AWS_DEFAULT_REGION"].iter().find_map(|k| std::env::var(k).ok().filter(|r| !r.is_empty())));
    let aws = Aws { region, stop: l.stop };
    // Files beside aws:NAME (a Contributor Insights report) are read with what is fetched.
    let extra: Vec<PathBuf> = l.sources.iter().filter(|s| !s.to_string_lossy().starts_with("aws:")).cloned().collect();
    if let Some(f) = extra.iter().find(|f| !f.is_file()) {
        return Err(CliError::Argument(format!(
            "{}: not a file (beside aws: sources, give files such as a Contributor Insights report)",
            f.display()
        )));
    }
    let region_wide = l.sources.iter().filter(|s| s.to_string_lossy().starts_with("aws:")).count() > 1
        || l.sources.iter().any(|s| s.to_string_lossy().ends_with('*'));
    // Where the files go is checked before the first call: a fetch is not wasted on it.
    place_checked(l.out, region_wide, l.force)?;
    let names = table_names(&aws, l.sources)?;
    let end = l.end.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        now - now.rem_euclid(60)
    });
    // Several tables, or a pattern that may match several: a folder of scenarios (as checked).
    let many = region_wide || names.len() > 1;
    let bar = indicatif::ProgressBar::new(names.len() as u64);
    bar.set_style(indicatif::ProgressStyle::with_template("{pos}/{len} tables {wide_bar} {msg}").expect("a valid template"));
    // Each table's import, and its history to keep beside it.
    let mut done: Vec<Done> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    // The fetched files are the account's: readable by this user only, and removed on every
    // way out but a kill (Ctrl-C and SIGTERM stop the call under way and return through here).
    let keep = tempfile::Builder::new()
        .prefix(".ddbsim-live-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir()
        .map_err(|e| CliError::Argument(format!("a temporary folder: {e}")))?;
    for name in &names {
        bar.set_message(name.clone());
        let dir = keep.path().join(name);
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o700)))
            .map_err(|e| CliError::Argument(format!("{}: {e}", dir.display())))?;
        let mut notes = Vec::new();
        let stem = if many {
            name.clone()
        } else {
            l.out.and_then(|o| o.file_stem()).map_or_else(|| "imported".into(), |s| s.to_string_lossy().into_owned())
        };
        let fetched = fetch(&aws, name, l.days, end, &dir, &mut notes);
        if let Ok(f) = &fetched {
            // An idle on-demand table has nothing to replay or price; an idle provisioned one
            // still pays for its capacity, and is imported.
            if many && f.on_demand && !has_traffic(&f.metrics, &f.gsis).map_err(CliError::Argument)? {
                skipped.push(format!("{name}: on-demand, no traffic in the {}-day window (nothing to replay)", l.days));
                bar.inc(1);
                continue;
            }
        }
        let result = match fetched {
            Ok(f) => {
                let kept = super::history::kept(&stem, &f.metrics, &f.queries).map_err(|e| (Failure::Other, e.to_string()));
                let defs: Vec<PathBuf> = f.defs.into_iter().chain(extra.iter().cloned()).collect();
                kept.and_then(|kept| {
                    crate::import::import(&defs, &[f.metrics], Some(name), &stem)
                        .map(|i| (i, kept))
                        .map_err(|e| (Failure::Other, e.to_string()))
                })
            }
            Err(e) => Err((e.failure, e.message)),
        };
        bar.inc(1);
        match result {
            Ok((mut i, kept)) => {
                // The files are this run's: name them by what fetched them.
                let shown = format!("{}/", dir.display());
                i.scenario = i.scenario.replace(&shown, "aws:");
                i.notes = i.notes.iter().map(|n| n.replace(&shown, "aws:")).chain(notes).collect();
                done.push((name.clone(), i, kept));
            }
            Err((Failure::AccessDenied, m)) if many => skipped.push(format!("{name}: {m}")),
            Err((Failure::Interrupted, _)) => {
                bar.finish_and_clear();
                return Err(CliError::Interrupted);
            }
            Err((_, m)) => {
                bar.finish_and_clear();
                return Err(CliError::Argument(m));
            }
        }
    }
    bar.finish_and_clear();
    for s in &skipped {
        eprintln!("skipped {s}");
    }
    if !many {
        let (_, i, kept) = done.pop().expect("one table imported");
        let stem = l.out.and_then(|o| o.file_stem()).map_or_else(|| "imported".into(), |s| s.to_string_lossy().into_owned());
        // Without a file to write beside, the history is not kept.
        let kept = if l.out.is_some() { kept } else { Vec::new() };
        let w = super::files::Written { stem: &stem, out: l.out, say: l.say, force: l.force, kept, named: &[] };
        return super::files::write_imported(&i, &w);
    }
    write_region(&done, l.out, l.force)
}

/// Can the import be written where `out` says? One table: a file in an existing folder, absent
/// unless `force`. Several: a folder (made when the scenarios are written, as `run --out`
/// makes its own), not a file.
fn place_checked(out: Option<&Path>, region_wide: bool, force: bool) -> Result<(), CliError> {
    let fail = |p: &Path, e: std::io::Error| CliError::Output(crate::OutputError { path: p.to_path_buf(), source: e });
    let Some(out) = out else {
        return if region_wide {
            Err(CliError::Argument("several tables: give --out DIR, a folder for one scenario each".into()))
        } else {
            Ok(())
        };
    };
    if region_wide {
        // Made when the scenarios are written, not before: a failed fetch leaves nothing.
        if out.exists() && !out.is_dir() {
            return Err(CliError::Argument(format!("{}: several tables go into a folder, and this is a file", out.display())));
        }
        return Ok(());
    }
    let dir = super::publish::folder_of(out);
    if !dir.is_dir() {
        return Err(fail(&dir, std::io::Error::new(std::io::ErrorKind::NotFound, "the folder does not exist")));
    }
    if out.symlink_metadata().is_ok() && !force {
        return Err(CliError::Argument(format!("{}: exists: pass --force to replace it (and its traces)", out.display())));
    }
    Ok(())
}

/// Does the history hold any of the table's consumed units? (An on-demand table that served
/// nothing in the window has nothing to replay.) Output cut short, or without its
/// `MetricDataResults`, is an error naming the call, not "no traffic".
fn has_traffic(metrics: &Path, gsis: &[String]) -> Result<bool, String> {
    let text = std::fs::read_to_string(metrics).map_err(|e| format!("{}: {e}", metrics.display()))?;
    listed(&text, "cloudwatch get-metric-data", "MetricDataResults").map_err(|e| e.message)?;
    Ok(crate::import::read_history(&[metrics.to_path_buf()], gsis).is_ok_and(|r| {
        r.series.iter().any(|s| {
            s.index.is_none() && s.kind == crate::import::RecordedKind::Consumed && s.values.iter().any(|v| v.is_some_and(|x| x > 0.0))
        })
    }))
}

/// A region's tables into folder `out`, one `TABLE.toml` and its traces and kept history each,
/// all or none.
fn write_region(done: &[Done], out: Option<&Path>, force: bool) -> Result<(), CliError> {
    let Some(dir) = out else {
        return Err(CliError::Argument("several tables: give --out DIR, a folder for one scenario each".into()));
    };
    if done.is_empty() {
        return Err(CliError::Argument("no table was imported (each skipped, above)".into()));
    }
    let fail = |p: &Path, e: std::io::Error| CliError::Output(crate::OutputError { path: p.to_path_buf(), source: e });
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let staging = super::publish::staging(dir)?;
    let mut names: Vec<String> = Vec::new();
    for (table, i, kept) in done {
        for n in &i.notes {
            eprintln!("note: {table}: {n}");
        }
        let file = format!("{table}.toml");
        let history: Vec<String> = super::history::histories(kept).collect();
        let scenario = super::history::with_history(&i.scenario, &history);
        let files: Vec<(&str, &str)> = i
            .traces
            .iter()
            .chain(kept)
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .chain(std::iter::once((file.as_str(), scenario.as_str())))
            .collect();
        super::publish::stage(staging.path(), files.iter().copied())?;
        names.extend(files.iter().map(|(n, _)| n.to_string()));
        crate::scenario::load(&staging.path().join(&file))?;
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    super::publish::place_all(staging.path(), dir, &refs, force)?;
    println!("wrote {} scenarios into {} (`ddbsim recommend {}` prices them)", done.len(), dir.display(), dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AWS CLI's messages for each failure, as it prints them.
    #[test]
    fn each_failure_is_recognised() {
        assert_eq!(
            classify("Unable to locate credentials. You can configure credentials by running \"aws configure\"."),
            Failure::NoCredentials
        );
        assert_eq!(
            classify("An error occurred (ExpiredTokenException) when calling the DescribeTable operation: The security token included in the request is expired"),
            Failure::Expired
        );
        assert_eq!(
            classify("An error occurred (AccessDeniedException) when calling the DescribeTable operation: User: arn:aws:iam::1:user/x is not authorized to perform: dynamodb:DescribeTable"),
            Failure::AccessDenied
        );
        assert_eq!(
            classify(
                "An error occurred (ThrottlingException) when calling the GetMetricData operation (reached max retries: 4): Rate exceeded"
            ),
            Failure::Throttled
        );
        assert_eq!(
            classify(
                "An error occurred (ResourceNotFoundException) when calling the DescribeTable operation: Requested resource not found"
            ),
            Failure::NotFound
        );
        assert_eq!(classify("Could not connect to the endpoint URL: \"https://dynamodb.us-eats-1.amazonaws.com/\""), Failure::Unreachable);
        assert!(advice("aws dynamodb describe-table", Failure::Expired, None).contains("sso login"));
    }

    /// AWS's pattern: 3 to 255 of `A-Z a-z 0-9 _ . -`. A listed `../../x/pwn`, a newline, a
    /// right-to-left override are refused, shown escaped.
    #[test]
    fn only_names_aws_allows_are_used() {
        for ok in ["Orders", "my.table-1_x", &"a".repeat(255)] {
            assert_eq!(aws_name("table", ok), Ok(()), "{ok}");
        }
        for bad in ["ab", &"a".repeat(256), "../../x/pwn", "a/b", "Ord\ners", "Ord\u{202E}ers", ""] {
            assert!(aws_name("table", bad).is_err(), "{bad:?}");
        }
        let e = aws_name("index", "x\n# LGTM\u{202E}").unwrap_err();
        assert!(e.starts_with("\"x\\n# LGTM\\u{202e}\": not a DynamoDB index name"), "{e}");
    }

    /// Item 6 of issue 59: a cut `describe-scaling-policies` read as no policy turned a 45 %
    /// target into the default 70 %; it is an error naming the call.
    #[test]
    fn output_cut_short_is_an_error_naming_the_call() {
        let call = "application-autoscaling describe-scaling-policies";
        let whole = r#"{"ScalingPolicies": [{"PolicyName": "p", "TargetTrackingScalingPolicyConfiguration": {"TargetValue": 45.0}}]}"#;
        assert_eq!(listed(whole, call, "ScalingPolicies").map(|v| v.len()).ok(), Some(1));
        for cut in [&whole[..40], "", "{}"] {
            let e = listed(cut, call, "ScalingPolicies").err().map(|e| e.message).unwrap_or_default();
            assert!(e.starts_with("aws application-autoscaling describe-scaling-policies: its output"), "{e}");
        }
    }
}
