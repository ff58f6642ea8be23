//! The per-candidate values of the last evaluation on this thread, kept for the next one
//! ("make"-style incremental evaluation).
//!
//! The search asks about a partial candidate at every node, and consecutive questions
//! differ in one rf pair, so most candidate nodes (everything downstream of `rf &
//! mutordatom ; [ACQ..]` when the new pair is no synchronisation) keep their values.
//! Exact: a node's value is a function of its operands' values; it is recomputed when
//! some operand changed since it was computed (`mtime` of the operand > `ctime` of the
//! node), and a recomputed value equal to the old one does not count as a change. Known
//! and per-asmo values cannot change under a memo: it is keyed by the preparation and
//! the per-asmo values and reset when either differs.

use crate::base::{Kind, Value};
use crate::kernel::empty_value;

#[derive(Default)]
pub(super) struct Memo {
    prep: u64,
    asmo: u64,
    /// The current evaluation's stamp (stamps start at 1; 0 is "never").
    pub(super) now: u32,
    pub(super) vals: Vec<Option<Value>>,
    /// Each slot's stamps and emptiness, side by side (the traversal reads them all).
    pub(super) meta: Vec<SlotMeta>,
}

/// What the traversal reads about a candidate slot.
#[derive(Default, Clone, Copy)]
pub(super) struct SlotMeta {
    /// When the slot's value last changed.
    pub(super) mtime: u32,
    /// When the slot's value was last computed or confirmed.
    pub(super) ctime: u32,
    /// The evaluation in which the slot was last brought up to date.
    pub(super) seen: u32,
    /// Whether the slot's value is empty.
    pub(super) empty: bool,
}

thread_local! {
    /// This thread's memo; an evaluation holds it while it lives.
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

impl Memo {
    /// This thread's memo, ready for one more evaluation under the preparation `prep`
    /// (with `slots` candidate slots) and the per-asmo values `asmo` (by their ids).
    pub(super) fn take(prep: u64, asmo: u64, slots: usize) -> Memo {
        let mut m = MEMO.with(|c| std::mem::take(&mut *c.borrow_mut()));
        if m.prep != prep || m.asmo != asmo || m.now == u32::MAX {
            m.prep = prep;
            m.asmo = asmo;
            m.now = 0;
            m.vals.clear();
            m.vals.resize_with(slots, || None);
            m.meta.clear();
            m.meta.resize(slots, SlotMeta::default());
        }
        m.now += 1;
        m
    }

    /// Gives the memo back to this thread.
    pub(super) fn give_back(self) {
        let _ = MEMO.try_with(|c| *c.borrow_mut() = self);
    }

    /// Stores the value of `slot` for this evaluation, noting whether it changed.
    pub(super) fn set(&mut self, slot: usize, v: Value) {
        if self.vals[slot].as_ref() != Some(&v) {
            self.meta[slot].empty = v.is_empty();
            self.vals[slot] = Some(v);
            self.meta[slot].mtime = self.now;
        }
        self.meta[slot].ctime = self.now;
    }

    /// Stores an empty value (without building one if the slot holds one already).
    pub(super) fn set_empty(&mut self, slot: usize, kind: Kind, n: usize) {
        if !(self.vals[slot].is_some() && self.meta[slot].empty) {
            self.vals[slot] = Some(empty_value(kind, n));
            self.meta[slot].empty = true;
            self.meta[slot].mtime = self.now;
        }
        self.meta[slot].ctime = self.now;
    }
}
