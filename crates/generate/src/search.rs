//! `distinguish`: the smallest programs of a [`Space`] on which two models allow
//! different final states (docs/generate.md "distinguish").
//!
//! Sizes go in increasing order (events, then invocations); every program of a size is
//! examined (in canonical form: once per class up to renaming) by running both models on
//! it in-process and comparing their sets of allowed states over the full state (every
//! register and every location written twice). The search stops after the first size
//! with a difference, so every program of a smaller size was examined and agreed: the
//! tests found are minimal within the space. Sizes are split into units (one per split
//! of the events among the invocations, placement and first event) that run in
//! parallel; results are kept in unit order, so the output does not depend on the
//! thread count.

use super::emit;
use super::space::{Space, Unit};
use super::test::{loc_name, Obs, Test};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use vkherd_model::{Observable, Program};

/// A model to compare: vkherd runs it (`vkherd::models::Compared`); a search only reads
/// the states it allows.
pub trait Model: Sync {
    /// The final states it allows on `program` (the values of `program.observed`, in
    /// order), or why it could not run the program.
    fn states(&self, program: &Program) -> Result<States, String>;
}

/// The final states a model allows on a program.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct States {
    /// Every allowed state.
    pub all: BTreeSet<Vec<i64>>,
    /// Those some race-free execution reaches.
    pub race_free: BTreeSet<Vec<i64>>,
    /// A limit stopped the run before every candidate was examined.
    pub stopped: bool,
    /// Some consistent execution has a data race (only asked of the source model of a
    /// mapping check, [`Limits::mapping`], which runs every execution to know it).
    pub racy: bool,
}

/// Limits and switches of a search.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop after examining this many programs.
    pub max_programs: Option<u64>,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Also count a state both models allow but only one through race-free executions.
    pub races: bool,
    /// Stop at the first distinguishing program (for timing it: minimality then holds
    /// only for the sizes completed before it).
    pub first_only: bool,
    /// Check a compilation mapping: the second model judges the first one's programs
    /// translated. Only a state the second allows and the first forbids distinguishes
    /// (the other way the target is only stronger), and only on programs the first runs
    /// race-free: a program with a data race has undefined behaviour, so any state of
    /// its translation is correct (counted in [`SizeStats::racy`]). A program the first
    /// model allows no state at all (no consistent execution: nothing an implementation
    /// could do matches it) is left out too ([`SizeStats::vacuous`]): a property of the
    /// source model, not of the mapping.
    pub mapping: bool,
}

/// What one size gave.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeStats {
    pub events: usize,
    pub threads: usize,
    /// Programs enumerated before the space's rules and symmetry left some out.
    pub enumerated: u64,
    /// Programs examined (in the space, once per class).
    pub examined: u64,
    pub distinguishing: u64,
    /// Programs a model could not run (an error): neither agreeing nor distinguishing.
    pub errors: u64,
    /// Programs left out of a mapping check because the source model finds a data race
    /// in them ([`Limits::mapping`]); counted in `examined`.
    pub racy: u64,
    /// Programs left out of a mapping check because the source model allows no state
    /// on them; counted in `examined`.
    pub vacuous: u64,
    /// Every program of the size was examined.
    pub complete: bool,
    pub seconds: f64,
}

/// How a distinguishing program's states differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The program, with `exists` of the first distinguishing state.
    pub test: Test,
    /// 0 if the first model allows the state and the second forbids it, 1 the other way.
    pub allowed_by: usize,
    /// States only the first model allows, only the second, and (with `races`) allowed
    /// by both but race-free in only one.
    pub only_a: usize,
    pub only_b: usize,
    pub race_marks: usize,
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub sizes: Vec<SizeStats>,
    pub found: Vec<Found>,
    /// Why the search stopped before the first difference or the end of the space.
    pub stopped: Option<String>,
    pub seconds: f64,
    /// Seconds from the start to the first distinguishing program found.
    pub first_seconds: Option<f64>,
    /// The first error a model gave, if any (the program's text and the message).
    pub first_error: Option<(String, String)>,
}

