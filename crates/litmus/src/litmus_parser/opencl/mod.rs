//! nom parser for herd's C-like OpenCL dialect (docs/opencl.md):
//!
//! ```text
//! OPENCL MP
//! "description"
//! { [x] = 0; [y] = 0; }
//! P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) {
//!   atomic_store_explicit(x, 1, memory_order_relaxed);
//!   atomic_store_explicit(y, 1, memory_order_release, memory_scope_device);
//! }
//! P1@wg 1, dev 0 (global atomic_int* x, global atomic_int* y) { ... }
//! exists (1:r0 = 1 /\ 1:r1 = 0)
//! ```
//!
//! It shares the tokens, the error type and the whole condition part (`locations`,
//! `filter`, quantifiers) with the Vulkan parser; [`stmt`] parses thread bodies.

mod scope_tree;
mod stmt;

use super::cond;
use super::lex::{
    consumed, expect, fail, ident, integer, is_register, natural, sym, thread_reg, thread_word,
    unexpected, unexpected_in, word, ws, PResult, Src,
};
use crate::ast::{AddrSpace, ClParam, ClThread, FinalCond, InitDecl, OpenClTest, Span};
use crate::error::span_at;
use crate::limits::MAX_THREADS;
use crate::Diagnostic;
use nom::Parser;
use std::collections::HashMap;

/// The language words of the header line.
pub(crate) const LANGUAGE_WORDS: [&str; 3] = ["OPENCL", "OpenCL", "opencl"];

/// Parses a whole OpenCL `.litmus` file.
pub fn parse_opencl(source: &str) -> Result<OpenClTest, Diagnostic> {
    let stripped = super::comments::strip_c(source);
    let src = Src::new(source, &stripped.text);
    let result = file(&src).map(|(_, t)| t).map_err(|e| src.diagnostic(e));
    match (result, stripped.unterminated) {
        (Err(e), Some(at)) if e.span.offset < at => Err(e),
        (_, Some(at)) => {
            let (open, close) = if source[at..].starts_with("/*") {
                ("/*", "*/")
            } else {
                ("(*", "*)")
            };
            Err(Diagnostic::new(
                span_at(source, at, 2),
                format!("unterminated comment `{open}`: expected a matching `{close}`"),
            ))
        }
        (result, None) => result,
    }
}

fn file<'a>(src: &Src<'a>) -> PResult<'a, OpenClTest> {
    let (i, (name, description)) = header(src.text)?;
    let (i, init) = init_block(src, i)?;
    let (i, mut threads) = threads(src, i)?;
    let i = match super::lex::keyword(i, "scopeTree") {
        Some(rest) => {
            let kw = ws(i)?.0;
            scope_tree::scope_tree(rest, &kw[..9], &mut threads)?.0
        }
        None => i,
    };
    // The condition may name the threads' variables: `0:flag`.
    let mut src_named = Src::new(src.orig(), src.text);
    src_named.reg_names = threads.iter().map(|t| t.var_names.clone()).collect();
    let (i, tail) = cond::tail(&src_named, i)?;
    let var_name = |t: usize, reg: u32| {
        let names: &Vec<(String, u32)> = src_named.reg_names.get(t)?;
        names
            .iter()
            .find(|(_, r)| *r == reg)
            .map(|(n, _)| n.clone())
    };
    let condition = tail.condition.map(|(quantifier, cond)| FinalCond {
        quantifier,
        text: cond::cond_to_string_named(&cond, &var_name),
        cond,
    });
    Ok((
        i,
        OpenClTest {
            name: name.to_string(),
            description: description.to_string(),
            init,
            threads,
            locations: tail.locations,
            filter: tail.filter,
            condition,
        },
    ))
}

/// `OPENCL NAME` on the first line, then the description up to the first `{`.
fn header(i: &str) -> PResult<'_, (&str, &str)> {
    super::header_of(i, LANGUAGE_WORDS)
}

const INIT_DECL: &str = "`[x] = V`, `x = V`, `int x = V` or `Pn:rK = V`";

