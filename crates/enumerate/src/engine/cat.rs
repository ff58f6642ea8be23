//! A compiled cat model ([`vkherd_cat`]) as an [`Engine`]: the bundled vulkan.cat (the
//! default model), opencl.cat, or any `--model FILE.cat`.

use super::{Capabilities, Engine, Judgement, PreparedModel, Wanted};
use std::sync::Arc;
use vkherd_cat::{AsmoValues, Evaluation, Model, Prepared};
use vkherd_model::axioms::Candidate;
use vkherd_model::{ModelOptions, Rel, Statics, Variant};

/// A cat model, with what whoever resolved it declares about it.
#[derive(Debug, Clone)]
pub struct CatEngine {
    model: Arc<Model>,
    /// The model is one of the bundled Vulkan files ([`CatEngine::bundled_vulkan`]).
    vulkan_file: bool,
}

/// The variants of the bundled Vulkan model that keep the coherence core
/// ([`CatEngine::bundled_vulkan`]): `vulkan-2024` changes only the av/vis inclusion
/// (`avvisinc`), `no-chains` only the chains of the av/vis terms, and `mmra` keeps
/// `po & sref` in locord's single-thread term (docs/mmra.md); none of them changes `fr`,
/// the first axiom or `co`.
pub const CORE_KEEPING_VARIANTS: [&str; 3] = ["vulkan-2024", "no-chains", "mmra"];

impl CatEngine {
    /// Any cat model: it declares no coherence core, so the search uses only the
    /// model-independent cuts.
    pub fn new(model: Arc<Model>) -> CatEngine {
        CatEngine {
            model,
            vulkan_file: false,
        }
    }

    /// A model of the bundled Vulkan files (vulkan.cat, or vulkan-asserts.cat, which
    /// adds only flags), as `Model::bundled` compiled it, with the variants it was
    /// compiled with (`model.active`). It declares the coherence core when every variant
    /// is one of [`CORE_KEEPING_VARIANTS`]: vulkan.cat transcribes the Alloy file's
    /// `locord` (whose single-thread term is `po & sloc & sref`), `fr`, first axiom, and
    /// takes `co = (locord + asmo)+`; the differential tests show the file equal to the
    /// hand-written model candidate by candidate (tests/cat_model.rs), which declares the
    /// core for the same reasons ([`super::hand::HandEngine`]). The caller vouches that
    /// `model` is such a file: the engine cannot tell a model's text from another's.
    pub fn bundled_vulkan(model: Arc<Model>) -> CatEngine {
        CatEngine {
            model,
            vulkan_file: true,
        }
    }

    /// See [`CatEngine::bundled_vulkan`].
    fn coherence_core(&self) -> bool {
        self.vulkan_file
            && (self.model.active_variants().iter())
                .all(|v| CORE_KEEPING_VARIANTS.contains(&v.as_str()))
    }

    /// The bundled vulkan.cat with the variants `opts` names (`vulkan-2024`, `no-chains`,
    /// `mmra`), compiled once per process ([`bundled_model`]).
    pub fn vulkan(opts: &ModelOptions) -> CatEngine {
        CatEngine::bundled_vulkan(bundled_model(opts))
    }

    /// The same model compiled with the variant `v` on too (a Khronos `NOCHAINS` check
    /// runs the model with `no-chains`).
    pub fn with_variant(&self, v: &str) -> CatEngine {
        CatEngine {
            model: Arc::new(self.model.with_variant(v)),
            vulkan_file: self.vulkan_file,
        }
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
}

/// The bundled Vulkan cat model for the given options, from the one cache of bundled
/// models ([`Model::bundled_shared`], compiled once per process).
pub fn bundled_model(opts: &ModelOptions) -> Arc<Model> {
    let variants = [
        (opts.variant == Variant::Vulkan2024, "vulkan-2024"),
        (!opts.chains, "no-chains"),
        (opts.mmra, "mmra"),
    ];
    let extra: Vec<String> = (variants.into_iter())
        .filter(|(on, _)| *on)
        .map(|(_, v)| v.to_string())
        .collect();
    Model::bundled_shared("vulkan", &extra).expect("the bundled model compiles")
}

impl Judgement for Evaluation<'_, '_> {
    fn racy(&self) -> bool {
        self.any_flag()
    }

    fn rel(&self, w: Wanted) -> Option<&Rel> {
        self.wanted_rel(w.0)
    }
}

impl Engine for CatEngine {
    type Prepared<'a> = Prepared<'a>;

    /// Witness checks: `may_complete` is a function of the candidate alone.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            witness_checks: true,
            coherence_core: self.coherence_core(),
        }
    }

    /// For a bundled Vulkan file, the hand-written model's options for the variants it
    /// runs with (`vulkan-2024`, `no-chains`, `mmra`), so that the static relations are
    /// those the hand-written model builds for the same model (the differential tests
    /// read them, tests/cat_model.rs); the defaults for any other model. The cat engine
    /// itself reads none of the relations they change.
    fn statics_options(&self) -> ModelOptions {
        let on = |v: &str| self.vulkan_file && self.model.active_variants().contains(v);
        ModelOptions {
            variant: match on("vulkan-2024") {
                true => Variant::Vulkan2024,
                false => Variant::Vulkan,
            },
            chains: !on("no-chains"),
            mmra: on("mmra"),
        }
    }

    fn prepare<'a>(&'a self, s: &'a Statics, wanted: &[&str]) -> Prepared<'a> {
        Prepared::new(&self.model, s, wanted)
    }
}

impl<'m> PreparedModel for Prepared<'m> {
    type Asmo = AsmoValues;
    /// Nothing: the cat engine's check starts from its memo, not from the parent's.
    type Node = ();
    type Judgement<'x>
        = Evaluation<'x, 'm>
    where
        Self: 'x;

    fn for_asmo(&self, asmo: &Rel) -> AsmoValues {
        Prepared::for_asmo(self, asmo)
    }

    /// None yet: a lower bound would need the analysis of `vkherd_cat::mono` extended to
    /// asmo.
    fn lower_asmo(&self) -> Option<AsmoValues> {
        None
    }

    /// Only the checks `vkherd_cat::mono` proves monotone are used.
    fn check_node(&self, c: Candidate<'_>, asmo: &AsmoValues, _: Option<&()>) -> Option<()> {
        self.may_complete(asmo, c.asmo, c.rf, c.rfinit)
            .then_some(())
    }

    fn judge<'x>(
        &'x self,
        c: Candidate<'_>,
        asmo: &'x AsmoValues,
        _: Option<&'x ()>,
    ) -> (Evaluation<'x, 'm>, bool) {
        let e = self.evaluate(asmo, c.asmo, c.rf, c.rfinit);
        let consistent = e.consistent();
        (e, consistent)
    }
}
