//! Liveness benchmark (`cargo bench --bench liveness -- [OPTIONS]`): the liveness check
//! alone (`vkherd_enumerate::liveness::check`, without the safety search) on the liveness
//! corpus and on a generated stand-in for Dat3M's CADP and Barrier suites
//! (crates/enumerate/tests/common/cadp.rs), per `--unroll` and progress model: time per
//! check (median, p99, max), verdicts, answers left unknown by the limit, and processor
//! time per model. `--plain` also runs the unscreened reference (every path combination
//! searched, as before issue 32) under the same limit.
//!
//! Options: `--unroll 1,2,3,4`, `--models fair,obe,...`, `--count N` (generated
//! programs, default 500), `--limit SECS` (per check, default 30), `--plain`,
//! `--only corpus`, `cadp` or `cas`, `--dump DIR` (write the generated programs as `.litmus`
//! files and stop). Times are processor time of the one worker thread (the checks run
//! on a one-thread pool), read from /proc/thread-self/schedstat.

#[path = "../crates/enumerate/tests/common/cadp.rs"]
mod cadp;

use std::time::Duration;
use vkherd::liveness::{Progress, ProgressModel};
use vkherd::{LoweredProgram, Options, RunConfig};
use vkherd_enumerate::liveness::{check_in, Strategy, Verdict};
use vkherd_enumerate::Budget;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Processor time of the calling thread, in seconds.
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

struct Args {
    unroll: Vec<u32>,
    models: Vec<ProgressModel>,
    count: usize,
    limit: f64,
    plain: bool,
    only: Option<String>,
    dump: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        unroll: vec![1, 2, 3, 4],
        models: ProgressModel::ALL.to_vec(),
        count: 500,
        limit: 30.0,
        plain: false,
        only: None,
        dump: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut value = || it.next().expect("a value after the option");
        match x.as_str() {
            "--unroll" => a.unroll = value().split(',').map(|u| u.parse().unwrap()).collect(),
            "--models" => {
                a.models = value()
                    .split(',')
                    .map(|m| ProgressModel::parse(m).expect("a progress model"))
                    .collect()
            }
            "--count" => a.count = value().parse().unwrap(),
            "--limit" => a.limit = value().parse().unwrap(),
            "--plain" => a.plain = true,
            "--only" => a.only = Some(value()),
            "--dump" => a.dump = Some(value()),
            // cargo bench passes --bench.
            _ => {}
        }
    }
    a
}

/// The suites: (suite, test name, source).
fn suites(a: &Args) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let want = |s: &str| a.only.as_deref().is_none_or(|o| o == s);
    if want("corpus") {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/liveness");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files
            .iter()
            .filter(|f| f.extension().is_some_and(|x| x == "litmus"))
        {
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            out.push(("corpus", name, std::fs::read_to_string(f).unwrap()));
        }
    }
    if want("cadp") {
        out.extend(
            cadp::suite(&cadp::SHAPES, a.count)
                .into_iter()
                .map(|(n, s)| ("cadp", n, s)),
        );
    }
    if want("cas") {
        out.extend(
            cadp::opencl_suite(100)
                .into_iter()
                .map(|(n, s)| ("cas", n, s)),
        );
    }
    out
}

/// One check: its verdict (`None`: refused, as a path limit), whether the limit left it
/// open, its processor time, and the combinations it searched and of those the screen
/// rejected.
fn run_check(
    p: &LoweredProgram,
    unroll: u32,
    m: ProgressModel,
    limit: f64,
    s: Strategy,
) -> (Option<Verdict>, bool, f64, (u64, u64)) {
    let opts = Options {
        run: RunConfig {
            unroll,
            timeout: Some(Duration::from_secs_f64(limit)),
            ..RunConfig::default()
        },
        liveness: Some(Progress::uniform(m)),
        ..Options::default()
    };
    let model = (opts.model.resolve(p.dialect)).expect("a model for the dialect");
    let eo = model.enum_options(&opts.run);
    let before = thread_cpu();
    let budget = Budget::of(&eo.run);
    let got = check_in(p, &eo, &Progress::uniform(m), &budget, s);
    let cpu = thread_cpu() - before;
    match got {
        Ok(l) => {
            let open = l.stopped.is_some() && l.verdict == Verdict::Unknown && l.cut.is_none();
            (Some(l.verdict), open, cpu, (l.combinations, l.screened))
        }
        Err(_) => (None, false, cpu, (0, 0)),
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i]
}

fn main() {
    let a = args();
    let tests = suites(&a);
    if let Some(dir) = &a.dump {
        std::fs::create_dir_all(dir).unwrap();
        for (_, name, source) in &tests {
            std::fs::write(format!("{dir}/{name}.litmus"), source).unwrap();
        }
        eprintln!("{} tests written to {dir}", tests.len());
        return;
    }
    let programs: Vec<(&str, String, LoweredProgram)> = tests
        .into_iter()
        .map(|(s, n, src)| {
            let p = vkherd::load_litmus(&src).unwrap_or_else(|e| panic!("{n}: {e:?}\n{src}"));
            (s, n, p)
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let strategies: Vec<(Strategy, &str)> = if a.plain {
        vec![(Strategy::Screened, "screened"), (Strategy::Plain, "plain")]
    } else {
        vec![(Strategy::Screened, "screened")]
    };
    println!("| suite | unroll | model | strategy | checks | refused | total cpu s | median s | p99 s | max s | >1 s | open (limit) | violation / ok / unknown | combinations screened out |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for suite in ["corpus", "cadp", "cas"] {
        let ps: Vec<_> = programs.iter().filter(|(s, _, _)| *s == suite).collect();
        if ps.is_empty() {
            continue;
        }
        for &u in &a.unroll {
            for &m in &a.models {
                for &(strategy, sname) in &strategies {
                    let mut times = Vec::new();
                    let (mut refused, mut open) = (0, 0);
                    let mut verdicts = [0usize; 3];
                    let mut slow = Vec::new();
                    let (mut combinations, mut screened) = (0u64, 0u64);
                    for (_, name, p) in &ps {
                        let (v, o, t, (c, sc)) =
                            pool.install(|| run_check(p, u, m, a.limit, strategy));
                        combinations += c;
                        screened += sc;
                        times.push(t);
                        match v {
                            None => refused += 1,
                            Some(v) => {
                                verdicts[v as usize] += 1;
                                open += usize::from(o);
                            }
                        }
                        if t > 1.0 {
                            slow.push((t, name.clone()));
                        }
                    }
                    let total: f64 = times.iter().sum();
                    times.sort_by(|x, y| x.partial_cmp(y).unwrap());
                    println!(
                        "| {suite} | {u} | {m} | {sname} | {} | {refused} | {total:.2} | {:.4} | {:.3} | {:.2} | {} | {open} | {} / {} / {} | {screened} of {combinations} |",
                        ps.len(),
                        quantile(&times, 0.5),
                        quantile(&times, 0.99),
                        times.last().copied().unwrap_or(0.0),
                        slow.len(),
                        verdicts[Verdict::Violation as usize],
                        verdicts[Verdict::Ok as usize],
                        verdicts[Verdict::Unknown as usize],
                    );
                    slow.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap());
                    for (t, n) in slow.iter().take(5) {
                        eprintln!("  slow: {suite} u{u} {m} {sname}: {n} {t:.2} s");
                    }
                }
            }
        }
    }
}
