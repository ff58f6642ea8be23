//! Unit tests of the printer and of properties that need the module's internals.

use super::{cond_to_string, parse_litmus};
use crate::vulkan::ast::Cond;

const HEAD: &str = "VULKAN t {}\n P0@sg 0, wg 0, qf 0 ;\n";

fn cond_of(c: &str) -> Cond {
    let src = format!("{HEAD}exists {c}");
    match parse_litmus(&src) {
        Ok(t) => t.condition.expect("a condition").cond,
        Err(e) => panic!("{}", e.render("t", &src)),
    }
}

#[test]
fn printer_matches_herd7() {
    assert_eq!(
        cond_to_string(&cond_of("(P1:r0 == 1 /\\ P1:r1 == 0)")),
        "(1:r0=1 /\\ 1:r1=0)"
    );
    assert_eq!(cond_to_string(&Cond::True), "(true)");
    assert_eq!(cond_to_string(&cond_of("x != -0x10")), "(x!=-16)");
    assert_eq!(
        cond_to_string(&cond_of("not (x<1 \\/ y>=2)")),
        "(~(x<1 \\/ y>=2))"
    );
}

#[test]
fn printer_parenthesises_only_where_precedence_needs_it() {
    let cases = [
        ("a=1 \\/ b=1 /\\ c=1", "(a=1 \\/ b=1 /\\ c=1)"),
        ("(a=1 \\/ b=1) /\\ c=1", "((a=1 \\/ b=1) /\\ c=1)"),
        ("a=1 /\\ (b=1 /\\ c=1)", "(a=1 /\\ (b=1 /\\ c=1))"),
        ("((a=1 /\\ b=1)) /\\ c=1", "(a=1 /\\ b=1 /\\ c=1)"),
        ("~~a=1", "(~~a=1)"),
        ("~(a=1) /\\ true", "(~a=1 /\\ true)"),
    ];
    for (written, printed) in cases {
        assert_eq!(cond_to_string(&cond_of(written)), printed, "{written}");
    }
}

/// Spans aside, printing then parsing gives the same tree.
#[test]
fn printed_conditions_parse_back_to_the_same_tree() {
    fn strip(c: &Cond) -> String {
        // Debug output without spans: the printer is injective on the tree, so comparing
        // printed forms of both trees would be circular; compare shapes instead.
        let dbg = format!("{c:?}");
        let mut parts = dbg.split("span: Span {");
        let mut out = parts.next().unwrap_or_default().to_string();
        for p in parts {
            out.push_str(p.split_once('}').map_or(p, |(_, rest)| rest));
        }
        out
    }
    for written in [
        "1:r0 == 1 /\\ ~(x = 2 \\/ not y < 3) \\/ true",
        "(a=1 \\/ b=1) /\\ (c=1 \\/ ~d=1)",
        "a=1 \\/ (b=1 \\/ c=1)",
        "0==0",
    ] {
        let c = cond_of(written);
        let printed = cond_to_string(&c);
        assert_eq!(
            strip(&cond_of(&printed)),
            strip(&c),
            "{written} -> {printed}"
        );
    }
}
