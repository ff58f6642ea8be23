//! Graphviz's `dot`, when installed ([`crate::graphs::dot_available`]): DOT text to SVG
//! elements to inline in a page (`vkherd report`; `--graph DIR` writes files instead,
//! [`crate::graphs`]).

use std::io::Write;
use std::process::{Command, Stdio};

/// The `<svg>...</svg>` elements of `graphs`, in order, drawn in parallel on the worker
/// threads, one `dot -Tsvg` per graph. Not one `dot` for many graphs: Graphviz 2.43 (Debian
/// 12) corrupts its heap after a few dozen graphs in one input, and numbers the elements
/// of a graph after those of the graphs before it, so a page's bytes would depend on how
/// the graphs were batched.
pub fn to_svg(graphs: &[String]) -> Vec<Result<String, DotError>> {
    use rayon::prelude::*;
    graphs
        .par_iter()
        .map(|g| {
            let out = run_dot(g)?;
            let mut svgs = split_svgs(&out);
            match svgs.len() {
                1 => Ok(svgs.remove(0)),
                graphs => Err(DotError::SeveralGraphs { graphs }),
            }
        })
        .collect()
}

/// Why `dot` drew no graph.
#[derive(Debug)]
pub enum DotError {
    /// `dot` could not be started.
    Spawn(std::io::Error),
    /// Waiting for `dot` failed.
    Wait(std::io::Error),
    /// `dot` exited with an error; what it said.
    Failed { stderr: String },
    /// `dot` drew `graphs` graphs (not one) from one input.
    SeveralGraphs { graphs: usize },
}

impl std::fmt::Display for DotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DotError::Spawn(e) => write!(f, "cannot run dot: {e}"),
            DotError::Wait(e) => write!(f, "dot failed: {e}"),
            DotError::Failed { stderr } => write!(f, "dot failed: {stderr}"),
            DotError::SeveralGraphs { graphs } => write!(f, "dot drew {graphs} graphs from one"),
        }
    }
}

impl std::error::Error for DotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DotError::Spawn(e) | DotError::Wait(e) => Some(e),
            DotError::Failed { .. } | DotError::SeveralGraphs { .. } => None,
        }
    }
}

fn run_dot(input: &str) -> Result<String, DotError> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(DotError::Spawn)?;
    // Written from a thread: dot may fill its stdout before it has read all its input.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(DotError::Wait)?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(DotError::Failed {
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `<svg ...>...</svg>` elements of dot's output, without the XML prologue and
/// doctype that cannot stand inside HTML.
fn split_svgs(out: &str) -> Vec<String> {
    let mut svgs = Vec::new();
    let mut rest = out;
    while let Some(start) = rest.find("<svg") {
        let Some(len) = rest[start..].find("</svg>") else {
            break;
        };
        let end = start + len + "</svg>".len();
        svgs.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    svgs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_elements_are_cut_out_of_dot_output() {
        let out =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg a>x</svg>\n<?xml?>\n<svg b>y</svg>\n";
        assert_eq!(split_svgs(out), ["<svg a>x</svg>", "<svg b>y</svg>"]);
    }

    #[test]
    fn graphs_become_svg_in_order_when_dot_is_installed() {
        if !crate::graphs::dot_available() {
            eprintln!("skipped: no dot (Graphviz) on PATH");
            return;
        }
        let graphs = [
            "digraph a { x -> y }\n".to_string(),
            "digraph b { \"<&>\" }\n".to_string(),
        ];
        let svgs = to_svg(&graphs);
        assert_eq!(svgs.len(), 2);
        let a = svgs[0].as_ref().expect("an svg");
        let b = svgs[1].as_ref().expect("an svg");
        assert!(
            a.starts_with("<svg") && a.contains("<title>a</title>"),
            "{a}"
        );
        assert!(b.contains("&lt;&amp;&gt;"), "{b}");
        // A broken graph gets an error; the others are still drawn.
        let mixed = to_svg(&[graphs[0].clone(), "digraph {".to_string()]);
        assert!(mixed[0].as_ref().is_ok_and(|s| s == a));
        let e = mixed[1].as_ref().unwrap_err();
        assert!(matches!(e, DotError::Failed { .. }), "{e:?}");
        assert!(e.to_string().starts_with("dot failed: "), "{e}");
    }
}
