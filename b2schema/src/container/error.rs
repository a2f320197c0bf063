//! The error of the containers: what a caller can match ([`ErrorKind`]: not a frame, a store
//! where a frame was asked for, no such key, truncated, budget exceeded, I/O, unsupported, a chunk
//! that does not decode, a broken rule of the format), the file and store member it is about, and
//! the field-level detail (byte offset, field path, expected and found).
//!
//! ```
//! let e = b2schema::open("Cargo.toml").unwrap_err();
//! assert!(matches!(e.kind(), b2schema::ErrorKind::NotAFrame { .. }));
//! assert_eq!(e.file(), Some("Cargo.toml"));
//! assert!(e.to_string().starts_with("Cargo.toml: not a Blosc2 frame"), "{e}");
//! ```

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Display};

pub use crate::format::error::{Category, Segment};
use crate::format::error::{Error as FormatError, ErrorKind as FormatKind, bytes, path_text};

/// What an error of a file outside the confined directories says ([`ErrorKind::Confined`]).
pub const OUTSIDE: &str = "a file inside the directories reads are confined to";

/// Shorthand for `Result<T, b2schema::Error>`.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An error of a container: its [`kind`](Error::kind), the file (and store member) it is about,
/// and where in the bytes it was found.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    /// For the kinds other than [`ErrorKind::Invalid`] (which carries its own position).
    offset: Option<usize>,
    /// Innermost segment first, as the format's.
    path: Vec<Segment>,
    /// The file (or URL) the error is about.
    file: Option<String>,
    /// The store member it is about, inside `file`.
    member: Option<String>,
    /// The error beneath this one (a kind said from the file's first bytes, over the field-level
    /// error that found it).
    cause: Option<Error>,
}

/// What went wrong, for a caller to match. New kinds may be added.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes are not a Blosc2 frame: `why` says what was looked for and not found
    /// ("no b2frame magic at offset 2", "nothing at offset 9: the file has 4 bytes").
    NotAFrame {
        /// What is missing, in a few words.
        why: String,
    },
    /// A python-blosc2 store where a frame was asked for: open it with `store::Store::open`, then
    /// `store.get(key)`.
    AStore {
        /// `.b2z`, `.b2d` or `.b2e`, in words.
        form: &'static str,
        /// How many members it has.
        members: usize,
        /// A few of its keys.
        keys: Vec<String>,
    },
    /// A directory given as a sparse frame has no index file.
    NotASparseFrame {
        /// The index file's name (`chunks.b2frame`).
        missing: &'static str,
    },
    /// A frame asked for at an offset past the end of the file.
    NothingAt {
        /// The offset.
        offset: u64,
        /// The file's length.
        len: u64,
    },
    /// The index file of a sparse frame, where its directory should be given.
    SparseIndex {
        /// The directory to give.
        dir: String,
    },
    /// A file outside the directories reads are confined to
    /// ([`confine_reads_to`](crate::frame::confine_reads_to): `b2schema serve`'s roots), reached by
    /// a name or a link: refused after it was opened, before a byte of it is read.
    Confined {
        /// The name it was opened by.
        path: String,
    },
    /// A store has no member of this key (the store is the error's [`file`](Error::file)).
    NoSuchKey {
        /// The key asked for.
        key: String,
        /// A few of the store's keys.
        keys: Vec<String>,
        /// How many members the store has.
        members: usize,
    },
    /// A store already has a member of this key, where a new one was to be added (replace it
    /// instead: `StoreMut::set`); the store is the error's [`file`](Error::file).
    KeyExists {
        /// The key.
        key: String,
    },
    /// The frame is shorter than its header says.
    Truncated {
        /// Bytes the header states.
        stated: u64,
        /// Bytes there are.
        available: u64,
    },
    /// The input asks for more memory or work than the `Limits` allow (or, when `max` is 0, than
    /// the allocator could give).
    BudgetExceeded {
        /// What needed it ("a chunk's nbytes", "the array's data").
        what: &'static str,
        /// Bytes (or items) asked for.
        needed: u64,
        /// The limit that refused it.
        limit: Limit,
        /// Its value.
        max: u64,
    },
    /// Reading or writing failed (the error's [`file`](Error::file) names the path).
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    Io(std::io::Error),
    /// Something valid that b2schema does not read or write (yet): what it is.
    Unsupported(Cow<'static, str>),
    /// A Blosc chunk that does not decode (the error's offset is where, in the file).
    Chunk(b2schema_chunk::Error),
    /// A rule of the format broken by the bytes: the field-level detail (byte offset, field path,
    /// expected and found) is the format's error, also given as the [`source`](core::error::Error::source).
    Invalid(FormatError),
}

