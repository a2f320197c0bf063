//! [`Cursor`]: the format's msgpack reader, pulled one value at a time: python's smallest forms
//! and Blosc2's fixed widths alike. [`Value::from_msgpack`](super::Value::from_msgpack) reads
//! whole values with it; readers of large maps (an EmbedStore's map, a CTable's schema) pull
//! what they need with it and skip the rest. Nothing is allocated from a count: each count is
//! checked against the bytes left, and nesting is bounded.
//!
//! ```
//! # extern crate b2schema_format as b2schema;
//! use b2schema::value::Cursor;
//!
//! // {"a": 1, "b": [nil, "x"]}
//! let bytes = [0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0x92, 0xc0, 0xa1, b'x'];
//! let mut c = Cursor::new(&bytes);
//! assert_eq!(c.map_len()?, 2);
//! assert_eq!((c.str()?, c.uint()?), ("a", 1));
//! assert_eq!(c.str()?, "b");
//! c.skip()?;
//! assert!(c.is_done());
//! # Ok::<(), b2schema::Error>(())
//! ```

use alloc::string::String;

use crate::format::config::DEFAULT_MAX_DEPTH;
use crate::format::encoding::Encoding;
use crate::format::encoding::marker::*;
use crate::format::error::{Error, ErrorKind, Result};

/// A position in a msgpack buffer, read forward one value at a time.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// A marker `m` at `at` other than the `markers` (hex) of `what`, named as the crate's errors
/// name a marker (`d2 (int32)`).
#[cold]
fn wrong_marker(what: &'static str, markers: &'static str, m: u8, at: usize) -> Error {
    Error::invalid(what, markers, alloc::format!("{m:02x} ({})", Encoding::describe_marker(m)), at)
}

