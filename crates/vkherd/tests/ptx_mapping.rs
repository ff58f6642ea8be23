//! The Vulkan ↔ PTX mapping through the CLI and the search (docs/ptx.md, "Vulkan ↔ PTX
//! mapping"): `vkherd diff vulkan ptx` judges each test under the model of its own
//! dialect and under the other model through the translation, listing it; `distinguish
//! vulkan ptx` checks the mapping on race-free programs only, one way only. Expected
//! states are argued from the models in the comments, not pasted from a run.

use crate::util::{corpus, text, tmp_path, vkherd, write_file};
use vkherd::models::Compared;
use vkherd::translated::Through;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::search::{self, Limits, Model, States};
use vkherd_generate::space::{Bounds, EventKind, Space};
use vkherd_generate::{dialects, GenDialect};
use vkherd_model::{Flags, Instruction, Program, Translated, Translation};

/// MP with sg-scoped release/acquire across two subgroups of one workgroup: Vulkan
/// allows all four states (the file's header: sg scope does not reach the other
/// subgroup); the translation has .cta release/acquire in one CTA, morally strong, so
/// r0=1 gives sync and cause orders the data: PTX forbids r0=1, r1=0 only.
const SG: &str = "mp/MP-relacq-sg-crosssg.litmus";
/// MP with wg-scoped release/acquire in one workgroup: both forbid r0=1, r1=0.
const WG: &str = "mp/MP-relacq-wg.litmus";
/// A PTX MP with .gpu release/acquire across CTAs; in Vulkan qf-scope rel/acq across
/// workgroups of one queue family with semav/semvis: both forbid r0=1, r1=0.
const PTX_MP: &str = "ptx/mp/MP-relacq-gpu.litmus";

#[test]
fn diff_vulkan_ptx_translates_each_test_and_lists_the_translation() {
    let (sg, wg, mp) = (corpus(SG), corpus(WG), corpus(PTX_MP));
    let out = vkherd(&["diff", "-j", "1", "vulkan", "ptx", &sg, &wg, &mp]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let header = "  translated from vulkan to ptx for ptx (docs/ptx.md, \"Vulkan ↔ PTX mapping\"); registers, arithmetic, jumps and the condition unchanged:\n";
    let sg_block = format!(
        "Test {sg}\n{header}\
         \x20   P0: st.av.sg.sc0 x, 1                =>  st.weak x, 1\n\
         \x20   P0: st.atom.rel.sg.sc0.semsc0 y, 1   =>  st.release.cta y, 1\n\
         \x20   P1: ld.atom.acq.sg.sc0.semsc0 r0, y  =>  ld.acquire.cta r0, y\n\
         \x20   P1: ld.vis.sg.sc0 r1, x              =>  ld.weak r1, x\n\
         \x20 only vulkan: 1:r0=1; 1:r1=0;\n\
         \x20 verdict: Ok under vulkan, No under ptx\n"
    );
    assert!(stdout.contains(&sg_block), "{stdout}");
    assert!(stdout.contains(&format!("Test {wg}\n{header}")), "{stdout}");
    let back = "  translated from ptx to vulkan for vulkan (docs/ptx.md, \"Vulkan ↔ PTX mapping\"); registers, arithmetic, jumps and the condition unchanged:\n\
         \x20   P0: st.weak x, 1          =>  st.nonpriv.sc0 x, 1\n\
         \x20   P0: st.release.gpu y, 1   =>  st.atom.rel.qf.sc0.semsc0.semav y, 1\n\
         \x20   P1: ld.acquire.gpu r0, y  =>  ld.atom.acq.qf.sc0.semsc0.semvis r0, y\n\
         \x20   P1: ld.weak r1, x         =>  ld.nonpriv.sc0 r1, x\n\
         \x20 same states under vulkan and ptx\n";
    assert!(stdout.contains(&format!("Test {mp}\n{back}")), "{stdout}");
    assert!(
        stdout
            .ends_with("3 tests: 1 differ, 1 verdict change(s), 0 partial (vulkan against ptx)\n"),
        "{stdout}"
    );
    // JSON: every translated test has an object, with the listing.
    let out = vkherd(&["diff", "--json", "-j", "1", "vulkan", "ptx", &sg, &wg]);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["only_a"][0], "1:r0=1; 1:r1=0;");
    let t = &lines[0]["translated"][0];
    assert_eq!(
        (&t["model"], &t["from"], &t["to"]),
        (&"ptx".into(), &"vulkan".into(), &"ptx".into())
    );
    assert_eq!(t["steps"][1]["thread"], 0);
    assert_eq!(t["steps"][1]["from"], "st.atom.rel.sg.sc0.semsc0 y, 1");
    assert_eq!(t["steps"][1]["to"], "st.release.cta y, 1");
    assert_eq!(lines[1]["only_a"].as_array().unwrap().len(), 0);
    assert_eq!(lines[2]["summary"]["differ"], 1);
}

