//! Command-line parsing and dispatch.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use vkherd::models::ModelChoice;
use vkherd::{report, Options};

/// Exit codes (documented in docs/cli.md).
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_BAD_INPUT: i32 = 2;
pub const EXIT_PARTIAL: i32 = 3;

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
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Bound on loops: a backward jump is taken at most N times on a path.
    #[arg(long, value_name = "N", default_value_t = 2)]
    unroll: u32,
    /// Leave out executions whose values come out of thin air.
    #[arg(long)]
    no_thin_air: bool,
    /// Stop a test after N candidates; the report is marked partial and the exit code is 3
    /// (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_candidates: u64,
    /// Stop a test after SECS seconds; the report is marked partial and the exit code is 3
    /// (0 = no limit).
    #[arg(long, value_name = "SECS", default_value_t = 3600.0)]
    timeout: f64,
    /// Plain generate-and-test enumeration instead of the pruned search (for reference).
    #[arg(long)]
    naive: bool,
}

#[derive(Args, Debug, Clone)]
struct CommonArgs {
    /// The model: vulkan, vulkan-2024, opencl, cat:NAME (a bundled cat model) or a .cat
    /// file (`vkherd models` lists them) [default: vulkan, opencl for OPENCL tests]
    #[arg(long, value_name = "NAME|FILE")]
    model: Option<String>,
    /// Turn on a variant of a cat model (`if "NAME"`); repeatable.
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
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
    /// writes-readers, xf-barrier) as a `.litmus` test.
    Gen {
        /// The family.
        #[arg(value_parser = vkherd::families::FAMILIES.to_vec())]
        family: String,
        /// Its size parameter.
        n: usize,
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
}

impl RunArgs {
    pub fn options(&self, model: &ModelChoice) -> Options {
        Options {
            model: model.options,
            cat: model.cat.clone(),
            model_given: model.given,
            unroll: self.unroll,
            no_thin_air: self.no_thin_air,
            max_candidates: (self.max_candidates > 0).then_some(self.max_candidates),
            timeout: (self.timeout > 0.0 && self.timeout.is_finite())
                .then(|| std::time::Duration::from_secs_f64(self.timeout.min(1e9))),
            naive: self.naive,
            progress: None,
        }
    }
}

impl CommonArgs {
    fn model(&self) -> Result<ModelChoice, String> {
        let given = self.model.is_some();
        let name = self.model.as_deref().unwrap_or("vulkan");
        let mut choice = vkherd::models::resolve(name, &self.variants, self.no_chains)?;
        choice.given = given;
        Ok(choice)
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

/// The `.litmus` files to run, as [`collect_files`] finds them (both dialects: each test
/// runs its dialect's model unless `--model` is given).
pub fn collect_litmus_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    collect_files(paths, "litmus")
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
            match common.model() {
                Ok(m) => crate::khronos_cmd::run(paths, &m, common.json),
                Err(e) => bad_model(&e),
            }
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
            match common.model() {
                Ok(m) => crate::bench_cmd::run(paths, *runs, &run.options(&m), common.json),
                Err(e) => bad_model(&e),
            }
        }
        None => {
            cli.common.init_threads();
            run_litmus(&cli)
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

fn run_litmus(cli: &Cli) -> i32 {
    let files = match collect_litmus_files(&cli.paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let model = match cli.common.model() {
        Ok(m) => m,
        Err(e) => return bad_model(&e),
    };
    let mut opts = cli.run.options(&model);
    let mut status = EXIT_OK;
    let stdout = std::io::stdout();
    for file in &files {
        let name = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {name}: {e}");
                status = EXIT_BAD_INPUT;
                continue;
            }
        };
        let progress = crate::progress::Progress::start(&name);
        opts.progress = progress.as_ref().map(|p| p.counter());
        let result = vkherd::load_litmus(&source).and_then(|p| vkherd::run(&p, &opts));
        drop(progress);
        match result {
            Ok(rep) => {
                if rep.stats.stopped.is_some() && status == EXIT_OK {
                    status = EXIT_PARTIAL;
                }
                let mut out = stdout.lock();
                if cli.common.json {
                    let _ = writeln!(out, "{}", report::json(&rep, &name));
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
                        "Stats {name}: candidates {} pruned {} value-mismatch {} consistent {} thin-air {} deadlocked-paths {} dropped-paths {} time {:.6} s",
                        rep.stats.candidates,
                        rep.stats.pruned,
                        rep.stats.value_mismatch,
                        rep.outcomes.consistent,
                        rep.outcomes.thin_air,
                        rep.stats.deadlocked_paths,
                        rep.stats.dropped_paths,
                        rep.seconds
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
