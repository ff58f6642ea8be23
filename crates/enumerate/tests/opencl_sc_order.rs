//! The order S of seq_cst operations (opencl.cat, "Sequential consistency"; docs/opencl.md
//! "The SC order S") against seed 004 §3.6.1 read literally: on every candidate execution
//! of generated OpenCL tests and of the OpenCL corpus, the model's check `sc` holds
//! exactly when some permutation of the seq_cst events satisfies the seed's conditions,
//! each checked on the permutation itself: consistent with the modification order and
//! happens-before, every seq_cst load reading the last seq_cst write before it (or, from
//! a write that is not seq_cst, one that does not happen before that last write; the
//! initial value only if there is none), and the four fence rules. The relations the
//! conditions speak of (hb, co, fr, the region's hb of a location, the scopes) are the
//! model's, read by name; what is tested is the encoding of "there exists S" by edges and
//! the builtin `total-order`.
//!
//! Scopes (docs/opencl.md "Scoped SC"): seed 004's S orders every seq_cst operation; the
//! model orders two of them when each is in the other's scope instance (so, within one
//! work-group, all of them whose scopes are work_group or wider). The seed's conditions
//! are checked on one permutation of all the seq_cst events, each condition on a pair
//! asked only of pairs S orders. Three kinds of generated tests:
//! - one scope for every seq_cst operation of a test, one or several work-groups (the
//!   pairs are those of the model's `sc_incl`, checked below against the rule);
//! - any scope of work_group or wider for each seq_cst operation, one work-group: the
//!   pairs are all pairs, the seed's text with no scope at all (issue 33, item 4: the
//!   model must order seq_cst operations of different scopes in one work-group);
//! - any scope, sub_group included, for each seq_cst operation, work-items in sub-groups,
//!   work-groups and devices at random: the pairs are the rule's, computed here from the
//!   work-items' places and the scopes, and must be the model's `sc_incl`. Scopes not
//!   ordered by inclusion make "S orders it" non-transitive; the model's encoding of the
//!   first bullet (total-order, opencl.cat) is then still exact.
//!
//! The variant `unscoped-sc` (the seed's S on every pair) is compared with the seed's
//! text with no scope on every generated test.

use crate::common;
use crate::files;

use common::Rng;
use vkherd_cat::inspect::Inspection;
use vkherd_cat::{Model, Value};
use vkherd_enumerate::capture::{candidates_reaching, Captured};
use vkherd_enumerate::{AnyEngine, CatEngine, EnumOptions};
use vkherd_model::{EventSet, Flags, Program, Rel, StaticRel, StaticSet};

const SCOPES: [&str; 2] = ["memory_scope_work_group", "memory_scope_device"];
/// Scopes that include every work-item of a work-group.
const WG_OR_WIDER: [&str; 3] = [
    "memory_scope_work_group",
    "memory_scope_device",
    "memory_scope_all_svm_devices",
];
const ALL_SCOPES: [&str; 4] = [
    "memory_scope_sub_group",
    "memory_scope_work_group",
    "memory_scope_device",
    "memory_scope_all_svm_devices",
];

/// How the seq_cst operations of a generated test are scoped, and where its work-items
/// are (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mix {
    OneScope,
    OneWorkGroup,
    Anywhere,
}

/// A random statement mixing seq_cst and weaker accesses to x and y, and seq_cst fences.
/// Each seq_cst operation's scope comes from `sc_scope`.
fn statement(
    rng: &mut Rng,
    sc_scope: &mut impl FnMut(&mut Rng) -> &'static str,
    reg: &mut u32,
    value: &mut u32,
) -> String {
    let loc = *rng.pick(&["x", "y"]);
    let sc = rng.chance(60);
    let scope = if sc { sc_scope(rng) } else { rng.pick(&SCOPES) };
    match rng.below(5) {
        0 | 1 => {
            *value += 1;
            let order = if sc {
                "memory_order_seq_cst"
            } else {
                rng.pick(&["memory_order_relaxed", "memory_order_release"])
            };
            format!("atomic_store_explicit({loc}, {value}, {order}, {scope});")
        }
        2 | 3 => {
            *reg += 1;
            let order = if sc {
                "memory_order_seq_cst"
            } else {
                rng.pick(&["memory_order_relaxed", "memory_order_acquire"])
            };
            format!(
                "int r{} = atomic_load_explicit({loc}, {order}, {scope});",
                *reg - 1
            )
        }
        _ if rng.chance(50) => {
            *reg += 1;
            let order = if sc {
                "memory_order_seq_cst"
            } else {
                "memory_order_relaxed"
            };
            format!(
                "int r{} = atomic_fetch_add_explicit({loc}, 1, {order}, {scope});",
                *reg - 1
            )
        }
        _ => {
            let scope = sc_scope(rng);
            format!("atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, {scope});")
        }
    }
}

