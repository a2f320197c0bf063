//! A CTable's column as typed Rust values: python-blosc2's `t["temp"][:]`, the live rows only,
//! `None` where the row holds a null (a mask or a sentinel).

use alloc::string::String;
use alloc::vec::Vec;

use super::ctable::CTable;
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::format::value::Value;

/// A Rust type a column's cells read as ([`CTable::column`]): the integers (a cell out of the
/// type's range is an error), `f32` and `f64` (float columns), `bool`, `String` (string and
/// `utf8`, `vlstring` and dictionary columns), `Vec<u8>` (bytes columns), and [`Value`] (any cell,
/// as [`CTable::rows`] gives it).
pub trait Cell: Sized {
    /// The cell as `Self`, or `None` when it is of another kind.
    fn from_cell(cell: &Value) -> Option<Self>;
    /// What `Self` is, in messages.
    const WHAT: &'static str;
}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn from_cell(cell: &Value) -> Option<Self> {
                match cell {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
            const WHAT: &'static str = stringify!($t);
        }
    )*};
}

ints!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Cell for f64 {
    fn from_cell(cell: &Value) -> Option<Self> {
        match cell {
            Value::F64(v) => Some(*v),
            Value::F32(v) => Some(f64::from(*v)),
            _ => None,
        }
    }
    const WHAT: &'static str = "f64";
}

impl Cell for f32 {
    fn from_cell(cell: &Value) -> Option<Self> {
        match cell {
            Value::F32(v) => Some(*v),
            _ => None,
        }
    }
    const WHAT: &'static str = "f32";
}

impl Cell for bool {
    fn from_cell(cell: &Value) -> Option<Self> {
        match cell {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    const WHAT: &'static str = "bool";
}

impl Cell for String {
    fn from_cell(cell: &Value) -> Option<Self> {
        cell.as_str().map(String::from)
    }
    const WHAT: &'static str = "String";
}

impl Cell for Vec<u8> {
    fn from_cell(cell: &Value) -> Option<Self> {
        match cell {
            Value::Bin(b) => Some(b.clone()),
            _ => None,
        }
    }
    const WHAT: &'static str = "Vec<u8>";
}

impl Cell for Value {
    fn from_cell(cell: &Value) -> Option<Self> {
        Some(cell.clone())
    }
    const WHAT: &'static str = "Value";
}

impl CTable {
    /// The live rows of column `name` as `T`, in order, `None` for a null (python-blosc2's
    /// `t[name][:]` with its nulls): read a band of rows at a time, deleted rows left out. A cell
    /// of another kind than `T` is an error that names the column and the row.
    ///
    /// ```
    /// # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
    /// let table = b2schema::table::CTable::open(&path)?;
    /// let ids: Vec<Option<i64>> = table.column("id")?;       // python: t["id"][:]
    /// assert_eq!(ids[..3], [Some(0), Some(2), Some(3)]);      // row 1 was deleted
    /// let x: Vec<Option<f64>> = table.column("x")?;
    /// assert_eq!(x.len(), ids.len());
    /// assert!(table.column::<String>("id").is_err());         // not a text column
    /// # Ok::<(), b2schema::Error>(())
    /// ```
    pub fn column<T: Cell>(&self, name: &str) -> Result<Vec<Option<T>>> {
        let spec = self.column_spec(name)?;
        let mut out: Vec<Option<T>> = Vec::new();
        let mut row = 0u64;
        self.for_each_row(Some(&[name]), |cells| {
            let cell = &cells[0];
            let v = match cell {
                Value::Nil => None,
                c => Some(T::from_cell(c).ok_or_else(|| {
                    Error::mismatch(
                        "cells that read as",
                        T::WHAT,
                        format_args!("{} (column kind {})", kind_of(c), spec.kind),
                    )
                    .in_segment(Segment::Index(row as usize))
                    .in_segment(Segment::Key(String::from(name)))
                })?),
            };
            try_reserve(&mut out, 1, "the cells of a column", 0)?;
            out.push(v);
            row += 1;
            Ok(())
        })?;
        Ok(out)
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Nil => "null",
        Value::Bool(_) => "a bool",
        Value::Int(_) => "an integer",
        Value::F32(_) => "a float32",
        Value::F64(_) => "a float64",
        Value::Str(_) => "text",
        Value::Bin(_) => "bytes",
        Value::Array(_) => "a list",
        Value::Map(_) => "a map",
        Value::Tuple(_) => "a tuple",
        Value::Complex { .. } => "a complex number",
        Value::Set(_) => "a set",
        Value::Ext(..) => "an ext value",
    }
}
