//! Sets of events `0..n` (Alloy `set E`).
//!
//! An [`EventSet`] is a bit set over a fixed universe of `n` events. All sets
//! combined in one expression must share the same universe size; this is only
//! checked with `debug_assert_eq!`.
//!
//! Invariant: bits at positions `>= n` (padding in the last block) are always
//! zero, so the blocks returned by [`EventSet::as_blocks`] can be combined
//! word-wise without masking.

use std::fmt;

use fixedbitset::FixedBitSet;

/// A set of events drawn from the universe `0..n` (Alloy `set E`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EventSet {
    bits: FixedBitSet,
}

impl EventSet {
    /// The empty set over the universe `0..n` (Alloy `none`).
    pub fn new(n: usize) -> Self {
        EventSet {
            bits: FixedBitSet::with_capacity(n),
        }
    }

    /// The set of all events `0..n` (Alloy `E`, i.e. `univ` restricted to events).
    pub fn full(n: usize) -> Self {
        let mut bits = FixedBitSet::with_capacity(n);
        bits.insert_range(..);
        EventSet { bits }
    }

    /// The set over `0..n` containing exactly the given events.
    ///
    /// Panics if an element is `>= n`.
    pub fn from_iter(n: usize, elems: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self::new(n);
        for e in elems {
            s.insert(e);
        }
        s
    }

    /// Builds a set over `0..n` from raw blocks (`ceil(n / usize::BITS)` words);
    /// bits at positions `>= n` are masked off.
    pub fn from_blocks(n: usize, blocks: &[usize]) -> Self {
        let mut bits = FixedBitSet::with_capacity(n);
        let dst = bits.as_mut_slice();
        debug_assert_eq!(dst.len(), blocks.len());
        for (d, s) in dst.iter_mut().zip(blocks) {
            *d = *s;
        }
        let rem = n % usize::BITS as usize;
        if rem != 0 {
            if let Some(last) = dst.last_mut() {
                *last &= (1usize << rem) - 1;
            }
        }
        EventSet { bits }
    }

    /// The underlying blocks (`ceil(n / usize::BITS)` words, bit `i` of the set
    /// is bit `i % usize::BITS` of word `i / usize::BITS`).
    #[inline]
    pub fn as_blocks(&self) -> &[usize] {
        self.bits.as_slice()
    }

    /// Mutable access to the underlying blocks, for word-parallel code in this
    /// crate. Callers must keep the bits at positions `>= n` clear.
    #[inline]
    pub(crate) fn blocks_mut(&mut self) -> &mut [usize] {
        self.bits.as_mut_slice()
    }

    /// Size `n` of the universe `0..n` this set lives in.
    #[inline]
    pub fn len_universe(&self) -> usize {
        self.bits.len()
    }

    /// Adds event `i` (Alloy `s + i`, in place). Panics if `i >= n`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.bits.insert(i);
    }

    /// Removes event `i` (Alloy `s - i`, in place). Panics if `i >= n`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.bits.remove(i);
    }

    /// Membership test (Alloy `i in s`); `false` for `i >= n`.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.bits.contains(i)
    }

    /// Number of events in the set (Alloy `#s`).
    #[inline]
    pub fn count(&self) -> usize {
        self.bits.count_ones(..)
    }

    /// Whether the set is empty (Alloy `no s`).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits.is_clear()
    }

    /// Iterates over the events of the set in ascending order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.ones()
    }

    /// Subset test (Alloy `s in t`).
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        debug_assert_eq!(self.len_universe(), other.len_universe());
        self.bits.is_subset(&other.bits)
    }

    /// Disjointness test (Alloy `no s & t`).
    #[inline]
    pub fn is_disjoint(&self, other: &Self) -> bool {
        debug_assert_eq!(self.len_universe(), other.len_universe());
        self.bits.is_disjoint(&other.bits)
    }

    /// Union (Alloy `s + t`).
    pub fn union(&self, other: &Self) -> Self {
        let mut r = self.clone();
        r.union_with(other);
        r
    }

    /// Intersection (Alloy `s & t`).
    pub fn inter(&self, other: &Self) -> Self {
        let mut r = self.clone();
        r.inter_with(other);
        r
    }

    /// Difference (Alloy `s - t`).
    pub fn minus(&self, other: &Self) -> Self {
        let mut r = self.clone();
        r.minus_with(other);
        r
    }

    /// Complement with respect to the universe `0..n` (Alloy `E - s`).
    pub fn complement(&self) -> Self {
        let mut r = self.clone();
        r.bits.toggle_range(..);
        r
    }

    /// In-place union (Alloy `s = s + t`).
    #[inline]
    pub fn union_with(&mut self, other: &Self) {
        debug_assert_eq!(self.len_universe(), other.len_universe());
        self.bits.union_with(&other.bits);
    }

    /// In-place intersection (Alloy `s = s & t`).
    #[inline]
    pub fn inter_with(&mut self, other: &Self) {
        debug_assert_eq!(self.len_universe(), other.len_universe());
        self.bits.intersect_with(&other.bits);
    }

    /// In-place difference (Alloy `s = s - t`).
    #[inline]
    pub fn minus_with(&mut self, other: &Self) {
        debug_assert_eq!(self.len_universe(), other.len_universe());
        self.bits.difference_with(&other.bits);
    }
}

