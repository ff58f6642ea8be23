//! Vulkan → PTX (docs/ptx.md, "Vulkan ↔ PTX mapping"): the compilation mapping.
//!
//! | Vulkan | PTX |
//! |---|---|
//! | placement `sg, wg, qf` | `cta` = wg, `gpu` = qf (the subgroup is dropped) |
//! | scope `sg`, `wg` / `qf` / `dv` | `.cta` / `.gpu` / `.sys` |
//! | non-atomic `ld`/`st` (private, `nonpriv`, `av`, `vis`) | `ld.weak` / `st.weak` |
//! | `ld.atom` / `ld.atom.acq` | `ld.relaxed.S` / `ld.acquire.S` |
//! | `st.atom` / `st.atom.rel` | `st.relaxed.S` / `st.release.S` |
//! | `rmw.atom[.acq\|.rel\|.acq_rel][.OP]` | `atom.(relaxed\|acquire\|release\|acq_rel).S.(exch\|OP)` |
//! | `membar.(acq\|rel\|acq_rel).S` | `fence.acq_rel.S` |
//! | `cbar.wg N` (no semantics, or semantics at `sg`/`wg`) | `bar.cta.sync N` |
//! | `cbar.(acq\|rel\|acq_rel).S N`, S = `qf`/`dv` | `fence.acq_rel.S ; bar.cta.sync N ; fence.acq_rel.S` |
//! | storage classes, `semsc`, `semav`, `semvis` | dropped (PTX orders all of memory) |
//!
//! Every row keeps or strengthens what the Vulkan instruction orders (a wider scope, an
//! acq_rel fence for an acquire or release one, semantics over every storage class), so
//! the mapping is a candidate compilation; `vkherd distinguish vulkan ptx` checks it.
//! Refused: `avdevice`/`visdevice`, `ssw`, MMRA tags, quorum barriers, atomic min/max.

use super::{like, loc, operand, rebuilt, refuse, rewrite, Mapped};
use crate::ptx::{GEN, PTX};
use vkherd_litmus::{ArithOp, Diagnostic, Span};
use vkherd_model::{Access, AccessKind, Flags, Program, Translated};

fn no(span: Span, construct: &str, why: &str) -> Diagnostic {
    refuse(span, "Vulkan", "PTX", construct, why)
}

/// The PTX scope of a Vulkan scope flag, and its word.
fn scope(a: &Access) -> Result<(Flags, &'static str), Diagnostic> {
    let f = a.flags;
    if f.any(Flags::SCOPESG | Flags::SCOPEWG) {
        Ok((Flags::SCOPEWG, "cta"))
    } else if f.has(Flags::SCOPEQF) {
        Ok((Flags::SCOPEQF, "gpu"))
    } else if f.has(Flags::SCOPEDEV) {
        Ok((Flags::SCOPEDEV, "sys"))
    } else {
        Err(no(
            a.span,
            "an atomic or barrier without a scope",
            "has no PTX scope",
        ))
    }
}

fn rmw_word(op: Option<ArithOp>, span: Span) -> Result<&'static str, Diagnostic> {
    Ok(match op {
        None => "exch",
        Some(ArithOp::Add) => "add",
        Some(ArithOp::Sub) => "sub",
        Some(ArithOp::Mul) => "mul",
        Some(ArithOp::Div) => "div",
        Some(ArithOp::And) => "and",
        Some(ArithOp::Or) => "or",
        Some(ArithOp::Xor) => "xor",
        Some(ArithOp::Min | ArithOp::Max) => return Err(no(
            span,
            "an atomic min or max",
            "is not in vkherd's PTX dialect (atom has exch, cas, add, sub, mul, div, and, or, xor)",
        )),
    })
}

fn one(a: Access, text: String) -> Mapped {
    Mapped {
        accesses: vec![a],
        text,
    }
}

