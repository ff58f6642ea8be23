//! Binary relations on events `0..n` (Alloy `E -> E`).
//!
//! A [`Rel`] is an `n × n` bit matrix stored flat in one [`FixedBitSet`]:
//! row `a` occupies the `stride = ceil(n / usize::BITS)` words
//! `[a * stride, (a + 1) * stride)` of `as_slice()`, and the pair `(a, b)` is
//! bit `b` of that row. Row unions/intersections are word-wise loops.
//!
//! Invariant: in every row, the padding bits for columns `>= n` are zero, so
//! rows can be combined word-wise (and compared/hashed) without masking.
//!
//! The modules:
//! - this one: the type, its constructors and queries, equality, hashing, printing;
//! - [`algebra`]: union, intersection, difference, composition, converse, restrictions
//!   (new relations and in place); [`closure`]: transitive closures and what is built
//!   on them (`star`, `imm`, `twoplus`, `close_adding`, `twoplus_meets`);
//!   [`predicates`]: acyclicity, irreflexivity, transitivity, inclusion;
//! - two representations of the words, chosen by each operation once per call:
//!   [`small`] for relations on at most 64 events (every benchmark family; `stride ==
//!   1`, one word per row: branch-free kernels on the row words, results built in
//!   recycled buffers without clearing them first when every row is written) and
//!   [`general`] for larger ones;
//! - [`pool`]: the per-thread recycled buffers; [`words`]: word arithmetic.
//!
//! All relations (and [`EventSet`]s) combined in one expression must have the
//! same `n`; this is only checked with `debug_assert_eq!`.

use std::fmt;

use fixedbitset::FixedBitSet;

use crate::set::EventSet;

mod algebra;
mod closure;
mod general;
mod pool;
mod predicates;
mod small;
#[cfg(test)]
mod tests;
mod words;

use pool::{take_bits, take_bits_dirty};
use words::{last_word_mask, words_for, WORD};

/// A binary relation on the events `0..n` (Alloy `E -> E`).
pub struct Rel {
    n: usize,
    /// Words per row: `ceil(n / usize::BITS)`.
    stride: usize,
    /// `n * stride` words, row-major.
    bits: FixedBitSet,
}

/// The representation: how the rows are laid out in the words.
impl Rel {
    #[inline]
    fn words(&self) -> &[usize] {
        self.bits.as_slice()
    }

    #[inline]
    fn words_mut(&mut self) -> &mut [usize] {
        self.bits.as_mut_slice()
    }

    /// One word per row (`n <= 64`): the [`small`] kernels apply.
    #[inline]
    fn is_small(&self) -> bool {
        self.stride == 1
    }

    #[inline]
    fn row_words(&self, a: usize) -> &[usize] {
        let st = self.stride;
        &self.words()[a * st..(a + 1) * st]
    }

    #[inline]
    fn row_words_mut(&mut self, a: usize) -> &mut [usize] {
        let st = self.stride;
        &mut self.words_mut()[a * st..(a + 1) * st]
    }

    /// Bit index of the pair `(a, b)` in `bits`.
    #[inline]
    fn idx(&self, a: usize, b: usize) -> usize {
        a * self.stride * WORD + b
    }

    /// A relation on `0..n` whose words are arbitrary: the caller must overwrite them all.
    fn dirty(n: usize) -> Self {
        let stride = words_for(n);
        Rel {
            n,
            stride,
            bits: take_bits_dirty(n * stride * WORD),
        }
    }

    /// Adds `(i, i)` for every event `i` (in place).
    fn add_identity(&mut self) {
        let n = self.n;
        let st = self.stride;
        let w = self.words_mut();
        for i in 0..n {
            w[i * st + i / WORD] |= 1usize << (i % WORD);
        }
    }
}

/// Constructors.
impl Rel {
    /// The empty relation on `0..n` (Alloy `none -> none`).
    pub fn empty(n: usize) -> Self {
        let stride = words_for(n);
        Rel {
            n,
            stride,
            bits: take_bits(n * stride * WORD),
        }
    }

    /// The identity on all events `0..n` (Alloy `E <: iden`).
    pub fn identity(n: usize) -> Self {
        let mut r = Self::empty(n);
        r.add_identity();
        r
    }

    /// The full relation on `0..n` (Alloy `E -> E`).
    pub fn full(n: usize) -> Self {
        let mut r = Self::empty(n);
        let st = r.stride;
        let mask = last_word_mask(n);
        for row in r.words_mut().chunks_exact_mut(st.max(1)) {
            row.fill(usize::MAX);
            if let Some(last) = row.last_mut() {
                *last &= mask;
            }
        }
        r
    }

    /// Cartesian product of two sets (Alloy `a -> b`).
    pub fn cross(a: &EventSet, b: &EventSet) -> Self {
        debug_assert_eq!(a.len_universe(), b.len_universe());
        let mut r = Self::empty(a.len_universe());
        if r.is_small() {
            small::cross(r.words_mut(), a.as_blocks(), b.as_blocks()[0]);
        } else {
            let st = r.stride;
            general::cross(r.words_mut(), a.as_blocks(), b.as_blocks(), st);
        }
        r
    }

