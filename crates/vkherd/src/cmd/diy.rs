//! `vkherd diy CYCLE...`: the test a cycle of relaxations stands for; with `--all`, the
//! family of its annotated variants (docs/generate.md).

use crate::args::DiyArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::family_tables::run_and_print;
use std::path::Path;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::family::{self, Axis, Family};
use vkherd_generate::index::{file_stem, INDEX_FILE};
use vkherd_generate::{dialects, emit, GenError};

pub fn run(args: &DiyArgs) -> ExitStatus {
    let text = args.cycle.join(" ");
    let d = match dialects::for_dialect(args.dialect) {
        Ok(d) => d,
        Err(e) => return bad_cycle(&e, &text),
    };
    if !args.all {
        if !args.vary.is_empty() || args.run {
            eprintln!("error: --vary and --run go with --all (a family of variants)");
            return ExitStatus::BadInput;
        }
        return match vkherd_generate::diy(&text, d) {
            Ok(test) => {
                let litmus = emit::text(&test);
                match &args.output {
                    None => {
                        outln!("{}", litmus.trim_end());
                        ExitStatus::Ok
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
            return ExitStatus::BadInput;
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
        if status != ExitStatus::Ok {
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
            Err(e) => return ExitStatus::bad_input(&e),
        };
        let sources: Vec<Result<String, String>> =
            fam.tests.iter().map(|t| Ok(emit::text(t))).collect();
        let names: Vec<String> = fam.tests.iter().map(|t| t.name.clone()).collect();
        return run_and_print(
            &fam.dimensions,
            &fam.variants,
            &names,
            &sources,
            &args.limits.options(&model),
        );
    } else if args.output.is_none() {
        for t in &fam.tests {
            outln!("{}", t.name);
        }
    }
    ExitStatus::Ok
}

fn bad_cycle(e: &GenError, text: &str) -> ExitStatus {
    eprint!("{}", e.render(text));
    ExitStatus::BadInput
}

fn write_files(dir: &Path, files: &[(String, String)]) -> ExitStatus {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitStatus::BadInput;
    }
    for (name, text) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitStatus::BadInput;
        }
    }
    ExitStatus::Ok
}

fn write_family(dir: &Path, fam: &Family) -> ExitStatus {
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
