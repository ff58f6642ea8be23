//! The safety search's value screen (`driver::values_may_agree`: barrier meetings whose
//! branch decisions no values take are not searched) changes only the time and the
//! effort counters: with and without it, the same states with the same counts, flags,
//! thin-air and deadlock counts, on the corpus and the generated CADP-like suite
//! (exchange, compare-exchange and load loops, barriers) at `--unroll` 1 and 2; and the screened search agrees with plain enumeration
//! (`--naive`) where that is small enough to run.

use crate::cadp;
use crate::files;
use std::sync::Arc;
use vkherd_cat::Model;
use vkherd_enumerate::{
    collect_outcomes, AnyEngine, CatEngine, EnumOptions, EnumStats, Outcomes, RunConfig,
};
use vkherd_model::Program;

fn options(program: &Program, unroll: u32, max_candidates: u64) -> Option<EnumOptions> {
    let engine = match program.dialect.name {
        "vulkan" => CatEngine::vulkan(&Default::default()),
        "opencl" => CatEngine::new(Arc::new(Model::bundled("opencl", &[]).ok()?)),
        _ => return None,
    };
    Some(EnumOptions {
        engine: AnyEngine::Cat(engine),
        run: RunConfig {
            unroll,
            max_candidates: Some(max_candidates),
            ..RunConfig::default()
        },
        ..EnumOptions::default()
    })
}

/// What the screen must not change: everything but the effort counters.
fn facts(stats: &EnumStats) -> impl PartialEq + std::fmt::Debug {
    (
        stats.thin_air,
        stats.deadlocked_paths,
        stats.dropped_paths,
        stats.stopped,
        stats.thread_without_paths,
        stats.cut_by_state,
    )
}

type Run = Result<(Outcomes, EnumStats), vkherd_enumerate::EnumError>;

/// Runs `opts` and each of `others` on one worker thread (the witness tally then evolves
/// the same way each time).
fn runs(program: &Program, opts: &[EnumOptions]) -> Vec<Run> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| opts.iter().map(|o| collect_outcomes(program, o)).collect())
}

/// Totals over the compared runs: candidates examined with and without the screen, and
/// the runs whose effort counters differ (the screen skipped some meeting).
#[derive(Default)]
struct Tally {
    compared: usize,
    screened: u64,
    unscreened: u64,
    changed: usize,
}

impl Tally {
    /// What the runs since `started` compared, on stderr (`--nocapture` shows it).
    fn report(&self, started: std::time::Instant) {
        eprintln!(
            "{:.1} s, {} runs ({} with a meeting skipped): {} candidates examined with the \
             screen, {} without",
            started.elapsed().as_secs_f64(),
            self.compared,
            self.changed,
            self.screened,
            self.unscreened
        );
    }
}

/// Compares the screened search with the unscreened one (and with plain enumeration
/// when `naive`); runs stopped by the candidate cap are not compared.
fn compare(name: &str, program: &Program, unroll: u32, naive: bool, tally: &mut Tally) {
    let Some(opts) = options(program, unroll, 50_000) else {
        return;
    };
    let mut all = vec![
        opts.clone(),
        EnumOptions {
            value_screen: false,
            ..opts.clone()
        },
    ];
    if naive {
        let mut plain = opts.clone();
        plain.run.naive = true;
        plain.run.max_candidates = Some(2_000);
        all.push(plain);
    }
    let results = runs(program, &all);
    let (screened, rest) = results.split_first().unwrap();
    let (o1, s1) = match screened {
        Ok(r) => r,
        Err(e1) => {
            // The same error without the screen (it never hides one).
            for r in rest {
                assert_eq!(r.as_ref().err(), Some(e1), "{name} --unroll {unroll}");
            }
            return;
        }
    };
    if s1.stopped.is_some() {
        return;
    }
    for (k, r) in rest.iter().enumerate() {
        let (o2, s2) = r
            .as_ref()
            .unwrap_or_else(|e| panic!("{name} --unroll {unroll}: only run {k} failed: {e:?}"));
        if s2.stopped.is_some() {
            continue;
        }
        assert_eq!(
            o1, o2,
            "{name} --unroll {unroll}: outcomes differ (run {k})"
        );
        if k == 0 {
            assert_eq!(
                facts(s1),
                facts(s2),
                "{name} --unroll {unroll}: counts differ"
            );
            assert!(
                s1.candidates <= s2.candidates,
                "{name}: the screen examined more"
            );
            tally.compared += 1;
            tally.screened += s1.candidates;
            tally.unscreened += s2.candidates;
            tally.changed += usize::from((s1.candidates, s1.pruned) != (s2.candidates, s2.pruned));
        }
    }
}

