//! The generators on the command line: `vkherd diy` (one test, families, errors),
//! `vkherd table`, the families in `vkherd report`, and `vkherd distinguish`.

use crate::util::{text, tmp_path, vkherd};
use std::path::PathBuf;
use std::process::Output;

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

fn tmp(name: &str) -> PathBuf {
    let dir = tmp_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn diy_prints_a_test_vkherd_runs() {
    let o = vkherd(&["diy", "PodWW", "Rfe", "PodRR", "Fre"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("VULKAN MP\n"), "{text}");
    let dir = tmp("diy-one");
    let o = vkherd(&[
        "diy",
        "--dialect",
        "opencl",
        "PodWW [rel] Rfe [acq] PodRR Fre",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = dir.join("MP+rlx-rel+acq-rlx.litmus");
    let run = vkherd(&[file.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // Release/acquire at device scope in one device: message passing holds.
    assert!(stdout(&run).contains("\nNo\n"), "{}", stdout(&run));
}

#[test]
fn bad_cycles_exit_2_naming_the_token() {
    let cases = [
        (
            vec!["diy", "PodWW Rfe PodXY Fre"],
            "`PodXY`",
            "unknown edge",
        ),
        (vec!["diy", "PodWW Rfe PodRR"], "`PodRR`", "does not close"),
        (
            vec!["diy", "PodWW [acq] Rfe PodRR Fre"],
            "`[acq]`",
            "on a write",
        ),
        (
            vec!["diy", "PodWW Rfe DpAddrdR Fre"],
            "`DpAddrdR`",
            "address dependency",
        ),
        (
            vec!["diy", "--all", "--vary", "colour", "PodWW Rfe PodRR Fre"],
            "colour",
            "--vary",
        ),
        (
            vec!["diy", "--all", "PodWW Rfe PodRR Fre"],
            "--vary",
            "--all",
        ),
        (
            vec!["distinguish", "vulkan", "vulkan", "--kinds", "q"],
            "`q`",
            "--kinds",
        ),
        (
            vec!["distinguish", "vulkan", "nosuchmodel"],
            "nosuchmodel",
            "model",
        ),
    ];
    for (args, token, what) in cases {
        let o = vkherd(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(token) && err.contains(what), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // The caret sits under the offending token.
    let err = stderr(&vkherd(&["diy", "PodWW Rfe PodXY Fre"]));
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("PodWW Rfe PodXY Fre"))
        .unwrap();
    assert_eq!(lines[at + 1].find('^'), lines[at].find("PodXY"), "{err}");
}

#[test]
fn a_family_is_written_with_its_index_and_tabled() {
    let dir = tmp("diy-family");
    let d = dir.to_str().unwrap();
    let o = vkherd(&[
        "diy",
        "--all",
        "PodWR Fre PodWR Fre",
        "--vary",
        "semantics",
        "--semantics",
        "rlx,relacq",
        "-o",
        d,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 2 x 2 annotations per invocation, 16 variants; the two orders of two different
    // invocations are one test: 4 * 5 / 2 = 10 tests.
    assert!(stdout(&o).contains("16 variants"), "{}", stdout(&o));
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 11);
    assert!(dir.join("index.json").is_file() && dir.join("SB.litmus").is_file());
    let o = vkherd(&["table", d, "-j", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    // Release/acquire does not forbid SB: every variant is allowed, race-free.
    assert!(
        table.contains("16 variants: 16 allowed, 0 allowed (racy), 0 forbidden"),
        "{table}"
    );
    assert!(
        table.contains("P1:Rx") && table.contains("P0:Wx"),
        "{table}"
    );
    let page = dir.with_extension("html");
    let o = vkherd(&[
        "report",
        d,
        "-o",
        page.to_str().unwrap(),
        "--no-graphs",
        "--no-times",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<section id=\"families\">"));
    assert_eq!(html.matches("<td class=\"vA\"").count(), 16, "{html}");
    // No index, no table.
    let o = vkherd(&[
        "table",
        dir.join("..").join("nonexistent-family").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("index.json"));
}

/// A family run stopped by a limit is partial: the cells it left open are `?`, said, and
/// exit 3 as for the tests run one by one (issue 33: `table` and `diy --all --run`
/// exited 0); a test that cannot be read is an error, exit 2.
#[test]
fn family_runs_stopped_by_a_limit_exit_3_and_unreadable_tests_2() {
    // Release/acquire MP: forbidden wherever the scopes reach, which only a complete
    // run can say, so one candidate leaves those verdicts open.
    let dir = tmp("diy-family-limit");
    let d = dir.to_str().unwrap();
    let cycle = "[rel] PodWW Rfe PodRR [acq] Fre";
    let args = ["--vary", "scope", "--scopes", "wg,dv"];
    let mut write = vec!["diy", "--all", cycle, "-o", d];
    write.extend(args);
    let o = vkherd(&write);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = vkherd(&["table", d, "-j", "1", "--max-candidates", "1"]);
    let table = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{table}{}", stderr(&o));
    assert!(
        table.contains(" unknown") && table.contains(" ?"),
        "{table}"
    );
    assert!(
        table.contains(
            "tests stopped by --max-candidates or --timeout before the verdict was settled (`?`)"
        ),
        "{table}"
    );
    let mut run = vec![
        "diy",
        "--all",
        cycle,
        "--run",
        "-j",
        "1",
        "--max-candidates",
        "1",
    ];
    run.extend(args);
    let o = vkherd(&run);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stdout(&o).contains("Partial: "), "{}", stdout(&o));
    // Without a limit: complete, exit 0.
    let o = vkherd(&["table", d, "-j", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        !table.contains("Partial:") && table.contains(" 0 unknown"),
        "{table}"
    );
    // A test file gone: its cell is `?`, and the run says why and exits 2.
    let gone = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "litmus"))
        .unwrap();
    std::fs::remove_file(&gone).unwrap();
    let o = vkherd(&["table", d, "-j", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let name = gone.file_name().unwrap().to_str().unwrap();
    assert!(
        stderr(&o).contains(&format!("{name}: cannot read it")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_prints_which_scopes_make_mp_forbidden() {
    let o = vkherd(&[
        "diy",
        "--all",
        "[av.dv] PodWW Rfe PodRR [vis.dv] Fre",
        "--vary",
        "scope",
        "--semantics",
        "relacq",
        "[placeholder]",
    ]);
    // A stray argument is part of the cycle: an unknown annotation, exit 2.
    assert_eq!(o.status.code(), Some(2));
    let o = vkherd(&[
        "diy",
        "--all",
        "[av.dv] PodWW [rel] Rfe [acq] PodRR [vis.dv] Fre",
        "--vary",
        "scope",
        "--run",
        "-j",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    // Invocations in two workgroups: a workgroup or subgroup scope on either side
    // leaves the stale read allowed (racily); qf and dv on both forbid it.
    let row = |scope: &str| {
        table
            .lines()
            .find(|l| {
                l.starts_with(&format!("rel.{scope} ")) || (scope == "dv" && l.starts_with("rel "))
            })
            .unwrap_or_else(|| panic!("no row rel.{scope}: {table}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("sg"), "R R R R", "{table}");
    assert_eq!(row("wg"), "R R R R", "{table}");
    assert_eq!(row("qf"), "R R F F", "{table}");
    assert_eq!(row("dv"), "R R F F", "{table}");
}

/// The output without its times (which vary from run to run).
fn without_times(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("Examined") {
                "Examined".to_string()
            } else if l.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                l.rsplit_once(' ').map_or(l, |(a, _)| a).to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn distinguish_finds_the_pair_and_writes_tests_that_run() {
    let dir = tmp("distinguish");
    let args = |j: &'static str| {
        vec![
            "distinguish",
            "vulkan",
            "vulkan-2024",
            "--semantics",
            "relacq,semavvis",
            "--scopes",
            "wg,dv",
            "--placements",
            "qf",
            "--show",
            "1",
            "-j",
            j,
        ]
    };
    let mut a = args("1");
    a.extend(["-o", dir.to_str().unwrap()]);
    let o = vkherd(&a);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("are minimal within these bounds"), "{text}");
    assert!(
        text.contains("allowed by vulkan, forbidden by vulkan-2024"),
        "{text}"
    );
    assert!(text.contains("Why vulkan-2024 forbids it:"), "{text}");
    assert!(text.contains("check `consistent` fails"), "{text}");
    // Each test written runs, and vulkan-2024 says No to its condition.
    let written: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(!written.is_empty());
    for f in &written {
        // Two models of one dialect: nothing was translated, so no listing is written.
        let file = std::fs::read_to_string(f).unwrap();
        assert!(
            file.contains("(* Allowed by vulkan, forbidden by vulkan-2024."),
            "{file}"
        );
        assert!(!file.contains("translated from"), "{file}");
        let o = vkherd(&["--model", "vulkan-2024", f.to_str().unwrap()]);
        assert!(
            stdout(&o).contains("\nNo\n"),
            "{}: {}",
            f.display(),
            stdout(&o)
        );
        let o = vkherd(&["--model", "vulkan", f.to_str().unwrap()]);
        assert!(
            stdout(&o).contains("\nOk\n"),
            "{}: {}",
            f.display(),
            stdout(&o)
        );
    }
    // The same output whatever the thread count.
    let two = stdout(&vkherd(&args("2")));
    let one = stdout(&vkherd(&args("1")));
    assert_eq!(without_times(&one), without_times(&two));
    // A model against itself: nothing, and says so.
    let o = vkherd(&[
        "distinguish",
        "vulkan",
        "vulkan",
        "--semantics",
        "rlx,relacq",
        "--scopes",
        "dv",
        "--placements",
        "qf",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("No program of the space distinguishes vulkan and vulkan"),
        "{}",
        stdout(&o)
    );
}

/// A search stopped by a limit before any difference is not "they agree": it says where
/// it stopped and exits 3 (docs/generate.md).
#[test]
fn a_distinguish_search_stopped_before_a_difference_exits_3() {
    let out = vkherd(&[
        "distinguish",
        "vulkan",
        "vulkan-2024",
        "-j",
        "1",
        "--max-programs",
        "10",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("Search stopped at the limit of 10 programs (--max-programs)"),
        "{text}"
    );
    assert!(
        !text.contains("No program of the space distinguishes"),
        "{text}"
    );
}

/// `--barriers` adds control barriers to the space, and a barrier cycle is narrowed to
/// its barriers and placements unless `--wide` (docs/generate.md): a model without the
/// barrier's synchronisation is told apart from vulkan both ways.
#[test]
fn distinguish_with_barriers_tells_apart_a_model_without_barrier_synchronisation() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/files/distinguish/vulkan-no-barrier-sync.cat");
    let weak = fixture.to_str().unwrap();
    let small = [
        "--semantics",
        "rlx,relacq",
        "--scopes",
        "wg",
        "--placements",
        "wg",
        "--show",
        "1",
    ];
    let mut args = vec!["distinguish", "vulkan", weak];
    args.extend(small);
    // Without barriers: no program of the space tells them apart.
    let o = vkherd(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("No program of the space distinguishes"));
    args.push("--barriers");
    let o = vkherd(&args);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(text.contains("Alphabet: events r,w,cbar;"), "{text}");
    assert!(text.contains("are minimal within these bounds"), "{text}");
    assert!(text.contains("cbar.acq_rel.wg.semsc0 0"), "{text}");
    assert!(
        text.contains(&format!("allowed by {weak}, forbidden by vulkan")),
        "{text}"
    );
    // --kinds says the same.
    let mut kinds = vec!["distinguish", "vulkan", weak, "--kinds", "r,w,cbar"];
    kinds.extend(small);
    assert_eq!(
        without_times(&stdout(&vkherd(&kinds))),
        without_times(&text)
    );
    // The cycle: narrowed, it runs.
    let cycle = [
        "distinguish",
        "vulkan",
        weak,
        "--cycle",
        "PodWW CbardWR PodRR Fre",
    ];
    let o = vkherd(&cycle);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        text.contains("on the barriers and placements only, --wide for every item): 64 variants"),
        "{text}"
    );
    assert!(
        text.contains("28 of the cycle's tests distinguish"),
        "{text}"
    );
    // --wide varies every item: past --max-variants, refused.
    let mut wide = cycle.to_vec();
    wide.push("--wide");
    let o = vkherd(&wide);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("21381376 variants"), "{}", stderr(&o));
}

/// The options of one mode are usage errors in the other, not silently ignored: --wide,
/// --vary and --max-variants mean something only with --cycle, --barriers only without.
#[test]
fn distinguish_refuses_options_its_mode_would_ignore() {
    for extra in [
        &["--wide"][..],
        &["--vary", "scope"],
        &["--max-variants", "5"],
        &["--cycle", "PodWW Rfe PodRR Fre", "--barriers"],
    ] {
        let mut args = vec!["distinguish", "vulkan", "vulkan-2024", "--size", "2"];
        args.extend_from_slice(extra);
        let o = vkherd(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains("--cycle"), "{extra:?}: {err}");
    }
}
