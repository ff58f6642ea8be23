//! Sharded runs (`--shard K/N`) and `vkherd merge`: the facts a shard's JSON carries
//! beyond the report, and the merge of the shards back into the reports of the whole run
//! (docs/sharding.md).
//!
//! A shard of one test's search explores a deterministic part of its work units
//! ([`vkherd_enumerate::Shard`]); the parts partition the search, so counts add up, states
//! unite, and a state is racy-only (thin-air-only) when it is in every shard that reached
//! it. A shard of several tests runs every N-th test whole.

use crate::{Options, Report, StopReason};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::time::Duration;
use vkherd_enumerate::{EnumStats, Outcomes, StateInfo};
use vkherd_model::Quantifier;
use vkherd_model::{CbarRule, Condition, FinalCondition, Location, Observable, Program};

/// How a run is split between shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardBy {
    /// One test: each shard runs part of its search.
    Search,
    /// Several tests: each shard runs every N-th test whole.
    Test,
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

/// The digests as a shard's JSON carries them (16 hex digits each).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct IdentityJson {
    run_digest: Option<String>,
    source_digest: Option<String>,
}

impl IdentityJson {
    fn of(identity: &ShardIdentity) -> IdentityJson {
        IdentityJson {
            run_digest: Some(format!("{:016x}", identity.run)),
            source_digest: Some(format!("{:016x}", identity.source)),
        }
    }

    /// Read from a shard object (absent digests, from versions before them, read as
    /// `None`, and agree only with each other).
    fn read(shard: &Value) -> Result<IdentityJson, String> {
        IdentityJson::deserialize(shard).map_err(|e| format!("a shard object's digests: {e}"))
    }
}

impl ShardPlace {
    /// Does shard K/N run test `test` of a run of several tests?
    pub fn runs_test(index: u64, count: u64, test: usize) -> bool {
        test as u64 % count + 1 == index
    }
}

/// The `shard` object of a shard's JSON report: its place, and what merging needs that
/// the report does not show (options that word the notes, raw enumeration counts, the
/// stop reason).
pub fn shard_json(report: &Report, opts: &Options, place: &ShardPlace) -> Value {
    let s = &report.stats;
    let mut v = json!({
        "index": place.index,
        "count": place.count,
        "by": match place.by { ShardBy::Search => "search", ShardBy::Test => "test" },
        "test": place.test,
        "tests": place.tests,
        "unroll": opts.unroll,
        "no_thin_air": opts.no_thin_air,
        "program_notes": crate::program_notes(&report.program, opts),
        "value_mismatch": s.value_mismatch,
        "thin_air_candidates": s.thin_air,
        "thread_without_paths": s.thread_without_paths,
        "cut_by_state": s.cut_by_state,
        "stopped": match s.stopped {
            None => Value::Null,
            Some(StopReason::Timeout(t)) => json!({"reason": "timeout", "seconds": t.as_secs_f64()}),
            Some(StopReason::MaxCandidates(n)) => json!({"reason": "max_candidates", "limit": n}),
        },
    });
    let identity = serde_json::to_value(IdentityJson::of(&place.identity));
    if let (Value::Object(m), Ok(Value::Object(digests))) = (&mut v, identity) {
        m.extend(digests);
    }
    v
}

/// A shard's JSON report of one test: the report's JSON with the `shard` object added.
pub fn shard_report_json(
    report: &Report,
    file: &str,
    opts: &Options,
    place: &ShardPlace,
    info: &Map<String, Value>,
) -> String {
    let mut info = info.clone();
    info.insert("shard".into(), shard_json(report, opts, place));
    crate::report::json(report, file, &info)
}

/// One test of the whole run, put back together.
#[derive(Debug, Clone)]
pub struct Merged {
    pub file: String,
    pub report: Report,
    /// The run information the shards' objects carry ([`crate::report::run_info`]).
    pub run_info: Map<String, Value>,
}

fn field<'v>(v: &'v Value, key: &str) -> Result<&'v Value, String> {
    v.get(key)
        .ok_or_else(|| format!("a shard report has no `{key}`"))
}

fn uint(v: &Value, key: &str) -> Result<u64, String> {
    field(v, key)?
        .as_u64()
        .ok_or_else(|| format!("`{key}` is not a count"))
}

fn string(v: &Value, key: &str) -> Result<String, String> {
    field(v, key)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("`{key}` is not a string"))
}

