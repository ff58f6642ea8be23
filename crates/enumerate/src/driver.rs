//! The run: every thread's paths, every path combination and barrier meeting, each
//! searched (or plainly enumerated) in parallel, the results merged.

use crate::budget::Budget;
use crate::candidates::asmo_pairs;
use crate::combine::{check_instances, layout, meetings, Layout, Meeting};
use crate::ctx::Ctx;
use crate::engine::{with_engine, AnyEngine, CoreTerms, Engine, Shortcuts};
use crate::error::{barrier_error, EnumError, EnumErrorKind};
use crate::options::EnumOptions;
use crate::paths::{thread_paths, Path, PathCombinations, ThreadPaths};
use crate::shard::{mix, WHOLE_COMBINATIONS_PER_SHARD};
use crate::stats::EnumStats;
use crate::values::ValueSolver;
use crate::visitor::Visitor;
use crate::witness::WitnessTally;
use crate::{naive, search};
use rayon::prelude::*;
use vkherd_model::{Program, Rel, StaticRel, Statics};

/// Enumerates every candidate of `program` and folds them with `visitor`, judged by the
/// engine `opts` names.
pub fn enumerate<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
) -> Result<(V::Acc, EnumStats), EnumError> {
    // The deadline counts from here, so that path enumeration is inside the time limit.
    enumerate_in(program, opts, visitor, &Budget::of(&opts.run))
}

/// [`enumerate`] within `budget`, which the caller shares with other searches of the
/// same test (the liveness check after the safety search: one limit per test).
pub fn enumerate_in<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    budget: &Budget,
) -> Result<(V::Acc, EnumStats), EnumError> {
    with_engine!(&opts.engine, e => enumerate_with(program, e, opts, visitor, budget))
}

