//! The Vulkan ↔ PTX mapping (docs/ptx.md, "Vulkan ↔ PTX mapping"), both directions, on
//! lowered programs: each memory instruction becomes the instructions (and event flags)
//! of the other dialect the mapping table names; registers, arithmetic, jumps,
//! locations and the final condition carry over unchanged, so the two programs' states
//! compare column by column. What has no counterpart is refused at its place.

mod to_ptx;
mod to_vulkan;

use vkherd_litmus::{Diagnostic, Operand, Span};
use vkherd_model::{Access, Instruction, Program, Step, Thread, Translation};

/// Where both directions are written down.
const DOC: &str = "docs/ptx.md, \"Vulkan ↔ PTX mapping\"";

/// Vulkan programs as PTX programs (the compilation mapping `distinguish vulkan ptx`
/// checks).
pub const VULKAN_TO_PTX: Translation = Translation {
    from: "vulkan",
    to: "ptx",
    doc: DOC,
    translate: to_ptx::translate,
};

/// PTX programs as Vulkan programs.
pub const PTX_TO_VULKAN: Translation = Translation {
    from: "ptx",
    to: "vulkan",
    doc: DOC,
    translate: to_vulkan::translate,
};

/// What one access becomes: the accesses, in order, and their text.
pub(crate) struct Mapped {
    pub accesses: Vec<Access>,
    pub text: String,
}

/// Rewrites every thread's code, access by access, with `map` (thread, access), keeping
/// jumps pointing at the translation of their target; the steps list each access.
pub(crate) fn rewrite(
    program: &Program,
    mut map: impl FnMut(usize, &Access) -> Result<Mapped, Diagnostic>,
) -> Result<(Vec<Vec<Instruction>>, Vec<Step>), Diagnostic> {
    let mut codes = Vec::with_capacity(program.threads.len());
    let mut steps = Vec::new();
    for (t, th) in program.threads.iter().enumerate() {
        // start[i]: where old instruction i begins in the new code (start[len] = end).
        let mut start = Vec::with_capacity(th.code.len() + 1);
        let mut code = Vec::with_capacity(th.code.len());
        for i in &th.code {
            start.push(code.len());
            match i {
                Instruction::Access(a) => {
                    let m = map(t, a)?;
                    steps.push(Step {
                        thread: t,
                        span: a.span,
                        to: m.text,
                    });
                    code.extend(m.accesses.into_iter().map(Instruction::Access));
                }
                other => code.push(other.clone()),
            }
        }
        start.push(code.len());
        for i in &mut code {
            if let Instruction::Jump { target, .. } = i {
                *target = start[*target];
            }
        }
        codes.push(code);
    }
    Ok((codes, steps))
}

/// The program with new code and scope ids per thread, in `dialect`.
pub(crate) fn rebuilt(
    program: &Program,
    dialect: &'static vkherd_model::Dialect,
    codes: Vec<Vec<Instruction>>,
    scope: impl Fn(usize, &Thread) -> Vec<u64>,
) -> Program {
    let threads = (program.threads.iter().enumerate())
        .zip(codes)
        .map(|((t, th), code)| Thread {
            scope: scope(t, th),
            code,
            init_regs: th.init_regs.clone(),
        })
        .collect();
    Program {
        dialect,
        threads,
        ssw: Vec::new(),
        ..program.clone()
    }
}

/// An access with these flags, copying the source access's operands and place.
pub(crate) fn like(
    a: &Access,
    kind: vkherd_model::AccessKind,
    flags: vkherd_model::Flags,
) -> Access {
    Access {
        kind,
        flags,
        cas: None,
        pin: None,
        mmra: Default::default(),
        ..a.clone()
    }
}

/// A register or constant as both dialects write it.
pub(crate) fn operand(o: &Operand) -> String {
    match o {
        Operand::Reg(r) => format!("r{r}"),
        Operand::Imm(v) => v.to_string(),
    }
}

/// The name an access uses.
pub(crate) fn loc(p: &Program, a: &Access) -> String {
    a.reference
        .map_or_else(String::new, |r| p.references[r].name.clone())
}

/// The refusal of `construct` at `span`: what it is and why the other dialect has no
/// counterpart.
pub(crate) fn refuse(span: Span, from: &str, to: &str, construct: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        span,
        format!("cannot translate this {from} test to {to}: {construct} {why} ({DOC}); expected a test without it, or models of one dialect"),
    )
}

#[cfg(test)]
mod tests;
