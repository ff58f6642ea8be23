//! The pruned search, in three stages, cutting a subtree as soon as the partial execution
//! can have no consistent completion.
//!
//! 1. **Contended locations** (those with an RMW event, and in tests with branches those
//!    with mutually ordered atomic writes): the rf of their reads and the
//!    asmo orientation of their atomic writes are chosen together, event by event in an
//!    interleaved program order (an event's rf, then its asmo pairs with the writes seen
//!    before it), the RMW locations' events first. An RMW that reads a mutually ordered
//!    atomic write puts that write before it in asmo at once, and so does every read
//!    for the writes of its own thread (coherence-first placing, below). Spin loops over
//!    RMWs have n! asmo orders of which almost all die once rf is fixed by the values the
//!    branches demand; choosing both together cuts them before they are enumerated.
//!
//!    Why the RMW locations first: their order (which thread takes a lock when) decides
//!    the happens-before that fixes the rf and asmo of the other contended locations
//!    (a critical section's plain accesses, which OpenCL's modification order also
//!    orders). Interleaved with the lock's choices, those are chosen while the lock's
//!    order is open and no check can cut them yet: the OpenCL spin lock of four made 8.7
//!    million rf choices that way and 2.3 million lock-first (11.2 s to 4.6 s). The order
//!    of the choices changes which subtrees are cut when, never which candidates exist.
//!
//!    "Mutually ordered atomic writes" is Vulkan's set of pairs asmo orders; for OpenCL
//!    programs it is every pair of writes to a location (`candidates::asmo_pairs`, C11's
//!    modification order), and everything below holds with that set in its place. For
//!    PTX programs it is the morally strong pairs of writes and of fence.sc events, and
//!    asmo is any acyclic orientation of them ([`AsmoShape::Orientation`]): the closure
//!    of the pairs chosen so far may then leave the set (only a self-loop cuts,
//!    `asmo_valid`), and the complete asmo is the closure of the orientation (the
//!    argument is at `candidates::AsmoOrders`). The RMW placing and the coherence filter
//!    below run where the model entails the core ([`crate::Shortcuts::core`]), on the
//!    locations it covers (`CoreTerms::covers`).
//! 2. **The other asmo pairs**, lazily ([`AsmoOrders`], seeded with stage 1's order), as
//!    before; the model's asmo terms are computed once per complete asmo.
//! 3. **The other reads**, read by read in program order, with the full model check.
//!
//! A straight-line test without RMWs has no stage 1: stages 2 and 3 are the former search
//! (plus the coherence filter where a location has two writes).
//!
//! Why the cuts are sound. Every check is monotone: if it fails on a partial choice it
//! fails on every completion, so no consistent candidate is lost; and the choices
//! partition the candidates (each complete (rf, asmo) is reached by exactly one branch),
//! so none is visited twice.
//! - Along a branch `rf`/`RFINIT` only gain pairs and `asmo` only gains pairs; stage 1
//!   keeps the transitive closure of its oriented pairs, which every completion
//!   contains (asmo is transitive).
//! - `asmo` may relate only the pairs of `asmo_pairs` and must be a strict order, so
//!   a closure that leaves them or has a self-loop cannot complete (as in
//!   [`AsmoOrders`]); with the orientation shape only the self-loop cuts (the closure of
//!   a partial orientation is in the closure of each of its completions).
//! - Before it, a cheap filter: the coherence core (coherence.rs) must be acyclic. Only
//!   for models that entail it ([`crate::Shortcuts::core`], derived per path combination
//!   from the model's checks by `vkherd_cat::shortcuts`, never from its name): each of
//!   its terms only grows along a branch, and every consistent candidate has their union
//!   acyclic (Vulkan's model: each term is within the first axiom's relation; C11-style
//!   coherence such as opencl.cat's: the rank argument of `vkherd_cat::shortcuts`).
//! - The model check ([`Ctx::check_node`]) of the hand-written engine uses relations
//!   monotone in rf,
//!   RFINIT, asmo and the asmo terms (rs, hypors, release):
//!   - `sw` = release . (rf & mutordatom) . acquire + a static term: monotone in rf and
//!     release;
//!   - `ithb` (a closure of unions and sequences of monotone terms), `hb`, every av/vis
//!     chain (built from hb with `.`, `&` with static relations, `rc`, `+`), and `locord`
//!     (sloc & a union of such terms) are monotone;
//!   - `fr` = ~rf.((W->W)&locord) + ~rf.asmo + [RFINIT].sloc.[W] - iden is monotone;
//!   - so `locord + rf + fr + asmo` only grows: once it has a cycle, every completion has
//!     it (first axiom of `consistent`);
//!   - `(rf . [R-A]) & twoplus([W] . locord)` only grows: once non-empty, every
//!     completion violates the second axiom.
//!
//!   No relation uses a complement or difference of something that grows (`- iden` and
//!   `- mutordatom` subtract static relations). The asmo terms are NOT monotone in asmo
//!   (`imm[asmo]`), so while asmo is partial (stage 1) the check uses
//!   [`Ctx::lower_asmo`], contained in the terms of every asmo; from stage 2 on,
//!   asmo is complete and fixed and its exact terms are used.
//!
//!   A cat model's check uses the checks `vkherd_cat::mono` proves monotone in rf and
//!   RFINIT. In stage 1 (asmo partial) only those also monotone in asmo and in every
//!   per-asmo value they read (`vkherd_cat::mono::monotone_over_asmo_values`: no
//!   complement, no `\` or `total-order` condition over anything but static relations in
//!   their per-candidate part) are used, with per-asmo values bounded below by an
//!   interval evaluation of the per-asmo program over every asmo containing the partial
//!   one ([`Ctx::lower_asmo`], recomputed when stage 1 adds asmo pairs: `Search::lower_for`),
//!   so a failure there is a failure of every completion.
//! - An RMW `e` reading a write `w` with `{w, e}` a pair asmo orders: for models with the
//!   coherence core, every consistent completion has `w asmo e`, since asmo orders the
//!   pair one way and `e asmo w` closes the cycle `w rf e asmo w`, within the core.
//!   Adding the pair early only drops inconsistent completions.
//! - Coherence-first placing: a read `e` reading `w`, and a write `v != w` of `e`'s
//!   thread with `{w, v}` a pair asmo orders, where the core has its `po_loc` term
//!   (`po & sloc & sref`) and covers the location. If `e po_loc v`, every consistent
//!   completion has `w asmo v`: `v asmo w` closes `w rf e po_loc v asmo w`. If
//!   `v po_loc e`, it has `v asmo w`: `w asmo v` makes `e fr v` (`~rf.asmo`), closing
//!   `v po_loc e fr v`. Both cycles lie within the core on one covered location, so
//!   adding the pairs early, as for an RMW, only drops inconsistent completions; the
//!   orientation choices they settle then pass through without a check
//!   (`Search::implied_branch`). A critical section's plain read and write under
//!   OpenCL's modification order: the OpenCL spin lock of four went from 18.5 s to
//!   11.2 s, the Vulkan one (its lock's release store) from 5.1 s to 4.0 s.
//! - The order lookahead, at an RMW's rf choice on a location the value screen's
//!   coherence test applies to (`liveness::screen::Lookahead`: the core covers it with
//!   its `po_loc` term, asmo orders its writes totally): the location's accesses must
//!   have an interleaving, keeping each thread's order, in which every read returns the
//!   last write before it, every read whose rf is chosen returns that write, every write
//!   follows the writes asmo has before it, and the values lie in the screen's sets for
//!   the path combination (branch decisions included). Every consistent completion of
//!   the node has one (the argument at `Lookahead`), so a node without one is cut. The
//!   plain rf and orientation choices check coherence one pair at a time; an RMW chain
//!   (exchange loops of two threads) then builds thousands of partial orders that no
//!   later choice can finish: cadp-096681-qf (500 generated CADP-like programs, docs/
//!   benchmarks.md) took 28,000 rf branches per searched path combination for 5
//!   executions, 3.8 s at `--unroll 3` and over 60 s at 4; 0.46 s and 6.9 s with it.
//!   Asked at RMWs only: at plain reads (a critical section's, ordered by
//!   happens-before, not by coherence) it cut nothing more and cost the OpenCL spin lock
//!   of four 20 %.
//! - Values: a branch decision whose operands are determined by the reads assigned so far
//!   stays determined the same way (see `ValueSolver::partial_agrees`), so a disagreeing
//!   branch cuts the subtree too.
//!
//! - Before the search of a barrier meeting, not a cut inside it: the safety search
//!   skips a meeting whose branch decisions no values can take
//!   (`driver::values_may_agree`, which says why nothing it skips is counted).
//! - Not a cut but a saving: each node's model check hands what it computed to its
//!   children ([`Ctx::check_node`]); an engine may reuse it only where the result is the
//!   same as computed afresh (the hand-written model: a node's relations other than `fr`
//!   when its sw equals its parent's). Likewise the coherence filter runs at the leaves
//!   before the model, which is only skipped for leaves the filter proves inconsistent.
//! - Not a cut either: a node's model check may be answered by a witness, a completion
//!   of the node that passes the check (monotone, as above), without computing the
//!   node's own ([`Search::witness`]). Only a passing witness is used, and it proves
//!   exactly what the node's check would, so the same subtrees are cut.
//!
//! - Cuts by state (`--speedcheck`, `--states-only`): the visitor says a subtree cannot
//!   change its result given the final-state columns every completion shares
//!   ([`Ctx::skip_by_state`]; the argument for each visitor is at its `skip`).
//!
//! The cuts are disabled when the visitor needs inconsistent candidates.
//!
//! - Liveness (`liveness/`) runs this same search on the path combinations of stuck
//!   executions (paths ending in a spin iteration, laps, a blocked cbar, or a pause). The
//!   cuts above stay sound there: a stuck execution must satisfy the model's axioms like
//!   any candidate, so every consistent one is still visited, and the liveness conditions
//!   (final reads, the lap rule) are checked on each complete candidate, exactly. The one
//!   addition, [`Visitor::rf_allowed`], drops rf sources the visitor rejects at every leaf
//!   that has them, so it only removes candidates the visitor would not count.
//!
//! Sharding (`--shard K/N`): every branch descends through [`Ctx::unit_child`], which
//! hashes the choice into the node's work unit and drops branches that are another
//! shard's units; leaves and pruned subtrees above the units are counted by one shard
//! only ([`Ctx::unit_counts`]). Which branches exist does not depend on the shard, so the
//! shards partition exactly the candidates of the whole search.

