//! Arrow `RecordBatch`es into a [`CTableWriter`] (feature `arrow`): the Arrow types with a
//! fixed-width CTable kind, each as python-blosc2's `CTable.from_arrow` stores it; any other
//! type is refused, naming the field and its type.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrowPrimitiveType, RecordBatch};
use arrow_schema::{DataType, Schema, TimeUnit};

use super::ctable_write::{CTableWriter, ColumnType, WriteCell};
use crate::container::error::{Error, Result, Segment};

/// The CTable kind of Arrow type `dt`, or `None`.
fn column_type(dt: &DataType) -> Option<ColumnType> {
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

impl CTableWriter {
    /// A writer of the columns of `schema` (each field a column of its name, nullable when the
    /// field is; its nulls kept in a mask). A field of a type without a fixed-width CTable kind
    /// here (strings, binary, lists, structs, dictionaries, decimals, ...) is refused, named.
    pub fn from_arrow_schema(schema: &Schema) -> Result<Self> {
        let mut w = CTableWriter::new();
        for f in schema.fields() {
            let ty = column_type(f.data_type()).ok_or_else(|| {
                Error::invalid(
                    "an Arrow type b2schema writes as a CTable column",
                    "an integer, float32, float64, bool or timestamp",
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
    /// their types.
    pub fn push_batch(&mut self, batch: &RecordBatch) -> Result<()> {
        let want: Vec<(String, ColumnType)> =
            self.columns().map(|(n, t, _)| (String::from(n), t.clone())).collect();
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
        // Every field checked before any is appended: a refused batch leaves the table as it was.
        for (f, (name, ty)) in schema.fields().iter().zip(&want) {
            if f.name() != name || column_type(f.data_type()).as_ref() != Some(ty) {
                return Err(Error::invalid(
                    "a batch field of the column's name and type",
                    alloc::format!("{name}: {}", kind(ty)),
                    alloc::format!("{}: {}", f.name(), f.data_type()),
                    0,
                )
                .in_field("columns"));
            }
        }
        for (i, (name, _, nullable)) in self.columns().enumerate() {
            if !nullable && batch.column(i).null_count() > 0 {
                return Err(Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
                    .in_segment(Segment::Key(name.into())));
            }
        }
        for (i, a) in batch.columns().iter().enumerate() {
            let notnull: Option<Vec<u8>> =
                a.logical_nulls().map(|n| (0..a.len()).map(|r| u8::from(n.is_valid(r))).collect());
            let bytes = match a.data_type() {
                DataType::Int8 => le::<Int8Type>(a.as_ref()),
                DataType::Int16 => le::<Int16Type>(a.as_ref()),
                DataType::Int32 => le::<Int32Type>(a.as_ref()),
                DataType::Int64 => le::<Int64Type>(a.as_ref()),
                DataType::UInt8 => le::<UInt8Type>(a.as_ref()),
                DataType::UInt16 => le::<UInt16Type>(a.as_ref()),
                DataType::UInt32 => le::<UInt32Type>(a.as_ref()),
                DataType::UInt64 => le::<UInt64Type>(a.as_ref()),
                DataType::Float32 => le::<Float32Type>(a.as_ref()),
                DataType::Float64 => le::<Float64Type>(a.as_ref()),
                DataType::Timestamp(TimeUnit::Second, _) => le::<TimestampSecondType>(a.as_ref()),
                DataType::Timestamp(TimeUnit::Millisecond, _) => le::<TimestampMillisecondType>(a.as_ref()),
                DataType::Timestamp(TimeUnit::Microsecond, _) => le::<TimestampMicrosecondType>(a.as_ref()),
                DataType::Timestamp(TimeUnit::Nanosecond, _) => le::<TimestampNanosecondType>(a.as_ref()),
                DataType::Boolean => a.as_boolean_opt().map(|b| b.values().iter().map(u8::from).collect()),
                _ => None,
            }
            .ok_or_else(|| {
                Error::invalid("an array of the field's type", kind(&want[i].1), a.data_type().to_string(), 0)
                    .in_segment(Segment::Key(want[i].0.clone()))
            })?;
            self.push_raw(i, &bytes, notnull.as_deref())?;
        }
        Ok(())
    }
}

fn kind(t: &ColumnType) -> String {
    alloc::format!("{t:?}")
}

/// The little-endian bytes of a primitive array's values.
fn le<T: ArrowPrimitiveType>(a: &dyn Array) -> Option<Vec<u8>>
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
