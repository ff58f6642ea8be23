//! After the table: `locations [...]`, `filter C`, and `exists` / `~exists` /
//! `not exists` / `forall C`, each optional, in this order.
//!
//! Conditions: `~`/`not` binds tightest, then `/\`, then `\/`, both left-associative.
//! `true` and `not` are words only where a comparison operator does not follow them, so
//! locations may still be called `true` or `not` (no word is reserved).

use super::lex::{
    consumed, expect, fail, ident, integer, is_register, keyword, natural, sym, thread_reg,
    unexpected, unexpected_in, ws, PResult, Src,
};
use crate::ast::{CmpOp, Cond, CondAtom, Quantifier, Spanned, StateItem};
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::combinator::{opt, value};
use nom::Parser;

/// Bounds on a condition, so that recursion (here, in the printer and in `Drop`) stays
/// far from the stack limit whatever the input.
const MAX_NESTING: usize = 100;
const MAX_CONNECTIVES: usize = 1000;

const CONDITION: &str = "a condition: a comparison `A == B`, `(`, `~`, `not` or `true`";
const QUANTIFIERS: &str = "`exists`, `~exists`, `not exists`, `forall`";

pub struct Tail {
    pub locations: Vec<Spanned<StateItem>>,
    pub filter: Option<Cond>,
    pub condition: Option<(Quantifier, Cond)>,
}

pub fn tail<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Tail> {
    let mut t = Tail {
        locations: Vec::new(),
        filter: None,
        condition: None,
    };
    let mut i = i;
    let mut next = format!("`locations [...]`, `filter`, {QUANTIFIERS} or the end of the file");
    if let Some(j) = keyword(i, "locations") {
        (i, t.locations) = locations(src, j)?;
        next = format!("`filter`, {QUANTIFIERS} or the end of the file");
    }
    if let Some(j) = keyword(i, "filter") {
        let (j, c) = condition(src, j, "filter")?;
        t.filter = Some(c);
        i = j;
        next = format!("`/\\`, `\\/`, {QUANTIFIERS} or the end of the file");
    }
    if let (j, Some((q, kw))) = quantifier(i)? {
        let (j, c) = condition(src, j, kw)?;
        t.condition = Some((q, c));
        i = j;
        next = "`/\\`, `\\/` or the end of the file".to_string();
    }
    let (i, _) = ws(i)?;
    if !i.is_empty() {
        return Err(unexpected(i, &next));
    }
    Ok((i, t))
}

/// `exists`, `forall`, `~exists` (also `~ exists`) or `not exists`.
fn quantifier(i: &str) -> PResult<'_, Option<(Quantifier, &'static str)>> {
    if let Some(j) = keyword(i, "exists") {
        return Ok((j, Some((Quantifier::Exists, "exists"))));
    }
    if let Some(j) = keyword(i, "forall") {
        return Ok((j, Some((Quantifier::Forall, "forall"))));
    }
    let (t, _) = ws(i)?;
    let (after, kw) = if let Some(j) = keyword(t, "not") {
        (j, "not exists")
    } else if let Some(j) = t.strip_prefix('~') {
        (j, "~exists")
    } else {
        return Ok((i, None));
    };
    match keyword(after, "exists") {
        Some(j) => Ok((j, Some((Quantifier::NotExists, kw)))),
        None => {
            let ctx = format!(" after `{}`", consumed(t, after));
            Err(unexpected_in(after, &ctx, "`exists`"))
        }
    }
}

