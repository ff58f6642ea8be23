//! `vkherd diff A B` on a directory of both dialects follows the one rule of
//! docs/models.md, "Models and dialects": A and B are given models, like `--model`, so
//! each judges every test, and a test of a dialect either is not for is refused (an
//! error at its header, counted in the summary, exit code 2); the other tests are
//! compared as usual. A model for both dialects compares both.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn vkherd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vkherd"))
        .args(args)
        .output()
        .expect("run vkherd")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A directory holding `files` (paths below litmus-tests/), for the test `name`.
fn mixed(name: &str, files: &[&str]) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests");
    for f in files {
        let from = corpus.join(f);
        std::fs::copy(&from, d.join(from.file_name().unwrap())).unwrap();
    }
    d
}

/// Vulkan: allowed under `vulkan`, forbidden under `vulkan-2024` (litmus-tests/README.md).
const VULKAN: &str = "mp/MP-semav-fence-wg-crosswg.litmus";
/// OpenCL: forbidden under `opencl`, allowed under `opencl+rc11-sc` (its header).
const OPENCL: &str = "opencl/sc/Z6.U.litmus";

#[test]
fn diff_of_two_vulkan_models_refuses_the_opencl_tests_and_compares_the_others() {
    let d = mixed("diff-dialects-vulkan", &[VULKAN, OPENCL]);
    let d = d.to_str().unwrap();
    let out = vkherd(&["diff", "-j", "1", "vulkan", "vulkan-2024", d]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("MP-semav-fence-wg-crosswg.litmus\n  only vulkan: 1:r0=1; 1:r1=0;\n  verdict: Ok under vulkan, No under vulkan-2024\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("Z6.U"), "{stdout}");
    assert!(
        stdout.ends_with("2 tests: 1 differ, 1 verdict change(s), 0 partial, 1 error (vulkan against vulkan-2024)\n"),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "error: `Z6.U` is an OpenCL test, and the model vulkan is not for OpenCL tests"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("Z6.U.litmus:1:1\n"), "{stderr}");
    // JSON: an error object for the refused test, the comparison of the other.
    let out = vkherd(&["diff", "--json", "-j", "1", "vulkan", "vulkan-2024", d]);
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0]["file"]
        .as_str()
        .unwrap()
        .ends_with("MP-semav-fence-wg-crosswg.litmus"));
    assert_eq!(lines[0]["verdict_change"], true);
    assert!(lines[1]["file"].as_str().unwrap().ends_with("Z6.U.litmus"));
    assert!(lines[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("is an OpenCL test, and the model vulkan is not for OpenCL tests"));
    assert_eq!(lines[2]["summary"]["errors"], 1);
}

#[test]
fn diff_of_two_opencl_models_refuses_the_vulkan_tests_and_compares_the_others() {
    let d = mixed("diff-dialects-opencl", &[VULKAN, OPENCL]);
    let out = vkherd(&[
        "diff",
        "-j",
        "1",
        "opencl",
        "opencl+rc11-sc",
        d.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("Z6.U.litmus\n  only opencl+rc11-sc: 1:r0=1; 1:r1=3; 2:r2=0;\n  verdict: No under opencl, Ok under opencl+rc11-sc\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("2 tests: 1 differ, 1 verdict change(s), 0 partial, 1 error (opencl against opencl+rc11-sc)\n"),
        "{stdout}"
    );
    assert!(
        stderr.contains("error: `MP-semav-fence-wg-crosswg` is a Vulkan test, and the model opencl is not for Vulkan tests"),
        "{stderr}"
    );
}

#[test]
fn diff_of_models_for_both_dialects_compares_every_test() {
    // Sequential consistency over po, rf, co, fr reads no set either dialect lacks.
    let d = mixed("diff-dialects-both", &[VULKAN, OPENCL]);
    let sc = d.join("sc.cat");
    std::fs::write(
        &sc,
        "\"sequential consistency\"\nlet co = asmo\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc\n",
    )
    .unwrap();
    let sc = sc.to_str().unwrap();
    let out = vkherd(&["diff", "-j", "1", sc, sc, d.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("2 tests: 0 differ,"), "{stdout}");
    // (Without the model's path, which may hold the word.)
    assert!(!stdout.replace(sc, "").contains("error"), "{stdout}");
}
