//! The per-thread buffer pool.

use crate::rel::pool::{Pool, POOL_CLASS_WORDS, POOL_MAX_SIZES};
use fixedbitset::FixedBitSet;

/// The buffer pool hands out only buffers of the size asked for, forgets its oldest
/// size past `POOL_MAX_SIZES`, and keeps at most `POOL_CLASS_WORDS` words per size.
#[test]
fn pool_keeps_sizes_apart() {
    let mut pool = Pool {
        classes: Vec::new(),
        last: 0,
    };
    pool.keep(FixedBitSet::with_capacity(64 * 3));
    pool.keep(FixedBitSet::with_capacity(64 * 5));
    pool.keep(FixedBitSet::with_capacity(64 * 3));
    assert_eq!(pool.words(), 11);
    assert!(pool.take(64 * 4).is_none());
    assert_eq!(pool.take(64 * 5).map(|b| b.len()), Some(64 * 5));
    assert!(pool.take(64 * 5).is_none());
    assert_eq!(pool.take(64 * 3).map(|b| b.len()), Some(64 * 3));
    assert_eq!(pool.take(64 * 3).map(|b| b.len()), Some(64 * 3));
    assert_eq!(pool.words(), 0);
    pool.classes.clear();
    for size in 1..=POOL_MAX_SIZES + 1 {
        pool.keep(FixedBitSet::with_capacity(64 * size));
    }
    assert!(pool.take(64).is_none(), "the oldest size is forgotten");
    assert!(pool.take(128).is_some());
    let big = POOL_CLASS_WORDS / 3 + 1;
    for _ in 0..4 {
        pool.keep(FixedBitSet::with_capacity(64 * big));
    }
    let kept = std::iter::from_fn(|| pool.take(64 * big)).count();
    assert_eq!(kept, 2, "at most POOL_CLASS_WORDS words of one size");
}
