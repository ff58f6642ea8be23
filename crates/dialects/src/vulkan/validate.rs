//! The well-formedness rules on an instruction's attribute tokens, shared by both formats
//! (litmus-format.md "Rules that are errors"; Alloy facts `ACQ in ((R&A)+F)`,
//! `REL in ((W&A)+F)`, `F in (ACQ+REL)`, `SEMAV in REL`, `SEMVIS in ACQ`,
//! `ACQ+REL = SEMSC0+SEMSC1`, `A+F+CBAR in SCOPE*`, `SC0+SC1 = R+W`).

use crate::vulkan::ast::MemAttrs;

/// What kind of instruction the attributes belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    Rmw,
    Membar,
    Cbar,
}

impl AccessKind {
    fn name(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Rmw => "read-modify-write",
            AccessKind::Membar => "memory barrier",
            AccessKind::Cbar => "control barrier",
        }
    }
}

/// A broken attribute rule: what a caller reads to classify the error. `Display` (and
/// [`AttrError::message`]) say what is wrong and what was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrError {
    /// An RMW without `atom`.
    RmwNotAtomic,
    /// `atom` on a barrier.
    AtomicBarrier(AccessKind),
    /// `acq` on a store.
    AcquireOnStore,
    /// `rel` on a load.
    ReleaseOnLoad,
    /// `acq`/`rel` on a non-atomic access.
    OrderedNonAtomic(AccessKind),
    /// A memory barrier with neither `acq` nor `rel`.
    MembarWithoutSemantics,
    /// `semav` without `rel`.
    SemavWithoutRelease,
    /// `semvis` without `acq`.
    SemvisWithoutAcquire,
    /// `acq`/`rel` without any `semscN`.
    OrderWithoutStorageClassSemantics,
    /// `semscN` without `acq`/`rel`.
    SemscWithoutOrder,
    /// An atomic (`atomic`) or a barrier without a scope.
    NoScope { kind: AccessKind, atomic: bool },
    /// An access without a storage class.
    NoStorageClass(AccessKind),
    /// A storage class on a barrier.
    StorageClassOnBarrier(AccessKind),
    /// `av` on a load.
    AvOnLoad,
    /// `vis` on a store.
    VisOnStore,
    /// `av`, `vis` or `nonpriv` on a barrier.
    AvVisOnBarrier(AccessKind),
}

/// The tokens an error message names: `.litmus`'s (`acq_rel`, `wg`) or the Khronos
/// `.test` format's (`acq.rel`, `scopewg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vocabulary {
    Litmus,
    Khronos,
}

impl AttrError {
    /// The message in the tokens of `vocabulary`.
    pub fn message(&self, vocabulary: Vocabulary) -> String {
        use AttrError::*;
        let khronos = vocabulary == Vocabulary::Khronos;
        let scopes = if khronos {
            "scopesg, scopewg, scopeqf, scopedev"
        } else {
            "sg, wg, qf, dv"
        };
        let acq_rel = if khronos { "acq.rel" } else { "acq_rel" };
        let atom = if khronos { "`atom`" } else { "`.atom`" };
        match *self {
            RmwNotAtomic => format!("a read-modify-write must be atomic: expected {atom}"),
            AtomicBarrier(kind) => format!(
                "`atom` on a {}: only loads, stores and RMWs are atomic",
                kind.name()
            ),
            AcquireOnStore => {
                "acquire on a store: expected `rel` (or no semantics) on a store".into()
            }
            ReleaseOnLoad => "release on a load: expected `acq` (or no semantics) on a load".into(),
            OrderedNonAtomic(kind) => format!(
                "acquire/release on a non-atomic {}: expected {atom} with `acq`/`rel`",
                kind.name()
            ),
            MembarWithoutSemantics => {
                format!("a memory barrier without semantics: expected `acq`, `rel` or `{acq_rel}`")
            }
            SemavWithoutRelease => {
                format!("`semav` without release: expected `rel` or `{acq_rel}` with `semav`")
            }
            SemvisWithoutAcquire => {
                format!("`semvis` without acquire: expected `acq` or `{acq_rel}` with `semvis`")
            }
            OrderWithoutStorageClassSemantics => {
                "acquire/release without storage-class semantics: expected at least one `semscN`"
                    .into()
            }
            SemscWithoutOrder => {
                format!("`semscN` without acquire/release: expected `acq`, `rel` or `{acq_rel}`")
            }
            NoScope { kind, atomic } => format!(
                "{} without a scope: expected one of {scopes}",
                if atomic {
                    "an atomic".to_string()
                } else {
                    format!("a {}", kind.name())
                }
            ),
            NoStorageClass(kind) => format!(
                "a {} without a storage class: expected `sc0`..`sc3`",
                kind.name()
            ),
            StorageClassOnBarrier(kind) => format!(
                "a storage class on a {}: barriers take `semscN`, not `scN`",
                kind.name()
            ),
            AvOnLoad => {
                "`av` on a load: per-instruction availability is for stores (`st.av`)".into()
            }
            VisOnStore => {
                "`vis` on a store: per-instruction visibility is for loads (`ld.vis`)".into()
            }
            AvVisOnBarrier(kind) => format!(
                "`av`/`vis`/`nonpriv` on a {}: they apply to memory accesses",
                kind.name()
            ),
        }
    }
}

