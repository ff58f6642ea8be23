//! One litmus instruction as SPIR-V: scopes, memory semantics, memory-access operands,
//! atomics, barriers, arithmetic and comparisons (docs/observe.md "SPIR-V mapping").

use super::builder::{Gen, Res};
use rspirv::dr::Operand;
use rspirv::spirv::{self, MemoryAccess, Word};
use vkherd_litmus::{ArithOp, CmpOp};
use vkherd_model::{AccessKind, Flags};

/// The SPIR-V scope of an instruction's SCOPE token (Subgroup = 3, Workgroup = 2,
/// QueueFamily = 5, Device = 1).
pub fn scope(flags: Flags) -> spirv::Scope {
    if flags.has(Flags::SCOPESG) {
        spirv::Scope::Subgroup
    } else if flags.has(Flags::SCOPEWG) {
        spirv::Scope::Workgroup
    } else if flags.has(Flags::SCOPEQF) {
        spirv::Scope::QueueFamily
    } else {
        spirv::Scope::Device
    }
}

/// The storage-class bits of the semantics: semsc0 = UniformMemory (StorageBuffer),
/// semsc1 = WorkgroupMemory.
fn storage_bits(flags: Flags) -> spirv::MemorySemantics {
    let mut s = spirv::MemorySemantics::RELAXED;
    if flags.has(Flags::SEMSC0) {
        s |= spirv::MemorySemantics::UNIFORM_MEMORY;
    }
    if flags.has(Flags::SEMSC1) {
        s |= spirv::MemorySemantics::WORKGROUP_MEMORY;
    }
    s
}

/// The memory semantics of an atomic, fence or barrier: the ordering (Acquire, Release,
/// AcquireRelease; none for relaxed), the storage classes, MakeAvailable (semav) and
/// MakeVisible (semvis).
pub fn semantics(flags: Flags) -> spirv::MemorySemantics {
    let acq = flags.has(Flags::ACQ);
    let rel = flags.has(Flags::REL);
    let mut s = match (acq, rel) {
        (true, true) => spirv::MemorySemantics::ACQUIRE_RELEASE,
        (true, false) => spirv::MemorySemantics::ACQUIRE,
        (false, true) => spirv::MemorySemantics::RELEASE,
        (false, false) => return spirv::MemorySemantics::RELAXED,
    };
    s |= storage_bits(flags);
    if flags.has(Flags::SEMAV) {
        s |= spirv::MemorySemantics::MAKE_AVAILABLE;
    }
    if flags.has(Flags::SEMVIS) {
        s |= spirv::MemorySemantics::MAKE_VISIBLE;
    }
    s
}

/// The semantics of a failed compare-exchange: a load, so the acquire half only.
fn unequal_semantics(flags: Flags) -> spirv::MemorySemantics {
    if flags.has(Flags::ACQ) {
        semantics(Flags(flags.0 & !(Flags::REL.0 | Flags::SEMAV.0)))
    } else {
        spirv::MemorySemantics::RELAXED
    }
}

impl Gen {
    pub fn scope_id(&mut self, flags: Flags) -> Word {
        self.u32(scope(flags) as u32)
    }

    pub fn semantics_id(&mut self, s: spirv::MemorySemantics) -> Word {
        self.u32(s.bits())
    }

    /// The memory-access operands of a non-atomic access: MakePointerVisible (loads with
    /// `vis`) or MakePointerAvailable (stores with `av`) with their scope, both
    /// NonPrivatePointer; NonPrivatePointer alone for `nonpriv`; none for private.
    fn access_operands(
        &mut self,
        kind: AccessKind,
        flags: Flags,
    ) -> (Option<MemoryAccess>, Vec<Operand>) {
        let scoped = |g: &mut Gen, bit: MemoryAccess| {
            let s = g.scope_id(flags);
            (
                Some(bit | MemoryAccess::NON_PRIVATE_POINTER),
                vec![Operand::IdScope(s)],
            )
        };
        if kind == AccessKind::Load && flags.has(Flags::VIS) {
            scoped(self, MemoryAccess::MAKE_POINTER_VISIBLE)
        } else if kind == AccessKind::Store && flags.has(Flags::AV) {
            scoped(self, MemoryAccess::MAKE_POINTER_AVAILABLE)
        } else if flags.has(Flags::NONPRIV) {
            (Some(MemoryAccess::NON_PRIVATE_POINTER), vec![])
        } else {
            (None, vec![])
        }
    }