impl Outcome {
    pub fn examined(&self) -> u64 {
        self.sizes.iter().map(|s| s.examined).sum()
    }
}

/// What comparing two models on one program gave.
enum Verdict {
    Agree,
    /// A mapping check's program with a data race: nothing to check.
    Racy,
    /// A mapping check's program the source model allows no state: nothing to check.
    Vacuous,
    Differ(Found),
    Error(String, String),
}

/// Runs both models on `test` and says how their allowed states differ (`Ok(None)`: they
/// do not), or the error one gave.
pub fn differs(
    test: &Test,
    a: &dyn Model,
    b: &dyn Model,
    races: bool,
) -> Result<Option<Found>, String> {
    let limits = Limits {
        races,
        ..Limits::default()
    };
    match compare(test, a, b, &limits) {
        Verdict::Agree | Verdict::Racy | Verdict::Vacuous => Ok(None),
        Verdict::Differ(f) => Ok(Some(f)),
        Verdict::Error(_, m) => Err(m),
    }
}

/// Runs both models on `test` and compares their allowed states.
fn compare(test: &Test, a: &dyn Model, b: &dyn Model, limits: &Limits) -> Verdict {
    let text = emit::text(test);
    let program = match vkherd_dialects::load(&text) {
        Ok(p) => p,
        Err(d) => return Verdict::Error(text, d.message),
    };
    let (ra, rb) = match (a.states(&program), b.states(&program)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(m), _) | (_, Err(m)) => return Verdict::Error(text, m),
    };
    if ra.stopped || rb.stopped {
        return Verdict::Error(text, "a limit stopped the run".into());
    }
    if limits.mapping && ra.racy {
        return Verdict::Racy;
    }
    if limits.mapping && ra.all.is_empty() {
        return Verdict::Vacuous;
    }
    let (sa, fa, sb, fb) = (ra.all, ra.race_free, rb.all, rb.race_free);
    let only_a: Vec<&Vec<i64>> = if limits.mapping {
        Vec::new()
    } else {
        sa.difference(&sb).collect()
    };
    let only_b: Vec<&Vec<i64>> = sb.difference(&sa).collect();
    let marks: Vec<&Vec<i64>> = if limits.races && !limits.mapping {
        fa.symmetric_difference(&fb)
            .filter(|s| sa.contains(*s) && sb.contains(*s))
            .collect()
    } else {
        Vec::new()
    };
    let (state, allowed_by) = match (only_a.first(), only_b.first(), marks.first()) {
        (Some(s), _, _) => (*s, 0),
        (None, Some(s), _) => (*s, 1),
        (None, None, Some(s)) => (*s, usize::from(!fa.contains(*s))),
        (None, None, None) => return Verdict::Agree,
    };
    let exists = program
        .observed
        .iter()
        .zip(state)
        .map(|(o, &v)| {
            let obs = match *o {
                Observable::Reg { thread, reg } => Obs::Reg { thread, reg },
                Observable::Loc(l) => {
                    let name = &program.locations[l].name;
                    Obs::Loc(
                        (0..test.storage.len())
                            .find(|&i| loc_name(i) == *name)
                            .unwrap_or(0),
                    )
                }
            };
            (obs, v)
        })
        .collect();
    Verdict::Differ(Found {
        test: Test {
            exists,
            ..test.clone()
        },
        allowed_by,
        only_a: only_a.len(),
        only_b: only_b.len(),
        race_marks: marks.len(),
    })
}

/// Shared state of the units of a search.
struct Progress {
    start: Instant,
    examined: AtomicU64,
    /// Microseconds from the start to the first difference (u64::MAX: none yet).
    first: AtomicU64,
    stop: AtomicBool,
}

/// What one unit gave.
struct UnitResult {
    enumerated: u64,
    examined: u64,
    found: Vec<Found>,
    errors: u64,
    racy: u64,
    vacuous: u64,
    first_error: Option<(String, String)>,
    complete: bool,
}

