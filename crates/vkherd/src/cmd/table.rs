//! `vkherd table DIR`: runs the tests of a family written by `vkherd diy --all -o DIR`
//! and prints the table of verdicts (docs/generate.md "Families").

use crate::args::TableArgs;
use crate::cli::exit::ExitStatus;
use vkherd_generate::index::{Index, INDEX_FILE};

pub fn run(args: &TableArgs) -> ExitStatus {
    args.threads.init_threads();
    let index = match Index::read(&args.dir) {
        Ok(Some(i)) => i,
        Ok(None) => {
            eprintln!(
                "error: no {INDEX_FILE} in {}: expected a family written by `vkherd diy --all CYCLE --vary AXES -o {}`",
                args.dir.display(),
                args.dir.display()
            );
            return ExitStatus::BadInput;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitStatus::BadInput;
        }
    };
    let model = match args.model.model() {
        Ok(m) => m,
        Err(e) => return ExitStatus::bad_input(&e),
    };
    let sources: Vec<Result<String, String>> = index
        .tests
        .iter()
        .map(|t| {
            let path = args.dir.join(&t.file);
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read it: {e}"))
        })
        .collect();
    outln!(
        "{} (vary {}; model {})",
        index.cycle,
        index.vary.join(", "),
        model.name
    );
    let names: Vec<String> = index
        .tests
        .iter()
        .map(|t| args.dir.join(&t.file).display().to_string())
        .collect();
    // An unreadable file, a test that does not load or run: an error (exit 2), and `?`.
    crate::cli::family_tables::run_and_print(
        &index.dimensions,
        &index.variants,
        &names,
        &sources,
        &args.run.options(&model),
    )
}
