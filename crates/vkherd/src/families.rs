//! Generators of litmus-test families that scale, for benchmarks (benches/) and
//! `vkherd bench`. Each returns `.litmus` text.

/// The benchmark families, by name.
pub const FAMILIES: &[&str] = &[
    "iriw",
    "sb-ring",
    "mp-chain",
    "writes-readers",
    "xf-barrier",
    "spinlock",
    "ticket",
    "rmw-chain",
];

/// Why a family member cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FamilyError {
    /// No family of that name.
    Unknown { name: String },
    /// Member `n` would have no thread.
    NoThread { name: String, n: usize },
    /// Member `n` would have `threads` threads, more than `max`; `largest` is the largest
    /// member within it.
    TooManyThreads {
        name: String,
        n: usize,
        threads: usize,
        max: usize,
        largest: usize,
    },
    /// The generated text does not load (a bug in the generator).
    Invalid {
        name: String,
        n: usize,
        diagnostic: vkherd_litmus::Diagnostic,
    },
}

impl std::fmt::Display for FamilyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FamilyError::Unknown { name } => write!(
                f,
                "unknown family `{name}`: expected one of {}",
                FAMILIES.join(", ")
            ),
            FamilyError::NoThread { name, n } => {
                write!(f, "{name} {n} has no thread: N must be at least 1")
            }
            FamilyError::TooManyThreads {
                name,
                n,
                threads,
                max,
                largest,
            } => write!(
                f,
                "{name} {n} would have {threads} threads, more than a test may have ({max}, see docs/errors.md): N can be at most {largest}"
            ),
            FamilyError::Invalid {
                name,
                n,
                diagnostic,
            } => write!(
                f,
                "{name} {n} is not a valid test: {} (a bug in the generator)",
                diagnostic.message
            ),
        }
    }
}

impl std::error::Error for FamilyError {}

/// Generates member `n` of family `name`, or says why it cannot: an unknown family, or a
/// member the parser would reject (too many threads, or none).
pub fn generate(name: &str, n: usize) -> Result<String, FamilyError> {
    let threads = |n: usize| -> Option<usize> {
        Some(match name {
            "iriw" | "writes-readers" => n.saturating_add(2),
            "sb-ring" | "spinlock" | "ticket" | "rmw-chain" => n,
            "mp-chain" => n.max(1).saturating_add(1),
            "xf-barrier" => n.max(1).saturating_mul(2),
            _ => return None,
        })
    };
    let Some(count) = threads(n) else {
        return Err(FamilyError::Unknown {
            name: name.to_string(),
        });
    };
    if count == 0 {
        return Err(FamilyError::NoThread {
            name: name.to_string(),
            n,
        });
    }
    let max = vkherd_litmus::limits::MAX_THREADS;
    if count > max {
        let largest = (0..=max)
            .filter(|&m| threads(m).is_some_and(|t| t <= max))
            .max()
            .unwrap_or(0);
        return Err(FamilyError::TooManyThreads {
            name: name.to_string(),
            n,
            threads: count,
            max,
            largest,
        });
    }
    let text = match name {
        "iriw" => iriw(n),
        "sb-ring" => sb_ring(n),
        "mp-chain" => mp_chain(n),
        "writes-readers" => writes_readers(n, 2),
        "xf-barrier" => xf_barrier(n),
        "spinlock" => spinlock(n),
        "ticket" => ticket(n),
        _ => rmw_chain(n),
    };
    // The families stay inside every parser limit up to the thread limit; this is the
    // safety net that keeps `gen` from ever printing a test vkherd then rejects.
    crate::load_litmus(&text).map_err(|diagnostic| FamilyError::Invalid {
        name: name.to_string(),
        n,
        diagnostic,
    })?;
    Ok(text)
}

/// Formats a test from its thread headers and per-thread code columns.
fn table(
    name: &str,
    init: &str,
    headers: &[String],
    columns: &[Vec<String>],
    tail: &str,
) -> String {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut t = format!("VULKAN {name}\n\"generated benchmark family\"\n{{ {init} }}\n");
    t.push_str(&headers.join(" | "));
    t.push_str(" ;\n");
    for r in 0..rows {
        let cells: Vec<&str> = columns
            .iter()
            .map(|c| c.get(r).map_or("", String::as_str))
            .collect();
        t.push_str(&cells.join(" | "));
        t.push_str(" ;\n");
    }
    t.push_str(tail);
    t
}

