//! herd7's cat syntax as herd7 users write it (docs/models.md, "herd7 models"): what
//! parses and what it means, and the constructs refused by name at their place. That
//! such models give vulkan.cat's answers is checked on the corpus in
//! crates/vkherd/tests/herd7_models.rs.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use vkherd_cat::ast::Stmt;
use vkherd_cat::parse::parse_cat;
use vkherd_cat::{CatError, Construct, ErrorKind, Model, Source};

fn compile_named(name: &str, text: &str) -> Result<Model, CatError> {
    Model::compile(
        Source {
            name: name.into(),
            text: Arc::from(text),
        },
        &BTreeSet::new(),
    )
}

fn compile(text: &str) -> Model {
    compile_named("m.cat", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn error(text: &str) -> CatError {
    match compile_named("m.cat", text) {
        Ok(_) => panic!("compiled: {text}"),
        Err(e) => e,
    }
}

/// The text an error's span covers.
fn at<'a>(text: &'a str, e: &CatError) -> &'a str {
    let s = e.diagnostic.span;
    &text[s.offset..s.offset + s.len]
}

#[test]
fn a_bare_title_is_read_like_a_quoted_one() {
    for title in ["VULKAN", "\"VULKAN\"", "AArch64", ""] {
        let text = format!("{title}\nlet x = po\nacyclic x as c\n");
        let stmts = parse_cat(&text).unwrap();
        assert_eq!(stmts.len(), 2, "{title}: {stmts:?}");
        let m = compile(&text);
        assert_eq!(m.checks().len(), 1);
        assert!(m.named("x").is_some());
    }
    // Only the first word can be a title.
    let e = error("VULKAN TSO\nlet x = po");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.diagnostic.span.column, 8);
}