use crate::candidates::{rf_options, AsmoOrders};
use crate::coherence::CoherenceCore;
use crate::ctx::Ctx;
use crate::engine::{Asmo, CoreTerms, PreparedModel};
use crate::error::EnumError;
use crate::liveness::screen::{self, Lookahead};
use crate::shard::Unit;
use crate::stats::EnumStats;
use crate::values::{Known, Source};
use crate::visitor::Visitor;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use vkherd_model::{AsmoShape, EventSet, Rel, StaticSet, Statics};

/// Depth down to which subtrees are handed to rayon as separate tasks (per stage).
const PARALLEL_DEPTH: usize = 3;

/// The mutable state of one branch of the search.
#[derive(Clone)]
struct Partial {
    rf_src: Vec<Option<Source>>,
    rf: Rel,
    rfinit: EventSet,
    /// The asmo pairs chosen so far, transitively closed.
    asmo: Rel,
    /// Stage 3: the option chosen last at each depth, which a node tries first (see
    /// `Search::node`).
    last: Vec<usize>,
}

/// What a node's checks computed, handed to its children: the model's (`Ctx::check_node`)
/// and the values known (`ValueSolver::agrees_from`). Either may be absent; the
/// children's checks give the same answers without them.
#[derive(Clone, Default)]
struct NodeCheck<N> {
    model: Option<N>,
    values: Option<Arc<Known>>,
}