fn random_test(seed: u64, mix: Mix) -> String {
    let salt = match mix {
        Mix::OneScope => 0,
        Mix::OneWorkGroup => 0x1_0000,
        Mix::Anywhere => 0x2_0000,
    };
    let mut rng = Rng::new(seed ^ 0x5c0_4d3 ^ salt);
    let threads = 2 + usize::from(mix == Mix::Anywhere || rng.chance(40));
    let one_wg = rng.chance(40);
    let one_scope = *rng.pick(&SCOPES);
    let mut sc_scope = |rng: &mut Rng| match mix {
        Mix::OneScope => one_scope,
        Mix::OneWorkGroup => *rng.pick(&WG_OR_WIDER),
        Mix::Anywhere => *rng.pick(&ALL_SCOPES),
    };
    let mut text = format!("OPENCL sc-{seed}\n{{ [x] = 0; [y] = 0; }}\n");
    let mut value = 0;
    for t in 0..threads {
        let (sg, wg, dev) = match mix {
            Mix::OneScope => (t as u64, if one_wg { 0 } else { t as u64 }, 0),
            Mix::OneWorkGroup => (t as u64, 0, 0),
            Mix::Anywhere => (rng.below(2), rng.below(2), u64::from(rng.chance(20))),
        };
        text.push_str(&format!(
            "P{t}@sg {sg}, wg {wg}, dev {dev} (global atomic_int* x, global atomic_int* y) {{\n"
        ));
        let mut reg = 0;
        for _ in 0..2 + rng.below(2) {
            text.push_str("  ");
            text.push_str(&statement(&mut rng, &mut sc_scope, &mut reg, &mut value));
            text.push('\n');
        }
        text.push_str("}\n");
    }
    text.push_str("exists (x = 1)\n");
    text
}

fn rel(ins: &Inspection<'_>, name: &str) -> Rel {
    match ins.named(name) {
        Some(Value::Rel(r)) => r,
        other => panic!("{name}: {other:?}"),
    }
}

/// The relations and sets of one candidate that the seed's conditions speak of.
struct Facts {
    sc: Vec<usize>,
    r: EventSet,
    w: EventSet,
    f: EventSet,
    a: EventSet,
    sb: Rel,
    hb: Rel,
    co: Rel,
    fr: Rel,
    hbloc: Rel,
    sloc: Rel,
    incl: Rel,
    rf: Rel,
    rfinit: EventSet,
}

impl Facts {
    fn new(c: &Captured, ins: &Inspection<'_>, incl: Rel) -> Facts {
        let s = &c.statics;
        Facts {
            sc: s.flag_set(vkherd_dialects::opencl::SEQCST).iter().collect(),
            r: s.set(StaticSet::R).clone(),
            w: s.set(StaticSet::W).clone(),
            f: s.set(StaticSet::F).clone(),
            a: s.set(StaticSet::A).clone(),
            sb: s.rel(StaticRel::Po).clone(),
            hb: rel(ins, "hb"),
            co: rel(ins, "co"),
            fr: rel(ins, "fr"),
            hbloc: rel(ins, "hbloc"),
            sloc: s.rel(StaticRel::Sloc).clone(),
            incl,
            rf: c.rf.clone(),
            rfinit: c.rfinit.clone(),
        }
    }

    fn is_sc(&self, e: usize) -> bool {
        self.sc.contains(&e)
    }