/// Thread header for invocation `t` alone in its workgroup.
fn own_workgroup(t: usize) -> String {
    format!("P{t}@sg 0, wg {t}, qf 0")
}

/// IRIW with `n` readers: two writers of x and y; reader i reads x then y (odd readers
/// y then x), relaxed device-scope atomics.
pub fn iriw(n: usize) -> String {
    let mut headers = vec![own_workgroup(0), own_workgroup(1)];
    let mut cols = vec![
        vec!["st.atom.dv.sc0 x, 1".to_string()],
        vec!["st.atom.dv.sc0 y, 1".to_string()],
    ];
    for i in 0..n {
        headers.push(own_workgroup(i + 2));
        let (a, b) = if i % 2 == 0 { ("x", "y") } else { ("y", "x") };
        cols.push(vec![
            format!("ld.atom.dv.sc0 r0, {a}"),
            format!("ld.atom.dv.sc0 r1, {b}"),
        ]);
    }
    let cond = "exists (P2:r0 == 1 /\\ P2:r1 == 0)\n";
    table(
        &format!("IRIW-{n}"),
        "x = 0; y = 0;",
        &headers,
        &cols,
        if n > 0 { cond } else { "" },
    )
}

/// SB ring of `n` threads: thread i stores x_i and loads x_{i+1 mod n}.
pub fn sb_ring(n: usize) -> String {
    let headers: Vec<String> = (0..n).map(own_workgroup).collect();
    let cols: Vec<Vec<String>> = (0..n)
        .map(|i| {
            vec![
                format!("st.atom.dv.sc0 x{i}, 1"),
                format!("ld.atom.dv.sc0 r0, x{}", (i + 1) % n),
            ]
        })
        .collect();
    let init: String = (0..n).map(|i| format!("x{i} = 0; ")).collect();
    let cond: Vec<String> = (0..n).map(|i| format!("P{i}:r0 == 0")).collect();
    table(
        &format!("SB-ring-{n}"),
        &init,
        &headers,
        &cols,
        &format!("exists ({})\n", cond.join(" /\\ ")),
    )
}

/// Message passing through a chain of `n` hops: P0 writes data and releases f1; Pi
/// acquires f_i and releases f_{i+1}; the last acquires f_n and reads data.
pub fn mp_chain(n: usize) -> String {
    let n = n.max(1);
    let mut headers = Vec::new();
    let mut cols = Vec::new();
    headers.push(own_workgroup(0));
    cols.push(vec![
        "st.av.dv.sc0 data, 1".to_string(),
        "st.atom.rel.dv.sc0.semsc0 f1, 1".to_string(),
    ]);
    for i in 1..n {
        headers.push(own_workgroup(i));
        cols.push(vec![
            format!("ld.atom.acq.dv.sc0.semsc0 r0, f{i}"),
            format!("st.atom.rel.dv.sc0.semsc0 f{}, 1", i + 1),
        ]);
    }
    headers.push(own_workgroup(n));
    cols.push(vec![
        format!("ld.atom.acq.dv.sc0.semsc0 r0, f{n}"),
        "ld.vis.dv.sc0 r1, data".to_string(),
    ]);
    let mut init = "data = 0;".to_string();
    for i in 1..=n {
        init.push_str(&format!(" f{i} = 0;"));
    }
    let mut cond: Vec<String> = (1..=n).map(|i| format!("P{i}:r0 == 1")).collect();
    cond.push(format!("P{n}:r1 == 0"));
    table(
        &format!("MP-chain-{n}"),
        &init,
        &headers,
        &cols,
        &format!("exists ({})\n", cond.join(" /\\ ")),
    )
}

/// `n` writers of one location x (values 1..n, relaxed device atomics) observed by `m`
/// readers that each read x twice.
pub fn writes_readers(n: usize, m: usize) -> String {
    let mut headers = Vec::new();
    let mut cols = Vec::new();
    for i in 0..n {
        headers.push(own_workgroup(i));
        cols.push(vec![format!("st.atom.dv.sc0 x, {}", i + 1)]);
    }
    for j in 0..m {
        headers.push(own_workgroup(n + j));
        cols.push(vec![
            "ld.atom.dv.sc0 r0, x".to_string(),
            "ld.atom.dv.sc0 r1, x".to_string(),
        ]);
    }
    let cond = format!("exists (P{n}:r0 == 2 /\\ P{n}:r1 == 1)\n");
    table(&format!("W{n}-R{m}"), "x = 0;", &headers, &cols, &cond)
}

