//! Canonical forms: two tests that differ only by the names of their invocations,
//! locations, registers, written values or barrier instances (and the ids of their
//! groups) are the same test. The canonical key is the least encoding over the
//! orderings of the invocations, each encoding renaming everything else by first
//! appearance.
//!
//! Renaming values is sound for generated tests: their values are only written, read and
//! compared (`(r ^ r) + V` and branches on `r == 0` or `r == r` do not depend on which
//! non-zero value a write writes), so a bijection on each location's non-zero values
//! maps the executions of one test onto the other's, state for state.
//!
//! Only orderings that list the invocations by a signature that renaming cannot change
//! (their operations' kinds and annotations) are tried, so invocations are permuted
//! only among equals: the key is the same for every test of a class.

use super::ann::{Access, Fence, Kind, Mode, Order, Scope};
use super::test::{Dep, Obs, Op, Test};

/// The canonical key of a test (its name and description do not count).
pub fn key(test: &Test) -> Vec<u32> {
    orderings(test)
        .into_iter()
        .map(|o| encode(test, &o))
        .min()
        .unwrap_or_default()
}

/// Is this test already in canonical form: does its own invocation order, with
/// everything renamed by first appearance, give its key? (The encoding of a test in its
/// own order is one-to-one on tests whose names are already in first-appearance order,
/// so exactly one such test of each class passes.)
pub fn is_canonical(test: &Test) -> bool {
    let own: Vec<usize> = (0..test.threads.len()).collect();
    encode(test, &own) == key(test)
}

/// What renaming cannot change about an invocation: its operations' kinds and
/// annotations, in program order.
fn signature(test: &Test, t: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for op in &test.threads[t].ops {
        match op {
            Op::Access {
                kind, access, dep, ..
            } => {
                out.push(kind_code(*kind));
                out.extend(access_code(access));
                out.push(match dep {
                    None => 0,
                    Some(Dep::Data(_)) => 1,
                    Some(Dep::Ctrl(_)) => 2,
                });
            }
            Op::Fence { fence, .. } => {
                out.push(9);
                out.extend(fence_code(fence));
            }
        }
    }
    out
}

/// The orderings of the invocations to try: sorted by signature, permuted within ties.
fn orderings(test: &Test) -> Vec<Vec<usize>> {
    let k = test.threads.len();
    let sigs: Vec<Vec<u32>> = (0..k).map(|t| signature(test, t)).collect();
    let mut sorted: Vec<usize> = (0..k).collect();
    sorted.sort_by(|&a, &b| sigs[a].cmp(&sigs[b]).then(a.cmp(&b)));
    // Groups of equal signatures, each permuted in every way.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &t in &sorted {
        match groups.last_mut() {
            Some(g) if sigs[g[0]] == sigs[t] => g.push(t),
            _ => groups.push(vec![t]),
        }
    }
    let mut out = vec![Vec::new()];
    for g in groups {
        let perms = permutations(&g);
        out = out
            .into_iter()
            .flat_map(|prefix| {
                perms.iter().map(move |p| {
                    let mut v = prefix.clone();
                    v.extend(p);
                    v
                })
            })
            .collect();
    }
    out
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Writes first: canonical forms then list writing invocations before reading ones, as
/// the classic shapes are written (MP's writer is P0).
fn kind_code(k: Kind) -> u32 {
    match k {
        Kind::W => 1,
        Kind::R => 2,
        Kind::Rmw => 3,
    }
}

fn scope_code(s: Option<Scope>) -> u32 {
    s.map_or(0, |s| s as u32 + 1)
}

fn order_code(o: Option<Order>) -> u32 {
    o.map_or(0, |o| o as u32 + 1)
}

fn access_code(a: &Access) -> [u32; 6] {
    [
        match a.mode {
            Mode::Plain => 0,
            Mode::NonPriv => 1,
            Mode::AvVis => 2,
            Mode::Atomic => 3,
        },
        order_code(Some(a.order)),
        scope_code(a.scope),
        u32::from(a.semav),
        u32::from(a.semvis),
        u32::from(a.semsc),
    ]
}

fn fence_code(f: &Fence) -> [u32; 6] {
    [
        f.kind as u32,
        order_code(f.order),
        scope_code(Some(f.scope)),
        u32::from(f.semav),
        u32::from(f.semvis),
        u32::from(f.semsc),
    ]
}

