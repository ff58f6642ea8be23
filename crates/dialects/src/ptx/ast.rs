//! Syntax tree of a PTX litmus test, Dat3M's dialect (docs/ptx-syntax-draft.md).
//!
//! The types follow what Dat3M accepts, not only what its grammar parses: a load's
//! order and scope are one [`LoadSem`], so `ld.weak.gpu` or a scope-less `ld.acquire`
//! cannot be represented. Conditions are the shared [`Cond`] of the other dialects.

pub use vkherd_litmus::ast::*;

/// A parsed PTX `.litmus` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxTest {
    pub name: String,
    /// The text between the name and the init block, trimmed (quotes kept).
    pub description: String,
    pub init: Vec<PtxInit>,
    /// The thread headers, `threads[k].id == k`.
    pub threads: Vec<PtxThread>,
    /// `code[t]`: the instructions of thread t in order, empty cells skipped.
    pub code: Vec<Vec<Spanned<PtxInstr>>>,
    /// `locations [x; P0:r0]`: what to print besides the condition's items.
    pub locations: Vec<Spanned<StateItem>>,
    pub filter: Option<Cond>,
    pub condition: Option<PtxCondition>,
}

/// A thread header `P0@cta 0,gpu 0`: the thread's CTA and GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxThread {
    pub id: usize,
    pub cta: u64,
    pub gpu: u64,
    pub span: Span,
}

/// One declaration of the init block. Dat3M keeps the last of two values for one name;
/// the parser keeps every declaration in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PtxInit {
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
    /// `P1:r0 = &x` or `P1:r0 = x`: the register holds x's address.
    RegisterAddress {
        thread: usize,
        reg: u32,
        target: String,
        span: Span,
    },
    /// `x = &y` or `x = y`: x holds y's address.
    LocationAddress {
        name: String,
        target: String,
        span: Span,
    },
    /// `y @ surface aliases x`: `y` is another name of x's memory, for accesses through
    /// `proxy`.
    Alias {
        name: String,
        proxy: Proxy,
        target: String,
        span: Span,
    },
}

/// A state space's proxy: how an access reaches memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proxy {
    /// `generic`; `ld`, `st`, `atom`, `red`.
    Generic,
    /// `constant`; `cold`.
    Constant,
    /// `texture`; `tld`.
    Texture,
    /// `surface`; `suld`, `sust`, `suatom`, `sured`.
    Surface,
}

/// `.cta`, `.gpu`, `.sys`, narrowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PtxScope {
    Cta,
    Gpu,
    Sys,
}

/// The order and scope of a load: `.weak` has no scope, the others need one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoadSem {
    Weak,
    Relaxed(PtxScope),
    Acquire(PtxScope),
}

/// The order and scope of a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreSem {
    Weak,
    Relaxed(PtxScope),
    Release(PtxScope),
}

/// The order of an `atom` or `red` (whose scope is always written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RmwOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
}

/// The order of `fence.ORDER.SCOPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenceOrder {
    AcqRel,
    Sc,
}

/// The operation of an `atom` or a `red`. Division is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RmwOp {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
}

/// Local arithmetic `add r0, A, B`. Division is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// What an `atom` does with the old value `dst` and the operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomOp {
    /// `atom...add r0, x, V`: x = old OP V.
    Op(RmwOp),
    /// `atom...exch r0, x, V`: x = V.
    Exch,
    /// `atom...cas r0, x, E, V`: x = V if old == E.
    Cas { expected: Value },
}

/// `bar.cta.sync` waits for the other threads; `bar.cta.arrive` does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BarrierMode {
    Sync,
    Arrive,
}

/// An operand: a register `rK` of the thread or an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    Reg(u32),
    Imm(i64),
}

/// One cell of the thread table. Names (locations, labels) carry their own span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PtxInstr {
    /// `ld.weak r0, x`, `tld.acquire.gpu r0, t`: the proxy is the opcode's (`ld` generic,
    /// `tld` texture, `suld` surface, `cold` constant).
    Load {
        proxy: Proxy,
        sem: LoadSem,
        dst: u32,
        loc: Spanned<String>,
    },
    /// `st.release.gpu x, V`, `sust.weak s, V` (`st` generic, `sust` surface).
    Store {
        proxy: Proxy,
        sem: StoreSem,
        loc: Spanned<String>,
        value: Value,
    },
    /// `ld r0, V` (also `tld`, `suld`, `cold`) without an order: `dst = V`, no access.
    Move { dst: u32, value: Value },
    /// `add r0, A, B`, `sub`, `mul`, `div`.
    Arith {
        op: ArithOp,
        dst: u32,
        a: Value,
        b: Value,
    },
    /// `atom.ORDER.SCOPE.OP r0, x, V` (`atom` generic, `suatom` surface): `dst` gets the
    /// old value.
    Atom {
        proxy: Proxy,
        order: RmwOrder,
        scope: PtxScope,
        op: AtomOp,
        dst: u32,
        loc: Spanned<String>,
        value: Value,
    },
    /// `red.ORDER.SCOPE.OP x, V` (`red` generic, `sured` surface): no result.
    Red {
        proxy: Proxy,
        order: RmwOrder,
        scope: PtxScope,
        op: RmwOp,
        loc: Spanned<String>,
        value: Value,
    },
    /// `fence.sc.gpu`, `fence.acq_rel.cta`.
    Fence { order: FenceOrder, scope: PtxScope },
    /// `fence.proxy.surface` (and `.generic`, `.constant`, `.texture`).
    ProxyFence(Proxy),
    /// `fence.proxy.alias`.
    AliasFence,
    /// `bar.cta.sync N`, `bar.cta.arrive N, ID, COUNT`. `instance` is the barrier
    /// instance; Dat3M compares instances by their text (`instance_text`), so `1` and
    /// `0x1` are two instances there. With `id`, a named barrier of resource `id` and,
    /// with `quorum`, that many threads.
    Barrier {
        mode: BarrierMode,
        instance: i64,
        instance_text: String,
        id: Option<Value>,
        quorum: Option<Value>,
    },
    /// `beq A, B, LC01` (`bne`, `blt`, `bgt`, `ble`, `bge`): jump if `A op B`.
    Branch {
        op: CmpOp,
        a: Value,
        b: Value,
        target: Spanned<String>,
    },
    /// `goto LC01`.
    Goto(Spanned<String>),
    /// `LC01:`, a cell of its own.
    Label(String),
}

/// The final condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxCondition {
    pub quantifier: PtxQuantifier,
    pub cond: Cond,
    /// The condition printed as herd7 does (`cond_to_string`), for reports.
    pub text: String,
    /// `final C with tso: exists; ...`: the expected outcome per model. Empty unless
    /// the quantifier is [`PtxQuantifier::Final`].
    pub expectations: Vec<Spanned<Expectation>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PtxQuantifier {
    Exists,
    /// `~exists` or `not exists`.
    NotExists,
    Forall,
    /// `final C with M: exists; ...`.
    Final,
}

/// One `M: exists;` or `M: ~exists;` of a `final ... with` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expectation {
    pub model: ExpectationModel,
    /// False for `~exists` / `not exists`.
    pub exists: bool,
}

/// The model names a `with` list may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpectationModel {
    Tso,
    Cc,
    Optic,
    Default,
}
