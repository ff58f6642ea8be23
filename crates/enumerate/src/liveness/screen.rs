//! A cheap screen run on a path combination before it is searched: it proves that the
//! search would find nothing, so that most combinations of a loop's endings are never
//! searched (the liveness check walks thousands of them, of which few have a witness).
//!
//! The screen over-approximates the values of every consistent candidate that the
//! visitor would count, as sets of values per event, and asks each branch decision of
//! each path whether some value in those sets takes it. A decision no value takes means
//! that no such candidate exists: the combination is skipped. A combination the screen
//! passes is searched as before, so the verdict, the witness (the least combination with
//! one, its least candidate) and the cut are those of the search alone.
//!
//! Why the sets hold every value. A read takes its value from its rf source, which is
//! among [`sources`]; a write stores what its instruction computes from registers, which
//! hold read values and constants; the sets are the least fixpoint of those equations
//! over sets, so by induction along the dependencies they contain each candidate's value.
//! A dependency cycle (thin air: values that justify themselves through rf) has no such
//! order, and the value solver guesses its reads from its finite universe: every read on
//! a cycle that some candidate could close (through the sources it may have) starts with
//! that universe, and the induction runs on the rest.
//!
//! Which sources a read may have in a candidate the visitor counts ([`sources`]): the
//! rf options of the search (same location, or the pinned write), minus those the
//! visitor's `rf_allowed` refuses (the search never offers those, and the visitor refuses
//! them again when the plain enumeration does). Where the model entails the coherence
//! core on this barrier meeting ([`crate::Shortcuts::core`], derived from the model's
//! checks by `vkherd_cat::shortcuts`: `rf | asmo | fr_asmo | fr_init`, plus the terms
//! `po_loc` and `fr_ww` it has, acyclic in every consistent candidate), also minus those
//! that close a cycle there; each case names its cycle.
//!
//! Errors. A combination the search would stop with an error (too many thin-air
//! guesses) must give that error, skipped or not: the screen never rejects a combination
//! where some candidate could need more guesses than the solver tries
//! ([`crate::values::MAX_THIN_AIR_ASSIGNMENTS`]), counted over every rf option.

mod interleave;
mod vals;

pub(crate) use interleave::Lookahead;

use vals::Vals;

use super::roles::Roles;
use crate::combine::Layout;
use crate::engine::CoreTerms;
use crate::paths::{Path, Step};
use crate::values::Source;
use vkherd_model::{
    arith, compare, AccessKind, Flags, Instruction, Operand, Pin, Program, Rel, Statics,
};

/// How the search of a path combination uses the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Screen {
    /// Not at all (the plain check, the reference).
    Off,
    /// What it rejects is not searched.
    Skip,
}

/// What the screen reads of a path combination.
pub(crate) struct Combination<'a> {
    pub program: &'a Program,
    pub paths: Vec<&'a Path>,
    pub lay: &'a Layout,
    /// The values a thin-air guess may take (`ValueSolver::universe`).
    pub universe: &'a [i64],
    /// Looking for stuck executions: the roles of the events (spin iterations, laps),
    /// whose reads must be final and whose laps must agree (`StuckVisitor::memory_agrees`).
    pub roles: Option<&'a Roles>,
    /// The sources the visitor accepts (`Visitor::rf_allowed`).
    pub rf_allowed: &'a (dyn Fn(usize, Source) -> bool + Sync),
    /// The coherence core the model entails on this barrier meeting, if any.
    pub core: Option<Core<'a>>,
    /// The RMW matching also tries each value of an RMW alone against its thread's
    /// branches ([`admissible`]): stronger, and a run of the thread per value.
    pub probe_values: bool,
}

/// The coherence core of one barrier meeting, as the screen uses it.
pub(crate) struct Core<'a> {
    /// Its optional terms ([`crate::Shortcuts::core`]).
    pub terms: CoreTerms,
    /// `po & sloc & sref`, on the locations the core covers ([`CoreTerms::covers`]).
    pub po_loc: Rel,
    /// The pairs of writes asmo orders, both directions (`candidates::asmo_pairs`).
    pub asmo_pairs: &'a Rel,
}

