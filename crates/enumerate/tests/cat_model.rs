//! The Vulkan model written in cat (crates/dialects/src/vulkan/models/vulkan.cat), compiled, against the
//! hand-written transcription (vkherd_model::axioms), candidate by candidate: every
//! candidate (consistent or not) of every corpus test and of random tests gets the same
//! consistent/racy verdicts and the same relations, under the three model variants. Also
//! checks the Alloy file's asserts on the corpus, and that the checks the analysis lets
//! cut the search really only fail more as rf grows.

use crate::common;

use crate::files;
use std::collections::HashMap;
use std::sync::Mutex;
use vkherd_cat::{AsmoValues, Model, Prepared};
use vkherd_enumerate::RunConfig;
use vkherd_enumerate::{
    enumerate, AnyEngine, CandidateView, CatEngine, EnumOptions, Judgement, Visitor,
};
use vkherd_model::axioms::Candidate;
use vkherd_model::{Derived, ModelOptions, Program, Rel, StaticRel, Variant};

/// The relations compared, by their names in both implementations.
const RELATIONS: [&str; 16] = [
    "rs", "hypors", "sw", "hb", "avsg", "avwg", "avqf", "avsh", "avdv", "vissg", "viswg", "visqf",
    "vissh", "visdv", "locord", "fr",
];

fn variants() -> Vec<(ModelOptions, Model)> {
    let v = |variant, chains| ModelOptions {
        variant,
        chains,
        mmra: false,
    };
    vec![
        (
            v(Variant::Vulkan, true),
            Model::bundled("vulkan", &[]).unwrap(),
        ),
        (
            v(Variant::Vulkan2024, true),
            Model::bundled("vulkan-2024", &[]).unwrap(),
        ),
        (
            v(Variant::Vulkan, false),
            Model::bundled("vulkan", &["no-chains".to_string()]).unwrap(),
        ),
    ]
}

/// Per-asmo values, cached per execution and asmo.
type AsmoCache = HashMap<(String, Vec<(usize, usize)>), std::sync::Arc<AsmoValues>>;

/// Compares one candidate; prepared models are cached per execution (events + scbarinst),
/// and per-asmo values per asmo, so that consecutive candidates of one execution and
/// asmo are evaluated incrementally (the engine's per-thread memo, cat/src/eval/memo.rs)
/// as in the search: every comparison below also checks the memo.
struct Compare<'m> {
    model: &'m Model,
    cache: Mutex<HashMap<String, std::sync::Arc<Prepared<'m>>>>,
    asmo_cache: Mutex<AsmoCache>,
    name: String,
}

#[derive(Default)]
struct Tally {
    candidates: u64,
    consistent: u64,
    errors: Vec<String>,
}

fn derived_rel<'a>(d: &'a vkherd_model::Derived, name: &str) -> &'a Rel {
    match name {
        "rs" => &d.rs,
        "hypors" => &d.hypors,
        "sw" => &d.sw,
        "hb" => &d.hb,
        "avsg" => &d.avsg,
        "avwg" => &d.avwg,
        "avqf" => &d.avqf,
        "avsh" => &d.avsh,
        "avdv" => &d.avdv,
        "vissg" => &d.vissg,
        "viswg" => &d.viswg,
        "visqf" => &d.visqf,
        "vissh" => &d.vissh,
        "visdv" => &d.visdv,
        "locord" => &d.locord,
        "fr" => &d.fr,
        _ => unreachable!(),
    }
}

impl<'m> Visitor for Compare<'m> {
    type Acc = Tally;

