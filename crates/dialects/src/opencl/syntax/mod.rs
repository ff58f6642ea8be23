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

use crate::opencl::ast::{
    AddrSpace, ClParam, ClThread, FinalCond, InitDecl, OpenClTest, Span, Spanned,
};
use nom::Parser;
use std::collections::HashMap;
use vkherd_litmus::error::{span_at, Warning};
use vkherd_litmus::limits::MAX_THREADS;
use vkherd_litmus::syntax::cond;
use vkherd_litmus::syntax::lex::{
    consumed, expect, fail, ident, integer, is_register, natural, sym, thread_reg, thread_word,
    unexpected, unexpected_in, word, ws, PResult, Src,
};
use vkherd_litmus::Diagnostic;

/// The language words of the header line.
pub(crate) const LANGUAGE_WORDS: [&str; 3] = ["OPENCL", "OpenCL", "opencl"];

/// True if the header's language word is `OPENCL` (also `OpenCL`, `opencl`): the file is
/// in the OpenCL dialect ([`parse_opencl`]), not the Vulkan one.
pub fn is_opencl(source: &str) -> bool {
    let stripped = vkherd_litmus::syntax::comments::strip_c(source);
    let text = stripped.text.trim_start().trim_start_matches('\u{feff}');
    let word = text.split(char::is_whitespace).next().unwrap_or("");
    LANGUAGE_WORDS.contains(&word)
}

/// Parses a whole OpenCL `.litmus` file.
pub fn parse_opencl(source: &str) -> Result<OpenClTest, Diagnostic> {
    let stripped = vkherd_litmus::syntax::comments::strip_c(source);
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
    let (i, (init, arrays)) = init_block(src, i)?;
    let mut warnings = Vec::new();
    let (i, mut threads) = threads(src, i, &arrays, &mut warnings)?;
    let i = match vkherd_litmus::syntax::lex::keyword(i, "scopeTree") {
        Some(rest) => {
            let kw = ws(i)?.0;
            scope_tree::scope_tree(rest, &kw[..9], &mut threads)?.0
        }
        None => i,
    };
    let (i, memory_map) = memory_map(src, i)?;
    // The condition may name the threads' variables (`0:flag`) and array cells (`y[1]`).
    let mut src_named = Src::new(src.orig(), src.text);
    src_named.reg_names = threads.iter().map(|t| t.var_names.clone()).collect();
    src_named.arrays = arrays;
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
            memory_map,
            warnings,
        },
    ))
}

/// herd's memory map after the scope tree: `x: global, y: local` (`,`- or `;`-separated), the
/// address space of each location named; empty if none follows.
fn memory_map<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<Spanned<(String, AddrSpace)>>> {
    let mut out: Vec<Spanned<(String, AddrSpace)>> = Vec::new();
    let mut i = i;
    loop {
        // An entry is `NAME :`; anything else ends the map (the condition part follows).
        let Ok((j, name)) = ident(i) else {
            return Ok((i, out));
        };
        let Some(after_colon) = ws(j)?.0.strip_prefix(':') else {
            return Ok((i, out));
        };
        let (k, space_word) = expect(
            after_colon,
            ident,
            &format!(" after `{name}:` in the memory map"),
            "`global` or `local`",
        )?;
        let space = match space_word {
            "global" | "__global" => AddrSpace::Global,
            "local" | "__local" => AddrSpace::Local,
            _ => {
                return fail(
                    space_word,
                    format!("unknown memory region `{space_word}` for `{name}` in the memory map: expected `global` or `local`"),
                )
            }
        };
        if let Some(first) = out.iter().find(|e| e.value.0 == name) {
            return fail(
                name,
                format!(
                    "`{name}` is twice in the memory map (first at {}:{}): expected one region per location",
                    first.span.line, first.span.column
                ),
            );
        }
        out.push(src.spanned((name.to_string(), space), consumed(ws(i)?.0, k)));
        let (k2, _) = ws(k)?;
        i = match k2.strip_prefix(',').or_else(|| k2.strip_prefix(';')) {
            Some(rest) => rest,
            None => k,
        };
    }
}

/// `OPENCL NAME` on the first line, then the description up to the first `{`.
fn header(i: &str) -> PResult<'_, (&str, &str)> {
    vkherd_litmus::syntax::header_of(i, LANGUAGE_WORDS)
}

