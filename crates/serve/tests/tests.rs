//! The server's integration tests, one binary (see crates/vkherd/tests/test_layout.rs).
//! They run the server in-process with a stand-in backend, so that what the server does
//! (routes, limits, slots, hostile requests) is tested alone; crates/vkherd/tests/serve.rs
//! tests it with the real backend against the command line.

mod util;

mod hostile;
mod routes;
mod slots;
