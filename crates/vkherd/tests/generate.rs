//! `vkherd diy`: each edge kind gives a test that parses with the cycle's outcome as its
//! condition (worked out by hand from the diy7 rules in docs/generate.md), the classic
//! shapes give the verdicts of the hand-written corpus tests, and families are
//! deduplicated up to renaming.

use std::path::Path;
use vkherd::{load_litmus, run, Options};
use vkherd_generate::ann::Level;
use vkherd_generate::canon;
use vkherd_generate::test::{Obs, Op, Test};
use vkherd_generate::{alphabet::Alphabet, diy, emit, family, ErrorKind};
use vkherd_generate::{dialects, GenDialect};
use vkherd_model::Quantifier;

fn vulkan() -> &'static dyn GenDialect {
    dialects::by_name("vulkan").unwrap()
}

fn opencl() -> &'static dyn GenDialect {
    dialects::by_name("opencl").unwrap()
}

fn gen(cycle: &str) -> Test {
    diy(cycle, vulkan()).unwrap_or_else(|e| panic!("{cycle}: {}", e.render(cycle)))
}

/// The `exists` line of a generated test.
fn exists_line(t: &Test) -> String {
    emit::text(t)
        .lines()
        .find(|l| l.starts_with("exists"))
        .unwrap_or_default()
        .to_string()
}

/// Generates, checks the test parses and lowers, and returns its condition line.
fn condition(cycle: &str) -> String {
    let t = gen(cycle);
    let text = emit::text(&t);
    load_litmus(&text).unwrap_or_else(|d| panic!("{cycle}: does not parse: {}\n{text}", d.message));
    exists_line(&t)
}

/// A cycle for each edge kind, with its condition worked out by hand: Rf reads read their
/// write, Fr reads the write before the Fr target in coherence order, a location written
/// twice ends with its last write; writes numbered 1, 2 in coherence order.
fn edge_cases() -> Vec<(&'static str, &'static str)> {
    vec![
        // Rfe, Fre, PodWW, PodRR
        ("PodWW Rfe PodRR Fre", "exists (P1:r0 == 1 /\\ P1:r1 == 0)"),
        // PodWR
        ("PodWR Fre PodWR Fre", "exists (P0:r0 == 0 /\\ P1:r0 == 0)"),
        // PodRW
        ("PodRW Rfe PodRW Rfe", "exists (P0:r0 == 1 /\\ P1:r0 == 1)"),
        // Coe (P1's write comes first in coherence: it writes 1, P0's 2)
        ("PodWW Rfe PodRW Coe", "exists (P1:r0 == 1 /\\ x == 2)"),
        // Wse is diy7's name for Coe
        ("PodWW Rfe PodRW Wse", "exists (P1:r0 == 1 /\\ x == 2)"),
        // PosRR
        ("Rfe PosRR Fre", "exists (P1:r0 == 1 /\\ P1:r1 == 0)"),
        // PosRW: the read reads P0's write, which comes after P1's own
        ("Rfe PosRW Coe", "exists (P1:r0 == 2 /\\ x == 2)"),
        // PosWW: the observer reads the second write, which comes first in coherence
        ("PosWW Rfe Fre", "exists (P1:r0 == 1 /\\ x == 2)"),
        // PosWR: the read after its own write sees the initial value
        ("PosWR Fre Coe", "exists (P0:r0 == 0 /\\ x == 2)"),
        // A read with Fr out and no Rf in reads the write before the Fr target: P1's
        // read of x comes after P1's write of x=1 and before P0's write x=2.
        (
            "PosWR Fre PodWR Fre PodWW",
            "exists (P0:r0 == 0 /\\ P1:r0 == 1 /\\ x == 2)",
        ),
        // Rfi
        (
            "Rfi PodRR Fre Rfi PodRR Fre",
            "exists (P0:r0 == 1 /\\ P0:r1 == 0 /\\ P1:r0 == 1 /\\ P1:r1 == 0)",
        ),
        // Fri
        (
            "PodRR Fri Rfe PodRW Rfe",
            "exists (P0:r0 == 1 /\\ P0:r1 == 0 /\\ P1:r0 == 1)",
        ),
        // Coi (Wsi)
        (
            "PodWW Coi Rfe PodRR Fre",
            "exists (P1:r0 == 2 /\\ P1:r1 == 0 /\\ y == 2)",
        ),
        (
            "PodWW Wsi Rfe PodRR Fre",
            "exists (P1:r0 == 2 /\\ P1:r1 == 0 /\\ y == 2)",
        ),
        // FencedXY, FencesXY
        (
            "FencedWW Rfe FencedRR Fre",
            "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
        ),
        ("Rfe FencesRR Fre", "exists (P1:r0 == 1 /\\ P1:r1 == 0)"),
        // DpData, DpCtrl
        (
            "DpDatadW Rfe DpDatadW Rfe",
            "exists (P0:r0 == 1 /\\ P1:r0 == 1)",
        ),
        (
            "DpCtrldW Rfe DpCtrldW Rfe",
            "exists (P0:r0 == 1 /\\ P1:r0 == 1)",
        ),
        (
            "PodWW Rfe DpCtrldR Fre",
            "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
        ),
        ("Rfe DpDatasW Coe", "exists (P1:r0 == 2 /\\ x == 2)"),
        // Rmw: the RMW reads y=1 and writes y=2
        (
            "PodWW Rfe Rmw PodWR Fre",
            "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ y == 2)",
        ),
        // Cbar: the barrier edge is not a communication edge
        ("CbarsWR Fre", "exists (P1:r0 == 0)"),
        ("PodWW CbardWR PodRR Fre", "exists (P1:r1 == 0)"),
    ]
}

