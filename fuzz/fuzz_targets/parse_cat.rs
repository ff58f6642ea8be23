//! The cat model compiler (parser, names, types, functions, variants) never panics, and
//! its errors name a real place in the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let source = common::text(data);
    // In a directory that does not exist, so that `include` reaches only bundled files.
    let name = "/nonexistent-vkherd-fuzz/fuzz.cat";
    let variants: BTreeSet<String> = ["vulkan-2024".to_string()].into_iter().collect();
    let src = vkherd_cat::Source {
        name: name.to_string(),
        text: Arc::from(source.as_str()),
    };
    if let Err(e) = vkherd_cat::Model::compile(src, &variants) {
        if e.file == name {
            common::check_diagnostic(&source, &e.diagnostic);
        }
        let _ = e.render();
    }
});
