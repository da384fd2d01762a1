//! Multi-attribute GSI keys (§16): the popularity of a tuple of key spaces.
//!
//! A key space's popularity is an explicit **head** of its most popular values, each with its
//! probability, and a **tail** of equally likely values ([`head_tail`]); the engine samples and
//! spreads that. A tuple's values are the tuples of its attributes' values:
//!
//! - **independent** attributes (the default): a tuple's probability is the product of its
//!   attributes' probabilities and the cardinality the product of theirs. The head holds the
//!   [`HEAD_KEYS`] most probable tuples, found best-first over the attributes' probability
//!   classes; the rest is a tail of equally likely tuples whose mass is what the head leaves
//!   (each below the head's last, so the hottest tuple is exact);
//! - **correlated** attributes: the finest attribute (the largest cardinality) determines the
//!   others (a city its country), so the tuple takes its values and popularity. A model choice.

use super::keys::{KeySpaceSpec, Popularity};
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::Arc;

/// Most values of a key space represented one by one.
pub const HEAD_KEYS: u64 = 1 << 16;

/// A key space's popularity as the engine samples it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadTail {
    /// Probability of each head value (ranks `0..head.len()`).
    pub head: Vec<f64>,
    /// Probability of the tail as a whole.
    pub tail_prob: f64,
    /// First tail rank (the tail is `tail_lo..cardinality`).
    pub tail_lo: u64,
}

/// The head and tail of popularity `pop` over `card` values (a sequential key space: its one
/// current value).
#[must_use]
pub fn head_tail(pop: &Popularity, card: u64) -> HeadTail {
    let card = card.max(1);
    let (head, tail_prob, tail_lo) = match pop {
        Popularity::Sequential(_) => (vec![1.0], 0.0, 1),
        Popularity::Weights(w) => {
            let s: f64 = w.iter().sum();
            (w.iter().map(|x| x / s).collect(), 0.0, w.len() as u64)
        }
        Popularity::Joint { head, tail, .. } => (head.to_vec(), *tail, head.len() as u64),
        Popularity::Uniform => {
            if card <= HEAD_KEYS {
                (vec![1.0 / card as f64; card as usize], 0.0, card)
            } else {
                (Vec::new(), 1.0, 0)
            }
        }
        Popularity::Hot { keys, share } => {
            let hot = (*keys).min(HEAD_KEYS);
            let rest = card - hot;
            let mut head: Vec<f64> = vec![share / hot as f64; hot as usize];
            if rest == 0 {
                (head, 0.0, card)
            } else if rest <= HEAD_KEYS {
                head.extend(std::iter::repeat_n((1.0 - share) / rest as f64, rest as usize));
                (head, 0.0, card)
            } else {
                (head, 1.0 - share, hot)
            }
        }
        Popularity::Zipf(s) => {
            let h = card.min(HEAD_KEYS);
            let head_w: Vec<f64> = (1..=h).map(|r| (r as f64).powf(-s)).collect();
            let head_sum: f64 = head_w.iter().sum();
            // Tail mass: sum over r in (h, card] of r^-s, by the midpoint integral.
            let tail = if card > h { integral_pow(h as f64 + 0.5, card as f64 + 0.5, *s) } else { 0.0 };
            let total = head_sum + tail;
            (head_w.iter().map(|w| w / total).collect(), tail / total, h)
        }
    };
    HeadTail { head, tail_prob, tail_lo }
}

/// ∫_a^b x^-s dx.
fn integral_pow(a: f64, b: f64, s: f64) -> f64 {
    if (s - 1.0).abs() < 1e-12 {
        b.ln() - a.ln()
    } else {
        (b.powf(1.0 - s) - a.powf(1.0 - s)) / (1.0 - s)
    }
}

/// The name of the tuple of key spaces `names`, as reports show it: `(tenant, status)`.
#[must_use]
fn joint_name(names: &[&str]) -> String {
    format!("({})", names.join(", "))
}

