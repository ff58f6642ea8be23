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

/// `vkherd gen spinlock 2`: two invocations of one workgroup take a spin lock over an
/// exchange loop, increment x with plain accesses in the critical section, and release
/// the lock (shortcuts.rs and deep_search.rs).
pub const SPINLOCK_2: &str = r#"VULKAN spinlock-2
"vkherd gen spinlock 2"
{ m = 0; x = 0; }
P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;
LC00: | LC00: ;
rmw.atom.acq.wg.sc0.semsc0.semvis r0, m, 1 | rmw.atom.acq.wg.sc0.semsc0.semvis r0, m, 1 ;
bne r0, 0, LC00 | bne r0, 0, LC00 ;
ld.vis.dv.sc0 r1, x | ld.vis.dv.sc0 r1, x ;
add r2, r1, 1 | add r2, r1, 1 ;
st.av.dv.sc0 x, r2 | st.av.dv.sc0 x, r2 ;
st.atom.rel.wg.sc0.semsc0.semav m, 0 | st.atom.rel.wg.sc0.semsc0.semav m, 0 ;
forall (x == 2)
"#;