impl std::fmt::Display for AttrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Vocabulary::Litmus))
    }
}

impl std::error::Error for AttrError {}

/// Checks the attribute rules; the first rule broken is the error.
pub fn check_attrs(kind: AccessKind, a: &MemAttrs) -> Result<(), AttrError> {
    use AccessKind::*;
    let is_access = matches!(kind, Load | Store | Rmw);
    let broken = if kind == Rmw && !a.atomic {
        AttrError::RmwNotAtomic
    } else if a.atomic && !is_access {
        AttrError::AtomicBarrier(kind)
    } else if a.acq && kind == Store {
        AttrError::AcquireOnStore
    } else if a.rel && kind == Load {
        AttrError::ReleaseOnLoad
    } else if (a.acq || a.rel) && is_access && !a.atomic {
        AttrError::OrderedNonAtomic(kind)
    } else if kind == Membar && !(a.acq || a.rel) {
        AttrError::MembarWithoutSemantics
    } else if a.semav && !a.rel {
        AttrError::SemavWithoutRelease
    } else if a.semvis && !a.acq {
        AttrError::SemvisWithoutAcquire
    } else if (a.acq || a.rel) && a.semsc == 0 {
        AttrError::OrderWithoutStorageClassSemantics
    } else if a.semsc != 0 && !(a.acq || a.rel) {
        AttrError::SemscWithoutOrder
    } else if a.scope.is_none() && (a.atomic || !is_access) {
        AttrError::NoScope {
            kind,
            atomic: a.atomic,
        }
    } else if is_access && a.storage_class.is_none() {
        AttrError::NoStorageClass(kind)
    } else if !is_access && a.storage_class.is_some() {
        AttrError::StorageClassOnBarrier(kind)
    } else if a.av && kind == Load {
        AttrError::AvOnLoad
    } else if a.vis && kind == Store {
        AttrError::VisOnStore
    } else if (a.av || a.vis || a.nonpriv) && !is_access {
        AttrError::AvVisOnBarrier(kind)
    } else {
        return Ok(());
    };
    Err(broken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::ast::Scope;

    fn atomic(scope: Scope) -> MemAttrs {
        MemAttrs {
            atomic: true,
            scope: Some(scope),
            storage_class: Some(0),
            ..Default::default()
        }
    }

    #[test]
    fn accepts_the_canonical_forms() {
        let plain = MemAttrs {
            storage_class: Some(0),
            ..Default::default()
        };
        assert_eq!(check_attrs(AccessKind::Load, &plain), Ok(()));
        let acq = MemAttrs {
            acq: true,
            semsc: 1,
            semvis: true,
            ..atomic(Scope::Workgroup)
        };
        assert_eq!(check_attrs(AccessKind::Load, &acq), Ok(()));
        let fence = MemAttrs {
            rel: true,
            semsc: 3,
            scope: Some(Scope::Device),
            ..Default::default()
        };
        assert_eq!(check_attrs(AccessKind::Membar, &fence), Ok(()));
        let cbar = MemAttrs {
            scope: Some(Scope::Workgroup),
            ..Default::default()
        };
        assert_eq!(check_attrs(AccessKind::Cbar, &cbar), Ok(()));
    }

    /// Every rule: attributes that break it (and no rule checked before it), its kind
    /// and its message.
    #[test]
    fn rejects_each_broken_rule() {
        use AccessKind::*;
        let dv = atomic(Scope::Device);
        let plain = MemAttrs {
            storage_class: Some(0),
            ..Default::default()
        };
        let fence = MemAttrs {
            rel: true,
            semsc: 1,
            scope: Some(Scope::Device),
            ..Default::default()
        };
        let cases: Vec<(AccessKind, MemAttrs, AttrError, &str)> =
            vec![
            (
                Rmw,
                plain.clone(),
                AttrError::RmwNotAtomic,
                "a read-modify-write must be atomic: expected `.atom`",
            ),
            (
                Membar,
                MemAttrs { atomic: true, ..fence.clone() },
                AttrError::AtomicBarrier(Membar),
                "`atom` on a memory barrier: only loads, stores and RMWs are atomic",
            ),
            (
                Store,
                MemAttrs { acq: true, semsc: 1, ..dv.clone() },
                AttrError::AcquireOnStore,
                "acquire on a store: expected `rel` (or no semantics) on a store",
            ),
            (
                Load,
                MemAttrs { rel: true, semsc: 1, ..dv.clone() },
                AttrError::ReleaseOnLoad,
                "release on a load: expected `acq` (or no semantics) on a load",
            ),
            (
                Load,
                MemAttrs { acq: true, semsc: 1, ..plain.clone() },
                AttrError::OrderedNonAtomic(Load),
                "acquire/release on a non-atomic load: expected `.atom` with `acq`/`rel`",
            ),
            (
                Membar,
                MemAttrs { rel: false, ..fence.clone() },
                AttrError::MembarWithoutSemantics,
                "a memory barrier without semantics: expected `acq`, `rel` or `acq_rel`",
            ),
            (
                Load,
                MemAttrs { acq: true, semsc: 1, semav: true, ..dv.clone() },
                AttrError::SemavWithoutRelease,
                "`semav` without release: expected `rel` or `acq_rel` with `semav`",
            ),
            (
                Store,
                MemAttrs { rel: true, semsc: 1, semvis: true, ..dv.clone() },
                AttrError::SemvisWithoutAcquire,
                "`semvis` without acquire: expected `acq` or `acq_rel` with `semvis`",
            ),
            (
                Load,
                MemAttrs { acq: true, ..dv.clone() },
                AttrError::OrderWithoutStorageClassSemantics,
                "acquire/release without storage-class semantics: expected at least one `semscN`",
            ),
            (
                Load,
                MemAttrs { semsc: 1, ..dv.clone() },
                AttrError::SemscWithoutOrder,
                "`semscN` without acquire/release: expected `acq`, `rel` or `acq_rel`",
            ),
            (
                Load,
                MemAttrs { scope: None, ..dv.clone() },
                AttrError::NoScope { kind: Load, atomic: true },
                "an atomic without a scope: expected one of sg, wg, qf, dv",
            ),
            (
                Cbar,
                MemAttrs::default(),
                AttrError::NoScope { kind: Cbar, atomic: false },
                "a control barrier without a scope: expected one of sg, wg, qf, dv",
            ),
            (
                Store,
                MemAttrs { storage_class: None, ..dv.clone() },
                AttrError::NoStorageClass(Store),
                "a store without a storage class: expected `sc0`..`sc3`",
            ),
            (
                Membar,
                MemAttrs { storage_class: Some(1), ..fence.clone() },
                AttrError::StorageClassOnBarrier(Membar),
                "a storage class on a memory barrier: barriers take `semscN`, not `scN`",
            ),
            (
                Load,
                MemAttrs { av: true, ..plain.clone() },
                AttrError::AvOnLoad,
                "`av` on a load: per-instruction availability is for stores (`st.av`)",
            ),
            (
                Store,
                MemAttrs { vis: true, ..plain.clone() },
                AttrError::VisOnStore,
                "`vis` on a store: per-instruction visibility is for loads (`ld.vis`)",
            ),
            (
                Membar,
                MemAttrs { nonpriv: true, ..fence.clone() },
                AttrError::AvVisOnBarrier(Membar),
                "`av`/`vis`/`nonpriv` on a memory barrier: they apply to memory accesses",
            ),
        ];
        for (kind, attrs, error, text) in cases {
            assert_eq!(check_attrs(kind, &attrs), Err(error), "{text}");
            assert_eq!(error.to_string(), text);
        }
    }

    /// The `.test` format's words replace `.litmus`'s, and only those.
    #[test]
    fn khronos_messages_use_khronos_tokens() {
        let k = |e: AttrError| e.message(Vocabulary::Khronos);
        assert_eq!(
            k(AttrError::RmwNotAtomic),
            "a read-modify-write must be atomic: expected `atom`"
        );
        assert_eq!(
            k(AttrError::SemscWithoutOrder),
            "`semscN` without acquire/release: expected `acq`, `rel` or `acq.rel`"
        );
        assert_eq!(
            k(AttrError::NoScope { kind: AccessKind::Cbar, atomic: false }),
            "a control barrier without a scope: expected one of scopesg, scopewg, scopeqf, scopedev"
        );
        assert_eq!(
            k(AttrError::AvOnLoad),
            AttrError::AvOnLoad.to_string(),
            "no Khronos word in it"
        );
    }
}