/// The key space of the tuple of `parts` (none sequential, none sharded: validation refuses
/// them), `None` when its cardinality overflows 64 bits.
#[must_use]
pub fn joint_key_space(parts: &[&KeySpaceSpec], correlated: bool) -> Option<KeySpaceSpec> {
    let names: Vec<&str> = parts.iter().map(|k| k.name.as_str()).collect();
    let name = joint_name(&names) + if correlated { " correlated" } else { "" };
    let owned: Vec<String> = names.iter().map(|s| (*s).to_string()).collect();
    let assumed = parts.iter().any(|k| k.popularity_from == super::PopularityFrom::Assumption);
    let counted = parts.iter().all(|k| k.cardinality_from == super::CardinalityFrom::Stated);
    let base = KeySpaceSpec {
        name,
        cardinality: 1,
        popularity: Popularity::Uniform,
        value_names: Vec::new(),
        shards: None,
        sort_keys: None,
        popularity_from: if assumed { super::PopularityFrom::Assumption } else { super::PopularityFrom::Stated },
        cardinality_from: if counted { super::CardinalityFrom::Stated } else { super::CardinalityFrom::Assumption },
    };
    if correlated {
        // The finest attribute determines the others: the first of the largest cardinality.
        let finest = parts.iter().copied().reduce(|a, b| if b.cardinality > a.cardinality { b } else { a })?;
        return Some(KeySpaceSpec {
            cardinality: finest.cardinality,
            popularity: finest.popularity.clone(),
            value_names: finest.value_names.clone(),
            ..base
        });
    }
    let cardinality = parts.iter().try_fold(1u64, |n, k| n.checked_mul(k.cardinality.max(1)))?;
    let classes: Vec<Vec<(f64, u64)>> = parts.iter().map(|k| classes(k)).collect();
    let head = product_head(&classes);
    let tail = if cardinality > head.len() as u64 { (1.0 - head.iter().sum::<f64>()).max(0.0) } else { 0.0 };
    Some(KeySpaceSpec { cardinality, popularity: Popularity::Joint { parts: owned, head: Arc::from(head), tail }, ..base })
}

