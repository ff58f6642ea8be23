//! The role of each event in a path combination's endings (liveness.md "Stuck
//! executions"): which are in spin iterations and in laps A and B, read by the stuck
//! visitor ([`super::laps`]) and by the screen ([`super::screen`]).

use super::endings::{Ending, LPath};
use crate::combine::Layout;
use vkherd_model::{Flags, Program};

/// The role of each event in the combination's endings.
pub(crate) struct Roles {
    /// In some spin iteration.
    pub spin: Vec<bool>,
    /// In lap A / lap B of some repeating invocation.
    pub a: Vec<bool>,
    pub b: Vec<bool>,
    /// For an event of A, the matching event of the copy at the end of B.
    pub copy: Vec<Option<usize>>,
    /// Locations some event of A or B writes.
    pub lap_locations: Vec<bool>,
    /// Locations some event writes.
    pub written: Vec<bool>,
}

impl Roles {
    pub(crate) fn new(program: &Program, paths: &[LPath], lay: &Layout) -> Roles {
        let n = lay.events.len();
        let mut r = Roles {
            spin: vec![false; n],
            a: vec![false; n],
            b: vec![false; n],
            copy: vec![None; n],
            lap_locations: vec![false; program.locations.len()],
            written: vec![false; program.locations.len()],
        };
        let events_in = |t: usize, from: usize, to: usize| -> Vec<usize> {
            lay.step_events[t][from..to]
                .iter()
                .flatten()
                .copied()
                .collect()
        };
        for (t, p) in paths.iter().enumerate() {
            let len = p.path.steps.len();
            match p.ending {
                Ending::Spinning { start, .. } => {
                    for e in events_in(t, start, len) {
                        r.spin[e] = true;
                    }
                }
                Ending::Repeating { a, b, .. } => {
                    let la = events_in(t, a, b);
                    for &e in &la {
                        r.a[e] = true;
                    }
                    for e in events_in(t, b, len) {
                        r.b[e] = true;
                    }
                    let copy = events_in(t, len - (b - a), len);
                    for (&x, &y) in la.iter().zip(&copy) {
                        r.copy[x] = Some(y);
                    }
                }
                _ => {}
            }
        }
        for (e, ev) in lay.events.iter().enumerate() {
            // A write on its path (a failed compare-exchange only reads).
            if let (Some(l), true) = (ev.location, ev.flags.0 & Flags::W.0 != 0) {
                r.written[l] = true;
                if r.a[e] || r.b[e] {
                    r.lap_locations[l] = true;
                }
            }
        }
        r
    }

    pub(crate) fn in_laps(&self, e: usize) -> bool {
        self.a[e] || self.b[e]
    }

    pub(crate) fn any(&self) -> bool {
        self.spin.iter().chain(&self.a).chain(&self.b).any(|&x| x)
    }
}
