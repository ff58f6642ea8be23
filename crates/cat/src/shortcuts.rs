//! Which of the search's shortcuts a model allows, derived from its checks (never from its
//! name): the search may cut with a cheap coherence filter, place an RMW right after the
//! write it reads in asmo, and read a location's final value off a total asmo, only when
//! every consistent candidate of the model has the property the shortcut relies on.
//!
//! # What the search needs (crates/enumerate/src/search.rs, coherence.rs, columns.rs)
//!
//! - **The coherence core.** Write `po_loc = po & sloc & sref`,
//!   `fr_asmo = (rf^-1 ; asmo) \ id`, `fr_init = ([RFINIT] ; sloc ; [W]) \ id` and
//!   `fr_ww = (rf^-1 ; (po_loc & (W * W))) \ id`. The search filters partial candidates by
//!   the acyclicity of `rf | asmo | fr_asmo | fr_init`, plus `po_loc` and `fr_ww` where
//!   the model allows them ([`Core`]). This is sound when every consistent candidate has
//!   that union acyclic: each term only grows along a branch, so a cycle on a partial
//!   candidate is a cycle of every completion, none of which is then consistent.
//! - **An RMW after its source.** Given the core, `rf | asmo` is acyclic in every
//!   consistent candidate, so an RMW `e` reading `w`, with `{w, e}` a pair asmo orders,
//!   has `w asmo e` (else `w rf e asmo w`).
//! - **Final values by asmo** ([`Analysis::co_by_asmo`]): the outcome's final value of a
//!   location is written by a write with no `co` successor. When asmo orders the
//!   location's writes totally, the asmo-last write is that write if `co` contains asmo
//!   and is acyclic in every consistent candidate (every other write is co-before it;
//!   a co-successor of it would close a cycle).
//!
//! # How the model is read
//!
//! The core holds in one of two ways, each recognised from the (non-flag, non-negated)
//! checks by a containment prover over the IR ([`Prover::within`]: sound, not complete;
//! it answers "not shown" when unsure, and the search then does without the shortcut):
//!
//! 1. **An acyclicity check containing the core** (`Form::Acyclic`; vulkan.cat's
//!    `acyclic locord | rf | fr | asmo`, herd's `acyclic po-loc | rf | co | fr`): a check
//!    `acyclic K` with `rf`, `asmo`, `fr_asmo`, `fr_init` within `K`. Then every union of
//!    terms within `K` is acyclic when `K` is. `po_loc` and `fr_ww` join the core when
//!    they too are shown within `K`.
//! 2. **C11's coherence** (`Form::C11`; opencl.cat, RC11-style user models): the checks
//!    contain
//!    (i) `irreflexive H ; E` with `(rf | asmo | fr_asmo | fr_init)+` within `E`,
//!    (ii) `irreflexive K` with `rf ; asmo` within `K`,
//!    (iii) `empty K` with `[W] ; asmo ; [R & W & RFINIT]` within `K`, and
//!    (iv) `empty K` with `(rf ; [R & W]) & (asmo ; asmo)` within `K`.
//!    Then, on every location L whose writes asmo orders totally (each two distinct
//!    writes of L are a pair of `asmo_pairs`; decided per path combination,
//!    [`Analysis::coherence`]), the union `rf | asmo | fr_asmo | fr_init` restricted to
//!    `sloc` on L's accesses is acyclic, and so is its union with `po_loc` and `fr_ww`
//!    there when `po_loc` is within `H` on L. An OpenCL test's asmo orders every
//!    location's writes totally; a Vulkan test's only its mutually ordered atomic writes
//!    (a location with two non-atomic writes, or atomics out of each other's scope, is
//!    left out), a PTX test's its morally strong pairs. Leaving a location out is
//!    needed: where two RMWs to it are not asmo-ordered, both may read the initial value
//!    (`e1 fr_init e2 fr_init e1`) in a consistent candidate of such a model. The search
//!    looks for cycles within the covered locations only ([`Core::events`]), and places
//!    an RMW after its source only there.
//!    Proof, for one such L: every edge considered relates two accesses of L. Rank L's
//!    accesses: a write
//!    (RMWs included) by its place in asmo (a total order there), a read that is not a
//!    write by its source's place plus 1/2, or -1/2 if it reads the initial value.
//!    - Every `rf | asmo | fr_asmo | fr_init` edge raises the rank: `w rf r` into a plain
//!      read by 1/2; into an RMW `r`, `r asmo w` would break (ii), so `w asmo r`; asmo
//!      raises it; `r fr_asmo w`: w is after r's source s in asmo; for a plain read that
//!      is above r's rank, for an RMW `s asmo w asmo r` would break (iv), so `r asmo w`
//!      (w ≠ r); `r fr_init w`: a plain read of the initial value has the lowest rank,
//!      and an RMW reading it is first in asmo by (iii).
//!    - A `po_loc` edge `a -> b` never lowers the rank: in each case where b's rank is
//!      below a's, `b (rf | asmo | fr_asmo | fr_init)+ a` (b asmo a for two writes; for a
//!      read b below a write a, b fr_asmo or fr_init a; for a read a, b reaches a's
//!      source by asmo or fr and then a by rf, or b is that source), which with
//!      `a H b` breaks (i).
//!    - So the ranks along a cycle never fall and rise at each eco edge: a cycle has only
//!      `po_loc` edges, and po is acyclic.
//!    - `fr_ww`: for writes `w1 po_loc w2`, `w2 asmo w1` would break (i) (`w1 H w2 E w1`),
//!      so `w1 asmo w2`, and `fr_ww` is within `fr_asmo` in every consistent candidate.
//!
//! `po_loc` within `H` (or `K`) is shown by the prover when it can; otherwise it is
//! decided per path combination, concretely, against a lower bound of `H` (`K`): the value
//! `H` has in every candidate of the combination ([`lower_bound`]; opencl.cat's `hbloc`
//! holds `sb & sloc` on each memory region, which only the lowering's sets say covers
//! every access).

