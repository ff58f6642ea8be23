//! A path combination (one path per thread) turned into events, and the ways its control
//! barriers meet (`scbarinst`), per the input format's rule (control-barriers.md,
//! khronos-test-format.md).

use crate::paths::{Path, Step};
use std::collections::BTreeMap;
use vkherd_model::{CbarRule, Event, Instruction, Program, Rel};

/// The events of one path combination, in thread order then path order.
#[derive(Debug, Clone)]
pub struct Layout {
    pub events: Vec<Event>,
    /// For each thread, the event made by each step of its path (None for arithmetic and
    /// jumps).
    pub step_events: Vec<Vec<Option<usize>>>,
}

/// Lays out the events of a path combination.
pub fn layout(program: &Program, paths: &[&Path]) -> Layout {
    let mut events = Vec::new();
    let mut step_events = Vec::with_capacity(paths.len());
    for (t, path) in paths.iter().enumerate() {
        let mut per_step = Vec::with_capacity(path.steps.len());
        for step in &path.steps {
            // A failed compare-exchange is a read with its failure flags.
            let (i, failed_cas) = match *step {
                Step::Exec(i) => (Some(i), false),
                Step::Cas { index, success } => (Some(index), !success),
                Step::Jump { .. } => (None, false),
            };
            let ev = match i {
                Some(i) => match &program.threads[t].code[i] {
                    Instruction::Access(a) => {
                        let flags = match &a.cas {
                            Some(cas) if failed_cas => cas.fail_flags,
                            _ => a.flags,
                        };
                        events.push(Event {
                            thread: t,
                            instr: i,
                            flags,
                            reference: a.reference,
                            location: a.reference.map(|r| program.references[r].location),
                        });
                        Some(events.len() - 1)
                    }
                    _ => None,
                },
                None => None,
            };
            per_step.push(ev);
        }
        step_events.push(per_step);
    }
    Layout {
        events,
        step_events,
    }
}

/// Most invocations at one quorum-barrier instance (its subsets are enumerated).
const MAX_QUORUM_MEMBERS: usize = 12;
/// Most combinations of quorum sets on one path combination.
const MAX_QUORUM_CHOICES: usize = 1 << 16;

/// How the barriers of a path combination meet.
#[derive(Debug, Clone)]
pub enum Meeting {
    /// Some invocation waits forever: not a complete execution.
    Deadlock,
    /// The candidate `scbarinst` relations (more than one when a quorum set is chosen).
    Instances(Vec<Rel>),
}

/// A broken well-formedness rule on barrier instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierError {
    /// Event whose instruction is blamed.
    pub event: usize,
    pub message: String,
}

/// Builds `scbarinst` for a path combination.
pub fn meetings(program: &Program, layout: &Layout) -> Result<Meeting, BarrierError> {
    match program.cbar_rule {
        CbarRule::SameNumber => same_number(program, layout).map(|r| Meeting::Instances(vec![r])),
        CbarRule::Workgroup => workgroup(program, layout),
    }
}

fn barrier_of<'p>(program: &'p Program, e: &Event) -> Option<&'p vkherd_model::BarrierName> {
    match &program.threads[e.thread].code[e.instr] {
        Instruction::Access(a) => a.barrier.as_ref(),
        _ => None,
    }
}

/// Khronos rule: cbars with the same number in different threads are one instance.
fn same_number(program: &Program, layout: &Layout) -> Result<Rel, BarrierError> {
    let n = layout.events.len();
    let mut r = Rel::empty(n);
    for (a, ea) in layout.events.iter().enumerate() {
        let Some(ba) = barrier_of(program, ea) else {
            continue;
        };
        for (b, eb) in layout.events.iter().enumerate() {
            let Some(bb) = barrier_of(program, eb) else {
                continue;
            };
            if ba.instance == bb.instance {
                if a != b && ea.thread == eb.thread {
                    return Err(BarrierError {
                        event: b,
                        message: format!(
                            "control barrier instance {} is used twice in one thread: an instance may appear once per thread (Alloy: no scbarinst & rai[po])",
                            ba.instance
                        ),
                    });
                }
                r.insert(a, b);
            }
        }
    }
    Ok(r)
}

/// `.litmus` rule: within one workgroup, the k-th execution of (N, ID) in each invocation
/// is the k-th instance of that barrier.
fn workgroup(program: &Program, layout: &Layout) -> Result<Meeting, BarrierError> {
    let Some(choices) = workgroup_choices(program, layout)? else {
        return Ok(Meeting::Deadlock);
    };
    let mut rels = vec![Rel::empty(layout.events.len())];
    for options in &choices {
        let mut next = Vec::with_capacity(rels.len() * options.len());
        for r in &rels {
            for pairs in options {
                let mut r2 = r.clone();
                for &(a, b) in pairs {
                    r2.insert(a, b);
                }
                next.push(r2);
            }
        }
        rels = next;
    }
    Ok(Meeting::Instances(rels))
}

/// How many `scbarinst` relations [`meetings`] gives (0 for a deadlock), without building
/// them.
pub fn meeting_count(program: &Program, layout: &Layout) -> Result<usize, BarrierError> {
    match program.cbar_rule {
        CbarRule::SameNumber => same_number(program, layout).map(|_| 1),
        CbarRule::Workgroup => {
            Ok(workgroup_choices(program, layout)?.map_or(0, |c| c.iter().map(Vec::len).product()))
        }
    }
}

/// The pairs each barrier instance may add to `scbarinst`, one list per choice (several
/// for a quorum barrier); None if some invocation waits forever.
type InstanceChoices = Vec<Vec<Vec<(usize, usize)>>>;

