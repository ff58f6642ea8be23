//! Refusals: a request's test or options that cannot run, answered with the object
//! `--json` prints for a file that failed ([`vkherd::json::ErrorLine`]) and, as `text`,
//! the error as the command line prints it on stderr (with the line and a caret).

use crate::cli::test_error::TestError;
use serde::Serialize;
use vkherd::json::{ErrorLine, ErrorObject, RunInfo};
use vkherd::report::json_error;
use vkherd_serve::Refusal;

#[derive(Serialize)]
struct Body {
    #[serde(flatten)]
    line: ErrorLine,
    text: String,
}

fn body(line: ErrorLine, text: String) -> String {
    serde_json::to_string(&Body { line, text }).expect("an error serializes")
}

/// 400 for bad input (the CLI's exit status 2); a limit that stopped the work before it
/// answered is not the request's fault (422: the CLI's 3).
fn status(error: &TestError) -> u16 {
    match error {
        TestError::Stopped(_) => 422,
        _ => 400,
    }
}

/// The test `source` of `file` failed: as `vkherd --json` and stderr say it.
pub fn test(file: &str, source: &str, error: &TestError, info: Option<&RunInfo>) -> Refusal {
    let json = json_error(file, &error.json(file), info);
    let line: ErrorLine = serde_json::from_str(&json).expect("vkherd reads its own JSON");
    Refusal {
        status: status(error),
        body: body(line, error.render(file, source)),
    }
}

/// The request's options (or another input than a test, `what`) are refused.
pub fn input(file: &str, what: &str, message: String) -> Refusal {
    let line = ErrorLine {
        file: file.to_string(),
        error: ErrorObject {
            location: what.to_string(),
            line: None,
            column: None,
            message: message.clone(),
        },
        run: None,
    };
    Refusal {
        status: 400,
        body: body(line, format!("error: {message}\n")),
    }
}

/// An input error at `column` of a one-line input (`diy`'s cycle).
pub fn at_column(what: &str, column: u32, message: String, text: String) -> Refusal {
    let line = ErrorLine {
        file: what.to_string(),
        error: ErrorObject {
            location: format!("{what}:1:{column}"),
            line: Some(1),
            column: Some(column),
            message,
        },
        run: None,
    };
    Refusal {
        status: 400,
        body: body(line, text),
    }
}
