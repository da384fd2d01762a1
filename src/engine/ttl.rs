//! Time to live's background deletes.

use crate::metrics::MinuteRecord;
use crate::model::resource::Resource;

/// Time to live (`[table.ttl]`): each minute, `share` of the bytes written to the table and
/// its GSIs expire `after` later and are deleted evenly over the `within` minutes that follow
/// (docs: deleted "typically within two days", by a background process that uses no write
/// capacity and is not billed, the index entries going "in the same eventually consistent way
/// as a standard delete"). A resource's deletes leave its partitions in proportion to their
/// bytes. Items stored before the run do not expire in it.
pub(super) struct Ttl {
    spec: crate::scenario::TtlSpec,
    /// Per resource, per minute: the change of the delete rate (bytes a minute) from then on.
    delta: Vec<Vec<f64>>,
    /// Per resource: bytes deleted a minute now, and the fraction of a byte carried over.
    rate: Vec<(f64, f64)>,
    /// The table's bytes written in the run and not yet expired that will expire.
    expirable: f64,
}

impl Ttl {
    pub(super) fn new(spec: crate::scenario::TtlSpec, resources: usize, minutes: usize) -> Self {
        Self { spec, delta: vec![vec![0.0; minutes + 1]; resources], rate: vec![(0.0, 0.0); resources], expirable: 0.0 }
    }

    /// Closes minute `m`: schedules the deletes of what it wrote and makes its own. Returns
    /// the fraction of the table's expirable bytes deleted (which item collections lose too).
    pub(super) fn minute(&mut self, m: usize, res: &mut [Resource], cur: &mut [MinuteRecord]) -> f64 {
        let mut fraction = 0.0;
        let after = (self.spec.after.as_secs() / 60) as usize;
        let within = (self.spec.within.as_secs() / 60).max(1) as usize;
        // The table and its GSIs (a replica's bytes mirror the table's).
        for (r, resource) in res.iter_mut().enumerate().take(self.delta.len()) {
            let written = resource.take_added() as f64 * self.spec.share;
            let delta = &mut self.delta[r];
            // Deleted in minutes m + after + 1 ..= m + after + within.
            let (from, to) = (m + after + 1, m + after + within + 1);
            if written > 0.0 && from < delta.len() {
                delta[from] += written / within as f64;
                if to < delta.len() {
                    delta[to] -= written / within as f64;
                }
            }
            let (rate, carry) = &mut self.rate[r];
            *rate = (*rate + delta[m]).max(0.0);
            let due = *rate + *carry;
            let whole = due.floor();
            *carry = due - whole;
            let removed = resource.expire_bytes(whole as u64);
            cur[r].ttl_deleted_bytes += removed;
            if r == 0 {
                self.expirable += written;
                if self.expirable > 0.0 {
                    fraction = (removed as f64 / self.expirable).min(1.0);
                }
                self.expirable = (self.expirable - removed as f64).max(0.0);
            }
        }
        fraction
    }
}
