//! The sections an import writes from the table's definition: `[scenario]`, `[pricing]`,
//! `[table]`, `[[replica]]`, `[keys.*]`, `[[gsi]]` and `[[lsi]]`.

use super::{
    clean, key, projection, q, scaling_text, Skew, DEFAULT_CARDINALITY, DEFAULT_INDEX_CARDINALITY, DEFAULT_ZIPF, INCLUDE_ATTRIBUTE_BYTES,
};
use crate::import::def::{ProjectionDef, TableDef};
use crate::import::metrics::{Grid, Metric};
use crate::limits::{ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE};
use crate::model::Dim;
use std::fmt::Write as _;

/// `[scenario]`: the window of the history, or an assumed hour.
pub(super) fn scenario_section(s: &mut String, t: &TableDef, grid: Option<&Grid>, stem: &str) {
    s.push_str("\n[scenario]\n");
    let _ = writeln!(s, "name = {}", q(stem));
    match grid {
        Some(g) => {
            let _ = writeln!(s, "description = {}", q(&format!("{} replayed from {} minutes of CloudWatch history", t.name, g.minutes)));
            let _ = writeln!(s, "duration = \"{}m\"", g.minutes);
            let start = time::OffsetDateTime::from_unix_timestamp(g.start).map_or_else(
                |_| "2026-01-01T00:00:00Z".into(),
                |d| format!("{:04}-{:02}-{:02}T{:02}:{:02}:00Z", d.year(), u8::from(d.month()), d.day(), d.hour(), d.minute()),
            );
            let _ = writeln!(s, "start = \"{start}\"");
            // The table's recorded throttle events: recommend warns when an assumed skew prices them.
            let events: f64 =
                Dim::ALL.iter().filter_map(|&d| g.get(&Metric::ThrottleEvents(d), None)).map(|v| v.iter().sum::<f64>() * 60.0).sum();
            if events >= 0.5 {
                let _ = writeln!(s, "recorded_throttle_events = {}", events.round() as u64);
            }
        }
        None => {
            let _ = writeln!(s, "description = {}", q(&format!("{} from its definition", t.name)));
            s.push_str("duration = \"1h\"  # ASSUMPTION: no metrics given; an hour of the traffic below\n");
        }
    }
}

/// `[pricing]`: the table's region when ddbsim has its catalog; returns the region priced.
pub(super) fn pricing_section(s: &mut String, t: &TableDef) -> String {
    // A running table's history is its ordinary traffic: its bill is stated for the window and,
    // labelled, for a month (the default below a day would state the window only).
    s.push_str("\n[pricing]\n");
    s.push_str("extrapolate = \"repeat\"  # ASSUMPTION: this history is the table's usual traffic; \"none\" prices the window alone\n");
    let known = crate::scenario::validate::KNOWN_REGIONS;
    let home = match &t.region {
        Some(r) if known.contains(&r.as_str()) => {
            let _ = writeln!(s, "region = {}", q(r));
            r.clone()
        }
        Some(r) if crate::scenario::validate::AWS_REGIONS.contains(&r.as_str()) => {
            // Priced at its own Region's prices or not at all: never silently at another's.
            let _ = writeln!(s, "region = {}", q(r));
            let _ = writeln!(
                s,
                "# {r} has no built-in price catalog: `ddbsim prices update --region {r}` writes prices/{r}.toml from AWS's Price List; run with `--prices prices`."
            );
            r.clone()
        }
        Some(r) => {
            let _ = writeln!(
                s,
                "# The table is in {}, which has no built-in price catalog: priced at us-east-1's; give `--prices FILE` for its own.",
                clean(r)
            );
            "us-east-1".to_string()
        }
        None => "us-east-1".to_string(),
    };
    home
}

