//! vkherd-observe: runs a litmus test on a Vulkan device and counts the final states it
//! produces, for comparison with the states the model allows (docs/observe.md).
//!
//! - [`plan`]: what the test needs and where its invocations and locations go; refuses
//!   what a device cannot express;
//! - [`spirv`]: the compute shader, with the Vulkan memory model;
//! - [`layout`]: the per-iteration random placement of instances and locations;
//! - [`device`]: Vulkan through `ash`, loaded at run time;
//! - [`harness`]: iterations, dispatches, decoding into a [`histogram::Histogram`].

pub mod bindings;
pub mod error;
pub mod plan;
pub mod spirv;

pub use error::{ObserveError, Unsupported};
