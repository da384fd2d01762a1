//! Tables read as one account (`ddbsim run DIR`): the checks that span them, and the Region's
//! account-level quota they share.

use super::locate::{KeyPath, Locator};
use super::{defaults, Scenario};
use std::collections::BTreeMap;

/// `file:line:column: key` of `key` (dotted) in table `sc`'s file.
fn at(sc: &Scenario, key: &str) -> String {
    let mut path = KeyPath::root();
    for k in key.split('.') {
        path = path.key(k);
    }
    super::transactions::at_path(sc, &path)
}

/// Is `[account] key` written in `sc`'s file?
fn stated(sc: &Scenario, key: &str) -> bool {
    Locator::new(&sc.source_text).has(&KeyPath::root().key("account").key(key))
}

/// Joins `tables` into one account. Refused, with file, line and key: a table name twice in a
/// Region, tables that do not share one clock (start and duration), an account-level quota
/// stated differently by two tables of a Region, or stated below what the Region's tables
/// provision together at the start. An account-level quota no table states is AWS's default,
/// raised to that sum when it is more (the returned notes say so); every table of a Region
/// then carries its Region's quota. A transaction's items in another table
/// (`[[pattern.also]]`) are resolved against that table, which must be in the account and in
/// the owner's Region.
///
/// # Errors
/// Every problem found, one a line.
pub fn join_account(tables: &mut [Scenario]) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let mut names: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (i, sc) in tables.iter().enumerate() {
        if let Some(&j) = names.get(&(sc.pricing.region.as_str(), sc.table.name.as_str())) {
            problems.push(format!(
                "{}: a second table named \"{}\" in {} (also {}): an account holds one table of a name in a Region",
                at(sc, "table.name"),
                sc.table.name,
                sc.pricing.region,
                tables[j].source_path.display()
            ));
        }
        names.insert((sc.pricing.region.as_str(), sc.table.name.as_str()), i);
        let first = &tables[0];
        if sc.start_unix_s != first.start_unix_s {
            problems.push(format!(
                "{}: the tables of an account share one clock: this start differs from {}'s",
                at(sc, "scenario.start"),
                first.source_path.display()
            ));
        }
        if sc.duration != first.duration {
            problems.push(format!(
                "{}: the tables of an account share one clock: this duration differs from {}'s",
                at(sc, "scenario.duration"),
                first.source_path.display()
            ));
        }
    }
    let regions: Vec<String> = {
        let mut r: Vec<String> = tables.iter().map(|t| t.pricing.region.clone()).collect();
        r.sort();
        r.dedup();
        r
    };
    for region in &regions {
        let members: Vec<usize> = (0..tables.len()).filter(|&i| &tables[i].pricing.region == region).collect();
        // One limit on table operations in flight in a Region: the least any table states.
        let operations = members.iter().map(|&i| tables[i].account.operations).min().unwrap_or(defaults::ACCOUNT_MAX_TABLE_OPERATIONS);
        for &i in &members {
            tables[i].account.operations = operations;
        }
        // The table count: CreateTable past the quota fails (LimitExceededException).
        let quota = members.iter().map(|&i| tables[i].account.tables).min().unwrap_or(defaults::ACCOUNT_MAX_TABLES);
        if members.len() as u64 > quota {
            let i = members.iter().copied().min_by_key(|&i| tables[i].account.tables).expect("a member");
            problems.push(format!(
                "{}: {} tables in {region}, past the account's quota of {quota} tables per Region: the CreateTable of one more fails",
                if stated(&tables[i], "max_tables") {
                    at(&tables[i], "account.max_tables")
                } else {
                    tables[i].source_path.display().to_string()
                },
                members.len()
            ));
        }
        for (d, (unit, key)) in [("RCU", "max_read_capacity_units"), ("WCU", "max_write_capacity_units")].into_iter().enumerate() {
            let total: u64 = members.iter().map(|&i| tables[i].provisioned_at_start()[d]).sum();
            let stating: Vec<usize> = members.iter().copied().filter(|&i| stated(&tables[i], key)).collect();
            let quota = match stating.first() {
                Some(&f) => {
                    let q = tables[f].account.max[d];
                    for &i in &stating[1..] {
                        if tables[i].account.max[d] != q {
                            problems.push(format!(
                                "{}: {} {unit} here, {q} in {}: an account has one quota in a Region",
                                at(&tables[i], &format!("account.{key}")),
                                tables[i].account.max[d],
                                tables[f].source_path.display()
                            ));
                        }
                    }
                    if q < total {
                        problems.push(format!(
                            "{}: the account-level quota of {q} {unit} is below the {total} {unit} the tables of {region} provision together at the start",
                            at(&tables[f], &format!("account.{key}"))
                        ));
                    }
                    q
                }
                None if total > defaults::ACCOUNT_MAX_UNITS => {
                    notes.push(format!(
                        "assumption: {region}'s account-level quota ([account] {key}) is taken as raised to {total} {unit}, what its tables provision together at the start (AWS's default is {})",
                        defaults::ACCOUNT_MAX_UNITS
                    ));
                    total
                }
                None => defaults::ACCOUNT_MAX_UNITS,
            };
            for &i in &members {
                tables[i].account.max[d] = quota;
            }
        }
    }
    fleets(tables, &mut problems, &mut notes);
    super::transactions::resolve(tables, &mut problems, &mut notes);
    if problems.is_empty() {
        Ok(notes)
    } else {
        Err(problems.join("\n"))
    }
}

/// Tables that name one client fleet share one client: they must be in one Region (an SDK
/// client calls one) and state the same `[client]`; the notes name each fleet's tables.
fn fleets(tables: &[Scenario], problems: &mut Vec<String>, notes: &mut Vec<String>) {
    let mut names: Vec<&str> = tables.iter().filter_map(|t| t.client_fleet.as_deref()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let members: Vec<&Scenario> = tables.iter().filter(|t| t.client_fleet.as_deref() == Some(name)).collect();
        let first = members[0];
        for t in &members[1..] {
            if t.pricing.region != first.pricing.region {
                problems.push(format!(
                    "{}: client fleet \"{name}\" is in {} and in {} ({}): an SDK client calls one Region",
                    at(t, "client.fleet"),
                    t.pricing.region,
                    first.pricing.region,
                    first.source_path.display()
                ));
            } else if t.client != first.client {
                problems.push(format!(
                    "{}: client fleet \"{name}\" is one client: this [client] differs from {}'s",
                    at(t, "client.fleet"),
                    first.source_path.display()
                ));
            }
        }
        if members.len() > 1 {
            let list: Vec<&str> = members.iter().map(|t| t.table.name.as_str()).collect();
            notes.push(format!(
                "client fleet \"{name}\": tables {} share one client ({} SDK instance(s), their retry quotas shared)",
                list.join(", "),
                first.client.instances
            ));
        }
    }
}
