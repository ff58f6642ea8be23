//! The thread table: a header row `P0@sg 0, wg 0, qf 0 | P1@... ;` and rows of
//! `|`-separated cells ending with `;`. Column k of every row is thread k.
//! The rows, cells and limits are the kit's (`vkherd_litmus::syntax::table`); this is
//! the Vulkan thread header and cell.

use super::instr::cell;
use crate::vulkan::ast::{Instr, ThreadHeader};
use vkherd_litmus::syntax::lex::{
    consumed, expect, natural, sym, thread_word, unexpected_in, word, ws, PResult, Src,
};
use vkherd_litmus::syntax::table::{table_of, Columns, Layout};

/// The Vulkan dialect's table.
pub(super) fn table<'a>(
    src: &Src<'a>,
    i: &'a str,
) -> PResult<'a, (Vec<ThreadHeader>, Columns<Instr>)> {
    let layout = Layout {
        header: thread_header,
        cell: |src, i, col| cell(src, i, col == 0),
        is_label: |instr| matches!(instr, Instr::Label(_)),
        at_end: at_table_end,
    };
    table_of(src, i, &layout)
}

/// The table ends at the end of input or at a word that starts the conditions part; no
/// row can start with one of these, as none is an instruction.
fn at_table_end(i: &str) -> bool {
    let i = i.trim_start();
    i.is_empty()
        || i.starts_with('~')
        || matches!(
            word(i),
            Ok((_, "locations" | "filter" | "exists" | "forall" | "not"))
        )
}

/// `Pn@sg A, wg B, qf C`, where n must be `expected_id`.
fn thread_header<'a>(src: &Src<'a>, i: &'a str, expected_id: usize) -> PResult<'a, ThreadHeader> {
    let what = format!("the thread header `P{expected_id}@sg A, wg B, qf C`");
    let (i, _) = ws(i)?;
    let (j, p) = thread_word(i, expected_id, &what)?;
    let id = expected_id;
    let ctx = format!(" in the header of `{p}`");
    let (mut j, _) = sym(j, '@', &ctx, "`@`")?;
    let mut ids = [0u64; 3];
    for (k, name) in ["sg", "wg", "qf"].into_iter().enumerate() {
        if k > 0 {
            j = sym(j, ',', &ctx, "`,`")?.0;
        }
        let (rest, w) = expect(j, word, &ctx, &format!("`{name}`"))?;
        if w != name {
            return Err(unexpected_in(j, &ctx, &format!("`{name}`")));
        }
        let (rest, _) = ws(rest)?;
        let (rest, n) = expect(rest, natural, &ctx, &format!("the {name} id (an integer)"))?;
        ids[k] = n;
        j = rest;
    }
    let [sg, wg, qf] = ids;
    let span = src.span(consumed(i, j));
    Ok((
        j,
        ThreadHeader {
            id,
            sg,
            wg,
            qf,
            span,
        },
    ))
}
