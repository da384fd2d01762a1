//! `[account]`: the Region's provisioned-capacity quotas, each at least what the table and its
//! GSIs provision at the start.

use super::Validator;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::RawAccount;
use crate::scenario::{defaults, AccountSpec, CapacitySpec, NoteKind, Scenario};

impl Validator<'_, '_> {
    /// The quotas of `raw`: a quota stated below what `sc`'s table and GSIs provision at the
    /// start is refused (AWS would have refused the CreateTable or UpdateTable that set it); a
    /// default below it is raised to it, with an assumption note.
    /// An on-demand table's and its GSIs' throughput quota is the table-level quota unless
    /// `capacity.table_quota` states it.
    pub(super) fn account(&mut self, raw: &RawAccount, sc: &mut Scenario) -> AccountSpec {
        let at = KeyPath::root().key("account");
        let provisioned = sc.provisioned_at_start();
        let mut quota = |key: &str, stated: Option<i64>, default: u64, d: usize, scope: &str| {
            let at = at.key(key);
            let unit = ["RCU", "WCU"][d];
            let have = provisioned[d];
            match stated {
                Some(x) => {
                    let q = self.units(&at, x, "a capacity quota");
                    if q < have {
                        self.err(
                            &at,
                            format!(
                                "the {scope} quota of {q} {unit} is below the {have} {unit} the table and its GSIs provision at the start: AWS refuses the UpdateTable that would set them"
                            ),
                        );
                    }
                    q
                }
                None if have > default => {
                    // Said where the capacity is, as the quota's key is not in the file.
                    let capacity = KeyPath::root().key("table").key("capacity");
                    self.note(
                        NoteKind::Assumption,
                        &capacity,
                        format!("the {scope} quota ([account] {key}) is taken as raised to {have} {unit}, what the table and its GSIs provision at the start (AWS's default is {default})"),
                    );
                    have
                }
                None => default,
            }
        };
        let max = [
            quota("max_read_capacity_units", raw.max_read_capacity_units, defaults::ACCOUNT_MAX_UNITS, 0, "account-level"),
            quota("max_write_capacity_units", raw.max_write_capacity_units, defaults::ACCOUNT_MAX_UNITS, 1, "account-level"),
        ];
        let table_max = [
            quota("table_max_read_capacity_units", raw.table_max_read_capacity_units, defaults::TABLE_MAX_UNITS, 0, "table-level"),
            quota("table_max_write_capacity_units", raw.table_max_write_capacity_units, defaults::TABLE_MAX_UNITS, 1, "table-level"),
        ];
        let mut count = |key: &str, stated: Option<i64>, default: u64| match stated {
            Some(n) if n < 1 => {
                self.err(&at.key(key), format!("at least 1, not {n}"));
                1
            }
            Some(n) => n.unsigned_abs(),
            None => default,
        };
        let tables = count("max_tables", raw.max_tables, defaults::ACCOUNT_MAX_TABLES);
        let operations = count("max_table_operations", raw.max_table_operations, defaults::ACCOUNT_MAX_TABLE_OPERATIONS);
        let stated = |v: &Self, path: KeyPath| v.locator.has(&path.key("capacity").key("table_quota"));
        let table_stated = stated(self, KeyPath::root().key("table"));
        let gsis_stated: Vec<bool> = (0..sc.gsis.len()).map(|g| stated(self, KeyPath::root().key("gsi").index(g))).collect();
        let capacities =
            std::iter::once((&mut sc.table.capacity, table_stated)).chain(sc.gsis.iter_mut().map(|g| &mut g.capacity).zip(gsis_stated));
        for (capacity, stated) in capacities {
            if let (CapacitySpec::OnDemand { table_quota, .. }, false) = (capacity, stated) {
                *table_quota = table_max;
            }
        }
        AccountSpec { max, table_max, tables, operations }
    }
}
