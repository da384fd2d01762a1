//! What `recommend` prints and writes: the pick with its reason, the best setting of each
//! mode, and every candidate in `recommend.csv` / `recommend.json`.

use super::chart_data::FrontPoint;
use super::plot;
use super::text::align;
use super::{json, Artifact, Render, ReportError};
use crate::study::recommend::{Candidate, Mode, Recommendation, TableRow};
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Serialize)]
struct CsvRow<'a> {
    candidate: usize,
    mode: Mode,
    monthly_usd: f64,
    throttled_share: f64,
    failed_requests: u64,
    failed_share: f64,
    failed_by_retry_quota: u64,
    within_limit: bool,
    complete: bool,
    on_front: bool,
    picked: bool,
    settings: &'a str,
    screened: bool,
    /// It ends the window with no less burst credit and no more GSI debt than it began with.
    sustained: bool,
    /// Why it was not picked: the minute, resource and reason that put it over the limit, or
    /// the dollars by which the pick beat it.
    why_not: &'a str,
}

impl Recommendation {
    /// The cheaper candidate that holds a sustained window only on credit, beside the pick.
    fn credit_alternative(&self, o: &mut String, pick: Option<&Candidate>) {
        let Some(a) = self.on_credit_alternative.map(|i| &self.candidates[i]) else { return };
        let Some(credit) = &a.on_credit else { return };
        let against = pick.map_or(String::new(), |p| format!(" ({:+.1} %)", (a.monthly_usd / p.monthly_usd - 1.0) * 100.0));
        let _ = writeln!(
            o,
            "cheaper on credit: {} — {} a month{against}, {:.3}% of attempts throttled, but it holds the window only on credit: {}; {} (set [scenario] window = \"event\" if the window is a one-off from a rested table)",
            a.description,
            crate::format::usd(a.monthly_usd),
            a.throttled_share * 100.0,
            credit.describe(),
            if pick.is_some() { "the pick holds it sustained" } else { "nothing holds it sustained" }
        );
    }

    /// The pick's lines: its figures, against today, the runner-up, and what it (or a cheaper
    /// candidate) holds on credit.
    fn pick_lines(&self, o: &mut String, i: usize) {
        let t = &self.today;
        let c = &self.candidates[i];
        let line = setting_line("recommended", &c.description, c.monthly_usd, c.throttled_share, (c.failed_requests, c.failed_share));
        let _ = writeln!(o, "{line}{}", quota_note(c.failed_by_retry_quota));
        if let Some(basis) = &self.reservation_basis {
            let _ = writeln!(o, "{basis}");
        }
        let delta = t.monthly_usd - c.monthly_usd;
        if t.monthly_usd > 0.0 {
            let _ = writeln!(
                o,
                "against today: {} {} a month ({:+.1} %){}",
                if delta >= 0.0 { "saves" } else { "costs" },
                crate::format::usd(delta.abs()),
                (c.monthly_usd / t.monthly_usd - 1.0) * 100.0,
                if t.holds { "" } else { ", and holds where today's setting does not" }
            );
        }
        let runner_up = self
            .best_by_mode
            .iter()
            .filter(|(m, j)| *j != i && *m != c.settings.mode())
            .min_by(|a, b| self.candidates[a.1].monthly_usd.total_cmp(&self.candidates[b.1].monthly_usd));
        if let Some((m, j)) = runner_up {
            let r = &self.candidates[*j];
            let _ = writeln!(
                o,
                "runner-up: {m} at {} a month ({:+.1} %)",
                crate::format::usd(r.monthly_usd),
                (r.monthly_usd / c.monthly_usd - 1.0) * 100.0
            );
        }
        if let Some(credit) = &c.on_credit {
            let _ = writeln!(
                o,
                "the pick holds on credit: {}; the window is an event from a rested table ([scenario] window = \"event\"), so it may",
                credit.describe()
            );
        }
        self.credit_alternative(o, Some(c));
    }

    fn csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for (i, c) in self.candidates.iter().enumerate() {
            w.serialize(CsvRow {
                candidate: i,
                mode: c.settings.mode(),
                monthly_usd: (c.monthly_usd * 100.0).round() / 100.0,
                throttled_share: (c.throttled_share * 1e6).round() / 1e6,
                failed_requests: c.failed_requests,
                failed_share: (c.failed_share * 1e6).round() / 1e6,
                failed_by_retry_quota: c.failed_by_retry_quota,
                within_limit: c.within_limit,
                complete: c.complete,
                on_front: self.front.contains(&i),
                picked: self.pick == Some(i),
                settings: &c.description,
                screened: c.screened,
                sustained: c.sustained,
                why_not: c.why_not.as_deref().unwrap_or(""),
            })
            .expect("CSV row into memory");
        }
        w.into_inner().expect("CSV into memory")
    }
}

