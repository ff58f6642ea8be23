//! The second pass: hoist out of the per-candidate steps what does not depend on the
//! candidate, now that specialisation has made more of it known.
//!
//! - A per-candidate `;` chain is split into runs of factors that do not depend on the
//!   candidate, and each run (of two factors or more) is computed once: a static run
//!   now (as a new known value), a per-asmo run once per asmo (as a new per-asmo node).
//!   `sw`'s chains are `[REL & F] ; posemtosc ; [A & W] ; hypors ; (rf & mutordatom) ;
//!   ...`: only the products with `rf & mutordatom` are left per candidate. Exact: `;` is
//!   associative.
//! - A closure `(K | D1 | D2 ...)+` over a known part `K` becomes `K+` (a new known
//!   node) extended by the pairs of the `Di` ([`Step::PlusOver`]). Exact: `(K | D)+` is
//!   the closure of `K+` with `D` added.
//!
//! New nodes get ids from the graph's node count up; their operands are graph nodes, so
//! index order stays topological, and no graph node reads them but candidate steps.

use super::program::{exec, Loc, Program, Step};
use crate::base::{Kind, Stage, Value};
use crate::ir::N;
use crate::kernel::Factor;
use foldhash::{HashMap, HashMapExt};

/// Runs the pass over the specialised nodes of `p`.
pub(super) fn hoist(p: &mut Program<'_>) {
    let count = p.graph.nodes.len();
    let n = p.n;
    let mut runs: HashMap<Vec<(bool, N)>, N> = HashMap::new();
    for i in 0..count {
        if p.stage[i] == Stage::Static || p.alias[i] != i as N {
            continue;
        }
        if let Some(Step::Raw(crate::ir::Op::Plus(a))) = &p.steps[i] {
            let a = p.resolve(*a);
            if let Some(Step::Union(Some(Value::Rel(k)), dynamic)) = &p.steps[a as usize] {
                let dynamic = dynamic.clone();
                let id = p.loc.len() as N;
                p.alias.push(id);
                p.stage.push(Stage::Static);
                p.known.push(Some(Value::Rel(k.plus())));
                p.loc.push(Loc::Known(id));
                p.steps.push(None);
                p.steps[i] = Some(Step::PlusOver(id, dynamic));
            }
            continue;
        }
        // A per-asmo chain stays whole: a new per-asmo node would come after it in the
        // per-asmo program.
        let Some(Step::Seq(factors)) = &p.steps[i] else {
            continue;
        };
        if p.stage[i] != Stage::Candidate {
            continue;
        }
        let factor_stage = |f: &Factor| {
            let (Factor::Rel(x) | Factor::Restrict(x)) = *f;
            let x = p.resolve(x);
            if p.known_value(x).is_some() {
                Stage::Static
            } else {
                p.stage[x as usize]
            }
        };
        let stages: Vec<Stage> = factors.iter().map(factor_stage).collect();
        let mut out: Vec<Factor> = Vec::new();
        let mut changed = false;
        let mut k = 0;
        let factors = factors.clone();
        while k < factors.len() {
            let mut end = k;
            while end < factors.len() && stages[end] != Stage::Candidate {
                end += 1;
            }
            if end - k < 2 {
                out.push(factors[k].clone());
                k += 1;
                continue;
            }
            let run = &factors[k..end];
            let key: Vec<(bool, N)> = run
                .iter()
                .map(|f| match *f {
                    Factor::Rel(x) => (false, x),
                    Factor::Restrict(x) => (true, x),
                })
                .collect();
            let id = match runs.get(&key) {
                Some(&id) => id,
                None => {
                    let id = p.loc.len() as N;
                    let step = Step::Seq(run.to_vec());
                    let st = stages[k..end].iter().copied().max().expect("a run");
                    p.alias.push(id);
                    p.stage.push(st);
                    if st == Stage::Static {
                        let v = exec(&step, Kind::Rel, n, &|m| p.known_value(m).expect("known"));
                        p.known.push(Some(v));
                        p.loc.push(Loc::Known(id));
                        p.steps.push(None);
                    } else {
                        p.known.push(None);
                        p.loc.push(Loc::Asmo(u32::MAX));
                        p.steps.push(Some(step));
                    }
                    runs.insert(key, id);
                    id
                }
            };
            out.push(Factor::Rel(id));
            changed = true;
            k = end;
        }
        if changed {
            p.steps[i] = Some(Step::Seq(out));
        }
    }
}
