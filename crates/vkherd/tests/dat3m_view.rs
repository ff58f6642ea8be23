//! Dat3M's own vulkan.cat and opencl.cat (third_party/dat3m/models, unchanged) run in
//! Dat3M's event view (docs/models.md, "Dat3M's event view"): the pruned search against
//! plain enumeration on the corpus of each dialect, and verdicts checked by hand against
//! the models' text on a few tests (message passing, CoWW-RR, RMW atomicity, a control
//! barrier; OpenCL's scopes and memory regions).

use crate::files;
use crate::util;
use std::path::PathBuf;
use std::sync::Arc;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::{report, Options, RunConfig};
use vkherd_cat::{Model, Source};

/// A model of third_party/dat3m/models, compiled as `--model FILE` compiles it.
fn dat3m(file: &str) -> Arc<Model> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../third_party/dat3m/models")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let src = Source {
        name: path.display().to_string(),
        text: Arc::from(text),
    };
    Arc::new(Model::compile(src, &Default::default()).unwrap_or_else(|e| panic!("{}", e.render())))
}

fn options(model: &Arc<Model>, naive: bool) -> Options {
    Options {
        model: ModelChoice::given(ModelSpec::cat(model.clone())),
        run: RunConfig {
            naive,
            ..RunConfig::default()
        },
        ..Options::default()
    }
}

/// The states of the corpus test `rel` under `model`: each state line, and the verdict.
fn states(model: &Arc<Model>, rel: &str) -> (Vec<String>, String) {
    let program =
        vkherd::load_litmus(&std::fs::read_to_string(util::corpus(rel)).unwrap()).unwrap();
    let rep = vkherd::run(&program, &options(model, false)).unwrap();
    let text = report::herd_text(&rep);
    let mut lines = text.lines();
    let verdict = lines
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    let states = text
        .lines()
        .skip_while(|l| !l.starts_with("States"))
        .skip(1)
        .take_while(|l| !matches!(*l, "Ok" | "No"))
        .map(str::to_string)
        .collect();
    let ok = text.lines().any(|l| l == "Ok");
    (
        states,
        format!("{verdict} {}", if ok { "Ok" } else { "No" }),
    )
}

/// The pruned search finds what plain enumeration finds, test by test, on every test of
/// `dialect` in the corpus whose plain enumeration is small enough (the view's cuts:
/// `vkherd_cat::shortcuts::in_view`); the number of tests compared.
fn search_matches_naive(file: &str, dialect: &str) -> usize {
    let files: Vec<PathBuf> = files::corpus_files()
        .into_iter()
        .filter(|f| vkherd_dialects::of(&std::fs::read_to_string(f).unwrap()).name == dialect)
        .collect();
    compare_with_naive(file, &files, 2, 300_000).len()
}

/// [`search_matches_naive`] on `files` at `--unroll unroll`, those of at most `cap`
/// candidates: the names of the files compared.
fn compare_with_naive(file: &str, files: &[PathBuf], unroll: u32, cap: u64) -> Vec<String> {
    let model = dat3m(file);
    let (mut compared, mut skipped) = (Vec::new(), Vec::new());
    let at = |naive: bool| {
        let mut o = options(&model, naive);
        o.run.unroll = unroll;
        o
    };
    for f in files {
        let src = std::fs::read_to_string(f).unwrap();
        let program = vkherd::load_litmus(&src).unwrap();
        let eo = vkherd_enumerate::EnumOptions {
            engine: vkherd_enumerate::AnyEngine::Cat(vkherd_enumerate::CatEngine::new(
                model.clone(),
            )),
            run: at(true).run,
            ..Default::default()
        };
        if vkherd_enumerate::naive_size(&program, &eo, cap).is_none() {
            skipped.push(f.display().to_string());
            continue;
        }
        let pruned = report::herd_text(&vkherd::run(&program, &at(false)).unwrap());
        let plain = report::herd_text(&vkherd::run(&program, &at(true)).unwrap());
        assert_eq!(pruned, plain, "{} --unroll {unroll}", f.display());
        compared.push(f.file_name().unwrap().to_string_lossy().into_owned());
    }
    eprintln!(
        "dat3m {file} --unroll {unroll}: {} tests compared with --naive; {} skipped (over {cap} candidates): {}",
        compared.len(),
        skipped.len(),
        skipped.join(", ")
    );
    compared
}