/// `LABEL: SETTING — $X a month, Y% of attempts throttled, N requests failed (Z%)`: a
/// setting's figures, the same for the one in force and the pick.
fn setting_line(label: &str, setting: &str, monthly_usd: f64, throttled: f64, (failed, failed_share): (u64, f64)) -> String {
    format!(
        "{label}: {setting} — ${monthly_usd:.2} a month, {:.3}% of attempts throttled, {} requests failed ({:.3}%)",
        throttled * 100.0,
        crate::format::grouped(failed),
        failed_share * 100.0
    )
}

/// `, 120 of them when the SDK's retry quota was empty ([client] instances)` when any were.
fn quota_note(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            ", {} of them when the SDK's retry quota was empty ([client] instances sets how many quotas share the traffic)",
            crate::format::grouped(n)
        )
    }
}

impl Recommendation {
    /// The setting in force, simulated, beside the throttle events its history recorded.
    fn today_line(&self, o: &mut String) {
        let t = &self.today;
        let recorded = t
            .recorded_throttle_events
            .map(|n| {
                format!(
                    "; {} throttle events simulated, {} recorded by the history",
                    crate::format::grouped(t.throttle_events),
                    crate::format::grouped(n)
                )
            })
            .unwrap_or_default();
        let line = setting_line("today", &t.description, t.monthly_usd, t.throttled_share, (t.failed_requests, t.failed_share));
        let verdict = match (&t.on_credit, t.holds) {
            (_, true) => String::new(),
            (Some(c), false) => format!(": holds the window only on credit ({})", c.describe()),
            (None, false) => ": does not hold".to_string(),
        };
        let _ = writeln!(o, "{line}{recorded}{verdict}");
    }

    /// A line for the simulated candidates that throttled within the limit but failed too many
    /// requests: `run`'s verdict would call them failing, and so does `recommend`.
    fn failed_alone(&self, o: &mut String) {
        let alone: Vec<&crate::study::recommend::Candidate> = self
            .candidates
            .iter()
            .filter(|c| !c.screened && c.throttled_share <= self.max_throttle && c.failed_share > self.max_failed)
            .collect();
        let Some(worst) = alone.iter().max_by(|a, b| a.failed_share.total_cmp(&b.failed_share)) else { return };
        let quota: u64 = alone.iter().filter(|c| c.failed_by_retry_quota > 0).count() as u64;
        let _ = writeln!(
            o,
            "rejected for failed requests alone: {} candidate(s) throttled within {:.3}% of attempts but failed more than {:.3}% of requests (worst: {}, {:.3}% failed{}){}\n",
            alone.len(),
            self.max_throttle * 100.0,
            self.max_failed * 100.0,
            worst.description,
            worst.failed_share * 100.0,
            quota_note(worst.failed_by_retry_quota),
            if quota > 0 { format!("; {quota} of them lost requests to an empty retry quota") } else { String::new() }
        );
    }
}

