//! The one-word-row kernels (`small`) against the general ones and against the plain
//! reference.

use super::reference::*;
use super::*;

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
