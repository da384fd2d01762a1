//! A transaction's items in other tables of the account (`[[pattern.also]]`): each drawn as
//! that table's own traffic would draw it (its key law, its shards, its placement of keys on
//! partitions, its GSIs), charged on that table's resources, which the account lends the
//! owner's admission for the second ([`crate::engine::simulate_account`]).

use super::*;
use crate::scenario::PatternSpec;

/// The items of one owner pattern's transaction in one other table.
pub(crate) struct Leg {
    /// The items as a pattern of the other table, its resources moved past the owner's own
    /// (`offset`), charged at transactional rates.
    pat: CompiledPattern,
    /// The other table's key laws, shards and sort keys, by its key-space numbers.
    dists: Vec<KeyDist>,
    shards: Vec<Option<Shards>>,
    sort_keys: Vec<Option<SortKeys>>,
    /// The other table has LSIs (its item collections stay whole on one partition).
    table_lsi: bool,
    /// The other table's placement of keys on partitions.
    salt: u64,
    /// Keys, sizes and index coverage of these items.
    rng: SimRng,
}

impl Leg {
    /// The items `spec` (a pattern of `other`, resolved when the account was joined) whose
    /// table's resources sit from `offset` in the owner's admission; `salt`: that table's
    /// placement of keys. A transaction's items (`transactional`) are charged at
    /// transactional rates, all or none with the transaction; a write that follows a read
    /// at the standard rates.
    pub(crate) fn new(other: &Scenario, spec: &PatternSpec, offset: usize, salt: u64, rng: SimRng, transactional: bool) -> Self {
        let mut pat = CompiledPattern::new(other, spec);
        pat.res += offset;
        for g in &mut pat.gsi {
            g.res += offset;
        }
        // Items of a TransactWriteItems: at transactional rates (the put, update or delete
        // decided what they store and which index entries they write). Either way, an item
        // and its index writes are admitted together or not at all.
        if transactional {
            pat.op = Op::TransactWrite;
        }
        pat.kind = Kind::AllOrNothing;
        pat.collection_growth = None;
        if let SizeSpec::Fixed(b) = pat.size {
            pat.fixed_units = Some(pat.units_of(b));
        }
        Self {
            pat,
            dists: other.key_spaces.iter().map(|k| KeyDist::new(k, other.start_unix_s)).collect(),
            shards: other.key_spaces.iter().map(|k| k.shards).collect(),
            sort_keys: other.key_spaces.iter().map(|k| k.sort_keys).collect(),
            table_lsi: !other.lsis.is_empty(),
            salt,
            rng,
        }
    }

    /// What an admitted charge of these items stores, by resource: (resource, bytes).
    pub(crate) fn deltas(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        std::iter::once((self.pat.res, self.pat.base_delta)).chain(self.pat.gsi.iter().map(|g| (g.res, g.delta)))
    }

    /// A key of key space `ks` drawn by its law at second `s`, on a shard when the key space
    /// is sharded and `shard_draw`: (rank, hash position on `res`).
    fn key(&mut self, ks: usize, s: u64, res: &Resource, shard_draw: bool) -> (u64, u64) {
        let (r1, r2) = (self.rng.next_u64(), self.rng.next_u64());
        let rank = self.dists[ks].sample(r1, r2, s);
        let shard = match self.shards[ks] {
            Some(sh) if sh.count > 1 && shard_draw => self.rng.random_range(0..sh.count),
            _ => 0,
        };
        let h = key_hash(self.salt, ks as u64, rank, shard);
        (rank, self.position(ks, h, res))
    }

    /// Where an item of the value hashing to `h` lands on `res`: one of its collection's items
    /// when the value has a sort key (as `Traffic::position`, for the other table).
    fn position(&mut self, ks: usize, h: u64, res: &Resource) -> u64 {
        let layout = self.sort_keys[ks].filter(|_| res.is_index() || !self.table_lsi);
        layout.map_or(h, |sk| Span::of(sk, None).land(h, &mut self.rng))
    }

    /// Pushes the charges of these items of one transaction (sent at second `s`) onto
    /// `charges`: each item on its partition, then its index writes; a cancelled transaction
    /// (`cond_failed`) charges the items and writes no index entry.
    pub(crate) fn draw(&mut self, s: u64, cond_failed: bool, charges: &mut Vec<Charge>, res: &[Resource], active: &[bool]) {
        let r = self.pat.res;
        let ks = self.pat.key_space.expect("a leg has a key space");
        for _ in 0..self.pat.items_per_attempt {
            let (_, pos) = self.key(ks, s, &res[r], true);
            let part = res[r].partition_of(pos) as u32;
            let bytes = self.pat.draw_bytes(&mut self.rng);
            if cond_failed {
                charges.push(Charge { res: r as u16, dim: Dim::Write, part, units: self.pat.failed_condition_units(bytes) });
                continue;
            }
            charges.push(Charge { res: r as u16, dim: Dim::Write, part, units: self.pat.units_of(bytes) });
            for g in 0..self.pat.gsi.len() {
                let (gres, gks, coverage) = {
                    let w = &self.pat.gsi[g];
                    (w.res, w.key_space, w.coverage)
                };
                if !active[gres] || (coverage < 1.0 && self.rng.random::<f64>() >= coverage) {
                    continue;
                }
                // A key change's two writes on one drawn value, as the owner's own index writes.
                let units = CompiledPattern::index_write_units(&self.pat.gsi[g], bytes);
                let (_, gpos) = self.key(gks, s, &res[gres], true);
                charges.push(Charge { res: gres as u16, dim: Dim::Write, part: res[gres].partition_of(gpos) as u32, units });
            }
        }
    }
}

impl Traffic {
    /// Adds the items `leg` to owner pattern `j`'s transactions.
    pub(crate) fn add_leg(&mut self, j: usize, leg: Leg) {
        if self.legs.len() < self.pats.len() {
            self.legs.resize_with(self.pats.len(), Vec::new);
        }
        self.pats[j].foreign_deltas.extend(leg.deltas());
        self.legs[j].push(leg);
    }

    /// Makes each answered request of pattern `j` (a get) send `leg`, a write in another
    /// table: its requests are then decided one by one, each with its item and index writes.
    pub(crate) fn add_follow(&mut self, j: usize, leg: Leg) {
        if self.follows.len() < self.pats.len() {
            self.follows.resize_with(self.pats.len(), || None);
        }
        let p = &mut self.pats[j];
        p.foreign_deltas.extend(leg.deltas());
        p.chained = true;
        p.kind = Kind::AllOrNothing;
        self.follows[j] = Some(leg);
    }

    /// Pattern `j`'s items in other tables, for one transaction sent at second `s`.
    pub(super) fn draw_legs(&mut self, j: usize, s: u64, cond_failed: bool, charges: &mut Vec<Charge>, res: &[Resource], active: &[bool]) {
        for leg in &mut self.legs[j] {
            leg.draw(s, cond_failed, charges, res, active);
        }
    }
}
