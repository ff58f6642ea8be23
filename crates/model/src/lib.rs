//! The Vulkan memory model: the program model both input formats lower to, a relation
//! algebra on bit matrices, and the axioms of the Khronos Alloy model (`spirv.als`),
//! transcribed definition by definition.

pub mod addresses;
pub mod axioms;
pub mod dialect;
pub mod execution;
pub mod flags;
pub mod lowering;
pub mod model_flag;
pub mod program;
pub mod rel;
pub mod set;
pub mod translation;
pub mod variant;

pub use axioms::Derived;
pub use dialect::{
    AsmoShape, BarrierWait, BaseValue, BundledModel, Dat3mView, DepKind, Dialect, DialectBase,
    LackedBase, ScopeLevel,
};
pub use execution::{Event, StaticRel, StaticSet, Statics};
pub use flags::{Flags, FLAG_NAMES};
pub use model_flag::ModelFlag;
pub use program::*;
pub use rel::Rel;
pub use set::EventSet;
pub use translation::{Step, Translated, Translation};
pub use variant::{ModelOptions, Variant};
pub use vkherd_litmus::{ArithOp, CmpOp, Operand, Span};
