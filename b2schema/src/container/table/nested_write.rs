//! The nested kinds a [`CTableWriter`](super::CTableWriter) writes (`list`, `struct`), as
//! python-blosc2 4.14 writes them: their specs (the schema's entry, a list's `listarray`
//! metalayer, the `struct_parents` of a struct written as its leaves), their kinds read back from
//! a spec ([`CTableWriter::from_table`](super::CTableWriter::from_table)), and their cells checked
//! and made as python-blosc2 stores them (floats as float64, maps in the fields' order); and the
//! kind of any column read back from its schema entry ([`column_type`], nested or not).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::column_write::{ColumnType, StructField};
use super::ctable::{ColumnSpec, column_key};
use super::json::json_str;
use crate::container::error::{Error, Result, Segment};
use crate::format::value::Value;

/// How deep lists and structs may nest (as the Arrow reader reads them).
pub(super) const MAX_NESTING: usize = 16;

/// The rows of a BatchArray batch, python-blosc2's `batch_rows` default.
pub(super) const BATCH_ROWS: u64 = 2048;

fn s(text: &str) -> Value {
    Value::Str(text.into())
}

/// The spec of kind `ty` (nullable or not) as python-blosc2's `to_metadata_dict` gives it: a
/// list's item, a struct's field, a `list` or `struct` column's entry (without its name).
pub(super) fn spec(ty: &ColumnType, nullable: bool) -> Value {
    let mut m = alloc::vec![(s("kind"), s(ty.kind()))];
    let vl = |m: &mut Vec<(Value, Value)>, nullable: bool| {
        m.push((s("nullable"), Value::Bool(nullable)));
        m.push((s("serializer"), s("msgpack")));
        m.push((s("batch_rows"), Value::Int(BATCH_ROWS.into())));
    };
    let nullable_if = |m: &mut Vec<(Value, Value)>| {
        if nullable {
            m.push((s("nullable"), Value::Bool(true)));
        }
    };
    match ty {
        ColumnType::Timestamp { unit, timezone } => {
            m.push((s("unit"), s(unit)));
            if let Some(tz) = timezone {
                m.push((s("timezone"), s(tz)));
            }
            nullable_if(&mut m);
        }
        ColumnType::String { max_length } | ColumnType::Bytes { max_length } => {
            m.push((s("max_length"), Value::Int((*max_length).into())));
            nullable_if(&mut m);
        }
        ColumnType::VlString | ColumnType::VlBytes => vl(&mut m, nullable),
        ColumnType::Dictionary { ordered } => {
            let mut values = alloc::vec![(s("kind"), s("vlstring"))];
            vl(&mut values, false);
            m.push((s("index_type"), Value::Map(alloc::vec![(s("kind"), s("int32"))])));
            m.push((s("value_type"), Value::Map(values)));
            m.push((s("ordered"), Value::Bool(*ordered)));
            m.push((s("nullable"), Value::Bool(nullable)));
            m.push((s("null_code"), Value::Int(-1)));
        }
        ColumnType::NdArray { item_shape, .. } => {
            m.push((
                s("item_shape"),
                Value::Array(item_shape.iter().map(|&d| Value::Int(d.into())).collect()),
            ));
            m.push((s("dtype_str"), s(&ty.dtype())));
            nullable_if(&mut m);
        }
        ColumnType::List { item, item_nullable } => {
            m.push((s("item"), spec(item, *item_nullable)));
            m.push((s("nullable"), Value::Bool(nullable)));
            m.push((s("storage"), s("batch")));
            m.push((s("serializer"), s("msgpack")));
            m.push((s("batch_rows"), Value::Int(BATCH_ROWS.into())));
        }
        ColumnType::Struct { fields } => {
            let fields = fields
                .iter()
                .map(|f| {
                    let Value::Map(mut e) = spec(&f.ty, f.nullable) else { unreachable!("a spec is a map") };
                    e.insert(0, (s("name"), s(&f.name)));
                    Value::Map(e)
                })
                .collect();
            m.push((s("fields"), Value::Array(fields)));
            m.push((s("nullable"), Value::Bool(nullable)));
        }
        _ => nullable_if(&mut m),
    }
    Value::Map(m)
}

