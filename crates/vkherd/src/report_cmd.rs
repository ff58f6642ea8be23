//! `vkherd report PATH... -o FILE`: runs every `.litmus` and Khronos `.test` file below
//! the paths and writes one self-contained HTML page (docs/report.md). A file that fails
//! is an entry of the page with its error; the exit code is the main command's.

use crate::cli::{combine_status, report_status, EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, EXIT_PARTIAL};
use crate::dir_walk::Found;
use crate::isolate::TestError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use vkherd::html::{Entry, EntryResult, Extras, FileError, Page};
use vkherd::report::{self, plural};
use vkherd::Options;

/// A file to report on, or a directory that could not be read.
enum Item {
    Litmus(PathBuf),
    Khronos(PathBuf),
    UnreadableDir(PathBuf, String),
}

/// What to put on the page besides the runs' results.
pub struct Show {
    /// Times per test and in total (not deterministic).
    pub times: bool,
    /// Witness graphs and explanations of forbidden states.
    pub graphs: bool,
    /// `--explain-candidates`.
    pub explain_candidates: u64,
    /// `--show`: relations drawn besides the base ones.
    pub relations: Vec<String>,
}

pub fn run(paths: &[PathBuf], output: &Path, opts: &Options, show: Show) -> i32 {
    let items = match items_to_run(paths) {
        Ok(items) => items,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    // Opened first: a page that cannot be written is known before the run, not after.
    let mut file = match std::fs::File::create(output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", output.display());
            return EXIT_BAD_INPUT;
        }
    };
    let start = Instant::now();
    let mut status = EXIT_OK;
    let mut entries = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let label = format!("test {} of {}", k + 1, items.len());
        let (mut entry, code) = run_item(item, &label, opts, &show);
        if !show.times {
            entry.seconds = None;
        }
        status = combine_status(status, code);
        entries.push(entry);
    }
    let extras_note = if show.graphs {
        crate::report_extras::draw(&mut entries)
    } else {
        Some("Witness graphs and explanations were turned off (--no-graphs).".to_string())
    };
    let page = Page {
        inputs: paths.iter().map(|p| p.display().to_string()).collect(),
        info: report::run_info(opts),
        entries,
        seconds: show.times.then(|| start.elapsed().as_secs_f64()),
        extras_note,
    };
    let errors = page
        .entries
        .iter()
        .filter(|e| matches!(e.result, EntryResult::Error(_)))
        .count();
    if let Err(e) = file.write_all(vkherd::html::html(&page).as_bytes()) {
        eprintln!("error: cannot write {}: {e}", output.display());
        return EXIT_BAD_INPUT;
    }
    outln!(
        "Wrote {}: {}, {}, {:.2} s",
        output.display(),
        plural(page.entries.len() as u64, "file"),
        plural(errors as u64, "error"),
        start.elapsed().as_secs_f64()
    );
    status
}

