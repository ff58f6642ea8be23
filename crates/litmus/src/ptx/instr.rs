//! One cell of the table: a label `LCnn:` or one instruction, an opcode with `.`-suffixes
//! (order, scope, operation) and comma-separated operands.
//!
//! Which orders and scopes an instruction accepts is checked here, as Dat3M's visitor
//! (VisitorLitmusPTX) checks it, so that a bad combination is blamed on its suffix.

use super::ast::{
    ArithOp, AtomOp, BarrierMode, CmpOp, FenceOrder, LoadSem, Proxy, PtxInstr, PtxScope, RmwOp,
    RmwOrder, Spanned, StoreSem,
};
use super::words::{
    comma, is_label, label, location, next_is, order, proxy, reg, scope, suffixes, value, Failure,
    Order, SCOPES,
};
use crate::litmus_parser::lex::{
    consumed, err, fail, ident, integer, register, unexpected, unexpected_in, word, ws, PResult,
    Src,
};

const INSTRUCTIONS: &str = "an instruction (`ld`, `st`, `atom`, `red`, `fence`, `bar`, `tld`, \
`suld`, `cold`, `sust`, `suatom`, `sured`, `add`, `sub`, `mul`, `div`, `beq`, `bne`, `blt`, \
`bgt`, `ble`, `bge`, `goto`) or a label `LCnn:`";

/// In the first column a stray word may be a misspelt keyword of the conditions part.
const OR_CONDITIONS: &str =
    ", or after the table `locations`, `filter`, `exists`, `~exists`, `forall` or `final`";

const RMW_ORDERS: &str = ".relaxed, .acquire, .release or .acq_rel";
const RMW_OPS: &str = ".add, .sub, .mul, .div, .and, .or or .xor";
const PROXIES: &str = ".generic, .constant, .texture, .surface or .alias";

/// The items of a non-empty cell of column `col`: one label or one instruction.
pub(super) fn cell<'a>(
    src: &Src<'a>,
    i: &'a str,
    col: usize,
) -> PResult<'a, Vec<Spanned<PtxInstr>>> {
    let (rest, instr) = instruction(src, i, col == 0)?;
    if let PtxInstr::Label(name) = &instr.value {
        let (j, _) = ws(rest)?;
        if !(j.is_empty() || j.starts_with(['|', ';'])) {
            return Err(unexpected_in(
                j,
                &format!(" after the label `{name}:`"),
                "`|` or `;`: a label takes a cell of its own (put the instruction on the next row)",
            ));
        }
    }
    Ok((rest, vec![instr]))
}

fn instruction<'a>(src: &Src<'a>, i: &'a str, first_col: bool) -> PResult<'a, Spanned<PtxInstr>> {
    let expected = if first_col {
        format!("{INSTRUCTIONS}{OR_CONDITIONS}")
    } else {
        INSTRUCTIONS.to_string()
    };
    let (j, op) = match word(i) {
        Ok(r) => r,
        Err(_) => return Err(unexpected(i, &expected)),
    };
    if next_is(j, ':') {
        return label_def(src, i, j, op);
    }
    let (j, sfx) = suffixes(i, j)?;
    let h = Head {
        start: i,
        op,
        sfx: &sfx,
        text: consumed(i, j),
    };
    let (rest, instr) = match op {
        "ld" => load(src, &h, j, Proxy::Generic),
        "tld" => load(src, &h, j, Proxy::Texture),
        "suld" => load(src, &h, j, Proxy::Surface),
        "cold" => load(src, &h, j, Proxy::Constant),
        "st" => store(src, &h, j, Proxy::Generic),
        "sust" => store(src, &h, j, Proxy::Surface),
        "atom" => atom(src, &h, j, Proxy::Generic),
        "suatom" => atom(src, &h, j, Proxy::Surface),
        "red" => red(src, &h, j, Proxy::Generic),
        "sured" => red(src, &h, j, Proxy::Surface),
        "fence" => fence(&h, j),
        "bar" => barrier(&h, j),
        "add" => arith(&h, j, ArithOp::Add),
        "sub" => arith(&h, j, ArithOp::Sub),
        "mul" => arith(&h, j, ArithOp::Mul),
        "div" => arith(&h, j, ArithOp::Div),
        "beq" => branch(src, &h, j, CmpOp::Eq),
        "bne" => branch(src, &h, j, CmpOp::Ne),
        "blt" => branch(src, &h, j, CmpOp::Lt),
        "bgt" => branch(src, &h, j, CmpOp::Gt),
        "ble" => branch(src, &h, j, CmpOp::Le),
        "bge" => branch(src, &h, j, CmpOp::Ge),
        "goto" => {
            h.no_more(0, "a label `LCnn`")?;
            let (j, target) = label(src, j, &h.ctx())?;
            Ok((j, PtxInstr::Goto(target)))
        }
        w if is_label(w) => fail(
            w,
            format!(
                "label `{w}` without `:`: expected `{w}:` to place it, or `goto {w}` to jump to it"
            ),
        ),
        w => fail(w, format!("unknown instruction `{w}`: expected {expected}")),
    }?;
    Ok((rest, src.spanned(instr, consumed(i, rest))))
}

