//! The metrics of `timeseries.csv`, named as CloudWatch names them where CloudWatch has them.
//! The CSV writer and the charts both use [`Metric`], so they cannot drift apart.

use crate::model::{Dim, Reason};
use crate::scenario::Op;
use std::fmt;

/// One metric of `timeseries.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Metric {
    /// `ConsumedReadCapacityUnits` / `ConsumedWriteCapacityUnits`: Sum over the minute.
    Consumed(Dim),
    /// `RequestedRead/WriteCapacityUnits`: what every attempt asked for (ddbsim's own).
    Requested(Dim),
    /// `ProvisionedRead/WriteCapacityUnits`, for the minutes the resource was provisioned.
    Provisioned(Dim),
    /// `Read/WriteCapacityLimit`: the table-level limit, units per second (ddbsim's own).
    CapacityLimit(Dim),
    /// `WarmRead/WriteThroughput`, units per second.
    WarmThroughput(Dim),
    /// `Read/WriteThrottleEvents`: all reasons.
    ThrottleEvents(Dim),
    /// `Read/Write{Reason}ThroughputThrottleEvents` (`Read/WriteAccountLimitThrottleEvents`):
    /// one `ThrottlingReasons` reason.
    ReasonThrottleEvents(Dim, Reason),
    /// `ThrottledRequests` (the table only).
    ThrottledRequests,
    /// `PartitionCount` (ddbsim's own).
    PartitionCount,
    /// `ReplicationLatencyP99Ms`: GSI propagation delay of the minute's index writes.
    ReplicationLatencyP99Ms,
    /// `OnlineIndexConsumedWriteCapacity`: a GSI backfill's write units.
    OnlineIndexConsumedWriteCapacity,
    /// `OnlineIndexPercentageProgress`.
    OnlineIndexPercentageProgress,
    /// A replica's longest replication wait of the minute beyond the normal latency, ms
    /// (CloudWatch's `ReplicationLatency` adds the normal latency; an estimate).
    ReplicationLagMaxMs,
    /// A replica's replicated write units queued at the end of the minute.
    PendingReplicationUnits,
    /// `ConditionalCheckFailedRequests`: writes whose condition failed (table and replicas).
    ConditionalCheckFailedRequests,
    /// `UserErrors`: HTTP 400s other than failed conditions (writes past the item-collection
    /// limit; ddbsim sends no malformed requests).
    UserErrors,
    /// `SuccessfulRequestLatency` of one operation, statistic `SampleCount`: its successful
    /// requests in the minute.
    SuccessfulRequests(Op),
    /// `SuccessfulRequestLatency` of one operation, statistic `Average`, ms: the service time
    /// (ddbsim's `client.service_time`, plus the multi-region strong write latency).
    SuccessfulRequestLatencyAvgMs(Op),
    /// `LatencyP50Ms` of the client.
    LatencyP50Ms,
    /// `LatencyP99Ms` of the client.
    LatencyP99Ms,
    /// `LatencyMaxMs` of the client.
    LatencyMaxMs,
}

impl Metric {
    /// A metric of the client (its latency), not of a table, GSI or replica: its rows carry
    /// [`CLIENT`] where a resource's carry its name, and a table may be called `client` too,
    /// so the metric is what tells them apart.
    #[must_use]
    pub const fn is_client(self) -> bool {
        matches!(self, Metric::LatencyP50Ms | Metric::LatencyP99Ms | Metric::LatencyMaxMs)
    }
}

/// The `resource` column of the client's rows in `timeseries.csv`.
pub const CLIENT: &str = "client";

fn word(d: Dim) -> &'static str {
    match d {
        Dim::Read => "Read",
        Dim::Write => "Write",
    }
}

