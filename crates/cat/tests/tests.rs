//! The integration tests of the cat front end and its limits, in one test binary (the
//! layout of crates/vkherd/tests/tests.rs: one link step, not one per file). Run one
//! module with
//! `cargo test -p vkherd-cat --test integration MODULE::`.

mod dat3m_models;
mod dependencies;
mod herd7_syntax;
mod language;
mod limits;
mod shortcuts;
