//! Which model judges a test: one rule for every model and both dialects
//! (docs/models.md, "Models and dialects").
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

use crate::models::ModelSpec;
use crate::Options;
use std::sync::Arc;
use vkherd_cat::Model;
use vkherd_model::Dialect;

/// The model a test is judged by.
pub struct Judge {
    /// The run's options, with the model that judges the test.
    pub opts: Options,
    /// That model as a cat model (also when the hand-written engine runs it): it names
    /// the relations for `explain` and graphs.
    pub model: Arc<Model>,
    /// Variants asked for that the model does not have, left out (no `--model` only).
    pub left_out: Vec<String>,
}

/// `--model` names a model that is not for the test's dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelMismatch {
    /// The model as the report names it (`vulkan-2024`, `my.cat`).
    pub model: String,
    pub dialect: Dialect,
    /// The base sets the model reads that tests of the dialect never produce.
    pub foreign: Vec<&'static str>,
}

impl ModelMismatch {
    /// `a Vulkan test`, `Vulkan tests`, and the model of the dialect.
    fn words(&self) -> (&'static str, &'static str, &'static str) {
        match self.dialect {
            Dialect::Vulkan => ("a Vulkan test", "Vulkan tests", "vulkan"),
            Dialect::OpenCl => ("an OpenCL test", "OpenCL tests", "opencl"),
        }
    }

    /// The error for test `name`: "`MP` is an OpenCL test, and the model ...".
    pub fn for_test(&self, name: &str) -> String {
        format!("`{name}` is {}, and {self}", self.words().0)
    }
}

impl std::fmt::Display for ModelMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (_, tests, default) = self.words();
        write!(
            f,
            "the model {} is not for {tests}: it reads {}, which {tests} never have, so its verdict would be wrong (docs/models.md, \"Models and dialects\"); expected a model for {tests}: leave out --model ({default} judges them) or give --model {default}",
            self.model,
            self.foreign.join(", "),
        )
    }
}

/// The name of the model of `opts`, as reports give it.
pub fn model_name(opts: &Options) -> String {
    opts.model.spec.name()
}

/// The variants the model of `opts` is run with, sorted: those its cat model was
/// compiled with, or the hand-written engine's switches.
pub fn variants_on(opts: &Options) -> Vec<String> {
    opts.model.spec.variants_on()
}

/// Every variant asked for: `opts.model.variants` and those the model was given.
fn asked(opts: &Options) -> Vec<String> {
    let mut all = variants_on(opts);
    all.extend(opts.model.variants.iter().cloned());
    all.sort();
    all.dedup();
    all
}

/// The model that judges tests of `dialect` under `opts` (see the module docs).
pub fn judge(dialect: Dialect, opts: &Options) -> Result<Judge, ModelMismatch> {
    if opts.model.given {
        let model = opts.model.spec.cat_model();
        let foreign: Vec<&str> = (model.foreign_bases(dialect).into_iter())
            .map(vkherd_cat::BaseName::name)
            .collect();
        if !foreign.is_empty() {
            return Err(ModelMismatch {
                model: model_name(opts),
                dialect,
                foreign,
            });
        }
        return Ok(Judge {
            opts: opts.clone(),
            model,
            left_out: Vec::new(),
        });
    }
    let asked = asked(opts);
    match dialect {
        // The CLI resolved the Vulkan model with the variants it has.
        Dialect::Vulkan => {
            let on = variants_on(opts);
            Ok(Judge {
                opts: opts.clone(),
                model: opts.model.spec.cat_model(),
                left_out: asked.into_iter().filter(|v| !on.contains(v)).collect(),
            })
        }
        Dialect::OpenCl => {
            let has = crate::models::opencl_variants();
            let (on, left_out): (Vec<String>, Vec<String>) =
                asked.into_iter().partition(|v| has.contains(v));
            let model = crate::models::opencl(&on);
            let mut opts = opts.clone();
            opts.model.spec = ModelSpec::cat(model.clone());
            Ok(Judge {
                opts,
                model,
                left_out,
            })
        }
    }
}

impl Judge {
    /// The notes a report of the test gets: the variants left out.
    pub fn notes(&self, dialect: Dialect) -> Vec<String> {
        let (what, header) = match dialect {
            Dialect::Vulkan => ("the Vulkan model", "VULKAN"),
            Dialect::OpenCl => ("the OpenCL model", "OPENCL"),
        };
        self.left_out
            .iter()
            .map(|v| {
                format!(
                    "Note: {what} ({}), which judges {header} tests when no --model is given, has no variant {v}: this test ran without it",
                    self.model.name()
                )
            })
            .collect()
    }
}
