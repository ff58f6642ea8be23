//! `vkherd explain`: why a final state is forbidden, or an execution that allows it.
//!
//! The library API (also used by `--graph` and the HTML report):
//! - [`witness_executions`]: one consistent execution per final state, the first in a
//!   fixed order (the same whatever the thread count), with its events and relations;
//! - [`explain`]: for each final state asked about ([`Target`]), an [`Explanation`]
//!   (serialisable to JSON): for an allowed state a witness execution and whether it
//!   races; for a forbidden one every candidate execution that reaches it, grouped by
//!   reason, each with the first check of the model it fails and a minimal witness (a
//!   shortest cycle, a reflexive event, a pair), each edge labelled with the model's
//!   definitions it comes from ([`vkherd_cat::inspect`]);
//! - [`crate::dot::to_dot`]: Graphviz for an [`Execution`].
//!
//! Explanations always use the cat engine (the bundled `vulkan.cat` unless `--model`
//! says otherwise): it has every definition's name, and it works for any model. The
//! candidates come from the plain enumeration, since the search prunes inconsistent ones.

use crate::execution::{state_text, Execution};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use vkherd_cat::ast::CheckKind;
use vkherd_cat::inspect::Inspection;
use vkherd_cat::{Model, Value};
use vkherd_enumerate::capture::{self, CaptureError, Captured};
use vkherd_litmus::{Diagnostic, Span};
use vkherd_model::{Dialect, Observable, Program, Quantifier};

/// Most candidates an explanation examines and keeps, unless `--max-candidates` says.
pub const DEFAULT_MAX_CANDIDATES: u64 = 200_000;

/// Which final states to explain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The states the condition asks about: those satisfying it for `exists` and
    /// `~exists`, those refuting it for `forall`; every state without a condition.
    Condition,
    /// The states with these values (a partial state matches every completion).
    State(Vec<(Observable, i64)>),
}

/// An edge of a witness, and the definitions it comes from.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The most specific named definitions (or base relations) of the model that contain
    /// the edge and make up the checked relation, then `po`/`rf`/`fr`/`asmo` if the edge
    /// is in them too. Each contains the edge.
    pub labels: Vec<String>,
    /// The definitions from the checked relation down to the first label.
    pub via: Vec<String>,
    /// The first label's edge as a path of smaller edges, when that definition is a
    /// closure (`hb`'s `(sw | po ...)+`) or a `;` chain; empty otherwise. Each step is in
    /// the relations its labels name.
    pub steps: Vec<Step>,
}

/// One edge of a path that makes up a larger edge.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    pub labels: Vec<String>,
}

/// What breaks a check.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Witness {
    /// `acyclic r` fails: a shortest cycle of r (the last edge returns to the first
    /// event).
    Cycle { edges: Vec<Edge> },
    /// `irreflexive r` fails: `(event, event)` is in r.
    Reflexive { event: usize, edge: Edge },
    /// `empty r` fails: this pair (or event, for a set: `from == to`) is in r.
    Pair { edge: Edge },
    /// `~empty r` fails: r is empty.
    Empty,
}

impl Witness {
    /// The edges of the witness.
    pub fn edges(&self) -> Vec<&Edge> {
        match self {
            Witness::Cycle { edges } => edges.iter().collect(),
            Witness::Reflexive { edge, .. } | Witness::Pair { edge } => vec![edge],
            Witness::Empty => Vec::new(),
        }
    }
}

/// One reason shared by a group of candidates.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Reason {
    /// The check's name in the model (`as NAME`, else `acyclic`/`irreflexive`/`empty`).
    pub check: String,
    /// The check as written in the model file.
    pub check_text: String,
    /// Candidates with this reason.
    pub candidates: u64,
    pub witness: Witness,
    /// The first candidate with this reason.
    pub execution: Execution,
}

