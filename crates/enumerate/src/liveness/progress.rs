//! The progress models and the progress check over the invocation tree (liveness.md
//! "Progress models").
//!
//! Invocations form a tree: device, queue families (`qf`), workgroups (`wg`), subgroups
//! (`sg`), invocations (`inv`). Each level has its own model, which says which members of
//! a progressing group are *guaranteed* to progress. A stuck execution is accepted (is a
//! witness) if some progress assignment obeys the four rules of liveness.md; the check is
//! the recursion `ok(g)` given there:
//!
//! - an invocation is ok unless it is paused;
//! - a progressing group is ok if each guaranteed member is ok and, when the group has a
//!   schedulable member, some schedulable member is ok.
//!
//! The recursion is exact: a member that is not guaranteed may be left not progressing
//! (rule 2 asks nothing of it), and then nothing below it is asked (rule 1); rule 3 asks
//! for one schedulable member that can progress, i.e. one that is ok.

use std::fmt;

/// A forward-progress model of one level (liveness.md "Progress models").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProgressModel {
    /// Every member is guaranteed.
    Fair,
    /// The lowest-id schedulable member is guaranteed (heterogeneous system architecture).
    Hsa,
    /// Every started member is guaranteed (occupancy-bound execution).
    Obe,
    /// The `hsa` members and the `obe` members.
    HsaObe,
    /// Every member whose id is at most that of some started member (linear OBE).
    Lobe,
    /// No member is guaranteed (minimal progress only).
    Unfair,
}

impl ProgressModel {
    /// Every model, in the order the set of violations grows (`hsa` and `obe` are
    /// incomparable; `hsa` is listed first).
    pub const ALL: [ProgressModel; 6] = [
        ProgressModel::Fair,
        ProgressModel::Lobe,
        ProgressModel::HsaObe,
        ProgressModel::Hsa,
        ProgressModel::Obe,
        ProgressModel::Unfair,
    ];

    /// The name as printed: `fair`, `hsa`, `obe`, `hsa_obe`, `lobe`, `unfair`.
    pub fn name(self) -> &'static str {
        match self {
            ProgressModel::Fair => "fair",
            ProgressModel::Hsa => "hsa",
            ProgressModel::Obe => "obe",
            ProgressModel::HsaObe => "hsa_obe",
            ProgressModel::Lobe => "lobe",
            ProgressModel::Unfair => "unfair",
        }
    }

    /// Reads a model name in any case; `hsa-obe` is `hsa_obe`.
    pub fn parse(text: &str) -> Option<ProgressModel> {
        let t = text.trim().to_ascii_lowercase().replace('-', "_");
        ProgressModel::ALL.into_iter().find(|m| m.name() == t)
    }

    /// Is a member guaranteed in a progressing group? `lower_schedulable`: some member of
    /// lower id is schedulable; `started`: the member has started; `started_at_or_above`:
    /// some member whose id is at least this one's has started.
    fn guarantees(self, lower_schedulable: bool, started: bool, started_at_or_above: bool) -> bool {
        match self {
            ProgressModel::Fair => true,
            ProgressModel::Hsa => !lower_schedulable,
            ProgressModel::Obe => started,
            ProgressModel::HsaObe => !lower_schedulable || started,
            ProgressModel::Lobe => started_at_or_above,
            ProgressModel::Unfair => false,
        }
    }
}

