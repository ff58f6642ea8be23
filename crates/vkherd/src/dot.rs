//! Graphviz (DOT) drawings of executions, herd7-style: one box per event labelled like
//! its source instruction with its value, one column per thread (P0 leftmost, program
//! order top to bottom) inside clusters nested by scope (queue family, workgroup,
//! subgroup; OpenCL: device, work-group), `po` as the immediate program order, `rf`
//! (from an `init` node for initial values), `asmo`, `fr`, and any other relation the
//! execution carries that is asked for with `show`.
//!
//! The columns are dot's ranks, laid left to right (`rankdir=LR`): each thread's events
//! share one rank, an invisible edge from each thread's first event to the next thread's
//! puts the next column to the right, and program order, drawn between events of one
//! rank, orders them top to bottom. Every other edge is `constraint=false, weight=0`, so
//! it moves no column and no event of a column: a layout made from edges would put P1
//! left of P0 whenever P1's edges point that way. (dot does not order sibling clusters
//! by edges between their nodes; ranks are the one order it always keeps.)
//!
//! Graphviz reads one graph per input (2.43's `dot -Tsvg` aborts on a second `digraph`),
//! so [`document`] draws several executions as clusters of one graph.

use crate::execution::{Execution, ThreadInfo};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Edges to draw bold: `(from, to, label)` (the cycle or pair of an explanation).
pub type Highlight = Vec<(usize, usize, String)>;

/// One execution of a drawing, with its title and the edges to draw bold.
#[derive(Debug, Clone)]
pub struct Figure {
    pub title: String,
    pub execution: Execution,
    pub highlight: Highlight,
}

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
    graph_header(&mut out, "execution", &ex.state);
    execution(&mut out, ex, show, highlight, "", "  ");
    out.push_str("}\n");
    out
}

/// One DOT graph of `figures`: one figure alone is [`to_dot_highlighting`] titled with
/// its title; several are clusters of one graph, one per figure, each titled, stacked top
/// to bottom, with node names prefixed `xK_` (K from 1) to keep them apart.
pub fn document(figures: &[Figure], show: &[&str]) -> String {
    let mut out = String::new();
    if let [one] = figures {
        graph_header(&mut out, "execution", &one.title);
        execution(&mut out, &one.execution, show, &one.highlight, "", "  ");
    } else {
        graph_header(&mut out, "executions", "");
        // The figures share the columns and stack in the other direction. dot keeps the
        // input order of clusters there, which `rankdir=LR` turns bottom to top: written
        // last first, the first is drawn on top.
        for (k, f) in figures.iter().enumerate().rev() {
            let _ = writeln!(out, "  subgraph cluster_x{} {{", k + 1);
            let _ = writeln!(
                out,
                "    label={}; style=bold; fontsize=12;",
                quote(&f.title)
            );
            let prefix = format!("x{}_", k + 1);
            execution(&mut out, &f.execution, show, &f.highlight, &prefix, "    ");
            let _ = writeln!(out, "  }}");
        }
    }
    out.push_str("}\n");
    out
}

/// `digraph NAME {` and the attributes of the whole graph.
fn graph_header(out: &mut String, name: &str, title: &str) {
    let _ = writeln!(out, "digraph {name} {{");
    if !title.is_empty() {
        let _ = writeln!(out, "  label={};", quote(title));
        let _ = writeln!(out, "  labelloc=t;");
    }
    // Threads are ranks, left to right (see the module docs).
    let _ = writeln!(out, "  rankdir=LR;");
    let _ = writeln!(out, "  newrank=true;");
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"monospace\", fontsize=10];"
    );
    let _ = writeln!(out, "  edge [fontsize=9];");
}

/// The threads in column order: P0's outermost scope instance first, in it P0's next one,
/// and so on down to P0 itself; then the rest of each in thread order, so that each
/// drawn scope instance is a run of adjacent columns (its cluster a box) and P0 is
/// leftmost.
fn columns(ex: &Execution) -> Vec<&ThreadInfo> {
    let levels = drawn_levels(ex);
    let first = |same: &dyn Fn(&ThreadInfo) -> bool| {
        ex.threads
            .iter()
            .filter(|t| same(t))
            .map(|t| t.thread)
            .min()
            .unwrap_or(0)
    };
    // Sorted by the first thread of each drawn instance around it, outermost first, then
    // its own.
    let key = |t: &ThreadInfo| {
        let mut key: Vec<usize> = levels
            .iter()
            .map(|&l| first(&|u| u.scope.get(l..) == t.scope.get(l..)))
            .collect();
        key.push(t.thread);
        key
    };
    let mut keyed: Vec<(Vec<usize>, &ThreadInfo)> =
        ex.threads.iter().map(|t| (key(t), t)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, t)| t).collect()
}

