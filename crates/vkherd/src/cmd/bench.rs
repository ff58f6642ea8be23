//! `vkherd bench PATH...`: per test, the median time over repeated runs, candidates
//! explored, consistent executions and candidates per second; a table or JSON lines.

use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
use crate::cli::test_files::{files_to_run, TestKind};
use std::path::PathBuf;
use vkherd::json::{BenchLine, Pruned};
use vkherd::Options;

pub fn run(paths: &[PathBuf], runs: usize, opts: &Options, as_json: bool) -> ExitStatus {
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    let runs = runs.max(1);
    let info = vkherd::report::run_info(opts);
    if !as_json {
        outln!(
            "{:<48} {:>12} {:>12} {:>12} {:>12} {:>14}",
            "test",
            "median s",
            "candidates",
            "pruned",
            "consistent",
            "candidates/s"
        );
    }
    let (mut total_secs, mut total_cands) = (0.0f64, 0u64);
    let mut bench = |test: &TestFile<'_>| -> Result<ExitStatus, TestError> {
        // Parsed once, run `runs` times.
        let program = vkherd::load_litmus(&test.source)?;
        let mut times = Vec::with_capacity(runs);
        let mut rep = vkherd::run(&program, opts)?;
        times.push(rep.seconds);
        for _ in 1..runs {
            rep = vkherd::run(&program, opts)?;
            times.push(rep.seconds);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let rate = if median > 0.0 {
            rep.stats.candidates as f64 / median
        } else {
            0.0
        };
        total_secs += median;
        total_cands += rep.stats.candidates;
        if as_json {
            let line = BenchLine {
                file: test.name.clone(),
                name: rep.header.name.clone(),
                runs: times.len(),
                median_seconds: median,
                candidates: rep.stats.candidates,
                pruned: Pruned(rep.stats.pruned),
                consistent: rep.outcomes.consistent,
                candidates_per_second: rate,
                run: vkherd::report::run_info_of(&rep, opts),
            };
            outln!(
                "{}",
                serde_json::to_string(&line).expect("a bench line serializes")
            );
        } else {
            outln!(
                "{:<48} {:>12.6} {:>12} {:>12} {:>12} {:>14.0}",
                test.name,
                median,
                rep.stats.candidates,
                vkherd::report::readable_count(rep.stats.pruned),
                rep.outcomes.consistent,
                rate
            );
        }
        // Only a stop is reported: bench measures, it does not judge.
        Ok(if rep.stats.stopped.is_some() {
            ExitStatus::Partial
        } else {
            ExitStatus::Ok
        })
    };
    let tests = files.iter().map(PathBuf::as_path).enumerate();
    let walked = for_each_test(
        tests,
        ErrorOutput::json_if(as_json, Some(&info)),
        &mut bench,
    );
    let bad = walked.errors;
    if !as_json {
        let errors = match bad {
            0 => String::new(),
            n => format!(", {}", vkherd::report::plural(n, "error")),
        };
        outln!(
            "total: {}{errors}, {:.6} s (sum of medians), {} candidates, {:.0} candidates/s",
            vkherd::report::plural(files.len() as u64 - bad, "test"),
            total_secs,
            total_cands,
            if total_secs > 0.0 {
                total_cands as f64 / total_secs
            } else {
                0.0
            }
        );
    }
    walked.status
}