impl Render for Recommendation {
    fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "ddbsim recommend · {} · seed {} · {} s simulated per candidate, costs extrapolated to a 730-hour month · {}",
            self.scenario, self.seed, self.duration_s, self.prices
        );
        let _ = writeln!(
            o,
            "{} simulations ({} given up once sure to end above the limit), {} candidates ({} screened by the per-minute model, estimates); limits: at most {:.3}% of attempts throttled and {:.3}% of requests failed\n",
            self.simulations,
            self.candidates.iter().filter(|c| !c.complete).count(),
            self.candidates.len(),
            self.candidates.iter().filter(|c| c.screened).count(),
            self.max_throttle * 100.0,
            self.max_failed * 100.0
        );
        let mut rows = vec![["best of mode".to_string(), "$/month".into(), "throttled".into(), "failed".into(), "settings".into()]];
        for (mode, i) in &self.best_by_mode {
            let c = &self.candidates[*i];
            let mark = if self.pick == Some(*i) {
                " *"
            } else if c.screened {
                " (screened)"
            } else {
                ""
            };
            rows.push([
                format!("{mode}{mark}"),
                format!("{:.2}", c.monthly_usd),
                format!("{:.3}%", c.throttled_share * 100.0),
                format!("{} ({:.3}%)", c.failed_requests, c.failed_share * 100.0),
                c.description.clone(),
            ]);
        }
        o.push_str(&align(&rows));
        for (mode, i) in &self.best_by_mode {
            if let Some(why) = &self.candidates[*i].why_not {
                let _ = writeln!(o, "  why not {mode}: {why}");
            }
        }
        let _ = writeln!(o);
        self.failed_alone(&mut o);
        self.today_line(&mut o);
        match self.pick {
            Some(i) => self.pick_lines(&mut o, i),
            None => {
                // Nothing holds: each mode's least-throttled candidate, and what put it over.
                for mode in Mode::ALL {
                    let closest = self.candidates.iter().filter(|c| c.settings.mode() == mode).min_by(|a, b| {
                        (a.screened, a.throttled_share).partial_cmp(&(b.screened, b.throttled_share)).unwrap_or(std::cmp::Ordering::Equal)
                    });
                    if let Some(c) = closest {
                        let _ = writeln!(o, "closest {mode}: {} — {}", c.description, c.why_not.as_deref().unwrap_or(""));
                    }
                }
                self.credit_alternative(&mut o, None);
                let _ = writeln!(
                    o,
                    "recommended: none — every candidate throttles more than {:.3}% of attempts or fails more than {:.3}% of requests (raise --max-throttle or --max-failed)",
                    self.max_throttle * 100.0,
                    self.max_failed * 100.0
                );
            }
        }
        let past: Vec<&str> = self.candidates.iter().filter_map(|c| c.past_quota.as_deref()).collect();
        if let Some(first) = past.first() {
            let _ = writeln!(
                o,
                "quota: {} candidate{} refused, AWS would not provision them (the first: {first}); state a raised quota in [account] to consider them",
                past.len(),
                if past.len() == 1 { "" } else { "s" }
            );
        }
        for k in &self.kept {
            let _ = writeln!(o, "kept: {k}");
        }
        if let Some(n) = &self.reservation_note {
            let _ = writeln!(o, "{n}");
        }
        let _ = writeln!(
            o,
            "costs are estimates from the simulated window; recommend.csv lists every candidate and the cost-vs-throttling front"
        );
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let pts: Vec<FrontPoint> = self
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| FrontPoint {
                mode: c.settings.mode(),
                throttled_share: c.throttled_share,
                monthly_usd: c.monthly_usd,
                complete: c.complete,
                on_front: self.front.contains(&i),
                picked: self.pick == Some(i),
            })
            .collect();
        let (svg, png) = crate::draw_chart!(plot::PANEL_HEIGHT * 2, "recommend", |root| plot::front(root, &pts, self.max_throttle))?;
        Ok(vec![
            Artifact::new("recommend.csv", self.csv()),
            Artifact::new("recommend.json", json(self)),
            Artifact::new("recommend.svg", svg),
            Artifact::new("recommend.png", png),
        ])
    }
}

/// `recommend` on many tables: a row per table and dimension (or one share of them).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Tables {
    /// `I/N` when this is one share of the tables.
    pub shard: Option<String>,
    /// Tables in all (every share).
    pub tables: usize,
    /// The throttle limit.
    pub max_throttle: f64,
    /// Per table and dimension, in table order.
    pub rows: Vec<TableRow>,
    /// One reservation per region for its tables together, sized on their summed provisioned
    /// capacity at the recommended settings, against one per table.
    #[serde(default)]
    pub pools: Vec<crate::study::recommend::pool::Pool>,
    /// Tables left out of a pool, and why.
    #[serde(default)]
    pub pool_notes: Vec<String>,
    /// Per Region of several tables: the picks against its account-level quota together, and
    /// the tables whose pick moved to fit it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quota: Vec<crate::study::recommend::quota_fit::QuotaFit>,
}

/// Why a share of the tables pools nothing.
pub const POOL_NEEDS_EVERY_TABLE: &str = "pooling needs every table of the region in one run: recommend the folder without --shard";