const INIT_DECL: &str = "`[x] = V`, `x = V`, `int x = V`, `int y[N] = {V, ...}` or `Pn:rK = V`";

/// The arrays of the init block, `int y[2] = {0, 0}`: name and length. Each cell is a
/// location of its own, named `y[0]`, `y[1]`, ...
pub(super) type Arrays = Vec<(String, u64)>;

/// Most cells of one array, so that a typo (`y[1000000]`) does not make a million
/// locations: arrays share the limit on locations (`MAX_LOCATIONS`).
const MAX_ARRAY_LEN: u64 = vkherd_litmus::limits::MAX_LOCATIONS as u64;

/// `{ [x] = 0; y = 1; P0:r0 = 2; }`: `;`-separated, the last `;` optional.
fn init_block<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, (Vec<InitDecl>, Arrays)> {
    let (mut i, _) = sym(i, '{', "", "`{`")?;
    let mut out = Vec::new();
    let mut arrays = Arrays::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    loop {
        let (j, _) = ws(i)?;
        if let Some(rest) = j.strip_prefix('}') {
            return Ok((rest, (out, arrays)));
        }
        if let Some(rest) = j.strip_prefix(';') {
            i = rest;
            continue;
        }
        let (rest, (decls, key, name, array)) = init_decl(src, j)?;
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
        out.extend(decls);
        arrays.extend(array);
        let (rest, _) = ws(rest)?;
        i = match rest.strip_prefix(';') {
            Some(r) => r,
            None if rest.starts_with('}') => rest,
            None => return Err(unexpected_in(rest, " in the init block", "`;` or `}`")),
        };
    }
}

/// One declaration (the cells of an array, or one location or register), the key that
/// must not repeat, the text naming it, and the array it declares.
type Decl<'a> = (Vec<InitDecl>, String, &'a str, Option<(String, u64)>);

fn init_decl<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Decl<'a>> {
    if let (j, Some((thread, reg))) = nom::combinator::opt(thread_reg).parse(i)? {
        let name = consumed(i, j);
        let (j, value) = init_value(j, name)?;
        let decl = InitDecl::Register {
            thread,
            reg,
            value,
            span: src.span(consumed(i, j)),
        };
        return Ok((j, (vec![decl], format!("{thread}:r{reg}"), name, None)));
    }
    // C declarations are accepted: `global atomic_int x = 0`.
    let mut i = i;
    while let Ok((rest, w)) = ident(i) {
        let is_type = is_int_type(w)
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
    if !bracket && ws(j)?.0.starts_with('[') {
        return array_decl(src, i, j, name);
    }
    // `int x;`: no value, 0 as for any location the block does not list.
    let (k, value) = if at_end_of_decl(j)? {
        (j, 0)
    } else {
        init_value(j, name)?
    };
    let decl = InitDecl::Location {
        name: name.to_string(),
        value,
        span: src.span(consumed(i, k)),
    };
    Ok((k, (vec![decl], name.to_string(), name, None)))
}

/// The next token ends a declaration (`;` or `}`).
fn at_end_of_decl(i: &str) -> Result<bool, nom::Err<vkherd_litmus::syntax::lex::PErr<'_>>> {
    let (j, _) = ws(i)?;
    Ok(j.starts_with(';') || j.starts_with('}'))
}

