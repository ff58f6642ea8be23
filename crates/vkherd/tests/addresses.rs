//! Register-dependent addresses end to end: an access whose location a register chooses
//! gives the states of the same program written with explicit branches, the pruned
//! search lists what `--naive` lists, and the dependency is `addr` (which a model may
//! order by), never `ctrl`.

use crate::files;
use crate::util::{fresh_dir, text, vkherd, write_file};

/// P1 reads r0 from x (0, or P0's 1) and then runs `tail`.
fn indexed(tail: &str) -> String {
    format!(
        "OPENCL t\n{{ [x] = 0; int y[2] = {{5, 6}}; }}\n\
         P0 (global atomic_int* x, global int* y) {{\n  y[0] = 7;\n  atomic_store_explicit(x, 1, memory_order_release);\n}}\n\
         P1 (global atomic_int* x, global int* y) {{\n  int r0 = atomic_load_explicit(x, memory_order_acquire);\n{tail}\n}}\n\
         exists (1:r0 = 1 /\\ 1:r1 = 6)\n"
    )
}

/// The states of a source under its dialect's model, pruned and naive.
fn states(source: &str) -> (Vec<String>, String) {
    let program = vkherd::load_litmus(source).expect("parses");
    let (pruned, naive) = files::pruned_and_naive_reports(&program);
    assert_eq!(pruned, naive, "pruned search and --naive differ:\n{source}");
    let lines = pruned
        .lines()
        .skip_while(|l| !l.starts_with("States"))
        .skip(1)
        .take_while(|l| *l != "Ok" && *l != "No")
        .map(str::to_string)
        .collect();
    (lines, pruned)
}

/// `y[r0]` (a load and a store through it) lists the states of the program that chooses
/// the cell with an `if`, racy flags included: the address chain adds no execution and
/// loses none.
#[test]
fn an_address_gives_the_states_of_explicit_branches() {
    let pairs = [
        (
            "  int r1 = y[r0];",
            "  int r1;\n  if (r0 == 0) { r1 = y[0]; } else { r1 = y[1]; }",
        ),
        (
            "  int r1 = *(y + (1 - r0));\n  y[r0] = 9;",
            "  int r1;\n  if (r0 == 0) { r1 = y[1]; y[0] = 9; } else { r1 = y[0]; y[1] = 9; }",
        ),
    ];
    for (address, branches) in pairs {
        let (a, report) = states(&indexed(address));
        let (b, _) = states(&indexed(branches));
        assert_eq!(a, b, "{address}\n{report}");
        assert!(a.len() >= 2, "{report}");
    }
}

/// The hand-derived states of `y[r0]`: r0 = 0 reads y[0], racing with P0's write of 7,
/// which does not happen before it, so the read's visible side effect is the initial 5
/// (seed 004 §3.6, opencl.cat `nonatomic-reads-visible-side-effect`); r0 = 1 reads
/// y[1] = 6, which nothing writes.
#[test]
fn an_indexed_read_has_the_hand_derived_states() {
    let (got, report) = states(&indexed("  int r1 = y[r0];"));
    assert_eq!(
        got,
        ["1:r0=0; 1:r1=5; # racy", "1:r0=1; 1:r1=6;"],
        "{report}"
    );
}

/// The address jumps make an `addr` dependency and no `ctrl` one: with P1's store under
/// a real branch on its read (ctrl), a model forbidding cycles of `rf | ctrl` would
/// forbid r0 = r1 = 1 if P0's chain of address jumps (r0 in {0, 1}) were control; it
/// allows it. A model forbidding `rf | addr` cycles forbids the LB shape whose stores
/// have address dependencies, which opencl.cat allows.
#[test]
fn models_see_addr_and_no_ctrl_from_addresses() {
    let dir = fresh_dir("addresses-models");
    let ctrl = write_file(
        &dir.join("ctrl.cat"),
        "\"no rf | ctrl cycle\"\nlet co = asmo\nacyclic (rf | ctrl) as no-ctrl-cycle\n",
    );
    let addr = write_file(
        &dir.join("addr.cat"),
        "\"no rf | addr cycle\"\nlet co = asmo\nacyclic (rf | addr) as no-addr-cycle\n",
    );
    let chain = write_file(
        &dir.join("chain.litmus"),
        "OPENCL chain\n{ [x] = 0; [y] = 0; int a[2] = {0, 0}; }\n\
         P0 (global atomic_int* x, global atomic_int* y, global int* a) {\n\
           int r0 = atomic_load_explicit(x, memory_order_relaxed);\n  int r2 = a[r0];\n\
           atomic_store_explicit(y, 1, memory_order_relaxed);\n}\n\
         P1 (global atomic_int* x, global atomic_int* y, global int* a) {\n\
           int r1 = atomic_load_explicit(y, memory_order_relaxed);\n\
           if (r1 == 1) { atomic_store_explicit(x, 1, memory_order_relaxed); }\n}\n\
         exists (0:r0 = 1 /\\ 1:r1 = 1)\n",
    );
    let lb = crate::util::corpus("opencl/addr/LB-addr.litmus");
    let verdict = |model: &str, file: &str| {
        let out = vkherd(&["--model", model, file]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}{}", stdout, text(&out.stderr));
        stdout
            .lines()
            .find(|l| *l == "Ok" || *l == "No")
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(verdict(&ctrl, &chain), "Ok", "address jumps are not ctrl");
    assert_eq!(verdict("opencl", &lb), "Ok");
    assert_eq!(
        verdict(&addr, &lb),
        "No",
        "the address dependencies are addr"
    );
}
