//! Which model judges a test: one rule for every model and both dialects
//! (docs/models.md, "Models and dialects"), applied in one place
//! ([`ModelChoice::resolve`]), whose result ([`ResolvedModel`]) the report carries.
//!
//! - A model is *for* a dialect when it reads no base set that tests of the dialect never
//!   produce ([`vkherd_cat::dialect`]): vulkan.cat reads the availability sets OpenCL
//!   tests never have, opencl.cat the seq_cst set Vulkan tests never have, and a model
//!   of your own is judged by the same test.
//! - With `--model`, that model judges every test, and a test of a dialect it is not for
//!   is refused ([`ModelMismatch`], exit code 2): its sets would be empty there and the
//!   verdict wrong, with nothing to show it.
//! - Without `--model`, each test is judged by its dialect's model (`vulkan`, `opencl`),
//!   with the variants asked for that this model has; one it does not have is left out
//!   and a note in the test's report says so (a directory of both dialects runs with
//!   `--no-chains`, a Vulkan variant, and its OpenCL tests say they ran without it).

use crate::models::{ModelChoice, ModelSpec};
use std::sync::Arc;
use vkherd_cat::Model;
use vkherd_enumerate::{AnyEngine, CatEngine, EnumOptions, RunConfig};
use vkherd_litmus::Diagnostic;
use vkherd_model::Dialect;

/// The model that judges the tests of one dialect in a run: the engine, the cat model
/// that names relations, the name and variants reports give, and the variants asked for
/// that it does not have. Made by [`ModelChoice::resolve`] alone; a [`crate::Report`]
/// carries the one that judged it, and everything after the run reads it from there.
#[derive(Debug)]
pub struct ResolvedModel {
    /// What becomes the engine ([`ModelSpec::engine`]).
    spec: ModelSpec,
    /// The model as a cat model (also when the hand-written engine runs it): it names
    /// the relations for `explain` and graphs.
    cat: Arc<Model>,
    /// The variants it runs with, sorted.
    variants: Vec<String>,
    /// Variants asked for that the model does not have, left out (no `--model` only).
    left_out: Vec<String>,
    dialect: &'static Dialect,
}

impl ResolvedModel {
    /// The engine that runs the model.
    pub fn engine(&self) -> AnyEngine {
        self.spec.engine()
    }

    /// The model on the cat engine, also when the hand-written engine runs it
    /// (`explain` shows the cat model's definitions).
    pub fn cat_engine(&self) -> CatEngine {
        self.spec.cat_engine()
    }

    /// The enumerator's options for a run of this model with `run`.
    pub fn enum_options(&self, run: &RunConfig) -> EnumOptions {
        EnumOptions {
            engine: self.engine(),
            run: run.clone(),
            ..EnumOptions::default()
        }
    }

    /// What the engine is made from (Khronos `NOCHAINS` checks turn chains off).
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The cat model that names the relations.
    pub fn cat_model(&self) -> &Arc<Model> {
        &self.cat
    }

    /// The name reports give the model: `vulkan`, `hand:vulkan-2024`, `opencl`, a cat
    /// model's name.
    pub fn name(&self) -> String {
        self.spec.name()
    }

    /// The variants it runs with, sorted: those its cat model was compiled with, or the
    /// hand-written engine's switches.
    pub fn variants(&self) -> &[String] {
        &self.variants
    }

    /// The variants asked for that it does not have (they were left out).
    pub fn left_out(&self) -> &[String] {
        &self.left_out
    }

    /// The dialect whose tests it judges.
    pub fn dialect(&self) -> &'static Dialect {
        self.dialect
    }

    /// `vulkan`, or `opencl with rc11-sc`: the cat model's name (the Vulkan model's also
    /// on the hand-written engine, whose definitions explanations read from vulkan.cat)
    /// with the variants it runs with.
    pub fn label(&self) -> String {
        let name = self.spec.cat_name();
        if self.variants.is_empty() {
            name
        } else {
            format!("{name} with {}", self.variants.join(", "))
        }
    }

    /// The notes a report of a test it judges gets: the variants left out.
    pub fn notes(&self) -> Vec<String> {
        let d = self.dialect;
        self.left_out
            .iter()
            .map(|v| {
                format!(
                    "Note: the {} model ({}), which judges {} tests when no --model is given, has no variant {v}: this test ran without it",
                    d.title,
                    self.cat.name(),
                    d.header
                )
            })
            .collect()
    }
}

