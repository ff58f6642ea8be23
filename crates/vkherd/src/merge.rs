//! Sharded runs (`--shard K/N`) and `vkherd merge`: the facts a shard's JSON carries
//! beyond the report, and the merge of the shards back into the reports of the whole run
//! (docs/sharding.md).
//!
//! A shard of one test's search explores a deterministic part of its work units
//! ([`vkherd_enumerate::Shard`]); the parts partition the search, so counts add up, states
//! unite, flags raised unite, and a state is racy-only (flagged-only, thin-air-only)
//! when it is so in every shard that reached it. A shard of several tests runs every N-th test whole.

use crate::header::{ConditionHeader, TestHeader};
pub use crate::json::ShardBy;
use crate::json::{RunInfo, ShardObject, SpeedcheckWord, Stopped, TestReport};
use crate::RunConfig;
use crate::{Options, Report, StopReason};
use std::collections::BTreeMap;
use std::time::Duration;
use vkherd_enumerate::{EnumStats, Outcomes, StateInfo};
use vkherd_model::{ModelFlag, Program};

/// The flags a JSON report says were raised: the data race from `flag_data_race`, the
/// others by name from `flags` (which lists the data race too, as `data-race`, when it
/// is present).
fn flags_of(data_race: bool, names: Option<&[String]>) -> Vec<ModelFlag> {
    let mut flags: Vec<ModelFlag> = (names.into_iter().flatten())
        .filter(|n| !(data_race && *n == ModelFlag::DataRace.name()))
        .map(|n| ModelFlag::Named(n.as_str().into()))
        .collect();
    if data_race {
        flags.push(ModelFlag::DataRace);
    }
    flags
}

/// Where a shard's report sits in the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardPlace {
    /// K of `--shard K/N` (from 1).
    pub index: u64,
    /// N.
    pub count: u64,
    pub by: ShardBy,
    /// The test's position among the run's tests (from 0), and their number.
    pub test: usize,
    pub tests: usize,
    /// Which run and which test source the report is of.
    pub identity: ShardIdentity,
}

/// Digests that tell runs and test sources apart, so that `merge` never puts together the
/// parts of different runs, or of two different tests that share a file name and a test
/// name (run from different directories, or edited between the shards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShardIdentity {
    /// [`digest`] of the run's list of files (paths as given, one per line, in order).
    pub run: u64,
    /// [`digest`] of the test's source text.
    pub source: u64,
}

impl ShardIdentity {
    /// The identity of a run of `files`, before any source is read.
    pub fn of_run<S: AsRef<str>>(files: &[S]) -> ShardIdentity {
        let list: Vec<&str> = files.iter().map(AsRef::as_ref).collect();
        ShardIdentity {
            run: digest(list.join("\n").as_bytes()),
            source: 0,
        }
    }
}

/// FNV-1a, 64 bits: a digest that is the same on every machine and every build (std's
/// hashers promise neither), for telling inputs apart, not for security.
pub fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl ShardPlace {
    /// Does shard K/N run test `test` of a run of several tests?
    pub fn runs_test(index: u64, count: u64, test: usize) -> bool {
        test as u64 % count + 1 == index
    }
}

/// The `shard` object of a shard's JSON report: its place, and what merging needs that
/// the report does not show (options that word the notes, raw enumeration counts, the
/// stop reason). `program` is the test the report is of.
pub fn shard_object(
    program: &Program,
    report: &Report,
    opts: &Options,
    place: &ShardPlace,
) -> ShardObject {
    let s = &report.stats;
    ShardObject {
        index: place.index,
        count: place.count,
        by: place.by,
        test: place.test,
        tests: place.tests,
        unroll: opts.run.unroll,
        no_thin_air: opts.run.no_thin_air,
        program_notes: crate::program_notes(program, report.model.as_deref()),
        value_mismatch: s.value_mismatch,
        thin_air_candidates: s.thin_air,
        thread_without_paths: s.thread_without_paths,
        cut_by_state: s.cut_by_state,
        stopped: s.stopped.map(|reason| match reason {
            StopReason::Timeout(t) => Stopped::Timeout {
                seconds: t.as_secs_f64(),
            },
            StopReason::MaxCandidates(limit) => Stopped::MaxCandidates { limit },
        }),
        run_digest: Some(hex(place.identity.run)),
        source_digest: Some(hex(place.identity.source)),
    }
}

