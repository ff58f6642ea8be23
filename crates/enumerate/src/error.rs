//! Why enumeration failed.

use crate::combine::{BarrierError, Layout};
use crate::paths::PathLimitError;
use vkherd_litmus::Span;
use vkherd_model::{Instruction, Program};

/// Why enumeration failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumError {
    pub span: Span,
    pub message: String,
    /// What the error is about, for the errors that have a kind of their own.
    pub kind: EnumErrorKind,
}

/// The kinds of enumeration errors (the limits of docs/errors.md "On the enumeration"):
/// what a caller reads to place or classify an error, never the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumErrorKind {
    /// A barrier instance breaks a rule of the input format's barrier rule
    /// (control-barriers.md); the span is the blamed barrier's.
    BarrierRule,
    /// A candidate has more than `limit` thin-air value assignments to try.
    TooManyThinAir { limit: usize },
    /// The plain enumeration's reads-from candidates do not fit in 64 bits.
    TooManyReadsFrom,
    /// A limit on one thread's paths at the unroll bound.
    Paths(PathLimitError),
    /// More than `limit` path combinations (the product of the threads' paths).
    TooManyPathCombinations { combinations: u64, limit: u64 },
    /// Some path combination has `events` events, more than `limit`.
    TooManyEvents { events: usize, limit: usize },
}

impl EnumErrorKind {
    /// The thread the error concerns, if it concerns one thread.
    pub fn thread(&self) -> Option<usize> {
        match *self {
            EnumErrorKind::Paths(
                PathLimitError::TooMany { thread, .. } | PathLimitError::TooLong { thread, .. },
            ) => Some(thread),
            EnumErrorKind::BarrierRule
            | EnumErrorKind::TooManyThinAir { .. }
            | EnumErrorKind::TooManyReadsFrom
            | EnumErrorKind::TooManyPathCombinations { .. }
            | EnumErrorKind::TooManyEvents { .. } => None,
        }
    }
}

impl EnumError {
    /// An error of the test as a whole, of `kind`, worded for a run at `unroll`.
    pub(crate) fn of_kind(kind: EnumErrorKind, unroll: u32) -> EnumError {
        let message = match kind {
            EnumErrorKind::Paths(PathLimitError::TooMany { thread, limit }) => format!(
                "thread P{thread} has more than {limit} paths at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::Paths(PathLimitError::TooLong { thread, limit }) => format!(
                "the paths of thread P{thread} execute more than {limit} instructions in all at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyPathCombinations { combinations, limit } => format!(
                "{combinations} path combinations at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyEvents { events, limit } => format!(
                "a path combination has {events} events at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyThinAir { limit } => format!(
                "too many thin-air value assignments to try (more than {limit}): the test has long cycles of values through rf"
            ),
            EnumErrorKind::TooManyReadsFrom => {
                "too many reads-from candidates to enumerate (more than 2^64)".to_string()
            }
            // Worded by the rule broken ([`barrier_error`]).
            EnumErrorKind::BarrierRule => String::new(),
        };
        EnumError {
            span: Span::default(),
            message,
            kind,
        }
    }
}

pub(crate) fn barrier_error(program: &Program, lay: &Layout, e: BarrierError) -> EnumError {
    let ev = &lay.events[e.event];
    let span = match &program.threads[ev.thread].code[ev.instr] {
        Instruction::Access(a) => a.span,
        _ => Span::default(),
    };
    EnumError {
        span,
        message: e.message,
        kind: EnumErrorKind::BarrierRule,
    }
}

impl EnumError {
    /// The error for a candidate whose thin-air values are too many to try.
    pub(crate) fn thin_air() -> EnumError {
        let limit = crate::values::MAX_THIN_AIR_ASSIGNMENTS;
        // (The unroll bound is not part of its wording.)
        EnumError::of_kind(EnumErrorKind::TooManyThinAir { limit }, 0)
    }
}
