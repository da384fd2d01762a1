//! Every command README.md shows in a `sh` block runs and succeeds, in a scratch folder holding
//! the bundled scenarios and the import fixtures under the names the README uses. Lines with
//! shell placeholders (`$VAR`, globs, `...`, `{}`, pipes, quotes) are templates, not commands.

use std::path::Path;
use std::process::Command;

/// The `ddbsim` commands of README's `sh` blocks, continuation lines joined, comments dropped.
fn commands(readme: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            pending.clear();
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = line.split("  #").next().unwrap_or("").trim_end();
        if let Some(head) = code.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        let full = format!("{pending}{code}");
        pending.clear();
        let full = full.trim();
        let full = full.strip_prefix("cargo run --release -- ").map_or(full.to_string(), |rest| format!("ddbsim {rest}"));
        if !full.starts_with("ddbsim ") || ["$", "*", "...", "{", "'", "|", ">", "~"].iter().any(|m| full.contains(m)) {
            continue;
        }
        out.push(full.split_whitespace().skip(1).map(String::from).collect());
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A scratch folder holding the bundled scenarios and the import and diff fixtures, as README's commands
/// expect them.
fn scratch() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    copy_dir(Path::new("scenarios"), &d.path().join("scenarios"));
    copy_dir(Path::new("tests/fixtures/import"), &d.path().join("tests/fixtures/import"));
    copy_dir(Path::new("tests/fixtures/diff"), &d.path().join("tests/fixtures/diff"));
    copy_dir(Path::new("tests/fixtures/items"), &d.path().join("tests/fixtures/items"));
    d
}

#[test]
fn every_command_in_readme_runs() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let cmds = commands(&readme);
    let d = scratch();
    // The import walkthrough's files, as the AWS CLI would have written them.
    for (fixture, name) in [
        ("describe-table.json", "orders.json"),
        ("scalable-targets.json", "targets.json"),
        ("scaling-policies.json", "policies.json"),
        ("metric-data-5m.json", "metrics.json"),
    ] {
        std::fs::copy(Path::new("tests/fixtures/import").join(fixture), d.path().join(name)).unwrap();
    }
    for c in &cmds {
        let o = Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(c).current_dir(d.path()).output().unwrap();
        assert!(o.status.success(), "`ddbsim {}` failed: {}", c.join(" "), String::from_utf8_lossy(&o.stderr));
    }
    let ran: Vec<&str> = cmds.iter().map(|c| c[0].as_str()).collect();
    for sub in ["run", "shards", "compare", "sweep", "recommend", "validate", "plot", "import", "check"] {
        assert!(ran.contains(&sub), "README shows no runnable `ddbsim {sub}`: {ran:?}");
    }
    assert!(d.path().join("output/hot-key/report.html").is_file());
    assert!(d.path().join("orders.toml").is_file());
}

/// README's table of JSON documents: each example prints one JSON object on stdout whose
/// top-level keys are the ones the table lists.
#[test]
fn every_json_document_has_the_keys_readme_documents() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let section = &readme[readme.find("### JSON on stdout").expect("README documents the JSON documents")..];
    let section = &section[..section[3..].find("\n#").map_or(section.len(), |i| i + 3)];
    let d = scratch();
    let mut checked = 0;
    for row in section.lines().filter(|l| l.starts_with("| `ddbsim ")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let cmd = cells[0].trim_start_matches("| ").trim_matches('`');
        let keys: Vec<&str> = cells[2].trim_end_matches(" |").split(", ").map(|k| k.trim_matches('`')).collect();
        if cmd.starts_with("ddbsim merge") {
            continue; // merge prints the documents above, checked by the sweeps tests
        }
        let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        let o = Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(&args).current_dir(d.path()).output().unwrap();
        assert!(o.status.success(), "`{cmd}` failed: {}", String::from_utf8_lossy(&o.stderr));
        let doc: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("`{cmd}` printed no single JSON document: {e}"));
        let got: Vec<&str> = doc.as_object().expect("an object").keys().map(String::as_str).collect();
        let (mut a, mut b) = (got.clone(), keys.clone());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "`{cmd}`: keys printed vs README");
        checked += 1;
    }
    assert_eq!(checked, 16, "README's JSON table lost rows");
}
