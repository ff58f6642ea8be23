//! The witnesses tried so far in a run (`search::Search::witness`), which decide whether
//! the next ones are worth trying. What is tried changes only the time, never the output.

use std::sync::atomic::{AtomicU64, Ordering};

/// Witnesses tried, passed and skipped in a run.
#[derive(Default)]
pub(crate) struct WitnessTally {
    tries: AtomicU64,
    hits: AtomicU64,
    skipped: AtomicU64,
}

impl WitnessTally {
    /// Is the next witness worth trying? Not while they mostly fail (checking a failed
    /// witness and then the node costs two checks): then only one in 32 is tried, to
    /// notice a change.
    pub(crate) fn worth_trying(&self) -> bool {
        let tries = self.tries.load(Ordering::Relaxed);
        let hits = self.hits.load(Ordering::Relaxed);
        !(tries >= 16
            && hits * 2 < tries
            && !self
                .skipped
                .fetch_add(1, Ordering::Relaxed)
                .is_multiple_of(32))
    }

    /// Counts a witness tried, and whether it passed.
    pub(crate) fn record(&self, passes: bool) {
        self.tries.fetch_add(1, Ordering::Relaxed);
        if passes {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
    }
}
