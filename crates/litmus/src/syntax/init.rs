//! The init block `{ x = 0; P1:r0 = 0; z aliases x }` and the optional second block
//! `{ ssw 0 1; }`.

use super::lex::{
    consumed, expect, fail, ident, integer, is_register, keyword, natural, sym, thread_reg,
    unexpected_in, ws, PResult, Src,
};
use crate::ast::{InitDecl, Span, Spanned};
use nom::combinator::opt;
use nom::Parser;
use std::collections::HashMap;

const INIT_DECL: &str = "`x = V`, `Pn:rK = V` or `y aliases x`";
const IN_INIT: &str = " in the init block";

/// A `;`-separated list between `{` and `}`; empty declarations (`;;`) are skipped and
/// the last `;` is optional. `decl` parses one declaration.
fn block<'a, T>(
    i: &'a str,
    ctx: &str,
    mut decl: impl FnMut(&'a str) -> PResult<'a, T>,
) -> PResult<'a, Vec<T>> {
    let (mut i, _) = sym(i, '{', "", "`{`")?;
    let mut out = Vec::new();
    loop {
        let (j, _) = ws(i)?;
        if let Some(rest) = j.strip_prefix('}') {
            return Ok((rest, out));
        }
        if let Some(rest) = j.strip_prefix(';') {
            i = rest;
            continue;
        }
        let (j, d) = decl(j)?;
        out.push(d);
        let (j, _) = ws(j)?;
        i = match j.strip_prefix(';') {
            Some(rest) => rest,
            None if j.starts_with('}') => j,
            None => return Err(unexpected_in(j, ctx, "`;` or `}`")),
        };
    }
}

/// What an init value is given to, to find a second value for the same thing.
#[derive(PartialEq, Eq, Hash)]
enum Target {
    Loc(String),
    Reg(usize, u32),
}

pub fn init_block<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<InitDecl>> {
    let mut seen: HashMap<Target, Span> = HashMap::new();
    block(i, IN_INIT, |j| {
        let (rest, (decl, target, name)) = init_decl(src, j)?;
        if let Some(t) = target {
            if let Some(first) = seen.get(&t) {
                return fail(
                    name,
                    format!(
                        "second init value for `{name}` (the first is at {}:{}): expected one value per location or register",
                        first.line, first.column
                    ),
                );
            }
            seen.insert(t, src.span(name));
        }
        Ok((rest, decl))
    })
}

/// One declaration, with what it initialises (none for an alias) and the text naming it.
fn init_decl<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, (InitDecl, Option<Target>, &'a str)> {
    if let (j, Some((thread, reg))) = opt(thread_reg).parse(i)? {
        let name = consumed(i, j);
        let (j, value) = init_value(j, name)?;
        let span = src.span(consumed(i, j));
        let decl = InitDecl::Register {
            thread,
            reg,
            value,
            span,
        };
        return Ok((j, (decl, Some(Target::Reg(thread, reg)), name)));
    }
    let (j, name) = expect(i, ident, IN_INIT, INIT_DECL)?;
    if is_register(name) {
        return fail(
            name,
            format!(
                "register `{name}` without a thread in the init block: expected `Pn:{name} = V`"
            ),
        );
    }
    if let Some(k) = keyword(j, "aliases") {
        let (k, target) = expect(k, ident, " after `aliases`", "a location name")?;
        if is_register(target) {
            return fail(
                target,
                format!("register `{target}` after `aliases`: expected a location name"),
            );
        }
        let decl = InitDecl::Alias {
            alias: name.to_string(),
            target: target.to_string(),
            span: src.span(consumed(i, k)),
        };
        return Ok((k, (decl, None, name)));
    }
    let (k, _) = ws(j)?;
    if !k.starts_with('=') {
        let hint = if name == "ssw" {
            " (`ssw i j` goes in a second block `{ ... }` after the init block)"
        } else {
            ""
        };
        let ctx = format!(" after `{name}` in the init block");
        return Err(unexpected_in(
            k,
            &ctx,
            &format!("`= V` or `aliases y`{hint}"),
        ));
    }
    let (k, value) = init_value(j, name)?;
    let decl = InitDecl::Location {
        name: name.to_string(),
        value,
        span: src.span(consumed(i, k)),
    };
    Ok((k, (decl, Some(Target::Loc(name.to_string())), name)))
}

/// `= V` after `name`.
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

/// The optional second block: `ssw i j` declarations.
pub fn ssw_block<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<Spanned<(usize, usize)>>> {
    let (j, _) = ws(i)?;
    if !j.starts_with('{') {
        return Ok((i, Vec::new()));
    }
    block(j, " in the ssw block", |k| {
        let Some(rest) = keyword(k, "ssw") else {
            return Err(unexpected_in(k, " in the ssw block", "`ssw i j`"));
        };
        let (rest, a) = ssw_thread(rest)?;
        let (rest, b) = ssw_thread(rest)?;
        Ok((rest, src.spanned((a, b), consumed(k, rest))))
    })
}

fn ssw_thread(i: &str) -> PResult<'_, usize> {
    let (i, _) = ws(i)?;
    let (rest, n) = expect(i, natural, " in `ssw i j`", "a thread number")?;
    match usize::try_from(n) {
        Ok(t) => Ok((rest, t)),
        Err(_) => fail(consumed(i, rest), "thread number out of range"),
    }
}
