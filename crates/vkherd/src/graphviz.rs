//! Graphviz's `dot`, when installed: DOT text to SVG elements to inline in a page.

use std::io::Write;
use std::process::{Command, Stdio};

/// `dot` on PATH answers `-V`.
pub fn available() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The `<svg>...</svg>` elements of `graphs`, in order, made by one `dot -Tsvg` for all
/// (one process per graph costs more than the layout of a litmus test's graph). Where the
/// batch fails (a graph dot rejects), each graph is tried alone, and a graph dot cannot
/// draw gets the error.
pub fn to_svg(graphs: &[String]) -> Vec<Result<String, String>> {
    if graphs.is_empty() {
        return Vec::new();
    }
    if let Ok(out) = run_dot(&graphs.concat()) {
        let svgs = split_svgs(&out);
        if svgs.len() == graphs.len() {
            return svgs.into_iter().map(Ok).collect();
        }
    }
    graphs
        .iter()
        .map(|g| {
            let out = run_dot(g)?;
            let mut svgs = split_svgs(&out);
            match svgs.len() {
                1 => Ok(svgs.remove(0)),
                n => Err(format!("dot drew {n} graphs from one")),
            }
        })
        .collect()
}

fn run_dot(input: &str) -> Result<String, String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run dot: {e}"))?;
    // Written from a thread: dot may fill its stdout before it has read all its input.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("dot failed: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "dot failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
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
        if !available() {
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
        assert!(mixed[0].is_ok() && mixed[1].is_err());
    }
}