impl<'a> Cursor<'a> {
    /// At the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, at: 0 }
    }

    /// Where the next value starts.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Whether every byte was read.
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// The bytes not read yet.
    pub(super) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// The next `n` bytes.
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let left = self.left();
        if n > left {
            return Err(Error::at(ErrorKind::UnexpectedEof { needed: n, available: left }, self.at));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// A big-endian unsigned integer of `n` (at most 8) bytes.
    pub(super) fn be(&mut self, n: usize) -> Result<u64> {
        Ok(self.take(n)?.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
    }

    /// The next marker byte.
    pub(super) fn marker(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// A count `n` read under marker `m` at `start`, checked against the bytes left: each of its
    /// units (a byte, a value, a map entry's two values) takes at least `unit` bytes.
    pub(super) fn count(&self, n: u64, unit: usize, m: u8, start: usize) -> Result<usize> {
        let left = self.left();
        if n.saturating_mul(unit as u64) > left as u64 {
            let encoding = Encoding::of_marker(m).unwrap_or(Encoding::FixExt16);
            return Err(Error::at(
                ErrorKind::LengthExceedsInput { encoding, len: n, available: left },
                start,
            ));
        }
        Ok(n as usize)
    }

    /// A map's entry count (its entries follow, key then value).
    pub fn map_len(&mut self) -> Result<usize> {
        let at = self.at;
        let (m, n) = match self.marker()? {
            m @ FIXMAP..=FIXMAP_MAX => (m, u64::from(m & 0x0f)),
            m @ MAP16 => (m, self.be(2)?),
            m @ MAP32 => (m, self.be(4)?),
            m => return Err(wrong_marker("a msgpack map", "80-8f, de or df", m, at)),
        };
        self.count(n, 2, m, at)
    }

    /// An array's item count (its items follow).
    pub fn array_len(&mut self) -> Result<usize> {
        let at = self.at;
        let (m, n) = match self.marker()? {
            m @ FIXARRAY..=FIXARRAY_MAX => (m, u64::from(m & 0x0f)),
            m @ ARRAY16 => (m, self.be(2)?),
            m @ ARRAY32 => (m, self.be(4)?),
            m => return Err(wrong_marker("a msgpack array", "90-9f, dc or dd", m, at)),
        };
        self.count(n, 1, m, at)
    }

    /// Whether the next value is `nil` (then read), or something else (left unread).
    pub fn nil(&mut self) -> bool {
        if self.bytes.get(self.at) == Some(&NIL) {
            self.at += 1;
            return true;
        }
        false
    }

    /// The bytes of the next value, whole (checked as [`Cursor::skip`] checks it).
    pub fn value(&mut self) -> Result<&'a [u8]> {
        let start = self.at;
        self.skip()?;
        Ok(&self.bytes[start..self.at])
    }

    /// A string, borrowed.
    pub fn str(&mut self) -> Result<&'a str> {
        let at = self.at;
        let n = match self.marker()? {
            m @ FIXSTR..=FIXSTR_MAX => usize::from(m & 0x1f),
            m @ (STR8 | STR16 | STR32) => {
                let n = self.be(1 << (m - STR8))?;
                self.count(n, 1, m, at)?
            }
            m => return Err(wrong_marker("a msgpack string", "a0-bf, d9, da or db", m, at)),
        };
        self.str_of(n, at)
    }

    /// The `n` bytes of a string whose marker was at `at`, as UTF-8.
    pub(super) fn str_of(&mut self, n: usize, at: usize) -> Result<&'a str> {
        core::str::from_utf8(self.take(n)?).map_err(|_| Error::at(ErrorKind::InvalidUtf8, at))
    }

    /// A string, copied (the copy allocated fallibly).
    pub fn string(&mut self) -> Result<String> {
        let at = self.at;
        let s = self.str()?;
        let mut out = String::new();
        out.try_reserve_exact(s.len()).map_err(|_| no_memory(s.len(), at))?;
        out.push_str(s);
        Ok(out)
    }

    /// A non-negative integer, of any integer marker.
    pub fn uint(&mut self) -> Result<u64> {
        let at = self.at;
        let v: i128 = match self.marker()? {
            m @ 0..=POSITIVE_FIXINT_MAX => i128::from(m),
            m @ NEGATIVE_FIXINT..=0xff => i128::from(m as i8),
            m @ (UINT8 | UINT16 | UINT32 | UINT64) => i128::from(self.be(1 << (m - UINT8))?),
            m @ (INT8 | INT16 | INT32 | INT64) => {
                let n = 1usize << (m - INT8);
                let shift = 64 - 8 * n as u32;
                i128::from(((self.be(n)? << shift) as i64) >> shift)
            }
            m => return Err(wrong_marker("a msgpack integer", "an int marker", m, at)),
        };
        u64::try_from(v).map_err(|_| Error::invalid("a non-negative integer", ">= 0", v, at))
    }

    /// Skips one value of any kind, nested at most [`DEFAULT_MAX_DEPTH`] deep.
    pub fn skip(&mut self) -> Result<()> {
        self.skip_at(0)
    }

    fn skip_at(&mut self, depth: u16) -> Result<()> {
        let at = self.at;
        if depth >= DEFAULT_MAX_DEPTH {
            return Err(Error::at(ErrorKind::DepthLimitExceeded { max: DEFAULT_MAX_DEPTH }, at));
        }
        let m = self.marker()?;
        // The values inside it, and the bytes of its payload.
        let (items, bytes): (u64, u64) = match m {
            0..=POSITIVE_FIXINT_MAX | NEGATIVE_FIXINT..=0xff | NIL | FALSE | TRUE => (0, 0),
            FIXMAP..=FIXMAP_MAX => (u64::from(m & 0x0f) * 2, 0),
            FIXARRAY..=FIXARRAY_MAX => (u64::from(m & 0x0f), 0),
            FIXSTR..=FIXSTR_MAX => (0, u64::from(m & 0x1f)),
            UINT8 | UINT16 | UINT32 | UINT64 => (0, 1 << (m - UINT8)),
            INT8 | INT16 | INT32 | INT64 => (0, 1 << (m - INT8)),
            FLOAT32 => (0, 4),
            FLOAT64 => (0, 8),
            BIN8 | BIN16 | BIN32 => (0, self.be(1 << (m - BIN8))?),
            STR8 | STR16 | STR32 => (0, self.be(1 << (m - STR8))?),
            FIXEXT1..=FIXEXT16 => (0, (1 << (m - FIXEXT1)) + 1),
            EXT8 | EXT16 | EXT32 => (0, self.be(1 << (m - EXT8))? + 1),
            ARRAY16 | ARRAY32 => (self.be(2 << (m - ARRAY16))?, 0),
            MAP16 | MAP32 => (self.be(2 << (m - MAP16))?.saturating_mul(2), 0),
            _ => return Err(Error::at(ErrorKind::InvalidMarker(m), at)),
        };
        let bytes = self.count(bytes, 1, m, at)?;
        self.take(bytes)?;
        for _ in 0..self.count(items, 1, m, at)? {
            self.skip_at(depth + 1)?;
        }
        Ok(())
    }
}

