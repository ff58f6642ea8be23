//! `vkherd PATH...`: a herd-style report (or a JSON object) per `.litmus` file, warnings
//! on stderr, and for a run of several files a summary line at the end.

use crate::args::GraphArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
use crate::cli::test_files::{files_to_run, TestKind};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use vkherd::explain::{ExplainError, UnknownRelation};
use vkherd::graphs::GraphWriteError;
use vkherd::merge::{ShardBy, ShardIdentity, ShardPlace};
use vkherd::report::{self, plural};
use vkherd::tally::Tally;
use vkherd::{Options, RunConfig};

/// What to print besides the reports.
pub struct Output {
    pub json: bool,
    /// herd7's `Time NAME SECONDS` line.
    pub time: bool,
    /// A `Stats` line per test on stderr.
    pub stats: bool,
    /// State lines without marks, and a `Time` line: herd7's own log format.
    pub herd7_log: bool,
    /// `--shard K/N` (K from 1): one test's search, or the list of tests, in N parts.
    pub shard: Option<(u64, u64)>,
    /// `--dot`, `--graph DIR`, `--show`: a witness execution per state.
    pub graphs: GraphArgs,
}

pub fn run(paths: &[PathBuf], mut opts: Options, output: Output) -> ExitStatus {
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    // One test: shard its search. Several: shard the list of tests.
    let by = if files.len() == 1 {
        ShardBy::Search
    } else {
        ShardBy::Test
    };
    if output.shard.is_some()
        && (opts.run.states_only || opts.run.speedcheck == vkherd::Speedcheck::Fast)
    {
        // Their reports have no counts, and the states a shard skips depend on what it
        // found first: the parts would not add up to the whole run.
        eprintln!("error: --shard cannot be combined with --states-only or --speedcheck fast");
        return ExitStatus::BadInput;
    }
    if let (Some((index, count)), ShardBy::Search) = (output.shard, by) {
        opts.run.shard = Some(vkherd::Shard {
            index: index - 1,
            count,
        });
    }
    let info = report::run_info(&opts);
    let start = Instant::now();
    let mut tally = Tally::default();
    // Said once per run when SVG cannot be made.
    let mut svg_note: Option<bool> = None;
    // `--dot`: every test's witnesses, printed as one graph at the end.
    let mut figures: Vec<vkherd::dot::Figure> = Vec::new();
    let stdout = std::io::stdout();
    let run_identity = output.shard.map(|_| {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        ShardIdentity::of_run(&names)
    });
    let place_of = |k: usize| {
        output.shard.map(|(index, count)| ShardPlace {
            index,
            count,
            by,
            test: k,
            tests: files.len(),
            identity: run_identity.unwrap_or_default(),
        })
    };
    let mut run_test = |test: &TestFile<'_>| -> Result<ExitStatus, TestError> {
        let (k, name, source) = (test.index, &test.name, &test.source);
        let mut place = place_of(k);
        if let Some(p) = &mut place {
            p.identity.source = vkherd::merge::digest(source.as_bytes());
        }
        let program = vkherd::load_litmus(source)?;
        // An estimate is only an aid: a test over a limit fails in `run`, with its error.
        let estimate = vkherd::estimate(&program, &opts).ok().map(|mut e| {
            if let Some(sh) = opts.run.shard {
                e.log10 -= (sh.count as f64).log10(); // about a shard's share
            }
            e
        });
        // A whole search's estimate bounds it; a shard's share is a guess.
        let bound = opts.run.shard.is_none();
        if let (true, Some(e)) = (output.stats, estimate) {
            eprintln!(
                "Estimate {name}: {} {e} candidates over {}",
                if bound { "at most" } else { "about" },
                plural(e.path_combinations, "path combination")
            );
        }
        let rep = {
            // The estimate ignores pruning (a spin lock estimated at 1e20 finishes in
            // milliseconds), so the warning waits until the run has taken a while.
            let _warning = estimate
                .and_then(|e| vkherd::far_past_limits(&e, &opts))
                .map(|w| DeferredNote::after(WARNING_DELAY, format!("{name}: {w}")));
            let label = progress_label(k, files.len(), name);
            let budget = crate::cli::progress::Budget {
                estimate,
                estimate_is_bound: bound,
                timeout: opts.run.timeout,
            };
            let progress = crate::cli::progress::Progress::start(&label, budget);
            opts.run.progress = progress.as_ref().map(|p| p.counter());
            vkherd::run_with_source(&program, Some(source), &opts)?
        };
        // Errors writing stdout (a closed pipe) are ignored, as everywhere in the CLI.
        let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
        let graphs = &output.graphs;
        if graphs.dot || graphs.graph.is_some() {
            let drawn = Drawn {
                figures: &mut figures,
                svg_note: &mut svg_note,
            };
            draw_witnesses(drawn, (&program, &rep), name, source, &opts, graphs)
                .map_err(|e| TestError::Message(e.to_string()))?;
        }
        // Each test's JSON names the model that judged it, as its report carries it:
        // without --model, OPENCL tests run opencl.cat with the variants it has.
        if graphs.dot {
            // DOT only on stdout, once at the end.
        } else if let (true, Some(place)) = (output.json, &place) {
            let info = report::run_info_of(&rep, &opts);
            let _ = writeln!(
                out,
                "{}",
                vkherd::merge::shard_report_json(&program, &rep, name, &opts, place, Some(&info))
            );
        } else if output.json {
            let info = report::run_info_of(&rep, &opts);
            let _ = report::write_json(&mut out, &rep, name, Some(&info));
            let _ = writeln!(out);
        } else {
            let _ = report::write_herd_text(&mut out, &rep, !output.herd7_log);
            if output.time || output.herd7_log {
                let _ = write!(out, "{}", report::time_line(&rep));
            }
            let _ = writeln!(out);
        }
        let _ = out.flush();
        drop(out);
        tally.count(&rep);
        for note in &rep.notes {
            eprintln!("{name}: {note}");
        }
        if output.stats {
            eprintln!("{}", report::stats_line(&rep, name));
        }
        Ok(ExitStatus::of_report(&rep))
    };
    // Several tests, sharded: this part's tests only.
    let tests = files
        .iter()
        .map(PathBuf::as_path)
        .enumerate()
        .filter(|(k, _)| {
            by == ShardBy::Search
                || output
                    .shard
                    .is_none_or(|(index, count)| ShardPlace::runs_test(index, count, *k))
        });
    let errors = ErrorOutput::json_if(output.json, Some(&info));
    let walked = for_each_test(tests, errors, &mut run_test);
    if output.graphs.dot {
        let show: Vec<&str> = output.graphs.show.iter().map(|s| s.as_str()).collect();
        let _ = write!(stdout.lock(), "{}", vkherd::dot::document(&figures, &show));
    }
    let directory_run = files.len() > 1 || paths.iter().any(|p| p.is_dir());
    if directory_run && !output.json {
        let line = summary_line(
            &tally,
            walked.errors,
            files.len(),
            start.elapsed().as_secs_f64(),
        );
        // A herd7 log holds reports only, and --dot one graph: there the summary goes to
        // stderr.
        if output.herd7_log || output.graphs.dot {
            eprintln!("{line}");
        } else {
            let _ = writeln!(stdout.lock(), "{line}");
        }
    }
    walked.status
}

