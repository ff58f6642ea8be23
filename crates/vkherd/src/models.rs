//! `--model NAME|FILE` and `--variant NAME`: which model a run uses.
//!
//! - `vulkan` (the default), `vulkan-2024`: the bundled vulkan.cat, run by the cat engine;
//! - `hand:vulkan`, `hand:vulkan-2024`: the hand-written Rust transcription of the same
//!   model (the reference the differential tests compare the cat engine with);
//! - `opencl`: the bundled OpenCL model (opencl.cat), run by the cat engine;
//! - `cat:NAME`: a cat model bundled in the binary (`cat:vulkan`, `cat:vulkan-2024`,
//!   `cat:vulkan-asserts`), run by the cat engine;
//! - a path to a `.cat` file.
//!
//! `--variant NAME` turns on `if "NAME"` branches of a cat model; `--no-chains` is the
//! variant `no-chains`. The hand-written engine has the variants `no-chains` and `mmra`.

use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_cat::{Model, Source, BUNDLED};
use vkherd_enumerate::{AnyEngine, CatEngine, HandEngine};
use vkherd_model::{ModelOptions, Variant};

/// A model, resolved from `--model` and `--variant` ([`resolve`]) or chosen for a
/// dialect ([`crate::judge`]): what becomes the engine of a run, in one place
/// ([`ModelSpec::engine`]).
#[derive(Debug, Clone)]
pub enum ModelSpec {
    /// The bundled Vulkan model the options name (`vulkan`, `vulkan-2024`, with the
    /// variants `mmra` and `no-chains` as options): vulkan.cat on the cat engine,
    /// compiled once per process ([`vkherd_enumerate::bundled_model`]).
    Vulkan(ModelOptions),
    /// The same model run by the hand-written engine (`hand:vulkan`, `hand:vulkan-2024`).
    Hand(ModelOptions),
    /// A compiled cat model: the bundled files by name, or a file. `vulkan_file`: it is
    /// one of the bundled Vulkan files (vulkan.cat, vulkan-asserts.cat), which the
    /// resolver knows from the name it was given (the engine then builds the static
    /// relations with the hand-written model's options, [`CatEngine::bundled_vulkan`];
    /// the search's shortcuts are derived from the model's checks, whatever its name).
    Cat {
        model: Arc<Model>,
        vulkan_file: bool,
    },
}

impl Default for ModelSpec {
    fn default() -> Self {
        ModelSpec::Vulkan(ModelOptions::default())
    }
}

impl ModelSpec {
    /// A cat model that is not one of the bundled Vulkan files (opencl.cat, a file).
    pub fn cat(model: Arc<Model>) -> ModelSpec {
        ModelSpec::Cat {
            model,
            vulkan_file: false,
        }
    }

    /// The engine that runs the model.
    pub fn engine(&self) -> AnyEngine {
        match self {
            ModelSpec::Hand(options) => AnyEngine::Hand(HandEngine { options: *options }),
            _ => AnyEngine::Cat(self.cat_engine()),
        }
    }

    /// The model on the cat engine, also when the hand-written engine runs it: its
    /// definitions name the relations `explain` and graphs show.
    pub fn cat_engine(&self) -> CatEngine {
        match self {
            ModelSpec::Vulkan(options) | ModelSpec::Hand(options) => CatEngine::vulkan(options),
            ModelSpec::Cat {
                model,
                vulkan_file: true,
            } => CatEngine::bundled_vulkan(model.clone()),
            ModelSpec::Cat { model, .. } => CatEngine::new(model.clone()),
        }
    }

    /// The model as a cat model ([`Self::cat_engine`]).
    pub fn cat_model(&self) -> Arc<Model> {
        match self {
            ModelSpec::Cat { model, .. } => model.clone(),
            ModelSpec::Vulkan(options) | ModelSpec::Hand(options) => {
                vkherd_enumerate::bundled_model(options)
            }
        }
    }

    /// The model without availability/visibility chains (a Khronos `NOCHAINS` check):
    /// the option `chains` off, or a cat model with its `no-chains` variant.
    pub fn without_chains(&self) -> ModelSpec {
        let off = |o: &ModelOptions| ModelOptions {
            chains: false,
            ..*o
        };
        match self {
            ModelSpec::Vulkan(o) => ModelSpec::Vulkan(off(o)),
            ModelSpec::Hand(o) => ModelSpec::Hand(off(o)),
            ModelSpec::Cat { model, vulkan_file } => ModelSpec::Cat {
                model: Arc::new(model.with_variant("no-chains")),
                vulkan_file: *vulkan_file,
            },
        }
    }

