//! Accesses whose location a register chooses (`y[r0]`, `y + r0`, `[r0]` holding `&x`;
//! docs/semantics.md "Register-dependent addresses").
//!
//! A lowering makes one access with an [`Address`] and no reference. [`resolve`] bounds
//! the values its index can hold in any candidate execution ([`bounds`]), refuses the
//! access (at its span) when a value may name no location or the values cannot be
//! bounded, and otherwise replaces it by one access per value, chosen by jumps on the
//! index:
//!
//! ```text
//! beq idx, v1, A1 ; ... ; beq idx, v(k-1), A(k-1)   (address jumps)
//! access at target(vk) ; goto END
//! A1: access at target(v1) ; goto END ; ...
//! END:
//! ```
//!
//! Why this is exact. The path layer lists both ways of every jump and the value solver
//! keeps a path only where each jump's decision agrees with the values (as for any
//! branch), so a path through `Ai` is kept exactly in the candidates where the index is
//! `vi` and the access there names `target(vi)`, the location the source names for that
//! value. The last access is reached when the index is none of v1..v(k-1); since every
//! value the index can hold is among v1..vk ([`bounds`] over-approximates them), it is
//! then vk. So each candidate of the source program is a candidate of exactly one path,
//! with the same events, and no other candidate is made. A single value (`y[r0 - r0]`,
//! herd's fake dependency) makes no jump at all. The jumps are marked `address`: the
//! dependency they stand for is an address dependency of the access (`addr`), not a
//! control dependency of the events after it.

use crate::program::{arith, AccessKind, Instruction, LocId, Program};
use std::collections::{BTreeMap, BTreeSet};
use vkherd_litmus::limits::MAX_INSTRUCTIONS_PER_THREAD;
use vkherd_litmus::{ArithOp, CmpOp, Diagnostic, Operand};

/// Most values one register or location is followed with; more is "unbounded".
const MAX_VALUES: usize = 256;

/// The values a register or location may hold: `None` is unbounded.
pub type Values = Option<BTreeSet<i64>>;

/// What the analysis follows: a register of a thread, or a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Var {
    Reg(usize, u32),
    Loc(LocId),
}

/// Resolves every register-dependent address of `program` (see the module comment).
pub fn resolve(program: &mut Program) -> Result<(), Diagnostic> {
    let dynamic = |i: &Instruction| matches!(i, Instruction::Access(a) if a.address.is_some() && a.reference.is_none());
    if !program.threads.iter().any(|t| t.code.iter().any(dynamic)) {
        return Ok(());
    }
    let values = bounds(program);
    for t in 0..program.threads.len() {
        let code = std::mem::take(&mut program.threads[t].code);
        // The chosen values of each dynamic access, checked before any code moves.
        let mut chosen = Vec::new();
        let mut grown = 0;
        for (pc, i) in code.iter().enumerate() {
            let Instruction::Access(a) = i else { continue };
            let (Some(addr), None) = (&a.address, a.reference) else {
                continue;
            };
            let vals = values.operand(t, pc, addr.index).ok_or_else(|| {
                Diagnostic::new(
                    a.span,
                    format!(
                        "the address `{}` depends on a value vkherd cannot bound (a value read that may depend on itself, a read-modify-write's running value, or arithmetic over more than {MAX_VALUES} values): expected an index computed from values the test writes",
                        addr.text
                    ),
                )
            })?;
            let valid: Vec<i64> = addr.targets.iter().map(|&(v, _)| v).collect();
            let mut vals = vals;
            if vals.is_empty() {
                // No path reaches the access (the dataflow found none): any target will
                // do, as no candidate executes it.
                vals.extend(valid.first());
            }
            if vals.is_empty() {
                return Err(Diagnostic::new(
                    a.span,
                    format!(
                        "the address `{}` names no location: the test has none it could name: expected a location to access",
                        addr.text
                    ),
                ));
            }
            if let Some(bad) = vals.iter().find(|v| !valid.contains(v)) {
                return Err(Diagnostic::new(
                    a.span,
                    format!(
                        "the address `{}` may name no location: its index may be {bad}, expected {}",
                        addr.text,
                        expected_values(&valid)
                    ),
                ));
            }
            // k values make 2k - 2 more instructions (module comment).
            grown += 2 * (vals.len() - 1);
            if code.len() + grown > MAX_INSTRUCTIONS_PER_THREAD {
                return Err(Diagnostic::new(
                    a.span,
                    format!(
                        "the address `{}` may name {} locations: with one access per location, P{t} has more than {MAX_INSTRUCTIONS_PER_THREAD} instructions: expected at most {MAX_INSTRUCTIONS_PER_THREAD}",
                        addr.text,
                        vals.len()
                    ),
                ));
            }
            chosen.push(vals.into_iter().collect::<Vec<i64>>());
        }
        program.threads[t].code = expand(code, chosen);
    }
    Ok(())
}

