//! `recommend`: the cheapest capacity settings whose throttled share stays within a limit,
//! found by simulating candidates on the same traffic (common random numbers: the same seed
//! draws the same requests whatever the capacity).
//!
//! The search uses what is monotone in the model instead of sampling at random:
//!
//! 1. **on-demand**, once; its run (or, screened, the rate shapes) gives the demand per
//!    resource and minute.
//! 2. **provisioned, fixed**: capacity `ceil(peak demand x s)` for every resource and dimension;
//!    more capacity never throttles more, so `s` is found by bisection (the smallest that keeps
//!    within the limit).
//! 3. **auto scaling** at targets 90, 80, 70, 60, 50 and 40 %: for each, the floor `min` as a
//!    share `f` of the peak's need at that target, bisected to the lowest floor within the
//!    limit (`max` is 4 x the peak's need, never binding).
//!    Where the demand repeats daily and jumps within an hour (a nightly batch), the best
//!    target again with **scheduled floors** raised every day before the jump
//!    ([`DailyFloor`]), the base floor bisected the same way.
//! 4. **reserved capacity** on the cheapest provisioned candidate within the limit: the
//!    reservation (blocks of 100, table and GSIs together) that minimises its bill, found by
//!    billing the recorded provisioned series at every block, without simulating again.
//!
//! The chains of 2 and 3 run in parallel. By default ([`RecommendOptions::screen`]) every
//! candidate is first evaluated by the per-minute model of [`super::screen`], and the engine
//! simulates on-demand and the cheapest screened candidate within the limit (the next dearer
//! while one ends above it): the pick is always simulated. Without the screen every candidate
//! is simulated, about 50 (`budget` caps them); a random search over the same auto-scaling
//! space needs 256 to do as well (a test checks it on a bundled scenario). There, a candidate
//! sure to end above the limit is given up early ([`crate::engine::GiveUp`]): most of a
//! search's slow runs are such, and nothing the recommendation says changes (a test checks it).

mod chains;
mod daily;
mod kept;
pub mod pool;
pub mod quota_fit;
mod search;
mod settings;
mod tables;
mod today;
pub mod why;

use chains::Chains;
use daily::{daily_blocks, peaks_in};
use search::{autoscaled, eval, give_up, minute_demand, plan, screened, Chain, Eval};
pub use settings::{DailyFloor, Mode, Modes, Settings, FLOOR_LEAD_S};
pub use tables::{random_search, rows_for, table_rows, TableRow};
pub use today::Today;

