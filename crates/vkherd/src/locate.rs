//! Errors of the enumerator as diagnostics that name a real line and column.
//!
//! Some enumeration errors concern a thread ("thread P1 has more than 100000 paths": the
//! thread of its [`vkherd_enumerate::EnumErrorKind`]) or the whole test ("too many
//! thin-air value assignments") and come without a span. They are placed here: a thread's error at its first jump (the source of its paths) or else
//! its first instruction; a whole-test error at line 1, column 1, with a message that says
//! so. An error never renders as line 0.

use vkherd_enumerate::EnumError;
use vkherd_litmus::{Diagnostic, Span};
use vkherd_model::{Instruction, Program};

/// The span of line 1, column 1 (the test as a whole).
pub const WHOLE_TEST: Span = Span {
    offset: 0,
    len: 0,
    line: 1,
    column: 1,
};

fn instruction_span(i: &Instruction) -> Span {
    match i {
        Instruction::Access(a) => a.span,
        Instruction::Arith { span, .. } | Instruction::Jump { span, .. } => *span,
    }
}

/// Where a thread-wide problem shows: the thread's first jump, else its first instruction.
fn thread_span(program: &Program, t: usize) -> Option<Span> {
    let code = &program.threads.get(t)?.code;
    code.iter()
        .find(|i| matches!(i, Instruction::Jump { .. }))
        .or_else(|| code.first())
        .map(instruction_span)
        .filter(|s| s.line > 0)
}

/// Turns an enumeration error into a diagnostic with a real line and column.
pub fn enum_diagnostic(program: &Program, e: EnumError) -> Diagnostic {
    if e.span.line > 0 {
        return Diagnostic::new(e.span, e.to_string());
    }
    if let Some(span) = e.kind.thread().and_then(|t| thread_span(program, t)) {
        return Diagnostic::new(span, e.to_string());
    }
    Diagnostic::new(
        WHOLE_TEST,
        format!("{e} (this concerns the test as a whole)"),
    )
}
