//! Lowering of a parsed PTX test to a [`Program`] (docs/ptx.md, "Lowering"): one event
//! per memory instruction, fence, proxy fence and barrier, whose flags are the sets the
//! PTX models read:
//!
//! | PTX | flags |
//! |---|---|
//! | `ld`, `st`, `atom`, `red` / `suld`, `sust`, `suatom`, `sured` / `tld` / `cold` | `GEN` / `SUR` / `TEX` / `CON` |
//! | `.cta`, `.gpu`, `.sys` | `SCOPEWG`, `SCOPEQF`, `SCOPEDEV` (`.weak`: none) |
//! | `.acquire`, `.release`, `.acq_rel` | `ACQ`, `REL`, both (loads never `REL`, stores never `ACQ`) |
//! | `atom`, `red` | one event in `R` and `W`; `cas`: success an RMW, failure a read |
//! | `fence.acq_rel.S` / `fence.sc.S` | `F`, `ACQ`, `REL`, scope / and `SC` |
//! | `fence.proxy.generic` ... `.constant` / `.alias` | `FGEN` ... `FCON` / `FALIAS` (no scope) |
//! | `bar.cta.sync` / `bar.cta.arrive` | `CBAR`, `SCOPEWG` / and `ARRIVE` |
//!
//! Names: `y @ generic aliases x` makes y another virtual address of x's location (a
//! reference of its own: `sloc` but not `sref`); `s @ surface|texture|constant aliases x`
//! makes s a name of x's address used through that proxy (the same reference: `sref`).
//! A barrier whose ID is a register the thread writes is chosen by the register's value:
//! one branch per value the test can produce (its constants), see [`Lowering::barrier`].

use super::ast::{
    ArithOp as PtxArith, AtomOp, BarrierMode, FenceOrder, LoadSem, Proxy, PtxCondition, PtxInit,
    PtxInstr, PtxQuantifier, PtxScope, PtxTest, RmwOp, RmwOrder, Spanned, StoreSem, Value,
};
use super::{ARRIVE, CON, FALIAS, FCON, FGEN, FSUR, FTEX, GEN, PTX_SC, SUR, TEX};
use std::collections::{BTreeMap, BTreeSet};
use vkherd_litmus::ast::{FinalCond, Quantifier};
use vkherd_litmus::limits::{MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD};
use vkherd_litmus::{ArithOp, CmpOp, Diagnostic, Operand, Span};
use vkherd_model::lowering::{resolve_finals, Names};
use vkherd_model::*;

