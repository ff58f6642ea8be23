//! `vkherd observe` on a real Vulkan device (lavapipe in CI: `.ci/run` installs
//! mesa-vulkan-drivers). Every test skips, visibly, without a device; the one about
//! machines without Vulkan runs everywhere.

use crate::util::{bin, root};
use serde_json::Value;
use std::process::Output;

fn observe(args: &[&str]) -> Output {
    bin()
        .arg("observe")
        .args(args)
        .current_dir(root())
        .output()
        .expect("vkherd runs")
}

/// True when a Vulkan device that can run litmus tests is there; else says why.
fn device() -> bool {
    let out = observe(&["--list-devices"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let ok = out.status.success() && !text.contains("cannot run litmus tests");
    if !ok {
        eprintln!(
            "SKIPPED: no usable Vulkan device (Debian: apt-get install mesa-vulkan-drivers): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    ok
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Per state text, (allowed, observed).
fn states(v: &Value) -> Vec<(String, bool, u64)> {
    v["states"]
        .as_array()
        .expect("states")
        .iter()
        .map(|s| {
            (
                s["state"].as_str().unwrap().to_string(),
                s["allowed"].as_bool().unwrap(),
                s["observed"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn without_vulkan_observe_says_so_and_exits_7() {
    // No driver manifest: the loader (if any) finds no device; without a loader the
    // message is about the loader. Both exit 7.
    let out = crate::util::bin()
        .args(["observe", "litmus-tests/sb/SB.litmus"])
        .current_dir(root())
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no Vulkan device") || err.contains("no Vulkan loader"),
        "{err}"
    );
}

#[test]
fn the_vulkan_corpus_observed_is_within_the_allowed_states() {
    if !device() {
        return;
    }
    let out = observe(&["litmus-tests", "--iterations", "2", "--json"]);
    let lines = json_lines(&out);
    let mut judged = 0;
    for v in &lines {
        if v.get("error").is_some() {
            continue;
        }
        let file = v["file"].as_str().unwrap();
        let forbidden: Vec<_> = states(v)
            .into_iter()
            .filter(|(_, allowed, n)| !allowed && *n > 0)
            .collect();
        assert!(
            forbidden.is_empty(),
            "{file}: forbidden states observed: {forbidden:?}"
        );
        assert_eq!(v["forbidden_observations"], 0, "{file}");
        judged += 1;
    }
    // Refused tests (queue families, ssw, avdevice, sc2, quorums, OpenCL) exit 8, and
    // nothing worse happened.
    assert_eq!(
        out.status.code(),
        Some(8),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(judged >= 100, "only {judged} tests ran");
}

/// Runs `file` with the default iterations and returns its JSON object.
fn observed(file: &str, extra: &[&str]) -> Value {
    let mut args = vec![file, "--json"];
    args.extend_from_slice(extra);
    let out = observe(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out).remove(0)
}

#[test]
fn every_sc_outcome_of_mp_and_sb_is_observed() {
    if !device() {
        return;
    }
    // Relaxed atomics, the two threads in different workgroups. The SC outcomes, by
    // hand: MP (P0: x=1; y=1 | P1: r0=y; r1=x) reaches (0,0), (0,1), (1,1); SB (P0: x=1;
    // r0=y | P1: y=1; r0=x) reaches (0,1), (1,0), (1,1). (0,1) of MP and (1,1) of SB
    // need the threads to interleave.
    let cases = [
        (
            "litmus-tests/mp/MP-relaxed.litmus",
            &["1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"],
        ),
        (
            "litmus-tests/sb/SB.litmus",
            &["0:r0=0; 1:r0=1;", "0:r0=1; 1:r0=0;", "0:r0=1; 1:r0=1;"],
        ),
    ];
    // The first runs use the default iterations; a machine busy with other work can starve
    // the line-up for a while (seen at load 14 on 2 cores), so a few seeds and then a
    // longer run are tried before the harness is called unable to interleave.
    let attempts: [&[&str]; 5] = [
        &["--seed", "0"],
        &["--seed", "1"],
        &["--seed", "2"],
        &["--seed", "3"],
        &["--seed", "4", "--iterations", "500"],
    ];
    for (file, sc) in cases {
        let mut missing = Vec::new();
        for args in attempts {
            let seen = states(&observed(file, args));
            missing = sc
                .iter()
                .filter(|s| !seen.iter().any(|(t, _, n)| t == *s && *n > 0))
                .map(|s| format!("{s} ({args:?}, seen {seen:?})"))
                .collect();
            if missing.is_empty() {
                break;
            }
        }
        assert!(
            missing.is_empty(),
            "{file}: SC outcomes not observed: {missing:?}"
        );
    }
}

#[test]
fn the_store_buffering_weak_outcome_is_sought_with_stress() {
    if !device() {
        return;
    }
    let v = observed(
        "litmus-tests/sb/SB.litmus",
        &["--stress", "2", "--iterations", "100"],
    );
    let seen = states(&v);
    let weak = seen
        .iter()
        .find(|(t, ..)| t == "0:r0=0; 1:r0=0;")
        .map_or(0, |x| x.2);
    let total = v["instances"]["judged"].as_u64().unwrap();
    // Reported, not asserted: whether a device shows it is the device's business (on
    // lavapipe it needs the two workgroups on two cores at once).
    eprintln!(
        "SB weak outcome (0,0) with --stress 2: {weak} of {total} instances ({:.4}%)",
        100.0 * weak as f64 / total.max(1) as f64
    );
    assert!(total > 0);
    assert!(seen.iter().all(|(_, allowed, n)| *allowed || *n == 0));
}

#[test]
fn a_model_that_forbids_what_the_device_shows_is_caught() {
    if !device() {
        return;
    }
    let out = observe(&[
        "litmus-tests/sb/SB.litmus",
        "--model",
        "crates/vkherd/tests/files/observe/no-cross-thread-reads.cat",
        "--iterations",
        "5",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(6), "{text}");
    // Every run of SB in which some thread reads the other's store is forbidden by this
    // model, and a device runs the two threads one after the other most of the time.
    assert!(text.contains("FORBIDDEN: "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("0:r0=0; 1:r0=1;") && l.ends_with("FORBIDDEN")),
        "{text}"
    );
}

#[test]
fn the_html_page_carries_the_histogram_beside_the_allowed_states() {
    if !device() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("vkherd-observe-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("o.html");
    let out = observe(&[
        "litmus-tests/mp/MP-relaxed.litmus",
        "--iterations",
        "3",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(&page).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(html.contains("<h3>Observed on llvmpipe") || html.contains("<h3>Observed on "));
    assert!(html.contains("class=\"states observed-states\""));
    // The model's four states are all there, with their verdicts.
    assert_eq!(html.matches("<td>allowed").count(), 4, "{html}");
}

#[test]
fn refused_tests_name_the_instruction_and_exit_8() {
    if !device() {
        return;
    }
    let out = observe(&["litmus-tests/ssw/SSW-avdevice-2thr.litmus"]);
    assert_eq!(out.status.code(), Some(8));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot run on a Vulkan device"), "{err}");
}

/// A test on which no instance finished is a hang, said as one, with the liveness
/// check's prediction under the device's progress model, and exit 5 (issue 33: it read
/// "Ok: every observed state is allowed (0 of 1 ...)" and exited 0). lavapipe runs a
/// workgroup's subgroups one after the other, so flag-handoff-sg's two subgroups, each
/// waiting for the other, never finish there.
#[test]
fn a_test_on_which_no_instance_finished_is_a_hang_and_exits_5() {
    if !device() {
        return;
    }
    let file = "litmus-tests/liveness/flag-handoff-sg.litmus";
    let out = observe(&[file, "--iterations", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.contains("llvmpipe") {
        eprintln!("SKIPPED: the hang is lavapipe's; this device: {text}");
        return;
    }
    assert_eq!(out.status.code(), Some(5), "{text}");
    assert!(!text.contains("Ok: every observed state"), "{text}");
    assert!(
        text.contains("Hang: 256 of 256 instances never finished: a thread was still running after --max-steps 10000"),
        "{text}"
    );
    assert!(
        text.contains(
            "Liveness check (progress obe): violation: the model lets an invocation wait forever"
        ),
        "{text}"
    );
    assert!(text.contains("Hung: no instance finished"), "{text}");
    // Under a fair scheduler the model says it terminates: the device gives less.
    let out = observe(&[file, "--iterations", "2", "--progress", "fair", "--json"]);
    assert_eq!(out.status.code(), Some(5));
    let v = json_lines(&out).remove(0);
    assert_eq!(v["hung"], true);
    assert_eq!(v["instances"]["unfinished"], 256);
    assert_eq!(v["liveness"]["verdict"], "ok");
    assert_eq!(v["liveness"]["progress_text"], "fair");
}
