//! Reading a [`Value`] from msgpack bytes of any widths.

use alloc::string::String;
use alloc::vec::Vec;

use super::cursor::{Cursor, no_memory};
use super::{EXT_COMPLEX, EXT_SET, TUPLE_TAG, Value};
use crate::format::config::DEFAULT_MAX_DEPTH;
use crate::format::encoding::marker::*;
use crate::format::error::{Error, ErrorKind, Result, Segment};

impl Value {
    /// Reads exactly one msgpack value from `bytes` (any widths: python's smallest forms and
    /// Blosc2's fixed ones); bytes left after it are an error.
    pub fn from_msgpack(bytes: &[u8]) -> Result<Value> {
        let (v, used) = Value::take_from_msgpack(bytes)?;
        if used != bytes.len() {
            return Err(Error::at(ErrorKind::TrailingBytes { count: bytes.len() - used }, used));
        }
        Ok(v)
    }

    /// Reads one msgpack value from the start of `bytes`: the value and how many bytes it took.
    pub fn take_from_msgpack(bytes: &[u8]) -> Result<(Value, usize)> {
        let mut r = Reader { c: Cursor::new(bytes) };
        let v = r.value(0)?;
        Ok((v, r.c.offset()))
    }
}

/// Whole values, read with the format's one msgpack reader.
struct Reader<'a> {
    c: Cursor<'a>,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        self.c.take(n)
    }

    fn be(&mut self, n: usize) -> Result<u64> {
        self.c.be(n)
    }

    /// A length or count of `width` bytes, checked against the bytes left: each of its units
    /// (a byte, a value, a map entry's two values) takes at least `unit` bytes.
    fn len(&mut self, width: usize, unit: usize, m: u8, start: usize) -> Result<usize> {
        let n = self.be(width)?;
        self.c.count(n, unit, m, start)
    }

    fn value(&mut self, depth: u16) -> Result<Value> {
        if depth >= DEFAULT_MAX_DEPTH {
            return Err(Error::at(ErrorKind::DepthLimitExceeded { max: DEFAULT_MAX_DEPTH }, self.c.offset()));
        }
        let start = self.c.offset();
        let m = self.c.marker()?;
        Ok(match m {
            0x00..=POSITIVE_FIXINT_MAX => Value::Int(m.into()),
            NEGATIVE_FIXINT..=0xff => Value::Int((m as i8).into()),
            NIL => Value::Nil,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            UINT8 | UINT16 | UINT32 | UINT64 => Value::Int(self.be(1 << (m - UINT8))?.into()),
            INT8 | INT16 | INT32 | INT64 => {
                let n = 1usize << (m - INT8);
                let raw = self.be(n)?;
                let shift = 64 - 8 * n as u32;
                Value::Int((((raw << shift) as i64) >> shift).into())
            }
            FLOAT32 => Value::F32(f32::from_bits(self.be(4)? as u32)),
            FLOAT64 => Value::F64(f64::from_bits(self.be(8)?)),
            FIXSTR..=FIXSTR_MAX => self.str(usize::from(m - FIXSTR), start)?,
            STR8 | STR16 | STR32 => {
                let n = self.len(1 << (m - STR8), 1, m, start)?;
                self.str(n, start)?
            }
            BIN8 | BIN16 | BIN32 => {
                let n = self.len(1 << (m - BIN8), 1, m, start)?;
                Value::Bin(copy(self.take(n)?, start)?)
            }
            FIXARRAY..=FIXARRAY_MAX => self.array(usize::from(m - FIXARRAY), depth)?,
            ARRAY16 | ARRAY32 => {
                let n = self.len(2 << (m - ARRAY16), 1, m, start)?;
                self.array(n, depth)?
            }
            FIXMAP..=FIXMAP_MAX => self.map(usize::from(m - FIXMAP), depth)?,
            MAP16 | MAP32 => {
                let n = self.len(2 << (m - MAP16), 2, m, start)?;
                self.map(n, depth)?
            }
            FIXEXT1..=FIXEXT16 => self.ext(1 << (m - FIXEXT1), depth, start)?,
            EXT8 | EXT16 | EXT32 => {
                let n = self.len(1 << (m - EXT8), 1, m, start)?;
                self.ext(n, depth, start)?
            }
            _ => return Err(Error::at(ErrorKind::InvalidMarker(m), start)),
        })
    }

    fn str(&mut self, n: usize, start: usize) -> Result<Value> {
        let s = self.c.str_of(n, start)?;
        let mut out = String::new();
        out.try_reserve_exact(n).map_err(|_| no_memory(n, start))?;
        out.push_str(s);
        Ok(Value::Str(out))
    }

    fn values(&mut self, n: usize, depth: u16) -> Result<Vec<Value>> {
        let mut out = Vec::new();
        // `n` is at most the bytes left (each value takes one), so this is bounded by the input.
        out.try_reserve_exact(n).map_err(|_| no_memory(n, self.c.offset()))?;
        for i in 0..n {
            let at = self.c.offset();
            out.push(self.value(depth + 1).map_err(|e| e.with_offset(at).in_segment(Segment::Index(i)))?);
        }
        Ok(out)
    }

    fn array(&mut self, n: usize, depth: u16) -> Result<Value> {
        let mut items = self.values(n, depth)?;
        Ok(if items.first().and_then(Value::as_str) == Some(TUPLE_TAG) {
            items.remove(0);
            Value::Tuple(items)
        } else {
            Value::Array(items)
        })
    }

    fn map(&mut self, n: usize, depth: u16) -> Result<Value> {
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| no_memory(n, self.c.offset()))?;
        for i in 0..n {
            let key =
                self.value(depth + 1).map_err(|e| e.in_segment(Segment::Key(alloc::format!("key {i}"))))?;
            let name = match &key {
                Value::Str(s) => s.clone(),
                _ => alloc::format!("entry {i}"),
            };
            let value = self.value(depth + 1).map_err(|e| e.in_segment(Segment::Key(name)))?;
            out.push((key, value));
        }
        Ok(Value::Map(out))
    }

    fn ext(&mut self, n: usize, depth: u16, start: usize) -> Result<Value> {
        let code = self.take(1)?[0] as i8;
        let data = self.take(n)?;
        match code {
            EXT_COMPLEX => {
                let Ok(parts) = <[u8; 16]>::try_from(data) else {
                    return Err(Error::invalid("complex ext (44) payload", "16 bytes", n, start));
                };
                let (re, im) = parts.split_at(8);
                Ok(Value::Complex {
                    re: f64::from_be_bytes(re.try_into().expect("8 bytes")),
                    im: f64::from_be_bytes(im.try_into().expect("8 bytes")),
                })
            }
            EXT_SET => {
                let payload_at = self.c.offset() - n;
                let mut inner = Reader { c: Cursor::new(data) };
                let v = inner.value(depth + 1).map_err(|e| e.shift_offset(payload_at))?;
                match v {
                    Value::Array(items) if inner.c.is_done() => Ok(Value::Set(items)),
                    _ => Err(Error::invalid("set ext (45) payload", "one list", "another value", start)),
                }
            }
            _ => Ok(Value::Ext(code, copy(data, start)?)),
        }
    }
}

fn copy(bytes: &[u8], at: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.try_reserve_exact(bytes.len()).map_err(|_| no_memory(bytes.len(), at))?;
    out.extend_from_slice(bytes);
    Ok(out)
}
