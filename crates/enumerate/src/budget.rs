//! The limits on a run shared by every search: a cap on candidates examined and a
//! deadline.

use crate::stats::StopReason;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Shared limits on a run: a cap on candidates examined and a deadline. One budget
/// serves a whole test: its safety search and then its liveness check.
pub struct Budget {
    limit: Option<u64>,
    deadline: Option<(Instant, std::time::Duration)>,
    used: AtomicU64,
    hit: AtomicBool,
    timed_out: AtomicBool,
}

impl Budget {
    pub fn new(limit: Option<u64>, timeout: Option<std::time::Duration>) -> Self {
        Budget {
            limit,
            deadline: timeout.map(|t| (Instant::now() + t, t)),
            used: AtomicU64::new(0),
            hit: AtomicBool::new(false),
            timed_out: AtomicBool::new(false),
        }
    }

    /// The limits `--max-candidates` and `--timeout` of `run`, the deadline counting from
    /// now.
    pub fn of(run: &crate::RunConfig) -> Self {
        Budget::new(run.max_candidates, run.timeout)
    }

    /// Takes one candidate from the budget; false once it is spent or time is up.
    pub fn take(&self) -> bool {
        if !self.alive() {
            return false;
        }
        match self.limit {
            None => true,
            Some(l) => {
                if self.used.fetch_add(1, Ordering::Relaxed) < l {
                    true
                } else {
                    self.hit.store(true, Ordering::Relaxed);
                    false
                }
            }
        }
    }

    /// False once the budget is spent or the deadline has passed. Checked per search node,
    /// per path combination and asmo order, and every few hundred thin-air value guesses,
    /// so that no stretch of work between two checks is long (`--timeout` is kept to a few
    /// per cent).
    pub fn alive(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return false;
        }
        if let Some((deadline, _)) = self.deadline {
            if Instant::now() >= deadline {
                self.timed_out.store(true, Ordering::Relaxed);
                self.hit.store(true, Ordering::Relaxed);
                return false;
            }
        }
        true
    }

    pub fn stop_reason(&self) -> Option<StopReason> {
        if !self.hit.load(Ordering::Relaxed) {
            return None;
        }
        Some(
            match (self.timed_out.load(Ordering::Relaxed), self.deadline) {
                (true, Some((_, t))) => StopReason::Timeout(t),
                _ => StopReason::MaxCandidates(self.limit.unwrap_or(0)),
            },
        )
    }
}
