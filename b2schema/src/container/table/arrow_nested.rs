//! A CTable's `list` and `struct` columns as Arrow `List` and `Struct` arrays, built from their
//! cells (lists as [`Value::Array`], structs as [`Value::Map`] by field name, null rows as
//! [`Value::Nil`]), as python-blosc2's `CTable.to_arrow()` gives them: a null row is a null list
//! or struct (its struct's fields null there too), an item or field of the nested type checked
//! as a column's cell is.

use alloc::sync::Arc;
use alloc::vec::Vec;

use arrow_array::{ArrayRef, FixedSizeListArray, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::DataType;

use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::format::value::Value;

/// The items of the fixed-size lists of one batch, at most (the default decompressed budget's
/// worth of float64s, 256 MiB).
const MAX_FIXED_ITEMS: u64 = crate::container::limits::DEFAULT_MAX_DECOMPRESSED / 8;

/// How a leaf of a nested type (a number, a string, ...) is built from its values: the column
/// reader's own builder, handed down (this module sits below it).
pub(super) type Leaf<'a> = &'a dyn Fn(&DataType, Vec<Value>) -> Result<ArrayRef>;

/// The array of type `dt` (a `List`, `FixedSizeList` or `Struct`, nested as deep as the type
/// says) of `cells`, its leaves built by `leaf`. A fixed-size list's cell is a list of exactly
/// its size's items (python-blosc2 stores an `ndarray` item of a `list` column flat).
pub(super) fn nested(dt: &DataType, cells: &[&Value], leaf: Leaf<'_>) -> Result<ArrayRef> {
    let valid: Vec<bool> = cells.iter().map(|v| !matches!(v, Value::Nil)).collect();
    let nulls = valid.contains(&false).then(|| NullBuffer::from(valid.clone()));
    let bad = |i: usize, v: &Value, what: &'static str| {
        Error::invalid(what, "", alloc::format!("{v:?}"), 0).in_segment(Segment::Index(i))
    };
    match dt {
        DataType::List(field) => {
            let mut lens = Vec::with_capacity(cells.len());
            let mut items: Vec<&Value> = Vec::new();
            for (i, v) in cells.iter().enumerate() {
                match v {
                    Value::Nil => lens.push(0),
                    Value::Array(a) | Value::Tuple(a) => {
                        lens.push(a.len());
                        items.extend(a.iter());
                    }
                    other => return Err(bad(i, other, "a list (or a null) in a list column")),
                }
            }
            let child = array(field.data_type(), &items, leaf)?;
            let list = ListArray::try_new(field.clone(), OffsetBuffer::from_lengths(lens), child, nulls)
                .map_err(|e| Error::invalid("a list array", "", e.to_string(), 0))?;
            Ok(Arc::new(list))
        }
        DataType::FixedSizeList(field, size) => {
            let n = usize::try_from(*size).ok().filter(|&n| n > 0);
            let Some(n) = n else {
                return Err(Error::invalid("a fixed-size list of 1 or more items", 1, size, 0));
            };
            // A null is `n` null items: their count bounded before any is made, as a crafted
            // `item_shape` could make them many more than the stored cells.
            let total = cells.len().checked_mul(n).filter(|&t| t as u64 <= MAX_FIXED_ITEMS);
            let Some(total) = total else {
                return Err(Error::invalid(
                    "fixed-size list items in one batch, at most",
                    MAX_FIXED_ITEMS,
                    alloc::format!("{} x {n}", cells.len()),
                    0,
                ));
            };
            let mut items: Vec<&Value> = Vec::new();
            try_reserve(&mut items, total, "a fixed-size list's items", 0)?;
            for (i, v) in cells.iter().enumerate() {
                match v {
                    Value::Nil => items.extend(core::iter::repeat_n(&Value::Nil, n)),
                    Value::Array(a) | Value::Tuple(a) if a.len() == n => items.extend(a.iter()),
                    other => return Err(bad(i, other, "a list of the fixed size (or a null)")),
                }
            }
            let child = array(field.data_type(), &items, leaf)?;
            let list = FixedSizeListArray::try_new(field.clone(), *size, child, nulls)
                .map_err(|e| Error::invalid("a fixed-size list array", "", e.to_string(), 0))?;
            Ok(Arc::new(list))
        }
        DataType::Struct(fields) => {
            let mut columns = Vec::with_capacity(fields.len());
            for f in fields.iter() {
                let mut values: Vec<&Value> = Vec::with_capacity(cells.len());
                for (i, v) in cells.iter().enumerate() {
                    values.push(match v {
                        Value::Nil => &Value::Nil,
                        Value::Map(m) => m
                            .iter()
                            .find(|(k, _)| k.as_str() == Some(f.name().as_str()))
                            .map(|(_, v)| v)
                            .ok_or_else(|| bad(i, v, "a struct holding every field of the schema"))?,
                        other => return Err(bad(i, other, "a struct (or a null) in a struct column")),
                    });
                }
                columns.push(
                    array(f.data_type(), &values, leaf)
                        .map_err(|e| e.in_segment(Segment::Key(f.name().clone())))?,
                );
            }
            let s = StructArray::try_new(fields.clone(), columns, nulls)
                .map_err(|e| Error::invalid("a struct array", "", e.to_string(), 0))?;
            Ok(Arc::new(s))
        }
        other => Err(Error::invalid("a list or struct type", "List, FixedSizeList or Struct", other, 0)),
    }
}

/// The array of type `dt` of `values`: nested again, or a leaf built by `leaf`.
fn array(dt: &DataType, values: &[&Value], leaf: Leaf<'_>) -> Result<ArrayRef> {
    match dt {
        DataType::List(_) | DataType::FixedSizeList(..) | DataType::Struct(_) => nested(dt, values, leaf),
        _ => leaf(dt, values.iter().map(|v| (*v).clone()).collect()),
    }
}
