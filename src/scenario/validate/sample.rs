//! Files a scenario names beside itself: where they may be, and the sample item an
//! `item_bytes = { item = "order.json" }` sizes.

use crate::item_size::read_item;
use std::path::{Path, PathBuf};

/// The file `file` names, relative to the folder of the scenario at `scenario`: it must be in
/// that folder or below unless `allow_outside`. `what` names it in a message ("the trace file").
pub(super) fn beside(scenario: &Path, file: &str, allow_outside: bool, what: &str) -> Result<PathBuf, String> {
    let dir = scenario.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let full = dir.join(file);
    let real = full.canonicalize().map_err(|e| format!("cannot read {what}: {e}"))?;
    if !allow_outside {
        let home = dir.canonicalize().map_err(|e| format!("cannot read the scenario's folder: {e}"))?;
        if !real.starts_with(&home) {
            return Err(format!("{what} is outside the scenario's folder; move it there or pass --allow-outside"));
        }
    }
    Ok(real)
}

/// Bytes of the sample item `file` (DynamoDB JSON, or get-item's output) beside the scenario
/// at `scenario`, by the service's rules; a message naming the file, and the line or the
/// attribute, when it cannot be read or is not an item.
pub(super) fn item_bytes(scenario: &Path, file: &str, allow_outside: bool) -> Result<u64, String> {
    let dir = scenario.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let shown = dir.join(file).display().to_string();
    let real = beside(scenario, file, allow_outside, "the sample item").map_err(|m| format!("{shown}: {m}"))?;
    read_item(&real, &shown)?.checked_bytes().map_err(|e| format!("{shown}: {e}"))
}
