//! A run stopped by a limit never passes for a complete one (issue 21, items 3 and 5):
//! `diff` reports a state as allowed by one model only when the other model's run is
//! complete, marks a test partial when either run is, and exits 3 (4 when settled); a
//! partial report's verdict line is `??` while the verdict is open, so that no log reader
//! takes it for a final `Ok` or `No`.
//!
//! Partial runs are made deterministic with `--max-candidates` and `-j 1`, never timing.

use crate::util::{text, tmp_path, vkherd, write_file};
use std::collections::BTreeSet;

fn write(name: &str, contents: &str) -> String {
    write_file(&tmp_path(name), contents)
}

/// `vkherd gen FAMILY N`, written to a file of its own for the test `test` (tests run in
/// parallel: none reads a file another is writing).
fn generated(test: &str, family: &str, n: &str) -> String {
    let out = vkherd(&["gen", family, n]);
    assert_eq!(out.status.code(), Some(0));
    write(&format!("{test}-{family}-{n}.litmus"), &text(&out.stdout))
}

/// A model that allows every candidate (no check at all): far more states than Vulkan on
/// the inter-workgroup barrier, and no pruning, so its runs stop where Vulkan's finish.
fn anything_goes(test: &str) -> String {
    write(
        &format!("{test}-anything.cat"),
        "\"anything goes\"\nlet co = asmo\n",
    )
}

/// The state lines of a complete run of `file` under `model`, from its JSON.
fn complete_states(model: &str, file: &str) -> BTreeSet<String> {
    let out = vkherd(&["--json", "-j", "1", "--model", model, file]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(v["partial"], false);
    v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let values = s["values"].as_object().unwrap();
            let items: Vec<String> = values.iter().map(|(k, v)| format!("{k}={v};")).collect();
            items.join(" ")
        })
        .collect()
}

/// The lines `  only MODEL: STATE` of a diff's text, as (model, state).
fn only_lines(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  only "))
        .map(|l| {
            let (model, state) = l.split_once(": ").expect("only MODEL: STATE");
            (model.to_string(), state.to_string())
        })
        .collect()
}

