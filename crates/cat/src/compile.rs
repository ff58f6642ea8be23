//! From statements to a [`Graph`]: names resolved (model definitions, then base names),
//! functions and procedures inlined, variants chosen, types checked, includes read.
//!
//! Depth is bounded ([`Limit`]): the compiler's recursion over expressions, through the
//! functions they call (`ExpressionDepth`); calls nested in calls (`CallDepth`); files
//! included in files (`IncludeDepth`); and the depth of every node of the graph
//! (`DefinitionDepth`), which bounds the recursion of everything that walks the graph
//! afterwards (the graph's own constructors, [`crate::mono`], [`crate::eval`],
//! [`crate::inspect`]).

use crate::ast::*;
use crate::base::{lookup, Kind};
use crate::error::{Error, ErrorKind, Limit};
use crate::ir::{Graph, Op, RecGroup, N};
use crate::mono::polarity;
use crate::{CatError, Check, Source};
use std::collections::BTreeSet;
use std::rc::Rc;
use vkherd_litmus::Span;

/// A value bound to a name.
#[derive(Clone)]
enum Val {
    Node(N),
    /// `0` or `_` before its type is known.
    Poly(Poly),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Poly {
    Empty,
    Universe,
}

#[derive(Clone)]
enum Entry {
    Val(Val),
    Func {
        params: Vec<String>,
        body: Rc<Expr>,
        /// The definitions visible where the function was defined: the first `env_len`
        /// entries of the environment (top-level definitions are only ever appended).
        env_len: usize,
        file: usize,
    },
    /// `procedure name(params) = body end`, run at each `call` (no recursion: the body
    /// sees the definitions before the procedure, as a function's does).
    Proc {
        params: Vec<String>,
        body: Rc<Vec<Stmt>>,
        env_len: usize,
        file: usize,
    },
}

/// What compiling a model produces.
pub struct Output {
    pub graph: Graph,
    /// Every top-level definition that is a set or relation, in order (later definitions
    /// of one name shadow earlier ones).
    pub named: Vec<(String, N)>,
    pub checks: Vec<Check>,
    /// The variant names the model tests with `if "NAME"`.
    pub variants: BTreeSet<String>,
}

pub struct Compiler<'a> {
    graph: Graph,
    env: Vec<(String, Entry)>,
    named: Vec<(String, N)>,
    checks: Vec<Check>,
    variants: &'a BTreeSet<String>,
    seen_variants: BTreeSet<String>,
    /// Every file read, for error messages.
    pub files: Vec<Source>,
    resolve: &'a dyn Fn(&str, &Source) -> Option<Source>,
    file: usize,
    /// Function and procedure calls being compiled, one inside the other.
    call_depth: usize,
    /// [`Compiler::expr`] calls on the stack.
    expr_depth: usize,
    /// Procedure bodies being run: their definitions are local, not the model's.
    in_procedure: usize,
    /// Compiling in Dat3M's event view ([`crate::view`]): its base names resolve, and
    /// Dat3M's stdlib.cat is read first.
    view: bool,
}

type Res<T> = Result<T, Error>;

impl<'a> Compiler<'a> {
    pub fn new(
        variants: &'a BTreeSet<String>,
        resolve: &'a dyn Fn(&str, &Source) -> Option<Source>,
    ) -> Self {
        Compiler {
            graph: Graph::default(),
            env: Vec::new(),
            named: Vec::new(),
            checks: Vec::new(),
            variants,
            seen_variants: BTreeSet::new(),
            files: Vec::new(),
            resolve,
            file: 0,
            call_depth: 0,
            expr_depth: 0,
            in_procedure: 0,
            view: false,
        }
    }

    /// The same compiler in Dat3M's event view.
    pub fn in_view(mut self) -> Self {
        self.view = true;
        self
    }

    fn error(&self, e: Error) -> CatError {
        CatError {
            file: self.files[self.file].name.clone(),
            source: self.files[self.file].text.clone(),
            kind: e.kind,
            diagnostic: e.diagnostic,
        }
    }

    /// Compiles `src` and everything it includes.
    pub fn compile(mut self, src: Source) -> Result<Output, CatError> {
        if self.view {
            // Dat3M includes its stdlib.cat in every model.
            let (name, text) = crate::view::DAT3M_STDLIB;
            let stdlib = Source {
                name: name.to_string(),
                text: std::sync::Arc::from(text),
            };
            self.file_stmts(stdlib, 1)?;
        }
        self.file_stmts(src, 0)?;
        Ok(Output {
            graph: self.graph,
            named: self.named,
            checks: self.checks,
            variants: self.seen_variants,
        })
    }

