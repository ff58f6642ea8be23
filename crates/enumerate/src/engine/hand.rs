//! The hand-written Rust transcription of the Vulkan model (`vkherd_model::axioms`) as an
//! [`Engine`]: the reference the cat engine is tested against (`--model hand:vulkan`).
//!
//! Its shortcuts, each giving what the plain per-candidate computation gives
//! (tests/hand_model_shortcuts.rs): relations that do not depend on rf computed once per
//! asmo, `co` once per asmo, a search node's relations shared with its parent's when its
//! sw is the parent's.

use super::{Capabilities, Engine, Judgement, PreparedModel, Shortcuts, Wanted};
use std::borrow::Cow;
use std::sync::Arc;
use vkherd_model::axioms::{sw, AsmoTerms, Candidate, StaticTerms};
use vkherd_model::{Derived, ModelOptions, Rel, Statics};

/// The hand-written Vulkan model with the options it runs with (the variant, `no-chains`
/// and `mmra`, docs/mmra.md).
///
/// It declares every shortcut ([`Shortcuts::ALL`]), by the argument of
/// `vkherd_cat::shortcuts` for its first form, here by reading the Rust rather than the
/// IR: `Derived::locord` contains `po & sloc & sref` (its single-thread term), `fr` is
/// the Alloy file's (`~rf.((W->W)&locord) + ~rf.asmo + [RFINIT].sloc.[W] - iden`), so
/// every term of the coherence filter is within `locord + rf + fr + asmo`, whose
/// acyclicity is the first axiom; and the visitors' `co` is `(locord + asmo)+`, within
/// the same acyclic relation. The `mmra` variant keeps `po & sref` in the single-thread
/// term (docs/mmra.md). (vulkan.cat, the same model, gets the same shortcuts derived by
/// the cat crate: crates/cat/tests/shortcuts.rs.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HandEngine {
    pub options: ModelOptions,
}

/// The relations the hand-written model names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HandRel {
    Co,
    Dr,
    Rs,
    Hypors,
    Sw,
    Hb,
    Locord,
    Fr,
}

impl HandRel {
    fn by_name(name: &str) -> Option<HandRel> {
        Some(match name {
            "co" => HandRel::Co,
            "dr" => HandRel::Dr,
            "rs" => HandRel::Rs,
            "hypors" => HandRel::Hypors,
            "sw" => HandRel::Sw,
            "hb" => HandRel::Hb,
            "locord" => HandRel::Locord,
            "fr" => HandRel::Fr,
            _ => return None,
        })
    }
}

/// The model specialised to one path combination.
pub struct HandPrepared<'a> {
    s: &'a Statics,
    terms: StaticTerms,
    /// The visitor's relations, by [`Wanted`] handle.
    wanted: Vec<Option<HandRel>>,
    /// The visitor reads `co`.
    wants_co: bool,
}

/// The per-asmo part of the model: the asmo terms, and `co = (locord + asmo)+` when it is
/// the same for every candidate of the asmo (`AsmoTerms::rf_free`: locord does not
/// depend on rf) and the visitor wants it.
pub struct HandAsmo {
    terms: AsmoTerms,
    co: Option<Rel>,
}

/// The relations of a candidate, shared with its parent node's when possible, and the
/// candidate's `fr` when they are shared (their `fr` is another's).
type Relations<'x> = (Cow<'x, Derived>, Option<Rel>);

/// What the model says about one complete candidate.
pub struct HandJudgement<'x> {
    /// The derived relations: the candidate's own, or, when they do not depend on rf,
    /// the asmo's (whose `fr` is then replaced by `fr`).
    derived: Cow<'x, Derived>,
    /// The candidate's `fr` when `derived` is the asmo's.
    fr: Option<Rel>,
    /// `(locord + asmo)+`, when asked for.
    co: Option<Cow<'x, Rel>>,
    wanted: &'x [Option<HandRel>],
}

impl Judgement for HandJudgement<'_> {
    fn flagged(&self) -> bool {
        self.derived.racy()
    }

    fn flag_bits(&self) -> u64 {
        u64::from(self.derived.racy())
    }

    fn rel(&self, w: Wanted) -> Option<&Rel> {
        let d = &self.derived;
        Some(match (*self.wanted.get(w.0)?)? {
            HandRel::Co => self.co.as_deref()?,
            HandRel::Dr => &d.dr,
            HandRel::Rs => &d.rs,
            HandRel::Hypors => &d.hypors,
            HandRel::Sw => &d.sw,
            HandRel::Hb => &d.hb,
            HandRel::Locord => &d.locord,
            HandRel::Fr => self.fr.as_ref().unwrap_or(&d.fr),
        })
    }
}

impl Engine for HandEngine {
    type Prepared<'a> = HandPrepared<'a>;

