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

/// The translation that lets `spec` judge a test of `dialect` it is not for: into the
/// first registered dialect it is for that has one from `dialect` (`vkherd diff vulkan ptx`
/// on a Vulkan test translates it to PTX for ptx, docs/ptx.md "Vulkan ↔ PTX mapping").
/// `None` when the model is for `dialect`, or no translation helps.
pub fn translation_for(
    spec: &ModelSpec,
    dialect: &'static vkherd_model::Dialect,
) -> Option<&'static vkherd_model::Translation> {
    let cat = spec.cat_model();
    if cat.foreign_bases(dialect).is_empty() {
        return None;
    }
    (vkherd_dialects::ALL.iter().copied())
        .filter(|d| cat.foreign_bases(d).is_empty())
        .find_map(|d| vkherd_dialects::translation(dialect, d))
}

/// Every model name `--model` accepts, with a line about it: the default dialect's
/// models by their bare names, the hand-written engine's, the other dialects' models by
/// their bare names, then `cat:NAME` for the bundled cat models not listed bare on the
/// cat engine already.
pub fn list() -> Vec<(String, String)> {
    let summarised = |d: &'static vkherd_model::Dialect| {
        (d.models.iter()).filter_map(|b| Some((b.name.to_string(), b.summary?.to_string())))
    };
    let (default, others) = vkherd_dialects::ALL.split_first().expect("a dialect");
    let mut out: Vec<(String, String)> = summarised(default).collect();
    out.extend(HAND.iter().map(|(n, d)| (n.to_string(), d.to_string())));
    out.extend(others.iter().flat_map(|d| summarised(d)));
    for d in vkherd_dialects::ALL {
        let bare_on_cat = !std::ptr::eq(*d, *default);
        for b in d
            .models
            .iter()
            .filter(|b| !(bare_on_cat && b.summary.is_some()))
        {
            out.push((format!("cat:{}", b.name), format!("{} (cat engine)", b.doc)));
        }
    }
    for (name, doc) in &mut out {
        let variants = variants_of(name.strip_prefix("cat:").unwrap_or(name));
        if !variants.is_empty() {
            doc.push_str(&format!("; variants: {}", variants.join(", ")));
        }
    }
    out
}

/// The line of `vkherd models` about a model given as a file.
pub const FILE_MODELS: &str = "a cat model of yours; one that reads names only Dat3M's event view has (IW, co, loc, amo, Dat3M's scope tags...), as Dat3M's own models in third_party/dat3m/models do, runs in that view (docs/models.md, \"Dat3M's event view\")";

/// The hand-written engine's models, with their lines in `vkherd models`.
const HAND: [(&str, &str); 2] = [
    (
        "hand:vulkan",
        "the same as vulkan, run by the hand-written Rust transcription (the differential tests' reference)",
    ),
    (
        "hand:vulkan-2024",
        "the same as vulkan-2024, run by the hand-written Rust transcription",
    ),
];

/// The variants `--variant` may turn on with a bundled name: those its cat file tests,
/// less those the name already turns on (`vulkan-2024` is vulkan.cat with one). The
/// hand-written `vulkan` and `vulkan-2024` take the same (docs/models.md).
fn variants_of(bundled: &str) -> Vec<String> {
    let Some(b) = BUNDLED.iter().find(|b| b.name == bundled) else {
        return Vec::new();
    };
    let model = Model::bundled_shared(bundled, &[]).expect("bundled models compile");
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

/// A model as named on the command line, parsed but not compiled: `--model`'s value
/// and `diff`'s and `distinguish`'s A and B, `NAME[+VARIANT...]` (the one parser of
/// model names; [`resolve`] compiles what it names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelName {
    /// What the name part names.
    pub base: Base,
    /// The variants after `+`, in order.
    pub variants: Vec<String>,
}

/// What a model name (without its variants) names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    /// `vulkan`, `vulkan-2024` (vulkan.cat, or the hand-written engine's options when
    /// the variants allow) or `opencl`.
    Bundled(String),
    /// `hand:NAME`: the hand-written engine.
    Hand(String),
    /// `cat:NAME`: a bundled cat model on the cat engine.
    Cat(String),
    /// Anything else: a `.cat` file's path.
    File(String),
}

impl Base {
    /// The name as written (`hand:vulkan`, a path).
    pub fn text(&self) -> String {
        match self {
            Base::Bundled(n) | Base::File(n) => n.clone(),
            Base::Hand(n) => format!("hand:{n}"),
            Base::Cat(n) => format!("cat:{n}"),
        }
    }
}

impl ModelName {
    /// Parses `NAME[+VARIANT...]`. A spec that is not a bundled name but the path of an
    /// existing file is that file whole (a path may contain `+`).
    pub fn parse(spec: &str) -> ModelName {
        let mut parts = spec.split('+');
        let name = parts.next().unwrap_or_default();
        let variants = parts.map(str::to_string).collect();
        let base = if let Some(n) = name.strip_prefix("hand:") {
            Base::Hand(n.to_string())
        } else if let Some(n) = name.strip_prefix("cat:") {
            Base::Cat(n.to_string())
        } else if bare_name(name) {
            Base::Bundled(name.to_string())
        } else if std::path::Path::new(spec).is_file() {
            return ModelName {
                base: Base::File(spec.to_string()),
                variants: Vec::new(),
            };
        } else {
            Base::File(name.to_string())
        };
        ModelName { base, variants }
    }

