//! `--show REL,...` of the main form, checked before any test runs: every name must be a
//! relation of a model the run judges with, and something must be drawn. (Each test's
//! own model checks the names again when its witnesses are drawn.)

use super::herd7_options::HERD7_SHOW_VALUES;
use std::sync::Arc;
use vkherd::explain::{check_show, is_relation, UnknownRelation};
use vkherd_cat::Model;

/// What is wrong with `--show`.
#[derive(Debug)]
pub enum ShowError {
    /// herd7's `-show` keyword (which executions to draw), not a relation.
    Herd7Keyword(String),
    /// A name no model of the run has as a relation: why, for each model, with the
    /// header word of the first dialect whose tests it judges.
    Unknown(Vec<(&'static str, UnknownRelation)>),
    /// `--show` without `--dot` or `--graph DIR`: nothing would be drawn.
    NothingDrawn,
}

impl std::fmt::Display for ShowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShowError::Herd7Keyword(word) => write!(
                f,
                "error: --show {word}: herd7's -show {word} chooses which executions to draw; vkherd draws a witness per state (vkherd explain: the executions of the states asked about), and its --show (herd7's -doshow) names relations to draw, e.g. --show hb,sw"
            ),
            ShowError::Unknown(why) => {
                let mut parts = why.iter();
                if let Some((_, first)) = parts.next() {
                    write!(f, "error: {first}")?;
                }
                for (header, other) in parts {
                    write!(
                        f,
                        "; nor of `{}` (which judges {header} tests): one of {}",
                        other.model,
                        other.known.join(", ")
                    )?;
                }
                Ok(())
            }
            ShowError::NothingDrawn => write!(
                f,
                "error: --show names relations to draw in the witness graphs, and nothing is drawn: add --dot (DOT on stdout) or --graph DIR (files); `vkherd explain --show` adds them to an explanation"
            ),
        }
    }
}

/// The models a run may judge with: the one of `--model` (for the dialects it is for),
/// or each dialect's own, as the run resolves them; each with the header word of the
/// first dialect it judges.
fn models(opts: &vkherd::Options) -> Vec<(&'static str, Arc<Model>)> {
    let mut out: Vec<(&'static str, Arc<Model>)> = Vec::new();
    for dialect in vkherd_dialects::ALL {
        if let Ok(resolved) = opts.model.resolve(dialect) {
            let model = resolved.cat_model();
            if !out.iter().any(|(_, m)| Arc::ptr_eq(m, model)) {
                out.push((dialect.header, model.clone()));
            }
        }
    }
    out
}

/// Checks `--show` (`show`) for a run with `opts` that draws with `--dot` or `--graph`
/// (`drawing`).
pub fn check(show: &[String], drawing: bool, opts: &vkherd::Options) -> Result<(), ShowError> {
    if show.is_empty() {
        return Ok(());
    }
    let models = models(opts);
    for name in show {
        if models.iter().any(|(_, m)| is_relation(m, name)) {
            continue;
        }
        if HERD7_SHOW_VALUES.contains(&name.as_str()) {
            return Err(ShowError::Herd7Keyword(name.clone()));
        }
        let why = models
            .iter()
            .filter_map(|(header, m)| Some((*header, check_show(m, &[name.as_str()]).err()?)))
            .collect();
        return Err(ShowError::Unknown(why));
    }
    if drawing {
        Ok(())
    } else {
        Err(ShowError::NothingDrawn)
    }
}