/// A digest as a shard's JSON carries it: 16 hex digits.
fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}

/// A shard's JSON report of one test: the report's JSON with the `shard` object added.
pub fn shard_report_json(
    program: &Program,
    report: &Report,
    file: &str,
    opts: &Options,
    place: &ShardPlace,
    info: Option<&RunInfo>,
) -> String {
    let mut object = crate::report::json_object(report, file, info);
    object.shard = Some(shard_object(program, report, opts, place));
    let mut out = Vec::new();
    crate::report::write_object(&mut out, &object).expect("writing to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// One test of the whole run, put back together.
#[derive(Debug, Clone)]
pub struct Merged {
    pub file: String,
    pub report: Report,
    /// The run information the shards' objects carry ([`crate::report::run_info`]), if
    /// they carry it.
    pub run_info: Option<RunInfo>,
}

/// What `merge` says of a line that is not a shard's test report.
pub const NOT_A_SHARD_REPORT: &str =
    "a report without `shard`: merge takes the JSON of runs with --shard K/N --json";

/// Why shard reports cannot be merged. Tests are numbered from 1, as the messages show
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// A report without a `shard` object ([`NOT_A_SHARD_REPORT`]).
    NotAShardReport,
    /// Two shards split different runs: (number of tests, N, by) of each.
    DifferentSplits {
        first: (usize, u64, ShardBy),
        other: (usize, u64, ShardBy),
    },
    /// Two shards ran different lists of files.
    DifferentFileLists,
    /// Nothing to merge.
    NoReports,
    /// Test `test` comes twice from one shard.
    Duplicate { test: usize },
    /// Test `test` of `tests` lacks the reports of the shards `missing` (K of K/`count`).
    Missing {
        test: usize,
        tests: usize,
        missing: Vec<u64>,
        count: u64,
    },
    /// A report for test `test`, beyond the run's `tests`.
    Stray { test: usize, tests: usize },
    /// The shards of one test name different tests.
    DifferentTests {
        file: String,
        name: String,
        other_file: Option<String>,
        other_name: String,
    },
    /// The shards of one test ran different sources of it.
    DifferentSources { file: String, name: String },
    /// The shards of one test disagree on the columns of a state.
    DifferentColumns { file: String },
    /// A field merging needs is missing or null.
    MissingField { key: &'static str },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::NotAShardReport => f.write_str(NOT_A_SHARD_REPORT),
            MergeError::DifferentSplits { first, other } => write!(
                f,
                "shard reports of different runs: {}/{} by {} and {}/{} by {}",
                first.0,
                first.1,
                by_word(first.2),
                other.0,
                other.1,
                by_word(other.2)
            ),
            MergeError::DifferentFileLists => f.write_str(
                "shard reports of different runs: their lists of files differ (run every shard with the same paths)",
            ),
            MergeError::NoReports => f.write_str("no shard reports to merge"),
            MergeError::Duplicate { test } => {
                write!(f, "test {test} comes more than once from one shard")
            }
            MergeError::Missing {
                test,
                tests,
                missing,
                count,
            } => {
                let shards: Vec<String> = missing.iter().map(|k| format!("{k}/{count}")).collect();
                write!(
                    f,
                    "test {test} of {tests} has no report from shard {} (did it fail?)",
                    shards.join(", ")
                )
            }
            MergeError::Stray { test, tests } => {
                write!(f, "a shard report for test {test} of a run of {tests}")
            }
            MergeError::DifferentTests {
                file,
                name,
                other_file,
                other_name,
            } => write!(
                f,
                "shards of one test name different tests: {file} ({name}) and {} ({other_name})",
                other_file.as_deref().unwrap_or("no file")
            ),
            MergeError::DifferentSources { file, name } => write!(
                f,
                "shards of one test ran different sources of {file} ({name}): the file differs between them"
            ),
            MergeError::DifferentColumns { file } => {
                write!(f, "{file}: shards disagree on the columns of a state")
            }
            MergeError::MissingField { key } => {
                write!(f, "a shard report has no `{key}` (or it is null)")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// A field `merge` needs that a shard report leaves out (or has `null`).
fn needed<T>(value: Option<T>, key: &'static str) -> Result<T, MergeError> {
    value.ok_or(MergeError::MissingField { key })
}

/// Merges the JSON reports of every shard of a run (any order) into the run's tests, in
/// the run's order. Fails if a report is not a shard report, shards disagree, or a part
/// is missing (a shard that failed or was not run).
pub fn merge(reports: &[TestReport]) -> Result<Vec<Merged>, MergeError> {
    // The first shard's split (N, by, number of tests) and run digest: every other
    // shard's must be the same.
    type Split = (u64, ShardBy, usize);
    let mut first: Option<(Split, Option<&str>)> = None;
    let mut by_test: BTreeMap<usize, Vec<(&TestReport, &ShardObject)>> = BTreeMap::new();
    for r in reports {
        let shard = r.shard.as_ref().ok_or(MergeError::NotAShardReport)?;
        let key = (shard.count, shard.by, shard.tests);
        let run = shard.run_digest.as_deref();
        match &first {
            None => first = Some((key, run)),
            Some((k, _)) if *k != key => {
                return Err(MergeError::DifferentSplits {
                    first: (k.2, k.0, k.1),
                    other: (key.2, key.0, key.1),
                })
            }
            Some((_, r)) if *r != run => return Err(MergeError::DifferentFileLists),
            Some(_) => {}
        }
        by_test.entry(shard.test).or_default().push((r, shard));
    }
    let Some(((count, by, tests), _)) = first else {
        return Err(MergeError::NoReports);
    };
    let mut out = Vec::new();
    for test in 0..tests {
        let parts = by_test.remove(&test).unwrap_or_default();
        let mut indices: Vec<u64> = parts.iter().map(|(_, shard)| shard.index).collect();
        indices.sort_unstable();
        let expected: Vec<u64> = match by {
            ShardBy::Search => (1..=count).collect(),
            ShardBy::Test => vec![test as u64 % count + 1],
        };
        if indices != expected {
            let missing: Vec<u64> = expected
                .iter()
                .filter(|k| !indices.contains(k))
                .copied()
                .collect();
            return Err(if missing.is_empty() {
                MergeError::Duplicate { test: test + 1 }
            } else {
                MergeError::Missing {
                    test: test + 1,
                    tests,
                    missing,
                    count,
                }
            });
        }
        out.push(merge_test(&parts)?);
    }
    if let Some((test, _)) = by_test.into_iter().next() {
        return Err(MergeError::Stray {
            test: test + 1,
            tests,
        });
    }
    Ok(out)
}

/// `search` or `test`, as the JSON has it.
fn by_word(by: ShardBy) -> &'static str {
    match by {
        ShardBy::Search => "search",
        ShardBy::Test => "test",
    }
}

/// Merges the shards of one test.
fn merge_test(parts: &[(&TestReport, &ShardObject)]) -> Result<Merged, MergeError> {
    let (head, head_shard) = parts[0];
    let file = needed(head.file.clone(), "file")?;
    let name = &head.name;
    for (p, shard) in parts {
        if p.file.as_ref() != Some(&file) || p.name != *name {
            return Err(MergeError::DifferentTests {
                file,
                name: name.clone(),
                other_file: p.file.clone(),
                other_name: p.name.clone(),
            });
        }
        if shard.source_digest != head_shard.source_digest {
            return Err(MergeError::DifferentSources {
                file,
                name: name.clone(),
            });
        }
    }
    let mut outcomes = Outcomes::default();
    let mut stats = EnumStats::default();
    let mut columns: Option<Vec<String>> = None;
    let mut seconds = 0.0;
    for (p, shard) in parts {
        let st = needed(p.stats.as_ref(), "stats")?;
        for state in needed(p.states.as_ref(), "states")? {
            let cols: Vec<String> = state.values.0.iter().map(|(c, _)| c.clone()).collect();
            if columns.get_or_insert_with(|| cols.clone()) != &cols {
                return Err(MergeError::DifferentColumns { file });
            }
            let key: Vec<i64> = state.values.0.iter().map(|(_, v)| *v).collect();
            let e = outcomes.states.entry(key).or_insert(StateInfo::default());
            e.count += needed(state.count, "count")?;
            e.race_free |= !state.racy_only;
            e.unflagged |= !state.racy_only && !state.flagged_only;
            e.not_thin_air |= !state.thin_air_only;
        }
        outcomes.positive += needed(p.positive, "positive")?;
        outcomes.negative += needed(p.negative, "negative")?;
        let data_race = needed(p.flag_data_race, "flag_data_race")?;
        outcomes
            .flags
            .extend(flags_of(data_race, p.flags.as_deref()));
        outcomes.consistent += st.consistent;
        outcomes.thin_air += st.thin_air;
        stats.candidates += st.candidates;
        stats.pruned = stats.pruned.saturating_add(st.pruned.0);
        stats.deadlocked_paths += st.deadlocked_paths;
        // Every shard lays out the same paths.
        stats.dropped_paths = st.dropped_paths;
        stats.thread_without_paths = shard.thread_without_paths;
        stats.cut_by_state |= shard.cut_by_state;
        stats.value_mismatch += shard.value_mismatch;
        stats.thin_air += shard.thin_air_candidates;
        seconds += st.seconds.unwrap_or(0.0);
        if stats.stopped.is_none() {
            stats.stopped = shard.stopped.as_ref().map(stop_reason);
        }
    }
    let run = RunConfig {
        unroll: head_shard.unroll,
        no_thin_air: head_shard.no_thin_air,
        speedcheck: match head.speedcheck {
            SpeedcheckWord::True => crate::Speedcheck::True,
            _ => crate::Speedcheck::Off,
        },
        ..RunConfig::default()
    };
    let header = TestHeader {
        name: name.clone(),
        description: head.description.clone(),
        dialect: None,
        condition: Some(ConditionHeader {
            quantifier: head.kind.into(),
            text: head.condition.clone(),
        }),
        columns: columns.unwrap_or_default(),
    };
    Ok(Merged {
        file,
        run_info: head.run.clone(),
        // The model's name is in the shards' run information (`run_info`).
        report: Report::assemble(
            header,
            None,
            (outcomes, stats),
            &run,
            false,
            head_shard.program_notes.clone(),
            seconds,
        ),
    })
}

fn stop_reason(stopped: &Stopped) -> StopReason {
    match *stopped {
        Stopped::Timeout { seconds } => StopReason::Timeout(Duration::from_secs_f64(seconds)),
        Stopped::MaxCandidates { limit } => StopReason::MaxCandidates(limit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SB: &str = "VULKAN SB\n{ x = 0; y = 0; }\nP0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n\
        st.sc0 x, 1 | st.sc0 y, 1 ;\nld.sc0 r0, y | ld.sc0 r0, x ;\n\
        exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

    /// The shard reports of SB run in `count` shards by search.
    fn shards(count: u64) -> Vec<TestReport> {
        let program = crate::load_litmus(SB).unwrap();
        (0..count)
            .map(|index| {
                let opts = Options {
                    run: RunConfig {
                        shard: Some(vkherd_enumerate::Shard { index, count }),
                        ..RunConfig::default()
                    },
                    ..Options::default()
                };
                let report = crate::run(&program, &opts).unwrap();
                let place = ShardPlace {
                    index: index + 1,
                    count,
                    by: ShardBy::Search,
                    test: 0,
                    tests: 1,
                    identity: ShardIdentity::default(),
                };
                let text = shard_report_json(&program, &report, "SB.litmus", &opts, &place, None);
                serde_json::from_str(&text).unwrap()
            })
            .collect()
    }

    /// The error of merging `reports`, with its message.
    fn refused(reports: &[TestReport]) -> (MergeError, String) {
        let e = merge(reports).unwrap_err();
        let text = e.to_string();
        (e, text)
    }

    /// Each way shards fail to merge is its kind, worded as `merge` prints it.
    #[test]
    fn shards_that_do_not_merge_give_their_kind() {
        let good = shards(2);
        assert_eq!(merge(&good).unwrap().len(), 1);

        assert_eq!(
            refused(&[]),
            (MergeError::NoReports, "no shard reports to merge".into())
        );

        let mut r = good.clone();
        r[1].shard = None;
        assert_eq!(
            refused(&r),
            (MergeError::NotAShardReport, NOT_A_SHARD_REPORT.into())
        );

        let mut r = good.clone();
        r[1].shard.as_mut().unwrap().count = 3;
        assert_eq!(
            refused(&r),
            (
                MergeError::DifferentSplits {
                    first: (1, 2, ShardBy::Search),
                    other: (1, 3, ShardBy::Search)
                },
                "shard reports of different runs: 1/2 by search and 1/3 by search".into()
            )
        );

        let mut r = good.clone();
        r[1].shard.as_mut().unwrap().run_digest = Some("1".into());
        assert_eq!(refused(&r).0, MergeError::DifferentFileLists);

        let r = vec![good[0].clone(), good[0].clone()];
        assert_eq!(
            refused(&r),
            (
                MergeError::Missing {
                    test: 1,
                    tests: 1,
                    missing: vec![2],
                    count: 2
                },
                "test 1 of 1 has no report from shard 2/2 (did it fail?)".into()
            )
        );

        let r = vec![good[0].clone(), good[0].clone(), good[1].clone()];
        assert_eq!(
            refused(&r),
            (
                MergeError::Duplicate { test: 1 },
                "test 1 comes more than once from one shard".into()
            )
        );

        let mut r = good.clone();
        let mut stray = good[0].clone();
        stray.shard.as_mut().unwrap().test = 4;
        r.push(stray);
        assert_eq!(
            refused(&r),
            (
                MergeError::Stray { test: 5, tests: 1 },
                "a shard report for test 5 of a run of 1".into()
            )
        );

        let mut r = good.clone();
        r[1].name = "SB2".into();
        assert_eq!(
            refused(&r).1,
            "shards of one test name different tests: SB.litmus (SB) and SB.litmus (SB2)"
        );

        let mut r = good.clone();
        r[1].shard.as_mut().unwrap().source_digest = Some("2".into());
        assert_eq!(
            refused(&r),
            (
                MergeError::DifferentSources {
                    file: "SB.litmus".into(),
                    name: "SB".into()
                },
                "shards of one test ran different sources of SB.litmus (SB): the file differs between them"
                    .into()
            )
        );

        let mut r = good.clone();
        r[1].positive = None;
        assert_eq!(
            refused(&r),
            (
                MergeError::MissingField { key: "positive" },
                "a shard report has no `positive` (or it is null)".into()
            )
        );

        let mut r = good.clone();
        for s in r[1].states.iter_mut().flatten() {
            s.values.0[0].0 = "z".into();
        }
        assert_eq!(
            refused(&r),
            (
                MergeError::DifferentColumns {
                    file: "SB.litmus".into()
                },
                "SB.litmus: shards disagree on the columns of a state".into()
            )
        );
    }
}
