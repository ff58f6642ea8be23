//! One candidate execution as users read it: events labelled like the source instruction,
//! their values, the threads' places in the scope hierarchy, and relations as lists of
//! pairs. Serialisable (JSON); drawn by [`crate::dot`], printed by [`crate::explain`].

use serde::Serialize;
use std::collections::BTreeMap;
use vkherd_cat::inspect::Inspection;
use vkherd_cat::{Model, Value};
use vkherd_enumerate::capture::Captured;
use vkherd_model::{AccessKind, Instruction, Program, StaticSet};

/// One event.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct EventInfo {
    /// Index in the execution (the relations' pairs refer to it).
    pub id: usize,
    /// herd7-style short name: `a`, `b`, ...
    pub name: String,
    pub thread: usize,
    /// Index of the instruction in the thread's code.
    pub instr: usize,
    /// The source instruction (`st.atom.rel.wg.sc0.semsc0 y, 1`).
    pub label: String,
    /// `R`, `W`, `RMW`, `F`, `CBAR`, `AVDEVICE`, `VISDEVICE`.
    pub kind: String,
    /// The reference accessed (the location, or an alias of it).
    pub location: Option<String>,
    /// The memory location accessed (the aliased one for an alias).
    pub memory: Option<String>,
    /// The value read (reads and RMWs).
    pub read: Option<i64>,
    /// The value written (writes and RMWs).
    pub written: Option<i64>,
}

/// One invocation and its place in the scope hierarchy.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ThreadInfo {
    pub thread: usize,
    /// `P0`.
    pub name: String,
    /// The ids of its scope instances, innermost level first (the dialect's levels).
    #[serde(skip)]
    pub scope: Vec<u64>,
    /// The same ids by level key, outermost first (Vulkan: `"qf": 0, "wg": 1, "sg": 0`).
    #[serde(flatten)]
    pub levels: serde_json::Map<String, serde_json::Value>,
}

/// A candidate execution, its values, and the relations asked for.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Execution {
    /// `vulkan` or `opencl`: how to name the scopes.
    pub dialect: String,
    pub threads: Vec<ThreadInfo>,
    pub events: Vec<EventInfo>,
    /// Reads that take the initial value.
    pub init_reads: Vec<usize>,
    /// Initial values of the locations read from init, by name.
    pub init: BTreeMap<String, i64>,
    /// Relations by name: the base ones (`po`, `rf`, `asmo`), the model's `fr` and `co`
    /// when it defines them, and every other name asked for. Pairs of event ids.
    pub relations: BTreeMap<String, Vec<(usize, usize)>>,
    /// The final state this execution is shown for (`1:r0=1; 1:r1=0;`).
    pub state: String,
    pub consistent: bool,
    /// The flags the model raises on it (Vulkan: `racy`).
    pub flags: Vec<String>,
    pub thin_air: bool,
    /// Liveness witnesses: the role of events in a stuck ending (`spin`, `lap A`,
    /// `lap B`), by event id.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub marks: BTreeMap<usize, String>,
    /// Liveness witnesses: how each thread that does not terminate ends, by thread
    /// (`paused after ...`, `blocked at ...`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub endings: BTreeMap<usize, String>,
}

/// The relations every execution carries.
pub const BASE_RELATIONS: [&str; 5] = ["po", "rf", "asmo", "fr", "co"];

/// `a`..`z`, then `e26`, `e27`...
pub fn event_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("e{i}")
    }
}

