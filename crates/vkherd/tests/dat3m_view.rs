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
    let model = dat3m(file);
    let (mut compared, mut skipped) = (0, Vec::new());
    for f in files::corpus_files() {
        let src = std::fs::read_to_string(&f).unwrap();
        if vkherd_dialects::of(&src).name != dialect {
            continue;
        }
        let program = vkherd::load_litmus(&src).unwrap();
        let naive = options(&model, true);
        let eo = vkherd_enumerate::EnumOptions {
            engine: vkherd_enumerate::AnyEngine::Cat(vkherd_enumerate::CatEngine::new(
                model.clone(),
            )),
            ..Default::default()
        };
        if vkherd_enumerate::naive_size(&program, &eo, 300_000).is_none() {
            skipped.push(f.display().to_string());
            continue;
        }
        let pruned = report::herd_text(&vkherd::run(&program, &options(&model, false)).unwrap());
        let plain = report::herd_text(&vkherd::run(&program, &naive).unwrap());
        assert_eq!(pruned, plain, "{}", f.display());
        compared += 1;
    }
    eprintln!(
        "dat3m {file}: {compared} tests compared with --naive; {} skipped (over 300000 candidates): {}",
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
/// in every execution with an RMW is raised.
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
