//! `vkherd PATH...`: a herd-style report (or a JSON object) per `.litmus` file, warnings
//! on stderr, and for a run of several files a summary line at the end.

use crate::cli::{
    files_to_run, TestKind, EXIT_BAD_INPUT, EXIT_BOUNDED_EMPTY, EXIT_OK, EXIT_PARTIAL,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use vkherd::report::{self, plural, JsonError};
use vkherd::{Options, Verdict};

/// What to print besides the reports.
pub struct Output {
    pub json: bool,
    /// herd7's `Time NAME SECONDS` line.
    pub time: bool,
    /// A `Stats` line per test on stderr.
    pub stats: bool,
    /// State lines without marks, and a `Time` line: herd7's own log format.
    pub herd7_log: bool,
}

/// Counts for the summary line.
#[derive(Default)]
struct Tally {
    tests: u64,
    ok: u64,
    no: u64,
    racy: u64,
    partial: u64,
    bounded_empty: u64,
    errors: u64,
}

pub fn run(paths: &[PathBuf], mut opts: Options, output: Output) -> i32 {
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let info = report::run_info(&opts);
    let start = Instant::now();
    let mut tally = Tally::default();
    let stdout = std::io::stdout();
    for (k, file) in files.iter().enumerate() {
        let name = file.display().to_string();
        let fail = |tally: &mut Tally, error: JsonError<'_>, text: String| {
            tally.errors += 1;
            eprint!("{text}");
            if output.json {
                let _ = writeln!(
                    stdout.lock(),
                    "{}",
                    report::json_error(&name, &error, &info)
                );
            }
        };
        let source = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                let message = format!("cannot read {name}: {e}");
                fail(
                    &mut tally,
                    JsonError::File(message.clone()),
                    format!("error: {message}\n"),
                );
                continue;
            }
        };
        let progress = crate::progress::Progress::start(&progress_label(k, files.len(), &name));
        opts.progress = progress.as_ref().map(|p| p.counter());
        let result = vkherd::load_litmus(&source).and_then(|p| vkherd::run(&p, &opts));
        drop(progress);
        let rep = match result {
            Ok(rep) => rep,
            Err(d) => {
                fail(&mut tally, JsonError::At(&d), d.render(&name, &source));
                continue;
            }
        };
        tally.tests += 1;
        match rep.verdict {
            Verdict::Ok => tally.ok += 1,
            Verdict::No => tally.no += 1,
        }
        tally.racy += u64::from(rep.outcomes.flag_data_race);
        tally.partial += u64::from(rep.stats.stopped.is_some());
        tally.bounded_empty += u64::from(rep.bounded_empty);
        // Errors writing stdout (a closed pipe) are ignored, as everywhere in the CLI.
        let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
        if output.json {
            let _ = report::write_json(&mut out, &rep, &name, &info);
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
        for note in &rep.notes {
            eprintln!("{name}: {note}");
        }
        if output.stats {
            eprintln!("{}", report::stats_line(&rep, &name));
        }
    }
    let directory_run = files.len() > 1 || paths.iter().any(|p| p.is_dir());
    if directory_run && !output.json {
        let line = summary_line(&tally, files.len(), start.elapsed().as_secs_f64());
        // A herd7 log holds reports only: there the summary goes to stderr.
        if output.herd7_log {
            eprintln!("{line}");
        } else {
            let _ = writeln!(stdout.lock(), "{line}");
        }
    }
    if tally.errors > 0 {
        EXIT_BAD_INPUT
    } else if tally.partial > 0 {
        EXIT_PARTIAL
    } else if tally.bounded_empty > 0 {
        EXIT_BOUNDED_EMPTY
    } else {
        EXIT_OK
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

/// `Summary: 12 tests in 13 files: 9 Ok, 3 No, 4 racy, 0 partial, 0 bounded-empty,
/// 1 error, 0.53 s`.
fn summary_line(t: &Tally, files: usize, seconds: f64) -> String {
    format!(
        "Summary: {} in {}: {} Ok, {} No, {} racy, {} partial, {} bounded-empty, {}, {seconds:.2} s",
        plural(t.tests, "test"),
        plural(files as u64, "file"),
        t.ok,
        t.no,
        t.racy,
        t.partial,
        t.bounded_empty,
        plural(t.errors, "error"),
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
            errors: 1,
            ..Tally::default()
        };
        assert_eq!(
            summary_line(&t, 2, 0.5),
            "Summary: 1 test in 2 files: 1 Ok, 0 No, 0 racy, 0 partial, 0 bounded-empty, 1 error, 0.50 s"
        );
    }
}
