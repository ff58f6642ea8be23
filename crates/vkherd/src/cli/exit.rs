//! The exit status of a run (documented in docs/cli.md and docs/observe.md).
//!
//! The variants are ordered by how much they matter when a run's tests end differently:
//! [`ExitStatus::combine`] keeps the greater. For the main form, `khronos`, `bench`,
//! `diff`, `report` and `merge`: bad input wins, then a partial result with an open
//! verdict, a failed check, a bounded-empty result, and a partial list of states under a
//! final verdict. For `observe`: a forbidden state observed wins, then no Vulkan, bad
//! input, a refused test. The two orders agree where they meet (bad input above
//! everything a run of the model can end with), so one order serves both.

/// How a run ended; [`ExitStatus::code`] is the process's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum ExitStatus {
    /// Complete.
    #[default]
    Ok,
    /// Stopped early, but every stopped test's verdict is settled: only state lists are
    /// partial.
    PartialVerdictFinal,
    /// Some test has no execution within `--unroll` (`States 0` only because of the bound).
    BoundedEmpty,
    /// A Khronos check failed (or a man page could not be rendered).
    Fail,
    /// A limit stopped a test before its verdict was settled.
    Partial,
    /// `observe`: some test cannot be expressed on the device (refused, not run).
    Refused,
    /// Bad input: a file, a test, an option.
    BadInput,
    /// `observe`: no Vulkan loader, no device, or a device that cannot run litmus tests.
    NoVulkan,
    /// `observe`: a state the model forbids was observed.
    ForbiddenObserved,
}

impl ExitStatus {
    /// The status of a run whose tests ended with `self` and `other`.
    pub fn combine(self, other: ExitStatus) -> ExitStatus {
        self.max(other)
    }

    /// The process's exit code.
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Ok => 0,
            ExitStatus::Fail => 1,
            ExitStatus::BadInput => 2,
            ExitStatus::Partial => 3,
            ExitStatus::PartialVerdictFinal => 4,
            ExitStatus::BoundedEmpty => 5,
            ExitStatus::ForbiddenObserved => 6,
            ExitStatus::NoVulkan => 7,
            ExitStatus::Refused => 8,
        }
    }

    /// Prints why the command line cannot be run (an unknown model, a variant it does
    /// not have, a cat file that does not compile: the message may end with a newline
    /// or not) and gives [`ExitStatus::BadInput`].
    pub fn bad_input(why: &dyn std::fmt::Display) -> ExitStatus {
        eprintln!("{}", why.to_string().trim_end());
        ExitStatus::BadInput
    }

    /// `observe`: the status of one test run on the device. A test on which no instance
    /// finished is [`ExitStatus::BoundedEmpty`], as a run of the model with no execution
    /// within `--unroll`: nothing ended within the bound (`--max-steps`), so there is no
    /// state to judge (docs/observe.md, "Hangs").
    pub fn of_observed(ending: vkherd::observed::Ending) -> ExitStatus {
        use vkherd::observed::Ending;
        match ending {
            Ending::Forbidden => ExitStatus::ForbiddenObserved,
            Ending::Hung => ExitStatus::BoundedEmpty,
            Ending::Allowed => ExitStatus::Ok,
        }
    }

    /// The status of one test's report.
    pub fn of_report(rep: &vkherd::Report) -> ExitStatus {
        // A liveness check stopped by a limit leaves its answer open: the run is partial
        // whatever the safety report (docs/liveness.md), also when the states found
        // settle its verdict.
        let liveness_stopped = rep
            .liveness
            .as_ref()
            .is_some_and(|l| l.result.stopped.is_some());
        if liveness_stopped {
            return ExitStatus::Partial;
        }
        match (rep.stats.stopped.is_some(), rep.verdict_final()) {
            (false, _) if rep.bounded_empty => ExitStatus::BoundedEmpty,
            (false, _) => ExitStatus::Ok,
            (true, true) => ExitStatus::PartialVerdictFinal,
            (true, false) => ExitStatus::Partial,
        }
    }
}

impl std::iter::Sum for ExitStatus {
    fn sum<I: Iterator<Item = ExitStatus>>(iter: I) -> ExitStatus {
        iter.fold(ExitStatus::Ok, ExitStatus::combine)
    }
}

#[cfg(test)]
mod tests {
    use super::ExitStatus::{self, *};

    /// The priorities the CLI had as `combine_status` over the i32 codes, and observe's.
    #[test]
    fn combining_keeps_the_status_that_matters_most() {
        let run_order = [
            Ok,
            PartialVerdictFinal,
            BoundedEmpty,
            Fail,
            Partial,
            BadInput,
        ];
        for (i, a) in run_order.iter().enumerate() {
            for b in &run_order[i..] {
                assert_eq!(a.combine(*b), *b, "{a:?} then {b:?}");
                assert_eq!(b.combine(*a), *b, "{b:?} then {a:?}");
            }
        }
        let observe_order = [Ok, Refused, BadInput, NoVulkan, ForbiddenObserved];
        for w in observe_order.windows(2) {
            assert_eq!(w[0].combine(w[1]), w[1]);
            assert_eq!(w[1].combine(w[0]), w[1]);
        }
    }

    /// A test on which no instance finished is not a success (issue 33): exit 5, below
    /// a forbidden state, no Vulkan, bad input and a refused test.
    #[test]
    fn a_test_on_which_no_instance_finished_is_not_a_success() {
        use vkherd::observed::Ending;
        assert_eq!(ExitStatus::of_observed(Ending::Hung).code(), 5);
        assert_eq!(ExitStatus::of_observed(Ending::Allowed).code(), 0);
        assert_eq!(ExitStatus::of_observed(Ending::Forbidden).code(), 6);
        for worse in [Refused, BadInput, NoVulkan, ForbiddenObserved] {
            assert_eq!(BoundedEmpty.combine(worse), worse);
        }
    }

    #[test]
    fn the_codes_are_the_documented_ones() {
        let codes: Vec<i32> = [
            Ok,
            Fail,
            BadInput,
            Partial,
            PartialVerdictFinal,
            BoundedEmpty,
            ForbiddenObserved,
            NoVulkan,
            Refused,
        ]
        .iter()
        .map(|s| ExitStatus::code(*s))
        .collect();
        assert_eq!(codes, (0..=8).collect::<Vec<_>>());
    }
}