fn expected_values(valid: &[i64]) -> String {
    match valid {
        [] => "no value (it names nothing)".to_string(),
        [v] => format!("{v}, the only valid index"),
        [a, .., b] if (b - a) as usize + 1 == valid.len() => format!("{a} to {b}"),
        _ => {
            let all: Vec<String> = valid.iter().map(i64::to_string).collect();
            format!("one of {}", all.join(", "))
        }
    }
}

/// Replaces each dynamic access of `code` (in order, `chosen` its values) by its chain of
/// address jumps and accesses, and moves every jump target to the new positions.
fn expand(code: Vec<Instruction>, chosen: Vec<Vec<i64>>) -> Vec<Instruction> {
    let mut chosen = chosen.into_iter();
    let mut out: Vec<Instruction> = Vec::with_capacity(code.len());
    // new_at[i]: where old instruction i starts; new_at[len]: the end.
    let mut new_at = Vec::with_capacity(code.len() + 1);
    // Jumps the chains add, whose targets are already new positions.
    let mut fixed = BTreeSet::new();
    for i in code {
        new_at.push(out.len());
        let Instruction::Access(a) = &i else {
            out.push(i);
            continue;
        };
        let Some(addr) = a.address.clone().filter(|_| a.reference.is_none()) else {
            out.push(i);
            continue;
        };
        let vals = chosen
            .next()
            .expect("one list of values per dynamic access");
        let at = |v: i64| {
            let mut one = a.clone();
            one.reference = addr.targets.iter().find(|t| t.0 == v).map(|t| t.1);
            Instruction::Access(one)
        };
        let jump = |cond, target| Instruction::Jump {
            cond,
            target,
            address: true,
            span: a.span,
        };
        let (last, others) = vals.split_last().expect("an index has a value");
        if others.is_empty() {
            out.push(at(*last));
            continue;
        }
        // Layout: k-1 jumps, the last value's access and its goto, then for each other
        // value its access and a goto (the very last one falls through to the end).
        let start = out.len();
        let k = others.len();
        let first_block = start + k + 2;
        let end = first_block + 2 * k - 1;
        for (n, v) in others.iter().enumerate() {
            fixed.insert(out.len());
            let cond = Some((CmpOp::Eq, addr.index, Operand::Imm(*v)));
            out.push(jump(cond, first_block + 2 * n));
        }
        out.push(at(*last));
        fixed.insert(out.len());
        out.push(jump(None, end));
        for (n, v) in others.iter().enumerate() {
            out.push(at(*v));
            if n + 1 < k {
                fixed.insert(out.len());
                out.push(jump(None, end));
            }
        }
        debug_assert_eq!(out.len(), end);
    }
    new_at.push(out.len());
    for (pos, i) in out.iter_mut().enumerate() {
        if let Instruction::Jump { target, .. } = i {
            if !fixed.contains(&pos) {
                *target = new_at[*target];
            }
        }
    }
    out
}

/// What [`bounds`] found: the values each variable may be given, and per thread and
/// instruction the registers that may not have been written yet (which then hold their
/// initial value).
pub struct Bounds {
    /// Registers: the values their writes give; locations: every value they may hold.
    values: BTreeMap<Var, Values>,
    /// `unwritten[t][pc]`: registers of thread t some path reaches pc without writing.
    unwritten: Vec<Vec<BTreeSet<u32>>>,
    /// Initial register values (others start at 0).
    init: Vec<BTreeMap<u32, i64>>,
}