impl fmt::Display for ProgressModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level of the invocation tree, named after the members it schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// The queue families of the device.
    Qf,
    /// The workgroups of one queue family.
    Wg,
    /// The subgroups of one workgroup.
    Sg,
    /// The invocations of one subgroup.
    Inv,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Qf, Level::Wg, Level::Sg, Level::Inv];

    pub fn name(self) -> &'static str {
        match self {
            Level::Qf => "qf",
            Level::Wg => "wg",
            Level::Sg => "sg",
            Level::Inv => "inv",
        }
    }

    /// A member of this level in words (`workgroup`).
    pub fn member_word(self) -> &'static str {
        match self {
            Level::Qf => "queue family",
            Level::Wg => "workgroup",
            Level::Sg => "subgroup",
            Level::Inv => "invocation",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        let t = text.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.name() == t)
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The progress model of each level (`--progress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Progress {
    pub levels: [ProgressModel; 4],
}

impl Default for Progress {
    fn default() -> Self {
        Progress::uniform(ProgressModel::Fair)
    }
}

/// Why a `--progress` value was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgressError {
    UnknownModel(String),
    UnknownLevel(String),
    /// A level (or `default`) set twice.
    Repeated(String),
    /// An item that is neither `MODEL` nor `LEVEL=MODEL`, or an empty value.
    Malformed(String),
    /// A level written in upper case (`QF=OBE`): Dat3M's spelling, which keys a model by
    /// the *enclosing* scope, so that Dat3M's `QF=OBE` is vkherd's `wg=obe`. Refused,
    /// with vkherd's spelling of the whole value when every level has one.
    Dat3m {
        given: String,
        equivalent: Option<String>,
    },
}

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let models = "fair, hsa, obe, hsa_obe (or hsa-obe), lobe, unfair";
        match self {
            ProgressError::UnknownModel(m) => {
                write!(f, "unknown progress model `{m}`: expected one of {models}")
            }
            ProgressError::UnknownLevel(l) => write!(
                f,
                "unknown level `{l}`: expected qf, wg, sg, inv or default (as in wg=obe,inv=hsa)"
            ),
            ProgressError::Repeated(l) => write!(f, "`{l}` is set twice: expected each level once"),
            ProgressError::Malformed(t) => write!(
                f,
                "`{t}` is not a progress model: expected MODEL or LEVEL=MODEL,... (models: {models})"
            ),
            ProgressError::Dat3m { given, equivalent } => {
                write!(
                    f,
                    "`{given}` is Dat3M's spelling, which keys a model by the enclosing scope (Dat3M's QF=OBE is the workgroups' model); vkherd names the level of the members scheduled, in lower case"
                )?;
                match equivalent {
                    Some(e) => write!(f, ": expected `{e}` for Dat3M's meaning (docs/liveness.md)"),
                    None => write!(
                        f,
                        ": expected qf, wg, sg, inv (Dat3M's DV, QF, WG, SG) (docs/liveness.md)"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for ProgressError {}

impl Progress {
    pub fn uniform(model: ProgressModel) -> Progress {
        Progress { levels: [model; 4] }
    }

    pub fn at(&self, level: Level) -> ProgressModel {
        self.levels[level.index()]
    }

    /// `obe` (uniform), or `wg=obe,inv=hsa[,default=MODEL]` (the levels not named are
    /// `fair` unless `default` says otherwise).
    pub fn parse(text: &str) -> Result<Progress, ProgressError> {
        let text = text.trim();
        if !text.contains('=') && !text.contains(',') {
            return ProgressModel::parse(text)
                .map(Progress::uniform)
                .ok_or_else(|| ProgressError::UnknownModel(text.to_string()));
        }
        dat3m_levels(text)?;
        let mut set: [Option<ProgressModel>; 4] = [None; 4];
        let mut default = None;
        for item in text.split(',') {
            let Some((level, model)) = item.split_once('=') else {
                return Err(ProgressError::Malformed(item.trim().to_string()));
            };
            let model = ProgressModel::parse(model)
                .ok_or_else(|| ProgressError::UnknownModel(model.trim().to_string()))?;
            let level_text = level.trim();
            if level_text.eq_ignore_ascii_case("default") {
                if default.replace(model).is_some() {
                    return Err(ProgressError::Repeated("default".into()));
                }
                continue;
            }
            let level = Level::parse(level_text)
                .ok_or_else(|| ProgressError::UnknownLevel(level_text.to_string()))?;
            if set[level.index()].replace(model).is_some() {
                return Err(ProgressError::Repeated(level.name().into()));
            }
        }
        let default = default.unwrap_or(ProgressModel::Fair);
        Ok(Progress {
            levels: set.map(|m| m.unwrap_or(default)),
        })
    }

    /// The uniform model, if every level has the same.
    pub fn uniform_model(&self) -> Option<ProgressModel> {
        let first = self.levels[0];
        self.levels.iter().all(|&m| m == first).then_some(first)
    }
}

/// Dat3M's level of a model: the enclosing scope of the members it schedules, so Dat3M's
/// `QF` is vkherd's `wg` (the workgroups of a queue family).
const DAT3M_LEVELS: [(&str, Level); 4] = [
    ("DV", Level::Qf),
    ("QF", Level::Wg),
    ("WG", Level::Sg),
    ("SG", Level::Inv),
];

/// Refuses a `LEVEL=MODEL` list whose levels are written with an upper-case letter: Dat3M
/// writes `QF=OBE` for what vkherd calls `wg=obe`, so a silent reading would take the
/// other meaning (docs/liveness.md, "Differences from Dat3M"). `default` and the models
/// are read in any case (they mean the same in both).
fn dat3m_levels(text: &str) -> Result<(), ProgressError> {
    let items: Vec<(&str, &str)> = text
        .split(',')
        .filter_map(|item| item.split_once('='))
        .map(|(l, m)| (l.trim(), m.trim()))
        .collect();
    let upper = |l: &str| l.chars().any(|c| c.is_ascii_uppercase());
    let is_default = |l: &str| l.eq_ignore_ascii_case("default");
    if !items.iter().any(|(l, _)| upper(l) && !is_default(l)) {
        return Ok(());
    }
    let translated: Option<Vec<String>> = items
        .iter()
        .map(|&(l, m)| {
            let model = ProgressModel::parse(m)?;
            if is_default(l) {
                return Some(format!("default={model}"));
            }
            let (_, level) = DAT3M_LEVELS.iter().find(|(d, _)| *d == l)?;
            Some(format!("{}={model}", level.name()))
        })
        .collect();
    Err(ProgressError::Dat3m {
        given: text.to_string(),
        equivalent: translated.map(|t| t.join(",")),
    })
}

/// `obe` for a uniform model; else the levels that differ from the most common model
/// (`wg=obe,inv=hsa`), then `default=MODEL` unless that model is `fair`. Reads back
/// with [`Progress::parse`] to the same levels.
impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.uniform_model() {
            return f.write_str(m.name());
        }
        let count = |m: ProgressModel| self.levels.iter().filter(|&&x| x == m).count();
        // The most common model; ties go to fair, then to the first in ALL.
        let default = std::iter::once(ProgressModel::Fair)
            .chain(ProgressModel::ALL)
            .max_by_key(|&m| (count(m), m == ProgressModel::Fair))
            .unwrap_or(ProgressModel::Fair);
        let mut items: Vec<String> = Level::ALL
            .iter()
            .filter(|&&l| self.at(l) != default)
            .map(|&l| format!("{}={}", l.name(), self.at(l)))
            .collect();
        if default != ProgressModel::Fair {
            items.push(format!("default={default}"));
        }
        f.write_str(&items.join(","))
    }
}

/// How an invocation's path ends in a stuck execution (liveness.md "Stuck executions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndingKind {
    Terminated,
    Spinning,
    Repeating,
    Blocked,
    Paused,
}

impl EndingKind {
    /// Neither terminated nor blocked: the scheduler can still give it turns.
    pub fn schedulable(self) -> bool {
        !matches!(self, EndingKind::Terminated | EndingKind::Blocked)
    }

    pub fn name(self) -> &'static str {
        match self {
            EndingKind::Terminated => "terminated",
            EndingKind::Spinning => "spinning",
            EndingKind::Repeating => "repeating",
            EndingKind::Blocked => "blocked",
            EndingKind::Paused => "paused",
        }
    }
}

/// What the progress check reads off one invocation's ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InvState {
    pub kind: EndingKind,
    /// It took a step: an instruction, a jump or a barrier arrival.
    pub started: bool,
}

/// The invocation tree of a program: at each level, the groups and their members by id.
#[derive(Debug, Clone)]
pub struct Tree {
    root: Node,
}

#[derive(Debug, Clone)]
struct Node {
    /// The member's id in its group (qf, wg, sg, or the thread number).
    id: u64,
    /// The level of `children` (none for an invocation).
    level: Option<Level>,
    children: Vec<Node>,
    /// The invocations below, by thread number.
    threads: Vec<usize>,
}

impl Tree {
    /// The tree of the invocations of `program`, from their `Pn@sg A, wg B, qf C` ids.
    pub fn of(program: &vkherd_model::Program) -> Tree {
        // The Vulkan levels (qf, wg, sg) are the dialect's levels from the outermost: its
        // levels 2, 1, 0 for a dialect of three levels (Vulkan, OpenCL); for one of two
        // (PTX: cta, gpu) qf is its outer level (the GPUs) and wg its inner one (the
        // CTAs), and each CTA is one subgroup. A level the dialect lacks has one group.
        let depth = program.dialect.levels.len();
        let id = |t: &vkherd_model::Thread, vulkan: usize| {
            (vulkan + depth)
                .checked_sub(3)
                .and_then(|l| t.scope.get(l))
                .copied()
                .unwrap_or(0)
        };
        let ids: Vec<(u64, u64, u64)> = (program.threads.iter())
            .map(|t| (id(t, 2), id(t, 1), id(t, 0)))
            .collect();
        Tree::new(&ids)
    }

    /// The tree of invocations with these (qf, wg, sg) ids, thread `t` being `ids[t]`.
    pub fn new(ids: &[(u64, u64, u64)]) -> Tree {
        fn build(level: usize, threads: Vec<usize>, ids: &[(u64, u64, u64)], id: u64) -> Node {
            if level == 4 {
                return Node {
                    id,
                    level: None,
                    children: Vec::new(),
                    threads,
                };
            }
            let key = |t: usize| match level {
                0 => ids[t].0,
                1 => ids[t].1,
                2 => ids[t].2,
                _ => t as u64,
            };
            let mut groups: std::collections::BTreeMap<u64, Vec<usize>> = Default::default();
            for &t in &threads {
                groups.entry(key(t)).or_default().push(t);
            }
            Node {
                id,
                level: Some(Level::ALL[level]),
                children: groups
                    .into_iter()
                    .map(|(k, ts)| build(level + 1, ts, ids, k))
                    .collect(),
                threads,
            }
        }
        Tree {
            root: build(0, (0..ids.len()).collect(), ids, 0),
        }
    }

    /// Is there a progress assignment under `progress` for these endings (one per thread)?
    pub fn accepts(&self, progress: &Progress, inv: &[InvState]) -> bool {
        ok(&self.root, progress, inv)
    }

    /// For a paused invocation of an accepted execution, the member of its ancestry (or
    /// itself) that the model does not guarantee, and why: the first one from the top.
    /// `None` if every ancestor is guaranteed (then the execution is not accepted).
    pub fn why_unscheduled(
        &self,
        progress: &Progress,
        inv: &[InvState],
        thread: usize,
    ) -> Option<Unscheduled> {
        let mut node = &self.root;
        loop {
            let level = node.level?;
            let k = node
                .children
                .iter()
                .position(|c| c.threads.contains(&thread))?;
            let model = progress.at(level);
            let facts = member_facts(node, k, inv);
            let guaranteed =
                model.guarantees(facts.lower_schedulable, facts.started, facts.started_above);
            // The member minimal progress picks (rule 3) when no guaranteed member is a
            // schedulable one that can progress: the first schedulable member that can.
            let picked = || {
                let covered = node.children.iter().enumerate().any(|(j, m)| {
                    let f = member_facts(node, j, inv);
                    model.guarantees(f.lower_schedulable, f.started, f.started_above)
                        && schedulable(m, inv)
                        && ok(m, progress, inv)
                });
                !covered
                    && node
                        .children
                        .iter()
                        .position(|m| schedulable(m, inv) && ok(m, progress, inv))
                        == Some(k)
            };
            if !guaranteed && !picked() {
                let member = &node.children[k];
                let lower = node.children[..k]
                    .iter()
                    .filter(|m| schedulable(m, inv))
                    .map(|m| m.threads[0])
                    .collect();
                return Some(Unscheduled {
                    level,
                    model,
                    member_id: member.id,
                    alone: member.threads == [thread],
                    started: facts.started,
                    lower_schedulable: lower,
                });
            }
            node = &node.children[k];
        }
    }
}

impl Tree {
    /// Why `progress` accepts no assignment for these endings, in words: the chain of
    /// members the model guarantees down to a paused invocation (`workgroup 1: started,
    /// so obe guarantees it; P1 is paused`), or the group none of whose schedulable
    /// members can progress. `None` if the endings are accepted.
    pub fn rejection(&self, progress: &Progress, inv: &[InvState]) -> Option<String> {
        if self.accepts(progress, inv) {
            return None;
        }
        let mut reasons = Vec::new();
        reject(&self.root, progress, inv, &mut reasons);
        Some(reasons.join("; "))
    }
}

