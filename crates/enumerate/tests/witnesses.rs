//! The search's witnesses (a node's model check answered by a completion that passes it,
//! `Search::witness`) change only the time: with and without them, the same candidates
//! are examined, the same subtrees pruned, and the same outcomes found, on the corpus and
//! on random tests (plain and RMW spin loops). A witness that passed where the node's
//! own check fails would leave a subtree unpruned and change the counts.

use crate::common;
use crate::files;

use vkherd_enumerate::RunConfig;
use vkherd_enumerate::{collect_outcomes, AnyEngine, CatEngine, EnumOptions};
use vkherd_model::ModelOptions;

/// Runs `source` with and without witnesses (one worker thread, so that the witness
/// tally evolves the same way each time) and compares everything the search reports.
fn same_with_and_without(name: &str, source: &str, unroll: u32) -> bool {
    let Ok(program) = crate::load_litmus(source) else {
        return false;
    };
    if program.dialect.name != "vulkan" {
        return false;
    }
    let opts = EnumOptions {
        engine: AnyEngine::Cat(CatEngine::vulkan(&ModelOptions::default())),
        run: RunConfig {
            unroll,
            max_candidates: Some(200_000),
            ..RunConfig::default()
        },
        ..EnumOptions::default()
    };
    let without = EnumOptions {
        witnesses: false,
        ..opts.clone()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (with, plain) = pool.install(|| {
        (
            collect_outcomes(&program, &opts),
            collect_outcomes(&program, &without),
        )
    });
    match (with, plain) {
        (Ok((o1, s1)), Ok((o2, s2))) => {
            assert_eq!(s1, s2, "{name}: counts differ with witnesses\n{source}");
            assert_eq!(o1, o2, "{name}: outcomes differ with witnesses\n{source}");
            s1.stopped.is_none()
        }
        (Err(e1), Err(e2)) => {
            assert_eq!(e1, e2, "{name}");
            false
        }
        _ => panic!("{name}: one run failed, the other did not\n{source}"),
    }
}

#[test]
fn witnesses_change_no_count_on_the_corpus() {
    let files = files::corpus_files();
    let mut compared = 0;
    for f in &files {
        let source = std::fs::read_to_string(f).unwrap();
        if same_with_and_without(&f.display().to_string(), &source, 2) {
            compared += 1;
        }
    }
    // 241 files: the OpenCL ones (judged by opencl.cat) and a few that stop at the
    // candidate cap are not compared.
    assert!(compared >= 140, "only {compared} corpus tests compared");
}

#[test]
fn witnesses_change_no_count_on_random_tests() {
    let mut compared = 0;
    for seed in 0..150 {
        let source = common::random_test(seed, seed % 2 == 0);
        if same_with_and_without(&format!("seed {seed}"), &source, 2) {
            compared += 1;
        }
    }
    for seed in 30_000..30_150 {
        let (source, unroll) = common::random_rmw_test(seed);
        if same_with_and_without(&format!("rmw seed {seed}"), &source, unroll) {
            compared += 1;
        }
    }
    assert!(compared >= 250, "only {compared} random tests compared");
}
