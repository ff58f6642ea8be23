//! The run slots: at most `max_runs` runs at once, each on a thread of its own, its panic
//! caught, its answer awaited up to a deadline. A request beyond the slots is answered
//! 503 with `Retry-After` at once rather than queued: a client sees "busy" and retries,
//! and the server's memory does not grow with a queue.

use crate::errors::Failure;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Seconds a busy client is told to wait.
pub const RETRY_AFTER: u64 = 2;

#[derive(Clone)]
pub struct Slots {
    free: Arc<Semaphore>,
    deadline: Duration,
}

impl Slots {
    pub fn new(max_runs: usize, deadline: Duration) -> Slots {
        Slots {
            free: Arc::new(Semaphore::new(max_runs.max(1))),
            deadline,
        }
    }

    /// Runs `work` in a free slot, or refuses at once when there is none. The slot is
    /// held by the thread doing the work, not by the request: a client that goes away,
    /// or a run past its deadline, keeps it until the work is done.
    pub async fn run<T, F>(&self, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let Ok(permit) = self.free.clone().try_acquire_owned() else {
            return Err(Failure::busy(
                "the server is busy: every run slot is taken; retry in a moment",
                RETRY_AFTER,
            ));
        };
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(work))
        });
        match tokio::time::timeout(self.deadline, task).await {
            Ok(Ok(Ok(answer))) => Ok(answer),
            Ok(Ok(Err(panic))) => Err(Failure::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!(
                    "internal error: the run panicked ({}); this is a bug in vkherd, please report it with the test",
                    panic_text(&*panic)
                ),
            )),
            Ok(Err(join)) => Err(Failure::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error: the run's thread failed: {join}"),
            )),
            Err(_) => Err(Failure::busy(
                format!(
                    "the run did not stop within {} s although it is bounded; this is a bug in vkherd, please report it with the test",
                    self.deadline.as_secs()
                ),
                RETRY_AFTER,
            )),
        }
    }
}

/// A panic's message, when it has one.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "no message"
    }
}
