//! Tests of `parse_litmus` against docs/litmus-format.md.

use vkherd_dialects::vulkan::ast::*;
use vkherd_dialects::vulkan::parse_litmus;
use vkherd_litmus::Diagnostic;

fn parse(src: &str) -> LitmusTest {
    match parse_litmus(src) {
        Ok(t) => t,
        Err(e) => panic!("{}", e.render("test.litmus", src)),
    }
}

fn parse_err(src: &str) -> Diagnostic {
    match parse_litmus(src) {
        Ok(t) => panic!("expected an error, got {t:#?}"),
        Err(e) => e,
    }
}

/// The source text a span covers.
fn text(src: &str, span: Span) -> &str {
    &src[span.offset..span.offset + span.len]
}

/// The instructions of each thread, without spans.
fn code(t: &LitmusTest) -> Vec<Vec<Instr>> {
    t.code
        .iter()
        .map(|c| c.iter().map(|i| i.value.clone()).collect())
        .collect()
}

/// A one-thread test whose rows are `rows`.
fn one_thread(rows: &[&str]) -> String {
    let mut s = String::from("VULKAN t\n{}\n P0@sg 0, wg 0, qf 0 ;\n");
    for r in rows {
        s.push_str(&format!(" {r} ;\n"));
    }
    s
}

fn only_code(rows: &[&str]) -> Vec<Instr> {
    code(&parse(&one_thread(rows))).remove(0)
}

fn sc(n: u8) -> MemAttrs {
    MemAttrs {
        storage_class: Some(n),
        ..Default::default()
    }
}

fn atomic(scope: Scope) -> MemAttrs {
    MemAttrs {
        atomic: true,
        scope: Some(scope),
        ..sc(0)
    }
}

fn load(attrs: MemAttrs, dst: u32, loc: &str) -> Instr {
    Instr::Load {
        attrs,
        dst,
        loc: loc.into(),
    }
}

fn store(attrs: MemAttrs, loc: &str, value: Operand) -> Instr {
    Instr::Store {
        attrs,
        loc: loc.into(),
        value,
    }
}

fn reg_item(thread: usize, reg: u32) -> StateItem {
    StateItem::Reg { thread, reg }
}

const MP: &str = r#"VULKAN MP-relacq
"Free text lines in double quotes are a description."
{
  x = 0; y = 0;
  P1:r0 = 0;
  z aliases x;
}
{
  ssw 0 1;
}
 P0@sg 0, wg 0, qf 0            | P1@sg 1, wg 0, qf 0              ;
 st.av.dv.sc0 x, 1              | ld.atom.acq.wg.sc0.semsc0 r0, y  ;
 st.atom.rel.wg.sc0.semsc0 y, 1 | ld.vis.dv.sc0 r1, x              ;
locations [x; P1:r1;]
filter (P1:r0 == 1)
exists (P1:r0 == 1 /\ P1:r1 == 0)
"#;

