//! Writing a [`Value`] as python-blosc2 writes it (msgpack's smallest forms, `use_bin_type`).

use alloc::vec::Vec;

use super::{EXT_COMPLEX, EXT_SET, TUPLE_TAG, Value};
use crate::format::encoding::marker::*;
use crate::format::error::{Error, ErrorKind, Result};

impl Value {
    /// The value's msgpack bytes in the smallest forms, as python-blosc2 (Python's `msgpack` with
    /// `use_bin_type=True`) writes them: a tuple as a list led by `"__tuple__"`, a complex number
    /// and a set as ext 44 and 45.
    ///
    /// An integer outside msgpack's range (`i64::MIN..=u64::MAX`) is refused.
    pub fn to_msgpack(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(&mut out, false)?;
        Ok(out)
    }

    /// The msgpack of the value as plain data, for a `Deserialize` type to read: a tuple and a set
    /// as lists (without the tag), a complex number as the list `[re, im]`.
    #[doc(hidden)]
    pub fn to_plain_msgpack(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(&mut out, true)?;
        Ok(out)
    }

    fn write(&self, out: &mut Vec<u8>, plain: bool) -> Result<()> {
        match self {
            Value::Tuple(items) | Value::Set(items) if plain => list(out, None, items, plain)?,
            Value::Complex { re, im } if plain => {
                list(out, None, &[Value::F64(*re), Value::F64(*im)], plain)?;
            }
            Value::Nil => out.push(NIL),
            Value::Bool(b) => out.push(of_bool(*b)),
            Value::Int(i) => int(*i, out)?,
            Value::F32(f) => {
                out.push(FLOAT32);
                out.extend_from_slice(&f.to_be_bytes());
            }
            Value::F64(f) => {
                out.push(FLOAT64);
                out.extend_from_slice(&f.to_be_bytes());
            }
            Value::Str(s) => {
                head(out, s.len(), Some(FIXSTR), 31, [STR8, STR16, STR32]);
                out.extend_from_slice(s.as_bytes());
            }
            Value::Bin(b) => {
                head(out, b.len(), None, 0, [BIN8, BIN16, BIN32]);
                out.extend_from_slice(b);
            }
            Value::Array(items) => list(out, None, items, plain)?,
            Value::Tuple(items) => list(out, Some(TUPLE_TAG), items, plain)?,
            Value::Map(entries) => {
                head(out, entries.len(), Some(FIXMAP), 15, [MAP16, MAP16, MAP32]);
                for (k, v) in entries {
                    k.write(out, plain)?;
                    v.write(out, plain)?;
                }
            }
            Value::Complex { re, im } => {
                let mut data = Vec::with_capacity(16);
                data.extend_from_slice(&re.to_be_bytes());
                data.extend_from_slice(&im.to_be_bytes());
                ext(out, EXT_COMPLEX, &data);
            }
            Value::Set(items) => {
                let mut data = Vec::new();
                list(&mut data, None, items, plain)?;
                ext(out, EXT_SET, &data);
            }
            Value::Ext(code, data) => ext(out, *code, data),
        }
        Ok(())
    }
}

fn list(out: &mut Vec<u8>, tag: Option<&str>, items: &[Value], plain: bool) -> Result<()> {
    let n = items.len() + usize::from(tag.is_some());
    head(out, n, Some(FIXARRAY), 15, [ARRAY16, ARRAY16, ARRAY32]);
    if let Some(tag) = tag {
        Value::Str(tag.into()).write(out, plain)?;
    }
    items.iter().try_for_each(|v| v.write(out, plain))
}

/// A length or count: the fix form up to `fix_max`, else the first of `wide` (8-, 16-, 32-bit
/// lengths; arrays and maps have no 8-bit form and repeat the 16-bit one) that holds it.
fn head(out: &mut Vec<u8>, n: usize, fix: Option<u8>, fix_max: usize, wide: [u8; 3]) {
    match fix {
        Some(base) if n <= fix_max => out.push(base + n as u8),
        _ if n <= 0xff && wide[0] != wide[1] => out.extend_from_slice(&[wide[0], n as u8]),
        _ if n <= 0xffff => {
            out.push(wide[1]);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        _ => {
            out.push(wide[2]);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
    }
}

fn int(i: i128, out: &mut Vec<u8>) -> Result<()> {
    if i > i128::from(u64::MAX) || i < i128::from(i64::MIN) {
        let value = alloc::format!("{i}");
        return Err(Error::new(ErrorKind::OutOfRange { value, target: "a msgpack integer", hint: None }));
    }
    if (0..=0x7f).contains(&i) {
        out.push(i as u8);
    } else if (-32..0).contains(&i) {
        out.push(i as i8 as u8);
    } else if i > 0 {
        let u = i as u64;
        match u {
            0..=0xff => out.extend_from_slice(&[UINT8, u as u8]),
            0x100..=0xffff => {
                out.push(UINT16);
                out.extend_from_slice(&(u as u16).to_be_bytes());
            }
            0x1_0000..=0xffff_ffff => {
                out.push(UINT32);
                out.extend_from_slice(&(u as u32).to_be_bytes());
            }
            _ => {
                out.push(UINT64);
                out.extend_from_slice(&u.to_be_bytes());
            }
        }
    } else {
        let s = i as i64;
        if s >= i64::from(i8::MIN) {
            out.extend_from_slice(&[INT8, s as u8]);
        } else if s >= i64::from(i16::MIN) {
            out.push(INT16);
            out.extend_from_slice(&(s as i16).to_be_bytes());
        } else if s >= i64::from(i32::MIN) {
            out.push(INT32);
            out.extend_from_slice(&(s as i32).to_be_bytes());
        } else {
            out.push(INT64);
            out.extend_from_slice(&s.to_be_bytes());
        }
    }
    Ok(())
}

fn ext(out: &mut Vec<u8>, code: i8, data: &[u8]) {
    match data.len() {
        1 => out.push(FIXEXT1),
        2 => out.push(FIXEXT2),
        4 => out.push(FIXEXT4),
        8 => out.push(FIXEXT8),
        16 => out.push(FIXEXT16),
        n => head(out, n, None, 0, [EXT8, EXT16, EXT32]),
    }
    out.push(code as u8);
    out.extend_from_slice(data);
}
