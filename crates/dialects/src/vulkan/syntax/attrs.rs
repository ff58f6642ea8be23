//! The dotted attribute tokens of ld/st/rmw/membar/cbar, read as a set in any order.
//!
//! Errors that concern one token (unknown, repeated, contradicting an earlier one, or not
//! applicable to this opcode) span that token; the rules on the whole set are
//! `validate::check_attrs`, whose errors span the opcode.

use crate::vulkan::ast::{ArithOp, MemAttrs, Scope, MAX_STORAGE_CLASSES};
use crate::vulkan::validate::{check_attrs, AccessKind};
use vkherd_litmus::syntax::lex::{err, PErr};

type Res<'a, T> = Result<T, nom::Err<PErr<'a>>>;

/// `prefix` followed by one digit below [`MAX_STORAGE_CLASSES`] (`sc2`, `semsc0`).
fn class_index(tok: &str, prefix: &str) -> Option<u8> {
    let d = tok.strip_prefix(prefix)?;
    let n: u8 = d.parse().ok().filter(|_| d.len() == 1)?;
    (n < MAX_STORAGE_CLASSES).then_some(n)
}

fn scope(tok: &str) -> Option<Scope> {
    Some(match tok {
        "sg" => Scope::Subgroup,
        "wg" => Scope::Workgroup,
        "qf" => Scope::QueueFamily,
        "dv" => Scope::Device,
        _ => return None,
    })
}

fn kind_name(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Load => "a load",
        AccessKind::Store => "a store",
        AccessKind::Rmw => "a read-modify-write",
        AccessKind::Membar => "a memory barrier",
        AccessKind::Cbar => "a control barrier",
    }
}

/// The tokens `kind` accepts, for "unknown token" messages.
fn accepted(kind: AccessKind) -> String {
    use AccessKind::*;
    let access = matches!(kind, Load | Store | Rmw);
    let mut t: Vec<&str> = Vec::new();
    if access {
        t.push("atom");
    }
    t.extend(["acq", "rel", "acq_rel", "sg", "wg", "qf", "dv"]);
    if access {
        t.push("sc0`..`sc3");
    }
    t.extend(["semsc0`..`semsc3", "semav", "semvis"]);
    match kind {
        Load => t.extend(["vis", "nonpriv"]),
        Store => t.extend(["av", "nonpriv"]),
        Rmw => t.extend(["add", "sub", "mul", "div", "and", "or", "xor"]),
        _ => {}
    }
    t.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads the tokens after the opcode's first one and checks them; returns the attributes
/// and the RMW operation, if any.
pub(super) fn mem_attrs<'a>(
    kind: AccessKind,
    opword: &'a str,
    tokens: &[&'a str],
) -> Res<'a, (MemAttrs, Option<ArithOp>)> {
    use AccessKind::*;
    let access = matches!(kind, Load | Store | Rmw);
    let what = kind_name(kind);
    let mut a = MemAttrs::default();
    let mut semantics: Option<&str> = None;
    let mut scope_tok: Option<&str> = None;
    let mut class_tok: Option<&str> = None;
    let mut op: Option<(&str, ArithOp)> = None;
    for &t in tokens {
        let duplicate = || {
            err(
                t,
                format!("duplicate token `{t}` in `{opword}`: expected each token once"),
            )
        };
        // A flag that may appear once, and only where `applies`.
        let flag = |set: &mut bool, applies: bool, why: &str| -> Res<'a, ()> {
            if !applies {
                return Err(err(t, format!("`{t}` on {what} in `{opword}`: {why}")));
            }
            if *set {
                return Err(duplicate());
            }
            *set = true;
            Ok(())
        };
        match t {
            "atom" => flag(
                &mut a.atomic,
                access,
                "only loads, stores and RMWs are atomic",
            )?,
            "semav" => flag(&mut a.semav, true, "")?,
            "semvis" => flag(&mut a.semvis, true, "")?,
            "av" => flag(
                &mut a.av,
                kind == Store,
                "per-instruction availability is for stores (`st.av`)",
            )?,
            "vis" => flag(
                &mut a.vis,
                kind == Load,
                "per-instruction visibility is for loads (`ld.vis`)",
            )?,
            "nonpriv" => flag(
                &mut a.nonpriv,
                matches!(kind, Load | Store),
                "`nonpriv` is for plain loads and stores (atomics are always non-private)",
            )?,
            "acq" | "rel" | "acq_rel" => {
                if let Some(prev) = semantics {
                    if prev == t {
                        return Err(duplicate());
                    }
                    return Err(err(
                        t,
                        format!(
                            "`{t}` after `{prev}` in `{opword}`: expected one of `acq`, `rel` or `acq_rel` (write `acq_rel` for both)"
                        ),
                    ));
                }
                semantics = Some(t);
                a.acq = t != "rel";
                a.rel = t != "acq";
            }
            _ => {
                if let Some(s) = scope(t) {
                    if let Some(prev) = scope_tok {
                        return Err(if prev == t {
                            duplicate()
                        } else {
                            err(t, format!("second scope `{t}` in `{opword}`: expected one scope, and `{prev}` is already given"))
                        });
                    }
                    scope_tok = Some(t);
                    a.scope = Some(s);
                } else if let Some(n) = class_index(t, "sc") {
                    if !access {
                        return Err(err(
                            t,
                            format!("storage class `{t}` on {what} in `{opword}`: barriers take `semscN`, not `scN`"),
                        ));
                    }
                    if let Some(prev) = class_tok {
                        return Err(if prev == t {
                            duplicate()
                        } else {
                            err(t, format!("second storage class `{t}` in `{opword}`: expected one, and `{prev}` is already given"))
                        });
                    }
                    class_tok = Some(t);
                    a.storage_class = Some(n);
                } else if let Some(n) = class_index(t, "semsc") {
                    if a.semsc & (1 << n) != 0 {
                        return Err(duplicate());
                    }
                    a.semsc |= 1 << n;
                } else if let Some(o) = arith_op(t) {
                    if kind != Rmw {
                        return Err(err(
                            t,
                            format!("operation `{t}` on {what} in `{opword}`: only `rmw.atom` takes an operation"),
                        ));
                    }
                    if let Some((prev, _)) = op {
                        return Err(if prev == t {
                            duplicate()
                        } else {
                            err(t, format!("second operation `{t}` in `{opword}`: expected at most one, and `{prev}` is already given"))
                        });
                    }
                    op = Some((t, o));
                } else {
                    return Err(err(
                        t,
                        format!(
                            "unknown token `{t}` in `{opword}`: expected one of {}",
                            accepted(kind)
                        ),
                    ));
                }
            }
        }
    }
    check_attrs(kind, &a).map_err(|m| err(opword, format!("`{opword}`: {m}")))?;
    // Per-instruction av/vis happen at a scope; check_attrs only requires one on atomics.
    for (set, tok) in [(a.av, "av"), (a.vis, "vis")] {
        if set && a.scope.is_none() {
            return Err(err(
                opword,
                format!("`{opword}`: `{tok}` without a scope: expected one of sg, wg, qf, dv"),
            ));
        }
    }
    Ok((a, op.map(|(_, o)| o)))
}

