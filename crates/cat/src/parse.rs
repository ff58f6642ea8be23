//! The cat grammar over the tokens of [`crate::lex`].
//!
//! ```text
//! file   := STRING? stmt*
//! stmt   := "let" "rec"? binding ("and" binding)*
//!         | "flag"? "~"? ("acyclic" | "irreflexive" | "empty") expr ("as" NAME)?
//!         | "include" STRING
//! binding:= NAME ("(" NAME ("," NAME)* ")")? "=" expr
//! expr   := binary operators, loosest first: `|`  `;`  `\`  `&`  `*` (all left-assoc.)
//! unary  := "~" unary | atom ("+" | "*" | "?" | "^-1")*
//! atom   := NAME | NAME "(" expr ("," expr)* ")" | "0" | "_" | "(" expr ")" | "[" expr "]"
//!         | "if" STRING "then" expr "else" expr
//! ```
//!
//! `*` after an operand is the cartesian product when an operand follows it, else the
//! reflexive-transitive closure.

use crate::ast::*;
use crate::lex::{tokenize, Tok, Token};
use vkherd_litmus::{Diagnostic, Span};

/// Words that cannot be used as names.
pub const KEYWORDS: [&str; 12] = [
    "let",
    "rec",
    "and",
    "as",
    "acyclic",
    "irreflexive",
    "empty",
    "flag",
    "include",
    "if",
    "then",
    "else",
];

/// Most nested parentheses/operators in one expression (deeper input is refused, not a
/// stack overflow).
const MAX_DEPTH: usize = 200;

/// Parses a cat file into its statements.
pub fn parse_cat(src: &str) -> Result<Vec<Stmt>, Diagnostic> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    if let Tok::Str(_) = p.peek() {
        p.pos += 1;
    }
    let mut out = Vec::new();
    while *p.peek() != Tok::Eof {
        out.push(p.stmt()?);
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Str(s) => format!("`\"{s}\"`"),
        Tok::Zero => "`0`".into(),
        Tok::Under => "`_`".into(),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::Eof => "end of file".into(),
    }
}

