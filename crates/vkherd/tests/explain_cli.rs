//! `vkherd explain`, `--dot`, `--graph DIR` and `--show` from the command line: the text
//! and JSON of a test worked by hand (docs/explain.md), bad input (exit 2 with a located
//! message), the limit on runaway tests, DOT that Graphviz renders without a warning (when
//! `dot` is installed; skipped visibly when not), and the same bytes whatever `-j`.

use crate::util::{bin, corpus, dot_installed, render, root, text, tmp_path, vkherd};

/// Renders DOT with Graphviz: succeeds with nothing on stderr (no warning).
fn assert_renders_cleanly(dot: &str, what: &str) {
    let svg = render(dot).unwrap_or_else(|e| panic!("{what}: dot failed or warned: {e}"));
    assert!(svg.contains("<svg"), "{what}: no SVG");
}

#[test]
fn explain_text_names_the_check_and_the_cycle() {
    let out = vkherd(&["explain", &corpus("mp/MP-relacq-wg.litmus")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(t.contains("State 1:r0=1; 1:r1=0; is forbidden: 1 candidate execution reaches it"));
    assert!(t.contains(
        "Reason 1 (1 candidate): check `consistent` fails (acyclic locord | rf | fr | asmo as consistent)"
    ));
    assert!(t.contains(
        "-> d by ithbsemsc0 (through locord > hb > ithbsemsc0: a -po-> b -sw-> c -po-> d)"
    ));
    assert!(t.contains("-> a by fr\n"));
}

#[test]
fn explain_json_shape() {
    let out = vkherd(&[
        "explain",
        &corpus("mp/MP-relacq-wg.litmus"),
        "--json",
        "--show",
        "sw",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_snapshot!(
        "explain_mp_relacq_wg_json",
        serde_json::to_string_pretty(&v).unwrap()
    );
}

#[test]
fn an_allowed_state_gets_a_witness_and_its_race_flag() {
    let out = vkherd(&["explain", &corpus("mp/MP-relacq-wg-crosswg.litmus")]);
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    assert!(t.contains(
        "State 1:r0=1; 1:r1=0; is allowed; every execution reaching it races (flag raised). Witness:"
    ));
    assert!(t.contains("  flags: racy\n"));
}

#[test]
fn bad_states_and_relations_are_located_errors_with_exit_code_2() {
    let file = corpus("mp/MP-relacq-wg.litmus");
    for (state, message) in [
        ("1:r9=1;", "`1:r9`: it is not in the final state"),
        ("1:r0=one;", "`one` is not an integer"),
        ("zz=1", "`zz`: the test has no such register or location"),
        ("1:r0 1", "`1:r0 1` is not `NAME=VALUE`"),
    ] {
        let out = vkherd(&["explain", &file, "--state", state]);
        assert_eq!(out.status.code(), Some(2), "{state}");
        let err = text(&out.stderr);
        assert!(err.contains(message), "{state}: {err}");
        assert!(err.contains(" --> --state:1:"), "{state}: {err}");
        assert!(err.contains('^'), "{state}: {err}");
    }
    let out = vkherd(&["explain", &file, "--show", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`nosuch` is not a relation of the model"));
    let out = vkherd(&[&file, "--dot", "--show", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    let khronos = format!(
        "{}/tests/khronos/mp_pinned_init.test",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = vkherd(&["explain", &khronos]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is a Khronos `.test` file"));
}

#[test]
fn an_unreachable_state_is_said_so() {
    let out = vkherd(&[
        "explain",
        &corpus("mp/MP-relacq-wg.litmus"),
        "--state",
        "1:r0=5;",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("No candidate execution reaches 1:r0=5;"));
}

/// A limit is no fault of the test: exit code 3, as a stopped run, and a message with no
/// source location (issue 21, item 6).
#[test]
fn a_runaway_test_stops_at_the_limit_with_a_message() {
    let out = vkherd(&[
        "explain",
        &corpus("iriw/IRIW-relacq.litmus"),
        "--max-candidates",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains("raise --max-candidates"), "{err}");
    assert!(!err.contains(" --> ") && !err.contains('^'), "{err}");
}

#[test]
fn graphs_render_without_warnings() {
    let files = [
        "mp/MP-relacq-wg.litmus",
        "mp/MP-relacq-wg-crosswg.litmus",
        "cbar/MP-cbar.litmus",
        "2+2W/2+2W-rel.litmus",
        "alias/ALIAS-MP-data.litmus",
        "opencl/mp/MP-rel-acq-wg-crosswg.litmus",
        "ptx/mp/MP-relacq-gpu.litmus",
        "ptx/barrier/MP-bar.litmus",
    ];
    if !dot_installed() {
        eprintln!("SKIPPED graphs_render_without_warnings: Graphviz's `dot` is not installed");
        return;
    }
    let mut drawn = 0;
    for f in files {
        let path = corpus(f);
        if !std::path::Path::new(&path).exists() {
            panic!("{f} is not in the corpus");
        }
        let show = if f.starts_with("opencl") {
            "hb,gsw"
        } else if f.starts_with("ptx") {
            "cause,sync"
        } else {
            "hb,sw"
        };
        for args in [
            vec![path.as_str(), "--dot", "--show", show],
            vec!["explain", path.as_str(), "--dot", "--show", "co"],
        ] {
            let out = vkherd(&args);
            assert_eq!(out.status.code(), Some(0), "{f}: {}", text(&out.stderr));
            let all = text(&out.stdout);
            for graph in all
                .split_inclusive("\n}\n")
                .filter(|g| g.contains("digraph"))
            {
                assert_renders_cleanly(graph, f);
                drawn += 1;
            }
        }
    }
    assert!(drawn > 10, "only {drawn} graphs drawn");
}

#[test]
fn graph_dir_gets_a_file_per_state() {
    let dir = tmp_path("explain-graphs");
    let _ = std::fs::remove_dir_all(&dir);
    let out = vkherd(&[
        &corpus("mp/MP-relacq-wg.litmus"),
        "--graph",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The herd-style report is still printed.
    assert!(text(&out.stdout).starts_with("Test MP-relacq-wg Allowed"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected = Vec::new();
    for k in 1..=3 {
        expected.push(format!("MP-relacq-wg-state{k}.dot"));
        if dot_installed() {
            expected.push(format!("MP-relacq-wg-state{k}.svg"));
        }
    }
    expected.sort();
    assert_eq!(names, expected);
    if !dot_installed() {
        assert!(text(&out.stderr).contains("`dot` is not installed"));
    }
    // herd7's spelling: -o DIR.
    let dir2 = tmp_path("explain-graphs-o");
    let _ = std::fs::remove_dir_all(&dir2);
    let out = vkherd(&[
        &corpus("mp/MP-relacq-wg.litmus"),
        "-o",
        dir2.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(dir2.join("MP-relacq-wg-state1.dot").exists());
    // herd7's `-graph cluster` (a layout) is not taken for a directory.
    let out = vkherd(&[&corpus("mp/MP-relacq-wg.litmus"), "-graph", "cluster"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("looks like herd7's -graph layout"));
    assert!(!std::path::Path::new("cluster").exists());
    // herd7's -doshow for the relations; sw is drawn in the witness of 1:r0=1; 1:r1=1;,
    // the third of the graph's three figures.
    let out = vkherd(&[&corpus("mp/MP-relacq-wg.litmus"), "-doshow", "sw", "--dot"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("x3_e1 -> x3_e2 [label=\"sw\""));
}

#[test]
fn output_is_the_same_whatever_the_thread_count() {
    for f in ["iriw/IRIW-relacq.litmus", "mp/MP-relacq-wg-crosswg.litmus"] {
        let path = corpus(f);
        let one = vkherd(&["explain", &path, "--json", "-j", "1"]);
        let two = vkherd(&["explain", &path, "--json", "-j", "2"]);
        assert_eq!(one.status.code(), Some(0), "{f}: {}", text(&one.stderr));
        assert_eq!(one.stdout, two.stdout, "{f}");
        let one = vkherd(&[&path, "--dot", "-j", "1"]);
        let two = vkherd(&[&path, "--dot", "-j", "2"]);
        assert_eq!(one.stdout, two.stdout, "{f}");
    }
}

#[test]
fn paths_dropped_by_the_unroll_bound_are_warned_about() {
    let out = vkherd(&["explain", &corpus("control-flow/LB-spin-relaxed.litmus")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains(
        "Warning: 2 paths dropped by the unroll bound (--unroll 2): the explanation covers the executions within the bound only"
    ));
    let out = vkherd(&[
        "explain",
        &corpus("control-flow/LB-spin-relaxed.litmus"),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["notes"].as_array().unwrap().len(), 1);
}

/// docs/explain.md shows the real output of its commands.
#[test]
fn the_worked_example_in_the_docs_is_the_real_output() {
    let doc = std::fs::read_to_string(format!(
        "{}/../../docs/explain.md",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let run = |args: &[&str]| {
        let out = bin().current_dir(root()).args(args).output().unwrap();
        text(&out.stdout)
    };
    let cross = run(&[
        "explain",
        "litmus-tests/mp/MP-relacq-wg-crosswg.litmus",
        "--show",
        "sw,hb",
    ]);
    assert!(doc.contains(cross.trim_end()), "step 2 differs:\n{cross}");
    let dv = run(&["explain", "litmus-tests/mp/MP-relacq-dv-crosswg.litmus"]);
    let head: Vec<&str> = dv.lines().take(13).collect();
    assert!(doc.contains(&head.join("\n")), "step 3 differs:\n{dv}");
    let same_wg = run(&["explain", "litmus-tests/mp/MP-relacq-wg.litmus"]);
    // The same reason and cycle (the instructions differ only in their scope).
    assert_eq!(
        same_wg.lines().skip(1).take(10).collect::<Vec<_>>(),
        dv.lines().skip(1).take(10).collect::<Vec<_>>(),
        "MP-relacq-wg is not explained as MP-relacq-dv-crosswg"
    );
}

/// The `[default: ...]` of option `--NAME` in `vkherd ARGS --help`.
fn help_default(args: &[&str], name: &str) -> String {
    let help = text(&vkherd(args).stdout);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("--{name} ")))
        .unwrap_or_else(|| panic!("no --{name} in {args:?}"));
    line.split("[default: ")
        .nth(1)
        .and_then(|d| d.split(']').next())
        .unwrap_or_else(|| panic!("no default: {line}"))
        .to_string()
}

/// `explain` stops where a run stops: the main form's `--max-candidates` and `--timeout`,
/// with the same defaults (issue 21, item 6).
#[test]
fn explain_has_the_limits_of_a_run_with_their_defaults() {
    for name in ["max-candidates", "timeout"] {
        assert_eq!(
            help_default(&["explain", "--help"], name),
            help_default(&["--help"], name),
            "--{name}"
        );
    }
}

/// A ticket lock of two invocations has more than 200 000 candidates (the cap explain
/// had): explained in full within the run's limits.
#[test]
fn explain_goes_past_200000_candidates_within_the_run_limits() {
    let gen = vkherd(&["gen", "ticket", "2"]);
    assert_eq!(gen.status.code(), Some(0));
    let file = tmp_path("explain-ticket-2.litmus");
    std::fs::write(&file, &gen.stdout).unwrap();
    let out = vkherd(&["explain", "--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["examined"].as_u64().unwrap() > 200_000,
        "{}",
        v["examined"]
    );
}

/// A time limit names the candidates examined when it struck (not the absent candidate
/// limit), and no source location.
#[test]
fn a_stopped_explanation_says_how_far_it_got() {
    let gen = vkherd(&["gen", "ticket", "3"]);
    let file = tmp_path("explain-ticket-3.litmus");
    std::fs::write(&file, &gen.stdout).unwrap();
    let out = vkherd(&[
        "explain",
        file.to_str().unwrap(),
        "--max-candidates",
        "0",
        "--timeout",
        "0.2",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    let count: u64 = err
        .split(" (--timeout) after ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(count < 1 << 40, "{err}");
    assert!(
        err.starts_with("error: ")
            && err.contains("explain-ticket-3.litmus: stopped by the time limit of 0.2 s"),
        "{err}"
    );
    assert!(!err.contains(" --> "), "{err}");
}

/// A PTX test is explained by the PTX model in PTX's words: MP with .gpu release and
/// acquire across CTAs (the test's header, by hand): r1=0 reads the initial x, so
/// fr Rx->Wx, and cause_base Wx->Rx (po; sync; po), so `(co | fr) ; cause` is reflexive
/// and Causality fails.
#[test]
fn a_ptx_test_is_explained_by_the_ptx_model() {
    let f = corpus("ptx/mp/MP-relacq-gpu.litmus");
    let out = vkherd(&["explain", &f]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.starts_with("Test MP-relacq-gpu, model ptx: explaining ~exists (1:r0=1 /\\ 1:r1=0)"),
        "{stdout}"
    );
    assert!(stdout.contains("is forbidden"), "{stdout}");
    assert!(stdout.contains("check `Causality-cofr` fails"), "{stdout}");
    assert!(stdout.contains("(d -fr-> a -cause_base-> d)"), "{stdout}");
    assert!(stdout.contains("d: R x=0 (P1: ld.weak r1, x)"), "{stdout}");
}

/// The explanation names the model with the variants it ran with, as the run's JSON does
/// (`"model"` and `"variants"`): under rc11-sc the answer is opencl.cat's with RC11's SC
/// order, not plain opencl's (docs/opencl.md "the SC order S").
#[test]
fn the_explanation_names_the_variants_the_model_ran_with() {
    let f = corpus("opencl/sc/IRIW-sc-fences-relaxed.litmus");
    let header = |args: &[&str]| {
        let out = vkherd(args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout).lines().next().unwrap_or("").to_string()
    };
    assert!(
        header(&["explain", &f]).starts_with("Test IRIW-sc-fences-relaxed, model opencl: "),
        "{}",
        header(&["explain", &f])
    );
    let rc11 = header(&["explain", "--variant", "rc11-sc", &f]);
    assert!(
        rc11.starts_with("Test IRIW-sc-fences-relaxed, model opencl with rc11-sc: "),
        "{rc11}"
    );
    let mp = corpus("mp/MP-relacq-wg.litmus");
    let nochains = header(&["explain", "--no-chains", &mp]);
    assert!(
        nochains.starts_with("Test MP-relacq-wg, model vulkan with no-chains: "),
        "{nochains}"
    );
}
