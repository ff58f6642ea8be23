//! The paths of one invocation for the liveness check, each with its ending
//! (liveness.md "Stuck executions"): terminated, spinning, repeating, blocked, paused, and
//! the paths cut by `--unroll` (for the `unknown` verdict).
//!
//! The enumeration follows `paths::thread_paths` (both ways at every branch and
//! compare-exchange) with three differences:
//!
//! - **Spin iterations stop the path.** An iteration is the stretch from the last arrival
//!   at the target L of a backward jump to the jump taken back to L. One that executes no
//!   write and writes no register it reads before writing is a spin iteration whatever
//!   the values: the path ends there (spinning) and never goes on, so spin iterations
//!   never count against `--unroll` ("the path that skips it covers the rest"). One
//!   without writes that does write such a register is a spin iteration only if the
//!   values leave those registers unchanged: the path both ends there (spinning, if the
//!   values say spin) and goes on (counted, and the values must then say it is not a
//!   spin: [`LPath::not_spin`]).
//! - **Laps.** After each take of a backward jump J, the path may end with laps A then B:
//!   whole, contiguous iterations of J, B's last iterations a copy (step by step) of A.
//! - **Blocked and paused.** A path may stop waiting at any cbar it reaches (blocked),
//!   and every prefix is a paused path (only those that end with an event, the empty one
//!   and the one-step ones that make no event: a longer prefix that ends with jumps or
//!   arithmetic has the same events and only more branches to agree with, and the same
//!   started-ness, so it can be a witness only where its event-ending prefix is one).
//!
//! A take of a backward jump beyond `--unroll` (of an iteration that is not a spin
//! iteration) ends a *cut* path, kept for the reachability check of the bound.

use crate::paths::{Path, PathLimitError, PathLimits, Step};
use std::collections::HashSet;
use vkherd_model::{AccessKind, Instruction, Operand, Thread};

/// How a liveness path ends. Step positions index `LPath::path.steps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Runs to the end of the program.
    Terminated,
    /// Ends with a spin iteration `steps[start..]` of the backward jump at instruction
    /// `jump` (the last step is that jump, taken). `pure`: it writes no register it
    /// reads before writing, so it is a spin iteration whatever the values.
    Spinning {
        jump: usize,
        start: usize,
        pure: bool,
    },
    /// Ends with laps `A = steps[a..b]` and `B = steps[b..]` of the backward jump at
    /// `jump`; the last `b - a` steps are a copy of A.
    Repeating { jump: usize, a: usize, b: usize },
    /// Waits forever at the cbar of instruction `cbar`, reached after the steps.
    Blocked { cbar: usize },
    /// Stops after the steps and never runs again.
    Paused,
    /// The backward jump at `jump` is taken once more than `--unroll` allows, ending the
    /// iteration `steps[start..]`; `writes`: that iteration writes memory (otherwise it
    /// counts only if the values make it no spin iteration).
    Cut {
        jump: usize,
        start: usize,
        writes: bool,
    },
}

impl Ending {
    /// The kind the progress check reads.
    pub fn kind(&self) -> super::progress::EndingKind {
        use super::progress::EndingKind as K;
        match self {
            Ending::Terminated => K::Terminated,
            Ending::Spinning { .. } => K::Spinning,
            Ending::Repeating { .. } => K::Repeating,
            Ending::Blocked { .. } => K::Blocked,
            // A cut path is a prefix of a run: for the progress check it is paused.
            Ending::Paused | Ending::Cut { .. } => K::Paused,
        }
    }
}

/// One path of an invocation with its ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LPath {
    pub path: Path,
    pub ending: Ending,
    /// Iterations (step ranges, the backward jump's take included) that execute no write
    /// but write a register they read first, passed through and not the ending: the
    /// values must change such a register, else the path would have stopped there.
    pub not_spin: Vec<(usize, usize)>,
}

impl LPath {
    /// It took a step (an instruction, a jump, or a barrier arrival).
    pub fn started(&self) -> bool {
        !self.path.steps.is_empty() || matches!(self.ending, Ending::Blocked { .. })
    }

    /// The ending facts the progress check reads.
    pub fn state(&self) -> super::progress::InvState {
        super::progress::InvState {
            kind: self.ending.kind(),
            started: self.started(),
        }
    }
}

/// The liveness paths of one invocation.
#[derive(Debug, Clone, Default)]
pub struct ThreadEndings {
    /// Terminated, spinning, repeating and blocked paths, in enumeration order.
    pub ends: Vec<LPath>,
    /// Paused prefixes, shortest first.
    pub paused: Vec<LPath>,
    /// Paths cut by the bound.
    pub cuts: Vec<LPath>,
}

/// The state of one branch of the enumeration.
#[derive(Clone)]
struct Walk {
    pc: usize,
    steps: Vec<Step>,
    /// Takes of each backward jump so far (spin iterations excluded: they end the path).
    takes: Vec<u32>,
    /// Step position of the last arrival at each instruction.
    arrival: Vec<Option<usize>>,
    /// The iterations (step ranges) of each backward jump so far.
    iterations: Vec<Vec<(usize, usize)>>,
    not_spin: Vec<(usize, usize)>,
}

