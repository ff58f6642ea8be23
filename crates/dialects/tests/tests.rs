//! The integration tests of the dialects (their parsers and lowerings), in one test binary
//! (the layout of crates/vkherd/tests/tests.rs: one link step, not one per file). Run one
//! module with `cargo test -p vkherd-dialects --test integration MODULE::`.

mod addresses;
mod khronos_parser;
mod khronos_robustness;
mod litmus_parser;
mod lower_opencl;
mod opencl_parser;
mod opencl_robustness;
mod ptx_ast;
mod ptx_corpus;
mod ptx_errors;
mod ptx_robustness;
mod seam;
