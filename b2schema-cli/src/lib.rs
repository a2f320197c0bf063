//! The logic of the `b2schema` command, as functions (the binary in `main.rs` parses the
//! arguments and calls them; the fuzz target `cli` calls them on generated files).
#![forbid(unsafe_code)]

pub mod budget;
pub mod cat;
pub mod colour;
pub mod deep;
pub mod diff;
pub mod du;
pub mod dump;
pub mod edit;
pub mod input;
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
pub mod report;
#[cfg(feature = "serve")]
pub mod serve;
pub mod slice;
pub mod stdin;
pub mod store;
pub mod store_edit;
pub mod summary;
pub mod table;
pub mod table_arrow;
pub mod text;
pub mod verify;
pub mod vlmeta;
pub mod walk;

/// How a command ends when it does not succeed: mapped once to what the user sees (the text on
/// stderr) and the exit code ([`Failure::exit_code`]).
#[derive(Debug)]
pub enum Failure {
    /// What failed, where: said on stderr, exit code 2.
    Message(String),
    /// The reader of the output closed it early (`| head`): a normal end, nothing said, exit code
    /// 0. Every write to the output meets it through [`Failure::writing`] or [`Failure::of`].
    ClosedPipe,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Message(m) => f.write_str(&text::escape(&budget::cli_text(m))),
            Failure::ClosedPipe => f.write_str("the output was closed"),
        }
    }
}

impl Failure {
    /// The exit code of the command that ends so.
    pub fn exit_code(&self) -> std::process::ExitCode {
        match self {
            Failure::Message(_) => std::process::ExitCode::from(2),
            Failure::ClosedPipe => std::process::ExitCode::SUCCESS,
        }
    }

    /// Writing `what` failed with `e`: a closed pipe is [`Failure::ClosedPipe`], the one place that
    /// decides it.
    pub fn writing(what: &str, e: &std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => Failure::ClosedPipe,
            _ => Failure::Message(format!("{what}: {e}")),
        }
    }

    /// The library's error `e` about `path`, where `e` may come from writing the output (a closed
    /// pipe is [`Failure::ClosedPipe`]).
    pub fn of(path: &std::path::Path, e: impl Into<b2schema::Error>) -> Self {
        let e = e.into();
        match e.kind() {
            b2schema::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe => Failure::ClosedPipe,
            _ => Failure::at(path, e),
        }
    }

    /// The error `e` about `path` (said once: a library error that already names the file
    /// starts with it).
    pub fn at(path: &std::path::Path, e: impl std::fmt::Display) -> Self {
        let (path, e) = (path.display().to_string(), e.to_string());
        if e.starts_with(&path) && e[path.len()..].starts_with(": ") {
            Failure::Message(e)
        } else {
            Failure::Message(format!("{path}: {e}"))
        }
    }
}

/// Writes `text` to stdout; a reader that closes the pipe early (`| head`) is a normal end.
pub fn print(text: &[u8]) -> Result<std::process::ExitCode, Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    ended(out.write_all(text).and_then(|()| out.flush())).map(|()| std::process::ExitCode::SUCCESS)
}

/// A write error ends the command, except a closed pipe (`| head`): that is a normal end.
pub fn ended(written: std::io::Result<()>) -> Result<(), Failure> {
    match written.map_err(|e| Failure::writing("writing the output", &e)) {
        Err(Failure::ClosedPipe) => Ok(()),
        other => other,
    }
}
