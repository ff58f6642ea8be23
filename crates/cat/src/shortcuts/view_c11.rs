//! The coherence core of a model run in Dat3M's event view whose coherence is C11's
//! (`Form::ViewC11`; Dat3M's opencl.cat), derived from its checks. Notation as in
//! [`super::view`]: `r(e)`, `wh(e)` an RMW's halves, `writer(w)`, `IW`, `co` the view's
//! base (on a complete candidate a strict total order on each location's writes, `IW`
//! first: the enumerated order orders every two writes of a location).
//!
//! # What is looked for
//!
//! (i)   Checks `irreflexive (rf^-1)? ; A ; co ; B ; rf? ; H` (opencl.cat's
//!       `coh(ghb)` and `coh(lhb)`, `A = B = dynamic_tag(~NAL)`; `A`, `B` static, or
//!       absent), each giving a triple `(A, B, H)`;
//! (ii)  for each, `irreflexive K` with `rf ; H` within `K` (opencl.cat's `O-Rf`);
//! (iii) `empty K2` with `amo & (((rf^-1 ; co) & ext) ; (co & ext))` within `K2`
//!       (opencl.cat's `atomic`, with Dat3M's stdlib.cat's `fr`).
//!
//! # The claim
//!
//! A location L is covered on a path combination when, for one triple, every view
//! event `v` of L (its initial write, every access and write half) has `v A v` and
//! `v B v`, and the lower bound of `H` (its value in every candidate of the combination,
//! [`super::lower_bound_on`] on the view) holds every pair of view events of two
//! accesses `a po b` of L and `r(e) amo wh(e)` for each RMW e of L: so `co` on L is
//! within `A ; co ; B` and `po` on L within `H` (written `hb` below). On a covered L, the
//! search's `rf | asmo | fr_asmo | fr_init | po_loc` on L's accesses is acyclic in every
//! consistent complete candidate (and, each term only growing, a partial candidate with
//! a cycle there has no consistent completion).
//!
//! # Proof
//!
//! Rank L's program accesses: a write (an RMW too) by the place of its writer in `co`;
//! a plain read by the place of the view write it reads (`IW` for the initial value)
//! plus 1/2. By (i), no consistent candidate has `x mo y (rf or id) z hb x`-like
//! cycles: `co ; hb`, `rf^-1 ; co ; hb`, `co ; rf ; hb`, `rf^-1 ; co ; rf ; hb` on L are
//! irreflexive; by (ii), `rf ; hb` is.
//! - Each `rf | asmo | fr_asmo | fr_init` edge raises the rank.
//!   `w rf r`, r plain: by 1/2. r an RMW e: `wh(e) co writer(w)` would give
//!   `wh(e) co writer(w) rf r(e) hb wh(e)` (amo within hb); so `writer(w) co wh(e)`.
//!   `w1 asmo w2`: `writer(w1) co writer(w2)`. `r fr_asmo w` (r reads s, `s asmo w`) and
//!   `r fr_init w` (s is `IW`, co-first): `s co writer(w)`; r plain: its rank is s's
//!   plus 1/2, below w's; r an RMW e: if `writer(w) co wh(e)`, then either w and e are in
//!   other threads, `r(e) ((rf^-1 ; co) & ext) writer(w) (co & ext) wh(e)` with
//!   `r(e) amo wh(e)`, breaking (iii); or `w po e`, `r(e) rf^-1 s co writer(w) hb r(e)`;
//!   or `e po w`, `wh(e) hb writer(w) co wh(e)`: each inconsistent. So `wh(e) co
//!   writer(w)` (they differ, as `w ≠ e`).
//! - A `po_loc` edge `a -> b` never lowers the rank (every case where b's rank is below
//!   a's closes one of the cycles above with `a hb b`, lifted to every half): two
//!   writes, `writer(b) co writer(a) hb writer(b)`; a write, b a plain read of s:
//!   `b rf^-1 s co writer(a) hb b`; a plain read of s, b a write: `writer(b) = s`
//!   gives `s rf a hb s`, else `writer(b) co s rf a hb writer(b)`; two plain reads of
//!   s1 (a), s2 (b): `b rf^-1 s2 co s1 rf a hb b`; an RMW a and a plain read b of s:
//!   `b rf^-1 s co wh(a) hb b`; a plain read a of s and an RMW b: `wh(b) = s` gives
//!   `s rf a hb s`, else `wh(b) co s rf a hb wh(b)`; an RMW or write a and an RMW b
//!   (or the reverse): as two writes.
//! - So along a cycle the rank never falls and rises at each edge that is not
//!   `po_loc`: a cycle has `po_loc` edges only, and po is acyclic.
//!
//! `fr_ww` is not claimed (the search does without it).

use super::{lower_bound_on, CoreProof, Form, PoLoc, Prover};
use crate::ast::CheckKind;
use crate::base::{BaseName, Kind, Stage, Value};
use crate::ir::{Graph, Op, N};
use crate::view::{events::View, lookup};
use crate::Check;
use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

/// One `irreflexive (rf^-1)? ; A ; co ; B ; rf? ; H` check: `(A, B, H)`.
pub type Triple = (Option<N>, Option<N>, N);