    /// The name reports give the model: `vulkan`, `hand:vulkan-2024`, a cat model's name.
    pub fn name(&self) -> String {
        match self {
            ModelSpec::Vulkan(o) => o.variant.name().to_string(),
            ModelSpec::Hand(o) => format!("hand:{}", o.variant.name()),
            ModelSpec::Cat { model, .. } => model.name().to_string(),
        }
    }

    /// The name of the model as a cat model ([`Self::cat_model`]) for `explain`:
    /// `vulkan` or `vulkan-2024` for the Vulkan model named by options (also on the
    /// hand-written engine, whose definitions explain reads from vulkan.cat).
    pub fn cat_name(&self) -> String {
        match self {
            ModelSpec::Vulkan(o) | ModelSpec::Hand(o) => o.variant.name().to_string(),
            ModelSpec::Cat { model, .. } => model.name().to_string(),
        }
    }

    /// The variants the model runs with, sorted: those its cat model was compiled with,
    /// or the options `mmra` and `no-chains`.
    pub fn variants_on(&self) -> Vec<String> {
        match self {
            ModelSpec::Cat { model, .. } => model.active_variants().iter().cloned().collect(),
            ModelSpec::Vulkan(o) | ModelSpec::Hand(o) => {
                [(o.mmra, "mmra"), (!o.chains, "no-chains")]
                    .into_iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, v)| v.to_string())
                    .collect()
            }
        }
    }
}

/// The model of a run, as the command line chose it.
#[derive(Debug, Clone)]
pub struct ModelChoice {
    /// The model named by `--model`; without it, the Vulkan model with the variants it
    /// has (OPENCL tests then run the OpenCL model, [`crate::judge`]).
    pub spec: ModelSpec,
    /// As given on the command line (with its variants), for reports.
    pub name: String,
    /// False when `--model` was not given: OPENCL tests then run the OpenCL model.
    pub given: bool,
    /// Every variant asked for (`--variant`, `--no-chains`); without `--model`, each
    /// dialect's model takes those it has ([`crate::judge`]).
    pub variants: Vec<String>,
}

impl Default for ModelChoice {
    fn default() -> Self {
        ModelChoice {
            spec: ModelSpec::default(),
            name: "vulkan".into(),
            given: false,
            variants: Vec::new(),
        }
    }
}

impl ModelChoice {
    /// `spec`, as if given with `--model` (it judges every test).
    pub fn given(spec: ModelSpec) -> ModelChoice {
        ModelChoice {
            name: spec.name(),
            spec,
            given: true,
            variants: Vec::new(),
        }
    }
}

/// Every model name `--model` accepts, with a line about it.
pub fn list() -> Vec<(String, String)> {
    let mut out = vec![
        (
            "vulkan".to_string(),
            "the Vulkan model (spirv.als with the 2025 av/vis inclusion), the bundled vulkan.cat on the cat engine (default)".to_string(),
        ),
        (
            "vulkan-2024".to_string(),
            "the Vulkan model exactly as the seed spirv.als (vulkan.cat with variant vulkan-2024)".to_string(),
        ),
        (
            "hand:vulkan".to_string(),
            "the same as vulkan, run by the hand-written Rust transcription (the differential tests' reference)".to_string(),
        ),
        (
            "hand:vulkan-2024".to_string(),
            "the same as vulkan-2024, run by the hand-written Rust transcription".to_string(),
        ),
    ];
    out.push((
        "opencl".to_string(),
        "the SPIR-V memory model for OpenCL (seed 004), cat engine; the default for OPENCL tests"
            .to_string(),
    ));
    for b in BUNDLED.iter().filter(|b| b.name != "opencl") {
        out.push((format!("cat:{}", b.name), format!("{} (cat engine)", b.doc)));
    }
    for (name, doc) in &mut out {
        let variants = variants_of(name.strip_prefix("cat:").unwrap_or(name));
        if !variants.is_empty() {
            doc.push_str(&format!("; variants: {}", variants.join(", ")));
        }
    }
    out
}

/// The variants `--variant` may turn on with a bundled name: those its cat file tests,
/// less those the name already turns on (`vulkan-2024` is vulkan.cat with one). The
/// hand-written `vulkan` and `vulkan-2024` take the same (docs/models.md).
fn variants_of(bundled: &str) -> Vec<String> {
    let Some(b) = BUNDLED.iter().find(|b| b.name == bundled) else {
        return Vec::new();
    };
    let model = Model::bundled(bundled, &[]).expect("bundled models compile");
    model
        .variants()
        .iter()
        .filter(|v| !b.variants.contains(&v.as_str()))
        .cloned()
        .collect()
}

