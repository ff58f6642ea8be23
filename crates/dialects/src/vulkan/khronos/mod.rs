//! Parser for the Khronos `.test` format (docs/khronos.md).
//!
//! The format is line based: the file is split into lines here (on `\n`; `\r` and other
//! whitespace are blanks, `//` starts a comment anywhere on a line) and each line is read
//! with small nom parsers ([`lex`], [`instr`], [`pred`]).
//!
//! # Groups
//!
//! `NEWQF`, `NEWWG` and `NEWSG` each bump a global counter of their kind; every
//! instruction sits in the groups current at its line, and a thread sits where its first
//! instruction does (an empty thread: where its `NEWTHREAD` line is). The groups must nest,
//! as the Alloy facts `sthd in ssg`, `ssg in swg`, `swg in sqf` require:
//!
//! - all instructions of a thread lie in one subgroup, workgroup and queue family (a group
//!   line between two instructions of one thread, without a `NEWTHREAD`, is an error);
//! - threads in one subgroup lie in one workgroup, and threads in one workgroup lie in one
//!   queue family. A level the file never opens is a single group spanning the file, so
//!   e.g. two `NEWWG`s holding threads need a `NEWSG` in each.
//!
//! The group indices of [`KhronosThread`] are then renumbered densely (0, 1, 2, ... in
//! file order) among the groups that hold threads; workgroup and subgroup indices are
//! global, not per parent group.
//!
//! # Spans
//!
//! A thread's span is its `NEWTHREAD` line; an instruction's and a check's span is the
//! whole line (without comment and surrounding blanks). Diagnostics point at the
//! offending token.

pub mod ast;
mod instr;
mod lex;
pub mod lower;
mod pred;

use ast::{KhronosCheck, KhronosInstr, KhronosOp, KhronosTest, KhronosThread, Span, Spanned};
use lex::{ident, skip_ws, uint_word, word, Line};
use std::collections::HashMap;
use vkherd_litmus::limits::{
    MAX_CHECKS, MAX_INSTRUCTIONS, MAX_INSTRUCTIONS_PER_THREAD, MAX_THREADS,
};
use vkherd_litmus::Diagnostic;

/// Parses a whole `.test` file.
pub fn parse_khronos(source: &str) -> Result<KhronosTest, Diagnostic> {
    let mut b = Builder::default();
    for line in Line::split(source) {
        b.line(&line)?;
    }
    b.finish()
}

const QF: usize = 0;
const WG: usize = 1;
const SG: usize = 2;
const GROUP_KEYWORDS: [&str; 3] = ["NEWQF", "NEWWG", "NEWSG"];
const GROUP_NAMES: [&str; 3] = ["queue family", "workgroup", "subgroup"];
const GROUP_PLURALS: [&str; 3] = ["queue families", "workgroups", "subgroups"];
const KEYWORDS: &str =
    "NEWQF, NEWWG, NEWSG, NEWTHREAD, SLOC, SSW, SATISFIABLE, NOSOLUTION or an instruction";

/// Raw group counters (qf, wg, sg) in effect at some line.
type Pos = [u64; 3];

/// The thread being read.
#[derive(Debug)]
struct Open {
    idx: usize,
    /// The groups at its `NEWTHREAD` line.
    start: Pos,
    /// The groups of its first instruction, and that instruction's line.
    placed: Option<(Pos, u32)>,
}