    fn visit<J: Judgement>(&self, acc: &mut Tally, c: &CandidateView<'_, J>) {
        let s = c.statics;
        let key = format!("{:?}{:?}", s.events(), s.rel(StaticRel::ScbarInst));
        let prep = {
            let mut cache = self.cache.lock().unwrap();
            cache
                .entry(key.clone())
                .or_insert_with(|| {
                    let mut wanted: Vec<&str> = RELATIONS.to_vec();
                    wanted.extend(["dr", "co"]);
                    std::sync::Arc::new(Prepared::new(self.model, s, &wanted))
                })
                .clone()
        };
        let asmo = {
            let mut cache = self.asmo_cache.lock().unwrap();
            cache
                .entry((key, c.asmo.pairs().collect()))
                .or_insert_with(|| std::sync::Arc::new(prep.for_asmo(c.asmo)))
                .clone()
        };
        let e = prep.evaluate(&asmo, c.asmo, c.rf, c.rfinit);
        acc.candidates += 1;
        let cand = Candidate {
            rf: c.rf,
            rfinit: c.rfinit,
            asmo: c.asmo,
        };
        let derived = Derived::compute(s, cand);
        let d = &derived;
        let hand_consistent = d.consistent(s, cand);
        let mut err = |what: String| {
            if acc.errors.len() < 5 {
                acc.errors.push(format!("{}: {what}", self.name));
            }
        };
        if e.consistent() != hand_consistent || c.consistent != hand_consistent {
            err(format!(
                "consistent: cat {} hand {hand_consistent}",
                e.consistent()
            ));
        }
        if e.any_flag() != d.racy() {
            err(format!("racy: cat {} hand {}", e.any_flag(), d.racy()));
        }
        for name in RELATIONS {
            if e.rel(name) != Some(derived_rel(d, name)) {
                err(format!(
                    "{name}: cat {:?} hand {:?}",
                    e.rel(name),
                    derived_rel(d, name)
                ));
            }
        }
        if e.rel("dr") != Some(&d.dr) {
            err(format!("dr: cat {:?} hand {:?}", e.rel("dr"), d.dr));
        }
        let co = d.locord.union(c.asmo).plus();
        if e.rel("co") != Some(&co) {
            err("co differs from (locord + asmo)+".into());
        }
        // Dropped first: the checks below then start from its values (the memo).
        drop(e);
        // The cutting checks agree with consistency on complete candidates...
        let cut = prep.may_complete(&asmo, c.asmo, c.rf, c.rfinit);
        if cut != c.consistent {
            err(format!(
                "may_complete {cut} but consistent {}",
                c.consistent
            ));
        }
        // ...and on a partial candidate (some rf pairs and RFINIT reads dropped) they
        // fail only if they fail on the complete one: the monotonicity the search uses.
        if !c.consistent || c.rf.count() > 0 {
            let pairs: Vec<(usize, usize)> = c.rf.pairs().collect();
            let keep = Rel::from_pairs(
                s.n(),
                pairs
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|x| x.1),
            );
            let mut init = c.rfinit.clone();
            if let Some(first) = c.rfinit.iter().next() {
                init.remove(first);
            }
            let partial = prep.may_complete(&asmo, c.asmo, &keep, &init);
            if !partial && c.consistent {
                err(
                    "a partial candidate fails a cutting check its consistent completion passes"
                        .into(),
                );
            }
        }
        if c.consistent {
            acc.consistent += 1;
        }
    }

    fn merge(&self, mut a: Tally, b: Tally) -> Tally {
        a.candidates += b.candidates;
        a.consistent += b.consistent;
        a.errors.extend(b.errors);
        a.errors.truncate(5);
        a
    }

    fn needs_inconsistent(&self) -> bool {
        true
    }
}

/// Candidates examined per test and variant at most (keeps the test to seconds).
const BUDGET: u64 = 4000;

