//! The witness graphs and explanations of `vkherd report`, made with the explain API
//! (`vkherd::explain`, `vkherd::dot`). Graphs are DOT until [`draw`] turns every graph of
//! the page into SVG with one Graphviz run.

use vkherd::execution::Execution;
use vkherd::explain::{explain_with, explanation_text, witnesses_of, Explanation, Target};
use vkherd::html::{Drawing, Entry, EntryResult, Explained, Extras, Figure};
use vkherd::report::plural;
use vkherd::RunConfig;
use vkherd::{LoweredProgram, Options, Report};

/// At most this many witness graphs per test (one per state: a test with many states
/// would make a page no one scrolls through).
pub const MAX_FIGURES: usize = 64;

/// The graphs and explanations of one test whose run is `report`.
/// Explaining examines at most `explain_candidates` candidates (`--explain-candidates`);
/// the witness graphs draw the relations `show` besides the base ones.
pub fn extras(
    program: &LoweredProgram,
    source: &str,
    opts: &Options,
    report: &Report,
    explain_candidates: u64,
    show: &[&str],
) -> Extras {
    if report.stats.stopped.is_some() {
        return Extras::none("the run was stopped by a limit, so its executions are not all known");
    }
    let mut figures_left_out = 0;
    // The model that judged the test, as its report carries it.
    let model = report
        .model
        .as_ref()
        .expect("a run's report carries its model");
    let figures = match witnesses_of(program, Some(source), model, &opts.run, show) {
        Ok(list) => Ok({
            figures_left_out = list.len().saturating_sub(MAX_FIGURES);
            let mut figs: Vec<Figure> = list
                .iter()
                .take(MAX_FIGURES)
                .map(|(_, ex)| figure(format!("Witness of {}", witness_caption(ex)), ex, show))
                .collect();
            // The liveness witness, with --liveness.
            let live = report.liveness.as_ref().and_then(|l| {
                vkherd::liveness::witness_execution(
                    &l.result,
                    program,
                    Some(source),
                    model.cat_model(),
                )
            });
            if let Some(ex) = live {
                figs.push(figure(ex.state.clone(), &ex, show));
            }
            figs
        }),
        Err(e) => Err(format!("the witnesses could not be found: {e}")),
    };
    // Explaining examines every candidate reaching a state (plain enumeration): it has
    // its own bound, not the run's --max-candidates.
    let explain_run = RunConfig {
        max_candidates: Some(explain_candidates),
        ..opts.run.clone()
    };
    let explanations = match explain_with(
        program,
        Some(source),
        model,
        &explain_run,
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

/// The forbidden states of an explanation: `vkherd explain`'s text about them, and a graph
/// per reason of the first candidate with it, showing the relations its witness names.
fn explained(x: &Explanation) -> Explained {
    let forbidden = Explanation {
        states: x
            .states
            .iter()
            .filter(|s| s.verdict == "forbidden")
            .cloned()
            .collect(),
        ..x.clone()
    };
    let mut figures = Vec::new();
    for st in &forbidden.states {
        for (k, r) in st.reasons.iter().enumerate() {
            let mut show: Vec<&str> = Vec::new();
            for e in r.witness.edges() {
                for l in &e.labels {
                    if !show.contains(&l.as_str()) {
                        show.push(l);
                    }
                }
            }
            figures.push(figure(
                format!(
                    "Reason {} for {} ({}): check `{}`",
                    k + 1,
                    st.state,
                    plural(r.candidates, "candidate"),
                    r.check
                ),
                &r.execution,
                &show,
            ));
        }
    }
    Explained {
        states: forbidden.states.iter().map(|s| s.state.clone()).collect(),
        unreachable: x.unreachable,
        text: if forbidden.states.is_empty() {
            String::new()
        } else {
            explanation_text(&forbidden)
        },
        figures,
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
        if let Ok(x) = &mut x.explanations {
            graphs.extend(x.figures.iter_mut().map(|f| &mut f.drawing));
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
                    *why = e.to_string();
                }
            }
        }
    }
    None
}
