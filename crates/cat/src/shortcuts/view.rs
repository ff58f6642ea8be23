//! The coherence core of a model run in Dat3M's event view ([`crate::view`]), derived
//! from its checks (`Form::View`).
//!
//! The search's terms (`rf | asmo | fr_asmo | fr_init | po_loc`, the module comment of
//! [`super`]) are on the program's events; the model's checks speak of the view's: one
//! initial write `IW` per location, each RMW `e` split into a read half `r(e)` (the
//! event's own index) and a write half `wh(e)` joined by `amo`, `co` the view's base
//! (`IW` first, then the enumerated order, which orders every two writes of a location:
//! [`crate::Model::ordered_writes`]). Write `writer(w)` for the view event that writes
//! what program write `w` writes (`wh(w)` for an RMW, else `w`).
//!
//! # What is looked for
//!
//! A static relation `G` (a guard: the static operand of an intersection in `K`'s cone,
//! as vulkan.cat's `mutordatom` in `co & mutordatom`) and checks with
//! (i)   `acyclic K` with, within `K`: `rf`; `co & G`; `rf^-1 ; (co & G)`;
//!       `([IW] ; rf)^-1 ; ((loc ; [W]) \ id)` (Dat3M's fr from the initial write);
//!       `po & loc & vloc`;
//! (ii)  `empty K2` with `amo & ((FR & ext) ; (co & G & ext))` within `K2`, where `FR` is
//!       the union of the two fr terms of (i) (vulkan.cat's `rmw & (fre ; (asmo & ext))`);
//! (iii) `G` within `vloc`.
//! The prover also knows these facts of the view's bases ([`base_within`]): `amo` is
//! within `po`, `loc`, `vloc` and `int` (the halves are one instruction, adjacent in `po`),
//! and `po` within `int`.
//!
//! # The claim
//!
//! On every location L whose every two distinct program writes `w1`, `w2` have
//! `writer(w1) G writer(w2)` (decided per path combination, on the view: [`covered`]),
//! the search's union restricted to L's accesses is acyclic in every consistent
//! complete candidate. As in [`super`], each term only grows along a branch, so the
//! search may cut a partial candidate with a cycle there.
//!
//! # Proof
//!
//! Map each edge of the union on L to a view edge within `K`:
//! - `w rf r`: `writer(w) rf r` (the view's rf, [`crate::view::events::View::rf`]).
//! - `w1 asmo w2`: `writer(w1) co writer(w2)`, in `G` as L is covered: `co & G`.
//! - `r fr_asmo w` (r reads s, `s asmo w`, `w ≠ r`): `writer(s) rf r` and
//!   `writer(s) (co & G) writer(w)`, so `r (rf^-1 ; (co & G)) writer(w)`.
//! - `r fr_init w` (r reads the initial value, w a write of L, `w ≠ r`): `IW rf r`, and
//!   `IW loc writer(w)`, a write other than r: the fr-from-IW term.
//! - `a po_loc b`: `po`, `sloc` and `sref` are lifted to both halves of an RMW, so every
//!   view event of a is `po & loc & vloc`-before every view event of b.
//!
//! A cycle of the union then maps to a closed walk of `K` edges, except where an edge
//! enters an RMW `e` at one half and the next leaves it from the other (`po_loc` edges
//! may use either half, so take the one the other edge needs):
//! - enters `r(e)` (rf), leaves `wh(e)`: `r(e) amo wh(e)`, within `po & loc & vloc`, so
//!   within `K`.
//! - enters `wh(e)`, leaves `r(e)`: the edge leaving is `e fr_asmo y` or `e fr_init y`,
//!   `y ≠ e` a write of L; it maps to `r(e) FR writer(y)` as above, and `writer(y)` is
//!   co-after e's source (s, or `IW`, first in co). Replace it by a `K` edge from `wh(e)`
//!   to `writer(y)`, or show the candidate inconsistent. co orders `wh(e)` and
//!   `writer(y)` (distinct writes of L, in a complete candidate):
//!   - `wh(e) co writer(y)`: in `G` (L covered), a `co & G` edge.
//!   - `writer(y) co wh(e)`, y and e in other threads: `r(e) (FR & ext) writer(y)` and
//!     `writer(y) (co & G & ext) wh(e)`, with `r(e) amo wh(e)`: breaks (ii).
//!   - y and e in one thread (po orders a thread's events): if `e po y`,
//!     `wh(e) (po & loc & vloc) writer(y)` is a `K` edge (same vloc: `wh(e) G writer(y)`
//!     and (iii)); if `y po e`, `writer(y) (po & loc & vloc) r(e) FR writer(y)` is a cycle
//!     of `K`: inconsistent.
//!
//! So a consistent candidate with a cycle of the union on L would have a closed walk of
//! `K` edges, a cycle of `K`, which (i)'s check forbids. The cycle needs no other fact:
//! `fr_ww` is not shown and stays out of the core; `po_loc` is always in it.
//!
//! An RMW is then placed after its source in asmo on L, as [`super`] argues from
//! `rf | asmo` being acyclic. A location with a pair of writes outside `G` (non-atomic
//! writes, or atomics out of each other's scope, for vulkan.cat) is left out: there
//! `co` is not within `K`, and two RMWs may both read the initial value.

use super::{guards, lower_bound_on, CoreProof, Form, PoLoc, Prover};
use crate::ast::CheckKind;
use crate::base::{BaseName, Kind, Value};
use crate::ir::{Graph, N};
use crate::view::{events::View, lookup};
use crate::Check;
use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