/// What is said about one final state.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StateExplanation {
    /// `1:r0=1; 1:r1=0;`.
    pub state: String,
    pub values: BTreeMap<String, i64>,
    /// `allowed`, `forbidden`, or `filtered` (the filter leaves it out).
    pub verdict: String,
    /// Candidate executions reaching it (consistent or not).
    pub candidates: u64,
    /// Allowed: the first consistent execution reaching it.
    pub witness: Option<Execution>,
    /// Allowed: every consistent execution reaching it raises a flag (races).
    pub racy: bool,
    /// Forbidden: the reasons, most frequent first.
    pub reasons: Vec<Reason>,
}

/// The explanation of the states asked about.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Explanation {
    pub test: String,
    pub model: String,
    /// The states asked about, as given (`--state`) or the condition.
    pub asked: String,
    pub states: Vec<StateExplanation>,
    /// No candidate execution reaches any state asked about: its values cannot be
    /// produced (the state is value-inconsistent).
    pub unreachable: bool,
    /// Candidate executions examined.
    pub examined: u64,
    /// Warnings, as in a run's report: paths dropped by the unroll bound (the
    /// explanation is then bounded too), deadlocked path combinations.
    pub notes: Vec<String>,
}

/// Why an explanation could not be made.
#[derive(Debug, Clone)]
pub struct ExplainError(pub Diagnostic);

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.message)
    }
}

/// The model an explanation uses for `program` under `opts`, the one `crate::run` judges
/// it by (see the module docs): `--model`'s cat model; for an `OPENCL` test without
/// `--model`, opencl.cat with the variants asked for; else the bundled `vulkan.cat`
/// with the variants of the hand-written model's options (`vulkan-2024`, `no-chains`,
/// `mmra`).
pub fn model_for(program: &Program, opts: &crate::Options) -> Result<Arc<Model>, ExplainError> {
    let variants = crate::requested_variants(opts);
    match (&opts.cat, program.dialect) {
        (_, Dialect::OpenCl) if !opts.model_given => crate::models::opencl(&variants)
            .map_err(|e| {
                whole_test(format!(
                    "`{}` is an OpenCL test, judged by the OpenCL model (no --model given), and {e}; expected only variants of the OpenCL model",
                    program.name
                ))
            }),
        (Some(m), _) => Ok(m.clone()),
        (None, Dialect::OpenCl) => Err(whole_test(format!(
            "`{}` is an OpenCL test and the hand-written Vulkan model cannot judge it; expected --model opencl (the default for OPENCL tests) or a cat model",
            program.name
        ))),
        (None, Dialect::Vulkan) => {
            let name = match opts.model.variant {
                vkherd_model::Variant::Vulkan2024 => "vulkan-2024",
                _ => "vulkan",
            };
            let model = Model::bundled(name, &variants)
                .map_err(|e| whole_test(format!("the bundled model: {}", e.diagnostic.message)))?;
            Ok(Arc::new(model))
        }
    }
}

fn whole_test(message: String) -> ExplainError {
    ExplainError(Diagnostic::new(crate::locate::WHOLE_TEST, message))
}

fn capture_error(program: &Program, e: CaptureError, limit: u64) -> ExplainError {
    match e {
        CaptureError::Enum(e) => ExplainError(crate::locate::enum_diagnostic(program, e)),
        CaptureError::TooMany { .. } => whole_test(format!(
            "more than {limit} candidate executions reach the states asked about: too many to explain; give a narrower --state or raise --max-candidates"
        )),
        CaptureError::Stopped(r) => whole_test(format!(
            "{}: the list of candidates would be partial, so there is no explanation; raise --max-candidates or --timeout",
            crate::stop_text(r, limit)
        )),
    }
}

/// One consistent execution per final state (filter applied), in state order, with
/// the relations `show` besides the base ones. The first execution in a fixed order is
/// chosen, race-free ones first, so the result does not depend on the thread count.
pub fn witness_executions(
    program: &Program,
    source: Option<&str>,
    opts: &crate::Options,
    show: &[&str],
) -> Result<Vec<(Vec<i64>, Execution)>, ExplainError> {
    let model = model_for(program, opts)?;
    let mut eo = opts.enum_options();
    eo.cat = Some(model.clone());
    eo.speedcheck = vkherd_enumerate::Speedcheck::Off;
    eo.states_only = false;
    eo.shard = None;
    let limit = opts.max_candidates.unwrap_or(0);
    let (found, _) =
        capture::witnesses(program, &eo).map_err(|e| capture_error(program, e, limit))?;
    Ok(found
        .into_iter()
        .map(|(state, c)| {
            let ex = Execution::new(program, source, &model, &c, &state, show);
            (state, ex)
        })
        .collect())
}

