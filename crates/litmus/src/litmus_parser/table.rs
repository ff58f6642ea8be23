//! The thread table: a header row `P0@sg 0, wg 0, qf 0 | P1@... ;` and rows of
//! `|`-separated cells ending with `;`. Column k of every row is thread k.
//!
//! The layout (rows, cells, limits) is shared by the dialects that use it; a [`Layout`]
//! gives what differs: the thread header, the cell and where the table ends.

use super::instr::cell;
use super::lex::{
    consumed, expect, fail, natural, sym, thread_word, unexpected_in, word, ws, PResult, Src,
};
use crate::ast::{Instr, Spanned, ThreadHeader};
use crate::limits::{MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD, MAX_THREADS};

/// A parser of one cell: the source, the cell's text, its column; the cell's items.
pub(crate) type CellParser<'a, I> = fn(&Src<'a>, &'a str, usize) -> PResult<'a, Vec<Spanned<I>>>;

/// What a dialect's table is made of. `H` is a thread header, `I` an instruction.
pub(crate) struct Layout<'a, H, I> {
    /// The header of thread `id` (threads come in order), at `i` or after whitespace.
    pub header: fn(&Src<'a>, &'a str, usize) -> PResult<'a, H>,
    /// A cell of column `col`, `i` at its first character (not `|` nor `;`): its items.
    pub cell: CellParser<'a, I>,
    /// Labels do not count against the limits on instructions.
    pub is_label: fn(&I) -> bool,
    /// True where the rows end (the input after the last row, whitespace not skipped).
    pub at_end: fn(&str) -> bool,
}

/// The instructions of each column, and how many of them are not labels (for the limits).
struct Code<I> {
    cols: Vec<Vec<Spanned<I>>>,
    counts: Vec<usize>,
    total: usize,
    is_label: fn(&I) -> bool,
}

impl<I> Code<I> {
    /// Appends a cell's items to column `col`; fails at `text` (the cell) if a limit on
    /// instructions is passed.
    fn push<'a>(&mut self, col: usize, items: Vec<Spanned<I>>, text: &'a str) -> PResult<'a, ()> {
        let Some(column) = self.cols.get_mut(col) else {
            return Ok((text, ()));
        };
        let is_label = self.is_label;
        let n = items.iter().filter(|it| !is_label(&it.value)).count();
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

pub(crate) type Columns<I> = Vec<Vec<Spanned<I>>>;

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

/// The header row, then rows up to where `layout.at_end` says the table ends.
pub(crate) fn table_of<'a, H, I>(
    src: &Src<'a>,
    i: &'a str,
    layout: &Layout<'a, H, I>,
) -> PResult<'a, (Vec<H>, Columns<I>)> {
    let (mut i, threads) = header_row(src, i, layout.header)?;
    let mut code = Code {
        cols: (0..threads.len()).map(|_| Vec::new()).collect(),
        counts: vec![0; threads.len()],
        total: 0,
        is_label: layout.is_label,
    };
    while !(layout.at_end)(i) {
        i = row(src, i, &mut code, layout.cell)?.0;
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

fn header_row<'a, H>(
    src: &Src<'a>,
    i: &'a str,
    thread_header: fn(&Src<'a>, &'a str, usize) -> PResult<'a, H>,
) -> PResult<'a, Vec<H>> {
    let mut threads = Vec::new();
    let mut i = i;
    loop {
        if threads.len() >= MAX_THREADS {
            let (at, _) = ws(i)?;
            return fail(
                super::lex::token_at(at),
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
fn row<'a, I>(
    src: &Src<'a>,
    i: &'a str,
    code: &mut Code<I>,
    cell: CellParser<'a, I>,
) -> PResult<'a, ()> {
    let threads = code.cols.len();
    let mut col = 0;
    let mut i = i;
    loop {
        let (j, _) = ws(i)?;
        let mut last = None;
        let j = if j.is_empty() || j.starts_with(['|', ';']) {
            j
        } else {
            let (rest, items) = cell(src, j, col)?;
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