/// The `listarray` metalayer of a `list` column's BatchArray (python-blosc2's
/// `ListSpec.to_listarray_metadata`).
pub(super) fn listarray(ty: &ColumnType, nullable: bool) -> Value {
    let Value::Map(m) = spec(ty, nullable) else { unreachable!("a spec is a map") };
    let mut out = alloc::vec![(s("version"), Value::Int(1))];
    let mut backend = None;
    for (k, v) in m {
        match k.as_str() {
            Some("storage") => backend = Some(v),
            _ => out.push((k, v)),
        }
    }
    out.push((s("backend"), backend.unwrap_or_else(|| s("batch"))));
    Value::Map(out)
}

/// Appends `v` (a spec: maps, lists, text, integers, bools, nil) to `out` as JSON.
pub(super) fn json(out: &mut String, v: &Value) {
    match v {
        Value::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                json_str(out, k.as_str().unwrap_or(""));
                out.push_str(": ");
                json(out, v);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                json(out, v);
            }
            out.push(']');
        }
        Value::Str(t) => json_str(out, t),
        Value::Int(n) => out.push_str(&alloc::format!("{n}")),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        _ => out.push_str("null"),
    }
}

/// Whether `ty` may be a list's item or a struct column's field, `depth` lists and structs deep.
pub(super) fn check_nested(ty: &ColumnType, depth: usize) -> Result<()> {
    if depth > MAX_NESTING {
        return Err(Error::invalid("lists and structs nested at most", MAX_NESTING, "deeper", 0));
    }
    match ty {
        ColumnType::List { item, .. } => check_item(item, depth + 1).map_err(|e| e.in_field("item")),
        ColumnType::Struct { fields } => {
            if fields.is_empty() {
                return Err(Error::invalid("a struct of at least one field", 1, 0, 0).in_field("fields"));
            }
            for (i, f) in fields.iter().enumerate() {
                if fields[..i].iter().any(|g| g.name == f.name) {
                    return Err(Error::invalid(
                        "field names used once",
                        "a new name",
                        f.name.escape_debug(),
                        0,
                    )
                    .in_field("fields"));
                }
                check_item(&f.ty, depth + 1).map_err(|e| e.in_segment(Segment::Key(f.name.clone())))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn check_item(ty: &ColumnType, depth: usize) -> Result<()> {
    match ty {
        ColumnType::List { .. } | ColumnType::Struct { .. } => check_nested(ty, depth),
        ColumnType::Timestamp { .. }
        | ColumnType::String { .. }
        | ColumnType::VlString
        | ColumnType::VlBytes
        | ColumnType::Dictionary { .. }
        | ColumnType::NdArray { .. } => Ok(()),
        t if t.is_scalar_number() => Ok(()),
        t => Err(Error::invalid(
            "a list's item or a struct's field: a number, bool, timestamp, string, vlstring, vlbytes, dictionary, ndarray, list or struct",
            "one of those",
            t.kind(),
            0,
        )
        .in_field("kind")),
    }
}

/// The kind and nullability of the spec `v` (a list's item, a struct's field, a column's entry)
/// python-blosc2 wrote, `depth` lists and structs deep.
pub(super) fn from_spec(v: &Value, depth: usize) -> Result<(ColumnType, bool)> {
    let nullable = v.get("nullable").and_then(Value::as_bool).unwrap_or(false);
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    if matches!(kind, "list" | "struct") && depth > MAX_NESTING {
        return Err(Error::invalid("lists and structs nested at most", MAX_NESTING, "deeper", 0));
    }
    let ty = match kind {
        "list" => {
            let item =
                v.get("item").ok_or_else(|| Error::invalid("a list's item spec", "item", "none", 0))?;
            let (item, item_nullable) = from_spec(item, depth + 1).map_err(|e| e.in_field("item"))?;
            ColumnType::List { item: Box::new(item), item_nullable }
        }
        "struct" => {
            let fields = v
                .get("fields")
                .and_then(Value::as_slice)
                .ok_or_else(|| Error::invalid("a struct's fields", "a list", "none", 0).in_field("fields"))?;
            let mut out = Vec::with_capacity(fields.len().min(1024));
            for (i, f) in fields.iter().enumerate() {
                let at = |e: Error| e.in_segment(Segment::Index(i)).in_field("fields");
                let name = f
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| at(Error::invalid("a field's name", "text", "none", 0)))?;
                let (ty, nullable) = from_spec(f, depth + 1).map_err(at)?;
                out.push(StructField { name: name.into(), ty, nullable });
            }
            ColumnType::Struct { fields: out }
        }
        _ => {
            let spec = super::cells::ColumnSpec {
                name: String::new(),
                kind: kind.into(),
                nullable,
                spec: v.clone(),
            };
            column_type(&spec)?
        }
    };
    Ok((ty, nullable))
}

/// The cell `v` of kind `ty` as python-blosc2 stores it in a `list` or `struct` column (nil: a
/// null, when `nullable`), or `None` when it is not one.
pub(super) fn cell(ty: &ColumnType, nullable: bool, v: &Value) -> Option<Value> {
    if v.is_nil() {
        return nullable.then_some(Value::Nil);
    }
    let int = |lo: i128, hi: i128| match v {
        Value::Int(n) if (lo..=hi).contains(n) => Some(Value::Int(*n)),
        _ => None,
    };
    match ty {
        ColumnType::Int8 => int(i8::MIN.into(), i8::MAX.into()),
        ColumnType::Int16 => int(i16::MIN.into(), i16::MAX.into()),
        ColumnType::Int32 => int(i32::MIN.into(), i32::MAX.into()),
        ColumnType::Int64 | ColumnType::Timestamp { .. } => int(i64::MIN.into(), i64::MAX.into()),
        ColumnType::UInt8 => int(0, u8::MAX.into()),
        ColumnType::UInt16 => int(0, u16::MAX.into()),
        ColumnType::UInt32 => int(0, u32::MAX.into()),
        ColumnType::UInt64 => int(0, u64::MAX.into()),
        // python-blosc2 stores a Python float: a float64.
        ColumnType::Float32 | ColumnType::Float64 => match v {
            Value::F32(x) => Some(Value::F64(f64::from(*x))),
            Value::F64(x) => Some(Value::F64(*x)),
            Value::Int(n) => Some(Value::F64(*n as f64)),
            _ => None,
        },
        ColumnType::Bool => matches!(v, Value::Bool(_)).then(|| v.clone()),
        ColumnType::String { .. } | ColumnType::VlString | ColumnType::Dictionary { .. } => {
            matches!(v, Value::Str(_)).then(|| v.clone())
        }
        // A list of the shape's items, flat (python-blosc2 stores a fixed-size list's
        // `to_pylist()`), each a number or bool of the item kind or a null.
        ColumnType::NdArray { item, item_shape } => match v {
            Value::Array(a) | Value::Tuple(a) => {
                let n = item_shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d))?;
                if u64::try_from(a.len()).ok()? != n {
                    return None;
                }
                let mut out = Vec::new();
                out.try_reserve_exact(a.len()).ok()?;
                for x in a {
                    out.push(cell(item, true, x)?);
                }
                Some(Value::Array(out))
            }
            _ => None,
        },
        ColumnType::VlBytes => matches!(v, Value::Bin(_)).then(|| v.clone()),
        ColumnType::List { item, item_nullable } => match v {
            Value::Array(a) | Value::Tuple(a) => {
                let mut out = Vec::new();
                out.try_reserve_exact(a.len()).ok()?;
                for x in a {
                    out.push(cell(item, *item_nullable, x)?);
                }
                Some(Value::Array(out))
            }
            _ => None,
        },
        ColumnType::Struct { fields } => {
            let m = v.as_map()?;
            if m.len() != fields.len() {
                return None;
            }
            let mut out = Vec::with_capacity(fields.len());
            for f in fields {
                let x = m.iter().find(|(k, _)| k.as_str() == Some(f.name.as_str()))?;
                out.push((s(&f.name), cell(&f.ty, f.nullable, &x.1)?));
            }
            Some(Value::Map(out))
        }
        _ => None,
    }
}

/// The [`ColumnType`] of a column python-blosc2 wrote, or a refusal naming its kind.
pub(super) fn column_type(spec: &ColumnSpec) -> Result<ColumnType> {
    let at = |e: Error| e.in_segment(Segment::Key(column_key(&spec.name)));
    let max_length = || -> Result<u32> {
        spec.spec
            .get("max_length")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                at(Error::invalid("a max_length", "1 to 2^32 - 1", "none", 0).in_field("max_length"))
            })
    };
    Ok(match spec.kind.as_str() {
        "string" => ColumnType::String { max_length: max_length()? },
        "bytes" => ColumnType::Bytes { max_length: max_length()? },
        "utf8" => ColumnType::Utf8,
        "vlstring" => ColumnType::VlString,
        "vlbytes" => ColumnType::VlBytes,
        "dictionary" => ColumnType::Dictionary {
            ordered: spec.spec.get("ordered").and_then(Value::as_bool).unwrap_or(false),
        },
        "timestamp" => ColumnType::Timestamp {
            unit: String::from(spec.spec.get("unit").and_then(Value::as_str).unwrap_or("us")),
            timezone: spec.spec.get("timezone").and_then(Value::as_str).map(String::from),
        },
        "ndarray" => {
            let dtype = spec.spec.get("dtype_str").or_else(|| spec.spec.get("dtype")).and_then(Value::as_str);
            let item = dtype.and_then(scalar).ok_or_else(|| {
                at(Error::invalid(
                    "an ndarray column's dtype: an integer, float or bool",
                    "<i8, <f8, |b1, ...",
                    dtype.unwrap_or("none").escape_debug(),
                    0,
                )
                .in_field("dtype_str"))
            })?;
            ColumnType::NdArray { item: Box::new(item), item_shape: super::cells::item_shape(spec) }
        }
        "list" | "struct" => super::nested_write::from_spec(&spec.spec, 0).map_err(at)?.0,
        other => scalar(other).ok_or_else(|| {
            at(Error::invalid(
                "a column kind CTableWriter writes",
                "a number, bool, timestamp, string, bytes, utf8, vlstring, vlbytes, dictionary, ndarray, list or struct",
                other.escape_debug(),
                0,
            )
            .in_field("kind"))
        })?,
    })
}

/// The number or bool kind named by `s`: its schema name (`float64`) or NumPy dtype (`<f8`).
pub(super) fn scalar(s: &str) -> Option<ColumnType> {
    Some(match s {
        "int8" | "|i1" | "<i1" | "i1" => ColumnType::Int8,
        "int16" | "<i2" => ColumnType::Int16,
        "int32" | "<i4" => ColumnType::Int32,
        "int64" | "<i8" => ColumnType::Int64,
        "uint8" | "|u1" | "<u1" | "u1" => ColumnType::UInt8,
        "uint16" | "<u2" => ColumnType::UInt16,
        "uint32" | "<u4" => ColumnType::UInt32,
        "uint64" | "<u8" => ColumnType::UInt64,
        "float32" | "<f4" => ColumnType::Float32,
        "float64" | "<f8" => ColumnType::Float64,
        "bool" | "|b1" | "?" => ColumnType::Bool,
        _ => return None,
    })
}
