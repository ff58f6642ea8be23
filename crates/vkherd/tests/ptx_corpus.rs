//! The PTX corpus in litmus-tests/ptx/: every test parses and lowers as PTX, and its
//! header states the verdict under both PTX models, derived by hand from the model text
//! (`Expected ptx: Ok|No`, `Expected ptx-v6.0: Ok|No`, with the reason; docs/ptx.md). Both
//! bundled models must agree with every header, the pruned search must list what plain
//! exhaustive enumeration lists, and the default model's reports are locked by insta
//! snapshots. Dat3M's PTX tests (../shared beside the repository, absent from a fresh
//! clone: the test says so and passes) are all read and answered, with the verdicts
//! recorded in tests/ptx/dat3m-verdicts.txt (checked against tools/ptxref, docs/ptx.md
//! "Agreement").

use crate::files;
use std::path::{Path, PathBuf};
use vkherd::RunConfig;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/ptx")
}

fn corpus() -> Vec<(String, String)> {
    files::litmus_files(&corpus_dir())
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(corpus_dir()).unwrap().display().to_string();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

fn options(model: &str) -> vkherd::Options {
    vkherd::Options {
        model: vkherd::models::resolve(model, &[], false).expect("a bundled PTX model"),
        ..vkherd::Options::default()
    }
}

fn verdict(rep: &vkherd::Report) -> &'static str {
    match rep.verdict {
        vkherd::Verdict::Ok => "Ok",
        vkherd::Verdict::No => "No",
    }
}

/// The header's `Expected MODEL: Ok|No` verdict.
fn expected(source: &str, model: &str) -> Option<String> {
    let key = format!("Expected {model}: ");
    source
        .lines()
        .find_map(|l| l.trim_start_matches("(* ").trim().strip_prefix(&key))
        .map(|l| l[..2].to_string())
}

#[test]
fn every_ptx_corpus_test_parses_lowers_and_states_its_expectations() {
    let tests = corpus();
    assert!(tests.len() >= 40, "PTX corpus too small: {}", tests.len());
    let mut failures = Vec::new();
    for (name, source) in &tests {
        failures.extend(files::load_failures(name, source, "ptx"));
        for model in ["ptx", "ptx-v6.0"] {
            if expected(source, model).is_none() {
                failures.push(format!("{name}: no `Expected {model}: Ok|No` line"));
            }
        }
        if !source.contains("Why") {
            failures.push(format!("{name}: no `Why` in the header"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every header's verdict under both models, and the default model's report snapshot.
#[test]
fn ptx_corpus_verdicts_match_the_headers() {
    let mut failures = Vec::new();
    for (name, source) in corpus() {
        let program = vkherd::load_litmus(&source).expect("parses");
        for model in ["ptx", "ptx-v6.0"] {
            let want = expected(&source, model).expect("an Expected line");
            let rep = vkherd::run(&program, &options(model)).expect("runs");
            if verdict(&rep) != want {
                failures.push(format!(
                    "{name}: header {model}: {want}, report {}",
                    verdict(&rep)
                ));
            }
            if model == "ptx" {
                let stem = name.trim_end_matches(".litmus").replace('/', "-");
                insta::assert_snapshot!(format!("ptx-{stem}"), vkherd::report::herd_text(&rep));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The pruned search (cuts on every monotone check of the PTX models, the orientation
/// asmo built pair by pair) lists exactly what plain exhaustive enumeration (`--naive`:
/// every rf and every acyclic orientation, no cut) lists, under both models.
#[test]
fn ptx_corpus_pruned_search_equals_naive_enumeration() {
    for (name, source) in corpus() {
        let program = vkherd::load_litmus(&source).expect("parses");
        for model in ["ptx", "ptx-v6.0"] {
            let run = |naive: bool| {
                let opts = vkherd::Options {
                    run: RunConfig {
                        naive,
                        ..RunConfig::default()
                    },
                    ..options(model)
                };
                vkherd::report::herd_text(&vkherd::run(&program, &opts).expect("runs"))
            };
            assert_eq!(run(false), run(true), "{name} under {model}");
        }
    }
}

/// The Vulkan model reads bases PTX tests never produce: an explicit `--model vulkan` on
/// a PTX test is refused, and a PTX model on a Vulkan test.
#[test]
fn ptx_tests_and_other_models_refuse_each_other() {
    let (_, source) = &corpus()[0];
    let program = vkherd::load_litmus(source).expect("parses");
    let vulkan = vkherd::Options {
        model: vkherd::models::ModelChoice {
            given: true,
            ..Default::default()
        },
        ..vkherd::Options::default()
    };
    let err = vkherd::run(&program, &vulkan).expect_err("refused");
    assert!(err.message.contains("a PTX test"), "{}", err.message);
    let mp = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/mp/MP-relacq-wg.litmus"),
    )
    .unwrap();
    let program = vkherd::load_litmus(&mp).expect("parses");
    assert!(vkherd::run(&program, &options("ptx")).is_err());
}

/// `shared/dat3m/ptx-tests` beside the repository (a worktree is deeper than the main
/// clone, so every folder above the crate is tried).
fn dat3m_dir() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/dat3m/ptx-tests"))
        .find(|d| d.is_dir())
}

/// Every Dat3M PTX test is read and answered under both models (none refused), with the
/// verdicts of tests/ptx/dat3m-verdicts.txt (`FILE ptx-verdict ptx-v6.0-verdict`, written
/// from vkherd's runs after tools/ptxref/compare_vkherd.py checked them against the
/// reference; docs/ptx.md "Agreement").
#[test]
fn every_dat3m_ptx_test_is_answered_with_the_recorded_verdicts() {
    let Some(dir) = dat3m_dir() else {
        eprintln!(
            "skipping every_dat3m_ptx_test_is_answered_with_the_recorded_verdicts: no shared/dat3m/ptx-tests above {} (a fresh clone has no ../shared)",
            env!("CARGO_MANIFEST_DIR")
        );
        return;
    };
    let recorded = include_str!("ptx/dat3m-verdicts.txt");
    let mut want = std::collections::BTreeMap::new();
    for l in recorded
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = l.split_whitespace().collect();
        want.insert(f[0].to_string(), (f[1].to_string(), f[2].to_string()));
    }
    let files = files::litmus_files(&dir);
    assert_eq!(
        files.len(),
        want.len(),
        "the recorded list names every Dat3M test"
    );
    let mut failures = Vec::new();
    for p in files {
        let name = p.strip_prefix(&dir).unwrap().display().to_string();
        let source = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
        let program = match vkherd::load_litmus(&source) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e.render(&name, &source));
                continue;
            }
        };
        let got: Vec<String> = ["ptx", "ptx-v6.0"]
            .iter()
            .map(|m| match vkherd::run(&program, &options(m)) {
                Ok(rep) => verdict(&rep).to_string(),
                Err(e) => format!("error: {}", e.message),
            })
            .collect();
        match want.get(&name) {
            Some((a, b)) if *a == got[0] && *b == got[1] => {}
            w => failures.push(format!("{name}: recorded {w:?}, got {got:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