/// One of the limits of a `Limits` budget (`b2schema::Limits`), named in a budget error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `Limits::max_decompressed`.
    Decompressed,
    /// `Limits::max_decompressed_total`.
    DecompressedTotal,
    /// `Limits::max_items`.
    Items,
    /// `Limits::max_output`.
    Output,
    /// `Limits::max_shown`.
    Shown,
    /// `Limits::max_chunks`.
    Chunks,
    /// `Limits::max_fetched`.
    Fetched,
    /// `Limits::max_requests`.
    Requests,
}

impl Limit {
    /// Every limit.
    pub const ALL: [Limit; 8] = [
        Limit::Decompressed,
        Limit::DecompressedTotal,
        Limit::Items,
        Limit::Output,
        Limit::Shown,
        Limit::Chunks,
        Limit::Fetched,
        Limit::Requests,
    ];

    /// The `Limits` setting that raises it (`max_decompressed`), as budget errors name it
    /// (`raise Limits::max_decompressed`); a program that calls its settings otherwise (the
    /// command line's `--max-decompressed`) renames it at its own layer.
    pub const fn name(self) -> &'static str {
        match self {
            Limit::Decompressed => "max_decompressed",
            Limit::DecompressedTotal => "max_decompressed_total",
            Limit::Items => "max_items",
            Limit::Output => "max_output",
            Limit::Shown => "max_shown",
            Limit::Chunks => "max_chunks",
            Limit::Fetched => "max_fetched",
            Limit::Requests => "max_requests",
        }
    }
}