/// The cross-workgroup barrier (Sorensen et al.) with `n` workgroups of two invocations:
/// everyone writes its data, meets its workgroup at barrier 0; leaders release their
/// workgroup's flag; the master (P0) acquires every flag, then releases `go`; leaders
/// acquire `go`; everyone meets at barrier 1 and reads the data of the next workgroup.
pub fn xf_barrier(n: usize) -> String {
    let n = n.max(1);
    let threads = 2 * n;
    let mut headers = Vec::new();
    let mut cols = Vec::new();
    for t in 0..threads {
        let wg = t / 2;
        headers.push(format!("P{t}@sg {}, wg {wg}, qf 0", t % 2));
        let mut c = vec![
            format!("st.av.dv.sc0 d{t}, 1"),
            "cbar.acq_rel.wg.semsc0 0".to_string(),
        ];
        if t == 0 {
            for w in 1..n {
                c.push(format!("LC{w:02}:"));
                c.push(format!("ld.atom.acq.dv.sc0.semsc0 r1, f{w}"));
                c.push(format!("beq r1, 0, LC{w:02}"));
            }
            c.push("st.atom.rel.dv.sc0.semsc0 go, 1".to_string());
        } else if t % 2 == 0 {
            c.push(format!("st.atom.rel.dv.sc0.semsc0 f{wg}, 1"));
            c.push("LC00:".to_string());
            c.push("ld.atom.acq.dv.sc0.semsc0 r1, go".to_string());
            c.push("beq r1, 0, LC00".to_string());
        }
        c.push("cbar.acq_rel.wg.semsc0 1".to_string());
        c.push(format!("ld.vis.dv.sc0 r0, d{}", (t + 2) % threads));
        cols.push(c);
    }
    let mut init: String = (0..threads).map(|t| format!("d{t} = 0; ")).collect();
    for w in 1..n {
        init.push_str(&format!("f{w} = 0; "));
    }
    init.push_str("go = 0;");
    let cond: Vec<String> = (0..threads).map(|t| format!("P{t}:r0 == 1")).collect();
    table(
        &format!("XF-barrier-{n}"),
        &init,
        &headers,
        &cols,
        &format!("forall ({})\n", cond.join(" /\\ ")),
    )
}

/// Invocation `t` of a workgroup: every invocation of the lock families shares workgroup 0
/// (the lock's atomics have workgroup scope).
fn shared_workgroup(t: usize) -> String {
    format!("P{t}@sg {t}, wg 0, qf 0")
}

/// The critical section of the lock families: increment the non-atomic counter x, made
/// available and visible at device scope.
fn increment_x(code: &mut Vec<String>) {
    code.push("ld.vis.dv.sc0 r1, x".to_string());
    code.push("add r2, r1, 1".to_string());
    code.push("st.av.dv.sc0 x, r2".to_string());
}

/// A spin lock taken by `n` invocations: each spins on an acquire exchange of 1 into m
/// until it reads 0, increments x, and releases m with a store of 0. The lock is correct:
/// x ends at n. Its size grows with `--unroll` too (more spin iterations per path).
pub fn spinlock(n: usize) -> String {
    let n = n.max(1);
    let headers: Vec<String> = (0..n).map(shared_workgroup).collect();
    let cols: Vec<Vec<String>> = (0..n)
        .map(|_| {
            let mut c = vec![
                "LC00:".to_string(),
                "rmw.atom.acq.wg.sc0.semsc0.semvis r0, m, 1".to_string(),
                "bne r0, 0, LC00".to_string(),
            ];
            increment_x(&mut c);
            c.push("st.atom.rel.wg.sc0.semsc0.semav m, 0".to_string());
            c
        })
        .collect();
    table(
        &format!("spinlock-{n}"),
        "m = 0; x = 0;",
        &headers,
        &cols,
        &format!("forall (x == {n})\n"),
    )
}

