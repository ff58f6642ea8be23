//! `GET /api/catalog`: what the page offers, found in the library rather than written
//! down here: the models and the variants each takes, the progress models, and the
//! examples (the embedded corpus) with the dialect each is in. A dialect the library
//! learns to read appears with its examples.

use serde::Serialize;
use std::collections::BTreeMap;
use vkherd_model::Dialect;
use vkherd_serve::Limits;

/// The embedded corpus as the library reads it.
pub struct Corpus {
    /// The dialects of the examples, by name (`vulkan`, `opencl`, ...).
    pub dialects: BTreeMap<String, &'static Dialect>,
    examples: Vec<Example>,
}

#[derive(Serialize)]
struct Example {
    /// Below `litmus-tests/`: `GET /api/example/PATH` gives its text.
    path: &'static str,
    /// The test's name (its header), or `null` if it does not load.
    name: Option<String>,
    dialect: Option<String>,
}

/// A dialect's name in the API: its name in the library.
pub fn dialect_name(d: &Dialect) -> String {
    d.name.to_string()
}

impl Corpus {
    pub fn load() -> Corpus {
        let mut dialects = BTreeMap::new();
        let examples = vkherd_serve::corpus::FILES
            .iter()
            .map(|(path, text)| {
                let program = vkherd::load_litmus(text).ok();
                let dialect = program.as_ref().map(|p| {
                    let name = dialect_name(p.dialect);
                    dialects.insert(name.clone(), p.dialect);
                    name
                });
                Example {
                    path,
                    name: program.map(|p| p.name),
                    dialect,
                }
            })
            .collect();
        Corpus { dialects, examples }
    }
}

#[derive(Serialize)]
struct Catalog<'a> {
    vkherd: &'static str,
    models: Vec<Model>,
    /// The variants a run without `model` takes (each dialect's model takes its own).
    default_variants: Vec<String>,
    dialects: Vec<&'a str>,
    /// `--progress` models, and the levels a per-level one names.
    progress: Vec<&'static str>,
    levels: Vec<&'static str>,
    examples: &'a [Example],
    defaults: Defaults,
    limits: LimitsObject,
}

#[derive(Serialize)]
struct Model {
    name: String,
    doc: String,
    /// The variants `--variant` takes with it.
    variants: Vec<String>,
}

#[derive(Serialize)]
struct Defaults {
    unroll: u32,
}

#[derive(Serialize)]
struct LimitsObject {
    max_runs: usize,
    timeout_seconds: f64,
    max_candidates: u64,
    max_unroll: u32,
    max_body: usize,
}

pub fn catalog(corpus: &Corpus, limits: &Limits) -> String {
    use vkherd::liveness::ProgressModel;
    let models: Vec<Model> = vkherd::models::list()
        .into_iter()
        .map(|(name, doc)| Model {
            variants: variants(&name),
            name,
            doc,
        })
        .collect();
    let mut default_variants: Vec<String> = models
        .iter()
        .flat_map(|m| m.variants.iter().cloned())
        .filter(|v| vkherd::models::by_dialect(std::slice::from_ref(v), false).is_ok())
        .collect();
    default_variants.sort();
    default_variants.dedup();
    let catalog = Catalog {
        vkherd: vkherd::VERSION,
        models,
        default_variants,
        dialects: corpus.dialects.keys().map(String::as_str).collect(),
        progress: ProgressModel::ALL.iter().map(|m| m.name()).collect(),
        levels: vkherd::liveness::level_keys(),
        examples: &corpus.examples,
        defaults: Defaults {
            unroll: vkherd::RunConfig::default().unroll,
        },
        limits: LimitsObject {
            max_runs: limits.max_runs,
            timeout_seconds: limits.timeout.as_secs_f64(),
            max_candidates: limits.max_candidates,
            max_unroll: limits.max_unroll,
            max_body: limits.max_body,
        },
    };
    serde_json::to_string(&catalog).expect("the catalog serializes")
}

/// The variants `--model name --variant V` accepts: those its cat model tests that are
/// not already on, kept if the model resolves with them (the hand-written engine takes
/// fewer).
fn variants(name: &str) -> Vec<String> {
    let Ok(choice) = vkherd::models::resolve(name, &[], false) else {
        return Vec::new();
    };
    let on = choice.spec.variants_on();
    let model = choice.spec.cat_model();
    let mut out: Vec<String> = model
        .variants()
        .iter()
        .filter(|v| !on.contains(v) && !model.active_variants().contains(*v))
        .filter(|v| vkherd::models::resolve(name, std::slice::from_ref(v), false).is_ok())
        .cloned()
        .collect();
    out.sort();
    out
}
