//! What a report shows about the test itself: its name, description, condition and state
//! columns. A report carries this header rather than the whole lowered program, so that
//! `merge` can put a report back together from JSON alone.

use vkherd_model::{Dialect, Program, Quantifier};

/// The test a report is of, as the reporters show it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestHeader {
    pub name: String,
    /// As written between the header and the init block (quotes kept).
    pub description: String,
    /// The dialect of the source (`None` for a report `merge` put together: the JSON does
    /// not say).
    pub dialect: Option<&'static Dialect>,
    /// `None` without a condition (every state is listed).
    pub condition: Option<ConditionHeader>,
    /// The names of the state columns (`1:r0`, `x`), in order.
    pub columns: Vec<String>,
}

/// The final condition, as the reports print it.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionHeader {
    pub quantifier: Quantifier,
    /// `(1:r0=1 /\ 1:r1=0)`.
    pub text: String,
}

impl TestHeader {
    /// The header of `program`'s reports.
    pub fn of(program: &Program) -> TestHeader {
        TestHeader {
            name: program.name.clone(),
            description: program.description.clone(),
            dialect: Some(program.dialect),
            condition: program.condition.as_ref().map(|c| ConditionHeader {
                quantifier: c.quantifier,
                text: c.text.clone(),
            }),
            columns: program
                .observed
                .iter()
                .map(|o| program.observable_name(*o))
                .collect(),
        }
    }

    /// The condition's quantifier (`exists` without a condition, as herd7 has it).
    pub fn quantifier(&self) -> Quantifier {
        self.condition
            .as_ref()
            .map_or(Quantifier::Exists, |c| c.quantifier)
    }
}
