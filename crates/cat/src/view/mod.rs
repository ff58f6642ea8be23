//! Dat3M's event view: how Dat3M's own cat models (third_party/dat3m/models) see an
//! execution, so that they run unchanged (docs/models.md, "Dat3M's event view").
//!
//! Dat3M's executions differ from vkherd's in three ways: the initial value of each
//! location is a write event (`IW`), first in `co`; `co` is a base relation, a strict
//! total order on each location's writes, atomic or not; and an atomic read-modify-write
//! is two events, a read and a write joined by `amo` (Dat3M's stdlib.cat: `rmw = amo |
//! lxsx`), adjacent in program order. A model that names a base only this view has
//! ([`view_bases`]: `IW`, `co`, `rmw`'s `amo`, Dat3M's scope tags, ...) is compiled in
//! the view once, at compile time ([`crate::Model::dat3m_view`]): every base name then
//! means its value on the view's events ([`events::View`]), Dat3M's stdlib.cat is
//! included first as Dat3M does, and the enumerator orders every pair of writes to a
//! location ([`crate::Model::ordered_writes`]), so that its `asmo` is the view's `co`
//! without the initial writes.

pub mod events;

use crate::base::{kind_of, Base, BaseName, Kind, Stage};
use std::sync::LazyLock;
use vkherd_model::DialectBase;

/// Dat3M's stdlib.cat, unchanged: Dat3M includes it in every model, so the view does.
pub const DAT3M_STDLIB: (&str, &str) = (
    "dat3m/stdlib.cat",
    include_str!("../../../../third_party/dat3m/models/stdlib.cat"),
);

/// What a view base is, beyond its name and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewValue {
    /// The initial writes, one per location (`IW`).
    Init,
    /// Dat3M's coherence order: per location, the initial write first, then the
    /// enumerated order of the location's writes (`co`, per asmo).
    Co,
    /// Memory events, `R | W` (`M`).
    Memory,
    /// Same location, the initial write included (`loc`).
    Loc,
    /// Same reference (`vloc`).
    Vloc,
    /// Same thread (`int`).
    Int,
    /// Not the same thread (`ext`).
    Ext,
    /// From the read half of each read-modify-write to its write half (`amo`).
    Amo,
    /// Load-exclusive/store-exclusive pairs: none in GPU tests (`lxsx`).
    Nothing,
    /// Both halves of each read-modify-write (`RMW`).
    Rmw,
    /// Atomic accesses (`ATOM`).
    Atomic,
    /// Events of undefined behaviour: none here (`UB`).
    NoEvents,
    /// The same dynamic barrier instance (`syncbar`).
    Syncbar,
    /// A dialect's value, by the test's dialect's [`vkherd_model::Dat3mView::bases`].
    Dialect,
}

/// A base name of the view.
pub struct ViewBase {
    pub base: Base,
    pub value: ViewValue,
}

/// The view's own names: (name, type, value, doc).
const SHARED: &[(&str, Kind, ViewValue, &str)] = &[
    (
        "IW",
        Kind::Set,
        ViewValue::Init,
        "the initial writes, one per location",
    ),
    (
        "co",
        Kind::Rel,
        ViewValue::Co,
        "coherence: per location, its initial write, then the enumerated order of its writes",
    ),
    ("M", Kind::Set, ViewValue::Memory, "memory events, R | W"),
    (
        "loc",
        Kind::Rel,
        ViewValue::Loc,
        "same location (initial writes included)",
    ),
    (
        "vloc",
        Kind::Rel,
        ViewValue::Vloc,
        "same reference (Vulkan's sref)",
    ),
    ("int", Kind::Rel, ViewValue::Int, "same thread"),
    ("ext", Kind::Rel, ViewValue::Ext, "not the same thread"),
    (
        "amo",
        Kind::Rel,
        ViewValue::Amo,
        "from the read half of each atomic read-modify-write to its write half",
    ),
    (
        "lxsx",
        Kind::Rel,
        ViewValue::Nothing,
        "load-exclusive/store-exclusive pairs: none",
    ),
    (
        "RMW",
        Kind::Set,
        ViewValue::Rmw,
        "both halves of each atomic read-modify-write",
    ),
    ("ATOM", Kind::Set, ViewValue::Atomic, "atomic accesses"),
    (
        "UB",
        Kind::Set,
        ViewValue::NoEvents,
        "events of undefined behaviour: none",
    ),
    (
        "syncbar",
        Kind::Rel,
        ViewValue::Syncbar,
        "same dynamic instance of a control barrier (scbarinst)",
    ),
];

/// Every base name only the view has: its own, then each dialect's
/// ([`vkherd_model::Dat3mView::bases`], a name several dialects give being one base whose
/// value each test's dialect computes). Indexed by [`BaseName::View`].
pub fn view_bases() -> &'static [ViewBase] {
    static TABLE: LazyLock<Vec<ViewBase>> = LazyLock::new(|| {
        let mut table: Vec<ViewBase> = Vec::new();
        let id = |table: &Vec<ViewBase>| BaseName::View(table.len() as u16);
        for &(name, kind, value, doc) in SHARED {
            let stage = match value {
                ViewValue::Co => Stage::Asmo,
                _ => Stage::Static,
            };
            let base = Base {
                id: id(&table),
                name,
                kind,
                stage,
                doc,
            };
            table.push(ViewBase { base, value });
        }
        for d in vkherd_dialects::ALL {
            for b in d.dat3m.bases {
                let kind = kind_of(b.value);
                match table.iter().find(|t| t.base.name == b.name) {
                    Some(t) => assert_eq!(t.base.kind, kind, "dialects disagree on `{}`", b.name),
                    None => {
                        let stage = Stage::Static;
                        let base = Base {
                            id: id(&table),
                            name: b.name,
                            kind,
                            stage,
                            doc: b.doc,
                        };
                        table.push(ViewBase {
                            base,
                            value: ViewValue::Dialect,
                        });
                    }
                }
            }
        }
        table
    });
    &TABLE
}

/// The view base written `name`, if the view has one of that name.
pub fn lookup(name: &str) -> Option<BaseName> {
    view_bases()
        .iter()
        .find(|b| b.base.name == name)
        .map(|b| b.base.id)
}

/// The view base `b`'s entry (`b` is a [`BaseName::View`]).
pub fn entry(b: BaseName) -> Option<&'static ViewBase> {
    match b {
        BaseName::View(i) => view_bases().get(i as usize),
        _ => None,
    }
}

/// The Dat3M name `name` of `dialect`, if it has one.
pub fn dialect_name(dialect: &vkherd_model::Dialect, name: &str) -> Option<&'static DialectBase> {
    dialect.dat3m.bases.iter().find(|b| b.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each view base is found by its name, with its own id, and no view name is a
    /// shared or dialect base name (those keep their names and get view values).
    #[test]
    fn each_view_name_is_its_entry_and_new() {
        for b in view_bases() {
            assert_eq!(lookup(b.base.name), Some(b.base.id));
            assert_eq!(b.base.id.name(), b.base.name);
            assert_eq!(crate::base::lookup(b.base.name), None, "{}", b.base.name);
        }
        assert_eq!(BaseName::View(1).stage(), Stage::Asmo, "co is per asmo");
        for name in ["IW", "co", "amo", "syncbar", "DV", "NAL", "GLOBAL", "sdv"] {
            assert!(lookup(name).is_some(), "{name}");
        }
    }
}
