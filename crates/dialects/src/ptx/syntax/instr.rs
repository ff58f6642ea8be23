//! One cell of the table: a label `LCnn:` or one instruction, an opcode with `.`-suffixes
//! (order, scope, operation) and comma-separated operands.
//!
//! Which orders and scopes an instruction accepts is checked while parsing it ([`super::head`]),
//! as Dat3M's visitor (VisitorLitmusPTX) checks it, so that a bad combination is blamed on
//! its suffix.

use super::head::Head;
use super::memory::{atom, destination, load, red, store};
use super::sync::{barrier, fence};
use super::words::{is_label, label, next_is, suffixes, value};
use crate::ptx::ast::{ArithOp, CmpOp, Proxy, PtxInstr, Spanned};
use vkherd_litmus::syntax::lex::{
    consumed, fail, unexpected, unexpected_in, word, ws, PResult, Src,
};

const INSTRUCTIONS: &str = "an instruction (`ld`, `st`, `atom`, `red`, `fence`, `bar`, `tld`, \
`suld`, `cold`, `sust`, `suatom`, `sured`, `add`, `sub`, `mul`, `div`, `beq`, `bne`, `blt`, \
`bgt`, `ble`, `bge`, `goto`) or a label `LCnn:`";

/// In the first column a stray word may be a misspelt keyword of the conditions part.
const OR_CONDITIONS: &str =
    ", or after the table `locations`, `filter`, `exists`, `~exists`, `forall` or `final`";

/// The items of a non-empty cell of column `col`: one label or one instruction.
pub(super) fn cell<'a>(
    src: &Src<'a>,
    i: &'a str,
    col: usize,
) -> PResult<'a, Vec<Spanned<PtxInstr>>> {
    let (rest, instr) = instruction(src, i, col == 0)?;
    if let PtxInstr::Label(name) = &instr.value {
        let (j, _) = ws(rest)?;
        if !(j.is_empty() || j.starts_with(['|', ';'])) {
            return Err(unexpected_in(
                j,
                &format!(" after the label `{name}:`"),
                "`|` or `;`: a label takes a cell of its own (put the instruction on the next row)",
            ));
        }
    }
    Ok((rest, vec![instr]))
}

fn instruction<'a>(src: &Src<'a>, i: &'a str, first_col: bool) -> PResult<'a, Spanned<PtxInstr>> {
    let expected = if first_col {
        format!("{INSTRUCTIONS}{OR_CONDITIONS}")
    } else {
        INSTRUCTIONS.to_string()
    };
    let (j, op) = match word(i) {
        Ok(r) => r,
        Err(_) => return Err(unexpected(i, &expected)),
    };
    if next_is(j, ':') {
        return label_def(src, i, j, op);
    }
    let (j, sfx) = suffixes(i, j)?;
    let h = Head {
        start: i,
        op,
        sfx: &sfx,
        text: consumed(i, j),
    };
    let (rest, instr) = match op {
        "ld" => load(src, &h, j, Proxy::Generic),
        "tld" => load(src, &h, j, Proxy::Texture),
        "suld" => load(src, &h, j, Proxy::Surface),
        "cold" => load(src, &h, j, Proxy::Constant),
        "st" => store(src, &h, j, Proxy::Generic),
        "sust" => store(src, &h, j, Proxy::Surface),
        "atom" => atom(src, &h, j, Proxy::Generic),
        "suatom" => atom(src, &h, j, Proxy::Surface),
        "red" => red(src, &h, j, Proxy::Generic),
        "sured" => red(src, &h, j, Proxy::Surface),
        "fence" => fence(&h, j),
        "bar" => barrier(&h, j),
        "add" => arith(&h, j, ArithOp::Add),
        "sub" => arith(&h, j, ArithOp::Sub),
        "mul" => arith(&h, j, ArithOp::Mul),
        "div" => arith(&h, j, ArithOp::Div),
        "beq" => branch(src, &h, j, CmpOp::Eq),
        "bne" => branch(src, &h, j, CmpOp::Ne),
        "blt" => branch(src, &h, j, CmpOp::Lt),
        "bgt" => branch(src, &h, j, CmpOp::Gt),
        "ble" => branch(src, &h, j, CmpOp::Le),
        "bge" => branch(src, &h, j, CmpOp::Ge),
        "goto" => {
            h.no_more(0, "a label `LCnn`")?;
            let (j, target) = label(src, j, &h.ctx())?;
            Ok((j, PtxInstr::Goto(target)))
        }
        w if is_label(w) => fail(
            w,
            format!(
                "label `{w}` without `:`: expected `{w}:` to place it, or `goto {w}` to jump to it"
            ),
        ),
        w => fail(w, format!("unknown instruction `{w}`: expected {expected}")),
    }?;
    Ok((rest, src.spanned(instr, consumed(i, rest))))
}

/// `LCnn:`; `j` is after the word `w`, at the `:`.
fn label_def<'a>(
    src: &Src<'a>,
    i: &'a str,
    j: &'a str,
    w: &'a str,
) -> PResult<'a, Spanned<PtxInstr>> {
    if !is_label(w) {
        return fail(
            w,
            format!("label `{w}`: expected `LC` followed by digits, like `LC00`"),
        );
    }
    let (j, _) = ws(j)?;
    let rest = j.get(1..).unwrap_or(j);
    let instr = PtxInstr::Label(w.to_string());
    Ok((rest, src.spanned(instr, consumed(i, rest))))
}

fn arith<'a>(h: &Head<'a, '_>, i: &'a str, op: ArithOp) -> PResult<'a, PtxInstr> {
    h.no_more(0, "the operands `rK, A, B`")?;
    let ctx = h.ctx();
    let (i, dst) = destination(i, h)?;
    let (i, _) = h.comma(i, "rK, A, B")?;
    let (i, a) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "rK, A, B")?;
    let (i, b) = value(i, &ctx)?;
    Ok((i, PtxInstr::Arith { op, dst, a, b }))
}

fn branch<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, op: CmpOp) -> PResult<'a, PtxInstr> {
    h.no_more(0, "the operands `A, B, LCnn`")?;
    let ctx = h.ctx();
    let (i, a) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "A, B, LCnn")?;
    let (i, b) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "A, B, LCnn")?;
    let (i, target) = label(src, i, &ctx)?;
    Ok((i, PtxInstr::Branch { op, a, b, target }))
}