/// The files below `paths`, sorted by path within each directory given; directories that
/// cannot be read become entries. A path that does not exist, or a run with nothing to
/// report, is an error.
fn items_to_run(paths: &[PathBuf]) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found);
            found.sort_by(|a, b| item_path(a).cmp(item_path(b)));
            items.extend(found);
        } else if p.exists() {
            items.push(file_item(p.clone()));
        } else {
            return Err(format!("error: no such file or directory: {}", p.display()));
        }
    }
    if items.is_empty() {
        return Err(format!(
            "error: no .litmus or .test file in {}: nothing to report",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(items)
}

fn item_path(item: &Item) -> &Path {
    match item {
        Item::Litmus(p) | Item::Khronos(p) | Item::UnreadableDir(p, _) => p,
    }
}

/// A `.test` file is a Khronos test; any other file given by name is read as `.litmus`.
fn file_item(path: PathBuf) -> Item {
    if path.extension().is_some_and(|e| e == "test") {
        Item::Khronos(path)
    } else {
        Item::Litmus(path)
    }
}

fn walk(dir: &Path, out: &mut Vec<Item>) {
    crate::dir_walk::walk(dir, &["litmus", "test"], true, &mut |f| {
        out.push(match f {
            Found::File(path) => file_item(path),
            Found::Unreadable(dir, e) => Item::UnreadableDir(dir, e.to_string()),
        })
    });
}

/// Runs one item: its entry on the page, and its exit code.
fn run_item(item: &Item, label: &str, opts: &Options, show: &Show) -> (Entry, i32) {
    let path = item_path(item);
    let file = path.display().to_string();
    let error_entry = |source: Option<String>, error: FileError| Entry {
        file: file.clone(),
        source,
        result: EntryResult::Error(error),
        seconds: None,
        extras: Extras::none("the file has an error"),
        observed: None,
    };
    if let Item::UnreadableDir(_, e) = item {
        let message = format!("cannot read directory {file}: {e}");
        eprintln!("error: {message}");
        let error = FileError {
            location: file.clone(),
            rendered: format!("error: {message}"),
            message,
        };
        return (error_entry(None, error), EXIT_BAD_INPUT);
    }
    let source = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            let message = format!("cannot read {file}: {e}");
            eprintln!("error: {message}");
            let error = FileError {
                location: file.clone(),
                rendered: format!("error: {message}"),
                message,
            };
            return (error_entry(None, error), EXIT_BAD_INPUT);
        }
    };
    let label = format!("{label} {file}");
    // A panic (a bug) fails this file alone (isolate.rs).
    let outcome = crate::isolate::run_test(|| match item {
        Item::Khronos(_) => run_khronos(path, &source, &label, opts),
        _ => run_litmus(&source, &label, opts, show),
    });
    match outcome {
        Ok((result, extras, seconds, code)) => (
            Entry {
                file,
                source: Some(source),
                result,
                seconds: Some(seconds),
                extras,
                observed: None,
            },
            code,
        ),
        Err(e) => {
            let rendered = e.render(&file, &source);
            eprint!("{rendered}");
            let error = match &e {
                TestError::At(d) => FileError {
                    location: format!("{file}:{}:{}", d.span.line.max(1), d.span.column.max(1)),
                    message: d.message.clone(),
                    rendered,
                },
                TestError::Panicked(p) => FileError {
                    location: file.clone(),
                    message: p.text(&file),
                    rendered,
                },
            };
            (error_entry(Some(source), error), EXIT_BAD_INPUT)
        }
    }
}

/// A file's result, its graphs and explanations, its time and its exit code.
type Ran = (EntryResult, Extras, f64, i32);

fn run_litmus(
    source: &str,
    label: &str,
    opts: &Options,
    show: &Show,
) -> Result<Ran, vkherd::Diagnostic> {
    let program = vkherd::load_litmus(source)?;
    let estimate = vkherd::estimate(&program, opts).ok();
    let budget = crate::progress::Budget::bound(estimate, opts.timeout);
    let progress = crate::progress::Progress::start(label, budget);
    let opts = Options {
        progress: progress.as_ref().map(|p| p.counter()),
        ..opts.clone()
    };
    let rep = vkherd::run(&program, &opts)?;
    let mut code = report_status(&rep);
    let extras = if show.graphs {
        let relations: Vec<&str> = show.relations.iter().map(|s| s.as_str()).collect();
        let checked = vkherd::explain::model_for(&program, &opts)
            .map_err(|e| e.to_string())
            .and_then(|model| {
                vkherd::explain::check_show(&model, &relations).map_err(|e| e.to_string())
            });
        match checked {
            Ok(()) => crate::report_extras::extras(
                &program,
                source,
                &opts,
                &rep,
                show.explain_candidates,
                &relations,
            ),
            Err(e) => {
                // A bad argument, as in the main form's --show (the model, so the names
                // it knows, follows the test's dialect).
                eprintln!("error: {e}");
                code = EXIT_BAD_INPUT;
                Extras::none(&e)
            }
        }
    } else {
        Extras::none("turned off (--no-graphs)")
    };
    let seconds = rep.seconds;
    Ok((EntryResult::Litmus(Box::new(rep)), extras, seconds, code))
}

fn run_khronos(
    path: &Path,
    source: &str,
    label: &str,
    opts: &Options,
) -> Result<Ran, vkherd::Diagnostic> {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let budget = crate::progress::Budget::bound(None, opts.timeout);
    let progress = crate::progress::Progress::start(label, budget);
    let opts = Options {
        progress: progress.as_ref().map(|p| p.counter()),
        ..opts.clone()
    };
    let start = Instant::now();
    let checks = vkherd::khronos::run_khronos_with(source, &name, &opts)?;
    // As `vkherd khronos`: a failed check wins over a check stopped by a limit.
    let code = if checks.iter().any(|c| !c.partial && !c.passed()) {
        EXIT_FAIL
    } else if checks.iter().any(|c| c.partial) {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    };
    let seconds = start.elapsed().as_secs_f64();
    let extras = Extras::none("not made for Khronos files");
    Ok((EntryResult::Khronos { name, checks }, extras, seconds, code))
}
