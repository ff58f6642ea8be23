//! The cat front end: grammar, precedence, types, errors with carets, and what the
//! compiler makes of the Vulkan model (staging, sharing, factoring, which checks cut).

use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_cat::ast::{BinOp, ExprKind, PostOp, Stmt};
use vkherd_cat::ir::Op;
use vkherd_cat::parse::parse_cat;
use vkherd_cat::{Model, Source, Stage};

fn compile(text: &str) -> Result<Model, String> {
    Model::compile(
        Source {
            name: "m.cat".into(),
            text: Arc::from(text),
        },
        &BTreeSet::new(),
    )
    .map_err(|e| e.render())
}

fn body(text: &str) -> ExprKind {
    match &parse_cat(text).unwrap()[0] {
        Stmt::Let { bindings, .. } => bindings[0].body.kind.clone(),
        other => panic!("{other:?}"),
    }
}

fn show(e: &ExprKind) -> String {
    match e {
        ExprKind::Name(n) => n.clone(),
        ExprKind::Empty => "0".into(),
        ExprKind::Universe => "_".into(),
        ExprKind::Bin(op, a, b) => {
            let o = match op {
                BinOp::Union => "|",
                BinOp::Seq => ";",
                BinOp::Diff => "\\",
                BinOp::Inter => "&",
                BinOp::Cross => "*",
            };
            format!("({} {o} {})", show(&a.kind), show(&b.kind))
        }
        ExprKind::Post(op, a) => {
            let o = match op {
                PostOp::Plus => "+",
                PostOp::Star => "*",
                PostOp::Opt => "?",
                PostOp::Inv => "^-1",
            };
            format!("{}{o}", show(&a.kind))
        }
        ExprKind::Compl(a) => format!("~{}", show(&a.kind)),
        ExprKind::Stor(a) => format!("[{}]", show(&a.kind)),
        ExprKind::App(f, args) => format!(
            "{f}({})",
            args.iter()
                .map(|a| show(&a.kind))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::If { variant, then, els } => {
            format!("if {variant} {} {}", show(&then.kind), show(&els.kind))
        }
    }
}

#[test]
fn operators_bind_loosest_first_union_seq_diff_inter_cross() {
    assert_eq!(
        show(&body("let x = a | b ; c \\ d & e * f")),
        "(a | (b ; (c \\ (d & (e * f)))))"
    );
    assert_eq!(show(&body("let x = a ; b ; c")), "((a ; b) ; c)");
    assert_eq!(show(&body("let x = ~a+ | b^-1?")), "(~a+ | b^-1?)");
}

#[test]
fn star_is_a_product_before_an_operand_and_a_closure_otherwise() {
    assert_eq!(show(&body("let x = A * B")), "(A * B)");
    assert_eq!(show(&body("let x = r* ; s")), "(r* ; s)");
    assert_eq!(show(&body("let x = (r)*\nlet y = 0")), "r*");
    assert_eq!(show(&body("let x = [A] * [B]")), "([A] * [B])");
}

#[test]
fn comments_strings_applications_and_variants() {
    let src = "\"title\" (* a (* nested *) comment *) // line\nlet f(a, b) = a ; b\nlet x = if \"v\" then f(po, _) else 0";
    let stmts = parse_cat(src).unwrap();
    assert_eq!(stmts.len(), 2);
    match &stmts[1] {
        Stmt::Let { bindings, .. } => {
            assert_eq!(show(&bindings[0].body.kind), "if v f(po, _) 0")
        }
        _ => panic!(),
    }
}

fn err(text: &str) -> String {
    compile(text).unwrap_err()
}

#[test]
fn errors_are_located_with_a_caret_and_say_what_was_expected() {
    assert_eq!(
        err("let x = po ;\nlet y = foo | po"),
        "error: unexpected `let`: expected an expression: a name, `0`, `_`, `~`, `(` or `[`\n --> m.cat:2:1\n  |\n2 | let y = foo | po\n  | ^^^\n"
    );
    assert_eq!(
        err("let y = foo | po"),
        format!(
            "error: unknown name `foo`: expected a definition above or a base name: {} (docs/models.md)\n --> m.cat:1:9\n  |\n1 | let y = foo | po\n  |         ^^^\n",
            // The shared base names, then those the dialects register.
            vkherd_cat::base::all_bases()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    assert!(err("let y = po ; R").contains("this is a set, but `;` needs a relation"));
    assert!(err("let y = po * R")
        .contains("this is a relation, but `*` (cartesian product) needs a set"));
    assert!(err("let y = [po]").contains("this is a relation, but `[...]` needs a set"));
    assert!(err("(* open").contains("unterminated comment"));
    assert!(err("let y = \"x").contains("unterminated string"));
    assert!(err("let f(a) = a\nlet y = f(po, po)").contains("`f` takes 1 argument(s), not 2"));
    assert!(err("let f(a) = a\nlet y = f").contains("is a function of 1 argument(s)"));
    assert!(err("let y = 1").contains("the only number in cat is `0`"));
    assert!(err("include \"nope.cat\"").contains("cannot read included file `nope.cat`"));
    assert!(err("acyclic R as x").contains("needs a relation"));
    assert!(err("let rec t = po \\ t").contains("must only grow"));
    assert!(err("let as = po").contains("`as` is a keyword"));
    assert!(err("\"title\" foo").contains("expected a statement"));
    let deep = format!("let x = {}po{}", "(".repeat(300), ")".repeat(300));
    assert!(err(&deep).contains("nested more than"));
}

#[test]
fn the_vulkan_model_compiles_with_every_variant() {
    for (name, extra) in [
        ("vulkan", vec![]),
        ("vulkan-2024", vec![]),
        ("vulkan", vec!["no-chains".to_string()]),
        ("vulkan-asserts", vec![]),
    ] {
        let m = Model::bundled(name, &extra).unwrap();
        assert!(m.variants().contains("vulkan-2024") && m.variants().contains("no-chains"));
    }
    assert!(Model::bundled("nope", &[]).is_err());
}

#[test]
fn definitions_are_staged_static_per_asmo_per_candidate() {
    let m = Model::bundled("vulkan", &[]).unwrap();
    let stage = |n: &str| m.graph().stage(m.named(n).unwrap());
    for n in [
        "inscope",
        "mutordatom",
        "avvisinc",
        "posctosem",
        "AVSHADER",
        "chains",
    ] {
        assert_eq!(stage(n), Stage::Static, "{n}");
    }
    assert_eq!(stage("rs"), Stage::Asmo);
    assert_eq!(stage("hypors"), Stage::Asmo);
    for n in ["sw", "hb", "locord", "fr", "dr"] {
        assert_eq!(stage(n), Stage::Candidate, "{n}");
    }
}

#[test]
fn sw_is_factored_around_rf_and_shared_subterms_are_one_node() {
    let m = Model::bundled("vulkan", &[]).unwrap();
    let g = &m.graph();
    // sw = inscope & (release ; (rf & mutordatom) ; acquire | static cbar term)
    let Op::Inter(parts) = &g.node(m.named("sw").unwrap()).op else {
        panic!("sw is an intersection")
    };
    let union = parts
        .iter()
        .find(|&&p| g.stage(p) == Stage::Candidate)
        .unwrap();
    let Op::Union(terms) = &g.node(*union).op else {
        panic!("a union")
    };
    assert_eq!(terms.len(), 2, "four rf terms factored into one");
    let rf_terms: Vec<_> = terms
        .iter()
        .filter(|&&t| g.stage(t) == Stage::Candidate)
        .collect();
    assert_eq!(rf_terms.len(), 1);
    // Chains are left-nested pairs: ((release ; rf & mutordatom) ; acquire).
    let Op::Seq(outer) = &g.node(*rf_terms[0]).op else {
        panic!("a chain")
    };
    let Op::Seq(inner) = &g.node(outer[0]).op else {
        panic!("a chain")
    };
    let stages: Vec<Stage> = [inner[0], inner[1], outer[1]]
        .iter()
        .map(|&f| g.stage(f))
        .collect();
    assert_eq!(stages, [Stage::Asmo, Stage::Candidate, Stage::Static]);
    // The same text twice is one node.
    let m2 = compile("let a = po ; (rf & sloc)\nlet b = po ; (sloc & rf)").unwrap();
    assert_eq!(m2.named("a"), m2.named("b"));
}

/// Each check of `m` by name, and whether it may cut the search.
fn cuts(m: &Model) -> Vec<(&str, bool)> {
    m.checks()
        .iter()
        .map(|c| (c.name.as_str(), c.may_cut))
        .collect()
}

#[test]
fn checks_under_a_complement_or_difference_of_rf_do_not_cut() {
    let m = Model::bundled("vulkan", &[]).unwrap();
    let cut = cuts(&m);
    assert_eq!(
        cut,
        [
            ("consistent", true),
            ("consistent-nonatomic", true),
            ("racy", false)
        ]
    );
    let m = compile(
        "acyclic po | rf as grows\nempty po \\ rf as shrinks\nirreflexive ~rf as complement\n~empty po \\ rf as nonempty-of-shrinking\n~empty rf as nonempty-of-growing\nempty (po \\ rf^-1) \\ rf as twice",
    )
    .unwrap();
    let cut = cuts(&m);
    assert_eq!(
        cut,
        [
            ("grows", true),
            ("shrinks", false),
            ("complement", false),
            ("nonempty-of-shrinking", true),
            ("nonempty-of-growing", false),
            ("twice", false)
        ]
    );
}

/// The builtin `total-order(P, C, F)` takes three relations, unless the model defines a
/// function of that name; its check cuts when P and F grow with rf and C does not depend
/// on it (fewer orders qualify), and not when C does (a new pair of C may make one).
#[test]
fn total_order_is_a_builtin_of_three_relations_monotone_in_p_and_f() {
    assert!(err("let y = total-order(po, po)").contains("`total-order` takes three relations"));
    assert!(err("let y = total-order(po, R, po)").contains("this is a set"));
    let m = compile(
        "acyclic total-order(po | rf, po, rf^-1) as grows\nacyclic total-order(po, rf, po) as c-grows\nacyclic total-order(po, po, po \\ rf) as f-shrinks",
    )
    .unwrap();
    let cut = cuts(&m);
    assert_eq!(
        cut,
        [("grows", true), ("c-grows", false), ("f-shrinks", false)]
    );
    // A model's own function of that name is called instead.
    let own =
        compile("let total-order(a, b) = a | b\nacyclic total-order(po, po) as mine").unwrap();
    assert_eq!(own.checks().len(), 1);
    // The OpenCL model's SC check is one that cuts.
    let opencl = Model::bundled("opencl", &[]).unwrap();
    let sc = opencl.checks().iter().find(|c| c.name == "sc").unwrap();
    assert!(sc.may_cut);
}

#[test]
fn every_prefix_of_the_vulkan_model_compiles_or_fails_at_a_real_place() {
    let text = vkherd_cat::bundled_file("vulkan.cat").unwrap();
    let mut errors = 0;
    for end in (0..text.len())
        .step_by(23)
        .filter(|&e| text.is_char_boundary(e))
    {
        let prefix = &text[..end];
        match Model::compile(
            Source {
                name: "p.cat".into(),
                text: Arc::from(prefix),
            },
            &BTreeSet::new(),
        ) {
            Ok(_) => {}
            Err(e) => {
                errors += 1;
                let s = e.diagnostic.span;
                assert!(s.line >= 1 && s.column >= 1, "{e:?}");
                assert!(s.offset + s.len <= prefix.len(), "{e:?}");
                assert_eq!(vkherd_litmus::span_at(prefix, s.offset, s.len), s);
                assert!(e.render().starts_with("error: "));
            }
        }
    }
    assert!(errors > 100, "{errors}");
}

/// A model's flags as reports name them: the data race only where a bundled model's
/// descriptor declares it (`BundledModel::race_flag`), every other flag by its own name,
/// a model from a file's `racy` included.
#[test]
fn only_a_bundled_descriptor_makes_a_flag_the_data_race() {
    use vkherd_model::ModelFlag;
    let named = |n: &str| ModelFlag::Named(n.into());
    let vulkan = Model::bundled("vulkan", &[]).unwrap();
    assert_eq!(vulkan.flags(), [ModelFlag::DataRace]);
    // With a variant, recompiled: the same declaration.
    assert_eq!(
        vulkan.with_variant("no-chains").flags(),
        [ModelFlag::DataRace]
    );
    assert_eq!(
        Model::bundled("opencl", &[]).unwrap().flags(),
        [ModelFlag::DataRace]
    );
    assert_eq!(Model::bundled("ptx", &[]).unwrap().flags(), []);
    let asserts = Model::bundled("vulkan-asserts", &[]).unwrap().flags();
    assert_eq!(asserts[0], ModelFlag::DataRace);
    assert!(asserts[1..].contains(&named("not-locordcomplete")));
    // The same text as vulkan.cat's, from a file: its own name.
    let text = vkherd_cat::bundled_file("vulkan.cat").unwrap();
    assert_eq!(compile(text).unwrap().flags(), [named("racy")]);
    let two = compile("let co = asmo\nflag ~empty rf as b\nundefined_unless empty po as a\n");
    assert_eq!(two.unwrap().flags(), [named("b"), named("a")]);
}
