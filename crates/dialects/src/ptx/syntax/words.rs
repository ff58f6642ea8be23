//! The dialect's words (orders, scopes, proxies), the words that cannot name a location,
//! and the operands: values, locations, registers and labels.

use crate::ptx::ast::{Proxy, PtxScope, RmwOp, Spanned, Value};
use vkherd_litmus::syntax::lex::{
    consumed, fail, ident, integer, is_register, register, unexpected_in, word, ws, PErr, PResult,
    Src,
};

pub(super) const SCOPES: &str = ".cta, .gpu or .sys";

/// An order word, as written after an opcode; which ones an instruction accepts is the
/// instruction's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    Weak,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    Sc,
}

pub(super) fn order(w: &str) -> Option<Order> {
    Some(match w {
        "weak" => Order::Weak,
        "relaxed" => Order::Relaxed,
        "acquire" => Order::Acquire,
        "release" => Order::Release,
        "acq_rel" => Order::AcqRel,
        "sc" => Order::Sc,
        _ => return None,
    })
}

/// The operation of an `atom` or a `red`.
pub(super) fn rmw_op(w: &str) -> Option<RmwOp> {
    Some(match w {
        "add" => RmwOp::Add,
        "sub" => RmwOp::Sub,
        "mul" => RmwOp::Mul,
        "div" => RmwOp::Div,
        "and" => RmwOp::And,
        "or" => RmwOp::Or,
        "xor" => RmwOp::Xor,
        _ => return None,
    })
}

pub(super) fn scope(w: &str) -> Option<PtxScope> {
    Some(match w {
        "cta" => PtxScope::Cta,
        "gpu" => PtxScope::Gpu,
        "sys" => PtxScope::Sys,
        _ => return None,
    })
}

/// The proxy named in `fence.proxy.P` and `y @ P aliases x`.
pub(super) fn proxy(w: &str) -> Option<Proxy> {
    Some(match w {
        "generic" => Proxy::Generic,
        "constant" => Proxy::Constant,
        "texture" => Proxy::Texture,
        "surface" => Proxy::Surface,
        _ => return None,
    })
}

/// Words that Dat3M's lexer makes tokens of their own, so that they can never be a
/// location name there (`Identifier` loses to an equally long keyword). Rejecting them
/// here too keeps every accepted test one that Dat3M accepts.
const RESERVED: &[&str] = &[
    "PTX",
    "ptx",
    "locations",
    "ld",
    "tld",
    "suld",
    "cold",
    "st",
    "sust",
    "atom",
    "suatom",
    "red",
    "sured",
    "fence",
    "bar",
    "sync",
    "arrive",
    "cta",
    "gpu",
    "sys",
    "weak",
    "relaxed",
    "acquire",
    "release",
    "acq_rel",
    "sc",
    "add",
    "sub",
    "mul",
    "div",
    "and",
    "or",
    "xor",
    "cas",
    "exch",
    "proxy",
    "generic",
    "constant",
    "surface",
    "texture",
    "aliases",
    "alias",
    "beq",
    "bne",
    "blt",
    "bgt",
    "ble",
    "bge",
    "goto",
    "exists",
    "final",
    "forall",
    "filter",
    "not",
    "with",
    "tso",
    "cc",
    "optic",
    "default",
];

