//! A CTable column (its [`ColumnSpec`]) and its cells, decoded from what its members hold:
//! fixed-width items (every integer and float width, `bool`, `complex64`/`complex128`, `timestamp`
//! as its epoch offset, `string` `<U`, `bytes` `|S`), the rows of an `ndarray` column (nested
//! lists), a `utf8` column's offsets and bytes, a `dictionary` column's codes and values, and the
//! msgpack items of the variable-length kinds. Every cell is checked against its column's kind; a
//! bad cell is an error naming its row.

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::format::value::Value;

/// One column of the schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnSpec {
    /// Its name (dots separate the parts of a nested name, `\` escapes them).
    pub name: String,
    /// Its kind: `int64`, `float64`, `bool`, `string`, `bytes`, `vlstring`, `vlbytes`, ...
    pub kind: String,
    /// Whether it may hold nulls.
    pub nullable: bool,
    /// Its whole entry in the schema.
    pub spec: Value,
}

/// A decoded NumPy dtype string: `<i8` is (`<`, `i`, 8); `<U5` is (`<`, `U`, 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dtype {
    order: char,
    code: char,
    width: usize,
}

impl Dtype {
    /// Parses `d`; `None` when it is not a byte order, a kind letter and a width.
    pub(super) fn parse(d: &str) -> Option<Self> {
        let mut it = d.chars();
        let order = it.next()?;
        if !matches!(order, '<' | '>' | '|' | '=') {
            return None;
        }
        let code = it.next()?;
        let width: usize = it.as_str().parse().ok()?;
        Some(Dtype { order, code, width })
    }

    fn size(self) -> Result<usize> {
        match self.code {
            'U' => self.width.checked_mul(4),
            _ => Some(self.width),
        }
        .filter(|&s| s > 0)
        .ok_or_else(|| Error::invalid("an item size above 0", ">= 1", self.width, 0).in_field("dtype"))
    }
}

/// The cells of a one-dimensional fixed-width column of `dtype` (a NumPy dtype string,
/// little-endian or one byte wide), the sentinel `null_value` of its spec made null.
pub(super) fn fixed_cells(spec: &ColumnSpec, dtype: &str, bytes: &[u8]) -> Result<Vec<Value>> {
    let (t, size) = checked_dtype(dtype)?;
    let null = spec.spec.get("null_value");
    let mut out = Vec::new();
    try_reserve(&mut out, bytes.len() / size, "the cells of a column", 0)?;
    for (i, item) in bytes.chunks_exact(size).enumerate() {
        let cell = item_value(t, dtype, item).map_err(|e| e.in_segment(Segment::Index(i)))?;
        let is_null = null.is_some_and(|nv| sentinel(&cell, nv));
        // A nullable bool is widened to u1 (255 its null): a bool column reads its bytes as bools.
        let cell = match (&cell, spec.kind.as_str()) {
            (Value::Int(v), "bool") => Value::Bool(*v != 0),
            _ => cell,
        };
        out.push(if is_null { Value::Nil } else { cell });
    }
    Ok(out)
}

