//! Fixed-width CTable columns (the integers, the floats, `bool`, `timestamp`, and `ndarray` rows)
//! decoded straight into Arrow buffers for [`super::ArrowReader`]: each run of physical rows is
//! decoded by the array reader into the batch's own (64-byte aligned) buffer, on the reader's
//! threads, the deleted rows then squeezed out in place, and the buffer handed to Arrow as it
//! is: no per-item conversion, no copy after the decode. Nulls (a `.notnull` mask or the spec's
//! `null_value`) become the array's validity.

use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use arrow_array::types::{
    ArrowTimestampType, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{ArrayRef, ArrowPrimitiveType, BooleanArray, FixedSizeListArray, PrimitiveArray};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder, Buffer, MutableBuffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, FieldRef, TimeUnit};

use super::ctable::{ColumnSpec, NOTNULL_SUFFIX};
use crate::container::array::{ArrayReader, ReadOptions, Selection};
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::{Limit, Limits};
use crate::format::value::Value;

/// How a fixed-width column's items become an Arrow array.
pub(super) struct Fixed {
    /// The Arrow type of an item (an `ndarray` column's: of its list's items).
    item_type: DataType,
    /// The bytes of one item and the items of one row (1 but for `ndarray`).
    item: usize,
    per_row: usize,
    /// An `ndarray` column's list item field.
    list: Option<FieldRef>,
    /// A `bool` column stored as bytes (`|b1`, or `|u1` when nullable with a sentinel).
    boolean: bool,
    sentinel: Option<Sentinel>,
}

/// The spec's `null_value`, as the items hold it.
enum Sentinel {
    /// An integer's (or a bool's) little-endian bytes.
    Bytes(Vec<u8>),
    F32(f32),
    F64(f64),
}

/// One batch of a fixed-width column being filled.
pub(super) struct FixedBuf {
    values: MutableBuffer,
    valid: Option<BooleanBufferBuilder>,
}

/// The dtype an item of Arrow type `dt` is stored as, and its width.
fn stored(dt: &DataType) -> Option<(&'static [&'static str], usize)> {
    Some(match dt {
        DataType::Int8 => (&["|i1", "<i1"], 1),
        DataType::Int16 => (&["<i2"], 2),
        DataType::Int32 => (&["<i4"], 4),
        DataType::Int64 | DataType::Timestamp(..) => (&["<i8"], 8),
        DataType::UInt8 => (&["|u1", "<u1"], 1),
        DataType::UInt16 => (&["<u2"], 2),
        DataType::UInt32 => (&["<u4"], 4),
        DataType::UInt64 => (&["<u8"], 8),
        DataType::Float32 => (&["<f4"], 4),
        DataType::Float64 => (&["<f8"], 8),
        DataType::Boolean => (&["|b1", "|u1"], 1),
        _ => return None,
    })
}

impl Fixed {
    /// The fast way for column `spec` of Arrow type `dt` stored in `r`, or `None` when its array
    /// is not what it takes (then its cells are read one by one, and checked).
    pub(super) fn new(spec: &ColumnSpec, dt: &DataType, r: &ArrayReader<'_>) -> Option<Self> {
        let dtype = r.dtype()?;
        let shape = r.shape();
        let (item_type, list, per_row) = match dt {
            DataType::FixedSizeList(f, n) => {
                let want: Vec<u64> = spec
                    .spec
                    .get("item_shape")
                    .and_then(Value::as_slice)
                    .map(|s| s.iter().filter_map(Value::as_u64).collect())?;
                if shape.len() < 2 || shape[1..] != want[..] {
                    return None;
                }
                (f.data_type().clone(), Some(f.clone()), usize::try_from(*n).ok().filter(|&n| n > 0)?)
            }
            _ if shape.len() == 1 => (dt.clone(), None, 1),
            _ => return None,
        };
        let (dtypes, item) = stored(&item_type)?;
        if !dtypes.contains(&dtype) || r.typesize() != item {
            return None;
        }
        let sentinel = spec.spec.get("null_value").and_then(|nv| sentinel_of(&item_type, dtype, item, nv));
        Some(Fixed { boolean: item_type == DataType::Boolean, item_type, item, per_row, list, sentinel })
    }

    /// The bytes of one row.
    fn row(&self) -> usize {
        self.item * self.per_row
    }

