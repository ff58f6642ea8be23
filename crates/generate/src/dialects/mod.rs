//! What the generators know of each dialect they write tests in, behind one interface
//! ([`GenDialect`]), one file per dialect, and the table that registers them: the only
//! generator code that names a dialect. Shared generator code asks the interface (and the
//! dialect's [`vkherd_model::Dialect`] descriptor, for what the rest of vkherd knows too:
//! its name, title and scope levels), never which dialect it has.
//!
//! A dialect the rest of vkherd reads but the generators do not write (no entry here) is
//! refused by [`for_dialect`] with a message that says so.

mod opencl;
mod vulkan;

use super::alphabet::Sem;
use super::ann::{FenceKind, Order, Scope, Word};
use super::error::{ErrorKind, GenError};
use super::test::Test;
use vkherd_model::Dialect;

/// The dialects the generators write, the default first.
static WRITTEN: &[&dyn GenDialect] = &[&vulkan::Vulkan, &opencl::OpenCl];

/// What the generators need of a dialect: its words, the alphabets drawn from it, the
/// rules its tests keep, and its syntax. Placement words come from the descriptor's
/// scope levels ([`super::ann::Level::word`]).
pub trait GenDialect: Sync {
    /// The dialect as the rest of vkherd knows it.
    fn dialect(&self) -> &'static Dialect;

    /// The word for a placement (and a scope) wider than every scope level: different
    /// queue families (`dv`), different devices (`all`).
    fn root_word(&self) -> &'static str;

    /// The scopes it writes, narrowest first.
    fn scopes(&self) -> &'static [Scope];

    /// The scope of an atomic or a fence that says none.
    fn default_scope(&self) -> Scope;

    /// The semantics words its alphabets may hold.
    fn sems(&self) -> &'static [Sem];

    /// The semantics words of `diy --all`'s alphabet (and `distinguish`'s).
    fn family_sems(&self) -> &'static [Sem];

    /// The scopes of `diy --all`'s alphabet.
    fn family_scopes(&self) -> &'static [Scope];

    /// Classifies an annotation word of its own (the scopes, `na`/`plain`, `atom`,
    /// `rlx`, `acq`, `rel`, `acq_rel` and `nosem` are every dialect's).
    fn word(&self, text: &str) -> Option<Word>;

    /// Its access annotation words, for error messages.
    fn vocabulary(&self) -> &'static str;

    /// Its fence and barrier words, for error messages.
    fn fence_vocabulary(&self) -> &'static str;

    /// The word of a memory barrier (`membar`, `fence`) or control barrier (`cbar`,
    /// `barrier`).
    fn fence_word(&self, kind: FenceKind) -> &'static str;

    /// The word of storage class `class` (`sc1`, `local`).
    fn storage_word(&self, class: u8) -> String;

    /// Do storage words on a fence name the memory it orders (OpenCL's fence flags)?
    fn storage_on_fences(&self) -> bool;

    /// The storage classes of an access's semantics: `said` (`semscN` words) or its
    /// default for an access that does (`synchronises`) or does not acquire or release,
    /// to a location of class `storage`; or why the words do not fit.
    fn access_classes(
        &self,
        said: Option<u8>,
        synchronises: bool,
        storage: u8,
    ) -> Result<u8, String>;

    /// Its own rules on a fence or barrier (`order` `None`: a barrier without semantics;
    /// `said`: the storage classes written on it).
    fn check_fence(
        &self,
        kind: FenceKind,
        order: Option<Order>,
        said: Option<u8>,
    ) -> Result<(), String>;

    /// Its own rules on a whole generated test.
    fn check(&self, _test: &Test) -> Result<(), GenError> {
        Ok(())
    }

    /// The test as a `.litmus` file of this dialect.
    fn write(&self, test: &Test) -> String;
}

impl PartialEq for dyn GenDialect {
    fn eq(&self, other: &dyn GenDialect) -> bool {
        self.dialect() == other.dialect()
    }
}

impl Eq for dyn GenDialect {}

impl std::fmt::Debug for dyn GenDialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GenDialect({})", self.dialect().name)
    }
}

/// The generators' side of `d`, if they write its tests.
pub fn of(d: &Dialect) -> Option<&'static dyn GenDialect> {
    WRITTEN.iter().copied().find(|g| g.dialect() == d)
}

/// The generators' side of `d`, or an error that says they do not write its tests.
pub fn for_dialect(d: &Dialect) -> Result<&'static dyn GenDialect, GenError> {
    of(d).ok_or_else(|| {
        let written: Vec<&str> = WRITTEN.iter().map(|g| g.dialect().title).collect();
        GenError::new(
            ErrorKind::Dialect,
            format!(
                "the generators do not write {} tests; they write {} tests",
                d.title,
                written.join(" and ")
            ),
        )
    })
}

/// The generators' side of the dialect named `name` (`vulkan`), if they write it.
pub fn by_name(name: &str) -> Option<&'static dyn GenDialect> {
    vkherd_dialects::by_name(name).and_then(of)
}

/// The dialect generated tests are in unless said: the registry's default.
pub fn default() -> &'static dyn GenDialect {
    of(vkherd_dialects::ALL[0]).expect("the generators write the default dialect")
}

/// Every dialect the generators write.
pub fn all() -> impl Iterator<Item = &'static dyn GenDialect> {
    WRITTEN.iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    static UNWRITTEN: Dialect = Dialect {
        name: "unwritten",
        title: "Unwritten",
        header: "UNWRITTEN",
        a_test: "an Unwritten test",
        claims: |_| false,
        load: |_| unreachable!(),
        levels: &[],
        invocation: "thread",
        root: "system",
        barrier_level: 0,
        bases: &[],
        lacks: &[],
        models: &[],
        model_files: &[],
        ordered_writes: |_| unreachable!(),
        asmo_shape: vkherd_model::AsmoShape::ExactPairs,
        ordered_write: |_| false,
        barrier_agreement: vkherd_model::Flags(0),
        barrier_arrive: vkherd_model::Flags::NONE,
        barrier_wait: vkherd_model::BarrierWait::Program,
        runs_on_device: false,
        translations: &[],
        dat3m: vkherd_model::Dat3mView::NONE,
    };

    #[test]
    fn a_dialect_the_generators_do_not_write_is_refused_by_name() {
        let e = for_dialect(&UNWRITTEN).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Dialect);
        assert!(e.message.contains("do not write Unwritten tests"), "{e}");
        assert!(of(&UNWRITTEN).is_none());
    }

    #[test]
    fn every_registered_dialect_the_generators_write_is_found_and_has_their_levels() {
        for d in vkherd_dialects::ALL {
            if let Some(g) = of(d) {
                assert_eq!(g.dialect(), *d);
                assert_eq!(by_name(d.name).map(|g| g.dialect()), Some(*d));
                // The generators' placements below the root are the descriptor's levels.
                assert_eq!(d.levels.len(), 3, "{}", d.name);
            }
        }
        assert_eq!(all().count(), WRITTEN.len());
        assert_eq!(default().dialect(), vkherd_dialects::ALL[0]);
    }
}
