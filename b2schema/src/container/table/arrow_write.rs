//! Arrow `RecordBatch`es into a [`CTableWriter`] (feature `arrow`): each Arrow type
//! python-blosc2's `CTable.from_arrow` (4.14) stores as a column kind b2schema writes, stored as
//! it stores it; any other type is refused, naming the field and its type.
//!
//! | Arrow type | column kind |
//! | --- | --- |
//! | `Int8` .. `Int64`, `UInt8` .. `UInt64`, `Float32`, `Float64`, `Boolean` | the kind of that name |
//! | `Timestamp(unit, tz)` | `timestamp` with the unit and time zone |
//! | `Utf8`, `LargeUtf8`, `Utf8View` | `utf8` (offsets and bytes) |
//! | `Binary`, `LargeBinary`, `BinaryView` | `vlbytes` |
//! | `Dictionary<any integer, Utf8 or LargeUtf8>` | `dictionary` (`int32` codes, `vlstring` values) |
//! | `FixedSizeList<number or bool>` | `ndarray`, its item shape the field's `blosc2:ndarray_shape` metadata, or `[list size]` |
//! | `List`, `LargeList` | `list` (msgpack lists in a BatchArray), of items: numbers, bools, timestamps, strings (`string`), binaries (`vlbytes`), lists and structs |
//! | `Struct` | its leaves, each a column `name.field` (`name.inner.field` ...) of its own kind, the struct's spec in the schema's `struct_parents`; a null struct row is a null in each leaf |
//!
//! Refused, as python-blosc2 refuses them too: `Map`, decimals, dates, times, durations,
//! intervals, `Float16`, `Null`, `FixedSizeBinary`, unions, run-end encoded arrays,
//! dictionaries of anything but strings. Inside a list, a dictionary of strings is a
//! `dictionary` item stored as its strings and a fixed-size list an `ndarray` item of shape
//! `[list size]` stored as a list of its items, as python-blosc2 stores them. A column added by
//! hand ([`CTableWriter::column`]) of kind `string`, `vlstring` or `dictionary` takes string
//! arrays too, `bytes` binary arrays.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrowPrimitiveType, RecordBatch};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Schema, TimeUnit};

use super::column_write::{Layout, StructField};
use super::ctable::join_path;
use super::ctable_write::{CTableWriter, ColumnType, WriteCell};
use super::write_cells::Mark;
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::format::value::Value;

/// What a refused field is told.
const WRITTEN: &str = "an integer, float, bool, timestamp, string, binary, dictionary of strings, \
                       fixed-size list of numbers, list or struct";

/// The CTable kind python-blosc2's `from_arrow` gives the field `f` (not a struct: its leaves
/// are columns), or `None`.
fn column_type(f: &Field) -> Option<ColumnType> {
    Some(match f.data_type() {
        DataType::List(item) | DataType::LargeList(item) => ColumnType::List {
            item: Box::new(nested_type(item.data_type())?),
            item_nullable: item.is_nullable(),
        },
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => ColumnType::Utf8,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => ColumnType::VlBytes,
        DataType::Dictionary(k, v) if k.is_integer() && is_string(v) => {
            ColumnType::Dictionary { ordered: false }
        }
        DataType::FixedSizeList(item, n) => {
            let item = scalar(item.data_type())?;
            let n = u64::try_from(*n).ok().filter(|&n| n > 0)?;
            let shape = f.metadata().get("blosc2:ndarray_shape").map(|s| {
                s.trim_matches(|c| c == '[' || c == ']' || c == '(' || c == ')')
                    .split(',')
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                    .map(|d| d.parse::<u64>().ok())
                    .collect::<Option<Vec<u64>>>()
            });
            let item_shape = match shape {
                None => alloc::vec![n],
                Some(Some(s))
                    if !s.is_empty() && s.iter().try_fold(1u64, |a, &d| a.checked_mul(d)) == Some(n) =>
                {
                    s
                }
                Some(_) => return None,
            };
            ColumnType::NdArray { item: Box::new(item), item_shape }
        }
        dt => scalar(dt)?,
    })
}