impl<N> NodeCheck<N> {
    fn model(&self) -> Option<&N> {
        self.model.as_ref()
    }

    fn values(&self) -> Option<&Known> {
        self.values.as_deref()
    }
}

/// A stage-1 node on the explicit stack of `Search::contended`: choice `k` is being
/// made below `p`, whose check gave `check`; branches `0..next` are done.
struct OpenChoice<N, A> {
    k: usize,
    p: Partial,
    /// The asmo-term lower bound for `p.asmo` (`Search::lower_for`).
    lower: Lower<A>,
    unit: Unit,
    check: NodeCheck<N>,
    next: usize,
}

/// A stage-3 node on the explicit stack of `Search::subtree`: the read at `depth` is
/// being given each of its options in turn.
struct OpenRead<N> {
    depth: usize,
    unit: Unit,
    /// What the node's check computed, for its children.
    check: NodeCheck<N>,
    /// Whether the node's witness passes, if known (its first child shares it).
    witness: Option<bool>,
    /// The option visited first: the one this read had in the previous leaf.
    first: usize,
    /// How many children have been visited.
    next: usize,
    /// The option now assigned in the shared partial execution, undone before the next.
    assigned: Option<usize>,
}

impl<N> OpenRead<N> {
    /// The option of the `n`-th child visited: `first`, then the others in order.
    fn nth_child(&self, n: usize) -> usize {
        match n {
            0 => self.first,
            n if n <= self.first => n - 1,
            n => n,
        }
    }
}

/// The asmo-term lower bound of a stage-1 node, shared with its children while their
/// asmo is the same ([`PreparedModel::lower_asmo`]).
type Lower<A> = Option<Arc<A>>;

/// A stage-1 partial execution with its asmo-term lower bound.
type Stage1<A> = (Partial, Lower<A>);

/// A stage-1 node to enter: its choice, partial execution, work unit and what its
/// parent's check computed.
type Entry<N, A> = (usize, Stage1<A>, Unit, NodeCheck<N>);

/// A stage-1 branch that survived its checks: its partial execution and what its check
/// computed.
type Branch<N, A> = (Stage1<A>, NodeCheck<N>);

/// One choice of stage 1.
enum Choice {
    /// The rf source of a read, among its options.
    Rf(usize, Vec<Source>),
    /// The orientation of a mutually ordered pair of atomic writes.
    Orient(usize, usize),
}

struct Search<'c, 'a, P: PreparedModel, V> {
    ctx: &'c Ctx<'a, P, V>,
    /// Stage 1: rf and asmo choices on the contended locations.
    choices: Vec<Choice>,
    /// `choice_suffix[k]`: rf completions of the reads still open at choice k (saturating).
    choice_suffix: Vec<u128>,
    /// Stage 2: the asmo pairs left.
    other_pairs: Vec<(usize, usize)>,
    /// `asmo_pairs` (Vulkan: the mutordatom pairs of atomic writes), both ways: the only
    /// pairs asmo may contain.
    allowed: Rel,
    /// The RMW events (`R & W`).
    rmw: EventSet,
    /// The engine's asmo-term lower bound varies with the partial asmo
    /// (`PreparedModel::lower_asmo_varies`): recomputed whenever stage 1 adds asmo pairs.
    lower_varies: bool,
    /// The model entails the coherence core ([`crate::Shortcuts::core`]): the placing
    /// of an RMW right after the write it reads is sound on the locations the core
    /// covers (and so is the filter `core`).
    rmw_after_source: Option<CoreTerms>,
    /// Coherence-first placing (see the header): for each read, the writes of its
    /// location it is `po_loc`-related to, with `true` for those after it; empty where the
    /// core lacks `po_loc` or does not cover the read's location.
    po_loc_writes: Vec<Vec<(usize, bool)>>,
    /// The order lookahead (see the header), where the core lets the screen's coherence
    /// test apply to some location.
    lookahead: Option<Lookahead>,
    /// A cheap filter run before the model check (coherence.rs), in stage 1 and, when
    /// some location has two writes (where coherence cycles are common: writes-readers
    /// 5 cpu 0.89x), in stage 3. `None` when neither applies: building it per path
    /// combination would cost tests like the XF barrier for nothing.
    core: Option<CoherenceCore>,
    /// Stage 3: the other reads, in program order, with their options.
    reads: Vec<usize>,
    options: Vec<Vec<Source>>,
    /// `suffix[d]` = number of rf completions below depth d of stage 3 (saturating at
    /// 2^128 - 1).
    suffix: Vec<u128>,
    overflow: AtomicBool,
    /// Some subtree was cut by the visitor for its final-state columns.
    cut_by_state: AtomicBool,
}

type Acc<V> = (<V as Visitor>::Acc, EnumStats);

