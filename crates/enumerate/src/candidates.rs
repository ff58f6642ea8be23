//! The choices of a candidate execution on a fixed path combination: rf sources per read
//! and `asmo` orders (semantics.md "Candidate executions", items 2 and 3).

use crate::values::Source;
use vkherd_model::{Instruction, Pin, Program, Rel, Statics};

/// The possible rf sources of every event (`None` for events that are not reads).
pub fn rf_options(program: &Program, s: &Statics) -> Vec<Option<Vec<Source>>> {
    (0..s.n)
        .map(|e| {
            if !s.r.contains(e) {
                return None;
            }
            let ev = &s.events[e];
            let pin = match &program.threads[ev.thread].code[ev.instr] {
                Instruction::Access(a) => a.pin,
                _ => None,
            };
            Some(match pin {
                Some(Pin::Init) => vec![Source::Init],
                Some(Pin::Impossible) => Vec::new(),
                Some(Pin::Write { thread, index }) => s
                    .events
                    .iter()
                    .position(|w| w.thread == thread && w.instr == index)
                    .filter(|&w| w != e && s.w.contains(w))
                    .map(Source::Write)
                    .into_iter()
                    .collect(),
                // rf in (W->(R-RFINIT)) & (sloc-iden), or the initial value.
                None => std::iter::once(Source::Init)
                    .chain(
                        s.w.iter()
                            .filter(|&w| w != e && s.sloc.contains(w, e))
                            .map(Source::Write),
                    )
                    .collect(),
            })
        })
        .collect()
}

/// Every `asmo`: a strict partial order on atomic writes whose pairs, in either direction,
/// are exactly the mutordatom pairs of atomic writes (`rai[asmo] = ((A&W)->(A&W)) &
/// mutordatom`, `strict_partial_order[asmo]`).
///
/// Enumerated by orienting each mutually-ordered pair both ways and keeping the
/// orientations that are transitive (hence acyclic, being irreflexive and antisymmetric).
pub fn asmo_options(s: &Statics) -> Vec<Rel> {
    let aw = s.a.inter(&s.w);
    let pairs: Vec<(usize, usize)> = s
        .mutordatom
        .restrict(&aw, &aw)
        .pairs()
        .filter(|&(a, b)| a < b)
        .collect();
    let mut out = Vec::new();
    let mut current = Rel::empty(s.n);
    orient(&pairs, 0, &mut current, &mut out);
    out
}

fn orient(pairs: &[(usize, usize)], i: usize, current: &mut Rel, out: &mut Vec<Rel>) {
    if i == pairs.len() {
        if current.is_transitive() {
            out.push(current.clone());
        }
        return;
    }
    let (a, b) = pairs[i];
    for (x, y) in [(a, b), (b, a)] {
        current.insert(x, y);
        orient(pairs, i + 1, current, out);
        current.remove(x, y);
    }
}