/// Appends why progressing node `node` is not ok.
fn reject(node: &Node, progress: &Progress, inv: &[InvState], out: &mut Vec<String>) {
    let Some(level) = node.level else {
        out.push(format!("P{} is paused", node.threads[0]));
        return;
    };
    let model = progress.at(level);
    for (k, m) in node.children.iter().enumerate() {
        let f = member_facts(node, k, inv);
        if model.guarantees(f.lower_schedulable, f.started, f.started_above)
            && !ok(m, progress, inv)
        {
            let name = if m.threads.len() == 1 && level == Level::Inv {
                format!("P{}", m.threads[0])
            } else {
                format!("{} {}", level.member_word(), m.id)
            };
            let why = match model {
                ProgressModel::Fair => "fair guarantees every member".to_string(),
                ProgressModel::Hsa => {
                    "no member of lower id is schedulable, so hsa guarantees it".to_string()
                }
                ProgressModel::Obe => "it has started, so obe guarantees it".to_string(),
                ProgressModel::HsaObe if f.started => {
                    "it has started, so hsa_obe guarantees it".to_string()
                }
                ProgressModel::HsaObe => {
                    "no member of lower id is schedulable, so hsa_obe guarantees it".to_string()
                }
                ProgressModel::Lobe => {
                    "a member of its id or higher has started, so lobe guarantees it".to_string()
                }
                ProgressModel::Unfair => String::new(),
            };
            out.push(format!("{name}: {why}"));
            reject(m, progress, inv, out);
            return;
        }
    }
    out.push(format!(
        "no schedulable member of this {} can progress (minimal progress)",
        match level {
            Level::Qf => "device",
            Level::Wg => "queue family",
            Level::Sg => "workgroup",
            Level::Inv => "subgroup",
        }
    ));
}