fn access(p: &Program, a: &Access) -> Result<Mapped, Diagnostic> {
    if !a.mmra.is_empty() {
        return Err(no(
            a.span,
            "an MMRA tag (`!mmra(...)`)",
            "has no PTX counterpart",
        ));
    }
    let f = a.flags;
    let (acq, rel) = (f.has(Flags::ACQ), f.has(Flags::REL));
    let atomic = f.has(Flags::A);
    let at = loc(p, a);
    let dst = a.dst.map_or_else(String::new, |r| format!("r{r}"));
    let value = a.value.as_ref().map_or_else(String::new, operand);
    Ok(match a.kind {
        AccessKind::Load if !atomic => one(
            like(a, AccessKind::Load, Flags::R | GEN),
            format!("ld.weak {dst}, {at}"),
        ),
        AccessKind::Load => {
            let (s, w) = scope(a)?;
            let (sem, word) = if acq {
                (Flags::ACQ, "acquire")
            } else {
                (Flags::NONE, "relaxed")
            };
            one(
                like(a, AccessKind::Load, Flags::R | GEN | s | sem),
                format!("ld.{word}.{w} {dst}, {at}"),
            )
        }
        AccessKind::Store if !atomic => one(
            like(a, AccessKind::Store, Flags::W | GEN),
            format!("st.weak {at}, {value}"),
        ),
        AccessKind::Store => {
            let (s, w) = scope(a)?;
            let (sem, word) = if rel {
                (Flags::REL, "release")
            } else {
                (Flags::NONE, "relaxed")
            };
            one(
                like(a, AccessKind::Store, Flags::W | GEN | s | sem),
                format!("st.{word}.{w} {at}, {value}"),
            )
        }
        AccessKind::Rmw => {
            let (s, w) = scope(a)?;
            let op = rmw_word(a.rmw_op, a.span)?;
            let (sem, word) = match (acq, rel) {
                (true, true) => (Flags::ACQ | Flags::REL, "acq_rel"),
                (true, false) => (Flags::ACQ, "acquire"),
                (false, true) => (Flags::REL, "release"),
                (false, false) => (Flags::NONE, "relaxed"),
            };
            one(
                like(a, AccessKind::Rmw, Flags::R | Flags::W | GEN | s | sem),
                format!("atom.{word}.{w}.{op} {dst}, {at}, {value}"),
            )
        }
        AccessKind::Fence => {
            if !(acq || rel) {
                return Err(no(a.span, "a membar without acq or rel", "orders nothing"));
            }
            let (s, w) = scope(a)?;
            one(fence(a, s), format!("fence.acq_rel.{w}"))
        }
        AccessKind::Cbar => barrier(a)?,
        AccessKind::AvDevice | AccessKind::VisDevice => {
            return Err(no(
                a.span,
                "`avdevice`/`visdevice` (availability or visibility to the device domain)",
                "has no PTX counterpart",
            ))
        }
    })
}

/// `fence.acq_rel` of scope `s`, at the place of `a`.
fn fence(a: &Access, s: Flags) -> Access {
    Access {
        reference: None,
        dst: None,
        value: None,
        rmw_op: None,
        barrier: None,
        ..like(a, AccessKind::Fence, Flags::F | Flags::ACQ | Flags::REL | s)
    }
}

/// A cbar: `bar.cta.sync`, itself an acq_rel fence of scope .cta (docs/ptx.md, "What a
/// barrier does"); semantics of a wider scope add acq_rel fences of that scope before
/// (the release half) and after (the acquire half).
fn barrier(a: &Access) -> Result<Mapped, Diagnostic> {
    let b = a.barrier.as_ref().expect("a cbar has a barrier");
    if b.quorum.is_some() {
        return Err(no(
            a.span,
            "a cbar with a quorum",
            "has no PTX counterpart (a PTX barrier's thread count is not a quorum)",
        ));
    }
    let id = b.id.as_ref().map_or_else(String::new, |i| format!(", {i}"));
    let bar = like(a, AccessKind::Cbar, Flags::CBAR | Flags::SCOPEWG);
    let text = format!("bar.cta.sync {}{id}", b.instance);
    let wide = a.flags.has(Flags::F) && a.flags.any(Flags::SCOPEQF | Flags::SCOPEDEV);
    if !wide {
        return Ok(one(bar, text));
    }
    let (s, w) = scope(a)?;
    Ok(Mapped {
        accesses: vec![fence(a, s), bar, fence(a, s)],
        text: format!("fence.acq_rel.{w} ; {text} ; fence.acq_rel.{w}"),
    })
}

pub(super) fn translate(p: &Program) -> Result<Translated, Diagnostic> {
    if let Some(&(i, j)) = p.ssw.first() {
        let start = Span {
            offset: 0,
            len: 0,
            line: 1,
            column: 1,
        };
        return Err(no(
            start,
            &format!("`ssw {i} {j}` (system-synchronizes-with)"),
            "has no PTX counterpart",
        ));
    }
    let (codes, steps) = rewrite(p, |_, a| access(p, a))?;
    // Vulkan [sg, wg, qf] -> PTX [cta, gpu]: a CTA is a workgroup, a GPU a queue family.
    let program = rebuilt(p, &PTX, codes, |_, th| th.scope[1..].to_vec());
    Ok(Translated { program, steps })
}
