//! A plain reference: relations as `Vec<Vec<bool>>`, each operation by its definition.

use super::*;

pub(super) type M = Vec<Vec<bool>>;

pub(super) struct XorShift(u64);

impl XorShift {
    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub(super) fn below(&mut self, k: u64) -> usize {
        (self.next() % k) as usize
    }
}

/// Random matrix of size `n`; density chosen among a few levels so that
/// sparse (often acyclic), medium and dense relations all occur.
pub(super) fn rand_m(rng: &mut XorShift, n: usize) -> M {
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

pub(super) fn rand_set(rng: &mut XorShift, n: usize) -> Vec<bool> {
    let per_mille = [0u64, 300, 700, 1000][rng.below(4)];
    (0..n).map(|_| (rng.next() % 1000) < per_mille).collect()
}

pub(super) fn to_rel(m: &M) -> Rel {
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

pub(super) fn to_set(v: &[bool]) -> EventSet {
    EventSet::from_iter(v.len(), (0..v.len()).filter(|&i| v[i]))
}

/// Converts back through `contains` only, and checks the padding invariant.
pub(super) fn from_rel(r: &Rel) -> M {
    assert_padding_clear(r);
    let n = r.n();
    (0..n)
        .map(|i| (0..n).map(|j| r.contains(i, j)).collect())
        .collect()
}

pub(super) fn zip_m(a: &M, b: &M, f: impl Fn(bool, bool) -> bool) -> M {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.iter().zip(y).map(|(&p, &q)| f(p, q)).collect())
        .collect()
}

pub(super) fn n_union(a: &M, b: &M) -> M {
    zip_m(a, b, |p, q| p || q)
}

pub(super) fn n_inter(a: &M, b: &M) -> M {
    zip_m(a, b, |p, q| p && q)
}

pub(super) fn n_minus(a: &M, b: &M) -> M {
    zip_m(a, b, |p, q| p && !q)
}

pub(super) fn n_seq(a: &M, b: &M) -> M {
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

pub(super) fn n_inv(a: &M) -> M {
    let n = a.len();
    (0..n).map(|i| (0..n).map(|j| a[j][i]).collect()).collect()
}

pub(super) fn n_iden(n: usize) -> M {
    (0..n).map(|i| (0..n).map(|j| i == j).collect()).collect()
}

/// Transitive closure by a BFS from every node (independent of Warshall).
pub(super) fn n_plus(a: &M) -> M {
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

pub(super) fn n_star(a: &M) -> M {
    n_union(&n_plus(a), &n_iden(a.len()))
}

pub(super) fn n_opt(a: &M) -> M {
    n_union(a, &n_iden(a.len()))
}

pub(super) fn n_rai(a: &M) -> M {
    n_union(a, &n_inv(a))
}

pub(super) fn n_twoplus(a: &M) -> M {
    n_seq(a, &n_plus(a))
}

pub(super) fn n_imm(a: &M) -> M {
    n_minus(a, &n_twoplus(a))
}

pub(super) fn n_restrict(a: &M, d: &[bool], c: &[bool]) -> M {
    let n = a.len();
    (0..n)
        .map(|i| (0..n).map(|j| a[i][j] && d[i] && c[j]).collect())
        .collect()
}

pub(super) fn n_is_acyclic(a: &M) -> bool {
    let p = n_plus(a);
    (0..a.len()).all(|i| !p[i][i])
}

pub(super) fn n_count(a: &M) -> usize {
    a.iter().flatten().filter(|&&b| b).count()
}

pub(super) const CASES: usize = 300;

/// Sizes around the one-word-row boundary (`n <= 64` takes the `stride == 1` paths)
/// and the block boundaries of the general code.
pub(super) const BOUNDARY_SIZES: [usize; 11] = [1, 2, 5, 31, 32, 33, 63, 64, 65, 70, 130];

/// Runs `check(rng, n, case)` on `CASES` random sizes in 1..=70, plus each of
/// `BOUNDARY_SIZES` four times (random densities each time).
pub(super) fn for_sizes(seed: u64, mut check: impl FnMut(&mut XorShift, usize)) {
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

pub(super) fn prop_binary(
    seed: u64,
    op: impl Fn(&Rel, &Rel) -> Rel,
    reference: impl Fn(&M, &M) -> M,
) {
    for_sizes(seed, |rng, n| {
        let a = rand_m(rng, n);
        let b = rand_m(rng, n);
        let got = from_rel(&op(&to_rel(&a), &to_rel(&b)));
        assert_eq!(got, reference(&a, &b), "n = {n}, a = {a:?}, b = {b:?}");
    });
}

pub(super) fn prop_unary(seed: u64, op: impl Fn(&Rel) -> Rel, reference: impl Fn(&M) -> M) {
    for_sizes(seed, |rng, n| {
        let a = rand_m(rng, n);
        let r = to_rel(&a);
        let got = from_rel(&op(&r));
        assert_eq!(got, reference(&a), "n = {n}, a = {a:?}");
        assert_eq!(r, to_rel(&a), "operand modified");
    });
}
