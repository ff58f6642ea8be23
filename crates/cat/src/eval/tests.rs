//! Each pass alone, on small models over four events whose static bases are made up here
//! (`po` = 0→1→2→3 transitively, `sloc` = {(0,2), (2,0)}, `W` = {1, 3}, every other
//! static base empty). The whole pipeline is checked against the plain evaluator on the
//! bundled models by the enumerator's tests (crates/enumerate/tests/cat_model.rs).

use super::hoist::hoist;
use super::program::{Input, Loc, Program, Step};
use super::specialise::specialise;
use super::stage::{stage, Arg};
use crate::base::{BaseName, Kind, Stage, Value};
use crate::ir::{Op, N};
use crate::kernel::Factor;
use crate::{Model, Source};
use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_model::{EventSet, Rel};

const EVENTS: usize = 4;

fn model(text: &str) -> Model {
    let src = Source {
        name: "test.cat".into(),
        text: Arc::from(text),
    };
    Model::compile(src, &BTreeSet::new()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn po() -> Rel {
    Rel::from_pairs(EVENTS, [(0, 1), (1, 2), (2, 3)]).plus()
}

fn statics(b: BaseName) -> Value {
    match b {
        BaseName::Po => Value::Rel(po()),
        BaseName::Sloc => Value::Rel(Rel::from_pairs(EVENTS, [(0, 2), (2, 0)])),
        BaseName::W => Value::Set(EventSet::from_iter(EVENTS, [1, 3])),
        BaseName::Ev => Value::Set(EventSet::full(EVENTS)),
        b if b.kind() == Kind::Set => Value::Set(EventSet::new(EVENTS)),
        _ => Value::Rel(Rel::empty(EVENTS)),
    }
}

fn node(m: &Model, name: &str) -> N {
    m.named(name).unwrap_or_else(|| panic!("no `{name}`"))
}

fn base(m: &Model, b: BaseName) -> N {
    let i = m.graph.nodes.iter().position(|x| x.op == Op::Base(b));
    i.expect("the model reads it") as N
}

/// The first pass on the nodes `roots` name.
fn specialised<'m>(m: &'m Model, roots: &[&str]) -> Program<'m> {
    let roots: Vec<N> = roots.iter().map(|r| node(m, r)).collect();
    specialise(&m.graph, EVENTS, &statics, &roots)
}

#[test]
fn static_nodes_are_computed() {
    let m = model("let a = po ; sloc\nlet b = po+ | sloc");
    let p = specialised(&m, &["a", "b"]);
    let a = p.known_value(node(&m, "a")).expect("known");
    assert_eq!(a, &Value::Rel(Rel::from_pairs(EVENTS, [(0, 0), (1, 0)])));
    let mut b = po();
    b.union_with(&Rel::from_pairs(EVENTS, [(0, 2), (2, 0)]));
    assert_eq!(p.known_value(node(&m, "b")), Some(&Value::Rel(b)));
}

/// `sthd` is empty here: `rf & sthd` is empty without looking at `rf` (its node is never
/// specialised), `rf | sthd` is `rf`, and `rf ; sthd` is empty.
#[test]
fn empty_operands_absorb_or_vanish() {
    let m = model("let a = rf & sthd\nlet b = rf | sthd\nlet c = rf ; sthd");
    let p = specialised(&m, &["a"]);
    assert!(p.known_value(node(&m, "a")).is_some_and(Value::is_empty));
    assert_eq!(
        p.loc[base(&m, BaseName::Rf) as usize],
        Loc::InRec,
        "rf was not needed"
    );
    let p = specialised(&m, &["b", "c"]);
    let (b, rf) = (node(&m, "b"), base(&m, BaseName::Rf));
    assert_eq!(p.resolve(b), rf);
    assert_eq!(p.loc[b as usize], Loc::Cand(u32::MAX));
    assert!(matches!(p.steps[rf as usize], Some(Step::Input(Input::Rf))));
    assert!(p.known_value(node(&m, "c")).is_some_and(Value::is_empty));
}

/// The known operands of a union are folded into one constant; what depends on asmo
/// alone is staged per asmo.
#[test]
fn known_operands_fold_and_stages_follow_the_operands() {
    let m = model("let a = po | sloc | rf\nlet b = asmo ; rf\nlet c = asmo | sthd");
    let p = specialised(&m, &["a", "b", "c"]);
    let a = node(&m, "a");
    let Some(Step::Union(Some(Value::Rel(k)), dynamic)) = &p.steps[a as usize] else {
        panic!("{:?}", p.steps[a as usize]);
    };
    let mut want = po();
    want.union_with(&Rel::from_pairs(EVENTS, [(0, 2), (2, 0)]));
    assert_eq!(k, &want);
    assert_eq!(dynamic, &vec![base(&m, BaseName::Rf)]);
    assert_eq!(p.stage[a as usize], Stage::Candidate);
    assert_eq!(p.stage[node(&m, "b") as usize], Stage::Candidate);
    let c = node(&m, "c");
    assert_eq!(p.resolve(c), base(&m, BaseName::Asmo));
    assert_eq!(p.loc[c as usize], Loc::Asmo(u32::MAX));
}