impl Bounds {
    /// The values operand `o` may have at instruction `pc` of thread `t`.
    pub fn operand(&self, t: usize, pc: usize, o: Operand) -> Values {
        let r = match o {
            Operand::Imm(v) => return Some(BTreeSet::from([v])),
            Operand::Reg(r) => r,
        };
        let mut out = self
            .values
            .get(&Var::Reg(t, r))
            .cloned()
            .unwrap_or_else(|| Some(BTreeSet::new()));
        if self.unwritten[t][pc].contains(&r) {
            let init = self.init[t].get(&r).copied().unwrap_or(0);
            join(&mut out, Some(BTreeSet::from([init])));
        }
        out
    }
}

/// One way a variable gets a value.
enum Source {
    /// `dst = a op b` (`op: None`: the value of `a`).
    Arith(Option<ArithOp>, Operand, Operand),
    /// A read of any of these locations (a load, an RMW's old value).
    Read(Vec<LocId>),
    /// A read-modify-write's new value: `op(old, operand)` for the old value of `loc`.
    Rmw(ArithOp, LocId, Operand),
    /// A constant (a compare-exchange's success flag).
    Const(i64),
}

/// A source with where it is: thread and instruction.
type Sourced = (usize, usize, Source);

/// An over-approximation of the values every register and location may hold in any
/// candidate execution, thin-air guesses included.
///
/// Flow-insensitive but for initial register values: each location holds its initial
/// value and every value any instruction may write to it, whatever the path, the
/// location of an access chosen by an address counting as any of its targets; a register
/// read at an instruction holds any value a write of its thread gives it, or its initial
/// value if some path reaches the instruction without writing it. The least fixpoint of
/// these equations holds every value a candidate computes from the initial values and
/// constants. A candidate may also hold values the value solver guesses for reads in a
/// cycle of rf and data dependencies (thin air: its [`universe`]); such a read's register
/// is on a cycle of the equations (rf is within "a read gets any value written to its
/// location", data within "an operand's values"), so every variable on a cycle starts
/// from the universe as well. Sets that grow past [`MAX_VALUES`] are unbounded.
pub fn bounds(program: &Program) -> Bounds {
    let mut sources: BTreeMap<Var, Vec<Sourced>> = BTreeMap::new();
    let mut add =
        |v: Var, t: usize, pc: usize, s: Source| sources.entry(v).or_default().push((t, pc, s));
    for (t, th) in program.threads.iter().enumerate() {
        for (pc, i) in th.code.iter().enumerate() {
            match i {
                Instruction::Arith { op, dst, a, b, .. } => {
                    add(Var::Reg(t, *dst), t, pc, Source::Arith(Some(*op), *a, *b));
                }
                Instruction::Access(a) => {
                    let locs: Vec<LocId> = match (&a.address, a.reference) {
                        (_, Some(r)) => vec![program.references[r].location],
                        (Some(addr), None) => addr
                            .targets
                            .iter()
                            .map(|&(_, r)| program.references[r].location)
                            .collect(),
                        (None, None) => Vec::new(),
                    };
                    let reads = matches!(a.kind, AccessKind::Load | AccessKind::Rmw);
                    if let (true, Some(d)) = (reads, a.dst) {
                        add(Var::Reg(t, d), t, pc, Source::Read(locs.clone()));
                    }
                    if let Some(d) = a.cas.as_ref().and_then(|c| c.success_dst) {
                        add(Var::Reg(t, d), t, pc, Source::Const(0));
                        add(Var::Reg(t, d), t, pc, Source::Const(1));
                    }
                    let Some(value) = a.value else { continue };
                    for &l in &locs {
                        let s = match (a.kind, a.rmw_op) {
                            (AccessKind::Store, _) | (AccessKind::Rmw, None) => {
                                Source::Arith(None, value, value)
                            }
                            (AccessKind::Rmw, Some(op)) if a.cas.is_none() => {
                                Source::Rmw(op, l, value)
                            }
                            (AccessKind::Rmw, Some(_)) => Source::Arith(None, value, value),
                            _ => continue,
                        };
                        add(Var::Loc(l), t, pc, s);
                    }
                }
                Instruction::Jump { .. } => {}
            }
        }
    }
    let mut b = Bounds {
        values: BTreeMap::new(),
        unwritten: program.threads.iter().map(unwritten).collect(),
        init: program
            .threads
            .iter()
            .map(|th| th.init_regs.iter().copied().collect())
            .collect(),
    };
    for v in sources.keys() {
        b.values.insert(*v, Some(BTreeSet::new()));
    }
    for (l, loc) in program.locations.iter().enumerate() {
        b.values
            .insert(Var::Loc(l), Some(BTreeSet::from([loc.init])));
    }
    let universe = universe(program);
    for v in on_cycles(&sources) {
        let e = b.values.entry(v).or_insert_with(|| Some(BTreeSet::new()));
        join(e, Some(universe.iter().copied().collect()));
    }
    loop {
        let mut changed = false;
        for (v, list) in &sources {
            for (t, pc, s) in list {
                let got = eval(&b, *t, *pc, s);
                let e = b
                    .values
                    .get_mut(v)
                    .expect("every source's variable has a value");
                let before = e.clone();
                join(e, got);
                changed |= *e != before;
            }
        }
        if !changed {
            return b;
        }
    }
}

