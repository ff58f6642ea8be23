//! Which files a run tests: the files given, and the test files below the directories
//! given; or why there is nothing to test.

use crate::cli::dir_walk::Found;
use std::fmt;
use std::path::PathBuf;

/// The two kinds of test file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    /// `.litmus`, run by `vkherd FILE`.
    Litmus,
    /// Khronos `.test`, run by `vkherd khronos FILE`.
    Khronos,
}

/// Why a run has no files to test.
#[derive(Debug)]
pub enum FilesError {
    /// A path given does not exist.
    Missing(PathBuf),
    /// A directory below a path given cannot be read.
    UnreadableDir(PathBuf, std::io::Error),
    /// Files of the other kind were given: `.test` to the main command, `.litmus` to
    /// `khronos`.
    OtherKind {
        kind: TestKind,
        misplaced: Vec<PathBuf>,
    },
    /// No file of the kind below the paths given; `others` files of the other kind.
    Nothing {
        kind: TestKind,
        paths: Vec<PathBuf>,
        others: usize,
    },
}

impl fmt::Display for FilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilesError::Missing(p) => {
                write!(f, "error: no such file or directory: {}", p.display())
            }
            FilesError::UnreadableDir(dir, e) => {
                write!(f, "error: cannot read directory {}: {e}", dir.display())
            }
            FilesError::OtherKind { kind, misplaced } => {
                let other = kind.other();
                write!(
                    f,
                    "error: {} is a {}; {}: run `{}`",
                    misplaced[0].display(),
                    other.what(),
                    kind.command(),
                    other.invocation(misplaced)
                )
            }
            FilesError::Nothing {
                kind,
                paths,
                others,
            } => {
                let other = kind.other();
                let hint = if *others == 0 {
                    String::new()
                } else {
                    format!(
                        "; found {}: run `{}`",
                        vkherd::report::plural(*others as u64, &format!(".{} file", other.ext())),
                        other.invocation(paths)
                    )
                };
                write!(
                    f,
                    "error: no .{} file in {}: nothing to test{hint}",
                    kind.ext(),
                    shown(paths),
                )
            }
        }
    }
}

/// Files to run: the files given, and every file with `ext` below the directories given,
/// sorted by path.
pub fn collect_files(paths: &[PathBuf], ext: &str) -> Result<Vec<PathBuf>, FilesError> {
    collect(paths, ext, true)
}

/// [`collect_files`]; `warn`: print the walk's warnings (symbolic link cycles).
fn collect(paths: &[PathBuf], ext: &str, warn: bool) -> Result<Vec<PathBuf>, FilesError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            let mut unreadable = None;
            crate::cli::dir_walk::walk(p, &[ext], warn, &mut |f| match f {
                Found::File(path) => found.push(path),
                Found::Unreadable(dir, e) => {
                    unreadable.get_or_insert((dir, e));
                }
            });
            if let Some((dir, e)) = unreadable {
                return Err(FilesError::UnreadableDir(dir, e));
            }
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(FilesError::Missing(p.clone()));
        }
    }
    Ok(out)
}

/// Files to run, or why a run would test nothing: no `kind` file below the directories
/// given, or files of the other kind (`.test` given to the main command, `.litmus` given
/// to `khronos`).
pub fn files_to_run(paths: &[PathBuf], kind: TestKind) -> Result<Vec<PathBuf>, FilesError> {
    // Both dialects: each `.litmus` test runs its dialect's model unless --model is given.
    let files = collect_files(paths, kind.ext())?;
    let other = kind.other();
    let misplaced: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == other.ext()))
        .cloned()
        .collect();
    if !misplaced.is_empty() {
        return Err(FilesError::OtherKind { kind, misplaced });
    }
    if files.is_empty() {
        // Only for the hint: the walk's warnings were printed already.
        let others = collect(paths, other.ext(), false).map_or(0, |o| o.len());
        return Err(FilesError::Nothing {
            kind,
            paths: paths.to_vec(),
            others,
        });
    }
    Ok(files)
}

/// `a, b, c`.
fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl TestKind {
    fn ext(self) -> &'static str {
        match self {
            TestKind::Litmus => "litmus",
            TestKind::Khronos => "test",
        }
    }

    fn other(self) -> TestKind {
        match self {
            TestKind::Litmus => TestKind::Khronos,
            TestKind::Khronos => TestKind::Litmus,
        }
    }

    fn what(self) -> &'static str {
        match self {
            TestKind::Litmus => "`.litmus` test",
            TestKind::Khronos => "Khronos `.test` file",
        }
    }

    fn command(self) -> &'static str {
        match self {
            TestKind::Litmus => "the main command runs `.litmus` tests",
            TestKind::Khronos => "`vkherd khronos` runs Khronos `.test` files",
        }
    }

    fn invocation(self, paths: &[PathBuf]) -> String {
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        match self {
            TestKind::Litmus => format!("vkherd {}", list.join(" ")),
            TestKind::Khronos => format!("vkherd khronos {}", list.join(" ")),
        }
    }
}