    /// The bundled model the name stands for (`opencl` for `opencl` and `cat:opencl`).
    pub fn bundled(&self) -> Option<&str> {
        match &self.base {
            Base::Bundled(n) | Base::Cat(n) | Base::Hand(n) => Some(n),
            Base::File(_) => None,
        }
    }

    /// The same model on the hand-written engine, when it runs it: `vulkan` and
    /// `vulkan-2024` with no variants but `mmra` and `no-chains`.
    pub fn on_hand_engine(&self) -> Option<ModelName> {
        let vulkan = matches!(&self.base, Base::Bundled(n) if n == "vulkan" || n == "vulkan-2024");
        let options = (self.variants.iter()).all(|v| v == "mmra" || v == "no-chains");
        (vulkan && options).then(|| ModelName {
            base: Base::Hand(self.bundled().unwrap_or_default().to_string()),
            variants: self.variants.clone(),
        })
    }
}

/// `--model` takes `name` bare: a bundled model with a line of its own in `vkherd models`.
fn bare_name(name: &str) -> bool {
    BUNDLED
        .iter()
        .any(|b| b.name == name && b.summary.is_some())
}

/// The hand-written engine implements the bundled model `name`
/// ([`vkherd_model::BundledModel::hand_written_twin`]).
fn hand_written_twin(name: &str) -> bool {
    BUNDLED
        .iter()
        .any(|b| b.name == name && b.hand_written_twin)
}

/// Resolves `--model` (a [`ModelName`] spec, with its own `+VARIANT`s), `--variant` and
/// `--no-chains`.
pub fn resolve(
    spec: &str,
    variants: &[String],
    no_chains: bool,
) -> Result<ModelChoice, ModelError> {
    resolve_name(&ModelName::parse(spec), variants, no_chains)
}

