//! `vkherd distinguish`: known pairs of models are told apart, a model is never told
//! apart from itself, and the symmetry reduction examines each class of programs once
//! and loses no distinguishing program (checked against the plain enumeration). Small
//! alphabets keep the searches to a second or so.

use std::collections::BTreeSet;
use std::path::PathBuf;
use vkherd::models::Compared;
use vkherd::RunConfig;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::search::{self, Limits, Outcome};
use vkherd_generate::space::{Bounds, EventKind, Space};
use vkherd_generate::test::{Op, Test};
use vkherd_generate::{canon, diy, family, place};
use vkherd_generate::{dialects, GenDialect};

fn vulkan() -> &'static dyn GenDialect {
    dialects::by_name("vulkan").unwrap()
}

fn opencl() -> &'static dyn GenDialect {
    dialects::by_name("opencl").unwrap()
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

fn space(
    dialect: &'static dyn GenDialect,
    sems: &[&str],
    scopes: &[&str],
    levels: &[&str],
    bounds: Bounds,
) -> Space {
    let alphabet = Alphabet::family_default(dialect)
        .with(&words(sems), &words(scopes), &words(levels))
        .unwrap();
    Space::new(bounds, alphabet, &[EventKind::Read, EventKind::Write])
}

const TWO_BY_TWO: Bounds = Bounds {
    threads: 2,
    events: 2,
    size: 4,
    locations: 2,
};

