//! Thread bodies of the OpenCL dialect: C statements and expressions, the OpenCL C atomic
//! functions, fences and barriers (docs/opencl.md "Statements").
//!
//! Expressions follow C precedence: `||` < `&&` < `|` < `^` < `&` < `==` `!=` <
//! `<` `<=` `>` `>=` < `+` `-` < `*` `/` < unary `!` `-` `*` (dereference).

use crate::opencl::ast::{
    ArithOp, ClExpected, ClExpr, ClIndex, ClLoc, ClMemOp, ClParam, ClScope, ClStmt, CmpOp,
    FenceFlags, MemOrder, Spanned,
};
use vkherd_litmus::error::Warning;
use vkherd_litmus::mmra::MmraTags;
use vkherd_litmus::syntax::lex::{
    consumed, err, expect, fail, ident, integer, is_register, keyword, register, sym, token_at,
    unexpected, unexpected_in, ws, PErr, PResult, Src,
};
use vkherd_litmus::syntax::mmra;

/// Bound on nesting of blocks and expressions, so recursion stays far from the stack limit.
const MAX_NESTING: usize = 100;
/// Bound on binary operators in one statement: a chain `1+1+...` is a left-deep tree that
/// dropping and lowering walk recursively.
const MAX_OPERATORS: usize = 1000;

/// The words that start a declaration `int r0 = ...;`.
const DECL_TYPES: [&str; 11] = [
    "int", "uint", "long", "ulong", "unsigned", "char", "uchar", "short", "ushort", "bool",
    "size_t",
];

type Stmts = Vec<Spanned<ClStmt>>;
type Expr = Spanned<ClExpr>;

struct Body<'s, 'a> {
    src: &'s Src<'a>,
    thread: usize,
    params: &'s [ClParam],
    depth: usize,
    /// Binary operators in the current statement.
    operators: usize,
    /// Local variables not named `rK`, with their register numbers (from
    /// [`FIRST_NAMED_REGISTER`] up, in order of first declaration).
    vars: Vec<(String, u32)>,
    /// The `!mmra(...)` before the `;` of the statement being parsed, with its text.
    tags: Option<(MmraTags, &'a str)>,
    /// The arrays of the init block (name, length).
    arrays: &'s [(String, u64)],
    /// What the body does that OpenCL C would reject (docs/opencl.md).
    warnings: Vec<Warning>,
    /// Parameters already warned about in [`Body::atomic_on_plain`].
    warned_plain: Vec<usize>,
}

/// A location an access names: the cell (`x`, `y[1]`) and the parameter it is reached
/// through (an index into the thread's parameters); for a register-dependent address
/// (`y[r0]`), `cell` is the parameter's name and `index` chooses the cell.
struct Loc {
    cell: String,
    param: usize,
    index: Option<ClIndex>,
}

impl Loc {
    fn into_cl(self) -> ClLoc {
        ClLoc {
            cell: self.cell,
            index: self.index,
        }
    }
}

/// An index as written: a constant, or an expression over registers.
enum Index {
    Const(i64),
    Dynamic(Expr),
}

/// Register numbers of local variables not named `rK` start here (docs/opencl.md).
pub(super) const FIRST_NAMED_REGISTER: u32 = 512;

/// Words that cannot name a local variable.
const RESERVED: [&str; 12] = [
    "if",
    "else",
    "while",
    "for",
    "int",
    "uint",
    "long",
    "ulong",
    "unsigned",
    "barrier",
    "work_group_barrier",
    "return",
];

/// `{ statements }` of thread `thread` whose parameters are `params`.
/// The body's statements, and its local variables not named `rK` with their registers.
/// Its warnings are added to `warnings`.
pub(super) fn thread_body<'a>(
    src: &Src<'a>,
    i: &'a str,
    thread: usize,
    params: &[ClParam],
    arrays: &[(String, u64)],
    warnings: &mut Vec<Warning>,
) -> PResult<'a, (Stmts, Vec<(String, u32)>)> {
    let mut b = Body {
        src,
        thread,
        params,
        depth: 0,
        operators: 0,
        vars: Vec::new(),
        tags: None,
        arrays,
        warnings: Vec::new(),
        warned_plain: Vec::new(),
    };
    let ctx = format!(" after the parameters of `P{thread}`");
    let (i, _) = sym(i, '{', &ctx, "the thread body `{ ... }`")?;
    let (i, body) = b.block_rest(i)?;
    warnings.append(&mut b.warnings);
    Ok((i, (body, b.vars)))
}

