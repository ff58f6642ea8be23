//! The enumerator's shortcuts in the hand-written engine (crates/enumerate
//! engine/hand.rs: relations that do not depend on rf computed once per asmo, `co` once per
//! asmo, a search node's relations shared with its parent's when sw is the same) against
//! the plain per-candidate computation (`Derived::compute`): on every candidate of the
//! corpus and of random tests (all of them in plain enumeration, the consistent ones in
//! the pruned search, where the sharing along branches happens), the judgement the
//! visitor gets has the same consistency, race flag and relations.

use crate::common;

use crate::files;
use vkherd_enumerate::RunConfig;
use vkherd_enumerate::{enumerate, CandidateView, EnumOptions, Judgement, Visitor, Wanted};
use vkherd_model::axioms::Candidate;
use vkherd_model::{Derived, Program};

/// The relations a visitor may ask the hand-written model for.
const NAMES: [&str; 8] = ["co", "dr", "rs", "hypors", "sw", "hb", "locord", "fr"];

/// `all`: plain enumeration, every candidate; else the pruned search.
struct Compare {
    all: bool,
}

#[derive(Default)]
struct Tally {
    candidates: u64,
    errors: Vec<String>,
}

impl Visitor for Compare {
    type Acc = Tally;

    fn visit<J: Judgement>(&self, acc: &mut Tally, c: &CandidateView<'_, J>) {
        acc.candidates += 1;
        let s = c.statics;
        let cand = Candidate {
            rf: c.rf,
            rfinit: c.rfinit,
            asmo: c.asmo,
        };
        let d = Derived::compute(s, cand);
        let co = d.locord.union(c.asmo).plus();
        let mut err = |what: String| {
            if acc.errors.len() < 5 {
                acc.errors
                    .push(format!("rf {:?} asmo {:?}: {what}", c.rf, c.asmo));
            }
        };
        if c.consistent != d.consistent(s, cand) {
            err(format!("consistent: enumerator {}", c.consistent));
        }
        if c.eval.flagged() != d.racy() {
            err(format!("racy: enumerator {}", c.eval.flagged()));
        }
        for (i, name) in NAMES.into_iter().enumerate() {
            let want = match name {
                "co" => &co,
                "dr" => &d.dr,
                "rs" => &d.rs,
                "hypors" => &d.hypors,
                "sw" => &d.sw,
                "hb" => &d.hb,
                "locord" => &d.locord,
                _ => &d.fr,
            };
            if c.eval.rel(Wanted(i)) != Some(want) {
                err(format!(
                    "{name}: enumerator {:?} plain {want:?}",
                    c.eval.rel(Wanted(i))
                ));
            }
        }
    }

    fn merge(&self, mut a: Tally, b: Tally) -> Tally {
        a.candidates += b.candidates;
        a.errors.extend(b.errors);
        a.errors.truncate(5);
        a
    }

    /// Every candidate, inconsistent ones too (plain enumeration), or the search's.
    fn needs_inconsistent(&self) -> bool {
        self.all
    }

    fn wanted(&self) -> Vec<&'static str> {
        NAMES.to_vec()
    }
}

/// Candidates examined per test at most (keeps the test to seconds).
const BUDGET: u64 = 3000;

fn compare(program: &Program, name: &str) -> u64 {
    let eo = EnumOptions {
        run: RunConfig {
            max_candidates: Some(BUDGET),
            ..RunConfig::default()
        },
        ..EnumOptions::default()
    };
    let mut total = 0;
    for all in [true, false] {
        let (tally, _) =
            enumerate(program, &eo, &Compare { all }).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            tally.errors.is_empty(),
            "{name}\n{}",
            tally.errors.join("\n")
        );
        total += tally.candidates;
    }
    total
}

#[test]
fn shortcuts_match_the_plain_model_on_the_corpus() {
    let files = files::hand_engine_files();
    assert!(files.len() > 100, "corpus not found");
    let mut candidates = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let program = crate::load_litmus(&src)
            .unwrap_or_else(|d| panic!("{}", d.render(&f.display().to_string(), &src)));
        candidates += compare(&program, &f.display().to_string());
    }
    assert!(candidates > 2_000, "only {candidates} candidates compared");
}

#[test]
fn shortcuts_match_the_plain_model_on_random_tests() {
    let mut candidates = 0;
    for seed in (0..400).chain(10_000..10_200) {
        let src = common::random_test(seed, seed >= 10_000);
        let program = crate::load_litmus(&src).unwrap();
        candidates += compare(&program, &format!("seed {seed}\n{src}"));
    }
    for seed in 20_000..20_100 {
        let (src, _) = common::random_rmw_test(seed);
        let program = crate::load_litmus(&src).unwrap();
        candidates += compare(&program, &format!("seed {seed}\n{src}"));
    }
    assert!(candidates > 3_000, "only {candidates} candidates compared");
}