impl Metric {
    /// Every metric.
    #[must_use]
    pub fn all() -> Vec<Metric> {
        let mut v = Vec::new();
        for d in Dim::ALL {
            v.extend([
                Metric::Consumed(d),
                Metric::Requested(d),
                Metric::Provisioned(d),
                Metric::CapacityLimit(d),
                Metric::WarmThroughput(d),
            ]);
            v.push(Metric::ThrottleEvents(d));
            v.extend(Reason::ALL.iter().map(|&r| Metric::ReasonThrottleEvents(d, r)));
        }
        v.extend([
            Metric::ThrottledRequests,
            Metric::PartitionCount,
            Metric::ReplicationLatencyP99Ms,
            Metric::OnlineIndexConsumedWriteCapacity,
            Metric::OnlineIndexPercentageProgress,
            Metric::ReplicationLagMaxMs,
            Metric::PendingReplicationUnits,
            Metric::ConditionalCheckFailedRequests,
            Metric::UserErrors,
        ]);
        for op in Op::ALL {
            v.extend([Metric::SuccessfulRequests(op), Metric::SuccessfulRequestLatencyAvgMs(op)]);
        }
        v.extend([Metric::LatencyP50Ms, Metric::LatencyP99Ms, Metric::LatencyMaxMs]);
        v
    }

    /// The metric named `name`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Metric> {
        static BY_NAME: std::sync::OnceLock<std::collections::BTreeMap<String, Metric>> = std::sync::OnceLock::new();
        BY_NAME.get_or_init(|| Self::all().into_iter().map(|m| (m.to_string(), m)).collect()).get(name).copied()
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Metric::Consumed(d) => write!(f, "Consumed{}CapacityUnits", word(d)),
            Metric::Requested(d) => write!(f, "Requested{}CapacityUnits", word(d)),
            Metric::Provisioned(d) => write!(f, "Provisioned{}CapacityUnits", word(d)),
            Metric::CapacityLimit(d) => write!(f, "{}CapacityLimit", word(d)),
            Metric::WarmThroughput(d) => write!(f, "Warm{}Throughput", word(d)),
            Metric::ThrottleEvents(d) => write!(f, "{}ThrottleEvents", word(d)),
            Metric::ReasonThrottleEvents(d, r) => f.write_str(r.events_metric(d)),
            Metric::ThrottledRequests => f.write_str("ThrottledRequests"),
            Metric::PartitionCount => f.write_str("PartitionCount"),
            Metric::ReplicationLatencyP99Ms => f.write_str("ReplicationLatencyP99Ms"),
            Metric::OnlineIndexConsumedWriteCapacity => f.write_str("OnlineIndexConsumedWriteCapacity"),
            Metric::OnlineIndexPercentageProgress => f.write_str("OnlineIndexPercentageProgress"),
            Metric::ReplicationLagMaxMs => f.write_str("ReplicationLagMaxMs"),
            Metric::PendingReplicationUnits => f.write_str("PendingReplicationUnits"),
            Metric::ConditionalCheckFailedRequests => f.write_str("ConditionalCheckFailedRequests"),
            Metric::UserErrors => f.write_str("UserErrors"),
            Metric::SuccessfulRequests(op) => write!(f, "SuccessfulRequestLatency.{}.SampleCount", op.api_name()),
            Metric::SuccessfulRequestLatencyAvgMs(op) => write!(f, "SuccessfulRequestLatency.{}.AverageMs", op.api_name()),
            Metric::LatencyP50Ms => f.write_str("LatencyP50Ms"),
            Metric::LatencyP99Ms => f.write_str("LatencyP99Ms"),
            Metric::LatencyMaxMs => f.write_str("LatencyMaxMs"),
        }
    }
}

impl serde::Serialize for Metric {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Metric {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Metric::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown metric \"{s}\"")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cloudwatch_names_and_round_trip() {
        assert_eq!(Metric::Consumed(Dim::Write).to_string(), "ConsumedWriteCapacityUnits");
        assert_eq!(Metric::ReasonThrottleEvents(Dim::Read, Reason::KeyRange).to_string(), "ReadKeyRangeThroughputThrottleEvents");
        assert_eq!(Metric::ReasonThrottleEvents(Dim::Write, Reason::AccountLimit).to_string(), "WriteAccountLimitThrottleEvents");
        let all = Metric::all();
        for m in &all {
            assert_eq!(Metric::parse(&m.to_string()), Some(*m));
        }
        let mut names: Vec<String> = all.iter().map(ToString::to_string).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "names are distinct");
    }
}
