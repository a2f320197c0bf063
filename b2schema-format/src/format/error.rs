//! The error of the format layer: msgpack and layouts.
//!
//! Every decoding error names the byte offset where it was found, the field path that led there
//! (`shape[2]`, `header.typesize`) and what was expected against what was found:
//!
//! ```text
//! expected int32 marker d2 at offset 47 (typesize), found cd (uint16)
//! ```
//! # extern crate b2schema_format as b2schema;
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
    /// Memory for a value the input declares could not be allocated (the input's length bounds
    /// the claim; the allocator refused it).
    AllocationFailed {
        /// What needed it ("a msgpack value").
        what: &'static str,
        /// Bytes asked for.
        needed: u64,
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

/// Segments from the outermost inwards as text: `shape[2]`, `header.flags`.
pub fn path_text<'a>(segments: impl Iterator<Item = &'a Segment>) -> String {
    let mut s = String::new();
    for seg in segments {
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

/// A count of bytes in words: "1 byte", "2 bytes" (every message says it this way).
pub fn bytes(n: impl Into<u64>) -> String {
    let n = n.into();
    if n == 1 { String::from("1 byte") } else { alloc::format!("{n} bytes") }
}

impl Error {
    /// An error of `kind`, with no position yet.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error { inner: Box::new(ErrorImpl { kind, offset: None, path: Vec::new(), last: None }) }
    }

    /// An error of `kind` at byte `offset`.
    #[cold]
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Self::new(kind).with_offset(offset)
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
    #[doc(hidden)]
    pub fn locate(&mut self, offset: usize) {
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
    pub fn or_field(self, name: &'static str) -> Self {
        if self.inner.path.is_empty() { self.in_field(name) } else { self }
    }

    /// The error's text: what went wrong, where, expected and found (its `Display`).
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
        path_text(self.path())
    }

    /// The I/O error, when the kind is `Io`.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn into_io(self) -> Option<std::io::Error> {
        match self.inner.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }

    /// The category of the error.
    pub fn classify(&self) -> Category {
        match self.inner.kind {
            ErrorKind::UnexpectedEof { .. } => Category::Eof,
            #[cfg(feature = "std")]
            ErrorKind::Io(_) => Category::Io,
            ErrorKind::BufferFull { .. } => Category::Io,
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
            K::AllocationFailed { what, needed } => (
                alloc::format!(
                    "budget exceeded: {what} needs {}, which could not be allocated",
                    bytes(*needed)
                ),
                Some(String::from("the allocator refused it")),
            ),
            K::Custom(msg) => (msg.clone(), None),
            #[cfg(feature = "std")]
            K::Io(e) => (alloc::format!("I/O error: {e}"), None),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
