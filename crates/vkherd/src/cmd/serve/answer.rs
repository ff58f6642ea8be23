//! The answers of `POST /api/run`, `/api/diff` and `/api/diy`, made with the library as
//! the command line makes them: a run's `report` is its `--json` object, `text` its herd
//! text, the explanation `explain --json`'s object, a diff `diff --json`'s.

use super::catalog::{dialect_name, Corpus};
use super::options::{self, OptionsError};
use super::refusal;
use crate::cli::test_error::TestError;
use crate::cmd::diff::TestDiff;
use serde::Serialize;
use serde_json::value::RawValue;
use std::time::{Duration, Instant};
use vkherd::explain::{explain_with, explanation_text, witnesses_of, Explanation, Target};
use vkherd::report;
use vkherd::{LoweredProgram, Options, Report};
use vkherd_serve::{Answer, Bounds, DiffRequest, DiyRequest, Refusal, RunRequest};

/// The file name a test's reports give it when the request names none.
const DEFAULT_FILE: &str = "input.litmus";

/// At most this many witness graphs per run (as `vkherd report`).
const MAX_FIGURES: usize = 64;

/// A request's file name as a label: printable, at most 200 characters.
fn label(file: Option<&str>) -> String {
    let text: String = file
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    if text.trim().is_empty() {
        DEFAULT_FILE.to_string()
    } else {
        text
    }
}

fn raw(json: String) -> Box<RawValue> {
    RawValue::from_string(json).expect("vkherd writes valid JSON")
}

fn options_refusal(file: &str, e: OptionsError) -> Refusal {
    refusal::input(file, "options", e.to_string())
}

/// A drawing of an execution, as DOT (the page draws it).
#[derive(Serialize)]
struct Figure {
    caption: String,
    dot: String,
}

#[derive(Serialize)]
struct RunAnswer {
    /// `vkherd --json`'s object for the test.
    report: Box<RawValue>,
    /// The herd-style report `vkherd` prints.
    text: String,
    /// With `graphs`: a witness per state, and the liveness witness.
    #[serde(skip_serializing_if = "Option::is_none")]
    graphs: Option<Graphs>,
    /// With `explain`: the states the condition asks about, explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<Explained>,
}

#[derive(Serialize, Default)]
struct Graphs {
    figures: Vec<Figure>,
    /// Witnesses not drawn past [`MAX_FIGURES`].
    left_out: usize,
    /// Why there are none (a stopped run, no time left, ...).
    error: Option<String>,
}

#[derive(Serialize, Default)]
struct Explained {
    /// `vkherd explain --json`'s object.
    explanation: Option<Explanation>,
    /// `vkherd explain`'s text.
    text: Option<String>,
    /// A graph per reason a state is forbidden, the reason's edges drawn bold.
    figures: Vec<Figure>,
    error: Option<String>,
}

/// The request's run: the program, its options, its report, or why not.
struct Ran {
    file: String,
    program: LoweredProgram,
    opts: Options,
    report: Report,
}

fn run_test(
    models: &[String],
    test: &str,
    file: Option<&str>,
    o: &vkherd_serve::RunOptions,
    model: Option<&str>,
    variants: &[String],
    bounds: &Bounds,
) -> Result<Ran, Refusal> {
    let file = label(file);
    let model = options::model(models, model, variants).map_err(|e| options_refusal(&file, e))?;
    let opts = options::options(model, o, bounds).map_err(|e| options_refusal(&file, e))?;
    // As the CLI: a test that does not load names the run's information, one that does
    // that of the model judging its dialect.
    let failed =
        |e: TestError, info: Option<&vkherd::json::RunInfo>| refusal::test(&file, test, &e, info);
    let program = vkherd::load_litmus(test)
        .map_err(|d| failed(TestError::At(d), Some(&report::run_info(&opts))))?;
    // Resolved once for the test: its report carries the model.
    let model = (opts.model.resolve(program.dialect)).map_err(|e| {
        failed(
            TestError::At(e.diagnostic(&program.name)),
            Some(&report::run_info(&opts)),
        )
    })?;
    let report = vkherd::run_resolved(
        &program,
        Some(test),
        &model,
        &opts.run,
        opts.liveness.as_ref(),
    )
    .map_err(|d| {
        let info = report::run_info_of_model(&model, &opts);
        failed(TestError::At(d), Some(&info))
    })?;
    Ok(Ran {
        file,
        program,
        opts,
        report,
    })
}