fn workgroup_choices(
    program: &Program,
    layout: &Layout,
) -> Result<Option<InstanceChoices>, BarrierError> {
    // (qf, wg, N, ID, k) -> events of that instance.
    type Key<'a> = (u64, u64, &'a str, Option<&'a str>, usize);
    let mut instances: BTreeMap<Key<'_>, Vec<usize>> = BTreeMap::new();
    let mut occurrences: BTreeMap<(usize, &str, Option<&str>), usize> = BTreeMap::new();
    for (e, ev) in layout.events.iter().enumerate() {
        let Some(b) = barrier_of(program, ev) else {
            continue;
        };
        let th = &program.threads[ev.thread];
        let k = occurrences
            .entry((ev.thread, &b.instance, b.id.as_deref()))
            .or_insert(0);
        instances
            .entry((th.qf, th.wg, &b.instance, b.id.as_deref(), *k))
            .or_default()
            .push(e);
        *k += 1;
    }
    // Every instance's relation choices: C x C, or S x C for each quorum set S.
    let mut choices: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
    for (&(qf, wg, inst, id, _k), members) in &instances {
        let quorum = barrier_of(program, &layout.events[members[0]]).and_then(|b| b.quorum);
        match quorum {
            None => {
                // Waits for every invocation of the workgroup whose program has this barrier.
                let expected = program
                    .threads
                    .iter()
                    .filter(|t| (t.qf, t.wg) == (qf, wg))
                    .filter(|t| {
                        t.code.iter().any(|i| matches!(i, Instruction::Access(a)
                            if a.barrier.as_ref().is_some_and(|b| b.instance == inst && b.id.as_deref() == id)))
                    })
                    .count();
                if members.len() < expected {
                    return Ok(None);
                }
                let all: Vec<(usize, usize)> = members
                    .iter()
                    .flat_map(|&a| members.iter().map(move |&b| (a, b)))
                    .collect();
                choices.push(vec![all]);
            }
            Some(q) => {
                let q = q as usize;
                if members.len() < q {
                    return Ok(None);
                }
                // Every quorum set S ⊆ C with |S| >= Q gives scbarinst = S x C.
                let m = members.len();
                if m > MAX_QUORUM_MEMBERS {
                    return Err(BarrierError {
                        event: members[0],
                        message: format!(
                            "{m} invocations meet at one quorum barrier instance: expected at most {MAX_QUORUM_MEMBERS} (each subset is a candidate quorum set)"
                        ),
                    });
                }
                let mut per_set = Vec::new();
                for mask in 0u32..(1u32 << m) {
                    if (mask.count_ones() as usize) < q {
                        continue;
                    }
                    let set: Vec<usize> = (0..m)
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| members[i])
                        .collect();
                    let mut pairs: Vec<(usize, usize)> = set
                        .iter()
                        .flat_map(|&a| members.iter().map(move |&b| (a, b)))
                        .collect();
                    // Keep scbarinst reflexive on every member (Alloy: equivalence on CBAR);
                    // the sw term removes iden anyway.
                    pairs.extend(members.iter().map(|&c| (c, c)));
                    per_set.push(pairs);
                }
                choices.push(per_set);
            }
        }
    }
    // Cartesian product of the per-instance choices, bounded.
    let total = choices
        .iter()
        .fold(1usize, |acc, c| acc.saturating_mul(c.len()));
    if total > MAX_QUORUM_CHOICES {
        let first = instances
            .values()
            .next()
            .and_then(|m| m.first())
            .copied()
            .unwrap_or(0);
        return Err(BarrierError {
            event: first,
            message: format!(
                "the quorum barriers of one path combination can choose their quorum sets in {total} ways: expected at most {MAX_QUORUM_CHOICES} (fewer invocations or barrier executions with a quorum)"
            ),
        });
    }
    Ok(Some(choices))
}

/// The Alloy well-formedness rules on barrier instances that can fail on a path
/// combination: no instance twice in one thread (`no scbarinst & rai[po]`), no crossing
/// (`no (po.scbarinst.po & scbarinst)`), same scope and semantics across an instance.
pub fn check_instances(scbarinst: &Rel, po: &Rel, events: &[Event]) -> Result<(), BarrierError> {
    let twice = scbarinst.inter(&po.rai());
    if let Some((_, b)) = twice.pairs().next() {
        return Err(BarrierError {
            event: b,
            message: "this control barrier meets another of its own thread: expected each barrier instance at most once per thread (Alloy: no scbarinst & rai[po])".into(),
        });
    }
    let crossing = po.seq(scbarinst).seq(po).inter(scbarinst);
    if let Some((a, _)) = crossing.pairs().next() {
        return Err(BarrierError {
            event: a,
            message: "control barriers cross: two invocations reach the same two barrier instances in opposite program orders; expected every invocation to meet the instances in the same order (Alloy: no (po.scbarinst.po & scbarinst))".into(),
        });
    }
    use vkherd_model::Flags;
    let same = Flags::SCOPESG.0
        | Flags::SCOPEWG.0
        | Flags::SCOPEQF.0
        | Flags::SCOPEDEV.0
        | Flags::ACQ.0
        | Flags::REL.0
        | Flags::SEMSC0.0
        | Flags::SEMSC1.0
        | Flags::SEMSC2.0
        | Flags::SEMSC3.0;
    for (a, b) in scbarinst.pairs() {
        if events[a].flags.0 & same != events[b].flags.0 & same {
            return Err(BarrierError {
                event: b,
                message: "this cbar meets another as one barrier instance but differs from it in scope or semantics: expected the same scope, acquire/release and semsc on every cbar of an instance (Alloy: no scbarinst & (SCOPE.. -> (EV-SCOPE..)))".into(),
            });
        }
    }
    Ok(())
}