impl Error {
    /// An error of `kind`, with no position yet.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        let inner = Inner { kind, offset: None, path: Vec::new(), file: None, member: None, cause: None };
        Error { inner: Box::new(inner) }
    }

    /// An error of `kind` at byte `offset`.
    #[cold]
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Self::new(kind).with_offset(offset)
    }

    /// A chunk decoding error, for a chunk that starts at byte `chunk_start`.
    #[cold]
    pub fn chunk(e: b2schema_chunk::Error, chunk_start: usize) -> Self {
        Self::at(ErrorKind::Chunk(e), chunk_start.saturating_add(e.offset)).in_field(e.field)
    }

    /// A violated rule of the format: `expected {what} {expected}, found {found}` at `offset`
    /// (an [`ErrorKind::Invalid`]).
    #[cold]
    pub fn invalid(what: &'static str, expected: impl Display, found: impl Display, offset: usize) -> Self {
        FormatError::invalid(what, expected, found, offset).into()
    }

    /// [`Error::invalid`] with no position yet.
    #[cold]
    pub fn mismatch(what: &'static str, expected: impl Display, found: impl Display) -> Self {
        let kind = FormatKind::Mismatch { what, expected: expected.to_string(), found: found.to_string() };
        FormatError::new(kind).into()
    }

    /// Memory the allocator refused: `what` needed `needed` bytes (a [`ErrorKind::BudgetExceeded`]
    /// with `max` 0, as every fallible allocation of the containers reports it).
    #[cold]
    pub fn no_memory(what: &'static str, needed: u64, offset: usize) -> Self {
        Self::at(ErrorKind::BudgetExceeded { what, needed, limit: Limit::Decompressed, max: 0 }, offset)
    }

    /// A message where no kind fits better (an [`ErrorKind::Invalid`] of the format's `Custom`).
    #[cold]
    pub fn custom(message: impl Display) -> Self {
        FormatError::new(FormatKind::Custom(message.to_string())).into()
    }

    /// Something b2schema does not do: an [`ErrorKind::Unsupported`].
    #[cold]
    pub fn unsupported(what: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorKind::Unsupported(what.into()))
    }

    /// Sets the offset if the error has none yet.
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Self {
        match &mut self.inner.kind {
            ErrorKind::Invalid(e) => e.locate(offset),
            _ => {
                self.inner.offset.get_or_insert(offset);
            }
        }
        self
    }

    /// Moves the offset by `base`: for errors found inside a sub-slice.
    #[must_use]
    pub fn shift_offset(mut self, base: usize) -> Self {
        let inner = &mut *self.inner;
        if let ErrorKind::Invalid(e) = &mut inner.kind {
            let taken = core::mem::replace(e, FormatError::new(FormatKind::InvalidUtf8));
            *e = taken.shift_offset(base);
        } else if let Some(o) = &mut inner.offset {
            *o = o.saturating_add(base);
        }
        if let Some(cause) = inner.cause.take() {
            inner.cause = Some(cause.shift_offset(base));
        }
        self
    }

    /// Prepends a path segment (the error is unwinding out of that field or element).
    #[must_use]
    #[cold]
    pub fn in_segment(mut self, segment: Segment) -> Self {
        match &mut self.inner.kind {
            ErrorKind::Invalid(e) => {
                let taken = core::mem::replace(e, FormatError::new(FormatKind::InvalidUtf8));
                *e = taken.in_segment(segment);
            }
            _ => self.inner.path.push(segment),
        }
        self
    }

    /// Prepends a struct field to the path.
    #[must_use]
    pub fn in_field(self, name: &'static str) -> Self {
        self.in_segment(Segment::Field(name))
    }

    /// Names the whole value (`header`, `b2nd`) when the error names no field yet.
    #[must_use]
    pub fn or_field(self, name: &'static str) -> Self {
        if self.path().next().is_none() { self.in_field(name) } else { self }
    }

    /// Names the file (or URL) the error is about, as text; a file already named is kept.
    #[must_use]
    #[cold]
    pub fn in_file(mut self, path: impl Display) -> Self {
        if self.inner.file.is_none() {
            self.inner.file = Some(path.to_string());
        }
        self
    }

    /// Names the store member the error is about (its key); one already named is kept.
    #[must_use]
    #[cold]
    pub fn in_member(mut self, key: impl Display) -> Self {
        if self.inner.member.is_none() {
            self.inner.member = Some(key.to_string());
        }
        self
    }

    /// This error of `kind` (what the file is, found from its first bytes) over `cause` (the error
    /// that found it), about `cause`'s file.
    #[must_use]
    #[cold]
    pub fn over(kind: ErrorKind, mut cause: Error) -> Self {
        let mut e = Self::new(kind);
        e.inner.file = cause.inner.file.take();
        e.inner.member = cause.inner.member.take();
        e.inner.cause = Some(cause);
        e
    }

    /// The same error without the file it names (for a caller that says the path itself).
    #[must_use]
    pub fn without_file(mut self) -> Self {
        self.inner.file = None;
        self
    }

    /// The file (or URL) the error is about, when it names one.
    pub fn file(&self) -> Option<&str> {
        self.inner.file.as_deref()
    }

    /// The store member the error is about, when it names one.
    pub fn member(&self) -> Option<&str> {
        self.inner.member.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The error beneath this one: for a kind said from the file's first bytes ("not a Blosc2
    /// frame"), the field-level error that found it.
    pub fn cause(&self) -> Option<&Error> {
        self.inner.cause.as_ref()
    }

    /// The format's field-level error, when the kind is [`ErrorKind::Invalid`].
    pub fn format_error(&self) -> Option<&FormatError> {
        match &self.inner.kind {
            ErrorKind::Invalid(e) => Some(e),
            _ => None,
        }
    }

    /// The byte offset where it went wrong, when known.
    pub fn offset(&self) -> Option<usize> {
        match &self.inner.kind {
            ErrorKind::Invalid(e) => e.offset(),
            _ => self.inner.offset,
        }
    }

    /// The path segments from the outermost value inwards.
    pub fn path(&self) -> impl Iterator<Item = &Segment> {
        let own = match &self.inner.kind {
            ErrorKind::Invalid(_) => None,
            _ => Some(self.inner.path.iter().rev()),
        };
        let format = self.format_error().map(|e| e.path());
        own.into_iter().flatten().chain(format.into_iter().flatten())
    }

    /// The path as text: `shape[2]`, `header.flags`, or empty at the top level.
    pub fn path_string(&self) -> String {
        match &self.inner.kind {
            ErrorKind::Invalid(e) => e.path_string(),
            _ => path_text(self.inner.path.iter().rev()),
        }
    }

    /// The category of the error.
    pub fn classify(&self) -> Category {
        match &self.inner.kind {
            ErrorKind::Invalid(e) => e.classify(),
            #[cfg(feature = "std")]
            ErrorKind::Io(_) => Category::Io,
            ErrorKind::Chunk(e) if e.kind == b2schema_chunk::ErrorKind::Truncated => Category::Eof,
            ErrorKind::Truncated { .. } | ErrorKind::NothingAt { .. } => Category::Eof,
            _ => Category::Data,
        }
    }

    /// Whether the input ended too early.
    pub fn is_eof(&self) -> bool {
        self.classify() == Category::Eof
    }

    /// Whether a budget refused the work ([`ErrorKind::BudgetExceeded`], or memory the allocator
    /// would not give the format).
    pub fn is_budget(&self) -> bool {
        match &self.inner.kind {
            ErrorKind::BudgetExceeded { .. } => true,
            ErrorKind::Invalid(e) => matches!(e.kind(), FormatKind::AllocationFailed { .. }),
            _ => false,
        }
    }

    /// The error without its file, member and kind said from the first bytes: what went wrong,
    /// where, expected and found.
    pub fn detail(&self) -> impl Display + '_ {
        Detail(self, &setting)
    }

    /// The error as [`Display`] says it, but the limit of a budget error named by `name` rather
    /// than as the `Limits` setting (`raise Limits::max_output`): a program whose settings are
    /// called otherwise names its own (the command line's `raise --max-output`), from the typed
    /// [`Limit`], not by rewriting the text.
    ///
    /// ```
    /// use b2schema::{Error, ErrorKind, Limit};
    /// let kind = ErrorKind::BudgetExceeded { what: "the output", needed: 9, limit: Limit::Output, max: 1 };
    /// let e = Error::new(kind);
    /// assert!(e.to_string().ends_with("(raise Limits::max_output)"), "{e}");
    /// let flag = |l: Limit| format!("--{}", l.name().replace('_', "-"));
    /// assert!(e.naming_limits(&flag).to_string().ends_with("(raise --max-output)"));
    /// ```
    pub fn naming_limits<'a>(&'a self, name: &'a dyn Fn(Limit) -> String) -> impl Display + 'a {
        Naming(self, name)
    }

    /// The message and, for expected/found errors, the part after the position; a budget
    /// error's limit named by `name`.
    fn message(&self, name: &dyn Fn(Limit) -> String) -> (String, Option<String>) {
        use ErrorKind as K;
        match &self.inner.kind {
            K::NotAFrame { why } => (alloc::format!("not a Blosc2 frame ({why})"), None),
            K::AStore { form, members, keys } => (
                String::from("a python-blosc2 store, not a frame"),
                Some(alloc::format!(
                    "{form} of {members} members: {}{} (b2schema::store::Store::open opens a store, store.get(key) its members)",
                    keys.join(", "),
                    if *members > keys.len() { ", ..." } else { "" }
                )),
            ),
            K::NotASparseFrame { missing } => {
                (alloc::format!("not a sparse frame: the directory has no {missing}"), None)
            }
            K::NothingAt { offset, len } => {
                (alloc::format!("nothing at offset {offset}: the file has {len} bytes"), None)
            }
            K::Confined { path } => (
                alloc::format!("expected {OUTSIDE} (a path under a served root)"),
                Some(alloc::format!("found {}", path.escape_debug())),
            ),
            K::SparseIndex { dir } => (alloc::format!("a sparse frame: give the directory ({dir})"), None),
            K::NoSuchKey { key, keys, members } => {
                let some = match keys.is_empty() {
                    true => String::from("(none: the store is empty)"),
                    false => keys.join(", ") + if *members > keys.len() { ", ..." } else { "" },
                };
                (
                    alloc::format!("expected a key of the store, one of {some}"),
                    Some(alloc::format!("found {}", key.escape_debug())),
                )
            }
            K::KeyExists { key } => (
                String::from("expected a key not yet in the store (or a replacement of it)"),
                Some(alloc::format!("found {}, which it has", key.escape_debug())),
            ),
            K::Truncated { stated, available } => {
                (alloc::format!("truncated: the header says {stated} bytes, the file has {available}"), None)
            }
            K::BudgetExceeded { what, needed, limit, max: 0 } => (
                alloc::format!(
                    "budget exceeded: {what} needs {}, which could not be allocated",
                    bytes(*needed)
                ),
                Some(alloc::format!("lower it or raise the memory available ({})", name(*limit))),
            ),
            K::BudgetExceeded { what, needed, limit, max } => (
                alloc::format!("budget exceeded: {what} needs {needed}"),
                Some(alloc::format!("more than the limit of {max} (raise {})", name(*limit))),
            ),
            #[cfg(feature = "std")]
            K::Io(e) => (alloc::format!("I/O error: {e}"), None),
            K::Unsupported(what) => (alloc::format!("unsupported: {what}"), None),
            // The chunk codec renders its own halves; this error adds the position in the file.
            K::Chunk(e) => (
                alloc::format!("expected {} in a Blosc chunk", e.expectation()),
                Some(alloc::format!("found {}", e.finding())),
            ),
            K::Invalid(e) => (e.to_string(), None),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Naming(self, &setting).fmt(f)
    }
}

