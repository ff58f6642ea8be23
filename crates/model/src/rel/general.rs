//! The general representation: relations on any number of events, row `a` being the
//! `stride = ceil(n / usize::BITS)` words `[a * stride, (a + 1) * stride)`, the pair
//! `(a, b)` bit `b` of that row. The same operations as [`super::small`], for relations
//! of more than 64 events (`stride >= 2`); they are correct for any stride.

use super::words::{for_each_bit, WORD};

/// Row `a` of the words `w` with rows of `st` words.
#[inline]
fn row(w: &[usize], a: usize, st: usize) -> &[usize] {
    &w[a * st..(a + 1) * st]
}

#[inline]
fn row_mut(w: &mut [usize], a: usize, st: usize) -> &mut [usize] {
    &mut w[a * st..(a + 1) * st]
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

/// `dom[r]` into the zeroed set words `out`.
pub(super) fn domain(out: &mut [usize], w: &[usize], n: usize, st: usize) {
    for a in 0..n {
        if row(w, a, st).iter().any(|&x| x != 0) {
            out[a / WORD] |= 1usize << (a % WORD);
        }
    }
}

/// `ran[r]` into the zeroed set words `out`.
pub(super) fn range(out: &mut [usize], w: &[usize], n: usize, st: usize) {
    for a in 0..n {
        for (x, y) in out.iter_mut().zip(row(w, a, st)) {
            *x |= *y;
        }
    }
}

/// `a -> b` into zeroed rows `out`.
pub(super) fn cross(out: &mut [usize], a: &[usize], b: &[usize], st: usize) {
    for_each_bit(a, |i| row_mut(out, i, st).copy_from_slice(b));
}

/// `[s]` into zeroed rows `out`.
pub(super) fn stor(out: &mut [usize], s: &[usize], st: usize) {
    for_each_bit(s, |i| out[i * st + i / WORD] |= 1usize << (i % WORD));
}

/// `out |= a ; b` (`out` zeroed by the caller).
pub(super) fn seq_into(out: &mut [usize], a: &[usize], b: &[usize], n: usize, st: usize) {
    for i in 0..n {
        let orow = &mut out[i * st..(i + 1) * st];
        for_each_bit(&a[i * st..(i + 1) * st], |k| {
            for (x, y) in orow.iter_mut().zip(&b[k * st..(k + 1) * st]) {
                *x |= *y;
            }
        });
    }
}

/// `~a` into zeroed rows `out`.
pub(super) fn inv(out: &mut [usize], a: &[usize], n: usize, st: usize) {
    for i in 0..n {
        let bit = 1usize << (i % WORD);
        let wi = i / WORD;
        for_each_bit(row(a, i, st), |j| out[j * st + wi] |= bit);
    }
}

/// `r := [dom] ; r ; [cod]`.
pub(super) fn restrict_in_place(
    w: &mut [usize],
    dom: &[usize],
    cod: &[usize],
    n: usize,
    st: usize,
) {
    for a in 0..n {
        let r = row_mut(w, a, st);
        if dom[a / WORD] & (1usize << (a % WORD)) != 0 {
            for (x, y) in r.iter_mut().zip(cod) {
                *x &= *y;
            }
        } else {
            r.fill(0);
        }
    }
}

/// `r := [dom] ; r`.
pub(super) fn restrict_domain_in_place(w: &mut [usize], dom: &[usize], n: usize, st: usize) {
    for a in 0..n {
        if dom[a / WORD] & (1usize << (a % WORD)) == 0 {
            row_mut(w, a, st).fill(0);
        }
    }
}

/// `r := r ; [cod]`.
pub(super) fn restrict_range_in_place(w: &mut [usize], cod: &[usize], n: usize, st: usize) {
    for a in 0..n {
        for (x, y) in row_mut(w, a, st).iter_mut().zip(cod) {
            *x &= *y;
        }
    }
}

/// `r := ^r`, word-parallel Warshall: for each `k`, every row `i` with `(i, k)` gets
/// `row_i |= row_k`.
pub(super) fn close_in_place(w: &mut [usize], n: usize, st: usize) {
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

/// `r := (r + edges)+` for a transitively closed `r`: per pair `(a, b)` not yet in it,
/// every row that reaches `a` (and `a` itself) gains `b` and what `b` reaches.
pub(super) fn close_adding(w: &mut [usize], edges: &[usize], n: usize, st: usize) {
    let mut add = vec![0usize; st];
    for a in 0..n {
        for_each_bit(row(edges, a, st), |b| {
            if w[a * st + b / WORD] & (1usize << (b % WORD)) != 0 {
                return;
            }
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

/// Whether `pairs & r.^r` is non-empty: for each row `a` of `pairs`, the events
/// reachable from `a` in two or more steps, by a word-parallel search from `a`'s
/// successors.
pub(super) fn twoplus_meets(w: &[usize], pairs: &[usize], n: usize, st: usize) -> bool {
    let mut reach = vec![0usize; st];
    let mut frontier = vec![0usize; st];
    for a in 0..n {
        let want = row(pairs, a, st);
        if want.iter().all(|&x| x == 0) {
            continue;
        }
        // reach = successors of a's successors, then closed under successors.
        reach.fill(0);
        for_each_bit(row(w, a, st), |k| {
            for (x, y) in reach.iter_mut().zip(row(w, k, st)) {
                *x |= *y;
            }
        });
        frontier.copy_from_slice(&reach);
        while frontier.iter().any(|&x| x != 0) {
            let mut next = vec![0usize; st];
            for_each_bit(&frontier, |k| {
                for (x, y) in next.iter_mut().zip(row(w, k, st)) {
                    *x |= *y;
                }
            });
            for (f, (n, r)) in frontier.iter_mut().zip(next.iter().zip(reach.iter_mut())) {
                *f = *n & !*r;
                *r |= *n;
            }
        }
        if reach.iter().zip(want).any(|(r, x)| r & x != 0) {
            return true;
        }
    }
    false
}

/// Acyclicity by Kahn's topological sort: O(n) extra memory, no matrix allocation.
pub(super) fn is_acyclic(w: &[usize], n: usize, st: usize) -> bool {
    let mut indeg = vec![0u32; n];
    for a in 0..n {
        for_each_bit(row(w, a, st), |b| indeg[b] += 1);
    }
    let mut stack: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    let mut done = 0;
    while let Some(a) = stack.pop() {
        done += 1;
        for_each_bit(row(w, a, st), |b| {
            indeg[b] -= 1;
            if indeg[b] == 0 {
                stack.push(b);
            }
        });
    }
    done == n
}