/// Checks that every name of `show` is a relation of `model` (a definition or a base
/// relation), for `--show`.
pub fn check_show(model: &Model, show: &[&str]) -> Result<(), String> {
    for name in show {
        let node = model.named(name);
        let is_rel = match node {
            Some(n) => model.graph.kind(n) == vkherd_cat::Kind::Rel,
            None => vkherd_cat::base::lookup(name)
                .is_some_and(|b| vkherd_cat::BASES[b].kind == vkherd_cat::Kind::Rel),
        };
        if !is_rel {
            let mut known: Vec<&str> = model
                .named
                .iter()
                .filter(|(_, n)| model.graph.kind(*n) == vkherd_cat::Kind::Rel)
                .map(|(m, _)| m.as_str())
                .collect();
            known.sort_unstable();
            known.dedup();
            let what = if node.is_some() {
                "is a set, not a relation"
            } else {
                "is not a relation of the model"
            };
            return Err(format!(
                "--show {name}: `{name}` {what} `{}`; expected one of: {}, or a base relation (po, rf, asmo, ...)",
                model.name,
                known.join(", ")
            ));
        }
    }
    Ok(())
}

/// Does `state` (in column order) match the target?
fn matches(program: &Program, target: &Target, state: &[i64]) -> bool {
    let value = |o: Observable| {
        let i = program.observed.iter().position(|x| *x == o);
        i.map_or(0, |i| state[i])
    };
    match target {
        Target::State(vals) => vals.iter().all(|&(o, v)| value(o) == v),
        Target::Condition => match &program.condition {
            None => true,
            Some(fc) => {
                let sat = fc.cond.eval(&value);
                match fc.quantifier {
                    Quantifier::Exists | Quantifier::NotExists => sat,
                    Quantifier::Forall => !sat,
                }
            }
        },
    }
}

/// Passes the filter (if any).
fn passes_filter(program: &Program, state: &[i64]) -> bool {
    let value = |o: Observable| {
        let i = program.observed.iter().position(|x| *x == o);
        i.map_or(0, |i| state[i])
    };
    program.filter.as_ref().is_none_or(|f| f.eval(&value))
}

/// Explains the states of `program` that `target` asks about (see the module docs).
/// `source` gives the instructions' text; `show` names relations added to every
/// execution shown. At most `opts.max_candidates` (default
/// [`DEFAULT_MAX_CANDIDATES`]) candidates are examined.
pub fn explain(
    program: &Program,
    source: Option<&str>,
    opts: &crate::Options,
    target: &Target,
    show: &[&str],
) -> Result<Explanation, ExplainError> {
    let model = model_for(program, opts)?;
    let limit = opts.max_candidates.unwrap_or(DEFAULT_MAX_CANDIDATES);
    let mut eo = opts.enum_options();
    eo.cat = Some(model.clone());
    eo.max_candidates = Some(limit);
    eo.speedcheck = vkherd_enumerate::Speedcheck::Off;
    eo.states_only = false;
    eo.shard = None;
    let wanted = |st: &[i64]| matches(program, target, st);
    let (cands, stats) = capture::candidates_reaching(program, &eo, &wanted, limit)
        .map_err(|e| capture_error(program, e, limit))?;
    // Candidates by state, in state order.
    let mut by_state: BTreeMap<Vec<i64>, Vec<&Captured>> = BTreeMap::new();
    for c in &cands {
        for st in &c.states {
            if wanted(st) {
                by_state.entry(st.clone()).or_default().push(c);
            }
        }
    }
    let mut states = Vec::new();
    for (state, list) in &by_state {
        states.push(explain_state(program, source, &model, state, list, show));
    }
    Ok(Explanation {
        test: program.name.clone(),
        model: model.name.clone(),
        asked: match target {
            Target::State(v) => v
                .iter()
                .map(|(o, x)| format!("{}={x};", program.observable_name(*o)))
                .collect::<Vec<_>>()
                .join(" "),
            Target::Condition => {
                program
                    .condition
                    .as_ref()
                    .map_or("every state".to_string(), |c| {
                        let q = match c.quantifier {
                            Quantifier::Exists => "exists",
                            Quantifier::NotExists => "~exists",
                            Quantifier::Forall => "forall (states refuting it)",
                        };
                        format!("{q} {}", c.text)
                    })
            }
        },
        unreachable: by_state.is_empty(),
        states,
        examined: stats.candidates,
        notes: notes(&stats, opts),
    })
}

