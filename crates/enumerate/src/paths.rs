//! Per-thread control-flow paths, bounded by `--unroll` (semantics.md "Candidate
//! executions", item 1).

use vkherd_model::{Instruction, Thread};

/// One step of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Instruction `index` (an access or arithmetic) is executed.
    Exec(usize),
    /// The jump at `index` is taken or falls through.
    Jump { index: usize, taken: bool },
    /// The compare-exchange at `index` succeeds (one RMW event) or fails (one read event,
    /// with the failure order). Both are paths; the values decide which is possible, as
    /// for a jump (values.rs `branches_agree`).
    Cas { index: usize, success: bool },
}

/// A syntactic path through one thread's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    pub steps: Vec<Step>,
}

impl Path {
    /// The events the path makes in `thread` (its accesses: see `combine::layout`).
    pub fn events(&self, thread: &Thread) -> usize {
        self.steps
            .iter()
            .filter(|s| match **s {
                Step::Exec(i) => matches!(thread.code[i], Instruction::Access(_)),
                Step::Cas { .. } => true,
                Step::Jump { .. } => false,
            })
            .count()
    }
}

/// The paths of one thread.
#[derive(Debug, Clone)]
pub struct ThreadPaths {
    pub paths: Vec<Path>,
    /// Paths dropped because a backward jump would be taken more than `unroll` times.
    pub dropped: u64,
}

/// The limits on one thread's paths at the unroll bound (docs/errors.md "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathLimits {
    /// Most paths kept (the path combinations are their product over the threads).
    pub paths: usize,
    /// Most steps (instructions executed, jumps included) over all the thread's paths,
    /// those the bound drops included: bounds the time and memory of listing them,
    /// whatever the bound (`--unroll 100000` on a spin loop walks 10^10 steps).
    pub steps: usize,
}

impl Default for PathLimits {
    fn default() -> Self {
        PathLimits {
            paths: 100_000,
            steps: 10_000_000,
        }
    }
}

/// Why path enumeration stopped: a limit of [`PathLimits`] was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathLimitError {
    /// More than `limit` paths are kept.
    TooMany { thread: usize, limit: usize },
    /// The paths hold more than `limit` steps in all.
    TooLong { thread: usize, limit: usize },
}

/// A choice left for later by the depth-first walk: at path length `len`, take `step`
/// and go on at `pc`.
struct Alternative {
    len: usize,
    step: Step,
    pc: usize,
}

/// Enumerates every path of `thread`: both ways at every conditional jump; a backward jump
/// instruction may be taken at most `unroll` times per path, paths that need more are
/// dropped and counted.
///
/// Depth first, with one path under construction and a stack of the alternatives left
/// (fall-through, compare-exchange failure): backtracking truncates the path, so the walk
/// costs the steps of the tree of paths, not a copy of the path so far at every branch.
pub fn thread_paths(
    thread: &Thread,
    index: usize,
    unroll: u32,
    limits: PathLimits,
) -> Result<ThreadPaths, PathLimitError> {
    let code = &thread.code;
    let mut out = ThreadPaths {
        paths: Vec::new(),
        dropped: 0,
    };
    let backward =
        |pc: usize| matches!(&code[pc], Instruction::Jump { target, .. } if *target <= pc);
    let mut steps: Vec<Step> = Vec::new();
    // Times each backward jump was taken on `steps`.
    let mut taken_count = vec![0u32; code.len()];
    let mut pending: Vec<Alternative> = Vec::new();
    // Steps of the paths finished so far (kept or dropped).
    let mut walked = 0usize;
    let mut pc = 0;
    loop {
        // Follow the path from `pc` until it ends or is dropped.
        loop {
            if walked.saturating_add(steps.len()) > limits.steps {
                return Err(PathLimitError::TooLong {
                    thread: index,
                    limit: limits.steps,
                });
            }
            if pc >= code.len() {
                if out.paths.len() >= limits.paths {
                    return Err(PathLimitError::TooMany {
                        thread: index,
                        limit: limits.paths,
                    });
                }
                out.paths.push(Path {
                    steps: steps.clone(),
                });
                break;
            }
            match &code[pc] {
                Instruction::Jump { cond, target, .. } => {
                    if cond.is_some() {
                        // The fall-through is left for later; the taken branch goes first.
                        pending.push(Alternative {
                            len: steps.len(),
                            step: Step::Jump {
                                index: pc,
                                taken: false,
                            },
                            pc: pc + 1,
                        });
                    }
                    if backward(pc) {
                        if taken_count[pc] >= unroll {
                            out.dropped += 1;
                            break;
                        }
                        taken_count[pc] += 1;
                    }
                    steps.push(Step::Jump {
                        index: pc,
                        taken: true,
                    });
                    pc = *target;
                }
                Instruction::Access(a) if a.cas.is_some() => {
                    // The failure is left for later; the success goes first.
                    pending.push(Alternative {
                        len: steps.len(),
                        step: Step::Cas {
                            index: pc,
                            success: false,
                        },
                        pc: pc + 1,
                    });
                    steps.push(Step::Cas {
                        index: pc,
                        success: true,
                    });
                    pc += 1;
                }
                _ => {
                    steps.push(Step::Exec(pc));
                    pc += 1;
                }
            }
        }
        walked += steps.len();
        let Some(alt) = pending.pop() else { break };
        // Back to the branch point: the backward jumps taken after it are untaken.
        for step in steps.drain(alt.len..) {
            if let Step::Jump { index, taken: true } = step {
                if backward(index) {
                    taken_count[index] -= 1;
                }
            }
        }
        steps.push(alt.step);
        pc = alt.pc;
    }
    // Depth-first order with the taken branch first; make it deterministic and natural:
    // sort by the sequence of branch decisions (fall-through first, compare-exchange
    // success first). Distinct paths have distinct decisions, so the order is total.
    out.paths.sort_by_cached_key(|p: &Path| {
        p.steps
            .iter()
            .filter_map(|s| match s {
                Step::Jump { taken, .. } => Some(*taken),
                Step::Cas { success, .. } => Some(!*success),
                Step::Exec(_) => None,
            })
            .collect::<Vec<_>>()
    });
    Ok(out)
}

