//! An [`Explanation`] in plain words: what `vkherd explain` prints.

use super::{Edge, Explanation, Witness};
use crate::execution::Execution;

/// The immediate pairs of a transitive relation (`po` listed herd7-style).
fn immediate(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    pairs
        .iter()
        .copied()
        .filter(|&(a, b)| {
            !pairs
                .iter()
                .any(|&(x, m)| x == a && m != b && pairs.contains(&(m, b)))
        })
        .collect()
}

/// An execution in words: one line per event, then its relations (`po` immediate; `rf`
/// from `init` for initial values), then its flags.
pub fn execution_text(ex: &Execution, indent: &str) -> String {
    let mut out = String::new();
    for e in 0..ex.events.len() {
        out.push_str(&format!("{indent}{}\n", ex.describe(e)));
    }
    let name = |e: usize| ex.events[e].name.clone();
    for (rel, pairs) in &ex.relations {
        let mut items: Vec<String> = Vec::new();
        if rel == "rf" {
            items.extend(ex.init_reads.iter().map(|&r| format!("init->{}", name(r))));
        }
        let pairs = if rel == "po" {
            immediate(pairs)
        } else {
            pairs.clone()
        };
        items.extend(
            pairs
                .iter()
                .map(|&(a, b)| format!("{}->{}", name(a), name(b))),
        );
        if items.is_empty() {
            items.push("(empty)".into());
        }
        out.push_str(&format!("{indent}{rel}: {}\n", items.join(", ")));
    }
    if !ex.flags.is_empty() {
        out.push_str(&format!("{indent}flags: {}\n", ex.flags.join(", ")));
    }
    if ex.thin_air {
        out.push_str(&format!(
            "{indent}thin air: its values depend on themselves through rf\n"
        ));
    }
    out
}

/// The relation a check is on, as written: `hbloc ; eco` for `irreflexive hbloc ; eco as
/// coherence`.
fn checked_expression(check_text: &str) -> String {
    let t = check_text.trim();
    let t = t.strip_prefix("flag").map_or(t, str::trim_start);
    let t = t.strip_prefix('~').map_or(t, str::trim_start);
    let t = ["acyclic", "irreflexive", "empty"]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t)
        .trim();
    match t.rfind(" as ") {
        Some(i) => t[..i].trim().to_string(),
        None => t.to_string(),
    }
}

/// One edge in words: `-> d by locord (locord > hb > ithbsemsc0: a -po-> b -sw-> c -po-> d)`;
/// `checked` names the edge when no definition does.
fn edge_text(ex: &Execution, e: &Edge, checked: &str) -> String {
    let name = |i: usize| ex.events[i].name.clone();
    let by = match e.labels.len() {
        0 => format!("`{checked}`"),
        // ssw is in the ithb of every storage-class set: a few names say it (JSON: all).
        n if n > 4 => format!("{} and {} more", e.labels[..3].join(" and "), n - 3),
        _ => e.labels.join(" and "),
    };
    let mut s = format!("-> {} by {by}", name(e.to));
    let chain = if e.via.len() > 1 {
        e.via.join(" > ")
    } else {
        String::new()
    };
    let steps = if e.steps.is_empty() {
        String::new()
    } else {
        let mut p = name(e.steps[0].from);
        for st in &e.steps {
            let labels = match st.labels.len() {
                n if n > 3 => format!("{}+{} more", st.labels[..2].join("+"), n - 2),
                _ => st.labels.join("+"),
            };
            p.push_str(&format!(" -{labels}-> {}", name(st.to)));
        }
        p
    };
    match (chain.is_empty(), steps.is_empty()) {
        (true, true) => {}
        (false, true) => s.push_str(&format!(" (through {chain})")),
        (true, false) => s.push_str(&format!(" ({steps})")),
        (false, false) => s.push_str(&format!(" (through {chain}: {steps})")),
    }
    s
}

/// The witness of a reason in words.
fn witness_text(ex: &Execution, w: &Witness, checked: &str) -> String {
    let mut out = String::new();
    match w {
        Witness::Cycle { edges } => {
            out.push_str(&format!(
                "    a cycle of {}:\n",
                crate::report::plural(edges.len() as u64, "edge")
            ));
            for e in edges {
                out.push_str(&format!("      {}\n", ex.describe(e.from)));
                out.push_str(&format!("        {}\n", edge_text(ex, e, checked)));
            }
        }
        Witness::Reflexive { event, edge } => {
            out.push_str(&format!(
                "    an event related to itself:\n      {}\n        {}\n",
                ex.describe(*event),
                edge_text(ex, edge, checked)
            ));
        }
        Witness::Pair { edge } if edge.from == edge.to && edge.via.is_empty() => {
            out.push_str(&format!(
                "    an event in the set:\n      {}\n",
                ex.describe(edge.from)
            ));
        }
        Witness::Pair { edge } => {
            out.push_str(&format!(
                "    a pair in the relation:\n      {}\n        {}\n",
                ex.describe(edge.from),
                edge_text(ex, edge, checked)
            ));
        }
        Witness::Empty => out.push_str("    the relation is empty\n"),
    }
    out
}

/// An explanation in plain words (what `vkherd explain` prints).
pub fn explanation_text(ex: &Explanation) -> String {
    let mut out = format!(
        "Test {}, model {}: explaining {}\n{} examined\n",
        ex.test,
        ex.model,
        ex.asked,
        crate::report::plural(ex.examined, "candidate execution")
    );
    if ex.unreachable {
        out.push_str(&format!(
            "\nNo candidate execution reaches {}: no choice of paths, rf and asmo gives these values (they are value-inconsistent), whatever the model.\n",
            ex.asked
        ));
        return out;
    }
    for st in &ex.states {
        out.push('\n');
        let shown = if st.state.is_empty() {
            "(with no columns)"
        } else {
            st.state.as_str()
        };
        match st.verdict.as_str() {
            "filtered" => out.push_str(&format!(
                "State {shown} is left out by the test's filter ({} reach it).\n",
                crate::report::plural(st.candidates, "candidate execution")
            )),
            "allowed" => {
                let race = if st.racy {
                    "; every execution reaching it races (flag raised)"
                } else {
                    ", by a race-free execution"
                };
                out.push_str(&format!("State {shown} is allowed{race}. Witness:\n"));
                if let Some(w) = &st.witness {
                    out.push_str(&execution_text(w, "  "));
                }
            }
            _ => {
                let reach = if st.candidates == 1 {
                    "reaches"
                } else {
                    "reach"
                };
                out.push_str(&format!(
                    "State {shown} is forbidden: {} {reach} it, and each fails a check of the model.\n",
                    crate::report::plural(st.candidates, "candidate execution")
                ));
                for (k, r) in st.reasons.iter().enumerate() {
                    out.push_str(&format!(
                        "\n  Reason {} ({}): check `{}` fails ({})\n",
                        k + 1,
                        crate::report::plural(r.candidates, "candidate"),
                        r.check,
                        r.check_text
                    ));
                    let checked = checked_expression(&r.check_text);
                    out.push_str(&witness_text(&r.execution, &r.witness, &checked));
                    out.push_str("    in the execution:\n");
                    out.push_str(&execution_text(&r.execution, "      "));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_expression_is_cut_out_of_the_check() {
        assert_eq!(
            checked_expression("irreflexive hbloc ; eco as coherence"),
            "hbloc ; eco"
        );
        assert_eq!(checked_expression("acyclic a | b"), "a | b");
        assert_eq!(checked_expression("flag ~empty dr as racy"), "dr");
    }
}
