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

mod state;
mod text;
mod witness;

pub use state::parse_state;
pub use text::{execution_text, explanation_text};
use witness::failure_with;
pub use witness::{failure, shortest_cycle};

use crate::execution::{state_text, Execution};
use crate::judge::{ModelMismatch, ResolvedModel};
use crate::RunConfig;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use vkherd_cat::inspect::Inspection;
use vkherd_cat::Model;
use vkherd_enumerate::capture::{self, CaptureError, Captured};
use vkherd_enumerate::StopReason;
use vkherd_litmus::Diagnostic;
use vkherd_model::{Observable, Program, Quantifier};

/// The default of `vkherd report --explain-candidates`: most candidates examined to
/// explain one test of a page (`vkherd explain` takes the run's `--max-candidates`).
pub const REPORT_EXPLAIN_CANDIDATES: u64 = 200_000;

/// Most candidates an explanation keeps (those reaching the states asked about): each is
/// held whole until they are grouped by reason, so this bounds the memory it takes.
pub const MAX_KEPT: u64 = 200_000;

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
    /// `allowed`, `forbidden`, `filtered` (the filter leaves it out), or `thin-air`
    /// (only thin-air executions reach it, and `--no-thin-air` leaves them out).
    pub verdict: String,
    /// Candidate executions reaching it (consistent or not).
    pub candidates: u64,
    /// Allowed (or thin-air): the first consistent execution reaching it.
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
    /// The model that judged the test, with the variants it ran with (`opencl with
    /// rc11-sc`): the same name and variants as the run's JSON.
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
pub enum ExplainError {
    /// The test cannot be run (located in the test).
    Input(Diagnostic),
    /// `--model` is not for the test's dialect.
    Model(ModelMismatch),
    /// A limit stopped the enumeration: the list of candidates would be partial.
    Limit(ExplainLimit),
}

/// The limits an explanation can meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplainLimit {
    /// `--max-candidates` or `--timeout`, after `candidates` were examined.
    Stopped { reason: StopReason, candidates: u64 },
    /// More than [`MAX_KEPT`] candidates reach the states asked about.
    TooMany { kept: u64 },
}

impl std::fmt::Display for ExplainLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ExplainLimit::Stopped { reason, candidates } => write!(
                f,
                "{}: the list of candidates would be partial, so there is no explanation; raise --max-candidates or --timeout (0 = no limit), or give a narrower --state",
                crate::stop_text(reason, candidates)
            ),
            ExplainLimit::TooMany { kept } => write!(
                f,
                "more than {kept} candidate executions reach the states asked about: too many to keep and group by reason; give a narrower --state"
            ),
        }
    }
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::Input(d) => write!(f, "{}", d.message),
            ExplainError::Model(m) => write!(f, "{m}"),
            ExplainError::Limit(l) => write!(f, "{l}"),
        }
    }
}

/// The model that judges `program` under `opts` ([`crate::models::ModelChoice::resolve`]),
/// for an explanation made without a run: the one `crate::run` judges it by, whose cat
/// model names every definition. After a run, use the report's (`Report::model`).
pub fn resolve(
    program: &Program,
    opts: &crate::Options,
) -> Result<Arc<ResolvedModel>, ExplainError> {
    (opts.model.resolve(program.dialect)).map_err(ExplainError::Model)
}

fn capture_error(program: &Program, e: CaptureError) -> ExplainError {
    match e {
        CaptureError::Enum(e) => ExplainError::Input(crate::locate::enum_diagnostic(program, e)),
        CaptureError::TooMany { limit } => {
            ExplainError::Limit(ExplainLimit::TooMany { kept: limit })
        }
        CaptureError::Stopped { reason, candidates } => {
            ExplainError::Limit(ExplainLimit::Stopped { reason, candidates })
        }
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
    let model = resolve(program, opts)?;
    witnesses_of(program, source, &model, &opts.run, show)
}

/// [`witness_executions`] under `model`, with the run's configuration `run`.
pub fn witnesses_of(
    program: &Program,
    source: Option<&str>,
    model: &ResolvedModel,
    run: &RunConfig,
    show: &[&str],
) -> Result<Vec<(Vec<i64>, Execution)>, ExplainError> {
    refuse_view(model)?;
    // The run's own engine finds the executions (`--model hand:vulkan` is the
    // hand-written one, which agrees with vulkan.cat candidate by candidate:
    // crates/enumerate/tests/cat_model.rs); the cat model names their relations.
    let mut eo = model.enum_options(run);
    eo.run.speedcheck = vkherd_enumerate::Speedcheck::Off;
    eo.run.states_only = false;
    eo.run.shard = None;
    let (found, _) = capture::witnesses(program, &eo).map_err(|e| capture_error(program, e))?;
    Ok(found
        .into_iter()
        .map(|(state, c)| {
            let ex = Execution::new(program, source, model.cat_model(), &c, &state, show);
            (state, ex)
        })
        .collect())
}

/// Explanations and graphs show the program's events and the model's relations on them;
/// a model in Dat3M's event view has its relations on other events (initial writes, RMW
/// halves), so both are refused for it, with the reason, rather than drawn wrong.
fn refuse_view(model: &ResolvedModel) -> Result<(), ExplainError> {
    if !model.cat_model().dat3m_view() {
        return Ok(());
    }
    Err(ExplainError::Input(Diagnostic::new(
        crate::locate::WHOLE_TEST,
        format!(
            "the model {} runs in Dat3M's event view (it reads names only that view has, such as `co` or `IW`), whose executions have initial writes and RMW halves as events: explanations and graphs show vkherd's events only (docs/models.md, \"Dat3M's event view\"); expected a model in vkherd's names (or run the test without explain, --graph, --dot or --show)",
            model.label()
        ),
    )))
}

/// A `--show` name that is not a relation of the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRelation {
    pub name: String,
    pub model: String,
    /// The model defines the name, as a set.
    pub is_set: bool,
    /// The relations the model defines, sorted.
    pub known: Vec<String>,
}