/// Where the witnesses drawn go: `--dot`'s figures, and whether `--graph DIR` makes SVG
/// (decided, and said when it cannot, at the first test drawn).
struct Drawn<'a> {
    figures: &'a mut Vec<vkherd::dot::Figure>,
    svg_note: &'a mut Option<bool>,
}

/// `--dot` / `--graph DIR`: a witness execution per state of `program`, drawn.
fn draw_witnesses(
    drawn: Drawn<'_>,
    (program, rep): (&vkherd::LoweredProgram, &vkherd::Report),
    name: &str,
    source: &str,
    opts: &vkherd::Options,
    graphs: &GraphArgs,
) -> Result<(), DrawError> {
    let show: Vec<&str> = graphs.show.iter().map(|s| s.as_str()).collect();
    let in_test = |e| DrawError::InTest {
        test: name.to_string(),
        error: e,
    };
    // The model that judged the test, as its report carries it.
    let resolved = rep
        .model
        .as_ref()
        .expect("a run's report carries its model");
    let model = resolved.cat_model();
    vkherd::explain::check_show(model, &show).map_err(|e| in_test(Why::Show(e)))?;
    let run = RunConfig {
        progress: None,
        ..opts.run.clone()
    };
    let witnesses = vkherd::explain::witnesses_of(program, Some(source), resolved, &run, &show)
        .map_err(|e| in_test(Why::Witnesses(e)))?;
    let svg = *drawn.svg_note.get_or_insert_with(|| {
        let present = graphs.graph.is_some() && vkherd::graphs::dot_available();
        if graphs.graph.is_some() && !present {
            eprintln!("{}", vkherd::graphs::NO_DOT);
        }
        present
    });
    let test = vkherd::graphs::file_part(&program.name);
    for (k, (_, ex)) in witnesses.into_iter().enumerate() {
        if let Some(dir) = &graphs.graph {
            let dot = vkherd::dot::to_dot(&ex, &show);
            vkherd::graphs::write_graph(dir, &format!("{test}-state{}", k + 1), &dot, svg)?;
        }
        if graphs.dot {
            drawn.figures.push(vkherd::dot::Figure {
                title: format!("{}: {}", program.name, ex.state),
                execution: ex,
                highlight: Vec::new(),
            });
        }
    }
    // The liveness witness (or the execution reaching the cut), after the states'.
    let live = rep
        .liveness
        .as_ref()
        .and_then(|l| vkherd::liveness::witness_execution(&l.result, program, Some(source), model));
    if let Some(ex) = live {
        if let Some(dir) = &graphs.graph {
            let dot = vkherd::dot::to_dot(&ex, &show);
            vkherd::graphs::write_graph(dir, &format!("{test}-liveness"), &dot, svg)?;
        }
        if graphs.dot {
            drawn.figures.push(vkherd::dot::Figure {
                title: format!("{}: {}", program.name, ex.state),
                execution: ex,
                highlight: Vec::new(),
            });
        }
    }
    Ok(())
}

