//! A battery of malformed scenarios: each gives a problem naming line, column and key path,
//! never a panic.

use ddbsim::scenario::{parse_str, ScenarioError};
use std::path::Path;

const VALID: &str = r#"[scenario]
duration = "10m"

[table]
partition_key = "user"
capacity = { mode = "provisioned", read = 100, write = 100 }

[keys.user]
cardinality = 1000
popularity = { zipf = 1.1 }

[keys.status]
values = { active = 0.9, deleted = 0.1 }

[[gsi]]
name = "ByStatus"
partition_key = "status"
capacity = { read = 10, write = 10 }

[[pattern]]
name = "read"
op = "get_item"
item_bytes = 1000
rate = { constant = 10 }

[[pattern]]
name = "write"
op = "put_item"
item_bytes = 1000
rate = { spike = { base = 1, peak = 5, at = "1m", for = "1m" } }
index_writes = { ByStatus = "insert" }
"#;

/// (what, replace this, with this, expected key path, expected words in the message, line)
const CASES: &[(&str, &str, &str, &str, &str, usize)] = &[
    ("TOML syntax", "duration = \"10m\"", "duration = \"10m", "", "", 2),
    ("unknown top-level key", "[scenario]", "[scenario]\ncolour = 1", "scenario.colour", "unknown field", 2),
    (
        "unknown nested key",
        "item_bytes = 1000\nrate = { constant = 10 }",
        "item_bytes = 1000\nrate = { constant = 10 }\nsize = 3",
        "pattern[0].size",
        "unknown field",
        25,
    ),
    ("missing duration", "duration = \"10m\"", "", "scenario", "duration", 1),
    ("bad duration text", "\"10m\"", "\"10 minutes\"", "scenario.duration", "unit", 2),
    ("zero duration", "\"10m\"", "\"0s\"", "scenario.duration", "longer than zero", 2),
    ("negative rate", "{ constant = 10 }", "{ constant = -10 }", "pattern[0].rate.constant", ">= 0", 24),
    ("zipf exponent zero", "zipf = 1.1", "zipf = 0.0", "keys.user.popularity.zipf", "above 0", 10),
    (
        "item over 400 KB",
        "item_bytes = 1000\nrate = { constant",
        "item_bytes = 500000\nrate = { constant",
        "pattern[0].item_bytes",
        "400 KB",
        23,
    ),
    (
        "a collection without items",
        "popularity = { zipf = 1.1 }\n",
        "popularity = { zipf = 1.1 }\nsort_keys = { items = 0 }\n",
        "keys.user.sort_keys.items",
        "between 1 and",
        11,
    ),
    (
        "unknown sort-key spread",
        "popularity = { zipf = 1.1 }\n",
        "popularity = { zipf = 1.1 }\nsort_keys = { items = 10, spread = \"oldest\" }\n",
        "keys.user.sort_keys.spread",
        "unknown variant",
        11,
    ),
    (
        "gsi_buffer without buffered back-pressure",
        "read = 100, write = 100 }\n",
        "read = 100, write = 100 }\ngsi_buffer = \"1m\"\n",
        "table.gsi_buffer",
        "gsi_backpressure = \"buffered\"",
        7,
    ),
    (
        "gsi_absorb_bound with synchronous back-pressure",
        "read = 100, write = 100 }\n",
        "read = 100, write = 100 }\ngsi_backpressure = \"sync\"\ngsi_absorb_bound = 1000\n",
        "table.gsi_absorb_bound",
        "gsi_backpressure = \"absorb\"",
        8,
    ),
    (
        "an absorb bound of nothing",
        "read = 100, write = 100 }\n",
        "read = 100, write = 100 }\ngsi_absorb_bound = 0\n",
        "table.gsi_absorb_bound",
        "1 to",
        7,
    ),
    (
        "unknown back-pressure model",
        "read = 100, write = 100 }\n",
        "read = 100, write = 100 }\ngsi_backpressure = \"async\"\n",
        "table.gsi_backpressure",
        "unknown variant",
        7,
    ),
    ("capacity below 1", "read = 100, write = 100", "read = 0, write = 100", "table.capacity.read", "at least 1", 6),
    ("missing key space", "partition_key = \"user\"", "partition_key = \"usr\"", "table.partition_key", "no key space \"usr\"", 5),
    (
        "pattern on missing index",
        "op = \"get_item\"",
        "op = \"query\"\nindex = \"ByDate\"",
        "pattern[0].index",
        "no index named \"ByDate\"",
        23,
    ),
    ("unknown op", "op = \"get_item\"", "op = \"get\"", "pattern[0].op", "unknown variant", 22),
    ("spike starts after the end", "at = \"1m\"", "at = \"1h\"", "pattern[1].rate.spike.at", "after the run ends", 30),
    (
        "hot share above 1",
        "popularity = { zipf = 1.1 }",
        "popularity = { hot = { keys = 3, share = 1.5 } }",
        "keys.user.popularity.hot.share",
        "at most 1",
        10,
    ),
    ("zero cardinality", "cardinality = 1000", "cardinality = 0", "keys.user.cardinality", "at least 1", 9),
    ("negative value weight", "deleted = 0.1", "deleted = -0.1", "keys.status.values.deleted", ">= 0", 13),
    ("duplicate pattern name", "name = \"write\"", "name = \"read\"", "pattern[1].name", "second pattern", 27),
    ("consistency on a write", "op = \"put_item\"", "op = \"put_item\"\nconsistency = \"strong\"", "pattern[1].consistency", "write", 29),
    ("index_writes on a missing index", "ByStatus = \"insert\"", "ByDay = \"insert\"", "pattern[1].index_writes.ByDay", "no GSI named", 31),
    (
        "GSI on a missing key space",
        "partition_key = \"status\"",
        "partition_key = \"state\"",
        "gsi[0].partition_key",
        "no key space \"state\"",
        17,
    ),
    (
        "auto scaling target 95 %",
        "capacity = { mode = \"provisioned\", read = 100, write = 100 }",
        "capacity = { mode = \"provisioned\", read = 100, write = 100 }\nautoscaling = { read = { min = 5, max = 100, target = 95 } }",
        "table.autoscaling.read.target",
        "between 20 and 90",
        7,
    ),
    (
        "auto scaling min above max",
        "capacity = { mode = \"provisioned\", read = 100, write = 100 }",
        "capacity = { mode = \"provisioned\", read = 100, write = 100 }\nautoscaling = { read = { min = 500, max = 100, target = 70 } }",
        "table.autoscaling.read.min",
        "above max",
        7,
    ),
    (
        "unknown retry preset",
        "[[pattern]]\nname = \"read\"",
        "[client]\nretry = \"aggressive\"\n\n[[pattern]]\nname = \"read\"",
        "client.retry",
        "unknown retry preset",
        21,
    ),
    (
        "[[at]] with two actions",
        "[[pattern]]\nname = \"read\"",
        "[[at]]\ntime = \"1m\"\nset_capacity = { read = 5 }\nprewarm = { read = 5 }\n\n[[pattern]]\nname = \"read\"",
        "at[0]",
        "exactly one action",
        20,
    ),
    (
        "[[at]] after the end",
        "[[pattern]]\nname = \"read\"",
        "[[at]]\ntime = \"2h\"\nset_capacity = { read = 5 }\n\n[[pattern]]\nname = \"read\"",
        "at[0].time",
        "not before the end",
        21,
    ),
    (
        "add_gsi of an LSI",
        "[[pattern]]\nname = \"read\"",
        "[[lsi]]\nname = \"ByAmount\"\n\n[[at]]\ntime = \"1m\"\nadd_gsi = \"ByAmount\"\n\n[[pattern]]\nname = \"read\"",
        "at[0].add_gsi",
        "cannot be added later",
        25,
    ),
    ("unknown region", "[scenario]", "[pricing]\nregion = \"mars-north-1\"\n\n[scenario]", "pricing.region", "no price catalog", 2),
    (
        "a reservation of 10^18 WCU (issue 59, item 13: it billed $3.0e14)",
        "[scenario]",
        "[pricing]\nreserved = [{ rcu = 0, wcu = 1000000000000000000, term = \"1y\", start = \"2026-01-01\" }]\n\n[scenario]",
        "pricing.reserved[0].wcu",
        "ceiling",
        2,
    ),
    (
        "negative price",
        "[scenario]",
        "[pricing]\noverrides = { provisioned_wcu_hour = -1.0 }\n\n[scenario]",
        "pricing.overrides.provisioned_wcu_hour",
        ">= 0",
        2,
    ),
    ("trace file missing", "{ constant = 10 }", "{ trace = \"nowhere.csv\" }", "pattern[0].rate.trace", "cannot read the trace file", 24),
    (
        "steps out of order",
        "{ constant = 10 }",
        "{ steps = [[\"0s\", 1], [\"5m\", 2], [\"1m\", 3]] }",
        "pattern[0].rate.steps[2]",
        "increase",
        24,
    ),
    ("too many items for BatchWriteItem", "op = \"put_item\"", "op = \"batch_write\"\nitems = 30", "pattern[1].items", "1 to 25", 29),
    ("a negative storage", "partition_key = \"user\"", "partition_key = \"user\"\nstorage_gb = -3", "table.storage_gb", ">= 0", 6),
    (
        "[[at]] on a missing index",
        "[[pattern]]\nname = \"read\"",
        "[[at]]\ntime = \"1m\"\nindex = \"ByDay\"\nset_capacity = { read = 5 }\n\n[[pattern]]\nname = \"read\"",
        "at[0].index",
        "no GSI named \"ByDay\"",
        22,
    ),
    (
        "split_for_heat threshold above 1",
        "partition_key = \"user\"",
        "partition_key = \"user\"\nsplit_for_heat = { threshold = 1.5 }",
        "table.split_for_heat.threshold",
        "at most 1",
        6,
    ),
    (
        "a closed loop reading a GSI added later",
        "[[pattern]]\nname = \"read\"\nop = \"get_item\"\nitem_bytes = 1000\nrate = { constant = 10 }",
        "[[at]]\ntime = \"1m\"\nadd_gsi = \"ByStatus\"\n\n[[pattern]]\nname = \"read\"\nop = \"query\"\nindex = \"ByStatus\"\nitem_bytes = 1000\nrate = { closed_loop = { threads = 2, total = 100 } }",
        "pattern[0].index",
        "created during the run",
        27,
    ),
    (
        "after_write on a table read",
        "op = \"get_item\"",
        "op = \"get_item\"\nafter_write = \"1s\"",
        "pattern[0].after_write",
        "reads of a GSI",
        23,
    ),
    ("a bad start instant", "duration = \"10m\"", "duration = \"10m\"\nstart = \"next tuesday\"", "scenario.start", "RFC 3339", 3),
    (
        "set_capacity while on-demand",
        "[[pattern]]\nname = \"read\"",
        "[[at]]\ntime = \"1m\"\nswitch_mode = \"on_demand\"\n\n[[at]]\ntime = \"2m\"\nset_capacity = { read = 5 }\n\n[[pattern]]\nname = \"read\"",
        "at[1].set_capacity",
        "on-demand at 2m",
        26,
    ),
    (
        "a switch to provisioned with half its capacity",
        "[[pattern]]\nname = \"read\"",
        "[[at]]\ntime = \"1m\"\nswitch_mode = { to = \"provisioned\", read = 5 }\n\n[[pattern]]\nname = \"read\"",
        "at[0].switch_mode",
        "both `read` and `write`",
        22,
    ),
    (
        "a multi-attribute key of five attributes",
        "partition_key = \"status\"",
        "partition_key = [\"status\", \"user\", \"a\", \"b\", \"c\"]",
        "gsi[0].partition_key",
        "1 to 4 attributes",
        17,
    ),
    (
        "an attribute named twice",
        "partition_key = \"status\"",
        "partition_key = [\"status\", \"status\"]",
        "gsi[0].partition_key[1]",
        "named twice",
        17,
    ),
    (
        "a coverage list of the wrong length",
        "partition_key = \"status\"",
        "partition_key = [\"status\", \"user\"]\ncoverage = [0.5]",
        "gsi[0].coverage",
        "one share per key attribute",
        18,
    ),
];