use crate::ast::CheckKind;
use crate::base::{static_value, BaseName, Kind, Stage, Value};
use crate::ir::{Graph, Op, N};
use crate::kernel;
use crate::Check;
use foldhash::{HashMap, HashMapExt};
use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

mod view;
mod view_c11;

/// How `po_loc` is known to be within the relation a core proof needs it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoLoc {
    /// In every execution.
    Always,
    /// Where `po & sloc & sref` is within the lower bound of this node (decided per path
    /// combination).
    WithinLower(N),
    /// Not shown.
    No,
}

/// The form of a model's coherence (see the module comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `acyclic K` with the core within `K`.
    Acyclic,
    /// C11's coherence: needs asmo total on each location's writes.
    C11,
    /// Dat3M's event view ([`view`]): the core on the locations whose writes the guard
    /// relates on the view (decided per path combination).
    View,
    /// Dat3M's event view, C11's coherence ([`view_c11`]): the core on the locations
    /// [`Analysis::view_c11`]'s checks cover on the view (decided per path combination).
    ViewC11,
}

/// A model's proof of the coherence core, before a path combination is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoreProof {
    pub form: Form,
    pub po_loc: PoLoc,
    /// `fr_ww` shown within the acyclic relation (form 1; form 2 derives it from `po_loc`).
    pub fr_ww: bool,
    /// Form 1 on part of the accesses: the core's terms are within `K` where they relate
    /// two accesses this static relation relates (ptx-v6.0.cat's `acyclic strong(com) |
    /// po_loc`, strong(r) = r & strong_r): the core then holds on the locations whose
    /// every two distinct accesses it relates (decided per path combination).
    pub guard: Option<N>,
}

/// What the search may add to `rf | asmo | fr_asmo | fr_init` in its coherence filter on
/// one path combination, and where the core holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Core {
    pub po_loc: bool,
    pub fr_ww: bool,
    /// The accesses of the locations the core covers, `None` for every event: the union
    /// restricted to `sloc` on these events is acyclic in every consistent candidate.
    pub events: Option<EventSet>,
}

/// What a model's checks allow the search (computed once per compiled model).
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    pub core: Option<CoreProof>,
    /// `co` contains asmo and is acyclic in every consistent candidate.
    pub co_by_asmo: bool,
    /// The checks that may cut a search node whose asmo is partial, with the per-asmo
    /// values bounded below (`Prepared::lower_asmo`): those that may cut
    /// ([`Check::may_cut`]) and are monotone in the per-asmo values and asmo too
    /// ([`crate::mono::monotone_over_asmo_values`]). By index in the model's checks.
    pub partial_cut_checks: Vec<usize>,
    /// `Form::ViewC11`: the `(A, B, H)` of each coherence check ([`view_c11`]).
    pub view_c11: Vec<view_c11::Triple>,
}

