//! A translation of programs from one dialect into another (`vkherd diff A B` with models
//! of different dialects, `vkherd distinguish` checking a compilation mapping): registered
//! in a dialect's descriptor ([`crate::Dialect::translations`]), written in that
//! dialect's folder, found through the registry by the dialects' names.

use crate::program::Program;
use vkherd_litmus::{Diagnostic, Span};

/// A mapping of the programs of dialect `from` onto dialect `to`.
pub struct Translation {
    /// The dialect of the programs it reads ([`crate::Dialect::name`]).
    pub from: &'static str,
    /// The dialect of the programs it makes.
    pub to: &'static str,
    /// Where the mapping is written down, for messages (`docs/ptx.md, "..."`).
    pub doc: &'static str,
    /// The program in the other dialect, same threads, registers, locations and final
    /// condition (so their states compare column by column), or why it cannot be
    /// translated: the construct, at its place in the source.
    pub translate: fn(&Program) -> Result<Translated, Diagnostic>,
}

/// A translated program and what became of each memory instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub program: Program,
    pub steps: Vec<Step>,
}

/// One source instruction and what it became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub thread: usize,
    /// The source instruction (its text is the source's at this span).
    pub span: Span,
    /// The instructions it became, in the target dialect's syntax (`st.release.sys y, 1`);
    /// several joined by ` ; `.
    pub to: String,
}

impl std::fmt::Debug for Translation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Translation({} -> {})", self.from, self.to)
    }
}
