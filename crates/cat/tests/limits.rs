//! Deep models are refused with a located limit error (docs/errors.md, "On the model"),
//! never a stack overflow: 10 000 nested parentheses, `~`, operators, definitions,
//! function calls, procedures. Models just under each limit compile in a test thread's
//! default stack (2 MiB); running them is tested end to end in
//! crates/vkherd/tests/cat_limits.rs.

use std::collections::BTreeSet;
use std::sync::Arc;
use vkherd_cat::{CatError, ErrorKind, Limit, Model, Source};

fn compile(text: &str) -> Result<Model, CatError> {
    Model::compile(
        Source {
            name: "deep.cat".into(),
            text: Arc::from(text),
        },
        &BTreeSet::new(),
    )
}

/// The error of `text`: of the kind `Limit(limit)`, at a real place of the text.
fn limit_error(text: &str, limit: Limit) -> CatError {
    let e = match compile(text) {
        Ok(_) => panic!("compiled, expected the {limit:?} limit"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Limit(limit), "{}", e.render());
    let s = e.diagnostic.span;
    assert!(s.line >= 1 && s.column >= 1 && s.offset + s.len <= text.len());
    assert_eq!(vkherd_litmus::span_at(text, s.offset, s.len), s);
    assert!(
        e.render().contains(&format!("more than {} ", limit.max())),
        "{}",
        e.render()
    );
    e
}

/// `let d0 = po` then `count` definitions, each one operator over the previous one.
fn chain_of_definitions(count: usize, step: &str) -> String {
    let mut text = String::from("let d0 = po\n");
    for i in 1..=count {
        text += &format!("let d{i} = {}\n", step.replace('@', &format!("d{}", i - 1)));
    }
    text += &format!("acyclic d{count} as deep\nlet co = asmo\n");
    text
}

#[test]
fn ten_thousand_nested_parentheses_are_a_nesting_limit_error() {
    let text = format!("let x = {}po{}", "(".repeat(10_000), ")".repeat(10_000));
    let e = limit_error(&text, Limit::Nesting);
    // At the first parenthesis past the limit.
    assert_eq!(e.diagnostic.span.column as usize, 9 + Limit::Nesting.max());
    let brackets = format!("let x = {}R{}", "[".repeat(10_000), "]".repeat(10_000));
    limit_error(&brackets, Limit::Nesting);
    let complements = format!("let x = {}po", "~".repeat(10_000));
    limit_error(&complements, Limit::Nesting);
    let ifs = format!("let x = {}po", "if \"v\" then po else ".repeat(10_000));
    limit_error(&ifs, Limit::Nesting);
    let calls = format!(
        "let f(x) = x\nlet y = {}po{}",
        "f(".repeat(10_000),
        ")".repeat(10_000)
    );
    limit_error(&calls, Limit::Nesting);
}

#[test]
fn ten_thousand_chained_operators_are_an_expression_depth_limit_error() {
    let union = format!("let x = po{}", " | po".repeat(10_000));
    limit_error(&union, Limit::ExpressionDepth);
    let closures = format!("let x = po{}", "^-1".repeat(10_000));
    limit_error(&closures, Limit::ExpressionDepth);
}

#[test]
fn ten_thousand_nested_definitions_are_a_definition_depth_limit_error() {
    // Each definition one node deeper than the last (`\` is not flattened).
    let e = limit_error(
        &chain_of_definitions(10_000, "@ \\ id"),
        Limit::DefinitionDepth,
    );
    // At the first definition past the limit (line 1 is d0).
    assert_eq!(
        e.diagnostic.span.line as usize,
        Limit::DefinitionDepth.max() + 1
    );
    // `;` chains are flattened, then nested one step per factor.
    limit_error(
        &chain_of_definitions(10_000, "@ ; po"),
        Limit::DefinitionDepth,
    );
    // Recursive definitions, each reading the last.
    limit_error(
        &chain_of_definitions(10_000, "@ \\ id\nlet rec r@ = @ | r@ ; r@"),
        Limit::DefinitionDepth,
    );
}

#[test]
fn functions_calling_functions_are_bounded_by_the_call_and_expression_limits() {
    // 10 000 functions, each calling the last: the call depth limit.
    let mut text = String::from("let f0(x) = x \\ id\n");
    for i in 1..=10_000 {
        text += &format!("let f{i}(x) = f{}(x)\n", i - 1);
    }
    text += "let y = f10000(po)\n";
    limit_error(&text, Limit::CallDepth);
    // Few calls, each a deep expression: the compiler's recursion through the calls.
    // (A left-nested chain's first operand is its deepest.)
    let chain = " | x".repeat(900);
    let text = format!("let f(x) = x{chain}\nlet g(x) = f(x){chain}\nlet y = g(po)\n");
    limit_error(&text, Limit::ExpressionDepth);
}

#[test]
fn nested_procedures_and_calls_are_bounded() {
    let nested = format!(
        "{}acyclic po{}",
        "procedure p(x) =\n".repeat(10_000),
        "\nend".repeat(10_000)
    );
    limit_error(&nested, Limit::Nesting);
    let mut calls = String::from("procedure p0(x) = acyclic x end\n");
    for i in 1..=10_000 {
        calls += &format!("procedure p{i}(x) = call p{}(x) end\n", i - 1);
    }
    calls += "call p10000(po)\n";
    limit_error(&calls, Limit::CallDepth);
}

#[test]
fn models_just_under_the_limits_compile() {
    let n = Limit::Nesting.max();
    compile(&format!(
        "let x = {}po{}\nlet co = asmo",
        "(".repeat(n - 1),
        ")".repeat(n - 1)
    ))
    .unwrap();
    let e = Limit::ExpressionDepth.max();
    compile(&format!(
        "let x = po{}\nlet co = asmo",
        " | po".repeat(e - 1)
    ))
    .unwrap();
    let d = Limit::DefinitionDepth.max();
    let m = compile(&chain_of_definitions(d - 2, "@ \\ id")).unwrap();
    let deepest = m.graph().nodes().iter().map(|x| x.depth).max().unwrap() as usize;
    assert!(deepest <= d && deepest >= d - 2, "{deepest}");
    compile(&chain_of_definitions(
        d / 2,
        "@ \\ id\nlet rec r@ = @ | r@ ; r@",
    ))
    .unwrap();
}

#[test]
fn the_bundled_models_are_far_from_the_definition_depth_limit() {
    for name in ["vulkan", "vulkan-2024", "vulkan-asserts", "opencl"] {
        let m = Model::bundled(name, &[]).unwrap();
        let deepest = m.graph().nodes().iter().map(|x| x.depth).max().unwrap() as usize;
        // docs/errors.md says "a few dozen".
        assert!(deepest < 100, "{name}: {deepest}");
    }
}

#[test]
fn a_sixty_fifth_flag_is_a_flags_limit_error_and_sixty_four_compile() {
    // A candidate's raised flags are one 64-bit mask (`Evaluation::flag_bits`).
    let flags = |n: usize| -> String {
        let mut text = String::from("let co = asmo\nacyclic po as c\n");
        for i in 0..n {
            text.push_str(&format!("flag ~empty po as f{i}\n"));
        }
        text
    };
    let m = compile(&flags(Limit::Flags.max())).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(m.flags().len(), 64);
    let e = limit_error(&flags(Limit::Flags.max() + 1), Limit::Flags);
    // At the 65th flag (line 3 is the first).
    assert_eq!(e.diagnostic.span.line as usize, 2 + Limit::Flags.max() + 1);
}