#[test]
fn every_edge_kind_gives_a_test_with_the_cycles_outcome() {
    for (cycle, want) in edge_cases() {
        assert_eq!(condition(cycle), want, "{cycle}");
    }
}

/// The condition of a test as the parser reads it back (`1:r0=1 /\ x=2`, whatever the
/// dialect's syntax).
fn parsed_condition(text: &str) -> String {
    let p = load_litmus(text).unwrap_or_else(|d| panic!("does not parse: {}\n{text}", d.message));
    p.condition.expect("a condition").text
}

#[test]
fn every_edge_kind_gives_an_opencl_test_with_the_cycles_outcome() {
    // The same cycles in the OpenCL dialect: an OPENCL test that parses, whose
    // condition reads back as the Vulkan test's (checked by hand above).
    for (cycle, _) in edge_cases() {
        let vulkan = emit::text(&gen(cycle));
        let t = diy(cycle, opencl()).unwrap_or_else(|e| panic!("{}", e.render(cycle)));
        let ocl = emit::text(&t);
        assert!(ocl.starts_with("OPENCL "), "{ocl}");
        assert!(
            !ocl.contains("st.atom") && !ocl.contains("ld.atom"),
            "{ocl}"
        );
        assert_eq!(
            parsed_condition(&ocl),
            parsed_condition(&vulkan),
            "{cycle}:\n{ocl}"
        );
    }
}

#[test]
fn dependencies_and_barriers_are_written_as_the_dialect_reads_them() {
    let text = emit::text(&gen("DpDatadW Rfe DpCtrldW Rfe"));
    assert!(text.contains("xor r1, r0, r0"), "{text}");
    assert!(text.contains("add r1, r1, 1"), "{text}");
    assert!(text.contains("beq r0, 0, LC00"), "{text}");
    assert!(text.contains("LC00: st.atom.dv.sc0"), "{text}");
    let text = emit::text(&gen("CbarsWR Fre"));
    assert_eq!(
        text.matches("cbar.acq_rel.wg.semsc0 1").count(),
        2,
        "{text}"
    );
    // A barrier joins invocations of one workgroup.
    assert!(
        text.contains("P0@sg 0, wg 0, qf 0") && text.contains("P1@sg 1, wg 0, qf 0"),
        "{text}"
    );
    let ocl = emit::text(&diy("PodWW Rfe DpCtrldR Fre", opencl()).unwrap());
    assert!(ocl.contains("if (r0 == r0) { int r1 ="), "{ocl}");
    load_litmus(&ocl).unwrap();
}

/// Whether the state a test asks about is reached (the condition's states for
/// `exists`/`~exists`, its refutations for `forall`).
fn reached(text: &str, opts: &Options) -> bool {
    let p = load_litmus(text).unwrap_or_else(|d| panic!("{}\n{text}", d.message));
    let q = p.condition.as_ref().map(|c| c.quantifier);
    let r = run(&p, opts).unwrap();
    match q {
        Some(Quantifier::Forall) => r.outcomes.negative > 0,
        _ => r.outcomes.positive > 0,
    }
}

