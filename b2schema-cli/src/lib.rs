//! The logic of the `b2schema` command, as functions (the binary in `main.rs` parses the
//! arguments and calls them; the fuzz target `cli` calls them on generated files).
#![forbid(unsafe_code)]

pub mod budget;
pub mod cat;
pub mod colour;
pub mod deep;
pub mod diff;
pub mod inspect;
pub mod items;
pub mod kind;
pub mod layouts;
pub mod ls;
pub mod man;
pub mod msgpack_json;
pub mod names;
pub mod net;
pub mod npy;
pub mod objects;
pub mod open;
pub mod output;
pub mod pack;
pub mod paths_json;
pub mod progress;
#[cfg(feature = "serve")]
pub mod serve;
pub mod slice;
pub mod stdin;
pub mod store;
pub mod summary;
pub mod table;
pub mod table_arrow;
pub mod text;
pub mod verify;
pub mod vlmeta;
pub mod walk;

/// An error for the user: what failed, where.
#[derive(Debug)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&text::escape(&budget::cli_text(&self.0)))
    }
}

impl Failure {
    /// The error `e` about `path` (said once: a library error that already names the file
    /// starts with it).
    pub fn at(path: &std::path::Path, e: impl std::fmt::Display) -> Self {
        let (path, e) = (path.display().to_string(), e.to_string());
        if e.starts_with(&path) && e[path.len()..].starts_with(": ") {
            Failure(e)
        } else {
            Failure(format!("{path}: {e}"))
        }
    }
}

/// Writes `text` to stdout; a reader that closes the pipe early (`| head`) is a normal end.
pub fn print(text: &[u8]) -> Result<std::process::ExitCode, Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("writing the output: {e}")))
        }
        _ => Ok(std::process::ExitCode::SUCCESS),
    }
}

/// A write error ends the command, except a closed pipe (`| head`): that is a normal end.
pub fn ended(written: std::io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("writing the output: {e}")))
        }
        _ => Ok(()),
    }
}