#[test]
fn diff_of_two_partial_runs_reports_no_state_as_one_models_only() {
    // Vulkan and the model without checks find different states in their first 300
    // candidates: before, every state one run had not reached yet was listed as allowed
    // by the other model only, "1 differ", exit code 0.
    let xf = generated("two-partial", "xf-barrier", "4");
    let weak = anything_goes("two-partial");
    let args = [
        "diff",
        "-j",
        "1",
        "--max-candidates",
        "300",
        "vulkan",
        &weak,
        &xf,
    ];
    let out = vkherd(&args);
    let stdout = text(&out.stdout);
    assert!(only_lines(&stdout).is_empty(), "{stdout}");
    assert!(
        stdout.contains("  partial: vulkan stopped at the limit of 300 candidates (--max-candidates); its verdict is open"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "found by {weak} only, not reported as allowed by one model only"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(", 0 verdict change(s), 1 partial (vulkan against "),
        "{stdout}"
    );
    // Vulkan's verdict (a forall no candidate so far refutes) is open: exit code 3.
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    // JSON says the same: partial, nothing settled, how many states are open.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = vkherd(&json_args);
    assert_eq!(out.status.code(), Some(3));
    let stdout = text(&out.stdout);
    let test: serde_json::Value =
        serde_json::from_str(stdout.lines().next().unwrap()).expect("a test object");
    assert_eq!(test["partial"], true, "{stdout}");
    assert_eq!(test["only_a"], serde_json::json!([]), "{stdout}");
    assert_eq!(test["only_b"], serde_json::json!([]), "{stdout}");
    assert_eq!(test["verdict_final_a"], false, "{stdout}");
    assert_eq!(test["verdict_change"], false, "{stdout}");
    assert!(test["unsettled_b"].as_u64().unwrap() > 0, "{stdout}");
    assert!(stdout.contains("\"partial\":1,"), "{stdout}");
}

#[test]
fn diff_of_partial_runs_of_equal_models_is_partial_with_exit_code_3_not_0_differ() {
    // Before: "0 differ", exit code 0, as if both runs had been complete.
    let xf = generated("equal-models", "xf-barrier", "4");
    let out = vkherd(&[
        "diff",
        "-j",
        "1",
        "--max-candidates",
        "500",
        "vulkan",
        "vulkan-2024",
        &xf,
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("  partial: vulkan-2024 stopped at the limit of 500"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "1 tests: 0 differ, 0 verdict change(s), 1 partial (vulkan against vulkan-2024)"
        ),
        "{stdout}"
    );
}

#[test]
fn diff_against_a_complete_run_reports_exactly_the_states_the_complete_model_forbids() {
    // XF-barrier-2: Vulkan finishes within 50 candidates, the model without checks does
    // not. The states it found that Vulkan's complete run forbids are settled; Vulkan's
    // states it has not reached are not.
    let xf = generated("one-complete", "xf-barrier", "2");
    let weak = anything_goes("one-complete");
    let args = [
        "diff",
        "-j",
        "1",
        "--max-candidates",
        "50",
        "vulkan",
        &weak,
        &xf,
    ];
    let out = vkherd(&args);
    let stdout = text(&out.stdout);
    let only = only_lines(&stdout);
    assert!(!only.is_empty(), "{stdout}");
    let (vulkan_all, weak_all) = (complete_states("vulkan", &xf), complete_states(&weak, &xf));
    for (model, state) in &only {
        assert_eq!(model, &weak, "{stdout}");
        assert!(weak_all.contains(state), "{state} is not allowed by {weak}");
        assert!(!vulkan_all.contains(state), "{state} is allowed by vulkan");
    }
    // Its first candidates already refute the forall: both verdicts are final and differ,
    // and the stopped run's verdict is settled: exit code 4.
    assert!(
        stdout.contains("  verdict: Ok under vulkan, No under "),
        "{stdout}"
    );
    assert!(stdout.contains("its verdict is final"), "{stdout}");
    assert_eq!(out.status.code(), Some(4), "{stdout}");
}

#[test]
fn an_open_verdict_of_a_partial_run_is_printed_as_a_question_not_as_ok() {
    // XF-barrier-4's forall holds in every execution Vulkan allows; stopped after 500
    // candidates, no counterexample has been seen yet, but one could still come. Before:
    // `Ok` and `Observation ... Always 250 0`, as a complete run prints them.
    let xf = generated("open-verdict", "xf-barrier", "4");
    let out = vkherd(&["-j", "1", "--max-candidates", "500", &xf]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.contains(&"??"), "{stdout}");
    assert!(!lines.contains(&"Ok") && !lines.contains(&"No"), "{stdout}");
    let observation = lines
        .iter()
        .find(|l| l.starts_with("Observation "))
        .unwrap();
    assert!(
        observation.starts_with("Observation XF-barrier-4 ? "),
        "{observation}"
    );
    assert!(
        stdout.contains("the verdict is open (?? above): the executions found so far give Ok, and one not yet examined could change it"),
        "{stdout}"
    );
    // vkherd's own log reader reads the verdict as open, not as Ok: against the complete
    // run's log, the verdict changed.
    let partial_log = write("partial-xf4.log", &stdout);
    let complete = vkherd(&["-j", "1", &xf]);
    assert_eq!(complete.status.code(), Some(0));
    let complete_log = write("complete-xf4.log", &text(&complete.stdout));
    let out = vkherd(&["compare", &partial_log, &complete_log]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("XF-barrier-4: verdict ?? -> Ok (a partial run)"),
        "{stdout}"
    );
    // The logs differ (1), and a verdict is open (3): the open verdict wins, as for runs.
    assert_eq!(out.status.code(), Some(3));
    // Open in both logs: no change of verdict, but nothing settled either (issue 33: it
    // said "0 changed verdict" and exited 0, nothing marking the test).
    let out = vkherd(&["compare", &partial_log, &partial_log]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("XF-barrier-4: verdict open (??) in both logs: a limit stopped the run before it was settled"),
        "{stdout}"
    );
    assert!(
        stdout.contains("0 changed verdict, 0 changed states, 1 with an open verdict (??)"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let out = vkherd(&["compare", "--json", &partial_log, &partial_log]);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0]["open"],
        serde_json::json!({"old": true, "new": true})
    );
    assert_eq!(lines[1]["summary"]["open"], 1);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn a_verdict_settled_by_a_partial_run_keeps_its_word_and_says_it_is_final() {
    // Without checks, XF-barrier-2's first candidates refute its forall: `No` is final
    // though the run stopped (exit code 4); Always/Never could still change, so `?`.
    let xf = generated("settled-verdict", "xf-barrier", "2");
    let weak = anything_goes("settled-verdict");
    let out = vkherd(&["-j", "1", "--max-candidates", "50", "--model", &weak, &xf]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.contains(&"No") && !lines.contains(&"??"), "{stdout}");
    assert!(
        stdout.contains("the verdict above is final (settled by the states found)"),
        "{stdout}"
    );
}

#[test]
fn the_summary_counts_open_verdicts_apart_from_ok_and_no() {
    // XF-barrier-4 stopped after 500 candidates: its verdict is open (`??`), so the
    // Summary must not count it as the Ok its states so far give. MP-relacq-wg completes
    // within the limit (4 candidates): No. Before: "1 Ok, 1 No".
    let xf = generated("summary-open", "xf-barrier", "4");
    let mp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../litmus-tests/mp/MP-relacq-wg.litmus"
    );
    let out = vkherd(&["-j", "1", "--max-candidates", "500", &xf, mp]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("Summary: "))
        .expect("a Summary line");
    assert!(
        summary.starts_with("Summary: 2 tests in 2 files: 0 Ok, 1 No, 1 open, 1 racy, 1 partial, "),
        "{summary}"
    );
}
