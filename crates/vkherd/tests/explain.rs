//! `vkherd explain` and the witness graphs, through the library API:
//! - every failing candidate's explanation names the first check the staged evaluator
//!   finds failing, and every edge of its witness (cycle, pair, and the steps an edge is
//!   broken into) is recomputed with the staged evaluator and found in every relation
//!   its labels name; cycles close, steps form a path;
//! - explaining every state agrees with the normal run: the allowed states are exactly
//!   the run's states, each with a witness execution that is consistent and has that
//!   final state;
//! - on corpus tests and random tests (the differential tests' generator).

use crate::common;

use crate::files;
use vkherd::explain::{explain, failure, witness_executions, Edge, Target, Witness};
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::RunConfig;
use vkherd_cat::{Model, Prepared};
use vkherd_enumerate::capture::{candidates_reaching, Captured};
use vkherd_enumerate::{naive_size, AnyEngine, CatEngine, EnumOptions};
use vkherd_model::{Program, Rel};

/// Tests with more candidates than this are left out (every candidate is explained).
const MAX_NAIVE: u64 = 3_000;

fn corpus(path: &str) -> (String, Program) {
    let full = format!("{}/../../litmus-tests/{path}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap();
    let program = vkherd::load_litmus(&source).unwrap();
    (source, program)
}

/// The relation `name` of candidate `c`, recomputed by the staged evaluator (base
/// relations from the candidate itself).
fn recomputed(model: &Model, c: &Captured, name: &str) -> Rel {
    if let Some(r) = name.strip_suffix("^-1") {
        return recomputed(model, c, r).inv();
    }
    match name {
        "rf" => return c.rf.clone(),
        "asmo" => return c.asmo.clone(),
        _ => {}
    }
    if let (None, Some(b)) = (model.named(name), vkherd_cat::base::lookup(name)) {
        return vkherd_cat::base::static_value(b, &c.statics).rel().clone();
    }
    let prep = Prepared::new(model, &c.statics, &[name]);
    let asmo = prep.for_asmo(&c.asmo);
    let e = prep.evaluate(&asmo, &c.asmo, &c.rf, &c.rfinit);
    e.rel(name)
        .unwrap_or_else(|| panic!("`{name}` is not a relation of the model"))
        .clone()
}

/// Every edge and step is in the relations its labels name; steps go from the edge's
/// source to its target.
fn check_edge(model: &Model, c: &Captured, e: &Edge, what: &str) {
    assert!(
        !e.labels.is_empty() || !e.steps.is_empty(),
        "{what}: an edge without a label or steps"
    );
    for l in &e.labels {
        assert!(
            recomputed(model, c, l).contains(e.from, e.to),
            "{what}: edge {}->{} is not in `{l}`",
            e.from,
            e.to
        );
    }
    if !e.steps.is_empty() {
        assert_eq!(e.steps[0].from, e.from, "{what}: steps start elsewhere");
        assert_eq!(
            e.steps.last().unwrap().to,
            e.to,
            "{what}: steps end elsewhere"
        );
        for w in e.steps.windows(2) {
            assert_eq!(w[0].to, w[1].from, "{what}: steps do not chain");
        }
        for st in &e.steps {
            assert!(!st.labels.is_empty(), "{what}: a step without a label");
            for l in &st.labels {
                assert!(
                    recomputed(model, c, l).contains(st.from, st.to),
                    "{what}: step {}->{} is not in `{l}`",
                    st.from,
                    st.to
                );
            }
        }
    }
}

/// Explains every candidate of `program` (consistent or not) and checks each
/// explanation against the staged evaluator. Returns the number of failing candidates.
fn check_every_candidate(program: &Program, opts: &vkherd::Options, what: &str) -> u64 {
    let resolved = vkherd::explain::resolve(program, opts).unwrap();
    let model = resolved.cat_model().clone();
    let eo = EnumOptions {
        engine: AnyEngine::Cat(CatEngine::new(model.clone())),
        ..EnumOptions::default()
    };
    let (cands, _) = candidates_reaching(program, &eo, &|_| true, 100_000)
        .unwrap_or_else(|e| panic!("{what}: {e:?}"));
    let mut failing = 0;
    for c in &cands {
        // The staged evaluator's verdict on every check.
        let prep = Prepared::new(&model, &c.statics, &[]);
        let asmo = prep.for_asmo(&c.asmo);
        let ev = prep.evaluate(&asmo, &c.asmo, &c.rf, &c.rfinit);
        let first = (0..model.checks().len()).find(|&k| !model.checks()[k].flag && !ev.check(k));
        let found = failure(&model, c);
        assert_eq!(
            found.as_ref().map(|(k, _)| *k),
            first,
            "{what}: the first failing check differs"
        );
        assert_eq!(first.is_none(), c.consistent, "{what}: consistency differs");
        let Some((k, witness)) = found else { continue };
        failing += 1;
        let checked = &model.checks()[k];
        match &witness {
            Witness::Cycle { edges } => {
                assert!(!edges.is_empty());
                for (i, e) in edges.iter().enumerate() {
                    assert_eq!(
                        e.to,
                        edges[(i + 1) % edges.len()].from,
                        "{what}: open cycle"
                    );
                    check_edge(&model, c, e, what);
                }
            }
            Witness::Reflexive { event, edge } => {
                assert_eq!((edge.from, edge.to), (*event, *event));
                check_edge(&model, c, edge, what);
            }
            Witness::Pair { edge } if edge.via.is_empty() && edge.from == edge.to => {}
            Witness::Pair { edge } => check_edge(&model, c, edge, what),
            Witness::Empty => assert!(checked.negated, "{what}: `empty` witness"),
        }
    }
    failing
}

/// Explaining every state agrees with the run, and witnesses reach their states. Returns
/// the number of state columns recomputed from witnesses.
fn check_states_agree(source: &str, program: &Program, opts: &vkherd::Options, what: &str) -> u64 {
    let mut recomputed_columns = 0;
    let report = vkherd::run(program, opts).unwrap();
    let expected: std::collections::BTreeSet<String> = report
        .outcomes
        .states
        .keys()
        .map(|k| vkherd::execution::state_text(program, k))
        .collect();
    let ex = explain(program, Some(source), opts, &Target::State(vec![]), &[]).unwrap();
    let allowed: std::collections::BTreeSet<String> = ex
        .states
        .iter()
        .filter(|s| s.verdict == "allowed")
        .map(|s| s.state.clone())
        .collect();
    assert_eq!(
        allowed, expected,
        "{what}: allowed states differ from the run"
    );
    // The witnesses of a run's graphs (the run's engine, pruned search) are the
    // explanation's (the cat engine, plain enumeration): the first in the same order.
    let drawn = witness_executions(program, Some(source), opts, &[]).unwrap();
    assert_eq!(
        drawn.len(),
        expected.len(),
        "{what}: witnesses of the graphs"
    );
    if let (ModelSpec::Vulkan(o), "vulkan") = (&opts.model.spec, program.dialect.name) {
        // The hand-written engine (`--model hand:vulkan`) draws the same witnesses.
        let mut hand = opts.clone();
        hand.model.spec = ModelSpec::Hand(*o);
        let by_hand = witness_executions(program, Some(source), &hand, &[]).unwrap();
        assert_eq!(
            by_hand, drawn,
            "{what}: the hand-written engine's witnesses differ"
        );
    }
    for (_, w) in &drawn {
        let st = ex.states.iter().find(|s| s.state == w.state).unwrap();
        let mine = st.witness.as_ref().unwrap();
        assert_eq!(
            (&mine.events, &mine.relations["rf"], &mine.relations["asmo"]),
            (&w.events, &w.relations["rf"], &w.relations["asmo"]),
            "{what}: another witness for {}",
            w.state
        );
    }
    for st in &ex.states {
        match st.verdict.as_str() {
            "allowed" => {
                let w = st.witness.as_ref().expect("a witness");
                assert!(w.consistent, "{what}: inconsistent witness");
                assert_eq!(w.state, st.state, "{what}: witness of another state");
                // The state recomputed from the witness's events.
                let values: Vec<i64> = program
                    .observed
                    .iter()
                    .map(|o| st.values[&program.observable_name(*o)])
                    .collect();
                for (k, col) in recomputed_state(program, w).into_iter().enumerate() {
                    if let Some(col) = col {
                        assert!(
                            col.contains(&values[k]),
                            "{what}: witness of {} has {} in {:?}",
                            st.state,
                            program.observable_name(program.observed[k]),
                            col
                        );
                        recomputed_columns += 1;
                    }
                }
                let info = report
                    .outcomes
                    .states
                    .iter()
                    .find(|(k, _)| vkherd::execution::state_text(program, k) == st.state);
                // Racy witness iff the state is reached only by racy executions.
                assert_eq!(st.racy, !info.unwrap().1.race_free, "{what}: race mark");
                assert_eq!(st.racy, !w.flags.is_empty(), "{what}: witness flags");
            }
            "forbidden" => {
                assert!(!st.reasons.is_empty(), "{what}: forbidden without reason");
                let total: u64 = st.reasons.iter().map(|r| r.candidates).sum();
                assert_eq!(total, st.candidates, "{what}: reasons do not add up");
                for r in &st.reasons {
                    assert_ne!(r.check, "?", "{what}: evaluators disagree");
                    assert!(!r.execution.consistent);
                }
            }
            "filtered" => {}
            "thin-air" => {
                assert!(
                    opts.run.no_thin_air,
                    "{what}: thin-air verdict without --no-thin-air"
                );
                let w = st.witness.as_ref().expect("a witness");
                assert!(w.consistent && w.thin_air, "{what}: not a thin-air witness");
            }
            v => panic!("{what}: verdict {v}"),
        }
    }
    recomputed_columns
}

/// The final state a witness execution shows, recomputed from its events and `co` alone
/// (not from the enumeration's values): a register is the value its thread's last load
/// into it read (or its initial value if no event writes it); a location, the values of
/// its `co`-maximal writes (or its initial value). `None` where that cannot be told from
/// the events: registers that local arithmetic or a compare-exchange also writes.
fn recomputed_state(program: &Program, ex: &vkherd::execution::Execution) -> Vec<Option<Vec<i64>>> {
    use vkherd_model::{Instruction, Observable};
    let co = ex.relation("co").unwrap_or(&[]);
    program
        .observed
        .iter()
        .map(|o| match *o {
            Observable::Reg { thread, reg } => {
                let code = &program.threads[thread].code;
                let arith = code.iter().any(|i| {
                    matches!(i, Instruction::Arith { dst, .. } if *dst == reg)
                        || matches!(i, Instruction::Access(a) if a.cas.as_ref().is_some_and(|c|
                            a.dst == Some(reg) || c.success_dst == Some(reg)))
                });
                if arith {
                    return None;
                }
                let last = ex.events.iter().rev().find(|e| {
                    e.thread == thread
                        && matches!(&code[e.instr], Instruction::Access(a) if a.dst == Some(reg))
                });
                Some(vec![match last {
                    Some(e) => e.read?,
                    None => program.threads[thread]
                        .init_regs
                        .iter()
                        .find(|(r, _)| *r == reg)
                        .map_or(0, |(_, v)| *v),
                }])
            }
            Observable::Loc(l) => {
                let name = &program.locations[l].name;
                let writes: Vec<&vkherd::execution::EventInfo> = ex
                    .events
                    .iter()
                    .filter(|e| e.written.is_some() && e.memory.as_ref() == Some(name))
                    .collect();
                if writes.is_empty() {
                    return Some(vec![program.locations[l].init]);
                }
                let mut vals: Vec<i64> = writes
                    .iter()
                    .filter(|w| {
                        !writes
                            .iter()
                            .any(|v| v.id != w.id && co.contains(&(w.id, v.id)))
                    })
                    .map(|w| w.written.unwrap())
                    .collect();
                vals.sort_unstable();
                vals.dedup();
                Some(vals)
            }
        })
        .collect()
}

fn small(program: &Program) -> bool {
    let eo = EnumOptions::default();
    naive_size(program, &eo, MAX_NAIVE).is_some()
}

#[test]
fn explanations_are_exact_on_the_corpus() {
    let files = files::corpus_files();
    assert!(files.len() > 100, "corpus not found");
    let (mut tests, mut failing, mut columns) = (0, 0, 0);
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let program = vkherd::load_litmus(&src).unwrap();
        if !small(&program) {
            continue;
        }
        let what = f.display().to_string();
        failing += check_every_candidate(&program, &vkherd::Options::default(), &what);
        columns += check_states_agree(&src, &program, &vkherd::Options::default(), &what);
        tests += 1;
    }
    assert!(tests > 80, "only {tests} corpus tests explained");
    assert!(columns > 500, "only {columns} witness columns recomputed");
    assert!(
        failing > 1_000,
        "only {failing} failing candidates explained"
    );
}

