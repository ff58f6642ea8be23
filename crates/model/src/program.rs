//! The program model both input formats lower to: threads with their scope ids, code with
//! resolved jumps, locations and references, and the final-state questions.

use crate::dialect::Dialect;
use crate::flags::Flags;
use vkherd_litmus::{ArithOp, CmpOp, Operand, Span};
pub use vkherd_litmus::{MmraTag, MmraTags};

/// Index of a location in [`Program::locations`].
pub type LocId = usize;
/// Index of a reference in [`Program::references`].
pub type RefId = usize;

/// A memory location and its initial value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub name: String,
    pub init: i64,
}

/// A reference (a name through which a location is accessed). Every location name is a
/// reference to itself; `z aliases x` / `SLOC x z` adds reference z to x's location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub location: LocId,
}

/// How control barriers meet (semantics.md "Events").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CbarRule {
    /// `.litmus`: barriers meet within one workgroup, per (N, ID), k-th execution with
    /// k-th execution; an invocation that never arrives deadlocks the others
    /// (control-barriers.md).
    Workgroup,
    /// Khronos `.test`: cbars with the same number in different threads are one instance,
    /// across workgroups too; nothing blocks.
    SameNumber,
}

/// Which barrier a `cbar` belongs to (control-barriers.md "Barriers and instances").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BarrierName {
    /// N, as written.
    pub instance: String,
    /// ID, as written (None = the default barrier).
    pub id: Option<String>,
    pub quorum: Option<u64>,
}

/// The kind of event an access instruction produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    Rmw,
    Fence,
    Cbar,
    AvDevice,
    VisDevice,
}

/// Where a Khronos `.test` load is pinned to read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pin {
    /// Reads the initial value.
    Init,
    /// Reads from the instruction `index` of thread `thread` (a straight-line program).
    Write { thread: usize, index: usize },
    /// Two writes match: rf is a function, so no execution exists.
    Impossible,
}

/// The extra facts of an OpenCL compare-exchange (an [`Access`] of kind `Rmw` whose
/// `value` is the desired value and `dst` receives the value read). When the value read
/// equals `expected` it is a read-modify-write with the access's flags; otherwise (or
/// spuriously, if `weak`) it is only a read, with `fail_flags`.
///
/// Only the OpenCL dialect makes these; the Vulkan enumeration never sees one (an OpenCL
/// program is refused before enumeration until the OpenCL model runs, docs/opencl.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cas {
    pub expected: Operand,
    pub weak: bool,
    /// The sets of the event when the exchange fails (a read: `R | A | ...`).
    pub fail_flags: Flags,
    /// Receives 1 on success and 0 on failure.
    pub success_dst: Option<u32>,
}

/// An instruction that makes one event when executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub kind: AccessKind,
    /// The Alloy sets of the event, implicit facts applied (atomics non-private with
    /// av/vis, acq/rel cbars are fences, ...).
    pub flags: Flags,
    /// The reference accessed (loads, stores, RMWs).
    pub reference: Option<RefId>,
    /// Destination register of a load or RMW.
    pub dst: Option<u32>,
    /// Value stored by a store; operand of an RMW.
    pub value: Option<Operand>,
    /// Operation of an RMW (`None` = exchange).
    pub rmw_op: Option<ArithOp>,
    /// The barrier of a cbar.
    pub barrier: Option<BarrierName>,
    /// Khronos pinned reads-from.
    pub pin: Option<Pin>,
    /// An OpenCL compare-exchange.
    pub cas: Option<Cas>,
    /// The MMRA tags of the event (docs/mmra.md); empty if the source has none.
    pub mmra: MmraTags,
    /// A location chosen by a register's value (`y[r0]`): an address dependency (boxed:
    /// rare, and instructions stay small).
    pub address: Option<Box<Address>>,
    pub span: Span,
}

