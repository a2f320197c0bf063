//! A CTable's live rows as Arrow `RecordBatch`es (feature `arrow`): [`ArrowReader`].

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::collections::HashMap;

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BooleanArray, LargeBinaryArray, LargeStringArray, PrimitiveArray,
    RecordBatch, RecordBatchOptions, RecordBatchReader, StringArray,
};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};

use super::CTable;
use super::ctable::{CTABLE_META_KEY, ColumnSpec};
use super::msgpack::Cursor;
use super::rows::Bands;
use crate::container::error::{Error, Result, Segment};
use crate::format::value::Value;

/// The key of the Arrow schema's metadata that holds the CTable's schema JSON.
pub const ARROW_SCHEMA_KEY: &str = "b2schema.ctable.schema";

/// A CTable's live rows as Arrow `RecordBatch`es (feature `arrow`): [`CTable::arrow_reader`]
/// gives an [`ArrowReader`], arrow's `RecordBatchReader`, over the chosen columns (only their
/// members are read), in batches of as many rows as the caller asks (the last one shorter),
/// the deleted rows left out and the nulls (masks and sentinels) made Arrow nulls. The columns
/// are read a band of rows at a time (as [`CTable::for_each_row`] reads them), so memory follows
/// the band and the batch, not the table.
///
/// The Arrow types are python-blosc2's own (`CTable.to_arrow()`, 4.14):
///
/// | column kind | Arrow type |
/// | --- | --- |
/// | `int8` .. `int64`, `uint8` .. `uint64`, `float32`, `float64`, `bool` | the primitive of that name |
/// | `string` (`<U`), `vlstring` | `Utf8` |
/// | `utf8` (offsets and bytes) | `LargeUtf8` |
/// | `bytes` (`\|S`), `vlbytes` | `LargeBinary` |
/// | `timestamp` | `Timestamp` with the schema's `unit` (and `timezone`) |
/// | `dictionary` | `Dictionary<Int32, Utf8>` |
///
/// The other kinds (`complex64`, `complex128`, `ndarray`, `list`, `struct`, `object`) are
/// refused by [`CTable::arrow_reader`] with an error that names the column and its kind. The
/// Arrow schema's metadata holds the CTable's schema JSON at [`ARROW_SCHEMA_KEY`]. An error of
/// ours met while reading is `ArrowError::ExternalError` holding the [`crate::Error`].
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
/// use arrow_array::{Array, Float64Array, RecordBatchReader};
/// use b2schema::store::CTable;
///
/// let table = CTable::open(&path)?;
/// let reader = table.arrow_reader(Some(&["id", "x"]), 4)?;   // 2 columns, 4 rows a batch
/// assert_eq!(reader.schema().fields().len(), 2);
/// let batches = reader.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), [4, 2]);
/// let x = batches[0].column(1).as_any().downcast_ref::<Float64Array>().unwrap();
/// assert_eq!(x.value(1), 1.0);                                // row 1 was deleted
/// # Ok(())
/// # }
/// ```
pub struct ArrowReader {
    bands: Bands,
    specs: Vec<ColumnSpec>,
    schema: SchemaRef,
    batch_rows: usize,
    /// Live rows read and not yet given, one list per column, and how many.
    pending: Vec<Vec<Value>>,
    pending_rows: usize,
    /// Live rows still to skip before the first one given, and how many to give at most.
    skip: u64,
    left: u64,
    done: bool,
}

impl core::fmt::Debug for ArrowReader {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ArrowReader")
            .field("schema", &self.schema)
            .field("batch_rows", &self.batch_rows)
            .finish()
    }
}

impl CTable {
    /// An Arrow `RecordBatchReader` over the live rows of the columns `names` (all of them when
    /// `None`), in the order given, `batch_rows` rows a batch (at least 1): see the
    /// [`ArrowReader`]. A column of a kind without an Arrow type
    /// here is an error that names it; so is a schema whose `n_rows` lies.
    pub fn arrow_reader(&self, names: Option<&[&str]>, batch_rows: usize) -> Result<ArrowReader> {
        if batch_rows == 0 {
            return Err(Error::invalid("a batch of at least one row", ">= 1", 0, 0).in_field("batch_rows"));
        }
        let specs: Vec<&ColumnSpec> = match names {
            Some(n) => n.iter().map(|n| self.column_spec(n)).collect::<Result<_>>()?,
            None => self.columns().iter().collect(),
        };
        let mut fields = Vec::with_capacity(specs.len());
        for s in &specs {
            fields.push(Field::new(s.name.clone(), arrow_type(s)?, true));
        }
        let meta = self.store().open_member(CTABLE_META_KEY)?;
        let text = match meta.vlmeta_data("schema")? {
            Some(b) => Cursor::new(&b).str()?.to_string(),
            None => String::new(),
        };
        let schema =
            Arc::new(Schema::new_with_metadata(fields, HashMap::from([(ARROW_SCHEMA_KEY.into(), text)])));
        let bands = Bands::open(self, &specs)?;
        Ok(ArrowReader {
            bands,
            specs: specs.into_iter().cloned().collect(),
            schema,
            batch_rows,
            pending: Vec::new(),
            pending_rows: 0,
            skip: 0,
            left: u64::MAX,
            done: false,
        })
    }
}

