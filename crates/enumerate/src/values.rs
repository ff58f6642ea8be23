//! Values of a candidate: what each read returns, each write stores and each register
//! holds at the end, given the paths and `rf` (semantics.md "Candidate executions" and
//! "Out of thin air").
//!
//! Values are computed forward: a read returns its rf-source's value once that is known.
//! When that gets stuck, the reads on a cycle of rf plus data dependencies take every value
//! of the finite universe, and only assignments that agree with what the writes then
//! store are kept (thin-air executions). Branch decisions on the path must agree with the
//! values.

use crate::budget::Budget;
use crate::combine::Layout;
use crate::paths::{Path, Step};
use vkherd_model::{arith, compare, AccessKind, Instruction, Operand, Program, Rel};

/// Where a read takes its value from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Init,
    Write(usize),
}

/// A consistent assignment of values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Values {
    /// Value returned by each read event (0 for other events).
    pub read: Vec<i64>,
    /// Value stored by each write event (0 for other events).
    pub write: Vec<i64>,
    /// Final register values per thread, indexed by register number.
    pub regs: Vec<Vec<i64>>,
    /// The values depend on themselves through rf and data dependencies.
    pub thin_air: bool,
}

/// Most assignments of thin-air values tried for one candidate.
pub const MAX_THIN_AIR_ASSIGNMENTS: usize = 1 << 20;

/// The values of a path combination, computed per candidate rf.
pub struct ValueSolver<'a> {
    program: &'a Program,
    paths: Vec<&'a Path>,
    layout: &'a Layout,
    /// Registers per thread (largest register number + 1).
    reg_count: Vec<usize>,
    /// Per thread: its path has a branch decision that depends on values (a conditional
    /// jump, or a compare-exchange step other than a weak one's failure). Threads without
    /// one agree with every value assignment, so `branches_agree` skips them.
    decides: Vec<bool>,
    /// The thread of each event.
    thread_of: Vec<usize>,
    universe: Vec<i64>,
    /// Checked while guessing thin-air values (up to a million forward runs per
    /// candidate), so that a time limit is not overrun inside one candidate.
    budget: Option<&'a Budget>,
}

/// What went wrong while solving values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyThinAir {
    pub reads: usize,
}

#[derive(Clone)]
struct Partial {
    read: Vec<Option<i64>>,
    write: Vec<Option<i64>>,
    regs: Vec<Vec<Option<i64>>>,
}

/// The values a partial rf determines (its forward fixpoint), kept by a search node so
/// that its extensions continue from it instead of running every thread again.
#[derive(Clone)]
pub(crate) struct Known(Partial);

impl<'a> ValueSolver<'a> {
    pub fn new(program: &'a Program, paths: Vec<&'a Path>, layout: &'a Layout) -> Self {
        let reg_count = program.threads.iter().map(max_reg_plus_one).collect();
        let decides = paths
            .iter()
            .enumerate()
            .map(|(t, path)| {
                path.steps.iter().any(|step| match *step {
                    Step::Exec(_) => false,
                    Step::Jump { index, .. } => matches!(
                        &program.threads[t].code[index],
                        Instruction::Jump { cond: Some(_), .. }
                    ),
                    Step::Cas { index, success } => match &program.threads[t].code[index] {
                        Instruction::Access(a) => {
                            success || a.cas.as_ref().is_some_and(|c| !c.weak)
                        }
                        _ => true,
                    },
                })
            })
            .collect();
        let thread_of = layout.events.iter().map(|e| e.thread).collect();
        // Shared with the bounds of register-dependent addresses, which must cover it.
        let universe = vkherd_model::addresses::universe(program);
        ValueSolver {
            program,
            paths,
            layout,
            reg_count,
            decides,
            thread_of,
            universe,
            budget: None,
        }
    }

