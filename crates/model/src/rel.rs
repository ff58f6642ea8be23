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
//! Relations on at most 64 events (every benchmark family; `stride == 1`, one word per
//! row) take dedicated paths in the hot operations: they work on the slice of row words
//! directly, branch-free where that lets the loops vectorise, and build results in
//! recycled buffers without clearing them first when every row is written. Each such
//! method tests `stride == 1` once per call; larger relations run the general code.
//!
//! All relations (and [`EventSet`]s) combined in one expression must have the
//! same `n`; this is only checked with `debug_assert_eq!`.

use std::fmt;

use fixedbitset::FixedBitSet;

use crate::set::EventSet;

const WORD: usize = usize::BITS as usize;

thread_local! {
    /// Recycled bit buffers. The axioms build and drop dozens of equal-sized matrices per
    /// candidate; reusing their buffers keeps the allocator (about a quarter of the time
    /// when profiled) out of the search's inner loop.
    static POOL: std::cell::RefCell<Pool> = const {
        std::cell::RefCell::new(Pool { classes: Vec::new(), last: 0 })
    };
}

/// One thread's recycled buffers, by size: the path combinations of one test have
/// different event counts (a spin loop's unrolled iterations), and a single stack mixing
/// the sizes freed and reallocated most buffers (on the 8-invocation XF barrier, half of
/// the buffers asked for were fresh allocations).
struct Pool {
    /// The buffers of one length each, oldest length first.
    classes: Vec<SizeClass>,
    /// The class used last, looked at first (one size at a time is the common case).
    last: usize,
}

struct SizeClass {
    /// Length of the buffers in bits.
    len: usize,
    /// How many are kept: `POOL_MAX`, fewer for large buffers (`POOL_CLASS_WORDS`).
    cap: usize,
    bufs: Vec<FixedBitSet>,
}

impl Pool {
    /// Index of the class of buffers of `len` bits.
    #[inline]
    fn class(&mut self, len: usize) -> Option<usize> {
        if self.classes.get(self.last).is_some_and(|c| c.len == len) {
            return Some(self.last);
        }
        let i = self.classes.iter().position(|c| c.len == len)?;
        self.last = i;
        Some(i)
    }

    fn take(&mut self, len: usize) -> Option<FixedBitSet> {
        let i = self.class(len)?;
        self.classes[i].bufs.pop()
    }

    fn keep(&mut self, bits: FixedBitSet) {
        let len = bits.len();
        let i = match self.class(len) {
            Some(i) => i,
            None => {
                if self.classes.len() == POOL_MAX_SIZES {
                    self.classes.remove(0);
                }
                self.classes.push(SizeClass {
                    len,
                    cap: POOL_MAX.min(POOL_CLASS_WORDS / (len / WORD).max(1)),
                    bufs: Vec::new(),
                });
                self.last = self.classes.len() - 1;
                self.last
            }
        };
        let class = &mut self.classes[i];
        if class.bufs.len() < class.cap {
            class.bufs.push(bits);
        }
    }

    /// Words held (for tests).
    #[cfg(test)]
    fn words(&self) -> usize {
        self.classes
            .iter()
            .map(|c| c.len / WORD * c.bufs.len())
            .sum()
    }
}

/// Buffers kept per size and thread.
const POOL_MAX: usize = 1024;

/// Sizes kept per thread (the oldest is forgotten for a new one).
const POOL_MAX_SIZES: usize = 16;

/// Words kept per size and thread (512 KiB), so that large relations are not hoarded:
/// at most `POOL_MAX_SIZES` times that (8 MiB) in all.
const POOL_CLASS_WORDS: usize = 1 << 16;

/// A zeroed buffer of `len` bits, recycled when one of that size is at hand.
fn take_bits(len: usize) -> FixedBitSet {
    let mut b = take_bits_dirty(len);
    b.clear();
    b
}

/// A buffer of `len` bits whose words hold arbitrary contents (a recycled relation's),
/// for callers that overwrite every word of `as_mut_slice()` before reading any.
///
/// Only the words of `as_mut_slice()` can be dirty: `FixedBitSet` may keep one more word
/// past them (its SIMD blocks' tail), which `with_capacity` and `clear` zero and the
/// block-wise union/intersection/difference keep zero (this module never writes it
/// otherwise), so equality and hashing, which read it, are unaffected.
fn take_bits_dirty(len: usize) -> FixedBitSet {
    POOL.try_with(|p| p.borrow_mut().take(len))
        .ok()
        .flatten()
        .unwrap_or_else(|| FixedBitSet::with_capacity(len))
}

/// All ones if bit `i` of `word` is set, else zero (a branch-free row selector).
#[inline(always)]
fn bit_mask(word: usize, i: usize) -> usize {
    0usize.wrapping_sub((word >> i) & 1)
}

impl Drop for Rel {
    fn drop(&mut self) {
        let bits = std::mem::take(&mut self.bits);
        if bits.is_empty() {
            return;
        }
        let _ = POOL.try_with(|p| p.borrow_mut().keep(bits));
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

/// Number of `usize` words needed for `n` bits.
#[inline]
fn words_for(n: usize) -> usize {
    n.div_ceil(WORD)
}

/// Mask of the valid bits in the last word of a row of `n` columns.
#[inline]
fn last_word_mask(n: usize) -> usize {
    match n % WORD {
        0 => usize::MAX,
        r => (1usize << r) - 1,
    }
}

/// Calls `f(k)` for every set bit `k` of `words`, in ascending order.
#[inline]
fn for_each_bit(words: &[usize], mut f: impl FnMut(usize)) {
    for (w, &word) in words.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let t = x.trailing_zeros() as usize;
            x &= x - 1;
            f(w * WORD + t);
        }
    }
}

/// `w[dst row] |= w[src row]` for rows of `stride` words (`dst != src`).
#[inline]
fn or_row_into(w: &mut [usize], dst: usize, src: usize, stride: usize) {
    debug_assert_ne!(dst, src);
    let (d, s) = if dst < src {
        let (lo, hi) = w.split_at_mut(src * stride);
        (&mut lo[dst * stride..(dst + 1) * stride], &hi[..stride])
    } else {
        let (lo, hi) = w.split_at_mut(dst * stride);
        (&mut hi[..stride], &lo[src * stride..(src + 1) * stride])
    };
    for (x, y) in d.iter_mut().zip(s) {
        *x |= *y;
    }
}

/// A binary relation on the events `0..n` (Alloy `E -> E`).
pub struct Rel {
    n: usize,
    /// Words per row: `ceil(n / usize::BITS)`.
    stride: usize,
    /// `n * stride` words, row-major.
    bits: FixedBitSet,
}

impl Rel {
    // ----------------------------------------------------------------------
    // Internal helpers
    // ----------------------------------------------------------------------

    #[inline]
    fn words(&self) -> &[usize] {
        self.bits.as_slice()
    }

    #[inline]
    fn words_mut(&mut self) -> &mut [usize] {
        self.bits.as_mut_slice()
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

    // ----------------------------------------------------------------------
    // Constructors
    // ----------------------------------------------------------------------

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
        let n = a.len_universe();
        if words_for(n) == 1 {
            let bw = b.as_blocks()[0];
            let mut r = Self::empty(n);
            let w = r.words_mut();
            for_each_bit(a.as_blocks(), |i| w[i] = bw);
            return r;
        }
        let mut r = Self::empty(n);
        let bw = b.as_blocks();
        for i in a.iter() {
            r.row_words_mut(i).copy_from_slice(bw);
        }
        r
    }