#[derive(Debug, Default)]
struct Builder {
    threads: Vec<KhronosThread>,
    open: Option<Open>,
    counters: Pos,
    /// The keyword of the last `NEWQF` / `NEWWG` / `NEWSG` line.
    last_group: [Option<Span>; 3],
    /// Thread number -> thread index.
    numbers: HashMap<u64, usize>,
    /// The number of the last thread (bare `NEWTHREAD`s count on from it).
    counter: u64,
    /// Raw workgroup -> (raw queue family, thread index) of its first thread.
    wg_home: HashMap<u64, (u64, usize)>,
    /// Raw subgroup -> (raw workgroup, thread index) of its first thread.
    sg_home: HashMap<u64, (u64, usize)>,
    slocs: Vec<Spanned<(String, String)>>,
    ssw: Vec<Spanned<(u64, u64)>>,
    /// The two numbers of each `SSW`, with their spans.
    ssw_numbers: Vec<[(u64, Span); 2]>,
    checks: Vec<KhronosCheck>,
    /// Instance number and its span, per cbar.
    cbars: Vec<(u64, Span)>,
    /// (variable, span of the `0`) of loads / RMWs pinned to read 0.
    zero_reads: Vec<(String, Span)>,
    /// (variable, span of the `0`, is an RMW) of stores / RMWs writing 0.
    zero_writes: Vec<(String, Span, bool)>,
    /// Instructions so far, all threads together.
    instructions: usize,
}

impl Builder {
    fn line(&mut self, line: &Line<'_>) -> Result<(), Diagnostic> {
        let body = line.body();
        let Some((rest, kw)) = word(body) else {
            return Ok(());
        };
        match kw {
            "NEWQF" => self.group(line, QF, kw, rest),
            "NEWWG" => self.group(line, WG, kw, rest),
            "NEWSG" => self.group(line, SG, kw, rest),
            "NEWTHREAD" => self.new_thread(line, kw, rest),
            "SLOC" => self.sloc(line, rest),
            "SSW" => self.ssw(line, rest),
            "SATISFIABLE" | "NOSOLUTION" => self.check(line, kw, rest),
            _ if looks_like_keyword(kw) => {
                Err(line.error(kw, format!("unknown keyword `{kw}`: expected {KEYWORDS}")))
            }
            _ => self.instr(line, body, kw),
        }
    }

    fn group(&mut self, line: &Line<'_>, k: usize, kw: &str, rest: &str) -> Result<(), Diagnostic> {
        if word(rest).is_some() {
            return Err(line.unexpected(rest, &format!("end of line after `{kw}`")));
        }
        self.counters[k] = self.counters[k]
            .checked_add(1)
            .ok_or_else(|| line.error(kw, format!("too many `{kw}` lines")))?;
        self.last_group[k] = Some(line.span(kw));
        Ok(())
    }

    fn new_thread(&mut self, line: &Line<'_>, kw: &str, rest: &str) -> Result<(), Diagnostic> {
        let explicit = match word(rest) {
            Some((after, w)) => {
                let n = uint_word(line, w, "thread number")?;
                if word(after).is_some() {
                    return Err(line.unexpected(after, "end of line after the thread number"));
                }
                Some((n, w))
            }
            None => None,
        };
        self.close()?;
        let (number, blame) = match explicit {
            Some((n, w)) => (n, w),
            None => {
                let n = self.counter.checked_add(1).ok_or_else(|| {
                    line.error(
                        kw,
                        format!(
                            "the thread number after {} overflows: expected `NEWTHREAD n`",
                            self.counter
                        ),
                    )
                })?;
                (n, kw)
            }
        };
        if let Some(&other) = self.numbers.get(&number) {
            let first = self.threads[other].span.line;
            let msg = if explicit.is_some() {
                format!(
                    "thread number `{number}` is used twice (the `NEWTHREAD` on line {first} \
                     has it too): expected a number no other thread has"
                )
            } else {
                format!(
                    "this bare `NEWTHREAD` numbers its thread {number} (one more than the \
                     previous thread), which the `NEWTHREAD` on line {first} already uses: \
                     expected `NEWTHREAD n` with an unused n"
                )
            };
            return Err(line.error(blame, msg));
        }
        if self.threads.len() >= MAX_THREADS {
            return Err(line.error(
                kw,
                format!("too many threads: expected at most {MAX_THREADS} `NEWTHREAD`s in a test"),
            ));
        }
        self.counter = number;
        let idx = self.threads.len();
        self.numbers.insert(number, idx);
        self.threads.push(KhronosThread {
            number,
            qf: 0,
            wg: 0,
            sg: 0,
            instrs: Vec::new(),
            span: line.content_span(),
        });
        self.open = Some(Open {
            idx,
            start: self.counters,
            placed: None,
        });
        Ok(())
    }