/// `LCnn:`; `j` is after the word `w`, at the `:`.
fn label_def<'a>(
    src: &Src<'a>,
    i: &'a str,
    j: &'a str,
    w: &'a str,
) -> PResult<'a, Spanned<PtxInstr>> {
    if !is_label(w) {
        return fail(
            w,
            format!("label `{w}`: expected `LC` followed by digits, like `LC00`"),
        );
    }
    let (j, _) = ws(j)?;
    let rest = j.get(1..).unwrap_or(j);
    let instr = PtxInstr::Label(w.to_string());
    Ok((rest, src.spanned(instr, consumed(i, rest))))
}

/// An opcode and its suffixes, for checks and messages.
struct Head<'a, 's> {
    /// Where the instruction starts.
    start: &'a str,
    /// The opcode word, `ld`.
    op: &'a str,
    /// The suffixes: each word, and its text from the `.`.
    sfx: &'s [(&'a str, &'a str)],
    /// The opcode with its suffixes, `ld.acquire.gpu`.
    text: &'a str,
}

impl<'a> Head<'a, '_> {
    /// The opcode and its first `n` suffixes: `ld.acquire` for 1.
    fn upto(&self, n: usize) -> &'a str {
        let Some(&(_, t)) = n.checked_sub(1).and_then(|k| self.sfx.get(k)) else {
            return self.op;
        };
        let end = (t.as_ptr() as usize + t.len()).saturating_sub(self.start.as_ptr() as usize);
        self.start.get(..end).unwrap_or(self.text)
    }

    fn ctx(&self) -> String {
        format!(" in `{}`", self.text)
    }

    /// The `,` before the next operand; `form` is the operands' shape, for the message.
    fn comma(&self, i: &'a str, form: &str) -> PResult<'a, ()> {
        let (j, _) = ws(i)?;
        match j.strip_prefix(',') {
            Some(rest) => Ok((rest, ())),
            None => {
                let expected = format!("`,` (the form is `{} {form}`)", self.text);
                Err(unexpected_in(j, &self.ctx(), &expected))
            }
        }
    }

    /// Fails at the suffix `n`, if there is one: nothing but `expected` may follow.
    fn no_more(&self, n: usize, expected: &str) -> Result<(), Failure<'a>> {
        match self.sfx.get(n) {
            None => Ok(()),
            Some(&(_, t)) => Err(err(
                t,
                format!(
                    "unexpected `{t}` after `{}`: expected {expected}",
                    self.upto(n)
                ),
            )),
        }
    }

    /// The order, suffix 0, which must be one of `allowed` (spelt `names` for messages).
    fn order(&self, allowed: &[Order], names: &str) -> Result<Order, Failure<'a>> {
        let Some(&(w, t)) = self.sfx.first() else {
            return Err(err(
                self.text,
                format!("missing order after `{}`: expected {names}", self.op),
            ));
        };
        match order(w) {
            Some(o) if allowed.contains(&o) => Ok(o),
            Some(_) => Err(err(
                t,
                format!("`{t}` is not an order of `{}`: expected {names}", self.op),
            )),
            None if scope(w).is_some() => Err(err(
                t,
                format!(
                    "missing order before the scope `{t}` in `{}`: expected {names}",
                    self.text
                ),
            )),
            None => Err(err(
                t,
                format!("unknown order `{t}` in `{}`: expected {names}", self.op),
            )),
        }
    }

    /// The scope, suffix `n`, which every order but `.weak` needs.
    fn scope(&self, n: usize) -> Result<PtxScope, Failure<'a>> {
        let Some(&(w, t)) = self.sfx.get(n) else {
            return Err(err(
                self.text,
                format!("missing scope after `{}`: expected {SCOPES}", self.upto(n)),
            ));
        };
        scope(w).ok_or_else(|| {
            let msg = if order(w).is_some() || rmw_op(w).is_some() || matches!(w, "cas" | "exch") {
                format!(
                    "missing scope before `{t}` in `{}`: expected {SCOPES}",
                    self.text
                )
            } else {
                format!("unknown scope `{t}`: expected {SCOPES}")
            };
            err(t, msg)
        })
    }

    /// `.weak` and nothing after it, or an order of `scoped` and a scope.
    fn weak_or_scoped(
        &self,
        scoped: &[Order],
        names: &str,
    ) -> Result<Option<(Order, PtxScope)>, Failure<'a>> {
        let mut allowed = vec![Order::Weak];
        allowed.extend_from_slice(scoped);
        let o = self.order(&allowed, names)?;
        if o == Order::Weak {
            if let Some(&(w, t)) = self.sfx.get(1) {
                if scope(w).is_some() {
                    return Err(err(
                        t,
                        format!(
                            "`{}.weak` takes no scope: remove `{t}`, or use `.relaxed{t}`",
                            self.op
                        ),
                    ));
                }
            }
            self.no_more(1, "the operands")?;
            return Ok(None);
        }
        let s = self.scope(1)?;
        self.no_more(2, "the operands")?;
        Ok(Some((o, s)))
    }
}

