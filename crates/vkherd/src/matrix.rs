//! The table a spec author reads off a family: for every variant, whether the cycle's
//! outcome is allowed, as a compact matrix (text, and HTML for `vkherd report`). Rows
//! range over the leading varied items, columns over the trailing ones.

use crate::escape::escape;
use crate::Report;
use serde::{Deserialize, Serialize};
use vkherd_generate::family::{Dimension, Variant};

/// The verdict on one test's condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// Some race-free execution reaches the outcome.
    Allowed,
    /// Only racy executions reach it.
    Racy,
    Forbidden,
    /// The test could not be run, or a limit stopped it before the verdict was settled.
    Unknown,
}

impl Cell {
    pub fn letter(self) -> char {
        match self {
            Cell::Allowed => 'A',
            Cell::Racy => 'R',
            Cell::Forbidden => 'F',
            Cell::Unknown => '?',
        }
    }

    fn word(self) -> &'static str {
        match self {
            Cell::Allowed => "allowed",
            Cell::Racy => "allowed (racy)",
            Cell::Forbidden => "forbidden",
            Cell::Unknown => "unknown",
        }
    }

    /// The verdict of a report on an `exists` test.
    pub fn of(report: &Report) -> Cell {
        if !report.verdict_final() || report.states_absent {
            return Cell::Unknown;
        }
        let mut reaching = report.outcomes.states.values().filter(|i| i.satisfies);
        match reaching.next() {
            None => Cell::Forbidden,
            Some(first) => {
                let race_free = first.race_free || reaching.any(|i| i.race_free);
                if race_free {
                    Cell::Allowed
                } else {
                    Cell::Racy
                }
            }
        }
    }
}

/// The legend printed with a table.
pub const LEGEND: &str =
    "A allowed, R allowed but every execution reaching it races, F forbidden, ? unknown, . no such variant";

/// How many trailing dimensions go to the columns: the most whose product stays small
/// (one at least when there are two or more).
fn column_dims(dims: &[Dimension]) -> usize {
    if dims.len() < 2 {
        return 0;
    }
    let mut cols = 0;
    let mut width = 1;
    for d in dims.iter().rev() {
        if cols > 0 && (width * d.values.len() > 16 || cols + 1 == dims.len()) {
            break;
        }
        width *= d.values.len();
        cols += 1;
    }
    cols
}

/// Every combination of values of `dims`, first slowest.
fn combinations(dims: &[Dimension]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for d in dims {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..d.values.len()).map(move |k| {
                    let mut q = p.clone();
                    q.push(k);
                    q
                })
            })
            .collect();
    }
    out
}

/// The layout shared by the text and the HTML table.
struct Layout<'a> {
    rows: &'a [Dimension],
    cols: &'a [Dimension],
    row_keys: Vec<Vec<usize>>,
    col_keys: Vec<Vec<usize>>,
    /// The verdict at (row, column), if some variant has those values.
    cells: Vec<Vec<Option<Cell>>>,
}

fn layout<'a>(dims: &'a [Dimension], variants: &[Variant], verdicts: &[Cell]) -> Layout<'a> {
    let split = dims.len() - column_dims(dims);
    let (rows, cols) = dims.split_at(split);
    let row_keys = combinations(rows);
    let col_keys = combinations(cols);
    let mut cells = vec![vec![None; col_keys.len()]; row_keys.len()];
    let index = |keys: &[Vec<usize>], v: &[usize]| keys.iter().position(|k| k == v);
    for var in variants {
        let (r, c) = var.values.split_at(split);
        if let (Some(r), Some(c)) = (index(&row_keys, r), index(&col_keys, c)) {
            cells[r][c] = verdicts.get(var.test).copied();
        }
    }
    // Rows no variant reaches (a placement that cannot close) are left out.
    let keep: Vec<bool> = cells
        .iter()
        .map(|r| r.iter().any(Option::is_some))
        .collect();
    let row_keys = row_keys
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| r)
        .collect();
    let cells = cells
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| r)
        .collect();
    Layout {
        rows,
        cols,
        row_keys,
        col_keys,
        cells,
    }
}

/// Counts of each verdict over the variants.
pub fn summary(variants: &[Variant], verdicts: &[Cell]) -> String {
    let count = |c: Cell| {
        variants
            .iter()
            .filter(|v| verdicts.get(v.test) == Some(&c))
            .count()
    };
    format!(
        "{} variants: {} allowed, {} allowed (racy), {} forbidden, {} unknown",
        variants.len(),
        count(Cell::Allowed),
        count(Cell::Racy),
        count(Cell::Forbidden),
        count(Cell::Unknown)
    )
}

