//! `--shard K/N` and `vkherd merge`: the shards of a run partition its work, and merging
//! their JSON gives back the single run's report byte for byte (text, and JSON apart from
//! the time).

use crate::common;

use crate::util::{tmp_path, vkherd};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(crate::util::corpus(rel))
}
use vkherd::json::TestReport;
use vkherd::merge::{merge, shard_report_json, ShardBy, ShardIdentity, ShardPlace};
use vkherd::RunConfig;
use vkherd::{report, Options, Shard};

/// The JSON without the time, which differs from run to run.
/// A shard's JSON object (without run information) of `program`'s report, read back.
fn shard_json_value(
    program: &vkherd::LoweredProgram,
    rep: &vkherd::Report,
    file: &str,
    opts: &vkherd::Options,
    place: &vkherd::merge::ShardPlace,
) -> TestReport {
    let text = shard_report_json(program, rep, file, opts, place, None);
    serde_json::from_str(&text).expect("JSON")
}

/// The JSON object of a report (without run information), parsed.
fn json_value(rep: &vkherd::Report, file: &str) -> Value {
    serde_json::from_str(&report::json(rep, file, None)).expect("JSON")
}

fn timeless(mut v: Value) -> String {
    v["stats"].as_object_mut().expect("stats").remove("seconds");
    v.to_string()
}

