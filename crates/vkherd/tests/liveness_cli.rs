//! `--liveness` and `--progress` from the command line (docs/liveness.md, liveness.md
//! "Command line and report"): the options, the report lines after `Observation`, the
//! `unknown` warning, the JSON object, the directory summary, the witness drawn by
//! `--dot` / `--graph` and in `vkherd report`, and `vkherd explain --liveness`.
//!
//! Expected verdicts and counts come from the hand-derived headers of
//! litmus-tests/liveness/ (their table in litmus-tests/README.md).

use crate::util::{root, run_in_root as run};

fn test(name: &str) -> String {
    format!("litmus-tests/liveness/{name}.litmus")
}

/// The `Liveness:` line of a one-test report.
fn verdict_line(out: &str) -> &str {
    out.lines()
        .find(|l| l.starts_with("Liveness: "))
        .unwrap_or_else(|| panic!("no Liveness line in {out}"))
}

/// Worked example 1 of liveness.md, under obe: P0 never starts, P1 spins on the initial
/// 0. The verdict comes right after `Observation`, one line per invocation that does not
/// terminate; a violation is an answer, exit 0.
#[test]
fn the_verdict_follows_the_observation_with_a_line_per_stuck_invocation() {
    let (code, out, err) = run(&["--progress", "obe", &test("spin-flag-lo")]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Observation spin-flag-lo "))
        .expect("an Observation line");
    assert_eq!(
        &lines[at + 1..at + 4],
        [
            "Liveness: violation (progress obe)",
            "  P0 paused before its first instruction (not started; obe does not schedule it)",
            "  P1 spinning at LC00: ld.atom.acq.dv.sc0.semsc0 r0, flag reads 0 (initial value, final)",
        ]
    );
    // --liveness alone is fair, where P0 must run: ok, and no line under it.
    let (code, out, _) = run(&["--liveness", &test("spin-flag-lo")]);
    assert_eq!(code, 0);
    assert_eq!(verdict_line(&out), "Liveness: ok (progress fair)");
    assert!(!out.contains("  P1 spinning"), "{out}");
    // Without either option, no liveness at all.
    let (_, out, _) = run(&[&test("spin-flag-lo")]);
    assert!(!out.contains("Liveness"), "{out}");
}

/// Per-level models (liveness.md: spin-flag-lo is a violation with wg=obe and ok with
/// inv=obe), `default=`, any case, the `hsa-obe` spelling; unknown models and levels, a
/// level given twice and an empty item are usage errors.
#[test]
fn progress_takes_per_level_models_and_refuses_unknown_names() {
    let f = test("spin-flag-lo");
    let verdict = |p: &str| {
        let (code, out, err) = run(&["--progress", p, &f]);
        assert_eq!(code, 0, "{p}: {err}");
        verdict_line(&out).to_string()
    };
    assert_eq!(verdict("wg=obe"), "Liveness: violation (progress wg=obe)");
    assert_eq!(verdict("inv=obe"), "Liveness: ok (progress inv=obe)");
    // Only wg has two members: a default for the others changes nothing there.
    assert_eq!(
        verdict("wg=fair,default=obe"),
        "Liveness: ok (progress wg=fair,default=obe)"
    );
    assert_eq!(verdict("OBE"), "Liveness: violation (progress obe)");
    assert_eq!(verdict("hsa-obe"), "Liveness: ok (progress hsa_obe)");
    for (bad, says) in [
        ("foo", "unknown progress model `foo`"),
        ("xx=obe", "unknown level `xx`"),
        ("wg=obe,wg=hsa", "`wg` is set twice"),
        ("wg=obe,", "is not a progress model"),
    ] {
        let (code, out, err) = run(&["--progress", bad, &f]);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(err.contains(says), "{bad}: {err}");
    }
}

/// The unroll bound's warning in a liveness run says what it bounds, the states, and
/// not that "the result" is bounded beside a `Liveness: ok` that is exact (issue 33).
#[test]
fn the_unroll_warning_of_a_liveness_run_bounds_the_states_not_the_verdict() {
    let (code, out, err) = run(&["--liveness", &test("flag-handoff-sg")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(verdict_line(&out), "Liveness: ok (progress fair)");
    assert!(!err.contains("the result is bounded"), "{err}");
    assert!(
        err.contains("dropped by the unroll bound (--unroll 2): the states and counts are bounded, not complete; the liveness verdict is not (ok and violation are exact at any bound"),
        "{err}"
    );
    // Without --liveness, the warning is the safety report's as before.
    let (_, _, err) = run(&[&test("flag-handoff-sg")]);
    assert!(err.contains("the result is bounded, not complete"), "{err}");
}

/// Dat3M's `QF=OBE` (keyed by the enclosing scope: vkherd's `wg=obe`, a violation on
/// xf-barrier-2wg) was read as vkherd's `qf=obe` and answered `ok`: refused, with
/// vkherd's spelling (issue 33).
#[test]
fn dat3m_spelling_of_progress_is_refused_with_vkherds_equivalent() {
    let f = test("xf-barrier-2wg");
    let (code, out, err) = run(&["--progress", "QF=OBE", &f]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("`QF=OBE` is Dat3M's spelling"), "{err}");
    assert!(err.contains("expected `wg=obe`"), "{err}");
    let (code, out, _) = run(&["--progress", "wg=obe", &f]);
    assert_eq!(code, 0);
    assert_eq!(verdict_line(&out), "Liveness: violation (progress wg=obe)");
}

/// `unknown`: a loop that changes a register every time round runs past the bound; the
/// line names the loop and the bound, and a warning says so on stderr.
#[test]
fn unknown_names_the_loop_and_the_bound_and_warns() {
    let (code, out, err) = run(&["--liveness", "--unroll", "3", &test("counter-wait")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        verdict_line(&out),
        "Liveness: unknown (progress fair): P0 loops at LC00 beyond --unroll 3"
    );
    assert!(
        err.contains("Warning: liveness unknown: P0 loops at LC00 beyond --unroll 3"),
        "{err}"
    );
}

/// The JSON object: verdict, the model of each level, and the endings.
#[test]
fn json_carries_the_verdict_the_levels_and_the_endings() {
    let (code, out, err) = run(&["--json", "--progress", "wg=obe", &test("spin-flag-lo")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let l = &v["liveness"];
    assert_eq!(l["verdict"], "violation");
    assert_eq!(l["progress_text"], "wg=obe");
    for (level, model) in [
        ("qf", "fair"),
        ("wg", "obe"),
        ("sg", "fair"),
        ("inv", "fair"),
    ] {
        assert_eq!(l["progress"][level], model, "{level}");
    }
    let threads = l["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(threads[0]["thread"], "P0");
    assert_eq!(threads[0]["ending"], "paused");
    assert_eq!(threads[0]["started"], false);
    assert_eq!(threads[1]["thread"], "P1");
    assert_eq!(threads[1]["ending"], "spinning");
    assert_eq!(threads[1]["started"], true);
    assert!(l["reason"].is_null());
    // unknown gives its reason.
    let (_, out, _) = run(&["--json", "--liveness", &test("counter-wait")]);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["liveness"]["verdict"], "unknown");
    assert_eq!(
        v["liveness"]["reason"],
        "P0 loops at LC00 beyond --unroll 2"
    );
    // Without --liveness, no key.
    let (_, out, _) = run(&["--json", &test("spin-flag-lo")]);
    assert!(!out.contains("\"liveness\""), "{out}");
}

/// A directory run counts violations and unknowns in its summary: the obe and fair
/// columns of the hand-derived table (litmus-tests/README.md, --unroll 2). A violation
/// is an answer, not a failure: the exit code is the safety report's (5 here: three
/// tests have no execution that completes within the bound).
#[test]
fn the_directory_summary_counts_violations_and_unknowns() {
    let (safety_code, out, _) = run(&["-j", "1", "litmus-tests/liveness"]);
    assert!(!out.contains("violations"), "{out}");
    assert_eq!(safety_code, 5);
    for (model, counts) in [
        ("obe", "18 violations, 6 unknown"),
        ("fair", "7 violations, 6 unknown"),
    ] {
        let (code, out, err) = run(&["-j", "1", "--progress", model, "litmus-tests/liveness"]);
        assert_eq!(code, safety_code, "{err}");
        let summary = out
            .lines()
            .find(|l| l.starts_with("Summary: "))
            .expect("a summary");
        assert!(summary.contains(counts), "{model}: {summary}");
    }
}

/// `--dot` draws the witness: the spin iteration or laps A and B marked, and each thread
/// that does not terminate labelled with its ending (one without events as a node).
#[test]
fn dot_draws_the_witness_with_its_marks_and_endings() {
    let (code, dot, err) = run(&["--dot", "--progress", "obe", &test("spin-flag-lo")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        dot.contains("label=\"spin-flag-lo: liveness: violation (progress obe)\""),
        "{dot}"
    );
    assert!(
        dot.contains("label=\"P0: paused before its first instruction (not started; obe does not schedule it)\""),
        "{dot}"
    );
    assert!(
        dot.contains("[label=\"(no event)\", shape=plaintext]"),
        "{dot}"
    );
    assert!(dot.contains("R flag=0\\n[spin]\""), "{dot}");
    // Worked example 4 under hsa: laps A and B of P0's exchange, P1 paused holding it.
    let (_, dot, _) = run(&["--dot", "--progress", "hsa", &test("tas-lock")]);
    assert_eq!(dot.matches("[lap A]").count(), 1, "{dot}");
    assert_eq!(dot.matches("[lap B]").count(), 1, "{dot}");
    assert!(
        dot.contains("label=\"P1: paused after rmw.atom.acq.wg.sc0.semsc0 r0, m, 1 (a lower id is schedulable (P0); hsa does not schedule it)\""),
        "{dot}"
    );
    // --graph writes the witness beside the state graphs.
    let dir = root().join("target/liveness-cli-graph");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, _, err) = run(&[
        "--graph",
        dir.to_str().unwrap(),
        "--progress",
        "obe",
        &test("spin-flag-lo"),
    ]);
    assert_eq!(code, 0, "{err}");
    let witness = std::fs::read_to_string(dir.join("spin-flag-lo-liveness.dot")).unwrap();
    assert!(witness.contains("[spin]"), "{witness}");
}

/// `vkherd report` shows the verdict and its lines, named from the source.
#[test]
fn report_shows_the_verdict_and_its_lines() {
    let out_file = root().join("target/liveness-cli-report.html");
    let (code, _, err) = run(&[
        "report",
        "--no-times",
        "--progress",
        "obe",
        "-o",
        out_file.to_str().unwrap(),
        &test("spin-flag-lo"),
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        html.contains("<pre class=\"liveness\">Liveness: violation (progress obe)\n  P0 paused before its first instruction (not started; obe does not schedule it)\n  P1 spinning at LC00: ld.atom.acq.dv.sc0.semsc0 r0, flag reads 0 (initial value, final)</pre>"),
        "{html}"
    );
    assert!(html.contains("[spin]"), "the witness figure");
}

/// `explain --liveness`: for `ok`, the nearest weaker model's witness and the member the
/// model guarantees that is paused in it (worked examples 1 and 2).
#[test]
fn explain_says_which_invocation_the_model_guarantees() {
    let (code, out, err) = run(&["explain", "--progress", "hsa", &test("spin-flag-lo")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Liveness: ok (progress hsa)\n"), "{out}");
    assert!(out.contains("Under unfair it is a violation:"), "{out}");
    assert!(
        out.contains("workgroup 0: no member of lower id is schedulable, so hsa guarantees it"),
        "{out}"
    );
    assert!(out.contains("P0 is paused."), "{out}");
    // cbar-then-spin under obe: P1 passed the barrier, so it has started.
    let (_, out, _) = run(&["explain", "--progress", "obe", &test("cbar-then-spin")]);
    assert!(out.starts_with("Liveness: ok (progress obe)\n"), "{out}");
    assert!(
        out.contains("P1: it has started, so obe guarantees it; P1 is paused."),
        "{out}"
    );
    // A violation is explained by its witness.
    let (_, out, _) = run(&["explain", "--progress", "lobe", &test("xf-barrier-2wg")]);
    assert!(
        out.starts_with("Liveness: violation (progress lobe)\n  P0 spinning at LC00"),
        "{out}"
    );
}

/// Same input, same bytes out, whatever the thread count: the JSON of the liveness corpus
/// (witnesses, their lines, the combinations searched) at -j 1 and -j 2, times aside.
#[test]
fn liveness_output_does_not_depend_on_the_thread_count() {
    let strip_times = |out: &str| -> Vec<serde_json::Value> {
        out.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                if let Some(stats) = v.get_mut("stats").and_then(|s| s.as_object_mut()) {
                    stats.remove("seconds");
                }
                v
            })
            .collect()
    };
    for model in ["obe", "unfair"] {
        let one = run(&[
            "--json",
            "-j",
            "1",
            "--progress",
            model,
            "litmus-tests/liveness",
        ]);
        let two = run(&[
            "--json",
            "-j",
            "2",
            "--progress",
            model,
            "litmus-tests/liveness",
        ]);
        let (one, two) = (strip_times(&one.1), strip_times(&two.1));
        assert_eq!(one.len(), 32);
        assert_eq!(one, two, "{model}");
    }
}

/// A liveness search stopped by a limit says so (text, JSON) and makes the run partial,
/// exit 3, although the safety report before it is complete: the XF barrier of four
/// workgroups needs 1458 candidates for its states, and the limit is the test's (issue
/// 32): none is left for the liveness check, which needs one more to find its unfair
/// witness (the screen proves the combinations before it empty).
#[test]
fn a_liveness_search_stopped_by_a_limit_is_unknown_and_exits_3() {
    let gen = crate::util::bin()
        .args(["gen", "xf-barrier", "4"])
        .output()
        .expect("gen runs");
    let dir = crate::util::tmp_path("liveness-limit");
    std::fs::create_dir_all(&dir).expect("a directory");
    let file = dir.join("xf-barrier-4.litmus");
    std::fs::write(&file, gen.stdout).expect("the test");
    let file = file.to_str().expect("a path");
    let args = [
        "-j",
        "1",
        "--progress",
        "unfair",
        "--max-candidates",
        "1458",
    ];
    let (code, out, err) = run(&[&args[..], &[file]].concat());
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("Observation XF-barrier-4 Always 729 0"),
        "{out}"
    );
    assert!(
        out.contains("Liveness: unknown (progress unfair): stopped at the limit of 1458 candidates (--max-candidates)"),
        "{out}"
    );
    assert!(
        err.contains("a higher --timeout or --max-candidates may settle it"),
        "{err}"
    );
    let (code, json, _) = run(&[&args[..], &["--json", file]].concat());
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(v["partial"], false, "the safety part is complete");
    assert_eq!(v["liveness"]["verdict"], "unknown");
    assert!(v["liveness"]["reason"]
        .as_str()
        .unwrap()
        .contains("--max-candidates"));
}

/// `explain --liveness` judges a test by the model a run judges it by (issue 30): a
/// model not for the test's dialect is refused exactly as the run refuses it (it used to
/// answer `Liveness: ok` for an OpenCL test under vulkan.cat), in text and JSON.
#[test]
fn explain_liveness_refuses_a_model_not_for_the_test_as_the_run_does() {
    let t = "litmus-tests/opencl/mp/MP-globaldata-localflag.litmus";
    let (run_code, run_out, run_err) = run(&["--liveness", "--model", "vulkan", t]);
    assert_eq!(run_code, 2, "{run_out}{run_err}");
    assert!(
        run_err.contains("is an OpenCL test, and the model vulkan is not for OpenCL tests"),
        "{run_err}"
    );
    for json in [false, true] {
        let mut args = vec!["explain", "--liveness", "--model", "vulkan", t];
        if json {
            args.push("--json");
        }
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (run_code, run_out.as_str()), "{err}");
        assert_eq!(err, run_err);
    }
    // The model the test is for still answers.
    let (code, out, err) = run(&["explain", "--liveness", "--model", "opencl", t]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "Liveness: ok (progress fair)\n");
}

/// `--max-candidates` (like `--timeout`) bounds the whole test, the safety search and
/// the liveness check together (issue 32): ttas-lock's states take 14 candidates and its
/// liveness check a few more, so 14 leave the liveness verdict open, which exits 3, and
/// 20 settle both. A limit that stops the safety search too leaves the liveness verdict
/// open: exit 3, not 4 ("only state lists are partial"), although the states found
/// settle the safety verdict.
#[test]
fn one_limit_bounds_the_safety_search_and_the_liveness_check_together() {
    let file = test("ttas-lock");
    let with = |limit: &str| run(&["--progress", "fair", "--max-candidates", limit, &file]);
    let (code, out, err) = with("14");
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("Observation ttas-lock Always 14 0"), "{out}");
    assert!(
        out.contains("Liveness: unknown (progress fair): stopped at the limit of 14 candidates (--max-candidates)"),
        "{out}"
    );
    let (code, out, err) = with("20");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Liveness: ok (progress fair)"), "{out}");
    let (code, out, err) = with("1");
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("Liveness: unknown (progress fair): stopped at the limit of 1 candidates (--max-candidates)"),
        "{out}"
    );
}

/// `--timeout` bounds the whole test once: at `--unroll 4` the XF barrier of four
/// workgroups takes seconds for its states and longer for its unfair witness, so a run
/// limited to one second used to take two (main's release: 2.00 s, one second per
/// search); now the liveness check gets what the states leave (nothing), and the run
/// stops after about one.
#[test]
fn one_time_limit_bounds_the_safety_search_and_the_liveness_check_together() {
    let gen = crate::util::bin()
        .args(["gen", "xf-barrier", "4"])
        .output()
        .expect("gen runs");
    let dir = crate::util::tmp_path("liveness-timeout");
    std::fs::create_dir_all(&dir).expect("a directory");
    let file = dir.join("xf-barrier-4.litmus");
    std::fs::write(&file, gen.stdout).expect("the test");
    let file = file.to_str().expect("a path");
    let start = std::time::Instant::now();
    let args = [
        "-j",
        "1",
        "--unroll",
        "4",
        "--progress",
        "unfair",
        "--timeout",
        "1",
    ];
    let (code, out, err) = run(&[&args[..], &[file]].concat());
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains(
            "Liveness: unknown (progress unfair): stopped by the time limit of 1 s (--timeout)"
        ),
        "{out}"
    );
    assert!(seconds < 1.9, "{seconds} s");
}