    /// Lifts a set to a relation, the identity on `s` (Alloy `stor[s]` = `s <: iden`).
    pub fn stor(s: &EventSet) -> Self {
        let mut r = Self::empty(s.len_universe());
        if r.is_small() {
            small::stor(r.words_mut(), s.as_blocks());
        } else {
            let st = r.stride;
            general::stor(r.words_mut(), s.as_blocks(), st);
        }
        r
    }

    /// The relation on `0..n` containing exactly the given pairs.
    ///
    /// Panics if a component is `>= n`.
    pub fn from_pairs(n: usize, pairs: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut r = Self::empty(n);
        for (a, b) in pairs {
            r.insert(a, b);
        }
        r
    }
}

/// Queries and single-pair updates.
impl Rel {
    /// Number of events `n` of the universe `0..n`.
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }

    /// Membership test (Alloy `a -> b in r`); `false` if `a` or `b` is `>= n`.
    #[inline]
    pub fn contains(&self, a: usize, b: usize) -> bool {
        a < self.n && b < self.n && self.bits.contains(self.idx(a, b))
    }

    /// Adds the pair `(a, b)` (Alloy `r + a -> b`, in place). Panics if out of range.
    #[inline]
    pub fn insert(&mut self, a: usize, b: usize) {
        assert!(
            a < self.n && b < self.n,
            "pair ({a},{b}) out of range for n = {}",
            self.n
        );
        let i = self.idx(a, b);
        self.bits.insert(i);
    }

    /// Removes the pair `(a, b)` (Alloy `r - a -> b`, in place). Panics if out of range.
    #[inline]
    pub fn remove(&mut self, a: usize, b: usize) {
        assert!(
            a < self.n && b < self.n,
            "pair ({a},{b}) out of range for n = {}",
            self.n
        );
        let i = self.idx(a, b);
        self.bits.remove(i);
    }

    /// Number of pairs (Alloy `#r`).
    #[inline]
    pub fn count(&self) -> usize {
        self.bits.count_ones(..)
    }

    /// Whether the relation has no pairs (Alloy `no r`).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits.is_clear()
    }

    /// Iterates over the pairs in (row, column) ascending order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let row_bits = self.stride * WORD;
        self.bits.ones().map(move |i| (i / row_bits, i % row_bits))
    }

    /// Successors of `a` (Alloy `a.r`). Panics if `a >= n`.
    pub fn row(&self, a: usize) -> EventSet {
        assert!(a < self.n, "row {a} out of range for n = {}", self.n);
        EventSet::from_blocks(self.n, self.row_words(a))
    }

    /// Sets the successors of `a` to `s` (`r := r - a -> E + a -> s`).
    pub fn set_row(&mut self, a: usize, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        assert!(a < self.n, "row {a} out of range for n = {}", self.n);
        self.row_words_mut(a).copy_from_slice(s.as_blocks());
    }

    /// Events with at least one successor (Alloy `r.E`, i.e. `dom[r]`).
    pub fn domain(&self) -> EventSet {
        let mut s = EventSet::new(self.n);
        if self.is_small() {
            s.blocks_mut()[0] = small::domain(self.words());
        } else {
            general::domain(s.blocks_mut(), self.words(), self.n, self.stride);
        }
        s
    }

    /// Events with at least one predecessor (Alloy `E.r`, i.e. `ran[r]`).
    pub fn range(&self) -> EventSet {
        let mut s = EventSet::new(self.n);
        if self.is_small() {
            s.blocks_mut()[0] = small::range(self.words());
        } else {
            general::range(s.blocks_mut(), self.words(), self.n, self.stride);
        }
        s
    }
}

impl Drop for Rel {
    fn drop(&mut self) {
        let bits = std::mem::take(&mut self.bits);
        if bits.is_empty() {
            return;
        }
        pool::give_back(bits);
    }
}

impl Clone for Rel {
    fn clone(&self) -> Self {
        // Every word is overwritten just below.
        let mut bits = take_bits_dirty(self.bits.len());
        bits.as_mut_slice().copy_from_slice(self.bits.as_slice());
        Rel {
            n: self.n,
            stride: self.stride,
            bits,
        }
    }
}

/// Equal relations have equal row words (the padding bits are zero), so comparing `n`
/// and the words is relation equality; the words are compared as one slice (`bcmp`)
/// rather than as `FixedBitSet`'s SIMD blocks, which was slower on one-word rows.
impl PartialEq for Rel {
    fn eq(&self, other: &Rel) -> bool {
        self.n == other.n && self.words() == other.words()
    }
}

impl Eq for Rel {}

/// Consistent with `eq`: hashes exactly what it compares.
impl std::hash::Hash for Rel {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.n.hash(state);
        self.words().hash(state);
    }
}

impl fmt::Debug for Rel {
    /// Prints the relation as `{(0,1), (2,3)}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (k, (a, b)) in self.pairs().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "({a},{b})")?;
        }
        f.write_str("}")
    }
}
