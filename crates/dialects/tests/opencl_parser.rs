//! Tests of `parse_opencl` against docs/opencl.md: every form of the dialect, and the
//! message and position of errors.

use vkherd_dialects::opencl::ast::*;
use vkherd_dialects::opencl::{is_opencl, parse_opencl};

fn parse(src: &str) -> OpenClTest {
    match parse_opencl(src) {
        Ok(t) => t,
        Err(e) => panic!("{}", e.render("test.litmus", src)),
    }
}

/// The error as `line:column: message`.
fn err(src: &str) -> String {
    match parse_opencl(src) {
        Ok(t) => panic!("expected an error, got {t:#?}"),
        Err(e) => e.to_string(),
    }
}

/// The statements of a one-thread test whose body is `body`, without spans.
fn body(body: &str) -> Vec<ClStmt> {
    let src = one_thread(body);
    parse(&src).threads[0]
        .body
        .iter()
        .map(|s| s.value.clone())
        .collect()
}

fn one_thread(body: &str) -> String {
    format!("OPENCL t\n{{ }}\nP0@wg 0, dev 0 (global atomic_int* x, local int* y) {{\n{body}\n}}\n")
}

/// Expression trees without spans, printed compactly for comparison.
fn show(e: &ClExpr) -> String {
    match e {
        ClExpr::Const(v) => v.to_string(),
        ClExpr::Reg(r) => format!("r{r}"),
        ClExpr::Arith(op, a, b) => format!("({:?} {} {})", op, show(&a.value), show(&b.value)),
        ClExpr::Cmp(op, a, b) => format!("({:?} {} {})", op, show(&a.value), show(&b.value)),
        ClExpr::Not(a) => format!("!{}", show(&a.value)),
        ClExpr::Logic { and, a, b } => format!(
            "({} {} {})",
            if *and { "&&" } else { "||" },
            show(&a.value),
            show(&b.value)
        ),
        ClExpr::Mem(m) => format!("{m:?}")
            .split(" {")
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

fn assigned(stmt: &ClStmt) -> (u32, &ClExpr) {
    match stmt {
        ClStmt::Assign { reg, value, .. } => (*reg, &value.value),
        s => panic!("not an assignment: {s:?}"),
    }
}

fn mem(stmt: &ClStmt) -> &ClMemOp {
    match stmt {
        ClStmt::Assign { value, .. } | ClStmt::Expr(value) => match &value.value {
            ClExpr::Mem(m) => m,
            e => panic!("not a memory operation: {e:?}"),
        },
        s => panic!("no memory operation: {s:?}"),
    }
}

const MP: &str = r#"OPENCL MP
"Message passing, release/acquire at device scope" // a C comment
(* a herd comment *)
{ [x] = 0; y = 0; 1:r2 = 7; }
P0@wg 0, dev 0 (volatile global int* x, global atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release, memory_scope_device);
}
P1@wg 1, dev 0 (global int* x, global atomic_int* y) {
  /* a block
     comment */
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = *x;
}
exists (1:r0 = 1 /\ 1:r1 = 0)
"#;

/// A `{` inside the quoted description is prose, not the init block (issue 33).
#[test]
fn a_brace_in_the_quoted_description_is_not_the_init_block() {
    let src = MP.replace(
        "\"Message passing, release/acquire at device scope\"",
        "\"Message passing {x, y}\"",
    );
    let t = parse(&src);
    assert_eq!(t.description, "\"Message passing {x, y}\"");
    assert_eq!(t.init.len(), parse(MP).init.len());
}

#[test]
fn mp_parses_to_the_expected_test() {
    let t = parse(MP);
    assert_eq!(t.name, "MP");
    assert_eq!(
        t.description,
        "\"Message passing, release/acquire at device scope\""
    );
    let init: Vec<String> = t
        .init
        .iter()
        .map(|d| match d {
            InitDecl::Location { name, value, .. } => format!("{name}={value}"),
            InitDecl::Register {
                thread, reg, value, ..
            } => format!("{thread}:r{reg}={value}"),
            InitDecl::Alias { .. } => panic!("no aliases in OpenCL"),
        })
        .collect();
    assert_eq!(init, ["x=0", "y=0", "1:r2=7"]);
    assert_eq!(t.threads.len(), 2);
    let p0 = &t.threads[0];
    assert_eq!((p0.sg, p0.wg, p0.dev), (None, Some(0), Some(0)));
    assert_eq!(t.threads[1].wg, Some(1));
    let x = &p0.params[0];
    assert_eq!(
        (x.name.as_str(), x.space, x.atomic, x.volatile),
        ("x", AddrSpace::Global, false, true)
    );
    assert!(p0.params[1].atomic);
    assert_eq!(
        &MP[x.span.offset..x.span.offset + x.span.len],
        "volatile global int* x"
    );
    assert_eq!(p0.body.len(), 2);
    assert!(matches!(&p0.body[0].value, ClStmt::PlainStore { loc, .. } if loc == "x"));
    match mem(&p0.body[1].value) {
        ClMemOp::Store {
            loc, order, scope, ..
        } => assert_eq!(
            (loc.cell.as_str(), *order, *scope),
            ("y", MemOrder::Release, ClScope::Device)
        ),
        m => panic!("{m:?}"),
    }
    let p1 = &t.threads[1].body;
    assert!(matches!(
        mem(&p1[0].value),
        ClMemOp::Load { loc, order: MemOrder::Acquire, scope: ClScope::Device } if loc == "y"
    ));
    assert!(matches!(mem(&p1[1].value), ClMemOp::PlainLoad { loc } if loc == "x"));
    let c = t.condition.expect("a condition");
    assert_eq!(c.quantifier, Quantifier::Exists);
    assert_eq!(c.text, "(1:r0=1 /\\ 1:r1=0)");
    // Spans point into the original text, comments included.
    let s = t.threads[1].body[0].span;
    assert_eq!((s.line, s.column), (12, 7));
}

#[test]
fn header_ids_in_any_order_and_optional() {
    let src = "OpenCL t {}\nP0@sg 1, dev 2, wg 3 () {}\nP1 () {}\n";
    let t = parse(src);
    let p0 = &t.threads[0];
    assert_eq!((p0.sg, p0.wg, p0.dev), (Some(1), Some(3), Some(2)));
    let p1 = &t.threads[1];
    assert_eq!((p1.sg, p1.wg, p1.dev), (None, None, None));
    assert!(t.condition.is_none());
    assert_eq!(parse("opencl t {}\nP0 () {}").name, "t");
}

#[test]
fn init_declarations_may_carry_c_types() {
    let t =
        parse("OPENCL t { global atomic_int x = 1; local int [y] = 2; unsigned z = 3; }\nP0 () {}");
    let names: Vec<String> = t
        .init
        .iter()
        .map(|d| match d {
            InitDecl::Location { name, value, .. } => format!("{name}={value}"),
            d => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(names, ["x=1", "y=2", "z=3"]);
}

#[test]
fn scope_trees_give_the_ids() {
    let src = "OPENCL t {}\nP0 () {}\nP1 () {}\nP2 () {}\nP3 () {}\nP4 () {}\n\
               scopeTree (device (work_group P0 (sub_group P1 P2)) P3) (device P4)\nexists (x = 0)";
    let t = parse(src);
    let ids: Vec<(u64, u64, u64)> = t
        .threads
        .iter()
        .map(|t| (t.dev.unwrap(), t.wg.unwrap(), t.sg.unwrap()))
        .collect();
    let (p0, p1, p2, p3, p4) = (ids[0], ids[1], ids[2], ids[3], ids[4]);
    // Same device and work-group for P0, P1, P2; P1 and P2 share a sub-group, P0 not.
    assert_eq!((p0.0, p0.1), (p1.0, p1.1));
    assert_eq!(p1, p2);
    assert_ne!(p0.2, p1.2);
    // P3: same device, its own work-group; P4 on another device.
    assert_eq!(p3.0, p0.0);
    assert_ne!(p3.1, p0.1);
    assert_ne!(p4.0, p0.0);
    assert_eq!(t.condition.map(|c| c.text), Some("(x=0)".to_string()));
    let bad = |tree: &str| {
        err(&format!(
            "OPENCL t {{}}\nP0 () {{}}\nP1 () {{}}\nscopeTree {tree}"
        ))
    };
    assert_eq!(
        bad("(device P0)"),
        "4:1: P1 is not in the scope tree: expected every thread in it"
    );
    assert_eq!(
        bad("(device P0 P0 P1)"),
        "4:22: P0 is twice in the scope tree: expected each thread once"
    );
    assert_eq!(
        bad("(device P0 P7)"),
        "4:22: `P7` in the scope tree is not a thread of the test: expected P0 to P1"
    );
    assert_eq!(bad("(work_group (device P0 P1))"), "4:24: `device` inside a group it cannot be part of: expected device > work_group > sub_group");
    assert_eq!(bad("(kernel P0 P1)"), "4:12: unexpected `kernel` after `(` in the scope tree: expected `device`, `work_group` or `sub_group`");
    assert_eq!(
        bad("P0"),
        "4:11: unexpected `P0` after `scopeTree`: expected a tree `(device ...)`"
    );
    assert_eq!(
        err("OPENCL t {}\nP0@wg 0 () {}\nscopeTree (device P0)"),
        "3:1: `scopeTree` but P0 has `@` ids: expected the ids in one place, the thread headers or the scope tree"
    );
}

#[test]
fn parameters_address_spaces_types_and_qualifiers() {
    let src = "OPENCL t {}\nP0 (__global atomic_uint* a, __local unsigned int* b, volatile local atomic_long* c, const int* d, global volatile ulong* e) {}";
    let ps = &parse(src).threads[0].params;
    let got: Vec<(&str, AddrSpace, bool, bool)> = ps
        .iter()
        .map(|p| (p.name.as_str(), p.space, p.atomic, p.volatile))
        .collect();
    assert_eq!(
        got,
        [
            ("a", AddrSpace::Global, true, false),
            ("b", AddrSpace::Local, false, false),
            ("c", AddrSpace::Local, true, true),
            ("d", AddrSpace::Global, false, false),
            ("e", AddrSpace::Global, false, true),
        ]
    );
}

#[test]
fn atomic_functions_with_default_and_explicit_orders_and_scopes() {
    let b = body(
        "int r0 = atomic_load(x);
         int r1 = atomic_load_explicit(x, memory_order_relaxed);
         int r2 = atomic_load_explicit(x, memory_order_seq_cst, memory_scope_work_group);
         atomic_store(x, 1);
         atomic_store_explicit(x, 2, memory_order_relaxed, memory_scope_all_svm_devices);
         int r3 = atomic_exchange(x, 3);
         int r4 = atomic_exchange_explicit(x, 4, memory_order_acq_rel, memory_scope_sub_group);",
    );
    let got: Vec<String> = b
        .iter()
        .map(|s| match mem(s) {
            ClMemOp::Load { order, scope, .. } => format!("ld {order:?} {scope:?}"),
            ClMemOp::Store { order, scope, .. } => format!("st {order:?} {scope:?}"),
            ClMemOp::Rmw {
                op, order, scope, ..
            } => format!("rmw {op:?} {order:?} {scope:?}"),
            m => panic!("{m:?}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "ld SeqCst Device",
            "ld Relaxed Device",
            "ld SeqCst WorkGroup",
            "st SeqCst Device",
            "st Relaxed AllSvmDevices",
            "rmw None SeqCst Device",
            "rmw None AcqRel SubGroup",
        ]
    );
}

#[test]
fn atomic_flags_and_atomic_init() {
    let b = body(
        "int r0 = atomic_flag_test_and_set(x);
         atomic_flag_test_and_set_explicit(x, memory_order_acquire, memory_scope_work_group);
         atomic_flag_clear(x);
         atomic_flag_clear_explicit(x, memory_order_release);
         atomic_init(x, 3);",
    );
    let got: Vec<String> = b[..4]
        .iter()
        .map(|s| match mem(s) {
            ClMemOp::Rmw {
                op,
                value,
                order,
                scope,
                ..
            } => format!("rmw {op:?} {} {order:?} {scope:?}", show(&value.value)),
            ClMemOp::Store {
                value,
                order,
                scope,
                ..
            } => format!("st {} {order:?} {scope:?}", show(&value.value)),
            m => panic!("{m:?}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "rmw None 1 SeqCst Device",
            "rmw None 1 Acquire WorkGroup",
            "st 0 SeqCst Device",
            "st 0 Release Device",
        ]
    );
    assert!(
        matches!(&b[4], ClStmt::PlainStore { loc, value } if loc == "x" && value.value == ClExpr::Const(3))
    );
    assert_eq!(
        err(&one_thread("atomic_flag_clear_explicit(x, memory_order_acquire);")),
        "4:31: `memory_order_acquire` is not an order for a store: expected memory_order_relaxed, memory_order_release or memory_order_seq_cst"
    );
}

#[test]
fn every_fetch_operation() {
    let ops = ["add", "sub", "or", "xor", "and", "min", "max"];
    let src: String = ops
        .iter()
        .map(|o| format!("atomic_fetch_{o}(x, 1); atomic_fetch_{o}_explicit(x, 1, memory_order_release, memory_scope_work_item);\n"))
        .collect();
    let got: Vec<(Option<ArithOp>, MemOrder, ClScope)> = body(&src)
        .iter()
        .map(|s| match mem(s) {
            ClMemOp::Rmw {
                op, order, scope, ..
            } => (*op, *order, *scope),
            m => panic!("{m:?}"),
        })
        .collect();
    let expected_ops = [
        ArithOp::Add,
        ArithOp::Sub,
        ArithOp::Or,
        ArithOp::Xor,
        ArithOp::And,
        ArithOp::Min,
        ArithOp::Max,
    ];
    let expected: Vec<_> = expected_ops
        .iter()
        .flat_map(|&o| {
            [
                (Some(o), MemOrder::SeqCst, ClScope::Device),
                (Some(o), MemOrder::Release, ClScope::WorkItem),
            ]
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn compare_exchange_forms() {
    let b = body(
        "int r0 = atomic_compare_exchange_strong(x, &r1, 2);
         int r2 = atomic_compare_exchange_weak_explicit(x, 0, r0 + 1, memory_order_acquire, memory_order_relaxed, memory_scope_work_group);
         atomic_compare_exchange_strong_explicit(x, &r3, 1, memory_order_seq_cst, memory_order_seq_cst);",
    );
    match mem(&b[0]) {
        ClMemOp::Cas {
            weak,
            expected,
            success,
            failure,
            scope,
            ..
        } => {
            assert!(!weak);
            assert_eq!(expected, &ClExpected::Pointer(1));
            assert_eq!(
                (*success, *failure, *scope),
                (MemOrder::SeqCst, MemOrder::SeqCst, ClScope::Device)
            );
        }
        m => panic!("{m:?}"),
    }
    match mem(&b[1]) {
        ClMemOp::Cas {
            weak,
            expected: ClExpected::Value(v),
            desired,
            success,
            failure,
            scope,
            ..
        } => {
            assert!(weak);
            assert_eq!(show(&v.value), "0");
            assert_eq!(show(&desired.value), "(Add r0 1)");
            assert_eq!(
                (*success, *failure, *scope),
                (MemOrder::Acquire, MemOrder::Relaxed, ClScope::WorkGroup)
            );
        }
        m => panic!("{m:?}"),
    }
    assert!(matches!(b[2], ClStmt::Expr(_)));
}

#[test]
fn fences_with_each_flag_and_barriers_with_labels() {
    let b = body(
        "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
         atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
         atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_item);
         barrier(CLK_LOCAL_MEM_FENCE);
         B1: barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
         work_group_barrier(0);
         B2 : work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);",
    );
    let f = |g, l| FenceFlags {
        global: g,
        local: l,
    };
    assert_eq!(
        &b[..3],
        [
            ClStmt::Fence {
                flags: f(true, false),
                order: MemOrder::Release,
                scope: ClScope::Device
            },
            ClStmt::Fence {
                flags: f(false, true),
                order: MemOrder::Acquire,
                scope: ClScope::WorkGroup
            },
            ClStmt::Fence {
                flags: f(true, true),
                order: MemOrder::SeqCst,
                scope: ClScope::WorkItem
            },
        ]
    );
    // OpenCL 1.x fences: work-group scope, acq_rel / acquire / release.
    let legacy = body(
        "mem_fence(CLK_GLOBAL_MEM_FENCE);
         read_mem_fence(CLK_LOCAL_MEM_FENCE);
         write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);",
    );
    assert_eq!(
        legacy,
        [
            ClStmt::Fence {
                flags: f(true, false),
                order: MemOrder::AcqRel,
                scope: ClScope::WorkGroup
            },
            ClStmt::Fence {
                flags: f(false, true),
                order: MemOrder::Acquire,
                scope: ClScope::WorkGroup
            },
            ClStmt::Fence {
                flags: f(true, true),
                order: MemOrder::Release,
                scope: ClScope::WorkGroup
            },
        ]
    );
    let barrier = |label: Option<&str>, flags, scope| ClStmt::Barrier {
        label: label.map(String::from),
        flags,
        scope,
    };
    assert_eq!(
        &b[3..],
        [
            barrier(None, f(false, true), ClScope::WorkGroup),
            barrier(Some("B1"), f(true, true), ClScope::WorkGroup),
            barrier(None, f(false, false), ClScope::WorkGroup),
            barrier(Some("B2"), f(true, false), ClScope::Device),
        ]
    );
    // A labelled barrier's span starts at the label.
    let src = one_thread("B1: barrier(CLK_LOCAL_MEM_FENCE);");
    let s = parse(&src).threads[0].body[0].span;
    assert_eq!(
        &src[s.offset..s.offset + s.len],
        "B1: barrier(CLK_LOCAL_MEM_FENCE);"
    );
}

#[test]
fn expressions_follow_c_precedence() {
    let cases = [
        ("1 + 2 * r3", "(Add 1 (Mul 2 r3))"),
        ("(1 + 2) * r3", "(Mul (Add 1 2) r3)"),
        ("r1 - 1 - 2", "(Sub (Sub r1 1) 2)"),
        ("-r1", "(Sub 0 r1)"),
        ("-5 / 2", "(Div -5 2)"),
        (
            "r1 == 1 && r2 != 0 || !r3",
            "(|| (&& (Eq r1 1) (Ne r2 0)) !r3)",
        ),
        ("r1 | r2 ^ r3 & 4", "(Or r1 (Xor r2 (And r3 4)))"),
        ("r1 < 2 == r2 >= 3", "(Eq (Lt r1 2) (Ge r2 3))"),
        ("r1 <= 2 > 0", "(Gt (Le r1 2) 0)"),
        ("*y + atomic_load(x)", "(Add PlainLoad Load)"),
    ];
    for (text, tree) in cases {
        let b = body(&format!("int r9 = {text};"));
        let (reg, e) = assigned(&b[0]);
        assert_eq!(reg, 9);
        assert_eq!(show(e), tree, "{text}");
    }
}

#[test]
fn declarations_assignments_and_control_flow() {
    let b = body(
        "int r0, r1 = 2;
         unsigned int r2 = r1;
         r0 = r1 + 1;
         if (r0 == 3) { *y = 1; } else if (r0) *y = 2; else { ; }
         if (!r1) *y = 3;
         while (atomic_load_explicit(x, memory_order_acquire) == 0) ;
         while (r0 < 5) { r0 = r0 + 1; }
         { r1 = 0; }",
    );
    assert_eq!(b[0], ClStmt::Declare { reg: 0 });
    assert_eq!(assigned(&b[1]), (1, &ClExpr::Const(2)));
    assert_eq!(assigned(&b[2]), (2, &ClExpr::Reg(1)));
    assert!(matches!(
        &b[3],
        ClStmt::Assign {
            reg: 0,
            decl: false,
            ..
        }
    ));
    match &b[4] {
        ClStmt::If { cond, then, els } => {
            assert_eq!(show(&cond.value), "(Eq r0 3)");
            assert_eq!(then.len(), 1);
            assert!(matches!(&els[0].value, ClStmt::If { els, .. } if els.is_empty()));
        }
        s => panic!("{s:?}"),
    }
    assert!(matches!(&b[5], ClStmt::If { els, .. } if els.is_empty()));
    match &b[6] {
        ClStmt::While { cond, body } => {
            assert_eq!(show(&cond.value), "(Eq Load 0)");
            assert!(body.is_empty());
        }
        s => panic!("{s:?}"),
    }
    assert!(matches!(&b[7], ClStmt::While { body, .. } if body.len() == 1));
    // The block `{ r1 = 0; }` is flattened into the body.
    assert!(matches!(&b[8], ClStmt::Assign { reg: 1, .. }));
    assert_eq!(b.len(), 9);
}

#[test]
fn compound_assignments_increments_and_for_loops() {
    let b = body(
        "int r0 = 1;
         r0 += 2; r0 -= 1; r0 *= 3; r0 /= 2; r0 &= 7; r0 |= 8; r0 ^= 1; r0++; r0--;
         for (int r3 = 0; r3 < 2; r3++) { *y = r3; }
         for (r3 = 5; ; ) barrier(0);",
    );
    let shown: Vec<String> = b[1..10]
        .iter()
        .map(|s| {
            let (r, e) = assigned(s);
            format!("r{r}={}", show(e))
        })
        .collect();
    assert_eq!(
        shown,
        [
            "r0=(Add r0 2)",
            "r0=(Sub r0 1)",
            "r0=(Mul r0 3)",
            "r0=(Div r0 2)",
            "r0=(And r0 7)",
            "r0=(Or r0 8)",
            "r0=(Xor r0 1)",
            "r0=(Add r0 1)",
            "r0=(Sub r0 1)",
        ]
    );
    // for (INIT; COND; STEP) BODY = INIT; while (COND) { BODY STEP }
    assert_eq!(assigned(&b[10]), (3, &ClExpr::Const(0)));
    match &b[11] {
        ClStmt::While { cond, body } => {
            assert_eq!(show(&cond.value), "(Lt r3 2)");
            assert!(matches!(body[0].value, ClStmt::PlainStore { .. }));
            let (r, e) = assigned(&body[1].value);
            assert_eq!(format!("r{r}={}", show(e)), "r3=(Add r3 1)");
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(assigned(&b[12]), (3, &ClExpr::Const(5)));
    match &b[13] {
        ClStmt::While { cond, body } => {
            assert_eq!(show(&cond.value), "1");
            assert_eq!(body.len(), 1);
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(
        err(&one_thread("for (r0 = 0; r0 < 2; r0 == 1) ;")),
        "4:25: unexpected `=` after `r0`: expected `=`, `+=`, `-=`, `++` or another assignment"
    );
}

#[test]
fn named_local_variables() {
    let src = format!(
        "{}exists (0:flag = 1 /\\ P0:tmp != 0 /\\ 0:r3 = 2)",
        one_thread(
            "int flag = atomic_load(x);
             int tmp, r3 = 2;
             tmp = flag + 1;
             tmp += 1;
             for (int i = 0; i < 2; i++) ;
             atomic_compare_exchange_strong(x, &tmp, 1);"
        )
    );
    let t = parse(&src);
    let th = &t.threads[0];
    assert_eq!(
        th.var_names,
        [
            ("flag".to_string(), 512),
            ("tmp".to_string(), 513),
            ("i".to_string(), 514)
        ]
    );
    let b: Vec<&ClStmt> = th.body.iter().map(|s| &s.value).collect();
    assert!(matches!(
        b[0],
        ClStmt::Assign {
            reg: 512,
            decl: true,
            ..
        }
    ));
    assert_eq!(b[1], &ClStmt::Declare { reg: 513 });
    let (r, e) = assigned(b[3]);
    assert_eq!((r, show(e)), (513, "(Add r512 1)".to_string()));
    let (r, e) = assigned(b[4]);
    assert_eq!((r, show(e)), (513, "(Add r513 1)".to_string()));
    assert_eq!(assigned(b[5]), (514, &ClExpr::Const(0)));
    assert!(matches!(b[6], ClStmt::While { .. }));
    assert!(matches!(
        mem(b[7]),
        ClMemOp::Cas {
            expected: ClExpected::Pointer(513),
            ..
        }
    ));
    let c = t.condition.expect("condition");
    // The condition names the variables; the printed form keeps the names.
    assert_eq!(c.text, "(0:flag=1 /\\ 0:tmp!=0 /\\ 0:r3=2)");
    // A name the thread does not declare is not a register.
    assert_eq!(
        err(&format!(
            "{}exists (0:nope = 1)",
            one_thread("int flag = 1;")
        )),
        "6:11: thread 0 has no variable `nope`: expected a register `rK` or one of its variables (flag)"
    );
}

/// `0:x` for a kernel parameter `x` (Dat3M's barrier_example writes it) names a
/// location, not a register: the error says so rather than asking for `rK` (issue 33);
/// another thread's variable is named with its thread.
#[test]
fn a_condition_naming_a_location_or_another_threads_variable_as_a_register_is_told_what_it_is() {
    assert_eq!(
        err(&format!("{}exists (0:x = 1)", one_thread("int flag = 1;"))),
        "6:11: `x` is a location (a kernel parameter of P0), not a register of thread 0: a condition names a location alone, `x`"
    );
    let two = "OPENCL t\n{ }\nP0@wg 0, dev 0 (global atomic_int* x) {\nint a = 1;\n}\nP1@wg 0, dev 0 (global atomic_int* y) {\nint b = 2;\n}\n";
    assert_eq!(
        err(&format!("{two}exists (0:b = 2)")),
        "9:11: `b` is a variable of thread 1, not of thread 0: expected `1:b`, a register `rK` or a variable thread 0 declares"
    );
    assert_eq!(
        err(&format!("{two}exists (0:y = 2)")),
        "9:11: `y` is a location, not a register of thread 0: a condition names a location alone, `y`"
    );
    // Registers and the thread's own variables are still read.
    parse(&format!(
        "{two}exists (0:a = 1 /\\ 1:b = 2 /\\ 0:r0 = 0 /\\ x = 0)"
    ));
}

#[test]
fn conditions_locations_and_filter_as_herd_writes_them() {
    let src = format!(
        "{}locations [x; 0:r0;]\nfilter 0:r0 = 0\n~exists (0:r0=1 \\/ ~(x=2) /\\ P0:r0 != 3)",
        one_thread("int r0 = atomic_load(x);")
    );
    let t = parse(&src);
    assert_eq!(t.locations.len(), 2);
    assert!(t.filter.is_some());
    let c = t.condition.expect("condition");
    assert_eq!(c.quantifier, Quantifier::NotExists);
    assert_eq!(c.text, "(0:r0=1 \\/ ~x=2 /\\ 0:r0!=3)");
    let t = parse(&format!("{}forall (0:r0 = 0)", one_thread("int r0 = *y;")));
    assert_eq!(t.condition.map(|c| c.quantifier), Some(Quantifier::Forall));
}

#[test]
fn dialects_are_told_apart_by_the_header() {
    assert!(is_opencl(MP));
    assert!(is_opencl("// c\n(* h *)\n\u{feff}OpenCL t"));
    assert!(!is_opencl("VULKAN t {}"));
    assert!(!is_opencl("OPENCLX t"));
}

/// Each (got, want) pair agrees; the message lists every one that does not.
fn assert_cases(cases: &[(String, &str)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(got, want)| got != want)
        .map(|(got, want)| format!("got  {got}\nwant {want}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Malformed inputs: the exact message and position.
#[test]
fn errors_name_the_offending_text_and_what_was_expected() {
    let t = |body: &str| err(&one_thread(body));
    let cases: Vec<(String, &str)> = vec![
        (err("VULKAN t {}"), "1:1: unknown language `VULKAN`: expected `OPENCL`, `OpenCL` or `opencl` and the test name"),
        (err("OPENCL\n{}"), "1:7: missing test name: expected `OPENCL NAME` on the first line"),
        (err("OPENCL t \"no init\""), "1:19: unexpected end of input after the description: expected the init block `{ ... }`"),
        (err("OPENCL t { [x = 0; }"), "1:15: unexpected `=` after `[x`: expected `]`"),
        (err("OPENCL t { x = 0; x = 1; }\nP0 () {}"), "1:19: second init value for `x` (the first is at 1:12): expected one value per location or register"),
        (err("OPENCL t { r0 = 1; }"), "1:12: register `r0` without a thread in the init block: expected `Pn:r0 = V`"),
        (err("OPENCL t {}\nexists (x=1)"), "2:1: unexpected `exists`: expected a thread `P0@wg 0, dev 0 (...) { ... }`"),
        (err("OPENCL t {}\nP1 () {}"), "2:1: thread header `P1` out of order: expected `P0` (threads are P0, P1, ... in order)"),
        (err("OPENCL t {}\nP0@wg 0, qf 1 () {}"), "2:10: unexpected `qf` in the header of `P0`: expected `sg`, `wg` or `dev`"),
        (err("OPENCL t {}\nP0@wg 0, wg 1 () {}"), "2:10: `wg` given twice in the header of `P0`: expected each of `sg`, `wg`, `dev` at most once"),
        (err("OPENCL t {}\nP0@wg x () {}"), "2:7: unexpected `x` in the header of `P0`: expected the wg id (an integer)"),
        (err("OPENCL t {}\nP0 (global float* x) {}"), "2:12: unknown type `float` in the parameter list: expected `global` or `local`, then `int`, `atomic_int` (or uint, long, ulong, atomic_flag, ...) and `*`"),
        (err("OPENCL t {}\nP0 (global int x) {}"), "2:16: unexpected `x` after the parameter type: expected `*` (parameters are pointers)"),
        (err("OPENCL t {}\nP0 (int* x, int* x) {}"), "2:13: parameter `x` declared twice in `P0` (first at 2:5): expected distinct names"),
        (err("OPENCL t {}\nP0 (int* x; int* y) {}"), "2:11: unexpected `;` in the parameter list: expected `,` and the next parameter, or `)`"),
        (err("OPENCL t {}\nP0 (int* r1) {}"), "2:10: parameter `r1` looks like a register: expected a location name that is not `rK`"),
        (t("int r0 = atomic_load(z);"), "4:22: `z` is not a parameter of P0: expected one of x, y"),
        (t("int r0 = atomic_lod(x);"), "4:10: unknown atomic function `atomic_lod`: expected atomic_load, atomic_store, atomic_exchange, atomic_fetch_{add,sub,or,xor,and,min,max}, atomic_compare_exchange_{strong,weak} or atomic_flag_{test_and_set,clear}, each also `_explicit`"),
        (t("int r0 = atomic_load(x, memory_order_acquire);"), "4:25: `atomic_load` takes 1 argument, found 2: expected `atomic_load(x)`"),
        (t("int r0 = atomic_load_explicit(x);"), "4:32: `atomic_load_explicit` takes 2 or 3 arguments, found 1: expected `atomic_load_explicit(x, ORDER[, SCOPE])`"),
        (t("int r0 = atomic_load_explicit(x, memory_order_release);"), "4:34: `memory_order_release` is not an order for a load: expected memory_order_relaxed, memory_order_acquire or memory_order_seq_cst"),
        (t("atomic_store_explicit(x, 1, memory_order_acq_rel);"), "4:29: `memory_order_acq_rel` is not an order for a store: expected memory_order_relaxed, memory_order_release or memory_order_seq_cst"),
        (t("atomic_store_explicit(x, 1, memory_order_rlx);"), "4:29: unknown memory order `memory_order_rlx`: expected memory_order_relaxed, memory_order_acquire, memory_order_release, memory_order_acq_rel or memory_order_seq_cst"),
        (t("atomic_store_explicit(x, 1, memory_order_relaxed, memory_scope_gpu);"), "4:51: unknown memory scope `memory_scope_gpu`: expected memory_scope_work_item, memory_scope_sub_group, memory_scope_work_group, memory_scope_device or memory_scope_all_svm_devices"),
        (t("atomic_compare_exchange_strong(x, &y, 1);"), "4:35: `&y` is the address of the pointer `y`: expected `y` (a parameter is already a pointer) or `&y[K]`"),
        (t("atomic_compare_exchange_strong(x, &tmp, 1);"), "4:36: unexpected `tmp` after `&`: expected a declared variable"),
        (t("atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release);"), "4:66: `atomic_work_item_fence` takes 3 arguments, found 2: expected `atomic_work_item_fence(FLAGS, ORDER, SCOPE)`"),
        (t("barrier(CLK_GLOBAL_FENCE);"), "4:9: unknown fence flag `CLK_GLOBAL_FENCE`: expected CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, both joined by `|`, or 0"),
        (t("barrier(CLK_IMAGE_MEM_FENCE);"), "4:9: `CLK_IMAGE_MEM_FENCE` is not supported (images are outside the model): expected CLK_GLOBAL_MEM_FENCE or CLK_LOCAL_MEM_FENCE"),
        (t("barrier(CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE);"), "4:29: unexpected `CLK_GLOBAL_MEM_FENCE` in the fence flags: expected `|` or the end of the argument"),
        (t("barrier(CLK_LOCAL_MEM_FENCE, memory_scope_device);"), "4:30: `barrier` takes 1 argument, found 2: expected `barrier(FLAGS)`"),
        (t("sub_group_barrier(CLK_LOCAL_MEM_FENCE);"), "4:1: `sub_group_barrier` is not supported: expected `barrier` or `work_group_barrier`"),
        (t("L1: *y = 1;"), "4:5: unexpected `*` after the label `L1:`: expected `barrier(...)` or `work_group_barrier(...)` (only barriers take labels)"),
        (t("int r0 = x;"), "4:10: `x` is a pointer: expected `*x` or `x[K]` (a plain access) or an atomic function such as `atomic_load(x)`"),
        (t("int r0 = foo;"), "4:10: unknown name `foo`: expected a declared variable, `*x`, an atomic function or an integer"),
        (t("int x = 1;"), "4:5: `x` cannot name a local variable here: expected a new name (it is a keyword, a function or a parameter)"),
        (t("int 5 = 1;"), "4:5: unexpected `5` after `int`: expected a variable name"),
        (t("tmp = 1;"), "4:1: unknown name `tmp`: expected a declared variable, `*x`, an atomic function or an integer"),
        (t("int r0 = 1"), "5:1: unexpected `}`: expected `;` or an operator"),
        (t("int r0 = (1 + 2;"), "4:16: unexpected `;`: expected `)` or an operator"),
        (t("if r0 == 1 { }"), "4:4: unexpected `r0` after `if`: expected `(`"),
        (t("while (r0 < 1 { }"), "4:15: unexpected `{` in the condition of `while`: expected `)` or an operator"),
        (t("else { }"), "4:1: unexpected `else`: expected a statement (`else` without `if`)"),
        (t("*y = ;"), "4:6: unexpected `;`: expected an expression: an integer, a register `rK`, `*x`, an atomic function or `(`"),
        (t("atomic_store(x, 1"), "5:1: unexpected `}` in the arguments of `atomic_store`: expected `,` or `)`"),
        (err("OPENCL t {}\nP0 () { int r0 = 1;"), "2:20: unexpected end of input: expected a statement or `}`"),
        (err("OPENCL t {}\nP0 () { /* open"), "2:9: unterminated comment `/*`: expected a matching `*/`"),
        (err("OPENCL t {}\nP0 () {} exists (r0 = 1)"), "2:18: register `r0` without a thread: expected `Pn:r0` or `n:r0`"),
    ];
    assert_cases(&cases);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("int r0 = {}1{};", "(".repeat(5000), ")".repeat(5000));
    let e = err(&one_thread(&deep));
    assert!(e.contains("nested too deeply"), "{e}");
    let chain = format!("int r0 = 1{};", " + 1".repeat(5000));
    let e = err(&one_thread(&chain));
    assert_eq!(
        e,
        "4:4012: expression too long: expected at most 1000 operators in a statement"
    );
    let ok = format!("int r0 = 1{};", " + 1".repeat(1000));
    assert_eq!(body(&ok).len(), 1);
    let blocks = format!("{}{}", "{".repeat(5000), "}".repeat(5000));
    let e = err(&one_thread(&blocks));
    assert!(e.contains("nested too deeply"), "{e}");
}

#[test]
fn too_many_threads() {
    let mut src = String::from("OPENCL t {}\n");
    for i in 0..65 {
        src.push_str(&format!("P{i} () {{}}\n"));
    }
    assert_eq!(
        err(&src),
        "66:1: too many threads: expected at most 64 (`P0` to `P63`)"
    );
}

/// The warnings of a test, as `line:column: message`.
fn warnings(src: &str) -> Vec<String> {
    parse(src)
        .warnings
        .iter()
        .map(|w| format!("{}:{}: {}", w.span.line, w.span.column, w.message))
        .collect()
}

#[test]
fn release_and_acq_rel_failure_orders_are_accepted_with_a_warning() {
    let src = one_thread(
        "int r0 = 0;\natomic_compare_exchange_strong_explicit(x, &r0, 1, memory_order_acq_rel, memory_order_release);\natomic_compare_exchange_weak_explicit(x, &r0, 1, memory_order_seq_cst, memory_order_acq_rel, memory_scope_device);",
    );
    let t = parse(&src);
    let failures: Vec<MemOrder> = t.threads[0].body[1..]
        .iter()
        .map(|s| match mem(&s.value) {
            ClMemOp::Cas { failure, .. } => *failure,
            m => panic!("{m:?}"),
        })
        .collect();
    // The AST keeps the order as written; the lowering reads it (lower_opencl.rs).
    assert_eq!(failures, [MemOrder::Release, MemOrder::AcqRel]);
    assert_eq!(
        warnings(&src),
        [
            "5:74: `memory_order_release` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `memory_order_relaxed` (a failed exchange is a load, which cannot release), as herd7 does",
            "6:72: `memory_order_acq_rel` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `memory_order_acquire` (a failed exchange is a load, which cannot release), as herd7 does",
        ]
    );
}

#[test]
fn a_pointer_as_the_expected_value_is_a_location() {
    let src = "OPENCL t { int y[2] = {1, 1}; }\nP0 (global atomic_int* x, global int* one, global int* y) {\n  int r0 = atomic_compare_exchange_strong_explicit(x, one, 2, memory_order_relaxed, memory_order_relaxed);\n  int r1 = atomic_compare_exchange_strong(x, &y[1], 2);\n  int r2 = atomic_compare_exchange_strong(x, (y + 1), 2);\n  int r3 = atomic_compare_exchange_strong(x, y[1], 2);\n}\n";
    let t = parse(src);
    let expected: Vec<String> = t.threads[0]
        .body
        .iter()
        .map(|s| match mem(&s.value) {
            ClMemOp::Cas {
                expected: ClExpected::Location(l),
                ..
            } => format!("location {}", l.value),
            ClMemOp::Cas {
                expected: ClExpected::Value(v),
                ..
            } => format!("value {}", show(&v.value)),
            m => panic!("{m:?}"),
        })
        .collect();
    // `y[1]` is a value (a plain load of the cell), as before.
    assert_eq!(
        expected,
        [
            "location one",
            "location y[1]",
            "location y[1]",
            "value PlainLoad"
        ]
    );
    // `one` is not atomic: OpenCL C accepts it, no warning.
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    let atomic = one_thread("int r0 = atomic_compare_exchange_strong(x, x, 2);");
    assert_eq!(
        warnings(&atomic),
        ["4:44: `x` as the expected value points to `x`, which P0 declares atomic: OpenCL C requires a pointer to a non-atomic type; read as herd7 does, a non-atomic read of `x` before the exchange and, if the exchange fails, a non-atomic write of the value read to `x`"]
    );
}

#[test]
fn atomic_functions_on_non_atomic_locations_warn_once_per_location() {
    let src = one_thread(
        "atomic_store(y, 1);\nint r0 = atomic_load(y);\nint r1 = atomic_load(x);\n*y = 2;",
    );
    assert_eq!(
        warnings(&src),
        ["4:14: `atomic_store` on `y`, which P0 declares with a non-atomic type: OpenCL C requires an atomic type; read as an atomic access (the operation makes an access atomic, as in herd7)"]
    );
}

#[test]
fn arrays_in_the_init_block_are_cells() {
    let t = parse("OPENCL t { atomic_int y[3] = {1, 2}; int z[2]; w[] = {4, 5,}; x; global atomic_int v; [u] = 3; }\nP0 () {}\nexists (y[2] = 0 /\\ w[1] = 5)");
    let init: Vec<String> = t
        .init
        .iter()
        .map(|d| match d {
            InitDecl::Location { name, value, .. } => format!("{name}={value}"),
            d => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(
        init,
        [
            "y[0]=1", "y[1]=2", "y[2]=0", "z[0]=0", "z[1]=0", "w[0]=4", "w[1]=5", "x=0", "v=0",
            "u=3"
        ]
    );
    assert_eq!(
        t.condition.expect("a condition").text,
        "(y[2]=0 /\\ w[1]=5)"
    );
}

#[test]
fn array_accesses_name_cells() {
    let src = "OPENCL t { int y[2] = {0, 0}; }\nP0 (global int* y, global atomic_int* x) {\n  y[1] = 1;\n  *(y + 1) = 2;\n  int r0 = y[0] + *y;\n  atomic_store(x + 0, 1);\n}\n";
    let t = parse(src);
    let b = &t.threads[0].body;
    assert!(matches!(&b[0].value, ClStmt::PlainStore { loc, .. } if loc == "y[1]"));
    assert!(matches!(&b[1].value, ClStmt::PlainStore { loc, .. } if loc == "y[1]"));
    match &b[2].value {
        ClStmt::Assign { value, .. } => match &value.value {
            ClExpr::Arith(_, a, b) => {
                assert_eq!(
                    a.value,
                    ClExpr::Mem(ClMemOp::PlainLoad { loc: "y[0]".into() })
                );
                assert_eq!(
                    b.value,
                    ClExpr::Mem(ClMemOp::PlainLoad { loc: "y[0]".into() })
                );
            }
            e => panic!("{e:?}"),
        },
        s => panic!("{s:?}"),
    }
    assert!(matches!(mem(&b[3].value), ClMemOp::Store { loc, .. } if loc == "x"));
    // The span of a statement starting with a cell covers it.
    let s = b[0].span;
    assert_eq!(&src[s.offset..s.offset + s.len], "y[1] = 1;");
}

#[test]
fn array_errors_name_the_construct() {
    let arr = |body: &str| {
        err(&format!(
            "OPENCL t {{ int y[2] = {{0, 0}}; }}\nP0 (global int* y, global int* x) {{\n  int r0 = 0;\n{body}\n}}\n"
        ))
    };
    let cases: Vec<(String, &str)> = vec![
        (arr("int r1 = y[2];"), "4:10: index 2 is outside the array `y` of 2 cells: expected 0 to 1"),
        (arr("int r1 = *(y - 1);"), "4:11: index -1 is outside the array `y` of 2 cells: expected 0 to 1"),
        (arr("int r1 = x[1];"), "4:10: `x` is not an array (the init block declares no `x[N]`): expected `x` or `*x`, or an array `int x[N] = {...}` in the init block"),
        (arr("int r1 = atomic_compare_exchange_strong(x, y + r0, 1);"), "4:44: `y + r0` as the expected value of a compare-exchange: a pointer that depends on a register is not supported there: expected a pointer with a constant address (`one`, `y + 1`), `&rK` or a value"),
        (arr("int r1 = y[r0;"), "4:14: unexpected `;` in `y[...]`: expected `]`"),
        (arr("int r1 = *(y + );"), "4:16: unexpected `)`: expected an expression: an integer, a register `rK`, `*x`, an atomic function or `(`"),
        (arr("int r1 = atomic_load(&y);"), "4:22: `&y` is the address of the pointer `y`: expected `y` (a parameter is already a pointer) or `&y[K]`"),
        (arr("int r1 = y;"), "4:10: `y` is a pointer: expected `*y` or `y[K]` (a plain access) or an atomic function such as `atomic_load(y)`"),
        (err("OPENCL t { int y[2] = {0, 0, 0}; }\nP0 () {}"), "1:30: too many values for `y[2]`: expected at most 2"),
        (err("OPENCL t { int y[0]; }\nP0 () {}"), "1:18: array `y` of 0 cells: expected 1 to 1024"),
        (err("OPENCL t { int y[]; }\nP0 () {}"), "1:16: array `y[]` without values: expected its length `y[N]` or its values `{V, ...}`"),
        (err("OPENCL t { int y[2] = {0 0}; }\nP0 () {}"), "1:26: unexpected `0` in the values of `y`: expected `,` or `}`"),
        (err("OPENCL t { int y[2]; y = 1; }\nP0 () {}"), "1:22: second init value for `y` (the first is at 1:16): expected one value per location or register"),
        (err("OPENCL t { int y[2]; }\nP0 () {}\nexists (y = 1)"), "3:11: unexpected `=` after the array `y`: expected `[`: `y` is an array, expected a cell `y[0]` to `y[1]`"),
        (err("OPENCL t { int y[2]; }\nP0 () {}\nexists (y[2] = 1)"), "3:11: index 2 is outside the array `y` of 2 cells: expected a cell `y[0]` to `y[1]`"),
    ];
    assert_cases(&cases);
}

#[test]
fn pointers_nest_parentheses_without_recursion() {
    let deep = format!(
        "int r0 = atomic_load({}x{});",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(matches!(mem(&body(&deep)[0]), ClMemOp::Load { loc, .. } if loc == "x"));
    let src = "OPENCL t { int y[3]; }\nP0 (global int* y) {\n  int r0 = *(((y + 1)) + 1);\n}\n";
    assert!(
        matches!(mem(&parse(src).threads[0].body[0].value), ClMemOp::PlainLoad { loc } if loc == "y[2]")
    );
}

#[test]
fn the_memory_map_follows_the_scope_tree() {
    let t = parse("OPENCL t {}\nP0 (int* x, int* y) {}\nscopeTree (device (work_group P0))\nx: local; y :global\nexists (x = 0)");
    let map: Vec<(String, AddrSpace)> = t.memory_map.iter().map(|e| e.value.clone()).collect();
    assert_eq!(
        map,
        [
            ("x".to_string(), AddrSpace::Local),
            ("y".to_string(), AddrSpace::Global)
        ]
    );
    assert_eq!(t.condition.expect("a condition").text, "(x=0)");
    assert_eq!(
        err("OPENCL t {}\nP0 (int* x) {}\nx: shared\nexists (x = 0)"),
        "3:4: unknown memory region `shared` for `x` in the memory map: expected `global` or `local`"
    );
    assert_eq!(
        err("OPENCL t {}\nP0 (int* x) {}\nx: local, x: global"),
        "3:11: `x` is twice in the memory map (first at 3:1): expected one region per location"
    );
}

#[test]
fn more_location_types() {
    let t = parse("OPENCL t { global atomic_uint x = 0; char c = 0; }\nP0 (global atomic_flag* l, global char* c, local ushort* s, global atomic_size_t* z, global bool* b) {\n  size_t n = *c;\n  bool f = *b;\n  short s2 = *s;\n}\n");
    let p = &t.threads[0].params;
    let atomic: Vec<bool> = p.iter().map(|p| p.atomic).collect();
    assert_eq!(atomic, [true, false, false, true, false]);
    assert_eq!(t.threads[0].var_names.len(), 3);
}

#[test]
fn parameters_record_whether_they_write_an_address_space() {
    let t = parse("OPENCL t {}\nP0 (int* x, global int* y, __local int* z) {}\n");
    let given: Vec<(AddrSpace, bool)> = t.threads[0]
        .params
        .iter()
        .map(|p| (p.space, p.space_given))
        .collect();
    assert_eq!(
        given,
        [
            (AddrSpace::Global, false),
            (AddrSpace::Global, true),
            (AddrSpace::Local, true)
        ]
    );
}

#[test]
fn remote_scopes_are_refused_by_name() {
    assert_eq!(
        err(&one_thread("atomic_store_explicit(x, 1, memory_order_release, memory_scope_work_group_remote);")),
        "4:51: `memory_scope_work_group_remote`: remote-scope promotion is not modelled (seed 004 has no remote scopes): expected memory_scope_work_item, memory_scope_sub_group, memory_scope_work_group, memory_scope_device or memory_scope_all_svm_devices"
    );
}