/// `[table]`: keys, capacity (the history's first provisioned value when there is one),
/// auto scaling, class, Contributor Insights, storage and streams.
pub(super) fn table_section(s: &mut String, t: &TableDef, grid: Option<&Grid>) {
    s.push_str("\n[table]\n");
    let _ = writeln!(s, "name = {}", q(&t.name));
    let _ = writeln!(s, "partition_key = {}", q(&t.hash_key));
    let keys: Vec<String> = std::iter::once(&t.hash_key).chain(&t.range_key).map(|k| q(k)).collect();
    let _ = writeln!(s, "key_attributes = [{}]", keys.join(", "));
    // Capacity: the history's first provisioned value when there is one, else the definition's.
    let first_provisioned =
        |d: Dim| grid.and_then(|g| g.get(&Metric::Provisioned(d), None)).and_then(|v| v.first().copied()).filter(|x| *x >= 1.0);
    let base = t
        .provisioned
        .map(|p| [first_provisioned(Dim::Read).map_or(p[0], |x| x as u64), first_provisioned(Dim::Write).map_or(p[1], |x| x as u64)]);
    match base {
        Some([r, w]) => {
            let _ = writeln!(s, "capacity = {{ mode = \"provisioned\", read = {r}, write = {w} }}");
        }
        None => {
            let mut parts = vec!["mode = \"on_demand\"".to_string()];
            if let Some([r, w]) = t.warm {
                parts.push(format!(
                    "warm_read = {}, warm_write = {}",
                    r.max(ON_DEMAND_DEFAULT_WARM_READ),
                    w.max(ON_DEMAND_DEFAULT_WARM_WRITE)
                ));
            }
            if let Some(m) = t.max[0] {
                parts.push(format!("max_read = {m}"));
            }
            if let Some(m) = t.max[1] {
                parts.push(format!("max_write = {m}"));
            }
            let _ = writeln!(s, "capacity = {{ {} }}", parts.join(", "));
        }
    }
    if let Some(a) = scaling_text(t, None, base) {
        let _ = writeln!(s, "autoscaling = {a}");
        if grid.is_some_and(|g| {
            g.get(&Metric::Provisioned(Dim::Read), None).is_some() || g.get(&Metric::Provisioned(Dim::Write), None).is_some()
        }) {
            s.push_str(
                "# The history's provisioned capacity is not replayed for this table: its auto scaling sets capacity in the simulation.\n",
            );
        }
    }
    if t.infrequent_access {
        s.push_str("table_class = \"standard_ia\"\n");
    }
    if let Some(m) = &t.insights {
        let _ = writeln!(s, "contributor_insights = {}", q(m.name()));
    }
    if let Some(b) = t.size_bytes {
        let _ = writeln!(s, "storage_gb = {}  # TableSizeBytes, in GB of 10^9 bytes as billed", b as f64 / 1e9);
    }
    if let Some(days) = t.pitr {
        s.push_str("\n[table.backups]\npitr = true\n");
        if let Some(d) = days {
            let _ = writeln!(s, "recovery_days = {d}  # the period does not change PITR's price");
        }
    }
    if let Some(attr) = &t.ttl_attribute {
        let _ = writeln!(
            s,
            "\n# Time to Live is on (attribute {}); the definition does not say how long items live. To model its\n\
             # deletes (free, no capacity; they shrink storage and reach GSIs and streams), uncomment and set:\n\
             # [table.ttl]\n# after = \"30d\"",
            clean(attr)
        );
    }
    if let Some(v) = &t.stream {
        match v.as_str() {
            "KEYS_ONLY" | "NEW_IMAGE" | "OLD_IMAGE" | "NEW_AND_OLD_IMAGES" => {
                let _ = writeln!(s, "\n[table.streams]\nview = \"{}\"", v.to_ascii_lowercase());
                s.push_str(
                    "consumers = []  # ASSUMPTION: the definition does not name the stream's readers; add { kind = \"lambda\" } (free) \
                     or { kind = \"poller\", poll_interval = \"1s\" } (each GetRecords call billed)\n",
                );
            }
            other => {
                let _ = writeln!(s, "# Streams ({}) are on, with a view type ddbsim does not know: not modelled.", clean(other));
            }
        }
    }
}

/// `[[replica]]`: the other regions of a global table that ddbsim can price.
pub(super) fn replica_sections(s: &mut String, t: &TableDef, home: &str) {
    let known = crate::scenario::validate::KNOWN_REGIONS;
    for (region, read) in &t.replicas {
        if *region == home {
            continue;
        }
        if !known.contains(&region.as_str()) {
            let _ = writeln!(s, "\n# A replica in {} is not modelled: ddbsim has no price catalog for that region.", clean(region));
            continue;
        }
        let _ = writeln!(s, "\n[[replica]]\nregion = {}", q(region));
        if let (Some(r), Some(_)) = (read, t.provisioned) {
            let _ = writeln!(s, "read_capacity = {r}");
        }
    }
}

/// `[keys.*]`: the table's partition key and each GSI's, with their assumed cardinality and
/// skew (or the skew a Contributor Insights report gives).
pub(super) fn key_sections(s: &mut String, t: &TableDef, skews: &[Skew]) {
    let mut spaces: Vec<(String, bool)> = vec![(t.hash_key.clone(), true)];
    for k in t.gsis.iter().flat_map(|g| std::iter::once(&g.hash_key).chain(&g.more_hash_keys)) {
        if !spaces.iter().any(|(s, _)| s == k) {
            spaces.push((k.clone(), false));
        }
    }
    for (k, is_table) in &spaces {
        let _ = writeln!(s, "\n[keys.{}]", key(k));
        let card = if *is_table { t.item_count.filter(|n| *n > 0).unwrap_or(DEFAULT_CARDINALITY) } else { DEFAULT_INDEX_CARDINALITY };
        let from_items = *is_table && t.item_count.is_some_and(|n| n > 0);
        let _ = writeln!(
            s,
            "cardinality = {card}  # ASSUMPTION: {}",
            if from_items {
                "one item per value (ItemCount); fewer values if they hold collections"
            } else {
                "distinct values of this attribute"
            }
        );
        let _ = writeln!(s, "cardinality_from = \"{}\"", if from_items { "item_count" } else { "assumption" });
        match skews.iter().find(|x| &x.key == k) {
            Some(x) if x.share < 1e-4 || x.keys >= card => {
                let _ = writeln!(
                    s,
                    "popularity = \"uniform\"  # from Contributor Insights ({}): its top {} keys took {:.4} % of the traffic",
                    clean(&x.source),
                    x.keys,
                    x.share * 100.0
                );
            }
            Some(x) => {
                let share = (x.share * 1e4).round() / 1e4;
                let _ = writeln!(
                    s,
                    "popularity = {{ hot = {{ keys = {}, share = {share} }} }}  # from Contributor Insights ({}): its top {} keys took {:.2} % of the traffic; the rest spread evenly",
                    x.keys,
                    clean(&x.source),
                    x.keys,
                    share * 100.0
                );
                s.push_str("popularity_from = \"contributor_insights\"\n");
            }
            None => {
                let _ = writeln!(s, "popularity = {{ zipf = {DEFAULT_ZIPF} }}  # ASSUMPTION: a moderate skew; a Contributor Insights top-keys report tells the real one");
                s.push_str(
                    "popularity_from = \"assumption\"  # `ddbsim backtest --calibrate` fits the skew to the history's throttle events\n",
                );
            }
        }
        if *is_table {
            if let Some(rk) = &t.range_key {
                let _ =
                    writeln!(s, "# The table has a sort key ({}): if values hold many items, add sort_keys = {{ items = N }}.", clean(rk));
            }
        }
    }
}

