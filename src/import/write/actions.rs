//! The recorded provisioned capacity's changes, written as the UpdateTables that made them.

use super::{clean, q};
use crate::import::def::TableDef;
use crate::import::metrics::{Grid, Metric};
use crate::model::Dim;
use std::fmt::Write as _;

/// The recorded provisioned capacity's changes, as the UpdateTables that made them, for each
/// provisioned resource without auto scaling (with auto scaling, the simulation scales it).
///
/// A change shows in the minute it completes. When a minute's average lies between the levels
/// before and after it, the change completed within that minute, at the share of the minute the
/// average says; otherwise at the minute's start. Each UpdateTable is issued its latency
/// earlier: `update_latency`, or `partition_add_latency` when the new capacity needs more
/// partitions (`ceil(RCU/3000 + WCU/1000)`, doubling) than the resource had.
pub(super) fn capacity_actions(t: &TableDef, g: &Grid) -> String {
    use crate::scenario::defaults::{PARTITION_ADD_LATENCY, UPDATE_LATENCY};
    let mut out = String::new();
    let resources = std::iter::once((None, t.provisioned.is_some(), t.size_bytes))
        .chain(t.gsis.iter().map(|x| (Some(x.name.as_str()), x.provisioned.is_some(), x.size_bytes)));
    for (index, provisioned, bytes) in resources {
        let scaled = Dim::ALL.iter().any(|&d| t.scaling.contains_key(&(index.map(str::to_string), d)));
        if !provisioned || scaled {
            continue;
        }
        let (Some(r), Some(w)) = (g.get(&Metric::Provisioned(Dim::Read), index), g.get(&Metric::Provisioned(Dim::Write), index)) else {
            continue;
        };
        // (second the change completes, dimension, new units)
        let mut changes: Vec<(u64, Dim, u64)> = Vec::new();
        for (d, v) in [(Dim::Read, &r), (Dim::Write, &w)] {
            let mut level = v[0].round();
            let mut m = 1;
            while m < v.len() {
                let x = v[m];
                if x <= 0.0 || (x - level).abs() < 0.5 {
                    m += 1;
                    continue;
                }
                let next = v.get(m + 1).copied().filter(|n| *n > 0.0 && (n - x).abs() >= 0.5);
                match next {
                    Some(n) if (x - level) * (n - x) > 0.0 => {
                        // Part of minute m at the old level, the rest at the new one.
                        let f = (x - level) / (n - level);
                        changes.push(((m as u64 + 1) * 60 - (f * 60.0).round() as u64, d, n.round() as u64));
                        level = n.round();
                        m += 2;
                    }
                    _ => {
                        changes.push((m as u64 * 60, d, x.round() as u64));
                        level = x.round();
                        m += 1;
                    }
                }
            }
        }
        changes.sort_by_key(|c| (c.0, c.1 as u8));
        let seed_parts = bytes.map_or(1, |b| b.div_ceil(crate::limits::SEED_PARTITION_BYTES)).max(1);
        let needed = |rcu: u64, wcu: u64| (rcu + 3 * wcu).div_ceil(3_000).max(1);
        let (mut rcu, mut wcu) = (r[0].round() as u64, w[0].round() as u64);
        let mut parts = needed(rcu, wcu).max(seed_parts);
        if !changes.is_empty() {
            let _ = writeln!(
                out,
                "\n# The recorded provisioned capacity of {}, as the UpdateTables that set it:",
                clean(index.unwrap_or(&t.name))
            );
        }
        for (at, d, units) in changes {
            if d == Dim::Read {
                rcu = units;
            } else {
                wcu = units;
            }
            let mut latency = UPDATE_LATENCY.as_secs();
            if needed(rcu, wcu) > parts {
                latency = PARTITION_ADD_LATENCY.as_secs();
                while parts < needed(rcu, wcu) {
                    parts *= 2;
                }
            }
            let issue = at.saturating_sub(latency);
            let _ = write!(
                out,
                "[[at]]\ntime = \"{issue}s\"\nset_capacity = {{ {} = {units} }}\n",
                if d == Dim::Read { "read" } else { "write" }
            );
            if let Some(i) = index {
                let _ = writeln!(out, "index = {}", q(i));
            }
        }
    }
    out
}