#[test]
fn mp_relacq_parses_to_the_expected_tree() {
    let t = parse(MP);
    assert_eq!(t.name, "MP-relacq");
    assert_eq!(
        t.description,
        "\"Free text lines in double quotes are a description.\""
    );

    let init: Vec<String> = t.init.iter().map(|d| format!("{d:?}")).collect();
    assert_eq!(init.len(), 4);
    assert!(
        matches!(&t.init[0], InitDecl::Location { name, value: 0, span } if name == "x" && text(MP, *span) == "x = 0")
    );
    assert!(matches!(&t.init[1], InitDecl::Location { name, value: 0, .. } if name == "y"));
    assert!(
        matches!(&t.init[2], InitDecl::Register { thread: 1, reg: 0, value: 0, span } if text(MP, *span) == "P1:r0 = 0")
    );
    assert!(
        matches!(&t.init[3], InitDecl::Alias { alias, target, span } if alias == "z" && target == "x" && text(MP, *span) == "z aliases x")
    );

    assert_eq!(t.ssw.len(), 1);
    assert_eq!(t.ssw[0].value, (0, 1));
    assert_eq!(text(MP, t.ssw[0].span), "ssw 0 1");

    let headers: Vec<_> = t.threads.iter().map(|h| (h.id, h.sg, h.wg, h.qf)).collect();
    assert_eq!(headers, [(0, 0, 0, 0), (1, 1, 0, 0)]);
    assert_eq!(text(MP, t.threads[1].span), "P1@sg 1, wg 0, qf 0");

    let av_store = MemAttrs {
        av: true,
        scope: Some(Scope::Device),
        ..sc(0)
    };
    let rel_store = MemAttrs {
        rel: true,
        semsc: 1,
        ..atomic(Scope::Workgroup)
    };
    let acq_load = MemAttrs {
        acq: true,
        semsc: 1,
        ..atomic(Scope::Workgroup)
    };
    let vis_load = MemAttrs {
        vis: true,
        scope: Some(Scope::Device),
        ..sc(0)
    };
    assert_eq!(
        code(&t),
        [
            vec![
                store(av_store, "x", Operand::Imm(1)),
                store(rel_store, "y", Operand::Imm(1)),
            ],
            vec![load(acq_load, 0, "y"), load(vis_load, 1, "x")],
        ]
    );
    let acq = t.code[1][0].span;
    assert_eq!(text(MP, acq), "ld.atom.acq.wg.sc0.semsc0 r0, y");
    assert_eq!((acq.line, acq.column), (12, 35));

    let locs: Vec<_> = t.locations.iter().map(|l| l.value.clone()).collect();
    assert_eq!(locs, [StateItem::Loc("x".into()), reg_item(1, 1)]);
    assert_eq!(text(MP, t.locations[1].span), "P1:r1");

    let Some(Cond::Cmp {
        op: CmpOp::Eq,
        a: CondAtom::Item(a),
        b: CondAtom::Const(1),
    }) = &t.filter
    else {
        panic!("filter: {:?}", t.filter)
    };
    assert_eq!(a.value, reg_item(1, 0));
    assert_eq!(text(MP, a.span), "P1:r0");

    let c = t.condition.expect("a final condition");
    assert_eq!(c.quantifier, Quantifier::Exists);
    assert_eq!(c.text, "(1:r0=1 /\\ 1:r1=0)");
    let Cond::And(l, r) = &c.cond else {
        panic!("{:?}", c.cond)
    };
    assert!(
        matches!(&**l, Cond::Cmp { op: CmpOp::Eq, a: CondAtom::Item(i), b: CondAtom::Const(1) } if i.value == reg_item(1, 0))
    );
    assert!(
        matches!(&**r, Cond::Cmp { op: CmpOp::Eq, a: CondAtom::Item(i), b: CondAtom::Const(0) } if i.value == reg_item(1, 1))
    );
}

#[test]
fn plain_and_per_instruction_accesses() {
    let got = only_code(&[
        "ld.sc0 r0, x",
        "ld.nonpriv.sc1 r1, x",
        "ld.vis.qf.sc2 r2, x",
        "st.sc3 x, 1",
        "st.nonpriv.sc0 x, r1",
        "st.av.sg.sc0 x, -3",
    ]);
    let want = [
        load(sc(0), 0, "x"),
        load(
            MemAttrs {
                nonpriv: true,
                ..sc(1)
            },
            1,
            "x",
        ),
        load(
            MemAttrs {
                vis: true,
                scope: Some(Scope::QueueFamily),
                ..sc(2)
            },
            2,
            "x",
        ),
        store(sc(3), "x", Operand::Imm(1)),
        store(
            MemAttrs {
                nonpriv: true,
                ..sc(0)
            },
            "x",
            Operand::Reg(1),
        ),
        store(
            MemAttrs {
                av: true,
                scope: Some(Scope::Subgroup),
                ..sc(0)
            },
            "x",
            Operand::Imm(-3),
        ),
    ];
    assert_eq!(got, want);
}

#[test]
fn atomic_loads_and_stores() {
    let got = only_code(&[
        "ld.atom.qf.sc0 r0, x",
        "ld.atom.acq.wg.sc0.semsc0.semsc1.semvis r1, x",
        "st.atom.sg.sc0 x, 1",
        "st.atom.rel.dv.sc0.semsc0.semsc3.semav y, 0x10",
    ]);
    let want = [
        load(atomic(Scope::QueueFamily), 0, "x"),
        load(
            MemAttrs {
                acq: true,
                semsc: 0b11,
                semvis: true,
                ..atomic(Scope::Workgroup)
            },
            1,
            "x",
        ),
        store(atomic(Scope::Subgroup), "x", Operand::Imm(1)),
        store(
            MemAttrs {
                rel: true,
                semsc: 0b1001,
                semav: true,
                ..atomic(Scope::Device)
            },
            "y",
            Operand::Imm(16),
        ),
    ];
    assert_eq!(got, want);
}