    /// Ends the thread being read; an empty thread sits where its `NEWTHREAD` was.
    fn close(&mut self) -> Result<(), Diagnostic> {
        if let Some(open) = self.open.take() {
            if open.placed.is_none() {
                self.place(open.idx, open.start)?;
            }
        }
        Ok(())
    }

    /// Puts thread `idx` into the groups `pos`, checking that the groups nest.
    fn place(&mut self, idx: usize, pos: Pos) -> Result<(), Diagnostic> {
        let t = &mut self.threads[idx];
        t.qf = pos[QF];
        t.wg = pos[WG];
        t.sg = pos[SG];
        for (child, parent, home) in [(WG, QF, &mut self.wg_home), (SG, WG, &mut self.sg_home)] {
            match home.get(&pos[child]) {
                Some(&(p, first)) if p != pos[parent] => {
                    let culprit = &self.last_group[parent];
                    let span = culprit.unwrap_or(self.threads[idx].span);
                    let (pk, ck) = (GROUP_KEYWORDS[parent], GROUP_KEYWORDS[child]);
                    let (pn, cn) = (GROUP_NAMES[parent], GROUP_NAMES[child]);
                    let pns = GROUP_PLURALS[parent];
                    let also = if child == WG { " (and `NEWSG`)" } else { "" };
                    let (a, b) = (&self.threads[first], &self.threads[idx]);
                    return Err(Diagnostic::new(
                        span,
                        format!(
                            "`{pk}` on line {} starts a new {pn} but not a new {cn}: thread {} \
                             (line {}) would share a {cn} with thread {} (line {}) across two \
                             {pns}; groups must nest: expected `{ck}`{also} after `{pk}`",
                            span.line, b.number, b.span.line, a.number, a.span.line
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    home.insert(pos[child], (pos[parent], idx));
                }
            }
        }
        Ok(())
    }

    fn instr(&mut self, line: &Line<'_>, body: &str, opcode: &str) -> Result<(), Diagnostic> {
        let Some(open) = &self.open else {
            return Err(line.error(
                opcode,
                format!(
                    "instruction `{opcode}` before the first `NEWTHREAD`: expected a \
                     `NEWTHREAD` line to start a thread"
                ),
            ));
        };
        let (idx, placed) = (open.idx, open.placed);
        let parsed = instr::parse_instr(line, body)?;
        let here = self.counters;
        match placed {
            None => {
                if let Some(open) = &mut self.open {
                    open.placed = Some((here, line.no));
                }
                self.place(idx, here)?;
            }
            Some((pos, first_line)) if pos != here => {
                let k = (0..3).find(|&k| pos[k] != here[k]).unwrap_or(SG);
                let span = self.last_group[k].unwrap_or_else(|| line.span(opcode));
                let kw = GROUP_KEYWORDS[k];
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "`{kw}` on line {} splits thread {}: its instructions on lines {} and \
                         {} would sit in two {}; expected `NEWTHREAD` after `{kw}`",
                        span.line, self.threads[idx].number, first_line, line.no, GROUP_PLURALS[k]
                    ),
                ));
            }
            Some(_) => {}
        }
        self.instructions += 1;
        if self.threads[idx].instrs.len() >= MAX_INSTRUCTIONS_PER_THREAD {
            return Err(line.error(
                opcode,
                format!(
                    "too many instructions in thread {}: expected at most \
                     {MAX_INSTRUCTIONS_PER_THREAD} per thread",
                    self.threads[idx].number
                ),
            ));
        }
        if self.instructions > MAX_INSTRUCTIONS {
            return Err(line.error(
                opcode,
                format!("too many instructions: expected at most {MAX_INSTRUCTIONS} in a test, all threads together"),
            ));
        }
        self.record(&parsed);
        self.threads[idx].instrs.push(parsed.instr);
        Ok(())
    }