impl Analysis {
    /// The core the search may use on one path combination (`s`), whose asmo orders the
    /// pairs `asmo_pairs` (both directions listed); `None` if none.
    pub fn coherence(&self, graph: &Graph, s: &Statics, asmo_pairs: &Rel) -> Option<Core> {
        let proof = self.core?;
        let sloc = s.rel(StaticRel::Sloc);
        let events = match proof.form {
            Form::Acyclic => match proof.guard {
                None => None,
                Some(guard) => {
                    let Value::Rel(g) = lower_bound(graph, guard, s) else {
                        return None;
                    };
                    let covered = guarded_locations(s, &g);
                    if covered.is_empty() {
                        return None;
                    }
                    Some(covered)
                }
            },
            Form::View | Form::ViewC11 => {
                let covered = match proof.guard {
                    Some(guard) => view::covered(graph, guard, s),
                    None => view_c11::covered(graph, &self.view_c11, s),
                };
                if covered.is_empty() {
                    return None;
                }
                let every = s.set(StaticSet::R).union(s.set(StaticSet::W));
                (!every.is_subset(&covered)).then_some(covered)
            }
            Form::C11 => {
                // The core holds on the locations whose writes asmo orders totally.
                let covered = totally_ordered_locations(s, asmo_pairs);
                if covered.is_empty() {
                    return None;
                }
                let every = s.set(StaticSet::R).union(s.set(StaticSet::W));
                (!every.is_subset(&covered)).then_some(covered)
            }
        };
        let po_loc = match proof.po_loc {
            PoLoc::Always => true,
            PoLoc::No => false,
            PoLoc::WithinLower(h) => {
                let mut p = s
                    .rel(StaticRel::Po)
                    .inter(sloc)
                    .inter(s.rel(StaticRel::Sref));
                // The proof needs `po_loc` within `H` on the covered locations only.
                if let Some(e) = &events {
                    p = p.restrict(e, e);
                }
                match lower_bound(graph, h, s) {
                    Value::Rel(l) => p.is_subset(&l),
                    Value::Set(_) => false,
                }
            }
        };
        Some(Core {
            po_loc,
            fr_ww: match proof.form {
                Form::Acyclic | Form::View | Form::ViewC11 => proof.fr_ww,
                Form::C11 => po_loc,
            },
            events,
        })
    }
}

/// The accesses of the locations whose every two distinct accesses `guard` relates (the
/// static guard's value: exact, as it reads no rf or asmo).
fn guarded_locations(s: &Statics, guard: &Rel) -> EventSet {
    let acc = s.set(StaticSet::R).union(s.set(StaticSet::W));
    let sloc = s.rel(StaticRel::Sloc);
    let outside = sloc
        .restrict(&acc, &acc)
        .minus(s.rel(StaticRel::Id))
        .minus(guard);
    let partial = sloc.restrict_domain(&outside.domain()).range();
    acc.minus(&partial)
}

/// The accesses (reads and writes) of the locations whose writes `asmo_pairs` orders
/// totally: every two distinct writes of the location are a pair (a location with one
/// write or none is such a location). `sloc` is an equivalence on accesses, its classes
/// the locations.
fn totally_ordered_locations(s: &Statics, asmo_pairs: &Rel) -> EventSet {
    let w = s.set(StaticSet::W);
    let sloc = s.rel(StaticRel::Sloc);
    let unordered = sloc
        .restrict(w, w)
        .minus(s.rel(StaticRel::Id))
        .minus(asmo_pairs);
    // The accesses of a location with an unordered pair of writes.
    let partial = sloc.restrict_domain(&unordered.domain()).range();
    s.set(StaticSet::R).union(w).minus(&partial)
}

/// The patterns the proofs look for, built in a copy of the model's graph (hash-consing
/// makes a pattern written as the model writes it the model's own node).
struct Patterns {
    rf: N,
    asmo: N,
    fr_asmo: N,
    fr_init: N,
    po_loc: N,
    fr_ww: N,
    /// `(rf | asmo | fr_asmo | fr_init)+`
    eco: N,
    rf_asmo: N,
    rmw_init_after: N,
    rmw_atomicity: N,
}

