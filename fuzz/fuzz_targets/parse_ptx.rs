//! The PTX parser and lowering never panic, its errors name a real place in the input, and the spans
//! of a parsed test's instructions do too.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let source = common::text(data);
    match vkherd_dialects::ptx::parse_ptx(&source) {
        Ok(test) => {
            for (t, h) in test.threads.iter().enumerate() {
                assert_eq!(h.id, t, "thread headers out of order");
            }
            for instr in test.code.iter().flatten() {
                let s = instr.span;
                assert!(
                    s.offset + s.len <= source.len(),
                    "span out of bounds: {s:?}"
                );
                assert_eq!(vkherd_litmus::span_at(&source, s.offset, s.len), s);
            }
            // The lowering never panics either; its errors are located too.
            if let Err(d) = vkherd_dialects::ptx::lower_ptx(&test) {
                common::check_diagnostic(&source, &d);
            }
        }
        Err(d) => common::check_diagnostic(&source, &d),
    }
});