    /// The values a thin-air guess may take: the program's constants, 0, and one more.
    /// The path combination and its layout.
    pub(crate) fn combination(&self) -> (&[&'a Path], &'a Layout) {
        (&self.paths, self.layout)
    }

    pub(crate) fn universe(&self) -> &[i64] {
        &self.universe
    }

    /// Stops thin-air guessing when `budget` runs out (the run is then marked partial).
    pub(crate) fn with_deadline(mut self, budget: &'a Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Every value assignment of the candidate `rf` (source per read event; `None` for
    /// events that are not reads) under which the path's branches agree.
    pub fn solve(&self, rf: &[Option<Source>]) -> Result<Vec<Values>, TooManyThinAir> {
        self.solve_from(rf, None)
    }

    /// [`Self::solve`], starting from the values `parent` knows for a part of `rf` (the
    /// same result: see [`Self::agrees_from`]).
    pub(crate) fn solve_from(
        &self,
        rf: &[Option<Source>],
        parent: Option<&Known>,
    ) -> Result<Vec<Values>, TooManyThinAir> {
        let n = self.layout.events.len();
        let p = self.forward_from(rf, parent).0;
        let unknown: Vec<usize> = (0..n)
            .filter(|&e| rf[e].is_some() && p.read[e].is_none())
            .collect();
        if unknown.is_empty() {
            return Ok(self.finish(&p, false).into_iter().collect());
        }
        // Thin air: guess the reads that lie on a dependency cycle.
        let cyclic = self.cyclic_reads(rf, &unknown);
        let k = cyclic.len();
        let total = (self.universe.len() as u128)
            .checked_pow(k as u32)
            .unwrap_or(u128::MAX);
        if total > MAX_THIN_AIR_ASSIGNMENTS as u128 {
            return Err(TooManyThinAir { reads: k });
        }
        let mut out = Vec::new();
        let mut digits = vec![0usize; k];
        let mut tried = 0u32;
        'assignments: loop {
            tried = tried.wrapping_add(1);
            if tried.is_multiple_of(256) && self.budget.is_some_and(|b| !b.alive()) {
                break;
            }
            let guesses: Vec<(usize, i64)> = cyclic
                .iter()
                .zip(&digits)
                .map(|(&e, &d)| (e, self.universe[d]))
                .collect();
            let q = self.forward(rf, &guesses);
            // Keep the assignment only if every guessed read equals its source's value.
            let agrees = (0..n).all(|e| match rf[e] {
                None => true,
                Some(src) => q.read[e].is_some() && q.read[e] == self.source_value(src, &q, e),
            });
            if agrees {
                out.extend(self.finish(&q, true));
            }
            // Next assignment (odometer).
            for d in digits.iter_mut() {
                *d += 1;
                if *d < self.universe.len() {
                    continue 'assignments;
                }
                *d = 0;
            }
            break;
        }
        Ok(out)
    }

    /// With only some reads assigned (`rf[e] = None` for the others), do the branch
    /// decisions whose operands are already determined agree with the path? Sound for
    /// pruning: assigning more reads only determines more values, never changes a known one
    /// (values flow forward from assigned sources; unassigned reads stay unknown).
    pub fn partial_agrees(&self, rf: &[Option<Source>]) -> bool {
        // Without a value-dependent decision every assignment agrees (straight-line tests):
        // no need to run the threads.
        if !self.decides.iter().any(|&d| d) {
            return true;
        }
        let p = self.forward(rf, &[]);
        (0..self.paths.len()).all(|t| self.branches_agree(t, &p, true))
    }

    /// [`Self::partial_agrees`], starting from `parent`, the values known for a part of
    /// `rf` (its search node's parent's): `None` if some decision disagrees, else the
    /// values now known.
    ///
    /// Why continuing from the parent gives the same values: the parent's state is the
    /// least fixpoint for its rf, every value in it is derivable with the larger rf too,
    /// and the iteration goes on until no read can gain a value and no thread has new
    /// reads since its last run; the result is then a fixpoint made of derivable values,
    /// hence the least one (`fixpoint`'s argument). Only the threads that ran again can
    /// have a decision that changed: the others have the reads they had when the parent
    /// agreed, so only those are checked.
    pub(crate) fn agrees_from(
        &self,
        rf: &[Option<Source>],
        parent: Option<&Known>,
    ) -> Option<Option<Known>> {
        // Also without any decision to check: the values are kept for the children and
        // leaves, which then run only the threads their new reads reach.
        let (p, ran) = self.forward_from(rf, parent);
        (0..self.paths.len())
            .all(|t| !ran[t] || self.branches_agree(t, &p, true))
            .then_some(Some(Known(p)))
    }

    /// The forward fixpoint of `rf`, from scratch or continued from `parent`'s (see
    /// [`Self::agrees_from`]), and which threads ran.
    fn forward_from(&self, rf: &[Option<Source>], parent: Option<&Known>) -> (Partial, Vec<bool>) {
        let threads = self.paths.len();
        match parent {
            None => (self.forward(rf, &[]), vec![true; threads]),
            Some(Known(known)) => {
                let mut p = known.clone();
                let mut dirty = vec![false; threads];
                self.propagate(rf, &mut p, &mut dirty);
                let mut ran = vec![false; threads];
                self.iterate(rf, &mut p, &mut dirty, &mut ran);
                (p, ran)
            }
        }
    }

    /// The values determined by the reads assigned so far (`rf[e] = None` for the others):
    /// final registers per thread and values stored per write event, `None` where not yet
    /// known. A known value stays the same in every completion (values flow forward from
    /// assigned sources, and a thin-air guess only fills values that are unknown here).
    pub fn partial_values(
        &self,
        rf: &[Option<Source>],
    ) -> (Vec<Vec<Option<i64>>>, Vec<Option<i64>>) {
        let p = self.forward(rf, &[]);
        (p.regs, p.write)
    }

    /// Runs the threads forward from `rf`, with the reads of `guesses` fixed to the given
    /// values, until no more values become known.
    fn forward(&self, rf: &[Option<Source>], guesses: &[(usize, i64)]) -> Partial {
        let n = self.layout.events.len();
        let mut p = Partial {
            read: vec![None; n],
            write: vec![None; n],
            regs: Vec::new(),
        };
        for &(e, v) in guesses {
            p.read[e] = Some(v);
        }
        self.fixpoint(rf, &mut p);
        p
    }

    fn source_value(&self, src: Source, p: &Partial, read: usize) -> Option<i64> {
        match src {
            Source::Init => {
                let loc = self.layout.events[read]
                    .location
                    .expect("read has a location");
                Some(self.program.locations[loc].init)
            }
            Source::Write(w) => p.write[w],
        }
    }

    /// Runs the threads forward and propagates values along rf until nothing changes.
    ///
    /// A chaotic iteration: a thread is run again only when one of its reads has got a
    /// value since its last run. Every step only turns unknown values into known ones and
    /// a known value never changes (a run is a function of the known read values, and
    /// those only grow), so any order of runs that stops when no read can gain a value
    /// reaches the same least fixpoint as running every thread in every round: the same
    /// read and write values, and final registers from a run that saw the final reads.
    fn fixpoint(&self, rf: &[Option<Source>], p: &mut Partial) {
        let threads = self.paths.len();
        p.regs = (0..threads)
            .map(|t| vec![None; self.reg_count[t]])
            .collect();
        let mut dirty = vec![true; threads];
        // Reads of the initial value (and of writes whose values are already known) first.
        self.propagate(rf, p, &mut dirty);
        let mut ran = vec![false; threads];
        self.iterate(rf, p, &mut dirty, &mut ran);
    }

    /// Runs the dirty threads, propagating along rf after each run, until none is dirty;
    /// marks in `ran` the threads that ran.
    fn iterate(
        &self,
        rf: &[Option<Source>],
        p: &mut Partial,
        dirty: &mut [bool],
        ran: &mut [bool],
    ) {
        let mut again = true;
        while again {
            again = false;
            for t in 0..self.paths.len() {
                if !dirty[t] {
                    continue;
                }
                dirty[t] = false;
                ran[t] = true;
                let mut regs = std::mem::take(&mut p.regs[t]);
                self.run_thread(t, p, &mut regs);
                p.regs[t] = regs;
                if self.propagate(rf, p, dirty) {
                    again = true;
                }
            }
        }
    }

    /// Gives every unknown read whose source's value is known that value, and marks its
    /// thread to be run again; true if some read got a value.
    fn propagate(&self, rf: &[Option<Source>], p: &mut Partial, dirty: &mut [bool]) -> bool {
        let mut changed = false;
        for (e, src) in rf.iter().enumerate() {
            let Some(src) = *src else { continue };
            if p.read[e].is_none() {
                if let Some(v) = self.source_value(src, p, e) {
                    p.read[e] = Some(v);
                    dirty[self.thread_of[e]] = true;
                    changed = true;
                }
            }
        }
        changed
    }

    /// Sets `regs` to thread `t`'s registers at the start.
    fn initial_regs_into(&self, t: usize, regs: &mut Vec<Option<i64>>) {
        regs.clear();
        regs.resize(self.reg_count[t], Some(0));
        for &(r, v) in &self.program.threads[t].init_regs {
            regs[r as usize] = Some(v);
        }
    }

    fn initial_regs(&self, t: usize) -> Vec<Option<i64>> {
        let mut regs = Vec::new();
        self.initial_regs_into(t, &mut regs);
        regs
    }

    /// Executes thread `t` with the read values known so far, recording write values and
    /// leaving its final registers in `regs`.
    fn run_thread(&self, t: usize, p: &mut Partial, regs: &mut Vec<Option<i64>>) {
        self.run_thread_observed(t, p, regs, |_| {});
    }

    /// The registers of thread `t` before each step of its path and after the last one
    /// (`steps + 1` rows), given a complete assignment of `values` (liveness: the lap
    /// rule and spin iterations compare registers at iteration boundaries).
    pub fn register_trace(&self, t: usize, values: &Values) -> Vec<Vec<i64>> {
        let mut p = Partial {
            read: values.read.iter().map(|&v| Some(v)).collect(),
            write: values.write.iter().map(|&v| Some(v)).collect(),
            regs: Vec::new(),
        };
        let unwrap = |r: &[Option<i64>]| r.iter().map(|x| x.unwrap_or(0)).collect::<Vec<i64>>();
        let mut rows = vec![unwrap(&self.initial_regs(t))];
        let mut regs = Vec::new();
        self.run_thread_observed(t, &mut p, &mut regs, |r| rows.push(unwrap(r)));
        rows
    }

    /// [`Self::run_thread`], calling `observe` with the registers after each step.
    fn run_thread_observed(
        &self,
        t: usize,
        p: &mut Partial,
        regs: &mut Vec<Option<i64>>,
        mut observe: impl FnMut(&[Option<i64>]),
    ) {
        self.initial_regs_into(t, regs);
        let regs = &mut regs[..];
        let code = &self.program.threads[t].code;
        for (s, step) in self.paths[t].steps.iter().enumerate() {
            self.run_step(t, s, *step, code, p, regs);
            observe(regs);
        }
    }

    /// Executes step `s` of thread `t`'s path with the read values known so far.
    fn run_step(
        &self,
        t: usize,
        s: usize,
        step: Step,
        code: &[Instruction],
        p: &mut Partial,
        regs: &mut [Option<i64>],
    ) {
        {
            let (i, cas_success) = match step {
                Step::Exec(i) => (i, None),
                Step::Cas { index, success } => (index, Some(success)),
                Step::Jump { .. } => return,
            };
            match &code[i] {
                Instruction::Access(a) => {
                    let e = self.layout.step_events[t][s].expect("access makes an event");
                    let operand = a.value.map(|o| value_of(o, regs));
                    if let (Some(success), Some(cas)) = (cas_success, &a.cas) {
                        // Success writes the desired value; failure writes nothing. The
                        // value read goes to `dst` either way (C: on failure it replaces
                        // *expected, on success it equals it).
                        if success {
                            p.write[e] = operand.flatten();
                        }
                        if let Some(d) = a.dst {
                            regs[d as usize] = p.read[e];
                        }
                        if let Some(d) = cas.success_dst {
                            regs[d as usize] = Some(i64::from(success));
                        }
                        return;
                    }
                    match a.kind {
                        AccessKind::Load => {
                            if let Some(d) = a.dst {
                                regs[d as usize] = p.read[e];
                            }
                        }
                        AccessKind::Store => p.write[e] = operand.flatten(),
                        AccessKind::Rmw => {
                            let old = p.read[e];
                            p.write[e] = match (old, operand.flatten()) {
                                (Some(x), Some(v)) => Some(match a.rmw_op {
                                    Some(op) => arith(op, x, v),
                                    None => v,
                                }),
                                _ => None,
                            };
                            if let Some(d) = a.dst {
                                regs[d as usize] = old;
                            }
                        }
                        _ => {}
                    }
                }
                Instruction::Arith { op, dst, a, b, .. } => {
                    regs[*dst as usize] = match (value_of(*a, regs), value_of(*b, regs)) {
                        (Some(x), Some(y)) => Some(arith(*op, x, y)),
                        _ => None,
                    };
                }
                Instruction::Jump { .. } => {}
            }
        }
    }

    /// Checks the path's branch decisions against known values and builds the result.
    fn finish(&self, p: &Partial, thin_air: bool) -> Option<Values> {
        for t in 0..self.paths.len() {
            if !self.branches_agree(t, p, false) {
                return None;
            }
        }
        let unwrap = |v: &Vec<Option<i64>>| v.iter().map(|x| x.unwrap_or(0)).collect::<Vec<i64>>();
        Some(Values {
            read: unwrap(&p.read),
            write: unwrap(&p.write),
            regs: p.regs.iter().map(unwrap).collect(),
            thin_air,
        })
    }

    /// Do the branch decisions of thread `t`'s path agree with the values? With
    /// `unknown_ok`, a branch whose operands are not yet known counts as agreeing.
    fn branches_agree(&self, t: usize, p: &Partial, unknown_ok: bool) -> bool {
        if !self.decides[t] {
            return true;
        }
        let mut regs = self.initial_regs(t);
        let code = &self.program.threads[t].code;
        for (s, step) in self.paths[t].steps.iter().enumerate() {
            match *step {
                Step::Exec(i) => match &code[i] {
                    Instruction::Access(a) => {
                        if let (Some(d), Some(e)) = (a.dst, self.layout.step_events[t][s]) {
                            regs[d as usize] = p.read[e];
                        }
                    }
                    Instruction::Arith { op, dst, a, b, .. } => {
                        regs[*dst as usize] = match (value_of(*a, &regs), value_of(*b, &regs)) {
                            (Some(x), Some(y)) => Some(arith(*op, x, y)),
                            _ => None,
                        };
                    }
                    Instruction::Jump { .. } => {}
                },
                Step::Cas { index, success } => {
                    let Instruction::Access(a) = &code[index] else {
                        unreachable!("a compare-exchange step is an access")
                    };
                    let cas = a.cas.as_ref().expect("a compare-exchange step has cas");
                    let e = self.layout.step_events[t][s].expect("access makes an event");
                    let old = p.read[e];
                    // A weak compare-exchange may fail spuriously: its failure needs no
                    // value. Otherwise success needs old == expected, failure old !=
                    // expected (read before `dst`, which may be the expected register).
                    if success || !cas.weak {
                        match (old, value_of(cas.expected, &regs)) {
                            (Some(x), Some(y)) => {
                                if (x == y) != success {
                                    return false;
                                }
                            }
                            _ => {
                                if !unknown_ok {
                                    return false;
                                }
                            }
                        }
                    }
                    if let Some(d) = a.dst {
                        regs[d as usize] = old;
                    }
                    if let Some(d) = cas.success_dst {
                        regs[d as usize] = Some(i64::from(success));
                    }
                }
                Step::Jump { index, taken } => {
                    if let Instruction::Jump {
                        cond: Some((op, a, b)),
                        ..
                    } = &code[index]
                    {
                        match (value_of(*a, &regs), value_of(*b, &regs)) {
                            (Some(x), Some(y)) => {
                                if compare(*op, x, y) != taken {
                                    return false;
                                }
                            }
                            _ => {
                                if !unknown_ok {
                                    return false;
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    }

    /// The unknown reads that lie on a cycle of rf plus data dependencies.
    fn cyclic_reads(&self, rf: &[Option<Source>], unknown: &[usize]) -> Vec<usize> {
        let n = self.layout.events.len();
        let deps = self.write_dependencies();
        // Edge r -> d: read r takes its value from a write whose value depends on read d.
        let mut graph = Rel::empty(n);
        for &r in unknown {
            if let Some(Source::Write(w)) = rf[r] {
                for &d in &deps[w] {
                    graph.insert(r, d);
                }
            }
        }
        let closure = graph.plus();
        unknown
            .iter()
            .copied()
            .filter(|&r| closure.contains(r, r))
            .collect()
    }

    /// For each write event, the read events of its thread its stored value depends on
    /// (through registers).
    fn write_dependencies(&self) -> Vec<Vec<usize>> {
        let n = self.layout.events.len();
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
        for t in 0..self.paths.len() {
            let mut reg_deps: Vec<Vec<usize>> = vec![Vec::new(); self.reg_count[t]];
            let code = &self.program.threads[t].code;
            let of = |o: Operand, rd: &Vec<Vec<usize>>| match o {
                Operand::Reg(r) => rd[r as usize].clone(),
                Operand::Imm(_) => Vec::new(),
            };
            for (s, step) in self.paths[t].steps.iter().enumerate() {
                let i = match *step {
                    Step::Exec(i) => i,
                    Step::Cas { index, .. } => index,
                    Step::Jump { .. } => continue,
                };
                match &code[i] {
                    Instruction::Access(a) => {
                        let Some(e) = self.layout.step_events[t][s] else {
                            continue;
                        };
                        let mut d = a.value.map(|o| of(o, &reg_deps)).unwrap_or_default();
                        if a.kind == AccessKind::Rmw {
                            d.push(e);
                        }
                        deps[e] = d;
                        if let Some(dst) = a.dst {
                            reg_deps[dst as usize] = vec![e];
                        }
                        if let Some(dst) = a.cas.as_ref().and_then(|c| c.success_dst) {
                            reg_deps[dst as usize] = vec![e];
                        }
                    }
                    Instruction::Arith { dst, a, b, .. } => {
                        let mut d = of(*a, &reg_deps);
                        d.extend(of(*b, &reg_deps));
                        reg_deps[*dst as usize] = d;
                    }
                    Instruction::Jump { .. } => {}
                }
            }
        }
        deps
    }
}

fn value_of(o: Operand, regs: &[Option<i64>]) -> Option<i64> {
    match o {
        Operand::Reg(r) => regs[r as usize],
        Operand::Imm(v) => Some(v),
    }
}

/// Largest register number a thread mentions, plus one (at least 1).
pub(crate) fn max_reg_plus_one(t: &vkherd_model::Thread) -> usize {
    let mut m = 0u32;
    let mut see = |o: &Operand| {
        if let Operand::Reg(r) = o {
            m = m.max(*r);
        }
    };
    for i in &t.code {
        match i {
            Instruction::Access(a) => {
                if let Some(d) = a.dst {
                    see(&Operand::Reg(d));
                }
                if let Some(v) = &a.value {
                    see(v);
                }
                // A compare-exchange's expected value and its 1/0 result (an `int ok =
                // cas(...)` whose result nothing reads is the thread's last register).
                if let Some(c) = &a.cas {
                    see(&c.expected);
                    if let Some(d) = c.success_dst {
                        see(&Operand::Reg(d));
                    }
                }
            }
            Instruction::Arith { dst, a, b, .. } => {
                see(&Operand::Reg(*dst));
                see(a);
                see(b);
            }
            Instruction::Jump { cond, .. } => {
                if let Some((_, a, b)) = cond {
                    see(a);
                    see(b);
                }
            }
        }
    }
    for (r, _) in &t.init_regs {
        see(&Operand::Reg(*r));
    }
    m as usize + 1
}
