//! Memory accesses: loads, stores, `atom` and `red`, in every proxy, with the orders and
//! scopes Dat3M's visitor accepts for each.

use super::head::Head;
use super::words::{memory_operand, reg, rmw_op, value, Failure, Order};
use crate::ptx::ast::{
    AtomOp, LoadSem, Proxy, PtxInstr, PtxScope, RmwOp, RmwOrder, Spanned, StoreSem,
};
use vkherd_litmus::syntax::lex::{fail, ident, is_register, register, word, ws, PResult, Src};

const RMW_ORDERS: &str = ".relaxed, .acquire, .release or .acq_rel";
const RMW_OPS: &str = ".add, .sub, .mul, .div, .and, .or or .xor";

pub(super) fn load<'a>(
    src: &Src<'a>,
    h: &Head<'a, '_>,
    i: &'a str,
    proxy: Proxy,
) -> PResult<'a, PtxInstr> {
    let ctx = h.ctx();
    if h.sfx.is_empty() {
        // Dat3M's `localValue`: `ld r0, V` sets a register, whatever the opcode.
        let (i, dst) = destination(i, h)?;
        let (i, _) = h.comma(i, "rK, V")?;
        let (at, _) = ws(i)?;
        if let Ok((_, name)) = ident(at) {
            if !is_register(name) {
                return fail(
                    name,
                    format!(
                        "`{op} r{dst}, {name}` without an order sets a register to a register or an integer: \
                         to load from `{name}`, write `{op}.weak`, `{op}.relaxed.SCOPE` or `{op}.acquire.SCOPE`",
                        op = h.op
                    ),
                );
            }
        }
        let (i, value) = value(at, &ctx)?;
        return Ok((i, PtxInstr::Move { dst, value }));
    }
    let names = ".weak, .relaxed or .acquire";
    let sem = match h.weak_or_scoped(&[Order::Relaxed, Order::Acquire], names)? {
        None => LoadSem::Weak,
        Some((Order::Acquire, s)) => LoadSem::Acquire(s),
        Some((_, s)) => LoadSem::Relaxed(s),
    };
    let (i, dst) = destination(i, h)?;
    let (i, _) = h.comma(i, "rK, x")?;
    let (i, loc) = memory_operand(src, i, &ctx)?;
    Ok((
        i,
        PtxInstr::Load {
            proxy,
            sem,
            dst,
            loc,
        },
    ))
}

/// The destination register, first operand; a location there gets a hint.
pub(super) fn destination<'a>(i: &'a str, h: &Head<'a, '_>) -> PResult<'a, u32> {
    let (i, _) = ws(i)?;
    if let Ok((_, name)) = ident(i) {
        if register(i).is_err() && super::words::not_a_location(name).is_none() {
            return fail(
                name,
                format!(
                    "`{name}` where the destination register is expected: `{}` takes a register `rK` first",
                    h.text
                ),
            );
        }
    }
    reg(i, &h.ctx(), "a destination register `rK`")
}

pub(super) fn store<'a>(
    src: &Src<'a>,
    h: &Head<'a, '_>,
    i: &'a str,
    proxy: Proxy,
) -> PResult<'a, PtxInstr> {
    let names = ".weak, .relaxed or .release";
    let sem = match h.weak_or_scoped(&[Order::Relaxed, Order::Release], names)? {
        None => StoreSem::Weak,
        Some((Order::Release, s)) => StoreSem::Release(s),
        Some((_, s)) => StoreSem::Relaxed(s),
    };
    let ctx = h.ctx();
    let (i, loc) = first_location(src, h, i, "takes the location first")?;
    let (i, _) = h.comma(i, "x, V")?;
    let (i, value) = value(i, &ctx)?;
    Ok((
        i,
        PtxInstr::Store {
            proxy,
            sem,
            loc,
            value,
        },
    ))
}

/// The location that is the first operand of a store or `red`; a register there gets
/// `hint` and the right form.
fn first_location<'a>(
    src: &Src<'a>,
    h: &Head<'a, '_>,
    i: &'a str,
    hint: &str,
) -> PResult<'a, Spanned<String>> {
    let (at, _) = ws(i)?;
    if let (Ok((_, r)), Ok(_)) = (word(at), register(at)) {
        return fail(
            r,
            format!(
                "register `{r}` where the location is expected: `{}` {hint}: `{} x, V`",
                h.text, h.text
            ),
        );
    }
    memory_operand(src, at, &h.ctx())
}