/// The address of an access computed from registers (`y[r0]`, `y + r0`, `[r0]` holding
/// `&x`): the value of `index` chooses the reference, value `v` naming the reference `r`
/// of the pair `(v, r)` of `targets`. A lowering makes one such access with `reference:
/// None`; [`crate::addresses::resolve`] bounds the values `index` can hold and turns it
/// into one access per value (each with its `reference`), chosen by address jumps
/// ([`Instruction::Jump`]'s `address`). The access keeps its `Address`: the read events
/// `index` is computed from are its `addr` dependencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub index: Operand,
    /// The references the index may name, by value, in increasing value order.
    pub targets: Vec<(i64, RefId)>,
    /// The address as the source writes it (`y[r0]`), for messages.
    pub text: String,
}

/// One lowered instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instruction {
    Access(Access),
    Arith {
        op: ArithOp,
        dst: u32,
        a: Operand,
        b: Operand,
        span: Span,
    },
    /// A jump to instruction index `target` (`cond: None` = goto). `target` may equal the
    /// code length (a label at the end).
    Jump {
        cond: Option<(CmpOp, Operand, Operand)>,
        target: usize,
        /// One of the jumps that choose an access's location by its [`Address`]: the
        /// access depends on the index by address, not the later events by control.
        address: bool,
        span: Span,
    },
}

/// One invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// The ids of its scope instances, one per level of the dialect's scope tree
    /// ([`crate::Dialect::levels`]), innermost first (Vulkan: subgroup, workgroup, queue
    /// family). Ids are per parent: two threads share the instance of a level iff their
    /// ids agree at that level and at every level around it.
    pub scope: Vec<u64>,
    pub code: Vec<Instruction>,
    /// Initial register values (others start at 0).
    pub init_regs: Vec<(u32, i64)>,
}

impl Thread {
    /// The ids that name its instance of scope level `level`: its id there and at every
    /// level around it.
    pub fn instance(&self, level: usize) -> &[u64] {
        &self.scope[level.min(self.scope.len())..]
    }

    /// It shares its instance of scope level `level` with `o`.
    pub fn same_instance(&self, o: &Thread, level: usize) -> bool {
        self.instance(level) == o.instance(level)
    }
}

/// Something whose final value is observed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Observable {
    Reg { thread: usize, reg: u32 },
    Loc(LocId),
}

/// A condition over final values, with names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    True,
    Cmp { op: CmpOp, a: Term, b: Term },
    Not(Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
}

/// An operand of a condition: an observable's final value or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    Obs(Observable),
    Const(i64),
}

pub use vkherd_litmus::Quantifier;

/// The final condition of a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalCondition {
    pub quantifier: Quantifier,
    pub cond: Condition,
    /// As printed after `Condition exists `.
    pub text: String,
}

/// A lowered test, ready for enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The dialect the test was written in: its scope tree, base sets and models.
    pub dialect: &'static Dialect,
    pub name: String,
    /// The description between the header and the init block (empty for `.test` files).
    pub description: String,
    pub threads: Vec<Thread>,
    pub locations: Vec<Location>,
    pub references: Vec<Reference>,
    /// `ssw i j`: every event of thread i ssw every event of thread j.
    pub ssw: Vec<(usize, usize)>,
    pub cbar_rule: CbarRule,
    /// The columns of a final state: registers by thread then number, then locations by
    /// name (semantics.md "Output").
    pub observed: Vec<Observable>,
    pub filter: Option<Condition>,
    pub condition: Option<FinalCondition>,
    /// Every constant written in the test (the thin-air value universe, before adding 0
    /// and a fresh value).
    pub constants: Vec<i64>,
    /// Names of registers that are not printed `rK`: OpenCL local variables with other
    /// names, by (thread, register).
    pub reg_names: std::collections::BTreeMap<(usize, u32), String>,
    /// What the source does that its language would reject, read anyway
    /// (docs/opencl.md); reports show them as notes.
    pub warnings: Vec<vkherd_litmus::Warning>,
}

