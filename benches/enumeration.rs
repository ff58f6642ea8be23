//! Enumeration benchmarks (`cargo bench`): the litmus-tests corpus, the scalable families
//! of `vkherd::families` with their growth in size, thread scaling, the pruned search
//! against the plain enumeration, and RMW loops per model (benches/rmw-loops/).
//! Throughput is in candidates examined per second.
//!
//! `VKHERD_BENCH_QUICK=1` uses the small sizes only.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::Path;
use std::time::Duration;
use vkherd::RunConfig;
use vkherd::{families, LoweredProgram, Options};

/// The same allocator as the `vkherd` binary, so the numbers are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn load(text: &str) -> LoweredProgram {
    vkherd::load_litmus(text).expect("benchmark test loads")
}

fn candidates(p: &LoweredProgram, opts: &Options) -> u64 {
    vkherd::run(p, opts).expect("runs").stats.candidates
}

fn corpus_programs() -> Vec<LoweredProgram> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            // The Vulkan corpus (the hand-written engine); `vkherd bench litmus-tests/opencl`
            // measures the OpenCL one (cat engine). litmus-tests/opencl-mmra is OpenCL too.
            // litmus-tests/ptx/ is PTX (issue 31).
            if p.is_dir()
                && p.file_name().is_some_and(|n| {
                    let n = n.to_string_lossy();
                    n.starts_with("opencl") || n == "ptx"
                })
            {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests"),
        &mut files,
    );
    files.sort();
    files
        .iter()
        .map(|f| load(&std::fs::read_to_string(f).unwrap()))
        .collect()
}

/// The whole corpus, one iteration = every test once.
fn corpus(c: &mut Criterion) {
    let programs = corpus_programs();
    let opts = Options::default();
    let total: u64 = programs.iter().map(|p| candidates(p, &opts)).sum();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Elements(total));
    g.bench_function("all", |b| {
        b.iter(|| {
            for p in &programs {
                vkherd::run(p, &opts).unwrap();
            }
        })
    });
    g.finish();
}

/// The sizes benchmarked per family.
fn sizes(family: &str) -> Vec<usize> {
    let quick = std::env::var_os("VKHERD_BENCH_QUICK").is_some();
    let all: &[usize] = match family {
        "iriw" => &[1, 2, 3, 4, 5, 6],
        "sb-ring" => &[2, 4, 6, 8, 10],
        "mp-chain" => &[1, 2, 4, 6, 8],
        "writes-readers" => &[1, 2, 3, 4, 5],
        "xf-barrier" => &[1, 2, 3, 4],
        "spinlock" => &[1, 2, 3],
        "ticket" => &[1, 2, 3],
        "rmw-chain" => &[2, 3, 4, 5, 6],
        _ => &[1],
    };
    if quick {
        all.iter().copied().take(3).collect()
    } else {
        all.to_vec()
    }
}

/// Each family over its sizes: time and candidates/s per size (the growth curve).
fn growth(c: &mut Criterion) {
    let opts = Options::default();
    for family in families::FAMILIES {
        let mut g = c.benchmark_group(format!("family/{family}"));
        g.sample_size(10).measurement_time(Duration::from_secs(3));
        for n in sizes(family) {
            let p = load(&families::generate(family, n).unwrap());
            g.throughput(Throughput::Elements(candidates(&p, &opts)));
            g.bench_with_input(BenchmarkId::from_parameter(n), &p, |b, p| {
                b.iter(|| vkherd::run(p, &opts).unwrap())
            });
        }
        g.finish();
    }
}

/// One worker thread against two, on the largest size of each family.
fn threads(c: &mut Criterion) {
    let opts = Options::default();
    let mut g = c.benchmark_group("threads");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for family in families::FAMILIES {
        let n = *sizes(family).last().unwrap();
        let p = load(&families::generate(family, n).unwrap());
        for workers in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .build()
                .unwrap();
            g.bench_function(format!("{family}-{n}/{workers}"), |b| {
                b.iter(|| pool.install(|| vkherd::run(&p, &opts).unwrap()))
            });
        }
    }
    g.finish();
}

/// The pruned search against the plain enumeration (`--naive`) where the latter finishes.
fn pruning(c: &mut Criterion) {
    let mut g = c.benchmark_group("pruning");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (family, n) in [
        ("writes-readers", 3),
        ("iriw", 4),
        ("mp-chain", 4),
        ("xf-barrier", 2),
    ] {
        let p = load(&families::generate(family, n).unwrap());
        for naive in [false, true] {
            let opts = Options {
                run: RunConfig {
                    naive,
                    ..RunConfig::default()
                },
                ..Options::default()
            };
            let mode = if naive { "naive" } else { "search" };
            g.bench_function(format!("{family}-{n}/{mode}"), |b| {
                b.iter(|| vkherd::run(&p, &opts).unwrap())
            });
        }
    }
    g.finish();
}

/// The two-invocation spin lock at growing `--unroll` (more spin iterations per path).
fn spin_unroll(c: &mut Criterion) {
    let mut g = c.benchmark_group("spinlock-2-unroll");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let p = load(&families::spinlock(2));
    for unroll in [1, 2, 3, 4] {
        let opts = Options {
            run: RunConfig {
                unroll,
                ..RunConfig::default()
            },
            ..Options::default()
        };
        g.throughput(Throughput::Elements(candidates(&p, &opts)));
        g.bench_with_input(BenchmarkId::from_parameter(unroll), &p, |b, p| {
            b.iter(|| vkherd::run(p, &opts).unwrap())
        });
    }
    g.finish();
}

/// RMW loops per model (issue 32: every model gets the search's shortcuts): the files of
/// benches/rmw-loops/ (a Vulkan, an OpenCL and a PTX spin lock of three invocations, and
/// TSan: three OpenCL work-items in compare-exchange lock loops) under their dialect's
/// bundled model (the PTX lock also under ptx-v6.0) and under a user model
/// (rc11-coherence.cat; on the PTX lock its form for PTX, rc11-coherence-ptx.cat, since
/// PTX tests have no `A`), at the default `--unroll`.
fn rmw_loops(c: &mut Criterion) {
    let mut g = c.benchmark_group("rmw-loops");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/rmw-loops");
    let user = |test: &str| match test.contains("ptx") {
        true => dir.join("rc11-coherence-ptx.cat"),
        false => dir.join("rc11-coherence.cat"),
    };
    let every = [
        "spinlock-vulkan-3",
        "spinlock-opencl-3",
        "spinlock-ptx-3",
        "TSan",
    ];
    for (model, tests) in [
        ("default", &every[..]),
        ("ptx-v6.0", &["spinlock-ptx-3"][..]),
        ("rc11-coherence", &every[..]),
    ] {
        for &test in tests {
            let choice = match model {
                "default" => vkherd::models::ModelChoice::default(),
                "rc11-coherence" => {
                    let file = user(test);
                    vkherd::models::resolve(file.to_str().expect("utf-8 path"), &[], false)
                        .expect("the user model compiles")
                }
                name => vkherd::models::resolve(name, &[], false).expect("a bundled model"),
            };
            let opts = Options {
                model: choice,
                ..Options::default()
            };
            let text = std::fs::read_to_string(dir.join(format!("{test}.litmus"))).unwrap();
            let p = load(&text);
            g.throughput(Throughput::Elements(candidates(&p, &opts)));
            g.bench_with_input(BenchmarkId::new(model, test), &p, |b, p| {
                b.iter(|| vkherd::run(p, &opts).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(
    benches,
    corpus,
    growth,
    threads,
    pruning,
    spin_unroll,
    rmw_loops
);
criterion_main!(benches);
