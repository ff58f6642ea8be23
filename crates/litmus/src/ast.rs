//! Syntax trees for the two input formats.
//!
//! `.litmus` files parse into [`LitmusTest`]; Khronos `.test` files into [`KhronosTest`].
//! Both share the instruction vocabulary ([`MemAttrs`], [`Scope`], [`ArithOp`]) so that one
//! lowering (in `vkherd-model`) serves both. Every node that a later stage may need to
//! blame carries a [`Span`].

pub use crate::span::{Span, Spanned};

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
    pub mmra: crate::mmra::MmraTags,
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

// ---------------------------------------------------------------------------------------
// OpenCL `.litmus` files (herd's C-like OpenCL dialect, docs/opencl.md)

/// The address space of a kernel parameter: OpenCL global or local memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Global,
    Local,
}

/// An OpenCL C memory order (`memory_order_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

/// An OpenCL C memory scope (`memory_scope_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClScope {
    WorkItem,
    SubGroup,
    WorkGroup,
    Device,
    AllSvmDevices,
}

/// The memory-region flags of a fence or barrier (`CLK_GLOBAL_MEM_FENCE |
/// CLK_LOCAL_MEM_FENCE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FenceFlags {
    pub global: bool,
    pub local: bool,
}

/// A kernel parameter `global atomic_int* x`: a pointer to a shared location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClParam {
    pub name: String,
    /// The address space written, or global if none is (`space_given: false`).
    pub space: AddrSpace,
    pub space_given: bool,
    /// Declared with an `atomic_*` type.
    pub atomic: bool,
    pub volatile: bool,
    pub span: Span,
}

/// A thread `P0@sg 0, wg 0, dev 0 (params) { body }`; absent ids are `None`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClThread {
    pub id: usize,
    pub sg: Option<u64>,
    pub wg: Option<u64>,
    pub dev: Option<u64>,
    pub params: Vec<ClParam>,
    pub body: Vec<Spanned<ClStmt>>,
    /// Local variables not named `rK`, with the register numbers given to them.
    pub var_names: Vec<(String, u32)>,
    /// The `Pn@...` header.
    pub span: Span,
}

/// What a compare-exchange compares with: a value, `&rK` (which also receives the value
/// read when the exchange fails, as in C), or a shared location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClExpected {
    Value(Box<Spanned<ClExpr>>),
    Pointer(u32),
    /// C11's form: a pointer to a shared location (`one` for a parameter `global int*
    /// one`). The exchange compares with `*one`, read non-atomically before it, and a
    /// failed one writes the value read to `*one`, non-atomically (herd7's reading).
    Location(Spanned<String>),
}

/// A memory operation. Orders and scopes are resolved: OpenCL C's defaults (seq_cst,
/// device) are filled in where the source omits them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClMemOp {
    /// `*x` (plain, non-atomic read).
    PlainLoad { loc: String },
    /// `atomic_load[_explicit](x[, ORDER[, SCOPE]])`
    Load {
        loc: String,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_store[_explicit](x, v[, ORDER[, SCOPE]])`
    Store {
        loc: String,
        value: Box<Spanned<ClExpr>>,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_exchange` (`op: None`) and `atomic_fetch_OP`: returns the old value.
    Rmw {
        loc: String,
        op: Option<ArithOp>,
        value: Box<Spanned<ClExpr>>,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_compare_exchange_{strong,weak}[_explicit](x, expected, desired[, S, F[, SCOPE]])`:
    /// returns 1 on success, 0 on failure.
    Cas {
        loc: String,
        weak: bool,
        expected: ClExpected,
        desired: Box<Spanned<ClExpr>>,
        success: MemOrder,
        failure: MemOrder,
        scope: ClScope,
    },
}

/// An expression over registers, constants and memory operations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClExpr {
    Const(i64),
    /// A local variable: `rK`, or a named one with its register number.
    Reg(u32),
    Arith(ArithOp, Box<Spanned<ClExpr>>, Box<Spanned<ClExpr>>),
    /// A comparison, 1 if it holds and 0 otherwise.
    Cmp(CmpOp, Box<Spanned<ClExpr>>, Box<Spanned<ClExpr>>),
    /// `!e`: 1 if e is 0.
    Not(Box<Spanned<ClExpr>>),
    /// `a && b`, `a || b` (`and: false`), short-circuit.
    Logic {
        and: bool,
        a: Box<Spanned<ClExpr>>,
        b: Box<Spanned<ClExpr>>,
    },
    Mem(ClMemOp),
}

/// A statement of a thread body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClStmt {
    /// `int rK = e;` (`decl: true`) or `rK = e;`
    Assign {
        reg: u32,
        decl: bool,
        value: Spanned<ClExpr>,
    },
    /// `int rK;`: a declaration without a value (the register starts at 0).
    Declare { reg: u32 },
    /// `*x = e;` (plain, non-atomic write).
    PlainStore { loc: String, value: Spanned<ClExpr> },
    /// An expression evaluated for its effects: `atomic_store(x, 1);`.
    Expr(Spanned<ClExpr>),
    /// `atomic_work_item_fence(FLAGS, ORDER, SCOPE);`
    Fence {
        flags: FenceFlags,
        order: MemOrder,
        scope: ClScope,
    },
    /// `[LABEL:] barrier(FLAGS);` or `work_group_barrier(FLAGS[, SCOPE]);`
    Barrier {
        label: Option<String>,
        flags: FenceFlags,
        scope: ClScope,
    },
    If {
        cond: Spanned<ClExpr>,
        then: Vec<Spanned<ClStmt>>,
        els: Vec<Spanned<ClStmt>>,
    },
    While {
        cond: Spanned<ClExpr>,
        body: Vec<Spanned<ClStmt>>,
    },
    /// A statement with a trailing `!mmra(...)` (docs/mmra.md): every event it makes
    /// carries the tags. Never wraps `If`, `While`, `Declare` or another `Tagged`.
    Tagged {
        tags: crate::mmra::MmraTags,
        stmt: Box<Spanned<ClStmt>>,
    },
}

/// One declaration of an OpenCL init block: `[x] = 0`, `x = 0` or `P1:r0 = 0`.
pub type ClInit = InitDecl;

/// A parsed OpenCL `.litmus` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenClTest {
    pub name: String,
    pub description: String,
    pub init: Vec<ClInit>,
    pub threads: Vec<ClThread>,
    pub locations: Vec<Spanned<StateItem>>,
    pub filter: Option<Cond>,
    pub condition: Option<FinalCond>,
    /// herd's memory map after the scope tree, `x: global, y: local`: the address space
    /// of each location named (it overrides the parameters' qualifiers).
    pub memory_map: Vec<Spanned<(String, AddrSpace)>>,
    /// What the file does that OpenCL C would reject, read as herd7 reads it.
    pub warnings: Vec<crate::error::Warning>,
}