impl Program {
    /// The name of an observable as printed in a state (`1:r0`, `x`).
    pub fn observable_name(&self, o: Observable) -> String {
        match o {
            Observable::Reg { thread, reg } => match self.reg_names.get(&(thread, reg)) {
                Some(name) => format!("{thread}:{name}"),
                None => format!("{thread}:r{reg}"),
            },
            Observable::Loc(l) => self.locations[l].name.clone(),
        }
    }

    /// True if some thread has a jump (control flow beyond straight-line code).
    pub fn has_jumps(&self) -> bool {
        self.threads
            .iter()
            .any(|t| t.code.iter().any(|i| matches!(i, Instruction::Jump { .. })))
    }
}

/// Evaluates local arithmetic: 64-bit wrap-around, division truncating toward zero,
/// division by zero gives 0 (semantics.md "Arithmetic").
pub fn arith(op: ArithOp, a: i64, b: i64) -> i64 {
    match op {
        ArithOp::Add => a.wrapping_add(b),
        ArithOp::Sub => a.wrapping_sub(b),
        ArithOp::Mul => a.wrapping_mul(b),
        ArithOp::Div => {
            if b == 0 {
                0
            } else {
                a.wrapping_div(b)
            }
        }
        ArithOp::And => a & b,
        ArithOp::Or => a | b,
        ArithOp::Xor => a ^ b,
        ArithOp::Min => a.min(b),
        ArithOp::Max => a.max(b),
    }
}

/// Evaluates a comparison.
pub fn compare(op: CmpOp, a: i64, b: i64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

impl Condition {
    /// Evaluates the condition when only some observables are known (`None` = unknown), in
    /// three-valued (Kleene) logic: `Some(b)` if every completion of the unknowns gives
    /// `b`, `None` if it may depend on them.
    pub fn eval_partial(&self, value: &dyn Fn(Observable) -> Option<i64>) -> Option<bool> {
        let term = |t: &Term| match *t {
            Term::Obs(o) => value(o),
            Term::Const(c) => Some(c),
        };
        match self {
            Condition::True => Some(true),
            Condition::Cmp { op, a, b } => Some(compare(*op, term(a)?, term(b)?)),
            Condition::Not(c) => c.eval_partial(value).map(|b| !b),
            Condition::And(a, b) => match (a.eval_partial(value), b.eval_partial(value)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Condition::Or(a, b) => match (a.eval_partial(value), b.eval_partial(value)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        }
    }

    /// Evaluates the condition given the final value of each observable.
    pub fn eval(&self, value: &dyn Fn(Observable) -> i64) -> bool {
        let term = |t: &Term| match *t {
            Term::Obs(o) => value(o),
            Term::Const(c) => c,
        };
        match self {
            Condition::True => true,
            Condition::Cmp { op, a, b } => compare(*op, term(a), term(b)),
            Condition::Not(c) => !c.eval(value),
            Condition::And(a, b) => a.eval(value) && b.eval(value),
            Condition::Or(a, b) => a.eval(value) || b.eval(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_wraps_and_divides_toward_zero() {
        assert_eq!(arith(ArithOp::Add, i64::MAX, 1), i64::MIN);
        assert_eq!(arith(ArithOp::Div, -7, 2), -3);
        assert_eq!(arith(ArithOp::Div, 7, 0), 0);
        assert_eq!(arith(ArithOp::Div, i64::MIN, -1), i64::MIN);
        assert_eq!(arith(ArithOp::Xor, 6, 3), 5);
        assert_eq!(arith(ArithOp::Sub, 1, 3), -2);
    }

    #[test]
    fn comparisons() {
        assert!(compare(CmpOp::Le, 2, 2) && !compare(CmpOp::Lt, 2, 2));
        assert!(compare(CmpOp::Ne, 1, 2) && compare(CmpOp::Ge, 3, 2) && compare(CmpOp::Gt, 3, 2));
    }
}
