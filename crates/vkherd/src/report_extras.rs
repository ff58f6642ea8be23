//! The witness graphs and explanations of `vkherd report`, made with the explain API
//! (`vkherd::explain`, `vkherd::dot`). Graphs are DOT until [`draw`] turns every graph of
//! the page into SVG with one Graphviz run.

use vkherd::execution::Execution;
use vkherd::explain::{explain, witness_executions, Explanation, Reason, Target, Witness};
use vkherd::html::{Drawing, Entry, EntryResult, Explained, Extras, Figure, ReasonShown};
use vkherd::report::plural;
use vkherd::{LoweredProgram, Options, Report};

/// At most this many witness graphs per test (one per state: a test with many states
/// would make a page no one scrolls through).
pub const MAX_FIGURES: usize = 64;

/// The graphs and explanations of one test whose run is `report`.
/// Explaining examines at most `explain_candidates` candidates (`--explain-candidates`).
pub fn extras(
    program: &LoweredProgram,
    source: &str,
    opts: &Options,
    report: &Report,
    explain_candidates: u64,
) -> Extras {
    if report.stats.stopped.is_some() {
        return Extras::none("the run was stopped by a limit, so its executions are not all known");
    }
    let mut figures_left_out = 0;
    let figures = match witness_executions(program, Some(source), opts, &[]) {
        Ok(list) => Ok({
            figures_left_out = list.len().saturating_sub(MAX_FIGURES);
            list.iter()
                .take(MAX_FIGURES)
                .map(|(_, ex)| figure(format!("Witness of {}", witness_caption(ex)), ex, &[]))
                .collect()
        }),
        Err(e) => Err(format!("the witnesses could not be found: {e}")),
    };
    // Explaining examines every candidate reaching a state (plain enumeration): it has
    // its own bound, not the run's --max-candidates.
    let explain_opts = Options {
        max_candidates: Some(explain_candidates),
        ..opts.clone()
    };
    let explanations = match explain(
        program,
        Some(source),
        &explain_opts,
        &Target::Condition,
        &[],
    ) {
        Ok(x) => Ok(explained(&x)),
        Err(e) => Err(format!(
            "the forbidden states could not be explained: {e} (in vkherd report: --explain-candidates, now {explain_candidates})"
        )),
    };
    Extras {
        figures,
        figures_left_out,
        explanations,
    }
}

/// `1:r0=1; 1:r1=0; (racy)`.
fn witness_caption(ex: &Execution) -> String {
    let mut marks = ex.flags.clone();
    if ex.thin_air {
        marks.push("thin air".to_string());
    }
    if marks.is_empty() {
        ex.state.clone()
    } else {
        format!("{} ({})", ex.state, marks.join(", "))
    }
}

/// A figure of `ex` as DOT, with the relations `show` besides the base ones.
fn figure(caption: String, ex: &Execution, show: &[&str]) -> Figure {
    Figure {
        caption,
        drawing: Drawing::Dot {
            dot: vkherd::dot::to_dot(ex, show),
            why: String::new(),
        },
    }
}

/// The forbidden states of an explanation, in words and with a graph per reason.
fn explained(x: &Explanation) -> Vec<Explained> {
    x.states
        .iter()
        .filter(|s| s.verdict == "forbidden")
        .map(|s| Explained {
            state: s.state.clone(),
            summary: format!(
                "{} {} it, and each fails a check of the model {}:",
                plural(s.candidates, "candidate execution"),
                if s.candidates == 1 {
                    "reaches"
                } else {
                    "reach"
                },
                x.model
            ),
            reasons: s.reasons.iter().map(reason_shown).collect(),
        })
        .collect()
}