/// The view base named `name` (one of the view's own names: always there).
fn base(name: &str) -> BaseName {
    lookup(name).expect("a base name of the view")
}

/// Facts of the view's bases, true on every view: both halves of an RMW are in one
/// thread, at one location, through one reference, the read half `po`-before the write
/// half (`View::static_value`: `po` is the lifted `po` and `amo`; `loc`, `vloc`, `int`
/// lift `sloc`, `sref`, `sthd`, each reflexive on accesses); `po` relates events of one
/// thread.
pub(super) fn base_within(x: BaseName, y: BaseName) -> bool {
    let (amo, int) = (base("amo"), base("int"));
    (x == amo && [BaseName::Po, base("loc"), base("vloc"), int].contains(&y))
        || (x == BaseName::Po && y == int)
}

/// The patterns of the module comment for guard `guard`.
struct Terms {
    /// `rf`, `co & G`, the two fr terms, `po & loc & vloc`: within `K`.
    in_k: [N; 5],
    po_loc: N,
    amo: N,
    /// `amo & ((FR & ext) ; (co & G & ext))`: within an `empty` check.
    atomicity: N,
    vloc: N,
}

impl Terms {
    fn new(g: &mut Graph, guard: N) -> Terms {
        let b = |g: &mut Graph, x| g.base(x);
        let (rf, w, id, po) = (
            b(g, BaseName::Rf),
            b(g, BaseName::W),
            b(g, BaseName::Id),
            b(g, BaseName::Po),
        );
        let (co, iw, loc, vloc, ext, amo) = (
            b(g, base("co")),
            b(g, base("IW")),
            b(g, base("loc")),
            b(g, base("vloc")),
            b(g, base("ext")),
            b(g, base("amo")),
        );
        let co_g = g.inter(Kind::Rel, vec![co, guard]);
        let rf_inv = g.unary(crate::ir::Op::Inv, rf);
        let fr_co = g.seq(vec![rf_inv, co_g]);
        // `([IW] ; rf)^-1 ; ((loc ; [W]) \ id)`, built as the compiler builds it.
        let stor_iw = g.stor(iw);
        let iw_rf = g.seq(vec![stor_iw, rf]);
        let iw_rf_inv = g.unary(crate::ir::Op::Inv, iw_rf);
        let stor_w = g.stor(w);
        let loc_w = g.seq(vec![loc, stor_w]);
        let loc_w = g.diff(loc_w, id);
        let fr_init = g.seq(vec![iw_rf_inv, loc_w]);
        let po_loc = g.inter(Kind::Rel, vec![po, loc, vloc]);
        let fr = g.union(Kind::Rel, vec![fr_co, fr_init]);
        let fre = g.inter(Kind::Rel, vec![fr, ext]);
        let coe = g.inter(Kind::Rel, vec![co, guard, ext]);
        let s = g.seq(vec![fre, coe]);
        let atomicity = g.inter(Kind::Rel, vec![amo, s]);
        Terms {
            in_k: [rf, co_g, fr_co, fr_init, po_loc],
            po_loc,
            amo,
            atomicity,
            vloc,
        }
    }
}

/// The view's coherence core of a model's checks, if they have one (the module comment).
pub(super) fn derive(graph: &Graph, checks: &[Check]) -> Option<CoreProof> {
    let axioms: Vec<&Check> = checks.iter().filter(|c| !c.flag && !c.negated).collect();
    let of = |k: CheckKind| axioms.iter().filter(move |c| c.kind == k).map(|c| c.node);
    let mut g = graph.clone();
    let mut found: Vec<(N, N, Terms)> = Vec::new();
    for k in of(CheckKind::Acyclic) {
        for guard in guards(graph, k) {
            found.push((k, guard, Terms::new(&mut g, guard)));
        }
    }
    let mut p = Prover::new(&g);
    let empties: Vec<N> = of(CheckKind::Empty).collect();
    for (k, guard, t) in &found {
        let holds = t.in_k.iter().all(|&x| p.within(x, *k))
            && p.within(t.amo, t.po_loc)
            && p.within(*guard, t.vloc)
            && empties.iter().any(|&e| p.within(t.atomicity, e));
        if holds {
            return Some(CoreProof {
                form: Form::View,
                po_loc: PoLoc::Always,
                fr_ww: false,
                guard: Some(*guard),
            });
        }
    }
    None
}

/// The program's accesses of the locations the view's core covers on the path
/// combination `s`: those whose every two distinct writes `w1`, `w2` have
/// `writer(w1) G writer(w2)`, with `G` the static `guard`'s value on the view (exact:
/// it reads no rf or co).
pub(super) fn covered(graph: &Graph, guard: N, s: &Statics) -> EventSet {
    let view = View::new(s);
    let Value::Rel(gv) = lower_bound_on(graph, guard, view.len(), &|b| view.static_value(b, s))
    else {
        return EventSet::new(s.n());
    };
    let w = s.set(StaticSet::W);
    let sloc = s.rel(StaticRel::Sloc);
    let pairs = sloc.restrict(w, w).minus(s.rel(StaticRel::Id));
    let unordered = Rel::from_pairs(
        s.n(),
        pairs
            .pairs()
            .filter(|&(a, b)| !gv.contains(view.writer(a), view.writer(b))),
    );
    // The accesses of a location with a pair of writes outside G.
    let partial = sloc.restrict_domain(&unordered.domain()).range();
    s.set(StaticSet::R).union(w).minus(&partial)
}
