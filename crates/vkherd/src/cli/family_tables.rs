//! The tables of verdicts of generated families (docs/generate.md "Families"): printed
//! by `diy --all --run` and `table`, and on the page of `report`.

use std::path::{Path, PathBuf};
use vkherd::generate::family;
use vkherd::generate::index::{Index, INDEX_FILE};
use vkherd::generate::matrix::{self, Cell};
use vkherd::html::{Entry, EntryResult, FamilyTable};

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
