//! The dialects vkherd reads, one folder each (docs/architecture.md, "Adding a dialect").

pub mod opencl;
pub mod vulkan;
