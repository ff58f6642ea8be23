//! The corpus in litmus-tests/: every test's header states the expected verdict, race flag
//! and list of states, derived by hand from the Alloy model; vkherd must agree. The full
//! reports are also locked by insta snapshots (reviewed like code).

use crate::files;
use std::path::{Path, PathBuf};
use vkherd::{report, Options, Variant};
use vkherd_model::ModelOptions;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests")
}

fn corpus() -> Vec<(String, String)> {
    let root = corpus_dir();
    // The OpenCL corpora have their own headers and model: tests/opencl_corpus.rs and
    // tests/opencl_mmra.rs. The liveness corpus states liveness verdicts:
    // tests/liveness.rs. The PTX corpus (issue 31) states PTX verdicts.
    let opencl = |p: &Path| {
        p.strip_prefix(&root)
            .ok()
            .and_then(|r| r.components().next())
            .is_some_and(|c| {
                ["opencl", "opencl-mmra", "liveness", "ptx"]
                    .contains(&&*c.as_os_str().to_string_lossy())
            })
    };
    let files: Vec<PathBuf> = files::litmus_files(&root)
        .into_iter()
        .filter(|p| !opencl(p))
        .collect();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// What a test's header comment promises.
#[derive(Debug, PartialEq)]
struct Expectation {
    verdict: String,
    racy: bool,
    states: Vec<String>,
}

fn expectation(source: &str) -> Option<Expectation> {
    let start = source.find("Expected:")?;
    let header = &source[start..];
    let first = header.lines().next()?;
    let verdict = first["Expected:".len()..]
        .split_whitespace()
        .next()?
        .to_string();
    let racy = first.contains("data race: yes");
    let states_at = header.find("States:")? + "States:".len();
    let end = header[states_at..]
        .find("Why:")
        .map(|i| states_at + i)
        .unwrap_or(header.len());
    let states = header[states_at..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    Some(Expectation {
        verdict,
        racy,
        states,
    })
}

fn run(source: &str, variant: Variant) -> vkherd::Report {
    run_model(
        source,
        ModelOptions {
            variant,
            chains: true,
            mmra: false,
        },
    )
}

/// The MMRA variant (`--variant mmra`) of the default model.
fn run_mmra(source: &str) -> vkherd::Report {
    run_model(
        source,
        ModelOptions {
            mmra: true,
            ..ModelOptions::default()
        },
    )
}

/// The tests of litmus-tests/mmra/ state in their headers what `--variant mmra` gives.
fn is_mmra_test(name: &str) -> bool {
    name.starts_with("mmra/")
}

fn run_model(source: &str, model: ModelOptions) -> vkherd::Report {
    let program = vkherd::load_litmus(source).expect("corpus test parses");
    let opts = Options {
        model: vkherd::models::ModelChoice {
            spec: vkherd::models::ModelSpec::Vulkan(model),
            ..Default::default()
        },
        ..Options::default()
    };
    vkherd::run(&program, &opts).expect("corpus test runs")
}

#[test]
fn every_corpus_test_gives_the_expected_verdict_race_flag_and_states() {
    let tests = corpus();
    assert!(tests.len() >= 30, "corpus too small: {}", tests.len());
    let mut failures = Vec::new();
    for (name, source) in &tests {
        let Some(exp) = expectation(source) else {
            failures.push(format!("{name}: no `Expected:` header"));
            continue;
        };
        let rep = if is_mmra_test(name) {
            run_mmra(source)
        } else {
            run(source, Variant::Vulkan)
        };
        let got = Expectation {
            verdict: match rep.verdict {
                vkherd::Verdict::Ok => "Ok".into(),
                vkherd::Verdict::No => "No".into(),
            },
            racy: rep.outcomes.data_race(),
            states: rep
                .outcomes
                .states
                .iter()
                .map(|(v, i)| report::state_line(&rep, v, Some(i)))
                .collect(),
        };
        if got != exp {
            failures.push(format!("{name}:\n  expected {exp:?}\n  got      {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_reports_match_their_snapshots() {
    for (name, source) in corpus() {
        let key = name.trim_end_matches(".litmus").replace('/', "__");
        let rep = run(&source, Variant::Vulkan);
        let text = report::herd_text(&rep);
        insta::assert_snapshot!(key.clone(), text);
        // Where the 2024 model differs, its report is locked too.
        let old = report::herd_text(&run(&source, Variant::Vulkan2024));
        if old != text {
            insta::assert_snapshot!(format!("{key}@vulkan-2024"), old);
        }
        // And where --no-chains differs.
        let no_chains = ModelOptions {
            variant: Variant::Vulkan,
            chains: false,
            mmra: false,
        };
        let unchained = report::herd_text(&run_model(&source, no_chains));
        if unchained != text {
            insta::assert_snapshot!(format!("{key}@no-chains"), unchained);
        }
        // And where --variant mmra differs (only tests with tags can differ).
        let mmra = report::herd_text(&run_mmra(&source));
        if mmra != text {
            assert!(
                source.contains("!mmra("),
                "{name}: mmra differs without tags"
            );
            insta::assert_snapshot!(format!("{key}@mmra"), mmra);
        }
    }
}

/// A relaxation only adds outcomes: on every corpus test, the states of the MMRA variant
/// include the plain model's (the litmus-tests/mmra/ tests are the ones that add some).
#[test]
fn mmra_variant_keeps_every_state_of_the_plain_model() {
    let mut added = 0;
    for (name, source) in corpus() {
        let plain = run(&source, Variant::Vulkan);
        let mmra = run_mmra(&source);
        for state in plain.outcomes.states.keys() {
            assert!(
                mmra.outcomes.states.contains_key(state),
                "{name}: --variant mmra loses the state {state:?}"
            );
        }
        added += mmra.outcomes.states.len() - plain.outcomes.states.len();
    }
    // MP-acquire-side, MP-cbar, MP-fence-fence, MP-semav, Examples 1 and 4 and Example 4
    // with an untagged store between A and B each add one.
    assert_eq!(added, 7);
}
