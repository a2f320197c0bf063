//! A CTable's `list` and `struct` columns as Arrow `List` and `Struct` arrays, built from their
//! cells (lists as [`Value::Array`], structs as [`Value::Map`] by field name, null rows as
//! [`Value::Nil`]), as python-blosc2's `CTable.to_arrow()` gives them: a null row is a null list
//! or struct (its struct's fields null there too), an item or field of the nested type checked
//! as a column's cell is.

use alloc::sync::Arc;
use alloc::vec::Vec;

use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::DataType;

use crate::container::error::{Error, Result, Segment};
use crate::format::value::Value;

/// How a leaf of a nested type (a number, a string, ...) is built from its values: the column
/// reader's own builder, handed down (this module sits below it).
pub(super) type Leaf<'a> = &'a dyn Fn(&DataType, Vec<Value>) -> Result<ArrayRef>;

/// The array of type `dt` (a `List` or a `Struct`, nested as deep as the type says) of `cells`,
/// its leaves built by `leaf`.
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
        other => Err(Error::invalid("a list or struct type", "List or Struct", other, 0)),
    }
}

/// The array of type `dt` of `values`: nested again, or a leaf built by `leaf`.
fn array(dt: &DataType, values: &[&Value], leaf: Leaf<'_>) -> Result<ArrayRef> {
    match dt {
        DataType::List(_) | DataType::Struct(_) => nested(dt, values, leaf),
        _ => leaf(dt, values.iter().map(|v| (*v).clone()).collect()),
    }
}
