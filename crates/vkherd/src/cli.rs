//! Command-line parsing and dispatch.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use vkherd::merge::{self, ShardBy, ShardPlace};
use vkherd::{report, Options, Variant};
use vkherd_model::ModelOptions;

/// Exit codes (documented in docs/cli.md).
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_BAD_INPUT: i32 = 2;
pub const EXIT_PARTIAL: i32 = 3;
/// Stopped early, but every stopped test's verdict is settled: only state lists are partial.
pub const EXIT_PARTIAL_VERDICT_FINAL: i32 = 4;

/// The exit code of a run from the codes of its tests: bad input wins, then a partial
/// result with an open verdict, then a partial list of states under a final verdict.
pub fn combine_status(a: i32, b: i32) -> i32 {
    let rank = |c: i32| match c {
        EXIT_BAD_INPUT => 4,
        EXIT_PARTIAL => 3,
        EXIT_FAIL => 2,
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
    match (rep.stats.stopped.is_some(), rep.verdict_final()) {
        (false, _) => EXIT_OK,
        (true, true) => EXIT_PARTIAL_VERDICT_FINAL,
        (true, false) => EXIT_PARTIAL,
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "vkherd",
    version,
    about = "Which outcomes of a Vulkan litmus test does the Vulkan memory model allow?",
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
    /// Stop a test after N candidates; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_candidates: u64,
    /// Stop a test after SECS seconds; the report is marked partial and the exit code is 3, or
    /// 4 if the states found settle the verdict (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = 3600.0)]
    timeout: f64,
    /// Plain generate-and-test enumeration instead of the pruned search (for reference).
    #[arg(long)]
    naive: bool,
    /// herd7's -speedcheck: `true` keeps only the executions that matter to the condition
    /// (validate exists/~exists, refute forall); `fast` also stops once the verdict is
    /// settled and lists no states; `false` keeps all.
    #[arg(long, value_name = "MODE", default_value = "false", value_parser = ["false", "true", "fast"])]
    speedcheck: String,
    /// Only the set of allowed states (with exact racy/thin-air marks): counts and the
    /// data-race flag are not reported, and known states are not enumerated again.
    #[arg(long)]
    states_only: bool,
}

#[derive(Args, Debug, Clone)]
struct CommonArgs {
    /// Model variant.
    #[arg(long, value_name = "NAME", default_value = "vulkan", value_parser = ["vulkan", "vulkan-2024"])]
    model: String,
    /// Availability/visibility chains longer than one element are not supported.
    #[arg(long)]
    no_chains: bool,
    /// One JSON object per test (one per line) instead of herd-style text.
    #[arg(long)]
    json: bool,
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
    /// Merge the --json output of the shards of a run (--shard K/N) into the run's reports.
    Merge {
        /// Files of JSON lines from every shard, in any order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// JSON lines instead of herd-style text.
        #[arg(long)]
        json: bool,
    },
}

impl RunArgs {
    pub fn options(&self, model: ModelOptions) -> Options {
        Options {
            model,
            unroll: self.unroll,
            no_thin_air: self.no_thin_air,
            max_candidates: (self.max_candidates > 0).then_some(self.max_candidates),
            timeout: (self.timeout > 0.0 && self.timeout.is_finite())
                .then(|| std::time::Duration::from_secs_f64(self.timeout.min(1e9))),
            naive: self.naive,
            progress: None,
            speedcheck: match self.speedcheck.as_str() {
                "true" => vkherd::Speedcheck::True,
                "fast" => vkherd::Speedcheck::Fast,
                _ => vkherd::Speedcheck::Off,
            },
            states_only: self.states_only,
            shard: None,
        }
    }
}

impl CommonArgs {
    fn model(&self) -> ModelOptions {
        ModelOptions {
            variant: Variant::from_name(&self.model).unwrap_or_default(),
            chains: !self.no_chains,
        }
    }

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
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, ext, &mut found)
                .map_err(|e| format!("error: cannot read directory {}: {e}", p.display()))?;
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

fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, ext, out)?;
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    Ok(())
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
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
        Some(Command::Khronos { paths, common }) => {
            common.init_threads();
            crate::khronos_cmd::run(paths, common.model(), common.json)
        }
        Some(Command::Gen { family, n }) => match vkherd::families::generate(family, *n) {
            Some(text) => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                EXIT_OK
            }
            None => EXIT_BAD_INPUT,
        },
        Some(Command::Bench {
            paths,
            runs,
            common,
            run,
        }) => {
            common.init_threads();
            crate::bench_cmd::run(paths, *runs, &run.options(common.model()), common.json)
        }
        Some(Command::Merge { files, json }) => merge_files(files, *json),
        None => {
            cli.common.init_threads();
            run_litmus(&cli)
        }
    }
}

