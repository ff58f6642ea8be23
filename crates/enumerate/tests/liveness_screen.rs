//! The liveness check's screen (crates/enumerate/src/liveness/screen.rs) against plain
//! enumeration: on the liveness corpus and on generated programs (the CADP-like suite of
//! common/cadp.rs: spin, exchange and compare-exchange loops, barriers, every placement),
//! at `--unroll` 1 to 4 and under every progress model,
//! - no combination the screen rejects has a candidate the search finds (the audit
//!   searches every combination of stuck endings and of cuts, whatever the model);
//! - the screened check gives what the plain one (every combination searched) gives:
//!   verdict, witness (paths and candidate), cut, combination count.
//!
//! The reference searches run without the value screen's option (`value_screen: false`),
//! which also turns off the search's order lookahead (search.rs): the audit's searches
//! and the plain check are then the search without it, so the lookahead the screened
//! check uses is compared too.

use crate::cadp;
use crate::files;
use std::sync::Arc;
use vkherd_cat::Model;
use vkherd_enumerate::liveness::{
    check_in, screen_audit, Liveness, Progress, ProgressModel, Strategy,
};
use vkherd_enumerate::{AnyEngine, Budget, CatEngine, EnumOptions, RunConfig};
use vkherd_model::Program;

fn load(name: &str, source: &str) -> Program {
    crate::load_litmus(source).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn options(program: &Program, unroll: u32) -> EnumOptions {
    let engine = match program.dialect.name {
        "opencl" => CatEngine::new(Arc::new(Model::bundled("opencl", &[]).unwrap())),
        _ => CatEngine::vulkan(&Default::default()),
    };
    EnumOptions {
        engine: AnyEngine::Cat(engine),
        run: RunConfig {
            unroll,
            ..RunConfig::default()
        },
        ..EnumOptions::default()
    }
}

/// [`options`] without the value screen's option: no order lookahead in the search.
fn reference(program: &Program, unroll: u32) -> EnumOptions {
    EnumOptions {
        value_screen: false,
        ..options(program, unroll)
    }
}

fn corpus() -> Vec<(String, Program)> {
    files::litmus_files(&files::corpus_root().join("liveness"))
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let program = load(&name, &std::fs::read_to_string(&p).unwrap());
            (name, program)
        })
        .collect()
}

/// `count` generated Vulkan programs of `shapes` and every `cas_stride`-th OpenCL one.
fn generated(shapes: &[(usize, usize)], count: usize, cas_stride: usize) -> Vec<(String, Program)> {
    (cadp::suite(shapes, count).into_iter())
        .chain(cadp::opencl_suite(cas_stride))
        .map(|(name, source)| {
            let program = load(&name, &source);
            (name, program)
        })
        .collect()
}

/// Every combination the screen rejects is one the search finds nothing in. Exponential
/// (each combination is searched), so at bounds and sizes where that stays small.
#[test]
fn the_screen_rejects_only_combinations_where_the_search_finds_nothing() {
    let mut cases: Vec<(String, Program, u32)> = Vec::new();
    for (name, p) in corpus() {
        for unroll in 1..=2 {
            cases.push((name.clone(), p.clone(), unroll));
        }
    }
    for (name, p) in generated(&[(1, 1), (1, 2)], 24, 100_000) {
        for unroll in 1..=3 {
            cases.push((name.clone(), p.clone(), unroll));
        }
    }
    for (name, source) in cadp::opencl_suite(1600) {
        let p = load(&name, &source);
        for unroll in 1..=2 {
            cases.push((name.clone(), p.clone(), unroll));
        }
    }
    for (name, p) in generated(&[(2, 2), (1, 3)], 8, 100_000) {
        cases.push((name, p, 2));
    }
    for (name, p) in generated(&[(1, 1)], 6, 100_000) {
        cases.push((name, p, 4));
    }
    let (mut combinations, mut rejected) = (0, 0);
    let mut unsound = Vec::new();
    for (name, program, unroll) in &cases {
        let t = std::time::Instant::now();
        let audit = screen_audit(program, &reference(program, *unroll))
            .unwrap_or_else(|e| panic!("{name} --unroll {unroll}: {e:?}"));
        if std::env::var_os("SCREEN_AUDIT_TIMES").is_some() {
            eprintln!(
                "{name} {unroll} {:.2}s {}",
                t.elapsed().as_secs_f64(),
                audit.combinations
            );
        }
        combinations += audit.combinations;
        rejected += audit.rejected;
        unsound.extend(
            audit
                .unsound
                .iter()
                .map(|u| format!("{name} --unroll {unroll}: {u}")),
        );
    }
    assert!(unsound.is_empty(), "{}", unsound.join("\n"));
    eprintln!(
        "{} cases: {rejected} of {combinations} combinations rejected",
        cases.len()
    );
    // The screen does reject: this test exercises it.
    assert!(rejected * 4 > combinations, "{rejected} of {combinations}");
}

