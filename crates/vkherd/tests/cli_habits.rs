//! The command line as a herd7 user meets it (issue 16, docs/cli.md): results that never
//! mislead silently, herd7's option spellings, logs and `compare`, archivable JSON,
//! install and shell helpers, and the smaller things.

use crate::util::{corpus, fresh_dir as dir, text, vkherd};
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a test file");
    path.to_str().unwrap().to_string()
}

fn khronos_dir() -> String {
    format!("{}/tests/khronos", env!("CARGO_MANIFEST_DIR"))
}

/// MP with one writer and one reader of `x`; the condition names `xx`, which no
/// instruction accesses.
const TYPO: &str = "VULKAN typo\n{ x = 0; xx = 0; }\nP0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\nst.atom.dv.sc0 x, 1 | ld.atom.dv.sc0 r0, x ;\nexists (xx == 1 /\\ P1:r0 == 1)\n";

/// P1 spins forever (`goto` back to its load): no path of P1 ends within any bound.
const SPIN: &str = "VULKAN spin\n{ x = 0; }\nP0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\nst.atom.dv.sc0 x, 1 | LC00: ;\n | ld.atom.dv.sc0 r0, x ;\n | goto LC00 ;\nexists (P1:r0 == 1)\n";

// ---- 1. Results that never mislead silently ----

