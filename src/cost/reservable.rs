//! When reserved capacity may be advised: the one rule `recommend`, `compare` and the
//! load-duration chart follow.

/// Why reserved capacity is not advised on a window, if it is not: a year's commitment is
/// priced only from a window that repeats (`[pricing] extrapolate = "repeat"`) and covers the
/// daily shape (at least 24 hours), on the Standard table class (reservations do not apply to
/// Standard-IA).
#[must_use]
pub fn no_reservation(extrapolated: bool, standard_class: bool, duration_s: u64) -> Option<String> {
    if !standard_class {
        Some("reserved capacity is not offered: it applies to the Standard table class only".into())
    } else if !extrapolated {
        Some("reserved capacity is not offered: the window is an event ([pricing] extrapolate = \"none\"), and a year's commitment is not priced from an event".into())
    } else if duration_s < 86_400 {
        Some(format!(
            "reserved capacity is not offered: {} of traffic does not cover a day's shape; simulate at least 24 hours (a year's commitment is priced from a window that repeats)",
            crate::format::window(duration_s)
        ))
    } else {
        None
    }
}
