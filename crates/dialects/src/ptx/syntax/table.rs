//! The thread table (the kit's layout): a header row `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`
//! and rows of `|`-separated cells ending with `;`. Column k of every row is thread k.

use super::instr::cell;
use crate::ptx::ast::{PtxInstr, PtxThread};
use vkherd_litmus::syntax::lex::{
    consumed, expect, fail, natural, sym, thread_number, unexpected, unexpected_in, word, ws,
    PResult, Src,
};
use vkherd_litmus::syntax::table::{table_of, Columns, Layout};

pub(super) fn table<'a>(
    src: &Src<'a>,
    i: &'a str,
) -> PResult<'a, (Vec<PtxThread>, Columns<PtxInstr>)> {
    let layout = Layout {
        header: thread_header,
        cell,
        is_label: |instr| matches!(instr, PtxInstr::Label(_)),
        at_end,
    };
    table_of(src, i, &layout)
}

/// The rows end at the end of input or at a word that starts the conditions part; no
/// instruction starts with one.
fn at_end(i: &str) -> bool {
    let i = i.trim_start();
    i.is_empty()
        || i.starts_with('~')
        || matches!(
            word(i),
            Ok((
                _,
                "locations" | "filter" | "exists" | "forall" | "not" | "final"
            ))
        )
}

/// `Pn@cta A,gpu B` (or `n@cta A,gpu B`), where n must be `expected_id`: Dat3M puts
/// column k's instructions in thread k, whatever its header says.
fn thread_header<'a>(src: &Src<'a>, i: &'a str, expected_id: usize) -> PResult<'a, PtxThread> {
    let what = format!("the thread header `P{expected_id}@cta N,gpu M`");
    let (i, _) = ws(i)?;
    let (j, p) = expect(i, word, "", &what)?;
    let digits = p.strip_prefix('P').unwrap_or(p);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unexpected(i, &what));
    }
    let id = thread_number(digits)?;
    if id != expected_id {
        return fail(
            p,
            format!(
                "thread header `{p}` out of order: expected `P{expected_id}` (threads are P0, P1, ... in order)"
            ),
        );
    }
    let ctx = format!(" in the header of `{p}`");
    let (j, _) = sym(j, '@', &ctx, "`@`")?;
    let (j, cta) = placement(j, "cta", &ctx)?;
    let (j, _) = sym(j, ',', &ctx, "`,` and `gpu M`")?;
    let (j, gpu) = placement(j, "gpu", &ctx)?;
    let span = src.span(consumed(i, j));
    Ok((j, PtxThread { id, cta, gpu, span }))
}

/// `cta N` or `gpu N`.
fn placement<'a>(i: &'a str, name: &str, ctx: &str) -> PResult<'a, u64> {
    let (i, _) = ws(i)?;
    let expected = format!("`{name}` (PTX threads are placed with `cta N,gpu M`)");
    let (j, w) = expect(i, word, ctx, &expected)?;
    if w != name {
        return Err(unexpected_in(i, ctx, &expected));
    }
    let (j, _) = ws(j)?;
    expect(j, natural, ctx, &format!("the {name} id (an integer)"))
}
