//! Exhaustive enumeration of the candidate executions of a [`Program`]: bounded paths,
//! barrier meetings, rf and asmo choices and their values, handed one by one to a
//! [`Visitor`] that judges them against the model. Parallel with rayon; the result is
//! independent of the thread count because visitors merge commutatively.
//!
//! [`driver`] runs the whole: every path combination and barrier meeting, each searched
//! ([`search`], or plainly enumerated, [`naive`]) with a [`ctx::Ctx`].

mod budget;
pub mod candidates;
pub mod capture;
mod coherence;
mod columns;
pub mod combine;
mod ctx;
pub mod deps;
mod driver;
pub mod engine;
mod error;
pub mod estimate;
pub mod liveness;
mod naive;
mod options;
pub mod outcomes;
pub mod paths;
mod search;
mod shard;
mod stats;
pub mod values;
mod visitor;
mod witness;

pub use budget::Budget;
pub use combine::{BarrierError, BarrierRule};
pub use driver::{enumerate, enumerate_in};
pub use engine::cat::{bundled_model, CatEngine};
pub use engine::hand::HandEngine;
pub use engine::{
    AnyEngine, Capabilities, CoreTerms, Engine, Judgement, PreparedModel, Shortcuts, Wanted,
};
pub use error::{EnumError, EnumErrorKind};
pub use naive::naive_size;
pub use options::{EnumOptions, RunConfig, Speedcheck, MAX_EVENTS};
pub use outcomes::{collect_outcomes, collect_outcomes_in, Outcomes, StateInfo};
pub use shard::Shard;
pub use stats::{EnumStats, StopReason};
pub use visitor::{CandidateView, Visitor};
pub use vkherd_cat::Model;

#[cfg(doc)]
use vkherd_model::Program;