    /// `ld`: an atomic or plain load from `ptr`.
    pub fn emit_load(&mut self, flags: Flags, ptr: Word) -> Res<Word> {
        let int = self.t.int;
        if flags.has(Flags::A) {
            let (s, m) = (self.scope_id(flags), self.semantics_id(semantics(flags)));
            self.b.atomic_load(int, None, ptr, s, m)
        } else {
            let (access, extra) = self.access_operands(AccessKind::Load, flags);
            self.b.load(int, None, ptr, access, extra)
        }
    }

    /// `st`: an atomic or plain store of `value` to `ptr`.
    pub fn emit_store(&mut self, flags: Flags, ptr: Word, value: Word) -> Res {
        if flags.has(Flags::A) {
            let (s, m) = (self.scope_id(flags), self.semantics_id(semantics(flags)));
            self.b.atomic_store(ptr, s, m, value)
        } else {
            let (access, extra) = self.access_operands(AccessKind::Store, flags);
            self.b.store(ptr, value, access, extra)
        }
    }

    /// `rmw`: the atomic read-modify-write; returns the value read. `mul` and `div`
    /// have no SPIR-V atomic: they are a compare-exchange loop of at most `cas_bound`
    /// tries, which sets `gave_up` (a u32 Function variable) if every try failed.
    pub fn emit_rmw(
        &mut self,
        flags: Flags,
        op: Option<ArithOp>,
        ptr: Word,
        value: Word,
        cas_bound: Word,
        gave_up: Word,
    ) -> Res<Word> {
        let int = self.t.int;
        let (s, m) = (self.scope_id(flags), self.semantics_id(semantics(flags)));
        match op {
            None => self.b.atomic_exchange(int, None, ptr, s, m, value),
            Some(ArithOp::Add) => self.b.atomic_i_add(int, None, ptr, s, m, value),
            Some(ArithOp::Sub) => self.b.atomic_i_sub(int, None, ptr, s, m, value),
            Some(ArithOp::And) => self.b.atomic_and(int, None, ptr, s, m, value),
            Some(ArithOp::Or) => self.b.atomic_or(int, None, ptr, s, m, value),
            Some(ArithOp::Xor) => self.b.atomic_xor(int, None, ptr, s, m, value),
            Some(op) => self.emit_cas_loop(flags, op, ptr, value, cas_bound, gave_up),
        }
    }

    fn emit_cas_loop(
        &mut self,
        flags: Flags,
        op: ArithOp,
        ptr: Word,
        value: Word,
        cas_bound: Word,
        gave_up: Word,
    ) -> Res<Word> {
        let (int, u32, bool) = (self.t.int, self.t.u32, self.t.bool);
        let (ptr_fn_int, ptr_fn_u32) = (self.t.ptr_fn_int, self.t.ptr_fn_u32);
        let s = self.scope_id(flags);
        let (eq, uneq) = (
            self.semantics_id(semantics(flags)),
            self.semantics_id(unequal_semantics(flags)),
        );
        let relaxed = self.semantics_id(spirv::MemorySemantics::RELAXED);
        // The loop's variables are declared in the function's first block.
        let old = self.function_variable(ptr_fn_int)?;
        let tries = self.function_variable(ptr_fn_u32)?;
        let first = self.b.atomic_load(int, None, ptr, s, relaxed)?;
        self.store(old, first)?;
        let zero = self.u32(0);
        self.store(tries, zero)?;
        let one = self.u32(1);
        self.while_loop(
            &mut |g| Ok(g.bool_const(true)),
            &mut |g| {
                let expected = g.load(int, old)?;
                let new = g.emit_arith(op, expected, value)?;
                let got =
                    g.b.atomic_compare_exchange(int, None, ptr, s, eq, uneq, new, expected)?;
                g.store(old, got)?;
                g.increment(tries, one)?;
                let ok = g.b.i_equal(bool, None, got, expected)?;
                let t = g.load(u32, tries)?;
                let spent = g.b.u_greater_than_equal(bool, None, t, cas_bound)?;
                let failed = g.b.logical_not(bool, None, ok)?;
                let exhausted = g.b.logical_and(bool, None, failed, spent)?;
                g.if_then(exhausted, &mut |g| g.store(gave_up, one))?;
                Ok(Some(g.b.logical_or(bool, None, ok, spent)?))
            },
            &mut |_| Ok(()),
        )?;
        self.load(int, old)
    }