#[test]
fn the_search_matches_naive_enumeration_on_the_vulkan_corpus() {
    let compared = search_matches_naive("vulkan.cat", "vulkan");
    assert!(compared > 150, "only {compared} tests compared");
}

#[test]
fn the_search_matches_naive_enumeration_on_the_opencl_corpus() {
    let compared = search_matches_naive("opencl.cat", "opencl");
    assert!(compared > 100, "only {compared} tests compared");
}

/// The RMW loops of litmus-tests/liveness (locks, counters: where vulkan.cat's view core,
/// `vkherd_cat::shortcuts` module view, cuts most) at the bounds plain enumeration
/// finishes at: the two-invocation test-and-set locks at `--unroll 1` (a lock taken and
/// released in each completed execution; 963 504 candidates each, most contradicting a
/// branch), the ticket lock and the counters at 1 and 2. tas-lock-3 and ttas-lock are
/// past plain enumeration even at 1.
#[test]
fn the_search_matches_naive_enumeration_on_the_rmw_loops_of_the_liveness_corpus() {
    let loops: Vec<PathBuf> = files::litmus_files(&files::corpus_root().join("liveness"))
        .into_iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("rmw."))
        .collect();
    assert!(loops.len() >= 6, "{loops:?}");
    let at1 = compare_with_naive("vulkan.cat", &loops, 1, 1_000_000);
    for name in [
        "tas-lock.litmus",
        "tas-lock-wg.litmus",
        "ticket-lock.litmus",
    ] {
        assert!(
            at1.iter().any(|c| c == name),
            "{name} at --unroll 1: {at1:?}"
        );
    }
    let at2 = compare_with_naive("vulkan.cat", &loops, 2, 300_000);
    assert!(at2.iter().any(|c| c == "ticket-lock.litmus"), "{at2:?}");
}

#[test]
fn opencl_scopes_and_regions_as_dat3m_writes_them() {
    let model = dat3m("opencl.cat");
    // `incl` has no sub-group term: release/acquire at sub-group scope never
    // synchronises, and y's accesses race (cnf, not hb-ordered, not incl); x's, device
    // scope on one device, are incl.
    let (st, verdict) = states(&model, "opencl/mp/MP-rel-acq-sg-samesg.litmus");
    let all = |racy: &str| -> Vec<String> {
        [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .map(|(a, b)| format!("1:r0={a}; 1:r1={b};{racy}"))
            .collect()
    };
    assert_eq!(st, all(" # flagged"));
    assert_eq!(verdict, "Allowed Ok");
    // lhb chains sb only between local events: local Wx sb global Wy is in neither
    // ghb nor lhb, so the seq_cst flag's lsw does not order Wx before Rx. All accesses
    // are incl (x: work-group scope in one work-group; y: device scope): no race.
    let (st, verdict) = states(&model, "opencl/mp/MP-sc-globalflag-localdata.litmus");
    assert_eq!(st, all(""));
    assert_eq!(verdict, "Allowed Ok");
}

#[test]
fn message_passing_is_the_alloy_answer() {
    // sw from the release store to the acquire load (mutordatom, inscope at wg); Wx hb
    // Rx; locord RaW through the shader domain (st.av.dv, ld.vis.dv); Rx reading IW is fr
    // to Wx (fr's third term): a cycle for r0=1, r1=0. Without sw, dr on x.
    let (st, verdict) = states(&dat3m("vulkan.cat"), "mp/MP-relacq-wg.litmus");
    assert_eq!(
        st,
        [
            "1:r0=0; 1:r1=0; # flagged",
            "1:r0=0; 1:r1=1; # flagged",
            "1:r0=1; 1:r1=1;"
        ]
    );
    assert_eq!(verdict, "Allowed No");
}

#[test]
fn coww_rr_is_allowed_by_dat3m_fr_and_plain_writes_have_no_coherence() {
    // fr = ((rf & locord)^-1 ; (W * W) & locord) | (rf^-1 ; asmo) | IW's: P1's reads
    // are cross-thread and private, so rf is never in locord and the first term is
    // empty; asmo = co & mutordatom is empty (plain writes). Only the reads of IW have
    // fr, to both writes: r1=0 after r0=1 or 2 is the cycle W rf Ra locord Rb fr W. So
    // 7 register pairs, each with x = 1 or 2 (co orders the plain writes freely: no check
    // reads it), all racy (no hb across threads).
    let (st, verdict) = states(&dat3m("vulkan.cat"), "coherence/CoWW-RR-plain.litmus");
    let mut expected = Vec::new();
    for (r0, r1) in [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)] {
        for x in [1, 2] {
            expected.push(format!("1:r0={r0}; 1:r1={r1}; x={x}; # flagged"));
        }
    }
    assert_eq!(st, expected);
    assert_eq!(verdict, "Allowed Ok");
}

