//! An upper bound on the size of a search, computed before running it: summed over path
//! combinations, quorum choices × asmo orders × rf choices. Shown with `--stats`, in the
//! progress bar (with a rate and an ETA), and used to warn when a run cannot finish within
//! its limits.
//!
//! Why it is an upper bound on candidates + pruned (what the progress counter counts):
//! - rf: a read has at most 1 + (writes to its location other than itself) sources
//!   (`rf_options`; pins only remove sources), so the rf choices of a combination are at
//!   most their product; the pruned search counts a cut subtree by its rf completions only;
//! - asmo: a valid asmo is a strict partial order whose comparable pairs are fixed
//!   (`candidates::asmo_pairs`: Vulkan, mutordatom on atomic writes; OpenCL, every pair of
//!   writes to a location; both within a location); a linear extension of it determines
//!   it, so there are at most (ordered writes to l)! orders per location l;
//! - a compare-exchange step counts as the event it makes (an RMW on success, a read on
//!   failure), like any access;
//! - quorum choices: counted exactly per combination (`meeting_count`); above
//!   [`EXACT_COMBINATIONS`] combinations, each thread contributes its worst path
//!   (most reads, writes, atomic writes per location, most quorum barrier executions), and
//!   a quorum instance with m members has at most 2^m quorum sets.

use crate::combine::{layout, meeting_count};
use crate::driver::all_thread_paths;
use crate::error::EnumError;
use crate::options::EnumOptions;
use crate::paths::{Path, PathCombinations, Step};
use std::fmt;
use vkherd_model::{Event, Flags, Instruction, Program};

/// Most path combinations whose bounds are computed one by one.
const EXACT_COMBINATIONS: u64 = 1024;

/// An upper bound on the candidates (examined or pruned) of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Path combinations (saturating).
    pub path_combinations: u64,
    /// log10 of the bound (`-inf` for 0).
    pub log10: f64,
}

impl Estimate {
    /// The bound as a float (may be infinite for astronomically large searches).
    pub fn value(&self) -> f64 {
        10f64.powf(self.log10)
    }

    /// Is the bound more than `n`?
    pub fn exceeds(&self, n: f64) -> bool {
        self.log10 > n.log10()
    }

    /// The bound as a whole number when it fits in a u64.
    pub fn as_u64(&self) -> Option<u64> {
        (self.log10 < 19.0).then(|| self.value().round() as u64)
    }
}

/// `64`, `123456`, or `3.2e41` from a million on.
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.log10 == f64::NEG_INFINITY {
            return write!(f, "0");
        }
        if self.log10 < 6.0 {
            return write!(f, "{}", self.value().round() as u64);
        }
        let exp = self.log10.floor();
        let mut mantissa = 10f64.powf(self.log10 - exp);
        let mut exp = exp as i64;
        if (mantissa * 10.0).round() >= 100.0 {
            mantissa /= 10.0;
            exp += 1;
        }
        write!(f, "{mantissa:.1}e{exp}")
    }
}

/// log10(a + b) from log10 a and log10 b.
fn log_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (1.0 + 10f64.powf(lo - hi)).log10()
}

/// log10(n!).
fn log_factorial(n: u64) -> f64 {
    (2..=n).map(|k| (k as f64).log10()).sum()
}

/// Per location: reads, writes, atomic writes; and quorum-barrier executions.
#[derive(Debug, Clone, Default)]
struct Counts {
    reads: Vec<u64>,
    writes: Vec<u64>,
    atomic_writes: Vec<u64>,
    /// Reads that are also writes (RMWs): they cannot read from themselves.
    rmws: Vec<u64>,
    quorum_cbars: u64,
    /// Events without a location that asmo may order.
    unlocated_ordered: u64,
}

impl Counts {
    fn new(locations: usize) -> Counts {
        Counts {
            reads: vec![0; locations],
            writes: vec![0; locations],
            atomic_writes: vec![0; locations],
            rmws: vec![0; locations],
            quorum_cbars: 0,
            unlocated_ordered: 0,
        }
    }

