//! The operations of the relation algebra that are not closures: union, intersection,
//! difference, composition, converse and restrictions, as new relations and in place.

use super::words::{last_word_mask, WORD};
use super::{general, small, Rel};
use crate::set::EventSet;

/// New relations.
impl Rel {
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
        let mut out = if self.is_small() {
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
        if self.is_small() {
            if out.n != self.n {
                *out = Rel::dirty(self.n);
            }
            small::seq_into(out.words_mut(), self.words(), other.words());
            return;
        }
        if out.n != self.n {
            *out = Rel::empty(self.n);
        } else {
            out.clear();
        }
        general::seq_into(
            out.words_mut(),
            self.words(),
            other.words(),
            self.n,
            self.stride,
        );
    }

    /// Converse (Alloy `~r`).
    pub fn inv(&self) -> Rel {
        let mut out = Rel::empty(self.n);
        if self.is_small() {
            small::inv(out.words_mut(), self.words());
        } else {
            general::inv(out.words_mut(), self.words(), self.n, self.stride);
        }
        out
    }

    /// Relation and its inverse (Alloy `rai[r]` = `r + ~r`).
    pub fn rai(&self) -> Rel {
        let mut r = self.inv();
        r.union_with(self);
        r
    }

    /// Domain/range restriction (Alloy `[dom].r.[cod]` = `dom <: r :> cod`).
    pub fn restrict(&self, dom: &EventSet, cod: &EventSet) -> Rel {
        debug_assert_eq!(self.n, dom.len_universe());
        debug_assert_eq!(self.n, cod.len_universe());
        if self.is_small() {
            let mut r = Rel::empty(self.n);
            small::restrict(
                r.words_mut(),
                self.words(),
                dom.as_blocks(),
                cod.as_blocks()[0],
            );
            return r;
        }
        let mut r = self.clone();
        let (n, st) = (self.n, self.stride);
        general::restrict_in_place(r.words_mut(), dom.as_blocks(), cod.as_blocks(), n, st);
        r
    }

    /// Domain restriction (Alloy `s <: r` = `[s].r`).
    pub fn restrict_domain(&self, s: &EventSet) -> Rel {
        debug_assert_eq!(self.n, s.len_universe());
        if self.is_small() {
            let mut r = Rel::empty(self.n);
            small::restrict_domain(r.words_mut(), self.words(), s.as_blocks());
            return r;
        }
        let mut r = self.clone();
        r.restrict_domain_with(s);
        r
    }

    /// Range restriction (Alloy `r :> s` = `r.[s]`).
    pub fn restrict_range(&self, s: &EventSet) -> Rel {
        debug_assert_eq!(self.n, s.len_universe());
        if self.is_small() {
            // Every row is written.
            let mut r = Rel::dirty(self.n);
            small::restrict_range(r.words_mut(), self.words(), s.as_blocks()[0]);
            return r;
        }
        let mut r = self.clone();
        r.restrict_range_with(s);
        r
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

    /// Reflexive closure (Alloy `rc[r]` = `r + (E <: iden)`, herd `r?`).
    pub fn opt(&self) -> Rel {
        let mut r = self.clone();
        r.add_identity();
        r
    }
}

/// In place.
impl Rel {
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

    /// Range restriction in place (`r := r.[s]`).
    pub fn restrict_range_with(&mut self, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        if self.is_small() {
            small::restrict_range_in_place(self.words_mut(), s.as_blocks()[0]);
            return;
        }
        let (n, st) = (self.n, self.stride);
        general::restrict_range_in_place(self.words_mut(), s.as_blocks(), n, st);
    }

    /// Domain restriction in place (`r := s <: r`).
    pub fn restrict_domain_with(&mut self, s: &EventSet) {
        debug_assert_eq!(self.n, s.len_universe());
        if self.is_small() {
            let outside = !s.as_blocks()[0] & last_word_mask(self.n);
            small::clear_rows(self.words_mut(), outside);
            return;
        }
        let (n, st) = (self.n, self.stride);
        general::restrict_domain_in_place(self.words_mut(), s.as_blocks(), n, st);
    }
}
