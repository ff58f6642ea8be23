//! Lowering of a parsed OpenCL test to a [`Program`] (docs/opencl.md "Lowering"):
//! C statements become straight-line code with jumps, expressions get temporary
//! registers, and every memory operation becomes an [`Access`] whose flags say what seed
//! 004 needs to know about it:
//!
//! | OpenCL | flags |
//! |---|---|
//! | global / local location | `SC0` / `SC1` |
//! | `CLK_GLOBAL_MEM_FENCE` / `CLK_LOCAL_MEM_FENCE` | `SEMSC0` / `SEMSC1` |
//! | acquire, release, acq_rel | `ACQ`, `REL`, both (loads never `REL`, stores never `ACQ`) |
//! | seq_cst | as acq_rel for the kind, plus `SEQCST` (cat `SC`) |
//! | work_item, sub_group, work_group | `SCOPEWI`, `SCOPESG`, `SCOPEWG` |
//! | device, all_svm_devices | `SCOPEQF`, `SCOPEDEV` (a device is a queue-family slot) |
//! | barrier: entry fence, exit fence | `CBAR`, `F`, `REL` / `ACQ`, its region flags and memory scope |
//!
//! A barrier is two events (seed 004 §3.6.3): the entry fence (kind `Cbar`, the one that
//! carries the barrier's name, where the work-items meet) and right after it the exit
//! fence (kind `Fence`).

use crate::opencl::ast::{
    AddrSpace, ClExpected, ClExpr, ClLoc, ClMemOp, ClParam, ClScope, ClStmt, ClThread, FenceFlags,
    MemOrder, OpenClTest, Spanned,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use vkherd_litmus::limits::{MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD, MAX_REGISTER};
use vkherd_litmus::{ArithOp, CmpOp, Diagnostic, Operand, Span, Warning};
use vkherd_model::lowering::{lower_init, resolve_finals, Names};
use vkherd_model::Flags;
use vkherd_model::*;

/// The name every OpenCL barrier shares: work-items of a work-group meet at the k-th
/// barrier each executes, whatever its label (CbarRule::Workgroup, one barrier per
/// work-group).
pub const OPENCL_BARRIER: &str = "barrier";

/// Lowers a parsed OpenCL test.
pub fn lower_opencl(test: &OpenClTest) -> Result<Program, Diagnostic> {
    let nthreads = test.threads.len();
    let mut names = Names::default();
    let mut init_regs: Vec<Vec<(u32, i64)>> = vec![Vec::new(); nthreads];
    let mut constants = BTreeSet::new();
    lower_init(&test.init, &mut names, &mut init_regs, &mut constants)?;
    let ids = thread_ids(test)?;
    let mut warnings = test.warnings.clone();
    let regions = regions(test, &ids, &mut warnings);
    // In the order of the source, whichever stage found them.
    warnings.sort_by_key(|w| (w.span.offset, w.span.len));

    let mut threads = Vec::with_capacity(nthreads);
    let mut regs_used: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); nthreads];
    let mut total = 0;
    let mut reg_names = BTreeMap::new();
    for (t, th) in test.threads.iter().enumerate() {
        let mut user_regs = BTreeSet::new();
        for s in &th.body {
            stmt_registers(&s.value, &mut user_regs);
        }
        user_regs.extend(init_regs[t].iter().map(|&(r, _)| r));
        check_named_registers(th, &user_regs)?;
        reg_names.extend(th.var_names.iter().map(|(n, r)| ((t, *r), n.clone())));
        let mut l = ThreadLowering {
            thread: t,
            names: &mut names,
            regions: &regions,
            constants: &mut constants,
            code: Vec::new(),
            labels: Vec::new(),
            next_temp: user_regs.last().map_or(0, |r| r + 1),
            total_before: total,
            tags: MmraTags::default(),
        };
        l.stmts(&th.body)?;
        let code = l.finish();
        total += code.len();
        regs_used[t] = user_regs;
        // OpenCL's levels: sub-group, work-group, device (OPENCL's `levels`).
        let (device, wg, sg) = ids[t];
        threads.push(Thread {
            scope: vec![sg, wg, device],
            code,
            init_regs: std::mem::take(&mut init_regs[t]),
        });
    }

    let finals = resolve_finals(
        &test.locations,
        test.filter.as_ref(),
        test.condition.as_ref(),
        &mut names,
        &regs_used,
        &mut constants,
    )?;

    let mut program = Program {
        dialect: &crate::opencl::OPENCL,
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
        reg_names,
        warnings,
    };
    vkherd_model::addresses::resolve(&mut program)?;
    Ok(program)
}

