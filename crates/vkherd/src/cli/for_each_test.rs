//! [`for_each_test`]: the loop every command that runs test files shares. It reads each
//! file, runs the command's work on it with a panic isolated to the test (isolate.rs),
//! prints a failed test's error (stderr, and the `{"error": …}` object of `--json`), and
//! combines the tests' exit statuses. The command says what to do with a test read.

use crate::cli::exit::ExitStatus;
use crate::cli::test_error::TestError;
use std::path::Path;
use vkherd::json::RunInfo;

/// A test file, read.
pub struct TestFile<'a> {
    /// Its place in the command's list of files (from 0).
    pub index: usize,
    pub path: &'a Path,
    /// The path as messages show it.
    pub name: String,
    /// Its text (invalid UTF-8 replaced).
    pub source: String,
}

/// Where a failed test's error goes besides stderr.
#[derive(Clone, Copy)]
pub enum ErrorOutput<'a> {
    /// stderr only.
    Text,
    /// Also a `{"error": …}` line on stdout, with the run's information when given.
    Json(Option<&'a RunInfo>),
}

impl ErrorOutput<'_> {
    /// `Json(info)` when `json`, else `Text`.
    pub fn json_if(json: bool, info: Option<&RunInfo>) -> ErrorOutput<'_> {
        if json {
            ErrorOutput::Json(info)
        } else {
            ErrorOutput::Text
        }
    }
}

/// What a command does with each test. A closure taking the [`TestFile`] is one.
pub trait EachTest {
    /// Reads the test at `path`, the `index`-th of the list.
    fn read(&mut self, _index: usize, path: &Path) -> Result<String, TestError> {
        read_source(path)
    }

    /// Runs the test: its exit status, or why it failed.
    fn run(&mut self, test: &TestFile<'_>) -> Result<ExitStatus, TestError>;

    /// Called after a failed test's error is printed (`source`: the text, if read).
    fn failed(&mut self, _name: &str, _source: Option<&str>, _error: &TestError) {}
}

impl<F: FnMut(&TestFile<'_>) -> Result<ExitStatus, TestError>> EachTest for F {
    fn run(&mut self, test: &TestFile<'_>) -> Result<ExitStatus, TestError> {
        self(test)
    }
}

/// How a loop over tests ended.
#[derive(Debug, Clone, Copy, Default)]
pub struct Walked {
    /// The tests' statuses combined (bad input when some test failed).
    pub status: ExitStatus,
    /// Tests that failed.
    pub errors: u64,
}

/// Runs `each` on the files, in order (`index`: each file's place in the command's list).
pub fn for_each_test<'a>(
    files: impl IntoIterator<Item = (usize, &'a Path)>,
    errors: ErrorOutput<'_>,
    each: &mut impl EachTest,
) -> Walked {
    let mut walked = Walked::default();
    for (index, path) in files {
        let name = path.display().to_string();
        let source = match each.read(index, path) {
            Ok(source) => source,
            Err(e) => {
                fail(&mut walked, errors, each, &name, None, &e);
                continue;
            }
        };
        let test = TestFile {
            index,
            path,
            name,
            source,
        };
        // A panic (a bug) fails this test alone (isolate.rs).
        let ran = crate::cli::isolate::catch(|| each.run(&test))
            .unwrap_or_else(|panic| Err(TestError::Panicked(panic)));
        match ran {
            Ok(status) => walked.status = walked.status.combine(status),
            Err(e) => fail(
                &mut walked,
                errors,
                each,
                &test.name,
                Some(&test.source),
                &e,
            ),
        }
    }
    walked
}

/// A test's text (invalid UTF-8 replaced), or why it cannot be read.
pub fn read_source(path: &Path) -> Result<String, TestError> {
    std::fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| TestError::Unreadable(format!("cannot read {}: {e}", path.display())))
}

fn fail(
    walked: &mut Walked,
    errors: ErrorOutput<'_>,
    each: &mut impl EachTest,
    name: &str,
    source: Option<&str>,
    e: &TestError,
) {
    walked.errors += 1;
    walked.status = walked.status.combine(e.status());
    eprint!("{}", e.render(name, source.unwrap_or_default()));
    if let ErrorOutput::Json(info) = errors {
        outln!("{}", vkherd::report::json_error(name, &e.json(name), info));
    }
    each.failed(name, source, e);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two readable tests around a missing one: each test's status combines into the
    /// run's, a missing file and a failing test count as errors (bad input), and a panic
    /// in one test does not stop the next.
    #[test]
    fn every_test_runs_and_failures_count_as_bad_input() {
        let dir = std::env::temp_dir().join(format!("vkherd-each-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.litmus"), dir.join("b.litmus"));
        std::fs::write(&a, "partial").unwrap();
        std::fs::write(&b, "panic").unwrap();
        let missing = dir.join("missing.litmus");
        let files = [a.clone(), missing, b.clone(), a.clone()];
        let mut seen = Vec::new();
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let walked = for_each_test(
            files.iter().map(|p| p.as_path()).enumerate(),
            ErrorOutput::Text,
            &mut |test: &TestFile<'_>| {
                seen.push(test.index);
                match test.source.as_str() {
                    "panic" => panic!("on purpose"),
                    _ => Ok(ExitStatus::Partial),
                }
            },
        );
        std::panic::set_hook(hook);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(seen, [0, 2, 3]);
        assert_eq!(walked.errors, 2);
        assert_eq!(walked.status, ExitStatus::BadInput);
    }

    /// Without failures the status is the tests' combined.
    #[test]
    fn without_failures_the_status_is_the_tests_combined() {
        let file = std::env::temp_dir().join(format!("vkherd-each1-{}", std::process::id()));
        std::fs::write(&file, "").unwrap();
        let statuses = [ExitStatus::PartialVerdictFinal, ExitStatus::BoundedEmpty];
        let walked = for_each_test(
            [(0, file.as_path()), (1, file.as_path())],
            ErrorOutput::Text,
            &mut |test: &TestFile<'_>| Ok(statuses[test.index]),
        );
        std::fs::remove_file(&file).unwrap();
        assert_eq!(walked.errors, 0);
        assert_eq!(walked.status, ExitStatus::BoundedEmpty);
    }
}
