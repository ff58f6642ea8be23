//! Every operation against the plain reference on random relations.

use super::reference::*;
use super::*;

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
