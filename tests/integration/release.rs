//! What the release path does that can be tested here: the workflows and the action parse
//! against GitHub's schemas (check-jsonschema's vendored copies, installed by .ci/run), the
//! install script checks a build's checksum before it installs it (from a local folder, as a
//! mirror would serve it), and the action's step runs `check` and `diff` on a local binary and
//! writes the job summary. The cross builds themselves run in the release workflow: this
//! machine cannot install other targets' standard libraries.

use std::path::Path;
use std::process::Command;

use crate::{aws_offline, have};

#[test]
fn the_workflows_and_the_action_parse() {
    if !have("check-jsonschema") {
        return;
    }
    let workflows: Vec<String> = std::fs::read_dir(".github/workflows")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".yml"))
        .collect();
    assert!(workflows.iter().any(|w| w.ends_with("release.yml")), "{workflows:?}");
    for (schema, files) in [("vendor.github-workflows", workflows), ("vendor.github-actions", vec!["action.yml".to_string()])] {
        let o = Command::new("check-jsonschema").args(["--builtin-schema", schema]).args(&files).output().unwrap();
        assert!(o.status.success(), "{files:?}: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    }
    // README's GitHub workflows (the YAML blocks that start with `name:`), as users copy them.
    let readme = std::fs::read_to_string("README.md").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut shown = Vec::new();
    for (i, block) in readme.split("```yaml\n").skip(1).filter_map(|b| b.split("```").next()).enumerate() {
        if block.starts_with("name:") {
            let f = dir.path().join(format!("readme-{i}.yml"));
            std::fs::write(&f, block).unwrap();
            shown.push(f.display().to_string());
        }
    }
    assert!(shown.len() >= 2, "README shows its GitHub workflows");
    let o = Command::new("check-jsonschema").args(["--builtin-schema", "vendor.github-workflows"]).args(&shown).output().unwrap();
    assert!(o.status.success(), "README's workflows: {}", String::from_utf8_lossy(&o.stdout));
    let release = std::fs::read_to_string(".github/workflows/release.yml").unwrap();
    for target in
        ["x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl", "x86_64-apple-darwin", "aarch64-apple-darwin", "x86_64-pc-windows-msvc"]
    {
        assert!(release.contains(target), "release.yml builds no {target}");
    }
}

/// README's code blocks that start with `start`, in the fence `lang`.
fn blocks(lang: &str, start: &str) -> Vec<String> {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let fence = format!("```{lang}\n");
    readme
        .split(fence.as_str())
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .filter(|b| b.starts_with(start))
        .map(str::to_string)
        .collect()
}

/// README's sweep recipes for Kubernetes and AWS Batch parse as their tools read them: the
/// Indexed Job against Kubernetes' `batch/v1` schema (kubernetes-validate, strict), the Batch
/// array job through the AWS CLI's own parameter validation (it then fails only to reach the
/// closed endpoint). Each check is shown to fail on a broken copy.
#[test]
fn the_readme_sweep_recipes_parse() {
    if !have("kubernetes-validate") || !have("aws") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let jobs = blocks("yaml", "apiVersion: batch/v1");
    assert_eq!(jobs.len(), 1, "README shows one Kubernetes Job");
    let validate = |text: &str| {
        let f = dir.path().join("job.yaml");
        std::fs::write(&f, text).unwrap();
        Command::new("kubernetes-validate").args(["--strict", "-k", "1.30.0"]).arg(&f).output().unwrap()
    };
    let o = validate(&jobs[0]);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!validate(&jobs[0].replace("completionMode: Indexed", "completionMode: Indexd\n  bogus: 1")).status.success());
    let batch = blocks("json", "{\n  \"jobName\"");
    assert_eq!(batch.len(), 1, "README shows one AWS Batch job");
    let submit = |text: &str| {
        let f = dir.path().join("sweep.json");
        std::fs::write(&f, text).unwrap();
        aws_offline(&format!("aws batch submit-job --cli-input-json file://{} --region us-east-1", f.display()))
    };
    let err = submit(&batch[0]);
    assert!(err.contains("Could not connect to the endpoint URL") && !err.contains("Parameter validation failed"), "{err}");
    assert!(submit(&batch[0].replace("\"size\": 8", "\"size\": \"eight\"")).contains("Parameter validation failed"));
}

/// Archives of the local build under both Linux names the script may pick, with checksums.
fn mirror(dir: &Path, corrupt: bool) {
    let bin = dir.join("ddbsim");
    std::fs::copy(env!("CARGO_BIN_EXE_ddbsim"), &bin).unwrap();
    for cpu in ["x86_64", "aarch64"] {
        let archive = format!("ddbsim-{cpu}-unknown-linux-musl.tar.gz");
        assert!(Command::new("tar").args(["-czf", &archive, "ddbsim"]).current_dir(dir).status().unwrap().success());
        let sum = Command::new("sha256sum").arg(&archive).current_dir(dir).output().unwrap();
        let mut line = String::from_utf8(sum.stdout).unwrap();
        if corrupt {
            line.replace_range(0..1, if line.starts_with('0') { "1" } else { "0" });
        }
        std::fs::write(dir.join(format!("{archive}.sha256")), line).unwrap();
    }
}

#[test]
fn the_install_script_checks_and_installs_a_local_build() {
    let d = tempfile::tempdir().unwrap();
    let (site, dest, path) = (d.path().join("site"), d.path().join("bin"), d.path().join("github_path"));
    std::fs::create_dir_all(&site).unwrap();
    mirror(&site, false);
    let install = |dest: &Path| {
        Command::new("sh")
            .arg("action/install.sh")
            .env("DDBSIM_DOWNLOAD_URL", format!("file://{}", site.display()))
            .env("DDBSIM_INSTALL_DIR", dest)
            .env("GITHUB_PATH", &path)
            .output()
            .unwrap()
    };
    let o = install(&dest);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = Command::new(dest.join("ddbsim")).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("ddbsim "), "{v:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), dest.display().to_string());
    mirror(&site, true);
    let other = d.path().join("other");
    let o = install(&other);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && err.contains("checksum") && err.contains("nothing installed"), "{err}");
    assert!(!other.join("ddbsim").exists());
}

#[test]
fn the_action_step_writes_the_job_summary() {
    let d = tempfile::tempdir().unwrap();
    let (summary, output) = (d.path().join("summary.md"), d.path().join("output"));
    let step = |env: &[(&str, &str)]| {
        let mut c = Command::new("bash");
        c.arg("action/run.sh")
            .env("DDBSIM", env!("CARGO_BIN_EXE_ddbsim"))
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &output)
            .env_remove("INPUT_ARGS");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let o = step(&[
        ("INPUT_COMMAND", "diff"),
        ("INPUT_BASE", "scenarios/diff/all.toml"),
        ("INPUT_HEAD", "scenarios/diff/keys-only.toml"),
        ("INPUT_ARGS", "--max-cost-increase 10%"),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(s.starts_with("### ddbsim diff: `scenarios/diff/all.toml`") && s.contains("OVER THE COST GUARDRAIL"), "{s}");
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "exit-code=3\n");
    let o = step(&[
        ("INPUT_COMMAND", "check"),
        ("INPUT_SCENARIOS", "scenarios/good-design.toml"),
        ("INPUT_ARGS", "--phases steady,distribution"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(s.contains("### ddbsim check\n\n```text\nPASS  "), "{s}");
    let o = step(&[("INPUT_COMMAND", "diff")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs the inputs base and head"));
}
