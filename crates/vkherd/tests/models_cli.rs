//! `--model`, `--variant`, `vkherd models` and `vkherd diff` from the command line.

use crate::util::{bin, root, text};
use std::path::PathBuf;

/// Runs vkherd; stdout without the `Summary:` line of a directory run (it has the time).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = bin().current_dir(root()).args(args).output().unwrap();
    let stdout = text(&out.stdout);
    let stdout = stdout
        .lines()
        .filter(|l| !l.starts_with("Summary: "))
        .map(|l| format!("{l}\n"))
        .collect();
    (out.status.code().unwrap_or(-1), stdout, text(&out.stderr))
}

/// The Vulkan corpus: litmus-tests/ without its OpenCL parts, `opencl` and `opencl-mmra`
/// (OPENCL tests run the OpenCL model by default and are refused by the Vulkan ones).
fn vulkan_corpus() -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(root().join("litmus-tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("opencl") && n.as_str() != "ptx")
        .map(|n| format!("litmus-tests/{n}"))
        .collect();
    dirs.sort();
    dirs
}

/// vulkan.cat without its `co` definition.
fn without_co(text: &str) -> String {
    let at = text.find("let co = ").expect("vulkan.cat defines co");
    text[..at].to_string()
}

fn temp_model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vkherd-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn models_lists_every_bundled_name() {
    let (code, out, _) = run(&["models"]);
    assert_eq!(code, 0);
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "vulkan",
            "vulkan-2024",
            "hand:vulkan",
            "hand:vulkan-2024",
            "opencl",
            "ptx",
            "ptx-v6.0",
            "cat:vulkan",
            "cat:vulkan-2024",
            "cat:vulkan-asserts",
            "FILE.cat"
        ]
    );
    // A file model's line says when it runs in Dat3M's event view.
    assert!(out.contains("Dat3M's event view"), "{out}");
    // Each name says which variants --variant can turn on (docs/models.md).
    let line = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap()
            .to_string()
    };
    assert!(
        line("opencl").ends_with("; variants: mmra, no-svm-atomics, rc11-sc, unscoped-sc"),
        "{out}"
    );
    assert!(
        line("vulkan-2024").ends_with("; variants: mmra, no-chains"),
        "{out}"
    );
}

/// The default (vulkan.cat on the cat engine), `cat:NAME` and the hand-written engine
/// (`hand:NAME`) give the same reports on the corpus.
#[test]
fn the_default_the_cat_names_and_the_hand_written_engine_agree_on_the_corpus() {
    for (model, cat, hand) in [
        (None, "cat:vulkan", "hand:vulkan"),
        (Some("vulkan-2024"), "cat:vulkan-2024", "hand:vulkan-2024"),
    ] {
        for no_chains in [false, true] {
            let corpus = vulkan_corpus();
            let mut args: Vec<&str> = corpus.iter().map(String::as_str).collect();
            if no_chains {
                args.push("--no-chains");
            }
            let with = |m: Option<&'static str>| {
                let mut a = args.clone();
                if let Some(m) = m {
                    a.extend(["--model", m]);
                }
                run(&a)
            };
            let (c0, o0, _) = with(model);
            assert!(o0.matches("\nTest ").count() > 100);
            for other in [cat, hand] {
                let (c, o, _) = with(Some(other));
                assert_eq!(
                    (c0, &o0),
                    (c, &o),
                    "{model:?} against {other}, no-chains {no_chains}"
                );
            }
        }
    }
}

