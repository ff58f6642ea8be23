//! Plain generate-and-test: every rf (mixed-radix index over the reads' sources) times
//! every asmo, each judged in full. The reference the pruned search is tested against.

use crate::candidates::{rf_options, AsmoOrders};
use crate::combine::{layout, meetings, Meeting};
use crate::ctx::Ctx;
use crate::engine::{Asmo, PreparedModel};
use crate::error::{EnumError, EnumErrorKind};
use crate::options::EnumOptions;
use crate::paths::{thread_paths, PathCombinations, ThreadPaths};
use crate::stats::EnumStats;
use crate::values::Source;
use crate::visitor::Visitor;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use vkherd_model::{EventSet, Program, Rel, Statics};

pub(crate) fn enumerate<P: PreparedModel, V: Visitor>(
    ctx: &Ctx<'_, P, V>,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let s = ctx.s;
    let options = rf_options(ctx.program, s);
    let reads: Vec<usize> = (0..s.n()).filter(|&e| options[e].is_some()).collect();
    let radices: Vec<u64> = reads
        .iter()
        .map(|&e| options[e].as_ref().map_or(0, |o| o.len() as u64))
        .collect();
    let Some(total_rf) = radices.iter().try_fold(1u64, |acc, &r| acc.checked_mul(r)) else {
        return Err(EnumError::of_kind(EnumErrorKind::TooManyReadsFrom, 0));
    };
    let asmos: Vec<Asmo<P>> = AsmoOrders::new(s, (ctx.asmo_pairs.clone(), ctx.asmo_shape))
        .take_while(|_| ctx.budget.alive())
        .map(|a| ctx.asmo(a))
        .collect();
    let overflow = AtomicBool::new(false);
    let result = (0..total_rf)
        .into_par_iter()
        // Stop taking rf indices once the budget is spent (there may be billions left).
        .take_any_while(|_| ctx.budget.alive())
        .fold(
            || (V::Acc::default(), EnumStats::default()),
            |(mut acc, mut st), index| {
                // Decode the mixed-radix index into one source per read.
                let mut rf_src: Vec<Option<Source>> = vec![None; s.n()];
                let mut rest = index;
                let mut rf = Rel::empty(s.n());
                let mut rfinit = EventSet::new(s.n());
                for (k, &e) in reads.iter().enumerate() {
                    let src = options[e].as_ref().expect("read")[(rest % radices[k]) as usize];
                    rest /= radices[k];
                    rf_src[e] = Some(src);
                    match src {
                        Source::Init => rfinit.insert(e),
                        Source::Write(w) => rf.insert(w, e),
                    }
                }
                // Sharding: every candidate (rf index, asmo number) is a work unit.
                let owned = |a: usize| ctx.owns_candidate(index, a as u64);
                if !(0..asmos.len()).any(owned) {
                    return (acc, st);
                }
                let Ok(solutions) = ctx.solver.solve(&rf_src) else {
                    overflow.store(true, Ordering::Relaxed);
                    return (acc, st);
                };
                for (a, asmo) in asmos.iter().enumerate() {
                    if !owned(a) {
                        continue;
                    }
                    if ctx.visitor.done() || !ctx.budget.take() {
                        return (acc, st);
                    }
                    ctx.visit_leaf(&mut acc, &mut st, &rf, &rfinit, asmo, &solutions);
                }
                (acc, st)
            },
        )
        .reduce(
            || (V::Acc::default(), EnumStats::default()),
            |(a1, mut s1), (a2, s2)| {
                s1.add(&s2);
                (ctx.visitor.merge(a1, a2), s1)
            },
        );
    if overflow.load(Ordering::Relaxed) {
        return Err(EnumError::thin_air());
    }
    Ok(result)
}
/// The number of candidates plain enumeration (`naive`) would examine, or `None` if it
/// exceeds `cap` (or the paths exceed the limits). For tests that compare against it.
pub fn naive_size(program: &Program, opts: &EnumOptions, cap: u64) -> Option<u64> {
    let per_thread = program
        .threads
        .iter()
        .enumerate()
        .map(|(t, thread)| thread_paths(thread, t, opts.run.unroll, opts.path_limits).ok())
        .collect::<Option<Vec<ThreadPaths>>>()?;
    let mut total = 0u64;
    for combo in PathCombinations::new(&per_thread) {
        let lay = layout(program, &combo);
        let Ok(Meeting::Instances(scbarinsts)) = meetings(program, &lay) else {
            continue;
        };
        for scbarinst in scbarinsts {
            let s = Statics::new(
                program,
                lay.events.clone(),
                scbarinst,
                &opts.engine.statics_options(),
            );
            let rf: u64 = rf_options(program, &s)
                .iter()
                .flatten()
                .try_fold(1u64, |acc, o| acc.checked_mul(o.len() as u64))?;
            if rf == 0 {
                continue;
            }
            let asmo_cap = (cap / rf).saturating_add(1) as usize;
            let asmo = AsmoOrders::new(&s, opts.engine.asmo_pairs(program, &s))
                .take(asmo_cap)
                .count() as u64;
            total = total.checked_add(rf.checked_mul(asmo)?)?;
            if total > cap {
                return None;
            }
        }
    }
    Some(total)
}
