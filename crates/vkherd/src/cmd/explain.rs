//! `vkherd explain FILE [--state S]`: why the states asked about are forbidden, or an
//! execution that allows them (docs/explain.md); `--dot` / `--graph DIR` draw the
//! executions shown.

use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
use std::io::Write;
use std::path::Path;
use vkherd::dot::Figure;
use vkherd::explain::{
    explain_with, explanation_text, parse_state, ExplainError, Explanation, Target,
};

/// What to print.
pub struct Output<'a> {
    pub json: bool,
    pub dot: bool,
    pub graph: Option<&'a Path>,
    pub show: &'a [String],
}

/// The executions an explanation shows, each with a file name stem and a title, the
/// edges of the witness to draw bold.
fn shown(ex: &Explanation) -> Vec<(String, Figure)> {
    let mut out = Vec::new();
    let test = vkherd::graphs::file_part(&ex.test);
    for (k, st) in ex.states.iter().enumerate() {
        if let Some(w) = &st.witness {
            out.push((
                format!("{test}-state{}-witness", k + 1),
                Figure {
                    title: format!("{}: {} is {}: witness", ex.test, st.state, st.verdict),
                    execution: w.clone(),
                    highlight: Vec::new(),
                },
            ));
        }
        for (r, reason) in st.reasons.iter().enumerate() {
            let highlight = reason
                .witness
                .edges()
                .iter()
                .map(|e| (e.from, e.to, e.labels.join("+")))
                .collect();
            out.push((
                format!("{test}-state{}-reason{}", k + 1, r + 1),
                Figure {
                    title: format!(
                        "{}: {} is forbidden: reason {} ({}), check `{}` fails",
                        ex.test,
                        st.state,
                        r + 1,
                        vkherd::report::plural(reason.candidates, "candidate"),
                        reason.check
                    ),
                    execution: reason.execution.clone(),
                    highlight,
                },
            ));
        }
    }
    out
}

/// Why there is no explanation. A limit is no fault of the test: its message has no
/// source location, and the exit code is the run's for a stopped test.
fn failed(e: ExplainError, test: &str) -> TestError {
    match e {
        ExplainError::Input(d) => TestError::At(d),
        ExplainError::Model(m) => TestError::At(m.diagnostic(test)),
        ExplainError::Limit(l) => TestError::Stopped(l.to_string()),
    }
}

/// Runs `explain` on the one test `file`, as every command runs its tests.
fn explain_file(
    file: &Path,
    mut explain: impl FnMut(&TestFile<'_>) -> Result<(), TestError>,
) -> ExitStatus {
    let mut each = |test: &TestFile<'_>| explain(test).map(|()| ExitStatus::Ok);
    for_each_test([(0, file)], ErrorOutput::Text, &mut each).status
}

pub fn run(
    file: &Path,
    state: Option<&str>,
    opts: &vkherd::Options,
    output: Output<'_>,
) -> ExitStatus {
    explain_file(file, |test| explain_test(test, state, opts, &output))
}

fn explain_test(
    test: &TestFile<'_>,
    state: Option<&str>,
    opts: &vkherd::Options,
    output: &Output<'_>,
) -> Result<(), TestError> {
    let (name, source) = (&test.name, &test.source);
    if test.path.extension().is_some_and(|e| e == "test") {
        return Err(TestError::Message(format!(
            "{name} is a Khronos `.test` file; `vkherd explain` reads `.litmus` tests (docs/litmus-format.md)"
        )));
    }
    let program = vkherd::load_litmus(source)?;
    let target = match state {
        None => Target::Condition,
        Some(text) => match parse_state(&program, text) {
            Ok(v) => Target::State(v),
            Err(diagnostic) => {
                return Err(TestError::InArgument {
                    diagnostic,
                    option: "--state",
                    text: text.to_string(),
                })
            }
        },
    };
    let show: Vec<&str> = output.show.iter().map(|s| s.as_str()).collect();
    // Resolved once for the test: its cat model checks `--show` and explains.
    let model = vkherd::explain::resolve(&program, opts).map_err(|e| failed(e, &program.name))?;
    (vkherd::explain::check_show(model.cat_model(), &show))
        .map_err(|e| TestError::Message(e.to_string()))?;
    let ex = explain_with(&program, Some(source), &model, &opts.run, &target, &show)
        .map_err(|e| failed(e, &program.name))?;
    for note in &ex.notes {
        eprintln!("{name}: {note}");
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if output.dot {
        let figures: Vec<Figure> = shown(&ex).into_iter().map(|(_, f)| f).collect();
        let _ = write!(out, "{}", vkherd::dot::document(&figures, &show));
    } else if output.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&ex).expect("an explanation serialises")
        );
    } else {
        let _ = write!(out, "{}", explanation_text(&ex));
    }
    drop(out);
    if let Some(dir) = output.graph {
        let svg = vkherd::graphs::dot_available();
        if !svg {
            eprintln!("{}", vkherd::graphs::NO_DOT);
        }
        for (stem, figure) in shown(&ex) {
            let dot = vkherd::dot::document(std::slice::from_ref(&figure), &show);
            vkherd::graphs::write_graph(dir, &stem, &dot, svg)
                .map_err(|e| TestError::Message(e.to_string()))?;
        }
    }
    Ok(())
}

/// `vkherd explain --liveness [--progress M] FILE`: the verdict and its witness; for
/// `ok`, the models weaker than M (per level) under which the test has a violation, and
/// why M rules out their witnesses (which invocation it guarantees).
pub fn run_liveness(file: &Path, opts: &vkherd::Options, json: bool) -> ExitStatus {
    explain_file(file, |test| {
        let program = vkherd::load_litmus(&test.source)?;
        let text = vkherd::liveness::explain(&program, Some(&test.source), opts)?;
        let out = if json {
            serde_json::json!({ "file": test.name, "explanation": text }).to_string() + "\n"
        } else {
            text
        };
        let _ = std::io::stdout().write_all(out.as_bytes());
        Ok(())
    })
}
