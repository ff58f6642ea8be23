//! The corpus's `.litmus` files (the walk is crates/enumerate/tests/files.rs, shared), and
//! the reports of a test from both enumerations. files/ also holds the tests' data.

#[path = "../../../enumerate/tests/files.rs"]
mod walk;
use vkherd::RunConfig;
pub use walk::{corpus_files, corpus_root, litmus_files};

/// The herd-style reports of `program` from the pruned search and from plain exhaustive
/// enumeration (`--naive`), default options otherwise: they must be the same.
pub fn pruned_and_naive_reports(program: &vkherd_model::Program) -> (String, String) {
    let run = |naive: bool| {
        let opts = vkherd::Options {
            run: RunConfig {
                naive,
                ..RunConfig::default()
            },
            ..vkherd::Options::default()
        };
        vkherd::report::herd_text(&vkherd::run(program, &opts).expect("runs"))
    };
    (run(false), run(true))
}

/// Why the corpus file `name` does not load as a test of `dialect` named after its file
/// (none: it does).
pub fn load_failures(name: &str, source: &str, dialect: &str) -> Vec<String> {
    match vkherd::load_litmus(source) {
        Ok(p) => {
            let mut out = Vec::new();
            if p.dialect.name != dialect {
                out.push(format!("{name}: not lowered as {dialect}"));
            }
            let stem = std::path::Path::new(name)
                .file_stem()
                .unwrap()
                .to_string_lossy();
            if p.name != stem {
                out.push(format!(
                    "{name}: test name {} differs from the file name",
                    p.name
                ));
            }
            out
        }
        Err(e) => vec![e.render(name, source)],
    }
}
