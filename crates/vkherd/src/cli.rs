//! Command-line parsing and dispatch.

use crate::dir_walk::Found;
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use vkherd::models::ModelChoice;
use vkherd::Options;

/// Exit codes (documented in docs/cli.md).
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_BAD_INPUT: i32 = 2;
pub const EXIT_PARTIAL: i32 = 3;
/// Stopped early, but every stopped test's verdict is settled: only state lists are partial.
pub const EXIT_PARTIAL_VERDICT_FINAL: i32 = 4;
/// Some test has no execution within `--unroll` (`States 0` only because of the bound).
pub const EXIT_BOUNDED_EMPTY: i32 = 5;

/// The exit code of a run from the codes of its tests: bad input wins, then a partial
/// result with an open verdict, a failed check, a bounded-empty result, and a partial
/// list of states under a final verdict.
pub fn combine_status(a: i32, b: i32) -> i32 {
    let rank = |c: i32| match c {
        EXIT_BAD_INPUT => 5,
        EXIT_PARTIAL => 4,
        EXIT_FAIL => 3,
        EXIT_BOUNDED_EMPTY => 2,
        EXIT_PARTIAL_VERDICT_FINAL => 1,
        _ => 0,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The exit code of one test's report.
pub fn report_status(rep: &vkherd::Report) -> i32 {
    // A liveness search stopped by a limit leaves its answer open: the run is partial
    // even when the safety report is complete (docs/liveness.md).
    let liveness_stopped = rep
        .liveness
        .as_ref()
        .is_some_and(|l| l.result.stopped.is_some());
    if liveness_stopped && rep.stats.stopped.is_none() {
        return EXIT_PARTIAL;
    }
    match (rep.stats.stopped.is_some(), rep.verdict_final()) {
        (false, _) if rep.bounded_empty => EXIT_BOUNDED_EMPTY,
        (false, _) => EXIT_OK,
        (true, true) => EXIT_PARTIAL_VERDICT_FINAL,
        (true, false) => EXIT_PARTIAL,
    }
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
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `.litmus` files, or directories (every `.litmus` below them, sorted).
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    common: CommonArgs,
    /// Print herd7's `Time NAME SECONDS` line after each test.
    #[arg(long)]
    time: bool,
    #[command(flatten)]
    run: RunArgs,
    /// Print candidates explored, pruned, consistent and time to stderr after each test.
    #[arg(long)]
    stats: bool,
    /// Run the K-th of N deterministic parts (K = 1..N): of the test's search for one test,
    /// of the tests for several. `vkherd merge` puts the parts' --json output back together.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Text in herd7's exact log format, for msum7/mcompare7: state lines without the
    /// `# racy` / `# thin-air` marks, and a `Time` line per test.
    #[arg(long)]
    herd7_log: bool,
    #[command(flatten)]
    graphs: GraphArgs,
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

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Bound on loops: a backward jump is taken at most N times on a path.
    #[arg(long, value_name = "N", default_value_t = 2)]
    unroll: u32,
    /// Leave out executions whose values come out of thin air.
    #[arg(long)]
    no_thin_air: bool,
    #[command(flatten)]
    limits: LimitArgs,
    /// Plain generate-and-test enumeration instead of the pruned search (for reference).
    #[arg(long)]
    naive: bool,
    /// herd7's -speedcheck: `true` keeps only the executions that matter to the condition
    /// (validate exists/~exists, refute forall); `fast` also stops once the verdict is
    /// settled and lists no states; `false` keeps all.
    #[arg(long, value_name = "MODE", default_value = "false", value_parser = speedcheck_parser())]
    speedcheck: vkherd::Speedcheck,
    /// Only the set of allowed states (with exact racy/thin-air marks): counts and the
    /// data-race flag are not reported, and known states are not enumerated again.
    #[arg(long)]
    states_only: bool,
    #[command(flatten)]
    pub liveness: LivenessArgs,
}

/// `--liveness` and `--progress` (docs/liveness.md).
#[derive(Args, Debug, Clone, Default)]
pub struct LivenessArgs {
    /// Also answer whether some invocation can loop or wait forever under the progress
    /// model (`Liveness: violation|ok|unknown` after the report; docs/liveness.md).
    #[arg(long)]
    liveness: bool,
    /// The progress model for --liveness (implies it): fair (default), hsa, obe, hsa_obe,
    /// lobe or unfair, or per level: qf=MODEL,wg=MODEL,sg=MODEL,inv=MODEL[,default=MODEL].
    // A short value name: a long one would switch clap's help to the two-line layout for
    // every option, changing the help of commands that have nothing to do with liveness.
    #[arg(long, value_name = "MODEL", value_parser = parse_progress)]
    progress: Option<vkherd::liveness::Progress>,
}

impl LivenessArgs {
    /// The progress model to check liveness under, if asked.
    pub fn progress(&self) -> Option<vkherd::liveness::Progress> {
        self.progress
            .or(self.liveness.then(vkherd::liveness::Progress::default))
    }
}

fn parse_progress(s: &str) -> Result<vkherd::liveness::Progress, vkherd::liveness::ProgressError> {
    vkherd::liveness::Progress::parse(s)
}

/// `--speedcheck MODE`: herd7's words for the modes.
fn speedcheck_parser() -> impl clap::builder::TypedValueParser<Value = vkherd::Speedcheck> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["false", "true", "fast"]).map(|mode| {
        match mode.as_str() {
            "true" => vkherd::Speedcheck::True,
            "fast" => vkherd::Speedcheck::Fast,
            _ => vkherd::Speedcheck::Off,
        }
    })
}

