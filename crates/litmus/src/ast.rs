//! Syntax trees for the two input formats.
//!
//! `.litmus` files parse into [`LitmusTest`]; Khronos `.test` files into [`KhronosTest`].
//! Both share the instruction vocabulary ([`MemAttrs`], [`Scope`], [`ArithOp`]) so that one
//! lowering (in `vkherd-model`) serves both. Every node that a later stage may need to
//! blame carries a [`Span`].

/// A place in the source text. Lines and columns are 1-based; columns count characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset of the first character.
    pub offset: usize,
    /// Length in bytes (0 for "end of input").
    pub len: usize,
    pub line: u32,
    pub column: u32,
}

/// A value with the place it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// Memory scope of an atomic, fence or barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Subgroup,
    Workgroup,
    QueueFamily,
    Device,
}

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
}

/// A source operand: a register or an integer constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `rN`
    Reg(u32),
    Imm(i64),
}

/// One `.litmus` instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instr {
    /// `ld...` rD, loc
    Load {
        attrs: MemAttrs,
        dst: u32,
        loc: String,
    },
    /// `st...` loc, V
    Store {
        attrs: MemAttrs,
        loc: String,
        value: Operand,
    },
    /// `rmw.atom...[.OP]` rD, loc, V; `op: None` = exchange.
    Rmw {
        attrs: MemAttrs,
        op: Option<ArithOp>,
        dst: u32,
        loc: String,
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

// ---------------------------------------------------------------------------------------
// Khronos `.test` files

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