pub fn run(models: &[String], req: &RunRequest, bounds: &Bounds) -> Answer {
    let start = Instant::now();
    let o = &req.options;
    let ran = run_test(
        models,
        &req.test,
        req.file.as_deref(),
        o,
        o.model.as_deref(),
        &o.variants,
        bounds,
    )?;
    let info = report::run_info_of(&ran.report, &ran.opts);
    // Graphs and explanation share what is left of the run's time.
    let left = || bounds.timeout.saturating_sub(start.elapsed());
    let answer = RunAnswer {
        report: raw(report::json(&ran.report, &ran.file, Some(&info))),
        text: report::herd_text(&ran.report),
        graphs: req.graphs.then(|| graphs(&ran, &req.test, left())),
        explanation: req
            .explain
            .then(|| explained(&ran, &req.test, bounds, left())),
    };
    Ok(serde_json::to_string(&answer).expect("an answer serializes"))
}

/// Why the extras of a run cannot be made, if they cannot.
fn no_extras(ran: &Ran, left: Duration) -> Option<String> {
    if ran.report.stats.stopped.is_some() {
        Some("the run was stopped by a limit, so its executions are not all known".into())
    } else if left.is_zero() {
        Some("the run took all of its time; none was left for this".into())
    } else {
        None
    }
}

/// The options for an extra: the run's, within the time left.
fn within(opts: &Options, left: Duration) -> Options {
    let mut o = opts.clone();
    o.run.timeout = Some(left);
    o
}

fn graphs(ran: &Ran, source: &str, left: Duration) -> Graphs {
    if let Some(why) = no_extras(ran, left) {
        return Graphs {
            error: Some(why),
            ..Graphs::default()
        };
    }
    let opts = within(&ran.opts, left);
    let model = ran
        .report
        .model
        .as_ref()
        .expect("a run's report carries its model");
    let list = match witnesses_of(&ran.program, Some(source), model, &opts.run, &[]) {
        Ok(list) => list,
        Err(e) => {
            return Graphs {
                error: Some(format!("the witnesses could not be found: {e}")),
                ..Graphs::default()
            }
        }
    };
    let mut figures: Vec<Figure> = list
        .iter()
        .take(MAX_FIGURES)
        .map(|(_, ex)| Figure {
            caption: format!("Witness of {}", witness_caption(ex)),
            dot: vkherd::dot::to_dot(ex, &[]),
        })
        .collect();
    let live = ran.report.liveness.as_ref().and_then(|l| {
        let m = model.cat_model();
        vkherd::liveness::witness_execution(&l.result, &ran.program, Some(source), m)
    });
    if let Some(ex) = live {
        figures.push(Figure {
            caption: ex.state.clone(),
            dot: vkherd::dot::to_dot(&ex, &[]),
        });
    }
    Graphs {
        figures,
        left_out: list.len().saturating_sub(MAX_FIGURES),
        error: None,
    }
}

