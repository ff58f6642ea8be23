//! Graphviz (DOT) drawings of executions, herd7-style: one box per event labelled like
//! its source instruction with its value, threads as clusters nested by scope (queue
//! family, workgroup, subgroup; OpenCL: device, work-group), `po` as the immediate
//! program order, `rf` (from an `init` node for initial values), `asmo`, `fr`, and any
//! other relation the execution carries that is asked for with `show`.

use crate::execution::Execution;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Edge colours by relation, herd7's where it has one.
fn colour(rel: &str) -> &'static str {
    match rel {
        "po" => "black",
        "rf" => "red",
        "fr" => "orange",
        "asmo" | "co" => "blue",
        "sw" => "darkgreen",
        "hb" => "purple",
        "locord" => "brown",
        _ => "gray40",
    }
}

/// Quotes a DOT string.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for ch in s.chars() {
        match ch {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// The immediate edges of a transitive relation (`po` drawn herd7-style).
fn immediate(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let set: BTreeSet<(usize, usize)> = pairs.iter().copied().collect();
    pairs
        .iter()
        .copied()
        .filter(|&(a, b)| {
            !set.iter()
                .any(|&(x, m)| x == a && m != b && set.contains(&(m, b)))
        })
        .collect()
}

/// DOT for `ex`: base edges (`po`, `rf`, `asmo`, `fr`) and the relations named in
/// `show` that the execution carries (see [`Execution::new`]'s `show`). Renders with
/// `dot` without warnings.
pub fn to_dot(ex: &Execution, show: &[&str]) -> String {
    to_dot_highlighting(ex, show, &[])
}

/// As [`to_dot`], with `highlight` edges `(from, to, label)` drawn bold on top (the
/// cycle or pair of an explanation).
pub fn to_dot_highlighting(
    ex: &Execution,
    show: &[&str],
    highlight: &[(usize, usize, String)],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph execution {{");
    let _ = writeln!(out, "  label={};", quote(&ex.state));
    let _ = writeln!(out, "  labelloc=t;");
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"monospace\", fontsize=10];"
    );
    let _ = writeln!(out, "  edge [fontsize=9];");
    let opencl = ex.dialect == "opencl";
    // Clusters: queue family > workgroup > subgroup > thread (OpenCL: device >
    // work-group > thread).
    let qfs: BTreeSet<u64> = ex.threads.iter().map(|t| t.qf).collect();
    for qf in qfs {
        let qf_name = if opencl {
            format!("device {qf}")
        } else {
            format!("queue family {qf}")
        };
        let _ = writeln!(out, "  subgraph cluster_qf{qf} {{");
        let _ = writeln!(out, "    label={}; style=dashed;", quote(&qf_name));
        let wgs: BTreeSet<u64> = ex
            .threads
            .iter()
            .filter(|t| t.qf == qf)
            .map(|t| t.wg)
            .collect();
        for wg in wgs {
            let wg_name = if opencl {
                format!("work-group {wg}")
            } else {
                format!("workgroup {wg}")
            };
            let _ = writeln!(out, "    subgraph cluster_qf{qf}_wg{wg} {{");
            let _ = writeln!(out, "      label={}; style=dashed;", quote(&wg_name));
            let sgs: BTreeSet<u64> = ex
                .threads
                .iter()
                .filter(|t| t.qf == qf && t.wg == wg)
                .map(|t| t.sg)
                .collect();
            for sg in sgs {
                if !opencl {
                    let _ = writeln!(out, "      subgraph cluster_qf{qf}_wg{wg}_sg{sg} {{");
                    let _ = writeln!(
                        out,
                        "        label={}; style=dotted;",
                        quote(&format!("subgroup {sg}"))
                    );
                }
                for t in ex
                    .threads
                    .iter()
                    .filter(|t| t.qf == qf && t.wg == wg && (opencl || t.sg == sg))
                {
                    let _ = writeln!(out, "        subgraph cluster_p{} {{", t.thread);
                    // A liveness witness says how the thread ends (`P0: paused after ...`).
                    let name = match ex.endings.get(&t.thread) {
                        Some(ending) => format!("{}: {ending}", t.name),
                        None => t.name.clone(),
                    };
                    let _ = writeln!(out, "          label={}; style=solid;", quote(&name));
                    for e in ex.events.iter().filter(|e| e.thread == t.thread) {
                        let loc = e.location.as_deref().unwrap_or("");
                        let value = match (e.read, e.written) {
                            (Some(r), Some(w)) => format!("{} {loc}: {r} -> {w}", e.kind),
                            (Some(r), None) => format!("{} {loc}={r}", e.kind),
                            (None, Some(w)) => format!("{} {loc}={w}", e.kind),
                            (None, None) => e.kind.clone(),
                        };
                        let label = format!("{}: {}\n{}", e.name, e.label, value.trim());
                        match ex.marks.get(&e.id) {
                            // Liveness: the spin iteration and the laps, filled.
                            Some(mark) => {
                                let label = format!("{label}\n[{mark}]");
                                let fill = if mark == "lap A" {
                                    "lightyellow"
                                } else {
                                    "lightpink"
                                };
                                let _ = writeln!(
                                    out,
                                    "          e{} [label={}, style=filled, fillcolor={fill}];",
                                    e.id,
                                    quote(&label)
                                );
                            }
                            None => {
                                let _ =
                                    writeln!(out, "          e{} [label={}];", e.id, quote(&label));
                            }
                        }
                    }
                    // A thread without events is drawn only through a node: its ending.
                    if !ex.events.iter().any(|e| e.thread == t.thread)
                        && ex.endings.contains_key(&t.thread)
                    {
                        let _ = writeln!(
                            out,
                            "          p{}_end [label={}, shape=plaintext];",
                            t.thread,
                            quote("(no event)")
                        );
                    }
                    let _ = writeln!(out, "        }}");
                }
                if !opencl {
                    let _ = writeln!(out, "      }}");
                }
                if opencl {
                    break;
                }
            }
            let _ = writeln!(out, "    }}");
        }
        let _ = writeln!(out, "  }}");
    }
    // Initial values read.
    for (loc, v) in &ex.init {
        let _ = writeln!(
            out,
            "  init_{} [label={}, shape=plaintext];",
            ident(loc),
            quote(&format!("init {loc}={v}"))
        );
    }
    for &r in &ex.init_reads {
        if let Some(loc) = &ex.events[r].memory {
            let _ = writeln!(
                out,
                "  init_{} -> e{r} [label=\"rf\", color=red, fontcolor=red];",
                ident(loc)
            );
        }
    }
    let mut drawn: Vec<&str> = vec!["po", "rf", "asmo", "fr"];
    for s in show {
        if !drawn.contains(s) {
            drawn.push(s);
        }
    }
    for rel in drawn {
        let Some(pairs) = ex.relation(rel) else {
            continue;
        };
        let pairs = if rel == "po" {
            immediate(pairs)
        } else {
            pairs.to_vec()
        };
        let c = colour(rel);
        for (a, b) in pairs {
            let _ = writeln!(
                out,
                "  e{a} -> e{b} [label={}, color={c}, fontcolor={c}];",
                quote(rel)
            );
        }
    }
    for (a, b, label) in highlight {
        let _ = writeln!(
            out,
            "  e{a} -> e{b} [label={}, color=crimson, fontcolor=crimson, penwidth=2.5, style=bold];",
            quote(label)
        );
    }
    let _ = writeln!(out, "}}");
    out
}

/// A DOT identifier part from a location name.
fn ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
