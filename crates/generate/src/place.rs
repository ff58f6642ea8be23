//! Where invocations sit. Two invocations share a subgroup, a workgroup, a queue family
//! (OpenCL: a device) or nothing: their [`Level`]. Levels between invocations are an
//! ultrametric (if a and b share a workgroup and b and c do, so do a and c), so a cycle's
//! external edges, which join the invocations in a ring, must give the largest level
//! twice: the two ways round the ring from one invocation to the next meet again.

use super::ann::Level;
use super::test::Place;

/// The levels of the ring's edges when some are not given (docs/generate.md
/// "Placement"): an edge without `@` takes the largest level given (the default
/// [`Level::DEFAULT`] when none is), a barrier edge at most [`Level::Wg`]; then any edge
/// without `@` above every other edge comes down to the largest of them, which makes the
/// ring consistent whenever the given levels allow it.
pub fn fill(given: &[Option<Level>], barrier: &[bool]) -> Vec<Level> {
    let implicit = given
        .iter()
        .flatten()
        .copied()
        .max()
        .unwrap_or(Level::DEFAULT);
    let mut levels: Vec<Level> = given
        .iter()
        .zip(barrier)
        .map(|(g, &b)| match g {
            Some(l) => *l,
            None if b => implicit.min(Level::Wg),
            None => implicit,
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..levels.len() {
            if given[i].is_some() {
                continue;
            }
            if let Some(others) = max_except(&levels, i) {
                if levels[i] > others {
                    levels[i] = others;
                    changed = true;
                }
            }
        }
        if !changed {
            return levels;
        }
    }
}

fn max_except(levels: &[Level], i: usize) -> Option<Level> {
    levels
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, l)| *l)
        .max()
}

/// The first ring edge whose level no other edge reaches (the ring cannot close), if any.
pub fn inconsistent(levels: &[Level]) -> Option<usize> {
    (0..levels.len()).find(|&i| max_except(levels, i).is_some_and(|m| levels[i] > m))
}

/// The level between every two invocations of a consistent ring (edge `i` joins
/// invocation `i` and `i + 1`): the smaller of the largest levels along the two ways
/// round.
pub fn ring_distances(levels: &[Level]) -> Vec<Vec<Level>> {
    let k = levels.len();
    let mut d = vec![vec![Level::Sg; k]; k];
    for a in 0..k {
        for b in a + 1..k {
            let forward = levels[a..b].iter().copied().max().unwrap_or(Level::Sg);
            let backward = levels[b..]
                .iter()
                .chain(&levels[..a])
                .copied()
                .max()
                .unwrap_or(Level::Sg);
            let l = forward.min(backward);
            d[a][b] = l;
            d[b][a] = l;
        }
    }
    d
}

/// Ids from levels: queue families and workgroups numbered by first appearance (workgroup
/// ids unique across queue families), subgroups numbered within their workgroup.
pub fn places(d: &[Vec<Level>]) -> Vec<Place> {
    let k = d.len();
    let mut out: Vec<Place> = Vec::with_capacity(k);
    let (mut qfs, mut wgs) = (0u32, 0u32);
    for a in 0..k {
        let earlier = |at_most: Level| (0..a).find(|&b| d[a][b] <= at_most);
        let qf = earlier(Level::Qf).map_or_else(
            || {
                qfs += 1;
                qfs - 1
            },
            |b| out[b].qf,
        );
        let (wg, sg) = match earlier(Level::Wg) {
            None => {
                wgs += 1;
                (wgs - 1, 0)
            }
            Some(b) => {
                let wg = out[b].wg;
                let sg = match earlier(Level::Sg) {
                    Some(c) => out[c].sg,
                    None => out[..a]
                        .iter()
                        .filter(|p| p.wg == wg)
                        .map(|p| p.sg + 1)
                        .max()
                        .unwrap_or(0),
                };
                (wg, sg)
            }
        };
        out.push(Place { qf, wg, sg });
    }
    out
}

/// The level between two places.
pub fn level(a: Place, b: Place) -> Level {
    if a.qf != b.qf {
        Level::Dv
    } else if a.wg != b.wg {
        Level::Qf
    } else if a.sg != b.sg {
        Level::Wg
    } else {
        Level::Sg
    }
}

/// Every placement of `k` invocations (as ids in the normal form of [`places`]) whose
/// levels are all in `allowed`, in a fixed order.
pub fn all_placements(k: usize, allowed: &[Level]) -> Vec<Vec<Place>> {
    let pairs: Vec<(usize, usize)> = (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect();
    let mut out = Vec::new();
    let mut d = vec![vec![Level::Sg; k]; k];
    extend(0, &pairs, allowed, &mut d, &mut out);
    out
}

/// Chooses the level of each pair in turn. Pairs come in row order, so the triangles
/// that (a, b) completes are those with a third invocation c < a; each must keep the
/// ultrametric inequality (no side above both others).
fn extend(
    next: usize,
    pairs: &[(usize, usize)],
    allowed: &[Level],
    d: &mut Vec<Vec<Level>>,
    out: &mut Vec<Vec<Place>>,
) {
    let Some(&(a, b)) = pairs.get(next) else {
        out.push(places(d));
        return;
    };
    for &l in allowed {
        d[a][b] = l;
        d[b][a] = l;
        let ok = (0..a).all(|c| {
            let (x, y, z) = (l, d[c][a], d[c][b]);
            x <= y.max(z) && y <= x.max(z) && z <= x.max(y)
        });
        if ok {
            extend(next + 1, pairs, allowed, d, out);
        }
    }
}
