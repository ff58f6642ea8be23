//! The cat grammar over the tokens of [`crate::lex`] (herd7's, less what docs/models.md
//! lists as unsupported: those constructs are recognised and refused by name).
//!
//! ```text
//! file   := (STRING | NAME)? stmt*                      the title, quoted or not
//! stmt   := "let" "rec"? binding ("and" binding)*
//!         | ("flag" | "undefined_unless")? "~"? ("acyclic" | "irreflexive" | "empty") expr ("as" NAME)?
//!         | "include" STRING
//!         | "show" expr "as" NAME | "show" NAME ("," NAME)* | "unshow" NAME ("," NAME)*
//!         | "procedure" NAME "(" (NAME ("," NAME)*)? ")" "=" stmt* "end"
//!         | "call" NAME "(" (expr ("," expr)*)? ")"
//! binding:= NAME ("(" NAME ("," NAME)* ")")? "=" expr
//! expr   := binary operators, loosest first: `|`  `;`  `\`  `&`  `*` (all left-assoc.)
//! unary  := "~" unary | atom ("+" | "*" | "?" | "^-1")*
//! atom   := NAME | NAME "(" expr ("," expr)* ")" | "0" | "_" | "(" expr ")" | "[" expr "]"
//!         | "if" STRING "then" expr "else" expr
//! ```
//!
//! `*` after an operand is the cartesian product when an operand follows it, else the
//! reflexive-transitive closure.
//!
//! Depth is bounded ([`Limit`]): parentheses, brackets, `~`, `if` and procedures nested
//! in one another (the parser's own recursion), and the operators of an expression tree
//! (the recursion of everything that walks, clones or drops it).

use crate::ast::*;
use crate::error::{Construct, Error, Limit};
use crate::lex::{tokenize, Tok, Token};
use vkherd_litmus::Span;

/// Words that cannot be used as names.
pub const KEYWORDS: [&str; 18] = [
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
    "show",
    "unshow",
    "procedure",
    "call",
    "end",
    "undefined_unless",
];

/// herd7 keywords of constructs vkherd refuses (also not names): what each is, and what
/// to do instead.
const UNSUPPORTED: &[(&str, Construct, &str, &str)] = &[
    (
        "enum",
        Construct::Tags,
        "`enum` (tags)",
        "use the base sets",
    ),
    (
        "match",
        Construct::Tags,
        "`match` (tags)",
        "use `if \"VARIANT\" then .. else ..` or set operations",
    ),
    (
        "instructions",
        Construct::Declaration,
        "`instructions` declaration",
        "use the base sets",
    ),
    (
        "events",
        Construct::Declaration,
        "`events` declaration",
        "use the base sets",
    ),
    (
        "forall",
        Construct::Iteration,
        "`forall ... do ... end`",
        "write the checks out, or use a procedure",
    ),
    (
        "with",
        Construct::Iteration,
        "`with ... from ...`",
        "the enumerator chooses rf and asmo; the model does not",
    ),
    (
        "try",
        Construct::Try,
        "`try ... with ...`",
        "write the expression without the fallback",
    ),
    (
        "fun",
        Construct::Lambda,
        "`fun` (anonymous functions)",
        "use `let f(x) = ...`",
    ),
    (
        "assert",
        Construct::Statement,
        "`assert`",
        "use a check or a `flag`",
    ),
    (
        "debug",
        Construct::Statement,
        "`debug`",
        "use `vkherd explain`",
    ),
    (
        "begin",
        Construct::Statement,
        "`begin ... end`",
        "write the statements without it",
    ),
    (
        "withco",
        Construct::ModelOption,
        "model option `withco`",
        "the enumerator always builds asmo; define `co` or `locord` in the model",
    ),
    (
        "withoutco",
        Construct::ModelOption,
        "model option `withoutco`",
        "the enumerator always builds asmo; define `co` or `locord` in the model",
    ),
    (
        "withinit",
        Construct::ModelOption,
        "model option `withinit`",
        "initial values are not events here: use RFINIT",
    ),
    (
        "withoutinit",
        Construct::ModelOption,
        "model option `withoutinit`",
        "initial values are not events here: use RFINIT",
    ),
    (
        "withsc",
        Construct::ModelOption,
        "model option `withsc`",
        "there is no SC order to guess: define it in the model",
    ),
    (
        "withoutsc",
        Construct::ModelOption,
        "model option `withoutsc`",
        "there is no SC order to guess: define it in the model",
    ),
    (
        "catdep",
        Construct::ModelOption,
        "model option `catdep`",
        "dependencies are not base relations here",
    ),
];