/// How a budget error names its limit unless told otherwise: the `Limits` setting.
fn setting(limit: Limit) -> String {
    alloc::format!("Limits::{}", limit.name())
}

/// [`Error::naming_limits`]: the error, its limits named by the function.
struct Naming<'a>(&'a Error, &'a dyn Fn(Limit) -> String);

impl Display for Naming<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Naming(e, name) = *self;
        if let Some(file) = &e.inner.file {
            f.write_str(file)?;
            if let Some(member) = &e.inner.member {
                write!(f, " [{member}]")?;
            }
            f.write_str(": ")?;
        } else if let Some(member) = &e.inner.member {
            write!(f, "[{member}]: ")?;
        }
        Detail(e, name).fmt(f)
    }
}

/// [`Error::detail`], its limits named by the function.
struct Detail<'a>(&'a Error, &'a dyn Fn(Limit) -> String);

impl Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Detail(e, name) = *self;
        let (msg, found) = e.message(name);
        f.write_str(&msg)?;
        if !matches!(e.inner.kind, ErrorKind::Invalid(_)) {
            if let Some(off) = e.inner.offset {
                write!(f, " at offset {off}")?;
            }
            let path = e.path_string();
            if !path.is_empty() {
                write!(f, " ({path})")?;
            }
        }
        if let Some(found) = found {
            write!(f, ", {found}")?;
        }
        if let Some(cause) = &e.inner.cause {
            write!(f, "; {}", Detail(cause, name))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}: {self})", self.inner.kind)
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        if let Some(cause) = &self.inner.cause {
            return Some(cause);
        }
        match &self.inner.kind {
            #[cfg(feature = "std")]
            ErrorKind::Io(e) => Some(e),
            ErrorKind::Chunk(e) => Some(e),
            ErrorKind::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<FormatError> for Error {
    #[cold]
    fn from(e: FormatError) -> Self {
        #[cfg(feature = "std")]
        if matches!(e.kind(), FormatKind::Io(_)) {
            if let Some(io) = e.into_io() {
                return Error::new(ErrorKind::Io(io));
            }
            unreachable!("an Io kind gives its io::Error");
        }
        Error::new(ErrorKind::Invalid(e))
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}

// Deserializers of the containers (items, cells) speak serde with this error.
impl serde_core::de::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Self {
        Error::custom(msg)
    }
}

impl serde_core::ser::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Self {
        Error::custom(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_render_with_file_member_and_cause() {
        let cause = Error::invalid("b2frame magic", "b2frame", "zip", 2).in_field("magic").in_file("x.b2z");
        let e = Error::over(ErrorKind::NotAFrame { why: "no b2frame magic at offset 2".into() }, cause);
        assert_eq!(e.file(), Some("x.b2z"));
        assert!(
            e.to_string().starts_with("x.b2z: not a Blosc2 frame (no b2frame magic at offset 2); expected"),
            "{e}"
        );
        let kind = ErrorKind::NoSuchKey { key: "/a".into(), keys: alloc::vec!["/b".into()], members: 2 };
        let e = Error::new(kind).in_file("s.b2z");
        assert_eq!(e.to_string(), "s.b2z: expected a key of the store, one of /b, ..., found /a");
        let e = Error::invalid("x", 1, 2, 7).in_member("/m").in_file("s.b2z").in_field("f");
        assert_eq!(e.to_string(), "s.b2z [/m]: expected x 1 at offset 7 (f), found 2");
        assert_eq!(e.offset(), Some(7));
        assert_eq!(e.path_string(), "f");
        assert_eq!(core::mem::size_of::<Result<u64>>(), 16);
    }

    #[test]
    fn position_of_own_kinds() {
        let e = Error::at(ErrorKind::Truncated { stated: 9, available: 4 }, 3).in_field("b").in_field("a");
        assert_eq!(e.to_string(), "truncated: the header says 9 bytes, the file has 4 at offset 3 (a.b)");
        assert_eq!(e.shift_offset(10).offset(), Some(13));
        assert!(Error::new(ErrorKind::Truncated { stated: 9, available: 4 }).is_eof());
    }
}
