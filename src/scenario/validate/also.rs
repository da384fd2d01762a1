//! `[[pattern.also]]` and `[pattern.then]`: a transaction's items in other tables of the
//! account, and the write that follows a read in another table, as far as one file can check
//! them (their names are resolved when the account is joined,
//! [`crate::scenario::join_account`]).

use super::Validator;
use crate::limits::MAX_TRANSACT_ITEMS;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawAlso, RawIndexWrite, RawOp, RawPattern};
use crate::scenario::{AlsoSpec, IndexWrite, Op};

impl Validator<'_, '_> {
    /// The `also` items of pattern `p` (of `op`, with `items` of its own): only a
    /// `transact_write` has them, only a table read as part of an account may name other
    /// tables, and the transaction holds at most 100 items in all.
    pub(super) fn also(&mut self, at: &KeyPath, p: &RawPattern, op: Op, items: u64) -> Vec<AlsoSpec> {
        if p.also.is_empty() {
            return Vec::new();
        }
        let first = at.key("also").index(0);
        if op != Op::TransactWrite {
            self.err(&first, format!("items in other tables belong to a transact_write; this pattern is {}", op.api_name()));
            return Vec::new();
        }
        if !self.in_account(&first.key("table"), &p.also[0].table) {
            return Vec::new();
        }
        let out: Vec<AlsoSpec> = p.also.iter().enumerate().map(|(k, a)| self.other_item(&at.key("also").index(k), a)).collect();
        let total = out.iter().fold(items, |t, a| t.saturating_add(a.items));
        if total > MAX_TRANSACT_ITEMS {
            self.err(
                &first,
                format!("a TransactWriteItems holds at most {MAX_TRANSACT_ITEMS} items; this one holds {total} over its tables"),
            );
        }
        out
    }

    /// The write that follows each answered `get_item` of pattern `p` in another table: one
    /// item.
    pub(super) fn then(&mut self, at: &KeyPath, p: &RawPattern, op: Op) -> Option<AlsoSpec> {
        let a = p.then.as_ref()?;
        let tp = at.key("then");
        if op != Op::GetItem {
            self.err(&tp, format!("a write that follows a read follows a get_item; this pattern is {}", op.api_name()));
            return None;
        }
        if !self.in_account(&tp.key("table"), &a.table) {
            return None;
        }
        let spec = self.other_item(&tp, a);
        if spec.items != 1 {
            self.err(&tp.key("items"), "the write that follows a read is one item (a put_item, update_item or delete_item)");
        }
        Some(spec)
    }

    /// Is this file read as a table of an account? Otherwise naming `table` is refused.
    fn in_account(&mut self, at: &KeyPath, table: &str) -> bool {
        if !self.options.in_account {
            self.err(
                at,
                format!(
                    "this pattern writes table \"{table}\" too: run the tables together as one account, each table's file in one \
                     folder (`ddbsim run FOLDER`); alone, this table would be simulated without the other's throttling"
                ),
            );
        }
        self.options.in_account
    }

    /// Items `a` in another table, at `ap`.
    fn other_item(&mut self, ap: &KeyPath, a: &RawAlso) -> AlsoSpec {
        self.shown_name(&ap.key("table"), &a.table);
        let op = match a.op.unwrap_or(RawOp::PutItem) {
            RawOp::PutItem => Op::PutItem,
            RawOp::UpdateItem => Op::UpdateItem,
            RawOp::DeleteItem => Op::DeleteItem,
            other => {
                self.err(
                    &ap.key("op"),
                    format!("an item written in another table is a put_item, update_item or delete_item, not {other:?}"),
                );
                Op::PutItem
            }
        };
        let items = a.items.unwrap_or(1);
        if items == 0 {
            self.err(&ap.key("items"), "at least 1 item");
        }
        let index_writes = a
            .index_writes
            .iter()
            .filter_map(|(name, kind)| {
                let w = match kind {
                    RawIndexWrite::Insert => Some(IndexWrite::Insert),
                    RawIndexWrite::KeyChange => Some(IndexWrite::KeyChange),
                    RawIndexWrite::Update => Some(IndexWrite::Update),
                    RawIndexWrite::RemoveKey => Some(IndexWrite::Remove),
                    RawIndexWrite::None => None,
                    RawIndexWrite::Move(_) | RawIndexWrite::InsertAt(_) => {
                        self.err(
                            &ap.key("index_writes").key(name),
                            "an item in another table writes \"insert\", \"key_change\", \"update\" or \"none\" (values of another table's \
                             keys are not named here)",
                        );
                        return None;
                    }
                };
                Some((name.clone(), w))
            })
            .collect();
        AlsoSpec {
            table: a.table.clone(),
            op,
            key: a.key.clone(),
            size: self.item_size(&ap.key("item_bytes"), a.item_bytes.as_ref()).0,
            items,
            index_writes,
            leg: None,
        }
    }
}
