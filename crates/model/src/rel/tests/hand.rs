//! Hand-computed unit tests.

use super::*;

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