pub(crate) fn enumerate<P: PreparedModel, V: Visitor>(
    ctx: &Ctx<'_, P, V>,
) -> Result<Acc<V>, EnumError> {
    let s = ctx.s;
    let mut all = rf_options(ctx.program, s);
    // Sources the visitor rejects anyway (`Visitor::rf_allowed`) are never offered.
    for (e, options) in all.iter_mut().enumerate() {
        if let Some(o) = options {
            o.retain(|&src| ctx.visitor.rf_allowed(e, src));
        }
    }
    let rmw = s.set(StaticSet::R).inter(s.set(StaticSet::W));
    // The pairs asmo orders (the dialect decides: candidates::asmo_pairs).
    let allowed = ctx.asmo_pairs.clone();
    // Contended locations: those an RMW accesses and, in tests with branches, those with
    // mutually ordered atomic writes (a spin loop's exit value fixes rf, which then fixes
    // asmo). Straight-line tests without RMWs keep asmo first: there interleaving only
    // adds checks (writes-readers 4: 0.6 s instead of 0.25 s).
    let branches = ctx.program.has_jumps();
    let at = |x: usize, l: usize| s.events()[x].location == Some(l);
    let rmw_loc: Vec<bool> = (0..ctx.program.locations.len())
        .map(|l| rmw.iter().any(|x| at(x, l)))
        .collect();
    let contended_loc: Vec<bool> = (0..ctx.program.locations.len())
        .map(|l| rmw_loc[l] || (branches && allowed.pairs().any(|(x, _)| at(x, l))))
        .collect();
    let contended = |e: usize| s.events()[e].location.is_some_and(|l| contended_loc[l]);

    // Stage 1 in interleaved program order: the k-th event of every thread, then the
    // (k+1)-th, so that the writes of different threads meet early; the RMW locations'
    // events before the others' (the header says why).
    let after_rmw_locs = |e: usize| !s.events()[e].location.is_some_and(|l| rmw_loc[l]);
    let mut order: Vec<(bool, usize, usize, usize)> = Vec::new();
    let mut seen_in_thread = vec![0usize; ctx.program.threads.len()];
    for e in 0..s.n() {
        let t = s.events()[e].thread;
        order.push((after_rmw_locs(e), seen_in_thread[t], t, e));
        seen_in_thread[t] += 1;
    }
    order.sort_unstable();
    let mut choices = Vec::new();
    let mut placed: Vec<usize> = Vec::new();
    for &(_, _, _, e) in &order {
        if !contended(e) {
            continue;
        }
        if let Some(opts) = &all[e] {
            choices.push(Choice::Rf(e, opts.clone()));
        }
        // Writes `allowed` may pair (Vulkan: atomic writes only, so the plain ones add no
        // choice; OpenCL: every write).
        if s.set(StaticSet::W).contains(e) {
            for &w in &placed {
                if allowed.contains(w, e) {
                    choices.push(Choice::Orient(w, e));
                }
            }
            placed.push(e);
        }
    }
    let other_pairs: Vec<(usize, usize)> = allowed
        .pairs()
        .filter(|&(a, b)| a < b && !contended(a))
        .collect();
    let reads: Vec<usize> = (0..s.n())
        .filter(|&e| all[e].is_some() && !contended(e))
        .collect();
    let options: Vec<Vec<Source>> = reads
        .iter()
        .map(|&e| all[e].clone().expect("read"))
        .collect();
    let mut suffix = vec![1u128; reads.len() + 1];
    for d in (0..reads.len()).rev() {
        suffix[d] = suffix[d + 1].saturating_mul(options[d].len() as u128);
    }
    let mut choice_suffix = vec![suffix[0]; choices.len() + 1];
    for k in (0..choices.len()).rev() {
        choice_suffix[k] = match &choices[k] {
            Choice::Rf(_, o) => choice_suffix[k + 1].saturating_mul(o.len() as u128),
            Choice::Orient(..) => choice_suffix[k + 1],
        };
    }
    let two_writes = (0..ctx.program.locations.len()).any(|l| {
        s.set(StaticSet::W)
            .iter()
            .filter(|&w| s.events()[w].location == Some(l))
            .nth(1)
            .is_some()
    });
    let stage1 = !choices.is_empty();
    let terms = ctx.shortcuts.core.clone();
    let po_loc_writes = po_loc_writes(s, terms.as_ref());
    // The screen's test, so it follows the screen's option (the tests compare both off).
    let lookahead = match stage1 && !rmw.is_empty() && ctx.opts.value_screen {
        true => lookahead(ctx, terms.as_ref()),
        false => None,
    };
    let search = Search {
        ctx,
        choices,
        choice_suffix,
        other_pairs,
        allowed,
        rmw,
        lower_varies: ctx.model.lower_asmo_varies(),
        core: terms
            .as_ref()
            .filter(|_| stage1 || two_writes)
            .map(|t| CoherenceCore::new(s, t)),
        rmw_after_source: terms,
        po_loc_writes,
        lookahead,
        reads,
        options,
        suffix,
        overflow: AtomicBool::new(false),
        cut_by_state: AtomicBool::new(false),
    };
    let root = Partial {
        rf_src: vec![None; s.n()],
        rf: Rel::empty(s.n()),
        rfinit: EventSet::new(s.n()),
        asmo: Rel::empty(s.n()),
        last: vec![0; search.reads.len()],
    };
    // The asmo-term lower bound (only built when there is a stage 1, and only if the
    // engine has one: `Ctx::lower_asmo`). A bound that varies with the partial asmo (the
    // cat engine's) is recomputed at every orientation, which costs more than it cuts
    // where asmo orders atomic writes only (Vulkan tests: their order is mostly fixed by
    // the RMWs that read them, which the coherence filter already follows; the Vulkan
    // spin lock of three invocations took 1.9 times the cpu with it). It is used where
    // asmo orders a non-atomic write: such orders are fixed by happens-before, which only
    // the model's checks see (the OpenCL spin lock of three invocations examined 6696
    // candidates without it, 186 with it: one per consistent execution). Which searches
    // use it depends on the program alone, so the counts do not depend on the run.
    let orders_plain = || {
        let a = s.set(StaticSet::A);
        search
            .allowed
            .pairs()
            .any(|(x, y)| !a.contains(x) || !a.contains(y))
    };
    let early = stage1 && (!ctx.model.lower_asmo_varies() || orders_plain());
    let lower = early
        .then(|| ctx.lower_asmo(&root.asmo))
        .flatten()
        .map(Arc::new);
    let root = (root, lower);
    let mut result = search.contended(0, root, ctx.unit_root(), NodeCheck::default());
    if search.overflow.load(Ordering::Relaxed) {
        return Err(EnumError::thin_air());
    }
    result.1.cut_by_state |= search.cut_by_state.load(Ordering::Relaxed);
    Ok(result)
}

impl<P: PreparedModel, V: Visitor> Search<'_, '_, P, V> {
    fn merge(&self, (a1, mut s1): Acc<V>, (a2, s2): Acc<V>) -> Acc<V> {
        s1.add(&s2);
        (self.ctx.visitor.merge(a1, a2), s1)
    }

