//! The seam a dialect plugs into stays one (docs/architecture.md, "Adding a dialect"):
//! source code outside a dialect's own files names it only at the registration points.
//! A new `if dialect.name == "opencl"` in shared code fails here; the fix is a field of
//! the `Dialect` value that shared code asks instead.
//!
//! Read: the non-comment lines of every `crates/*/src/**/*.rs` up to the file's unit tests
//! (`#[cfg(test)]`: a test of shared code may load a test written in a dialect), in any
//! case. A file's own: its path names the dialect (`dialects/src/opencl/`,
//! `generate/src/dialects/opencl.rs`).
//!
//! The default dialect (the first registered, Vulkan) is not checked: its name is also
//! the device API `observe` runs tests on, the hand-written engine's model
//! (`hand:vulkan`) and the format of the Khronos suite.

use std::path::{Path, PathBuf};

/// Where shared code may name a dialect: the registry, and the generators' table.
const REGISTRATION: &[&str] = &[
    "crates/dialects/src/lib.rs",
    "crates/generate/src/dialects/mod.rs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file that counts: lines before its unit tests, not `//` comments.
fn code(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
        .to_ascii_lowercase()
}

#[test]
fn shared_code_names_a_dialect_only_where_it_is_registered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        rust_files(&krate.path().join("src"), &mut files);
    }
    assert!(files.len() > 100, "read {} files", files.len());
    let mut offenders = Vec::new();
    for dialect in &vkherd_dialects::ALL[1..] {
        let name = dialect.name;
        for f in &files {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel.to_ascii_lowercase().contains(name) || REGISTRATION.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(f).unwrap();
            if code(&text).contains(name) {
                offenders.push(format!("{rel} names {name}"));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "shared code names a dialect outside its registration ({REGISTRATION:?}); ask its \
         `Dialect` value instead:\n{}",
        offenders.join("\n")
    );
}
