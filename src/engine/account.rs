//! Several tables as one account: one clock, each table's second in turn (in the order
//! given, so the run is deterministic), and the Region's account-level quota on provisioned
//! capacity shared by the tables of each Region ([`crate::scenario::AccountSpec`]).
//!
//! When a table lends another its resources, each second goes in three phases over the
//! tables: what is scheduled; the traffic; the second's close (and the minute's); otherwise
//! each table's second runs whole, in turn. Before a table's phases, it is told what every other
//! table of its Region holds of the quota: the tables before it as of this second, those after
//! it as of the second before. A transaction with items in other tables
//! (`[[pattern.also]]`), and a get whose answer is followed by a write in another table
//! (`[pattern.then]`), are drawn and admitted with their own table's traffic, those tables
//! lending it their resources for the phase: each charge on its own table's partitions, a
//! transaction's every item taken or none. Within a second, the tables' traffic is admitted table by table in
//! the account's order (a model choice: two tables' requests on one partition in one second
//! are not interleaved by time). Tables that name one client fleet (`[client] fleet`) share
//! one client: its retry quotas drain with all their throttled retries. A table alone runs
//! exactly as [`super::simulate`] runs it.

use super::draw::Leg;
use super::{Crossing, RunOptions, RunResult, Simulation};
use crate::metrics::MinuteRecord;
use crate::model::client::Client;
use crate::model::Dim;
use crate::rng::{RngStreams, Stream};
use crate::scenario::Scenario;

/// Another table of the account in the same Region, as a table sees it.
#[derive(Clone, Debug, Default)]
pub(super) struct Peer {
    /// Its name.
    pub(super) name: String,
    /// The units it holds of the quota, by dimension.
    pub(super) held: [u64; 2],
    /// Its table operations in flight.
    pub(super) in_flight: u64,
}

/// Would one more table operation of table `name` (with `in_flight` of its own) pass the
/// account's `limit` on operations in flight in the Region, with `others`'? The operations in
/// flight and the words naming the limit and who holds them.
pub(super) fn past_operations(name: &str, in_flight: u64, others: &[Peer], limit: u64) -> Option<(u64, String)> {
    let held = in_flight + others.iter().map(|o| o.in_flight).sum::<u64>();
    if held < limit {
        return None;
    }
    let mut by: Vec<String> = vec![format!("{name} {in_flight}")];
    by.extend(others.iter().filter(|o| o.in_flight > 0).map(|o| format!("table {} {}", o.name, o.in_flight)));
    Some((
        held,
        format!(
            "the call failed (LimitExceededException): the account's limit of {limit} table operations in flight in the Region is reached ({held}: {})",
            by.join(", ")
        ),
    ))
}

/// Runs `tables` as one account with `opts` (each table its own seed, unless `opts` gives
/// one), to the longest table's duration; each table's result, in order.
#[must_use]
pub fn simulate_account(tables: &[Scenario], opts: &RunOptions) -> Vec<RunResult> {
    let mut sims: Vec<Simulation<'_>> = tables.iter().map(|sc| Simulation::new(sc, opts)).collect();
    let region = |i: usize| &tables[i].pricing.region;
    // Per table: the tables of its Region, by position.
    let peers: Vec<Vec<usize>> = (0..sims.len()).map(|i| (0..sims.len()).filter(|&j| j != i && region(j) == region(i)).collect()).collect();
    for (i, sim) in sims.iter_mut().enumerate() {
        sim.table.others = peers[i].iter().map(|&j| Peer { name: tables[j].table.name.clone(), ..Peer::default() }).collect();
    }
    let lenders = attach_legs(tables, opts, &mut sims);
    // Per table: its client fleet's shared client, if it names one (the first member's).
    let mut fleet_names: Vec<&str> = Vec::new();
    let fleet: Vec<Option<usize>> = tables
        .iter()
        .map(|sc| {
            let name = sc.client_fleet.as_deref()?;
            Some(fleet_names.iter().position(|&n| n == name).unwrap_or_else(|| {
                fleet_names.push(name);
                fleet_names.len() - 1
            }))
        })
        .collect();
    let mut shared: Vec<Client> = fleet_names
        .iter()
        .map(|&n| Client::new(tables.iter().find(|t| t.client_fleet.as_deref() == Some(n)).expect("named").client))
        .collect();
    let mut crossings: Vec<Vec<Crossing>> = vec![Vec::new(); sims.len()];
    let tell = |sims: &mut [Simulation<'_>], i: usize| {
        let held: Vec<([u64; 2], u64)> = peers[i].iter().map(|&j| (sims[j].table.held_units(), sims[j].table.in_flight())).collect();
        for (o, (h, f)) in sims[i].table.others.iter_mut().zip(held) {
            o.held = h;
            o.in_flight = f;
        }
    };
    for i in 0..sims.len() {
        tell(&mut sims, i);
        sims[i].start();
    }
    let longest = sims.iter().map(|s| s.run.duration_s).max().unwrap_or(0);
    let mut live = vec![true; sims.len()];
    let mut now = Vec::with_capacity(sims.len());
    // With no table lending another its resources, each table's second runs whole, in turn
    // (a table's state is visited once a second); otherwise in the three phases.
    let phased = lenders.iter().any(|l| !l.is_empty());
    let swap = |sims: &mut [Simulation<'_>], shared: &mut [Client], i: usize| {
        if let Some(g) = fleet[i] {
            std::mem::swap(&mut sims[i].fleet.client, &mut shared[g]);
        }
    };
    for s in 0..longest {
        now.clear();
        now.extend((0..sims.len()).filter(|&i| live[i] && s < sims[i].run.duration_s));
        if phased {
            for &i in &now {
                tell(&mut sims, i);
                sims[i].open_second(s);
            }
            for &i in &now {
                lend(&mut sims, i, &lenders[i]);
                swap(&mut sims, &mut shared, i);
                sims[i].second(s);
                swap(&mut sims, &mut shared, i);
                take_back(&mut sims, i, &lenders[i], &mut crossings[i]);
            }
        }
        for &i in &now {
            if phased {
                live[i] = sims[i].close_second(s);
            } else {
                tell(&mut sims, i);
                swap(&mut sims, &mut shared, i);
                live[i] = sims[i].step(s);
                swap(&mut sims, &mut shared, i);
            }
            if live[i] && s + 1 == sims[i].run.duration_s {
                sims[i].end();
                live[i] = false;
            }
        }
    }
    sims.into_iter()
        .zip(crossings)
        .map(|(sim, c)| {
            let mut r = sim.finish();
            r.crossings = c;
            r
        })
        .collect()
}

