//! A progress display on stderr for long runs: shown only on a terminal, and only once a
//! test has run for about a second. With an estimate of the search it shows a bar (when
//! the bound fits), the rate and an upper bound on the time left.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use vkherd::Estimate;

/// A running progress display; stops and clears itself when dropped.
pub struct Progress {
    counter: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

/// `42 s`, `3.5 min`, `2.0 h`, `12 days`, `3.1e12 years`.
fn duration_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "forever".into();
    }
    let year = 365.25 * 86400.0;
    match secs {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < year => format!("{:.0} days", s / 86400.0),
        s if s < 1e6 * year => format!("{:.0} years", s / year),
        s => format!("{:.1e} years", s / year),
    }
}

/// What the display says: positions covered (candidates examined or pruned), the bound,
/// the rate and the time left at that rate.
fn message(covered: u64, estimate: Option<&Estimate>, elapsed: f64) -> String {
    let rate = covered as f64 / elapsed.max(1e-9);
    let Some(e) = estimate else {
        return format!("{covered} candidates, {rate:.0}/s");
    };
    let left = (e.value() - covered as f64).max(0.0);
    format!(
        "{covered} of at most {e} candidates, {rate:.0}/s, ETA at most {}",
        duration_text(left / rate.max(1e-9))
    )
}

impl Progress {
    /// Starts watching a run of `name`; None when stderr is not a terminal.
    pub fn start(name: &str, estimate: Option<Estimate>) -> Option<Progress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let counter = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let (c, d, name) = (counter.clone(), done.clone(), name.to_string());
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            // Quick runs finish before anything is drawn.
            for _ in 0..10 {
                std::thread::sleep(Duration::from_millis(100));
                if d.load(Ordering::Relaxed) {
                    return;
                }
            }
            let len = estimate.as_ref().and_then(Estimate::as_u64);
            let (bar, template) = match len {
                Some(n) => (
                    ProgressBar::new(n),
                    "{spinner} {prefix} [{bar:20}] {msg} [{elapsed_precise}]",
                ),
                None => (
                    ProgressBar::new_spinner(),
                    "{spinner} {prefix} {msg} [{elapsed_precise}]",
                ),
            };
            bar.set_style(
                ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_prefix(name);
            while !d.load(Ordering::Relaxed) {
                let covered = c.load(Ordering::Relaxed);
                bar.set_position(covered);
                bar.set_message(message(
                    covered,
                    estimate.as_ref(),
                    start.elapsed().as_secs_f64(),
                ));
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

    /// The counter the enumerator increments per candidate examined or pruned.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_has_a_rate_and_an_eta() {
        let e = Estimate {
            path_combinations: 1,
            log10: 6.0,
        };
        assert_eq!(
            message(1000, Some(&e), 2.0),
            "1000 of at most 1.0e6 candidates, 500/s, ETA at most 33.3 min"
        );
        assert_eq!(message(10, None, 1.0), "10 candidates, 10/s");
        assert_eq!(duration_text(4e20), "1.3e13 years");
    }
}