impl Walk {
    fn goto(&mut self, pc: usize) {
        self.pc = pc;
        if let Some(a) = self.arrival.get_mut(pc) {
            *a = Some(self.steps.len());
        }
    }

    fn end(&self, ending: Ending) -> LPath {
        LPath {
            path: Path {
                steps: self.steps.clone(),
            },
            ending,
            not_spin: self.not_spin.clone(),
        }
    }
}

/// Lists the liveness paths of `thread` (thread number `index`) at bound `unroll`:
/// at most `limits.paths` of each kind, and at most `limits.steps` steps walked.
pub fn thread_endings(
    thread: &Thread,
    index: usize,
    unroll: u32,
    limits: PathLimits,
) -> Result<ThreadEndings, PathLimitError> {
    let code = &thread.code;
    let n = code.len();
    let mut out = ThreadEndings::default();
    let limit = limits.paths;
    let too_many = || PathLimitError::TooMany {
        thread: index,
        limit,
    };
    let mut walked = 0usize;
    let mut start = Walk {
        pc: 0,
        steps: Vec::new(),
        takes: vec![0; n],
        arrival: vec![None; n + 1],
        iterations: vec![Vec::new(); n],
        not_spin: Vec::new(),
    };
    start.goto(0);
    let mut stack = vec![start];
    while let Some(mut w) = stack.pop() {
        if out.ends.len() > limit || out.cuts.len() > limit {
            return Err(too_many());
        }
        loop {
            let pc = w.pc;
            walked += 1;
            if walked > limits.steps {
                return Err(PathLimitError::TooLong {
                    thread: index,
                    limit: limits.steps,
                });
            }
            if pc >= n {
                out.ends.push(w.end(Ending::Terminated));
                break;
            }
            match &code[pc] {
                Instruction::Jump { cond, target, .. } => {
                    let target = *target;
                    if cond.is_some() {
                        let mut fall = w.clone();
                        fall.steps.push(Step::Jump {
                            index: pc,
                            taken: false,
                        });
                        fall.goto(pc + 1);
                        stack.push(fall);
                    }
                    w.steps.push(Step::Jump {
                        index: pc,
                        taken: true,
                    });
                    if target <= pc && !take_backward(&mut w, thread, unroll, &mut out) {
                        break;
                    }
                    w.goto(target);
                }
                Instruction::Access(a) if a.cas.is_some() => {
                    let mut fail = w.clone();
                    fail.steps.push(Step::Cas {
                        index: pc,
                        success: false,
                    });
                    fail.goto(pc + 1);
                    stack.push(fail);
                    w.steps.push(Step::Cas {
                        index: pc,
                        success: true,
                    });
                    w.goto(pc + 1);
                }
                Instruction::Access(a) => {
                    if a.kind == AccessKind::Cbar {
                        out.ends.push(w.end(Ending::Blocked { cbar: pc }));
                    }
                    w.steps.push(Step::Exec(pc));
                    w.goto(pc + 1);
                }
                Instruction::Arith { .. } => {
                    w.steps.push(Step::Exec(pc));
                    w.goto(pc + 1);
                }
            }
        }
    }
    out.paused = paused_prefixes(thread, out.ends.iter().chain(&out.cuts));
    if out.paused.len() > limit {
        return Err(too_many());
    }
    Ok(out)
}

/// The walk has just taken the backward jump at `w.pc` (its step pushed): records the
/// endings this allows and says whether the path goes on past it.
fn take_backward(w: &mut Walk, thread: &Thread, unroll: u32, out: &mut ThreadEndings) -> bool {
    let (jump, target) = (w.pc, jump_target(thread, w.pc));
    let end = w.steps.len();
    // A target never reached (jumped over) starts no iteration: the take only counts.
    let iteration = w.arrival[target].map(|start| {
        let (writes, pure) = iteration_effects(thread, &w.steps[start..end]);
        (start, writes, pure)
    });
    if let Some((start, writes, pure)) = iteration {
        if !writes {
            out.ends.push(w.end(Ending::Spinning { jump, start, pure }));
            if pure {
                return false;
            }
        }
    }
    if w.takes[jump] >= unroll {
        let (start, writes) = iteration.map_or((end - 1, true), |(s, wr, _)| (s, wr));
        out.cuts.push(w.end(Ending::Cut {
            jump,
            start,
            writes,
        }));
        return false;
    }
    w.takes[jump] += 1;
    if let Some((start, writes, _)) = iteration {
        if !writes {
            w.not_spin.push((start, end));
        }
        w.iterations[jump].push((start, end));
        laps(w, jump, out);
    }
    true
}