#[test]
fn the_valid_base_is_valid() {
    parse_str(VALID, Path::new("base.toml")).unwrap();
}

#[test]
fn every_malformed_scenario_is_reported_with_its_place() {
    assert!(CASES.len() >= 20);
    let mut wrong = Vec::new();
    for &(what, from, to, key, words, line) in CASES {
        assert!(VALID.contains(from), "{what}: base lacks {from:?}");
        let text = VALID.replacen(from, to, 1);
        let err = match parse_str(&text, Path::new("bad.toml")) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => e,
        };
        let ScenarioError::Invalid { problems, .. } = &err else { panic!("{what}: {err}") };
        let Some(p) = problems.iter().find(|p| p.key == key || key.is_empty()) else {
            wrong.push(format!("{what}: no problem at {key}: {err}"));
            continue;
        };
        if !p.message.contains(words) || p.line != line {
            wrong.push(format!("{what}: expected line {line} with {words:?}, got {}:{} {:?}", p.line, p.column, p.message));
        }
        let shown = err.to_string();
        assert!(shown.starts_with("bad.toml:"), "{what}: {shown}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn too_many_indexes_are_refused() {
    let mut gsis = String::new();
    for i in 0..21 {
        gsis.push_str(&format!("[[gsi]]\nname = \"G{i}\"\npartition_key = \"status\"\ncapacity = {{ read = 1, write = 1 }}\n"));
    }
    let text = VALID.replacen("[[gsi]]", &format!("{gsis}[[gsi]]"), 1);
    let err = parse_str(&text, Path::new("g.toml")).unwrap_err().to_string();
    assert!(err.contains("at most 20"), "{err}");
    let mut lsis = String::new();
    for i in 0..6 {
        lsis.push_str(&format!("[[lsi]]\nname = \"L{i}\"\n"));
    }
    let err = parse_str(&format!("{VALID}\n{lsis}"), Path::new("l.toml")).unwrap_err().to_string();
    assert!(err.contains("at most 5"), "{err}");
}

#[test]
fn the_switch_limit_is_four_a_day() {
    let mut text = VALID.replace("duration = \"10m\"", "duration = \"2d\"").replace("index_writes = { ByStatus = \"insert\" }\n", "");
    text = text.replace("[[gsi]]\nname = \"ByStatus\"\npartition_key = \"status\"\ncapacity = { read = 10, write = 10 }\n", "");
    for h in 0..5 {
        text.push_str(&format!(
            "\n[[at]]\ntime = \"{}h\"\nswitch_mode = \"on_demand\"\n\n[[at]]\ntime = \"{}h30m\"\nswitch_mode = \"provisioned\"\n",
            h, h
        ));
    }
    let err = parse_str(&text, Path::new("s.toml")).unwrap_err().to_string();
    assert!(err.contains("4 per rolling 24 hours"), "{err}");
    assert!(err.contains("at[8].switch_mode"), "{err}");
}

/// `validate` reports every problem in one pass: an unknown key, an unknown variant of a
/// required value and out-of-range values in five sections, ten problems, each at its line —
/// not one per round.
#[test]
fn every_problem_of_a_file_is_reported_in_one_pass() {
    let text = r#"[scenario]
duration = "10x"
bogus = 1
[table]
name = "T"
partition_key = "nokey"
capacity = { mode = "provisioned", read = -5, write = 100 }
[keys.k]
cardinality = 0
[[gsi]]
name = "G"
partition_key = "missing"
capacity = { read = 1, write = 1 }
[[pattern]]
name = "p"
op = "fly"
item_bytes = 500000
rate = { constant = -3 }
[[pattern]]
name = "p"
op = "get_item"
item_bytes = 100
rate = { constant = 3 }
"#;
    let Err(ScenarioError::Invalid { problems, .. }) = parse_str(text, Path::new("bad.toml")) else { panic!("accepted") };
    let got: Vec<(usize, &str)> = problems.iter().map(|p| (p.line, p.key.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (2, "scenario.duration"),
            (3, "scenario.bogus"),
            (6, "table.partition_key"),
            (7, "table.capacity.read"),
            (9, "keys.k.cardinality"),
            (12, "gsi[0].partition_key"),
            (16, "pattern[0].op"),
            (17, "pattern[0].item_bytes"),
            (18, "pattern[0].rate.constant"),
            (20, "pattern[1].name"),
        ]
    );
    assert!(problems[6].message.contains("unknown variant `fly`"));
}

/// Issue 46: `duration = "5 minutes"` gave three problems: the bad duration, and a spike and an
/// action "after the run ends (1s)", false (the run's length was unknown, not one second). One
/// problem now, the duration's.
#[test]
fn a_bad_duration_is_one_problem() {
    let text = "[scenario]\nduration = \"5 minutes\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"on_demand\" }\n\
                [keys.k]\ncardinality = 1000\n[[pattern]]\nname = \"p\"\nop = \"get_item\"\n\
                rate = { spike = { base = 10, peak = 100, at = \"10m\", for = \"1m\" } }\n\
                [[at]]\ntime = \"20m\"\nscale_rate = { pattern = \"p\", factor = 2 }\n";
    match ddbsim::scenario::parse_str(text, std::path::Path::new("d.toml")) {
        Err(ddbsim::ScenarioError::Invalid { problems, .. }) => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].key, "scenario.duration");
            assert!(problems[0].message.contains("unknown unit"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
}