/// The default `--max-candidates` of every command that runs tests (`explain` too).
pub const DEFAULT_MAX_CANDIDATES: u64 = 1_000_000_000;
/// The default `--timeout`, in seconds, of every command that runs tests (`explain` too).
pub const DEFAULT_TIMEOUT: f64 = 3600.0;

/// Limits on one run, shared by the main form, `khronos` and `bench`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Stop a test after N candidates; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CANDIDATES)]
    max_candidates: u64,
    /// Stop a test after SECS seconds; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT)]
    timeout: f64,
}

impl LimitArgs {
    pub fn max_candidates(&self) -> Option<u64> {
        (self.max_candidates > 0).then_some(self.max_candidates)
    }

    pub fn timeout(&self) -> Option<std::time::Duration> {
        (self.timeout > 0.0 && self.timeout.is_finite())
            .then(|| std::time::Duration::from_secs_f64(self.timeout.min(1e9)))
    }
}

/// Graphviz output, shared by the main form and `explain`.
#[derive(Args, Debug, Clone, Default)]
pub struct GraphArgs {
    /// Print the executions shown as one Graphviz DOT graph on stdout instead of the report,
    /// several as clusters of it (main form: a witness per state; explain: the executions
    /// explained).
    #[arg(long)]
    pub dot: bool,
    /// Write one DOT file per execution shown into DIR, and SVG beside it when Graphviz's
    /// `dot` is installed (herd7: `-o DIR`).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub graph: Option<PathBuf>,
    /// Relations to draw besides po, rf, asmo and fr: names of the model's definitions,
    /// comma-separated (`--show hb,sw`; herd7: `-doshow`); an unknown name is an error.
    #[arg(long, value_name = "REL,...", value_delimiter = ',', alias = "doshow")]
    pub show: Vec<String>,
}

impl GraphArgs {
    /// herd7's `-graph` takes a layout (`cluster`, `free`, `columns`); here `--graph`
    /// takes a directory. A layout name that is not an existing directory is most likely
    /// a herd7 habit: say so rather than create a directory called `cluster`.
    pub fn check(&self) -> Result<(), String> {
        match &self.graph {
            Some(dir)
                if ["cluster", "free", "columns"].contains(&dir.to_string_lossy().as_ref())
                    && !dir.is_dir() =>
            {
                Err(format!(
                    "error: --graph takes a directory to write graphs into (herd7's `-o DIR`), and `{}` looks like herd7's -graph layout; vkherd has one layout (clusters by scope): give a directory, e.g. --graph graphs/",
                    dir.display()
                ))
            }
            _ => Ok(()),
        }
    }
}

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