    /// Stage 1: explores the subtree below choice `k`, the earlier ones made as in `p`;
    /// `parent` is what the model check of `p` computed, if it ran.
    ///
    /// Depth first with an explicit stack ([`OpenChoice`]): a spin loop unrolled 200
    /// times makes tens of thousands of choices, far more levels than a thread's native
    /// stack holds. The first [`PARALLEL_DEPTH`] choices are split across rayon tasks,
    /// each of which walks its subtree with a stack of its own.
    fn contended(
        &self,
        k: usize,
        p: Stage1<P::Asmo>,
        unit: Unit,
        parent: NodeCheck<P::Node>,
    ) -> Acc<V> {
        let mut out = Acc::<V>::default();
        let mut stack: Vec<OpenChoice<P::Node, P::Asmo>> = Vec::new();
        self.open_choice((k, p, unit, parent), &mut stack, &mut out);
        while let Some(top) = stack.last_mut() {
            let width = self.width(top.k);
            if top.next == width {
                stack.pop();
                continue;
            }
            let i = top.next;
            top.next += 1;
            // Sharding: a branch outside this run's work units is left to another shard.
            let Some(unit) = self.ctx.unit_child(top.unit, i as u64, width as u64) else {
                continue;
            };
            let k = top.k;
            match self.branch(k, (&top.p, &top.lower), &top.check, i) {
                Some((q, check)) => self.open_choice((k + 1, q, unit, check), &mut stack, &mut out),
                None => self.ctx.prune(&mut out.1, unit, self.choice_suffix[k + 1]),
            }
        }
        out
    }

    /// Enters the node of choice `k` with `p`: its subtree is explored at once if it is
    /// stage 1's end (stages 2 and 3) or one of the first [`PARALLEL_DEPTH`] choices (its
    /// branches in parallel), else pushed on `stack` for [`Self::contended`] to walk.
    ///
    /// An orientation the closure of `p.asmo` already implies has one branch that changes
    /// nothing and one that is cut: the cut one is counted and the node is passed through
    /// at once, without a level of the stack (most of a spin loop's choices are such).
    /// The counts are those of exploring both branches in turn; only their order differs,
    /// and the accumulators merge commutatively.
    fn open_choice(
        &self,
        (mut k, (p, lower), mut unit, parent): Entry<P::Node, P::Asmo>,
        stack: &mut Vec<OpenChoice<P::Node, P::Asmo>>,
        out: &mut Acc<V>,
    ) {
        loop {
            if !self.ctx.alive() {
                return;
            }
            if k == self.choices.len() {
                let below = self.other_asmo(p, unit);
                *out = self.merge(std::mem::take(out), below);
                return;
            }
            let Some(implied) = self.implied_branch(k, &p.asmo) else {
                break;
            };
            if let Some(cut) = self.ctx.unit_child(unit, 1 - implied as u64, 2) {
                self.ctx.prune(&mut out.1, cut, self.choice_suffix[k + 1]);
            }
            match self.ctx.unit_child(unit, implied as u64, 2) {
                Some(u) => (unit, k) = (u, k + 1),
                None => return,
            }
        }
        if k >= PARALLEL_DEPTH {
            stack.push(OpenChoice {
                k,
                p,
                lower,
                unit,
                check: parent,
                next: 0,
            });
            return;
        }
        let width = self.width(k);
        let below = (0..width)
            .into_par_iter()
            .map(|i| -> Acc<V> {
                let Some(unit) = self.ctx.unit_child(unit, i as u64, width as u64) else {
                    return Default::default();
                };
                match self.branch(k, (&p, &lower), &parent, i) {
                    Some((q, check)) => self.contended(k + 1, q, unit, check),
                    None => {
                        let mut st = EnumStats::default();
                        self.ctx.prune(&mut st, unit, self.choice_suffix[k + 1]);
                        (V::Acc::default(), st)
                    }
                }
            })
            .reduce(Default::default, |a, b| self.merge(a, b));
        *out = self.merge(std::mem::take(out), below);
    }

    /// The number of branches of choice `k`.
    fn width(&self, k: usize) -> usize {
        match &self.choices[k] {
            Choice::Rf(_, opts) => opts.len(),
            Choice::Orient(..) => 2,
        }
    }

    /// If choice `k` orients a pair that `asmo` (transitively closed) already orders: the
    /// branch that agrees (0 as written, 1 reversed). [`Self::branch`] gives that branch
    /// the parent's execution and check unchanged and cuts the other.
    fn implied_branch(&self, k: usize, asmo: &Rel) -> Option<usize> {
        match self.choices[k] {
            Choice::Orient(a, b) if asmo.contains(a, b) => Some(0),
            Choice::Orient(a, b) if asmo.contains(b, a) => Some(1),
            _ => None,
        }
    }

