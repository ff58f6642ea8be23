//! Syntax trees for the two input formats.
//!
//! `.litmus` files parse into [`LitmusTest`]; Khronos `.test` files into [`KhronosTest`].
//! Both share the instruction vocabulary ([`MemAttrs`], [`Scope`], [`ArithOp`]) so that one
//! lowering (in `vkherd-model`) serves both. Every node that a later stage may need to
//! blame carries a [`Span`].

pub use crate::span::{Span, Spanned};

/// Local arithmetic, also the operation of a read-modify-write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    /// Signed minimum and maximum (OpenCL `atomic_fetch_min` / `atomic_fetch_max`).
    Min,
    Max,
}

/// Comparison in a conditional jump or a final condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A source operand: a register or an integer constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `rN`
    Reg(u32),
    Imm(i64),
}

/// One declaration of the init block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitDecl {
    /// `x = 3`
    Location {
        name: String,
        value: i64,
        span: Span,
    },
    /// `P1:r0 = 3`
    Register {
        thread: usize,
        reg: u32,
        value: i64,
        span: Span,
    },
    /// `z aliases x`: z is another reference to x's location.
    Alias {
        alias: String,
        target: String,
        span: Span,
    },
}

/// Something whose final value can be named: `Pn:rK` / `n:rK`, or a location.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StateItem {
    Reg { thread: usize, reg: u32 },
    Loc(String),
}

/// An operand of a condition comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CondAtom {
    Item(Spanned<StateItem>),
    Const(i64),
}

/// A boolean condition over final values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    True,
    Cmp { op: CmpOp, a: CondAtom, b: CondAtom },
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

/// The quantifier of the final condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    Exists,
    NotExists,
    Forall,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalCond {
    pub quantifier: Quantifier,
    pub cond: Cond,
    /// The condition as written (after the keyword), whitespace-normalised, for reports.
    pub text: String,
}