/// The warnings of an explanation's enumeration.
fn notes(stats: &vkherd_enumerate::EnumStats, opts: &crate::Options) -> Vec<String> {
    let mut out = Vec::new();
    if stats.dropped_paths > 0 {
        out.push(format!(
            "Warning: {} dropped by the unroll bound (--unroll {}): the explanation covers the executions within the bound only",
            crate::report::plural(stats.dropped_paths, "path"),
            opts.unroll
        ));
    }
    if stats.deadlocked_paths > 0 {
        out.push(format!(
            "Warning: {} at a control barrier, not counted",
            crate::deadlock_text(stats.deadlocked_paths)
        ));
    }
    out
}

fn explain_state(
    program: &Program,
    source: Option<&str>,
    model: &Model,
    state: &[i64],
    list: &[&Captured],
    show: &[&str],
) -> StateExplanation {
    let values = program
        .observed
        .iter()
        .zip(state)
        .map(|(o, v)| (program.observable_name(*o), *v))
        .collect();
    let mut out = StateExplanation {
        state: state_text(program, state),
        values,
        verdict: String::new(),
        candidates: list.len() as u64,
        witness: None,
        racy: false,
        reasons: Vec::new(),
    };
    if !passes_filter(program, state) {
        out.verdict = "filtered".into();
        return out;
    }
    // The list is in the fixed order, race-free first: the first consistent one.
    if let Some(w) = list.iter().find(|c| c.consistent) {
        out.verdict = "allowed".into();
        out.racy = w.racy;
        out.witness = Some(Execution::new(program, source, model, w, state, show));
        return out;
    }
    out.verdict = "forbidden".into();
    let mut groups: BTreeMap<String, (usize, Reason)> = BTreeMap::new();
    for (order, c) in list.iter().enumerate() {
        let insp = Inspection::new(model, &c.statics, &c.rf, &c.rfinit, &c.asmo);
        let Some((check, witness)) = failure_with(&insp) else {
            // The staged engine said inconsistent, the plain one finds every check
            // holding: a bug, said rather than hidden.
            let key = "(no check fails: the two evaluators disagree)".to_string();
            let reason = Reason {
                check: "?".into(),
                check_text: key.clone(),
                candidates: 0,
                witness: Witness::Empty,
                execution: Execution::with_inspection(program, source, &insp, c, state, show),
            };
            groups.entry(key).or_insert((order, reason)).1.candidates += 1;
            continue;
        };
        let key = reason_key(c, &model.checks[check].name, &witness);
        let entry = groups.entry(key).or_insert_with(|| {
            // The execution carries every relation the witness names.
            let mut names: Vec<&str> = show.to_vec();
            for e in witness.edges() {
                names.extend(e.labels.iter().chain(&e.via).map(|s| s.as_str()));
                for st in &e.steps {
                    names.extend(st.labels.iter().map(|s| s.as_str()));
                }
            }
            let execution = Execution::with_inspection(program, source, &insp, c, state, &names);
            (
                order,
                Reason {
                    check: model.checks[check].name.clone(),
                    check_text: check_text(model, check),
                    candidates: 0,
                    witness,
                    execution,
                },
            )
        });
        entry.1.candidates += 1;
    }
    let mut reasons: Vec<(usize, Reason)> = groups.into_values().collect();
    reasons.sort_by_key(|(order, r)| (std::cmp::Reverse(r.candidates), *order));
    out.reasons = reasons.into_iter().map(|(_, r)| r).collect();
    out
}

