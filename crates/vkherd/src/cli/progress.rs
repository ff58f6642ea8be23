//! A progress display on stderr for long runs: shown only on a terminal, and only once a
//! test has run for about a second. With an estimate of the search it shows a bar (when
//! the bound fits), the rate and the time left. "at most" is said only of true bounds: the
//! estimate of a whole search (an upper bound on the candidates examined or pruned, see
//! `vkherd_enumerate::estimate`) and the time `--timeout` leaves; the time left at the
//! current rate is an estimate (`~`), as is a shard's share of the search.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use vkherd::report::readable_count;
use vkherd::Estimate;

/// A running progress display; stops and clears itself when dropped.
pub struct Progress {
    counter: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

/// What is known before a run about how long it can take.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    /// The size of the search (candidates examined or pruned).
    pub estimate: Option<Estimate>,
    /// `estimate` is an upper bound (a whole search), not a guess (a shard's share).
    pub estimate_is_bound: bool,
    /// The run stops after this long (`--timeout`).
    pub timeout: Option<Duration>,
}

impl Budget {
    /// A whole search's estimate, which bounds it, and the run's time limit.
    pub fn bound(estimate: Option<Estimate>, timeout: Option<Duration>) -> Budget {
        Budget {
            estimate,
            estimate_is_bound: true,
            timeout,
        }
    }
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

/// A rate for people: whole below a million per second, then two digits (`2.4e15`).
fn rate_text(rate: f64) -> String {
    if rate < 1e6 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1e}")
    }
}

/// What the display says: positions covered (candidates examined or pruned), the size of
/// the search, the rate, and the time left: `~` at the current rate (an estimate: the rate
/// changes, and pruning cuts most searches far below their bound), `at most` when
/// `--timeout` stops the run sooner (a true bound).
fn message(covered: u64, budget: &Budget, elapsed: f64) -> String {
    let rate = covered as f64 / elapsed.max(1e-9);
    let mut out = readable_count(u128::from(covered));
    // Seconds left at the current rate, when there is a size to go by and a rate.
    let mut estimated_left = None;
    if let Some(e) = &budget.estimate {
        let size = if budget.estimate_is_bound {
            "at most"
        } else {
            "about"
        };
        out.push_str(&format!(" of {size} {e}"));
        if covered > 0 {
            estimated_left = Some((e.value() - covered as f64).max(0.0) / rate);
        }
    }
    out.push_str(&format!(" candidates, {}/s", rate_text(rate)));
    // Rounded up, so that it stays a bound; the limit counts from the start of the
    // enumeration, a moment after the display's start, so this errs towards more time.
    let limit_left = budget
        .timeout
        .map(|t| (t.as_secs_f64() - elapsed).max(0.0).ceil());
    match (estimated_left, limit_left) {
        (_, Some(limit)) if limit < 1.0 => out.push_str(", stopping (--timeout)"),
        (Some(est), Some(limit)) if limit < est => out.push_str(&format!(
            ", ETA ~{} at this rate, but --timeout stops it in at most {}",
            duration_text(est),
            duration_text(limit)
        )),
        (Some(est), _) => out.push_str(&format!(", ETA ~{} at this rate", duration_text(est))),
        (None, Some(limit)) => out.push_str(&format!(
            ", --timeout stops it in at most {}",
            duration_text(limit)
        )),
        (None, None) => {}
    }
    out
}

impl Progress {
    /// Starts watching a run of `name`; None when stderr is not a terminal.
    pub fn start(name: &str, budget: Budget) -> Option<Progress> {
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
            let len = budget.estimate.as_ref().and_then(Estimate::as_u64);
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
                bar.set_message(message(covered, &budget, start.elapsed().as_secs_f64()));
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

    fn estimate(log10: f64) -> Estimate {
        Estimate {
            path_combinations: 1,
            log10,
        }
    }

    #[test]
    fn counts_and_rates_read_in_scientific_notation_past_a_million() {
        let budget = Budget::bound(Some(estimate(17.806)), None);
        assert_eq!(
            message(135_000_000_000_000_000, &budget, 56.25),
            "1.35e17 of at most 6.4e17 candidates, 2.4e15/s, ETA ~3.5 min at this rate"
        );
        assert_eq!(rate_text(999_999.0), "999999");
        assert_eq!(rate_text(2_400_000.0), "2.4e6");
    }

    #[test]
    fn the_time_left_at_the_current_rate_is_an_estimate_never_at_most() {
        // 1000 of at most 1e6 after 2 s: 998 000 left at 500/s. The bound is on the
        // candidates; the rate can fall, so the time is not bounded.
        let budget = Budget::bound(Some(estimate(6.0)), None);
        let text = message(1000, &budget, 2.0);
        assert_eq!(
            text,
            "1000 of at most 1.0e6 candidates, 500/s, ETA ~33.3 min at this rate"
        );
        assert!(!text.contains("ETA at most"), "{text}");
        assert_eq!(message(10, &Budget::default(), 1.0), "10 candidates, 10/s");
        assert_eq!(duration_text(4e20), "1.3e13 years");
    }

    #[test]
    fn at_most_is_said_of_the_time_only_when_the_timeout_bounds_it() {
        let timeout = Some(Duration::from_secs(60));
        // The timeout comes first: it bounds the time left.
        let budget = Budget::bound(Some(estimate(6.0)), timeout);
        assert_eq!(
            message(1000, &budget, 18.0),
            "1000 of at most 1.0e6 candidates, 56/s, ETA ~5.0 h at this rate, but --timeout stops it in at most 42 s"
        );
        // The estimate comes first: only the estimate is shown.
        assert_eq!(
            message(500_000, &budget, 10.0),
            "500000 of at most 1.0e6 candidates, 50000/s, ETA ~10 s at this rate"
        );
        // No estimate: the timeout is the only bound.
        let budget = Budget::bound(None, timeout);
        assert_eq!(
            message(100, &budget, 30.0),
            "100 candidates, 3/s, --timeout stops it in at most 30 s"
        );
        // The time is up: the run is stopping.
        assert_eq!(
            message(100, &budget, 60.0),
            "100 candidates, 2/s, stopping (--timeout)"
        );
        // Nothing covered yet: no rate to go by, no ETA.
        let budget = Budget::bound(Some(estimate(6.0)), None);
        assert_eq!(
            message(0, &budget, 1.0),
            "0 of at most 1.0e6 candidates, 0/s"
        );
    }

    #[test]
    fn a_shards_share_of_the_search_is_about_not_at_most() {
        let budget = Budget {
            estimate: Some(estimate(6.0)),
            estimate_is_bound: false,
            timeout: None,
        };
        assert_eq!(
            message(1000, &budget, 2.0),
            "1000 of about 1.0e6 candidates, 500/s, ETA ~33.3 min at this rate"
        );
    }
}
