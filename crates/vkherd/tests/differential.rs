//! The pruned search against plain generate-and-test on random tests: identical reports
//! (verdict, states, marks, counts, race flag) and identical outcome sets, at one worker
//! thread and at several. The seed of any failure is printed.

mod common;

use vkherd::{report, Options};

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
    let total = seeds.end - seeds.start;
    let mut checked = 0;
    for seed in seeds {
        let source = common::random_test(seed, jumps);
        let program = match vkherd::load_litmus(&source) {
            Ok(p) => p,
            Err(d) => panic!(
                "seed {seed}: generated test does not load: {}\n{source}",
                d.render("gen", &source)
            ),
        };
        let naive = Options {
            naive: true,
            ..Options::default()
        };
        let search = Options::default();
        let size =
            vkherd::run(&program, &search).map(|r| u128::from(r.stats.candidates) + r.stats.pruned);
        if size.is_ok_and(|n| n > u128::from(NAIVE_BUDGET)) {
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
                "seed {seed}: naive={} threads={threads} differs from naive at 1 thread\n{source}",
                opts.naive
            );
        }
        checked += 1;
    }
    // Nearly every generated test must be compared, not skipped.
    assert!(
        checked * 100 >= total * 97,
        "only {checked} of {total} seeds compared"
    );
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
#[ignore = "prints a generated test: VKHERD_SEED=N cargo test --test differential print_seed -- --ignored --nocapture"]
fn print_seed() {
    let seed: u64 = std::env::var("VKHERD_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    println!("{}", common::random_test(seed, seed >= 10_000));
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
