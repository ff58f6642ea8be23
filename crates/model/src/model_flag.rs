//! A flag a model raised (a cat `flag` check), as reports name it.
//!
//! herd7 prints one `Flag NAME` line per flag raised, under the model's own name. vkherd
//! does the same, with one exception the contract fixes (semantics.md, "Output"): the
//! data race of the bundled models is `data-race`, whatever their file calls it. Which
//! flag of a bundled model is that data race is data of its descriptor
//! ([`crate::BundledModel::race_flag`]), never guessed from a name: a user's model that
//! calls a flag `racy` or `data_race` has that flag reported as `racy` or `data_race`,
//! since its meaning is the user's.

use std::fmt;
use std::sync::Arc;

/// A flag of a model. Ordered as reports list them: the data race first, then the
/// other flags by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModelFlag {
    /// The data race of the bundled models (`dr` non-empty, semantics.md "Outcomes").
    DataRace,
    /// Any other flag, under the model's own name.
    Named(Arc<str>),
}

impl ModelFlag {
    /// The word reports print (`Flag data-race`, `Flag undefined-behavior`).
    pub fn name(&self) -> &str {
        match self {
            ModelFlag::DataRace => "data-race",
            ModelFlag::Named(n) => n,
        }
    }
}

impl fmt::Display for ModelFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::ModelFlag;

    #[test]
    fn the_data_race_comes_first_then_names_in_order() {
        let mut flags = [
            ModelFlag::Named("unsequenced_race".into()),
            ModelFlag::Named("data_race".into()),
            ModelFlag::DataRace,
        ];
        flags.sort();
        let names: Vec<&str> = flags.iter().map(ModelFlag::name).collect();
        assert_eq!(names, ["data-race", "data_race", "unsequenced_race"]);
    }
}
