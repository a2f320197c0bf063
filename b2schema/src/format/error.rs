//! The one error type of b2schema.
//!
//! Every decoding error names the byte offset where it was found, the field path that led there
//! (`shape[2]`, `header.typesize`) and what was expected against what was found:
//!
//! ```text
//! expected int32 marker d2 at offset 47 (typesize), found cd (uint16)
//! ```
//!
//! The error is a single boxed pointer, so `Result<T>` stays small on the hot path (serde_json
//! measured the same), and the path is built only while an error unwinds: decoding that succeeds
//! pays nothing for it.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Display};

use crate::format::encoding::{Encoding, Expected};

/// Shorthand for `Result<T, b2schema::Error>`.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An encoding or decoding error, with its position.
pub struct Error {
    inner: Box<ErrorImpl>,
}

struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
    /// Innermost segment first: pushed while the error unwinds out of nested values.
    path: Vec<Segment>,
    /// For bytes left after a struct: where its last field was read, and the count or length
    /// that field's header stated (a wrong one leaves bytes over).
    last: Option<LastField>,
    /// The file the error is about, and what the file is when it is not what it should be.
    file: Option<Box<FileNote>>,
}

/// The file an error is about ([`Error::in_file`]).
struct FileNote {
    path: String,
    lead: Option<String>,
}

/// The last field read before bytes were left over (the field itself is the error's path).
struct LastField {
    at: usize,
    /// `("count", n)` for an array or map, `("length", n)` for a string or binary.
    stated: Option<(&'static str, usize)>,
}

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// A struct field.
    Field(&'static str),
    /// An array element.
    Index(usize),
    /// A map entry, by its key (when the key is a string) or by position.
    Key(String),
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    UnexpectedEof {
        /// Bytes the value needs from its offset on.
        needed: usize,
        /// Bytes left in the input at that offset.
        available: usize,
    },
    /// A marker byte other than the one the type (or its override) implies.
    UnexpectedMarker {
        /// The marker that was expected.
        expected: Expected,
        /// The byte found.
        found: u8,
    },
    /// A length or count larger than the rest of the input could hold.
    LengthExceedsInput {
        /// The encoding that states the length.
        encoding: Encoding,
        /// The claimed length or count.
        len: u64,
        /// Bytes left after the length prefix.
        available: usize,
    },
    /// A value outside the range of the encoding or the Rust type.
    OutOfRange {
        /// The value, as text.
        value: String,
        /// The encoding or type it must fit.
        target: &'static str,
        /// How to fix it, when there is an obvious way.
        hint: Option<&'static str>,
    },
    /// A length, count or constant other than the one required.
    Mismatch {
        /// What is being compared (`"array length"`, `"raw bytes"`).
        what: &'static str,
        /// The required value, as text.
        expected: String,
        /// The value found, as text.
        found: String,
    },
    /// An encoding that cannot carry a Rust value of this kind (`bin32` on an `i32`).
    IncompatibleEncoding {
        /// The encoding asked for.
        encoding: Encoding,
        /// The kind of Rust value.
        rust: &'static str,
    },
    /// A container too long for its encoding (a fixarray of 16 elements).
    TooLong {
        /// The encoding.
        encoding: Encoding,
        /// The length asked for.
        len: u64,
    },
    /// Text that is not UTF-8.
    InvalidUtf8,
    /// Bytes left after the value, where the whole input should have been one value.
    TrailingBytes {
        /// How many bytes are left.
        count: usize,
    },
    /// Something this format does not represent (`i128`, a sequence of unknown length).
    Unsupported(&'static str),
    /// A marker that cannot start a value (`c1`).
    InvalidMarker(u8),
    /// The output slice is full.
    BufferFull {
        /// Bytes the write needed.
        needed: usize,
        /// Bytes left in the slice.
        available: usize,
    },
    /// Values nested deeper than the configured limit.
    DepthLimitExceeded {
        /// The limit.
        max: u16,
    },
    /// A Blosc chunk that does not decode (its offset is where the problem is in the chunk).
    Chunk(b2schema_chunk::Error),
    /// The input asks for more memory or work than the `Limits` allow (or,
    /// when `max` is 0, than the allocator could give).
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
    /// A message from a `Serialize` or `Deserialize` implementation.
    Custom(String),
    /// An I/O error from a reader or writer.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    Io(std::io::Error),
}

/// A coarse classification, as serde_json's `Category`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Reading or writing failed.
    Io,
    /// The input ended too early.
    Eof,
    /// The bytes are not valid for the format (wrong marker, impossible length).
    Syntax,
    /// The bytes are valid but do not fit the Rust type, or the value does not fit the encoding.
    Data,
}

/// A count of bytes in words: "1 byte", "2 bytes" (every message says it this way).
pub fn bytes(n: impl Into<u64>) -> String {
    let n = n.into();
    if n == 1 { String::from("1 byte") } else { alloc::format!("{n} bytes") }
}

impl Error {
    /// An error of `kind`, with no position yet.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error { inner: Box::new(ErrorImpl { kind, offset: None, path: Vec::new(), last: None, file: None }) }
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