/// `{ [x] = 0; y = 1; P0:r0 = 2; }`: `;`-separated, the last `;` optional.
fn init_block<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<InitDecl>> {
    let (mut i, _) = sym(i, '{', "", "`{`")?;
    let mut out = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    loop {
        let (j, _) = ws(i)?;
        if let Some(rest) = j.strip_prefix('}') {
            return Ok((rest, out));
        }
        if let Some(rest) = j.strip_prefix(';') {
            i = rest;
            continue;
        }
        let (rest, (decl, key, name)) = init_decl(src, j)?;
        if let Some(first) = seen.get(&key) {
            return fail(
                name,
                format!(
                    "second init value for `{key}` (the first is at {}:{}): expected one value per location or register",
                    first.line, first.column
                ),
            );
        }
        seen.insert(key, src.span(name));
        out.push(decl);
        let (rest, _) = ws(rest)?;
        i = match rest.strip_prefix(';') {
            Some(r) => r,
            None if rest.starts_with('}') => rest,
            None => return Err(unexpected_in(rest, " in the init block", "`;` or `}`")),
        };
    }
}

/// One declaration, the key that must not repeat, and the text naming it.
fn init_decl<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, (InitDecl, String, &'a str)> {
    if let (j, Some((thread, reg))) = nom::combinator::opt(thread_reg).parse(i)? {
        let name = consumed(i, j);
        let (j, value) = init_value(j, name)?;
        let decl = InitDecl::Register {
            thread,
            reg,
            value,
            span: src.span(consumed(i, j)),
        };
        return Ok((j, (decl, format!("{thread}:r{reg}"), name)));
    }
    // C declarations are accepted: `global atomic_int x = 0`.
    let mut i = i;
    while let Ok((rest, w)) = ident(i) {
        let base = w.strip_prefix("atomic_").unwrap_or(w);
        let is_type = INT_TYPES.contains(&base)
            || matches!(
                w,
                "global" | "local" | "__global" | "__local" | "volatile" | "const"
            );
        if !is_type {
            break;
        }
        i = ws(rest)?.0;
    }
    // `[x]` or `x`.
    let (j, bracket) = match i.strip_prefix('[') {
        Some(rest) => (rest, true),
        None => (i, false),
    };
    let (j, name) = expect(j, ident, " in the init block", INIT_DECL)?;
    if is_register(name) {
        return fail(
            name,
            format!(
                "register `{name}` without a thread in the init block: expected `Pn:{name} = V`"
            ),
        );
    }
    let j = if bracket {
        sym(j, ']', &format!(" after `[{name}`"), "`]`")?.0
    } else {
        j
    };
    let (k, value) = init_value(j, name)?;
    let decl = InitDecl::Location {
        name: name.to_string(),
        value,
        span: src.span(consumed(i, k)),
    };
    Ok((k, (decl, name.to_string(), name)))
}

fn init_value<'a>(i: &'a str, name: &str) -> PResult<'a, i64> {
    let ctx = format!(" after `{name}` in the init block");
    let (i, _) = sym(i, '=', &ctx, "`=`")?;
    let (i, _) = ws(i)?;
    expect(
        i,
        integer,
        &format!(" as the value of `{name}`"),
        "an integer",
    )
}

/// The threads, up to the condition part.
fn threads<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<ClThread>> {
    let mut out = Vec::new();
    let mut i = i;
    loop {
        let (j, _) = ws(i)?;
        let starts_thread = matches!(word(j), Ok((_, w)) if w.starts_with('P'));
        if !starts_thread {
            if out.is_empty() {
                return Err(unexpected(j, "a thread `P0@wg 0, dev 0 (...) { ... }`"));
            }
            return Ok((j, out));
        }
        if out.len() >= MAX_THREADS {
            return fail(
                super::lex::token_at(j),
                format!(
                    "too many threads: expected at most {MAX_THREADS} (`P0` to `P{}`)",
                    MAX_THREADS - 1
                ),
            );
        }
        let (rest, t) = thread(src, j, out.len())?;
        out.push(t);
        i = rest;
    }
}