    /// A batch of `rows` rows to fill, its memory checked against `limits`.
    pub(super) fn start(&self, rows: usize, nullable: bool, limits: &Limits) -> Result<FixedBuf> {
        let bytes = (rows as u64).saturating_mul(self.row() as u64);
        Limits::check(
            "a batch of a column (in memory)",
            bytes,
            Limit::DecompressedTotal,
            limits.max_decompressed_total(),
            0,
        )?;
        let valid = (nullable || self.sentinel.is_some()).then(|| BooleanBufferBuilder::new(rows));
        Ok(FixedBuf { values: MutableBuffer::with_capacity(bytes as usize), valid })
    }

    /// Appends the live rows of the physical rows `a..b` (`bits`, one byte a row, says which are
    /// live) of array `r` and its null mask `mask` to `buf`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn append(
        &self,
        buf: &mut FixedBuf,
        r: &ArrayReader<'_>,
        mask: Option<&ArrayReader<'_>>,
        a: u64,
        b: u64,
        bits: &[u8],
        opts: &ReadOptions,
        key: &str,
    ) -> Result<()> {
        let at = |e: Error| e.in_segment(Segment::Key(key.into()));
        let mask_at = |e: Error| e.in_segment(Segment::Key(alloc::format!("{key}{NOTNULL_SUFFIX}")));
        let row = self.row();
        let len = r.shape().first().copied().unwrap_or(0);
        if b > len {
            return Err(at(Error::invalid("a column as long as /_valid_rows, at least", b, len, 0)));
        }
        let n = (b - a) as usize;
        let old = buf.values.len();
        buf.values.resize(old + n * row, 0);
        let mut ranges = alloc::vec![a..b];
        ranges.extend(r.shape()[1..].iter().map(|&d| 0..d));
        let sel = Selection::new(ranges, r.shape()).map_err(|e| at(e.into()))?;
        r.read_into(&sel, &mut buf.values.as_slice_mut()[old..], opts).map_err(at)?;
        let kept = squeeze(&mut buf.values.as_slice_mut()[old..], bits, row);
        buf.values.truncate(old + kept);
        let Some(valid) = &mut buf.valid else { return Ok(()) };
        if let Some(m) = mask {
            let mlen = m.shape().first().copied().unwrap_or(0);
            if mlen < b || m.typesize() != 1 || m.shape().len() != 1 {
                return Err(mask_at(Error::invalid(
                    "a null mask of one byte a row, as long as its column, at least",
                    b,
                    alloc::format!("{mlen} rows of {} bytes", m.typesize()),
                    0,
                )));
            }
            let sel = Selection::new(alloc::vec![a..b], m.shape()).map_err(|e| mask_at(e.into()))?;
            let mut m_bytes = alloc::vec![0u8; n];
            m.read_into(&sel, &mut m_bytes, opts).map_err(mask_at)?;
            for (&bit, &live) in m_bytes.iter().zip(bits) {
                if live != 0 {
                    valid.append(bit != 0);
                }
            }
        } else {
            let new = &buf.values.as_slice()[old..];
            for r in new.chunks_exact(row) {
                valid.append(!self.is_sentinel_row(r));
            }
        }
        Ok(())
    }

    /// Whether the row `bytes` is null by the sentinel: every item of it equal to it
    /// (python-blosc2's rule for `ndarray` rows; a scalar row has one item).
    fn is_sentinel_row(&self, bytes: &[u8]) -> bool {
        let Some(s) = &self.sentinel else { return false };
        bytes.chunks_exact(self.item).all(|it| match s {
            Sentinel::Bytes(b) => it == &b[..],
            Sentinel::F32(v) => {
                let x = f32::from_le_bytes([it[0], it[1], it[2], it[3]]);
                x == *v || (x.is_nan() && v.is_nan())
            }
            Sentinel::F64(v) => {
                let x = f64::from_le_bytes(it.try_into().unwrap_or([0; 8]));
                x == *v || (x.is_nan() && v.is_nan())
            }
        })
    }

    /// The Arrow array of the batch `buf` (of type `dt`).
    pub(super) fn finish(&self, buf: FixedBuf, dt: &DataType) -> Result<ArrayRef> {
        let rows = buf.values.len() / self.row();
        let items = rows * self.per_row;
        let nulls = buf.valid.map(|mut v| NullBuffer::new(v.finish())).filter(|n| n.null_count() > 0);
        if nulls.as_ref().is_some_and(|n| n.len() != rows) {
            return Err(Error::invalid("a validity of one bit a row", rows, nulls.map_or(0, |n| n.len()), 0));
        }
        let values: Buffer = buf.values.into();
        let (item_nulls, row_nulls) = if self.list.is_some() { (None, nulls) } else { (nulls, None) };
        let items = match &self.item_type {
            DataType::Int8 => prim::<Int8Type>(values, items, item_nulls),
            DataType::Int16 => prim::<Int16Type>(values, items, item_nulls),
            DataType::Int32 => prim::<Int32Type>(values, items, item_nulls),
            DataType::Int64 => prim::<Int64Type>(values, items, item_nulls),
            DataType::UInt8 => prim::<UInt8Type>(values, items, item_nulls),
            DataType::UInt16 => prim::<UInt16Type>(values, items, item_nulls),
            DataType::UInt32 => prim::<UInt32Type>(values, items, item_nulls),
            DataType::UInt64 => prim::<UInt64Type>(values, items, item_nulls),
            DataType::Float32 => prim::<Float32Type>(values, items, item_nulls),
            DataType::Float64 => prim::<Float64Type>(values, items, item_nulls),
            DataType::Boolean if self.boolean => {
                let bytes = values.as_slice();
                Arc::new(BooleanArray::new(BooleanBuffer::collect_bool(items, |i| bytes[i] != 0), item_nulls))
            }
            DataType::Timestamp(unit, tz) => {
                let tz = tz.clone();
                match unit {
                    TimeUnit::Second => ts::<TimestampSecondType>(values, items, item_nulls, tz),
                    TimeUnit::Millisecond => ts::<TimestampMillisecondType>(values, items, item_nulls, tz),
                    TimeUnit::Microsecond => ts::<TimestampMicrosecondType>(values, items, item_nulls, tz),
                    TimeUnit::Nanosecond => ts::<TimestampNanosecondType>(values, items, item_nulls, tz),
                }
            }
            other => {
                return Err(Error::invalid(
                    "a fixed-width Arrow type",
                    "a number, bool or timestamp",
                    other,
                    0,
                ));
            }
        };
        Ok(match &self.list {
            Some(f) => {
                let size = i32::try_from(self.per_row).unwrap_or(i32::MAX);
                Arc::new(FixedSizeListArray::try_new(f.clone(), size, items, row_nulls).map_err(|e| {
                    Error::invalid(
                        "a fixed-size list of the ndarray's rows",
                        String::from("rows"),
                        e.to_string(),
                        0,
                    )
                })?)
            }
            None => {
                debug_assert_eq!(items.data_type(), dt);
                items
            }
        })
    }
}