    fn file_stmts(&mut self, src: Source, depth: usize) -> Result<(), CatError> {
        let index = self.files.len();
        self.files.push(src);
        let saved = std::mem::replace(&mut self.file, index);
        let stmts = crate::parse::parse_cat(&self.files[index].text).map_err(|d| self.error(d))?;
        for st in stmts {
            if let Stmt::Include { file, span } = &st {
                if depth >= Limit::IncludeDepth.max() {
                    return Err(self.error(Error::limit(Limit::IncludeDepth, *span)));
                }
                let Some(inc) = (self.resolve)(file, &self.files[index]) else {
                    return Err(self.error(Error::new(
                        ErrorKind::Include,
                        *span,
                        missing_include(file),
                    )));
                };
                self.file_stmts(inc, depth + 1)?;
                continue;
            }
            self.stmt(st).map_err(|d| self.error(d))?;
        }
        self.file = saved;
        Ok(())
    }

    fn stmt(&mut self, st: Stmt) -> Res<()> {
        match st {
            Stmt::Include { span, .. } => Err(Error::syntax(
                span,
                "`include` inside a procedure: expected it at the top level of a file",
            )),
            Stmt::Show { exprs } => {
                // Only for herd7's graphs: the names must exist and the expressions type.
                for e in &exprs {
                    self.expr(e)?;
                }
                Ok(())
            }
            Stmt::Procedure {
                name, params, body, ..
            } => {
                let entry = Entry::Proc {
                    params,
                    body: Rc::new(body),
                    env_len: self.env.len(),
                    file: self.file,
                };
                self.env.push((name, entry));
                Ok(())
            }
            Stmt::Call { name, args, span } => self.call(&name, &args, span),
            Stmt::Let {
                rec: false,
                bindings,
            } => {
                // `let a = .. and b = ..`: every body sees the definitions before the `let`.
                let mut new = Vec::new();
                for b in bindings {
                    let entry = if b.params.is_empty() {
                        Entry::Val(self.expr(&b.body)?)
                    } else {
                        Entry::Func {
                            params: b.params.clone(),
                            body: Rc::new(b.body.clone()),
                            env_len: self.env.len(),
                            file: self.file,
                        }
                    };
                    new.push((b.name, entry));
                }
                for (name, e) in new {
                    if let Entry::Val(v) = &e {
                        let n = self.node_default(v.clone());
                        if self.in_procedure == 0 {
                            self.named.push((name.clone(), n));
                        }
                    }
                    self.env.push((name, e));
                }
                Ok(())
            }
            Stmt::Let {
                rec: true,
                bindings,
            } => self.let_rec(bindings),
            Stmt::Check {
                mode,
                negated,
                kind,
                expr,
                name,
                span,
            } => {
                let flag = mode != CheckMode::Check;
                if flag && self.checks.iter().filter(|c| c.flag).count() >= Limit::Flags.max() {
                    return Err(Error::limit(Limit::Flags, span));
                }
                // `undefined_unless C` is raised when C fails: a flag on `~C`.
                let written = negated;
                let negated = negated != (mode == CheckMode::UndefinedUnless);
                let v = self.expr(&expr)?;
                let n = match kind {
                    CheckKind::Empty => self.node_default(v),
                    _ => self.as_kind(v, Kind::Rel, expr.span, "a check on cycles")?,
                };
                let pol = polarity(&self.graph, n);
                // A check may cut the search if, once it fails on a partial candidate, it
                // fails on every completion: the checked relation only grows with rf for
                // `acyclic`/`irreflexive`/`empty`, and only shrinks for `~empty`.
                let may_cut = !flag
                    && if negated {
                        pol.antitone()
                    } else {
                        pol.monotone()
                    };
                let name = name.unwrap_or_else(|| match mode {
                    CheckMode::UndefinedUnless => {
                        format!("undefined-unless-{}", default_check_name(kind, written))
                    }
                    _ => default_check_name(kind, negated),
                });
                self.checks.push(Check {
                    name,
                    kind,
                    negated,
                    flag,
                    node: n,
                    may_cut,
                    span,
                });
                Ok(())
            }
        }
    }