/// The cells of an `ndarray` column: its array has the shape `(rows, *item_shape)` (the
/// spec's `item_shape`, checked), each row a nested list of its items. A sentinel does not
/// make a row null (python-blosc2 reads the row as it is); a mask does.
/// An `ndarray` column's `item_shape` (none: empty).
pub(super) fn item_shape(spec: &ColumnSpec) -> Vec<u64> {
    spec.spec
        .get("item_shape")
        .and_then(Value::as_slice)
        .map(|s| s.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

pub(super) fn nd_cells(spec: &ColumnSpec, dtype: &str, shape: &[u64], bytes: &[u8]) -> Result<Vec<Value>> {
    let (t, size) = checked_dtype(dtype)?;
    let want = item_shape(spec);
    if shape.len() < 2 || shape[1..] != want[..] {
        return Err(Error::invalid(
            "an ndarray column of shape (rows, *item_shape)",
            alloc::format!("(rows, {want:?})"),
            alloc::format!("{shape:?}"),
            0,
        )
        .in_field("shape"));
    }
    let per_row = want.iter().try_fold(size, |a, &d| a.checked_mul(usize::try_from(d).ok()?));
    let per_row = per_row
        .filter(|&n| n > 0)
        .ok_or_else(|| Error::no_memory("an ndarray row", u64::MAX, 0).in_field("item_shape"))?;
    let mut out = Vec::new();
    try_reserve(&mut out, bytes.len() / per_row, "the cells of a column", 0)?;
    for (r, row) in bytes.chunks_exact(per_row).enumerate() {
        let mut items = Vec::new();
        try_reserve(&mut items, row.len() / size, "the items of an ndarray row", 0)?;
        for item in row.chunks_exact(size) {
            items.push(item_value(t, dtype, item).map_err(|e| e.in_segment(Segment::Index(r)))?);
        }
        out.push(nest(items, &want));
    }
    Ok(out)
}

/// `items` (C order) as nested lists of `shape`.
fn nest(items: Vec<Value>, shape: &[u64]) -> Value {
    match shape {
        [] | [_] => Value::Array(items),
        [_, inner @ ..] => {
            let step = inner.iter().product::<u64>() as usize;
            let mut rows = Vec::new();
            let mut it = items.into_iter();
            loop {
                let part: Vec<Value> = it.by_ref().take(step).collect();
                if part.is_empty() {
                    break;
                }
                rows.push(nest(part, inner));
            }
            Value::Array(rows)
        }
    }
}

/// The cells of a `utf8` column: `offsets` (`<i8`, one more than the rows, from 0, never
/// decreasing, at most the length of `data`) cut `data` (`|u1`) into UTF-8 text.
pub(super) fn utf8_cells(spec: &ColumnSpec, offsets: &[u8], data: &[u8]) -> Result<Vec<Value>> {
    let offs: Vec<i64> =
        offsets.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
    if offs.first() != Some(&0) {
        return Err(Error::invalid(
            "utf8 offsets that start at 0",
            0,
            alloc::format!("{:?}", offs.first()),
            0,
        )
        .in_field("offsets"));
    }
    let null = spec.spec.get("null_value");
    let mut out = Vec::new();
    try_reserve(&mut out, offs.len() - 1, "the cells of a column", 0)?;
    for (i, w) in offs.windows(2).enumerate() {
        let at = |e: Error| e.in_segment(Segment::Index(i)).in_field("offsets");
        let (a, b) = (w[0], w[1]);
        if b < a || b as u64 > data.len() as u64 {
            return Err(at(Error::invalid(
                "utf8 offsets that never decrease and stay within its bytes",
                alloc::format!("{a}..={}", data.len()),
                b,
                0,
            )));
        }
        let text = core::str::from_utf8(&data[a as usize..b as usize]).map_err(|e| {
            at(Error::invalid("UTF-8 text in a utf8 column", "valid UTF-8", "invalid bytes", e.valid_up_to()))
        })?;
        let cell = Value::Str(text.into());
        out.push(if null.is_some_and(|nv| sentinel(&cell, nv)) { Value::Nil } else { cell });
    }
    Ok(out)
}

/// The cells of a `dictionary` column: each `<i4` code indexes `values`, the spec's
/// `null_code` (-1 unless it says) is null.
pub(super) fn dictionary_cells(spec: &ColumnSpec, codes: &[u8], values: &[Value]) -> Result<Vec<Value>> {
    let null_code = spec.spec.get("null_code").and_then(Value::as_i64).unwrap_or(-1);
    let mut out = Vec::new();
    try_reserve(&mut out, codes.len() / 4, "the cells of a column", 0)?;
    for (i, c) in codes.chunks_exact(4).enumerate() {
        let code = i64::from(i32::from_le_bytes(c.try_into().expect("4 bytes")));
        if code == null_code {
            out.push(Value::Nil);
            continue;
        }
        let v = usize::try_from(code).ok().and_then(|c| values.get(c)).ok_or_else(|| {
            Error::invalid("a dictionary code that names one of its values, below", values.len(), code, i * 4)
                .in_segment(Segment::Index(i))
        })?;
        out.push(v.clone());
    }
    Ok(out)
}

/// An item of a variable-length column, checked against its kind: a `vlstring` item (and a
/// dictionary's value) is a string or nil, a `vlbytes` item bytes or nil, a `list` item a
/// list or nil, a `struct` item a map or nil; an `object` item any value.
pub(super) fn vl_cell(kind: &str, item: &[u8]) -> Result<Value> {
    let v = Value::from_msgpack(item)?;
    let ok = match kind {
        "vlstring" => matches!(v, Value::Str(_) | Value::Nil),
        "vlbytes" => matches!(v, Value::Bin(_) | Value::Nil),
        "list" => matches!(v, Value::Array(_) | Value::Tuple(_) | Value::Nil),
        "struct" => matches!(v, Value::Map(_) | Value::Nil),
        _ => true,
    };
    if !ok {
        return Err(Error::invalid("an item of the column's kind", kind, alloc::format!("{v:?}"), 0));
    }
    Ok(v)
}

fn checked_dtype(dtype: &str) -> Result<(Dtype, usize)> {
    let t = Dtype::parse(dtype).ok_or_else(|| {
        Error::invalid("a column dtype b2schema reads", "<i8, <f8, |b1, <c16, <U5, |S5 ...", dtype, 0)
    })?;
    let size = t.size()?;
    if t.order == '>' && size > 1 && t.code != 'S' {
        return Err(Error::invalid("a little-endian column", "< or |", dtype, 0).in_field("dtype"));
    }
    Ok((t, size))
}

/// One item of `t` (its `size` bytes).
fn item_value(t: Dtype, dtype: &str, item: &[u8]) -> Result<Value> {
    let mut b = [0u8; 8];
    let n = item.len().min(8);
    b[..n].copy_from_slice(&item[..n]);
    let f32_at = |i: usize| f32::from_le_bytes([item[i], item[i + 1], item[i + 2], item[i + 3]]);
    let f64_at = |i: usize| f64::from_le_bytes(item[i..i + 8].try_into().expect("8 bytes"));
    Ok(match (t.code, item.len()) {
        ('i', 1 | 2 | 4 | 8) => {
            let shift = 64 - 8 * item.len() as u32;
            Value::Int((((u64::from_le_bytes(b) << shift) as i64) >> shift) as i128)
        }
        ('u', 1 | 2 | 4 | 8) => Value::Int(u64::from_le_bytes(b) as i128),
        ('f', 4) => Value::F32(f32_at(0)),
        ('f', 8) => Value::F64(f64::from_le_bytes(b)),
        ('c', 8) => Value::Complex { re: f64::from(f32_at(0)), im: f64::from(f32_at(4)) },
        ('c', 16) => Value::Complex { re: f64_at(0), im: f64_at(8) },
        ('b', 1) => Value::Bool(item[0] != 0),
        ('S', _) => {
            let end = item.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1);
            Value::Bin(item[..end].to_vec())
        }
        ('U', _) => {
            let mut s = String::new();
            for c in item.chunks_exact(4) {
                let u = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                if u == 0 {
                    break;
                }
                s.push(char::from_u32(u).ok_or_else(|| {
                    Error::invalid("a Unicode scalar value in a string column", "<= 0x10ffff", u, 0)
                })?);
            }
            Value::Str(s)
        }
        _ => {
            return Err(Error::invalid("a column dtype b2schema reads", "i, u, f, c, b, S or U", dtype, 0)
                .in_field("dtype"));
        }
    })
}

fn sentinel(cell: &Value, nv: &Value) -> bool {
    match (cell, nv) {
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::F64(a), _) => nv.as_f64().is_some_and(|b| *a == b || (a.is_nan() && b.is_nan())),
        (Value::F32(a), _) => nv.as_f64().is_some_and(|b| *a == b as f32 || (a.is_nan() && b.is_nan())),
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Str(a), Value::Str(b)) => a == b,
        _ => false,
    }
}