impl<'a> Body<'_, 'a> {
    fn nest(&mut self, at: &'a str) -> Result<(), nom::Err<PErr<'a>>> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(err(
                token_at(at),
                format!("nested too deeply: expected at most {MAX_NESTING} levels of blocks, parentheses and operators"),
            ));
        }
        Ok(())
    }

    /// Statements up to and including the closing `}`.
    fn block_rest(&mut self, i: &'a str) -> PResult<'a, Stmts> {
        self.nest(i)?;
        let mut out = Vec::new();
        let mut i = i;
        loop {
            let (j, _) = ws(i)?;
            if let Some(rest) = j.strip_prefix('}') {
                self.depth -= 1;
                return Ok((rest, out));
            }
            if j.is_empty() {
                return Err(unexpected(j, "a statement or `}`"));
            }
            let (rest, stmts) = self.statement(j)?;
            out.extend(stmts);
            i = rest;
        }
    }

    /// A block `{ ... }` or a single statement (the body of `if`, `else`, `while`).
    fn body(&mut self, i: &'a str) -> PResult<'a, Stmts> {
        let (i, _) = ws(i)?;
        match i.strip_prefix('{') {
            Some(rest) => self.block_rest(rest),
            None => {
                self.nest(i)?;
                let r = self.statement(i)?;
                self.depth -= 1;
                Ok(r)
            }
        }
    }

    /// The register of a declared variable named `w` (`rK` or a name).
    fn var(&self, w: &str) -> Option<u32> {
        if is_register(w) {
            return w[1..].parse().ok();
        }
        self.vars.iter().find(|(n, _)| n == w).map(|&(_, r)| r)
    }

    /// A variable at `i`: `rK`, or a declared name.
    fn var_at(&self, i: &'a str) -> PResult<'a, u32> {
        let (j, w) = ident(i)?;
        if is_register(w) {
            return register(i);
        }
        match self.var(w) {
            Some(r) => Ok((j, r)),
            None => Err(nom::Err::Error(PErr {
                at: i,
                msg: String::new(),
            })),
        }
    }

    /// Declares the variable at `i` (`rK` or a new name) and returns its register.
    fn declare(&mut self, i: &'a str, ty: &str) -> PResult<'a, u32> {
        let Ok((j, w)) = ident(i) else {
            return Err(unexpected_in(
                i,
                &format!(" after `{ty}`"),
                "a variable name",
            ));
        };
        if is_register(w) {
            return register(i);
        }
        if RESERVED.contains(&w)
            || DECL_TYPES.contains(&w)
            || w.starts_with("atomic_")
            || self.params.iter().any(|p| p.name == w)
        {
            return fail(
                w,
                format!("`{w}` cannot name a local variable here: expected a new name (it is a keyword, a function or a parameter)"),
            );
        }
        if let Some(r) = self.var(w) {
            return Ok((j, r));
        }
        let r = FIRST_NAMED_REGISTER + self.vars.len() as u32;
        if r > vkherd_litmus::limits::MAX_REGISTER {
            return fail(
                w,
                format!(
                    "too many named local variables in P{}: expected at most {}",
                    self.thread,
                    vkherd_litmus::limits::MAX_REGISTER + 1 - FIRST_NAMED_REGISTER
                ),
            );
        }
        self.vars.push((w.to_string(), r));
        Ok((j, r))
    }

    fn spanned<T>(&self, value: T, start: &'a str, rest: &'a str) -> Spanned<T> {
        self.src.spanned(value, consumed(start, rest))
    }

    /// One statement (a nested block gives several); `i` is at its first token. A
    /// `!mmra(...)` before its `;` tags every memory operation, fence and barrier of it.
    fn statement(&mut self, i: &'a str) -> PResult<'a, Stmts> {
        let (rest, stmts) = self.untagged_statement(i)?;
        let Some((tags, written)) = self.tags.take() else {
            return Ok((rest, stmts));
        };
        let taggable = |s: &ClStmt| !matches!(s, ClStmt::Declare { .. });
        if !stmts.iter().any(|s| taggable(&s.value)) {
            return fail(
                written,
                "`!mmra(...)` on a declaration without a value: expected tags on a statement \
that accesses memory, a fence or a barrier",
            );
        }
        let stmts = stmts
            .into_iter()
            .map(|s| {
                if matches!(s.value, ClStmt::Declare { .. }) {
                    return s;
                }
                let span = s.span;
                let tagged = ClStmt::Tagged {
                    tags: tags.clone(),
                    stmt: Box::new(s),
                };
                Spanned::new(tagged, span)
            })
            .collect();
        Ok((rest, stmts))
    }

    /// `;` after a statement, with an optional `!mmra(...)` before it (kept in
    /// `self.tags` for [`Body::statement`]).
    fn end_of_statement(&mut self, i: &'a str) -> Result<&'a str, nom::Err<PErr<'a>>> {
        let (i, tags) = mmra::tags(i)?;
        self.tags = tags;
        end_of_statement(i)
    }

    fn untagged_statement(&mut self, i: &'a str) -> PResult<'a, Stmts> {
        self.operators = 0;
        if let Some(rest) = i.strip_prefix(';') {
            return Ok((rest, Vec::new()));
        }
        if let Some(rest) = i.strip_prefix('{') {
            return self.block_rest(rest);
        }
        if let Some(rest) = i.strip_prefix('*') {
            return self.plain_store(i, rest);
        }
        let Ok((after, w)) = ident(i) else {
            return self.expr_statement(i);
        };
        match w {
            "if" => return self.if_statement(i, after),
            "while" => return self.while_statement(i, after),
            "for" => return self.for_statement(i, after),
            "else" => return Err(unexpected(i, "a statement (`else` without `if`)")),
            "barrier" | "work_group_barrier" => return self.barrier(i, None),
            "atomic_work_item_fence" => return self.fence(i, after),
            "atomic_init" => return self.atomic_init(i, after),
            "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
                return self.legacy_fence(i, after, w)
            }
            "sub_group_barrier" => return fail(
                w,
                "`sub_group_barrier` is not supported: expected `barrier` or `work_group_barrier`",
            ),
            _ => {}
        }
        if DECL_TYPES.contains(&w) {
            return self.declaration(after, w);
        }
        let (k, _) = ws(after)?;
        // `LABEL: barrier(...)`
        if k.starts_with(':') && !is_register(w) {
            let (l, _) = ws(&k[1..])?;
            return match ident(l) {
                Ok((_, "barrier" | "work_group_barrier")) => {
                    let (rest, mut stmts) = self.barrier(l, Some(w))?;
                    // The span starts at the label.
                    for s in &mut stmts {
                        s.span = self.src.span(consumed(i, rest));
                    }
                    Ok((rest, stmts))
                }
                _ => Err(unexpected_in(
                    l,
                    &format!(" after the label `{w}:`"),
                    "`barrier(...)` or `work_group_barrier(...)` (only barriers take labels)",
                )),
            };
        }
        // `y[1] = e;`
        if let Some(p) = self.params.iter().position(|p| p.name == w) {
            if k.starts_with('[') {
                let (j, loc) = self.indexed(i, p)?;
                if ws(j)?.0.starts_with('=') && !ws(j)?.0.starts_with("==") {
                    return self.store_rest(i, j, loc);
                }
            }
        }
        if self.var(w).is_some() && assign_op(k).is_some() {
            let (rest, stmt) = self.assignment(i)?;
            let rest = self.end_of_statement(rest)?;
            return Ok((rest, vec![stmt]));
        }
        self.expr_statement(i)
    }

    /// `rK = E`, `rK OP= E`, `rK++`, `rK--` (without the `;`), at `i`.
    fn assignment(&mut self, i: &'a str) -> PResult<'a, Spanned<ClStmt>> {
        let (after, reg) = match self.var_at(i) {
            Ok(r) => r,
            Err(nom::Err::Error(_)) => {
                return Err(unexpected(
                    i,
                    "a declared variable (`rK` or a name declared with `int`)",
                ))
            }
            Err(e) => return Err(e),
        };
        let (k, _) = ws(after)?;
        let Some((op, len)) = assign_op(k) else {
            return Err(unexpected_in(
                k,
                &format!(" after `{}`", consumed(i, after)),
                "`=`, `+=`, `-=`, `++` or another assignment",
            ));
        };
        let (rest, value) = match op {
            Assign::Set => self.expr(&k[len..])?,
            Assign::Op(o) => {
                let (rest, rhs) = self.expr(&k[len..])?;
                let lhs = self.spanned(ClExpr::Reg(reg), i, after);
                (
                    rest,
                    self.spanned(ClExpr::Arith(o, Box::new(lhs), Box::new(rhs)), i, rest),
                )
            }
            Assign::Step(o) => {
                let rest = &k[len..];
                let lhs = self.spanned(ClExpr::Reg(reg), i, after);
                let one = self.spanned(ClExpr::Const(1), &k[..len], rest);
                (
                    rest,
                    self.spanned(ClExpr::Arith(o, Box::new(lhs), Box::new(one)), i, rest),
                )
            }
        };
        let stmt = ClStmt::Assign {
            reg,
            decl: false,
            value,
        };
        Ok((rest, self.spanned(stmt, i, rest)))
    }

    /// `for (INIT; COND; STEP) BODY`, lowered here to `INIT; while (COND) { BODY STEP }`.
    /// INIT is a declaration or an assignment (or empty), STEP an assignment (or empty).
    fn for_statement(&mut self, i: &'a str, after: &'a str) -> PResult<'a, Stmts> {
        let (j, _) = sym(after, '(', " after `for`", "`(`")?;
        let (j, _) = ws(j)?;
        let (j, mut out) = if let Some(rest) = j.strip_prefix(';') {
            (rest, Vec::new())
        } else {
            match ident(j) {
                Ok((a, w)) if DECL_TYPES.contains(&w) => self.declaration(a, w)?,
                _ => {
                    let (rest, stmt) = self.assignment(j)?;
                    (end_of_statement(rest)?, vec![stmt])
                }
            }
        };
        let (j, _) = ws(j)?;
        let (j, cond) = if j.starts_with(';') {
            (j, self.spanned(ClExpr::Const(1), j, j))
        } else {
            self.expr(j)?
        };
        let (j, _) = sym(j, ';', " in the `for` header", "`;` or an operator")?;
        let (j, _) = ws(j)?;
        let (j, step) = if j.starts_with(')') {
            (j, None)
        } else {
            let (rest, stmt) = self.assignment(j)?;
            (rest, Some(stmt))
        };
        let (j, _) = sym(j, ')', " in the `for` header", "`)`")?;
        let (j, mut body) = self.body(j)?;
        body.extend(step);
        let stmt = ClStmt::While { cond, body };
        out.push(self.spanned(stmt, i, j));
        Ok((j, out))
    }

    fn expr_statement(&mut self, i: &'a str) -> PResult<'a, Stmts> {
        let (rest, e) = self.expr(i)?;
        let rest = self.end_of_statement(rest)?;
        Ok((rest, vec![self.spanned(ClStmt::Expr(e), i, rest)]))
    }

    /// `*x = e;`, `*(y + 1) = e;` (`i` at `*`, `rest` after it).
    fn plain_store(&mut self, i: &'a str, rest: &'a str) -> PResult<'a, Stmts> {
        let (j, loc) = self.deref(rest)?;
        self.store_rest(i, j, loc)
    }

    /// `= e;` after the location of a plain store (`i` at the statement, `j` at `=`).
    fn store_rest(&mut self, i: &'a str, j: &'a str, loc: Loc) -> PResult<'a, Stmts> {
        let loc = loc.into_cl();
        let (j, _) = sym(
            j,
            '=',
            &format!(" after `{}`", consumed(i, j).trim_end()),
            "`=` (a plain store `*x = V;`)",
        )?;
        let (j, value) = self.expr(j)?;
        let j = self.end_of_statement(j)?;
        let stmt = ClStmt::PlainStore { loc, value };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// `int r0 = e, r1;`
    fn declaration(&mut self, after: &'a str, ty: &str) -> PResult<'a, Stmts> {
        let mut j = match (ty, ident(after)) {
            ("unsigned", Ok((r, "int" | "long"))) => r,
            _ => after,
        };
        let mut out = Vec::new();
        loop {
            let (k, _) = ws(j)?;
            let start = k;
            let (k, reg) = self.declare(k, ty)?;
            let (k2, _) = ws(k)?;
            let (k, stmt) = if let Some(r) = k2.strip_prefix('=') {
                let (r, value) = self.expr(r)?;
                (
                    r,
                    ClStmt::Assign {
                        reg,
                        decl: true,
                        value,
                    },
                )
            } else {
                (k, ClStmt::Declare { reg })
            };
            out.push(self.spanned(stmt, start, k));
            let (k, _) = ws(k)?;
            match k.strip_prefix(',') {
                Some(r) => j = r,
                None => {
                    let rest = self.end_of_statement(k)?;
                    return Ok((rest, out));
                }
            }
        }
    }

    fn if_statement(&mut self, i: &'a str, after: &'a str) -> PResult<'a, Stmts> {
        let (j, cond) = self.paren_cond(after, "if")?;
        let (j, then) = self.body(j)?;
        let (k, _) = ws(j)?;
        let (j, els) = match keyword(k, "else") {
            Some(r) => self.body(r)?,
            None => (j, Vec::new()),
        };
        let stmt = ClStmt::If { cond, then, els };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    fn while_statement(&mut self, i: &'a str, after: &'a str) -> PResult<'a, Stmts> {
        let (j, cond) = self.paren_cond(after, "while")?;
        let (j, body) = self.body(j)?;
        let stmt = ClStmt::While { cond, body };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// `( e )` after `if` / `while`.
    fn paren_cond(&mut self, i: &'a str, kw: &str) -> PResult<'a, Expr> {
        let (j, _) = sym(i, '(', &format!(" after `{kw}`"), "`(`")?;
        let (j, cond) = self.expr(j)?;
        let (j, _) = sym(
            j,
            ')',
            &format!(" in the condition of `{kw}`"),
            "`)` or an operator",
        )?;
        Ok((j, cond))
    }

    /// `barrier(FLAGS);` / `work_group_barrier(FLAGS[, SCOPE]);` (`i` at the name).
    fn barrier(&mut self, i: &'a str, label: Option<&str>) -> PResult<'a, Stmts> {
        let (j, name) = ident(i)?;
        let (j, (args, close)) = self.call_args(j, name)?;
        let max = if name == "barrier" { 1 } else { 2 };
        let usage = if name == "barrier" {
            "barrier(FLAGS)"
        } else {
            "work_group_barrier(FLAGS[, SCOPE])"
        };
        arity(&args, name, 1, max, usage, close)?;
        let flags = fence_flags(args[0])?;
        let scope = match args.get(1) {
            Some(a) => scope_arg(a)?,
            None => ClScope::WorkGroup,
        };
        let j = self.end_of_statement(j)?;
        let stmt = ClStmt::Barrier {
            label: label.map(str::to_string),
            flags,
            scope,
        };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// `atomic_work_item_fence(FLAGS, ORDER, SCOPE);`
    fn fence(&mut self, i: &'a str, after: &'a str) -> PResult<'a, Stmts> {
        let name = "atomic_work_item_fence";
        let (j, (args, close)) = self.call_args(after, name)?;
        let usage = "atomic_work_item_fence(FLAGS, ORDER, SCOPE)";
        arity(&args, name, 3, 3, usage, close)?;
        let flags = fence_flags(args[0])?;
        let order = order_arg(args[1])?;
        let scope = scope_arg(args[2])?;
        let j = self.end_of_statement(j)?;
        let stmt = ClStmt::Fence {
            flags,
            order,
            scope,
        };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// `atomic_init(x, V);`: OpenCL C initialises an atomic object non-atomically, so
    /// this is a plain store.
    fn atomic_init(&mut self, i: &'a str, after: &'a str) -> PResult<'a, Stmts> {
        let name = "atomic_init";
        let (j, (args, close)) = self.call_args(after, name)?;
        arity(&args, name, 2, 2, "atomic_init(x, V)", close)?;
        let loc = self.location_arg(args[0], name)?.into_cl();
        let value = self.expr_arg(args[1])?;
        let j = self.end_of_statement(j)?;
        let stmt = ClStmt::PlainStore { loc, value };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// OpenCL 1.x `mem_fence(FLAGS);`, `read_mem_fence(FLAGS);`, `write_mem_fence(FLAGS);`:
    /// OpenCL C 2.0 defines them as `atomic_work_item_fence(FLAGS, ORDER,
    /// memory_scope_work_group)` with ORDER acq_rel, acquire and release.
    fn legacy_fence(&mut self, i: &'a str, after: &'a str, name: &str) -> PResult<'a, Stmts> {
        let (j, (args, close)) = self.call_args(after, name)?;
        arity(&args, name, 1, 1, &format!("{name}(FLAGS)"), close)?;
        let flags = fence_flags(args[0])?;
        let order = match name {
            "read_mem_fence" => MemOrder::Acquire,
            "write_mem_fence" => MemOrder::Release,
            _ => MemOrder::AcqRel,
        };
        let j = self.end_of_statement(j)?;
        let stmt = ClStmt::Fence {
            flags,
            order,
            scope: ClScope::WorkGroup,
        };
        Ok((j, vec![self.spanned(stmt, i, j)]))
    }

    /// `( arg, arg, ... )` after a function name: the text of each argument (trimmed),
    /// split at top-level commas, and the closing `)`. Callers parse the arguments.
    fn call_args(&mut self, i: &'a str, name: &str) -> PResult<'a, (Vec<&'a str>, &'a str)> {
        let (j, _) = sym(i, '(', &format!(" after `{name}`"), "`(`")?;
        let mut args = Vec::new();
        let mut depth = 0usize;
        let mut arg_start = 0;
        for (at, c) in j.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    let arg = &j[arg_start..at];
                    if !(args.is_empty() && arg.trim().is_empty()) {
                        args.push(trim_arg(arg));
                    }
                    return Ok((&j[at + 1..], (args, &j[at..at + 1])));
                }
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(trim_arg(&j[arg_start..at]));
                    arg_start = at + 1;
                }
                ';' | '{' | '}' => {
                    return Err(unexpected_in(
                        &j[at..],
                        &format!(" in the arguments of `{name}`"),
                        "`,` or `)`",
                    ))
                }
                _ => {}
            }
        }
        Err(unexpected_in(
            &j[j.len()..],
            &format!(" in the arguments of `{name}`"),
            "`)`",
        ))
    }

    /// An expression, C precedence.
    fn expr(&mut self, i: &'a str) -> PResult<'a, Expr> {
        self.binary(i, 0)
    }

    fn binary(&mut self, i: &'a str, level: usize) -> PResult<'a, Expr> {
        if level > 8 {
            return self.unary(i);
        }
        let (start, _) = ws(i)?;
        let (mut j, mut acc) = self.binary(start, level + 1)?;
        loop {
            let (k, _) = ws(j)?;
            let Some((op, len)) = binop(k).filter(|(op, _)| op.level() == level) else {
                return Ok((j, acc));
            };
            self.operators += 1;
            if self.operators > MAX_OPERATORS {
                return fail(
                    &k[..len],
                    format!("expression too long: expected at most {MAX_OPERATORS} operators in a statement"),
                );
            }
            self.nest(k)?;
            let (rest, rhs) = self.binary(&k[len..], level + 1)?;
            self.depth -= 1;
            let (a, b) = (Box::new(acc), Box::new(rhs));
            let e = match op {
                BinOp::Arith(o) => ClExpr::Arith(o, a, b),
                BinOp::Cmp(o) => ClExpr::Cmp(o, a, b),
                BinOp::And => ClExpr::Logic { and: true, a, b },
                BinOp::Or => ClExpr::Logic { and: false, a, b },
            };
            acc = self.spanned(e, start, rest);
            j = rest;
        }
    }

    fn unary(&mut self, i: &'a str) -> PResult<'a, Expr> {
        let (i, _) = ws(i)?;
        self.nest(i)?;
        let r = self.unary_inner(i);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, i: &'a str) -> PResult<'a, Expr> {
        const WHAT: &str =
            "an expression: an integer, a register `rK`, `*x`, an atomic function or `(`";
        if let Some(rest) = i.strip_prefix('!').filter(|r| !r.starts_with('=')) {
            let (j, e) = self.unary(rest)?;
            return Ok((j, self.spanned(ClExpr::Not(Box::new(e)), i, j)));
        }
        if let Some(rest) = i.strip_prefix('(') {
            let (j, e) = self.expr(rest)?;
            let (j, _) = sym(j, ')', "", "`)` or an operator")?;
            return Ok((j, Spanned::new(e.value, self.src.span(consumed(i, j)))));
        }
        if let Some(rest) = i.strip_prefix('*') {
            let (j, loc) = self.deref(rest)?;
            let e = ClExpr::Mem(ClMemOp::PlainLoad { loc: loc.into_cl() });
            return Ok((j, self.spanned(e, i, j)));
        }
        match integer(i) {
            Ok((j, v)) => return Ok((j, self.spanned(ClExpr::Const(v), i, j))),
            Err(nom::Err::Error(_)) => {}
            Err(e) => return Err(e),
        }
        if let Some(rest) = i.strip_prefix('-') {
            let (j, e) = self.unary(rest)?;
            let zero = Spanned::new(ClExpr::Const(0), self.src.span(&i[..1]));
            let neg = ClExpr::Arith(ArithOp::Sub, Box::new(zero), Box::new(e));
            return Ok((j, self.spanned(neg, i, j)));
        }
        let (j, w) = match ident(i) {
            Ok(r) => r,
            Err(_) => return Err(unexpected(i, WHAT)),
        };
        if is_register(w) {
            let (j, reg) = register(i)?;
            return Ok((j, self.spanned(ClExpr::Reg(reg), i, j)));
        }
        if let Some(reg) = self.var(w) {
            return Ok((j, self.spanned(ClExpr::Reg(reg), i, j)));
        }
        if w.starts_with("atomic_") {
            let (j, op) = self.atomic_call(w, j)?;
            return Ok((j, self.spanned(ClExpr::Mem(op), i, j)));
        }
        if let Some(p) = self.params.iter().position(|p| p.name == w) {
            if ws(j)?.0.starts_with('[') {
                let (j, loc) = self.indexed(i, p)?;
                let e = ClExpr::Mem(ClMemOp::PlainLoad { loc: loc.into_cl() });
                return Ok((j, self.spanned(e, i, j)));
            }
            return fail(
                w,
                format!("`{w}` is a pointer: expected `*{w}` or `{w}[K]` (a plain access) or an atomic function such as `atomic_load({w})`"),
            );
        }
        fail(
            w,
            format!("unknown name `{w}`: expected a declared variable, `*x`, an atomic function or an integer"),
        )
    }

    /// A parameter of this thread named at `i`: its index in `self.params`.
    fn param_name(&self, i: &'a str, ctx: &str) -> PResult<'a, usize> {
        let (i, _) = ws(i)?;
        let (j, name) = expect(
            i,
            ident,
            &format!(" {ctx}"),
            "a location (a parameter name)",
        )?;
        if let Some(p) = self.params.iter().position(|p| p.name == name) {
            return Ok((j, p));
        }
        let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        let expected = if names.is_empty() {
            "a parameter, but the thread declares none".to_string()
        } else {
            format!("one of {}", names.join(", "))
        };
        fail(
            name,
            format!(
                "`{name}` is not a parameter of P{}: expected {expected}",
                self.thread
            ),
        )
    }

    /// The location of cell `index` of the parameter `p` (`text` is blamed): `y[1]` for
    /// an array of the init block, the parameter's own location for index 0 of a scalar.
    fn cell(&self, p: usize, index: i64, text: &'a str) -> Result<Loc, nom::Err<PErr<'a>>> {
        let name = &self.params[p].name;
        let len = self.array_len(p);
        let cell = match (len, u64::try_from(index)) {
            (Some(n), Ok(k)) if k < n => super::cell_name(name, k),
            (Some(n), _) => {
                return Err(err(
                    text,
                    format!(
                        "index {index} is outside the array `{name}` of {n} cells: expected 0 to {}",
                        n - 1
                    ),
                ))
            }
            (None, Ok(0)) => name.clone(),
            (None, _) => {
                return Err(err(
                    text,
                    format!(
                        "`{name}` is not an array (the init block declares no `{name}[N]`): expected `{name}` or `*{name}`, or an array `int {name}[N] = {{...}}` in the init block"
                    ),
                ))
            }
        };
        Ok(Loc {
            cell,
            param: p,
            index: None,
        })
    }

    /// The length of the parameter `p`'s array, if the init block declares one.
    fn array_len(&self, p: usize) -> Option<u64> {
        let name = &self.params[p].name;
        self.arrays.iter().find(|(a, _)| a == name).map(|&(_, n)| n)
    }

    /// The location `p + index` where the index is computed at run time (`text` is the
    /// address as written): every cell of the array (the location itself for a scalar)
    /// is a candidate; the lowering bounds the index's values (docs/opencl.md).
    fn dynamic_cell(&self, p: usize, index: Expr, text: &'a str) -> Loc {
        let name = &self.params[p].name;
        let cells = match self.array_len(p) {
            Some(n) => (0..n).map(|k| super::cell_name(name, k)).collect(),
            None => vec![name.clone()],
        };
        Loc {
            cell: name.clone(),
            param: p,
            index: Some(ClIndex {
                expr: Box::new(index),
                cells,
                text: text.trim().to_string(),
            }),
        }
    }

    /// An index term at `i` (after `+` or `-` in a pointer): an integer, or a product
    /// over registers (`r0`, `r0 * 0`, `(r0 & 1)`), an address dependency.
    fn index(&mut self, i: &'a str) -> PResult<'a, Index> {
        // Level 8 of `binary`: `*` and `/` and what binds tighter.
        let (j, e) = self.binary(i, 8)?;
        match e.value {
            ClExpr::Const(v) => Ok((j, Index::Const(v))),
            _ => Ok((j, Index::Dynamic(e))),
        }
    }

    /// `[E]` after an array name at `i`: the index (a constant, or an expression over
    /// registers) and the input after `]`.
    fn subscript(&mut self, i: &'a str, array: &str) -> PResult<'a, Index> {
        let (j, _) = sym(i, '[', "", "`[`")?;
        let (k, _) = ws(j)?;
        if let Ok((l, v)) = integer(k) {
            if let Ok((l, _)) = sym(l, ']', "", "`]`") {
                return Ok((l, Index::Const(v)));
            }
        }
        let (j, e) = self.expr(j)?;
        let (j, _) = sym(j, ']', &format!(" in `{array}[...]`"), "`]`")?;
        Ok((j, Index::Dynamic(e)))
    }

    /// `acc + term` (or `-`): the index so far with one more term.
    fn add_term(&self, acc: Option<Expr>, term: Expr, sign: i64, start: &'a str) -> Expr {
        let span_of = |e: &Expr| e.span;
        let term = if sign < 0 {
            let zero = Spanned::new(ClExpr::Const(0), span_of(&term));
            let span = span_of(&term);
            Spanned::new(
                ClExpr::Arith(ArithOp::Sub, Box::new(zero), Box::new(term)),
                span,
            )
        } else {
            term
        };
        match acc {
            None => term,
            Some(a) => {
                let span = self.src.span(start);
                Spanned::new(
                    ClExpr::Arith(ArithOp::Add, Box::new(a), Box::new(term)),
                    span,
                )
            }
        }
    }

    /// A pointer to a location: `x`, `y + 1`, `y - 1 + 2`, `&y[1]`, `(y + 1)`, and with
    /// register terms `y + r0`, `&y[r0]` (an address dependency). `y` alone points to the
    /// first cell of an array. Parentheses are counted, not recursed into, so that no
    /// input nests deeper than this frame.
    fn pointer(&mut self, i: &'a str, ctx: &str) -> PResult<'a, Loc> {
        let (start, _) = ws(i)?;
        let mut j = start;
        let mut open = 0usize;
        while let Some(rest) = j.strip_prefix('(') {
            open += 1;
            j = ws(rest)?.0;
        }
        let mut dynamic: Option<Expr> = None;
        let (mut j, p, mut offset) = match j.strip_prefix('&') {
            Some(rest) => {
                let (k, p) = self.param_name(rest, "after `&`")?;
                let name = self.params[p].name.clone();
                let (l, _) = ws(k)?;
                if !l.starts_with('[') {
                    return fail(
                        consumed(j, k),
                        format!("`&{name}` is the address of the pointer `{name}`: expected `{name}` (a parameter is already a pointer) or `&{name}[K]`"),
                    );
                }
                match self.subscript(l, &name)? {
                    (l, Index::Const(v)) => (l, p, v),
                    (l, Index::Dynamic(e)) => {
                        dynamic = Some(e);
                        (l, p, 0)
                    }
                }
            }
            None => {
                let (k, p) = self.param_name(j, ctx)?;
                (k, p, 0)
            }
        };
        loop {
            // `+ K`, `- K`, `+ rK`
            loop {
                let (k, _) = ws(j)?;
                let sign = match k.chars().next() {
                    Some('+') if !k.starts_with("++") && !k.starts_with("+=") => 1,
                    Some('-') if !k.starts_with("--") && !k.starts_with("-=") => -1,
                    _ => break,
                };
                match self.index(&k[1..])? {
                    (k, Index::Const(v)) => {
                        offset = offset.saturating_add(v.saturating_mul(sign));
                        j = k;
                    }
                    (l, Index::Dynamic(e)) => {
                        dynamic = Some(self.add_term(dynamic, e, sign, consumed(start, l)));
                        j = l;
                    }
                }
            }
            if open == 0 {
                break;
            }
            j = sym(j, ')', &format!(" {ctx}"), "`)` or `+ K`")?.0;
            open -= 1;
        }
        let text = consumed(start, j);
        let Some(index) = dynamic else {
            return Ok((j, self.cell(p, offset, text)?));
        };
        let index = if offset == 0 {
            index
        } else {
            let k = Spanned::new(ClExpr::Const(offset), index.span);
            self.add_term(Some(index), k, 1, text)
        };
        Ok((j, self.dynamic_cell(p, index, text)))
    }

    /// The location `*` dereferences (`i` after the `*`): `*x`, or `*(PTR)`.
    fn deref(&mut self, i: &'a str) -> PResult<'a, Loc> {
        let (i, _) = ws(i)?;
        if i.starts_with('(') {
            return self.pointer(i, "after `*(`");
        }
        let (j, p) = self.param_name(i, "after `*`")?;
        let loc = self.cell(p, 0, consumed(i, j))?;
        Ok((j, loc))
    }

    /// `y[K]` or `y[E]` at `i` (`p` the parameter `y`): the cell.
    fn indexed(&mut self, i: &'a str, p: usize) -> PResult<'a, Loc> {
        let (j, _) = ident(i)?;
        let name = self.params[p].name.clone();
        let (j, index) = self.subscript(j, &name)?;
        let text = consumed(ws(i)?.0, j);
        let loc = match index {
            Index::Const(v) => self.cell(p, v, text)?,
            Index::Dynamic(e) => self.dynamic_cell(p, e, text),
        };
        Ok((j, loc))
    }

    /// A location given as a whole argument text.
    fn location_arg(&mut self, arg: &'a str, name: &str) -> Result<Loc, nom::Err<PErr<'a>>> {
        let (rest, loc) = self.pointer(arg, &format!("as the first argument of `{name}`"))?;
        only(rest, "after the location")?;
        Ok(loc)
    }

    /// Warns, once per location and thread, that an atomic function is applied to a
    /// location this thread declares with a non-atomic type (docs/opencl.md: the
    /// operation, not the type, makes an access atomic, as in herd7).
    fn atomic_on_plain(&mut self, loc: &Loc, func: &str, at: &'a str) {
        let p = &self.params[loc.param];
        if p.atomic || self.warned_plain.contains(&loc.param) {
            return;
        }
        self.warned_plain.push(loc.param);
        self.warnings.push(Warning::new(
            self.src.span(at),
            format!(
                "`{func}` on `{}`, which P{} declares with a non-atomic type: OpenCL C requires an atomic type; read as an atomic access (the operation makes an access atomic, as in herd7)",
                p.name, self.thread
            ),
        ));
    }

    fn expr_arg(&mut self, arg: &'a str) -> Result<Expr, nom::Err<PErr<'a>>> {
        let (rest, e) = self.expr(arg)?;
        only(rest, "after the argument")?;
        Ok(e)
    }

    /// The atomic function `name`, its arguments after `i`.
    fn atomic_call(&mut self, name: &'a str, i: &'a str) -> PResult<'a, ClMemOp> {
        let (base, explicit) = match name.strip_suffix("_explicit") {
            Some(b) => (b, true),
            None => (name, false),
        };
        let op = match base {
            "atomic_load" => Atomic::Load,
            "atomic_store" => Atomic::Store,
            "atomic_exchange" => Atomic::Rmw(None),
            "atomic_fetch_add" => Atomic::Rmw(Some(ArithOp::Add)),
            "atomic_fetch_sub" => Atomic::Rmw(Some(ArithOp::Sub)),
            "atomic_fetch_or" => Atomic::Rmw(Some(ArithOp::Or)),
            "atomic_fetch_xor" => Atomic::Rmw(Some(ArithOp::Xor)),
            "atomic_fetch_and" => Atomic::Rmw(Some(ArithOp::And)),
            "atomic_fetch_min" => Atomic::Rmw(Some(ArithOp::Min)),
            "atomic_fetch_max" => Atomic::Rmw(Some(ArithOp::Max)),
            "atomic_compare_exchange_strong" => Atomic::Cas { weak: false },
            "atomic_compare_exchange_weak" => Atomic::Cas { weak: true },
            "atomic_flag_test_and_set" => Atomic::FlagSet,
            "atomic_flag_clear" => Atomic::FlagClear,
            "atomic_init" => {
                return fail(name, "`atomic_init` is a statement: expected it alone, `atomic_init(x, V);`")
            }
            "atomic_work_item_fence" => {
                return fail(name, "`atomic_work_item_fence` is a statement: expected it alone, `atomic_work_item_fence(FLAGS, ORDER, SCOPE);`")
            }
            _ => return fail(name, format!("unknown atomic function `{name}`: expected atomic_load, atomic_store, atomic_exchange, atomic_fetch_{{add,sub,or,xor,and,min,max}}, atomic_compare_exchange_{{strong,weak}} or atomic_flag_{{test_and_set,clear}}, each also `_explicit`")),
        };
        let (j, (args, close)) = self.call_args(i, name)?;
        // Value arguments before the orders: load 0, store/rmw 1, cas 2.
        let (values, orders, usage) = match op {
            Atomic::Load | Atomic::FlagSet | Atomic::FlagClear => (0, 1, "(x, ORDER[, SCOPE])"),
            Atomic::Store | Atomic::Rmw(_) => (1, 1, "(x, V, ORDER[, SCOPE])"),
            Atomic::Cas { .. } => (2, 2, "(x, EXPECTED, DESIRED, SUCCESS, FAILURE[, SCOPE])"),
        };
        let (min, max, usage) = if explicit {
            (
                1 + values + orders,
                1 + values + orders + 1,
                usage.to_string(),
            )
        } else {
            let plain = match op {
                Atomic::Load | Atomic::FlagSet | Atomic::FlagClear => "(x)",
                Atomic::Store | Atomic::Rmw(_) => "(x, V)",
                Atomic::Cas { .. } => "(x, EXPECTED, DESIRED)",
            };
            (1 + values, 1 + values, plain.to_string())
        };
        arity(&args, name, min, max, &format!("{name}{usage}"), close)?;
        let loc = self.location_arg(args[0], name)?;
        self.atomic_on_plain(&loc, name, args[0]);
        let loc = loc.into_cl();
        let mut orders_given = Vec::new();
        for a in &args[1 + values..(1 + values + orders).min(args.len())] {
            orders_given.push((order_arg(a)?, *a));
        }
        let scope = match args.get(1 + values + orders) {
            Some(a) => scope_arg(a)?,
            None => ClScope::Device,
        };
        let order = orders_given.first().map_or(MemOrder::SeqCst, |&(o, _)| o);
        let mem = match op {
            Atomic::Load => {
                if let Some(&(o @ (MemOrder::Release | MemOrder::AcqRel), at)) =
                    orders_given.first()
                {
                    return fail(at, format!("`{}` is not an order for a load: expected memory_order_relaxed, memory_order_acquire or memory_order_seq_cst", order_name(o)));
                }
                ClMemOp::Load { loc, order, scope }
            }
            // atomic_flag_test_and_set: an exchange with 1; atomic_flag_clear: a store of 0.
            Atomic::FlagSet => ClMemOp::Rmw {
                loc,
                op: None,
                value: Box::new(Spanned::new(ClExpr::Const(1), self.src.span(args[0]))),
                order,
                scope,
            },
            Atomic::FlagClear | Atomic::Store => {
                if let Some(&(o @ (MemOrder::Acquire | MemOrder::AcqRel), at)) =
                    orders_given.first()
                {
                    return fail(at, format!("`{}` is not an order for a store: expected memory_order_relaxed, memory_order_release or memory_order_seq_cst", order_name(o)));
                }
                let value = match op {
                    Atomic::FlagClear => Spanned::new(ClExpr::Const(0), self.src.span(args[0])),
                    _ => self.expr_arg(args[1])?,
                };
                let value = Box::new(value);
                ClMemOp::Store {
                    loc,
                    value,
                    order,
                    scope,
                }
            }
            Atomic::Rmw(op) => {
                let value = Box::new(self.expr_arg(args[1])?);
                ClMemOp::Rmw {
                    loc,
                    op,
                    value,
                    order,
                    scope,
                }
            }
            Atomic::Cas { weak } => {
                let failure = match orders_given.get(1) {
                    Some(&(o @ (MemOrder::Release | MemOrder::AcqRel), at)) => {
                        self.warn_failure_order(o, at);
                        o
                    }
                    Some(&(o, _)) => o,
                    None => MemOrder::SeqCst,
                };
                let expected = self.expected_arg(args[1])?;
                let desired = Box::new(self.expr_arg(args[2])?);
                ClMemOp::Cas {
                    loc,
                    weak,
                    expected,
                    desired,
                    success: order,
                    failure,
                    scope,
                }
            }
        };
        Ok((j, mem))
    }

    /// A release or acq_rel failure order: OpenCL C (as C11) rejects it; read as herd7
    /// reads it (docs/opencl.md "Compare-exchange"): the failing read is a load, which
    /// cannot release, so release reads as relaxed and acq_rel as acquire.
    fn warn_failure_order(&mut self, o: MemOrder, at: &'a str) {
        let reading = match o {
            MemOrder::Release => "memory_order_relaxed",
            _ => "memory_order_acquire",
        };
        self.warnings.push(Warning::new(
            self.src.span(at),
            format!(
                "`{}` as a failure order: OpenCL C requires relaxed, acquire or seq_cst; read as `{reading}` (a failed exchange is a load, which cannot release), as herd7 does",
                order_name(o)
            ),
        ));
    }

    /// `&rK`, a pointer to a shared location (C11's form), or a value.
    fn expected_arg(&mut self, arg: &'a str) -> Result<ClExpected, nom::Err<PErr<'a>>> {
        if self.is_pointer_arg(arg) {
            let loc = self.location_arg(arg, "the expected value")?;
            if loc.index.is_some() {
                return Err(err(
                    arg.trim(),
                    format!("`{}` as the expected value of a compare-exchange: a pointer that depends on a register is not supported there: expected a pointer with a constant address (`one`, `y + 1`), `&rK` or a value", arg.trim()),
                ));
            }
            let p = &self.params[loc.param];
            if p.atomic {
                self.warnings.push(Warning::new(
                    self.src.span(arg),
                    format!(
                        "`{arg}` as the expected value points to `{cell}`, which P{} declares atomic: OpenCL C requires a pointer to a non-atomic type; read as herd7 does, a non-atomic read of `{cell}` before the exchange and, if the exchange fails, a non-atomic write of the value read to `{cell}`",
                        self.thread,
                        cell = loc.cell
                    ),
                ));
            }
            return Ok(ClExpected::Location(Spanned::new(
                loc.cell,
                self.src.span(arg),
            )));
        }
        if let Some(rest) = arg.strip_prefix('&') {
            let (rest, _) = ws(rest)?;
            let (after, reg) = match self.var_at(rest) {
                Ok(r) => r,
                Err(nom::Err::Error(_)) => {
                    return Err(unexpected_in(rest, " after `&`", "a declared variable"))
                }
                Err(e) => return Err(e),
            };
            only(after, "after the expected register")?;
            return Ok(ClExpected::Pointer(reg));
        }
        Ok(ClExpected::Value(Box::new(self.expr_arg(arg)?)))
    }
}

impl<'a> Body<'_, 'a> {
    /// `arg` is a pointer to a location (`one`, `y + 1`, `&y[1]`, `(one)`), not a value:
    /// it starts with a parameter name that no `[` follows, or with `&` and a parameter.
    fn is_pointer_arg(&self, arg: &str) -> bool {
        let a = arg.trim_start_matches(|c: char| c == '(' || c.is_whitespace());
        let (a, amp) = match a.strip_prefix('&') {
            Some(rest) => (rest.trim_start(), true),
            None => (a, false),
        };
        let Ok((rest, w)) = ident(a) else {
            return false;
        };
        self.params.iter().any(|p| p.name == w) && (amp || !rest.trim_start().starts_with('['))
    }
}

/// An assignment operator.
#[derive(Clone, Copy)]
enum Assign {
    /// `=`
    Set,
    /// `+=`, `-=`, `*=`, `/=`, `&=`, `|=`, `^=`
    Op(ArithOp),
    /// `++`, `--`
    Step(ArithOp),
}

/// The assignment operator at the start of `i`, and its length.
fn assign_op(i: &str) -> Option<(Assign, usize)> {
    const OPS: [(&str, Assign); 10] = [
        ("++", Assign::Step(ArithOp::Add)),
        ("--", Assign::Step(ArithOp::Sub)),
        ("+=", Assign::Op(ArithOp::Add)),
        ("-=", Assign::Op(ArithOp::Sub)),
        ("*=", Assign::Op(ArithOp::Mul)),
        ("/=", Assign::Op(ArithOp::Div)),
        ("&=", Assign::Op(ArithOp::And)),
        ("|=", Assign::Op(ArithOp::Or)),
        ("^=", Assign::Op(ArithOp::Xor)),
        ("=", Assign::Set),
    ];
    if i.starts_with("==") {
        return None;
    }
    OPS.iter()
        .find(|(t, _)| i.starts_with(t))
        .map(|&(t, op)| (op, t.len()))
}

#[derive(Clone, Copy)]
enum Atomic {
    Load,
    FlagSet,
    FlagClear,
    Store,
    Rmw(Option<ArithOp>),
    Cas { weak: bool },
}

#[derive(Clone, Copy)]
enum BinOp {
    Arith(ArithOp),
    Cmp(CmpOp),
    And,
    Or,
}

impl BinOp {
    fn level(self) -> usize {
        match self {
            BinOp::Or => 0,
            BinOp::And => 1,
            BinOp::Arith(ArithOp::Or) => 2,
            BinOp::Arith(ArithOp::Xor) => 3,
            BinOp::Arith(ArithOp::And) => 4,
            BinOp::Cmp(CmpOp::Eq | CmpOp::Ne) => 5,
            BinOp::Cmp(_) => 6,
            BinOp::Arith(ArithOp::Add | ArithOp::Sub) => 7,
            BinOp::Arith(_) => 8,
        }
    }
}

/// The binary operator at the start of `i` and its length (longest match first).
fn binop(i: &str) -> Option<(BinOp, usize)> {
    const OPS: [(&str, BinOp); 15] = [
        ("||", BinOp::Or),
        ("&&", BinOp::And),
        ("==", BinOp::Cmp(CmpOp::Eq)),
        ("!=", BinOp::Cmp(CmpOp::Ne)),
        ("<=", BinOp::Cmp(CmpOp::Le)),
        (">=", BinOp::Cmp(CmpOp::Ge)),
        ("<", BinOp::Cmp(CmpOp::Lt)),
        (">", BinOp::Cmp(CmpOp::Gt)),
        ("|", BinOp::Arith(ArithOp::Or)),
        ("^", BinOp::Arith(ArithOp::Xor)),
        ("&", BinOp::Arith(ArithOp::And)),
        ("+", BinOp::Arith(ArithOp::Add)),
        ("-", BinOp::Arith(ArithOp::Sub)),
        ("*", BinOp::Arith(ArithOp::Mul)),
        ("/", BinOp::Arith(ArithOp::Div)),
    ];
    OPS.iter()
        .find(|(t, _)| i.starts_with(t))
        .map(|&(t, op)| (op, t.len()))
}

/// `;` after a statement: the input after it.
fn end_of_statement(i: &str) -> Result<&str, nom::Err<PErr<'_>>> {
    let (j, _) = ws(i)?;
    match j.strip_prefix(';') {
        Some(rest) => Ok(rest),
        None => Err(unexpected(j, "`;` or an operator")),
    }
}

/// Nothing but spaces may follow inside an argument.
fn only<'a>(rest: &'a str, ctx: &str) -> Result<(), nom::Err<PErr<'a>>> {
    let (rest, _) = ws(rest)?;
    if rest.is_empty() {
        Ok(())
    } else {
        Err(unexpected_in(rest, &format!(" {ctx}"), "`,` or `)`"))
    }
}

/// An argument's text without surrounding whitespace (still a subslice, for spans).
fn trim_arg(a: &str) -> &str {
    let start = a.len() - a.trim_start().len();
    a[start..].trim_end()
}

/// Checks the number of arguments; blames the first extra one, or the `)` (`close`) if
/// one is missing.
fn arity<'a>(
    args: &[&'a str],
    name: &str,
    min: usize,
    max: usize,
    usage: &str,
    close: &'a str,
) -> Result<(), nom::Err<PErr<'a>>> {
    if (min..=max).contains(&args.len()) {
        return Ok(());
    }
    let n = if min == max {
        format!("{min}")
    } else {
        format!("{min} or {max}")
    };
    let s = if max == 1 { "" } else { "s" };
    let at = args.get(max).copied().unwrap_or(close);
    Err(err(
        at,
        format!(
            "`{name}` takes {n} argument{s}, found {}: expected `{usage}`",
            args.len()
        ),
    ))
}

fn order_name(o: MemOrder) -> &'static str {
    match o {
        MemOrder::Relaxed => "memory_order_relaxed",
        MemOrder::Acquire => "memory_order_acquire",
        MemOrder::Release => "memory_order_release",
        MemOrder::AcqRel => "memory_order_acq_rel",
        MemOrder::SeqCst => "memory_order_seq_cst",
    }
}

fn order_arg(a: &str) -> Result<MemOrder, nom::Err<PErr<'_>>> {
    Ok(match a {
        "memory_order_relaxed" => MemOrder::Relaxed,
        "memory_order_acquire" => MemOrder::Acquire,
        "memory_order_release" => MemOrder::Release,
        "memory_order_acq_rel" => MemOrder::AcqRel,
        "memory_order_seq_cst" => MemOrder::SeqCst,
        _ => {
            return Err(err(a, format!("unknown memory order `{a}`: expected memory_order_relaxed, memory_order_acquire, memory_order_release, memory_order_acq_rel or memory_order_seq_cst")))
        }
    })
}

fn scope_arg(a: &str) -> Result<ClScope, nom::Err<PErr<'_>>> {
    Ok(match a {
        "memory_scope_work_item" => ClScope::WorkItem,
        "memory_scope_sub_group" => ClScope::SubGroup,
        "memory_scope_work_group" => ClScope::WorkGroup,
        "memory_scope_device" => ClScope::Device,
        "memory_scope_all_svm_devices" | "memory_scope_all_devices" => ClScope::AllSvmDevices,
        _ if a.contains("rem") => {
            return Err(err(a, format!("`{a}`: remote-scope promotion is not modelled (seed 004 has no remote scopes): expected memory_scope_work_item, memory_scope_sub_group, memory_scope_work_group, memory_scope_device or memory_scope_all_svm_devices")))
        }
        _ => {
            return Err(err(a, format!("unknown memory scope `{a}`: expected memory_scope_work_item, memory_scope_sub_group, memory_scope_work_group, memory_scope_device or memory_scope_all_svm_devices")))
        }
    })
}

/// `CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE`, either alone, or `0`.
fn fence_flags(a: &str) -> Result<FenceFlags, nom::Err<PErr<'_>>> {
    let mut flags = FenceFlags::default();
    if a == "0" {
        return Ok(flags);
    }
    let mut rest = a;
    loop {
        let (r, _) = ws(rest)?;
        let (r, w) = match ident(r) {
            Ok(x) => x,
            Err(_) => return Err(unexpected_in(r, " in the fence flags", FLAGS)),
        };
        match w {
            "CLK_GLOBAL_MEM_FENCE" => flags.global = true,
            "CLK_LOCAL_MEM_FENCE" => flags.local = true,
            "CLK_IMAGE_MEM_FENCE" => {
                return Err(err(w, "`CLK_IMAGE_MEM_FENCE` is not supported (images are outside the model): expected CLK_GLOBAL_MEM_FENCE or CLK_LOCAL_MEM_FENCE"))
            }
            _ => {
                return Err(err(w, format!("unknown fence flag `{w}`: expected {FLAGS}")))
            }
        }
        let (r, _) = ws(r)?;
        if r.is_empty() {
            return Ok(flags);
        }
        match r.strip_prefix('|') {
            Some(next) => rest = next,
            None => {
                return Err(unexpected_in(
                    r,
                    " in the fence flags",
                    "`|` or the end of the argument",
                ))
            }
        }
    }
}

const FLAGS: &str = "CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, both joined by `|`, or 0";
