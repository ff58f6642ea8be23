//! What can be wrong with a model file: a kind for programs (tests, tools) and a located
//! message for people. Messages are never parsed back: callers match on [`ErrorKind`].

use vkherd_litmus::{Diagnostic, Span};

/// What is wrong with a model file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Text the grammar does not accept.
    Syntax,
    /// A name that is neither defined above nor a base name.
    UnknownName,
    /// A value of the wrong type, a wrong number of arguments, a function used as a
    /// value, a `let rec` that does not only grow, a check of the wrong type.
    Type,
    /// An included file that cannot be read, or a herd7 library file vkherd refuses.
    Include,
    /// A limit of docs/errors.md ("On the model").
    Limit(Limit),
    /// A herd7 construct vkherd does not run (docs/models.md).
    Unsupported(Construct),
    /// Not about one place of a file (an unknown bundled model name).
    Model,
}

/// The limits on a model (docs/errors.md, "On the model"): each bounds a recursion of
/// the parser, the compiler or the evaluator, so that a deep model is refused, not a
/// stack overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Parentheses, brackets, `~` and `if` nested in one expression.
    Nesting,
    /// Operators in one expression tree, from its root to its deepest leaf.
    ExpressionDepth,
    /// Operators from a definition down to the base names, through every definition,
    /// function and procedure it uses.
    DefinitionDepth,
    /// Function and procedure calls nested in one another.
    CallDepth,
    /// Files included in one another.
    IncludeDepth,
    /// `flag` and `undefined_unless` checks of one model: a candidate's raised flags are
    /// one 64-bit mask (`Evaluation::flag_bits`).
    Flags,
}

impl Limit {
    /// The largest value allowed.
    pub const fn max(self) -> usize {
        match self {
            Limit::Nesting => 200,
            Limit::ExpressionDepth => 1000,
            Limit::DefinitionDepth => 1000,
            Limit::CallDepth => 64,
            Limit::IncludeDepth => 16,
            Limit::Flags => 64,
        }
    }
}

/// A herd7 construct that vkherd parses far enough to name, and refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Construct {
    /// `enum`, `'tag`, `match ... with`, sets of tags `{ ... }`.
    Tags,
    /// `instructions`, `events` and other declarations of herd's architectures.
    Declaration,
    /// `forall x in s do ... end` and `with x from s`.
    Iteration,
    /// `try ... with ...`.
    Try,
    /// `fun x -> e`.
    Lambda,
    /// `let (a, b) = ...` and other tuples.
    Tuple,
    /// `withco`, `withoutco`, `withinit`, `withoutinit`, `withsc`, `catdep` after the
    /// title.
    ModelOption,
    /// `assert`, `debug`, `begin ... end` and other statements.
    Statement,
    /// Set operations `++`, `<` and the like.
    Operator,
}

/// An error located in one source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub diagnostic: Diagnostic,
}

impl Error {
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> Error {
        Error {
            kind,
            diagnostic: Diagnostic::new(span, message),
        }
    }

    pub fn syntax(span: Span, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Syntax, span, message)
    }

    pub fn typing(span: Span, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Type, span, message)
    }

    /// Past `limit` at `span`.
    pub fn limit(limit: Limit, span: Span) -> Error {
        let m = limit.max();
        let what = match limit {
            Limit::Nesting => {
                format!("parentheses, brackets, `~`, `if`, calls and procedures nested more than {m} deep")
            }
            Limit::ExpressionDepth => format!(
                "expression nested more than {m} operators deep (through the functions it calls)"
            ),
            Limit::DefinitionDepth => format!(
                "definition nested more than {m} operators deep (through the definitions it uses)"
            ),
            Limit::CallDepth => format!("function and procedure calls nested more than {m} deep"),
            Limit::IncludeDepth => {
                format!("includes nested more than {m} deep (does a file include itself?)")
            }
            Limit::Flags => format!("more than {m} `flag` and `undefined_unless` checks"),
        };
        Error::new(
            ErrorKind::Limit(limit),
            span,
            format!("{what}: this is a limit of vkherd (docs/errors.md, \"On the model\")"),
        )
    }

    /// herd7's `what` is not supported; `instead` says what to do.
    pub fn unsupported(construct: Construct, span: Span, what: &str, instead: &str) -> Error {
        Error::new(
            ErrorKind::Unsupported(construct),
            span,
            format!("herd7's {what} is not supported by vkherd: {instead} (docs/models.md)"),
        )
    }
}

impl From<Diagnostic> for Error {
    /// The lexer's errors (unterminated comments and strings, stray characters).
    fn from(d: Diagnostic) -> Error {
        Error {
            kind: ErrorKind::Syntax,
            diagnostic: d,
        }
    }
}
