//! The liveness check (liveness.md): can some invocation loop or wait forever under a
//! progress model?
//!
//! A layer over the search, in three parts:
//! - [`endings`]: each invocation's paths with their endings (terminated, spinning,
//!   repeating, blocked, paused) and the paths cut by `--unroll`;
//! - [`progress`]: the progress models and the check `ok(g)` over the invocation tree;
//! - [`laps`]: the conditions a consistent candidate must meet to be a stuck execution
//!   (final reads, the lap rule) or to reach a cut.
//!
//! [`check`] combines one path per invocation. **Witnesses**: combinations with some
//! spinning, repeating or blocked invocation, whose endings the progress check accepts and
//! whose barriers can block as the endings say, are searched by the ordinary pruned
//! search (`search_layout`: the same candidates, axioms and cuts as the safety
//! question; the argument that it stays exact is in [`laps`]) with a [`laps::StuckVisitor`].
//! **Cuts**: without a witness, combinations where some invocation is at a cut and the
//! others at any prefix (paused) are searched for a consistent execution whose cut
//! iteration is no spin iteration: one is a reachable cut, and the verdict is `unknown`;
//! none, and every run under the model terminates (`ok`).
//!
//! The screen ([`screen`]): before a combination is searched, a cheap over-approximation
//! of its values (sets per event), its branch decisions, the lap rule's values and,
//! where the model entails the coherence core, the sources coherence allows, proves
//! most combinations empty (about 95% of them on the liveness corpus and generated
//! loops); those are not searched. It only skips combinations where the search would
//! find nothing (and would stop with no error), so verdicts, witnesses, cuts and counts
//! are the plain check's ([`Strategy::Plain`]; tests/liveness_screen.rs compares them).
//!
//! Determinism: combinations are numbered in a fixed order; the least-numbered one with a
//! witness (and in it the least candidate, [`laps::Found::key`]) is reported, whatever
//! the thread count: every combination numbered below the best found so far is searched
//! whole.

pub mod endings;
pub mod laps;
pub mod progress;
mod roles;
pub(crate) mod screen;

use crate::budget::Budget;
use crate::combine::{layout, meetings, Layout, Meeting};
use crate::options::RunConfig;
use crate::paths::{Path, Step};
use crate::{witness, EnumError, EnumOptions, StopReason};
use endings::{thread_endings, Ending, LPath, ThreadEndings};
use laps::{Found, Mode, StuckVisitor};
pub use progress::{
    EndingKind, InvState, Level, Progress, ProgressError, ProgressModel, Tree, INVOCATIONS,
};
use rayon::prelude::*;
use screen::Screen;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use vkherd_model::{Instruction, Program};

/// The answer (liveness.md "Verdicts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Some stuck execution is a witness under the progress model.
    Violation,
    /// No witness, and the bound dropped no reachable path: every run terminates.
    Ok,
    /// No witness, but a loop that is not a spin runs past `--unroll` in some consistent
    /// execution (or the run stopped at a limit first).
    Unknown,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Violation => "violation",
            Verdict::Ok => "ok",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A stuck execution (or, for `unknown`, an execution reaching a cut): one path per
/// invocation with its ending, and the candidate.
#[derive(Debug, Clone)]
pub struct Witness {
    pub paths: Vec<LPath>,
    /// For each thread, the event made by each step of its path.
    pub step_events: Vec<Vec<Option<usize>>>,
    pub execution: crate::capture::Captured,
}

impl Witness {
    /// The ending facts of each thread, for the progress check.
    pub fn states(&self) -> Vec<InvState> {
        self.paths.iter().map(LPath::state).collect()
    }
}

