//! Candidate executions kept whole, for explanations and graphs (`vkherd explain`,
//! `--graph`, the HTML report).
//!
//! - [`witnesses`]: one consistent execution per final state, the least in a fixed
//!   order ([`Captured::key`]: race-free and not thin air first, then paths, rf, asmo and
//!   values), so the same whatever the thread count.
//! - [`candidates_reaching`]: every candidate, consistent or not, with a final state the
//!   caller asks about. It runs the plain enumeration (the search's pruning hides
//!   inconsistent candidates), so it is for small tests: past `limit` candidates kept it
//!   stops with [`CaptureError::TooMany`].
//!
//! Final states are those of semantics.md "Outcomes" for consistent candidates. An
//! inconsistent candidate's `co` may be cyclic; its final writes are then those whose
//! every `co` successor is also a `co` predecessor (the last strongly connected
//! component), which for an acyclic `co` is the same thing as the maximal writes.

use crate::engine::Judgement;
use crate::error::EnumError;
use crate::options::EnumOptions;
use crate::options::RunConfig;
use crate::stats::{EnumStats, StopReason};
use crate::visitor::{CandidateView, Visitor};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use vkherd_model::{EventSet, Observable, Program, Rel, StaticRel, Statics};

pub use crate::values::Values;

/// One candidate execution, owned.
#[derive(Debug, Clone)]
pub struct Captured {
    /// Events and static relations of its path combination and barrier meeting.
    pub statics: Statics,
    pub rf: Rel,
    pub rfinit: EventSet,
    pub asmo: Rel,
    pub values: Values,
    /// Every non-flag check of the model holds.
    pub consistent: bool,
    /// Some flag of the model is raised (Vulkan: a data race).
    pub racy: bool,
    /// Its final states, in column order ([`Program::observed`]), filter not applied.
    pub states: Vec<Vec<i64>>,
    /// Its place in the fixed order of candidates.
    pub key: Vec<i64>,
}

/// Why capturing failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureError {
    Enum(EnumError),
    /// More than `limit` candidates would be kept.
    TooMany {
        limit: u64,
    },
    /// The run stopped at `max_candidates` or the time limit, after `candidates`
    /// candidates: the list is not complete.
    Stopped {
        reason: StopReason,
        candidates: u64,
    },
}

/// One consistent execution for each final state (filter applied, `no_thin_air`
/// honoured), by state in column order.
pub fn witnesses(
    program: &Program,
    opts: &EnumOptions,
) -> Result<(BTreeMap<Vec<i64>, Captured>, EnumStats), CaptureError> {
    let v = WitnessCollector { program };
    let (acc, stats) = crate::driver::enumerate(program, opts, &v).map_err(CaptureError::Enum)?;
    if let Some(reason) = stats.stopped {
        return Err(CaptureError::Stopped {
            reason,
            candidates: stats.candidates,
        });
    }
    Ok((acc, stats))
}

/// Every candidate (consistent or not; thin air left out with `no_thin_air`) with a final
/// state for which `wanted` is true, in the fixed order. At most `limit` are kept.
pub fn candidates_reaching(
    program: &Program,
    opts: &EnumOptions,
    wanted: &(dyn Fn(&[i64]) -> bool + Sync),
    limit: u64,
) -> Result<(Vec<Captured>, EnumStats), CaptureError> {
    let v = CandidateCollector {
        program,
        wanted,
        limit,
        kept: AtomicU64::new(0),
        overflow: AtomicBool::new(false),
    };
    let opts = EnumOptions {
        run: RunConfig {
            naive: true,
            ..opts.run.clone()
        },
        ..opts.clone()
    };
    let (mut acc, stats) =
        crate::driver::enumerate(program, &opts, &v).map_err(CaptureError::Enum)?;
    if v.overflow.load(Ordering::Relaxed) {
        return Err(CaptureError::TooMany { limit });
    }
    if let Some(reason) = stats.stopped {
        return Err(CaptureError::Stopped {
            reason,
            candidates: stats.candidates,
        });
    }
    acc.sort_by(|a, b| a.key.cmp(&b.key));
    Ok((acc, stats))
}

/// The final states of a candidate (see the module docs), filter not applied.
fn final_states<J: Judgement>(program: &Program, c: &CandidateView<'_, J>) -> Vec<Vec<i64>> {
    let columns = crate::outcomes::final_values(program, c.statics, c);
    let mut out = vec![Vec::new()];
    for col in columns {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                col.iter().map(move |&v| {
                    let mut p = prefix.clone();
                    p.push(v);
                    p
                })
            })
            .collect();
    }
    out
}