impl Default for UnitResult {
    fn default() -> UnitResult {
        UnitResult {
            enumerated: 0,
            examined: 0,
            found: Vec::new(),
            errors: 0,
            racy: 0,
            vacuous: 0,
            first_error: None,
            complete: true,
        }
    }
}

fn run_unit(
    space: &Space,
    unit: &Unit,
    a: &dyn Model,
    b: &dyn Model,
    limits: &Limits,
    progress: &Progress,
) -> UnitResult {
    let mut out = UnitResult::default();
    out.enumerated = space.each_program(unit, true, &mut |test| match test {
        Some(test) => examine_one(&test, &mut out, a, b, limits, progress),
        None => !stopping(&mut out, limits, progress, 0),
    });
    out
}

/// Compares the models on each program in turn, until a limit says stop.
fn examine(
    programs: &[Test],
    enumerated: u64,
    a: &dyn Model,
    b: &dyn Model,
    limits: &Limits,
    progress: &Progress,
) -> UnitResult {
    let mut out = UnitResult {
        enumerated,
        ..UnitResult::default()
    };
    for test in programs {
        if !examine_one(test, &mut out, a, b, limits, progress) {
            break;
        }
    }
    out
}

/// Counts `more` programs as examined and says whether the search must stop: a limit
/// is reached or another unit said stop (the unit is then incomplete).
fn stopping(out: &mut UnitResult, limits: &Limits, progress: &Progress, more: u64) -> bool {
    let stop = progress.stop.load(Ordering::Relaxed) || {
        let n = progress.examined.fetch_add(more, Ordering::Relaxed) + more;
        let past_time = limits.timeout.is_some_and(|t| progress.start.elapsed() > t);
        limits.max_programs.is_some_and(|m| n > m) || past_time
    };
    if stop {
        progress.stop.store(true, Ordering::Relaxed);
        out.complete = false;
    }
    stop
}

/// Compares the models on one program into `out`; false when a limit says stop (the
/// program is then not examined, and the unit is incomplete).
fn examine_one(
    test: &Test,
    out: &mut UnitResult,
    a: &dyn Model,
    b: &dyn Model,
    limits: &Limits,
    progress: &Progress,
) -> bool {
    if stopping(out, limits, progress, 1) {
        return false;
    }
    out.examined += 1;
    match compare(test, a, b, limits) {
        Verdict::Agree => {}
        Verdict::Racy => out.racy += 1,
        Verdict::Vacuous => out.vacuous += 1,
        Verdict::Differ(f) => {
            let micros = progress.start.elapsed().as_micros() as u64;
            progress.first.fetch_min(micros, Ordering::Relaxed);
            out.found.push(f);
            if limits.first_only {
                progress.stop.store(true, Ordering::Relaxed);
            }
        }
        Verdict::Error(text, message) => {
            out.errors += 1;
            out.first_error.get_or_insert((text, message));
        }
    }
    true
}

impl Progress {
    fn new() -> Progress {
        Progress {
            start: Instant::now(),
            examined: AtomicU64::new(0),
            first: AtomicU64::new(u64::MAX),
            stop: AtomicBool::new(false),
        }
    }
}

/// The statistics of a size before its units are added.
fn size_stats(events: usize, threads: usize, started: Instant) -> SizeStats {
    SizeStats {
        events,
        threads,
        enumerated: 0,
        examined: 0,
        distinguishing: 0,
        errors: 0,
        racy: 0,
        vacuous: 0,
        complete: true,
        seconds: started.elapsed().as_secs_f64(),
    }
}

impl Outcome {
    fn new() -> Outcome {
        Outcome {
            sizes: Vec::new(),
            found: Vec::new(),
            stopped: None,
            seconds: 0.0,
            first_seconds: None,
            first_error: None,
        }
    }

