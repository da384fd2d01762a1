//! Synthetic traffic: how many requests each pattern makes per second, and which keys they touch.
//!
//! * [`alias`] samples a discrete distribution in O(1) (Vose's alias method).
//! * [`keys`] turns a key space's popularity into key draws and per-partition weights.
//! * [`poisson`] draws Poisson counts.

pub(crate) mod alias;
pub(crate) mod keys;
pub(crate) mod poisson;