use super::compare::{on_demand, provisioned, traffic_only};
use super::runner::par_indexed;
use super::screen::Demand;
use crate::cost::{bill, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{GiveUp, RunOptions};
use crate::scenario::{Scenario, TableClass, Window};
use crate::study::sustain::OnCredit;
use serde::Serialize;

/// Bisection steps of the fixed-capacity factor and of each target's floor.
const STEPS: usize = 6;
/// Screened candidates the engine confirms at most, on-demand aside.
const CONFIRMATIONS: usize = 4;

/// Options of a recommendation.
#[derive(Clone, Debug)]
pub struct RecommendOptions {
    /// Seed, fidelity, duration and stop token of every run.
    pub run: RunOptions,
    /// Largest throttled share of attempts allowed (0.001 = 0.1 %).
    pub max_throttle: f64,
    /// Largest failed share of requests allowed: a candidate holds, as `run`'s verdict judges,
    /// only if both its throttled attempts and its failed requests are within their limits.
    pub max_failed: f64,
    /// Reserved-capacity term, years (1 or 3).
    pub reserved_years: u32,
    /// Give up a candidate once its throttled share is sure to end above the limit (the
    /// recommendation is the same; the given-up candidates' figures are partial).
    pub give_up: bool,
    /// The modes searched and recommended.
    pub modes: Modes,
    /// At most this many simulations (at least 2); `None`: as many as the search takes.
    pub budget: Option<usize>,
    /// Screen the candidates with the per-minute model ([`super::screen`]) and simulate only
    /// on-demand and the best of them (the default); `false` simulates every candidate.
    pub screen: bool,
}

impl RecommendOptions {
    /// Whether a candidate's figures hold: throttled attempts within `max_throttle` and failed
    /// requests within `max_failed` (the one judgement every step of the search uses).
    /// A setting past the account's quotas never holds: AWS would refuse it.
    /// A window that goes on (`[scenario] window = "sustained"`, the default) holds only if
    /// it spends no burst credit or GSI absorption on net.
    fn holds(&self, e: &Eval) -> bool {
        self.within(e) && e.credit_ok
    }

    /// Within both limits, whatever it spent of its reserves.
    fn within(&self, e: &Eval) -> bool {
        e.past_quota.is_none() && e.throttled <= self.max_throttle && e.failed_share <= self.max_failed
    }
}

impl Default for RecommendOptions {
    fn default() -> Self {
        Self {
            run: RunOptions::default(),
            max_throttle: 0.001,
            max_failed: 0.001,
            reserved_years: 1,
            give_up: true,
            modes: Modes::ALL,
            budget: None,
            screen: true,
        }
    }
}

/// One simulated (or billed) candidate.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Candidate {
    /// What it sets.
    pub settings: Settings,
    /// The settings in words.
    pub description: String,
    /// Monthly cost (730 h) extrapolated from the window, USD; reserved upfront amortised.
    pub monthly_usd: f64,
    /// Throttled attempts over attempts.
    pub throttled_share: f64,
    /// Requests that failed.
    pub failed_requests: u64,
    /// Failed requests over requests.
    pub failed_share: f64,
    /// Of the failed requests, those given up because the SDK's retry quota was empty
    /// (`[client] instances` sets how many quotas the traffic shares).
    pub failed_by_retry_quota: u64,
    /// Holds: within both limits (throttled attempts and failed requests) and, when the
    /// window is sustained, without spending burst credit or GSI absorption on net.
    pub within_limit: bool,
    /// Monthly cost of read and of write capacity (request units, provisioned capacity,
    /// reservation fees), USD; storage is the rest.
    pub by_dimension: [f64; 2],
    /// The simulation ran to its end. A candidate given up once its throttled share was sure
    /// to end above the limit is not: its throttled share is the least it could have ended
    /// with, and its cost and failures are of the part simulated.
    pub complete: bool,
    /// Its figures are the per-minute screen's estimate, not a simulation's.
    pub screened: bool,
    /// Where its simulation throttled most: minute, resource and reason.
    pub worst: Option<why::Worst>,
    /// Why it was not picked (none for the pick).
    pub why_not: Option<String>,
    /// It provisions past `[account]`'s quotas (AWS refuses the UpdateTable): what and which.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub past_quota: Option<String>,
    /// It ends the window with no less burst credit and no more GSI debt than it began with.
    pub sustained: bool,
    /// Within both limits, but only on the burst credit and GSI absorption it spent: what, and
    /// how long the same load would last past the window (none when sustained).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_credit: Option<OnCredit>,
}

/// The recommendation.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Recommendation {
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// Simulated seconds of each run.
    pub duration_s: u64,
    /// The throttle limit.
    pub max_throttle: f64,
    /// The failed-requests limit.
    pub max_failed: f64,
    /// Simulations run.
    pub simulations: usize,
    /// Every candidate, in the order tried.
    pub candidates: Vec<Candidate>,
    /// The cheapest within the limit.
    pub pick: Option<usize>,
    /// Per mode, the cheapest within the limit (the runner-up in each mode).
    pub best_by_mode: Vec<(Mode, usize)>,
    /// Complete candidates no other beats on both cost and throttling, cheapest first.
    pub front: Vec<usize>,
    /// Region and date of the prices.
    pub prices: String,
    /// Capacities the search kept, each with why: a GSI dimension the imported history has no
    /// series for is never lowered.
    pub kept: Vec<String>,
    /// Why reserved capacity was not offered, when it was asked for and was not.
    pub reservation_note: Option<String>,
    /// When the pick is a reservation: the history it was sized on, a warning below a week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reservation_basis: Option<String>,
    /// The usage of the pick's setting, before any reservation (`recommend DIR` pools them).
    #[serde(skip)]
    pub pick_usage: Option<Usage>,
    /// The usage of each candidate's setting, when it was simulated (a reservation's: none).
    #[serde(skip)]
    pub usages: Vec<Option<Usage>>,
    /// The setting in force (the scenario's own), on the same traffic.
    pub today: Today,
    /// What the window stands for: with `sustained`, the pick holds without spending burst
    /// credit or GSI absorption; with `event`, it may spend them.
    pub window: Window,
    /// A simulated candidate cheaper than the pick that holds only on credit (a sustained
    /// window's pick cannot): shown beside the pick with what it rests on.
    pub on_credit_alternative: Option<usize>,
}

