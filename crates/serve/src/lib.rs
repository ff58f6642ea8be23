//! `vkherd serve`: a playground page and a JSON API (docs/serve.md).
//!
//! This crate is the server: HTTP (axum on hyper and tokio), the page and its files,
//! the embedded corpus, and the bounds that make it safe to share (run slots, request
//! and time limits, a panic kept to its request). What a request means is the
//! [`Backend`]'s: the `vkherd` binary implements it with the library, so that the
//! server's answers are the command line's.

mod api;
mod assets;
pub mod backend;
mod body;
mod config;
pub mod corpus;
mod errors;
mod listen;
mod slots;

pub use backend::{
    Answer, Backend, Bounds, DiffRequest, DiyRequest, OptionError, Refusal, RunOptions, RunRequest,
};
pub use config::{Config, Limits, DEFAULT_BIND};
pub use slots::RETRY_AFTER;

use std::net::SocketAddr;
use std::sync::Arc;

/// A server bound to its address, not yet serving.
pub struct Server {
    listener: std::net::TcpListener,
    limits: Limits,
    backend: Arc<dyn Backend>,
}

impl Server {
    /// Binds `config.bind` (port 0: any free port, see [`Server::local_addr`]).
    pub fn bind(config: &Config, backend: Arc<dyn Backend>) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(config.bind)?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            limits: config.limits.clone(),
            backend,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends. Runs go to threads of their own (at most
    /// `max_runs`); two threads carry the connections.
    pub fn run(self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(self.limits.max_runs.max(1) + 2)
            .enable_all()
            .build()?;
        let app = api::App::new(self.backend, self.limits.clone());
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            listen::serve(listener, api::router(app), &self.limits).await;
            Ok(())
        })
    }
}
