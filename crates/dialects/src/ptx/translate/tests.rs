//! Hand-checked translations (docs/ptx.md, "Vulkan ↔ PTX mapping").
