//! `vkherd table DIR`: runs the tests of a family written by `vkherd diy --all -o DIR`
//! and prints the table of verdicts; and the families' tables of `vkherd report`
//! (docs/generate.md "Families").

use crate::cli::{ModelArgs, RunArgs, ThreadArgs, EXIT_BAD_INPUT, EXIT_OK};
use clap::Args;
use std::path::{Path, PathBuf};
use vkherd::generate::index::{Index, INDEX_FILE};
use vkherd::generate::matrix::{self, Cell};
use vkherd::html::{Entry, EntryResult, FamilyTable};

#[derive(Args, Debug)]
pub struct TableArgs {
    /// The family's directory (with the index.json `vkherd diy --all -o DIR` wrote).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: &TableArgs) -> i32 {
    args.threads.init_threads();
    let index = match Index::read(&args.dir) {
        Ok(Some(i)) => i,
        Ok(None) => {
            eprintln!(
                "error: no {INDEX_FILE} in {}: expected a family written by `vkherd diy --all CYCLE --vary AXES -o {}`",
                args.dir.display(),
                args.dir.display()
            );
            return EXIT_BAD_INPUT;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let model = match args.model.model() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}", e.trim_end());
            return EXIT_BAD_INPUT;
        }
    };
    let sources: Vec<Result<String, String>> = index
        .tests
        .iter()
        .map(|t| {
            let path = args.dir.join(&t.file);
            std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
        })
        .collect();
    let mut status = EXIT_OK;
    for e in sources.iter().filter_map(|s| s.as_ref().err()) {
        eprintln!("error: {e}");
        status = EXIT_BAD_INPUT;
    }
    let verdicts = matrix::verdicts(&sources, &args.run.options(&model));
    outln!(
        "{} (vary {}; model {})",
        index.cycle,
        index.vary.join(", "),
        model.name
    );
    crate::diy_cmd::print_table(&index.dimensions, &index.variants, &verdicts);
    status
}

/// The directories with a family index below `paths`, sorted (a directory before the
/// ones below it). The walk is crate::dir_walk's, so a link loop is walked once.
fn family_dirs(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths.iter().filter(|p| p.is_dir()) {
        crate::dir_walk::walk(p, &["json"], false, &mut |found| {
            if let crate::dir_walk::Found::File(f) = found {
                if f.file_name().is_some_and(|n| n == INDEX_FILE) {
                    out.extend(f.parent().map(Path::to_path_buf));
                }
            }
        });
    }
    out.sort();
    out.dedup();
    out
}

/// The tables of the families among `paths`, from the verdicts of their tests' entries
/// (a test with no entry, or one that failed, is `?`).
pub fn families(paths: &[PathBuf], entries: &[Entry]) -> Vec<FamilyTable> {
    let mut out = Vec::new();
    for dir in family_dirs(paths) {
        let index = match Index::read(&dir) {
            Ok(Some(i)) => i,
            Ok(None) => continue,
            Err(e) => {
                eprintln!("warning: {e}: its family table is left out");
                continue;
            }
        };
        let verdicts: Vec<Cell> = index
            .tests
            .iter()
            .map(|t| {
                let file = dir.join(&t.file).display().to_string();
                match entries.iter().find(|e| e.file == file).map(|e| &e.result) {
                    Some(EntryResult::Litmus(report)) => Cell::of(report),
                    _ => Cell::Unknown,
                }
            })
            .collect();
        out.push(FamilyTable {
            dir: dir.display().to_string(),
            cycle: index.cycle.clone(),
            vary: index.vary.join(", "),
            table: matrix::html(&index.dimensions, &index.variants, &verdicts),
            summary: matrix::summary(&index.variants, &verdicts),
        });
    }
    out
}