#[test]
fn a_directory_without_litmus_files_exits_2_and_says_so() {
    let d = dir("habits-empty");
    let out = vkherd(&[d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no .litmus file in")
            && text(&out.stderr).contains("nothing to test"),
        "{}",
        text(&out.stderr)
    );
    // With Khronos files in it, the right command is suggested.
    std::fs::copy(
        format!("{}/mp_pinned_init.test", khronos_dir()),
        d.join("mp_pinned_init.test"),
    )
    .unwrap();
    let out = vkherd(&[d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("found 1 .test file: run `vkherd khronos"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_test_file_given_to_the_main_command_suggests_khronos_and_back() {
    let t = format!("{}/mp_pinned_init.test", khronos_dir());
    let out = vkherd(&[&t]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("run `vkherd khronos {t}`")),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let l = corpus("mp/MP-relacq-wg.litmus");
    let out = vkherd(&["khronos", &l]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("run `vkherd {l}`")),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_condition_location_no_instruction_accesses_is_warned_about() {
    let d = dir("habits-typo");
    let f = write(&d, "typo.litmus", TYPO);
    let out = vkherd(&[&f]);
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert!(
        err.contains("Warning: location `xx` is in the final state")
            && err.contains("no instruction accesses it"),
        "{err}"
    );
    // `x` is accessed: no warning names it.
    assert!(!err.contains("location `x` "), "{err}");
    let out = vkherd(&["--json", &f]);
    assert!(text(&out.stdout).contains("location `xx`"));
}

#[test]
fn a_bounded_empty_result_says_so_and_has_its_own_exit_code() {
    let d = dir("habits-spin");
    let f = write(&d, "spin.litmus", SPIN);
    let out = vkherd(&[&f]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(5), "{stdout}");
    assert!(stdout.contains("States 0\n"), "{stdout}");
    assert!(
        stdout.contains(
            "Bounded spin: no execution completes within the unroll bound; raise it, e.g. --unroll 4, or check that every loop can exit\n"
        ),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("every path of thread P1"),
        "{}",
        text(&out.stderr)
    );
    let out = vkherd(&["--json", "-unroll", "5", &f]);
    assert_eq!(out.status.code(), Some(5));
    assert!(text(&out.stdout).contains("\"bounded_empty\":true"));
    // A complete result with a loop (the corpus' spin loops exit) is exit code 0.
    let out = vkherd(&[&corpus("control-flow/MP-spin-relacq.litmus")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).contains("Bounded"));
}

#[test]
fn stats_explain_consistent_above_candidates() {
    let out = vkherd(&["--stats", &corpus("thin-air/LB-data-42.litmus")]);
    let err = text(&out.stderr);
    assert!(err.contains("4 candidates examined"), "{err}");
    assert!(
        err.contains("6 consistent executions (more than candidates: a candidate with thin-air values has one execution per value solution)"),
        "{err}"
    );
    assert!(err.contains("3 thin-air executions"), "{err}");
}

#[test]
fn stats_show_pruned_counts_past_2_to_the_64_in_scientific_notation() {
    // 40 reads of x in P0, each with 8 possible sources (init and 7 writes): the first
    // cut already skips about 8^39 rf completions, far past 2^64 (a u64 count saturated or
    // wrapped there).
    let mut rows = vec!["st.atom.dv.sc0 x, 1 | st.atom.dv.sc0 x, 2 ;".to_string()];
    rows.extend((3..8).map(|v| format!(" | st.atom.dv.sc0 x, {v} ;")));
    rows.extend((0..40).map(|k| format!("ld.atom.dv.sc0 r{k}, x | ;")));
    let test = format!(
        "VULKAN many-reads\n{{ x = 0; }}\nP0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n{}\nexists (P0:r0 == 2)\n",
        rows.join("\n")
    );
    let d = dir("habits-pruned");
    let f = write(&d, "many-reads.litmus", &test);
    let out = vkherd(&[
        "--stats",
        "--json",
        "--max-candidates",
        "100",
        "-j",
        "1",
        &f,
    ]);
    let err = text(&out.stderr);
    let pruned = err
        .split(" cut by pruning")
        .next()
        .and_then(|s| s.rsplit(", ").next())
        .unwrap();
    assert!(pruned.contains('e'), "{err}");
    assert!(pruned.parse::<f64>().unwrap() > 2f64.powi(64), "{err}");
    let json: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert!(json["stats"]["pruned"].as_f64().unwrap() > 2f64.powi(64));
}

// ---- 2. herd7's habits ----

#[test]
fn herd7_single_dash_spellings_are_accepted() {
    let f = corpus("mp/MP-relacq-wg.litmus");
    let herd = vkherd(&[
        "-unroll",
        "3",
        "-model",
        "vulkan-2024",
        "-j",
        "1",
        "-json",
        &f,
    ]);
    assert_eq!(herd.status.code(), Some(0), "{}", text(&herd.stderr));
    let stdout = text(&herd.stdout);
    assert!(stdout.contains("\"unroll\":3"), "{stdout}");
    assert!(stdout.contains("\"model\":\"vulkan-2024\""), "{stdout}");
    // The same as the double-dash spelling.
    let gnu = vkherd(&["--unroll", "3", "--model=vulkan-2024", "--json", &f]);
    let strip_time = |s: &str| s.split("\"seconds\"").next().unwrap().to_string();
    assert_eq!(strip_time(&stdout), strip_time(&text(&gnu.stdout)));
    // `-option=value` too, and an unknown single-dash word is still an error.
    assert_eq!(vkherd(&["-timeout=5", &f]).status.code(), Some(0));
    let bad = vkherd(&["-frobnicate", &f]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn options_before_a_subcommand_apply_to_it() {
    let out = vkherd(&["--timeout", "5", "-j", "1", "khronos", &khronos_dir()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("18 checks in 6 files: 18 passed, 0 failed"));
    // And the limits are those given.
    let out = vkherd(&["-json", "-max-candidates", "7", "khronos", &khronos_dir()]);
    assert!(
        text(&out.stdout).contains("\"max_candidates\":7"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn khronos_takes_the_limits_and_reports_checks_it_could_not_finish() {
    // With one candidate allowed, a NOSOLUTION check cannot be settled: PARTIAL, not PASS.
    let out = vkherd(&["khronos", "--max-candidates", "1", &khronos_dir()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("expected NOSOLUTION got UNKNOWN PARTIAL"),
        "{stdout}"
    );
    assert!(stdout.contains("stopped by a limit"), "{stdout}");
}

// ---- 3. Logs and comparing runs ----

#[test]
fn a_directory_run_ends_with_a_summary_line() {
    let out = vkherd(&["-j", "1", &corpus("iriw")]);
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("Summary: 2 tests in 2 files: 2 Ok, 0 No, 0 open, 0 racy, 0 partial, 0 bounded-empty, 0 errors, "),
        "{last}"
    );
    // One file: no summary; a directory of one file: a summary.
    let out = vkherd(&[&corpus("iriw/IRIW.litmus")]);
    assert!(!text(&out.stdout).contains("Summary"));
    let d = dir("habits-one");
    write(&d, "typo.litmus", TYPO);
    let out = vkherd(&[d.to_str().unwrap()]);
    assert!(
        text(&out.stdout).contains("Summary: 1 test in 1 file: 0 Ok, 1 No, 0 open, 0 racy, "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn compare_reports_verdict_changes_and_states_between_logs() {
    let d = dir("habits-compare");
    let chains = corpus("chains");
    let run = |args: &[&str], name: &str| {
        let out = vkherd(args);
        write(&d, name, &text(&out.stdout))
    };
    let with = run(&["--time", &chains], "with.log");
    let without = run(&["--time", "--no-chains", &chains], "without.log");
    let json = run(&["--json", &chains], "with.jsonl");
    // A log against itself, and a text log against the JSON log of the same run: equal.
    for (a, b) in [(&with, &with), (&with, &json)] {
        let out = vkherd(&["compare", a, b]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        assert!(text(&out.stdout).contains(" 0 changed verdict, 0 changed states"));
    }
    // Without chains some verdicts change: they are listed, with the states behind them.
    let out = vkherd(&["compare", &with, &without]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(": verdict "), "{stdout}");
    assert!(stdout.contains(": state "), "{stdout}");
    let summary = stdout.lines().last().unwrap();
    assert!(summary.starts_with("Compare: "), "{summary}");
    assert!(summary.contains(" changed verdict, "), "{summary}");
    let out = vkherd(&["compare", "--json", &with, &without]);
    assert!(text(&out.stdout).contains("\"verdict_changes\":"));
    // A log that is not one: exit code 2.
    let bad = write(&d, "bad.jsonl", "{not json\n");
    assert_eq!(vkherd(&["compare", &bad, &with]).status.code(), Some(2));
}

#[test]
fn herd7_log_has_herd7s_exact_state_lines_and_time_lines() {
    let out = vkherd(&["--herd7-log", "-j", "1", &corpus("mp")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    // The racy marks of the default output are gone; every test has its Time line.
    assert!(!stdout.contains('#'), "{stdout}");
    let tests = stdout.lines().filter(|l| l.starts_with("Test ")).count();
    let times = stdout.lines().filter(|l| l.starts_with("Time ")).count();
    assert_eq!((tests, times), (18, 18));
    // Nothing but reports on stdout: the summary is on stderr.
    assert!(!stdout.contains("Summary"));
    assert!(text(&out.stderr).contains("Summary: 18 tests in 18 files"));
    let default = text(&vkherd(&["-j", "1", &corpus("mp")]).stdout);
    assert!(default.contains("; # racy\n"));
}

// ---- 4. JSON you can archive ----

#[test]
fn every_file_gets_a_json_object_with_the_run_information() {
    let d = dir("habits-json");
    write(&d, "a-good.litmus", TYPO);
    write(
        &d,
        "b-bad.litmus",
        "VULKAN bad\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, x y ;\n",
    );
    let out = vkherd(&[
        "--json",
        "--no-chains",
        "--timeout",
        "9",
        d.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects.len(), 2, "{stdout}");
    for o in &objects {
        assert!(o["vkherd"]
            .as_str()
            .unwrap()
            .starts_with(env!("CARGO_PKG_VERSION")));
        assert_eq!(o["model"], "vulkan");
        assert_eq!(o["variants"], serde_json::json!(["no-chains"]));
        assert_eq!(o["unroll"], 2);
        assert_eq!(o["limits"]["timeout_seconds"], 9.0);
    }
    let e = &objects[1]["error"];
    assert!(
        e["location"]
            .as_str()
            .unwrap()
            .ends_with("b-bad.litmus:4:15"),
        "{e}"
    );
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(4), Some(15))
    );
    assert!(
        e["message"].as_str().unwrap().contains("unexpected `y`"),
        "{e}"
    );
    // `bench --json` too: one object per file, the failed one with `error`.
    let out = vkherd(&["bench", "--json", "--runs", "1", d.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[1]["error"]["location"]
            .as_str()
            .is_some_and(|l| l.ends_with("b-bad.litmus:4:15")),
        "{lines:?}"
    );
    assert!(lines.iter().all(|o| o["vkherd"].is_string()));
}

// ---- 5. Install and shell ----

#[test]
fn version_names_the_git_commit() {
    let out = vkherd(&["--version"]);
    let v = text(&out.stdout);
    // `vkherd 0.1.0 (1a2b3c4d5e6f)`, or `(unknown)` when built without git.
    assert!(
        v.starts_with(&format!("vkherd {} (", env!("CARGO_PKG_VERSION")))
            && v.trim_end().ends_with(')'),
        "{v}"
    );
}

#[test]
fn completions_and_man_page_come_from_the_clap_definition() {
    for shell in ["bash", "zsh", "fish"] {
        let out = vkherd(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0));
        let script = text(&out.stdout);
        // Options of the main form and of subcommands are completed.
        assert!(
            script.contains("unroll") && script.contains("khronos"),
            "{shell}"
        );
    }
    let out = vkherd(&["man"]);
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH vkherd"),
        "{page}"
    );
    assert!(page.contains("unroll"));
}

#[test]
fn help_sub_and_sub_help_agree() {
    for sub in ["khronos", "bench", "gen", "compare"] {
        let a = vkherd(&["help", sub]);
        let b = vkherd(&[sub, "--help"]);
        assert_eq!(a.status.code(), Some(0));
        assert_eq!(text(&a.stdout), text(&b.stdout), "{sub}");
        assert!(text(&a.stdout).contains(&format!("Usage: vkherd {sub}")));
    }
}

// ---- 6. Smaller things ----

#[test]
fn no_chains_is_described_as_a_model_variant() {
    let out = vkherd(&["--help"]);
    let help = text(&out.stdout);
    let line = help.lines().find(|l| l.contains("--no-chains")).unwrap();
    assert!(line.contains("Model variant"), "{line}");
}

#[test]
fn gen_refuses_members_the_parser_would_reject() {
    let out = vkherd(&["gen", "iriw", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("iriw 100 would have 102 threads")
            && text(&out.stderr).contains("N can be at most 62"),
        "{}",
        text(&out.stderr)
    );
    let out = vkherd(&["gen", "sb-ring", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `vkherd --timeout 1 gen` where `gen` is a directory of tests: the herd7 habit of
/// options before a subcommand made it the `gen` subcommand silently (issue 33). It is
/// refused, saying `./gen`; `./gen` runs the tests, and `gen` first is the subcommand.
#[test]
fn a_subcommand_name_after_options_that_is_a_directory_is_refused_with_dot_slash() {
    let d = dir("path-or-subcommand");
    std::fs::create_dir_all(d.join("gen")).unwrap();
    std::fs::copy(
        corpus("mp/MP-relacq-wg.litmus"),
        d.join("gen").join("MP.litmus"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        crate::util::bin()
            .args(args)
            .current_dir(&d)
            .output()
            .unwrap()
    };
    let out = run(&["--timeout", "1", "gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("`gen` is both a subcommand and a path here: write `./gen`"),
        "{err}"
    );
    let out = run(&["--timeout", "1", "./gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Test MP-relacq-wg"));
    let out = run(&["gen", "iriw", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