impl Patterns {
    fn new(g: &mut Graph) -> Patterns {
        let b = |g: &mut Graph, x| g.base(x);
        let rf = b(g, BaseName::Rf);
        let asmo = b(g, BaseName::Asmo);
        let id = b(g, BaseName::Id);
        let (r, w, rfinit) = (b(g, BaseName::R), b(g, BaseName::W), b(g, BaseName::RfInit));
        let (po, sloc, sref) = (
            b(g, BaseName::Po),
            b(g, BaseName::Sloc),
            b(g, BaseName::Sref),
        );
        let rf_inv = g.unary(Op::Inv, rf);
        let s = g.seq(vec![rf_inv, asmo]);
        let fr_asmo = g.diff(s, id);
        let (stor_rfinit, stor_w) = (g.stor(rfinit), g.stor(w));
        let s = g.seq(vec![stor_rfinit, sloc, stor_w]);
        let fr_init = g.diff(s, id);
        let po_loc = g.inter(Kind::Rel, vec![po, sloc, sref]);
        let ww = g.cross(w, w);
        let po_loc_ww = g.inter(Kind::Rel, vec![po_loc, ww]);
        let s = g.seq(vec![rf_inv, po_loc_ww]);
        let fr_ww = g.diff(s, id);
        let u = g.union(Kind::Rel, vec![rf, asmo, fr_asmo, fr_init]);
        let eco = g.unary(Op::Plus, u);
        let rf_asmo = g.seq(vec![rf, asmo]);
        let rmw_init = g.inter(Kind::Set, vec![r, w, rfinit]);
        let stor_rmw_init = g.stor(rmw_init);
        let rmw_init_after = g.seq(vec![stor_w, asmo, stor_rmw_init]);
        let rmw = g.inter(Kind::Set, vec![r, w]);
        let stor_rmw = g.stor(rmw);
        let rf_rmw = g.seq(vec![rf, stor_rmw]);
        let asmo2 = g.seq(vec![asmo, asmo]);
        let rmw_atomicity = g.inter(Kind::Rel, vec![rf_rmw, asmo2]);
        Patterns {
            rf,
            asmo,
            fr_asmo,
            fr_init,
            po_loc,
            fr_ww,
            eco,
            rf_asmo,
            rmw_init_after,
            rmw_atomicity,
        }
    }
}

/// Reads the model's checks (the module comment says what each finding allows).
pub fn analyse(graph: &Graph, checks: &[Check], co: Option<N>) -> Analysis {
    let mut g = graph.clone();
    let pat = Patterns::new(&mut g);
    // The checks that make a candidate inconsistent when they fail.
    let axioms: Vec<&Check> = checks.iter().filter(|c| !c.flag && !c.negated).collect();
    let mut guarded: Vec<(N, Guarded)> = Vec::new();
    for c in axioms.iter().filter(|c| c.kind == CheckKind::Acyclic) {
        for guard in guards(graph, c.node) {
            guarded.push((c.node, Guarded::new(&mut g, &pat, guard)));
        }
    }
    let mut p = Prover::new(&g);
    let of = |k: CheckKind| axioms.iter().filter(move |c| c.kind == k).map(|c| c.node);
    let po_loc_in = |p: &mut Prover, h: N| {
        if p.within(pat.po_loc, h) {
            PoLoc::Always
        } else if g.kind(h) == Kind::Rel {
            PoLoc::WithinLower(h)
        } else {
            PoLoc::No
        }
    };
    let mut core = None;
    // Form 1: one acyclicity check contains the core.
    for k in of(CheckKind::Acyclic) {
        if [pat.rf, pat.asmo, pat.fr_asmo, pat.fr_init]
            .iter()
            .all(|&t| p.within(t, k))
        {
            core = Some(CoreProof {
                form: Form::Acyclic,
                po_loc: po_loc_in(&mut p, k),
                fr_ww: p.within(pat.fr_ww, k),
                guard: None,
            });
            break;
        }
    }
    // Form 2: C11's coherence.
    if core.is_none() {
        let irr: Vec<N> = of(CheckKind::Irreflexive).collect();
        let empty: Vec<N> = of(CheckKind::Empty).collect();
        let some = |p: &mut Prover, ks: &[N], t: N| ks.iter().any(|&k| p.within(t, k));
        let side = some(&mut p, &irr, pat.rf_asmo)
            && some(&mut p, &empty, pat.rmw_init_after)
            && some(&mut p, &empty, pat.rmw_atomicity);
        if side {
            for &k in &irr {
                let Some((h, e)) = split_seq(&g, k) else {
                    continue;
                };
                if p.within(pat.eco, e) {
                    core = Some(CoreProof {
                        form: Form::C11,
                        po_loc: po_loc_in(&mut p, h),
                        fr_ww: false,
                        guard: None,
                    });
                    break;
                }
            }
        }
    }
    // Form 1 on part of the accesses: the core's terms where a static guard relates
    // their ends, within an acyclicity check (see `Guarded`). The weakest guard first.
    if core.is_none() {
        for (k, gd) in &guarded {
            if gd.terms.iter().all(|&t| p.within(t, *k)) {
                core = Some(CoreProof {
                    form: Form::Acyclic,
                    po_loc: match p.within(gd.po_loc, *k) {
                        true => PoLoc::Always,
                        false => PoLoc::No,
                    },
                    fr_ww: false,
                    guard: Some(gd.guard),
                });
                break;
            }
        }
    }
    // co contains asmo and is acyclic in consistent candidates: asmo itself (a strict
    // order), or within (K)+ for an acyclicity check K (a cycle of K+ is one of K).
    let co_by_asmo = co.is_some_and(|co| {
        p.within(pat.asmo, co)
            && (co == pat.asmo
                || of(CheckKind::Acyclic).any(|k| {
                    p.within(co, k) || matches!(g.node(co).op, Op::Plus(x) if p.within(x, k))
                }))
    });
    let partial_cut_checks = (0..checks.len())
        .filter(|&c| {
            checks[c].may_cut && crate::mono::monotone_over_asmo_values(graph, checks[c].node)
        })
        .collect();
    Analysis {
        core,
        co_by_asmo,
        partial_cut_checks,
        view_c11: Vec::new(),
    }
}