    fn add_event(&mut self, program: &Program, ev: &Event) {
        if let Instruction::Access(a) = &program.threads[ev.thread].code[ev.instr] {
            if a.barrier.as_ref().is_some_and(|b| b.quorum.is_some()) {
                self.quorum_cbars += 1;
            }
        }
        // The events without a location asmo may order (PTX's fence.sc): at most n! orders
        // of n of them, as for a location's writes.
        let Some(l) = ev.location else {
            self.unlocated_ordered += (program.dialect.ordered_write)(ev.flags) as u64;
            return;
        };
        let (r, w) = (ev.flags.has(Flags::R), ev.flags.has(Flags::W));
        self.reads[l] += r as u64;
        self.writes[l] += w as u64;
        self.rmws[l] += (r && w) as u64;
        // The writes asmo may order (candidates::asmo_pairs), as the dialect says.
        let ordered = (program.dialect.ordered_write)(ev.flags);
        self.atomic_writes[l] += (w && ordered) as u64;
    }

    /// Each count the larger of the two.
    fn max(&mut self, o: &Counts) {
        for (a, b) in [
            (&mut self.reads, &o.reads),
            (&mut self.writes, &o.writes),
            (&mut self.atomic_writes, &o.atomic_writes),
            (&mut self.rmws, &o.rmws),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x = (*x).max(*y);
            }
        }
        self.quorum_cbars = self.quorum_cbars.max(o.quorum_cbars);
        self.unlocated_ordered = self.unlocated_ordered.max(o.unlocated_ordered);
    }

    fn sum(&mut self, o: &Counts) {
        for (a, b) in [
            (&mut self.reads, &o.reads),
            (&mut self.writes, &o.writes),
            (&mut self.atomic_writes, &o.atomic_writes),
            (&mut self.rmws, &o.rmws),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += *y;
            }
        }
        self.quorum_cbars += o.quorum_cbars;
        self.unlocated_ordered += o.unlocated_ordered;
    }

    /// log10 of rf choices × asmo orders.
    fn log_rf_asmo(&self) -> f64 {
        let mut log = 0.0;
        for l in 0..self.reads.len() {
            // Plain reads: init or any write; RMWs: init or any write but themselves.
            // (A location without writes has no RMWs: 0 × log 0 is left out.)
            let plain = self.reads[l] - self.rmws[l];
            log += plain as f64 * ((1 + self.writes[l]) as f64).log10();
            if self.rmws[l] > 0 {
                log += self.rmws[l] as f64 * (self.writes[l] as f64).log10();
            }
            log += log_factorial(self.atomic_writes[l]);
        }
        // (The acyclic orientations of pairs among n events are at most n!: each is
        // induced by a linear order.)
        log + log_factorial(self.unlocated_ordered)
    }
}

/// The counts of one thread's path (events as `layout` makes them).
fn path_counts(program: &Program, t: usize, path: &Path) -> Counts {
    let mut c = Counts::new(program.locations.len());
    for step in &path.steps {
        let (i, failed_cas) = match *step {
            Step::Exec(i) => (i, false),
            Step::Cas { index, success } => (index, !success),
            Step::Jump { .. } => continue,
        };
        if let Instruction::Access(a) = &program.threads[t].code[i] {
            let flags = match &a.cas {
                Some(cas) if failed_cas => cas.fail_flags,
                _ => a.flags,
            };
            let ev = Event {
                thread: t,
                instr: i,
                flags,
                reference: a.reference,
                location: a.reference.map(|r| program.references[r].location),
            };
            c.add_event(program, &ev);
        }
    }
    c
}