/// Records the repeating endings whose laps end at the last iteration of `jump`: A and B
/// made of whole, contiguous iterations, `|A| <= |B|`, B's last `|A|` iterations a step
/// by step copy of A.
fn laps(w: &Walk, jump: usize, out: &mut ThreadEndings) {
    let its = &w.iterations[jump];
    let k = its.len();
    let end = w.steps.len();
    // How many trailing iterations are contiguous.
    let mut contiguous = 1;
    while contiguous < k && its[k - contiguous - 1].1 == its[k - contiguous].0 {
        contiguous += 1;
    }
    for a in 1..=contiguous / 2 {
        for b in a..=contiguous - a {
            let a_start = its[k - a - b].0;
            let b_start = its[k - b].0;
            let copy_start = its[k - a].0;
            if w.steps[a_start..b_start] == w.steps[copy_start..end] {
                out.ends.push(w.end(Ending::Repeating {
                    jump,
                    a: a_start,
                    b: b_start,
                }));
            }
        }
    }
}

fn jump_target(thread: &Thread, pc: usize) -> usize {
    match &thread.code[pc] {
        Instruction::Jump { target, .. } => *target,
        _ => unreachable!("a take is a jump"),
    }
}

/// Whether an iteration writes memory, and whether it is *pure*: writes no register it
/// reads before writing it.
pub fn iteration_effects(thread: &Thread, steps: &[Step]) -> (bool, bool) {
    let writes = steps.iter().any(|step| match *step {
        Step::Cas { success, .. } => success,
        Step::Exec(i) => matches!(&thread.code[i],
            Instruction::Access(a) if matches!(a.kind, AccessKind::Store | AccessKind::Rmw)),
        Step::Jump { .. } => false,
    });
    let pure = read_first_registers(thread, steps).is_empty();
    (writes, pure)
}

/// The operands a step reads and the registers it writes.
pub(crate) fn step_registers(thread: &Thread, step: &Step) -> (Vec<Operand>, Vec<u32>) {
    match *step {
        Step::Exec(i) | Step::Cas { index: i, .. } => match &thread.code[i] {
            Instruction::Access(a) => {
                let mut reads: Vec<Operand> = a.value.into_iter().collect();
                let mut dsts: Vec<u32> = a.dst.into_iter().collect();
                if let Some(cas) = &a.cas {
                    reads.push(cas.expected);
                    dsts.extend(cas.success_dst);
                }
                (reads, dsts)
            }
            Instruction::Arith { dst, a, b, .. } => (vec![*a, *b], vec![*dst]),
            Instruction::Jump { .. } => (Vec::new(), Vec::new()),
        },
        Step::Jump { index, .. } => match &thread.code[index] {
            Instruction::Jump {
                cond: Some((_, a, b)),
                ..
            } => (vec![*a, *b], Vec::new()),
            _ => (Vec::new(), Vec::new()),
        },
    }
}

/// Does this step make an event?
fn makes_event(thread: &Thread, step: &Step) -> bool {
    match *step {
        Step::Exec(i) => matches!(thread.code[i], Instruction::Access(_)),
        Step::Cas { .. } => true,
        Step::Jump { .. } => false,
    }
}

/// The paused prefixes of the paths: the empty one, the one-step ones that make no
/// event, and every one that ends with an event; each once, shortest first.
fn paused_prefixes<'a>(thread: &Thread, paths: impl Iterator<Item = &'a LPath>) -> Vec<LPath> {
    let mut seen: HashSet<Vec<Step>> = HashSet::new();
    let mut out = Vec::new();
    let mut add = |p: &LPath, len: usize, out: &mut Vec<LPath>| {
        let steps = &p.path.steps[..len];
        if seen.insert(steps.to_vec()) {
            out.push(LPath {
                path: Path {
                    steps: steps.to_vec(),
                },
                ending: Ending::Paused,
                not_spin: p
                    .not_spin
                    .iter()
                    .copied()
                    .filter(|&(_, e)| e <= len)
                    .collect(),
            });
        }
    };
    let mut first = true;
    for p in paths {
        if first {
            add(p, 0, &mut out);
            first = false;
        }
        let steps = &p.path.steps;
        if steps.first().is_some_and(|s| !makes_event(thread, s)) {
            add(p, 1, &mut out);
        }
        for (i, s) in steps.iter().enumerate() {
            if makes_event(thread, s) {
                add(p, i + 1, &mut out);
            }
        }
    }
    if first {
        // No path at all (cannot happen: every thread has some path or cut).
        out.push(LPath {
            path: Path { steps: Vec::new() },
            ending: Ending::Paused,
            not_spin: Vec::new(),
        });
    }
    out.sort_by_key(|p| p.path.steps.len());
    out
}

/// The registers an iteration reads before writing them and also writes (those whose
/// values decide whether it is a spin iteration).
pub(crate) fn read_first_registers(thread: &vkherd_model::Thread, steps: &[Step]) -> Vec<u32> {
    let mut written: Vec<u32> = Vec::new();
    let mut read_first: Vec<u32> = Vec::new();
    for step in steps {
        let (reads, dsts) = step_registers(thread, step);
        for o in reads {
            if let Operand::Reg(r) = o {
                if !written.contains(&r) && !read_first.contains(&r) {
                    read_first.push(r);
                }
            }
        }
        for d in dsts {
            if !written.contains(&d) {
                written.push(d);
            }
        }
    }
    read_first.retain(|r| written.contains(r));
    read_first
}