/// The sentinel `nv` as items of `dtype` hold it; `None` when no item can equal it (a value of
/// another kind, or out of the item's range): then nothing is null, as the cells read it.
fn sentinel_of(item_type: &DataType, dtype: &str, item: usize, nv: &Value) -> Option<Sentinel> {
    Some(match (item_type, nv) {
        (DataType::Float32, v) => Sentinel::F32(v.as_f64()? as f32),
        (DataType::Float64, v) => Sentinel::F64(v.as_f64()?),
        (DataType::Boolean, Value::Bool(b)) if dtype == "|b1" => Sentinel::Bytes(alloc::vec![u8::from(*b)]),
        (_, Value::Int(v)) => {
            let bits = 8 * item as u32;
            let signed = dtype.as_bytes().get(1) == Some(&b'i');
            let fits = if signed {
                *v >= -(1i128 << (bits - 1)) && *v < (1i128 << (bits - 1))
            } else {
                *v >= 0 && *v < (1i128 << bits)
            };
            if !fits {
                return None;
            }
            Sentinel::Bytes(v.to_le_bytes()[..item].to_vec())
        }
        _ => return None,
    })
}

fn ts<T: ArrowTimestampType>(
    values: Buffer,
    n: usize,
    nulls: Option<NullBuffer>,
    tz: Option<Arc<str>>,
) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::new(values, 0, n), nulls).with_timezone_opt(tz))
}

fn prim<T: ArrowPrimitiveType>(values: Buffer, n: usize, nulls: Option<NullBuffer>) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::new(values, 0, n), nulls))
}

/// Moves the live rows of `buf` (rows of `row` bytes; `bits[i] != 0` keeps row `i`) to its front,
/// in order, run by run; returns the bytes kept.
pub(super) fn squeeze(buf: &mut [u8], bits: &[u8], row: usize) -> usize {
    if !bits.contains(&0) {
        return bits.len() * row;
    }
    let mut dst = 0;
    let mut i = 0;
    while i < bits.len() {
        if bits[i] == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < bits.len() && bits[i] != 0 {
            i += 1;
        }
        let (from, to) = (start * row, i * row);
        if from != dst {
            buf.copy_within(from..to, dst);
        }
        dst += to - from;
    }
    dst
}