fn load<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, proxy: Proxy) -> PResult<'a, PtxInstr> {
    let ctx = h.ctx();
    if h.sfx.is_empty() {
        // Dat3M's `localValue`: `ld r0, V` sets a register, whatever the opcode.
        let (i, dst) = destination(i, h)?;
        let (i, _) = h.comma(i, "rK, V")?;
        let (at, _) = ws(i)?;
        if let Ok((_, name)) = ident(at) {
            if register(at).is_err() {
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
    let (i, loc) = location(src, i, &ctx)?;
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
fn destination<'a>(i: &'a str, h: &Head<'a, '_>) -> PResult<'a, u32> {
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

fn store<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, proxy: Proxy) -> PResult<'a, PtxInstr> {
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
    location(src, at, &h.ctx())
}

fn rmw_op(w: &str) -> Option<RmwOp> {
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

fn atom<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, proxy: Proxy) -> PResult<'a, PtxInstr> {
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
    let (i, loc) = location(src, i, &ctx)?;
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

fn red<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, proxy: Proxy) -> PResult<'a, PtxInstr> {
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

fn fence<'a>(h: &Head<'a, '_>, i: &'a str) -> PResult<'a, PtxInstr> {
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

fn barrier<'a>(h: &Head<'a, '_>, i: &'a str) -> PResult<'a, PtxInstr> {
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
fn optional_value<'a>(i: &'a str, ctx: &str) -> PResult<'a, Option<super::ast::Value>> {
    if !next_is(i, ',') {
        return Ok((i, None));
    }
    let (i, _) = comma(i, ctx)?;
    let (i, v) = value(i, ctx)?;
    Ok((i, Some(v)))
}

fn arith<'a>(h: &Head<'a, '_>, i: &'a str, op: ArithOp) -> PResult<'a, PtxInstr> {
    h.no_more(0, "the operands `rK, A, B`")?;
    let ctx = h.ctx();
    let (i, dst) = destination(i, h)?;
    let (i, _) = h.comma(i, "rK, A, B")?;
    let (i, a) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "rK, A, B")?;
    let (i, b) = value(i, &ctx)?;
    Ok((i, PtxInstr::Arith { op, dst, a, b }))
}

fn branch<'a>(src: &Src<'a>, h: &Head<'a, '_>, i: &'a str, op: CmpOp) -> PResult<'a, PtxInstr> {
    h.no_more(0, "the operands `A, B, LCnn`")?;
    let ctx = h.ctx();
    let (i, a) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "A, B, LCnn")?;
    let (i, b) = value(i, &ctx)?;
    let (i, _) = h.comma(i, "A, B, LCnn")?;
    let (i, target) = label(src, i, &ctx)?;
    Ok((i, PtxInstr::Branch { op, a, b, target }))
}