    /// Branch `i` of choice `k` below `p` (whose check gave `parent`): the partial
    /// execution with the choice made, already checked viable, and what its check
    /// computed; `None` if the branch is cut.
    fn branch(
        &self,
        k: usize,
        (p, lower): (&Partial, &Lower<P::Asmo>),
        parent: &NodeCheck<P::Node>,
        i: usize,
    ) -> Option<Branch<P::Node, P::Asmo>> {
        // A pair placed below (`placed_pairs`) whose reverse `p.asmo` already has closes a
        // cycle, which `asmo_valid` would cut: cut before copying the partial execution.
        if let Choice::Rf(e, opts) = &self.choices[k] {
            if let Source::Write(w) = opts[i] {
                if self.placed_pairs(*e, w).any(|(x, y)| p.asmo.contains(y, x)) {
                    return None;
                }
            }
        }
        let mut q = p.clone();
        match &self.choices[k] {
            Choice::Rf(e, opts) => {
                let src = opts[i];
                assign(&mut q, *e, src);
                if let Source::Write(w) = src {
                    // An RMW follows the write it reads in asmo, and the source is placed
                    // among the writes of the read's thread (see the header).
                    let mut pairs = self.placed_pairs(*e, w).peekable();
                    if pairs.peek().is_some() {
                        pairs.for_each(|(x, y)| q.asmo.insert(x, y));
                        q.asmo.close_in_place();
                    }
                }
                if !self.asmo_valid(&q.asmo) {
                    return None;
                }
                let values = self.ctx.solver.agrees_from(&q.rf_src, parent.values())?;
                let ok = self.core_acyclic(&q.rf, &q.rfinit, &q.asmo)
                    && self.order_may_complete(*e, &q.rf_src, &q.asmo);
                let lower = self.lower_for(&q.asmo, &p.asmo, lower, ok);
                let model = self.model_viable(&q, ok, &lower, parent.model())?;
                let check = NodeCheck {
                    model,
                    values: values.map(Arc::new),
                };
                (!self.skip_by_state(&q.rf_src, &q.asmo)).then_some(((q, lower), check))
            }
            Choice::Orient(a, b) => {
                let (x, y) = if i == 0 { (*a, *b) } else { (*b, *a) };
                if p.asmo.contains(x, y) {
                    // Already implied: nothing changes, the parent's check stands.
                    return Some(((q, lower.clone()), parent.clone()));
                }
                if p.asmo.contains(y, x) {
                    return None;
                }
                add_asmo(&mut q.asmo, x, y);
                let ok = self.asmo_valid(&q.asmo) && self.core_acyclic(&q.rf, &q.rfinit, &q.asmo);
                let lower = self.lower_for(&q.asmo, &p.asmo, lower, ok);
                let model = self.model_viable(&q, ok, &lower, parent.model())?;
                // rf unchanged: the values known are the parent's.
                let check = NodeCheck {
                    model,
                    values: parent.values.clone(),
                };
                (!self.skip_by_state(&q.rf_src, &q.asmo)).then_some(((q, lower), check))
            }
        }
    }

    /// The order lookahead at an RMW's rf choice (see the header): may the location of
    /// `e` still be ordered with the rf and asmo chosen so far? (`true` where it is not
    /// asked.)
    fn order_may_complete(&self, e: usize, rf: &[Option<Source>], asmo: &Rel) -> bool {
        match &self.lookahead {
            Some(l) if self.rmw.contains(e) => l.may_complete(e, rf, asmo),
            _ => true,
        }
    }

    /// The asmo pairs placed when `e` reads `w` (see the header): `w` before an RMW `e`,
    /// and `w` among the writes of `e`'s thread, where the core covers `e`'s location.
    fn placed_pairs(&self, e: usize, w: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let rmw = (self.rmw_after_source.as_ref()).is_some_and(|t| t.covers(e))
            && self.rmw.contains(e)
            && self.allowed.contains(w, e);
        let own = self.po_loc_writes[e].iter().filter_map(move |&(v, after)| {
            let (x, y) = if after { (w, v) } else { (v, w) };
            (v != w && self.allowed.contains(x, y)).then_some((x, y))
        });
        rmw.then_some((w, e)).into_iter().chain(own)
    }

    /// A transitively closed partial asmo that some strict order on mutually ordered
    /// writes may still contain.
    /// (Orientation shape: acyclic is all, see `AsmoOrders`.)
    fn asmo_valid(&self, asmo: &Rel) -> bool {
        asmo.is_irreflexive()
            && (self.ctx.asmo_shape == AsmoShape::Orientation || asmo.is_subset(&self.allowed))
    }

    /// The coherence-core filter, where it is used (true elsewhere: it only filters).
    fn core_acyclic(&self, rf: &Rel, rfinit: &EventSet, asmo: &Rel) -> bool {
        self.core
            .as_ref()
            .is_none_or(|c| c.acyclic(rf, rfinit, asmo))
    }

    /// The asmo-term lower bound for the partial asmo `asmo` of a child whose parent had
    /// `parent_asmo` and the bound `lower`: the parent's, unless the engine's bound varies
    /// with the partial asmo and the child added pairs (then computed anew; not when `ok`
    /// is false, as the child is cut anyway). Every completion of the child's asmo
    /// completes the parent's, so the parent's bound stays a bound; the child's own is
    /// tighter.
    fn lower_for(
        &self,
        asmo: &Rel,
        parent_asmo: &Rel,
        lower: &Lower<P::Asmo>,
        ok: bool,
    ) -> Lower<P::Asmo> {
        if !ok || !self.lower_varies || lower.is_none() || asmo == parent_asmo {
            return lower.clone();
        }
        self.ctx.lower_asmo(asmo).map(Arc::new)
    }

    /// The model check of a stage-1 partial execution, with the asmo lower bound (none
    /// if the engine has no lower bound: then only values and the coherence core cut).
    /// `None` if `ok` is false or the check fails, else what the check computed for the
    /// children (`Some(None)` without a lower bound). `parent`: the parent's, whose
    /// relations the check may share (an engine whose bound does not vary uses one lower
    /// bound throughout, so every node's relations are a function of its sw:
    /// `Ctx::check_node`; the cat engine, whose bound varies, shares nothing).
    fn model_viable(
        &self,
        p: &Partial,
        ok: bool,
        lower: &Lower<P::Asmo>,
        parent: Option<&P::Node>,
    ) -> Option<Option<P::Node>> {
        if !ok {
            return None;
        }
        match lower {
            None => Some(None),
            Some(terms) => self
                .ctx
                .check_node(&p.asmo, terms, &p.rf, &p.rfinit, parent)
                .map(Some),
        }
    }

    /// Stage 2: every completion of stage 1's asmo on the other locations, then stage 3.
    fn other_asmo(&self, p: Partial, unit: Unit) -> Acc<V> {
        let orders = AsmoOrders::seeded(
            &p.asmo,
            self.allowed.clone(),
            self.other_pairs.clone(),
            self.ctx.asmo_shape,
        );
        let run = |(index, a): (usize, Rel)| {
            // The order's number is a digit of the work unit; the number of orders is not
            // known in advance, so it does not count towards the unit's width.
            let Some(unit) = self.ctx.unit_child(unit, index as u64, 1) else {
                return Default::default();
            };
            let asmo: Asmo<P> = self.ctx.asmo(a);
            let mut q = p.clone();
            self.subtree(&asmo, 0, &mut q, unit, None, None)
        };
        if self.other_pairs.is_empty() {
            // One order (stage 1's, already complete): no need for a parallel bridge.
            return orders
                .take_while(|_| self.ctx.alive())
                .enumerate()
                .map(run)
                .fold(Default::default(), |a, b| self.merge(a, b));
        }
        orders
            .take_while(|_| self.ctx.alive())
            .enumerate()
            .par_bridge()
            .map(run)
            .reduce(Default::default, |a, b| self.merge(a, b))
    }

