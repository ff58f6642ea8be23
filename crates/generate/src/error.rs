//! Errors of the generators: a kind, the offending token of the cycle (when there is
//! one) and what was expected. The command line renders them with the cycle and a caret,
//! as the other input errors are rendered.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The cycle has no edge.
    Empty,
    /// A token that is no edge of the vocabulary.
    UnknownEdge,
    /// An annotation word the dialect does not have, or one the edge or event does not take.
    UnknownAnnotation,
    /// Annotations that cannot hold together (`acq` on a write, two scopes, ...).
    Incompatible,
    /// An edge ends at a read and the next starts at a write, or the last edge does not
    /// lead back to the first event.
    NotClosed,
    /// The cycle's locations cannot come back to the first one (one location change).
    Locations,
    /// Fewer than two external edges: the events would all be in one invocation.
    Threads,
    /// The dialect cannot write this edge (address dependencies).
    NotExpressible,
    /// The communication edges ask for a coherence order that cannot exist.
    Coherence,
    /// The final state cannot observe the coherence order the cycle asks for.
    Unobservable,
    /// The cycle has no communication edge: nothing to ask about the final state.
    NoCommunication,
    /// The placements of the external edges contradict each other.
    Placement,
    /// A family larger than its bound.
    TooMany,
    /// A bad `--vary` axis or alphabet entry.
    BadOption,
    /// A dialect the generators do not write tests in.
    Dialect,
}

/// A token of the cycle as the user wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRef {
    /// 0-based index among the cycle's tokens (edges and bracketed event annotations).
    pub index: usize,
    pub text: String,
    /// 1-based column of the token in the cycle text (the arguments joined by spaces).
    pub column: usize,
}

/// An error of the generators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError {
    pub kind: ErrorKind,
    pub token: Option<TokenRef>,
    pub message: String,
}

impl GenError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> GenError {
        GenError {
            kind,
            token: None,
            message: message.into(),
        }
    }

    pub fn at(kind: ErrorKind, token: &TokenRef, message: impl Into<String>) -> GenError {
        GenError {
            kind,
            token: Some(token.clone()),
            message: message.into(),
        }
    }

    /// The error as the command line prints it: the message, then the cycle with a caret
    /// under the offending token.
    pub fn render(&self, cycle: &str) -> String {
        let mut out = String::new();
        match &self.token {
            Some(t) => {
                out.push_str(&format!(
                    "error: cycle token {} `{}` (column {}): {}\n",
                    t.index + 1,
                    t.text,
                    t.column,
                    self.message
                ));
                out.push_str(&format!("  {cycle}\n"));
                let pad: String = cycle
                    .chars()
                    .take(t.column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                out.push_str(&format!(
                    "  {pad}{}\n",
                    "^".repeat(t.text.chars().count().max(1))
                ));
            }
            None => out.push_str(&format!("error: {}\n", self.message)),
        }
        out
    }
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.token {
            Some(t) => write!(f, "`{}`: {}", t.text, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for GenError {}
