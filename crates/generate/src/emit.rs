//! Writes a [`Test`] as a `.litmus` file in its dialect ([`GenDialect::write`], one writer
//! per dialect in [`super::dialects`]), and the parts every writer shares: the header,
//! the placement of an invocation, a table of columns, `locations` and `exists`.

use super::dialects::GenDialect;
use super::test::{loc_name, Obs, Op, Place, Test};

/// The test's text in its dialect.
pub fn text(test: &Test) -> String {
    test.dialect.write(test)
}

/// The header line (the dialect's header word and the test's name) and the description.
pub fn header(test: &Test) -> String {
    let description = test.description.replace(['{', '"'], "");
    format!(
        "{} {}\n\"{description}\"\n",
        test.dialect.dialect().header,
        test.name
    )
}

/// `sg 0, wg 1, qf 0`: an invocation's place, by the dialect's scope levels.
pub fn place_words(d: &dyn GenDialect, p: Place) -> String {
    let ids = [p.sg, p.wg, p.qf];
    d.dialect()
        .levels
        .iter()
        .zip(ids)
        .map(|(l, id)| format!("{} {id}", l.key))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Columns laid out as a table, one row per line: ` a | b ;`, each column padded to its
/// widest cell.
pub fn table(columns: &[Vec<String>]) -> String {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(String::len).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{:<w$}", c.get(r).map_or("", String::as_str)))
            .collect();
        out.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }
    out
}

/// How a dialect writes a value of the final state and an equation on it.
pub struct Condition {
    /// A register: `P1:r0` (Vulkan), `1:r0` (OpenCL).
    pub reg: fn(usize, u32) -> String,
    /// `==` or `=`.
    pub eq: &'static str,
}

fn obs_name(c: &Condition, o: Obs) -> String {
    match o {
        Obs::Reg { thread, reg } => (c.reg)(thread, reg),
        Obs::Loc(l) => loc_name(l),
    }
}

/// `locations [...]` and `exists (...)`.
pub fn tail(test: &Test, c: &Condition) -> String {
    let mut out = String::new();
    if !test.observe.is_empty() {
        let items: Vec<String> = test.observe.iter().map(|&o| obs_name(c, o)).collect();
        out.push_str(&format!("locations [{}]\n", items.join("; ")));
    }
    if !test.exists.is_empty() {
        let atoms: Vec<String> = test
            .exists
            .iter()
            .map(|&(o, v)| format!("{} {} {v}", obs_name(c, o), c.eq))
            .collect();
        out.push_str(&format!("exists ({})\n", atoms.join(" /\\ ")));
    }
    out
}

/// A register no read of the thread uses, for data dependencies.
pub fn scratch_base(ops: &[Op]) -> u32 {
    ops.iter()
        .filter_map(|op| match op {
            Op::Access { reg: Some(r), .. } => Some(*r + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}