/// The registers each instruction of `th` may be reached with unwritten: a forward
/// dataflow over the code's jumps (registers surely written: the intersection over the
/// ways in).
fn unwritten(th: &crate::program::Thread) -> Vec<BTreeSet<u32>> {
    let n = th.code.len();
    let written_by = |i: &Instruction| -> Vec<u32> {
        match i {
            Instruction::Arith { dst, .. } => vec![*dst],
            Instruction::Access(a) => {
                let mut w = Vec::new();
                if matches!(a.kind, AccessKind::Load | AccessKind::Rmw) {
                    w.extend(a.dst);
                }
                w.extend(a.cas.as_ref().and_then(|c| c.success_dst));
                w
            }
            Instruction::Jump { .. } => Vec::new(),
        }
    };
    // surely[pc]: registers written on every way to pc; None: pc not reached yet.
    let mut surely: Vec<Option<BTreeSet<u32>>> = vec![None; n + 1];
    surely[0] = Some(BTreeSet::new());
    let mut work = vec![0usize];
    while let Some(pc) = work.pop() {
        if pc >= n {
            continue;
        }
        let mut out = surely[pc].clone().expect("reached");
        out.extend(written_by(&th.code[pc]));
        let next: Vec<usize> = match &th.code[pc] {
            Instruction::Jump {
                cond: None, target, ..
            } => vec![*target],
            Instruction::Jump { target, .. } => vec![pc + 1, *target],
            _ => vec![pc + 1],
        };
        for to in next {
            let merged = match &surely[to] {
                None => out.clone(),
                Some(s) => s.intersection(&out).copied().collect(),
            };
            if surely[to].as_ref() != Some(&merged) {
                surely[to] = Some(merged);
                work.push(to);
            }
        }
    }
    let all: BTreeSet<u32> = th
        .code
        .iter()
        .flat_map(|i| {
            let mut regs = written_by(i);
            let mut op = |o: &Operand| {
                if let Operand::Reg(r) = o {
                    regs.push(*r);
                }
            };
            match i {
                Instruction::Arith { a, b, .. } => {
                    op(a);
                    op(b);
                }
                Instruction::Access(a) => {
                    a.value.iter().for_each(&mut op);
                    a.address.iter().for_each(|x| op(&x.index));
                    a.cas.iter().for_each(|c| op(&c.expected));
                }
                Instruction::Jump { cond, .. } => {
                    if let Some((_, a, b)) = cond {
                        op(a);
                        op(b);
                    }
                }
            }
            regs
        })
        .collect();
    surely
        .into_iter()
        .take(n)
        .map(|s| match s {
            // Unreachable code: nothing is read there.
            None => BTreeSet::new(),
            Some(s) => all.difference(&s).copied().collect(),
        })
        .collect()
}

