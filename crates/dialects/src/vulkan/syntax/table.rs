//! The thread table: a header row `P0@sg 0, wg 0, qf 0 | P1@... ;` and rows of
//! `|`-separated cells ending with `;`. Column k of every row is thread k.

use super::instr::cell;
use crate::vulkan::ast::{Instr, Spanned, ThreadHeader};
use vkherd_litmus::limits::{MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD, MAX_THREADS};
use vkherd_litmus::syntax::lex::{
    consumed, expect, fail, natural, sym, thread_word, unexpected_in, word, ws, PResult, Src,
};

/// The instructions of each column, and how many of them are not labels (for the limits).
struct Code {
    cols: Vec<Vec<Spanned<Instr>>>,
    counts: Vec<usize>,
    total: usize,
}

impl Code {
    /// Appends a cell's items to column `col`; fails at `text` (the cell) if a limit on
    /// instructions is passed.
    fn push<'a>(
        &mut self,
        col: usize,
        items: Vec<Spanned<Instr>>,
        text: &'a str,
    ) -> PResult<'a, ()> {
        let Some(column) = self.cols.get_mut(col) else {
            return Ok((text, ()));
        };
        let n = items
            .iter()
            .filter(|it| !matches!(it.value, Instr::Label(_)))
            .count();
        column.extend(items);
        self.counts[col] += n;
        self.total += n;
        if self.counts[col] > MAX_INSTRUCTIONS_PER_THREAD {
            return fail(
                text,
                format!(
                    "too many instructions in thread P{col}: expected at most {MAX_INSTRUCTIONS_PER_THREAD} per thread"
                ),
            );
        }
        if self.total > MAX_INSTRUCTIONS {
            return fail(
                text,
                format!("too many instructions: expected at most {MAX_INSTRUCTIONS} in a test, all threads together"),
            );
        }
        Ok((text, ()))
    }
}

pub(super) type Columns = Vec<Vec<Spanned<Instr>>>;

pub(super) fn table<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, (Vec<ThreadHeader>, Columns)> {
    let (mut i, threads) = header_row(src, i)?;
    let mut code = Code {
        cols: vec![Vec::new(); threads.len()],
        counts: vec![0; threads.len()],
        total: 0,
    };
    while !at_table_end(i) {
        i = row(src, i, &mut code)?.0;
    }
    Ok((i, (threads, code.cols)))
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

fn header_row<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<ThreadHeader>> {
    let mut threads = Vec::new();
    let mut i = i;
    loop {
        if threads.len() >= MAX_THREADS {
            let (at, _) = ws(i)?;
            return fail(
                vkherd_litmus::syntax::lex::token_at(at),
                format!(
                    "too many threads: expected at most {MAX_THREADS} (`P0` to `P{}`)",
                    MAX_THREADS - 1
                ),
            );
        }
        let (j, h) = thread_header(src, i, threads.len())?;
        threads.push(h);
        let (j, _) = ws(j)?;
        i = match j.chars().next() {
            Some('|') => &j[1..],
            Some(';') => return Ok((&j[1..], threads)),
            _ => {
                let ctx = " after the thread header";
                return Err(unexpected_in(j, ctx, "`|` and the next thread, or `;`"));
            }
        };
    }
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

/// One row; appends the instructions of column k to `code[k]`.
fn row<'a>(src: &Src<'a>, i: &'a str, code: &mut Code) -> PResult<'a, ()> {
    let threads = code.cols.len();
    let mut col = 0;
    let mut i = i;
    loop {
        let (j, _) = ws(i)?;
        let mut last = None;
        let j = if j.is_empty() || j.starts_with(['|', ';']) {
            j
        } else {
            let (rest, items) = cell(src, j, col == 0)?;
            let text = consumed(j, rest);
            last = Some(text);
            code.push(col, items, text)?;
            rest
        };
        let (j, _) = ws(j)?;
        match j.chars().next() {
            Some('|') => {
                col += 1;
                if col >= threads {
                    let s = if threads == 1 { "" } else { "s" };
                    return fail(
                        &j[..1],
                        format!(
                            "too many cells in this row: the header has {threads} thread{s}, expected `;` to end the row"
                        ),
                    );
                }
                i = &j[1..];
            }
            Some(';') => return Ok((&j[1..], ())),
            _ => {
                let ctx = last.map(|t| format!(" after `{t}`")).unwrap_or_default();
                return Err(unexpected_in(
                    j,
                    &ctx,
                    "`|` (next cell) or `;` (end of the row)",
                ));
            }
        }
    }
}
