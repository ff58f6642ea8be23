//! The one interface between the search and a memory model: [`Engine`].
//!
//! A model is prepared once per path combination (and barrier meeting)
//! ([`Engine::prepare`], a [`PreparedModel`]), evaluated once per asmo for what depends
//! on asmo alone, asked at each search node whether the partial candidate may still
//! complete ([`PreparedModel::check_node`]), and gives each complete
//! candidate a [`Judgement`]: consistency, the race flag, and the relations the visitor
//! asked for by name ([`crate::visitor::Visitor::wanted`]), resolved once at preparation
//! into [`Wanted`] handles (`co` for final values, `dr`/`rs` for Khronos predicates).
//!
//! Two engines implement it, and [`AnyEngine`] holds the one a run uses, chosen once: the
//! search is generic over the engine (monomorphised, no dispatch per node or candidate).
//! - [`cat::CatEngine`]: a compiled cat model ([`vkherd_cat`]); which checks may cut the
//!   search is decided by `vkherd_cat::mono`;
//! - [`hand::HandEngine`]: the hand-written Rust transcription of the Vulkan model
//!   (`vkherd_model::axioms`, `--model hand:vulkan`), the reference of the differential
//!   tests. The two agree candidate by candidate on the bundled Vulkan model
//!   (tests/cat_model.rs).

pub mod cat;
pub mod hand;

use vkherd_model::axioms::Candidate;
use vkherd_model::{EventSet, ModelOptions, Rel, Statics};

/// What an engine lets the search do besides judging candidates: the search asks for
/// nothing else, so an engine that declares nothing gets only the model-independent
/// cuts, and the same answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capabilities {
    /// A node's check is a function of the candidate alone and hands nothing to the
    /// node's children, so it may be answered by a witness, a completion of the node that
    /// passes it (`search::Search::witness`).
    pub witness_checks: bool,
    /// Shortcuts taken as given instead of asked of the prepared model
    /// ([`Engine::shortcuts`]). Only tests set it, to show what a claim the model
    /// does not support would do to the answers ([`cat::CatEngine::claiming`]).
    pub claimed: Option<Shortcuts>,
}

/// The search's shortcuts that rely on the model (search.rs, coherence.rs, columns.rs),
/// on one path combination: what the model's axioms entail there, derived from the model
/// (`vkherd_cat::shortcuts` for a cat model), never from its name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shortcuts {
    /// Every consistent candidate has `rf | asmo | fr_asmo | fr_init` acyclic, with the
    /// terms of [`CoreTerms`] added: the search's coherence filter (coherence.rs), and
    /// the placing of an RMW right after the write it reads in asmo (a cycle
    /// `w rf e asmo w` otherwise). `None`: neither.
    pub core: Option<CoreTerms>,
    /// The final value of a location whose writes asmo orders totally is the asmo-last
    /// write's in every consistent candidate (the model's `co` contains asmo and is
    /// acyclic there): the final values known before a leaf (columns.rs).
    pub final_by_asmo: bool,
}

/// The optional terms of the coherence filter (coherence.rs): `po_loc = po & sloc & sref`
/// and `fr_ww = (rf^-1 ; (po_loc & (W * W))) \ id`; and where the core holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreTerms {
    pub po_loc: bool,
    pub fr_ww: bool,
    /// The accesses of the locations the core covers, `None` for every event: the model
    /// entails the acyclicity of the core's union restricted to `sloc` on these events
    /// only (C11-style coherence needs asmo total on a location's writes, which a Vulkan
    /// or PTX test gives some locations and not others). Since every term relates events
    /// of one location, a cycle lies within one location; the filter looks for cycles in
    /// the covered ones, and an RMW is placed after its source only there.
    pub events: Option<EventSet>,
}

impl CoreTerms {
    /// Does the core hold on the accesses of `e`'s location?
    pub fn covers(&self, e: usize) -> bool {
        self.events.as_ref().is_none_or(|s| s.contains(e))
    }
}

impl Shortcuts {
    /// Every shortcut, with every term: what Vulkan's axioms entail (the hand-written
    /// engine's declaration, [`hand::HandEngine`]).
    pub const ALL: Shortcuts = Shortcuts {
        core: Some(CoreTerms {
            po_loc: true,
            fr_ww: true,
            events: None,
        }),
        final_by_asmo: true,
    };
}

/// A relation a visitor reads, by its place in the visitor's `wanted` list: the engine
/// resolves the names once per path combination, and a candidate's relation is then
/// found by this index, no name compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted(pub usize);

/// What a model says about one complete candidate, besides its consistency.
pub trait Judgement {
    /// Some flag of the model is raised (the Vulkan model's only flag: a data race).
    fn flagged(&self) -> bool;
    /// The raised flags: bit `i` for the `i`-th of [`Engine::flags`].
    fn flag_bits(&self) -> u64;
    /// A relation the visitor asked for, if the model defines it.
    fn rel(&self, w: Wanted) -> Option<&Rel>;
}

