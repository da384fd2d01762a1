//! `[[replica]]`: a global table's replicas, and the region sets of multi-region strong
//! consistency.

use super::{Validator, KNOWN_REGIONS};
use crate::limits::MAX_CAPACITY_UNITS;
use crate::scenario::locate::KeyPath;
use crate::scenario::{CapacitySpec, ReplicaSpec, TableSpec};

/// The region sets of multi-region strong consistency: a table, its replicas and its witness
/// all in one (the DynamoDB API reference, CreateGlobalTableWitnessGroupMemberAction).
const MRSC_REGION_SETS: [(&str, &[&str]); 3] = [
    ("US", &["us-east-1", "us-east-2", "us-west-2"]),
    ("EU", &["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"]),
    ("AP", &["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"]),
];

fn mrsc_sets() -> String {
    MRSC_REGION_SETS.iter().map(|(name, set)| format!("{name}: {}", set.join(", "))).collect::<Vec<_>>().join("; ")
}

impl Validator<'_, '_> {
    /// `[[replica]]`: known regions other than the table's, each once.
    pub(super) fn replicas(
        &mut self,
        root: &KeyPath,
        raw: &[crate::scenario::raw::RawReplica],
        table: &TableSpec,
        home: &str,
    ) -> Vec<ReplicaSpec> {
        let mut out: Vec<ReplicaSpec> = Vec::new();
        for (i, r) in raw.iter().enumerate() {
            let at = root.key("replica").index(i);
            if !KNOWN_REGIONS.contains(&r.region.as_str()) {
                self.err(&at.key("region"), format!("no price catalog for region \"{}\"; known: {}", r.region, KNOWN_REGIONS.join(", ")));
            } else if r.region == home {
                self.err(
                    &at.key("region"),
                    format!("\"{home}\" is the table's own region ([pricing] region); a replica is in another region"),
                );
            } else if out.iter().any(|o| o.region == r.region) {
                self.err(&at.key("region"), format!("a second replica in \"{}\": a global table has one replica per region", r.region));
            }
            if let Some(rcu) = r.read_capacity {
                if !matches!(table.capacity, CapacitySpec::Provisioned { .. }) {
                    self.err(&at.key("read_capacity"), "read capacity is provisioned capacity; this table is on-demand");
                } else if rcu == 0 || rcu > MAX_CAPACITY_UNITS {
                    self.err(&at.key("read_capacity"), format!("1 to {MAX_CAPACITY_UNITS} RCU, not {rcu}"));
                }
            }
            out.push(ReplicaSpec { region: r.region.clone(), read_capacity: r.read_capacity });
        }
        // MRSC global tables are deployed in exactly three regions: three replicas, or two and
        // a witness (which holds no table and is not modelled).
        if table.mrsc_write_latency.is_some() && !(1..=2).contains(&out.len()) {
            self.err(
                &root.key("table").key("multi_region_strong"),
                format!(
                    "multi-region strong consistency needs three regions: the table and two [[replica]]s, or one and a witness; this table has {} replica(s)",
                    out.len()
                ),
            );
        }
        if table.mrsc_write_latency.is_some() {
            self.mrsc_region_set(&root.key("table").key("multi_region_strong"), home, &out);
        }
        out
    }

    /// An MRSC global table's regions (and witness) are all in one of AWS's region sets (the
    /// DynamoDB API reference, CreateGlobalTableWitnessGroupMemberAction).
    fn mrsc_region_set(&mut self, at: &KeyPath, home: &str, replicas: &[ReplicaSpec]) {
        let set_of = |r: &str| MRSC_REGION_SETS.iter().find(|(_, set)| set.contains(&r)).map(|(name, _)| *name);
        let Some(home_set) = set_of(home) else {
            self.err(
                at,
                format!(
                    "multi-region strong consistency is not offered in {home}: its regions are one of AWS's region sets ({})",
                    mrsc_sets()
                ),
            );
            return;
        };
        for r in replicas.iter().filter(|r| set_of(&r.region) != Some(home_set)) {
            self.err(
                at,
                format!(
                    "an MRSC table's regions are all in one region set: {home} is in the {home_set} set, {} is not ({})",
                    r.region,
                    mrsc_sets()
                ),
            );
        }
    }
}
