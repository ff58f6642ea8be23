//! One test per form of the grammar: what each parses into. Errors are in
//! tests/ptx_errors.rs; whole files in tests/ptx_corpus.rs.

use super::{is_ptx, parse_ptx};
use crate::ptx::ast::*;

fn parse(src: &str) -> PtxTest {
    parse_ptx(src).unwrap_or_else(|e| panic!("{}", e.render("t", src)))
}

/// The instructions of thread 0 of a one-thread test whose rows are `rows`.
fn code(rows: &str) -> Vec<PtxInstr> {
    let src = format!("PTX t\n{{ x = 0; }}\nP0@cta 0,gpu 0;\n{rows}\nexists (x = 0)");
    let t = parse(&src);
    t.code[0].iter().map(|i| i.value.clone()).collect()
}

fn one(cell: &str) -> PtxInstr {
    let c = code(&format!("{cell};"));
    assert_eq!(c.len(), 1, "{c:?}");
    c[0].clone()
}

fn loc(i: &PtxInstr) -> &str {
    match i {
        PtxInstr::Load { loc, .. }
        | PtxInstr::Store { loc, .. }
        | PtxInstr::Atom { loc, .. }
        | PtxInstr::Red { loc, .. } => &loc.value,
        _ => panic!("no location: {i:?}"),
    }
}

#[test]
fn header_name_and_description() {
    let t = parse("PTX MP+RMW\n\"a {quoted} description\"\n{ }\nP0@cta 0,gpu 0;\n");
    assert_eq!(t.name, "MP+RMW");
    assert_eq!(t.description, "\"a {quoted} description\"");
    assert!(t.condition.is_none() && t.filter.is_none() && t.locations.is_empty());
    let t = parse("\u{feff}(* c *) ptx lower{}P0@cta 0,gpu 0;");
    assert_eq!((t.name.as_str(), t.description.as_str()), ("lower", ""));
    // Unquoted text is allowed too (the grammar takes any tokens before `{`).
    assert_eq!(
        parse("PTX t\nkey = value\n{}P0@cta 0,gpu 0;").description,
        "key = value"
    );
}

#[test]
fn is_ptx_reads_the_language_word() {
    assert!(is_ptx("PTX t\n{}"));
    assert!(is_ptx("(* x *)\n  ptx t"));
    assert!(is_ptx("\u{feff} PTX t"));
    assert!(!is_ptx("VULKAN t\n{}"));
    assert!(!is_ptx("PTX2 t"));
    assert!(!is_ptx(""));
}

