//! One test's failure never loses the others: the batch commands run each test's work
//! through [`catch`], which turns a panic (a bug in vkherd) into an error of that test
//! alone, so the other tests' reports, the summary line and the exit code still come
//! (docs/errors.md "A failing test").
//!
//! Why resuming after a panic is safe: a test's work shares nothing with the next test's
//! but process-wide caches that stay valid whatever a panic interrupts (the compiled
//! bundled models, behind a lock whose poisoning is ignored; the cat engine's per-thread
//! memo, which is keyed by a prepared model never used again) and the rayon pool, which
//! survives panics in its tasks. What the failed test had computed is dropped.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A panic caught at a test's boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panicked {
    /// The panic's message.
    pub message: String,
}

impl Panicked {
    /// The error about the test in `file`, without the `error: ` prefix.
    pub fn text(&self, file: &str) -> String {
        format!(
            "internal error while running {file}: {}; this is a bug in vkherd: please report it with the file (the other tests are not affected)",
            self.message
        )
    }
}

/// Runs one test's `work`, catching a panic in it (or in the rayon tasks it waits for,
/// which rayon passes on to it).
pub fn catch<T>(work: impl FnOnce() -> T) -> Result<T, Panicked> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| Panicked {
        message: payload_text(payload.as_ref()),
    })
}

/// The message a panic was raised with (`panic!("...")` gives a `&str` or a `String`).
fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        // The default hook prints the panic; keep the test's output quiet.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let caught = catch(|| -> u32 { panic!("bad {}", 42) });
        let rayon = catch(|| {
            use rayon::prelude::*;
            (0..4u32)
                .into_par_iter()
                .map(|i| if i == 2 { panic!("in a task") } else { i })
                .sum::<u32>()
        });
        std::panic::set_hook(hook);
        assert_eq!(caught.unwrap_err().message, "bad 42");
        assert_eq!(rayon.unwrap_err().message, "in a task");
        assert_eq!(catch(|| 7), Ok(7));
    }
}
