//! A request's options as the run's `vkherd::Options`, as `RunArgs::options` makes them
//! from the command line, with the server's bounds for limits. A model is named, never a
//! path: a request cannot make the server read a file.

use vkherd::models::{by_dialect, resolve, ModelChoice};
use vkherd::{Options, RunConfig};
use vkherd_serve::{Bounds, RunOptions};

/// Why a request's options name no run.
#[derive(Debug)]
pub enum OptionsError {
    /// Not a model `vkherd models` lists (files are not taken).
    UnknownModel {
        name: String,
        known: Vec<String>,
    },
    /// The model refused the variants (`--variant`).
    Model(vkherd::models::ModelError),
    Progress(vkherd::liveness::ProgressError),
}

impl std::fmt::Display for OptionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionsError::UnknownModel { name, known } => write!(
                f,
                "unknown model `{name}`: this server runs the bundled models ({}), not model files",
                known.join(", ")
            ),
            // The CLI's words, without its `error: ` prefix (the answer says it is one).
            OptionsError::Model(e) => {
                let text = e.to_string();
                f.write_str(text.strip_prefix("error: ").unwrap_or(&text).trim_end())
            }
            OptionsError::Progress(e) => write!(f, "--progress: {e}"),
        }
    }
}

/// The model `name` (with its variants) if `models` lists it, else by dialect.
pub fn model(
    models: &[String],
    name: Option<&str>,
    variants: &[String],
) -> Result<ModelChoice, OptionsError> {
    match name {
        None | Some("") => by_dialect(variants, false).map_err(OptionsError::Model),
        Some(name) if models.iter().any(|m| m == name) => {
            resolve(name, variants, false).map_err(OptionsError::Model)
        }
        Some(name) => Err(OptionsError::UnknownModel {
            name: name.to_string(),
            known: models.to_vec(),
        }),
    }
}

/// The options of a run of `model` with the request's flags, within `bounds`.
pub fn options(
    model: ModelChoice,
    o: &RunOptions,
    bounds: &Bounds,
) -> Result<Options, OptionsError> {
    let progress = match &o.progress {
        Some(p) if !p.is_empty() => {
            Some(vkherd::liveness::parse_progress(p).map_err(OptionsError::Progress)?)
        }
        _ => None,
    };
    Ok(Options {
        model,
        run: RunConfig {
            unroll: o.unroll.unwrap_or(RunConfig::default().unroll),
            no_thin_air: o.no_thin_air,
            max_candidates: Some(bounds.max_candidates),
            timeout: Some(bounds.timeout),
            ..RunConfig::default()
        },
        liveness: progress.or(o.liveness.then(vkherd::liveness::Progress::default)),
    })
}