impl ArrowReader {
    /// Only the live rows `start..stop` (fewer at the table's end); the rows before `start`
    /// are still read, a band at a time, to be counted.
    pub fn rows(mut self, start: u64, stop: u64) -> Self {
        self.skip = start;
        self.left = stop.saturating_sub(start);
        self
    }

    /// The next batch, or `None` at the end.
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        while !self.done && (self.pending_rows as u64) < (self.batch_rows as u64).min(self.left) {
            let Some((n, mut cols)) = self.bands.next_band()? else {
                self.done = true;
                break;
            };
            let skip = usize::try_from(self.skip).unwrap_or(usize::MAX).min(n);
            self.skip -= skip as u64;
            if self.pending.is_empty() {
                self.pending = cols.iter().map(|_| Vec::new()).collect();
            }
            for (p, c) in self.pending.iter_mut().zip(&mut cols) {
                p.extend(c.drain(skip..));
            }
            self.pending_rows += n - skip;
        }
        let take = (self.pending_rows as u64).min(self.batch_rows as u64).min(self.left) as usize;
        if take == 0 {
            self.done = true;
            return Ok(None);
        }
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.specs.len());
        for ((spec, field), cells) in self.specs.iter().zip(self.schema.fields()).zip(&mut self.pending) {
            let rest = cells.split_off(take);
            let batch = core::mem::replace(cells, rest);
            arrays.push(build(spec, field.data_type(), batch)?);
        }
        self.pending_rows -= take;
        self.left -= take as u64;
        let opts = RecordBatchOptions::new().with_row_count(Some(take));
        RecordBatch::try_new_with_options(self.schema.clone(), arrays, &opts).map(Some).map_err(|e| {
            Error::invalid("a record batch of the table's columns", "equal lengths", e.to_string(), 0)
        })
    }
}

impl Iterator for ArrowReader {
    type Item = core::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_batch() {
            Ok(b) => b.map(Ok),
            Err(e) => {
                // One error, then the end.
                self.done = true;
                self.pending_rows = 0;
                self.left = 0;
                Some(Err(ArrowError::ExternalError(Box::new(e))))
            }
        }
    }
}

impl RecordBatchReader for ArrowReader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The Arrow type of column `spec`, or an error naming it and its kind.
fn arrow_type(spec: &ColumnSpec) -> Result<DataType> {
    Ok(match spec.kind.as_str() {
        "int8" => DataType::Int8,
        "int16" => DataType::Int16,
        "int32" => DataType::Int32,
        "int64" => DataType::Int64,
        "uint8" => DataType::UInt8,
        "uint16" => DataType::UInt16,
        "uint32" => DataType::UInt32,
        "uint64" => DataType::UInt64,
        "float32" => DataType::Float32,
        "float64" => DataType::Float64,
        "bool" => DataType::Boolean,
        "string" | "vlstring" => DataType::Utf8,
        "utf8" => DataType::LargeUtf8,
        "bytes" | "vlbytes" => DataType::LargeBinary,
        "dictionary" => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        "timestamp" => {
            let unit = match spec.spec.get("unit").and_then(Value::as_str).unwrap_or("ns") {
                "s" => TimeUnit::Second,
                "ms" => TimeUnit::Millisecond,
                "us" => TimeUnit::Microsecond,
                "ns" => TimeUnit::Nanosecond,
                other => {
                    return Err(at(
                        spec,
                        Error::invalid("a timestamp unit", "s, ms, us or ns", other.escape_debug(), 0)
                            .in_field("unit"),
                    ));
                }
            };
            let tz = spec.spec.get("timezone").and_then(Value::as_str).map(Arc::from);
            DataType::Timestamp(unit, tz)
        }
        other => {
            return Err(at(
                spec,
                Error::invalid(
                    "a column kind with an Arrow type here (numbers, bool, strings, bytes, timestamp, dictionary)",
                    "not complex, ndarray, list, struct or object",
                    other.escape_debug(),
                    0,
                )
                .in_field("kind"),
            ));
        }
    })
}

