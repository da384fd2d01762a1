//! `ddbsim size ITEM.json`: an item's bytes by DynamoDB's rules, its read and write units, and
//! each index entry's, for a user who only wants the arithmetic.

use super::super::args::SizeArgs;
use super::CliError;
use crate::item_size::Item;
use crate::limits::MAX_ITEM_BYTES;
use crate::units::{self, Consistency};
use serde::Serialize;

/// Bytes an item file may take (an item is at most 400 KB; its JSON, with base64 and names,
/// a few times that).
const ITEM_FILE_BYTES: u64 = 16 << 20;
/// Bytes of storage overhead per item and per index entry (spec §1.1, GSI.md).
const STORED_OVERHEAD: u64 = 100;

/// What an index projects besides the keys.
enum Projection {
    KeysOnly,
    All,
    Include(Vec<String>),
}

/// An index as `--index NAME:KEY[,SORT][:PROJECTION]` gives it.
struct IndexArg {
    name: String,
    keys: Vec<String>,
    projection: Projection,
}

impl IndexArg {
    fn parse(s: &str) -> Result<Self, CliError> {
        let bad = |why: &str| {
            CliError::Argument(format!(
                "--index {s:?}: {why}; give NAME:KEY[,SORT][:keys_only|all|include=ATTR,...], e.g. ByStatus:status,created:include=total"
            ))
        };
        let mut parts = s.splitn(3, ':');
        let name = parts.next().filter(|n| !n.is_empty()).ok_or_else(|| bad("no index name"))?;
        let keys: Vec<String> = parts.next().unwrap_or("").split(',').filter(|k| !k.is_empty()).map(str::to_owned).collect();
        if keys.is_empty() || keys.len() > 8 {
            return Err(bad("an index has 1 to 8 key attributes (up to 4 partition and 4 sort)"));
        }
        let projection = match parts.next().unwrap_or("keys_only") {
            "keys_only" => Projection::KeysOnly,
            "all" => Projection::All,
            p => match p.strip_prefix("include=") {
                Some(list) if !list.is_empty() => Projection::Include(list.split(',').map(str::to_owned).collect()),
                _ => return Err(bad(&format!("{p:?} is not a projection"))),
            },
        };
        Ok(Self { name: name.to_string(), keys, projection })
    }
}

#[derive(Serialize)]
struct ReadUnits {
    eventual: f64,
    strong: f64,
    transactional: f64,
}

#[derive(Serialize)]
struct WriteUnits {
    standard: f64,
    transactional: f64,
}

#[derive(Serialize)]
struct IndexEntry {
    name: String,
    /// The item carries every key attribute of the index (else no entry: a sparse index).
    written: bool,
    missing: Vec<String>,
    entry_bytes: u64,
    write_units: f64,
    stored_bytes: u64,
}

#[derive(Serialize)]
struct SizeDoc {
    item: String,
    bytes: u64,
    stored_bytes: u64,
    read_units: ReadUnits,
    write_units: WriteUnits,
    indexes: Vec<IndexEntry>,
}

fn units(milli: u64) -> f64 {
    milli as f64 / 1_000.0
}

/// The `size` command.
pub(in crate::cli) fn size(a: &SizeArgs) -> Result<(), CliError> {
    let shown = a.item.display().to_string();
    let text = crate::input::read_text_capped(&a.item, ITEM_FILE_BYTES, "an item")
        .map_err(|e| CliError::Argument(format!("{shown}: cannot read the item: {e}")))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CliError::Argument(format!("{shown}:{}:{}: not JSON: {e}", e.line(), e.column())))?;
    let item = Item::from_json(&doc).map_err(|e| CliError::Argument(format!("{shown}: {e}")))?;
    let bytes = item.checked_bytes().map_err(|e| CliError::Argument(format!("{shown}: {e}")))?;
    let indexes: Vec<IndexArg> = a.indexes.iter().map(|s| IndexArg::parse(s)).collect::<Result<_, _>>()?;
    for k in &a.keys {
        if !item.has(k) {
            return Err(CliError::Argument(format!("{shown}: the item has no `{k}`, which --key names: an item carries the table's keys")));
        }
    }
    let entries = indexes.iter().map(|ix| entry(&item, &a.keys, ix)).collect();
    let doc = SizeDoc {
        item: shown,
        bytes,
        stored_bytes: bytes + STORED_OVERHEAD,
        read_units: ReadUnits {
            eventual: units(units::get_item_milli(bytes, Consistency::Eventual)),
            strong: units(units::get_item_milli(bytes, Consistency::Strong)),
            transactional: units(units::get_item_milli(bytes, Consistency::Transactional)),
        },
        write_units: WriteUnits {
            standard: units(units::write_milli(bytes)),
            transactional: units(units::transact_write_item_milli(bytes)),
        },
        indexes: entries,
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&doc).expect("serialisable"));
    } else {
        print!("{}", text_of(&doc));
    }
    Ok(())
}

/// Index `ix`'s entry for `item` of a table keyed on `table_keys`: the table's and the
/// index's keys and what it projects (spec: GSI.md, an entry is sized like an item and its
/// write rounded up to 1 KB).
fn entry(item: &Item, table_keys: &[String], ix: &IndexArg) -> IndexEntry {
    let missing: Vec<String> = ix.keys.iter().filter(|k| !item.has(k)).cloned().collect();
    let mut names: Vec<&str> = table_keys.iter().chain(&ix.keys).map(String::as_str).collect();
    match &ix.projection {
        Projection::KeysOnly => {}
        Projection::All => names.extend(item.names()),
        Projection::Include(attrs) => names.extend(attrs.iter().map(String::as_str)),
    }
    let written = missing.is_empty();
    let entry_bytes = if written { item.bytes_of(names) } else { 0 };
    IndexEntry {
        name: ix.name.clone(),
        written,
        missing,
        entry_bytes,
        write_units: if written { units(units::write_milli(entry_bytes)) } else { 0.0 },
        stored_bytes: if written { entry_bytes + STORED_OVERHEAD } else { 0 },
    }
}

fn text_of(d: &SizeDoc) -> String {
    let n = |x: f64| format!("{x}");
    let mut s = format!(
        "{}: {} bytes (limit {MAX_ITEM_BYTES}); {} stored with the 100-byte overhead\n  read:  {} RCU eventually consistent, {} strongly, {} transactional (4 KB blocks)\n  write: {} WCU, {} transactional (1 KB blocks)\n",
        d.item,
        d.bytes,
        d.stored_bytes,
        n(d.read_units.eventual),
        n(d.read_units.strong),
        n(d.read_units.transactional),
        n(d.write_units.standard),
        n(d.write_units.transactional)
    );
    for e in &d.indexes {
        if e.written {
            s.push_str(&format!(
                "  index {}: entry {} bytes, {} WCU a write of it, {} stored\n",
                e.name,
                e.entry_bytes,
                n(e.write_units),
                e.stored_bytes
            ));
        } else {
            s.push_str(&format!(
                "  index {}: no entry (the item has no {}: a sparse index skips it)\n",
                e.name,
                e.missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    s
}
