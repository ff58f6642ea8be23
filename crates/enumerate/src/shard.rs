//! Sharding (`--shard K/N`): the deterministic parts of a search and the hashing that
//! deals its work units among them.

/// One of `count` deterministic parts of a search (`index` counts from 0). The parts
/// partition the search's work units, so that the shards' results merge into the whole
/// run's (their counts add up, their states unite).
///
/// A work unit is a subtree of the search: the path of choices that leads to it (path
/// combination, barrier meeting, then the search's own choices in their fixed order) is
/// hashed, and the unit belongs to the shard `hash % count`. A search descends undecided
/// until the choices made so far span at least [`SPLIT_UNITS`] branches; from there on
/// the subtree is one unit, explored whole by its owner or skipped. A subtree pruned or a
/// leaf reached while still undecided is counted by the shard that owns its own hash, so
/// every candidate and every pruned subtree is counted by exactly one shard whatever the
/// scheduling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Does this shard own the unit with this hash?
    pub fn owns(&self, hash: u64) -> bool {
        hash % self.count == self.index
    }
}

/// Branches a sharded search spans before its subtrees become work units: enough for
/// shards to balance.
pub(crate) const SPLIT_UNITS: u128 = 256;

/// With at least this many path combinations per shard, shards take whole combinations
/// (dealt by the hash of their number) and skip the others before laying them out, so
/// that N shards together cost about one run; below it, every shard splits each search.
pub(crate) const WHOLE_COMBINATIONS_PER_SHARD: u64 = 8;

/// Where a search node stands for sharding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Inside a work unit this run owns (always, without sharding).
    Owned,
    /// Above the work units: the hash of the choices so far and how many branches they span.
    Open { hash: u64, width: u128 },
}

impl Unit {
    /// Branch `digit` of `width` below this node; `None` if it is another shard's unit.
    pub(crate) fn child(self, shard: Option<Shard>, digit: u64, width: u64) -> Option<Unit> {
        match (self, shard) {
            (Unit::Open { hash, width: w }, Some(sh)) => {
                let hash = mix(hash, digit);
                let width = w.saturating_mul(width as u128);
                if width < SPLIT_UNITS {
                    Some(Unit::Open { hash, width })
                } else {
                    sh.owns(hash).then_some(Unit::Owned)
                }
            }
            _ => Some(Unit::Owned),
        }
    }

    /// Does the shard count what happens at this node (a leaf, a pruned subtree)?
    pub(crate) fn counts(self, shard: Option<Shard>) -> bool {
        match (self, shard) {
            (Unit::Open { hash, .. }, Some(sh)) => sh.owns(hash),
            _ => true,
        }
    }
}

/// Mixes one choice into a unit hash (SplitMix64's finaliser: deterministic everywhere).
pub(crate) fn mix(hash: u64, digit: u64) -> u64 {
    let mut z = hash
        ^ digit
            .wrapping_add(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(hash << 6);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks a tree of the given branch widths as a sharded search does and returns, per
    /// shard, the leaves it counts.
    fn leaves(shard: Option<Shard>, widths: &[u64]) -> Vec<Vec<u64>> {
        fn walk(shard: Option<Shard>, unit: Unit, widths: &[u64], path: u64, out: &mut Vec<u64>) {
            let counts = unit.counts(shard);
            let Some((&w, rest)) = widths.split_first() else {
                if counts {
                    out.push(path);
                }
                return;
            };
            for d in 0..w {
                let child = unit.child(shard, d, w);
                if let Some(u) = child {
                    walk(shard, u, rest, path * w + d, out);
                }
            }
        }
        let count = shard.map_or(1, |s| s.count);
        (0..count)
            .map(|index| {
                let sh = shard.map(|_| Shard { index, count });
                let root = match sh {
                    None => Unit::Owned,
                    Some(_) => Unit::Open { hash: 7, width: 1 },
                };
                let mut out = Vec::new();
                walk(sh, root, widths, 0, &mut out);
                out
            })
            .collect()
    }

    #[test]
    fn shards_partition_the_leaves() {
        for widths in [
            vec![],
            vec![3],
            vec![2; 10],
            vec![300, 2],
            vec![5, 1, 7, 3, 2],
        ] {
            let whole: Vec<u64> = leaves(None, &widths).concat();
            for count in 1..6u64 {
                let parts = leaves(Some(Shard { index: 0, count }), &widths);
                let mut all: Vec<u64> = parts.concat();
                all.sort_unstable();
                // Every leaf in exactly one shard.
                assert_eq!(all, whole, "{widths:?} in {count} shards");
            }
        }
    }

    #[test]
    fn big_trees_spread_over_every_shard() {
        let parts = leaves(Some(Shard { index: 0, count: 4 }), &[2; 12]);
        for p in &parts {
            assert!(p.len() > 512, "{}", p.len());
        }
    }
}