/// The result of the liveness check of one test under one progress model.
#[derive(Debug, Clone)]
pub struct Liveness {
    pub verdict: Verdict,
    pub progress: Progress,
    /// The levels of the test's invocation tree, outermost first (its dialect's).
    pub levels: Vec<Level>,
    /// `Violation`: the witness. `Unknown`: the execution that reaches the cut (none if
    /// the run stopped at a limit first).
    pub witness: Option<Witness>,
    /// `Unknown`: the thread cut by the bound and the backward jump it takes once more.
    pub cut: Option<(usize, usize)>,
    /// The run stopped at `--max-candidates` or `--timeout` before an answer.
    pub stopped: Option<StopReason>,
    /// Path combinations searched.
    pub combinations: u64,
    /// Of those, the ones the screen rejected, whole or in one of their barrier meetings
    /// (screen.rs; 0 for a plain check). For measuring the screen: it counts what the
    /// workers took, which may depend on scheduling, and no report shows it.
    pub screened: u64,
}

/// How [`check_in`] goes through the path combinations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Combinations that the screen proves empty are not searched (`screen.rs`).
    #[default]
    Screened,
    /// Every combination is searched: the reference the screened check is tested
    /// against (same verdicts, witnesses, cuts and counts).
    Plain,
}

/// Checks `program` under `progress` at the bound `opts.run.unroll`, within the limits
/// of `opts.run`.
pub fn check(
    program: &Program,
    opts: &EnumOptions,
    progress: &Progress,
) -> Result<Liveness, EnumError> {
    check_in(
        program,
        opts,
        progress,
        &Budget::of(&opts.run),
        Strategy::Screened,
    )
}

/// [`check`] within `budget`, which the caller may have spent in part on the same test's
/// safety search (one limit per test), going through the combinations as `strategy`
/// says.
pub fn check_in(
    program: &Program,
    opts: &EnumOptions,
    progress: &Progress,
    budget: &Budget,
    strategy: Strategy,
) -> Result<Liveness, EnumError> {
    let tree = Tree::of(program);
    if let Err(e) = progress.on(tree.levels(), program.dialect.title) {
        return Err(EnumError::of_kind(
            crate::error::EnumErrorKind::Progress(e),
            opts.run.unroll,
        ));
    }
    let run = Runner::new(program, opts, budget, strategy);
    let per_thread = all_endings(program, opts)?;
    // Witnesses.
    let options = stuck_options(&per_thread);
    let accept = |paths: &[&LPath]| {
        let inv: Vec<InvState> = paths.iter().map(|p| p.state()).collect();
        some_stuck(&inv) && tree.accepts(progress, &inv)
    };
    // Without a path that can get stuck there is no witness to look for.
    let stuck_somewhere = per_thread.iter().any(|te| {
        te.ends
            .iter()
            .any(|p| p.ending.kind() != EndingKind::Terminated)
    });
    let witness = if stuck_somewhere {
        run.first(&options, &accept, Mode::Witness)?
    } else {
        None
    };
    let mut result = Liveness {
        verdict: Verdict::Violation,
        progress: progress.clone(),
        levels: tree.levels().to_vec(),
        witness: None,
        cut: None,
        stopped: None,
        combinations: 0,
        screened: 0,
    };
    if let Some(w) = witness {
        result.witness = Some(w);
    } else if run.budget.alive() {
        // Cuts: some invocation at a cut, the others at any prefix.
        let options = cut_options(&per_thread);
        let reached = if per_thread.iter().all(|te| te.cuts.is_empty()) {
            None
        } else {
            run.first(&options, &some_cut, Mode::Reach)?
        };
        result.verdict = if reached.is_some() {
            Verdict::Unknown
        } else {
            Verdict::Ok
        };
        if let Some(w) = reached {
            result.cut = w
                .paths
                .iter()
                .enumerate()
                .find_map(|(t, p)| match p.ending {
                    Ending::Cut { jump, .. } => Some((t, jump)),
                    _ => None,
                });
            result.witness = Some(w);
        }
    }
    result.stopped = run.budget.stop_reason();
    if result.stopped.is_some() && result.witness.is_none() {
        // Stopped before an answer: neither ok nor unknown is settled.
        result.verdict = Verdict::Unknown;
    }
    result.combinations = run.combinations.load(Ordering::Relaxed);
    result.screened = run.screened.load(Ordering::Relaxed);
    Ok(result)
}