    /// Lifts a set to a relation, the identity on `s` (Alloy `stor[s]` = `s <: iden`).
    pub fn stor(s: &EventSet) -> Self {
        let n = s.len_universe();
        if words_for(n) == 1 {
            let mut r = Self::empty(n);
            let w = r.words_mut();
            for_each_bit(s.as_blocks(), |i| w[i] = 1usize << i);
            return r;
        }
        let mut r = Self::empty(n);
        for i in s.iter() {
            r.insert(i, i);
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

    // ----------------------------------------------------------------------
    // Basic queries and updates
    // ----------------------------------------------------------------------

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

    /// Events with at least one successor (Alloy `r.E`, i.e. `dom[r]`).
    pub fn domain(&self) -> EventSet {
        let mut s = EventSet::new(self.n);
        if self.stride == 1 {
            let mut d = 0usize;
            for (i, &row) in self.words().iter().enumerate() {
                d |= usize::from(row != 0) << i;
            }
            s.blocks_mut()[0] = d;
            return s;
        }
        for a in 0..self.n {
            if self.row_words(a).iter().any(|&w| w != 0) {
                s.insert(a);
            }
        }
        s
    }

    /// Events with at least one predecessor (Alloy `E.r`, i.e. `ran[r]`).
    pub fn range(&self) -> EventSet {
        let mut s = EventSet::new(self.n);
        if self.stride == 1 {
            s.blocks_mut()[0] = self.words().iter().fold(0, |acc, &row| acc | row);
            return s;
        }
        let acc = s.blocks_mut();
        for a in 0..self.n {
            for (x, y) in acc.iter_mut().zip(self.row_words(a)) {
                *x |= *y;
            }
        }
        s
    }

    /// Inclusion test (Alloy `r in s`).
    pub fn is_subset(&self, other: &Rel) -> bool {
        debug_assert_eq!(self.n, other.n);
        self.words()
            .iter()
            .zip(other.words())
            .all(|(x, y)| x & !y == 0)
    }

    // ----------------------------------------------------------------------
    // Algebra (non-mutating)
    // ----------------------------------------------------------------------

    /// Union (Alloy `r + s`).
    pub fn union(&self, other: &Rel) -> Rel {
        let mut r = self.clone();
        r.union_with(other);
        r
    }

    /// Intersection (Alloy `r & s`).
    pub fn inter(&self, other: &Rel) -> Rel {
        let mut r = self.clone();
        r.inter_with(other);
        r
    }

    /// Difference (Alloy `r - s`).
    pub fn minus(&self, other: &Rel) -> Rel {
        let mut r = self.clone();
        r.minus_with(other);
        r
    }

    /// Relational composition (Alloy `r . s`, herd `r ; s`).
    pub fn seq(&self, other: &Rel) -> Rel {
        let mut out = if self.stride == 1 {
            // seq_into writes every row.
            Rel::dirty(self.n)
        } else {
            Rel::empty(self.n)
        };
        self.seq_into(other, &mut out);
        out
    }

    /// Relational composition written into `out` (Alloy `out = r . s`);
    /// allocation-free when `out` already has the right size.
    pub fn seq_into(&self, other: &Rel, out: &mut Rel) {
        debug_assert_eq!(self.n, other.n);
        if self.stride == 1 {
            if out.n != self.n {
                *out = Rel::dirty(self.n);
            }
            // Row i of the result is the union of the rows k of `other` with (i, k) in
            // `self`; relations are sparse, so walking the set bits beats a branch-free
            // pass over every column. Every output row is written.
            let b = other.words();
            for (o, &row) in out.words_mut().iter_mut().zip(self.words()) {
                let mut acc = 0;
                let mut x = row;
                while x != 0 {
                    acc |= b[x.trailing_zeros() as usize];
                    x &= x - 1;
                }
                *o = acc;
            }
            return;
        }
        if out.n != self.n {
            *out = Rel::empty(self.n);
        } else {
            out.clear();
        }
        let st = self.stride;
        let a = self.words();
        let b = other.words();
        let o = out.words_mut();
        for i in 0..self.n {
            let orow = &mut o[i * st..(i + 1) * st];
            for_each_bit(&a[i * st..(i + 1) * st], |k| {
                for (x, y) in orow.iter_mut().zip(&b[k * st..(k + 1) * st]) {
                    *x |= *y;
                }
            });
        }
    }

    /// Converse (Alloy `~r`).
    pub fn inv(&self) -> Rel {
        let mut out = Rel::empty(self.n);
        if self.stride == 1 {
            let o = out.words_mut();
            for (i, &row) in self.words().iter().enumerate() {
                let mut x = row;
                while x != 0 {
                    o[x.trailing_zeros() as usize] |= 1usize << i;
                    x &= x - 1;
                }
            }
            return out;
        }
        let st = self.stride;
        let o = out.words_mut();
        for i in 0..self.n {
            let bit = 1usize << (i % WORD);
            let wi = i / WORD;
            for_each_bit(self.row_words(i), |j| o[j * st + wi] |= bit);
        }
        out
    }

    /// Transitive closure (Alloy `^r`).
    pub fn plus(&self) -> Rel {
        let mut r = self.clone();
        r.close_in_place();
        r
    }

    /// Reflexive-transitive closure (Alloy `*r` = `^r + (E <: iden)`).
    pub fn star(&self) -> Rel {
        let mut r = self.plus();
        r.add_identity();
        r
    }

    /// Reflexive closure (Alloy `rc[r]` = `r + (E <: iden)`, herd `r?`).
    pub fn opt(&self) -> Rel {
        let mut r = self.clone();
        r.add_identity();
        r
    }

    /// Relation and its inverse (Alloy `rai[r]` = `r + ~r`).
    pub fn rai(&self) -> Rel {
        let mut r = self.inv();
        r.union_with(self);
        r
    }

    /// Immediate links (Alloy `imm[r]` = `r - r.^r`).
    pub fn imm(&self) -> Rel {
        let mut r = self.twoplus();
        // r - t == r & !t; compute in the freshly allocated matrix.
        for (x, y) in r.words_mut().iter_mut().zip(self.words()) {
            *x = *y & !*x;
        }
        r
    }

    /// Chains of two or more hops (Alloy `twoplus[r]` = `r.^r`).
    pub fn twoplus(&self) -> Rel {
        self.seq(&self.plus())
    }

    /// Domain/range restriction (Alloy `[dom].r.[cod]` = `dom <: r :> cod`).
    pub fn restrict(&self, dom: &EventSet, cod: &EventSet) -> Rel {
        debug_assert_eq!(self.n, dom.len_universe());
        debug_assert_eq!(self.n, cod.len_universe());
        if self.stride == 1 {
            // Zeroed, then the rows of `dom` only (a per-row mask costs a variable shift
            // per row, which does not vectorise without AVX2).
            let c = cod.as_blocks()[0];
            let mut r = Rel::empty(self.n);
            let (o, a) = (r.words_mut(), self.words());
            for_each_bit(dom.as_blocks(), |i| o[i] = a[i] & c);
            return r;
        }
        let mut r = self.clone();
        let cw = cod.as_blocks();
        for a in 0..self.n {
            let row = r.row_words_mut(a);
            if dom.contains(a) {
                for (x, y) in row.iter_mut().zip(cw) {
                    *x &= *y;
                }
            } else {
                row.fill(0);
            }
        }
        r
    }

    /// Domain restriction (Alloy `s <: r` = `[s].r`).
    pub fn restrict_domain(&self, s: &EventSet) -> Rel {
        debug_assert_eq!(self.n, s.len_universe());
        if self.stride == 1 {
            let mut r = Rel::empty(self.n);
            let (o, a) = (r.words_mut(), self.words());
            for_each_bit(s.as_blocks(), |i| o[i] = a[i]);
            return r;
        }
        let mut r = self.clone();
        for a in 0..self.n {
            if !s.contains(a) {
                r.row_words_mut(a).fill(0);
            }
        }
        r
    }

    /// Range restriction (Alloy `r :> s` = `r.[s]`).
    pub fn restrict_range(&self, s: &EventSet) -> Rel {
        debug_assert_eq!(self.n, s.len_universe());
        if self.stride == 1 {
            let c = s.as_blocks()[0];
            let mut r = Rel::dirty(self.n);
            for (o, &row) in r.words_mut().iter_mut().zip(self.words()) {
                *o = row & c;
            }
            return r;
        }
        let mut r = self.clone();
        let sw = s.as_blocks();
        for a in 0..self.n {
            for (x, y) in r.row_words_mut(a).iter_mut().zip(sw) {
                *x &= *y;
            }
        }
        r
    }

    /// Whether every pair is in the relation (stops at the first missing one).
    pub fn is_full(&self) -> bool {
        let mask = last_word_mask(self.n);
        let st = self.stride;
        (0..self.n).all(|a| {
            let row = self.row_words(a);
            row[..st - 1].iter().all(|&w| w == usize::MAX) && row[st - 1] == mask
        })
    }

    /// Range restriction in place (`r := r.[s]`).
    pub fn restrict_range_with(&mut self, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        if self.stride == 1 {
            let c = s.as_blocks()[0];
            for row in self.words_mut() {
                *row &= c;
            }
            return;
        }
        let sw = s.as_blocks();
        for a in 0..self.n {
            for (x, y) in self.row_words_mut(a).iter_mut().zip(sw) {
                *x &= *y;
            }
        }
    }

    /// Removes the diagonal (Alloy `r - iden`).
    pub fn minus_identity(&self) -> Rel {
        let mut r = self.clone();
        let st = r.stride;
        let w = r.words_mut();
        for i in 0..self.n {
            w[i * st + i / WORD] &= !(1usize << (i % WORD));
        }
        r
    }

    // ----------------------------------------------------------------------
    // Predicates
    // ----------------------------------------------------------------------

    /// Acyclicity (Alloy `acyclic[r, E]`, i.e. `no iden & ^r`).
    ///
    /// Kahn's topological sort: O(n) extra memory, no matrix allocation.
    pub fn is_acyclic(&self) -> bool {
        let n = self.n;
        let mut indeg = vec![0u32; n];
        for a in 0..n {
            for_each_bit(self.row_words(a), |b| indeg[b] += 1);
        }
        let mut stack: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
        let mut done = 0;
        while let Some(a) = stack.pop() {
            done += 1;
            for_each_bit(self.row_words(a), |b| {
                indeg[b] -= 1;
                if indeg[b] == 0 {
                    stack.push(b);
                }
            });
        }
        done == n
    }

    /// Irreflexivity (Alloy `irreflexive[r]`, i.e. `no iden & r`).
    pub fn is_irreflexive(&self) -> bool {
        let st = self.stride;
        let w = self.words();
        (0..self.n).all(|i| w[i * st + i / WORD] & (1usize << (i % WORD)) == 0)
    }

    /// Transitivity (Alloy `transitive[r]`, i.e. `r.r in r`); allocation-free.
    pub fn is_transitive(&self) -> bool {
        (0..self.n).all(|a| {
            let ra = self.row_words(a);
            let mut ok = true;
            for_each_bit(ra, |k| {
                if ok {
                    ok = self.row_words(k).iter().zip(ra).all(|(x, y)| x & !y == 0);
                }
            });
            ok
        })
    }

    // ----------------------------------------------------------------------
    // In-place variants
    // ----------------------------------------------------------------------

    /// In-place union (Alloy `r = r + s`).
    #[inline]
    pub fn union_with(&mut self, other: &Rel) {
        debug_assert_eq!(self.n, other.n);
        self.bits.union_with(&other.bits);
    }

    /// In-place intersection (Alloy `r = r & s`).
    #[inline]
    pub fn inter_with(&mut self, other: &Rel) {
        debug_assert_eq!(self.n, other.n);
        self.bits.intersect_with(&other.bits);
    }

    /// In-place difference (Alloy `r = r - s`).
    #[inline]
    pub fn minus_with(&mut self, other: &Rel) {
        debug_assert_eq!(self.n, other.n);
        self.bits.difference_with(&other.bits);
    }

    /// Removes every pair (Alloy `r = none -> none`), keeping `n`.
    #[inline]
    pub fn clear(&mut self) {
        self.bits.clear();
    }

    /// Overwrites `self` with `other`; no allocation when the sizes match.
    pub fn copy_from(&mut self, other: &Rel) {
        if self.n == other.n {
            self.words_mut().copy_from_slice(other.words());
        } else {
            self.bits.clone_from(&other.bits);
            self.n = other.n;
            self.stride = other.stride;
        }
    }

    /// In-place reflexive closure (Alloy `r = rc[r]`).
    #[inline]
    pub fn opt_in_place(&mut self) {
        self.add_identity();
    }

    /// In-place transitive closure (Alloy `r = ^r`), word-parallel Warshall:
    /// for each `k`, every row `i` with `(i, k)` gets `row_i |= row_k`.
    /// Adds the pairs of `edges` to this transitively closed relation and keeps it closed:
    /// the result is `(self + edges)+`. Per pair `(a, b)` not yet in it, every row that
    /// reaches `a` (and `a` itself) gains `b` and what `b` reaches, which is the closure
    /// with one more edge; O(n) row unions per new pair instead of Warshall's O(n²) tests,
    /// so it wins when `edges` has few pairs.
    pub fn close_adding(&mut self, edges: &Rel) {
        debug_assert_eq!(self.n, edges.n);
        if self.stride == 1 {
            self.close_adding_one_word(edges);
            return;
        }
        let n = self.n;
        let st = self.stride;
        let mut add = vec![0usize; st];
        for a in 0..n {
            for_each_bit(edges.row_words(a), |b| {
                if self.contains(a, b) {
                    return;
                }
                let w = self.words_mut();
                add.copy_from_slice(&w[b * st..(b + 1) * st]);
                add[b / WORD] |= 1usize << (b % WORD);
                let (aw, ab) = (a / WORD, 1usize << (a % WORD));
                for i in 0..n {
                    if i == a || w[i * st + aw] & ab != 0 {
                        for (x, y) in w[i * st..(i + 1) * st].iter_mut().zip(&add) {
                            *x |= *y;
                        }
                    }
                }
            });
        }
    }

    pub fn close_in_place(&mut self) {
        if self.stride == 1 {
            self.close_in_place_one_word();
            return;
        }
        let n = self.n;
        let st = self.stride;
        let w = self.words_mut();
        for k in 0..n {
            let kw = k / WORD;
            let kb = 1usize << (k % WORD);
            for i in 0..n {
                if i != k && w[i * st + kw] & kb != 0 {
                    or_row_into(w, i, k, st);
                }
            }
        }
    }
}

// One-word rows (relations on at most 64 events)
impl Rel {
    /// [`Rel::close_in_place`] for `stride == 1`: Warshall with each row's update made
    /// branch-free (`row_i |= row_k` masked by bit `k` of `row_i`), so the inner loop
    /// vectorises. Only pivots `k` that are both a source and a target can add pairs (no
    /// row has bit `k` otherwise, or row `k` is empty), and closing never changes the
    /// sets of sources and targets (`dom[^r] = dom[r]`, `ran[^r] = ran[r]`), so those are
    /// computed once.
    fn close_in_place_one_word(&mut self) {
        let w = self.words_mut();
        let (mut sources, mut targets) = (0usize, 0usize);
        for (i, &row) in w.iter().enumerate() {
            sources |= usize::from(row != 0) << i;
            targets |= row;
        }
        let mut pivots = sources & targets;
        while pivots != 0 {
            let k = pivots.trailing_zeros() as usize;
            pivots &= pivots - 1;
            let rk = w[k];
            for row in w.iter_mut() {
                *row |= rk & bit_mask(*row, k);
            }
        }
    }

    /// [`Rel::twoplus_meets`] for `stride == 1`, with the sets in words.
    fn twoplus_meets_one_word(&self, pairs: &Rel) -> bool {
        let w = self.words();
        let successors = |set: usize| {
            let (mut acc, mut x) = (0usize, set);
            while x != 0 {
                acc |= w[x.trailing_zeros() as usize];
                x &= x - 1;
            }
            acc
        };
        for (a, &want) in pairs.words().iter().enumerate() {
            if want == 0 {
                continue;
            }
            // reach = successors of a's successors, then closed under successors.
            let mut reach = successors(w[a]);
            let mut frontier = reach;
            while frontier != 0 {
                let next = successors(frontier);
                frontier = next & !reach;
                reach |= next;
            }
            if reach & want != 0 {
                return true;
            }
        }
        false
    }

    /// [`Rel::close_adding`] for `stride == 1`: per new pair `(a, b)`, `a` and every row
    /// reaching `a` gain `b` and `b`'s row, the rows selected branch-free.
    fn close_adding_one_word(&mut self, edges: &Rel) {
        let w = self.words_mut();
        for (a, &new) in edges.words().iter().enumerate() {
            let mut x = new;
            while x != 0 {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                if w[a] & (1usize << b) != 0 {
                    continue;
                }
                let add = w[b] | (1usize << b);
                for row in w.iter_mut() {
                    *row |= add & bit_mask(*row, a);
                }
                // Whether or not `a` reached itself before.
                w[a] |= add;
            }
        }
    }
}

// in-place operations (percand)
impl Rel {
    /// Sets the successors of `a` to `s` (`r := r - a -> E + a -> s`).
    pub fn set_row(&mut self, a: usize, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        assert!(a < self.n, "row {a} out of range for n = {}", self.n);
        self.row_words_mut(a).copy_from_slice(s.as_blocks());
    }

    /// Domain restriction in place (`r := s <: r`).
    pub fn restrict_domain_with(&mut self, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        if self.stride == 1 {
            let outside = !s.as_blocks()[0] & last_word_mask(self.n);
            let w = self.words_mut();
            for_each_bit(&[outside], |i| w[i] = 0);
            return;
        }
        for a in 0..self.n {
            if !s.contains(a) {
                self.row_words_mut(a).fill(0);
            }
        }
    }

    /// Whether `pairs & twoplus[self]` is non-empty (Alloy `some pairs & r.^r`), without
    /// building the closure: for each row `a` of `pairs`, the events reachable from `a`
    /// in two or more steps are found by a word-parallel search from `a`'s successors.
    /// Cheaper than `twoplus` when `pairs` has few rows.
    pub fn twoplus_meets(&self, pairs: &Rel) -> bool {
        debug_assert_eq!(self.n, pairs.n);
        if self.stride == 1 {
            return self.twoplus_meets_one_word(pairs);
        }
        let st = self.stride;
        let mut reach = vec![0usize; st];
        let mut frontier = vec![0usize; st];
        for a in 0..self.n {
            let want = pairs.row_words(a);
            if want.iter().all(|&w| w == 0) {
                continue;
            }
            // reach = successors of a's successors, then closed under successors.
            reach.fill(0);
            for_each_bit(self.row_words(a), |k| {
                for (x, y) in reach.iter_mut().zip(self.row_words(k)) {
                    *x |= *y;
                }
            });
            frontier.copy_from_slice(&reach);
            while frontier.iter().any(|&w| w != 0) {
                let mut next = vec![0usize; st];
                for_each_bit(&frontier, |k| {
                    for (x, y) in next.iter_mut().zip(self.row_words(k)) {
                        *x |= *y;
                    }
                });
                for (f, (n, r)) in frontier.iter_mut().zip(next.iter().zip(reach.iter_mut())) {
                    *f = *n & !*r;
                    *r |= *n;
                }
            }
            if reach.iter().zip(want).any(|(r, w)| r & w != 0) {
                return true;
            }
        }
        false
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    // ------------------------------------------------------------------
    // Helpers
    // ------------------------------------------------------------------

    fn rel(n: usize, p: &[(usize, usize)]) -> Rel {
        Rel::from_pairs(n, p.iter().copied())
    }

    fn set(n: usize, v: &[usize]) -> EventSet {
        EventSet::from_iter(n, v.iter().copied())
    }

    fn ps(r: &Rel) -> Vec<(usize, usize)> {
        r.pairs().collect()
    }

    fn sv(s: &EventSet) -> Vec<usize> {
        s.iter().collect()
    }

    fn hash_of(r: &Rel) -> u64 {
        let mut h = DefaultHasher::new();
        r.hash(&mut h);
        h.finish()
    }

    /// Checks the padding invariant: no bit set in columns `>= n`.
    fn assert_padding_clear(r: &Rel) {
        let mask = last_word_mask(r.n());
        for a in 0..r.n() {
            let row = r.row_words(a);
            assert_eq!(
                row.last().map(|w| w & !mask),
                Some(0),
                "padding set in row {a}"
            );
        }
    }

    /// r = 0 -> 1 -> 2 -> 3 on n = 4.
    fn chain4() -> Rel {
        rel(4, &[(0, 1), (1, 2), (2, 3)])
    }

    /// All 9 pairs among `{0, 63, 64}`.
    fn all_pairs(v: &[usize]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for &a in v {
            for &b in v {
                out.push((a, b));
            }
        }
        out.sort();
        out
    }

    // ------------------------------------------------------------------
    // Hand-computed unit tests
    // ------------------------------------------------------------------

    #[test]
    fn empty_relation() {
        for n in [0, 1, 4, 65, 130] {
            let r = Rel::empty(n);
            assert_eq!(r.n(), n);
            assert!(r.is_empty());
            assert_eq!(r.count(), 0);
            assert_eq!(ps(&r), vec![]);
        }
    }

    #[test]
    fn identity_relation() {
        assert_eq!(ps(&Rel::identity(3)), vec![(0, 0), (1, 1), (2, 2)]);
        assert_eq!(ps(&Rel::identity(1)), vec![(0, 0)]);
        assert!(Rel::identity(0).is_empty());
        let id = Rel::identity(130);
        assert_eq!(id.count(), 130);
        assert!(id.contains(63, 63) && id.contains(64, 64) && id.contains(129, 129));
        assert!(!id.contains(63, 64));
        assert_padding_clear(&id);
    }

    #[test]
    fn full_relation() {
        assert_eq!(ps(&Rel::full(2)), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(Rel::full(3).count(), 9);
        assert_eq!(ps(&Rel::full(1)), vec![(0, 0)]);
        assert!(Rel::full(0).is_empty());
        for n in [63, 64, 65, 130] {
            let f = Rel::full(n);
            assert_eq!(f.count(), n * n);
            assert_padding_clear(&f);
        }
    }

    #[test]
    fn cross_product() {
        let r = Rel::cross(&set(4, &[0, 2]), &set(4, &[1, 3]));
        assert_eq!(ps(&r), vec![(0, 1), (0, 3), (2, 1), (2, 3)]);
        assert!(Rel::cross(&set(4, &[]), &set(4, &[1])).is_empty());
        assert_eq!(
            Rel::cross(&EventSet::full(3), &EventSet::full(3)),
            Rel::full(3)
        );
        let r = Rel::cross(&set(130, &[64, 129]), &set(130, &[0, 63, 64]));
        assert_eq!(
            ps(&r),
            vec![(64, 0), (64, 63), (64, 64), (129, 0), (129, 63), (129, 64)]
        );
        assert!(Rel::cross(&EventSet::new(0), &EventSet::new(0)).is_empty());
    }

    #[test]
    fn stor_lifts_set() {
        assert_eq!(ps(&Rel::stor(&set(4, &[1, 3]))), vec![(1, 1), (3, 3)]);
        assert_eq!(Rel::stor(&EventSet::full(5)), Rel::identity(5));
        assert!(Rel::stor(&EventSet::new(5)).is_empty());
        assert_eq!(ps(&Rel::stor(&set(65, &[64]))), vec![(64, 64)]);
    }

    #[test]
    fn from_pairs_contains_insert_remove() {
        let mut r = rel(4, &[(2, 3), (0, 1), (0, 1)]);
        assert_eq!(ps(&r), vec![(0, 1), (2, 3)]);
        assert!(r.contains(0, 1) && r.contains(2, 3));
        assert!(!r.contains(1, 0) && !r.contains(3, 2));
        assert!(!r.contains(4, 0) && !r.contains(0, 4) && !r.contains(100, 100));
        r.insert(3, 0);
        assert!(r.contains(3, 0));
        r.remove(0, 1);
        r.remove(1, 1); // absent: no-op
        assert_eq!(ps(&r), vec![(2, 3), (3, 0)]);

        let mut r = Rel::empty(130);
        r.insert(64, 129);
        r.insert(129, 64);
        r.insert(0, 63);
        assert!(r.contains(64, 129) && r.contains(129, 64) && r.contains(0, 63));
        assert!(!r.contains(0, 64) && !r.contains(1, 63));
        assert_eq!(ps(&r), vec![(0, 63), (64, 129), (129, 64)]);
        r.remove(64, 129);
        assert_eq!(ps(&r), vec![(0, 63), (129, 64)]);
        // columns >= n must not alias into the next row / padding
        let r = rel(65, &[(0, 64)]);
        assert!(!r.contains(0, 65));
        assert!(!r.contains(1, 0));
    }

    #[test]
    #[should_panic]
    fn insert_out_of_range_panics() {
        Rel::empty(3).insert(0, 3);
    }

    #[test]
    #[should_panic]
    fn remove_out_of_range_panics() {
        Rel::empty(3).remove(3, 0);
    }

    #[test]
    fn count_and_is_empty() {
        assert_eq!(chain4().count(), 3);
        assert!(!chain4().is_empty());
        assert_eq!(rel(130, &[(0, 129), (129, 0), (64, 64)]).count(), 3);
        let mut r = rel(1, &[(0, 0)]);
        assert_eq!(r.count(), 1);
        r.remove(0, 0);
        assert!(r.is_empty());
    }

    #[test]
    fn pairs_in_row_column_order() {
        let r = rel(5, &[(4, 0), (0, 4), (2, 2), (0, 1), (4, 3)]);
        assert_eq!(ps(&r), vec![(0, 1), (0, 4), (2, 2), (4, 0), (4, 3)]);
        let r = rel(130, &[(129, 0), (0, 129), (64, 64), (63, 65), (0, 0)]);
        assert_eq!(ps(&r), vec![(0, 0), (0, 129), (63, 65), (64, 64), (129, 0)]);
    }

    #[test]
    fn row_domain_range() {
        let r = chain4();
        assert_eq!(sv(&r.row(0)), vec![1]);
        assert_eq!(sv(&r.row(3)), Vec::<usize>::new());
        assert_eq!(r.row(1).len_universe(), 4);
        assert_eq!(sv(&r.domain()), vec![0, 1, 2]);
        assert_eq!(sv(&r.range()), vec![1, 2, 3]);
        let r = rel(130, &[(0, 129), (0, 64), (64, 63), (129, 0)]);
        assert_eq!(sv(&r.row(0)), vec![64, 129]);
        assert_eq!(sv(&r.domain()), vec![0, 64, 129]);
        assert_eq!(sv(&r.range()), vec![0, 63, 64, 129]);
        assert!(Rel::empty(0).domain().is_empty());
        assert!(Rel::empty(0).range().is_empty());
        assert_eq!(sv(&Rel::identity(1).domain()), vec![0]);
        assert_eq!(sv(&Rel::identity(1).range()), vec![0]);
    }

    #[test]
    fn subset() {
        let r = chain4();
        assert!(r.is_subset(&r.plus()));
        assert!(!r.plus().is_subset(&r));
        assert!(Rel::empty(4).is_subset(&r));
        assert!(r.is_subset(&r));
        assert!(!rel(4, &[(3, 3)]).is_subset(&r));
        assert!(rel(130, &[(129, 64)]).is_subset(&rel(130, &[(129, 64), (0, 0)])));
        assert!(!rel(130, &[(129, 65)]).is_subset(&rel(130, &[(129, 64)])));
        assert!(Rel::empty(0).is_subset(&Rel::empty(0)));
    }

    #[test]
    fn union_inter_minus() {
        let r = chain4();
        let t = rel(4, &[(0, 1), (2, 3), (3, 3)]);
        assert_eq!(ps(&r.union(&t)), vec![(0, 1), (1, 2), (2, 3), (3, 3)]);
        assert_eq!(ps(&r.inter(&t)), vec![(0, 1), (2, 3)]);
        assert_eq!(ps(&r.minus(&t)), vec![(1, 2)]);
        assert_eq!(ps(&t.minus(&r)), vec![(3, 3)]);
        // operands untouched
        assert_eq!(r, chain4());

        let a = rel(130, &[(0, 64), (129, 129), (64, 0)]);
        let b = rel(130, &[(0, 64), (0, 63)]);
        assert_eq!(
            ps(&a.union(&b)),
            vec![(0, 63), (0, 64), (64, 0), (129, 129)]
        );
        assert_eq!(ps(&a.inter(&b)), vec![(0, 64)]);
        assert_eq!(ps(&a.minus(&b)), vec![(64, 0), (129, 129)]);
        let z = Rel::empty(0);
        assert!(z.union(&z).is_empty() && z.inter(&z).is_empty() && z.minus(&z).is_empty());
    }

    #[test]
    fn seq_composition() {
        let r = chain4();
        let s = rel(4, &[(1, 0), (2, 2), (3, 1)]);
        assert_eq!(ps(&r.seq(&r)), vec![(0, 2), (1, 3)]);
        assert_eq!(ps(&r.seq(&s)), vec![(0, 0), (1, 2), (2, 1)]);
        assert_eq!(ps(&s.seq(&r)), vec![(1, 1), (2, 3), (3, 2)]);
        assert_eq!(r.seq(&Rel::identity(4)), r);
        assert_eq!(Rel::identity(4).seq(&r), r);
        assert!(r.seq(&Rel::empty(4)).is_empty());
        // across the block boundary
        let r = rel(65, &[(63, 64), (64, 0), (0, 63)]);
        assert_eq!(ps(&r.seq(&r)), vec![(0, 64), (63, 0), (64, 63)]);
        let r = rel(130, &[(0, 129), (129, 64), (64, 65), (65, 127)]);
        assert_eq!(ps(&r.seq(&r)), vec![(0, 64), (64, 127), (129, 65)]);
        assert!(Rel::empty(0).seq(&Rel::empty(0)).is_empty());
        assert_eq!(ps(&Rel::identity(1).seq(&Rel::identity(1))), vec![(0, 0)]);
    }

    #[test]
    fn seq_into_overwrites_output() {
        let r = chain4();
        let mut out = Rel::full(4);
        r.seq_into(&r, &mut out);
        assert_eq!(ps(&out), vec![(0, 2), (1, 3)]);
        let mut wrong_size = Rel::full(2);
        r.seq_into(&r, &mut wrong_size);
        assert_eq!(wrong_size, r.seq(&r));
        let big = rel(130, &[(0, 129), (129, 64)]);
        let mut out = Rel::full(130);
        big.seq_into(&big, &mut out);
        assert_eq!(ps(&out), vec![(0, 64)]);
    }

    #[test]
    fn inv_converse() {
        assert_eq!(ps(&chain4().inv()), vec![(1, 0), (2, 1), (3, 2)]);
        assert_eq!(chain4().inv().inv(), chain4());
        assert_eq!(Rel::identity(3).inv(), Rel::identity(3));
        let r = rel(65, &[(63, 64), (64, 0), (0, 63)]);
        assert_eq!(ps(&r.inv()), vec![(0, 64), (63, 0), (64, 63)]);
        let r = rel(130, &[(0, 129), (129, 64), (64, 65), (1, 127)]);
        assert_eq!(ps(&r.inv()), vec![(64, 129), (65, 64), (127, 1), (129, 0)]);
        assert_padding_clear(&r.inv());
        assert!(Rel::empty(0).inv().is_empty());
    }

    #[test]
    fn plus_transitive_closure() {
        let p = chain4().plus();
        assert_eq!(ps(&p), vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        // cycle: closure contains the diagonal on the cycle
        let c = rel(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(c.plus(), Rel::full(3));
        // self loop only
        assert_eq!(ps(&rel(3, &[(1, 1)]).plus()), vec![(1, 1)]);
        // Warshall order matters: edges added "backwards"
        let r = rel(4, &[(2, 3), (1, 2), (0, 1)]);
        assert_eq!(r.plus(), p);
        let r = rel(4, &[(3, 2), (2, 1), (1, 0)]);
        assert_eq!(r.plus(), p.inv());
        // across the block boundary
        let r = rel(65, &[(63, 64), (64, 0), (0, 63)]);
        assert_eq!(ps(&r.plus()), all_pairs(&[0, 63, 64]));
        let r = rel(130, &[(0, 129), (129, 64), (64, 65), (65, 127)]);
        let p = r.plus();
        assert_eq!(
            ps(&p),
            vec![
                (0, 64),
                (0, 65),
                (0, 127),
                (0, 129),
                (64, 65),
                (64, 127),
                (65, 127),
                (129, 64),
                (129, 65),
                (129, 127)
            ]
        );
        assert!(Rel::empty(0).plus().is_empty());
        assert!(Rel::empty(1).plus().is_empty());
    }

    #[test]
    fn is_full_only_for_every_pair() {
        for n in [0, 1, 63, 64, 65, 130] {
            assert!(Rel::full(n).is_full(), "{n}");
            if n > 0 {
                let mut r = Rel::full(n);
                r.remove(n - 1, n / 2);
                assert!(!r.is_full(), "{n}");
                assert!(!Rel::identity(n).is_full() || n == 1);
            }
        }
    }

    #[test]
    fn close_adding_matches_plus_of_the_union() {
        // Pseudo-random relations over sizes around the word boundary.
        let mut seed = 12345u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for n in [1, 3, 7, 63, 64, 65, 130] {
            for _ in 0..20 {
                let mut base = Rel::empty(n);
                let mut extra = Rel::empty(n);
                for _ in 0..n {
                    base.insert(next() % n, next() % n);
                }
                for _ in 0..(next() % 6) {
                    extra.insert(next() % n, next() % n);
                }
                let mut closed = base.plus();
                closed.close_adding(&extra);
                assert_eq!(closed, base.union(&extra).plus());
                assert_padding_clear(&closed);
            }
        }
    }

    #[test]
    fn close_in_place_matches_plus() {
        let mut r = chain4();
        r.close_in_place();
        assert_eq!(ps(&r), vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        let mut r = rel(130, &[(129, 0), (0, 64), (64, 129)]);
        r.close_in_place();
        assert_eq!(ps(&r), all_pairs(&[0, 64, 129]));
        assert_padding_clear(&r);
        let mut z = Rel::empty(0);
        z.close_in_place();
        assert!(z.is_empty());
    }

    #[test]
    fn star_reflexive_transitive() {
        let s = chain4().star();
        assert_eq!(
            ps(&s),
            vec![
                (0, 0),
                (0, 1),
                (0, 2),
                (0, 3),
                (1, 1),
                (1, 2),
                (1, 3),
                (2, 2),
                (2, 3),
                (3, 3)
            ]
        );
        assert_eq!(Rel::empty(3).star(), Rel::identity(3));
        assert_eq!(ps(&Rel::empty(1).star()), vec![(0, 0)]);
        assert!(Rel::empty(0).star().is_empty());
        let r = rel(65, &[(63, 64)]);
        let s = r.star();
        assert_eq!(s.count(), 66);
        assert!(s.contains(63, 64) && s.contains(64, 64) && s.contains(0, 0));
    }

    #[test]
    fn opt_reflexive_closure() {
        let o = chain4().opt();
        assert_eq!(
            ps(&o),
            vec![(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3)]
        );
        assert_eq!(Rel::empty(2).opt(), Rel::identity(2));
        assert_eq!(Rel::identity(2).opt(), Rel::identity(2));
        let o = rel(130, &[(0, 129)]).opt();
        assert_eq!(o.count(), 131);
        assert_padding_clear(&o);
        let mut r = chain4();
        r.opt_in_place();
        assert_eq!(r, chain4().opt());
    }

    #[test]
    fn rai_symmetric_closure() {
        assert_eq!(
            ps(&chain4().rai()),
            vec![(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]
        );
        assert_eq!(
            ps(&rel(3, &[(1, 1), (0, 2)]).rai()),
            vec![(0, 2), (1, 1), (2, 0)]
        );
        assert_eq!(ps(&rel(130, &[(0, 129)]).rai()), vec![(0, 129), (129, 0)]);
    }

    #[test]
    fn twoplus_two_or_more_hops() {
        assert_eq!(ps(&chain4().twoplus()), vec![(0, 2), (0, 3), (1, 3)]);
        assert!(rel(3, &[(0, 1)]).twoplus().is_empty());
        // 0->1->0 and 0->1->0->1: on a 2-cycle every pair is reachable in >= 2 hops
        assert_eq!(rel(2, &[(0, 1), (1, 0)]).twoplus(), Rel::full(2));
        assert_eq!(
            ps(&rel(3, &[(0, 1), (1, 2), (2, 2)]).twoplus()),
            vec![(0, 2), (1, 2), (2, 2)]
        );
        let r = rel(130, &[(0, 129), (129, 64), (64, 65), (65, 127)]);
        assert_eq!(
            ps(&r.twoplus()),
            vec![(0, 64), (0, 65), (0, 127), (64, 127), (129, 65), (129, 127)]
        );
    }

    #[test]
    fn imm_immediate_links() {
        let p = chain4().plus();
        assert_eq!(p.imm(), chain4());
        // a shortcut edge is not immediate
        let r = rel(3, &[(0, 1), (1, 2), (0, 2)]);
        assert_eq!(ps(&r.imm()), vec![(0, 1), (1, 2)]);
        // on a cycle nothing is immediate (every edge is also a longer path)
        assert!(rel(2, &[(0, 1), (1, 0)]).imm().is_empty());
        let r = rel(130, &[(0, 129), (129, 64), (64, 65), (65, 127)]);
        assert_eq!(r.plus().imm(), r);
        assert!(Rel::empty(0).imm().is_empty());
    }

    #[test]
    fn restrict_both_sides() {
        let r = chain4();
        assert_eq!(
            ps(&r.restrict(&set(4, &[0, 2]), &set(4, &[1, 3]))),
            vec![(0, 1), (2, 3)]
        );
        assert_eq!(
            ps(&r.restrict(&set(4, &[1, 2]), &set(4, &[2]))),
            vec![(1, 2)]
        );
        assert!(r.restrict(&set(4, &[3]), &EventSet::full(4)).is_empty());
        assert_eq!(r.restrict(&EventSet::full(4), &EventSet::full(4)), r);
        let r = rel(130, &[(0, 129), (64, 63), (64, 65), (129, 64)]);
        assert_eq!(
            ps(&r.restrict(&set(130, &[64, 129]), &set(130, &[64, 65]))),
            vec![(64, 65), (129, 64)]
        );
    }

    #[test]
    fn restrict_domain_and_range() {
        let r = chain4();
        assert_eq!(ps(&r.restrict_domain(&set(4, &[1]))), vec![(1, 2)]);
        assert_eq!(ps(&r.restrict_range(&set(4, &[3]))), vec![(2, 3)]);
        assert_eq!(ps(&r.restrict_domain(&set(4, &[0, 3]))), vec![(0, 1)]);
        assert_eq!(
            ps(&r.restrict_range(&set(4, &[0, 1, 2]))),
            vec![(0, 1), (1, 2)]
        );
        let r = rel(130, &[(0, 129), (64, 63), (129, 64)]);
        assert_eq!(
            ps(&r.restrict_domain(&set(130, &[64, 129]))),
            vec![(64, 63), (129, 64)]
        );
        assert_eq!(
            ps(&r.restrict_range(&set(130, &[63, 129]))),
            vec![(0, 129), (64, 63)]
        );
    }

    #[test]
    fn minus_identity_removes_diagonal() {
        let t = rel(4, &[(0, 1), (2, 3), (3, 3), (0, 0)]);
        assert_eq!(ps(&t.minus_identity()), vec![(0, 1), (2, 3)]);
        assert!(Rel::identity(5).minus_identity().is_empty());
        assert_eq!(Rel::full(3).minus_identity().count(), 6);
        assert_eq!(
            ps(&rel(130, &[(64, 64), (64, 65), (129, 129)]).minus_identity()),
            vec![(64, 65)]
        );
    }

    #[test]
    fn acyclicity() {
        assert!(chain4().is_acyclic());
        assert!(chain4().plus().is_acyclic());
        assert!(!rel(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]).is_acyclic());
        assert!(!rel(4, &[(3, 3)]).is_acyclic());
        assert!(!rel(2, &[(0, 1), (1, 0)]).is_acyclic());
        assert!(Rel::empty(4).is_acyclic());
        assert!(Rel::empty(0).is_acyclic());
        assert!(Rel::empty(1).is_acyclic());
        assert!(!Rel::identity(1).is_acyclic());
        // diamond is acyclic
        assert!(rel(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]).is_acyclic());
        // a cycle not reachable from a source
        assert!(!rel(5, &[(0, 1), (2, 3), (3, 4), (4, 2)]).is_acyclic());
        // across the block boundary
        assert!(!rel(65, &[(63, 64), (64, 0), (0, 63)]).is_acyclic());
        assert!(rel(65, &[(63, 64), (0, 63)]).is_acyclic());
        assert!(!rel(130, &[(0, 129), (129, 64), (64, 0)]).is_acyclic());
        assert!(rel(130, &[(0, 129), (129, 64), (64, 65)]).is_acyclic());
    }

    #[test]
    fn irreflexivity() {
        assert!(chain4().is_irreflexive());
        assert!(!rel(4, &[(0, 1), (3, 3)]).is_irreflexive());
        assert!(!Rel::identity(1).is_irreflexive());
        assert!(Rel::empty(0).is_irreflexive());
        assert!(!rel(130, &[(129, 129)]).is_irreflexive());
        assert!(!rel(130, &[(64, 64)]).is_irreflexive());
        assert!(rel(130, &[(64, 65), (65, 64)]).is_irreflexive());
        // cyclic but irreflexive
        assert!(rel(2, &[(0, 1), (1, 0)]).is_irreflexive());
    }

    #[test]
    fn transitivity() {
        assert!(chain4().plus().is_transitive());
        assert!(!chain4().is_transitive());
        assert!(Rel::empty(3).is_transitive());
        assert!(Rel::identity(3).is_transitive());
        assert!(Rel::full(3).is_transitive());
        assert!(!rel(2, &[(0, 1), (1, 0)]).is_transitive());
        assert!(rel(2, &[(0, 1), (1, 0), (0, 0), (1, 1)]).is_transitive());
        assert!(!rel(130, &[(0, 129), (129, 64)]).is_transitive());
        assert!(rel(130, &[(0, 129), (129, 64), (0, 64)]).is_transitive());
        assert!(Rel::empty(0).is_transitive());
    }

    #[test]
    fn in_place_union_inter_minus() {
        let t = rel(4, &[(0, 1), (2, 3), (3, 3)]);
        let mut r = chain4();
        r.union_with(&t);
        assert_eq!(ps(&r), vec![(0, 1), (1, 2), (2, 3), (3, 3)]);
        let mut r = chain4();
        r.inter_with(&t);
        assert_eq!(ps(&r), vec![(0, 1), (2, 3)]);
        let mut r = chain4();
        r.minus_with(&t);
        assert_eq!(ps(&r), vec![(1, 2)]);
        let mut r = rel(130, &[(0, 64), (129, 129)]);
        r.union_with(&rel(130, &[(64, 0)]));
        r.minus_with(&rel(130, &[(0, 64)]));
        assert_eq!(ps(&r), vec![(64, 0), (129, 129)]);
        r.inter_with(&rel(130, &[(129, 129)]));
        assert_eq!(ps(&r), vec![(129, 129)]);
    }

    #[test]
    fn clear_and_copy_from() {
        let mut r = chain4();
        r.clear();
        assert!(r.is_empty());
        assert_eq!(r.n(), 4);
        assert_eq!(r, Rel::empty(4));
        r.copy_from(&chain4());
        assert_eq!(r, chain4());
        // different sizes: becomes an exact copy
        let mut r = Rel::full(130);
        r.copy_from(&chain4());
        assert_eq!(r, chain4());
        assert_eq!(r.n(), 4);
        assert_eq!(hash_of(&r), hash_of(&chain4()));
        let mut r = Rel::empty(0);
        r.copy_from(&Rel::full(65));
        assert_eq!(r, Rel::full(65));
    }

    #[test]
    fn eq_hash_clone_debug() {
        let a = rel(4, &[(2, 3), (0, 1)]);
        let b = rel(4, &[(0, 1), (2, 3)]);
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert_ne!(a, chain4());
        assert_ne!(Rel::empty(3), Rel::empty(4));
        assert_eq!(a.clone(), a);
        assert_eq!(format!("{a:?}"), "{(0,1), (2,3)}");
        assert_eq!(format!("{:?}", Rel::empty(3)), "{}");
        assert_eq!(format!("{:?}", Rel::identity(1)), "{(0,0)}");
        let mut c = a.clone();
        c.insert(1, 1);
        c.remove(1, 1);
        assert_eq!(c, a);
        assert_eq!(hash_of(&c), hash_of(&a));
    }

    // ------------------------------------------------------------------
    // Property tests against a naive Vec<Vec<bool>> reference
    // ------------------------------------------------------------------

    type M = Vec<Vec<bool>>;

    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        fn below(&mut self, k: u64) -> usize {
            (self.next() % k) as usize
        }
    }

    /// Random matrix of size `n`; density chosen among a few levels so that
    /// sparse (often acyclic), medium and dense relations all occur.
    fn rand_m(rng: &mut XorShift, n: usize) -> M {
        let per_mille = [0u64, 5, 20, 60, 200, 500, 900][rng.below(7)];
        let dag = rng.below(3) == 0;
        let mut m = vec![vec![false; n]; n];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                if dag && j <= i {
                    continue;
                }
                *cell = (rng.next() % 1000) < per_mille;
            }
        }
        if dag && n > 0 {
            // relabel the DAG with a random permutation; sometimes add a back edge
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                let j = rng.below(i as u64 + 1);
                perm.swap(i, j);
            }
            let mut p = vec![vec![false; n]; n];
            for i in 0..n {
                for j in 0..n {
                    p[perm[i]][perm[j]] = m[i][j];
                }
            }
            m = p;
            if rng.below(2) == 0 {
                let (a, b) = (rng.below(n as u64), rng.below(n as u64));
                m[a][b] = true;
            }
        }
        m
    }

    fn rand_set(rng: &mut XorShift, n: usize) -> Vec<bool> {
        let per_mille = [0u64, 300, 700, 1000][rng.below(4)];
        (0..n).map(|_| (rng.next() % 1000) < per_mille).collect()
    }

    fn to_rel(m: &M) -> Rel {
        let n = m.len();
        let mut r = Rel::empty(n);
        for (i, row) in m.iter().enumerate() {
            for (j, &b) in row.iter().enumerate() {
                if b {
                    r.insert(i, j);
                }
            }
        }
        r
    }

    fn to_set(v: &[bool]) -> EventSet {
        EventSet::from_iter(v.len(), (0..v.len()).filter(|&i| v[i]))
    }

    /// Converts back through `contains` only, and checks the padding invariant.
    fn from_rel(r: &Rel) -> M {
        assert_padding_clear(r);
        let n = r.n();
        (0..n)
            .map(|i| (0..n).map(|j| r.contains(i, j)).collect())
            .collect()
    }

    fn zip_m(a: &M, b: &M, f: impl Fn(bool, bool) -> bool) -> M {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.iter().zip(y).map(|(&p, &q)| f(p, q)).collect())
            .collect()
    }

    fn n_union(a: &M, b: &M) -> M {
        zip_m(a, b, |p, q| p || q)
    }

    fn n_inter(a: &M, b: &M) -> M {
        zip_m(a, b, |p, q| p && q)
    }

    fn n_minus(a: &M, b: &M) -> M {
        zip_m(a, b, |p, q| p && !q)
    }

    fn n_seq(a: &M, b: &M) -> M {
        let n = a.len();
        let mut out = vec![vec![false; n]; n];
        for i in 0..n {
            for k in 0..n {
                if a[i][k] {
                    for j in 0..n {
                        if b[k][j] {
                            out[i][j] = true;
                        }
                    }
                }
            }
        }
        out
    }

    fn n_inv(a: &M) -> M {
        let n = a.len();
        (0..n).map(|i| (0..n).map(|j| a[j][i]).collect()).collect()
    }

    fn n_iden(n: usize) -> M {
        (0..n).map(|i| (0..n).map(|j| i == j).collect()).collect()
    }

    /// Transitive closure by a BFS from every node (independent of Warshall).
    fn n_plus(a: &M) -> M {
        let n = a.len();
        let mut out = vec![vec![false; n]; n];
        for s in 0..n {
            let mut stack: Vec<usize> = (0..n).filter(|&j| a[s][j]).collect();
            while let Some(v) = stack.pop() {
                if out[s][v] {
                    continue;
                }
                out[s][v] = true;
                stack.extend((0..n).filter(|&j| a[v][j] && !out[s][j]));
            }
        }
        out
    }

    fn n_star(a: &M) -> M {
        n_union(&n_plus(a), &n_iden(a.len()))
    }

    fn n_opt(a: &M) -> M {
        n_union(a, &n_iden(a.len()))
    }

    fn n_rai(a: &M) -> M {
        n_union(a, &n_inv(a))
    }

    fn n_twoplus(a: &M) -> M {
        n_seq(a, &n_plus(a))
    }

    fn n_imm(a: &M) -> M {
        n_minus(a, &n_twoplus(a))
    }

    fn n_restrict(a: &M, d: &[bool], c: &[bool]) -> M {
        let n = a.len();
        (0..n)
            .map(|i| (0..n).map(|j| a[i][j] && d[i] && c[j]).collect())
            .collect()
    }

    fn n_is_acyclic(a: &M) -> bool {
        let p = n_plus(a);
        (0..a.len()).all(|i| !p[i][i])
    }

    fn n_count(a: &M) -> usize {
        a.iter().flatten().filter(|&&b| b).count()
    }

    const CASES: usize = 300;

    /// Sizes around the one-word-row boundary (`n <= 64` takes the `stride == 1` paths)
    /// and the block boundaries of the general code.
    const BOUNDARY_SIZES: [usize; 11] = [1, 2, 5, 31, 32, 33, 63, 64, 65, 70, 130];

    /// Runs `check(rng, n, case)` on `CASES` random sizes in 1..=70, plus each of
    /// `BOUNDARY_SIZES` four times (random densities each time).
    fn for_sizes(seed: u64, mut check: impl FnMut(&mut XorShift, usize)) {
        let mut rng = XorShift(seed);
        for _ in 0..4 {
            for &n in &BOUNDARY_SIZES {
                check(&mut rng, n);
            }
        }
        for _ in 0..CASES {
            let n = 1 + rng.below(70);
            check(&mut rng, n);
        }
    }

    fn prop_binary(seed: u64, op: impl Fn(&Rel, &Rel) -> Rel, reference: impl Fn(&M, &M) -> M) {
        for_sizes(seed, |rng, n| {
            let a = rand_m(rng, n);
            let b = rand_m(rng, n);
            let got = from_rel(&op(&to_rel(&a), &to_rel(&b)));
            assert_eq!(got, reference(&a, &b), "n = {n}, a = {a:?}, b = {b:?}");
        });
    }

    fn prop_unary(seed: u64, op: impl Fn(&Rel) -> Rel, reference: impl Fn(&M) -> M) {
        for_sizes(seed, |rng, n| {
            let a = rand_m(rng, n);
            let r = to_rel(&a);
            let got = from_rel(&op(&r));
            assert_eq!(got, reference(&a), "n = {n}, a = {a:?}");
            assert_eq!(r, to_rel(&a), "operand modified");
        });
    }

    #[test]
    fn prop_union() {
        prop_binary(0x1234_5678_9abc_def1, Rel::union, n_union);
    }

    #[test]
    fn prop_union_with() {
        prop_binary(
            0x2545_f491_4f6c_dd1d,
            |a, b| {
                let mut r = a.clone();
                r.union_with(b);
                r
            },
            n_union,
        );
    }

    #[test]
    fn prop_inter() {
        prop_binary(0x9e37_79b9_7f4a_7c15, Rel::inter, n_inter);
    }

    #[test]
    fn prop_inter_with() {
        prop_binary(
            0xbf58_476d_1ce4_e5b9,
            |a, b| {
                let mut r = a.clone();
                r.inter_with(b);
                r
            },
            n_inter,
        );
    }

    #[test]
    fn prop_minus() {
        prop_binary(0x94d0_49bb_1331_11eb, Rel::minus, n_minus);
    }

    #[test]
    fn prop_minus_with() {
        prop_binary(
            0x0123_4567_89ab_cdef,
            |a, b| {
                let mut r = a.clone();
                r.minus_with(b);
                r
            },
            n_minus,
        );
    }

    #[test]
    fn prop_seq() {
        prop_binary(0xdead_beef_cafe_f00d, Rel::seq, n_seq);
    }

    #[test]
    fn prop_seq_into() {
        prop_binary(
            0x5151_5151_abab_abab,
            |a, b| {
                let mut out = Rel::full(a.n());
                a.seq_into(b, &mut out);
                out
            },
            n_seq,
        );
    }

    #[test]
    fn prop_inv() {
        prop_unary(0x1111_2222_3333_4444, Rel::inv, n_inv);
    }

    #[test]
    fn prop_plus() {
        prop_unary(0x5555_6666_7777_8888, Rel::plus, n_plus);
    }

    #[test]
    fn prop_close_in_place() {
        prop_unary(
            0x0f0f_0f0f_f0f0_f0f0,
            |a| {
                let mut r = a.clone();
                r.close_in_place();
                r
            },
            n_plus,
        );
    }

    #[test]
    fn prop_star() {
        prop_unary(0x9999_aaaa_bbbb_cccc, Rel::star, n_star);
    }

    #[test]
    fn prop_opt() {
        prop_unary(0xdddd_eeee_ffff_1111, Rel::opt, n_opt);
    }

    #[test]
    fn prop_opt_in_place() {
        prop_unary(
            0x7777_1111_3333_5555,
            |a| {
                let mut r = a.clone();
                r.opt_in_place();
                r
            },
            n_opt,
        );
    }

    #[test]
    fn prop_rai() {
        prop_unary(0x1357_9bdf_2468_ace0, Rel::rai, n_rai);
    }

    #[test]
    fn prop_imm() {
        prop_unary(0x0246_8ace_1357_9bdf, Rel::imm, n_imm);
    }

    #[test]
    fn prop_twoplus() {
        prop_unary(0xfedc_ba98_7654_3210, Rel::twoplus, n_twoplus);
    }

    #[test]
    fn prop_minus_identity() {
        prop_unary(0x3141_5926_5358_9793, Rel::minus_identity, |a| {
            n_minus(a, &n_iden(a.len()))
        });
    }

    #[test]
    fn prop_restrict() {
        for_sizes(0x2718_2818_2845_9045, |rng, n| {
            let a = rand_m(rng, n);
            let d = rand_set(rng, n);
            let c = rand_set(rng, n);
            let r = to_rel(&a);
            let (ds, cs) = (to_set(&d), to_set(&c));
            assert_eq!(
                from_rel(&r.restrict(&ds, &cs)),
                n_restrict(&a, &d, &c),
                "n = {n}"
            );
            let all = vec![true; n];
            assert_eq!(
                from_rel(&r.restrict_domain(&ds)),
                n_restrict(&a, &d, &all),
                "n = {n}"
            );
            assert_eq!(
                from_rel(&r.restrict_range(&cs)),
                n_restrict(&a, &all, &c),
                "n = {n}"
            );
            // restrict == [dom] . r . [cod]
            assert_eq!(
                r.restrict(&ds, &cs),
                Rel::stor(&ds).seq(&r).seq(&Rel::stor(&cs))
            );
        });
    }

    #[test]
    fn prop_is_acyclic() {
        let (mut acyclic, mut cyclic) = (0, 0);
        for_sizes(0x1618_0339_8874_9894, |rng, n| {
            let a = rand_m(rng, n);
            let expected = n_is_acyclic(&a);
            assert_eq!(to_rel(&a).is_acyclic(), expected, "n = {n}, a = {a:?}");
            if expected {
                acyclic += 1;
            } else {
                cyclic += 1;
            }
        });
        // the generator must exercise both outcomes substantially
        assert!(
            acyclic > 30 && cyclic > 30,
            "acyclic = {acyclic}, cyclic = {cyclic}"
        );
    }

    #[test]
    fn prop_is_irreflexive_and_transitive() {
        for_sizes(0x4142_4344_4546_4748, |rng, n| {
            let a = rand_m(rng, n);
            let r = to_rel(&a);
            assert_eq!(r.is_irreflexive(), (0..n).all(|i| !a[i][i]), "n = {n}");
            let transitive = n_seq(&a, &a) == n_inter(&n_seq(&a, &a), &a);
            assert_eq!(r.is_transitive(), transitive, "n = {n}, a = {a:?}");
            assert!(r.plus().is_transitive());
        });
    }

    #[test]
    fn prop_count_pairs_rows() {
        for_sizes(0x6a09_e667_f3bc_c908, |rng, n| {
            let a = rand_m(rng, n);
            let r = to_rel(&a);
            assert_eq!(r.count(), n_count(&a), "n = {n}");
            assert_eq!(r.is_empty(), n_count(&a) == 0);
            let mut expected = Vec::new();
            for (i, row) in a.iter().enumerate() {
                for (j, &b) in row.iter().enumerate() {
                    if b {
                        expected.push((i, j));
                    }
                }
            }
            assert_eq!(ps(&r), expected);
            assert_eq!(Rel::from_pairs(n, expected.iter().copied()), r);
            for (i, row) in a.iter().enumerate() {
                let want: Vec<usize> = (0..n).filter(|&j| row[j]).collect();
                assert_eq!(sv(&r.row(i)), want);
            }
            let dom: Vec<usize> = (0..n).filter(|&i| a[i].iter().any(|&b| b)).collect();
            let ran: Vec<usize> = (0..n).filter(|&j| (0..n).any(|i| a[i][j])).collect();
            assert_eq!(sv(&r.domain()), dom);
            assert_eq!(sv(&r.range()), ran);
        });
    }

    #[test]
    fn prop_is_subset_and_constructors() {
        for_sizes(0xbb67_ae85_84ca_a73b, |rng, n| {
            let a = rand_m(rng, n);
            let b = rand_m(rng, n);
            let (ra, rb) = (to_rel(&a), to_rel(&b));
            assert_eq!(
                ra.is_subset(&rb),
                n_minus(&a, &b) == vec![vec![false; n]; n]
            );
            assert!(ra.inter(&rb).is_subset(&ra));
            assert!(ra.is_subset(&ra.union(&rb)));
            let d = rand_set(rng, n);
            let c = rand_set(rng, n);
            let want: M = (0..n)
                .map(|i| (0..n).map(|j| d[i] && c[j]).collect())
                .collect();
            assert_eq!(from_rel(&Rel::cross(&to_set(&d), &to_set(&c))), want);
            let want: M = (0..n)
                .map(|i| (0..n).map(|j| i == j && d[i]).collect())
                .collect();
            assert_eq!(from_rel(&Rel::stor(&to_set(&d))), want);
            assert_eq!(from_rel(&Rel::full(n)), vec![vec![true; n]; n]);
            assert_eq!(from_rel(&Rel::identity(n)), n_iden(n));
            let mut copy = Rel::empty(n);
            copy.copy_from(&ra);
            assert_eq!(copy, ra);
        });
    }

    #[test]
    fn prop_restrict_domain_with() {
        for_sizes(0x5eed_7a0f_0000_0002, |rng, n| {
            let a = to_rel(&rand_m(rng, n));
            let keep = rand_set(rng, n);
            let s = EventSet::from_iter(n, (0..n).filter(|&i| keep[i]));
            let mut b = a.clone();
            b.restrict_domain_with(&s);
            assert_eq!(b, a.restrict_domain(&s), "n = {n}");
        });
    }

    #[test]
    fn prop_twoplus_meets() {
        for_sizes(0x5eed_7a0f_0000_0001, |rng, n| {
            let a = to_rel(&rand_m(rng, n));
            let pairs = to_rel(&rand_m(rng, n));
            let want = !a.twoplus().inter(&pairs).is_empty();
            assert_eq!(
                a.twoplus_meets(&pairs),
                want,
                "n = {n}, a = {a:?}, pairs = {pairs:?}"
            );
        });
    }

    // ------------------------------------------------------------------
    // One-word rows (`stride == 1`) against the reference and the general code
    // ------------------------------------------------------------------

    /// Fills this thread's buffer pool with relations on `n` events whose every word,
    /// padding included, is all ones, so a fast path that builds its result in a recycled
    /// buffer and leaves a word unwritten (or lets padding through) gives a wrong answer.
    fn poison_pool(n: usize) {
        let poisoned: Vec<Rel> = (0..8)
            .map(|_| {
                let mut r = Rel::empty(n);
                r.words_mut().fill(usize::MAX);
                r
            })
            .collect();
        drop(poisoned);
    }

    /// The same relation on `n + 64` events (the extra ones isolated): its operations run
    /// the general code (`stride >= 2`).
    fn widen(r: &Rel) -> Rel {
        Rel::from_pairs(r.n() + 64, r.pairs())
    }

    fn widen_set(s: &EventSet) -> EventSet {
        EventSet::from_iter(s.len_universe() + 64, s.iter())
    }

    /// A result of the general code on widened operands, back on `n` events; fails if it
    /// has a pair on an extra event (the extra events are isolated, so it must not).
    fn narrow(r: &Rel, n: usize) -> Rel {
        assert!(r.pairs().all(|(a, b)| a < n && b < n), "{r:?}");
        Rel::from_pairs(n, r.pairs())
    }

    fn narrow_set(s: &EventSet, n: usize) -> EventSet {
        assert!(s.iter().all(|e| e < n), "{s:?}");
        EventSet::from_iter(n, s.iter())
    }

    /// The buffer pool hands out only buffers of the size asked for, forgets its oldest
    /// size past `POOL_MAX_SIZES`, and keeps at most `POOL_CLASS_WORDS` words per size.
    #[test]
    fn pool_keeps_sizes_apart() {
        let mut pool = Pool {
            classes: Vec::new(),
            last: 0,
        };
        pool.keep(FixedBitSet::with_capacity(64 * 3));
        pool.keep(FixedBitSet::with_capacity(64 * 5));
        pool.keep(FixedBitSet::with_capacity(64 * 3));
        assert_eq!(pool.words(), 11);
        assert!(pool.take(64 * 4).is_none());
        assert_eq!(pool.take(64 * 5).map(|b| b.len()), Some(64 * 5));
        assert!(pool.take(64 * 5).is_none());
        assert_eq!(pool.take(64 * 3).map(|b| b.len()), Some(64 * 3));
        assert_eq!(pool.take(64 * 3).map(|b| b.len()), Some(64 * 3));
        assert_eq!(pool.words(), 0);
        pool.classes.clear();
        for size in 1..=POOL_MAX_SIZES + 1 {
            pool.keep(FixedBitSet::with_capacity(64 * size));
        }
        assert!(pool.take(64).is_none(), "the oldest size is forgotten");
        assert!(pool.take(128).is_some());
        let big = POOL_CLASS_WORDS / 3 + 1;
        for _ in 0..4 {
            pool.keep(FixedBitSet::with_capacity(64 * big));
        }
        let kept = std::iter::from_fn(|| pool.take(64 * big)).count();
        assert_eq!(kept, 2, "at most POOL_CLASS_WORDS words of one size");
    }

    /// Every operation with a one-word-row path gives, on random relations of every
    /// density (DAGs with and without back edges, so cyclic ones too) and sizes around
    /// the boundary, the same relation as the general code on the widened operands, and
    /// keeps the padding clear; the pool holds poisoned buffers before each operation.
    #[test]
    fn one_word_paths_match_the_general_code() {
        for_sizes(0x0e0e_0e0e_1234_4321, |rng, n| {
            let (a, b) = (to_rel(&rand_m(rng, n)), to_rel(&rand_m(rng, n)));
            let (d, c) = (to_set(&rand_set(rng, n)), to_set(&rand_set(rng, n)));
            let (wa, wb, wd, wc) = (widen(&a), widen(&b), widen_set(&d), widen_set(&c));
            let check = |what: &str, fast: Rel, general: Rel| {
                assert_padding_clear(&fast);
                assert_eq!(hash_of(&fast), hash_of(&narrow(&general, n)), "{what}");
                assert_eq!(
                    fast,
                    narrow(&general, n),
                    "{what}: n = {n}, a = {a:?}, b = {b:?}"
                );
            };
            poison_pool(n);
            check("seq", a.seq(&b), wa.seq(&wb));
            poison_pool(n);
            let mut out = Rel::full(n);
            a.seq_into(&b, &mut out);
            check("seq_into", out, wa.seq(&wb));
            let mut out = Rel::full(n + 1);
            a.seq_into(&b, &mut out);
            check("seq_into (resized)", out, wa.seq(&wb));
            poison_pool(n);
            check("inv", a.inv(), wa.inv());
            poison_pool(n);
            check("plus", a.plus(), wa.plus());
            poison_pool(n);
            // (star adds the identity on the extra events too: compared through plus)
            let mut star = narrow(&wa.plus(), n);
            star.opt_in_place();
            assert_eq!(a.star(), star, "star: n = {n}, a = {a:?}");
            poison_pool(n);
            check("imm", a.imm(), wa.imm());
            poison_pool(n);
            check("clone", a.clone(), wa.clone());
            poison_pool(n);
            check("restrict", a.restrict(&d, &c), wa.restrict(&wd, &wc));
            poison_pool(n);
            check(
                "restrict_domain",
                a.restrict_domain(&d),
                wa.restrict_domain(&wd),
            );
            poison_pool(n);
            check(
                "restrict_range",
                a.restrict_range(&c),
                wa.restrict_range(&wc),
            );
            let (mut fast, mut general) = (a.clone(), wa.clone());
            fast.restrict_range_with(&c);
            general.restrict_range_with(&wc);
            check("restrict_range_with", fast, general);
            let (mut fast, mut general) = (a.clone(), wa.clone());
            fast.restrict_domain_with(&d);
            general.restrict_domain_with(&wd);
            check("restrict_domain_with", fast, general);
            poison_pool(n);
            check("cross", Rel::cross(&d, &c), Rel::cross(&wd, &wc));
            poison_pool(n);
            check("stor", Rel::stor(&d), Rel::stor(&wd));
            let (mut fast, mut general) = (a.plus(), wa.plus());
            fast.close_adding(&b);
            general.close_adding(&wb);
            check("close_adding", fast, general);
            assert_eq!(a.domain(), narrow_set(&wa.domain(), n), "domain: {a:?}");
            assert_eq!(a.range(), narrow_set(&wa.range(), n), "range: {a:?}");
            assert_eq!(a.twoplus_meets(&b), wa.twoplus_meets(&wb), "{a:?} {b:?}");
        });
    }

    /// The in-place one-word paths against the plain reference: `close_adding` with few
    /// and with many new pairs, and `restrict_*_with`, `twoplus_meets`.
    #[test]
    fn prop_in_place_against_reference() {
        for_sizes(0x0e0e_0e0e_5678_8765, |rng, n| {
            let base = rand_m(rng, n);
            let mut extra = vec![vec![false; n]; n];
            for _ in 0..rng.below(6) {
                extra[rng.below(n as u64)][rng.below(n as u64)] = true;
            }
            for added in [extra, rand_m(rng, n)] {
                let mut closed = to_rel(&n_plus(&base));
                closed.close_adding(&to_rel(&added));
                assert_eq!(
                    from_rel(&closed),
                    n_plus(&n_union(&base, &added)),
                    "n = {n}, base = {base:?}, added = {added:?}"
                );
            }
            let (d, c) = (rand_set(rng, n), rand_set(rng, n));
            let all = vec![true; n];
            let mut r = to_rel(&base);
            r.restrict_range_with(&to_set(&c));
            assert_eq!(from_rel(&r), n_restrict(&base, &all, &c), "n = {n}");
            let mut r = to_rel(&base);
            r.restrict_domain_with(&to_set(&d));
            assert_eq!(from_rel(&r), n_restrict(&base, &d, &all), "n = {n}");
            let pairs = rand_m(rng, n);
            let want = n_count(&n_inter(&n_twoplus(&base), &pairs)) > 0;
            assert_eq!(
                to_rel(&base).twoplus_meets(&to_rel(&pairs)),
                want,
                "n = {n}"
            );
        });
    }
}

// in-place operations (catspeed)
impl Rel {
    /// Acyclicity without allocating: for relations on at most 64 events (one word per
    /// row), events with no successor left are peeled off until none is left (acyclic)
    /// or every remaining event has a successor among them (a cycle: following
    /// successors inside a finite set must revisit an event); larger relations use
    /// [`Rel::is_acyclic`]. Same answer as `is_acyclic`, for the model's checks at every
    /// search node.
    pub fn is_acyclic_peeling(&self) -> bool {
        if self.stride != 1 {
            return self.is_acyclic();
        }
        let w = self.words();
        let mut alive = last_word_mask(self.n);
        if self.n == 0 {
            return true;
        }
        loop {
            let mut sinks = 0usize;
            let mut rest = alive;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if w[i] & alive == 0 {
                    sinks |= 1usize << i;
                }
            }
            if sinks == 0 {
                return alive == 0;
            }
            alive &= !sinks;
        }
    }
}