/// `[x; P1:r1; 1:r0;]`: `;`-separated, last `;` optional.
fn locations<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<Spanned<StateItem>>> {
    let ctx = " in `locations`";
    let (mut i, _) = sym(i, '[', " after `locations`", "`[`")?;
    let mut items = Vec::new();
    loop {
        let (j, _) = ws(i)?;
        if let Some(rest) = j.strip_prefix(']') {
            return Ok((rest, items));
        }
        if let Some(rest) = j.strip_prefix(';') {
            i = rest;
            continue;
        }
        let (j, item) = match state_item(src, j)? {
            (rest, Some(item)) => (rest, item),
            (_, None) => return Err(unexpected_in(j, ctx, "a location, `Pn:rK`, `;` or `]`")),
        };
        items.push(item);
        let (j, _) = ws(j)?;
        i = match j.strip_prefix(';') {
            Some(rest) => rest,
            None if j.starts_with(']') => j,
            None => return Err(unexpected_in(j, ctx, "`;` or `]`")),
        };
    }
}

/// `Pn:rK`, `n:rK` or a location name; `None` if none is next. A bare register is an
/// error: it needs its thread.
fn state_item<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Option<Spanned<StateItem>>> {
    let (i, _) = ws(i)?;
    if let Some((j, thread, reg)) = named_thread_reg(src, i) {
        let item = StateItem::Reg { thread, reg };
        return Ok((j, Some(src.spanned(item, consumed(i, j)))));
    }
    if let (j, Some((thread, reg))) = opt(thread_reg).parse(i)? {
        let item = StateItem::Reg { thread, reg };
        return Ok((j, Some(src.spanned(item, consumed(i, j)))));
    }
    match ident(i) {
        Ok((_, name)) if is_register(name) => fail(
            name,
            format!("register `{name}` without a thread: expected `Pn:{name}` or `n:{name}`"),
        ),
        Ok((j, name)) => match src.arrays.iter().find(|(a, _)| a == name) {
            Some(&(_, len)) => array_cell(src, i, j, name, len),
            None => Ok((j, Some(src.spanned(StateItem::Loc(name.to_string()), name)))),
        },
        Err(_) => Ok((i, None)),
    }
}

/// `y[K]`, a cell of the OpenCL array `y` of `len` cells (`i` at `y`, `j` after it).
fn array_cell<'a>(
    src: &Src<'a>,
    i: &'a str,
    j: &'a str,
    name: &str,
    len: u64,
) -> PResult<'a, Option<Spanned<StateItem>>> {
    let cells = format!("a cell `{name}[0]` to `{name}[{}]`", len - 1);
    let ctx = format!(" after the array `{name}`");
    let (k, _) = sym(
        j,
        '[',
        &ctx,
        &format!("`[`: `{name}` is an array, expected {cells}"),
    )?;
    let (at, _) = ws(k)?;
    let (k, index) = expect(
        at,
        natural,
        &format!(" in `{name}[...]`"),
        "an index (an integer)",
    )?;
    if index >= len {
        return fail(
            consumed(at, k),
            format!("index {index} is outside the array `{name}` of {len} cells: expected {cells}"),
        );
    }
    let (k, _) = sym(k, ']', &format!(" in `{name}[{index}`"), "`]`")?;
    let cell = StateItem::Loc(format!("{name}[{index}]"));
    Ok((k, Some(src.spanned(cell, consumed(i, k)))))
}

/// `Pn:name` / `n:name` for a named OpenCL variable of thread n (`src.reg_names`).
fn named_thread_reg<'a>(src: &Src<'a>, i: &'a str) -> Option<(&'a str, usize, u32)> {
    if src.reg_names.is_empty() {
        return None;
    }
    let (j, w) = super::lex::word(i).ok()?;
    let digits = w.strip_prefix('P').unwrap_or(w);
    let thread = digits.parse::<usize>().ok()?;
    let (j, _) = ws(j).ok()?;
    let j = j.strip_prefix(':')?;
    let (j, _) = ws(j).ok()?;
    let (j, name) = ident(j).ok()?;
    Some((j, thread, src.named_reg(thread, name)?))
}

/// Limits on the size of one condition.
struct Budget {
    connectives: usize,
}

