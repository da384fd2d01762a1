//! `ddbsim import aws:...` against a real local AWS endpoint: moto's server on 127.0.0.1,
//! the tables, auto scaling and one-minute metrics created through the AWS APIs
//! (tests/fixtures/live/setup.py, boto3), the import fetching them with the AWS CLI. Nothing
//! reaches any other address: every call goes to AWS_ENDPOINT_URL. Under `CI` the tests fail
//! when moto, boto3 or the AWS CLI is missing (`.ci/run` installs them); elsewhere they say
//! what is missing and stop.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// 2026-12-06T13:00:00Z: the end of the metrics' window.
const END: i64 = 1_796_562_000;

/// A moto server on a free local port, stopped when dropped.
struct Moto {
    child: Child,
    url: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Is `tool` usable? Under CI a missing tool fails the test.
fn have(check: &mut Command, what: &str) -> bool {
    let ok = check.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "{what} is needed under CI (.ci/run installs it)");
        eprintln!("skipped outside CI: {what} is not installed (pip install 'moto[server]' boto3 awscli)");
    }
    ok
}

/// A moto server with the fixture's tables and metrics, or `None` (outside CI) without the tools.
fn moto() -> Option<Moto> {
    if !have(Command::new("python3").args(["-c", "import moto.server, boto3"]), "moto[server] and boto3")
        || !have(Command::new("aws").arg("--version"), "the AWS CLI")
    {
        return None;
    }
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new("python3")
        .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("moto's server starts");
    let m = Moto { child, url: format!("http://127.0.0.1:{port}") };
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "moto's server did not listen on 127.0.0.1:{port} within 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    let setup = env(&mut Command::new("python3"), &m).args(["tests/fixtures/live/setup.py", &END.to_string()]).output().unwrap();
    assert!(setup.status.success(), "setup: {}", String::from_utf8_lossy(&setup.stderr));
    Some(m)
}

/// The environment of every call: the local endpoint, fake credentials, no config files, no
/// instance metadata.
fn env<'c>(c: &'c mut Command, m: &Moto) -> &'c mut Command {
    c.env("AWS_ENDPOINT_URL", &m.url)
        .env("AWS_ACCESS_KEY_ID", "testing")
        .env("AWS_SECRET_ACCESS_KEY", "testing")
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
}

fn ddbsim(m: &Moto, args: &[&str]) -> Output {
    env(&mut Command::new(env!("CARGO_BIN_EXE_ddbsim")), m).args(args).output().unwrap()
}

