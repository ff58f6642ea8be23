//! The integration tests of the SPIR-V shaders, in one test binary (the layout of
//! crates/vkherd/tests/tests.rs: one link step, not one per file). Run one module with
//! `cargo test -p vkherd-observe --test integration MODULE::`.

mod spirv_val;
