//! The pruned search against plain generate-and-test on random tests: identical reports
//! (verdict, states, marks, counts, race flag) and identical outcome sets, at one worker
//! thread and at several. The seed of any failure is printed.

use crate::common;

use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::RunConfig;
use vkherd::{report, Options};
use vkherd_model::ModelOptions;

/// Runs `program` in a rayon pool of `threads` workers.
fn run_in_pool(
    program: &vkherd::LoweredProgram,
    opts: &Options,
    threads: usize,
) -> Result<(String, vkherd_enumerate::Outcomes), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        vkherd::run(program, opts)
            .map(|r| (report::herd_text(&r), r.outcomes))
            .map_err(|d| d.message)
    })
}

/// Tests whose plain enumeration would examine more candidates than this are skipped
/// (the naive mode is exponential; one such seed takes minutes).
const NAIVE_BUDGET: u64 = 300_000;

fn check_seeds(seeds: std::ops::Range<u64>, jumps: bool) {
    check_generated(
        seeds,
        |seed| (common::random_test(seed, jumps), 2),
        97,
        NAIVE_BUDGET,
    );
}

/// Compares the search with the naive enumeration on the tests `generate` makes (source
/// and `--unroll`); at least `min_percent` of the seeds must be small enough to compare.
fn check_generated(
    seeds: std::ops::Range<u64>,
    generate: impl Fn(u64) -> (String, u32),
    min_percent: u64,
    naive_budget: u64,
) {
    let total = seeds.end - seeds.start;
    let mut checked = 0;
    for seed in seeds {
        let (source, unroll) = generate(seed);
        let program = match vkherd::load_litmus(&source) {
            Ok(p) => p,
            Err(d) => panic!(
                "seed {seed}: generated test does not load: {}\n{source}",
                d.render("gen", &source)
            ),
        };
        let naive = Options {
            run: RunConfig {
                naive: true,
                unroll,
                ..RunConfig::default()
            },
            ..Options::default()
        };
        let search = Options {
            run: RunConfig {
                unroll,
                ..RunConfig::default()
            },
            ..Options::default()
        };
        let enum_opts = vkherd_enumerate::EnumOptions {
            run: RunConfig {
                unroll,
                ..Default::default()
            },
            ..Default::default()
        };
        if vkherd_enumerate::naive_size(&program, &enum_opts, naive_budget).is_none() {
            continue;
        }
        let start = std::time::Instant::now();
        let reference = run_in_pool(&program, &naive, 1);
        if std::env::var_os("VKHERD_DIFF_TIMES").is_some() {
            eprintln!("seed {seed}: naive {:.3}s", start.elapsed().as_secs_f64());
        }
        for (opts, threads) in [(&search, 1), (&search, 4), (&naive, 4)] {
            let got = run_in_pool(&program, opts, threads);
            assert_eq!(
                got, reference,
                "seed {seed}: naive={} threads={threads} unroll={unroll} differs from naive at 1 thread\n{source}",
                opts.run.naive
            );
        }
        check_condition_modes(&program, &search, seed, &source);
        checked += 1;
    }
    // Most generated tests must be compared, not skipped.
    assert!(
        checked * 100 >= total * min_percent,
        "only {checked} of {total} seeds compared"
    );
}

