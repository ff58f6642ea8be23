//! PTX → Vulkan (docs/ptx.md, "Vulkan ↔ PTX mapping"): the reverse of the compilation
//! mapping, for `vkherd diff` on PTX tests.
//!
//! | PTX | Vulkan |
//! |---|---|
//! | placement `cta, gpu` | `sg` = the thread's number (its own subgroup), `wg` = cta, `qf` = gpu |
//! | `.cta` / `.gpu` / `.sys` | `wg` / `qf` / `dv` |
//! | `ld.weak` / `st.weak` | `ld.nonpriv.sc0` / `st.nonpriv.sc0` |
//! | `ld.relaxed.S` / `ld.acquire.S` | `ld.atom.S.sc0` / `ld.atom.acq.S.sc0.semsc0.semvis` |
//! | `st.relaxed.S` / `st.release.S` | `st.atom.S.sc0` / `st.atom.rel.S.sc0.semsc0.semav` |
//! | `atom.ORDER.S.OP`, `red.ORDER.S.OP` | `rmw.atom[.acq][.rel].S.sc0[.semsc0][.semav][.semvis].OP` (`red`: a register no one reads) |
//! | `fence.acq_rel.S` | `membar.acq_rel.S.semsc0.semav.semvis` |
//! | `bar.cta.sync N[, ID]` | `cbar.acq_rel.wg.semsc0.semav.semvis N[, ID]` |
//!
//! Every location is in storage class 0. Refused: `fence.sc` (Vulkan has no sequentially
//! consistent fence), the other proxies and their fences (`suld`, `sust`, `tld`, `cold`,
//! `fence.proxy.*`), `atom.cas`, `bar.cta.arrive`, barriers with a thread count or an ID
//! chosen by a register.

use super::{loc, operand, rebuilt, refuse, rewrite, Mapped};
use crate::ptx::{ARRIVE, CON, FALIAS, FCON, FGEN, FSUR, FTEX, PTX_SC, SUR, TEX};
use crate::vulkan::ast::{MemAttrs, Scope};
use crate::vulkan::lower::flags_of;
use crate::vulkan::VULKAN;
use vkherd_litmus::{ArithOp, Diagnostic, Span};
use vkherd_model::{Access, AccessKind, Flags, Instruction, Program, Translated};

fn no(span: Span, construct: &str, why: &str) -> Diagnostic {
    refuse(span, "PTX", "Vulkan", construct, why)
}

fn scope(f: Flags) -> Option<(Scope, &'static str)> {
    if f.has(Flags::SCOPEWG) {
        Some((Scope::Workgroup, "wg"))
    } else if f.has(Flags::SCOPEQF) {
        Some((Scope::QueueFamily, "qf"))
    } else if f.has(Flags::SCOPEDEV) {
        Some((Scope::Device, "dv"))
    } else {
        None
    }
}

/// The Vulkan attributes of a strong access or fence: atomic (not for fences), scope,
/// storage class 0, and availability / visibility in its release / acquire semantics.
fn strong(f: Flags, atomic: bool) -> (MemAttrs, String) {
    let (acq, rel) = (f.has(Flags::ACQ), f.has(Flags::REL));
    let (s, w) = scope(f).expect("a strong access has a scope");
    let attrs = MemAttrs {
        atomic,
        acq,
        rel,
        scope: Some(s),
        storage_class: atomic.then_some(0),
        semsc: u8::from(acq || rel),
        semav: rel,
        semvis: acq,
        ..MemAttrs::default()
    };
    let mut text = String::new();
    if atomic {
        text.push_str(".atom");
    }
    text.push_str(match (acq, rel) {
        (true, true) => ".acq_rel",
        (true, false) => ".acq",
        (false, true) => ".rel",
        (false, false) => "",
    });
    text.push_str(&format!(".{w}"));
    if atomic {
        text.push_str(".sc0");
    }
    if acq || rel {
        text.push_str(".semsc0");
    }
    if rel {
        text.push_str(".semav");
    }
    if acq {
        text.push_str(".semvis");
    }
    (attrs, text)
}

fn weak() -> MemAttrs {
    MemAttrs {
        nonpriv: true,
        storage_class: Some(0),
        ..MemAttrs::default()
    }
}

fn with(a: &Access, kind: AccessKind, attrs: &MemAttrs) -> Access {
    Access {
        kind,
        flags: flags_of(kind, attrs),
        cas: None,
        ..a.clone()
    }
}

fn rmw_word(op: Option<ArithOp>) -> String {
    op.map_or_else(String::new, |o| {
        format!(".{}", format!("{o:?}").to_lowercase())
    })
}

