//! Why enumeration failed.

use crate::combine::{BarrierError, BarrierRule, Layout};
use crate::paths::PathLimitError;
use std::fmt;
use vkherd_litmus::Span;
use vkherd_model::{Instruction, Program};

/// Why enumeration failed: a kind (what a caller reads to place or classify the error,
/// never the message), the span of the blamed instruction if there is one, and the
/// `--unroll` bound the limits were met at. `Display` gives the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumError {
    /// The blamed instruction; `Span::default()` (line 0) when the error concerns a
    /// thread or the whole test (`crates/vkherd/src/locate.rs` places those).
    pub span: Span,
    pub kind: EnumErrorKind,
    /// The unroll bound of the run, part of the wording of the path limits.
    pub unroll: u32,
}

/// The kinds of enumeration errors (the limits of docs/errors.md "On the enumeration").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnumErrorKind {
    /// A barrier instance breaks a rule of the input format's barrier rule
    /// (control-barriers.md); the span is the blamed barrier's.
    BarrierRule(BarrierRule),
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
    /// `--progress` names a level the test's dialect does not have.
    Progress(crate::liveness::progress::ProgressError),
}

impl EnumErrorKind {
    /// The thread the error concerns, if it concerns one thread.
    pub fn thread(&self) -> Option<usize> {
        match self {
            EnumErrorKind::Paths(
                PathLimitError::TooMany { thread, .. } | PathLimitError::TooLong { thread, .. },
            ) => Some(*thread),
            EnumErrorKind::BarrierRule(_)
            | EnumErrorKind::TooManyThinAir { .. }
            | EnumErrorKind::TooManyReadsFrom
            | EnumErrorKind::TooManyPathCombinations { .. }
            | EnumErrorKind::TooManyEvents { .. }
            | EnumErrorKind::Progress(_) => None,
        }
    }
}

impl fmt::Display for EnumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unroll = self.unroll;
        match &self.kind {
            EnumErrorKind::Paths(PathLimitError::TooMany { thread, limit }) => write!(
                f,
                "thread P{thread} has more than {limit} paths at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::Paths(PathLimitError::TooLong { thread, limit }) => write!(
                f,
                "the paths of thread P{thread} execute more than {limit} instructions in all at --unroll {unroll}: lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyPathCombinations {
                combinations,
                limit,
            } => write!(
                f,
                "{combinations} path combinations at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyEvents { events, limit } => write!(
                f,
                "a path combination has {events} events at --unroll {unroll} (more than {limit}): lower --unroll or simplify the loops"
            ),
            EnumErrorKind::TooManyThinAir { limit } => write!(
                f,
                "too many thin-air value assignments to try (more than {limit}): the test has long cycles of values through rf"
            ),
            EnumErrorKind::TooManyReadsFrom => {
                f.write_str("too many reads-from candidates to enumerate (more than 2^64)")
            }
            EnumErrorKind::BarrierRule(rule) => rule.fmt(f),
            EnumErrorKind::Progress(e) => write!(f, "--progress: {e}"),
        }
    }
}

impl std::error::Error for EnumError {}

impl EnumError {
    /// An error of the test as a whole (no span), of `kind`, for a run at `unroll`.
    pub(crate) fn of_kind(kind: EnumErrorKind, unroll: u32) -> EnumError {
        EnumError {
            span: Span::default(),
            kind,
            unroll,
        }
    }

    /// The error for a candidate whose thin-air values are too many to try.
    pub(crate) fn thin_air() -> EnumError {
        let limit = crate::values::MAX_THIN_AIR_ASSIGNMENTS;
        // (The unroll bound is not part of its wording.)
        EnumError::of_kind(EnumErrorKind::TooManyThinAir { limit }, 0)
    }
}

/// A broken barrier rule as an error at the blamed barrier's instruction.
pub(crate) fn barrier_error(program: &Program, lay: &Layout, e: BarrierError) -> EnumError {
    let ev = &lay.events[e.event];
    let span = match &program.threads[ev.thread].code[ev.instr] {
        Instruction::Access(a) => a.span,
        _ => Span::default(),
    };
    EnumError {
        span,
        kind: EnumErrorKind::BarrierRule(e.rule),
        unroll: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{collect_outcomes, AnyEngine, EnumOptions, HandEngine};

    /// 65 reads of `x`, each of which may read the initial value or the one write: 2^65
    /// reads-from candidates, too many for the plain enumeration's 64-bit counter.
    #[test]
    fn too_many_reads_from_is_its_kind() {
        let mut src = String::from(
            "VULKAN many-reads\n{ x = 0; }\nP0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n",
        );
        src.push_str("ld.sc0 r0, x | st.sc0 x, 1 ;\n");
        for r in 1..65 {
            src.push_str(&format!("ld.sc0 r{r}, x | ;\n"));
        }
        src.push_str("exists (P0:r0 == 1)\n");
        let program = vkherd_dialects::vulkan::lower_litmus(
            &vkherd_dialects::vulkan::parse_litmus(&src).unwrap(),
        )
        .unwrap();
        let opts = EnumOptions {
            run: crate::RunConfig {
                naive: true,
                ..crate::RunConfig::default()
            },
            engine: AnyEngine::Hand(HandEngine::default()),
            ..EnumOptions::default()
        };
        let e = collect_outcomes(&program, &opts).unwrap_err();
        assert_eq!(e.kind, EnumErrorKind::TooManyReadsFrom);
        assert_eq!(e.span.line, 0, "an error of the test as a whole");
        assert_eq!(
            e.to_string(),
            "too many reads-from candidates to enumerate (more than 2^64)"
        );
    }

    /// Each kind's wording, as docs/errors.md and the CLI's snapshots show it: the
    /// unroll bound in the path limits, not in the others.
    #[test]
    fn each_kind_is_worded_from_its_data() {
        let at = |kind, unroll| EnumError::of_kind(kind, unroll).to_string();
        assert_eq!(
            at(
                EnumErrorKind::Paths(PathLimitError::TooMany {
                    thread: 1,
                    limit: 7
                }),
                3
            ),
            "thread P1 has more than 7 paths at --unroll 3: lower --unroll or simplify the loops"
        );
        assert_eq!(
            at(EnumErrorKind::Paths(PathLimitError::TooLong { thread: 0, limit: 9 }), 2),
            "the paths of thread P0 execute more than 9 instructions in all at --unroll 2: lower --unroll or simplify the loops"
        );
        assert_eq!(
            at(EnumErrorKind::TooManyPathCombinations { combinations: 12, limit: 10 }, 4),
            "12 path combinations at --unroll 4 (more than 10): lower --unroll or simplify the loops"
        );
        assert_eq!(
            at(EnumErrorKind::TooManyEvents { events: 5, limit: 4 }, 1),
            "a path combination has 5 events at --unroll 1 (more than 4): lower --unroll or simplify the loops"
        );
        assert_eq!(
            EnumError::thin_air().to_string(),
            format!(
                "too many thin-air value assignments to try (more than {}): the test has long cycles of values through rf",
                crate::values::MAX_THIN_AIR_ASSIGNMENTS
            )
        );
        assert_eq!(
            EnumError::of_kind(EnumErrorKind::TooManyThinAir { limit: 3 }, 0)
                .kind
                .thread(),
            None
        );
        assert_eq!(
            EnumErrorKind::Paths(PathLimitError::TooLong {
                thread: 2,
                limit: 9
            })
            .thread(),
            Some(2)
        );
    }
}
