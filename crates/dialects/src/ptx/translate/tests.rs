//! Hand-checked translations (docs/ptx.md, "Vulkan ↔ PTX mapping"): each expected flag
//! set and text is the table's row, written here from the table, not from a run.

use crate::ptx::{GEN, PTX};
use crate::vulkan::VULKAN;
use vkherd_model::{AccessKind, Flags, Instruction, Program, Translated};

fn translated(source: &str, to: &'static vkherd_model::Dialect) -> Result<Translated, String> {
    let p = crate::load(source).expect("the test loads");
    let t = crate::translation(p.dialect, to).expect("a translation is registered");
    (t.translate)(&p).map_err(|d| format!("{}:{}: {}", d.span.line, d.span.column, d.message))
}

/// (kind, flags) of every access of thread `t`, in order.
fn events(p: &Program, t: usize) -> Vec<(AccessKind, Flags)> {
    p.threads[t]
        .code
        .iter()
        .filter_map(|i| match i {
            Instruction::Access(a) => Some((a.kind, a.flags)),
            _ => None,
        })
        .collect()
}

fn texts(t: &Translated) -> Vec<(usize, &str)> {
    t.steps.iter().map(|s| (s.thread, s.to.as_str())).collect()
}

const VK: &str = r#"VULKAN map
{ x = 0; y = 0; z = 0; }
 P0@sg 0, wg 0, qf 0                  | P1@sg 1, wg 1, qf 0                    | P2@sg 0, wg 0, qf 1 ;
 st.av.wg.sc0 x, 1                    | ld.atom.acq.dv.sc0.semsc0.semvis r0, y | rmw.atom.acq_rel.qf.sc0.semsc0.add r0, z, 2 ;
 membar.rel.qf.semsc0.semav           | ld.atom.sg.sc0 r1, x                   | rmw.atom.wg.sc0 r1, z, 3 ;
 st.atom.rel.dv.sc0.semsc0.semav y, 1 | ld.nonpriv.sc0 r2, x                   | st.atom.qf.sc1 z, 4 ;
exists (P1:r0 == 1 /\ P1:r2 == 0)
"#;

#[test]
fn vulkan_accesses_and_fences_map_row_by_row() {
    let t = translated(VK, &PTX).unwrap();
    let p = &t.program;
    assert_eq!(p.dialect, &PTX);
    let (r, w, s) = (Flags::R | GEN, Flags::W | GEN, Flags::R | Flags::W | GEN);
    let acqrel = Flags::F | Flags::ACQ | Flags::REL;
    use AccessKind::*;
    assert_eq!(
        events(p, 0),
        [
            (Store, w),
            (Fence, acqrel | Flags::SCOPEQF),
            (Store, w | Flags::REL | Flags::SCOPEDEV),
        ]
    );
    assert_eq!(
        events(p, 1),
        [
            (Load, r | Flags::ACQ | Flags::SCOPEDEV),
            (Load, r | Flags::SCOPEWG),
            (Load, r),
        ]
    );
    assert_eq!(
        events(p, 2),
        [
            (Rmw, s | Flags::ACQ | Flags::REL | Flags::SCOPEQF),
            (Rmw, s | Flags::SCOPEWG),
            (Store, w | Flags::SCOPEQF),
        ]
    );
    assert_eq!(
        texts(&t),
        [
            (0, "st.weak x, 1"),
            (0, "fence.acq_rel.gpu"),
            (0, "st.release.sys y, 1"),
            (1, "ld.acquire.sys r0, y"),
            (1, "ld.relaxed.cta r1, x"),
            (1, "ld.weak r2, x"),
            (2, "atom.acq_rel.gpu.add r0, z, 2"),
            (2, "atom.relaxed.cta.exch r1, z, 3"),
            (2, "st.relaxed.gpu z, 4"),
        ]
    );
    // Placement: cta = wg, gpu = qf; the subgroup is dropped.
    let scopes: Vec<&[u64]> = p.threads.iter().map(|t| t.scope.as_slice()).collect();
    assert_eq!(scopes, [&[0, 0][..], &[1, 0], &[0, 1]]);
    // Registers, locations and the condition carry over.
    let src = crate::load(VK).unwrap();
    assert_eq!(
        (&p.observed, &p.condition, &p.locations),
        (&src.observed, &src.condition, &src.locations)
    );
}