/// How long a run goes before the far-past-the-limits warning is printed.
const WARNING_DELAY: std::time::Duration = std::time::Duration::from_secs(2);

/// A note printed on stderr after a delay, unless dropped first.
struct DeferredNote {
    cancel: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DeferredNote {
    fn after(delay: std::time::Duration, note: String) -> DeferredNote {
        let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = cancelled.recv_timeout(delay) {
                eprintln!("{note}");
            }
        });
        DeferredNote {
            cancel: Some(cancel),
            thread: Some(thread),
        }
    }
}

impl Drop for DeferredNote {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread at once; joining keeps stderr in order.
        drop(self.cancel.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the spinner shows for the `k`-th (from 0) of `n` files: `test 3 of 138 FILE`.
fn progress_label(k: usize, n: usize, name: &str) -> String {
    if n > 1 {
        format!("test {} of {n} {name}", k + 1)
    } else {
        name.to_string()
    }
}

/// `Summary: 12 tests in 13 files: 8 Ok, 3 No, 1 open, 4 racy, 1 partial, 0 bounded-empty,
/// 1 error, 0.53 s`: the counts as every summary words them ([`Tally::verdicts`]).
fn summary_line(t: &Tally, errors: u64, files: usize, seconds: f64) -> String {
    // With --liveness: `2 violations, 1 unknown` before the time.
    let liveness = t.liveness().map(|l| l + ", ").unwrap_or_default();
    format!(
        "Summary: {} in {}: {}, {}, {liveness}{seconds:.2} s",
        plural(t.tests, "test"),
        plural(files as u64, "file"),
        t.verdicts(),
        plural(errors, "error"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_label_counts_tests_and_the_summary_uses_plurals() {
        assert_eq!(progress_label(2, 138, "a.litmus"), "test 3 of 138 a.litmus");
        assert_eq!(progress_label(0, 1, "a.litmus"), "a.litmus");
        let t = Tally {
            tests: 1,
            ok: 1,
            ..Tally::default()
        };
        assert_eq!(
            summary_line(&t, 1, 2, 0.5),
            "Summary: 1 test in 2 files: 1 Ok, 0 No, 0 open, 0 racy, 0 partial, 0 bounded-empty, 1 error, 0.50 s"
        );
    }
}

/// Why the witnesses of a test could not be drawn.
#[derive(Debug)]
enum DrawError {
    /// Something about the test `test`.
    InTest { test: String, error: Why },
    /// The graph could not be written to `--graph DIR`.
    Write(GraphWriteError),
}

/// What went wrong with a test's witnesses.
#[derive(Debug)]
enum Why {
    /// `--show` names a relation the model does not have.
    Show(UnknownRelation),
    /// The witnesses could not be found.
    Witnesses(ExplainError),
}

impl From<GraphWriteError> for DrawError {
    fn from(e: GraphWriteError) -> DrawError {
        DrawError::Write(e)
    }
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::InTest { test, error } => match error {
                Why::Show(e) => write!(f, "{test}: {e}"),
                Why::Witnesses(e) => write!(f, "{test}: cannot draw the witnesses: {e}"),
            },
            DrawError::Write(e) => write!(f, "{e}"),
        }
    }
}