/// (qf, wg, sg) of each thread: qf is the OpenCL device (default 0). `wg` and `sg` must be
/// given on every thread or on none; where none gives them, each work-item is alone in
/// its work-group (or sub-group), as separate C threads would be.
fn thread_ids(test: &OpenClTest) -> Result<Vec<(u64, u64, u64)>, Diagnostic> {
    for (key, get) in [
        ("wg", (|t: &ClThread| t.wg) as fn(&ClThread) -> Option<u64>),
        ("sg", |t: &ClThread| t.sg),
    ] {
        let given: Vec<&ClThread> = test.threads.iter().filter(|t| get(t).is_some()).collect();
        if !given.is_empty() && given.len() < test.threads.len() {
            let missing = test
                .threads
                .iter()
                .find(|t| get(t).is_none())
                .expect("a thread without the id");
            return Err(Diagnostic::new(
                missing.span,
                format!(
                    "P{} has no `{key}` id but P{} has one: expected `{key} N` on every thread header or on none",
                    missing.id, given[0].id
                ),
            ));
        }
    }
    Ok(test
        .threads
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let own = i as u64;
            (t.dev.unwrap_or(0), t.wg.unwrap_or(own), t.sg.unwrap_or(own))
        })
        .collect())
}

/// Named variables take the registers from r512 up (the parser's FIRST_NAMED_REGISTER):
/// a thread that has some may not also use `rK` with K >= 512 for something else.
fn check_named_registers(th: &ClThread, user_regs: &BTreeSet<u32>) -> Result<(), Diagnostic> {
    let Some(first) = th.var_names.iter().map(|&(_, r)| r).min() else {
        return Ok(());
    };
    let named: BTreeSet<u32> = th.var_names.iter().map(|&(_, r)| r).collect();
    match user_regs.range(first..).find(|r| !named.contains(r)) {
        None => Ok(()),
        Some(r) => Err(Diagnostic::new(
            th.span,
            format!(
                "P{} uses r{r} and named variables, which take the registers from r{first} up: expected registers below r{first}",
                th.id
            ),
        )),
    }
}

/// The address space of every location a thread declares (docs/opencl.md "Address
/// spaces"): the memory map's if it names the location, else the first declaration's
/// that writes one (in thread order), else global. A declaration that writes the other
/// space, and a local location declared by work-items of several work-groups, are
/// warnings: OpenCL C could not express either (global and local pointers never alias;
/// each work-group has its own local memory), herd7's tests do both, and vkherd reads them
/// as herd7 does, as one location.
fn regions(
    test: &OpenClTest,
    ids: &[(u64, u64, u64)],
    warnings: &mut Vec<Warning>,
) -> HashMap<String, AddrSpace> {
    // Where each location's space comes from: the memory map, or its first declaration
    // that writes a space, with the thread making it.
    enum Decider<'t> {
        Map(&'t Spanned<(String, AddrSpace)>),
        Param(&'t ClParam, usize),
    }
    let mut decider: HashMap<&str, Decider> = test
        .memory_map
        .iter()
        .map(|e| (e.value.0.as_str(), Decider::Map(e)))
        .collect();
    for (t, th) in test.threads.iter().enumerate() {
        for p in th.params.iter().filter(|p| p.space_given) {
            decider.entry(&p.name).or_insert(Decider::Param(p, t));
        }
    }
    let space_of = |name: &str| match decider.get(name) {
        Some(Decider::Map(e)) => e.value.1,
        Some(Decider::Param(p, _)) => p.space,
        None => AddrSpace::Global,
    };
    let mut first_thread: HashMap<&str, usize> = HashMap::new();
    let mut warned_space: BTreeSet<&str> = BTreeSet::new();
    let mut warned_groups: BTreeSet<&str> = BTreeSet::new();
    for (t, th) in test.threads.iter().enumerate() {
        for p in &th.params {
            let name = p.name.as_str();
            let space = space_of(name);
            if p.space_given && p.space != space && warned_space.insert(name) {
                let why = match decider.get(name) {
                    Some(Decider::Map(e)) => format!(
                        "the memory map ({}:{}) makes it {}",
                        e.span.line,
                        e.span.column,
                        space_name(space)
                    ),
                    Some(Decider::Param(q, u)) => format!(
                        "P{u} declares it {} ({}:{})",
                        space_name(space),
                        q.span.line,
                        q.span.column
                    ),
                    None => unreachable!("a declaration that writes a space decides"),
                };
                warnings.push(Warning::new(
                    p.span,
                    format!(
                        "`{name}` is {} here but {why}: a location has one address space (OpenCL's global and local pointers never alias); read as {} everywhere",
                        space_name(p.space),
                        space_name(space)
                    ),
                ));
            }
            let u = *first_thread.entry(name).or_insert(t);
            let (dev_u, wg_u, _) = ids[u];
            let (dev_t, wg_t, _) = ids[t];
            if space == AddrSpace::Local
                && (dev_u, wg_u) != (dev_t, wg_t)
                && warned_groups.insert(name)
            {
                warnings.push(Warning::new(
                    p.span,
                    format!(
                        "local `{name}` is declared by P{t} (wg {wg_t}, dev {dev_t}) and P{u} (wg {wg_u}, dev {dev_u}): OpenCL gives each work-group its own copy of local memory; read as one location, as herd7 does; local synchronisation still orders only within a work-group"
                    ),
                ));
            }
        }
    }
    let mut out: HashMap<String, AddrSpace> = HashMap::new();
    for th in &test.threads {
        for p in &th.params {
            out.insert(p.name.clone(), space_of(&p.name));
        }
    }
    out
}

fn space_name(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Global => "global",
        AddrSpace::Local => "local",
    }
}