fn unsupported_word(
    s: &str,
) -> Option<&'static (&'static str, Construct, &'static str, &'static str)> {
    UNSUPPORTED.iter().find(|u| u.0 == s)
}

/// Is `s` a word that cannot be a name?
fn reserved(s: &str) -> bool {
    KEYWORDS.contains(&s) || unsupported_word(s).is_some()
}

/// Parses a cat file into its statements.
pub fn parse_cat(src: &str) -> Result<Vec<Stmt>, Error> {
    let (toks, lex_error) = tokenize(src);
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        lex_error,
    };
    match p.peek() {
        Tok::Str(_) => p.pos += 1,
        // A bare title (`VULKAN`): a name where a statement must start with a keyword.
        Tok::Ident(s) if !reserved(s) => p.pos += 1,
        _ => {}
    }
    // herd7's model options come after the title.
    if let Tok::Ident(s) = p.peek() {
        if let Some(&(_, c @ Construct::ModelOption, what, instead)) = unsupported_word(s) {
            return Err(Error::unsupported(c, p.span(), what, instead));
        }
    }
    let mut out = Vec::new();
    while *p.peek() != Tok::Eof {
        out.push(p.stmt()?);
    }
    match p.lex_error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Parentheses, brackets, `~`, `if` and procedures open around the current token.
    depth: usize,
    /// Why the tokens end early (at their `Eof`), if they do.
    lex_error: Option<Error>,
}

type Res<T> = Result<T, Error>;

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