fn corpus(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../litmus-tests")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn classic_shapes_have_the_verdicts_of_the_hand_written_tests() {
    let cases = [
        ("PodWW Rfe PodRR Fre", "mp/MP-relaxed.litmus"),
        ("PodWR Fre PodWR Fre", "sb/SB.litmus"),
        ("PodRW Rfe PodRW Rfe", "lb/LB.litmus"),
        ("PodWW Rfe PodRW Coe", "s/S.litmus"),
        ("PodWW Coe PodWR Fre", "r/R.litmus"),
        ("PodWW Coe PodWW Coe", "2+2W/2+2W.litmus"),
        ("Rfe PodRW Rfe PodRR Fre", "wrc/WRC.litmus"),
        ("Rfe PodRR Fre Rfe PodRR Fre", "iriw/IRIW.litmus"),
        ("Rfe PodRR Fre PodWR Fre", "rwc/RWC.litmus"),
        ("Rfe PosRR Fre", "coherence/CoRR.litmus"),
        ("Rfe PosRW Coe", "coherence/CoRW.litmus"),
        (
            "[av.dv] PodWW [rel.wg] Rfe@wg [acq.wg] PodRR [vis.dv] Fre",
            "mp/MP-relacq-wg.litmus",
        ),
        (
            "[av.dv] PodWW [rel.wg] Rfe [acq.wg] PodRR [vis.dv] Fre",
            "mp/MP-relacq-wg-crosswg.litmus",
        ),
        (
            "[av.dv] PodWW [rel] Rfe [acq] PodRW [rel] Rfe [acq] PodRR [vis.dv] Fre",
            "isa2/ISA2-relacq.litmus",
        ),
        (
            "Rfe [acq] PodRW [rel] Rfe [acq] PodRR Fre",
            "wrc/WRC-relacq.litmus",
        ),
        (
            "[acq] PodRW [rel] Rfe [acq] PodRW [rel] Rfe",
            "lb/LB-relacq.litmus",
        ),
        (
            "[rel] PodWR [acq] Fre [rel] PodWR [acq] Fre",
            "sb/SB-relacq.litmus",
        ),
        (
            "[rel] PodWW [rel] Coe [rel] PodWW [rel] Coe",
            "2+2W/2+2W-rel.litmus",
        ),
        (
            "Rfe [acq] PodRR [acq] Fre [rel] Rfe [acq] PodRR [acq] Fre [rel]",
            "iriw/IRIW-relacq.litmus",
        ),
        (
            "PodWW [rel] Coe PodWW [rel] Rfe [acq] PodRR Fre",
            "z6/Z6.3-relacq.litmus",
        ),
        ("FencedWW Coe FencedWR Fre", "r/R-fences.litmus"),
        (
            "[av.dv] FencedWW.rel.wg [wg] Rfe@wg [wg] FencedRR.acq.wg [vis.dv] Fre",
            "fences/MP-fence-fence.litmus",
        ),
        ("[av.wg] CbarsWR [vis.wg] Fre", "cbar/MP-cbar.litmus"),
    ];
    let opts = Options::default();
    for (cycle, file) in cases {
        let ours = emit::text(&gen(cycle));
        let theirs = corpus(file);
        assert_eq!(
            reached(&ours, &opts),
            reached(&theirs, &opts),
            "{cycle} against {file}:\n{ours}"
        );
    }
}

