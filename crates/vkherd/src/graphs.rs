//! Writing graphs to a directory (`--graph DIR`): one `.dot` file per execution, and an
//! `.svg` beside it when Graphviz's `dot` is installed (said once on stderr when not).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Is Graphviz's `dot` on the PATH?
pub fn dot_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A file name part from a test name or state: letters, digits, `-`, `_`, `.` kept.
pub fn file_part(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || "-_.".contains(c) {
            out.push(c);
        } else if c == '=' {
            out.push('=');
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// Writes `dot` to `DIR/STEM.dot`, and `DIR/STEM.svg` with `svg` (Graphviz present).
/// Returns the files written.
pub fn write_graph(dir: &Path, stem: &str, dot: &str, svg: bool) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create directory {}: {e}", dir.display()))?;
    let dot_path = dir.join(format!("{stem}.dot"));
    std::fs::write(&dot_path, dot)
        .map_err(|e| format!("cannot write {}: {e}", dot_path.display()))?;
    let mut written = vec![dot_path.clone()];
    if svg {
        let svg_path = dir.join(format!("{stem}.svg"));
        let out = Command::new("dot")
            .arg("-Tsvg")
            .arg("-o")
            .arg(&svg_path)
            .arg(&dot_path)
            .output()
            .map_err(|e| format!("cannot run dot: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "dot failed on {}: {}",
                dot_path.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        written.push(svg_path);
    }
    Ok(written)
}

/// The note for a run that could not make SVG files.
pub const NO_DOT: &str =
    "Note: Graphviz's `dot` is not installed: wrote .dot files only (no .svg); install graphviz to get SVG";