/// Every tuple of ending facts (one per invocation) that some stuck execution has,
/// whatever the progress model: each combination with a spinning, repeating or blocked
/// invocation searched whole. For tests that check [`check`] against a brute force over
/// progress assignments; exponential, for small tests only.
pub fn stuck_states(
    program: &Program,
    opts: &EnumOptions,
) -> Result<std::collections::BTreeSet<Vec<InvState>>, EnumError> {
    let budget = Budget::of(&opts.run);
    let run = Runner::new(program, opts, &budget, Strategy::Plain);
    let per_thread = all_endings(program, opts)?;
    let options = stuck_options(&per_thread);
    let mut out = std::collections::BTreeSet::new();
    for combo in odometer(&options) {
        let states: Vec<InvState> = combo.iter().map(|p| p.state()).collect();
        if some_stuck(&states)
            && !out.contains(&states)
            && run.search(&combo, Mode::Witness)?.is_some()
        {
            out.insert(states);
        }
    }
    Ok(out)
}

/// The paths a stuck execution can give each thread: its stuck or terminated endings and
/// its paused prefixes.
fn stuck_options(per_thread: &[ThreadEndings]) -> Vec<Vec<&LPath>> {
    per_thread
        .iter()
        .map(|te| te.ends.iter().chain(&te.paused).collect())
        .collect()
}

/// The paths an execution reaching a cut can give each thread: its cuts and its paused
/// prefixes.
fn cut_options(per_thread: &[ThreadEndings]) -> Vec<Vec<&LPath>> {
    per_thread
        .iter()
        .map(|te| te.cuts.iter().chain(&te.paused).collect())
        .collect()
}

/// Some invocation is at a cut.
fn some_cut(paths: &[&LPath]) -> bool {
    paths.iter().any(|p| matches!(p.ending, Ending::Cut { .. }))
}

/// A stuck execution needs a spinning, repeating or blocked invocation.
fn some_stuck(states: &[InvState]) -> bool {
    states.iter().any(|s| {
        matches!(
            s.kind,
            EndingKind::Spinning | EndingKind::Repeating | EndingKind::Blocked
        )
    })
}

fn all_endings(program: &Program, opts: &EnumOptions) -> Result<Vec<ThreadEndings>, EnumError> {
    program
        .threads
        .iter()
        .enumerate()
        .map(|(t, thread)| {
            let mut te = thread_endings(thread, t, opts.run.unroll, opts.path_limits)
                .map_err(|e| EnumError::of_kind(crate::EnumErrorKind::Paths(e), opts.run.unroll))?;
            // Simplest witnesses first: by kind, then by length.
            te.ends
                .sort_by_key(|p| (p.ending.kind(), p.path.steps.len()));
            Ok(te)
        })
        .collect()
}

/// How many times more path combinations the liveness check may walk than a safety run
/// (each invocation also has its paused prefixes and its stuck endings; most
/// combinations are skipped by the progress check before any search).
const LIVENESS_COMBINATIONS: u64 = 16;

/// What the combinations of one run share.
struct Runner<'a> {
    program: &'a Program,
    opts: &'a EnumOptions,
    /// The test's limits, shared by every combination searched.
    budget: &'a Budget,
    tally: witness::WitnessTally,
    /// Path combinations searched.
    combinations: AtomicU64,
    /// How the searches use the screen ([`Strategy`]).
    screen: Screen,
    /// Combinations searched that the screen rejected (or one of whose barrier meetings
    /// it rejected).
    screened: AtomicU64,
}

