//! The OpenCL-dialect parser and its lowering never panic, and their errors name a real
//! place in the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let source = common::text(data);
    match vkherd_dialects::opencl::parse_opencl(&source) {
        Ok(test) => {
            if let Err(d) = vkherd_dialects::opencl::lower_opencl(&test) {
                common::check_diagnostic(&source, &d);
            }
        }
        Err(d) => common::check_diagnostic(&source, &d),
    }
});