#[test]
fn read_modify_writes_with_every_operation() {
    let got = only_code(&["rmw.atom.wg.sc0 r0, x, 1"]);
    assert_eq!(
        got,
        [Instr::Rmw {
            attrs: atomic(Scope::Workgroup),
            op: None,
            dst: 0,
            loc: "x".into(),
            value: Operand::Imm(1),
        }]
    );
    let full = only_code(&["rmw.atom.acq_rel.dv.sc1.semsc0.semav.semvis.add r1, x, r2"]);
    assert_eq!(
        full,
        [Instr::Rmw {
            attrs: MemAttrs {
                acq: true,
                rel: true,
                semsc: 1,
                semav: true,
                semvis: true,
                storage_class: Some(1),
                ..atomic(Scope::Device)
            },
            op: Some(ArithOp::Add),
            dst: 1,
            loc: "x".into(),
            value: Operand::Reg(2),
        }]
    );
    let ops = [
        ("sub", ArithOp::Sub),
        ("mul", ArithOp::Mul),
        ("div", ArithOp::Div),
        ("and", ArithOp::And),
        ("or", ArithOp::Or),
        ("xor", ArithOp::Xor),
    ];
    for (word, op) in ops {
        let got = only_code(&[&format!("rmw.atom.acq.wg.sc0.semsc0.{word} r0, x, 2")]);
        assert!(
            matches!(&got[0], Instr::Rmw { op: Some(o), attrs, .. } if *o == op && attrs.acq && !attrs.rel),
            "{word}: {got:?}"
        );
    }
}

#[test]
fn memory_barriers() {
    let got = only_code(&[
        "membar.acq.wg.semsc0",
        "membar.rel.dv.semsc0.semsc3.semav",
        "membar.acq_rel.qf.semsc1.semvis",
    ]);
    let fence = |acq, rel, scope, semsc, semav, semvis| Instr::Membar {
        attrs: MemAttrs {
            acq,
            rel,
            scope: Some(scope),
            semsc,
            semav,
            semvis,
            ..Default::default()
        },
    };
    assert_eq!(
        got,
        [
            fence(true, false, Scope::Workgroup, 1, false, false),
            fence(false, true, Scope::Device, 0b1001, true, false),
            fence(true, true, Scope::QueueFamily, 0b10, false, true),
        ]
    );
}

#[test]
fn control_barriers_with_instance_id_and_quorum() {
    let got = only_code(&[
        "cbar.acq_rel.wg.semsc0 1",
        "cbar.wg 1",
        "cbar.dv 00, 07",
        "cbar.acq_rel.dv.semsc0 1 , 2 , 3",
    ]);
    let bare = MemAttrs {
        scope: Some(Scope::Workgroup),
        ..Default::default()
    };
    let acq_rel = |scope| MemAttrs {
        acq: true,
        rel: true,
        semsc: 1,
        scope: Some(scope),
        ..Default::default()
    };
    let cbar = |attrs, instance: &str, id: Option<&str>, quorum| Instr::Cbar {
        attrs,
        instance: instance.into(),
        id: id.map(String::from),
        quorum,
    };
    assert_eq!(
        got,
        [
            cbar(acq_rel(Scope::Workgroup), "1", None, None),
            cbar(bare.clone(), "1", None, None),
            cbar(
                MemAttrs {
                    scope: Some(Scope::Device),
                    ..bare
                },
                "00",
                Some("07"),
                None
            ),
            cbar(acq_rel(Scope::Device), "1", Some("2"), Some(3)),
        ]
    );
}

#[test]
fn device_operations_arithmetic_labels_and_jumps() {
    let got = only_code(&[
        "LC00:",
        "avdevice",
        "visdevice",
        "add r0, r1, 3",
        "sub r0, r0, -1",
        "mul r1, 2, r0",
        "div r1, r1, 0x2",
        "and r2, r0, r1",
        "or r2, r2, 1",
        "xor r2, r2, r2",
        "goto LC01",
        "beq r0, 1, LC00",
        "bne r0, r1, LC01",
        "blt 0, r1, LC00",
        "bgt r0, -2, LC00",
        "ble r0, 0x0, LC00",
        "bge r2, 9, LC01",
        "LC01:",
    ]);
    let arith = |op, dst, a, b| Instr::Arith { op, dst, a, b };
    let branch = |cmp, a, b, target: &str| Instr::Branch {
        cmp,
        a,
        b,
        target: target.into(),
    };
    use Operand::{Imm, Reg};
    assert_eq!(
        got,
        [
            Instr::Label("LC00".into()),
            Instr::AvDevice,
            Instr::VisDevice,
            arith(ArithOp::Add, 0, Reg(1), Imm(3)),
            arith(ArithOp::Sub, 0, Reg(0), Imm(-1)),
            arith(ArithOp::Mul, 1, Imm(2), Reg(0)),
            arith(ArithOp::Div, 1, Reg(1), Imm(2)),
            arith(ArithOp::And, 2, Reg(0), Reg(1)),
            arith(ArithOp::Or, 2, Reg(2), Imm(1)),
            arith(ArithOp::Xor, 2, Reg(2), Reg(2)),
            Instr::Goto("LC01".into()),
            branch(CmpOp::Eq, Reg(0), Imm(1), "LC00"),
            branch(CmpOp::Ne, Reg(0), Reg(1), "LC01"),
            branch(CmpOp::Lt, Imm(0), Reg(1), "LC00"),
            branch(CmpOp::Gt, Reg(0), Imm(-2), "LC00"),
            branch(CmpOp::Le, Reg(0), Imm(0), "LC00"),
            branch(CmpOp::Ge, Reg(2), Imm(9), "LC01"),
            Instr::Label("LC01".into()),
        ]
    );
}

