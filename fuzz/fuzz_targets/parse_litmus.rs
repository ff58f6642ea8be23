//! The `.litmus` parser never panics, and its errors name a real place in the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let source = common::text(data);
    match vkherd_dialects::vulkan::parse_litmus(&source) {
        Ok(test) => {
            if let Some(c) = &test.condition {
                let _ = vkherd_litmus::cond_to_string(&c.cond);
            }
        }
        Err(d) => common::check_diagnostic(&source, &d),
    }
});
