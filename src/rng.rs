//! Named, seeded random streams.
//!
//! Every random draw in ddbsim comes from a [`SimRng`] (Xoshiro256++) seeded from a ChaCha8
//! stream derived from the master seed, the replication number and a [`Stream`] purpose.
//! ChaCha8's 2⁶⁴ streams keep the named streams independent; Xoshiro256++ draws them at a few
//! cycles a word, where ChaCha8 itself cost 8–12 % of exact mode's time. Traffic, key
//! placement, item sizes and retry jitter each have their own stream, so changing one part of a
//! scenario (a retry policy, say) never shifts the draws of another, and compared
//! configurations share their random numbers.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The generator of every simulation stream.
pub(crate) type SimRng = rand_xoshiro::Xoshiro256PlusPlus;

/// What a stream is used for. The discriminant is part of the stream id: never reorder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    /// How many requests of one access pattern arrive (exact fidelity: the gaps between them).
    /// Nothing else draws from it, so every capacity mode of a comparison sees the same
    /// requests.
    Arrivals = 1,
    /// Which key a request touches, per pattern.
    Keys = 2,
    /// Item sizes, per pattern.
    Sizes = 3,
    /// Backoff jitter of the client.
    Jitter = 4,
    /// Hashing of keys onto partitions (the "placement" of keys).
    Placement = 5,
    /// GSI propagation delays, per index.
    Propagation = 6,
    /// Fast fidelity: where a second's requests of one pattern fall, in time and on partitions.
    Spread = 7,
    /// Whether a conditional write's condition fails, per pattern.
    Conditions = 8,
    /// Keys and sizes of a transaction's items in another table of the account, per leg.
    Legs = 9,
}

/// Derives independent streams from one master seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RngStreams {
    master: u64,
    replication: u64,
}

impl RngStreams {
    /// Streams for `replication` (0 for a single run) of the run seeded `master`.
    #[must_use]
    pub(crate) fn new(master: u64, replication: u64) -> Self {
        Self { master, replication }
    }

    /// The stream for `purpose`, sub-stream `index` (a pattern number, or 0).
    #[must_use]
    pub(crate) fn rng(&self, purpose: Stream, index: u64) -> SimRng {
        SimRng::from_rng(&mut self.seeder(purpose, index))
    }

    /// The ChaCha8 stream that seeds [`Self::rng`]'s generator (and gives the placement salt).
    fn seeder(&self, purpose: Stream, index: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(self.master);
        // 2^20 sub-streams per purpose and 2^8 purposes per replication.
        let stream = (self.replication << 28) | ((purpose as u64) << 20) | (index & 0xF_FFFF);
        rng.set_stream(stream);
        rng
    }

    /// A 64-bit value for hashing keys onto partitions (a different placement per replication).
    #[must_use]
    pub(crate) fn placement_salt(&self) -> u64 {
        use rand::RngCore;
        self.seeder(Stream::Placement, 0).next_u64()
    }
}

/// A fast, well-mixed 64-bit hash (SplitMix64 finaliser) for placing keys on partitions.
#[must_use]
#[inline]
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let s = RngStreams::new(7, 0);
        assert_eq!(s.rng(Stream::Keys, 3).next_u64(), s.rng(Stream::Keys, 3).next_u64());
        assert_ne!(s.rng(Stream::Keys, 3).next_u64(), s.rng(Stream::Keys, 4).next_u64());
        assert_ne!(s.rng(Stream::Keys, 3).next_u64(), s.rng(Stream::Jitter, 3).next_u64());
        assert_ne!(s.rng(Stream::Keys, 3).next_u64(), RngStreams::new(7, 1).rng(Stream::Keys, 3).next_u64());
    }

    /// The streams' generator is Xoshiro256++ as its authors define it (state words
    /// little-endian in the seed), so a dependency update cannot change every draw unseen. From
    /// state [1, 2, 3, 4]: rotl(1 + 4, 23) + 1 = 41,943,041; then the state steps (t = s1 << 17,
    /// s2 ^= s0, s3 ^= s1, s1 ^= s2, s0 ^= s3, s2 ^= t, s3 = rotl(s3, 45)) to [7, 0, 262,146,
    /// 3·2⁴⁶], and so on (worked in Python from the reference C).
    #[test]
    fn the_generator_is_xoshiro256_plus_plus() {
        let mut seed = [0u8; 32];
        for (i, w) in [1u64, 2, 3, 4].into_iter().enumerate() {
            seed[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        let mut g = SimRng::from_seed(seed);
        assert_eq!([g.next_u64(), g.next_u64(), g.next_u64()], [41_943_041, 58_720_359, 3_588_806_011_781_223]);
    }
}
