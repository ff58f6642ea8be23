//! The command line's clap types and their value parsers: what the user can ask for.
//! Nothing here runs a test; the commands (`crate::cmd`) read these types.

mod argv;
mod generate;
mod graph;
mod herd7_options;
mod model;
mod observe;
mod run;
mod serve;
pub mod show;

pub use generate::{DistinguishArgs, DiyArgs, TableArgs};
pub use graph::GraphArgs;
pub use model::{CommonArgs, ModelArgs, ThreadArgs};
pub use observe::ObserveArgs;
pub use run::{ExplainRunArgs, LimitArgs, RunArgs};
pub use serve::ServeArgs;

use clap::{CommandFactory, Parser, Subcommand};
use std::path::PathBuf;

/// The command line, parsed: herd7's spellings rewritten first ([`argv::normalize`]).
/// `Err` holds clap's error (help and version are errors to clap) or a herd7 option
/// vkherd lacks.
pub fn parse() -> Result<Cli, ParseError> {
    let args = argv::normalize(&Cli::command(), std::env::args_os().collect())
        .map_err(ParseError::Unsupported)?;
    Cli::try_parse_from(args).map_err(ParseError::Clap)
}

/// Why the command line was not parsed.
pub enum ParseError {
    /// A herd7 option vkherd lacks, with what to use instead.
    Unsupported(herd7_options::Unsupported),
    /// clap's error, or the help or version asked for.
    Clap(clap::Error),
}