/// The values the value solver guesses for thin air (enumerate's `ValueSolver`): the
/// program's constants, 0, and the largest plus one.
pub fn universe(program: &Program) -> Vec<i64> {
    let mut u: Vec<i64> = program.constants.clone();
    u.push(0);
    u.sort_unstable();
    u.dedup();
    let fresh = u.last().copied().unwrap_or(0).wrapping_add(1);
    u.push(fresh);
    u
}

fn join(into: &mut Values, from: Values) {
    match (into.as_mut(), from) {
        (None, _) => {}
        (Some(_), None) => *into = None,
        (Some(a), Some(b)) => {
            a.extend(b);
            if a.len() > MAX_VALUES {
                *into = None;
            }
        }
    }
}

fn eval(b: &Bounds, t: usize, pc: usize, s: &Source) -> Values {
    let of = |o: Operand| b.operand(t, pc, o);
    match *s {
        Source::Const(c) => Some(BTreeSet::from([c])),
        Source::Read(ref locs) => {
            let mut out = Some(BTreeSet::new());
            for l in locs {
                join(&mut out, b.values[&Var::Loc(*l)].clone());
            }
            out
        }
        Source::Arith(None, a, _) => of(a),
        Source::Arith(Some(op), x, y) => {
            // Exact on one register: `r - r` and `r ^ r` are 0 whatever r holds, `r * 0`
            // and `r & 0` too (herd's fake dependencies).
            let zero = Some(BTreeSet::from([0]));
            match (op, x, y) {
                (ArithOp::Sub | ArithOp::Xor, Operand::Reg(p), Operand::Reg(q)) if p == q => {
                    return zero
                }
                (ArithOp::Mul | ArithOp::And, _, Operand::Imm(0))
                | (ArithOp::Mul | ArithOp::And, Operand::Imm(0), _) => return zero,
                _ => {}
            }
            product(op, &of(x)?, &of(y)?)
        }
        Source::Rmw(op, l, o) => product(op, b.values[&Var::Loc(l)].as_ref()?, &of(o)?),
    }
}

fn product(op: ArithOp, a: &BTreeSet<i64>, b: &BTreeSet<i64>) -> Values {
    if a.len().saturating_mul(b.len()) > MAX_VALUES * MAX_VALUES {
        return None;
    }
    let out: BTreeSet<i64> = a
        .iter()
        .flat_map(|&x| b.iter().map(move |&y| arith(op, x, y)))
        .collect();
    (out.len() <= MAX_VALUES).then_some(out)
}

/// The variables on a cycle of the equations (a variable whose value may flow back to
/// itself).
fn on_cycles(sources: &BTreeMap<Var, Vec<Sourced>>) -> Vec<Var> {
    let deps = |v: &Var| -> Vec<Var> {
        let mut out = Vec::new();
        for (t, _, s) in sources.get(v).map(Vec::as_slice).unwrap_or(&[]) {
            let reg = |o: &Operand, out: &mut Vec<Var>| {
                if let Operand::Reg(r) = *o {
                    out.push(Var::Reg(*t, r));
                }
            };
            match s {
                Source::Arith(_, a, b) => {
                    reg(a, &mut out);
                    reg(b, &mut out);
                }
                Source::Read(locs) => out.extend(locs.iter().map(|&l| Var::Loc(l))),
                Source::Rmw(_, l, o) => {
                    out.push(Var::Loc(*l));
                    reg(o, &mut out);
                }
                Source::Const(_) => {}
            }
        }
        out
    };
    let mut cyclic = Vec::new();
    for &v in sources.keys() {
        // Is v reachable from its own dependencies?
        let mut seen = BTreeSet::new();
        let mut stack = deps(&v);
        while let Some(u) = stack.pop() {
            if u == v {
                cyclic.push(v);
                break;
            }
            if seen.insert(u) {
                stack.extend(deps(&u));
            }
        }
    }
    cyclic
}
