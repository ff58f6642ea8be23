//! Recycled bit buffers for relations, one pool per thread.

use fixedbitset::FixedBitSet;

use super::words::WORD;

thread_local! {
    /// Recycled bit buffers. The axioms build and drop dozens of equal-sized matrices per
    /// candidate; reusing their buffers keeps the allocator (about a quarter of the time
    /// when profiled) out of the search's inner loop.
    static POOL: std::cell::RefCell<Pool> = const {
        std::cell::RefCell::new(Pool { classes: Vec::new(), last: 0 })
    };
}

/// One thread's recycled buffers, by size: the path combinations of one test have
/// different event counts (a spin loop's unrolled iterations), and a single stack mixing
/// the sizes freed and reallocated most buffers (on the 8-invocation XF barrier, half of
/// the buffers asked for were fresh allocations).
pub(super) struct Pool {
    /// The buffers of one length each, oldest length first.
    pub(super) classes: Vec<SizeClass>,
    /// The class used last, looked at first (one size at a time is the common case).
    pub(super) last: usize,
}

pub(super) struct SizeClass {
    /// Length of the buffers in bits.
    len: usize,
    /// How many are kept: `POOL_MAX`, fewer for large buffers (`POOL_CLASS_WORDS`).
    cap: usize,
    bufs: Vec<FixedBitSet>,
}

impl Pool {
    /// Index of the class of buffers of `len` bits.
    #[inline]
    fn class(&mut self, len: usize) -> Option<usize> {
        if self.classes.get(self.last).is_some_and(|c| c.len == len) {
            return Some(self.last);
        }
        let i = self.classes.iter().position(|c| c.len == len)?;
        self.last = i;
        Some(i)
    }

    pub(super) fn take(&mut self, len: usize) -> Option<FixedBitSet> {
        let i = self.class(len)?;
        self.classes[i].bufs.pop()
    }

    pub(super) fn keep(&mut self, bits: FixedBitSet) {
        let len = bits.len();
        let i = match self.class(len) {
            Some(i) => i,
            None => {
                if self.classes.len() == POOL_MAX_SIZES {
                    self.classes.remove(0);
                }
                self.classes.push(SizeClass {
                    len,
                    cap: POOL_MAX.min(POOL_CLASS_WORDS / (len / WORD).max(1)),
                    bufs: Vec::new(),
                });
                self.last = self.classes.len() - 1;
                self.last
            }
        };
        let class = &mut self.classes[i];
        if class.bufs.len() < class.cap {
            class.bufs.push(bits);
        }
    }

    /// Words held (for tests).
    #[cfg(test)]
    pub(super) fn words(&self) -> usize {
        self.classes
            .iter()
            .map(|c| c.len / WORD * c.bufs.len())
            .sum()
    }
}

/// Buffers kept per size and thread.
pub(super) const POOL_MAX: usize = 1024;

/// Sizes kept per thread (the oldest is forgotten for a new one).
pub(super) const POOL_MAX_SIZES: usize = 16;

/// Words kept per size and thread (512 KiB), so that large relations are not hoarded:
/// at most `POOL_MAX_SIZES` times that (8 MiB) in all.
pub(super) const POOL_CLASS_WORDS: usize = 1 << 16;

/// A zeroed buffer of `len` bits, recycled when one of that size is at hand.
pub(super) fn take_bits(len: usize) -> FixedBitSet {
    let mut b = take_bits_dirty(len);
    b.clear();
    b
}

/// A buffer of `len` bits whose words hold arbitrary contents (a recycled relation's),
/// for callers that overwrite every word of `as_mut_slice()` before reading any.
///
/// Only the words of `as_mut_slice()` can be dirty: `FixedBitSet` may keep one more word
/// past them (its SIMD blocks' tail), which `with_capacity` and `clear` zero and the
/// block-wise union/intersection/difference keep zero (the relation code never writes it
/// otherwise), so equality and hashing, which read it, are unaffected.
pub(super) fn take_bits_dirty(len: usize) -> FixedBitSet {
    POOL.try_with(|p| p.borrow_mut().take(len))
        .ok()
        .flatten()
        .unwrap_or_else(|| FixedBitSet::with_capacity(len))
}

/// Keeps `bits` for a later relation of the same size (dropped if the pool is full or
/// this thread is exiting).
pub(super) fn give_back(bits: FixedBitSet) {
    let _ = POOL.try_with(|p| p.borrow_mut().keep(bits));
}
