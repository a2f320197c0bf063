//! `b2schema serve PATH... [--port N]`: a local, read-only web viewer of Blosc2 files.
//!
//! Bound to 127.0.0.1 only; a request whose `Host` is not `127.0.0.1:PORT` or `localhost:PORT`
//! is refused (421), so a web page elsewhere cannot reach the viewer by DNS rebinding. Files
//! are served only from under the roots given ([`paths::Roots`]). The page (HTML, CSS, JS) is
//! embedded in the binary and loads nothing from outside. Every request is bounded: its head
//! ([`http::MAX_HEAD`]), its time ([`http::TIMEOUT`]), the slice it decodes
//! ([`render::MAX_SLICE_BYTES`]), the image it draws ([`render::MAX_SIDE`]), and the number of
//! requests served at once ([`MAX_CONNECTIONS`]).

mod http;
mod paths;
mod png;
mod render;
mod routes;

#[cfg(test)]
mod props;

use std::io::Write;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::Failure;

/// Requests served at once; more are answered 503 at once.
pub const MAX_CONNECTIONS: usize = 8;

/// Serves `paths` on 127.0.0.1:`port` (0: a free port) until killed; prints the URL first.
pub fn run(paths: &[PathBuf], port: u16) -> Result<ExitCode, Failure> {
    let roots = Arc::new(paths::Roots::new(paths).map_err(Failure)?);
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .map_err(|e| Failure(format!("binding 127.0.0.1:{port}: {e}")))?;
    let port = listener.local_addr().map_err(|e| Failure(e.to_string()))?.port();
    println!("b2schema serve: http://127.0.0.1:{port}/");
    let _ = std::io::stdout().flush();
    let busy = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if busy.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            busy.fetch_sub(1, Ordering::SeqCst);
            let _ = http::write_response(&stream, &http::Response::error(503, "busy, try again"), false);
            continue;
        }
        let (roots, done) = (Arc::clone(&roots), Arc::clone(&busy));
        let spawned = std::thread::Builder::new().name("serve".into()).spawn(move || {
            serve_one(stream, &roots, port);
            done.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            // The thread never started: its slot is free again (the connection was dropped).
            busy.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn serve_one(stream: TcpStream, roots: &paths::Roots, port: u16) {
    if http::prepare(&stream).is_err() {
        return;
    }
    let (resp, head_only) = match http::read_request(&stream) {
        Err(http::Refusal(status, why)) => (http::Response::error(status, why), false),
        Ok(req) if !http::host_allowed(&req.host, port) => (
            http::Response::error(
                421,
                format!("Host {:?} is not 127.0.0.1:{port} or localhost:{port}", req.host),
            ),
            req.method == "HEAD",
        ),
        Ok(req) => (routes::route(roots, &req), req.method == "HEAD"),
    };
    let _ = http::write_response(&stream, &resp, head_only);
}
