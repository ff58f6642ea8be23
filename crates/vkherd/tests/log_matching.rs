//! `compare` and `merge` match the right tests (issue 21, item 4): two files may hold
//! tests of the same name, so logs are matched by file path where both name it, then by
//! name and position; duplicate names are reported and never hide a change. `merge` never
//! puts together the parts of different runs or of different sources of one test.

use crate::util::{bin, fresh_dir as dir, text, vkherd, write_file as write};
use std::path::Path;

/// One herd-style report of a test named `name` with one state and a verdict.
fn text_report(name: &str, state: &str, verdict: &str) -> String {
    let (pos, neg) = if verdict == "Ok" { (1, 0) } else { (0, 1) };
    format!(
        "Test {name} Allowed\nStates 1\n{state}\n{verdict}\nWitnesses\nPositive: {pos} Negative: {neg}\nCondition exists (0:r0=0)\nObservation {name} Sometimes {pos} {neg}\n\n"
    )
}

/// One JSON report of a test named `name` in `file`.
fn json_report(file: &str, name: &str, r0: i64, verdict: &str) -> String {
    format!(
        "{{\"file\":\"{file}\",\"name\":\"{name}\",\"kind\":\"exists\",\"verdict\":\"{verdict}\",\"condition\":\"(0:r0=0)\",\"states\":[{{\"values\":{{\"0:r0\":{r0}}},\"racy_only\":false,\"thin_air_only\":false,\"count\":1}}],\"partial\":false,\"verdict_final\":true,\"stats\":{{\"seconds\":0.01}}}}\n"
    )
}

/// `compare OLD NEW` on two logs written into `d`: (exit code, stdout, stderr).
fn compare(d: &Path, old: &str, new: &str, json: bool) -> (Option<i32>, String, String) {
    let (o, n) = (
        write(&d.join("old.log"), old),
        write(&d.join("new.log"), new),
    );
    let mut args = vec!["compare", &o, &n];
    if json {
        args.push("--json");
    }
    let out = vkherd(&args);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn compare_reports_a_flipped_verdict_of_either_of_two_text_tests_that_share_a_name() {
    let d = dir("matching-text");
    // Two files, one test name (herd7's logs name no file): SB of a/ is Ok, SB of b/ is No.
    let log = |first: &str, second: &str| {
        text_report("SB", "0:r0=0;", first) + &text_report("SB", "0:r0=1;", second)
    };
    let same = log("Ok", "No");
    let (code, stdout, stderr) = compare(&d, &same, &same, false);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("Compare: 2 tests in both, 0 changed verdict"),
        "{stdout}"
    );
    assert!(
        stderr.contains("old.log: 1 name carried by more than one test (SB)"),
        "{stderr}"
    );
    // Flipping the first of the pair: before, the second hid the first (one entry per
    // name), "0 changed verdict", exit code 0.
    for (flipped, label) in [
        (log("No", "No"), "SB (1st of 2)"),
        (log("Ok", "Ok"), "SB (2nd of 2)"),
    ] {
        let (code, stdout, _) = compare(&d, &same, &flipped, false);
        assert_eq!(code, Some(1), "{stdout}");
        assert!(stdout.contains(&format!("{label}: verdict ")), "{stdout}");
        assert!(
            stdout.contains("Compare: 2 tests in both, 1 changed verdict"),
            "{stdout}"
        );
    }
}

#[test]
fn compare_matches_json_tests_by_file_whatever_their_order_and_counts_duplicate_names() {
    let d = dir("matching-json");
    let a = json_report("a/SB.litmus", "SB", 0, "Ok");
    let b = json_report("b/SB.litmus", "SB", 1, "No");
    let old = format!("{a}{b}");
    // The same results in another order: by file, nothing changed (by name and position,
    // a's SB would be compared with b's).
    let (code, stdout, stderr) = compare(&d, &old, &format!("{b}{a}"), false);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stderr.contains("1 name carried by more than one test"),
        "{stderr}"
    );
    // The first of the pair flipped: reported under its file.
    let flipped = json_report("a/SB.litmus", "SB", 0, "No");
    let (code, stdout, _) = compare(&d, &old, &format!("{flipped}{b}"), false);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("SB (a/SB.litmus): verdict Ok -> No"),
        "{stdout}"
    );
    let (code, stdout, _) = compare(&d, &old, &format!("{flipped}{b}"), true);
    assert_eq!(code, Some(1), "{stdout}");
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["file"]["old"], "a/SB.litmus", "{stdout}");
    assert_eq!(first["verdict"]["new"], "No", "{stdout}");
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["verdict_changes"], 1, "{stdout}");
    assert_eq!(summary["summary"]["duplicate_names"]["old"], 1, "{stdout}");
}

