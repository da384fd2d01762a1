//! Transactions that span the tables of an account (`[[pattern.also]]`): each item listed in
//! another table is resolved against that table when the account is joined — its key space,
//! its GSIs' index writes — into a pattern of that table (a leg) the engine charges there.

use super::locate::{KeyPath, Locator};
use super::validate::default_index_write;
use super::{AlsoSpec, IndexWrite, PatternSpec, RateShape, Scenario};
use crate::units::Consistency;

/// `file:line:column: key` of `path` in table `sc`'s file.
pub(super) fn at_path(sc: &Scenario, path: &KeyPath) -> String {
    let (line, column) = Locator::new(&sc.source_text).line_col_of(path);
    format!("{}:{line}:{column}: {path}", sc.source_path.display())
}

/// Resolves every `also` item and `then` write of `tables`: the table it names must be
/// another table of the account in the owner's Region, and its key and index names that
/// table's. Problems and notes, one a line, with file, line and key.
pub(super) fn resolve(tables: &mut [Scenario], problems: &mut Vec<String>, notes: &mut Vec<String>) {
    for i in 0..tables.len() {
        for j in 0..tables[i].patterns.len() {
            let base = KeyPath::root().key("pattern").index(j);
            let mut items: Vec<(Option<usize>, KeyPath)> =
                (0..tables[i].patterns[j].also.len()).map(|k| (Some(k), base.key("also").index(k))).collect();
            if tables[i].patterns[j].then.is_some() {
                items.push((None, base.key("then")));
            }
            for (k, at) in items {
                let p = &tables[i].patterns[j];
                let a = match k {
                    Some(k) => &p.also[k],
                    None => p.then.as_ref().expect("listed"),
                };
                match leg(tables, i, &p.name, a, &at) {
                    Ok((b, spec)) => {
                        if !tables[b].lsis.is_empty() {
                            notes.push(format!(
                                "{}: assumption: table \"{}\" has LSIs; these items are charged for them, but the 10 GB limit of their item \
                                 collections is tracked for the table's own patterns only",
                                at_path(&tables[i], &at.key("table")),
                                tables[b].table.name
                            ));
                        }
                        let p = &mut tables[i].patterns[j];
                        let a = match k {
                            Some(k) => &mut p.also[k],
                            None => p.then.as_mut().expect("listed"),
                        };
                        a.leg = Some((b, Box::new(spec)));
                    }
                    Err(e) => problems.push(e),
                }
            }
        }
    }
}

/// Items `a` of pattern `pattern` of table `i` as a pattern of their table: (that table's
/// position, the leg).
fn leg(tables: &[Scenario], i: usize, pattern: &str, a: &AlsoSpec, at: &KeyPath) -> Result<(usize, PatternSpec), String> {
    let owner = &tables[i];
    let region = &owner.pricing.region;
    let Some(b) = tables.iter().position(|t| t.table.name == a.table && &t.pricing.region == region) else {
        let names: Vec<String> = tables.iter().filter(|t| &t.pricing.region == region).map(|t| format!("\"{}\"", t.table.name)).collect();
        let elsewhere = tables
            .iter()
            .find(|t| t.table.name == a.table)
            .map(|t| format!(" (a table of that name is in {}: a transaction stays in one Region)", t.pricing.region))
            .unwrap_or_default();
        return Err(format!(
            "{}: no table \"{}\" in this account's {region}{elsewhere}; its tables there: {}",
            at_path(owner, &at.key("table")),
            a.table,
            names.join(", ")
        ));
    };
    if b == i {
        return Err(format!(
            "{}: \"{}\" is this pattern's own table: give its items with the pattern's `items`",
            at_path(owner, &at.key("table")),
            a.table
        ));
    }
    let other = &tables[b];
    let key_space = match &a.key {
        None => other.table.partition_key,
        Some(name) => other.key_spaces.iter().position(|ks| &ks.name == name).ok_or_else(|| {
            let known: Vec<&str> = other.key_spaces.iter().map(|ks| ks.name.as_str()).collect();
            format!(
                "{}: table \"{}\" has no key space \"{name}\" (its keys: {})",
                at_path(owner, &at.key("key")),
                a.table,
                known.join(", ")
            )
        })?,
    };
    let mut index_writes: Vec<(usize, IndexWrite)> = Vec::new();
    for (g, gsi) in other.gsis.iter().enumerate() {
        let named = a.index_writes.iter().find(|w| w.0 == gsi.name);
        let w = match named {
            Some((_, w)) => *w,
            None => default_index_write(a.op, gsi.projection),
        };
        if let Some(w) = w {
            index_writes.push((g, w));
        }
    }
    if let Some((name, _)) = a.index_writes.iter().find(|w| !other.gsis.iter().any(|g| g.name == w.0)) {
        let known: Vec<&str> = other.gsis.iter().map(|g| g.name.as_str()).collect();
        return Err(format!(
            "{}: table \"{}\" has no GSI \"{name}\" (its GSIs: {})",
            at_path(owner, &at.key("index_writes").key(name)),
            a.table,
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        ));
    }
    Ok((
        b,
        PatternSpec {
            name: format!("{pattern} in {}", a.table),
            op: a.op,
            entity: None,
            key_space: Some(key_space),
            index: None,
            replica: None,
            size: a.size,
            items: a.items,
            consistency: Consistency::Strong,
            rate: RateShape::Constant(0.0),
            index_writes,
            gsi_entry_bytes: Vec::new(),
            lsi_entries: None,
            after_write: None,
            condition_fails: 0.0,
            limit: None,
            segments: 1,
            fanout_all: None,
            bulk: None,
            also: Vec::new(),
            then: None,
        },
    ))
}
