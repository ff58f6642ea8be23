//! Lowering of a parsed `.litmus` test to a [`Program`]: names resolved, implicit facts
//! applied, semantic errors reported with spans.

use super::VULKAN;
use crate::vulkan::ast::{self, Instr, LitmusTest, MemAttrs, Scope};
use std::collections::{BTreeSet, HashMap};
use vkherd_litmus::limits::MAX_QUORUM_CHOICE_BITS;
use vkherd_litmus::{Diagnostic, Operand, Span};
use vkherd_model::lowering::{lower_init, resolve_finals, Names};
use vkherd_model::Flags;
use vkherd_model::*;

/// The Alloy sets an access with attributes `a` belongs to, implicit facts applied:
/// `A in NONPRIV`, `(W&A) in AV`, `(R&A) in VIS`, av/vis imply non-private
/// (litmus-format.md), and an acq/rel cbar is also a fence (semantics.md "Events").
pub fn flags_of(kind: AccessKind, a: &MemAttrs) -> Flags {
    let mut f = match kind {
        AccessKind::Load => Flags::R,
        AccessKind::Store => Flags::W,
        AccessKind::Rmw => Flags::R | Flags::W | Flags::A,
        AccessKind::Fence => Flags::F,
        AccessKind::Cbar => Flags::CBAR,
        AccessKind::AvDevice => return Flags::AVDEVICE,
        AccessKind::VisDevice => return Flags::VISDEVICE,
    };
    if a.atomic {
        f |= Flags::A | Flags::NONPRIV;
        if f.has(Flags::W) {
            f |= Flags::AV;
        }
        if f.has(Flags::R) {
            f |= Flags::VIS;
        }
    }
    if a.acq {
        f |= Flags::ACQ;
    }
    if a.rel {
        f |= Flags::REL;
    }
    if kind == AccessKind::Cbar && (a.acq || a.rel) {
        f |= Flags::F;
    }
    if let Some(sc) = a.storage_class {
        f |= Flags::sc(sc);
    }
    for i in 0..ast::MAX_STORAGE_CLASSES {
        if a.semsc & (1 << i) != 0 {
            f |= Flags::semsc(i);
        }
    }
    if a.semav {
        f |= Flags::SEMAV;
    }
    if a.semvis {
        f |= Flags::SEMVIS;
    }
    if a.av {
        f |= Flags::AV | Flags::NONPRIV;
    }
    if a.vis {
        f |= Flags::VIS | Flags::NONPRIV;
    }
    if a.nonpriv {
        f |= Flags::NONPRIV;
    }
    f |= match a.scope {
        Some(Scope::Subgroup) => Flags::SCOPESG,
        Some(Scope::Workgroup) => Flags::SCOPEWG,
        Some(Scope::QueueFamily) => Flags::SCOPEQF,
        Some(Scope::Device) => Flags::SCOPEDEV,
        None => Flags::NONE,
    };
    f
}

/// Lowers a parsed `.litmus` test.
pub fn lower_litmus(test: &LitmusTest) -> Result<Program, Diagnostic> {
    let nthreads = test.threads.len();
    let mut names = Names::default();
    let mut init_regs: Vec<Vec<(u32, i64)>> = vec![Vec::new(); nthreads];
    let mut constants = BTreeSet::new();
    lower_init(&test.init, &mut names, &mut init_regs, &mut constants)?;

    let mut threads = Vec::with_capacity(nthreads);
    let mut regs_used: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); nthreads];
    for (t, header) in test.threads.iter().enumerate() {
        let code = lower_code(&test.code[t], &mut names, &mut regs_used[t], &mut constants)?;
        regs_used[t].extend(init_regs[t].iter().map(|&(r, _)| r));
        threads.push(Thread {
            scope: vec![header.sg, header.wg, header.qf],
            code,
            init_regs: std::mem::take(&mut init_regs[t]),
        });
    }

    let mut ssw = Vec::new();
    let mut seen_ssw = std::collections::HashSet::new();
    for s in &test.ssw {
        let (i, j) = s.value;
        if i >= nthreads || j >= nthreads {
            return Err(Diagnostic::new(
                s.span,
                format!("`ssw {i} {j}` names a thread the test does not have: expected thread numbers from 0 to {}", nthreads.saturating_sub(1)),
            ));
        }
        // A set: repeating a pair changes nothing (and must not cost anything).
        if seen_ssw.insert((i, j)) {
            ssw.push((i, j));
        }
    }

    let finals = resolve_finals(
        &test.locations,
        test.filter.as_ref(),
        test.condition.as_ref(),
        &mut names,
        &regs_used,
        &mut constants,
    )?;

    check_barriers(&threads)?;

    let mut program = Program {
        dialect: &crate::vulkan::VULKAN,
        name: test.name.clone(),
        description: test.description.clone(),
        threads,
        locations: names.locations,
        references: names.references,
        ssw,
        cbar_rule: CbarRule::Workgroup,
        observed: finals.observed,
        filter: finals.filter,
        condition: finals.condition,
        constants: constants.into_iter().collect(),
        reg_names: Default::default(),
        warnings: Vec::new(),
    };
    addresses::resolve(&mut program)?;
    Ok(program)
}