/// [`resolve`] of a parsed name.
pub fn resolve_name(
    parsed: &ModelName,
    extra: &[String],
    no_chains: bool,
) -> Result<ModelChoice, ModelError> {
    let name = parsed.base.text();
    // The variants named, in the spec and then by `--variant`.
    let variants: Vec<String> = parsed.variants.iter().chain(extra).cloned().collect();
    let mut all: Vec<String> = variants.clone();
    if no_chains {
        all.push("no-chains".into());
    }
    let shown = std::iter::once(name.clone())
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
    let on_hand = matches!(parsed.base, Base::Hand(_));
    // (`--variant no-chains` with `vulkan` compiles the cat model with it, as any other
    // variant: its reports name the variants the model was compiled with.)
    let options_only = variants
        .iter()
        .all(|v| v == "mmra" || on_hand && v == "no-chains");
    if let Base::Hand(hand_name) = &parsed.base {
        if !matches!(hand_name.as_str(), "vulkan" | "vulkan-2024") {
            return Err(ModelError::UnknownHandModel { name });
        }
        if !options_only {
            return Err(ModelError::HandVariant { name });
        }
    }
    let given = |spec: ModelSpec| ModelChoice {
        spec,
        name: shown.clone(),
        given: true,
        variants: all.clone(),
    };
    // `vulkan_file`: the model is one of the bundled Vulkan files ([`ModelSpec::Cat`]).
    let (vulkan_file, model) = match &parsed.base {
        Base::Hand(base) | Base::Bundled(base)
            if options_only && matches!(base.as_str(), "vulkan" | "vulkan-2024") =>
        {
            let options = hand(Variant::from_name(base).expect("a variant name"));
            return Ok(given(match on_hand {
                true => ModelSpec::Hand(options),
                false => ModelSpec::Vulkan(options),
            }));
        }
        // Other bundled names have no hand-written engine: the bundled cat model.
        Base::Bundled(base) => (hand_written_twin(base), Model::bundled_shared(base, &all)),
        Base::Hand(_) => unreachable!("refused above unless options_only"),
        Base::Cat(b) => (hand_written_twin(b), Model::bundled_shared(b, &all)),
        Base::File(path) => {
            // Read as test files are: bytes that are not UTF-8 become U+FFFD, which
            // the lexer then refuses at their place.
            let text = std::fs::read(path)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|error| ModelError::Unreadable {
                    name: name.clone(),
                    error,
                    models: list().into_iter().map(|(n, _)| n).collect(),
                })?;
            let set: BTreeSet<String> = all.iter().cloned().collect();
            let src = Source {
                name: path.clone(),
                text: Arc::from(text),
            };
            (false, Model::compile(src, &set).map(Arc::new))
        }
    };
    let model = model.map_err(|e| ModelError::Cat(Box::new(e)))?;
    for v in &all {
        if !model.variants().contains(v) {
            return Err(ModelError::NoSuchVariant {
                name: name.clone(),
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
    Ok(given(ModelSpec::Cat { model, vulkan_file }))
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

/// The bundled model `name` with `variants` on, from the one cache of bundled models: a
/// dialect's model when `--model` is not given ([`ModelChoice::resolve`]).
pub fn bundled(name: &str, variants: &[String]) -> Arc<Model> {
    Model::bundled_shared(name, variants).expect("the bundled models compile")
}

/// A variant asked for without `--model` that no dialect's model has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant {
    pub variant: String,
    /// Each dialect's header word, its model and the variants that model tests.
    pub models: Vec<(&'static str, &'static str, Vec<String>)>,
}

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let judged: Vec<String> = (self.models.iter().enumerate())
            .map(|(i, (header, model, variants))| {
                let tests = if i == 0 {
                    String::new()
                } else {
                    format!("{header} tests ")
                };
                format!("{tests}by {model} (variants: {})", variants.join(", "))
            })
            .collect();
        write!(
            f,
            "error: no model has the variant `{}`: without --model, tests are judged {}; `vkherd models` lists every model's",
            self.variant,
            judged.join(" and ")
        )
    }
}

/// The models of a run without `--model`: the default dialect's model with the
/// variants asked for that it has (the other dialects' models take their own,
/// [`crate::judge`]). Every variant must be one of some dialect's model; the choice
/// keeps them all in `variants`.
pub fn by_dialect(variants: &[String], no_chains: bool) -> Result<ModelChoice, ModelError> {
    let models: Vec<(&'static str, &'static str, Vec<String>)> = (vkherd_dialects::ALL.iter())
        .map(|d| {
            let model = d.default_model().name;
            (d.header, model, variants_of(model))
        })
        .collect();
    if let Some(v) = (variants.iter()).find(|v| !models.iter().any(|(_, _, has)| has.contains(v))) {
        return Err(ModelError::UnknownVariant(UnknownVariant {
            variant: v.clone(),
            models,
        }));
    }
    let (_, default, has) = &models[0];
    let for_default: Vec<String> = (variants.iter())
        .filter(|v| has.contains(v))
        .cloned()
        .collect();
    let mut choice = resolve(default, &for_default, no_chains)?;
    choice.given = false;
    choice.variants = variants.to_vec();
    if no_chains {
        choice.variants.push("no-chains".into());
    }
    Ok(choice)
}

/// A model as `vkherd distinguish` compares it: its name as given and the options that
/// run it, for the set of states only ([`vkherd_generate::search::Model`]).
#[derive(Debug, Clone)]
pub struct Compared {
    pub name: String,
    pub options: crate::Options,
}

impl Compared {
    /// A model as `vkherd diff` names it (`NAME|FILE` with `+VARIANT` suffixes), run
    /// for the set of states only. The bundled Vulkan models that the hand-written
    /// engine also runs (`vulkan`, `vulkan-2024`, with `no-chains` or `mmra`) run on it:
    /// it agrees with vulkan.cat candidate by candidate (crates/enumerate/tests/cat_model.rs; on the
    /// search's own programs, tests/distinguish.rs) and is twice as fast on programs
    /// this small. Explanations still name vulkan.cat's definitions.
    pub fn from_spec(spec: &str) -> Result<Compared, ModelError> {
        let name = ModelName::parse(spec);
        let choice = resolve_name(&name, &[], false)?;
        let engine = match name.on_hand_engine() {
            Some(hand) => resolve_name(&hand, &[], false)?,
            None => choice.clone(),
        };
        Ok(Compared {
            name: choice.name.clone(),
            options: crate::Options {
                model: ModelChoice {
                    name: choice.name.clone(),
                    given: true,
                    ..engine
                },
                run: crate::RunConfig {
                    states_only: true,
                    ..crate::RunConfig::default()
                },
                ..crate::Options::default()
            },
        })
    }
}

impl vkherd_generate::search::Model for Compared {
    fn states(
        &self,
        program: &vkherd_model::Program,
    ) -> Result<vkherd_generate::search::States, String> {
        let r = crate::run(program, &self.options).map_err(|d| d.message)?;
        let states = &r.outcomes.states;
        Ok(vkherd_generate::search::States {
            all: states.keys().cloned().collect(),
            // Every flag of the model counts as undefined behaviour here, as the data race
            // does (and Dat3M's flags: racy, data_race, unsequenced_race,
            // undefined-behavior): a program some flag marks is left out of the comparison,
            // which can only hide a difference, never report one that is not there.
            race_free: states
                .iter()
                .filter(|(_, i)| i.unflagged)
                .map(|(k, _)| k.clone())
                .collect(),
            stopped: r.stats.stopped.is_some(),
            // Known only when every execution ran: a states-only run skips some.
            racy: !self.options.run.states_only && !r.outcomes.flags.is_empty(),
        })
    }
}
