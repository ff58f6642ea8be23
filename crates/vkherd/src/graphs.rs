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
pub fn write_graph(
    dir: &Path,
    stem: &str,
    dot: &str,
    svg: bool,
) -> Result<Vec<PathBuf>, GraphWriteError> {
    std::fs::create_dir_all(dir).map_err(|error| GraphWriteError::CreateDir {
        dir: dir.to_path_buf(),
        error,
    })?;
    let dot_path = dir.join(format!("{stem}.dot"));
    std::fs::write(&dot_path, dot).map_err(|error| GraphWriteError::Write {
        file: dot_path.clone(),
        error,
    })?;
    let mut written = vec![dot_path.clone()];
    if svg {
        let svg_path = dir.join(format!("{stem}.svg"));
        let out = Command::new("dot")
            .arg("-Tsvg")
            .arg("-o")
            .arg(&svg_path)
            .arg(&dot_path)
            .output()
            .map_err(GraphWriteError::Spawn)?;
        if !out.status.success() {
            return Err(GraphWriteError::DotFailed {
                file: dot_path,
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        written.push(svg_path);
    }
    Ok(written)
}

/// Why a graph could not be written to `--graph DIR`.
#[derive(Debug)]
pub enum GraphWriteError {
    CreateDir {
        dir: PathBuf,
        error: std::io::Error,
    },
    Write {
        file: PathBuf,
        error: std::io::Error,
    },
    /// `dot` could not be started.
    Spawn(std::io::Error),
    /// `dot` exited with an error on `file`; what it said.
    DotFailed {
        file: PathBuf,
        stderr: String,
    },
}

impl std::fmt::Display for GraphWriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphWriteError::CreateDir { dir, error } => {
                write!(f, "cannot create directory {}: {error}", dir.display())
            }
            GraphWriteError::Write { file, error } => {
                write!(f, "cannot write {}: {error}", file.display())
            }
            GraphWriteError::Spawn(error) => write!(f, "cannot run dot: {error}"),
            GraphWriteError::DotFailed { file, stderr } => {
                write!(f, "dot failed on {}: {stderr}", file.display())
            }
        }
    }
}

impl std::error::Error for GraphWriteError {}

/// The note for a run that could not make SVG files.
pub const NO_DOT: &str =
    "Note: Graphviz's `dot` is not installed: wrote .dot files only (no .svg); install graphviz to get SVG";