fn condition<'a>(src: &Src<'a>, i: &'a str, kw: &str) -> PResult<'a, Cond> {
    let (j, _) = ws(i)?;
    if j.is_empty() {
        return Err(unexpected_in(j, &format!(" after `{kw}`"), CONDITION));
    }
    let mut budget = Budget { connectives: 0 };
    or_expr(src, j, &mut budget, 0)
}

/// A chain `x op y op z ...` folded to the left.
fn chain<'a>(
    src: &Src<'a>,
    i: &'a str,
    b: &mut Budget,
    depth: usize,
    sep: &str,
    operand: fn(&Src<'a>, &'a str, &mut Budget, usize) -> PResult<'a, Cond>,
    join: fn(Box<Cond>, Box<Cond>) -> Cond,
) -> PResult<'a, Cond> {
    let (mut i, mut acc) = operand(src, i, b, depth)?;
    loop {
        let (j, _) = ws(i)?;
        let Some(rest) = j.strip_prefix(sep) else {
            return Ok((i, acc));
        };
        b.connectives += 1;
        if b.connectives > MAX_CONNECTIVES {
            return fail(
                &j[..sep.len()],
                format!("condition too long: expected at most {MAX_CONNECTIVES} `/\\` and `\\/`"),
            );
        }
        let (rest, rhs) = operand(src, rest, b, depth)?;
        acc = join(Box::new(acc), Box::new(rhs));
        i = rest;
    }
}

fn or_expr<'a>(src: &Src<'a>, i: &'a str, b: &mut Budget, depth: usize) -> PResult<'a, Cond> {
    chain(src, i, b, depth, "\\/", and_expr, Cond::Or)
}

fn and_expr<'a>(src: &Src<'a>, i: &'a str, b: &mut Budget, depth: usize) -> PResult<'a, Cond> {
    chain(src, i, b, depth, "/\\", primary, Cond::And)
}

/// The input after the word `w`, unless a comparison operator follows (then `w` is a
/// location name).
fn word_not_compared<'a>(i: &'a str, w: &str) -> Option<&'a str> {
    let rest = keyword(i, w)?;
    let (after, _) = ws(rest).ok()?;
    cmp_op(after).is_err().then_some(rest)
}

fn primary<'a>(src: &Src<'a>, i: &'a str, b: &mut Budget, depth: usize) -> PResult<'a, Cond> {
    let (i, _) = ws(i)?;
    let not = i.strip_prefix('~').or_else(|| word_not_compared(i, "not"));
    if (not.is_some() || i.starts_with('(')) && depth >= MAX_NESTING {
        return fail(
            super::lex::token_at(i),
            format!(
                "condition nested too deeply: expected at most {MAX_NESTING} levels of `(` and `~`"
            ),
        );
    }
    if let Some(j) = i.strip_prefix('(') {
        let (j, c) = or_expr(src, j, b, depth + 1)?;
        let (j, _) = ws(j)?;
        return match j.strip_prefix(')') {
            Some(rest) => Ok((rest, c)),
            // Nothing left to close it: the `(` is the mistake, not the end of the file.
            None if j.trim().is_empty() => fail(
                &i[..1],
                "unclosed `(`: expected a `)` to close it before the end of the condition",
            ),
            None => Err(unexpected(j, "`)`, `/\\` or `\\/`")),
        };
    }
    if let Some(j) = not {
        let (j, c) = primary(src, j, b, depth + 1)?;
        return Ok((j, Cond::Not(Box::new(c))));
    }
    if let Some(j) = word_not_compared(i, "true") {
        return Ok((j, Cond::True));
    }
    comparison(src, i)
}

fn cmp_op(i: &str) -> PResult<'_, CmpOp> {
    alt((
        value(CmpOp::Eq, tag("==")),
        value(CmpOp::Ne, tag("!=")),
        value(CmpOp::Le, tag("<=")),
        value(CmpOp::Ge, tag(">=")),
        value(CmpOp::Eq, tag("=")),
        value(CmpOp::Lt, tag("<")),
        value(CmpOp::Gt, tag(">")),
    ))
    .parse(i)
}