#[test]
fn rmw_atomicity_holds_between_mutually_ordered_rmws_only() {
    let model = dat3m("vulkan.cat");
    // All mutually ordered: `atomic` (rmw & (fre ; (asmo & ext))) forbids both RMWs
    // reading Wx in each of the three asmo orders with Wx before M0 (Wx locord M0): the
    // same three states as the Alloy model.
    let (st, verdict) = states(&model, "rmw/RMW-atomicity-store-mixed-scope.litmus");
    assert_eq!(
        st,
        [
            "0:r0=1; 1:r0=0; x=2;",
            "0:r0=1; 1:r0=2; x=3;",
            "0:r0=2; 1:r0=1; x=3;"
        ]
    );
    assert_eq!(verdict, "Forbidden Ok");
    // Workgroup scope across workgroups: asmo is empty, so `atomic` says nothing, and
    // with two events per RMW the initial-value reads' fr (to the other RMW's write half)
    // closes no cycle: both may read 0 (the Alloy model's single RMW event closes
    // M0 fr M1 fr M0). Every write may be co-last.
    let (st, verdict) = states(&model, "rmw/RMW-atomicity-wg-crosswg.litmus");
    assert_eq!(
        st,
        [
            "0:r0=0; 1:r0=0; x=1; # flagged",
            "0:r0=0; 1:r0=1; x=1; # flagged",
            "0:r0=0; 1:r0=1; x=2; # flagged",
            "0:r0=1; 1:r0=0; x=1; # flagged",
            "0:r0=1; 1:r0=0; x=2; # flagged"
        ]
    );
    assert_eq!(verdict, "Forbidden No");
}

#[test]
fn a_control_barrier_synchronises() {
    // sw's fence->cbar->cbar->fence term: the acq_rel cbars are REL & F and ACQ & F,
    // syncbar & inscope relates them; Wx po cbar0 sw cbar1 po Rx is ithbsemsc0; locord
    // RaW through the workgroup domain (st.av.wg, ld.vis.wg); r0=0 is fr to Wx: a cycle.
    let (st, verdict) = states(&dat3m("vulkan.cat"), "cbar/MP-cbar.litmus");
    assert_eq!(st, ["1:r0=1;"]);
    assert_eq!(verdict, "Required Ok");
}

