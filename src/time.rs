//! Simulated time: integer microseconds, never floating point.
//!
//! [`SimTime`] is an instant since the start of the run and [`SimDuration`] a span; both wrap
//! `u64` microseconds. Floating point appears only in [`SimTime::as_secs_f64`] for reporting.

use std::fmt;

/// Microseconds in one second.
pub(crate) const MICROS_PER_SEC: u64 = 1_000_000;

/// An instant of simulated time, in microseconds since the run started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimDuration {
    /// Zero length.
    pub const ZERO: SimDuration = SimDuration(0);

    /// From whole seconds.
    #[must_use]
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * MICROS_PER_SEC)
    }

    /// From milliseconds.
    #[must_use]
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000)
    }

    /// From microseconds.
    #[must_use]
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us)
    }

    /// Length in microseconds.
    #[must_use]
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// Whole seconds, rounded down.
    #[must_use]
    pub const fn as_secs(self) -> u64 {
        self.0 / MICROS_PER_SEC
    }

    /// Seconds as a float, for reporting only.
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / MICROS_PER_SEC as f64
    }
}

impl SimTime {
    /// The start of the run.
    pub const ZERO: SimTime = SimTime(0);

    /// From whole seconds since the start.
    #[must_use]
    pub const fn from_secs(s: u64) -> Self {
        SimTime(s * MICROS_PER_SEC)
    }

    /// From microseconds since the start.
    #[must_use]
    pub const fn from_micros(us: u64) -> Self {
        SimTime(us)
    }

    /// Microseconds since the start.
    #[must_use]
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// Whole seconds since the start, rounded down.
    #[must_use]
    pub const fn as_secs(self) -> u64 {
        self.0 / MICROS_PER_SEC
    }

    /// Seconds as a float, for reporting only.
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / MICROS_PER_SEC as f64
    }

    /// `self + d`, saturating at the end of representable time.
    #[must_use]
    pub const fn saturating_add(self, d: SimDuration) -> Self {
        SimTime(self.0.saturating_add(d.0))
    }

    /// The span from `earlier` to `self` (zero if `earlier` is later).
    #[must_use]
    pub const fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl fmt::Display for SimDuration {
    /// Shortest exact form: `90s`, `15m`, `2h`, `250ms`, `7d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let us = self.0;
        if us == 0 {
            return write!(f, "0s");
        }
        for (unit, n) in [("d", 86_400_000_000u64), ("h", 3_600_000_000), ("m", 60_000_000), ("s", 1_000_000), ("ms", 1_000)] {
            if us.is_multiple_of(n) {
                return write!(f, "{}{unit}", us / n);
            }
        }
        write!(f, "{us}us")
    }
}

/// Parses a duration such as `"90s"`, `"15m"`, `"24h"`, `"7d"`, `"250ms"` or `"1h30m"`.
///
/// # Errors
/// A message saying what is wrong with the text.
pub fn parse_duration(text: &str) -> Result<SimDuration, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty duration; write e.g. \"90s\", \"15m\", \"24h\" or \"7d\"".into());
    }
    let mut total: u64 = 0;
    let mut rest = t;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return Err(format!("\"{text}\" is not a duration; write e.g. \"90s\", \"15m\", \"24h\" or \"7d\""));
        }
        let n: u64 = rest[..digits].parse().map_err(|_| format!("\"{text}\": number too large"))?;
        rest = &rest[digits..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let mult: u64 = match unit {
            "us" => 1,
            "ms" => 1_000,
            "s" => 1_000_000,
            "m" => 60_000_000,
            "h" => 3_600_000_000,
            "d" => 86_400_000_000,
            "" => return Err(format!("\"{text}\" has a number without a unit (us, ms, s, m, h, d)")),
            other => return Err(format!("\"{text}\": unknown unit \"{other}\" (use us, ms, s, m, h or d)")),
        };
        total = n.checked_mul(mult).and_then(|v| total.checked_add(v)).ok_or_else(|| format!("\"{text}\" is too long a duration"))?;
    }
    Ok(SimDuration(total))
}

/// Parses an RFC 3339 instant (`2026-03-02T00:00:00Z`, or with an offset such as `+02:00`)
/// into Unix seconds, with the `time` crate: impossible dates (`2026-02-31`) and components
/// (`T-05:-30:-10Z`) are refused. Years 1970 to 9999.
pub(crate) fn parse_rfc3339(s: &str) -> Option<i64> {
    let t = time::OffsetDateTime::parse(s.trim(), &time::format_description::well_known::Rfc3339).ok()?;
    (1970..=9999).contains(&t.year()).then(|| t.unix_timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units() {
        assert_eq!(parse_duration("90s"), Ok(SimDuration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Ok(SimDuration::from_secs(900)));
        assert_eq!(parse_duration("24h"), Ok(SimDuration::from_secs(86_400)));
        assert_eq!(parse_duration("7d"), Ok(SimDuration::from_secs(604_800)));
        assert_eq!(parse_duration("25ms"), Ok(SimDuration::from_millis(25)));
        assert_eq!(parse_duration("1h30m"), Ok(SimDuration::from_secs(5_400)));
    }

    #[test]
    fn rejects_bad_text() {
        assert!(parse_duration("").is_err());
        assert!(parse_duration("10").is_err());
        assert!(parse_duration("10 parsecs").is_err());
        assert!(parse_duration("-5s").is_err());
        assert!(parse_duration("99999999999999999999d").is_err());
    }

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00Z"), Some(1_767_225_600));
        assert_eq!(parse_rfc3339("2026-03-02T14:30:00Z"), Some(1_767_225_600 + 60 * 86_400 + 14 * 3_600 + 1_800));
        assert_eq!(parse_rfc3339("2026-13-02T00:00:00Z"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
        assert_eq!(parse_rfc3339("2026-02-31T00:00:00Z"), None);
        assert_eq!(parse_rfc3339("2026-01-01T-05:-30:-10Z"), None);
        assert_eq!(parse_rfc3339("2026-01-01T02:00:00+02:00"), Some(1_767_225_600));
    }

    #[test]
    fn displays_shortest() {
        assert_eq!(SimDuration::from_secs(900).to_string(), "15m");
        assert_eq!(SimDuration::from_millis(1500).to_string(), "1500ms");
    }
}
