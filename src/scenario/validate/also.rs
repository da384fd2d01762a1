//! `[[pattern.also]]`: a transaction's items in other tables of the account, as far as one
//! file can check them (their names are resolved when the account is joined,
//! [`crate::scenario::join_account`]).

use super::Validator;
use crate::limits::MAX_TRANSACT_ITEMS;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawIndexWrite, RawOp, RawPattern};
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
        if !self.options.in_account {
            self.err(
                &first.key("table"),
                format!(
                    "this transaction writes table \"{}\" too: run the tables together as one account, each table's file in one \
                     folder (`ddbsim run FOLDER`); alone, this table would be simulated without the other's throttling",
                    p.also[0].table
                ),
            );
            return Vec::new();
        }
        let mut total = items;
        let mut out = Vec::new();
        for (k, a) in p.also.iter().enumerate() {
            let ap = at.key("also").index(k);
            self.shown_name(&ap.key("table"), &a.table);
            let leg_op = match a.op.unwrap_or(RawOp::PutItem) {
                RawOp::PutItem => Op::PutItem,
                RawOp::UpdateItem => Op::UpdateItem,
                RawOp::DeleteItem => Op::DeleteItem,
                other => {
                    self.err(&ap.key("op"), format!("an item of a TransactWriteItems is a put_item, update_item or delete_item, not {other:?}"));
                    Op::PutItem
                }
            };
            let n = a.items.unwrap_or(1);
            if n == 0 {
                self.err(&ap.key("items"), "at least 1 item");
            }
            total = total.saturating_add(n);
            let index_writes = a
                .index_writes
                .iter()
                .filter_map(|(name, kind)| {
                    let w = match kind {
                        RawIndexWrite::Insert => Some(IndexWrite::Insert),
                        RawIndexWrite::KeyChange => Some(IndexWrite::KeyChange),
                        RawIndexWrite::Update => Some(IndexWrite::Update),
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
            out.push(AlsoSpec {
                table: a.table.clone(),
                op: leg_op,
                key: a.key.clone(),
                size: self.item_size(&ap.key("item_bytes"), a.item_bytes.as_ref()),
                items: n,
                index_writes,
                leg: None,
            });
        }
        if total > MAX_TRANSACT_ITEMS {
            self.err(&first, format!("a TransactWriteItems holds at most {MAX_TRANSACT_ITEMS} items; this one holds {total} over its tables"));
        }
        out
    }
}
