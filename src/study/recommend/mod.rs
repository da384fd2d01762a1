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
mod tables;
mod today;
pub mod why;

use chains::Chains;
use daily::{daily_blocks, peaks_in};
use search::{autoscaled, eval, give_up, minute_demand, plan, screened, Chain, Eval};
pub use tables::{random_search, rows_for, table_rows, TableRow};
pub use today::Today;

use super::compare::{on_demand, provisioned, traffic_only};
use super::runner::par_indexed;
use super::screen::Demand;
use crate::cost::{bill, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{GiveUp, RunOptions};
use crate::scenario::{Scenario, TableClass};
use serde::Serialize;
use std::fmt::Write as _;

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
    fn holds(&self, e: &Eval) -> bool {
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

/// Which capacity modes a recommendation searches and may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct Modes {
    /// On-demand (always simulated: its run gives the demand).
    pub on_demand: bool,
    /// Provisioned at fixed capacity.
    pub provisioned: bool,
    /// Provisioned with auto scaling (target tracking, with scheduled floors where the
    /// history repeats daily).
    pub autoscaling: bool,
    /// Reserved capacity on the best provisioned or auto-scaled candidate.
    pub reserved: bool,
}

impl Modes {
    /// Every mode.
    pub const ALL: Modes = Modes { on_demand: true, provisioned: true, autoscaling: true, reserved: true };

    /// Does the set include `mode`?
    #[must_use]
    pub fn includes(&self, mode: Mode) -> bool {
        match mode {
            Mode::OnDemand => self.on_demand,
            Mode::Provisioned => self.provisioned,
            Mode::Autoscaling => self.autoscaling,
            Mode::Reserved => self.reserved,
        }
    }
}

/// A capacity mode a recommendation searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// On-demand.
    OnDemand,
    /// Provisioned at fixed capacity.
    Provisioned,
    /// Provisioned with auto scaling.
    Autoscaling,
    /// Reserved capacity on a provisioned candidate.
    Reserved,
}

impl Mode {
    /// Every mode, in the order reports list them.
    pub const ALL: [Mode; 4] = [Mode::OnDemand, Mode::Provisioned, Mode::Autoscaling, Mode::Reserved];