impl<'a> Runner<'a> {
    fn new(
        program: &'a Program,
        opts: &'a EnumOptions,
        budget: &'a Budget,
        strategy: Strategy,
    ) -> Runner<'a> {
        Runner {
            program,
            opts,
            budget,
            tally: witness::WitnessTally::default(),
            combinations: AtomicU64::new(0),
            screen: match strategy {
                Strategy::Screened => Screen::Skip,
                Strategy::Plain => Screen::Off,
            },
            screened: AtomicU64::new(0),
        }
    }

    /// The least-numbered combination of `options` (one per thread, odometer order, the
    /// last thread fastest) that `wanted` accepts and whose search finds a candidate, and
    /// that candidate.
    fn first(
        &self,
        options: &[Vec<&LPath>],
        wanted: &(dyn Fn(&[&LPath]) -> bool + Sync),
        mode: Mode,
    ) -> Result<Option<Witness>, EnumError> {
        let total = options
            .iter()
            .fold(1u64, |acc, o| acc.saturating_mul(o.len() as u64));
        let limit = self
            .opts
            .max_path_combinations
            .saturating_mul(LIVENESS_COMBINATIONS);
        if total > limit {
            let kind = crate::EnumErrorKind::TooManyPathCombinations {
                combinations: total,
                limit,
            };
            return Err(EnumError::of_kind(kind, self.opts.run.unroll));
        }
        let best = AtomicUsize::new(usize::MAX);
        let searched = AtomicU64::new(0);
        let found: Mutex<BTreeMap<usize, Result<Witness, EnumError>>> = Mutex::default();
        odometer(options)
            .enumerate()
            .take_while(|(i, _)| *i < best.load(Ordering::Relaxed) && self.budget.alive())
            .filter(|(_, combo)| wanted(combo))
            .par_bridge()
            .for_each(|(i, combo)| {
                if i > best.load(Ordering::Relaxed) || !self.budget.alive() {
                    return;
                }
                searched.fetch_add(1, Ordering::Relaxed);
                let outcome = match self.search(&combo, mode) {
                    Ok(None) => return,
                    Ok(Some(w)) => Ok(w),
                    Err(e) => Err(e),
                };
                best.fetch_min(i, Ordering::Relaxed);
                found
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(i, outcome);
            });
        let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
        let first = found.into_iter().next();
        // The combinations the answer took: with one at i, those numbered up to i that
        // `wanted` accepts (each searched whole). Those that other workers had started
        // past i depend on scheduling and are not counted: the figure (in --json) is the
        // same whatever the thread count.
        let n = match &first {
            Some((i, _)) => odometer(options)
                .take(i + 1)
                .filter(|combo| wanted(combo))
                .count() as u64,
            None => searched.load(Ordering::Relaxed),
        };
        self.combinations.fetch_add(n, Ordering::Relaxed);
        first.map(|(_, w)| w).transpose()
    }

    /// Searches one combination: its least candidate meeting the conditions of `mode`
    /// (the screen, unless the check is plain, skipping what it proves has none).
    fn search(&self, combo: &[&LPath], mode: Mode) -> Result<Option<Witness>, EnumError> {
        let (rejected, found) = self.search_with(combo, mode, self.screen)?;
        if rejected {
            self.screened.fetch_add(1, Ordering::Relaxed);
        }
        Ok(found)
    }

    /// [`Self::search`], using the screen as `screen` says: whether the screen rejected
    /// the combination or one of its barrier meetings, and what the search found.
    fn search_with(
        &self,
        combo: &[&LPath],
        mode: Mode,
        screen: Screen,
    ) -> Result<(bool, Option<Witness>), EnumError> {
        let program = self.program;
        let paths: Vec<&Path> = combo.iter().map(|p| &p.path).collect();
        let lay = layout(program, &paths);
        let scbarinsts = match meetings(program, &lay)
            .map_err(|e| crate::error::barrier_error(program, &lay, e))?
        {
            Meeting::Deadlock => return Ok((false, None)),
            Meeting::Instances(v) => v,
        };
        if !blocked_arrivals_hold(program, combo, &lay) {
            return Ok((false, None));
        }
        let owned: Vec<LPath> = combo.iter().map(|p| (*p).clone()).collect();
        let mut visitor = StuckVisitor::new(program, &owned, &lay, mode);
        visitor.screen = screen;
        // The screen without the coherence core, before the barrier meetings' static
        // relations and models are built; each meeting's core is used in the search
        // (`Visitor::may_find`). Barrier errors come first, as in the search.
        if screen == Screen::Skip && !laps::may_find(&visitor, None) {
            crate::driver::check_meetings(program, &self.opts.engine, &lay, &scbarinsts)?;
            return Ok((true, None));
        }
        let opts = EnumOptions {
            run: RunConfig {
                // Per combination: the run's limits are the shared budget.
                shard: None,
                progress: None,
                ..self.opts.run.clone()
            },
            ..self.opts.clone()
        };
        let (found, _) = crate::driver::search_layout(
            program,
            &opts,
            &visitor,
            (self.budget, &self.tally),
            (0, false),
            &paths,
            (&lay, scbarinsts),
        )?;
        let found = found.map(|f: Found| Witness {
            paths: owned.clone(),
            step_events: lay.step_events.clone(),
            execution: laps::captured(f),
        });
        Ok((visitor.rejected.load(Ordering::Relaxed), found))
    }
}

