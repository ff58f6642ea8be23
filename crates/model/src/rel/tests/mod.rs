//! Tests of the relation algebra: hand-computed cases, properties against a plain
//! `Vec<Vec<bool>>` reference, and the one-word-row kernels against the general ones.

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

mod hand;
mod one_word;
mod pool;
mod properties;
mod reference;
