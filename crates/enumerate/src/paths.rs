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

/// The paths of one thread.
#[derive(Debug, Clone)]
pub struct ThreadPaths {
    pub paths: Vec<Path>,
    /// Paths dropped because a backward jump would be taken more than `unroll` times.
    pub dropped: u64,
}

/// Why path enumeration stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyPaths {
    pub thread: usize,
    pub limit: usize,
}

/// Enumerates every path of `thread`: both ways at every conditional jump; a backward jump
/// instruction may be taken at most `unroll` times per path, paths that need more are
/// dropped and counted.
pub fn thread_paths(
    thread: &Thread,
    index: usize,
    unroll: u32,
    limit: usize,
) -> Result<ThreadPaths, TooManyPaths> {
    let code = &thread.code;
    let mut out = ThreadPaths {
        paths: Vec::new(),
        dropped: 0,
    };
    // Depth-first over (pc, steps so far, times each jump was taken backwards).
    let mut stack: Vec<(usize, Vec<Step>, Vec<u32>)> = vec![(0, Vec::new(), vec![0; code.len()])];
    while let Some((mut pc, mut steps, mut taken_count)) = stack.pop() {
        loop {
            if pc >= code.len() {
                if out.paths.len() >= limit {
                    return Err(TooManyPaths {
                        thread: index,
                        limit,
                    });
                }
                out.paths.push(Path { steps });
                break;
            }
            match &code[pc] {
                Instruction::Jump { cond, target, .. } => {
                    let backward = *target <= pc;
                    let can_take = !backward || taken_count[pc] < unroll;
                    if cond.is_some() {
                        // Fall-through branch goes on the stack; we follow the taken one.
                        let mut fall = steps.clone();
                        fall.push(Step::Jump {
                            index: pc,
                            taken: false,
                        });
                        stack.push((pc + 1, fall, taken_count.clone()));
                    }
                    if !can_take {
                        out.dropped += 1;
                        break;
                    }
                    if backward {
                        taken_count[pc] += 1;
                    }
                    steps.push(Step::Jump {
                        index: pc,
                        taken: true,
                    });
                    pc = *target;
                }
                Instruction::Access(a) if a.cas.is_some() => {
                    // The failure goes on the stack; we follow the success.
                    let mut fail = steps.clone();
                    fail.push(Step::Cas {
                        index: pc,
                        success: false,
                    });
                    stack.push((pc + 1, fail, taken_count.clone()));
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
    }
    // Depth-first order with the taken branch first; make it deterministic and natural:
    // sort by the sequence of branch decisions (fall-through first, compare-exchange
    // success first).
    out.paths.sort_by(|a, b| {
        let key = |p: &Path| {
            p.steps
                .iter()
                .filter_map(|s| match s {
                    Step::Jump { taken, .. } => Some(*taken),
                    Step::Cas { success, .. } => Some(!*success),
                    Step::Exec(_) => None,
                })
                .collect::<Vec<_>>()
        };
        key(a).cmp(&key(b))
    });
    Ok(out)
}