/// `--model` names a model that is not for the test's dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelMismatch {
    /// The model as the report names it (`vulkan-2024`, `my.cat`).
    pub model: String,
    pub dialect: &'static Dialect,
    /// The base sets the model reads that tests of the dialect never produce.
    pub foreign: Vec<&'static str>,
}

impl ModelMismatch {
    /// The error for test `name`: "`MP` is an OpenCL test, and the model ...".
    pub fn for_test(&self, name: &str) -> String {
        format!("`{name}` is {}, and {self}", self.dialect.a_test)
    }

    /// [`Self::for_test`] as the error of the whole test `name`: how every command
    /// refuses it.
    pub fn diagnostic(&self, name: &str) -> Diagnostic {
        Diagnostic::new(crate::locate::WHOLE_TEST, self.for_test(name))
    }
}

impl std::fmt::Display for ModelMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self.dialect;
        let (tests, default) = (format!("{} tests", d.title), d.default_model().name);
        // What the dialect has in place of a shared base it lacks (PTX's `A`), once.
        let mut hints: Vec<&str> = (d.lacks.iter())
            .filter(|l| self.foreign.contains(&l.name))
            .map(|l| l.instead)
            .collect();
        hints.dedup();
        let hints: String = hints.iter().map(|h| format!(" ({h})")).collect();
        write!(
            f,
            "the model {} is not for {tests}: it reads {}, which {tests} never have{hints}, so its verdict would be wrong (docs/models.md, \"Models and dialects\"); expected a model for {tests}: leave out --model ({default} judges them) or give --model {default}",
            self.model,
            self.foreign.join(", "),
        )
    }
}

impl ModelChoice {
    /// The model that judges tests of `dialect` (see the module docs): the one place a
    /// test's model is decided.
    pub fn resolve(&self, dialect: &'static Dialect) -> Result<Arc<ResolvedModel>, ModelMismatch> {
        let resolved = |spec: ModelSpec, cat: Arc<Model>, left_out: Vec<String>| {
            Arc::new(ResolvedModel {
                cat,
                variants: spec.variants_on(),
                spec,
                left_out,
                dialect,
            })
        };
        let cat = self.spec.cat_model();
        let foreign: Vec<&'static str> = (cat.foreign_bases(dialect).into_iter())
            .map(vkherd_cat::BaseName::name)
            .collect();
        if self.given {
            if !foreign.is_empty() {
                return Err(ModelMismatch {
                    model: self.spec.name(),
                    dialect,
                    foreign,
                });
            }
            return Ok(resolved(self.spec.clone(), cat, Vec::new()));
        }
        // Every variant asked for: those of the chosen spec and the others asked.
        let mut asked = self.spec.variants_on();
        asked.extend(self.variants.iter().cloned());
        asked.sort();
        asked.dedup();
        // The default choice (the Vulkan model, with the variants it has) judges the
        // tests it is for; the others, their dialect's bundled model with the variants
        // it has.
        let (spec, cat) = if foreign.is_empty() {
            (self.spec.clone(), cat)
        } else {
            let model = crate::models::bundled(dialect.default_model().name, &[]);
            let on: Vec<String> = (asked.iter())
                .filter(|v| model.variants().contains(*v))
                .cloned()
                .collect();
            let model = crate::models::bundled(dialect.default_model().name, &on);
            (ModelSpec::cat(model.clone()), model)
        };
        let on = spec.variants_on();
        let left_out = asked.into_iter().filter(|v| !on.contains(v)).collect();
        Ok(resolved(spec, cat, left_out))
    }
}