/// The text of a state, herd7-style: `1:r0=1; x=2;`.
pub fn state_text(program: &Program, state: &[i64]) -> String {
    program
        .observed
        .iter()
        .zip(state)
        .map(|(o, v)| format!("{}={v};", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The label of instruction `instr` of `thread`: its source text if `source` is given,
/// else a description.
pub fn instruction_label(
    program: &Program,
    source: Option<&str>,
    thread: usize,
    instr: usize,
) -> String {
    let Instruction::Access(a) = &program.threads[thread].code[instr] else {
        return String::new();
    };
    if let Some(text) = source.and_then(|s| s.get(a.span.offset..a.span.offset + a.span.len)) {
        let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !t.is_empty() {
            return t.trim_end_matches(';').trim().to_string();
        }
    }
    let loc = a
        .reference
        .map(|r| program.references[r].name.clone())
        .unwrap_or_default();
    match a.kind {
        AccessKind::Load => format!("load {loc}"),
        AccessKind::Store => format!("store {loc}"),
        AccessKind::Rmw => format!("rmw {loc}"),
        AccessKind::Fence => "fence".into(),
        AccessKind::Cbar => "cbar".into(),
        AccessKind::AvDevice => "avdevice".into(),
        AccessKind::VisDevice => "visdevice".into(),
    }
}

impl Execution {
    /// Builds the execution of `c` shown for `state`, with the model's values of the
    /// relations `show` (names of the model's definitions or base relations; unknown
    /// names and sets are left out) besides [`BASE_RELATIONS`].
    pub fn new(
        program: &Program,
        source: Option<&str>,
        model: &Model,
        c: &Captured,
        state: &[i64],
        show: &[&str],
    ) -> Execution {
        let insp = Inspection::new(model, &c.statics, &c.rf, &c.rfinit, &c.asmo);
        Execution::with_inspection(program, source, &insp, c, state, show)
    }

    /// As [`Execution::new`], with the model already evaluated on `c`.
    pub fn with_inspection(
        program: &Program,
        source: Option<&str>,
        insp: &Inspection<'_>,
        c: &Captured,
        state: &[i64],
        show: &[&str],
    ) -> Execution {
        let s = &c.statics;
        let events: Vec<EventInfo> = s
            .events()
            .iter()
            .enumerate()
            .map(|(id, e)| {
                let kind = match &program.threads[e.thread].code[e.instr] {
                    Instruction::Access(a) => match a.kind {
                        AccessKind::Load => "R",
                        AccessKind::Store => "W",
                        AccessKind::Rmw if s.set(StaticSet::W).contains(id) => "RMW",
                        AccessKind::Rmw => "R",
                        AccessKind::Fence => "F",
                        AccessKind::Cbar => "CBAR",
                        AccessKind::AvDevice => "AVDEVICE",
                        AccessKind::VisDevice => "VISDEVICE",
                    },
                    _ => "",
                };
                EventInfo {
                    id,
                    name: event_name(id),
                    thread: e.thread,
                    instr: e.instr,
                    label: instruction_label(program, source, e.thread, e.instr),
                    kind: kind.to_string(),
                    location: e.reference.map(|r| program.references[r].name.clone()),
                    memory: e.location.map(|l| program.locations[l].name.clone()),
                    read: s.set(StaticSet::R).contains(id).then(|| c.values.read[id]),
                    written: s.set(StaticSet::W).contains(id).then(|| c.values.write[id]),
                }
            })
            .collect();
        let init_reads: Vec<usize> = c.rfinit.iter().collect();
        let init = init_reads
            .iter()
            .filter_map(|&e| s.events()[e].location)
            .map(|l| {
                let loc = &program.locations[l];
                (loc.name.clone(), loc.init)
            })
            .collect();
        let mut relations = BTreeMap::new();
        // The relation of each raised flag (`dr` for Vulkan's `racy`), when it is named.
        let model = insp.model();
        let flagged: Vec<&str> = model
            .checks()
            .iter()
            .enumerate()
            .filter(|(c, ch)| ch.flag && insp.check(*c))
            .filter_map(|(_, ch)| insp.names_of(ch.node).first().map(|s| s.as_str()))
            .collect();
        for name in BASE_RELATIONS.iter().chain(show).chain(&flagged) {
            if let Some(Value::Rel(r)) = insp.named(name) {
                relations.insert(name.to_string(), r.pairs().collect());
            }
        }
        let threads = program
            .threads
            .iter()
            .enumerate()
            .map(|(t, th)| ThreadInfo {
                thread: t,
                name: format!("P{t}"),
                scope: th.scope.clone(),
                levels: (program.dialect.levels.iter().zip(&th.scope).rev())
                    .map(|(level, &id)| (level.key.to_string(), id.into()))
                    .collect(),
            })
            .collect();
        Execution {
            dialect: program.dialect.name.to_string(),
            threads,
            events,
            init_reads,
            init,
            relations,
            state: state_text(program, state),
            consistent: c.consistent,
            flags: insp.flags(),
            thin_air: c.values.thin_air,
            marks: BTreeMap::new(),
            endings: BTreeMap::new(),
        }
    }

    /// The pairs of relation `name`, if the execution carries it.
    pub fn relation(&self, name: &str) -> Option<&[(usize, usize)]> {
        self.relations.get(name).map(|v| v.as_slice())
    }

    /// `a: W x=1 (P0: st.av.dv.sc0 x, 1)`.
    pub fn describe(&self, e: usize) -> String {
        let ev = &self.events[e];
        let loc = ev.location.as_deref().unwrap_or("");
        let value = match (ev.read, ev.written) {
            (Some(r), Some(w)) => format!(" {loc} {r}->{w}"),
            (Some(r), None) => format!(" {loc}={r}"),
            (None, Some(w)) => format!(" {loc}={w}"),
            (None, None) => String::new(),
        };
        format!(
            "{}: {}{} (P{}: {})",
            ev.name, ev.kind, value, ev.thread, ev.label
        )
    }
}