#[test]
fn explanations_are_exact_on_random_tests() {
    let (mut tests, mut failing, mut columns) = (0, 0, 0);
    for seed in (0..150).chain(10_000..10_050) {
        let src = common::random_test(seed, seed >= 10_000);
        let program = vkherd::load_litmus(&src).unwrap();
        if !small(&program) {
            continue;
        }
        let what = format!("seed {seed}\n{src}");
        failing += check_every_candidate(&program, &vkherd::Options::default(), &what);
        columns += check_states_agree(&src, &program, &vkherd::Options::default(), &what);
        tests += 1;
    }
    assert!(tests > 100, "only {tests} random tests explained");
    assert!(columns > 500, "only {columns} witness columns recomputed");
    assert!(
        failing > 1_000,
        "only {failing} failing candidates explained"
    );
}

/// Under `--variant mmra` (the hand-written engine's switch) explanations use vulkan.cat
/// with the variant too, and agree with the run.
#[test]
fn explanations_follow_the_variant_mmra() {
    let choice = vkherd::models::resolve("vulkan", &["mmra".to_string()], false).unwrap();
    let opts = vkherd::Options {
        model: choice,
        ..Default::default()
    };
    let resolved =
        vkherd::explain::resolve(&corpus("mmra/MMRA-coherence.litmus").1, &opts).unwrap();
    assert!(resolved.cat_model().active_variants().contains("mmra"));
    let (mut tests, mut columns) = (0, 0);
    for f in files::corpus_files() {
        if !f.to_string_lossy().contains("/mmra/") {
            continue;
        }
        let src = std::fs::read_to_string(&f).unwrap();
        let program = vkherd::load_litmus(&src).unwrap();
        if !small(&program) {
            continue;
        }
        let what = format!("{} under vulkan+mmra", f.display());
        check_every_candidate(&program, &opts, &what);
        columns += check_states_agree(&src, &program, &opts, &what);
        tests += 1;
    }
    assert!(
        tests >= 5 && columns > 10,
        "{tests} tests, {columns} columns"
    );
}