/// Lowers a parsed PTX test.
pub fn lower_ptx(test: &PtxTest) -> Result<Program, Diagnostic> {
    let nthreads = test.threads.len();
    let mut names = Names::default();
    let mut init_regs: Vec<Vec<(u32, i64)>> = vec![Vec::new(); nthreads];
    let mut constants = BTreeSet::new();
    // Every value the test writes down: the values a register used as a barrier ID can
    // take without arithmetic (see `Lowering::barrier`).
    for code in &test.code {
        for i in code {
            instr_constants(&i.value, &mut constants);
        }
    }
    for d in &test.init {
        if let PtxInit::Location { value, .. } | PtxInit::Register { value, .. } = d {
            constants.insert(*value);
        }
    }
    let base = address_base(&constants);
    lower_init(test, &mut names, &mut init_regs, &mut constants, base)?;
    constants.insert(0);

    let mut threads = Vec::with_capacity(nthreads);
    let mut regs_used: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); nthreads];
    let mut total = 0;
    for (t, th) in test.threads.iter().enumerate() {
        let code = test.code.get(t).map(Vec::as_slice).unwrap_or(&[]);
        let mut read = BTreeSet::new();
        let mut written = BTreeSet::new();
        for i in code {
            instr_registers(&i.value, &mut read, &mut written);
        }
        let mut used: BTreeSet<u32> = init_regs[t].iter().map(|&(r, _)| r).collect();
        used.extend(read.iter().chain(&written));
        let mut l = Lowering {
            names: &mut names,
            init: &init_regs[t],
            written: &written,
            constants: &constants,
            code: Vec::new(),
            labels: BTreeMap::new(),
            fixups: Vec::new(),
        };
        for i in code {
            l.instr(&i.value, i.span)?;
        }
        let code = l.finish()?;
        if code.len() > MAX_INSTRUCTIONS_PER_THREAD {
            return Err(Diagnostic::new(
                th.span,
                format!("thread P{t} has {} instructions once lowered: expected at most {MAX_INSTRUCTIONS_PER_THREAD}", code.len()),
            ));
        }
        total += code.len();
        if total > MAX_INSTRUCTIONS {
            return Err(Diagnostic::new(
                th.span,
                format!("the test has more than {MAX_INSTRUCTIONS} instructions once lowered: expected at most {MAX_INSTRUCTIONS}"),
            ));
        }
        regs_used[t] = used;
        // PTX's levels: cta, gpu (PTX's `levels`); a CTA is the pair (gpu, cta).
        threads.push(Thread {
            scope: vec![th.cta, th.gpu],
            code,
            init_regs: std::mem::take(&mut init_regs[t]),
        });
    }

    let condition = test.condition.as_ref().map(final_cond);
    let finals = resolve_finals(
        &test.locations,
        test.filter.as_ref(),
        condition.as_ref(),
        &mut names,
        &regs_used,
        &mut constants,
    )?;

    // `[rK]` may name any reference: reference r has the address base + r.
    let targets: Vec<(i64, RefId)> = (0..names.references.len())
        .map(|r| (base + r as i64, r))
        .collect();
    for th in &mut threads {
        for i in &mut th.code {
            if let Instruction::Access(Access {
                address: Some(a), ..
            }) = i
            {
                a.targets = targets.clone();
            }
        }
    }

    let mut program = Program {
        dialect: &super::PTX,
        name: test.name.clone(),
        description: test.description.clone(),
        threads,
        locations: names.locations,
        references: names.references,
        ssw: Vec::new(),
        cbar_rule: CbarRule::Workgroup,
        observed: finals.observed,
        filter: finals.filter,
        condition: finals.condition,
        constants: constants.into_iter().collect(),
        reg_names: BTreeMap::new(),
        warnings: Vec::new(),
    };
    vkherd_model::addresses::resolve(&mut program)?;
    Ok(program)
}

/// The address of the first reference (`&x` is `base + x's reference id`): the first
/// multiple of 4096 above every constant of the test, so that no integer the test writes
/// is also an address (docs/ptx.md "Addresses in registers").
fn address_base(constants: &BTreeSet<i64>) -> i64 {
    let most = constants
        .iter()
        .map(|c| c.unsigned_abs())
        .max()
        .unwrap_or(0)
        .min(i64::MAX as u64 / 2);
    (most as i64 / 4096 + 1) * 4096
}

/// The condition in the shared form: `final C with ...` asks whether C can hold, as
/// `exists` does (its per-model expectations are Dat3M's, not a quantifier).
fn final_cond(c: &PtxCondition) -> FinalCond {
    FinalCond {
        quantifier: match c.quantifier {
            PtxQuantifier::Exists | PtxQuantifier::Final => Quantifier::Exists,
            PtxQuantifier::NotExists => Quantifier::NotExists,
            PtxQuantifier::Forall => Quantifier::Forall,
        },
        cond: c.cond.clone(),
        text: c.text.clone(),
    }
}

