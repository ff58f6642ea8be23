//! Transitive closures and what is built on them.

use super::{general, small, Rel};

impl Rel {
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

    /// In-place transitive closure (Alloy `r = ^r`).
    pub fn close_in_place(&mut self) {
        if self.is_small() {
            small::close_in_place(self.words_mut());
            return;
        }
        let (n, st) = (self.n, self.stride);
        general::close_in_place(self.words_mut(), n, st);
    }

    /// Adds the pairs of `edges` to this transitively closed relation and keeps it closed:
    /// the result is `(self + edges)+`. Per pair `(a, b)` not yet in it, every row that
    /// reaches `a` (and `a` itself) gains `b` and what `b` reaches, which is the closure
    /// with one more edge; O(n) row unions per new pair instead of Warshall's O(n²) tests,
    /// so it wins when `edges` has few pairs.
    pub fn close_adding(&mut self, edges: &Rel) {
        debug_assert_eq!(self.n, edges.n);
        if self.is_small() {
            small::close_adding(self.words_mut(), edges.words());
            return;
        }
        let (n, st) = (self.n, self.stride);
        general::close_adding(self.words_mut(), edges.words(), n, st);
    }

    /// Whether `pairs & twoplus[self]` is non-empty (Alloy `some pairs & r.^r`), without
    /// building the closure: for each row `a` of `pairs`, the events reachable from `a`
    /// in two or more steps are found by a word-parallel search from `a`'s successors.
    /// Cheaper than `twoplus` when `pairs` has few rows.
    pub fn twoplus_meets(&self, pairs: &Rel) -> bool {
        debug_assert_eq!(self.n, pairs.n);
        if self.is_small() {
            return small::twoplus_meets(self.words(), pairs.words());
        }
        general::twoplus_meets(self.words(), pairs.words(), self.n, self.stride)
    }
}
