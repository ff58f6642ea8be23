//! What one search (one path combination and barrier meeting) needs, and its view of the
//! run besides the model.

use crate::budget::Budget;
use crate::columns;
use crate::engine::{Asmo, Capabilities, PreparedModel, Shortcuts};
use crate::options::EnumOptions;
use crate::shard::{mix, Unit};
use crate::stats::EnumStats;
use crate::values::{self, ValueSolver, Values};
use crate::visitor::{CandidateView, Visitor};
use crate::witness::WitnessTally;
use std::sync::atomic::Ordering;
use vkherd_model::axioms::Candidate;
use vkherd_model::{AsmoShape, EventSet, Program, Rel, Statics};

/// What the rf × asmo enumeration of one path combination needs.
pub(crate) struct Ctx<'a, P, V> {
    pub program: &'a Program,
    pub s: &'a Statics,
    /// The model, prepared for this path combination and barrier meeting.
    pub model: &'a P,
    /// What the engine lets the search do besides judging.
    pub caps: Capabilities,
    /// The shortcuts the model allows on this path combination
    /// ([`Engine::shortcuts`], or the engine's claim, [`Capabilities::claimed`]).
    pub shortcuts: Shortcuts,
    /// The pairs asmo orders (`candidates::asmo_pairs`: the dialect's, or the model's).
    pub asmo_pairs: Rel,
    /// What asmo is over them.
    pub asmo_shape: AsmoShape,
    pub solver: &'a ValueSolver<'a>,
    pub opts: &'a EnumOptions,
    pub visitor: &'a V,
    pub budget: &'a Budget,
    /// How the searches' witnesses fared so far (`Search::witness`).
    pub witnesses: &'a WitnessTally,
    /// This search's path combination and barrier-meeting choice numbers (for sharding).
    pub unit: (u64, u64),
    /// This search is split among the shards (else it is run whole, or not at all).
    pub split: bool,
}

// The search's view of the model: the engine's calls, on this search's preparation.
impl<P: PreparedModel, V> Ctx<'_, P, V> {
    /// The per-asmo part of the model for `asmo`.
    pub(crate) fn asmo(&self, asmo: Rel) -> Asmo<P> {
        let state = self.model.for_asmo(&asmo);
        (asmo, state)
    }

    /// [`PreparedModel::check_node`] on the partial candidate (`rf`, `rfinit`, `asmo`).
    pub(crate) fn check_node(
        &self,
        asmo: &Rel,
        state: &P::Asmo,
        rf: &Rel,
        rfinit: &EventSet,
        parent: Option<&P::Node>,
    ) -> Option<P::Node> {
        (self.model).check_node(Candidate { rf, rfinit, asmo }, state, parent)
    }

    /// [`PreparedModel::lower_asmo`] for the partial asmo `partial`.
    pub(crate) fn lower_asmo(&self, partial: &Rel) -> Option<P::Asmo> {
        self.model.lower_asmo(partial, &self.asmo_pairs)
    }

    /// May a node's model check be answered by a witness ([`Capabilities::witness_checks`])?
    pub(crate) fn checks_by_witness(&self) -> bool {
        self.caps.witness_checks
    }
}