/// A ticket lock taken by `n` invocations: each takes a ticket with an acquire fetch-add
/// on `next`, spins with acquire loads of `serving` until it equals the ticket, increments
/// x, and releases `serving` = ticket + 1. Correct: x ends at n.
pub fn ticket(n: usize) -> String {
    let n = n.max(1);
    let headers: Vec<String> = (0..n).map(shared_workgroup).collect();
    let cols: Vec<Vec<String>> = (0..n)
        .map(|_| {
            let mut c = vec![
                "rmw.atom.acq.wg.sc0.semsc0.add r0, next, 1".to_string(),
                "LC00:".to_string(),
                "ld.atom.acq.wg.sc0.semsc0 r3, serving".to_string(),
                "bne r3, r0, LC00".to_string(),
            ];
            increment_x(&mut c);
            c.push("add r4, r0, 1".to_string());
            c.push("st.atom.rel.wg.sc0.semsc0 serving, r4".to_string());
            c
        })
        .collect();
    table(
        &format!("ticket-{n}"),
        "next = 0; serving = 0; x = 0;",
        &headers,
        &cols,
        &format!("forall (x == {n})\n"),
    )
}

/// `n` invocations each add 1 to x with a relaxed device-scope RMW: RMW atomicity makes
/// the final value n, and the values read are a permutation of 0..n.
pub fn rmw_chain(n: usize) -> String {
    let n = n.max(1);
    let headers: Vec<String> = (0..n).map(own_workgroup).collect();
    let cols: Vec<Vec<String>> = (0..n)
        .map(|_| vec!["rmw.atom.dv.sc0.add r0, x, 1".to_string()])
        .collect();
    table(
        &format!("rmw-chain-{n}"),
        "x = 0;",
        &headers,
        &cols,
        &format!("forall (x == {n})\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_member_loads() {
        for f in FAMILIES {
            for n in 1..4 {
                let text = generate(f, n).unwrap();
                crate::load_litmus(&text)
                    .unwrap_or_else(|d| panic!("{f} {n}: {}", d.render(f, &text)));
            }
        }
    }

    #[test]
    fn members_up_to_the_thread_limit_load_and_larger_ones_are_refused() {
        for (f, largest) in [
            ("iriw", 62),
            ("sb-ring", 64),
            ("mp-chain", 63),
            ("writes-readers", 62),
            ("xf-barrier", 32),
        ] {
            assert!(generate(f, largest).is_ok(), "{f} {largest}");
            let e = generate(f, largest + 1).unwrap_err();
            assert!(
                matches!(e, FamilyError::TooManyThreads { largest: l, .. } if l == largest),
                "{e:?}"
            );
            assert!(
                e.to_string()
                    .ends_with(&format!("N can be at most {largest}")),
                "{e}"
            );
        }
        let e = generate("sb-ring", 0).unwrap_err();
        assert!(matches!(e, FamilyError::NoThread { n: 0, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "sb-ring 0 has no thread: N must be at least 1"
        );
        let e = generate("nope", 1).unwrap_err();
        assert!(matches!(&e, FamilyError::Unknown { name } if name == "nope"));
        assert!(e
            .to_string()
            .starts_with("unknown family `nope`: expected one of iriw, "));
    }

    #[test]
    fn small_members_give_the_textbook_answers() {
        let run = |t: String| {
            crate::run(&crate::load_litmus(&t).unwrap(), &crate::Options::default()).unwrap()
        };
        // MP through release/acquire hops: the data read cannot miss the write.
        assert_eq!(run(mp_chain(2)).verdict, crate::Verdict::No);
        // SB is allowed in the Vulkan model (no SC order), ring or not.
        assert_eq!(run(sb_ring(3)).verdict, crate::Verdict::Ok);
        // IRIW with relaxed atomics is allowed.
        assert_eq!(run(iriw(2)).verdict, crate::Verdict::Ok);
        // Reading 2 then 1 is allowed: with asmo ordering the write of 2 before the write of
        // 1, the second read goes forward in asmo (CoRR forbids only going backwards).
        assert_eq!(run(writes_readers(2, 1)).verdict, crate::Verdict::Ok);
        // The XF barrier delivers every invocation's data to the next workgroup.
        assert_eq!(run(xf_barrier(2)).verdict, crate::Verdict::Ok);
        // Locks are correct (mutual exclusion, and the release/acquire pairs order the
        // critical sections): x ends at the number of invocations, with no race.
        for r in [run(spinlock(2)), run(ticket(2))] {
            assert_eq!(r.verdict, crate::Verdict::Ok);
            assert!(r.outcomes.flags.is_empty());
            assert_eq!(r.outcomes.states.len(), 1);
        }
        // RMW atomicity: three increments never lose one, and each reads a distinct value
        // (3! orders, one execution each).
        let r = run(rmw_chain(3));
        assert_eq!(r.verdict, crate::Verdict::Ok);
        assert_eq!(r.outcomes.consistent, 6);
    }
}
