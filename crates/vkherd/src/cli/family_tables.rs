//! The tables of verdicts of generated families (docs/generate.md "Families"): printed
//! by `diy --all --run` and `table`, and on the page of `report`.

use crate::cli::exit::ExitStatus;
use std::path::{Path, PathBuf};
use vkherd::html::{Entry, EntryResult, FamilyTable};
use vkherd::matrix::{self, Cell};
use vkherd_generate::family;
use vkherd_generate::index::{Index, INDEX_FILE};

/// Prints a family's table, its legend and its counts.
pub fn print_table(
    dims: &[family::Dimension],
    variants: &[family::Variant],
    verdicts: &[matrix::Cell],
) {
    outln!("{}", matrix::LEGEND);
    outln!();
    print!("{}", matrix::text(dims, variants, verdicts));
    outln!();
    outln!("{}", matrix::summary(variants, verdicts));
}

/// Runs a family's tests, prints its table and says why cells are `?`: the status of the
/// run as for the tests run one by one (a limit that left a verdict open exits 3, an
/// error 2; docs/generate.md "Families"). `names` name the tests in messages.
pub fn run_and_print(
    dims: &[family::Dimension],
    variants: &[family::Variant],
    names: &[String],
    sources: &[Result<String, String>],
    opts: &vkherd::Options,
) -> ExitStatus {
    let runs = matrix::runs(sources, opts);
    let verdicts: Vec<Cell> = runs
        .iter()
        .map(|r| r.as_ref().map_or(Cell::Unknown, Cell::of))
        .collect();
    print_table(dims, variants, &verdicts);
    let mut status = ExitStatus::Ok;
    let mut open = 0u64;
    for (run, name) in runs.iter().zip(names) {
        let s = match run {
            Ok(report) => ExitStatus::of_report(report),
            Err(e) => {
                eprintln!("error: {name}: {}", e.trim_end());
                ExitStatus::BadInput
            }
        };
        open += u64::from(s == ExitStatus::Partial);
        status = status.combine(s);
    }
    if open > 0 {
        outln!(
            "Partial: {} stopped by --max-candidates or --timeout before the verdict was settled (`?`)",
            vkherd::report::plural(open, "test")
        );
    }
    status
}

/// The directories with a family index below `paths`, sorted (a directory before the
/// ones below it). The walk is crate::cli::dir_walk's, so a link loop is walked once.
fn family_dirs(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths.iter().filter(|p| p.is_dir()) {
        crate::cli::dir_walk::walk(p, &["json"], false, &mut |found| {
            if let crate::cli::dir_walk::Found::File(f) = found {
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