/// [`enumerate`] with `engine`, the engine `opts` holds, unwrapped: the search is
/// monomorphised for it.
fn enumerate_with<E: Engine, V: Visitor>(
    program: &Program,
    engine: &E,
    opts: &EnumOptions,
    visitor: &V,
    budget: &Budget,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let mut stats = EnumStats::default();
    let witnesses = WitnessTally::default();
    let per_thread = all_thread_paths(program, opts)?;
    let panic_on_purpose = test_panic_requested(program);
    stats.dropped_paths = per_thread.iter().map(|tp| tp.dropped).sum();
    stats.thread_without_paths = per_thread.iter().position(|tp| tp.paths.is_empty());
    let acc = V::Acc::default();
    let combos = PathCombinations::new(&per_thread);
    if combos.total() > opts.max_path_combinations {
        let kind = EnumErrorKind::TooManyPathCombinations {
            combinations: combos.total(),
            limit: opts.max_path_combinations,
        };
        return Err(EnumError::of_kind(kind, opts.run.unroll));
    }
    // Sharding by whole path combinations when there are enough of them.
    let whole = opts
        .run
        .shard
        .filter(|sh| combos.total() >= WHOLE_COMBINATIONS_PER_SHARD.saturating_mul(sh.count));
    // Path combinations run in parallel; their results merge commutatively, and of several
    // errors the one of the first combination (in odometer order) is reported, so the
    // output does not depend on scheduling.
    // Once the budget is spent the remaining combinations (up to millions) are not even
    // generated: stopping promptly is part of honouring --timeout.
    let (part, part_stats, error) = combos
        .enumerate()
        .take_while(|_| budget.alive())
        .par_bridge()
        .fold(
            || {
                (
                    V::Acc::default(),
                    EnumStats::default(),
                    None::<(usize, EnumError)>,
                )
            },
            |(acc, mut st, err), (index, combo)| {
                if err.is_some() || !budget.alive() || visitor.done() {
                    return (acc, st, err);
                }
                if panic_on_purpose {
                    panic!(
                        "VKHERD_TEST_PANIC: a panic on purpose in `{}`",
                        program.name
                    );
                }
                if whole.is_some_and(|sh| !sh.owns(mix(0, index as u64))) {
                    return (acc, st, err);
                }
                let split = opts.run.shard.is_some() && whole.is_none();
                match combination(
                    program,
                    (engine, opts),
                    visitor,
                    (budget, &witnesses),
                    (index as u64, split),
                    &combo,
                ) {
                    Ok(Some((a, s))) => {
                        st.add(&s);
                        (visitor.merge(acc, a), st, err)
                    }
                    Ok(None) => {
                        // A deadlocked combination has no work units: one shard counts it.
                        if !split
                            || opts
                                .run
                                .shard
                                .is_some_and(|sh| sh.owns(mix(0, index as u64)))
                        {
                            st.deadlocked_paths += 1;
                        }
                        (acc, st, err)
                    }
                    Err(e) => (acc, st, Some((index, e))),
                }
            },
        )
        .reduce(
            || (V::Acc::default(), EnumStats::default(), None),
            |(a1, mut s1, e1), (a2, s2, e2)| {
                s1.add(&s2);
                s1.deadlocked_paths += s2.deadlocked_paths;
                let err = match (e1, e2) {
                    (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
                    (x, y) => x.or(y),
                };
                (visitor.merge(a1, a2), s1, err)
            },
        );
    if let Some((_, e)) = error {
        return Err(e);
    }
    stats.add(&part_stats);
    stats.deadlocked_paths += part_stats.deadlocked_paths;
    stats.stopped = budget.stop_reason();
    Ok((visitor.merge(acc, part), stats))
}

/// Debug builds only: is a panic asked for in this test's enumeration (its name is the
/// value of `VKHERD_TEST_PANIC`)? It is raised in a worker thread, as a bug would be, so
/// that the tests can check that a panic loses no other test's report
/// (crates/vkherd/tests/failing_tests.rs).
fn test_panic_requested(program: &Program) -> bool {
    cfg!(debug_assertions)
        && std::env::var_os("VKHERD_TEST_PANIC").is_some_and(|n| n == program.name.as_str())
}

/// The paths of every thread, within the limits: those of [`PathLimits`] per thread, and
/// `max_events` in the largest path combination (the longest path of every thread).
pub(crate) fn all_thread_paths(
    program: &Program,
    opts: &EnumOptions,
) -> Result<Vec<ThreadPaths>, EnumError> {
    let per_thread = (program.threads.iter().enumerate())
        .map(|(t, thread)| {
            thread_paths(thread, t, opts.run.unroll, opts.path_limits)
                .map_err(|e| EnumError::of_kind(EnumErrorKind::Paths(e), opts.run.unroll))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let events: usize = (program.threads.iter().zip(&per_thread))
        .map(|(thread, tp)| tp.paths.iter().map(|p| p.events(thread)).max().unwrap_or(0))
        .sum();
    if events > opts.max_events {
        let kind = EnumErrorKind::TooManyEvents {
            events,
            limit: opts.max_events,
        };
        return Err(EnumError::of_kind(kind, opts.run.unroll));
    }
    Ok(per_thread)
}

/// Enumerates one path combination: `None` if it deadlocks at a barrier.
fn combination<E: Engine, V: Visitor>(
    program: &Program,
    (engine, opts): (&E, &EnumOptions),
    visitor: &V,
    (budget, witnesses): (&Budget, &WitnessTally),
    (combination, split): (u64, bool),
    combo: &[&Path],
) -> Result<Option<(V::Acc, EnumStats)>, EnumError> {
    let lay = layout(program, combo);
    let scbarinsts = match meetings(program, &lay).map_err(|e| barrier_error(program, &lay, e))? {
        Meeting::Deadlock => return Ok(None),
        Meeting::Instances(v) => v,
    };
    search_layout_with(
        program,
        (engine, opts),
        visitor,
        (budget, witnesses),
        (combination, split),
        combo,
        (&lay, scbarinsts),
        match opts.value_screen {
            true => Screening::Values,
            false => Screening::Visitor,
        },
    )
    .map(Some)
}

/// Enumerates the rf × asmo candidates of one laid-out path combination, for each of its
/// barrier meetings (`scbarinst` choices), judged by the engine `opts` names (the
/// liveness search's entry: it lays out its own combinations).
pub(crate) fn search_layout<V: Visitor>(
    program: &Program,
    opts: &EnumOptions,
    visitor: &V,
    budgets: (&Budget, &WitnessTally),
    unit: (u64, bool),
    combo: &[&Path],
    layout: (&Layout, Vec<Rel>),
) -> Result<(V::Acc, EnumStats), EnumError> {
    with_engine!(&opts.engine, e => search_layout_with(
        program,
        (e, opts),
        visitor,
        budgets,
        unit,
        combo,
        layout,
        Screening::Visitor,
    ))
}

/// The barrier checks [`search_layout`] makes of each meeting before searching it, for
/// a caller that skips the search (the liveness screen): the same error, or none. A
/// meeting without barriers passes them (its instances are empty).
pub(crate) fn check_meetings(
    program: &Program,
    engine: &AnyEngine,
    lay: &Layout,
    scbarinsts: &[Rel],
) -> Result<(), EnumError> {
    for scbarinst in scbarinsts.iter().filter(|r| !r.is_empty()) {
        let statics = Statics::new(
            program,
            lay.events.clone(),
            scbarinst.clone(),
            &engine.statics_options(),
        );
        check_instances(
            statics.rel(StaticRel::ScbarInst),
            statics.rel(StaticRel::Po),
            statics.events(),
            program.dialect,
        )
        .map_err(|e| barrier_error(program, lay, e))?;
    }
    Ok(())
}

/// Which screen a barrier meeting passes before it is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Screening {
    /// The visitor's own ([`Visitor::may_find`]; the liveness check screens there, with
    /// its conditions on stuck executions).
    Visitor,
    /// The visitor's, then the value screen ([`values_may_agree`]): the safety search.
    Values,
}

/// Can some consistent candidate of this barrier meeting take every branch decision of
/// its paths? `false` only when none can, by the liveness screen's value
/// over-approximation (liveness/screen.rs, with no stuck-execution roles): sets of
/// values per event that hold the values of every consistent candidate (thin-air
/// guesses included), with the sources the search may offer (its rf options minus those
/// the visitor refuses and, where the model entails the coherence core, those closing a
/// core cycle), and the RMW matching of that core. Such a meeting has no leaf whose
/// values agree with its branches, so the search would visit no candidate and count
/// nothing: the states, their counts, the race flag and `consistent` are unchanged by
/// skipping it. The screen also refuses to skip where the search could stop with the
/// thin-air error, so errors are unchanged. Only the effort counters change: the skipped
/// meeting is counted as pruned at its root (its rf completions), as the search counts
/// any cut subtree, instead of whatever leaves and subtrees the search would have
/// examined. The plain enumeration (`--naive`) and visitors that see inconsistent
/// candidates do not screen.
fn values_may_agree<V: Visitor>(screened: &Screened<'_, V>, combo: &[&Path], lay: &Layout) -> bool {
    // A combination without a jump or a compare-exchange takes no branch decision for
    // the screen to refute, so it is searched unscreened, as before the screen (always
    // sound: answering yes only keeps a meeting). This keeps straight-line tests (most of
    // the corpus) at their cost without the screen.
    let decides = |p: &&Path| (p.steps.iter()).any(|s| !matches!(s, crate::paths::Step::Exec(_)));
    if !combo.iter().any(decides) {
        return true;
    }
    let rf_allowed = |e: usize, s: crate::values::Source| screened.visitor.rf_allowed(e, s);
    let paths = combo.to_vec();
    crate::liveness::screen::may_have_values(&crate::liveness::screen::Combination {
        program: screened.program,
        paths,
        lay,
        universe: screened.universe,
        roles: None,
        rf_allowed: &rf_allowed,
        core: (screened.core.cloned()).map(|terms| {
            crate::liveness::screen::Core::new(screened.statics, terms, screened.asmo_pairs)
        }),
        probe_values: true,
    })
}

/// What the value screen reads of a barrier meeting, before the model is prepared.
struct Screened<'a, V> {
    program: &'a Program,
    visitor: &'a V,
    /// The values a thin-air guess may take (`ValueSolver::universe`).
    universe: &'a [i64],
    /// The coherence core the model entails on the meeting.
    core: Option<&'a CoreTerms>,
    statics: &'a Statics,
    asmo_pairs: &'a Rel,
}

/// The rf completions of a whole barrier meeting (what the search counts for a subtree
/// cut at its root): the product of each read's rf options.
fn rf_completions(program: &Program, s: &Statics) -> u128 {
    crate::candidates::rf_options(program, s)
        .iter()
        .flatten()
        .fold(1u128, |acc, o| acc.saturating_mul(o.len() as u128))
}

/// [`search_layout`] with the engine unwrapped.
#[allow(clippy::too_many_arguments)]
fn search_layout_with<E: Engine, V: Visitor>(
    program: &Program,
    (engine, opts): (&E, &EnumOptions),
    visitor: &V,
    (budget, witnesses): (&Budget, &WitnessTally),
    (combination, split): (u64, bool),
    combo: &[&Path],
    (lay, scbarinsts): (&Layout, Vec<Rel>),
    screening: Screening,
) -> Result<(V::Acc, EnumStats), EnumError> {
    let solver = ValueSolver::new(program, combo.to_vec(), lay).with_deadline(budget);
    let wanted = visitor.wanted();
    let mut acc = V::Acc::default();
    let mut stats = EnumStats::default();
    // The syntactic dependencies, only for a model that reads them: for any other they
    // stay empty relations no check, definition or wanted relation reads, so leaving
    // them out changes no result.
    let deps = engine
        .reads_dependencies()
        .then(|| crate::deps::dependencies(program, combo, lay));
    for (meeting, scbarinst) in scbarinsts.into_iter().enumerate() {
        let mut statics = Statics::new(
            program,
            lay.events.clone(),
            scbarinst,
            &engine.statics_options(),
        );
        if let Some(d) = &deps {
            statics = statics.with_dependencies(d.addr.clone(), d.data.clone(), d.ctrl.clone());
        }
        check_instances(
            statics.rel(StaticRel::ScbarInst),
            statics.rel(StaticRel::Po),
            statics.events(),
            program.dialect,
        )
        .map_err(|e| barrier_error(program, lay, e))?;
        let caps = engine.capabilities();
        let (asmo_pairs, asmo_shape) =
            asmo_pairs(program, &statics, engine.ordered_writes(&statics));
        let naive = opts.run.naive || visitor.needs_inconsistent();
        // Plain enumeration takes no shortcut: it need not ask.
        let shortcuts = match &caps.claimed {
            Some(claimed) => claimed.clone(),
            None if naive => Shortcuts::default(),
            None => engine.shortcuts(&statics, &asmo_pairs),
        };
        // The visitor proves it would count none of this meeting's candidates.
        if !visitor.may_find(&statics, &shortcuts, &asmo_pairs) {
            continue;
        }
        // The value screen, before the model is prepared for a meeting it skips.
        let unit = (combination, meeting as u64);
        if screening == Screening::Values && !naive {
            let screened = Screened {
                program,
                visitor,
                universe: solver.universe(),
                core: shortcuts.core.as_ref(),
                statics: &statics,
                asmo_pairs: &asmo_pairs,
            };
            if !values_may_agree(&screened, combo, lay) {
                let root = crate::ctx::unit_root(opts, unit, split);
                let cut = rf_completions(program, &statics);
                crate::ctx::prune(opts, split, &mut stats, root, cut);
                continue;
            }
        }
        let prepared = engine.prepare(&statics, &wanted);
        let ctx = Ctx {
            program,
            s: &statics,
            model: &prepared,
            caps,
            shortcuts,
            asmo_pairs,
            asmo_shape,
            solver: &solver,
            opts,
            visitor,
            budget,
            witnesses,
            unit,
            split,
        };
        let part = if opts.run.naive || visitor.needs_inconsistent() {
            naive::enumerate(&ctx)?
        } else {
            search::enumerate(&ctx)?
        };
        stats.add(&part.1);
        acc = visitor.merge(acc, part.0);
        if !budget.alive() || visitor.done() {
            break;
        }
    }
    Ok((acc, stats))
}
