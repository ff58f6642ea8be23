//! A family's index (`DIR/index.json`, written by `vkherd diy --all -o DIR`): its
//! cycle, axes, varied items and, for every variant, its values and its test's file;
//! read back by `vkherd table` and `vkherd report`.

use super::family::{Dimension, Family, Variant};
use serde::{Deserialize, Serialize};

/// The name of a family's index file in its directory.
pub const INDEX_FILE: &str = "index.json";

/// What `diy --all -o DIR` writes beside the tests: the family's items and, for every
/// variant, its values and its test's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    /// `vkherd-diy-family 1`.
    pub format: String,
    pub cycle: String,
    /// The dialect's name (`vulkan`).
    pub dialect: String,
    pub vary: Vec<String>,
    pub dimensions: Vec<Dimension>,
    pub tests: Vec<IndexedTest>,
    pub variants: Vec<Variant>,
    pub skipped: usize,
}

/// A test of the family: its file (relative to the index) and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexedTest {
    pub file: String,
    pub name: String,
}

/// The format word of the index.
pub const INDEX_FORMAT: &str = "vkherd-diy-family 1";

impl Family {
    /// The file name of each test: its name, made unique.
    pub fn file_names(&self) -> Vec<String> {
        let mut used: Vec<String> = Vec::new();
        for t in &self.tests {
            let stem = file_stem(&t.name);
            let mut file = format!("{stem}.litmus");
            let mut k = 2;
            while used.contains(&file) {
                file = format!("{stem}-{k}.litmus");
                k += 1;
            }
            used.push(file);
        }
        used
    }

    /// The index of this family.
    pub fn index(&self) -> Index {
        Index {
            format: INDEX_FORMAT.to_string(),
            cycle: self.cycle.clone(),
            dialect: self.dialect.dialect().name.to_string(),
            vary: self.vary.iter().map(|a| a.word().to_string()).collect(),
            dimensions: self.dimensions.clone(),
            tests: self
                .tests
                .iter()
                .zip(self.file_names())
                .map(|(t, file)| IndexedTest {
                    file,
                    name: t.name.clone(),
                })
                .collect(),
            variants: self.variants.clone(),
            skipped: self.skipped,
        }
    }
}

impl Index {
    /// Reads `DIR/index.json`; `Ok(None)` when there is none.
    pub fn read(dir: &std::path::Path) -> Result<Option<Index>, String> {
        let path = dir.join(INDEX_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let index: Index = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: not a family index: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        if index.format != INDEX_FORMAT {
            return Err(format!(
                "{}: format `{}`, expected `{INDEX_FORMAT}`",
                path.display(),
                index.format
            ));
        }
        let bad = index.variants.iter().find(|v| {
            v.test >= index.tests.len()
                || v.values.len() != index.dimensions.len()
                || v.values
                    .iter()
                    .zip(&index.dimensions)
                    .any(|(&k, d)| k >= d.values.len())
        });
        if bad.is_some() {
            return Err(format!(
                "{}: a variant names a test or value the index does not have",
                path.display()
            ));
        }
        Ok(Some(index))
    }
}

/// A test name as a file name: diy7 keeps `+` (`MP+dmb+addr.litmus`); anything but
/// letters, digits and `+-_.@=` becomes `_`.
pub fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+-_.@=".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}
