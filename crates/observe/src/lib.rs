//! vkherd-observe: runs a litmus test on a Vulkan device and counts the final states it
//! produces, for comparison with the states the model allows (docs/observe.md).
//!
//! - [`plan`]: what the test needs and where its invocations and locations go; refuses
//!   what a device cannot express;
//! - [`spirv`]: the compute shader, with the Vulkan memory model, checked;
//! - [`layout`]: the per-dispatch random placement of instances and locations;
//! - [`device`]: Vulkan through `ash`, `libvulkan.so.1` loaded at run time;
//! - [`harness`]: iterations and dispatches, decoded into an [`Observation`].

pub mod bindings;
pub mod device;
pub mod error;
pub mod harness;
pub mod histogram;
pub mod layout;
pub mod plan;
pub mod spirv;

pub use device::{DeviceInfo, Vulkan};
pub use error::{ObserveError, Unsupported};
pub use harness::Params;
pub use histogram::{Histogram, Observation};
pub use plan::Plan;