#[derive(Subcommand, Debug)]
enum Command {
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
        /// Bound on loops: a backward jump is taken at most N times on a path.
        #[arg(long, value_name = "N", default_value_t = 2)]
        unroll: u32,
        /// Leave out executions whose values come out of thin air.
        #[arg(long)]
        no_thin_air: bool,
        /// Examine at most N candidate executions (every candidate is enumerated, pruning
        /// hides the inconsistent ones); past it, no explanation and exit code 3 (0 = no
        /// limit; the main form's default).
        #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CANDIDATES)]
        max_candidates: u64,
        /// Stop after SECS seconds, with no explanation and exit code 3 (0 = no limit; the
        /// main form's default).
        #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT)]
        timeout: f64,
        /// Explain the liveness verdict instead of a state: the witness, or why the
        /// progress model rules out the witnesses of weaker ones.
        #[command(flatten)]
        liveness: LivenessArgs,
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
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long = "threads", value_name = "N")]
        threads: Option<usize>,
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
    Diy(crate::diy_cmd::DiyArgs),
    /// Find the smallest programs (by events, then invocations) of a bounded space on
    /// which two models allow different final states, each with the state and why the
    /// other model forbids it (docs/generate.md).
    Distinguish(crate::distinguish_cmd::DistinguishArgs),
    /// Run the tests of a family written by `vkherd diy --all -o DIR` and print its table
    /// of verdicts (allowed, racy, forbidden per variant).
    Table(crate::table_cmd::TableArgs),
    /// Run tests on a Vulkan device: per final state, how often it was observed and
    /// whether the model allows it; a forbidden state observed exits with 6 (docs/observe.md).
    Observe(crate::observe_cmd::ObserveArgs),
    /// Print a shell completion script (e.g. `vkherd completions bash > /etc/bash_completion.d/vkherd`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `vkherd man > vkherd.1; man ./vkherd.1`.
    Man,
}

impl RunArgs {
    pub fn options(&self, model: &ModelChoice) -> Options {
        Options {
            model: model.clone(),
            unroll: self.unroll,
            no_thin_air: self.no_thin_air,
            max_candidates: self.limits.max_candidates(),
            timeout: self.limits.timeout(),
            naive: self.naive,
            progress: None,
            speedcheck: self.speedcheck,
            states_only: self.states_only,
            shard: None,
            liveness: self.liveness.progress(),
        }
    }
}

impl CommonArgs {
    pub fn model(&self) -> Result<ModelChoice, String> {
        self.model.model()
    }

    pub fn init_threads(&self) {
        self.threads.init_threads()
    }
}

impl ModelArgs {
    pub fn model(&self) -> Result<ModelChoice, String> {
        self.model_forcing_no_chains(false)
    }

    /// The model, without availability/visibility chains also when `no_chains` (a
    /// device without `vulkanMemoryModelAvailabilityVisibilityChains`, `vkherd observe`).
    pub fn model_forcing_no_chains(&self, no_chains: bool) -> Result<ModelChoice, String> {
        let no_chains = self.no_chains || no_chains;
        match self.model.as_deref() {
            Some(name) => vkherd::models::resolve(name, &self.variants, no_chains),
            None => vkherd::models::by_dialect(&self.variants, no_chains),
        }
        .map_err(|e| e.to_string())
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

/// Files to run: the files given, and every file with `ext` below the directories given,
/// sorted by path.
pub fn collect_files(paths: &[PathBuf], ext: &str) -> Result<Vec<PathBuf>, String> {
    collect(paths, ext, true)
}

/// [`collect_files`]; `warn`: print the walk's warnings (symbolic link cycles).
fn collect(paths: &[PathBuf], ext: &str, warn: bool) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            let mut unreadable = None;
            crate::dir_walk::walk(p, &[ext], warn, &mut |f| match f {
                Found::File(path) => found.push(path),
                Found::Unreadable(dir, e) => {
                    unreadable.get_or_insert((dir, e));
                }
            });
            if let Some((dir, e)) = unreadable {
                return Err(format!(
                    "error: cannot read directory {}: {e}",
                    dir.display()
                ));
            }
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("error: no such file or directory: {}", p.display()));
        }
    }
    Ok(out)
}

