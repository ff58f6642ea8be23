//! herd's scope tree, an alternative to `@` ids on thread headers:
//!
//! ```text
//! scopeTree (device (work_group P0 P1) (work_group (sub_group P2) (sub_group P3)))
//! ```
//!
//! Levels nest device > work_group > sub_group; several trees may follow the keyword.
//! Each group gets a fresh id; a thread outside any device is on device 0, and a thread
//! outside any work-group (sub-group) is alone in its own.

use crate::opencl::ast::ClThread;
use vkherd_litmus::syntax::lex::{fail, token_at, unexpected, unexpected_in, word, ws, PResult};

/// Bound on nesting, so that recursion stays far from the stack limit.
const MAX_DEPTH: usize = 16;

#[derive(Clone, Copy, Default)]
struct Ids {
    dev: Option<u64>,
    wg: Option<u64>,
    sg: Option<u64>,
}

struct Walk<'t> {
    threads: &'t mut [ClThread],
    seen: Vec<bool>,
    next_group: u64,
}

/// Parses the trees after the `scopeTree` keyword (at `i`) and sets the ids of `threads`.
pub(super) fn scope_tree<'a>(i: &'a str, kw: &'a str, threads: &mut [ClThread]) -> PResult<'a, ()> {
    if let Some(t) = threads
        .iter()
        .find(|t| t.sg.is_some() || t.wg.is_some() || t.dev.is_some())
    {
        return fail(
            kw,
            format!(
                "`scopeTree` but P{} has `@` ids: expected the ids in one place, the thread headers or the scope tree",
                t.id
            ),
        );
    }
    let mut w = Walk {
        seen: vec![false; threads.len()],
        threads,
        next_group: 0,
    };
    let (mut i, _) = ws(i)?;
    if !i.starts_with('(') {
        return Err(unexpected_in(
            i,
            " after `scopeTree`",
            "a tree `(device ...)`",
        ));
    }
    while i.starts_with('(') {
        i = w.tree(i, Ids::default(), 0)?.0;
        i = ws(i)?.0;
    }
    if let Some(t) = w.seen.iter().position(|s| !s) {
        return fail(
            kw,
            format!("P{t} is not in the scope tree: expected every thread in it"),
        );
    }
    // Threads outside any work-group / sub-group are alone in their own.
    for t in w.threads.iter_mut() {
        t.dev.get_or_insert(0);
        if t.wg.is_none() {
            t.wg = Some(w.next_group);
            w.next_group += 1;
        }
        if t.sg.is_none() {
            t.sg = Some(w.next_group);
            w.next_group += 1;
        }
    }
    Ok((i, ()))
}

impl Walk<'_> {
    /// `( LEVEL item... )` at `i`.
    fn tree<'a>(&mut self, i: &'a str, outer: Ids, depth: usize) -> PResult<'a, ()> {
        if depth >= MAX_DEPTH {
            return fail(
                token_at(i),
                format!("scope tree nested too deeply: expected at most {MAX_DEPTH} levels"),
            );
        }
        let i = &i[1..];
        let levels = "`device`, `work_group` or `sub_group`";
        let (mut j, level) = match word(i) {
            Ok(r) => r,
            Err(_) => return Err(unexpected_in(i, " after `(` in the scope tree", levels)),
        };
        let mut ids = outer;
        let id = Some(self.next_group);
        self.next_group += 1;
        match level {
            "device" if outer.dev.is_none() && outer.wg.is_none() => ids.dev = id,
            "work_group" if outer.wg.is_none() && outer.sg.is_none() => ids.wg = id,
            "sub_group" if outer.sg.is_none() => ids.sg = id,
            "device" | "work_group" | "sub_group" => {
                return fail(
                    level,
                    format!("`{level}` inside a group it cannot be part of: expected device > work_group > sub_group"),
                )
            }
            _ => return Err(unexpected_in(i, " after `(` in the scope tree", levels)),
        }
        loop {
            let (k, _) = ws(j)?;
            if let Some(rest) = k.strip_prefix(')') {
                return Ok((rest, ()));
            }
            if k.starts_with('(') {
                j = self.tree(k, ids, depth + 1)?.0;
                continue;
            }
            let Ok((rest, name)) = word(k) else {
                return Err(unexpected(k, "a thread `Pn`, a group `(...)` or `)`"));
            };
            let t = name
                .strip_prefix('P')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse::<usize>().ok());
            let Some(t) = t.filter(|&t| t < self.threads.len()) else {
                return fail(
                    name,
                    format!(
                        "`{name}` in the scope tree is not a thread of the test: expected P0 to P{}",
                        self.threads.len().saturating_sub(1)
                    ),
                );
            };
            if self.seen[t] {
                return fail(
                    name,
                    format!("P{t} is twice in the scope tree: expected each thread once"),
                );
            }
            self.seen[t] = true;
            let th = &mut self.threads[t];
            (th.dev, th.wg, th.sg) = (ids.dev, ids.wg, ids.sg);
            j = rest;
        }
    }
}
