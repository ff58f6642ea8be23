//! `vkherd report PATH... -o FILE`: runs every `.litmus` and Khronos `.test` file below
//! the paths and writes one self-contained HTML page (docs/report.md). A file that fails
//! is an entry of the page with its error; the exit code is the main command's.

use crate::cli::dir_walk::Found;
use crate::cli::exit::ExitStatus;
use crate::cli::for_each_test::{for_each_test, EachTest, ErrorOutput, TestFile};
use crate::cli::test_error::TestError;
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

pub fn run(paths: &[PathBuf], output: &Path, opts: &Options, show: Show) -> ExitStatus {
    let items = match items_to_run(paths) {
        Ok(items) => items,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    // Opened first: a page that cannot be written is known before the run, not after.
    let mut file = match std::fs::File::create(output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", output.display());
            return ExitStatus::BadInput;
        }
    };
    let start = Instant::now();
    let mut pages = Entries {
        items: &items,
        opts,
        show: &show,
        entries: Vec::with_capacity(items.len()),
    };
    let paths_of = items.iter().map(item_path).enumerate();
    let status = for_each_test(paths_of, ErrorOutput::Text, &mut pages).status;
    let mut entries = pages.entries;
    let extras_note = if show.graphs {
        crate::cli::report_extras::draw(&mut entries)
    } else {
        Some("Witness graphs and explanations were turned off (--no-graphs).".to_string())
    };
    let families = crate::cli::family_tables::families(paths, &entries);
    let page = Page {
        families,
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
        return ExitStatus::BadInput;
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
    crate::cli::dir_walk::walk(dir, &["litmus", "test"], true, &mut |f| {
        out.push(match f {
            Found::File(path) => file_item(path),
            Found::Unreadable(dir, e) => Item::UnreadableDir(dir, e.to_string()),
        })
    });
}

/// The page's entries, one per item, made as [`for_each_test`] runs the items.
struct Entries<'a> {
    items: &'a [Item],
    opts: &'a Options,
    show: &'a Show,
    entries: Vec<Entry>,
}

impl EachTest for Entries<'_> {
    fn read(&mut self, index: usize, path: &Path) -> Result<String, TestError> {
        match &self.items[index] {
            Item::UnreadableDir(_, e) => Err(TestError::Unreadable(format!(
                "cannot read directory {}: {e}",
                path.display()
            ))),
            _ => crate::cli::for_each_test::read_source(path),
        }
    }

    fn run(&mut self, test: &TestFile<'_>) -> Result<ExitStatus, TestError> {
        let label = format!(
            "test {} of {} {}",
            test.index + 1,
            self.items.len(),
            test.name
        );
        let (result, extras, seconds, code) = match &self.items[test.index] {
            Item::Khronos(_) => run_khronos(test.path, &test.source, &label, self.opts)?,
            _ => run_litmus(&test.source, &label, self.opts, self.show)?,
        };
        self.entries.push(Entry {
            file: test.name.clone(),
            source: Some(test.source.clone()),
            result,
            seconds: self.show.times.then_some(seconds),
            extras,
            observed: None,
        });
        Ok(code)
    }

    fn failed(&mut self, file: &str, source: Option<&str>, e: &TestError) {
        let rendered = e.render(file, source.unwrap_or_default());
        let error = match e {
            TestError::At(d) => FileError {
                location: format!("{file}:{}:{}", d.span.line.max(1), d.span.column.max(1)),
                message: d.message.clone(),
                rendered,
            },
            TestError::Unreadable(message) => FileError {
                location: file.to_string(),
                rendered: rendered.trim_end().to_string(),
                message: message.clone(),
            },
            TestError::Panicked(p) => FileError {
                location: file.to_string(),
                message: p.text(file),
                rendered,
            },
            other => FileError {
                location: file.to_string(),
                message: other.render(file, "").trim_end().to_string(),
                rendered,
            },
        };
        self.entries.push(Entry {
            file: file.to_string(),
            source: source.map(str::to_string),
            result: EntryResult::Error(error),
            seconds: None,
            extras: Extras::none("the file has an error"),
            observed: None,
        });
    }
}

/// A file's result, its graphs and explanations, its time and its exit code.
type Ran = (EntryResult, Extras, f64, ExitStatus);

fn run_litmus(
    source: &str,
    label: &str,
    opts: &Options,
    show: &Show,
) -> Result<Ran, vkherd::Diagnostic> {
    let program = vkherd::load_litmus(source)?;
    let estimate = vkherd::estimate(&program, opts).ok();
    let budget = crate::cli::progress::Budget::bound(estimate, opts.run.timeout);
    let progress = crate::cli::progress::Progress::start(label, budget);
    let opts = opts.with_progress(progress.as_ref().map(|p| p.counter()));
    let rep = vkherd::run_with_source(&program, Some(source), &opts)?;
    let mut code = ExitStatus::of_report(&rep);
    let extras = if show.graphs {
        let relations: Vec<&str> = show.relations.iter().map(|s| s.as_str()).collect();
        // The model that judged the test knows the relations `--show` may name.
        let model = rep
            .model
            .as_ref()
            .expect("a run's report carries its model");
        let checked =
            vkherd::explain::check_show(model.cat_model(), &relations).map_err(|e| e.to_string());
        match checked {
            Ok(()) => crate::cli::report_extras::extras(
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
                code = ExitStatus::BadInput;
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
    let budget = crate::cli::progress::Budget::bound(None, opts.run.timeout);
    let progress = crate::cli::progress::Progress::start(label, budget);
    let opts = opts.with_progress(progress.as_ref().map(|p| p.counter()));
    let start = Instant::now();
    let checks = vkherd::khronos::run_khronos_with(source, &name, &opts)?;
    // As `vkherd khronos`: a failed check wins over a check stopped by a limit.
    let code = if checks.iter().any(|c| !c.partial && !c.passed()) {
        ExitStatus::Fail
    } else if checks.iter().any(|c| c.partial) {
        ExitStatus::Partial
    } else {
        ExitStatus::Ok
    };
    let seconds = start.elapsed().as_secs_f64();
    let extras = Extras::none("not made for Khronos files");
    Ok((EntryResult::Khronos { name, checks }, extras, seconds, code))
}
