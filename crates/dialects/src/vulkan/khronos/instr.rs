//! Instruction lines: `tok.tok.tok [var [= v [v2]]]` and `cbar.tok... N`.

use super::ast::{KhronosInstr, KhronosOp, Span};
use super::lex::{ident, skip_ws, uint_word, value_word, word, Line};
use crate::vulkan::ast::{MemAttrs, Scope};
use crate::vulkan::validate::{check_attrs, AccessKind, Vocabulary};
use vkherd_litmus::Diagnostic;

/// Every token an instruction may carry, for "expected one of" messages.
pub(super) const TOKENS: &str = "st, ld, rmw, atom, membar, cbar, acq, rel, sc0, sc1, sc2, sc3, \
     semsc0, semsc1, semsc2, semsc3, scopesg, scopewg, scopeqf, scopedev, av, vis, semav, \
     semvis, nonpriv, avdevice, visdevice";

const KINDS: &str =
    "`ld`, `st`, `rmw` (= `ld.st.atom`), `membar`, `cbar`, `avdevice` or `visdevice`";

// Kind bits.
const LD: u8 = 1;
const ST: u8 = 2;
const MEMBAR: u8 = 4;
const CBAR: u8 = 8;
const AVDEVICE: u8 = 16;
const VISDEVICE: u8 = 32;

#[derive(Debug, Clone, Copy)]
enum Tok {
    /// Kind bits, and whether the token implies `atom` (`rmw`).
    Kind(u8, bool),
    Atom,
    Acq,
    Rel,
    Sc(u8),
    Semsc(u8),
    Scope(Scope),
    Av,
    Vis,
    Semav,
    Semvis,
    Nonpriv,
}

fn lookup(t: &str) -> Option<Tok> {
    Some(match t {
        "ld" => Tok::Kind(LD, false),
        "st" => Tok::Kind(ST, false),
        "rmw" => Tok::Kind(LD | ST, true),
        "membar" => Tok::Kind(MEMBAR, false),
        "cbar" => Tok::Kind(CBAR, false),
        "avdevice" => Tok::Kind(AVDEVICE, false),
        "visdevice" => Tok::Kind(VISDEVICE, false),
        "atom" => Tok::Atom,
        "acq" => Tok::Acq,
        "rel" => Tok::Rel,
        "sc0" => Tok::Sc(0),
        "sc1" => Tok::Sc(1),
        "sc2" => Tok::Sc(2),
        "sc3" => Tok::Sc(3),
        "semsc0" => Tok::Semsc(0),
        "semsc1" => Tok::Semsc(1),
        "semsc2" => Tok::Semsc(2),
        "semsc3" => Tok::Semsc(3),
        "scopesg" => Tok::Scope(Scope::Subgroup),
        "scopewg" => Tok::Scope(Scope::Workgroup),
        "scopeqf" => Tok::Scope(Scope::QueueFamily),
        "scopedev" => Tok::Scope(Scope::Device),
        "av" => Tok::Av,
        "vis" => Tok::Vis,
        "semav" => Tok::Semav,
        "semvis" => Tok::Semvis,
        "nonpriv" => Tok::Nonpriv,
        _ => return None,
    })
}

fn scope_token(s: Scope) -> &'static str {
    match s {
        Scope::Subgroup => "scopesg",
        Scope::Workgroup => "scopewg",
        Scope::QueueFamily => "scopeqf",
        Scope::Device => "scopedev",
    }
}

/// A parsed instruction line, with the spans the whole-file checks blame.
#[derive(Debug)]
pub(super) struct ParsedInstr {
    pub instr: KhronosInstr,
    /// The span of each value after `=`.
    pub value_spans: Vec<Span>,
    /// The span of a cbar's instance number.
    pub instance_span: Option<Span>,
}

/// Parses an instruction line; `body` is the line's text without leading whitespace.
pub(super) fn parse_instr(line: &Line<'_>, body: &str) -> Result<ParsedInstr, Diagnostic> {
    let Some((rest, opcode)) = word(body) else {
        return Err(line.unexpected(body, "an instruction"));
    };
    let (op, attrs) = parse_opcode(line, opcode)?;

    let mut instr = KhronosInstr {
        op,
        attrs,
        var: None,
        values: Vec::new(),
        instance: None,
        span: line.content_span(),
    };
    let mut value_spans = Vec::new();
    let mut instance_span = None;

    match op {
        KhronosOp::Load | KhronosOp::Store | KhronosOp::Rmw => {
            let r = skip_ws(rest);
            let Some((r, var)) = ident(r) else {
                return Err(line.unexpected(r, &format!("a variable name after `{opcode}`")));
            };
            instr.var = Some(var.to_string());
            let r = skip_ws(r);
            if let Some(mut r) = r.strip_prefix('=') {
                let eq = &r[..0];
                while let Some((next, w)) = word(r) {
                    instr.values.push(value_word(line, w)?);
                    value_spans.push(line.span(w));
                    r = next;
                }
                if instr.values.is_empty() {
                    return Err(line.error(eq, "missing value: expected an integer after `=`"));
                }
            } else if !r.is_empty() {
                let what = if op == KhronosOp::Load {
                    "`= value` or end of line"
                } else {
                    "`= value`"
                };
                return Err(line.unexpected(r, what));
            }
            check_value_count(line, op, var, &instr.values, &value_spans)?;
        }
        KhronosOp::Cbar => {
            let Some((r, w)) = word(rest) else {
                return Err(line.error(
                    line.end(),
                    format!("missing instance number: expected `{opcode} N`"),
                ));
            };
            instr.instance = Some(uint_word(line, w, "instance number")?);
            instance_span = Some(line.span(w));
            if word(r).is_some() {
                return Err(line.unexpected(r, "end of line after the instance number"));
            }
        }
        KhronosOp::Membar | KhronosOp::AvDevice | KhronosOp::VisDevice => {
            if word(rest).is_some() {
                return Err(
                    line.unexpected(rest, &format!("end of line: `{opcode}` takes no operands"))
                );
            }
        }
    }
    Ok(ParsedInstr {
        instr,
        value_spans,
        instance_span,
    })
}