/// The init block: locations and their values, registers, then aliases in order.
fn lower_init(
    test: &PtxTest,
    names: &mut Names,
    init_regs: &mut [Vec<(u32, i64)>],
    constants: &mut BTreeSet<i64>,
    base: i64,
) -> Result<(), Diagnostic> {
    let nthreads = init_regs.len();
    let thread_range = || match nthreads {
        0 => "a thread, but the test has none".to_string(),
        1 => "thread P0, the only one".to_string(),
        n => format!("a thread from P0 to P{}", n - 1),
    };
    for d in &test.init {
        match d {
            PtxInit::Location { name, value, span } => {
                // Dat3M keeps the last of two values for one name.
                let r = names.reference(name, *span)?;
                let loc = names.references[r].location;
                names.locations[loc].init = *value;
                constants.insert(*value);
            }
            PtxInit::Register {
                thread,
                reg,
                value,
                span,
            } => {
                let Some(regs) = init_regs.get_mut(*thread) else {
                    return Err(Diagnostic::new(
                        *span,
                        format!("`P{thread}:r{reg}` names thread P{thread}, which the test does not have: expected {}", thread_range()),
                    ));
                };
                regs.retain(|&(r, _)| r != *reg);
                regs.push((*reg, *value));
                constants.insert(*value);
            }
            // After the aliases, which an address may name.
            PtxInit::RegisterAddress { .. } | PtxInit::LocationAddress { .. } => {}
            PtxInit::Alias { .. } => {}
        }
    }
    for d in &test.init {
        if let PtxInit::Alias {
            name,
            proxy,
            target,
            span,
        } = d
        {
            if names.lookup(name).is_some() {
                return Err(Diagnostic::new(
                    *span,
                    format!("`{name}` is already a location or an alias: expected `{name} @ PROXY aliases LOCATION` once, for a name with no initial value"),
                ));
            }
            let target_ref = names.reference(target, *span)?;
            match proxy {
                // Another virtual address of the same memory.
                Proxy::Generic => {
                    let loc = names.references[target_ref].location;
                    names.alias(name, loc, *span)?;
                }
                // The target's address, used through another proxy.
                Proxy::Surface | Proxy::Texture | Proxy::Constant => names.bind(name, target_ref),
            }
        }
    }
    // Addresses as values: `&x` is base + x's reference id.
    for d in &test.init {
        match d {
            PtxInit::RegisterAddress {
                thread,
                reg,
                target,
                span,
            } => {
                let address = base + names.reference(target, *span)? as i64;
                let Some(regs) = init_regs.get_mut(*thread) else {
                    return Err(Diagnostic::new(
                        *span,
                        format!("`P{thread}:r{reg}` names thread P{thread}, which the test does not have: expected {}", thread_range()),
                    ));
                };
                regs.retain(|&(r, _)| r != *reg);
                regs.push((*reg, address));
                constants.insert(address);
            }
            PtxInit::LocationAddress { name, target, span } => {
                let address = base + names.reference(target, *span)? as i64;
                let r = names.reference(name, *span)?;
                let loc = names.references[r].location;
                names.locations[loc].init = address;
                constants.insert(address);
            }
            _ => {}
        }
    }
    Ok(())
}

fn value_constant(v: &Value, out: &mut BTreeSet<i64>) {
    if let Value::Imm(c) = v {
        out.insert(*c);
    }
}

fn instr_constants(i: &PtxInstr, out: &mut BTreeSet<i64>) {
    match i {
        PtxInstr::Store { value, .. }
        | PtxInstr::Move { value, .. }
        | PtxInstr::Red { value, .. } => value_constant(value, out),
        PtxInstr::Arith { a, b, .. } | PtxInstr::Branch { a, b, .. } => {
            value_constant(a, out);
            value_constant(b, out);
        }
        PtxInstr::Atom { op, value, .. } => {
            value_constant(value, out);
            if let AtomOp::Cas { expected } = op {
                value_constant(expected, out);
            }
        }
        PtxInstr::Barrier { id, quorum, .. } => {
            for v in id.iter().chain(quorum) {
                value_constant(v, out);
            }
        }
        _ => {}
    }
}

/// The registers an instruction reads (`read`) and writes (`written`).
fn instr_registers(i: &PtxInstr, read: &mut BTreeSet<u32>, written: &mut BTreeSet<u32>) {
    let mut r = |v: &Value| {
        if let Value::Reg(x) = v {
            read.insert(*x);
        }
    };
    match i {
        PtxInstr::Load { dst, .. } => {
            written.insert(*dst);
        }
        PtxInstr::Store { value, .. } | PtxInstr::Red { value, .. } => r(value),
        PtxInstr::Move { dst, value } => {
            r(value);
            written.insert(*dst);
        }
        PtxInstr::Arith { dst, a, b, .. } => {
            r(a);
            r(b);
            written.insert(*dst);
        }
        PtxInstr::Atom { op, dst, value, .. } => {
            r(value);
            if let AtomOp::Cas { expected } = op {
                r(expected);
            }
            written.insert(*dst);
        }
        PtxInstr::Barrier { id, quorum, .. } => {
            for v in id.iter().chain(quorum) {
                r(v);
            }
        }
        PtxInstr::Branch { a, b, .. } => {
            r(a);
            r(b);
        }
        _ => {}
    }
}

struct Lowering<'a> {
    names: &'a mut Names,
    /// The thread's initial register values.
    init: &'a [(u32, i64)],
    /// The registers some instruction of the thread writes.
    written: &'a BTreeSet<u32>,
    /// Every constant of the test, 0 included.
    constants: &'a BTreeSet<i64>,
    code: Vec<Instruction>,
    /// Label -> instruction index.
    labels: BTreeMap<String, usize>,
    /// Jumps to patch: (instruction index, label, span of the name).
    fixups: Vec<(usize, String, Span)>,
}