    fn let_rec(&mut self, bindings: Vec<Binding>) -> Res<()> {
        let group = self.graph.groups.len() as u32;
        // Every recursive name is a relation (herd7's use: closures of relations).
        let mut vars = Vec::new();
        for (i, b) in bindings.iter().enumerate() {
            if !b.params.is_empty() {
                return Err(Error::typing(
                    b.span,
                    "`let rec` cannot define a function: expected `let rec NAME = ...`",
                ));
            }
            let v = self.graph.rec_var(group, i as u32, Kind::Rel);
            vars.push(v);
        }
        let mark = self.env.len();
        for (b, &v) in bindings.iter().zip(&vars) {
            self.env.push((b.name.clone(), Entry::Val(Val::Node(v))));
        }
        let mut bodies = Vec::new();
        for b in &bindings {
            let val = self.expr(&b.body)?;
            bodies.push(self.as_kind(val, Kind::Rel, b.body.span, "a recursive definition")?);
        }
        self.env.truncate(mark);
        for (b, &body) in bindings.iter().zip(&bodies) {
            for &v in &vars {
                if !crate::mono::monotone_in(&self.graph, body, v) {
                    return Err(Error::typing(
                        b.body.span,
                        "a `let rec` body must only grow with the recursive names (no `~` or `\\` right of them): the fixpoint would not be well defined",
                    ));
                }
            }
        }
        // Inputs of the fixpoint: nodes outside the group read by the bodies.
        let mut inputs = BTreeSet::new();
        let mut stack: Vec<N> = bodies.clone();
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let node = self.graph.node(n);
            if !node.in_rec {
                inputs.insert(n);
                continue;
            }
            stack.extend(node.op.operands());
        }
        self.graph.groups.push(RecGroup {
            vars: vars.clone(),
            bodies,
        });
        let inputs: Vec<N> = inputs.into_iter().collect();
        for (i, b) in bindings.into_iter().enumerate() {
            let n = self.graph.fix(group, i as u32, inputs.clone(), Kind::Rel);
            self.check_depth(n, b.span)?;
            if self.in_procedure == 0 {
                self.named.push((b.name.clone(), n));
            }
            self.env.push((b.name, Entry::Val(Val::Node(n))));
        }
        Ok(())
    }

    fn node_default(&mut self, v: Val) -> N {
        match v {
            Val::Node(n) => n,
            Val::Poly(Poly::Empty) => self.graph.empty(Kind::Rel),
            Val::Poly(Poly::Universe) => self.graph.full(Kind::Rel),
        }
    }

    fn as_kind(&mut self, v: Val, k: Kind, span: Span, what: &str) -> Res<N> {
        match v {
            Val::Poly(Poly::Empty) => Ok(self.graph.empty(k)),
            Val::Poly(Poly::Universe) => Ok(self.graph.full(k)),
            Val::Node(n) if self.graph.kind(n) == k => Ok(n),
            Val::Node(_) => Err(Error::typing(
                span,
                format!(
                    "this is a {}, but {what} needs a {}",
                    kind_name(self.graph.kind(Self::n(&v))),
                    kind_name(k)
                ),
            )),
        }
    }

    fn n(v: &Val) -> N {
        match v {
            Val::Node(n) => *n,
            Val::Poly(_) => 0,
        }
    }

    /// The node of base name `name` (the view's names too, in the view).
    fn base(&mut self, name: &str, span: Span) -> Res<N> {
        if self.view {
            if let Some(b) = crate::view::lookup(name) {
                return Ok(self.graph.base(b));
            }
            if name == "asmo" {
                return Err(Error::new(
                    ErrorKind::UnknownName,
                    span,
                    ASMO_IN_VIEW.to_string(),
                ));
            }
        }
        match lookup(name) {
            Some(b) => Ok(self.graph.base(b)),
            None => Err(Error::new(
                ErrorKind::UnknownName,
                span,
                unknown_name(name, self.view),
            )),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Entry> {
        self.env
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e)
    }

    /// Compiles `e`, within the limits on the compiler's recursion and the graph's depth.
    fn expr(&mut self, e: &Expr) -> Res<Val> {
        if self.expr_depth >= Limit::ExpressionDepth.max() {
            return Err(Error::limit(Limit::ExpressionDepth, e.span));
        }
        self.expr_depth += 1;
        let v = self.expr_inner(e);
        self.expr_depth -= 1;
        let v = v?;
        if let Val::Node(n) = v {
            self.check_depth(n, e.span)?;
        }
        Ok(v)
    }

    /// Refuses node `n` (written at `span`) if it is deeper than the limit.
    fn check_depth(&self, n: N, span: Span) -> Res<()> {
        if self.graph.node(n).depth as usize > Limit::DefinitionDepth.max() {
            return Err(Error::limit(Limit::DefinitionDepth, span));
        }
        Ok(())
    }

    fn expr_inner(&mut self, e: &Expr) -> Res<Val> {
        Ok(match &e.kind {
            ExprKind::Empty => Val::Poly(Poly::Empty),
            ExprKind::Universe => Val::Poly(Poly::Universe),
            ExprKind::Name(name) => match self.lookup(name).cloned() {
                Some(Entry::Val(v)) => v,
                Some(Entry::Func { params, .. }) => {
                    return Err(Error::typing(
                        e.span,
                        format!(
                            "`{name}` is a function of {} argument(s): expected `{name}(...)`",
                            params.len()
                        ),
                    ))
                }
                Some(Entry::Proc { .. }) => {
                    return Err(Error::typing(
                        e.span,
                        format!(
                            "`{name}` is a procedure: expected `call {name}(...)` as a statement"
                        ),
                    ))
                }
                None => Val::Node(self.base(name, e.span)?),
            },
            ExprKind::If { variant, then, els } => {
                self.seen_variants.insert(variant.clone());
                if self.variants.contains(variant) {
                    self.expr(then)?
                } else {
                    self.expr(els)?
                }
            }
            ExprKind::Compl(a) => match self.expr(a)? {
                Val::Poly(Poly::Empty) => Val::Poly(Poly::Universe),
                Val::Poly(Poly::Universe) => Val::Poly(Poly::Empty),
                Val::Node(n) => Val::Node(self.graph.compl(n)),
            },
            ExprKind::Stor(a) => {
                let v = self.expr(a)?;
                let s = self.as_kind(v, Kind::Set, a.span, "`[...]`")?;
                Val::Node(self.graph.stor(s))
            }
            ExprKind::Post(op, a) => {
                let v = self.expr(a)?;
                let r = self.as_kind(v, Kind::Rel, a.span, "a postfix operator")?;
                let make: fn(N) -> Op = match op {
                    PostOp::Plus => Op::Plus,
                    PostOp::Star => Op::Star,
                    PostOp::Opt => Op::Opt,
                    PostOp::Inv => Op::Inv,
                };
                Val::Node(self.graph.unary(make, r))
            }
            ExprKind::Bin(op, a, b) => self.binary(*op, a, b)?,
            ExprKind::App(f, args) => self.apply(f, args, e.span)?,
        })
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Res<Val> {
        let va = self.expr(a)?;
        let vb = self.expr(b)?;
        match op {
            BinOp::Seq => {
                let x = self.as_kind(va, Kind::Rel, a.span, "`;`")?;
                let y = self.as_kind(vb, Kind::Rel, b.span, "`;`")?;
                Ok(Val::Node(self.graph.seq(vec![x, y])))
            }
            BinOp::Cross => {
                let x = self.as_kind(va, Kind::Set, a.span, "`*` (cartesian product)")?;
                let y = self.as_kind(vb, Kind::Set, b.span, "`*` (cartesian product)")?;
                Ok(Val::Node(self.graph.cross(x, y)))
            }
            BinOp::Union | BinOp::Inter | BinOp::Diff => {
                // The type is the operands' (`0` and `_` take the other side's).
                let k = match (&va, &vb) {
                    (Val::Node(x), _) => self.graph.kind(*x),
                    (_, Val::Node(y)) => self.graph.kind(*y),
                    _ => Kind::Rel,
                };
                let what = match op {
                    BinOp::Union => "`|` with a left side of that type",
                    BinOp::Inter => "`&` with a left side of that type",
                    _ => "`\\` with a left side of that type",
                };
                let x = self.as_kind(va, k, a.span, what)?;
                let y = self.as_kind(vb, k, b.span, what)?;
                Ok(Val::Node(match op {
                    BinOp::Union => self.graph.union(k, vec![x, y]),
                    BinOp::Inter => self.graph.inter(k, vec![x, y]),
                    _ => self.graph.diff(x, y),
                }))
            }
        }
    }

    fn apply(&mut self, f: &str, args: &[Expr], span: Span) -> Res<Val> {
        if matches!(f, "domain" | "range") && self.lookup(f).is_none() {
            if args.len() != 1 {
                return Err(Error::typing(
                    span,
                    format!("`{f}` takes one relation, not {} arguments", args.len()),
                ));
            }
            let v = self.expr(&args[0])?;
            let r = self.as_kind(v, Kind::Rel, args[0].span, &format!("`{f}`"))?;
            let make: fn(N) -> Op = if f == "domain" { Op::Domain } else { Op::Range };
            return Ok(Val::Node(self.graph.unary(make, r)));
        }
        if f == "total-order" && self.lookup(f).is_none() {
            if args.len() != 3 {
                return Err(Error::typing(
                    span,
                    format!(
                        "`{f}` takes three relations (P, C, F), not {} arguments",
                        args.len()
                    ),
                ));
            }
            let mut rels = Vec::new();
            for a in args {
                let v = self.expr(a)?;
                rels.push(self.as_kind(v, Kind::Rel, a.span, "`total-order`")?);
            }
            return Ok(Val::Node(self.graph.total_order(rels[0], rels[1], rels[2])));
        }
        let Some(Entry::Func {
            params,
            body,
            env_len,
            file,
        }) = self.lookup(f).cloned()
        else {
            let what = self.not_callable(f, "function");
            return Err(Error::typing(
                span,
                format!("`{f}` {what}: expected a function defined with `let {f}(...) = ...`, `domain`, `range` or `total-order`"),
            ));
        };
        let vals = self.arguments(f, &params, args, span)?;
        self.inside(f, &params, vals, env_len, file, span, |c| c.expr(&body))
    }

    /// Why `f` cannot be called as a `kind`: it is something else, or not defined.
    fn not_callable(&self, f: &str, kind: &str) -> String {
        if self.lookup(f).is_some() || lookup(f).is_some() {
            format!("is not a {kind}")
        } else {
            "is not defined".to_string()
        }
    }

    /// `call f(args)`: the procedure's statements, with its parameters bound.
    fn call(&mut self, f: &str, args: &[Expr], span: Span) -> Res<()> {
        let Some(Entry::Proc {
            params,
            body,
            env_len,
            file,
        }) = self.lookup(f).cloned()
        else {
            let what = self.not_callable(f, "procedure");
            return Err(Error::typing(
                span,
                format!("`{f}` {what}: expected a procedure defined with `procedure {f}(...) = ... end`"),
            ));
        };
        let vals = self.arguments(f, &params, args, span)?;
        self.in_procedure += 1;
        let r = self.inside(f, &params, vals, env_len, file, span, |c| {
            for st in body.iter() {
                c.stmt(st.clone())?;
            }
            Ok(())
        });
        self.in_procedure -= 1;
        r
    }

    /// The values of a call's arguments, checked against the parameters.
    fn arguments(
        &mut self,
        f: &str,
        params: &[String],
        args: &[Expr],
        span: Span,
    ) -> Res<Vec<Val>> {
        if params.len() != args.len() {
            return Err(Error::typing(
                span,
                format!(
                    "`{f}` takes {} argument(s), not {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        if self.call_depth >= Limit::CallDepth.max() {
            return Err(Error::limit(Limit::CallDepth, span));
        }
        args.iter().map(|a| self.expr(a)).collect()
    }

    /// Runs `body` as the body of `f`, defined in `file` after the first `env_len`
    /// definitions, with `params` bound to `vals`.
    #[allow(clippy::too_many_arguments)]
    fn inside<T>(
        &mut self,
        f: &str,
        params: &[String],
        vals: Vec<Val>,
        env_len: usize,
        file: usize,
        span: Span,
        body: impl FnOnce(&mut Self) -> Res<T>,
    ) -> Res<T> {
        // The body sees the definitions before the function and its parameters: the
        // rest of the environment is set aside (moved, not copied) during the call.
        let rest = self.env.split_off(env_len);
        for (p, v) in params.iter().zip(vals) {
            self.env.push((p.clone(), Entry::Val(v)));
        }
        let saved_file = std::mem::replace(&mut self.file, file);
        self.call_depth += 1;
        let r = body(self);
        self.call_depth -= 1;
        self.env.truncate(env_len);
        self.env.extend(rest);
        self.file = saved_file;
        // An error inside the body is reported at the call (the body's own file may differ).
        r.map_err(|e| {
            if file == self.file {
                e
            } else {
                Error::new(e.kind, span, format!("in `{f}`: {}", e.diagnostic.message))
            }
        })
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Set => "set",
        Kind::Rel => "relation",
    }
}

fn default_check_name(kind: CheckKind, negated: bool) -> String {
    let k = match kind {
        CheckKind::Acyclic => "acyclic",
        CheckKind::Irreflexive => "irreflexive",
        CheckKind::Empty => "empty",
    };
    if negated {
        format!("not-{k}")
    } else {
        k.to_string()
    }
}

/// Why `asmo` is no base name of Dat3M's event view.
const ASMO_IN_VIEW: &str = "`asmo` is not a base name in Dat3M's event view, which this model runs in (it reads a name only that view has, such as `co` or `IW`): there the order of writes is `co`, with the initial writes first (docs/models.md, \"Dat3M's event view\"); expected `co`, or a definition of `asmo` above";

/// herd7's names for what vkherd has under another name or not at all. (herd7's `loc`,
/// `int`, `ext`, `M`, `co` and `IW` are names of Dat3M's event view, where a model that
/// reads them runs: [`crate::view`].)
const HERD7_NAMES: &[(&str, &str)] = &[
    ("po-loc", "herd7's `po-loc` is `po & sloc` here"),
    ("fr", "the model defines `fr` itself (vulkan.cat does; in Dat3M's event view, Dat3M's stdlib.cat defines it)"),
    ("FW", "final writes are decided by the model's `co`"),
    ("rmw", "an atomic read-modify-write is one event, in both `R` and `W`; in Dat3M's event view, Dat3M's stdlib.cat defines `rmw` as `amo | lxsx`"),
];

/// Dat3M's base names (its cat models) that not even Dat3M's event view has, for what
/// vkherd has under another name.
const DAT3M_NAMES: &[(&str, &str)] = &[
    (
        "sync_fence",
        "Dat3M's `sync_fence` is not a base relation here",
    ),
    ("scta", "Dat3M's `scta` (same CTA) is `swg` here"),
];

/// Dat3M's PTX scope tags, which its event view does not name: the scope sets are the
/// dialect's `SCOPE...` base sets here.
const DAT3M_SCOPE_TAGS: &[&str] = &["CTA", "GPU", "SYS", "DEV"];

/// The hint for a name vkherd lacks: the equivalent of a herd7 or a Dat3M name.
fn foreign_hint(name: &str) -> Option<String> {
    if let Some((_, h)) = HERD7_NAMES
        .iter()
        .chain(DAT3M_NAMES)
        .find(|(n, _)| *n == name)
    {
        return Some(h.to_string());
    }
    DAT3M_SCOPE_TAGS.contains(&name).then(|| {
        format!(
            "Dat3M's scope tag `{name}`: here the events of each scope are the base sets named `SCOPE...` of the test's dialect; Dat3M's event view does not have this tag (docs/models.md)"
        )
    })
}

/// The message for a name that is neither defined nor a base name: the base names, and
/// the vkherd equivalent of a herd7 or Dat3M name.
fn unknown_name(name: &str, view: bool) -> String {
    let mut bases: Vec<&str> = crate::base::all_bases().map(|b| b.name).collect();
    if view {
        bases.extend(crate::view::view_bases().iter().map(|b| b.base.name));
        bases.retain(|&b| b != "asmo");
    }
    let hint = foreign_hint(name)
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    format!(
        "unknown name `{name}`{hint}: expected a definition above or a base name: {} (docs/models.md)",
        bases.join(", ")
    )
}

/// herd7's library files that vkherd does not provide, and why.
const HERD7_LIBRARY: &[(&str, &str)] = &[
    ("cos.cat", "it builds co and fr from herd's initial-write events and its co; here the model defines `co` (or `locord`) itself, and reads of initial values are `RFINIT`"),
    ("filters.cat", "it filters herd's events by architecture annotations, which GPU tests do not have"),
    ("cross.cat", "it enumerates herd's co and rf itself; here the enumerator does"),
];

/// The message for an `include` that names neither a bundled file nor a readable one.
fn missing_include(file: &str) -> String {
    let bundled: Vec<&str> = crate::files().map(|(n, _)| *n).collect();
    match HERD7_LIBRARY.iter().find(|(n, _)| *n == file) {
        Some((_, why)) => format!(
            "herd7's library file `{file}` is not provided by vkherd: {why} (docs/models.md)"
        ),
        None => format!(
            "cannot read included file `{file}`: expected a bundled file ({}) or a path relative to this file",
            bundled.join(", ")
        ),
    }
}