/// Why `--model`, `--variant` and `--no-chains` name no model. `Display` gives the whole
/// message, `error: ` included (a located one ends with a newline).
#[derive(Debug)]
pub enum ModelError {
    /// `hand:NAME` with a name the hand-written engine does not run.
    UnknownHandModel { name: String },
    /// `hand:NAME` with a variant other than `mmra` and `no-chains`.
    HandVariant { name: String },
    /// A name that is neither bundled nor a readable file; `models` lists the bundled ones.
    Unreadable {
        name: String,
        error: std::io::Error,
        models: Vec<String>,
    },
    /// The cat model does not compile (located in its file, when it has one).
    Cat(Box<vkherd_cat::CatError>),
    /// A variant the model does not test; `tests` are those it does.
    NoSuchVariant {
        name: String,
        variant: String,
        tests: String,
    },
    /// The model has no usable `co`; located at the start of its file.
    Coherence { problem: CoProblem, source: Source },
    /// Without `--model`, a variant neither dialect's model has.
    UnknownVariant(UnknownVariant),
}

/// What is wrong with a model's `co`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoProblem {
    /// Neither `co` nor `locord` is defined.
    Missing,
    /// `co` is a set.
    NotARelation,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::UnknownHandModel { name } => write!(
                f,
                "error: unknown model `{name}`: the hand-written engine runs hand:vulkan and hand:vulkan-2024"
            ),
            ModelError::HandVariant { name } => write!(
                f,
                "error: model {name} has only the variants mmra and no-chains (the cat models vulkan and vulkan-2024 take any of vulkan.cat's)"
            ),
            ModelError::Unreadable {
                name,
                error,
                models,
            } => write!(
                f,
                "error: cannot read model {name}: {error} (expected a .cat file or one of: {})",
                models.join(", ")
            ),
            ModelError::Cat(e) if e.file.is_empty() => {
                write!(f, "error: {}", e.diagnostic.message)
            }
            ModelError::Cat(e) => f.write_str(&e.render()),
            ModelError::NoSuchVariant {
                name,
                variant,
                tests,
            } => write!(
                f,
                "error: model {name} has no variant `{variant}` (it tests: {tests})"
            ),
            ModelError::Coherence { problem, source } => {
                let problem = match problem {
                    CoProblem::Missing => "the model defines neither `co` (the order of writes that decides final values) nor `locord`",
                    CoProblem::NotARelation => "the model's `co` is a set: expected a relation (the order of writes that decides final values)",
                };
                let whole = vkherd_litmus::Diagnostic::new(
                    vkherd_litmus::span_at(&source.text, 0, 0),
                    format!("{problem} (see docs/models.md; this concerns the model as a whole)"),
                );
                f.write_str(&whole.render(&source.name, &source.text))
            }
            ModelError::UnknownVariant(u) => u.fmt(f),
        }
    }
}