/// The static relations an acyclicity check `K` intersects its terms with: the static
/// operand of each intersection in `K`'s cone that has one (hash-consing groups an
/// intersection's static operands into one node), fewest operands first (the weakest
/// guard covers the most locations).
fn guards(graph: &Graph, k: N) -> Vec<N> {
    let reach = graph.cone([k], Vec::new());
    let mut out: Vec<N> = (0..graph.nodes().len() as N)
        .filter(|&n| reach[n as usize] && graph.stage(n) != Stage::Static)
        .filter_map(|n| match &graph.node(n).op {
            Op::Inter(v) => v
                .iter()
                .copied()
                .find(|&o| graph.stage(o) == Stage::Static && graph.kind(o) == Kind::Rel),
            _ => None,
        })
        .collect();
    let size = |n: N| match &graph.node(n).op {
        Op::Inter(v) => v.len(),
        _ => 1,
    };
    out.sort_by_key(|&n| (size(n), n));
    out.dedup();
    out
}

/// The core's terms cut down to the pairs of accesses of one location that a static
/// guard `G` relates. On a location L whose every two distinct accesses G relates, each
/// term's pairs within L are among these (every term is irreflexive, and within `sloc`):
/// `rf & G & sloc`; `asmo & (W * W) & G & sloc` (asmo orders writes, and events with no
/// location such as PTX's fence.sc, so its pairs within L are writes);
/// `(((rf & G & sloc)^-1 ; (asmo & (W * W) & G & sloc)) \ id) & G & sloc` for `fr_asmo`
/// (a read of L reads a write of L); `fr_init & G & sloc`; `po_loc & G`. So where they are
/// within `K`, the core restricted to `sloc` on L is, and is acyclic when `K` is.
struct Guarded {
    guard: N,
    terms: [N; 4],
    po_loc: N,
}

impl Guarded {
    fn new(g: &mut Graph, pat: &Patterns, guard: N) -> Guarded {
        let b = |g: &mut Graph, x| g.base(x);
        let (sloc, w, id) = (b(g, BaseName::Sloc), b(g, BaseName::W), b(g, BaseName::Id));
        let ww = g.cross(w, w);
        let rf = g.inter(Kind::Rel, vec![pat.rf, guard, sloc]);
        let asmo = g.inter(Kind::Rel, vec![pat.asmo, ww, guard, sloc]);
        let rf_inv = g.unary(Op::Inv, rf);
        let s = g.seq(vec![rf_inv, asmo]);
        let d = g.diff(s, id);
        let fr_asmo = g.inter(Kind::Rel, vec![d, guard, sloc]);
        let fr_init = g.inter(Kind::Rel, vec![pat.fr_init, guard, sloc]);
        let po_loc = g.inter(Kind::Rel, vec![pat.po_loc, guard]);
        Guarded {
            guard,
            terms: [rf, asmo, fr_asmo, fr_init],
            po_loc,
        }
    }
}