/// Every combination of one path per thread, in a fixed order (an odometer, so that the
/// combinations are not all held in memory).
pub(crate) struct PathCombinations<'a> {
    per_thread: &'a [ThreadPaths],
    digits: Vec<usize>,
    done: bool,
}

impl<'a> PathCombinations<'a> {
    pub(crate) fn new(per_thread: &'a [ThreadPaths]) -> Self {
        let done = per_thread.iter().any(|t| t.paths.is_empty());
        PathCombinations {
            per_thread,
            digits: vec![0; per_thread.len()],
            done,
        }
    }

    /// The number of combinations (saturating).
    pub(crate) fn total(&self) -> u64 {
        self.per_thread
            .iter()
            .fold(1u64, |acc, t| acc.saturating_mul(t.paths.len() as u64))
    }
}

impl<'a> Iterator for PathCombinations<'a> {
    type Item = Vec<&'a Path>;

    fn next(&mut self) -> Option<Vec<&'a Path>> {
        if self.done {
            return None;
        }
        let combo = self
            .per_thread
            .iter()
            .zip(&self.digits)
            .map(|(t, &d)| &t.paths[d])
            .collect();
        // Advance: the last thread varies fastest.
        self.done = true;
        for k in (0..self.digits.len()).rev() {
            self.digits[k] += 1;
            if self.digits[k] < self.per_thread[k].paths.len() {
                self.done = false;
                break;
            }
            self.digits[k] = 0;
        }
        Some(combo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vkherd_model::Program;

    fn vulkan(src: &str) -> Program {
        vkherd_dialects::vulkan::lower_litmus(&vkherd_dialects::vulkan::parse_litmus(src).unwrap())
            .unwrap()
    }

    fn opencl(src: &str) -> Program {
        vkherd_dialects::opencl::lower_opencl(&vkherd_dialects::opencl::parse_opencl(src).unwrap())
            .unwrap()
    }

    /// The plain recursive enumeration the walk replaced (a copy of the path at each
    /// branch), as the reference: (paths in the walk's order, dropped).
    fn reference(thread: &Thread, unroll: u32) -> (Vec<Vec<Step>>, u64) {
        fn go(
            code: &[Instruction],
            unroll: u32,
            (pc, steps, counts): (usize, Vec<Step>, Vec<u32>),
            out: &mut (Vec<Vec<Step>>, u64),
        ) {
            if pc >= code.len() {
                out.0.push(steps);
                return;
            }
            let with = |step: Step| {
                let mut s = steps.clone();
                s.push(step);
                s
            };
            match &code[pc] {
                Instruction::Jump { cond, target, .. } => {
                    if cond.is_some() {
                        let fall = with(Step::Jump {
                            index: pc,
                            taken: false,
                        });
                        go(code, unroll, (pc + 1, fall, counts.clone()), out);
                    }
                    let mut counts = counts.clone();
                    if *target <= pc {
                        if counts[pc] == unroll {
                            out.1 += 1;
                            return;
                        }
                        counts[pc] += 1;
                    }
                    let taken = with(Step::Jump {
                        index: pc,
                        taken: true,
                    });
                    go(code, unroll, (*target, taken, counts), out);
                }
                Instruction::Access(a) if a.cas.is_some() => {
                    for success in [true, false] {
                        let s = with(Step::Cas { index: pc, success });
                        go(code, unroll, (pc + 1, s, counts.clone()), out);
                    }
                }
                _ => go(code, unroll, (pc + 1, with(Step::Exec(pc)), counts), out),
            }
        }
        let mut out = (Vec::new(), 0);
        let start = (0, Vec::new(), vec![0; thread.code.len()]);
        go(&thread.code, unroll, start, &mut out);
        out
    }

    fn check_against_reference(program: &Program) {
        for thread in &program.threads {
            for unroll in 0..4 {
                let walked = thread_paths(thread, 0, unroll, PathLimits::default()).unwrap();
                let (mut paths, dropped) = reference(thread, unroll);
                // Steps have no order of their own: sort by their spelling.
                paths.sort_by_key(|p| format!("{p:?}"));
                let mut got: Vec<Vec<Step>> = walked.paths.into_iter().map(|p| p.steps).collect();
                got.sort_by_key(|p| format!("{p:?}"));
                assert_eq!(got, paths, "unroll {unroll}");
                assert_eq!(walked.dropped, dropped, "unroll {unroll}");
            }
        }
    }

    #[test]
    fn the_walk_lists_the_paths_a_plain_enumeration_lists() {
        // Nested loops (a conditional inner one, an unconditional outer one), a forward
        // jump over a store, and a loop whose only way out is a forward jump.
        check_against_reference(&vulkan(
            "VULKAN loops
{ x = 0; }
P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;
LC00: | LC10: ;
ld.sc0 r0, x | ld.sc0 r0, x ;
LC01: | beq r0, 1, LC11 ;
ld.sc0 r1, x | goto LC10 ;
bne r1, 0, LC01 | LC11: ;
beq r0, 2, LC02 | st.sc0 x, 1 ;
st.sc0 x, 1 | ;
LC02: | ;
bne r0, 0, LC00 | ;
exists (x == 1)
",
        ));
        // Compare-exchanges: two ways each, in a loop.
        check_against_reference(&opencl(
            "OPENCL cas-loop
{ [l] = 0; }
P0@wg 0, dev 0 (global atomic_int* l) {
  int e = 0;
  int ok = 0;
  while (ok == 0) {
    e = 0;
    ok = atomic_compare_exchange_strong_explicit(l, &e, 1, memory_order_acquire, memory_order_relaxed);
  }
}
exists (l = 1)
",
        ));
    }

    #[test]
    fn the_walk_stops_at_its_limits() {
        let spin = vulkan(
            "VULKAN spin
{ m = 0; }
P0@sg 0, wg 0, qf 0 ;
LC00: ;
rmw.atom.acq.wg.sc0.semsc0.semvis r0, m, 1 ;
bne r0, 0, LC00 ;
exists (m == 1)
",
        );
        let thread = &spin.threads[0];
        // At unroll 100 the loop has 101 paths (0 to 100 failed RMWs: an RMW and a jump
        // per iteration, taken or not), whose steps are 2 + 4 + ... + 202 = 101 * 102 in
        // all, and one dropped path of 201 steps (its last jump is not taken).
        let ok = thread_paths(thread, 0, 100, PathLimits::default()).unwrap();
        assert_eq!((ok.paths.len(), ok.dropped), (101, 1));
        let all: usize = ok.paths.iter().map(|p| p.steps.len()).sum();
        assert_eq!(all, 101 * 102);
        let limits = |paths, steps| PathLimits { paths, steps };
        assert_eq!(
            thread_paths(thread, 3, 100, limits(100, 1_000_000)).unwrap_err(),
            PathLimitError::TooMany {
                thread: 3,
                limit: 100
            }
        );
        assert!(thread_paths(thread, 0, 100, limits(101, 101 * 102 + 201)).is_ok());
        assert_eq!(
            thread_paths(thread, 0, 100, limits(101, 101 * 102 + 200)).unwrap_err(),
            PathLimitError::TooLong {
                thread: 0,
                limit: 101 * 102 + 200
            }
        );
        // A runaway bound stops as soon as the steps walked pass the limit, long before
        // its 10^10 steps would be listed.
        assert_eq!(
            thread_paths(thread, 0, 100_000, PathLimits::default()).unwrap_err(),
            PathLimitError::TooLong {
                thread: 0,
                limit: 10_000_000
            }
        );
    }
}
