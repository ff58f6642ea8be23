//! A path combination (one path per thread) turned into events, and the ways its control
//! barriers meet (`scbarinst`), per the input format's rule (control-barriers.md,
//! khronos-test-format.md).
//!
//! The events that meet are those of the accesses that carry a barrier name
//! (`Access::barrier`). A Vulkan `cbar` is one such event. An OpenCL barrier is two
//! fences (seed 004 §3.6.3, docs/opencl.md "Lowering"): its entry fence carries the name
//! and meets the other work-items' entry fences; its exit fence, right after it, carries
//! none and meets nothing (opencl.cat finds it as the entry's next event in po).

use crate::paths::{Path, Step};
use std::collections::BTreeMap;
use std::fmt;
use vkherd_model::{BarrierWait, CbarRule, Dialect, Event, Instruction, Program, Rel};

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
    /// The rule broken.
    pub rule: BarrierRule,
}

/// The rules on barrier instances a path combination can break (control-barriers.md;
/// each message names its Alloy fact), and the limits on quorum sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BarrierRule {
    /// Khronos rule: the instance number `instance` twice in one thread.
    InstanceTwiceInThread { instance: String },
    /// `no scbarinst & rai[po]`: a barrier meets another of its own thread.
    MeetsOwnThread,
    /// `no (po.scbarinst.po & scbarinst)`: two invocations meet two instances in opposite
    /// orders.
    Crossing,
    /// The cbars of one instance differ in scope or semantics.
    Inconsistent,
    /// More than `limit` invocations at one quorum-barrier instance.
    TooManyQuorumMembers { members: usize, limit: usize },
    /// More than `limit` ways to choose the quorum sets of one path combination.
    TooManyQuorumChoices { choices: usize, limit: usize },
}

impl fmt::Display for BarrierRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BarrierRule::InstanceTwiceInThread { instance } => write!(
                f,
                "control barrier instance {instance} is used twice in one thread: an instance may appear once per thread (Alloy: no scbarinst & rai[po])"
            ),
            BarrierRule::MeetsOwnThread => f.write_str(
                "this control barrier meets another of its own thread: expected each barrier instance at most once per thread (Alloy: no scbarinst & rai[po])",
            ),
            BarrierRule::Crossing => f.write_str(
                "control barriers cross: two invocations reach the same two barrier instances in opposite program orders; expected every invocation to meet the instances in the same order (Alloy: no (po.scbarinst.po & scbarinst))",
            ),
            BarrierRule::Inconsistent => f.write_str(
                "this cbar meets another as one barrier instance but differs from it in scope or semantics: expected the same scope, acquire/release and semsc on every cbar of an instance (Alloy: no scbarinst & (SCOPE.. -> (EV-SCOPE..)))",
            ),
            BarrierRule::TooManyQuorumMembers { members, limit } => write!(
                f,
                "{members} invocations meet at one quorum barrier instance: expected at most {limit} (each subset is a candidate quorum set)"
            ),
            BarrierRule::TooManyQuorumChoices { choices, limit } => write!(
                f,
                "the quorum barriers of one path combination can choose their quorum sets in {choices} ways: expected at most {limit} (fewer invocations or barrier executions with a quorum)"
            ),
        }
    }
}

impl fmt::Display for BarrierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rule.fmt(f)
    }
}

impl std::error::Error for BarrierError {}

/// Builds `scbarinst` for a path combination.
pub fn meetings(program: &Program, layout: &Layout) -> Result<Meeting, BarrierError> {
    match program.cbar_rule {
        CbarRule::SameNumber => same_number(program, layout).map(|r| Meeting::Instances(vec![r])),
        CbarRule::Workgroup => workgroup(program, layout),
    }
}

/// A scope instance's ids, outermost first (the order instances are met in).
fn outer_first(ids: &[u64]) -> Vec<u64> {
    ids.iter().rev().copied().collect()
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
                        rule: BarrierRule::InstanceTwiceInThread {
                            instance: ba.instance.clone(),
                        },
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
    if program.dialect.barrier_wait == BarrierWait::Path {
        rels.retain(|r| !deadlocks(program, layout, r));
        if rels.is_empty() {
            return Ok(Meeting::Deadlock);
        }
    }
    Ok(Meeting::Instances(rels))
}

