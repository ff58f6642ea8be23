//! The one interface between the enumerator and the memory model. A model is prepared once
//! per path combination, evaluated once per asmo for what depends on asmo alone, and once
//! per candidate. The search asks [`Ctx::check_node`]; leaves get a [`Judgement`]:
//! consistency, the race flag, and the named relations visitors ask for
//! ([`Visitor::wanted`]: `co` for final values, `dr`/`rs` for Khronos predicates).
//!
//! Two engines sit behind it:
//! - a compiled cat model ([`vkherd_cat`]): the bundled vulkan.cat is the default model
//!   of the command line and of `vkherd::Options` (`--model vulkan`, `vulkan-2024`), and
//!   any `--model FILE.cat`; which checks may cut the search is decided by
//!   `vkherd_cat::mono`;
//! - the hand-written Rust transcription of the Vulkan model (`vkherd_model::axioms`),
//!   when [`crate::EnumOptions::cat`] is `None` (`--model hand:vulkan`): the reference
//!   of the differential tests.
//!
//! The two agree candidate by candidate on the bundled Vulkan model (tests/cat_model.rs).

use crate::ctx::Ctx;
use crate::visitor::Visitor;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};
use vkherd_cat::{AsmoValues, Evaluation, Model, Prepared};
use vkherd_model::axioms::{sw, AsmoTerms, Candidate, StaticTerms};
use vkherd_model::{Derived, EventSet, ModelOptions, Rel, Statics, Variant};

/// A model specialised to one path combination.
#[allow(clippy::large_enum_variant)] // one per path combination
pub(crate) enum ModelState<'a> {
    Hand(StaticTerms),
    Cat(Prepared<'a>),
}

/// The per-asmo part of a model.
pub(crate) enum AsmoState {
    /// The hand-written model's asmo terms, and `co = (locord + asmo)+` when it is the same
    /// for every candidate of the asmo (`AsmoTerms::rf_free`: locord does not depend on
    /// rf) and the visitor wants it.
    Hand(AsmoTerms, Option<Rel>),
    Cat(AsmoValues),
}

/// An asmo with the model values that depend on it alone.
pub(crate) type Asmo = (Rel, AsmoState);

/// What a search node's model check computed, handed to its children so that they can
/// start from it ([`Ctx::check_node`]).
#[derive(Clone)]
pub(crate) enum NodeEval {
    /// The hand-written model's relations of the node's partial candidate.
    Hand(Arc<Derived>),
    /// Nothing to reuse (the cat engine, or relations that do not depend on rf).
    Nothing,
}

/// The hand-written model's relations of a candidate, shared with its parent node's when
/// possible, and the candidate's `fr` when they are shared (their `fr` is another's).
type HandRelations<'x> = (Cow<'x, Derived>, Option<Rel>);

/// What the model says about one complete candidate.
#[allow(clippy::large_enum_variant)] // one per leaf, on the stack: boxing would allocate
pub enum Judgement<'a> {
    Hand {
        /// The derived relations: the candidate's own, or, when they do not depend on rf,
        /// the asmo's (whose `fr` is then replaced by `fr`).
        derived: Cow<'a, Derived>,
        /// The candidate's `fr` when `derived` is the asmo's.
        fr: Option<Rel>,
        /// `(locord + asmo)+`, when asked for.
        co: Option<Cow<'a, Rel>>,
    },
    Cat(Evaluation<'a, 'a>),
}

impl Judgement<'_> {
    /// Some flag is raised (the Vulkan model's only flag: a data race).
    pub fn racy(&self) -> bool {
        match self {
            Judgement::Hand { derived, .. } => derived.racy(),
            Judgement::Cat(e) => e.any_flag(),
        }
    }

    /// A named relation of the model, if the visitor asked for it ([`Visitor::wanted`])
    /// and the model defines it.
    pub fn rel(&self, name: &str) -> Option<&Rel> {
        match self {
            Judgement::Cat(e) => e.rel(name),
            Judgement::Hand { derived: d, fr, co } => Some(match name {
                "co" => co.as_deref()?,
                "dr" => &d.dr,
                "rs" => &d.rs,
                "hypors" => &d.hypors,
                "sw" => &d.sw,
                "hb" => &d.hb,
                "locord" => &d.locord,
                "fr" => fr.as_ref().unwrap_or(&d.fr),
                _ => return None,
            }),
        }
    }
}