#[test]
fn compare_matches_litmus7_text_tests_by_the_file_their_log_names() {
    let d = dir("matching-litmus7");
    let a = format!(
        "% Results for a/SB.litmus %\n{}",
        text_report("SB", "0:r0=0;", "Ok")
    );
    let b = format!(
        "% Results for b/SB.litmus %\n{}",
        text_report("SB", "0:r0=1;", "No")
    );
    let (code, stdout, _) = compare(&d, &format!("{a}{b}"), &format!("{b}{a}"), false);
    assert_eq!(code, Some(0), "{stdout}");
    let flipped = format!(
        "% Results for b/SB.litmus %\n{}",
        text_report("SB", "0:r0=1;", "Ok")
    );
    let (code, stdout, _) = compare(&d, &format!("{a}{b}"), &format!("{flipped}{a}"), false);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("SB (b/SB.litmus): verdict No -> Ok"),
        "{stdout}"
    );
}

/// SB with a condition on `P0:r0 == V`: two tests named SB with different verdicts.
fn sb(v: i64) -> String {
    let sb = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../litmus-tests/sb/SB.litmus"
    ))
    .expect("the corpus's SB");
    let condition = sb.lines().last().unwrap();
    sb.replace(condition, &format!("exists (P0:r0 == {v})"))
}

#[test]
fn merge_refuses_shards_of_two_sources_that_share_a_file_name_and_a_test_name() {
    let d = dir("matching-merge-sources");
    write(&d.join("one/SB.litmus"), &sb(0));
    write(&d.join("two/SB.litmus"), &sb(5));
    // Shard 1 run in one/, shard 2 in two/, both on `SB.litmus`: before, the parts were
    // added up under the first one's condition, exit code 0.
    let mut parts = String::new();
    for (k, sub) in [("1/2", "one"), ("2/2", "two")] {
        let out = bin()
            .current_dir(d.join(sub))
            .args(["-j", "1", "--json", "--shard", k, "SB.litmus"])
            .output()
            .expect("run vkherd");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        parts.push_str(&text(&out.stdout));
    }
    let jsonl = write(&d.join("parts.jsonl"), &parts);
    let out = vkherd(&["merge", &jsonl]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("shards of one test ran different sources of SB.litmus (SB)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn merge_keeps_every_test_of_a_shared_name_and_refuses_shards_of_other_file_lists() {
    let d = dir("matching-merge-lists");
    let a = write(&d.join("a/SB.litmus"), &sb(0));
    let b = write(&d.join("b/SB.litmus"), &sb(5));
    let c = write(&d.join("c/SB.litmus"), &sb(1));
    let shard = |k: &str, files: &[&str]| {
        let mut args = vec!["-j", "1", "--json", "--shard", k];
        args.extend(files);
        text(&vkherd(&args).stdout)
    };
    // The two shards of one run: both SB reports come back, in order, as the single run.
    let parts = shard("1/2", &[&a, &b]) + &shard("2/2", &[&a, &b]);
    let out = vkherd(&["merge", &write(&d.join("run.jsonl"), &parts)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let single = text(&vkherd(&["-j", "1", &a, &b]).stdout);
    let reports = single.split("Summary:").next().unwrap();
    assert_eq!(text(&out.stdout), reports);
    assert_eq!(reports.matches("Test SB Allowed").count(), 2);
    // Shard 2 of a run of other files (as many): before, merged into a run of neither.
    let mixed = shard("1/2", &[&a, &b]) + &shard("2/2", &[&a, &c]);
    let out = vkherd(&["merge", &write(&d.join("mixed.jsonl"), &mixed)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("their lists of files differ"),
        "{}",
        text(&out.stderr)
    );
}