/// The instruction rows and condition of a test, whitespace and names aside.
fn body(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with(' ') || l.starts_with("exists"))
        .filter(|l| !l.trim_start().starts_with("P0@") && !l.trim_start().starts_with("(*"))
        .filter(|l| !l.starts_with("   "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn podww_rfe_podrr_fre_is_mp() {
    let t = gen("PodWW Rfe PodRR Fre");
    assert_eq!(t.name, "MP");
    let ours = emit::text(&t);
    assert_eq!(body(&ours), body(&corpus("mp/MP-relaxed.litmus")), "{ours}");
    let t = gen("[av.dv] PodWW [rel.wg] Rfe@wg [acq.wg] PodRR [vis.dv] Fre");
    assert_eq!(t.name, "MP+av.dv-rel.wg+acq.wg-vis.dv@wg");
    let ours = emit::text(&t);
    assert_eq!(
        body(&ours),
        body(&corpus("mp/MP-relacq-wg.litmus")),
        "{ours}"
    );
    // The same shape from another edge is MP too (names are rotation-invariant).
    assert!(gen("Rfe PodRR Fre PodWW").name.starts_with("MP"));
    assert_eq!(
        gen("FencedWW Rfe DpCtrldR Fre").name,
        "MP+rlx-F-rlx+rlx-ctrl-rlx"
    );
}

#[test]
fn opencl_tests_have_the_verdicts_of_the_opencl_corpus() {
    let cases = [
        (
            "PodWW [rel] Rfe [acq] PodRR Fre",
            "opencl/mp/MP-rel-acq-dev.litmus",
        ),
        (
            "[sc] PodWR [sc] Fre [sc] PodWR [sc] Fre",
            "opencl/sb/SB-sc-dev.litmus",
        ),
        (
            "[acq] PodRW [rel] Rfe [acq] PodRW [rel] Rfe",
            "opencl/lb/LB-acq-rel.litmus",
        ),
    ];
    for (cycle, file) in cases {
        let t = diy(cycle, opencl()).unwrap();
        let ours = emit::text(&t);
        assert!(ours.starts_with("OPENCL "), "{ours}");
        assert_eq!(
            reached(&ours, &Options::default()),
            reached(&corpus(file), &Options::default()),
            "{cycle} against {file}:\n{ours}"
        );
    }
}

#[test]
fn placements_follow_the_edges() {
    let places = |c: &str| -> Vec<(u32, u32, u32)> {
        gen(c)
            .threads
            .iter()
            .map(|t| (t.place.qf, t.place.wg, t.place.sg))
            .collect()
    };
    // Default: different workgroups of one queue family.
    assert_eq!(places("PodWW Rfe PodRR Fre"), [(0, 0, 0), (0, 1, 0)]);
    // One edge says: the others follow.
    assert_eq!(places("PodWW Rfe@sg PodRR Fre"), [(0, 0, 0), (0, 0, 0)]);
    assert_eq!(places("PodWW Rfe@wg PodRR Fre"), [(0, 0, 0), (0, 0, 1)]);
    assert_eq!(places("PodWW Rfe@dv PodRR Fre"), [(0, 0, 0), (1, 1, 0)]);
    // WRC with P0 and P1 in one workgroup, P2 in another queue family.
    assert_eq!(
        places("Rfe@wg PodRW Rfe@dv PodRR Fre@dv"),
        [(0, 0, 0), (0, 0, 1), (1, 1, 0)]
    );
    let e = diy("Rfe@wg PodRW Rfe@wg PodRR Fre@dv", vulkan()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Placement);
    assert_eq!(e.token.unwrap().text, "Fre@dv");
}

#[test]
fn bad_cycles_name_the_offending_token() {
    let cases = [
        ("PodWW Rfe PodXY Fre", ErrorKind::UnknownEdge, "PodXY"),
        ("PodWW Rfe PodRR", ErrorKind::NotClosed, "PodRR"),
        ("PodWW Fre PodRR Rfe", ErrorKind::NotClosed, "Fre"),
        (
            "PodWW [acq] Rfe PodRR Fre",
            ErrorKind::Incompatible,
            "[acq]",
        ),
        (
            "PodWW Rfe [rel] PodRR Fre",
            ErrorKind::Incompatible,
            "[rel]",
        ),
        (
            "PodWW [wg.dv] Rfe PodRR Fre",
            ErrorKind::Incompatible,
            "[wg.dv]",
        ),
        (
            "PodWW [na.rel] Rfe PodRR Fre",
            ErrorKind::Incompatible,
            "[na.rel]",
        ),
        (
            "PodWW [semav] Rfe PodRR Fre",
            ErrorKind::Incompatible,
            "[semav]",
        ),
        (
            "PodWW [bogus] Rfe PodRR Fre",
            ErrorKind::UnknownAnnotation,
            "[bogus]",
        ),
        (
            "PodWW Rfe@xx PodRR Fre",
            ErrorKind::UnknownAnnotation,
            "Rfe@xx",
        ),
        (
            "PodWW@wg Rfe PodRR Fre",
            ErrorKind::UnknownAnnotation,
            "PodWW@wg",
        ),
        (
            "PodWW Rfe.rel PodRR Fre",
            ErrorKind::UnknownAnnotation,
            "Rfe.rel",
        ),
        (
            "PodWW Rfe DpAddrdR Fre",
            ErrorKind::NotExpressible,
            "DpAddrdR",
        ),
        ("PodWR PodRW", ErrorKind::Threads, "PodWR"),
        ("PodWW Rfe PodRW", ErrorKind::Threads, "Rfe"),
        ("PodWW Rfe PosRR Fre", ErrorKind::Locations, "PodWW"),
        ("Rfe Fre", ErrorKind::Coherence, "Fre"),
        ("Coe Coe", ErrorKind::Coherence, "Coe"),
        ("Coe Coe Coe", ErrorKind::Coherence, "Coe"),
        // The third write in coherence order is the one Fre leads to.
        ("PosWW PosWW Rfe Fre", ErrorKind::Unobservable, "Fre"),
        ("CbardWW CbardWW", ErrorKind::NoCommunication, ""),
        (
            "PodWW CbardWR@qf PodRR Fre",
            ErrorKind::Placement,
            "CbardWR@qf",
        ),
        (
            "FencedWW.rlx Rfe PodRR Fre",
            ErrorKind::Incompatible,
            "FencedWW.rlx",
        ),
        ("PodWW Rfe PodRR Fre [", ErrorKind::UnknownAnnotation, "["),
    ];
    for (cycle, kind, token) in cases {
        let e = diy(cycle, vulkan()).expect_err(cycle);
        assert_eq!(e.kind, kind, "{cycle}: {}", e.render(cycle));
        assert_eq!(
            e.token.as_ref().map_or("", |t| t.text.as_str()),
            token,
            "{cycle}"
        );
        let rendered = e.render(cycle);
        if !token.is_empty() {
            assert!(rendered.contains(&format!("`{token}`")), "{rendered}");
            assert!(rendered.contains('^'), "{rendered}");
        }
    }
    // Words of the other dialect are unknown.
    let e = diy("PodWW [semav.rel] Rfe PodRR Fre", opencl()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownAnnotation);
    let e = diy("PodWW [sc] Rfe PodRR Fre", vulkan()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownAnnotation);
    // Two words for one field name the field and both words.
    for (cycle, d, said) in [
        (
            "PodWW [wg.dv] Rfe PodRR Fre",
            vulkan(),
            "two scopes, `wg` and `dv`",
        ),
        (
            "PodWW Rfe [acq_rel.sc] Rmw Fre",
            opencl(),
            "two semantics, `acq_rel` and `sc`",
        ),
    ] {
        let rendered = diy(cycle, d).unwrap_err().render(cycle);
        assert!(rendered.contains(said), "{rendered}");
    }
}

/// A test with its invocations listed in `order` and its locations renamed by `loc`.
fn renamed(t: &Test, order: &[usize], loc: &dyn Fn(usize) -> usize) -> Test {
    let mut u = t.clone();
    u.threads = order.iter().map(|&i| t.threads[i].clone()).collect();
    let new_index = |old: usize| order.iter().position(|&i| i == old).unwrap();
    for th in &mut u.threads {
        for op in &mut th.ops {
            if let Op::Access { loc: l, .. } = op {
                *l = loc(*l);
            }
        }
    }
    u.exists = t
        .exists
        .iter()
        .map(|&(o, v)| match o {
            Obs::Reg { thread, reg } => (
                Obs::Reg {
                    thread: new_index(thread),
                    reg,
                },
                v,
            ),
            Obs::Loc(l) => (Obs::Loc(loc(l)), v),
        })
        .collect();
    u
}

#[test]
fn renamings_have_one_canonical_key() {
    let t = gen("[rel] PodWR Fre PodWR [acq] Fre");
    let swapped = renamed(&t, &[1, 0], &|l| 1 - l);
    assert_ne!(emit::text(&t), emit::text(&swapped));
    assert_eq!(canon::key(&t), canon::key(&swapped));
    // Renaming locations alone, or invocations alone, changes the text but not the key.
    let t = gen("PodWW Rfe PodRR Fre");
    assert_eq!(
        canon::key(&t),
        canon::key(&renamed(&t, &[0, 1], &|l| 1 - l))
    );
    assert_eq!(canon::key(&t), canon::key(&renamed(&t, &[1, 0], &|l| l)));
    // Different tests have different keys.
    assert_ne!(canon::key(&t), canon::key(&gen("PodWR Fre PodWR Fre")));
    assert_ne!(
        canon::key(&gen("PodWW [rel] Rfe PodRR Fre")),
        canon::key(&gen("PodWW Rfe [acq] PodRR Fre"))
    );
    assert_ne!(canon::key(&t), canon::key(&gen("PodWW Rfe@wg PodRR Fre")));
}

#[test]
fn families_are_deduplicated_up_to_renaming() {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let alphabet = Alphabet::family_default(vulkan())
        .with(&words(&["rlx", "relacq", "na"]), &[], &[])
        .unwrap();
    let sb = family::family(
        "PodWR Fre PodWR Fre",
        vulkan(),
        &[family::Axis::Semantics],
        &alphabet,
        1000,
    )
    .unwrap();
    // Each invocation takes one of 3 x 3 annotations: 81 variants, of which the two
    // orders of two different invocations are one test: 9 * 10 / 2 = 45 tests.
    assert_eq!(sb.variants.len(), 81);
    assert_eq!(sb.tests.len(), 45);
    // (rel on P0's write, P1 plain relaxed) and the mirror image are one test.
    let dim = |name: &str| sb.dimensions.iter().position(|d| d.name == name).unwrap();
    let value = |d: usize, v: &str| sb.dimensions[d].values.iter().position(|x| x == v).unwrap();
    let (w0, r0, w1, r1) = (dim("P0:Wx"), dim("P0:Ry"), dim("P1:Wy"), dim("P1:Rx"));
    let find = |vals: [(usize, &str); 4]| {
        sb.variants
            .iter()
            .find(|v| vals.iter().all(|&(d, x)| v.values[d] == value(d, x)))
            .unwrap()
            .test
    };
    let a = find([(w0, "rel"), (r0, "rlx"), (w1, "rlx"), (r1, "rlx")]);
    let b = find([(w0, "rlx"), (r0, "rlx"), (w1, "rel"), (r1, "rlx")]);
    let c = find([(w0, "rlx"), (r0, "acq"), (w1, "rlx"), (r1, "rlx")]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    // MP has no symmetry: every variant is its own test.
    let mp = family::family(
        "PodWW Rfe PodRR Fre",
        vulkan(),
        &[family::Axis::Semantics],
        &alphabet,
        1000,
    )
    .unwrap();
    assert_eq!(mp.variants.len(), mp.tests.len());
    // A family larger than its bound is refused.
    let e = family::family(
        "PodWW Rfe PodRR Fre",
        vulkan(),
        &[family::Axis::Semantics],
        &alphabet,
        10,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooMany);
}

#[test]
fn placement_families_skip_rings_that_cannot_close() {
    let alphabet = Alphabet::family_default(vulkan());
    let fam = family::family(
        "Rfe PodRR Fre Rfe PodRR Fre",
        vulkan(),
        &[family::Axis::Placement],
        &alphabet,
        1000,
    )
    .unwrap();
    // 4 levels on each of 4 ring edges; a ring closes when its largest level comes
    // twice: 4^4 minus the combinations with a unique maximum.
    let closing = (0..256)
        .filter(|k| {
            let l: Vec<usize> = (0..4).map(|i| (k >> (2 * i)) & 3).collect();
            let max = *l.iter().max().unwrap();
            l.iter().filter(|&&x| x == max).count() >= 2
        })
        .count();
    assert_eq!(fam.variants.len(), closing);
    assert_eq!(fam.skipped, 256 - closing);
    for t in &fam.tests {
        load_litmus(&emit::text(t)).unwrap();
    }
    let _ = Level::ALL;
}

#[test]
fn a_variants_annotated_cycle_reads_back_as_the_same_test() {
    let alphabet = Alphabet::family_default(vulkan());
    let fam = family::family(
        "PodWW Rfe FencedRR Fre",
        vulkan(),
        &[family::Axis::Scope, family::Axis::Storage],
        &alphabet,
        100_000,
    )
    .unwrap();
    assert!(fam.tests.len() > 100);
    for t in &fam.tests {
        let cycle = t.description.strip_prefix("diy cycle: ").unwrap();
        let again = diy(cycle, vulkan()).unwrap_or_else(|e| panic!("{}", e.render(cycle)));
        assert_eq!(emit::text(&again), emit::text(t), "{cycle}");
    }
}
