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
//!
//! Refused: `List`, `LargeList`, `Struct`, `Map` (python-blosc2 stores them as `list` and `struct`
//! columns, or struct leaves as columns of their own; b2schema does not write those yet), and
//! the types python-blosc2 refuses too (decimals, dates, times, durations, intervals,
//! `Float16`, `Null`, `FixedSizeBinary`, unions, run-end encoded arrays, dictionaries of
//! anything but strings). A column added by hand ([`CTableWriter::column`]) of kind `string`,
//! `vlstring` or `dictionary` takes string arrays too, `bytes` binary arrays.

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
use arrow_schema::{DataType, Field, Schema, TimeUnit};

use super::column_write::Layout;
use super::ctable_write::{CTableWriter, ColumnType, WriteCell};
use super::write_cells::Mark;
use crate::container::error::{Error, Result, Segment};
use crate::format::value::Value;

/// What a refused field is told.
const WRITTEN: &str = "an integer, float, bool, timestamp, string, binary, dictionary of strings or \
                       fixed-size list of numbers (a list or struct is not written yet)";

/// The CTable kind python-blosc2's `from_arrow` gives the field `f`, or `None`.
fn column_type(f: &Field) -> Option<ColumnType> {
    Some(match f.data_type() {
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
        for f in schema.fields() {
            let ty = column_type(f).ok_or_else(|| {
                Error::invalid(
                    "an Arrow type b2schema writes as a CTable column",
                    WRITTEN,
                    f.data_type().to_string(),
                    0,
                )
                .in_segment(Segment::Key(f.name().clone()))
            })?;
            w.column(f.name(), ty, f.is_nullable())?;
        }
        Ok(w)
    }

    /// Appends the rows of `batch`, whose fields must be the writer's columns, in order, of
    /// types they take. A refused batch leaves the writer as it was.
    pub fn push_batch(&mut self, batch: &RecordBatch) -> Result<()> {
        let want: Vec<(String, ColumnType, bool)> =
            self.columns().map(|(n, t, nullable)| (String::from(n), t.clone(), nullable)).collect();
        let schema = batch.schema();
        if schema.fields().len() != want.len() {
            return Err(Error::invalid(
                "a batch of the table's columns",
                want.len(),
                schema.fields().len(),
                0,
            )
            .in_field("columns"));
        }
        // Every field checked before any is appended.
        for (f, (name, ty, nullable)) in schema.fields().iter().zip(&want) {
            if f.name() != name || !takes(ty, f.data_type()) {
                return Err(Error::invalid(
                    "a batch field of the column's name and type",
                    alloc::format!("{name}: {}", ty.kind()),
                    alloc::format!("{}: {}", f.name(), f.data_type()),
                    0,
                )
                .in_field("columns"));
            }
            let a = batch.column_by_name(name).map(|a| a.logical_null_count()).unwrap_or(0);
            if !nullable && a > 0 {
                return Err(Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
                    .in_segment(Segment::Key(name.clone())));
            }
        }
        // Each column's rows, made before any is appended.
        let mut parts = Vec::with_capacity(want.len());
        for (a, (name, ty, _)) in batch.columns().iter().zip(&want) {
            let at = |e: Error| e.in_segment(Segment::Key(name.clone()));
            parts.push(part(a.as_ref(), ty).map_err(at)?);
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

/// The rows of `a` for a column of kind `ty` (which takes its type).
fn part(a: &dyn Array, ty: &ColumnType) -> Result<Part> {
    let notnull = || a.logical_nulls().map(|n| (0..a.len()).map(|r| u8::from(n.is_valid(r))).collect());
    let wrong = || Error::invalid("an array of the field's type", ty.kind(), a.data_type().to_string(), 0);
    if let (ColumnType::NdArray { item, .. }, Layout::Fixed(w)) = (ty, ty.layout()) {
        let l = a.as_fixed_size_list_opt().ok_or_else(wrong)?;
        let items = le(l.values().as_ref()).ok_or_else(wrong)?;
        let Layout::Fixed(item_width) = item.layout() else { return Err(wrong()) };
        let mut bytes = Vec::with_capacity(w * a.len());
        for r in 0..a.len() {
            // The row's first item (`value_offset_at`, public from arrow-rs 60 on only).
            let at = r * l.value_length() as usize * item_width;
            match items.get(at..at + w) {
                Some(row) if l.is_valid(r) => bytes.extend_from_slice(row),
                _ => bytes.extend(core::iter::repeat_n(0, w)),
            }
        }
        return Ok(Part::Raw(bytes, notnull()));
    }
    if let Layout::Fixed(_) = ty.layout()
        && !matches!(ty, ColumnType::String { .. } | ColumnType::Bytes { .. })
    {
        return Ok(Part::Raw(le(a).ok_or_else(wrong)?, notnull()));
    }
    cells(a).map(Part::Values).ok_or_else(wrong)
}

/// The little-endian bytes of a primitive or boolean array's values.
fn le(a: &dyn Array) -> Option<Vec<u8>> {
    fn prim<T: ArrowPrimitiveType>(a: &dyn Array) -> Option<Vec<u8>>
    where
        T::Native: WriteCell,
    {
        let p = a.as_primitive_opt::<T>()?;
        let mut out = Vec::with_capacity(p.len() * core::mem::size_of::<T::Native>());
        for &v in p.values().iter() {
            v.put(&mut out);
        }
        Some(out)
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
        DataType::Boolean => a.as_boolean_opt().map(|b| b.values().iter().map(u8::from).collect()),
        _ => None,
    }
}

/// The cells of a string, binary or dictionary-of-strings array ([`Value::Nil`] for a null).
fn cells(a: &dyn Array) -> Option<Vec<Value>> {
    let nulls = a.logical_nulls();
    let valid = |r: usize| nulls.as_ref().is_none_or(|n| n.is_valid(r));
    let mut out = Vec::with_capacity(a.len());
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

/// The keys (`None`: null or negative) and the values of a dictionary array, whatever the
/// keys' integer type.
fn dictionary(a: &dyn Array) -> Option<(Vec<Option<usize>>, arrow_array::ArrayRef)> {
    use arrow_array::types::{UInt8Type as U8, UInt16Type as U16, UInt32Type as U32, UInt64Type as U64};
    macro_rules! keys {
        ($($t:ty),*) => {$(
            if let Some(d) = a.as_dictionary_opt::<$t>() {
                let keys = d.keys().iter().map(|k| k.and_then(|k| usize::try_from(k).ok())).collect();
                return Some((keys, d.values().clone()));
            }
        )*};
    }
    keys!(Int8Type, Int16Type, Int32Type, Int64Type, U8, U16, U32, U64);
    None
}