impl std::error::Error for ModelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ModelError::Unreadable { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Resolves `--model`, `--variant` and `--no-chains`.
pub fn resolve(
    name: &str,
    variants: &[String],
    no_chains: bool,
) -> Result<ModelChoice, ModelError> {
    let mut all: Vec<String> = variants.to_vec();
    if no_chains {
        all.push("no-chains".into());
    }
    let shown = std::iter::once(name.to_string())
        .chain(all.iter().map(|v| format!("+{v}")))
        .collect::<String>();
    // The hand-written engine's own switches (`mmra`: docs/mmra.md).
    let hand = |variant| ModelOptions {
        variant,
        chains: !no_chains && !variants.iter().any(|v| v == "no-chains"),
        mmra: variants.iter().any(|v| v == "mmra"),
    };
    // Both engines have the variants `no-chains` (as --no-chains) and `mmra` as model
    // options: `cat` stays `None` and the engine compiles vulkan.cat with them
    // (`vkherd_enumerate::bundled_model`, once per process); the tests require both
    // engines to agree (crates/enumerate/tests/cat_model.rs, tests/mmra_properties.rs).
    let hand_name = name.strip_prefix("hand:");
    // (`--variant no-chains` with `vulkan` compiles the cat model with it, as any other
    // variant: its reports name the variants the model was compiled with.)
    let options_only = variants
        .iter()
        .all(|v| v == "mmra" || hand_name.is_some() && v == "no-chains");
    if let Some(hand_name) = hand_name {
        if !matches!(hand_name, "vulkan" | "vulkan-2024") {
            return Err(ModelError::UnknownHandModel {
                name: name.to_string(),
            });
        }
        if !options_only {
            return Err(ModelError::HandVariant {
                name: name.to_string(),
            });
        }
    }
    // `vulkan_file`: the model is one of the bundled Vulkan files ([`ModelSpec::Cat`]).
    let (vulkan_file, model) = match hand_name.unwrap_or(name) {
        base @ ("vulkan" | "vulkan-2024") if options_only => {
            let options = hand(Variant::from_name(base).expect("a variant name"));
            return Ok(ModelChoice {
                spec: match hand_name {
                    Some(_) => ModelSpec::Hand(options),
                    None => ModelSpec::Vulkan(options),
                },
                name: shown,
                given: true,
                variants: all,
            });
        }
        "vulkan" | "vulkan-2024" => (true, Model::bundled(name, &all)),
        // OpenCL has no hand-written engine: the name is the bundled cat model.
        "opencl" => (false, Model::bundled("opencl", &all)),
        _ => match name.strip_prefix("cat:") {
            Some(b) => (
                matches!(b, "vulkan" | "vulkan-2024" | "vulkan-asserts"),
                Model::bundled(b, &all),
            ),
            None => {
                // Read as test files are: bytes that are not UTF-8 become U+FFFD, which
                // the lexer then refuses at their place.
                let text = std::fs::read(name)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .map_err(|error| ModelError::Unreadable {
                        name: name.to_string(),
                        error,
                        models: list().into_iter().map(|(n, _)| n).collect(),
                    })?;
                let set: BTreeSet<String> = all.iter().cloned().collect();
                let src = Source {
                    name: name.to_string(),
                    text: Arc::from(text),
                };
                (false, Model::compile(src, &set))
            }
        },
    };
    let model = model.map_err(|e| ModelError::Cat(Box::new(e)))?;
    for v in &all {
        if !model.variants().contains(v) {
            return Err(ModelError::NoSuchVariant {
                name: name.to_string(),
                variant: v.clone(),
                tests: variant_list(&model),
            });
        }
    }
    let problem = match model.named("co") {
        None => Some(CoProblem::Missing),
        Some(co) if model.graph().kind(co) != vkherd_cat::Kind::Rel => {
            Some(CoProblem::NotARelation)
        }
        Some(_) => None,
    };
    if let Some(problem) = problem {
        // Located at the start of the model file, as errors about a whole test are.
        return Err(ModelError::Coherence {
            problem,
            source: model.source().clone(),
        });
    }
    Ok(ModelChoice {
        spec: ModelSpec::Cat {
            model: Arc::new(model),
            vulkan_file,
        },
        name: shown,
        given: true,
        variants: all,
    })
}

/// The variants a model tests, for error messages ("none" if it tests none).
fn variant_list(model: &Model) -> String {
    if model.variants().is_empty() {
        return "none".to_string();
    }
    model
        .variants()
        .iter()
        .cloned()
        .collect::<Vec<_>>()
        .join(", ")
}

/// The bundled OpenCL model with `variants` on, all of them variants it tests
/// ([`opencl_variants`]): the model of OPENCL tests when `--model` is not given
/// (`--variant mmra` is its variant, docs/mmra.md "OpenCL"; [`crate::judge`]). Plain and
/// `mmra` are compiled once per process.
pub fn opencl(variants: &[String]) -> Arc<Model> {
    type Cell = std::sync::OnceLock<Arc<Model>>;
    static PLAIN: Cell = Cell::new();
    static MMRA: Cell = Cell::new();
    let compile = || Arc::new(Model::bundled("opencl", variants).expect("opencl.cat compiles"));
    match variants {
        [] => PLAIN.get_or_init(compile).clone(),
        [v] if v == "mmra" => MMRA.get_or_init(compile).clone(),
        _ => compile(),
    }
}

/// The variants opencl.cat tests.
pub fn opencl_variants() -> BTreeSet<String> {
    opencl(&[]).variants().clone()
}

/// A variant asked for without `--model` that neither dialect's model has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant {
    pub variant: String,
    /// The variants `vulkan` and `opencl` test.
    pub vulkan: Vec<String>,
    pub opencl: Vec<String>,
}

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error: no model has the variant `{}`: without --model, tests are judged by vulkan (variants: {}) and OPENCL tests by opencl (variants: {}); `vkherd models` lists every model's",
            self.variant,
            self.vulkan.join(", "),
            self.opencl.join(", ")
        )
    }
}