/// `1:r0=1; 1:r1=0; (racy)`.
fn witness_caption(ex: &vkherd::execution::Execution) -> String {
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

fn explained(ran: &Ran, source: &str, bounds: &Bounds, left: Duration) -> Explained {
    if let Some(why) = no_extras(ran, left) {
        return Explained {
            error: Some(why),
            ..Explained::default()
        };
    }
    // Explaining enumerates every candidate reaching a state (no pruning): `vkherd
    // report`'s bound, within the server's.
    let mut opts = within(&ran.opts, left);
    opts.run.max_candidates = Some(
        bounds
            .max_candidates
            .min(vkherd::explain::REPORT_EXPLAIN_CANDIDATES),
    );
    let model = ran
        .report
        .model
        .as_ref()
        .expect("a run's report carries its model");
    let target = &Target::Condition;
    match explain_with(&ran.program, Some(source), model, &opts.run, target, &[]) {
        Ok(x) => Explained {
            text: Some(explanation_text(&x)),
            figures: reason_figures(&x),
            explanation: Some(x),
            error: None,
        },
        Err(e) => Explained {
            error: Some(format!(
                "the states asked about could not be explained: {e}"
            )),
            ..Explained::default()
        },
    }
}

/// A graph per reason a state is forbidden, as `vkherd explain --graph` draws it.
fn reason_figures(x: &Explanation) -> Vec<Figure> {
    let mut out = Vec::new();
    for st in &x.states {
        for (k, reason) in st.reasons.iter().enumerate() {
            let mut show: Vec<&str> = Vec::new();
            let mut highlight = Vec::new();
            for e in reason.witness.edges() {
                for l in &e.labels {
                    if !show.contains(&l.as_str()) {
                        show.push(l);
                    }
                }
                highlight.push((e.from, e.to, e.labels.join("+")));
            }
            let title = format!(
                "Reason {} for {} ({}): check `{}` fails",
                k + 1,
                st.state,
                report::plural(reason.candidates, "candidate"),
                reason.check
            );
            let figure = vkherd::dot::Figure {
                title: title.clone(),
                execution: reason.execution.clone(),
                highlight,
            };
            out.push(Figure {
                caption: title,
                dot: vkherd::dot::document(std::slice::from_ref(&figure), &show),
            });
        }
    }
    out
}

#[derive(Serialize)]
struct DiffAnswer {
    /// `vkherd diff --json`'s object for the test (also when nothing differs).
    diff: TestDiff,
    /// Each model's `--json` object.
    a: Box<RawValue>,
    b: Box<RawValue>,
}

pub fn diff(models: &[String], req: &DiffRequest, bounds: &Bounds) -> Answer {
    let run_under = |spec: &str| {
        // `NAME+VARIANT+...` as `vkherd diff` reads it (the one parser of model names).
        let parsed = vkherd::models::ModelName::parse(spec);
        run_test(
            models,
            &req.test,
            req.file.as_deref(),
            &req.options,
            Some(&parsed.base.text()),
            &parsed.variants,
            bounds,
        )
    };
    let (a, b) = (run_under(&req.a)?, run_under(&req.b)?);
    let json = |r: &Ran| {
        let info = report::run_info_of(&r.report, &r.opts);
        raw(report::json(&r.report, &r.file, Some(&info)))
    };
    let answer = DiffAnswer {
        diff: TestDiff::new(a.file.clone(), &a.report, &b.report),
        a: json(&a),
        b: json(&b),
    };
    Ok(serde_json::to_string(&answer).expect("an answer serializes"))
}

#[derive(Serialize)]
struct DiyAnswer {
    /// The test's name and its `.litmus` text, as `vkherd diy CYCLE` prints it.
    name: String,
    test: String,
}

pub fn diy(corpus: &Corpus, req: &DiyRequest) -> Answer {
    let name = req.dialect.as_deref().unwrap_or("vulkan");
    let Some(&dialect) = corpus.dialects.get(name) else {
        let known: Vec<&str> = corpus.dialects.keys().map(String::as_str).collect();
        return Err(refusal::input(
            "cycle",
            "dialect",
            format!(
                "unknown dialect `{name}`: expected one of {}",
                known.join(", ")
            ),
        ));
    };
    debug_assert_eq!(dialect_name(dialect), name);
    let dialect = match vkherd_generate::dialects::for_dialect(dialect) {
        Ok(d) => d,
        Err(e) => return Err(refusal::input("cycle", "dialect", e.message)),
    };
    match vkherd_generate::diy(&req.cycle, dialect) {
        Ok(test) => {
            let text = vkherd_generate::emit::text(&test);
            Ok(serde_json::to_string(&DiyAnswer {
                name: test.name.clone(),
                test: text.trim_end().to_string() + "\n",
            })
            .expect("an answer serializes"))
        }
        Err(e) => {
            let column = e.token.as_ref().map_or(1, |t| t.column as u32);
            Err(refusal::at_column(
                "cycle",
                column,
                e.message.clone(),
                e.render(&req.cycle),
            ))
        }
    }
}
