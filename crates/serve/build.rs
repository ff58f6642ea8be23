//! Embeds the corpus (`litmus-tests/`, every `.litmus` file) in the crate: the page
//! offers it as examples, and the server reads no file at run time.

use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests");
    // A directory: cargo rescans it whole, so a new or changed test rebuilds the list.
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        walk(&root, &mut files);
    }
    // Sorted as strings: the lookup (src/corpus.rs) searches the list by its text.
    let mut files: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(&root).expect("below the root");
            let rel = rel.to_str().expect("UTF-8 corpus paths").replace('\\', "/");
            (rel, file)
        })
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The corpus: (path below `litmus-tests/`, text), in path order.\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (rel, file) in &files {
        let abs = file.canonicalize().expect("a corpus file");
        out.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            abs.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("corpus.rs");
    std::fs::write(dest, out).expect("write the corpus list");
}

/// Every `.litmus` file below `dir`; symbolic links are not followed (no loops).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            walk(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
}
