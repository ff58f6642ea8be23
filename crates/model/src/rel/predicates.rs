//! Properties of one relation, or of two: inclusion, fullness, acyclicity,
//! irreflexivity, transitivity.

use super::words::{for_each_bit, last_word_mask, WORD};
use super::{general, small, Rel};

impl Rel {
    /// Inclusion test (Alloy `r in s`).
    pub fn is_subset(&self, other: &Rel) -> bool {
        debug_assert_eq!(self.n, other.n);
        self.words()
            .iter()
            .zip(other.words())
            .all(|(x, y)| x & !y == 0)
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

    /// Acyclicity (Alloy `acyclic[r, E]`, i.e. `no iden & ^r`).
    ///
    /// Kahn's topological sort: O(n) extra memory, no matrix allocation.
    pub fn is_acyclic(&self) -> bool {
        general::is_acyclic(self.words(), self.n, self.stride)
    }

    /// Acyclicity without allocating for relations on at most 64 events (the
    /// [`small`] kernel peels off events with no successor left); larger relations use
    /// [`Rel::is_acyclic`]. Same answer as `is_acyclic`, for the model's checks at every
    /// search node.
    pub fn is_acyclic_peeling(&self) -> bool {
        if !self.is_small() {
            return self.is_acyclic();
        }
        small::is_acyclic(self.words(), last_word_mask(self.n))
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
}
