//! `vkherd explain` and the witness graphs, through the library API: the checks named on
//! tests worked by hand, every printed cycle recomputed from the relations it names, every
//! allowed state's witness reaching that state.

use vkherd::execution::Execution;
use vkherd::explain::{explain, witness_executions, Explanation, Target, Witness};

fn corpus(path: &str) -> (String, vkherd::LoweredProgram) {
    let full = format!("{}/../../litmus-tests/{path}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap();
    let program = vkherd::load_litmus(&source).unwrap();
    (source, program)
}

/// Every edge of every witness is in every relation its labels name, and cycles close.
fn assert_witnesses_real(ex: &Explanation) {
    for st in &ex.states {
        for r in &st.reasons {
            let edges = match &r.witness {
                Witness::Cycle { edges } => {
                    for (i, e) in edges.iter().enumerate() {
                        let next = &edges[(i + 1) % edges.len()];
                        assert_eq!(e.to, next.from, "{}: the cycle does not close", ex.test);
                    }
                    edges.clone()
                }
                Witness::Reflexive { edge, event } => {
                    assert_eq!((edge.from, edge.to), (*event, *event));
                    vec![edge.clone()]
                }
                Witness::Pair { edge } => vec![edge.clone()],
                Witness::Empty => vec![],
            };
            for e in &edges {
                assert!(!e.labels.is_empty(), "{}: an edge without a label", ex.test);
                for l in &e.labels {
                    let pairs = r.execution.relation(l).unwrap_or_else(|| {
                        panic!("{}: label `{l}` not carried by the execution", ex.test)
                    });
                    assert!(
                        pairs.contains(&(e.from, e.to)),
                        "{}: edge {}->{} is not in `{l}`",
                        ex.test,
                        e.from,
                        e.to
                    );
                }
            }
        }
    }
}

#[test]
fn mp_relacq_same_workgroup_is_forbidden_by_the_coherence_cycle() {
    let (source, program) = corpus("mp/MP-relacq-wg.litmus");
    let opts = vkherd::Options::default();
    let ex = explain(
        &program,
        Some(&source),
        &opts,
        &Target::Condition,
        &["locord", "hb", "sw"],
    )
    .unwrap();
    assert_eq!(ex.states.len(), 1);
    let st = &ex.states[0];
    assert_eq!(st.state, "1:r0=1; 1:r1=0;");
    assert_eq!(st.verdict, "forbidden");
    assert_eq!(st.reasons[0].check, "consistent");
    assert_witnesses_real(&ex);
}

#[test]
fn witnesses_reach_their_states() {
    let (source, program) = corpus("mp/MP-relacq-wg-crosswg.litmus");
    let opts = vkherd::Options::default();
    let w = witness_executions(&program, Some(&source), &opts, &[]).unwrap();
    assert_eq!(w.len(), 4);
    for (state, ex) in &w {
        let _: &Execution = ex;
        assert_eq!(ex.state, vkherd::execution::state_text(&program, state));
    }
}