/// The kind python-blosc2's `from_arrow` gives `dt` inside a list or a struct: a string is a
/// `string` of `max_length` 1,000,000 (python-blosc2's), a binary `vlbytes`, a dictionary of
/// strings a `dictionary`, a fixed-size list an `ndarray` of shape `[list size]` (a field's
/// `blosc2:ndarray_shape` is read only where the fixed-size list is a column of its own).
fn nested_type(dt: &DataType) -> Option<ColumnType> {
    Some(match dt {
        dt if is_string(dt) => ColumnType::String { max_length: 1_000_000 },
        dt if is_binary(dt) => ColumnType::VlBytes,
        DataType::List(item) | DataType::LargeList(item) => ColumnType::List {
            item: Box::new(nested_type(item.data_type())?),
            item_nullable: item.is_nullable(),
        },
        DataType::Struct(fields) if !fields.is_empty() => ColumnType::Struct {
            fields: fields
                .iter()
                .map(|f| {
                    Some(StructField {
                        name: f.name().clone(),
                        ty: nested_type(f.data_type())?,
                        nullable: f.is_nullable(),
                    })
                })
                .collect::<Option<Vec<_>>>()?,
        },
        DataType::Dictionary(..) | DataType::FixedSizeList(..) => {
            column_type(&Field::new("", dt.clone(), true))?
        }
        dt => scalar(dt)?,
    })
}

/// A column of a batch, the structs taken apart: its name, field (nullable when a struct above
/// it is), array, and the rows a struct above it is null (`None`: none).
struct Leaf {
    name: String,
    field: Field,
    array: arrow_array::ArrayRef,
    nulls: Option<NullBuffer>,
}

/// The leaves of `fields` and `arrays` (a batch's columns): a struct's leaves in its place, named
/// by their path, as python-blosc2's `from_arrow` takes a struct apart; without a struct, the
/// fields as they are.
fn leaves(fields: &arrow_schema::Fields, arrays: Option<&[arrow_array::ArrayRef]>) -> Result<Vec<Leaf>> {
    let flat = fields.iter().any(|f| matches!(f.data_type(), DataType::Struct(_)));
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let a = arrays.map(|a| a[i].clone());
        walk(f, a, &mut alloc::vec![f.name().as_str()], flat, false, None, 0, &mut out)?;
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn walk<'a>(
    f: &'a Field,
    a: Option<arrow_array::ArrayRef>,
    path: &mut Vec<&'a str>,
    flat: bool,
    parent_nullable: bool,
    nulls: Option<NullBuffer>,
    depth: usize,
    out: &mut Vec<Leaf>,
) -> Result<()> {
    let nullable = parent_nullable || f.is_nullable();
    let name = if flat { join_path(path) } else { f.name().clone() };
    let DataType::Struct(children) = f.data_type() else {
        let field =
            Field::new(name.clone(), f.data_type().clone(), nullable).with_metadata(f.metadata().clone());
        let array = a.unwrap_or_else(|| arrow_array::new_empty_array(f.data_type()));
        try_reserve(out, 1, "the leaves of a batch", 0)?;
        out.push(Leaf { name, field, array, nulls });
        return Ok(());
    };
    if depth >= super::nested_write::MAX_NESTING || children.is_empty() {
        return Err(Error::invalid(
            "a struct of 1 or more fields, nested at most",
            super::nested_write::MAX_NESTING,
            "other",
            0,
        )
        .in_segment(Segment::Key(name)));
    }
    let s = match &a {
        Some(a) => Some(a.as_struct_opt().ok_or_else(|| {
            Error::invalid("a struct array", "Struct", a.data_type().to_string(), 0)
                .in_segment(Segment::Key(name.clone()))
        })?),
        None => None,
    };
    let nulls = NullBuffer::union(nulls.as_ref(), s.and_then(|s| s.logical_nulls()).as_ref());
    for (j, c) in children.iter().enumerate() {
        path.push(c.name());
        walk(c, s.map(|s| s.column(j).clone()), path, flat, nullable, nulls.clone(), depth + 1, out)?;
        path.pop();
    }
    Ok(())
}

