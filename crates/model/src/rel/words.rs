//! Word arithmetic shared by both representations: how many words a row takes, the
//! padding mask of the last one, and walking the set bits of a run of words.

pub(super) const WORD: usize = usize::BITS as usize;

/// Number of `usize` words needed for `n` bits.
#[inline]
pub(super) fn words_for(n: usize) -> usize {
    n.div_ceil(WORD)
}

/// Mask of the valid bits in the last word of a row of `n` columns.
#[inline]
pub(super) fn last_word_mask(n: usize) -> usize {
    match n % WORD {
        0 => usize::MAX,
        r => (1usize << r) - 1,
    }
}

/// Calls `f(k)` for every set bit `k` of `words`, in ascending order.
#[inline]
pub(super) fn for_each_bit(words: &[usize], mut f: impl FnMut(usize)) {
    for (w, &word) in words.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let t = x.trailing_zeros() as usize;
            x &= x - 1;
            f(w * WORD + t);
        }
    }
}

/// All ones if bit `i` of `word` is set, else zero (a branch-free row selector).
#[inline(always)]
pub(super) fn bit_mask(word: usize, i: usize) -> usize {
    0usize.wrapping_sub((word >> i) & 1)
}
