//! Properties of `--variant mmra` (docs/mmra.md) on generated tests:
//! - without tags, or with tag sets that are all pairwise compatible, its reports are
//!   byte-identical to the plain model's;
//! - tags only add states: every state the plain model allows stays allowed;
//! - its pruned search agrees with plain exhaustive enumeration (`--naive`).
//!
//! The seed of any failure is printed with the test.

use crate::common;

use common::Rng;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::RunConfig;
use vkherd::{report, Options};
use vkherd_model::ModelOptions;

/// Appends `!mmra(SET)` to most memory and synchronising instructions of `source` (a
/// generated test), SET drawn from `sets`.
fn tag(source: &str, seed: u64, sets: &[&str]) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_7a95);
    let mut out = String::new();
    for line in source.lines() {
        let is_row = line.ends_with(" ;") && !line.trim_start().starts_with('P');
        if !is_row {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let cells: Vec<String> = line
            .trim_end_matches(" ;")
            .split(" | ")
            .map(|cell| {
                let taggable = ["ld.", "st.", "rmw.", "membar.", "cbar"]
                    .iter()
                    .any(|h| cell.trim_start().starts_with(h));
                if !taggable || rng.chance(25) {
                    return cell.to_string();
                }
                format!("{cell} !mmra({})", rng.pick(sets))
            })
            .collect();
        out.push_str(&cells.join(" | "));
        out.push_str(" ;\n");
    }
    out
}

fn run(source: &str, mmra: bool, naive: bool) -> vkherd::Report {
    let program = vkherd::load_litmus(source)
        .unwrap_or_else(|d| panic!("does not load: {}\n{source}", d.render("gen", source)));
    let opts = Options {
        // The reference engine; `run_cat` is the cat engine.
        model: ModelChoice::given(ModelSpec::Hand(ModelOptions {
            mmra,
            ..ModelOptions::default()
        })),
        run: RunConfig {
            naive,
            unroll: 2,
            ..RunConfig::default()
        },
        ..Options::default()
    };
    vkherd::run(&program, &opts).expect("generated test runs")
}

/// The variant on the cat engine: vulkan.cat (`--model cat:vulkan --variant mmra`).
fn run_cat(source: &str) -> vkherd::Report {
    let program = vkherd::load_litmus(source).expect("loads");
    let choice = vkherd::models::resolve("cat:vulkan", &["mmra".to_string()], false).unwrap();
    assert!(
        matches!(choice.spec, ModelSpec::Cat { .. }),
        "cat:vulkan runs the cat engine"
    );
    let opts = Options {
        model: choice,
        run: RunConfig {
            unroll: 2,
            ..RunConfig::default()
        },
        ..Options::default()
    };
    vkherd::run(&program, &opts).expect("runs")
}

const SEEDS: std::ops::Range<u64> = 0..24;

#[test]
fn without_tags_mmra_reports_are_the_plain_reports() {
    for seed in SEEDS {
        let source = common::random_test(seed, seed % 3 == 0);
        let plain = report::herd_text(&run(&source, false, false));
        let mmra = report::herd_text(&run(&source, true, false));
        assert_eq!(mmra, plain, "seed {seed}\n{source}");
    }
}

/// Each prefix has one suffix in the sets, so two sets that both have prefix P share
/// `P:1`: every pair of sets is compatible, and the variant must change nothing.
#[test]
fn with_compatible_tags_mmra_reports_are_the_plain_reports() {
    for seed in SEEDS {
        let untagged = common::random_test(seed, seed % 3 == 0);
        let sets = ["p:1", "q:1", "p:1, q:1", "sync-as:1, q:1", ""];
        let source = tag(&untagged, seed, &sets);
        let plain = report::herd_text(&run(&untagged, false, false));
        let mmra = report::herd_text(&run(&source, true, false));
        assert_eq!(mmra, plain, "seed {seed}\n{source}");
    }
}

/// The tags drop pairs from hb and from avvisinc's program order only; locord, and so
/// the consistency axioms, only lose edges: a state allowed without them stays allowed.
/// Checked against --naive too, as the variant runs through the pruned search.
#[test]
fn tags_never_remove_a_state_and_the_search_agrees_with_naive() {
    for seed in SEEDS {
        let untagged = common::random_test(seed, seed % 3 == 0);
        let sets = ["p:1", "p:2", "p:1, q:1", "q:2", ""];
        let source = tag(&untagged, seed, &sets);
        let plain = run(&untagged, false, false);
        let mmra = run(&source, true, false);
        for state in plain.outcomes.states.keys() {
            assert!(
                mmra.outcomes.states.contains_key(state),
                "seed {seed}: the tags remove the state {state:?}\n{source}"
            );
        }
        if seed % 4 == 0 {
            let naive = run(&source, true, true);
            assert_eq!(
                report::herd_text(&mmra),
                report::herd_text(&naive),
                "seed {seed}: search and --naive differ\n{source}"
            );
        }
    }
    // The generated tests rarely synchronise, so the tags rarely add a state here; the
    // synchronising corpus tests below are where they do (33 of 96 taggings).
}

/// The message-passing, fence and barrier tests of the corpus, randomly tagged (three
/// taggings each): tags never remove a state, they do add some, the search agrees with
/// --naive, and the cat engine's vulkan.cat with the variant agrees with the hand-written
/// engine.
#[test]
fn tagged_synchronising_corpus_tests_only_gain_states() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests");
    let mut grew = 0;
    let mut runs = 0;
    for dir in ["mp", "fences", "cbar"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("corpus directory")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for f in files {
            let untagged = std::fs::read_to_string(&f).unwrap();
            let plain = run(&untagged, false, false);
            for seed in 0..3 {
                let source = tag(&untagged, seed, &["p:1", "p:2", "p:1, q:1", "q:2", ""]);
                let name = format!("{} seed {seed}", f.display());
                let mmra = run(&source, true, false);
                for state in plain.outcomes.states.keys() {
                    assert!(
                        mmra.outcomes.states.contains_key(state),
                        "{name}: the tags remove the state {state:?}\n{source}"
                    );
                }
                if mmra.outcomes.states.len() > plain.outcomes.states.len() {
                    grew += 1;
                }
                // The two engines (hand-written, vulkan.cat) agree on the variant.
                assert_eq!(
                    report::herd_text(&mmra),
                    report::herd_text(&run_cat(&source)),
                    "{name}: the cat engine differs\n{source}"
                );
                let naive = run(&source, true, true);
                assert_eq!(
                    report::herd_text(&mmra),
                    report::herd_text(&naive),
                    "{name}: search and --naive differ\n{source}"
                );
                runs += 1;
            }
        }
    }
    assert!(
        grew * 5 >= runs,
        "only {grew} of {runs} tagged tests gained a state"
    );
}

/// The MMRA corpus under both engines: the hand-written model and vulkan.cat, each with
/// the variant, give the same reports (corpus.rs checks them against the headers).
#[test]
fn both_engines_agree_on_the_mmra_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/mmra");
    let mut n = 0;
    for e in std::fs::read_dir(dir).expect("litmus-tests/mmra") {
        let f = e.expect("entry").path();
        let source = std::fs::read_to_string(&f).unwrap();
        assert_eq!(
            report::herd_text(&run(&source, true, false)),
            report::herd_text(&run_cat(&source)),
            "{}",
            f.display()
        );
        n += 1;
    }
    assert_eq!(n, 12);
}