impl std::fmt::Display for UnknownRelation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        let what = if self.is_set {
            "is a set, not a relation"
        } else {
            "is not a relation of the model"
        };
        write!(
            f,
            "--show {name}: `{name}` {what} `{}`; expected one of: {}, or a base relation (po, rf, asmo, ...)",
            self.model,
            self.known.join(", ")
        )
    }
}

/// Is `name` a relation of `model` (a definition or a base relation)?
pub fn is_relation(model: &Model, name: &str) -> bool {
    match model.named(name) {
        Some(n) => model.graph().kind(n) == vkherd_cat::Kind::Rel,
        None => vkherd_cat::base::lookup(name).is_some_and(|b| b.kind() == vkherd_cat::Kind::Rel),
    }
}

/// Checks that every name of `show` is a relation of `model` (a definition or a base
/// relation), for `--show`.
pub fn check_show(model: &Model, show: &[&str]) -> Result<(), UnknownRelation> {
    let Some(name) = show.iter().find(|name| !is_relation(model, name)) else {
        return Ok(());
    };
    let mut known: Vec<String> = model
        .definitions()
        .iter()
        .filter(|(_, n)| model.graph().kind(*n) == vkherd_cat::Kind::Rel)
        .map(|(m, _)| m.clone())
        .collect();
    known.sort_unstable();
    known.dedup();
    Err(UnknownRelation {
        name: name.to_string(),
        model: model.name().to_string(),
        is_set: model.named(name).is_some(),
        known,
    })
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
/// execution shown. At most `opts.run.max_candidates` candidates are examined (the run's
/// limit: every candidate is enumerated, none pruned) within `opts.run.timeout`, and at most
/// [`MAX_KEPT`] kept.
pub fn explain(
    program: &Program,
    source: Option<&str>,
    opts: &crate::Options,
    target: &Target,
    show: &[&str],
) -> Result<Explanation, ExplainError> {
    let model = resolve(program, opts)?;
    explain_with(program, source, &model, &opts.run, target, show)
}

/// [`explain`] under `model`, with the run's configuration `run`.
pub fn explain_with(
    program: &Program,
    source: Option<&str>,
    resolved: &ResolvedModel,
    run: &RunConfig,
    target: &Target,
    show: &[&str],
) -> Result<Explanation, ExplainError> {
    refuse_view(resolved)?;
    let model = resolved.cat_model();
    let mut eo = resolved.enum_options(run);
    // The cat engine also for the hand-written model: its definitions are what is shown.
    eo.engine = vkherd_enumerate::AnyEngine::Cat(resolved.cat_engine());
    eo.run.speedcheck = vkherd_enumerate::Speedcheck::Off;
    eo.run.states_only = false;
    eo.run.shard = None;
    // Thin-air executions are kept, to say when only they reach a state that
    // --no-thin-air leaves out.
    eo.run.no_thin_air = false;
    let wanted = |st: &[i64]| matches(program, target, st);
    let (cands, stats) = capture::candidates_reaching(program, &eo, &wanted, MAX_KEPT)
        .map_err(|e| capture_error(program, e))?;
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
        let st = explain_state(program, source, model, state, list, show, run.no_thin_air);
        states.push(st);
    }
    Ok(Explanation {
        test: program.name.clone(),
        model: resolved.label(),
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
        notes: resolved
            .notes()
            .into_iter()
            .chain(notes(&stats, run))
            .collect(),
    })
}

/// The warnings of an explanation's enumeration.
fn notes(stats: &vkherd_enumerate::EnumStats, run: &RunConfig) -> Vec<String> {
    let mut out = Vec::new();
    if stats.dropped_paths > 0 {
        out.push(format!(
            "Warning: {} dropped by the unroll bound (--unroll {}): the explanation covers the executions within the bound only",
            crate::report::plural(stats.dropped_paths, "path"),
            run.unroll
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
    no_thin_air: bool,
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
    let counted = |c: &&&Captured| c.consistent && !(no_thin_air && c.values.thin_air);
    if let Some(w) = list.iter().find(counted) {
        out.verdict = "allowed".into();
        out.racy = w.racy;
        out.witness = Some(Execution::new(program, source, model, w, state, show));
        return out;
    }
    if let Some(w) = list.iter().find(|c| c.consistent) {
        // Consistent, but thin air, and --no-thin-air leaves those out.
        out.verdict = "thin-air".into();
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
        let key = reason_key(c, &model.checks()[check].name, &witness);
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
                    check: model.checks()[check].name.clone(),
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

/// Candidates with the same failing check and the same witness over the same
/// instructions share a reason.
fn reason_key(c: &Captured, check: &str, w: &Witness) -> String {
    let at = |e: usize| {
        let ev = &c.statics.events()[e];
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
    let ch = &model.checks()[c];
    let text = &model.source().text;
    let span = ch.span;
    match text.get(span.offset..span.offset + span.len) {
        Some(t) if span.len > 0 && span.line > 0 => {
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        }
        _ => ch.name.clone(),
    }
}
