//! How the command reaches remote files: the [`HttpOptions`] every URL is opened with, the same
//! for every subcommand (`--cacert FILE`: a PEM file of roots trusted for `https://` besides
//! Mozilla's; without it, the file `SSL_CERT_FILE` names, if any).

use std::path::PathBuf;
use std::sync::OnceLock;

use b2schema::source::http::HttpOptions;

static CA_FILE: OnceLock<PathBuf> = OnceLock::new();

/// Trusts the roots of the PEM file `file` for `https://` from now on (`--cacert`; set once, by
/// `main`).
pub fn set_ca_file(file: PathBuf) {
    let _ = CA_FILE.set(file);
}

/// The options a URL is opened with.
pub fn http_options() -> HttpOptions {
    HttpOptions { ca_file: CA_FILE.get().cloned(), ..HttpOptions::default() }
}