/// What [`screen_audit`] found.
#[derive(Debug, Clone, Default)]
pub struct ScreenAudit {
    /// Combinations screened and searched.
    pub combinations: u64,
    /// Combinations the screen rejected.
    pub rejected: u64,
    /// Combinations where the screened search finds other than the plain one (a bug:
    /// the screen must only skip what has nothing to find).
    pub unsound: Vec<String>,
}

/// For tests of the screen: every combination of stuck endings and every combination
/// reaching a cut (whatever the progress model, as [`stuck_states`]) is searched with the
/// screen and without, and each must find the same (nothing, or the same least
/// candidate). Exponential, for small tests only.
pub fn screen_audit(program: &Program, opts: &EnumOptions) -> Result<ScreenAudit, EnumError> {
    let budget = Budget::of(&opts.run);
    let run = Runner::new(program, opts, &budget, Strategy::Plain);
    let per_thread = all_endings(program, opts)?;
    let stuck = stuck_options(&per_thread);
    let cuts = cut_options(&per_thread);
    let mut audit = ScreenAudit::default();
    let phases: [(&[Vec<&LPath>], Mode); 2] = [(&stuck, Mode::Witness), (&cuts, Mode::Reach)];
    for (options, mode) in phases {
        for combo in odometer(options) {
            let states: Vec<InvState> = combo.iter().map(|p| p.state()).collect();
            let wanted = match mode {
                Mode::Witness => some_stuck(&states),
                Mode::Reach => some_cut(&combo),
            };
            if !wanted {
                continue;
            }
            audit.combinations += 1;
            let (rejected, screened) = run.search_with(&combo, mode, Screen::Skip)?;
            let (_, plain) = run.search_with(&combo, mode, Screen::Off)?;
            let key = |w: &Option<Witness>| w.as_ref().map(|w| w.execution.key.clone());
            audit.rejected += u64::from(rejected);
            if key(&screened) != key(&plain) {
                let endings: Vec<String> = combo
                    .iter()
                    .map(|p| format!("{:?} after {:?}", p.ending, p.path.steps))
                    .collect();
                audit
                    .unsound
                    .push(format!("{mode:?}: {}", endings.join(" | ")));
            }
        }
    }
    Ok(audit)
}

/// Every combination of one option per thread, the last thread fastest.
fn odometer<'a, 'p>(options: &'a [Vec<&'p LPath>]) -> impl Iterator<Item = Vec<&'p LPath>> + 'a {
    let mut digits = vec![0usize; options.len()];
    let mut done = options.iter().any(|o| o.is_empty());
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let combo = options.iter().zip(&digits).map(|(o, &d)| o[d]).collect();
        done = true;
        for k in (0..digits.len()).rev() {
            digits[k] += 1;
            if digits[k] < options[k].len() {
                done = false;
                break;
            }
            digits[k] = 0;
        }
        Some(combo)
    })
}

