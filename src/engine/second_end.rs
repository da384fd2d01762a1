//! The end of each simulated second: its consumption into the minute's record, index buffers drained, replication to the other regions with the capacity left, and backfills advanced.

use super::*;

impl Simulation<'_> {
    /// Closes the second: consumption (less any backfill, which CloudWatch reports apart),
    /// provisioned unit-seconds and the mode go into the minute's record.
    pub(super) fn close_second(&mut self) {
        for (r, res) in self.res.iter_mut().enumerate() {
            let backfill = self.indexes[r].as_mut().map_or(0, |i| i.end_second(res.second_consumed(Dim::Write)));
            let on_demand = res.mode().kind() == CapacityMode::OnDemand;
            let cur = &mut self.rec.cur[r];
            for d in Dim::ALL {
                let i = d as usize;
                let consumed = res.second_consumed(d) - if d == Dim::Write { backfill } else { 0 };
                cur.consumed[i] += consumed;
                if on_demand {
                    // On-demand bills the backfill's index writes too (spec §7: "writes into
                    // the new GSI are charged"); CloudWatch only reports them apart.
                    cur.on_demand_consumed[i] += res.second_consumed(d);
                } else {
                    cur.provisioned_unit_seconds[i] += res.provisioned(d);
                    cur.provisioned[i] = res.provisioned(d);
                }
            }
            if !on_demand {
                cur.provisioned_seconds += 1;
            }
            res.end_second();
        }
    }

    /// At the end of second `s`: buffered index writes are applied at what each index
    /// partition can take (buffered back-pressure).
    pub(super) fn drain_buffers(&mut self, s: u64) {
        for (idx, res) in self.indexes.iter_mut().zip(&mut self.res) {
            if let Some(b) = idx.as_mut().and_then(|i| i.buffer.as_mut()) {
                b.drain(res, (s + 1) * MICROS_PER_SEC);
            }
        }
    }

    /// At the end of second `s`: the writes each region's table admitted replicate to the
    /// others (global tables).
    pub(super) fn replicate(&mut self, s: u64) {
        if self.replication.is_empty() {
            return;
        }
        // What each region admitted of its own traffic, before any replicated write applies
        // (buffers kept from second to second).
        let mut local = std::mem::take(&mut self.replication_local);
        local.resize_with(self.replication.len(), Vec::new);
        for (q, l) in self.replication.iter().zip(&mut local) {
            let r = &self.res[q.res];
            l.clear();
            l.extend((0..r.partition_count()).map(|p| r.part_second_used(p, Dim::Write)));
        }
        for qi in 0..self.replication.len() {
            for (j, l) in local.iter().enumerate() {
                let (to, from) = (self.replication[qi].res, self.replication[j].res);
                if from != to && l.iter().any(|&u| u > 0) {
                    self.replication[qi].push(s, &self.res[from], &self.res[to], l);
                }
            }
        }
        self.replication_local = local;
        for q in &mut self.replication {
            self.rec.cur[q.res].replicated_writes += q.drain(s, &mut self.res[q.res]);
        }
    }

    /// The resources that are replicas.
    pub(super) fn replica_range(&self) -> std::ops::Range<usize> {
        1 + self.sc.gsis.len()..self.res.len()
    }

    /// The replication queue of resource `r`, if it is a replica.
    pub(super) fn replication_mut(&mut self, r: usize) -> Option<&mut Replication> {
        self.replication.iter_mut().find(|q| q.res == r)
    }

    /// The write buffer of resource `r`, if it has one.
    pub(super) fn buffer_mut(&mut self, r: usize) -> Option<&mut WriteBuffer> {
        self.indexes[r].as_mut().and_then(|i| i.buffer.as_mut())
    }

    /// Each second, before traffic: indexes being built take their share of write capacity.
    pub(super) fn backfills(&mut self, s: u64) {
        for r in 1..self.res.len() {
            let Some(idx) = &mut self.indexes[r] else { continue };
            let Some((done, complete)) = idx.backfill_step(&mut self.res[r]) else { continue };
            if complete {
                self.traffic.unreadable[r] = false;
                self.event(s, r, CapacityAction::GsiActive, None, 0.0, 100.0, "backfill complete".into());
                // Auto scaling takes the index over once it is active.
                let cmds = self.ctl[r].register(s, &self.res[r]);
                self.apply(s, r, cmds);
            }
            self.rec.cur[r].online_consumed += done;
        }
    }
}