/// The shortcuts of a model compiled in Dat3M's event view ([`crate::view`]), from its
/// checks and those [`analyse`] found:
/// - the coherence filter only as [`view`] or [`view_c11`] derives it: its terms
///   (coherence.rs) are the search's rf and asmo on the program's events, while the
///   model's checks speak of the view's events (initial writes, RMW halves, `co` over
///   non-atomic writes too), so the forms [`analyse`] recognises, proved for the
///   program's events, are dropped, and the view's own forms, proved for the view, are
///   looked for instead (an acyclicity check first, then C11's coherence);
/// - final values by asmo only when the model's `co` is the view's base `co`: the
///   enumerator then orders every pair of writes to a location
///   ([`crate::Model::ordered_writes`]), and `co` on the program's writes is asmo itself
///   (`View::co`), a strict total order per location, so the asmo-last write is the
///   co-last one in every candidate;
/// - the checks that cut with a partial asmo are kept: the view's rf is a monotone image
///   of the search's rf and RFINIT and its `co` of asmo (`View::rf`, `View::co`: each pair
///   maps to one pair), and the bounds on asmo map to bounds on `co`
///   (`Prepared::lower_asmo`), so a check monotone in the view's inputs is monotone in the
///   search's, and [`crate::mono`]'s arguments hold unchanged.
pub fn in_view(found: Analysis, graph: &Graph, checks: &[Check], co: Option<N>) -> Analysis {
    let base_co = crate::view::lookup("co").map(Op::Base);
    let co_is_base = co.is_some_and(|n| Some(&graph.node(n).op) == base_co.as_ref());
    let (core, view_c11) = match view::derive(graph, checks) {
        Some(core) => (Some(core), Vec::new()),
        None => {
            let triples = view_c11::derive(graph, checks);
            ((!triples.is_empty()).then(view_c11::proof), triples)
        }
    };
    Analysis {
        core,
        co_by_asmo: co_is_base,
        partial_cut_checks: found.partial_cut_checks,
        view_c11,
    }
}

/// `H ; E` for a two-step chain (as [`Graph::seq`] builds `H ; E` for two relations of
/// the candidate's stage).
fn split_seq(g: &Graph, k: N) -> Option<(N, N)> {
    match &g.node(k).op {
        Op::Seq(v) if v.len() == 2 && !matches!(g.node(v[0]).op, Op::Seq(_) | Op::Stor(_)) => {
            (!matches!(g.node(v[1]).op, Op::Stor(_))).then_some((v[0], v[1]))
        }
        _ => None,
    }
}

/// A sound, incomplete prover of `a ⊆ b` in every candidate of every execution.
pub struct Prover<'g> {
    g: &'g Graph,
    memo: HashMap<(N, N), bool>,
}

/// Base relations known to be within others in every execution: program order relates
/// events of one thread.
const BASE_WITHIN: &[(BaseName, BaseName)] = &[(BaseName::Po, BaseName::Sthd)];

/// Relations that never relate an event to itself: rf (a read never reads itself:
/// `rf in sloc - iden`), asmo (a strict order) and po (a strict order).
const IRREFLEXIVE: &[BaseName] = &[BaseName::Rf, BaseName::Asmo, BaseName::Po];

impl<'g> Prover<'g> {
    pub fn new(g: &'g Graph) -> Prover<'g> {
        Prover {
            g,
            memo: HashMap::new(),
        }
    }

    fn op(&self, n: N) -> &'g Op {
        &self.g.node(n).op
    }

    /// Is `a` within `b` in every candidate? `false` means "not shown".
    pub fn within(&mut self, a: N, b: N) -> bool {
        if a == b {
            return true;
        }
        if let Some(&r) = self.memo.get(&(a, b)) {
            return r;
        }
        // A cycle of questions answers "not shown".
        self.memo.insert((a, b), false);
        let r = self.within_uncached(a, b);
        self.memo.insert((a, b), r);
        r
    }

