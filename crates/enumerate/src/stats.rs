//! The counts a run gathers, and why it stopped early.

/// Counts gathered while enumerating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnumStats {
    /// Candidates examined (rf × asmo × quorum choices, over all path combinations).
    pub candidates: u64,
    /// Candidates whose values could not be made to agree with the paths' branches.
    pub value_mismatch: u64,
    /// Value assignments that are thin air.
    pub thin_air: u64,
    /// Path combinations in which some invocation waits forever at a control barrier.
    pub deadlocked_paths: u64,
    /// Paths dropped by the unroll bound (summed over threads).
    pub dropped_paths: u64,
    /// Candidates skipped by pruning (0 for plain enumeration): the rf completions below
    /// each cut, an estimate that can pass 2^64 (saturates at 2^128 - 1).
    pub pruned: u128,
    /// The run stopped early (a limit was reached): results are partial.
    pub stopped: Option<StopReason>,
    /// The first thread all of whose paths were dropped by the unroll bound: no execution
    /// completes within the bound.
    pub thread_without_paths: Option<usize>,
    /// Some subtree was skipped by the visitor for its final-state columns
    /// ([`Visitor::skip`]: `--speedcheck`, `--states-only`), so the consistent executions
    /// the visitor saw need not be all there are.
    pub cut_by_state: bool,
}

impl EnumStats {
    /// Adds the per-candidate counts of `o` (not the per-run ones).
    pub fn add(&mut self, o: &EnumStats) {
        self.candidates += o.candidates;
        self.value_mismatch += o.value_mismatch;
        self.thin_air += o.thin_air;
        self.pruned = self.pruned.saturating_add(o.pruned);
        self.cut_by_state |= o.cut_by_state;
    }
}

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// `max_candidates` candidates were examined.
    MaxCandidates(u64),
    /// The time limit passed.
    Timeout(std::time::Duration),
}