/// `Pn@sg A, wg B, dev C (params) { body }`.
fn thread<'a>(src: &Src<'a>, i: &'a str, expected_id: usize) -> PResult<'a, ClThread> {
    let what = format!("the thread header `P{expected_id}@wg N, dev M (...)`");
    let (j, p) = thread_word(i, expected_id, &what)?;
    let id = expected_id;
    let ctx = format!(" in the header of `{p}`");
    let mut ids: [Option<u64>; 3] = [None; 3];
    let (mut j, _) = ws(j)?;
    if let Some(rest) = j.strip_prefix('@') {
        j = rest;
        loop {
            let (rest, key) = expect(j, word, &ctx, "`sg`, `wg` or `dev`")?;
            let k = match key {
                "sg" => 0,
                "wg" => 1,
                "dev" => 2,
                _ => return Err(unexpected_in(j, &ctx, "`sg`, `wg` or `dev`")),
            };
            if ids[k].is_some() {
                return fail(
                    key,
                    format!(
                        "`{key}` given twice{ctx}: expected each of `sg`, `wg`, `dev` at most once"
                    ),
                );
            }
            let (rest, _) = ws(rest)?;
            let (rest, n) = expect(rest, natural, &ctx, &format!("the {key} id (an integer)"))?;
            ids[k] = Some(n);
            let (rest, _) = ws(rest)?;
            match rest.strip_prefix(',') {
                Some(r) => j = r,
                None => {
                    j = rest;
                    break;
                }
            }
        }
    }
    let span = src.span(consumed(i, j).trim_end());
    let (j, params) = params(src, j, p)?;
    let [sg, wg, dev] = ids;
    let (j, (body, var_names)) = stmt::thread_body(src, j, id, &params)?;
    Ok((
        j,
        ClThread {
            id,
            sg,
            wg,
            dev,
            params,
            body,
            var_names,
            span,
        },
    ))
}

const PARAM: &str = "a parameter `global atomic_int* x`";

/// `(global atomic_int* x, volatile local int* y)`; `()` is allowed.
fn params<'a>(src: &Src<'a>, i: &'a str, thread: &str) -> PResult<'a, Vec<ClParam>> {
    let ctx = format!(" after the header of `{thread}`");
    let (mut i, _) = sym(i, '(', &ctx, "the parameter list `(...)`")?;
    let mut out: Vec<ClParam> = Vec::new();
    let (j, _) = ws(i)?;
    if let Some(rest) = j.strip_prefix(')') {
        return Ok((rest, out));
    }
    loop {
        let (j, p) = param(src, i)?;
        if let Some(first) = out.iter().find(|q| q.name == p.name) {
            return fail(
                consumed(i, j).trim_start(),
                format!(
                    "parameter `{}` declared twice in `{thread}` (first at {}:{}): expected distinct names",
                    p.name, first.span.line, first.span.column
                ),
            );
        }
        out.push(p);
        let (j, _) = ws(j)?;
        match j.chars().next() {
            Some(',') => i = &j[1..],
            Some(')') => return Ok((&j[1..], out)),
            _ => {
                return Err(unexpected_in(
                    j,
                    " in the parameter list",
                    "`,` and the next parameter, or `)`",
                ))
            }
        }
    }
}

/// The integer types a location may have; `atomic_` versions are atomic.
const INT_TYPES: [&str; 6] = ["int", "uint", "long", "ulong", "unsigned", "size_t"];

/// `[volatile] [global|local|__global|__local] [volatile] TYPE* name`.
fn param<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, ClParam> {
    let (start, _) = ws(i)?;
    let mut j = start;
    let mut space = None;
    let mut volatile = false;
    let mut ty = None;
    while ty.is_none() {
        let (rest, w) = expect(j, ident, " in the parameter list", PARAM)?;
        match w {
            "volatile" => volatile = true,
            "const" => {}
            "global" | "__global" if space.is_none() => space = Some(AddrSpace::Global),
            "local" | "__local" if space.is_none() => space = Some(AddrSpace::Local),
            _ => {
                let base = w.strip_prefix("atomic_").unwrap_or(w);
                if !INT_TYPES.contains(&base) {
                    return fail(
                        w,
                        format!("unknown type `{w}` in the parameter list: expected `global` or `local`, then `int`, `atomic_int` (or uint, long, ulong) and `*`"),
                    );
                }
                // `unsigned int`
                let rest = match (w, ident(rest)) {
                    ("unsigned", Ok((r, "int"))) => r,
                    _ => rest,
                };
                ty = Some(w.starts_with("atomic_"));
                j = rest;
                continue;
            }
        }
        j = rest;
    }
    let ctx = " after the parameter type";
    let (j, _) = sym(j, '*', ctx, "`*` (parameters are pointers)")?;
    let (j, name) = expect(j, ident, ctx, "the parameter name")?;
    if is_register(name) {
        return fail(
            name,
            format!("parameter `{name}` looks like a register: expected a location name that is not `rK`"),
        );
    }
    Ok((
        j,
        ClParam {
            name: name.to_string(),
            space: space.unwrap_or(AddrSpace::Global),
            atomic: ty.unwrap_or(false),
            volatile,
            span: src.span(consumed(start, j)),
        },
    ))
}