fn boolean(v: &Value, key: &str) -> Result<bool, String> {
    field(v, key)?
        .as_bool()
        .ok_or_else(|| format!("`{key}` is not true or false"))
}

/// Merges the JSON reports of every shard of a run (any order) into the run's tests, in
/// the run's order. Fails if a report is not a shard report, shards disagree, or a part
/// is missing (a shard that failed or was not run).
pub fn merge(objects: &[Value]) -> Result<Vec<Merged>, String> {
    let mut first: Option<((u64, String, u64), Option<String>)> = None;
    let mut by_test: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for o in objects {
        let shard = o.get("shard").ok_or(
            "a report without `shard`: merge takes the JSON of runs with --shard K/N --json",
        )?;
        let key = (
            uint(shard, "count")?,
            string(shard, "by")?,
            uint(shard, "tests")?,
        );
        let run = IdentityJson::read(shard)?.run_digest;
        match &first {
            None => first = Some((key, run)),
            Some((k, _)) if *k != key => {
                return Err(format!(
                    "shard reports of different runs: {}/{} by {} and {}/{} by {}",
                    k.2, k.0, k.1, key.2, key.0, key.1
                ))
            }
            Some((_, r)) if *r != run => {
                return Err(
                    "shard reports of different runs: their lists of files differ (run every shard with the same paths)"
                        .into(),
                )
            }
            Some(_) => {}
        }
        by_test.entry(uint(shard, "test")?).or_default().push(o);
    }
    let Some(((count, by, tests), _)) = first else {
        return Err("no shard reports to merge".into());
    };
    let mut out = Vec::new();
    for test in 0..tests {
        let parts = by_test.remove(&test).unwrap_or_default();
        let mut indices: Vec<u64> = parts
            .iter()
            .map(|o| uint(&o["shard"], "index"))
            .collect::<Result<_, _>>()?;
        indices.sort_unstable();
        let expected: Vec<u64> = if by == "search" {
            (1..=count).collect()
        } else {
            vec![test % count + 1]
        };
        if indices != expected {
            let missing: Vec<String> = expected
                .iter()
                .filter(|k| !indices.contains(k))
                .map(|k| format!("{k}/{count}"))
                .collect();
            return Err(if missing.is_empty() {
                format!("test {} comes more than once from one shard", test + 1)
            } else {
                format!(
                    "test {} of {tests} has no report from shard {} (did it fail?)",
                    test + 1,
                    missing.join(", ")
                )
            });
        }
        out.push(merge_test(&parts)?);
    }
    if let Some((test, _)) = by_test.into_iter().next() {
        return Err(format!(
            "a shard report for test {} of a run of {tests}",
            test + 1
        ));
    }
    Ok(out)
}