#[test]
fn opcode_tokens_are_a_set_in_any_order() {
    let canonical = only_code(&["ld.atom.acq.wg.sc0.semsc0.semvis r0, x"]);
    let shuffled = only_code(&["ld.semvis.sc0.semsc0.wg.acq.atom r0, x"]);
    assert_eq!(canonical, shuffled);
    let rmw = only_code(&["rmw.atom.add.dv.sc0 r0, x, 1"]);
    assert!(matches!(
        &rmw[0],
        Instr::Rmw {
            op: Some(ArithOp::Add),
            ..
        }
    ));
}

#[test]
fn instruction_spans_cover_the_instruction_text() {
    let src = one_thread(&["LC00 :", "rmw.atom.wg.sc0.xor  r0 ,x, 0x1F", "goto LC00"]);
    let t = parse(&src);
    let texts: Vec<&str> = t.code[0].iter().map(|i| text(&src, i.span)).collect();
    assert_eq!(
        texts,
        ["LC00 :", "rmw.atom.wg.sc0.xor  r0 ,x, 0x1F", "goto LC00"]
    );
    assert_eq!((t.code[0][1].span.line, t.code[0][1].span.column), (5, 2));
}

#[test]
fn comments_anywhere_are_ignored_and_spans_stay_right() {
    let src = "(* a test (* nested *) *) VULKAN t (* after the name *)\n\
               \"desc\"\n\
               { x = 0 (* é, a two-byte char *) ; (* last *) }\n\
               P0@sg 0, (* ids *) wg 0, qf 0 | P1@sg 0, wg 0, qf 0 ;\n\
               (* é *) st.sc0 x, 1 | (* empty *) ;\n\
               exists (* cond *) (x = (* here *) 1)";
    let t = parse(src);
    assert_eq!(t.name, "t");
    assert_eq!(t.description, "\"desc\"");
    assert_eq!(t.init.len(), 1);
    assert_eq!(t.code[0].len(), 1);
    assert!(t.code[1].is_empty());
    let st = t.code[0][0].span;
    assert_eq!(text(src, st), "st.sc0 x, 1");
    // Columns count characters: `(* é *) ` is 8 of them.
    assert_eq!((st.line, st.column), (5, 9));
    assert_eq!(t.condition.unwrap().text, "(x=1)");
}

#[test]
fn crlf_files_parse_like_lf_files() {
    let crlf = MP.replace('\n', "\r\n");
    let (a, b) = (parse(MP), parse(&crlf));
    assert_eq!(code(&a), code(&b));
    assert_eq!(a.description, b.description);
    assert_eq!(a.init.len(), b.init.len());
    assert_eq!(a.ssw.len(), b.ssw.len());
    assert_eq!(a.locations.len(), b.locations.len());
    assert_eq!(
        a.condition.map(|c| (c.quantifier, c.text)),
        b.condition.map(|c| (c.quantifier, c.text))
    );
    // Same lines and columns; only byte offsets differ.
    let (sa, sb) = (a.code[1][1].span, b.code[1][1].span);
    assert_eq!((sa.line, sa.column), (sb.line, sb.column));
    assert_eq!(text(&crlf, sb), "ld.vis.dv.sc0 r1, x");
}

#[test]
fn last_line_may_lack_a_newline() {
    let t = parse(MP.trim_end());
    assert_eq!(t.condition.unwrap().text, "(1:r0=1 /\\ 1:r1=0)");
    let t = parse("VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\n st.sc0 x, 1 ;");
    assert_eq!(t.code[0].len(), 1);
    assert!(t.condition.is_none());
}

#[test]
fn empty_cells_and_short_rows() {
    let src = "VULKAN t {}\n\
               P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 0 | P2@sg 0, wg 0, qf 0 ;\n\
               | st.sc0 x, 1 | ;\n\
               ld.sc0 r0, x ;\n\
               ;\n\
               | | ld.sc0 r1, x ;\n";
    let t = parse(src);
    let lens: Vec<usize> = t.code.iter().map(Vec::len).collect();
    assert_eq!(lens, [1, 1, 1]);
    assert!(matches!(t.code[0][0].value, Instr::Load { dst: 0, .. }));
    assert!(matches!(t.code[1][0].value, Instr::Store { .. }));
    assert!(matches!(t.code[2][0].value, Instr::Load { dst: 1, .. }));
}