/// Files to run, or the message for a run that would test nothing: no `ext` file below the
/// directories given, or files of the other kind (`.test` given to the main command,
/// `.litmus` given to `khronos`).
pub fn files_to_run(paths: &[PathBuf], kind: TestKind) -> Result<Vec<PathBuf>, String> {
    // Both dialects: each `.litmus` test runs its dialect's model unless --model is given.
    let files = collect_files(paths, kind.ext())?;
    let other = kind.other();
    let misplaced: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == other.ext()))
        .collect();
    if let Some(f) = misplaced.first() {
        return Err(format!(
            "error: {} is a {}; {}: run `{}`",
            f.display(),
            other.what(),
            kind.command(),
            other.invocation(&misplaced)
        ));
    }
    if files.is_empty() {
        // Only for the hint: the walk's warnings were printed already.
        let others = collect(paths, other.ext(), false).unwrap_or_default();
        let hint = if others.is_empty() {
            String::new()
        } else {
            format!(
                "; found {}: run `{}`",
                vkherd::report::plural(others.len() as u64, &format!(".{} file", other.ext())),
                other.invocation(&paths.iter().collect::<Vec<_>>())
            )
        };
        return Err(format!(
            "error: no .{} file in {}: nothing to test{hint}",
            kind.ext(),
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    Ok(files)
}

/// The two kinds of test file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    /// `.litmus`, run by `vkherd FILE`.
    Litmus,
    /// Khronos `.test`, run by `vkherd khronos FILE`.
    Khronos,
}

impl TestKind {
    fn ext(self) -> &'static str {
        match self {
            TestKind::Litmus => "litmus",
            TestKind::Khronos => "test",
        }
    }

    fn other(self) -> TestKind {
        match self {
            TestKind::Litmus => TestKind::Khronos,
            TestKind::Khronos => TestKind::Litmus,
        }
    }

    fn what(self) -> &'static str {
        match self {
            TestKind::Litmus => "`.litmus` test",
            TestKind::Khronos => "Khronos `.test` file",
        }
    }

    fn command(self) -> &'static str {
        match self {
            TestKind::Litmus => "the main command runs `.litmus` tests",
            TestKind::Khronos => "`vkherd khronos` runs Khronos `.test` files",
        }
    }

    fn invocation(self, paths: &[&PathBuf]) -> String {
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        match self {
            TestKind::Litmus => format!("vkherd {}", list.join(" ")),
            TestKind::Khronos => format!("vkherd khronos {}", list.join(" ")),
        }
    }
}