/// The facts of a check that the screen must not change.
fn facts(l: &Liveness) -> impl PartialEq + std::fmt::Debug {
    (
        l.verdict,
        l.cut,
        l.combinations,
        l.stopped,
        l.witness.as_ref().map(|w| {
            (
                w.paths.clone(),
                w.step_events.clone(),
                w.execution.key.clone(),
            )
        }),
    )
}

/// Every uniform model, and two mixes over `program`'s levels (its dialect's keys: the
/// outermost is `qf` for Vulkan, `dev` for OpenCL).
fn progresses(program: &Program) -> Vec<Progress> {
    let mut out: Vec<Progress> = ProgressModel::ALL
        .into_iter()
        .map(Progress::uniform)
        .collect();
    let outer = vkherd_enumerate::liveness::Level::of(program.dialect)[0].key;
    out.push(Progress::parse("wg=obe,inv=hsa").unwrap());
    out.push(Progress::parse(&format!("{outer}=hsa,sg=lobe,default=unfair")).unwrap());
    out
}

fn compare(cases: &[(String, Program)], unrolls: std::ops::RangeInclusive<u32>) -> usize {
    let mut compared = 0;
    for (name, program) in cases {
        for unroll in unrolls.clone() {
            let (opts, plain_opts) = (options(program, unroll), reference(program, unroll));
            for p in progresses(program) {
                let run = |o: &EnumOptions, s| check_in(program, o, &p, &Budget::of(&o.run), s);
                let screened = run(&opts, Strategy::Screened).unwrap();
                let plain = run(&plain_opts, Strategy::Plain).unwrap();
                assert_eq!(
                    facts(&screened),
                    facts(&plain),
                    "{name} --unroll {unroll} --progress {p}"
                );
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn screened_checks_equal_plain_checks_on_the_corpus() {
    let compared = compare(&corpus(), 1..=3);
    assert!(compared >= 32 * 3 * 8, "{compared}");
}

#[test]
fn screened_checks_equal_plain_checks_on_generated_programs() {
    let compared = compare(&generated(&[(1, 1), (1, 2)], 40, 800), 1..=3)
        + compare(&generated(&[(2, 2), (1, 3)], 20, 100_000), 2..=2)
        + compare(&generated(&[(1, 1)], 12, 4000), 4..=4);
    assert!(compared > 1000, "{compared}");
}

/// Two invocations of one subgroup with exchange loops on one location (the shape of
/// Dat3M's CADP 23_simple, cadp-084035-inv of the generated suite): P0 exchanges 1 for
/// ever, P1 exchanges 0 until it reads 1 then 0. At `--unroll` 3 its combinations have
/// a dozen RMWs, each on a cycle of rf options and the solver's dependencies; the
/// screen used to pass them all, unable to rule out the solver's thin-air error
/// (screen.rs `guessed_reads`: the coherence core rules those cycles out).
fn exchange_loops() -> (String, Program) {
    use cadp::Op;
    let p0 = [Op::Exchange(1, 1, 1), Op::Goto(0)];
    let p1 = [Op::Exchange(0, 0, 0), Op::Exchange(1, 0, 0)];
    let name = "exchange-loops".to_string();
    let source = cadp::render(&name, [&p0, &p1], cadp::Placement::Inv);
    let program = load(&name, &source);
    (name, program)
}

#[test]
fn the_screen_is_exact_on_exchange_loops_with_many_rmws() {
    let (name, program) = exchange_loops();
    let audit = screen_audit(&program, &options(&program, 3)).unwrap();
    assert!(
        audit.unsound.is_empty(),
        "{name}: {}",
        audit.unsound.join("\n")
    );
    // The screen does work on them: most combinations are rejected.
    assert!(
        audit.rejected * 10 > audit.combinations * 9,
        "{} of {}",
        audit.rejected,
        audit.combinations
    );
    let compared = compare(&[(name, program)], 3..=3);
    assert_eq!(compared, 8);
}