/// The number, bool or timestamp kind of `dt`.
fn scalar(dt: &DataType) -> Option<ColumnType> {
    Some(match dt {
        DataType::Int8 => ColumnType::Int8,
        DataType::Int16 => ColumnType::Int16,
        DataType::Int32 => ColumnType::Int32,
        DataType::Int64 => ColumnType::Int64,
        DataType::UInt8 => ColumnType::UInt8,
        DataType::UInt16 => ColumnType::UInt16,
        DataType::UInt32 => ColumnType::UInt32,
        DataType::UInt64 => ColumnType::UInt64,
        DataType::Float32 => ColumnType::Float32,
        DataType::Float64 => ColumnType::Float64,
        DataType::Boolean => ColumnType::Bool,
        DataType::Timestamp(unit, tz) => ColumnType::Timestamp {
            unit: String::from(match unit {
                TimeUnit::Second => "s",
                TimeUnit::Millisecond => "ms",
                TimeUnit::Microsecond => "us",
                TimeUnit::Nanosecond => "ns",
            }),
            timezone: tz.as_deref().map(String::from),
        },
        _ => return None,
    })
}

fn is_string(dt: &DataType) -> bool {
    matches!(dt, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

fn is_binary(dt: &DataType) -> bool {
    matches!(dt, DataType::Binary | DataType::LargeBinary | DataType::BinaryView)
}

/// Whether a column of kind `ty` takes an array of type `dt`.
fn takes(ty: &ColumnType, dt: &DataType) -> bool {
    match ty {
        ColumnType::Utf8 | ColumnType::String { .. } | ColumnType::VlString => is_string(dt),
        ColumnType::Dictionary { .. } => {
            is_string(dt) || matches!(dt, DataType::Dictionary(k, v) if k.is_integer() && is_string(v))
        }
        ColumnType::VlBytes | ColumnType::Bytes { .. } => is_binary(dt),
        ColumnType::List { .. } => {
            matches!(dt, DataType::List(_) | DataType::LargeList(_))
                && column_type(&Field::new("", dt.clone(), true)).as_ref() == Some(ty)
        }
        ColumnType::NdArray { item, item_shape } => match dt {
            DataType::FixedSizeList(f, n) => {
                scalar(f.data_type()).as_ref() == Some(item)
                    && u64::try_from(*n).ok() == Some(item_shape.iter().product())
            }
            _ => false,
        },
        ty => scalar(dt).as_ref() == Some(ty),
    }
}

impl CTableWriter {
    /// A writer of the columns of `schema` (each field a column of its name, nullable when the
    /// field is), of the kinds the [module](crate::store) table gives; a field of another type
    /// is refused, named.
    pub fn from_arrow_schema(schema: &Schema) -> Result<Self> {
        let mut w = CTableWriter::new();
        let refused = |name: &str, dt: &DataType| {
            Error::invalid("an Arrow type b2schema writes as a CTable column", WRITTEN, dt.to_string(), 0)
                .in_segment(Segment::Key(name.into()))
        };
        for f in schema.fields() {
            if let DataType::Struct(_) = f.data_type() {
                let ty = nested_type(f.data_type()).ok_or_else(|| refused(f.name(), f.data_type()))?;
                w.parents.push((join_path(&[f.name()]), ty, f.is_nullable()));
            }
        }
        for leaf in leaves(schema.fields(), None)? {
            let f = &leaf.field;
            let ty = column_type(f).ok_or_else(|| refused(&leaf.name, f.data_type()))?;
            w.column(&leaf.name, ty, f.is_nullable())?;
        }
        Ok(w)
    }

    /// Appends the rows of `batch`, whose fields must be the writer's columns, in order, of
    /// types they take. A refused batch leaves the writer as it was.
    pub fn push_batch(&mut self, batch: &RecordBatch) -> Result<()> {
        let want: Vec<(String, ColumnType, bool)> =
            self.columns().map(|(n, t, nullable)| (String::from(n), t.clone(), nullable)).collect();
        let schema = batch.schema();
        let leaves = leaves(schema.fields(), Some(batch.columns()))?;
        if leaves.len() != want.len() {
            return Err(Error::invalid("a batch of the table's columns", want.len(), leaves.len(), 0)
                .in_field("columns"));
        }
        // Every field checked before any is appended.
        for (leaf, (name, ty, nullable)) in leaves.iter().zip(&want) {
            let f = &leaf.field;
            if f.name() != name || !takes(ty, f.data_type()) {
                return Err(Error::invalid(
                    "a batch field of the column's name and type",
                    alloc::format!("{name}: {}", ty.kind()),
                    alloc::format!("{}: {}", f.name(), f.data_type()),
                    0,
                )
                .in_field("columns"));
            }
            let nulls = NullBuffer::union(leaf.nulls.as_ref(), leaf.array.logical_nulls().as_ref());
            if !nullable && nulls.is_some_and(|n| n.null_count() > 0) {
                return Err(Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
                    .in_segment(Segment::Key(name.clone())));
            }
        }
        // Each column's rows, made before any is appended.
        let mut parts = Vec::with_capacity(want.len());
        for (leaf, (name, ty, _)) in leaves.iter().zip(&want) {
            let at = |e: Error| e.in_segment(Segment::Key(name.clone()));
            parts.push(part(leaf.array.as_ref(), ty, leaf.nulls.as_ref()).map_err(at)?);
        }
        let marks: Vec<Mark> = self.columns.iter().map(Mark::of).collect();
        for (i, p) in parts.into_iter().enumerate() {
            let r = match p {
                Part::Raw(bytes, notnull) => self.push_raw(i, &bytes, notnull.as_deref()),
                Part::Values(v) => super::write_cells::push_values(&mut self.columns[i], &v),
            };
            if let Err(e) = r {
                for (c, m) in self.columns.iter_mut().zip(marks) {
                    m.restore(c);
                }
                return Err(e);
            }
        }
        Ok(())
    }
}

/// One column of a batch, as the writer takes it.
enum Part {
    /// Fixed-width items and the not-null flags.
    Raw(Vec<u8>, Option<Vec<u8>>),
    /// Cells.
    Values(Vec<Value>),
}

/// The rows of `a` for a column of kind `ty` (which takes its type), null where `above` (a struct
/// above it) is too.
fn part(a: &dyn Array, ty: &ColumnType, above: Option<&NullBuffer>) -> Result<Part> {
    let nulls = NullBuffer::union(above, a.logical_nulls().as_ref());
    let notnull = || -> Result<Option<Vec<u8>>> {
        let Some(n) = &nulls else { return Ok(None) };
        let mut out = Vec::new();
        try_reserve(&mut out, a.len(), "a column's null mask", 0)?;
        out.extend((0..a.len()).map(|r| u8::from(n.is_valid(r))));
        Ok(Some(out))
    };
    let wrong = || Error::invalid("an array of the field's type", ty.kind(), a.data_type().to_string(), 0);
    if let (ColumnType::NdArray { item, .. }, Layout::Fixed(w)) = (ty, ty.layout()) {
        let l = a.as_fixed_size_list_opt().ok_or_else(wrong)?;
        let items = le(l.values().as_ref())?.ok_or_else(wrong)?;
        let Layout::Fixed(item_width) = item.layout() else { return Err(wrong()) };
        let mut bytes = Vec::new();
        try_reserve(&mut bytes, w.saturating_mul(a.len()), "a column's items", 0)?;
        for r in 0..a.len() {
            // The row's first item (`value_offset_at`, public from arrow-rs 60 on only).
            let at = r * l.value_length() as usize * item_width;
            match items.get(at..at + w) {
                Some(row) if l.is_valid(r) => bytes.extend_from_slice(row),
                _ => bytes.extend(core::iter::repeat_n(0, w)),
            }
        }
        return Ok(Part::Raw(bytes, notnull()?));
    }
    if let Layout::Fixed(_) = ty.layout()
        && !matches!(ty, ColumnType::String { .. } | ColumnType::Bytes { .. })
    {
        return Ok(Part::Raw(le(a)?.ok_or_else(wrong)?, notnull()?));
    }
    let mut v = match ty {
        ColumnType::List { .. } => {
            let mut out = Vec::new();
            try_reserve(&mut out, a.len(), "a column's cells", 0)?;
            for r in 0..a.len() {
                out.push(value(a, r, 0)?.ok_or_else(wrong)?);
            }
            out
        }
        _ => cells(a)?.ok_or_else(wrong)?,
    };
    if let Some(n) = above {
        v.iter_mut().enumerate().filter(|(r, _)| n.is_null(*r)).for_each(|(_, c)| *c = Value::Nil);
    }
    Ok(Part::Values(v))
}

/// Row `r` of `a` as python-blosc2 stores it in a `list` or `struct` column (a list a
/// [`Value::Array`], a struct a [`Value::Map`] in its fields' order, a timestamp its epoch
/// offset, a float a float64, a null [`Value::Nil`]), `depth` lists and structs deep; `None`
/// for a type python-blosc2 does not store there.
fn value(a: &dyn Array, r: usize, depth: usize) -> Result<Option<Value>> {
    if a.is_null(r) || a.logical_nulls().is_some_and(|n| n.is_null(r)) {
        return Ok(Some(Value::Nil));
    }
    if depth > super::nested_write::MAX_NESTING {
        return Ok(None);
    }
    macro_rules! prim {
        ($t:ty, $make:expr) => {
            a.as_primitive_opt::<$t>().map(|p| $make(p.value(r)))
        };
    }
    let int = |n: i128| Value::Int(n);
    Ok(match a.data_type() {
        DataType::Int8 => prim!(Int8Type, |x: i8| int(x.into())),
        DataType::Int16 => prim!(Int16Type, |x: i16| int(x.into())),
        DataType::Int32 => prim!(Int32Type, |x: i32| int(x.into())),
        DataType::Int64 => prim!(Int64Type, |x: i64| int(x.into())),
        DataType::UInt8 => prim!(UInt8Type, |x: u8| int(x.into())),
        DataType::UInt16 => prim!(UInt16Type, |x: u16| int(x.into())),
        DataType::UInt32 => prim!(UInt32Type, |x: u32| int(x.into())),
        DataType::UInt64 => prim!(UInt64Type, |x: u64| int(x.into())),
        DataType::Float32 => prim!(Float32Type, |x: f32| Value::F64(x.into())),
        DataType::Float64 => prim!(Float64Type, Value::F64),
        DataType::Timestamp(TimeUnit::Second, _) => prim!(TimestampSecondType, |x: i64| int(x.into())),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            prim!(TimestampMillisecondType, |x: i64| int(x.into()))
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            prim!(TimestampMicrosecondType, |x: i64| int(x.into()))
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            prim!(TimestampNanosecondType, |x: i64| int(x.into()))
        }
        DataType::Boolean => a.as_boolean_opt().map(|b| Value::Bool(b.value(r))),
        DataType::Utf8 => a.as_string_opt::<i32>().map(|s| Value::Str(s.value(r).into())),
        DataType::LargeUtf8 => a.as_string_opt::<i64>().map(|s| Value::Str(s.value(r).into())),
        DataType::Utf8View => a.as_string_view_opt().map(|s| Value::Str(s.value(r).into())),
        DataType::Binary => a.as_binary_opt::<i32>().map(|b| Value::Bin(b.value(r).to_vec())),
        DataType::LargeBinary => a.as_binary_opt::<i64>().map(|b| Value::Bin(b.value(r).to_vec())),
        DataType::BinaryView => a.as_binary_view_opt().map(|b| Value::Bin(b.value(r).to_vec())),
        DataType::List(_) | DataType::LargeList(_) => {
            let items = match a.data_type() {
                DataType::List(_) => a.as_list_opt::<i32>().map(|l| l.value(r)),
                _ => a.as_list_opt::<i64>().map(|l| l.value(r)),
            };
            let Some(items) = items else { return Ok(None) };
            let mut out = Vec::new();
            try_reserve(&mut out, items.len(), "a list's items", 0)?;
            for i in 0..items.len() {
                let Some(v) = value(items.as_ref(), i, depth + 1)? else { return Ok(None) };
                out.push(v);
            }
            Some(Value::Array(out))
        }
        DataType::FixedSizeList(..) => {
            let Some(l) = a.as_fixed_size_list_opt() else { return Ok(None) };
            let (n, values) = (l.value_length() as usize, l.values());
            let mut out = Vec::new();
            try_reserve(&mut out, n, "a fixed-size list's items", 0)?;
            // The row's items (`value_offset_at`, public from arrow-rs 60 on only).
            for i in r.saturating_mul(n)..r.saturating_mul(n).saturating_add(n) {
                let Some(v) = value(values.as_ref(), i, depth + 1)? else { return Ok(None) };
                out.push(v);
            }
            Some(Value::Array(out))
        }
        DataType::Dictionary(..) => {
            let Some((at, values)) = dictionary_keys(a) else { return Ok(None) };
            match at(r) {
                Some(k) if k < values.len() => value(values.as_ref(), k, depth + 1)?,
                _ => Some(Value::Nil),
            }
        }
        DataType::Struct(fields) => {
            let Some(s) = a.as_struct_opt() else { return Ok(None) };
            let mut out = Vec::with_capacity(fields.len());
            for (f, c) in fields.iter().zip(s.columns()) {
                let Some(v) = value(c.as_ref(), r, depth + 1)? else { return Ok(None) };
                out.push((Value::Str(f.name().clone()), v));
            }
            Some(Value::Map(out))
        }
        _ => None,
    })
}

/// The little-endian bytes of a primitive or boolean array's values (`None`: another type).
fn le(a: &dyn Array) -> Result<Option<Vec<u8>>> {
    fn prim<T: ArrowPrimitiveType>(a: &dyn Array) -> Result<Option<Vec<u8>>>
    where
        T::Native: WriteCell,
    {
        let Some(p) = a.as_primitive_opt::<T>() else { return Ok(None) };
        let mut out = Vec::new();
        try_reserve(
            &mut out,
            p.len().saturating_mul(core::mem::size_of::<T::Native>()),
            "a column's items",
            0,
        )?;
        for &v in p.values().iter() {
            v.put(&mut out);
        }
        Ok(Some(out))
    }
    match a.data_type() {
        DataType::Int8 => prim::<Int8Type>(a),
        DataType::Int16 => prim::<Int16Type>(a),
        DataType::Int32 => prim::<Int32Type>(a),
        DataType::Int64 => prim::<Int64Type>(a),
        DataType::UInt8 => prim::<UInt8Type>(a),
        DataType::UInt16 => prim::<UInt16Type>(a),
        DataType::UInt32 => prim::<UInt32Type>(a),
        DataType::UInt64 => prim::<UInt64Type>(a),
        DataType::Float32 => prim::<Float32Type>(a),
        DataType::Float64 => prim::<Float64Type>(a),
        DataType::Timestamp(TimeUnit::Second, _) => prim::<TimestampSecondType>(a),
        DataType::Timestamp(TimeUnit::Millisecond, _) => prim::<TimestampMillisecondType>(a),
        DataType::Timestamp(TimeUnit::Microsecond, _) => prim::<TimestampMicrosecondType>(a),
        DataType::Timestamp(TimeUnit::Nanosecond, _) => prim::<TimestampNanosecondType>(a),
        DataType::Boolean => {
            let Some(b) = a.as_boolean_opt() else { return Ok(None) };
            let mut out = Vec::new();
            try_reserve(&mut out, b.len(), "a column's items", 0)?;
            out.extend(b.values().iter().map(u8::from));
            Ok(Some(out))
        }
        _ => Ok(None),
    }
}

/// The cells of a string, binary or dictionary-of-strings array ([`Value::Nil`] for a null;
/// `None`: another type).
fn cells(a: &dyn Array) -> Result<Option<Vec<Value>>> {
    let mut out = Vec::new();
    try_reserve(&mut out, a.len(), "a column's cells", 0)?;
    Ok(cells_into(a, out))
}

fn cells_into(a: &dyn Array, mut out: Vec<Value>) -> Option<Vec<Value>> {
    let nulls = a.logical_nulls();
    let valid = |r: usize| nulls.as_ref().is_none_or(|n| n.is_valid(r));
    let str_at = |a: &dyn Array, r: usize| -> Option<String> {
        Some(String::from(match a.data_type() {
            DataType::Utf8 => a.as_string_opt::<i32>()?.value(r),
            DataType::LargeUtf8 => a.as_string_opt::<i64>()?.value(r),
            DataType::Utf8View => a.as_string_view_opt()?.value(r),
            _ => return None,
        }))
    };
    match a.data_type() {
        DataType::Dictionary(..) => {
            let (keys, values) = dictionary(a)?;
            for (r, k) in keys.into_iter().enumerate() {
                out.push(match k.filter(|&k| valid(r) && k < values.len() && values.is_valid(k)) {
                    Some(k) => Value::Str(str_at(values.as_ref(), k)?),
                    None => Value::Nil,
                });
            }
        }
        dt if is_string(dt) => {
            for r in 0..a.len() {
                out.push(if valid(r) { Value::Str(str_at(a, r)?) } else { Value::Nil });
            }
        }
        dt if is_binary(dt) => {
            for r in 0..a.len() {
                out.push(match valid(r) {
                    false => Value::Nil,
                    true => Value::Bin(
                        match dt {
                            DataType::Binary => a.as_binary_opt::<i32>()?.value(r),
                            DataType::LargeBinary => a.as_binary_opt::<i64>()?.value(r),
                            _ => a.as_binary_view_opt()?.value(r),
                        }
                        .to_vec(),
                    ),
                });
            }
        }
        _ => return None,
    }
    Some(out)
}

/// A row's key (`None`: null or negative), looked up in a dictionary array's keys.
type KeyAt<'a> = Box<dyn Fn(usize) -> Option<usize> + 'a>;

/// The keys (a lookup by row) and the values of a dictionary array, whatever the keys' integer
/// type: the array cast once, each row's key read in place.
fn dictionary_keys(a: &dyn Array) -> Option<(KeyAt<'_>, arrow_array::ArrayRef)> {
    use arrow_array::types::{UInt8Type as U8, UInt16Type as U16, UInt32Type as U32, UInt64Type as U64};
    macro_rules! keys {
        ($($t:ty),*) => {$(
            if let Some(d) = a.as_dictionary_opt::<$t>() {
                let k = d.keys();
                let at = move |r: usize| {
                    (r < k.len() && k.is_valid(r)).then(|| usize::try_from(k.value(r)).ok()).flatten()
                };
                return Some((Box::new(at), d.values().clone()));
            }
        )*};
    }
    keys!(Int8Type, Int16Type, Int32Type, Int64Type, U8, U16, U32, U64);
    None
}

/// The keys (`None`: null or negative) and the values of a dictionary array.
fn dictionary(a: &dyn Array) -> Option<(Vec<Option<usize>>, arrow_array::ArrayRef)> {
    let (at, values) = dictionary_keys(a)?;
    Some(((0..a.len()).map(at).collect(), values))
}