/// The id of `t`'s instance at scope level `level` (0 innermost).
fn place(t: &ThreadInfo, level: usize) -> u64 {
    t.scope.get(level).copied().unwrap_or(0)
}

/// The scope levels of `ex`'s dialect that are drawn as boxes, outermost first.
fn drawn_levels(ex: &Execution) -> Vec<usize> {
    let levels = vkherd_dialects::by_name(&ex.dialect).map_or(&[][..], |d| d.levels);
    (0..levels.len())
        .rev()
        .filter(|&l| levels[l].drawn)
        .collect()
}

/// The clusters, nodes and edges of `ex`, node names prefixed with `p`.
fn execution(
    out: &mut String,
    ex: &Execution,
    show: &[&str],
    highlight: &[(usize, usize, String)],
    p: &str,
    indent: &str,
) {
    let levels = vkherd_dialects::by_name(&ex.dialect).map_or(&[][..], |d| d.levels);
    let drawn = drawn_levels(ex);
    let columns = columns(ex);
    // Clusters: the drawn scope levels, outermost first, then the thread (Vulkan: queue
    // family > workgroup > subgroup > thread), opened and closed along the columns. An
    // open cluster is named by the ids of its level and the levels around it.
    let mut open: Vec<Vec<(usize, u64)>> = Vec::new(); // the scopes open, outermost first
    for t in &columns {
        let path: Vec<Vec<(usize, u64)>> = (1..=drawn.len())
            .map(|k| drawn[..k].iter().map(|&l| (l, place(t, l))).collect())
            .collect();
        let common = open.iter().zip(&path).take_while(|(a, b)| a == b).count();
        while open.len() > common {
            open.pop();
            let _ = writeln!(out, "{indent}{}}}", "  ".repeat(open.len()));
        }
        for (depth, instance) in path.iter().enumerate().skip(common) {
            let pad = "  ".repeat(depth);
            let name: Vec<String> = instance
                .iter()
                .map(|&(l, id)| format!("{}{id}", levels[l].key))
                .collect();
            let (level, id) = instance[instance.len() - 1];
            // The innermost level (subgroups) is dotted, the others dashed.
            let style = if level == 0 { "dotted" } else { "dashed" };
            let label = format!("{} {id}", levels[level].member);
            let _ = writeln!(
                out,
                "{indent}{pad}subgraph cluster_{p}{} {{",
                name.join("_")
            );
            let _ = writeln!(
                out,
                "{indent}{pad}  label={}; style={style};",
                quote(&label)
            );
            open.push(instance.clone());
        }
        let pad = "  ".repeat(open.len());
        let _ = writeln!(out, "{indent}{pad}subgraph cluster_{p}p{} {{", t.thread);
        // A liveness witness says how the thread ends (`P0: paused after ...`).
        let name = match ex.endings.get(&t.thread) {
            Some(ending) => format!("{}: {ending}", t.name),
            None => t.name.clone(),
        };
        let _ = writeln!(
            out,
            "{indent}{pad}  label={}; style=solid; rank=same;",
            quote(&name)
        );
        // A thread without events is drawn only through a node: its ending.
        if !ex.events.iter().any(|e| e.thread == t.thread) && ex.endings.contains_key(&t.thread) {
            let _ = writeln!(
                out,
                "{indent}{pad}  {p}eend{} [label={}, shape=plaintext];",
                t.thread,
                quote("(no event)")
            );
        }
        for e in ex.events.iter().filter(|e| e.thread == t.thread) {
            let loc = e.location.as_deref().unwrap_or("");
            let value = match (e.read, e.written) {
                (Some(r), Some(w)) => format!("{} {loc}: {r} -> {w}", e.kind),
                (Some(r), None) => format!("{} {loc}={r}", e.kind),
                (None, Some(w)) => format!("{} {loc}={w}", e.kind),
                (None, None) => e.kind.clone(),
            };
            let label = format!("{}: {}\n{}", e.name, e.label, value.trim());
            // Liveness: the spin iteration, the laps and the cut iteration, filled.
            let style = match ex.marks.get(&e.id) {
                Some(mark) => {
                    let fill = if mark == "lap A" {
                        "lightyellow"
                    } else {
                        "lightpink"
                    };
                    let label = format!("{label}\n[{mark}]");
                    format!("label={}, style=filled, fillcolor={fill}", quote(&label))
                }
                None => format!("label={}", quote(&label)),
            };
            let _ = writeln!(out, "{indent}{pad}  {p}e{} [{style}];", e.id);
        }
        let _ = writeln!(out, "{indent}{pad}}}");
    }
    while !open.is_empty() {
        open.pop();
        let _ = writeln!(out, "{indent}{}}}", "  ".repeat(open.len()));
    }
    // The columns, left to right: the initial values, then each thread's first event.
    // (A liveness witness's thread without events is its ending's node.)
    let firsts: Vec<String> = columns
        .iter()
        .filter_map(|t| match ex.events.iter().find(|e| e.thread == t.thread) {
            Some(e) => Some(format!("{p}e{}", e.id)),
            None => ex
                .endings
                .contains_key(&t.thread)
                .then(|| format!("{p}eend{}", t.thread)),
        })
        .collect();
    for (loc, v) in &ex.init {
        let _ = writeln!(
            out,
            "{indent}{p}init_{} [label={}, shape=plaintext];",
            ident(loc),
            quote(&format!("init {loc}={v}"))
        );
        if let Some(first) = firsts.first() {
            let _ = writeln!(
                out,
                "{indent}{p}init_{} -> {first} [style=invis];",
                ident(loc)
            );
        }
    }
    if firsts.len() > 1 {
        let _ = writeln!(out, "{indent}{} [style=invis];", firsts.join(" -> "));
    }
    let thread_of = |e: usize| ex.events[e].thread;
    // Every edge but po leaves the layout alone; one within a thread is labelled beside
    // it (`xlabel`), since a `label` there would take a column of its own.
    let edge = |out: &mut String, from: String, to: String, same_thread: bool, attrs: &str| {
        let label = if same_thread { "xlabel" } else { "label" };
        let _ = writeln!(
            out,
            "{indent}{from} -> {to} [{label}={attrs}, constraint=false, weight=0];"
        );
    };
    for &r in &ex.init_reads {
        if let Some(loc) = &ex.events[r].memory {
            edge(
                out,
                format!("{p}init_{}", ident(loc)),
                format!("{p}e{r}"),
                false,
                "\"rf\", color=red, fontcolor=red",
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
        let c = colour(rel);
        if rel == "po" {
            // Drawn head to tail with the arrow reversed: of two events in one rank, dot
            // puts an edge's tail first, and with `rankdir=LR` first is lower.
            for (a, b) in immediate(pairs) {
                let _ = writeln!(
                    out,
                    "{indent}{p}e{b} -> {p}e{a} [dir=back, xlabel=\"po\", color={c}, fontcolor={c}];"
                );
            }
            continue;
        }
        for &(a, b) in pairs {
            let attrs = format!("{}, color={c}, fontcolor={c}", quote(rel));
            edge(
                out,
                format!("{p}e{a}"),
                format!("{p}e{b}"),
                thread_of(a) == thread_of(b),
                &attrs,
            );
        }
    }
    for (a, b, label) in highlight {
        let attrs = format!(
            "{}, color=crimson, fontcolor=crimson, penwidth=2.5, style=bold",
            quote(label)
        );
        edge(
            out,
            format!("{p}e{a}"),
            format!("{p}e{b}"),
            thread_of(*a) == thread_of(*b),
            &attrs,
        );
    }
}

/// A DOT identifier part from a location name.
fn ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::execution::{EventInfo, ThreadInfo};

    /// Four threads whose scopes interleave: P0 and P2 in workgroup 1 (subgroups 0 and
    /// 1), P1 and P3 in workgroup 0; two events each, rf edges pointing right to left and
    /// one within P0.
    fn interleaved() -> Execution {
        let scopes = [(1, 0), (0, 0), (1, 1), (0, 0)];
        let threads = scopes
            .iter()
            .enumerate()
            .map(|(t, &(wg, sg))| ThreadInfo {
                thread: t,
                name: format!("P{t}"),
                scope: vec![sg, wg, 0],
                levels: Default::default(),
            })
            .collect();
        let events: Vec<EventInfo> = (0..8)
            .map(|id| EventInfo {
                id,
                name: crate::execution::event_name(id),
                thread: id / 2,
                instr: id % 2,
                label: "st x, 1".into(),
                kind: "W".into(),
                location: Some("x".into()),
                memory: Some("x".into()),
                read: None,
                written: Some(1),
            })
            .collect();
        let mut relations = std::collections::BTreeMap::new();
        relations.insert("po".to_string(), vec![(0, 1), (2, 3), (4, 5), (6, 7)]);
        relations.insert("rf".to_string(), vec![(7, 0), (5, 2), (3, 1), (0, 1)]);
        Execution {
            dialect: "vulkan".into(),
            threads,
            events,
            init_reads: vec![4],
            init: [("x".to_string(), 0)].into_iter().collect(),
            relations,
            state: "x=1;".into(),
            consistent: true,
            flags: Vec::new(),
            thin_air: false,
            marks: Default::default(),
            endings: Default::default(),
        }
    }

    /// The invisible chain of `dot` that sets the columns: its nodes, left to right.
    fn column_chain(dot: &str, prefix: &str) -> Vec<String> {
        dot.lines()
            .map(str::trim)
            .find(|l| l.starts_with(&format!("{prefix}e")) && l.ends_with("[style=invis];"))
            .expect("a chain of columns")
            .trim_end_matches(" [style=invis];")
            .split(" -> ")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn threads_are_columns_p0_leftmost_with_each_scope_adjacent() {
        let dot = to_dot(&interleaved(), &[]);
        assert_eq!(dot.matches("digraph").count(), 1);
        assert!(dot.contains("  rankdir=LR;\n"));
        // P0 (e0), then P2 (e4) of its workgroup, then P1 (e2) and P3 (e6).
        assert_eq!(column_chain(&dot, ""), ["e0", "e4", "e2", "e6"]);
        for t in 0..4 {
            assert!(
                dot.contains(&format!("label=\"P{t}\"; style=solid; rank=same;")),
                "P{t} is not one column"
            );
        }
        // The clusters follow the columns: workgroup 1 is opened first.
        let wg1 = dot.find("cluster_qf0_wg1 {").unwrap();
        let wg0 = dot.find("cluster_qf0_wg0 {").unwrap();
        assert!(wg1 < wg0);
        // The initial values get a column of their own, left of P0.
        assert!(dot.contains("  init_x -> e0 [style=invis];\n"));
    }

    #[test]
    fn only_program_order_and_the_columns_constrain_the_layout() {
        let dot = to_dot(&interleaved(), &["rf"]);
        // po runs down a column: drawn head to tail with the arrow reversed.
        assert!(dot.contains("  e1 -> e0 [dir=back, xlabel=\"po\""));
        for line in dot.lines().filter(|l| l.contains(" -> ")) {
            let free = line.contains("constraint=false, weight=0");
            let layout = line.contains("dir=back") || line.contains("[style=invis]");
            assert!(free != layout, "{line}");
        }
        // rf between threads is labelled on the edge, within a thread beside it.
        assert!(dot.contains("  e7 -> e0 [label=\"rf\""));
        assert!(dot.contains("  e0 -> e1 [xlabel=\"rf\""));
    }

    #[test]
    fn several_executions_are_clusters_of_one_digraph() {
        let ex = interleaved();
        let figures: Vec<Figure> = (1..=3)
            .map(|k| Figure {
                title: format!("figure {k}"),
                execution: ex.clone(),
                highlight: vec![(0, 2, "hb".into())],
            })
            .collect();
        let dot = document(&figures, &[]);
        assert_eq!(dot.matches("digraph").count(), 1);
        assert_eq!(dot.matches('{').count(), dot.matches('}').count());
        for k in 1..=3 {
            assert!(dot.contains(&format!(
                "subgraph cluster_x{k} {{\n    label=\"figure {k}\";"
            )));
            let prefix = format!("x{k}_");
            assert_eq!(
                column_chain(&dot, &prefix),
                ["e0", "e4", "e2", "e6"].map(|e| format!("{prefix}{e}"))
            );
            assert!(dot.contains(&format!("{prefix}e0 -> {prefix}e2 [label=\"hb\"")));
        }
        // Every node is declared once.
        let mut nodes: Vec<&str> = dot
            .lines()
            .filter(|l| l.contains(" [label=") && !l.contains(" -> "))
            .map(|l| l.trim().split(' ').next().unwrap())
            .collect();
        let n = nodes.len();
        nodes.sort_unstable();
        nodes.dedup();
        assert_eq!(nodes.len(), n);
        assert_eq!(n, 3 * 9);
        // One figure is a plain graph titled with its title.
        let one = document(&figures[..1], &[]);
        assert!(one.starts_with("digraph execution {\n  label=\"figure 1\";"));
        assert!(!one.contains("cluster_x"));
    }
}