#[cold]
pub(super) fn no_memory(n: usize, at: usize) -> Error {
    Error::at(ErrorKind::AllocationFailed { what: "a msgpack value", needed: n as u64 }, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_skips() {
        // {"a": 1, "b": [nil, "x"], "c": -1}
        let b = [0x83, 0xa1, b'a', 0x01, 0xa1, b'b', 0x92, 0xc0, 0xa1, b'x', 0xa1, b'c', 0xff];
        let mut c = Cursor::new(&b);
        assert_eq!(c.map_len().unwrap(), 3);
        assert_eq!(c.str().unwrap(), "a");
        assert_eq!(c.uint().unwrap(), 1);
        assert_eq!(c.str().unwrap(), "b");
        c.skip().unwrap();
        assert_eq!(c.str().unwrap(), "c");
        assert!(matches!(c.uint().unwrap_err().kind(), ErrorKind::Mismatch { .. }));
        assert!(c.is_done());
    }

    #[test]
    fn counts_no_input_can_hold_and_deep_nests_are_refused() {
        let e = Cursor::new(&[0xdf, 0xff, 0xff, 0xff, 0xff]).map_len().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LengthExceedsInput { len: 0xffff_ffff, .. }), "{e}");
        let e = Cursor::new(&[0xdd, 0xff, 0xff, 0xff, 0xff]).skip().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LengthExceedsInput { .. }), "{e}");
        let e = Cursor::new(&[0x91; 1000]).skip().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }), "{e}");
        let e = Cursor::new(&[0xc1]).skip().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidMarker(0xc1)), "{e}");
        // A string longer than the bytes left, and a truncated payload.
        let e = Cursor::new(&[0xdb, 0, 0, 1, 0, b'x']).str().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LengthExceedsInput { .. }), "{e}");
        let e = Cursor::new(&[0xcf, 0, 0]).uint().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEof { .. }), "{e}");
    }

    #[test]
    fn skips_every_fixed_width_and_ext_form() {
        // int32 d2, uint64 cf, float32 ca, bin8 c4, ext8 c7, fixext4 d6, map16 de, str32 db.
        let b = [
            0x98, 0xd2, 0, 0, 0, 1, 0xcf, 0, 0, 0, 0, 0, 0, 0, 2, 0xca, 0, 0, 0, 0, 0xc4, 1, 9, 0xc7, 1, 5,
            9, 0xd6, 5, 1, 2, 3, 4, 0xde, 0, 1, 0xa1, b'k', 0xc0, 0xdb, 0, 0, 0, 1, b's',
        ];
        let mut c = Cursor::new(&b);
        let whole = c.value().unwrap();
        assert_eq!(whole.len(), b.len());
        assert!(c.is_done(), "at {} of {}", c.offset(), b.len());
    }
}