#[test]
fn a_cbar_with_device_semantics_is_fenced_on_both_sides_and_jumps_follow() {
    let src = r#"VULKAN cbar
{ x = 0; }
 P0@sg 0, wg 0, qf 0                            | P1@sg 1, wg 0, qf 0 ;
 ld.atom.wg.sc0 r0, x                           | cbar.wg 0 ;
  bne r0, 0, LC00                                | st.atom.wg.sc0 x, 1 ;
 cbar.acq_rel.dv.semsc0.semav.semvis 0          | ;
  LC00:                                          | ;
exists (P0:r0 == 0)
"#;
    let t = translated(src, &PTX).unwrap();
    let code = &t.program.threads[0].code;
    // ld; bne -> END (now after the three instructions of the cbar); fence; bar; fence.
    assert_eq!(code.len(), 5);
    assert!(matches!(code[1], Instruction::Jump { target: 5, .. }));
    let e = events(&t.program, 0);
    let sys = Flags::F | Flags::ACQ | Flags::REL | Flags::SCOPEDEV;
    assert_eq!(
        &e[1..],
        [
            (AccessKind::Fence, sys),
            (AccessKind::Cbar, Flags::CBAR | Flags::SCOPEWG),
            (AccessKind::Fence, sys)
        ]
    );
    assert_eq!(
        t.steps[1].to,
        "fence.acq_rel.sys ; bar.cta.sync 0 ; fence.acq_rel.sys"
    );
    // A cbar without semantics is a bar.cta.sync alone.
    assert_eq!(
        events(&t.program, 1)[0],
        (AccessKind::Cbar, Flags::CBAR | Flags::SCOPEWG)
    );
}

#[test]
fn ptx_accesses_map_back_row_by_row() {
    let src = r#"PTX back
{ x = 0; y = 0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;
 st.weak x, 1        | ld.acquire.gpu r0, y  ;
 fence.acq_rel.cta   | ld.weak r1, x         ;
 st.release.sys y, 1 | red.relaxed.gpu.add x, 2 ;
 bar.cta.sync 0      | atom.acq_rel.cta.exch r2, y, 3 ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
"#;
    let t = translated(src, &VULKAN).unwrap();
    assert_eq!(
        texts(&t),
        [
            (0, "st.nonpriv.sc0 x, 1"),
            (0, "membar.acq_rel.wg.semsc0.semav.semvis"),
            (0, "st.atom.rel.dv.sc0.semsc0.semav y, 1"),
            (0, "cbar.acq_rel.wg.semsc0.semav.semvis 0"),
            (1, "ld.atom.acq.qf.sc0.semsc0.semvis r0, y"),
            (1, "ld.nonpriv.sc0 r1, x"),
            (1, "rmw.atom.qf.sc0.add r3, x, 2"),
            (1, "rmw.atom.acq_rel.wg.sc0.semsc0.semav.semvis r2, y, 3"),
        ]
    );
    // The flags are those Vulkan's lowering gives the same text.
    let vk = r#"VULKAN back
{ x = 0; y = 0; }
 P0@sg 0, wg 0, qf 0                    | P1@sg 1, wg 1, qf 0 ;
 st.nonpriv.sc0 x, 1                    | ld.atom.acq.qf.sc0.semsc0.semvis r0, y ;
 membar.acq_rel.wg.semsc0.semav.semvis  | ld.nonpriv.sc0 r1, x ;
 st.atom.rel.dv.sc0.semsc0.semav y, 1   | rmw.atom.qf.sc0.add r3, x, 2 ;
 cbar.acq_rel.wg.semsc0.semav.semvis 0  | rmw.atom.acq_rel.wg.sc0.semsc0.semav.semvis r2, y, 3 ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
"#;
    let want = crate::load(vk).unwrap();
    for th in 0..2 {
        assert_eq!(events(&t.program, th), events(&want, th), "thread {th}");
    }
    let scopes: Vec<&[u64]> = t
        .program
        .threads
        .iter()
        .map(|t| t.scope.as_slice())
        .collect();
    assert_eq!(scopes, [&[0, 0, 0][..], &[1, 1, 0]]);
}

#[test]
fn constructs_without_a_counterpart_are_refused_at_their_place() {
    let ptx =
        |row: &str| format!("PTX r\n{{ x = 0; }}\n P0@cta 0,gpu 0 ;\n {row} ;\nexists (x == 0)\n");
    for (row, construct) in [
        ("fence.sc.gpu", "`fence.sc`"),
        ("bar.cta.arrive 0", "`bar.cta.arrive`"),
        ("atom.relaxed.gpu.cas r0, x, 0, 1", "`atom.cas`"),
        ("fence.proxy.texture", "`fence.proxy.*`"),
        ("bar.cta.sync 0, 1, 32", "thread count"),
    ] {
        let e = translated(&ptx(row), &VULKAN).unwrap_err();
        assert!(e.starts_with("4:2:") && e.contains(construct), "{row}: {e}");
    }
    let vk = "VULKAN r\n{ x = 0; }\n{ ssw 0 1; }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 0 ;\n avdevice | ld.atom.wg.sc0 r0, x ;\nexists (x == 0)\n";
    let e = translated(vk, &PTX).unwrap_err();
    assert!(e.contains("`ssw 0 1`"), "{e}");
    let vk = "VULKAN r\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 ;\n avdevice ;\nexists (x == 0)\n";
    let e = translated(vk, &PTX).unwrap_err();
    assert!(e.starts_with("4:2:") && e.contains("`avdevice`"), "{e}");
}