/// A node built from `kind`, one operator deeper than its deepest operand.
fn node(kind: ExprKind, span: Span) -> Res<Expr> {
    let below = match &kind {
        ExprKind::Name(_) | ExprKind::Empty | ExprKind::Universe => None,
        ExprKind::App(_, args) => args.iter().map(|a| a.depth).max(),
        ExprKind::Bin(_, a, b) => Some(a.depth.max(b.depth)),
        ExprKind::Post(_, a) | ExprKind::Compl(a) | ExprKind::Stor(a) => Some(a.depth),
        ExprKind::If { then, els, .. } => Some(then.depth.max(els.depth)),
    };
    let depth = below.map_or(0, |d| d + 1);
    if depth as usize > Limit::ExpressionDepth.max() {
        return Err(Error::limit(Limit::ExpressionDepth, span));
    }
    Ok(Expr { kind, span, depth })
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

    fn unexpected<T>(&self, expected: &str) -> Res<T> {
        if let (Tok::Eof, Some(e)) = (self.peek(), &self.lex_error) {
            return Err(e.clone());
        }
        // A herd7 construct vkherd refuses is named as such, wherever it turns up.
        if let Tok::Ident(s) = self.peek() {
            if let Some(&(_, c, what, instead)) = unsupported_word(s) {
                return Err(Error::unsupported(c, self.span(), what, instead));
            }
        }
        match self.peek() {
            Tok::Sym("++") => {
                return Err(Error::unsupported(
                    Construct::Operator,
                    self.span(),
                    "set addition `++`",
                    "use `|`",
                ))
            }
            Tok::Sym(s @ ("{" | "}" | "'")) => {
                return Err(Error::unsupported(
                    Construct::Tags,
                    self.span(),
                    &format!("`{s}` (sets of tags or tuples `{{ ... }}`, tags `'a`)"),
                    "use the base sets",
                ))
            }
            _ => {}
        }
        Err(Error::syntax(
            self.span(),
            format!("unexpected {}: expected {expected}", describe(self.peek())),
        ))
    }

    /// Enters one more level of nesting at `at`.
    fn enter(&mut self, at: Span) -> Res<()> {
        self.depth += 1;
        if self.depth > Limit::Nesting.max() {
            return Err(Error::limit(Limit::Nesting, at));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn eat_sym(&mut self, s: &'static str) -> bool {
        if *self.peek() == Tok::Sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &'static str, ctx: &str) -> Res<()> {
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
    fn name(&mut self, what: &str) -> Res<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if !reserved(&s) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            Tok::Ident(s) if KEYWORDS.contains(&s.as_str()) => Err(Error::syntax(
                self.span(),
                format!("`{s}` is a keyword: expected {what}"),
            )),
            Tok::Sym("(") if what.starts_with("a name to define") => Err(Error::unsupported(
                Construct::Tuple,
                self.span(),
                "tuple definition `let (a, b) = ...`",
                "define each name with its own `let`",
            )),
            _ => self.unexpected(what),
        }
    }

    fn string(&mut self, what: &str) -> Res<String> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.unexpected(what),
        }
    }

    /// `NAME ("," NAME)*`
    fn names(&mut self, what: &str) -> Res<Vec<Expr>> {
        let mut out = Vec::new();
        loop {
            let (n, span) = self.name(what)?;
            out.push(node(ExprKind::Name(n), span)?);
            if !self.eat_sym(",") {
                return Ok(out);
            }
        }
    }

    fn stmt(&mut self) -> Res<Stmt> {
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
        if self.eat_kw("show") {
            let is_expr_as = !matches!(self.peek(), Tok::Ident(_))
                || matches!(self.peek_at(1), Tok::Sym(s) if !matches!(*s, "," | "~"))
                || is_kw(self.peek_at(1), "as");
            if is_expr_as {
                let e = self.expr()?;
                if !self.eat_kw("as") {
                    return self.unexpected("`as NAME` after `show EXPR`");
                }
                self.name("a name after `as`")?;
                return Ok(Stmt::Show { exprs: vec![e] });
            }
            let exprs = self.names("a name to show")?;
            return Ok(Stmt::Show { exprs });
        }
        if self.eat_kw("unshow") {
            let exprs = self.names("a name to unshow")?;
            return Ok(Stmt::Show { exprs });
        }
        if self.eat_kw("procedure") {
            return self.procedure(start);
        }
        if self.eat_kw("call") {
            let (name, _) = self.name("a procedure name after `call`")?;
            self.expect_sym("(", &format!(" after `call {name}`"))?;
            let args = self.args(")")?;
            return Ok(Stmt::Call {
                name,
                args,
                span: join(start, self.prev_span()),
            });
        }
        let mode = if self.eat_kw("flag") {
            CheckMode::Flag
        } else if self.eat_kw("undefined_unless") {
            CheckMode::UndefinedUnless
        } else {
            CheckMode::Check
        };
        let negated = self.eat_sym("~");
        let kind = if self.eat_kw("acyclic") {
            CheckKind::Acyclic
        } else if self.eat_kw("irreflexive") {
            CheckKind::Irreflexive
        } else if self.eat_kw("empty") {
            CheckKind::Empty
        } else if mode != CheckMode::Check || negated {
            return self.unexpected("`acyclic`, `irreflexive` or `empty`");
        } else {
            return self.unexpected(
                "a statement: `let`, `include`, `procedure`, `call`, `show`, `flag`, `undefined_unless` or a check (`acyclic`, `irreflexive`, `empty`)",
            );
        };
        let expr = self.expr()?;
        let name = if self.eat_kw("as") {
            Some(self.name("a check name after `as`")?.0)
        } else {
            None
        };
        Ok(Stmt::Check {
            mode,
            negated,
            kind,
            expr,
            name,
            span: join(start, self.prev_span()),
        })
    }

    /// After `procedure`: `NAME(params) = stmt* end`.
    fn procedure(&mut self, start: Span) -> Res<Stmt> {
        let (name, _) = self.name("a procedure name after `procedure`")?;
        self.expect_sym("(", &format!(" after `procedure {name}`"))?;
        let mut params = Vec::new();
        if !self.eat_sym(")") {
            loop {
                params.push(self.name("a parameter name")?.0);
                if self.eat_sym(")") {
                    break;
                }
                self.expect_sym(",", " or `)` in the parameter list")?;
            }
        }
        self.expect_sym("=", &format!(" after `procedure {name}(...)`"))?;
        self.enter(start)?;
        let mut body = Vec::new();
        while !self.eat_kw("end") {
            if *self.peek() == Tok::Eof {
                return self.unexpected(&format!("`end` to close `procedure {name}`"));
            }
            body.push(self.stmt()?);
        }
        self.leave();
        Ok(Stmt::Procedure {
            name,
            params,
            body,
            span: join(start, self.prev_span()),
        })
    }

    /// Arguments after `(` up to `close`: `expr ("," expr)*`, or none.
    fn args(&mut self, close: &'static str) -> Res<Vec<Expr>> {
        let mut args = Vec::new();
        if self.eat_sym(close) {
            return Ok(args);
        }
        args.push(self.expr()?);
        while self.eat_sym(",") {
            args.push(self.expr()?);
        }
        self.expect_sym(close, " or `,` in the arguments")?;
        Ok(args)
    }

    fn binding(&mut self) -> Res<Binding> {
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

    pub fn expr(&mut self) -> Res<Expr> {
        self.binary(0)
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

    fn binary(&mut self, level: usize) -> Res<Expr> {
        if level == 5 {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.binop(level) {
            self.bump();
            let rhs = self.binary(level + 1)?;
            let span = join(lhs.span, rhs.span);
            lhs = node(ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)), span)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Res<Expr> {
        let start = self.span();
        if self.eat_sym("~") {
            self.enter(start)?;
            let e = self.unary()?;
            self.leave();
            let span = join(start, e.span);
            return node(ExprKind::Compl(Box::new(e)), span);
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
            let span = join(e.span, end);
            e = node(ExprKind::Post(op, Box::new(e)), span)?;
        }
        Ok(e)
    }

    fn atom(&mut self) -> Res<Expr> {
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
                self.enter(start)?;
                let e = self.expr()?;
                if *self.peek() == Tok::Sym(",") {
                    return Err(Error::unsupported(
                        Construct::Tuple,
                        self.span(),
                        "tuple `(a, b)`",
                        "use relations and sets only",
                    ));
                }
                self.expect_sym(")", " to close `(`")?;
                self.leave();
                return Ok(Expr {
                    span: join(start, self.prev_span()),
                    ..e
                });
            }
            Tok::Sym("[") => {
                self.bump();
                self.enter(start)?;
                let e = self.expr()?;
                self.expect_sym("]", " to close `[`")?;
                self.leave();
                ExprKind::Stor(Box::new(e))
            }
            Tok::Ident(kw) if kw == "if" => {
                self.bump();
                self.enter(start)?;
                let variant = self.string("a variant name in double quotes after `if`")?;
                if !self.eat_kw("then") {
                    return self.unexpected("`then`");
                }
                let then = self.expr()?;
                if !self.eat_kw("else") {
                    return self.unexpected("`else` (every `if` has an `else`)");
                }
                let els = self.expr()?;
                self.leave();
                ExprKind::If {
                    variant,
                    then: Box::new(then),
                    els: Box::new(els),
                }
            }
            Tok::Ident(kw) if reserved(&kw) => {
                return self.unexpected("an expression: a name, `0`, `_`, `~`, `(` or `[`")
            }
            Tok::Ident(_) => {
                let (name, _) = self.name("a name")?;
                if self.eat_sym("(") {
                    self.enter(start)?;
                    let args = self.args(")")?;
                    self.leave();
                    if args.is_empty() {
                        return Err(Error::syntax(
                            self.prev_span(),
                            format!("`{name}()` has no arguments: expected `{name}(e1, ...)` (a function takes one or more)"),
                        ));
                    }
                    ExprKind::App(name, args)
                } else {
                    ExprKind::Name(name)
                }
            }
            _ => return self.unexpected("an expression: a name, `0`, `_`, `~`, `(` or `[`"),
        };
        node(kind, join(start, self.prev_span()))
    }
}

/// Can `t` start an operand (so that a `*` before it is the cartesian product)?
fn starts_atom(t: &Tok) -> bool {
    match t {
        Tok::Ident(s) => !reserved(s) || s == "if",
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