/// Registers a statement names (user variables), for temporaries to avoid them.
fn stmt_registers(s: &ClStmt, out: &mut BTreeSet<u32>) {
    match s {
        ClStmt::Assign { reg, value, .. } => {
            out.insert(*reg);
            expr_registers(&value.value, out);
        }
        ClStmt::Declare { reg } => {
            out.insert(*reg);
        }
        ClStmt::PlainStore { loc, value } => {
            loc_registers(loc, out);
            expr_registers(&value.value, out);
        }
        ClStmt::Expr(value) => expr_registers(&value.value, out),
        ClStmt::Fence { .. } | ClStmt::Barrier { .. } => {}
        ClStmt::Tagged { stmt, .. } => stmt_registers(&stmt.value, out),
        ClStmt::If { cond, then, els } => {
            expr_registers(&cond.value, out);
            then.iter()
                .chain(els)
                .for_each(|s| stmt_registers(&s.value, out));
        }
        ClStmt::While { cond, body } => {
            expr_registers(&cond.value, out);
            body.iter().for_each(|s| stmt_registers(&s.value, out));
        }
    }
}

fn expr_registers(e: &ClExpr, out: &mut BTreeSet<u32>) {
    match e {
        ClExpr::Const(_) => {}
        ClExpr::Reg(r) => {
            out.insert(*r);
        }
        ClExpr::Arith(_, a, b) | ClExpr::Cmp(_, a, b) | ClExpr::Logic { a, b, .. } => {
            expr_registers(&a.value, out);
            expr_registers(&b.value, out);
        }
        ClExpr::Not(a) => expr_registers(&a.value, out),
        ClExpr::Mem(m) => match m {
            ClMemOp::PlainLoad { loc } | ClMemOp::Load { loc, .. } => loc_registers(loc, out),
            ClMemOp::Store { loc, value, .. } | ClMemOp::Rmw { loc, value, .. } => {
                loc_registers(loc, out);
                expr_registers(&value.value, out)
            }
            ClMemOp::Cas {
                loc,
                expected,
                desired,
                ..
            } => {
                loc_registers(loc, out);
                match expected {
                    ClExpected::Value(v) => expr_registers(&v.value, out),
                    ClExpected::Pointer(r) => {
                        out.insert(*r);
                    }
                    ClExpected::Location(_) => {}
                }
                expr_registers(&desired.value, out);
            }
        },
    }
}

/// The registers of a register-dependent address's index.
fn loc_registers(loc: &ClLoc, out: &mut BTreeSet<u32>) {
    if let Some(index) = &loc.index {
        expr_registers(&index.expr.value, out);
    }
}

/// The kind of memory event, for the order flags it may carry.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Load,
    Store,
    Rmw,
    Fence,
}