#[test]
fn value_screen_changes_no_outcome_on_the_corpus() {
    let mut tally = Tally::default();
    for f in files::corpus_files() {
        let source = std::fs::read_to_string(&f).unwrap();
        let Ok(program) = crate::load_litmus(&source) else {
            continue;
        };
        let name = f.display().to_string();
        compare(&name, &program, 2, false, &mut tally);
    }
    assert!(tally.compared >= 150, "only {} compared", tally.compared);
}

#[test]
fn value_screen_changes_no_outcome_on_generated_loops() {
    let mut tally = Tally::default();
    let started = std::time::Instant::now();
    for (name, source) in cadp::suite(&[(2, 2), (1, 3)], 6)
        .into_iter()
        .chain(cadp::opencl_suite(200))
    {
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        compare(&name, &program, 1, true, &mut tally);
        compare(&name, &program, 2, false, &mut tally);
    }
    tally.report(started);
    assert!(tally.compared >= 20, "only {} compared", tally.compared);
    // The screen does skip meetings here: the test exercises it.
    assert!(
        tally.changed * 10 > tally.compared,
        "{} of {}",
        tally.changed,
        tally.compared
    );
}

/// The lock loops of the liveness corpus at `--unroll 3`, where the screen's coherence
/// test (screen/interleave.rs: an order of each location's accesses in which every read
/// returns the last write) skips most combinations: with and without the screen, the
/// same outcomes.
#[test]
fn value_screen_changes_no_outcome_on_lock_loops_at_unroll_3() {
    let mut tally = Tally::default();
    for name in ["tas-lock", "ttas-lock", "ticket-lock"] {
        let path = files::corpus_root()
            .join("liveness")
            .join(format!("{name}.litmus"));
        let source = std::fs::read_to_string(&path).unwrap();
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        compare(name, &program, 3, false, &mut tally);
    }
    assert_eq!(tally.compared, 3);
    // ttas-lock's skipped meetings change its effort counters: the test exercises it.
    assert!(
        tally.changed >= 1,
        "{} of 3 skipped a meeting",
        tally.changed
    );
}

/// The generated exchange loops of two instructions per thread (the shape of the
/// slowest programs of the `--unroll 4` stand-in suite, benches/liveness.rs) at
/// `--unroll 3`, where the screen's RMW matching (one source per RMW, by value masks)
/// and its coherence test reject most combinations: with and without the screen, the
/// same outcomes; and at `--unroll 2` also those of plain enumeration.
#[test]
fn value_screen_changes_no_outcome_on_exchange_loops_at_unroll_3() {
    let mut tally = Tally::default();
    let started = std::time::Instant::now();
    for (name, source) in cadp::suite(&[(2, 2)], 60) {
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        compare(&name, &program, 2, true, &mut tally);
        compare(&name, &program, 3, false, &mut tally);
    }
    tally.report(started);
    assert!(tally.compared >= 90, "only {} compared", tally.compared);
    // Most runs skip meetings here: the test exercises the screen.
    assert!(
        tally.changed * 2 > tally.compared,
        "{} of {}",
        tally.changed,
        tally.compared
    );
}
