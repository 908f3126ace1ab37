//! The connection loop: HTTP/1.1 with read timeouts and a cap on open connections.
//!
//! A client must send a request's headers within [`HEADER_TIMEOUT`] of the connection
//! opening or of the previous answer (an idle connection is closed then too), and its body
//! within [`BODY_TIMEOUT`] ([`crate::read_body`]). At most [`MAX_CONNECTIONS`] connections are
//! served at once; the next ones wait in the kernel's queue until one closes.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Longest wait for a request's headers (and on an idle kept-alive connection).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest wait for a request's body once its headers are in.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Most connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// Largest request head (request line and headers), in bytes.
pub const MAX_HEAD: usize = 64 << 10;

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Router) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = open.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, a connection reset before it was accepted: go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(MAX_HEAD);
            // A broken connection is the client's business; nothing to report.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
