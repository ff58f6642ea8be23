//! The final states a device produced, counted, in the model's columns
//! ([`vkherd_model::Program::observed`]: registers by thread then number, then locations),
//! so that they compare like with like against the model's states.

use std::collections::BTreeMap;

/// Final states and how often each was observed.
pub type Histogram = BTreeMap<Vec<i64>, u64>;

/// What a run on a device saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    /// Instances whose every thread stayed within the `--unroll` bound: these states
    /// must be among the model's (computed with the same bound).
    pub within: Histogram,
    /// Instances where some backward jump was taken more often than the bound: the
    /// model's bounded list need not contain their states, so they are not judged.
    pub beyond: Histogram,
    /// Instances whose state the test's `filter` rejects (not counted, as in the model).
    pub filtered: u64,
    /// Instances with a thread stopped by `--max-steps` (no final state).
    pub unfinished: u64,
    /// Instances where a compare-exchange loop (RMW mul/div) gave up.
    pub cas_gave_up: u64,
    /// Instances whose subgroup placement the driver did not honour (dropped).
    pub misplaced: u64,
    /// Instances run in total.
    pub instances: u64,
    pub iterations: u64,
    pub seconds: f64,
}

impl Observation {
    /// Instances that gave a judged state.
    pub fn judged(&self) -> u64 {
        self.within.values().sum()
    }
}
