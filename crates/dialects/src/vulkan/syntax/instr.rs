//! One table cell: optional labels `LCnn:`, then at most one instruction.
//!
//! An instruction is a dotted opcode (`ld.atom.acq.wg.sc0.semsc0`) and operands. The
//! tokens after the first form a set ([`super::attrs`]); the operands depend on the first.

use super::attrs::{arith_op, mem_attrs};
use crate::vulkan::ast::{CmpOp, Instr, Loc, Operand, Spanned};
use crate::vulkan::validate::AccessKind;
use nom::bytes::complete::take_while1;
use nom::Parser;
use vkherd_litmus::syntax::lex::{
    consumed, err, expect, fail, ident, integer, is_register, is_word, natural, register, sym,
    unexpected, unexpected_in, word, ws, PErr, PResult, Src,
};
use vkherd_litmus::syntax::mmra;

const INSTRUCTIONS: &str = "an instruction (`ld`, `st`, `rmw`, `membar`, `cbar`, `avdevice`, \
`visdevice`, `add`, `sub`, `mul`, `div`, `and`, `or`, `xor`, `goto`, `beq`, `bne`, `blt`, \
`bgt`, `ble`, `bge`) or a label `LCnn:`";

/// In the first column a stray word may be a misspelt keyword of the conditions part.
const OR_CONDITIONS: &str =
    ", or after the table `locations`, `filter`, `exists`, `~exists`, `not exists` or `forall`";

pub(super) fn cell<'a>(
    src: &Src<'a>,
    i: &'a str,
    first_col: bool,
) -> PResult<'a, Vec<Spanned<Instr>>> {
    let mut items = Vec::new();
    let mut i = i;
    loop {
        let (j, _) = ws(i)?;
        if j.is_empty() || j.starts_with(['|', ';']) {
            return Ok((j, items));
        }
        if let Some((rest, label)) = label_def(src, j)? {
            items.push(label);
            i = rest;
            continue;
        }
        let (rest, instr) = instruction(src, j, first_col && items.is_empty())?;
        items.push(instr);
        return Ok((rest, items));
    }
}

fn is_label(w: &str) -> bool {
    w.strip_prefix("LC")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// `LCnn:` if a word followed by `:` is next.
fn label_def<'a>(
    src: &Src<'a>,
    i: &'a str,
) -> Result<Option<(&'a str, Spanned<Instr>)>, nom::Err<PErr<'a>>> {
    let Ok((j, name)) = ident(i) else {
        return Ok(None);
    };
    let (j, _) = ws(j)?;
    let Some(rest) = j.strip_prefix(':') else {
        return Ok(None);
    };
    if !is_label(name) {
        return Err(err(
            name,
            format!("label `{name}`: expected `LC` followed by digits, like `LC00`"),
        ));
    }
    let label = Instr::Label(name.to_string());
    Ok(Some((rest, src.spanned(label, consumed(i, rest)))))
}

fn branch_cmp(w: &str) -> Option<CmpOp> {
    Some(match w {
        "beq" => CmpOp::Eq,
        "bne" => CmpOp::Ne,
        "blt" => CmpOp::Lt,
        "bgt" => CmpOp::Gt,
        "ble" => CmpOp::Le,
        "bge" => CmpOp::Ge,
        _ => return None,
    })
}

fn instruction<'a>(src: &Src<'a>, i: &'a str, hint: bool) -> PResult<'a, Spanned<Instr>> {
    let expected = if hint {
        format!("{INSTRUCTIONS}{OR_CONDITIONS}")
    } else {
        INSTRUCTIONS.to_string()
    };
    let opcode = take_while1(|c: char| is_word(c) || c == '.');
    let (rest, opword) = expect(i, opcode, "", &expected)?;
    let mut parts = opword.split('.');
    let head = parts.next().unwrap_or_default();
    let tokens: Vec<&str> = parts.collect();
    if head.is_empty() || tokens.iter().any(|t| t.is_empty()) {
        return fail(
            opword,
            format!("empty token in `{opword}`: expected tokens separated by single dots"),
        );
    }
    let ops = Ops { head };
    let (rest, instr) = match head {
        "ld" | "st" | "rmw" | "membar" | "cbar" => memory(&ops, rest, opword, &tokens)?,
        "avdevice" | "visdevice" => {
            no_tokens(head, &tokens)?;
            let instr = if head == "avdevice" {
                Instr::AvDevice
            } else {
                Instr::VisDevice
            };
            (rest, instr)
        }
        "goto" => {
            no_tokens(head, &tokens)?;
            let (rest, target) = ops.label(rest)?;
            (rest, Instr::Goto(target))
        }
        _ => {
            if let Some(op) = arith_op(head) {
                no_tokens(head, &tokens)?;
                let (rest, dst) = ops.reg(rest, "a destination register `rD`")?;
                let (rest, a) = ops.value(ops.comma(rest)?)?;
                let (rest, b) = ops.value(ops.comma(rest)?)?;
                (rest, Instr::Arith { op, dst, a, b })
            } else if let Some(cmp) = branch_cmp(head) {
                no_tokens(head, &tokens)?;
                let (rest, a) = ops.value(rest)?;
                let (rest, b) = ops.value(ops.comma(rest)?)?;
                let (rest, target) = ops.label(ops.comma(rest)?)?;
                (rest, Instr::Branch { cmp, a, b, target })
            } else {
                return fail(
                    head,
                    format!("unknown instruction `{head}`: expected {expected}"),
                );
            }
        }
    };
    let (rest, instr) = with_tags(rest, head, instr)?;
    Ok((rest, src.spanned(instr, consumed(i, rest))))
}

/// A trailing `!mmra(...)`, allowed on the memory and synchronising instructions.
fn with_tags<'a>(i: &'a str, head: &str, mut instr: Instr) -> PResult<'a, Instr> {
    let (rest, tagged) = mmra::tags(i)?;
    if let Some((tags, written)) = tagged {
        match &mut instr {
            Instr::Load { attrs, .. }
            | Instr::Store { attrs, .. }
            | Instr::Rmw { attrs, .. }
            | Instr::Membar { attrs }
            | Instr::Cbar { attrs, .. } => attrs.mmra = tags,
            _ => {
                return fail(
                    written,
                    format!(
                        "`!mmra(...)` on `{head}`: expected tags only on memory and \
synchronising instructions (`ld`, `st`, `rmw`, `membar`, `cbar`)"
                    ),
                )
            }
        }
    }
    Ok((rest, instr))
}