/// [`BarrierWait::Path`]: do the waiting barriers of this meeting wait for each other in
/// a cycle? A waiting barrier b waits until every member c of its instance is reached,
/// and c is reached only once every waiting barrier d before c in c's invocation has
/// completed: b waits for d (b does not wait for c itself to complete: the members of an
/// instance complete together). The invocations are stuck exactly when this relation
/// has a cycle (without one, the barriers complete in an order extending it, by
/// induction: each waits only for barriers that completed before). Barriers that
/// do not wait ([`Dialect::barrier_arrive`]) are reached without waiting.
fn deadlocks(program: &Program, layout: &Layout, scbarinst: &Rel) -> bool {
    let n = layout.events.len();
    let waits = |e: usize| program.dialect.barrier_waits(layout.events[e].flags);
    let mut on = Rel::empty(n);
    for (b, c) in scbarinst.pairs() {
        if b == c || !waits(b) {
            continue;
        }
        // (Events are laid out by thread, then in program order.)
        for d in 0..c {
            if layout.events[d].thread == layout.events[c].thread
                && barrier_of(program, &layout.events[d]).is_some()
                && waits(d)
            {
                on.insert(b, d);
            }
        }
    }
    !on.plus().is_irreflexive()
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
    // (the barrier-level instance, outermost id first; N, ID, k) -> events of that
    // instance. (Vulkan: (qf, wg, N, ID, k).)
    type Key<'a> = (Vec<u64>, &'a str, Option<&'a str>, usize);
    let level = program.dialect.barrier_level;
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
            .entry((
                outer_first(th.instance(level)),
                &b.instance,
                b.id.as_deref(),
                *k,
            ))
            .or_default()
            .push(e);
        *k += 1;
    }
    // Every instance's relation choices: C x C, or S x C for each quorum set S.
    let mut choices: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
    for ((group, inst, id, _k), members) in &instances {
        let (inst, id) = (*inst, *id);
        let quorum = barrier_of(program, &layout.events[members[0]]).and_then(|b| b.quorum);
        match quorum {
            None => {
                // Waits for every invocation of the workgroup whose program has this barrier.
                let expected = program
                    .threads
                    .iter()
                    .filter(|t| outer_first(t.instance(level)) == *group)
                    .filter(|t| {
                        t.code.iter().any(|i| matches!(i, Instruction::Access(a)
                            if a.barrier.as_ref().is_some_and(|b| b.instance == inst && b.id.as_deref() == id)))
                    })
                    .count();
                // (Path waits: the invocations whose path executes it are its members.)
                if members.len() < expected && program.dialect.barrier_wait == BarrierWait::Program
                {
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
                    // The instance never completes: its waiting members wait forever;
                    // barriers that do not wait (Dialect::barrier_arrive) pass it, and
                    // synchronise nothing (no member completes the instance).
                    let waits = |&m: &usize| program.dialect.barrier_waits(layout.events[m].flags);
                    if members.iter().any(waits) {
                        return Ok(None);
                    }
                    choices.push(vec![members.iter().map(|&c| (c, c)).collect()]);
                    continue;
                }
                // Every quorum set S ⊆ C with |S| >= Q gives scbarinst = S x C.
                let m = members.len();
                if m > MAX_QUORUM_MEMBERS {
                    return Err(BarrierError {
                        event: members[0],
                        rule: BarrierRule::TooManyQuorumMembers {
                            members: m,
                            limit: MAX_QUORUM_MEMBERS,
                        },
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
            rule: BarrierRule::TooManyQuorumChoices {
                choices: total,
                limit: MAX_QUORUM_CHOICES,
            },
        });
    }
    Ok(Some(choices))
}

/// The Alloy well-formedness rules on barrier instances that can fail on a path
/// combination: no instance twice in one thread (`no scbarinst & rai[po]`), no crossing
/// (`no (po.scbarinst.po & scbarinst)`), same scope and semantics across an instance.
pub fn check_instances(
    scbarinst: &Rel,
    po: &Rel,
    events: &[Event],
    dialect: &Dialect,
) -> Result<(), BarrierError> {
    let agreement = dialect.barrier_agreement;
    let twice = scbarinst.inter(&po.rai());
    if let Some((_, b)) = twice.pairs().next() {
        return Err(BarrierError {
            event: b,
            rule: BarrierRule::MeetsOwnThread,
        });
    }
    // (Path waits: crossings of waiting barriers deadlock, `deadlocks`, and are gone by
    // now; crossings through a barrier that does not wait are harmless.)
    let crossing = po.seq(scbarinst).seq(po).inter(scbarinst);
    if let Some((a, _)) = crossing
        .pairs()
        .find(|_| dialect.barrier_wait == BarrierWait::Program)
    {
        return Err(BarrierError {
            event: a,
            rule: BarrierRule::Crossing,
        });
    }
    // The flags the dialect says one instance's barriers share (Dialect::barrier_agreement).
    let same = agreement.0;
    for (a, b) in scbarinst.pairs() {
        if events[a].flags.0 & same != events[b].flags.0 & same {
            return Err(BarrierError {
                event: b,
                rule: BarrierRule::Inconsistent,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::barrier_error;
    use crate::paths::{thread_paths, PathLimits};
    use crate::EnumErrorKind;

    fn program(src: &str) -> Program {
        vkherd_dialects::vulkan::lower_litmus(&vkherd_dialects::vulkan::parse_litmus(src).unwrap())
            .unwrap()
    }

    /// The layout of each thread's first path.
    fn first_paths(program: &Program) -> Layout {
        let per: Vec<Vec<Path>> = (0..program.threads.len())
            .map(|t| {
                thread_paths(&program.threads[t], t, 1, PathLimits::default())
                    .unwrap()
                    .paths
            })
            .collect();
        let combo: Vec<&Path> = per.iter().map(|p| &p[0]).collect();
        layout(program, &combo)
    }

    /// Thirteen invocations at one quorum-barrier instance: more than
    /// `MAX_QUORUM_MEMBERS`, blamed on the first member's cbar (line 4, the first
    /// column of the code), with today's wording.
    #[test]
    fn too_many_quorum_members_is_its_kind_at_the_barrier() {
        let n = MAX_QUORUM_MEMBERS + 1;
        let header: Vec<String> = (0..n).map(|t| format!("P{t}@sg {t}, wg 0, qf 0")).collect();
        let code = vec!["cbar.acq_rel.wg.semsc0 1, 1, 2"; n];
        let src = format!(
            "VULKAN Q\n{{ x = 0; }}\n{} ;\n{} ;\nexists (x == 0)\n",
            header.join(" | "),
            code.join(" | ")
        );
        let program = program(&src);
        let lay = first_paths(&program);
        let e = meetings(&program, &lay).unwrap_err();
        assert_eq!(
            e.rule,
            BarrierRule::TooManyQuorumMembers {
                members: n,
                limit: MAX_QUORUM_MEMBERS
            }
        );
        assert_eq!(
            e.to_string(),
            "13 invocations meet at one quorum barrier instance: expected at most 12 (each subset is a candidate quorum set)"
        );
        let located = barrier_error(&program, &lay, e.clone());
        assert_eq!(located.kind, EnumErrorKind::BarrierRule(e.rule.clone()));
        assert_eq!((located.span.line, located.span.column), (4, 1));
        assert_eq!(located.to_string(), e.to_string());
    }

    /// An OpenCL barrier is an entry fence and an exit fence (seed 004 §3.6.3): the
    /// entries of the work-items of a work-group meet, the exits meet nothing.
    #[test]
    fn opencl_barriers_meet_at_their_entry_fences() {
        let src = "OPENCL B\n{ [x] = 0; }\n\
                   P0@sg 0, wg 0 (global int* x) { *x = 1; barrier(CLK_GLOBAL_MEM_FENCE); }\n\
                   P1@sg 1, wg 0 (global int* x) { barrier(CLK_GLOBAL_MEM_FENCE); int r0 = *x; }\n\
                   exists (1:r0 = 0)\n";
        let program = vkherd_dialects::opencl::lower_opencl(
            &vkherd_dialects::opencl::parse_opencl(src).unwrap(),
        )
        .unwrap();
        let lay = first_paths(&program);
        // P0: W x, entry, exit; P1: entry, exit, R x.
        assert_eq!(lay.events.len(), 6);
        let Meeting::Instances(rels) = meetings(&program, &lay).unwrap() else {
            panic!("a deadlock");
        };
        assert_eq!(rels.len(), 1);
        let pairs: Vec<(usize, usize)> = rels[0].pairs().collect();
        assert_eq!(pairs, [(1, 1), (1, 3), (3, 1), (3, 3)]);
    }

    fn ptx(src: &str) -> Program {
        vkherd_dialects::ptx::lower_ptx(&vkherd_dialects::ptx::parse_ptx(src).unwrap()).unwrap()
    }

    /// PTX barriers (`BarrierWait::Path`): waiting barriers met in crossing orders
    /// deadlock (no meeting, not an error); a crossing through a `bar.cta.arrive`, which
    /// does not wait, meets; Vulkan's crossing rule is an error instead (below).
    #[test]
    fn ptx_crossing_waits_deadlock_and_arrives_do_not_wait() {
        let crossing = ptx("PTX C\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n \
             bar.cta.sync 0 | bar.cta.sync 1 ;\n bar.cta.sync 1 | bar.cta.sync 0 ;\nexists (x == 0)\n");
        let lay = first_paths(&crossing);
        assert!(matches!(meetings(&crossing, &lay), Ok(Meeting::Deadlock)));
        let arrive = ptx("PTX A\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n \
             bar.cta.sync 0 | bar.cta.arrive 1 ;\n bar.cta.arrive 1 | bar.cta.sync 0 ;\nexists (x == 0)\n");
        let lay = first_paths(&arrive);
        let Ok(Meeting::Instances(rels)) = meetings(&arrive, &lay) else {
            panic!("an arrive does not wait: no deadlock");
        };
        assert_eq!(rels.len(), 1);
        // Both instances meet across the threads, and the crossing is no error.
        assert!(rels[0].contains(0, 3) && rels[0].contains(1, 2));
        let po = Rel::from_pairs(4, [(0, 1), (2, 3)]);
        assert!(check_instances(&rels[0], &po, &lay.events, arrive.dialect).is_ok());
        // A barrier another thread's path does not execute is not waited for.
        let alone = ptx("PTX L\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n \
             bar.cta.sync 0 | st.weak x, 1 ;\nexists (x == 0)\n");
        let lay = first_paths(&alone);
        assert!(matches!(meetings(&alone, &lay), Ok(Meeting::Instances(_))));
        // An instance that never reaches its quorum blocks its waiting members only.
        let quorum = |second: &str| {
            ptx(&format!(
                "PTX Q\n{{ x = 0; }}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n \
                 bar.cta.arrive 1, 1, 3 | {second} 1, 1, 3 ;\nexists (x == 0)\n"
            ))
        };
        let arrives = quorum("bar.cta.arrive");
        let lay = first_paths(&arrives);
        assert!(matches!(
            meetings(&arrives, &lay),
            Ok(Meeting::Instances(_))
        ));
        let waits = quorum("bar.cta.sync");
        let lay = first_paths(&waits);
        assert!(matches!(meetings(&waits, &lay), Ok(Meeting::Deadlock)));
    }

    /// Two cbars of one thread in one instance break `no scbarinst & rai[po]`; the
    /// later one is blamed. (The input formats' rules never build such an instance, so
    /// the rule is checked on a relation made by hand.)
    #[test]
    fn a_barrier_meeting_its_own_thread_is_its_kind() {
        let program = program(
            "VULKAN T\n{ x = 0; }\nP0@sg 0, wg 0, qf 0 ;\n\
             cbar.acq_rel.wg.semsc0 1 ;\ncbar.acq_rel.wg.semsc0 2 ;\nexists (x == 0)\n",
        );
        let lay = first_paths(&program);
        assert_eq!(lay.events.len(), 2);
        let mut po = Rel::empty(2);
        po.insert(0, 1);
        let mut scbarinst = Rel::empty(2);
        for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            scbarinst.insert(a, b);
        }
        let e = check_instances(&scbarinst, &po, &lay.events, program.dialect).unwrap_err();
        assert_eq!(e.rule, BarrierRule::MeetsOwnThread);
        assert_eq!(
            e.to_string(),
            "this control barrier meets another of its own thread: expected each barrier instance at most once per thread (Alloy: no scbarinst & rai[po])"
        );
        let located = barrier_error(&program, &lay, e);
        assert_eq!(located.span.line, 5, "the later cbar is blamed");
    }
}
