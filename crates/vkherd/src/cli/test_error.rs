//! Why one test of a batch failed, rendered on stderr and as the `{"error": …}` object of
//! `--json` ([`crate::cli::for_each_test`]).

use crate::cli::exit::ExitStatus;
use crate::cli::isolate::Panicked;
use vkherd::report::JsonError;
use vkherd::Diagnostic;

/// Why one test failed.
#[derive(Debug)]
pub enum TestError {
    /// The file could not be read: the message, e.g. `cannot read FILE: REASON`.
    Unreadable(String),
    /// An error at a place in the test.
    At(Diagnostic),
    /// An error at a place in a command-line argument (`explain --state`): the option's
    /// name and text stand for the file's.
    InArgument {
        diagnostic: Diagnostic,
        option: &'static str,
        text: String,
    },
    /// An error about the test as a whole, or about what was asked of it.
    Message(String),
    /// A limit stopped the work before it gave an answer: no fault of the test.
    Stopped(String),
    /// A panic (a bug in vkherd) caught at the test's boundary.
    Panicked(Panicked),
}

impl TestError {
    /// The error as stderr shows it (ends with a newline); `file` is the test's path as
    /// shown, `source` its text.
    pub fn render(&self, file: &str, source: &str) -> String {
        match self {
            TestError::Unreadable(m) | TestError::Message(m) => format!("error: {m}\n"),
            TestError::At(d) => d.render(file, source),
            TestError::InArgument {
                diagnostic,
                option,
                text,
            } => diagnostic.render(option, text),
            TestError::Stopped(m) => format!("error: {file}: {m}\n"),
            TestError::Panicked(p) => format!("error: {}\n", p.text(file)),
        }
    }

    /// The error of the test's JSON object.
    pub fn json(&self, file: &str) -> JsonError<'_> {
        match self {
            TestError::At(d) | TestError::InArgument { diagnostic: d, .. } => JsonError::At(d),
            TestError::Unreadable(m) | TestError::Message(m) => JsonError::File(m.clone()),
            TestError::Stopped(m) => JsonError::File(format!("{file}: {m}")),
            TestError::Panicked(p) => JsonError::File(p.text(file)),
        }
    }

    /// The exit status of a test that failed so: bad input, or partial for a test a
    /// limit stopped.
    pub fn status(&self) -> ExitStatus {
        match self {
            TestError::Stopped(_) => ExitStatus::Partial,
            _ => ExitStatus::BadInput,
        }
    }
}

impl From<Diagnostic> for TestError {
    fn from(d: Diagnostic) -> TestError {
        TestError::At(d)
    }
}
