//! A test run by a model of another dialect, through a registered translation
//! (`vkherd diff`, `vkherd distinguish`; docs/cli.md "vkherd diff"): the program the
//! model judges, and the listing of what each instruction became.

use crate::models::{translation_for, ModelSpec};
use serde::Serialize;
use std::borrow::Cow;
use vkherd_litmus::Diagnostic;
use vkherd_model::Program;

/// What a translation did to one test, for text and JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    /// The dialects' names (`vulkan`, `ptx`).
    pub from: &'static str,
    pub to: &'static str,
    /// Where the mapping is written down.
    pub doc: &'static str,
    pub steps: Vec<ListedStep>,
}

/// One source instruction and what it became.
#[derive(Debug, Clone, Serialize)]
pub struct ListedStep {
    pub thread: usize,
    pub from: String,
    pub to: String,
}

/// The program `spec` judges for `p` (written as `source`): `p` itself when the model is
/// for its dialect or no translation is registered (the run then refuses it as before),
/// else its translation and the listing; a construct the translation refuses is the
/// error, at its place.
pub fn for_model<'p>(
    p: &'p Program,
    source: &str,
    spec: &ModelSpec,
) -> Result<(Cow<'p, Program>, Option<Listing>), Diagnostic> {
    let Some(t) = translation_for(spec, p.dialect) else {
        return Ok((Cow::Borrowed(p), None));
    };
    let done = (t.translate)(p)?;
    let steps = (done.steps.iter())
        .map(|s| ListedStep {
            thread: s.thread,
            from: source
                .get(s.span.offset..s.span.offset + s.span.len)
                .unwrap_or("?")
                .trim()
                .to_string(),
            to: s.to.clone(),
        })
        .collect();
    let listing = Listing {
        from: t.from,
        to: t.to,
        doc: t.doc,
        steps,
    };
    Ok((Cow::Owned(done.program), Some(listing)))
}

/// [`for_model`] when `translate`, else `p` as it is (the run then refuses it).
pub fn for_model_if<'p>(
    translate: bool,
    p: &'p Program,
    source: &str,
    spec: &ModelSpec,
) -> Result<(Cow<'p, Program>, Option<Listing>), Diagnostic> {
    if translate {
        for_model(p, source, spec)
    } else {
        Ok((Cow::Borrowed(p), None))
    }
}

impl Listing {
    /// The listing as text lines: a header naming the model, then `P0: FROM  =>  TO`,
    /// aligned.
    pub fn lines(&self, model: &str) -> Vec<String> {
        let width = self.steps.iter().map(|s| s.from.len()).max().unwrap_or(0);
        let mut out = vec![format!(
            "translated from {} to {} for {model} ({}); registers, arithmetic, jumps and the condition unchanged:",
            self.from, self.to, self.doc
        )];
        out.extend(
            (self.steps.iter())
                .map(|s| format!("  P{}: {:width$}  =>  {}", s.thread, s.from, s.to)),
        );
        out
    }
}

/// A model judging the translations of the programs it is given (the target of a
/// mapping check, `vkherd distinguish vulkan ptx`).
pub struct Through {
    pub model: crate::models::Compared,
    pub translation: &'static vkherd_model::Translation,
}

impl vkherd_generate::search::Model for Through {
    fn states(&self, program: &Program) -> Result<vkherd_generate::search::States, String> {
        let t = (self.translation.translate)(program).map_err(|d| d.message)?;
        self.model.states(&t.program)
    }
}
