//! Syntax trees of Khronos `.test` files (docs/khronos.md).

use crate::vulkan::ast::MemAttrs;
pub use vkherd_litmus::ast::*;

/// The kind of a `.test` instruction line (from its tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KhronosOp {
    Load,
    Store,
    /// `rmw` = `ld.st.atom`
    Rmw,
    Membar,
    Cbar,
    AvDevice,
    VisDevice,
}

/// One instruction line of a `.test` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KhronosInstr {
    pub op: KhronosOp,
    pub attrs: MemAttrs,
    /// The variable name (a reference), for loads, stores and RMWs.
    pub var: Option<String>,
    /// `= v [v2]`: for a load the pinned value, for a store the written value, for an RMW
    /// the value read then the value written.
    pub values: Vec<i64>,
    /// The dynamic-instance number of a `cbar`.
    pub instance: Option<u64>,
    pub span: Span,
}

/// A thread of a `.test` file, with the indices of the groups it sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KhronosThread {
    /// The number `SSW` lines use.
    pub number: u64,
    /// Index of its queue family / workgroup / subgroup group (0-based, in file order;
    /// workgroup indices are global, not per queue family).
    pub qf: u64,
    pub wg: u64,
    pub sg: u64,
    pub instrs: Vec<KhronosInstr>,
    pub span: Span,
}

/// One conjunct of a check predicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KhronosPred {
    /// `consistent[X]`
    Consistent,
    /// `#dr=N` (`greater: false`) or `#dr>N` (`greater: true`)
    DataRaces { greater: bool, n: u64 },
    /// `#rs=N` / `#rs>N`
    ReleaseSeq { greater: bool, n: u64 },
}

/// A `SATISFIABLE` / `NOSOLUTION` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KhronosCheck {
    /// true for SATISFIABLE, false for NOSOLUTION.
    pub satisfiable: bool,
    pub nochains: bool,
    pub preds: Vec<KhronosPred>,
    /// The predicate text as written, for reports.
    pub text: String,
    pub span: Span,
}

/// A parsed `.test` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KhronosTest {
    pub threads: Vec<KhronosThread>,
    /// `SLOC a b`
    pub slocs: Vec<Spanned<(String, String)>>,
    /// `SSW i j` (thread numbers)
    pub ssw: Vec<Spanned<(u64, u64)>>,
    pub checks: Vec<KhronosCheck>,
}