    /// Can the partial execution still be completed into a consistent one (asmo complete)?
    /// If so, what the model check computed, for the children (`parent` is the parent
    /// node's), and whether the witness of this node passes the model check, if known
    /// (`witness`: known from the parent, whose first child shares its witness).
    fn viable(
        &self,
        (asmo, state): &Asmo<P>,
        p: &Partial,
        depth: usize,
        parent: Option<&NodeCheck<P::Node>>,
        witness: Option<bool>,
    ) -> Option<(NodeCheck<P::Node>, Option<bool>)> {
        let values =
            (self.ctx.solver).agrees_from(&p.rf_src, parent.and_then(NodeCheck::values))?;
        if !self.core_acyclic(&p.rf, &p.rfinit, asmo) {
            return None;
        }
        let witness = witness.or_else(|| self.witness((asmo, state), p, depth));
        let model = if witness == Some(true) {
            P::Node::default()
        } else {
            (self.ctx).check_node(
                asmo,
                state,
                &p.rf,
                &p.rfinit,
                parent.and_then(NodeCheck::model),
            )?
        };
        let check = NodeCheck {
            model: Some(model),
            values: values.map(Arc::new),
        };
        Some((check, witness))
    }

    /// Does the witness of the node of `p` at `depth` pass the model check? The witness
    /// is `p` completed with the option each open read had last (`Partial::last`, the
    /// first its subtree tries: [`Self::node`]): its rf and RFINIT contain
    /// the node's, and the model check is monotone (a check that fails on a partial
    /// candidate fails on every candidate with more rf/RFINIT pairs: the cut checks of
    /// `vkherd_cat::mono`, the same argument as the check's own), so a witness that
    /// passes proves the node passes, without computing the node's check. A failing
    /// witness proves nothing: the node is then checked itself. The node's first child
    /// has the same witness. The witness is the subtree's first leaf, whose evaluation
    /// then finds the model's values in place, and differs from the candidate evaluated
    /// before it in one read; where most subtrees are consistent (MP chains) witnesses
    /// replace the nodes' checks.
    ///
    /// `None` where not tried: engines whose check hands relations to the children
    /// (`Ctx::checks_by_witness`), and searches where witnesses mostly fail (checking a
    /// failed witness and then the node costs two checks), judged from the witnesses
    /// tried so far. Either way the node's answer is the same, so what is tried changes
    /// only the time, never the output.
    fn witness(&self, (asmo, state): (&Rel, &P::Asmo), p: &Partial, depth: usize) -> Option<bool> {
        if !self.ctx.opts.witnesses || !self.ctx.checks_by_witness() {
            return None;
        }
        if !self.ctx.witnesses.worth_trying() {
            return None;
        }
        let (mut rf, mut rfinit) = (p.rf.clone(), p.rfinit.clone());
        for d in depth..self.reads.len() {
            match self.options[d].get(p.last[d])? {
                Source::Init => rfinit.insert(self.reads[d]),
                Source::Write(w) => rf.insert(*w, self.reads[d]),
            }
        }
        let passes = (self.ctx)
            .check_node(asmo, state, &rf, &rfinit, None)
            .is_some();
        self.ctx.witnesses.record(passes);
        Some(passes)
    }

    /// Stage 3: explores the subtree where reads `0..depth` are assigned as in `p`
    /// (restored on return). `parent`: what the parent node's model check computed.
    ///
    /// Depth first with an explicit stack ([`OpenRead`]; one level per read, and a loop
    /// unrolled many times has many reads), assigning and unassigning the reads in `p`
    /// in place. The first [`PARALLEL_DEPTH`] reads are split across rayon tasks, each
    /// of which walks its subtree with a stack of its own. One accumulator serves a
    /// whole sequential subtree (merging one per node cost 6% of MP chain 8).
    fn subtree(
        &self,
        asmo: &Asmo<P>,
        depth: usize,
        p: &mut Partial,
        unit: Unit,
        parent: Option<&NodeCheck<P::Node>>,
        witness: Option<bool>,
    ) -> Acc<V> {
        let mut out = Acc::<V>::default();
        let mut stack: Vec<OpenRead<P::Node>> = Vec::new();
        let root = (unit, parent, witness);
        if let Some(node) = self.open_read(asmo, depth, p, root, &mut out) {
            stack.push(node);
        }
        while let Some(top) = stack.last_mut() {
            let e = self.reads[top.depth];
            let sources = &self.options[top.depth];
            if let Some(j) = top.assigned.take() {
                unassign(p, e, sources[j]);
            }
            if top.next == sources.len() {
                stack.pop();
                continue;
            }
            let j = top.nth_child(top.next);
            top.next += 1;
            let Some(unit) = self
                .ctx
                .unit_child(top.unit, j as u64, sources.len() as u64)
            else {
                continue;
            };
            p.last[top.depth] = j;
            assign(p, e, sources[j]);
            top.assigned = Some(j);
            // The first child shares the node's witness ([`Self::witness`]).
            let witness = if j == top.first { top.witness } else { None };
            let child = (unit, Some(&top.check), witness);
            if let Some(node) = self.open_read(asmo, top.depth + 1, p, child, &mut out) {
                stack.push(node);
            }
        }
        out
    }

