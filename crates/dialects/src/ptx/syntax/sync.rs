//! Fences (`fence.sc`, `fence.acq_rel`, `fence.proxy.*`) and CTA barriers
//! (`bar.cta.sync`, `bar.cta.arrive`).

use super::head::Head;
use super::words::{comma, next_is, proxy, scope, value, Order};
use crate::ptx::ast::{BarrierMode, FenceOrder, PtxInstr, Value};
use vkherd_litmus::syntax::lex::{consumed, fail, integer, unexpected_in, ws, PResult};

const PROXIES: &str = ".generic, .constant, .texture, .surface or .alias";

pub(super) fn fence<'a>(h: &Head<'a, '_>, i: &'a str) -> PResult<'a, PtxInstr> {
    const KINDS: &str = ".sc, .acq_rel or .proxy";
    const END: &str = "the end of the instruction (a fence has no operands)";
    let Some(&(w, _)) = h.sfx.first() else {
        return fail(
            h.text,
            format!("missing kind after `fence`: expected {KINDS}"),
        );
    };
    if w == "proxy" {
        let instr = match h.sfx.get(1) {
            None => {
                let msg = format!("missing proxy after `fence.proxy`: expected {PROXIES}");
                return fail(h.text, msg);
            }
            Some(&("alias", _)) => PtxInstr::AliasFence,
            Some(&(p, t)) => match proxy(p) {
                Some(p) => PtxInstr::ProxyFence(p),
                None => return fail(t, format!("unknown proxy `{t}`: expected {PROXIES}")),
            },
        };
        h.no_more(2, END)?;
        return Ok((i, instr));
    }
    let order = match h.order(&[Order::Sc, Order::AcqRel], KINDS)? {
        Order::Sc => FenceOrder::Sc,
        _ => FenceOrder::AcqRel,
    };
    let scope = h.scope(1)?;
    h.no_more(2, END)?;
    Ok((i, PtxInstr::Fence { order, scope }))
}

pub(super) fn barrier<'a>(h: &Head<'a, '_>, i: &'a str) -> PResult<'a, PtxInstr> {
    const MODES: &str = ".sync or .arrive";
    match h.sfx.first() {
        Some(&("cta", _)) => {}
        None => {
            return fail(
                h.text,
                "missing scope after `bar`: expected `.cta` (`bar.cta.sync N`)",
            )
        }
        Some(&("sync" | "arrive", t)) => {
            return fail(
                t,
                format!("missing scope before `{t}`: expected `bar.cta{t}`"),
            )
        }
        Some(&(w, t)) if scope(w).is_some() => {
            return fail(
                t,
                format!("`bar{t}`: a barrier is CTA-wide: expected `.cta`"),
            )
        }
        Some(&(_, t)) => return fail(t, format!("unexpected `{t}` after `bar`: expected `.cta`")),
    }
    let mode = match h.sfx.get(1) {
        Some(&("sync", _)) => BarrierMode::Sync,
        Some(&("arrive", _)) => BarrierMode::Arrive,
        Some(&(_, t)) => return fail(t, format!("unknown barrier mode `{t}`: expected {MODES}")),
        None => {
            return fail(
                h.text,
                format!("missing mode after `bar.cta`: expected {MODES}"),
            )
        }
    };
    let instance_what = "the barrier instance (an integer)";
    h.no_more(2, instance_what)?;
    let ctx = h.ctx();
    let (at, _) = ws(i)?;
    let (i, instance) = match integer(at) {
        Ok(r) => r,
        Err(nom::Err::Error(_)) => return Err(unexpected_in(at, &ctx, instance_what)),
        Err(e) => return Err(e),
    };
    let instance_text = consumed(at, i).to_string();
    let (i, id) = optional_value(i, &ctx)?;
    let (i, quorum) = match id {
        Some(_) => optional_value(i, &ctx)?,
        None => (i, None),
    };
    Ok((
        i,
        PtxInstr::Barrier {
            mode,
            instance,
            instance_text,
            id,
            quorum,
        },
    ))
}

/// `, V` if a comma is next.
fn optional_value<'a>(i: &'a str, ctx: &str) -> PResult<'a, Option<Value>> {
    if !next_is(i, ',') {
        return Ok((i, None));
    }
    let (i, _) = comma(i, ctx)?;
    let (i, v) = value(i, ctx)?;
    Ok((i, Some(v)))
}
