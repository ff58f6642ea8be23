//! The well-formedness rules on an instruction's attribute tokens, shared by both formats
//! (litmus-format.md "Rules that are errors"; Alloy facts `ACQ in ((R&A)+F)`,
//! `REL in ((W&A)+F)`, `F in (ACQ+REL)`, `SEMAV in REL`, `SEMVIS in ACQ`,
//! `ACQ+REL = SEMSC0+SEMSC1`, `A+F+CBAR in SCOPE*`, `SC0+SC1 = R+W`).

use crate::ast::MemAttrs;

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

/// Checks the attribute rules; the error says what is wrong and what was expected.
pub fn check_attrs(kind: AccessKind, a: &MemAttrs) -> Result<(), String> {
    use AccessKind::*;
    let what = kind.name();
    let is_access = matches!(kind, Load | Store | Rmw);
    if kind == Rmw && !a.atomic {
        return Err("a read-modify-write must be atomic: expected `.atom`".into());
    }
    if a.atomic && !is_access {
        return Err(format!(
            "`atom` on a {what}: only loads, stores and RMWs are atomic"
        ));
    }
    if a.acq && (kind == Store) {
        return Err("acquire on a store: expected `rel` (or no semantics) on a store".into());
    }
    if a.rel && kind == Load {
        return Err("release on a load: expected `acq` (or no semantics) on a load".into());
    }
    if (a.acq || a.rel) && is_access && !a.atomic {
        return Err(format!(
            "acquire/release on a non-atomic {what}: expected `.atom` with `acq`/`rel`"
        ));
    }
    if kind == Membar && !(a.acq || a.rel) {
        return Err(
            "a memory barrier without semantics: expected `acq`, `rel` or `acq_rel`".into(),
        );
    }
    if a.semav && !a.rel {
        return Err("`semav` without release: expected `rel` or `acq_rel` with `semav`".into());
    }
    if a.semvis && !a.acq {
        return Err("`semvis` without acquire: expected `acq` or `acq_rel` with `semvis`".into());
    }
    if (a.acq || a.rel) && a.semsc == 0 {
        return Err(
            "acquire/release without storage-class semantics: expected at least one `semscN`"
                .into(),
        );
    }
    if a.semsc != 0 && !(a.acq || a.rel) {
        return Err("`semscN` without acquire/release: expected `acq`, `rel` or `acq_rel`".into());
    }
    if a.scope.is_none() && (a.atomic || !is_access) {
        return Err(format!(
            "{} without a scope: expected one of sg, wg, qf, dv",
            if a.atomic {
                "an atomic".to_string()
            } else {
                format!("a {what}")
            }
        ));
    }
    if is_access && a.storage_class.is_none() {
        return Err(format!(
            "a {what} without a storage class: expected `sc0`..`sc3`"
        ));
    }
    if !is_access && a.storage_class.is_some() {
        return Err(format!(
            "a storage class on a {what}: barriers take `semscN`, not `scN`"
        ));
    }
    if a.av && kind == Load {
        return Err("`av` on a load: per-instruction availability is for stores (`st.av`)".into());
    }
    if a.vis && kind == Store {
        return Err("`vis` on a store: per-instruction visibility is for loads (`ld.vis`)".into());
    }
    if (a.av || a.vis || a.nonpriv) && !is_access {
        return Err(format!(
            "`av`/`vis`/`nonpriv` on a {what}: they apply to memory accesses"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Scope;

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

    #[test]
    fn rejects_each_broken_rule() {
        let rel_load = MemAttrs {
            rel: true,
            semsc: 1,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Load, &rel_load)
            .unwrap_err()
            .contains("release on a load"));
        let acq_store = MemAttrs {
            acq: true,
            semsc: 1,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Store, &acq_store)
            .unwrap_err()
            .contains("acquire on a store"));
        let semav = MemAttrs {
            acq: true,
            semsc: 1,
            semav: true,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Load, &semav)
            .unwrap_err()
            .contains("semav"));
        let nosem = MemAttrs {
            acq: true,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Load, &nosem)
            .unwrap_err()
            .contains("semscN"));
        let noscope = MemAttrs {
            scope: None,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Load, &noscope)
            .unwrap_err()
            .contains("scope"));
        let nosc = MemAttrs {
            storage_class: None,
            ..atomic(Scope::Device)
        };
        assert!(check_attrs(AccessKind::Store, &nosc)
            .unwrap_err()
            .contains("storage class"));
        let bare_membar = MemAttrs {
            scope: Some(Scope::Device),
            ..Default::default()
        };
        assert!(check_attrs(AccessKind::Membar, &bare_membar).is_err());
    }
}
