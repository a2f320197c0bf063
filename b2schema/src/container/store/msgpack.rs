//! A reader of the few standard (smallest-form) msgpack values an EmbedStore's map is made of:
//! maps, strings and integers, any other value skipped. Nothing is allocated from a count: a
//! count is checked against the bytes left, and values are read one at a time.

use alloc::string::String;

use crate::container::error::{Error, Result};
use crate::format::encoding::Encoding;
use crate::format::encoding::marker::*;

/// How deep a skipped value may nest.
const MAX_DEPTH: usize = 32;

/// A marker `m` at `at` other than the `markers` (hex) of `what`, found named as the crate's
/// errors name a marker (`d2 (int32)`).
fn wrong_marker(what: &'static str, markers: &'static str, m: u8, at: usize) -> Error {
    Error::invalid(what, markers, alloc::format!("{m:02x} ({})", Encoding::describe_marker(m)), at)
}

/// A position in a msgpack buffer.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
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

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let s = self.at.checked_add(n).and_then(|end| self.bytes.get(self.at..end)).ok_or_else(|| {
            Error::invalid("bytes of a msgpack value, left", self.bytes.len() - self.at, n, self.at)
        })?;
        self.at += n;
        Ok(s)
    }

    fn be(&mut self, n: usize) -> Result<u64> {
        Ok(self.take(n)?.iter().fold(0u64, |a, &b| (a << 8) | b as u64))
    }

    fn marker(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// A count of `n` items, each at least `min` bytes: refused when the bytes left cannot
    /// hold them.
    fn count(&self, n: u64, min: u64, at: usize) -> Result<usize> {
        let left = (self.bytes.len() - self.at) as u64;
        if n.saturating_mul(min) > left {
            return Err(Error::invalid(
                "a msgpack count the bytes left can hold, at most",
                left / min.max(1),
                n,
                at,
            ));
        }
        Ok(n as usize)
    }

    /// A map's entry count.
    pub fn map_len(&mut self) -> Result<usize> {
        let at = self.at;
        let n = match self.marker()? {
            m @ FIXMAP..=FIXMAP_MAX => (m & 0x0f) as u64,
            MAP16 => self.be(2)?,
            MAP32 => self.be(4)?,
            m => return Err(wrong_marker("a msgpack map", "80-8f, de or df", m, at)),
        };
        self.count(n, 2, at)
    }

    /// An array's item count.
    pub fn array_len(&mut self) -> Result<usize> {
        let at = self.at;
        let n = match self.marker()? {
            m @ FIXARRAY..=FIXARRAY_MAX => (m & 0x0f) as u64,
            ARRAY16 => self.be(2)?,
            ARRAY32 => self.be(4)?,
            m => return Err(wrong_marker("a msgpack array", "90-9f, dc or dd", m, at)),
        };
        self.count(n, 1, at)
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

    /// A string.
    pub fn str(&mut self) -> Result<&'a str> {
        let at = self.at;
        let n = match self.marker()? {
            m @ FIXSTR..=FIXSTR_MAX => (m & 0x1f) as usize,
            STR8 => self.be(1)? as usize,
            STR16 => self.be(2)? as usize,
            STR32 => self.be(4)? as usize,
            m => return Err(wrong_marker("a msgpack string", "a0-bf, d9, da or db", m, at)),
        };
        let b = self.take(n)?;
        core::str::from_utf8(b).map_err(|e| Error::invalid("a UTF-8 string", "UTF-8", e, at))
    }

    /// A string, copied (fallibly).
    pub fn string(&mut self) -> Result<String> {
        let at = self.at;
        let s = self.str()?;
        let mut out = String::new();
        out.try_reserve_exact(s.len())
            .map_err(|_| Error::invalid("memory for a string of", s.len(), "none", at))?;
        out.push_str(s);
        Ok(out)
    }

    /// A non-negative integer.
    pub fn uint(&mut self) -> Result<u64> {
        let at = self.at;
        let v: i128 = match self.marker()? {
            m @ 0..=POSITIVE_FIXINT_MAX => m as i128,
            m @ NEGATIVE_FIXINT..=0xff => (m as i8) as i128,
            UINT8 => self.be(1)? as i128,
            UINT16 => self.be(2)? as i128,
            UINT32 => self.be(4)? as i128,
            UINT64 => self.be(8)? as i128,
            INT8 => (self.be(1)? as u8 as i8) as i128,
            INT16 => (self.be(2)? as u16 as i16) as i128,
            INT32 => (self.be(4)? as u32 as i32) as i128,
            INT64 => (self.be(8)? as i64) as i128,
            m => return Err(wrong_marker("a msgpack integer", "an int marker", m, at)),
        };
        u64::try_from(v).map_err(|_| Error::invalid("a non-negative integer", ">= 0", v, at))
    }

    /// Skips one value of any kind.
    pub fn skip(&mut self) -> Result<()> {
        self.skip_at(0)
    }

    fn skip_at(&mut self, depth: usize) -> Result<()> {
        let at = self.at;
        if depth > MAX_DEPTH {
            return Err(Error::invalid("msgpack nested at most", MAX_DEPTH, depth, at));
        }
        let m = self.marker()?;
        let (items, bytes) = match m {
            0..=POSITIVE_FIXINT_MAX | NEGATIVE_FIXINT..=0xff | NIL | FALSE | TRUE => (0, 0),
            FIXMAP..=FIXMAP_MAX => ((m & 0x0f) as u64 * 2, 0),
            FIXARRAY..=FIXARRAY_MAX => ((m & 0x0f) as u64, 0),
            FIXSTR..=FIXSTR_MAX => (0, (m & 0x1f) as u64),
            UINT8 | INT8 => (0, 1),
            UINT16 | INT16 => (0, 2),
            UINT32 | INT32 | FLOAT32 => (0, 4),
            UINT64 | INT64 | FLOAT64 => (0, 8),
            BIN8 | STR8 => (0, self.be(1)?),
            BIN16 | STR16 => (0, self.be(2)?),
            BIN32 | STR32 => (0, self.be(4)?),
            FIXEXT1 => (0, 2),
            FIXEXT2 => (0, 3),
            FIXEXT4 => (0, 5),
            FIXEXT8 => (0, 9),
            FIXEXT16 => (0, 17),
            EXT8 => (0, self.be(1)? + 1),
            EXT16 => (0, self.be(2)? + 1),
            EXT32 => (0, self.be(4)? + 1),
            ARRAY16 => (self.be(2)?, 0),
            ARRAY32 => (self.be(4)?, 0),
            MAP16 => (self.be(2)? * 2, 0),
            MAP32 => (self.be(4)? * 2, 0),
            NEVER_USED => return Err(Error::invalid("a msgpack marker", "not c1 (never used)", "c1", at)),
        };
        self.take(usize::try_from(bytes).unwrap_or(usize::MAX))?;
        let n = self.count(items, 1, at)?;
        for _ in 0..n {
            self.skip_at(depth + 1)?;
        }
        Ok(())
    }
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
        assert!(c.uint().unwrap_err().to_string().contains("non-negative"));
        assert!(c.is_done());
        // A count no input can hold, and a nest too deep.
        assert!(Cursor::new(&[0xdf, 0xff, 0xff, 0xff, 0xff]).map_len().is_err());
        assert!(Cursor::new(&[0x91; 100]).skip().is_err());
    }
}
