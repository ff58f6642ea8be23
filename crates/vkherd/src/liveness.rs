//! The liveness part of a report (liveness.md "Command line and report"): the verdict
//! line, one line per invocation that does not terminate in the witness, the JSON object,
//! and the witness drawn.

use crate::json::{LivenessObject, ProgressLevels, StuckThread};
use std::collections::BTreeMap;
use vkherd_enumerate::liveness::endings::{Ending, LPath};
use vkherd_enumerate::liveness::{EndingKind, Level, Liveness, Tree, Verdict};
use vkherd_model::{Instruction, Program, StaticSet};

pub use vkherd_enumerate::liveness::{Progress, ProgressError, ProgressModel};

/// How to name instructions and labels: from the source text when there is one.
pub struct Names<'a> {
    program: &'a Program,
    source: Option<&'a str>,
    /// Label names by thread and instruction index.
    labels: Vec<BTreeMap<usize, String>>,
}

impl<'a> Names<'a> {
    pub fn new(program: &'a Program, source: Option<&'a str>) -> Names<'a> {
        Names {
            program,
            source,
            labels: source.map(labels_of).unwrap_or_default(),
        }
    }

    /// The source text of instruction `pc` of thread `t` (a description without source).
    pub fn instr(&self, t: usize, pc: usize) -> String {
        let code = &self.program.threads[t].code;
        let span = match code.get(pc) {
            Some(Instruction::Access(a)) => a.span,
            Some(Instruction::Arith { span, .. }) | Some(Instruction::Jump { span, .. }) => *span,
            None => return "the end".into(),
        };
        let text = self
            .source
            .and_then(|s| s.get(span.offset..span.offset + span.len))
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|t| !t.is_empty());
        match text {
            Some(t) => t.trim_end_matches(';').trim().to_string(),
            None => crate::execution::instruction_label(self.program, None, t, pc),
        }
    }

    /// The label at instruction `pc` of thread `t` (`LC00`), or `instruction K`.
    pub fn label(&self, t: usize, pc: usize) -> String {
        match self.labels.get(t).and_then(|l| l.get(&pc)) {
            Some(name) => name.clone(),
            None => format!("instruction {pc}"),
        }
    }
}

/// Label names of each thread of a `.litmus` source, keyed by the index of the
/// instruction they mark (as the lowering counts them).
fn labels_of(source: &str) -> Vec<BTreeMap<usize, String>> {
    let Ok(test) = vkherd_dialects::vulkan::parse_litmus(source) else {
        return Vec::new();
    };
    test.code
        .iter()
        .map(|code| {
            let mut out = BTreeMap::new();
            let mut index = 0;
            for i in code {
                match &i.value {
                    vkherd_dialects::vulkan::ast::Instr::Label(l) => {
                        out.entry(index).or_insert_with(|| l.clone());
                    }
                    _ => index += 1,
                }
            }
            out
        })
        .collect()
}