fn at(spec: &ColumnSpec, e: Error) -> Error {
    e.in_segment(Segment::Key(super::column_key(&spec.name)))
}

/// The Arrow array of `cells` (one column's, nulls as [`Value::Nil`]) of type `dt`.
fn build(spec: &ColumnSpec, dt: &DataType, cells: Vec<Value>) -> Result<ArrayRef> {
    let bad = |i: usize, v: &Value| {
        at(
            spec,
            Error::invalid(
                "a cell of the column's kind",
                spec.kind.escape_debug(),
                alloc::format!("{v:?}"),
                0,
            )
            .in_segment(Segment::Index(i)),
        )
    };
    fn ints<T: ArrowPrimitiveType>(
        cells: &[Value],
        bad: impl Fn(usize, &Value) -> Error,
    ) -> Result<PrimitiveArray<T>>
    where
        T::Native: TryFrom<i128>,
    {
        let mut out = Vec::with_capacity(cells.len());
        for (i, v) in cells.iter().enumerate() {
            out.push(match v {
                Value::Nil => None,
                Value::Int(n) => Some(T::Native::try_from(*n).map_err(|_| bad(i, v))?),
                _ => return Err(bad(i, v)),
            });
        }
        Ok(PrimitiveArray::from_iter(out))
    }
    let strs = |cells: &[Value]| -> Result<Vec<Option<String>>> {
        cells
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Nil => Ok(None),
                Value::Str(s) => Ok(Some(s.clone())),
                _ => Err(bad(i, v)),
            })
            .collect()
    };
    Ok(match dt {
        DataType::Int8 => Arc::new(ints::<Int8Type>(&cells, bad)?),
        DataType::Int16 => Arc::new(ints::<Int16Type>(&cells, bad)?),
        DataType::Int32 => Arc::new(ints::<Int32Type>(&cells, bad)?),
        DataType::Int64 => Arc::new(ints::<Int64Type>(&cells, bad)?),
        DataType::UInt8 => Arc::new(ints::<UInt8Type>(&cells, bad)?),
        DataType::UInt16 => Arc::new(ints::<UInt16Type>(&cells, bad)?),
        DataType::UInt32 => Arc::new(ints::<UInt32Type>(&cells, bad)?),
        DataType::UInt64 => Arc::new(ints::<UInt64Type>(&cells, bad)?),
        DataType::Timestamp(unit, tz) => {
            let tz = tz.clone();
            match unit {
                TimeUnit::Second => Arc::new(ints::<TimestampSecondType>(&cells, bad)?.with_timezone_opt(tz)),
                TimeUnit::Millisecond => {
                    Arc::new(ints::<TimestampMillisecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
                TimeUnit::Microsecond => {
                    Arc::new(ints::<TimestampMicrosecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
                TimeUnit::Nanosecond => {
                    Arc::new(ints::<TimestampNanosecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
            }
        }
        DataType::Float32 => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::F32(x) => Some(*x),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(PrimitiveArray::<Float32Type>::from_iter(out))
        }
        DataType::Float64 => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::F64(x) => Some(*x),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(PrimitiveArray::<Float64Type>::from_iter(out))
        }
        DataType::Boolean => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::Bool(b) => Some(*b),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(BooleanArray::from(out))
        }
        DataType::Utf8 => Arc::new(StringArray::from(strs(&cells)?)),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(strs(&cells)?)),
        DataType::Dictionary(..) => {
            let mut b = StringDictionaryBuilder::<Int32Type>::new();
            for s in strs(&cells)? {
                match s {
                    Some(s) => {
                        b.append(&s).map_err(|e| {
                            at(
                                spec,
                                Error::invalid(
                                    "a dictionary of at most 2^31 values",
                                    "fewer",
                                    e.to_string(),
                                    0,
                                ),
                            )
                        })?;
                    }
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        DataType::LargeBinary => {
            let mut out: Vec<Option<&[u8]>> = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::Bin(b) => Some(b),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(LargeBinaryArray::from_opt_vec(out))
        }
        other => {
            return Err(at(
                spec,
                Error::invalid("an Arrow type b2schema builds", "a primitive or a string", other, 0),
            ));
        }
    })
}
