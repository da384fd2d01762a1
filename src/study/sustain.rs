//! Credit is not capacity: whether a setting holds its load **sustained** or **only on
//! credit**. Burst credit (300 s of a provisioned resource's unused capacity, spec §3) and a
//! GSI's absorption of writes its capacity cannot take (spec §16) carry a load above capacity
//! for a while; a window that spends them holds, and the same load past the window does not.
//!
//! A setting holds sustained when no resource ends the window with less burst credit than it
//! began with (a credit at its cap is never short: a scale-in lowers the cap) or with more
//! index debt, each within [`SLACK`] of the most it can hold: a load within capacity still
//! draws a little credit on its busiest seconds, and leaves it that far short of full at any
//! instant. Otherwise it holds only on credit, and the window's net rate of spending says how
//! long the same load would last past it: an estimate.

use crate::engine::RunResult;
use crate::model::reserve::Reserve;
use crate::model::Dim;
use crate::units::MILLI;
use serde::{Deserialize, Serialize};

/// The share of a reserve's largest size that a sustained load may leave it short by (model
/// choice: 3 s of a provisioned resource's capacity for its credit).
pub const SLACK: f64 = 0.01;

/// Which reserve a window spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReserveKind {
    /// Burst credit of read capacity.
    ReadCredit,
    /// Burst credit of write capacity.
    WriteCredit,
    /// A GSI's absorption bound (`gsi_backpressure = "absorb"`).
    IndexAbsorption,
    /// A GSI's write buffer (`gsi_backpressure = "buffer"`).
    IndexBuffer,
}

impl ReserveKind {
    /// The reserve in words.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            ReserveKind::ReadCredit => "read burst credit",
            ReserveKind::WriteCredit => "write burst credit",
            ReserveKind::IndexAbsorption => "absorption bound",
            ReserveKind::IndexBuffer => "write buffer",
        }
    }
}

/// One reserve a window spent on net.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spent {
    /// Table or index name.
    pub resource: String,
    /// Which reserve.
    pub reserve: ReserveKind,
    /// The share of it the window used: credit spent over the credit it began with, or the
    /// fullest index partition's level over its bound.
    pub share: f64,
    /// At the window's net rate, how long the same load lasts past the window before this
    /// reserve is gone and the resource throttles, seconds (an estimate).
    pub lasts_s: f64,
}

/// A setting that held only on credit: what it spent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnCredit {
    /// Every reserve the window spent on net, the first to run out first.
    pub spent: Vec<Spent>,
    /// The shortest of their `lasts_s`: when the same load first throttles past the window.
    pub lasts_s: f64,
}

impl OnCredit {
    /// What `r`'s window spent, if it held on credit; `None` when it holds sustained.
    #[must_use]
    pub fn of_run(r: &RunResult) -> Option<OnCredit> {
        let secs = r.given_up.map_or(r.duration_s, |g| g.at_s);
        let spent: Vec<Spent> = r.resources.iter().flat_map(|res| spent_by(res.name.as_str(), &res.reserves, secs)).collect();
        Self::of(spent)
    }

    /// What a window of `secs` spent, from each resource's reserves at its start and end.
    #[must_use]
    pub fn of_reserves(resources: &[(&str, [Reserve; 2])], secs: u64) -> Option<OnCredit> {
        Self::of(resources.iter().flat_map(|(name, x)| spent_by(name, x, secs)).collect())
    }

    fn of(mut spent: Vec<Spent>) -> Option<OnCredit> {
        spent.sort_by(|a, b| a.lasts_s.total_cmp(&b.lasts_s));
        let lasts_s = spent.first()?.lasts_s;
        Some(OnCredit { spent, lasts_s })
    }

    /// In words: "ByCategory's write burst credit 91 % spent, …; at this rate the first runs
    /// out 1 min after the window".
    #[must_use]
    pub fn describe(&self) -> String {
        let what: Vec<String> = self
            .spent
            .iter()
            .map(|s| format!("{} {} {:.0} % spent", possessive(&s.resource), s.reserve.words(), s.share * 100.0))
            .collect();
        format!("{}; at this rate it throttles {} after the window (an estimate)", what.join(", "), span(self.lasts_s))
    }
}