/// `y[N] = {V, ...}`, `y[] = {V, ...}` or `y[N]` (`start` at `y`, `i` after it): the
/// cells `y[0]`.. `y[N-1]`, as in C missing values are 0.
fn array_decl<'a>(
    src: &Src<'a>,
    start: &'a str,
    i: &'a str,
    name: &'a str,
) -> PResult<'a, Decl<'a>> {
    let ctx = format!(" in the length of the array `{name}`");
    let (j, _) = sym(i, '[', "", "`[`")?;
    let (j, _) = ws(j)?;
    let (j, len) = if j.starts_with(']') {
        (j, None)
    } else {
        let (k, n) = expect(j, natural, &ctx, "the number of cells (an integer)")?;
        (k, Some((n, consumed(j, k))))
    };
    let (j, _) = sym(j, ']', &ctx, "`]`")?;
    let mut values = Vec::new();
    let k = if at_end_of_decl(j)? {
        j
    } else {
        let ctx = format!(" after `{name}[...]` in the init block");
        let (k, _) = sym(j, '=', &ctx, "`=` and the values `{V, ...}`, or `;`")?;
        let (mut k, _) = sym(k, '{', &ctx, "`{` (the values of the cells)")?;
        let in_values = format!(" in the values of `{name}`");
        loop {
            let (mut l, _) = ws(k)?;
            if !values.is_empty() && !l.starts_with('}') {
                l = ws(sym(l, ',', &in_values, "`,` or `}`")?.0)?.0;
            }
            // `{}` and a trailing `,` are C.
            if let Some(rest) = l.strip_prefix('}') {
                k = rest;
                break;
            }
            let (rest, v) = expect(l, integer, &in_values, "an integer or `}`")?;
            values.push((v, consumed(l, rest)));
            k = rest;
        }
        k
    };
    let len = match len {
        Some((n, text)) => {
            if n == 0 || n > MAX_ARRAY_LEN {
                return fail(
                    text,
                    format!("array `{name}` of {n} cells: expected 1 to {MAX_ARRAY_LEN}"),
                );
            }
            if let Some(&(_, extra)) = values.get(n as usize) {
                return fail(
                    extra,
                    format!("too many values for `{name}[{n}]`: expected at most {n}"),
                );
            }
            n
        }
        None if values.is_empty() => {
            return fail(
                name,
                format!("array `{name}[]` without values: expected its length `{name}[N]` or its values `{{V, ...}}`"),
            )
        }
        None if values.len() as u64 > MAX_ARRAY_LEN => {
            return fail(
                name,
                format!("array `{name}` of {} cells: expected 1 to {MAX_ARRAY_LEN}", values.len()),
            )
        }
        None => values.len() as u64,
    };
    let span = src.span(consumed(start, k));
    let decls = (0..len)
        .map(|c| InitDecl::Location {
            name: cell_name(name, c),
            value: values.get(c as usize).map_or(0, |&(v, _)| v),
            span,
        })
        .collect();
    Ok((
        k,
        (decls, name.to_string(), name, Some((name.to_string(), len))),
    ))
}

/// The location of cell `index` of array `array`: `y[1]`.
pub(super) fn cell_name(array: &str, index: u64) -> String {
    format!("{array}[{index}]")
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
fn threads<'a>(
    src: &Src<'a>,
    i: &'a str,
    arrays: &Arrays,
    warnings: &mut Vec<Warning>,
) -> PResult<'a, Vec<ClThread>> {
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
                vkherd_litmus::syntax::lex::token_at(j),
                format!(
                    "too many threads: expected at most {MAX_THREADS} (`P0` to `P{}`)",
                    MAX_THREADS - 1
                ),
            );
        }
        let (rest, t) = thread(src, j, out.len(), arrays, warnings)?;
        out.push(t);
        i = rest;
    }
}

/// `Pn@sg A, wg B, dev C (params) { body }`.
fn thread<'a>(
    src: &Src<'a>,
    i: &'a str,
    expected_id: usize,
    arrays: &Arrays,
    warnings: &mut Vec<Warning>,
) -> PResult<'a, ClThread> {
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
    let (j, (body, var_names)) = stmt::thread_body(src, j, id, &params, arrays, warnings)?;
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

/// The integer types a location may have; `atomic_` versions are atomic. Widths are not
/// modelled: every value is a 64-bit integer, as in herd7.
const INT_TYPES: [&str; 14] = [
    "int",
    "uint",
    "long",
    "ulong",
    "unsigned",
    "size_t",
    "char",
    "uchar",
    "short",
    "ushort",
    "bool",
    "intptr_t",
    "uintptr_t",
    "ptrdiff_t",
];

/// `w` names a location type: an integer type, its `atomic_` form, or `atomic_flag`.
pub(super) fn is_int_type(w: &str) -> bool {
    match w.strip_prefix("atomic_") {
        Some("flag") => true,
        Some(base) => INT_TYPES.contains(&base),
        None => INT_TYPES.contains(&w),
    }
}

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
                if !is_int_type(w) {
                    return fail(
                        w,
                        format!("unknown type `{w}` in the parameter list: expected `global` or `local`, then `int`, `atomic_int` (or uint, long, ulong, atomic_flag, ...) and `*`"),
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
            space_given: space.is_some(),
            atomic: ty.unwrap_or(false),
            volatile,
            span: src.span(consumed(start, j)),
        },
    ))
}