    fn within_uncached(&mut self, a: N, b: N) -> bool {
        let (oa, ob) = (self.op(a), self.op(b));
        match (oa, ob) {
            (Op::Empty, _) | (_, Op::Full) => return true,
            (Op::Base(x), Op::Base(y))
                if BASE_WITHIN.contains(&(*x, *y)) || view::base_within(*x, *y) =>
            {
                return true
            }
            _ => {}
        }
        // Rules that take `b` apart without losing anything.
        match ob {
            Op::Inter(bs) => return bs.iter().all(|&x| self.within(a, x)),
            Op::Diff(x, y) => {
                let (x, y) = (*x, *y);
                return self.within(a, x) && self.disjoint(a, y);
            }
            _ => {}
        }
        // Rules that take `a` apart without losing anything.
        match oa {
            Op::Union(v) => return v.iter().all(|&x| self.within(x, b)),
            // x? = id | x.
            Op::Opt(x) if self.reflexive(b) && self.within(*x, b) => return true,
            _ => {}
        }
        // Either side's parts.
        if let Op::Inter(v) = oa {
            if v.iter().any(|&x| self.within(x, b)) {
                return true;
            }
        }
        if let Op::Diff(x, _) = oa {
            if self.within(*x, b) {
                return true;
            }
        }
        match ob {
            Op::Union(v) => v.iter().any(|&x| self.within(a, x)),
            // x+ and x* are transitive and contain x; x* = id | x+.
            Op::Plus(x) | Op::Star(x) => self.within(a, *x) || self.within_plus(a, b),
            Op::Opt(x) => self.within(a, *x),
            Op::Inv(x) => matches!(oa, Op::Inv(y) if self.within(*y, *x)),
            Op::Stor(s) => matches!(oa, Op::Stor(t) if self.within(*t, *s)),
            Op::Cross(s1, s2) => match oa {
                Op::Cross(t1, t2) => self.within(*t1, *s1) && self.within(*t2, *s2),
                _ => false,
            },
            Op::Seq(_) => self.within_seq(a, b),
            _ => matches!(oa, Op::Seq(_)) && self.within_seq(a, b),
        }
    }

    /// `a` within `b`, where `b` is a transitive closure (`x+`, `x*`): `a` is `y+` with
    /// `y` within `x+`, or a chain of factors each within `b`.
    fn within_plus(&mut self, a: N, b: N) -> bool {
        match self.op(a) {
            Op::Plus(y) => self.within(*y, b),
            Op::Star(y) => matches!(self.op(b), Op::Star(_)) && self.within(*y, b),
            Op::Seq(_) => {
                let fs = self.factors(a);
                fs.len() > 1 && fs.iter().all(|&f| self.within(f, b))
            }
            _ => false,
        }
    }

    /// Does `b` contain the identity in every execution?
    fn reflexive(&self, b: N) -> bool {
        match self.op(b) {
            Op::Star(_) | Op::Opt(_) | Op::Full | Op::Base(BaseName::Id) => true,
            Op::Stor(s) => matches!(self.op(*s), Op::Full),
            Op::Union(v) => v.iter().any(|&x| self.reflexive(x)),
            _ => false,
        }
    }

    /// Is `a & y` empty in every candidate?
    fn disjoint(&mut self, a: N, y: N) -> bool {
        match self.op(y) {
            Op::Empty => true,
            Op::Base(BaseName::Id) => self.irreflexive(a),
            Op::Stor(s) if matches!(self.op(*s), Op::Full) => self.irreflexive(a),
            _ => matches!(self.op(a), Op::Diff(_, z) if self.within(y, *z)),
        }
    }

    /// Does `a` never relate an event to itself?
    fn irreflexive(&mut self, a: N) -> bool {
        match self.op(a) {
            Op::Empty => true,
            Op::Base(x) => IRREFLEXIVE.contains(x),
            Op::Diff(_, z) => {
                matches!(self.op(*z), Op::Base(BaseName::Id))
                    || matches!(self.op(*z), Op::Stor(s) if matches!(self.op(*s), Op::Full))
            }
            Op::Inter(v) => v.iter().any(|&x| self.irreflexive(x)),
            Op::Union(v) => v.iter().all(|&x| self.irreflexive(x)),
            _ => false,
        }
    }

    /// The factors of a chain (nested chains flattened), or `[n]`.
    fn factors(&self, n: N) -> Vec<N> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            match self.op(x) {
                Op::Seq(v) => stack.extend(v.iter().rev()),
                _ => out.push(x),
            }
        }
        out
    }

    /// `a` within `b` factor by factor: each factor of `a` within one of `b`, in order;
    /// a `[S]` of `a` may be dropped (it only restricts), and a factor of `b` that
    /// contains the identity may be skipped.
    fn within_seq(&mut self, a: N, b: N) -> bool {
        let (fa, fb) = (self.factors(a), self.factors(b));
        // reach[i][j]: a's first i factors are within b's first j.
        let mut reach = vec![vec![false; fb.len() + 1]; fa.len() + 1];
        reach[0][0] = true;
        for i in 0..=fa.len() {
            for j in 0..=fb.len() {
                if !reach[i][j] {
                    continue;
                }
                if i < fa.len() && matches!(self.op(fa[i]), Op::Stor(_)) {
                    reach[i + 1][j] = true;
                }
                if j < fb.len() && self.reflexive(fb[j]) {
                    reach[i][j + 1] = true;
                }
                if i < fa.len() && j < fb.len() && self.within(fa[i], fb[j]) {
                    reach[i + 1][j + 1] = true;
                }
            }
        }
        reach[fa.len()][fb.len()]
    }
}

