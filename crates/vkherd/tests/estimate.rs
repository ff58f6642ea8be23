//! The estimate before a run (`--stats`, the progress bar, the far-past-the-limits
//! warning) is an upper bound on what the search covers: candidates examined plus
//! candidates pruned, for the pruned search and for plain enumeration.

use crate::files;
use vkherd::Options;
use vkherd::RunConfig;

fn check(name: &str, source: &str, naive_too: bool) {
    let program = vkherd::load_litmus(source).unwrap();
    let opts = Options::default();
    let estimate = vkherd::estimate(&program, &opts).unwrap();
    for naive in [false, true] {
        if naive && (!naive_too || estimate.exceeds(20_000.0)) {
            continue;
        }
        let rep = vkherd::run(
            &program,
            &Options {
                run: RunConfig {
                    naive,
                    ..opts.run.clone()
                },
                ..opts.clone()
            },
        )
        .unwrap();
        let covered = (u128::from(rep.stats.candidates) + rep.stats.pruned) as f64;
        assert!(
            estimate.value() * (1.0 + 1e-9) >= covered,
            "{name} naive={naive}: estimate {estimate} < {covered} covered"
        );
    }
}

#[test]
fn the_estimate_bounds_every_corpus_search() {
    let files = files::corpus_files();
    assert!(files.len() > 50);
    for f in files {
        let source = std::fs::read_to_string(&f).unwrap();
        // No model runs the OpenCL tests yet (docs/opencl.md).
        if vkherd_dialects::opencl::is_opencl(&source) {
            continue;
        }
        check(&f.display().to_string(), &source, true);
    }
}

#[test]
fn the_estimate_bounds_the_families() {
    for family in vkherd::families::FAMILIES {
        for n in 1..=2 {
            let text = vkherd::families::generate(family, n).unwrap();
            check(&format!("{family} {n}"), &text, true);
        }
    }
}

#[test]
fn a_search_far_past_the_limits_is_announced() {
    let text = vkherd::families::generate("writes-readers", 6).unwrap();
    let program = vkherd::load_litmus(&text).unwrap();
    let opts = Options {
        run: RunConfig {
            max_candidates: Some(1000),
            ..RunConfig::default()
        },
        ..Options::default()
    };
    let e = vkherd::estimate(&program, &opts).unwrap();
    let warning = vkherd::far_past_limits(&e, &opts).expect("a warning");
    assert!(warning.contains("--max-candidates 1000"), "{warning}");
    assert!(warning.contains("--speedcheck"), "{warning}");
    assert!(warning.contains("the search has up to "), "{warning}");
    // A shard's share is a guess (which units a shard owns depends on their hashes), not
    // a bound: the warning must not call it one.
    let shard = Options {
        run: RunConfig {
            shard: Some(vkherd_enumerate::Shard { index: 0, count: 4 }),
            ..opts.run.clone()
        },
        ..opts.clone()
    };
    let warning = vkherd::far_past_limits(&e, &shard).expect("a warning");
    assert!(
        warning.contains("this shard's share is about "),
        "{warning}"
    );
    assert!(!warning.contains("up to"), "{warning}");
    // Within the limits: no warning.
    let small = vkherd::load_litmus(&vkherd::families::generate("iriw", 2).unwrap()).unwrap();
    let e = vkherd::estimate(&small, &opts).unwrap();
    assert_eq!(vkherd::far_past_limits(&e, &opts), None);
}

#[test]
fn stats_print_the_estimate_before_the_run_and_the_counts_after() {
    // MP: one reader of two locations, each written once: 2 x 2 rf choices, one asmo.
    let mp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../litmus-tests/mp/MP-relacq-wg.litmus"
    );
    let out = crate::util::bin().args(["--stats", mp]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("Estimate ")
            && lines[0].ends_with(": at most 4 candidates over 1 path combination"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("Stats ") && lines[1].contains(": 4 candidates examined, "),
        "{stderr}"
    );
}
