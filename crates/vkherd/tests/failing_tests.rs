//! One test's failure never loses the others (issue 21, item 2; docs/errors.md "A failing
//! test"): whatever happens inside one test of a batch (an error, a limit, a panic caught
//! at the test's boundary), every other test's report is printed, the failed one gets its
//! error (on stderr, and as an object with `error` in JSON) and the summary counts it. Each
//! batch here has the failing test in the middle, for the main command and for `khronos`,
//! `bench`, `diff` and `report`.
//!
//! Panics: no input is known to make vkherd panic (that would be a bug to fix), so debug
//! builds panic on purpose inside the enumeration, on a worker thread, of the test named by
//! `VKHERD_TEST_PANIC` (crates/enumerate/src/lib.rs). Release builds have no such hook:
//! there those tests say that they are skipped.

use crate::util::{bin, fresh_dir, text};
use std::path::{Path, PathBuf};
use std::process::Output;

fn vkherd(args: &[&str], env: &[(&str, &str)]) -> Output {
    bin()
        .args(args)
        .envs(env.iter().copied())
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run vkherd")
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(manifest(rel)).expect("a file of the repository")
}

/// A fresh directory holding `files` (name, text).
fn batch(name: &str, files: &[(&str, String)]) -> String {
    let d = fresh_dir(name);
    for (file, content) in files {
        std::fs::write(d.join(file), content).expect("write a test file");
    }
    d.to_str().unwrap().to_string()
}

/// The debug builds' panic hook is there (see the module comment).
fn panics_on_purpose() -> bool {
    if !cfg!(debug_assertions) {
        eprintln!("skipped: release builds have no VKHERD_TEST_PANIC hook");
    }
    cfg!(debug_assertions)
}

const PANIC: (&str, &str) = ("VKHERD_TEST_PANIC", "boom");

fn mp() -> String {
    read("../../litmus-tests/mp/MP-relacq-wg.litmus")
}

fn sb() -> String {
    read("../../litmus-tests/sb/SB-relacq.litmus")
}

/// MP under the name `boom`: the test that panics on purpose.
fn boom() -> String {
    mp().replacen("VULKAN MP-relacq-wg", "VULKAN boom", 1)
}

/// The reports of the first and last tests, in text.
fn assert_neighbours_reported(stdout: &str) {
    assert!(
        stdout.contains("Observation MP-relacq-wg Never 0 3\n")
            && stdout.contains("Observation SB-relacq Sometimes 1 3\n"),
        "{stdout}"
    );
}

/// One JSON object per line; the middle one is `b.litmus`'s error.
fn assert_json_error_in_the_middle(stdout: &str, message: &str) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].contains("\"name\":\"MP-relacq-wg\""), "{stdout}");
    assert!(
        lines[1].starts_with("{\"file\":") && lines[1].contains("b.litmus\",\"error\":{"),
        "{stdout}"
    );
    assert!(lines[1].contains(message), "{stdout}");
    assert!(lines[2].contains("\"name\":\"SB-relacq\""), "{stdout}");
}

const SUMMARY: &str =
    "Summary: 2 tests in 3 files: 1 Ok, 1 No, 0 open, 1 racy, 0 partial, 0 bounded-empty, 1 error, ";
const INTERNAL: &str = "internal error while running ";

#[test]
fn a_test_with_an_error_or_a_limit_in_the_middle_loses_no_other_report() {
    let cases = [
        (
            "parse error",
            read("tests/malformed/release-on-load.litmus"),
            "release on a load",
        ),
        (
            "path limit",
            read("tests/malformed/too-many-paths.litmus"),
            "has more than 100000 paths",
        ),
    ];
    for (what, failing, message) in cases {
        let d = batch(
            "failing-error",
            &[
                ("a.litmus", mp()),
                ("b.litmus", failing),
                ("c.litmus", sb()),
            ],
        );
        let out = vkherd(&[&d], &[]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert_neighbours_reported(&stdout);
        assert!(text(&out.stderr).contains(message), "{what}");
        assert!(stdout.contains(SUMMARY), "{what}: {stdout}");
        let out = vkherd(&["--json", &d], &[]);
        assert_eq!(out.status.code(), Some(2));
        assert_json_error_in_the_middle(&text(&out.stdout), message);
    }
}

#[test]
fn a_panic_in_the_middle_of_a_run_loses_no_other_report() {
    if !panics_on_purpose() {
        return;
    }
    let d = batch(
        "failing-panic",
        &[("a.litmus", mp()), ("b.litmus", boom()), ("c.litmus", sb())],
    );
    let out = vkherd(&[&d], &[PANIC]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert_neighbours_reported(&stdout);
    assert!(stdout.contains(SUMMARY), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "error: {INTERNAL}{}: VKHERD_TEST_PANIC: a panic on purpose in `boom`; this is a bug in vkherd",
            Path::new(&d).join("b.litmus").display()
        )),
        "{stderr}"
    );
    let out = vkherd(&["--json", &d], &[PANIC]);
    assert_eq!(out.status.code(), Some(2));
    assert_json_error_in_the_middle(&text(&out.stdout), INTERNAL);
}