/// Merges the shards of one test.
fn merge_test(parts: &[&Value]) -> Result<Merged, String> {
    let head = parts[0];
    let (file, name) = (string(head, "file")?, string(head, "name")?);
    let source = IdentityJson::read(field(head, "shard")?)?.source_digest;
    for p in parts {
        if string(p, "file")? != file || string(p, "name")? != name {
            return Err(format!(
                "shards of one test name different tests: {file} ({name}) and {} ({})",
                string(p, "file")?,
                string(p, "name")?
            ));
        }
        if IdentityJson::read(field(p, "shard")?)?.source_digest != source {
            return Err(format!(
                "shards of one test ran different sources of {file} ({name}): the file differs between them"
            ));
        }
    }
    let mut outcomes = Outcomes::default();
    let mut stats = EnumStats::default();
    let mut columns: Option<Vec<String>> = None;
    let mut seconds = 0.0;
    for p in parts {
        let st = field(p, "stats")?;
        let shard = field(p, "shard")?;
        for state in field(p, "states")?
            .as_array()
            .ok_or("`states` is not a list")?
        {
            let values = field(state, "values")?
                .as_object()
                .ok_or("`values` is not an object")?;
            let cols: Vec<String> = values.keys().cloned().collect();
            if columns.get_or_insert_with(|| cols.clone()) != &cols {
                return Err(format!("{file}: shards disagree on the columns of a state"));
            }
            let key: Vec<i64> = values
                .values()
                .map(|v| v.as_i64().ok_or("a state value is not an integer"))
                .collect::<Result<_, _>>()?;
            let e = outcomes.states.entry(key).or_insert(StateInfo::default());
            e.count += uint(state, "count")?;
            e.race_free |= !boolean(state, "racy_only")?;
            e.not_thin_air |= !boolean(state, "thin_air_only")?;
        }
        outcomes.positive += uint(p, "positive")?;
        outcomes.negative += uint(p, "negative")?;
        outcomes.flag_data_race |= boolean(p, "flag_data_race")?;
        outcomes.consistent += uint(st, "consistent")?;
        outcomes.thin_air += uint(st, "thin_air")?;
        stats.candidates += uint(st, "candidates")?;
        // Exact below 2^53, an estimate written as a double above (`report::pruned_json`).
        let pruned = field(st, "pruned")?;
        let pruned = pruned
            .as_u64()
            .map(u128::from)
            .or_else(|| pruned.as_f64().map(|f| f as u128))
            .ok_or("`pruned` is not a count")?;
        stats.pruned = stats.pruned.saturating_add(pruned);
        stats.deadlocked_paths += uint(st, "deadlocked_paths")?;
        // Every shard lays out the same paths.
        stats.dropped_paths = uint(st, "dropped_paths")?;
        stats.thread_without_paths = field(shard, "thread_without_paths")?
            .as_u64()
            .map(|t| t as usize);
        stats.cut_by_state |= boolean(shard, "cut_by_state")?;
        stats.value_mismatch += uint(shard, "value_mismatch")?;
        stats.thin_air += uint(shard, "thin_air_candidates")?;
        seconds += field(st, "seconds")?.as_f64().unwrap_or(0.0);
        if stats.stopped.is_none() {
            stats.stopped = stop_reason(field(shard, "stopped")?)?;
        }
    }
    let opts = Options {
        unroll: uint(&head["shard"], "unroll")? as u32,
        no_thin_air: boolean(&head["shard"], "no_thin_air")?,
        speedcheck: match head.get("speedcheck").and_then(Value::as_str) {
            Some("true") => crate::Speedcheck::True,
            _ => crate::Speedcheck::Off,
        },
        ..Options::default()
    };
    let program = program_shell(head, columns.unwrap_or_default())?;
    let program_notes = field(&head["shard"], "program_notes")?
        .as_array()
        .ok_or("`program_notes` is not a list")?
        .iter()
        .map(|n| {
            n.as_str()
                .map(str::to_string)
                .ok_or("a program note is not a string")
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The run information every object carries, as the shards wrote it.
    let run_info = crate::report::run_info(&Options::default())
        .keys()
        .filter_map(|k| head.get(k).map(|v| (k.clone(), v.clone())))
        .collect();
    Ok(Merged {
        file,
        run_info,
        report: Report::assemble(program, outcomes, stats, &opts, program_notes, seconds),
    })
}

fn stop_reason(v: &Value) -> Result<Option<StopReason>, String> {
    if v.is_null() {
        return Ok(None);
    }
    Ok(Some(match string(v, "reason")?.as_str() {
        "timeout" => StopReason::Timeout(Duration::from_secs_f64(
            field(v, "seconds")?.as_f64().unwrap_or(0.0),
        )),
        "max_candidates" => StopReason::MaxCandidates(uint(v, "limit")?),
        other => return Err(format!("unknown stop reason `{other}`")),
    }))
}

/// The part of a [`Program`] the reporters read, rebuilt from a JSON report: name,
/// description, quantifier and condition text, and the state columns (as locations named
/// after them, so that each column prints under its name).
fn program_shell(head: &Value, columns: Vec<String>) -> Result<Program, String> {
    let quantifier = match string(head, "kind")?.as_str() {
        "exists" => Quantifier::Exists,
        "~exists" => Quantifier::NotExists,
        "forall" => Quantifier::Forall,
        other => return Err(format!("unknown condition kind `{other}`")),
    };
    Ok(Program {
        dialect: vkherd_model::Dialect::default(),
        reg_names: Default::default(),
        // The shard's notes carry them (`program_notes`).
        warnings: Vec::new(),
        name: string(head, "name")?,
        description: string(head, "description")?,
        threads: Vec::new(),
        observed: (0..columns.len()).map(Observable::Loc).collect(),
        locations: columns
            .into_iter()
            .map(|name| Location { name, init: 0 })
            .collect(),
        references: Vec::new(),
        ssw: Vec::new(),
        cbar_rule: CbarRule::Workgroup,
        filter: None,
        condition: Some(FinalCondition {
            quantifier,
            cond: Condition::True,
            text: string(head, "condition")?,
        }),
        constants: Vec::new(),
    })
}