/// Searches the capacity settings of `sc` (see the module documentation).
#[must_use]
pub fn recommend(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions) -> Recommendation {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    // The setting in force, screened or simulated beside the search, on its own thread.
    let (mut r, today) = rayon::join(|| search(sc, &catalog, o), || today::today(sc, o, &catalog));
    r.today = today;
    r
}

/// The search of [`recommend`], without the setting in force.
fn search(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions) -> Recommendation {
    let mut search = Search::new(sc, catalog, o);
    // 1. On-demand: the demand, from the rate shapes when screening (no simulation yet), else
    // from the on-demand run.
    let duration_s = o.run.duration.unwrap_or(sc.duration).as_secs();
    let screen = if o.screen { Demand::of(sc, duration_s) } else { None };
    let (units, give_up) = search.on_demand(screen.as_ref());
    // 2 and 3. The bisection chains the modes ask for and the budget allows.
    search.chains(&units, screen.as_ref(), give_up, duration_s);
    // Screened: the engine confirms the best.
    if screen.is_some() {
        search.confirm();
    }
    // 4. Reserved capacity on the cheapest provisioned candidate within the limit (Standard
    // class only, simulated), when the window repeats and covers a day's shape.
    let reservation = if !o.modes.reserved {
        None
    } else if let Some(why) = no_reservation(sc, duration_s) {
        Some(why)
    } else if let Err(why) = catalog.sells_reserved(o.reserved_years) {
        Some(why)
    } else {
        search.reserve();
        None
    };
    let mut r = search.finish(duration_s);
    r.reservation_note = reservation;
    if r.pick.is_some_and(|i| matches!(r.candidates[i].settings, Settings::Reserved { .. })) {
        r.reservation_basis = Some(reservation_basis(duration_s, o.reserved_years));
    }
    r
}

/// What a reservation picked on a window of `duration_s` rests on: the hours or days of history
/// it was sized on, and below a week a warning that one window may not be the year's traffic.
#[must_use]
pub fn reservation_basis(duration_s: u64, years: u32) -> String {
    const WEEK_S: u64 = 7 * 86_400;
    let span = if duration_s < 2 * 86_400 {
        format!("{} h", crate::format::fmt_num(duration_s as f64 / 3_600.0))
    } else {
        format!("{} days", crate::format::fmt_num(duration_s as f64 / 86_400.0))
    };
    if duration_s < WEEK_S {
        format!(
            "warning: the {years}-year reservation is sized on {span} of history; a commitment wants a week or more \
             (`ddbsim import --days 14`) to show the traffic repeats"
        )
    } else {
        format!("the {years}-year reservation is sized on {span} of history")
    }
}

/// Why reserved capacity is not offered on `sc`'s window of `duration_s`, if it is not.
fn no_reservation(sc: &Scenario, duration_s: u64) -> Option<String> {
    crate::cost::no_reservation(sc.pricing.extrapolate, sc.table.table_class == TableClass::Standard, duration_s)
}

/// Whether a candidate may carry reserved capacity (`Search::reserve`): a provisioned or
/// auto-scaled candidate that holds. Only these keep their per-minute usage, so a search's
/// memory grows with the candidates that hold, not with every candidate tried.
fn reservable(c: &Candidate) -> bool {
    c.within_limit && matches!(c.settings, Settings::Provisioned { .. } | Settings::Autoscaling { .. })
}

