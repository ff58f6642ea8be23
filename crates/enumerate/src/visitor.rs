//! What the enumerator hands each candidate to: the [`Visitor`] and its view of a
//! candidate.

use crate::engine::Judgement;
use crate::values::Values;
use vkherd_model::{EventSet, Rel, Statics};

/// One candidate execution, with its values and the model's verdict and relations.
pub struct CandidateView<'a, J> {
    pub statics: &'a Statics,
    pub rf: &'a Rel,
    pub rfinit: &'a EventSet,
    pub asmo: &'a Rel,
    pub values: &'a Values,
    /// The model's judgement (race flag, and the relations the visitor asked for).
    pub eval: &'a J,
    /// Every non-flag check of the model holds.
    pub consistent: bool,
}

/// Judges candidates and accumulates results. `merge` must be commutative and
/// associative so that results do not depend on how rayon splits the work.
pub trait Visitor: Sync {
    type Acc: Send + Default;
    fn visit<J: Judgement>(&self, acc: &mut Self::Acc, c: &CandidateView<'_, J>);
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// True if the visitor must see inconsistent candidates too (then nothing may be
    /// pruned for inconsistency and the plain enumeration runs).
    fn needs_inconsistent(&self) -> bool {
        false
    }
    /// True if the visitor may cut subtrees by the final-state columns they determine
    /// ([`Visitor::skip`]).
    fn cuts_by_state(&self) -> bool {
        false
    }
    /// May every candidate below a partial execution whose observed columns are `known`
    /// (`None` = not yet determined; see `columns::known_columns`) be skipped without
    /// changing the visitor's result? Must be sound for every completion.
    fn skip(&self, _known: &[Option<i64>]) -> bool {
        false
    }
    /// True once the visitor needs no more candidates (the run stops, not partial).
    fn done(&self) -> bool {
        false
    }
    /// The model's named relations the visitor reads, each then found by its place in
    /// this list ([`crate::engine::Wanted`], [`Judgement::rel`]).
    fn wanted(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// May read event `read` take its value from `source`? A visitor may say no only
    /// where its `visit` rejects every candidate with that rf pair (it checks again), so
    /// that the pruned search, which then never offers the pair, finds what the plain
    /// enumeration finds (liveness: the lap rule's rf conditions).
    fn rf_allowed(&self, _read: usize, _source: crate::values::Source) -> bool {
        true
    }
    /// May the search of one barrier meeting (its static relations `s`, the shortcuts
    /// its model allows there, the pairs asmo orders) find a candidate `visit` counts?
    /// A visitor may say no only when none of the meeting's candidates is one it counts
    /// and the search could not stop with an error there; the meeting is then not
    /// searched (liveness: the screen, liveness/screen.rs).
    fn may_find(
        &self,
        _s: &vkherd_model::Statics,
        _shortcuts: &crate::Shortcuts,
        _asmo_pairs: &vkherd_model::Rel,
    ) -> bool {
        true
    }
}
