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

use crate::base::BaseName;
#[cfg(test)]
use crate::base::Stage;
pub use crate::base::{view_bases, ViewBase, ViewValue};
use vkherd_model::DialectBase;

/// Dat3M's stdlib.cat, unchanged: Dat3M includes it in every model, so the view does.
pub const DAT3M_STDLIB: (&str, &str) = (
    "dat3m/stdlib.cat",
    include_str!("../../../../third_party/dat3m/models/stdlib.cat"),
);

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