fn check_value_count(
    line: &Line<'_>,
    op: KhronosOp,
    var: &str,
    values: &[i64],
    spans: &[Span],
) -> Result<(), Diagnostic> {
    let (min, max, what) = match op {
        KhronosOp::Load => (
            0,
            1,
            "a load takes at most one value (`= v`, the value it reads)",
        ),
        KhronosOp::Store => (1, 1, "a store takes one value (`= v`, the value it writes)"),
        _ => (
            2,
            2,
            "an RMW takes two values (`= v1 v2`: the value it reads, then the value it writes)",
        ),
    };
    if values.len() > max {
        let extra = spans[max];
        return Err(Diagnostic::new(
            extra,
            format!("unexpected extra value `{}`: {what}", values[max]),
        ));
    }
    if values.len() < min {
        let found = match values.len() {
            0 => "none".to_string(),
            n => n.to_string(),
        };
        let example = if op == KhronosOp::Store {
            format!("`{var} = v`")
        } else {
            format!("`{var} = v1 v2`")
        };
        return Err(line.error(
            line.end(),
            format!("missing value (found {found}): {what}; expected {example}"),
        ));
    }
    Ok(())
}

/// Parses the dotted token group into the instruction kind and its attributes, and
/// checks the attribute rules.
fn parse_opcode(line: &Line<'_>, opcode: &str) -> Result<(KhronosOp, MemAttrs), Diagnostic> {
    let mut a = MemAttrs::default();
    let mut kinds = 0u8;
    let mut kind_toks: Vec<&str> = Vec::new();
    let mut scope_tok: Option<&str> = None;
    let mut sc_tok: Option<&str> = None;
    for tok in opcode.split('.') {
        if tok.is_empty() {
            return Err(line.error(
                opcode,
                format!("empty token in `{opcode}`: expected tokens separated by single dots"),
            ));
        }
        let Some(t) = lookup(tok) else {
            return Err(line.error(
                tok,
                format!("unknown token `{tok}` in `{opcode}`: expected one of {TOKENS}"),
            ));
        };
        match t {
            Tok::Kind(bits, atom) => {
                kinds |= bits;
                a.atomic |= atom;
                if !kind_toks.contains(&tok) {
                    kind_toks.push(tok);
                }
            }
            Tok::Atom => a.atomic = true,
            Tok::Acq => a.acq = true,
            Tok::Rel => a.rel = true,
            Tok::Sc(i) => {
                if let (Some(prev), Some(old)) = (sc_tok, a.storage_class) {
                    if old != i {
                        return Err(line.error(
                            tok,
                            format!(
                                "second storage class `{tok}` in `{opcode}` (already `{prev}`): \
                                 expected exactly one of sc0, sc1, sc2, sc3"
                            ),
                        ));
                    }
                }
                a.storage_class = Some(i);
                sc_tok = Some(tok);
            }
            Tok::Semsc(i) => a.semsc |= 1 << i,
            Tok::Scope(s) => {
                if let Some(old) = a.scope {
                    if old != s {
                        let prev = scope_tok.unwrap_or(scope_token(old));
                        return Err(line.error(
                            tok,
                            format!(
                                "second scope `{tok}` in `{opcode}` (already `{prev}`): expected \
                                 exactly one of scopesg, scopewg, scopeqf, scopedev"
                            ),
                        ));
                    }
                }
                a.scope = Some(s);
                scope_tok = Some(tok);
            }
            Tok::Av => a.av = true,
            Tok::Vis => a.vis = true,
            Tok::Semav => a.semav = true,
            Tok::Semvis => a.semvis = true,
            Tok::Nonpriv => a.nonpriv = true,
        }
    }
    let (op, access) = match kinds {
        LD => (KhronosOp::Load, Some(AccessKind::Load)),
        ST => (KhronosOp::Store, Some(AccessKind::Store)),
        k if k == LD | ST => (KhronosOp::Rmw, Some(AccessKind::Rmw)),
        MEMBAR => (KhronosOp::Membar, Some(AccessKind::Membar)),
        CBAR => (KhronosOp::Cbar, Some(AccessKind::Cbar)),
        AVDEVICE => (KhronosOp::AvDevice, None),
        VISDEVICE => (KhronosOp::VisDevice, None),
        0 => {
            return Err(line.error(
                opcode,
                format!("`{opcode}` has no instruction kind: expected one of {KINDS}"),
            ))
        }
        _ => {
            let list = kind_toks
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(line.error(
                opcode,
                format!(
                    "`{opcode}` mixes instruction kinds {list}: expected exactly one of {KINDS}"
                ),
            ));
        }
    };
    match access {
        Some(kind) => check_attrs(kind, &a).map_err(|e| {
            let m = e.message(Vocabulary::Khronos);
            line.error(opcode, format!("`{opcode}`: {m}"))
        })?,
        None => {
            if a != MemAttrs::default() {
                let extra = opcode
                    .split('.')
                    .find(|t| !matches!(lookup(t), Some(Tok::Kind(..))))
                    .unwrap_or(opcode);
                return Err(line.error(
                    extra,
                    format!(
                        "unexpected `{extra}` in `{opcode}`: `{}` takes no other tokens",
                        kind_toks.first().copied().unwrap_or(opcode)
                    ),
                ));
            }
        }
    }
    Ok((op, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<ParsedInstr, Diagnostic> {
        let line = Line::split(src).next().unwrap();
        parse_instr(&line, line.body())
    }

    #[test]
    fn kinds_and_attributes() {
        let i = parse("st.ld.atom.scopewg.sc0 y = 2 3").unwrap().instr;
        assert_eq!(i.op, KhronosOp::Rmw);
        assert!(i.attrs.atomic);
        assert_eq!(i.values, vec![2, 3]);
        let i = parse("rmw.scopedev.sc0 y = 1 2").unwrap().instr;
        assert_eq!(i.op, KhronosOp::Rmw);
        assert!(i.attrs.atomic, "rmw implies atom");
        let i = parse("rmw.atom.scopedev.sc0 y = 1 2").unwrap().instr;
        assert_eq!(i.op, KhronosOp::Rmw);
        let i = parse("cbar.acq.rel.scopesg.semvis.semav.semsc0 0")
            .unwrap()
            .instr;
        assert_eq!(i.op, KhronosOp::Cbar);
        assert_eq!(i.instance, Some(0));
        assert!(i.attrs.semav && i.attrs.semvis && i.attrs.acq && i.attrs.rel);
        assert_eq!(i.attrs.semsc, 1);
        assert_eq!(i.attrs.scope, Some(Scope::Subgroup));
        let i = parse("membar.scopewg.semsc0.semsc1.semsc3.rel")
            .unwrap()
            .instr;
        assert_eq!(i.attrs.semsc, 0b1011);
        let i = parse("ld.nonpriv.sc2 x").unwrap().instr;
        assert_eq!(i.attrs.storage_class, Some(2));
        assert!(i.attrs.nonpriv);
        assert_eq!(i.values, Vec::<i64>::new());
        assert_eq!(parse("avdevice").unwrap().instr.op, KhronosOp::AvDevice);
        assert_eq!(parse("visdevice").unwrap().instr.op, KhronosOp::VisDevice);
        let i = parse("st.sc0 x=-5").unwrap().instr;
        assert_eq!(i.values, vec![-5]);
        assert_eq!(i.var.as_deref(), Some("x"));
    }

    #[test]
    fn errors() {
        let msg = |s: &str| parse(s).unwrap_err().message;
        assert!(msg("st.sc0.sc1 x = 1").contains("second storage class `sc1`"));
        assert!(msg("ld.atom.scopewg.scopedev.sc0 x").contains("second scope `scopedev`"));
        assert!(msg("sc0 x").contains("no instruction kind"));
        assert!(msg("ld.membar.sc0 x").contains("mixes instruction kinds `ld`, `membar`"));
        assert!(msg("avdevice.scopedev").contains("unexpected `scopedev`"));
        assert!(msg("ld..sc0 x").contains("empty token"));
        assert!(msg("ld.atom.sc0 x").contains("one of scopesg, scopewg"));
        assert!(msg("membar.scopedev.semsc0").contains("`acq.rel`"));
        assert!(msg("ld.sc0 x = ").contains("after `=`"));
        assert!(msg("ld.sc0 x 1").contains("unexpected `1`"));
        assert!(msg("ld.sc0 x = 1 2").contains("extra value `2`"));
        assert!(msg("st.sc0 x = 1 2").contains("extra value `2`"));
        assert!(msg("rmw.scopedev.sc0 x = 1 2 3").contains("extra value `3`"));
        assert!(msg("membar.acq.scopedev.semsc0 x").contains("takes no operands"));
        assert!(msg("cbar.scopewg 1 2").contains("unexpected `2`"));
        assert!(msg("cbar.scopewg").contains("missing instance number"));
        assert!(msg("st.ld.scopewg.sc0 y = 2 3").contains("must be atomic"));
    }
}
