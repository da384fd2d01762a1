//! `[pricing]`: the catalog's region, overrides, extrapolation, a Savings Plan and the
//! reservations owned.

use super::Validator;
use crate::scenario::defaults;
use crate::scenario::locate::KeyPath;
use crate::scenario::price_item::PriceItem;
use crate::scenario::raw::{RawOwnedReservation, RawPricing};
use crate::scenario::validate::{AWS_REGIONS, KNOWN_REGIONS};
use crate::scenario::{NoteKind, OwnedReservation, PricingSpec, SavingsPlan};
use crate::time::{parse_rfc3339, SimDuration};

/// Reserved capacity is sold in blocks of 100 units.
const BLOCK: u64 = 100;

impl Validator<'_, '_> {
    /// `[pricing]`.
    pub(super) fn pricing(&mut self, pp: &KeyPath, raw: RawPricing, duration: SimDuration) -> PricingSpec {
        let region = raw.region.unwrap_or_else(|| defaults::REGION.to_string());
        if !KNOWN_REGIONS.contains(&region.as_str()) {
            if AWS_REGIONS.contains(&region.as_str()) {
                self.note(
                    NoteKind::Warning,
                    &pp.key("region"),
                    format!(
                        "region \"{region}\" has no built-in price catalog (built in: {}): runs need `--prices` \
                         (`ddbsim prices update --region {region}` writes one from AWS's Price List)",
                        KNOWN_REGIONS.join(", ")
                    ),
                );
            } else {
                self.err(
                    &pp.key("region"),
                    format!("no price catalog for region \"{region}\": not an AWS Region; built-in catalogs: {}", KNOWN_REGIONS.join(", ")),
                );
            }
        }
        let mut overrides = Vec::new();
        for (k, v) in raw.overrides {
            let at = pp.key("overrides").key(&k);
            match PriceItem::from_name(&k).filter(|i| i.overridable()) {
                None => {
                    let known: Vec<&str> = PriceItem::ALL.iter().filter(|i| i.overridable()).map(|i| i.name()).collect();
                    self.err(&at, format!("unknown price item \"{k}\"; known: {}", known.join(", ")));
                }
                Some(_) if !v.is_finite() || v < 0.0 => self.err(&at, format!("a price must be a finite number >= 0 USD, not {v}")),
                Some(item) => overrides.push((item, v)),
            }
        }
        let extrapolate = match raw.extrapolate {
            Some(e) => e == crate::scenario::raw::RawExtrapolate::Repeat,
            None => duration >= defaults::EXTRAPOLATE_FROM,
        };
        let savings_plan = raw.savings_plan.map(|sp| {
            let at = pp.key("savings_plan");
            if !sp.commitment_per_hour.is_finite() || sp.commitment_per_hour <= 0.0 {
                self.err(
                    &at.key("commitment_per_hour"),
                    format!("a commitment is a positive number of USD an hour, not {}", sp.commitment_per_hour),
                );
            }
            if !(sp.discount.is_finite() && sp.discount > 0.0 && sp.discount < 1.0) {
                self.err(
                    &at.key("discount"),
                    format!("a discount is a share of list price between 0 and 1 (0.12 is 12 %), not {}", sp.discount),
                );
            }
            SavingsPlan { commitment_per_hour: sp.commitment_per_hour.max(0.0), discount: sp.discount.clamp(0.0, 0.99) }
        });
        let reserved = self.owned_reservations(&pp.key("reserved"), &raw.reserved);
        PricingSpec { region, free_tier: raw.free_tier, overrides, extrapolate, savings_plan, reserved }
    }

    /// `[pricing] reserved`: blocks of 100, a term of 1 or 3 years, a start date.
    fn owned_reservations(&mut self, at: &KeyPath, raw: &[RawOwnedReservation]) -> Vec<OwnedReservation> {
        let mut out = Vec::new();
        for (i, r) in raw.iter().enumerate() {
            let at = at.index(i);
            for (key, units) in [("rcu", r.rcu), ("wcu", r.wcu)] {
                if units % BLOCK != 0 {
                    self.err(&at.key(key), format!("reserved capacity is sold in blocks of 100 units, not {units}"));
                } else if units > crate::limits::MAX_CAPACITY_UNITS {
                    self.err(
                        &at.key(key),
                        format!(
                            "{units} units reserved: more than ddbsim's ceiling of {} (a billion) a table takes",
                            crate::limits::MAX_CAPACITY_UNITS
                        ),
                    );
                }
            }
            if r.rcu == 0 && r.wcu == 0 {
                self.err(&at, "a reservation of 0 RCU and 0 WCU: give rcu, wcu or both, in blocks of 100");
            }
            let years = match r.term.as_str() {
                "1y" => 1,
                "3y" => 3,
                other => {
                    self.err(&at.key("term"), format!("\"{other}\": a term is \"1y\" or \"3y\""));
                    1
                }
            };
            let start = if r.start.len() == 10 { format!("{}T00:00:00Z", r.start) } else { r.start.clone() };
            let start_unix_s = parse_rfc3339(&start).unwrap_or_else(|| {
                self.err(&at.key("start"), format!("\"{}\" is not a date (\"2026-03-01\") or an RFC 3339 instant", r.start));
                0
            });
            out.push(OwnedReservation { rcu: r.rcu, wcu: r.wcu, years, start_unix_s });
        }
        out
    }
}
