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
    let dynamic = |i: &Instruction| {
        matches!(i, Instruction::Access(a) if a.address.is_some() && a.reference.is_none())
    };
    if !program.threads.iter().any(|t| t.code.iter().any(dynamic)) {
        return Ok(());
    }
    let values = bounds(program);
    for t in 0..program.threads.len() {
        let code = std::mem::take(&mut program.threads[t].code);
        // The chosen values of each dynamic access, checked before any code moves.
        let mut chosen = Vec::new();
        for i in &code {
            let Instruction::Access(a) = i else { continue };
            let (Some(addr), None) = (&a.address, a.reference) else {
                continue;
            };
            let vals = operand_values(&values, t, addr.index).ok_or_else(|| {
                Diagnostic::new(
                    a.span,
                    format!(
                        "the address `{}` depends on a value vkherd cannot bound (a value read that may depend on itself, a read-modify-write's running value, or arithmetic over more than {MAX_VALUES} values): expected an index computed from values the test writes",
                        addr.text
                    ),
                )
            })?;
            let valid: Vec<i64> = addr.targets.iter().map(|&(v, _)| v).collect();
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
        let vals = chosen.next().expect("one list of values per dynamic access");
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

fn operand_values(values: &BTreeMap<Var, Values>, t: usize, o: Operand) -> Values {
    match o {
        Operand::Imm(v) => Some(BTreeSet::from([v])),
        Operand::Reg(r) => values.get(&Var::Reg(t, r)).cloned().unwrap_or_else(|| {
            // A register nothing writes keeps its initial value.
            Some(BTreeSet::from([0]))
        }),
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

/// An over-approximation of the values every register and location may hold in any
/// candidate execution, thin-air guesses included: registers missing from the map are
/// never written and hold their initial value.
///
/// Flow-insensitive: each variable holds its initial value and every value any
/// instruction may give it, whatever the path, the location of a read or write chosen by
/// an address counting as any of its targets. The least fixpoint of these equations
/// holds every value a candidate computes from the initial values and constants. A
/// candidate may also hold values the value solver guesses for reads in a cycle of rf and
/// data dependencies (thin air: its universe, the program's constants, 0 and one more);
/// such a read's register is on a cycle of the equations (rf is within "a read gets any
/// value written to its location", data within "an operand's values"), so every variable
/// on a cycle starts from the universe as well. Sets that grow past [`MAX_VALUES`] are
/// unbounded.
pub fn bounds(program: &Program) -> BTreeMap<Var, Values> {
    let mut sources: BTreeMap<Var, Vec<(usize, Source)>> = BTreeMap::new();
    let mut add = |v: Var, t: usize, s: Source| sources.entry(v).or_default().push((t, s));
    for (t, th) in program.threads.iter().enumerate() {
        for i in &th.code {
            match i {
                Instruction::Arith { op, dst, a, b, .. } => {
                    add(Var::Reg(t, *dst), t, Source::Arith(Some(*op), *a, *b));
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
                        add(Var::Reg(t, d), t, Source::Read(locs.clone()));
                    }
                    if let Some(d) = a.cas.as_ref().and_then(|c| c.success_dst) {
                        add(Var::Reg(t, d), t, Source::Const(0));
                        add(Var::Reg(t, d), t, Source::Const(1));
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
                        add(Var::Loc(l), t, s);
                    }
                }
                Instruction::Jump { .. } => {}
            }
        }
    }
    let mut values: BTreeMap<Var, Values> = BTreeMap::new();
    for (t, th) in program.threads.iter().enumerate() {
        for &(r, v) in &th.init_regs {
            values.insert(Var::Reg(t, r), Some(BTreeSet::from([v])));
        }
    }
    for v in sources.keys() {
        if let Var::Reg(..) = v {
            values.entry(*v).or_insert_with(|| Some(BTreeSet::from([0])));
        }
    }
    for (l, loc) in program.locations.iter().enumerate() {
        values.insert(Var::Loc(l), Some(BTreeSet::from([loc.init])));
    }
    let universe = universe(program);
    for v in on_cycles(&sources) {
        let e = values.entry(v).or_insert_with(|| Some(BTreeSet::new()));
        join(e, Some(universe.iter().copied().collect()));
    }
    loop {
        let mut changed = false;
        for (v, list) in &sources {
            for (t, s) in list {
                let got = eval(&values, *t, s);
                let e = values.get_mut(v).expect("every source's variable has a value");
                let before = e.clone();
                join(e, got);
                changed |= *e != before;
            }
        }
        if !changed {
            return values;
        }
    }
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

fn eval(values: &BTreeMap<Var, Values>, t: usize, s: &Source) -> Values {
    let of = |o: Operand| operand_values(values, t, o);
    match *s {
        Source::Const(c) => Some(BTreeSet::from([c])),
        Source::Read(ref locs) => {
            let mut out = Some(BTreeSet::new());
            for l in locs {
                join(&mut out, values[&Var::Loc(*l)].clone());
            }
            out
        }
        Source::Arith(None, a, _) => of(a),
        Source::Arith(Some(op), a, b) => {
            // Exact on one register: `r - r` and `r ^ r` are 0 whatever r holds, `r * 0`
            // and `r & 0` too (herd's fake dependencies).
            let zero = Some(BTreeSet::from([0]));
            match (op, a, b) {
                (ArithOp::Sub | ArithOp::Xor, Operand::Reg(x), Operand::Reg(y)) if x == y => {
                    return zero
                }
                (ArithOp::Mul | ArithOp::And, _, Operand::Imm(0))
                | (ArithOp::Mul | ArithOp::And, Operand::Imm(0), _) => return zero,
                _ => {}
            }
            product(op, &of(a)?, &of(b)?)
        }
        Source::Rmw(op, l, o) => product(op, values[&Var::Loc(l)].as_ref()?, &of(o)?),
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
fn on_cycles(sources: &BTreeMap<Var, Vec<(usize, Source)>>) -> Vec<Var> {
    let deps = |v: &Var| -> Vec<Var> {
        let mut out = Vec::new();
        for (t, s) in sources.get(v).map(Vec::as_slice).unwrap_or(&[]) {
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