fn reason_shown(r: &Reason) -> ReasonShown {
    let ex = &r.execution;
    let edge_text = |e: &vkherd::explain::Edge| {
        let via = if e.via.is_empty() {
            String::new()
        } else {
            format!(" (via {})", e.via.join(", "))
        };
        format!("-[{}]->{via}", e.labels.join(", "))
    };
    let steps = match &r.witness {
        Witness::Cycle { edges } => edges
            .iter()
            .map(|e| {
                format!(
                    "{} {} {}",
                    ex.describe(e.from),
                    edge_text(e),
                    ex.describe(e.to)
                )
            })
            .collect(),
        Witness::Reflexive { event, edge } => {
            vec![format!(
                "{} {} itself",
                ex.describe(*event),
                edge_text(edge)
            )]
        }
        Witness::Pair { edge } if edge.from == edge.to => vec![format!(
            "{} is in {}",
            ex.describe(edge.from),
            edge.labels.join(", ")
        )],
        Witness::Pair { edge } => vec![format!(
            "{} {} {}",
            ex.describe(edge.from),
            edge_text(edge),
            ex.describe(edge.to)
        )],
        Witness::Empty => vec!["the relation the check requires to be non-empty is empty".into()],
    };
    let what = match &r.witness {
        Witness::Cycle { .. } => "a cycle",
        Witness::Reflexive { .. } => "an event related to itself",
        Witness::Pair { .. } => "a pair that must not be there",
        Witness::Empty => "an empty relation",
    };
    // The graph shows the relations the witness names.
    let mut show: Vec<&str> = Vec::new();
    for e in r.witness.edges() {
        for l in &e.labels {
            if !show.contains(&l.as_str()) {
                show.push(l);
            }
        }
    }
    ReasonShown {
        headline: format!(
            "{} {} `{}` ({}), with {what}:",
            plural(r.candidates, "candidate"),
            if r.candidates == 1 { "fails" } else { "fail" },
            r.check,
            r.check_text
        ),
        steps,
        figure: Some(figure(
            format!("The first candidate failing `{}`", r.check),
            ex,
            &show,
        )),
    }
}

/// Turns every DOT graph of `entries` into SVG with Graphviz, when it is installed;
/// otherwise each graph keeps its DOT source and says why. Returns a note for the top of
/// the page when Graphviz is missing.
pub fn draw(entries: &mut [Entry]) -> Option<String> {
    let mut graphs: Vec<&mut Drawing> = Vec::new();
    for e in entries.iter_mut() {
        if !matches!(e.result, EntryResult::Litmus(_)) {
            continue;
        }
        let x = &mut e.extras;
        if let Ok(figures) = &mut x.figures {
            graphs.extend(figures.iter_mut().map(|f| &mut f.drawing));
        }
        if let Ok(list) = &mut x.explanations {
            for r in list.iter_mut().flat_map(|x| x.reasons.iter_mut()) {
                graphs.extend(r.figure.iter_mut().map(|f| &mut f.drawing));
            }
        }
    }
    graphs.retain(|d| matches!(d, Drawing::Dot { .. }));
    if graphs.is_empty() {
        return None;
    }
    if !vkherd::graphs::dot_available() {
        let why = "Graphviz (`dot`) was not installed when this page was made";
        for d in graphs {
            if let Drawing::Dot { why: w, .. } = d {
                *w = why.to_string();
            }
        }
        return Some(format!(
            "{why}: the witness graphs are given as DOT source (install Graphviz and run again to see them drawn)"
        ));
    }
    let sources: Vec<String> = graphs
        .iter()
        .map(|d| match d {
            Drawing::Dot { dot, .. } => dot.clone(),
            Drawing::Svg(_) => String::new(),
        })
        .collect();
    let svgs = vkherd::graphviz::to_svg(&sources);
    for (k, (d, svg)) in graphs.into_iter().zip(svgs).enumerate() {
        match svg {
            // Graphviz names the elements of every graph alike (`graph0`, `node1`...): a
            // prefix per figure keeps the page's ids unique.
            Ok(svg) => *d = Drawing::Svg(svg.replace(" id=\"", &format!(" id=\"g{k}_"))),
            Err(e) => {
                if let Drawing::Dot { why, .. } = d {
                    *why = e;
                }
            }
        }
    }
    None
}