fn compare(program: &Program, name: &str, models: &[(ModelOptions, Model)]) -> u64 {
    let mut total = 0;
    for (opts, model) in models {
        let visitor = Compare {
            model,
            cache: Mutex::new(HashMap::new()),
            asmo_cache: Mutex::new(HashMap::new()),
            name: format!("{name} [{} chains={}]", opts.variant.name(), opts.chains),
        };
        // The static relations the visitor's hand-written model reads are built with the
        // options of the model's variants (`CatEngine::bundled_vulkan`).
        let engine = CatEngine::bundled_vulkan(std::sync::Arc::new(model.clone()));
        assert_eq!(AnyEngine::Cat(engine.clone()).statics_options(), *opts);
        let eo = EnumOptions {
            engine: AnyEngine::Cat(engine),
            run: RunConfig {
                max_candidates: Some(BUDGET),
                ..RunConfig::default()
            },
            ..EnumOptions::default()
        };
        let (tally, _) =
            enumerate(program, &eo, &visitor).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(tally.errors.is_empty(), "{}", tally.errors.join("\n"));
        total += tally.candidates;
    }
    total
}

#[test]
fn cat_model_matches_hand_written_model_on_the_corpus() {
    let models = variants();
    let mut candidates = 0;
    let files = files::hand_engine_files();
    assert!(files.len() > 100, "corpus not found");
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let program = crate::load_litmus(&src)
            .unwrap_or_else(|d| panic!("{}", d.render(&f.display().to_string(), &src)));
        candidates += compare(&program, &f.display().to_string(), &models);
    }
    assert!(candidates > 3_000, "only {candidates} candidates compared");
}

#[test]
fn cat_model_matches_hand_written_model_on_random_tests() {
    let models = variants();
    let mut candidates = 0;
    for seed in (0..700).chain(10_000..10_300) {
        let src = common::random_test(seed, seed >= 10_000);
        let program = crate::load_litmus(&src).unwrap();
        candidates += compare(&program, &format!("seed {seed}\n{src}"), &models);
    }
    assert!(candidates > 3_000, "only {candidates} candidates compared");
}

/// Runs `check` on every candidate of every corpus test under `model` (the hand-written
/// verdict on consistency alongside); returns the number of candidates.
fn on_corpus(
    model: &Model,
    wanted: &[&str],
    check: &(dyn Fn(&vkherd_cat::Evaluation<'_, '_>, bool) -> Result<(), String> + Sync),
) -> u64 {
    struct V<'m, 'c> {
        model: &'m Model,
        wanted: &'c [&'c str],
        check: &'c (dyn Fn(&vkherd_cat::Evaluation<'_, '_>, bool) -> Result<(), String> + Sync),
    }
    impl Visitor for V<'_, '_> {
        type Acc = (u64, Vec<String>);
        fn visit<J: Judgement>(&self, acc: &mut Self::Acc, c: &CandidateView<'_, J>) {
            let prep = Prepared::new(self.model, c.statics, self.wanted);
            let asmo = prep.for_asmo(c.asmo);
            let e = prep.evaluate(&asmo, c.asmo, c.rf, c.rfinit);
            acc.0 += 1;
            if let Err(m) = (self.check)(&e, c.consistent) {
                acc.1.push(m);
            }
        }
        fn merge(&self, mut a: Self::Acc, b: Self::Acc) -> Self::Acc {
            a.0 += b.0;
            a.1.extend(b.1);
            a
        }
        fn needs_inconsistent(&self) -> bool {
            true
        }
    }
    let mut total = 0;
    for f in files::hand_engine_files() {
        let src = std::fs::read_to_string(&f).unwrap();
        let program = crate::load_litmus(&src).unwrap();
        let eo = EnumOptions {
            run: RunConfig {
                max_candidates: Some(BUDGET),
                ..RunConfig::default()
            },
            ..EnumOptions::default()
        };
        let v = V {
            model,
            wanted,
            check,
        };
        let ((n, errors), _) = enumerate(&program, &eo, &v).unwrap();
        assert!(errors.is_empty(), "{}: {}", f.display(), errors[0]);
        total += n;
    }
    total
}

