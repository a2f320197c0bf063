//! [`DTypeError`]: where a dtype string stops parsing, and what was expected there.

use alloc::string::String;
use core::fmt;

/// Why a dtype string could not be parsed.
///
/// Displays as `expected a type code at offset 3 of the dtype string, found 'q'`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DTypeError {
    /// Byte offset in the dtype string where the problem is.
    pub offset: usize,
    /// What the parser expected there, e.g. `"a type code"`.
    pub expected: &'static str,
    /// The text at `offset` (a token of at most 16 characters); empty at the end of the string.
    pub found: String,
}

impl DTypeError {
    pub(super) fn at(src: &str, offset: usize, expected: &'static str) -> DTypeError {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        DTypeError { offset, expected, found: snippet(&src[offset..]) }
    }
}

impl fmt::Display for DTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {} at offset {} of the dtype string, found ", self.expected, self.offset)?;
        if self.found.is_empty() {
            f.write_str("end of string")
        } else {
            write!(f, "'{}'", self.found.escape_debug())
        }
    }
}

impl core::error::Error for DTypeError {}

/// The token at the start of `rest`, for error messages: a quoted string, or a run of characters
/// up to a delimiter; at most 16 characters.
fn snippet(rest: &str) -> String {
    let mut chars = rest.chars();
    let Some(first) = chars.next() else { return String::new() };
    let mut out = String::new();
    out.push(first);
    for c in chars.take(15) {
        if first == '\'' || first == '"' {
            out.push(c);
            if c == first {
                break;
            }
        } else if matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '\'' | '"' | ':') || c.is_whitespace()
        {
            break;
        } else {
            out.push(c);
        }
    }
    out
}
