//! The screen's value sets: a few values held inline, or any value. The screen builds
//! and copies them for every step of every path it runs, so they never allocate.

use std::ops::Deref;

/// Sets of more values than this are widened to "any value".
const CAP: usize = 16;

/// A set of values, or any value (non-empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Vals {
    Any,
    /// Empty: no value at all.
    Set(Small),
}

/// At most [`CAP`] values, sorted, without repeats, inline. The slots past `len` stay 0,
/// so the derived equality is that of the sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Small {
    len: u8,
    items: [i64; CAP],
}

impl Deref for Small {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.items[..self.len as usize]
    }
}

impl Small {
    const EMPTY: Small = Small {
        len: 0,
        items: [0; CAP],
    };

    /// Adds `x`; `false` if the set would hold more than [`CAP`] values.
    fn insert(&mut self, x: i64) -> bool {
        let len = self.len as usize;
        match self.items[..len].binary_search(&x) {
            Ok(_) => true,
            Err(_) if len == CAP => false,
            Err(at) => {
                self.items.copy_within(at..len, at + 1);
                self.items[at] = x;
                self.len += 1;
                true
            }
        }
    }
}

impl Vals {
    pub(super) fn none() -> Vals {
        Vals::Set(Small::EMPTY)
    }

    pub(super) fn one(v: i64) -> Vals {
        Vals::of([v])
    }

    /// The set of `values`, or any value if they are more than [`CAP`].
    pub(super) fn of(values: impl IntoIterator<Item = i64>) -> Vals {
        let mut set = Small::EMPTY;
        for x in values {
            if !set.insert(x) {
                return Vals::Any;
            }
        }
        Vals::Set(set)
    }

    pub(super) fn is_empty(&self) -> bool {
        matches!(self, Vals::Set(v) if v.is_empty())
    }

    /// The reference [`Vals::union_with`] is tested against.
    #[cfg(test)]
    pub(super) fn union(&self, other: &Vals) -> Vals {
        match (self, other) {
            (Vals::Set(a), Vals::Set(b)) => Vals::of(a.iter().chain(b.iter()).copied()),
            _ => Vals::Any,
        }
    }

    /// `self = self.union(other)`, without building a third set (the screen's fixpoint
    /// unions every source of every read on each round).
    pub(super) fn union_with(&mut self, other: &Vals) {
        match (&mut *self, other) {
            (Vals::Any, _) => {}
            (Vals::Set(_), Vals::Any) => *self = Vals::Any,
            (Vals::Set(a), Vals::Set(b)) => {
                if !b.iter().all(|&x| a.insert(x)) {
                    *self = Vals::Any;
                }
            }
        }
    }

    /// `self = self.union(&Vals::one(x))`, in place.
    pub(super) fn insert(&mut self, x: i64) {
        if let Vals::Set(a) = self {
            if !a.insert(x) {
                *self = Vals::Any;
            }
        }
    }

    /// `f(x, y)` for every x, y.
    pub(super) fn map2(&self, other: &Vals, f: impl Fn(i64, i64) -> i64) -> Vals {
        match (self, other) {
            _ if self.is_empty() || other.is_empty() => Vals::none(),
            (Vals::Set(a), Vals::Set(b)) => Vals::of(
                a.iter()
                    .flat_map(|&x| b.iter().map(move |&y| (x, y)))
                    .map(|(x, y)| f(x, y)),
            ),
            _ => Vals::Any,
        }
    }

    /// Is `pred(x, y)` true for some x, y?
    pub(super) fn some_pair(&self, other: &Vals, pred: impl Fn(i64, i64) -> bool) -> bool {
        match (self, other) {
            _ if self.is_empty() || other.is_empty() => false,
            (Vals::Set(a), Vals::Set(b)) => a.iter().any(|&x| b.iter().any(|&y| pred(x, y))),
            _ => true,
        }
    }

    pub(super) fn intersects(&self, other: &Vals) -> bool {
        self.some_pair(other, |x, y| x == y)
    }

    /// Does the set hold `x`?
    pub(super) fn contains(&self, x: i64) -> bool {
        match self {
            Vals::Any => true,
            Vals::Set(s) => s.binary_search(&x).is_ok(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_sorted_deduplicated_and_widened_past_the_cap() {
        assert_eq!(Vals::of([3, 1, 3, 2]), Vals::of([1, 2, 3]));
        let Vals::Set(s) = Vals::of([3, 1, 3, 2]) else {
            panic!("three values are a set")
        };
        assert_eq!(&*s, &[1, 2, 3]);
        assert!(matches!(Vals::of(0..CAP as i64), Vals::Set(s) if s.len() == CAP));
        assert_eq!(Vals::of(0..=CAP as i64), Vals::Any);
        assert!(Vals::none().is_empty());
        assert!(!Vals::none().intersects(&Vals::Any));
    }

    #[test]
    fn in_place_unions_are_unions() {
        let sets = [
            Vals::none(),
            Vals::one(3),
            Vals::of([1, 2]),
            Vals::of(0..CAP as i64),
            Vals::of(8..8 + CAP as i64),
            Vals::Any,
        ];
        for a in &sets {
            for b in &sets {
                let mut c = a.clone();
                c.union_with(b);
                assert_eq!(c, a.union(b), "{a:?} with {b:?}");
            }
            for x in [0, 3, 100] {
                let mut c = a.clone();
                c.insert(x);
                assert_eq!(c, a.union(&Vals::one(x)), "{a:?} with {x}");
            }
        }
    }

    #[test]
    fn operations_are_those_of_sets() {
        let a = Vals::of([1, 2]);
        let b = Vals::of([2, 5]);
        assert_eq!(a.union(&b), Vals::of([1, 2, 5]));
        assert_eq!(a.map2(&b, |x, y| x + y), Vals::of([3, 4, 6, 7]));
        assert_eq!(a.map2(&Vals::none(), |x, y| x + y), Vals::none());
        assert_eq!(a.map2(&Vals::Any, |x, y| x + y), Vals::Any);
        assert!(a.intersects(&b));
        assert!(!a.intersects(&Vals::of([3])));
        assert!(a.contains(2) && !a.contains(5) && Vals::Any.contains(5));
        assert!(!a.some_pair(&b, |x, y| x > y));
    }
}
