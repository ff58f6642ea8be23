//! `vkherd serve`: where to listen and the limits every request is held to
//! (docs/serve.md).

use super::ThreadArgs;
use clap::Args;
use std::net::SocketAddr;
use std::time::Duration;
use vkherd_serve::{Config, Limits, DEFAULT_BIND};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address and port to listen on (port 0: any free one; the address is printed
    /// at start). 0.0.0.0:PORT listens on every interface: see docs/serve.md first.
    #[arg(long, value_name = "ADDR:PORT", default_value = DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// Runs at once; past it a request is answered 503 "busy" with Retry-After
    /// [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub max_runs: Option<usize>,
    /// Most seconds one run may take (a request may ask for less, never more).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Most candidates one run may examine (a request may ask for fewer, never more).
    #[arg(long, value_name = "N", default_value_t = 5_000_000)]
    pub max_candidates: u64,
    /// The highest --unroll a request may ask for.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_unroll: u32,
    /// The largest request, in bytes (a test's text is sent in it).
    #[arg(long, value_name = "BYTES", default_value_t = 256 * 1024)]
    pub max_body: usize,
    /// Connections at once; more wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections: usize,
    #[command(flatten)]
    pub threads: ThreadArgs,
}

/// A limit a shared server cannot do without.
#[derive(Debug, Clone, PartialEq)]
pub struct NoLimit(pub &'static str);

impl std::fmt::Display for NoLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error: vkherd serve needs a positive {}: a server runs other people's tests, so every run is bounded",
            self.0
        )
    }
}

impl ServeArgs {
    /// The server's configuration; every limit must be a positive number.
    pub fn config(&self) -> Result<Config, NoLimit> {
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(NoLimit("--timeout"));
        }
        let positive = [
            (self.max_candidates == 0, "--max-candidates"),
            (self.max_body == 0, "--max-body"),
            (self.max_connections == 0, "--max-connections"),
            (self.max_runs == Some(0), "--max-runs"),
        ];
        if let Some((_, name)) = positive.iter().find(|(zero, _)| *zero) {
            return Err(NoLimit(name));
        }
        let defaults = Limits::default();
        Ok(Config {
            bind: self.bind,
            limits: Limits {
                max_runs: self.max_runs.unwrap_or(defaults.max_runs),
                timeout: Duration::from_secs_f64(self.timeout.min(1e9)),
                max_candidates: self.max_candidates,
                max_unroll: self.max_unroll,
                max_body: self.max_body,
                max_connections: self.max_connections,
                ..defaults
            },
        })
    }
}
