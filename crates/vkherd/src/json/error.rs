//! The object of a file that failed: unreadable, or an error at a place in it.

use super::RunInfo;
use serde::{Deserialize, Serialize};

/// `{"file": ..., "error": {...}, run information...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorLine {
    pub file: String,
    pub error: ErrorObject,
    /// Absent where two models ran (`vkherd diff`) and from older versions.
    #[serde(flatten)]
    pub run: Option<RunInfo>,
}

/// Where and what: `location` is `file:line:column`, or the file alone when the error is
/// about the whole file (`line` and `column` are then `null`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    pub location: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}