/// A search under way: the candidates so far, their usage (for reserved capacity's bills) and
/// the simulations run.
struct Search<'a> {
    sc: &'a Scenario,
    catalog: &'a Catalog,
    o: &'a RecommendOptions,
    /// The table's and GSIs' names.
    names: Vec<String>,
    candidates: Vec<Candidate>,
    usages: Vec<Option<Usage>>,
    simulations: usize,
}

impl<'a> Search<'a> {
    fn new(sc: &'a Scenario, catalog: &'a Catalog, o: &'a RecommendOptions) -> Self {
        let names = std::iter::once(sc.table.name.clone()).chain(sc.gsis.iter().map(|g| g.name.clone())).collect();
        Self { sc, catalog, o, names, candidates: Vec::new(), usages: Vec::new(), simulations: 0 }
    }

    /// Adds a candidate; returns whether it is within the limit.
    fn push(&mut self, settings: Settings, e: Eval) -> bool {
        let within = self.o.holds(&e);
        let sustained = e.on_credit.is_none();
        let on_credit = if self.o.within(&e) { e.on_credit } else { None };
        self.candidates.push(Candidate {
            description: settings.describe(&self.names),
            settings,
            monthly_usd: e.monthly,
            throttled_share: e.throttled,
            failed_requests: e.failed,
            failed_share: e.failed_share,
            failed_by_retry_quota: e.failed_quota,
            within_limit: within,
            by_dimension: e.by_dimension,
            complete: e.complete,
            screened: e.screened,
            worst: e.worst,
            why_not: None,
            sustained,
            on_credit,
            past_quota: e.past_quota,
        });
        let c = &self.candidates[self.candidates.len() - 1];
        self.usages.push(reservable(c).then_some(e.usage));
        within
    }

    /// On-demand: screened from the rate shapes, or simulated. Returns the demand per
    /// resource and minute and when later candidates may give up.
    fn on_demand(&mut self, screen: Option<&Demand>) -> (Vec<Vec<[f64; 2]>>, Option<GiveUp>) {
        let (sc, o) = (self.sc, self.o);
        match screen {
            Some(d) => {
                self.push(Settings::OnDemand, screened(&on_demand(sc), d, self.catalog));
                (d.units.clone(), None)
            }
            None => {
                let (e, r_od) = eval(&on_demand(sc), o, self.catalog, None);
                self.simulations += 1;
                self.push(Settings::OnDemand, e);
                (minute_demand(&r_od), give_up(sc, o, &r_od))
            }
        }
    }