/// The models of a run without `--model`: `vulkan` with the variants asked for that it
/// has (the `opencl` model of OPENCL tests takes its own, [`crate::judge`]). Every
/// variant must be one of either model; the choice keeps them all in `variants`.
pub fn by_dialect(variants: &[String], no_chains: bool) -> Result<ModelChoice, ModelError> {
    let vulkan: Vec<String> = variants_of("vulkan");
    let opencl: Vec<String> = opencl_variants().into_iter().collect();
    if let Some(v) = variants
        .iter()
        .find(|v| !vulkan.contains(v) && !opencl.contains(v))
    {
        return Err(ModelError::UnknownVariant(UnknownVariant {
            variant: v.clone(),
            vulkan,
            opencl,
        }));
    }
    let for_vulkan: Vec<String> = variants
        .iter()
        .filter(|v| vulkan.contains(v))
        .cloned()
        .collect();
    let mut choice = resolve("vulkan", &for_vulkan, no_chains)?;
    choice.given = false;
    choice.variants = variants.to_vec();
    if no_chains {
        choice.variants.push("no-chains".into());
    }
    Ok(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// A model file of `text` in a fresh temporary directory.
    fn model_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("vkherd-models-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Each way a model is refused is its kind; the CLI prints it as it is worded here
    /// (tests/models_cli.rs checks the same texts on the command line).
    #[test]
    fn refused_models_give_their_kind() {
        let e = resolve("hand:opencl", &[], false).unwrap_err();
        assert!(matches!(&e, ModelError::UnknownHandModel { name } if name == "hand:opencl"));
        assert_eq!(
            e.to_string(),
            "error: unknown model `hand:opencl`: the hand-written engine runs hand:vulkan and hand:vulkan-2024"
        );

        let e = resolve("hand:vulkan", &strings(&["rc11-sc"]), false).unwrap_err();
        assert!(matches!(e, ModelError::HandVariant { .. }), "{e:?}");
        assert!(e
            .to_string()
            .starts_with("error: model hand:vulkan has only the variants mmra and no-chains"));

        let e = resolve("vulkan", &strings(&["nope"]), false).unwrap_err();
        assert!(
            matches!(&e, ModelError::NoSuchVariant { variant, .. } if variant == "nope"),
            "{e:?}"
        );
        assert!(e
            .to_string()
            .starts_with("error: model vulkan has no variant `nope` (it tests: "));

        let e = by_dialect(&strings(&["frob"]), false).unwrap_err();
        assert!(
            matches!(&e, ModelError::UnknownVariant(u) if u.variant == "frob"),
            "{e:?}"
        );
        assert!(e
            .to_string()
            .starts_with("error: no model has the variant `frob`"));

        let missing = model_file("absent", "").with_file_name("absent.cat");
        let e = resolve(missing.to_str().unwrap(), &[], false).unwrap_err();
        assert!(matches!(e, ModelError::Unreadable { .. }), "{e:?}");
        assert!(
            e.to_string()
                .contains("(expected a .cat file or one of: vulkan, "),
            "{e}"
        );

        let bad = model_file("bad.cat", "\"bad\"\nacyclic po |\n");
        let e = resolve(bad.to_str().unwrap(), &[], false).unwrap_err();
        assert!(
            matches!(&e, ModelError::Cat(c) if !c.file.is_empty()),
            "{e:?}"
        );
        assert!(e.to_string().contains("bad.cat:3:1"), "{e}");

        let no_co = model_file("noco.cat", "acyclic po | rf");
        let e = resolve(no_co.to_str().unwrap(), &[], false).unwrap_err();
        assert!(
            matches!(
                e,
                ModelError::Coherence {
                    problem: CoProblem::Missing,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("error: the model defines neither `co`"),
            "{e}"
        );
        assert!(e.to_string().contains("noco.cat:1:1"), "{e}");

        let set_co = model_file("setco.cat", "let co = W\nacyclic po | rf");
        let e = resolve(set_co.to_str().unwrap(), &[], false).unwrap_err();
        assert!(
            matches!(
                e,
                ModelError::Coherence {
                    problem: CoProblem::NotARelation,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("error: the model's `co` is a set: expected a relation"),
            "{e}"
        );
    }
}