/// `(po | rf)+`: the closure of the known part is computed once, and the candidate's
/// pairs are added to it.
#[test]
fn hoist_extends_a_known_closure() {
    let m = model("let a = (po | sloc | rf)+");
    let mut p = specialised(&m, &["a"]);
    let a = node(&m, "a") as usize;
    assert!(matches!(p.steps[a], Some(Step::Raw(Op::Plus(_)))));
    hoist(&mut p);
    let Some(Step::PlusOver(closed, dynamic)) = &p.steps[a] else {
        panic!("{:?}", p.steps[a]);
    };
    assert!(*closed as usize >= m.graph.nodes.len(), "a new node");
    let mut want = po();
    want.union_with(&Rel::from_pairs(EVENTS, [(0, 2), (2, 0)]));
    want.close_in_place();
    assert_eq!(p.known_value(*closed), Some(&Value::Rel(want)));
    assert_eq!(dynamic, &vec![base(&m, BaseName::Rf)]);
}

/// `rf ; (po | (rf & sthd)) ; [W]`: the middle factor is `po` once `rf & sthd` is known
/// empty, so `po ; [W]` is computed once, as a new known node.
#[test]
fn hoist_computes_runs_that_became_static() {
    let m = model("let a = rf ; (po | (rf & sthd)) ; [W]");
    let mut p = specialised(&m, &["a"]);
    let a = node(&m, "a") as usize;
    let Some(Step::Seq(before)) = p.steps[a].clone() else {
        panic!("{:?}", p.steps[a]);
    };
    assert_eq!(before.len(), 3);
    hoist(&mut p);
    let Some(Step::Seq(after)) = &p.steps[a] else {
        panic!("{:?}", p.steps[a]);
    };
    assert_eq!(after[0], Factor::Rel(base(&m, BaseName::Rf)));
    assert_eq!(after.len(), 2);
    let Factor::Rel(run) = after[1] else {
        panic!("{after:?}")
    };
    let want = po().restrict_range(&EventSet::from_iter(EVENTS, [1, 3]));
    assert_eq!(p.known_value(run), Some(&Value::Rel(want)));
}

/// Only needed nodes get slots, in index order; aliases share their target's slot; a
/// candidate step's operands are laid out with whether an empty one empties it.
#[test]
fn stage_assigns_slots_to_needed_nodes() {
    let m =
        model("let s = asmo ; po\nlet a = (s | rf) & sloc\nlet b = rf | sthd\nlet u = rf ; asmo");
    let roots: Vec<N> = ["a", "b"].iter().map(|r| node(&m, r)).collect();
    let mut p = specialise(&m.graph, EVENTS, &statics, &roots);
    hoist(&mut p);
    let sched = stage(&mut p, &roots);
    let (s, a, b, rf) = (
        node(&m, "s"),
        node(&m, "a"),
        node(&m, "b"),
        base(&m, BaseName::Rf),
    );
    // The asmo input itself is computed per asmo, before what reads it.
    assert_eq!(sched.asmo_program, vec![base(&m, BaseName::Asmo), s]);
    assert_eq!(p.loc[s as usize], Loc::Asmo(1));
    assert_eq!(
        p.loc[b as usize], p.loc[rf as usize],
        "an alias shares the slot"
    );
    let Loc::Cand(a_slot) = p.loc[a as usize] else {
        panic!("{:?}", p.loc[a as usize]);
    };
    assert_eq!(sched.plans.len(), 3, "rf, s | rf, and a");
    let plan = &sched.plans[a_slot as usize];
    assert_eq!(plan.node, a);
    // `sloc` is folded into the step's constant; `s | rf` is its operand, and an empty
    // value of it empties the intersection.
    let Some(Step::Inter(Some(_), dynamic)) = &p.steps[a as usize] else {
        panic!("{:?}", p.steps[a as usize]);
    };
    let Loc::Cand(union_slot) = p.loc[dynamic[0] as usize] else {
        panic!("{:?}", p.loc[dynamic[0] as usize]);
    };
    let args = &sched.args[plan.args.start as usize..plan.args.end as usize];
    assert_eq!(args, &[(Arg::Cand(union_slot), true)]);
    let plan = &sched.plans[union_slot as usize];
    let args = &sched.args[plan.args.start as usize..plan.args.end as usize];
    assert!(args.contains(&(Arg::Asmo(1), false)), "{args:?}");
    let Loc::Cand(rf_slot) = p.loc[rf as usize] else {
        panic!()
    };
    assert_eq!(sched.plans[rf_slot as usize].input, Some(Input::Rf));
    assert_eq!(
        p.loc[node(&m, "u") as usize],
        Loc::InRec,
        "not needed: never specialised"
    );
}
