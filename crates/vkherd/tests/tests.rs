//! The CLI crate's integration tests, in one test binary (ripgrep's `tests/tests.rs`
//! layout): one link step instead of one per file. Each former test file is a module
//! here, unchanged in place; `util` runs the binary and makes scratch files, `common`
//! generates random tests (crates/enumerate/tests/common, shared), `files` walks the
//! corpus. Tests of the engines alone are in crates/enumerate/tests. Run one module with
//! `cargo test -p vkherd --test integration MODULE::`.

// Shared with the engines' tests, which use generators this binary does not.
#[allow(dead_code)]
#[path = "../../enumerate/tests/common/mod.rs"]
mod common;
mod files;
mod util;

mod addresses;
mod bounded_empty;
mod cat_limits;
mod cli;
mod cli_edges;
mod cli_habits;
mod condition_modes;
mod corpus;
mod dat3m_view;
mod diff_dialects;
mod differential;
mod distinguish;
mod doc_paths;
mod estimate;
mod explain;
mod explain_cli;
mod failing_tests;
mod generate;
mod generate_cli;
mod herd7_models;
mod khronos;
mod liveness;
mod liveness_cli;
mod log_matching;
mod malformed;
mod mmra_properties;
mod mmra_syntax;
mod model_flags;
mod model_names;
mod models_cli;
mod mutations;
mod observe;
mod opencl_corpus;
mod opencl_dialect;
mod opencl_mmra;
mod partial_runs;
mod ptx_corpus;
mod ptx_mapping;
mod report;
mod resolve;
mod serve;
mod serve_browser;
mod shards;
mod symlink_dirs;
mod test_layout;
mod unroll_limits;