/// An upper bound on the search of `program` (module comment). Fails as `enumerate` would
/// on too many paths.
pub fn estimate(program: &Program, opts: &EnumOptions) -> Result<Estimate, EnumError> {
    let per_thread = all_thread_paths(program, opts)?;
    let combos = PathCombinations::new(&per_thread);
    let total = combos.total();
    let log_combos: f64 = per_thread
        .iter()
        .map(|t| (t.paths.len() as f64).log10())
        .sum();
    let log10 = if total <= EXACT_COMBINATIONS {
        let mut log = f64::NEG_INFINITY;
        for combo in combos {
            let lay = layout(program, &combo);
            // A deadlock (0) has no candidates; an error stops the run.
            let quorum = meeting_count(program, &lay).unwrap_or(0);
            if quorum == 0 {
                continue;
            }
            let mut c = Counts::new(program.locations.len());
            for ev in &lay.events {
                c.add_event(program, ev);
            }
            log = log_add(log, (quorum as f64).log10() + c.log_rf_asmo());
        }
        log
    } else {
        let mut worst = Counts::new(program.locations.len());
        for (t, tp) in per_thread.iter().enumerate() {
            let mut m = Counts::new(program.locations.len());
            for p in &tp.paths {
                m.max(&path_counts(program, t, p));
            }
            worst.sum(&m);
        }
        log_combos + worst.quorum_cbars as f64 * 2f64.log10() + worst.log_rf_asmo()
    };
    Ok(Estimate {
        path_combinations: total,
        log10,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_bounds_print_in_scientific_notation() {
        let e = |log10| Estimate {
            path_combinations: 1,
            log10,
        };
        assert_eq!(e(f64::NEG_INFINITY).to_string(), "0");
        assert_eq!(e(64f64.log10()).to_string(), "64");
        assert_eq!(e(123456f64.log10()).to_string(), "123456");
        assert_eq!(e(6.0).to_string(), "1.0e6");
        assert_eq!(e(41.0 + 3.2f64.log10()).to_string(), "3.2e41");
        assert_eq!(e(9.9999).to_string(), "1.0e10");
        // Far past u64 and f64: still a number, never a saturated integer.
        assert_eq!(e(400.5).to_string(), "3.2e400");
        assert_eq!(e(400.5).as_u64(), None);
        assert_eq!(e(3.0).as_u64(), Some(1000));
    }

    #[test]
    fn log_sums_and_factorials() {
        assert!((log_add(2.0, 2.0) - 200f64.log10()).abs() < 1e-12);
        assert_eq!(log_add(f64::NEG_INFINITY, 1.0), 1.0);
        assert!((log_factorial(5) - 120f64.log10()).abs() < 1e-12);
    }
}

#[cfg(test)]
mod count_tests {
    use crate::combine::{layout, meeting_count, meetings, Meeting};
    use crate::paths::thread_paths;

    /// Quorum barriers, one in a loop: `meeting_count` agrees with the relations
    /// `meetings` builds, on every path combination.
    #[test]
    fn meeting_count_matches_meetings() {
        let src = "VULKAN Q\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 2, wg 0, qf 0 ;\n \
            LC00: | cbar.acq_rel.wg.semsc0 1, 1, 2 | cbar.acq_rel.wg.semsc0 1, 1, 2 ;\n \
            cbar.acq_rel.wg.semsc0 1, 1, 2 | ld.sc0 r0, x | ;\n \
            ld.sc0 r1, x | | ;\n \
            bne r1, 0, LC00 | | ;\n\
            exists (P1:r0 == 0)\n";
        let program = vkherd_dialects::vulkan::lower_litmus(
            &vkherd_dialects::vulkan::parse_litmus(src).unwrap(),
        )
        .unwrap();
        let per: Vec<_> = (0..program.threads.len())
            .map(|t| {
                thread_paths(
                    &program.threads[t],
                    t,
                    2,
                    crate::paths::PathLimits::default(),
                )
                .unwrap()
                .paths
            })
            .collect();
        let mut seen = 0;
        for p0 in &per[0] {
            let combo = [p0, &per[1][0], &per[2][0]];
            let lay = layout(&program, &combo);
            let built = match meetings(&program, &lay).unwrap() {
                Meeting::Deadlock => 0,
                Meeting::Instances(v) => v.len(),
            };
            assert_eq!(meeting_count(&program, &lay).unwrap(), built);
            seen += built;
        }
        assert!(
            seen > per[0].len(),
            "some combination has several quorum choices"
        );
    }
}
