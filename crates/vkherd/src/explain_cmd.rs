//! `vkherd explain FILE [--state S]`: why the states asked about are forbidden, or an
//! execution that allows them (docs/explain.md); `--dot` / `--graph DIR` draw the
//! executions shown.

use crate::cli::{EXIT_BAD_INPUT, EXIT_OK, EXIT_PARTIAL};
use std::io::Write;
use std::path::{Path, PathBuf};
use vkherd::dot::Figure;
use vkherd::explain::{explain, explanation_text, parse_state, ExplainError, Explanation, Target};

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

/// Prints why there is no explanation; the exit code. A limit is no fault of the test:
/// its message has no source location, and the exit code is the run's for a stopped test.
fn failed(e: &ExplainError, test: &str, name: &str, source: &str) -> i32 {
    match e {
        ExplainError::Input(d) => {
            eprint!("{}", d.render(name, source));
            EXIT_BAD_INPUT
        }
        ExplainError::Model(m) => {
            let d = vkherd::Diagnostic::new(vkherd::locate::WHOLE_TEST, m.for_test(test));
            eprint!("{}", d.render(name, source));
            EXIT_BAD_INPUT
        }
        ExplainError::Limit(l) => {
            eprintln!("error: {name}: {l}");
            EXIT_PARTIAL
        }
    }
}

pub fn run(file: &PathBuf, state: Option<&str>, opts: &vkherd::Options, output: Output<'_>) -> i32 {
    let name = file.display().to_string();
    let source = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if file.extension().is_some_and(|e| e == "test") {
        eprintln!(
            "error: {name} is a Khronos `.test` file; `vkherd explain` reads `.litmus` tests (docs/litmus-format.md)"
        );
        return EXIT_BAD_INPUT;
    }
    let program = match vkherd::load_litmus(&source) {
        Ok(p) => p,
        Err(d) => {
            eprint!("{}", d.render(&name, &source));
            return EXIT_BAD_INPUT;
        }
    };
    let target = match state {
        None => Target::Condition,
        Some(text) => match parse_state(&program, text) {
            Ok(v) => Target::State(v),
            Err(d) => {
                eprint!("{}", d.render("--state", text));
                return EXIT_BAD_INPUT;
            }
        },
    };
    let show: Vec<&str> = output.show.iter().map(|s| s.as_str()).collect();
    let model = match vkherd::explain::model_for(&program, opts) {
        Ok(m) => m,
        Err(e) => return failed(&e, &program.name, &name, &source),
    };
    if let Err(e) = vkherd::explain::check_show(&model, &show) {
        eprintln!("error: {e}");
        return EXIT_BAD_INPUT;
    }
    let ex = match explain(&program, Some(&source), opts, &target, &show) {
        Ok(ex) => ex,
        Err(e) => return failed(&e, &program.name, &name, &source),
    };
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
    if let Some(dir) = output.graph {
        let svg = vkherd::graphs::dot_available();
        if !svg {
            eprintln!("{}", vkherd::graphs::NO_DOT);
        }
        for (stem, figure) in shown(&ex) {
            let dot = vkherd::dot::document(std::slice::from_ref(&figure), &show);
            if let Err(e) = vkherd::graphs::write_graph(dir, &stem, &dot, svg) {
                eprintln!("error: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    EXIT_OK
}

/// `vkherd explain --liveness [--progress M] FILE`: the verdict and its witness; for
/// `ok`, the models weaker than M (per level) under which the test has a violation, and
/// why M rules out their witnesses (which invocation it guarantees).
pub fn run_liveness(file: &PathBuf, opts: &vkherd::Options, json: bool) -> i32 {
    let name = file.display().to_string();
    let source = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let text = match vkherd::load_litmus(&source)
        .and_then(|program| vkherd::liveness::explain(&program, Some(&source), opts))
    {
        Ok(t) => t,
        Err(d) => {
            eprint!("{}", d.render(&name, &source));
            return EXIT_BAD_INPUT;
        }
    };
    let out = if json {
        serde_json::json!({ "file": name, "explanation": text }).to_string() + "\n"
    } else {
        text
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
    EXIT_OK
}
