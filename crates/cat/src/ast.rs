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
        /// `flag`: reported, does not make the candidate inconsistent.
        flag: bool,
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
}
