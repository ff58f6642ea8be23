//! A cheap necessary condition for the model's first axiom, used by the search as a
//! filter before the full model check. Model-specific: it relies on the containments
//! below, which a new model engine must keep or drop this filter.

use vkherd_model::{EventSet, Rel, StaticRel, StaticSet, Statics};

/// The static parts of the coherence core of one path combination.
pub(crate) struct CoherenceCore {
    /// `po & sloc & sref`: contained in every execution's `locord` (`locord` contains
    /// `sloc & (hb & sthd & sref)`, and `hb` contains `po`, which is within `sthd`).
    po_loc: Rel,
    /// Its `W -> W` part.
    po_loc_ww: Rel,
    /// `sloc . [W] - iden`: what a read of the initial value is fr-before.
    sloc_w: Rel,
    iden: Rel,
}

impl CoherenceCore {
    pub(crate) fn new(s: &Statics) -> CoherenceCore {
        let po_loc = s
            .rel(StaticRel::Po)
            .inter(s.rel(StaticRel::Sloc))
            .inter(s.rel(StaticRel::Sref));
        CoherenceCore {
            po_loc_ww: po_loc.restrict(s.set(StaticSet::W), s.set(StaticSet::W)),
            po_loc,
            sloc_w: s
                .rel(StaticRel::Sloc)
                .restrict_range(s.set(StaticSet::W))
                .minus(s.rel(StaticRel::Id)),
            iden: s.rel(StaticRel::Id).clone(),
        }
    }

    /// Is `po_loc + rf + asmo + ~rf.asmo + ~rf.(po_loc & W->W) + [RFINIT].sloc.[W] - iden`
    /// acyclic? Every term is contained in `locord + rf + fr + asmo` of every completion
    /// of the partial (rf, RFINIT, asmo) (`asmo` transitively closed; `fr` = ~rf.((W->W) &
    /// locord) + ~rf.asmo + [RFINIT].sloc.[W] - iden, with `locord` and `asmo` shrunk to
    /// parts of them), so a cycle here is a cycle of the first axiom of `consistent` in
    /// every completion. The full check implies this one: it only saves time when it
    /// fails.
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
        core.is_acyclic()
    }
}
