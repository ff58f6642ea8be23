//! `vkherd diy CYCLE...`: the test a cycle of relaxations stands for; with `--all`, the
//! family of its annotated variants (docs/generate.md).

use crate::cli::{ModelArgs, RunArgs, ThreadArgs, EXIT_BAD_INPUT, EXIT_OK};
use clap::Args;
use std::path::{Path, PathBuf};
use vkherd::generate::alphabet::Alphabet;
use vkherd::generate::family::{self, Axis, Family};
use vkherd::generate::index::{file_stem, INDEX_FILE};
use vkherd::generate::{emit, matrix, GenError};
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
    cycle: Vec<String>,
    /// The dialect of the test.
    #[arg(long, value_name = "DIALECT", default_value = "vulkan", value_parser = ["vulkan", "opencl"])]
    dialect: String,
    /// Every annotated variant along --vary (deduplicated up to renaming) instead of one
    /// test.
    #[arg(long)]
    all: bool,
    /// With --all: what to vary where the cycle says nothing: placement, scope,
    /// semantics, storage.
    #[arg(long, value_name = "AXIS,...", value_delimiter = ',')]
    vary: Vec<String>,
    /// With --all: refuse a family of more variants.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_variants: usize,
    /// Write the test (with --all: every test and index.json) into DIR.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
    /// With --all: run every test and print the table of verdicts.
    #[arg(long)]
    run: bool,
    #[command(flatten)]
    alphabet: AlphabetArgs,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    limits: RunArgs,
}

fn dialect(word: &str) -> Dialect {
    if word == "opencl" {
        Dialect::OpenCl
    } else {
        Dialect::Vulkan
    }
}

pub fn run(args: &DiyArgs) -> i32 {
    let text = args.cycle.join(" ");
    let d = dialect(&args.dialect);
    if !args.all {
        if !args.vary.is_empty() || args.run {
            eprintln!("error: --vary and --run go with --all (a family of variants)");
            return EXIT_BAD_INPUT;
        }
        return match vkherd::generate::diy(&text, d) {
            Ok(test) => {
                let litmus = emit::text(&test);
                match &args.output {
                    None => {
                        outln!("{}", litmus.trim_end());
                        EXIT_OK
                    }
                    Some(dir) => write_files(dir, &[(file_stem(&test.name) + ".litmus", litmus)]),
                }
            }
            Err(e) => bad_cycle(&e, &text),
        };
    }
    let vary = match Axis::parse_list(&args.vary) {
        Ok(v) if v.is_empty() => {
            eprintln!("error: --all needs --vary AXIS,... (placement, scope, semantics, storage)");
            return EXIT_BAD_INPUT;
        }
        Ok(v) => v,
        Err(e) => return bad_cycle(&e, &text),
    };
    let alphabet = match args.alphabet.apply(Alphabet::family_default(d)) {
        Ok(a) => a,
        Err(e) => return bad_cycle(&e, &text),
    };
    let fam = match family::family(&text, d, &vary, &alphabet, args.max_variants) {
        Ok(f) => f,
        Err(e) => return bad_cycle(&e, &text),
    };
    outln!(
        "{}: {} variants ({} skipped: annotations that clash or placements that cannot close), {} tests up to renaming",
        fam.cycle,
        fam.variants.len(),
        fam.skipped,
        fam.tests.len()
    );
    if let Some(dir) = &args.output {
        let status = write_family(dir, &fam);
        if status != EXIT_OK {
            return status;
        }
        outln!(
            "Wrote {} tests and {INDEX_FILE} into {}",
            fam.tests.len(),
            dir.display()
        );
    }
    if args.run {
        args.threads.init_threads();
        let model = match args.model.model() {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{}", e.trim_end());
                return EXIT_BAD_INPUT;
            }
        };
        let sources: Vec<Result<String, String>> =
            fam.tests.iter().map(|t| Ok(emit::text(t))).collect();
        let verdicts = matrix::verdicts(&sources, &args.limits.options(&model));
        print_table(&fam.dimensions, &fam.variants, &verdicts);
    } else if args.output.is_none() {
        for t in &fam.tests {
            outln!("{}", t.name);
        }
    }
    EXIT_OK
}

/// Prints a family's table, its legend and its counts.
pub fn print_table(
    dims: &[family::Dimension],
    variants: &[family::Variant],
    verdicts: &[matrix::Cell],
) {
    outln!("{}", matrix::LEGEND);
    outln!();
    print!("{}", matrix::text(dims, variants, verdicts));
    outln!();
    outln!("{}", matrix::summary(variants, verdicts));
}

fn bad_cycle(e: &GenError, text: &str) -> i32 {
    eprint!("{}", e.render(text));
    EXIT_BAD_INPUT
}

fn write_files(dir: &Path, files: &[(String, String)]) -> i32 {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return EXIT_BAD_INPUT;
    }
    for (name, text) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_BAD_INPUT;
        }
    }
    EXIT_OK
}

fn write_family(dir: &Path, fam: &Family) -> i32 {
    let index = fam.index();
    let mut files: Vec<(String, String)> = fam
        .tests
        .iter()
        .zip(&index.tests)
        .map(|(t, it)| (it.file.clone(), emit::text(t)))
        .collect();
    let json = serde_json::to_string_pretty(&index).expect("an index serialises");
    files.push((INDEX_FILE.to_string(), json + "\n"));
    write_files(dir, &files)
}
