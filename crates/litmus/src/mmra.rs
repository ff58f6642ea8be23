//! Memory-model relaxation annotations (MMRA, seed 003; docs/mmra.md): the tags
//! `prefix:suffix` written `!mmra(...)` after an instruction or statement, and the
//! compatibility of two tag sets.

use std::fmt;

/// One tag `prefix:suffix`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MmraTag {
    pub prefix: String,
    pub suffix: String,
}

impl fmt::Display for MmraTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.prefix, self.suffix)
    }
}

/// A set of tags, sorted and without duplicates. An instruction without `!mmra(...)` has
/// the empty set, which is compatible with every set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MmraTags(Vec<MmraTag>);

impl MmraTags {
    /// The set of `tags` (order and repetitions do not matter).
    pub fn new(mut tags: Vec<MmraTag>) -> MmraTags {
        tags.sort();
        tags.dedup();
        MmraTags(tags)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn tags(&self) -> &[MmraTag] {
        &self.0
    }

    /// Seed 003: two sets are compatible iff, for every prefix P present in at least one
    /// set, the other set has no tag with prefix P, or both share a tag with prefix P.
    pub fn compatible(&self, other: &MmraTags) -> bool {
        self.one_way(other) && other.one_way(self)
    }

    /// The condition for the prefixes of `self` (a prefix of `other` absent from `self`
    /// is checked by `other.one_way(self)`).
    fn one_way(&self, other: &MmraTags) -> bool {
        self.0.iter().all(|t| {
            let theirs = || other.0.iter().filter(|o| o.prefix == t.prefix);
            theirs().next().is_none()
                || self
                    .0
                    .iter()
                    .any(|m| m.prefix == t.prefix && theirs().any(|o| o == m))
        })
    }
}

impl fmt::Display for MmraTags {
    /// `!mmra(a:b, c:d)`, or nothing for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        let tags: Vec<String> = self.0.iter().map(|t| t.to_string()).collect();
        write!(f, "!mmra({})", tags.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(tags: &[&str]) -> MmraTags {
        MmraTags::new(
            tags.iter()
                .map(|t| {
                    let (p, s) = t.split_once(':').unwrap();
                    MmraTag {
                        prefix: p.into(),
                        suffix: s.into(),
                    }
                })
                .collect(),
        )
    }

    /// The four examples of seed 003 and its `foo:bar` / `foo:baz` figure.
    #[test]
    fn seed_examples() {
        let np = |x: &str| set(&[x, "vulkan:nonprivate"]);
        // Example 1: sync-as:1 vs sync-as:0, both vulkan:nonprivate: not compatible.
        assert!(!np("sync-as:1").compatible(&np("sync-as:0")));
        // Example 2: identical sets: compatible.
        assert!(np("sync-as:1").compatible(&np("sync-as:1")));
        // Example 3: the other set has no sync-as tag: compatible.
        assert!(np("sync-as:1").compatible(&set(&["vulkan:nonprivate"])));
        // Example 4: sync-as:1 vs sync-as:2: not compatible.
        assert!(!set(&["sync-as:1"]).compatible(&set(&["sync-as:2"])));
        // A: foo:bar is compatible with X: foo:bar, B: foo:baz is not.
        assert!(set(&["foo:bar"]).compatible(&set(&["foo:bar"])));
        assert!(!set(&["foo:baz"]).compatible(&set(&["foo:bar"])));
    }

    #[test]
    fn empty_set_is_compatible_with_every_set() {
        let e = MmraTags::default();
        for s in [set(&[]), set(&["a:b"]), set(&["a:b", "a:c", "d:e"])] {
            assert!(e.compatible(&s) && s.compatible(&e));
        }
    }

    /// One shared tag per common prefix is enough, whatever else the sets hold.
    #[test]
    fn shared_tag_per_prefix() {
        assert!(set(&["a:1", "a:2"]).compatible(&set(&["a:2", "a:3"])));
        assert!(!set(&["a:1", "b:1"]).compatible(&set(&["a:1", "b:2"])));
        assert!(set(&["a:1", "b:1"]).compatible(&set(&["a:1", "c:2"])));
    }

    #[test]
    fn set_ignores_order_and_repetition() {
        assert_eq!(set(&["b:1", "a:1", "b:1"]), set(&["a:1", "b:1"]));
        assert_eq!(set(&["b:1", "a:1"]).to_string(), "!mmra(a:1, b:1)");
        assert_eq!(MmraTags::default().to_string(), "");
    }
}
