//! The model a run judges with (`--model`, `--variant`, `--no-chains`), `--json` and `-j`.

use clap::Args;
use vkherd::models::{ModelChoice, ModelError};

#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// One JSON object per test (one per line) instead of herd-style text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
}

/// The model a run judges with, shared by the main form, `khronos`, `bench` and `report`.
#[derive(Args, Debug, Clone)]
pub struct ModelArgs {
    /// The model: vulkan, vulkan-2024 (vulkan.cat on the cat engine), hand:vulkan,
    /// hand:vulkan-2024 (the hand-written engine), opencl, cat:NAME (a bundled cat model)
    /// or a .cat file (`vkherd models` lists them) [default: vulkan, opencl for OPENCL
    /// tests]
    #[arg(long, value_name = "NAME|FILE")]
    model: Option<String>,
    /// Turn on a variant of a cat model (`if "NAME"`); repeatable.
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Model variant "no chains": availability/visibility chains of one element only
    /// (Alloy `chains = stor[EV]`), as in the Khronos NOCHAINS checks. A weaker model, not
    /// a limitation of vkherd (the same as `--variant no-chains`).
    #[arg(long)]
    no_chains: bool,
}

/// `-j N`.
#[derive(Args, Debug, Clone)]
pub struct ThreadArgs {
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long = "threads", value_name = "N")]
    threads: Option<usize>,
}

impl CommonArgs {
    pub fn model(&self) -> Result<ModelChoice, ModelError> {
        self.model.model()
    }

    pub fn init_threads(&self) {
        self.threads.init_threads()
    }
}

impl ModelArgs {
    pub fn model(&self) -> Result<ModelChoice, ModelError> {
        self.model_forcing_no_chains(false)
    }

    /// The model, without availability/visibility chains also when `no_chains` (a
    /// device without `vulkanMemoryModelAvailabilityVisibilityChains`, `vkherd observe`).
    pub fn model_forcing_no_chains(&self, no_chains: bool) -> Result<ModelChoice, ModelError> {
        let no_chains = self.no_chains || no_chains;
        match self.model.as_deref() {
            Some(name) => vkherd::models::resolve(name, &self.variants, no_chains),
            None => vkherd::models::by_dialect(&self.variants, no_chains),
        }
    }
}

impl ThreadArgs {
    pub fn init_threads(&self) {
        if let Some(n) = self.threads {
            // Only fails if the pool was already built; then the default stands.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global();
        }
    }
}
