//! Capacities `recommend` never lowers: a GSI dimension whose history was not recorded.
//!
//! `import` marks a GSI's read or write capacity `no_history` when the CloudWatch history it was
//! given has no series for it (a query-less history says nothing of the index's reads). Priced
//! on the scenario's traffic alone, such a dimension would be cut to 1 unit, and every query of
//! the index would throttle once deployed: the search keeps its provisioned capacity instead,
//! and the recommendation says so.

use crate::scenario::{CapacitySpec, Scenario};

/// A capacity kept: resource (0 the table, then GSIs), dimension (0 read, 1 write), units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kept {
    resource: usize,
    dim: usize,
    units: u64,
}

impl Kept {
    /// Why, for the recommendation: `ByStatus read kept at 100 RCU: ...`.
    pub(super) fn why(&self, sc: &Scenario) -> String {
        let name = &sc.gsis[self.resource - 1].name;
        let (what, unit) = if self.dim == 0 { ("read", "RCU") } else { ("write", "WCU") };
        format!(
            "{name} {what} kept at {} {unit}: the history it was imported from has no {what} series for it (no_history), so its need is unknown",
            self.units
        )
    }
}

/// The GSI dimensions marked `no_history` on a provisioned index, at their capacity.
pub(super) fn unrecorded(sc: &Scenario) -> Vec<Kept> {
    let mut out = Vec::new();
    for (g, gsi) in sc.gsis.iter().enumerate() {
        let CapacitySpec::Provisioned { read, write } = gsi.capacity else { continue };
        for (dim, units) in [read, write].into_iter().enumerate() {
            if gsi.no_history[dim] {
                out.push(Kept { resource: g + 1, dim, units });
            }
        }
    }
    out
}

/// Raises `units` (per resource, [read, write]) to every kept capacity.
pub(super) fn keep(units: &mut [[u64; 2]], kept: &[Kept]) {
    for k in kept {
        if let Some(u) = units.get_mut(k.resource) {
            u[k.dim] = u[k.dim].max(k.units);
        }
    }
}