fn model(spec: &str) -> Compared {
    Compared::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn search(space: &Space, a: &str, b: &str) -> Outcome {
    search::search(space, &model(a), &model(b), &Limits::default(), |_| {})
}

/// The search stopped at its last size, having examined (and agreed on) every program of
/// the sizes before.
fn assert_minimal(out: &Outcome) {
    assert!(out.stopped.is_none());
    let (last, before) = out.sizes.split_last().unwrap();
    assert!(last.distinguishing > 0);
    assert_eq!(last.distinguishing as usize, out.found.len());
    for s in before {
        assert!(
            s.complete && s.distinguishing == 0 && s.errors == 0,
            "{s:?}"
        );
        assert!((s.events, s.threads) < (last.events, last.threads));
    }
}

#[test]
fn vulkan_and_vulkan_2024_differ_on_khronos_mpnotinscope3() {
    let sp = space(
        vulkan(),
        &["relacq", "semavvis"],
        &["wg", "dv"],
        &["qf"],
        TWO_BY_TWO,
    );
    let out = search(&sp, "vulkan", "vulkan-2024");
    assert_minimal(&out);
    let last = out.sizes.last().unwrap();
    assert_eq!((last.events, last.threads), (4, 2));
    assert!(out.sizes.iter().map(|s| s.examined).sum::<u64>() > last.examined);
    // Khronos mpnotinscope3 (passes under vulkan, fails under vulkan-2024): message
    // passing across workgroups, data written by a workgroup-scope release with semav
    // and read by a workgroup-scope acquire with semvis, the flag at device scope.
    let khronos = diy(
        "[rel.wg.semav] PodWW [rel] Rfe [acq] PodRR [acq.wg.semvis] Fre",
        vulkan(),
    )
    .unwrap();
    let want = canon::key(&khronos);
    let found = out
        .found
        .iter()
        .find(|f| {
            let mut t = f.test.clone();
            t.observe.clear();
            canon::key(&t) == want
        })
        .expect("mpnotinscope3 among the distinguishing programs");
    // The stale read is allowed by vulkan (the first model), forbidden by vulkan-2024.
    assert_eq!(found.allowed_by, 0);
    assert_eq!((found.only_a, found.only_b), (1, 0));
    // And the Khronos file itself flips the same way (`SATISFIABLE consistent[X] &&
    // #dr>0`: satisfiable under vulkan, not under vulkan-2024).
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/khronos-tests/mpnotinscope3.test");
    let Ok(source) = std::fs::read_to_string(&file) else {
        eprintln!("skipping the Khronos half: {} not found", file.display());
        return;
    };
    let satisfiable = |spec: &str| {
        let checks =
            vkherd::khronos::run_khronos_with(&source, "mpnotinscope3", &model(spec).options)
                .unwrap();
        assert_eq!(checks.len(), 1);
        checks[0].satisfiable
    };
    assert!(satisfiable("vulkan"));
    assert!(!satisfiable("vulkan-2024"));
}

#[test]
fn vulkan_and_vulkan_without_chains_differ_on_a_two_element_chain() {
    // The write of x reaches the queue family only through a chain of two releases
    // (docs/generate.md): five events, past the exhaustive default; the variants of
    // its cycle find it.
    let alphabet = Alphabet::family_default(vulkan())
        .with(
            &words(&["avvis", "relacq", "semavvis"]),
            &words(&["wg", "qf"]),
            &words(&["qf"]),
        )
        .unwrap();
    let fam = family::family(
        "[av.wg] PodWW PosWW Rfe PodRR [vis.qf] Fre",
        vulkan(),
        &[family::Axis::Scope, family::Axis::Semantics],
        &alphabet,
        10_000,
    )
    .unwrap();
    let out = search::compare_all(
        &fam.tests,
        &model("vulkan"),
        &model("vulkan+no-chains"),
        &Limits::default(),
        |_| {},
    );
    assert!(!out.found.is_empty());
    // Every one is a state only the model without chains allows.
    assert!(out.found.iter().all(|f| f.allowed_by == 1 && f.only_a == 0));
    let names: Vec<&str> = out.found.iter().map(|f| f.test.name.as_str()).collect();
    assert!(
        names.contains(&"PodWW+PosWW+Rfe+PodRR+Fre+av.wg-rel.wg.semav-rel.qf+acq.qf-vis.qf"),
        "{names:?}"
    );
}

#[test]
fn opencl_and_its_rc11_sc_variant_differ_on_iriw_with_sc_fences_only() {
    // IRIW with fences between relaxed reads, the fences' orders varied (acquire,
    // release, acq_rel, seq_cst): C11's order S allows the IRIW outcome whatever the
    // fences, since no fence rule applies to stores in invocations without fences; RC11's
    // psc orders two seq_cst fences through hb;eco;hb and forbids it when both are
    // seq_cst (litmus-tests/opencl/sc/IRIW-sc-fences-relaxed.litmus, its expectations
    // worked out by hand). One seq_cst fence alone is in no psc edge: no difference.
    let alphabet = Alphabet::family_default(opencl())
        .with(
            &words(&["rlx", "relacq", "sc"]),
            &words(&["dev"]),
            &words(&["dev"]),
        )
        .unwrap();
    let fam = family::family(
        "[rlx] Rfe [rlx] FencedRR [rlx] Fre [rlx] Rfe [rlx] FencedRR [rlx] Fre",
        opencl(),
        &[family::Axis::Semantics],
        &alphabet,
        10_000,
    )
    .unwrap();
    // 4 x 4 orders of the two fences; the swapped pairs are one test up to renaming.
    assert_eq!(fam.variants.len(), 16);
    assert_eq!(fam.tests.len(), 10);
    let out = search::compare_all(
        &fam.tests,
        &model("opencl"),
        &model("opencl+rc11-sc"),
        &Limits::default(),
        |_| {},
    );
    assert_eq!(out.sizes[0].examined, 10);
    assert_eq!(out.sizes[0].errors, 0);
    assert_eq!(out.found.len(), 1, "{:?}", out.found);
    let found = &out.found[0];
    // Allowed by opencl (the first model), forbidden by rc11-sc; the state is IRIW's.
    assert_eq!((found.allowed_by, found.only_a, found.only_b), (0, 1, 0));
    let text = vkherd_generate::emit::text(&found.test);
    assert_eq!(text.matches("memory_order_seq_cst").count(), 2, "{text}");
    assert!(
        text.contains("exists (1:r0 = 1 /\\ 1:r1 = 0 /\\ 3:r0 = 1 /\\ 3:r1 = 0)"),
        "{text}"
    );
}

#[test]
fn a_model_is_never_told_apart_from_itself() {
    let sp = space(
        vulkan(),
        &["rlx", "relacq"],
        &["wg", "dv"],
        &["wg", "qf"],
        TWO_BY_TWO,
    );
    let out = search(&sp, "vulkan", "vulkan");
    assert!(out.found.is_empty());
    assert!(out.stopped.is_none());
    assert_eq!(out.sizes.len(), sp.sizes().len());
    assert!(out.sizes.iter().all(|s| s.complete && s.errors == 0));
    assert!(out.examined() > 1000);
    let sp = space(
        opencl(),
        &["rlx", "relacq", "sc"],
        &["dev"],
        &["dev"],
        TWO_BY_TWO,
    );
    let out = search(&sp, "opencl", "opencl");
    assert!(out.found.is_empty() && out.examined() > 100);
}

/// vulkan.cat with one axiom changed: acyclicity without locord.
fn weakened_vulkan() -> PathBuf {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dialects/src/vulkan/models/vulkan.cat");
    let text = std::fs::read_to_string(path).unwrap();
    let from = "acyclic locord | rf | fr | asmo as consistent";
    assert!(text.contains(from));
    let out = crate::util::tmp_path("vulkan-no-locord-axiom.cat");
    std::fs::write(
        &out,
        text.replace(from, "acyclic rf | fr | asmo as consistent"),
    )
    .unwrap();
    out
}

#[test]
fn a_user_model_one_axiom_away_is_told_apart_at_the_smallest_size() {
    let weak = weakened_vulkan();
    let sp = space(vulkan(), &["rlx", "na"], &["dv"], &["qf"], TWO_BY_TWO);
    let out = search(&sp, "vulkan", weak.to_str().unwrap());
    assert_minimal(&out);
    // A write then a read of it in one invocation: locord orders them, so only the
    // weakened model lets the read see the initial value.
    let last = out.sizes.last().unwrap();
    assert_eq!((last.events, last.threads), (2, 1));
    assert!(out.found.iter().all(|f| f.allowed_by == 1));
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// A key for a program independent of canon.rs: the least text over every order of its
/// invocations and every renaming of its locations, values renumbered by first write.
fn brute_key(t: &Test) -> String {
    let mut best: Option<String> = None;
    for order in permutations(t.threads.len()) {
        for locs in permutations(t.storage.len()) {
            let mut u = t.clone();
            u.threads = order.iter().map(|&i| t.threads[i].clone()).collect();
            let mut values: Vec<Vec<i64>> = vec![Vec::new(); t.storage.len()];
            for th in &mut u.threads {
                for op in &mut th.ops {
                    if let Op::Access {
                        kind, loc, value, ..
                    } = op
                    {
                        *loc = locs[*loc];
                        if kind.writes() {
                            values[*loc].push(*value);
                            *value = values[*loc].len() as i64;
                        }
                    }
                }
            }
            // Group ids in first-appearance form again.
            let k = u.threads.len();
            let d: Vec<Vec<_>> = (0..k)
                .map(|a| {
                    (0..k)
                        .map(|b| place::level(u.threads[a].place, u.threads[b].place))
                        .collect()
                })
                .collect();
            for (th, p) in u.threads.iter_mut().zip(place::places(&d)) {
                th.place = p;
            }
            u.observe = u.full_state();
            let text = vkherd_generate::emit::text(&u);
            if best.as_ref().is_none_or(|b| text < *b) {
                best = Some(text);
            }
        }
    }
    best.unwrap()
}

#[test]
fn symmetry_reduction_examines_each_class_once_and_loses_nothing() {
    let weak = weakened_vulkan();
    let (a, b) = (model("vulkan"), model(weak.to_str().unwrap()));
    let sp = space(vulkan(), &["rlx", "na"], &["dv"], &["wg", "qf"], TWO_BY_TWO);
    for (events, threads) in sp.sizes() {
        let (mut reduced, mut all) = (Vec::new(), Vec::new());
        for unit in sp.units(events, threads) {
            reduced.extend(sp.programs_with(&unit, true).0);
            all.extend(sp.programs_with(&unit, false).0);
        }
        // Each class of the plain enumeration (by renaming, tried every way) has exactly
        // one member examined.
        let classes: BTreeSet<String> = all.iter().map(brute_key).collect();
        assert_eq!(reduced.len(), classes.len(), "size ({events}, {threads})");
        let reduced_classes: BTreeSet<String> = reduced.iter().map(brute_key).collect();
        assert_eq!(reduced_classes, classes);
        if threads > 1 {
            assert!(reduced.len() < all.len());
        }
        // The distinguishing classes are the same with and without the reduction (and
        // each program distinguishes exactly when its class's member does).
        let differing = |tests: &[Test]| -> BTreeSet<Vec<u32>> {
            tests
                .iter()
                .filter(|t| search::differs(t, &a, &b, false).unwrap().is_some())
                .map(canon::key)
                .collect()
        };
        let plain = differing(&all);
        assert_eq!(differing(&reduced), plain, "size ({events}, {threads})");
        for t in &all {
            let mine = search::differs(t, &a, &b, false).unwrap().is_some();
            assert_eq!(mine, plain.contains(&canon::key(t)));
        }
        if (events, threads) == (2, 1) {
            assert!(!plain.is_empty());
        }
    }
}

#[test]
fn the_states_a_search_compares_are_those_of_the_plain_enumeration() {
    // The search runs each model for the set of states only (`--states-only`, pruned;
    // the hand-written engine for the bundled Vulkan models); on every program of a
    // small space, that set is the plain enumeration's (`--naive`) on vulkan.cat.
    let sp = space(
        vulkan(),
        &["na", "rlx", "relacq", "semavvis"],
        &["wg", "dv"],
        &["wg", "qf"],
        Bounds {
            size: 3,
            ..TWO_BY_TWO
        },
    );
    for spec in ["vulkan", "vulkan-2024", "vulkan+no-chains"] {
        let m = model(spec);
        let naive = plain_enumeration(&m, spec);
        let mut checked = 0;
        for (events, threads) in sp.sizes() {
            for unit in sp.units(events, threads) {
                for t in sp.programs(&unit).0 {
                    let p = vkherd::load_litmus(&vkherd_generate::emit::text(&t)).unwrap();
                    let states = |o: &vkherd::Options| -> Vec<Vec<i64>> {
                        vkherd::run(&p, o)
                            .unwrap()
                            .outcomes
                            .states
                            .into_keys()
                            .collect()
                    };
                    assert_eq!(states(&m.options), states(&naive));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

/// tests/files/distinguish/vulkan-no-barrier-sync.cat: vulkan.cat without the control
/// barrier's synchronisation, checked to be exactly that (its comment, then the bundled
/// model with sw's `fence->cbar->cbar->fence` term taken out), so that it follows
/// vulkan.cat.
fn no_barrier_sync() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let fixture = dir.join("tests/files/distinguish/vulkan-no-barrier-sync.cat");
    let bundled =
        std::fs::read_to_string(dir.join("../dialects/src/vulkan/models/vulkan.cat")).unwrap();
    let text = std::fs::read_to_string(&fixture).unwrap();
    let term = "[ACQ & F])\n  // fence->cbar->cbar->fence\n  | ([REL & F] ; rc(po) ; [CBAR] ; ((scbarinst & inscope) \\ id) ; [CBAR] ; rc(po) ; [ACQ & F]))\n";
    let without = "[ACQ & F]))\n  // (test fixture: the fence->cbar->cbar->fence term removed)\n";
    assert_eq!(
        bundled.matches(term).count(),
        1,
        "vulkan.cat changed: update the fixture"
    );
    let body = text.splitn(4, '\n').nth(3).unwrap();
    assert_eq!(body, bundled.replace(term, without));
    fixture
}

/// Does the program have a control barrier?
fn has_barrier(t: &Test) -> bool {
    t.threads.iter().any(|th| {
        th.ops.iter().any(|op| {
            matches!(op, Op::Fence { fence, instance: Some(_) }
                if fence.kind == vkherd_generate::ann::FenceKind::Cbar)
        })
    })
}

#[test]
fn a_model_without_barrier_synchronisation_is_told_apart_once_barriers_are_in_the_space() {
    let weak = no_barrier_sync();
    let weak = weak.to_str().unwrap();
    let alphabet = || {
        Alphabet::search_default(vulkan())
            .with(&words(&["rlx", "relacq"]), &words(&["wg"]), &words(&["wg"]))
            .unwrap()
    };
    // Without barriers in the space the two models agree on every program.
    let plain = Space::new(TWO_BY_TWO, alphabet(), &[EventKind::Read, EventKind::Write]);
    let out = search(&plain, "vulkan", weak);
    assert!(out.found.is_empty() && out.stopped.is_none());
    // With them, a barrier between a write and a read of another invocation of the
    // workgroup tells them apart, at the smallest size that has one (2 x 2 events).
    let with = Space::new(
        TWO_BY_TWO,
        alphabet(),
        &[EventKind::Read, EventKind::Write, EventKind::Cbar],
    );
    let out = search(&with, "vulkan", weak);
    assert_minimal(&out);
    let last = out.sizes.last().unwrap();
    assert_eq!((last.events, last.threads), (4, 2));
    // Only the acq_rel barrier synchronises (an acq or rel barrier meets one alike, so
    // lacks the other half; nosem has none), and it orders an access before it in one
    // invocation with one after it in the other, three ways (write-read: the read sees
    // the write; read-write: the read does not see the later write; write-write: the
    // later write is last), each access relaxed or acquire/release: 3 x 2 x 2.
    assert_eq!(out.found.len(), 12);
    for f in &out.found {
        assert!(
            has_barrier(&f.test),
            "{}",
            vkherd_generate::emit::text(&f.test)
        );
        // Only the model without the barrier's synchronisation allows the stale state.
        assert_eq!((f.allowed_by, f.only_a), (1, 0));
    }
    // Message passing through a barrier is among them: P0 writes x then meets the
    // barrier, P1 meets it then reads x and sees 0.
    let texts: Vec<String> = out
        .found
        .iter()
        .map(|f| vkherd_generate::emit::text(&f.test))
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("cbar.acq_rel.wg.semsc0 0")
            && t.contains("st.atom.wg.sc0 x, 1      | cbar")
            && t.contains("| ld.atom.wg.sc0 r0, x")
            && t.contains("exists (P1:r0 == 0)")),
        "{texts:#?}"
    );
}

#[test]
fn barriers_in_the_space_meet_alike_and_are_never_alone() {
    let sp = space(
        vulkan(),
        &["rlx", "relacq"],
        &["wg", "dv"],
        &["wg", "qf"],
        TWO_BY_TWO,
    );
    let sp = Space::new(
        sp.bounds,
        sp.alphabet.clone(),
        &[EventKind::Read, EventKind::Write, EventKind::Cbar],
    );
    let searched = model("vulkan");
    let naive = plain_enumeration(&searched, "vulkan");
    let mut barriers = 0;
    for (events, threads) in sp.sizes() {
        for unit in sp.units(events, threads) {
            for t in sp.programs_with(&unit, false).0 {
                if !has_barrier(&t) {
                    continue;
                }
                barriers += 1;
                // Every barrier program reads back as a test vkherd runs, and the states
                // the search compares (states only, pruned, hand-written engine) are
                // those of the plain enumeration (`--naive`) on vulkan.cat.
                let text = vkherd_generate::emit::text(&t);
                let p = vkherd::load_litmus(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
                let states = |o: &vkherd::Options| -> Vec<Vec<i64>> {
                    vkherd::run(&p, o)
                        .unwrap()
                        .outcomes
                        .states
                        .into_keys()
                        .collect()
                };
                assert_eq!(states(&searched.options), states(&naive), "{text}");
                // Two invocations of one workgroup, each with the same barrier.
                assert_eq!(t.threads.len(), 2, "{text}");
                assert_eq!(t.threads[0].place.wg, t.threads[1].place.wg, "{text}");
                let bar = |th: &vkherd_generate::test::Thread| {
                    th.ops.iter().find_map(|op| match op {
                        Op::Fence {
                            fence,
                            instance: Some(0),
                        } => Some(*fence),
                        _ => None,
                    })
                };
                assert_eq!(bar(&t.threads[0]), bar(&t.threads[1]), "{text}");
                assert!(bar(&t.threads[0]).is_some(), "{text}");
            }
        }
    }
    assert!(barriers > 100, "{barriers}");
    // The symmetry reduction keeps one program of each class (barrier instances are
    // numbered by rank, so renaming invocations keeps them).
    for (events, threads) in [(4, 2)] {
        let (mut reduced, mut all) = (Vec::new(), Vec::new());
        for unit in sp.units(events, threads) {
            reduced.extend(sp.programs_with(&unit, true).0);
            all.extend(sp.programs_with(&unit, false).0);
        }
        let classes: BTreeSet<String> = all.iter().map(brute_key).collect();
        assert_eq!(reduced.len(), classes.len());
        assert!(reduced.iter().any(has_barrier));
    }
}

#[test]
fn a_barrier_cycle_varies_its_barriers_and_placements_only_unless_wide() {
    let weak = no_barrier_sync();
    let cycle = "PodWW CbardWR PodRR Fre";
    let axes = [
        family::Axis::Placement,
        family::Axis::Scope,
        family::Axis::Semantics,
    ];
    let alphabet = Alphabet::family_default(vulkan());
    // Every item varied: far past --max-variants (the 21381376).
    let e = family::family(cycle, vulkan(), &axes, &alphabet, 10_000).unwrap_err();
    assert!(e.message.contains("21381376 variants"), "{e}");
    let fam = family::family_focused(
        cycle,
        vulkan(),
        &axes,
        &alphabet,
        10_000,
        family::Focus::Barriers,
    )
    .unwrap();
    // The barrier: no semantics, or acq (plain, semvis), rel (plain, semav), acq_rel
    // (plain, semav, semvis, both): 8 with semantics, at 4 scopes, plus nosem at 4
    // scopes; 2 placements of its invocations (one subgroup, one workgroup).
    assert_eq!(fam.variants.len(), 64);
    for t in &fam.tests {
        let text = vkherd_generate::emit::text(t);
        // The accesses keep the defaults: relaxed atomics at device scope.
        assert_eq!(text.matches(".atom.dv.sc0").count(), 4, "{text}");
    }
    let out = search::compare_all(
        &fam.tests,
        &model("vulkan"),
        &model(weak.to_str().unwrap()),
        &Limits::default(),
        |_| {},
    );
    // The acq_rel barriers (4 semav/semvis choices) synchronise when their scope holds
    // both invocations: all 4 scopes in one subgroup, wg, qf and dv across subgroups.
    assert_eq!(out.found.len(), 4 * 4 + 4 * 3, "{:?}", out.found);
    assert!(out.found.iter().all(|f| f.allowed_by == 1));
    for f in &out.found {
        let text = vkherd_generate::emit::text(&f.test);
        assert!(text.contains("cbar.acq_rel."), "{text}");
    }
    // A cycle without a barrier edge is not narrowed.
    let mp = "PodWW Rfe PodRR Fre";
    let small = alphabet
        .with(&words(&["rlx", "relacq"]), &words(&["dv"]), &[])
        .unwrap();
    let narrowed =
        family::family_focused(mp, vulkan(), &axes, &small, 10_000, family::Focus::Barriers)
            .unwrap();
    let whole = family::family(mp, vulkan(), &axes, &small, 10_000).unwrap();
    // rlx or acq/rel on each of the four accesses, at four placements.
    assert_eq!(whole.variants.len(), 16 * 4);
    assert_eq!(narrowed.variants.len(), whole.variants.len());
}

/// The options of `m` (the hand-written engine's `spec`, as the search runs it) for the
/// reference: the same model on the plain enumeration (`--naive`), every state kept.
fn plain_enumeration(m: &Compared, spec: &str) -> vkherd::Options {
    let vkherd::models::ModelSpec::Hand(hand) = &m.options.model.spec else {
        panic!("{spec} does not run on the hand-written engine");
    };
    vkherd::Options {
        run: RunConfig {
            naive: true,
            states_only: false,
            ..m.options.run.clone()
        },
        model: vkherd::models::ModelChoice {
            spec: vkherd::models::ModelSpec::Vulkan(*hand),
            ..m.options.model.clone()
        },
        ..m.options.clone()
    }
}
