//! Systematic test names (docs/generate.md "Names"): the shape's classic name when it has
//! one (MP, SB, ...; matched up to rotation, a fence or dependency counting as program
//! order), else its edges joined by `+`; then, when anything is not the default, one
//! part per invocation with its events' annotations in program order, and the
//! placement.

use super::ann::{Access, Fence, FenceKind, Kind, Level, Mode, Order, Scope};
use super::dialects::GenDialect;

/// The classic shapes diy7 and herd7 name, as cycles of `Pod`/`Pos` and com edges.
const FAMILIES: &[(&str, &str)] = &[
    ("MP", "PodWW Rfe PodRR Fre"),
    ("SB", "PodWR Fre PodWR Fre"),
    ("LB", "PodRW Rfe PodRW Rfe"),
    ("S", "PodWW Rfe PodRW Coe"),
    ("R", "PodWW Coe PodWR Fre"),
    ("2+2W", "PodWW Coe PodWW Coe"),
    ("WRC", "Rfe PodRW Rfe PodRR Fre"),
    ("IRIW", "Rfe PodRR Fre Rfe PodRR Fre"),
    ("ISA2", "PodWW Rfe PodRW Rfe PodRR Fre"),
    ("RWC", "Rfe PodRR Fre PodWR Fre"),
    ("WWC", "Rfe PodRW Rfe PodRW Coe"),
    ("WRR+2W", "Rfe PodRR Fre PodWW Coe"),
    ("WRW+2W", "Rfe PodRW Coe PodWW Coe"),
    ("WRW+WR", "Rfe PodRW Coe PodWR Fre"),
    ("W+RWC", "PodWW Rfe PodRR Fre PodWR Fre"),
    ("Z6.0", "PodWW Rfe PodRW Coe PodWR Fre"),
    ("Z6.1", "PodWW Coe PodWW Rfe PodRW Coe"),
    ("Z6.2", "PodWW Rfe PodRW Rfe PodRW Coe"),
    ("Z6.3", "PodWW Coe PodWW Rfe PodRR Fre"),
    ("3.SB", "PodWR Fre PodWR Fre PodWR Fre"),
    ("3.LB", "PodRW Rfe PodRW Rfe PodRW Rfe"),
    ("3.2W", "PodWW Coe PodWW Coe PodWW Coe"),
    ("CoRR", "Rfe PosRR Fre"),
    ("CoRW", "Rfe PosRW Coe"),
];

/// The classic name of a cycle given by its edge names (each already made `Pod..` or
/// `Pos..` when it is a fence or dependency), if it has one.
pub fn family(skeleton: &[String]) -> Option<&'static str> {
    let n = skeleton.len();
    FAMILIES.iter().find_map(|(name, edges)| {
        let known: Vec<&str> = edges.split(' ').collect();
        (known.len() == n && (0..n).any(|r| (0..n).all(|i| skeleton[(i + r) % n] == known[i])))
            .then_some(*name)
    })
}

/// The short name of an access annotation: `rlx` for a relaxed atomic at the default
/// scope, else its words (`rel.wg`, `acq.semvis`, `av.dv`, `na`), with the storage class
/// when it is not the first and `with_storage`. The words read back as the same
/// annotation.
pub fn access_code(
    kind: Kind,
    a: &Access,
    storage: u8,
    dialect: &dyn GenDialect,
    with_storage: bool,
) -> String {
    let mut t: Vec<String> = Vec::new();
    match a.mode {
        Mode::Plain => t.push("na".into()),
        Mode::NonPriv => t.push("nonpriv".into()),
        Mode::AvVis => t.push(if kind == Kind::R { "vis" } else { "av" }.into()),
        Mode::Atomic => t.push(a.order.word().into()),
    }
    let default_scope = match a.mode {
        Mode::Atomic => Some(dialect.default_scope()),
        _ => None,
    };
    if a.scope.is_some() && a.scope != default_scope {
        t.push(a.scope.map_or("", |s| s.word(dialect)).into());
    }
    // The storage classes its semantics cover unless said.
    let own = dialect
        .access_classes(None, a.order != Order::Relaxed, storage)
        .unwrap_or(0);
    if a.semsc != own {
        t.push(semsc_words(a.semsc));
    }
    if a.semav {
        t.push("semav".into());
    }
    if a.semvis {
        t.push("semvis".into());
    }
    if storage != 0 && with_storage {
        t.push(dialect.storage_word(storage));
    }
    t.join(".")
}

/// `semsc0.semsc1` for storage classes 0 and 1.
fn semsc_words(b: u8) -> String {
    (0..4)
        .filter(|k| b & (1 << k) != 0)
        .map(|k| format!("semsc{k}"))
        .collect::<Vec<_>>()
        .join(".")
}

/// The short name of a fence or barrier: `F` (a memory barrier) or `B` (a control
/// barrier), then its words that are not the default.
pub fn fence_code(f: &Fence, dialect: &dyn GenDialect, classes: u8) -> String {
    let mut t: Vec<String> = vec![match f.kind {
        FenceKind::Membar => "F",
        FenceKind::Cbar => "B",
    }
    .into()];
    match f.order {
        None => t.push("nosem".into()),
        Some(Order::AcqRel) => {}
        Some(o) => t.push(o.word().into()),
    }
    let default_scope = match f.kind {
        FenceKind::Membar => dialect.default_scope(),
        FenceKind::Cbar => Scope::Wg,
    };
    if f.scope != default_scope {
        t.push(f.scope.word(dialect).into());
    }
    if f.order.is_some() && f.semsc != classes.max(1) {
        t.push(semsc_words(f.semsc));
    }
    if f.semav {
        t.push("semav".into());
    }
    if f.semvis {
        t.push("semvis".into());
    }
    t.join(".")
}

/// `@wg` when every external edge has one level other than the default, `@wg.qf.qf` when
/// they differ (in ring order), nothing for the default.
pub fn placement_code(levels: &[Level], dialect: &dyn GenDialect) -> String {
    if levels.iter().all(|&l| l == Level::DEFAULT) {
        return String::new();
    }
    if levels.windows(2).all(|w| w[0] == w[1]) {
        return format!("@{}", levels[0].word(dialect));
    }
    let words: Vec<&str> = levels.iter().map(|l| l.word(dialect)).collect();
    format!("@{}", words.join("."))
}