fn operand(o: Operand, regs: &mut BTreeSet<u32>, constants: &mut BTreeSet<i64>) -> Operand {
    match o {
        Operand::Reg(r) => {
            regs.insert(r);
        }
        Operand::Imm(v) => {
            constants.insert(v);
        }
    }
    o
}

/// The reference of a location operand, or for `x+rK` the address whose index chooses
/// it: a location is one cell, index 0 (resolved by `addresses::resolve`).
fn place(
    loc: &ast::Loc,
    names: &mut Names,
    regs: &mut BTreeSet<u32>,
    constants: &mut BTreeSet<i64>,
    span: Span,
) -> Result<(Option<RefId>, Option<Box<Address>>), Diagnostic> {
    let r = names.reference(&loc.name, span)?;
    let Some(index) = loc.index else {
        return Ok((Some(r), None));
    };
    let address = Address {
        index: operand(index, regs, constants),
        targets: vec![(0, r)],
        text: loc.text.clone(),
    };
    Ok((None, Some(Box::new(address))))
}

fn lower_code(
    code: &[ast::Spanned<Instr>],
    names: &mut Names,
    regs: &mut BTreeSet<u32>,
    constants: &mut BTreeSet<i64>,
) -> Result<Vec<Instruction>, Diagnostic> {
    // Labels mark the index of the next real instruction.
    let mut labels: HashMap<&str, usize> = HashMap::new();
    let mut index = 0;
    for i in code {
        if let Instr::Label(l) = &i.value {
            if labels.insert(l, index).is_some() {
                return Err(Diagnostic::new(
                    i.span,
                    format!("label `{l}` is defined twice in this thread: expected unique labels"),
                ));
            }
        } else {
            index += 1;
        }
    }
    let target = |l: &str, span: Span| {
        labels.get(l).copied().ok_or_else(|| {
            Diagnostic::new(
                span,
                format!("jump to unknown label `{l}`: expected a label of this thread"),
            )
        })
    };
    let mut out = Vec::new();
    for i in code {
        let span = i.span;
        let access = |kind, attrs: &MemAttrs| Access {
            kind,
            flags: flags_of(kind, attrs),
            reference: None,
            dst: None,
            value: None,
            rmw_op: None,
            barrier: None,
            pin: None,
            cas: None,
            mmra: attrs.mmra.clone(),
            address: None,
            span,
        };
        let lowered = match &i.value {
            Instr::Label(_) => continue,
            Instr::Load { attrs, dst, loc } => {
                regs.insert(*dst);
                let (reference, address) = place(loc, names, regs, constants, span)?;
                Instruction::Access(Access {
                    reference,
                    address,
                    dst: Some(*dst),
                    ..access(AccessKind::Load, attrs)
                })
            }
            Instr::Store { attrs, loc, value } => {
                let (reference, address) = place(loc, names, regs, constants, span)?;
                Instruction::Access(Access {
                    reference,
                    address,
                    value: Some(operand(*value, regs, constants)),
                    ..access(AccessKind::Store, attrs)
                })
            }
            Instr::Rmw {
                attrs,
                op,
                dst,
                loc,
                value,
            } => {
                regs.insert(*dst);
                let (reference, address) = place(loc, names, regs, constants, span)?;
                Instruction::Access(Access {
                    reference,
                    address,
                    dst: Some(*dst),
                    value: Some(operand(*value, regs, constants)),
                    rmw_op: *op,
                    ..access(AccessKind::Rmw, attrs)
                })
            }
            Instr::Membar { attrs } => Instruction::Access(access(AccessKind::Fence, attrs)),
            Instr::Cbar {
                attrs,
                instance,
                id,
                quorum,
            } => {
                if quorum.is_some() && id.is_none() {
                    return Err(Diagnostic::new(
                        span,
                        "a quorum needs a barrier ID: expected `cbar... N, ID, QUORUM`",
                    ));
                }
                if *quorum == Some(0) {
                    return Err(Diagnostic::new(
                        span,
                        "quorum 0: expected a quorum of at least 1",
                    ));
                }
                Instruction::Access(Access {
                    barrier: Some(BarrierName {
                        instance: instance.clone(),
                        id: id.clone(),
                        quorum: *quorum,
                    }),
                    ..access(AccessKind::Cbar, attrs)
                })
            }
            Instr::AvDevice => {
                Instruction::Access(access(AccessKind::AvDevice, &MemAttrs::default()))
            }
            Instr::VisDevice => {
                Instruction::Access(access(AccessKind::VisDevice, &MemAttrs::default()))
            }
            Instr::Arith { op, dst, a, b } => {
                regs.insert(*dst);
                Instruction::Arith {
                    op: *op,
                    dst: *dst,
                    a: operand(*a, regs, constants),
                    b: operand(*b, regs, constants),
                    span,
                }
            }
            Instr::Goto(l) => Instruction::Jump {
                cond: None,
                target: target(l, span)?,
                address: false,
                span,
            },
            Instr::Branch {
                cmp,
                a,
                b,
                target: l,
            } => Instruction::Jump {
                cond: Some((
                    *cmp,
                    operand(*a, regs, constants),
                    operand(*b, regs, constants),
                )),
                target: target(l, span)?,
                address: false,
                span,
            },
        };
        out.push(lowered);
    }
    Ok(out)
}

