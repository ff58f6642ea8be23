//! A cheap necessary condition for a model's consistency, used by the search as a filter
//! before the full model check, for the models that entail it
//! ([`crate::Shortcuts::core`]: derived from the model's checks by
//! `vkherd_cat::shortcuts`, which gives the proofs; declared by the hand-written engine).

use crate::engine::CoreTerms;
use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

/// The static parts of the coherence core of one path combination.
pub(crate) struct CoherenceCore {
    /// `po & sloc & sref` (`po_loc`), if the model's core has it (empty otherwise).
    po_loc: Rel,
    /// Its `W -> W` part, if the model's core has `fr_ww` (empty otherwise).
    po_loc_ww: Rel,
    /// `sloc . [W] - iden`: what a read of the initial value is fr-before.
    sloc_w: Rel,
    iden: Rel,
    /// `sloc` on the covered locations' accesses, when the core covers only some
    /// ([`CoreTerms::events`]): the union is checked within it.
    covered: Option<Rel>,
}

/// The core's `po_loc` term, `po & sloc & sref`: program order between accesses to one
/// location through one reference.
pub(crate) fn po_loc(s: &Statics) -> Rel {
    s.rel(StaticRel::Po)
        .inter(s.rel(StaticRel::Sloc))
        .inter(s.rel(StaticRel::Sref))
}

impl CoherenceCore {
    pub(crate) fn new(s: &Statics, terms: &CoreTerms) -> CoherenceCore {
        let po_loc = po_loc(s);
        let po_loc_ww = match terms.fr_ww {
            true => po_loc.restrict(s.set(StaticSet::W), s.set(StaticSet::W)),
            false => Rel::empty(s.n()),
        };
        CoherenceCore {
            po_loc_ww,
            po_loc: match terms.po_loc {
                true => po_loc,
                false => Rel::empty(s.n()),
            },
            sloc_w: s
                .rel(StaticRel::Sloc)
                .restrict_range(s.set(StaticSet::W))
                .minus(s.rel(StaticRel::Id)),
            iden: s.rel(StaticRel::Id).clone(),
            covered: terms
                .events
                .as_ref()
                .map(|e| s.rel(StaticRel::Sloc).restrict(e, e)),
        }
    }

    /// Is `po_loc + rf + asmo + ~rf.asmo + ~rf.(po_loc & W->W) + [RFINIT].sloc.[W] - iden`
    /// acyclic (without the `po_loc` terms the model's core lacks)? Each term only grows
    /// along a branch of the search (rf, RFINIT and the transitively closed asmo gain
    /// pairs), so a cycle on a partial candidate is a cycle of every completion, and the
    /// model entails the acyclicity of this union in every consistent candidate (for
    /// Vulkan's model: every term is within `locord + rf + fr + asmo`, the first axiom's
    /// relation; the general argument is `vkherd_cat::shortcuts`'s). The full check
    /// implies this one: it only saves time when it fails.
    pub(crate) fn acyclic(&self, rf: &Rel, rfinit: &EventSet, asmo: &Rel) -> bool {
        // ~rf.asmo + ~rf.(po_loc & W->W) as ~rf.(asmo + (po_loc & W->W)): one composition.
        let mut later = asmo.union(&self.po_loc_ww);
        let mut core = rf.inv().seq(&later);
        core.minus_with(&self.iden);
        core.union_with(&self.po_loc);
        core.union_with(rf);
        core.union_with(asmo);
        later.copy_from(&self.sloc_w);
        later.restrict_domain_with(rfinit);
        core.union_with(&later);
        // Where the model entails the core on some locations only, it entails the
        // acyclicity of the union restricted to `sloc` on their accesses
        // (`vkherd_cat::shortcuts`): only cycles there cut.
        if let Some(c) = &self.covered {
            core.inter_with(c);
        }
        core.is_acyclic()
    }
}