    /// Adds one size's units to `stats` (whose size and time are set); false if a limit
    /// stopped it.
    fn add(
        &mut self,
        mut stats: SizeStats,
        results: Vec<UnitResult>,
        limits: &Limits,
        progress: &Progress,
        each: &mut dyn FnMut(&SizeStats),
    ) -> bool {
        for r in results {
            stats.enumerated += r.enumerated;
            stats.examined += r.examined;
            stats.distinguishing += r.found.len() as u64;
            stats.errors += r.errors;
            stats.racy += r.racy;
            stats.vacuous += r.vacuous;
            stats.complete &= r.complete;
            self.found.extend(r.found);
            if self.first_error.is_none() {
                self.first_error = r.first_error;
            }
        }
        each(&stats);
        let complete = stats.complete;
        self.sizes.push(stats);
        if !complete {
            self.stopped = Some(match (limits.max_programs, limits.timeout) {
                _ if limits.first_only && !self.found.is_empty() => {
                    "stopped at the first distinguishing program".to_string()
                }
                (Some(m), _) if progress.examined.load(Ordering::Relaxed) > m => {
                    format!("stopped at the limit of {m} programs (--max-programs)")
                }
                (_, Some(t)) => format!(
                    "stopped by the time limit of {} s (--timeout)",
                    t.as_secs_f64()
                ),
                _ => "stopped".into(),
            });
        }
        complete
    }

    fn finish(mut self, progress: &Progress) -> Outcome {
        self.seconds = progress.start.elapsed().as_secs_f64();
        let first = progress.first.load(Ordering::Relaxed);
        self.first_seconds = (first != u64::MAX).then(|| first as f64 / 1e6);
        self
    }
}

/// Searches `space` for the smallest programs on which `a` and `b` differ. `each`
/// is called after every size with its statistics (for progress output).
pub fn search(
    space: &Space,
    a: &dyn Model,
    b: &dyn Model,
    limits: &Limits,
    mut each: impl FnMut(&SizeStats),
) -> Outcome {
    let progress = Progress::new();
    let mut out = Outcome::new();
    for (events, threads) in space.sizes() {
        let started = Instant::now();
        let units = space.units(events, threads);
        let results: Vec<UnitResult> = units
            .par_iter()
            .map(|u| run_unit(space, u, a, b, limits, &progress))
            .collect();
        if !out.add(
            size_stats(events, threads, started),
            results,
            limits,
            &progress,
            &mut each,
        ) {
            break;
        }
        if !out.found.is_empty() {
            break;
        }
    }
    out.finish(&progress)
}

/// Compares `a` and `b` on every test of `tests` (the variants of a cycle, say), each
/// observing its full state; one "size" in the outcome.
pub fn compare_all(
    tests: &[Test],
    a: &dyn Model,
    b: &dyn Model,
    limits: &Limits,
    mut each: impl FnMut(&SizeStats),
) -> Outcome {
    let progress = Progress::new();
    let mut out = Outcome::new();
    let started = Instant::now();
    let programs: Vec<Test> = tests
        .iter()
        .map(|t| Test {
            observe: t.full_state(),
            exists: Vec::new(),
            ..t.clone()
        })
        .collect();
    let chunk = (programs.len() / 64).max(1);
    let results: Vec<UnitResult> = programs
        .par_chunks(chunk)
        .map(|c| examine(c, c.len() as u64, a, b, limits, &progress))
        .collect();
    let events = tests.iter().map(Test::events).max().unwrap_or(0);
    let threads = tests.iter().map(|t| t.threads.len()).max().unwrap_or(0);
    out.add(
        size_stats(events, threads, started),
        results,
        limits,
        &progress,
        &mut each,
    );
    out.finish(&progress)
}

/// The name of the k-th test found (1-based) for models `a` and `b`.
pub fn test_name(a: &str, b: &str, k: usize) -> String {
    let part = |s: &str| {
        let base = std::path::Path::new(s)
            .file_stem()
            .map_or(s.to_string(), |f| f.to_string_lossy().into_owned());
        super::index::file_stem(&base)
    };
    format!("{}-vs-{}-{k}", part(a), part(b))
}
