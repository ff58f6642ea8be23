//! `vkherd table DIR`: runs the tests of a family written by `vkherd diy --all -o DIR`
//! and prints the table of verdicts (docs/generate.md "Families").

use crate::args::TableArgs;
use crate::cli::exit::ExitStatus;
use vkherd::generate::index::{Index, INDEX_FILE};
use vkherd::generate::matrix;

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
            std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
        })
        .collect();
    let mut status = ExitStatus::Ok;
    for e in sources.iter().filter_map(|s| s.as_ref().err()) {
        eprintln!("error: {e}");
        status = ExitStatus::BadInput;
    }
    let verdicts = matrix::verdicts(&sources, &args.run.options(&model));
    outln!(
        "{} (vary {}; model {})",
        index.cycle,
        index.vary.join(", "),
        model.name
    );
    crate::cli::family_tables::print_table(&index.dimensions, &index.variants, &verdicts);
    status
}