fn run_litmus(cli: &Cli) -> i32 {
    let files = match collect_files(&cli.paths, "litmus") {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut opts = cli.run.options(cli.common.model());
    // One test: shard its search. Several: shard the list of tests.
    let by = if files.len() == 1 {
        ShardBy::Search
    } else {
        ShardBy::Test
    };
    if cli.shard.is_some() && (opts.states_only || opts.speedcheck == vkherd::Speedcheck::Fast) {
        // Their reports have no counts, and the states a shard skips depend on what it
        // found first: the parts would not add up to the whole run.
        eprintln!("error: --shard cannot be combined with --states-only or --speedcheck fast");
        return EXIT_BAD_INPUT;
    }
    if let (Some((index, count)), ShardBy::Search) = (cli.shard, by) {
        opts.shard = Some(vkherd::Shard {
            index: index - 1,
            count,
        });
    }
    let mut status = EXIT_OK;
    let stdout = std::io::stdout();
    for (position, file) in files.iter().enumerate() {
        let place = cli.shard.map(|(index, count)| ShardPlace {
            index,
            count,
            by,
            test: position,
            tests: files.len(),
        });
        if let Some(p) = place {
            if by == ShardBy::Test && !ShardPlace::runs_test(p.index, p.count, position) {
                continue;
            }
        }
        let name = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {name}: {e}");
                status = EXIT_BAD_INPUT;
                continue;
            }
        };
        let result = vkherd::load_litmus(&source).and_then(|program| {
            // An estimate is only an aid: a test over a limit fails in `run`, with its error.
            let estimate = vkherd::estimate(&program, &opts).ok().map(|mut e| {
                if let Some(sh) = opts.shard {
                    e.log10 -= (sh.count as f64).log10(); // about a shard's share
                }
                e
            });
            if let (true, Some(e)) = (cli.stats, estimate) {
                eprintln!(
                    "Estimate {name}: at most {e} candidates over {} path combination(s)",
                    e.path_combinations
                );
            }
            if let Some(warning) = estimate.and_then(|e| vkherd::far_past_limits(&e, &opts)) {
                eprintln!("{name}: {warning}");
            }
            let progress = crate::progress::Progress::start(&name, estimate);
            opts.progress = progress.as_ref().map(|p| p.counter());
            vkherd::run(&program, &opts).map(|rep| (rep, estimate))
        });
        match result {
            Ok((rep, estimate)) => {
                status = combine_status(status, report_status(&rep));
                let mut out = stdout.lock();
                if cli.common.json {
                    let v = match &place {
                        Some(place) => merge::shard_report_json(&rep, &name, &opts, place),
                        None => report::json_value(&rep, &name),
                    };
                    let _ = writeln!(out, "{v}");
                } else {
                    let _ = write!(out, "{}", report::herd_text(&rep));
                    if cli.time {
                        let _ = write!(out, "{}", report::time_line(&rep));
                    }
                    let _ = writeln!(out);
                }
                for note in &rep.notes {
                    eprintln!("{name}: {note}");
                }
                if cli.stats {
                    eprintln!(
                        "Stats {name}: candidates {} pruned {} value-mismatch {} consistent {} thin-air {} deadlocked-paths {} dropped-paths {} time {:.6} s estimate {}",
                        rep.stats.candidates,
                        rep.stats.pruned,
                        rep.stats.value_mismatch,
                        rep.outcomes.consistent,
                        rep.outcomes.thin_air,
                        rep.stats.deadlocked_paths,
                        rep.stats.dropped_paths,
                        rep.seconds,
                        estimate.map_or("?".to_string(), |e| e.to_string()),
                    );
                }
            }
            Err(d) => {
                eprint!("{}", d.render(&name, &source));
                status = EXIT_BAD_INPUT;
            }
        }
    }
    status
}

/// `vkherd merge`: reads the shards' JSON lines, prints the whole run's reports (and their
/// warnings) as the run would have, with the exit code it would have had.
fn merge_files(files: &[PathBuf], as_json: bool) -> i32 {
    let mut objects = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return EXIT_BAD_INPUT;
            }
        };
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<serde_json::Value>(line) {
                Ok(v) => objects.push(v),
                Err(e) => {
                    eprintln!(
                        "error: {}:{}: not a JSON report: {e}",
                        file.display(),
                        n + 1
                    );
                    return EXIT_BAD_INPUT;
                }
            }
        }
    }
    let merged = match merge::merge(&objects) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot merge: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut status = EXIT_OK;
    for m in &merged {
        status = combine_status(status, report_status(&m.report));
        if as_json {
            outln!("{}", report::json(&m.report, &m.file));
        } else {
            outln!("{}", report::herd_text(&m.report));
        }
        for note in &m.report.notes {
            eprintln!("{}: {note}", m.file);
        }
    }
    status
}
