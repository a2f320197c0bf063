//! The cells [`CTableWriter`](super::CTableWriter) takes as [`Value`]s, each made the bytes
//! its column kind keeps (the fixed-width items, `utf8` offsets, BatchArray items, dictionary
//! codes), and each column put into the store as python-blosc2 4.14 lays it out.

use alloc::vec::Vec;

use super::batch_write::BatchArrayWriter;
use super::column_write::{Column, ColumnType, Data, Layout};
use super::ctable::{DICT_SUFFIX, UTF8_DATA_SUFFIX};
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::container::store::StoreWriter;
use crate::container::writer::Array;
use crate::format::value::Value;

use super::nested_write::BATCH_ROWS;

/// Appends `values` to `c` (see [`super::CTableWriter::push_values`]): all of them, or none.
pub(super) fn push_values(c: &mut Column, values: &[Value]) -> Result<()> {
    let row0 = c.rows();
    let mark = Mark::of(c);
    let r = push_each(c, values, row0);
    if r.is_err() {
        mark.restore(c);
    }
    r
}

fn push_each(c: &mut Column, values: &[Value], row0: u64) -> Result<()> {
    let layout = c.ty.layout();
    let nullable = c.nullable;
    if let Layout::Fixed(w) = layout {
        let Data::Fixed(data) = &mut c.data else { unreachable!("fixed data") };
        try_reserve(data, values.len().saturating_mul(w), "a column's items", 0)?;
    }
    if c.masked() {
        try_reserve(&mut c.notnull, values.len(), "a column's null mask", 0)?;
    }
    for (i, v) in values.iter().enumerate() {
        let row = row0 + i as u64;
        let null = matches!(v, Value::Nil);
        if null && !c.nullable {
            return Err(c.null_refused(row));
        }
        let wrong = || {
            Error::invalid("a value of the column's kind", c.ty.kind(), alloc::format!("{v:?}"), 0)
                .in_segment(Segment::Index(usize::try_from(row).unwrap_or(usize::MAX)))
                .in_segment(Segment::Key(c.name.clone()))
        };
        let ok = match (&mut c.data, &c.ty) {
            (Data::Fixed(data), ty) => {
                let Layout::Fixed(w) = layout else { unreachable!("fixed layout") };
                let before = data.len();
                let ok = null || fixed(ty, v, data);
                let fits = data.len() <= before + w;
                data.resize(before + w, 0);
                ok && fits
            }
            (Data::Utf8 { ends, bytes }, _) => {
                if let Value::Str(s) = v {
                    try_reserve(bytes, s.len(), "a column's bytes", 0)?;
                    bytes.extend_from_slice(s.as_bytes());
                }
                try_reserve(ends, 8, "a column's offsets", 0)?;
                ends.extend_from_slice(&(bytes.len() as i64).to_le_bytes());
                null || matches!(v, Value::Str(_))
            }
            (Data::Items(items), ty) => {
                let stored = match (ty, v) {
                    (ColumnType::List { .. } | ColumnType::Struct { .. }, v) => {
                        super::nested_write::cell(ty, nullable, v)
                    }
                    (_, Value::Nil)
                    | (ColumnType::VlString, Value::Str(_))
                    | (ColumnType::VlBytes, Value::Bin(_)) => Some(v.clone()),
                    _ => None,
                };
                let ok = stored.is_some();
                try_reserve(items, 1, "a column's items", 0)?;
                items.push(stored.unwrap_or(Value::Nil));
                ok
            }
            (Data::Dict { codes, values, index }, _) => {
                let code = match v {
                    Value::Str(s) => match index.get(s) {
                        Some(&c) => Some(c),
                        None => i32::try_from(values.len()).ok().inspect(|&c| {
                            index.insert(s.clone(), c);
                            values.push(s.clone());
                        }),
                    },
                    _ => None,
                };
                codes.extend_from_slice(&code.unwrap_or(-1).to_le_bytes());
                null || code.is_some()
            }
        };
        if !ok {
            return Err(wrong());
        }
        if c.masked() {
            c.notnull.push(u8::from(!null));
        }
    }
    Ok(())
}

/// How long a column's buffers were, to cut them back to after a refused call.
pub(super) struct Mark {
    a: usize,
    b: usize,
    values: usize,
    notnull: usize,
}

impl Mark {
    pub(super) fn of(c: &Column) -> Mark {
        let (a, b, values) = match &c.data {
            Data::Fixed(d) => (d.len(), 0, 0),
            Data::Utf8 { ends, bytes } => (ends.len(), bytes.len(), 0),
            Data::Items(items) => (items.len(), 0, 0),
            Data::Dict { codes, values, .. } => (codes.len(), 0, values.len()),
        };
        Mark { a, b, values, notnull: c.notnull.len() }
    }

    pub(super) fn restore(self, c: &mut Column) {
        c.notnull.truncate(self.notnull);
        match &mut c.data {
            Data::Fixed(d) => d.truncate(self.a),
            Data::Utf8 { ends, bytes } => {
                ends.truncate(self.a);
                bytes.truncate(self.b);
            }
            Data::Items(items) => items.truncate(self.a),
            Data::Dict { codes, values, index } => {
                codes.truncate(self.a);
                for v in values.drain(self.values..) {
                    index.remove(&v);
                }
            }
        }
    }
}

