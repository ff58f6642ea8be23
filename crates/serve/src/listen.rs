//! Accepting connections: at most `max_connections` at once (a flood of idle sockets
//! waits in the kernel's queue rather than in the server's memory), each served by
//! hyper's HTTP/1 with a deadline on the request's headers (a slow client is cut off).

use crate::config::Limits;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The largest request head (request line and headers) read, in bytes.
const MAX_HEAD: usize = 64 * 1024;

/// Serves `router` on `listener`, forever.
pub async fn serve(listener: TcpListener, router: Router, limits: &Limits) {
    let connections = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.read_timeout)
        .max_buf_size(MAX_HEAD);
    loop {
        let permit = connections
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, a connection reset before it was accepted: wait a
            // little and go on, rather than stop serving.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let connection = http.serve_connection(
            TokioIo::new(stream),
            TowerToHyperService::new(router.clone()),
        );
        tokio::spawn(async move {
            // A connection's errors (a client gone, a malformed request) end it alone.
            let _ = connection.await;
            drop(permit);
        });
    }
}
