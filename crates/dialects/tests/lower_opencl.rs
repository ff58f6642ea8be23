//! Lowering of OpenCL tests (docs/opencl.md "Lowering"): the flags of every kind of
//! operation, control flow, thread ids, and the semantic errors.

use vkherd_dialects::opencl::{lower_opencl, parse_opencl, SCOPEWI, SEQCST};
use vkherd_model::*;

fn lower(src: &str) -> Program {
    let t = parse_opencl(src).unwrap_or_else(|e| panic!("{}", e.render("t", src)));
    lower_opencl(&t).unwrap_or_else(|e| panic!("{}", e.render("t", src)))
}

fn lower_err(src: &str) -> String {
    let t = parse_opencl(src).unwrap_or_else(|e| panic!("{}", e.render("t", src)));
    match lower_opencl(&t) {
        Ok(p) => panic!("expected an error, got {p:#?}"),
        Err(e) => e.to_string(),
    }
}

fn one_thread(body: &str) -> String {
    format!("OPENCL t {{}}\nP0@wg 0, dev 0 (global atomic_int* x, local atomic_int* z) {{\n{body}\n}}\n")
}

fn accesses(p: &Program, t: usize) -> Vec<&Access> {
    p.threads[t]
        .code
        .iter()
        .filter_map(|i| match i {
            Instruction::Access(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// The flags of each access of thread 0 of a one-thread test.
fn flags(body: &str) -> Vec<Flags> {
    let p = lower(&one_thread(body));
    accesses(&p, 0).iter().map(|a| a.flags).collect()
}

use Flags as F;

#[test]
fn loads_and_stores_get_region_order_and_scope_flags() {
    let got = flags(
        "int r0 = atomic_load(x);
         int r1 = atomic_load_explicit(z, memory_order_acquire, memory_scope_work_group);
         int r2 = atomic_load_explicit(x, memory_order_relaxed, memory_scope_all_svm_devices);
         atomic_store_explicit(x, 1, memory_order_release, memory_scope_sub_group);
         atomic_store_explicit(z, 1, memory_order_seq_cst, memory_scope_work_item);
         int r3 = *x;
         *z = r3;",
    );
    assert_eq!(
        got,
        [
            F::R | F::A | F::SC0 | F::ACQ | SEQCST | F::SCOPEQF,
            F::R | F::A | F::SC1 | F::ACQ | F::SCOPEWG,
            F::R | F::A | F::SC0 | F::SCOPEDEV,
            F::W | F::A | F::SC0 | F::REL | F::SCOPESG,
            F::W | F::A | F::SC1 | F::REL | SEQCST | SCOPEWI,
            F::R | F::SC0,
            F::W | F::SC1,
        ]
    );
}

#[test]
fn rmws_fences_and_barriers() {
    let got = flags(
        "atomic_fetch_add_explicit(x, 1, memory_order_acq_rel, memory_scope_device);
         atomic_exchange_explicit(z, 1, memory_order_acquire);
         atomic_fetch_min(x, 2);
         atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
         atomic_work_item_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
         atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
         barrier(CLK_LOCAL_MEM_FENCE);
         work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);",
    );
    let rmw = F::R | F::W | F::A;
    let bar = F::CBAR | F::F | F::ACQ | F::REL;
    assert_eq!(
        got,
        [
            rmw | F::SC0 | F::ACQ | F::REL | F::SCOPEQF,
            rmw | F::SC1 | F::ACQ | F::SCOPEQF,
            rmw | F::SC0 | F::ACQ | F::REL | SEQCST | F::SCOPEQF,
            F::F | F::REL | F::SEMSC0 | F::SCOPEWG,
            F::F | F::ACQ | F::REL | SEQCST | F::SEMSC0 | F::SEMSC1 | F::SCOPEQF,
            F::F | F::SEMSC1 | F::SCOPEQF,
            bar | F::SEMSC1 | F::SCOPEWG,
            bar | F::SEMSC0 | F::SCOPEQF,
        ]
    );
    let p = lower(&one_thread("barrier(0); B1: barrier(0);"));
    let names: Vec<_> = accesses(&p, 0)
        .iter()
        .map(|a| a.barrier.clone().expect("a barrier"))
        .collect();
    // Labels do not matter: every barrier of a work-group is the same barrier.
    assert_eq!(names[0], names[1]);
    assert_eq!(p.cbar_rule, CbarRule::Workgroup);
    assert_eq!(p.dialect, &vkherd_dialects::opencl::OPENCL);
}

#[test]
fn compare_exchange_carries_its_failure_flags_and_registers() {
    let p = lower(&one_thread(
        "int r0 = atomic_compare_exchange_strong_explicit(x, &r1, 5, memory_order_release, memory_order_acquire, memory_scope_work_group);
         int r2 = atomic_compare_exchange_weak(z, 3, r0);",
    ));
    let a = accesses(&p, 0);
    assert_eq!(a[0].kind, AccessKind::Rmw);
    assert_eq!(
        a[0].flags,
        F::R | F::W | F::A | F::SC0 | F::REL | F::SCOPEWG
    );
    assert_eq!(a[0].dst, Some(1));
    assert_eq!(a[0].value, Some(Operand::Imm(5)));
    assert_eq!(
        a[0].cas,
        Some(Cas {
            expected: Operand::Reg(1),
            weak: false,
            fail_flags: F::R | F::A | F::SC0 | F::ACQ | F::SCOPEWG,
            success_dst: Some(0),
        })
    );
    let cas = a[1].cas.clone().expect("a CAS");
    assert!(cas.weak);
    assert_eq!(cas.expected, Operand::Imm(3));
    assert_eq!(cas.success_dst, Some(2));
    assert_eq!(a[1].value, Some(Operand::Reg(0)));
    // The old value goes to a temporary above the user's registers.
    assert_eq!(a[1].dst, Some(3));
    assert_eq!(
        cas.fail_flags,
        F::R | F::A | F::SC1 | F::ACQ | SEQCST | F::SCOPEQF
    );
}

#[test]
fn control_flow_lowers_to_jumps() {
    let p = lower(&one_thread(
        "int r0 = atomic_load(x);
         if (r0 == 1 && r0 != 2) { *x = 1; } else { *x = 2; }
         while (r0 < 3) r0 = r0 + 1;",
    ));
    let code: Vec<String> = p.threads[0]
        .code
        .iter()
        .map(|i| match i {
            Instruction::Access(a) => format!("{:?}", a.kind),
            Instruction::Arith { op, dst, a, b, .. } => format!("r{dst}={op:?}({a:?},{b:?})"),
            Instruction::Jump { cond, target, .. } => format!("jump {cond:?} {target}"),
        })
        .collect();
    assert_eq!(
        code,
        [
            "Load",
            "jump Some((Ne, Reg(0), Imm(1))) 5",
            "jump Some((Eq, Reg(0), Imm(2))) 5",
            "Store",
            "jump None 6",
            "Store",
            "jump Some((Ge, Reg(0), Imm(3))) 9",
            "r0=Add(Reg(0),Imm(1))",
            "jump None 6",
        ]
    );
}

#[test]
fn thread_ids_devices_and_defaults() {
    let p = lower("OPENCL t {}\nP0@sg 1, wg 2, dev 3 () {}\nP1@sg 0, wg 2, dev 0 () {}\n");
    let ids: Vec<_> = p
        .threads
        .iter()
        .map(|t| (t.scope[2], t.scope[1], t.scope[0]))
        .collect();
    assert_eq!(ids, [(3, 2, 1), (0, 2, 0)]);
    // Without wg / sg, each work-item is alone in its work-group and sub-group.
    let p = lower("OPENCL t {}\nP0 () {}\nP1 () {}\n");
    assert!(!p.threads[0].same_instance(&p.threads[1], 1));
    assert!(p.threads[0].same_instance(&p.threads[1], 2));
    let p = lower("OPENCL t {}\nP0@wg 0 () {}\nP1@wg 0 () {}\n");
    assert!(p.threads[0].same_instance(&p.threads[1], 1));
    assert!(!p.threads[0].same_instance(&p.threads[1], 0));
}

#[test]
fn locations_init_values_and_observed_columns() {
    let p = lower(
        "OPENCL t { [y] = 2; x = 1; 0:r0 = 4; }\nP0@wg 0 (global int* x, global int* y) { int r1 = *x; }\nexists (0:r1 = 1 /\\ y = 2 /\\ 0:r0 = 4)",
    );
    let locs: Vec<_> = p
        .locations
        .iter()
        .map(|l| (l.name.as_str(), l.init))
        .collect();
    assert_eq!(locs, [("y", 2), ("x", 1)]);
    assert_eq!(p.threads[0].init_regs, [(0, 4)]);
    let cols: Vec<_> = p.observed.iter().map(|&o| p.observable_name(o)).collect();
    assert_eq!(cols, ["0:r0", "0:r1", "y"]);
}

#[test]
fn semantic_errors() {
    assert_eq!(
        lower_err("OPENCL t {}\nP0@wg 0 () {}\nP1 () {}\n"),
        "3:1: P1 has no `wg` id but P0 has one: expected `wg N` on every thread header or on none"
    );
    assert_eq!(
        lower_err(&one_thread("int r0 = atomic_store(x, 1);")),
        "3:10: `atomic_store` has no value: expected it as a statement of its own"
    );
    assert_eq!(
        lower_err("OPENCL t {}\nP0 () {}\nexists (0:r3 = 1)"),
        "3:9: `0:r3`: thread P0 has no register r3: expected a register that P0 writes, reads or initialises, but it has none"
    );
}

#[test]
fn the_longest_expression_lowers() {
    // 1000 operators (the parser's limit): a left-deep tree lowered recursively.
    let p = lower(&one_thread(&format!(
        "int r0 = atomic_load(x){};",
        " + 1".repeat(1000)
    )));
    assert_eq!(p.threads[0].code.len(), 1001);
}

#[test]
fn named_variables_are_registers_with_names() {
    let p = lower(&format!(
        "{}exists (0:flag = 1 /\\ 0:r1 = 0)",
        one_thread("int flag = atomic_load(x);\nint r1 = flag;")
    ));
    assert_eq!(p.reg_names.get(&(0, 512)).map(String::as_str), Some("flag"));
    let cols: Vec<_> = p.observed.iter().map(|&o| p.observable_name(o)).collect();
    assert_eq!(cols, ["0:r1", "0:flag"]);
    assert_eq!(
        p.condition.expect("condition").text,
        "(0:flag=1 /\\ 0:r1=0)"
    );
    assert_eq!(
        lower_err(&one_thread("int flag = 1;\nint r600 = 2;")),
        "2:1: P0 uses r600 and named variables, which take the registers from r512 up: expected registers below r512"
    );
}

/// The warnings of a lowered program, as `line:column: message`.
fn warnings(p: &Program) -> Vec<String> {
    p.warnings
        .iter()
        .map(|w| format!("{}:{}: {}", w.span.line, w.span.column, w.message))
        .collect()
}

/// The region flag (SC0 global, SC1 local) of each access of thread `t`.
fn regions(p: &Program, t: usize) -> Vec<Flags> {
    accesses(p, t)
        .iter()
        .map(|a| match (a.flags.has(F::SC0), a.flags.has(F::SC1)) {
            (true, false) => F::SC0,
            (false, true) => F::SC1,
            _ => panic!("not one region: {:?}", a.flags),
        })
        .collect()
}

#[test]
fn a_location_declared_global_and_local_takes_its_first_declaration_with_a_warning() {
    let p = lower(
        "OPENCL t {}\nP0@wg 0 (global int* x) { *x = 1; }\nP1@wg 0 (local int* x) { *x = 2; }\nP2@wg 0 (local int* x) { *x = 3; }\n",
    );
    assert_eq!(
        warnings(&p),
        ["3:10: `x` is local here but P0 declares it global (2:10): a location has one address space (OpenCL's global and local pointers never alias); read as global everywhere"]
    );
    for t in 0..3 {
        assert_eq!(regions(&p, t), [F::SC0], "P{t}");
    }
}

#[test]
fn the_memory_map_decides_the_region() {
    let p = lower(
        "OPENCL t {}\nP0 (global int* x, global int* y) { *x = 1; *y = 1; }\nscopeTree (device (work_group P0))\nx: local, y: global\nexists (x = 1)",
    );
    assert_eq!(regions(&p, 0), [F::SC1, F::SC0]);
    assert_eq!(
        warnings(&p),
        ["2:5: `x` is global here but the memory map (4:1) makes it local: a location has one address space (OpenCL's global and local pointers never alias); read as local everywhere"]
    );
}

#[test]
fn a_local_location_of_several_work_groups_is_one_location_with_a_warning() {
    let p = lower(
        "OPENCL t {}\nP0@wg 0 (local atomic_int* x) { atomic_store(x, 1); }\nP1@wg 1 (local atomic_int* x) { int r0 = atomic_load(x); }\nP2@wg 2 (local atomic_int* x) { int r0 = atomic_load(x); }\n",
    );
    assert_eq!(
        warnings(&p),
        ["3:10: local `x` is declared by P1 (wg 1, dev 0) and P0 (wg 0, dev 0): OpenCL gives each work-group its own copy of local memory; read as one location, as herd7 does; local synchronisation still orders only within a work-group"]
    );
    assert_eq!(p.locations.len(), 1);
    for t in 0..3 {
        assert_eq!(regions(&p, t), [F::SC1], "P{t}");
    }
}

#[test]
fn release_and_acq_rel_failure_orders_read_as_relaxed_and_acquire() {
    let p = lower(&one_thread(
        "int r0 = 0;
         atomic_compare_exchange_strong_explicit(x, &r0, 1, memory_order_acq_rel, memory_order_release);
         atomic_compare_exchange_weak_explicit(z, &r0, 1, memory_order_acq_rel, memory_order_acq_rel, memory_scope_work_group);",
    ));
    let fail: Vec<Flags> = accesses(&p, 0)
        .iter()
        .map(|a| a.cas.as_ref().expect("a compare-exchange").fail_flags)
        .collect();
    assert_eq!(
        fail,
        [
            F::R | F::A | F::SC0 | F::SCOPEQF,
            F::R | F::A | F::SC1 | F::ACQ | F::SCOPEWG,
        ]
    );
    let w = warnings(&p);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("4:83: `memory_order_release` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `memory_order_relaxed`"), "{w:?}");
    assert!(w[1].starts_with("5:81: `memory_order_acq_rel` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `memory_order_acquire`"), "{w:?}");
}

#[test]
fn an_expected_location_is_read_before_the_exchange_and_written_back_on_failure() {
    let src = "OPENCL t {}\nP0 (volatile global int* p, global atomic_int* one) {\n  int r0 = atomic_compare_exchange_strong_explicit(p, one, 2, memory_order_relaxed, memory_order_relaxed);\n}\n";
    let p = lower(src);
    let code = &p.threads[0].code;
    let name = |a: &Access| p.references[a.reference.expect("a location")].name.clone();
    let Instruction::Access(read) = &code[0] else {
        panic!("{code:#?}")
    };
    assert_eq!(
        (read.kind, read.flags, name(read)),
        (AccessKind::Load, F::R | F::SC0, "one".into())
    );
    let t = read.dst.expect("a register");
    let Instruction::Access(cas) = &code[1] else {
        panic!("{code:#?}")
    };
    let c = cas.cas.as_ref().expect("a compare-exchange");
    assert_eq!((name(cas), c.expected), ("p".into(), Operand::Reg(t)));
    let old = cas.dst.expect("the value read");
    let ok = c.success_dst.expect("the result");
    // if ok != 0 skip the write-back
    assert!(
        matches!(&code[2], Instruction::Jump { cond: Some((CmpOp::Ne, Operand::Reg(r), Operand::Imm(0))), target: 4, .. } if *r == ok),
        "{code:#?}"
    );
    let Instruction::Access(back) = &code[3] else {
        panic!("{code:#?}")
    };
    assert_eq!(
        (back.kind, back.flags, name(back), back.value),
        (
            AccessKind::Store,
            F::W | F::SC0,
            "one".into(),
            Some(Operand::Reg(old))
        )
    );
    // `p` is `volatile global int*`: the exchange is atomic all the same, with a warning.
    assert!(cas.flags.has(F::A));
    let w = warnings(&p);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("3:52: `atomic_compare_exchange_strong_explicit` on `p`, which P0 declares with a non-atomic type"), "{w:?}");
    assert!(
        w[1].starts_with(
            "3:55: `one` as the expected value points to `one`, which P0 declares atomic"
        ),
        "{w:?}"
    );
}

#[test]
fn array_cells_are_locations() {
    let p = lower(
        "OPENCL t { atomic_int y[3] = {1, 2}; int z[] = {7}; }\nP0 (global atomic_int* y, local int* z) {\n  atomic_store(y + 1, 5);\n  int r0 = atomic_load(&y[2]);\n  y[0] = *(y + 2);\n  int r1 = *y + z[0];\n  atomic_store_explicit((y + 3 - 1), 1, memory_order_relaxed);\n}\nexists (y[1] = 5 /\\ 0:r0 = 0)",
    );
    let locs: Vec<(&str, i64)> = p
        .locations
        .iter()
        .map(|l| (l.name.as_str(), l.init))
        .collect();
    assert_eq!(locs, [("y[0]", 1), ("y[1]", 2), ("y[2]", 0), ("z[0]", 7)]);
    let names: Vec<&str> = accesses(&p, 0)
        .iter()
        .map(|a| p.references[a.reference.expect("a location")].name.as_str())
        .collect();
    assert_eq!(
        names,
        ["y[1]", "y[2]", "y[2]", "y[0]", "y[0]", "z[0]", "y[2]"]
    );
    assert_eq!(regions(&p, 0)[5], F::SC1);
    assert_eq!(
        p.condition.expect("a condition").text,
        "(y[1]=5 /\\ 0:r0=0)"
    );
}
