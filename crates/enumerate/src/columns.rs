//! The final-state columns a partial execution already determines, for the visitors that
//! cut subtrees by the state they reach (`--speedcheck`, `--states-only`).

use crate::values::{Source, ValueSolver};
use vkherd_model::{Observable, Program, Rel, StaticSet, Statics};

/// The value of each observed column (in [`Program::observed`] order) that every
/// completion of the partial execution gives, or `None` if it may vary.
///
/// - A register: its final value once the forward run determines it (see
///   [`ValueSolver::partial_values`]: a known value never changes).
/// - A location without writes: its initial value.
/// - A location whose writes asmo orders totally (every pair of them is in `asmo_pairs`;
///   in Vulkan tests, writes that are all atomic and pairwise mutually ordered; in OpenCL
///   tests, any two writes, and a single write when it is atomic, as in Vulkan tests):
///   the final value is the asmo-last write's when the model's `co` contains asmo and is
///   acyclic in consistent candidates (every other write is co-before it, and a write
///   co-after it would close a cycle), so no consistent execution has another maximum.
///   It is known once the partial `asmo` (transitively closed; every completion contains
///   it) puts one write before all the others, and that write's value is known.
///   Only for models that entail this ([`crate::Shortcuts::final_by_asmo`]):
///   `asmo_pairs` is `None` otherwise.
/// - Any other location: unknown until the leaf (non-atomic writes can leave several final
///   values, decided by locord).
pub fn known_columns(
    program: &Program,
    s: &Statics,
    solver: &ValueSolver<'_>,
    rf: &[Option<Source>],
    asmo: &Rel,
    asmo_pairs: Option<&Rel>,
) -> Vec<Option<i64>> {
    let (regs, writes) = solver.partial_values(rf);
    program
        .observed
        .iter()
        .map(|o| match *o {
            Observable::Reg { thread, reg } => {
                regs[thread].get(reg as usize).copied().unwrap_or(Some(0))
            }
            Observable::Loc(l) => {
                let ws: Vec<usize> = s
                    .set(StaticSet::W)
                    .iter()
                    .filter(|&w| s.events()[w].location == Some(l))
                    .collect();
                if ws.is_empty() {
                    return Some(program.locations[l].init);
                }
                let pairs = asmo_pairs?;
                let totally_ordered = ws
                    .iter()
                    .all(|&a| ws.iter().all(|&b| a == b || pairs.contains(a, b)))
                    && (ws.len() > 1 || s.set(StaticSet::A).contains(ws[0]));
                if !totally_ordered {
                    return None;
                }
                let last = ws
                    .iter()
                    .find(|&&w| ws.iter().all(|&v| v == w || asmo.contains(v, w)))?;
                writes[*last]
            }
        })
        .collect()
}
