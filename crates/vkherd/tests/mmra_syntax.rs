//! `!mmra(...)` tags in both `.litmus` dialects (docs/mmra.md "Syntax"): parsed, stored
//! per instruction, lowered onto the events' accesses; bad tags are located errors.

use crate::util::vkherd;
use vkherd_model::{Instruction, MmraTags, Program};

/// The tags of every access of thread `t`, as written back (`""` = none).
fn tags(p: &Program, t: usize) -> Vec<String> {
    p.threads[t]
        .code
        .iter()
        .filter_map(|i| match i {
            Instruction::Access(a) => Some(a.mmra.to_string()),
            _ => None,
        })
        .collect()
}

const VULKAN: &str = r#"VULKAN tags
{ x = 0; y = 0; }
 P0@sg 0, wg 0, qf 0                                       | P1@sg 1, wg 0, qf 0        ;
 st.av.dv.sc0 x, 1 !mmra(sync-as:1, vulkan:nonprivate)     | ld.atom.acq.wg.sc0.semsc0 r0, y ;
 membar.rel.wg.semsc0 !mmra(sync-as:0)                     | cbar.acq_rel.wg.semsc0 0 !mmra() ;
 st.atom.wg.sc0 y, 1                                       | rmw.atom.wg.sc0 r1, x, 2 !mmra(b:2,a:1,b:2) ;
exists (P1:r0 == 1)
"#;

#[test]
fn vulkan_tags_reach_the_lowered_accesses() {
    let p = vkherd::load_litmus(VULKAN).unwrap();
    assert_eq!(
        tags(&p, 0),
        [
            "!mmra(sync-as:1, vulkan:nonprivate)",
            "!mmra(sync-as:0)",
            ""
        ]
    );
    // `!mmra()` is the empty set; a set is sorted and has no repetitions.
    assert_eq!(tags(&p, 1), ["", "", "!mmra(a:1, b:2)"]);
}

const OPENCL: &str = r#"OPENCL tags
{ [x] = 0; [y] = 0; }
P0@sg 0, wg 0, dev 0 (global int* x, global atomic_int* y) {
  *x = 1 !mmra(sync-as:1);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device) !mmra(sync-as:0);
  atomic_store_explicit(y, 1, memory_order_relaxed, memory_scope_device);
}
P1@sg 1, wg 0, dev 0 (global int* x, global atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire, memory_scope_device) + atomic_load(y) !mmra(a:b);
  if (r0 == 2) { int r1 = *x !mmra(c:d); }
  barrier(CLK_GLOBAL_MEM_FENCE) !mmra(e:f);
}
exists (1:r0 = 2)
"#;

#[test]
fn opencl_tags_reach_every_event_of_the_statement() {
    let p = vkherd::load_litmus(OPENCL).unwrap();
    assert_eq!(tags(&p, 0), ["!mmra(sync-as:1)", "!mmra(sync-as:0)", ""]);
    // Both loads of the first statement carry its tags; statements nest in `if`; both
    // fences of the barrier (entry and exit, seed 004 §3.6.3) carry its tags.
    assert_eq!(
        tags(&p, 1),
        [
            "!mmra(a:b)",
            "!mmra(a:b)",
            "!mmra(c:d)",
            "!mmra(e:f)",
            "!mmra(e:f)"
        ]
    );
}

#[test]
fn khronos_accesses_have_no_tags() {
    // The empty set is what every untagged access gets.
    let p = vkherd::load_litmus(&VULKAN.replace("!mmra(sync-as:0)", "")).unwrap();
    assert_eq!(
        p.threads[0].code.iter().find_map(|i| match i {
            Instruction::Access(a) if a.kind == vkherd_model::AccessKind::Fence =>
                Some(a.mmra.clone()),
            _ => None,
        }),
        Some(MmraTags::default())
    );
}

/// The rendered error for `source` (file `t.litmus`).
fn error(source: &str) -> String {
    let d = vkherd::load_litmus(source).expect_err("a bad tag is an error");
    d.render("t.litmus", source)
}

