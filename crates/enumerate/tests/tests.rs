//! The enumerator's integration tests, in one test binary (the layout of
//! crates/vkherd/tests/tests.rs): the engines against each other and against the plain
//! per-candidate model (`cat_model`, `hand_model_shortcuts`, `opencl_sc_order`), the
//! search with and without witnesses (`witnesses`) and its value screen (`value_screen`),
//! deep searches (`deep_search`).
//! `common` generates random tests (crates/vkherd/tests includes it too), `files` walks
//! the corpus. Run one module with `cargo test -p vkherd-enumerate --test integration
//! MODULE::`.

#[path = "common/cadp.rs"]
mod cadp;
mod common;
mod files;

mod cat_model;
mod deep_search;
mod hand_model_shortcuts;
mod liveness_screen;
mod opencl_sc_order;
mod shortcuts;
mod value_screen;
mod witnesses;

use vkherd_litmus::Diagnostic;
use vkherd_model::Program;

/// A `.litmus` test of either dialect, parsed and lowered (what `vkherd::load_litmus`
/// does, without depending on the vkherd crate).
pub fn load_litmus(source: &str) -> Result<Program, Diagnostic> {
    vkherd_dialects::load(source)
}