/// Two Vulkan models on a PTX test: neither is for the test's dialect, so nothing asked
/// for a translation and the test is refused as a run under vulkan refuses it (exit 2),
/// not compared through one.
#[test]
fn two_models_of_one_other_dialect_do_not_translate() {
    let mp = corpus(PTX_MP);
    let out = vkherd(&["diff", "-j", "1", "vulkan", "vulkan-2024", &mp]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(!stdout.contains("translated from"), "{stdout}");
    assert!(
        stderr.contains("is a PTX test, and the model vulkan is not for PTX tests"),
        "{stderr}"
    );
}

#[test]
fn a_construct_without_a_counterpart_is_an_error_at_its_place() {
    let f = corpus("ptx/mp/MP-fencesc-fenceacqrel.litmus");
    let out = vkherd(&["diff", "-j", "1", "vulkan", "ptx", &f]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "error: cannot translate this PTX test to Vulkan: `fence.sc` has no Vulkan counterpart"
        ),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{f}:17:2\n")), "{stderr}");
    let vk = write_file(
        &tmp_path("ptx-mapping-avdevice.litmus"),
        "VULKAN avdevice\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 ;\n st.av.dv.sc0 x, 1 ;\n avdevice ;\nexists (x == 1)\n",
    );
    let out = vkherd(&["diff", "-j", "1", "vulkan", "ptx", &vk]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`avdevice`/`visdevice`") && stderr.contains(":5:2\n"),
        "{stderr}"
    );
}

fn vulkan() -> &'static dyn GenDialect {
    dialects::by_name("vulkan").unwrap()
}

/// Release/acquire and relaxed atomics at both scopes, two invocations of two events:
/// message passing and its relatives, all race-free when every access is atomic.
fn atomics_space() -> Space {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let alphabet = Alphabet::family_default(vulkan())
        .with(&words(&["rlx", "relacq"]), &words(&["dv"]), &words(&["wg"]))
        .unwrap();
    let bounds = Bounds {
        threads: 2,
        events: 2,
        size: 4,
        locations: 2,
    };
    Space::new(bounds, alphabet, &[EventKind::Read, EventKind::Write])
}

fn mapping() -> Limits {
    Limits {
        mapping: true,
        ..Limits::default()
    }
}

fn source() -> Compared {
    let mut a = Compared::from_spec("vulkan").unwrap();
    a.options.run.states_only = false;
    a
}

#[test]
fn the_natural_mapping_is_sound_on_a_small_space() {
    let t =
        vkherd_dialects::translation(&vkherd_dialects::vulkan::VULKAN, &vkherd_dialects::ptx::PTX)
            .unwrap();
    let b = Through {
        model: Compared::from_spec("ptx").unwrap(),
        translation: t,
    };
    let out = search::search(&atomics_space(), &source(), &b, &mapping(), |_| {});
    assert!(out.found.is_empty(), "{:?}", out.found.first());
    assert!(out.stopped.is_none() && out.first_error.is_none());
    let racy: u64 = out.sizes.iter().map(|s| s.racy).sum();
    assert!(out.examined() > racy, "some programs were compared");
}

/// The natural mapping with every release and acquire dropped (all atomics relaxed).
fn unsound(p: &Program) -> Result<Translated, vkherd_litmus::Diagnostic> {
    let mut t = (vkherd_dialects::ptx::translate::VULKAN_TO_PTX.translate)(p)?;
    for th in &mut t.program.threads {
        for i in &mut th.code {
            if let Instruction::Access(a) = i {
                a.flags = Flags(a.flags.0 & !(Flags::ACQ.0 | Flags::REL.0));
            }
        }
    }
    Ok(t)
}

static UNSOUND: Translation = Translation {
    from: "vulkan",
    to: "ptx",
    doc: "a test",
    translate: unsound,
};

#[test]
fn a_mapping_that_drops_release_and_acquire_is_caught_by_message_passing() {
    let b = Through {
        model: Compared::from_spec("ptx").unwrap(),
        translation: &UNSOUND,
    };
    let out = search::search(&atomics_space(), &source(), &b, &mapping(), |_| {});
    // Two events (one per thread, or two in one) cannot tell them apart; 3 events have
    // no message passing (two locations written and read across): the first size
    // with a difference is 4 events in 2 invocations.
    let last = out.sizes.last().unwrap();
    assert_eq!((last.events, last.threads), (4, 2));
    assert!(out.found.iter().all(|f| f.allowed_by == 1 && f.only_a == 0));
    // MP: W x; W.rel y || R.acq y; R x, with the stale read.
    let mp = out.found.iter().any(|f| {
        let text = vkherd_generate::emit::text(&f.test);
        text.contains("st.atom.rel.dv.sc0.semsc0") && text.contains("ld.atom.acq.dv.sc0.semsc0")
    });
    assert!(
        mp,
        "{}",
        out.found
            .iter()
            .map(|f| vkherd_generate::emit::text(&f.test))
            .collect::<String>()
    );
}

/// Fixed states for the search's rules: the first model allows `a`, the second `b`.
struct Fixed {
    states: &'static [i64],
    racy: bool,
}

