//! `--shard I/N`, or `--shard auto[/N]`: the share from the scheduler running this process, read
//! from the variables each sets for an array of tasks.

use crate::cli::CliError;

/// One scheduler's variables: the task's index (its base), and the task count's variable when
/// the scheduler sets one.
struct Scheduler {
    name: &'static str,
    index: &'static str,
    /// The first index: 0, or Slurm's `--array` minimum.
    base: Base,
    count: Option<&'static str>,
}

enum Base {
    Zero,
    /// Slurm: `(ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP`.
    Slurm,
}

/// In the order they are looked for.
const SCHEDULERS: [Scheduler; 5] = [
    Scheduler { name: "AWS Batch array job", index: "AWS_BATCH_JOB_ARRAY_INDEX", base: Base::Zero, count: None },
    Scheduler { name: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", base: Base::Zero, count: None },
    Scheduler { name: "Slurm job array", index: "SLURM_ARRAY_TASK_ID", base: Base::Slurm, count: Some("SLURM_ARRAY_TASK_COUNT") },
    Scheduler { name: "Cloud Run job", index: "CLOUD_RUN_TASK_INDEX", base: Base::Zero, count: Some("CLOUD_RUN_TASK_COUNT") },
    Scheduler {
        name: "a workflow (a GitHub Actions matrix)",
        index: "DDBSIM_SHARD_INDEX",
        base: Base::Zero,
        count: Some("DDBSIM_SHARD_COUNT"),
    },
];

/// `--shard`: `I/N`, or `auto` / `auto/N` read from the environment (`env`), with a line saying
/// where the share came from.
///
/// # Errors
/// A malformed `I/N`; `auto` with none of the variables set (naming every one looked for), a
/// variable that is not a whole number, no count where the scheduler sets none and `/N` is not
/// given, or an index past the count.
pub(crate) fn shard_arg(spec: &str, env: impl Fn(&str) -> Option<String>) -> Result<((usize, usize), Option<String>), CliError> {
    let bad = |m: String| CliError::Argument(format!("--shard {spec}: {m}"));
    let Some(rest) = spec.trim().strip_prefix("auto") else {
        return Ok((crate::study::parse_shard(spec)?, None));
    };
    let given: Option<usize> = match rest.strip_prefix('/') {
        Some(n) => Some(n.trim().parse().ok().filter(|n| *n >= 1).ok_or_else(|| bad("auto/N takes a count N >= 1".into()))?),
        None if rest.is_empty() => None,
        None => return Err(bad("expected auto or auto/N".into())),
    };
    let whole = |var: &str| -> Result<Option<usize>, CliError> {
        env(var).map(|v| v.trim().parse::<usize>().map_err(|_| bad(format!("{var}={v} is not a whole number")))).transpose()
    };
    for s in &SCHEDULERS {
        let Some(id) = whole(s.index)? else { continue };
        let index = match s.base {
            Base::Zero => id,
            Base::Slurm => {
                let min = whole("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
                let step = whole("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
                if id < min || (id - min) % step != 0 {
                    return Err(bad(format!("SLURM_ARRAY_TASK_ID={id} is not in the array (min {min}, step {step})")));
                }
                (id - min) / step
            }
        };
        let set = match s.count {
            Some(var) => whole(var)?,
            None => None,
        };
        let count = match (set, given) {
            (Some(c), Some(g)) if c != g => {
                return Err(bad(format!("{} says {c} tasks, --shard says {g}", s.count.unwrap_or_default())));
            }
            (Some(c), _) | (None, Some(c)) => c,
            (None, None) => return Err(bad(format!("the {} sets no task count: give it, --shard auto/N", s.name))),
        };
        if index >= count {
            return Err(bad(format!("{}={id} is task {} of {count}: past the count", s.index, index + 1)));
        }
        let from = format!("share {}/{count} from {} ({}={id})", index + 1, s.name, s.index);
        return Ok(((index + 1, count), Some(from)));
    }
    let looked: Vec<&str> = SCHEDULERS.iter().map(|s| s.index).collect();
    Err(bad(format!("no scheduler's task index is set (looked for {}); give --shard I/N", looked.join(", "))))
}

/// `--shard` as given (none: the whole), read from this process's environment; the share's
/// source printed on stderr unless `quiet`.
///
/// # Errors
/// As [`shard_arg`].
pub(crate) fn shard_flag(spec: Option<&str>, quiet: bool) -> Result<Option<(usize, usize)>, CliError> {
    let Some(spec) = spec else { return Ok(None) };
    let (share, from) = shard_arg(spec, |k| std::env::var(k).ok())?;
    if let Some(from) = from.filter(|_| !quiet) {
        eprintln!("{from}");
    }
    Ok(Some(share))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_string())
    }

    fn share(spec: &str, vars: &[(&str, &str)]) -> Result<(usize, usize), String> {
        shard_arg(spec, with(vars)).map(|(s, _)| s).map_err(|e| e.to_string())
    }

    /// Each scheduler's 0-based index is share index + 1; Slurm's counts from its array's
    /// minimum in its step; the count is the scheduler's or the one given.
    #[test]
    fn each_scheduler_gives_its_share() {
        assert_eq!(share("2/4", &[]), Ok((2, 4)));
        assert_eq!(share("auto/8", &[("AWS_BATCH_JOB_ARRAY_INDEX", "0")]), Ok((1, 8)));
        assert_eq!(share("auto/8", &[("JOB_COMPLETION_INDEX", "7")]), Ok((8, 8)));
        let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "8")];
        assert_eq!(share("auto", &slurm), Ok((5, 8)));
        let stepped =
            [("SLURM_ARRAY_TASK_ID", "12"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_STEP", "4"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(share("auto", &stepped), Ok((4, 4)));
        assert_eq!(share("auto", &[("CLOUD_RUN_TASK_INDEX", "2"), ("CLOUD_RUN_TASK_COUNT", "3")]), Ok((3, 3)));
        assert_eq!(share("auto", &[("DDBSIM_SHARD_INDEX", "0"), ("DDBSIM_SHARD_COUNT", "2")]), Ok((1, 2)));
        let (_, from) = shard_arg("auto", with(&slurm)).unwrap();
        assert_eq!(from.unwrap(), "share 5/8 from Slurm job array (SLURM_ARRAY_TASK_ID=5)");
    }

    #[test]
    fn auto_is_refused_with_what_it_looked_for() {
        let none = share("auto", &[]).unwrap_err();
        assert!(
            none.contains(
                "looked for AWS_BATCH_JOB_ARRAY_INDEX, JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, CLOUD_RUN_TASK_INDEX, DDBSIM_SHARD_INDEX"
            ),
            "{none}"
        );
        let batch = share("auto", &[("AWS_BATCH_JOB_ARRAY_INDEX", "3")]).unwrap_err();
        assert!(batch.contains("the AWS Batch array job sets no task count: give it, --shard auto/N"), "{batch}");
        let past = share("auto/4", &[("JOB_COMPLETION_INDEX", "4")]).unwrap_err();
        assert!(past.contains("JOB_COMPLETION_INDEX=4 is task 5 of 4"), "{past}");
        let differ = share("auto/3", &[("CLOUD_RUN_TASK_INDEX", "0"), ("CLOUD_RUN_TASK_COUNT", "4")]).unwrap_err();
        assert!(differ.contains("CLOUD_RUN_TASK_COUNT says 4 tasks, --shard says 3"), "{differ}");
        assert!(share("auto", &[("CLOUD_RUN_TASK_INDEX", "x")]).unwrap_err().contains("CLOUD_RUN_TASK_INDEX=x is not a whole number"));
        assert!(share("autox", &[]).unwrap_err().contains("expected auto or auto/N"));
    }
}