/// The table as text.
pub fn text(dims: &[Dimension], variants: &[Variant], verdicts: &[Cell]) -> String {
    let l = layout(dims, variants, verdicts);
    // Widths of the row-label columns and of the cell columns.
    let label_w: Vec<usize> = l
        .rows
        .iter()
        .enumerate()
        .map(|(i, d)| {
            l.row_keys
                .iter()
                .map(|k| d.values[k[i]].len())
                .chain([d.name.len()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let cell_w: Vec<usize> = l
        .col_keys
        .iter()
        .map(|k| {
            k.iter()
                .enumerate()
                .map(|(i, &v)| l.cols[i].values[v].len())
                .max()
                .unwrap_or(7)
                .max(1)
        })
        .collect();
    let left: usize = label_w.iter().map(|w| w + 2).sum();
    let mut out = String::new();
    for (i, d) in l.cols.iter().enumerate() {
        let mut line = format!(
            "{:>w$}",
            format!("{} ", d.name),
            w = left.max(d.name.len() + 1)
        );
        for (k, w) in l.col_keys.iter().zip(&cell_w) {
            line.push_str(&format!(" {:<w$}", d.values[k[i]]));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut line = String::new();
    for (d, w) in l.rows.iter().zip(&label_w) {
        line.push_str(&format!("{:<w$}  ", d.name));
    }
    if l.cols.is_empty() {
        line.push_str(" verdict");
    }
    out.push_str(line.trim_end());
    out.push('\n');
    for (key, cells) in l.row_keys.iter().zip(&l.cells) {
        let mut line = String::new();
        for (i, (d, w)) in l.rows.iter().zip(&label_w).enumerate() {
            line.push_str(&format!("{:<w$}  ", d.values[key[i]]));
        }
        let pad = left.saturating_sub(line.len());
        line.push_str(&" ".repeat(pad));
        for (c, w) in cells.iter().zip(&cell_w) {
            let letter = c.map_or('.', Cell::letter);
            line.push_str(&format!(" {letter:<w$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The table as an HTML fragment (a `<table>`), each cell titled with its verdict.
pub fn html(dims: &[Dimension], variants: &[Variant], verdicts: &[Cell]) -> String {
    let l = layout(dims, variants, verdicts);
    let mut out = String::from("<table class=\"family\">\n");
    for (i, d) in l.cols.iter().enumerate() {
        out.push_str("<tr>");
        for _ in 1..l.rows.len().max(1) {
            out.push_str("<th></th>");
        }
        out.push_str(&format!("<th class=\"dim\">{}</th>", escape(&d.name)));
        for k in &l.col_keys {
            out.push_str(&format!("<th>{}</th>", escape(&d.values[k[i]])));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("<tr>");
    for d in l.rows {
        out.push_str(&format!("<th class=\"dim\">{}</th>", escape(&d.name)));
    }
    if l.rows.is_empty() {
        out.push_str("<th></th>");
    }
    if l.cols.is_empty() {
        out.push_str("<th>verdict</th>");
    }
    out.push_str("</tr>\n");
    for (key, cells) in l.row_keys.iter().zip(&l.cells) {
        out.push_str("<tr>");
        for (i, d) in l.rows.iter().enumerate() {
            out.push_str(&format!("<th>{}</th>", escape(&d.values[key[i]])));
        }
        if l.rows.is_empty() {
            out.push_str("<th></th>");
        }
        for c in cells {
            match c {
                Some(c) => out.push_str(&format!(
                    "<td class=\"v{}\" title=\"{}\">{}</td>",
                    c.letter(),
                    c.word(),
                    c.letter()
                )),
                None => out.push_str("<td title=\"no such variant\">.</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// Runs tests (their `.litmus` text, or why it could not be read) and gives each one's
/// verdict, in order; the tests run in parallel.
pub fn verdicts(sources: &[Result<String, String>], opts: &crate::Options) -> Vec<Cell> {
    runs(sources, opts)
        .iter()
        .map(|r| r.as_ref().map_or(Cell::Unknown, Cell::of))
        .collect()
}

/// Runs tests as [`verdicts`] does and gives each one's report, or why it has none (the
/// text could not be read, loaded or run), so that a caller can tell a limit's `?` from
/// an error's and exit accordingly.
pub fn runs(
    sources: &[Result<String, String>],
    opts: &crate::Options,
) -> Vec<Result<Report, String>> {
    use rayon::prelude::*;
    sources
        .par_iter()
        .map(|s| match s {
            Ok(text) => crate::load_litmus(text)
                .and_then(|p| crate::run(&p, opts))
                .map_err(|d| d.to_string()),
            Err(e) => Err(e.clone()),
        })
        .collect()
}
