//! The integration tests of the axioms, in one test binary (the
//! layout of crates/vkherd/tests/tests.rs: one link step, not one per file). Run one
//! module with
//! `cargo test -p vkherd-model --test integration MODULE::`.

mod common;

mod axioms;