    /// Notes what the whole-file checks need.
    fn record(&mut self, p: &instr::ParsedInstr) {
        let i: &KhronosInstr = &p.instr;
        if let (Some(n), Some(span)) = (i.instance, p.instance_span) {
            self.cbars.push((n, span));
        }
        let Some(var) = &i.var else { return };
        let (read, written) = match i.op {
            KhronosOp::Load => (i.values.first().map(|v| (*v, 0)), None),
            KhronosOp::Store => (None, i.values.first().map(|v| (*v, 0))),
            KhronosOp::Rmw => (
                i.values.first().map(|v| (*v, 0)),
                i.values.get(1).map(|v| (*v, 1)),
            ),
            _ => (None, None),
        };
        if let Some((0, k)) = read {
            if let Some(&span) = p.value_spans.get(k) {
                self.zero_reads.push((var.clone(), span));
            }
        }
        if let Some((0, k)) = written {
            if let Some(&span) = p.value_spans.get(k) {
                self.zero_writes
                    .push((var.clone(), span, i.op == KhronosOp::Rmw));
            }
        }
    }

    fn sloc(&mut self, line: &Line<'_>, rest: &str) -> Result<(), Diagnostic> {
        let mut names = Vec::with_capacity(2);
        let mut r = rest;
        for _ in 0..2 {
            let Some((next, w)) = word(r) else {
                return Err(line.unexpected(r, "two variable names: `SLOC a b`"));
            };
            match ident(w) {
                Some(("", name)) => names.push(name.to_string()),
                _ => {
                    return Err(line.error(
                        w,
                        format!("expected a variable name after `SLOC`, found `{w}`"),
                    ))
                }
            }
            r = next;
        }
        if word(r).is_some() {
            return Err(line.unexpected(r, "end of line after `SLOC a b`"));
        }
        let b = names.pop().unwrap_or_default();
        let a = names.pop().unwrap_or_default();
        self.slocs.push(Spanned::new((a, b), line.content_span()));
        Ok(())
    }

    fn ssw(&mut self, line: &Line<'_>, rest: &str) -> Result<(), Diagnostic> {
        let mut nums = [(0u64, Span::default()); 2];
        let mut r = rest;
        for num in &mut nums {
            let Some((next, w)) = word(r) else {
                return Err(line.unexpected(r, "two thread numbers: `SSW i j`"));
            };
            *num = (uint_word(line, w, "thread number")?, line.span(w));
            r = next;
        }
        if word(r).is_some() {
            return Err(line.unexpected(r, "end of line after `SSW i j`"));
        }
        self.ssw
            .push(Spanned::new((nums[0].0, nums[1].0), line.content_span()));
        self.ssw_numbers.push(nums);
        Ok(())
    }

    fn check(&mut self, line: &Line<'_>, kw: &str, rest: &str) -> Result<(), Diagnostic> {
        let (rest, nochains) = match word(rest) {
            Some((after, "NOCHAINS")) => (after, true),
            _ => (rest, false),
        };
        let text = skip_ws(rest);
        if text.is_empty() {
            return Err(line.error(
                text,
                format!("missing predicate after `{kw}`: expected e.g. `consistent[X] && #dr=0`"),
            ));
        }
        if self.checks.len() >= MAX_CHECKS {
            return Err(line.error(
                kw,
                format!("too many checks: expected at most {MAX_CHECKS} `SATISFIABLE`/`NOSOLUTION` lines in a test"),
            ));
        }
        let preds = pred::parse_pred(line, text)?;
        self.checks.push(KhronosCheck {
            satisfiable: kw == "SATISFIABLE",
            nochains,
            preds,
            text: text.to_string(),
            span: line.content_span(),
        });
        Ok(())
    }