// The search's view of a run besides the model: liveness, cuts by state, sharding and
// pruned counts.
impl<P: PreparedModel, V: Visitor> Ctx<'_, P, V> {
    /// False once the budget is spent, the time is up or the visitor is done.
    pub fn alive(&self) -> bool {
        self.budget.alive() && !self.visitor.done()
    }

    /// May the subtree below this partial execution (`asmo` transitively closed) be skipped
    /// for what it can still add to the visitor's result? Only visitors that cut by state
    /// ever say yes.
    pub fn skip_by_state(&self, rf: &[Option<values::Source>], asmo: &Rel) -> bool {
        if !self.visitor.cuts_by_state() {
            return false;
        }
        let known = columns::known_columns(
            self.program,
            self.s,
            self.solver,
            rf,
            asmo,
            self.shortcuts.final_by_asmo.then_some(&self.asmo_pairs),
        );
        self.visitor.skip(&known)
    }

    /// The sharding position of this search's root ([`unit_root`]).
    pub(crate) fn unit_root(&self) -> Unit {
        unit_root(self.opts, self.unit, self.split)
    }

    /// The sharding position of branch `digit` of `width` below `unit`; `None` if that
    /// branch is a work unit of another shard.
    pub(crate) fn unit_child(&self, unit: Unit, digit: u64, width: u64) -> Option<Unit> {
        unit.child(self.opts.run.shard.filter(|_| self.split), digit, width)
    }

    /// Does this run count what happens at a node (a leaf examined, a subtree pruned)?
    /// Inside an owned unit yes; above the units, only the shard owning the node's hash.
    pub(crate) fn unit_counts(&self, unit: Unit) -> bool {
        unit.counts(self.opts.run.shard.filter(|_| self.split))
    }

    /// Plain enumeration's sharding: every candidate (rf number, asmo number) is a unit.
    pub(crate) fn owns_candidate(&self, rf: u64, asmo: u64) -> bool {
        match self.unit_root() {
            Unit::Open { hash, .. } => self.unit_counts(Unit::Open {
                hash: mix(mix(hash, rf), asmo),
                width: 1,
            }),
            Unit::Owned => true,
        }
    }

    /// Counts `n` candidates cut away without being examined at a node in `unit`.
    pub(crate) fn prune(&self, st: &mut EnumStats, unit: Unit, n: u128) {
        prune(self.opts, self.split, st, unit, n)
    }

    /// Values, then relations, then the visitor, for one complete candidate.
    pub fn visit_leaf(
        &self,
        acc: &mut V::Acc,
        st: &mut EnumStats,
        rf: &Rel,
        rfinit: &EventSet,
        asmo: &Asmo<P>,
        solutions: &[Values],
    ) {
        self.visit_leaf_filtered(acc, st, (rf, rfinit, asmo), solutions, None, || true);
    }

    /// [`Self::visit_leaf`] with a cheap necessary condition for consistency, tried after
    /// the values and before the model: when `may_be_consistent` says no, the candidate
    /// is counted as examined and inconsistent without evaluating the model. Only for
    /// visitors that never see inconsistent candidates (the pruned search's). `parent`:
    /// what the model check of the leaf's parent node gave (`Ctx::check_node`).
    pub(crate) fn visit_leaf_filtered(
        &self,
        acc: &mut V::Acc,
        st: &mut EnumStats,
        (rf, rfinit, asmo): (&Rel, &EventSet, &Asmo<P>),
        solutions: &[Values],
        parent: Option<&P::Node>,
        may_be_consistent: impl FnOnce() -> bool,
    ) {
        st.candidates += 1;
        if let Some(p) = &self.opts.run.progress {
            p.fetch_add(1, Ordering::Relaxed);
        }
        if solutions.is_empty() {
            st.value_mismatch += 1;
            return;
        }
        if !self.visitor.needs_inconsistent() && !may_be_consistent() {
            return;
        }
        let cand = Candidate {
            rf,
            rfinit,
            asmo: &asmo.0,
        };
        let (eval, consistent) = self.model.judge(cand, &asmo.1, parent);
        if !consistent && !self.visitor.needs_inconsistent() {
            return;
        }
        for values in solutions {
            if values.thin_air {
                st.thin_air += 1;
                if self.opts.run.no_thin_air {
                    continue;
                }
            }
            let view = CandidateView {
                statics: self.s,
                rf,
                rfinit,
                asmo: &asmo.0,
                values,
                eval: &eval,
                consistent,
            };
            self.visitor.visit(acc, &view);
        }
    }
}

/// The sharding position of the root of the search of `unit` (path combination, barrier
/// meeting): owned without sharding, else undecided with the unit's hash.
pub(crate) fn unit_root(opts: &EnumOptions, unit: (u64, u64), split: bool) -> Unit {
    match opts.run.shard {
        Some(_) if split => Unit::Open {
            hash: mix(mix(0, unit.0), unit.1),
            width: 1,
        },
        _ => Unit::Owned,
    }
}

/// Counts `n` candidates cut away without being examined at a node in `unit`, if this
/// run counts what happens there (inside an owned unit; above the units, only the shard
/// owning the node's hash).
pub(crate) fn prune(opts: &EnumOptions, split: bool, st: &mut EnumStats, unit: Unit, n: u128) {
    if !unit.counts(opts.run.shard.filter(|_| split)) {
        return;
    }
    st.pruned = st.pruned.saturating_add(n);
    if let Some(p) = &opts.run.progress {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        let _ = p.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
            Some(v.saturating_add(n))
        });
    }
}