    /// The bisection chains in parallel: fixed capacity (the smallest multiple of the peak
    /// within the limit, in [0.25, 2]) and auto scaling per target (the lowest floor within
    /// the limit); then, where the demand repeats daily, scheduled floors at the best target
    /// found (70 % when none kept within the limit), raised every day before the hours whose
    /// load jumps, with the lowest base floor within the limit.
    fn chains(&mut self, units: &[Vec<[f64; 2]>], screen: Option<&Demand>, give_up: Option<GiveUp>, duration_s: u64) {
        let (sc, o) = (self.sc, self.o);
        let blocks = daily_blocks(units, duration_s, sc.start_unix_s);
        let (chains, steps) = plan(o, !blocks.is_empty());
        let runner = Chains {
            sc,
            o,
            catalog: self.catalog,
            screen,
            give_up,
            base: traffic_only(sc),
            units,
            peak: peaks_in(units, |_| true),
            blocks,
            steps,
            planned: 1 + chains.len() as u64 * (steps as u64 + 1),
            done: std::sync::atomic::AtomicU64::new(1),
            kept: kept::unrecorded(sc),
        };
        let first: Vec<Chain> = chains.iter().copied().filter(|c| !matches!(c, Chain::Daily(_))).collect();
        for evals in par_indexed(first.len() as u64, |i| runner.run(first[i as usize])) {
            self.take(evals);
        }
        if chains.iter().any(|c| matches!(c, Chain::Daily(_))) {
            let best = self
                .candidates
                .iter()
                .filter(|c| c.within_limit)
                .filter_map(|c| match c.settings {
                    Settings::Autoscaling { target, .. } => Some((c.monthly_usd, target)),
                    _ => None,
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(70.0, |(_, t)| t);
            let evals = runner.run(Chain::Daily(best));
            self.take(evals);
        }
    }

    /// Adds a chain's candidates, counting its simulations.
    fn take(&mut self, evals: Vec<(Settings, Eval)>) {
        self.simulations += evals.iter().filter(|e| !e.1.screened).count();
        for (settings, e) in evals {
            self.push(settings, e);
        }
    }

    /// The engine confirms on-demand and the cheapest other screened candidate within the
    /// limit, in parallel; while a confirmed one ends above the limit, the next dearer one.
    fn confirm(&mut self) {
        let (sc, o) = (self.sc, self.o);
        let mut confirm: Vec<usize> = vec![0];
        let mut others: Vec<usize> = (1..self.candidates.len()).filter(|&i| self.candidates[i].within_limit).collect();
        others.sort_by(|&a, &b| self.candidates[a].monthly_usd.total_cmp(&self.candidates[b].monthly_usd).then(a.cmp(&b)));
        let mut others = others.into_iter();
        confirm.extend(others.next());
        // A sustained window: the cheapest candidate that holds only on credit, when cheaper
        // than the first to confirm, is simulated beside it (shown with what it rests on).
        let cheapest = confirm.get(1).map_or(f64::INFINITY, |&i| self.candidates[i].monthly_usd);
        confirm.extend(
            (1..self.candidates.len())
                .filter(|&i| self.candidates[i].on_credit.is_some() && self.candidates[i].monthly_usd < cheapest)
                .min_by(|&a, &b| self.candidates[a].monthly_usd.total_cmp(&self.candidates[b].monthly_usd).then(a.cmp(&b))),
        );
        while !confirm.is_empty() {
            let candidates = &self.candidates;
            let runs = par_indexed(confirm.len() as u64, |k| {
                let i = confirm[k as usize];
                apply(sc, &candidates[i].settings).map(|s| eval(&s, o, self.catalog, None).0)
            });
            let mut next = Vec::new();
            for (&i, e) in confirm.iter().zip(runs) {
                let Some(e) = e else { continue };
                self.simulations += 1;
                let c = &mut self.candidates[i];
                c.monthly_usd = e.monthly;
                c.throttled_share = e.throttled;
                c.failed_requests = e.failed;
                c.failed_share = e.failed_share;
                c.failed_by_retry_quota = e.failed_quota;
                c.within_limit = o.holds(&e);
                c.sustained = e.on_credit.is_none();
                c.on_credit = if o.within(&e) { e.on_credit.clone() } else { None };
                c.by_dimension = e.by_dimension;
                c.complete = e.complete;
                c.screened = false;
                c.worst = e.worst;
                let within = c.within_limit;
                self.usages[i] = reservable(c).then_some(e.usage);
                if i != 0
                    && !within
                    && c.on_credit.is_none()
                    && self.simulations < CONFIRMATIONS + 1
                    && o.budget.is_none_or(|b| self.simulations < b)
                {
                    next.extend(others.next());
                }
            }
            confirm = next;
        }
    }

    /// Reserved capacity on the cheapest simulated provisioned or auto-scaled candidate within
    /// the limit: every block count up to the series' peak, billed.
    fn reserve(&mut self) {
        let (sc, o) = (self.sc, self.o);
        let best = self
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| reservable(c) && !c.screened)
            .min_by(|a, b| a.1.monthly_usd.total_cmp(&b.1.monthly_usd))
            .map(|(i, _)| i);
        let Some(i) = best else { return };
        let usage = self.usages[i].clone().expect("simulated candidates keep their usage");
        let total = |f: fn(&crate::cost::ResourceUsage) -> &Vec<f64>| {
            let n = usage.resources.iter().map(|r| f(r).len()).max().unwrap_or(0);
            (0..n).map(|m| usage.resources.iter().map(|r| f(r).get(m).copied().unwrap_or(0.0)).sum()).collect::<Vec<f64>>()
        };
        // Up to the block that covers the peak: a block used more than about 46 % of the time
        // pays, so the one above the peak's last full block may too.
        let top = |v: Vec<f64>| (v.into_iter().fold(0.0, f64::max).ceil() as u64).div_ceil(RESERVED_BLOCK);
        let (rmax, wmax) = (top(total(|r| &r.provisioned_rcu_by_minute)), top(total(|r| &r.provisioned_wcu_by_minute)));
        let cost = |rcu: u64, wcu: u64| {
            let res = Reservation { rcu, wcu, years: o.reserved_years };
            bill(&usage, self.catalog, &BillOptions { reservation: Some(res), extrapolate: false, ..BillOptions::of(&sc.pricing) })
                .monthly_rate_usd()
        };
        // Reads and writes are billed apart: each dimension's best block count alone.
        let best_r = (0..=rmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(*a, 0).total_cmp(&cost(*b, 0))).unwrap_or(0);
        let best_w = (0..=wmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(0, *a).total_cmp(&cost(0, *b))).unwrap_or(0);
        if best_r + best_w == 0 {
            return;
        }
        let c = &self.candidates[i];
        // Reads and writes are billed apart, so each dimension's share of the saving is its
        // own reservation's.
        let none = cost(0, 0);
        let by_dimension = [c.by_dimension[0] + cost(best_r, 0) - none, c.by_dimension[1] + cost(0, best_w) - none];
        let settings = Settings::Reserved { of: i, rcu: best_r, wcu: best_w, years: o.reserved_years };
        let candidate = Candidate {
            description: format!("{}, with {best_r} RCU / {best_w} WCU reserved for {} year(s)", c.description, o.reserved_years),
            settings,
            monthly_usd: cost(best_r, best_w),
            throttled_share: c.throttled_share,
            failed_requests: c.failed_requests,
            failed_share: c.failed_share,
            failed_by_retry_quota: c.failed_by_retry_quota,
            within_limit: c.within_limit,
            by_dimension,
            complete: c.complete,
            screened: false,
            worst: c.worst.clone(),
            why_not: None,
            sustained: c.sustained,
            on_credit: c.on_credit.clone(),
            past_quota: c.past_quota.clone(),
        };
        self.candidates.push(candidate);
        self.usages.push(None);
    }

    /// The recommendation: the pick (simulated), each mode's best (its cheapest simulated
    /// candidate, else its cheapest screened one, marked so) and the cost-throttling front.
    fn finish(self, duration_s: u64) -> Recommendation {
        let (sc, o, mut candidates) = (self.sc, self.o, self.candidates);
        let cheapest = |filter: &dyn Fn(&Candidate) -> bool| {
            candidates
                .iter()
                .enumerate()
                .filter(|(_, c)| c.within_limit && filter(c))
                .min_by(|a, b| a.1.monthly_usd.total_cmp(&b.1.monthly_usd))
                .map(|(i, _)| i)
        };
        let pick = cheapest(&|c| !c.screened && o.modes.includes(c.settings.mode()));
        let best_by_mode = Mode::ALL
            .into_iter()
            .filter(|m| o.modes.includes(*m))
            .filter_map(|m| {
                cheapest(&|c| !c.screened && c.settings.mode() == m).or_else(|| cheapest(&|c| c.settings.mode() == m)).map(|i| (m, i))
            })
            .collect();
        let on_credit_alternative = cheapest_on_credit(&candidates, pick);
        let picked = pick.map(|i| candidates[i].clone());
        for (i, c) in candidates.iter_mut().enumerate() {
            if pick != Some(i) {
                c.why_not = Some(why::why_not(c, picked.as_ref(), o.max_throttle, o.max_failed, sc.start_unix_s));
            }
        }
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| candidates[a].monthly_usd.total_cmp(&candidates[b].monthly_usd).then(a.cmp(&b)));
        let mut front = Vec::new();
        let mut best_throttle = f64::INFINITY;
        for i in order.into_iter().filter(|&i| candidates[i].complete) {
            if candidates[i].throttled_share < best_throttle {
                best_throttle = candidates[i].throttled_share;
                front.push(i);
            }
        }
        let pick_usage = pick.and_then(|i| match candidates[i].settings {
            Settings::Reserved { of, .. } => self.usages[of].clone(),
            _ => self.usages[i].clone(),
        });
        Recommendation {
            scenario: sc.name.clone(),
            seed: o.run.seed.unwrap_or(sc.seed),
            duration_s,
            max_throttle: o.max_throttle,
            max_failed: o.max_failed,
            simulations: self.simulations,
            candidates,
            pick,
            best_by_mode,
            front,
            prices: self.catalog.label(sc.start_unix_s),
            kept: kept::unrecorded(sc).iter().map(|k| k.why(sc)).collect(),
            reservation_note: None,
            reservation_basis: None,
            today: today::Today::default(),
            window: sc.window,
            on_credit_alternative,
            pick_usage,
            usages: self.usages,
        }
    }
}