fn operand(v: &Value) -> Operand {
    match *v {
        Value::Reg(r) => Operand::Reg(r),
        Value::Imm(c) => Operand::Imm(c),
    }
}

fn proxy_flag(p: Proxy) -> Flags {
    match p {
        Proxy::Generic => GEN,
        Proxy::Surface => SUR,
        Proxy::Texture => TEX,
        Proxy::Constant => CON,
    }
}

fn scope_flag(s: PtxScope) -> Flags {
    match s {
        PtxScope::Cta => Flags::SCOPEWG,
        PtxScope::Gpu => Flags::SCOPEQF,
        PtxScope::Sys => Flags::SCOPEDEV,
    }
}

fn rmw_op(op: RmwOp) -> ArithOp {
    match op {
        RmwOp::Add => ArithOp::Add,
        RmwOp::Sub => ArithOp::Sub,
        RmwOp::Mul => ArithOp::Mul,
        RmwOp::Div => ArithOp::Div,
        RmwOp::And => ArithOp::And,
        RmwOp::Or => ArithOp::Or,
        RmwOp::Xor => ArithOp::Xor,
    }
}

/// The flags of an atom or red of this order that writes (`acquire` and `acq_rel` are
/// `ACQ`, `release` and `acq_rel` are `REL`).
fn rmw_order(o: RmwOrder) -> Flags {
    match o {
        RmwOrder::Relaxed => Flags::NONE,
        RmwOrder::Acquire => Flags::ACQ,
        RmwOrder::Release => Flags::REL,
        RmwOrder::AcqRel => Flags::ACQ | Flags::REL,
    }
}

