//! The integration tests of the parsers, in one test binary (the layout of
//! crates/vkherd/tests/tests.rs: one link step, not one per file). Run one module with
//! `cargo test -p vkherd-litmus --test integration MODULE::`.

mod khronos_parser;
mod khronos_robustness;
mod litmus_parser;
mod opencl_parser;
mod opencl_robustness;
mod ptx_ast;
mod ptx_corpus;
mod ptx_errors;
mod ptx_robustness;
