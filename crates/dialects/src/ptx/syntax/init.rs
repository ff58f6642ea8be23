//! The init block: `{ x = 0; P0:r0 = 1; P1:r2 = &x; y = &x; s @ surface aliases x; }`,
//! `;`-separated (the kit's block), optionally followed by `;`.

use super::words::{location, not_a_location, proxy};
use crate::ptx::ast::PtxInit;
use nom::combinator::opt;
use nom::Parser;
use vkherd_litmus::syntax::init::block;
use vkherd_litmus::syntax::lex::{
    consumed, expect, fail, ident, integer, is_register, keyword, sym, thread_reg, unexpected_in,
    word, ws, PResult, Src,
};

const INIT_DECL: &str = "`x = V`, `x = &y`, `Pn:rK = V`, `Pn:rK = &x` or `y @ PROXY aliases x`";
const IN_INIT: &str = " in the init block";
const PROXIES: &str = "`generic`, `constant`, `texture` or `surface`";

pub(super) fn init_block<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<PtxInit>> {
    let (i, decls) = block(i, IN_INIT, |j| decl(src, j))?;
    let (j, _) = ws(i)?;
    Ok((j.strip_prefix(';').unwrap_or(i), decls))
}

/// What `= ...` gives: an integer, or a location's address (`&x` or `x`).
enum Init {
    Value(i64),
    Address(String),
}

fn decl<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, PtxInit> {
    if let (j, Some((thread, reg))) = opt(thread_reg).parse(i)? {
        let (j, init) = init_value(src, j, consumed(i, j))?;
        let span = src.span(consumed(i, j));
        let decl = match init {
            Init::Value(value) => PtxInit::Register {
                thread,
                reg,
                value,
                span,
            },
            Init::Address(target) => PtxInit::RegisterAddress {
                thread,
                reg,
                target,
                span,
            },
        };
        return Ok((j, decl));
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
    if let Some(why) = not_a_location(name) {
        return fail(name, why);
    }
    let (k, _) = ws(j)?;
    if let Some(k) = k.strip_prefix('@') {
        return alias(src, i, k, name);
    }
    if !k.starts_with('=') {
        let hint = if keyword(k, "aliases").is_some() {
            " (a PTX alias names its proxy: `y @ generic aliases x`)"
        } else {
            ""
        };
        let ctx = format!(" after `{name}` in the init block");
        return Err(unexpected_in(
            k,
            &ctx,
            &format!("`= V`, `= &y` or `@ PROXY aliases x`{hint}"),
        ));
    }
    let (k, init) = init_value(src, j, name)?;
    let span = src.span(consumed(i, k));
    let name = name.to_string();
    Ok((
        k,
        match init {
            Init::Value(value) => PtxInit::Location { name, value, span },
            Init::Address(target) => PtxInit::LocationAddress { name, target, span },
        },
    ))
}

/// `= V`, `= &x` or `= x` after `name`.
fn init_value<'a>(src: &Src<'a>, i: &'a str, name: &str) -> PResult<'a, Init> {
    let ctx = format!(" after `{name}` in the init block");
    let (i, _) = sym(i, '=', &ctx, "`=`")?;
    let (i, _) = ws(i)?;
    let of = format!(" as the value of `{name}`");
    if let Some(j) = i.strip_prefix('&') {
        let (j, target) = location(src, j, &format!(" after `&`{of}"))?;
        return Ok((j, Init::Address(target.value)));
    }
    if ident(i).is_ok() {
        let (j, target) = location(src, i, &of)?;
        return Ok((j, Init::Address(target.value)));
    }
    let (j, v) = expect(i, integer, &of, "an integer, `&x` or a location `x`")?;
    Ok((j, Init::Value(v)))
}

/// `PROXY aliases x` after `name @` (`i` is at the declaration, `k` after the `@`).
fn alias<'a>(src: &Src<'a>, i: &'a str, k: &'a str, name: &str) -> PResult<'a, PtxInit> {
    let ctx = format!(" after `{name} @`");
    let (k, _) = ws(k)?;
    let (k2, p) = expect(k, word, &ctx, &format!("a proxy: {PROXIES}"))?;
    let Some(proxy) = proxy(p) else {
        return fail(p, format!("unknown proxy `{p}`: expected {PROXIES}"));
    };
    let Some(k3) = keyword(k2, "aliases") else {
        let ctx = format!(" after `{name} @ {p}`");
        return Err(unexpected_in(k2, &ctx, "`aliases` and a location"));
    };
    let (k3, target) = location(src, k3, " after `aliases`")?;
    let span = src.span(consumed(i, k3));
    Ok((
        k3,
        PtxInit::Alias {
            name: name.to_string(),
            proxy,
            target: target.value,
            span,
        },
    ))
}