/// With --no-thin-air, states reached only through thin air are said so, and the allowed
/// states are the run's.
#[test]
fn thin_air_only_states_are_said_so_with_no_thin_air() {
    let opts = vkherd::Options {
        run: RunConfig {
            no_thin_air: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let (source, program) = corpus("thin-air/LB-data-42.litmus");
    check_states_agree(&source, &program, &opts, "LB-data-42 --no-thin-air");
    let ex = explain(&program, Some(&source), &opts, &Target::Condition, &[]).unwrap();
    assert_eq!(ex.states.len(), 1);
    assert_eq!(ex.states[0].verdict, "thin-air");
    // Without the option the same state is allowed, by a thin-air execution.
    let ex = explain(
        &program,
        Some(&source),
        &Default::default(),
        &Target::Condition,
        &[],
    )
    .unwrap();
    assert_eq!(ex.states[0].verdict, "allowed");
    assert!(ex.states[0].witness.as_ref().unwrap().thin_air);
}

/// A user's model with `let rec` and checks of every kind: explanations are exact there
/// too (the plain evaluator's fixpoints against the staged one's).
#[test]
fn explanations_are_exact_under_a_users_model_with_let_rec() {
    let text = "\"rec\"\nlet rec causal = po | rf | causal ; causal\nlet fre = ([RFINIT] ; sloc ; [W]) | (rf^-1 ; asmo)\nirreflexive causal ; fre as causality\nacyclic causal | asmo as order\nempty (rf ; [R \\ A]) & (asmo ; rf) as stale\nlet co = asmo\n";
    // PTX tests have no `A` (a model reading it is refused there): the same model with
    // strong operations in its place.
    let ptx_text = text.replace(
        "\"rec\"\n",
        "\"rec\"\nlet A = (R | W) & (SCOPEWG | SCOPEQF | SCOPEDEV)\n",
    );
    let options = |text: &str| {
        let model = Model::compile(
            vkherd_cat::Source {
                name: "rec.cat".into(),
                text: std::sync::Arc::from(text),
            },
            &Default::default(),
        )
        .unwrap();
        vkherd::Options {
            model: ModelChoice::given(ModelSpec::cat(std::sync::Arc::new(model))),
            ..Default::default()
        }
    };
    let (plain, ptx) = (options(text), options(&ptx_text));
    let (mut tests, mut failing) = (0, 0);
    for f in files::corpus_files().iter().step_by(3) {
        let src = std::fs::read_to_string(f).unwrap();
        let program = vkherd::load_litmus(&src).unwrap();
        if !small(&program) {
            continue;
        }
        let what = format!("{} under rec.cat", f.display());
        let opts = match plain.model.spec.cat_model().foreign_bases(program.dialect) {
            foreign if foreign.is_empty() => &plain,
            _ => &ptx,
        };
        failing += check_every_candidate(&program, opts, &what);
        check_states_agree(&src, &program, opts, &what);
        tests += 1;
    }
    assert!(
        tests > 20 && failing > 100,
        "{tests} tests, {failing} failing candidates"
    );
}

/// Worked by hand (docs/explain.md): in MP-relacq-wg both invocations are in workgroup 0,
/// so the workgroup-scope release/acquire pair synchronises: b sw c, hence a hb d
/// (a po b sw c po d, in ithbsemsc0 since every access is sc0 with semsc0 semantics),
/// and with st.av.dv / ld.vis.dv the shader-domain RaW term of locord gives a locord d.
/// r1=0 means d reads the initial x, so d fr a: the cycle a locord d fr a breaks
/// `consistent`.
#[test]
fn mp_same_workgroup_fails_consistent_with_the_locord_fr_cycle() {
    let (source, program) = corpus("mp/MP-relacq-wg.litmus");
    let opts = vkherd::Options::default();
    let ex = explain(&program, Some(&source), &opts, &Target::Condition, &[]).unwrap();
    assert_eq!(ex.states.len(), 1);
    let st = &ex.states[0];
    assert_eq!(st.state, "1:r0=1; 1:r1=0;");
    assert_eq!(st.verdict, "forbidden");
    assert_eq!(st.candidates, 1);
    let r = &st.reasons[0];
    assert_eq!(r.check, "consistent");
    let Witness::Cycle { edges } = &r.witness else {
        panic!("not a cycle")
    };
    let shape: Vec<(usize, usize, Vec<String>)> = edges
        .iter()
        .map(|e| (e.from, e.to, e.labels.clone()))
        .collect();
    assert_eq!(
        shape,
        vec![
            (0, 3, vec!["ithbsemsc0".to_string()]),
            (3, 0, vec!["fr".to_string()])
        ]
    );
    assert_eq!(edges[0].via, ["locord", "hb", "ithbsemsc0"]);
    let steps: Vec<(usize, usize, Vec<String>)> = edges[0]
        .steps
        .iter()
        .map(|s| (s.from, s.to, s.labels.clone()))
        .collect();
    assert_eq!(
        steps,
        vec![
            (0, 1, vec!["po".to_string()]),
            (1, 2, vec!["sw".to_string()]),
            (2, 3, vec!["po".to_string()])
        ]
    );
}

/// Worked by hand: across two workgroups the workgroup-scope pair is out of scope
/// (inscope needs swg), so there is no sw, no hb and no locord between the threads: the
/// state is allowed, and its witness races (dr relates the unordered accesses).
#[test]
fn mp_across_workgroups_is_allowed_and_racy() {
    let (source, program) = corpus("mp/MP-relacq-wg-crosswg.litmus");
    let opts = vkherd::Options::default();
    let ex = explain(&program, Some(&source), &opts, &Target::Condition, &["sw"]).unwrap();
    let st = &ex.states[0];
    assert_eq!(
        (st.state.as_str(), st.verdict.as_str()),
        ("1:r0=1; 1:r1=0;", "allowed")
    );
    assert!(st.racy);
    let w = st.witness.as_ref().unwrap();
    assert_eq!(w.flags, ["racy"]);
    assert_eq!(w.relation("sw"), Some(&[][..]));
    assert!(w.relation("dr").unwrap().contains(&(0, 3)));
}

/// docs/explain.md, step 3: at device scope the pair synchronises across workgroups, and
/// the state is forbidden by `consistent`, with the same cycle as in one workgroup.
#[test]
fn mp_across_workgroups_at_device_scope_fails_consistent() {
    let (source, program) = corpus("mp/MP-relacq-dv-crosswg.litmus");
    let ex = explain(
        &program,
        Some(&source),
        &Default::default(),
        &Target::Condition,
        &[],
    )
    .unwrap();
    let st = &ex.states[0];
    assert_eq!(
        (st.state.as_str(), st.verdict.as_str()),
        ("1:r0=1; 1:r1=0;", "forbidden")
    );
    assert_eq!(st.reasons.len(), 1);
    assert_eq!(st.reasons[0].check, "consistent");
    let edges = st.reasons[0].witness.edges();
    let shape: Vec<(usize, usize)> = edges.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(shape, [(0, 3), (3, 0)]);
    assert_eq!(edges[0].via, ["locord", "hb", "ithbsemsc0"]);
    assert_eq!(edges[1].labels, ["fr"]);
}

#[test]
fn a_state_no_candidate_reaches_is_unreachable() {
    let (source, program) = corpus("mp/MP-relacq-wg.litmus");
    let target = Target::State(vkherd::explain::parse_state(&program, "1:r0=7;").unwrap());
    let ex = explain(&program, Some(&source), &Default::default(), &target, &[]).unwrap();
    assert!(ex.unreachable && ex.states.is_empty());
}

#[test]
fn witnesses_reach_their_states_whatever_the_thread_count() {
    let (source, program) = corpus("mp/MP-relacq-wg-crosswg.litmus");
    let opts = vkherd::Options::default();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| witness_executions(&program, Some(&source), &opts, &["hb"]).unwrap())
    };
    let one = run(1);
    assert_eq!(one.len(), 4);
    for (state, ex) in &one {
        assert_eq!(ex.state, vkherd::execution::state_text(&program, state));
        assert!(ex.consistent);
    }
    assert_eq!(one, run(3));
}
