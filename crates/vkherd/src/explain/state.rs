//! `--state "1:r0=1; 1:r1=0;"`: the values of the final state to explain.

use vkherd_litmus::{Diagnostic, Span};
use vkherd_model::{Observable, Program};

/// Parses `--state "1:r0=1; 1:r1=0;"` (also `P1:r0=1`, `x=1`, `/\` between items) into
/// values of the test's observed registers and locations. Errors point into `text`.
pub fn parse_state(program: &Program, text: &str) -> Result<Vec<(Observable, i64)>, Diagnostic> {
    let mut out = Vec::new();
    let mut offset = 0;
    let cleaned = text.replace("/\\", "; ");
    for item in cleaned.split(';') {
        let start = offset;
        offset += item.len() + 1;
        let trimmed = item.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = item.len() - item.trim_start().len();
        let span = |from: usize, len: usize| Span {
            offset: start + lead + from,
            len: len.max(1),
            line: 1,
            column: (start + lead + from + 1) as u32,
        };
        let Some((name, value)) = trimmed.split_once('=') else {
            return Err(Diagnostic::new(
                span(0, trimmed.len()),
                format!("`{trimmed}` is not `NAME=VALUE`: expected items like `1:r0=1;` or `x=2;`"),
            ));
        };
        let name = name.trim().trim_end_matches('=').trim();
        let value_text = value.trim().trim_start_matches('=').trim();
        let value: i64 = value_text.parse().map_err(|_| {
            let at = trimmed.find(value_text).unwrap_or(0);
            Diagnostic::new(
                span(at, value_text.len()),
                format!("`{value_text}` is not an integer: expected a value like `1` or `-2`"),
            )
        })?;
        let canonical = match name.strip_prefix('P') {
            Some(rest) if rest.contains(':') => rest,
            _ => name,
        };
        let Some(&o) = program
            .observed
            .iter()
            .find(|&&o| program.observable_name(o) == canonical)
        else {
            let columns = program
                .observed
                .iter()
                .map(|&o| program.observable_name(o))
                .collect::<Vec<_>>()
                .join(", ");
            let known_location = program.locations.iter().any(|l| l.name == canonical);
            let why = if known_location || canonical.contains(':') {
                "it is not in the final state: add it to `locations [...]` to observe it"
            } else {
                "the test has no such register or location"
            };
            let columns = if columns.is_empty() {
                "no columns (the test's condition, filter and `locations` name nothing)".to_string()
            } else {
                columns
            };
            return Err(Diagnostic::new(
                span(0, name.len()),
                format!("`{name}`: {why}; the final state has {columns}"),
            ));
        };
        out.push((o, value));
    }
    if out.is_empty() {
        return Err(Diagnostic::new(
            Span {
                offset: 0,
                len: text.len().max(1),
                line: 1,
                column: 1,
            },
            "empty state: expected items like `1:r0=1; x=2;`",
        ));
    }
    Ok(out)
}