/// The order and scope of an `atom` or `red`: suffixes 0 and 1.
fn rmw_sem<'a>(h: &Head<'a, '_>) -> Result<(RmwOrder, PtxScope), Failure<'a>> {
    let allowed = [
        Order::Relaxed,
        Order::Acquire,
        Order::Release,
        Order::AcqRel,
    ];
    let order = match h.order(&allowed, RMW_ORDERS)? {
        Order::Acquire => RmwOrder::Acquire,
        Order::Release => RmwOrder::Release,
        Order::AcqRel => RmwOrder::AcqRel,
        _ => RmwOrder::Relaxed,
    };
    Ok((order, h.scope(1)?))
}

pub(super) fn atom<'a>(
    src: &Src<'a>,
    h: &Head<'a, '_>,
    i: &'a str,
    proxy: Proxy,
) -> PResult<'a, PtxInstr> {
    let (order, scope) = rmw_sem(h)?;
    let ops = format!("{}, .exch or .cas", RMW_OPS.replace(" or ", ", "));
    let Some(&(w, t)) = h.sfx.get(2) else {
        let msg = format!("missing operation after `{}`: expected {ops}", h.text);
        return fail(h.text, msg);
    };
    enum Kind {
        Op(RmwOp),
        Exch,
        Cas,
    }
    let kind = match (w, rmw_op(w)) {
        (_, Some(op)) => Kind::Op(op),
        ("exch", None) => Kind::Exch,
        ("cas", None) => Kind::Cas,
        _ => return fail(t, format!("unknown atomic operation `{t}`: expected {ops}")),
    };
    h.no_more(3, "the operands")?;
    let form = if matches!(kind, Kind::Cas) {
        "rK, x, E, V"
    } else {
        "rK, x, V"
    };
    let ctx = h.ctx();
    let (i, dst) = destination(i, h)?;
    let (i, _) = h.comma(i, form)?;
    let (i, loc) = memory_operand(src, i, &ctx)?;
    let (i, _) = h.comma(i, form)?;
    let (i, first) = value(i, &ctx)?;
    let (i, op, value) = match kind {
        Kind::Op(op) => (i, AtomOp::Op(op), first),
        Kind::Exch => (i, AtomOp::Exch, first),
        Kind::Cas => {
            let (i, _) = h.comma(i, "rK, x, E, V")?;
            let (i, new) = value(i, &ctx)?;
            (i, AtomOp::Cas { expected: first }, new)
        }
    };
    Ok((
        i,
        PtxInstr::Atom {
            proxy,
            order,
            scope,
            op,
            dst,
            loc,
            value,
        },
    ))
}

pub(super) fn red<'a>(
    src: &Src<'a>,
    h: &Head<'a, '_>,
    i: &'a str,
    proxy: Proxy,
) -> PResult<'a, PtxInstr> {
    let (order, scope) = rmw_sem(h)?;
    let Some(&(w, t)) = h.sfx.get(2) else {
        let msg = format!("missing operation after `{}`: expected {RMW_OPS}", h.text);
        return fail(h.text, msg);
    };
    let op = match rmw_op(w) {
        Some(op) => op,
        None if matches!(w, "cas" | "exch") => {
            return fail(
                t,
                format!(
                    "`{}` has no `{t}`: expected {RMW_OPS} (`atom` has .exch and .cas)",
                    h.op
                ),
            )
        }
        None => return fail(t, format!("unknown reduction `{t}`: expected {RMW_OPS}")),
    };
    h.no_more(3, "the operands")?;
    let ctx = h.ctx();
    let (i, loc) = first_location(src, h, i, "has no destination register")?;
    let (i, _) = h.comma(i, "x, V")?;
    let (i, value) = value(i, &ctx)?;
    Ok((
        i,
        PtxInstr::Red {
            proxy,
            order,
            scope,
            op,
            loc,
            value,
        },
    ))
}
