//! The one interface between the enumerator and the memory model: a compiled cat model
//! ([`vkherd_cat::Model`]), prepared once per path combination, evaluated once per asmo
//! for what depends on asmo alone, and once per candidate. The search asks
//! [`Ctx::may_complete`] (only the checks the model analysis lets cut, see
//! `vkherd_cat::mono`); leaves get a full [`vkherd_cat::Evaluation`]: consistency, flags,
//! and the named relations visitors ask for (`co` for final values, `dr`/`rs` for Khronos
//! predicates).

use crate::{Ctx, Visitor};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};
use vkherd_cat::{AsmoValues, Model};
use vkherd_model::{EventSet, ModelOptions, Rel, Variant};

/// An asmo with the model values that depend on it alone.
pub(crate) type Asmo = (Rel, AsmoValues);

/// The bundled Vulkan model for the given options (compiled once per process).
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
            let extra: Vec<String> = variants.into_iter().collect();
            Arc::new(Model::bundled("vulkan", &extra).expect("the bundled model compiles"))
        })
        .clone()
}

impl<V: Visitor> Ctx<'_, V> {
    /// The per-asmo part of the model for `asmo`.
    pub(crate) fn asmo(&self, asmo: Rel) -> Asmo {
        let v = self.model.for_asmo(&asmo);
        (asmo, v)
    }

    /// False if no completion of this partial candidate (rf and RFINIT can only gain
    /// pairs, asmo is fixed) can be consistent.
    pub(crate) fn may_complete(&self, (asmo, values): &Asmo, rf: &Rel, rfinit: &EventSet) -> bool {
        self.model.may_complete(values, asmo, rf, rfinit)
    }
}