fn aws(m: &Moto, args: &[&str], to: &Path) {
    let o = env(&mut Command::new("aws"), m).args(args).args(["--output", "json"]).output().unwrap();
    assert!(o.status.success(), "aws {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(to, o.stdout).unwrap();
}

/// `aws:Orders --days 2` writes the scenario and traces the file path writes from the same
/// calls run by hand (its sources named `aws:`), byte for byte; the table is provisioned
/// 100 / 50 with write auto scaling 5-100 at 70 %, its GSI 10 / 10, and its traffic the
/// metrics': 1,200 write units a minute is 20 puts a second, 3,000 read units 50 reads, for
/// the last 60 minutes of the two days.
#[test]
fn a_live_import_equals_the_file_import_of_the_same_calls() {
    let Some(m) = moto() else { return };
    let live = tempfile::tempdir().unwrap();
    let out = live.path().join("orders.toml");
    let o = ddbsim(&m, &["import", "aws:Orders", "--days", "2", "--end", "2026-12-06T13:00:00Z", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let files = tempfile::tempdir().unwrap();
    let f = |n: &str| files.path().join(n);
    aws(&m, &["dynamodb", "describe-table", "--table-name", "Orders"], &f("describe-table.json"));
    aws(&m, &["application-autoscaling", "describe-scalable-targets", "--service-namespace", "dynamodb"], &f("scalable-targets.json"));
    aws(&m, &["application-autoscaling", "describe-scaling-policies", "--service-namespace", "dynamodb"], &f("scaling-policies.json"));
    aws(&m, &["dynamodb", "describe-continuous-backups", "--table-name", "Orders"], &f("continuous-backups.json"));
    aws(&m, &["dynamodb", "describe-time-to-live", "--table-name", "Orders"], &f("time-to-live.json"));
    let q = ddbsim(&m, &["import", "--print-queries", f("describe-table.json").to_str().unwrap()]);
    std::fs::write(f("queries.json"), q.stdout).unwrap();
    let start = (END - 2 * 86_400).to_string();
    let queries = format!("file://{}", f("queries.json").display());
    aws(
        &m,
        &["cloudwatch", "get-metric-data", "--metric-data-queries", &queries, "--start-time", &start, "--end-time", &END.to_string()],
        &f("metrics.json"),
    );
    let by_hand = tempfile::tempdir().unwrap();
    let out2 = by_hand.path().join("orders.toml");
    let defs = ["describe-table.json", "scalable-targets.json", "scaling-policies.json", "continuous-backups.json", "time-to-live.json"];
    let mut args: Vec<String> = vec!["import".into()];
    args.extend(defs.iter().map(|d| f(d).display().to_string()));
    args.extend(["--metrics".into(), f("metrics.json").display().to_string(), "--out".into(), out2.display().to_string()]);
    let o = ddbsim(&m, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // Each names its history on a `# ddbsim-history:` line: the live import the copy it kept
    // beside the scenario, the file import the file it was given.
    let (live_text, live_history) = history_lines(&std::fs::read_to_string(&out).unwrap());
    let (by_hand_text, by_hand_history) = history_lines(&std::fs::read_to_string(&out2).unwrap());
    assert_eq!(live_history, ["orders.history.json"]);
    assert_eq!(by_hand_history, [f("metrics.json").canonicalize().unwrap().display().to_string()]);
    let by_hand_text = by_hand_text.replace(&format!("{}/", files.path().display()), "aws:");
    assert_eq!(live_text, by_hand_text);
    // What was kept is what the calls answered (the same window, the same queries).
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(live.path().join("orders.history.json")).unwrap()).unwrap();
    let fetched: serde_json::Value = serde_json::from_slice(&std::fs::read(f("metrics.json")).unwrap()).unwrap();
    assert_eq!(kept["MetricDataResults"], fetched["MetricDataResults"]);
    let queries: serde_json::Value = serde_json::from_slice(&std::fs::read(live.path().join("orders.queries.json")).unwrap()).unwrap();
    assert_eq!(queries, serde_json::from_slice::<serde_json::Value>(&std::fs::read(f("queries.json")).unwrap()).unwrap());
    // `backtest SCENARIO` finds the kept history: the same comparison as naming it.
    let found = ddbsim(&m, &["backtest", out.to_str().unwrap(), "--json"]);
    let named =
        ddbsim(&m, &["backtest", out.to_str().unwrap(), "--json", "--metrics", live.path().join("orders.history.json").to_str().unwrap()]);
    assert!(matches!(found.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&found.stderr));
    assert!(found.stdout == named.stdout, "backtest.json differs with the history found and named");
    let b: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert!(b["series"].as_array().is_some_and(|s| !s.is_empty()), "{b}");
    for trace in ["orders-write-put-item.csv", "orders-read-get-item.csv"] {
        assert_eq!(std::fs::read(live.path().join(trace)).unwrap(), std::fs::read(by_hand.path().join(trace)).unwrap(), "{trace}");
    }
    let sc = ddbsim::scenario::load(&out).unwrap();
    assert_eq!(sc.table.capacity, ddbsim::scenario::CapacitySpec::Provisioned { read: 100, write: 50 });
    let a = sc.table.autoscaling.as_ref().unwrap();
    let w = a.write.as_ref().unwrap();
    assert_eq!((w.min, w.max, w.target), (5, 100, 0.7));
    assert_eq!(sc.gsis[0].capacity, ddbsim::scenario::CapacitySpec::Provisioned { read: 10, write: 10 });
    let writes = std::fs::read_to_string(live.path().join("orders-write-put-item.csv")).unwrap();
    assert!(writes.contains(",20\n"), "{writes}");

    // A Contributor Insights report given beside the table measures its skew.
    let report = "tests/fixtures/import/insight-rule-report.json";
    let o = ddbsim(
        &m,
        &["import", "aws:Orders", report, "--days", "2", "--end", "2026-12-06T13:00:00Z", "--out", out.to_str().unwrap(), "--force"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().contains("popularity_from = \"contributor_insights\""));
}

/// The scenario's text without its `# ddbsim-history:` lines, and what they name.
fn history_lines(text: &str) -> (String, Vec<String>) {
    let (marks, rest): (Vec<&str>, Vec<&str>) = text.split_inclusive('\n').partition(|l| l.starts_with("# ddbsim-history: "));
    (rest.concat(), marks.iter().map(|l| l.trim_end().trim_start_matches("# ddbsim-history: ").to_string()).collect())
}

/// `backtest aws:TABLE` imports the table into TABLE.toml in the current folder (its history
/// kept beside it) and backtests it, as `import` then `backtest` would; run again, it is
/// refused before any call unless --force.
#[test]
fn backtest_imports_a_live_table_and_compares_it() {
    let Some(m) = moto() else { return };
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ddbsim"));
        env(&mut c, &m)
            .current_dir(dir.path())
            .args(["backtest", "aws:Orders", "--days", "2", "--end", "2026-12-06T13:00:00Z", "--json"])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{err}");
    assert!(err.contains("wrote Orders.toml and 2 trace files, its history kept as Orders.history.json"), "{err}");
    let b: serde_json::Value = serde_json::from_slice(&o.stdout).expect("only backtest.json on stdout");
    for f in ["Orders.toml", "Orders.history.json", "Orders.queries.json"] {
        assert!(dir.path().join(f).is_file(), "{f}");
    }
    let again =
        Command::new(env!("CARGO_BIN_EXE_ddbsim")).current_dir(dir.path()).args(["backtest", "Orders.toml", "--json"]).output().unwrap();
    assert!(again.stdout == o.stdout, "the kept history gives the same comparison");
    // The fixture's metrics are the last 60 minutes of the two days: those are compared.
    assert_eq!(b["minutes"], serde_json::json!(60));
    let o = run(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("Orders.toml: exists: `ddbsim backtest Orders.toml`"), "{err}");
    let o = run(&["--force"]);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `'aws:*'` imports the Region: Orders and Audit, one scenario each into the folder; Ledger,
/// on-demand with no traffic in the window, is skipped and the run says why. The folder runs
/// as one account.
#[test]
fn a_region_is_imported_table_by_table() {
    let Some(m) = moto() else { return };
    let dir = tempfile::tempdir().unwrap();
    let o = ddbsim(&m, &["import", "aws:*", "--days", "2", "--end", "2026-12-06T13:00:00Z", "--out", dir.path().to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("skipped Ledger: on-demand, no traffic"), "{err}");
    for t in ["Orders", "Audit"] {
        ddbsim::scenario::load(&dir.path().join(format!("{t}.toml"))).unwrap();
    }
    assert!(!dir.path().join("Ledger.toml").exists());
    // The folder is the Region as one account: its tables on one clock, sharing its quota.
    let run = dir.path().join("run");
    let o = ddbsim(&m, &["run", dir.path().to_str().unwrap(), "--json", "--out", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = v["tables"].as_array().unwrap().iter().map(|t| t["table"].as_str().unwrap()).collect();
    assert_eq!(names, ["Audit", "Orders"]);
    std::fs::remove_dir_all(&run).unwrap();
    let o = ddbsim(
        &m,
        &["import", "aws:Au*", "--days", "2", "--end", "2026-12-06T13:00:00Z", "--out", dir.path().to_str().unwrap(), "--force"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The failures a user meets, each a message naming the call and what to do, exit 1, and
/// nothing written: no credentials, a table that does not exist, a Region typo (refused
/// before any call).
#[test]
fn live_failures_name_the_call_and_write_nothing() {
    let Some(m) = moto() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.toml");
    let run = |c: &mut Command| c.args(["import", "aws:Orders", "--days", "2", "--out", out.to_str().unwrap()]).output().unwrap();
    let o =
        run(env(&mut Command::new(env!("CARGO_BIN_EXE_ddbsim")), &m).env_remove("AWS_ACCESS_KEY_ID").env_remove("AWS_SECRET_ACCESS_KEY"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("aws dynamodb describe-table: no AWS credentials"), "{err}");
    let o = ddbsim(&m, &["import", "aws:Nope", "--days", "2", "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no table Nope in this Region"), "{err}");
    let o = ddbsim(&m, &["import", "aws:Orders", "--region", "us-eats-1", "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not an AWS Region (did you mean us-east-1?)"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}