/// The first check of `model` that candidate `c` fails, and a minimal witness of it
/// (`None` if every check holds).
pub fn failure(model: &Model, c: &Captured) -> Option<(usize, Witness)> {
    failure_with(&Inspection::new(
        model, &c.statics, &c.rf, &c.rfinit, &c.asmo,
    ))
}

fn failure_with(insp: &Inspection<'_>) -> Option<(usize, Witness)> {
    let check = insp.first_failure()?;
    Some((check, witness_of(insp, check)))
}

/// Candidates with the same failing check and the same witness over the same
/// instructions share a reason.
fn reason_key(c: &Captured, check: &str, w: &Witness) -> String {
    let at = |e: usize| {
        let ev = &c.statics.events[e];
        format!("P{}:{}", ev.thread, ev.instr)
    };
    let edge = |e: &Edge| format!("{}-{}->{}", at(e.from), e.labels.join("+"), at(e.to));
    let w = match w {
        Witness::Cycle { edges } => edges.iter().map(edge).collect::<Vec<_>>().join(" "),
        Witness::Reflexive { edge: e, .. } | Witness::Pair { edge: e } => edge(e),
        Witness::Empty => "empty".into(),
    };
    format!("{check} {w}")
}

/// The check as written in the model file (its name if the text is not at hand).
fn check_text(model: &Model, c: usize) -> String {
    let ch = &model.checks[c];
    let text = &model.source.text;
    let span = ch.span;
    match text.get(span.offset..span.offset + span.len) {
        Some(t) if span.len > 0 && span.line > 0 => {
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        }
        _ => ch.name.clone(),
    }
}

/// The labels of edge `(a, b)` of check node `node`.
fn edge(insp: &Inspection<'_>, node: vkherd_cat::ir::N, a: usize, b: usize) -> Edge {
    let origin = insp.edge_origin(node, a, b);
    let mut labels = origin.labels;
    for base in ["po", "rf", "fr", "asmo"] {
        if labels.iter().any(|l| l == base) {
            continue;
        }
        if let Some(Value::Rel(r)) = insp.named(base) {
            if r.contains(a, b) {
                labels.push(base.to_string());
            }
        }
    }
    let steps = origin
        .steps
        .into_iter()
        .map(|st| Step {
            from: st.from,
            to: st.to,
            labels: st.labels,
        })
        .collect();
    Edge {
        from: a,
        to: b,
        labels,
        via: origin.via,
        steps,
    }
}

/// A minimal witness that check `c` fails.
fn witness_of(insp: &Inspection<'_>, c: usize) -> Witness {
    let ch = &insp.model().checks[c];
    let v = insp.value(ch.node);
    if ch.negated {
        return Witness::Empty;
    }
    match (ch.kind, &v) {
        (CheckKind::Acyclic, Value::Rel(r)) => {
            let cycle = shortest_cycle(r).expect("a failing acyclic check has a cycle");
            let edges = (0..cycle.len())
                .map(|i| edge(insp, ch.node, cycle[i], cycle[(i + 1) % cycle.len()]))
                .collect();
            Witness::Cycle { edges }
        }
        (CheckKind::Irreflexive, Value::Rel(r)) => {
            let e = (0..r.n())
                .find(|&e| r.contains(e, e))
                .expect("a failing irreflexive check has a loop");
            Witness::Reflexive {
                event: e,
                edge: edge(insp, ch.node, e, e),
            }
        }
        (CheckKind::Empty, Value::Rel(r)) => {
            let (a, b) = r.pairs().next().expect("a failing empty check has a pair");
            Witness::Pair {
                edge: edge(insp, ch.node, a, b),
            }
        }
        (CheckKind::Empty, Value::Set(s)) => {
            let e = s.iter().next().expect("a failing empty check has an event");
            Witness::Pair {
                edge: Edge {
                    from: e,
                    to: e,
                    labels: insp.names_of(ch.node).to_vec(),
                    via: Vec::new(),
                    steps: Vec::new(),
                },
            }
        }
        _ => unreachable!("type-checked"),
    }
}