    fn finish(mut self) -> Result<KhronosTest, Diagnostic> {
        self.close()?;
        if let Some(e) = self.file_errors().into_iter().min_by_key(|d| d.span.offset) {
            return Err(e);
        }
        // Dense group indices, in file order.
        for k in [QF, WG, SG] {
            let mut dense: HashMap<u64, u64> = HashMap::new();
            for t in &mut self.threads {
                let field = match k {
                    QF => &mut t.qf,
                    WG => &mut t.wg,
                    _ => &mut t.sg,
                };
                let next = dense.len() as u64;
                *field = *dense.entry(*field).or_insert(next);
            }
        }
        Ok(KhronosTest {
            threads: self.threads,
            slocs: self.slocs,
            ssw: self.ssw,
            checks: self.checks,
        })
    }

    /// The checks that need the whole file; the caller reports the earliest.
    fn file_errors(&self) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        // SSW names existing threads.
        for nums in &self.ssw_numbers {
            for &(n, span) in nums {
                if !self.numbers.contains_key(&n) {
                    let mut known: Vec<u64> = self.threads.iter().map(|t| t.number).collect();
                    known.sort_unstable();
                    let list = known
                        .iter()
                        .take(16)
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", ");
                    let more = if known.len() > 16 { ", ..." } else { "" };
                    errors.push(Diagnostic::new(
                        span,
                        format!(
                            "`SSW` names thread `{n}`, but no thread has that number: expected \
                             one of the thread numbers [{list}{more}]"
                        ),
                    ));
                }
            }
        }
        // A cbar instance needs at least two cbars.
        let mut uses: HashMap<u64, usize> = HashMap::new();
        for (n, _) in &self.cbars {
            *uses.entry(*n).or_insert(0) += 1;
        }
        for (n, span) in &self.cbars {
            if uses.get(n) == Some(&1) {
                errors.push(Diagnostic::new(
                    *span,
                    format!(
                        "control-barrier instance `{n}` is used only once: expected another \
                         `cbar... {n}` in another thread (cbars with one number form one \
                         dynamic instance)"
                    ),
                ));
            }
        }
        // A write of 0 to a name whose `= 0` read is pinned to the initial value.
        for (var, span, rmw) in &self.zero_writes {
            if let Some((_, read)) = self.zero_reads.iter().find(|(v, _)| v == var) {
                let what = if *rmw { "an RMW writing" } else { "a store of" };
                errors.push(Diagnostic::new(
                    *span,
                    format!(
                        "{what} `0` to `{var}`, which the `= 0` read on line {} also names: \
                         `= 0` pins that read to the initial value and also to every write \
                         of 0 to `{var}`, so no execution exists; expected a non-zero value",
                        read.line
                    ),
                ));
            }
        }
        errors
    }
}

/// An all-caps word that is not an instruction token: a misspelt keyword.
fn looks_like_keyword(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_uppercase())
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal() {
        let t = parse_khronos("NEWTHREAD\nld.sc0 x\nSATISFIABLE consistent[X]").unwrap();
        assert_eq!(t.threads.len(), 1);
        assert_eq!(t.threads[0].number, 1);
        assert_eq!(
            (t.threads[0].qf, t.threads[0].wg, t.threads[0].sg),
            (0, 0, 0)
        );
        assert_eq!(t.checks.len(), 1);
    }

    #[test]
    fn empty_input_is_an_empty_test() {
        let t = parse_khronos("").unwrap();
        assert!(t.threads.is_empty() && t.checks.is_empty());
        let t = parse_khronos("// only a comment\r\n\r\n").unwrap();
        assert!(t.threads.is_empty());
    }

    #[test]
    fn keyword_typo() {
        let e = parse_khronos("NEWTHRED\n").unwrap_err();
        assert!(
            e.message.contains("unknown keyword `NEWTHRED`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn group_counters_overflow_is_not_reachable_but_checked() {
        let mut b = Builder {
            counters: [u64::MAX; 3],
            ..Default::default()
        };
        let line = Line::split("NEWSG").next().unwrap();
        assert!(b.line(&line).unwrap_err().message.contains("too many"));
    }
}