    /// Does the order `pos` (position of each seq_cst event) meet seed 004 §3.6.1?
    fn seed_order(&self, pos: &[usize]) -> bool {
        let before = |a: usize, b: usize| pos[a] < pos[b];
        let sc = &self.sc;
        let pairs = || sc.iter().flat_map(|&a| sc.iter().map(move |&b| (a, b)));
        // Consistent with the modification orders and happens-before (inclusive pairs; an
        // operation that happens before itself can be consistent with no order).
        for (a, b) in pairs() {
            if self.incl.contains(a, b)
                && (self.co.contains(a, b) || self.hb.contains(a, b))
                && !before(a, b)
            {
                return false;
            }
        }
        // What each seq_cst load observes.
        for &b in sc.iter().filter(|&&b| self.r.contains(b)) {
            let last = sc
                .iter()
                .copied()
                .filter(|&a| {
                    a != b
                        && self.w.contains(a)
                        && self.sloc.contains(b, a)
                        && self.incl.contains(b, a)
                        && before(a, b)
                })
                .max_by_key(|&a| pos[a]);
            let ok = if self.rfinit.contains(b) {
                last.is_none()
            } else {
                let src = self.rf.inv().row(b).iter().next().expect("a source");
                if self.is_sc(src) && self.incl.contains(src, b) {
                    last == Some(src)
                } else {
                    last.is_none_or(|a| !self.hbloc.contains(src, a))
                }
            };
            if !ok {
                return false;
            }
        }
        // The fence rules, each "if ... precedes ... in S then ...".
        let fences: Vec<usize> = sc.iter().copied().filter(|&x| self.f.contains(x)).collect();
        let atomic_reads: Vec<usize> = self.r.inter(&self.a).iter().collect();
        let atomic_writes: Vec<usize> = self.w.inter(&self.a).iter().collect();
        for &x in &fences {
            for &b in atomic_reads.iter().filter(|&&b| self.sb.contains(x, b)) {
                // Paragraph 9: B observes the last SC write preceding X, or a later one.
                for &a in sc.iter() {
                    if self.w.contains(a)
                        && self.incl.contains(x, a)
                        && before(a, x)
                        && self.fr.contains(b, a)
                    {
                        return false;
                    }
                }
            }
            for &a in atomic_writes.iter().filter(|&&a| self.sb.contains(a, x)) {
                // Paragraph 10: an SC read B after X in S observes A or later.
                for &b in sc.iter() {
                    if self.r.contains(b)
                        && self.incl.contains(b, x)
                        && before(x, b)
                        && self.fr.contains(b, a)
                    {
                        return false;
                    }
                }
                // Paragraph 11 and the modification-order rule: X before Y in S.
                for &y in fences
                    .iter()
                    .filter(|&&y| y != x && self.incl.contains(y, x))
                {
                    if !before(x, y) {
                        continue;
                    }
                    for b in self.sb.row(y).iter() {
                        let reads_older = self.r.contains(b) && self.fr.contains(b, a);
                        let writes_older = self.w.contains(b) && self.co.contains(b, a);
                        if self.a.contains(b) && (reads_older || writes_older) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Is there an order of the seq_cst events meeting the seed's conditions?
    fn some_seed_order(&self) -> bool {
        let n = self.sc.len();
        let mut perm: Vec<usize> = (0..n).collect();
        let mut pos = vec![0; self.r.len_universe()];
        permutations(&mut perm, 0, &mut |p| {
            for (i, &k) in p.iter().enumerate() {
                pos[self.sc[k]] = i;
            }
            self.seed_order(&pos)
        })
    }
}

fn permutations(v: &mut Vec<usize>, k: usize, ok: &mut impl FnMut(&[usize]) -> bool) -> bool {
    if k == v.len() {
        return ok(v);
    }
    for i in k..v.len() {
        v.swap(k, i);
        let found = permutations(v, k + 1, ok);
        v.swap(k, i);
        if found {
            return true;
        }
    }
    false
}

/// Which pairs of seq_cst events S orders, for the permutation search.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pairs {
    /// The model's `sc_incl`, checked against [`rule_pairs`] where they meet.
    Model,
    /// Every pair: the seed's text with no scope.
    All,
}

/// docs/opencl.md "Scoped SC": two events of one work-item, or each in the other's scope
/// instance (work_item: its work-item; sub_group, work_group, device: the work-items of
/// its sub-group, work-group, device; all_svm_devices: every work-item).
fn rule_pairs(program: &Program, c: &Captured) -> Rel {
    let events = c.statics.events();
    let n = events.len();
    let place = |e: usize| {
        // OpenCL's levels, innermost first: sub-group, work-group, device.
        let t = &program.threads[events[e].thread];
        let at = |l: usize| t.scope.get(l).copied().unwrap_or(0);
        (at(2), at(1), at(0))
    };
    let reaches = |a: usize, b: usize| {
        let (pa, pb) = (place(a), place(b));
        let f = events[a].flags;
        if f.has(vkherd_dialects::opencl::SCOPEWI) {
            events[a].thread == events[b].thread
        } else if f.has(Flags::SCOPESG) {
            pa == pb
        } else if f.has(Flags::SCOPEWG) {
            (pa.0, pa.1) == (pb.0, pb.1)
        } else if f.has(Flags::SCOPEQF) {
            pa.0 == pb.0
        } else {
            f.has(Flags::SCOPEDEV)
        }
    };
    let mut r = Rel::empty(n);
    for a in 0..n {
        for b in 0..n {
            if events[a].thread == events[b].thread || (reaches(a, b) && reaches(b, a)) {
                r.insert(a, b);
            }
        }
    }
    r
}

/// Compares the model's `sc` with the seed's order on every candidate of `program`:
/// (candidates compared, those where the order exists although an edge "B before every
/// SC write its source happens before" would forbid it, those where it exists although
/// an edge "B before every SC write in its scope after its SC source in co" would forbid
/// it).
fn compare(
    name: &str,
    program: &Program,
    model: &std::sync::Arc<Model>,
    pairs: Pairs,
    max_sc: usize,
) -> (usize, usize, usize) {
    let opts = EnumOptions {
        engine: AnyEngine::Cat(CatEngine::new(model.clone())),
        ..EnumOptions::default()
    };
    let (cands, _) = candidates_reaching(program, &opts, &|_| true, 1 << 20).expect("runs");
    let sc_check = model.checks().iter().position(|c| c.name == "sc").unwrap();
    let (mut compared, mut stale_only, mut last_only) = (0, 0, 0);
    for c in &cands {
        let ins = Inspection::new(model, &c.statics, &c.rf, &c.rfinit, &c.asmo);
        let sc = c.statics.flag_set(vkherd_dialects::opencl::SEQCST);
        let n = c.statics.events().len();
        let incl = match pairs {
            Pairs::Model => {
                let model_pairs = rel(&ins, "sc_incl");
                let rule = rule_pairs(program, c);
                for a in sc.iter() {
                    for b in sc.iter() {
                        assert_eq!(
                            model_pairs.contains(a, b),
                            rule.contains(a, b),
                            "{name}: sc_incl and the rule differ on ({a}, {b})"
                        );
                    }
                }
                model_pairs
            }
            Pairs::All => {
                let mut all = Rel::empty(n);
                for a in 0..n {
                    for b in 0..n {
                        all.insert(a, b);
                    }
                }
                all
            }
        };
        let facts = Facts::new(c, &ins, incl);
        if facts.sc.len() > max_sc {
            continue;
        }
        let seed = facts.some_seed_order();
        assert_eq!(
            ins.check(sc_check),
            seed,
            "{name}: the model's sc and the seed's order S ({pairs:?} pairs) disagree on a candidate (rf {:?}, co {:?})",
            c.rf,
            c.asmo
        );
        let edges = rel(&ins, "sc_req").union(&rel(&ins, "sc_stale"));
        stale_only += usize::from(seed && !edges.is_acyclic());
        // The first bullet read as edges: B before every SC write in its scope that
        // follows its SC source in co (opencl.cat before issue 33), exact only when S
        // orders every pair it meets.
        let mut fr_edges = rel(&ins, "sc_req");
        let rf_sc = rel(&ins, "rf_sc");
        for (x, b) in rf_sc.pairs() {
            for w in facts.co.row(x).iter() {
                if w != b && facts.is_sc(w) && facts.incl.contains(b, w) {
                    fr_edges.insert(b, w);
                }
            }
        }
        last_only += usize::from(seed && !fr_edges.is_acyclic());
        compared += 1;
    }
    (compared, stale_only, last_only)
}

#[test]
fn the_sc_check_is_the_seeds_order_s_on_every_candidate() {
    let model = std::sync::Arc::new(Model::bundled("opencl", &[]).expect("opencl.cat compiles"));
    let (mut compared, mut stale_only, mut last_only) = (0, 0, 0);
    for seed in 0..150 {
        let source = random_test(seed, Mix::OneScope);
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{source}\n{e:?}"));
        let (c, s, l) = compare(&source, &program, &model, Pairs::Model, 8);
        compared += c;
        stale_only += s;
        last_only += l;
    }
    let corpus = files::corpus_root().join("opencl");
    for path in files::litmus_files(&corpus) {
        let source = std::fs::read_to_string(&path).unwrap();
        let program = crate::load_litmus(&source).expect("parses");
        let (c, s, l) = compare(
            &path.display().to_string(),
            &program,
            &model,
            Pairs::Model,
            8,
        );
        compared += c;
        stale_only += s;
        last_only += l;
    }
    assert!(compared > 5000, "only {compared} candidates compared");
    // The second bullet's case is reached (SC-stale-write-not-last at least).
    assert!(stale_only >= 1, "{stale_only}");
    // So is the first bullet's with pairs S does not order (SC-scoped-last-write).
    assert!(last_only >= 1, "{last_only}");
}

/// Issue 33, item 4: seq_cst operations of different scopes in one work-group are ordered
/// by S as the seed says ("a single total order S for all sequentially consistent
/// operations"): on tests with one work-group and any scope of work_group or wider for
/// each seq_cst operation, the model's `sc` is the seed's S with no scope at all.
#[test]
fn mixed_scopes_in_one_work_group_are_the_seeds_unscoped_order() {
    let model = std::sync::Arc::new(Model::bundled("opencl", &[]).expect("opencl.cat compiles"));
    let mut compared = 0;
    let mut mixed = 0;
    for seed in 0..60 {
        let source = random_test(seed, Mix::OneWorkGroup);
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{source}\n{e:?}"));
        // The scopes of its seq_cst operations.
        let scopes: std::collections::BTreeSet<&str> = source
            .lines()
            .filter(|l| l.contains("seq_cst"))
            .filter_map(|l| WG_OR_WIDER.iter().find(|s| l.contains(&format!("{s})"))))
            .copied()
            .collect();
        mixed += usize::from(scopes.len() > 1);
        compared += compare(&source, &program, &model, Pairs::All, 6).0;
    }
    assert!(compared > 10000, "only {compared} candidates compared");
    assert!(mixed > 30, "only {mixed} tests mix scopes");
}

/// Any scope, work-items anywhere: the model's `sc` is the seed's S with the pairs of the
/// rule (docs/opencl.md "Scoped SC"), and `sc_incl` is the rule.
#[test]
fn mixed_scopes_anywhere_are_the_rules_order() {
    let model = std::sync::Arc::new(Model::bundled("opencl", &[]).expect("opencl.cat compiles"));
    let (mut compared, mut last_only) = (0, 0);
    // Seed 62 is the first whose candidates reach the first bullet with pairs S does not
    // order (an SC write in the reader's scope, outside its source's).
    for seed in (0..20).chain([62]) {
        let source = random_test(seed, Mix::Anywhere);
        let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{source}\n{e:?}"));
        let (c, _, l) = compare(&source, &program, &model, Pairs::Model, 6);
        compared += c;
        last_only += l;
    }
    assert!(compared > 10000, "only {compared} candidates compared");
    assert!(last_only >= 1, "{last_only}");
}

/// The variant `unscoped-sc` is the seed's S with no scope, on every kind of generated
/// test.
#[test]
fn the_variant_unscoped_sc_is_the_seeds_order_without_scopes() {
    let model = std::sync::Arc::new(
        Model::bundled("opencl", &["unscoped-sc".to_string()]).expect("opencl.cat compiles"),
    );
    let mut compared = 0;
    for (mix, seeds) in [
        (Mix::OneScope, 40),
        (Mix::OneWorkGroup, 40),
        (Mix::Anywhere, 20),
    ] {
        for seed in 0..seeds {
            let source = random_test(seed, mix);
            let program = crate::load_litmus(&source).unwrap_or_else(|e| panic!("{source}\n{e:?}"));
            compared += compare(&source, &program, &model, Pairs::All, 6).0;
        }
    }
    assert!(compared > 15000, "only {compared} candidates compared");
}
