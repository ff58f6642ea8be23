//! Parse, lower and enumerate small inputs of either format under tight limits (as
//! `--max-candidates` and `--timeout` set them): nothing panics, runs out of memory or
//! hangs, and every error (parser, lowering or enumerator) names a real place.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use vkherd::{report, Options};

fn opts() -> Options {
    Options {
        max_candidates: Some(2_000),
        timeout: Some(Duration::from_millis(500)),
        ..Options::default()
    }
}

fn run(source: &str, program: Result<vkherd::LoweredProgram, vkherd::Diagnostic>) {
    let program = match program {
        Ok(p) => p,
        Err(d) => return common::check_diagnostic(source, &d),
    };
    match vkherd::run(&program, &opts()) {
        Ok(rep) => {
            let _ = report::herd_text(&rep);
            let _ = report::json(&rep, "fuzz.input");
        }
        Err(d) => common::check_diagnostic(source, &d),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let source = common::text(data);
    match vkherd_litmus::parse_litmus(&source) {
        Ok(test) => run(&source, vkherd_model::lower_litmus(&test)),
        Err(d) => common::check_diagnostic(&source, &d),
    }
    match vkherd_litmus::parse_khronos(&source) {
        Ok(test) => run(&source, vkherd_model::lower_khronos(&test, "fuzz")),
        Err(d) => common::check_diagnostic(&source, &d),
    }
});