#[cfg(test)]
mod catspeed_tests {
    use super::*;

    /// `is_acyclic_peeling` against `is_acyclic` on every relation on 3 events, and on
    /// random ones on up to 70 events (past one word per row).
    #[test]
    fn peeling_agrees_with_kahn() {
        for bits in 0u32..(1 << 9) {
            let r = Rel::from_pairs(
                3,
                (0..9)
                    .filter(|k| bits & (1 << k) != 0)
                    .map(|k| (k / 3, k % 3)),
            );
            assert_eq!(r.is_acyclic_peeling(), r.is_acyclic(), "{r:?}");
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [0usize, 1, 2, 5, 17, 63, 64, 65, 70] {
            for density in [1u64, 3, 10, 40] {
                for _ in 0..20 {
                    // Mostly forward pairs (acyclic), a few backward ones and loops.
                    let mut pairs = Vec::new();
                    for _ in 0..n * density as usize / 4 {
                        let (a, b) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
                        let back = next() % 16 == 0;
                        if a != b || next() % 4 == 0 {
                            pairs.push(if back { (a, b) } else { (a.min(b), a.max(b)) });
                        }
                    }
                    let r = Rel::from_pairs(n, pairs);
                    assert_eq!(r.is_acyclic_peeling(), r.is_acyclic(), "n {n}: {r:?}");
                }
            }
        }
    }
}
