//! The dialects vkherd reads, one folder each, and their registration
//! (docs/architecture.md, "Adding a dialect"): shared code asks a [`Dialect`] value, never
//! a dialect's name.

pub mod opencl;
pub mod ptx;
pub mod vulkan;

use vkherd_litmus::Diagnostic;
pub use vkherd_model::Dialect;
use vkherd_model::Program;

/// Every dialect, the default (Vulkan) first.
pub static ALL: &[&Dialect] = &[&vulkan::VULKAN, &opencl::OPENCL, &ptx::PTX];

/// The dialect a `.litmus` source claims by its header word; the default one when none
/// does (its parser then says which header it expected).
pub fn of(source: &str) -> &'static Dialect {
    ALL.iter()
        .copied()
        .find(|d| (d.claims)(source))
        .unwrap_or(ALL[0])
}

/// Parses and lowers a `.litmus` source in the dialect its header names.
pub fn load(source: &str) -> Result<Program, Diagnostic> {
    (of(source).load)(source)
}

/// The dialect named `name` (`vulkan`, `opencl`).
pub fn by_name(name: &str) -> Option<&'static Dialect> {
    ALL.iter().copied().find(|d| d.name == name)
}

/// The translation of `from`'s programs into `to`'s that some dialect registers
/// ([`Dialect::translations`]), if any.
pub fn translation(from: &Dialect, to: &Dialect) -> Option<&'static vkherd_model::Translation> {
    ALL.iter()
        .flat_map(|d| d.translations.iter())
        .find(|t| t.from == from.name && t.to == to.name)
}