#[test]
fn includes_resolve_relative_to_the_including_file() {
    let dir = std::env::temp_dir().join(format!("vkherd-herd7-include-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(
        dir.join("main.cat"),
        "M\ninclude \"lib/defs.cat\"\nacyclic hb as c\n",
    )
    .unwrap();
    // Relative to lib/, not to the directory of main.cat.
    std::fs::write(
        dir.join("lib/defs.cat"),
        "include \"base.cat\"\nlet hb = base+\n",
    )
    .unwrap();
    std::fs::write(dir.join("lib/base.cat"), "let base = po | rf\n").unwrap();
    let main = dir.join("main.cat");
    let text = std::fs::read_to_string(&main).unwrap();
    let m = compile_named(&main.display().to_string(), &text)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(m.named("base").is_some() && m.named("hb").is_some());
    // An error in an included file is located in that file.
    std::fs::write(dir.join("lib/base.cat"), "let base = po | nope\n").unwrap();
    let e = compile_named(&main.display().to_string(), &text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownName);
    assert_eq!(Path::new(&e.file), dir.join("lib/base.cat"));
    assert_eq!((e.diagnostic.span.line, e.diagnostic.span.column), (1, 17));
}

#[test]
fn stdlib_cat_gives_herd7_names_in_vkherd_base_names() {
    let m = compile(
        "include \"stdlib.cat\"
         let fence = fencerel(F)
         let mine = (po & (_ * F)) ; po
         let accesses = R | W
         let same = sloc
         let other = ~sthd
         let ordered = po & sloc",
    );
    // Hash-consed: the same expression is the same node.
    for (herd7, vkherd) in [
        ("fence", "mine"),
        ("M", "accesses"),
        ("loc", "same"),
        ("ext", "other"),
        ("po-loc", "ordered"),
    ] {
        assert_eq!(m.named(herd7), m.named(vkherd), "{herd7}");
    }
    assert_eq!(m.named("int"), m.named("sthd").or(m.named("int")));
}

#[test]
fn herd7_library_files_vkherd_does_not_provide_are_refused_by_name() {
    for file in ["cos.cat", "filters.cat", "cross.cat"] {
        let text = format!("\"m\"\ninclude \"{file}\"\n");
        let e = error(&text);
        assert_eq!(e.kind, ErrorKind::Include);
        assert_eq!(at(&text, &e), format!("include \"{file}\""));
        assert!(
            e.render()
                .contains(&format!("herd7's library file `{file}` is not provided")),
            "{}",
            e.render()
        );
    }
    let e = error("include \"elsewhere.cat\"");
    assert_eq!(e.kind, ErrorKind::Include);
    assert!(e.render().contains("stdlib.cat"), "{}", e.render());
}

#[test]
fn procedures_run_their_checks_at_each_call_with_local_definitions() {
    let m = compile(
        "let base = po
         procedure ordered(r, s) =
           let both = r | s | base
           acyclic both as cycle
           flag ~empty r & s as overlap
         end
         call ordered(rf, asmo)
         call ordered(po, rf)",
    );
    let names: Vec<(&str, bool)> = m
        .checks()
        .iter()
        .map(|c| (c.name.as_str(), c.flag))
        .collect();
    assert_eq!(
        names,
        [
            ("cycle", false),
            ("overlap", true),
            ("cycle", false),
            ("overlap", true)
        ]
    );
    // Each call is its own check, on its own arguments.
    assert_ne!(m.checks()[0].node, m.checks()[2].node);
    // The procedure's `let` is local.
    assert!(m.named("both").is_none());
    assert_eq!(
        error("procedure p(r) = let local = r end\ncall p(po)\nlet x = local").kind,
        ErrorKind::UnknownName
    );
}

#[test]
fn procedure_misuse_is_a_located_error() {
    for (text, offending, kind) in [
        (
            "procedure p(r) = acyclic r end\ncall p(po, rf)",
            "call p(po, rf)",
            ErrorKind::Type,
        ),
        ("call q(po)", "call q(po)", ErrorKind::Type),
        ("let f(x) = x\ncall f(po)", "call f(po)", ErrorKind::Type),
        (
            "procedure p(r) = acyclic r end\nlet x = p",
            "p",
            ErrorKind::Type,
        ),
        ("procedure p(r) = acyclic r", "", ErrorKind::Syntax),
        (
            "procedure p(r) = include \"x.cat\" end\ncall p(po)",
            "include \"x.cat\"",
            ErrorKind::Syntax,
        ),
        // A procedure sees only what is defined before it: no recursion.
        (
            "procedure p(r) = call p(r) end\ncall p(po)",
            "call p(r)",
            ErrorKind::Type,
        ),
        (
            "procedure p(r) = acyclic r | nope end\ncall p(po)",
            "nope",
            ErrorKind::UnknownName,
        ),
    ] {
        let e = error(text);
        assert_eq!(e.kind, kind, "{text}: {}", e.render());
        assert_eq!(at(text, &e), offending, "{text}: {}", e.render());
    }
}

#[test]
fn undefined_unless_is_a_flag_raised_when_its_check_fails() {
    let m = compile(
        "undefined_unless empty rf as unread
         undefined_unless acyclic po
         flag ~empty rf as read",
    );
    let c = &m.checks();
    // Raised when `empty rf` fails, as `flag ~empty rf` is.
    assert!(c[0].flag && c[0].negated && c[0].name == "unread");
    assert_eq!(c[0].node, c[2].node);
    assert_eq!((c[0].kind, c[0].negated), (c[2].kind, c[2].negated));
    assert!(c[1].flag && c[1].negated && c[1].name == "undefined-unless-acyclic");
    // A flag never cuts the search.
    assert!(!c[0].may_cut);
}

#[test]
fn show_and_unshow_check_their_names_and_change_nothing() {
    let plain = compile("let hb = po | rf\nacyclic hb as c");
    let shown =
        compile("let hb = po | rf\nshow hb, rf\nshow hb ; hb as hb2\nunshow rf\nacyclic hb as c");
    assert_eq!(plain.definitions(), shown.definitions());
    assert_eq!(plain.checks().len(), shown.checks().len());
    let text = "show hb, nope";
    let e = error(text);
    assert_eq!(e.kind, ErrorKind::UnknownName);
    assert_eq!(at(text, &e), "hb");
}

#[test]
fn let_rec_with_and_defines_mutually_recursive_relations() {
    let m = compile("let rec even = id | odd ; po and odd = even ; po\nacyclic odd as c");
    assert!(m.named("even").is_some() && m.named("odd").is_some());
    assert_eq!(m.graph().groups().len(), 1);
    assert_eq!(m.graph().groups()[0].vars.len(), 2);
}

#[test]
fn an_unknown_name_lists_the_base_names_and_herd7_equivalents() {
    // (herd7's `loc`, `co`, `IW`... are names of Dat3M's event view: a model that reads
    // them runs there, crates/cat/tests/dat3m_models.rs.)
    let text = "let x = po-loc";
    let e = error(text);
    assert_eq!(e.kind, ErrorKind::UnknownName);
    assert_eq!(at(text, &e), "po-loc");
    let r = e.render();
    assert!(r.contains("herd7's `po-loc` is `po & sloc` here"), "{r}");
    for b in vkherd_cat::BASES {
        assert!(r.contains(b.name), "{} missing: {r}", b.name);
    }
    let e = error("let x = frob");
    assert!(!e.render().contains("herd7's"), "{}", e.render());
}

#[test]
fn unsupported_herd7_constructs_are_named_at_their_place() {
    let cases: &[(&str, &str, Construct)] = &[
        ("withco\nlet x = po", "withco", Construct::ModelOption),
        ("\"m\" withinit", "withinit", Construct::ModelOption),
        ("enum Fences = 'a || 'b", "enum", Construct::Tags),
        ("let x = match y with _ -> po end", "match", Construct::Tags),
        ("let s = { a, b }", "{", Construct::Tags),
        ("let t = 'tag", "'", Construct::Tags),
        (
            "instructions R[{'once}]",
            "instructions",
            Construct::Declaration,
        ),
        (
            "forall e in E do acyclic po end",
            "forall",
            Construct::Iteration,
        ),
        (
            "with co from generate_orders(W, sloc)",
            "with",
            Construct::Iteration,
        ),
        ("let x = try po with 0", "try", Construct::Try),
        ("let f = fun x -> x", "fun", Construct::Lambda),
        ("let (a, b) = (po, rf)", "(", Construct::Tuple),
        ("let a = (po, rf)", ",", Construct::Tuple),
        ("assert acyclic po", "assert", Construct::Statement),
        ("debug po", "debug", Construct::Statement),
        ("begin acyclic po end", "begin", Construct::Statement),
        ("let x = R ++ W", "++", Construct::Operator),
    ];
    for &(text, offending, construct) in cases {
        let e = error(text);
        assert_eq!(
            e.kind,
            ErrorKind::Unsupported(construct),
            "{text}: {}",
            e.render()
        );
        assert_eq!(at(text, &e), offending, "{text}: {}", e.render());
        assert!(
            e.render().contains("is not supported by vkherd"),
            "{}",
            e.render()
        );
        // Not mistaken for a title or a name.
        assert!(parse_cat(text).is_err(), "{text}");
    }
    // Still an ordinary syntax error elsewhere.
    assert_eq!(error("let x = po |").kind, ErrorKind::Syntax);
    assert!(parse_cat("let x = po").is_ok_and(|s| matches!(s[0], Stmt::Let { .. })));
}