    /// No witness checks: the node check hands its relations to the children, which a
    /// witness would not compute.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            witness_checks: false,
            claimed: None,
        }
    }

    /// One flag, the model's `racefree` predicate failing: the data race.
    fn flags(&self) -> Vec<vkherd_model::ModelFlag> {
        vec![vkherd_model::ModelFlag::DataRace]
    }

    fn statics_options(&self) -> ModelOptions {
        self.options
    }

    /// No: the hand-written Vulkan axioms (`vkherd_model::axioms`) have no dependency.
    fn reads_dependencies(&self) -> bool {
        false
    }

    fn prepare<'a>(&'a self, s: &'a Statics, wanted: &[&str]) -> HandPrepared<'a> {
        let wanted: Vec<Option<HandRel>> = wanted.iter().map(|w| HandRel::by_name(w)).collect();
        HandPrepared {
            s,
            terms: StaticTerms::new(s),
            wants_co: wanted.contains(&Some(HandRel::Co)),
            wanted,
        }
    }

    /// Every shortcut (see [`HandEngine`]).
    fn shortcuts(&self, _: &Statics, _: &Rel) -> Shortcuts {
        Shortcuts::ALL
    }
}

impl PreparedModel for HandPrepared<'_> {
    type Asmo = HandAsmo;
    /// The relations of the node's partial candidate, when the children may share them.
    type Node = Option<Arc<Derived>>;
    type Judgement<'x>
        = HandJudgement<'x>
    where
        Self: 'x;

    fn for_asmo(&self, asmo: &Rel) -> HandAsmo {
        let terms = AsmoTerms::new(self.s, &self.terms, asmo);
        // Without rf in locord, co is the asmo's (see `HandAsmo`).
        let co = match &terms.rf_free {
            Some(d) if self.wants_co => Some(d.locord.union(asmo).plus()),
            _ => None,
        };
        HandAsmo { terms, co }
    }

    /// The terms of the empty order. Sound: `rs` and `hypors` are
    /// `stor[..] . *(imm[asmo] . ..)`, and `*` contains the identity, so the empty asmo
    /// gives `stor[REL&A]` and `stor[W&A]`, which every asmo's `rs`/`hypors` contain;
    /// `release` is built from them with `.` and `+` only. (The exact terms of a partial
    /// asmo would not be a bound: `imm[asmo]` is not monotone in asmo.)
    fn lower_asmo(&self, _: &Rel, _: &Rel) -> Option<HandAsmo> {
        Some(HandAsmo {
            terms: AsmoTerms::new(self.s, &self.terms, &Rel::empty(self.s.n())),
            co: None,
        })
    }

    /// Every relation of `consistent` is monotone in rf and RFINIT (the argument is in
    /// search.rs).
    fn check_node(
        &self,
        c: Candidate<'_>,
        asmo: &HandAsmo,
        parent: Option<&Self::Node>,
    ) -> Option<Self::Node> {
        let (derived, fr) = self.relations(&asmo.terms, c, parent);
        let fr_ref = fr.as_ref().unwrap_or(&derived.fr);
        if !Derived::consistent_given(self.s, c, &derived.locord, fr_ref) {
            return None;
        }
        Some(match (derived, &asmo.terms.rf_free) {
            (_, Some(_)) => None,
            (Cow::Owned(d), None) => Some(Arc::new(d)),
            // Shared with the parent: the children share it too.
            (Cow::Borrowed(_), None) => parent.cloned().flatten(),
        })
    }

    fn judge<'x>(
        &'x self,
        c: Candidate<'_>,
        asmo: &'x HandAsmo,
        parent: Option<&'x Self::Node>,
    ) -> (HandJudgement<'x>, bool) {
        let (derived, fr) = self.relations(&asmo.terms, c, parent);
        let consistent = Derived::consistent_given(
            self.s,
            c,
            &derived.locord,
            fr.as_ref().unwrap_or(&derived.fr),
        );
        let co = match &asmo.co {
            Some(co) if self.wants_co => Some(Cow::Borrowed(co)),
            _ => self
                .wants_co
                .then(|| Cow::Owned(derived.locord.union(c.asmo).plus())),
        };
        let judgement = HandJudgement {
            derived,
            fr,
            co,
            wanted: &self.wanted,
        };
        (judgement, consistent)
    }
}

impl HandPrepared<'_> {
    /// The relations of `c`. Every relation but `fr` is a function of sw, the static
    /// terms and the asmo terms (`Derived::compute_from_sw`), so they are taken from the
    /// asmo when sw cannot depend on rf (`AsmoTerms::rf_free`), or from the parent
    /// node's when the candidate's sw equals the parent's (along a branch rf grows by one
    /// read, and most reads add no sw pair); only `fr` is then computed.
    fn relations<'x>(
        &self,
        a: &'x AsmoTerms,
        c: Candidate<'_>,
        parent: Option<&'x Option<Arc<Derived>>>,
    ) -> Relations<'x> {
        let shared = |d: &'x Derived| {
            let fr = Derived::fr_given(self.s, &self.terms, c, &d.locord);
            (Cow::Borrowed(d), Some(fr))
        };
        if let Some(d) = &a.rf_free {
            return shared(d);
        }
        let sw = sw(self.s, &self.terms, a, c.rf);
        match parent {
            Some(Some(d)) if d.sw == sw => shared(d),
            _ => (
                Cow::Owned(Derived::compute_from_sw(self.s, &self.terms, a, c, sw)),
                None,
            ),
        }
    }
}
