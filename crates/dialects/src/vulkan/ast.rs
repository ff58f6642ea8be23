//! Syntax trees of the Vulkan `.litmus` dialect (docs/litmus-format.md), whose instruction
//! vocabulary ([`MemAttrs`], [`Scope`]) the Khronos `.test` format shares, so that one
//! lowering serves both. Every node a later stage may need to blame carries a [`Span`].

pub use vkherd_litmus::ast::*;

/// Memory scope of an atomic, fence or barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Subgroup,
    Workgroup,
    QueueFamily,
    Device,
}

/// The number of storage classes the formats allow (`sc0`..`sc3`).
pub const MAX_STORAGE_CLASSES: u8 = 4;

/// The attribute tokens of a memory instruction, as written (after implicit facts are
/// NOT yet applied: lowering applies "atomics are non-private and carry av/vis").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemAttrs {
    pub atomic: bool,
    pub acq: bool,
    pub rel: bool,
    pub scope: Option<Scope>,
    /// Storage class of the access (`scN`), if written.
    pub storage_class: Option<u8>,
    /// Bit i set = `semsci` present.
    pub semsc: u8,
    pub semav: bool,
    pub semvis: bool,
    /// Per-instruction availability (`av`) / visibility (`vis`).
    pub av: bool,
    pub vis: bool,
    pub nonpriv: bool,
    /// The MMRA tags of a trailing `!mmra(...)` (docs/mmra.md); empty if none.
    pub mmra: vkherd_litmus::mmra::MmraTags,
}

/// A location operand: `x`, or `x+rK` / `x[rK]`, an address computed from a register
/// (herd's address dependency). A location is one cell: the index must be 0 in every
/// execution (`xor r1, r0, r0`; docs/litmus-format.md "Register-dependent addresses").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    pub name: String,
    /// The index added to the location, if written.
    pub index: Option<Operand>,
    /// As written (`x+r1`), for messages.
    pub text: String,
}

/// A location without an index equals its name.
impl PartialEq<str> for Loc {
    fn eq(&self, name: &str) -> bool {
        self.index.is_none() && self.name == name
    }
}

impl From<&str> for Loc {
    fn from(name: &str) -> Loc {
        Loc {
            name: name.to_string(),
            index: None,
            text: name.to_string(),
        }
    }
}

/// One `.litmus` instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instr {
    /// `ld...` rD, loc
    Load {
        attrs: MemAttrs,
        dst: u32,
        loc: Loc,
    },
    /// `st...` loc, V
    Store {
        attrs: MemAttrs,
        loc: Loc,
        value: Operand,
    },
    /// `rmw.atom...[.OP]` rD, loc, V; `op: None` = exchange.
    Rmw {
        attrs: MemAttrs,
        op: Option<ArithOp>,
        dst: u32,
        loc: Loc,
        value: Operand,
    },
    /// `membar...`
    Membar {
        attrs: MemAttrs,
    },
    /// `cbar... N[, ID[, QUORUM]]`; N and ID are kept as written (`00` != `0`).
    Cbar {
        attrs: MemAttrs,
        instance: String,
        id: Option<String>,
        quorum: Option<u64>,
    },
    AvDevice,
    VisDevice,
    /// `OP rD, A, B`
    Arith {
        op: ArithOp,
        dst: u32,
        a: Operand,
        b: Operand,
    },
    /// `LCnn:`
    Label(String),
    /// `goto LCnn`
    Goto(String),
    /// `bxx A, B, LCnn`
    Branch {
        cmp: CmpOp,
        a: Operand,
        b: Operand,
        target: String,
    },
}

/// A thread column header `Pn@sg A, wg B, qf C`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadHeader {
    pub id: usize,
    pub sg: u64,
    pub wg: u64,
    pub qf: u64,
    pub span: Span,
}

/// A parsed `.litmus` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LitmusTest {
    pub name: String,
    /// Description text between the header line and the init block (quotes kept).
    pub description: String,
    pub init: Vec<InitDecl>,
    /// `ssw i j` pairs of thread numbers.
    pub ssw: Vec<Spanned<(usize, usize)>>,
    pub threads: Vec<ThreadHeader>,
    /// `code[t]` = the instructions of thread t in order, empty cells skipped.
    pub code: Vec<Vec<Spanned<Instr>>>,
    pub locations: Vec<Spanned<StateItem>>,
    pub filter: Option<Cond>,
    pub condition: Option<FinalCond>,
}
