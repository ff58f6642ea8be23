//! The flags of the generators: `diy`, `distinguish` and `table` (docs/generate.md).

use super::{ModelArgs, RunArgs, ThreadArgs};
use clap::Args;
use std::path::PathBuf;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::GenError;
use vkherd_model::Dialect;

/// The alphabet flags, shared with `distinguish`.
#[derive(Args, Debug, Clone)]
pub struct AlphabetArgs {
    /// Semantics words to draw from: na, nonpriv, avvis, rlx, relacq, semavvis (Vulkan);
    /// na, rlx, relacq, sc (OpenCL).
    #[arg(long = "semantics", value_name = "WORD,...", value_delimiter = ',')]
    pub semantics: Vec<String>,
    /// Scopes to draw from: sg, wg, qf, dv (Vulkan); wi, sg, wg, dev, all (OpenCL).
    #[arg(long, value_name = "SCOPE,...", value_delimiter = ',')]
    pub scopes: Vec<String>,
    /// Placements of two invocations to draw from: sg (one subgroup), wg (one
    /// workgroup), qf (one queue family), dv (different queue families); OpenCL: sg, wg,
    /// dev (one device), all (different devices).
    #[arg(long, value_name = "LEVEL,...", value_delimiter = ',')]
    pub placements: Vec<String>,
}

impl AlphabetArgs {
    pub fn apply(&self, base: Alphabet) -> Result<Alphabet, GenError> {
        base.with(&self.semantics, &self.scopes, &self.placements)
    }
}

#[derive(Args, Debug)]
pub struct DiyArgs {
    /// The cycle: edges in diy7's vocabulary with annotations (docs/generate.md), as one
    /// argument or several, e.g. 'PodWW [rel.wg] Rfe@wg [acq.wg] PodRR Fre'.
    #[arg(required = true, value_name = "CYCLE")]
    pub cycle: Vec<String>,
    /// The dialect of the test.
    #[arg(long, value_name = "DIALECT", default_value = vkherd_dialects::ALL[0].name, value_parser = dialect_parser())]
    pub dialect: &'static Dialect,
    /// Every annotated variant along --vary (deduplicated up to renaming) instead of one
    /// test.
    #[arg(long)]
    pub all: bool,
    /// With --all: what to vary where the cycle says nothing: placement, scope,
    /// semantics, storage.
    #[arg(long, value_name = "AXIS,...", value_delimiter = ',')]
    pub vary: Vec<String>,
    /// With --all: refuse a family of more variants.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_variants: usize,
    /// Write the test (with --all: every test and index.json) into DIR.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// With --all: run every test and print the table of verdicts.
    #[arg(long)]
    pub run: bool,
    #[command(flatten)]
    pub alphabet: AlphabetArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub limits: RunArgs,
}

#[derive(Args, Debug)]
pub struct DistinguishArgs {
    /// The first model (NAME|FILE; `+VARIANT` suffixes add variants, e.g. `vulkan+no-chains`).
    pub model_a: String,
    /// The second model.
    pub model_b: String,
    /// The dialect of the programs [default: opencl when both models are OpenCL ones,
    /// else vulkan].
    #[arg(long, value_name = "DIALECT", value_parser = dialect_parser())]
    pub dialect: Option<&'static Dialect>,
    /// Invocations per program at most.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub invocations: usize,
    /// Events per invocation at most.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub events: usize,
    /// Events per program at most [default: invocations x events].
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Locations per program at most.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub locations: usize,
    /// Instead of the bounded space, compare the models on the annotated variants of this
    /// cycle (as `vkherd diy --all`; docs/generate.md).
    #[arg(long, value_name = "CYCLE")]
    pub cycle: Option<String>,
    /// With --cycle: what to vary where the cycle says nothing. (The options that only
    /// mean something with --cycle, or only without it, say so to clap: a flag that
    /// would be ignored is a usage error, not a silent no-op.)
    #[arg(
        long,
        value_name = "AXIS,...",
        value_delimiter = ',',
        default_value = "placement,scope,semantics",
        requires = "cycle"
    )]
    pub vary: Vec<String>,
    /// With --cycle: refuse a family of more variants.
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "cycle")]
    pub max_variants: usize,
    /// With --cycle, on a cycle with a barrier edge: vary the accesses and fences too (by
    /// default only its barriers and placements vary).
    #[arg(long, requires = "cycle")]
    pub wide: bool,
    /// Kinds of events: r, w, rmw, fence, cbar (control barriers).
    #[arg(
        long,
        value_name = "KIND,...",
        value_delimiter = ',',
        default_value = "r,w"
    )]
    pub kinds: Vec<String>,
    /// Add control barriers to --kinds (the default space plus barriers: r,w,cbar). Not
    /// with --cycle, whose edges say where its barriers are.
    #[arg(long, conflicts_with = "cycle")]
    pub barriers: bool,
    #[command(flatten)]
    pub alphabet: AlphabetArgs,
    /// Also count a state both models allow when only one allows it race-free.
    #[arg(long)]
    pub races: bool,
    /// Stop after examining N programs (minimality then holds for the sizes completed).
    #[arg(long, value_name = "N")]
    pub max_programs: Option<u64>,
    /// Stop after SECS seconds (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub timeout: f64,
    /// Write each test found into DIR, with its explanation in a comment.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Print at most N of the tests found with their explanations (all are counted and
    /// written with -o).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    #[command(flatten)]
    pub threads: ThreadArgs,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// The family's directory (with the index.json `vkherd diy --all -o DIR` wrote).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `--dialect NAME`: any registered dialect (the generators say which they write).
fn dialect_parser() -> impl clap::builder::TypedValueParser<Value = &'static Dialect> {
    use clap::builder::TypedValueParser;
    let names = vkherd_dialects::ALL.iter().map(|d| d.name);
    clap::builder::PossibleValuesParser::new(names)
        .map(|word| vkherd_dialects::by_name(&word).expect("a registered dialect"))
}