    /// A violated rule of the format: `expected {what} {expected}, found {found}`.
    #[cold]
    pub fn invalid(what: &'static str, expected: impl Display, found: impl Display, offset: usize) -> Self {
        Self::at(
            ErrorKind::Mismatch { what, expected: expected.to_string(), found: found.to_string() },
            offset,
        )
    }

    /// Sets the offset if the error has none yet.
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.locate(offset);
        self
    }

    /// [`Self::with_offset`] in place: for a `Result` passed on as it is, so that its value is
    /// not moved out and back in.
    #[inline]
    pub(crate) fn locate(&mut self, offset: usize) {
        self.inner.offset.get_or_insert(offset);
    }

    /// [`Self::with_offset`] then [`Self::in_segment`], in place.
    #[cold]
    pub(crate) fn locate_in(&mut self, offset: usize, segment: Segment) {
        self.locate(offset);
        self.inner.path.push(segment);
    }

    /// Moves the offset by `base`: for errors found inside a sub-slice.
    #[must_use]
    pub fn shift_offset(mut self, base: usize) -> Self {
        if let Some(o) = &mut self.inner.offset {
            *o += base;
        }
        if let Some(last) = &mut self.inner.last {
            last.at += base;
        }
        self
    }

    /// Names the field read last (`name`, from offset `at`, with the count or length its header
    /// `stated`) in an error of bytes left after the struct: a count made too small ends a
    /// struct early, and the bytes it leaves are that field's.
    #[cold]
    pub(crate) fn after_last_field(
        mut self,
        name: Segment,
        at: usize,
        stated: Option<(&'static str, usize)>,
    ) -> Self {
        self.inner.path.push(name);
        self.inner.last = Some(LastField { at, stated });
        self
    }

    /// Prepends a path segment (the error is unwinding out of that field or element).
    #[must_use]
    #[cold]
    pub fn in_segment(mut self, segment: Segment) -> Self {
        self.inner.path.push(segment);
        self
    }

    /// Prepends a struct field to the path.
    #[must_use]
    pub fn in_field(self, name: &'static str) -> Self {
        self.in_segment(Segment::Field(name))
    }

    /// Names the whole value (`header`, `b2nd`) when the error names no field yet: a marker of the
    /// outermost container, or a check across fields.
    #[must_use]
    // Used by the containers, which come with the `derive` feature.
    #[cfg_attr(not(feature = "derive"), allow(dead_code))]
    pub(crate) fn or_field(self, name: &'static str) -> Self {
        if self.inner.path.is_empty() { self.in_field(name) } else { self }
    }

    /// Names the file the error is about (`path`, as text) and, in `lead`, what the file is when
    /// it is not what it should be ("not a Blosc2 frame (no b2frame magic at offset 2)",
    /// "truncated: ..."): the error then reads `path: lead; detail`. A file already named is kept.
    #[must_use]
    #[cold]
    pub fn in_file(mut self, path: impl Display, lead: Option<String>) -> Self {
        if self.inner.file.is_none() {
            self.inner.file = Some(Box::new(FileNote { path: path.to_string(), lead }));
        }
        self
    }

    /// The same error without the file it names (for a caller that says the path itself).
    #[must_use]
    pub fn without_file(mut self) -> Self {
        self.inner.file = None;
        self
    }

    /// The file the error is about, when it names one ([`Error::in_file`]).
    pub fn file(&self) -> Option<&str> {
        self.inner.file.as_ref().map(|f| f.path.as_str())
    }

    /// What the file is, when it is not what it should be ([`Error::in_file`]).
    pub fn lead(&self) -> Option<&str> {
        self.inner.file.as_ref().and_then(|f| f.lead.as_deref())
    }

    /// The error without its file and lead: what went wrong, where, expected and found.
    pub fn detail(&self) -> impl Display + '_ {
        Detail(self)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The byte offset where it went wrong, when known.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The path segments from the outermost value inwards.
    pub fn path(&self) -> impl Iterator<Item = &Segment> {
        self.inner.path.iter().rev()
    }

    /// The path as text: `shape[2]`, `header.flags`, or empty at the top level.
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.path() {
            match seg {
                Segment::Field(name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                Segment::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
                Segment::Key(k) => {
                    s.push('[');
                    s.push_str(&alloc::format!("{k:?}"));
                    s.push(']');
                }
            }
        }
        s
    }

    /// The category of the error.
    pub fn classify(&self) -> Category {
        match self.inner.kind {
            ErrorKind::UnexpectedEof { .. } => Category::Eof,
            #[cfg(feature = "std")]
            ErrorKind::Io(_) => Category::Io,
            ErrorKind::BufferFull { .. } => Category::Io,
            ErrorKind::Chunk(e) if e.kind == b2schema_chunk::ErrorKind::Truncated => Category::Eof,
            ErrorKind::UnexpectedMarker { .. }
            | ErrorKind::LengthExceedsInput { .. }
            | ErrorKind::InvalidMarker(_)
            | ErrorKind::TrailingBytes { .. }
            | ErrorKind::DepthLimitExceeded { .. } => Category::Syntax,
            _ => Category::Data,
        }
    }

    /// Whether the input ended too early.
    pub fn is_eof(&self) -> bool {
        self.classify() == Category::Eof
    }

    /// The message and, for expected/found errors, the part after the position.
    fn message(&self) -> (String, Option<String>) {
        use ErrorKind as K;
        match &self.inner.kind {
            K::UnexpectedEof { needed, available } => (
                alloc::format!("unexpected end of input: needed {}", bytes(*needed as u64)),
                Some(alloc::format!("{available} remain")),
            ),
            K::UnexpectedMarker { expected, found } => (
                alloc::format!("expected {expected}"),
                Some(alloc::format!("found {found:02x} ({})", Encoding::describe_marker(*found))),
            ),
            K::LengthExceedsInput { encoding, len, available } => (
                alloc::format!("{encoding} length {len} exceeds the input"),
                Some(alloc::format!("{} remain", bytes(*available as u64))),
            ),
            K::OutOfRange { value, target, hint } => {
                let mut msg = alloc::format!("value {value} does not fit {target}");
                if let Some(h) = hint {
                    msg.push_str(" (");
                    msg.push_str(h);
                    msg.push(')');
                }
                (msg, None)
            }
            K::Mismatch { what, expected, found } if expected.is_empty() => {
                (alloc::format!("expected {what}"), Some(alloc::format!("found {found}")))
            }
            K::Mismatch { what, expected, found } => {
                (alloc::format!("expected {what} {expected}"), Some(alloc::format!("found {found}")))
            }
            K::IncompatibleEncoding { encoding, rust } => {
                (alloc::format!("encoding {encoding} cannot carry {rust}"), None)
            }
            K::TooLong { encoding, len } => (
                alloc::format!(
                    "{encoding} holds at most {} elements or bytes, got {len}",
                    encoding.max_len()
                ),
                None,
            ),
            K::InvalidUtf8 => ("invalid UTF-8 in a string".into(), None),
            K::TrailingBytes { count } => {
                let n = bytes(*count as u64);
                let after = self.inner.last.as_ref().map(|last| match last.stated {
                    Some((what, n)) => alloc::format!(
                        "whose {what} at offset {} reads {n}: a {what} too small leaves bytes over",
                        last.at
                    ),
                    None => alloc::format!("the last field, read from offset {}", last.at),
                });
                (alloc::format!("{} after the value", n.replacen(' ', " trailing ", 1)), after)
            }
            K::Unsupported(what) => (alloc::format!("unsupported: {what}"), None),
            K::InvalidMarker(b) => (alloc::format!("invalid marker {b:02x}"), None),
            K::BufferFull { needed, available } => (
                alloc::format!("output buffer full: needed {}", bytes(*needed as u64)),
                Some(alloc::format!("{available} remain")),
            ),
            K::DepthLimitExceeded { max } => (alloc::format!("values nested deeper than {max} levels"), None),
            // The chunk codec renders its own halves; this error adds the position in the file.
            K::Chunk(e) => (
                alloc::format!("expected {} in a Blosc chunk", e.expectation()),
                Some(alloc::format!("found {}", e.finding())),
            ),
            K::BudgetExceeded { what, needed, limit, max: 0 } => (
                alloc::format!(
                    "budget exceeded: {what} needs {}, which could not be allocated",
                    bytes(*needed)
                ),
                Some(alloc::format!("lower it or raise the memory available (Limits::{})", limit.name())),
            ),
            K::BudgetExceeded { what, needed, limit, max } => (
                alloc::format!("budget exceeded: {what} needs {needed}"),
                Some(alloc::format!("more than the limit of {max} (raise Limits::{})", limit.name())),
            ),
            K::Custom(msg) => (msg.clone(), None),
            #[cfg(feature = "std")]
            K::Io(e) => (alloc::format!("I/O error: {e}"), None),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.inner.file {
            write!(f, "{}: ", file.path)?;
            if let Some(lead) = &file.lead {
                write!(f, "{lead}; ")?;
            }
        }
        Detail(self).fmt(f)
    }
}

/// [`Error::detail`].
struct Detail<'a>(&'a Error);

impl Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        let (msg, found) = e.message();
        f.write_str(&msg)?;
        if let Some(off) = e.inner.offset {
            write!(f, " at offset {off}")?;
        }
        let path = e.path_string();
        if !path.is_empty() {
            write!(f, " ({path})")?;
        }
        if let Some(found) = found {
            write!(f, ", {found}")?;
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
        match &self.inner.kind {
            #[cfg(feature = "std")]
            ErrorKind::Io(e) => Some(e),
            ErrorKind::Chunk(e) => Some(e),
            _ => None,
        }
    }
}

impl serde_core::ser::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Custom(msg.to_string()))
    }
}

impl serde_core::de::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Custom(msg.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::encoding::Expected;

    #[test]
    fn display_puts_position_between_expected_and_found() {
        let e = Error::at(
            ErrorKind::UnexpectedMarker { expected: Expected::any(Encoding::Int32), found: 0xcd },
            47,
        )
        .in_field("typesize");
        assert_eq!(e.to_string(), "expected int32 marker d2 at offset 47 (typesize), found cd (uint16)");
    }

    #[test]
    fn path_is_built_innermost_first() {
        let e = Error::new(ErrorKind::InvalidUtf8)
            .in_segment(Segment::Index(2))
            .in_field("shape")
            .in_field("meta");
        assert_eq!(e.path_string(), "meta.shape[2]");
        assert_eq!(core::mem::size_of::<Result<u64>>(), 16);
    }
}
