//! A progress spinner on stderr for long runs: shown only on a terminal, and only once a
//! test has run for about a second.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A running progress display; stops and clears itself when dropped.
pub struct Progress {
    counter: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts watching a run of `name`; None when stderr is not a terminal.
    pub fn start(name: &str) -> Option<Progress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let counter = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let (c, d, name) = (counter.clone(), done.clone(), name.to_string());
        let handle = std::thread::spawn(move || {
            // Quick runs finish before anything is drawn.
            for _ in 0..10 {
                std::thread::sleep(Duration::from_millis(100));
                if d.load(Ordering::Relaxed) {
                    return;
                }
            }
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed_precise}]")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_prefix(name);
            while !d.load(Ordering::Relaxed) {
                bar.set_message(format!("{} candidates", c.load(Ordering::Relaxed)));
                bar.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Some(Progress {
            counter,
            done,
            handle: Some(handle),
        })
    }

    /// The counter the enumerator increments per candidate.
    pub fn counter(&self) -> Arc<AtomicU64> {
        self.counter.clone()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
