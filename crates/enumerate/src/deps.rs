//! The syntactic dependencies of a path combination (the `addr`, `data` and `ctrl` bases,
//! [`vkherd_model::BaseValue::Dep`]; PTX's No-Thin-Air axiom `acyclic rf | dep`),
//! computed only when the model reads them (`Engine::reads_dependencies`).
//!
//! Each thread's path is run forward over register *taints*: the set of read events whose
//! values a register's value is computed from. A read (a load, an RMW, a failed
//! compare-and-swap) taints its destination registers with itself; moves and arithmetic
//! taint their destination with the union of their operands' taints; a conditional jump
//! adds its operands' taints to the thread's control taint, which every later event of
//! the path carries. Then `data` = (r, e) for r in the taint of e's value operands (the
//! value a store or RMW writes, a compare-and-swap's expected value), `addr` = (r, e) for
//! r in the taint of the index of e's register-dependent address
//! ([`vkherd_model::Address`]), and `ctrl` = (r, e) for r in the control taint at e. The
//! jumps that choose such an access's location (marked `address`) add nothing to the
//! control taint: herd's address dependency orders the access, not what follows it.
//! Syntactic: `mul r1, r0, 0` still depends on r0. All three are contained in `po` (a
//! taint only holds earlier reads of the thread).

use crate::combine::Layout;
use crate::paths::{Path, Step};
use vkherd_model::{Instruction, Operand, Program, Rel};

/// The syntactic dependencies of one path combination.
pub struct Dependencies {
    pub addr: Rel,
    pub data: Rel,
    pub ctrl: Rel,
}

