//! `b2schema serve PATH... [--port N]`: a local, read-only web viewer of Blosc2 files.
//!
//! Bound to 127.0.0.1 only; a request whose `Host` is not `127.0.0.1:PORT` or `localhost:PORT`
//! is refused (421), so a web page elsewhere cannot reach the viewer by DNS rebinding. Files
//! are served only from under the roots given ([`paths::Roots`]), and every file the library
//! opens on the way (a store's members and columns, an embedded store, a sparse frame's chunk
//! files) must lie under them too ([`b2schema::frame::confine_reads_to`]; a link leaving the
//! roots is answered 403 wherever it is met). The page (HTML, CSS, JS) is
//! embedded in the binary and loads nothing from outside. Every request is bounded: its head
//! ([`http::MAX_HEAD`]), the time to send it ([`http::TIMEOUT`] for the whole head), the slice
//! it decodes ([`render::MAX_SLICE_BYTES`]), the image it draws ([`render::MAX_SIDE`]), and the
//! number of requests served at once ([`MAX_CONNECTIONS`]); idle and slow clients cannot hold
//! the workers, and every connection gets an answer ([`accept`]).
//!
//! A store's members open on a frame's page by their keys ([`stores::open_member`]); a table is
//! paged in its stored order or sorted by a column ([`sort`], within [`sort::MAX_SORT_ROWS`]); a
//! BatchArray shows its batches ([`batches`]); every value from a file is cut ([`shown`]) and
//! the page puts every text from a file into the document as text, never as markup.

mod accept;
mod batches;
mod files;
mod http;
mod layout;
mod no_answer;
mod paths;
mod png;
mod remote;
mod render;
mod routes;
mod shown;
mod sort;
mod stores;

#[cfg(test)]
mod props;

use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use crate::Failure;

/// What the fuzz targets call (`fuzz/fuzz_targets/serve_request.rs`): the request parser and
/// the query decoding, on bytes a client sends. Not part of the API.
#[doc(hidden)]
pub mod __fuzz {
    pub use super::http::{Refusal, Request, percent_decode, query_param, read_request};
}

/// What the static viewer's module (`b2schema-wasm`, run in the browser) calls: the pages' JSON
/// and PNG answers for a frame or a store it opened from the browser's bytes, so that one
/// `assets/app.js` draws both. Not part of the API.
#[doc(hidden)]
pub mod __viewer {
    pub use super::batches::limits as batch_limits;
    pub use super::http::{Response, query_param};
    pub use super::no_answer::NoAnswer;
    pub use super::routes::{frame_answer, store_answer};
}

/// Requests served at once (workers); whole requests beyond them wait in a queue, then are
/// answered 503.
pub const MAX_CONNECTIONS: usize = 8;

/// Serves `paths` on 127.0.0.1:`port` (0: a free port) until killed; prints the URL first.
pub fn run(paths: &[PathBuf], port: u16) -> Result<ExitCode, Failure> {
    let roots = Arc::new(paths::Roots::new(paths).map_err(Failure::Message)?);
    // Every file opened from here on (a member, a column, a chunk file) lies under a root.
    let local: Vec<PathBuf> = roots.all().iter().filter(|p| !crate::open::is_url(p)).cloned().collect();
    if !b2schema::frame::confine_reads_to(&local) {
        return Err(Failure::Message("confining reads to the roots: a root no longer canonicalizes".into()));
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .map_err(|e| Failure::Message(format!("binding 127.0.0.1:{port}: {e}")))?;
    let port = listener.local_addr().map_err(|e| Failure::Message(e.to_string()))?.port();
    println!("b2schema serve: http://127.0.0.1:{port}/");
    let _ = std::io::stdout().flush();
    accept::serve(listener, roots, port).map_err(|e| Failure::Message(format!("serving: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
