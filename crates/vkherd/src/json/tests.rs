//! The schema types against the reporters: what is written reads back to the same bytes,
//! keys come in the documented order, and logs of older versions still read.

use super::*;
use crate::merge::{merge, shard_report_json, ShardIdentity, ShardPlace};
use crate::RunConfig;
use crate::{report, Options, Speedcheck};
use serde_json::Value;

/// MP with rel/acq at workgroup scope (litmus-tests/mp/MP-relacq-wg.litmus): three states,
/// two of them racy.
const MP: &str = "VULKAN MP-relacq-wg
\"MP, rel/acq\"
{ x = 0; y = 0; }
 P0@sg 0, wg 0, qf 0            | P1@sg 1, wg 0, qf 0              ;
 st.av.dv.sc0 x, 1              | ld.atom.acq.wg.sc0.semsc0 r0, y  ;
 st.atom.rel.wg.sc0.semsc0 y, 1 | ld.vis.dv.sc0 r1, x              ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)
";

fn program() -> crate::LoweredProgram {
    crate::load_litmus(MP).expect("MP loads")
}

/// The JSON line of MP's run with `opts`, with the run information.
fn line(opts: &Options) -> String {
    let p = program();
    let rep = crate::run(&p, opts).expect("MP runs");
    report::json(&rep, "mp.litmus", Some(&report::run_info(opts)))
}

fn read(line: &str) -> TestReport {
    match Line::parse(line).expect("a JSON line") {
        Line::Report(r) => *r,
        other => panic!("not a report: {other:?}"),
    }
}

#[test]
fn a_report_reads_back_into_the_types_and_writes_the_same_bytes() {
    let modes = [
        Options::default(),
        Options {
            run: RunConfig {
                states_only: true,
                ..RunConfig::default()
            },
            ..Options::default()
        },
        Options {
            run: RunConfig {
                speedcheck: Speedcheck::Fast,
                ..RunConfig::default()
            },
            ..Options::default()
        },
        Options {
            run: RunConfig {
                max_candidates: Some(1),
                timeout: Some(std::time::Duration::from_secs(7)),
                ..RunConfig::default()
            },
            ..Options::default()
        },
    ];
    for opts in &modes {
        let written = line(opts);
        let r = read(&written);
        assert_eq!(serde_json::to_string(&r).unwrap(), written);
    }
    // The fields that tell the modes apart were read, not defaulted.
    let full = read(&line(&modes[0]));
    assert_eq!(full.states.as_ref().map(Vec::len), Some(3));
    assert_eq!(full.states.unwrap()[0].values.0[0].0, "1:r0");
    assert_eq!(full.run.as_ref().map(|r| r.unroll), Some(2));
    assert_eq!(read(&line(&modes[1])).positive, None);
    assert_eq!(read(&line(&modes[2])).states, None);
    let partial = read(&line(&modes[3]));
    assert!(partial.partial);
    assert_eq!(
        partial.run.map(|r| r.limits),
        Some(Limits {
            max_candidates: Some(1),
            timeout_seconds: Some(7.0)
        })
    );
}

/// The keys of the run information, last in every object of a run, in order.
const RUN_INFO_KEYS: [&str; 7] = [
    "vkherd",
    "model",
    "variants",
    "unroll",
    "limits",
    "no_thin_air",
    "naive",
];

/// The keys of an object, in order.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn keys_come_in_the_order_docs_cli_md_gives() {
    let v: Value = serde_json::from_str(&line(&Options::default())).unwrap();
    assert_eq!(
        keys(&v),
        [
            "file",
            "name",
            "description",
            "kind",
            "verdict",
            "condition",
            "states",
            "positive",
            "negative",
            "flag_data_race",
            "speedcheck",
            "notes",
            "partial",
            "verdict_final",
            "bounded_empty",
            "stats",
        ]
        .into_iter()
        .chain(RUN_INFO_KEYS)
        .collect::<Vec<_>>()
    );
    assert_eq!(
        keys(&v["states"][0]),
        ["values", "racy_only", "thin_air_only", "count"]
    );
    assert_eq!(
        keys(&v["stats"]),
        [
            "candidates",
            "consistent",
            "pruned",
            "thin_air",
            "deadlocked_paths",
            "dropped_paths",
            "seconds"
        ]
    );
    assert_eq!(keys(&v["limits"]), ["max_candidates", "timeout_seconds"]);
}

/// Two shard reports of MP (of two), read back.
fn shards() -> Vec<TestReport> {
    let p = program();
    (0..2)
        .map(|index| {
            let opts = Options {
                run: RunConfig {
                    shard: Some(crate::Shard { index, count: 2 }),
                    ..RunConfig::default()
                },
                ..Options::default()
            };
            let rep = crate::run(&p, &opts).unwrap();
            let place = ShardPlace {
                index: index + 1,
                count: 2,
                by: ShardBy::Search,
                test: 0,
                tests: 1,
                identity: ShardIdentity::default(),
            };
            let info = report::run_info(&opts);
            let written = shard_report_json(&p, &rep, "mp.litmus", &opts, &place, Some(&info));
            let r = read(&written);
            assert_eq!(serde_json::to_string(&r).unwrap(), written);
            r
        })
        .collect()
}