fn no_tokens<'a>(head: &str, tokens: &[&'a str]) -> Result<(), nom::Err<PErr<'a>>> {
    match tokens.first() {
        Some(t) => Err(err(
            t,
            format!("unexpected token `{t}`: `{head}` takes no dotted tokens"),
        )),
        None => Ok(()),
    }
}

/// ld, st, rmw, membar and cbar: attribute tokens, then operands by kind.
fn memory<'a>(
    ops: &Ops<'_>,
    rest: &'a str,
    opword: &'a str,
    tokens: &[&'a str],
) -> PResult<'a, Instr> {
    let kind = match ops.head {
        "ld" => AccessKind::Load,
        "st" => AccessKind::Store,
        "rmw" => AccessKind::Rmw,
        "membar" => AccessKind::Membar,
        _ => AccessKind::Cbar,
    };
    // Checked before the operands, so that the first problem in the file is reported.
    let (attrs, op) = mem_attrs(kind, opword, tokens)?;
    Ok(match kind {
        AccessKind::Load => {
            let (rest, dst) = ops.reg(rest, "a destination register `rD`")?;
            let (rest, loc) = ops.location(ops.comma(rest)?)?;
            (rest, Instr::Load { attrs, dst, loc })
        }
        AccessKind::Store => {
            let (rest, loc) = ops.location(rest)?;
            let (rest, value) = ops.value(ops.comma(rest)?)?;
            (rest, Instr::Store { attrs, loc, value })
        }
        AccessKind::Rmw => {
            let (rest, dst) = ops.reg(rest, "a destination register `rD`")?;
            let (rest, loc) = ops.location(ops.comma(rest)?)?;
            let (rest, value) = ops.value(ops.comma(rest)?)?;
            let instr = Instr::Rmw {
                attrs,
                op,
                dst,
                loc,
                value,
            };
            (rest, instr)
        }
        AccessKind::Membar => (rest, Instr::Membar { attrs }),
        AccessKind::Cbar => cbar_operands(ops, rest, attrs)?,
    })
}

