//! Lowering of a parsed Khronos `.test` file to the same [`Program`] as `.litmus` tests
//! (khronos-test-format.md): variables are references, `SLOC` merges their locations,
//! values on loads pin reads-from, cbars meet by number across workgroups.

use super::ast::{KhronosInstr, KhronosOp, KhronosTest};
use crate::vulkan::lower::flags_of;
use std::collections::HashMap;
use vkherd_litmus::limits::MAX_LOCATIONS;
use vkherd_litmus::{Diagnostic, Operand};
use vkherd_model::*;

/// Lowers a parsed `.test` file. `name` is the test's name (its file stem).
pub fn lower_khronos(test: &KhronosTest, name: &str) -> Result<Program, Diagnostic> {
    // References: one per variable name, in order of first use; SLOC merges locations.
    let mut ref_names: Vec<String> = Vec::new();
    let mut by_name: HashMap<String, RefId> = HashMap::new();
    let mut intern = |v: &str, ref_names: &mut Vec<String>| -> RefId {
        *by_name.entry(v.to_string()).or_insert_with(|| {
            ref_names.push(v.to_string());
            ref_names.len() - 1
        })
    };
    let too_many = |span| {
        Diagnostic::new(
            span,
            format!(
                "too many variables: expected at most {MAX_LOCATIONS} variable names in a test"
            ),
        )
    };
    for t in &test.threads {
        for i in &t.instrs {
            if let Some(v) = &i.var {
                if intern(v, &mut ref_names) >= MAX_LOCATIONS {
                    return Err(too_many(i.span));
                }
            }
        }
    }
    let mut sloc_pairs = Vec::new();
    for s in &test.slocs {
        let (a, b) = &s.value;
        let pair = (intern(a, &mut ref_names), intern(b, &mut ref_names));
        if pair.0.max(pair.1) >= MAX_LOCATIONS {
            return Err(too_many(s.span));
        }
        sloc_pairs.push(pair);
    }
    // Union-find over references: each class is one location, named after its first member.
    let mut parent: Vec<usize> = (0..ref_names.len()).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    for (a, b) in sloc_pairs {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut locations = Vec::new();
    let mut loc_of_root: HashMap<usize, LocId> = HashMap::new();
    let mut references = Vec::new();
    for (r, name) in ref_names.iter().enumerate() {
        let root = find(&mut parent, r);
        let loc = *loc_of_root.entry(root).or_insert_with(|| {
            locations.push(Location {
                name: ref_names[root].clone(),
                init: 0,
            });
            locations.len() - 1
        });
        references.push(Reference {
            name: name.clone(),
            location: loc,
        });
    }

    let mut threads = Vec::with_capacity(test.threads.len());
    for t in &test.threads {
        let mut code = Vec::with_capacity(t.instrs.len());
        for i in &t.instrs {
            code.push(Instruction::Access(lower_instr(test, i, &by_name)));
        }
        threads.push(Thread {
            scope: vec![t.sg, t.wg, t.qf],
            code,
            init_regs: Vec::new(),
        });
    }

    let mut ssw = Vec::new();
    let mut seen_ssw = std::collections::HashSet::new();
    for s in &test.ssw {
        let (i, j) = s.value;
        let index = |n: u64| test.threads.iter().position(|t| t.number == n);
        match (index(i), index(j)) {
            // A set: repeating a pair changes nothing (and must not cost anything).
            (Some(a), Some(b)) => {
                if seen_ssw.insert((a, b)) {
                    ssw.push((a, b));
                }
            }
            _ => {
                let numbers: Vec<String> =
                    test.threads.iter().map(|t| t.number.to_string()).collect();
                return Err(Diagnostic::new(
                    s.span,
                    format!(
                        "`SSW {i} {j}` names a thread the test does not have: its threads are {}",
                        numbers.join(", ")
                    ),
                ));
            }
        }
    }

    Ok(Program {
        dialect: &crate::vulkan::VULKAN,
        name: name.to_string(),
        description: String::new(),
        threads,
        locations,
        references,
        ssw,
        cbar_rule: CbarRule::SameNumber,
        observed: Vec::new(),
        filter: None,
        condition: None,
        constants: Vec::new(),
        reg_names: Default::default(),
        warnings: Vec::new(),
    })
}

/// The value an instruction writes (stores: its value; RMWs: the second value).
fn written_value(i: &KhronosInstr) -> Option<i64> {
    match i.op {
        KhronosOp::Store => i.values.first().copied(),
        KhronosOp::Rmw => i.values.get(1).copied(),
        _ => None,
    }
}

fn lower_instr(test: &KhronosTest, i: &KhronosInstr, by_name: &HashMap<String, RefId>) -> Access {
    let kind = match i.op {
        KhronosOp::Load => AccessKind::Load,
        KhronosOp::Store => AccessKind::Store,
        KhronosOp::Rmw => AccessKind::Rmw,
        KhronosOp::Membar => AccessKind::Fence,
        KhronosOp::Cbar => AccessKind::Cbar,
        KhronosOp::AvDevice => AccessKind::AvDevice,
        KhronosOp::VisDevice => AccessKind::VisDevice,
    };
    // The value read, which pins rf: a load's value, an RMW's first value.
    let read_value = match i.op {
        KhronosOp::Load | KhronosOp::Rmw => i.values.first().copied(),
        _ => None,
    };
    let pin = read_value.and_then(|v| pin_for(test, i, v));
    Access {
        kind,
        flags: flags_of(kind, &i.attrs),
        reference: i.var.as_ref().map(|v| by_name[v]),
        dst: None,
        value: written_value(i).map(Operand::Imm),
        rmw_op: None,
        barrier: i.instance.map(|n| BarrierName {
            instance: n.to_string(),
            id: None,
            quorum: None,
        }),
        pin,
        cas: None,
        // Khronos `.test` files have no tags.
        mmra: MmraTags::default(),
        address: None,
        span: i.span,
    }
}

/// Where a read of value `v` is pinned: `= 0` reads the initial value; otherwise the one
/// write to the same variable name that writes v; none matching leaves the read
/// unconstrained; two matching leave no execution.
/// An RMW whose own written value matches is pinned to itself, which rf (irreflexive)
/// cannot satisfy: no execution, as in the reference.
fn pin_for(test: &KhronosTest, read: &KhronosInstr, v: i64) -> Option<Pin> {
    if v == 0 {
        return Some(Pin::Init);
    }
    let mut matches = Vec::new();
    for (t, th) in test.threads.iter().enumerate() {
        for (index, w) in th.instrs.iter().enumerate() {
            if w.var == read.var && written_value(w) == Some(v) {
                matches.push(Pin::Write { thread: t, index });
            }
        }
    }
    match matches.len() {
        0 => None,
        1 => Some(matches[0]),
        _ => Some(Pin::Impossible),
    }
}