    /// `on_demand`, `provisioned`, `autoscaling`, `reserved`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::OnDemand => "on_demand",
            Mode::Provisioned => "provisioned",
            Mode::Autoscaling => "autoscaling",
            Mode::Reserved => "reserved",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Capacity settings of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Settings {
    /// On-demand, table and GSIs.
    OnDemand,
    /// Provisioned at fixed RCU/WCU, per resource (table first).
    Provisioned {
        /// [RCU, WCU] per resource.
        units: Vec<[u64; 2]>,
    },
    /// Provisioned with target tracking, per resource.
    Autoscaling {
        /// Target utilisation, percent.
        target: f64,
        /// [read, write] minimum per resource.
        min: Vec<[u64; 2]>,
        /// [read, write] maximum per resource.
        max: Vec<[u64; 2]>,
        /// Scheduled floors raised every day (empty: none).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        daily: Vec<DailyFloor>,
    },
    /// A provisioned candidate's run with reserved capacity.
    Reserved {
        /// The candidate it reserves for (index into the candidates).
        of: usize,
        /// Reserved RCU (table and GSIs together).
        rcu: u64,
        /// Reserved WCU.
        wcu: u64,
        /// Term, years.
        years: u32,
    },
}

impl Settings {
    /// The mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        match self {
            Settings::OnDemand => Mode::OnDemand,
            Settings::Provisioned { .. } => Mode::Provisioned,
            Settings::Autoscaling { .. } => Mode::Autoscaling,
            Settings::Reserved { .. } => Mode::Reserved,
        }
    }

    /// The settings in words, for the table's resource names `names`.
    #[must_use]
    pub fn describe(&self, names: &[String]) -> String {
        let per = |v: &[[u64; 2]], f: &dyn Fn(&[u64; 2]) -> String| -> String {
            v.iter().zip(names).map(|(x, n)| format!("{n} {}", f(x))).collect::<Vec<_>>().join("; ")
        };
        match self {
            Settings::OnDemand => "on-demand, table and GSIs".into(),
            Settings::Provisioned { units } => format!("provisioned: {}", per(units, &|x| format!("{} RCU / {} WCU", x[0], x[1]))),
            Settings::Autoscaling { target, min, max, daily } => {
                let both: Vec<[u64; 4]> = min.iter().zip(max).map(|(a, b)| [a[0], b[0], a[1], b[1]]).collect();
                let text: Vec<String> =
                    both.iter().zip(names).map(|(x, n)| format!("{n} read {}-{}, write {}-{}", x[0], x[1], x[2], x[3])).collect();
                let mut s = format!("auto scaling at {target:.0} %: {}", text.join("; "));
                for f in daily {
                    let hm = |m: u32| format!("{:02}:{:02}", m / 60 % 24, m % 60);
                    let floors: Vec<String> = f
                        .min
                        .iter()
                        .zip(names)
                        .filter(|(x, _)| x[0] > 0 || x[1] > 0)
                        .map(|(x, n)| {
                            let dims: Vec<String> =
                                [("read", x[0]), ("write", x[1])].iter().filter(|(_, u)| *u > 0).map(|(d, u)| format!("{d} {u}")).collect();
                            format!("{n} {}", dims.join(", "))
                        })
                        .collect();
                    let _ = write!(s, "; daily {}-{} UTC min {}", hm(f.from_min), hm(f.to_min), floors.join("; "));
                }
                s
            }
            Settings::Reserved { of, rcu, wcu, years } => {
                format!("candidate {of} with {rcu} RCU / {wcu} WCU reserved for {years} year(s)")
            }
        }
    }
}

/// A floor scheduled every day (Application Auto Scaling scheduled actions): from `from_min`
/// to `to_min` minutes after midnight UTC the scalable targets' `min` is raised to `min`
/// (0: unchanged), then set back. The raise is issued [`FLOOR_LEAD_S`] early, so capacity
/// is in place when the load arrives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DailyFloor {
    /// Start, minutes after midnight UTC.
    pub from_min: u32,
    /// End, minutes after midnight UTC (after `from_min`; past 1,440 for a floor over
    /// midnight).
    pub to_min: u32,
    /// [read, write] minimum per resource while raised, 0 where not raised.
    pub min: Vec<[u64; 2]>,
}

/// How early a scheduled floor is raised: an UpdateTable that adds capacity takes minutes
/// (spec §3.4), longer when partitions are added.
pub const FLOOR_LEAD_S: u64 = 15 * 60;

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
    /// Within both limits: throttled attempts and failed requests.
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
    /// The usage of the pick's setting, before any reservation (`recommend DIR` pools them).
    #[serde(skip)]
    pub pick_usage: Option<Usage>,
    /// The usage of each candidate's setting, when it was simulated (a reservation's: none).
    #[serde(skip)]
    pub usages: Vec<Option<Usage>>,
    /// The setting in force (the scenario's own), on the same traffic.
    pub today: Today,
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
    r
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
                c.by_dimension = e.by_dimension;
                c.complete = e.complete;
                c.screened = false;
                c.worst = e.worst;
                let within = c.within_limit;
                self.usages[i] = reservable(c).then_some(e.usage);
                if i != 0 && !within && self.simulations < CONFIRMATIONS + 1 && o.budget.is_none_or(|b| self.simulations < b) {
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
            prices: format!("{} prices read on {}", self.catalog.region, self.catalog.prices_read_on),
            kept: kept::unrecorded(sc).iter().map(|k| k.why(sc)).collect(),
            reservation_note: None,
            today: today::Today::default(),
            pick_usage,
            usages: self.usages,
        }
    }
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
