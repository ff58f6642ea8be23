//! Test generators (docs/generate.md): `vkherd diy`, a test per cycle of relaxations in
//! diy7's vocabulary with each dialect's annotations, and families of its annotated
//! variants; `vkherd distinguish`, the smallest tests on which two models differ. The
//! models themselves are vkherd's: a search asks them through [`search::Model`].
//!
//! - [`cycle`]: the cycle grammar; [`ann`]: the annotation words and their defaults;
//! - [`build`]: cycle to [`test::Test`] (invocations, locations, values, condition);
//! - [`place`]: where invocations sit; [`names`]: systematic names;
//! - [`dialects`]: what the generators know of each dialect ([`GenDialect`]: words,
//!   alphabets, rules, syntax), one file each, and their registration;
//! - [`emit`]: `.litmus` text, the parts every dialect's writer shares; [`canon`]:
//!   canonical forms;
//! - [`dress`]: a shape dressed with annotations, its test and name;
//! - [`family`]: the annotated variants of a cycle ([`alphabet`]: what they range over);
//!   [`index`]: their index;
//! - [`space`] and [`search`]: the bounded program space and the distinguishing search.

pub mod alphabet;
pub mod ann;
pub mod build;
pub mod canon;
pub mod cycle;
pub mod dialects;
pub mod dress;
pub mod emit;
pub mod error;
pub mod family;
pub mod index;
pub mod names;
pub mod place;
pub mod search;
pub mod space;
pub mod test;

pub use dialects::GenDialect;
pub use error::{ErrorKind, GenError};

/// The test a cycle stands for, with the annotations it gives and defaults for the rest.
pub fn diy(cycle_text: &str, dialect: &'static dyn GenDialect) -> Result<test::Test, GenError> {
    let shape = build::Shape::new(cycle::parse(cycle_text, dialect)?)?;
    let choice = shape.defaults()?;
    let test = shape.test(&choice);
    check_loads(&test)?;
    Ok(test)
}

/// A generated test must read back: past the parser's limits (64 invocations, 1024
/// locations, ...) it is refused, saying which limit.
pub fn check_loads(test: &test::Test) -> Result<(), GenError> {
    vkherd_dialects::load(&emit::text(test)).map(|_| ()).map_err(|d| {
        GenError::new(
            ErrorKind::TooMany,
            format!(
                "the test of this cycle is not one vkherd can read: {} (docs/errors.md lists the limits)",
                d.message
            ),
        )
    })
}
