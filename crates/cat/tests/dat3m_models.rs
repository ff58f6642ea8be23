//! Dat3M's own cat models (third_party/dat3m/models, unchanged) do not run yet: they read
//! the initial writes as events (`IW`) and `co` as a base (docs/differences.md, "Dat3M's
//! own vulkan.cat"). Until they do, each stops at its first Dat3M base name with a located
//! error that names it as Dat3M's and says what vkherd has instead.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use vkherd_cat::{ErrorKind, Model, Source};

/// The first error of the model `file`: its line, column, the name under the caret and
/// the rendered message.
fn first_error(file: &str) -> (u32, u32, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../third_party/dat3m/models")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let e = match Model::compile(
        Source {
            name: path.display().to_string(),
            text: Arc::from(text.as_str()),
        },
        &BTreeSet::new(),
    ) {
        Ok(_) => panic!("{file} compiled: update this test and docs/differences.md"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::UnknownName, "{}", e.render());
    let s = e.diagnostic.span;
    (
        s.line,
        s.column,
        text[s.offset..s.offset + s.len].to_string(),
        e.render(),
    )
}

#[test]
fn each_dat3m_model_stops_at_a_dat3m_name_that_the_error_explains() {
    // (file, line, column, name, words of the hint), read off the files.
    let cases = [
        // `let AVSHADER = (AV | SEMAV) & DV`: Dat3M's device-scope tag.
        ("vulkan.cat", 51, 31, "DV", "Dat3M's scope tag `DV`"),
        // `let mo = dynamic_tag(~NAL); co; dynamic_tag(~NAL)`.
        ("opencl.cat", 28, 23, "NAL", "Dat3M's `NAL`"),
        // `let sync_barrier = syncbar & scta`.
        ("ptx-v6.0.cat", 19, 20, "syncbar", "`scbarinst` here"),
        ("ptx-v7.5.cat", 33, 20, "syncbar", "`scbarinst` here"),
        // `let fr = rf^-1;co | ...`: co as a base.
        ("stdlib.cat", 1, 16, "co", "as Dat3M's do, does not run yet"),
    ];
    for (file, line, column, name, hint) in cases {
        let (l, c, text, message) = first_error(file);
        assert_eq!(
            (l, c, text.as_str()),
            (line, column, name),
            "{file}: {message}"
        );
        assert!(message.contains(hint), "{file}: {message}");
        assert!(
            message.contains(&format!("{file}:{line}:{column}")),
            "{message}"
        );
    }
}