impl fmt::Debug for EventSet {
    /// Prints the set as `{0, 3}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (k, e) in self.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn s(n: usize, v: &[usize]) -> EventSet {
        EventSet::from_iter(n, v.iter().copied())
    }

    fn v(s: &EventSet) -> Vec<usize> {
        s.iter().collect()
    }

    fn hash_of(s: &EventSet) -> u64 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    }

    #[test]
    fn new_is_empty() {
        for n in [0, 1, 5, 64, 65, 130] {
            let e = EventSet::new(n);
            assert!(e.is_empty());
            assert_eq!(e.count(), 0);
            assert_eq!(e.len_universe(), n);
            assert_eq!(v(&e), Vec::<usize>::new());
        }
    }

    #[test]
    fn full_contains_everything() {
        for n in [0, 1, 5, 63, 64, 65, 130] {
            let f = EventSet::full(n);
            assert_eq!(f.count(), n);
            assert_eq!(f.len_universe(), n);
            assert_eq!(v(&f), (0..n).collect::<Vec<_>>());
            assert!(!f.contains(n));
            assert_eq!(f.is_empty(), n == 0);
        }
    }

    #[test]
    fn from_iter_insert_remove_contains() {
        let mut a = s(5, &[3, 0, 3]);
        assert_eq!(v(&a), vec![0, 3]);
        assert!(a.contains(0) && a.contains(3));
        assert!(!a.contains(1) && !a.contains(4) && !a.contains(5));
        a.insert(4);
        assert_eq!(v(&a), vec![0, 3, 4]);
        a.remove(0);
        a.remove(1);
        assert_eq!(v(&a), vec![3, 4]);
        assert_eq!(a.count(), 2);
        assert!(!a.is_empty());
        a.remove(3);
        a.remove(4);
        assert!(a.is_empty());

        let b = s(130, &[129, 0, 64, 63, 65]);
        assert_eq!(v(&b), vec![0, 63, 64, 65, 129]);
        assert_eq!(b.count(), 5);
        let one = s(1, &[0]);
        assert_eq!(v(&one), vec![0]);
        assert_eq!(one.count(), 1);
    }

    #[test]
    #[should_panic]
    fn insert_out_of_universe_panics() {
        let mut a = EventSet::new(3);
        a.insert(3);
    }

    #[test]
    fn union_inter_minus() {
        let a = s(5, &[0, 1, 3]);
        let b = s(5, &[1, 2, 3, 4]);
        assert_eq!(v(&a.union(&b)), vec![0, 1, 2, 3, 4]);
        assert_eq!(v(&a.inter(&b)), vec![1, 3]);
        assert_eq!(v(&a.minus(&b)), vec![0]);
        assert_eq!(v(&b.minus(&a)), vec![2, 4]);
        // operands untouched
        assert_eq!(v(&a), vec![0, 1, 3]);
        assert_eq!(v(&b), vec![1, 2, 3, 4]);

        let a = s(130, &[0, 64, 65, 129]);
        let b = s(130, &[63, 64, 129]);
        assert_eq!(v(&a.union(&b)), vec![0, 63, 64, 65, 129]);
        assert_eq!(v(&a.inter(&b)), vec![64, 129]);
        assert_eq!(v(&a.minus(&b)), vec![0, 65]);

        let z = EventSet::new(0);
        assert!(z.union(&z).is_empty());
        assert!(z.inter(&z).is_empty());
        assert!(z.minus(&z).is_empty());
    }

    #[test]
    fn in_place_ops() {
        let b = s(5, &[1, 2, 3, 4]);
        let mut a = s(5, &[0, 1, 3]);
        a.union_with(&b);
        assert_eq!(v(&a), vec![0, 1, 2, 3, 4]);
        let mut a = s(5, &[0, 1, 3]);
        a.inter_with(&b);
        assert_eq!(v(&a), vec![1, 3]);
        let mut a = s(5, &[0, 1, 3]);
        a.minus_with(&b);
        assert_eq!(v(&a), vec![0]);

        let b = s(65, &[64, 1]);
        let mut a = s(65, &[0, 64]);
        a.union_with(&b);
        assert_eq!(v(&a), vec![0, 1, 64]);
        a.inter_with(&s(65, &[1, 64]));
        assert_eq!(v(&a), vec![1, 64]);
        a.minus_with(&s(65, &[64]));
        assert_eq!(v(&a), vec![1]);
    }

    #[test]
    fn complement_respects_universe() {
        let a = s(5, &[0, 3]);
        let c = a.complement();
        assert_eq!(v(&c), vec![1, 2, 4]);
        assert_eq!(c.complement(), a);
        assert_eq!(c.len_universe(), 5);
        for n in [0, 1, 63, 64, 65, 130] {
            let e = EventSet::new(n);
            assert_eq!(e.complement(), EventSet::full(n));
            assert_eq!(EventSet::full(n).complement(), e);
            assert_eq!(e.complement().count(), n);
        }
        let a = s(65, &[64]);
        assert_eq!(v(&a.complement()), (0..64).collect::<Vec<_>>());
        // padding stays clear: complement of complement equals original bits
        assert_eq!(a.complement().complement().as_blocks(), a.as_blocks());
    }

    #[test]
    fn subset_and_disjoint() {
        let a = s(5, &[1, 3]);
        let b = s(5, &[1, 2, 3]);
        assert!(a.is_subset(&b));
        assert!(!b.is_subset(&a));
        assert!(a.is_subset(&a));
        assert!(EventSet::new(5).is_subset(&a));
        assert!(a.is_disjoint(&s(5, &[0, 4])));
        assert!(!a.is_disjoint(&b));
    }

    #[test]
    fn blocks_round_trip() {
        let a = s(130, &[0, 63, 64, 129]);
        assert_eq!(a.as_blocks().len(), 3);
        assert_eq!(a.as_blocks()[0], 1 | (1 << 63));
        assert_eq!(a.as_blocks()[1], 1);
        assert_eq!(a.as_blocks()[2], 2);
        assert_eq!(EventSet::from_blocks(130, a.as_blocks()), a);
        // padding bits are masked off
        let b = EventSet::from_blocks(3, &[usize::MAX]);
        assert_eq!(v(&b), vec![0, 1, 2]);
        assert_eq!(b, EventSet::full(3));
        assert_eq!(EventSet::from_blocks(0, &[]), EventSet::new(0));
    }

    #[test]
    fn eq_hash_clone_debug() {
        let a = s(5, &[0, 3]);
        let b = s(5, &[3, 0]);
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert_ne!(a, s(5, &[0]));
        assert_ne!(a, s(6, &[0, 3]), "different universes are different sets");
        let c = a.clone();
        assert_eq!(c, a);
        assert_eq!(format!("{a:?}"), "{0, 3}");
        assert_eq!(format!("{:?}", EventSet::new(4)), "{}");
        assert_eq!(format!("{:?}", s(1, &[0])), "{0}");
        // removing then re-adding keeps equality/hash consistent
        let mut d = a.clone();
        d.insert(4);
        d.remove(4);
        assert_eq!(d, a);
        assert_eq!(hash_of(&d), hash_of(&a));
    }
}