/// Runs `rel` whole and in `count` shards; returns (single, merged) text and JSON. Checks
/// that at least `busy_shards` shards had work.
fn single_and_merged(
    rel: &str,
    opts: &Options,
    count: u64,
    busy_shards: u64,
) -> [(String, String); 2] {
    let path = corpus(rel);
    let file = path.display().to_string();
    let program = vkherd::load_litmus(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let single = vkherd::run(&program, opts).unwrap();
    let mut shards = Vec::new();
    let mut busy = 0;
    for index in 0..count {
        let o = Options {
            run: RunConfig {
                shard: Some(Shard { index, count }),
                ..opts.run.clone()
            },
            ..opts.clone()
        };
        let rep = vkherd::run(&program, &o).unwrap();
        if u128::from(rep.stats.candidates) + rep.stats.pruned > 0 {
            busy += 1;
        }
        let place = ShardPlace {
            index: index + 1,
            count,
            by: ShardBy::Search,
            test: 0,
            tests: 1,
            identity: ShardIdentity::default(),
        };
        shards.push(shard_json_value(&program, &rep, &file, &o, &place));
    }
    assert!(
        busy >= busy_shards,
        "{rel}: the work is not split ({busy} busy shards)"
    );
    shards.reverse(); // merge does not depend on the order of its input
    let merged = merge(&shards).unwrap();
    assert_eq!(merged.len(), 1);
    let m = &merged[0];
    [
        (report::herd_text(&single), report::herd_text(&m.report)),
        (
            timeless(json_value(&single, &file)),
            timeless(json_value(&m.report, &m.file)),
        ),
    ]
}

#[test]
fn four_merged_shards_equal_the_single_run() {
    // Several path combinations with deadlocks and dropped paths; one path combination
    // (whose 16 rf choices spread over all shards); several quorum meetings; RMWs and spin
    // loops; thin air; a location column. Below 32 path combinations the shards split
    // each search; the XF barrier's 81 combinations are dealt out whole (its plain
    // enumeration takes seconds, as does the ticket lock's: pruned search only). The
    // safety search's value screen skips some of Cbar-loop's meetings whole, counted
    // as pruned by the shard that owns their root, so three of its shards are busy.
    for (rel, busy, naive_too) in [
        ("control-flow/Cbar-loop.litmus", 3, true),
        ("control-flow/TicketLock-wg.litmus", 4, false),
        ("control-flow/MP-spin-relacq.litmus", 2, true),
        ("control-flow/XF-barrier.litmus", 4, false),
        ("iriw/IRIW.litmus", 4, true),
        ("quorum/Quorum-MP-Q3.litmus", 2, true),
        ("rmw/RMW-atomicity.litmus", 2, true),
        ("thin-air/LB-data-42.litmus", 2, true),
        ("2+2W/2+2W.litmus", 2, true),
    ] {
        for naive in [false, true] {
            if naive && !naive_too {
                continue;
            }
            let opts = Options {
                run: RunConfig {
                    naive,
                    ..RunConfig::default()
                },
                ..Options::default()
            };
            for (single, merged) in single_and_merged(rel, &opts, 4, busy) {
                assert_eq!(single, merged, "{rel} naive={naive}");
            }
        }
    }
}

#[test]
fn merged_shards_keep_the_notes_of_options() {
    let opts = Options {
        run: RunConfig {
            no_thin_air: true,
            unroll: 1,
            ..RunConfig::default()
        },
        ..Options::default()
    };
    for rel in [
        "thin-air/LB-data-42.litmus",
        "control-flow/Cbar-loop.litmus",
    ] {
        for (single, merged) in single_and_merged(rel, &opts, 3, 2) {
            assert_eq!(single, merged, "{rel}");
        }
    }
}

/// Random tests (the differential test's generator, with and without jumps and spin
/// loops): three merged shards equal the single run, for the pruned search and plain
/// enumeration.
#[test]
fn merged_shards_equal_the_single_run_on_random_tests() {
    let mut compared = 0;
    for seed in (0..60).chain(10_000..10_060) {
        let source = common::random_test(seed, seed >= 10_000);
        let program = vkherd::load_litmus(&source).unwrap();
        for naive in [false, true] {
            let opts = Options {
                run: RunConfig {
                    naive,
                    ..RunConfig::default()
                },
                ..Options::default()
            };
            let Ok(single) = vkherd::run(&program, &opts) else {
                continue;
            };
            if single.stats.candidates > 20_000 {
                continue;
            }
            let shards: Vec<TestReport> = (0..3)
                .map(|index| {
                    let o = Options {
                        run: RunConfig {
                            shard: Some(Shard { index, count: 3 }),
                            ..opts.run.clone()
                        },
                        ..opts.clone()
                    };
                    let rep = vkherd::run(&program, &o).unwrap();
                    let place = ShardPlace {
                        index: index + 1,
                        count: 3,
                        by: ShardBy::Search,
                        test: 0,
                        tests: 1,
                        identity: ShardIdentity::default(),
                    };
                    shard_json_value(&program, &rep, "t", &o, &place)
                })
                .collect();
            let merged = merge(&shards).unwrap();
            assert_eq!(
                timeless(json_value(&merged[0].report, "t")),
                timeless(json_value(&single, "t")),
                "seed {seed} naive={naive}\n{source}"
            );
            compared += 1;
        }
    }
    // Nearly every seed is compared, not skipped.
    assert!(compared >= 220, "only {compared} of 240 runs compared");
}

fn write_jsonl(name: &str, outputs: &[Output]) -> PathBuf {
    let path = tmp_path(name);
    let text: Vec<u8> = outputs.iter().flat_map(|o| o.stdout.clone()).collect();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_directory_is_sharded_by_test_and_merges_back_in_order() {
    let dir = corpus("mp");
    let dir = dir.to_str().unwrap();
    let shards: Vec<Output> = (1..=3)
        .map(|k| vkherd(&["--json", "--shard", &format!("{k}/3"), dir]))
        .collect();
    for s in &shards {
        assert_eq!(s.status.code(), Some(0));
    }
    // Every test is in exactly one shard.
    let lines: usize = shards
        .iter()
        .map(|s| {
            s.stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count()
        })
        .sum();
    let single = vkherd(&[dir]);
    assert_eq!(
        lines,
        String::from_utf8_lossy(&single.stdout)
            .matches("\nObservation ")
            .count()
    );
    let jsonl = write_jsonl("shards-mp.jsonl", &shards);
    let merged = vkherd(&["merge", jsonl.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(0));
    // The directory run ends with its summary line (tests, verdicts, time); merge prints
    // the reports only.
    let single_stdout = String::from_utf8_lossy(&single.stdout);
    let (reports, _summary) = single_stdout
        .rsplit_once("Summary: ")
        .expect("a directory run ends with its summary line");
    assert_eq!(String::from_utf8_lossy(&merged.stdout), reports);
    assert_eq!(merged.stderr, single.stderr);
}

#[test]
fn merge_refuses_a_missing_shard_and_plain_reports() {
    let t = corpus("iriw/IRIW.litmus");
    let t = t.to_str().unwrap();
    let two: Vec<Output> = [1, 3]
        .iter()
        .map(|k| vkherd(&["--json", "--shard", &format!("{k}/3"), t]))
        .collect();
    let jsonl = write_jsonl("shards-missing.jsonl", &two);
    let out = vkherd(&["merge", jsonl.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has no report from shard 2/3"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plain = write_jsonl("shards-plain.jsonl", &[vkherd(&["--json", t])]);
    let out = vkherd(&["merge", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("without `shard`"));
    let out = vkherd(&["--shard", "0/3", t]);
    assert_eq!(out.status.code(), Some(2));
}