/// Why the model lets a paused invocation be: the member (at `level`) that it does not
/// guarantee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unscheduled {
    pub level: Level,
    pub model: ProgressModel,
    /// The member's id (workgroup number, ...; the thread number at `inv`).
    pub member_id: u64,
    /// The member holds only this invocation.
    pub alone: bool,
    pub started: bool,
    /// The first invocation of each schedulable member of lower id.
    pub lower_schedulable: Vec<usize>,
}

impl Unscheduled {
    /// `not started; obe does not schedule it`, `workgroup 1 not started; ...`.
    pub fn text(&self) -> String {
        let subject = if self.alone {
            String::new()
        } else {
            format!("{} {}: ", self.level.member_word(), self.member_id)
        };
        let lower = || {
            let names: Vec<String> = self
                .lower_schedulable
                .iter()
                .map(|t| format!("P{t}"))
                .collect();
            format!("a lower id is schedulable ({})", names.join(", "))
        };
        let reason = match self.model {
            ProgressModel::Obe => "not started".to_string(),
            ProgressModel::Lobe => "not started, nor any of higher id".to_string(),
            ProgressModel::Hsa => lower(),
            ProgressModel::HsaObe => format!("not started and {}", lower()),
            ProgressModel::Unfair | ProgressModel::Fair => String::new(),
        };
        if reason.is_empty() {
            let whom = if self.alone {
                "it".to_string()
            } else {
                subject.trim_end_matches(": ").to_string()
            };
            return format!("{} does not schedule {whom}", self.model);
        }
        format!("{subject}{reason}; {} does not schedule it", self.model)
    }
}