/// The static instance rules of control-barriers.md: within one workgroup, all cbars of a
/// barrier (N, ID) have the same scope, acquire/release and semsc (Alloy: `no scbarinst &
/// (SCOPEDEV -> (EV-SCOPEDEV))` ...), and the same quorum.
fn check_barriers(threads: &[Thread]) -> Result<(), Diagnostic> {
    // (workgroup, N, ID) -> the first cbar of that barrier and its thread.
    type BarrierKey<'a> = (&'a [u64], &'a str, Option<&'a str>);
    let mut first: HashMap<BarrierKey<'_>, (&Access, usize)> = HashMap::new();
    // Barriers with a quorum -> how many of their cbars each thread's code has.
    let mut quorum_cbars: HashMap<BarrierKey<'_>, HashMap<usize, usize>> = HashMap::new();
    for (t, th) in threads.iter().enumerate() {
        for i in &th.code {
            let Instruction::Access(a) = i else { continue };
            let Some(b) = &a.barrier else { continue };
            let key = (
                th.instance(VULKAN.barrier_level),
                b.instance.as_str(),
                b.id.as_deref(),
            );
            if b.quorum.is_some() {
                *quorum_cbars.entry(key).or_default().entry(t).or_default() += 1;
                // Each instance chooses a quorum set among its members, and the choices of
                // all instances multiply: 2^(members x instances) summed over barriers.
                let bits: usize = quorum_cbars
                    .values()
                    .map(|per_thread| per_thread.len() * per_thread.values().max().unwrap_or(&0))
                    .sum();
                if bits > MAX_QUORUM_CHOICE_BITS {
                    let members = quorum_cbars[&key].len();
                    return Err(Diagnostic::new(a.span, format!(
                        "too many quorum-set choices: with this cbar (barrier N {}, ID {}, now in {members} invocations), the barriers with a quorum can choose their quorum sets in up to 2^{bits} ways (invocations at a barrier times its cbars per invocation, summed over barriers), expected at most 2^{MAX_QUORUM_CHOICE_BITS}: use fewer invocations or fewer cbars with a quorum",
                        b.instance, b.id.as_deref().unwrap_or("none"))));
                }
            }
            match first.get(&key) {
                None => {
                    first.insert(key, (a, t));
                }
                Some((f, ft)) => {
                    // Scope and semantics are checked per dynamic instance, where cbars
                    // meet (enumerate::combine::check_instances): one barrier may be used
                    // with different semantics at different instances.
                    let fb = f.barrier.as_ref().expect("barrier");
                    if fb.quorum != b.quorum {
                        return Err(Diagnostic::new(a.span, format!(
                            "this cbar and the one of P{ft} at line {} are one barrier but have different quorums: expected the same QUORUM on every cbar of a barrier",
                            f.span.line)));
                    }
                }
            }
        }
    }
    Ok(())
}
