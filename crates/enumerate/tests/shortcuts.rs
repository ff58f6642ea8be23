//! The search's shortcuts that rely on the model (the coherence filter, an RMW placed
//! after its source and a read's source before or after its thread's writes, final values read off asmo: `Shortcuts`), derived from each model's
//! checks (`vkherd_cat::shortcuts`), against plain generate-and-test (`--naive`) and
//! against the same search with no shortcut: identical outcomes (states, marks, counts of
//! consistent executions, race flags) on generated OpenCL lock loops (compare-exchange and
//! exchange loops) under opencl.cat and under user models, on the OpenCL corpus, and on
//! Vulkan RMW spin loops under a user model. A user model whose checks do not entail the
//! core is refused it, and claiming the core for it anyway loses outcomes: the derivation
//! is what keeps the search exact.

use crate::common;
use crate::files;

use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_cat::{Model, Source};
use vkherd_enumerate::{
    collect_outcomes, naive_size, AnyEngine, CatEngine, CoreTerms, EnumOptions, Outcomes,
    RunConfig, Shortcuts,
};
use vkherd_model::Program;

fn opencl() -> CatEngine {
    CatEngine::new(Arc::new(Model::bundled("opencl", &[]).unwrap()))
}

fn user(text: &str) -> CatEngine {
    let model = Model::compile(
        Source {
            name: "user.cat".into(),
            text: Arc::from(text),
        },
        &BTreeSet::new(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    CatEngine::new(Arc::new(model))
}

/// herd7's SC-per-location and causality, in vkherd's base names: the first form of the
/// core (`acyclic po-loc | rf | co | fr`).
const SC_PER_LOCATION: &str = r#"include "stdlib.cat"
let co = asmo
let fr = ((rf^-1 ; co) | ([RFINIT] ; loc ; [W])) \ id
acyclic po-loc | rf | co | fr as sc-per-location
irreflexive rf ; co as rmw-reads-before
empty (rf ; [R & W]) & (co ; co) as rmw-atomicity
let hb = (po | (rf & ext))+
irreflexive hb ; (co | fr) as causality"#;

/// RC11's coherence (`irreflexive hb ; eco`) with the RMW axioms: the second form. The
/// benchmarks' user model, read from its file (benches/rmw-loops).
const RC11_COHERENCE: &str = include_str!("../../../benches/rmw-loops/rc11-coherence.cat");

/// [`RC11_COHERENCE`] for PTX tests, which have no `A` (docs/ptx.md, "Base names"; a
/// model reading it is refused there): strong operations, the accesses with a scope, in
/// its place, the same checks otherwise.
const RC11_COHERENCE_PTX: &str = include_str!("../../../benches/rmw-loops/rc11-coherence-ptx.cat");

/// Causality alone: no coherence axiom, so no core. Claiming one would be wrong.
const NO_COHERENCE: &str = r#"let co = asmo
acyclic po | rf as causality"#;

fn options(engine: CatEngine, unroll: u32, naive: bool) -> EnumOptions {
    EnumOptions {
        engine: AnyEngine::Cat(engine),
        run: RunConfig {
            unroll,
            naive,
            ..RunConfig::default()
        },
        ..EnumOptions::default()
    }
}

fn outcomes(program: &Program, opts: &EnumOptions) -> Outcomes {
    collect_outcomes(program, opts)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .0
}

/// Do the search with the model's shortcuts, the search without any, and (when small
/// enough) the naive enumeration give the same outcomes? Returns whether naive ran.
fn compare(name: &str, source: &str, engine: &CatEngine, unroll: u32, budget: u64) -> bool {
    let program = crate::load_litmus(source)
        .unwrap_or_else(|d| panic!("{name}: {}\n{source}", d.render(name, source)));
    // Only tests whose plain enumeration fits the budget: the search without shortcuts
    // (a user model's on an RMW loop may examine millions of candidates) is bounded by
    // it, and so is the naive run; a larger test is skipped, counted by the caller.
    let naive = options(engine.clone(), unroll, true);
    if naive_size(&program, &naive, budget).is_none() {
        return false;
    }
    let search = outcomes(&program, &options(engine.clone(), unroll, false));
    let plain = engine.clone().claiming(Shortcuts::default());
    let without = outcomes(&program, &options(plain, unroll, false));
    assert_eq!(
        search, without,
        "{name}: the shortcuts change the outcomes\n{source}"
    );
    assert_eq!(
        search,
        outcomes(&program, &naive),
        "{name}: search differs from naive\n{source}"
    );
    true
}

/// [`compare`] on every test of the corpus folder `folder` under `engine`, at
/// `--unroll 2`: how many tests there are, and how many were also compared with
/// `--naive`.
fn compare_folder(folder: &str, engine: &CatEngine) -> (usize, usize) {
    let tests = files::litmus_files(&files::corpus_root().join(folder));
    let naive = (tests.iter())
        .filter(|f| {
            let source = std::fs::read_to_string(f).unwrap();
            compare(&f.display().to_string(), &source, engine, 2, 200_000)
        })
        .count();
    (tests.len(), naive)
}

#[test]
fn opencl_lock_loops_match_naive() {
    let engine = opencl();
    let mut naive = 0;
    for seed in 0..60 {
        let (source, unroll) = common::random_opencl_lock_test(seed);
        naive += compare(&format!("seed {seed}"), &source, &engine, unroll, 200_000) as usize;
    }
    assert!(naive >= 40, "only {naive} of 60 seeds compared with naive");
}

/// Each user model on 30 generated tests: the search equals itself without shortcuts
/// and the plain enumeration, on at least `least` tests that fit the naive budget.
fn user_models_match_naive(generate: fn(u64) -> (String, u32), least: usize) {
    for (model, text) in [
        ("sc-per-location", SC_PER_LOCATION),
        ("rc11-coherence", RC11_COHERENCE),
        ("no-coherence", NO_COHERENCE),
    ] {
        let engine = user(text);
        let mut naive = 0;
        for seed in 0..30 {
            let (source, unroll) = generate(seed);
            let name = format!("{model}, seed {seed}");
            naive += compare(&name, &source, &engine, unroll, 100_000) as usize;
        }
        assert!(
            naive >= least,
            "{model}: only {naive} of 30 seeds compared with naive"
        );
    }
}

#[test]
fn user_models_on_opencl_lock_loops_match_naive() {
    user_models_match_naive(common::random_opencl_lock_test, 20);
}

#[test]
fn user_models_on_vulkan_rmw_loops_match_naive() {
    user_models_match_naive(common::random_rmw_test, 15);
}

#[test]
fn opencl_corpus_matches_without_shortcuts_and_naive() {
    let (tests, naive) = compare_folder("opencl", &opencl());
    assert!(tests >= 80 && naive >= 80, "{naive} of {tests} compared");
}

/// The derivation refuses NO_COHERENCE the core, and rightly: a read of a write that the
/// work-item's own later write to the location overwrote (`fr_ww ; po_loc` is a cycle
/// of the core) is consistent under it, and the search claiming the core loses that
/// state.
#[test]
fn claiming_the_core_for_a_model_without_it_is_wrong() {
    let source = r#"OPENCL stale-read
"A read of a write the work-item has overwritten: coherence forbids it."
{ [x] = 0; }
P0@wg 0, dev 0 (global int* x) {
  *x = 1;
  *x = 2;
  int r = *x;
}
exists (0:r = 1)
"#;
    let program = crate::load_litmus(source).unwrap();
    let engine = user(NO_COHERENCE);
    assert_eq!(engine.model().shortcuts().core, None);
    let derived = outcomes(&program, &options(engine.clone(), 2, false));
    let naive = outcomes(&program, &options(engine.clone(), 2, true));
    assert_eq!(derived, naive);
    assert!(naive.positive > 0, "the stale read is allowed: {naive:?}");
    let claimed = outcomes(
        &program,
        &options(engine.claiming(Shortcuts::ALL), 2, false),
    );
    assert_ne!(
        claimed, naive,
        "the claimed core should lose the stale read"
    );
    assert_eq!(claimed.positive, 0);
    // Under a model with coherence the state is forbidden, with or without shortcuts.
    let coherent = user(SC_PER_LOCATION);
    assert!(coherent.model().shortcuts().core.is_some());
    let with = outcomes(&program, &options(coherent.clone(), 2, false));
    assert_eq!(with, outcomes(&program, &options(coherent, 2, true)));
    assert_eq!(with.positive, 0);
}

/// A compare-exchange whose 1/0 result nothing reads names the thread's last register:
/// the value solver's register file must hold it (it was one short, and the run
/// panicked).
#[test]
fn an_unread_compare_exchange_result_has_a_register() {
    let source = r#"OPENCL cas-result
"An exchange whose result is only observed."
{ [l] = 0; }
P0@wg 0, dev 0 (global atomic_int* l) {
  int e = 0;
  int ok = atomic_compare_exchange_strong_explicit(l, &e, 1, memory_order_relaxed, memory_order_relaxed);
}
exists (0:ok = 1)
"#;
    let program = crate::load_litmus(source).unwrap();
    let got = outcomes(&program, &options(opencl(), 2, false));
    assert_eq!(got, outcomes(&program, &options(opencl(), 2, true)));
    assert_eq!(got.positive, 1);
}

/// A C11-style model on a Vulkan test gets the coherence core on the locations whose
/// writes asmo orders totally: the lock `m` (atomics of one workgroup), not `x` (two
/// plain writes, which Vulkan's asmo leaves unordered). Without it the search stopped at
/// the time limit after 18 candidates (estimate 9.7e10); with it, it examines 18, as
/// vulkan.cat's search does, and agrees with plain enumeration where that finishes
/// (`--unroll 1`; at 2 it is 9.7e10 candidates).
#[test]
fn rc11_on_the_vulkan_spin_lock_gets_the_core_on_the_lock() {
    let program = crate::load_litmus(crate::SPINLOCK_2).unwrap();
    let engine = user(RC11_COHERENCE);
    let mut opts = options(engine.clone(), 2, false);
    opts.run.max_candidates = Some(10_000);
    let (got, stats) = collect_outcomes(&program, &opts).unwrap();
    assert_eq!(stats.stopped, None, "{stats:?}");
    assert_eq!(stats.candidates, 18, "{stats:?}");
    // The 6 executions vulkan.cat has, each with either write of x final: co = asmo
    // does not order the plain writes of x, so both are co-maximal (the model's choice,
    // not the search's), and x = 1 is a state.
    assert_eq!((got.positive, got.negative), (6, 6), "{got:?}");
    assert!(compare(
        "spinlock-2, --unroll 1",
        crate::SPINLOCK_2,
        &engine,
        1,
        10_000_000
    ));
}

/// Two RMWs of one location in two workgroups at workgroup scope are not mutually
/// ordered, so a Vulkan test's asmo leaves them unordered; under a C11-style model both
/// may then read the initial value (`e1 fr e2 fr e1` is a cycle of the core on `m`, but
/// no axiom forbids it: `hb` does not relate them and `co` does not order them). The
/// core holds on `y`, whose RMWs are at device scope, and not on `m`: the search keeps
/// the state where both RMWs of `m` read 0 and never the one where both of `y`'s do, as
/// plain enumeration does; claiming the core on every location loses the first.
#[test]
fn rmws_out_of_each_others_scope_may_both_read_the_initial_value() {
    let source = r#"VULKAN rmw-apart
"Two RMWs of m out of each other's scope, two of y in it."
{ m = 0; y = 0; }
P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;
rmw.atom.wg.sc0 r0, m, 1 | rmw.atom.wg.sc0 r0, m, 1 ;
rmw.atom.dv.sc0 r1, y, 1 | rmw.atom.dv.sc0 r1, y, 1 ;
exists (P0:r0 == 0 /\ P1:r0 == 0)
"#;
    let program = crate::load_litmus(source).unwrap();
    let engine = user(RC11_COHERENCE);
    assert!(compare("rmw-apart", source, &engine, 2, 100_000));
    let derived = outcomes(&program, &options(engine.clone(), 2, false));
    // m's RMWs: both read 0 (one state), or not (P0:r0, P1:r0 = 0,1 / 1,0 / 1,1); y's:
    // one reads 0, the other 1 (two ways). So 2 of 8 executions have both of m's 0.
    assert_eq!((derived.positive, derived.negative), (2, 6), "{derived:?}");
    let everywhere = Shortcuts {
        core: Some(CoreTerms {
            po_loc: true,
            fr_ww: true,
            events: None,
        }),
        final_by_asmo: false,
    };
    let claimed = outcomes(&program, &options(engine.claiming(everywhere), 2, false));
    assert_eq!(
        claimed.positive, 0,
        "the core on m should lose the state: {claimed:?}"
    );
}

/// Every corpus test of every dialect under the C11-style user model (its PTX form on
/// PTX tests, which have no `A`): the search with its derived shortcuts (per location on
/// Vulkan and PTX tests) equals the search without them and plain enumeration.
#[test]
fn corpus_under_a_c11_style_model_matches_without_shortcuts_and_naive() {
    let (engine, ptx) = (user(RC11_COHERENCE), user(RC11_COHERENCE_PTX));
    let tests = files::corpus_files();
    let (mut naive, mut on_ptx) = (0, 0);
    for f in &tests {
        let source = std::fs::read_to_string(f).unwrap();
        // The model the CLI would accept for the test's dialect (judge.rs's rule).
        let dialect = vkherd_dialects::of(&source);
        let engine = match engine.model().foreign_bases(dialect).is_empty() {
            true => &engine,
            false => {
                assert!(ptx.model().foreign_bases(dialect).is_empty(), "{f:?}");
                on_ptx += 1;
                &ptx
            }
        };
        naive += compare(&f.display().to_string(), &source, engine, 2, 100_000) as usize;
    }
    assert!(on_ptx >= 20, "only {on_ptx} tests under the PTX form");
    assert!(
        tests.len() >= 300 && naive >= 250,
        "{naive} of {} compared",
        tests.len()
    );
}

fn bundled(name: &str) -> CatEngine {
    CatEngine::new(Arc::new(Model::bundled(name, &[]).unwrap()))
}

/// The spin lock of `vkherd gen spinlock 2` in PTX: an exchange loop, weak accesses to x,
/// a release store.
const PTX_SPINLOCK_2: &str = r#"PTX spinlock-ptx-2
"The spin lock of vkherd gen spinlock 2 in PTX."
{
m=0; x=0;
}
 P0@cta 0,gpu 0                 | P1@cta 0,gpu 0                 ;
 LC00:                          | LC00:                          ;
 atom.acquire.cta.exch r0, m, 1 | atom.acquire.cta.exch r0, m, 1 ;
 bne r0, 0, LC00                | bne r0, 0, LC00                ;
 ld.weak r1, x                  | ld.weak r1, x                  ;
 add r2, r1, 1                  | add r2, r1, 1                  ;
 st.weak x, r2                  | st.weak x, r2                  ;
 st.release.cta m, 0            | st.release.cta m, 0            ;
forall (x == 2)
"#;

/// ptx-v6.0.cat gets the core on the locations whose accesses are pairwise morally
/// strong (`acyclic strong(com) | po_loc`): the lock `m` of the PTX spin lock, all of
/// whose accesses are .cta operations of one CTA, and not `x` (weak accesses). The search
/// with it equals the search without it and plain enumeration, on the lock (at
/// `--unroll 1`: 2.7e6 candidates at 2) and on the PTX corpus.
#[test]
fn ptx_v6_gets_the_core_where_accesses_are_morally_strong() {
    let engine = bundled("ptx-v6.0");
    assert!(engine.model().shortcuts().core.is_some());
    assert!(compare(
        "spinlock-ptx-2, --unroll 1",
        PTX_SPINLOCK_2,
        &engine,
        1,
        10_000_000
    ));
    let program = crate::load_litmus(PTX_SPINLOCK_2).unwrap();
    let (got, stats) = collect_outcomes(&program, &options(engine, 2, false)).unwrap();
    // The lock works: x = 2 in each of the 6 executions (two lock orders, and the spin
    // iterations the bound allows), as under vulkan.cat for the Vulkan lock.
    assert_eq!((got.positive, got.negative), (6, 0), "{got:?}");
    assert_eq!(stats.candidates, 18, "{stats:?}");
    for name in ["ptx", "ptx-v6.0"] {
        let (tests, naive) = compare_folder("ptx", &bundled(name));
        assert!(
            tests >= 40 && naive >= 40,
            "{name}: {naive} of {tests} compared"
        );
    }
}

/// Weak accesses have no coherence in PTX: a thread may read a weak write and then the
/// initial value. ptx-v6.0.cat allows it (no axiom orders weak accesses of two
/// threads), the derived core leaves `x` out (its accesses are not morally strong), and
/// claiming the core on every location loses the state (the second write makes the
/// search use its coherence filter: with one write per location it has nothing to
/// cut).
#[test]
fn ptx_weak_accesses_keep_their_incoherent_reads() {
    let source = r#"PTX CoRR-weak
"Weak writes read by two weak reads, the second of the initial value."
{
x=0;
}
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, x  ;
 st.weak x, 2   | ld.weak r1, x  ;
exists
(P1:r0 == 1 /\ P1:r1 == 0)
"#;
    let program = crate::load_litmus(source).unwrap();
    let engine = bundled("ptx-v6.0");
    assert!(compare("CoRR-weak", source, &engine, 2, 100_000));
    let derived = outcomes(&program, &options(engine.clone(), 2, false));
    assert!(derived.positive > 0, "allowed: {derived:?}");
    let claimed = outcomes(
        &program,
        &options(engine.claiming(Shortcuts::ALL), 2, false),
    );
    assert_eq!(
        claimed.positive, 0,
        "the core on x should lose the state: {claimed:?}"
    );
}

/// Coherence-first placing (search.rs) only where the core covers the location: a weak
/// read of the other thread's strong write, followed by a strong write of its own
/// thread that is co-before the one it read (CoRW, which PTX allows a weak read). The
/// branch makes `x` a stage-1 location, where the search chooses rf and asmo together;
/// placing the thread's write after the read's source there would lose the state. The
/// core of ptx-v6.0.cat covers `y` (strong accesses only), not `x`.
#[test]
fn ptx_weak_read_does_not_place_its_threads_write() {
    let core = bundled("ptx-v6.0").model().shortcuts().core;
    assert!(core.is_some_and(|c| c.guard.is_some()), "a core on y only");
    let source = r#"PTX CoRW-weak-branch
"A weak read of the other thread's strong write, then a strong write of its own that is co-before it; y is strong, so the core covers it."
{
x=0; y=0;
}
 P0@cta 0,gpu 0          | P1@cta 0,gpu 0      ;
 ld.weak r0, x           | st.relaxed.cta x, 2 ;
 bne r0, 7, LC01         | st.relaxed.cta y, 1 ;
 LC01:                   |                     ;
 st.relaxed.cta x, 1     |                     ;
 ld.relaxed.cta r1, y    |                     ;
exists
(P0:r0 == 2 /\ x == 2)
"#;
    let program = crate::load_litmus(source).unwrap();
    for name in ["ptx", "ptx-v6.0"] {
        let engine = bundled(name);
        assert!(compare(name, source, &engine, 2, 100_000));
        let got = outcomes(&program, &options(engine, 2, false));
        assert!(got.positive > 0, "{name}: allowed, {got:?}");
    }
}