/// Gives each table's traffic its transactions' items in other tables and its gets' follow-up
/// writes there, drawn by those tables' key laws and placed by their placement of keys. Returns, per table, the tables that lend it
/// their resources, in the order they sit after its own.
fn attach_legs(tables: &[Scenario], opts: &RunOptions, sims: &mut [Simulation<'_>]) -> Vec<Vec<usize>> {
    let streams = |sc: &Scenario| RngStreams::new(opts.seed.unwrap_or(sc.seed), opts.replication);
    let mut lenders: Vec<Vec<usize>> = vec![Vec::new(); tables.len()];
    for (i, sc) in tables.iter().enumerate() {
        let mut n = 0;
        for (j, p) in sc.patterns.iter().enumerate() {
            // A transaction's items (at transactional rates), then a get's follow-up write.
            let items = p.also.iter().map(|a| (a, true)).chain(p.then.iter().map(|a| (a, false)));
            for ((b, spec), transactional) in items.filter_map(|(a, t)| Some((a.leg.as_ref()?, t))) {
                if !lenders[i].contains(b) {
                    lenders[i].push(*b);
                }
                let before: usize = lenders[i].iter().take_while(|&&x| x != *b).map(|&x| sims[x].table.res.len()).sum();
                let offset = sims[i].table.res.len() + before;
                let salt = streams(&tables[*b]).placement_salt();
                let leg = Leg::new(&tables[*b], spec, offset, salt, streams(sc).rng(Stream::Legs, n), transactional);
                if transactional {
                    sims[i].traffic.add_leg(j, leg);
                } else {
                    sims[i].traffic.add_follow(j, leg);
                }
                n += 1;
            }
        }
    }
    lenders
}

/// The two simulations `i` and `j` (distinct), mutably.
fn pair<'s, 'a>(sims: &'s mut [Simulation<'a>], i: usize, j: usize) -> (&'s mut Simulation<'a>, &'s mut Simulation<'a>) {
    debug_assert_ne!(i, j);
    if i < j {
        let (a, b) = sims.split_at_mut(j);
        (&mut a[i], &mut b[0])
    } else {
        let (a, b) = sims.split_at_mut(i);
        (&mut b[0], &mut a[j])
    }
}

/// Table `i`'s lenders lend it their resources for its traffic; its recorder counts what is
/// asked of them.
fn lend(sims: &mut [Simulation<'_>], i: usize, lenders: &[usize]) {
    if lenders.is_empty() {
        return;
    }
    for &b in lenders {
        let (a, o) = pair(sims, i, b);
        o.table.lend_to(&mut a.table);
    }
    let n = sims[i].table.res.len();
    sims[i].rec.cur.resize(n, MinuteRecord::default());
}

/// Each lender takes back its resources, with what table `i`'s traffic asked of them and the
/// throttle events it met there, into its own minute's record.
/// The throttle events met there are added to `crossings`.
fn take_back(sims: &mut [Simulation<'_>], i: usize, lenders: &[usize], crossings: &mut Vec<Crossing>) {
    for &b in lenders.iter().rev() {
        let (a, o) = pair(sims, i, b);
        let (first, _) = *a.table.lent.last().expect("lent");
        for (k, m) in a.rec.cur.drain(first..).enumerate() {
            let events = [m.events(Dim::Read), m.events(Dim::Write)];
            if events != [0; 2] {
                let resource = o.table.layout.id(k);
                match crossings.iter_mut().find(|c| c.table == b && c.resource == resource) {
                    Some(c) => (0..2).for_each(|d| c.events[d] += events[d]),
                    None => crossings.push(Crossing { table: b, resource, events }),
                }
            }
            o.rec.cur[k].add(&m);
        }
        o.table.take_back(&mut a.table);
    }
}