/// A value of node `n` contained in its value in every candidate of the execution `s`
/// (rf, RFINIT and asmo unknown): the lower end of an interval evaluation, where rf,
/// RFINIT and asmo range from empty to full, each operator maps the intervals of its
/// operands by its monotonicity (complement and the right side of `\` swap the ends),
/// `total-order(P, C, F)` (which contains P) is bounded below by P's lower end and above
/// by everything, and a fixpoint whose inputs are not exact by nothing and everything.
pub fn lower_bound(g: &Graph, n: N, s: &Statics) -> Value {
    lower_bound_on(g, n, s.n(), &|b| static_value(b, s))
}

/// [`lower_bound`] on `size` events whose static bases have the values `statics` gives
/// (Dat3M's event view: [`crate::view::events::View::static_value`]).
pub fn lower_bound_on(g: &Graph, n: N, size: usize, statics: &dyn Fn(BaseName) -> Value) -> Value {
    let mut memo: Vec<Option<(Value, Value)>> = vec![None; g.nodes().len()];
    interval(g, n, size, statics, &mut memo);
    memo[n as usize].take().expect("computed").0
}

fn interval(
    g: &Graph,
    n: N,
    size: usize,
    statics: &dyn Fn(BaseName) -> Value,
    memo: &mut Vec<Option<(Value, Value)>>,
) {
    if memo[n as usize].is_some() {
        return;
    }
    let node = g.node(n);
    let ops = node.op.operands();
    if !matches!(node.op, Op::Base(_) | Op::Fix { .. }) {
        for &o in &ops {
            interval(g, o, size, statics, memo);
        }
    }
    let lo = |memo: &Vec<Option<(Value, Value)>>, o: N| -> Value {
        memo[o as usize].as_ref().expect("operand").0.clone()
    };
    let v = match &node.op {
        Op::Base(b) if b.stage() == Stage::Static => {
            let v = statics(*b);
            (v.clone(), v)
        }
        Op::Base(_) => (
            kernel::empty_value(node.kind, size),
            kernel::full_value(node.kind, size),
        ),
        Op::Fix { inputs, .. } => {
            for &o in inputs {
                interval(g, o, size, statics, memo);
            }
            let exact = inputs.iter().all(|&o| {
                let (l, u) = memo[o as usize].as_ref().expect("input");
                l == u
            });
            if exact {
                let Op::Fix { group, index, .. } = node.op else {
                    unreachable!()
                };
                let m: &Vec<Option<(Value, Value)>> = memo;
                let v = kernel::least_fixpoint(g, group, index, size, &|o| {
                    &m[o as usize].as_ref().expect("input").0
                });
                (v.clone(), v)
            } else {
                (
                    kernel::empty_value(node.kind, size),
                    kernel::full_value(node.kind, size),
                )
            }
        }
        Op::RecVar { .. } => unreachable!("only inside a fixpoint"),
        Op::Compl(a) => {
            let (l, u) = memo[*a as usize].clone().expect("operand");
            let c = |v: &Value| kernel::apply(&Op::Compl(0), node.kind, size, &|_| v);
            (c(&u), c(&l))
        }
        Op::Diff(a, b) => {
            let (la, ua) = memo[*a as usize].clone().expect("operand");
            let (lb, ub) = memo[*b as usize].clone().expect("operand");
            let d = |x: &Value, y: &Value| match (x, y) {
                (Value::Rel(x), Value::Rel(y)) => Value::Rel(x.minus(y)),
                (Value::Set(x), Value::Set(y)) => Value::Set(x.minus(y)),
                _ => unreachable!("type-checked"),
            };
            (d(&la, &ub), d(&ua, &lb))
        }
        Op::TotalOrder(p, ..) => (lo(memo, *p), kernel::full_value(node.kind, size)),
        op => {
            let m: &Vec<Option<(Value, Value)>> = memo;
            let l = kernel::apply(op, node.kind, size, &|o| {
                &m[o as usize].as_ref().expect("operand").0
            });
            let u = kernel::apply(op, node.kind, size, &|o| {
                &m[o as usize].as_ref().expect("operand").1
            });
            (l, u)
        }
    };
    memo[n as usize] = Some(v);
}
