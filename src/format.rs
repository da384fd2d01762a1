//! Numbers, money, shares and times as people read them: `1,000`, `$16,035.57`, `0.10 %`,
//! `2026-03-02 09:01 UTC`, `+3 h 05 min`, `2.5k`. Ground floor: every layer that writes words
//! for a person (a finding of `check`, a verdict, a chart's label) formats with these, so a
//! figure reads the same everywhere.

/// `n` with thousands separated by commas.
#[must_use]
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut o = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(c);
    }
    o
}

/// Dollars with cents and thousands separated: `$16,035.57`.
#[must_use]
pub fn usd(x: f64) -> String {
    let cents = (x.abs() * 100.0).round() as u64;
    format!("{}${}.{:02}", if x < 0.0 { "-" } else { "" }, grouped(cents / 100), cents % 100)
}

/// Dollars to four decimals, thousands separated: `$1,234.5678` (a bill line's amount).
#[must_use]
pub fn usd4(x: f64) -> String {
    let units = (x.abs() * 10_000.0).round() as u64;
    format!("{}${}.{:04}", if x < 0.0 { "-" } else { "" }, grouped(units / 10_000), units % 10_000)
}

/// Dollars for a window's cost: as [`usd`], with four decimals below a dollar so that a short
/// window's cost does not read as $0.00.
#[must_use]
pub fn usd_window(x: f64) -> String {
    if x.abs() < 1.0 && x != 0.0 {
        format!("{}${:.4}", if x < 0.0 { "-" } else { "" }, x.abs())
    } else {
        usd(x)
    }
}

/// A share as a percentage with enough digits to tell small shares from zero.
#[must_use]
pub fn percent(x: f64) -> String {
    let p = x * 100.0;
    if p == 0.0 || p >= 10.0 {
        format!("{p:.1} %")
    } else if p >= 0.01 {
        format!("{p:.2} %")
    } else {
        format!("{p:.4} %")
    }
}

/// `2026-03-02 09:01 UTC` for second `s` of a run starting at `start_unix_s`.
#[must_use]
pub fn clock(start_unix_s: i64, s: u64) -> String {
    let t = start_unix_s.saturating_add(i64::try_from(s).unwrap_or(i64::MAX));
    match time::OffsetDateTime::from_unix_timestamp(t) {
        Ok(d) => format!("{:04}-{:02}-{:02} {:02}:{:02} UTC", d.year(), u8::from(d.month()), d.day(), d.hour(), d.minute()),
        Err(_) => format!("+{s} s"),
    }
}

/// Elapsed time since the start: `+45 s`, `+12 min`, `+3 h`, `+3 h 05 min`, `+2 d`, `+2 d 04 h`.
#[must_use]
pub fn elapsed(s: u64) -> String {
    match s {
        0..=59 => format!("+{s} s"),
        60..=3_599 => format!("+{} min", s / 60),
        3_600..=86_399 if s % 3_600 < 60 => format!("+{} h", s / 3_600),
        3_600..=86_399 => format!("+{} h {:02} min", s / 3_600, s % 3_600 / 60),
        _ if s % 86_400 < 3_600 => format!("+{} d", s / 86_400),
        _ => format!("+{} d {:02} h", s / 86_400, s % 86_400 / 3_600),
    }
}

/// A window's length as people say it: `2 h`, `90 min`, `45 s`.
#[must_use]
pub fn window(s: u64) -> String {
    if s.is_multiple_of(3_600) {
        format!("{} h", s / 3_600)
    } else if s.is_multiple_of(60) {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

/// An axis label: `2.5k`, `100k`, `1.5M`, `12`, `0.5`.
#[must_use]
pub fn compact(v: f64) -> String {
    let a = v.abs();
    let trim = |x: f64, unit: &str| {
        let t = format!("{x:.1}");
        format!("{}{unit}", t.strip_suffix(".0").unwrap_or(&t))
    };
    if a >= 1e9 {
        trim(v / 1e9, "G")
    } else if a >= 1e6 {
        trim(v / 1e6, "M")
    } else if a >= 1e3 {
        trim(v / 1e3, "k")
    } else if a >= 10.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        trim(v, "")
    }
}

/// A number as the arithmetic shows it: whole numbers without decimals, others with three.
pub fn fmt_num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(362_866_305), "362,866,305");
        assert_eq!(usd(16_035.574), "$16,035.57");
        assert_eq!(usd(0.234), "$0.23");
        assert_eq!(usd(-1_234.5), "-$1,234.50");
        assert_eq!(usd4(1_162.885), "$1,162.8850");
        assert_eq!(usd4(0.13274), "$0.1327");
        assert_eq!(usd4(-0.00012), "-$0.0001");
        assert_eq!(percent(0.0), "0.0 %");
        assert_eq!(percent(0.001), "0.10 %");
        assert_eq!(percent(0.271), "27.1 %");
        assert_eq!(percent(0.000_012), "0.0012 %");
        // 2026-03-02T09:00:00Z is 1,772,442,000 s after the epoch (20,514 days + 9 h).
        assert_eq!(20_514 * 86_400 + 9 * 3_600, 1_772_442_000);
        assert_eq!(clock(1_772_442_000, 0), "2026-03-02 09:00 UTC");
        assert_eq!(clock(1_772_442_000, 15 * 3_600 + 61), "2026-03-03 00:01 UTC");
        assert_eq!(elapsed(45), "+45 s");
        assert_eq!(elapsed(720), "+12 min");
        assert_eq!(elapsed(3 * 3_600 + 300), "+3 h 05 min");
        assert_eq!(elapsed(2 * 86_400 + 4 * 3_600), "+2 d 04 h");
        assert_eq!(elapsed(6 * 3_600), "+6 h");
        assert_eq!(elapsed(86_400 + 59), "+1 d");
    }

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(compact(2_500.0), "2.5k");
        assert_eq!(compact(100_000.0), "100k");
        assert_eq!(compact(1_500_000.0), "1.5M");
        assert_eq!(compact(12.0), "12");
        assert_eq!(compact(0.5), "0.5");
        assert_eq!(compact(0.0), "0");
    }
}
