//! `vkherd distinguish` benchmarks (`cargo bench --bench distinguish`): programs examined
//! per second, and the time to the first distinguishing program, for each known pair of
//! models. The spaces are the default bounds with a narrowed alphabet, so that one
//! iteration takes about a second; docs/benchmarks.md has the default spaces' figures.
//!
//! `VKHERD_BENCH_QUICK=1` runs the searches only, not the time to the first program.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use vkherd::models::Compared;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::search::{self, Limits};
use vkherd_generate::space::{Bounds, EventKind, Space};
use vkherd_generate::test::Test;
use vkherd_generate::{dialects, family, GenDialect};

fn vulkan_gen() -> &'static dyn GenDialect {
    dialects::by_name("vulkan").unwrap()
}

fn opencl_gen() -> &'static dyn GenDialect {
    dialects::by_name("opencl").unwrap()
}

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

fn alphabet(
    d: &'static dyn GenDialect,
    sems: &[&str],
    scopes: &[&str],
    levels: &[&str],
) -> Alphabet {
    Alphabet::family_default(d)
        .with(&words(sems), &words(scopes), &words(levels))
        .expect("a valid alphabet")
}

/// What a pair is compared on: a bounded space, or the variants of a cycle.
enum Over {
    Space(Space),
    Cycle(Vec<Test>),
}

fn pairs() -> Vec<(&'static str, &'static str, Over)> {
    let two_by_two = Bounds {
        threads: 2,
        events: 2,
        size: 4,
        locations: 2,
    };
    let rw = [EventKind::Read, EventKind::Write];
    let vulkan = || {
        let a = alphabet(
            vulkan_gen(),
            &["rlx", "relacq", "semavvis"],
            &["wg", "dv"],
            &["qf"],
        );
        Space::new(two_by_two, a, &rw)
    };
    let opencl = || {
        let a = alphabet(
            opencl_gen(),
            &["rlx", "relacq", "sc"],
            &["wg", "dev"],
            &["dev"],
        );
        Space::new(two_by_two, a, &rw)
    };
    let chain = family::family(
        "[av.wg] PodWW PosWW Rfe PodRR [vis.qf] Fre",
        vulkan_gen(),
        &[family::Axis::Scope, family::Axis::Semantics],
        &alphabet(
            vulkan_gen(),
            &["avvis", "relacq", "semavvis"],
            &["wg", "qf"],
            &["qf"],
        ),
        10_000,
    )
    .expect("the chain family")
    .tests;
    // IRIW with relaxed accesses and its two fences' orders varied: only the variant
    // with both fences seq_cst tells C11's S from RC11's psc (tests/distinguish.rs).
    let iriw_fences = family::family(
        "[rlx] Rfe [rlx] FencedRR [rlx] Fre [rlx] Rfe [rlx] FencedRR [rlx] Fre",
        opencl_gen(),
        &[family::Axis::Semantics],
        &alphabet(opencl_gen(), &["rlx", "relacq", "sc"], &["dev"], &["dev"]),
        10_000,
    )
    .expect("the IRIW fence family")
    .tests;
    vec![
        ("vulkan", "vulkan-2024", Over::Space(vulkan())),
        ("vulkan", "vulkan", Over::Space(vulkan())),
        ("vulkan", "vulkan+no-chains", Over::Cycle(chain)),
        ("opencl", "opencl", Over::Space(opencl())),
        ("opencl", "opencl+rc11-sc", Over::Cycle(iriw_fences)),
    ]
}

fn run(over: &Over, a: &Compared, b: &Compared, limits: &Limits) -> search::Outcome {
    match over {
        Over::Space(s) => search::search(s, a, b, limits, |_| {}),
        Over::Cycle(t) => search::compare_all(t, a, b, limits, |_| {}),
    }
}

fn distinguish(c: &mut Criterion) {
    let quick = std::env::var_os("VKHERD_BENCH_QUICK").is_some();
    for (a, b, over) in pairs() {
        let (ma, mb) = (
            Compared::from_spec(a).unwrap(),
            Compared::from_spec(b).unwrap(),
        );
        let whole = Limits::default();
        let examined = run(&over, &ma, &mb, &whole).examined();
        let mut g = c.benchmark_group(format!("distinguish/{a}~{b}"));
        g.sample_size(10).measurement_time(Duration::from_secs(5));
        g.throughput(Throughput::Elements(examined));
        g.bench_function("search", |bench| {
            bench.iter(|| run(&over, &ma, &mb, &whole))
        });
        if !quick && a != b {
            let first = Limits {
                first_only: true,
                ..Limits::default()
            };
            g.throughput(Throughput::Elements(1));
            g.bench_function("first", |bench| bench.iter(|| run(&over, &ma, &mb, &first)));
        }
        g.finish();
    }
}

criterion_group!(benches, distinguish);
criterion_main!(benches);