#[test]
fn init_every_declaration() {
    let t = parse(
        "PTX t\n{ x = 1; y=-0x10; P0:r0 = 2; 1:r3 = &x; P0:r1 = y; z = &x; w = y;\n\
         g @ generic aliases x; c @ constant aliases x; t @ texture aliases x; s @ surface aliases x };\n\
         P0@cta 0,gpu 0 | P1@cta 0,gpu 0;",
    );
    let got: Vec<String> = t
        .init
        .iter()
        .map(|d| match d {
            PtxInit::Location { name, value, .. } => format!("{name}={value}"),
            PtxInit::Register {
                thread, reg, value, ..
            } => format!("{thread}:r{reg}={value}"),
            PtxInit::RegisterAddress {
                thread,
                reg,
                target,
                ..
            } => format!("{thread}:r{reg}=&{target}"),
            PtxInit::LocationAddress { name, target, .. } => format!("{name}=&{target}"),
            PtxInit::Alias {
                name,
                proxy,
                target,
                ..
            } => format!("{name}@{proxy:?}->{target}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "x=1",
            "y=-16",
            "0:r0=2",
            "1:r3=&x",
            "0:r1=&y",
            "z=&x",
            "w=&y",
            "g@Generic->x",
            "c@Constant->x",
            "t@Texture->x",
            "s@Surface->x"
        ]
    );
    // The span covers the whole declaration.
    let PtxInit::Alias { span, .. } = &t.init[7] else {
        panic!()
    };
    assert_eq!((span.line, span.column, span.len), (3, 1, 21));
    // An empty block, and an empty first declaration (`{ ; x = 0 }`).
    assert!(parse("PTX t\n{}\nP0@cta 0,gpu 0;").init.is_empty());
    assert_eq!(parse("PTX t\n{ ; x = 0 }\nP0@cta 0,gpu 0;").init.len(), 1);
}

#[test]
fn thread_headers_place_threads() {
    let t = parse("PTX t\n{}\n P0@cta 0,gpu 0 | 1 @ cta 7 , gpu 2 | P2@cta 1, gpu 1 ;\n");
    let got: Vec<_> = t.threads.iter().map(|h| (h.id, h.cta, h.gpu)).collect();
    assert_eq!(got, [(0, 0, 0), (1, 7, 2), (2, 1, 1)]);
    assert_eq!((t.threads[1].span.column, t.threads[1].span.len), (19, 17));
    assert_eq!(t.code.len(), 3);
}

#[test]
fn loads_every_order_scope_and_proxy() {
    use LoadSem::*;
    let cases = [
        ("ld.weak r0, x", Proxy::Generic, Weak),
        (
            "ld.relaxed.cta r0, x",
            Proxy::Generic,
            Relaxed(PtxScope::Cta),
        ),
        (
            "ld.acquire.gpu r0, x",
            Proxy::Generic,
            Acquire(PtxScope::Gpu),
        ),
        (
            "ld.acquire.sys r0, x",
            Proxy::Generic,
            Acquire(PtxScope::Sys),
        ),
        ("tld.weak r0, x", Proxy::Texture, Weak),
        (
            "suld.relaxed.gpu r0, x",
            Proxy::Surface,
            Relaxed(PtxScope::Gpu),
        ),
        (
            "cold.acquire.cta r0, x",
            Proxy::Constant,
            Acquire(PtxScope::Cta),
        ),
    ];
    for (cell, proxy, sem) in cases {
        let want = PtxInstr::Load {
            proxy,
            sem,
            dst: 0,
            loc: Spanned::new("x".into(), Span::default()),
        };
        assert_eq!(strip_spans(one(cell)), want, "{cell}");
    }
}

#[test]
fn stores_every_order_and_proxy() {
    use StoreSem::*;
    let cases = [
        ("st.weak x, 1", Proxy::Generic, Weak, Value::Imm(1)),
        (
            "st.relaxed.sys x, r2",
            Proxy::Generic,
            Relaxed(PtxScope::Sys),
            Value::Reg(2),
        ),
        (
            "st.release.cta x, -3",
            Proxy::Generic,
            Release(PtxScope::Cta),
            Value::Imm(-3),
        ),
        ("sust.weak x, 0x10", Proxy::Surface, Weak, Value::Imm(16)),
        (
            "sust.release.gpu x, 2",
            Proxy::Surface,
            Release(PtxScope::Gpu),
            Value::Imm(2),
        ),
    ];
    for (cell, proxy, sem, value) in cases {
        let got = one(cell);
        assert_eq!(loc(&got), "x");
        assert!(
            matches!(got, PtxInstr::Store { proxy: p, sem: s, value: v, .. } if p == proxy && s == sem && v == value),
            "{cell}: {got:?}"
        );
    }
}

#[test]
fn moves_and_arithmetic() {
    assert_eq!(
        one("ld r0, 5"),
        PtxInstr::Move {
            dst: 0,
            value: Value::Imm(5)
        }
    );
    // Any load opcode without an order is a move (Dat3M's `localValue`).
    assert_eq!(
        one("tld r1, r0"),
        PtxInstr::Move {
            dst: 1,
            value: Value::Reg(0)
        }
    );
    for (w, op) in [
        ("add", ArithOp::Add),
        ("sub", ArithOp::Sub),
        ("mul", ArithOp::Mul),
        ("div", ArithOp::Div),
    ] {
        assert_eq!(
            one(&format!("{w} r2, r2, -1")),
            PtxInstr::Arith {
                op,
                dst: 2,
                a: Value::Reg(2),
                b: Value::Imm(-1)
            }
        );
    }
}

#[test]
fn atoms_every_operation_order_and_proxy() {
    let ops = [
        ("add", RmwOp::Add),
        ("sub", RmwOp::Sub),
        ("mul", RmwOp::Mul),
        ("div", RmwOp::Div),
        ("and", RmwOp::And),
        ("or", RmwOp::Or),
        ("xor", RmwOp::Xor),
    ];
    let orders = [
        ("relaxed", RmwOrder::Relaxed),
        ("acquire", RmwOrder::Acquire),
        ("release", RmwOrder::Release),
        ("acq_rel", RmwOrder::AcqRel),
    ];
    for (w, op) in ops {
        for (o, order) in orders {
            let got = one(&format!("atom.{o}.gpu.{w} r1, x, 2"));
            let want = PtxInstr::Atom {
                proxy: Proxy::Generic,
                order,
                scope: PtxScope::Gpu,
                op: AtomOp::Op(op),
                dst: 1,
                loc: Spanned::new("x".into(), Span::default()),
                value: Value::Imm(2),
            };
            assert_eq!(strip_spans(got), want);
        }
    }
    let got = strip_spans(one("atom.relaxed.sys.exch r0, x, r1"));
    assert!(
        matches!(
            got,
            PtxInstr::Atom {
                op: AtomOp::Exch,
                scope: PtxScope::Sys,
                value: Value::Reg(1),
                ..
            }
        ),
        "{got:?}"
    );
    let got = strip_spans(one("suatom.acq_rel.cta.cas r0, x, 0, 1"));
    assert!(
        matches!(
            got,
            PtxInstr::Atom {
                proxy: Proxy::Surface,
                op: AtomOp::Cas {
                    expected: Value::Imm(0)
                },
                value: Value::Imm(1),
                ..
            }
        ),
        "{got:?}"
    );
}

#[test]
fn reductions() {
    let got = strip_spans(one("red.acq_rel.cta.add x, 1"));
    assert_eq!(
        got,
        PtxInstr::Red {
            proxy: Proxy::Generic,
            order: RmwOrder::AcqRel,
            scope: PtxScope::Cta,
            op: RmwOp::Add,
            loc: Spanned::new("x".into(), Span::default()),
            value: Value::Imm(1)
        }
    );
    let got = strip_spans(one("sured.release.sys.xor x, r3"));
    assert!(
        matches!(
            got,
            PtxInstr::Red {
                proxy: Proxy::Surface,
                op: RmwOp::Xor,
                value: Value::Reg(3),
                ..
            }
        ),
        "{got:?}"
    );
}

#[test]
fn fences() {
    assert_eq!(
        one("fence.sc.gpu"),
        PtxInstr::Fence {
            order: FenceOrder::Sc,
            scope: PtxScope::Gpu
        }
    );
    assert_eq!(
        one("fence.acq_rel.cta"),
        PtxInstr::Fence {
            order: FenceOrder::AcqRel,
            scope: PtxScope::Cta
        }
    );
    assert_eq!(
        one("fence.sc.sys"),
        PtxInstr::Fence {
            order: FenceOrder::Sc,
            scope: PtxScope::Sys
        }
    );
    for (w, p) in [
        ("generic", Proxy::Generic),
        ("constant", Proxy::Constant),
        ("texture", Proxy::Texture),
        ("surface", Proxy::Surface),
    ] {
        assert_eq!(one(&format!("fence.proxy.{w}")), PtxInstr::ProxyFence(p));
    }
    assert_eq!(one("fence.proxy.alias"), PtxInstr::AliasFence);
}

#[test]
fn barriers_with_instance_id_and_quorum() {
    let b = |mode, instance: i64, text: &str, id, quorum| PtxInstr::Barrier {
        mode,
        instance,
        instance_text: text.to_string(),
        id,
        quorum,
    };
    use BarrierMode::*;
    assert_eq!(one("bar.cta.sync 0"), b(Sync, 0, "0", None, None));
    assert_eq!(one("bar.cta.arrive 1"), b(Arrive, 1, "1", None, None));
    assert_eq!(
        one("bar.cta.sync 1, r2"),
        b(Sync, 1, "1", Some(Value::Reg(2)), None)
    );
    assert_eq!(
        one("bar.cta.arrive 0x2, 1, r3"),
        b(Arrive, 2, "0x2", Some(Value::Imm(1)), Some(Value::Reg(3)))
    );
}

#[test]
fn branches_jumps_and_labels() {
    let c = code(
        "LC00: ;\n beq r1, 0, LC00;\n bne 1,r2,LC01;\n blt r0, r1, LC00;\n bgt r0, r1, LC00;\n\
         ble r0, r1, LC00;\n bge r0, r1, LC00;\n goto LC00;\n LC01 : ;",
    );
    let ops: Vec<_> = c
        .iter()
        .filter_map(|i| match i {
            PtxInstr::Branch { op, .. } => Some(*op),
            _ => None,
        })
        .collect();
    use CmpOp::*;
    assert_eq!(ops, [Eq, Ne, Lt, Gt, Le, Ge]);
    assert_eq!(c[0], PtxInstr::Label("LC00".into()));
    assert_eq!(c[8], PtxInstr::Label("LC01".into()));
    let PtxInstr::Branch { a, b, target, .. } = &c[2] else {
        panic!("{:?}", c[2])
    };
    assert_eq!(
        (a, b, target.value.as_str()),
        (&Value::Imm(1), &Value::Reg(2), "LC01")
    );
    assert_eq!((target.span.line, target.span.column), (6, 11));
    let PtxInstr::Goto(t) = &c[7] else {
        panic!("{:?}", c[7])
    };
    assert_eq!(t.value, "LC00");
}

#[test]
fn whitespace_and_newlines_do_not_matter() {
    // Dat3M's lexer skips blanks and newlines between any two tokens.
    let c = code("ld . acquire\n . gpu r0 ,\n x ;");
    assert!(
        matches!(
            &c[0],
            PtxInstr::Load {
                sem: LoadSem::Acquire(PtxScope::Gpu),
                ..
            }
        ),
        "{c:?}"
    );
}

#[test]
fn rows_fill_columns_and_spans_point_at_cells() {
    let src = "PTX t\n{}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1  | ;\n | ld.weak r0, x ;\n ;\n";
    let t = parse(src);
    assert_eq!((t.code[0].len(), t.code[1].len()), (1, 1));
    let s = t.code[1][0].span;
    assert_eq!((s.line, s.column, s.len), (5, 4, 13));
    let PtxInstr::Load { loc, .. } = &t.code[1][0].value else {
        panic!()
    };
    assert_eq!((loc.span.line, loc.span.column, loc.span.len), (5, 16, 1));
}

#[test]
fn launch_configurations_are_skipped() {
    let t =
        parse("PTX t \"a << b\"\n{ x = 0; }\n<<1,2>> P0@cta 0,gpu 0;\n st.weak x, 1 <<\n3>>;\n");
    assert_eq!(t.code[0].len(), 1);
    assert_eq!(t.description, "\"a << b\"");
}

fn cond_of(tail: &str) -> PtxTest {
    parse(&format!(
        "PTX t\n{{}}\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0;\n ld.weak r0, x | ;\n{tail}"
    ))
}

#[test]
fn every_quantifier_and_operator() {
    let q = |tail: &str| cond_of(tail).condition.unwrap().quantifier;
    assert_eq!(q("exists (P0:r0 == 1)"), PtxQuantifier::Exists);
    assert_eq!(q("~exists (P0:r0 = 1);"), PtxQuantifier::NotExists);
    assert_eq!(q("~ exists (P0:r0 = 1)"), PtxQuantifier::NotExists);
    assert_eq!(q("not exists (0:r0 != 1)"), PtxQuantifier::NotExists);
    assert_eq!(q("forall (x >= 1 \\/ x <= 0)"), PtxQuantifier::Forall);
    let t = cond_of(
        "exists (P0:r0 == 1 /\\ ~(x != 2) \\/ not 1 < P1:r0 /\\ x > -1 /\\ 0x1 >= x /\\ x <= 3)",
    );
    assert_eq!(
        t.condition.unwrap().text,
        "(0:r0=1 /\\ ~x!=2 \\/ ~1<1:r0 /\\ x>-1 /\\ 1>=x /\\ x<=3)"
    );
}

#[test]
fn final_with_expectations() {
    let t = cond_of(
        "final (P0:r0 == 1); with tso: exists; cc: ~exists; optic: not exists; default: exists;",
    );
    let c = t.condition.unwrap();
    assert_eq!(c.quantifier, PtxQuantifier::Final);
    let got: Vec<_> = c
        .expectations
        .iter()
        .map(|e| (e.value.model, e.value.exists))
        .collect();
    use ExpectationModel::*;
    assert_eq!(
        got,
        [(Tso, true), (Cc, false), (Optic, false), (Default, true)]
    );
    assert_eq!(c.expectations[1].span.column, 39);
}

#[test]
fn locations_and_filter() {
    let t = cond_of("locations [x; P0:r0; 1:r0;]\nfilter (x = 0);\nexists (P0:r0 = 0)");
    let items: Vec<_> = t.locations.iter().map(|l| l.value.clone()).collect();
    assert_eq!(
        items,
        [
            StateItem::Loc("x".into()),
            StateItem::Reg { thread: 0, reg: 0 },
            StateItem::Reg { thread: 1, reg: 0 }
        ]
    );
    assert!(t.filter.is_some());
    assert!(t.condition.is_some());
}

/// The instruction with its location's span zeroed, to compare with a literal.
fn strip_spans(mut i: PtxInstr) -> PtxInstr {
    match &mut i {
        PtxInstr::Load { loc, .. }
        | PtxInstr::Store { loc, .. }
        | PtxInstr::Atom { loc, .. }
        | PtxInstr::Red { loc, .. } => loc.span = Span::default(),
        _ => {}
    }
    i
}
