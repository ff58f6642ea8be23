//! `--dot`, `--graph DIR` and `--show`: the executions drawn.

use clap::Args;
use std::path::PathBuf;

/// Graphviz output, shared by the main form and `explain`.
#[derive(Args, Debug, Clone, Default)]
pub struct GraphArgs {
    /// Print the executions shown as one Graphviz DOT graph on stdout instead of the report,
    /// several as clusters of it (main form: a witness per state; explain: the executions
    /// explained).
    #[arg(long)]
    pub dot: bool,
    /// Write one DOT file per execution shown into DIR, and SVG beside it when Graphviz's
    /// `dot` is installed (herd7: `-o DIR`).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub graph: Option<PathBuf>,
    /// Relations to draw besides po, rf, asmo and fr: names of the model's definitions,
    /// comma-separated (`--show hb,sw`; herd7: `-doshow`); an unknown name is an error.
    #[arg(long, value_name = "REL,...", value_delimiter = ',', alias = "doshow")]
    pub show: Vec<String>,
}

impl GraphArgs {
    /// herd7's `-graph` takes a layout (`cluster`, `free`, `columns`); here `--graph`
    /// takes a directory. A layout name that is not an existing directory is most likely
    /// a herd7 habit: say so rather than create a directory called `cluster`.
    pub fn check(&self) -> Result<(), LayoutNotDirectory> {
        match &self.graph {
            Some(dir)
                if ["cluster", "free", "columns"].contains(&dir.to_string_lossy().as_ref())
                    && !dir.is_dir() =>
            {
                Err(LayoutNotDirectory(dir.clone()))
            }
            _ => Ok(()),
        }
    }
}

/// `--graph cluster` (a herd7 layout name where a directory is expected).
#[derive(Debug)]
pub struct LayoutNotDirectory(PathBuf);

impl std::fmt::Display for LayoutNotDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error: --graph takes a directory to write graphs into (herd7's `-o DIR`), and `{}` looks like herd7's -graph layout; vkherd has one layout (clusters by scope): give a directory, e.g. --graph graphs/",
            self.0.display()
        )
    }
}