/// An arithmetic mnemonic: a read-modify-write's operation (`rmw.atom.dv.sc0.add`) and
/// local arithmetic (`add r0, r1, 1`).
pub(super) fn arith_op(w: &str) -> Option<ArithOp> {
    Some(match w {
        "add" => ArithOp::Add,
        "sub" => ArithOp::Sub,
        "mul" => ArithOp::Mul,
        "div" => ArithOp::Div,
        "and" => ArithOp::And,
        "or" => ArithOp::Or,
        "xor" => ArithOp::Xor,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(kind: AccessKind, opword: &str) -> Result<MemAttrs, String> {
        let tokens: Vec<&str> = opword.split('.').skip(1).collect();
        mem_attrs(kind, opword, &tokens)
            .map(|(a, _)| a)
            .map_err(|e| match e {
                nom::Err::Failure(e) | nom::Err::Error(e) => format!("{}|{}", e.at, e.msg),
                nom::Err::Incomplete(_) => String::new(),
            })
    }

    #[test]
    fn tokens_in_any_order_give_the_same_attributes() {
        let a = attrs(AccessKind::Load, "ld.atom.acq.wg.sc0.semsc0.semsc2.semvis").unwrap();
        let b = attrs(AccessKind::Load, "ld.semvis.semsc2.sc0.wg.semsc0.acq.atom").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.semsc, 0b101);
        assert_eq!(a.scope, Some(Scope::Workgroup));
    }

    #[test]
    fn acq_rel_sets_both() {
        let a = attrs(AccessKind::Membar, "membar.acq_rel.dv.semsc1").unwrap();
        assert!(a.acq && a.rel);
        assert_eq!(a.semsc, 0b10);
    }

    #[test]
    fn token_errors_name_the_token() {
        let e = attrs(AccessKind::Load, "ld.atom.wg.dv.sc0").unwrap_err();
        assert!(e.starts_with("dv|second scope `dv`"), "{e}");
        let e = attrs(AccessKind::Load, "ld.av.dv.sc0").unwrap_err();
        assert!(e.starts_with("av|`av` on a load"), "{e}");
        let e = attrs(AccessKind::Store, "st.sc0.sc1").unwrap_err();
        assert!(e.starts_with("sc1|second storage class"), "{e}");
        let e = attrs(AccessKind::Load, "ld.atom.acq.rel.wg.sc0.semsc0").unwrap_err();
        assert!(e.starts_with("rel|`rel` after `acq`"), "{e}");
        let e = attrs(AccessKind::Load, "ld.sc4").unwrap_err();
        assert!(e.starts_with("sc4|unknown token `sc4`"), "{e}");
        let e = attrs(AccessKind::Rmw, "rmw.atom.wg.sc0.add.add").unwrap_err();
        assert!(e.starts_with("add|duplicate token `add`"), "{e}");
    }

    #[test]
    fn set_rules_span_the_opcode() {
        let e = attrs(AccessKind::Store, "st.atom.acq.wg.sc0.semsc0").unwrap_err();
        assert!(
            e.starts_with(
                "st.atom.acq.wg.sc0.semsc0|`st.atom.acq.wg.sc0.semsc0`: acquire on a store"
            ),
            "{e}"
        );
        let e = attrs(AccessKind::Load, "ld.vis.sc0").unwrap_err();
        assert!(e.contains("`vis` without a scope"), "{e}");
    }
}
