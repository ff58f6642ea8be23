//! `vkherd bench PATH...`: per test, the median time over repeated runs, candidates
//! explored, consistent executions and candidates per second; a table or JSON lines.

use crate::cli::{files_to_run, TestKind, EXIT_BAD_INPUT, EXIT_OK};
use std::path::PathBuf;
use vkherd::json::{BenchLine, Pruned};
use vkherd::report::{json_error, JsonError};
use vkherd::Options;

pub fn run(paths: &[PathBuf], runs: usize, opts: &Options, as_json: bool) -> i32 {
    let files = match files_to_run(paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let runs = runs.max(1);
    let info = vkherd::report::run_info(opts);
    let mut status = EXIT_OK;
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
    let (mut total_secs, mut total_cands, mut bad) = (0.0f64, 0u64, 0u64);
    for file in &files {
        let name = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                let message = format!("cannot read {name}: {e}");
                eprintln!("error: {message}");
                if as_json {
                    outln!(
                        "{}",
                        json_error(&name, &JsonError::File(message), Some(&info))
                    );
                }
                status = EXIT_BAD_INPUT;
                bad += 1;
                continue;
            }
        };
        // Parsed once, run `runs` times; a panic (a bug) fails this test alone (isolate.rs).
        let measured = crate::isolate::run_test(|| {
            let program = vkherd::load_litmus(&source)?;
            let mut times = Vec::with_capacity(runs);
            let mut last = vkherd::run(&program, opts)?;
            times.push(last.seconds);
            for _ in 1..runs {
                last = vkherd::run(&program, opts)?;
                times.push(last.seconds);
            }
            Ok((times, last, program.dialect))
        });
        let (mut times, rep, dialect) = match measured {
            Ok(m) => m,
            Err(e) => {
                eprint!("{}", e.render(&name, &source));
                if as_json {
                    outln!("{}", json_error(&name, &e.json(&name), Some(&info)));
                }
                status = EXIT_BAD_INPUT;
                bad += 1;
                continue;
            }
        };
        if rep.stats.stopped.is_some() && status == EXIT_OK {
            status = crate::cli::EXIT_PARTIAL;
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
                file: name,
                name: rep.header.name.clone(),
                runs: times.len(),
                median_seconds: median,
                candidates: rep.stats.candidates,
                pruned: Pruned(rep.stats.pruned),
                consistent: rep.outcomes.consistent,
                candidates_per_second: rate,
                run: vkherd::report::run_info_for(dialect, opts),
            };
            outln!(
                "{}",
                serde_json::to_string(&line).expect("a bench line serializes")
            );
        } else {
            outln!(
                "{:<48} {:>12.6} {:>12} {:>12} {:>12} {:>14.0}",
                name,
                median,
                rep.stats.candidates,
                vkherd::report::readable_count(rep.stats.pruned),
                rep.outcomes.consistent,
                rate
            );
        }
    }
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
    status
}