impl<'a> Core<'a> {
    pub(crate) fn new(s: &Statics, terms: CoreTerms, asmo_pairs: &'a Rel) -> Core<'a> {
        let mut po_loc = crate::coherence::po_loc(s);
        // Every argument below from `po_loc` is about one location's accesses: kept to
        // the locations where the model entails the core.
        if let Some(e) = &terms.events {
            po_loc = po_loc.restrict(e, e);
        }
        Core {
            terms,
            po_loc,
            asmo_pairs,
        }
    }
}

/// Can some consistent candidate of the combination, with sources `v` allows, have
/// values that take every branch decision of its paths?
pub(crate) fn may_have_values(v: &Combination<'_>) -> bool {
    let n = v.lay.events.len();
    let is_read = |e: usize| v.lay.events[e].flags.0 & Flags::R.0 != 0;
    // Whether the values rule the combination out; the guard below is asked only then
    // (it decides nothing else, and costs more than the values on a long combination).
    if !values_reject(v) {
        return true;
    }
    // A read the solver guesses lies on a cycle of source-to-read edges and dependencies
    // (`guessed_reads`), so some write depends on it: when the universe to the power of
    // the number of such reads is within the solver's limit, no candidate can give the
    // error, and the (costlier) count below is not needed.
    let mut depended: Vec<usize> = write_dependencies(v, Deps::Solver)
        .into_iter()
        .flatten()
        .collect();
    depended.sort_unstable();
    depended.dedup();
    let most = (v.universe.len() as u128)
        .checked_pow(depended.len() as u32)
        .unwrap_or(u128::MAX);
    if most <= crate::values::MAX_THIN_AIR_ASSIGNMENTS as u128 {
        return false;
    }
    // A candidate the solver gives up on (TooManyThinAir) guesses reads on a cycle of
    // its rf, which is within every rf option: if so many could need guessing, the
    // search may stop with an error, which a skip would hide.
    let writes = write_events(v);
    let every: Vec<Vec<Source>> = (0..n)
        .map(|e| match is_read(e) {
            true => rf_options(v, e, &writes),
            false => Vec::new(),
        })
        .collect();
    let guessed = guessed_reads(v, &every);
    let assignments = (v.universe.len() as u128)
        .checked_pow(guessed as u32)
        .unwrap_or(u128::MAX);
    assignments > crate::values::MAX_THIN_AIR_ASSIGNMENTS as u128
}

/// The screen's coherence test for the search to ask at its nodes, with the rf and asmo
/// chosen so far ([`interleave::Lookahead`]); `None` where it tests no location.
pub(crate) fn lookahead(v: &Combination<'_>) -> Option<Lookahead> {
    let core = v.core.as_ref()?;
    let ValueSets { src, read, write } = value_sets(v);
    let read = narrowed_reads(v, &read);
    interleave::Lookahead::new(v, core, src, read, write)
}

/// Each read's sources ([`sources`]) and the sets holding every candidate's values of
/// each read and write (empty for other events).
struct ValueSets {
    src: Vec<Vec<Source>>,
    read: Vec<Vals>,
    write: Vec<Vals>,
}

/// The value sets of the combination (the header's fixpoint): each read's sources, and
/// the values of each read and each write.
fn value_sets(v: &Combination<'_>) -> ValueSets {
    let lay = v.lay;
    let n = lay.events.len();
    let is_read = |e: usize| lay.events[e].flags.0 & Flags::R.0 != 0;
    // Reads on a cycle of source-to-read edges and data dependencies (`deps`), over
    // `sources`.
    let cyclic = |src: &[Vec<Source>], deps: &[Vec<usize>]| {
        let mut graph = Rel::empty(n);
        for (r, s) in src.iter().enumerate() {
            for w in s.iter().filter_map(|s| match s {
                Source::Write(w) => Some(*w),
                Source::Init => None,
            }) {
                for &d in &deps[w] {
                    graph.insert(r, d);
                }
            }
        }
        let closure = graph.plus();
        (0..n)
            .map(|e| is_read(e) && closure.contains(e, e))
            .collect::<Vec<bool>>()
    };
    let writes = write_events(v);
    let src: Vec<Vec<Source>> = (0..n)
        .map(|e| match is_read(e) {
            true => sources(v, e, &writes),
            false => Vec::new(),
        })
        .collect();
    // Reads on a cycle of the values' own dependencies start with the universe (thin
    // air; `Deps::Values` says why the others need not).
    let on_cycle = cyclic(&src, &write_dependencies(v, Deps::Values));
    let universe = Vals::of(v.universe.iter().copied());
    let seed: Vec<Vals> = (0..n)
        .map(|e| match on_cycle[e] {
            true => universe.clone(),
            false => Vals::none(),
        })
        .collect();
    let init = |e: usize| {
        let loc = lay.events[e].location.expect("a read has a location");
        v.program.locations[loc].init
    };
    let mut read = seed.clone();
    let mut write = vec![Vals::none(); n];
    loop {
        let mut changed = false;
        for e in (0..n).filter(|&e| is_read(e)) {
            let mut vals = seed[e].clone();
            for s in &src[e] {
                match *s {
                    Source::Init => vals.insert(init(e)),
                    Source::Write(w) => vals.union_with(&write[w]),
                }
            }
            if vals != read[e] {
                read[e] = vals;
                changed = true;
            }
        }
        for t in 0..v.paths.len() {
            run_thread(v, t, &read, &mut write, &mut changed);
        }
        if !changed {
            break;
        }
    }
    ValueSets { src, read, write }
}

/// Do the value sets rule out every candidate of the combination (empty reads, laps that
/// cannot agree, a branch no value takes, RMWs without distinct sources)?
fn values_reject(v: &Combination<'_>) -> bool {
    let n = v.lay.events.len();
    let is_read = |e: usize| v.lay.events[e].flags.0 & Flags::R.0 != 0;
    let ValueSets { src, read, write } = value_sets(v);
    if (0..n).any(|e| is_read(e) && read[e].is_empty()) {
        return true;
    }
    if v.roles
        .is_some_and(|roles| !laps_agree(v, roles, &read, &write))
    {
        return true;
    }
    if !(0..v.paths.len()).all(|t| branches_may_agree(v, t, &read)) {
        return true;
    }
    let Some(core) = &v.core else {
        return false;
    };
    // The checks of the coherence core, cheapest first. The reads' values are narrowed
    // by the branches that test them: still sets holding every candidate's values.
    let read = narrowed_reads(v, &read);
    if read
        .iter()
        .enumerate()
        .any(|(e, r)| is_read(e) && r.is_empty())
    {
        return true;
    }
    !rmw_sources_match(v, core, &src, &read, &write, false)
        || !interleave::orders_exist(v, core, &src, &read, &write)
        || (v.probe_values && !rmw_sources_match(v, core, &src, &read, &write, true))
}

/// Each read's values narrowed by the branch decisions that test it directly: a jump or
/// a compare-exchange whose operand is a register still holding the read's value (set
/// by the read, not computed since) keeps only the values that take the decision
/// against some value of the other operand. A candidate takes every decision of its
/// paths with its read values, so each stays in its narrowed set; the sets only shrink,
/// so a decision checked against a narrowed set is checked against a superset of the
/// candidate's value. (One pass per thread: what `admissible` finds by running the
/// thread once per value, for the common case of a loop testing what it loaded.)
fn narrowed_reads(v: &Combination<'_>, read: &[Vals]) -> Vec<Vals> {
    let mut narrowed = read.to_vec();
    for t in 0..v.paths.len() {
        let code = &v.program.threads[t].code;
        let mut regs = initial_regs(v, t);
        // The read whose value each register holds unchanged.
        let mut copy_of: Vec<Option<usize>> = vec![None; regs.len()];
        for (s, step) in v.paths[t].steps.iter().enumerate() {
            match *step {
                Step::Exec(i) => match &code[i] {
                    Instruction::Access(a) => {
                        if let Some(d) = a.dst {
                            let e = v.lay.step_events[t][s];
                            regs[d as usize] = e.map_or(Vals::Any, |e| narrowed[e].clone());
                            copy_of[d as usize] = e;
                        }
                    }
                    Instruction::Arith { op, dst, a, b, .. } => {
                        regs[*dst as usize] =
                            value_of(*a, &regs).map2(&value_of(*b, &regs), |x, y| arith(*op, x, y));
                        copy_of[*dst as usize] = None;
                    }
                    Instruction::Jump { .. } => {}
                },
                Step::Cas { index, success } => {
                    let Instruction::Access(a) = &code[index] else {
                        continue;
                    };
                    let Some(cas) = &a.cas else { continue };
                    let e = v.lay.step_events[t][s].expect("an access makes an event");
                    // A weak compare-exchange may fail whatever it reads.
                    if success || !cas.weak {
                        let expected = value_of(cas.expected, &regs);
                        narrowed[e] = match &narrowed[e] {
                            Vals::Set(xs) => Vals::of(xs.iter().copied().filter(|&x| {
                                Vals::one(x).some_pair(&expected, |x, y| (x == y) == success)
                            })),
                            Vals::Any => Vals::Any,
                        };
                    }
                    if let Some(d) = a.dst {
                        regs[d as usize] = narrowed[e].clone();
                        copy_of[d as usize] = Some(e);
                    }
                    if let Some(d) = cas.success_dst {
                        regs[d as usize] = Vals::one(i64::from(success));
                        copy_of[d as usize] = None;
                    }
                }
                Step::Jump { index, taken } => {
                    if let Instruction::Jump {
                        cond: Some((op, a, b)),
                        ..
                    } = &code[index]
                    {
                        let (op, a, b) = (*op, *a, *b);
                        let vb = value_of(b, &regs);
                        let mut tracked = (&mut narrowed[..], &mut regs[..], &copy_of[..]);
                        narrow(a, &vb, &|x, y| compare(op, x, y) == taken, &mut tracked);
                        let va = value_of(a, tracked.1);
                        narrow(b, &va, &|x, y| compare(op, y, x) == taken, &mut tracked);
                    }
                }
            }
        }
    }
    narrowed
}

/// Keeps the values `x` of the read whose value register operand `reg` holds unchanged
/// (if any) with `keep(x, y)` for some value `y` of the other operand, in the read's
/// narrowed set and in every register holding it: `(narrowed, regs, copy_of)`.
fn narrow(
    reg: Operand,
    other: &Vals,
    keep: &dyn Fn(i64, i64) -> bool,
    (narrowed, regs, copy_of): &mut (&mut [Vals], &mut [Vals], &[Option<usize>]),
) {
    let Operand::Reg(r) = reg else { return };
    let Some(e) = copy_of[r as usize] else { return };
    let kept = match &narrowed[e] {
        Vals::Set(xs) => Vals::of(
            xs.iter()
                .copied()
                .filter(|&x| Vals::one(x).some_pair(other, keep)),
        ),
        Vals::Any => return,
    };
    for (q, c) in copy_of.iter().enumerate() {
        if *c == Some(e) {
            regs[q] = kept.clone();
        }
    }
    narrowed[e] = kept;
}

/// Under the coherence core, an RMW reads the write just before it in asmo, or the
/// initial value if it is first: on a location whose writes asmo orders totally (every
/// pair in `asmo_pairs`), no two RMWs read the same write, nor both the initial value.
/// (Two RMWs `e1 asmo e2` reading `w`: `e2 fr e1` by `~rf.asmo`, a cycle with `e1 asmo
/// e2`; both reading the initial value: `e2 fr e1` by `[RFINIT].sloc.[W]`, the same
/// cycle.) So the RMWs of such a location need distinct sources, each one whose values
/// meet the values that let the RMW's thread take its branches (each value of the RMW
/// tried alone, the other reads keeping their sets, which still hold their values): a
/// matching, found by augmenting paths, or there is no candidate.
fn rmw_sources_match(
    v: &Combination<'_>,
    core: &Core<'_>,
    src: &[Vec<Source>],
    read: &[Vals],
    write: &[Vals],
    probe_values: bool,
) -> bool {
    let events = &v.lay.events;
    let n = events.len();
    let has = |e: usize, f: Flags| events[e].flags.0 & f.0 != 0;
    let rmws: Vec<usize> = (0..n)
        .filter(|&e| has(e, Flags::R) && has(e, Flags::W))
        .collect();
    // Locations with two RMWs at least.
    let mut locations: Vec<_> = rmws.iter().map(|&e| events[e].location).collect();
    locations.sort_unstable();
    let contended: Vec<_> = locations
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    if contended.is_empty() {
        return true;
    }
    let pairs = core.asmo_pairs;
    for loc in contended {
        let Some(l) = loc else { continue };
        let writes: Vec<usize> = (0..n)
            .filter(|&w| has(w, Flags::W) && events[w].location == loc)
            .collect();
        let total = writes
            .iter()
            .all(|&a| writes.iter().all(|&b| a == b || pairs.contains(a, b)));
        if !total || !core.terms.covers(writes[0]) {
            continue;
        }
        let readers: Vec<usize> = rmws
            .iter()
            .copied()
            .filter(|&e| events[e].location == loc)
            .collect();
        // Sources by number: 0 the initial value, 1 + i the write writes[i]; a write of
        // another location (a pinned source) constrains nothing: a number of the
        // reader's own, 1 + writes.len() + k for the k-th reader (one is enough: no
        // other reader can take it, and a reader takes one source).
        let mut number: Vec<Option<usize>> = vec![None; n];
        for (i, &w) in writes.iter().enumerate() {
            number[w] = Some(1 + i);
        }
        let init = v.program.locations[l].init;
        let masks = ValueMasks::new(init, writes.iter().map(|&w| &write[w]));
        let matching = |wanted: &[&Vals]| {
            let mut options = Options::default();
            for (k, &e) in readers.iter().enumerate() {
                let wanted = wanted[k];
                let mask = masks.as_ref().map(|m| m.of(wanted));
                options.add(src[e].iter().filter_map(|s| {
                    match (*s, mask) {
                        (Source::Init, _) => wanted.contains(init).then_some(0),
                        // One of the location's writes, by masks (`ValueMasks` says why
                        // they agree with `intersects`).
                        (Source::Write(w), Some(mask)) if number[w].is_some() => {
                            let i = number[w].expect("a write of the location") - 1;
                            (mask & masks.as_ref().expect("masks")[i] != 0).then_some(1 + i)
                        }
                        (Source::Write(w), _) => wanted
                            .intersects(&write[w])
                            .then(|| number[w].unwrap_or(1 + writes.len() + k)),
                    }
                }));
            }
            perfect_matching(&options, 1 + writes.len() + readers.len())
        };
        // With each RMW's whole value set or, if asked (a run of the thread per value),
        // with the values its branches admit (fewer options, so a stronger test).
        if !probe_values {
            let wanted: Vec<&Vals> = readers.iter().map(|&e| &read[e]).collect();
            if !matching(&wanted) {
                return false;
            }
        } else {
            let mut probe = read.to_vec();
            let admitted: Vec<Vals> = readers
                .iter()
                .map(|&e| admissible(v, e, read, &mut probe))
                .collect();
            if !matching(&admitted.iter().collect::<Vec<&Vals>>()) {
                return false;
            }
        }
    }
    true
}

/// The values of read `e` with which its thread may still take its branches, each tried
/// alone.
/// `probe` holds `read` on entry and on return (one copy for every reader).
fn admissible(v: &Combination<'_>, e: usize, read: &[Vals], probe: &mut [Vals]) -> Vals {
    let Vals::Set(values) = &read[e] else {
        return Vals::Any;
    };
    // One value (or none): tried alone it is the set itself, which the branches took
    // (`branches_may_agree` passed on these sets before the matching is asked).
    if values.len() <= 1 {
        return read[e].clone();
    }
    let t = v.lay.events[e].thread;
    let admitted = values
        .iter()
        .copied()
        .filter(|&x| {
            probe[e] = Vals::one(x);
            branches_may_agree(v, t, probe)
        })
        .collect::<Vec<i64>>();
    probe[e] = read[e].clone();
    Vals::of(admitted)
}

/// The value sets of one location's writes as bit masks over the values they may
/// store (and the initial value), when those are at most 64 and none is "any value":
/// `wanted.intersects(write)` is then `of(wanted) & mask(write) != 0`, as every value
/// of `write` has its bit (and "any value" wanted meets every non-empty set, as its
/// mask of every bit does). The matching asks it of every reader and source.
struct ValueMasks {
    /// The values, sorted: bit i stands for `values[i]`.
    values: Vec<i64>,
    /// The masks of the writes, in the order given.
    writes: Vec<u64>,
}

impl ValueMasks {
    fn new<'v>(init: i64, writes: impl Iterator<Item = &'v Vals> + Clone) -> Option<ValueMasks> {
        let mut values = vec![init];
        for w in writes.clone() {
            match w {
                Vals::Any => return None,
                Vals::Set(xs) => values.extend(xs.iter().copied()),
            }
        }
        values.sort_unstable();
        values.dedup();
        if values.len() > 64 {
            return None;
        }
        let mut masks = ValueMasks {
            values,
            writes: Vec::new(),
        };
        masks.writes = writes.map(|w| masks.of(w)).collect();
        Some(masks)
    }

