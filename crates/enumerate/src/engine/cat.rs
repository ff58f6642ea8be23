//! A compiled cat model ([`vkherd_cat`]) as an [`Engine`]: the bundled vulkan.cat (the
//! default model), opencl.cat, or any `--model FILE.cat`.

use super::{Capabilities, CoreTerms, Engine, Judgement, PreparedModel, Shortcuts, Wanted};
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
    /// Shortcuts claimed rather than derived ([`CatEngine::claiming`]; tests only).
    claimed: Option<Shortcuts>,
}

impl CatEngine {
    /// Any cat model. The search's shortcuts it gets are derived from its checks
    /// (`vkherd_cat::shortcuts`), per path combination ([`Engine::shortcuts`]).
    pub fn new(model: Arc<Model>) -> CatEngine {
        CatEngine {
            model,
            vulkan_file: false,
            claimed: None,
        }
    }

    /// A model of the bundled Vulkan files (vulkan.cat, or vulkan-asserts.cat, which
    /// adds only flags), as `Model::bundled` compiled it, with the variants it was
    /// compiled with (`model.active`). The static relations are then built with the
    /// hand-written model's options for those variants ([`Engine::statics_options`]),
    /// which the differential tests compare against; the search's shortcuts are derived
    /// from the model as for any other (crates/cat/tests/shortcuts.rs shows vulkan.cat
    /// gets all of them with every variant). The caller vouches that `model` is such a
    /// file.
    pub fn bundled_vulkan(model: Arc<Model>) -> CatEngine {
        CatEngine {
            model,
            vulkan_file: true,
            claimed: None,
        }
    }

    /// The same engine with `shortcuts` claimed for the model whatever its checks say.
    /// For tests only: a claim the model does not support makes the search drop
    /// consistent candidates, which is what such tests show
    /// (crates/enumerate/tests/shortcuts.rs).
    #[doc(hidden)]
    pub fn claiming(mut self, shortcuts: Shortcuts) -> CatEngine {
        self.claimed = Some(shortcuts);
        self
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
            claimed: self.claimed.clone(),
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
    fn flagged(&self) -> bool {
        self.any_flag()
    }

    fn flag_bits(&self) -> u64 {
        Evaluation::flag_bits(self)
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
            claimed: self.claimed.clone(),
        }
    }

    /// For a bundled Vulkan file, the hand-written model's options for the variants it
    /// runs with (`vulkan-2024`, `no-chains`, `mmra`), so that the static relations are
    /// those the hand-written model builds for the same model (the differential tests
    /// read them, tests/cat_model.rs); the defaults for any other model. The cat engine
    /// itself reads none of the relations they change.
    /// The model's flags, its bundled descriptor's data race as such ([`Model::flags`]).
    fn flags(&self) -> Vec<vkherd_model::ModelFlag> {
        self.model.flags()
    }

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

    /// Whether any part of the compiled model names one ([`Model::reads_dependencies`]).
    fn reads_dependencies(&self) -> bool {
        self.model.reads_dependencies()
    }

    fn prepare<'a>(&'a self, s: &'a Statics, wanted: &[&str]) -> Prepared<'a> {
        Prepared::new(&self.model, s, wanted)
    }

    /// Derived from the model's checks (`vkherd_cat::shortcuts`, where each is argued):
    /// the coherence filter's terms on this combination, and whether `co` follows asmo.
    fn shortcuts(&self, s: &Statics, asmo_pairs: &Rel) -> Shortcuts {
        let model = &self.model;
        Shortcuts {
            core: model.coherence(s, asmo_pairs).map(|c| CoreTerms {
                po_loc: c.po_loc,
                fr_ww: c.fr_ww,
                events: c.events,
            }),
            final_by_asmo: model.shortcuts().co_by_asmo,
        }
    }

    /// Dat3M's event view: every pair of writes to a location (`Model::ordered_writes`).
    fn ordered_writes(&self, s: &Statics) -> Option<Rel> {
        self.model.ordered_writes(s)
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

    /// The lower ends of an interval evaluation of the per-asmo program
    /// (`Prepared::lower_asmo`, which argues it); with them only the checks monotone in
    /// the per-asmo values and asmo cut (`vkherd_cat::mono::monotone_over_asmo_values`).
    fn lower_asmo(&self, partial: &Rel, pairs: &Rel) -> Option<AsmoValues> {
        Some(Prepared::lower_asmo(self, partial, pairs))
    }

    /// The bound is tighter the more of asmo is known: recomputed as stage 1 orients pairs.
    fn lower_asmo_varies(&self) -> bool {
        true
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