/// The check's triple, if it has the shape (read off its factors).
fn triple(g: &Graph, p: &Prover, k: N, co: BaseName) -> Option<Triple> {
    let f = p.factors(k);
    let is = |n: N, want: &dyn Fn(&Op) -> bool| want(&g.node(n).op);
    let rf_inv_opt = |o: &Op| match o {
        Op::Opt(x) => {
            matches!(&g.node(*x).op, Op::Inv(y) if g.node(*y).op == Op::Base(BaseName::Rf))
        }
        _ => false,
    };
    let rf_opt = |o: &Op| matches!(o, Op::Opt(x) if g.node(*x).op == Op::Base(BaseName::Rf));
    let is_co = |o: &Op| *o == Op::Base(co);
    let guard = |n: N| g.stage(n) == Stage::Static && g.kind(n) == Kind::Rel;
    let (a, b, rest) = match f.as_slice() {
        [r0, a, c, b, rest @ ..] if is(*c, &is_co) && guard(*a) && guard(*b) => {
            (Some(*a), Some(*b), (*r0, rest))
        }
        [r0, c, rest @ ..] if is(*c, &is_co) => (None, None, (*r0, rest)),
        _ => return None,
    };
    let (r0, rest) = rest;
    match rest {
        [r1, h] if is(r0, &rf_inv_opt) && is(*r1, &rf_opt) && g.kind(*h) == Kind::Rel => {
            Some((a, b, *h))
        }
        _ => None,
    }
}

/// The triples of a model's checks for which (ii) and (iii) hold too (the module
/// comment); empty if none.
pub(super) fn derive(graph: &Graph, checks: &[Check]) -> Vec<Triple> {
    let axioms: Vec<&Check> = checks.iter().filter(|c| !c.flag && !c.negated).collect();
    let of = |k: CheckKind| axioms.iter().filter(move |c| c.kind == k).map(|c| c.node);
    let co = lookup("co").expect("a view base");
    let (amo, ext) = (
        lookup("amo").expect("a view base"),
        lookup("ext").expect("a view base"),
    );
    let mut g = graph.clone();
    // Patterns, built in the copy (hash-consing makes the model's own nodes).
    let (rf, co_n) = (g.base(BaseName::Rf), g.base(co));
    let (amo_n, ext_n) = (g.base(amo), g.base(ext));
    let rf_inv = g.unary(Op::Inv, rf);
    let fr = g.seq(vec![rf_inv, co_n]);
    let fre = g.inter(Kind::Rel, vec![fr, ext_n]);
    let coe = g.inter(Kind::Rel, vec![co_n, ext_n]);
    let s = g.seq(vec![fre, coe]);
    let atomicity = g.inter(Kind::Rel, vec![amo_n, s]);
    let irr: Vec<N> = of(CheckKind::Irreflexive).collect();
    let found: Vec<Triple> = {
        let p = Prover::new(&g);
        irr.iter().filter_map(|&k| triple(&g, &p, k, co)).collect()
    };
    let rf_h: Vec<N> = found.iter().map(|&(_, _, h)| g.seq(vec![rf, h])).collect();
    let mut p = Prover::new(&g);
    if !of(CheckKind::Empty).any(|e| p.within(atomicity, e)) {
        return Vec::new();
    }
    found
        .into_iter()
        .zip(rf_h)
        .filter(|(_, x)| irr.iter().any(|&k| p.within(*x, k)))
        .map(|(t, _)| t)
        .collect()
}

/// The proof the search is given: the triples are kept beside it
/// ([`super::Analysis::view_c11`]).
pub(super) fn proof() -> CoreProof {
    CoreProof {
        form: Form::ViewC11,
        po_loc: PoLoc::Always,
        fr_ww: false,
        guard: None,
    }
}

/// The program's accesses of the locations covered on the path combination `s` (the
/// module comment).
pub(super) fn covered(graph: &Graph, triples: &[Triple], s: &Statics) -> EventSet {
    let n = s.n();
    let view = View::new(s);
    let value = |x: N| lower_bound_on(graph, x, view.len(), &|b| view.static_value(b, s));
    let rel = |x: Option<N>| match x.map(value) {
        Some(Value::Rel(r)) => Some(Some(r)),
        None => Some(None),
        Some(Value::Set(_)) => None,
    };
    let acc = s.set(StaticSet::R).union(s.set(StaticSet::W));
    let po = s.rel(StaticRel::Po);
    let sloc = s.rel(StaticRel::Sloc);
    let events = s.events();
    let mut out = EventSet::new(n);
    let values: Vec<(Option<Rel>, Option<Rel>, Rel)> = triples
        .iter()
        .filter_map(|&(a, b, h)| match (rel(a)?, rel(b)?, rel(Some(h))?) {
            (a, b, Some(h)) => Some((a, b, h)),
            _ => None,
        })
        .collect();
    for e in acc.iter() {
        if out.contains(e) {
            continue;
        }
        let Some(l) = events[e].location else {
            continue;
        };
        let members: Vec<usize> = sloc.row(e).iter().filter(|&x| acc.contains(x)).collect();
        let mut view_events: Vec<usize> = members.iter().flat_map(|&x| view.views(x)).collect();
        view_events.extend(view.init(l));
        let holds = |(a, b, h): &(Option<Rel>, Option<Rel>, Rel)| {
            let refl = |r: &Option<Rel>| {
                r.as_ref()
                    .is_none_or(|r| view_events.iter().all(|&v| r.contains(v, v)))
            };
            let ordered = members.iter().all(|&x| {
                // x's halves, and x's view events before those of each later access.
                let halves: Vec<usize> = view.views(x).collect();
                let amo_in = halves.windows(2).all(|w| h.contains(w[0], w[1]));
                amo_in
                    && members.iter().filter(|&&y| po.contains(x, y)).all(|&y| {
                        view.views(x)
                            .all(|vx| view.views(y).all(|vy| h.contains(vx, vy)))
                    })
            });
            refl(a) && refl(b) && ordered
        };
        if values.iter().any(holds) {
            for &x in &members {
                out.insert(x);
            }
        }
    }
    out
}