    /// The bits of the values of `vals` among `values`.
    fn of(&self, vals: &Vals) -> u64 {
        match vals {
            Vals::Any => u64::MAX,
            Vals::Set(xs) => xs
                .iter()
                .fold(0, |m, x| match self.values.binary_search(x) {
                    Ok(i) => m | 1 << i,
                    Err(_) => m,
                }),
        }
    }
}

impl std::ops::Index<usize> for ValueMasks {
    type Output = u64;
    fn index(&self, i: usize) -> &u64 {
        &self.writes[i]
    }
}

/// Each reader's source numbers, in one buffer (the screen builds them for every
/// contended location of every combination).
#[derive(Default)]
struct Options {
    numbers: Vec<usize>,
    /// Reader k's numbers are `numbers[ends[k - 1]..ends[k]]` (from 0 for the first).
    ends: Vec<usize>,
}

impl Options {
    fn add(&mut self, numbers: impl Iterator<Item = usize>) {
        self.numbers.extend(numbers);
        self.ends.push(self.numbers.len());
    }

    fn of(&self, r: usize) -> &[usize] {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        &self.numbers[start..self.ends[r]]
    }

    fn readers(&self) -> usize {
        self.ends.len()
    }
}

/// Can each reader have its own source among its options (sources numbered below
/// `sources`)? Kuhn's augmenting paths, each reader first taking a free source if it
/// has one (an augmenting path of one edge: the answer is the same, found sooner).
fn perfect_matching(options: &Options, sources: usize) -> bool {
    fn augment(
        r: usize,
        options: &Options,
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        if let Some(&s) = options.of(r).iter().find(|&&s| owner[s].is_none()) {
            owner[s] = Some(r);
            return true;
        }
        for &s in options.of(r) {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            if owner[s].is_none_or(|o| augment(o, options, owner, seen)) {
                owner[s] = Some(r);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; sources];
    let mut seen = vec![false; sources];
    (0..options.readers()).all(|r| {
        seen.fill(false);
        augment(r, options, &mut owner, &mut seen)
    })
}

/// The write events of the combination, in order.
fn write_events(v: &Combination<'_>) -> Vec<usize> {
    let events = &v.lay.events;
    (0..events.len())
        .filter(|&w| events[w].flags.0 & Flags::W.0 != 0)
        .collect()
}

/// The search's rf options of read `e` (`candidates::rf_options`); `writes` are the
/// combination's writes ([`write_events`]).
fn rf_options(v: &Combination<'_>, e: usize, writes: &[usize]) -> Vec<Source> {
    let events = &v.lay.events;
    let ev = &events[e];
    let pin = match &v.program.threads[ev.thread].code[ev.instr] {
        Instruction::Access(a) => a.pin,
        _ => None,
    };
    match pin {
        Some(Pin::Init) => vec![Source::Init],
        Some(Pin::Impossible) => Vec::new(),
        Some(Pin::Write { thread, index }) => events
            .iter()
            .position(|w| w.thread == thread && w.instr == index)
            .filter(|&w| w != e && writes.contains(&w))
            .map(Source::Write)
            .into_iter()
            .collect(),
        // `sloc`: accesses with the same location.
        None => std::iter::once(Source::Init)
            .chain(
                (writes.iter().copied())
                    .filter(|&w| w != e && events[w].location == ev.location)
                    .map(Source::Write),
            )
            .collect(),
    }
}

/// The sources a read may have in a candidate the visitor counts (see the header);
/// `writes` as for [`rf_options`].
fn sources(v: &Combination<'_>, e: usize, writes: &[usize]) -> Vec<Source> {
    let options = rf_options(v, e, writes)
        .into_iter()
        .filter(|&s| (v.rf_allowed)(e, s));
    let Some(core) = &v.core else {
        return options.collect();
    };
    let po_loc = |a: usize, b: usize| core.terms.po_loc && core.po_loc.contains(a, b);
    // The writes w2 with `w2 po_loc e`, listed once for every option below.
    let before: Vec<usize> = match core.terms.po_loc {
        true => (writes.iter().copied())
            .filter(|&w2| po_loc(w2, e))
            .collect(),
        false => Vec::new(),
    };
    options
        .filter(|&s| match s {
            // A write w2 of the location po_loc-before the read: `e fr_init w2`
            // ([RFINIT];sloc;[W] - id: po_loc relates accesses to one location, and
            // w2 != e as po is irreflexive) and `w2 po_loc e`.
            Source::Init => before.is_empty(),
            Source::Write(w) => {
                // Its own later write: `w rf e po_loc w`.
                let own_later = po_loc(e, w);
                // A later write of w's in between: `e fr_ww w2` (w2 != e, as
                // `w2 po_loc e`) and `w2 po_loc e`.
                let overwritten =
                    core.terms.fr_ww && before.iter().any(|&w2| core.po_loc.contains(w, w2));
                !own_later && !overwritten
            }
        })
        .collect()
}

/// How many reads the solver may guess in one candidate of the search (an upper bound):
/// the reads on a cycle of source-to-read edges (over `every` rf option) and the
/// solver's dependencies ([`Deps::Solver`]; `ValueSolver::cyclic_reads` guesses the
/// unknown reads on such cycles of the candidate's rf).
///
/// With the coherence core, where every read is on a location with an RMW, fewer: such
/// reads are all chosen in the search's first stage (search.rs, "contended locations"),
/// whose every rf choice must keep the core acyclic, so each candidate the solver sees
/// has an acyclic core. An edge `r -> d` (r reads w, and w's value depends on read d)
/// is *covered* when `d` is `w` itself (an RMW) or `d po_loc w` with the core's
/// `po_loc` term: the core then has `d (po_loc or =) w rf r`. A cycle of covered edges
/// only is a core cycle read backwards, so no candidate the solver sees has one; a read
/// can be guessed only on a cycle with an uncovered edge `a -> b`, that is when `r`
/// reaches `a` and `b` reaches `r` (or is it).
fn guessed_reads(v: &Combination<'_>, every: &[Vec<Source>]) -> usize {
    let events = &v.lay.events;
    let n = events.len();
    let has = |e: usize, f: Flags| events[e].flags.0 & f.0 != 0;
    let deps = write_dependencies(v, Deps::Solver);
    let mut graph = Rel::empty(n);
    let mut uncovered: Vec<(usize, usize)> = Vec::new();
    let rmw_at =
        |l| (0..n).any(|e| has(e, Flags::R) && has(e, Flags::W) && events[e].location == l);
    let all_in_stage1 = (0..n)
        .filter(|&e| has(e, Flags::R))
        .all(|e| rmw_at(events[e].location));
    let covered = |d: usize, w: usize| match &v.core {
        Some(core) if all_in_stage1 && core.terms.covers(w) => {
            d == w || (core.terms.po_loc && core.po_loc.contains(d, w))
        }
        _ => false,
    };
    for (r, sources) in every.iter().enumerate() {
        for w in sources.iter().filter_map(|s| match s {
            Source::Write(w) => Some(*w),
            Source::Init => None,
        }) {
            for &d in &deps[w] {
                graph.insert(r, d);
                if !covered(d, w) {
                    uncovered.push((r, d));
                }
            }
        }
    }
    // Every read counted below has an uncovered edge on its cycle.
    if uncovered.is_empty() {
        return 0;
    }
    let reach = graph.plus();
    (0..n)
        .filter(|&r| has(r, Flags::R))
        .filter(|&r| {
            uncovered
                .iter()
                .any(|&(a, b)| (a == r || reach.contains(r, a)) && (b == r || reach.contains(b, r)))
        })
        .count()
}

/// Which dependencies [`write_dependencies`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deps {
    /// The solver's (`ValueSolver::write_dependencies`): every RMW also depends on its
    /// own read. The reads it guesses lie on cycles of these.
    Solver,
    /// Those of the values: an RMW depends on its own read only if it computes from it
    /// (`rmw_op`); an exchange or a compare-exchange stores its operand. Every value
    /// assignment the solver accepts satisfies the equations (each read equals its
    /// source, each write what its instruction computes; `ValueSolver::solve_from`),
    /// so a read off every cycle of these gets its value by induction along them; a
    /// read on such a cycle (of the candidate's rf) is on a cycle of the solver's,
    /// unknown to its forward run, hence guessed from the universe.
    Values,
}

/// For each write event, the reads of its thread its value depends on (through
/// registers, and an RMW on its own read as `deps` says).
fn write_dependencies(v: &Combination<'_>, deps_of: Deps) -> Vec<Vec<usize>> {
    let n = v.lay.events.len();
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (t, p) in v.paths.iter().enumerate() {
        let thread = &v.program.threads[t];
        let mut reg: Vec<Vec<usize>> = vec![Vec::new(); crate::values::max_reg_plus_one(thread)];
        let of = |o: Operand, reg: &Vec<Vec<usize>>| match o {
            Operand::Reg(r) => reg[r as usize].clone(),
            Operand::Imm(_) => Vec::new(),
        };
        for (s, step) in p.steps.iter().enumerate() {
            let i = match *step {
                Step::Exec(i) | Step::Cas { index: i, .. } => i,
                Step::Jump { .. } => continue,
            };
            match &thread.code[i] {
                Instruction::Access(a) => {
                    let Some(e) = v.lay.step_events[t][s] else {
                        continue;
                    };
                    let mut d = a.value.map(|o| of(o, &reg)).unwrap_or_default();
                    let computes = a.cas.is_none() && a.rmw_op.is_some();
                    if a.kind == AccessKind::Rmw && (deps_of == Deps::Solver || computes) {
                        d.push(e);
                    }
                    deps[e] = d;
                    for dst in a
                        .dst
                        .iter()
                        .chain(a.cas.as_ref().and_then(|c| c.success_dst.as_ref()))
                    {
                        reg[*dst as usize] = vec![e];
                    }
                }
                Instruction::Arith { dst, a, b, .. } => {
                    let mut d = of(*a, &reg);
                    d.extend(of(*b, &reg));
                    reg[*dst as usize] = d;
                }
                Instruction::Jump { .. } => {}
            }
        }
    }
    deps
}

/// The registers of thread `t` at its start (`ValueSolver::initial_regs`).
fn initial_regs(v: &Combination<'_>, t: usize) -> Vec<Vals> {
    let thread = &v.program.threads[t];
    let mut regs = vec![Vals::one(0); crate::values::max_reg_plus_one(thread)];
    for &(r, x) in &thread.init_regs {
        regs[r as usize] = Vals::one(x);
    }
    regs
}

fn value_of(o: Operand, regs: &[Vals]) -> Vals {
    match o {
        Operand::Reg(r) => regs[r as usize].clone(),
        Operand::Imm(x) => Vals::one(x),
    }
}

/// Runs thread `t`'s path over sets (`ValueSolver::run_step`): the values its writes may
/// store, given what its reads may return.
fn run_thread(
    v: &Combination<'_>,
    t: usize,
    read: &[Vals],
    write: &mut [Vals],
    changed: &mut bool,
) {
    let code = &v.program.threads[t].code;
    let mut regs = initial_regs(v, t);
    for (s, step) in v.paths[t].steps.iter().enumerate() {
        let (i, cas_success) = match *step {
            Step::Exec(i) => (i, None),
            Step::Cas { index, success } => (index, Some(success)),
            Step::Jump { .. } => continue,
        };
        match &code[i] {
            Instruction::Access(a) => {
                let e = v.lay.step_events[t][s].expect("an access makes an event");
                let operand = a.value.map(|o| value_of(o, &regs));
                let stored = match (cas_success, &a.cas) {
                    (Some(success), Some(cas)) => {
                        if let Some(d) = a.dst {
                            regs[d as usize] = read[e].clone();
                        }
                        if let Some(d) = cas.success_dst {
                            regs[d as usize] = Vals::one(i64::from(success));
                        }
                        operand.filter(|_| success)
                    }
                    _ => match a.kind {
                        AccessKind::Load => {
                            if let Some(d) = a.dst {
                                regs[d as usize] = read[e].clone();
                            }
                            None
                        }
                        AccessKind::Store => operand,
                        AccessKind::Rmw => {
                            let stored = operand.map(|x| match a.rmw_op {
                                Some(op) => read[e].map2(&x, |old, y| arith(op, old, y)),
                                None => x,
                            });
                            if let Some(d) = a.dst {
                                regs[d as usize] = read[e].clone();
                            }
                            stored
                        }
                        _ => None,
                    },
                };
                if let Some(x) = stored {
                    if x != write[e] {
                        write[e] = x;
                        *changed = true;
                    }
                }
            }
            Instruction::Arith { op, dst, a, b, .. } => {
                regs[*dst as usize] =
                    value_of(*a, &regs).map2(&value_of(*b, &regs), |x, y| arith(*op, x, y));
            }
            Instruction::Jump { .. } => {}
        }
    }
}

/// May the branch decisions of thread `t`'s path agree with some values of the sets
/// (`ValueSolver::branches_agree`, each decision on its own)?
fn branches_may_agree(v: &Combination<'_>, t: usize, read: &[Vals]) -> bool {
    let code = &v.program.threads[t].code;
    let mut regs = initial_regs(v, t);
    for (s, step) in v.paths[t].steps.iter().enumerate() {
        match *step {
            Step::Exec(i) => match &code[i] {
                Instruction::Access(a) => {
                    if let (Some(d), Some(e)) = (a.dst, v.lay.step_events[t][s]) {
                        regs[d as usize] = read[e].clone();
                    }
                }
                Instruction::Arith { op, dst, a, b, .. } => {
                    regs[*dst as usize] =
                        value_of(*a, &regs).map2(&value_of(*b, &regs), |x, y| arith(*op, x, y));
                }
                Instruction::Jump { .. } => {}
            },
            Step::Cas { index, success } => {
                let Instruction::Access(a) = &code[index] else {
                    return true;
                };
                let Some(cas) = &a.cas else { return true };
                let e = v.lay.step_events[t][s].expect("an access makes an event");
                if (success || !cas.weak)
                    && !read[e]
                        .some_pair(&value_of(cas.expected, &regs), |x, y| (x == y) == success)
                {
                    return false;
                }
                if let Some(d) = a.dst {
                    regs[d as usize] = read[e].clone();
                }
                if let Some(d) = cas.success_dst {
                    regs[d as usize] = Vals::one(i64::from(success));
                }
            }
            Step::Jump { index, taken } => {
                if let Instruction::Jump {
                    cond: Some((op, a, b)),
                    ..
                } = &code[index]
                {
                    if !value_of(*a, &regs)
                        .some_pair(&value_of(*b, &regs), |x, y| compare(*op, x, y) == taken)
                    {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// Lap rule item 1 on values: each event of A reads and writes what its copy at the end
/// of B does, so their sets meet.
fn laps_agree(v: &Combination<'_>, roles: &Roles, read: &[Vals], write: &[Vals]) -> bool {
    let events = &v.lay.events;
    (0..events.len()).all(|x| {
        let Some(y) = roles.copy[x] else {
            return true;
        };
        let reads = events[x].flags.0 & Flags::R.0 != 0;
        let writes = events[x].flags.0 & Flags::W.0 != 0;
        (!reads || read[x].intersects(&read[y])) && (!writes || write[x].intersects(&write[y]))
    })
}

#[cfg(test)]
mod tests {
    use super::{perfect_matching, Options, Vals, ValueMasks};

    /// Is there an injective choice of one option per reader (plain search)?
    fn brute_force(options: &[Vec<usize>], taken: &mut Vec<usize>) -> bool {
        let r = taken.len();
        if r == options.len() {
            return true;
        }
        options[r].iter().any(|&s| {
            if taken.contains(&s) {
                return false;
            }
            taken.push(s);
            let found = brute_force(options, taken);
            taken.pop();
            found
        })
    }

    #[test]
    fn matching_agrees_with_plain_search_on_every_small_graph() {
        for readers in 1..=3usize {
            for sources in 1..=3usize {
                let subsets = 1usize << sources;
                for code in 0..subsets.pow(readers as u32) {
                    let lists: Vec<Vec<usize>> = (0..readers)
                        .map(|r| {
                            let set = code / subsets.pow(r as u32) % subsets;
                            (0..sources).filter(|s| set >> s & 1 == 1).collect()
                        })
                        .collect();
                    let mut options = Options::default();
                    for l in &lists {
                        options.add(l.iter().copied());
                    }
                    assert_eq!(
                        perfect_matching(&options, sources),
                        brute_force(&lists, &mut Vec::new()),
                        "{lists:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn value_masks_meet_as_the_sets_do() {
        let sets = [
            Vals::none(),
            Vals::one(0),
            Vals::one(1),
            Vals::of([0, 1]),
            Vals::of([1, 7]),
            Vals::of([-3, 2, 7]),
            Vals::Any,
        ];
        let writes: Vec<&Vals> = sets.iter().filter(|w| **w != Vals::Any).collect();
        let masks = ValueMasks::new(5, writes.iter().copied()).expect("few values");
        for wanted in &sets {
            for (i, w) in writes.iter().enumerate() {
                assert_eq!(
                    masks.of(wanted) & masks[i] != 0,
                    wanted.intersects(w),
                    "{wanted:?} and {w:?}"
                );
            }
        }
        // "Any value" stored, or more values than bits: no masks.
        assert!(ValueMasks::new(0, [&Vals::Any].into_iter()).is_none());
        let many: Vec<Vals> = (0..70).map(Vals::one).collect();
        assert!(ValueMasks::new(0, many.iter()).is_none());
    }
}