#[test]
fn the_alloy_asserts_hold_on_the_corpus() {
    let model = Model::bundled("vulkan-asserts", &[]).unwrap();
    let n = on_corpus(&model, &[], &|e, consistent| {
        let flags = e.flags();
        let raised = |f: &str| flags.contains(&f);
        assert_eq!(consistent, e.consistent());
        // Asserts over every execution.
        for a in ["AssertLocordSameLoc", "AssertVisTo"] {
            if raised(a) {
                return Err(a.to_string());
            }
        }
        if consistent {
            for a in ["AssertLocordAcyclic", "AssertNoSwSelf"] {
                if raised(a) {
                    return Err(a.to_string());
                }
            }
            // AssertLocordComplete1: consistent && racefree => locordcomplete
            if !raised("racy") && raised("not-locordcomplete") {
                return Err("AssertLocordComplete1".into());
            }
            // AssertLocordComplete2: consistent && locordcomplete => racefree
            if !raised("not-locordcomplete") && raised("racy") {
                return Err("AssertLocordComplete2".into());
            }
        }
        Ok(())
    });
    assert!(n > 1000, "{n}");
}

/// Compiles `text` (a model that includes vulkan.cat and adds flags) and checks that no
/// flag but `racy` is raised on any candidate of the corpus.
fn no_flag_but_racy_on_corpus(name: &str, text: &str) {
    let model = Model::compile(
        vkherd_cat::Source {
            name: name.into(),
            text: std::sync::Arc::from(text),
        },
        &Default::default(),
    )
    .unwrap();
    let n = on_corpus(
        &model,
        &[],
        &|e, _| match e.flags().iter().find(|f| **f != "racy") {
            Some(f) => Err(f.to_string()),
            None => Ok(()),
        },
    );
    assert!(n > 1000, "{n}");
}

#[test]
fn let_rec_is_a_least_fixpoint() {
    let text = "include \"vulkan.cat\"\nlet rec lo = locord | lo ; lo\nlet rec even = id | odd ; po and odd = even ; po\nflag ~empty (lo \\ locord+) | (locord+ \\ lo) as closure-differs\nflag ~empty (even | odd) \\ po* as parity-escapes\nflag ~empty po* \\ (even | odd) as parity-misses";
    no_flag_but_racy_on_corpus("rec.cat", text);
}

/// A `;` chain reads `S` for a factor `[S]` (the cat crate's `kernel::compose` never
/// builds the `[S]` matrix there): chains with `[S]` factors of every stage, inside
/// unions with per-asmo and static terms, equal the same relations written with products
/// and intersections, on every candidate.
/// (Taking such a chain's stage from the unbuilt `[S]` node instead of `S` puts
/// `asmo | ([RFINIT] ; ...)` in the per-asmo program, which cannot read it.)
#[test]
fn set_factors_of_chains_are_applied_as_restrictions() {
    let text = "include \"vulkan.cat\"
let c1 = asmo | ([RFINIT] ; sloc ; [W])
let d1 = asmo | ((RFINIT * W) & sloc)
let c2 = po | (rf ; [R] ; po ; [W] ; sloc)
let d2 = po | (rf ; ((R * W) & po) ; sloc)
let c3 = [W] ; asmo ; [W & A] ; (rf & sloc) ; [ACQ | R]
let d3 = ((W * (W & A)) & asmo) ; (rf & sloc & (EV * (ACQ | R)))
let c4 = sloc & ([range(rf)] ; po ; [domain(asmo)])
let d4 = sloc & po & (range(rf) * domain(asmo))
flag ~empty (c1 \\ d1) | (d1 \\ c1) as c1-differs
flag ~empty (c2 \\ d2) | (d2 \\ c2) as c2-differs
flag ~empty (c3 \\ d3) | (d3 \\ c3) as c3-differs
flag ~empty (c4 \\ d4) | (d4 \\ c4) as c4-differs";
    no_flag_but_racy_on_corpus("set-factors.cat", text);
}