/// The barrier of a cbar instruction: (N, ID, quorum).
fn barrier_at(program: &Program, t: usize, pc: usize) -> Option<&vkherd_model::BarrierName> {
    match &program.threads[t].code[pc] {
        Instruction::Access(a) => a.barrier.as_ref(),
        _ => None,
    }
}

/// Can the blocked invocations wait forever where their paths say (liveness.md
/// "Barriers")? A blocked invocation waits at the k-th instance of its barrier; no
/// invocation may pass that instance (it never completes), and it must indeed not
/// complete: without a quorum, some invocation it waits for does not arrive; with quorum
/// Q, fewer than Q arrive. (Instances that invocations pass are checked by `meetings`:
/// every invocation they wait for passes them too.)
fn blocked_arrivals_hold(program: &Program, combo: &[&LPath], lay: &Layout) -> bool {
    // (the barrier-level instance, N, ID, k) -> how many wait there.
    type Key<'p> = (&'p [u64], &'p str, Option<&'p str>, usize);
    let mut waiting: BTreeMap<Key<'_>, usize> = BTreeMap::new();
    let level = program.dialect.barrier_level;
    for (t, p) in combo.iter().enumerate() {
        let Ending::Blocked { cbar } = p.ending else {
            continue;
        };
        let Some(b) = barrier_at(program, t, cbar) else {
            return false;
        };
        let th = &program.threads[t];
        let k = p
            .path
            .steps
            .iter()
            .filter(|s| match **s {
                Step::Exec(i) => barrier_at(program, t, i)
                    .is_some_and(|c| c.instance == b.instance && c.id == b.id),
                _ => false,
            })
            .count();
        *waiting
            .entry((th.instance(level), &b.instance, b.id.as_deref(), k))
            .or_insert(0) += 1;
    }
    if waiting.is_empty() {
        return true;
    }
    // The instances that invocations passed.
    let mut occurrences: BTreeMap<(usize, &str, Option<&str>), usize> = BTreeMap::new();
    for ev in &lay.events {
        let Some(b) = barrier_at(program, ev.thread, ev.instr) else {
            continue;
        };
        let th = &program.threads[ev.thread];
        let k = occurrences
            .entry((ev.thread, &b.instance, b.id.as_deref()))
            .or_insert(0);
        if waiting.contains_key(&(th.instance(level), b.instance.as_str(), b.id.as_deref(), *k)) {
            return false;
        }
        *k += 1;
    }
    waiting.iter().all(|(&(group, inst, id, _), &arrived)| {
        let quorum = program.threads.iter().enumerate().find_map(|(t, th)| {
            th.code.iter().enumerate().find_map(|(pc, _)| {
                barrier_at(program, t, pc)
                    .filter(|b| b.instance == inst && b.id.as_deref() == id)
                    .map(|b| b.quorum)
            })
        });
        match quorum.flatten() {
            Some(q) => (arrived as u64) < q,
            None => {
                let expected = program
                    .threads
                    .iter()
                    .enumerate()
                    .filter(|(_, th)| th.instance(level) == group)
                    .filter(|(t, th)| {
                        (0..th.code.len()).any(|pc| {
                            barrier_at(program, *t, pc)
                                .is_some_and(|b| b.instance == inst && b.id.as_deref() == id)
                        })
                    })
                    .count();
                arrived < expected
            }
        }
    })
}

impl Liveness {
    /// The progress model as `--progress` takes it, on the test's levels (`obe`,
    /// `wg=obe,inv=hsa`).
    pub fn progress_text(&self) -> String {
        self.progress.text(&self.levels)
    }
}
