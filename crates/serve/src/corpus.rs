//! The bundled corpus (`litmus-tests/`), embedded at build time (build.rs): the page's
//! examples. The server never reads a test from its disk: a request names an example by
//! its path in this list, or carries the text.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The text of the example at `path` (below `litmus-tests/`), if there is one.
pub fn example(path: &str) -> Option<&'static str> {
    FILES
        .binary_search_by(|(p, _)| p.cmp(&path))
        .ok()
        .map(|k| FILES[k].1)
}
