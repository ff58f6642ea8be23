//! What the server asks of the program that answers it: the requests of the JSON API, as
//! types, and the [`Backend`] that turns each into an answer. The server owns transport,
//! limits and isolation; the backend (the `vkherd` binary's `serve` command) owns what a
//! test means, and writes its answers with the JSON types `--json` writes.

use crate::config::Limits;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Answers the API's requests. Each call runs on a thread of its own, inside the
/// server's bounds (a panic becomes a 500 for that request alone).
pub trait Backend: Send + Sync + 'static {
    /// `GET /api/catalog`: models, variants, dialects, examples (a JSON object). Called
    /// once, at start.
    fn catalog(&self, limits: &Limits) -> String;
    /// `POST /api/run`.
    fn run(&self, request: &RunRequest, bounds: &Bounds) -> Answer;
    /// `POST /api/diff`.
    fn diff(&self, request: &DiffRequest, bounds: &Bounds) -> Answer;
    /// `POST /api/diy`.
    fn diy(&self, request: &DiyRequest) -> Answer;
}

/// A JSON body, or a refusal of the request.
pub type Answer = Result<String, Refusal>;

/// The request cannot be answered as asked: a status (4xx) and a JSON body saying where
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub body: String,
}

/// The bounds of one request's run: the server's limits, lowered by the request's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub timeout: Duration,
    pub max_candidates: u64,
}

/// `POST /api/run`: a test's text and the options of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The test, in any dialect vkherd reads.
    pub test: String,
    /// The name the test's reports give its file (an example's path, say); a label,
    /// never opened. Default `input.litmus`.
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub options: RunOptions,
    /// Also the witness graphs (one per state, and the liveness witness), as DOT.
    #[serde(default)]
    pub graphs: bool,
    /// Also the explanation of the states the condition asks about.
    #[serde(default)]
    pub explain: bool,
}

/// The options of a run, as on the command line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunOptions {
    /// `--model`: a name the catalog lists (never a file). Default: by dialect.
    #[serde(default)]
    pub model: Option<String>,
    /// `--variant`, repeated.
    #[serde(default)]
    pub variants: Vec<String>,
    /// `--unroll` (default 2; at most the server's limit).
    #[serde(default)]
    pub unroll: Option<u32>,
    #[serde(default)]
    pub no_thin_air: bool,
    /// `--liveness`.
    #[serde(default)]
    pub liveness: bool,
    /// `--progress` (implies liveness).
    #[serde(default)]
    pub progress: Option<String>,
    /// `--max-candidates` and `--timeout`, lowered to the server's limits.
    #[serde(default)]
    pub max_candidates: Option<u64>,
    #[serde(default)]
    pub timeout: Option<f64>,
}

/// `POST /api/diff`: the states one model allows and the other forbids on a test.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffRequest {
    pub test: String,
    #[serde(default)]
    pub file: Option<String>,
    /// `NAME+VARIANT+...`, as `vkherd diff A B` takes them.
    pub a: String,
    pub b: String,
    /// The run's options (`model` and `variants` are not used: `a` and `b` say them).
    #[serde(default)]
    pub options: RunOptions,
}

/// `POST /api/diy`: the test a cycle stands for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiyRequest {
    pub cycle: String,
    /// A dialect the catalog lists (default: Vulkan).
    #[serde(default)]
    pub dialect: Option<String>,
}

/// Why a request's options are refused before any run.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionError {
    /// `unroll` above the server's limit.
    Unroll { asked: u32, limit: u32 },
    /// `timeout` not a positive number of seconds.
    Timeout(f64),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unroll { asked, limit } => write!(
                f,
                "--unroll {asked} is above this server's limit of {limit} (run vkherd on your machine for more)"
            ),
            OptionError::Timeout(t) => {
                write!(f, "--timeout {t}: expected a positive number of seconds")
            }
        }
    }
}

impl RunOptions {
    /// The bounds of a run with these options on a server with `limits`: the request's
    /// limits where lower than the server's (0, as on the command line, is no limit:
    /// the server's).
    pub fn bounds(&self, limits: &Limits) -> Result<Bounds, OptionError> {
        if let Some(asked) = self.unroll {
            if asked > limits.max_unroll {
                return Err(OptionError::Unroll {
                    asked,
                    limit: limits.max_unroll,
                });
            }
        }
        let timeout = match self.timeout {
            None => limits.timeout,
            Some(0.0) => limits.timeout,
            Some(t) if t.is_finite() && t > 0.0 => {
                limits.timeout.min(Duration::from_secs_f64(t.min(1e9)))
            }
            Some(t) => return Err(OptionError::Timeout(t)),
        };
        let max_candidates = match self.max_candidates {
            None | Some(0) => limits.max_candidates,
            Some(n) => n.min(limits.max_candidates),
        };
        Ok(Bounds {
            timeout,
            max_candidates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_lowers_the_limits_and_never_raises_them() {
        let limits = Limits::default();
        let b = |o: RunOptions| o.bounds(&limits);
        let base = b(RunOptions::default()).unwrap();
        assert_eq!(base.timeout, limits.timeout);
        assert_eq!(base.max_candidates, limits.max_candidates);
        let raised = b(RunOptions {
            timeout: Some(1e12),
            max_candidates: Some(u64::MAX),
            ..RunOptions::default()
        })
        .unwrap();
        assert_eq!(raised, base);
        let lowered = b(RunOptions {
            timeout: Some(0.5),
            max_candidates: Some(10),
            ..RunOptions::default()
        })
        .unwrap();
        assert_eq!(lowered.timeout, Duration::from_millis(500));
        assert_eq!(lowered.max_candidates, 10);
        let over = b(RunOptions {
            unroll: Some(limits.max_unroll + 1),
            ..RunOptions::default()
        });
        assert!(matches!(over, Err(OptionError::Unroll { .. })));
        for t in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(b(RunOptions {
                timeout: Some(t),
                ..RunOptions::default()
            })
            .is_err());
        }
    }
}
