//! The simulation loop: one scenario, one seed, one replication, single-threaded.
//!
//! Time advances a second at a time, because DynamoDB enforces throughput per second: each
//! second opens fresh admission windows ([`crate::model::resource`]). Each second:
//!
//! 1. the [`schedule`] runs what is due: `[[at]]` actions, then completions (UpdateTable,
//!    pre-warm, split for heat);
//! 2. GSIs being built take their share of write capacity ([`crate::model::indexes`]);
//! 3. the second's traffic is drawn ([`draw`]) and admitted ([`admission`]): **exact**
//!    fidelity draws every request and admits them one by one in time order; **fast** fidelity
//!    (the default) draws per-partition counts, admits the second in bulk when its whole demand
//!    fits every cap and budget (then the order of arrival cannot matter), and otherwise gives
//!    the same counts uniform arrival times and replays them. A Poisson process is a Poisson
//!    count with uniform times, split by partition, so both paths have the exact model's
//!    distribution;
//! 4. the second closes: consumption, capacity and mode go into the minute's record.
//!
//! Every minute, the [`crate::model::control`] controllers see the minute's consumption (auto
//! scaling, on-demand growth, splits for heat and size) and return commands this loop applies.

/// A short cut of the engine that a test can switch off on its own thread, to compare it with
/// the path it cuts short: `$on()` says whether it is taken (always, outside tests), `$name`
/// is the switch.
macro_rules! test_switch {
    ($(#[$doc:meta])* $name:ident, $on:ident) => {
        #[cfg(not(test))]
        #[inline]
        fn $on() -> bool {
            true
        }

        #[cfg(test)]
        thread_local! {
            $(#[$doc])*
            pub(crate) static $name: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
        }

        #[cfg(test)]
        fn $on() -> bool {
            $name.with(std::cell::Cell::get)
        }
    };
}

mod account;
mod admission;
mod attempt;
pub(crate) mod draw;
pub(crate) mod queue;
mod result;
mod schedule;
mod table;
mod ttl;

pub use crate::model::reserve::{CreditLevel, IndexLevel, Reserve};
pub use crate::scenario::{ResourceId, ResourceKind};
pub use account::simulate_account;
pub use result::{
    CapacityEvent, CollectionInfo, Crossing, DaxMinute, DaxOutcome, GiveUp, GivenUp, HotKey, Progress, ResourceOutcome, RunOptions,
    RunResult, StopToken,
};

use crate::metrics::{MinuteRecord, Recorder};
use crate::model::client::Client;
use crate::rng::{RngStreams, SimRng, Stream};
use crate::scenario::{Fidelity, IndexRef, Scenario};
use crate::time::{SimTime, MICROS_PER_SEC};
use admission::Admission;
use attempt::{Attempt, SimpleCount};
use draw::{ClosedNext, Traffic};
use queue::EventQueue;
use schedule::{Schedule, Scheduled};
use table::{Effects, Table};

/// Runs a scenario.
#[must_use]
pub fn simulate(sc: &Scenario, opts: &RunOptions) -> RunResult {
    let mut sim = Simulation::new(sc, opts);
    sim.run();
    sim.finish()
}

/// Does a second that surely fits (fast fidelity: one that needs burst credit; exact: any,
/// without a retry due in it) go in `(time, seq)` order without the replay's throttling
/// branches ([`admission::Admission::admits_all`])?
/// Always, but in the test that compares it with the replay.
#[cfg(not(test))]
#[inline]
fn sure_path() -> bool {
    true
}

#[cfg(test)]
thread_local! {
    /// (the sure path is on, seconds it admitted) on this thread.
    static SURE_PATH: std::cell::Cell<(bool, u64)> = const { std::cell::Cell::new((true, 0)) };
}

#[cfg(test)]
fn sure_path() -> bool {
    SURE_PATH.with(|c| c.get().0)
}

/// The admission context of the current second, borrowed field by field.
macro_rules! admission {
    ($s:expr) => {
        Admission {
            res: &mut $s.table.res,
            pats: &$s.traffic.pats,
            rec: &mut $s.rec,
            client: &mut $s.fleet.client,
            retries: &mut $s.fleet.retries,
            jitter: &mut $s.fleet.jitter,
            indexes: &mut $s.table.indexes,
            collections: &mut $s.table.collections,
            scratch: &mut $s.table.scratch,
            own: $s.table.own,
            lent: &$s.table.lent,
            active: &$s.table.active,
            follows: &mut $s.traffic.follows,
            service_us: $s.sc.client.service_time.as_micros(),
        }
    };
}

/// The table's effects context, borrowed field by field.
macro_rules! effects {
    ($s:expr) => {
        Effects { schedule: &mut $s.schedule, events: &mut $s.events, rec: &mut $s.rec }
    };
}

/// How the run goes: its seed, fidelity and length, and how it ended.
struct RunState {
    seed: u64,
    fidelity: Fidelity,
    duration_s: u64,
    stopped: bool,
    /// Where the run gave up ([`RunOptions::give_up`]).
    given_up: Option<GivenUp>,
    /// Seconds admitted in bulk (fast fidelity) and replayed.
    bulk_seconds: u64,
    replayed_seconds: u64,
    /// Each resource's reserves before the first second.
    reserves_at_start: Vec<Reserve>,
}

/// The application's side: its client, the attempts waiting to be retried, and the retry
/// jitter's stream.
struct Fleet {
    client: Client,
    retries: EventQueue<Attempt>,
    jitter: SimRng,
}

/// A second's buffers, reused from second to second.
#[derive(Default)]
struct Buffers {
    batch: Vec<Attempt>,
    /// Exact fidelity's compact second.
    compact: draw::CompactSecond,
    simple: Vec<SimpleCount>,
}

struct Simulation<'a> {
    sc: &'a Scenario,
    opts: &'a RunOptions,
    run: RunState,
    table: Table<'a>,
    traffic: Traffic,
    fleet: Fleet,
    schedule: Schedule,
    rec: Recorder,
    events: Vec<CapacityEvent>,
    buffers: Buffers,
}

impl<'a> Simulation<'a> {
    fn new(sc: &'a Scenario, opts: &'a RunOptions) -> Self {
        let seed = opts.seed.unwrap_or(sc.seed);
        let streams = RngStreams::new(seed, opts.replication);
        let duration_s = opts.duration.unwrap_or(sc.duration).as_secs().max(1);
        let table = Table::new(sc, &streams, duration_s);
        let mut schedule = Schedule::default();
        for (i, a) in sc.actions.iter().enumerate() {
            schedule.push(a.time.as_secs(), Scheduled::Action(i));
        }
        Self {
            sc,
            opts,
            run: RunState {
                seed,
                fidelity: opts.fidelity.unwrap_or(sc.fidelity),
                duration_s,
                stopped: false,
                given_up: None,
                bulk_seconds: 0,
                replayed_seconds: 0,
                reserves_at_start: Vec::new(),
            },
            traffic: Traffic::new(sc, &streams).with_collection_bounds(sc, duration_s),
            fleet: Fleet { client: Client::new(sc.client), retries: EventQueue::default(), jitter: streams.rng(Stream::Jitter, 0) },
            schedule,
            rec: Recorder::new(table.res.len(), sc.patterns.len(), sc.entities.len()),
            events: Vec::new(),
            buffers: Buffers::default(),
            table,
        }
    }

    fn run(&mut self) {
        self.start();
        for s in 0..self.run.duration_s {
            if !self.step(s) {
                return;
            }
        }
        self.end();
    }

    /// Before the first second: the scalable targets are registered.
    fn start(&mut self) {
        self.table.register(&mut effects!(self));
        self.run.reserves_at_start = reserves(&self.table);
    }

    /// Second `s`; `false` when the run stops at its end (stopped, or given up).
    fn step(&mut self, s: u64) -> bool {
        self.open_second(s);
        self.second(s);
        self.close_second(s)
    }

    /// Second `s` before its traffic: what is scheduled, and the backfills' share.
    fn open_second(&mut self, s: u64) {
        self.scheduled(s);
        self.table.backfills(s, &mut effects!(self), &mut self.traffic);
    }

    /// Second `s` after its traffic; `false` when the run stops at its end.
    fn close_second(&mut self, s: u64) -> bool {
        let duration_s = self.run.duration_s;
        self.paced_loads_done(s);
        self.traffic.dax_second(s);
        self.table.drain_buffers(s);
        self.table.replicate(s, &mut self.rec.cur);
        self.table.close_second(&mut self.rec.cur);
        if (s + 1).is_multiple_of(60) {
            self.end_minute(s / 60);
            self.table.control_minute(s + 1, &mut effects!(self), &self.traffic);
            if let Some(p) = &self.opts.progress {
                p.simulated(s + 1, duration_s);
            }
            if self.opts.stopped() {
                self.run.stopped = true;
                return false;
            }
            if let Some(least_share) = self.over_limit() {
                self.run.given_up = Some(GivenUp { at_s: s + 1, least_share });
                return false;
            }
        }
        true
    }

    /// After the last second: a partial minute's record, and what was still waiting.
    fn end(&mut self) {
        let duration_s = self.run.duration_s;
        if !duration_s.is_multiple_of(60) {
            self.end_minute(duration_s / 60);
        }
        for a in self.fleet.retries.drain() {
            // A closed loop's next request, due after the end, was never sent: not offered,
            // so not pending either.
            if a.n > 1 || a.page > 0 {
                self.rec.patterns[a.pat as usize].pending_at_end += 1;
            }
        }
    }

    /// Runs every scheduled item due at second `s`.
    fn scheduled(&mut self, s: u64) {
        while let Some(item) = self.schedule.pop_due(s) {
            match item {
                Scheduled::Action(i) => self.table.action(s, i, &mut effects!(self), &mut self.traffic),
                Scheduled::Completion { res, what } => self.table.complete(s, res, what, &mut effects!(self)),
            }
        }
    }

    /// Closes minute `minute`: the table's records, the DAX cluster's minute and the latency
    /// of the minute.
    fn end_minute(&mut self, minute: u64) {
        let secs = (self.run.duration_s - minute * 60).min(60);
        if let Some(d) = &mut self.traffic.dax {
            d.end_minute();
        }
        self.table.end_minute(minute, secs, self.opts.record_partitions, &mut effects!(self), &self.traffic);
        self.rec.close_minute();
    }

    /// Is the run's throttled share sure to end above the give-up limit? The most attempts
    /// it can end with: those sent, each page not yet sent taking every attempt, and each
    /// request waiting to retry its remaining ones.
    /// Returns the least share it can end with when that is above the limit.
    fn over_limit(&self) -> Option<f64> {
        let g = self.opts.give_up?;
        let (mut attempts, mut pages, mut throttled) = (0, 0, 0);
        for p in &self.rec.patterns {
            attempts += p.attempts;
            pages += p.pages_sent;
            throttled += p.throttled_attempts;
        }
        let most = attempts + g.pages.saturating_sub(pages) * g.attempts + self.fleet.retries.len() as u64 * g.attempts.saturating_sub(1);
        let least = throttled as f64 / most.max(1) as f64;
        (least > g.max_share).then_some(least)
    }

    // ---------------------------------------------------------------- one second

    /// Draws and admits second `s`.
    fn second(&mut self, s: u64) {
        let t1 = SimTime::from_secs(s + 1);
        let mut batch = std::mem::take(&mut self.buffers.batch);
        batch.clear();
        match self.run.fidelity {
            Fidelity::Exact => {
                self.run.replayed_seconds += 1;
                let retry_due = self.fleet.retries.peek_key().is_some_and(|k| k.0 < t1.as_micros());
                if !retry_due && sure_path() && self.traffic.compact_second(s, &self.table.res) {
                    self.compact_second(s, &mut batch, t1);
                } else {
                    self.traffic.draw_exact(s, &mut batch, &self.table.res, &self.table.active);
                    if s == 0 {
                        self.traffic.closed_start(&mut batch, &self.table.res, &self.table.active);
                    }
                    // A second that admits every attempt whatever its order, with no retry
                    // due in it, is admitted without the throttling branches (the same
                    // outcome).
                    if !retry_due && sure_path() && admission!(self).admits_all(&batch) {
                        #[cfg(test)]
                        SURE_PATH.with(|c| c.set((true, c.get().1 + 1)));
                        admission!(self).admit_sure(&mut batch);
                    } else {
                        self.replay(&mut batch, t1);
                    }
                }
            }
            Fidelity::Fast => {
                let mut simple = std::mem::take(&mut self.buffers.simple);
                simple.clear();
                self.traffic.draw_fast(s, &mut simple, &mut batch, &self.table.res, &self.table.active);
                if s == 0 {
                    self.traffic.closed_start(&mut batch, &self.table.res, &self.table.active);
                }
                while let Some(a) = self.fleet.retries.pop_before(t1.as_micros()) {
                    batch.push(a);
                }
                if admission!(self).fits(&simple, &batch) {
                    self.run.bulk_seconds += 1;
                    admission!(self).admit_bulk(&simple, &batch);
                    batch.clear();
                } else {
                    self.run.replayed_seconds += 1;
                    self.traffic.spread(s, &simple, &mut batch);
                    if sure_path() && admission!(self).admits_all(&batch) {
                        #[cfg(test)]
                        SURE_PATH.with(|c| c.set((true, c.get().1 + 1)));
                        admission!(self).admit_sure(&mut batch);
                    } else {
                        self.replay(&mut batch, t1);
                    }
                }
                self.buffers.simple = simple;
            }
        }
        self.buffers.batch = batch;
        self.refuse_unreadable();
    }

    /// A paced load (a bulk put) is done at the end of the second its last item is written.
    fn paced_loads_done(&mut self, s: u64) {
        for j in 0..self.rec.patterns.len() {
            let t = &mut self.rec.patterns[j];
            if let (Some(load), None) = (self.traffic.paced(j), t.finished_us) {
                if t.served >= load.items {
                    t.finished_us = Some((s + 1) * MICROS_PER_SEC);
                }
            }
        }
    }

    /// Exact fidelity's second `s` of single-item requests only
    /// ([`draw::Traffic::compact_second`]): drawn as times and partitions; a second that
    /// surely fits is admitted from them, any other is replayed attempt by attempt.
    fn compact_second(&mut self, s: u64, batch: &mut Vec<Attempt>, t1: SimTime) {
        let mut compact = std::mem::take(&mut self.buffers.compact);
        self.traffic.draw_compact(s, &mut compact, &self.table.res);
        if admission!(self).admits_compact(&compact) {
            #[cfg(test)]
            SURE_PATH.with(|c| c.set((true, c.get().1 + 1)));
            admission!(self).admit_compact(&compact);
        } else {
            draw::Traffic::expand(&compact, batch);
            self.replay(batch, t1);
        }
        self.buffers.compact = compact;
    }

    /// The second's reads of an index that cannot be read yet: DynamoDB answers each with a
    /// ValidationException (an HTTP 400, a user error; not retried).
    fn refuse_unreadable(&mut self) {
        for j in 0..self.traffic.refused.len() {
            let n = std::mem::take(&mut self.traffic.refused[j]);
            if n == 0 {
                continue;
            }
            let t = &mut self.rec.patterns[j];
            t.offered += n;
            t.attempts += n;
            t.pages_sent += n;
            t.failed_index_not_ready += n;
            let m = &mut self.rec.minute_attempts;
            m[0] += n;
            m[2] += n;
            m[3] += n;
            self.rec.cur[0].user_errors += n;
        }
    }

    /// Replays `batch` and the retries due before `t1`; each answered closed-loop request
    /// sends its thread's next one (spec: a closed loop waits for every answer).
    fn replay(&mut self, batch: &mut Vec<Attempt>, t1: SimTime) {
        let mut next = Vec::new();
        loop {
            let runs = self.run.fidelity == Fidelity::Exact;
            let done = admission!(self).replay(batch, t1, runs);
            let tickets = admission!(self).take_tickets();
            if tickets.is_empty() && done {
                return;
            }
            for (j, t_us, failed) in tickets {
                let j = j as usize;
                match self.traffic.closed_answer(j, t_us, failed) {
                    ClosedNext::Send(at) => {
                        next.clear();
                        self.traffic.draw_request(
                            j,
                            at / MICROS_PER_SEC,
                            SimTime::from_micros(at),
                            &mut next,
                            &self.table.res,
                            &self.table.active,
                        );
                        for a in next.drain(..) {
                            self.fleet.retries.push(a);
                        }
                    }
                    ClosedNext::Finished(at) => self.rec.patterns[j].finished_us = Some(at),
                    ClosedNext::Idle => {}
                }
            }
        }
    }

    // ---------------------------------------------------------------- the schedule

    // ---------------------------------------------------------------- the result

    fn key_label(&self, ks: usize, rank: u64) -> String {
        let space = &self.sc.key_spaces[ks];
        space.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", space.name, rank + 1))
    }

    fn finish(self) -> RunResult {
        let layout = self.table.layout;
        let offered: Vec<u64> = self.rec.patterns.iter().map(|p| p.offered).collect();
        let hot_keys = self
            .traffic
            .hot_keys(&offered, self.run.duration_s)
            .into_iter()
            .map(|h| HotKey {
                resource: self.table.res[h.res].name().to_string(),
                key: self.key_label(h.ks, h.rank),
                key_space: self.sc.key_spaces[h.ks].name.clone(),
                partition: self.traffic.partition_of_key(&self.table.res[h.res], h.ks, h.rank),
                requests_per_s: (h.rate * 100.0).round() / 100.0,
                entities: self
                    .sc
                    .entities
                    .iter()
                    .enumerate()
                    .filter(|(e, _)| h.entities >> (*e).min(63) & 1 == 1)
                    .map(|(_, e)| e.name.clone())
                    .collect(),
            })
            .collect();
        let stale_read_share = self
            .sc
            .patterns
            .iter()
            .map(|p| match (p.after_write, p.index) {
                (Some(d), Some(IndexRef::Gsi(g))) => {
                    self.table.indexes[layout.slot(ResourceId::gsi(g))].as_ref().map(|i| i.propagation.delays.share_above(d.as_micros()))
                }
                _ => None,
            })
            .collect();
        let item_collections = self.table.collections.report(|ks, rank| self.key_label(ks, rank));
        let Recorder { resources, partitions, patterns, latency, latency_by_minute, attempts_by_minute, entity_shares, .. } = self.rec;
        let at_end = reserves(&self.table);
        let at_start = &self.run.reserves_at_start;
        let outcomes = self
            .table
            .res
            .iter()
            .zip(resources)
            .zip(&self.table.indexes)
            .zip(layout.ids())
            .enumerate()
            .map(|(k, (((r, minutes), idx), id))| ResourceOutcome {
                reserves: [at_start.get(k).copied().unwrap_or_default(), at_end[k]],
                name: r.name().to_string(),
                id,
                region: id.replica_number().map(|n| self.sc.replicas[n].region.clone()),
                minutes,
                final_mode: r.mode().kind(),
                stored_bytes: r.bytes(),
                lag_ms: idx
                    .as_ref()
                    .map(|i| &i.propagation.delays)
                    .filter(|d| d.count() > 0)
                    .map(|d| [d.quantile(0.5), d.quantile(0.99), d.max()].map(|us| us as f64 / 1_000.0)),
            })
            .collect();
        RunResult {
            condition_writes: self.sc.patterns.iter().any(|p| p.condition_fails > 0.0),
            user_errors_reported: !self.sc.lsis.is_empty() || self.sc.gsis.iter().any(|g| g.added_during_run),
            operations: crate::scenario::Op::ALL.map(|op| {
                let mrsc = if op.is_write() { self.sc.table.mrsc_write_latency.map_or(0, |d| d.as_micros()) } else { 0 };
                self.sc.patterns.iter().any(|p| p.op == op).then(|| self.sc.client.service_time.as_micros() + mrsc)
            }),
            seed: self.run.seed,
            fidelity: self.run.fidelity,
            duration_s: self.run.duration_s,
            stopped: self.run.stopped,
            given_up: self.run.given_up,
            resources: outcomes,
            patterns,
            partitions,
            entity_shares,
            latency,
            latency_by_minute,
            attempts_by_minute,
            events: self.events,
            bulk_seconds: self.run.bulk_seconds,
            replayed_seconds: self.run.replayed_seconds,
            hot_keys,
            stale_read_share,
            item_collections,
            dax: self.traffic.dax.map(|d| DaxOutcome {
                node_type: d.spec.node_type,
                nodes: d.spec.nodes,
                minutes: d.minutes.iter().map(|m| DaxMinute { hits: m[0], misses: m[1], peak_load_share: m[2] }).collect(),
            }),
            crossings: Vec::new(),
        }
    }
}

/// Each resource's reserves now: its burst credit and its index's back-pressure state.
fn reserves(table: &Table<'_>) -> Vec<Reserve> {
    table
        .res
        .iter()
        .zip(&table.indexes)
        .map(|(r, idx)| Reserve { credit: r.credit(), index: idx.as_ref().and_then(|i| i.buffer.as_ref()).map(|b| b.fullest(r)) })
        .collect()
}

impl MinuteRecord {
    /// Was the resource provisioned for at least one second of the minute?
    #[must_use]
    pub fn was_provisioned(&self) -> bool {
        self.provisioned_seconds > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A test scenario from its text (panics with the problems if it is invalid).
    fn scenario(text: &str) -> Scenario {
        crate::scenario::parse_str(text, Path::new("test.toml")).unwrap_or_else(|e| panic!("test scenario invalid:\n{e}"))
    }

    /// `sc` run in `fidelity` (the scenario's own: `None`) with the sure path on and off: the
    /// two results printed field by field, the seconds the sure path admitted, and the run
    /// with it.
    fn sure_and_replay(sc: &Scenario, fidelity: Option<Fidelity>) -> (String, String, u64, RunResult) {
        let run = |on: bool| {
            SURE_PATH.with(|c| c.set((on, 0)));
            let r = simulate(sc, &RunOptions { record_partitions: true, fidelity, ..RunOptions::default() });
            (format!("{r:?}"), SURE_PATH.with(std::cell::Cell::get).1, r)
        };
        let (with, used, r) = run(true);
        let (without, _, _) = run(false);
        SURE_PATH.with(|c| c.set((true, 0)));
        (with, without, used, r)
    }

    /// The sure path leaves exactly what the replay leaves, in both fidelities: a table under
    /// its reads spends burst credit (the sure path), then throttles (the replay), with
    /// eventually consistent reads, a GSI written by every put and retries; the two runs'
    /// results are identical, field by field, and the sure path did admit seconds.
    #[test]
    fn the_sure_path_is_the_replay_without_throttling() {
        let sc = scenario(
            r#"
[scenario]
duration = "20m"
seed = 9
fidelity = "fast"
[table]
name = "T"
partition_key = "k"
capacity = { mode = "provisioned", read = 400, write = 300 }
[keys.k]
cardinality = 100000
[keys.g]
cardinality = 50
[[gsi]]
name = "G"
partition_key = "g"
projection = "keys_only"
capacity = { read = 100, write = 400 }
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 3000
rate = { steps = [["0s", 300], ["4m", 1200], ["12m", 300]] }
[[pattern]]
name = "strong"
op = "get_item"
item_bytes = 1000
consistency = "strong"
rate = { constant = 100 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 900
rate = { steps = [["0s", 150], ["6m", 450], ["9m", 150]] }
index_writes = { G = "insert" }
"#,
        );
        for fidelity in [Fidelity::Fast, Fidelity::Exact] {
            let (with, without, used, r) = sure_and_replay(&sc, Some(fidelity));
            assert!(used > 60, "{fidelity:?}: the sure path admitted {used} seconds");
            let throttled: u64 = r.patterns.iter().map(|p| p.throttled_attempts).sum();
            assert!(throttled > 0, "{fidelity:?}: the replay throttled too");
            assert!(with == without, "{fidelity:?}: the sure path and the replay differ");
        }
    }

    /// Exact fidelity's compact seconds (single-item requests kept as times and partitions,
    /// admitted from them when the second surely fits) leave exactly what the attempts'
    /// replay leaves: eventually consistent and strong reads and puts on a provisioned table
    /// (the puts outgrow their 300 WCU from minute 4 to 8, spend the burst credit and are
    /// throttled and retried), four client instances, Zipf keys. The runs are identical field
    /// by field; the compact path admitted most seconds, and seconds with retries due were
    /// replayed.
    #[test]
    fn the_compact_second_is_the_replay() {
        let sc = scenario(
            r#"
[scenario]
duration = "12m"
seed = 5
fidelity = "exact"
[table]
name = "T"
partition_key = "k"
capacity = { mode = "provisioned", read = 9000, write = 300 }
[keys.k]
cardinality = 200000
popularity = { zipf = 0.9 }
[client]
instances = 4
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 3000
rate = { constant = 900 }
[[pattern]]
name = "strong"
op = "get_item"
item_bytes = 1000
consistency = "strong"
rate = { constant = 200 }
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 900
rate = { steps = [["0s", 150], ["4m", 900], ["8m", 150]] }
"#,
        );
        let (with, without, used, r) = sure_and_replay(&sc, None);
        assert!(used > 400, "the compact path admitted {used} of 720 seconds");
        assert!(used < 700, "seconds with retries were replayed: {used}");
        let put = &r.patterns[2];
        assert!(put.throttled_attempts > 0 && put.served > 0, "the puts were throttled and retried");
        assert!(with == without, "the compact path and the replay differ");
        // One pattern alone (the buckets' own loop): eventually consistent reads outgrowing
        // their 1,000 RCU (3,000 a second: 6,000 4 KB reads at half a unit each) from minute 3 to
        // 7, through the burst credit into throttling.
        let sc = scenario(
            r#"
[scenario]
duration = "10m"
seed = 6
fidelity = "exact"
[table]
name = "T"
partition_key = "k"
capacity = { mode = "provisioned", read = 1000, write = 10 }
[keys.k]
cardinality = 50000
popularity = { zipf = 0.7 }
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 4000
rate = { steps = [["0s", 1200], ["3m", 6000], ["7m", 1200]] }
"#,
        );
        let (with, without, used, r) = sure_and_replay(&sc, None);
        assert!((300..590).contains(&used), "the compact path admitted {used} of 600 seconds");
        assert!(r.patterns[0].throttled_attempts > 0, "the reads were throttled");
        assert!(with == without, "one pattern: the compact path and the replay differ");
        // One pattern checked and taken partition by partition (the path of tables of 4,096
        // partitions or more, here from one): strong 4 KB reads on five partitions (12,000
        // RCU and 10 WCU) at 4,000 a second, then 14,000 (beyond the table's 12,000, and the
        // Zipf(1.1) head's partition beyond its 3,000), then 4,000.
        let sc = strong_reads(8, 12_000, r#"[["0s", 4000], ["2m", 14000], ["4m", 4000]]"#);
        admission::BY_PARTITION_FROM.with(|c| c.set(1));
        let (with, without, used, r) = sure_and_replay(&sc, None);
        admission::BY_PARTITION_FROM.with(|c| c.set(crate::model::resource::MANY_PARTITIONS));
        assert!((200..350).contains(&used), "partition by partition, the compact path admitted {used} of 360 seconds");
        assert!(r.patterns[0].throttled_attempts > 0, "the reads were throttled");
        assert!(with == without, "one pattern, partition by partition: the compact path and the replay differ");
        // The same five partitions checked from the counts taken as the requests were drawn
        // (the path below 4,096 partitions).
        let (with, without, used, r) = sure_and_replay(&sc, None);
        assert!((200..350).contains(&used), "from the counts, the compact path admitted {used} of 360 seconds");
        assert!(r.patterns[0].throttled_attempts > 0, "the reads were throttled");
        assert!(with == without, "one pattern, from the counts: the compact path and the replay differ");
    }

    /// Six exact minutes of strong 4 KB reads of 1,000 Zipf(1.1) keys at `steps`, on a table
    /// of `read` RCU and 10 WCU.
    fn strong_reads(seed: u64, read: u64, steps: &str) -> Scenario {
        scenario(&format!(
            r#"
[scenario]
duration = "6m"
seed = {seed}
fidelity = "exact"
[table]
name = "T"
partition_key = "k"
capacity = {{ mode = "provisioned", read = {read}, write = 10 }}
[keys.k]
cardinality = 1000
popularity = {{ zipf = 1.1 }}
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 4000
consistency = "strong"
rate = {{ steps = {steps} }}
"#
        ))
    }

    /// The compact path on a table of many partitions (15,000,000 RCU and 10 WCU: 5,001) is
    /// the replay too: strong 4 KB reads of Zipf(1.1) keys (the head key 17.9 % of them) at
    /// 4,000 a second (the head's partition about 720 RCU: every partition surely holds its
    /// second by the busiest block of four partitions and the fullest bucket the second before
    /// left), then 16,500 (about 2,960 RCU: the busiest block with that bucket's debt is often
    /// beyond the 3,000, and then each partition is checked by its own debt; some seconds
    /// throttle), then 20,000 (about 3,590 RCU: throttled, replayed), then 4,000.
    #[test]
    fn the_compact_second_on_many_partitions_is_the_replay() {
        let sc = strong_reads(9, 15_000_000, r#"[["0s", 4000], ["2m", 16500], ["3m", 20000], ["4m", 4000]]"#);
        admission::BY_PARTITION_DECIDED.with(|c| c.set([0; 3]));
        let (with, without, used, r) = sure_and_replay(&sc, None);
        let [by_block, by_partition, not_sure] = admission::BY_PARTITION_DECIDED.with(std::cell::Cell::get);
        assert_eq!(r.resources[0].minutes.last().map(|m| m.partitions), Some(5_001));
        assert!((200..320).contains(&used), "the compact path admitted {used} of 360 seconds");
        assert!(
            by_block >= 200 && by_partition >= 10 && not_sure >= 10,
            "decided by block {by_block}, by partition {by_partition}, not sure {not_sure}"
        );
        assert!(r.patterns[0].throttled_attempts > 0, "the reads were throttled");
        assert!(with == without, "many partitions: the compact path and the replay differ");
    }

    /// The three agreement scenarios' throttled attempts over 30 seeds, in exact fidelity with
    /// the block draw (each request's partition from [`draw::PartitionDraw`]) or without it
    /// (each request's key drawn and hashed): means and variances.
    fn throttled_by_path(text: &str, block: bool) -> (f64, f64) {
        let sc = scenario(text);
        crate::engine::draw::BLOCK_PATH.with(|c| c.set(block));
        let xs: Vec<f64> = (0..30u64)
            .map(|seed| {
                let opts = RunOptions {
                    seed: Some(if block { 1_000 } else { 2_000 } + seed),
                    fidelity: Some(Fidelity::Exact),
                    ..RunOptions::default()
                };
                simulate(&sc, &opts).patterns.iter().map(|p| p.throttled_attempts as f64).sum()
            })
            .collect();
        crate::engine::draw::BLOCK_PATH.with(|c| c.set(true));
        let m = xs.iter().sum::<f64>() / 30.0;
        (m, xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 29.0)
    }

    /// Exact fidelity's partition draw (no key, no hash) against the key-by-key draw it
    /// replaced, on the three agreement scenarios of fast mode's gate (a hot key at 1.5x the
    /// partition cap, a partition at 1.05x its capacity without burst credit, a short spike
    /// on Zipf keys with SDK retries): the throttled attempts within Monte Carlo noise,
    /// |z| < 2 over 30 seeds each.
    #[test]
    fn the_partition_draw_agrees_with_the_key_draw() {
        for (name, text) in [
            ("hot key", include_str!("../../tests/fixtures/agreement/hot-key.toml")),
            ("1.05x", include_str!("../../tests/fixtures/agreement/just-above.toml")),
            ("spike", include_str!("../../tests/fixtures/agreement/spike.toml")),
        ] {
            let (mb, vb) = throttled_by_path(text, true);
            let (mk, vk) = throttled_by_path(text, false);
            assert!(mk > 0.0, "{name}: the scenario must throttle");
            let z = (mb - mk) / (vb / 30.0 + vk / 30.0).sqrt().max(1e-9);
            assert!(z.abs() < 2.0, "{name}: partition draw {mb:.1} vs key draw {mk:.1} throttled attempts, z = {z:.2}");
        }
    }
}