/// Explanations and graphs show vkherd's events: refused for a model in the view, with
/// the reason, exit code 2.
#[test]
fn explain_and_graphs_refuse_a_model_in_the_view() {
    let model = util::root().join("third_party/dat3m/models/vulkan.cat");
    let model = model.to_str().unwrap();
    let test = util::root().join("litmus-tests/mp/MP-relacq-wg.litmus");
    let test = test.to_str().unwrap();
    for args in [
        vec!["explain", "--model", model, test],
        vec!["--model", model, test, "--dot"],
    ] {
        let out = util::vkherd(&args);
        let stderr = util::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("Dat3M's event view"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// What the view promises a model (docs/models.md, "Dat3M's event view"), as flags of a
/// model in the view: none is raised in any execution of the corpus's message-passing,
/// RMW, barrier and coherence tests of both dialects, while a control flag that holds
/// in every execution with an RMW is raised. (`amo` within `po`, `loc`, `int`, `vloc`,
/// and `po` within `int`, are the facts the view's coherence core is proved with:
/// `vkherd_cat::shortcuts`, module view, `base_within`.)
#[test]
fn the_view_keeps_its_promises_on_the_corpus() {
    let invariants = "\
flag ~empty [IW] ; co^-1 as init-not-co-first
flag ~empty co \\ loc as co-across-locations
flag ~empty (((W \\ IW) * (W \\ IW)) & loc) \\ id \\ (co | co^-1) as co-not-total
flag ~empty co ; co \\ co as co-not-transitive
flag ~empty [R] \\ [range(rf)] as read-without-rf
flag ~empty rf \\ (loc & (W * R)) as rf-not-write-to-read
flag ~empty amo \\ (po & loc & int & (R * W)) as halves-apart
flag ~empty amo \\ vloc as halves-through-two-references
flag ~empty po \\ int as po-across-threads
flag ~empty [RMW] \\ [domain(amo) | range(amo)] as rmw-not-halved
flag ~empty (R & W) | (IW & (R | F | ATOM)) as mixed-events
flag ~empty int & (IW * ~IW) as init-in-a-thread
";
    let control = "flag ~empty amo as has-rmw\nacyclic co as c\n";
    let compile = |text: &str| {
        let src = Source {
            name: "view.cat".into(),
            text: Arc::from(text),
        };
        Arc::new(
            Model::compile(src, &Default::default()).unwrap_or_else(|e| panic!("{}", e.render())),
        )
    };
    let (model, control) = (compile(invariants), compile(control));
    assert!(model.dat3m_view() && control.dat3m_view());
    let mut seen = 0;
    for f in files::corpus_files() {
        let path = f.display().to_string();
        let picked = ["/mp/", "/rmw/", "/cbar/", "/coherence/", "/barriers/"];
        if !picked.iter().any(|p| path.contains(p)) || path.contains("/ptx/") {
            continue;
        }
        let program = vkherd::load_litmus(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let text = report::herd_text(&vkherd::run(&program, &options(&model, false)).unwrap());
        assert!(
            !text.contains("\nFlag ") && !text.contains("# flagged"),
            "{path}: a promise is broken\n{text}"
        );
        let has_rmw = program.threads.iter().any(|t| {
            t.code
                .iter()
                .any(|i| matches!(i, vkherd_model::Instruction::Access(a) if a.flags.has(vkherd_model::Flags::R | vkherd_model::Flags::W)))
        });
        let text = report::herd_text(&vkherd::run(&program, &options(&control, false)).unwrap());
        assert_eq!(
            text.contains("\nFlag has-rmw\n") && text.contains("# flagged"),
            has_rmw,
            "{path}: the control flag\n{text}"
        );
        seen += 1;
    }
    assert!(seen > 60, "only {seen} tests");
}

/// vulkan.cat without its `atomic` check gets no view core (crates/cat/tests/
/// dat3m_models.rs), and rightly: two RMWs of one location in each other's scope may
/// then both read the initial value (`r(e1)` and `r(e2)` fr from IW to both write halves,
/// no cycle of `consistency-cycle`), which the search keeps, as plain enumeration does;
/// the search claiming the core on every location loses it (`e1 fr_init e2 fr_init e1`
/// on the program's events). With the check, the state is forbidden.
#[test]
fn claiming_the_view_core_without_rmw_atomicity_loses_a_state() {
    use vkherd_enumerate::{collect_outcomes, AnyEngine, CatEngine, CoreTerms, Shortcuts};
    let source = r#"VULKAN rmw-both-init
"Two RMWs of m in each other's scope."
{ m = 0; }
P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;
rmw.atom.dv.sc0 r0, m, 1 | rmw.atom.dv.sc0 r0, m, 1 ;
exists (P0:r0 == 0 /\ P1:r0 == 0)
"#;
    let program = vkherd::load_litmus(source).unwrap();
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../third_party/dat3m/models/vulkan.cat");
    let text = std::fs::read_to_string(&path).unwrap();
    let atomic = "empty rmw & (fre; (asmo & ext)) as atomic";
    assert!(text.contains(atomic));
    let variant = Model::compile(
        Source {
            name: "vulkan-no-atomic.cat".into(),
            text: Arc::from(text.replace(atomic, "")),
        },
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(variant.shortcuts().core, None);
    let final_by_asmo = variant.shortcuts().co_by_asmo;
    let engine = CatEngine::new(Arc::new(variant));
    let run = |engine: CatEngine, naive: bool| {
        let opts = vkherd_enumerate::EnumOptions {
            engine: AnyEngine::Cat(engine),
            run: RunConfig {
                naive,
                ..RunConfig::default()
            },
            ..Default::default()
        };
        collect_outcomes(&program, &opts).unwrap().0
    };
    let derived = run(engine.clone(), false);
    assert_eq!(derived, run(engine.clone(), true));
    assert!(derived.positive > 0, "both read 0: {derived:?}");
    let everywhere = Shortcuts {
        core: Some(CoreTerms {
            po_loc: true,
            fr_ww: false,
            events: None,
        }),
        final_by_asmo,
    };
    let claimed = run(engine.claiming(everywhere), false);
    assert_eq!(
        claimed.positive, 0,
        "the claimed core loses it: {claimed:?}"
    );
    let full = CatEngine::new(dat3m("vulkan.cat"));
    assert!(full.model().shortcuts().core.is_some());
    let with = run(full.clone(), false);
    assert_eq!(with, run(full, true));
    assert_eq!(with.positive, 0, "atomicity forbids it: {with:?}");
}

/// Dat3M's models with their view cores on generated RMW loops: vulkan.cat on Vulkan
/// RMW spin loops (`common::random_rmw_test`), opencl.cat on OpenCL lock loops
/// (`common::random_opencl_lock_test`). The search with the derived shortcuts equals
/// the search without any and plain enumeration, on the seeds small enough for it.
#[test]
fn dat3m_models_on_generated_rmw_loops_match_naive() {
    use vkherd_enumerate::{collect_outcomes, AnyEngine, CatEngine, EnumOptions, Shortcuts};
    type Generate = fn(u64) -> (String, u32);
    let cases: [(&str, Generate, usize); 2] = [
        ("vulkan.cat", crate::common::random_rmw_test, 10),
        ("opencl.cat", crate::common::random_opencl_lock_test, 15),
    ];
    for (file, generate, least) in cases {
        let engine = CatEngine::new(dat3m(file));
        assert!(engine.model().shortcuts().core.is_some(), "{file}");
        let opts = |engine: CatEngine, unroll: u32, naive: bool| EnumOptions {
            engine: AnyEngine::Cat(engine),
            run: RunConfig {
                unroll,
                naive,
                ..RunConfig::default()
            },
            ..Default::default()
        };
        let mut compared = 0;
        for seed in 0..30 {
            let (source, unroll) = generate(seed);
            let program = vkherd::load_litmus(&source).unwrap();
            let naive = opts(engine.clone(), unroll, true);
            if vkherd_enumerate::naive_size(&program, &naive, 100_000).is_none() {
                continue;
            }
            let run = |o: &EnumOptions| collect_outcomes(&program, o).unwrap().0;
            let search = run(&opts(engine.clone(), unroll, false));
            let plain = engine.clone().claiming(Shortcuts::default());
            assert_eq!(
                search,
                run(&opts(plain, unroll, false)),
                "{file}, seed {seed}: the shortcuts change the outcomes\n{source}"
            );
            assert_eq!(
                search,
                run(&naive),
                "{file}, seed {seed}: search differs from naive\n{source}"
            );
            compared += 1;
        }
        eprintln!("dat3m {file}: {compared} of 30 generated RMW loops compared with --naive");
        assert!(
            compared >= least,
            "{file}: only {compared} of 30 seeds compared"
        );
    }
}
