//! What the server listens on and the limits it puts on every request. The limits are
//! the server's: a request may ask for less, never for more.

use std::net::SocketAddr;
use std::time::Duration;

/// The address `vkherd serve` listens on without `--bind`.
pub const DEFAULT_BIND: &str = "127.0.0.1:7411";

/// The server's configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub limits: Limits,
}

/// Bounds on the work one request may cause and on the server as a whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Runs (run, diff, diy) at once; past it a request is answered 503 at once.
    pub max_runs: usize,
    /// The time a run may take (the enumerator's `--timeout`; a request's is lowered to
    /// it). A request's steps (the run, its graphs, its explanation) share it.
    pub timeout: Duration,
    /// The candidates a run may examine (`--max-candidates`; lowered to it).
    pub max_candidates: u64,
    /// The highest `--unroll` a request may ask for (higher is refused).
    pub max_unroll: u32,
    /// The largest request body, in bytes (larger: 413).
    pub max_body: usize,
    /// Connections at once; past it new ones wait to be accepted.
    pub max_connections: usize,
    /// Time to receive a request's headers, and then its body: a slow client is cut off.
    pub read_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_runs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            timeout: Duration::from_secs(10),
            max_candidates: 5_000_000,
            max_unroll: 8,
            max_body: 256 * 1024,
            max_connections: 256,
            read_timeout: Duration::from_secs(15),
        }
    }
}

impl Limits {
    /// How long a request waits for its run before answering "busy" itself. The run
    /// honours [`Limits::timeout`] once per step (a run with `--liveness` has two
    /// searches, each bounded); past this a run that does not stop is a bug, and its slot
    /// stays taken until it does stop, so the server never runs more than `max_runs`.
    pub fn deadline(&self) -> Duration {
        self.timeout * 3 + Duration::from_secs(10)
    }
}
