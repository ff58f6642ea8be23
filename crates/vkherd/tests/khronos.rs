//! `vkherd khronos`: our own `.test` files (expectations derived by hand, see each file's
//! comment), the Khronos reference suite when ../shared is present, and the command's
//! exit status.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use vkherd::khronos::run_khronos_with;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::Variant;
use vkherd_model::ModelOptions;

fn test_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    v.sort();
    v
}

/// The names of the files with a failing check under `variant` (run by the default
/// engine, the cat engine on the bundled vulkan.cat, when `cat`; by the hand-written
/// engine otherwise), and the number of checks.
fn failing_files_with(dir: &Path, variant: Variant, cat: bool) -> (BTreeSet<String>, usize) {
    let options = ModelOptions {
        variant,
        chains: true,
        mmra: false,
    };
    let spec = match cat {
        true => ModelSpec::Vulkan(options),
        false => ModelSpec::Hand(options),
    };
    let options = vkherd::Options {
        model: ModelChoice {
            spec,
            ..Default::default()
        },
        ..vkherd::Options::default()
    };
    let mut failing = BTreeSet::new();
    let mut checks = 0;
    for f in test_files(dir) {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&f).unwrap();
        let results = run_khronos_with(&source, &name, &options)
            .unwrap_or_else(|d| panic!("{}", d.render(&f.display().to_string(), &source)));
        assert!(!results.is_empty(), "{name} has no check");
        checks += results.len();
        if results.iter().any(|r| !r.passed()) {
            failing.insert(name);
        }
    }
    (failing, checks)
}

fn failing_files(dir: &Path, variant: Variant) -> (BTreeSet<String>, usize) {
    let hand = failing_files_with(dir, variant, false);
    let cat = failing_files_with(dir, variant, true);
    assert_eq!(
        hand, cat,
        "the cat engine disagrees with the hand-written model"
    );
    hand
}

fn own_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/khronos")
}

#[test]
fn our_own_test_files_pass() {
    let (failing, checks) = failing_files(&own_dir(), Variant::Vulkan);
    assert!(checks >= 18, "only {checks} checks");
    assert!(failing.is_empty(), "failing: {failing:?}");
}

#[test]
fn khronos_reference_suite_passes_and_2024_differs_exactly_where_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/khronos-tests");
    if !dir.is_dir() {
        // Written to the real stderr, past the test harness's capture, so that the skip
        // shows in CI logs.
        use std::io::Write;
        let _ = std::io::stderr().write_all(b"skipping: ../shared/khronos-tests not found\n");
        return;
    }
    let (failing, checks) = failing_files(&dir, Variant::Vulkan);
    assert!(checks >= 170, "only {checks} checks found");
    assert!(
        failing.is_empty(),
        "failing under the default model: {failing:?}"
    );
    // The 2025 availability/visibility alignment changes exactly these three tests.
    let (failing, _) = failing_files(&dir, Variant::Vulkan2024);
    let expected: BTreeSet<String> = ["mpinscope3", "mpnotinscope3", "mpnotinscope6"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(failing, expected);
}

#[test]
fn the_command_exits_zero_when_all_pass_and_one_on_a_failing_check() {
    let bin = env!("CARGO_BIN_EXE_vkherd");
    let ok = Command::new(bin)
        .arg("khronos")
        .arg(own_dir())
        .output()
        .unwrap();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(
        out.contains("mp_pinned_init:18 expected NOSOLUTION got NOSOLUTION PASS"),
        "{out}"
    );
    assert!(
        out.contains("18 checks in 6 files: 18 passed, 0 failed"),
        "{out}"
    );

    // The same MP with the wrong expectation: SATISFIABLE where none exists.
    let dir = std::env::temp_dir().join(format!("vkherd-khronos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = std::fs::read_to_string(own_dir().join("mp_pinned_init.test"))
        .unwrap()
        .replace("NOSOLUTION consistent[X]", "SATISFIABLE consistent[X]");
    std::fs::write(dir.join("wrong.test"), wrong).unwrap();
    let bad = Command::new(bin).arg("khronos").arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let out = String::from_utf8_lossy(&bad.stdout);
    assert!(
        out.contains("wrong:18 expected SATISFIABLE got NOSOLUTION FAIL"),
        "{out}"
    );
}