#[test]
fn label_as_the_last_item_of_a_thread() {
    let src = "VULKAN t {}\n\
               P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 0 ;\n\
               ld.sc0 r0, x | LC00: ;\n\
               beq r0, 0, LC00 | goto LC00 ;\n\
               LC00: | LC01: ld.sc0 r0, x ;\n";
    let t = parse(src);
    assert_eq!(t.code[0].last().unwrap().value, Instr::Label("LC00".into()));
    // A label may also prefix an instruction in the same cell.
    let p1: Vec<Instr> = t.code[1].iter().map(|i| i.value.clone()).collect();
    assert_eq!(p1[2], Instr::Label("LC01".into()));
    assert!(matches!(p1[3], Instr::Load { .. }));
}

#[test]
fn final_condition_quantifiers() {
    let head = "VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\n";
    let cases = [
        ("exists x=1", Quantifier::Exists),
        ("~exists x=1", Quantifier::NotExists),
        ("~ exists x=1", Quantifier::NotExists),
        ("not exists x=1", Quantifier::NotExists),
        ("not\nexists\n(x=1)", Quantifier::NotExists),
        ("forall x=1", Quantifier::Forall),
        ("exists\n  (x=1)", Quantifier::Exists),
    ];
    for (tail, q) in cases {
        let t = parse(&format!("{head}{tail}"));
        let c = t.condition.unwrap_or_else(|| panic!("{tail}"));
        assert_eq!(c.quantifier, q, "{tail}");
        assert_eq!(c.text, "(x=1)", "{tail}");
    }
    let none = parse(&format!("{head}filter x = 1"));
    assert!(none.condition.is_none());
    assert!(none.filter.is_some());
}

#[test]
fn condition_operators_and_precedence() {
    let head = "VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\n";
    let t = parse(&format!(
        "{head}exists ~ 0:r0 == 1 /\\ P0:r1 != 2 \\/ x < 3 /\\ not y <= -4 \\/ z > 0x5 /\\ w >= 6"
    ));
    let c = t.condition.unwrap();
    assert_eq!(
        c.text,
        "(~0:r0=1 /\\ 0:r1!=2 \\/ x<3 /\\ ~y<=-4 \\/ z>5 /\\ w>=6)"
    );
    // `\/` is left-associative and binds weaker than `/\`, which binds weaker than `~`.
    let Cond::Or(left, _) = &c.cond else {
        panic!("{:?}", c.cond)
    };
    assert!(matches!(&**left, Cond::Or(..)));
    let Cond::Or(first, _) = &**left else {
        unreachable!()
    };
    assert!(matches!(&**first, Cond::And(n, _) if matches!(**n, Cond::Not(_))));

    let t = parse(&format!("{head}exists 0==0"));
    let c = t.condition.unwrap();
    assert!(matches!(
        c.cond,
        Cond::Cmp {
            op: CmpOp::Eq,
            a: CondAtom::Const(0),
            b: CondAtom::Const(0)
        }
    ));
    assert_eq!(c.text, "(0=0)");
    let t = parse(&format!("{head}forall true"));
    assert_eq!(t.condition.unwrap().cond, Cond::True);
}

