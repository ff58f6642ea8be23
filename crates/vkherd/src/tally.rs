//! The counts of a run's `.litmus` reports, as every summary gives them (the text
//! summary line, the HTML page's): one type counts them and one function words them, so
//! that the surfaces cannot disagree.

use crate::report::plural;
use crate::{Report, Verdict};

/// Counts of a run's reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub tests: u64,
    /// Settled verdicts.
    pub ok: u64,
    pub no: u64,
    /// Verdicts a stopped run left open (`??`): neither Ok nor No yet.
    pub open: u64,
    /// Tests some execution of which has a data race (`Flag data-race`).
    pub racy: u64,
    /// Tests some execution of which raises a flag of the model other than the data
    /// race (a user's model's `Flag NAME`).
    pub flagged: u64,
    /// Tests whose data-race flag is not known: `--states-only` and `--speedcheck fast`
    /// skip executions whose state is settled, so the flag is not reported (a test's
    /// report and the HTML table say `?`); such a test is not counted racy or race-free.
    pub race_unknown: u64,
    /// Runs stopped by a limit.
    pub partial: u64,
    pub bounded_empty: u64,
    /// With `--liveness`: tests with a liveness violation, with an unknown answer, and
    /// with `ok`.
    pub liveness: Option<(u64, u64, u64)>,
}

impl Tally {
    /// Counts a test's report.
    pub fn count(&mut self, r: &Report) {
        self.tests += 1;
        match r.verdict {
            _ if !r.verdict_final() => self.open += 1,
            Verdict::Ok => self.ok += 1,
            Verdict::No => self.no += 1,
        }
        if r.counts_absent {
            self.race_unknown += 1;
        } else {
            self.racy += u64::from(r.outcomes.data_race());
            self.flagged += u64::from(r.outcomes.other_flags());
        }
        self.partial += u64::from(r.stats.stopped.is_some());
        self.bounded_empty += u64::from(r.bounded_empty);
        if let Some(l) = &r.liveness {
            use vkherd_enumerate::liveness::Verdict as L;
            let (v, u, ok) = self.liveness.get_or_insert((0, 0, 0));
            match l.result.verdict {
                L::Violation => *v += 1,
                L::Unknown => *u += 1,
                L::Ok => *ok += 1,
            }
        }
    }

    /// `8 Ok, 3 No, 1 open, 4 racy, 1 partial, 0 bounded-empty`: Ok and No count settled
    /// verdicts only, `open` the `??` ones. `racy` is `?` when no test's race flag is
    /// known, and says how many are not known when only some are. `N flagged` follows it
    /// when some test raised another flag of its model (`Flag NAME`).
    pub fn verdicts(&self) -> String {
        let mut racy = match (self.racy, self.race_unknown) {
            (n, 0) => format!("{n} racy"),
            (0, _) => "? racy".to_string(),
            (n, unknown) => format!("{n} racy ({unknown} not known)"),
        };
        if self.flagged > 0 {
            racy.push_str(&format!(", {} flagged", self.flagged));
        }
        format!(
            "{} Ok, {} No, {} open, {racy}, {} partial, {} bounded-empty",
            self.ok, self.no, self.open, self.partial, self.bounded_empty
        )
    }

    /// `2 violations, 1 unknown`, with `--liveness`.
    pub fn liveness(&self) -> Option<String> {
        self.liveness
            .map(|(v, u, _)| format!("{}, {u} unknown", plural(v, "violation")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn racy_is_a_count_only_where_the_flag_is_known() {
        let t = Tally {
            ok: 2,
            racy: 1,
            ..Tally::default()
        };
        assert_eq!(
            t.verdicts(),
            "2 Ok, 0 No, 0 open, 1 racy, 0 partial, 0 bounded-empty"
        );
        let unknown = Tally {
            race_unknown: 2,
            ..t.clone()
        };
        assert_eq!(
            unknown.verdicts(),
            "2 Ok, 0 No, 0 open, 1 racy (2 not known), 0 partial, 0 bounded-empty"
        );
        let none_known = Tally { racy: 0, ..unknown };
        assert!(none_known.verdicts().contains(" ? racy,"));
    }

    #[test]
    fn tests_raising_other_flags_are_counted_after_the_racy_ones() {
        let t = Tally {
            racy: 1,
            flagged: 3,
            ..Tally::default()
        };
        assert_eq!(
            t.verdicts(),
            "0 Ok, 0 No, 0 open, 1 racy, 3 flagged, 0 partial, 0 bounded-empty"
        );
    }
}
