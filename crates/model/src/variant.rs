//! Model variants (semantics.md "Model variants").

/// Which version of the Alloy model's `avvisinc` is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Variant {
    /// Khronos' 2025 alignment with the spec text (one-directional av/vis inclusion).
    #[default]
    Vulkan,
    /// Exactly the seed `spirv.als`.
    Vulkan2024,
}

impl Variant {
    /// The name used by `--model`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Vulkan => "vulkan",
            Variant::Vulkan2024 => "vulkan-2024",
        }
    }

    /// Parses a `--model` name.
    pub fn from_name(s: &str) -> Option<Variant> {
        match s {
            "vulkan" => Some(Variant::Vulkan),
            "vulkan-2024" => Some(Variant::Vulkan2024),
            _ => None,
        }
    }
}

/// The model options that change the axioms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ModelOptions {
    pub variant: Variant,
    /// Availability/visibility chains longer than one element are supported (Alloy
    /// `chains = EV->EV`); false is `--no-chains` (`chains = stor[EV]`).
    pub chains: bool,
    /// The MMRA variant (`--variant mmra`, docs/mmra.md): happens-before keeps only the
    /// program-order pairs whose MMRA tag sets are compatible.
    pub mmra: bool,
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions {
            variant: Variant::Vulkan,
            chains: true,
            mmra: false,
        }
    }
}