/// `N[, ID[, QUORUM]]`; N and ID are kept as written (`00` and `0` differ).
fn cbar_operands<'a>(
    ops: &Ops<'_>,
    i: &'a str,
    attrs: crate::vulkan::ast::MemAttrs,
) -> PResult<'a, Instr> {
    let (mut i, instance) = ops.digits(i, "the barrier instance number N")?;
    let mut id = None;
    let mut quorum = None;
    if ws(i)?.0.starts_with(',') {
        let (rest, w) = ops.digits(ops.comma(i)?, "the barrier ID")?;
        id = Some(w);
        i = rest;
        if ws(i)?.0.starts_with(',') {
            let (rest, _) = ws(ops.comma(i)?)?;
            let what = "the quorum (an integer >= 1)";
            let (after, q) = expect(rest, natural, ops.ctx().as_str(), what)?;
            if q == 0 {
                return fail(
                    consumed(rest, after),
                    "quorum `0`: expected an integer >= 1",
                );
            }
            quorum = Some(q);
            i = after;
        }
    }
    let instr = Instr::Cbar {
        attrs,
        instance,
        id,
        quorum,
    };
    Ok((i, instr))
}

/// Operand parsers; errors name the instruction.
struct Ops<'h> {
    head: &'h str,
}

impl Ops<'_> {
    fn ctx(&self) -> String {
        format!(" in the operands of `{}`", self.head)
    }

    fn comma<'a>(&self, i: &'a str) -> Result<&'a str, nom::Err<PErr<'a>>> {
        Ok(sym(i, ',', &self.ctx(), "`,`")?.0)
    }

    fn reg<'a>(&self, i: &'a str, what: &str) -> PResult<'a, u32> {
        let (i, _) = ws(i)?;
        expect(i, register, &self.ctx(), what)
    }

    /// A location: any identifier that is not a register, then optionally an index
    /// `+rK`, `+K`, `[rK]` or `[K]` (an address dependency, checked by the lowering).
    fn location<'a>(&self, i: &'a str) -> PResult<'a, Loc> {
        let (i, _) = ws(i)?;
        let (rest, name) = expect(i, ident, &self.ctx(), "a location name")?;
        if is_register(name) {
            return fail(
                name,
                format!(
                    "unexpected register `{name}`{}: expected a location name",
                    self.ctx()
                ),
            );
        }
        let (after, _) = ws(rest)?;
        let ctx = format!(" after `{name}`{}", self.ctx());
        let (rest, index) = if let Some(j) = after.strip_prefix('+') {
            let (j, v) = self.index(j, &ctx)?;
            (j, Some(v))
        } else if let Some(j) = after.strip_prefix('[') {
            let (j, v) = self.index(j, &ctx)?;
            let (j, _) = sym(j, ']', &ctx, "`]`")?;
            (j, Some(v))
        } else {
            (rest, None)
        };
        let loc = Loc {
            name: name.to_string(),
            index,
            text: consumed(i, rest).trim_end().to_string(),
        };
        Ok((rest, loc))
    }

    /// An index after `+` or `[`: a register or an integer.
    fn index<'a>(&self, i: &'a str, ctx: &str) -> PResult<'a, Operand> {
        let (i, _) = ws(i)?;
        if let Ok((rest, r)) = register(i) {
            return Ok((rest, Operand::Reg(r)));
        }
        match integer(i) {
            Ok((rest, v)) => Ok((rest, Operand::Imm(v))),
            Err(nom::Err::Error(_)) => Err(unexpected_in(
                i,
                ctx,
                "an index: a register `rK` or an integer",
            )),
            Err(e) => Err(e),
        }
    }

    /// A register or an integer.
    fn value<'a>(&self, i: &'a str) -> PResult<'a, Operand> {
        let (i, _) = ws(i)?;
        if let Ok((rest, r)) = register(i) {
            return Ok((rest, Operand::Reg(r)));
        }
        let (rest, v) = expect(i, integer, &self.ctx(), "a register `rN` or an integer")?;
        Ok((rest, Operand::Imm(v)))
    }

    fn label<'a>(&self, i: &'a str) -> PResult<'a, String> {
        let (i, _) = ws(i)?;
        match ident(i) {
            Ok((rest, w)) if is_label(w) => Ok((rest, w.to_string())),
            _ => Err(unexpected(
                i,
                &format!("a label `LCnn` as the target of `{}`", self.head),
            )),
        }
    }

    /// A run of decimal digits, kept as written.
    fn digits<'a>(&self, i: &'a str, what: &str) -> PResult<'a, String> {
        let (i, _) = ws(i)?;
        match word.parse(i) {
            Ok((rest, w)) if w.bytes().all(|b| b.is_ascii_digit()) => Ok((rest, w.to_string())),
            _ => Err(unexpected_in(i, &self.ctx(), what)),
        }
    }
}