/// `--speedcheck true|fast` and `--states-only` against the full run: the same verdict;
/// with `true`, exactly the states (marks included) and counts of the executions that
/// matter to the condition; with `--states-only`, exactly the same states and marks.
fn check_condition_modes(
    program: &vkherd::LoweredProgram,
    base: &Options,
    seed: u64,
    source: &str,
) {
    let in_pool = |opts: &Options| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| vkherd::run(program, opts)).ok()
    };
    let Some(full) = in_pool(base) else { return };
    let forall = program
        .condition
        .as_ref()
        .is_some_and(|c| c.quantifier == vkherd_model::Quantifier::Forall);
    let with = |speedcheck, states_only| Options {
        run: RunConfig {
            speedcheck,
            states_only,
            ..base.run.clone()
        },
        ..base.clone()
    };
    let fail = |what: &str| format!("seed {seed}: {what} differs from the full run\n{source}");
    for opts in [
        with(vkherd::Speedcheck::True, false),
        with(vkherd::Speedcheck::Fast, false),
        with(vkherd::Speedcheck::Off, true),
        with(vkherd::Speedcheck::True, true),
    ] {
        let got = in_pool(&opts).expect("runs");
        assert_eq!(got.verdict, full.verdict, "{}", fail("verdict"));
        let kept: std::collections::BTreeMap<_, _> = full
            .outcomes
            .states
            .iter()
            .filter(|(_, i)| {
                opts.run.speedcheck == vkherd::Speedcheck::Off || i.satisfies != forall
            })
            .map(|(k, i)| (k.clone(), (i.race_free, i.not_thin_air, i.satisfies)))
            .collect();
        let states: std::collections::BTreeMap<_, _> = got
            .outcomes
            .states
            .iter()
            .map(|(k, i)| (k.clone(), (i.race_free, i.not_thin_air, i.satisfies)))
            .collect();
        match (opts.run.speedcheck, opts.run.states_only) {
            (vkherd::Speedcheck::Fast, _) => {}
            (_, true) => assert_eq!(states, kept, "{}", fail("states-only states")),
            _ => {
                assert_eq!(states, kept, "{}", fail("speedcheck states"));
                let (p, n) = (full.outcomes.positive, full.outcomes.negative);
                let want = if forall { (0, n) } else { (p, 0) };
                let got_counts = (got.outcomes.positive, got.outcomes.negative);
                assert_eq!(got_counts, want, "{}", fail("speedcheck counts"));
            }
        }
    }
}

#[test]
fn search_matches_naive_on_straight_line_tests() {
    check_seeds(0..700, false);
}

#[test]
fn search_matches_naive_on_tests_with_jumps() {
    check_seeds(10_000..10_400, true);
}

#[test]
fn search_matches_naive_on_rmw_spin_loops() {
    // RMW tests grow fast (k! asmo orders): a smaller naive budget keeps this in seconds.
    check_generated(20_000..20_400, common::random_rmw_test, 50, 60_000);
}

#[test]
#[ignore = "prints a generated test: VKHERD_SEED=N cargo test -p vkherd --test integration differential::print_seed -- --ignored --nocapture"]
fn print_seed() {
    let seed: u64 = std::env::var("VKHERD_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    if seed >= 20_000 {
        let (text, unroll) = common::random_rmw_test(seed);
        println!("(* run with --unroll {unroll} *)\n{text}");
    } else {
        println!("{}", common::random_test(seed, seed >= 10_000));
    }
}

#[test]
#[ignore = "writes generated tests to $VKHERD_DUMP (for cross-checking with other tools)"]
fn dump_seeds() {
    let Some(dir) = std::env::var_os("VKHERD_DUMP") else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 0..400u64 {
        let path = std::path::Path::new(&dir).join(format!("random-{seed}.litmus"));
        std::fs::write(path, common::random_test(seed, false)).unwrap();
    }
}

/// The pruned search under the cat engine (cutting only with the checks the analysis
/// allows) against plain enumeration under the cat engine, and against the hand-written
/// model: identical reports on random tests.
#[test]
fn cat_engine_search_matches_naive_and_the_hand_written_model_on_random_tests() {
    let cat = ModelChoice::given(ModelSpec::Vulkan(ModelOptions::default()));
    let hand = ModelChoice::given(ModelSpec::Hand(ModelOptions::default()));
    let mut compared = 0;
    for seed in (200..350).chain(10_400..10_450) {
        let src = common::random_test(seed, seed >= 10_000);
        let program = vkherd::load_litmus(&src).unwrap();
        let run = |naive: bool, engine: bool| {
            let o = vkherd::Options {
                run: RunConfig {
                    naive,
                    max_candidates: Some(200_000),
                    ..RunConfig::default()
                },
                model: if engine { cat.clone() } else { hand.clone() },
                ..vkherd::Options::default()
            };
            vkherd::run(&program, &o)
                .map(|r| (r.stats.stopped.is_some(), vkherd::report::herd_text(&r)))
        };
        let search = run(false, true).unwrap();
        if search.0 {
            continue;
        }
        assert_eq!(Ok(search.clone()), run(true, true), "seed {seed}\n{src}");
        assert_eq!(Ok(search), run(false, false), "seed {seed}\n{src}");
        compared += 1;
    }
    assert!(compared >= 190, "{compared}");
}