/// A memory model as the search sees it. An engine owns its model (`'static`); what it
/// prepares borrows from it.
pub trait Engine: Sync + 'static {
    /// The model specialised to one path combination and barrier meeting.
    type Prepared<'a>: PreparedModel;

    fn capabilities(&self) -> Capabilities;

    /// The flags the model can raise, in the order of [`Judgement::flag_bits`] (at most
    /// 64), as reports name them.
    fn flags(&self) -> Vec<vkherd_model::ModelFlag>;

    /// The options the static relations are built with (`Statics::new`). Only the
    /// hand-written engine reads the relations they change (`chains`, `avvisinc`,
    /// `po_hb`); a cat model computes its own from the base relations.
    fn statics_options(&self) -> ModelOptions;

    /// Does the model read the syntactic dependencies (`addr`, `data`, `ctrl`)? The
    /// enumerator computes them for each path combination only then (`deps.rs`); for
    /// any other model they would be empty relations nothing reads.
    fn reads_dependencies(&self) -> bool;

    /// Specialises the model to `s`; `wanted` names the relations the visitor reads, in
    /// the order of their [`Wanted`] handles (a name the model does not define gives
    /// `None`).
    fn prepare<'a>(&'a self, s: &'a Statics, wanted: &[&str]) -> Self::Prepared<'a>;

    /// The shortcuts the model allows on this path combination, whose asmo orders the
    /// pairs `asmo_pairs` (both directions listed; `candidates::asmo_pairs`). Asked
    /// before the model is prepared: a combination the value screen skips is never
    /// prepared.
    fn shortcuts(&self, s: &Statics, asmo_pairs: &Rel) -> Shortcuts;

    /// The pairs of writes the enumerated order `asmo` must order on `s` (both
    /// directions), when the model decides them rather than the test's dialect
    /// ([`vkherd_model::Dialect::ordered_writes`]); asmo is then a strict order whose
    /// pairs are exactly these. The search knows only that the model asks for them.
    fn ordered_writes(&self, _s: &Statics) -> Option<Rel> {
        None
    }
}

/// An engine's model specialised to one path combination and barrier meeting: what the
/// search calls, per asmo, per node and per candidate.
pub trait PreparedModel: Sync {
    /// The part of the model that depends on the asmo alone.
    type Asmo: Send + Sync;
    /// What a node's check hands its children, so that they may start from it
    /// ([`Self::check_node`]); the default is nothing.
    type Node: Clone + Default + Send + Sync;
    /// The model's judgement of a complete candidate.
    type Judgement<'x>: Judgement
    where
        Self: 'x;

    /// The per-asmo part of the model for `asmo`.
    fn for_asmo(&self, asmo: &Rel) -> Self::Asmo;

    /// Per-asmo values contained in those of every asmo that contains `partial` (a
    /// transitively closed partial asmo) and orders only `pairs`, for checking a partial
    /// asmo with [`Self::check_node`] (stage 1 of the search), or `None` if the engine has
    /// no such bound (then stage 1 cuts with values and the coherence core only).
    fn lower_asmo(&self, partial: &Rel, pairs: &Rel) -> Option<Self::Asmo>;

    /// Does [`Self::lower_asmo`] depend on `partial`? If not, the search computes it once.
    fn lower_asmo_varies(&self) -> bool {
        false
    }

    /// `None` if no completion of this partial candidate (rf and RFINIT can only gain
    /// pairs, asmo is fixed) can be consistent, else what the node's children may start
    /// from; `parent` is what the parent node's check gave, and the answer is the same
    /// with or without it. Sound only for checks monotone in rf and RFINIT (the argument
    /// is at each engine's implementation and in search.rs).
    fn check_node(
        &self,
        c: Candidate<'_>,
        asmo: &Self::Asmo,
        parent: Option<&Self::Node>,
    ) -> Option<Self::Node>;

    /// The model's judgement of a complete candidate, and whether it is consistent.
    /// `parent` is what the check of the leaf's parent node gave, if any.
    fn judge<'x>(
        &'x self,
        c: Candidate<'_>,
        asmo: &'x Self::Asmo,
        parent: Option<&'x Self::Node>,
    ) -> (Self::Judgement<'x>, bool);
}

/// An asmo with the model values that depend on it alone.
pub(crate) type Asmo<P> = (Rel, <P as PreparedModel>::Asmo);

/// Evaluates `$body` with `$e` bound to the engine `$any` (an `&AnyEngine`) holds,
/// unwrapped: one arm per engine, so the code it calls is monomorphised for each and the
/// arms cannot drift apart.
macro_rules! with_engine {
    ($any:expr, $e:ident => $body:expr) => {
        match $any {
            $crate::engine::AnyEngine::Hand($e) => $body,
            $crate::engine::AnyEngine::Cat($e) => $body,
        }
    };
}
pub(crate) use with_engine;

/// The engine a run uses, chosen once by whoever resolves the model
/// (`vkherd::models::ModelSpec::engine`); the enumerator dispatches on it once per run
/// and the search is monomorphised for the engine held.
#[derive(Debug, Clone)]
pub enum AnyEngine {
    Hand(hand::HandEngine),
    Cat(cat::CatEngine),
}

impl AnyEngine {
    /// [`Engine::statics_options`] of the engine held.
    pub fn statics_options(&self) -> ModelOptions {
        with_engine!(self, e => e.statics_options())
    }

    /// The pairs asmo orders on `s`, and its shape (`candidates::asmo_pairs`), for the
    /// engine held.
    pub fn asmo_pairs(
        &self,
        program: &vkherd_model::Program,
        s: &Statics,
    ) -> (Rel, vkherd_model::AsmoShape) {
        with_engine!(self, e => crate::candidates::asmo_pairs(program, s, e.ordered_writes(s)))
    }

    /// [`Engine::flags`] of the engine held.
    pub fn flags(&self) -> Vec<vkherd_model::ModelFlag> {
        with_engine!(self, e => e.flags())
    }

    /// [`Engine::capabilities`] of the engine held.
    pub fn capabilities(&self) -> Capabilities {
        with_engine!(self, e => e.capabilities())
    }
}