#[test]
fn merged_shards_give_the_single_run_with_the_run_information_they_carry() {
    let single = crate::run(&program(), &Options::default()).unwrap();
    let merged = merge(&shards()).unwrap();
    assert_eq!(merged.len(), 1);
    let m = &merged[0];
    assert_eq!(report::herd_text(&m.report), report::herd_text(&single));
    assert_eq!(m.run_info, Some(report::run_info(&Options::default())));
}

#[test]
fn shard_reports_from_before_the_digests_and_the_run_information_still_merge() {
    let old: Vec<TestReport> = shards()
        .into_iter()
        .map(|mut r| {
            let shard = r.shard.as_mut().unwrap();
            (shard.run_digest, shard.source_digest) = (None, None);
            r.run = None;
            // As those versions wrote it: no digests, no run information.
            let mut v = serde_json::to_value(&r).unwrap();
            let m = v.as_object_mut().unwrap();
            for key in RUN_INFO_KEYS {
                assert!(m.remove(key).is_none());
            }
            let shard = m["shard"].as_object_mut().unwrap();
            shard.remove("run_digest");
            shard.remove("source_digest");
            read(&v.to_string())
        })
        .collect();
    let merged = merge(&old).unwrap();
    assert_eq!(merged[0].run_info, None);
    assert_eq!(
        report::herd_text(&merged[0].report),
        report::herd_text(&crate::run(&program(), &Options::default()).unwrap())
    );
}

#[test]
fn logs_of_the_first_json_versions_read_with_defaults_for_later_fields() {
    // The first JSON report (no description, per-state counts, speedcheck, verdict_final,
    // bounded_empty or run information) and an error object without line and column.
    let first = r#"{"file":"a.litmus","name":"MP","kind":"~exists","verdict":"No","condition":"(1:r0=1)","states":[{"values":{"1:r0":0},"racy_only":true,"thin_air_only":false}],"positive":1,"negative":2,"flag_data_race":true,"notes":[],"partial":false,"stats":{"candidates":3,"consistent":3,"pruned":0,"thin_air":0,"deadlocked_paths":0,"dropped_paths":0,"seconds":0.5}}"#;
    let r = read(first);
    assert_eq!((r.kind, r.verdict), (Kind::NotExists, crate::Verdict::No));
    assert!(r.verdict_final);
    assert_eq!(r.speedcheck, SpeedcheckWord::Off);
    assert_eq!((r.description.as_str(), r.bounded_empty), ("", false));
    assert_eq!(r.run, None);
    let states = r.states.unwrap();
    assert_eq!(states[0].count, None);
    assert!(states[0].racy_only);
    assert_eq!(r.stats.unwrap().seconds, Some(0.5));
    let error = r#"{"file":"b.litmus","error":{"location":"b.litmus","message":"m"}}"#;
    let Line::Error(e) = Line::parse(error).unwrap() else {
        panic!("not an error line")
    };
    assert_eq!((e.error.line, e.error.column, e.run), (None, None, None));
}

#[test]
fn pruned_counts_read_back_exactly_below_2_to_the_53_and_nearly_above() {
    let back = |n: u128| {
        let text = serde_json::to_string(&Pruned(n)).unwrap();
        serde_json::from_str::<Pruned>(&text).unwrap().0
    };
    for n in [0, 5, (1u128 << 53) - 1] {
        assert_eq!(back(n), n);
    }
    // Above, the double is an estimate, and serde_json's parser (without its
    // float_roundtrip feature) may be off by a unit in the last place.
    let n = 1u128 << 70;
    assert!((back(n) as f64 / n as f64 - 1.0).abs() < 1e-15);
    // Versions before u128 counts wrote any u64 as an integer.
    assert_eq!(
        serde_json::from_str::<Pruned>("18446744073709551615").unwrap(),
        Pruned(u128::from(u64::MAX))
    );
}

#[test]
fn a_line_without_name_is_an_error_that_names_the_missing_field() {
    let e = Line::parse(r#"{"verdict":"Ok"}"#).unwrap_err();
    assert!(e.to_string().contains("`name`"), "{e}");
}

#[test]
fn a_liveness_object_reads_back_into_its_types_and_writes_the_same_bytes() {
    // docs/liveness.md's object: keys in this order, `reason` null unless unknown,
    // `text` null when the report has no line for the invocation.
    let object = r#"{"verdict":"violation","progress":{"qf":"fair","wg":"obe","sg":"fair","inv":"fair"},"progress_text":"wg=obe,default=fair","threads":[{"thread":"P1","ending":"spinning","started":true,"text":null}],"reason":null,"combinations":4}"#;
    let back: crate::json::LivenessObject = serde_json::from_str(object).unwrap();
    assert_eq!(back.progress["wg"], "obe");
    assert_eq!(back.threads[0].thread, "P1");
    assert_eq!(back.threads[0].text, None);
    assert_eq!(serde_json::to_string(&back).unwrap(), object);
}