/// The cheapest simulated candidate within the limits that holds only on credit and is
/// cheaper than the pick (or any, when none holds), when the window must hold sustained.
fn cheapest_on_credit(candidates: &[Candidate], pick: Option<usize>) -> Option<usize> {
    let bar = pick.map_or(f64::INFINITY, |i| candidates[i].monthly_usd);
    candidates
        .iter()
        .enumerate()
        .filter(|(i, c)| Some(*i) != pick && !c.within_limit && !c.screened && c.on_credit.is_some() && c.monthly_usd < bar)
        .min_by(|a, b| a.1.monthly_usd.total_cmp(&b.1.monthly_usd))
        .map(|(i, _)| i)
}

/// The scenario a candidate describes (for `--write`-style exports and tests).
#[must_use]
pub fn apply(sc: &Scenario, s: &Settings) -> Option<Scenario> {
    let base = traffic_only(sc);
    match s {
        Settings::OnDemand => Some(on_demand(sc)),
        Settings::Provisioned { units } => Some(provisioned(&base, units)),
        Settings::Autoscaling { target, min, max, daily } => Some(autoscaled(&base, *target, min, max, daily)),
        Settings::Reserved { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::CapacitySpec;

    /// Bisection keeps the smallest passing value: a threshold at 0.3 in [0, 1] with 6 steps
    /// ends within 1/64 above it, after 7 evaluations.
    #[test]
    fn bisection_finds_the_threshold() {
        let evals = search::bisect(0.0, 1.0, 6, |x| (x >= 0.3, ()));
        assert_eq!(evals.len(), 7);
        let best = evals.iter().filter(|e| e.1).map(|e| e.0).fold(f64::INFINITY, f64::min);
        assert!((0.3..0.3 + 1.0 / 64.0).contains(&best), "{best}");
        assert_eq!(search::bisect(0.0, 1.0, 6, |_| (false, ())).len(), 1, "nothing passes: one evaluation");
    }

    /// The capacity a candidate carries is what its scenario runs with.
    #[test]
    fn settings_apply_to_the_scenario() {
        let sc = crate::scenario::parse_str(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 5, write = 5 }\n[keys.k]\ncardinality = 10\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nrate = { constant = 1 }\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let s = apply(&sc, &Settings::Autoscaling { target: 70.0, min: vec![[10, 20]], max: vec![[100, 200]], daily: Vec::new() }).unwrap();
        assert!(matches!(s.table.capacity, CapacitySpec::Provisioned { read: 10, write: 20 }));
        let a = s.table.autoscaling.unwrap();
        assert_eq!((a.write.unwrap().min, a.write.unwrap().max), (20, 200));
        assert!((a.read.unwrap().target - 0.7).abs() < 1e-12);
    }
}