/// A key space's values as probability classes, most probable first: (probability of each
/// value, values of that probability).
fn classes(k: &KeySpaceSpec) -> Vec<(f64, u64)> {
    let card = k.cardinality.max(1);
    let ht = head_tail(&k.popularity, card);
    let mut out: Vec<(f64, u64)> = ht.head.iter().map(|&p| (p, 1)).collect();
    let span = card.saturating_sub(ht.tail_lo);
    if ht.tail_prob > 0.0 && span > 0 {
        out.push((ht.tail_prob / span as f64, span));
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// A class of tuples: one class of each attribute.
#[derive(PartialEq)]
struct Tuple {
    p: f64,
    idx: Vec<usize>,
}

impl Eq for Tuple {}

impl Ord for Tuple {
    fn cmp(&self, o: &Self) -> Ordering {
        // Most probable first; ties by the smaller index tuple, for a deterministic order.
        self.p.total_cmp(&o.p).then_with(|| o.idx.cmp(&self.idx))
    }
}

impl PartialOrd for Tuple {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The [`HEAD_KEYS`] most probable tuples' probabilities, most probable first: best-first over
/// the product of the attributes' classes (each class list sorted, so a tuple's successors,
/// one index up in one attribute, are never more probable than it).
fn product_head(classes: &[Vec<(f64, u64)>]) -> Vec<f64> {
    let mut head = Vec::new();
    if classes.iter().any(Vec::is_empty) {
        return head;
    }
    let prob = |idx: &[usize]| idx.iter().zip(classes).map(|(&i, c)| c[i].0).product::<f64>();
    let count = |idx: &[usize]| idx.iter().zip(classes).fold(1u64, |n, (&i, c)| n.saturating_mul(c[i].1));
    let start = vec![0; classes.len()];
    let mut seen = BTreeSet::from([start.clone()]);
    let mut heap = BinaryHeap::from([Tuple { p: prob(&start), idx: start }]);
    while let Some(Tuple { p, idx }) = heap.pop() {
        let room = HEAD_KEYS as usize - head.len();
        let n = usize::try_from(count(&idx)).unwrap_or(usize::MAX).min(room);
        head.extend(std::iter::repeat_n(p, n));
        if head.len() as u64 >= HEAD_KEYS {
            break;
        }
        for a in 0..classes.len() {
            if idx[a] + 1 < classes[a].len() {
                let mut next = idx.clone();
                next[a] += 1;
                if seen.insert(next.clone()) {
                    heap.push(Tuple { p: prob(&next), idx: next });
                }
            }
        }
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ks(name: &str, card: u64, pop: Popularity) -> KeySpaceSpec {
        KeySpaceSpec {
            name: name.into(),
            cardinality: card,
            popularity: pop,
            value_names: vec![],
            shards: None,
            sort_keys: None,
            popularity_from: super::super::PopularityFrom::Stated,
            cardinality_from: super::super::CardinalityFrom::Stated,
        }
    }

    /// tenant: hot 1 of 100 at 0.5 (the other 99 at 0.5/99 each); status: weights 0.8, 0.2.
    /// The hottest tuple is the hot tenant's 0.8 status: 0.5 × 0.8 = 0.4; the next the hot
    /// tenant's 0.2 status, 0.1; then the other tenants' 0.8 status, 0.5/99 × 0.8 each.
    /// 200 tuples, all in the head, summing to 1.
    #[test]
    fn independent_tuples_multiply() {
        let tenant = ks("tenant", 100, Popularity::Hot { keys: 1, share: 0.5 });
        let status = ks("status", 2, Popularity::Weights(vec![0.8, 0.2]));
        let j = joint_key_space(&[&tenant, &status], false).unwrap();
        assert_eq!(j.name, "(tenant, status)");
        assert_eq!(j.cardinality, 200);
        let ht = head_tail(&j.popularity, j.cardinality);
        assert_eq!(ht.head.len(), 200);
        assert!((ht.head[0] - 0.4).abs() < 1e-12);
        assert!((ht.head[1] - 0.1).abs() < 1e-12);
        assert!((ht.head[2] - 0.5 / 99.0 * 0.8).abs() < 1e-12);
        assert!((ht.head.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(ht.tail_prob, 0.0);
    }

    /// A uniform million × (0.9, 0.1): the head is 65,536 tuples at 0.9/10^6 (the hottest is
    /// exact), the tail the other 1,934,464 tuples sharing the rest, 1 − 65,536 × 9e-7.
    #[test]
    fn a_large_tuple_space_keeps_its_hottest_value_exact() {
        let user = ks("user", 1_000_000, Popularity::Uniform);
        let flag = ks("flag", 2, Popularity::Weights(vec![0.9, 0.1]));
        let j = joint_key_space(&[&user, &flag], false).unwrap();
        assert_eq!(j.cardinality, 2_000_000);
        let ht = head_tail(&j.popularity, j.cardinality);
        assert_eq!(ht.head.len() as u64, HEAD_KEYS);
        assert!((ht.head[0] - 9e-7).abs() < 1e-18);
        assert!((ht.tail_prob - (1.0 - 65_536.0 * 9e-7)).abs() < 1e-9);
    }

    /// Correlated: (country of 20, city of 5,000 zipf 1): the tuple is the city.
    #[test]
    fn correlated_tuples_take_the_finest_attribute() {
        let country = ks("country", 20, Popularity::Uniform);
        let city = ks("city", 5_000, Popularity::Zipf(1.0));
        let j = joint_key_space(&[&country, &city], true).unwrap();
        assert_eq!(j.cardinality, 5_000);
        assert_eq!(j.popularity, Popularity::Zipf(1.0));
        assert_eq!(j.name, "(country, city) correlated");
    }

    #[test]
    fn an_overflowing_tuple_space_is_refused() {
        let big = ks("a", u64::MAX / 2, Popularity::Uniform);
        let two = ks("b", 3, Popularity::Uniform);
        assert!(joint_key_space(&[&big, &two], false).is_none());
    }
}