/// First-appearance renaming.
struct Renaming(Vec<(i64, u32)>);

impl Renaming {
    fn get(&mut self, old: i64) -> u32 {
        if let Some(&(_, new)) = self.0.iter().find(|(o, _)| *o == old) {
            return new;
        }
        let new = self.0.len() as u32;
        self.0.push((old, new));
        new
    }
}

/// The test encoded with its invocations in `order`, everything else renamed by first
/// appearance.
fn encode(test: &Test, order: &[usize]) -> Vec<u32> {
    let mut out = Vec::with_capacity(64);
    let (mut qfs, mut wgs) = (Renaming(Vec::new()), Renaming(Vec::new()));
    let mut sgs: Vec<(u32, Renaming)> = Vec::new();
    let mut locs = Renaming(Vec::new());
    // Per location (old index): its values' renaming; 0 stays 0.
    let mut values: Vec<Renaming> = (0..test.storage.len())
        .map(|_| Renaming(vec![(0, 0)]))
        .collect();
    let mut instances = Renaming(Vec::new());
    // Per invocation (old index): its registers' renaming.
    let mut regs: Vec<Renaming> = (0..test.threads.len())
        .map(|_| Renaming(Vec::new()))
        .collect();
    out.push(order.len() as u32);
    for &t in order {
        let th = &test.threads[t];
        let wg = wgs.get(i64::from(th.place.wg) + (i64::from(th.place.qf) << 32));
        let sg = match sgs.iter_mut().find(|(w, _)| *w == wg) {
            Some((_, r)) => r.get(i64::from(th.place.sg)),
            None => {
                let mut r = Renaming(Vec::new());
                let s = r.get(i64::from(th.place.sg));
                sgs.push((wg, r));
                s
            }
        };
        out.extend([qfs.get(i64::from(th.place.qf)), wg, sg, th.ops.len() as u32]);
        for op in &th.ops {
            match *op {
                Op::Access {
                    kind,
                    loc,
                    reg,
                    value,
                    access,
                    dep,
                } => {
                    out.push(kind_code(kind));
                    out.push(locs.get(loc as i64));
                    out.push(reg.map_or(0, |r| regs[t].get(i64::from(r)) + 1));
                    out.push(if kind.writes() {
                        values[loc].get(value)
                    } else {
                        0
                    });
                    out.extend(access_code(&access));
                    out.extend(match dep {
                        None => [0, 0],
                        Some(Dep::Data(r)) => [1, regs[t].get(i64::from(r))],
                        Some(Dep::Ctrl(r)) => [2, regs[t].get(i64::from(r))],
                    });
                }
                Op::Fence { fence, instance } => {
                    out.push(9);
                    out.extend(fence_code(&fence));
                    out.push(instance.map_or(0, |i| instances.get(i64::from(i)) + 1));
                }
            }
        }
    }
    // Locations no operation touches keep their old relative order, after the others.
    for l in 0..test.storage.len() {
        locs.get(l as i64);
    }
    let mut storage = vec![0u32; test.storage.len()];
    for (old, new) in &locs.0 {
        storage[*new as usize] = u32::from(test.storage[*old as usize]);
    }
    out.extend(storage);
    let position = |t: usize| order.iter().position(|&u| u == t).unwrap_or(t) as u32;
    let mut obs = |o: Obs, v: Option<i64>| -> [u32; 4] {
        match o {
            Obs::Reg { thread, reg } => {
                let val = v.map_or(0, |v| {
                    test.reg_loc(thread, reg)
                        .map_or(v as u32, |l| values[l].get(v))
                });
                [0, position(thread), regs[thread].get(i64::from(reg)), val]
            }
            Obs::Loc(l) => [1, locs.get(l as i64), 0, v.map_or(0, |v| values[l].get(v))],
        }
    };
    let mut exists: Vec<[u32; 4]> = test.exists.iter().map(|&(o, v)| obs(o, Some(v))).collect();
    exists.sort_unstable();
    let mut observe: Vec<[u32; 4]> = test.observe.iter().map(|&o| obs(o, None)).collect();
    observe.sort_unstable();
    out.push(exists.len() as u32);
    out.extend(exists.into_iter().flatten());
    out.push(observe.len() as u32);
    out.extend(observe.into_iter().flatten());
    out
}