impl Model for Fixed {
    fn states(&self, p: &Program) -> Result<States, String> {
        let all = (self.states.iter())
            .map(|&v| vec![v; p.observed.len()])
            .collect();
        Ok(States {
            all,
            racy: self.racy,
            ..States::default()
        })
    }
}

#[test]
fn a_mapping_check_counts_one_way_and_leaves_out_racy_and_empty_programs() {
    let sp = atomics_space();
    let run = |a: Fixed, b: Fixed| search::search(&sp, &a, &b, &mapping(), |_| {});
    // The target allows less: stronger, not a bug.
    let out = run(
        Fixed {
            states: &[0, 1],
            racy: false,
        },
        Fixed {
            states: &[0],
            racy: false,
        },
    );
    assert!(out.found.is_empty());
    // The target allows more on race-free programs: every program is a bug, the first
    // size stops the search.
    let out = run(
        Fixed {
            states: &[0],
            racy: false,
        },
        Fixed {
            states: &[0, 1],
            racy: false,
        },
    );
    let first = out.sizes.last().unwrap();
    assert_eq!(first.distinguishing, first.examined);
    assert!(first.examined > 0);
    // ... unless the source finds a race, or allows no state at all.
    let out = run(
        Fixed {
            states: &[0],
            racy: true,
        },
        Fixed {
            states: &[0, 1],
            racy: false,
        },
    );
    assert!(out.found.is_empty());
    assert_eq!(
        out.sizes.iter().map(|s| s.racy).sum::<u64>(),
        out.examined()
    );
    let out = run(
        Fixed {
            states: &[],
            racy: false,
        },
        Fixed {
            states: &[1],
            racy: false,
        },
    );
    assert!(out.found.is_empty());
    assert_eq!(
        out.sizes.iter().map(|s| s.vacuous).sum::<u64>(),
        out.examined()
    );
}

#[test]
fn distinguish_vulkan_ptx_reports_the_mapping_sound_on_a_bounded_space() {
    let out = vkherd(&[
        "distinguish",
        "-j",
        "1",
        "vulkan",
        "ptx",
        "--size",
        "3",
        "--semantics",
        "rlx,relacq",
        "--scopes",
        "dv",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.starts_with("Checking the mapping of vulkan programs to ptx (docs/ptx.md, \"Vulkan ↔ PTX mapping\")"), "{stdout}");
    assert!(
        stdout.contains("The mapping is sound within these bounds"),
        "{stdout}"
    );
}

/// A PTX model that forbids nothing: it reads `GEN`, a base only PTX tests produce, so it
/// judges PTX tests and `distinguish vulkan WEAK` is a mapping check whose target allows
/// every execution.
const FORBIDS_NOTHING: &str =
    "\"PTX forbidding nothing\"\nlet co = asmo\nacyclic po & (GEN * GEN) as nothing\n";

/// With a target that forbids nothing, the mapping check finds one-invocation programs:
/// `st.atom.dv.sc0 x, 1 ; ld.atom.dv.sc0 r0, x` reading 0 is forbidden by Vulkan
/// (coherence: the read follows the write in program order) and allowed by the target.
/// Each file `-o DIR` writes carries the explanation and, in a comment block of its own,
/// the translation listing `diff` prints: by the mapping table, `st.atom.dv` becomes
/// `st.relaxed.sys` and `ld.atom.dv` `ld.relaxed.sys` (the storage class dropped).
/// The files still parse and run as Vulkan tests.
#[test]
fn distinguish_vulkan_ptx_writes_the_translation_listing_into_each_file() {
    let dir = crate::util::fresh_dir("ptx-mapping-distinguish-o");
    let weak = write_file(&dir.join("forbids-nothing.cat"), FORBIDS_NOTHING);
    let out_dir = dir.join("found");
    let out = vkherd(&[
        "distinguish",
        "-j",
        "1",
        "vulkan",
        &weak,
        "--invocations",
        "1",
        "--locations",
        "1",
        "--semantics",
        "rlx",
        "--scopes",
        "dv",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("Checking the mapping of vulkan programs to ptx"),
        "{stdout}"
    );
    let mut files: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{stdout}");
    let header = "(* translated from vulkan to ptx for ";
    let mut saw_write_then_read = false;
    for f in &files {
        let file = std::fs::read_to_string(f).unwrap();
        // The explanation first, then the listing, both before the test's body.
        let (why, listing, body) = (
            file.find("(* Allowed by ").expect("the explanation"),
            file.find(header).expect("the listing"),
            file.find('{').expect("the init block"),
        );
        assert!(why < listing && listing < body, "{file}");
        assert!(
            file[listing..].contains("registers, arithmetic, jumps and the condition unchanged:"),
            "{file}"
        );
        // The listing's columns are aligned: compare with the spaces collapsed.
        let flat = file.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.contains("P0: st.atom.dv.sc0 x, 1 => st.relaxed.sys x, 1 P0: ld.atom.dv.sc0 r0, x => ld.relaxed.sys r0, x *)")
        {
            saw_write_then_read = true;
        }
        let run = vkherd(&["-j", "1", f.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(0), "{file}\n{}", text(&run.stderr));
    }
    assert!(saw_write_then_read, "{files:?}");
}