impl Lowering<'_> {
    fn access(&mut self, kind: AccessKind, flags: Flags, span: Span) -> Access {
        Access {
            kind,
            flags,
            reference: None,
            dst: None,
            value: None,
            rmw_op: None,
            barrier: None,
            pin: None,
            cas: None,
            mmra: MmraTags::default(),
            address: None,
            span,
        }
    }

    fn push(&mut self, a: Access) {
        self.code.push(Instruction::Access(a));
    }

    fn reference(&mut self, name: &str, span: Span) -> Result<RefId, Diagnostic> {
        self.names.reference(name, span)
    }

    /// Where the access goes: the location named, or for `[rK]` (the parser gives the
    /// register's name) the reference whose address the register holds, chosen by
    /// `addresses::resolve` once every reference is known (`lower_ptx` fills the
    /// targets).
    fn place(&mut self, a: &mut Access, loc: &Spanned<String>) -> Result<(), Diagnostic> {
        match vkherd_litmus::syntax::lex::register(&loc.value) {
            Ok(("", r)) => {
                a.address = Some(Box::new(Address {
                    index: Operand::Reg(r),
                    targets: Vec::new(),
                    text: format!("[{}]", loc.value),
                }));
            }
            _ => a.reference = Some(self.reference(&loc.value, loc.span)?),
        }
        Ok(())
    }

    fn instr(&mut self, i: &PtxInstr, span: Span) -> Result<(), Diagnostic> {
        match i {
            PtxInstr::Load {
                proxy,
                sem,
                dst,
                loc,
            } => {
                let flags = Flags::R
                    | proxy_flag(*proxy)
                    | match sem {
                        LoadSem::Weak => Flags::NONE,
                        LoadSem::Relaxed(s) => scope_flag(*s),
                        LoadSem::Acquire(s) => scope_flag(*s) | Flags::ACQ,
                    };
                let mut a = self.access(AccessKind::Load, flags, span);
                self.place(&mut a, loc)?;
                a.dst = Some(*dst);
                self.push(a);
            }
            PtxInstr::Store {
                proxy,
                sem,
                loc,
                value,
            } => {
                let flags = Flags::W
                    | proxy_flag(*proxy)
                    | match sem {
                        StoreSem::Weak => Flags::NONE,
                        StoreSem::Relaxed(s) => scope_flag(*s),
                        StoreSem::Release(s) => scope_flag(*s) | Flags::REL,
                    };
                let mut a = self.access(AccessKind::Store, flags, span);
                self.place(&mut a, loc)?;
                a.value = Some(operand(value));
                self.push(a);
            }
            PtxInstr::Move { dst, value } => self.code.push(Instruction::Arith {
                op: ArithOp::Add,
                dst: *dst,
                a: operand(value),
                b: Operand::Imm(0),
                span,
            }),
            PtxInstr::Arith { op, dst, a, b } => self.code.push(Instruction::Arith {
                op: match op {
                    PtxArith::Add => ArithOp::Add,
                    PtxArith::Sub => ArithOp::Sub,
                    PtxArith::Mul => ArithOp::Mul,
                    PtxArith::Div => ArithOp::Div,
                },
                dst: *dst,
                a: operand(a),
                b: operand(b),
                span,
            }),
            PtxInstr::Atom {
                proxy,
                order,
                scope,
                op,
                dst,
                loc,
                value,
            } => {
                let base = proxy_flag(*proxy) | scope_flag(*scope);
                let flags = Flags::R | Flags::W | base | rmw_order(*order);
                let mut a = self.access(AccessKind::Rmw, flags, span);
                self.place(&mut a, loc)?;
                a.dst = Some(*dst);
                a.value = Some(operand(value));
                match op {
                    AtomOp::Op(o) => a.rmw_op = Some(rmw_op(*o)),
                    AtomOp::Exch => {}
                    AtomOp::Cas { expected } => {
                        // A failed compare-and-swap is a read: acquire if the order is,
                        // never a release.
                        let fail = Flags::R
                            | base
                            | if matches!(order, RmwOrder::Acquire | RmwOrder::AcqRel) {
                                Flags::ACQ
                            } else {
                                Flags::NONE
                            };
                        a.cas = Some(Cas {
                            expected: operand(expected),
                            weak: false,
                            fail_flags: fail,
                            success_dst: None,
                        });
                    }
                }
                self.push(a);
            }
            PtxInstr::Red {
                proxy,
                order,
                scope,
                op,
                loc,
                value,
            } => {
                let flags = Flags::R
                    | Flags::W
                    | proxy_flag(*proxy)
                    | scope_flag(*scope)
                    | rmw_order(*order);
                let mut a = self.access(AccessKind::Rmw, flags, span);
                self.place(&mut a, loc)?;
                a.value = Some(operand(value));
                a.rmw_op = Some(rmw_op(*op));
                self.push(a);
            }
            PtxInstr::Fence { order, scope } => {
                let mut flags = Flags::F | Flags::ACQ | Flags::REL | scope_flag(*scope);
                if *order == FenceOrder::Sc {
                    flags |= PTX_SC;
                }
                let a = self.access(AccessKind::Fence, flags, span);
                self.push(a);
            }
            PtxInstr::ProxyFence(p) => {
                let flags = match p {
                    Proxy::Generic => FGEN,
                    Proxy::Surface => FSUR,
                    Proxy::Texture => FTEX,
                    Proxy::Constant => FCON,
                };
                let a = self.access(AccessKind::Fence, flags, span);
                self.push(a);
            }
            PtxInstr::AliasFence => {
                let a = self.access(AccessKind::Fence, FALIAS, span);
                self.push(a);
            }
            PtxInstr::Barrier {
                mode,
                instance_text,
                id,
                quorum,
                ..
            } => self.barrier(*mode, instance_text, id.as_ref(), quorum.as_ref(), span)?,
            PtxInstr::Branch { op, a, b, target } => {
                let at = self.code.len();
                self.code.push(Instruction::Jump {
                    cond: Some((*op, operand(a), operand(b))),
                    target: 0,
                    address: false,
                    span,
                });
                self.fixups.push((at, target.value.clone(), target.span));
            }
            PtxInstr::Goto(target) => {
                let at = self.code.len();
                self.code.push(Instruction::Jump {
                    cond: None,
                    target: 0,
                    address: false,
                    span,
                });
                self.fixups.push((at, target.value.clone(), target.span));
            }
            PtxInstr::Label(name) => {
                if self.labels.insert(name.clone(), self.code.len()).is_some() {
                    return Err(Diagnostic::new(
                        span,
                        format!("label `{name}` is defined twice in this thread: expected each label once per thread"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The value of a register no instruction of the thread writes: its initial value.
    fn fixed(&self, v: &Value) -> Option<i64> {
        match *v {
            Value::Imm(c) => Some(c),
            Value::Reg(r) if !self.written.contains(&r) => Some(
                self.init
                    .iter()
                    .find(|&&(x, _)| x == r)
                    .map_or(0, |&(_, c)| c),
            ),
            Value::Reg(_) => None,
        }
    }

    /// `bar.cta.sync N{, ID{, Q}}` / `bar.cta.arrive`: one barrier event of instance
    /// (N, ID) with quorum Q. An ID in a register no instruction of the thread writes is
    /// that register's initial value. An ID in a register the thread writes is chosen by
    /// the register's value on the path: the barrier becomes a chain of jumps, one to a
    /// barrier for each constant of the test (the values a register holds without
    /// arithmetic on them), and a last barrier for any other value (ID `?rK`: two threads
    /// whose registers both hold values that are no constant of the test are taken to
    /// meet; docs/ptx.md says so). Barriers wait for the threads whose path executes them
    /// ([`BarrierWait::Path`]), so a thread whose register chose another ID is not waited
    /// for. The jumps make a control dependency on the register's read (docs/ptx.md).
    fn barrier(
        &mut self,
        mode: BarrierMode,
        instance: &str,
        id: Option<&Value>,
        quorum: Option<&Value>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let mut flags = Flags::CBAR | Flags::SCOPEWG;
        if mode == BarrierMode::Arrive {
            flags |= ARRIVE;
        }
        let quorum = match quorum {
            None => None,
            Some(q) => match self.fixed(q) {
                Some(c) if c >= 0 => Some(c as u64),
                Some(c) => {
                    return Err(Diagnostic::new(
                        span,
                        format!("a barrier's thread count is {c}: expected a count of at least 0"),
                    ))
                }
                None => {
                    return Err(Diagnostic::new(
                        span,
                        "a barrier's thread count in a register the thread writes: expected a constant count, or a register only the init block sets",
                    ))
                }
            },
        };
        let make = |id: Option<String>| -> Instruction {
            Instruction::Access(Access {
                kind: AccessKind::Cbar,
                flags,
                reference: None,
                dst: None,
                value: None,
                rmw_op: None,
                barrier: Some(BarrierName {
                    instance: instance.to_string(),
                    id,
                    quorum,
                }),
                pin: None,
                cas: None,
                mmra: MmraTags::default(),
                address: None,
                span,
            })
        };
        let Some(id) = id else {
            self.code.push(make(None));
            return Ok(());
        };
        if let Some(c) = self.fixed(id) {
            self.code.push(make(Some(c.to_string())));
            return Ok(());
        }
        let Value::Reg(r) = *id else {
            unreachable!("an immediate is fixed")
        };
        // beq rK, c, L_c for each constant; the other value's barrier; goto end;
        // L_c: barrier c; goto end; ...; end:
        let values: Vec<i64> = self.constants.iter().copied().collect();
        let first = self.code.len();
        for &c in &values {
            self.code.push(Instruction::Jump {
                cond: Some((CmpOp::Eq, Operand::Reg(r), Operand::Imm(c))),
                target: 0,
                address: false,
                span,
            });
        }
        self.code.push(make(Some(format!("?r{r}"))));
        let mut to_end = vec![self.code.len()];
        self.code.push(Instruction::Jump {
            cond: None,
            target: 0,
            address: false,
            span,
        });
        for (k, &c) in values.iter().enumerate() {
            let here = self.code.len();
            if let Instruction::Jump { target, .. } = &mut self.code[first + k] {
                *target = here;
            }
            self.code.push(make(Some(c.to_string())));
            to_end.push(self.code.len());
            self.code.push(Instruction::Jump {
                cond: None,
                target: 0,
                address: false,
                span,
            });
        }
        let end = self.code.len();
        for j in to_end {
            if let Instruction::Jump { target, .. } = &mut self.code[j] {
                *target = end;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<Instruction>, Diagnostic> {
        for (at, label, span) in std::mem::take(&mut self.fixups) {
            let Some(&to) = self.labels.get(&label) else {
                let known: Vec<&str> = self.labels.keys().map(String::as_str).collect();
                let expected = if known.is_empty() {
                    "expected a label of this thread, but it has none".to_string()
                } else {
                    format!("expected a label of this thread ({})", known.join(", "))
                };
                return Err(Diagnostic::new(
                    span,
                    format!("no label `{label}` in this thread: {expected}"),
                ));
            };
            if let Instruction::Jump { target, .. } = &mut self.code[at] {
                *target = to;
            }
        }
        Ok(self.code)
    }
}
