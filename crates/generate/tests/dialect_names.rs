//! The generators name no dialect outside their per-dialect files and the table that
//! registers them (`src/dialects/`): shared generator code asks `GenDialect` and the
//! dialect's descriptor, so a dialect added there reaches every generator.

use std::path::Path;

/// The `.rs` files below `dir`, in name order.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn shared_generator_code_names_no_dialect() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut found = Vec::new();
    for f in files
        .iter()
        .filter(|f| !f.starts_with(src.join("dialects")))
    {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let lower = line.to_lowercase();
            for d in vkherd_dialects::ALL {
                if lower.contains(d.name) {
                    found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(files.len() > 10, "the sources were read");
    assert!(
        found.is_empty(),
        "shared generator code names a dialect (move it behind GenDialect):\n{}",
        found.join("\n")
    );
}
