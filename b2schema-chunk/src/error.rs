//! The single error type of the chunk codec, [`Error`].
//!
//! Every error names the byte offset inside the chunk where the problem was
//! found, the field that holds the offending value, what c-blosc2 (or this
//! decoder) expected there and what was found.  The type is `Copy`, carries no
//! heap data and needs neither `std` nor `alloc`.

use core::fmt;

/// Coarse classification of an [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The buffer ends before the structure that a field describes.
    Truncated,
    /// A field holds a value that c-blosc2 rejects, or values contradict each other.
    Invalid,
    /// The chunk is well formed but uses a feature this decoder does not
    /// implement (plugin codec or filter, lazy chunk, disabled cargo feature ...).
    Unsupported,
    /// A compressed stream did not decode to the size its block requires.
    Corrupt,
    /// The chunk's uncompressed size is larger than the caller's limit.
    LimitExceeded,
    /// The destination slice handed to [`decompress_into`](super::decompress_into) is too small.
    OutputTooSmall,
    /// The bytes handed to [`ChunkBlocks::decode_block`](super::ChunkBlocks::decode_block) end
    /// before the block's streams do (a chunk whose blocks are not stored in order): the chunk
    /// is not at fault; give the block the chunk's bytes from its span's start up to `cbytes`.
    ShortInput,
}

/// What was expected at the failing position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// The field must be at most this value.
    AtMost(i64),
    /// The field must be at least this value.
    AtLeast(i64),
    /// The field must equal this value.
    Exactly(i64),
    /// The field must lie in this inclusive range.
    InRange(i64, i64),
    /// The field must be a multiple of this value.
    MultipleOf(i64),
    /// A free-form description (used for enumerations and codec failures).
    Text(&'static str),
}

/// What was found at the failing position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Found {
    /// A numeric value.
    Value(i64),
    /// A numeric value together with its meaning (for example a codec id and its name).
    Named(i64, &'static str),
    /// A free-form description.
    Text(&'static str),
}

/// Error returned by every fallible function of the chunk codec.
///
/// `Display` renders it as
/// `expected cbytes <= 1200 at offset 12 (cbytes), found 5000`; a caller that places the
/// chunk in a larger file and names the position its own way renders the two halves with
/// [`Error::expectation`] and [`Error::finding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    /// Coarse classification.
    pub kind: ErrorKind,
    /// Byte offset, from the first byte of the chunk, where the problem was found.
    pub offset: usize,
    /// Name of the field (or structure) at `offset`.
    pub field: &'static str,
    /// What was expected.
    pub expected: Expected,
    /// What was found.
    pub found: Found,
}

/// Converts a size or offset to the `i64` used in error values (saturating).
pub(crate) fn num(v: usize) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl Error {
    /// Builds an error of any kind.
    pub const fn new(
        kind: ErrorKind,
        offset: usize,
        field: &'static str,
        expected: Expected,
        found: Found,
    ) -> Self {
        Self { kind, offset, field, expected, found }
    }

    /// A [`ErrorKind::Truncated`] error: `needed` bytes from `offset` were
    /// required, `available` exist.
    pub(crate) fn truncated(offset: usize, field: &'static str, needed: usize, available: usize) -> Self {
        Self::new(
            ErrorKind::Truncated,
            offset,
            field,
            Expected::AtMost(num(available)),
            Found::Value(num(needed)),
        )
    }

    /// An [`ErrorKind::Invalid`] error.
    pub(crate) const fn invalid(
        offset: usize,
        field: &'static str,
        expected: Expected,
        found: Found,
    ) -> Self {
        Self::new(ErrorKind::Invalid, offset, field, expected, found)
    }

    /// An [`ErrorKind::Unsupported`] error.
    pub(crate) const fn unsupported(
        offset: usize,
        field: &'static str,
        expected: &'static str,
        found: Found,
    ) -> Self {
        Self::new(ErrorKind::Unsupported, offset, field, Expected::Text(expected), found)
    }

    /// An [`ErrorKind::Corrupt`] error for a stream that failed to decode.
    pub(crate) const fn corrupt(offset: usize, field: &'static str, what: &'static str) -> Self {
        Self::new(
            ErrorKind::Corrupt,
            offset,
            field,
            Expected::Text("a stream that decodes to its block size"),
            Found::Text(what),
        )
    }
}

/// The expected half of an [`Error`]'s message (`cbytes <= 1200`), from [`Error::expectation`].
#[derive(Debug, Clone, Copy)]
pub struct Expectation<'a>(&'a Error);

/// The found half of an [`Error`]'s message (`5000`, `33 (zfp_acc)`), from [`Error::finding`].
#[derive(Debug, Clone, Copy)]
pub struct Finding<'a>(&'a Error);

impl Error {
    /// What was expected, rendered with the field's name: `cbytes <= 1200`.
    pub fn expectation(&self) -> Expectation<'_> {
        Expectation(self)
    }

    /// What was found: `5000`, or `33 (zfp_acc)` for a value with a name.
    pub fn finding(&self) -> Finding<'_> {
        Finding(self)
    }
}

impl fmt::Display for Expectation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.0.field;
        match self.0.expected {
            Expected::AtMost(v) => write!(f, "{field} <= {v}"),
            Expected::AtLeast(v) => write!(f, "{field} >= {v}"),
            Expected::Exactly(v) => write!(f, "{field} == {v}"),
            Expected::InRange(lo, hi) => write!(f, "{field} in {lo}..={hi}"),
            Expected::MultipleOf(v) => write!(f, "{field} to be a multiple of {v}"),
            Expected::Text(t) => f.write_str(t),
        }
    }
}

impl fmt::Display for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.found {
            Found::Value(v) => write!(f, "{v}"),
            Found::Named(v, name) => write!(f, "{v} ({name})"),
            Found::Text(t) => f.write_str(t),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected {} at offset {} ({}), found {}",
            self.expectation(),
            self.offset,
            self.field,
            self.finding()
        )
    }
}

impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_matches_the_documented_shape() {
        let e = Error::truncated(12, "cbytes", 5000, 1200);
        assert_eq!(e.to_string(), "expected cbytes <= 1200 at offset 12 (cbytes), found 5000");
        let e = Error::unsupported(
            22,
            "udcompcode",
            "a codec this decoder implements",
            Found::Named(33, "zfp_acc"),
        );
        assert_eq!(
            e.to_string(),
            "expected a codec this decoder implements at offset 22 (udcompcode), found 33 (zfp_acc)"
        );
    }
}