fn is_kw(t: &Tok, kw: &str) -> bool {
    matches!(t, Tok::Ident(s) if s == kw)
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn unexpected<T>(&self, expected: &str) -> Result<T, Diagnostic> {
        Err(Diagnostic::new(
            self.span(),
            format!("unexpected {}: expected {expected}", describe(self.peek())),
        ))
    }

    fn eat_sym(&mut self, s: &'static str) -> bool {
        if *self.peek() == Tok::Sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &'static str, ctx: &str) -> Result<(), Diagnostic> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            self.unexpected(&format!("`{s}`{ctx}"))
        }
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if is_kw(self.peek(), kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A name that is not a keyword.
    fn name(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        match self.peek().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            Tok::Ident(s) => Err(Diagnostic::new(
                self.span(),
                format!("`{s}` is a keyword: expected {what}"),
            )),
            _ => self.unexpected(what),
        }
    }

    fn string(&mut self, what: &str) -> Result<String, Diagnostic> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.unexpected(what),
        }
    }

    fn stmt(&mut self) -> Result<Stmt, Diagnostic> {
        let start = self.span();
        if self.eat_kw("let") {
            let rec = self.eat_kw("rec");
            let mut bindings = vec![self.binding()?];
            while self.eat_kw("and") {
                bindings.push(self.binding()?);
            }
            return Ok(Stmt::Let { rec, bindings });
        }
        if self.eat_kw("include") {
            let file = self.string("a file name in double quotes after `include`")?;
            return Ok(Stmt::Include {
                file,
                span: join(start, self.prev_span()),
            });
        }
        let flag = self.eat_kw("flag");
        let negated = self.eat_sym("~");
        let kind = if self.eat_kw("acyclic") {
            CheckKind::Acyclic
        } else if self.eat_kw("irreflexive") {
            CheckKind::Irreflexive
        } else if self.eat_kw("empty") {
            CheckKind::Empty
        } else if flag || negated {
            return self.unexpected("`acyclic`, `irreflexive` or `empty`");
        } else {
            return self.unexpected(
                "a statement: `let`, `include`, `flag` or a check (`acyclic`, `irreflexive`, `empty`)",
            );
        };
        let expr = self.expr()?;
        let name = if self.eat_kw("as") {
            Some(self.name("a check name after `as`")?.0)
        } else {
            None
        };
        Ok(Stmt::Check {
            flag,
            negated,
            kind,
            expr,
            name,
            span: join(start, self.prev_span()),
        })
    }

    fn binding(&mut self) -> Result<Binding, Diagnostic> {
        let (name, start) = self.name("a name to define")?;
        let mut params = Vec::new();
        if self.eat_sym("(") {
            loop {
                params.push(self.name("a parameter name")?.0);
                if self.eat_sym(")") {
                    break;
                }
                self.expect_sym(",", " or `)` in the parameter list")?;
            }
        }
        self.expect_sym("=", &format!(" after `let {name}`"))?;
        let body = self.expr()?;
        Ok(Binding {
            name,
            params,
            span: join(start, body.span),
            body,
        })
    }

    pub fn expr(&mut self) -> Result<Expr, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::new(
                self.span(),
                format!("expression nested more than {MAX_DEPTH} deep"),
            ));
        }
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    fn binop(&self, level: usize) -> Option<BinOp> {
        let (sym, op) = [
            ("|", BinOp::Union),
            (";", BinOp::Seq),
            ("\\", BinOp::Diff),
            ("&", BinOp::Inter),
            ("*", BinOp::Cross),
        ][level];
        if *self.peek() != Tok::Sym(sym) {
            return None;
        }
        // `*` is binary only when an operand follows.
        if op == BinOp::Cross && !starts_atom(self.peek_at(1)) {
            return None;
        }
        Some(op)
    }

    fn binary(&mut self, level: usize) -> Result<Expr, Diagnostic> {
        if level == 5 {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.binop(level) {
            self.bump();
            let rhs = self.binary(level + 1)?;
            lhs = Expr {
                span: join(lhs.span, rhs.span),
                kind: ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)),
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.span();
        if self.eat_sym("~") {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(Diagnostic::new(
                    start,
                    format!("expression nested more than {MAX_DEPTH} deep"),
                ));
            }
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(Expr {
                span: join(start, e.span),
                kind: ExprKind::Compl(Box::new(e)),
            });
        }
        let mut e = self.atom()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("+") => PostOp::Plus,
                Tok::Sym("?") => PostOp::Opt,
                Tok::Sym("^-1") => PostOp::Inv,
                Tok::Sym("*") if !starts_atom(self.peek_at(1)) => PostOp::Star,
                _ => break,
            };
            let end = self.bump().span;
            e = Expr {
                span: join(e.span, end),
                kind: ExprKind::Post(op, Box::new(e)),
            };
        }
        Ok(e)
    }

    fn atom(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Zero => {
                self.bump();
                ExprKind::Empty
            }
            Tok::Under => {
                self.bump();
                ExprKind::Universe
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(")", " to close `(`")?;
                return Ok(Expr {
                    kind: e.kind,
                    span: join(start, self.prev_span()),
                });
            }
            Tok::Sym("[") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym("]", " to close `[`")?;
                ExprKind::Stor(Box::new(e))
            }
            Tok::Ident(kw) if kw == "if" => {
                self.bump();
                let variant = self.string("a variant name in double quotes after `if`")?;
                if !self.eat_kw("then") {
                    return self.unexpected("`then`");
                }
                let then = self.expr()?;
                if !self.eat_kw("else") {
                    return self.unexpected("`else` (every `if` has an `else`)");
                }
                let els = self.expr()?;
                ExprKind::If {
                    variant,
                    then: Box::new(then),
                    els: Box::new(els),
                }
            }
            Tok::Ident(kw) if KEYWORDS.contains(&kw.as_str()) => {
                return self.unexpected("an expression: a name, `0`, `_`, `~`, `(` or `[`")
            }
            Tok::Ident(_) => {
                let (name, _) = self.name("a name")?;
                if self.eat_sym("(") {
                    let mut args = vec![self.expr()?];
                    while self.eat_sym(",") {
                        args.push(self.expr()?);
                    }
                    self.expect_sym(")", " or `,` in the arguments")?;
                    ExprKind::App(name, args)
                } else {
                    ExprKind::Name(name)
                }
            }
            _ => return self.unexpected("an expression: a name, `0`, `_`, `~`, `(` or `[`"),
        };
        Ok(Expr {
            kind,
            span: join(start, self.prev_span()),
        })
    }
}

/// Can `t` start an operand (so that a `*` before it is the cartesian product)?
fn starts_atom(t: &Tok) -> bool {
    match t {
        Tok::Ident(s) => !KEYWORDS.contains(&s.as_str()) || s == "if",
        Tok::Zero | Tok::Under => true,
        Tok::Sym(s) => matches!(*s, "(" | "[" | "~"),
        Tok::Str(_) | Tok::Eof => false,
    }
}

/// The span from the start of `a` to the end of `b`.
pub fn join(a: Span, b: Span) -> Span {
    if b.offset + b.len < a.offset {
        return a;
    }
    Span {
        len: b.offset + b.len - a.offset,
        ..a
    }
}