/// `[[gsi]]` and `[[lsi]]`.
pub(super) fn index_sections(s: &mut String, t: &TableDef, grid: Option<&Grid>) {
    for g in &t.gsis {
        let key = if g.more_hash_keys.is_empty() {
            q(&g.hash_key)
        } else {
            let all: Vec<String> = std::iter::once(&g.hash_key).chain(&g.more_hash_keys).map(|k| q(k)).collect();
            format!("[{}]  # a multi-attribute key: its values are the tuples of these attributes' values", all.join(", "))
        };
        let _ = writeln!(s, "\n[[gsi]]\nname = {}\npartition_key = {key}\nprojection = {}", q(&g.name), projection(g.projection));
        let keys: Vec<String> = std::iter::once(&g.hash_key).chain(&g.more_hash_keys).chain(&g.range_key).map(|k| q(k)).collect();
        let _ = writeln!(s, "key_attributes = [{}]", keys.join(", "));
        if let ProjectionDef::Include(n) = g.projection {
            let _ = writeln!(s, "# ASSUMPTION: the {n} included attributes take {INCLUDE_ATTRIBUTE_BYTES} bytes each");
        }
        if let Some(m) = &g.insights {
            let _ = writeln!(s, "contributor_insights = {}", q(m.name()));
        }
        if let Some(b) = g.size_bytes {
            let _ = writeln!(s, "storage_gb = {}  # IndexSizeBytes, in GB of 10^9 bytes as billed", b as f64 / 1e9);
        }
        if grid.is_some_and(|gr| super::unrecorded_reads(t, gr).contains(&g.name)) {
            s.push_str("no_history = [\"read\"]  # ASSUMPTION: the history has no reads of this index, so the scenario sends it none; recommend keeps its read capacity\n");
        }
        // A provisioned table's index is provisioned too; a definition that leaves its capacity
        // out gets the table's (stated as an assumption).
        let own = g.provisioned.or_else(|| {
            let p = t.provisioned?;
            let _ = writeln!(
                s,
                "# ASSUMPTION: the definition gives this index no capacity; it takes the table's ({} RCU / {} WCU)",
                p[0], p[1]
            );
            Some(p)
        });
        let gbase = own.map(|p| {
            let f = |d: Dim| {
                grid.and_then(|gr| gr.get(&Metric::Provisioned(d), Some(&g.name))).and_then(|v| v.first().copied()).filter(|x| *x >= 1.0)
            };
            [f(Dim::Read).map_or(p[0], |x| x as u64), f(Dim::Write).map_or(p[1], |x| x as u64)]
        });
        match gbase {
            Some([r, w]) => {
                let _ = writeln!(s, "capacity = {{ read = {r}, write = {w} }}");
            }
            None => {
                let mut parts = Vec::new();
                if let Some([r, w]) = g.warm {
                    parts.push(format!(
                        "warm_read = {}, warm_write = {}",
                        r.max(ON_DEMAND_DEFAULT_WARM_READ),
                        w.max(ON_DEMAND_DEFAULT_WARM_WRITE)
                    ));
                }
                if let Some(m) = g.max[0] {
                    parts.push(format!("max_read = {m}"));
                }
                if let Some(m) = g.max[1] {
                    parts.push(format!("max_write = {m}"));
                }
                if !parts.is_empty() {
                    let _ = writeln!(s, "capacity = {{ {} }}", parts.join(", "));
                }
            }
        }
        if let Some(a) = scaling_text(t, Some(&g.name), gbase) {
            let _ = writeln!(s, "autoscaling = {a}");
        }
    }
    for l in &t.lsis {
        let _ = writeln!(s, "\n[[lsi]]\nname = {}\nprojection = {}", q(&l.name), projection(l.projection));
    }
}