pub fn main() -> i32 {
    let args = match crate::argv::normalize(&Cli::command(), std::env::args_os().collect()) {
        Ok(args) => args,
        Err(unsupported) => {
            eprintln!("{unsupported}");
            return EXIT_BAD_INPUT;
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
        }
    };
    match &cli.command {
        Some(Command::Khronos {
            paths,
            common,
            limits,
        }) => {
            common.init_threads();
            match common.model() {
                Ok(m) => crate::khronos_cmd::run(paths, &m, common, limits),
                Err(e) => bad_model(&e),
            }
        }
        Some(Command::Explain {
            file,
            state,
            common,
            graphs,
            unroll,
            no_thin_air,
            max_candidates,
            timeout,
            liveness,
        }) => {
            common.init_threads();
            let model = match common.model() {
                Ok(m) => m,
                Err(e) => return bad_model(&e),
            };
            let limits = LimitArgs {
                max_candidates: *max_candidates,
                timeout: *timeout,
            };
            if let Err(e) = graphs.check() {
                eprintln!("{e}");
                return EXIT_BAD_INPUT;
            }
            let opts = Options {
                model: model.clone(),
                unroll: *unroll,
                no_thin_air: *no_thin_air,
                max_candidates: limits.max_candidates(),
                timeout: limits.timeout(),
                liveness: liveness.progress(),
                ..Options::default()
            };
            if opts.liveness.is_some() {
                return crate::explain_cmd::run_liveness(file, &opts, common.json);
            }
            crate::explain_cmd::run(
                file,
                state.as_deref(),
                &opts,
                crate::explain_cmd::Output {
                    json: common.json,
                    dot: graphs.dot,
                    graph: graphs.graph.as_deref(),
                    show: &graphs.show,
                },
            )
        }
        Some(Command::Models) => {
            for (name, doc) in vkherd::models::list() {
                outln!("{name:<20} {doc}");
            }
            EXIT_OK
        }
        Some(Command::Diff {
            model_a,
            model_b,
            paths,
            json,
            threads,
            run,
        }) => {
            if let Some(n) = threads {
                let _ = rayon::ThreadPoolBuilder::new()
                    .num_threads((*n).max(1))
                    .build_global();
            }
            crate::diff_cmd::run(model_a, model_b, paths, run, *json)
        }
        Some(Command::Gen { family, n }) => match vkherd::families::generate(family, *n) {
            Ok(text) => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                EXIT_OK
            }
            Err(message) => {
                eprintln!("error: {message}");
                EXIT_BAD_INPUT
            }
        },
        Some(Command::Bench {
            paths,
            runs,
            common,
            run,
        }) => {
            common.init_threads();
            match common.model() {
                Ok(m) => crate::bench_cmd::run(paths, *runs, &run.options(&m), common.json),
                Err(e) => bad_model(&e),
            }
        }
        Some(Command::Compare { old, new, json }) => crate::compare_cmd::run(old, new, *json),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "vkherd", &mut out);
            let _ = std::io::stdout().write_all(&out);
            EXIT_OK
        }
        Some(Command::Man) => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    let _ = std::io::stdout().write_all(&out);
                    EXIT_OK
                }
                Err(e) => {
                    eprintln!("error: cannot render the man page: {e}");
                    EXIT_FAIL
                }
            }
        }
        Some(Command::Report {
            paths,
            output,
            no_times,
            no_graphs,
            explain_candidates,
            show,
            model,
            threads,
            run,
        }) => {
            threads.init_threads();
            match model.model() {
                Ok(m) => {
                    let show = crate::report_cmd::Show {
                        times: !*no_times,
                        graphs: !*no_graphs,
                        explain_candidates: *explain_candidates,
                        relations: show.clone(),
                    };
                    crate::report_cmd::run(paths, output, &run.options(&m), show)
                }
                Err(e) => bad_model(&e),
            }
        }
        Some(Command::Merge { files, json }) => crate::merge_cmd::run(files, *json),
        Some(Command::Diy(args)) => crate::diy_cmd::run(args),
        Some(Command::Distinguish(args)) => crate::distinguish_cmd::run(args),
        Some(Command::Table(args)) => crate::table_cmd::run(args),
        Some(Command::Observe(args)) => crate::observe_cmd::run(args),
        None => {
            cli.common.init_threads();
            let model = match cli.common.model() {
                Ok(m) => m,
                Err(e) => return bad_model(&e),
            };
            if let Err(e) = cli.graphs.check() {
                eprintln!("{e}");
                return EXIT_BAD_INPUT;
            }
            let opts = cli.run.options(&model);
            let drawing = cli.graphs.dot || cli.graphs.graph.is_some();
            if let Err(e) = crate::show_arg::check(&cli.graphs.show, drawing, &opts) {
                eprintln!("{e}");
                return EXIT_BAD_INPUT;
            }
            let output = crate::litmus_cmd::Output {
                json: cli.common.json,
                time: cli.time,
                stats: cli.stats,
                herd7_log: cli.herd7_log,
                shard: cli.shard,
                graphs: cli.graphs.clone(),
            };
            crate::litmus_cmd::run(&cli.paths, opts, output)
        }
    }
}

fn bad_model(e: &str) -> i32 {
    eprint!("{e}");
    if !e.ends_with('\n') {
        eprintln!();
    }
    EXIT_BAD_INPUT
}