#[test]
fn a_panic_in_the_middle_of_a_khronos_run_loses_no_other_check() {
    if !panics_on_purpose() {
        return;
    }
    let k = |f: &str| read(&format!("tests/khronos/{f}"));
    let d = batch(
        "failing-khronos",
        &[
            ("a.test", k("mp_pinned_init.test")),
            ("boom.test", k("release_sequence_rmw.test")),
            ("c.test", k("sloc_two_references.test")),
        ],
    );
    let out = vkherd(&["khronos", &d], &[PANIC]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("\na:") || stdout.starts_with("a:"),
        "{stdout}"
    );
    assert!(stdout.contains("\nc:"), "{stdout}");
    assert!(!stdout.contains("boom:"), "{stdout}");
    assert!(stdout.contains(", 1 file with errors ("), "{stdout}");
    assert!(stderr.contains(INTERNAL), "{stderr}");
    let out = vkherd(&["khronos", "--json", &d], &[PANIC]);
    let stdout = text(&out.stdout);
    let error = stdout
        .lines()
        .find(|l| l.contains("\"error\":{"))
        .expect("an error object");
    assert!(
        error.contains("boom.test") && error.contains(INTERNAL),
        "{error}"
    );
    assert!(stdout.contains("\"errors\":1"), "{stdout}");
}

#[test]
fn a_panic_in_the_middle_of_a_bench_run_loses_no_other_row() {
    if !panics_on_purpose() {
        return;
    }
    let d = batch(
        "failing-bench",
        &[("a.litmus", mp()), ("b.litmus", boom()), ("c.litmus", sb())],
    );
    let out = vkherd(&["bench", "--runs", "1", &d], &[PANIC]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("a.litmus ") && stdout.contains("c.litmus "),
        "{stdout}"
    );
    assert!(stdout.contains("\ntotal: 2 tests, 1 error, "), "{stdout}");
    assert!(stderr.contains(INTERNAL), "{stderr}");
    let out = vkherd(&["bench", "--runs", "1", "--json", &d], &[PANIC]);
    assert_json_error_in_the_middle(&text(&out.stdout), INTERNAL);
}

#[test]
fn a_panic_in_the_middle_of_a_diff_is_an_error_of_its_own() {
    if !panics_on_purpose() {
        return;
    }
    // `c` differs between the models: its block comes after the failed test.
    let chain = read("../../litmus-tests/chains/CHAIN-av-sg-wg.litmus");
    let d = batch(
        "failing-diff",
        &[
            ("a.litmus", mp()),
            ("b.litmus", boom()),
            ("c.litmus", chain),
        ],
    );
    let out = vkherd(&["diff", "vulkan", "vulkan+no-chains", &d], &[PANIC]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.contains("c.litmus\n"), "{stdout}");
    assert!(
        stdout.contains("3 tests: 1 differ, 1 verdict change(s), 0 partial, 1 error ("),
        "{stdout}"
    );
    assert!(stderr.contains(INTERNAL), "{stderr}");
    let out = vkherd(
        &["diff", "--json", "vulkan", "vulkan+no-chains", &d],
        &[PANIC],
    );
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].contains("b.litmus\",\"error\":{") && lines[0].contains(INTERNAL));
    assert!(lines[1].contains("c.litmus\",\"only_a\""), "{stdout}");
    assert!(lines[2].contains("\"errors\":1"), "{stdout}");
}

#[test]
fn a_panic_in_the_middle_of_a_report_is_an_entry_of_the_page() {
    if !panics_on_purpose() {
        return;
    }
    let d = batch(
        "failing-report",
        &[("a.litmus", mp()), ("b.litmus", boom()), ("c.litmus", sb())],
    );
    let page = Path::new(&d).join("page.html");
    let page = page.to_str().unwrap();
    let out = vkherd(&["report", "--no-graphs", &d, "-o", page], &[PANIC]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.contains(": 3 files, 1 error, "), "{stdout}");
    let html = std::fs::read_to_string(page).expect("the page");
    assert!(html.contains("MP-relacq-wg") && html.contains("SB-relacq"));
    assert!(html.contains(INTERNAL));
}
