//! The small representation: relations on at most 64 events, one word per row
//! (`stride == 1`), so row `i` is word `i` and a set of events is one word too.
//!
//! Every benchmark family is this small. The kernels work on the slice of row words
//! directly, branch-free where that lets the loops vectorise. A kernel that writes every
//! row may be given a recycled buffer with arbitrary contents (`Rel::dirty`); the others
//! are given zeroed ones. [`super::general`] has the same operations for larger
//! relations; the tests compare the two (`tests/one_word.rs`).

use super::words::{bit_mask, for_each_bit};

/// `dom[r]`: bit `i` set when row `i` is not empty.
#[inline]
pub(super) fn domain(w: &[usize]) -> usize {
    let mut d = 0usize;
    for (i, &row) in w.iter().enumerate() {
        d |= usize::from(row != 0) << i;
    }
    d
}

/// `ran[r]`: the union of the rows.
#[inline]
pub(super) fn range(w: &[usize]) -> usize {
    w.iter().fold(0, |acc, &row| acc | row)
}

/// `a -> b` into zeroed rows `out`: row `i` is `b` for each `i` in `a`.
#[inline]
pub(super) fn cross(out: &mut [usize], a: &[usize], b: usize) {
    for_each_bit(a, |i| out[i] = b);
}

/// `[s]` into zeroed rows `out`.
#[inline]
pub(super) fn stor(out: &mut [usize], s: &[usize]) {
    for_each_bit(s, |i| out[i] = 1usize << i);
}

/// `out = a ; b`, writing every row of `out`.
///
/// Row i of the result is the union of the rows k of `b` with (i, k) in `a`; relations
/// are sparse, so walking the set bits beats a branch-free pass over every column.
#[inline]
pub(super) fn seq_into(out: &mut [usize], a: &[usize], b: &[usize]) {
    for (o, &row) in out.iter_mut().zip(a) {
        let mut acc = 0;
        let mut x = row;
        while x != 0 {
            acc |= b[x.trailing_zeros() as usize];
            x &= x - 1;
        }
        *o = acc;
    }
}

/// `~a` into zeroed rows `out`.
#[inline]
pub(super) fn inv(out: &mut [usize], a: &[usize]) {
    for (i, &row) in a.iter().enumerate() {
        let mut x = row;
        while x != 0 {
            out[x.trailing_zeros() as usize] |= 1usize << i;
            x &= x - 1;
        }
    }
}

/// `[dom] ; a ; [cod]` into zeroed rows `out`: only the rows of `dom` are written (a
/// per-row mask costs a variable shift per row, which does not vectorise without AVX2).
#[inline]
pub(super) fn restrict(out: &mut [usize], a: &[usize], dom: &[usize], cod: usize) {
    for_each_bit(dom, |i| out[i] = a[i] & cod);
}

/// `[dom] ; a` into zeroed rows `out`.
#[inline]
pub(super) fn restrict_domain(out: &mut [usize], a: &[usize], dom: &[usize]) {
    for_each_bit(dom, |i| out[i] = a[i]);
}

/// `a ; [cod]`, writing every row of `out`.
#[inline]
pub(super) fn restrict_range(out: &mut [usize], a: &[usize], cod: usize) {
    for (o, &row) in out.iter_mut().zip(a) {
        *o = row & cod;
    }
}

/// `r := r ; [cod]`.
#[inline]
pub(super) fn restrict_range_in_place(w: &mut [usize], cod: usize) {
    for row in w {
        *row &= cod;
    }
}

/// Empties the rows of the events in `outside` (`r := [EV \ outside] ; r`).
#[inline]
pub(super) fn clear_rows(w: &mut [usize], outside: usize) {
    for_each_bit(&[outside], |i| w[i] = 0);
}

/// `r := ^r`: Warshall with each row's update made branch-free (`row_i |= row_k` masked
/// by bit `k` of `row_i`), so the inner loop vectorises. Only pivots `k` that are both a
/// source and a target can add pairs (no row has bit `k` otherwise, or row `k` is
/// empty), and closing never changes the sets of sources and targets (`dom[^r] =
/// dom[r]`, `ran[^r] = ran[r]`), so those are computed once.
pub(super) fn close_in_place(w: &mut [usize]) {
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

/// `r := (r + edges)+` for a transitively closed `r`: per new pair `(a, b)`, `a` and
/// every row reaching `a` gain `b` and `b`'s row, the rows selected branch-free.
pub(super) fn close_adding(w: &mut [usize], edges: &[usize]) {
    for (a, &new) in edges.iter().enumerate() {
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

/// Whether `pairs & r.^r` is non-empty, with the reachable sets in words.
pub(super) fn twoplus_meets(w: &[usize], pairs: &[usize]) -> bool {
    let successors = |set: usize| {
        let (mut acc, mut x) = (0usize, set);
        while x != 0 {
            acc |= w[x.trailing_zeros() as usize];
            x &= x - 1;
        }
        acc
    };
    for (a, &want) in pairs.iter().enumerate() {
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

/// Acyclicity without allocating: events with no successor left among the `alive` ones
/// (initially every event) are peeled off until none is left (acyclic) or every
/// remaining event has a successor among them (a cycle: following successors inside a
/// finite set must revisit an event).
pub(super) fn is_acyclic(w: &[usize], mut alive: usize) -> bool {
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
