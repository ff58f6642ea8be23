//! `vkherd merge`: puts the `--json` output of the shards of a run (`--shard K/N`) back
//! together and prints the whole run's reports, as the run would have.

use crate::cli::exit::ExitStatus;
use std::io::Write;
use std::path::PathBuf;
use vkherd::json::Line;
use vkherd::{merge, report};

/// Reads the shards' JSON lines and prints the whole run's reports (and their warnings),
/// with the exit code the run would have had.
pub fn run(files: &[PathBuf], as_json: bool) -> ExitStatus {
    let mut reports = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return ExitStatus::BadInput;
            }
        };
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match Line::parse(line) {
                Ok(Line::Report(r)) => reports.push(*r),
                // A shard's failed file (its error object) or a summary.
                Ok(Line::Error(_) | Line::Summary) => {
                    eprintln!("error: cannot merge: {}", merge::NOT_A_SHARD_REPORT);
                    return ExitStatus::BadInput;
                }
                Err(e) => {
                    eprintln!(
                        "error: {}:{}: not a JSON report: {e}",
                        file.display(),
                        n + 1
                    );
                    return ExitStatus::BadInput;
                }
            }
        }
    }
    let merged = match merge::merge(&reports) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot merge: {e}");
            return ExitStatus::BadInput;
        }
    };
    let mut status = ExitStatus::Ok;
    let stdout = std::io::stdout();
    for m in &merged {
        status = status.combine(ExitStatus::of_report(&m.report));
        // Errors writing stdout (a closed pipe) are ignored, as everywhere in the CLI.
        let mut out = stdout.lock();
        if as_json {
            let _ = writeln!(
                out,
                "{}",
                report::json(&m.report, &m.file, m.run_info.as_ref())
            );
        } else {
            let _ = writeln!(out, "{}", report::herd_text(&m.report));
        }
        for note in &m.report.notes {
            eprintln!("{}: {note}", m.file);
        }
    }
    status
}
