//! The witness that a candidate fails a check: the first failing check, and a shortest
//! cycle, reflexive event or pair of the checked relation, each edge labelled with the
//! model's definitions it comes from.

use super::{Edge, Step, Witness};
use std::collections::VecDeque;
use vkherd_cat::ast::CheckKind;
use vkherd_cat::inspect::Inspection;
use vkherd_cat::{Model, Value};
use vkherd_enumerate::capture::Captured;

/// The first check of `model` that candidate `c` fails, and a minimal witness of it
/// (`None` if every check holds).
pub fn failure(model: &Model, c: &Captured) -> Option<(usize, Witness)> {
    failure_with(&Inspection::new(
        model, &c.statics, &c.rf, &c.rfinit, &c.asmo,
    ))
}

pub(super) fn failure_with(insp: &Inspection<'_>) -> Option<(usize, Witness)> {
    let check = insp.first_failure()?;
    Some((check, witness_of(insp, check)))
}

/// The labels of edge `(a, b)` of check node `node`.
fn edge(insp: &Inspection<'_>, node: vkherd_cat::ir::N, a: usize, b: usize) -> Edge {
    let origin = insp.edge_origin(node, a, b);
    let mut labels = origin.labels;
    for base in ["po", "rf", "fr", "asmo"] {
        if labels.iter().any(|l| l == base) {
            continue;
        }
        if let Some(Value::Rel(r)) = insp.named(base) {
            if r.contains(a, b) {
                labels.push(base.to_string());
            }
        }
    }
    let steps = origin
        .steps
        .into_iter()
        .map(|st| Step {
            from: st.from,
            to: st.to,
            labels: st.labels,
        })
        .collect();
    Edge {
        from: a,
        to: b,
        labels,
        via: origin.via,
        steps,
    }
}

/// A minimal witness that check `c` fails.
fn witness_of(insp: &Inspection<'_>, c: usize) -> Witness {
    let ch = &insp.model().checks()[c];
    let v = insp.value(ch.node);
    if ch.negated {
        return Witness::Empty;
    }
    match (ch.kind, &v) {
        (CheckKind::Acyclic, Value::Rel(r)) => {
            let cycle = shortest_cycle(r).expect("a failing acyclic check has a cycle");
            let edges = (0..cycle.len())
                .map(|i| edge(insp, ch.node, cycle[i], cycle[(i + 1) % cycle.len()]))
                .collect();
            Witness::Cycle { edges }
        }
        (CheckKind::Irreflexive, Value::Rel(r)) => {
            let e = (0..r.n())
                .find(|&e| r.contains(e, e))
                .expect("a failing irreflexive check has a loop");
            Witness::Reflexive {
                event: e,
                edge: edge(insp, ch.node, e, e),
            }
        }
        (CheckKind::Empty, Value::Rel(r)) => {
            let (a, b) = r.pairs().next().expect("a failing empty check has a pair");
            Witness::Pair {
                edge: edge(insp, ch.node, a, b),
            }
        }
        (CheckKind::Empty, Value::Set(s)) => {
            let e = s.iter().next().expect("a failing empty check has an event");
            Witness::Pair {
                edge: Edge {
                    from: e,
                    to: e,
                    labels: insp.names_of(ch.node).to_vec(),
                    via: Vec::new(),
                    steps: Vec::new(),
                },
            }
        }
        _ => unreachable!("type-checked"),
    }
}

/// A shortest cycle of `r` (BFS from each event; the first shortest by start event), as
/// the events in order.
pub fn shortest_cycle(r: &vkherd_model::Rel) -> Option<Vec<usize>> {
    let n = r.n();
    let mut best: Option<Vec<usize>> = None;
    for start in 0..n {
        // BFS from start; a cycle closes when an edge returns to start.
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        let mut closing = None;
        'bfs: while let Some(x) = queue.pop_front() {
            for y in r.row(x).iter() {
                if y == start {
                    closing = Some(x);
                    break 'bfs;
                }
                if !seen[y] {
                    seen[y] = true;
                    parent[y] = Some(x);
                    queue.push_back(y);
                }
            }
        }
        let Some(mut last) = closing else { continue };
        let mut path = vec![last];
        while let Some(p) = parent[last] {
            path.push(p);
            last = p;
        }
        path.reverse();
        if best.as_ref().is_none_or(|b| path.len() < b.len()) {
            best = Some(path);
        }
    }
    best
}