/// A shortest cycle of `r` (BFS from each event; the first shortest by start event), as
/// the events in order.
pub fn shortest_cycle(r: &vkherd_model::Rel) -> Option<Vec<usize>> {
    let n = r.n();
    let mut best: Option<Vec<usize>> = None;
    for start in 0..n {
        // BFS from start; a cycle closes when an edge returns to start.
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        let mut closing = None;
        'bfs: while let Some(x) = queue.pop_front() {
            for y in r.row(x).iter() {
                if y == start {
                    closing = Some(x);
                    break 'bfs;
                }
                if !seen[y] {
                    seen[y] = true;
                    parent[y] = Some(x);
                    queue.push_back(y);
                }
            }
        }
        let Some(mut last) = closing else { continue };
        let mut path = vec![last];
        while let Some(p) = parent[last] {
            path.push(p);
            last = p;
        }
        path.reverse();
        if best.as_ref().is_none_or(|b| path.len() < b.len()) {
            best = Some(path);
        }
    }
    best
}

/// Parses `--state "1:r0=1; 1:r1=0;"` (also `P1:r0=1`, `x=1`, `/\` between items) into
/// values of the test's observed registers and locations. Errors point into `text`.
pub fn parse_state(program: &Program, text: &str) -> Result<Vec<(Observable, i64)>, Diagnostic> {
    let mut out = Vec::new();
    let mut offset = 0;
    let cleaned = text.replace("/\\", "; ");
    for item in cleaned.split(';') {
        let start = offset;
        offset += item.len() + 1;
        let trimmed = item.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = item.len() - item.trim_start().len();
        let span = |from: usize, len: usize| Span {
            offset: start + lead + from,
            len: len.max(1),
            line: 1,
            column: (start + lead + from + 1) as u32,
        };
        let Some((name, value)) = trimmed.split_once('=') else {
            return Err(Diagnostic::new(
                span(0, trimmed.len()),
                format!("`{trimmed}` is not `NAME=VALUE`: expected items like `1:r0=1;` or `x=2;`"),
            ));
        };
        let name = name.trim().trim_end_matches('=').trim();
        let value_text = value.trim().trim_start_matches('=').trim();
        let value: i64 = value_text.parse().map_err(|_| {
            let at = trimmed.find(value_text).unwrap_or(0);
            Diagnostic::new(
                span(at, value_text.len()),
                format!("`{value_text}` is not an integer: expected a value like `1` or `-2`"),
            )
        })?;
        let canonical = match name.strip_prefix('P') {
            Some(rest) if rest.contains(':') => rest,
            _ => name,
        };
        let Some(&o) = program
            .observed
            .iter()
            .find(|&&o| program.observable_name(o) == canonical)
        else {
            let columns = program
                .observed
                .iter()
                .map(|&o| program.observable_name(o))
                .collect::<Vec<_>>()
                .join(", ");
            let known_location = program.locations.iter().any(|l| l.name == canonical);
            let why = if known_location || canonical.contains(':') {
                "it is not in the final state: add it to `locations [...]` to observe it"
            } else {
                "the test has no such register or location"
            };
            let columns = if columns.is_empty() {
                "no columns (the test's condition, filter and `locations` name nothing)".to_string()
            } else {
                columns
            };
            return Err(Diagnostic::new(
                span(0, name.len()),
                format!("`{name}`: {why}; the final state has {columns}"),
            ));
        };
        out.push((o, value));
    }
    if out.is_empty() {
        return Err(Diagnostic::new(
            Span {
                offset: 0,
                len: text.len().max(1),
                line: 1,
                column: 1,
            },
            "empty state: expected items like `1:r0=1; x=2;`",
        ));
    }
    Ok(out)
}

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
    let by = if e.labels.is_empty() {
        format!("`{checked}`")
    } else {
        e.labels.join(" and ")
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
            p.push_str(&format!(" -{}-> {}", st.labels.join("+"), name(st.to)));
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
