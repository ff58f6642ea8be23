//! An instruction's opcode and `.`-suffixes, and the checks on them: which order, which
//! scope, nothing more; each error blames the suffix at fault.

use super::words::{order, rmw_op, scope, Failure, Order, SCOPES};
use crate::ptx::ast::PtxScope;
use vkherd_litmus::syntax::lex::{err, unexpected_in, ws, PResult};

/// An opcode and its suffixes, for checks and messages.
pub(super) struct Head<'a, 's> {
    /// Where the instruction starts.
    pub start: &'a str,
    /// The opcode word, `ld`.
    pub op: &'a str,
    /// The suffixes: each word, and its text from the `.`.
    pub sfx: &'s [(&'a str, &'a str)],
    /// The opcode with its suffixes, `ld.acquire.gpu`.
    pub text: &'a str,
}

impl<'a> Head<'a, '_> {
    /// The opcode and its first `n` suffixes: `ld.acquire` for 1.
    pub(super) fn upto(&self, n: usize) -> &'a str {
        let Some(&(_, t)) = n.checked_sub(1).and_then(|k| self.sfx.get(k)) else {
            return self.op;
        };
        let end = (t.as_ptr() as usize + t.len()).saturating_sub(self.start.as_ptr() as usize);
        self.start.get(..end).unwrap_or(self.text)
    }

    pub(super) fn ctx(&self) -> String {
        format!(" in `{}`", self.text)
    }

    /// The `,` before the next operand; `form` is the operands' shape, for the message.
    pub(super) fn comma(&self, i: &'a str, form: &str) -> PResult<'a, ()> {
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
    pub(super) fn no_more(&self, n: usize, expected: &str) -> Result<(), Failure<'a>> {
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
    pub(super) fn order(&self, allowed: &[Order], names: &str) -> Result<Order, Failure<'a>> {
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
    pub(super) fn scope(&self, n: usize) -> Result<PtxScope, Failure<'a>> {
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
    pub(super) fn weak_or_scoped(
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