/// `--variant rc11-sc` without `--model`: OPENCL tests run opencl.cat with it (RC11's psc,
/// which allows Z6.U); a Vulkan test in the same run is judged by the Vulkan model, which
/// has no such variant, so it runs without it and a note says so (docs/cli.md, `--variant`); a
/// variant neither model has is an error before anything runs.
#[test]
fn an_opencl_only_variant_without_model_runs_opencl_tests_and_leaves_it_out_for_vulkan_ones() {
    let z6u = "litmus-tests/opencl/sc/Z6.U.litmus";
    let sb = "litmus-tests/sb/SB.litmus";
    let (code, out, err) = run(&["--variant", "rc11-sc", z6u]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Observation Z6.U Sometimes"), "{out}");
    let (_, out, _) = run(&[z6u]);
    assert!(out.contains("Observation Z6.U Never"), "{out}");
    let (code, out, err) = run(&["--variant", "rc11-sc", z6u, sb]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Observation Z6.U Sometimes"), "{out}");
    assert!(out.contains("Observation SB Sometimes"), "{out}");
    assert!(
        err.contains("SB.litmus: Note: the Vulkan model (vulkan)")
            && err.contains("has no variant rc11-sc: this test ran without it"),
        "{err}"
    );
    let (code, _, err) = run(&["--variant", "rc11-sx", z6u]);
    assert_eq!(code, 2);
    assert!(err.contains("no model has the variant `rc11-sx`"), "{err}");
    let (code, out, err) = run(&["explain", "--variant", "rc11-sc", sb]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("model vulkan"), "{out}");
    assert!(
        err.contains("has no variant rc11-sc: this test ran without it"),
        "{err}"
    );
    // An explicit --model of the other dialect is still refused.
    let (code, _, _) = run(&["--model", "opencl", "--variant", "rc11-sc", sb]);
    assert_eq!(code, 2);
}

#[test]
fn the_hand_written_engine_takes_only_its_names_and_variants() {
    let sb = "litmus-tests/sb/SB.litmus";
    let (code, _, err) = run(&["--model", "hand:opencl", sb]);
    assert_eq!(code, 2);
    assert!(err.contains("error: unknown model `hand:opencl`"), "{err}");
    let (code, _, err) = run(&["--model", "hand:vulkan", "--variant", "vulkan-2024", sb]);
    assert_eq!(code, 2);
    assert!(
        err.contains("has only the variants mmra and no-chains"),
        "{err}"
    );
    let (code, _, err) = run(&["--model", "hand:vulkan-2024", "--variant", "mmra", sb]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_model_file_runs_and_a_stronger_one_allows_fewer_states() {
    // Sequential consistency on top of Vulkan: forbids SB's relaxed outcome.
    let sc = temp_model(
        "sc.cat",
        "\"Vulkan + SC\"\ninclude \"vulkan.cat\"\nacyclic po | rf | fr | co as sc\n",
    );
    let sc = sc.to_str().unwrap();
    let sb = "litmus-tests/sb/SB.litmus";
    let (code, out, err) = run(&["--model", sc, sb]);
    assert_eq!(code, 0, "{err}");
    let (_, weak, _) = run(&[sb]);
    let states = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| l.contains('=') && l.ends_with(';') || l.contains("# "))
            .map(str::to_string)
            .collect()
    };
    let (strong, weak) = (states(&out), states(&weak));
    assert!(strong.len() < weak.len(), "{out}\n{weak:?}");
    assert!(strong.iter().all(|s| weak.contains(s)));
    let (code, out, _) = run(&["diff", "vulkan", sc, sb]);
    assert_eq!(code, 0);
    assert!(out.contains("  only vulkan: 0:r0=0; 1:r0=0;"), "{out}");
    assert!(
        out.contains("1 tests: 1 differ, 1 verdict change(s), 0 partial (vulkan against "),
        "{out}"
    );
}

#[test]
fn bad_models_and_variants_are_errors_with_exit_code_2() {
    let bad = temp_model("bad.cat", "let x = po ;\nacyclic x");
    let (code, _, err) = run(&[
        "--model",
        bad.to_str().unwrap(),
        "litmus-tests/sb/SB.litmus",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.cat:2:1") && err.contains("^^^^^^^"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "--model",
        "vulkan",
        "--variant",
        "nope",
        "litmus-tests/sb/SB.litmus",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("has no variant `nope`"), "{err}");
    let no_co = temp_model("noco.cat", "acyclic po | rf");
    let (code, _, err) = run(&[
        "--model",
        no_co.to_str().unwrap(),
        "litmus-tests/sb/SB.litmus",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("defines neither `co`"), "{err}");
    // With `locord` and no `co`, final values follow (locord | asmo)+.
    let text = without_co(vkherd_cat::bundled_file("vulkan.cat").unwrap());
    let no_co = temp_model("locord-only.cat", &text);
    let (code, out, err) = run(&["--model", no_co.to_str().unwrap(), "litmus-tests/coherence"]);
    assert_eq!(code, 0, "{err}");
    let (_, default, _) = run(&["litmus-tests/coherence"]);
    // The file's race flag under its own name (docs/semantics.md, "Flags").
    let default = default
        .replace("Flag data-race\n", "Flag racy\n")
        .replace(" # racy", " # flagged");
    assert_eq!(out, default);
    let (code, _, err) = run(&["--model", "nope", "litmus-tests/sb/SB.litmus"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read model nope"), "{err}");
}

#[test]
fn diff_names_exactly_the_tests_whose_states_or_verdicts_differ() {
    let corpus = vulkan_corpus();
    let mut args = vec!["diff", "vulkan", "vulkan-2024", "--json"];
    args.extend(corpus.iter().map(String::as_str));
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    let named: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("{\"file\":\""))
        .map(|l| l.split('"').next().unwrap().to_string())
        .collect();
    // The same comparison, test by test, through the library.
    let mut expected = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![root().join("litmus-tests")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            // litmus-tests/ptx/ (issue 31) is left out like the OpenCL corpora.
            let opencl = p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("opencl") || n == "ptx"
            });
            if p.is_dir() && !opencl {
                stack.push(p)
            } else if p.extension().is_some_and(|x| x == "litmus") {
                files.push(p)
            }
        }
    }
    files.sort();
    for f in files {
        let source = std::fs::read_to_string(&f).unwrap();
        // No model runs the OpenCL tests yet (docs/opencl.md): diff skips them.
        if vkherd_dialects::opencl::is_opencl(&source) {
            continue;
        }
        let program = vkherd::load_litmus(&source).unwrap();
        let mut o = vkherd::Options::default();
        let a = vkherd::run(&program, &o).unwrap();
        o.model.spec = vkherd::models::ModelSpec::Vulkan(vkherd_model::ModelOptions {
            variant: vkherd::Variant::Vulkan2024,
            ..Default::default()
        });
        let b = vkherd::run(&program, &o).unwrap();
        let keys = |r: &vkherd::Report| r.outcomes.states.keys().cloned().collect::<Vec<_>>();
        if keys(&a) != keys(&b) || a.verdict != b.verdict {
            expected.push(f.strip_prefix(root()).unwrap().display().to_string());
        }
    }
    assert!(!expected.is_empty());
    assert_eq!(named, expected);
}

#[test]
fn json_run_information_names_the_engine_and_the_variant() {
    let test = "litmus-tests/mp/MP-relacq-wg-crosswg.litmus";
    for (args, model) in [
        (vec![], "vulkan"),
        (vec!["--model", "vulkan-2024"], "vulkan-2024"),
        (vec!["--model", "hand:vulkan"], "hand:vulkan"),
        (vec!["--model", "hand:vulkan-2024"], "hand:vulkan-2024"),
    ] {
        let mut all = vec!["--json", test];
        all.extend(args.iter().copied());
        let (code, out, err) = run(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(json["model"], model, "{args:?}");
    }
}
