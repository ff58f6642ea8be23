//! Syntax trees of cat files. Every node carries the [`Span`] of its text.

use vkherd_litmus::Span;

/// A binary operator, from loosest to tightest: `|`, `;`, `\`, `&`, `*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Union,
    Seq,
    Diff,
    Inter,
    /// Cartesian product of two sets.
    Cross,
}

/// A postfix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PostOp {
    /// `r+`
    Plus,
    /// `r*`
    Star,
    /// `r?`
    Opt,
    /// `r^-1`
    Inv,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Operators from this node down to its deepest leaf (a leaf is 0): bounded by the
    /// parser, so that walking, cloning and dropping the tree cannot overflow the stack.
    pub depth: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    Name(String),
    /// `0`: the empty set or relation.
    Empty,
    /// `_`: every event (or every pair, as a relation).
    Universe,
    /// `f(a, b)`, also the builtins `domain(r)` and `range(r)`.
    App(String, Vec<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Post(PostOp, Box<Expr>),
    /// `~e`
    Compl(Box<Expr>),
    /// `[S]`
    Stor(Box<Expr>),
    /// `if "NAME" then a else b`
    If {
        variant: String,
        then: Box<Expr>,
        els: Box<Expr>,
    },
}

/// One `name = expr` or `name(params) = expr` of a `let`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub params: Vec<String>,
    pub body: Expr,
    pub span: Span,
}

/// What a failed (or holding) check does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckMode {
    /// A plain check: a candidate where it fails is inconsistent.
    Check,
    /// `flag`: raised when the check holds; the candidate stays consistent.
    Flag,
    /// `undefined_unless`: raised when the check fails; the candidate stays consistent
    /// (herd7: the execution has undefined behaviour). A flag on the negated check.
    UndefinedUnless,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckKind {
    Acyclic,
    Irreflexive,
    Empty,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    Let {
        rec: bool,
        bindings: Vec<Binding>,
    },
    Check {
        mode: CheckMode,
        /// `~`: the check holds when the condition fails (`~empty r`: r is not empty).
        negated: bool,
        kind: CheckKind,
        expr: Expr,
        name: Option<String>,
        span: Span,
    },
    Include {
        file: String,
        span: Span,
    },
    /// `show e as name`, `show a, b`, `unshow a, b`: for herd7's graphs; vkherd checks
    /// the names and expressions and otherwise ignores them.
    Show {
        exprs: Vec<Expr>,
    },
    /// `procedure name(params) = stmts end`
    Procedure {
        name: String,
        params: Vec<String>,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `call name(args)`
    Call {
        name: String,
        args: Vec<Expr>,
        span: Span,
    },
}