struct MemberFacts {
    lower_schedulable: bool,
    started: bool,
    started_above: bool,
}

fn schedulable(n: &Node, inv: &[InvState]) -> bool {
    n.threads.iter().any(|&t| inv[t].kind.schedulable())
}

fn started(n: &Node, inv: &[InvState]) -> bool {
    n.threads.iter().any(|&t| inv[t].started)
}

fn member_facts(group: &Node, k: usize, inv: &[InvState]) -> MemberFacts {
    let members = &group.children;
    MemberFacts {
        lower_schedulable: members[..k].iter().any(|m| schedulable(m, inv)),
        started: started(&members[k], inv),
        started_above: members[k..].iter().any(|m| started(m, inv)),
    }
}

/// `ok(g)` of liveness.md for a progressing node.
fn ok(node: &Node, progress: &Progress, inv: &[InvState]) -> bool {
    let Some(level) = node.level else {
        return inv[node.threads[0]].kind != EndingKind::Paused;
    };
    let model = progress.at(level);
    let mut any_schedulable = false;
    let mut some_schedulable_ok = false;
    for (k, m) in node.children.iter().enumerate() {
        let facts = member_facts(node, k, inv);
        let sched = schedulable(m, inv);
        let guaranteed =
            model.guarantees(facts.lower_schedulable, facts.started, facts.started_above);
        if !guaranteed && (!sched || some_schedulable_ok) {
            // Neither asked to progress nor needed for rule 3 (yet): skip the recursion.
            any_schedulable |= sched;
            continue;
        }
        let m_ok = ok(m, progress, inv);
        if guaranteed && !m_ok {
            return false;
        }
        any_schedulable |= sched;
        some_schedulable_ok |= sched && m_ok;
    }
    !any_schedulable || some_schedulable_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use EndingKind::*;

    fn st(kind: EndingKind, started: bool) -> InvState {
        InvState { kind, started }
    }

    /// Brute force over progress assignments (rules 1-4 of liveness.md): each group and
    /// invocation is progressing or not.
    fn brute(tree: &Tree, progress: &Progress, inv: &[InvState]) -> bool {
        fn nodes<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
            out.push(n);
            for c in &n.children {
                nodes(c, out);
            }
        }
        let mut all = Vec::new();
        nodes(&tree.root, &mut all);
        let count = all.len();
        // Index of each node by address.
        let index = |n: &Node| all.iter().position(|m| std::ptr::eq(*m, n)).unwrap();
        'assignments: for mask in 0u32..(1 << count) {
            let prog = |n: &Node| mask & (1 << index(n)) != 0;
            if !prog(&tree.root) {
                continue;
            }
            for n in &all {
                if let Some(level) = n.level {
                    let model = progress.at(level);
                    let mut sched_member = false;
                    let mut sched_progressing = false;
                    for (k, c) in n.children.iter().enumerate() {
                        // Rule 1.
                        if prog(c) && !prog(n) {
                            continue 'assignments;
                        }
                        let f = member_facts(n, k, inv);
                        // Rule 2.
                        if prog(n)
                            && model.guarantees(f.lower_schedulable, f.started, f.started_above)
                            && !prog(c)
                        {
                            continue 'assignments;
                        }
                        let s = schedulable(c, inv);
                        sched_member |= s;
                        sched_progressing |= s && prog(c);
                    }
                    // Rule 3.
                    if prog(n) && sched_member && !sched_progressing {
                        continue 'assignments;
                    }
                } else if prog(n) && inv[n.threads[0]].kind == Paused {
                    // Rule 4.
                    continue 'assignments;
                }
            }
            return true;
        }
        false
    }

    fn all_states(threads: usize) -> Vec<Vec<InvState>> {
        let one = [
            st(Terminated, false),
            st(Terminated, true),
            st(Spinning, true),
            st(Repeating, true),
            st(Blocked, true),
            st(Paused, false),
            st(Paused, true),
        ];
        let mut out = vec![Vec::new()];
        for _ in 0..threads {
            out = out
                .into_iter()
                .flat_map(|v| {
                    one.iter().map(move |s| {
                        let mut w = v.clone();
                        w.push(*s);
                        w
                    })
                })
                .collect();
        }
        out
    }

    fn trees() -> Vec<Tree> {
        vec![
            // Three workgroups of one invocation.
            Tree::new(&[(0, 0, 0), (0, 1, 0), (0, 2, 0)]),
            // Two subgroups of one workgroup, and another workgroup.
            Tree::new(&[(0, 0, 0), (0, 0, 1), (0, 1, 0)]),
            // Three invocations of one subgroup.
            Tree::new(&[(0, 0, 0), (0, 0, 0), (0, 0, 0)]),
            // Two queue families; ids not in thread order.
            Tree::new(&[(1, 0, 0), (0, 3, 0), (0, 2, 0)]),
        ]
    }

    #[test]
    fn the_recursion_equals_the_rules_on_every_ending_and_model() {
        let mut progresses: Vec<Progress> = ProgressModel::ALL
            .into_iter()
            .map(Progress::uniform)
            .collect();
        progresses.push(Progress::parse("wg=obe,inv=hsa").unwrap());
        progresses.push(Progress::parse("qf=hsa,sg=lobe,default=unfair").unwrap());
        for tree in trees() {
            for inv in all_states(3) {
                for p in &progresses {
                    assert_eq!(
                        tree.accepts(p, &inv),
                        brute(&tree, p, &inv),
                        "{p} {inv:?} {tree:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn accepted_sets_grow_along_fair_lobe_hsa_obe_then_hsa_or_obe_then_unfair() {
        use ProgressModel as M;
        let chains = [
            [M::Fair, M::Lobe, M::HsaObe, M::Hsa, M::Unfair],
            [M::Fair, M::Lobe, M::HsaObe, M::Obe, M::Unfair],
        ];
        let mut strict = std::collections::BTreeSet::new();
        for tree in trees() {
            for inv in all_states(3) {
                for chain in &chains {
                    for w in chain.windows(2) {
                        let (a, b) = (Progress::uniform(w[0]), Progress::uniform(w[1]));
                        let (x, y) = (tree.accepts(&a, &inv), tree.accepts(&b, &inv));
                        assert!(!x || y, "{} accepts and {} not: {inv:?}", w[0], w[1]);
                        if y && !x {
                            strict.insert((w[0], w[1]));
                        }
                    }
                }
            }
        }
        // Every step of the chains is strict somewhere.
        assert_eq!(strict.len(), 6, "{strict:?}");
    }

    #[test]
    fn the_worked_examples_endings() {
        // spin-flag-lo: P0 (wg 0) writes, P1 (wg 1) spins.
        let tree = Tree::new(&[(0, 0, 0), (0, 1, 0)]);
        let p0_unstarted = [st(Paused, false), st(Spinning, true)];
        let accepts = |m: &str, inv: &[InvState]| tree.accepts(&Progress::parse(m).unwrap(), inv);
        assert!(!accepts("fair", &p0_unstarted));
        assert!(!accepts("hsa", &p0_unstarted));
        assert!(accepts("obe", &p0_unstarted));
        assert!(!accepts("hsa_obe", &p0_unstarted));
        assert!(!accepts("lobe", &p0_unstarted));
        assert!(accepts("unfair", &p0_unstarted));
        assert!(accepts("wg=obe", &p0_unstarted));
        assert!(!accepts("inv=obe", &p0_unstarted));
        // spin-flag-hi: P0 spins, P1 paused unstarted.
        let hi = [st(Spinning, true), st(Paused, false)];
        for m in ["hsa", "obe", "hsa_obe", "lobe", "unfair"] {
            assert!(accepts(m, &hi), "{m}");
        }
        assert!(!accepts("fair", &hi));
        // Nobody schedulable (cbar-skipped): every model accepts.
        let blocked = [st(Blocked, true), st(Terminated, true)];
        for m in ProgressModel::ALL {
            assert!(tree.accepts(&Progress::uniform(m), &blocked));
        }
    }

    #[test]
    fn parsing_and_printing() {
        let p = Progress::parse("wg=obe,inv=hsa").unwrap();
        assert_eq!(
            p.levels,
            [
                ProgressModel::Fair,
                ProgressModel::Obe,
                ProgressModel::Fair,
                ProgressModel::Hsa
            ]
        );
        assert_eq!(p.to_string(), "wg=obe,inv=hsa");
        let q = Progress::parse("wg=OBE, Default=hsa-obe").unwrap();
        assert_eq!(q.to_string(), "wg=obe,default=hsa_obe");
        assert_eq!(Progress::parse(&q.to_string()).unwrap(), q);
        assert_eq!(Progress::parse("Unfair").unwrap().to_string(), "unfair");
        assert_eq!(
            Progress::parse("wg=obe,default=obe").unwrap().to_string(),
            "obe"
        );
        assert_eq!(
            Progress::parse("wx=obe"),
            Err(ProgressError::UnknownLevel("wx".into()))
        );
        assert_eq!(
            Progress::parse("fast"),
            Err(ProgressError::UnknownModel("fast".into()))
        );
        assert_eq!(
            Progress::parse("wg=obe,wg=hsa"),
            Err(ProgressError::Repeated("wg".into()))
        );
        assert!(matches!(
            Progress::parse("obe,hsa"),
            Err(ProgressError::Malformed(_))
        ));
    }

    /// Dat3M's `QF=OBE` means vkherd's `wg=obe`: an upper-case level is refused with
    /// vkherd's spelling of the whole value, never read as vkherd's `qf` (issue 33).
    #[test]
    fn dat3m_levels_are_refused_with_their_vkherd_spelling() {
        let equivalent = |text: &str| match Progress::parse(text) {
            Err(ProgressError::Dat3m { equivalent, .. }) => equivalent,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(equivalent("QF=OBE").as_deref(), Some("wg=obe"));
        assert_eq!(
            equivalent("DV=hsa, WG=OBE, SG=unfair").as_deref(),
            Some("qf=hsa,sg=obe,inv=unfair")
        );
        assert_eq!(
            equivalent("QF=OBE,default=fair").as_deref(),
            Some("wg=obe,default=fair")
        );
        assert_eq!(equivalent("INV=obe"), None);
        assert_eq!(equivalent("Wg=obe"), None);
        let e = Progress::parse("QF=OBE").unwrap_err().to_string();
        assert!(e.contains("`QF=OBE` is Dat3M's spelling"), "{e}");
        assert!(e.contains("expected `wg=obe`"), "{e}");
        // Models are read in any case: a uniform `OBE` means the same in both.
        assert_eq!(
            Progress::parse("OBE"),
            Ok(Progress::uniform(ProgressModel::Obe))
        );
    }
}