#[derive(Parser, Debug)]
#[command(
    name = "vkherd",
    version = vkherd::VERSION,
    about = "Which outcomes of a Vulkan litmus test does the Vulkan memory model allow?",
    after_help = "herd7 spellings work too: every long option takes one dash (-unroll 3, -model vulkan-2024), and options may come before a subcommand (vkherd -j 1 khronos DIR). Exit codes: 0 complete, 1 a khronos check failed, 2 bad input, 3 partial (a limit stopped a test), 4 partial but every verdict settled by the states found, 5 bounded-empty (no execution within --unroll). See docs/cli.md.",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `.litmus` files, or directories (every `.litmus` below them, sorted).
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print herd7's `Time NAME SECONDS` line after each test.
    #[arg(long)]
    pub time: bool,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print candidates explored, pruned, consistent and time to stderr after each test.
    #[arg(long)]
    pub stats: bool,
    /// Run the K-th of N deterministic parts (K = 1..N): of the test's search for one test,
    /// of the tests for several. `vkherd merge` puts the parts' --json output back together.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Text in herd7's exact log format, for msum7/mcompare7: state lines without the
    /// `# racy` / `# thin-air` marks, and a `Time` line per test.
    #[arg(long)]
    pub herd7_log: bool,
    #[command(flatten)]
    pub graphs: GraphArgs,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, as in 2/8; got `{s}`");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run Khronos reference `.test` files and compare with their expectations.
    Khronos {
        /// `.test` files or directories.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        common: CommonArgs,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Print member N of a generated benchmark family (iriw, sb-ring, mp-chain,
    /// writes-readers, xf-barrier, spinlock, ticket, rmw-chain) as a `.litmus` test.
    Gen {
        /// The family.
        #[arg(value_parser = vkherd::families::FAMILIES.to_vec())]
        family: String,
        /// Its size parameter.
        n: usize,
    },
    /// Explain a final state: for a forbidden one, every candidate execution reaching it,
    /// grouped by reason, with the first check of the model it fails and a shortest cycle
    /// (or pair) breaking it; for an allowed one, a witness execution (docs/explain.md).
    Explain {
        /// The `.litmus` test.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The state to explain, herd-style (`1:r0=1; 1:r1=0;`; a partial state matches
        /// every state with those values) [default: the states the condition asks about].
        #[arg(long, value_name = "STATE")]
        state: Option<String>,
        #[command(flatten)]
        common: CommonArgs,
        #[command(flatten)]
        graphs: GraphArgs,
        #[command(flatten)]
        run: ExplainRunArgs,
    },
    /// List the bundled models, one line each.
    Models,
    /// Run tests under two models and report the states one allows and the other forbids,
    /// and the tests whose verdict changes.
    Diff {
        /// The first model (NAME|FILE; `+VARIANT` suffixes add variants, e.g. `vulkan+no-chains`).
        model_a: String,
        /// The second model.
        model_b: String,
        /// `.litmus` files or directories.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// One JSON object per test that differs, and a summary object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        threads: ThreadArgs,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Benchmark enumeration: median time over repeated runs, candidates, candidates/s.
    Bench {
        /// `.litmus` files or directories.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// Runs per test (the median is reported).
        #[arg(long, value_name = "N", default_value_t = 5)]
        runs: usize,
        #[command(flatten)]
        common: CommonArgs,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Write an HTML report of a run: one self-contained page with every test's verdict,
    /// states, race flag, time, witness graphs and explanations of forbidden states, and a
    /// sortable summary table (docs/report.md).
    Report {
        /// `.litmus` and Khronos `.test` files, or directories (every such file below them).
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// The HTML file to write.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Leave the times out of the page, so that two runs give the same bytes.
        #[arg(long)]
        no_times: bool,
        /// Leave out the witness graphs and the explanations of forbidden states (faster).
        #[arg(long)]
        no_graphs: bool,
        /// Most candidate executions examined to explain one test's forbidden states
        /// (a plain enumeration of those reaching them); past it, no explanation.
        #[arg(long, value_name = "N", default_value_t = vkherd::explain::REPORT_EXPLAIN_CANDIDATES)]
        explain_candidates: u64,
        /// Relations to draw in the witness graphs besides po, rf, asmo and fr: names of
        /// the model's definitions, comma-separated (`--show hb,sw`; herd7: `-doshow`).
        #[arg(long, value_name = "REL,...", value_delimiter = ',', alias = "doshow")]
        show: Vec<String>,
        #[command(flatten)]
        model: ModelArgs,
        #[command(flatten)]
        threads: ThreadArgs,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Merge the --json output of the shards of a run (--shard K/N) into the run's reports.
    Merge {
        /// Files of JSON lines from every shard, in any order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// JSON lines instead of herd-style text.
        #[arg(long)]
        json: bool,
    },
    /// Compare two logs of runs (text or `--json`), test by test: verdict changes, states
    /// gained and lost, time ratio.
    Compare {
        /// The earlier log.
        old: PathBuf,
        /// The later log.
        new: PathBuf,
        /// One JSON object per test that differs, and a summary object.
        #[arg(long)]
        json: bool,
    },
    /// Generate the test a cycle of relaxations stands for (diy7's edges with Vulkan or
    /// OpenCL annotations), or with --all the family of its annotated variants
    /// (docs/generate.md).
    Diy(DiyArgs),
    /// Find the smallest programs (by events, then invocations) of a bounded space on
    /// which two models allow different final states, each with the state and why the
    /// other model forbids it (docs/generate.md).
    Distinguish(DistinguishArgs),
    /// Run the tests of a family written by `vkherd diy --all -o DIR` and print its table
    /// of verdicts (allowed, racy, forbidden per variant).
    Table(TableArgs),
    /// Run tests on a Vulkan device: per final state, how often it was observed and
    /// whether the model allows it; a forbidden state observed exits with 6 (docs/observe.md).
    Observe(ObserveArgs),
    /// Serve a playground page and a JSON API on HTTP: edit or pick a test, run it, see
    /// its states, graphs and explanations, share a link (docs/serve.md).
    Serve(ServeArgs),
    /// Print a shell completion script (e.g. `vkherd completions bash > /etc/bash_completion.d/vkherd`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `vkherd man > vkherd.1; man ./vkherd.1`.
    Man,
}