#[test]
fn bad_vulkan_tags_are_located_errors() {
    let e = error(&VULKAN.replace("sync-as:0)", "sync-as)"));
    assert!(
        e.starts_with(
            "error: unexpected `)` in `!mmra(...)`: expected `:` between the prefix `sync-as` and a suffix, like `sync-as:1`\n --> t.litmus:5:"
        ),
        "{e}"
    );
    assert!(e.contains("^"), "{e}");
    let e = error(&VULKAN.replace("!mmra()", "!mmr()"));
    assert!(
        e.contains("unexpected `!mmr`: expected `!mmra(` followed by tags `prefix:suffix`"),
        "{e}"
    );
    let e = error(&VULKAN.replace(
        "ld.atom.acq.wg.sc0.semsc0 r0, y",
        "add r2, r2, 1 !mmra(a:b)",
    ));
    assert!(
        e.contains(
            "`!mmra(...)` on `add`: expected tags only on memory and synchronising instructions"
        ),
        "{e}"
    );
}

#[test]
fn bad_opencl_tags_are_located_errors() {
    let e = error(&OPENCL.replace("!mmra(e:f)", "!mmra(e:f"));
    assert!(
        e.contains("unexpected `;` in `!mmra(...)`: expected `,` or `)`\n  --> t.litmus:11:42"),
        "{e}"
    );
    let e = error(&OPENCL.replace(
        "if (r0 == 2) { int r1 = *x !mmra(c:d); }",
        "int r1 !mmra(c:d);",
    ));
    assert!(
        e.contains("`!mmra(...)` on a declaration without a value") && e.contains("t.litmus:10:"),
        "{e}"
    );
}

fn corpus(name: &str) -> String {
    crate::util::corpus(&format!("mmra/{name}"))
}

/// The command line: `--variant mmra` turns the tags on (the JSON run info says so), the
/// plain model ignores them, an unknown variant is bad input (exit code 2).
#[test]
fn variant_mmra_on_the_command_line() {
    let file = corpus("MMRA-seed-example1.litmus");
    let plain = vkherd(&[&file]);
    let mmra = vkherd(&["--variant", "mmra", &file]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(mmra.status.code(), Some(0));
    let (plain, mmra) = (
        String::from_utf8_lossy(&plain.stdout),
        String::from_utf8_lossy(&mmra.stdout),
    );
    assert!(plain.contains("States 3") && !plain.contains("1:r0=1; 1:r1=0;"));
    assert!(mmra.contains("States 4") && mmra.contains("1:r0=1; 1:r1=0; # racy"));
    let json = vkherd(&["--json", "--variant", "mmra", &file]);
    assert!(String::from_utf8_lossy(&json.stdout).contains(r#""variants":["mmra"]"#));
    let bad = vkherd(&["--variant", "mmr", &file]);
    assert_eq!(bad.status.code(), Some(2));
    // On an OpenCL test, `--variant mmra` without --model runs opencl.cat's variant: the
    // same report as `--model opencl --variant mmra`, and the JSON names the model and the
    // variant.
    let ocl = crate::util::tmp_path("mmra-ocl.litmus");
    std::fs::write(&ocl, OPENCL).unwrap();
    let ocl = ocl.to_str().unwrap();
    let out = vkherd(&["--variant", "mmra", ocl]);
    assert_eq!(out.status.code(), Some(0));
    let given = vkherd(&["--model", "opencl", "--variant", "mmra", ocl]);
    assert_eq!(given.status.code(), Some(0));
    assert_eq!(out.stdout, given.stdout);
    let json =
        String::from_utf8_lossy(&vkherd(&["--json", "--variant", "mmra", ocl]).stdout).into_owned();
    assert!(
        json.contains(r#""model":"opencl","variants":["mmra"]"#),
        "{json}"
    );
    assert_eq!(vkherd(&[ocl]).status.code(), Some(0));
}