/// `Liveness: violation (progress obe)` and the lines under it.
pub fn text(l: &Liveness, program: &Program, names: &Names<'_>, unroll: u32) -> String {
    let mut out = String::new();
    let head = format!("Liveness: {} (progress {})", l.verdict.name(), l.progress);
    match l.verdict {
        Verdict::Unknown => {
            out.push_str(&head);
            out.push_str(": ");
            out.push_str(&unknown_reason(l, names, unroll));
            out.push('\n');
        }
        Verdict::Ok => {
            out.push_str(&head);
            out.push('\n');
        }
        Verdict::Violation => {
            out.push_str(&head);
            out.push('\n');
            for line in thread_lines(l, program, names) {
                out.push_str("  ");
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// Why the verdict is `unknown`: the loop cut by the bound, or the limit that stopped
/// the run.
pub fn unknown_reason(l: &Liveness, names: &Names<'_>, unroll: u32) -> String {
    match (l.cut, l.stopped) {
        (Some((t, jump)), _) => {
            let target = jump_target(names.program, t, jump);
            format!(
                "P{t} loops at {} beyond --unroll {unroll}",
                names.label(t, target)
            )
        }
        (None, Some(reason)) => crate::stop_text(reason, l.combinations),
        (None, None) => "no answer".into(),
    }
}

fn jump_target(program: &Program, t: usize, pc: usize) -> usize {
    match &program.threads[t].code[pc] {
        Instruction::Jump { target, .. } => *target,
        _ => pc,
    }
}

/// One line per invocation that does not terminate in the witness.
pub fn thread_lines(l: &Liveness, program: &Program, names: &Names<'_>) -> Vec<String> {
    let Some(w) = &l.witness else {
        return Vec::new();
    };
    let inv = w.states();
    let tree = Tree::of(program);
    let mut out = Vec::new();
    for (t, p) in w.paths.iter().enumerate() {
        let line = match p.ending {
            Ending::Terminated | Ending::Cut { .. } => continue,
            Ending::Spinning { jump, start, .. } => {
                let at = names.label(t, jump_target(program, t, jump));
                let reads = reads_text(w, names, t, start, p.path.steps.len(), ReadRole::Spin);
                if reads.is_empty() {
                    format!("P{t} spinning at {at} (it reads nothing)")
                } else {
                    format!("P{t} spinning at {at}: {reads}")
                }
            }
            Ending::Repeating { jump, a, b } => {
                let at = names.label(t, jump_target(program, t, jump));
                let (na, nb) = (
                    iterations(p, jump, a, b),
                    iterations(p, jump, b, p.path.steps.len()),
                );
                let reads = reads_text(w, names, t, b, p.path.steps.len(), ReadRole::LapB);
                let laps = if na == nb {
                    format!(
                        "laps A and B of {} each",
                        crate::report::plural(na, "iteration")
                    )
                } else {
                    format!("laps A and B of {na} and {nb} iterations")
                };
                if reads.is_empty() {
                    format!("P{t} repeating at {at}: {laps}")
                } else {
                    format!("P{t} repeating at {at}: {laps}; in B {reads}")
                }
            }
            Ending::Blocked { cbar } => {
                format!(
                    "P{t} blocked at {} ({})",
                    names.instr(t, cbar),
                    absent(w, program, t, cbar)
                )
            }
            Ending::Paused => {
                let place = paused_place(p, names, t);
                let why = tree
                    .why_unscheduled(&l.progress, &inv, t)
                    .map(|u| u.text())
                    .unwrap_or_else(|| "not guaranteed".into());
                format!("P{t} paused {place} ({why})")
            }
        };
        out.push(line);
    }
    out
}

/// Iterations of the backward jump `jump` in `steps[from..to]`.
fn iterations(p: &LPath, jump: usize, from: usize, to: usize) -> u64 {
    p.path.steps[from..to]
        .iter()
        .filter(|s| matches!(s, vkherd_enumerate::paths::Step::Jump { index, taken: true } if *index == jump))
        .count() as u64
}

/// `before its first instruction`, `after st.atom.dv.sc0 x, 1`.
fn paused_place(p: &LPath, names: &Names<'_>, t: usize) -> String {
    use vkherd_enumerate::paths::Step;
    match p.path.steps.last() {
        None => "before its first instruction".into(),
        Some(Step::Exec(i)) | Some(Step::Cas { index: i, .. }) => {
            format!("after {}", names.instr(t, *i))
        }
        Some(Step::Jump { index, .. }) => format!("after {}", names.instr(t, *index)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ReadRole {
    Spin,
    LapB,
}

/// `ld... r0, flag reads 0 (initial value, final)` for each read of `steps[from..to]` of
/// thread `t`, joined by `; `.
fn reads_text(
    w: &vkherd_enumerate::liveness::Witness,
    names: &Names<'_>,
    t: usize,
    from: usize,
    to: usize,
    role: ReadRole,
) -> String {
    let c = &w.execution;
    let s = &c.statics;
    let lap_of = |e: usize| -> Option<&'static str> {
        let th = s.events()[e].thread;
        let p = &w.paths[th];
        let Ending::Repeating { a, b, .. } = p.ending else {
            return None;
        };
        let pos = w.step_events[th].iter().position(|x| *x == Some(e))?;
        if pos >= b {
            Some("lap B")
        } else if pos >= a {
            Some("lap A")
        } else {
            None
        }
    };
    let mut parts = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for e in w.step_events[t][from..to].iter().flatten().copied() {
        if !s.set(StaticSet::R).contains(e) {
            continue;
        }
        let instr = s.events()[e].instr;
        // A loop body read twice in laps: once per instruction.
        if !seen.insert(instr) {
            continue;
        }
        let value = c.values.read[e];
        let from_text = if c.rfinit.contains(e) {
            "initial value".to_string()
        } else {
            match c.rf.pairs().find(|&(_, r)| r == e) {
                Some((src, _)) => {
                    let st = s.events()[src].thread;
                    let lap = lap_of(src).map(|l| format!("'s {l}")).unwrap_or_default();
                    format!(
                        "from P{st}{lap}: {}",
                        names.instr(st, s.events()[src].instr)
                    )
                }
                None => "no source".into(),
            }
        };
        let status = match (
            role,
            c.rfinit.contains(e) || !c.rf.pairs().any(|(w2, r)| r == e && lap_of(w2).is_some()),
        ) {
            (_, true) => "final",
            (ReadRole::Spin, false) | (ReadRole::LapB, false) => "repeated",
        };
        parts.push(format!(
            "{} reads {value} ({from_text}, {status})",
            names.instr(t, instr)
        ));
    }
    parts.join("; ")
}

/// Who the blocked cbar waits for in vain: `P1 never arrives (terminated)`.
fn absent(
    w: &vkherd_enumerate::liveness::Witness,
    program: &Program,
    t: usize,
    cbar: usize,
) -> String {
    let Some(Instruction::Access(a)) = program.threads[t].code.get(cbar) else {
        return String::new();
    };
    let Some(b) = &a.barrier else {
        return String::new();
    };
    let me = &program.threads[t];
    let has = |u: usize| {
        program.threads[u].code.iter().any(|i| {
            matches!(i, Instruction::Access(x) if x.barrier.as_ref().is_some_and(|c| c.instance == b.instance && c.id == b.id))
        })
    };
    if let Some(q) = b.quorum {
        let arrived = w
            .paths
            .iter()
            .enumerate()
            .filter(|(u, p)| {
                matches!(p.ending, Ending::Blocked { cbar: c } if program.threads[*u].same_instance(me, program.dialect.barrier_level) && barrier_of(program, *u, c) == Some(b))
            })
            .count();
        return format!("{arrived} arrived of a quorum of {q}");
    }
    let missing: Vec<String> = (0..program.threads.len())
        .filter(|&u| u != t && program.threads[u].same_instance(me, program.dialect.barrier_level) && has(u))
        .filter(|&u| !matches!(w.paths[u].ending, Ending::Blocked { cbar: c } if barrier_of(program, u, c) == Some(b)))
        .map(|u| format!("P{u}, {}", ending_word(&w.paths[u])))
        .collect();
    if missing.is_empty() {
        "waits forever".into()
    } else {
        format!("waits for {}", missing.join("; "))
    }
}

fn barrier_of(program: &Program, t: usize, pc: usize) -> Option<&vkherd_model::BarrierName> {
    match program.threads[t].code.get(pc) {
        Some(Instruction::Access(a)) => a.barrier.as_ref(),
        _ => None,
    }
}

fn ending_word(p: &LPath) -> &'static str {
    match p.ending.kind() {
        EndingKind::Terminated => "which terminated without arriving",
        EndingKind::Spinning => "which spins before arriving",
        EndingKind::Repeating => "which repeats before arriving",
        EndingKind::Blocked => "which is blocked elsewhere",
        EndingKind::Paused => "which is paused before arriving",
    }
}

/// The `"liveness"` object of the JSON report.
pub fn json(l: &Liveness, program: &Program, names: &Names<'_>, unroll: u32) -> LivenessObject {
    let level = |lv: Level| l.progress.at(lv).name().to_string();
    let mut threads = Vec::new();
    if l.verdict == Verdict::Violation {
        let lines = thread_lines(l, program, names);
        let mut k = 0;
        if let Some(w) = &l.witness {
            for (t, p) in w.paths.iter().enumerate() {
                if matches!(p.ending, Ending::Terminated | Ending::Cut { .. }) {
                    continue;
                }
                threads.push(StuckThread {
                    thread: format!("P{t}"),
                    ending: p.ending.kind().name().to_string(),
                    started: p.started(),
                    text: lines.get(k).cloned(),
                });
                k += 1;
            }
        }
    }
    LivenessObject {
        verdict: l.verdict.name().to_string(),
        progress: ProgressLevels {
            qf: level(Level::Qf),
            wg: level(Level::Wg),
            sg: level(Level::Sg),
            inv: level(Level::Inv),
        },
        progress_text: l.progress.to_string(),
        threads,
        reason: (l.verdict == Verdict::Unknown).then(|| unknown_reason(l, names, unroll)),
        combinations: l.combinations,
    }
}

/// The models one step weaker than `p`: one level's model replaced by the next weaker
/// ones along fair, lobe, hsa_obe, then hsa or obe, then unfair.
pub fn weaker(p: &Progress) -> Vec<Progress> {
    use ProgressModel as M;
    let next = |m: M| -> Vec<M> {
        match m {
            M::Fair => vec![M::Lobe],
            M::Lobe => vec![M::HsaObe],
            M::HsaObe => vec![M::Hsa, M::Obe],
            M::Hsa | M::Obe => vec![M::Unfair],
            M::Unfair => vec![],
        }
    };
    if let Some(m) = p.uniform_model() {
        return next(m).into_iter().map(Progress::uniform).collect();
    }
    let mut out = Vec::new();
    for lv in Level::ALL {
        for w in next(p.at(lv)) {
            let mut q = *p;
            q.levels[lv as usize] = w;
            out.push(q);
        }
    }
    out
}

/// The text of `vkherd explain --liveness`: the verdict under `opts.liveness` with its
/// witness; for `ok`, the nearest weaker models with a violation and why the model
/// rules their witnesses out. The model is the one a run judges the test by: a test of a
/// dialect `--model` is not for is refused, as the run refuses it.
pub fn explain(
    program: &Program,
    source: Option<&str>,
    opts: &crate::Options,
) -> Result<String, crate::Diagnostic> {
    let model = (opts.model.resolve(program.dialect)).map_err(|e| e.diagnostic(&program.name))?;
    let eo = model.enum_options(&opts.run);
    let progress = opts.liveness.unwrap_or_default();
    let names = Names::new(program, source);
    let check = |p: &Progress| {
        vkherd_enumerate::liveness::check(program, &eo, p)
            .map_err(|e| crate::locate::enum_diagnostic(program, e))
    };
    let here = check(&progress)?;
    let mut out = text(&here, program, &names, opts.run.unroll);
    if here.verdict != Verdict::Ok {
        return Ok(out);
    }
    // Walk down to weaker models until one has a violation.
    let mut frontier = weaker(&progress);
    let mut seen = std::collections::HashSet::new();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        let mut any = false;
        for p in frontier {
            if !seen.insert(p) {
                continue;
            }
            let l = check(&p)?;
            if l.verdict != Verdict::Violation {
                next.extend(weaker(&p));
                continue;
            }
            any = true;
            let w = l.witness.as_ref().expect("a violation has a witness");
            let why = Tree::of(program)
                .rejection(&progress, &w.states())
                .unwrap_or_else(|| "it accepts it".into());
            out.push_str(&format!(
                "Under {p} it is a violation:\n{}{progress} rules this out: {why}.\n",
                thread_lines(&l, program, &names)
                    .iter()
                    .map(|s| format!("  {s}\n"))
                    .collect::<String>()
            ));
        }
        if any {
            break;
        }
        frontier = next;
    }
    Ok(out)
}

/// The witness of `l` (or the execution reaching its cut) as an execution to draw: the
/// spin iterations and laps A and B marked, and how each thread that does not terminate
/// ends. `None` without a witness.
pub fn witness_execution(
    l: &Liveness,
    program: &Program,
    source: Option<&str>,
    model: &vkherd_cat::Model,
) -> Option<crate::execution::Execution> {
    let w = l.witness.as_ref()?;
    let mut ex = crate::execution::Execution::new(program, source, model, &w.execution, &[], &[]);
    ex.state = match l.verdict {
        Verdict::Unknown => format!(
            "liveness: unknown (progress {}): an execution reaching the cut",
            l.progress
        ),
        _ => format!("liveness: {} (progress {})", l.verdict.name(), l.progress),
    };
    let names = Names::new(program, source);
    let lines = thread_lines(l, program, &names);
    let mut k = 0;
    for (t, p) in w.paths.iter().enumerate() {
        let len = p.path.steps.len();
        let ranges: Vec<(usize, usize, &str)> = match p.ending {
            Ending::Spinning { start, .. } => vec![(start, len, "spin")],
            Ending::Repeating { a, b, .. } => vec![(a, b, "lap A"), (b, len, "lap B")],
            Ending::Cut { start, .. } => vec![(start, len, "cut")],
            _ => Vec::new(),
        };
        for (from, to, mark) in ranges {
            for e in w.step_events[t][from..to].iter().flatten() {
                ex.marks.insert(*e, mark.to_string());
            }
        }
        match p.ending {
            Ending::Terminated => {}
            Ending::Cut { .. } => {
                ex.endings.insert(
                    t,
                    format!(
                        "cut by --unroll at {}",
                        names.label(
                            t,
                            match p.ending {
                                Ending::Cut { jump, .. } => jump_target(program, t, jump),
                                _ => 0,
                            }
                        )
                    ),
                );
            }
            _ if l.verdict == Verdict::Violation => {
                if let Some(line) = lines.get(k) {
                    let text = line.strip_prefix(&format!("P{t} ")).unwrap_or(line);
                    ex.endings.insert(t, text.to_string());
                }
                k += 1;
            }
            Ending::Paused => {
                ex.endings.insert(
                    t,
                    paused_place(p, &names, t)
                        .replace("before", "paused before")
                        .replace("after ", "paused after "),
                );
            }
            _ => {}
        }
    }
    Some(ex)
}