    /// `membar`: OpMemoryBarrier with the instruction's scope and semantics.
    pub fn emit_fence(&mut self, flags: Flags) -> Res {
        let (s, m) = (self.scope_id(flags), self.semantics_id(semantics(flags)));
        self.b.memory_barrier(s, m)
    }

    /// `cbar`: OpControlBarrier with Workgroup execution scope, the instruction's scope as
    /// memory scope and its semantics (none without acq/rel).
    pub fn emit_control_barrier(&mut self, flags: Flags) -> Res {
        let exec = self.u32(spirv::Scope::Workgroup as u32);
        let (s, m) = (self.scope_id(flags), self.semantics_id(semantics(flags)));
        self.b.control_barrier(exec, s, m)
    }

    /// Local arithmetic as the model computes it (wrap-around; division truncating toward
    /// zero, by zero giving 0, MIN / -1 giving MIN: SPIR-V leaves those two undefined, so
    /// the divisor is replaced before dividing and the result chosen after).
    pub fn emit_arith(&mut self, op: ArithOp, a: Word, b: Word) -> Res<Word> {
        let (int, bool) = (self.t.int, self.t.bool);
        match op {
            ArithOp::Add => self.b.i_add(int, None, a, b),
            ArithOp::Sub => self.b.i_sub(int, None, a, b),
            ArithOp::Mul => self.b.i_mul(int, None, a, b),
            ArithOp::And => self.b.bitwise_and(int, None, a, b),
            ArithOp::Or => self.b.bitwise_or(int, None, a, b),
            ArithOp::Xor => self.b.bitwise_xor(int, None, a, b),
            ArithOp::Div => {
                let (zero, one, minus_one) = (self.int(0), self.int(1), self.int(-1));
                let by_zero = self.b.i_equal(bool, None, b, zero)?;
                let by_minus_one = self.b.i_equal(bool, None, b, minus_one)?;
                let special = self.b.logical_or(bool, None, by_zero, by_minus_one)?;
                let safe = self.b.select(int, None, special, one, b)?;
                let q = self.b.s_div(int, None, a, safe)?;
                let negated = self.b.s_negate(int, None, a)?;
                let q = self.b.select(int, None, by_minus_one, negated, q)?;
                self.b.select(int, None, by_zero, zero, q)
            }
            // Refused by the plan (OpenCL only).
            ArithOp::Min | ArithOp::Max => unreachable!("refused by Plan::new"),
        }
    }

    /// A comparison of a conditional jump.
    pub fn emit_compare(&mut self, op: CmpOp, a: Word, b: Word) -> Res<Word> {
        let bool = self.t.bool;
        match op {
            CmpOp::Eq => self.b.i_equal(bool, None, a, b),
            CmpOp::Ne => self.b.i_not_equal(bool, None, a, b),
            CmpOp::Lt => self.b.s_less_than(bool, None, a, b),
            CmpOp::Le => self.b.s_less_than_equal(bool, None, a, b),
            CmpOp::Gt => self.b.s_greater_than(bool, None, a, b),
            CmpOp::Ge => self.b.s_greater_than_equal(bool, None, a, b),
        }
    }

    /// A new Function variable, declared in the function's first block (as SPIR-V
    /// requires), whatever block is being built.
    pub fn function_variable(&mut self, ptr_ty: Word) -> Res<Word> {
        let current = self.b.selected_block();
        self.b.select_block(Some(0))?;
        let id = self.b.id();
        let inst = rspirv::dr::Instruction::new(
            spirv::Op::Variable,
            Some(ptr_ty),
            Some(id),
            vec![Operand::StorageClass(spirv::StorageClass::Function)],
        );
        self.b
            .insert_into_block(rspirv::dr::InsertPoint::Begin, inst)?;
        self.b.select_block(current)?;
        Ok(id)
    }
}
