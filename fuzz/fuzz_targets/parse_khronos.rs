//! The Khronos `.test` parser never panics, and its errors name a real place in the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let source = common::text(data);
    if let Err(d) = vkherd_dialects::vulkan::khronos::parse_khronos(&source) {
        common::check_diagnostic(&source, &d);
    }
});