/// `Products'`, `Orders'`, `ByCategory's`.
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// A span of seconds in words, to the minute above 2 minutes.
#[must_use]
pub fn span(s: f64) -> String {
    if s < 120.0 {
        format!("{:.0} s", s.max(0.0))
    } else if s < 2.0 * 3600.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 2.0 * 86_400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

/// What one resource's window of `secs` spent on net.
fn spent_by(name: &str, x: &[Reserve; 2], secs: u64) -> Vec<Spent> {
    let [start, end] = x;
    let secs = secs.max(1) as f64;
    let mut out = Vec::new();
    // An index's room (absorbing: its bound less the fullest partition's debt) follows its
    // credit: a load past the credit is absorbed first.
    let room = end.index.map_or(0, |i| i.bound.saturating_sub(i.level));
    for d in Dim::ALL {
        let (a, b) = (start.credit[d as usize], end.credit[d as usize]);
        let began = a.banked.min(b.cap);
        let short = began.saturating_sub(b.banked);
        if b.cap == 0 || (short as f64) <= SLACK * a.cap.max(b.cap) as f64 {
            continue;
        }
        let rate = short as f64 / secs;
        let left = b.on_spending + if d == Dim::Write { room } else { 0 };
        out.push(Spent {
            resource: name.to_string(),
            reserve: if d == Dim::Read { ReserveKind::ReadCredit } else { ReserveKind::WriteCredit },
            share: short as f64 / began as f64,
            lasts_s: left as f64 / rate,
        });
    }
    if let (Some(a), Some(b)) = (start.index, end.index) {
        let grew = b.level.saturating_sub(a.level);
        if b.bound > 0 && (grew as f64) > SLACK * b.bound as f64 {
            out.push(Spent {
                resource: name.to_string(),
                reserve: if b.absorbing { ReserveKind::IndexAbsorption } else { ReserveKind::IndexBuffer },
                share: b.level as f64 / b.bound as f64,
                lasts_s: room as f64 / (grew as f64 / secs),
            });
        }
    }
    out
}

/// Milli-units from units.
#[must_use]
pub fn milli(units: f64) -> u64 {
    (units.max(0.0) * MILLI as f64).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::reserve::{CreditLevel, IndexLevel};

    fn credit(banked: u64, cap: u64) -> CreditLevel {
        CreditLevel { banked, cap, on_spending: if banked < cap { banked } else { 0 } }
    }

    fn writes(start: CreditLevel, end: CreditLevel) -> [Reserve; 2] {
        [Reserve { credit: [CreditLevel::default(), start], index: None }, Reserve { credit: [CreditLevel::default(), end], index: None }]
    }

    /// 344 WCU (103,200 units of credit) under 500 writes/s for 600 s: 93,600 units spent
    /// (90.7 %), 9,600 left at 156 a second: 61.5 s.
    #[test]
    fn a_window_that_spends_credit_holds_on_it() {
        let x = writes(credit(103_200_000, 103_200_000), credit(9_600_000, 103_200_000));
        let c = OnCredit::of_reserves(&[("Products", x)], 600).expect("spent");
        assert_eq!(c.spent.len(), 1);
        assert_eq!(c.spent[0].reserve, ReserveKind::WriteCredit);
        assert!((c.spent[0].share - 93_600.0 / 103_200.0).abs() < 1e-12);
        assert!((c.lasts_s - 9_600.0 / 156.0).abs() < 1e-9, "{}", c.lasts_s);
        assert_eq!(c.describe(), "Products' write burst credit 91 % spent; at this rate it throttles 62 s after the window (an estimate)");
    }

    /// Not spent: a credit at its cap after a scale-in halved it; one 200 units short of 30,000
    /// (within 1 %: 300); one that began empty.
    #[test]
    fn a_full_credit_a_little_noise_and_an_empty_start_are_sustained() {
        let scaled_in = writes(credit(30_000_000, 30_000_000), credit(15_000_000, 15_000_000));
        let noise = writes(credit(30_000_000, 30_000_000), credit(29_800_000, 30_000_000));
        let empty = writes(credit(0, 30_000_000), credit(100_000, 30_000_000));
        for (what, x) in [("scaled in", scaled_in), ("noise", noise), ("empty start", empty)] {
            assert_eq!(OnCredit::of_reserves(&[("T", x)], 600), None, "{what}");
        }
        // 301 units short is past the slack.
        let past = writes(credit(30_000_000, 30_000_000), credit(29_699_000, 30_000_000));
        assert!(OnCredit::of_reserves(&[("T", past)], 600).is_some());
    }

    /// An absorbing GSI that used all its credit (103,200 units) and owes 30,000 of its
    /// 60,000-unit bound after 600 s: the debt grew 50 a second, 600 s of room left; its credit,
    /// spent at 172 a second with the room after it, lasts 30,000 / 172 = 174 s: the first.
    #[test]
    fn an_index_debt_that_grows_is_spent_too() {
        let index = |level| Some(IndexLevel { level, bound: 60_000_000, absorbing: true });
        let x = [
            Reserve { credit: [CreditLevel::default(), credit(103_200_000, 103_200_000)], index: index(0) },
            Reserve { credit: [CreditLevel::default(), credit(0, 103_200_000)], index: index(30_000_000) },
        ];
        let c = OnCredit::of_reserves(&[("ByCategory", x)], 600).expect("spent");
        assert_eq!(c.spent.iter().map(|s| s.reserve).collect::<Vec<_>>(), vec![ReserveKind::WriteCredit, ReserveKind::IndexAbsorption]);
        assert!((c.spent[1].share - 0.5).abs() < 1e-12);
        assert!((c.spent[1].lasts_s - 600.0).abs() < 1e-9);
        assert!((c.lasts_s - 30_000.0 / 172.0).abs() < 1e-9, "{}", c.lasts_s);
    }
}