fn comparison<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Cond> {
    let (j, a) = operand(src, i, CONDITION)?;
    let (k, _) = ws(j)?;
    let (k, op) = match cmp_op(k) {
        Ok(r) => r,
        Err(_) => {
            let ctx = format!(" after `{}`", consumed(i, j));
            let ops = "a comparison operator `==`, `!=`, `<`, `<=`, `>` or `>=`";
            return Err(unexpected_in(k, &ctx, ops));
        }
    };
    let operand_what = "`Pn:rK`, `n:rK`, a location or an integer";
    let (k, b) = operand(src, k, operand_what)?;
    Ok((k, Cond::Cmp { op, a, b }))
}

fn operand<'a>(src: &Src<'a>, i: &'a str, expected: &str) -> PResult<'a, CondAtom> {
    let (i, _) = ws(i)?;
    // Before integers: `1:r0` starts like the integer `1`.
    if let (j, Some(item)) = state_item(src, i)? {
        return Ok((j, CondAtom::Item(item)));
    }
    match integer(i) {
        Ok((j, v)) => Ok((j, CondAtom::Const(v))),
        Err(nom::Err::Error(_)) => Err(unexpected(i, expected)),
        Err(e) => Err(e),
    }
}

/// Prints a condition as herd7 does: `(1:r0=1 /\ 1:r1=0)`. The whole is parenthesised,
/// equality is `=`, and inner parentheses appear only where precedence needs them.
pub fn cond_to_string(c: &Cond) -> String {
    cond_to_string_named(c, &|_, _| None)
}

/// Like [`cond_to_string`], printing register `reg` of thread `t` as `t:NAME` where
/// `name(t, reg)` gives a name (OpenCL named variables).
pub fn cond_to_string_named(c: &Cond, name: &dyn Fn(usize, u32) -> Option<String>) -> String {
    let mut out = String::from("(");
    write_cond(&mut out, c, 0, name);
    out.push(')');
    out
}

fn precedence(c: &Cond) -> u8 {
    match c {
        Cond::Or(..) => 1,
        Cond::And(..) => 2,
        Cond::Not(_) => 3,
        Cond::True | Cond::Cmp { .. } => 4,
    }
}

/// Writes `c`, in parentheses if it binds less tightly than `min`.
fn write_cond(out: &mut String, c: &Cond, min: u8, name: &dyn Fn(usize, u32) -> Option<String>) {
    let paren = precedence(c) < min;
    if paren {
        out.push('(');
    }
    match c {
        Cond::True => out.push_str("true"),
        Cond::Cmp { op, a, b } => {
            write_atom(out, a, name);
            out.push_str(match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            });
            write_atom(out, b, name);
        }
        Cond::Not(x) => {
            out.push('~');
            write_cond(out, x, 3, name);
        }
        // Left-associative: the right operand needs parentheses at equal precedence.
        Cond::And(x, y) => {
            write_cond(out, x, 2, name);
            out.push_str(" /\\ ");
            write_cond(out, y, 3, name);
        }
        Cond::Or(x, y) => {
            write_cond(out, x, 1, name);
            out.push_str(" \\/ ");
            write_cond(out, y, 2, name);
        }
    }
    if paren {
        out.push(')');
    }
}

fn write_atom(out: &mut String, a: &CondAtom, name: &dyn Fn(usize, u32) -> Option<String>) {
    match a {
        CondAtom::Const(v) => out.push_str(&v.to_string()),
        CondAtom::Item(item) => match &item.value {
            StateItem::Reg { thread, reg } => match name(*thread, *reg) {
                Some(n) => out.push_str(&format!("{thread}:{n}")),
                None => out.push_str(&format!("{thread}:r{reg}")),
            },
            StateItem::Loc(name) => out.push_str(name),
        },
    }
}