/// Appends the item `v` of the fixed-width kind `ty` to `out`; false when `v` is not one.
fn fixed(ty: &ColumnType, v: &Value, out: &mut Vec<u8>) -> bool {
    macro_rules! int {
        ($t:ty) => {
            match v {
                Value::Int(i) => <$t>::try_from(*i).map(|x| out.extend_from_slice(&x.to_le_bytes())).is_ok(),
                _ => false,
            }
        };
    }
    match ty {
        ColumnType::Int8 => int!(i8),
        ColumnType::Int16 => int!(i16),
        ColumnType::Int32 => int!(i32),
        ColumnType::Int64 | ColumnType::Timestamp { .. } => int!(i64),
        ColumnType::UInt8 => int!(u8),
        ColumnType::UInt16 => int!(u16),
        ColumnType::UInt32 => int!(u32),
        ColumnType::UInt64 => int!(u64),
        ColumnType::Float32 => match v {
            Value::F32(x) => Some(*x),
            Value::F64(x) => Some(*x as f32),
            Value::Int(i) => Some(*i as f32),
            _ => None,
        }
        .map(|x| out.extend_from_slice(&x.to_le_bytes()))
        .is_some(),
        ColumnType::Float64 => match v {
            Value::F32(x) => Some(f64::from(*x)),
            Value::F64(x) => Some(*x),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
        .map(|x| out.extend_from_slice(&x.to_le_bytes()))
        .is_some(),
        ColumnType::Bool => match v {
            Value::Bool(b) => {
                out.push(u8::from(*b));
                true
            }
            _ => false,
        },
        ColumnType::String { max_length } => match v {
            Value::Str(s) if s.chars().count() <= *max_length as usize => {
                s.chars().for_each(|ch| out.extend_from_slice(&(ch as u32).to_le_bytes()));
                true
            }
            _ => false,
        },
        ColumnType::Bytes { max_length } => match v {
            Value::Bin(b) if b.len() <= *max_length as usize => {
                out.extend_from_slice(b);
                true
            }
            _ => false,
        },
        ColumnType::NdArray { item, item_shape } => nd(item, item_shape, v, out),
        _ => false,
    }
}

/// Appends the items of `v`, nested arrays of `shape`, each of kind `item`.
fn nd(item: &ColumnType, shape: &[u64], v: &Value, out: &mut Vec<u8>) -> bool {
    match (shape.split_first(), v) {
        (None, v) => fixed(item, v, out),
        (Some((&n, rest)), Value::Array(xs) | Value::Tuple(xs)) => {
            xs.len() as u64 == n && xs.iter().all(|x| nd(item, rest, x, out))
        }
        _ => false,
    }
}

/// Inserts column `c` of `rows` rows as the member `key` of `w` (and its `.utf8` bytes or
/// `_dict` values); its mask is the caller's. A table of no rows keeps one physical row that is
/// not live, as python-blosc2 keeps a capacity of at least one (it cannot read members of no
/// items); a `utf8` column's bytes are at least one byte, as python-blosc2 writes them.
pub(super) fn insert_column(w: &mut StoreWriter, key: &str, c: &Column, rows: u64) -> Result<()> {
    let phys = rows.max(1);
    let pad = |mut v: Vec<u8>, len: usize| {
        v.resize(v.len().max(len), 0);
        v
    };
    match &c.data {
        Data::Fixed(bytes) => {
            let mut shape = alloc::vec![phys];
            if let ColumnType::NdArray { item_shape, .. } = &c.ty {
                shape.extend_from_slice(item_shape);
            }
            let Layout::Fixed(width) = c.ty.layout() else { unreachable!("fixed layout") };
            w.insert(key, Array::from_bytes(&shape, &c.ty.dtype(), pad(bytes.clone(), width))?.to_vec()?)
        }
        Data::Utf8 { ends, bytes } => {
            let mut offsets = Vec::new();
            try_reserve(&mut offsets, ends.len() + 16, "a column's offsets", 0)?;
            offsets.extend_from_slice(&0i64.to_le_bytes());
            offsets.extend_from_slice(ends);
            let offsets = pad(offsets, 16);
            w.insert(key, Array::from_bytes(&[phys + 1], "<i8", offsets)?.to_vec()?)?;
            let bytes = pad(bytes.clone(), 1);
            let data = Array::from_bytes(&[bytes.len() as u64], "|u1", bytes)?;
            w.insert(&alloc::format!("{key}{UTF8_DATA_SUFFIX}"), data.to_vec()?)
        }
        Data::Items(items) => {
            // A list's BatchArray is tagged `listarray` with its spec, as python-blosc2's ListArray.
            let tag = match &c.ty {
                ColumnType::List { .. } => {
                    Some(super::nested_write::listarray(&c.ty, c.nullable).to_msgpack()?)
                }
                _ => None,
            };
            let items = if items.is_empty() { core::slice::from_ref(&Value::Nil) } else { &items[..] };
            w.insert(key, batches(items, tag)?)
        }
        Data::Dict { codes, values, .. } => {
            let codes = if codes.is_empty() { (-1i32).to_le_bytes().to_vec() } else { codes.clone() };
            w.insert(key, Array::from_bytes(&[phys], "<i4", codes)?.to_vec()?)?;
            let values: Vec<Value> = values.iter().map(|s| Value::Str(s.clone())).collect();
            w.insert(&alloc::format!("{key}{DICT_SUFFIX}"), batches(&values, None)?)
        }
    }
}

/// A BatchArray of `items`, [`BATCH_ROWS`] a batch (`listarray`: the metalayer of a list's).
fn batches(items: &[Value], listarray: Option<Vec<u8>>) -> Result<Vec<u8>> {
    let mut b = BatchArrayWriter::new(b2schema_chunk::Params::new(1), None);
    if let Some(tag) = listarray {
        b = b.with_metalayer("listarray", tag);
    }
    for batch in items.chunks(BATCH_ROWS as usize) {
        b.push(batch)?;
    }
    b.to_vec()
}