#[test]
fn ordinary_words_are_locations() {
    let src = "VULKAN t\n\
               { in = 1; out = 2; data = 0; flag = 0; true = 0; not = 0; P1 = 0; exists = 0; }\n\
               P0@sg 0, wg 0, qf 0 ;\n\
               ld.sc0 r0, in ;\n\
               st.sc0 out, r0 ;\n\
               st.sc0 data, 1 ;\n\
               ld.sc0 r1, flag ;\n\
               locations [in; out; data; flag;]\n\
               exists (flag = 1 /\\ not = 0 /\\ true = 0 /\\ P1 = 0 /\\ exists = 0)";
    let t = parse(src);
    let names: Vec<_> = t
        .init
        .iter()
        .map(|d| match d {
            InitDecl::Location { name, .. } => name.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        ["in", "out", "data", "flag", "true", "not", "P1", "exists"]
    );
    assert!(matches!(&t.code[0][0].value, Instr::Load { loc, .. } if loc == "in"));
    assert!(matches!(&t.code[0][1].value, Instr::Store { loc, .. } if loc == "out"));
    assert_eq!(t.locations.len(), 4);
    assert_eq!(
        t.condition.unwrap().text,
        "(flag=1 /\\ not=0 /\\ true=0 /\\ P1=0 /\\ exists=0)"
    );
}

#[test]
fn init_block_forms_hex_and_negative_numbers() {
    let t = parse(
        "VULKAN t\n{ x=0x1f ; P1 : r0 = -7; 1:r1=0X10; y = -0x8000000000000000; z aliases x }\n\
         P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 0 ;",
    );
    let got: Vec<String> = t
        .init
        .iter()
        .map(|d| match d {
            InitDecl::Location { name, value, .. } => format!("{name}={value}"),
            InitDecl::Register {
                thread, reg, value, ..
            } => format!("{thread}:r{reg}={value}"),
            InitDecl::Alias { alias, target, .. } => format!("{alias}->{target}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "x=31",
            "1:r0=-7",
            "1:r1=16",
            "y=-9223372036854775808",
            "z->x"
        ]
    );
    let empty = parse("VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;");
    assert!(empty.init.is_empty() && empty.ssw.is_empty());
}

#[test]
fn ssw_block() {
    let t = parse("VULKAN t {x=0}\n{ ssw 0 1; ssw 1 2 }\n P0@sg 0, wg 0, qf 0 ;");
    let pairs: Vec<_> = t.ssw.iter().map(|s| s.value).collect();
    assert_eq!(pairs, [(0, 1), (1, 2)]);
    assert_eq!((t.ssw[1].span.line, t.ssw[1].span.column), (2, 12));
}

#[test]
fn description_spans_lines_and_keeps_quotes() {
    let t =
        parse("Vulkan SB+x \"first \"quoted\" line\n  second line\"\n{}\n P0@sg 0, wg 0, qf 0 ;");
    assert_eq!(t.name, "SB+x");
    assert_eq!(t.description, "\"first \"quoted\" line\n  second line\"");
    let t = parse("vulkan t\n{}\n P0@sg 2, wg 3, qf 4 ;");
    assert_eq!(t.description, "");
    assert_eq!(
        (t.threads[0].sg, t.threads[0].wg, t.threads[0].qf),
        (2, 3, 4)
    );
}

#[test]
fn locations_forms() {
    let head = "VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\n";
    let t = parse(&format!("{head}locations [x; 0:r1; P0 : r2]"));
    let items: Vec<_> = t.locations.iter().map(|l| l.value.clone()).collect();
    assert_eq!(
        items,
        [StateItem::Loc("x".into()), reg_item(0, 1), reg_item(0, 2)]
    );
    assert!(parse(&format!("{head}locations []")).locations.is_empty());
}

// ---------------------------------------------------------------------------------------
// Malformed inputs: the first problem, its line:column, and what the message says.

fn assert_error(src: &str, line: u32, column: u32, fragment: &str) {
    let e = parse_err(src);
    assert_eq!(
        (e.span.line, e.span.column),
        (line, column),
        "wrong place for: {}",
        e.message
    );
    assert!(
        e.message.contains(fragment),
        "message `{}` lacks `{fragment}`",
        e.message
    );
}

const T2: &str = "VULKAN t\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 0, qf 0 ;\n";

#[test]
fn error_empty_file_points_at_the_end() {
    let e = parse_err("  \n");
    assert_eq!((e.span.line, e.span.column, e.span.len), (2, 1, 0));
    assert!(e.message.contains("expected the header `VULKAN NAME`"));
}

#[test]
fn error_wrong_language_word() {
    assert_error("X86 SB\n{}", 1, 1, "unknown language `X86`");
}

#[test]
fn error_missing_test_name() {
    assert_error("VULKAN\n{}", 1, 7, "missing test name");
}

#[test]
fn error_missing_init_block_at_end_of_input() {
    let e = parse_err("VULKAN t \"desc\"");
    assert_eq!(
        (e.span.line, e.span.column, e.span.len, e.span.offset),
        (1, 16, 0, 15)
    );
    assert!(e.message.contains("expected the init block"));
}

#[test]
fn error_init_declarations_without_separator() {
    assert_error(
        "VULKAN t\n{ x = 0 y = 0 }",
        2,
        9,
        "unexpected `y` in the init block: expected `;` or `}`",
    );
}

#[test]
fn error_register_without_thread_in_init() {
    assert_error(
        "VULKAN t\n{ r0 = 1 }",
        2,
        3,
        "register `r0` without a thread",
    );
}

#[test]
fn error_bad_init_value() {
    assert_error(
        "VULKAN t\n{ x = y }",
        2,
        7,
        "unexpected `y` as the value of `x`: expected an integer",
    );
}

#[test]
fn error_integer_out_of_range() {
    assert_error(
        "VULKAN t\n{ x = 0x8000000000000000 }",
        2,
        7,
        "integer `0x8000000000000000` out of range",
    );
}

#[test]
fn error_duplicate_init() {
    assert_error(
        "VULKAN t\n{ P0:r0 = 0; x = 1;\n 0:r0 = 2 }",
        3,
        2,
        "second init value for `0:r0` (the first is at 2:3)",
    );
}

#[test]
fn error_ssw_in_the_init_block() {
    assert_error(
        "VULKAN t\n{ ssw 0 1 }",
        2,
        7,
        "`ssw i j` goes in a second block",
    );
}

#[test]
fn error_bad_ssw_block() {
    assert_error(
        "VULKAN t\n{}\n{ ssw 0 x }",
        3,
        9,
        "expected a thread number",
    );
}

#[test]
fn error_thread_headers_out_of_order() {
    assert_error(
        "VULKAN t {}\n P0@sg 0, wg 0, qf 0 | P2@sg 0, wg 0, qf 0 ;",
        2,
        24,
        "thread header `P2` out of order: expected `P1`",
    );
}

#[test]
fn error_thread_header_missing_field() {
    assert_error(
        "VULKAN t {}\n P0@sg 0, qf 0 ;",
        2,
        11,
        "unexpected `qf` in the header of `P0`: expected `wg`",
    );
}

#[test]
fn error_row_wider_than_the_header() {
    let src = format!("{T2} ld.sc0 r0, x | st.sc0 x, 1 | ;\n");
    assert_error(
        &src,
        4,
        29,
        "too many cells in this row: the header has 2 threads",
    );
}

#[test]
fn error_row_without_semicolon() {
    let src = format!("{T2} ld.sc0 r0, x | st.sc0 x, 1\nexists x=1");
    assert_error(
        &src,
        5,
        1,
        "unexpected `exists` after `st.sc0 x, 1`: expected `|` (next cell) or `;`",
    );
}

#[test]
fn error_unknown_instruction_mentions_conditions_in_first_column() {
    let src = format!("{T2}exist (x = 1)\n");
    assert_error(&src, 4, 1, "unknown instruction `exist`");
    assert_error(&src, 4, 1, "or after the table `locations`");
}

#[test]
fn error_unknown_opcode_token_lists_the_expected_ones() {
    let src = format!("{T2} ld.atom.wq.sc0 r0, x | ;\n");
    assert_error(
        &src,
        4,
        10,
        "unknown token `wq` in `ld.atom.wq.sc0`: expected one of `atom`",
    );
}

#[test]
fn error_two_scopes() {
    let src = format!("{T2} | st.atom.wg.dv.sc0 x, 1 ;\n");
    assert_error(&src, 4, 15, "second scope `dv`");
}

#[test]
fn error_duplicate_token() {
    let src = format!("{T2} ld.atom.atom.wg.sc0 r0, x ;\n");
    assert_error(&src, 4, 10, "duplicate token `atom`");
}

#[test]
fn error_av_on_a_load_names_the_token() {
    let src = format!("{T2} ld.av.dv.sc0 r0, x ;\n");
    assert_error(&src, 4, 5, "`av` on a load");
}

#[test]
fn error_acquire_on_a_store_spans_the_opcode() {
    let src = format!("{T2} st.atom.acq.wg.sc0.semsc0 x, 1 ;\n");
    let e = parse_err(&src);
    assert_eq!((e.span.line, e.span.column, e.span.len), (4, 2, 25));
    assert!(e
        .message
        .contains("`st.atom.acq.wg.sc0.semsc0`: acquire on a store"));
}

#[test]
fn error_missing_semsc_and_missing_storage_class() {
    let src = format!("{T2} ld.atom.acq.wg.sc0 r0, x ;\n");
    assert_error(&src, 4, 2, "without storage-class semantics");
    let src = format!("{T2} st.atom.wg x, 1 ;\n");
    assert_error(&src, 4, 2, "without a storage class");
    let src = format!("{T2} membar.wg.semsc0 ;\n");
    assert_error(&src, 4, 2, "memory barrier without semantics");
}

#[test]
fn error_attribute_problem_reported_before_operand_problem() {
    let src = format!("{T2} ld.atom.wg r0, 5 ;\n");
    assert_error(&src, 4, 2, "without a storage class");
}

#[test]
fn error_register_where_a_location_is_expected() {
    let src = format!("{T2} st.sc0 r0, 1 ;\n");
    assert_error(
        &src,
        4,
        9,
        "unexpected register `r0` in the operands of `st`: expected a location name",
    );
}

#[test]
fn error_missing_comma() {
    let src = format!("{T2} rmw.atom.wg.sc0 r0, x 1 ;\n");
    assert_error(
        &src,
        4,
        24,
        "unexpected `1` in the operands of `rmw`: expected `,`",
    );
}

#[test]
fn error_bad_label_and_jump_target() {
    let src = format!("{T2} L1: ;\n");
    assert_error(&src, 4, 2, "label `L1`: expected `LC` followed by digits");
    let src = format!("{T2} goto L1 ;\n");
    assert_error(
        &src,
        4,
        7,
        "expected a label `LCnn` as the target of `goto`",
    );
}

#[test]
fn error_zero_quorum() {
    let src = format!("{T2} cbar.wg 1, 2, 0 ;\n");
    assert_error(&src, 4, 16, "quorum `0`: expected an integer >= 1");
}

#[test]
fn error_unclosed_parenthesis_at_end_of_input() {
    // Reported at the `(` left open, not at the end of the file.
    let src = format!("{T2}exists (x = 1 /\\ y = 2");
    let e = parse_err(&src);
    assert_eq!((e.span.line, e.span.column, e.span.len), (4, 8, 1));
    assert!(
        e.message.contains("unclosed `(`: expected a `)`"),
        "{}",
        e.message
    );
    // Of two, the one left open.
    let src = format!("{T2}exists (x = 1 /\\ (y = 2)\n");
    let e = parse_err(&src);
    assert_eq!((e.span.line, e.span.column), (4, 8));
}

#[test]
fn error_missing_comparison_operator() {
    let src = format!("{T2}exists (x 1)");
    assert_error(
        &src,
        4,
        11,
        "unexpected `1` after `x`: expected a comparison operator",
    );
}

#[test]
fn error_register_without_thread_in_condition() {
    let src = format!("{T2}exists (r0 = 1)");
    assert_error(
        &src,
        4,
        9,
        "register `r0` without a thread: expected `Pn:r0` or `n:r0`",
    );
}

#[test]
fn error_sections_out_of_order() {
    let src = format!("{T2}filter x = 1\nlocations [x]");
    assert_error(
        &src,
        5,
        1,
        "unexpected `locations`: expected `/\\`, `\\/`, `exists`",
    );
    let src = format!("{T2}exists x = 1\nfilter x = 1");
    assert_error(
        &src,
        5,
        1,
        "unexpected `filter`: expected `/\\`, `\\/` or the end of the file",
    );
}

#[test]
fn error_not_without_exists() {
    let src = format!("{T2}not exist x = 1");
    assert_error(
        &src,
        4,
        5,
        "unexpected `exist` after `not`: expected `exists`",
    );
}

#[test]
fn error_exists_without_condition() {
    let src = format!("{T2}exists\n");
    assert_error(
        &src,
        5,
        1,
        "unexpected end of input after `exists`: expected a condition",
    );
}

#[test]
fn error_unterminated_comment() {
    let src = format!("{T2}exists x = 1 (* no end\n");
    assert_error(&src, 4, 14, "unterminated comment");
    // An earlier problem is reported first.
    let src = format!("{T2}exists x = 1 y (* no end\n");
    assert_error(&src, 4, 14, "unexpected `y`");
}

#[test]
fn error_messages_render_with_the_offending_text() {
    let src = format!("{T2} ld.atom.wq.sc0 r0, x ;\n");
    let e = parse_err(&src);
    let shown = e.render("mp.litmus", &src);
    assert!(shown.contains("--> mp.litmus:4:10"), "{shown}");
    assert!(shown.contains("         ^^\n"), "{shown}");
}

// ---------------------------------------------------------------------------------------
// Robustness: no input makes the parser panic.

#[test]
fn deep_or_long_conditions_are_errors_not_crashes() {
    let head = "VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\nexists ";
    let deep = format!("{head}{}x=1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(parse_err(&deep).message.contains("nested too deeply"));
    let nots = format!("{head}{}x=1", "~".repeat(100_000));
    assert!(parse_err(&nots).message.contains("nested too deeply"));
    let long = format!("{head}x=1{}", " /\\ x=1".repeat(100_000));
    assert!(parse_err(&long).message.contains("condition too long"));
    // Within the limits, fine.
    let ok = format!("{head}{}x=1{}", "(".repeat(50), ")".repeat(50));
    assert_eq!(parse(&ok).condition.unwrap().text, "(x=1)");
}

/// A small deterministic generator, so the test needs no extra dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize
    }
}

#[test]
fn mutated_inputs_never_panic() {
    let pieces = [
        "(*",
        "*)",
        "{",
        "}",
        "|",
        ";",
        ",",
        ":",
        "P1",
        "r0",
        "-",
        "0x",
        "99999999999999999999",
        "\r\n",
        "é",
        "~",
        "/\\",
        "\\/",
        "(",
        ")",
        "exists",
        "not",
        ".",
        "LC0:",
        "=",
        "\"",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let base: Vec<char> = MP.chars().collect();
    for _ in 0..3000 {
        let mut s: Vec<char> = base.clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = rng.next() % (s.len() + 1);
            match rng.next() % 3 {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 => {
                    let p = pieces[rng.next() % pieces.len()];
                    for (k, c) in p.chars().enumerate() {
                        s.insert(at + k, c);
                    }
                }
                _ => s.truncate(at),
            }
        }
        let src: String = s.into_iter().collect();
        if let Err(e) = parse_litmus(&src) {
            // Spans always lie within the source, on character boundaries.
            assert!(e.span.offset + e.span.len <= src.len(), "{src}");
            assert!(
                src.get(e.span.offset..e.span.offset + e.span.len).is_some(),
                "{src}"
            );
            let _ = e.render("fuzz", &src);
        }
    }
}
