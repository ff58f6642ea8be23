//! Walking a directory tree for test files, each directory once.
//!
//! Directories are followed through symbolic links (a corpus may link a shared
//! directory in), so a link back to an ancestor would otherwise be walked until the OS
//! refuses the path (40 levels on Linux), running every test below it that many times.
//! Each directory is entered once, by its canonical path; a link to a directory the walk
//! is inside (a cycle) gets a warning, a second link to a directory already walked is
//! skipped quietly (its tests ran under the first path). Entries are visited in name
//! order, so which path a directory's tests run under does not depend on the order the
//! OS lists them in.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What a walk finds.
pub enum Found {
    /// A file whose extension the caller asked for.
    File(PathBuf),
    /// A directory that cannot be read, with the reason.
    Unreadable(PathBuf, std::io::Error),
}

/// Walks `root` and calls `found` for each file whose extension is one of `exts`.
/// Warnings about cycles go to stderr when `warn` is set.
pub fn walk(root: &Path, exts: &[&str], warn: bool, found: &mut dyn FnMut(Found)) {
    let mut walker = Walker {
        exts,
        warn,
        entered: HashSet::new(),
        inside: Vec::new(),
    };
    walker.dir(root, found);
}

struct Walker<'a> {
    exts: &'a [&'a str],
    warn: bool,
    /// Canonical paths of every directory entered so far.
    entered: HashSet<PathBuf>,
    /// Canonical paths of the directories the walk is inside, outermost first.
    inside: Vec<PathBuf>,
}

impl Walker<'_> {
    fn dir(&mut self, dir: &Path, found: &mut dyn FnMut(Found)) {
        // A path that cannot be canonicalized cannot be read either: read_dir reports it.
        let canonical = dir.canonicalize().ok();
        if let Some(c) = &canonical {
            if self.inside.contains(c) {
                if self.warn {
                    eprintln!(
                        "{}: Warning: a link to {}, a directory this walk is inside: not followed (a cycle)",
                        dir.display(),
                        c.display()
                    );
                }
                return;
            }
            if !self.entered.insert(c.clone()) {
                return;
            }
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => return found(Found::Unreadable(dir.to_path_buf(), e)),
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => paths.push(entry.path()),
                Err(e) => found(Found::Unreadable(dir.to_path_buf(), e)),
            }
        }
        paths.sort();
        let depth = self.inside.len();
        self.inside.extend(canonical);
        for path in paths {
            if path.is_dir() {
                self.dir(&path, found);
            } else if path
                .extension()
                .is_some_and(|e| self.exts.iter().any(|x| e == *x))
            {
                found(Found::File(path));
            }
        }
        self.inside.truncate(depth);
    }
}