/// The place of a candidate in the fixed order: race-free before racy, not thin air
/// before thin air, then by events (the paths), barrier meetings, rf, asmo and values.
fn key<J: Judgement>(c: &CandidateView<'_, J>) -> Vec<i64> {
    let s = c.statics;
    let mut k = vec![
        c.eval.flagged() as i64,
        c.values.thin_air as i64,
        s.n() as i64,
    ];
    for e in s.events() {
        k.extend([e.thread as i64, e.instr as i64]);
    }
    let pairs = |r: &Rel, k: &mut Vec<i64>| {
        k.push(r.count() as i64);
        for (a, b) in r.pairs() {
            k.extend([a as i64, b as i64]);
        }
    };
    pairs(s.rel(StaticRel::ScbarInst), &mut k);
    for e in 0..s.n() {
        let src = if c.rfinit.contains(e) {
            -1
        } else {
            (0..s.n())
                .find(|&w| c.rf.contains(w, e))
                .map_or(-2, |w| w as i64)
        };
        k.push(src);
    }
    pairs(c.asmo, &mut k);
    k.extend(c.values.read.iter().copied());
    k.extend(c.values.write.iter().copied());
    for regs in &c.values.regs {
        k.push(regs.len() as i64);
        k.extend(regs.iter().copied());
    }
    k
}

fn capture<J: Judgement>(
    c: &CandidateView<'_, J>,
    states: Vec<Vec<i64>>,
    key: Vec<i64>,
) -> Captured {
    Captured {
        statics: c.statics.clone(),
        rf: c.rf.clone(),
        rfinit: c.rfinit.clone(),
        asmo: c.asmo.clone(),
        values: c.values.clone(),
        consistent: c.consistent,
        racy: c.eval.flagged(),
        states,
        key,
    }
}

/// Passes the filter (if any).
fn passes_filter(program: &Program, state: &[i64]) -> bool {
    let value = |o: Observable| {
        let i = program
            .observed
            .iter()
            .position(|x| *x == o)
            .expect("observed");
        state[i]
    };
    program.filter.as_ref().is_none_or(|f| f.eval(&value))
}

struct WitnessCollector<'p> {
    program: &'p Program,
}

impl Visitor for WitnessCollector<'_> {
    type Acc = BTreeMap<Vec<i64>, Captured>;

    fn visit<J: Judgement>(&self, acc: &mut Self::Acc, c: &CandidateView<'_, J>) {
        if !c.consistent {
            return;
        }
        let states: Vec<Vec<i64>> = final_states(self.program, c)
            .into_iter()
            .filter(|st| passes_filter(self.program, st))
            .collect();
        if states.is_empty() {
            return;
        }
        let k = key(c);
        let mut kept: Option<Captured> = None;
        for st in &states {
            if acc.get(st).is_some_and(|w| w.key <= k) {
                continue;
            }
            let cap = kept
                .get_or_insert_with(|| capture(c, states.clone(), k.clone()))
                .clone();
            acc.insert(st.clone(), cap);
        }
    }

    fn merge(&self, mut a: Self::Acc, b: Self::Acc) -> Self::Acc {
        for (st, w) in b {
            match a.get(&st) {
                Some(x) if x.key <= w.key => {}
                _ => {
                    a.insert(st, w);
                }
            }
        }
        a
    }

    fn wanted(&self) -> Vec<&'static str> {
        vec![crate::outcomes::FINAL_ORDER]
    }
}

struct CandidateCollector<'p, 'w> {
    program: &'p Program,
    wanted: &'w (dyn Fn(&[i64]) -> bool + Sync),
    limit: u64,
    kept: AtomicU64,
    overflow: AtomicBool,
}

impl Visitor for CandidateCollector<'_, '_> {
    type Acc = Vec<Captured>;

    fn visit<J: Judgement>(&self, acc: &mut Self::Acc, c: &CandidateView<'_, J>) {
        let states = final_states(self.program, c);
        if !states.iter().any(|s| (self.wanted)(s)) {
            return;
        }
        if self.kept.fetch_add(1, Ordering::Relaxed) >= self.limit {
            self.overflow.store(true, Ordering::Relaxed);
            return;
        }
        acc.push(capture(c, states, key(c)));
    }

    fn merge(&self, mut a: Self::Acc, mut b: Self::Acc) -> Self::Acc {
        a.append(&mut b);
        a
    }

    fn needs_inconsistent(&self) -> bool {
        true
    }

    fn done(&self) -> bool {
        self.overflow.load(Ordering::Relaxed)
    }

    fn wanted(&self) -> Vec<&'static str> {
        vec![crate::outcomes::FINAL_ORDER]
    }
}
