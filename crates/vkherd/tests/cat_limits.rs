//! Deep `.cat` models from the command line: a model nested past a limit of
//! docs/errors.md ("On the model") is refused with a located error and exit code 2, never
//! a stack overflow; a model just under the limits runs (search, evaluation, explain) on
//! the worker threads' stacks and gives vulkan.cat's answers.

use crate::util::run_in_root as run;
use std::path::PathBuf;
use vkherd_cat::Limit;

/// A fresh directory for this test's model files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vkherd-cat-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `count` definitions, each one operator over the last, starting from rf and po (per
/// candidate: evaluated at every node of the search), a check on the last that always
/// holds (first, so that every evaluation and `explain` walk it), then vulkan.cat, so
/// that the answers are vulkan.cat's.
fn deep_model(count: usize) -> String {
    let mut text = String::from("let d0 = rf | po\n");
    for i in 1..=count {
        text += &format!("let d{i} = d{} \\ id\n", i - 1);
    }
    text += &format!("irreflexive d{count} as deep\ninclude \"vulkan.cat\"\n");
    text
}

const TEST: &str = "litmus-tests/mp/MP-relacq-wg.litmus";

#[test]
fn ten_thousand_nested_definitions_or_parentheses_exit_2_with_a_located_error() {
    let dir = scratch("refused");
    let cases = [
        (
            "definitions.cat",
            deep_model(10_000),
            "definition nested more than",
        ),
        (
            "parentheses.cat",
            format!("let x = {}po{}\n", "(".repeat(10_000), ")".repeat(10_000)),
            "parentheses, brackets, `~`",
        ),
    ];
    for (name, text, what) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.display().to_string();
        let (code, stdout, stderr) = run(&["--model", &path, TEST]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(what), "{stderr}");
        assert!(stderr.contains("more than"), "{stderr}");
        // Located in the model: `--> FILE:LINE:COLUMN` and a caret.
        assert!(stderr.contains(&format!("--> {path}:")), "{stderr}");
        assert!(stderr.contains('^'), "{stderr}");
    }
}

#[test]
fn a_model_just_under_the_definition_depth_limit_runs_and_explains() {
    let dir = scratch("runs");
    let path = dir.join("deep.cat");
    std::fs::write(&path, deep_model(Limit::DefinitionDepth.max() - 2)).unwrap();
    let path = path.display().to_string();
    let (code, deep, stderr) = run(&["-j", "2", "--model", &path, TEST]);
    assert_eq!(code, 0, "{stderr}");
    let (_, vulkan, _) = run(&["-j", "2", "--model", "vulkan", TEST]);
    // vulkan.cat's answers, its race flag under the file's own name (`racy`: a model
    // from a file has no declared data race, docs/semantics.md "Flags").
    let vulkan = vulkan
        .replace("Flag data-race\n", "Flag racy\n")
        .replace(" # racy", " # flagged");
    assert_eq!(deep, vulkan);
    let (code, _, stderr) = run(&["explain", "-j", "2", "--model", &path, TEST]);
    assert_eq!(code, 0, "{stderr}");
}
