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
pub mod writeback;

/// How a command ends when it does not succeed: mapped once to what the user sees (the text on
/// stderr) and the exit code ([`Failure::exit_code`]).
#[derive(Debug)]
pub enum Failure {
    /// What failed, where: said on stderr, exit code 2.
    Message(String),
    /// The library's error about `path`: said on stderr as the command line says a library error
    /// (the path once; a budget error names the option that raises its limit, `--max-output`,
    /// [`budget::said`]), exit code 2.
    Library {
        /// The path (or URL) the command was given.
        path: std::path::PathBuf,
        /// The error.
        error: b2schema::Error,
    },
    /// The reader of the output closed it early (`| head`): a normal end, nothing said, exit code
    /// 0. Every write to the output meets it through [`Failure::writing`] or [`Failure::of`].
    ClosedPipe,
}

/// What a [`Failure`] about a path says: text, or the library's error (kept typed until it is said).
#[derive(Debug)]
pub enum Cause {
    /// Words of the command line's.
    Text(String),
    /// The library's error.
    Library(b2schema::Error),
}

impl From<String> for Cause {
    fn from(s: String) -> Self {
        Cause::Text(s)
    }
}

impl From<&str> for Cause {
    fn from(s: &str) -> Self {
        Cause::Text(s.to_owned())
    }
}

impl From<b2schema::Error> for Cause {
    fn from(e: b2schema::Error) -> Self {
        Cause::Library(e)
    }
}

impl From<b2schema::format::Error> for Cause {
    fn from(e: b2schema::format::Error) -> Self {
        Cause::Library(e.into())
    }
}

impl From<&std::io::Error> for Cause {
    fn from(e: &std::io::Error) -> Self {
        Cause::Text(e.to_string())
    }
}

impl From<std::io::Error> for Cause {
    /// An I/O error; one that carries the library's error (a walk stopped by it) is that error.
    fn from(e: std::io::Error) -> Self {
        let text = e.to_string();
        match e.into_inner().map(|inner| inner.downcast::<b2schema::Error>()) {
            Some(Ok(e)) => Cause::Library(*e),
            _ => Cause::Text(text),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&text::escape(&self.said()))
    }
}

impl Failure {
    /// The exit code of the command that ends so.
    pub fn exit_code(&self) -> std::process::ExitCode {
        match self {
            Failure::Message(_) | Failure::Library { .. } => std::process::ExitCode::from(2),
            Failure::ClosedPipe => std::process::ExitCode::SUCCESS,
        }
    }

    /// What the failure says, unescaped ([`Display`](std::fmt::Display) escapes it for a
    /// terminal): the one place a library error becomes the command line's text.
    pub fn said(&self) -> String {
        match self {
            Failure::Message(m) => m.clone(),
            Failure::Library { path, error } => prefixed(path, budget::said(error)),
            Failure::ClosedPipe => String::from("the output was closed"),
        }
    }

    /// What the failure says after the path it is about, for a listing's line that names the
    /// path itself (a library error is said whole, as the library says it).
    pub fn detail(&self, path: &std::path::Path) -> String {
        match self {
            Failure::Library { error, .. } => budget::said(error),
            other => {
                let (at, said) = (format!("{}: ", path.display()), other.said());
                said.strip_prefix(&at).map_or_else(|| said.clone(), str::to_owned)
            }
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
    pub fn at(path: &std::path::Path, e: impl Into<Cause>) -> Self {
        match e.into() {
            Cause::Text(e) => Failure::Message(prefixed(path, e)),
            Cause::Library(error) => Failure::Library { path: path.to_owned(), error },
        }
    }
}

/// `e` about `path`: `PATH: e`, unless `e` starts so already.
fn prefixed(path: &std::path::Path, e: String) -> String {
    let path = path.display().to_string();
    if e.starts_with(&path) && e[path.len()..].starts_with(": ") { e } else { format!("{path}: {e}") }
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