/// `LC` and digits.
pub(super) fn is_label(w: &str) -> bool {
    w.strip_prefix("LC")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// `P` and digits: a thread, not a location.
fn is_thread_word(w: &str) -> bool {
    w.strip_prefix('P')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Why `name` cannot be a location, if it cannot.
pub(super) fn not_a_location(name: &str) -> Option<String> {
    if is_register(name) {
        Some(format!("register `{name}` where a location is expected"))
    } else if is_label(name) {
        Some(format!("label `{name}` where a location is expected"))
    } else if is_thread_word(name) {
        Some(format!("`{name}` names a thread: expected a location"))
    } else if RESERVED.contains(&name) {
        Some(format!(
            "`{name}` is a keyword of PTX tests and cannot name a location"
        ))
    } else {
        None
    }
}

/// A location name; `ctx` places it for messages (" in `st.weak`").
pub(super) fn location<'a>(src: &Src<'a>, i: &'a str, ctx: &str) -> PResult<'a, Spanned<String>> {
    let (i, _) = ws(i)?;
    let (j, name) = match ident(i) {
        Ok(r) => r,
        Err(nom::Err::Error(_)) => return Err(unexpected_in(i, ctx, "a location name")),
        Err(e) => return Err(e),
    };
    if let Some(why) = not_a_location(name) {
        return fail(name, why);
    }
    Ok((j, src.spanned(name.to_string(), name)))
}

/// A memory operand: a location name `x`, `[x]`, or `[rK]`, the address a register holds
/// (`P0:r0 = &x` in the init block; docs/ptx.md "Addresses in registers"). The result is
/// the name, or for `[rK]` the register's name `rK`, which no location can have.
pub(super) fn memory_operand<'a>(
    src: &Src<'a>,
    i: &'a str,
    ctx: &str,
) -> PResult<'a, Spanned<String>> {
    let (start, _) = ws(i)?;
    let Some(inner) = start.strip_prefix('[') else {
        return location(src, start, ctx);
    };
    let (inner, _) = ws(inner)?;
    let (j, name) = match register(inner) {
        Ok((j, _)) => (j, consumed(inner, j)),
        Err(nom::Err::Error(_)) => {
            let (j, _) = location(src, inner, ctx)?;
            (j, consumed(inner, j))
        }
        Err(e) => return Err(e),
    };
    let (j, _) = ws(j)?;
    let Some(j) = j.strip_prefix(']') else {
        return Err(unexpected_in(j, ctx, "`]` after the address"));
    };
    Ok((j, src.spanned(name.to_string(), consumed(start, j))))
}

/// A register `rK`.
pub(super) fn reg<'a>(i: &'a str, ctx: &str, what: &str) -> PResult<'a, u32> {
    let (i, _) = ws(i)?;
    match register(i) {
        Err(nom::Err::Error(_)) => Err(unexpected_in(i, ctx, what)),
        r => r,
    }
}

/// A register `rK` or an integer.
pub(super) fn value<'a>(i: &'a str, ctx: &str) -> PResult<'a, Value> {
    let (i, _) = ws(i)?;
    if let Ok((j, r)) = register(i) {
        return Ok((j, Value::Reg(r)));
    }
    // `register` fails (not backtracks) on an out-of-range register: report that.
    if let Err(e @ nom::Err::Failure(_)) = register(i) {
        return Err(e);
    }
    match integer(i) {
        Ok((j, v)) => Ok((j, Value::Imm(v))),
        Err(nom::Err::Error(_)) => Err(unexpected_in(i, ctx, "a register `rK` or an integer")),
        Err(e) => Err(e),
    }
}

/// A label `LCnn` (a jump's target).
pub(super) fn label<'a>(src: &Src<'a>, i: &'a str, ctx: &str) -> PResult<'a, Spanned<String>> {
    let (i, _) = ws(i)?;
    match word(i) {
        Ok((j, w)) if is_label(w) => Ok((j, src.spanned(w.to_string(), w))),
        _ => Err(unexpected_in(i, ctx, "a label `LCnn`")),
    }
}

/// The `.word` suffixes after an opcode (`ld.acquire.gpu`: `acquire`, `gpu`), each as
/// the word and the text from its `.` (for messages and carets). `start` is where the
/// instruction starts, `i` the input after its first word.
pub(super) fn suffixes<'a>(start: &'a str, i: &'a str) -> PResult<'a, Vec<(&'a str, &'a str)>> {
    let mut out = Vec::new();
    let mut i = i;
    loop {
        let (j, _) = ws(i)?;
        let Some(after) = j.strip_prefix('.') else {
            return Ok((i, out));
        };
        let (k, w) = match word(after) {
            Ok(r) => r,
            Err(_) => {
                let ctx = format!(" after `{}`", consumed(start, after));
                return Err(unexpected_in(after, &ctx, "a word"));
            }
        };
        out.push((w, consumed(j, k)));
        i = k;
    }
}

/// A comma between operands.
pub(super) fn comma<'a>(i: &'a str, ctx: &str) -> PResult<'a, ()> {
    let (i, _) = ws(i)?;
    match i.strip_prefix(',') {
        Some(rest) => Ok((rest, ())),
        None => Err(unexpected_in(i, ctx, "`,`")),
    }
}

/// True if the next non-blank character is `c`.
pub(super) fn next_is(i: &str, c: char) -> bool {
    i.trim_start().starts_with(c)
}

/// A parse error as nom carries it.
pub(super) type Failure<'a> = nom::Err<PErr<'a>>;