    /// Enters the node at `depth` with `p`: a leaf is visited, a node cut is counted, a
    /// node among the first [`PARALLEL_DEPTH`] is explored at once (its children in
    /// parallel); any other node that passes its checks is returned, for
    /// [`Self::subtree`] to walk its children.
    fn open_read(
        &self,
        asmo: &Asmo<P>,
        depth: usize,
        p: &mut Partial,
        (unit, parent, witness): (Unit, Option<&NodeCheck<P::Node>>, Option<bool>),
        out: &mut Acc<V>,
    ) -> Option<OpenRead<P::Node>> {
        let (acc, st) = out;
        if depth == self.reads.len() {
            if self.ctx.unit_counts(unit) {
                self.leaf(asmo, p, acc, st, parent);
            }
            return None;
        }
        if !self.ctx.alive() {
            return None;
        }
        // The root's check covers asmo and stage 1's rf; deeper checks cover each new rf
        // pair.
        let (check, witness) = match self.viable(asmo, p, depth, parent, witness) {
            Some(eval) if !self.skip_by_state(&p.rf_src, &asmo.0) => eval,
            _ => {
                self.ctx.prune(st, unit, self.suffix[depth]);
                return None;
            }
        };
        // The option chosen last at this depth goes first, and so on down: each leaf
        // then differs from the one before in one read only (the deepest whose option
        // changed), and the first child's first leaf is this node's witness, which it
        // shares ([`Self::witness`]). The model's memo recomputes little between
        // candidates that close; the order changes nothing else.
        let node = OpenRead {
            depth,
            unit,
            check,
            witness,
            first: p.last[depth],
            next: 0,
            assigned: None,
        };
        if depth >= PARALLEL_DEPTH {
            return Some(node);
        }
        let e = self.reads[depth];
        let sources = &self.options[depth];
        let below = ((0..sources.len()).map(|n| node.nth_child(n)))
            .collect::<Vec<_>>()
            .into_par_iter()
            .filter_map(|j| {
                let unit = self.ctx.unit_child(unit, j as u64, sources.len() as u64)?;
                let mut q = p.clone();
                q.last[depth] = j;
                assign(&mut q, e, sources[j]);
                let witness = if j == node.first { node.witness } else { None };
                Some(self.subtree(asmo, depth + 1, &mut q, unit, Some(&node.check), witness))
            })
            .reduce(Default::default, |a, b| self.merge(a, b));
        *out = self.merge(std::mem::take(out), below);
        None
    }

    /// A cut by the final-state columns ([`Ctx::skip_by_state`]), remembered: the
    /// consistent executions counted are then not all there are.
    fn skip_by_state(&self, rf: &[Option<Source>], asmo: &Rel) -> bool {
        let skip = self.ctx.skip_by_state(rf, asmo);
        if skip {
            self.cut_by_state.store(true, Ordering::Relaxed);
        }
        skip
    }

    fn leaf(
        &self,
        asmo: &Asmo<P>,
        p: &Partial,
        acc: &mut V::Acc,
        st: &mut EnumStats,
        parent: Option<&NodeCheck<P::Node>>,
    ) {
        if self.ctx.visitor.done() || !self.ctx.budget.take() {
            return;
        }
        let known = parent.and_then(NodeCheck::values);
        let Ok(solutions) = self.ctx.solver.solve_from(&p.rf_src, known) else {
            self.overflow.store(true, Ordering::Relaxed);
            return;
        };
        // The coherence filter at the leaf too: an inconsistent leaf (writes-readers 5:
        // 42% of the leaves) is mostly a coherence cycle the core already has, and the
        // model is not evaluated for it (the filter's soundness is at `core_acyclic`).
        self.ctx.visit_leaf_filtered(
            acc,
            st,
            (&p.rf, &p.rfinit, asmo),
            &solutions,
            parent.and_then(NodeCheck::model),
            || self.core_acyclic(&p.rf, &p.rfinit, &asmo.0),
        );
    }
}

/// The screen's coherence test for the search's nodes, on this path combination.
fn lookahead<P: PreparedModel, V: Visitor>(
    ctx: &Ctx<'_, P, V>,
    terms: Option<&CoreTerms>,
) -> Option<Lookahead> {
    let (paths, lay) = ctx.solver.combination();
    let rf_allowed = |e: usize, s: Source| ctx.visitor.rf_allowed(e, s);
    screen::lookahead(&screen::Combination {
        program: ctx.program,
        paths: paths.to_vec(),
        lay,
        universe: ctx.solver.universe(),
        roles: None,
        rf_allowed: &rf_allowed,
        core: terms.map(|t| screen::Core::new(ctx.s, t.clone(), &ctx.asmo_pairs)),
        probe_values: true,
    })
}

/// For each event, the writes it is `po_loc`-related to (`po & sloc & sref`), with `true`
/// for those after it: where coherence-first placing applies (the core has `po_loc` and
/// covers the event's location; see the header), else nothing.
fn po_loc_writes(s: &Statics, terms: Option<&CoreTerms>) -> Vec<Vec<(usize, bool)>> {
    let mut out = vec![Vec::new(); s.n()];
    let Some(terms) = terms.filter(|t| t.po_loc) else {
        return out;
    };
    let writes = s.set(StaticSet::W);
    for (e, v) in crate::coherence::po_loc(s).pairs() {
        if terms.covers(e) && writes.contains(v) {
            out[e].push((v, true));
        }
        if terms.covers(v) && writes.contains(e) {
            out[v].push((e, false));
        }
    }
    out
}

/// Adds `x asmo y` to a transitively closed relation, keeping it closed.
fn add_asmo(asmo: &mut Rel, x: usize, y: usize) {
    asmo.insert(x, y);
    asmo.close_in_place();
}

fn assign(p: &mut Partial, e: usize, src: Source) {
    p.rf_src[e] = Some(src);
    match src {
        Source::Init => p.rfinit.insert(e),
        Source::Write(w) => p.rf.insert(w, e),
    }
}

fn unassign(p: &mut Partial, e: usize, src: Source) {
    p.rf_src[e] = None;
    match src {
        Source::Init => p.rfinit.remove(e),
        Source::Write(w) => p.rf.remove(w, e),
    }
}