impl ModelState<'_> {
    pub(crate) fn new<'a>(
        model: Option<&'a Model>,
        s: &Statics,
        wanted: &[&str],
    ) -> ModelState<'a> {
        match model {
            None => ModelState::Hand(StaticTerms::new(s)),
            Some(m) => ModelState::Cat(Prepared::new(m, s, wanted)),
        }
    }
}

/// The bundled Vulkan cat model for the given options (compiled once per process).
pub fn bundled_model(opts: &ModelOptions) -> Arc<Model> {
    static CACHE: OnceLock<Mutex<HashMap<ModelOptions, Arc<Model>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(*opts)
        .or_insert_with(|| {
            let mut variants = BTreeSet::new();
            if opts.variant == Variant::Vulkan2024 {
                variants.insert("vulkan-2024".to_string());
            }
            if !opts.chains {
                variants.insert("no-chains".to_string());
            }
            if opts.mmra {
                variants.insert("mmra".to_string());
            }
            let extra: Vec<String> = variants.into_iter().collect();
            Arc::new(Model::bundled("vulkan", &extra).expect("the bundled model compiles"))
        })
        .clone()
}

impl<V: Visitor> Ctx<'_, V> {
    /// The per-asmo part of the model for `asmo`.
    pub(crate) fn asmo(&self, asmo: Rel) -> Asmo {
        let state = match self.model {
            ModelState::Hand(t) => {
                let terms = AsmoTerms::new(self.s, t, &asmo);
                // Without rf in locord, co is the asmo's (see `AsmoState::Hand`).
                let co = match &terms.rf_free {
                    Some(d) if self.wanted.contains(&"co") => Some(d.locord.union(&asmo).plus()),
                    _ => None,
                };
                AsmoState::Hand(terms, co)
            }
            ModelState::Cat(p) => AsmoState::Cat(p.for_asmo(&asmo)),
        };
        (asmo, state)
    }

    /// `None` if no completion of this partial candidate (rf and RFINIT can only gain
    /// pairs, asmo is fixed) can be consistent, else what the node's children may start
    /// from; `parent` is what the parent node's check gave, and the answer is the same
    /// with or without it. Hand-written model: every relation of `consistent` is monotone
    /// in rf and RFINIT (the argument is in search.rs); cat models: only the checks
    /// `vkherd_cat::mono` proves monotone are used.
    pub(crate) fn check_node(
        &self,
        asmo: &Rel,
        state: &AsmoState,
        rf: &Rel,
        rfinit: &EventSet,
        parent: Option<&NodeEval>,
    ) -> Option<NodeEval> {
        match (self.model, state) {
            (ModelState::Hand(t), AsmoState::Hand(a, _)) => {
                let cand = Candidate { rf, rfinit, asmo };
                let (derived, fr) = self.hand_relations(t, a, cand, parent);
                let fr_ref = fr.as_ref().unwrap_or(&derived.fr);
                if !Derived::consistent_given(self.s, cand, &derived.locord, fr_ref) {
                    return None;
                }
                Some(match (derived, &a.rf_free) {
                    (_, Some(_)) => NodeEval::Nothing,
                    (Cow::Owned(d), None) => NodeEval::Hand(Arc::new(d)),
                    // Shared with the parent: the children share it too.
                    (Cow::Borrowed(_), None) => parent.cloned().unwrap_or(NodeEval::Nothing),
                })
            }
            (ModelState::Cat(p), AsmoState::Cat(v)) => p
                .may_complete(v, asmo, rf, rfinit)
                .then_some(NodeEval::Nothing),
            _ => unreachable!("one engine per run"),
        }
    }

    /// The hand-written model's relations of `cand`. Every relation but `fr` is a function
    /// of sw, the static terms and the asmo terms (`Derived::compute_from_sw`), so they
    /// are taken from the asmo when sw cannot depend on rf (`AsmoTerms::rf_free`), or
    /// from the parent node's when the candidate's sw equals the parent's (along a branch
    /// rf grows by one read, and most reads add no sw pair); only `fr` is then computed.
    fn hand_relations<'x>(
        &self,
        t: &StaticTerms,
        a: &'x AsmoTerms,
        cand: Candidate<'_>,
        parent: Option<&'x NodeEval>,
    ) -> HandRelations<'x> {
        let shared = |d: &'x Derived| {
            let fr = Derived::fr_given(self.s, t, cand, &d.locord);
            (Cow::Borrowed(d), Some(fr))
        };
        if let Some(d) = &a.rf_free {
            return shared(d);
        }
        let sw = sw(self.s, t, a, cand.rf);
        match parent {
            Some(NodeEval::Hand(d)) if d.sw == sw => shared(d),
            _ => (
                Cow::Owned(Derived::compute_from_sw(self.s, t, a, cand, sw)),
                None,
            ),
        }
    }

    /// Per-asmo values contained in those of every asmo, for checking a partial asmo with
    /// [`Self::check_node`] (stage 1 of the search), or `None` if the engine has no such
    /// bound. Hand-written model: the terms of the empty order. Sound: `rs` and `hypors`
    /// are `stor[..] . *(imm[asmo] . ..)`, and `*` contains the identity, so the empty
    /// asmo gives `stor[REL&A]` and `stor[W&A]`, which every asmo's `rs`/`hypors`
    /// contain; `release` is built from them with `.` and `+` only. (The exact terms of
    /// a partial asmo would not be a bound: `imm[asmo]` is not monotone in asmo.) Cat
    /// models: none yet (a lower bound would need the analysis of `vkherd_cat::mono`
    /// extended to asmo), so stage 1 cuts with values and the coherence core only.
    pub(crate) fn lower_asmo(&self) -> Option<AsmoState> {
        match self.model {
            ModelState::Hand(t) => Some(AsmoState::Hand(
                AsmoTerms::new(self.s, t, &Rel::empty(self.s.n)),
                None,
            )),
            ModelState::Cat(_) => None,
        }
    }

    /// May a node's model check be answered by a witness ([`Search::witness`]): is the
    /// check a function of the candidate alone, handing nothing to the children? True
    /// of the cat engine (`may_complete`); the hand-written engine's check hands its
    /// relations to the children, which a witness would not compute.
    pub(crate) fn checks_by_witness(&self) -> bool {
        matches!(self.model, ModelState::Cat(_))
    }

    /// Does the model entail Vulkan's coherence core: `po & sloc & sref` within `locord`,
    /// `fr` as in the Alloy file, `acyclic(locord + rf + fr + asmo)` required, and the
    /// final values decided by `co = (locord + asmo)+`? The search's coherence filter
    /// (coherence.rs), its placing of an RMW right after the write it reads, and the
    /// final values known before a leaf (columns.rs) rely on it. True for the
    /// hand-written model and for the bundled Vulkan cat files compiled with no variant
    /// but `vulkan-2024`, `no-chains` and `mmra` (the differential tests show them equal
    /// to the hand-written model); false for any other model, which then gets only the
    /// model-independent cuts.
    pub(crate) fn vulkan_core(&self) -> bool {
        match self.model {
            ModelState::Hand(_) => true,
            ModelState::Cat(p) => {
                let m = p.model();
                let bundled = ["vulkan.cat", "vulkan-asserts.cat"]
                    .iter()
                    .any(|f| vkherd_cat::bundled_file(f) == Some(&*m.source.text));
                // `mmra` keeps `po & sref` in locord's single-thread term (docs/mmra.md)
                // and changes neither fr, the axioms nor co: the core still holds.
                bundled
                    && m.active
                        .iter()
                        .all(|v| v == "vulkan-2024" || v == "no-chains" || v == "mmra")
            }
        }
    }

    /// The model's judgement of a complete candidate, and whether it is consistent.
    /// `parent` is what the check of the leaf's parent node gave, if any.
    pub(crate) fn judge<'x>(
        &'x self,
        (asmo, state): &'x Asmo,
        rf: &Rel,
        rfinit: &EventSet,
        wanted: &[&str],
        parent: Option<&'x NodeEval>,
    ) -> (Judgement<'x>, bool) {
        match (self.model, state) {
            (ModelState::Hand(t), AsmoState::Hand(a, asmo_co)) => {
                let cand = Candidate { rf, rfinit, asmo };
                let want_co = wanted.contains(&"co");
                let (derived, fr) = self.hand_relations(t, a, cand, parent);
                let consistent = Derived::consistent_given(
                    self.s,
                    cand,
                    &derived.locord,
                    fr.as_ref().unwrap_or(&derived.fr),
                );
                let co = match asmo_co {
                    Some(co) if want_co => Some(Cow::Borrowed(co)),
                    _ => want_co.then(|| Cow::Owned(derived.locord.union(asmo).plus())),
                };
                (Judgement::Hand { derived, fr, co }, consistent)
            }
            (ModelState::Cat(p), AsmoState::Cat(v)) => {
                let e = p.evaluate(v, asmo, rf, rfinit);
                let consistent = e.consistent();
                (Judgement::Cat(e), consistent)
            }
            _ => unreachable!("one engine per run"),
        }
    }
}