/// The order flags of an operation of kind `k` with order `o` (seed 004 §3.6.1: a store
/// performs a release, a load an acquire; seq_cst is both plus membership of S).
fn order_flags(k: Kind, o: MemOrder) -> Flags {
    let (acq, rel) = match o {
        MemOrder::Relaxed => (false, false),
        MemOrder::Acquire => (true, false),
        MemOrder::Release => (false, true),
        MemOrder::AcqRel | MemOrder::SeqCst => (true, true),
    };
    let mut f = Flags::NONE;
    if acq && k != Kind::Store {
        f |= Flags::ACQ;
    }
    if rel && k != Kind::Load {
        f |= Flags::REL;
    }
    if o == MemOrder::SeqCst {
        f |= super::SEQCST;
    }
    f
}

/// The scope flag of an OpenCL scope.
pub fn scope_flag(s: ClScope) -> Flags {
    match s {
        ClScope::WorkItem => super::SCOPEWI,
        ClScope::SubGroup => Flags::SCOPESG,
        ClScope::WorkGroup => Flags::SCOPEWG,
        ClScope::Device => Flags::SCOPEQF,
        ClScope::AllSvmDevices => Flags::SCOPEDEV,
    }
}

fn region_flag(s: AddrSpace) -> Flags {
    match s {
        AddrSpace::Global => Flags::SC0,
        AddrSpace::Local => Flags::SC1,
    }
}

fn fence_region_flags(f: FenceFlags) -> Flags {
    let mut out = Flags::NONE;
    if f.global {
        out |= Flags::SEMSC0;
    }
    if f.local {
        out |= Flags::SEMSC1;
    }
    out
}

/// A jump target not yet placed: an index into `ThreadLowering::labels`.
type Label = usize;

struct ThreadLowering<'a> {
    thread: usize,
    names: &'a mut Names,
    regions: &'a HashMap<String, AddrSpace>,
    constants: &'a mut BTreeSet<i64>,
    code: Vec<Instruction>,
    /// Instruction index of each label, once placed.
    labels: Vec<Option<usize>>,
    next_temp: u32,
    /// Instructions of the threads lowered before this one.
    total_before: usize,
    /// The tags of the statement being lowered (`ClStmt::Tagged`), given to its events.
    tags: MmraTags,
}

