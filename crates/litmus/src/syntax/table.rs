//! The thread table of herd-style dialects: a header row `P0... | P1... ;` and rows of
//! `|`-separated cells ending with `;`. Column k of every row is thread k. The layout
//! (rows, cells, the limits on threads and instructions) is shared; a [`Layout`] gives
//! what a dialect's differs in: the thread header, the cell and where the table ends.

use super::lex::{consumed, fail, unexpected_in, ws, PResult, Src};
use crate::ast::Spanned;
use crate::limits::{MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD, MAX_THREADS};

/// A parser of one cell: the source, the cell's text, its column; the cell's items.
pub type CellParser<'a, I> = fn(&Src<'a>, &'a str, usize) -> PResult<'a, Vec<Spanned<I>>>;

/// What a dialect's table is made of. `H` is a thread header, `I` an instruction.
pub struct Layout<'a, H, I> {
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

pub type Columns<I> = Vec<Vec<Spanned<I>>>;

/// The header row, then rows up to where `layout.at_end` says the table ends.
pub fn table_of<'a, H, I>(
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
