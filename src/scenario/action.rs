//! `[[at]]`: operational changes at a time of the run.

use super::table::ScalingChange;
use super::RateFactor;
use crate::time::SimDuration;

/// An operational change.
#[derive(Clone, Debug)]
pub struct ActionSpec {
    /// When.
    pub time: SimDuration,
    /// What.
    pub action: Action,
}

/// Operational changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Set provisioned capacity of the table (`index = None`) or a GSI.
    SetCapacity {
        /// GSI position.
        index: Option<usize>,
        /// New RCU.
        read: Option<u64>,
        /// New WCU.
        write: Option<u64>,
    },
    /// Switch capacity mode.
    SwitchMode {
        /// To on-demand (else to provisioned).
        on_demand: bool,
        /// Provisioned RCU and WCU given with a switch to provisioned (as UpdateTable takes
        /// them); without them, the console's estimate from the last 30 minutes.
        units: Option<[u64; 2]>,
    },
    /// Raise warm throughput.
    Prewarm {
        /// GSI position.
        index: Option<usize>,
        /// Read units.
        read: Option<u64>,
        /// Write units.
        write: Option<u64>,
    },
    /// A scheduled scaling action: new settings of the table's (`index = None`) or a GSI's
    /// scalable targets, read and write.
    SetAutoscaling {
        /// GSI position.
        index: Option<usize>,
        /// Read and write changes.
        changes: [Option<ScalingChange>; 2],
    },
    /// Create a GSI.
    AddGsi(usize),
    /// Set a pattern's rate to its shape's times a factor, replacing any earlier factor
    /// (read through [`super::RateFactors`]).
    ScaleRate {
        /// Pattern position.
        pattern: usize,
        /// Factor.
        factor: RateFactor,
    },
}