impl ThreadLowering<'_> {
    /// The code, jump targets patched from labels to indices.
    fn finish(mut self) -> Vec<Instruction> {
        for i in &mut self.code {
            if let Instruction::Jump { target, .. } = i {
                *target = self.labels[*target].expect("every label is placed");
            }
        }
        self.code
    }

    fn push(&mut self, i: Instruction, span: Span) -> Result<(), Diagnostic> {
        self.code.push(i);
        if self.code.len() > MAX_INSTRUCTIONS_PER_THREAD {
            return Err(Diagnostic::new(
                span,
                format!("too many instructions in thread P{}: this statement passes {MAX_INSTRUCTIONS_PER_THREAD} lowered instructions, expected at most that many per thread", self.thread),
            ));
        }
        if self.total_before + self.code.len() > MAX_INSTRUCTIONS {
            return Err(Diagnostic::new(
                span,
                format!("too many instructions: this statement passes {MAX_INSTRUCTIONS} lowered instructions in the test, expected at most that many, all threads together"),
            ));
        }
        Ok(())
    }

    fn label(&mut self) -> Label {
        self.labels.push(None);
        self.labels.len() - 1
    }

    fn place(&mut self, l: Label) {
        self.labels[l] = Some(self.code.len());
    }

    fn jump(
        &mut self,
        cond: Option<(CmpOp, Operand, Operand)>,
        to: Label,
        span: Span,
    ) -> Result<(), Diagnostic> {
        self.push(
            Instruction::Jump {
                cond,
                target: to,
                address: false,
                span,
            },
            span,
        )
    }

    fn temp(&mut self, span: Span) -> Result<u32, Diagnostic> {
        let r = self.next_temp;
        if r > MAX_REGISTER {
            return Err(Diagnostic::new(
                span,
                format!("too many registers in thread P{}: this expression needs a temporary beyond r{MAX_REGISTER}", self.thread),
            ));
        }
        self.next_temp += 1;
        Ok(r)
    }

    fn imm(&mut self, v: i64) -> Operand {
        self.constants.insert(v);
        Operand::Imm(v)
    }

    /// `dst = a op b`
    fn arith(
        &mut self,
        op: ArithOp,
        dst: u32,
        a: Operand,
        b: Operand,
        span: Span,
    ) -> Result<(), Diagnostic> {
        self.push(
            Instruction::Arith {
                op,
                dst,
                a,
                b,
                span,
            },
            span,
        )
    }

    fn stmts(&mut self, body: &[Spanned<ClStmt>]) -> Result<(), Diagnostic> {
        body.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Spanned<ClStmt>) -> Result<(), Diagnostic> {
        let span = s.span;
        match &s.value {
            ClStmt::Assign { reg, value, .. } => self.expr_into(value, *reg),
            ClStmt::Declare { .. } => Ok(()),
            ClStmt::PlainStore { loc, value } => {
                let v = self.value(value)?;
                let flags = Flags::W | self.region(&loc.cell);
                self.access(AccessKind::Store, flags, loc, None, Some(v), span)
            }
            ClStmt::Expr(e) => match &e.value {
                ClExpr::Mem(ClMemOp::Store {
                    loc,
                    value,
                    order,
                    scope,
                }) => {
                    let v = self.value(value)?;
                    let flags = Flags::W
                        | Flags::A
                        | self.region(&loc.cell)
                        | order_flags(Kind::Store, *order)
                        | scope_flag(*scope);
                    self.access(AccessKind::Store, flags, loc, None, Some(v), e.span)
                }
                _ => self.value(e).map(drop),
            },
            ClStmt::Fence {
                flags,
                order,
                scope,
            } => {
                let f = Flags::F
                    | order_flags(Kind::Fence, *order)
                    | fence_region_flags(*flags)
                    | scope_flag(*scope);
                self.push_access(AccessKind::Fence, f, span, |_| {})
            }
            ClStmt::Barrier { flags, scope, .. } => {
                // Seed 004 §3.6.3: "A work-item executing a dynamic instance of a barrier
                // results in two operations, both fences, that are called the entry and
                // exit fences": the entry, a release fence, is where the work-items meet
                // (it carries the barrier's name); the exit, an acquire fence, follows it
                // in sequenced-before. Both are CBAR events (opencl.cat tells them apart
                // by REL and ACQ).
                let f = Flags::CBAR | Flags::F | fence_region_flags(*flags) | scope_flag(*scope);
                self.push_access(AccessKind::Cbar, f | Flags::REL, span, |a| {
                    a.barrier = Some(BarrierName {
                        instance: OPENCL_BARRIER.to_string(),
                        id: None,
                        quorum: None,
                    })
                })?;
                self.push_access(AccessKind::Fence, f | Flags::ACQ, span, |_| {})
            }
            ClStmt::If { cond, then, els } => {
                let else_l = self.label();
                self.branch(cond, else_l, false)?;
                self.stmts(then)?;
                if els.is_empty() {
                    self.place(else_l);
                } else {
                    let end = self.label();
                    self.jump(None, end, span)?;
                    self.place(else_l);
                    self.stmts(els)?;
                    self.place(end);
                }
                Ok(())
            }
            ClStmt::Tagged { tags, stmt } => {
                // The parser never nests `Tagged`, so there are no outer tags to restore.
                self.tags = tags.clone();
                let r = self.stmt(stmt);
                self.tags = MmraTags::default();
                r
            }
            ClStmt::While { cond, body } => {
                let top = self.label();
                let end = self.label();
                self.place(top);
                self.branch(cond, end, false)?;
                self.stmts(body)?;
                self.jump(None, top, span)?;
                self.place(end);
                Ok(())
            }
        }
    }

    fn region(&self, loc: &str) -> Flags {
        // The parser only accepts parameters and their cells (`y[1]`) as locations, and
        // every parameter is here.
        let param = loc.split('[').next().unwrap_or(loc);
        region_flag(
            self.regions
                .get(param)
                .copied()
                .unwrap_or(AddrSpace::Global),
        )
    }

    fn push_access(
        &mut self,
        kind: AccessKind,
        flags: Flags,
        span: Span,
        fill: impl FnOnce(&mut Access),
    ) -> Result<(), Diagnostic> {
        let mut a = Access {
            kind,
            flags,
            reference: None,
            dst: None,
            value: None,
            rmw_op: None,
            barrier: None,
            pin: None,
            cas: None,
            mmra: self.tags.clone(),
            address: None,
            span,
        };
        fill(&mut a);
        self.push(Instruction::Access(a), span)
    }

    fn access(
        &mut self,
        kind: AccessKind,
        flags: Flags,
        loc: &ClLoc,
        dst: Option<u32>,
        value: Option<Operand>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let (r, address) = self.place_of(loc, span)?;
        self.push_access(kind, flags, span, |a| {
            a.reference = r;
            a.address = address;
            a.dst = dst;
            a.value = value;
        })
    }

    /// Where an access goes: a cell's reference, or for a register-dependent address
    /// (`y[r0]`) the index, evaluated here, and the cells it may name by value; the
    /// shared pass `addresses::resolve` bounds it once every thread is lowered.
    fn place_of(
        &mut self,
        loc: &ClLoc,
        span: Span,
    ) -> Result<(Option<RefId>, Option<Box<Address>>), Diagnostic> {
        let Some(index) = &loc.index else {
            return Ok((Some(self.names.reference(&loc.cell, span)?), None));
        };
        let value = self.value(&index.expr)?;
        let mut targets = Vec::with_capacity(index.cells.len());
        for (k, cell) in index.cells.iter().enumerate() {
            targets.push((k as i64, self.names.reference(cell, span)?));
        }
        let address = Address {
            index: value,
            targets,
            text: index.text.clone(),
        };
        Ok((None, Some(Box::new(address))))
    }

    /// Evaluates `e` into register `dst`.
    fn expr_into(&mut self, e: &Spanned<ClExpr>, dst: u32) -> Result<(), Diagnostic> {
        match &e.value {
            ClExpr::Mem(m) => self.mem(m, Some(dst), e.span).map(drop),
            ClExpr::Arith(op, a, b) => {
                let a = self.value(a)?;
                let b = self.value(b)?;
                self.arith(*op, dst, a, b, e.span)
            }
            _ => {
                let v = self.value(e)?;
                let zero = self.imm(0);
                self.arith(ArithOp::Add, dst, v, zero, e.span)
            }
        }
    }

    /// Evaluates `e`: a constant or register, or a temporary holding its value.
    fn value(&mut self, e: &Spanned<ClExpr>) -> Result<Operand, Diagnostic> {
        match &e.value {
            ClExpr::Const(v) => Ok(self.imm(*v)),
            ClExpr::Reg(r) => Ok(Operand::Reg(*r)),
            ClExpr::Mem(m) => self.mem(m, None, e.span),
            ClExpr::Arith(..) => {
                let t = self.temp(e.span)?;
                self.expr_into(e, t)?;
                Ok(Operand::Reg(t))
            }
            ClExpr::Cmp(..) | ClExpr::Not(_) | ClExpr::Logic { .. } => {
                // t = 1; if !e goto F; goto END; F: t = 0; END:
                let t = self.temp(e.span)?;
                let (one, zero) = (self.imm(1), self.imm(0));
                let (f, end) = (self.label(), self.label());
                self.arith(ArithOp::Add, t, one, zero, e.span)?;
                self.branch(e, f, false)?;
                self.jump(None, end, e.span)?;
                self.place(f);
                self.arith(ArithOp::Add, t, zero, zero, e.span)?;
                self.place(end);
                Ok(Operand::Reg(t))
            }
        }
    }

    /// Jumps to `to` if the truth of `e` is `when`, else falls through (C: non-zero is
    /// true; `&&` and `||` short-circuit).
    fn branch(&mut self, e: &Spanned<ClExpr>, to: Label, when: bool) -> Result<(), Diagnostic> {
        match &e.value {
            ClExpr::Cmp(op, a, b) => {
                let a = self.value(a)?;
                let b = self.value(b)?;
                let op = if when { *op } else { negate(*op) };
                self.jump(Some((op, a, b)), to, e.span)
            }
            ClExpr::Not(x) => self.branch(x, to, !when),
            ClExpr::Logic { and, a, b } => {
                // `a && b` is false as soon as a is; `a || b` true as soon as a is.
                if *and != when {
                    self.branch(a, to, when)?;
                    self.branch(b, to, when)
                } else {
                    let skip = self.label();
                    self.branch(a, skip, !when)?;
                    self.branch(b, to, when)?;
                    self.place(skip);
                    Ok(())
                }
            }
            _ => {
                let v = self.value(e)?;
                let zero = self.imm(0);
                let op = if when { CmpOp::Ne } else { CmpOp::Eq };
                self.jump(Some((op, v, zero)), to, e.span)
            }
        }
    }

    /// A memory operation as an expression: its value (into `dst` if given).
    fn mem(&mut self, m: &ClMemOp, dst: Option<u32>, span: Span) -> Result<Operand, Diagnostic> {
        let dst_or_temp = |s: &mut Self| match dst {
            Some(d) => Ok(d),
            None => s.temp(span),
        };
        match m {
            ClMemOp::PlainLoad { loc } => {
                let d = dst_or_temp(self)?;
                let flags = Flags::R | self.region(&loc.cell);
                self.access(AccessKind::Load, flags, loc, Some(d), None, span)?;
                Ok(Operand::Reg(d))
            }
            ClMemOp::Load { loc, order, scope } => {
                let d = dst_or_temp(self)?;
                let flags = Flags::R
                    | Flags::A
                    | self.region(&loc.cell)
                    | order_flags(Kind::Load, *order)
                    | scope_flag(*scope);
                self.access(AccessKind::Load, flags, loc, Some(d), None, span)?;
                Ok(Operand::Reg(d))
            }
            ClMemOp::Store { .. } => Err(Diagnostic::new(
                span,
                "`atomic_store` has no value: expected it as a statement of its own",
            )),
            ClMemOp::Rmw {
                loc,
                op,
                value,
                order,
                scope,
            } => {
                let v = self.value(value)?;
                let d = dst_or_temp(self)?;
                let flags = Flags::R
                    | Flags::W
                    | Flags::A
                    | self.region(&loc.cell)
                    | order_flags(Kind::Rmw, *order)
                    | scope_flag(*scope);
                let (r, address) = self.place_of(loc, span)?;
                self.push_access(AccessKind::Rmw, flags, span, |a| {
                    a.reference = r;
                    a.address = address;
                    a.dst = Some(d);
                    a.value = Some(v);
                    a.rmw_op = *op;
                })?;
                Ok(Operand::Reg(d))
            }
            ClMemOp::Cas {
                loc,
                weak,
                expected,
                desired,
                success,
                failure,
                scope,
            } => {
                let expected_arg = expected;
                let (expected, old) = match expected {
                    ClExpected::Value(v) => {
                        let e = self.value(v)?;
                        (e, self.temp(span)?)
                    }
                    // C: on failure the value read is written to *expected; on success
                    // it equals *expected, so writing it always is the same.
                    ClExpected::Pointer(r) => (Operand::Reg(*r), *r),
                    // herd7's C11 reading: a non-atomic read of *expected before the
                    // exchange; the write-back on failure follows it (below).
                    ClExpected::Location(at) => {
                        let t = self.temp(at.span)?;
                        let flags = Flags::R | self.region(&at.value);
                        let at_loc = ClLoc::cell(at.value.clone());
                        self.access(AccessKind::Load, flags, &at_loc, Some(t), None, at.span)?;
                        (Operand::Reg(t), self.temp(span)?)
                    }
                };
                let desired = self.value(desired)?;
                let ok = dst_or_temp(self)?;
                let base = Flags::A | self.region(&loc.cell) | scope_flag(*scope);
                let flags = base | Flags::R | Flags::W | order_flags(Kind::Rmw, *success);
                // The failing read is a load: order_flags drops the release half of a
                // release or acq_rel failure order (accepted with a warning, as herd7
                // reads it: release as relaxed, acq_rel as acquire).
                let fail_flags = base | Flags::R | order_flags(Kind::Load, *failure);
                let (r, address) = self.place_of(loc, span)?;
                self.push_access(AccessKind::Rmw, flags, span, |a| {
                    a.reference = r;
                    a.address = address;
                    a.dst = Some(old);
                    a.value = Some(desired);
                    a.cas = Some(Cas {
                        expected,
                        weak: *weak,
                        fail_flags,
                        success_dst: Some(ok),
                    });
                })?;
                if let ClExpected::Location(at) = expected_arg {
                    // C11: a failed exchange writes the value read to *expected (a plain
                    // store); a successful one writes nothing there.
                    let done = self.label();
                    let zero = self.imm(0);
                    self.jump(Some((CmpOp::Ne, Operand::Reg(ok), zero)), done, span)?;
                    let flags = Flags::W | self.region(&at.value);
                    self.access(
                        AccessKind::Store,
                        flags,
                        &ClLoc::cell(at.value.clone()),
                        None,
                        Some(Operand::Reg(old)),
                        at.span,
                    )?;
                    self.place(done);
                }
                Ok(Operand::Reg(ok))
            }
        }
    }
}

fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
    }
}