/// `addr`, `data` and `ctrl` of the laid-out path combination.
pub fn dependencies(program: &Program, paths: &[&Path], lay: &Layout) -> Dependencies {
    let n = lay.events.len();
    let mut addr = Rel::empty(n);
    let mut data = Rel::empty(n);
    let mut ctrl = Rel::empty(n);
    for (t, path) in paths.iter().enumerate() {
        let code = &program.threads[t].code;
        // taint[reg]: the read events the register's value depends on.
        let mut taint: Vec<Vec<usize>> = Vec::new();
        let mut control: Vec<usize> = Vec::new();
        let get = |taint: &Vec<Vec<usize>>, o: &Operand| -> Vec<usize> {
            match *o {
                Operand::Reg(r) => taint.get(r as usize).cloned().unwrap_or_default(),
                Operand::Imm(_) => Vec::new(),
            }
        };
        let set = |taint: &mut Vec<Vec<usize>>, r: u32, mut v: Vec<usize>| {
            v.sort_unstable();
            v.dedup();
            if taint.len() <= r as usize {
                taint.resize(r as usize + 1, Vec::new());
            }
            taint[r as usize] = v;
        };
        for (k, step) in path.steps.iter().enumerate() {
            let index = match *step {
                Step::Exec(i) | Step::Cas { index: i, .. } => i,
                Step::Jump { index, .. } => index,
            };
            match &code[index] {
                Instruction::Access(a) => {
                    let Some(e) = lay.step_events[t][k] else {
                        continue;
                    };
                    let mut from = a.value.as_ref().map_or(Vec::new(), |v| get(&taint, v));
                    if let Some(c) = &a.cas {
                        from.extend(get(&taint, &c.expected));
                    }
                    for r in from {
                        data.insert(r, e);
                    }
                    if let Some(address) = &a.address {
                        for r in get(&taint, &address.index) {
                            addr.insert(r, e);
                        }
                    }
                    for &r in &control {
                        ctrl.insert(r, e);
                    }
                    if lay.events[e].flags.has(vkherd_model::Flags::R) {
                        if let Some(d) = a.dst {
                            set(&mut taint, d, vec![e]);
                        }
                        if let Some(d) = a.cas.as_ref().and_then(|c| c.success_dst) {
                            set(&mut taint, d, vec![e]);
                        }
                    }
                }
                Instruction::Arith { dst, a, b, .. } => {
                    let mut v = get(&taint, a);
                    v.extend(get(&taint, b));
                    set(&mut taint, *dst, v);
                }
                Instruction::Jump { cond, address, .. } => {
                    if let (Some((_, a, b)), false) = (cond, address) {
                        control.extend(get(&taint, a));
                        control.extend(get(&taint, b));
                        control.sort_unstable();
                        control.dedup();
                    }
                }
            }
        }
    }
    Dependencies { addr, data, ctrl }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combine::layout;
    use crate::paths::{thread_paths, PathLimits};

    /// Every path combination's `data` and `ctrl` for a PTX test, as (read, event) pairs
    /// of (thread, instruction) per combination.
    type Pairs = Vec<(usize, usize)>;

    /// `addr` and `ctrl` of every path of a one-thread PTX test, as (read, event) pairs of
    /// lowered instruction indices.
    fn addr_ctrl_of(src: &str) -> Vec<(Pairs, Pairs)> {
        let p = vkherd_dialects::ptx::lower_ptx(&vkherd_dialects::ptx::parse_ptx(src).unwrap())
            .unwrap();
        let paths = thread_paths(&p.threads[0], 0, 1, PathLimits::default())
            .unwrap()
            .paths;
        let mut out = Vec::new();
        for a in &paths {
            let combo = vec![a];
            let lay = layout(&p, &combo);
            let d = dependencies(&p, &combo, &lay);
            let name = |e: usize| lay.events[e].instr;
            out.push((
                d.addr.pairs().map(|(a, b)| (name(a), name(b))).collect(),
                d.ctrl.pairs().map(|(a, b)| (name(a), name(b))).collect(),
            ));
        }
        out
    }

    /// `[r0]` where r0 is read from y, which holds &z or &x: the access becomes a chain of
    /// address jumps, one path per address. On every path the load through r0 depends on
    /// the read of y by address, and neither it nor the store after it depends on that
    /// read by control: the chain's jumps are not branches of the program.
    #[test]
    fn an_address_chain_makes_addr_not_ctrl() {
        let src = "PTX A\n{ x = 0; z = 0; y = &z; P0:r3 = &x; }\n P0@cta 0,gpu 0 ;\n \
            st.weak y, r3 ;\n ld.weak r0, y ;\n ld.weak r1, [r0] ;\n st.weak x, 2 ;\n\
            exists (P0:r1 == 0)\n";
        let all = addr_ctrl_of(src);
        assert_eq!(all.len(), 2, "one path per address y may hold");
        for (addr, ctrl) in &all {
            // Lowered: 0 st y; 1 ld y; 2 beq r0, &x-or-&z; 3 ld [r0]; 4 goto; 5 ld [r0]; 6 st x.
            assert_eq!(addr.len(), 1, "{addr:?}");
            let (r, e) = addr[0];
            assert_eq!(r, 1, "from the read of y");
            assert!(e == 3 || e == 5, "to the load through r0: {addr:?}");
            assert!(ctrl.is_empty(), "address jumps make no ctrl: {ctrl:?}");
        }
    }

    fn deps_of(src: &str) -> Vec<(Pairs, Pairs)> {
        let p = vkherd_dialects::ptx::lower_ptx(&vkherd_dialects::ptx::parse_ptx(src).unwrap())
            .unwrap();
        let per: Vec<Vec<Path>> = (0..p.threads.len())
            .map(|t| {
                thread_paths(&p.threads[t], t, 1, PathLimits::default())
                    .unwrap()
                    .paths
            })
            .collect();
        let mut out = Vec::new();
        for a in &per[0] {
            let combo = vec![a];
            let lay = layout(&p, &combo);
            let d = dependencies(&p, &combo, &lay);
            assert!(d.addr.pairs().next().is_none(), "PTX names locations");
            let name = |e: usize| lay.events[e].instr;
            out.push((
                d.data.pairs().map(|(a, b)| (name(a), name(b))).collect(),
                d.ctrl.pairs().map(|(a, b)| (name(a), name(b))).collect(),
            ));
        }
        out
    }

    /// Data flows through moves and arithmetic (syntactically: `mul r2, r1, 0` still
    /// depends on r1); control from a branch reaches every later event of the path, on
    /// both ways of the branch; a register overwritten by a constant depends on nothing.
    #[test]
    fn data_through_arithmetic_and_ctrl_after_branches() {
        let src = "PTX D\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n \
            add r1, r0, 1 ;\n mul r2, r1, 0 ;\n st.weak y, r2 ;\n ld r0, 5 ;\n st.weak y, r0 ;\n \
            ld.weak r3, y ;\n beq r3, 0, LC01 ;\n fence.sc.gpu ;\n LC01: ;\n st.weak x, 1 ;\nexists (x == 0)\n";
        let all = deps_of(src);
        assert_eq!(all.len(), 2, "two paths: the branch taken or not");
        for (data, ctrl) in &all {
            // ld x (instr 0) -> st y, r2 (instr 3); the st y, r0 after `ld r0, 5` has none.
            assert_eq!(data, &vec![(0, 3)]);
            // ld y (instr 6) -> every event after the branch (instr 7).
            assert!(ctrl.iter().all(|&(r, e)| r == 6 && e > 7));
            assert!(ctrl.contains(&(6, 9)), "{ctrl:?}");
        }
    }
}
