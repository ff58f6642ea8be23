//! Syntax trees of the OpenCL `.litmus` dialect (herd's C-like OpenCL dialect,
//! docs/opencl.md).

pub use vkherd_litmus::ast::*;

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

/// The location an access names: a cell (`x`, `y[1]`), or a cell chosen by a register
/// (`y[r0]`, `y + r0`, `*(y + r0 + 1)`: an address dependency, docs/opencl.md "Pointers
/// and cells").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClLoc {
    /// The cell; for a register-dependent address, the array (its parameter's name).
    pub cell: String,
    pub index: Option<ClIndex>,
}

impl ClLoc {
    /// A cell named by a constant address.
    pub fn cell(cell: String) -> ClLoc {
        ClLoc { cell, index: None }
    }
}

impl From<&str> for ClLoc {
    fn from(cell: &str) -> ClLoc {
        ClLoc::cell(cell.to_string())
    }
}

/// A cell named by a constant address equals its name.
impl PartialEq<str> for ClLoc {
    fn eq(&self, name: &str) -> bool {
        self.index.is_none() && self.cell == name
    }
}

/// The index of a register-dependent address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClIndex {
    /// The index into the array, constant offsets included (`y + r0 + 1`: `r0 + 1`).
    pub expr: Box<Spanned<ClExpr>>,
    /// The array's cells by index (`y[0]`, `y[1]`; a location that is not an array has
    /// one, itself).
    pub cells: Vec<String>,
    /// The address as written (`y + r0`), for messages.
    pub text: String,
}

/// A memory operation. Orders and scopes are resolved: OpenCL C's defaults (seq_cst,
/// device) are filled in where the source omits them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClMemOp {
    /// `*x` (plain, non-atomic read).
    PlainLoad { loc: ClLoc },
    /// `atomic_load[_explicit](x[, ORDER[, SCOPE]])`
    Load {
        loc: ClLoc,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_store[_explicit](x, v[, ORDER[, SCOPE]])`
    Store {
        loc: ClLoc,
        value: Box<Spanned<ClExpr>>,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_exchange` (`op: None`) and `atomic_fetch_OP`: returns the old value.
    Rmw {
        loc: ClLoc,
        op: Option<ArithOp>,
        value: Box<Spanned<ClExpr>>,
        order: MemOrder,
        scope: ClScope,
    },
    /// `atomic_compare_exchange_{strong,weak}[_explicit](x, expected, desired[, S, F[, SCOPE]])`:
    /// returns 1 on success, 0 on failure.
    Cas {
        loc: ClLoc,
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
    PlainStore { loc: ClLoc, value: Spanned<ClExpr> },
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
        tags: vkherd_litmus::mmra::MmraTags,
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
    pub warnings: Vec<vkherd_litmus::error::Warning>,
}
