//! Loops that never exit (issue 21, item 11; docs/cli.md "Bounded-empty results"): a
//! result is bounded-empty, with a `Bounded` line and exit code 5, exactly when the run is
//! complete, the unroll bound dropped some path and no path that ends within the bound has
//! a consistent execution. A spin on a flag nobody sets is the case: its paths that leave
//! the loop need a value no write gives, and the one that does not leave it is dropped.
//! Not bounded-empty: executions that complete but that the filter or the condition leave
//! out, and runs that cannot tell (their search skipped subtrees for their final state).

use crate::util::{text, tmp_path, vkherd, write_file};

fn write(dir: &str, name: &str, content: &str) -> String {
    write_file(&tmp_path(dir).join(name), content)
}

/// P0 waits for `flag`, which P1 sets (`SET`) or not (`UNSET`), then reads `x`.
fn spin(name: &str, p1: &str, tail: &str) -> String {
    format!(
        "VULKAN {name}
{{ flag = 0; x = 0; }}
 P0@sg 0, wg 0, qf 0                | P1@sg 1, wg 0, qf 0 ;
 LC00:                              | st.av.dv.sc0 x, 1   ;
 ld.atom.acq.wg.sc0.semsc0 r0, flag | {p1} ;
 beq r0, 0, LC00                    |                     ;
 ld.vis.dv.sc0 r1, x                |                     ;
{tail}
"
    )
}

const UNSET: &str = "ld.sc0 r5, x";
const SET: &str = "st.atom.rel.wg.sc0.semsc0 flag, 1";

const BOUNDED_LINE: &str = "Bounded nobody: no execution completes within the unroll bound; raise it, e.g. --unroll 4, or check that every loop can exit\n";

#[test]
fn a_spin_on_a_flag_nobody_sets_is_bounded_empty() {
    let f = write(
        "bounded-a_spin_on_a_flag_nobody_sets_is_bounded_empty",
        "nobody.litmus",
        &spin("nobody", UNSET, "exists (P0:r1 == 1)"),
    );
    let out = vkherd(&[&f]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(5), "{stdout}{stderr}");
    assert!(stdout.contains("States 0\n"), "{stdout}");
    assert!(stdout.contains(BOUNDED_LINE), "{stdout}");
    assert!(
        stderr.contains(
            "Warning: no execution completes within the unroll bound (--unroll 2): 1 path dropped by the bound, and no path that ends within it has a consistent execution"
        ) && stderr.contains("check that every loop can exit"),
        "{stderr}"
    );
    // The same at any bound, in JSON too, and in a run of several files.
    let out = vkherd(&["--json", "--unroll", "7", &f]);
    assert_eq!(out.status.code(), Some(5));
    assert!(text(&out.stdout).contains("\"bounded_empty\":true"));
    let other = write(
        "bounded-a_spin_on_a_flag_nobody_sets_is_bounded_empty",
        "set.litmus",
        &spin("set", SET, "exists (P0:r1 == 1)"),
    );
    let out = vkherd(&[&other, &f]);
    assert_eq!(out.status.code(), Some(5));
    assert!(text(&out.stdout).contains(" 1 bounded-empty, "));
}

#[test]
fn a_spin_on_a_flag_that_is_set_is_complete() {
    // The loop exits after 0 to 2 failed loads: executions complete, the ones needing
    // more iterations are dropped (a warning, not bounded-empty).
    let f = write(
        "bounded-a_spin_on_a_flag_that_is_set_is_complete",
        "set.litmus",
        &spin("set", SET, "exists (P0:r1 == 1)"),
    );
    let out = vkherd(&[&f]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("Bounded"), "{stdout}");
    assert!(text(&out.stderr).contains("1 path dropped by the unroll bound"));
}

#[test]
fn executions_left_out_by_the_filter_or_the_condition_are_not_bounded_empty() {
    // Executions complete (the flag is set); the filter keeps none of them, so States 0:
    // an answer about the test, not about the bound.
    let filtered = spin("filtered", SET, "filter (P0:r0 == 7)\nexists (P0:r1 == 1)");
    let f = write(
        "bounded-executions_left_out_by_the_filter_or_the_condition_are_not_bounded_empty",
        "filtered.litmus",
        &filtered,
    );
    let out = vkherd(&[&f]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("States 0\n") && !stdout.contains("Bounded"),
        "{stdout}"
    );
    // A condition no execution satisfies: No, not bounded-empty.
    let never = write(
        "bounded-executions_left_out_by_the_filter_or_the_condition_are_not_bounded_empty",
        "never.litmus",
        &spin("never", SET, "exists (P0:r1 == 7)"),
    );
    let out = vkherd(&[&never]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("\nNo\n") && !stdout.contains("Bounded"),
        "{stdout}"
    );
}

#[test]
fn a_search_that_skips_subtrees_by_their_state_does_not_claim_bounded_empty() {
    // --speedcheck cuts the subtrees the filter rejects without visiting their
    // executions: no consistent execution is seen, yet executions complete.
    let filtered = spin("filtered", SET, "filter (P0:r0 == 7)\nexists (P0:r1 == 1)");
    let f = write(
        "bounded-a_search_that_skips_subtrees_by_their_state_does_not_claim_bounded_empty",
        "filtered.litmus",
        &filtered,
    );
    for mode in ["true", "fast"] {
        let out = vkherd(&["--speedcheck", mode, &f]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{mode}: {stdout}");
        assert!(!stdout.contains("Bounded"), "{mode}: {stdout}");
    }
    // Where nothing is skipped, the flag nobody sets is bounded-empty in these modes too.
    let f = write(
        "bounded-a_search_that_skips_subtrees_by_their_state_does_not_claim_bounded_empty",
        "nobody.litmus",
        &spin("nobody", UNSET, "exists (P0:r1 == 1)"),
    );
    for mode in ["--speedcheck=true", "--states-only"] {
        let out = vkherd(&[mode, &f]);
        assert_eq!(out.status.code(), Some(5), "{mode}: {}", text(&out.stdout));
    }
}

#[test]
fn the_shards_of_a_bounded_empty_run_merge_into_one() {
    let f = write(
        "bounded-the_shards_of_a_bounded_empty_run_merge_into_one",
        "nobody.litmus",
        &spin("nobody", UNSET, "exists (P0:r1 == 1)"),
    );
    let mut parts = String::new();
    for k in ["1/2", "2/2"] {
        let out = vkherd(&["--json", "--shard", k, &f]);
        parts.push_str(&text(&out.stdout));
    }
    let merged = write(
        "bounded-the_shards_of_a_bounded_empty_run_merge_into_one",
        "shards.json",
        &parts,
    );
    let out = vkherd(&["merge", &merged]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(5), "{stdout}");
    assert!(stdout.contains(BOUNDED_LINE), "{stdout}");
}
