//! After the table, each optional and in this order: `locations [...]`, `filter C`, and
//! `exists C` / `~exists C` / `not exists C` / `forall C` / `final C with M: exists; ...`.
//! A condition may end with `;`. Conditions are the kit's (docs/litmus-format.md).

use super::words::{not_a_location, Failure};
use crate::ptx::ast::{
    Cond, CondAtom, Expectation, ExpectationModel, PtxCondition, PtxQuantifier, Spanned, StateItem,
};
use vkherd_litmus::ast::Quantifier;
use vkherd_litmus::syntax::cond::{cond_to_string, condition, locations, quantifier};
use vkherd_litmus::syntax::lex::{
    consumed, err, keyword, unexpected, unexpected_in, word, ws, PResult, Src,
};

const QUANTIFIERS: &str = "`exists`, `~exists`, `not exists`, `forall`, `final`";
const MODELS: &str = "`tso`, `cc`, `optic` or `default`";

pub(super) struct Tail {
    pub locations: Vec<Spanned<StateItem>>,
    pub filter: Option<Cond>,
    pub condition: Option<PtxCondition>,
}

pub(super) fn tail<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Tail> {
    let mut t = Tail {
        locations: Vec::new(),
        filter: None,
        condition: None,
    };
    let mut i = i;
    let mut next = format!("`locations [...]`, `filter`, {QUANTIFIERS} or the end of the file");
    if let Some(j) = keyword(i, "locations") {
        (i, t.locations) = locations(src, j)?;
        for item in &t.locations {
            check_item(src, item)?;
        }
        next = format!("`filter`, {QUANTIFIERS} or the end of the file");
    }
    if let Some(j) = keyword(i, "filter") {
        let (j, c) = checked_condition(src, j, "filter")?;
        t.filter = Some(c);
        i = semi(j);
        next = format!("`/\\`, `\\/`, {QUANTIFIERS} or the end of the file");
    }
    if let Some(j) = keyword(i, "final") {
        let (j, cond) = checked_condition(src, j, "final")?;
        let (j, expectations) = with_list(src, semi(j))?;
        t.condition = Some(PtxCondition {
            quantifier: PtxQuantifier::Final,
            text: cond_to_string(&cond),
            cond,
            expectations,
        });
        i = j;
        next = "another `M: exists;` or the end of the file".to_string();
    } else if let (j, Some((q, kw))) = quantifier(i)? {
        let (j, cond) = checked_condition(src, j, kw)?;
        let quantifier = match q {
            Quantifier::Exists => PtxQuantifier::Exists,
            Quantifier::NotExists => PtxQuantifier::NotExists,
            Quantifier::Forall => PtxQuantifier::Forall,
        };
        t.condition = Some(PtxCondition {
            quantifier,
            text: cond_to_string(&cond),
            cond,
            expectations: Vec::new(),
        });
        i = semi(j);
        next = "`/\\`, `\\/` or the end of the file".to_string();
    }
    let (i, _) = ws(i)?;
    if !i.is_empty() {
        return Err(unexpected(i, &next));
    }
    Ok((i, t))
}

/// After an optional `;`.
fn semi(i: &str) -> &str {
    let t = i.trim_start();
    t.strip_prefix(';').unwrap_or(i)
}

fn checked_condition<'a>(src: &Src<'a>, i: &'a str, kw: &str) -> PResult<'a, Cond> {
    let (j, c) = condition(src, i, kw)?;
    check_cond(src, &c)?;
    Ok((j, c))
}

/// Dat3M cannot name a location with a keyword (`exists (cc = 1)`): blame the name.
fn check_cond<'a>(src: &Src<'a>, c: &Cond) -> Result<(), Failure<'a>> {
    // An explicit stack: conditions are bounded by the kit, but this costs nothing.
    let mut todo = vec![c];
    while let Some(c) = todo.pop() {
        match c {
            Cond::True => {}
            Cond::Cmp { a, b, .. } => {
                for atom in [a, b] {
                    if let CondAtom::Item(item) = atom {
                        check_item(src, item)?;
                    }
                }
            }
            Cond::Not(x) => todo.push(x),
            Cond::And(x, y) | Cond::Or(x, y) => {
                todo.push(x);
                todo.push(y);
            }
        }
    }
    Ok(())
}

fn check_item<'a>(src: &Src<'a>, item: &Spanned<StateItem>) -> Result<(), Failure<'a>> {
    let StateItem::Loc(name) = &item.value else {
        return Ok(());
    };
    match not_a_location(name) {
        None => Ok(()),
        Some(why) => {
            let s = item.span;
            let at = src.text.get(s.offset..s.offset + s.len).unwrap_or("");
            Err(err(at, why))
        }
    }
}

/// `with M: exists; M: ~exists; ...`, at least one.
fn with_list<'a>(src: &Src<'a>, i: &'a str) -> PResult<'a, Vec<Spanned<Expectation>>> {
    let Some(mut i) = keyword(i, "with") else {
        return Err(unexpected_in(
            i,
            " after the `final` condition",
            "`with` and the expected outcomes, like `with default: exists;`",
        ));
    };
    let mut out = Vec::new();
    loop {
        let (start, _) = ws(i)?;
        let model = match word(start) {
            Ok((j, w)) => model(w).map(|m| (j, m)),
            Err(_) => None,
        };
        let Some((j, model)) = model else {
            if out.is_empty() {
                return Err(unexpected_in(
                    start,
                    " after `with`",
                    &format!("a model: {MODELS}"),
                ));
            }
            return Ok((i, out));
        };
        let ctx = format!(" after `{}`", consumed(start, j));
        let (j, _) = ws(j)?;
        let Some(j) = j.strip_prefix(':') else {
            return Err(unexpected_in(j, &ctx, "`:`"));
        };
        let (j, q) = quantifier(j)?;
        let exists = match q {
            Some((Quantifier::Exists, _)) => true,
            Some((Quantifier::NotExists, _)) => false,
            _ => return Err(unexpected_in(j, &ctx, "`: exists;` or `: ~exists;`")),
        };
        let (j, _) = ws(j)?;
        let Some(j) = j.strip_prefix(';') else {
            return Err(unexpected_in(j, &ctx, "`;` after the expected outcome"));
        };
        out.push(src.spanned(Expectation { model, exists }, consumed(start, j)));
        i = j;
    }
}

fn model(w: &str) -> Option<ExpectationModel> {
    Some(match w {
        "tso" => ExpectationModel::Tso,
        "cc" => ExpectationModel::Cc,
        "optic" => ExpectationModel::Optic,
        "default" => ExpectationModel::Default,
        _ => return None,
    })
}