impl Tables {
    fn csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &self.rows {
            w.serialize(r).expect("CSV row into memory");
        }
        w.into_inner().expect("CSV into memory")
    }

    /// Combines shares into the whole: every table once, in table order. Missing tables are
    /// an error unless `allow_partial` (the result then says which are missing).
    ///
    /// # Errors
    /// The shares disagree on the number of tables or the limit, a table is in two shares, or
    /// tables are missing and `allow_partial` is false.
    pub fn merge(parts: Vec<Tables>, allow_partial: bool) -> Result<Tables, String> {
        let first = parts.first().ok_or("no shares to merge")?;
        let (tables, max_throttle) = (first.tables, first.max_throttle);
        if parts.iter().any(|p| p.tables != tables || p.max_throttle.to_bits() != max_throttle.to_bits()) {
            return Err("the shares are of different table lists or throttle limits".into());
        }
        let mut rows: Vec<TableRow> = parts.into_iter().flat_map(|p| p.rows).collect();
        rows.sort_by(|a, b| a.index.cmp(&b.index).then(a.dimension.cmp(&b.dimension)));
        let mut seen = vec![0usize; tables];
        for r in &rows {
            *seen.get_mut(r.index).ok_or_else(|| format!("table {} of {tables}", r.index + 1))? += 1;
        }
        if let Some(i) = seen.iter().position(|&n| n > 2) {
            return Err(format!(
                "table {} ({}) is in more than one share",
                i + 1,
                rows.iter().find(|r| r.index == i).map_or("", |r| &r.table)
            ));
        }
        let missing: Vec<String> = seen.iter().enumerate().filter(|(_, n)| **n == 0).map(|(i, _)| (i + 1).to_string()).collect();
        if !missing.is_empty() && !allow_partial {
            return Err(format!("tables {} of {tables} are in no share (--allow-partial merges what is there)", missing.join(", ")));
        }
        let shard = (!missing.is_empty()).then(|| format!("partial: tables {} missing", missing.join(", ")));
        Ok(Tables {
            shard,
            tables,
            max_throttle,
            rows,
            pools: Vec::new(),
            pool_notes: vec![POOL_NEEDS_EVERY_TABLE.to_string()],
            quota: Vec::new(),
        })
    }
}

impl Render for Tables {
    fn text(&self) -> String {
        let mut o = String::new();
        let share = self.shard.as_deref().map(|s| format!(" (share {s})")).unwrap_or_default();
        let _ = writeln!(
            o,
            "ddbsim recommend · {} table(s){share}; limit: at most {:.3}% of attempts throttled; monthly costs are estimates\n",
            self.tables,
            self.max_throttle * 100.0
        );
        let mut rows = vec![[
            "table".to_string(),
            "dim".into(),
            "today's setting".into(),
            "today".into(),
            "now $/month".into(),
            "recommended".into(),
            "recommended $/month".into(),
            "saving".into(),
            "the pick".into(),
        ]];
        let money = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.2}"));
        for r in &self.rows {
            rows.push([
                r.table.clone(),
                r.dimension.clone(),
                r.current_setting.clone(),
                if r.current_holds { "holds".to_string() } else { format!("fails ({:.1} % throttled)", r.current_throttled_share * 100.0) },
                format!("{:.2}", r.current_monthly_usd),
                r.recommended_setting.clone(),
                money(r.recommended_monthly_usd),
                r.saving_share.map_or("-".to_string(), |s| format!("{:+.0} %", -s * 100.0)),
                r.throttled_share.map_or_else(|| "none holds".to_string(), |t| format!("holds ({:.3} % throttled)", t * 100.0)),
            ]);
        }
        o.push_str(&align(&rows));
        for p in &self.pools {
            let _ = writeln!(
                o,
                "\n{}: one reservation for {} tables together ({}): {} RCU / {} WCU for {} year(s), sized on their summed provisioned capacity at the settings above, saves {} a month; reserving table by table saves {}; pooling saves {} a month more (estimates). It replaces the reservations of these tables in the rows above: buy this one instead of theirs",
                p.region,
                p.tables.len(),
                p.tables.join(", "),
                p.rcu,
                p.wcu,
                p.years,
                crate::format::usd(p.pooled_saving_monthly_usd),
                crate::format::usd(p.separate_saving_monthly_usd),
                crate::format::usd(p.pooling_saves_monthly_usd)
            );
        }
        for n in &self.pool_notes {
            let _ = writeln!(o, "not pooled: {n}");
        }
        for q in &self.quota {
            let units = |u: [u64; 2]| format!("{} RCU / {} WCU", u[0], u[1]);
            let _ = write!(
                o,
                "\n{}: the account-level quota is {}; the tables' own picks may provision {} together",
                q.region,
                units(q.quota),
                units(q.picked_units)
            );
            if q.changes.is_empty() {
                let _ = writeln!(o, ": within it");
            } else if q.fits {
                let _ = writeln!(o, ", past it: moved to fit ({} after the moves):", units(q.fitted_units));
            } else {
                let _ = writeln!(
                    o,
                    ", past it, and no holding setting fits ({} at the least): request an account-level quota increase ([account] max_read/write_capacity_units)",
                    units(q.fitted_units)
                );
            }
            for c in &q.changes {
                let _ = writeln!(o, "  {}: {} instead of {} (+{} a month)", c.table, c.to, c.from, crate::format::usd(c.added_monthly_usd));
            }
            if !q.fits && q.changes.is_empty() {
                let _ = writeln!(o, "  no table has a holding setting that provisions less");
            }
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        Ok(vec![Artifact::new("recommend-tables.csv", self.csv()), Artifact::new("recommend-tables.json", json(self))])
    }
}