/// `fresh`: a register of the thread no instruction uses (for `red`, which has none).
fn access(p: &Program, a: &Access, fresh: u32) -> Result<Mapped, Diagnostic> {
    let f = a.flags;
    for (flag, what) in [
        (SUR, "a surface access (`suld`, `sust`, `suatom`, `sured`)"),
        (TEX, "a texture access (`tld`)"),
        (CON, "a constant-proxy access (`cold`)"),
        (FGEN | FSUR | FTEX | FCON, "a proxy fence (`fence.proxy.*`)"),
        (FALIAS, "an alias proxy fence (`fence.proxy.alias`)"),
    ] {
        if f.any(flag) {
            return Err(no(
                a.span,
                what,
                "has no Vulkan counterpart: Vulkan has one proxy",
            ));
        }
    }
    let at = loc(p, a);
    let dst = a.dst.map_or_else(String::new, |r| format!("r{r}"));
    let value = a.value.as_ref().map_or_else(String::new, operand);
    let one = |acc: Access, text: String| Mapped {
        accesses: vec![acc],
        text,
    };
    let is_strong = scope(f).is_some();
    Ok(match a.kind {
        AccessKind::Load if is_strong => {
            let (attrs, t) = strong(f, true);
            one(
                with(a, AccessKind::Load, &attrs),
                format!("ld{t} {dst}, {at}"),
            )
        }
        AccessKind::Load => one(
            with(a, AccessKind::Load, &weak()),
            format!("ld.nonpriv.sc0 {dst}, {at}"),
        ),
        AccessKind::Store if is_strong => {
            let (attrs, t) = strong(f, true);
            one(
                with(a, AccessKind::Store, &attrs),
                format!("st{t} {at}, {value}"),
            )
        }
        AccessKind::Store => one(
            with(a, AccessKind::Store, &weak()),
            format!("st.nonpriv.sc0 {at}, {value}"),
        ),
        AccessKind::Rmw => {
            if a.cas.is_some() {
                return Err(no(a.span, "a compare-and-swap (`atom.cas`)", "has no Vulkan counterpart in vkherd's Vulkan dialect (rmw has exchange and arithmetic)"));
            }
            let (attrs, t) = strong(f, true);
            let mut acc = with(a, AccessKind::Rmw, &attrs);
            let reg = acc.dst.get_or_insert(fresh);
            let text = format!("rmw{t}{} r{reg}, {at}, {value}", rmw_word(a.rmw_op));
            one(acc, text)
        }
        AccessKind::Fence if f.has(PTX_SC) => {
            return Err(no(
                a.span,
                "`fence.sc`",
                "has no Vulkan counterpart: Vulkan has no sequentially consistent fence",
            ))
        }
        AccessKind::Fence => {
            let (attrs, t) = strong(f, false);
            one(with(a, AccessKind::Fence, &attrs), format!("membar{t}"))
        }
        AccessKind::Cbar => {
            let b = a.barrier.as_ref().expect("a barrier");
            if f.has(ARRIVE) {
                return Err(no(
                    a.span,
                    "`bar.cta.arrive`",
                    "has no Vulkan counterpart: every Vulkan control barrier waits",
                ));
            }
            if b.quorum.is_some() {
                return Err(no(
                    a.span,
                    "a barrier with a thread count",
                    "has no Vulkan counterpart (a Vulkan quorum is not a thread count)",
                ));
            }
            let attrs = MemAttrs {
                acq: true,
                rel: true,
                scope: Some(Scope::Workgroup),
                semsc: 1,
                semav: true,
                semvis: true,
                ..MemAttrs::default()
            };
            let id = b.id.as_ref().map_or_else(String::new, |i| format!(", {i}"));
            let text = format!("cbar.acq_rel.wg.semsc0.semav.semvis {}{id}", b.instance);
            one(with(a, AccessKind::Cbar, &attrs), text)
        }
        AccessKind::AvDevice | AccessKind::VisDevice => {
            unreachable!("PTX tests have no device-domain operations")
        }
    })
}

/// A barrier whose ID a register chooses: the lowering made it jumps with the
/// barrier's own place (`Lowering::barrier`).
fn register_barrier(p: &Program) -> Option<Span> {
    p.threads.iter().find_map(|th| {
        th.code.iter().find_map(|i| match i {
            Instruction::Access(a) if a.kind == AccessKind::Cbar => th
                .code
                .iter()
                .any(|j| matches!(j, Instruction::Jump { span, .. } if *span == a.span))
                .then_some(a.span),
            _ => None,
        })
    })
}

/// The first register number no instruction or init of thread `t` names.
fn fresh_register(p: &Program, t: usize) -> u32 {
    let th = &p.threads[t];
    let mut max = th.init_regs.iter().map(|&(r, _)| r + 1).max().unwrap_or(0);
    let mut see = |o: &vkherd_litmus::Operand| {
        if let vkherd_litmus::Operand::Reg(r) = o {
            max = max.max(r + 1);
        }
    };
    for i in &th.code {
        match i {
            Instruction::Access(a) => {
                if let Some(r) = a.dst {
                    see(&vkherd_litmus::Operand::Reg(r));
                }
                a.value.iter().for_each(&mut see);
            }
            Instruction::Arith { dst, a, b, .. } => {
                see(&vkherd_litmus::Operand::Reg(*dst));
                see(a);
                see(b);
            }
            Instruction::Jump { cond, .. } => {
                if let Some((_, a, b)) = cond {
                    see(a);
                    see(b);
                }
            }
        }
    }
    max
}

pub(super) fn translate(p: &Program) -> Result<Translated, Diagnostic> {
    if let Some(span) = register_barrier(p) {
        return Err(no(
            span,
            "a barrier whose ID is a register the thread writes",
            "has no Vulkan counterpart: a Vulkan barrier is named in the program text",
        ));
    }
    let (codes, steps) = rewrite(p, |t, a| access(p, a, fresh_register(p, t)))?;
    // PTX [cta, gpu] -> Vulkan [sg, wg, qf]: each thread its own subgroup (PTX has no
    // subgroups, and no translated instruction has subgroup scope).
    let program = rebuilt(p, &VULKAN, codes, |t, th| {
        let mut s = vec![t as u64];
        s.extend_from_slice(&th.scope);
        s
    });
    Ok(Translated { program, steps })
}
